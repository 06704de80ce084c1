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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from hexlan.engine.actions import Action
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.game import SeatViews
from hexlan.engine.options import GameOptions
from hexlan.net.chat import TableChat
from hexlan.net.client import PlayLog, bot_rngs
from hexlan.net.effects import Applied
from hexlan.net.inproc import InProcessTable
from hexlan.net.session import Session

if TYPE_CHECKING:
    from hexlan.net.peer import Peer, PeerEvent

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


class OwnClient(Generic[V]):
    """What both clients of a game with a state of its own share: the person's seat's
    session, its view and its events in words.

    Args:
        session: the person's seat's session; names: one name per seat; tell: the teller.
    """

    on_change: Callable[[], None] | None = None
    fair = True

    def __init__(self, session: Session, names: Sequence[str], tell: Teller) -> None:
        self.session = session
        self.names = tuple(names)
        self.players = len(self.names)
        self.human_seat = session.seat
        self._narrator: OwnNarrator[V] = OwnNarrator(session, self.names, tell)

    @property
    def view(self) -> V:
        """The person's view (the fresh game's, before the start player is drawn)."""
        game = self.session.game
        assert self.session.new_game is not None
        return cast(V, game if game is not None else self.session.new_game.view(self.human_seat))

    @property
    def is_started(self) -> bool:
        """Whether the game has begun (every seat signed the opening, the start is drawn)."""
        return self.session.game is not None

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


class OwnSessionGame(OwnClient[V]):
    """`hexlan play` of a game with a state of its own: every seat a session in this process.

    Args:
        names: one name per seat (the game's seat range).
        bot: makes a bot seat's policy from its own ``random.Random`` (seeded from ``seed``).
        tell: the game's teller.
        game: the game's name (its spec has a ``state`` factory).
        options: the game options.
        seed: the seats' keys and chains and the bots follow from it (the log says "not fair");
            None: fresh keys. The proof work runs where it arises, never in background
            threads: with them, a game's set-up of public draws from a deck whose proofs were
            still in flight was once refused ("position 1 of the fate deck is public"), a
            race left for the deck's owner to find.
        human_seat: the person's seat.
        log_dir: where the log goes (default :func:`~hexlan.net.client.default_log_dir`).
        save_log: False keeps no log (tests).

    Raises:
        LocalProtocolError, EngineError: seats, options or a game the table refuses.
    """

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
        self.table = InProcessTable(names, options, seed=seed, game=game)
        super().__init__(self.table.sessions[human_seat], names, tell)
        self.seed = seed
        self.fair = seed is None
        self.bots = {s: bot(rng) for s, rng in bot_rngs(seed, self.players, human_seat).items()}
        self._log = PlayLog(self.table, human_seat, seed, log_dir) if save_log else None
        self.log_path = None if self._log is None else self._log.path
        self._seen = 0
        self.table.start()
        self._catch_up()

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

    def close(self, wait: float = 5.0) -> None:
        """Let a won game's audit finish (for at most ``wait`` seconds of background work),
        log what the person's seat has not logged yet, close the log and stop the workers.
        Closing twice is harmless."""
        deadline = time.monotonic() + wait
        while not self.session.done and self.table.working and time.monotonic() < deadline:
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


class OwnNetworkGame(OwnClient[V]):
    """The person's seat in a networked game with a state of its own (`hexlan host` / `hexlan
    join`): a :class:`~hexlan.net.peer.Peer` run on the app's event loop (``await
    game.peer.run()`` in a worker), the other seats people or `hexlan bot` processes elsewhere.

    The peer's events arrive on the loop: applied actions are told; link news, stalls and a stop
    are kept for the lobby and the status (:attr:`links`, :attr:`status`); :attr:`on_change`
    is called after each, and after every delivered message (one may make a decision due).

    Args:
        peer: the person's peer; tell: the game's teller.
    """

    def __init__(self, peer: Peer, tell: Teller) -> None:
        super().__init__(peer.session, [s.name for s in peer.opening.seats], tell)
        self.peer = peer
        self.log_path = Path(peer.log_path)
        self.links: dict[int, str] = {}
        """The last link news per seat ("link open", "closed: ..."), for the start screen."""
        self.status = ""
        """A stall or a stop, in protocol words ("waiting for seat 1 ..."), else ""."""
        self.chat = TableChat(peer.say)
        """The table chat (PROTOCOL.md §18)."""
        peer.on_event = self._on_peer_event
        deliver = peer.deliver

        def deliver_and_tell(envelope_bytes: bytes, from_seat: int) -> None:
            deliver(envelope_bytes, from_seat)
            self._changed()

        peer.deliver = deliver_and_tell  # type: ignore[method-assign]

    def human_to_act(self) -> bool:
        """Whether the game waits for the person (never once the peer has stopped)."""
        return not self.peer.is_over and self.session.decision_due()

    def submit(self, action: Action) -> list[OwnEvent]:
        """Sign, log and send the person's ``action``; the events it applied here at once.

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """
        if self.is_over:
            raise IllegalActionError("the game is over")
        before = len(self.events)
        self.peer.submit(action)
        return self.events[before:]

    def step(self) -> list[OwnEvent] | None:
        """None: every other seat moves elsewhere; news comes through :attr:`on_change`."""
        return None

    def close(self) -> None:
        """Nothing to close here: the peer keeps its own log."""

    def _on_peer_event(self, event: PeerEvent) -> None:
        if self.chat.hear(event.kind, event.text, event.author):
            self._changed()
            return
        if event.kind == "applied" and event.action is not None and not event.replayed:
            self._narrator.narrate(event.action, event.author)
            self.status = ""
        elif event.kind == "link" and event.author is not None:
            self.links[event.author] = event.text.split(": ", 1)[-1]
        elif event.kind == "stall":  # no author: the game moves on again
            self.status = "" if event.author is None else event.text
        elif event.kind in ("stopped", "abandoned"):
            self.status = event.text
        self._changed()

    def _changed(self) -> None:
        callback = self.on_change
        if callback is not None:
            callback()


__all__ = [
    "OwnClient",
    "OwnEvent",
    "OwnNarrator",
    "OwnNetworkGame",
    "OwnPolicy",
    "OwnSessionGame",
    "Teller",
]
