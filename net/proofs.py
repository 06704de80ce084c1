"""Non-interactive proofs for the deck: Schnorr key proofs, Chaum–Pedersen DLEQ proofs, their
disjunction (one of several DLEQ statements holds, not saying which), and the proof that a card
held by one seat was re-encrypted to another (a linear-relation Schnorr proof).

All are Fiat–Shamir transforms over :mod:`hexlan.net.group` (PROTOCOL.md §13). A proof is
64 bytes: the challenge ``c`` (32) then the response ``z = k + c·x`` (32), both canonical
non-zero scalars; a disjunctive proof is one such pair per statement; a re-encryption proof is
96 bytes, ``c || z1 || z2``. The nonce is deterministic, like Ed25519's:
``k = hash_to_scalar(b"hexlan/v1/nonce\\0", domain, secret, context, public inputs)``, so a peer
that restarts proves the same statement with the same bytes and never reuses a nonce for two
statements.

``context`` binds a proof to one use and is chosen by the caller: the game id, the seat, the
deck label, the card position (:mod:`hexlan.net.deck` defines the ones the deck uses). A proof
verifies only under the context it was made for.

Verifiers never raise on peer data: wrong lengths, invalid points, non-canonical or zero
scalars and libsodium failures all make them return ``False``.

>>> x = (7).to_bytes(32, "little")
>>> share, proof = prove_key(x, b"doc")
>>> verify_key(share, proof, b"doc"), verify_key(share, proof, b"other")
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hexlan.net.group import (
    SCALAR_BYTES,
    GroupError,
    add,
    base_mul,
    hash_to_scalar,
    is_point,
    is_scalar,
    mul,
    require_point,
    require_scalar,
    scalar_add,
    scalar_mul,
    scalar_sub,
    sub,
)

PROOF_BYTES: Final = 2 * SCALAR_BYTES
"""Bytes in a proof: challenge ``c`` then response ``z``."""

NONCE_DOMAIN: Final = b"hexlan/v1/nonce\0"
KEY_DOMAIN: Final = b"hexlan/v1/key-proof\0"
DLEQ_DOMAIN: Final = b"hexlan/v1/dleq\0"
SHOW_DOMAIN: Final = b"hexlan/v1/show\0"
REENCRYPT_DOMAIN: Final = b"hexlan/v1/reencrypt\0"

REENCRYPTION_PROOF_BYTES: Final = 3 * SCALAR_BYTES
"""Bytes in a re-encryption proof: challenge ``c`` then responses ``z1`` and ``z2``."""

_MAX_BRANCHES: Final = 0xFFFF  # branch indices are two bytes in the nonce derivation


def _split(proof: object) -> tuple[bytes, bytes] | None:
    if not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        return None
    c, z = proof[:SCALAR_BYTES], proof[SCALAR_BYTES:]
    return (c, z) if is_scalar(c) and is_scalar(z) else None


def prove_key(secret: bytes, context: bytes) -> tuple[bytes, bytes]:
    """A key share ``Y = G·x`` and a Schnorr proof that its owner knows ``x``.

    The proof stops rogue keys: nobody can publish a share derived from others' shares
    (e.g. ``Y' = G·a − Y_victim``) without knowing its discrete log.
    ``c = hash_to_scalar(b"hexlan/v1/key-proof\\0", context, Y, R)`` with ``R = G·k``.

    Args:
        secret: ``x``, a canonical non-zero scalar, 32 bytes.
        context: the caller's binding (e.g. game id and seat), any bytes.

    Returns:
        ``(Y, proof)``: 32 and 64 bytes.

    Raises:
        GroupError: ``secret`` is not a canonical non-zero scalar.
    """
    require_scalar(secret, "the secret")
    share = base_mul(secret)
    k = hash_to_scalar(NONCE_DOMAIN, KEY_DOMAIN, secret, context, share)
    c = hash_to_scalar(KEY_DOMAIN, context, share, base_mul(k))
    return share, c + scalar_add(k, scalar_mul(c, secret))


def verify_key(share: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``proof`` shows knowledge of ``log_G(share)`` under ``context``.

    Recomputes ``R' = G·z − Y·c`` and checks ``c == hash_to_scalar(domain, context, Y, R')``.

    Args:
        share: ``Y``, 32 bytes from a peer.
        proof: ``c || z``, 64 bytes from a peer.
        context: the context the proof was made for.

    Returns:
        ``False`` for anything wrong; never raises for peer data.
    """
    parts = _split(proof)
    if parts is None or not is_point(share):
        return False
    c, z = parts
    try:
        r = sub(base_mul(z), mul(c, share))
    except GroupError:
        return False
    return hash_to_scalar(KEY_DOMAIN, context, share, r) == c


def prove_dleq(secret: bytes, base: bytes, context: bytes) -> tuple[bytes, bytes]:
    """``D = base·x`` and a Chaum–Pedersen proof that ``log_base(D) == log_G(Y)``, ``Y = G·x``.

    ``c = hash_to_scalar(b"hexlan/v1/dleq\\0", context, Y, base, D, G·k, base·k)``.

    Args:
        secret: ``x``, a canonical non-zero scalar, 32 bytes.
        base: a valid point, 32 bytes (for the deck: the ``A`` of a ciphertext).
        context: the caller's binding (game id, deck label, seat, position), any bytes.

    Returns:
        ``(D, proof)``: 32 and 64 bytes.

    Raises:
        GroupError: ``secret`` is not a canonical non-zero scalar, or ``base`` is not a point.
    """
    require_scalar(secret, "the secret")
    require_point(base, "the base")
    public = base_mul(secret)
    share = mul(secret, base)
    k = hash_to_scalar(NONCE_DOMAIN, DLEQ_DOMAIN, secret, context, base)
    c = hash_to_scalar(DLEQ_DOMAIN, context, public, base, share, base_mul(k), mul(k, base))
    return share, c + scalar_add(k, scalar_mul(c, secret))


def verify_dleq(public: bytes, base: bytes, share: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``proof`` shows ``log_base(share) == log_G(public)`` under ``context``.

    Recomputes ``R1 = G·z − Y·c`` and ``R2 = base·z − D·c`` and the challenge from them.

    Args:
        public: ``Y``, the prover's key share, 32 bytes.
        base: the base point, 32 bytes (the caller's; validated again here).
        share: ``D``, 32 bytes from a peer.
        proof: ``c || z``, 64 bytes from a peer.
        context: the context the proof was made for.

    Returns:
        ``False`` for anything wrong; never raises for peer data.
    """
    parts = _split(proof)
    if parts is None or not (is_point(public) and is_point(base) and is_point(share)):
        return False
    c, z = parts
    try:
        r1 = sub(base_mul(z), mul(c, public))
        r2 = sub(mul(z, base), mul(c, share))
    except GroupError:
        return False
    return hash_to_scalar(DLEQ_DOMAIN, context, public, base, share, r1, r2) == c


def _branch_commitments(
    public: bytes, base: bytes, target: bytes, c: bytes, z: bytes
) -> tuple[bytes, bytes]:
    """``(G·z − Y·c, base·z − target·c)``: a branch's commitments recomputed from ``c, z``."""
    return sub(base_mul(z), mul(c, public)), sub(mul(z, base), mul(c, target))


def _any_challenge(
    public: bytes,
    statements: Sequence[tuple[bytes, bytes]],
    commitments: Sequence[tuple[bytes, bytes]],
    context: bytes,
) -> bytes:
    return hash_to_scalar(
        SHOW_DOMAIN,
        context,
        public,
        *(p for statement in statements for p in statement),
        *(r for pair in commitments for r in pair),
    )


def prove_dleq_any(
    secret: bytes, statements: Sequence[tuple[bytes, bytes]], real: int, context: bytes
) -> list[bytes]:
    """A disjunctive Chaum–Pedersen proof: for SOME ``j``, ``log_{A_j}(T_j) == log_G(Y)``.

    Cramer–Damgård–Schoenmakers OR-composition of :func:`prove_dleq` over the statements
    ``(A_j, T_j)``, ``j = 0 .. m−1``, of which ``statements[real]`` is true (``T = A·x``). The
    other branches are simulated: ``c_j = u(j, 1)``, ``z_j = u(j, 0)``, commitments
    ``R1_j = G·z_j − Y·c_j``, ``R2_j = A_j·z_j − T_j·c_j``; the real one takes ``k = u(real, 0)``,
    ``R1 = G·k``, ``R2 = A·k``. With
    ``c = hash_to_scalar(b"hexlan/v1/show\\0", context, Y, A_0, T_0, ..., R1_0, R2_0, ...)``
    its challenge is ``c_real = c − Σ_{j≠real} c_j`` and ``z_real = k + c_real·x``. The values
    ``u(j, t) = hash_to_scalar(b"hexlan/v1/nonce\\0", b"hexlan/v1/show\\0", x, context, A_0,
    T_0, ..., u16(real), u16(j), u8(t))`` are deterministic, so a restarted prover makes the
    same bytes, and no nonce serves two challenges.

    Every ``(c_j, z_j)`` is uniform whichever branch is real: the proof tells a verifier that
    one statement holds, not which.

    Args:
        secret: ``x``, a canonical non-zero scalar, 32 bytes.
        statements: ``(A_j, T_j)``, valid points, 1..65535 of them.
        real: the index of the true statement.
        context: the caller's binding, any bytes.

    Returns:
        ``c_j || z_j`` (64 bytes) for each statement, in order.

    Raises:
        GroupError: ``secret`` is not a canonical non-zero scalar, a point is invalid, or
            ``statements[real]`` is false.
        ValueError: no statements, too many, or ``real`` out of range.
    """
    require_scalar(secret, "the secret")
    if not 1 <= len(statements) <= _MAX_BRANCHES or not 0 <= real < len(statements):
        raise ValueError(f"a proof over {len(statements)} statements has no branch {real}")
    for base, target in statements:
        require_point(base, "a base")
        require_point(target, "a target")
    base, target = statements[real]
    if mul(secret, base) != target:
        raise GroupError(f"statement {real} does not hold for this secret")
    public = base_mul(secret)
    flat = [p for statement in statements for p in statement]

    def u(j: int, t: int) -> bytes:
        return hash_to_scalar(
            NONCE_DOMAIN,
            SHOW_DOMAIN,
            secret,
            context,
            *flat,
            real.to_bytes(2, "big"),
            j.to_bytes(2, "big"),
            bytes([t]),
        )

    k = u(real, 0)
    simulated = {j: (u(j, 1), u(j, 0)) for j in range(len(statements)) if j != real}
    commitments = [
        (base_mul(k), mul(k, a)) if j == real else _branch_commitments(public, a, t, *simulated[j])
        for j, (a, t) in enumerate(statements)
    ]
    c_real = _any_challenge(public, statements, commitments, context)
    for c_j, _ in simulated.values():
        c_real = scalar_sub(c_real, c_j)
    simulated[real] = (c_real, scalar_add(k, scalar_mul(c_real, secret)))
    return [simulated[j][0] + simulated[j][1] for j in range(len(statements))]


def verify_dleq_any(
    public: bytes,
    statements: Sequence[tuple[bytes, bytes]],
    proof: Sequence[bytes],
    context: bytes,
) -> bool:
    """Whether ``proof`` shows ``log_{A_j}(T_j) == log_G(public)`` for some statement ``j``.

    Recomputes ``R1_j = G·z_j − Y·c_j`` and ``R2_j = A_j·z_j − T_j·c_j`` for every branch and
    checks ``Σ c_j == hash_to_scalar(b"hexlan/v1/show\\0", context, Y, A_0, T_0, ..., R1_0,
    R2_0, ...)`` mod ``ℓ`` (see :func:`prove_dleq_any`).

    Args:
        public: ``Y``, the prover's key share, 32 bytes.
        statements: ``(A_j, T_j)`` (the caller's; validated again here).
        proof: one ``c_j || z_j`` (64 bytes, canonical non-zero scalars) per statement.
        context: the context the proof was made for.

    Returns:
        ``False`` for anything wrong; never raises for peer data.
    """
    if (
        not 1 <= len(statements) <= _MAX_BRANCHES
        or len(proof) != len(statements)
        or not is_point(public)
        or not all(is_point(a) and is_point(t) for a, t in statements)
    ):
        return False
    total = bytes(SCALAR_BYTES)
    commitments: list[tuple[bytes, bytes]] = []
    for (a, t), entry in zip(statements, proof, strict=True):
        parts = _split(entry)
        if parts is None:
            return False
        c_j, z_j = parts
        try:
            commitments.append(_branch_commitments(public, a, t, c_j, z_j))
        except GroupError:
            return False
        total = scalar_add(total, c_j)
    return _any_challenge(public, statements, commitments, context) == total


def _reencryption_commitments(
    statement: tuple[bytes, ...], c: bytes, z1: bytes, z2: bytes
) -> tuple[bytes, bytes, bytes]:
    """``(G·z1 − Y·c, G·z2 − A'·c, P·z2 − A·z1 − B'·c + B·c)``: the commitments recomputed
    from the statement ``(Y, A, B, P, A', B')``."""
    public, base, reduced, target, fresh_a, fresh_b = statement
    r1 = sub(base_mul(z1), mul(c, public))
    r2 = sub(base_mul(z2), mul(c, fresh_a))
    r3 = add(sub(sub(mul(z2, target), mul(z1, base)), mul(c, fresh_b)), mul(c, reduced))
    return r1, r2, r3


def _reencryption_challenge(
    statement: tuple[bytes, ...], commitments: tuple[bytes, bytes, bytes], context: bytes
) -> bytes:
    return hash_to_scalar(REENCRYPT_DOMAIN, context, *statement, *commitments)


def prove_reencryption(
    secret: bytes, r: bytes, base: bytes, reduced: bytes, target: bytes, context: bytes
) -> tuple[bytes, bytes, bytes]:
    """Re-encrypt a card held under one seat's key alone to another seat's key, with a proof.

    The card is ``(A, B)`` with ``M = B − A·x`` (``x`` the holder's secret, ``Y = G·x``). The
    result is ``(A', B') = (G·r, B − A·x + P·r)``, which only the holder of ``P``'s secret
    opens (``M = B' − A'·x_P``), and a proof of knowledge of ``(x, r)`` with
    ``Y = G·x``, ``A' = G·r`` and ``B' − B = P·r − A·x``: nonces
    ``k_t = hash_to_scalar(b"hexlan/v1/nonce\\0", b"hexlan/v1/reencrypt\\0", x, r, context,
    Y, A, B, P, A', B', u8(t))`` for ``t = 1, 2``; commitments ``R1 = G·k1``, ``R2 = G·k2``,
    ``R3 = P·k2 − A·k1``; ``c = hash_to_scalar(b"hexlan/v1/reencrypt\\0", context, Y, A, B, P,
    A', B', R1, R2, R3)``; ``z1 = k1 + c·x``, ``z2 = k2 + c·r`` (PROTOCOL.md §7.3).

    Args:
        secret: ``x``, the holder's secret, a canonical non-zero scalar, 32 bytes.
        r: the fresh randomness, a canonical non-zero scalar, 32 bytes.
        base: ``A``, a valid point.
        reduced: ``B``, a valid point (the card's ``B`` less every other seat's share).
        target: ``P``, the new holder's key share, a valid point.
        context: the caller's binding (game id, deck, seats, position), any bytes.

    Returns:
        ``(A', B', proof)``: 32, 32 and 96 bytes.

    Raises:
        GroupError: a scalar is not canonical and non-zero, a point is invalid, or a product
            is the identity (never, in practice).
    """
    require_scalar(secret, "the secret")
    require_scalar(r, "the randomness")
    for point, what in ((base, "A"), (reduced, "B"), (target, "the new holder's key")):
        require_point(point, what)
    public = base_mul(secret)
    fresh_a = base_mul(r)
    fresh_b = add(sub(reduced, mul(secret, base)), mul(r, target))
    statement = (public, base, reduced, target, fresh_a, fresh_b)
    k1, k2 = (
        hash_to_scalar(NONCE_DOMAIN, REENCRYPT_DOMAIN, secret, r, context, *statement, bytes([t]))
        for t in (1, 2)
    )
    commitments = (base_mul(k1), base_mul(k2), sub(mul(k2, target), mul(k1, base)))
    c = _reencryption_challenge(statement, commitments, context)
    z1 = scalar_add(k1, scalar_mul(c, secret))
    z2 = scalar_add(k2, scalar_mul(c, r))
    return fresh_a, fresh_b, c + z1 + z2


def verify_reencryption(
    public: bytes,
    base: bytes,
    reduced: bytes,
    target: bytes,
    fresh_a: bytes,
    fresh_b: bytes,
    proof: bytes,
    context: bytes,
) -> bool:
    """Whether ``(A', B')`` is the card ``(A, B)`` held under ``public`` re-encrypted to
    ``target``, by ``proof`` (see :func:`prove_reencryption`).

    Recomputes ``R1 = G·z1 − Y·c``, ``R2 = G·z2 − A'·c``, ``R3 = P·z2 − A·z1 − B'·c + B·c``
    and checks the challenge.

    Args:
        public: ``Y``, the holder's key share.
        base: ``A`` and ``reduced``: ``B`` of the card as held (the caller's).
        target: ``P``, the new holder's key share.
        fresh_a: ``A'`` and ``fresh_b``: ``B'``, 32 bytes each from a peer.
        proof: ``c || z1 || z2``, 96 bytes from a peer.
        context: the context the proof was made for.

    Returns:
        ``False`` for anything wrong (a wrong length, an invalid point, a non-canonical or zero
        scalar, a libsodium failure, a proof that does not hold); never raises for peer data.
    """
    if not isinstance(proof, bytes) or len(proof) != REENCRYPTION_PROOF_BYTES:
        return False
    c, z1, z2 = proof[:SCALAR_BYTES], proof[SCALAR_BYTES:-SCALAR_BYTES], proof[-SCALAR_BYTES:]
    points = (public, base, reduced, target, fresh_a, fresh_b)
    if not (all(is_point(p) for p in points) and is_scalar(c) and is_scalar(z1) and is_scalar(z2)):
        return False
    try:
        commitments = _reencryption_commitments(points, c, z1, z2)
    except GroupError:
        return False
    return _reencryption_challenge(points, commitments, context) == c
