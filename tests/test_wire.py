"""The wire format (docs/PROTOCOL.md sections 2, 3, 5, 8, 13, 14): msgpack limits, signed
envelopes decoded from the bytes as received, payload schemas for every kind (the mental-poker deck
and the end-of-game audit included), the opening and its game id.

Every malformed input must raise :class:`MalformedMessage` (or :class:`VersionMismatch`) with a
reason, never any other exception: the fuzz tests feed random and mutated bytes to prove it.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import re
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from weak_keys import (
    ED25519_IDENTITY,
    FORGED_SIGNATURE,
    NON_CANONICAL_ED25519,
    NON_CANONICAL_X25519,
    SMALL_ORDER_X25519,
    WEAK_ED25519,
)

from hexlan.engine import actions as A
from hexlan.engine.core import Resource
from hexlan.engine.options import GameOptions
from hexlan.net.identity import GameKeys, Identity, fingerprint
from hexlan.net.wire import (
    GAME_KINDS,
    KINDS,
    LOBBY_KINDS,
    MAX_CARDS,
    MAX_DECK,
    MAX_DEPTH,
    MAX_ENVELOPE,
    PAYLOAD_SCHEMAS,
    PROTOCOL_VERSION,
    SIGNING_PREFIX,
    ZERO_ID,
    Body,
    Envelope,
    Equivocation,
    ForgedSignature,
    IllegalMove,
    LocalProtocolError,
    MalformedMessage,
    Opening,
    OutOfTurn,
    ProtocolError,
    RemoteProtocolError,
    SeatInfo,
    VersionMismatch,
    WrongGame,
    decode_action,
    encode_action,
    message_id,
    option_entries,
    pack,
    sign_body,
    unpack,
    validate_payload,
)

# Fixed keys, so that golden values (game id, message id) never change.
KEYS = [Ed25519PrivateKey.from_private_bytes(bytes([i + 1]) * 32) for i in range(6)]
PUBLIC = [Identity(k).public_bytes for k in KEYS]
XPUB = [GameKeys.from_private_bytes(bytes([i + 101]) * 32).public_bytes for i in range(6)]
"""Fixed X25519 public keys (an opening takes only real, canonical, full-order ones)."""


def h(tag: str) -> bytes:
    """A stand-in 32-byte hash or key, distinct per tag."""
    return hashlib.sha256(tag.encode()).digest()


def seat(i: int) -> SeatInfo:
    return SeatInfo(f"Seat {i}", PUBLIC[i], XPUB[i], h(f"c{i}"), f"10.0.0.{i + 1}", 47000 + i)


OPENING = Opening(
    protocol_version=PROTOCOL_VERSION,
    engine_version="0.1.0",
    seats=(seat(0), seat(1), seat(2)),
    options=(("largest_army", True), ("victory_points", 10)),
    board_kind="beginner",
    created=1_700_000_000,
)
GAME_ID = OPENING.game_id
HEADS = ((3, h("m0")), (-1, ZERO_ID), (7, h("m2")))
OTHER_VERSION = PROTOCOL_VERSION + 1
"""A protocol version this code does not speak."""

DECK_NAME = "development"
CARDS = 3  # cards in the example deck


def deck(tag: str, cards: int = CARDS) -> bytes:
    """A stand-in packed deck: ``cards`` ElGamal ciphertexts of 64 bytes (two 32-byte ed25519
    points each), distinct per tag."""
    return b"".join(h(f"{tag}/{i}") for i in range(2 * cards))


def shuffle_proof(cards: int = CARDS) -> tuple[bytes, bytes, bytes, bytes]:
    """A stand-in shuffle proof ``[permutation, chain, challenge, responses]``: 32 bytes per card
    twice, a 32-byte challenge and 2·cards + 4 scalars of 32 bytes."""
    return (
        b"".join(h(f"commitment {i}") for i in range(cards)),
        b"".join(h(f"chain {i}") for i in range(cards)),
        h("challenge"),
        b"".join(h(f"response {i}") for i in range(2 * cards + 4)),
    )


SHUFFLE_PROOF = shuffle_proof()
PROOF = h("challenge") + h("response")  # a Schnorr/Chaum-Pedersen proof: two scalars

# A valid payload for every kind: the round-trip tests run over all of them, and a new kind
# without an example fails test_every_kind_has_an_example.
VALID: dict[str, tuple[Any, ...]] = {
    "challenge": (PUBLIC[0], bytes(16)),
    "hello": ("Ann", PUBLIC[1], PROTOCOL_VERSION, "0.1.0", XPUB[1], h("c1"), 47001, bytes(16)),
    "refuse": (f"this table speaks hexlan protocol {PROTOCOL_VERSION}; you speak {OTHER_VERSION}",),
    "lobby_state": (4, (("Ann", PUBLIC[0], fingerprint(PUBLIC[0])),)),
    "start": (OPENING.to_payload(),),
    "link_hello": (GAME_ID, 2, bytes(16), HEADS),
    "link_proof": (bytes(64),),
    "watch": ("Eve", PUBLIC[2], PROTOCOL_VERSION, "0.1.0", bytes(16), HEADS),
    "catch_up": (HEADS,),
    "spectators": ((("Eve", PUBLIC[2], fingerprint(PUBLIC[2])),),),
    "rematch": (GAME_ID, PUBLIC[1], True, bytes(16)),
    "sign_opening": (OPENING.to_payload(),),
    "action": encode_action(A.MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE)),
    "advance": (),
    "reveal": (1, h("preimage")),
    "steal_commit": (5, (h("c0"), h("c1"), h("c2"))),
    "steal_open": (5, bytes(12), bytes(33)),
    "steal_dispute": (5, h("x25519 private")),
    "loot_open": (5, ((bytes(16), 2), (b"\x01" * 16, 0))),
    "hand_open": (5, bytes(12), bytes(16 + 17 * 3)),
    "merchant_take": (5, (2, 0)),
    "spy_open": (6, (("politics", 0, h("a0"), h("b0"), h("c") + h("z1") + h("z2")),)),
    "spy_take": (6, "politics", 0),
    "spy_dispute": (6, "politics", 0, h("share"), PROOF),
    "count": (9, 4),
    "turn_ack": (12, h("state"), (bytes(8), b"\x01" * 8)),
    "abandon": ((1,), HEADS, (("reveal", 7),)),
    "present": (h("vote"),),
    "accuse": (h("contested"), "seat 1: it cannot hold that card"),
    "deck_key": (h("key share"), PROOF),
    "shuffle": (DECK_NAME, deck("output")),
    "shuffle_proof": (DECK_NAME, *SHUFFLE_PROOF),
    "draw_share": (DECK_NAME, 0, h("draw share"), PROOF),
    "card_reveal": (DECK_NAME, 2, (0, 3, 7), (PROOF, PROOF, PROOF)),
    "audit_secrets": (h("seed"), h("x25519 private")),
    "audit_result": (
        h("digest"),
        ((2, h("message"), "seat 2 shuffled the development deck wrongly"), (-1, b"", "stalled")),
    ),
}


def body(kind: str, payload: Any = None, **changes: Any) -> Body:
    """A valid body of ``kind`` (lobby or game envelope as the kind needs), with changes."""
    fields: dict[str, Any] = {
        "version": PROTOCOL_VERSION,
        "game_id": GAME_ID,
        "author": 1,
        "seq": 4,
        "prev": h("prev"),
        "heads": HEADS,
        "kind": kind,
        "payload": VALID[kind] if payload is None else payload,
    }
    if kind in LOBBY_KINDS:
        fields.update(game_id=ZERO_ID, author=-1, seq=0, prev=ZERO_ID, heads=())
    if kind == "sign_opening":
        fields.update(seq=0, prev=ZERO_ID)
    fields.update(changes)
    return Body(**fields)


def raw_fields(b: Body) -> list[Any]:
    return [b.version, b.game_id, b.author, b.seq, b.prev, b.heads, b.kind, b.payload]


def raw_envelope(fields: Any, key: Ed25519PrivateKey = KEYS[1], *, trailing: bytes = b"") -> bytes:
    """An envelope around arbitrary body fields, correctly signed: only the body is wrong."""
    body_bytes = msgpack.packb(fields, use_bin_type=True) + trailing
    signature = key.sign(SIGNING_PREFIX + body_bytes)
    return msgpack.packb([body_bytes, signature], use_bin_type=True)


def reason_of(data: bytes) -> str:
    with pytest.raises(MalformedMessage) as info:
        Envelope.parse(data)
    return info.value.reason


# ------------------------------------------------------------------ errors


def test_error_hierarchy() -> None:
    for cls in (MalformedMessage, ForgedSignature, WrongGame, VersionMismatch):
        assert issubclass(cls, RemoteProtocolError)
    for cls in (OutOfTurn, IllegalMove, Equivocation):
        assert issubclass(cls, RemoteProtocolError)
    assert issubclass(RemoteProtocolError, ValueError)
    assert issubclass(RemoteProtocolError, ProtocolError)
    assert issubclass(LocalProtocolError, ProtocolError)
    assert not issubclass(LocalProtocolError, RemoteProtocolError)
    exc = OutOfTurn("seat 2 is not the active seat", author=2)
    assert (exc.reason, exc.author, str(exc)) == ("seat 2 is not the active seat", 2, exc.reason)
    assert MalformedMessage("x").author is None
    copy = pickle.loads(pickle.dumps(exc))
    assert (type(copy), copy.reason, copy.author) == (OutOfTurn, exc.reason, 2)


# ------------------------------------------------------------------ pack / unpack


def test_pack_plain_data_and_tuples_as_arrays() -> None:
    value = [1, -1, 2**64 - 1, -(2**63), b"\x00", "é", None, True, False, (1, (2,))]
    assert unpack(pack(value)) == [*value[:-1], [1, [2]]]
    assert pack((1, 2)) == pack([1, 2])


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (1.5, "floats"),
        ([1, [2.0]], "floats"),
        ({}, "maps"),
        ([{"a": 1}], "maps"),
        ({1, 2}, "set"),
        (2**64, "64 bits"),
        (-(2**63) - 1, "64 bits"),
        (msgpack.ExtType(1, b"x"), "ext"),
        (bytearray(b"x"), "bytearray"),
    ],
)
def test_pack_refuses_what_the_protocol_forbids(value: object, words: str) -> None:
    with pytest.raises(LocalProtocolError, match=words):
        pack(value)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "no bytes"),
        (b"\x92\x01", "truncated"),
        (b"\x01\x02", "1 trailing bytes"),
        (b"\xc1", "reserved"),
        (b"\xcb" + bytes(8), "floats"),
        (b"\xca" + bytes(4), "floats"),
        (b"\x91\xcb" + bytes(8), r"floats are not allowed \(at \[0\]\)"),
        (b"\x80", "maps"),
        (b"\x91\x80", "maps"),
        (b"\x81\x01\x02", "max_map_len"),
        (b"\xc7\x00\x05", "ext types"),
        (b"\xd4\x05\x00", "max_ext_len"),
        (b"\xd6\xff" + bytes(4), "max_ext_len"),  # a msgpack timestamp
        (b"\xa2\xff\xfe", "UTF-8"),
        (b"\x91" * 2000, "nest"),
        (b"\xda\x10\x01" + b"a" * 4097, "max_str_len"),
        (b"\xdc\x10\x01" + b"\xc0" * 4097, "max_array_len"),
        (b"\xc6\x00\x04\x00\x01" + bytes(256 * 1024 + 1), "max_bin_len"),
        (bytes(1024 * 1024 + 1), "decoding limit"),
    ],
)
def test_unpack_rejects_with_a_reason(data: bytes, words: str) -> None:
    with pytest.raises(MalformedMessage, match=words):
        unpack(data)


def test_unpack_depth_limit() -> None:
    deep = b"\x91" * (MAX_DEPTH - 1) + b"\x90"
    assert unpack(deep) is not None
    with pytest.raises(MalformedMessage, match="nest deeper"):
        unpack(b"\x91" + deep)


def test_unpack_takes_bytes_only() -> None:
    with pytest.raises(LocalProtocolError):
        unpack("\x90")  # type: ignore[arg-type]


# ------------------------------------------------------------------ bodies and envelopes


def test_every_kind_has_an_example() -> None:
    assert set(VALID) == KINDS == set(PAYLOAD_SCHEMAS) == LOBBY_KINDS | GAME_KINDS
    assert not LOBBY_KINDS & GAME_KINDS


@pytest.mark.parametrize("kind", sorted(VALID))
def test_round_trip_every_kind(kind: str) -> None:
    original = body(kind)
    envelope = sign_body(original, KEYS[1])
    data = envelope.to_bytes()
    parsed = Envelope.parse(data)
    assert parsed.body == original
    assert parsed.body_bytes == envelope.body_bytes == original.encode()
    assert parsed.signature == envelope.signature
    assert parsed.id == envelope.id == message_id(original.encode())
    assert parsed.to_bytes() == data
    parsed.verify(PUBLIC[1])
    assert len(data) <= MAX_ENVELOPE


def test_body_normalises_lists_to_tuples() -> None:
    listed = body("reveal", [1, h("p")], heads=[[3, h("m0")], [-1, ZERO_ID], [7, h("m2")]])
    assert listed == body("reveal", (1, h("p")))
    assert isinstance(listed.heads[0], tuple)
    assert body("count", (Resource.ORE, 2)).payload == (4, 2)
    assert type(body("count", (Resource.ORE, 2)).payload[0]) is int


def test_message_id_is_independent_of_the_signature() -> None:
    b = body("advance")
    one, other = sign_body(b, KEYS[1]), sign_body(b, KEYS[2])
    assert one.signature != other.signature
    assert one.to_bytes() != other.to_bytes()
    assert one.id == other.id == hashlib.sha256(b"hexlan/v1/id\0" + b.encode()).digest()


def test_signature_covers_the_prefixed_body() -> None:
    envelope = sign_body(body("advance"), KEYS[1])
    public = KEYS[1].public_key()
    public.verify(envelope.signature, SIGNING_PREFIX + envelope.body_bytes)


def test_sign_body_takes_an_identity() -> None:
    me = Identity(KEYS[1])
    assert sign_body(body("advance"), me) == sign_body(body("advance"), KEYS[1])


def test_body_is_decoded_from_the_bytes_as_received() -> None:
    """A non-canonical but valid encoding (seq as a uint32) keeps its bytes and its own id."""
    b = body("reveal")
    canonical = b.encode()
    parts = [msgpack.packb(f, use_bin_type=True) for f in raw_fields(b)]
    parts[3] = b"\xce" + b.seq.to_bytes(4, "big")
    odd = b"\x98" + b"".join(parts)
    assert odd != canonical and unpack(odd) == unpack(canonical)
    data = msgpack.packb([odd, KEYS[1].sign(SIGNING_PREFIX + odd)], use_bin_type=True)
    parsed = Envelope.parse(data)
    assert parsed.body == b
    assert parsed.body_bytes == odd
    assert parsed.id == message_id(odd) != message_id(canonical)
    parsed.verify(PUBLIC[1])
    # Re-encoding would change the bytes, so the signature is checked over what was received.
    with pytest.raises(ForgedSignature):
        Envelope(canonical, parsed.signature, b, message_id(canonical)).verify(PUBLIC[1])


def test_tampered_body_byte_is_a_forged_signature() -> None:
    envelope = sign_body(body("reveal", (1, h("preimage"))), KEYS[1])
    at = envelope.body_bytes.index(h("preimage"))
    tampered_body = bytearray(envelope.body_bytes)
    tampered_body[at] ^= 0x01
    data = msgpack.packb([bytes(tampered_body), envelope.signature], use_bin_type=True)
    parsed = Envelope.parse(data)  # still well-formed...
    with pytest.raises(ForgedSignature, match="does not verify") as info:
        parsed.verify(PUBLIC[1])  # ...but not what seat 1 signed
    assert info.value.author is None


def test_tampered_signature_byte_is_a_forged_signature() -> None:
    envelope = sign_body(body("advance"), KEYS[1])
    signature = bytearray(envelope.signature)
    signature[10] ^= 0x80
    parsed = Envelope.parse(
        msgpack.packb([envelope.body_bytes, bytes(signature)], use_bin_type=True)
    )
    with pytest.raises(ForgedSignature):
        parsed.verify(PUBLIC[1])


def test_signature_by_another_key_is_a_forged_signature() -> None:
    envelope = Envelope.parse(sign_body(body("advance"), KEYS[2]).to_bytes())
    envelope.verify(PUBLIC[2])
    with pytest.raises(ForgedSignature, match=fingerprint(PUBLIC[1])):
        envelope.verify(PUBLIC[1])


def test_verify_needs_a_32_byte_key() -> None:
    envelope = sign_body(body("advance"), KEYS[1])
    with pytest.raises(LocalProtocolError):
        envelope.verify(PUBLIC[1][:31])


def test_envelope_construction_is_checked() -> None:
    good = sign_body(body("advance"), KEYS[1])
    with pytest.raises(LocalProtocolError):
        Envelope(good.body_bytes, good.signature[:63], good.body, good.id)
    with pytest.raises(LocalProtocolError):
        Envelope(good.body_bytes, good.signature, good.body, h("other"))
    assert "advance" in repr(good) and good.body_bytes.hex() not in repr(good)


# ------------------------------------------------------------------ malformed envelopes


def test_version_mismatch_in_words() -> None:
    fields = raw_fields(body("advance"))
    fields[0] = OTHER_VERSION
    with pytest.raises(VersionMismatch) as info:
        Envelope.parse(raw_envelope(fields))
    assert info.value.reason == (
        f"this message speaks hexlan protocol {OTHER_VERSION}; this peer speaks {PROTOCOL_VERSION}"
    )
    assert info.value.version == OTHER_VERSION
    # An earlier version is refused the same way.
    fields[0] = PROTOCOL_VERSION - 1
    with pytest.raises(VersionMismatch, match=f"speaks hexlan protocol {PROTOCOL_VERSION - 1};"):
        Envelope.parse(raw_envelope(fields))
    # A future version may change the body's whole shape: the version is read first.
    with pytest.raises(VersionMismatch):
        Envelope.parse(raw_envelope([PROTOCOL_VERSION + 2, "anything"]))
    fields[0] = str(PROTOCOL_VERSION)
    assert "version" in reason_of(raw_envelope(fields))


def envelope_with(**changes: Any) -> bytes:
    """A signed envelope whose body fields are those of a valid ``reveal`` with changes."""
    fields = raw_fields(body("reveal"))
    names = ["version", "game_id", "author", "seq", "prev", "heads", "kind", "payload"]
    for name, value in changes.items():
        fields[names.index(name)] = value
    return raw_envelope(fields)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"game_id": ZERO_ID[:31]}, "game_id: expected 32 bytes, got 31"),
        ({"game_id": "x" * 32}, "game_id: expected 32 bytes"),
        ({"author": 6}, "author: 6 is outside -1..5"),
        ({"author": -2}, "author"),
        ({"author": True}, "author: expected an integer"),
        ({"seq": -1}, "seq"),
        ({"seq": 2**32}, "seq"),
        ({"prev": h("p") + b"x"}, "prev: expected 32 bytes, got 33"),
        ({"heads": [[0, h("a")]] * 7}, "heads: expected 0..6 items, got 7"),
        ({"heads": [[0, h("a"), 1]]}, r"heads\[0\]: expected 2 items"),
        ({"heads": [[-2, h("a")]]}, r"heads\[0\].seq"),
        ({"heads": [[-1, h("a")]]}, "a head is"),
        ({"heads": [[0, ZERO_ID]]}, "a head is"),
        ({"heads": "none"}, "heads: expected an array"),
        ({"kind": "teleport"}, "unknown message kind 'teleport'"),
        ({"kind": 7}, "unknown message kind"),
        ({"kind": "refuse", "payload": ["full"]}, "lobby message"),
        ({"author": -1}, "a game message"),
        ({"game_id": ZERO_ID}, "a game message"),
        ({"seq": 0, "prev": ZERO_ID}, "sign_opening is exactly"),
        ({"seq": 0}, "prev: must be 32 zero bytes at seq 0"),
        ({"prev": ZERO_ID}, "prev: must be the id of message 3"),
        ({"payload": "x"}, "payload: expected an array"),
        ({"payload": [1]}, "reveal payload: expected 2 items"),
        ({"payload": [0, h("p")]}, "reveal payload.event: 0 is outside 1..4294967295"),
        ({"payload": [1, h("p")[:31]]}, "reveal payload.preimage: expected 32 bytes, got 31"),
        ({"payload": [1, list(h("p"))]}, "reveal payload.preimage: expected 32 bytes"),
    ],
)
def test_malformed_bodies(changes: dict[str, Any], words: str) -> None:
    reason = reason_of(envelope_with(**changes))
    assert re.search(words, reason), reason


def test_sign_opening_must_be_seq_0_and_only_it() -> None:
    fields = raw_fields(body("sign_opening"))
    fields[3], fields[4] = 1, h("prev")
    assert "sign_opening is exactly" in reason_of(raw_envelope(fields))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x92", "truncated"),
        (msgpack.packb([b"x"]), r"an envelope is \[body, signature\]"),
        (msgpack.packb({}), "maps"),
        (msgpack.packb("body"), "an envelope is"),
        (msgpack.packb([b"\x90", bytes(63)], use_bin_type=True), "signature is 64 bytes, got 63"),
        (msgpack.packb([b"\x90", "s" * 64], use_bin_type=True), "signature is 64 bytes"),
        (msgpack.packb(["\x90", bytes(64)], use_bin_type=True), "body is bytes"),
        (msgpack.packb([b"\x90", bytes(64)], use_bin_type=True), "a body is an array of 8"),
        (msgpack.packb([b"\x01", bytes(64)], use_bin_type=True), "a body is an array of 8"),
        (msgpack.packb([b"", bytes(64)], use_bin_type=True), "no bytes"),
        (
            msgpack.packb([msgpack.packb([PROTOCOL_VERSION]), bytes(64)], use_bin_type=True),
            "got 1 fields",
        ),
        (bytes(MAX_ENVELOPE + 1), "larger than the 262144-byte limit"),
    ],
)
def test_malformed_envelopes(data: bytes, words: str) -> None:
    with pytest.raises(MalformedMessage, match=words):
        Envelope.parse(data)


def test_trailing_bytes() -> None:
    data = sign_body(body("advance"), KEYS[1]).to_bytes()
    assert "trailing" in reason_of(data + b"\x00")
    assert "trailing" in reason_of(raw_envelope(raw_fields(body("advance")), trailing=b"\xc0"))


def test_floats_maps_and_ext_types_inside_bodies() -> None:
    for bad in (0.5, {}, {"a": 1}, msgpack.ExtType(3, b""), msgpack.ExtType(3, b"abc")):
        fields = raw_fields(body("reveal"))
        fields[7] = [1, bad]
        reason = reason_of(raw_envelope(fields))
        assert any(w in reason for w in ("floats", "maps", "max_map_len", "ext")), reason
    fields = raw_fields(body("reveal"))
    fields[3] = 4.0
    assert "floats are not allowed (at [3])" in reason_of(raw_envelope(fields))
    stamped = msgpack.packb([msgpack.Timestamp(1, 0)], datetime=False)
    with pytest.raises(MalformedMessage, match="max_ext_len"):
        unpack(stamped)


def test_envelope_parse_takes_bytes_only() -> None:
    with pytest.raises(LocalProtocolError):
        Envelope.parse([b"", b""])  # type: ignore[arg-type]


# ------------------------------------------------------------------ payload schemas


def test_body_construction_is_checked_locally() -> None:
    """Building a bad body is our bug: LocalProtocolError, with the same reason a peer gets."""
    with pytest.raises(LocalProtocolError, match=r"count payload\.n: 132 is outside 0\.\.131"):
        body("count", (1, 132))
    with pytest.raises(LocalProtocolError, match=f"this peer speaks {PROTOCOL_VERSION}"):
        body("advance", version=OTHER_VERSION)
    with pytest.raises(LocalProtocolError, match="unknown message kind"):
        Body(PROTOCOL_VERSION, GAME_ID, 0, 1, h("p"), (), "teleport", ())


@pytest.mark.parametrize(
    ("kind", "payload", "words"),
    [
        (
            "hello",
            ("", PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16)),
            "hello payload.name: expected 1..32",
        ),
        (
            "hello",
            ("A" * 33, PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16)),
            "hello payload.name",
        ),
        (
            "hello",
            ("Ann\x1b[31m", PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16)),
            "U+001B",
        ),
        (
            "hello",
            ("Ann\u202e", PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16)),
            "U+202E",
        ),
        (
            "hello",
            ("Ann", PUBLIC[1][:31], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16)),
            "public_key",
        ),
        (
            "hello",
            ("Ann", PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 65536, bytes(16)),
            "listen_port",
        ),
        (
            "hello",
            ("Ann", PUBLIC[1], PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1),
            "hello payload: expected 8",
        ),
        ("refuse", ("",), "refuse payload.reason"),
        ("lobby_state", (1, ()), "max_seats"),
        ("lobby_state", (5, ()), "lobby_state payload: the base game takes 2..4 seats, not 5"),
        ("lobby_state", (4, (), "five-six"), "the five-six game takes 5..6 seats, not 4"),
        ("lobby_state", (4, (), "base"), "named by leaving the game out"),
        ("lobby_state", (6, (), "five-six", "random", (), 1), "expected 2..5 items"),
        ("lobby_state", (6, (), "five-six", "random"), "board_kind and options come together"),
        ("lobby_state", (4, (), "jungle-x"), "unknown game 'jungle-x'"),
        ("lobby_state", (6, (), "five-six", "beginner", ()), "map has no beginner board"),
        (
            "lobby_state",
            (4, (), "base", "random", (("largest_army", 1),)),
            "game option largest_army takes bool, not 1",
        ),
        (
            "lobby_state",
            (4, (), "base", "random", (("victory_points", 8), ("largest_army", False))),
            "option names must be distinct and sorted",
        ),
        ("lobby_state", (2, (("A", PUBLIC[0], "0000-0000-0000-0000"),)), "fingerprint"),
        (
            "lobby_state",
            (2, tuple(("A", PUBLIC[i], fingerprint(PUBLIC[i])) for i in range(3))),
            "3 seats taken at a table of 2",
        ),
        (
            "lobby_state",
            (3, tuple(("A", PUBLIC[0], fingerprint(PUBLIC[0])) for _ in range(2))),
            "two seats share one public key",
        ),
        ("link_hello", (GAME_ID, 6, bytes(16), ()), "link_hello payload.seat"),
        ("link_hello", (GAME_ID, 0, bytes(15), ()), "link_hello payload.nonce"),
        ("link_proof", (bytes(65),), "link_proof payload.signature"),
        ("action", (["Teleport", 1],), "not an action"),
        ("action", (["BuildRoad"],), "BuildRoad takes 1 fields, not 0"),
        ("action", (["BuildRoad", True],), "malformed BuildRoad"),
        ("action", (["Dice", 3, 4],), "Dice is a chance outcome"),
        ("action", (["StealCard", 0],), "chance outcome"),
        ("action", ([],), "expected an action"),
        ("action", ([["BuildRoad"], 1],), "expected an action"),
        ("action", (["MaritimeTrade", [4, 0, 0, 0, 0, 0, 0, 0, 0], 4],), "1 to 8 counts"),
        ("action", (["PlayMonopoly", 9],), "malformed PlayMonopoly"),
        ("action", ("BuildRoad", 5), "action payload: expected 1 items"),
        ("advance", (1,), "advance payload: expected 0 items"),
        ("steal_commit", (1, ()), "steal_commit payload.commitments: expected 1..131"),
        ("steal_commit", (1, (h("c"),) * 132), "1..131 items, got 132"),
        ("steal_open", (1, bytes(12), bytes(65)), "ciphertext"),
        ("steal_open", (1, bytes(11), bytes(33)), "nonce"),
        ("count", (1, -1), "count payload.n"),
        ("turn_ack", (1, h("s").hex(), ()), "turn_ack payload.public_state_hash"),
        ("turn_ack", (1, h("s"), (bytes(7),)), "turn_ack payload.trail"),
        ("abandon", ((), HEADS, ()), "abandon payload.missing_seats: expected 1..6"),
        ("abandon", ((2, 1), HEADS, (("decision", -1),) * 2), "distinct and ascending"),
        ("abandon", ((1, 1), HEADS, (("decision", -1),) * 2), "distinct and ascending"),
        ("abandon", ((1, 2), HEADS, (("decision", -1),)), "one step per missing seat"),
        ("abandon", ((1,), HEADS, (("nap", -1),)), "abandon payload.owed[0].step"),
        ("deck_key", (h("k")[:31], PROOF), "deck_key payload.share: expected 32 bytes, got 31"),
        ("deck_key", (h("k"), PROOF[:63]), "deck_key payload.proof: expected 64 bytes, got 63"),
        (
            "shuffle",
            (DECK_NAME, deck("output")[:-1]),
            "shuffle payload.output: a deck is a whole number of 64-byte ciphertexts, not 191",
        ),
        (
            "shuffle",
            (DECK_NAME, deck("output", 1)),
            "shuffle payload.output: expected 128..6144 bytes, got 64",
        ),
        (
            "shuffle",
            (DECK_NAME, deck("output", MAX_DECK + 1)),
            "shuffle payload.output: expected 128..6144 bytes, got 6208",
        ),
        ("shuffle", (DECK_NAME, deck("output"), deck("round")), "expected 2 items [deck, output]"),
        ("shuffle", ("", deck("output")), "shuffle payload.deck: expected 1..32"),
        (
            "shuffle_proof",
            (DECK_NAME, *SHUFFLE_PROOF[:3]),
            "shuffle_proof payload: expected 5 items [deck, permutation, chain, challenge, ",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, SHUFFLE_PROOF[0][:-1], *SHUFFLE_PROOF[1:]),
            "shuffle_proof payload.permutation: a list of points or scalars is a whole number",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, SHUFFLE_PROOF[0][:32], *SHUFFLE_PROOF[1:]),
            "shuffle_proof payload.permutation: expected 64..3072 bytes, got 32",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, *shuffle_proof(MAX_DECK + 1)),
            "shuffle_proof payload.permutation: expected 64..3072 bytes, got 3104",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, SHUFFLE_PROOF[0], SHUFFLE_PROOF[1][:-32], *SHUFFLE_PROOF[2:]),
            "the chain must hold as many points as the permutation commitment",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, *SHUFFLE_PROOF[:2], SHUFFLE_PROOF[2][:-1], SHUFFLE_PROOF[3]),
            "shuffle_proof payload.challenge: expected 32 bytes, got 31",
        ),
        (
            "shuffle_proof",
            (DECK_NAME, *SHUFFLE_PROOF[:3], SHUFFLE_PROOF[3][:-32]),
            "a proof of 3 cards has 10 response scalars",
        ),
        (
            "draw_share",
            (DECK_NAME, 0, h("s")[:31], PROOF),
            "draw_share payload.share: expected 32 bytes, got 31",
        ),
        (
            "draw_share",
            (DECK_NAME, MAX_DECK, h("s"), PROOF),
            "draw_share payload.position: 96 is outside 0..95",
        ),
        ("draw_share", (DECK_NAME, -1, h("s"), PROOF), "draw_share payload.position"),
        (
            "card_reveal",
            ("d" * 33, 0, (0,), (PROOF,)),
            "card_reveal payload.deck: expected 1..32 characters, got 33",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (1,), (PROOF + b"\x00",)),
            "card_reveal payload.proof[0]: expected 64 bytes, got 65",
        ),
        (
            "card_reveal",
            (DECK_NAME, MAX_DECK, (1,), (PROOF,)),
            "card_reveal payload.card: 96 is outside 0..95",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (), ()),
            "card_reveal payload.positions: expected 1..96 items, got 0",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (3, 1), (PROOF, PROOF)),
            "card_reveal payload.positions: must be distinct and ascending",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (1, 1), (PROOF, PROOF)),
            "card_reveal payload.positions: must be distinct and ascending",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (1, 3), (PROOF,)),
            "card_reveal payload: one proof per listed position: 2 positions, 1 proofs",
        ),
        (
            "card_reveal",
            (DECK_NAME, 0, (1, 3), PROOF),
            "card_reveal payload.proof: expected an array",
        ),
        (
            "audit_secrets",
            (h("seed"), h("x")[:31]),
            "audit_secrets payload.x25519_private: expected 32 bytes, got 31",
        ),
        ("audit_secrets", (h("seed"),), "audit_secrets payload: expected 2 items"),
        (
            "audit_result",
            (h("digest"), ((1, h("m"), "x" * 501),)),
            "audit_result payload.deviations[0].reason: expected 1..500 characters, got 501",
        ),
        (
            "audit_result",
            (h("digest"), ((1, h("m"), "shuffled\x1b[2J"),)),
            "audit_result payload.deviations[0].reason: control character U+001B",
        ),
        (
            "audit_result",
            (h("digest"), ((6, h("m"), "x"),)),
            "audit_result payload.deviations[0].seat: 6 is outside -1..5",
        ),
        (
            "audit_result",
            (h("digest"), ((1, h("m") + b"\x00", "x"),)),
            "audit_result payload.deviations[0].message_id: expected 0..32 bytes, got 33",
        ),
        (
            "audit_result",
            (h("digest"), ((1, h("m"), "x"),) * 65),
            "audit_result payload.deviations: expected 0..64 items, got 65",
        ),
    ],
)
def test_payload_schemas(kind: str, payload: Any, words: str) -> None:
    with pytest.raises(MalformedMessage) as info:
        validate_payload(kind, payload)
    assert words in info.value.reason
    # The same reason reaches a peer that receives it.
    fields = raw_fields(body(kind))
    fields[7] = payload
    assert words in reason_of(raw_envelope(fields))


def test_the_largest_deck_messages_fit_one_envelope() -> None:
    """A shuffle of a full deck (MAX_DECK cards) and its proof are signed and parsed as single
    envelopes, even with every head present."""
    heads = tuple((2**32 - 1, h(f"head {i}")) for i in range(6))
    for kind, payload in (
        ("shuffle", ("d" * 32, deck("output", MAX_DECK))),
        ("shuffle_proof", ("d" * 32, *shuffle_proof(MAX_DECK))),
    ):
        b = body(kind, payload, heads=heads, seq=2**32 - 1)
        data = sign_body(b, KEYS[1]).to_bytes()
        assert len(data) <= MAX_ENVELOPE
        assert Envelope.parse(data).body == b


def test_validate_payload_unknown_kind() -> None:
    with pytest.raises(MalformedMessage, match="unknown message kind 'nope'"):
        validate_payload("nope", ())


@pytest.mark.parametrize(
    "action",
    [
        A.BuildRoad(5),
        A.Discard(2, (1, 0, 2, 0, 1)),
        A.MoveRobber(4, -1),
        A.PlayYearOfPlenty((Resource.ORE, Resource.WOOL)),
        A.PlayMonopoly(Resource.GRAIN),
        A.OfferTrade((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), -1),
        A.AnswerTrade(2, True),
        A.EndTurn(),
        A.RevealVictory(1, 2),  # the winner's own reveal is a seat's message
    ],
)
def test_actions_round_trip(action: A.Action) -> None:
    payload = encode_action(action)
    parsed = Envelope.parse(sign_body(body("action", payload), KEYS[1]).to_bytes())
    assert decode_action(parsed.body.payload) == action


def test_non_canonical_action_is_malformed() -> None:
    fields = raw_fields(body("action"))
    fields[7] = [["AnswerTrade", 2, 1]]
    assert "accept must be a bool" in reason_of(raw_envelope(fields))


# ------------------------------------------------------------------ the opening


def test_game_id_is_stable() -> None:
    """A golden value: the game id must not change between releases of one protocol version."""
    assert GAME_ID.hex() == GOLDEN_GAME_ID
    payload = OPENING.to_payload()
    assert hashlib.sha256(b"hexlan/v1/game\0" + msgpack.packb(payload)).digest() == GAME_ID
    listed = unpack(pack(payload))
    assert isinstance(listed, list)
    assert Opening.from_payload(listed) == OPENING
    assert Opening.from_payload(listed).game_id == GAME_ID
    changed = Opening.from_payload([*listed[:5], listed[5] + 1])
    assert changed.game_id != GAME_ID


# OPENING in protocol 3 (50092f2a... in protocol 2, 450f17c9... in protocol 1: the opening carries the version). The
# formula is unchanged; the example's X25519 keys became real keys (XPUB) when openings began
# refusing weak and non-canonical ones (with hashes as keys it was 80e60494...).
GOLDEN_GAME_ID = "487559b7883945d0b23ddd2e25f48d1a0baa00c41d86f72771869648d2c74b7c"


def test_opening_in_a_signed_body_round_trips() -> None:
    parsed = Envelope.parse(sign_body(body("sign_opening"), KEYS[1]).to_bytes())
    (payload,) = parsed.body.payload
    opening = Opening.from_payload(payload)
    assert opening == OPENING
    assert opening.game_options() == GameOptions(victory_points=10)
    assert opening.seats[1].fingerprint == fingerprint(PUBLIC[1])


def test_option_entries_sorted() -> None:
    entries = option_entries(GameOptions.seed003())
    assert [n for n, _ in entries] == sorted(GameOptions().to_dict())
    assert dict(entries)["longest_road_min"] == 6


def opening_payload(**changes: Any) -> list[Any]:
    listed = unpack(pack(OPENING.to_payload()))
    assert isinstance(listed, list)
    names = [
        "protocol_version",
        "engine_version",
        "seats",
        "options",
        "board_kind",
        "created",
        "game",
    ]
    for name, value in changes.items():
        index = names.index(name)
        listed[index : index + 1] = [value]  # the game is appended: the base game leaves it out
    return listed


SEAT_ROWS = [list(s.to_payload()) for s in OPENING.seats]
SIX_ROWS = [list(seat(i).to_payload()) for i in range(6)]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"seats": SEAT_ROWS[:1]}, "opening.seats: expected 2..6 items, got 1"),
        ({"seats": [*SEAT_ROWS, *[list(seat(3).to_payload())] * 5]}, "2..6 items, got 8"),
        ({"seats": SIX_ROWS[:5]}, "opening: the base game takes 2..4 seats, not 5"),
        ({"game": "base"}, "opening.game: the base game is named by leaving the game out"),
        ({"game": "seafarers-x"}, "opening.game: unknown game 'seafarers-x'"),
        ({"game": "five-six"}, "opening: the five-six game takes 5..6 seats, not 3"),
        ({"game": "five-six", "seats": SIX_ROWS}, "the five-six game's map has no beginner board"),
        ({"game": "five-six", "board_kind": "random", "created": -1}, "opening.created"),
        ({"seats": [SEAT_ROWS[0], SEAT_ROWS[0]]}, "two seats share one public key"),
        ({"seats": [SEAT_ROWS[0], [*SEAT_ROWS[1][:2], *SEAT_ROWS[0][2:]]]}, "X25519"),
        ({"seats": [SEAT_ROWS[0], [*SEAT_ROWS[1][:5], 70000]]}, r"opening.seats[1].port"),
        ({"seats": [SEAT_ROWS[0], [*SEAT_ROWS[1][:5]]]}, "expected 6 items"),
        ({"options": [["victory_points", 10], ["largest_army", True]]}, "sorted"),
        ({"options": [["teleport", 1]]}, "unknown game option 'teleport'"),
        ({"options": [["largest_army", 1]]}, "takes bool, not 1"),
        ({"options": [["largest_army", None]]}, "takes bool, not None"),
        ({"options": [["victory_points", True]]}, "takes int or nil, not True"),
        ({"options": [["victory_points", 1.0]]}, "an integer, a bool or nil"),
        ({"board_kind": "seafarers"}, "expected one of 'beginner', 'random'"),
        ({"created": -1}, "opening.created"),
        ({"engine_version": ""}, "opening.engine_version"),
    ],
)
def test_opening_schema(changes: dict[str, Any], words: str) -> None:
    payload = opening_payload(**changes)
    with pytest.raises(MalformedMessage) as info:
        Opening.from_payload(payload)
    assert words in info.value.reason
    with pytest.raises(MalformedMessage) as info:
        validate_payload("start", (payload,))
    assert words in info.value.reason


def test_the_game_is_in_the_opening_only_when_it_is_not_the_base_game() -> None:
    """A base opening keeps its six items (so its bytes and game id, GOLDEN_GAME_ID); another
    game's appends its name, which changes the game id: every seat signs which game it plays."""
    assert OPENING.game == "base" and len(OPENING.to_payload()) == 6
    six = Opening(
        PROTOCOL_VERSION, "0.1.0", tuple(seat(i) for i in range(6)), (), "random", 0, "five-six"
    )
    payload = six.to_payload()
    assert len(payload) == 7 and payload[6] == "five-six"
    assert Opening.from_payload(unpack(pack(payload))) == six
    assert six.rules().development_deck == (20, 5, 3, 3, 3)
    assert Opening(*OPENING.to_payload()[:2], OPENING.seats, *OPENING.to_payload()[3:]) == OPENING
    with pytest.raises(LocalProtocolError, match=r"the five-six game takes 5\.\.6 seats, not 4"):
        Opening(PROTOCOL_VERSION, "0.1.0", six.seats[:4], (), "random", 0, "five-six")
    with pytest.raises(LocalProtocolError, match=r"the base game takes 2\.\.4 seats, not 6"):
        Opening(PROTOCOL_VERSION, "0.1.0", six.seats, (), "random", 0)


def test_opening_construction_is_checked_locally() -> None:
    with pytest.raises(LocalProtocolError, match=r"2\.\.6 items, got 1"):
        Opening(PROTOCOL_VERSION, "0.1.0", (seat(0),), (), "beginner", 0)
    with pytest.raises(LocalProtocolError, match=r"seat\.port"):
        SeatInfo("Ann", PUBLIC[0], XPUB[0], h("c"), "", -1)
    subset = Opening(
        PROTOCOL_VERSION, "0.1.0", (seat(0), seat(1)), [["victory_points", 12]], "random", 0
    )
    assert subset.options == (("victory_points", 12),)
    assert subset.game_options().victory_points == 12


# ------------------------------------------------------------------ weak keys (§1, §12)

BAD_ED25519 = {**WEAK_ED25519, **NON_CANONICAL_ED25519}
BAD_X25519 = {**SMALL_ORDER_X25519, **NON_CANONICAL_X25519}
ED25519_WORDS = "is weak: a small-order point|is not canonical"
X25519_WORDS = "has small order|is not canonical"


@pytest.mark.parametrize("key", BAD_ED25519.values(), ids=BAD_ED25519.keys())
def test_an_opening_with_a_weak_identity_key_is_refused(key: bytes) -> None:
    payload = list(OPENING.to_payload())
    payload[2] = [list(s) for s in payload[2]]
    payload[2][1][1] = key
    with pytest.raises(MalformedMessage) as info:
        Opening.from_payload(payload)
    assert re.search(
        rf"opening\.seats\[1\]\.public_key: Ed25519 .*({ED25519_WORDS})", info.value.reason
    )
    with pytest.raises(MalformedMessage, match=ED25519_WORDS):
        validate_payload("sign_opening", (payload,))
    with pytest.raises(LocalProtocolError, match=rf"seat\.public_key: Ed25519 .*({ED25519_WORDS})"):
        SeatInfo("Ann", key, XPUB[0], h("c"))
    for kind, bad in (
        ("hello", ("Ann", key, PROTOCOL_VERSION, "0.1", XPUB[1], h("c"), 1, bytes(16))),
        ("lobby_state", (2, (("Ann", key, fingerprint(key)),))),
        ("challenge", (key, bytes(16))),
    ):
        with pytest.raises(MalformedMessage, match=rf"{kind} payload\..*public_key: Ed25519"):
            validate_payload(kind, bad)


@pytest.mark.parametrize("key", BAD_X25519.values(), ids=BAD_X25519.keys())
def test_an_opening_with_a_weak_x25519_key_is_refused(key: bytes) -> None:
    payload = list(OPENING.to_payload())
    payload[2] = [list(s) for s in payload[2]]
    payload[2][2][2] = key
    with pytest.raises(MalformedMessage) as info:
        Opening.from_payload(payload)
    assert re.search(
        rf"opening\.seats\[2\]\.x25519_public: X25519 .*({X25519_WORDS})", info.value.reason
    )
    with pytest.raises(
        LocalProtocolError, match=rf"seat\.x25519_public: X25519 .*({X25519_WORDS})"
    ):
        SeatInfo("Ann", PUBLIC[0], key, h("c"))
    hello = ("Ann", PUBLIC[1], PROTOCOL_VERSION, "0.1", key, h("c"), 1, bytes(16))
    with pytest.raises(
        MalformedMessage, match=rf"hello payload\.x25519_public: X25519 .*({X25519_WORDS})"
    ):
        validate_payload("hello", hello)


def test_one_forged_signature_under_the_identity_point_verifies_nothing() -> None:
    """Under the identity point one signature verifies every message (``cryptography`` accepts
    it, see test_identity); an envelope carrying it is refused however it is signed."""
    for reason in ("one message", "quite another"):
        signed = msgpack.packb([PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, [], "refuse", [reason]])
        envelope = Envelope.parse(msgpack.packb([signed, FORGED_SIGNATURE]))
        with pytest.raises(ForgedSignature, match="proves nothing: Ed25519 public key 01000000"):
            envelope.verify(ED25519_IDENTITY)
    # Any signature checked against a weak key is refused, whoever made it.
    real = sign_body(body("advance"), KEYS[1])
    real.verify(PUBLIC[1])
    with pytest.raises(ForgedSignature, match="proves nothing"):
        real.verify(WEAK_ED25519["order 8"])


# ------------------------------------------------------------------ fuzzing


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parse_or_reject(data: bytes) -> Envelope | None:
    try:
        return Envelope.parse(data)
    except (MalformedMessage, VersionMismatch) as exc:
        assert exc.reason
        return None


@settings(FUZZ, max_examples=500)
@given(st.binary(max_size=600))
def test_random_bytes_only_raise_protocol_errors(data: bytes) -> None:
    parse_or_reject(data)
    with contextlib.suppress(MalformedMessage):
        unpack(data)


plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.binary(max_size=40)
    | st.text(max_size=10)
    | st.floats(allow_nan=False),
    lambda children: (
        st.lists(children, max_size=9) | st.dictionaries(st.text(max_size=3), children, max_size=2)
    ),
    max_leaves=25,
)


@settings(FUZZ, max_examples=100)
@given(plain, st.sampled_from(sorted(KINDS)), st.integers(-3, 8))
def test_random_structures_only_raise_protocol_errors(junk: Any, kind: str, author: int) -> None:
    """Junk as a whole envelope, as a whole body, and as a payload of every kind."""
    parse_or_reject(msgpack.packb(junk, use_bin_type=True))
    parse_or_reject(raw_envelope(junk))
    fields = raw_fields(body(kind))
    fields[2] = author
    fields[7] = junk
    parse_or_reject(raw_envelope(fields))
    fields[7] = [junk]
    parse_or_reject(raw_envelope(fields))


@FUZZ
@given(st.sampled_from(sorted(VALID)), st.data())
def test_mutated_envelopes_only_raise_protocol_errors(kind: str, data: st.DataObject) -> None:
    original = sign_body(body(kind), KEYS[1]).to_bytes()
    mutated = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(mutated) - 1))
        action = data.draw(st.sampled_from(["flip", "delete", "insert"]))
        if action == "flip":
            mutated[at] ^= 1 << data.draw(st.integers(0, 7))
        elif action == "delete":
            del mutated[at]
        else:
            mutated.insert(at, data.draw(st.integers(0, 255)))
        if not mutated:
            break
    envelope = parse_or_reject(bytes(mutated))
    if envelope is None:
        return
    signed = Envelope.parse(original)
    if (envelope.body_bytes, envelope.signature) == (signed.body_bytes, signed.signature):
        envelope.verify(PUBLIC[1])
    else:
        with pytest.raises(ForgedSignature):
            envelope.verify(PUBLIC[1])


@settings(FUZZ, max_examples=60)
@given(st.data())
def test_valid_bodies_round_trip(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["reveal", "count", "turn_ack", "steal_commit", "abandon"]))
    event = data.draw(st.integers(1, 2**32 - 1))
    missing = tuple(sorted(data.draw(st.sets(st.integers(0, 5), min_size=1))))
    payload: tuple[Any, ...] = {
        "reveal": (event, data.draw(st.binary(min_size=32, max_size=32))),
        "count": (event, data.draw(st.integers(0, MAX_CARDS))),
        "turn_ack": (
            event,
            data.draw(st.binary(min_size=32, max_size=32)),
            tuple(data.draw(st.lists(st.binary(min_size=8, max_size=8), max_size=40))),
        ),
        "steal_commit": (
            event,
            tuple(
                data.draw(
                    st.lists(st.binary(min_size=32, max_size=32), min_size=1, max_size=MAX_CARDS)
                )
            ),
        ),
        "abandon": (missing, HEADS, tuple(("turn_ack", -1) for _ in missing)),
    }[kind]
    seq = data.draw(st.integers(1, 2**32 - 1))
    author = data.draw(st.integers(0, 5))
    b = body(kind, payload, seq=seq, author=author)
    envelope = Envelope.parse(sign_body(b, KEYS[author % 4]).to_bytes())
    assert envelope.body == b
    envelope.verify(PUBLIC[author % 4])


def _replace_leaf(value: Any, path: list[int], junk: Any) -> Any:
    """``value`` with the item at ``path`` (indices taken modulo each array's length) replaced."""
    if not path or not isinstance(value, (list, tuple)) or not value:
        return junk
    items = list(value)
    at = path[0] % len(items)
    items[at] = _replace_leaf(items[at], path[1:], junk)
    return items


@FUZZ
@given(st.sampled_from(sorted(VALID)), st.lists(st.integers(0, 10), max_size=6), plain)
def test_near_valid_payloads_only_raise_protocol_errors(
    kind: str, path: list[int], junk: Any
) -> None:
    """One item deep inside a valid payload replaced by junk: the schema's cross-field rules
    must cope with anything the field checks let through."""
    fields = raw_fields(body(kind))
    fields[7] = _replace_leaf(VALID[kind], path, junk)
    envelope = parse_or_reject(raw_envelope(fields))
    if envelope is not None:
        envelope.verify(PUBLIC[1])
