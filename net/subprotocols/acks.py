"""Turn acknowledgements (docs/PROTOCOL.md §11) as a sub-protocol: when a turn ends every seat
signs the public state's hash with the turn's trail (a short hash after each of its messages), so
that a divergence is found at the turn's end and named where it began."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from hexlan.engine.core import Phase, Seat
from hexlan.engine.game import TableGame
from hexlan.net.effects import Effect
from hexlan.net.subprotocols.base import Contested, Handler, Step, SubProtocol
from hexlan.net.wire import Envelope, OutOfTurn

if TYPE_CHECKING:
    from hexlan.net.session import Session

TRAIL_BYTES: Final = 8
"""The bytes of the public state's hash kept after each message in a turn's trail."""


class TurnAcks(SubProtocol):
    """The ``turn_ack`` messages, and the trail of the turn they acknowledge."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.acks: dict[Seat, bytes] = {}
        """The acknowledgements of the last turn in so far: seat -> the hash it signed."""
        self.turn_end_hash = b""
        """The public state's hash when the last turn ended (empty: none to acknowledge)."""
        self.ended_turn = 0
        """The turn the last EndTurn ended (its acknowledgements' number)."""
        self.journal_at_end = 0
        """The journal's length when the last turn ended (§11.1)."""
        self.turn_closed = False
        self.state_changed = False
        """Whether the engine applied something since the last trail entry."""
        self.last_prefix: bytes | None = None
        self.trail: list[tuple[Envelope, bytes]] = []
        """The current turn's messages, each with the public state's hash prefix after it."""
        self.closed_trail: list[tuple[Envelope, bytes]] = []
        """The last ended turn's trail."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {"turn_ack": self.on_turn_ack}

    def record_trail(self, env: Envelope, view: TableGame) -> None:
        """Note the public state after ``env`` in the turn's trail, for naming where a
        divergence began (§11); the turn's trail closes with its EndTurn.
        perf: the public state changes only through the engine; otherwise the last hash still
        holds (most messages are reveals, advances and acknowledgements)."""
        if self.state_changed or self.last_prefix is None:
            self.state_changed = False
            self.last_prefix = bytes.fromhex(view.public_hash())[:TRAIL_BYTES]
        self.trail.append((env, self.last_prefix))
        if self.turn_closed:
            self.turn_closed = False
            self.closed_trail, self.trail = self.trail, []

    def turn_ended(self, turn: int, view: TableGame) -> None:
        """Turn ``turn`` ended: every seat acknowledges it, numbered as it was played (§11). A
        turn end this seat knows to be a victory (its own hidden points) is not acknowledged:
        the reveal that follows ends the game."""
        self.acks = {}
        self.ended_turn = turn
        won = view.phase is Phase.VICTORY
        self.turn_end_hash = b"" if won else bytes.fromhex(view.public_hash())
        self.turn_closed = not won
        self.journal_at_end = len(self.session.journal)

    def on_turn_ack(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's acknowledgement of the turn that ended (§11): its hash must be this seat's,
        else the divergence is accused, naming where the trails part."""
        view = self.session.require_game(env)
        author = env.body.author
        turn, digest, trail = env.body.payload
        if self.session.won() or view.phase is Phase.VICTORY:
            return  # a turn end that was a victory: moot
        if turn != self.ended_turn or author in self.acks or not self.turn_end_hash:
            raise OutOfTurn(f"seat {author} acknowledged turn {turn} out of place", author=author)
        if digest != self.turn_end_hash:
            mine = [prefix for _, prefix in self.closed_trail]
            first = next(
                (i for i, (a, b) in enumerate(zip(mine, trail, strict=False)) if a != b),
                min(len(mine), len(trail)),
            )
            where = "after the turn's last message"
            if first < len(self.closed_trail):
                began = self.closed_trail[first][0].body
                where = f"at seat {began.author}'s message #{began.seq} ({began.kind})"
            # Either side may be the one in error: the audit names it (§11, §11.1).
            raise Contested(
                f"divergence: seat {author}'s public state after turn {turn} differs from this "
                f"seat's; it began {where}",
                None,
                None,
            )
        self.acks[author] = digest

    def ack_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """Each seat's acknowledgement of the turn that ended (§11), with the public state's
        hash and the turn's trail."""
        if not self.turn_end_hash or self.ended_turn < 1:
            return
        key = ("turn_ack", self.ended_turn)
        payload = (
            self.ended_turn,
            self.turn_end_hash,
            tuple(prefix for _, prefix in self.closed_trail),
        )
        for s in seats:
            yield Step(
                s, "turn_ack", key=key, build=self.session.own(s, lambda _: ("turn_ack", payload))
            )

    def missing(self) -> list[Seat]:
        """The seats whose acknowledgement of the last turn is not applied yet (none when no
        turn awaits one)."""
        if not self.turn_end_hash:
            return []
        return [s for s in range(self.session.players) if s not in self.acks]
