"""Cities & Knights' knights: where they may stand and go, and what placing or lifting one does
to the board (seed 002 «Города и рыцари», the knights; official rules where it is silent).

A knight stands on an intersection: the state's ``node_owner`` names its seat there with
``node_level`` 0 (a building's is 1 or 2), so every rule that reads owners treats it as a piece:
an opponent's knight breaks a road for Longest Road and stops road building past it, as a
settlement does (seed 002: «дорога считается разорванной так же, как и в случае строительства
там города»), and no building goes on its intersection. It closes no other intersection (seed
002: no distance rule for knights).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.core import NO_SEAT, NodeId, Seat
from hexlan.engine.variants.cities_knights.progress import Knight, Progress

if TYPE_CHECKING:
    from hexlan.engine.state import GameState


def road_nodes(state: GameState, seat: Seat) -> set[NodeId]:
    """Intersections at an end of one of the seat's roads."""
    path_nodes = state.topology.path_nodes
    return {n for p in state.roads[seat] for n in path_nodes[p]}


def build_spots(state: GameState, seat: Seat) -> list[NodeId]:
    """Empty land intersections the seat's roads touch: where it may place a knight (seed
    002)."""
    owner, land = state.node_owner, state.topology.land_node_count
    return sorted(n for n in road_nodes(state, seat) if owner[n] < 0 and n < land)


def reachable(state: GameState, seat: Seat, start: NodeId) -> tuple[set[NodeId], set[NodeId]]:
    """Where the seat's roads lead from ``start``: the empty intersections reached (passing the
    seat's own pieces, never another seat's; official), and the intersections of other seats'
    pieces met one road beyond (a displacement's targets).

    Returns:
        ``(empty, occupied)``; neither holds ``start``.
    """
    topo, owner, path_owner = state.topology, state.node_owner, state.path_owner
    seen = {start}
    todo = [start]
    empty: set[NodeId] = set()
    occupied: set[NodeId] = set()
    while todo:
        node = todo.pop()
        for p in topo.node_paths[node]:
            if path_owner[p] != seat:
                continue
            a, b = topo.path_nodes[p]
            other = b if a == node else a
            if other in seen:
                continue
            seen.add(other)
            who = owner[other]
            if who == NO_SEAT:
                empty.add(other)
                todo.append(other)
            elif who == seat:
                todo.append(other)
            else:
                occupied.add(other)
    return empty, occupied


def move_targets(state: GameState, progress: Progress, node: NodeId) -> list[NodeId]:
    """Where the knight at ``node`` may go: an empty intersection its seat's roads reach, or one
    with a weaker opponent knight (seed 002: «при условии, что его уровень ниже»)."""
    knight = progress.knights[node]
    empty, occupied = reachable(state, knight.seat, node)
    knights = progress.knights
    weaker = {n for n in occupied if n in knights and knights[n].level < knight.level}
    return sorted(empty | weaker)


def retreat_spots(state: GameState, seat: Seat, node: NodeId) -> list[NodeId]:
    """Where the seat's knight displaced from ``node`` may go: the empty intersections its
    roads reach from there (seed 002; official)."""
    return sorted(reachable(state, seat, node)[0])


def place(state: GameState, progress: Progress, node: NodeId, knight: Knight) -> None:
    """Stand ``knight`` on the empty intersection ``node``."""
    progress.knights[node] = knight
    state.node_owner[node] = knight.seat
    state.blocked[node] = True
    roads_changed(state)


def lift(state: GameState, progress: Progress, node: NodeId) -> Knight:
    """Take the knight off ``node`` (the intersection opens again unless the distance rule or
    the sea closes it); returns it."""
    knight = progress.knights.pop(node)
    progress.fresh.discard(node)
    progress.promoted.discard(node)
    topo, level = state.topology, state.node_level
    state.node_owner[node] = NO_SEAT
    state.blocked[node] = node >= topo.land_node_count or any(
        level[m] for m in topo.node_nodes[node]
    )
    roads_changed(state)
    return knight


def roads_changed(state: GameState) -> None:
    """A knight (or a road, the Diplomat's) came or went: road spots and every seat's road
    length may have changed; the Longest Road is awarded again."""
    state.paths_changed()
    for seat in range(state.players):
        state.road_length[seat] = state.route_length(seat)
    state.award_longest_road()


def pieces_left(progress: Progress, seat: Seat, level: int, per_level: int) -> int:
    """The seat's knight pieces of ``level`` not on the board (``per_level`` of each)."""
    on_board = sum(1 for k in progress.knights.values() if k.seat == seat and k.level == level)
    return per_level - on_board
