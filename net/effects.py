"""What a :class:`~hexlan.net.session.Session` asks its shell to do, or tells it (sans-IO).

The shell carries effects out in order: persist, then send, then show; a :class:`Compute` runs
off the event loop and its result goes back through ``Session.computed``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.net.audit import AuditReport


@dataclass(frozen=True, slots=True)
class Persist:
    """Append this envelope to the log and fsync, before anything later in the list happens."""

    envelope: bytes


@dataclass(frozen=True, slots=True)
class Send:
    """Send this envelope to every other seat: one this seat signed or accepted (already
    persisted), or another seat's body relayed as the proof of a fork (PROTOCOL.md §11; it
    may come after :class:`Stopped`, whose evidence holds it)."""

    envelope: bytes


@dataclass(frozen=True, slots=True)
class Applied:
    """An engine action took effect, as this seat observes it (for the screen and the log text).

    Attributes:
        action: the action (chance outcomes included; hidden parts are None).
        author: the seat whose message carried it, or None for a chance outcome.
        message_id: the id of the message that made it happen.
    """

    action: Action
    author: Seat | None
    message_id: bytes


@dataclass(frozen=True, slots=True)
class Rejected:
    """A message was refused; nothing changed. ``envelope`` is kept as evidence.

    ``author`` is the seat proven to have signed it, or None when nothing is proven (malformed
    bytes, a signature that does not verify, another game's message).
    """

    reason: str
    envelope: bytes
    author: Seat | None = None


@dataclass(frozen=True, slots=True)
class Stopped:
    """The game stopped because a seat broke the protocol (equivocation, illegal move, ...)."""

    reason: str
    author: Seat | None
    evidence: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True)
class Abandoned:
    """Every remaining seat signed that the game ends as abandoned by ``missing`` (§11)."""

    missing: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Compute:
    """Run ``job`` away from the event loop (it is pure, thread-safe, and may take a second of
    CPU: a shuffle with its proof, a proof check, the audit), then hand its return value to
    :meth:`Session.computed` with ``key``. Only a session made with ``inline_work=False`` emits
    these; others run the job where it arises."""

    key: str
    job: Callable[[], object]


@dataclass(frozen=True, slots=True)
class Audited:
    """The end-of-game audit is complete (PROTOCOL.md §14): every seat signed its result.

    Attributes:
        report: this peer's own audit.
        disagreeing: seats whose signed result differs from ``report`` (a seat that lies about
            the audit, or a peer in error: the digests differ, the evidence is both signed
            results).
    """

    report: AuditReport
    disagreeing: tuple[Seat, ...]


Effect = Persist | Send | Applied | Rejected | Stopped | Abandoned | Compute | Audited


__all__ = [
    "Abandoned",
    "Applied",
    "Audited",
    "Compute",
    "Effect",
    "Persist",
    "Rejected",
    "Send",
    "Stopped",
]
