"""Private steals (net/steal.py): card commitments and openings sealed for the thief.

Spec: docs/PROTOCOL.md §7. Known answers are pinned and also recomputed from the spec's formulas
with :mod:`hashlib` and the ``cryptography`` primitives directly, so the key derivation and the
associated data are checked against the text, not only against themselves.
"""

from __future__ import annotations

import hashlib
from itertools import permutations

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from hexlan.engine.core import Resource
from hexlan.net.steal import (
    CommittedHand,
    StealOpeningError,
    card_commitment,
    check_opening,
    commit_hand,
    open_opening,
    public_bytes,
    seal_opening,
)

GAME_ID = b"\x11" * 32
EVENT = 4
SALT = bytes(range(16))
NONCE = b"\x33" * 12
VICTIM = X25519PrivateKey.from_private_bytes(b"\x01" * 32)
THIEF = X25519PrivateKey.from_private_bytes(b"\x02" * 32)
BYSTANDER = X25519PrivateKey.from_private_bytes(b"\x03" * 32)
HAND = [Resource.LUMBER, Resource.GRAIN, Resource.GRAIN, Resource.ORE, Resource.WOOL]
ORDER = [3, 0, 4, 1, 2]
SALTS = [bytes([j]) * 16 for j in range(5)]


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def reference_aead(
    own: X25519PrivateKey, peer: X25519PrivateKey, game_id: bytes, event: int
) -> ChaCha20Poly1305:
    """§7's key, built here from the primitives: HKDF-SHA256(X25519(own, peer), salt=game_id,
    info=b"hexlan/v1/steal\\0" || u64(event))."""
    shared = own.exchange(peer.public_key())
    key = HKDF(
        algorithm=SHA256(), length=32, salt=game_id, info=b"hexlan/v1/steal\0" + u64(event)
    ).derive(shared)
    return ChaCha20Poly1305(key)


def reference_aad(game_id: bytes, event: int, index: int) -> bytes:
    return game_id + u64(event) + bytes([index])


@pytest.fixture
def hand() -> CommittedHand:
    return commit_hand(GAME_ID, EVENT, HAND, order=ORDER, salts=SALTS)


def seal(index: int, hand: CommittedHand, nonce: bytes | None = NONCE) -> tuple[bytes, bytes]:
    salt, resource = hand.openings[index]
    return seal_opening(VICTIM, public_bytes(THIEF), GAME_ID, EVENT, index, salt, resource, nonce)


# ---------------------------------------------------------------------------- commitments


def test_card_commitment_known_answer() -> None:
    """c = H(b"hexlan/v1/card\\0" || game_id || u64(event) || salt || resource) (§7)."""
    c = card_commitment(GAME_ID, EVENT, SALT, Resource.GRAIN)
    assert c.hex() == "36409552c3238e8d476c841930cb4b4fabe0e832c9c378c6ad47d92ed9b88cf4"
    assert c == hashlib.sha256(b"hexlan/v1/card\0" + GAME_ID + u64(EVENT) + SALT + b"\x03").digest()


def test_commitments_hide_the_card() -> None:
    """The same card under different salts gives unrelated commitments; the salt, not the card,
    decides what third parties see."""
    same_card = {card_commitment(GAME_ID, EVENT, bytes([s]) * 16, 2) for s in range(50)}
    assert len(same_card) == 50
    fresh = commit_hand(GAME_ID, EVENT, [Resource.WOOL] * 6)
    assert len(set(fresh.commitments)) == 6, "default salts are fresh per card"
    assert len({salt for salt, _ in fresh.openings}) == 6


def test_commitments_bind_game_event_salt_and_resource() -> None:
    base = card_commitment(GAME_ID, EVENT, SALT, 1)
    assert base != card_commitment(b"\x12" * 32, EVENT, SALT, 1)
    assert base != card_commitment(GAME_ID, EVENT + 1, SALT, 1)
    assert base != card_commitment(GAME_ID, EVENT, bytes(16), 1)
    assert {card_commitment(GAME_ID, EVENT, SALT, r) for r in range(5)} >= {base}
    assert len({card_commitment(GAME_ID, EVENT, SALT, r) for r in range(5)}) == 5


@pytest.mark.parametrize(
    ("game_id", "event", "salt", "resource", "words"),
    [
        (GAME_ID[:31], EVENT, SALT, 0, "game id"),
        (GAME_ID, 0, SALT, 0, "steal number"),
        (GAME_ID, 2**64, SALT, 0, "steal number"),
        (GAME_ID, EVENT, SALT[:15], 0, "salt"),
        (GAME_ID, EVENT, SALT + b"\0", 0, "salt"),
        (GAME_ID, EVENT, SALT, 8, "resource"),
        (GAME_ID, EVENT, SALT, -1, "resource"),
    ],
)
def test_card_commitment_refuses_malformed_fields(
    game_id: bytes, event: int, salt: bytes, resource: int, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        card_commitment(game_id, event, salt, resource)


def test_commit_hand_puts_cards_in_the_given_order(hand: CommittedHand) -> None:
    """Position j holds cards[order[j]] with salts[j]."""
    assert len(hand) == 5
    assert hand.openings == tuple((SALTS[j], int(HAND[i])) for j, i in enumerate(ORDER))
    assert hand.commitments == tuple(
        card_commitment(GAME_ID, EVENT, s, r) for s, r in hand.openings
    )
    assert all(type(r) is int for _, r in hand.openings)


def test_default_order_is_a_random_permutation() -> None:
    """The victim's default order comes from `secrets`: every order of three distinct cards
    turns up (missing one in 600 tries has probability below 1e-46)."""
    seen = set()
    for _ in range(600):
        committed = commit_hand(GAME_ID, EVENT, [0, 1, 2])
        seen.add(tuple(r for _, r in committed.openings))
    assert seen == set(permutations([0, 1, 2]))


@pytest.mark.parametrize(
    ("cards", "order", "salts", "words"),
    [
        ([], None, None, "1..256 cards"),
        ([0] * 257, None, None, "1..256 cards"),
        ([0, 8], None, None, "resource"),
        ([0, 1], [0, 0], None, "permutation"),
        ([0, 1], [0, 1, 2], None, "permutation"),
        ([0, 1], [1, 2], None, "permutation"),
        ([0, 1], None, [SALT], "1 salts for 2 cards"),
        ([0, 1], None, [SALT, SALT[:8]], "salt"),
    ],
)
def test_commit_hand_refuses_malformed_hands(
    cards: list[int], order: list[int] | None, salts: list[bytes] | None, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        commit_hand(GAME_ID, EVENT, cards, order=order, salts=salts)


def test_the_largest_hand_fits_the_index_byte() -> None:
    committed = commit_hand(GAME_ID, EVENT, [r % 5 for r in range(256)])
    salt, resource = committed.openings[255]
    nonce, box = seal_opening(VICTIM, public_bytes(THIEF), GAME_ID, EVENT, 255, salt, resource)
    opened = open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 255, nonce, box)
    assert check_opening(committed.commitments[255], GAME_ID, EVENT, *opened)


# ---------------------------------------------------------------------------- openings


def test_round_trip_for_every_index(hand: CommittedHand) -> None:
    """The thief opens whichever card the beacon picked, and it matches that commitment."""
    for index in range(len(hand)):
        nonce, box = seal(index, hand, nonce=None)
        salt, resource = open_opening(
            THIEF, public_bytes(VICTIM), GAME_ID, EVENT, index, nonce, box
        )
        assert (salt, resource) == hand.openings[index]
        assert check_opening(hand.commitments[index], GAME_ID, EVENT, salt, resource)


def test_sealed_opening_known_answer(hand: CommittedHand) -> None:
    """Fixed keys and nonce give a pinned ciphertext, equal to §7's construction built from the
    primitives here (HKDF info and salt, the AAD, the plaintext salt || resource)."""
    nonce, box = seal_opening(
        VICTIM, public_bytes(THIEF), GAME_ID, EVENT, 2, SALT, Resource.GRAIN, nonce=NONCE
    )
    assert nonce == NONCE
    assert box.hex() == "36a7d691db547ee66de0055fbede1a8243336e16cc4bc4425ef99858b2e370d28e"
    reference = reference_aead(VICTIM, THIEF, GAME_ID, EVENT)
    assert box == reference.encrypt(NONCE, SALT + b"\x03", reference_aad(GAME_ID, EVENT, 2))


def test_default_nonces_are_fresh(hand: CommittedHand) -> None:
    (n1, c1), (n2, c2) = seal(0, hand, nonce=None), seal(0, hand, nonce=None)
    assert len(n1) == 12 and n1 != n2 and c1 != c2


def test_a_third_party_cannot_open(hand: CommittedHand) -> None:
    """Only the thief (and the victim, who knows the card) shares the key."""
    nonce, box = seal(1, hand)
    with pytest.raises(StealOpeningError, match="does not authenticate"):
        open_opening(BYSTANDER, public_bytes(VICTIM), GAME_ID, EVENT, 1, nonce, box)
    with pytest.raises(StealOpeningError, match="does not authenticate"):
        open_opening(BYSTANDER, public_bytes(THIEF), GAME_ID, EVENT, 1, nonce, box)
    with pytest.raises(StealOpeningError, match="does not authenticate"):
        open_opening(THIEF, public_bytes(BYSTANDER), GAME_ID, EVENT, 1, nonce, box)
    mine = open_opening(VICTIM, public_bytes(THIEF), GAME_ID, EVENT, 1, nonce, box)
    assert mine == hand.openings[1]


def test_tampered_ciphertext_fails(hand: CommittedHand) -> None:
    """Flipping any bit of the ciphertext or tag, or cutting it short, fails authentication."""
    nonce, box = seal(0, hand)
    victim = public_bytes(VICTIM)
    for position in range(len(box)):
        tampered = bytearray(box)
        tampered[position] ^= 0x01
        with pytest.raises(StealOpeningError, match="does not authenticate"):
            open_opening(THIEF, victim, GAME_ID, EVENT, 0, nonce, bytes(tampered))
    for cut in (box[:-1], box[:16], box[:15], b"", box + b"\0"):
        with pytest.raises(StealOpeningError):
            open_opening(THIEF, victim, GAME_ID, EVENT, 0, nonce, cut)


def test_tampered_nonce_fails(hand: CommittedHand) -> None:
    nonce, box = seal(0, hand)
    victim = public_bytes(VICTIM)
    other = bytes([nonce[0] ^ 0x80]) + nonce[1:]
    with pytest.raises(StealOpeningError, match="does not authenticate"):
        open_opening(THIEF, victim, GAME_ID, EVENT, 0, other, box)
    for malformed in (nonce[:11], nonce + b"\0", b""):
        with pytest.raises(StealOpeningError, match="nonce must be 12 bytes"):
            open_opening(THIEF, victim, GAME_ID, EVENT, 0, malformed, box)


@pytest.mark.parametrize(
    ("game_id", "event"), [(b"\x12" * 32, EVENT), (GAME_ID, EVENT + 1), (GAME_ID, EVENT - 1)]
)
def test_opening_is_bound_to_game_and_event(
    hand: CommittedHand, game_id: bytes, event: int
) -> None:
    nonce, box = seal(0, hand)
    with pytest.raises(StealOpeningError, match="does not authenticate"):
        open_opening(THIEF, public_bytes(VICTIM), game_id, event, 0, nonce, box)


def test_opening_is_bound_to_its_index(hand: CommittedHand) -> None:
    """An opening sealed for index 2 presented as index 3 (or any other) fails: the victim
    cannot pass off another position's card, nor can a replay move it."""
    nonce, box = seal(2, hand)
    for wrong in (3, 1, 0, 4, 255):
        with pytest.raises(StealOpeningError, match=f"card {wrong} does not authenticate"):
            open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, wrong, nonce, box)
    assert open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 2, nonce, box)


def test_the_aad_alone_is_checked() -> None:
    """With the key right, a wrong AAD field alone (the index) fails: built with the reference
    key and the AAD of index 3, the box does not open as index 2."""
    reference = reference_aead(VICTIM, THIEF, GAME_ID, EVENT)
    box = reference.encrypt(NONCE, SALT + b"\x01", reference_aad(GAME_ID, EVENT, 3))
    assert open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 3, NONCE, box) == (SALT, 1)
    with pytest.raises(StealOpeningError):
        open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 2, NONCE, box)


@pytest.mark.parametrize(
    ("plaintext", "words"),
    [
        (SALT, "16 bytes, not 17"),
        (SALT + b"\x01\x00", "18 bytes, not 17"),
        (b"", "0 bytes, not 17"),
        (SALT + b"\x08", "card kind 8"),
        (SALT + b"\xff", "card kind 255"),
    ],
)
def test_malformed_plaintext_fails(plaintext: bytes, words: str) -> None:
    """An opening that authenticates but is not `16-byte salt || card kind 0..7` is refused."""
    reference = reference_aead(VICTIM, THIEF, GAME_ID, EVENT)
    box = reference.encrypt(NONCE, plaintext, reference_aad(GAME_ID, EVENT, 0))
    with pytest.raises(StealOpeningError, match=words) as info:
        open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 0, NONCE, box)
    assert words in info.value.reason
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "victim_public",
    [bytes(32), b"\x01" + bytes(31), bytes(31), b""],
    ids=["zero-point", "order-1-point", "short", "empty"],
)
def test_unusable_victim_keys_fail(hand: CommittedHand, victim_public: bytes) -> None:
    """A low-order point (no shared secret) or a key of the wrong length."""
    nonce, box = seal(0, hand)
    with pytest.raises(StealOpeningError, match="X25519 key"):
        open_opening(THIEF, victim_public, GAME_ID, EVENT, 0, nonce, box)


def test_a_lying_victim_is_detected(hand: CommittedHand) -> None:
    """The victim seals a card other than the committed one: it decrypts, but does not open the
    commitment at that index, nor does another position's opening."""
    salt, resource = hand.openings[0]
    lie = (resource + 1) % 5
    nonce, box = seal_opening(
        VICTIM, public_bytes(THIEF), GAME_ID, EVENT, 0, salt, lie, nonce=NONCE
    )
    opened = open_opening(THIEF, public_bytes(VICTIM), GAME_ID, EVENT, 0, nonce, box)
    assert opened == (salt, lie)
    assert not check_opening(hand.commitments[0], GAME_ID, EVENT, *opened)
    other_salt, other_resource = hand.openings[1]
    assert not check_opening(hand.commitments[0], GAME_ID, EVENT, other_salt, other_resource)
    assert not check_opening(hand.commitments[0], GAME_ID, EVENT + 1, salt, resource)
    assert check_opening(hand.commitments[0], GAME_ID, EVENT, salt, resource)


def test_check_opening_treats_malformed_openings_as_not_matching(hand: CommittedHand) -> None:
    salt, resource = hand.openings[0]
    c = hand.commitments[0]
    assert not check_opening(c, GAME_ID, EVENT, salt[:15], resource)
    assert not check_opening(c, GAME_ID, EVENT, salt, 5)
    assert not check_opening(c[:31], GAME_ID, EVENT, salt, resource)
    with pytest.raises(ValueError, match="game id"):
        check_opening(c, GAME_ID[:8], EVENT, salt, resource)


@pytest.mark.parametrize(
    ("thief_public", "index", "salt", "resource", "nonce", "words"),
    [
        (None, 256, SALT, 0, NONCE, "index"),
        (None, -1, SALT, 0, NONCE, "index"),
        (None, 0, SALT[:15], 0, NONCE, "salt"),
        (None, 0, SALT, 8, NONCE, "resource"),
        (None, 0, SALT, 0, NONCE[:11], "nonce"),
        (bytes(31), 0, SALT, 0, NONCE, "thief's X25519 key"),
        (bytes(32), 0, SALT, 0, NONCE, "thief's X25519 key"),
    ],
    ids=[
        "index-256",
        "index-minus-1",
        "short-salt",
        "resource-8",
        "short-nonce",
        "short-thief-key",
        "low-order-thief-key",
    ],
)
def test_seal_opening_refuses_malformed_arguments(
    thief_public: bytes | None, index: int, salt: bytes, resource: int, nonce: bytes, words: str
) -> None:
    public = public_bytes(THIEF) if thief_public is None else thief_public
    with pytest.raises(ValueError, match=words):
        seal_opening(VICTIM, public, GAME_ID, EVENT, index, salt, resource, nonce)


def test_public_bytes_is_the_raw_key() -> None:
    raw = public_bytes(THIEF)
    assert len(raw) == 32
    assert X25519PublicKey.from_public_bytes(raw) == THIEF.public_key()
