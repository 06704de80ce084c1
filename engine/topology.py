"""Board geometry: hexes, intersections, paths and their adjacency, computed once at import.

The base board is 19 pointy-top land hexes in rows of 3, 4, 5, 4, 3. Geometry lives on an integer
lattice: a hex centre is ``(x, y)`` with ``y = 3 * (row - 2)`` and neighbours in a row 2 apart in x;
its six corners are at ``(x, y-2)``, ``(x+1, y-1)``, ``(x+1, y+1)``, ``(x, y+2)``, ``(x-1, y+1)``,
``(x-1, y-1)``. Intersections and paths are numbered in reading order (top to bottom, left to
right), so ids are stable and the TUI can draw from the same coordinates.

Everything a rule needs is an integer-indexed tuple (``# perf:`` the engine's hot paths index these
directly; see scripts/bench_engine.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hexlan.engine.core import HexId, NodeId, PathId

ROW_LENGTHS = (3, 4, 5, 4, 3)
"""Land hexes per row of the base board, top to bottom."""
COAST_START_DEGREES = 125
"""Where the coast ring starts: between the top-left hex's two outer edges (screen degrees)."""
CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""A hex's six corners relative to its centre on the lattice, clockwise from the top."""


@dataclass(frozen=True, slots=True)
class Topology:
    """The fixed graph of a board shape.

    Attributes:
        hex_centres: lattice ``(x, y)`` of each hex centre.
        hex_rows: for each row top to bottom, the hex ids in it, left to right.
        node_xy: lattice ``(x, y)`` of each intersection.
        path_nodes: the two intersections ``(a, b)``, ``a < b``, of each path.
        hex_nodes: the six intersections of each hex, clockwise from the top corner.
        node_hexes: the land hexes touching each intersection (1 to 3).
        node_nodes: the intersections one path away from each intersection (2 or 3).
        node_paths: the paths touching each intersection, aligned with ``node_nodes``.
        hex_hexes: the land hexes sharing an edge with each hex.
        coast: the coastal paths (those on one land hex only) clockwise from the top-left hex's
            upper-left edge; harbours are placed by indices into this ring.
        path_of: the path id for an unordered pair of adjacent intersections.
    """

    hex_centres: tuple[tuple[int, int], ...]
    hex_rows: tuple[tuple[HexId, ...], ...]
    node_xy: tuple[tuple[int, int], ...]
    path_nodes: tuple[tuple[NodeId, NodeId], ...]
    hex_nodes: tuple[tuple[NodeId, ...], ...]
    node_hexes: tuple[tuple[HexId, ...], ...]
    node_nodes: tuple[tuple[NodeId, ...], ...]
    node_paths: tuple[tuple[PathId, ...], ...]
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


def build_topology(row_lengths: tuple[int, ...] = ROW_LENGTHS) -> Topology:
    """Compute the graph of a hexagonal board of pointy-top hexes in the given rows.

    Args:
        row_lengths: hexes per row, top to bottom; rows are centred on each other.

    Returns:
        The :class:`Topology`; for the default rows it has 19 hexes, 54 intersections, 72 paths.
    """
    middle = len(row_lengths) // 2
    centres: list[tuple[int, int]] = []
    rows: list[tuple[HexId, ...]] = []
    for row, length in enumerate(row_lengths):
        y = 3 * (row - middle)
        first = -(length - 1)
        ids = []
        for i in range(length):
            ids.append(len(centres))
            centres.append((first + 2 * i, y))
        rows.append(tuple(ids))

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

    def clockwise_degrees(p: PathId) -> float:
        """Screen angle of the path's midpoint, clockwise from the top-left hex's upper-left edge."""
        (ax, ay), (bx, by) = node_xy[path_nodes[p][0]], node_xy[path_nodes[p][1]]
        x, y = (ax + bx) * math.sqrt(3) / 4, (ay + by) / 4  # lattice to true proportions
        return (math.degrees(math.atan2(y, x)) + COAST_START_DEGREES) % 360

    coast = tuple(sorted(coastal, key=clockwise_degrees))
    return Topology(
        hex_centres=tuple(centres),
        hex_rows=tuple(rows),
        node_xy=tuple(node_xy),
        path_nodes=path_nodes,
        hex_nodes=hex_nodes,
        node_hexes=tuple(tuple(sorted(h)) for h in node_hexes),
        node_nodes=tuple(tuple(n) for n in node_nodes),
        node_paths=tuple(tuple(p) for p in node_paths),
        hex_hexes=tuple(tuple(sorted(h)) for h in hex_hexes),
        coast=coast,
        path_of=path_of,
    )


BASE_TOPOLOGY = build_topology()
"""The base game's board graph, shared by every game (it never changes)."""
