"""The ed25519 group wrapper (net/group.py): points, scalars, hashing into the group, streams.

Spec: docs/PROTOCOL.md §13. Scalar arithmetic is checked against Python integers mod ℓ, the
stream against its formula recomputed with :mod:`hashlib` alone.
"""

from __future__ import annotations

import hashlib

import nacl.exceptions
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.net.group import (
    GROUP_ORDER,
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
    require_point,
    require_scalar,
    scalar_add,
    scalar_from_bytes,
    scalar_mul,
    scalar_neg,
    scalar_sub,
    sub,
)

L = GROUP_ORDER


def sc(n: int) -> bytes:
    """The scalar ``n mod ℓ`` as bytes."""
    return (n % L).to_bytes(SCALAR_BYTES, "little")


G = base_mul(sc(1))
IDENTITY = b"\x01" + bytes(31)
"""The identity's encoding (y = 1): libsodium never calls it a valid point."""
ORDER_TWO = b"\xec" + b"\xff" * 30 + b"\x7f"
"""(0, -1), the point of order 2."""
NON_CANONICAL = b"\xee" + b"\xff" * 30 + b"\x7f"
"""y = p + 1: a non-canonical encoding of the identity's y."""

INVALID_POINTS = [
    pytest.param(bytes(32), id="zeros"),
    pytest.param(IDENTITY, id="identity"),
    pytest.param(ORDER_TWO, id="small-order"),
    pytest.param(NON_CANONICAL, id="non-canonical"),
    pytest.param(add(G, ORDER_TWO), id="outside-subgroup"),
    pytest.param(G[:31], id="short"),
    pytest.param(G + b"\0", id="long"),
]

scalars = st.integers(1, L - 1)


def test_the_order_is_the_subgroups() -> None:
    assert add(base_mul(sc(L - 1)), base_mul(sc(2))) == G
    assert add(mul(sc(L - 1), G), G) == IDENTITY


def test_valid_points() -> None:
    assert is_point(G)
    assert is_point(base_mul(sc(12345)))
    assert require_point(G, "G") == G


@pytest.mark.parametrize("data", INVALID_POINTS)
def test_invalid_points_are_refused(data: bytes) -> None:
    assert not is_point(data)
    with pytest.raises(GroupError, match="the share is not a point of the group") as info:
        require_point(data, "the share")
    assert info.value.reason == "the share is not a point of the group"


@pytest.mark.parametrize("data", [None, "x" * 32, bytearray(G), 7])
def test_non_bytes_are_not_points(data: object) -> None:
    assert not is_point(data)


def test_libsodium_failures_become_group_errors() -> None:
    with pytest.raises(GroupError):
        base_mul(bytes(32))
    with pytest.raises(GroupError):
        mul(bytes(32), G)
    for bad in (ORDER_TWO, NON_CANONICAL, bytes(32), add(G, ORDER_TWO)):
        with pytest.raises(GroupError) as info:
            mul(sc(3), bad)
        assert not isinstance(info.value, nacl.exceptions.CryptoError)


def test_add_does_not_validate() -> None:
    """Why peer points are validated first: libsodium adds 32 zero bytes without complaint."""
    assert add(bytes(32), bytes(32)) == ORDER_TWO
    assert not is_point(add(G, ORDER_TWO))


@settings(max_examples=40)
@given(a=scalars, b=scalars)
def test_group_law_matches_integers(a: int, b: int) -> None:
    ga, gb = base_mul(sc(a)), base_mul(sc(b))
    if (a + b) % L:
        assert add(ga, gb) == base_mul(sc(a + b))
    if (a - b) % L:
        assert sub(ga, gb) == base_mul(sc(a - b))
    assert mul(sc(b), ga) == base_mul(sc(a * b)) == mul(sc(a), gb)


@settings(max_examples=100)
@given(a=st.integers(0, L - 1), b=st.integers(0, L - 1))
def test_scalar_arithmetic_matches_integers(a: int, b: int) -> None:
    assert scalar_add(sc(a), sc(b)) == sc(a + b)
    assert scalar_sub(sc(a), sc(b)) == sc(a - b)
    assert scalar_mul(sc(a), sc(b)) == sc(a * b)
    assert scalar_neg(sc(a)) == sc(-a)


@settings(max_examples=50)
@given(data=st.binary(min_size=64, max_size=64))
def test_scalar_from_bytes_reduces(data: bytes) -> None:
    assert scalar_from_bytes(data) == sc(int.from_bytes(data, "little"))


@pytest.mark.parametrize("data", [bytes(32), bytes(63), b"x" * 65])
def test_scalar_from_bytes_needs_64_bytes(data: bytes) -> None:
    with pytest.raises(GroupError):
        scalar_from_bytes(data)


def test_canonical_non_zero_scalars() -> None:
    assert is_scalar(sc(1))
    assert is_scalar(sc(L - 1))
    assert require_scalar(sc(5), "z") == sc(5)
    bad = [bytes(32), L.to_bytes(32, "little"), (L + 5).to_bytes(32, "little"), sc(5)[:31], None]
    for data in bad:
        assert not is_scalar(data)
    with pytest.raises(GroupError, match="z is not a canonical non-zero scalar"):
        require_scalar(L.to_bytes(32, "little"), "z")


def test_hash_to_scalar_frames_each_part() -> None:
    expected = hashlib.sha512(b"dom" + b"\0\0\0\x02ab" + b"\0\0\0\x01c").digest()
    assert hash_to_scalar(b"dom", b"ab", b"c") == sc(int.from_bytes(expected, "little"))
    assert hash_to_scalar(b"dom", b"ab", b"c") != hash_to_scalar(b"dom", b"a", b"bc")
    assert hash_to_scalar(b"dom", b"ab") != hash_to_scalar(b"dom2", b"ab")
    assert hash_to_scalar(b"dom") == sc(int.from_bytes(hashlib.sha512(b"dom").digest(), "little"))


def test_hash_to_point_lands_in_the_subgroup() -> None:
    points = {hash_to_point(b"test\0", i.to_bytes(2, "big")) for i in range(64)}
    assert len(points) == 64
    for point in points:
        assert is_point(point)
        assert add(mul(sc(L - 1), point), point) == IDENTITY  # ℓ·P is the identity
    assert hash_to_point(b"a", b"bc") == hash_to_point(b"a", b"bc")
    assert hash_to_point(b"a", b"bc") != hash_to_point(b"b", b"bc")


def _stream_bytes(seed: bytes, label: bytes, blocks: int) -> bytes:
    prefix = b"hexlan/v1/stream\0" + seed + len(label).to_bytes(4, "big") + label
    return b"".join(hashlib.sha512(prefix + i.to_bytes(8, "big")).digest() for i in range(blocks))


def test_stream_follows_its_formula() -> None:
    seed = bytes(range(32))
    raw = _stream_bytes(seed, b"lbl", 8)
    stream = ScalarStream(seed, b"lbl")
    assert stream.scalar() == sc(int.from_bytes(raw[:64], "little"))
    # randbelow reads 4-byte big-endian words after the scalar's 64 bytes; k = 3·2^30 rejects
    # every word >= 3·2^30 (a quarter of them), so the rejection path is exercised too.
    k = 3 * 2**30
    words = [int.from_bytes(raw[i : i + 4], "big") for i in range(64, len(raw), 4)]
    accepted, rejected = [], 0
    for v in words:
        if len(accepted) == 20:
            break
        if v < k:
            accepted.append(v % k)
        else:
            rejected += 1
    assert rejected
    assert [stream.randbelow(k) for _ in range(20)] == accepted


def test_streams_are_deterministic_and_separated() -> None:
    def draw(seed: bytes, label: bytes) -> tuple[bytes, int, bytes]:
        stream = ScalarStream(seed, label)
        return stream.scalar(), stream.randbelow(1000), stream.scalar()

    assert draw(bytes(32), b"a") == draw(bytes(32), b"a")
    assert draw(bytes(32), b"a") != draw(bytes(32), b"b")
    assert draw(bytes(32), b"a") != draw(b"\1" * 32, b"a")
    assert ScalarStream(bytes(32), b"a\0").scalar() != ScalarStream(bytes(32), b"a").scalar()


def test_stream_scalars_are_canonical_and_non_zero() -> None:
    stream = ScalarStream(bytes(32), b"many")
    assert all(is_scalar(stream.scalar()) for _ in range(200))


def test_randbelow_bounds() -> None:
    stream = ScalarStream(bytes(32), b"bounds")
    assert stream.randbelow(1) == 0
    assert 0 <= stream.randbelow(2**32) < 2**32
    for k in (0, 2**32 + 1, -1):
        with pytest.raises(ValueError, match="randbelow"):
            stream.randbelow(k)


@pytest.mark.parametrize("seed", [bytes(31), bytes(33), "x" * 32])
def test_stream_seed_is_32_bytes(seed: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        ScalarStream(seed, b"x")
