"""One seat's part in dealing a hidden deck with no dealer (PROTOCOL.md §13), sans-IO.

A :class:`Dealer` wraps a general :class:`~hexlan.net.deck.Deck` with what a seat needs to take
part: its own ElGamal secret and shuffle seed (derived from its per-game seed, so a restarted
peer signs the same bytes and the end-of-game audit can recompute them), the payloads it owes
(its shuffle, its proof, its decryption shares, its card reveals) and the cards dealt to it. The
session decides *when* a step is due and orders every message (§4); the dealer checks and
records each message's content and builds this seat's payloads.

Any deck of the game uses it: development cards now; progress cards, fate cards and fog tiles
are further :class:`Dealer` instances over the same :class:`~hexlan.net.deck.JointKey`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hexlan.net.deck import (
    Deck,
    DeckError,
    JointKey,
    derive_deck_secret,
)
from hexlan.net.shuffle import ShuffleCommitment, ShuffleSecret, pack_deck, respond


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The result of this seat's shuffle job: the public commitment and the secret behind it."""

    commitment: ShuffleCommitment
    secret: ShuffleSecret


class Dealer:
    """This seat's side of one deck (PROTOCOL.md §13).

    Args:
        deck: the shared deck state (every message's content goes through it).
        seat: this seat, or None for an observer (which checks everything and owns no card).
        seed: this seat's 32-byte per-game seed (its hash-chain secret), None for an observer.

    The deck's joint key must be the one the session fills from ``deck_key`` messages.
    """

    def __init__(self, deck: Deck, seat: int | None, seed: bytes | None) -> None:
        self.deck = deck
        self.seat = seat
        self.label = deck.label
        self._secret = None if seed is None else derive_deck_secret(seed)
        self._seed = seed
        self._shuffled: Shuffled | None = None
        self.own_cards: dict[int, int] = {}
        """Positions dealt to this seat -> the card's face, once opened."""
        self.shown: list[list[tuple[int, int]]] = [[] for _ in range(deck.key.players)]
        """Per seat: ``(face, position)`` of cards it revealed and has not spent on a play."""
        self.dealt_in: list[int] = []
        """The turn in which each position was dealt (a card is not played in that turn)."""
        self.revealed: set[int] = set()
        """Positions whose owner revealed them."""
        self.drawing: int | None = None
        """The position being dealt now (its shares are being collected), if any."""
        self.proved: set[int] = set()
        """Seats whose shuffle proof has been received (checked or being checked)."""

    # ------------------------------------------------------------------ this seat's payloads

    def key_payload(self) -> tuple[bytes, bytes]:
        """``deck_key [share, proof]``: this seat's key share with its proof of knowledge."""
        assert self._secret is not None and self.seat is not None
        return self.deck.key.prove(self.seat, self._secret)

    def shuffle_job(self) -> Callable[[], Shuffled]:
        """A pure job (safe in a worker thread) computing this seat's shuffle and its rounds."""
        assert self._seed is not None
        # The input deck (and with it the joint key) is read here, on the session's thread.
        deck, seed, deck_in = self.deck, self._seed, list(self.deck.current)

        def job() -> Shuffled:
            return Shuffled(*deck.shuffle(seed, deck_in))

        return job

    def take_shuffle(self, shuffled: Shuffled) -> None:
        """Keep the result of :meth:`shuffle_job` until its proof is owed."""
        self._shuffled = shuffled

    @property
    def has_shuffle(self) -> bool:
        return self._shuffled is not None

    def shuffle_payload(self) -> tuple[object, ...]:
        """``shuffle [deck, output, rounds]`` for this seat's computed shuffle."""
        assert self._shuffled is not None
        commitment = self._shuffled.commitment
        return (
            self.label,
            pack_deck(commitment.output),
            tuple(pack_deck(deck) for deck in commitment.rounds),
        )

    def proof_payload(self) -> tuple[object, ...]:
        """``shuffle_proof [deck, responses]`` answering the beacon's challenges to this seat."""
        assert self._shuffled is not None and self.seat is not None
        challenges = self.deck.challenges(self.seat)
        responses = respond(self._shuffled.secret, challenges)
        return (self.label, tuple((perm, scalars) for perm, scalars in responses))

    def share_payload(self, position: int) -> tuple[object, ...]:
        """``draw_share`` / ``card_reveal [deck, position, share, proof]`` for ``position``."""
        assert self._secret is not None and self.seat is not None
        share, proof = self.deck.own_share(position, self._secret, self.seat)
        return (self.label, position, share, proof)

    def unrevealed_own(self, face: int, turn: int) -> int | None:
        """The lowest position dealt to this seat before ``turn`` holding ``face`` and not yet
        revealed (a card to play in ``turn``)."""
        for position in sorted(self.own_cards):
            if (
                self.own_cards[position] == face
                and position not in self.revealed
                and self.dealt_in[position] < turn
            ):
                return position
        return None

    # ------------------------------------------------------------------ messages' content

    def deal(self, owner: int, turn: int) -> int:
        """The next card from the top goes to ``owner`` in ``turn``; its position is returned."""
        position = self.deck.deal(owner)
        self.dealt_in.append(turn)
        self.drawing = position
        return position

    def add_share(self, position: int, seat: int, share: bytes, proof: bytes) -> bool:
        """Check and record a decryption share for the card being dealt.

        Returns:
            True when every seat but the owner has now given its share (the deal is complete).

        Raises:
            DeckError: not the card being dealt, the owner's own share, a repeated or false
                share (attributed to ``seat``).
        """
        if position != self.drawing:
            raise DeckError(
                seat, f"seat {seat} gave a share for position {position}, not dealt now"
            )
        owner = self.deck.owner(position)
        if seat == owner:
            raise DeckError(seat, f"seat {seat} gave a share for its own card")
        self.deck.add_share(position, seat, share, proof)
        return len(self.deck.shares(position)) == self.deck.key.players - 1

    def finish_deal(self) -> tuple[int, int | None]:
        """Close the deal in progress: ``(position, face)``, the face only for its owner."""
        position = self.drawing
        assert position is not None
        self.drawing = None
        face = None
        if self.seat == self.deck.owner(position):
            assert self._secret is not None
            face = self.deck.face(self.deck.open(position, self._secret))
            self.own_cards[position] = face
        return position, face

    def reveal(self, position: int, seat: int, share: bytes, proof: bytes) -> int:
        """Check the owner's share for a card it shows; returns the card's face.

        Raises:
            DeckError: not a card dealt to ``seat``, already revealed, or a false share.
        """
        if position >= self.deck.dealt or self.deck.owner(position) != seat:
            raise DeckError(seat, f"seat {seat} revealed position {position}, not a card it drew")
        if position in self.revealed:
            raise DeckError(seat, f"seat {seat} revealed position {position} twice")
        face = self.deck.face(self.deck.reveal(position, seat, share, proof))
        self.revealed.add(position)
        self.shown[seat].append((face, position))
        return face

    def spend(self, seat: int, face: int, turn: int) -> bool:
        """Use one of ``seat``'s revealed, unspent cards of ``face`` dealt before ``turn`` for a
        play in ``turn`` (a card is never played in the turn it was bought: seed 002)."""
        shown = self.shown[seat]
        for entry in shown:
            if entry[0] == face and self.dealt_in[entry[1]] < turn:
                shown.remove(entry)
                return True
        return False

    def shown_count(self, seat: int, face: int) -> int:
        """How many revealed, unspent cards of ``face`` ``seat`` shows."""
        return sum(1 for shown, _ in self.shown[seat] if shown == face)

    def verification_job(
        self, seat: int, responses: Sequence[tuple[bytes, bytes]]
    ) -> Callable[[], str | None]:
        """A pure job checking ``seat``'s shuffle proof: None when it holds, else the reason.

        Raises:
            DeckError: the proof came twice, or before the challenges (naming ``seat``).
        """
        if seat in self.proved or not self.deck.challenged:
            raise DeckError(seat, f"seat {seat} has no shuffle proof to give now")
        self.proved.add(seat)
        check = self.deck.verification_job(seat, responses)

        def job() -> str | None:
            try:
                check()
            except DeckError as exc:
                return exc.reason
            return None

        return job


def new_dealer(
    label: str,
    faces: Sequence[int],
    key: JointKey,
    game_id: bytes,
    seat: int | None,
    seed: bytes | None,
) -> Dealer:
    """A :class:`Dealer` over a fresh :class:`~hexlan.net.deck.Deck` of ``faces``."""
    return Dealer(Deck(label, faces, key, game_id), seat, seed)


__all__ = ["Dealer", "Shuffled", "new_dealer"]
