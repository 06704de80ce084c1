"""The random beacon's events (docs/PROTOCOL.md §6) as a sub-protocol: every chance event the
game opens (the start, the dice, a steal's card, a deck's challenge) waits for each seat's next
hash-chain preimage; the last reveal resolves it from the beacon's output."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexlan.engine.core import Seat
from hexlan.net.beacon import CHAIN_LENGTH, BeaconStream, beacon_output, verify_preimage
from hexlan.net.effects import Effect
from hexlan.net.subprotocols.base import Handler, Signable, Step, SubProtocol
from hexlan.net.wire import Envelope, IllegalMove, OutOfTurn, RemoteProtocolError

if TYPE_CHECKING:
    from hexlan.net.session import Session


@dataclass(slots=True)
class BeaconEvent:
    """An open chance event of the beacon (docs/PROTOCOL.md §6): its number, the message that
    opened it, what it is for, the reveals in so far, and a challenge's deck."""

    number: int
    trigger_id: bytes
    purpose: str  # "start", "dice", "steal", "challenge"
    reveals: dict[Seat, bytes] = field(default_factory=dict)
    deck: str = ""  # a challenge's deck, by name


class BeaconEvents(SubProtocol):
    """The ``reveal`` messages and the open events they answer."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.chain_heads = [s.chain_commitment for s in session.opening.seats]
        """Each seat's last revealed chain value (its commitment before any)."""
        self.chain_events = [0] * session.players
        """Each seat's last event revealed for."""
        self.events: dict[int, BeaconEvent] = {}
        """The open events by number."""
        self.next_event = 1
        """The number the next event opened takes."""

    def handlers(self) -> Mapping[str, Handler]:
        """Its message kinds, each with its handler."""
        return {"reveal": self.on_reveal}

    def open_event(self, purpose: str, trigger_id: bytes, deck: str = "") -> None:
        """Open the next chance event: ``purpose`` (``"start"``, ``"dice"``, ``"steal"``,
        ``"challenge"``...), opened by the message ``trigger_id``; a challenge names its deck.

        Raises:
            RemoteProtocolError: every seat's hash chain is spent (blaming no seat).
        """
        number = self.next_event
        if number > CHAIN_LENGTH:  # every seat's chain is spent: end here, blaming no seat
            raise RemoteProtocolError(
                f"the game has used all {CHAIN_LENGTH} chance events its hash chains commit to"
            )
        self.next_event += 1
        self.events[number] = BeaconEvent(number, trigger_id, purpose, deck=deck)

    def on_reveal(self, env: Envelope, effects: list[Effect]) -> None:
        """A seat's preimage for an open event; the last one resolves it (§6)."""
        author = env.body.author
        number, preimage = env.body.payload
        event = self.events.get(number)
        if event is None or author in event.reveals:
            raise OutOfTurn(f"seat {author} revealed for no open event {number}", author=author)
        if self.chain_events[author] + 1 != number or not verify_preimage(
            preimage, self.chain_heads[author]
        ):
            raise IllegalMove(
                f"seat {author}'s reveal for event {number} does not hash to its chain",
                author=author,
            )
        self.chain_heads[author] = preimage
        self.chain_events[author] = number
        event.reveals[author] = preimage
        if len(event.reveals) == self.session.players:
            del self.events[number]
            preimages = [event.reveals[s] for s in range(self.session.players)]
            stream = BeaconStream(
                beacon_output(self.session.game_id, number, event.trigger_id, preimages)
            )
            self.session.resolve(event, stream, env.id, effects)

    def reveal_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """Each seat's hash-chain reveal for every open beacon event (§6), oldest first; still
        signed once frozen, though nobody waits for it then."""
        frozen = self.session.frozen()
        for number in sorted(self.events):
            event = self.events[number]
            for s in seats:
                if s not in event.reveals:
                    build = self.session.own(s, functools.partial(self._reveal_message, number))
                    key = ("reveal", number)
                    yield Step(s, "reveal", number, key, build, awaited=not frozen)

    def _reveal_message(self, number: int, effects: list[Effect]) -> Signable:
        """This seat's reveal for beacon event ``number``: its hash chain's preimage (§6)."""
        return "reveal", (number, self.session.chain.preimage(number))
