"""The longest single road of a seat (official rule: Longest Road; seed 002 «Самый длинный тракт»).

A road counts the segments of the longest trail through the seat's roads that uses no segment
twice; it cannot continue through an intersection holding another seat's settlement or city
(the trail may end there).
"""

from __future__ import annotations

from collections.abc import Sequence

from hexlan.engine.core import NO_SEAT, NodeId, PathId, Seat
from hexlan.engine.topology import Topology


def longest_road(
    topology: Topology,
    roads: Sequence[PathId],
    seat: Seat,
    node_owner: Sequence[Seat],
) -> int:
    """Length in segments of the longest trail in ``roads``.

    Args:
        topology: the board graph.
        roads: the seat's road paths.
        seat: the owner of the roads.
        node_owner: owner of each intersection's building, ``NO_SEAT`` if none.

    Returns:
        0 .. len(roads).
    """
    if not roads:
        return 0
    # perf: adjacency restricted to this seat's roads, as lists of (path, other node).
    adjacency: dict[NodeId, list[tuple[PathId, NodeId]]] = {}
    path_nodes = topology.path_nodes
    for p in roads:
        a, b = path_nodes[p]
        adjacency.setdefault(a, []).append((p, b))
        adjacency.setdefault(b, []).append((p, a))
    used: set[PathId] = set()
    best = 0

    def extend(node: NodeId, length: int) -> None:
        nonlocal best
        best = max(best, length)
        owner = node_owner[node]
        if length and owner not in (NO_SEAT, seat):
            return  # broken by another seat's building
        for p, other in adjacency[node]:
            if p not in used:
                used.add(p)
                extend(other, length + 1)
                used.discard(p)

    # A longest trail starts at a dead end or fork (odd degree), or where another seat's
    # building cuts the road; a piece of road with neither is a closed loop, where any node
    # will do. (Otherwise a trail could be made longer by one more segment at its start.)
    ends = [
        n
        for n, links in adjacency.items()
        if len(links) != 2 or node_owner[n] not in (NO_SEAT, seat)
    ]
    reached = set(ends)
    stack = list(ends)
    for node in (*ends, *adjacency):
        if node not in reached:  # a loop not reached from any end: start on it too
            ends.append(node)
            reached.add(node)
            stack.append(node)
        while stack:
            for _, other in adjacency[stack.pop()]:
                if other not in reached:
                    reached.add(other)
                    stack.append(other)
    for node in ends:
        extend(node, 0)
        if best == len(roads):
            break
    return best
