"""A search bot: information-set Monte Carlo search over its seat's decisions.

The bot never sees the others' hidden cards. For each playout it draws a full state consistent
with its seat's information state (:mod:`hexlan.engine.determinize`: the opponents' hands from
the worlds the view keeps, their development cards from the unseen pool), plays one candidate
action in it, lets the heuristic bot (:class:`~hexlan.engine.bots.heuristic.HeuristicBot`) play
every seat for a short horizon, chance drawn from the bot's own ``random.Random`` by the state's
chance nodes, and scores the end position. The search runs in rounds: a round draws one
determinisation and one playout seed and plays every candidate still in the race from them
(common random numbers, so that candidates are compared on the same hidden cards, dice and
choices); candidates that trail the best drop out as rounds add up (successive elimination).
This is single-observer information-set Monte Carlo search (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012) with the tree cut at the root and a heuristic
playout policy, the usual shape of strong Catan bots (Szita, Chaslot and Spronck 2010).

The candidates of a decision are the heuristic bot's own choice (its domestic offers and
counter-offers included: a search learns whether the table would take them) and the sensible
alternatives: building, buying, playing cards, bank trades, ending the turn; where to put the
robber and whom to rob; whether to play a knight before the roll; whether to accept, refuse or
counter an offer, and which answer to confirm. Decisions with one sensible answer (set-up,
discards, free roads, gold, the special building phase) are the heuristic bot's.

Budget: :attr:`MctsBot.think` seconds of wall time per decision, read from the clock the bot is
given (the engine reads no clock of its own: the CLI passes ``time.perf_counter``); playouts stop
when it is spent. Without a clock the budget is :data:`NOMINAL_RATE` playouts per second of
``think``, and the bot is fully reproducible from its seed. :attr:`MctsBot.playouts` is the
strength knob: the most playouts a decision may use (0: as many as the budget allows).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.actions import Action
from hexlan.engine.board import PIPS
from hexlan.engine.bots.heuristic import HeuristicBot
from hexlan.engine.core import (
    DevCard,
    EngineError,
    Phase,
    Seat,
)
from hexlan.engine.determinize import Determinizer
from hexlan.engine.game import sample_outcome
from hexlan.engine.info import InformationState
from hexlan.engine.registry import CHANCE_PHASES
from hexlan.engine.state import CHANCE, GameState

if TYPE_CHECKING:  # the engine draws no randomness itself: the bot gets a seeded rng
    import random

DEFAULT_THINK: Final = 1.0
"""Seconds a decision may take by default (the issue's budget)."""
NOMINAL_RATE: Final = 150
"""Playouts per second of budget for a bot without a clock (about what one core runs)."""
HORIZON: Final = 2
"""Rounds (a turn of every seat) a playout runs before its position is scored."""
PRUNE_MARGIN: Final = 0.5
"""How far (in mean score, divided by the square root of the rounds) a candidate may trail the
best before it drops out of the search."""
MIN_ROUNDS: Final = 2
"""Rounds every candidate plays before any drops out."""
ADVICE_MARGIN: Final = 0.015
"""How much better than the heuristic's choice another candidate must score to be taken."""
ADVICE_Z: Final = 1.0
DEVIATE_ROUNDS: Final = 4
"""Rounds a candidate must have played beside the advice before it may replace it (fewer
differences say too little of their spread)."""
"""... and by how many standard errors of the paired differences (see :func:`_clearly_better`)."""
MAX_ROBBER_CANDIDATES: Final = 6
MAX_ROAD_CANDIDATES: Final = 3
MAX_PLAYOUT_STEPS: Final = 2000
"""Actions after which a playout stops, whatever its horizon (a safety net)."""
_SAFETY: Final = 0.03
"""Seconds kept back from the budget for the last playout and the reply."""

_SEARCHED: Final = frozenset({Phase.ROLL, Phase.MAIN, Phase.MOVE_ROBBER, Phase.TRADE_RESPONSES})


@dataclass(slots=True)
class _Arm:
    """A candidate action and what its playouts scored."""

    action: Action
    scores: list[float] = field(default_factory=list)
    """One per round played, in round order."""

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


class MctsBot:
    """Information-set Monte Carlo search with heuristic playouts.

    Args:
        rng: the bot's only source of randomness (determinisations, chance in playouts, the
            heuristic's tie-breaks).
        think: seconds of wall time per decision (> 0).
        clock: seconds from any fixed origin (``time.perf_counter``); None: the budget is
            ``think * NOMINAL_RATE`` playouts, whatever they take.
        playouts: the strength knob: the most playouts per decision, 0 for no cap.
        horizon: rounds each playout runs before scoring (>= 1).

    Raises:
        ValueError: a budget or horizon out of range.
    """

    def __init__(
        self,
        rng: random.Random,
        think: float = DEFAULT_THINK,
        clock: Callable[[], float] | None = None,
        *,
        playouts: int = 0,
        horizon: int = HORIZON,
    ) -> None:
        if not think > 0:
            raise ValueError(f"think must be a positive number of seconds, not {think!r}")
        if playouts < 0 or horizon < 1:
            raise ValueError(f"bad search settings: playouts={playouts}, horizon={horizon}")
        self.rng = rng
        self.think = think
        self.clock = clock
        self.playouts = playouts
        self.horizon = horizon
        self.advisor = HeuristicBot(rng)
        self._playout_rng = type(rng)(0)  # reseeded for every playout
        self._policy = HeuristicBot(self._playout_rng, playout=True)
        self.last_playouts = 0
        """Playouts the last decision ran (benchmarks read it)."""

    def choose(self, view: GameState, seat: Seat) -> Action:
        """The action ``seat`` takes now; always one that ``view.check`` accepts.

        ``view`` should be the seat's :class:`InformationState`; given a full state the bot
        cannot tell what the seat may know, and plays the heuristic's choice.

        Raises:
            EngineError: ``seat`` has no decision now.
        """
        start = self.clock() if self.clock is not None else 0.0
        phase = view.phase
        if phase in CHANCE_PHASES or phase is Phase.GAME_OVER:
            raise EngineError(f"seat {seat} has no decision in phase {phase.title}")
        advice = self.advisor.choose(view, seat)
        self.last_playouts = 0
        if phase not in _SEARCHED or not isinstance(view, InformationState) or view.seat != seat:
            return advice
        candidates = self._candidates(view, seat, advice)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, seat, candidates, start)

    # ------------------------------------------------------------------ candidates

    def _candidates(self, view: GameState, seat: Seat, advice: Action) -> list[Action]:
        """The advice first, then the alternatives worth a playout in their stable numbering
        (:func:`~hexlan.engine.registry.number_actions`), without repeats."""
        phase = view.phase
        legal = view.legal_actions(seat)
        found: list[Action] = [advice]
        if phase is Phase.ROLL:
            found.extend(legal)
        elif phase is Phase.MOVE_ROBBER:
            found.extend(self._robber_moves(view, seat, legal))
        elif phase is Phase.TRADE_RESPONSES:
            found.extend(legal)
        else:
            found.extend(self._main_moves(view, seat, legal))
        return [advice, *(a for a in R.number_actions(found) if a != advice)]

    @staticmethod
    def _robber_moves(view: GameState, seat: Seat, legal: list[Action]) -> list[Action]:
        """The robber moves that block the most of the others' production, weighted toward
        the leaders (a seat's own buildings count against)."""
        topo, board = view.topology, view.board
        vp = view.public_vp

        def score(action: Action) -> float:
            if not isinstance(action, A.MoveRobber):
                return 0.0
            pips = PIPS[board.tokens[action.hex]]
            value = 0.0
            for n in topo.hex_nodes[action.hex]:
                owner = view.node_owner[n]
                if owner == seat:
                    value -= 2.0 * pips * view.node_level[n]
                elif owner >= 0:
                    value += pips * view.node_level[n] * (1.0 + vp[owner] / 5)
            if action.victim >= 0:
                value += 1.0 + 0.2 * min(view.hand_size[action.victim], 7)
            return value

        return sorted(legal, key=score, reverse=True)[:MAX_ROBBER_CANDIDATES]

    @staticmethod
    def _main_moves(view: GameState, seat: Seat, legal: list[Action]) -> list[Action]:
        """Ending the turn, every building, purchase, card play and bank trade, and a few roads
        toward free settlement spots."""
        moves: list[Action] = []
        roads: list[A.BuildRoad] = []
        path_nodes, blocked = view.topology.path_nodes, view.blocked
        for action in legal:
            if isinstance(action, A.BuildRoad):
                if any(not blocked[n] for n in path_nodes[action.path]):
                    roads.append(action)
            elif not isinstance(action, A.PlayYearOfPlenty) or _plenty_pair_helps(
                view, seat, action
            ):
                moves.append(action)
        moves.extend(roads[:MAX_ROAD_CANDIDATES])
        return moves

    # ------------------------------------------------------------------ search

    def _search(
        self, view: InformationState, seat: Seat, candidates: list[Action], start: float
    ) -> Action:
        """Rounds of playouts until the budget is spent: each round draws one determinisation
        and one playout seed and plays every candidate still in the race from them (common
        random numbers: candidates are compared on the same hidden cards, dice and choices,
        so few rounds tell them apart); after each round a candidate whose mean trails the
        best by more than :data:`PRUNE_MARGIN` times the spread left drops out."""
        arms = [_Arm(a) for a in candidates]
        sampler = Determinizer(view)
        clock, rng = self.clock, self.rng
        deadline = start + max(0.0, self.think - _SAFETY)
        cap = self.playouts
        if clock is None:
            budget = max(1, round(self.think * NOMINAL_RATE))
            cap = min(cap, budget) if cap else budget
        end_turn = view.turn + self.horizon * view.players
        done = 0
        live = arms
        rounds = 0
        while len(live) > 1:
            seed = rng.getrandbits(64)
            sample = sampler.sample(rng)
            scores: list[float] = []
            for arm in live:
                if done and ((cap and done >= cap) or (clock is not None and clock() >= deadline)):
                    break  # the budget is spent: this round, unfinished, does not count
                state = sample.copy()
                state.apply(arm.action)
                scores.append(self._playout(state, seat, end_turn, seed))
                done += 1
            if len(scores) < len(live):
                break
            for arm, result in zip(live, scores, strict=True):
                arm.scores.append(result)
            rounds += 1
            live = _prune(live, rounds)
        self.last_playouts = done
        advice = arms[0]
        if not rounds:
            return advice.action
        best = max(live, key=lambda a: a.mean)
        if best is advice or advice not in live or _clearly_better(best, advice):
            return best.action
        return advice.action

    def _playout(self, state: GameState, seat: Seat, end_turn: int, seed: int) -> float:
        """Play on with the heuristic policy for every seat until ``end_turn`` (or the end),
        chance and the policy's tie-breaks drawn from ``seed``; the position's score for
        ``seat`` in [0, 1]."""
        policy, rng = self._policy, self._playout_rng
        rng.seed(seed)
        policy.forget_turn()
        steps = 0
        while not state.is_over and state.turn < end_turn and steps < MAX_PLAYOUT_STEPS:
            actor = state.current_player()
            if actor == CHANCE:
                state.apply(sample_outcome(state, rng))
            else:
                state.apply(policy.choose(state, actor))
            steps += 1
        return score(state, seat)


def _clearly_better(arm: _Arm, advice: _Arm) -> bool:
    """Whether ``arm``, after at least :data:`DEVIATE_ROUNDS` rounds, beat the advice by
    :data:`ADVICE_MARGIN` and by :data:`ADVICE_Z` standard errors of the round-by-round
    differences (rounds share their random numbers, so the
    differences are paired): the best of several noisy means flatters itself, and the
    heuristic's choice stands unless the search finds better for sure."""
    diffs = [a - b for a, b in zip(arm.scores, advice.scores, strict=True)]
    n = len(diffs)
    if n < DEVIATE_ROUNDS:
        return False
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean > ADVICE_MARGIN and mean > ADVICE_Z * spread / math.sqrt(n)


def _prune(live: list[_Arm], rounds: int) -> list[_Arm]:
    """The candidates still in the race after ``rounds`` rounds: those within reach of the best
    mean (a margin that narrows as rounds add up); the advice (the first) stays while in reach."""
    if rounds < MIN_ROUNDS:
        return live
    best = max(a.mean for a in live)
    reach = PRUNE_MARGIN / math.sqrt(rounds)
    kept = [a for a in live if a.mean >= best - reach]
    return kept if kept else live


def _plenty_pair_helps(view: GameState, seat: Seat, action: A.PlayYearOfPlenty) -> bool:
    """Year of Plenty candidates: only picks of resources the seat holds least of."""
    hand = view.hands[seat]
    low = sorted(view.rules.plenty_kinds, key=lambda r: hand[r])[:3]
    return all(r in low for r in action.resources)


def value(state: GameState, seat: Seat) -> float:
    """A full position's worth to ``seat`` in rough victory points: its points (hidden cards
    included), its expected production, its unplayed cards and a hand it can spend.

    Production is weighed at about two points per card a roll brings (a 6 settlement is worth
    0.28); cards above the discard limit count against (a 7 would take half).
    """
    pips = 0.0
    robber = state.robber
    tokens = state.board.tokens
    node_hexes, level = state.topology.node_hexes, state.node_level
    terrains = state.board.terrains
    for nodes in (state.settlements[seat], state.cities[seat]):
        for n in nodes:
            for h in node_hexes[n]:
                if terrains[h].resource is not None:
                    pips += PIPS[tokens[h]] * level[n] * (0.5 if h == robber else 1.0)
    cards = state.dev_cards[seat]
    dev = sum(cards) - cards[DevCard.VICTORY_POINT]
    hand = state.hand_size[seat]
    limit = state.rules.discard_limit
    held = 0.08 * min(hand, limit) - 0.1 * max(0, hand - limit)
    army = 0.15 * state.knights[seat]
    road = 0.05 * state.road_length[seat]
    return state.victory_points(seat) + pips / 18 + 0.35 * dev + held + army + road


def score(state: GameState, seat: Seat) -> float:
    """The end of a playout for ``seat`` in [0, 1]: 1 a win, 0 a loss, else its share of a
    softmax of every seat's :func:`value` (a rough chance to win: a point ahead of one other
    seat is worth e:1).

    With two seats this is the logistic of the lead over the other. With more, every other
    seat counts, weighed by how near it is to winning: a move that holds back the second
    best is worth something too, where the lead over the best other alone would not see it.
    """
    if state.is_over:
        return 1.0 if state.winner == seat else 0.0
    values = [value(state, s) for s in range(state.players)]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    return weights[seat] / sum(weights)


__all__ = ["DEFAULT_THINK", "MctsBot", "score", "value"]
