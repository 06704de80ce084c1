"""What the heuristic bot knows of Seafarers (engine/variants/seafarers.py): where its ships can
reach, and what gold, an island bonus and a face-down fog hex are worth; registered for the
Seafarers rules (:mod:`hexlan.engine.bots.knowledge`), and so for Pirate Islands too.

A settlement spot across the sea is reached by ships as one on land is by roads: a breadth-first
search from the seat's coastal buildings and the ends of its ships over free sea paths (not the
pirate's), counting the ships needed and remembering the first (:func:`sea_expansion`). It is a
goal (:func:`sea_goal`) worth its spot, its island bonus in full and what its fog may uncover;
a loose end ship sails toward it before a new one is built (:func:`ship_step`). Gold picks fill
the goal's shortfall (:func:`gold_pick`); the pirate goes where it blocks and robs the leaders'
ships (:func:`pirate_value`).
"""

from __future__ import annotations

from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.bots.goals import Goal, eta, lacking, steal_value, victim_weight
from hexlan.engine.bots.knowledge import KNOWLEDGE, GameKnowledge, Planner
from hexlan.engine.core import NO_SEAT, Hand, NodeId, PathId, Seat, Terrain, as_hand
from hexlan.engine.state import GameState
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaPhase,
    sea,
)

SHIP_DISCOUNT: Final = 0.08
"""Value lost per ship a settlement spot is away: the sea is wide and seldom contested (the
roads' is 0.12)."""
FOG_VALUE: Final = 0.6
"""Fog: a goal's worth per face-down hex its ship reaches, times the chance the tile is land (a
resource card at once, and a new hex to settle by)."""
GOLD_WEIGHT: Final = 1.2
"""What a pip of a gold field is worth beside a pip of one resource."""
BLOCKADE: Final = 2.5
"""What the pirate on one of an opponent's ships is worth (it can neither build on nor move
from that hex), per ship, weighted as the robber's victims are."""
SEA_DEPTH: Final = 5
"""Ships the bot looks ahead for a settlement spot across the sea."""


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


def sea_goal(
    planner: Planner, view: GameState, seat: Seat, own: list[float], best: Goal | None
) -> Goal | None:
    """The better of ``best`` and the best settlement spot ships can reach (an island bonus
    counts in full), reached by :func:`ship_step`."""
    variant = view.variant
    assert isinstance(variant, Seafarers)
    hand, ratios = view.hands[seat], view.ratios[seat]
    rates = planner.rates(view, seat)
    s, ship = view.rules.settlement_cost, variant.ship_cost
    costs: dict[int, tuple[Hand, float]] = {}
    for n, (d, first) in sea_expansion(view, seat, SEA_DEPTH).items():
        value = planner.settlement_value(view, n, own)
        value += island_bonus(view, seat, n)
        value += FOG_VALUE * fog_value(view, n)  # exploring pays while land is face down
        value *= 1.0 - SHIP_DISCOUNT * d
        if d not in costs:
            cost = as_hand([s[r] + d * ship[r] for r in range(len(s))])
            costs[d] = (cost, eta(cost, hand, rates, ratios))
        goal = Goal("settlement", costs[d][0], value, n, first, d, costs[d][1], ship_step)
        if best is None or goal.score > best.score:
            best = goal
    return best


def ship_step(legal: list[Action], path: PathId) -> Action | None:
    """The legal action that puts a ship on ``path``: a move of a ship there first (only the
    loose end of a route moves, and ``path`` then still joins the seat's network, so the route
    toward the goal grows by one ship at no cost), else a new ship; None if neither is legal."""
    for action in legal:
        if isinstance(action, MoveShip) and action.target == path:
            return action
    build = BuildShip(path)
    return build if build in legal else None


def gold_pick(planner: Planner, view: GameState, seat: Seat, legal: list[Action]) -> Action | None:
    """In the gold phase, the pick that best fills the goal's shortfall, then the resources the
    seat rolls least; None in another phase."""
    if view.phase is not SeaPhase.GOLD:
        return None
    goal = planner.goal(view, seat)
    missing = lacking(goal.cost, view.hands[seat]) if goal is not None else [0] * view.kinds
    rates = planner.rates(view, seat)

    def value(action: Action) -> float:
        assert isinstance(action, ChooseGold)
        cards = action.cards
        filled = sum(min(cards[r], missing[r]) for r in range(len(cards)))
        return filled - 0.01 * sum(cards[r] * rates[r] for r in range(len(cards)))

    return planner.best(legal, value)


def pirate_value(view: GameState, seat: Seat, action: Action) -> float | None:
    """What a move of the pirate is worth: the steal, and the blockade of each seat's ships on
    the sides of its hex (of the seat's own, a loss); None for another action (the robber)."""
    if not isinstance(action, MovePirate):
        return None
    vp = view.public_vp
    leader = max(vp)
    value = 0.0
    for other, ships in _ship_counts(view, action.hex).items():
        weight = victim_weight(vp, leader, other)
        value += -3.0 * ships if other == seat else BLOCKADE * ships * weight
    if action.victim >= 0:
        value += steal_value(view, action.victim)
    return value


def _ship_counts(view: GameState, sea_hex: int) -> dict[Seat, int]:
    """Each seat's ships on the sides of ``sea_hex``."""
    counts: dict[Seat, int] = {}
    ship_owner = sea(view).ship_owner
    for p in view.topology.sea_hex_paths[sea_hex - view.topology.hex_count]:
        owner = ship_owner[p]
        if owner != NO_SEAT:
            counts[owner] = counts.get(owner, 0) + 1
    return counts


KNOWLEDGE.register(Seafarers)(
    GameKnowledge(
        phase=gold_pick,
        terrains=((Terrain.GOLD_FIELD, GOLD_WEIGHT),),
        settle=sea_goal,
        robber=pirate_value,
    )
)

__all__ = [
    "fog_value",
    "gold_pick",
    "island_bonus",
    "pirate_value",
    "sea_expansion",
    "sea_goal",
    "ship_step",
]
