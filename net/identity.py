"""Identities: a player's Ed25519 key, its fingerprint, and per-game X25519 keys.

A player is an Ed25519 key pair, kept as an unencrypted PKCS#8 PEM file (mode 0600) in the user
data directory unless ``--identity PATH`` names another; its **fingerprint**, shown in lobbies, is
the first 8 bytes of SHA-256 of the raw public key in four hex groups. Each seat also makes one
X25519 key pair per game for private steals (docs/PROTOCOL.md sections 1 and 7).

Sans-IO apart from :meth:`Identity.load_or_create`, which touches only the file it is given.

>>> fingerprint(bytes(32))
'6668-7aad-f862-bd77'
>>> me = Identity.generate()
>>> len(me.public_bytes), len(me.sign(b"hello"))
(32, 64)
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Final, Self

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl import bindings as _sodium
from nacl.exceptions import CryptoError

from hexlan.net.files import write_new_file

__all__ = [
    "FINGERPRINT_LENGTH",
    "GameKeys",
    "Identity",
    "IdentityError",
    "WeakKeyError",
    "check_ed25519_public",
    "check_x25519_public",
    "default_identity_path",
    "fingerprint",
]

FINGERPRINT_LENGTH: Final = 19
"""Characters in a fingerprint: 16 hex digits in four groups, e.g. ``3f9a-01c2-77de-b410``."""

_P: Final = 2**255 - 19
"""The field prime of curve25519 and edwards25519."""
_PROBE_SCALAR: Final = bytes.fromhex(
    "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"
)
"""A fixed X25519 scalar (RFC 7748's first test scalar): multiplying a point by it (clamped, a
multiple of 8) gives the all-zero output exactly when the point has small order."""

_RAW: Final = serialization.Encoding.Raw
_RAW_PUBLIC: Final = serialization.PublicFormat.Raw
_RAW_PRIVATE: Final = serialization.PrivateFormat.Raw


class IdentityError(ValueError):
    """An identity file or key that cannot be used (it is never overwritten)."""


class WeakKeyError(IdentityError):
    """A peer's public key that must not be accepted: malformed, non-canonical, or weak (small
    order), so that a signature or a shared secret under it would prove nothing.

    ``reason`` says which, in words (e.g. for a refusal or a stopped game).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _short(key: object) -> str:
    return key.hex()[:16] + "…" if isinstance(key, bytes) else repr(key)[:40]


@functools.lru_cache(maxsize=256)
def _ed25519_problem(key: bytes) -> str | None:
    if int.from_bytes(key, "little") & ((1 << 255) - 1) >= _P:
        return f"Ed25519 public key {_short(key)} is not canonical (its y is not below 2^255-19)"
    if not _sodium.crypto_core_ed25519_is_valid_point(key):
        return (
            f"Ed25519 public key {_short(key)} is weak: a small-order point (the identity "
            "among them, under which one signature verifies every message), a point outside "
            "the prime-order group, or no curve point"
        )
    return None


def check_ed25519_public(key: object) -> None:
    """Refuse an Ed25519 identity key that no honest key pair can have.

    Every raw Ed25519 public key the protocol accepts goes through here (PROTOCOL.md §1): a
    ``hello``'s key, every seat of an opening, the keys a signature is verified under
    (envelopes and link proofs). Rejected: anything but 32 bytes; a non-canonical encoding
    (``y >= 2^255-19``); and, by libsodium's ``crypto_core_ed25519_is_valid_point``, a
    small-order point (the identity ``01 00..00`` among them, under which the fixed signature
    ``01 00..00 || 00..00`` verifies every message), a point of mixed order, or one off the
    curve. A real key ``a·B`` always passes.

    Args:
        key: the raw 32-byte public key, as ``hello`` and the opening carry it.

    Raises:
        WeakKeyError: the key is malformed, non-canonical or weak; ``reason`` says which.

    >>> check_ed25519_public(Identity.generate().public_bytes)
    >>> check_ed25519_public(bytes([1]) + bytes(31))
    Traceback (most recent call last):
    hexlan.net.identity.WeakKeyError: Ed25519 public key 0100000000000000… is weak: a small-order point (the identity among them, under which one signature verifies every message), a point outside the prime-order group, or no curve point
    """
    if not isinstance(key, bytes) or len(key) != 32:
        raise WeakKeyError(f"an Ed25519 public key is 32 bytes, not {_short(key)}")
    problem = _ed25519_problem(key)
    if problem is not None:
        raise WeakKeyError(problem)


@functools.lru_cache(maxsize=256)
def _x25519_problem(key: bytes) -> str | None:
    if int.from_bytes(key, "little") >= _P:
        return (
            f"X25519 public key {_short(key)} is not canonical (u is not below 2^255-19, or its "
            "top bit is set)"
        )
    try:
        _sodium.crypto_scalarmult(_PROBE_SCALAR, key)
    except (RuntimeError, CryptoError):  # libsodium refuses a small-order point (all-zero result)
        return (
            f"X25519 public key {_short(key)} has small order: it gives no shared secret "
            "(the same all-zero one with every key)"
        )
    return None


def check_x25519_public(key: object) -> None:
    """Refuse an X25519 game key that gives no private shared secret (PROTOCOL.md §1, §7).

    Every seat's X25519 key goes through here: in its ``hello`` and in the opening. Rejected:
    anything but 32 bytes; a non-canonical encoding (``u >= 2^255-19`` or the top bit set,
    which RFC 7748 would silently reduce); and a point of small order (u = 0, 1, 2^255-20 and
    the two order-8 points, which libsodium's ``crypto_scalarmult`` refuses because every key
    would share the all-zero secret with them). A key made by :class:`GameKeys` always passes.

    Args:
        key: the raw 32-byte public key (little-endian u).

    Raises:
        WeakKeyError: the key is malformed, non-canonical or of small order; ``reason`` says
            which.

    >>> check_x25519_public(GameKeys.generate().public_bytes)
    >>> check_x25519_public(bytes(32))
    Traceback (most recent call last):
    hexlan.net.identity.WeakKeyError: X25519 public key 0000000000000000… has small order: it gives no shared secret (the same all-zero one with every key)
    """
    if not isinstance(key, bytes) or len(key) != 32:
        raise WeakKeyError(f"an X25519 public key is 32 bytes, not {_short(key)}")
    problem = _x25519_problem(key)
    if problem is not None:
        raise WeakKeyError(problem)


def fingerprint(public_key: bytes) -> str:
    """The fingerprint of a raw 32-byte Ed25519 public key (docs/PROTOCOL.md section 1).

    The first 8 bytes of SHA-256 of the key as lowercase hex in four groups of four.

    Raises:
        ValueError: ``public_key`` is not 32 bytes.

    >>> fingerprint(bytes(range(32)))
    '630d-cd29-66c4-3366'
    """
    if not isinstance(public_key, bytes) or len(public_key) != 32:
        raise ValueError(f"a public key is 32 bytes, not {public_key!r}")
    digest = hashlib.sha256(public_key).hexdigest()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


def default_identity_path() -> Path:
    """Where ``hexlan`` keeps the player's identity: ``user_data_dir("hexlan")/identity.pem``."""
    import platformdirs  # noqa: PLC0415 - only the CLI needs it, and only here

    return Path(platformdirs.user_data_dir("hexlan")) / "identity.pem"


class Identity:
    """A player's long-term Ed25519 key (docs/PROTOCOL.md section 1).

    Attributes:
        private_key: the key itself (never logged; ``repr`` shows only the fingerprint).
        public_bytes: the raw 32-byte public key, as it appears in ``hello`` and the opening.
        fingerprint: :func:`fingerprint` of ``public_bytes``.
    """

    __slots__ = ("fingerprint", "private_key", "public_bytes")

    private_key: Ed25519PrivateKey
    public_bytes: bytes
    fingerprint: str

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        if not isinstance(private_key, Ed25519PrivateKey):
            raise TypeError(f"an identity is an Ed25519 private key, not {type(private_key)!r}")
        self.private_key = private_key
        self.public_bytes = private_key.public_key().public_bytes(_RAW, _RAW_PUBLIC)
        self.fingerprint = fingerprint(self.public_bytes)

    def __repr__(self) -> str:
        return f"Identity(fingerprint={self.fingerprint!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Identity):
            return NotImplemented
        return self.public_bytes == other.public_bytes

    def __hash__(self) -> int:
        return hash(self.public_bytes)

    @classmethod
    def generate(cls) -> Self:
        """A fresh random identity (a bot's, or a first run's)."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, data: bytes, *, source: str = "identity") -> Self:
        """An identity from unencrypted PKCS#8 PEM bytes.

        Raises:
            IdentityError: not an unencrypted Ed25519 private key in PEM form; the message names
                ``source``.
        """
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
            raise IdentityError(
                f"{source} is not an unencrypted Ed25519 private key in PEM form ({exc})"
            ) from exc
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(
                f"{source} holds a {type(key).__name__.removeprefix('_')}, not an Ed25519 key"
            )
        return cls(key)

    def to_pem(self) -> bytes:
        """The key as unencrypted PKCS#8 PEM (what :meth:`load_or_create` writes)."""
        return self.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    @classmethod
    def load_or_create(cls, path: Path) -> Self:
        """The identity stored at ``path``, creating a new one there if no file exists.

        A new file is written atomically with mode 0600: a temporary file opened with
        ``O_CREAT | O_EXCL`` and mode 0600, written and fsynced, then linked into place without
        replacing anything (if another process created ``path`` meanwhile, its key wins and is
        returned). Missing parent directories are created (mode 0700).

        Raises:
            IdentityError: ``path`` exists but is not an unencrypted Ed25519 PEM private key; the
                file is left untouched.
            OSError: the file or its directory cannot be read or written.
        """
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            pass
        else:
            return cls.from_pem(data, source=f"identity file {str(path)!r}")
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        identity = cls.generate()
        if write_new_file(path, identity.to_pem()):
            return identity
        return cls.from_pem(path.read_bytes(), source=f"identity file {str(path)!r}")

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data`` (callers add the domain prefix)."""
        return self.private_key.sign(data)


class GameKeys:
    """A seat's X25519 key pair for one game's private steals (docs/PROTOCOL.md section 7).

    The public half goes into ``hello`` and the opening; the private half lives only in the
    log's secrets file (:attr:`private_bytes`, restored by :meth:`from_private_bytes`).
    """

    __slots__ = ("private_key", "public_bytes")

    private_key: X25519PrivateKey
    public_bytes: bytes

    def __init__(self, private_key: X25519PrivateKey) -> None:
        if not isinstance(private_key, X25519PrivateKey):
            raise TypeError(f"game keys are an X25519 private key, not {type(private_key)!r}")
        self.private_key = private_key
        self.public_bytes = private_key.public_key().public_bytes(_RAW, _RAW_PUBLIC)

    def __repr__(self) -> str:
        return f"GameKeys(public={self.public_bytes.hex()[:16]}…)"

    @classmethod
    def generate(cls) -> Self:
        """A fresh X25519 key pair."""
        return cls(X25519PrivateKey.generate())

    @classmethod
    def from_private_bytes(cls, data: bytes) -> Self:
        """Keys from the 32 raw private bytes kept in the secrets file.

        Raises:
            IdentityError: ``data`` is not 32 bytes.
        """
        if not isinstance(data, bytes) or len(data) != 32:
            raise IdentityError(f"an X25519 private key is 32 bytes, not {len(data)}")
        return cls(X25519PrivateKey.from_private_bytes(data))

    @property
    def private_bytes(self) -> bytes:
        """The 32 raw private bytes (for the secrets file only)."""
        return self.private_key.private_bytes(_RAW, _RAW_PRIVATE, serialization.NoEncryption())

    def exchange(self, peer_public: bytes) -> bytes:
        """The X25519 shared secret with another seat's 32-byte public key.

        Raises:
            WeakKeyError: ``peer_public`` fails :func:`check_x25519_public` (not 32 bytes,
                non-canonical, or of small order).
            IdentityError: no shared secret for another reason.
        """
        check_x25519_public(peer_public)
        assert isinstance(peer_public, bytes)
        try:
            return self.private_key.exchange(X25519PublicKey.from_public_bytes(peer_public))
        except ValueError as exc:
            raise IdentityError(f"unusable X25519 public key {peer_public.hex()}: {exc}") from exc
