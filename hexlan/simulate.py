"""Headless games between bots through the engine alone, in one process (`hexlan simulate`).

Each seat is played by a bot reading its own :class:`~hexlan.engine.info.InformationState`; chance
comes from :class:`~hexlan.chance.SeededChance`, so a game's seed fixes it completely.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from hexlan.chance import SeededChance
from hexlan.engine.actions import Action
from hexlan.engine.bots import DEFAULT_THINK, make_bot
from hexlan.engine.bots.own import OwnPolicy, own_bot
from hexlan.engine.game import SeatViews, sample_outcome
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset, state_spec
from hexlan.engine.state import CHANCE, GameState

TURN_CAP: Final = 1500
"""Turns after which a game stops without a winner (random bots may stall for a long time)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one simulated game ended.

    Attributes:
        seed: the game's seed (board, chance and bots).
        winner: the winning seat, or None when the turn cap was hit.
        victory_points: final victory points per seat, hidden cards included.
        turns: turns played after the set-up.
        actions: decisions made by seats (chance outcomes not counted).
    """

    seed: int
    winner: int | None
    victory_points: list[int]
    turns: int
    actions: int


@dataclass(slots=True)
class SimulationReport:
    """Results of a run of games of one game (``base``, ``five-six``, ...) and its wall time
    in seconds."""

    games: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    game: str = "base"
    options: GameOptions = field(default_factory=GameOptions)

    @property
    def games_per_second(self) -> float:
        """Games finished per second of wall time."""
        return len(self.games) / self.seconds if self.seconds else 0.0

    def to_json(self, bots: Sequence[str]) -> dict[str, Any]:
        """The ``--json`` form: the game's name, the options that differ from the official
        rules (``options``, only when some do), per-game results and totals."""
        actions = sum(g.actions for g in self.games)
        wins = [0] * len(bots)
        for game in self.games:
            if game.winner is not None:
                wins[game.winner] += 1
        changed = self.options.changed()
        return {
            "game": self.game,
            **({"options": changed} if changed else {}),
            "games": [asdict(g) for g in self.games],
            "games_per_second": round(self.games_per_second, 3),
            "actions_per_second": round(actions / self.seconds, 1) if self.seconds else 0.0,
            "seconds": round(self.seconds, 3),
            "bots": list(bots),
            "wins": wins,
        }


def play_game(
    seed: int,
    bots: Sequence[str],
    board: str = "random",
    turn_cap: int = TURN_CAP,
    game: str = "base",
    think: float = DEFAULT_THINK,
    observe: Callable[[GameState, Action], None] | None = None,
    options: GameOptions | None = None,
) -> GameResult:
    """Play one game between the named bots (one per seat, seat 0 first).

    Args:
        seed: seeds the board, the chance source and every bot.
        bots: bot names (see :func:`hexlan.engine.bots.make_bot`), one per seat (2 to 4 in the
            base game, 5 or 6 in ``five-six``).
        board: "beginner" or "random" (the five-six map has no beginner board).
        turn_cap: stop without a winner after this many turns.
        game: the rule set (:data:`hexlan.engine.ruleset.GAMES`); its map is the board's.
        think: seconds a searching bot may take per decision.
        observe: called with the full state and each action (chance outcomes too) before the
            action is applied (scripts/ count what bots do with it).
        options: the game options (default: the official rules).

    Raises:
        ValueError: an unknown bot or board name.
        EngineError: an unknown game, a number of seats outside its range, a beginner board
            of a map without one, or options the game's rules refuse.
    """
    spec = state_spec(game)
    if spec is not None and spec.state is not None:
        own = spec.state(game, len(bots), options)
        return play_own_game(seed, own, bots, turn_cap, think)
    chance = SeededChance(seed)
    players = len(bots)
    rules = load_ruleset(game)
    laid = chance.board(board, board_map=load_map(rules.board, rules.terrains))
    state = GameState(laid, players, options, rules=rules)
    policies = [
        make_bot(name, random.Random(seed * 31 + i), think, time.perf_counter)
        for i, name in enumerate(bots)
    ]
    # perf: a random bot reads nothing but its own legal actions, which are the same in the full
    # state and in its information state; games of random bots alone skip the views.
    if all(name == "random" for name in bots):
        views: list[GameState] = [state] * players
        infos: list[InformationState] = []
    else:
        infos = [
            InformationState(state.board, players, seat, options, rules=rules)
            for seat in range(players)
        ]
        views = list(infos)
    decisions = 0
    while not state.is_over and state.turn <= turn_cap:
        seat = state.current_player()
        if seat == CHANCE:
            action = chance.outcome(state)
        else:
            action = policies[seat].choose(views[seat], seat)
            decisions += 1
        if observe is not None:
            observe(state, action)
        if infos:
            advance_views(state, infos, action)
        else:
            state.apply(action)
    return GameResult(
        seed=seed,
        winner=state.winner if state.is_over else None,
        victory_points=[state.victory_points(s) for s in range(players)],
        turns=state.turn,
        actions=decisions,
    )


def play_own_game(
    seed: int,
    state: SeatViews,
    bots: Sequence[str],
    turn_cap: int = TURN_CAP,
    think: float = DEFAULT_THINK,
) -> GameResult:
    """Play one game of a game with a state of its own (Landnám) through the
    :class:`~hexlan.engine.game.Game` protocol alone: each bot reads its own view (a copy of
    the new game that sees as its seat does, advanced by :meth:`~hexlan.engine.game.Game.
    observation`); chance is drawn by :func:`~hexlan.engine.game.sample_outcome` from a
    ``random.Random`` seeded by ``seed`` (a simulation, never a fair game).

    Args:
        seed: seeds the chance and every bot.
        state: the new game, before its first chance outcome.
        bots: one bot name per seat (:func:`hexlan.engine.bots.own.own_bot`: ``random``, or
            a bot the game's own bot modules register, as Landnám's ``heuristic``).
        turn_cap: stop without a winner after this many turns (the state's ``turn``).
        think: seconds a searching bot may take per decision.

    Raises:
        ValueError: a bot name the game has no bot of.
    """
    policies = [
        own_bot(name, state, random.Random(seed * 31 + i), think, time.perf_counter)
        for i, name in enumerate(bots)
    ]
    return play_own_policies(seed, state, policies, turn_cap)


def play_own_policies(
    seed: int, state: SeatViews, policies: Sequence[OwnPolicy], turn_cap: int = TURN_CAP
) -> GameResult:
    """:func:`play_own_game` with the bots given as policies (one per seat, each reading its
    own view), for scripts that make or wrap their own; chance seeded by ``seed``."""
    rng = random.Random(seed)
    views = [state.view(seat) for seat in range(state.players)]
    decisions = 0
    while not state.is_over and state.turn <= turn_cap:
        seat = state.current_player()
        if seat == CHANCE:
            action = sample_outcome(state, rng)
        else:
            action = policies[seat].choose(views[seat], seat)
            decisions += 1
        for viewer, view in enumerate(views):
            view.apply(state.observation(action, viewer))
        state.apply(action)
    winners = state.winners()
    return GameResult(
        seed=seed,
        winner=winners[0] if state.is_over and winners else None,
        victory_points=[state.victory_points(s) for s in range(state.players)],
        turns=state.turn,
        actions=decisions,
    )


def simulate(
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int = 0,
    board: str = "random",
    game: str = "base",
    think: float = DEFAULT_THINK,
    options: GameOptions | None = None,
) -> SimulationReport:
    """Play ``games`` games with seeds ``seed, seed+1, ...``.

    Args:
        games: how many games, >= 1.
        players: seats per game, within the game's range; ``bots`` has one name per seat.
        game: the rule set, as for :func:`play_game`.
        think: seconds a searching bot may take per decision.
        options: the game options of every game (default: the official rules).

    Raises:
        ValueError: bad counts or names.
        EngineError: as for :func:`play_game`.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    report = SimulationReport(game=game, options=options or GameOptions())
    start = time.perf_counter()
    for i in range(games):
        report.games.append(
            play_game(seed + i, bots, board, game=game, think=think, options=options)
        )
    report.seconds = time.perf_counter() - start
    return report
