"""Public keys no honest peer can have, as an attacker would offer them, for the tests of the key
checks (docs/PROTOCOL.md §1, §3, §8, §12; ``hexlan.net.identity.check_ed25519_public`` and
``check_x25519_public``).

A plain helper module: pytest puts ``tests/`` on ``sys.path`` (no ``__init__.py``, default import
mode), so the tests import it as ``weak_keys``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl import bindings as nb

from hexlan.net.identity import GameKeys, Identity
from hexlan.net.wire import PROTOCOL_VERSION, SIGNING_PREFIX, ZERO_ID

P = 2**255 - 19
"""The field prime of curve25519 and edwards25519."""


def le(n: int) -> bytes:
    """``n`` as 32 bytes little-endian: how both curves encode a coordinate."""
    return n.to_bytes(32, "little")


ED25519_IDENTITY = le(1)
"""The identity point of edwards25519 (y = 1, x = 0): ``01 00..00``."""

FORGED_SIGNATURE = ED25519_IDENTITY + bytes(32)
"""R = the identity, S = 0. Under the identity key A, ``[S]B = R + [k]A`` holds for every k, so
this one signature "verifies" every message (``cryptography`` accepts it)."""

_ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
_REAL_ED25519 = Identity(Ed25519PrivateKey.from_private_bytes(bytes(32))).public_bytes

WEAK_ED25519: dict[str, bytes] = {
    "the identity point": ED25519_IDENTITY,
    "order 2 (y = -1)": le(P - 1),
    "order 4 (y = 0)": le(0),
    "order 4 (y = 0, sign bit set)": le(1 << 255),
    "order 8": _ORDER_8,
    "order 8 (its negation)": bytes.fromhex(
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"
    ),
    "mixed order (a real key plus an order-8 point)": nb.crypto_core_ed25519_add(
        _REAL_ED25519, _ORDER_8
    ),
    "not on the curve (y = 2)": le(2),
    "on the curve, outside the prime-order group (y = 3)": le(3),
}
"""Canonical encodings of points that are no honest key: small order, mixed order, off curve."""

NON_CANONICAL_ED25519: dict[str, bytes] = {
    "y = p (0 + p)": le(P),
    "y = p + 1 (the identity + p)": le(P + 1),
    "y = 2^255 - 1": le(2**255 - 1),
    "y = p + 1, sign bit set": le(P + 1 + (1 << 255)),
}
"""Encodings with ``y >= 2^255-19``: another spelling of a point, never a key's."""

SMALL_ORDER_X25519: dict[str, bytes] = {
    "u = 0 (all zero)": le(0),
    "u = 1": le(1),
    "u = p - 1": le(P - 1),
    "order 8": le(325606250916557431795983626356110631294008115727848805560023387167927233504),
    "order 8 (the other)": le(
        39382357235489614581723060781553021112529911719440698176882885853963445705823
    ),
}
"""X25519 u-coordinates of small order: every key shares the all-zero secret with them."""

_REAL_X25519 = GameKeys.from_private_bytes(bytes(range(32))).public_bytes

NON_CANONICAL_X25519: dict[str, bytes] = {
    "u = p": le(P),
    "u = p + 1": le(P + 1),
    "u = 2^255 - 1": le(2**255 - 1),
    "a real key with the top bit set": le(int.from_bytes(_REAL_X25519, "little") | 1 << 255),
}
"""Encodings with ``u >= 2^255-19`` or the top bit set (RFC 7748 would reduce them silently)."""


def raw_lobby_envelope(
    kind: str, payload: list[Any], *, key: Identity | None = None, signature: bytes | None = None
) -> bytes:
    """A lobby envelope built by hand (``Body`` refuses weak keys, so an attacker's cannot be
    built through it): signed by ``key``, or carrying ``signature`` as it is."""
    body = msgpack.packb([PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, [], kind, payload])
    if signature is None:
        assert key is not None
        signature = key.sign(SIGNING_PREFIX + body)
    data: bytes = msgpack.packb([body, signature])
    return data


T = TypeVar("T")


def unchecked(cls: type[T], **values: Any) -> T:
    """A frozen dataclass instance built around its checks (``__post_init__`` never runs): what
    a bug or a careless caller could hand to code that trusts its type."""
    obj = object.__new__(cls)
    for field in fields(cls):  # type: ignore[arg-type]
        object.__setattr__(obj, field.name, values[field.name])
    return obj
