"""One seat's part in dealing a hidden deck with no dealer (PROTOCOL.md §13), sans-IO.

A :class:`Dealer` wraps a general :class:`~hexlan.net.deck.Deck` with what a seat needs to take
part: its own ElGamal secret and shuffle seed (derived from its per-game seed, so a restarted
peer signs the same bytes and the end-of-game audit can recompute them), the payloads it owes
(its shuffle, its proof, its decryption shares, its card shows) and the cards dealt to it. The
session decides *when* a step is due and orders every message (§4); the dealer checks and
records each message's content and builds this seat's payloads.

Any deck of the game uses it: development cards, Seafarers' fog tiles and their number tokens;
each deck is its own :class:`Dealer` over the one :class:`~hexlan.net.deck.JointKey`. A fog tile
is dealt *public*: every seat gives its share and every peer opens it (§13.7). A card can
change holder (the Cities & Knights Spy, §7.3): its holder re-encrypts every card it holds to
another seat (:meth:`Dealer.reencryption_items`), every peer checks them
(:meth:`Dealer.check_items`), and the one taken moves (:meth:`Dealer.accept_transfer`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hexlan.net.deck import (
    Deck,
    DeckError,
    JointKey,
    derive_deck_secret,
    derive_reencryption_scalar,
)
from hexlan.net.shuffle import (
    ShuffleCommitment,
    ShuffleDraw,
    ShuffleSecret,
    apply_shuffle,
    pack_deck,
)


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The result of this seat's shuffle job: the public commitment and the secret behind it."""

    commitment: ShuffleCommitment
    secret: ShuffleSecret


@dataclass(frozen=True, slots=True)
class MovedItem:
    """A holder's card re-encrypted to another seat, as on the wire (PROTOCOL.md §7.3).

    Attributes:
        position: the card's position in its deck.
        moved: ``A' || B'``, 64 bytes.
        proof: the re-encryption proof, 96 bytes.
    """

    position: int
    moved: bytes
    proof: bytes


@dataclass(frozen=True, slots=True)
class ShownCard:
    """A card a seat showed (PROTOCOL.md §13.8).

    Attributes:
        face: its face.
        index: its card index (each card is shown at most once).
        dealt_by: the latest turn in which one of the positions listed with it was dealt: the
            card was dealt in that turn or earlier.
    """

    face: int
    index: int
    dealt_by: int


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
        self._drawn: ShuffleDraw | None = None
        self._shuffled: Shuffled | None = None
        self.own_cards: dict[int, int] = {}
        """Positions this seat holds -> the card's face, once opened."""
        self.own_index: dict[int, int] = {}
        """Positions this seat holds -> the card's index, once opened."""
        self.shown: list[list[ShownCard]] = [[] for _ in range(deck.key.players)]
        """Per seat: the cards it showed and has not spent on a play."""
        self.dealt_in: list[int] = []
        """The turn in which each position was dealt, or last changed holder (a card is not
        played in that turn)."""
        self.drawing: int | None = None
        """The position being dealt now (its shares are being collected), if any."""
        self.proved: set[int] = set()
        """Seats whose shuffle proof has been received (checked or being checked)."""

    # ------------------------------------------------------------------ this seat's payloads

    def key_payload(self) -> tuple[bytes, bytes]:
        """``deck_key [share, proof]``: this seat's key share with its proof of knowledge."""
        assert self._secret is not None and self.seat is not None
        return self.deck.key.prove(self.seat, self._secret)

    def draw_job(self) -> Callable[[], ShuffleDraw]:
        """A pure job (safe in a worker thread) drawing this seat's shuffle and computing its
        re-encryption masks, the expensive part of the shuffle, before its input deck exists
        (:meth:`~hexlan.net.deck.Deck.draw_shuffle`); the joint key must be complete."""
        assert self._seed is not None
        deck, seed = self.deck, self._seed
        deck.key.joint  # noqa: B018 (computed and kept here, on the session's thread)
        return lambda: deck.draw_shuffle(seed)

    def take_draw(self, drawn: ShuffleDraw) -> None:
        """Keep the result of :meth:`draw_job` until this seat's turn to shuffle."""
        self._drawn = drawn

    @property
    def has_draw(self) -> bool:
        return self._drawn is not None

    def shuffle_job(self) -> Callable[[], Shuffled]:
        """A pure job (safe in a worker thread) computing this seat's shuffle:
        two point additions per card from :meth:`draw_job`'s masks if taken, else the whole
        shuffle (:meth:`~hexlan.net.deck.Deck.shuffle`); the same bytes either way."""
        assert self._seed is not None and self.seat is not None
        # The input deck (and with it the joint key) is read here, on the session's thread: the
        # current deck, or after a restart the one this seat shuffled (its proof needs it).
        deck, seed, drawn, seat = self.deck, self._seed, self._drawn, self.seat
        redo = deck.next_shuffler is None or deck.next_shuffler > seat
        deck_in = list(deck.shuffle_input(seat) if redo else deck.current)

        def job() -> Shuffled:
            if drawn is not None:
                return Shuffled(*apply_shuffle(deck_in, drawn))
            return Shuffled(*deck.shuffle(seed, deck_in))

        return job

    def take_shuffle(self, shuffled: Shuffled) -> None:
        """Keep the result of :meth:`shuffle_job` until its proof is owed (its draw, if any, is
        no longer needed)."""
        self._shuffled = shuffled
        self._drawn = None

    @property
    def has_shuffle(self) -> bool:
        return self._shuffled is not None

    def shuffle_payload(self) -> tuple[object, ...]:
        """``shuffle [deck, output]`` for this seat's computed shuffle."""
        assert self._shuffled is not None
        return (self.label, pack_deck(self._shuffled.commitment.output))

    def proof_payload(self) -> tuple[object, ...]:
        """``shuffle_proof [deck, permutation, chain, challenge, responses]``: this seat's proof
        of its shuffle (:meth:`~hexlan.net.deck.Deck.prove`) once the challenge event's output is
        set, in wire form.

        perf: made here, on the session's thread (about 5n scalar multiplications, 15 to 25 ms
        for 34 cards, in a few threads): the proof is owed at once, and a worker job could wait
        behind the proof checks queued before it.
        """
        assert self._shuffled is not None and self.seat is not None
        proof = self.deck.prove(self.seat, self._shuffled.commitment, self._shuffled.secret)
        return (self.label, *proof.pack())

    def owes_share(self, seat: int, position: int) -> bool:
        """Whether ``seat`` gives a share of ``position``: every seat but its owner, and the
        owner too for a public card."""
        return seat != self.deck.owner(position) or self.deck.is_public(position)

    def share_payload(self, position: int) -> tuple[object, ...]:
        """``draw_share [deck, position, share, proof]`` for ``position``."""
        assert self._secret is not None and self.seat is not None
        share, proof = self.deck.own_share(position, self._secret, self.seat)
        return (self.label, position, share, proof)

    def eligible(self, seat: int, before: int | None = None) -> tuple[int, ...]:
        """The positions ``seat`` holds (dealt to it, their deals complete, or transferred to
        it), only those dealt (transferred) in a turn before ``before`` if given, ascending:
        public information only, so the set a seat lists to show a card tells nothing of where
        the card is (§13.8)."""
        return tuple(
            p
            for p in range(self.deck.dealt)
            if self.deck.owner(p) == seat
            and p != self.drawing
            and (before is None or self.dealt_in[p] < before)
        )

    def unshown_own(self, face: int, turn: int) -> int | None:
        """The position of a card of ``face`` dealt to this seat before ``turn`` and not shown
        yet (a card to play in ``turn``): the lowest such, None if there is none."""
        for position in sorted(self.own_cards):
            if (
                self.own_cards[position] == face
                and self.deck.shown_by(self.own_index[position]) is None
                and self.dealt_in[position] < turn
            ):
                return position
        return None

    def show_payload(self, position: int, before: int | None) -> tuple[object, ...]:
        """``card_reveal [deck, card, positions, proof]`` showing this seat's card at
        ``position`` among every position dealt to it (before turn ``before``, if given), with
        the proof that it is one of them (:meth:`~hexlan.net.deck.Deck.prove_show`).

        Raises:
            DeckError: ``position`` is not among the listed ones, or is not this seat's.
        """
        assert self._secret is not None and self.seat is not None
        index = self.own_index[position]
        positions = self.eligible(self.seat, before)
        if position not in positions:
            raise DeckError(None, f"position {position} is not among {list(positions)}")
        proof = self.deck.prove_show(index, positions, self._secret, self.seat)
        return (self.label, index, positions, tuple(proof))

    # ------------------------------------------------------------------ messages' content

    def deal(self, owner: int, turn: int, public: bool = False) -> int:
        """The next card from the top goes to ``owner`` in ``turn`` (face up to every seat if
        ``public``); its position is returned."""
        position = self.deck.deal(owner, public)
        self.dealt_in.append(turn)
        self.drawing = position
        return position

    def add_share(self, position: int, seat: int, share: bytes, proof: bytes) -> bool:
        """Check and record a decryption share for the card being dealt.

        Returns:
            True when every seat but the owner (every seat, for a public card) has now given
            its share: the deal is complete.

        Raises:
            DeckError: not the card being dealt, the owner's own share of a private card, a
                repeated or false share (attributed to ``seat``).
        """
        if position != self.drawing:
            raise DeckError(
                seat, f"seat {seat} gave a share for position {position}, not dealt now"
            )
        public = self.deck.is_public(position)
        if seat == self.deck.owner(position) and not public:
            raise DeckError(seat, f"seat {seat} gave a share for its own card")
        self.deck.add_share(position, seat, share, proof)
        needed = self.deck.key.players - (0 if public else 1)
        return len(self.deck.shares(position)) == needed

    def finish_deal(self) -> tuple[int, int | None]:
        """Close the deal in progress: ``(position, face)``, the face only for its owner (for
        every seat and observer, for a public card)."""
        position = self.drawing
        assert position is not None
        self.drawing = None
        face = None
        if self.deck.is_public(position):
            face = self.deck.face(self.deck.open_public(position))
        elif self.seat == self.deck.owner(position):
            assert self._secret is not None
            index = self.deck.open(position, self._secret)
            face = self.deck.face(index)
            self.own_cards[position] = face
            self.own_index[position] = index
        return position, face

    def show(self, seat: int, index: int, positions: Sequence[int], proof: Sequence[bytes]) -> int:
        """Check ``seat``'s show of card ``index`` at one of ``positions``; returns its face.

        Records the card as shown by ``seat``, with the latest turn in which a listed position
        was dealt: an upper bound of the turn the card was dealt in.

        Raises:
            DeckError: (naming ``seat``) see :meth:`~hexlan.net.deck.Deck.show`.
        """
        face = self.deck.show(seat, index, positions, proof)
        bound = max(self.dealt_in[p] for p in positions)
        self.shown[seat].append(ShownCard(face, index, bound))
        return face

    def spend(self, seat: int, face: int, turn: int) -> bool:
        """Use one of ``seat``'s shown, unspent cards of ``face`` dealt before ``turn`` for a
        play in ``turn`` (a card is never played in the turn it was bought: seed 002)."""
        shown = self.shown[seat]
        for entry in shown:
            if entry.face == face and entry.dealt_by < turn:
                shown.remove(entry)
                return True
        return False

    def shown_count(self, seat: int, face: int, before: int | None = None) -> int:
        """How many shown, unspent cards of ``face`` ``seat`` shows (only those dealt before
        turn ``before``, if given)."""
        return sum(
            1
            for entry in self.shown[seat]
            if entry.face == face and (before is None or entry.dealt_by < before)
        )

    # ------------------------------------------------------------------ moving cards (§7.3)

    def reencryption_items(self, to: int, context: bytes) -> tuple[MovedItem, ...]:
        """Every card this seat holds (:meth:`eligible`, ascending) re-encrypted to seat ``to``
        (:meth:`~hexlan.net.deck.Deck.reencrypt_to`), each ``r`` derived from this seat's seed
        and the transfer's context (:func:`~hexlan.net.deck.derive_reencryption_scalar`), so
        a restart and the audit make the same bytes.

        Args:
            to: the seat the cards are opened to.
            context: the caller's binding (the Spy's number).

        Raises:
            DeckError: (seat ``None``) a share of a held card is missing.
        """
        assert self._secret is not None and self._seed is not None and self.seat is not None
        items = []
        for position in self.eligible(self.seat):
            full = self.deck.transfer_context(self.seat, to, position, context)
            r = derive_reencryption_scalar(self._seed, full)
            moved, proof = self.deck.reencrypt_to(position, self._secret, self.seat, to, r, context)
            items.append(MovedItem(position, moved, proof))
        return tuple(items)

    def check_items(self, seat: int, to: int, items: Sequence[MovedItem], context: bytes) -> None:
        """Check ``seat``'s re-encryptions of its cards to ``to``: exactly the positions it
        holds (:meth:`eligible`), ascending, each one's proof
        (:meth:`~hexlan.net.deck.Deck.check_transfer`).

        Raises:
            DeckError: (naming ``seat``) another list of positions, or a false re-encryption.
        """
        positions = tuple(item.position for item in items)
        held = self.eligible(seat)
        if positions != held:
            raise DeckError(
                seat,
                f"seat {seat} listed positions {list(positions)} of the {self.label} deck, "
                f"not the ones it holds {list(held)}",
            )
        for item in items:
            self.deck.check_transfer(item.position, seat, to, item.moved, item.proof, context)

    def read_items(self, items: Sequence[MovedItem]) -> tuple[int, ...]:
        """The card index of each item re-encrypted to this seat (checked by
        :meth:`check_items`).

        Raises:
            DeckError: see :meth:`~hexlan.net.deck.Deck.open_moved`.
        """
        assert self._secret is not None and self.seat is not None
        return tuple(self.deck.open_moved(i.moved, self._secret, self.seat) for i in items)

    def accept_transfer(
        self, seat: int, to: int, item: MovedItem, context: bytes, turn: int
    ) -> None:
        """Move ``item``'s position from ``seat`` to ``to`` in ``turn`` (checked again,
        :meth:`~hexlan.net.deck.Deck.accept_transfer`): it counts as dealt in ``turn``; the new
        holder opens it, the old one forgets it.

        Raises:
            DeckError: (naming ``seat``) see :meth:`~hexlan.net.deck.Deck.check_transfer`.
        """
        position = item.position
        self.deck.accept_transfer(position, seat, to, item.moved, item.proof, context)
        self.dealt_in[position] = turn
        self.own_cards.pop(position, None)
        self.own_index.pop(position, None)
        if self.seat == to:
            assert self._secret is not None
            index = self.deck.open(position, self._secret)
            self.own_cards[position] = self.deck.face(index)
            self.own_index[position] = index

    def holder_share_payload(self, position: int, at: int | None = None) -> tuple[bytes, bytes]:
        """This seat's share opening its card at ``position`` (as it held it after its first
        ``at`` moves; default: now) to every peer, with its proof
        (:meth:`~hexlan.net.deck.Deck.holder_share`)."""
        assert self._secret is not None and self.seat is not None
        return self.deck.holder_share(position, self._secret, self.seat, at)

    def verification_job(self, seat: int, proof: Sequence[object]) -> Callable[[], str | None]:
        """A pure job checking ``seat``'s shuffle proof: None when it holds, else the reason.

        Raises:
            DeckError: the proof came twice, or before the challenges (naming ``seat``).
        """
        if seat in self.proved or not self.deck.challenged:
            raise DeckError(seat, f"seat {seat} has no shuffle proof to give now")
        self.proved.add(seat)
        check = self.deck.verification_job(seat, proof)

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


__all__ = ["Dealer", "MovedItem", "ShownCard", "Shuffled", "new_dealer"]
