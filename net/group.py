"""The prime-order ed25519 group for the mental-poker deck: points and scalars as bytes.

Every value is bytes: a point is its 32-byte canonical encoding, a scalar its 32-byte
little-endian integer below :data:`GROUP_ORDER`. All arithmetic is libsodium's
(``nacl.bindings``); nothing here does curve arithmetic of its own (PROTOCOL.md §13).

libsodium has no valid identity point: :func:`is_point` rejects the identity, small-order points,
points outside the prime-order subgroup and non-canonical encodings; a multiplication whose
result would be the identity (a zero scalar) fails. :func:`add` and :func:`sub` do not check
their inputs at all, so every point that came from a peer goes through :func:`require_point`
(or :func:`is_point`) once before it is used in arithmetic, and libsodium failures surface as
:class:`GroupError`, never as a ``nacl`` exception.

Sans-IO: the only randomness is :class:`ScalarStream`, a deterministic function of its seed.

>>> one = (1).to_bytes(SCALAR_BYTES, "little")
>>> two = scalar_add(one, one)
>>> add(base_mul(one), base_mul(one)) == base_mul(two)
True
>>> is_point(base_mul(two)), is_point(bytes(POINT_BYTES))
(True, False)
"""

from __future__ import annotations

import hashlib
from typing import Final

import nacl.exceptions
from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_is_valid_point,
    crypto_core_ed25519_scalar_add,
    crypto_core_ed25519_scalar_mul,
    crypto_core_ed25519_scalar_negate,
    crypto_core_ed25519_scalar_reduce,
    crypto_core_ed25519_scalar_sub,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)

from hexlan.net.beacon import sample_below

POINT_BYTES: Final = 32
"""Bytes in a point's canonical encoding."""

SCALAR_BYTES: Final = 32
"""Bytes in a scalar (little-endian, below :data:`GROUP_ORDER`)."""

WIDE_BYTES: Final = 64
"""Bytes :func:`scalar_from_bytes` reduces: wide enough that the result is uniform."""

GROUP_ORDER: Final = 2**252 + 27742317777372353535851937790883648493
"""``ℓ``, the order of the prime-order subgroup every valid point lies in."""

STREAM_PREFIX: Final = b"hexlan/v1/stream\0"

_WORD: Final = 4


class GroupError(ValueError):
    """A point or scalar that is not a valid group element, or libsodium refusing given data.

    Attributes:
        reason: what is wrong, in words.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def is_point(data: object) -> bool:
    """Whether ``data`` is 32 bytes encoding a point of the prime-order subgroup, not the identity.

    Never raises: anything that is not such bytes is simply not a point.
    """
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and crypto_core_ed25519_is_valid_point(data)
    )


def require_point(data: bytes, what: str) -> bytes:
    """``data`` itself if it :func:`is_point`.

    Args:
        data: a candidate point, 32 bytes.
        what: names the value in the error, e.g. ``"seat 2's key share"``.

    Raises:
        GroupError: ``f"{what} is not a point of the group"``.
    """
    if not is_point(data):
        raise GroupError(f"{what} is not a point of the group")
    return data


def base_mul(k: bytes) -> bytes:
    """``G·k`` for the standard base point ``G``.

    Args:
        k: a scalar, 32 bytes.

    Raises:
        GroupError: libsodium refuses (a zero scalar, whose product is the identity).
    """
    try:
        return crypto_scalarmult_ed25519_base_noclamp(k)
    except nacl.exceptions.RuntimeError as exc:
        raise GroupError("G times this scalar is not a point of the group") from exc


def mul(k: bytes, p: bytes) -> bytes:
    """``p·k``.

    Args:
        k: a scalar, 32 bytes.
        p: a point, 32 bytes (libsodium itself rejects one outside the group).

    Raises:
        GroupError: libsodium refuses (an invalid point, or a product that is the identity).
    """
    try:
        return crypto_scalarmult_ed25519_noclamp(k, p)
    except nacl.exceptions.RuntimeError as exc:
        raise GroupError("a point times a scalar is not a point of the group") from exc


def add(p: bytes, q: bytes) -> bytes:
    """``p + q`` (32 bytes each). Does not validate its inputs: validate peer points first.

    Raises:
        GroupError: libsodium refuses.
    """
    try:
        return crypto_core_ed25519_add(p, q)
    except nacl.exceptions.RuntimeError as exc:
        raise GroupError("the sum of two points failed") from exc


def sub(p: bytes, q: bytes) -> bytes:
    """``p − q`` (32 bytes each). Does not validate its inputs: validate peer points first.

    Raises:
        GroupError: libsodium refuses.
    """
    try:
        return crypto_core_ed25519_sub(p, q)
    except nacl.exceptions.RuntimeError as exc:
        raise GroupError("the difference of two points failed") from exc


def scalar_from_bytes(data: bytes) -> bytes:
    """``data`` (64 bytes, little-endian) reduced mod :data:`GROUP_ORDER`: a 32-byte scalar.

    Raises:
        GroupError: ``data`` is not 64 bytes.
    """
    if not isinstance(data, bytes) or len(data) != WIDE_BYTES:
        raise GroupError(f"a scalar is reduced from {WIDE_BYTES} bytes")
    return crypto_core_ed25519_scalar_reduce(data)


def scalar_add(a: bytes, b: bytes) -> bytes:
    """``a + b mod ℓ`` (32-byte scalars)."""
    return crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    """``a − b mod ℓ`` (32-byte scalars)."""
    return crypto_core_ed25519_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a · b mod ℓ`` (32-byte scalars)."""
    return crypto_core_ed25519_scalar_mul(a, b)


def scalar_neg(a: bytes) -> bytes:
    """``−a mod ℓ`` (a 32-byte scalar)."""
    return crypto_core_ed25519_scalar_negate(a)


def is_scalar(data: object) -> bool:
    """Whether ``data`` is a canonical non-zero scalar: 32 bytes, little-endian, in ``1 .. ℓ-1``.

    Never raises.
    """
    return (
        isinstance(data, bytes)
        and len(data) == SCALAR_BYTES
        and 0 < int.from_bytes(data, "little") < GROUP_ORDER
    )


def require_scalar(data: bytes, what: str) -> bytes:
    """``data`` itself if it :func:`is_scalar`.

    Raises:
        GroupError: ``f"{what} is not a canonical non-zero scalar"``.
    """
    if not is_scalar(data):
        raise GroupError(f"{what} is not a canonical non-zero scalar")
    return data


def _framed(domain: bytes, parts: tuple[bytes, ...]) -> bytes:
    return b"".join([domain, *(len(p).to_bytes(4, "big") + p for p in parts)])


def hash_to_scalar(domain: bytes, *parts: bytes) -> bytes:
    """``SHA-512(domain || u32(len(part)) || part || ...)`` reduced mod ``ℓ`` (Fiat–Shamir).

    Each part is prefixed by its 4-byte big-endian length, so no two part lists collide.
    The result is zero with probability about ``2**-252``: never, in practice.
    """
    return crypto_core_ed25519_scalar_reduce(hashlib.sha512(_framed(domain, parts)).digest())


def hash_to_point(domain: bytes, data: bytes) -> bytes:
    """``from_uniform(SHA-256(domain || data))``: a point nobody knows the discrete log of.

    libsodium's Elligator 2 map, cofactor-cleared: the result is in the prime-order subgroup.
    """
    return crypto_core_ed25519_from_uniform(hashlib.sha256(domain + data).digest())


class ScalarStream:
    """Deterministic randomness: scalars and bounded integers from a 32-byte seed and a label.

    The stream is ``S = block(0) || block(1) || ...`` with
    ``block(i) = SHA-512(b"hexlan/v1/stream\\0" || seed || u32(len(label)) || label || u64(i))``;
    draws consume it in call order (:meth:`scalar` 64 bytes, :meth:`randbelow` 4-byte words),
    so the same seed, label and calls give the same values. :meth:`randbelow` has the shape of
    :meth:`hexlan.net.beacon.BeaconStream.randbelow`, so a permutation sampler takes either.

    Args:
        seed: 32 secret bytes.
        label: separates streams drawn from one seed.

    Raises:
        ValueError: a seed that is not 32 bytes.

    >>> stream = ScalarStream(bytes(32), b"doc")
    >>> is_scalar(stream.scalar()), 0 <= stream.randbelow(6) < 6
    (True, True)
    """

    __slots__ = ("_block", "_buffer", "_prefix")

    def __init__(self, seed: bytes, label: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("a stream seed must be 32 bytes")
        self._prefix: Final = _framed(STREAM_PREFIX + seed, (label,))
        self._block = 0
        self._buffer = b""

    def _take(self, size: int) -> bytes:
        while len(self._buffer) < size:
            self._buffer += hashlib.sha512(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken

    def scalar(self) -> bytes:
        """The next 64 bytes reduced mod ``ℓ``; a zero result is dropped and drawn again."""
        while True:
            k = crypto_core_ed25519_scalar_reduce(self._take(WIDE_BYTES))
            if any(k):
                return k

    def randbelow(self, k: int) -> int:
        """A uniform integer in ``[0, k)``, by rejection sampling (as PROTOCOL.md §6 does).

        Takes 4-byte big-endian words from the stream (:func:`~hexlan.net.beacon.sample_below`).

        Raises:
            ValueError: ``k`` outside ``1 .. 2**32``.
        """
        return sample_below(k, lambda: int.from_bytes(self._take(_WORD), "big"))
