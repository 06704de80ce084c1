"""Private steals: card commitments and the opening sealed for the thief (PROTOCOL.md §7); and
the Pirate Islands fleet's loot, drawn blind from the same commitments and opened in public
(PROTOCOL.md §7.1: :func:`draw_positions`).

After ``MoveRobber(hex, victim)`` the victim commits to every card of its hand in an order of
its choosing (:func:`commit_hand`), the beacon picks an index ``i`` (:mod:`hexlan.net.beacon`),
and the victim seals the opening ``salt_i || resource_i`` to the thief (:func:`seal_opening`).
The thief opens it (:func:`open_opening`) and checks it against ``c_i`` (:func:`check_opening`).
Third parties see only commitments, the index and a ciphertext.

Sans-IO: salts, the order and nonces are arguments; left out, they come from :mod:`secrets`.
Primitives: SHA-256 (:mod:`hashlib`); X25519, HKDF-SHA256 and ChaCha20-Poly1305
(``cryptography``).

>>> from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
>>> victim, thief = X25519PrivateKey.generate(), X25519PrivateKey.generate()
>>> game_id, steal = bytes(32), 5
>>> hand = commit_hand(game_id, steal, [0, 3, 3])
>>> salt, resource = hand.openings[1]
>>> nonce, box = seal_opening(victim, public_bytes(thief), game_id, steal, 1, salt, resource)
>>> opened = open_opening(thief, public_bytes(victim), game_id, steal, 1, nonce, box)
>>> opened == hand.openings[1], check_opening(hand.commitments[1], game_id, steal, *opened)
(True, True)
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from hexlan.engine.core import Resource
from hexlan.net.identity import check_x25519_public

CARD_PREFIX: Final = b"hexlan/v1/card\0"
STEAL_PREFIX: Final = b"hexlan/v1/steal\0"
HAND_PREFIX: Final = b"hexlan/v1/hand\0"
"""HKDF info prefix of a whole hand opened to one seat (the Master Merchant, PROTOCOL.md §7.2)."""

SALT_SIZE: Final = 16
"""Bytes of random salt per card commitment."""

NONCE_SIZE: Final = 12
"""Bytes in a ChaCha20-Poly1305 nonce."""

KEY_SIZE: Final = 32
"""Bytes in an X25519 public key, a game id and a derived ChaCha20-Poly1305 key."""

CARD_KINDS: Final = len(Resource)
"""Card kinds are one byte, 0..7 (:class:`hexlan.engine.core.Resource`: the five resources, then
the commodities); whether the game holds the kind is the engine's check."""

MAX_HAND: Final = 256
"""The most cards a steal can commit to: the index is one byte in the AAD (``u8(i)``)."""

OPENING_SIZE: Final = SALT_SIZE + 1
"""Plaintext bytes of an opening: ``salt || resource``."""

_U64_LIMIT: Final = 2**64


class StealOpeningError(ValueError):
    """A steal opening the thief cannot accept: it does not authenticate, or is malformed.

    The victim is to blame (PROTOCOL.md §7: the game stops, naming the victim).

    Attributes:
        reason: what is wrong, in words.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class CommittedHand:
    """A victim's committed hand: what it publishes and what it keeps.

    Attributes:
        commitments: ``c_j`` per position, 32 bytes each (the ``steal_commit`` payload).
        openings: ``(salt_j, resource_j)`` per position: the victim's secrets (``LOG.secrets``).
    """

    commitments: tuple[bytes, ...]
    openings: tuple[tuple[bytes, int], ...]

    def __len__(self) -> int:
        return len(self.commitments)


def public_bytes(key: X25519PrivateKey) -> bytes:
    """The raw 32-byte public key of an X25519 private key (the ``x25519_public`` field)."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _check_game(game_id: bytes, steal: int) -> None:
    if not isinstance(game_id, bytes | bytearray) or len(game_id) != KEY_SIZE:
        raise ValueError(f"the game id must be {KEY_SIZE} bytes, got {game_id!r:.80}")
    if not isinstance(steal, int) or not 1 <= steal < _U64_LIMIT:
        raise ValueError(f"a steal number must be in 1..2**64-1, got {steal!r}")


def _check_index(index: int) -> None:
    if not isinstance(index, int) or not 0 <= index < MAX_HAND:
        raise ValueError(f"a card index must be in 0..{MAX_HAND - 1}, got {index!r}")


def _is_salt(salt: object) -> bool:
    return isinstance(salt, bytes | bytearray) and len(salt) == SALT_SIZE


def _is_resource(resource: object) -> bool:
    return isinstance(resource, int) and 0 <= resource < CARD_KINDS


def card_commitment(game_id: bytes, steal: int, salt: bytes, resource: int) -> bytes:
    """``c = H(b"hexlan/v1/card\\0" || game_id || u64(steal) || salt || u8(resource))``.

    Args:
        game_id: 32 bytes.
        steal: the steal's number: 1 for the game's first steal, +1 per steal.
        salt: 16 random bytes, fresh per card.
        resource: a card kind, 0..7 (:class:`hexlan.engine.core.Resource`).

    Raises:
        ValueError: any argument out of its range or of the wrong length.
    """
    _check_game(game_id, steal)
    if not _is_salt(salt):
        raise ValueError(f"a card salt must be {SALT_SIZE} bytes, got {salt!r:.80}")
    if not _is_resource(resource):
        raise ValueError(f"a resource must be 0..{CARD_KINDS - 1}, got {resource!r}")
    return hashlib.sha256(
        b"".join((CARD_PREFIX, game_id, _u64(steal), salt, bytes((resource,))))
    ).digest()


def check_opening(
    commitment: bytes, game_id: bytes, steal: int, salt: bytes, resource: int
) -> bool:
    """Whether ``(salt, resource)`` opens ``commitment`` (compared in constant time).

    A malformed salt, resource or commitment (untrusted input) opens nothing.

    Raises:
        ValueError: a malformed game id or steal number (the caller's own values).
    """
    _check_game(game_id, steal)
    if not _is_salt(salt) or not _is_resource(resource):
        return False
    if not isinstance(commitment, bytes | bytearray) or len(commitment) != KEY_SIZE:
        return False
    return secrets.compare_digest(
        card_commitment(game_id, steal, salt, resource), bytes(commitment)
    )


def _random_order(k: int) -> list[int]:
    """A uniformly random permutation of ``range(k)`` (Fisher-Yates with :mod:`secrets`)."""
    order = list(range(k))
    for i in range(k - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def commit_hand(
    game_id: bytes,
    steal: int,
    cards: Sequence[int],
    order: Sequence[int] | None = None,
    salts: Sequence[bytes] | None = None,
) -> CommittedHand:
    """Commit to every card of a hand, in the victim's order (PROTOCOL.md §7).

    Position ``j`` holds ``cards[order[j]]`` with salt ``salts[j]``.

    Args:
        game_id: 32 bytes.
        steal: the steal's number (1 for the game's first steal).
        cards: the hand, one card kind (0..7) per card, 1 to 256 cards.
        order: a permutation of ``range(len(cards))``; by default a uniformly random one drawn
            from :mod:`secrets`. It must not depend on the cards: the index the beacon picks is
            public, so a sorted order would tell everyone which kind of card moved.
        salts: one 16-byte salt per position; by default :func:`secrets.token_bytes`.

    Raises:
        ValueError: an empty or too large hand, a bad resource, an order that is not a
            permutation, salts of the wrong number or length.
    """
    _check_game(game_id, steal)
    k = len(cards)
    if not 1 <= k <= MAX_HAND:
        raise ValueError(f"a steal commits to 1..{MAX_HAND} cards, got {k}")
    for card in cards:
        if not _is_resource(card):
            raise ValueError(f"a resource must be 0..{CARD_KINDS - 1}, got {card!r}")
    if order is None:
        order = _random_order(k)
    elif not all(isinstance(j, int) for j in order) or sorted(order) != list(range(k)):
        raise ValueError(f"order must be a permutation of 0..{k - 1}, got {list(order)!r}")
    if salts is None:
        salts = [secrets.token_bytes(SALT_SIZE) for _ in range(k)]
    elif len(salts) != k:
        raise ValueError(f"{len(salts)} salts for {k} cards")
    openings = tuple((bytes(salt), int(cards[j])) for salt, j in zip(salts, order, strict=True))
    commitments = tuple(card_commitment(game_id, steal, s, r) for s, r in openings)
    return CommittedHand(commitments, openings)


def draw_positions(randbelow: Callable[[int], int], size: int, count: int) -> tuple[int, ...]:
    """``count`` distinct positions of ``size`` committed cards, drawn uniformly without
    replacement (PROTOCOL.md §7.1): for ``t = 0 .. count-1``, a uniform integer ``u`` in
    ``[0, size - t)`` picks the ``u``-th (from 0) of the positions not yet drawn, in ascending
    order. The positions are returned in the order drawn.

    Args:
        randbelow: the beacon stream's uniform draw (:meth:`hexlan.net.beacon.BeaconStream.randbelow`).
        size: the cards committed to, 1..256.
        count: the cards to draw, 1..size.

    Raises:
        ValueError: a count outside ``1..size`` or a size outside ``1..256``.

    >>> draws = iter([2, 0])
    >>> draw_positions(lambda k: next(draws), 4, 2)
    (2, 0)
    """
    if not 1 <= size <= MAX_HAND or not 1 <= count <= size:
        raise ValueError(f"cannot draw {count} of {size} committed cards")
    left = list(range(size))
    return tuple(left.pop(randbelow(size - t)) for t in range(count))


def derive_steal_secrets(
    chain_secret: bytes, steal: int, cards: int
) -> tuple[list[int], list[bytes], bytes]:
    """The victim's card order, salts and opening nonce for steal number ``steal``, derived from
    its 32-byte per-game seed (its hash-chain secret) with HKDF-SHA256 (PROTOCOL.md §7):
    unpredictable to others, the same again after a restart (one nonce per steal, so a key pair
    never reuses one), and recomputable by the end-of-game audit once the seed is revealed.

    Returns:
        ``(order, salts, nonce)``: a permutation of ``range(cards)``, ``cards`` 16-byte salts
        and a 12-byte nonce.
    """
    stream = HKDF(
        algorithm=SHA256(),
        length=16 * cards + 4 * cards + 12,
        salt=None,
        info=b"hexlan/v1/steal-secrets\0" + steal.to_bytes(8, "big"),
    ).derive(chain_secret)
    salts = [stream[16 * i : 16 * i + 16] for i in range(cards)]
    keys = [stream[16 * cards + 4 * i : 16 * cards + 4 * i + 4] for i in range(cards)]
    order = sorted(range(cards), key=lambda i: keys[i])
    return order, salts, stream[20 * cards :]


def _aead(
    own: X25519PrivateKey,
    peer_public: bytes,
    game_id: bytes,
    steal: int,
    prefix: bytes = STEAL_PREFIX,
) -> ChaCha20Poly1305:
    """ChaCha20-Poly1305 under ``HKDF-SHA256(X25519(own, peer), salt=game_id,
    info=prefix || u64(steal))`` (``prefix``: b"hexlan/v1/steal\\0", or
    b"hexlan/v1/hand\\0" for a whole hand).

    Raises:
        ValueError: a public key that :func:`~hexlan.net.identity.check_x25519_public` refuses
            (not 32 bytes, non-canonical, small order: no shared secret).
    """
    check_x25519_public(bytes(peer_public))  # WeakKeyError is a ValueError
    peer = X25519PublicKey.from_public_bytes(bytes(peer_public))
    shared = own.exchange(peer)  # raises ValueError on an all-zero (low-order) result
    key = HKDF(
        algorithm=SHA256(), length=KEY_SIZE, salt=bytes(game_id), info=prefix + _u64(steal)
    ).derive(shared)
    return ChaCha20Poly1305(key)


def _aad(game_id: bytes, steal: int, index: int) -> bytes:
    return bytes(game_id) + _u64(steal) + bytes((index,))


def seal_opening(
    victim_key: X25519PrivateKey,
    thief_public: bytes,
    game_id: bytes,
    steal: int,
    index: int,
    salt: bytes,
    resource: int,
    nonce: bytes | None = None,
) -> tuple[bytes, bytes]:
    """Encrypt the opening of card ``index`` for the thief (the ``steal_open`` payload).

    ChaCha20-Poly1305 of ``salt || u8(resource)``, key from :func:`_aead`, associated data
    ``game_id || u64(steal) || u8(index)`` (PROTOCOL.md §7).

    Args:
        victim_key: the victim's X25519 private key for this game.
        thief_public: the thief's raw X25519 public key (from the opening), 32 bytes.
        index: the beacon's outcome ``i``.
        salt, resource: ``openings[i]`` of the victim's :class:`CommittedHand`.
        nonce: 12 bytes; by default :func:`secrets.token_bytes`.

    Returns:
        ``(nonce, ciphertext)``; the ciphertext is 17 + 16 bytes.

    Raises:
        ValueError: any argument out of range or of the wrong length, or a thief key that
            gives no shared secret.
    """
    _check_game(game_id, steal)
    _check_index(index)
    if not _is_salt(salt):
        raise ValueError(f"a card salt must be {SALT_SIZE} bytes, got {salt!r:.80}")
    if not _is_resource(resource):
        raise ValueError(f"a resource must be 0..{CARD_KINDS - 1}, got {resource!r}")
    if nonce is None:
        nonce = secrets.token_bytes(NONCE_SIZE)
    elif not isinstance(nonce, bytes | bytearray) or len(nonce) != NONCE_SIZE:
        raise ValueError(f"a nonce must be {NONCE_SIZE} bytes, got {nonce!r:.80}")
    if not isinstance(thief_public, bytes | bytearray):
        raise ValueError(f"the thief's X25519 key must be bytes, got {thief_public!r:.80}")
    try:
        aead = _aead(victim_key, thief_public, game_id, steal)
    except ValueError as error:
        raise ValueError(f"the thief's X25519 key is unusable: {error}") from error
    plaintext = bytes(salt) + bytes((resource,))
    return bytes(nonce), aead.encrypt(bytes(nonce), plaintext, _aad(game_id, steal, index))


def open_opening(
    thief_key: X25519PrivateKey,
    victim_public: bytes,
    game_id: bytes,
    steal: int,
    index: int,
    nonce: bytes,
    ciphertext: bytes,
) -> tuple[bytes, int]:
    """Decrypt the opening the victim sealed for card ``index``; the thief's side.

    The result still has to match the commitment (:func:`check_opening` with ``c_index``).

    Args:
        thief_key: the thief's X25519 private key for this game.
        victim_public: the victim's raw X25519 public key (from the opening), 32 bytes.
        index: the beacon's outcome ``i``, as the thief computed it.
        nonce, ciphertext: from the victim's ``steal_open``.

    Returns:
        ``(salt, resource)``.

    Raises:
        StealOpeningError: the victim's key, nonce or ciphertext is malformed, the ciphertext
            does not authenticate (wrong key, index, steal or game, or tampered), or the
            plaintext is not ``16-byte salt || card kind 0..7``.
        ValueError: a malformed game id, steal number or index (the caller's own values).
    """
    _check_game(game_id, steal)
    _check_index(index)
    if not isinstance(victim_public, bytes | bytearray) or len(victim_public) != KEY_SIZE:
        raise StealOpeningError(f"the victim's X25519 key must be {KEY_SIZE} bytes")
    if not isinstance(nonce, bytes | bytearray) or len(nonce) != NONCE_SIZE:
        raise StealOpeningError(f"the steal nonce must be {NONCE_SIZE} bytes")
    if not isinstance(ciphertext, bytes | bytearray):
        raise StealOpeningError("the steal ciphertext must be bytes")
    try:
        aead = _aead(thief_key, victim_public, game_id, steal)
    except ValueError as error:
        raise StealOpeningError(f"the victim's X25519 key is unusable: {error}") from error
    try:
        plaintext = aead.decrypt(bytes(nonce), bytes(ciphertext), _aad(game_id, steal, index))
    except InvalidTag:
        raise StealOpeningError(
            f"the steal opening for steal {steal}, card {index} does not authenticate "
            "(not sealed for this thief, game, steal and index, or altered)"
        ) from None
    if len(plaintext) != OPENING_SIZE:
        raise StealOpeningError(
            f"the steal opening is {len(plaintext)} bytes, not {OPENING_SIZE} (salt || resource)"
        )
    resource = plaintext[SALT_SIZE]
    if resource >= CARD_KINDS:
        raise StealOpeningError(
            f"the steal opening names card kind {resource}, not 0..{CARD_KINDS - 1}"
        )
    return plaintext[:SALT_SIZE], resource


def seal_hand(
    victim_key: X25519PrivateKey,
    player_public: bytes,
    game_id: bytes,
    steal: int,
    openings: Sequence[tuple[bytes, int]],
    nonce: bytes,
) -> bytes:
    """Encrypt the openings of every committed card, in position order, for one seat (the
    ``hand_open`` ciphertext, PROTOCOL.md §7.2): ChaCha20-Poly1305 of
    ``salt_0 || u8(card_0) || ... || salt_{k-1} || u8(card_{k-1})`` under the key of
    :func:`_aead` with info ``b"hexlan/v1/hand\\0" || u64(steal)``, associated data
    ``game_id || u64(steal)``.

    Raises:
        ValueError: malformed openings or nonce, or a player key that gives no shared secret.
    """
    _check_game(game_id, steal)
    if not 1 <= len(openings) <= MAX_HAND or not all(
        _is_salt(salt) and _is_resource(card) for salt, card in openings
    ):
        raise ValueError(f"a hand opening holds 1..{MAX_HAND} (salt, card) pairs")
    if not isinstance(nonce, bytes | bytearray) or len(nonce) != NONCE_SIZE:
        raise ValueError(f"a nonce must be {NONCE_SIZE} bytes, got {nonce!r:.80}")
    try:
        aead = _aead(victim_key, player_public, game_id, steal, HAND_PREFIX)
    except ValueError as error:
        raise ValueError(f"the player's X25519 key is unusable: {error}") from error
    plaintext = b"".join(bytes(salt) + bytes((card,)) for salt, card in openings)
    return aead.encrypt(bytes(nonce), plaintext, bytes(game_id) + _u64(steal))


def open_hand(
    player_key: X25519PrivateKey,
    victim_public: bytes,
    game_id: bytes,
    steal: int,
    nonce: bytes,
    ciphertext: bytes,
    commitments: Sequence[bytes],
) -> tuple[tuple[bytes, int], ...]:
    """Decrypt a hand opened to this seat (:func:`seal_hand`) and check every opening against
    its commitment: the openings, in position order.

    Raises:
        StealOpeningError: the ciphertext does not authenticate for this seat, or its
            plaintext is not one ``salt || card`` per commitment, each matching its commitment.
        ValueError: a malformed game id or number (the caller's own values).
    """
    _check_game(game_id, steal)
    if not isinstance(nonce, bytes | bytearray) or len(nonce) != NONCE_SIZE:
        raise StealOpeningError(f"the hand nonce must be {NONCE_SIZE} bytes")
    if not isinstance(ciphertext, bytes | bytearray):
        raise StealOpeningError("the hand ciphertext must be bytes")
    try:
        aead = _aead(player_key, victim_public, game_id, steal, HAND_PREFIX)
        plaintext = aead.decrypt(bytes(nonce), bytes(ciphertext), bytes(game_id) + _u64(steal))
    except ValueError as error:
        raise StealOpeningError(f"the victim's X25519 key is unusable: {error}") from error
    except InvalidTag:
        raise StealOpeningError(
            f"the hand opening of steal {steal} does not authenticate (not sealed for this"
            " seat, game and number, or altered)"
        ) from None
    k = len(commitments)
    if len(plaintext) != OPENING_SIZE * k:
        raise StealOpeningError(f"the hand opening holds {len(plaintext)} bytes, not {k} cards")
    openings = tuple(
        (
            plaintext[j * OPENING_SIZE : j * OPENING_SIZE + SALT_SIZE],
            plaintext[j * OPENING_SIZE + SALT_SIZE],
        )
        for j in range(k)
    )
    for j, (salt, card) in enumerate(openings):
        if not check_opening(commitments[j], game_id, steal, salt, card):
            raise StealOpeningError(f"card {j} of the hand opening does not match its commitment")
    return openings
