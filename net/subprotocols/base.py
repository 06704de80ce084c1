"""What every sub-protocol of a :class:`~hexlan.net.session.Session` shares: the step it
describes, the handler it registers and the error it raises for an accusation.

A sub-protocol (beacon events, openings, dealing, turn acknowledgements, abandon votes, the
audit...) owns its messages' handlers and its state, and describes what every seat owes it now
as :class:`Step` values in the order a seat signs them. The session derives both its stall
report (:meth:`~hexlan.net.session.Session.owed_steps`, every seat) and this seat's next message
from that one description (docs/PROTOCOL.md §11).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from hexlan.engine.core import Seat
from hexlan.net.audit import JournalEntry
from hexlan.net.effects import Effect
from hexlan.net.wire import Envelope, IllegalMove

if TYPE_CHECKING:
    from hexlan.net.session import Session

Signable = tuple[str, tuple[object, ...]]
"""A message to sign: its kind and its payload (docs/PROTOCOL.md §2)."""

Build = Callable[[list[Effect]], Signable | None]
"""This seat's own step made into a message, with the effects list its work may add to; None
when it cannot be signed yet (its proof work still runs) or when the game stopped instead."""

Handler = Callable[[Envelope, list[Effect]], None]
"""What applying one message of a kind does (docs/PROTOCOL.md §4): it may add effects, and
raises a :class:`~hexlan.net.wire.RemoteProtocolError` or :class:`Contested` to refuse it."""

NO_NUMBER: Final = -1
"""A step's number where its kind needs none."""
AUTOMATIC_TIMEOUT: Final = 5.0
"""Seconds an automatic step (reveal, count, opening, acknowledgement) may take (§11)."""
BROKEN_CHAIN: Final = "broken_chain"
FALSE_HEAD: Final = "false_head"
"""The step a seat owes after a message of its that breaks its hash chain (§11): a valid
message of that number. It is reported in stalls, never named in an ``abandon``."""


@dataclass(frozen=True, slots=True)
class OwedStep:
    """A step the game waits for from one seat now (§11).

    Attributes:
        seat: the seat that owes it.
        step: one of :data:`hexlan.net.wire.OWED_STEPS` (``"reveal"``, ``"advance"``,
            ``"decision"``, ...), or :data:`BROKEN_CHAIN` or :data:`FALSE_HEAD` (the seat sent a
            message that breaks its hash chain, or that lists as another seat's message one
            that no seat here has shown, and the game waits for a valid one; not an
            ``abandon`` step).
        number: the event of a ``reveal``, the position of a ``draw_share``, the sequence
            number of the invalid message; else -1.
    """

    seat: Seat
    step: str
    number: int = -1

    def describe(self) -> str:
        """The step in words, e.g. ``"reveal 7"``, ``"decision"`` or ``"valid message 12
        (its message 12 breaks its hash chain)"``."""
        if self.step == BROKEN_CHAIN:
            return f"valid message {self.number} (its message {self.number} breaks its hash chain)"
        if self.step == FALSE_HEAD:
            return (
                f"valid message {self.number} (its message {self.number} lists another seat's "
                "message that no seat has shown)"
            )
        return self.step if self.number < 0 else f"{self.step} {self.number}"


@dataclass(frozen=True, slots=True)
class Step:
    """One step a seat owes a sub-protocol now (docs/PROTOCOL.md §11).

    Attributes:
        seat: the seat that owes it.
        kind: one of :data:`hexlan.net.wire.OWED_STEPS`, or a seat's own initiative that no
            other seat waits for (``accuse``, ``present``, ``steal_dispute``, ``spy_dispute``).
        number: the event of a ``reveal``, the position of a ``draw_share``; else -1.
        key: the obligation key (:meth:`~hexlan.net.session.Session.obligation_key`) of the
            message that takes the step: the step is owed while no message with it was
            accepted from the seat. None when only the message can tell (a drawn card's show:
            its number is the hidden card's).
        build: for a step of the session's own seat, the message that takes it; None for
            another seat's.
        awaited: whether the other seats wait for it (a stall names it, an ``abandon`` may):
            False for an initiative, and for work a seat does early for its own sake.
    """

    seat: Seat
    kind: str
    number: int = NO_NUMBER
    key: tuple[str, int] | None = None
    build: Build | None = None
    awaited: bool = True


class SubProtocol:
    """One part of the protocol run by a :class:`~hexlan.net.session.Session`: its handlers by
    message kind, its state, and generators of the steps ``seats`` owe it now (each taking a
    sequence of seats and yielding :class:`Step` values in the order a seat signs them; a step
    already taken may still be yielded: the session leaves out those it holds a message for).
    The session's schedule lists the generators in signing order.

    Args:
        session: the session it runs in, whose ordering, view and signing it uses.
    """

    def __init__(self, session: Session) -> None:
        self.session = session

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with the handler that applies one."""
        return {}


class Contested(IllegalMove):
    """A live check that failed on another seat's message where this seat cannot show the
    others why (it rests on hidden cards, or on what this seat alone saw): the seat accuses the
    message instead of stopping alone (docs/PROTOCOL.md §11.1).

    Attributes:
        entry: the engine action the message would have made, as the journal keeps it (None
            when it makes none here: a ``count`` before the last, a ``turn_ack``).
    """

    def __init__(self, reason: str, author: Seat | None, entry: JournalEntry | None) -> None:
        super().__init__(reason, author=author)
        self.entry = entry
