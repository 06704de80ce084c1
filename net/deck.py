"""A mental-poker deck any game can reuse: joint key, shuffles, dealing, opening (PROTOCOL.md §13).

Sans-IO state holders, no knowledge of sessions or messages: the caller feeds in what peers
published and gets back what to publish and what a card is.

1. Key: each seat publishes ``Y_i = G·x_i`` with a Schnorr proof (:class:`JointKey`); the joint
   key is ``Y = Σ Y_i``.
2. Shuffle: the public :attr:`Deck.initial` deck encrypts card ``i`` as ``card_point(label, i)``;
   seats 0, 1, ... each shuffle the current deck (:meth:`Deck.shuffle`, :meth:`Deck.add_shuffle`).
3. Proof: once every seat has shuffled, the beacon's challenge event gives its output
   (:meth:`Deck.set_challenges`), which every proof's context binds (:meth:`Deck.proof_context`);
   each seat proves its own shuffle (:meth:`Deck.prove`, a Terelius–Wikström proof) and every
   peer verifies (:meth:`Deck.check_proof`, or :meth:`Deck.verification_job` in a worker thread
   then :meth:`Deck.mark_verified`).
4. Deal from the top (:meth:`Deck.deal`): every seat but the owner publishes its decryption share
   with a DLEQ proof (:meth:`Deck.own_share`, :meth:`Deck.add_share`); the owner alone can
   :meth:`Deck.open` the card. Showing it proves that the card is at one of a listed set of the
   owner's positions, not which (:meth:`Deck.prove_show`, :meth:`Deck.show`).
5. Transfer: the holder of a dealt card re-encrypts it to another seat with a proof
   (:meth:`Deck.reencrypt_to`, :meth:`Deck.check_transfer`); once accepted
   (:meth:`Deck.accept_transfer`) the position belongs to that seat, which opens and shows it as
   its own. Every use of a holder's view goes through :meth:`Deck.reduced`. A holder can also
   open its card to everyone (:meth:`Deck.holder_share`, :meth:`Deck.open_by_share`).
6. Audit: with every seat's secret, :meth:`Deck.open_all` gives the whole final deck (a transfer
   changes no card of it).

A card is known by its *index* ``i`` (its point is ``card_point(label, i)``); :meth:`Deck.face`
maps it to its face, e.g. a development card type.

Errors name the seat whose data failed (:attr:`DeckError.seat`), or ``None`` when the call itself
is out of turn (the caller's mistake, not a peer's).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Final

from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from hexlan.engine.core import MAX_SEATS
from hexlan.net.group import (
    POINT_BYTES,
    WIDE_BYTES,
    GroupError,
    add,
    base_mul,
    is_scalar,
    mul,
    scalar_add,
    scalar_from_bytes,
    sub,
)
from hexlan.net.proofs import (
    prove_dleq,
    prove_dleq_any,
    prove_key,
    prove_reencryption,
    verify_dleq,
    verify_dleq_any,
    verify_key,
    verify_reencryption,
)
from hexlan.net.shuffle import (
    MAX_CARDS,
    ShuffleCommitment,
    ShuffleDraw,
    ShuffleError,
    ShuffleProof,
    ShuffleSecret,
    apply_shuffle,
    card_point,
    decrypt,
    decryption_base,
    draw_shuffle,
    initial_deck,
    prove_shuffle,
    unpack_deck,
    verify_shuffle,
)

DECK_KEY_INFO: Final = b"hexlan/v1/deck-key\0"
SHUFFLE_INFO: Final = b"hexlan/v1/shuffle\0"
REENCRYPT_INFO: Final = b"hexlan/v1/reencrypt-r\0"

SEED_BYTES: Final = 32
"""Bytes in a seat's per-game seed and in a shuffle seed."""

GAME_ID_BYTES: Final = 32
"""Bytes in a game id."""


class DeckError(ValueError):
    """Deck data that cannot be accepted, or a call out of turn.

    Attributes:
        seat: the seat whose data failed (to blame), or ``None`` for the caller's own mistake.
        reason: what is wrong, in words.
    """

    def __init__(self, seat: int | None, reason: str) -> None:
        self.seat = seat
        self.reason = reason
        super().__init__(reason)


def _hkdf(seed: bytes, length: int, info: bytes) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a per-game seed is {SEED_BYTES} bytes")
    return HKDF(algorithm=SHA256(), length=length, salt=None, info=info).derive(seed)


def derive_deck_secret(seed: bytes) -> bytes:
    """A seat's ElGamal secret ``x``: HKDF-SHA256(seed, info=b"hexlan/v1/deck-key\\0"), 64 bytes
    reduced mod ``ℓ``. Zero with probability ``2**-252``: never, in practice.

    Args:
        seed: the seat's 32-byte per-game seed.

    Raises:
        ValueError: a seed that is not 32 bytes.
    """
    return scalar_from_bytes(_hkdf(seed, WIDE_BYTES, DECK_KEY_INFO))


def derive_shuffle_seed(seed: bytes, label: str) -> bytes:
    """A seat's 32-byte shuffle seed for deck ``label``: HKDF-SHA256(seed,
    info=b"hexlan/v1/shuffle\\0" || utf8(label)).

    Raises:
        ValueError: a seed that is not 32 bytes.
    """
    return _hkdf(seed, SEED_BYTES, SHUFFLE_INFO + label.encode())


def derive_reencryption_scalar(seed: bytes, context: bytes) -> bytes:
    """The randomness ``r`` of a seat's re-encryption of a card: HKDF-SHA256(seed,
    info=b"hexlan/v1/reencrypt-r\\0" || context), 64 bytes reduced mod ``ℓ`` (``context`` is
    :meth:`Deck.transfer_context`, so no two re-encryptions share it; zero never, in practice).

    Raises:
        ValueError: a seed that is not 32 bytes.
    """
    return scalar_from_bytes(_hkdf(seed, WIDE_BYTES, REENCRYPT_INFO + context))


class JointKey:
    """The deck's joint ElGamal key: every seat's proven share ``Y_i``, and ``Y = Σ Y_i``.

    A seat's key proof is made under ``context || u8(seat)`` (:meth:`seat_context`), so it
    cannot be replayed for another seat or another game.

    Args:
        players: the number of seats, 1..:data:`~hexlan.engine.core.MAX_SEATS` (6; a seat is
            one byte in proof contexts, so the bound is the engine's, not the encoding's).
        context: binds the proofs to this game, e.g. the game id and the deck family.

    Raises:
        ValueError: a number of players outside 1..6.
    """

    def __init__(self, players: int, context: bytes) -> None:
        if not 1 <= players <= MAX_SEATS:
            raise ValueError(f"a joint key has 1..{MAX_SEATS} seats, got {players}")
        self.players: Final = players
        self.context: Final = context
        self._shares: dict[int, bytes] = {}
        self._joint: bytes | None = None

    def seat_context(self, seat: int) -> bytes:
        """``context || u8(seat)``: the context of ``seat``'s key proof."""
        return self.context + bytes([seat])

    def prove(self, seat: int, secret: bytes) -> tuple[bytes, bytes]:
        """``seat``'s key share and proof to publish: 32 and 64 bytes.

        Raises:
            GroupError: ``secret`` is not a canonical non-zero scalar.
        """
        return prove_key(secret, self.seat_context(seat))

    def add(self, seat: int, share: bytes, proof: bytes) -> None:
        """Accept ``seat``'s published key share once its proof verifies.

        Args:
            seat: the publishing seat, ``0 .. players-1``.
            share: ``Y_i``, 32 bytes from the peer.
            proof: its Schnorr proof, 64 bytes from the peer.

        Raises:
            DeckError: (naming ``seat``) a seat out of range, a second share, a proof that fails.
        """
        if not 0 <= seat < self.players:
            raise DeckError(seat, f"seat {seat} is not one of {self.players} seats")
        if seat in self._shares:
            raise DeckError(seat, f"seat {seat} has already published its key share")
        if not verify_key(share, proof, self.seat_context(seat)):
            raise DeckError(seat, f"seat {seat}'s key share proof does not verify")
        self._shares[seat] = share

    def has_share(self, seat: int) -> bool:
        """Whether ``seat``'s share is in."""
        return seat in self._shares

    @property
    def complete(self) -> bool:
        """Whether every seat's share is in."""
        return len(self._shares) == self.players

    @property
    def joint(self) -> bytes:
        """``Y = Σ Y_i``, 32 bytes.

        Raises:
            DeckError: (seat ``None``) a share is missing.
        """
        if self._joint is None:
            if not self.complete:
                missing = sorted(set(range(self.players)) - self._shares.keys())
                raise DeckError(None, f"the joint key lacks the shares of seats {missing}")
            joint = self._shares[0]
            for seat in range(1, self.players):
                joint = add(joint, self._shares[seat])
            self._joint = joint
        return self._joint

    def share(self, seat: int) -> bytes:
        """``seat``'s accepted key share ``Y_i``, 32 bytes.

        Raises:
            DeckError: (naming ``seat``) it has none.
        """
        if seat not in self._shares:
            raise DeckError(seat, f"seat {seat} has no key share")
        return self._shares[seat]


class Deck:
    """One shuffled deck: its shuffles and their proofs, who was dealt which position, shares.

    Args:
        label: names the deck (e.g. ``"development"``); card ``i`` is
            ``card_point(utf8(label), i)``.
        faces: ``faces[i]`` is the face of card ``i`` (any small int, e.g. a card type);
            1..256 cards.
        key: the joint key, shared by every deck of the game.
        game_id: 32 bytes, binding decryption shares to this game.

    Raises:
        ValueError: no cards or more than 256, or a game id that is not 32 bytes.
    """

    def __init__(self, label: str, faces: Sequence[int], key: JointKey, game_id: bytes) -> None:
        if not 1 <= len(faces) <= MAX_CARDS:
            raise ValueError(f"a deck has 1..{MAX_CARDS} cards, got {len(faces)}")
        if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
            raise ValueError(f"a game id is {GAME_ID_BYTES} bytes")
        self.label: Final = label
        self.faces: Final = tuple(faces)
        self.key: Final = key
        self.game_id: Final = game_id
        self._label: Final = label.encode()
        self._points: Final = [card_point(self._label, i) for i in range(len(faces))]
        self._index: Final = {point: i for i, point in enumerate(self._points)}
        self._initial: list[bytes] | None = None
        self._outputs: list[list[bytes]] = []  # each seat's shuffled deck, in seat order
        self._beacon: bytes | None = None  # the challenge event's output
        self._verified: set[int] = set()
        self._owners: list[int] = []
        self._public: list[bool] = []  # per position: opened by every seat's share (§13.7)
        self._shares: list[dict[int, bytes]] = []
        self._shown: dict[int, int] = {}  # card index -> the seat that showed it
        self._moved: dict[int, list[tuple[int, bytes]]] = {}  # position -> (to, re-encryption)

    @property
    def size(self) -> int:
        """The number of cards."""
        return len(self.faces)

    def face(self, index: int) -> int:
        """The face of card ``index``."""
        return self.faces[index]

    # Shuffles and their proofs.

    @property
    def initial(self) -> list[bytes]:
        """The public starting deck: card ``i`` encrypted with ``r = 1`` (64-byte ciphertexts).

        Raises:
            DeckError: (seat ``None``) the joint key is incomplete.
        """
        if self._initial is None:
            self._initial = initial_deck(self._points, self.key.joint)
        return self._initial

    @property
    def current(self) -> list[bytes]:
        """The latest deck: the last accepted shuffle's output, else :attr:`initial`."""
        return self._outputs[-1] if self._outputs else self.initial

    @property
    def next_shuffler(self) -> int | None:
        """The seat to shuffle next (seat order), or ``None`` once every seat has."""
        seat = len(self._outputs)
        return seat if seat < self.key.players else None

    @property
    def shuffled(self) -> bool:
        """Whether every seat has shuffled."""
        return self.next_shuffler is None

    def shuffle(
        self, seed: bytes, deck_in: Sequence[bytes] | None = None
    ) -> tuple[ShuffleCommitment, ShuffleSecret]:
        """A seat's shuffle of ``deck_in`` (default :attr:`current`), from its 32-byte per-game
        seed, with the commitment to its permutation.

        ``shuffle_deck(deck_in, Y, derive_shuffle_seed(seed, label), utf8(label))``, that is
        :func:`~hexlan.net.shuffle.apply_shuffle` of :meth:`draw_shuffle`: the same seed gives
        the same bytes, after a restart and in the audit. Publish ``pack_deck(output)``.

        Raises:
            ValueError: a seed that is not 32 bytes.
            DeckError: (seat ``None``) the joint key is incomplete.
        """
        deck = self.current if deck_in is None else deck_in
        return apply_shuffle(deck, self.draw_shuffle(seed))

    def draw_shuffle(self, seed: bytes) -> ShuffleDraw:
        """A seat's shuffle of this deck drawn from its 32-byte per-game seed, with its masks,
        before its input deck exists (:func:`~hexlan.net.shuffle.draw_shuffle`): it needs only
        the joint key, so a seat computes it while the seats before it shuffle.

        Raises:
            ValueError: a seed that is not 32 bytes.
            DeckError: (seat ``None``) the joint key is incomplete.
        """
        stream_seed = derive_shuffle_seed(seed, self.label)
        return draw_shuffle(self.size, self.key.joint, stream_seed, self._label)

    def add_shuffle(self, seat: int, output: bytes) -> None:
        """Accept ``seat``'s shuffle: its output deck, before the proof.

        Args:
            seat: the shuffling seat; it must be :attr:`next_shuffler`.
            output: the shuffled deck, 64·n bytes; every card is validated here (a point off
                the prime-order group, such as a card plus a point of small order, fails).

        Raises:
            DeckError: (naming ``seat``) not its turn, or a malformed deck.
        """
        if seat != self.next_shuffler:
            raise DeckError(seat, f"it is not seat {seat}'s turn to shuffle the {self.label} deck")
        try:
            deck = unpack_deck(output, self.size)
        except GroupError as exc:
            raise DeckError(seat, f"seat {seat}'s shuffled deck: {exc.reason}") from exc
        self._outputs.append(deck)

    def _shuffler(self, seat: int) -> int:
        if not 0 <= seat < len(self._outputs):
            raise DeckError(None, f"seat {seat} has not shuffled the {self.label} deck")
        return seat

    def shuffle_input(self, seat: int) -> list[bytes]:
        """The deck ``seat`` shuffled: :attr:`initial` for seat 0, else seat − 1's output.

        Raises:
            DeckError: (seat ``None``) ``seat`` has not shuffled.
        """
        return self._outputs[self._shuffler(seat) - 1] if seat else self.initial

    def shuffle_output(self, seat: int) -> list[bytes]:
        """The deck ``seat``'s shuffle produced (validated).

        Raises:
            DeckError: (seat ``None``) ``seat`` has not shuffled.
        """
        return self._outputs[self._shuffler(seat)]

    def set_challenges(self, beacon: bytes) -> None:
        """The challenge event's beacon output ``R`` (32 bytes), which every proof binds.

        It must be drawn after every shuffle was published.

        Raises:
            DeckError: (seat ``None``) a shuffle is missing, the output was already set, or it
                is not 32 bytes.
        """
        if not self.shuffled:
            raise DeckError(None, "the challenges come after every seat has shuffled")
        if self._beacon is not None:
            raise DeckError(None, "the challenges are already set")
        if not isinstance(beacon, bytes) or len(beacon) != GAME_ID_BYTES:
            raise DeckError(None, f"the challenge event's output is {GAME_ID_BYTES} bytes")
        self._beacon = beacon

    @property
    def challenged(self) -> bool:
        """Whether the challenge event's output is set: the shuffle proofs are due."""
        return self._beacon is not None

    def proof_context(self, seat: int) -> bytes:
        """What ``seat``'s shuffle proof is bound to: ``game_id || utf8(label) || 0x00 ||
        u8(seat) || R``, ``R`` the challenge event's output (PROTOCOL.md §13.6).

        Raises:
            DeckError: (seat ``None``) the challenges are not set, or ``seat`` is no shuffler.
        """
        if self._beacon is None:
            raise DeckError(None, "the shuffle proofs wait for the challenges")
        return self.game_id + self._label + b"\0" + bytes([self._shuffler(seat)]) + self._beacon

    def prove(
        self, seat: int, commitment: ShuffleCommitment, secret: ShuffleSecret
    ) -> ShuffleProof:
        """``seat``'s proof of its shuffle (:func:`~hexlan.net.shuffle.prove_shuffle` under
        :meth:`proof_context`); a pure function of the seed and the published messages.

        Raises:
            DeckError: (seat ``None``) the challenges are not set, or ``seat`` is no shuffler.
        """
        context = self.proof_context(seat)
        return prove_shuffle(self.shuffle_input(seat), commitment, secret, self.key.joint, context)

    def verification_job(self, seat: int, proof: Sequence[object]) -> Callable[[], None]:
        """The expensive check of ``seat``'s shuffle proof, as a call to run in a worker thread.

        The job reads only values captured now, so it is safe to run while this deck is used;
        when it returns without error, call :meth:`mark_verified` (on the deck's thread).

        Args:
            seat: the seat whose proof to check.
            proof: its proof in wire form (:meth:`~hexlan.net.shuffle.ShuffleProof.pack`),
                unvalidated: the job validates every point and scalar.

        Raises:
            DeckError: (seat ``None``) the challenges are not set, or ``seat`` is no shuffler.
                The job itself raises ``DeckError`` naming ``seat`` if the proof fails.
        """
        context = self.proof_context(seat)
        deck_in, deck_out, joint = (
            self.shuffle_input(seat),
            self.shuffle_output(seat),
            self.key.joint,
        )
        fields = tuple(proof)

        def job() -> None:
            try:
                verify_shuffle(
                    deck_in, deck_out, ShuffleProof.unpack(fields, len(deck_in)), joint, context
                )
            except ShuffleError as exc:
                raise DeckError(seat, f"seat {seat}'s shuffle proof: {exc.reason}") from exc

        return job

    def mark_verified(self, seat: int) -> None:
        """Record that ``seat``'s shuffle proof verified (its :meth:`verification_job` passed)."""
        self._verified.add(seat)

    def check_proof(self, seat: int, proof: Sequence[object]) -> None:
        """Verify ``seat``'s shuffle proof now and record it (:meth:`verification_job`).

        Raises:
            DeckError: naming ``seat`` if the proof fails; seat ``None`` if it is too early.
        """
        self.verification_job(seat, proof)()
        self.mark_verified(seat)

    @property
    def ready(self) -> bool:
        """Whether every seat's shuffle proof has verified: the deck can be dealt."""
        return len(self._verified) == self.key.players

    # Dealing and opening.

    def deal(self, owner: int, public: bool = False) -> int:
        """Deal the top card to ``owner``: returns its position (0, 1, 2, ...) in the final deck.

        A ``public`` card (a fog tile) is opened by every seat's share, the owner's included,
        and seen by all (:meth:`open_public`); another is opened by its owner alone (:meth:`open`).

        A card can be dealt before the shuffles are in or verified (positions are fixed by the
        order of dealing); its shares wait until the final deck exists, and an honest seat gives
        its own only once :attr:`ready`.

        Raises:
            DeckError: (seat ``None``) the deck is empty, or ``owner`` is no seat.
        """
        if not self.remaining:
            raise DeckError(None, f"the {self.label} deck is empty")
        if not 0 <= owner < self.key.players:
            raise DeckError(None, f"seat {owner} is not one of {self.key.players} seats")
        self._owners.append(owner)
        self._public.append(public)
        self._shares.append({})
        return len(self._owners) - 1

    @property
    def dealt(self) -> int:
        """The number of cards dealt."""
        return len(self._owners)

    @property
    def remaining(self) -> int:
        """The number of cards not dealt yet."""
        return self.size - self.dealt

    def owner(self, position: int) -> int:
        """The seat holding ``position``: the seat dealt it, or the last seat it was
        transferred to (:meth:`accept_transfer`).

        Raises:
            DeckError: (seat ``None``) ``position`` has not been dealt.
        """
        return self.holder(position, self.moves(position))

    def holder(self, position: int, at: int) -> int:
        """The seat that held ``position`` after its first ``at`` moves (0: the seat dealt it).

        Raises:
            DeckError: (seat ``None``) ``position`` has not been dealt, or moved fewer times.
        """
        dealt_to = self.dealt_to(position)
        moved = self._moved.get(position, [])
        if not 0 <= at <= len(moved):
            raise DeckError(None, f"position {position} has not moved {at} times")
        return moved[at - 1][0] if at else dealt_to

    def dealt_to(self, position: int) -> int:
        """The seat ``position`` was dealt to (whoever holds it now).

        Raises:
            DeckError: (seat ``None``) ``position`` has not been dealt.
        """
        if not 0 <= position < self.dealt:
            raise DeckError(None, f"position {position} of the {self.label} deck is not dealt")
        return self._owners[position]

    def moves(self, position: int) -> int:
        """How many times ``position`` has changed holder."""
        return len(self._moved.get(position, ()))

    def is_public(self, position: int) -> bool:
        """Whether ``position`` was dealt face up, to be opened by every seat (:meth:`deal`).

        Raises:
            DeckError: (seat ``None``) ``position`` has not been dealt.
        """
        self.owner(position)
        return self._public[position]

    def share_context(self, seat: int, position: int) -> bytes:
        """The context of ``seat``'s DLEQ proof for ``position``:
        ``game_id || utf8(label) || u8(seat) || u16(position)`` (big-endian).

        Unambiguous: the game id and the tail have fixed lengths, so the length fixes the label.
        """
        return self.game_id + self._label + bytes([seat]) + position.to_bytes(2, "big")

    def _card(self, position: int) -> bytes:
        self.owner(position)
        if not self.shuffled:
            raise DeckError(None, f"the {self.label} deck is not shuffled yet")
        return self._outputs[-1][position]

    def _check_secret(self, seat: int, secret: bytes) -> None:
        if not is_scalar(secret) or base_mul(secret) != self.key.share(seat):
            raise DeckError(seat, f"this secret does not match seat {seat}'s key share")

    def _identify(self, point: bytes) -> int:
        index = self._index.get(point)
        if index is None:
            raise DeckError(None, f"a card of the {self.label} deck decrypts to no card")
        return index

    def own_share(self, position: int, secret: bytes, seat: int) -> tuple[bytes, bytes]:
        """``seat``'s decryption share of ``position`` and its DLEQ proof, to publish.

        Args:
            position: a dealt position.
            secret: ``seat``'s secret ``x``, 32 bytes.
            seat: the publishing seat.

        Returns:
            ``(A·x, proof)``: 32 and 64 bytes.

        Raises:
            DeckError: the position is not dealt (seat ``None``), or ``secret`` is not
                ``seat``'s (naming ``seat``).
        """
        card = self._card(position)
        self._check_secret(seat, secret)
        return prove_dleq(secret, decryption_base(card), self.share_context(seat, position))

    def add_share(self, position: int, seat: int, share: bytes, proof: bytes) -> None:
        """Accept ``seat``'s decryption share of ``position`` once its DLEQ proof verifies.

        The proof is checked against ``key.share(seat)`` with base ``A`` of the final deck's
        card at ``position`` and context :meth:`share_context`.

        Raises:
            DeckError: (naming ``seat``) a duplicate or a proof that fails; (seat ``None``) the
                position is not dealt.
        """
        base = decryption_base(self._card(position))
        shares = self._shares[position]
        if seat in shares:
            raise DeckError(seat, f"seat {seat} already published its share of position {position}")
        public = self.key.share(seat)
        if not verify_dleq(public, base, share, proof, self.share_context(seat, position)):
            raise DeckError(seat, f"seat {seat}'s share of position {position} does not verify")
        shares[seat] = share

    def shares(self, position: int) -> dict[int, bytes]:
        """The accepted decryption shares of ``position`` by seat (a copy).

        Raises:
            DeckError: (seat ``None``) the position is not dealt.
        """
        self.owner(position)
        return dict(self._shares[position])

    def _others_in(self, position: int) -> dict[int, bytes]:
        owner = -1 if self.is_public(position) else self.dealt_to(position)
        others = {s: d for s, d in self._shares[position].items() if s != owner}
        missing = [s for s in range(self.key.players) if s != owner and s not in others]
        if missing:
            raise DeckError(None, f"position {position} lacks the shares of seats {missing}")
        return others

    def reduced(self, position: int, at: int | None = None) -> bytes:
        """The card at ``position`` as its holder's alone (64 bytes ``A || B*``): ``(A_p, B_p −
        Σ_{s≠owner} D_{s,p})`` while it has never moved, else its last accepted re-encryption
        (after its first ``at`` moves, if given: as :meth:`holder` held it then);
        ``M = B* − A·x_holder`` either way. Every use of the holder's view goes through it.

        Raises:
            DeckError: (seat ``None``) the position is not dealt, public, lacks a share, or
                has moved fewer than ``at`` times.
        """
        moved = self._moved.get(position, [])
        if at is None:
            at = len(moved)
        self.holder(position, at)
        if at:
            return moved[at - 1][1]
        if self.is_public(position):
            raise DeckError(None, f"position {position} of the {self.label} deck is public")
        others = self._others_in(position)
        card = self._card(position)
        return decryption_base(card) + decrypt(card, list(others.values()))

    def open(self, position: int, secret: bytes) -> int:
        """The holder's view of its card: ``M = B* − A·x`` of :meth:`reduced`; its card index.

        Args:
            position: a position the caller holds.
            secret: the holder's secret ``x``, 32 bytes.

        Raises:
            DeckError: (seat ``None``) a share is missing or no card matches (impossible after
                verified shuffles); (naming the holder) ``secret`` is not the holder's.
        """
        reduced = self.reduced(position)
        self._check_secret(self.owner(position), secret)
        return self._open_with(reduced, mul(secret, decryption_base(reduced)))

    def _open_with(self, reduced: bytes, share: bytes) -> int:
        return self._identify(decrypt(reduced, [share]))

    def open_public(self, position: int) -> int:
        """A public card's index, ``M = B − Σ every seat's share``, once every share is in.

        Raises:
            DeckError: (seat ``None``) the position is not public, a share is missing, or no
                card matches (impossible after verified shuffles).
        """
        if not self.is_public(position):
            raise DeckError(None, f"position {position} of the {self.label} deck is not public")
        shares = self._others_in(position)
        return self._identify(decrypt(self._card(position), list(shares.values())))

    # Showing a card without saying which position holds it.

    def show_context(self, seat: int, index: int, positions: Sequence[int]) -> bytes:
        """The context of ``seat``'s proof that it holds card ``index`` at one of ``positions``:
        ``game_id || utf8(label) || 0x00 || u8(seat) || u16(index) || u16(p_1) || ... ||
        u16(p_m)`` (big-endian).

        Unambiguous: a label holds no NUL (no control character), and the tail has fixed-width
        fields.
        """
        tail = b"".join(p.to_bytes(2, "big") for p in positions)
        return self.game_id + self._label + b"\0" + bytes([seat]) + index.to_bytes(2, "big") + tail

    def show_statements(
        self, seat: int, index: int, positions: Sequence[int]
    ) -> list[tuple[bytes, bytes]]:
        """The statements of a show: for each listed position ``p``, ``(A_p, T_p)`` with
        ``(A_p, B*_p)`` its :meth:`reduced` card and ``T_p = B*_p − M_index``
        (``B_p − Σ_{s≠seat} D_{s,p} − M_index`` for a card never moved); ``T_p = A_p·x_seat``
        exactly when ``p`` holds card ``index``.

        Raises:
            DeckError: (naming ``seat``) no such card, no positions, positions not distinct and
                ascending, a position ``seat`` does not hold, or one lacking another seat's
                share.
        """
        if not 0 <= index < self.size:
            raise DeckError(seat, f"the {self.label} deck has no card {index}")
        if not positions or any(a >= b for a, b in itertools.pairwise(positions)):
            raise DeckError(seat, f"seat {seat} listed positions {list(positions)}, not ascending")
        point = self._points[index]
        statements = []
        for position in positions:
            if not 0 <= position < self.dealt or self.owner(position) != seat:
                raise DeckError(
                    seat, f"seat {seat} listed position {position}, not a card it holds"
                )
            try:
                reduced = self.reduced(position)
            except DeckError as exc:
                raise DeckError(
                    seat, f"seat {seat} listed a card not dealt yet: {exc.reason}"
                ) from exc
            statements.append((decryption_base(reduced), sub(reduced[POINT_BYTES:], point)))
        return statements

    def prove_show(
        self, index: int, positions: Sequence[int], secret: bytes, seat: int
    ) -> list[bytes]:
        """``seat``'s proof that card ``index`` is at one of ``positions`` (all dealt to it),
        not saying which: :func:`~hexlan.net.proofs.prove_dleq_any` over
        :meth:`show_statements` under :meth:`show_context`.

        Returns:
            One 64-byte ``c_j || z_j`` per listed position.

        Raises:
            DeckError: (naming ``seat``) the statements cannot be formed (see
                :meth:`show_statements`), ``secret`` is not ``seat``'s, or card ``index`` is at
                none of ``positions``.
        """
        statements = self.show_statements(seat, index, positions)
        self._check_secret(seat, secret)
        real = next(
            (j for j, (base, target) in enumerate(statements) if mul(secret, base) == target),
            None,
        )
        if real is None:
            raise DeckError(seat, f"card {index} is at none of positions {list(positions)}")
        return prove_dleq_any(secret, statements, real, self.show_context(seat, index, positions))

    def show(self, seat: int, index: int, positions: Sequence[int], proof: Sequence[bytes]) -> int:
        """Accept ``seat``'s show of card ``index`` at one of ``positions``: its face.

        The card point is a nullifier: a card is shown once in a game, whoever shows it.

        Raises:
            DeckError: (naming ``seat``) card ``index`` shown before, the statements cannot be
                formed (:meth:`show_statements`), or the proof does not verify.
        """
        if index in self._shown:
            raise DeckError(seat, f"seat {seat} showed card {index}, shown before")
        statements = self.show_statements(seat, index, positions)
        context = self.show_context(seat, index, positions)
        if not verify_dleq_any(self.key.share(seat), statements, proof, context):
            raise DeckError(seat, f"seat {seat}'s proof that it holds card {index} does not verify")
        self._shown[index] = seat
        return self.faces[index]

    def shown_by(self, index: int) -> int | None:
        """The seat that showed card ``index``, or None if nobody has."""
        return self._shown.get(index)

    def shown_cards(self) -> tuple[int, ...]:
        """Every card index shown so far, ascending (public)."""
        return tuple(sorted(self._shown))

    # Moving a card to another seat.

    def transfer_context(self, seat: int, to: int, position: int, context: bytes) -> bytes:
        """The context of ``seat``'s re-encryption of ``position`` to ``to``:
        ``game_id || utf8(label) || 0x02 || u8(seat) || u8(to) || u16(position) || u16(moves)
        || context`` (big-endian; ``moves`` as :meth:`moves` now, ``context`` the caller's, e.g.
        the Spy's number). Unambiguous: a label holds no control character and the middle has
        fixed-width fields."""
        head = self.game_id + self._label + b"\x02" + bytes([seat, to])
        return (
            head + position.to_bytes(2, "big") + self.moves(position).to_bytes(2, "big") + context
        )

    def _transfer_check(self, position: int, seat: int, to: int) -> None:
        if not 0 <= position < self.dealt or self.owner(position) != seat:
            raise DeckError(seat, f"seat {seat} moved position {position}, not a card it holds")
        if not 0 <= to < self.key.players or to == seat:
            raise DeckError(seat, f"seat {seat} moved position {position} to no other seat ({to})")

    def reencrypt_to(
        self, position: int, secret: bytes, seat: int, to: int, r: bytes, context: bytes
    ) -> tuple[bytes, bytes]:
        """``seat``'s card at ``position`` re-encrypted to seat ``to``, with its proof
        (:func:`~hexlan.net.proofs.prove_reencryption` of :meth:`reduced` under
        :meth:`transfer_context`).

        Args:
            position: a position ``seat`` holds.
            secret: ``seat``'s secret.
            seat: the holder; ``to``: another seat.
            r: the fresh randomness (:func:`derive_reencryption_scalar`).
            context: the caller's binding (see :meth:`transfer_context`).

        Returns:
            ``(A' || B', proof)``: 64 and 96 bytes.

        Raises:
            DeckError: (naming ``seat``) it does not hold ``position``, ``to`` is no other
                seat, ``secret`` is not its own or ``r`` not a scalar; (seat ``None``) a share
                is missing.
        """
        self._transfer_check(position, seat, to)
        self._check_secret(seat, secret)
        reduced = self.reduced(position)
        full = self.transfer_context(seat, to, position, context)
        try:
            a, b, proof = prove_reencryption(
                secret, r, reduced[:POINT_BYTES], reduced[POINT_BYTES:], self.key.share(to), full
            )
        except GroupError as exc:
            raise DeckError(seat, f"seat {seat} cannot re-encrypt: {exc.reason}") from exc
        return a + b, proof

    def check_transfer(
        self, position: int, seat: int, to: int, moved: bytes, proof: bytes, context: bytes
    ) -> None:
        """Check ``seat``'s re-encryption ``moved`` (64 bytes from a peer) of its card at
        ``position`` to seat ``to`` (:func:`~hexlan.net.proofs.verify_reencryption`), without
        accepting it.

        Raises:
            DeckError: (naming ``seat``) it does not hold ``position``, ``to`` is no other
                seat, or the re-encryption or its proof is false or malformed; (seat ``None``)
                a share is missing.
        """
        self._transfer_check(position, seat, to)
        reduced = self.reduced(position)
        full = self.transfer_context(seat, to, position, context)
        if not (
            isinstance(moved, bytes)
            and len(moved) == 2 * POINT_BYTES
            and verify_reencryption(
                self.key.share(seat),
                reduced[:POINT_BYTES],
                reduced[POINT_BYTES:],
                self.key.share(to),
                moved[:POINT_BYTES],
                moved[POINT_BYTES:],
                proof,
                full,
            )
        ):
            raise DeckError(
                seat, f"seat {seat}'s re-encryption of position {position} does not verify"
            )

    def accept_transfer(
        self, position: int, seat: int, to: int, moved: bytes, proof: bytes, context: bytes
    ) -> None:
        """Check (:meth:`check_transfer`) and accept ``seat``'s re-encryption of ``position`` to
        ``to``: from now on ``to`` holds it and ``moved`` is its :meth:`reduced` card.

        Raises:
            DeckError: as :meth:`check_transfer`.
        """
        self.check_transfer(position, seat, to, moved, proof, context)
        self._moved.setdefault(position, []).append((to, moved))

    def open_moved(self, moved: bytes, secret: bytes, seat: int) -> int:
        """The card index of a re-encryption ``moved`` to ``seat`` (checked by
        :meth:`check_transfer`): ``M = B' − A'·x``.

        Raises:
            DeckError: (naming ``seat``) ``secret`` is not its own; (seat ``None``) no card
                matches (impossible after a verified transfer).
        """
        self._check_secret(seat, secret)
        return self._open_with(moved, mul(secret, decryption_base(moved)))

    def open_context(self, seat: int, position: int, at: int) -> bytes:
        """The context of the holder ``seat``'s share opening ``position`` (as held after its
        first ``at`` moves) to everyone: ``game_id || utf8(label) || 0x01 || u8(seat) ||
        u16(position) || u16(at)``."""
        tail = position.to_bytes(2, "big") + at.to_bytes(2, "big")
        return self.game_id + self._label + b"\x01" + bytes([seat]) + tail

    def _held_at(self, position: int, seat: int, at: int | None) -> int:
        """``at``, or :meth:`moves` now, once ``seat`` is the holder then."""
        at = self.moves(position) if at is None else at
        try:
            held = self.holder(position, at) == seat
        except DeckError:
            held = False
        if not held:
            raise DeckError(seat, f"seat {seat} opened position {position}, not a card it held")
        return at

    def holder_share(
        self, position: int, secret: bytes, seat: int, at: int | None = None
    ) -> tuple[bytes, bytes]:
        """The holder ``seat``'s share ``A·x`` of its :meth:`reduced` card at ``position`` (as
        held after its first ``at`` moves; default: now) with a DLEQ proof under
        :meth:`open_context`: with it every peer opens the card (:meth:`open_by_share`).

        Returns:
            ``(share, proof)``: 32 and 64 bytes.

        Raises:
            DeckError: (naming ``seat``) it did not hold ``position`` then, or ``secret`` is
                not its own; (seat ``None``) a share is missing.
        """
        at = self._held_at(position, seat, at)
        self._check_secret(seat, secret)
        base = decryption_base(self.reduced(position, at))
        return prove_dleq(secret, base, self.open_context(seat, position, at))

    def open_by_share(
        self, position: int, seat: int, share: bytes, proof: bytes, at: int | None = None
    ) -> int:
        """The card index at ``position`` from the share of ``seat``, its holder after its
        first ``at`` moves (default: now): a peer's bytes, :meth:`holder_share`;
        ``M = B* − share``.

        Raises:
            DeckError: (naming ``seat``) it did not hold ``position`` then, or the share or its
                proof is false or malformed; (seat ``None``) a share is missing.
        """
        at = self._held_at(position, seat, at)
        reduced = self.reduced(position, at)
        base = decryption_base(reduced)
        context = self.open_context(seat, position, at)
        if not verify_dleq(self.key.share(seat), base, share, proof, context):
            raise DeckError(seat, f"seat {seat}'s opening of position {position} does not verify")
        return self._open_with(reduced, share)

    def open_all(self, secrets: Sequence[bytes]) -> list[int]:
        """The card index at every position of the final deck, from every seat's secret (audit).

        Args:
            secrets: ``x_i`` of every seat in seat order, 32 bytes each.

        Raises:
            DeckError: naming the seat whose secret does not match its key share; seat ``None``
                if a seat's secret is missing, the deck is not shuffled, or a card matches none.
        """
        if len(secrets) != self.key.players:
            raise DeckError(None, f"the audit needs the secrets of all {self.key.players} seats")
        if not self.shuffled:
            raise DeckError(None, f"the {self.label} deck is not shuffled")
        for seat, secret in enumerate(secrets):
            self._check_secret(seat, secret)
        total = functools.reduce(scalar_add, secrets)
        return [
            self._identify(decrypt(ct, [mul(total, decryption_base(ct))]))
            for ct in self._outputs[-1]
        ]
