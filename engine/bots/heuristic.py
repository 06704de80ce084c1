"""A rule-of-thumb bot that follows the strategy advice of seed 002 («Стратегия»).

Seed 002's advice, as this bot reads it:

- A good settlement spot has the numbers 6 or 8, 5 or 9 and 4 or 10 around it, three different
  resources if possible; 3 and 11 are worse than 4 and 10, which variety may make up for. The second
  settlement should bring the resources the first lacks; a 2:1 harbour is worth it when one
  produces that resource.
- Keep buying: cities and development cards, not roads, unless a road is needed (to reach a
  settlement spot, or to take Longest Road when that wins).
- Trade for the resource you are least likely to roll (the «Будьте находчивы» example).

In the variants (engine/variants/): the Jungle's discoveries count as most of a resource toward a
development card (a spot on the jungle is worth its pips in discoveries; the bot buys cards with
as many discoveries as it may, replacing what its goal needs most); in the Big River, gold points
are fractions of a victory point (a spot or road on the river is worth that much more, a road that
completes a victory point is built at once), and the set-up ban is the engine's legal list. In
Seafarers (engine/bots/seafaring.py), a settlement spot across the sea is a goal reached by ships,
its island bonus counted in full; a loose end ship sails toward the goal before a new one is
built; gold picks fill the goal's shortfall; the pirate goes where it blocks and robs the leaders'
ships.

Every decision aims at one **goal**: a city, a settlement on a spot reachable with at most a few
roads, or a development card. Goals are compared by value over the turns they would take at the
seat's production rate (:func:`_eta`); trades, discards and trade answers all serve the chosen goal.

The bot reads only public state plus its own hand and development cards
(../shared/ARCHITECTURE.md, principle 2), so it plays the same from a seat's information state as
from the full state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import PIPS, Board
from hexlan.engine.bots.knights import improvement_goal, knights_choice
from hexlan.engine.bots.pirates import pirate_choice
from hexlan.engine.bots.seafaring import fog_value, island_bonus, sea_expansion
from hexlan.engine.core import (
    NO_SEAT,
    RESOURCES,
    BuildPhase,
    EngineError,
    Hand,
    IllegalActionError,
    NodeId,
    PathId,
    Phase,
    Resource,
    Seat,
    Terrain,
    as_hand,
    hand_minus,
    one_kind,
)
from hexlan.engine.longest_road import longest_road
from hexlan.engine.registry import CHANCE_PHASES
from hexlan.engine.state import GameState
from hexlan.engine.variants.big_river import BigRiver
from hexlan.engine.variants.jungle import BuyWithDiscoveries, Jungle
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaPhase,
    sea,
)

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random

RESOURCE_WEIGHT: Final = (1.0, 1.0, 0.8, 1.0, 0.95, 1.0, 1.0, 1.0)
"""How much a pip of each resource is worth to this bot (lumber, brick, wool, grain, ore)."""

SETUP_WEIGHT: Final = (1.15, 1.15, 0.8, 1.0, 0.9)
"""The same during set-up: brick and lumber matter most for the first roads and settlements."""

LEADER_GUARD: Final = 8
"""Never trade with a seat showing this many public victory points (it is close to winning)."""

MAX_OFFERS_PER_TURN: Final = 2
MAX_MARITIME_PER_TURN: Final = 8
EXPANSION_DEPTH: Final = 3
"""Roads the bot looks ahead for a free settlement spot."""

_CITY_VALUE: Final = 1.3
_SETTLEMENT_VALUE: Final = 1.2
_DEV_VALUE: Final = 0.55
_ROAD_DISCOUNT: Final = 0.12
"""Value lost per road a settlement spot is away (others may take it first)."""
_SHIP_DISCOUNT: Final = 0.08
"""The same per ship (Seafarers): the sea is wide and seldom contested."""
_FOG_VALUE: Final = 0.6
"""Seafarers' fog: a goal's worth per face-down hex its ship reaches, times the chance the tile
is land (a resource card at once, and a new hex to settle by)."""
_DISCOVERY_WEIGHT: Final = 0.6
"""Jungle: what a pip of discoveries is worth beside a pip of a resource (they only buy cards)."""
_GOLD_WEIGHT: Final = 1.2
"""Seafarers: what a pip of a gold field is worth beside a pip of one resource."""
_BLOCKADE: Final = 2.5
"""Seafarers: what the pirate on one of an opponent's ships is worth (it can neither build on
nor move from that hex), per ship, weighted as the robber's victims are."""
SEA_DEPTH: Final = 5
"""Ships the bot looks ahead for a settlement spot across the sea (Seafarers)."""
_RIVER_SPOT_WEIGHT: Final = 1.0
"""Big River: spot-value units per victory point a building's gold points bring (small: in
seeded bot-against-bot games a larger weight drew the bot from good production and lost)."""


@dataclass(frozen=True, slots=True)
class _BoardInfo:
    """Facts about a board the bot computes once per game.

    Attributes:
        pips: dots of each hex's token (0 for the desert).
        tokens: each hex's number token.
        node_prod: per intersection, ``(hex, resource, pips)`` of each producing hex around it.
        scarcity: per resource, how rare it is on this board (1 is average).
        harbour: per intersection, -1 none, 5 a 3:1 harbour, else the 2:1 harbour's resource.
        jungle: per intersection, ``(hex, pips)`` of each jungle around it (Jungle variant).
        gold: per intersection, ``(hex, pips)`` of each gold field around it (Seafarers).
    """

    pips: tuple[int, ...]
    tokens: tuple[int, ...]
    node_prod: tuple[tuple[tuple[int, int, int], ...], ...]
    scarcity: tuple[float, ...]
    harbour: tuple[int, ...]
    jungle: tuple[tuple[tuple[int, int], ...], ...]
    gold: tuple[tuple[tuple[int, int], ...], ...]


GENERIC_HARBOUR: Final = 5


def _board_info(board: Board) -> _BoardInfo:
    topo = board.topology
    pips = tuple(PIPS[t] for t in board.tokens)
    res = [-1 if t.resource is None else int(t.resource) for t in board.terrains]
    totals = [0] * len(RESOURCES)  # what terrains produce: resources, never a commodity
    for h, r in enumerate(res):
        if r >= 0:
            totals[r] += pips[h]
    mean = sum(totals) / len(RESOURCES)
    scarcity = tuple(min(1.5, max(0.75, (mean / t) ** 0.5)) if t else 1.5 for t in totals)
    node_prod = tuple(
        tuple((h, res[h], pips[h]) for h in topo.node_hexes[n] if res[h] >= 0)
        for n in range(topo.node_count)
    )
    harbour = [-1] * topo.node_count
    for node, port in board.harbour_nodes().items():
        harbour[node] = GENERIC_HARBOUR if port.resource is None else int(port.resource)
    jungle = tuple(
        tuple((h, pips[h]) for h in topo.node_hexes[n] if board.terrains[h] is Terrain.JUNGLE)
        for n in range(topo.node_count)
    )
    gold = tuple(
        tuple((h, pips[h]) for h in topo.node_hexes[n] if board.terrains[h] is Terrain.GOLD_FIELD)
        for n in range(topo.node_count)
    )
    return _BoardInfo(pips, tuple(board.tokens), node_prod, scarcity, tuple(harbour), jungle, gold)


def _river_gain(view: GameState, seat: Seat, node: NodeId = -1, path: PathId = -1) -> float:
    """Big River: the victory points (a fraction) a building on ``node`` or a road on ``path``
    would bring the seat through its gold points; 0 in other games."""
    river = view.variant
    if not isinstance(river, BigRiver):
        return 0.0
    if not river.gold:
        return float(river.mine_points) if node in river.mine_nodes else 0.0
    points = 0
    if node >= 0 and node in river.river_nodes:
        points = river.tip_points if node == river.tip else 1
    if path >= 0 and path in river.river_paths:
        points = 1
    if not points:
        return 0.0
    now = view.gold_points[seat]
    whole = river.victory_points(now + points) - river.victory_points(now)
    return max(float(whole), points / river.per_vp)


@dataclass(slots=True)
class _Goal:
    """Something to save for.

    Attributes:
        kind: "city", "settlement", "dev", "road" (Big River: a road on the river that
            completes a victory point) or "improve" (Cities & Knights: a city improvement).
        cost: the resources it needs in all (roads to a settlement spot included).
        value: what it is worth, in rough victory points.
        node: the city or settlement intersection (-1 for a development card).
        path: the first road to build toward the settlement spot, or the river road (-1 when
            none is needed).
        roads: roads (or, with ``ship``, ships) still needed to reach the spot.
        eta: estimated turns until it is affordable.
        ship: Seafarers: the spot is reached by ships, and ``path`` is the first ship's.
    """

    kind: str
    cost: Hand
    value: float
    node: NodeId = -1
    path: PathId = -1
    roads: int = 0
    eta: float = 0.0
    ship: bool = False

    @property
    def score(self) -> float:
        """Value per turn of waiting (higher is better)."""
        return self.value / (1.0 + self.eta)


@dataclass(frozen=True, slots=True)
class _Prospects:
    """What a seat could build toward, before its hand is looked at.

    Attributes:
        rates: expected cards of each resource per own turn (:meth:`HeuristicBot._rates`).
        own: pips per resource of the seat's buildings, robber ignored.
        city: the settlement best made a city and the city's value; None: no city to build.
        spots: per roads needed, the first best settlement spot as (value, spot, first road),
            in the order the spots were found; None: no settlement left to build.
    """

    rates: list[float]
    own: list[float]
    city: tuple[NodeId, float] | None
    spots: dict[int, tuple[float, NodeId, PathId]] | None


@dataclass(slots=True)
class _TurnCounts:
    """What a seat's bot did in one turn, to hold it to its limits.

    Kept by the turn's number, not by any object of the game: a view may be copied for each
    decision (so that a bot thinks off the UI's thread), and Cities & Knights' Inventor replaces
    the board mid-turn. A new game starts them again too, as its first decision is a set-up one
    in turn 0 and no game is over before turn 1 (a bot that joins a game mid-way at the very
    turn its last game ended in would keep that turn's counts: fewer offers or bank trades in
    it, never an illegal action).

    Attributes:
        turn: the turn counted (:attr:`GameState.turn`).
        offers: domestic offers made (:data:`MAX_OFFERS_PER_TURN`).
        trades: bank trades made (:data:`MAX_MARITIME_PER_TURN`).
        last_offer: the hash of the last offer made, not to repeat it (0: none).
    """

    turn: int
    offers: int = 0
    trades: int = 0
    last_offer: int = 0


def _missing(cost: Hand, hand: list[int] | Hand) -> list[int]:
    return [max(0, cost[r] - hand[r]) for r in range(len(cost))]


def _tradeable(cost: Hand, hand: list[int] | Hand, ratios: list[int]) -> int:
    """Cards the bank would give for what the hand holds beyond ``cost``."""
    return sum((hand[r] - cost[r]) // ratios[r] for r in range(len(cost)) if hand[r] > cost[r])


def _eta(cost: Hand, hand: list[int] | Hand, rates: list[float], ratios: list[int]) -> float:
    """Rough turns until ``hand`` covers ``cost`` at the given per-turn production rates."""
    waits: list[float] = []
    for r in range(len(cost)):
        lack = cost[r] - hand[r]
        for k in range(1, lack + 1):
            waits.append(k / (rates[r] + 0.06))
    if not waits:
        return 0.0
    trades = _tradeable(cost, hand, ratios)
    if trades >= len(waits):
        return 0.05 * len(waits)
    waits.sort(reverse=True)
    waits = waits[trades:]
    return waits[0] + 0.25 * sum(waits[1:])


class HeuristicBot:
    """Plays by seed 002's strategy advice; beats random bots nearly always.

    Args:
        rng: breaks ties between equally good choices (the bot has no other randomness).
        playout: the bot plays one line of play at a time, each begun with
            :meth:`forget_turn` (a search's playout). Along one line of a base game pieces are
            only added, so the counts of roads, settlements and cities on the board tell its
            positions apart; the bot then keeps what each seat could build toward (its spots,
            their worth, its production) between decisions while the robber and those counts
            stay the same, and works out only the waits, which the hand sets. Its choices are
            the same either way.
    """

    def __init__(self, rng: random.Random, *, playout: bool = False) -> None:
        self.rng = rng
        # perf: a playout's prospects by position (see ``playout``); scripts/bench_mcts.py.
        self._line: dict[tuple[int, ...], _Prospects] | None = {} if playout else None
        self._info: tuple[Board, _BoardInfo] | None = None
        self._counts: dict[Seat, _TurnCounts] = {}
        self._turn = _TurnCounts(0)
        self._memo: tuple[_Goal | None] | None = None

    # ------------------------------------------------------------------ entry point

    def choose(self, view: GameState, seat: Seat) -> Action:
        """The action ``seat`` takes now; always one that ``view.check`` accepts.

        Raises:
            EngineError: ``seat`` has no legal action now.
        """
        phase = view.phase
        if phase in CHANCE_PHASES or phase is Phase.GAME_OVER:
            raise EngineError(f"seat {seat} has no decision in phase {phase.title}")
        info = self._board(view.board)
        counts = self._counts.get(seat)
        if counts is None or counts.turn != view.turn:
            counts = self._counts[seat] = _TurnCounts(view.turn)
        self._turn = counts
        self._memo = None
        if phase is Phase.DISCARD:
            return self._discard(view, seat, info)
        if phase is Phase.TRADE_RESPONSES:
            return self._trade_response(view, seat, info)
        legal = view.legal_actions(seat)
        if not legal:
            raise EngineError(f"seat {seat} has no legal action in phase {phase.title}")
        if view.variant is not None:
            scenario = pirate_choice(view, seat, legal)  # Pirate Islands (seed 004)
            if scenario is None:  # Cities & Knights (seed 002 «Города и рыцари»)
                scenario = knights_choice(view, seat, legal)
            if scenario is not None:
                return scenario
        if phase is Phase.SETUP_SETTLEMENT:
            return self._setup_settlement(view, seat, info, legal)
        if phase is Phase.SETUP_ROAD:
            return self._setup_road(view, seat, info, legal)
        if phase is Phase.ROLL:
            return self._before_roll(view, seat, info, legal)
        if phase is Phase.MOVE_ROBBER:
            return self._robber(view, seat, info, legal)
        if phase is Phase.ROAD_BUILDING:
            return self._free_road(view, seat, info, legal)
        if phase is Phase.MAIN:
            return self._main(view, seat, info, legal)
        if phase is BuildPhase.SPECIAL_BUILD:
            return self._special_build(view, seat, info, legal)
        if phase is SeaPhase.GOLD:
            return self._gold(view, seat, info, legal)
        return legal[0]

    def forget_turn(self) -> None:
        """Forget the offers and bank trades made this turn (a search's next playout starts
        again from the same position), and the prospects kept along the last line of play."""
        self._counts.clear()
        if self._line is not None:
            self._line.clear()

    def _board(self, board: Board) -> _BoardInfo:
        if self._info is None or self._info[0] is not board:
            self._info = (board, _board_info(board))
        return self._info[1]

    # ------------------------------------------------------------------ evaluation

    @staticmethod
    def _own_pips(view: GameState, seat: Seat, info: _BoardInfo, robber: bool) -> list[float]:
        """Pips per card kind of the seat's buildings (cities count twice; in Cities & Knights a
        city's second card may be a commodity instead)."""
        pips = [0.0] * view.kinds
        blocked_hex = view.robber if robber else -1
        level = view.node_level
        split = None if view.variant is None else view.variant.city_commodities
        for nodes in (view.settlements[seat], view.cities[seat]):
            for n in nodes:
                for h, r, p in info.node_prod[n]:
                    if h == blocked_hex:
                        continue
                    if level[n] == 2 and split is not None and split[r] >= 0:
                        pips[r] += p
                        pips[split[r]] += p
                    else:
                        pips[r] += p * level[n]
        return pips

    @staticmethod
    def _spot_value(
        view: GameState,
        info: _BoardInfo,
        node: NodeId,
        own_pips: list[float],
        weights: tuple[float, ...] = RESOURCE_WEIGHT,
    ) -> float:
        """How good a settlement on ``node`` is for a seat producing ``own_pips`` already.

        Seed 002 «Стратегия»: pips (6/8 best), resource variety, a spread of numbers, and a
        harbour that fits what the seat produces.
        """
        value = 0.0
        prod = [0.0] * len(RESOURCES)
        resources = 0
        numbers: set[int] = set()
        for h, r, p in info.node_prod[node]:
            w = weights[r] * info.scarcity[r]
            if own_pips[r] == 0 and prod[r] == 0:
                w *= 1.3  # a resource the seat does not produce yet
                resources += 1
            elif prod[r] == 0:
                resources += 1
            pips = p * 0.6 if h == view.robber else p
            value += pips * w
            prod[r] += p
            numbers.add(info.tokens[h])
        value += 0.6 * resources + 0.4 * len(numbers)
        harbour = info.harbour[node]
        if harbour == GENERIC_HARBOUR:
            value += 0.06 * (sum(own_pips) + sum(prod))
        elif harbour >= 0:
            value += 0.3 * (own_pips[harbour] + prod[harbour])
        for h, p in info.jungle[node]:  # Jungle: discoveries, for development cards only
            value += (p * 0.6 if h == view.robber else p) * _DISCOVERY_WEIGHT
        for h, p in info.gold[node]:  # Seafarers: gold is any resource
            value += (p * 0.6 if h == view.robber else p) * _GOLD_WEIGHT
        if view.variant is not None:
            value += _RIVER_SPOT_WEIGHT * _river_gain(view, view.active, node)
        return value

    def _rates(self, view: GameState, seat: Seat, info: _BoardInfo) -> list[float]:
        """Expected cards of each resource per own turn (one roll by every seat)."""
        pips = self._own_pips(view, seat, info, robber=True)
        return [p * view.players / 36 for p in pips]

    def _expansion(
        self, view: GameState, seat: Seat, depth: int = EXPANSION_DEPTH
    ) -> dict[NodeId, tuple[int, PathId]]:
        """Free settlement spots within ``depth`` new roads: spot -> (roads needed, first road)."""
        topo = view.topology
        owner, path_owner, blocked = view.node_owner, view.path_owner, view.blocked
        if not view.options.settlements_need_road:
            return {n: (0, -1) for n in range(topo.node_count) if not blocked[n]}
        dist: dict[NodeId, tuple[int, PathId]] = {}
        frontier: list[NodeId] = []
        for n in (*view.settlements[seat], *view.cities[seat]):
            dist[n] = (0, -1)
            frontier.append(n)
        path_nodes = topo.path_nodes
        for p in view.roads[seat]:
            for n in path_nodes[p]:
                if n not in dist and owner[n] in (NO_SEAT, seat):
                    dist[n] = (0, -1)
                    frontier.append(n)
        roads_left = view.pieces_left(seat)[0]
        node_nodes, node_paths = topo.node_nodes, topo.node_paths
        for d in range(1, min(depth, roads_left) + 1):
            nxt: list[NodeId] = []
            for n in frontier:
                if owner[n] not in (NO_SEAT, seat):
                    continue  # an opponent's building stops the road here
                first = dist[n][1]
                for m, p in zip(node_nodes[n], node_paths[n], strict=True):
                    if m in dist or path_owner[p] >= 0:
                        continue
                    dist[m] = (d, p if d == 1 else first)
                    nxt.append(m)
            frontier = nxt
        return {n: v for n, v in dist.items() if not blocked[n]}

    def _prospects(self, view: GameState, seat: Seat, info: _BoardInfo) -> _Prospects:
        """What the seat could build toward, from the pieces on the board and the robber (the
        hand only sets the waits); kept along a playout's line (see ``playout``)."""
        line = self._line if view.variant is None else None  # a variant may move pieces
        key = self._line_key(view, seat) if line is not None else ()
        if line is not None and key in line:
            return line[key]
        rates = self._rates(view, seat, info)
        own = self._own_pips(view, seat, info, robber=False)
        _, settlements_left, cities_left = view.pieces_left(seat)
        city: tuple[NodeId, float] | None = None
        if cities_left > 0 and view.settlements[seat]:
            best = max(
                view.settlements[seat],
                key=lambda n: sum(
                    p * RESOURCE_WEIGHT[r] * (0.5 if h == view.robber else 1.0)
                    for h, r, p in info.node_prod[n]
                ),
            )
            gain = sum(p * RESOURCE_WEIGHT[r] for _, r, p in info.node_prod[best])
            city = (best, _CITY_VALUE + gain / 30)
        spots: dict[int, tuple[float, NodeId, PathId]] | None = None
        if settlements_left > 0:
            # Per roads needed, the first best spot (they share a cost, so a wait): the best
            # goal is among these, and the first of them in the spots' order wins a tie.
            spots = {}
            for n, (d, first) in self._expansion(view, seat).items():
                value = _SETTLEMENT_VALUE + self._spot_value(view, info, n, own) / 30
                if view.variant is not None:
                    value += _river_gain(view, seat, n)
                value *= 1.0 - _ROAD_DISCOUNT * d
                if d not in spots or value > spots[d][0]:
                    spots.pop(d, None)  # re-inserted: the dict keeps the order of the spots
                    spots[d] = (value, n, first)
        prospects = _Prospects(rates, own, city, spots)
        if line is not None:
            line[key] = prospects
        return prospects

    @staticmethod
    def _line_key(view: GameState, seat: Seat) -> tuple[int, ...]:
        """What a seat's prospects depend on along one line of play of a base game."""
        return (
            seat,
            view.robber,
            sum(len(r) for r in view.roads),
            sum(len(n) for n in view.settlements),
            sum(len(n) for n in view.cities),
        )

    def _goals(self, view: GameState, seat: Seat, info: _BoardInfo) -> list[_Goal]:
        """Every goal worth saving for, each with its estimated wait."""
        rules = view.rules
        hand = view.hands[seat]
        ratios = view.ratios[seat]
        prospects = self._prospects(view, seat, info)
        rates, own = prospects.rates, prospects.own
        goals: list[_Goal] = []
        if prospects.city is not None:
            node, value = prospects.city
            goals.append(_Goal("city", rules.city_cost, value, node))
        if prospects.spots is not None:
            best_goal: _Goal | None = None
            s = rules.settlement_cost
            for d, (value, n, first) in prospects.spots.items():
                cost = (s[0] + d, s[1] + d, *s[2:])
                goal = _Goal(
                    "settlement", cost, value, n, first, d, _eta(cost, hand, rates, ratios)
                )
                if best_goal is None or goal.score > best_goal.score:
                    best_goal = goal
            best_goal = self._sea_goal(view, seat, info, own, best_goal)
            if best_goal is not None:
                goals.append(best_goal)
        if view.turn and view.deck_size() > 0:
            cost = rules.development_card_cost
            if view.discoveries[seat]:
                cost = hand_minus(cost, self._replaced(view, seat, cost, hand))
            goals.append(_Goal("dev", cost, _DEV_VALUE))
        improvement = improvement_goal(view, seat) if view.variant is not None else None
        if improvement is not None:  # Cities & Knights: the improvement worth saving for
            goals.append(_Goal("improve", improvement[0], improvement[1]))
        if isinstance(view.variant, BigRiver) and view.pieces_left(seat)[0] > 0:
            river = view.variant.river_paths
            paths = [p for p in view._road_spots(seat) if p in river]
            if paths and _river_gain(view, seat, path=paths[0]) >= 1:
                goals.append(_Goal("road", rules.road_cost, 1.0, path=paths[0], roads=1))
        for goal in goals:
            if goal.kind != "settlement":
                goal.eta = _eta(goal.cost, hand, rates, ratios)
        return goals

    def _sea_goal(
        self,
        view: GameState,
        seat: Seat,
        info: _BoardInfo,
        own: list[float],
        best: _Goal | None,
    ) -> _Goal | None:
        """Seafarers: the better of ``best`` and the best settlement spot ships can reach (an
        island bonus counts in full)."""
        variant = view.variant
        if not isinstance(variant, Seafarers):
            return best
        hand, ratios = view.hands[seat], view.ratios[seat]
        rates = self._rates(view, seat, info)
        s, ship = view.rules.settlement_cost, variant.ship_cost
        costs: dict[int, tuple[Hand, float]] = {}
        for n, (d, first) in sea_expansion(view, seat, SEA_DEPTH).items():
            value = _SETTLEMENT_VALUE + self._spot_value(view, info, n, own) / 30
            value += island_bonus(view, seat, n)
            value += _FOG_VALUE * fog_value(view, n)  # exploring pays while land is face down
            value *= 1.0 - _SHIP_DISCOUNT * d
            if d not in costs:
                cost = as_hand([s[r] + d * ship[r] for r in range(len(s))])
                costs[d] = (cost, _eta(cost, hand, rates, ratios))
            goal = _Goal("settlement", costs[d][0], value, n, first, d, costs[d][1], ship=True)
            if best is None or goal.score > best.score:
                best = goal
        return best

    @staticmethod
    def _replaced(view: GameState, seat: Seat, cost: Hand, hand: list[int] | Hand) -> Hand:
        """Jungle: what the seat's discoveries best replace of ``cost``: the resources the hand
        lacks first, then the rarest in hand (at most the rule set's limit per card)."""
        variant = view.variant
        most = variant.most if isinstance(variant, Jungle) else 0
        left = min(view.discoveries[seat], most)
        replaced = [0] * len(cost)
        for r in sorted(range(len(cost)), key=lambda r: (hand[r] >= cost[r], hand[r] - cost[r])):
            take = min(cost[r], left)
            replaced[r] += take
            left -= take
        return as_hand(replaced)

    def _goal(self, view: GameState, seat: Seat, info: _BoardInfo) -> _Goal | None:
        """The best goal now (computed once per decision: nothing changes within one)."""
        if self._memo is None:
            goals = self._goals(view, seat, info)
            self._memo = (max(goals, key=lambda g: g.score) if goals else None,)
        return self._memo[0]

    # ------------------------------------------------------------------ set-up

    def _setup_settlement(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        own = self._own_pips(view, seat, info, robber=False)

        def value(action: Action) -> float:
            assert isinstance(action, A.BuildSettlement | A.BuildCity)  # a C&K set-up city
            spot = self._spot_value(view, info, action.node, own, SETUP_WEIGHT)
            return spot + 0.25 * self._next_spot_value(view, info, action.node, own)

        return self._best(legal, value)

    def _next_spot_value(
        self, view: GameState, info: _BoardInfo, node: NodeId, own: list[float]
    ) -> float:
        """The best free spot two paths from ``node`` (where its road could lead)."""
        topo = view.topology
        best = 0.0
        for m in topo.node_nodes[node]:
            for k in topo.node_nodes[m]:
                if k != node and not view.blocked[k] and k not in topo.node_nodes[node]:
                    best = max(best, self._spot_value(view, info, k, own, SETUP_WEIGHT))
        return best

    def _setup_road(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        topo = view.topology
        own = self._own_pips(view, seat, info, robber=False)
        start = view.last_settlement

        roads: list[Action] = [a for a in legal if isinstance(a, A.BuildRoad)]

        def value(action: Action) -> float:
            assert isinstance(action, A.BuildRoad | BuildShip)
            a, b = topo.path_nodes[action.path]
            far = b if a == start else a
            best = 0.0
            for k in topo.node_nodes[far]:
                if k != start and not view.blocked[k]:
                    best = max(best, self._spot_value(view, info, k, own, SETUP_WEIGHT))
            return best + 0.1 * len(topo.node_hexes[far])

        return self._best(roads or legal, value)

    def _best(self, legal: list[Action], value: Callable[[Action], float]) -> Action:
        """The action of highest ``value``, ties broken by a jitter below 0.001 from the rng
        (one draw per action, in order)."""
        best, best_value = legal[0], -1e9
        for action in legal:
            score = value(action) + self.rng.random() * 1e-3
            if score > best_value:
                best, best_value = action, score
        return best

    # ------------------------------------------------------------------ turn

    def _before_roll(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        if A.PLAY_KNIGHT in legal and self._robber_hurts_me(view, seat, info):
            return A.PLAY_KNIGHT
        if A.PLAY_KNIGHT in legal and self._knight_wins(view, seat):
            return A.PLAY_KNIGHT
        return A.ROLL

    def _robber_hurts_me(self, view: GameState, seat: Seat, info: _BoardInfo) -> bool:
        h = view.robber
        if h < 0 or info.pips[h] < 2:  # no robber on the board (Pirate Islands): nothing hurts
            return False
        return any(view.node_owner[n] == seat for n in view.topology.hex_nodes[h])

    def _knight_wins(self, view: GameState, seat: Seat) -> bool:
        """Whether one more knight takes Largest Army and with it the game."""
        if not view.options.largest_army:
            return False
        holder = view.largest_army_holder
        if holder == seat:
            return False
        knights = view.knights[seat] + 1
        if knights < view.rules.largest_army_min:
            return False
        if holder >= 0 and knights <= view.knights[holder]:
            return False
        return view.victory_points(seat) + view.rules.award_points >= view.target

    def _main(self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]) -> Action:
        goal = self._goal(view, seat, info)
        card = self._dev_play(view, seat, legal, goal)
        if card is not None:
            return card
        build = self._build(view, seat, info, legal, goal)
        if build is not None:
            return build
        if goal is not None:
            offer = self._offer(view, seat, info, goal)
            if offer is not None:
                return offer
            trade = self._maritime_trade(view, seat, info, goal, legal)
            if trade is not None:
                return trade
        return A.END_TURN

    def _special_build(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        """In another seat's special building phase: build or buy as in an own turn, with no
        trade or card play (seed 002 «Расширение на 5-6 игроков»); else end the special turn."""
        build = self._build(view, seat, info, legal, self._goal(view, seat, info))
        return A.END_TURN if build is None else build

    def _build(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action], goal: _Goal | None
    ) -> Action | None:
        """The building or card purchase to make now, if any: a city, a settlement, a road that
        takes Longest Road or leads to the goal's spot, a development card."""
        cities = [a for a in legal if isinstance(a, A.BuildCity)]
        settlements = [a for a in legal if isinstance(a, A.BuildSettlement)]
        roads = [a for a in legal if isinstance(a, A.BuildRoad)]
        if cities:
            return max(cities, key=lambda a: self._city_value(view, info, a.node))
        if settlements:
            own = self._own_pips(view, seat, info, robber=False)
            return max(settlements, key=lambda a: self._spot_value(view, info, a.node, own))
        if roads:
            road = self._longest_road_grab(view, seat, roads)
            if road is not None:
                return road
            if view.variant is not None:
                for road in roads:  # Big River: a road that completes a victory point
                    if _river_gain(view, seat, path=road.path) >= 1:
                        return road
        if goal is not None and goal.kind in ("settlement", "road") and goal.path >= 0:
            if goal.ship:
                move = _ship_move_to(legal, goal.path)
                if move is not None:  # Seafarers: a loose end ship sails on for free
                    return move
                ship_action = BuildShip(goal.path)
                if ship_action in legal:
                    return ship_action
            road_action = A.BuildRoad(goal.path)
            if road_action in roads:
                return road_action
        if view.discoveries[seat]:
            buy = self._discovery_buy(view, seat, info, goal, legal)
            if buy is not None:
                return buy
        if A.BUY_DEVELOPMENT_CARD in legal and self._may_buy_card(view, seat, info, goal):
            return A.BUY_DEVELOPMENT_CARD
        return None

    def _city_value(self, view: GameState, info: _BoardInfo, node: NodeId) -> float:
        return sum(
            p * RESOURCE_WEIGHT[r] * info.scarcity[r] * (0.5 if h == view.robber else 1.0)
            for h, r, p in info.node_prod[node]
        )

    def _discovery_buy(
        self, view: GameState, seat: Seat, info: _BoardInfo, goal: _Goal | None, legal: list[Action]
    ) -> Action | None:
        """Jungle: the purchase with discoveries to make now, if any: as many discoveries as
        may be spent, standing for what the goal needs most (:meth:`_replaced`)."""
        cost = view.rules.development_card_cost
        buy = BuyWithDiscoveries(self._replaced(view, seat, cost, view.hands[seat]))
        if buy not in legal:
            buys = [a for a in legal if isinstance(a, BuyWithDiscoveries)]
            if not buys:
                return None
            buy = max(buys, key=lambda a: sum(a.replaced))
        if self._may_buy_card(view, seat, info, goal, hand_minus(cost, buy.replaced)):
            return buy
        return None

    def _may_buy_card(
        self,
        view: GameState,
        seat: Seat,
        info: _BoardInfo,
        goal: _Goal | None,
        cost: Hand | None = None,
    ) -> bool:
        """Whether paying ``cost`` (a development card's, by default) for a card leaves the
        goal about as near."""
        if goal is None or goal.kind == "dev":
            return True
        hand = list(view.hands[seat])
        if view.hand_size[seat] > view.rules.discard_limit + 1:
            return True
        if cost is None:
            cost = view.rules.development_card_cost
        after = [hand[r] - cost[r] for r in range(len(hand))]
        rates = self._rates(view, seat, info)
        ratios = view.ratios[seat]
        return _eta(goal.cost, after, rates, ratios) <= _eta(goal.cost, hand, rates, ratios) + 0.3

    def _longest_road_grab(
        self, view: GameState, seat: Seat, roads: list[A.BuildRoad]
    ) -> A.BuildRoad | None:
        """A road that takes Longest Road now (2 VP), if any."""
        holder = view.longest_road_holder
        if holder == seat:
            return None
        need = view.longest_road_min
        if holder >= 0:
            need = max(need, view.road_length[holder] + 1)
        if view.road_length[seat] + 1 < need:
            return None
        own = view.roads[seat]
        for action in roads:
            if longest_road(view.topology, [*own, action.path], seat, view.node_owner) >= need:
                return action
        return None

    # ------------------------------------------------------------------ development cards

    def _dev_play(
        self, view: GameState, seat: Seat, legal: list[Action], goal: _Goal | None
    ) -> Action | None:
        """The development card to play now toward ``goal``, if any (one a turn)."""
        if view.dev_played_this_turn:
            return None
        hand = view.hands[seat]
        plenty = [a for a in legal if isinstance(a, A.PlayYearOfPlenty)]
        if plenty and goal is not None:
            missing = _missing(goal.cost, hand)
            if sum(missing):

                def shortfall(a: A.PlayYearOfPlenty) -> int:
                    after = list(hand)
                    for r in a.resources:
                        after[r] += 1
                    return sum(_missing(goal.cost, after))

                return min(plenty, key=shortfall)
        if A.PlayMonopoly(Resource.LUMBER) in legal:
            pick = self._monopoly_pick(view, seat, goal)
            if pick is not None:
                return A.PlayMonopoly(pick)
        if (
            A.PLAY_ROAD_BUILDING in legal
            and goal is not None
            and goal.kind == "settlement"
            and goal.roads >= 1
        ):
            return A.PLAY_ROAD_BUILDING
        if A.PLAY_KNIGHT in legal:
            return A.PLAY_KNIGHT
        return None

    @staticmethod
    def _monopoly_pick(view: GameState, seat: Seat, goal: _Goal | None) -> Resource | None:
        """The resource whose monopoly pays best, judged from public counts only.

        Cards of a resource that are neither in the bank nor in the seat's hand are in the
        opponents' hands (19 of each in all).
        """
        total = view.rules.bank
        hand, ratios = view.hands[seat], view.ratios[seat]
        missing = _missing(goal.cost, hand) if goal is not None else [0] * view.kinds
        best, best_value = None, 0.0
        for r in view.rules.plenty_kinds:
            out = total[r] - view.bank[r] - hand[r]
            value = min(out, missing[r]) + max(0, out - missing[r]) / ratios[r]
            if value > best_value:
                best, best_value = r, value
        return best if best_value >= 2.5 else None

    # ------------------------------------------------------------------ robber

    def _robber(self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]) -> Action:
        topo = view.topology
        vp = view.public_vp
        leader = max(vp)

        def score(action: Action) -> float:
            if isinstance(action, MovePirate):  # Seafarers: the steal and the blockade
                value = 0.0
                for other, ships in _ship_counts(view, action.hex).items():
                    weight = 1.0 + vp[other] / 4 + (1.5 if vp[other] == leader else 0.0)
                    value += -3.0 * ships if other == seat else _BLOCKADE * ships * weight
                if action.victim >= 0:
                    v = action.victim
                    value += 2.0 + 0.3 * min(view.hand_size[v], 8) + vp[v] / 2
                return value
            assert isinstance(action, A.MoveRobber)
            h = action.hex
            pips = info.pips[h]
            value = 0.0
            for n in topo.hex_nodes[h]:
                owner = view.node_owner[n]
                if owner == seat:
                    value -= 3.0 * pips * view.node_level[n]
                elif owner >= 0:
                    weight = 1.0 + vp[owner] / 4 + (1.5 if vp[owner] == leader else 0.0)
                    value += pips * view.node_level[n] * weight
            if action.victim >= 0:
                v = action.victim
                value += 2.0 + 0.3 * min(view.hand_size[v], 8) + vp[v] / 2
            return value

        return max(legal, key=score)

    # ------------------------------------------------------------------ roads

    def _free_road(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        goal = self._goal(view, seat, info)
        if goal is not None and goal.kind in ("settlement", "road") and goal.path >= 0:
            action: Action = BuildShip(goal.path) if goal.ship else A.BuildRoad(goal.path)
            if action in legal:
                return action
        spots = self._expansion(view, seat, depth=EXPANSION_DEPTH + 1)
        own = self._own_pips(view, seat, info, robber=False)
        best: tuple[float, Action] | None = None
        for n, (d, first) in spots.items():
            if first < 0:
                continue
            action = A.BuildRoad(first)
            if action not in legal:
                continue
            value = self._spot_value(view, info, n, own) * (1.0 - _ROAD_DISCOUNT * d)
            if best is None or value > best[0]:
                best = (value, action)
        if best is not None:
            return best[1]
        roads = [a for a in legal if isinstance(a, A.BuildRoad)]
        if not roads:  # Seafarers: only ships can be placed
            return self._best(legal, lambda a: 0.0)
        own_roads = view.roads[seat]
        return max(
            roads,
            key=lambda a: longest_road(view.topology, [*own_roads, a.path], seat, view.node_owner),
        )

    def _gold(self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]) -> Action:
        """Seafarers: the gold pick that best fills the goal's shortfall, then the resources the
        seat rolls least."""
        goal = self._goal(view, seat, info)
        missing = _missing(goal.cost, view.hands[seat]) if goal is not None else [0] * view.kinds
        rates = self._rates(view, seat, info)

        def value(action: Action) -> float:
            assert isinstance(action, ChooseGold)
            cards = action.cards
            filled = sum(min(cards[r], missing[r]) for r in range(len(cards)))
            return filled - 0.01 * sum(cards[r] * rates[r] for r in range(len(cards)))

        return self._best(legal, value)

    # ------------------------------------------------------------------ discards

    def _discard(self, view: GameState, seat: Seat, info: _BoardInfo) -> Action:
        need = view.discards[seat]
        hand = list(view.hands[seat])
        goal = self._goal(view, seat, info)
        keep = list(goal.cost) if goal is not None else [0] * view.kinds
        if view.settlements[seat]:
            city = view.rules.city_cost
            keep = [max(k, c) for k, c in zip(keep, city, strict=True)]
        rates = self._rates(view, seat, info)
        cards = [0] * view.kinds
        for _ in range(need):
            r = max(
                (r for r in range(view.kinds) if hand[r] > 0),
                key=lambda r: (hand[r] - keep[r], rates[r], -RESOURCE_WEIGHT[r]),
            )
            hand[r] -= 1
            cards[r] += 1
        return A.Discard(seat, as_hand(cards))

    # ------------------------------------------------------------------ trade

    def _maritime_trade(
        self, view: GameState, seat: Seat, info: _BoardInfo, goal: _Goal, legal: list[Action]
    ) -> Action | None:
        """One bank trade toward the goal, when trades complete it now (or the hand is too big)."""
        if self._turn.trades >= MAX_MARITIME_PER_TURN:
            return None
        hand, ratios, cost = view.hands[seat], view.ratios[seat], goal.cost
        missing = _missing(cost, hand)
        short = sum(missing)
        if not short:
            return None
        tradeable = _tradeable(cost, hand, ratios)
        if tradeable < short and view.hand_size[seat] <= view.rules.discard_limit:
            return None
        rates = self._rates(view, seat, info)
        kinds = range(view.kinds)
        wants = sorted((r for r in kinds if missing[r] and view.bank[r]), key=lambda r: rates[r])
        gives = sorted(
            (r for r in kinds if hand[r] - cost[r] >= ratios[r]),
            key=lambda r: (ratios[r], -(hand[r] - cost[r])),
        )
        for get in wants:
            for give in gives:
                action = A.MaritimeTrade(one_kind(give, ratios[give], view.kinds), Resource(get))
                if action in legal:
                    self._turn.trades += 1
                    return action
        return None

    def _offer(
        self, view: GameState, seat: Seat, info: _BoardInfo, goal: _Goal
    ) -> A.OfferTrade | None:
        """A one-for-one domestic offer to everyone that completes the goal (two a turn at most)."""
        if self._turn.offers >= MAX_OFFERS_PER_TURN:
            return None
        hand, cost = view.hands[seat], goal.cost
        missing = _missing(cost, hand)
        short = sum(missing)
        if not 1 <= short <= 2:
            return None
        if all(
            view.public_vp[s] >= LEADER_GUARD or view.hand_size[s] == 0
            for s in range(view.players)
            if s != seat
        ):
            return None
        rates = self._rates(view, seat, info)
        spare = sorted(
            (r for r in range(view.kinds) if hand[r] > cost[r]),
            key=lambda r: (-(hand[r] - cost[r]), -rates[r]),
        )
        give = [0] * view.kinds
        left = short
        for r in spare:
            take = min(hand[r] - cost[r], left)
            give[r] += take
            left -= take
            if not left:
                break
        if left:
            return None
        offer = A.OfferTrade(as_hand(give), as_hand(missing), NO_SEAT)
        if hash(offer) == self._turn.last_offer:
            return None  # the table just turned these very terms down
        self._turn.offers += 1
        self._turn.last_offer = hash(offer)
        try:
            view.check(offer)
        except IllegalActionError:
            return None
        return offer

    def _trade_response(self, view: GameState, seat: Seat, info: _BoardInfo) -> Action:
        trade = view.trade
        if trade is None:
            raise EngineError(f"seat {seat} has no trade to answer")
        if seat in view.trade_pending:
            return self._answer(view, seat, info, trade)
        return self._close_offer(view, seat, info, trade)

    def _helps(self, view: GameState, seat: Seat, info: _BoardInfo, gain: Hand, pay: Hand) -> bool:
        """Whether receiving ``gain`` for ``pay`` brings the seat's goal closer."""
        hand = list(view.hands[seat])
        kinds = range(view.kinds)
        if any(hand[r] < pay[r] for r in kinds):
            return False
        goal = self._goal(view, seat, info)
        if goal is None:
            return False
        cost = goal.cost
        missing = _missing(cost, hand)
        if not any(gain[r] and missing[r] for r in kinds):
            return False  # nothing it needs
        after = [hand[r] + gain[r] - pay[r] for r in kinds]
        if sum(_missing(cost, after)) >= sum(missing):
            return False
        rates = self._rates(view, seat, info)
        ratios = view.ratios[seat]
        return _eta(cost, after, rates, ratios) < _eta(cost, hand, rates, ratios)

    def _answer(self, view: GameState, seat: Seat, info: _BoardInfo, trade: A.OfferTrade) -> Action:
        reject = A.AnswerTrade(seat, False)
        if view.public_vp[view.active] >= LEADER_GUARD:
            return reject
        # The offer is in the active seat's frame: it gives ``give`` and gets ``get``.
        if self._helps(view, seat, info, trade.give, trade.get):
            return A.AnswerTrade(seat, True)
        counter = self._counter(view, seat, info, trade)
        return counter if counter is not None else reject

    def _counter(
        self, view: GameState, seat: Seat, info: _BoardInfo, trade: A.OfferTrade
    ) -> A.CounterOffer | None:
        """Same cards asked for, paid with cards the seat can spare instead."""
        goal = self._goal(view, seat, info)
        if goal is None:
            return None
        hand = view.hands[seat]
        missing = _missing(goal.cost, hand)
        if not any(trade.give[r] and missing[r] for r in range(view.kinds)):
            return None
        count = sum(trade.get)
        pay = [0] * view.kinds
        for r in sorted(range(view.kinds), key=lambda r: -(hand[r] - goal.cost[r])):
            if trade.give[r]:
                continue
            take = min(max(0, hand[r] - goal.cost[r]), count)
            pay[r] += take
            count -= take
            if not count:
                break
        pay_t = as_hand(pay)
        if count or pay_t == trade.get:
            return None
        if not self._helps(view, seat, info, trade.give, pay_t):
            return None
        counter = A.CounterOffer(seat, trade.give, pay_t)
        try:
            view.check(counter)
        except IllegalActionError:
            return None
        return counter

    def _close_offer(
        self, view: GameState, seat: Seat, info: _BoardInfo, trade: A.OfferTrade
    ) -> Action:
        """As the offering seat: confirm the best answer, or withdraw."""
        best: tuple[float, A.ConfirmTrade] | None = None
        for other, answer in view.trade_answers.items():
            if view.public_vp[other] >= LEADER_GUARD:
                continue
            if isinstance(answer, A.CounterOffer):
                give, get = answer.give, answer.get
            elif answer.accept:
                give, get = trade.give, trade.get
            else:
                continue
            if not self._helps(view, seat, info, get, give):
                continue
            confirm = A.ConfirmTrade(other)
            try:
                view.check(confirm)
            except IllegalActionError:
                continue
            rank = -view.public_vp[other] - 0.1 * sum(give)
            if best is None or rank > best[0]:
                best = (rank, confirm)
        return best[1] if best is not None else A.CANCEL_TRADE


__all__ = ["HeuristicBot"]


def _ship_counts(view: GameState, sea_hex: int) -> dict[Seat, int]:
    """Seafarers: each seat's ships on the sides of ``sea_hex``."""
    counts: dict[Seat, int] = {}
    ship_owner = sea(view).ship_owner
    for p in view.topology.sea_hex_paths[sea_hex - view.topology.hex_count]:
        owner = ship_owner[p]
        if owner != NO_SEAT:
            counts[owner] = counts.get(owner, 0) + 1
    return counts


def _ship_move_to(legal: list[Action], path: PathId) -> MoveShip | None:
    """Seafarers: a legal move of a ship onto ``path``, if any. Only the loose end of a route
    moves, and ``path`` then still joins the seat's network, so the route toward the goal grows
    by one ship at no cost."""
    for action in legal:
        if isinstance(action, MoveShip) and action.target == path:
            return action
    return None
