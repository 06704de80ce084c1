"""A search bot for the games with a state of their own (Landnám): determinised Monte Carlo
search over one seat's decision, through the :class:`~hexlan.engine.game.SeatViews` protocol
alone (it names no game; a game's bot module registers it with the game's heuristic,
:data:`~hexlan.engine.bots.own.OWN_BOTS`).

For each decision the bot asks its advisor (the game's heuristic policy) for its choice and
lists a few alternatives: the best :attr:`OwnSearchBot.width` legal actions by the evaluation
one action ahead, and :attr:`OwnSearchBot.spread` drawn at random from the rest. It then plays
rounds: a round samples one full state the seat's view may be (:meth:`~hexlan.engine.game.
SeatViews.determinized`: the cards it has not seen dealt from its unseen pool) and one playout
seed, and plays every candidate still in the race from them (common random numbers: the
candidates meet the same hidden cards, dice and choices), the playout policy acting for every
seat and chance drawn by :func:`~hexlan.engine.game.sample_outcome`, for
:attr:`OwnSearchBot.horizon` turns; the end position is scored. Candidates far behind the best
drop out as rounds add up, and the advice stands unless another candidate beat it clearly on
the same rounds. This is information-set Monte Carlo search cut at the root (Cowling, Powley
and Whitehouse 2012), the shape of :mod:`hexlan.engine.bots.mcts` for the Catan games.

Scores: a finished playout is worth its share of the win to the seat (0 for a loss); an
unfinished one, the seat's share of a softmax over every seat's evaluation (the game's, when
it gives one, else :meth:`~hexlan.engine.game.SeatViews.victory_points`), a rough chance to win.

Budget: :attr:`OwnSearchBot.think` seconds of wall time per decision read from the given clock
(the engine reads no clock: the CLI passes ``time.perf_counter``); without a clock,
:data:`NOMINAL_RATE` playouts per second of ``think``, reproducible from the bot's seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from hexlan.engine.actions import Action
from hexlan.engine.bots import DEFAULT_THINK, Clock
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.core import Seat
from hexlan.engine.game import CHANCE_SEAT, Game, SeatViews, sample_outcome

if TYPE_CHECKING:  # the engine draws no randomness itself: the bot gets a seeded rng
    import random

    from hexlan.engine.bots.own import OwnPolicy

Evaluation = Callable[[Game, Seat], float]
"""``value(state, seat)``: a full position's worth to ``seat`` in rough victory points."""
PlayoutPolicy = Callable[["random.Random"], "OwnPolicy"]
"""``policy(rng)``: the policy that plays every seat in a playout, tie-breaks from ``rng``."""
SearchFactory = Callable[["random.Random", float, "Clock | None"], "OwnSearchBot"]
"""What :func:`search_bot` makes (an :data:`~hexlan.engine.bots.own.PolicyFactory`)."""

NOMINAL_RATE: Final = 120
"""Playouts per second of ``think`` for a bot without a clock (about what one core runs in
Landnám at the default horizon)."""
HORIZON: Final = 2
"""Turns a playout plays (the current one counting) before it is scored."""
WIDTH: Final = 4
"""Candidates kept by the evaluation one action ahead, besides the advice."""
SPREAD: Final = 1
"""Candidates drawn at random from the other legal actions."""
LOOKAHEAD_CAP: Final = 48
"""The most legal actions evaluated one action ahead (a random sample of them beyond)."""
MIN_ROUNDS: Final = 3
"""Rounds every candidate plays before any drops out."""
DROP_MARGIN: Final = 0.4
"""How far below the best mean score (over the square root of the rounds) a candidate drops."""
BEAT_MARGIN: Final = 0.01
"""How much more than the advice, on the same rounds, a candidate must score to replace it..."""
BEAT_Z: Final = 1.0
"""... and by how many standard errors of the round-by-round differences."""
MAX_STEPS: Final = 3000
"""Actions after which a playout stops whatever its horizon (a safety net)."""
SAFETY: Final = 0.02
"""Seconds kept back from ``think`` for the last playout and the reply."""


class _Candidate:
    """A candidate action and the score of each round it played, in round order."""

    __slots__ = ("action", "scores")

    def __init__(self, action: Action) -> None:
        self.action = action
        self.scores: list[float] = []

    def mean(self) -> float:
        return sum(self.scores) / len(self.scores)


def share(state: SeatViews, seat: Seat, value: Evaluation | None = None) -> float:
    """``seat``'s score of ``state`` in [0, 1]: its share of the winners once the game is over,
    else its share of a softmax over every seat's ``value`` (default: victory points): a point
    ahead of one other seat is worth e:1."""
    if state.is_over:
        won = state.winners()
        return 1 / len(won) if seat in won else 0.0
    values = [
        value(state, s) if value is not None else float(state.victory_points(s))
        for s in range(state.players)
    ]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    return weights[seat] / sum(weights)


class OwnSearchBot:
    """Determinised Monte Carlo search for a game of the ``SeatViews`` protocol.

    Args:
        rng: the bot's only source of randomness (candidates, determinisations, playouts).
        think: seconds of wall time per decision (> 0).
        clock: seconds from any fixed origin; None: ``think * NOMINAL_RATE`` playouts.
        policy: makes the playout policy and the advisor (the game's heuristic; default: the
            random bot).
        value: the game's evaluation of a full position (default: victory points).
        playouts: the most playouts a decision may use, 0 for no cap (the strength knob).
        horizon: turns a playout plays, >= 1.
        width, spread: candidates by the evaluation one action ahead, and at random.

    Raises:
        ValueError: a budget, horizon or width out of range.
    """

    def __init__(
        self,
        rng: random.Random,
        think: float = DEFAULT_THINK,
        clock: Clock | None = None,
        *,
        policy: PlayoutPolicy = RandomBot,
        value: Evaluation | None = None,
        playouts: int = 0,
        horizon: int = HORIZON,
        width: int = WIDTH,
        spread: int = SPREAD,
    ) -> None:
        if not think > 0:
            raise ValueError(f"think must be a positive number of seconds, not {think!r}")
        if playouts < 0 or horizon < 1 or width < 0 or spread < 0:
            raise ValueError(
                f"bad search settings: playouts={playouts}, horizon={horizon}, "
                f"width={width}, spread={spread}"
            )
        self.rng = rng
        self.think = think
        self.clock = clock
        self.value = value
        self.playouts = playouts
        self.horizon = horizon
        self.width = width
        self.spread = spread
        self.advisor = policy(rng)
        self._playout_rng = type(rng)(0)  # reseeded for every playout
        self._policy = policy(self._playout_rng)
        self.last_playouts = 0
        """Playouts the last decision ran (benchmarks read it)."""

    def choose(self, view: Game, seat: Seat) -> Action:
        """The action ``seat`` takes now, one of ``view.legal_actions(seat)``.

        Raises:
            TypeError: ``view`` is not of the ``SeatViews`` protocol (it cannot be
                determinised).
            ValueError: ``seat`` has no legal action now.
        """
        if not isinstance(view, SeatViews):
            raise TypeError(f"the search bot plays SeatViews games, not {type(view).__name__}")
        start = self.clock() if self.clock is not None else 0.0
        legal = view.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action now")
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        advice = self.advisor.choose(view, seat)
        candidates = self._candidates(view, seat, legal, advice)
        if len(candidates) == 1:
            return advice
        return self._search(view, seat, candidates, start)

    def _candidates(
        self, view: SeatViews, seat: Seat, legal: list[Action], advice: Action
    ) -> list[Action]:
        """The advice, the best :attr:`width` others by :func:`share` one action ahead (at most
        :data:`LOOKAHEAD_CAP` of them looked at), then :attr:`spread` of the rest at random."""
        others = [a for a in legal if a != advice]
        rng = self.rng
        if len(others) > LOOKAHEAD_CAP:
            others = rng.sample(others, LOOKAHEAD_CAP)
        ahead: list[tuple[float, int]] = []
        for i, action in enumerate(others):
            after = view.copy()
            after.apply(action)
            ahead.append((share(after, seat, self.value), i))
        ahead.sort(key=lambda pair: (-pair[0], pair[1]))
        best = [others[i] for _, i in ahead[: self.width]]
        rest = [others[i] for _, i in ahead[self.width :]]
        drawn = rng.sample(rest, min(self.spread, len(rest)))
        return [advice, *best, *drawn]

    def _budget(self) -> int:
        """The most playouts of a decision: :attr:`playouts`, and without a clock
        ``think * NOMINAL_RATE`` (0: no cap)."""
        if self.clock is not None:
            return self.playouts
        nominal = max(1, round(self.think * NOMINAL_RATE))
        return min(self.playouts, nominal) if self.playouts else nominal

    def _search(self, view: SeatViews, seat: Seat, actions: list[Action], start: float) -> Action:
        """Rounds of playouts over the candidates still in the race until the budget is spent
        (a round cut short does not count); the advice (the first) unless another beat it."""
        cap, clock = self._budget(), self.clock
        deadline = start + self.think - SAFETY
        end_turn = view.turn + self.horizon
        everyone = [_Candidate(a) for a in actions]
        live = everyone
        done = rounds = 0
        while len(live) > 1:
            if cap and done + len(live) > cap and rounds:
                break
            world = view.determinized(self.rng)
            seed = self.rng.getrandbits(64)
            scores: list[float] = []
            for candidate in live:
                if clock is not None and rounds and clock() >= deadline:
                    break
                state = world.copy()
                state.apply(candidate.action)
                scores.append(self._playout(state, seat, end_turn, seed))
                done += 1
            if len(scores) < len(live):
                break
            for candidate, score in zip(live, scores, strict=True):
                candidate.scores.append(score)
            rounds += 1
            live = _survivors(live, rounds)
        self.last_playouts = done
        advice = everyone[0]
        if not rounds:
            return advice.action
        best = max(live, key=_Candidate.mean)
        if advice not in live or (best is not advice and _beats(best, advice)):
            return best.action
        return advice.action

    def _playout(self, state: SeatViews, seat: Seat, end_turn: int, seed: int) -> float:
        """Play on with the playout policy for every seat, chance and tie-breaks from
        ``seed``, until turn ``end_turn`` begins or the game ends; :func:`share` of the end."""
        rng, policy = self._playout_rng, self._policy
        rng.seed(seed)
        steps = 0
        while not state.is_over and state.turn < end_turn and steps < MAX_STEPS:
            actor = state.current_player()
            if actor == CHANCE_SEAT:
                state.apply(sample_outcome(state, rng))
            else:
                state.apply(policy.choose(state, actor))
            steps += 1
        return share(state, seat, self.value)


def _survivors(live: list[_Candidate], rounds: int) -> list[_Candidate]:
    """The candidates within :data:`DROP_MARGIN` over the square root of ``rounds`` of the best
    mean, once :data:`MIN_ROUNDS` rounds are played."""
    if rounds < MIN_ROUNDS:
        return live
    floor = max(c.mean() for c in live) - DROP_MARGIN / math.sqrt(rounds)
    return [c for c in live if c.mean() >= floor]


def _beats(candidate: _Candidate, advice: _Candidate) -> bool:
    """Whether ``candidate`` scored above the advice by :data:`BEAT_MARGIN` and by
    :data:`BEAT_Z` standard errors of their round-by-round differences (the rounds share
    their hidden cards and chance, so the differences are paired); the best of several noisy
    means flatters itself, so one round proves nothing."""
    diffs = [c - a for c, a in zip(candidate.scores, advice.scores, strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > BEAT_MARGIN and mean > BEAT_Z * math.sqrt(variance / n)


def search_bot(policy: PlayoutPolicy, value: Evaluation | None = None) -> SearchFactory:
    """The factory a game's bot module registers as its ``mcts`` bot (an
    :data:`~hexlan.engine.bots.own.PolicyFactory`): :class:`OwnSearchBot` with the game's
    playout ``policy`` and evaluation."""

    def factory(rng: random.Random, think: float, clock: Clock | None) -> OwnSearchBot:
        return OwnSearchBot(rng, think, clock, policy=policy, value=value)

    return factory


__all__ = [
    "HORIZON",
    "NOMINAL_RATE",
    "Evaluation",
    "OwnSearchBot",
    "PlayoutPolicy",
    "SearchFactory",
    "search_bot",
    "share",
]
