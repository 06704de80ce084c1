"""What Landnám's screen talks to (../shared/ARCHITECTURE.md: the TUI talks to a game *client*):
the small interface :class:`LandnamClient` it needs; :func:`session_landnam`, the seat of a
`hexlan play` table whose every seat runs the network protocol in this process; and
:class:`LocalLandnam`, a practice game whose positions a test or a tutorial may arrange.

The local game draws its chance from a ``random.Random`` (:func:`~hexlan.engine.game.
sample_outcome`): it is **not fair**, as a seeded `hexlan play` game is not, and its status
says so. The session clients (:class:`~hexlan.net.own_client.OwnSessionGame`) satisfy the same
protocol: ``view``, ``submit``, ``step``, ``on_change``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from hexlan.engine.actions import Action
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.game import CHANCE_SEAT, sample_outcome
from hexlan.engine.options import GameOptions
from hexlan.engine.variants.landnam.state import LandnamState, new_game
from hexlan.i18n import N_, _
from hexlan.net.own_client import OwnEvent, OwnNetworkGame, OwnPolicy, OwnSessionGame
from hexlan.net.tellers.landnam import tell

if TYPE_CHECKING:
    from pathlib import Path

    from hexlan.net.peer import Peer
    from hexlan.tui.slots import OwnTable


PolicyFactory = Callable[[random.Random], OwnPolicy]
"""``factory(rng)``: a new bot drawing any randomness from ``rng`` (the random bot,
:class:`~hexlan.engine.bots.random_bot.RandomBot`; `hexlan play` passes its ``own_bot``)."""

NOT_FAIR: Final = N_("not fair: local chance")
"""The status note of a game whose chance is drawn in this process (English; shown
translated)."""


class Told(Protocol):
    """What the screen reads of an event (an :class:`~hexlan.net.own_client.OwnEvent`)."""

    @property
    def seat(self) -> Seat | None:
        """The seat that acted, or None."""

    @property
    def text(self) -> str:
        """The event in words."""

    @property
    def action(self) -> Action:
        """The action as observed."""


class LandnamClient(Protocol):
    """One person's seat in a Landnám game, as the screen sees it.

    Attributes:
        names: one name per seat; players: the seat count; human_seat: the person's seat.
        fair: whether the chance is fair (a networked game's beacon); False for local chance.
        on_change: called when the game moves without a call of the screen's (the network).
    """

    names: tuple[str, ...]
    players: int
    human_seat: Seat
    fair: bool
    on_change: Callable[[], None] | None

    @property
    def view(self) -> LandnamState:
        """The person's view: all the screen may read."""

    @property
    def events(self) -> Sequence[Told]:
        """Every action so far in words, in order."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    def human_to_act(self) -> bool:
        """Whether the game waits for the person."""

    def submit(self, action: Action) -> Sequence[Told]:
        """Play the person's ``action``; its events.

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """

    def step(self) -> Sequence[Told] | None:
        """Let one bot or chance move; its events (none while only background work moves the
        game), or None when nothing here can move."""

    def close(self) -> None:
        """Finish and close the game's log, if it keeps one."""


class LocalLandnam:
    """A Landnám practice game in this process: the person at ``human_seat``, bots elsewhere,
    chance from a seeded ``random.Random`` (not fair).

    Args:
        players: 3 to 5 seats.
        names: one name per seat.
        seed: seeds the chance and the bots (None: a fresh seed).
        options: the game options (``victory_points`` for a short game).
        bot: makes each bot seat's policy from its own seeded rng.
        human_seat: the person's seat.
        chance: draws each chance outcome: ``chance(state, rng)`` (default
            :func:`~hexlan.engine.game.sample_outcome`; a test may fix a roll).

    Raises:
        EngineError: seats or options the game refuses.
    """

    fair = False
    on_change: Callable[[], None] | None = None

    def __init__(
        self,
        players: int,
        names: Sequence[str],
        seed: int | None = None,
        options: GameOptions | None = None,
        bot: PolicyFactory = RandomBot,
        human_seat: Seat = 0,
        game: str = "landnam",
        chance: Callable[[LandnamState, random.Random], Action] = sample_outcome,
    ) -> None:
        self.names = tuple(names)
        self.players = players
        self.human_seat = human_seat
        self.seed = random.randrange(2**32) if seed is None else seed
        self._state = new_game(game, players, options)
        self._views = [self._state.view(s) for s in range(players)]
        self._rng = random.Random(self.seed)
        self._bots = [bot(random.Random(self.seed * 31 + s)) for s in range(players)]
        self._events: list[OwnEvent] = []
        self._chance = chance

    def arrange(self, edit: Callable[[LandnamState], None]) -> None:
        """Apply ``edit`` to the full state and to every seat's view alike: a position set up
        by hand (tests, tutorials). ``edit`` must change only public facts, so the views stay
        the full state's."""
        for state in (self._state, *self._views):
            edit(state)

    @property
    def view(self) -> LandnamState:
        """The person's view."""
        return self._views[self.human_seat]

    @property
    def events(self) -> list[OwnEvent]:
        """Every action so far in words."""
        return self._events

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._state.is_over

    def human_to_act(self) -> bool:
        """Whether the person's decision is due."""
        return self._state.current_player() == self.human_seat

    def submit(self, action: Action) -> list[OwnEvent]:
        """Play the person's ``action``.

        Raises:
            IllegalActionError: not the person's move, or refused by the rules.
        """
        if not self.human_to_act():
            raise IllegalActionError(_("it is not your move"), "landnam §5")
        self._state.check(action)
        return [self._apply(action, self.human_seat)]

    def step(self) -> list[OwnEvent] | None:
        """One chance outcome or one bot decision; None when the person is due or it is over."""
        state = self._state
        if state.is_over:
            return None
        seat = state.current_player()
        if seat == self.human_seat:
            return None
        if seat == CHANCE_SEAT:
            return [self._apply(self._chance(state, self._rng), None)]
        return [self._apply(self._bots[seat].choose(self._views[seat], seat), seat)]

    def close(self) -> None:
        """Nothing to close: a local game keeps no log."""

    def _apply(self, action: Action, seat: Seat | None) -> OwnEvent:
        before = self.view.copy()
        seen = self._state.observation(action, self.human_seat)
        for viewer, view in enumerate(self._views):
            view.apply(self._state.observation(action, viewer))
        self._state.apply(action)
        said = OwnEvent(seat, tell(before, seen, self.view, self.names, self.human_seat), seen)
        self._events.append(said)
        return said


def session_landnam(
    table: OwnTable, *, log_dir: str | Path | None = None, save_log: bool = True
) -> OwnSessionGame[LandnamState]:
    """The person's seat (the first) at a `hexlan play` table of Landnám: every seat a session
    in this process (fair when ``table.seed`` is None), bots made by ``table.bot``, the log
    written like a Catan play log.

    Raises:
        LocalProtocolError, EngineError: seats or options the game refuses.
    """
    return OwnSessionGame(
        table.names,
        table.bot,
        tell,
        table.game,
        table.options,
        table.seed,
        log_dir=log_dir,
        save_log=save_log,
    )


def network_landnam(peer: Peer) -> OwnNetworkGame[LandnamState]:
    """The person's seat at a networked Landnám table (`hexlan host` / `hexlan join`): the
    seat's peer, its actions told by Landnám's teller."""
    return OwnNetworkGame(peer, tell)


if TYPE_CHECKING:  # every client satisfies the screen's interface
    _CLIENT: type[LandnamClient] = LocalLandnam
    _SESSION: type[LandnamClient] = OwnSessionGame[LandnamState]
    _NETWORK: type[LandnamClient] = OwnNetworkGame[LandnamState]

__all__ = [
    "NOT_FAIR",
    "LandnamClient",
    "LocalLandnam",
    "Told",
    "network_landnam",
    "session_landnam",
]
