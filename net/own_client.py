"""The client of a game with a state of its own (a spec with a ``state`` factory), played over
seat sessions: what its screen talks to instead of the Catan :class:`~hexlan.net.client.
GameClient`, whose view is an :class:`~hexlan.engine.info.InformationState`.

:class:`OwnSessionGame` is `hexlan play` of such a game: every seat's
:class:`~hexlan.net.session.Session` on an :class:`~hexlan.net.inproc.InProcessTable`, the person
at one seat and the game's own bots at the others; its chance comes from the beacon and its
decks are dealt by mental poker, as over the network (fair when unseeded). The person's seat
reads :attr:`Session.game <hexlan.net.session.Session.game>`, the seat's view; every action the
seat applied is told in words by the game's teller (``tell(before, action, after, names,
seat)``, the views just before and after).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, cast

from hexlan.engine.actions import Action
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.game import SeatViews
from hexlan.engine.options import GameOptions
from hexlan.net.client import PlayLog
from hexlan.net.effects import Applied
from hexlan.net.inproc import InProcessTable
from hexlan.net.session import Session

V = TypeVar("V", bound=SeatViews)


class Teller(Protocol):
    """A game's words for one action: ``tell(before, action, after, names, viewer)``, the
    viewer's views just before and just after it ("" for an action that says nothing)."""

    def __call__(
        self, before: Any, action: Action, after: Any, names: Sequence[str], viewer: Seat, /
    ) -> str:
        """The action in words."""


class OwnPolicy(Protocol):
    """A bot of the game: one of the seat's legal actions, read from its view alone."""

    def choose(self, view: Any, seat: Seat) -> Action:
        """One of ``view.legal_actions(seat)``."""


@dataclass(frozen=True, slots=True)
class OwnEvent:
    """One action in words, as the person's seat saw it.

    Attributes:
        seat: the seat that acted (None for chance outcomes).
        text: the words ("" for an action that says nothing by itself).
        action: the action as the seat observed it.
    """

    seat: Seat | None
    text: str
    action: Action


class OwnNarrator(Generic[V]):
    """Tells the actions a seat's session applied, in order, from a shadow of its view.

    Args:
        session: the seat's session (of a game with a state of its own).
        names: one name per seat.
        tell: the game's teller.
    """

    def __init__(self, session: Session, names: Sequence[str], tell: Teller) -> None:
        assert session.new_game is not None, "a game with a state of its own"
        self._shadow = cast(V, session.new_game.view(session.seat))
        self._names = tuple(names)
        self._seat = session.seat
        self._tell = tell
        self.events: list[OwnEvent] = []

    def narrate(self, action: Action, author: Seat | None) -> OwnEvent:
        """Tell ``action`` (applied by the seat's view, carried by ``author``'s message)."""
        before = self._shadow.copy()
        self._shadow.apply(action)
        text = self._tell(before, action, self._shadow, self._names, self._seat)
        event = OwnEvent(author, text, action)
        self.events.append(event)
        return event


class OwnSessionGame(Generic[V]):
    """`hexlan play` of a game with a state of its own: every seat a session in this process.

    Args:
        names: one name per seat (the game's seat range).
        bot: makes a bot seat's policy from its own ``random.Random`` (seeded from ``seed``).
        tell: the game's teller.
        game: the game's name (its spec has a ``state`` factory).
        options: the game options.
        seed: the seats' keys and chains and the bots follow from it (the log says "not fair");
            None: fresh keys, the proof work in background threads.
        human_seat: the person's seat.
        log_dir: where the log goes (default :func:`~hexlan.net.client.default_log_dir`).
        save_log: False keeps no log (tests).

    Raises:
        LocalProtocolError, EngineError: seats, options or a game the table refuses.
    """

    on_change: Callable[[], None] | None = None

    def __init__(
        self,
        names: Sequence[str],
        bot: Callable[[random.Random], OwnPolicy],
        tell: Teller,
        game: str,
        options: GameOptions | None = None,
        seed: int | None = None,
        human_seat: Seat = 0,
        *,
        log_dir: str | Path | None = None,
        save_log: bool = True,
    ) -> None:
        self.names = tuple(names)
        self.players = len(self.names)
        self.human_seat = human_seat
        self.seed = seed
        self.fair = seed is None
        self.table = InProcessTable(
            self.names, options, seed=seed, background=seed is None, game=game
        )
        self.session = self.table.sessions[human_seat]
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.bots = {
            s: bot(random.Random(seed * 31 + s if seed is not None else rng.getrandbits(64)))
            for s in range(self.players)
            if s != human_seat
        }
        self._log = PlayLog(self.table, human_seat, seed, log_dir) if save_log else None
        self.log_path = None if self._log is None else self._log.path
        self._narrator: OwnNarrator[V] = OwnNarrator(self.session, self.names, tell)
        self._seen = 0
        self.table.start()
        self._catch_up()

    @property
    def view(self) -> V:
        """The person's view (the fresh game's, before the start player is drawn)."""
        game = self.session.game
        assert self.session.new_game is not None
        return cast(V, game if game is not None else self.session.new_game.view(self.human_seat))

    @property
    def events(self) -> list[OwnEvent]:
        """Every action the person's seat applied, in words, in order."""
        return self._narrator.events

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (won, stopped or abandoned)."""
        return self.session.is_over

    def human_to_act(self) -> bool:
        """Whether the game waits for the person's decision."""
        return self.session.decision_due()

    def submit(self, action: Action) -> list[OwnEvent]:
        """Play the person's ``action``; the events up to the next decision anyone owes.

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """
        if self.is_over:
            raise IllegalActionError("the game is over")
        self.table.submit(self.human_seat, action)
        return self._catch_up()

    def step(self) -> list[OwnEvent] | None:
        """Let the lowest bot seat whose decision is due make it; the events that followed
        (none while background proof work is all that moves the game), or None when nothing
        here can move (the person is due, or the game is done).

        Raises:
            IllegalActionError: a bot chose an illegal action (a bug; the game is unchanged).
        """
        self.table.poll()
        if not self.is_over:
            for seat, bot in self.bots.items():
                session = self.table.sessions[seat]
                if session.decision_due():
                    self.table.submit(seat, bot.choose(session.game, seat))
                    return self._catch_up()
        if self.table.working and not self.human_to_act():
            return self._catch_up()
        if len(self.table.effects[self.human_seat]) > self._seen:
            return self._catch_up()
        return None

    @property
    def done(self) -> bool:
        """Whether the person's session has nothing left to do (the audit done with the game)."""
        return self.session.done

    def audit_words(self) -> str:
        """The end-of-game audit in words (PROTOCOL.md §14); empty before it is done."""
        audited = self.session.audited
        if audited is None:
            return ""
        found = audited.report.deviations
        text = (
            "Audit FOUND: " + "; ".join(d.reason for d in found)
            if found
            else "Audit passed: every shuffle, decryption share and card checks out"
        )
        if audited.disagreeing:
            return f"{text} ({', '.join(self.names[s] for s in audited.disagreeing)} disagree)"
        return f"{text}; signed by every seat"

    def close(self, wait: float = 5.0) -> None:
        """Let a won game's audit finish (for at most ``wait`` seconds of background work),
        log what the person's seat has not logged yet, close the log and stop the workers.
        Closing twice is harmless."""
        for _ in range(int(wait / 0.05)):
            if self.session.done or not self.table.working:
                break
            self.table.poll(block=True)
        self._catch_up()
        self.table.close()
        if self._log is not None:
            self._log.log.close()

    def _catch_up(self) -> list[OwnEvent]:
        """Tell what the person's seat applied since the last call, and log its messages."""
        effects = self.table.effects[self.human_seat]
        new = effects[self._seen :]
        self._seen = len(effects)
        found = [self._narrator.narrate(e.action, e.author) for e in new if isinstance(e, Applied)]
        if self._log is not None:
            self._log.catch_up(self.audit_words)
        return found


__all__ = ["OwnEvent", "OwnNarrator", "OwnPolicy", "OwnSessionGame", "Teller"]
