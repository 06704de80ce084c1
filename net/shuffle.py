"""ElGamal decks, re-encryption and the Terelius–Wikström proof of a shuffle (PROTOCOL.md §13).

A card is a point ``M`` (:func:`card_point`); under the joint key ``Y`` its ciphertext is 64
bytes ``A || B`` with ``A = G·r`` and ``B = M + Y·r``. A deck is a list of ciphertexts, on the
wire one string of 64·n bytes (:func:`pack_deck`, :func:`unpack_deck`).

A seat shuffles by permuting and re-encrypting every card (Barnett–Smart) and proves it with the
proof of a shuffle of Terelius and Wikström (Africacrypt 2010), in the step-by-step form of
Haenni, Locher, Koenig and Dubuis ("Pseudo-Code Algorithms for Verifiable Re-Encryption
Mix-Nets", FC 2017), written additively for the prime-order group of edwards25519 and made
non-interactive by Fiat–Shamir with full-size challenges (scalars mod ℓ). The seat commits to its
permutation with Pedersen commitments under generators nobody knows the logarithms of
(:func:`commitment_generators`), then proves in one sigma protocol that the committed matrix is a
permutation (its columns sum to the generators' sum; the product of the challenges it permutes is
the product of the challenges, through a chain of commitments) and that the output is the input,
so permuted, re-encrypted. A check costs about 8n variable-base scalar multiplications.

Sans-IO and deterministic: the shuffle's permutation, re-encryption scalars and commitment
randomness come from a :class:`ScalarStream` of the seat's shuffle seed, and the proof's nonces
from a stream of the same seed bound to the whole statement, so a restarted seat re-creates its
shuffle and proof byte for byte, no nonce ever answers two challenges, and the end-of-game audit
can recompute the shuffle.

>>> key = base_mul((5).to_bytes(32, "little"))
>>> deck = initial_deck([card_point(b"doc", i) for i in range(3)], key)
>>> commitment, secret = shuffle_deck(deck, key, bytes(32), b"doc")
>>> proof = prove_shuffle(deck, commitment, secret, key, b"context")
>>> verify_shuffle(deck, commitment.output, proof, key, b"context")
"""

from __future__ import annotations

import functools
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
    hash_to_scalar,
    is_point,
    is_scalar,
    mul,
    scalar_add,
    scalar_mul,
    sub,
)

CIPHERTEXT_BYTES: Final = 2 * POINT_BYTES
"""Bytes in a ciphertext ``A || B``."""

MAX_CARDS: Final = 256
"""The largest deck a shuffle takes (the wire's ``MAX_DECK`` is lower)."""

CARD_DOMAIN: Final = b"hexlan/v1/card-point\0"
GENERATOR_DOMAIN: Final = b"hexlan/v1/shuffle-generator\0"
STATEMENT_DOMAIN: Final = b"hexlan/v1/shuffle-statement\0"
PERMUTED_DOMAIN: Final = b"hexlan/v1/shuffle-u\0"
CHALLENGE_DOMAIN: Final = b"hexlan/v1/shuffle-challenge\0"

RESPONSE_SCALARS: Final = 4
"""Scalars of a proof's responses besides the two per card: ``s1 .. s4``."""

_ONE: Final = (1).to_bytes(SCALAR_BYTES, "little")
_ZERO: Final = bytes(SCALAR_BYTES)
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
        reason: what is wrong, e.g. ``"the challenge does not match the commitments"``.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def card_point(label: bytes, index: int) -> bytes:
    """The message point of card ``index`` of deck ``label``: nobody knows its discrete log.

    ``hash_to_point(b"hexlan/v1/card-point\\0", label || b"\\0" || u32(index))``.
    """
    return hash_to_point(CARD_DOMAIN, label + b"\0" + index.to_bytes(4, "big"))


@functools.cache
def commitment_generators(n: int) -> tuple[bytes, tuple[bytes, ...]]:
    """``(h, (h_0 .. h_{n-1}))``: the generators of the proof's commitments besides ``G``.

    ``h = hash_to_point(b"hexlan/v1/shuffle-generator\\0", b"chain")`` and
    ``h_j = hash_to_point(b"hexlan/v1/shuffle-generator\\0", u32(j))``: points nobody knows a
    relation between, nor with ``G``, so the Pedersen commitments under them are binding.
    """
    chain = hash_to_point(GENERATOR_DOMAIN, b"chain")
    return chain, tuple(hash_to_point(GENERATOR_DOMAIN, j.to_bytes(4, "big")) for j in range(n))


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


def _split(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def unpack_deck(data: bytes, n: int) -> list[bytes]:
    """The ``n`` ciphertexts of a received deck, every ``A`` and ``B`` checked to be a point.

    This is the one validation of a deck from a peer; the rest of the module trusts its
    result. :func:`~hexlan.net.group.is_point` refuses the identity, small-order points and
    every point off the prime-order subgroup (a valid card plus a point of small order).

    Args:
        data: 64·n bytes.
        n: the number of cards.

    Raises:
        GroupError: wrong length, or a card whose ``A`` or ``B`` is not a point of the group.
    """
    if not isinstance(data, bytes) or len(data) != CIPHERTEXT_BYTES * n:
        raise GroupError(f"a deck of {n} cards is {CIPHERTEXT_BYTES * n} bytes")
    deck = _split(data, CIPHERTEXT_BYTES)
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


def _sum(points: Sequence[bytes]) -> bytes:
    """``Σ points`` (at least one, valid or computed points)."""
    total = points[0]
    for p in points[1:]:
        total = add(total, p)
    return total


def _products(scalars: Sequence[bytes], points: Sequence[bytes]) -> Callable[[], list[bytes]]:
    """A job computing ``[P_j·k_j]``."""
    return lambda: [mul(k, p) for k, p in zip(scalars, points, strict=True)]


def _linear(scalars: Sequence[bytes], points: Sequence[bytes]) -> Callable[[], list[bytes]]:
    """A job computing ``[Σ_j P_j·k_j]`` (one point, in a list as :func:`_products` gives)."""
    products = _products(scalars, points)
    return lambda: [_sum(products())]


@dataclass(frozen=True)
class ShuffleSecret:
    """What a shuffler keeps: its shuffle and the randomness of its proof's commitments.

    Attributes:
        perm: output card ``j`` is input card ``perm[j]``.
        rands: ``r_j``, the scalar re-encrypting output card ``j`` (32 bytes each).
        commit_rands: ``ρ_i``, the randomness of the permutation commitment ``c_i``.
        chain_rands: ``ρ̂_j``, the randomness of the chain commitment ``ĉ_j``.
        chain_bases: ``G·ρ̂_j``, computed with the draw.
        stream_seed: the 32-byte shuffle seed, from which the proof's nonces are drawn.
        label: the stream label (the deck's label).
    """

    perm: list[int]
    rands: list[bytes]
    commit_rands: list[bytes]
    chain_rands: list[bytes]
    chain_bases: list[bytes]
    stream_seed: bytes
    label: bytes


@dataclass(frozen=True)
class ShuffleCommitment:
    """What a shuffler publishes: its output, and the commitment to its permutation.

    Attributes:
        output: the shuffled deck (64-byte ciphertexts).
        permutation: ``c_i = G·ρ_i + h_{perm⁻¹[i]}`` per input card ``i`` (32-byte points),
            published in the proof.
    """

    output: list[bytes]
    permutation: list[bytes]


@dataclass(frozen=True)
class ShuffleDraw:
    """A shuffle drawn from its stream before its input deck is known: the permutation, the
    scalars (:class:`ShuffleSecret`), the re-encryption masks and the permutation commitment.

    A mask is ``G·r || Y·r`` (64 bytes), what :func:`reencrypt` adds to a ciphertext; it needs
    only the joint key, not the deck, so a seat computes its masks while the seats before it
    shuffle, and its own shuffle is then two point additions per card (:func:`apply_shuffle`).

    Attributes:
        secret: the shuffle's permutation and scalars.
        masks: per output position ``j``, the mask of ``r_j``.
        permutation: the permutation commitment (:class:`ShuffleCommitment`).
    """

    secret: ShuffleSecret
    masks: list[bytes]
    permutation: list[bytes]


def draw_shuffle(n: int, joint_key: bytes, seed: bytes, label: bytes) -> ShuffleDraw:
    """Draw a shuffle of ``n`` cards and compute its masks and permutation commitment.

    Every value comes from ``ScalarStream(seed, label)``, drawn in this order: ``perm``
    (:func:`sample_permutation`), ``r_0 .. r_{n-1}``, ``ρ_0 .. ρ_{n-1}``, ``ρ̂_0 .. ρ̂_{n-1}``.

    Args:
        n: the number of cards, 1..256.
        joint_key: ``Y``, a valid point, 32 bytes.
        seed: the seat's 32-byte shuffle seed (``derive_shuffle_seed``).
        label: separates this shuffle's stream from others of the same seed; holds no NUL.

    Raises:
        ValueError: not 1..256 cards, or a seed that is not 32 bytes.
    """
    if not 1 <= n <= MAX_CARDS:
        raise ValueError(f"a deck has 1..{MAX_CARDS} cards, got {n}")
    stream = ScalarStream(seed, label)
    perm = sample_permutation(stream, n)
    rands, commit_rands, chain_rands = ([stream.scalar() for _ in range(n)] for _ in range(3))
    _, generators = commitment_generators(n)
    position = [0] * n  # position[i]: the output position of input card i
    for j, i in enumerate(perm):
        position[i] = j
    masks, permutation, chain_bases = _parallel(
        [
            lambda: [base_mul(k) + mul(k, joint_key) for k in rands],
            lambda: [add(base_mul(k), generators[position[i]]) for i, k in enumerate(commit_rands)],
            lambda: [base_mul(k) for k in chain_rands],
        ]
    )
    secret = ShuffleSecret(perm, rands, commit_rands, chain_rands, chain_bases, seed, label)
    return ShuffleDraw(secret, masks, permutation)


def apply_shuffle(
    deck: Sequence[bytes], drawn: ShuffleDraw
) -> tuple[ShuffleCommitment, ShuffleSecret]:
    """Shuffle and re-encrypt ``deck`` with a drawn shuffle: ``output[j] = deck[perm[j]]`` plus
    the mask of ``r_j``, the same bytes as ``reencrypt(deck[perm[j]], Y, r_j)``.

    Args:
        deck: the current deck, validated ciphertexts of 64 bytes.
        drawn: from :func:`draw_shuffle` for ``len(deck)`` cards.

    Raises:
        ValueError: ``drawn`` is for another number of cards.
    """
    secret = drawn.secret
    if len(secret.perm) != len(deck):
        raise ValueError(f"a shuffle drawn for {len(secret.perm)} cards, not {len(deck)}")
    output = []
    for p, m in zip(secret.perm, drawn.masks, strict=True):
        ct = deck[p]
        output.append(
            add(ct[:POINT_BYTES], m[:POINT_BYTES]) + add(ct[POINT_BYTES:], m[POINT_BYTES:])
        )
    return ShuffleCommitment(output, drawn.permutation), secret


def shuffle_deck(
    deck: Sequence[bytes], joint_key: bytes, seed: bytes, label: bytes
) -> tuple[ShuffleCommitment, ShuffleSecret]:
    """Shuffle and re-encrypt ``deck``: :func:`apply_shuffle` of :func:`draw_shuffle` (see there
    for the order of the draws).

    Args:
        deck: the current deck, validated ciphertexts of 64 bytes (1..256).
        joint_key: ``Y``, a valid point, 32 bytes.
        seed: the seat's 32-byte shuffle seed (``derive_shuffle_seed``).
        label: separates this shuffle's stream from others of the same seed.

    Raises:
        ValueError: not 1..256 cards, or a seed that is not 32 bytes.
    """
    return apply_shuffle(deck, draw_shuffle(len(deck), joint_key, seed, label))


@dataclass(frozen=True)
class ShuffleProof:
    """A Terelius–Wikström proof of a shuffle (PROTOCOL.md §13.6), in the compact form: the
    verifier recomputes the commitments ``t`` from the challenge and the responses.

    Attributes:
        permutation: ``c_0 .. c_{n-1}``, the commitment to the permutation (points).
        chain: ``ĉ_0 .. ĉ_{n-1}``, the chain of commitments to the permuted challenges (points).
        challenge: ``c``, a scalar.
        responses: ``s1, s2, s3, s4, ŝ_0 .. ŝ_{n-1}, s'_0 .. s'_{n-1}`` (scalars).
    """

    permutation: list[bytes]
    chain: list[bytes]
    challenge: bytes
    responses: list[bytes]

    def pack(self) -> tuple[bytes, bytes, bytes, bytes]:
        """The wire form: ``(permutation, chain, challenge, responses)``, each concatenated:
        32·n, 32·n, 32 and 32·(2n + 4) bytes."""
        return (
            b"".join(self.permutation),
            b"".join(self.chain),
            self.challenge,
            b"".join(self.responses),
        )

    @classmethod
    def unpack(cls, fields: Sequence[object], n: int) -> ShuffleProof:
        """A received proof of a shuffle of ``n`` cards, every point and scalar checked.

        Args:
            fields: ``(permutation, chain, challenge, responses)`` as :meth:`pack` gives them.
            n: the number of cards.

        Raises:
            ShuffleError: a wrong size, a commitment that is not a point of the prime-order
                group (:func:`~hexlan.net.group.is_point`: no identity, no small-order part),
                or a scalar that is not canonical and non-zero.
        """
        sizes = (POINT_BYTES * n, POINT_BYTES * n, SCALAR_BYTES, SCALAR_BYTES * (2 * n + 4))
        if len(fields) != len(sizes) or any(
            not isinstance(data, bytes) or len(data) != size
            for data, size in zip(fields, sizes, strict=True)
        ):
            raise ShuffleError(f"a proof of {n} cards has parts of {list(sizes)} bytes")
        permutation_data, chain_data, challenge, response_data = fields
        assert isinstance(permutation_data, bytes) and isinstance(chain_data, bytes)
        assert isinstance(challenge, bytes) and isinstance(response_data, bytes)
        permutation = _split(permutation_data, POINT_BYTES)
        chain = _split(chain_data, POINT_BYTES)
        responses = _split(response_data, SCALAR_BYTES)
        for what, points in (("permutation commitment", permutation), ("chain", chain)):
            for j, p in enumerate(points):
                if not is_point(p):
                    raise ShuffleError(f"{what} {j} is not a point of the group")
        if not is_scalar(challenge):
            raise ShuffleError("the challenge is not a canonical non-zero scalar")
        for j, k in enumerate(responses):
            if not is_scalar(k):
                raise ShuffleError(f"response {j} is not a canonical non-zero scalar")
        return cls(permutation, chain, challenge, responses)


def _statement(
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    permutation: Sequence[bytes],
    joint_key: bytes,
    context: bytes,
) -> tuple[bytes, list[bytes]]:
    """The statement digest ``d`` and the challenges ``u_0 .. u_{n-1}`` (one per input card)."""
    digest = hash_to_scalar(
        STATEMENT_DOMAIN,
        context,
        joint_key,
        b"".join(deck_in),
        b"".join(deck_out),
        b"".join(permutation),
    )
    u = [hash_to_scalar(PERMUTED_DOMAIN, digest, i.to_bytes(4, "big")) for i in range(len(deck_in))]
    return digest, u


def _challenge(digest: bytes, chain: Sequence[bytes], t: Sequence[bytes]) -> bytes:
    """``c = hash_to_scalar(challenge domain, d, ĉ_0 || ... , t1, t2, t3, t4A, t4B, t̂_0 || ...)``;
    ``t`` is ``[t1, t2, t3, t4A, t4B, t̂_0, ..., t̂_{n-1}]``."""
    return hash_to_scalar(CHALLENGE_DOMAIN, digest, b"".join(chain), *t[:5], b"".join(t[5:]))


def _halves(deck: Sequence[bytes]) -> tuple[list[bytes], list[bytes]]:
    return [ct[:POINT_BYTES] for ct in deck], [ct[POINT_BYTES:] for ct in deck]


def prove_shuffle(
    deck_in: Sequence[bytes],
    commitment: ShuffleCommitment,
    secret: ShuffleSecret,
    joint_key: bytes,
    context: bytes,
) -> ShuffleProof:
    """Prove that ``commitment.output`` is ``deck_in`` permuted by ``secret.perm`` and
    re-encrypted with ``secret.rands`` (PROTOCOL.md §13.6 gives every formula).

    The nonces come from ``ScalarStream(secret.stream_seed, label || 0x00 || d)``, ``d`` the
    statement digest, drawn in the order ``ω1 .. ω4``, ``ω̂_0 .. ω̂_{n-1}``, ``ω'_0 ..
    ω'_{n-1}``: deterministic, and fresh for every statement.

    Args:
        deck_in: the deck shuffled (64-byte ciphertexts).
        commitment: the shuffle's output and permutation commitment (:func:`apply_shuffle`).
        secret: its secret.
        joint_key: ``Y``, a valid point.
        context: binds the proof to its game, deck, seat and challenge event.

    Raises:
        GroupError: libsodium refuses (a product that is the identity: never in practice).
    """
    n = len(deck_in)
    h, generators = commitment_generators(n)
    perm, output = secret.perm, commitment.output
    digest, u = _statement(deck_in, output, commitment.permutation, joint_key, context)
    u_out = [u[i] for i in perm]  # u'_j: the challenge of output card j's input card
    chain, previous = [], h
    for base, k in zip(secret.chain_bases, u_out, strict=True):
        previous = add(base, mul(k, previous))
        chain.append(previous)
    nonces = ScalarStream(secret.stream_seed, secret.label + b"\0" + digest)
    w1, w2, w3, w4 = (nonces.scalar() for _ in range(4))
    w_hat = [nonces.scalar() for _ in range(n)]
    w_out = [nonces.scalar() for _ in range(n)]
    out_a, out_b = _halves(output)
    (t3_sum,), (t4_a,), (t4_b,), t_hat_products = _parallel(
        [
            _linear(w_out, generators),
            _linear(w_out, out_a),
            _linear(w_out, out_b),
            _products(w_out, [h, *chain[:-1]]),
        ]
    )
    t = [
        base_mul(w1),
        base_mul(w2),
        add(base_mul(w3), t3_sum),
        sub(t4_a, base_mul(w4)),
        sub(t4_b, mul(w4, joint_key)),
        *(add(base_mul(k), p) for k, p in zip(w_hat, t_hat_products, strict=True)),
    ]
    c = _challenge(digest, chain, t)
    # The witnesses: Σρ_i, the chain's ρ̂, Σρ_i·u_i, Σ r_j·u'_j.
    rho_sum = rho_u = chain_total = r_u = _ZERO
    for rho, ui in zip(secret.commit_rands, u, strict=True):
        rho_sum = scalar_add(rho_sum, rho)
        rho_u = scalar_add(rho_u, scalar_mul(rho, ui))
    for rho_hat, r, uj in zip(secret.chain_rands, secret.rands, u_out, strict=True):
        chain_total = scalar_add(rho_hat, scalar_mul(uj, chain_total))
        r_u = scalar_add(r_u, scalar_mul(r, uj))

    def respond(w: bytes, x: bytes) -> bytes:
        return scalar_add(w, scalar_mul(c, x))

    responses = [
        respond(w1, rho_sum),
        respond(w2, chain_total),
        respond(w3, rho_u),
        respond(w4, r_u),
        *(respond(w, x) for w, x in zip(w_hat, secret.chain_rands, strict=True)),
        *(respond(w, x) for w, x in zip(w_out, u_out, strict=True)),
    ]
    return ShuffleProof(list(commitment.permutation), chain, c, responses)


def verify_shuffle(
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    proof: ShuffleProof,
    joint_key: bytes,
    context: bytes,
) -> None:
    """Check a shuffle proof: ``deck_out`` is a permutation and re-encryption of ``deck_in``.

    Recomputes the commitments ``t`` from the challenge and the responses (PROTOCOL.md §13.6)
    and requires the challenge to be their hash. Every point the proof holds was validated by
    :meth:`ShuffleProof.unpack` and the decks by :func:`unpack_deck`, so every sum is of points
    of the prime-order group: no part of small order can cancel out.

    perf: 8n variable-base scalar multiplications (``u_i·c_i``, ``u_i·A_i``, ``u_i·B_i``,
    ``s'_j·h_j``, ``s'_j·A'_j``, ``s'_j·B'_j``, ``s'_j·ĉ_{j-1}``, ``c·ĉ_j``), in a few worker
    threads (libsodium releases the GIL), n base multiplications and about 10n additions.

    Args:
        deck_in: the deck before the shuffle, validated (:func:`unpack_deck`).
        deck_out: the shuffled deck, validated, as many cards.
        proof: the shuffler's proof, validated (:meth:`ShuffleProof.unpack`) for as many cards.
        joint_key: ``Y``, a valid point, 32 bytes.
        context: what the prover bound the proof to.

    Raises:
        ShuffleError: wrong counts, or a proof that does not verify.
    """
    n = len(deck_in)
    if not len(deck_out) == len(proof.permutation) == len(proof.chain) == n:
        raise ShuffleError(f"the decks and the proof are not all of {n} cards")
    if len(proof.responses) != 2 * n + RESPONSE_SCALARS:
        raise ShuffleError(f"a proof of {n} cards has {2 * n + RESPONSE_SCALARS} responses")
    h, generators = commitment_generators(n)
    digest, u = _statement(deck_in, deck_out, proof.permutation, joint_key, context)
    c, chain = proof.challenge, proof.chain
    s1, s2, s3, s4 = proof.responses[:RESPONSE_SCALARS]
    s_hat = proof.responses[RESPONSE_SCALARS : RESPONSE_SCALARS + n]
    s_out = proof.responses[RESPONSE_SCALARS + n :]
    in_a, in_b = _halves(deck_in)
    out_a, out_b = _halves(deck_out)
    try:
        (c_tilde,), (e_a,), (e_b,), (t3_sum,), (t4_a,), (t4_b,), hat_products, chain_c = _parallel(
            [
                _linear(u, proof.permutation),
                _linear(u, in_a),
                _linear(u, in_b),
                _linear(s_out, generators),
                _linear(s_out, out_a),
                _linear(s_out, out_b),
                _products(s_out, [h, *chain[:-1]]),
                _products([c] * n, chain),
            ]
        )
        u_product = u[0]
        for k in u[1:]:
            u_product = scalar_mul(u_product, k)
        c_bar = sub(_sum(proof.permutation), _sum(generators))
        c_hat = sub(chain[-1], mul(u_product, h))
        t = [
            sub(base_mul(s1), mul(c, c_bar)),
            sub(base_mul(s2), mul(c, c_hat)),
            sub(add(base_mul(s3), t3_sum), mul(c, c_tilde)),
            sub(sub(t4_a, base_mul(s4)), mul(c, e_a)),
            sub(sub(t4_b, mul(s4, joint_key)), mul(c, e_b)),
            *(
                sub(add(base_mul(k), p), q)
                for k, p, q in zip(s_hat, hat_products, chain_c, strict=True)
            ),
        ]
    except GroupError as exc:
        raise ShuffleError(f"the proof does not verify: {exc.reason}") from exc
    if _challenge(digest, chain, t) != c:
        raise ShuffleError("the challenge is not the hash of the recomputed commitments")


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
