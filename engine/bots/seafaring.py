"""What the heuristic bot knows of Seafarers (engine/variants/seafarers.py): where its ships can
reach, and what gold, an island bonus and a face-down fog hex are worth.

A settlement spot across the sea is reached by ships as one on land is by roads: a breadth-first
search from the seat's coastal buildings and the ends of its ships over free sea paths (not the
pirate's), counting the ships needed and remembering the first.
"""

from __future__ import annotations

from hexlan.engine.core import NO_SEAT, NodeId, PathId, Seat, Terrain
from hexlan.engine.state import GameState
from hexlan.engine.variants.seafarers import Seafarers, sea


def sea_expansion(view: GameState, seat: Seat, depth: int) -> dict[NodeId, tuple[int, PathId]]:
    """Free settlement spots within ``depth`` new ships: spot -> (ships needed, first ship's
    path); empty outside Seafarers or when the seat has no ship left."""
    variant = view.variant
    if not isinstance(variant, Seafarers):
        return {}
    depth = min(depth, variant.ships_left(view, seat))
    if depth <= 0:
        return {}
    topo = view.topology
    owner, path_owner, blocked = view.node_owner, view.path_owner, view.blocked
    closed = set(variant._blocked_paths(view))
    dist: dict[NodeId, tuple[int, PathId]] = {}
    frontier: list[NodeId] = [*view.settlements[seat], *view.cities[seat]]
    for p in sea(view).ships[seat]:
        frontier.extend(n for n in topo.path_nodes[p] if owner[n] in (NO_SEAT, seat))
    for n in frontier:
        dist[n] = (0, -1)
    on_sea, node_nodes, node_paths = topo.path_sea, topo.node_ship_nodes, topo.node_ship_paths
    for d in range(1, depth + 1):
        nxt: list[NodeId] = []
        for n in frontier:
            if owner[n] not in (NO_SEAT, seat):
                continue
            first = dist[n][1]
            for m, p in zip(node_nodes[n], node_paths[n], strict=True):
                if m in dist or not on_sea[p] or path_owner[p] >= 0 or p in closed:
                    continue
                dist[m] = (d, p if d == 1 else first)
                nxt.append(m)
        frontier = nxt
    return {n: v for n, v in dist.items() if v[0] > 0 and not blocked[n]}


def fog_value(view: GameState, node: NodeId) -> float:
    """What reaching ``node`` may uncover (Seafarers' fog): for each face-down hex at it, the
    chance its tile is land (one resource card now, a hex to settle by later), from the tiles
    left in the public fog stack; 0 where no fog touches the node or the stack is empty or sea.

    >>> from hexlan.engine.board import beginner_board
    >>> fog_value(GameState(beginner_board(), 3), 0)
    0.0
    """
    variant = view.variant
    if not isinstance(variant, Seafarers) or not sea(view).fog_tiles:
        return 0.0
    topo, terrains = view.topology, view.board.terrains
    if node >= topo.land_node_count:
        return 0.0
    hidden = sum(1 for h in topo.node_hexes[node] if terrains[h] is Terrain.FOG)
    tiles = sea(view).fog_tiles
    total = sum(tiles)
    if not hidden or not total:
        return 0.0
    land = sum(n for f, n in enumerate(tiles) if variant.fog_faces[f].takes_token)
    return hidden * land / total


def island_bonus(view: GameState, seat: Seat, node: NodeId) -> int:
    """The island bonus a settlement of ``seat`` on ``node`` would bring (0 outside Seafarers)."""
    variant = view.variant
    if not isinstance(variant, Seafarers):
        return 0
    return variant.bonus_for(view, seat, node)


__all__ = ["fog_value", "island_bonus", "sea_expansion"]
