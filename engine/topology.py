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
intersections and 72 paths, numbered as the engine always has. Corners and sides that touch only sea
(for ships, later) would be numbered after these.

Everything a rule needs is an integer-indexed tuple (``# perf:`` the engine's hot paths index these
directly; see scripts/bench_engine.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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
    land: Iterable[Axial], sea: Iterable[Axial] = (), name: str = "custom"
) -> Topology:
    """Compute the graph of a map of pointy-top hexes.

    Args:
        land: axial ``(q, r)`` of each land hex (any order; ids follow reading order).
        sea: axial ``(q, r)`` of each sea hex.
        name: the map's name.

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
    path_nodes = tuple(sorted(edge_hexes))
    path_of = {frozenset(pair): p for p, pair in enumerate(path_nodes)}
    hex_paths = tuple(
        tuple(path_of[frozenset((nodes[k], nodes[(k + 1) % 6]))] for k in range(6))
        for nodes in hex_nodes
    )

    node_nodes: list[list[NodeId]] = [[] for _ in node_xy]
    node_paths: list[list[PathId]] = [[] for _ in node_xy]
    for p, (a, b) in enumerate(path_nodes):
        node_nodes[a].append(b)
        node_paths[a].append(p)
        node_nodes[b].append(a)
        node_paths[b].append(p)

    node_hexes: list[list[HexId]] = [[] for _ in node_xy]
    for h, nodes in enumerate(hex_nodes):
        for n in nodes:
            node_hexes[n].append(h)

    hex_hexes: list[set[HexId]] = [set() for _ in centres]
    for hexes in edge_hexes.values():
        if len(hexes) == 2:
            hex_hexes[hexes[0]].add(hexes[1])
            hex_hexes[hexes[1]].add(hexes[0])

    coastal = [p for p, pair in enumerate(path_nodes) if len(edge_hexes[pair]) == 1]
    mid_x = (min(x for x, _ in centres) + max(x for x, _ in centres)) / 2
    mid_y = (min(y for _, y in centres) + max(y for _, y in centres)) / 2

    def clockwise_degrees(p: PathId) -> float:
        """Screen angle of the path's midpoint about the map's middle, from the north-west."""
        (ax, ay), (bx, by) = node_xy[path_nodes[p][0]], node_xy[path_nodes[p][1]]
        # lattice to true proportions
        x, y = (ax + bx - 2 * mid_x) * math.sqrt(3) / 4, (ay + by - 2 * mid_y) / 4
        return (math.degrees(math.atan2(y, x)) + COAST_START_DEGREES) % 360

    return Topology(
        name=name,
        axial=tuple(land_list),
        sea_axial=tuple(sea_list),
        hex_centres=tuple(centres),
        sea_centres=tuple(lattice(a) for a in sea_list),
        hex_rows=tuple(tuple(rows[y]) for y in sorted(rows)),
        node_xy=tuple(node_xy),
        path_nodes=path_nodes,
        hex_nodes=hex_nodes,
        hex_paths=hex_paths,
        node_hexes=tuple(tuple(sorted(h)) for h in node_hexes),
        node_nodes=tuple(tuple(n) for n in node_nodes),
        node_paths=tuple(tuple(p) for p in node_paths),
        path_hexes=tuple(tuple(edge_hexes[pair]) for pair in path_nodes),
        hex_hexes=tuple(tuple(sorted(h)) for h in hex_hexes),
        coast=tuple(sorted(coastal, key=clockwise_degrees)),
        path_of=path_of,
    )
