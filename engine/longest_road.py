"""The longest single road of a seat (official rule: Longest Road; seed 002 «Самый длинный тракт»).

A road counts the segments of the longest trail through the seat's roads that uses no segment
twice; it cannot continue through an intersection holding another seat's settlement or city
(the trail may end there). Seafarers' Longest Trade Route (:func:`longest_trade_route`) counts
roads and ships together, a road and a ship joining only at the seat's own settlement or city
(seed 002 «Мореходы»).
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
    # perf: adjacency restricted to this seat's roads, as (bit of the path, other node); the
    # segments a trail has used are one int bitmask.
    adjacency: dict[NodeId, list[tuple[int, NodeId]]] = {}
    path_nodes = topology.path_nodes
    for p in roads:
        a, b = path_nodes[p]
        bit = 1 << p
        adjacency.setdefault(a, []).append((bit, b))
        adjacency.setdefault(b, []).append((bit, a))
    blocked = {n for n in adjacency if node_owner[n] not in (NO_SEAT, seat)}
    best = 0

    def extend(node: NodeId, length: int, used: int) -> None:
        nonlocal best
        best = max(best, length)
        if length and node in blocked:
            return  # broken by another seat's building
        for bit, other in adjacency[node]:
            if not used & bit:
                extend(other, length + 1, used | bit)

    # A longest trail starts at a dead end or fork (odd degree), or where another seat's
    # building cuts the road; a piece of road with neither is a closed loop, where any node
    # will do. (Otherwise a trail could be made longer by one more segment at its start.)
    ends = [n for n, links in adjacency.items() if len(links) != 2 or n in blocked]
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
        extend(node, 0, 0)
        if best == len(roads):
            break
    return best


def longest_trade_route(
    topology: Topology,
    roads: Sequence[PathId],
    ships: Sequence[PathId],
    seat: Seat,
    node_owner: Sequence[Seat],
) -> int:
    """Length in segments of the longest trail over ``roads`` and ``ships`` (Longest Trade
    Route; seed 002 «Мореходы»: road and ship segments count together when joined through a
    settlement or city).

    The trail stops at another seat's building, and passes from a road to a ship (or back) only
    where the seat's own settlement or city stands.

    Args:
        topology: the board graph.
        roads, ships: the seat's road and ship paths.
        seat: their owner.
        node_owner: owner of each intersection's building, ``NO_SEAT`` if none.

    Returns:
        0 .. len(roads) + len(ships).
    """
    if not ships:
        return longest_road(topology, roads, seat, node_owner)
    adjacency: dict[NodeId, list[tuple[int, NodeId, bool]]] = {}
    path_nodes = topology.path_nodes
    for kind, paths in ((False, roads), (True, ships)):
        for p in paths:
            a, b = path_nodes[p]
            bit = 1 << p
            adjacency.setdefault(a, []).append((bit, b, kind))
            adjacency.setdefault(b, []).append((bit, a, kind))
    best = 0
    total = len(roads) + len(ships)

    def extend(node: NodeId, length: int, used: int, kind: bool | None) -> None:
        nonlocal best
        best = max(best, length)
        owner = node_owner[node]
        if length and owner not in (NO_SEAT, seat):
            return  # broken by another seat's building
        for bit, other, other_kind in adjacency[node]:
            if used & bit:
                continue
            if kind is not None and other_kind != kind and owner != seat:
                continue  # road and ship meet only at an own building
            extend(other, length + 1, used | bit, other_kind)

    for node in adjacency:  # a route is short: start everywhere
        extend(node, 0, 0, None)
        if best == total:
            break
    return best
