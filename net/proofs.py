"""Non-interactive proofs for the deck: Schnorr key proofs and Chaum–Pedersen DLEQ proofs.

Both are Fiat–Shamir transforms over :mod:`hexlan.net.group` (PROTOCOL.md §13). A proof is
64 bytes: the challenge ``c`` (32) then the response ``z = k + c·x`` (32), both canonical
non-zero scalars. The nonce is deterministic, like Ed25519's:
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

from typing import Final

from hexlan.net.group import (
    SCALAR_BYTES,
    GroupError,
    base_mul,
    hash_to_scalar,
    is_point,
    is_scalar,
    mul,
    require_point,
    require_scalar,
    scalar_add,
    scalar_mul,
    sub,
)

PROOF_BYTES: Final = 2 * SCALAR_BYTES
"""Bytes in a proof: challenge ``c`` then response ``z``."""

NONCE_DOMAIN: Final = b"hexlan/v1/nonce\0"
KEY_DOMAIN: Final = b"hexlan/v1/key-proof\0"
DLEQ_DOMAIN: Final = b"hexlan/v1/dleq\0"


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
