"""Identities (docs/PROTOCOL.md section 1): the key file (PKCS#8 PEM, mode 0600, created
atomically, never overwritten), fingerprints, and per-game X25519 keys (section 7)."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from weak_keys import (
    ED25519_IDENTITY,
    FORGED_SIGNATURE,
    NON_CANONICAL_ED25519,
    NON_CANONICAL_X25519,
    SMALL_ORDER_X25519,
    WEAK_ED25519,
)

from hexlan.net.files import write_new_file
from hexlan.net.identity import (
    GameKeys,
    Identity,
    IdentityError,
    WeakKeyError,
    check_ed25519_public,
    check_x25519_public,
    default_identity_path,
    fingerprint,
)

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def test_fingerprint_format() -> None:
    me = Identity.generate()
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", me.fingerprint)
    assert me.fingerprint == fingerprint(me.public_bytes)
    # First 8 bytes of SHA-256 of the raw key: SHA-256(32 zero bytes) = 66687aad f862bd77 ...
    assert fingerprint(bytes(32)) == "6668-7aad-f862-bd77"
    with pytest.raises(ValueError):
        fingerprint(bytes(31))


def test_identity_signs_with_its_key() -> None:
    me = Identity.generate()
    assert len(me.public_bytes) == 32
    signature = me.sign(b"hexlan")
    Ed25519PublicKey.from_public_bytes(me.public_bytes).verify(signature, b"hexlan")
    assert me.private_key.sign(b"hexlan") == signature
    assert me.fingerprint in repr(me)
    assert "PRIVATE" not in repr(me)
    assert Identity(me.private_key) == me and hash(Identity(me.private_key)) == hash(me)
    assert Identity.generate() != me


@posix_only
def test_load_or_create_writes_0600_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "identity.pem"
    created = Identity.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700 & ~_umask()
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    reloaded = Identity.load_or_create(path)
    assert reloaded.public_bytes == created.public_bytes
    assert reloaded.sign(b"x") == created.sign(b"x")
    assert sorted(p.name for p in path.parent.iterdir()) == ["identity.pem"]  # no temp files


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_load_reads_a_key_made_elsewhere(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    path = tmp_path / "id.pem"
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    assert Identity.load_or_create(path) == Identity(key)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "not an unencrypted Ed25519 private key"),
        (b"garbage\n", "not an unencrypted Ed25519 private key"),
        (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "not an unencrypted"),
        (
            ec.generate_private_key(ec.SECP256R1()).private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            ),
            "not an Ed25519 key",
        ),
        (
            Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.BestAvailableEncryption(b"secret"),
            ),
            "not an unencrypted",
        ),
    ],
)
def test_a_bad_file_is_an_error_and_never_overwritten(
    tmp_path: Path, content: bytes, words: str
) -> None:
    path = tmp_path / "identity.pem"
    path.write_bytes(content)
    with pytest.raises(IdentityError, match=words) as info:
        Identity.load_or_create(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert path.read_bytes() == content


def test_a_file_that_appears_meanwhile_wins(tmp_path: Path) -> None:
    """Creation never replaces a file: if another process wrote one first, that key is used."""
    path = tmp_path / "identity.pem"
    theirs = Identity.generate()
    path.write_bytes(theirs.to_pem())
    assert not write_new_file(path, Identity.generate().to_pem())
    assert Identity.load_or_create(path) == theirs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["identity.pem"]


def test_pem_round_trip() -> None:
    me = Identity.generate()
    assert Identity.from_pem(me.to_pem()) == me


def test_default_identity_path() -> None:
    path = default_identity_path()
    assert path.name == "identity.pem"
    assert "hexlan" in path.parent.name.lower() or "hexlan" in str(path.parent).lower()


def test_game_keys() -> None:
    mine, theirs = GameKeys.generate(), GameKeys.generate()
    assert len(mine.public_bytes) == len(mine.private_bytes) == 32
    restored = GameKeys.from_private_bytes(mine.private_bytes)
    assert restored.public_bytes == mine.public_bytes
    shared = mine.exchange(theirs.public_bytes)
    assert shared == theirs.exchange(mine.public_bytes) and len(shared) == 32
    assert mine.private_bytes.hex() not in repr(mine)
    with pytest.raises(IdentityError):
        GameKeys.from_private_bytes(bytes(31))
    with pytest.raises(IdentityError):
        mine.exchange(bytes(33))
    with pytest.raises(IdentityError):
        mine.exchange(bytes(32))  # a low-order point: no shared secret


# ------------------------------------------------------------------------------ weak keys


def test_the_identity_point_key_lets_one_signature_verify_everything() -> None:
    """The attack the key check stops: ``cryptography`` accepts the identity point as a key,
    and under it one fixed signature verifies any two messages."""
    key = Ed25519PublicKey.from_public_bytes(ED25519_IDENTITY)
    key.verify(FORGED_SIGNATURE, b"hexlan/v1/message\0one message")
    key.verify(FORGED_SIGNATURE, b"hexlan/v1/message\0quite another")
    with pytest.raises(WeakKeyError, match="is weak: a small-order point"):
        check_ed25519_public(ED25519_IDENTITY)


@pytest.mark.parametrize("key", WEAK_ED25519.values(), ids=WEAK_ED25519.keys())
def test_weak_ed25519_keys_are_refused(key: bytes) -> None:
    with pytest.raises(WeakKeyError, match=f"Ed25519 public key {key.hex()[:16]}… is weak"):
        check_ed25519_public(key)


@pytest.mark.parametrize("key", NON_CANONICAL_ED25519.values(), ids=NON_CANONICAL_ED25519.keys())
def test_non_canonical_ed25519_keys_are_refused(key: bytes) -> None:
    with pytest.raises(WeakKeyError, match=r"is not canonical \(its y is not below 2\^255-19\)"):
        check_ed25519_public(key)


@pytest.mark.parametrize("key", SMALL_ORDER_X25519.values(), ids=SMALL_ORDER_X25519.keys())
def test_small_order_x25519_keys_are_refused(key: bytes) -> None:
    with pytest.raises(WeakKeyError, match="has small order: it gives no shared secret"):
        check_x25519_public(key)
    with pytest.raises(WeakKeyError, match="has small order"):
        GameKeys.generate().exchange(key)


@pytest.mark.parametrize("key", NON_CANONICAL_X25519.values(), ids=NON_CANONICAL_X25519.keys())
def test_non_canonical_x25519_keys_are_refused(key: bytes) -> None:
    with pytest.raises(WeakKeyError, match="is not canonical"):
        check_x25519_public(key)
    with pytest.raises(WeakKeyError, match="is not canonical"):
        GameKeys.generate().exchange(key)


def test_real_keys_pass_and_malformed_ones_are_refused() -> None:
    for _ in range(50):
        check_ed25519_public(Identity.generate().public_bytes)
        check_x25519_public(GameKeys.generate().public_bytes)
    for bad in (b"", bytes(31), bytes(33), "01" * 32, None):
        with pytest.raises(WeakKeyError, match="is 32 bytes"):
            check_ed25519_public(bad)
        with pytest.raises(WeakKeyError, match="is 32 bytes"):
            check_x25519_public(bad)
    assert issubclass(WeakKeyError, IdentityError)
