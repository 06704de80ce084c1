"""ElGamal decks, re-encryption and the cut-and-choose shuffle proof (PROTOCOL.md §13).

A card is a point ``M`` (:func:`card_point`); under the joint key ``Y`` its ciphertext is 64
bytes ``A || B`` with ``A = G·r`` and ``B = M + Y·r``. A deck is a list of ciphertexts, on the
wire one string of 64·n bytes (:func:`pack_deck`, :func:`unpack_deck`).

A seat shuffles by permuting and re-encrypting every card (Barnett–Smart). It proves the shuffle
by cut and choose: it also publishes :data:`ROUNDS` intermediate decks ``E_k``, each an
independent shuffle of the input; for each round the beacon's challenge bit asks it to open
either input → ``E_k`` (bit 0) or ``E_k`` → output (bit 1). Opening both would reveal the
shuffle, opening one reveals nothing; a cheater survives a round with probability at most 1/2,
all rounds with ``2**-40``.

Sans-IO and deterministic: all of a shuffle's randomness comes from a :class:`ScalarStream` of
the seat's seed, so a restarted seat re-creates its shuffle byte for byte and the end-of-game
audit can recompute it.

>>> key = base_mul((5).to_bytes(32, "little"))
>>> deck = initial_deck([card_point(b"doc", i) for i in range(3)], key)
>>> commitment, secret = shuffle_deck(deck, key, bytes(32), b"doc", rounds=ROUNDS)
>>> challenges = [k % 2 for k in range(ROUNDS)]
>>> responses = respond(secret, challenges)
>>> verify_shuffle(deck, commitment.output, commitment.rounds, challenges, responses, key)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

from hexlan.net.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    GroupError,
    ScalarStream,
    add,
    base_mul,
    hash_to_point,
    is_point,
    is_scalar,
    mul,
    scalar_sub,
    sub,
)
from hexlan.net.wire import SHUFFLE_ROUNDS

ROUNDS: Final = SHUFFLE_ROUNDS
"""Cut-and-choose rounds per shuffle proof: a cheater passes with probability ``2**-40`` (the
wire's :data:`~hexlan.net.wire.SHUFFLE_ROUNDS`)."""

CIPHERTEXT_BYTES: Final = 2 * POINT_BYTES
"""Bytes in a ciphertext ``A || B``."""

MAX_CARDS: Final = 256
"""The largest deck: a permutation is one byte per card on the wire."""

CARD_DOMAIN: Final = b"hexlan/v1/card-point\0"

_ONE: Final = (1).to_bytes(SCALAR_BYTES, "little")
_WORKERS: Final = min(4, os.cpu_count() or 1)

_T = TypeVar("_T")


class Stream(Protocol):
    """What :func:`sample_permutation` draws from: a :class:`ScalarStream` or a ``BeaconStream``."""

    def randbelow(self, k: int) -> int:
        """A uniform integer in ``[0, k)``."""
        ...


class ShuffleError(ValueError):
    """A shuffle proof that does not verify, or a malformed part of one.

    Attributes:
        reason: what is wrong, naming the round, e.g. ``"round 7: card 3 does not match"``.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def card_point(label: bytes, index: int) -> bytes:
    """The message point of card ``index`` of deck ``label``: nobody knows its discrete log.

    ``hash_to_point(b"hexlan/v1/card-point\\0", label || b"\\0" || u32(index))``.
    """
    return hash_to_point(CARD_DOMAIN, label + b"\0" + index.to_bytes(4, "big"))


def initial_deck(points: Sequence[bytes], joint_key: bytes) -> list[bytes]:
    """The public starting deck: ``(G, M_i + Y)`` for each card point ``M_i``.

    That is the encryption with ``r = 1``, since libsodium has no valid identity for ``r = 0``.

    Args:
        points: the card points (32 bytes each, from :func:`card_point`).
        joint_key: ``Y``, a valid point, 32 bytes.
    """
    g = base_mul(_ONE)
    return [g + add(m, joint_key) for m in points]


def reencrypt(ct: bytes, joint_key: bytes, r: bytes) -> bytes:
    """``(A + G·r, B + Y·r)``: the same card under fresh randomness.

    Args:
        ct: a ciphertext of valid points, 64 bytes.
        joint_key: ``Y``, a valid point, 32 bytes.
        r: a non-zero scalar, 32 bytes.

    Raises:
        GroupError: libsodium refuses (a zero scalar or an invalid ``Y``).
    """
    return add(ct[:POINT_BYTES], base_mul(r)) + add(ct[POINT_BYTES:], mul(r, joint_key))


def pack_deck(deck: Sequence[bytes]) -> bytes:
    """A deck's wire form: its ciphertexts concatenated, 64·n bytes.

    Raises:
        GroupError: a ciphertext that is not 64 bytes.
    """
    if any(len(ct) != CIPHERTEXT_BYTES for ct in deck):
        raise GroupError(f"a ciphertext is {CIPHERTEXT_BYTES} bytes")
    return b"".join(deck)


def unpack_deck(data: bytes, n: int) -> list[bytes]:
    """The ``n`` ciphertexts of a received deck, every ``A`` and ``B`` checked to be a point.

    This is the one validation of a deck from a peer; the rest of the module trusts its
    result.

    Args:
        data: 64·n bytes.
        n: the number of cards.

    Raises:
        GroupError: wrong length, or a card whose ``A`` or ``B`` is not a point of the group.
    """
    if not isinstance(data, bytes) or len(data) != CIPHERTEXT_BYTES * n:
        raise GroupError(f"a deck of {n} cards is {CIPHERTEXT_BYTES * n} bytes")
    deck = [data[i : i + CIPHERTEXT_BYTES] for i in range(0, len(data), CIPHERTEXT_BYTES)]
    for j, ct in enumerate(deck):
        if not (is_point(ct[:POINT_BYTES]) and is_point(ct[POINT_BYTES:])):
            raise GroupError(f"card {j} is not a pair of points of the group")
    return deck


def sample_permutation(stream: Stream, n: int) -> list[int]:
    """A uniform permutation ``perm`` of ``range(n)``: output card ``j`` is input card ``perm[j]``.

    Fisher–Yates from the last position down, as PROTOCOL.md §6 shuffles: start from
    ``[0, 1, ..., n-1]``; for ``i = n-1 .. 1`` swap positions ``i`` and ``stream.randbelow(i+1)``.
    The result is the list shuffled, so ``[deck[p] for p in perm]`` is the shuffled deck.
    """
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def check_permutation(data: bytes, n: int) -> list[int]:
    """The permutation in its wire form: ``n`` bytes, byte ``j`` is ``perm[j]``.

    Raises:
        ShuffleError: ``data`` is not bytes holding each of ``0 .. n-1`` once.
    """
    if not isinstance(data, bytes) or len(data) != n or sorted(data) != list(range(n)):
        raise ShuffleError(f"not a permutation of {n} cards")
    return list(data)


@dataclass(frozen=True)
class ShuffleSecret:
    """What a shuffler keeps: the shuffle, and each round's intermediate shuffle.

    Attributes:
        perm: output card ``j`` is input card ``perm[j]``.
        rands: ``r_j``, the scalar re-encrypting output card ``j`` (32 bytes each).
        round_perms: ``σ_k`` per round: ``E_k[j]`` is input card ``σ_k[j]``.
        round_rands: ``t_k`` per round: the scalar re-encrypting ``E_k[j]``.
    """

    perm: list[int]
    rands: list[bytes]
    round_perms: list[list[int]]
    round_rands: list[list[bytes]]


@dataclass(frozen=True)
class ShuffleCommitment:
    """What a shuffler publishes before the challenges.

    Attributes:
        output: the shuffled deck (64-byte ciphertexts).
        rounds: the intermediate deck ``E_k`` of every round.
    """

    output: list[bytes]
    rounds: list[list[bytes]]


def _parallel(jobs: Sequence[Callable[[], _T]]) -> list[_T]:
    """Run ``jobs`` on a few threads (libsodium releases the GIL); results and errors in order.

    The first job (in order) that raises stops the rest and its error is raised.
    """
    with ThreadPoolExecutor(_WORKERS) as pool:
        futures = [pool.submit(job) for job in jobs]
        try:
            return [f.result() for f in futures]
        finally:
            for f in futures:
                f.cancel()


@dataclass(frozen=True)
class ShuffleDraw:
    """A shuffle drawn from its stream before its input deck is known: the permutations and
    scalars (:class:`ShuffleSecret`) and the re-encryption masks they give.

    A mask is ``G·r || Y·r`` (64 bytes), what :func:`reencrypt` adds to a ciphertext; it needs
    only the joint key, not the deck, so a seat computes its masks while the seats before it
    shuffle, and its own shuffle is then two point additions per card (:func:`apply_shuffle`).

    Attributes:
        secret: the shuffle's permutations and scalars.
        masks: per deck (the output, then each round's intermediate deck), per position ``j``,
            the mask of the scalar that re-encrypts position ``j``.
    """

    secret: ShuffleSecret
    masks: list[list[bytes]]


def draw_shuffle(
    n: int, joint_key: bytes, seed: bytes, label: bytes, rounds: int = ROUNDS
) -> ShuffleDraw:
    """Draw a shuffle of ``n`` cards and compute its masks (the expensive part of a shuffle).

    Every value comes from ``ScalarStream(seed, label)``, drawn in this order: ``perm``
    (:func:`sample_permutation`), ``r_0 .. r_{n-1}``, then per round ``σ_k`` and ``t_k``.

    Args:
        n: the number of cards, at most 256.
        joint_key: ``Y``, a valid point, 32 bytes.
        seed: the seat's 32-byte shuffle seed (``derive_shuffle_seed``).
        label: separates this shuffle's stream from others of the same seed.
        rounds: intermediate decks to draw; :func:`verify_shuffle` wants :data:`ROUNDS`.

    Raises:
        ValueError: more than 256 cards, or a seed that is not 32 bytes.
    """
    if n > MAX_CARDS:
        raise ValueError(f"a deck has at most {MAX_CARDS} cards, got {n}")
    stream = ScalarStream(seed, label)
    perms = [sample_permutation(stream, n)]
    rands = [[stream.scalar() for _ in range(n)]]
    for _ in range(rounds):
        perms.append(sample_permutation(stream, n))
        rands.append([stream.scalar() for _ in range(n)])

    def job(r: list[bytes]) -> Callable[[], list[bytes]]:
        return lambda: [base_mul(k) + mul(k, joint_key) for k in r]

    masks = _parallel([job(r) for r in rands])
    return ShuffleDraw(ShuffleSecret(perms[0], rands[0], perms[1:], rands[1:]), masks)


def apply_shuffle(
    deck: Sequence[bytes], drawn: ShuffleDraw
) -> tuple[ShuffleCommitment, ShuffleSecret]:
    """Shuffle and re-encrypt ``deck`` with a drawn shuffle: ``output[j] = deck[perm[j]]`` plus
    the mask of ``r_j``, ``E_k[j] = deck[σ_k[j]]`` plus the mask of ``t_k[j]``; the same bytes
    as ``reencrypt(deck[perm[j]], Y, r_j)`` and ``reencrypt(deck[σ_k[j]], Y, t_k[j])``.

    Args:
        deck: the current deck, validated ciphertexts of 64 bytes.
        drawn: from :func:`draw_shuffle` for ``len(deck)`` cards.

    Raises:
        ValueError: ``drawn`` is for another number of cards.
    """
    secret = drawn.secret
    n = len(deck)
    if len(secret.perm) != n:
        raise ValueError(f"a shuffle drawn for {len(secret.perm)} cards, not {n}")

    def shuffled(perm: list[int], masks: list[bytes]) -> list[bytes]:
        out = []
        for p, m in zip(perm, masks, strict=True):
            ct = deck[p]
            out.append(
                add(ct[:POINT_BYTES], m[:POINT_BYTES]) + add(ct[POINT_BYTES:], m[POINT_BYTES:])
            )
        return out

    perms = [secret.perm, *secret.round_perms]
    decks = [shuffled(p, m) for p, m in zip(perms, drawn.masks, strict=True)]
    return ShuffleCommitment(output=decks[0], rounds=decks[1:]), secret


def shuffle_deck(
    deck: Sequence[bytes], joint_key: bytes, seed: bytes, label: bytes, rounds: int = ROUNDS
) -> tuple[ShuffleCommitment, ShuffleSecret]:
    """Shuffle and re-encrypt ``deck``, with the intermediate decks of the proof:
    :func:`apply_shuffle` of :func:`draw_shuffle` (see there for the order of the draws).

    ``output[j] = reencrypt(deck[perm[j]], r_j)`` and ``E_k[j] = reencrypt(deck[σ_k[j]], t_k[j])``.

    Args:
        deck: the current deck, validated ciphertexts of 64 bytes (at most 256).
        joint_key: ``Y``, a valid point, 32 bytes.
        seed: the seat's 32-byte shuffle seed (``derive_shuffle_seed``).
        label: separates this shuffle's stream from others of the same seed.
        rounds: intermediate decks to make; :func:`verify_shuffle` wants :data:`ROUNDS`.

    Raises:
        ValueError: more than 256 cards, or a seed that is not 32 bytes.
    """
    return apply_shuffle(deck, draw_shuffle(len(deck), joint_key, seed, label, rounds))


def respond(secret: ShuffleSecret, challenges: Sequence[int]) -> list[tuple[bytes, bytes]]:
    """The shuffler's answer to the challenge bits: per round, a permutation and its scalars.

    Bit 0 opens input → ``E_k``: ``(σ_k, t_k)``. Bit 1 opens ``E_k`` → output: ``(φ_k, u_k)``
    with ``φ_k[j] = σ_k⁻¹[perm[j]]`` and ``u_k[j] = r_j − t_k[φ_k[j]]``, so that
    ``output[j] = reencrypt(E_k[φ_k[j]], u_k[j])``.

    Args:
        secret: from :func:`shuffle_deck`.
        challenges: one bit (0 or 1) per round.

    Returns:
        Per round ``(permutation, scalars)``: n bytes (:func:`check_permutation`) and
        32·n bytes of concatenated scalars.

    Raises:
        ValueError: not one bit per round.
    """
    if len(challenges) != len(secret.round_perms) or any(b not in (0, 1) for b in challenges):
        raise ValueError(f"respond needs {len(secret.round_perms)} challenge bits")
    responses = []
    for bit, sigma, t in zip(challenges, secret.round_perms, secret.round_rands, strict=True):
        if bit == 0:
            responses.append((bytes(sigma), b"".join(t)))
            continue
        inverse = [0] * len(sigma)
        for j, s in enumerate(sigma):
            inverse[s] = j
        phi = [inverse[p] for p in secret.perm]
        u = [scalar_sub(r, t[i]) for r, i in zip(secret.rands, phi, strict=True)]
        responses.append((bytes(phi), b"".join(u)))
    return responses


def _check_round(
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    middle: Sequence[bytes],
    bit: int,
    response: object,
    joint_key: bytes,
) -> str | None:
    """What is wrong with one round, or ``None`` if it verifies."""
    n = len(deck_in)
    if not isinstance(middle, Sequence) or len(middle) != n:
        return f"the intermediate deck does not have {n} cards"
    if bit not in (0, 1):
        return "the challenge is not a bit"
    if not isinstance(response, tuple | list) or len(response) != 2:
        return "the response is not a permutation and its scalars"
    perm_data, scalar_data = response
    try:
        perm = check_permutation(perm_data, n)
    except ShuffleError as exc:
        return f"the response is {exc.reason}"
    if not isinstance(scalar_data, bytes) or len(scalar_data) != SCALAR_BYTES * n:
        return f"the response does not have {n} scalars"
    scalars = [scalar_data[i : i + SCALAR_BYTES] for i in range(0, len(scalar_data), SCALAR_BYTES)]
    for j, k in enumerate(scalars):
        if not is_scalar(k):
            return f"scalar {j} is not a canonical non-zero scalar"
    try:
        for j, (p, k) in enumerate(zip(perm, scalars, strict=True)):
            if bit == 0:  # E[j] = reencrypt(deck_in[σ[j]], t_j)
                computed, published = reencrypt(deck_in[p], joint_key, k), middle[j]
            else:  # E[φ[j]] = deck_out[j] − (G·u_j, Y·u_j)
                a, b = deck_out[j][:POINT_BYTES], deck_out[j][POINT_BYTES:]
                computed = sub(a, base_mul(k)) + sub(b, mul(k, joint_key))
                published = middle[p]
            if computed != published:
                return f"card {j} does not match"
    except GroupError as exc:
        return exc.reason
    return None


def verify_shuffle(
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    rounds: Sequence[Sequence[bytes]],
    challenges: Sequence[int],
    responses: Sequence[tuple[bytes, bytes]],
    joint_key: bytes,
) -> None:
    """Check a shuffle proof: ``deck_out`` is a permutation and re-encryption of ``deck_in``.

    For a round with bit 0, recomputes ``reencrypt(deck_in[σ[j]], t[j])`` and compares it with
    ``E_k[j]``; with bit 1, recomputes ``deck_out[j] − (G·u_j, Y·u_j)`` and compares it with
    ``E_k[φ[j]]``. The intermediate decks are never validated as points: they are only compared
    with libsodium's canonical outputs computed from validated inputs. Stops at the first bad
    round.

    perf: each of the 40·n equations costs a ``G·k``, a ``Y·k`` and two point additions,
    nearly all of the check's CPU (scripts/bench_crypto.py prints the model beside the measured
    time). A random linear combination of the equations (batch verification) is not cheaper
    over libsodium, which has no multi-scalar multiplication: the combination needs a
    ``P·ρ`` (a subgroup check of ``P`` and a multiplication, as dear as ``Y·k``) per
    intermediate point, two per card, and a point addition decodes two points and encodes one
    (a sixth of a multiplication), so bucket methods lose too. Summed with additions alone, a
    combination would also pass a card off by a point of small order when its coefficient is a
    multiple of that order; compared byte for byte, the card fails.

    Args:
        deck_in: the deck before the shuffle, validated (:func:`unpack_deck`).
        deck_out: the shuffled deck, validated.
        rounds: the :data:`ROUNDS` intermediate decks, 64-byte byte strings, unvalidated.
        challenges: one bit per round, drawn after the decks were published.
        responses: the shuffler's :func:`respond`, unvalidated.
        joint_key: ``Y``, a valid point, 32 bytes.

    Raises:
        ShuffleError: any failure: wrong counts, a bad permutation, a non-canonical or zero
            scalar, a card that does not match; its reason names the round.
    """
    n = len(deck_in)
    if len(deck_out) != n:
        raise ShuffleError(f"the shuffled deck has {len(deck_out)} cards, not {n}")
    if not len(rounds) == len(challenges) == len(responses) == ROUNDS:
        raise ShuffleError(f"a shuffle proof has {ROUNDS} rounds of decks, bits and responses")

    def job(k: int) -> Callable[[], None]:
        def check() -> None:
            reason = _check_round(
                deck_in, deck_out, rounds[k], challenges[k], responses[k], joint_key
            )
            if reason is not None:
                raise ShuffleError(f"round {k}: {reason}")

        return check

    _parallel([job(k) for k in range(ROUNDS)])


def decryption_base(ct: bytes) -> bytes:
    """``A`` of a ciphertext (64 bytes): the base every seat's decryption share is ``A·x_i`` of."""
    return ct[:POINT_BYTES]


def decrypt(ct: bytes, shares: Sequence[bytes]) -> bytes:
    """The card point ``M = B − Σ shares`` once every seat's share ``A·x_i`` is in.

    Args:
        ct: a validated ciphertext, 64 bytes.
        shares: every seat's decryption share, valid points (DLEQ-verified), 32 bytes each.

    Raises:
        GroupError: libsodium refuses.
    """
    m = ct[POINT_BYTES:]
    for share in shares:
        m = sub(m, share)
    return m
