"""A game client over the engine alone, to open any map and rule set in the TUI before the
network layer carries them (the five-six game for the TUI tests and a person in tmux).

A plain helper module: pytest puts ``tests/`` on ``sys.path``, so tests import it as
``local_game``. Run it to play a five-six game against bots::

    .venv/bin/python tests/local_game.py --players 6 --seed 1

:class:`LocalGame` keeps the full :class:`~hexlan.engine.state.GameState` and the person's
:class:`~hexlan.engine.info.InformationState` in step (``advance_views``), resolves chance from a
seeded ``random.Random`` and lets heuristic bots play the other seats. It is a test harness, not
a fair game: no beacon, no signatures, no log (``hexlan play --game`` is the real thing).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hexlan.engine.actions import Action
from hexlan.engine.board import random_board
from hexlan.engine.bots import Bot, make_bot
from hexlan.engine.core import CHANCE_PHASES, IllegalActionError, Phase, Seat
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.net.client import GameClient
from hexlan.net.narrate import GameEvent, Narrator
from hexlan.tui.app import HexlanApp
from hexlan.tui.palette import SEAT_NAMES


@dataclass
class _Done:
    """What the screens read of a session: nothing is left to audit in a local game."""

    done: bool = True
    audited: None = None


class _LocalNarrator(Narrator):
    """The network narrator on any rule set (its own constructor assumes the base game)."""

    def __init__(self, state: InformationState, names: Sequence[str], seat: Seat) -> None:
        self.names = tuple(names)
        self.players = len(self.names)
        self.seat = seat
        self.state = InformationState(state.board, state.players, seat, state.options, state.rules)
        self.events: list[GameEvent] = []
        self.rolls: list[int] = []


class LocalGame(GameClient):
    """One person against heuristic bots on any map and rule set, engine only.

    Args:
        game: the rule set's name ("base", "five-six").
        players: seats (within the rule set's range).
        seed: the board, the dice, the cards and the bots follow from it.
        names: one name per seat (default: "You", then the seat colours).
        human_seat: the person's seat.
    """

    def __init__(
        self,
        game: str = "five-six",
        players: int = 6,
        seed: int = 0,
        names: Sequence[str] | None = None,
        human_seat: Seat = 0,
    ) -> None:
        rules = load_ruleset(game)
        self.rng = random.Random(seed)
        board = random_board(self.rng, "spiral", load_map(rules.board))
        self.state = GameState(board, players, rules=rules)
        self.names = tuple(names) if names is not None else ("You", *SEAT_NAMES[1:players])
        self.players = players
        self.human_seat = human_seat
        self.seed = seed
        self.fair = False
        self.session = _Done()  # type: ignore[assignment]
        self._view = InformationState(board, players, human_seat, rules=rules)
        self._narrator = _LocalNarrator(self._view, self.names, human_seat)
        self.bots: dict[Seat, Bot] = {
            s: make_bot("heuristic", random.Random(seed * 31 + s))
            for s in range(players)
            if s != human_seat
        }
        self._chance()

    # ------------------------------------------------------------------ reading

    @property
    def view(self) -> InformationState:
        """The person's information state."""
        return self._view

    @property
    def is_started(self) -> bool:
        """Always: the board is laid at once."""
        return True

    @property
    def stopped(self) -> None:
        """Never: nobody can break a protocol here."""
        return None

    @property
    def abandoned(self) -> None:
        """Never abandoned."""
        return None

    @property
    def is_over(self) -> bool:
        """Whether the game has been won."""
        return self.state.is_over

    @property
    def winner(self) -> Seat | None:
        """The winning seat once the game is won, else None."""
        state = self.state
        return state.winner if state.is_over and state.winner >= 0 else None

    def human_to_act(self) -> bool:
        """Whether a decision of the person's is due."""
        state = self.state
        return state.phase not in CHANCE_PHASES and self.human_seat in state.acting_seats()

    def waiting_on(self) -> list[Seat]:
        """Nothing: no protocol step is ever outstanding."""
        return []

    def audit_words(self) -> str:
        """No audit in a local game."""
        return ""

    # ------------------------------------------------------------------ moving

    def submit(self, action: Action) -> list[GameEvent]:
        """Play the person's ``action`` and the chance that follows.

        Raises:
            IllegalActionError: not the person's move, or not legal now.
        """
        if not self.human_to_act():
            raise IllegalActionError("it is not your move")
        return [self._apply(action, check=True), *self._chance()]

    def step(self) -> list[GameEvent] | None:
        """Let the lowest bot whose decision is due make it; None when the person is due or the
        game is over."""
        state = self.state
        if state.is_over or self.human_to_act():
            return None
        seat = min(state.acting_seats())
        action = self.bots[seat].choose(state, seat)
        return [self._apply(action, check=True), *self._chance()]

    def _apply(self, action: Action, *, check: bool = False) -> GameEvent:
        seen = self.state.observation(action, self.human_seat)
        advance_views(self.state, [self._view], action, check=check)
        return self._narrate_action(seen)

    def _chance(self) -> list[GameEvent]:
        events = []
        while self.state.phase in CHANCE_PHASES:
            outcomes = self.state.chance_outcomes()
            action = self.rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            events.append(self._apply(action))
        return events

    def special_building(self, builder: Seat) -> None:
        """Put the game into the special building phase with ``builder`` to act (for tests of
        the screen, before the engine carries the phase: only its fields are set)."""
        for state in (self.state, self._view):
            state.phase = Phase.SPECIAL_BUILD
            state.active = builder


def make_local_app(
    game: str = "five-six", players: int = 6, seed: int = 0, bot_delay: float = 0.5
) -> HexlanApp:
    """The `hexlan play` app on a :class:`LocalGame`."""
    return HexlanApp(LocalGame(game, players, seed), bot_delay=bot_delay)


def main() -> None:
    """Play a local game in this terminal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="five-six")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    args = parser.parse_args()
    make_local_app(args.game, args.players, args.seed, args.bot_delay).run()


if __name__ == "__main__":
    main()
