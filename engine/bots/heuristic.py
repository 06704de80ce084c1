"""A rule-of-thumb bot that follows the strategy advice of seed 002 («Стратегия»).

Seed 002's advice, as this bot reads it:

- A good settlement spot has the numbers 6 or 8, 5 or 9 and 4 or 10 around it, three different
  resources if possible; 3 and 11 are worse than 4 and 10, which variety may make up for. The second
  settlement should bring the resources the first lacks; a 2:1 harbour is worth it when one
  produces that resource.
- Keep buying: cities and development cards, not roads, unless a road is needed (to reach a
  settlement spot, or to take Longest Road when that wins).
- Trade for the resource you are least likely to roll (the «Будьте находчивы» example).

A game's own rules are the game's own bot modules' to play (:mod:`hexlan.engine.bots.knowledge`:
its spec names them as ``bots``): they weigh its terrains, buildings and pieces, add its goals and
make its own moves, and this bot names no game. The Jungle's discoveries count toward development
cards (engine/bots/jungle.py); the Big River's gold points are fractions of a victory point
(engine/bots/big_river.py); Seafarers' settlement spots across the sea are goals reached by ships,
its gold picks and pirate its own (engine/bots/seafaring.py); Pirate Islands' fleet and fortress
(engine/bots/pirates.py) and Cities & Knights' knights, cities and progress cards
(engine/bots/knights.py) come before the general play.

Every decision aims at one **goal**: a city, a settlement on a spot reachable with at most a few
roads, or a development card (:class:`~hexlan.engine.bots.goals.Goal`). Goals are compared by
value over the turns they would take at the seat's production rate
(:func:`~hexlan.engine.bots.goals.eta`); trades, discards and trade answers all serve the chosen
goal.

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
from hexlan.engine.bots.goals import Goal, bank_trades, eta, lacking, steal_value, victim_weight
from hexlan.engine.bots.knowledge import BASE_GAME, GameKnowledge, knowledge_of
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
    as_hand,
    one_kind,
)
from hexlan.engine.longest_road import longest_road
from hexlan.engine.registry import CHANCE_PHASES
from hexlan.engine.state import GameState

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
_POINTS_SPOT_WEIGHT: Final = 1.0
"""Spot-value units per victory point a building's own points bring (the Big River's gold
points: small, as in seeded bot-against-bot games a larger weight drew the bot from good
production and lost)."""


@dataclass(frozen=True, slots=True)
class _BoardInfo:
    """Facts about a board the bot computes once per game.

    Attributes:
        pips: dots of each hex's token (0 for the desert).
        tokens: each hex's number token.
        node_prod: per intersection, ``(hex, resource, pips)`` of each producing hex around it.
        scarcity: per resource, how rare it is on this board (1 is average).
        harbour: per intersection, -1 none, 5 a 3:1 harbour, else the 2:1 harbour's resource.
        weighed: per intersection, ``(hex, pips, weight)`` of each hex around it of a terrain
            the game weighs (:attr:`GameKnowledge.terrains`: the Jungle's jungle, Seafarers'
            gold fields).
    """

    pips: tuple[int, ...]
    tokens: tuple[int, ...]
    node_prod: tuple[tuple[tuple[int, int, int], ...], ...]
    scarcity: tuple[float, ...]
    harbour: tuple[int, ...]
    weighed: tuple[tuple[tuple[int, int, float], ...], ...]


GENERIC_HARBOUR: Final = 5


def _board_info(board: Board, game: GameKnowledge) -> _BoardInfo:
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
    weights = dict(game.terrains)
    weighed = tuple(
        tuple(
            (h, pips[h], weights[board.terrains[h]])
            for h in topo.node_hexes[n]
            if board.terrains[h] in weights
        )
        for n in range(topo.node_count)
    )
    return _BoardInfo(pips, tuple(board.tokens), node_prod, scarcity, tuple(harbour), weighed)


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
        self._info: tuple[Board, GameKnowledge, _BoardInfo] | None = None
        self._counts: dict[Seat, _TurnCounts] = {}
        self._turn = _TurnCounts(0)
        self._memo: tuple[Goal | None] | None = None
        self._rules: type | None = None  # the rules class whose knowledge ``_game`` is
        self._game: GameKnowledge = BASE_GAME

    # ------------------------------------------------------------------ entry point

    def choose(self, view: GameState, seat: Seat) -> Action:
        """The action ``seat`` takes now; always one that ``view.check`` accepts.

        Raises:
            EngineError: ``seat`` has no legal action now.
        """
        phase = view.phase
        if phase in CHANCE_PHASES or phase is Phase.GAME_OVER:
            raise EngineError(f"seat {seat} has no decision in phase {phase.title}")
        if type(view.variant) is not self._rules:
            self._rules = type(view.variant)
            self._game = knowledge_of(view.variant)
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
        choice = self._game.choice  # the game's own move first (Cities & Knights' knights)
        if choice is not None:
            scenario = choice(view, seat, legal)
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
        own_phase = self._game.phase  # a phase of the game's own (Seafarers' gold)
        chosen = None if own_phase is None else own_phase(self, view, seat, legal)
        return legal[0] if chosen is None else chosen

    def forget_turn(self) -> None:
        """Forget the offers and bank trades made this turn (a search's next playout starts
        again from the same position), and the prospects kept along the last line of play."""
        self._counts.clear()
        if self._line is not None:
            self._line.clear()

    def _board(self, board: Board) -> _BoardInfo:
        if self._info is None or self._info[0] is not board or self._info[1] is not self._game:
            self._info = (board, self._game, _board_info(board, self._game))
        return self._info[2]

    # ------------------------------------------------------------------ planner

    def goal(self, view: GameState, seat: Seat) -> Goal | None:
        """The seat's best goal now (:class:`~hexlan.engine.bots.knowledge.Planner`)."""
        return self._goal(view, seat, self._board(view.board))

    def rates(self, view: GameState, seat: Seat) -> list[float]:
        """Expected cards of each kind per own turn (one roll by every seat)."""
        return self._rates(view, seat, self._board(view.board))

    def best(self, legal: list[Action], value: Callable[[Action], float]) -> Action:
        """The action of highest ``value``, ties broken by a jitter below 0.001 from the rng
        (one draw per action, in order)."""
        best, best_value = legal[0], -1e9
        for action in legal:
            score = value(action) + self.rng.random() * 1e-3
            if score > best_value:
                best, best_value = action, score
        return best

    def settlement_value(self, view: GameState, node: NodeId, own: list[float]) -> float:
        """What a settlement on ``node`` is worth, in rough victory points, to a seat whose
        buildings make ``own`` pips of each kind (its spot's worth, :meth:`_spot_value`)."""
        return _SETTLEMENT_VALUE + self._spot_value(view, self._board(view.board), node, own) / 30

    def may_buy_card(self, view: GameState, seat: Seat, goal: Goal | None, cost: Hand) -> bool:
        """Whether paying ``cost`` for a development card leaves ``goal`` about as near."""
        return self._may_buy_card(view, seat, self._board(view.board), goal, cost)

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

    def _spot_value(
        self,
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
        for h, p, weight in info.weighed[node]:  # the game's own terrains (the Jungle's jungle)
            value += (p * 0.6 if h == view.robber else p) * weight
        points = self._game.points
        if points is not None:
            value += _POINTS_SPOT_WEIGHT * points(view, view.active, node, -1)
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
            points = self._game.points
            for n, (d, first) in self._expansion(view, seat).items():
                value = self.settlement_value(view, n, own)
                if points is not None:
                    value += points(view, seat, n, -1)
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

    def _goals(self, view: GameState, seat: Seat, info: _BoardInfo) -> list[Goal]:
        """Every goal worth saving for, each with its estimated wait."""
        rules = view.rules
        hand = view.hands[seat]
        ratios = view.ratios[seat]
        prospects = self._prospects(view, seat, info)
        rates, own = prospects.rates, prospects.own
        goals: list[Goal] = []
        if prospects.city is not None:
            node, value = prospects.city
            goals.append(Goal("city", rules.city_cost, value, node))
        if prospects.spots is not None:
            best_goal: Goal | None = None
            s = rules.settlement_cost
            for d, (value, n, first) in prospects.spots.items():
                cost = (s[0] + d, s[1] + d, *s[2:])
                goal = Goal("settlement", cost, value, n, first, d, eta(cost, hand, rates, ratios))
                if best_goal is None or goal.score > best_goal.score:
                    best_goal = goal
            settle = self._game.settle  # the game's own ways to a spot (Seafarers' ships)
            if settle is not None:
                best_goal = settle(self, view, seat, own, best_goal)
            if best_goal is not None:
                goals.append(best_goal)
        if view.turn and view.deck_size() > 0:
            cost = rules.development_card_cost
            card_cost = self._game.card_cost  # the Jungle's discoveries pay for some
            if card_cost is not None:
                cost = card_cost(view, seat, cost)
            goals.append(Goal("dev", cost, _DEV_VALUE))
        own_goals = self._game.goals  # Cities & Knights' improvements, the Big River's road
        if own_goals is not None:
            goals.extend(own_goals(view, seat))
        for goal in goals:
            if goal.kind != "settlement":
                goal.eta = eta(goal.cost, hand, rates, ratios)
        return goals

    def _goal(self, view: GameState, seat: Seat, info: _BoardInfo) -> Goal | None:
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

        return self.best(legal, value)

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
            a, b = topo.path_nodes[_path_of(action)]
            far = b if a == start else a
            best = 0.0
            for k in topo.node_nodes[far]:
                if k != start and not view.blocked[k]:
                    best = max(best, self._spot_value(view, info, k, own, SETUP_WEIGHT))
            return best + 0.1 * len(topo.node_hexes[far])

        return self.best(roads or legal, value)

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
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action], goal: Goal | None
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
            points = self._game.points
            if points is not None:
                for road in roads:  # a road that completes a victory point (Big River)
                    if points(view, seat, -1, road.path) >= 1:
                        return road
        if goal is not None and goal.kind in ("settlement", "road") and goal.path >= 0:
            if goal.step is not None:  # the game's own pieces (Seafarers' ships)
                step = goal.step(legal, goal.path)
                if step is not None:
                    return step
            road_action = A.BuildRoad(goal.path)
            if road_action in roads:
                return road_action
        card_buy = self._game.card_buy  # the game's own purchase (the Jungle's discoveries)
        if card_buy is not None:
            buy = card_buy(self, view, seat, goal, legal)
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

    def _may_buy_card(
        self,
        view: GameState,
        seat: Seat,
        info: _BoardInfo,
        goal: Goal | None,
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
        return eta(goal.cost, after, rates, ratios) <= eta(goal.cost, hand, rates, ratios) + 0.3

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
        self, view: GameState, seat: Seat, legal: list[Action], goal: Goal | None
    ) -> Action | None:
        """The development card to play now toward ``goal``, if any (one a turn)."""
        if view.dev_played_this_turn:
            return None
        hand = view.hands[seat]
        plenty = [a for a in legal if isinstance(a, A.PlayYearOfPlenty)]
        if plenty and goal is not None:
            missing = lacking(goal.cost, hand)
            if sum(missing):

                def shortfall(a: A.PlayYearOfPlenty) -> int:
                    after = list(hand)
                    for r in a.resources:
                        after[r] += 1
                    return sum(lacking(goal.cost, after))

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
    def _monopoly_pick(view: GameState, seat: Seat, goal: Goal | None) -> Resource | None:
        """The resource whose monopoly pays best, judged from public counts only.

        Cards of a resource that are neither in the bank nor in the seat's hand are in the
        opponents' hands (19 of each in all).
        """
        total = view.rules.bank
        hand, ratios = view.hands[seat], view.ratios[seat]
        missing = lacking(goal.cost, hand) if goal is not None else [0] * view.kinds
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
        own_value = self._game.robber  # the game's own pieces (Seafarers' pirate)

        def score(action: Action) -> float:
            if own_value is not None:
                own = own_value(view, seat, action)
                if own is not None:
                    return own
            assert isinstance(action, A.MoveRobber)
            h = action.hex
            pips = info.pips[h]
            value = 0.0
            for n in topo.hex_nodes[h]:
                owner = view.node_owner[n]
                if owner == seat:
                    value -= 3.0 * pips * view.node_level[n]
                elif owner >= 0:
                    value += pips * view.node_level[n] * victim_weight(vp, leader, owner)
            if action.victim >= 0:
                value += steal_value(view, action.victim)
            return value

        return max(legal, key=score)

    # ------------------------------------------------------------------ roads

    def _free_road(
        self, view: GameState, seat: Seat, info: _BoardInfo, legal: list[Action]
    ) -> Action:
        goal = self._goal(view, seat, info)
        if goal is not None and goal.kind in ("settlement", "road") and goal.path >= 0:
            if goal.step is not None:  # the game's own pieces (Seafarers' ships)
                step = goal.step(legal, goal.path)
                if step is not None:
                    return step
            elif A.BuildRoad(goal.path) in legal:
                return A.BuildRoad(goal.path)
        spots = self._expansion(view, seat, depth=EXPANSION_DEPTH + 1)
        own = self._own_pips(view, seat, info, robber=False)
        best: tuple[float, Action] | None = None
        for n, (d, first) in spots.items():
            if first < 0:
                continue
            action: Action = A.BuildRoad(first)
            if action not in legal:
                continue
            value = self._spot_value(view, info, n, own) * (1.0 - _ROAD_DISCOUNT * d)
            if best is None or value > best[0]:
                best = (value, action)
        if best is not None:
            return best[1]
        roads = [a for a in legal if isinstance(a, A.BuildRoad)]
        if not roads:  # Seafarers: only ships can be placed
            return self.best(legal, lambda a: 0.0)
        own_roads = view.roads[seat]
        return max(
            roads,
            key=lambda a: longest_road(view.topology, [*own_roads, a.path], seat, view.node_owner),
        )

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
        self, view: GameState, seat: Seat, info: _BoardInfo, goal: Goal, legal: list[Action]
    ) -> Action | None:
        """One bank trade toward the goal, when trades complete it now (or the hand is too big)."""
        if self._turn.trades >= MAX_MARITIME_PER_TURN:
            return None
        hand, ratios, cost = view.hands[seat], view.ratios[seat], goal.cost
        missing = lacking(cost, hand)
        short = sum(missing)
        if not short:
            return None
        tradeable = bank_trades(cost, hand, ratios)
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
        self, view: GameState, seat: Seat, info: _BoardInfo, goal: Goal
    ) -> A.OfferTrade | None:
        """A one-for-one domestic offer to everyone that completes the goal (two a turn at most)."""
        if self._turn.offers >= MAX_OFFERS_PER_TURN:
            return None
        hand, cost = view.hands[seat], goal.cost
        missing = lacking(cost, hand)
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
        missing = lacking(cost, hand)
        if not any(gain[r] and missing[r] for r in kinds):
            return False  # nothing it needs
        after = [hand[r] + gain[r] - pay[r] for r in kinds]
        if sum(lacking(cost, after)) >= sum(missing):
            return False
        rates = self._rates(view, seat, info)
        ratios = view.ratios[seat]
        return eta(cost, after, rates, ratios) < eta(cost, hand, rates, ratios)

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
        missing = lacking(goal.cost, hand)
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


def _path_of(action: Action) -> PathId:
    """The path a set-up road goes on, or a game's own piece in its place (Seafarers' ship)."""
    path = getattr(action, "path", None)
    assert isinstance(path, int), action
    return path
