"""Board geometry: hexes, intersections, paths and their adjacency, derived from any set of hexes.

A map is a set of pointy-top hexes in axial coordinates ``(q, r)``: ``r`` grows southwards, ``q``
eastwards, and a hex's six neighbours are E ``(q+1, r)``, NE ``(q+1, r-1)``, NW ``(q, r-1)``,
W ``(q-1, r)``, SW ``(q-1, r+1)``, SE ``(q, r+1)``. Each hex is land or sea (the sea frame is part of
the map). Geometry lives on an integer lattice: hex ``(q, r)`` has its centre at
``(x, y) = (2q + r, 3r)`` and its six corners at ``(x, y-2)``, ``(x+1, y-1)``, ``(x+1, y+1)``,
``(x, y+2)``, ``(x-1, y+1)``, ``(x-1, y-1)``.

**Ids, in a documented order** (stable under reloading; the TUI draws from the same coordinates):

- hexes: the land hexes in reading order (by ``r``, then ``q``) are ``0 .. hex_count-1``; the sea
  hexes follow in reading order (:attr:`Topology.sea_axial`);
- intersections: the corners of land hexes, in reading order of their lattice point (by ``y``, then
  ``x``);
- paths: the hex sides with at least one land hex, as the sorted pairs of their two intersections.

On the base map (19 land hexes in rows of 3, 4, 5, 4, 3, centred on ``(0, 0)``) this gives 54
intersections and 72 paths, numbered as the engine always has. A map for ships (Seafarers,
``sea_paths``) numbers the corners and sides that touch only sea after these: intersections
``land_node_count ..`` in reading order, then paths ``land_path_count ..`` as sorted pairs. Roads,
settlements and the distance rule see only the land part (``node_nodes``, ``node_paths``); ships
move on every path with sea on a side (``ship_paths``, ``node_ship_paths``).

Everything a rule needs is an integer-indexed tuple (``# perf:`` the engine's hot paths index these
directly; see scripts/bench_engine.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from hexlan.engine.core import EngineError, HexId, NodeId, PathId

Axial = tuple[int, int]
"""A hex position ``(q, r)`` in axial coordinates (pointy-top, ``r`` grows southwards)."""

CORNER_OFFSETS: Final = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""A hex's six corners relative to its centre on the lattice, clockwise from the top."""
SIDES: Final = ("NE", "E", "SE", "SW", "W", "NW")
"""A hex's six sides, clockwise from the upper right; side ``k`` joins corners ``k`` and ``k+1``."""
DIRECTIONS: Final[Mapping[str, Axial]] = MappingProxyType(
    {"NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1)}
)
"""The axial step to the neighbour across each side."""
COAST_START_DEGREES: Final = 125
"""Where the coast ring starts: between the top-left hex's two outer edges (screen degrees)."""


def lattice(hex_position: Axial) -> tuple[int, int]:
    """The lattice centre ``(x, y)`` of an axial hex position.

    >>> lattice((0, 0)), lattice((1, -2))
    ((0, 0), (0, -6))
    """
    q, r = hex_position
    return (2 * q + r, 3 * r)


@dataclass(frozen=True, slots=True)
class Topology:
    """The fixed graph of a map.

    Attributes:
        name: the map's name (its seeds/boards/ file without ``.toml``).
        axial: axial ``(q, r)`` of each land hex, by hex id.
        sea_axial: axial ``(q, r)`` of each sea hex, in reading order (sea hex ``i`` has id
            ``hex_count + i``).
        hex_centres: lattice ``(x, y)`` of each land hex centre.
        sea_centres: lattice ``(x, y)`` of each sea hex centre.
        hex_rows: the land hex ids of each row, north to south, west to east.
        node_xy: lattice ``(x, y)`` of each intersection.
        path_nodes: the two intersections ``(a, b)``, ``a < b``, of each path.
        hex_nodes: the six intersections of each land hex, clockwise from the top corner.
        hex_paths: the six paths of each land hex, in :data:`SIDES` order.
        node_hexes: the land hexes touching each intersection (1 to 3).
        node_nodes: the intersections one path away from each intersection (2 or 3).
        node_paths: the paths touching each intersection, aligned with ``node_nodes``.
        path_hexes: the land hexes on each side of each path (1 or 2).
        hex_hexes: the land hexes sharing a side with each land hex.
        coast: the coastal paths (those on one land hex only) clockwise from the north-west.
        path_of: the path id for an unordered pair of adjacent intersections.
        land_node_count, land_path_count: intersections and paths touching a land hex (all of
            them but the sea-only ones, which only a map for ships has).
        path_sea: per path, whether a sea hex lies on a side of it (empty without ``sea_paths``).
        node_ship_nodes, node_ship_paths: per intersection, every neighbour and the path to it,
            sea-only ones included (empty without ``sea_paths``).
        sea_hex_paths: the six paths of each sea hex, in :data:`SIDES` order (empty without
            ``sea_paths``).
        hex_island: per land hex, its island: the index of its group of land hexes joined side
            to side, islands numbered in order of their first hex id (or the map's regions,
            :func:`with_regions`).
        node_island: per intersection, the island of its land hexes (-1 for a sea-only one); of
            the lowest-numbered one where its hexes lie on several (regions only).
    """

    name: str
    axial: tuple[Axial, ...]
    sea_axial: tuple[Axial, ...]
    hex_centres: tuple[tuple[int, int], ...]
    sea_centres: tuple[tuple[int, int], ...]
    hex_rows: tuple[tuple[HexId, ...], ...]
    node_xy: tuple[tuple[int, int], ...]
    path_nodes: tuple[tuple[NodeId, NodeId], ...]
    hex_nodes: tuple[tuple[NodeId, ...], ...]
    hex_paths: tuple[tuple[PathId, ...], ...]
    node_hexes: tuple[tuple[HexId, ...], ...]
    node_nodes: tuple[tuple[NodeId, ...], ...]
    node_paths: tuple[tuple[PathId, ...], ...]
    path_hexes: tuple[tuple[HexId, ...], ...]
    hex_hexes: tuple[tuple[HexId, ...], ...]
    coast: tuple[PathId, ...]
    path_of: dict[frozenset[NodeId], PathId]
    land_node_count: int = 0
    land_path_count: int = 0
    path_sea: tuple[bool, ...] = ()
    node_ship_nodes: tuple[tuple[NodeId, ...], ...] = ()
    node_ship_paths: tuple[tuple[PathId, ...], ...] = ()
    sea_hex_paths: tuple[tuple[PathId, ...], ...] = ()
    hex_island: tuple[int, ...] = ()
    node_island: tuple[int, ...] = ()

    @property
    def hex_count(self) -> int:
        """Number of land hexes."""
        return len(self.hex_centres)

    @property
    def node_count(self) -> int:
        """Number of intersections."""
        return len(self.node_xy)

    @property
    def path_count(self) -> int:
        """Number of paths."""
        return len(self.path_nodes)

    def hex_at(self, hex_position: Axial) -> HexId:
        """The land hex id at an axial position.

        Raises:
            EngineError: no land hex is there.
        """
        try:
            return self.axial.index(hex_position)
        except ValueError:
            raise EngineError(f"no land hex at {list(hex_position)} on map {self.name!r}") from None

    def side_path(self, hex_id: HexId, side: str) -> PathId:
        """The path on one side of a land hex.

        Args:
            hex_id: a land hex.
            side: one of :data:`SIDES` ("NE", "E", "SE", "SW", "W", "NW").

        Raises:
            EngineError: an unknown side name.
        """
        if side not in SIDES:
            raise EngineError(f"a hex side is one of {', '.join(SIDES)}, not {side!r}")
        return self.hex_paths[hex_id][SIDES.index(side)]


def build_topology(
    land: Iterable[Axial], sea: Iterable[Axial] = (), name: str = "custom", sea_paths: bool = False
) -> Topology:
    """Compute the graph of a map of pointy-top hexes.

    Args:
        land: axial ``(q, r)`` of each land hex (any order; ids follow reading order).
        sea: axial ``(q, r)`` of each sea hex.
        name: the map's name.
        sea_paths: also number the corners and sides of sea hexes that touch no land (a map
            for ships; see the module docstring). The land part is numbered the same either way.

    Returns:
        The :class:`Topology`; for the base map it has 19 hexes, 54 intersections, 72 paths.

    Raises:
        EngineError: no land hex, or a position listed twice.
    """
    land_list = sorted({(int(q), int(r)) for q, r in land}, key=lambda a: (a[1], a[0]))
    sea_list = sorted({(int(q), int(r)) for q, r in sea}, key=lambda a: (a[1], a[0]))
    if not land_list:
        raise EngineError(f"map {name!r} has no land hex")
    if set(land_list) & set(sea_list):
        raise EngineError(f"map {name!r} lists a hex as both land and sea")
    centres = [lattice(a) for a in land_list]
    rows: dict[int, list[HexId]] = {}
    for h, (_, y) in enumerate(centres):
        rows.setdefault(y, []).append(h)

    node_xy, hex_nodes, edge_hexes = _corners_and_sides(centres)
    path_nodes = tuple(sorted(edge_hexes))
    path_of = {frozenset(pair): p for p, pair in enumerate(path_nodes)}
    hex_paths = tuple(
        tuple(path_of[frozenset((nodes[k], nodes[(k + 1) % 6]))] for k in range(6))
        for nodes in hex_nodes
    )
    node_nodes, node_paths, node_hexes, hex_hexes = _neighbours(
        len(node_xy), len(centres), path_nodes, hex_nodes, edge_hexes
    )
    coastal = [p for p, pair in enumerate(path_nodes) if len(edge_hexes[pair]) == 1]
    coast = _clockwise(coastal, centres, node_xy, path_nodes)
    islands = _islands(len(centres), hex_hexes)
    node_island = [islands[hexes[0]] if hexes else -1 for hexes in node_hexes]
    ship = _ShipGraph((), (), (), ())
    all_nodes: list[tuple[int, int]] = node_xy
    all_paths: list[tuple[NodeId, NodeId]] = list(path_nodes)
    if sea_paths:
        ship, all_nodes, all_paths = _ship_graph(node_xy, path_nodes, sea_list)
        node_island += [-1] * (len(all_nodes) - len(node_xy))
        path_of = {frozenset(pair): p for p, pair in enumerate(all_paths)}
    return Topology(
        name=name,
        axial=tuple(land_list),
        sea_axial=tuple(sea_list),
        hex_centres=tuple(centres),
        sea_centres=tuple(lattice(a) for a in sea_list),
        hex_rows=tuple(tuple(rows[y]) for y in sorted(rows)),
        node_xy=tuple(all_nodes),
        path_nodes=tuple(all_paths),
        hex_nodes=hex_nodes,
        hex_paths=hex_paths,
        node_hexes=tuple(tuple(sorted(h)) for h in node_hexes)
        + ((),) * (len(all_nodes) - len(node_xy)),
        node_nodes=tuple(tuple(n) for n in node_nodes) + ((),) * (len(all_nodes) - len(node_xy)),
        node_paths=tuple(tuple(p) for p in node_paths) + ((),) * (len(all_nodes) - len(node_xy)),
        path_hexes=tuple(tuple(edge_hexes[pair]) for pair in path_nodes)
        + ((),) * (len(all_paths) - len(path_nodes)),
        hex_hexes=tuple(tuple(sorted(h)) for h in hex_hexes),
        coast=coast,
        path_of=path_of,
        land_node_count=len(node_xy),
        land_path_count=len(path_nodes),
        path_sea=ship.path_sea,
        node_ship_nodes=ship.node_nodes,
        node_ship_paths=ship.node_paths,
        sea_hex_paths=ship.sea_hex_paths,
        hex_island=islands,
        node_island=tuple(node_island),
    )


def _corners_and_sides(
    centres: list[tuple[int, int]],
) -> tuple[
    list[tuple[int, int]], tuple[tuple[NodeId, ...], ...], dict[tuple[NodeId, NodeId], list[HexId]]
]:
    """The land hexes' corners in reading order (their lattice points), each hex's six corner
    ids, and each side (a pair of corner ids, the lower first) with the hexes it borders."""
    corners = {(cx + dx, cy + dy) for cx, cy in centres for dx, dy in CORNER_OFFSETS}
    node_xy = sorted(corners, key=lambda p: (p[1], p[0]))
    node_index = {xy: i for i, xy in enumerate(node_xy)}
    hex_nodes = tuple(
        tuple(node_index[(cx + dx, cy + dy)] for dx, dy in CORNER_OFFSETS) for cx, cy in centres
    )
    edge_hexes: dict[tuple[NodeId, NodeId], list[HexId]] = {}
    for h, nodes in enumerate(hex_nodes):
        for k in range(6):
            a, b = nodes[k], nodes[(k + 1) % 6]
            edge_hexes.setdefault((min(a, b), max(a, b)), []).append(h)
    return node_xy, hex_nodes, edge_hexes


def _neighbours(
    nodes: int,
    hexes: int,
    path_nodes: tuple[tuple[NodeId, NodeId], ...],
    hex_nodes: tuple[tuple[NodeId, ...], ...],
    edge_hexes: dict[tuple[NodeId, NodeId], list[HexId]],
) -> tuple[list[list[NodeId]], list[list[PathId]], list[list[HexId]], list[set[HexId]]]:
    """Each corner's neighbouring corners and paths (in path order) and its hexes, and each
    hex's neighbouring hexes (side to side)."""
    node_nodes: list[list[NodeId]] = [[] for _ in range(nodes)]
    node_paths: list[list[PathId]] = [[] for _ in range(nodes)]
    for p, (a, b) in enumerate(path_nodes):
        node_nodes[a].append(b)
        node_paths[a].append(p)
        node_nodes[b].append(a)
        node_paths[b].append(p)
    node_hexes: list[list[HexId]] = [[] for _ in range(nodes)]
    for h, corners in enumerate(hex_nodes):
        for n in corners:
            node_hexes[n].append(h)
    hex_hexes: list[set[HexId]] = [set() for _ in range(hexes)]
    for bordered in edge_hexes.values():
        if len(bordered) == 2:
            hex_hexes[bordered[0]].add(bordered[1])
            hex_hexes[bordered[1]].add(bordered[0])
    return node_nodes, node_paths, node_hexes, hex_hexes


def _clockwise(
    coastal: list[PathId],
    centres: list[tuple[int, int]],
    node_xy: list[tuple[int, int]],
    path_nodes: tuple[tuple[NodeId, NodeId], ...],
) -> tuple[PathId, ...]:
    """The coastal paths clockwise about the map's middle, from the north-west."""
    mid_x = (min(x for x, _ in centres) + max(x for x, _ in centres)) / 2
    mid_y = (min(y for _, y in centres) + max(y for _, y in centres)) / 2

    def clockwise_degrees(p: PathId) -> float:
        """Screen angle of the path's midpoint about the map's middle, from the north-west."""
        (ax, ay), (bx, by) = node_xy[path_nodes[p][0]], node_xy[path_nodes[p][1]]
        # lattice to true proportions
        x, y = (ax + bx - 2 * mid_x) * math.sqrt(3) / 4, (ay + by - 2 * mid_y) / 4
        return (math.degrees(math.atan2(y, x)) + COAST_START_DEGREES) % 360

    return tuple(sorted(coastal, key=clockwise_degrees))


def _islands(count: int, hex_hexes: list[set[HexId]]) -> tuple[int, ...]:
    """Each land hex's island: groups of land hexes joined side to side, numbered in order of
    their first hex id."""
    island = [-1] * count
    found = 0
    for start in range(count):
        if island[start] >= 0:
            continue
        island[start] = found
        stack = [start]
        while stack:
            for other in hex_hexes[stack.pop()]:
                if island[other] < 0:
                    island[other] = found
                    stack.append(other)
        found += 1
    return tuple(island)


@dataclass(frozen=True, slots=True)
class _ShipGraph:
    path_sea: tuple[bool, ...]
    node_nodes: tuple[tuple[NodeId, ...], ...]
    node_paths: tuple[tuple[PathId, ...], ...]
    sea_hex_paths: tuple[tuple[PathId, ...], ...]


def _ship_graph(
    node_xy: list[tuple[int, int]],
    path_nodes: tuple[tuple[NodeId, NodeId], ...],
    sea_list: list[Axial],
) -> tuple[_ShipGraph, list[tuple[int, int]], list[tuple[NodeId, NodeId]]]:
    """The sea-only corners and sides numbered after the land ones, and the ship graph over
    all of them: (graph, every intersection's lattice point, every path's two intersections)."""
    sea_centres = [lattice(a) for a in sea_list]
    known = set(node_xy)
    extra = sorted(
        {(cx + dx, cy + dy) for cx, cy in sea_centres for dx, dy in CORNER_OFFSETS} - known,
        key=lambda p: (p[1], p[0]),
    )
    all_nodes = [*node_xy, *extra]
    index = {xy: i for i, xy in enumerate(all_nodes)}
    sea_sides: set[tuple[NodeId, NodeId]] = set()
    sea_hex_corners = []
    for cx, cy in sea_centres:
        corners = [index[(cx + dx, cy + dy)] for dx, dy in CORNER_OFFSETS]
        sea_hex_corners.append(corners)
        for k in range(6):
            a, b = corners[k], corners[(k + 1) % 6]
            sea_sides.add((min(a, b), max(a, b)))
    land_paths = set(path_nodes)
    all_paths = [*path_nodes, *sorted(sea_sides - land_paths)]
    path_id = {pair: p for p, pair in enumerate(all_paths)}
    nodes: list[list[NodeId]] = [[] for _ in all_nodes]
    paths: list[list[PathId]] = [[] for _ in all_nodes]
    for p, (a, b) in enumerate(all_paths):
        nodes[a].append(b)
        paths[a].append(p)
        nodes[b].append(a)
        paths[b].append(p)
    hex_paths = tuple(
        tuple(path_id[(min(c[k], c[(k + 1) % 6]), max(c[k], c[(k + 1) % 6]))] for k in range(6))
        for c in sea_hex_corners
    )
    graph = _ShipGraph(
        path_sea=tuple(pair in sea_sides for pair in all_paths),
        node_nodes=tuple(tuple(n) for n in nodes),
        node_paths=tuple(tuple(p) for p in paths),
        sea_hex_paths=hex_paths,
    )
    return graph, all_nodes, all_paths


def with_regions(topology: Topology, groups: Sequence[Sequence[HexId]]) -> Topology:
    """``topology`` with its islands regrouped into regions: the land areas a Seafarers scenario
    counts instead of islands where land runs on (Through the Desert: the main island, the strip
    past its desert, the desert itself).

    Args:
        topology: the map's graph.
        groups: land hex ids, one sequence per region; the regions are numbered in this order,
            and the hexes in no group keep their islands, numbered after the groups.

    Returns:
        The topology with ``hex_island`` and ``node_island`` replaced; an intersection takes the
        lowest-numbered region among its hexes (so a region listed last, such as a desert
        strip, keeps only the corners no other region touches, as JSettlers2 lays its
        "infill" land areas).

    Raises:
        EngineError: a hex off the map's land, or in two groups.

    >>> from hexlan.engine.topology import build_topology
    >>> topo = with_regions(build_topology([(0, 0), (1, 0), (2, 0)]), [[2], [1]])
    >>> topo.hex_island
    (2, 1, 0)
    >>> sorted(set(topo.node_island))
    [0, 1, 2]
    """
    listed = [h for group in groups for h in group]
    if len(set(listed)) != len(listed):
        raise EngineError("a hex is in two regions")
    if any(not 0 <= h < topology.hex_count for h in listed):
        raise EngineError("a region lists a hex that is not land")
    region = [-1] * topology.hex_count
    for number, group in enumerate(groups):
        for h in group:
            region[h] = number
    rest: dict[int, int] = {}
    for h in range(topology.hex_count):
        if region[h] < 0:
            island = topology.hex_island[h]
            region[h] = rest.setdefault(island, len(groups) + len(rest))
    node_region = tuple(
        min((region[h] for h in hexes), default=-1) for hexes in topology.node_hexes
    )
    return replace(topology, hex_island=tuple(region), node_island=node_region)
