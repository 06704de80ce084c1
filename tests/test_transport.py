"""The TCP mesh (docs/PROTOCOL.md §8): framing byte by byte, the link handshake in memory, and
real meshes on 127.0.0.1: connect and authenticate, broadcast, refuse a wrong key, close a link
on bad frames only, reconnect after a restart and resend what the restarted peer lacks."""

from __future__ import annotations

import asyncio
import contextlib
import os
import struct
from collections.abc import Sequence
from typing import Any

import pytest
from floods import close_all as close_connections
from floods import hung_up, open_many
from weak_keys import FORGED_SIGNATURE, WEAK_ED25519, raw_lobby_envelope

from hexlan.net import transport
from hexlan.net.chat import sign_chat
from hexlan.net.identity import Identity
from hexlan.net.transport import (
    MAX_FRAME,
    Chat,
    Close,
    Deliver,
    FrameDecoder,
    FramingError,
    LinkProtocol,
    Mesh,
    Ready,
    SendBytes,
    encode_frame,
)
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    MalformedMessage,
    sign_body,
)

GAME_ID = bytes(range(1, 33))


# ------------------------------------------------------------------------------ framing


def test_frame_decoder_byte_at_a_time() -> None:
    bodies = [b"a", b"hello world", os.urandom(1000), os.urandom(MAX_FRAME)]
    stream = b"".join(encode_frame(b) for b in bodies)
    decoder = FrameDecoder()
    out: list[bytes] = []
    for i in range(len(stream)):
        decoder.receive_data(stream[i : i + 1])
        while (frame := decoder.next_frame()) is not None:
            out.append(frame)
    assert out == bodies
    assert decoder.buffered == 0


def test_frame_decoder_any_chunking() -> None:
    bodies = [os.urandom(n) for n in (1, 2, 3, 500, 70000)]
    stream = b"".join(encode_frame(b) for b in bodies)
    for chunk in (2, 3, 7, 4096, len(stream)):
        decoder = FrameDecoder()
        out = []
        for i in range(0, len(stream), chunk):
            out += decoder.feed(stream[i : i + chunk])
        assert out == bodies


def test_oversized_frame_fails_at_its_header() -> None:
    decoder = FrameDecoder()
    header = struct.pack(">I", MAX_FRAME + 1)
    assert decoder.feed(encode_frame(b"ok") + header[:3]) == [b"ok"]
    with pytest.raises(FramingError, match=f"{MAX_FRAME + 1} bytes"):
        decoder.feed(header[3:])
    assert isinstance(FramingError("x"), MalformedMessage)
    with pytest.raises(FramingError):  # the error sticks
        decoder.feed(b"\x00\x00\x00\x01x")


def test_empty_frame_is_an_error() -> None:
    with pytest.raises(FramingError):
        FrameDecoder().feed(b"\x00\x00\x00\x00")
    with pytest.raises(ValueError):
        encode_frame(b"")
    with pytest.raises(ValueError):
        encode_frame(bytes(MAX_FRAME + 1))


# ------------------------------------------------------------------------------ helpers

IDENTITIES = [Identity.generate() for _ in range(4)]
KEYS = {seat: identity.public_bytes for seat, identity in enumerate(IDENTITIES)}


def message(author: int, seq: int, identity: Identity | None = None) -> bytes:
    """A well-formed game envelope (an ``advance``; the chain is not what the mesh checks)."""
    body = Body(PROTOCOL_VERSION, GAME_ID, author, seq, bytes([seq % 256]) * 32, (), "advance", ())
    return sign_body(body, identity or IDENTITIES[author]).to_bytes()


class Store:
    """A handler that keeps every envelope per author, like a session's accepted messages."""

    def __init__(self, seats: int = 3) -> None:
        self.seats = seats
        self.by_author: dict[int, dict[int, bytes]] = {s: {} for s in range(seats)}
        self.received: list[tuple[bytes, int]] = []
        self.raise_on_deliver = False

    def add(self, envelope: bytes) -> None:
        body = Envelope.parse(envelope).body
        self.by_author[body.author][body.seq] = envelope

    def deliver(self, envelope_bytes: bytes, from_seat: int) -> None:
        self.received.append((envelope_bytes, from_seat))
        if self.raise_on_deliver:
            raise RuntimeError("handler bug")
        self.add(envelope_bytes)

    def heads(self) -> list[tuple[int, bytes]]:
        out = []
        for seat in range(self.seats):
            msgs = self.by_author[seat]
            if msgs:
                top = max(msgs)
                out.append((top, Envelope.parse(msgs[top]).id))
            else:
                out.append((-1, ZERO_ID))
        return out

    def missing_for(self, their_heads: Sequence[Any]) -> list[bytes]:
        result = []
        for seat in range(self.seats):
            have = their_heads[seat][0] if seat < len(their_heads) else -1
            result += [m for seq, m in sorted(self.by_author[seat].items()) if seq > have]
        return result

    def has(self, envelope: bytes) -> bool:
        return any(e == envelope for e, _ in self.received)


class Events:
    def __init__(self) -> None:
        self.items: list[tuple[int | None, str]] = []

    def __call__(self, seat: int | None, text: str) -> None:
        self.items.append((seat, text))

    def text(self) -> str:
        return "\n".join(f"{s}: {t}" for s, t in self.items)


async def eventually(predicate: Any, timeout: float = 3.0) -> bool:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if predicate():
            return True
        await asyncio.sleep(0.01)
    return bool(predicate())


async def start_meshes(
    n: int = 3,
    *,
    identities: dict[int, Identity] | None = None,
    ports: dict[int, int] | None = None,
    addresses: dict[int, tuple[str, int]] | None = None,
    skip: set[int] = frozenset(),  # type: ignore[assignment]
    **kwargs: Any,
) -> tuple[dict[int, Mesh], dict[int, Store], dict[int, Events]]:
    """Meshes for seats ``0..n-1`` (but ``skip``), started highest first so each knows the
    addresses it dials."""
    keys = {s: KEYS[s] for s in range(n)}
    meshes: dict[int, Mesh] = {}
    stores: dict[int, Store] = {}
    events: dict[int, Events] = {}
    addresses = dict(addresses or {})
    for seat in reversed(range(n)):
        if seat in skip:
            continue
        stores[seat] = Store(n)
        events[seat] = Events()
        identity = (identities or {}).get(seat, IDENTITIES[seat])
        mesh = Mesh(
            seat,
            identity,
            GAME_ID,
            keys,
            "127.0.0.1",
            (ports or {}).get(seat, 0),
            dict(addresses),
            stores[seat],
            on_link_event=events[seat],
            **kwargs,
        )
        await mesh.start()
        addresses[seat] = ("127.0.0.1", mesh.listen_port)
        meshes[seat] = mesh
    return meshes, stores, events


async def close_all(meshes: dict[int, Mesh]) -> None:
    await asyncio.gather(*(m.close() for m in meshes.values()))


# ------------------------------------------------------------------------------ sans-IO links


def link_pair(
    keys_a: dict[int, bytes] | None = None, game_b: bytes = GAME_ID
) -> tuple[LinkProtocol, LinkProtocol]:
    a = LinkProtocol(
        seat=0,
        identity=IDENTITIES[0],
        game_id=GAME_ID,
        seat_keys=keys_a or KEYS,
        heads=[(-1, ZERO_ID)],
        nonce=os.urandom(16),
        expected_seat=1,
    )
    b = LinkProtocol(
        seat=1,
        identity=IDENTITIES[1],
        game_id=game_b,
        seat_keys=KEYS,
        heads=[(4, b"\x07" * 32)],
        nonce=os.urandom(16),
        accept_from=lambda seat: seat < 1,
    )
    return a, b


def pump(a: LinkProtocol, b: LinkProtocol, rounds: int = 6) -> tuple[list[Any], list[Any]]:
    """Exchange bytes one at a time until both are quiet; every non-send effect per side."""
    seen_a: list[Any] = []
    seen_b: list[Any] = []
    to_b = [e.data for e in a.start() if isinstance(e, SendBytes)]
    to_a = [e.data for e in b.start() if isinstance(e, SendBytes)]
    for _ in range(rounds):
        next_b, next_a = [], []
        for data in to_b:
            for i in range(len(data)):
                for effect in b.receive_data(data[i : i + 1]):
                    (next_a if isinstance(effect, SendBytes) else seen_b).append(
                        effect.data if isinstance(effect, SendBytes) else effect
                    )
        for data in to_a:
            for i in range(len(data)):
                for effect in a.receive_data(data[i : i + 1]):
                    (next_b if isinstance(effect, SendBytes) else seen_a).append(
                        effect.data if isinstance(effect, SendBytes) else effect
                    )
        to_a, to_b = next_a, next_b
    return seen_a, seen_b


def test_link_handshake_in_memory_byte_by_byte() -> None:
    a, b = link_pair()
    seen_a, seen_b = pump(a, b)
    assert seen_a == [Ready(1, ((4, b"\x07" * 32),))]
    assert seen_b == [Ready(0, ((-1, ZERO_ID),))]
    assert a.is_open and b.is_open
    frame = encode_frame(message(0, 1))
    assert b.receive_data(frame) == [Deliver(message(0, 1))]
    effects = b.receive_data(encode_frame(b"\x92\xc4\x00"))
    assert len(effects) == 1 and isinstance(effects[0], Close)
    assert "malformed frame" in effects[0].reason
    assert b.receive_data(frame) == []  # closed for good


def test_an_open_link_passes_a_chat_frame_up_and_a_closed_one_refuses_it() -> None:
    """A chat frame (§18) is no envelope: an open link hands it to ``on_chat`` unchecked (the
    peer checks it), a link still in its handshake closes on it."""
    frame = sign_chat(IDENTITIES[0], GAME_ID, 0, 0, "hi")
    a, b = link_pair()
    before = b.receive_data(encode_frame(frame))
    assert len(before) == 1 and isinstance(before[0], Close)
    a, b = link_pair()
    pump(a, b)
    assert b.receive_data(encode_frame(frame)) == [Chat(frame)]
    assert b.is_open


def test_link_refuses_a_wrong_key() -> None:
    keys = dict(KEYS)
    keys[1] = IDENTITIES[3].public_bytes  # seat 1 is someone else in a's opening
    a, b = link_pair(keys_a=keys)
    seen_a, _ = pump(a, b)
    assert len(seen_a) == 1 and isinstance(seen_a[0], Close)
    assert "not signed by seat 1's key" in seen_a[0].reason
    assert not a.is_open


@pytest.mark.parametrize("weak", ["the identity point", "order 8"])
def test_a_weak_seat_key_never_opens_a_link(weak: str) -> None:
    """An opening built around its checks gives seat 1 a small-order key: whoever claims seat 1
    with the one signature that verifies under it (any message, for the identity) is refused
    before any proof is sent."""
    key = WEAK_ED25519[weak]
    keys = {**KEYS, 1: key}
    a = LinkProtocol(
        seat=0,
        identity=IDENTITIES[0],
        game_id=GAME_ID,
        seat_keys=keys,
        heads=[(-1, ZERO_ID)],
        nonce=os.urandom(16),
        expected_seat=1,
    )
    a.start()
    hello = raw_lobby_envelope(
        "link_hello", [GAME_ID, 1, bytes(16), [[-1, ZERO_ID]]], signature=FORGED_SIGNATURE
    )
    proof = raw_lobby_envelope("link_proof", [FORGED_SIGNATURE], signature=FORGED_SIGNATURE)
    effects = a.receive_data(encode_frame(hello) + encode_frame(proof))
    assert len(effects) == 1 and isinstance(effects[0], Close), effects
    assert effects[0].reason.startswith(
        f"seat 1's key is refused: Ed25519 public key {key.hex()[:16]}"
    )
    assert "is weak: a small-order point" in effects[0].reason
    assert not a.is_open


def test_link_refuses_another_game() -> None:
    a, b = link_pair(game_b=bytes(range(2, 34)))
    seen_a, seen_b = pump(a, b)
    assert isinstance(seen_a[0], Close) and "another game" in seen_a[0].reason
    assert isinstance(seen_b[0], Close) and "another game" in seen_b[0].reason


def test_link_refuses_a_proof_for_another_nonce() -> None:
    a, b = link_pair()
    hello_a = a.start()[0].data
    hello_b = b.start()[0].data
    [proof_for_a] = a.receive_data(hello_b)
    b.receive_data(hello_a)
    # A proof signed by seat 0 over someone else's nonce (a replay from another link).
    other = LinkProtocol(
        seat=0,
        identity=IDENTITIES[0],
        game_id=GAME_ID,
        seat_keys=KEYS,
        heads=[],
        nonce=os.urandom(16),
    )
    foreign_hello = LinkProtocol(
        seat=1,
        identity=IDENTITIES[1],
        game_id=GAME_ID,
        seat_keys=KEYS,
        heads=[],
        nonce=os.urandom(16),
    ).start()[0]
    [replayed] = other.receive_data(foreign_hello.data)
    assert isinstance(proof_for_a, SendBytes) and isinstance(replayed, SendBytes)
    [effect] = b.receive_data(replayed.data)
    assert isinstance(effect, Close) and "does not sign our nonce" in effect.reason


def test_link_refuses_a_higher_seat_calling() -> None:
    a = LinkProtocol(
        seat=2,
        identity=IDENTITIES[2],
        game_id=GAME_ID,
        seat_keys=KEYS,
        heads=[],
        nonce=os.urandom(16),
        expected_seat=1,
    )
    _, b = link_pair()
    _, seen_b = pump(a, b)
    assert isinstance(seen_b[0], Close) and "higher seats wait" in seen_b[0].reason


# ------------------------------------------------------------------------------ real sockets


async def test_three_meshes_connect_and_broadcast() -> None:
    meshes, stores, events = await start_meshes(3)
    try:
        for seat, mesh in meshes.items():
            assert await mesh.wait_connected(timeout=3.0), events[seat].text()
            assert mesh.connected_seats() == {0, 1, 2} - {seat}
        m0, m2 = message(0, 1), message(2, 1)
        stores[0].add(m0)
        await meshes[0].broadcast(m0)
        stores[2].add(m2)
        await meshes[2].broadcast(m2)
        assert await eventually(lambda: stores[1].has(m0) and stores[2].has(m0))
        assert await eventually(lambda: stores[0].has(m2) and stores[1].has(m2))
        assert (m0, 0) in stores[1].received
        assert (m2, 2) in stores[0].received
        assert any("connected" in t for _, t in events[1].items)
    finally:
        await close_all(meshes)


async def test_a_peer_with_the_wrong_key_is_refused() -> None:
    impostor = Identity.generate()
    meshes, _, events = await start_meshes(3, identities={1: impostor})
    try:
        assert await meshes[0].wait_connected({2}, timeout=3.0)
        assert await eventually(
            lambda: (
                "not signed by seat 1's key" in events[0].text()
                and "not signed by seat 1's key" in events[2].text()
            )
        )
        await asyncio.sleep(0.3)
        assert meshes[0].connected_seats() == {2}
        assert meshes[2].connected_seats() == {0}
        assert meshes[1].connected_seats() == set()
    finally:
        await close_all(meshes)


async def rogue_seat_0(mesh1: Mesh) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Seat 0's real key, driven by hand: open an authenticated link to seat 1's mesh."""
    reader, writer = await asyncio.open_connection("127.0.0.1", mesh1.listen_port)
    link = LinkProtocol(
        seat=0,
        identity=IDENTITIES[0],
        game_id=GAME_ID,
        seat_keys={s: KEYS[s] for s in range(3)},
        heads=[(-1, ZERO_ID)] * 3,
        nonce=os.urandom(16),
        expected_seat=1,
    )
    for effect in link.start():
        writer.write(effect.data)
    async with asyncio.timeout(3):
        while not link.is_open:
            data = await reader.read(65536)
            assert data, link.close_reason
            for effect in link.receive_data(data):
                if isinstance(effect, SendBytes):
                    writer.write(effect.data)
    return reader, writer


@pytest.mark.parametrize(
    ("garbage", "reason"),
    [
        (struct.pack(">I", MAX_FRAME + 1) + b"x" * 100, "a frame of 262145 bytes"),
        (struct.pack(">I", 0xFFFFFFFF), "a frame of 4294967295 bytes"),
        (encode_frame(bytes(range(7, 57))), "malformed frame"),
        (encode_frame(b"\x92\xc4\x03abc\xc4\x02xy"), "malformed frame"),
        ("hello", "sent link_hello on an open link"),
    ],
    ids=["oversized", "huge-length", "not-msgpack", "not-an-envelope", "second-hello"],
)
async def test_a_bad_frame_closes_that_link_only(garbage: bytes | str, reason: str) -> None:
    meshes, stores, events = await start_meshes(3, skip={0})
    writer = None
    try:
        assert await meshes[1].wait_connected({2}, timeout=3.0)
        reader, writer = await rogue_seat_0(meshes[1])
        assert await eventually(lambda: meshes[1].connected_seats() == {0, 2})
        good = message(0, 1)
        writer.write(encode_frame(good))
        assert await eventually(lambda: stores[1].has(good))
        if garbage == "hello":  # a second handshake on an open link
            second = LinkProtocol(
                seat=0,
                identity=IDENTITIES[0],
                game_id=GAME_ID,
                seat_keys=KEYS,
                heads=[],
                nonce=os.urandom(16),
            )
            garbage = second.start()[0].data  # already a frame
        assert isinstance(garbage, bytes)
        writer.write(garbage + encode_frame(message(0, 2)))
        async with asyncio.timeout(3):
            while await reader.read(65536):
                pass  # until seat 1 hangs up
        assert await eventually(lambda: meshes[1].connected_seats() == {2})
        assert reason in events[1].text()
        assert not stores[1].has(message(0, 2))  # nothing after the bad frame
        # The mesh is still up: seat 2's broadcasts still reach seat 1.
        m2 = message(2, 1)
        await meshes[2].broadcast(m2)
        assert await eventually(lambda: stores[1].has(m2))
    finally:
        if writer is not None:
            writer.close()
        await close_all(meshes)


async def test_a_silent_caller_is_dropped_after_the_handshake_timeout() -> None:
    meshes, _, events = await start_meshes(2, skip={0}, handshake_timeout=0.3)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", meshes[1].listen_port)
        async with asyncio.timeout(3):
            while await reader.read(65536):
                pass  # our link_hello from seat 1 arrives, then the close
        assert "no handshake within 0.3 s" in events[1].text()
        writer.close()
    finally:
        await close_all(meshes)


async def test_a_failing_handler_does_not_close_the_link() -> None:
    meshes, stores, events = await start_meshes(2)
    try:
        assert await meshes[0].wait_connected(timeout=3.0)
        stores[1].raise_on_deliver = True
        await meshes[0].broadcast(message(0, 1))
        assert await eventually(lambda: "delivery failed" in events[1].text())
        stores[1].raise_on_deliver = False
        await meshes[0].broadcast(message(0, 2))
        assert await eventually(lambda: stores[1].has(message(0, 2)))
        assert meshes[1].connected_seats() == {0}
    finally:
        await close_all(meshes)


async def test_restarted_peer_reconnects_and_gets_what_it_missed() -> None:
    meshes, stores, events = await start_meshes(3)
    try:
        for mesh in meshes.values():
            assert await mesh.wait_connected(timeout=3.0)
        port1 = meshes[1].listen_port
        early = message(0, 1)
        stores[0].add(early)
        await meshes[0].broadcast(early)
        assert await eventually(lambda: stores[1].has(early) and stores[2].has(early))

        await meshes.pop(1).close()  # seat 1 "crashes"
        assert await eventually(lambda: meshes[0].connected_seats() == {2})
        assert await eventually(lambda: meshes[2].connected_seats() == {0})
        missed_0, missed_2 = message(0, 2), message(2, 1)
        stores[0].add(missed_0)
        await meshes[0].broadcast(missed_0)
        stores[2].add(missed_2)
        await meshes[2].broadcast(missed_2)
        assert await eventually(lambda: stores[2].has(missed_0))
        only_0 = message(0, 3)  # signed while seat 1 was away, and held by seat 0 only
        stores[0].add(only_0)

        # Seat 1 restarts on the same port with an empty store (a log replay would fill it).
        restarted, new_stores, new_events = await start_meshes(
            3,
            ports={1: port1},
            addresses={2: ("127.0.0.1", meshes[2].listen_port)},
            skip={0, 2},
        )
        meshes[1] = restarted[1]
        for mesh in meshes.values():
            assert await mesh.wait_connected(timeout=4.0), new_events[1].text()
        store1 = new_stores[1]
        assert await eventually(
            lambda: all(store1.has(m) for m in (early, missed_0, missed_2, only_0))
        )
        assert (only_0, 0) in store1.received  # resent by seat 0 on its redial
        connected = [t for s, t in events[0].items if s == 1 and t == "connected"]
        assert len(connected) == 2  # the first link, then the redial
    finally:
        await close_all(meshes)


async def test_close_is_prompt_and_idempotent() -> None:
    meshes, _, _ = await start_meshes(3)
    for mesh in meshes.values():
        assert await mesh.wait_connected(timeout=3.0)
    async with asyncio.timeout(2):
        await close_all(meshes)
        await close_all(meshes)
    assert all(m.connected_seats() == set() for m in meshes.values())


async def test_callers_are_bounded_before_their_handshake() -> None:
    meshes, _, events = await start_meshes(2, skip={0}, max_pending_per_host=transport.MAX_PENDING)
    writers = []
    try:
        port = meshes[1].listen_port
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writers.append(writer)
        writer.write(struct.pack(">I", 5000) + bytes(100))  # big frames wait for the handshake
        async with asyncio.timeout(3):
            while await reader.read(65536):
                pass
        assert "a frame of 5000 bytes (frames hold 1..4096 bytes)" in events[1].text()

        for _ in range(transport.MAX_PENDING):
            writers.append((await asyncio.open_connection("127.0.0.1", port))[1])
        assert await eventually(lambda: meshes[1]._pending == transport.MAX_PENDING)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writers.append(writer)
        async with asyncio.timeout(3):
            with contextlib.suppress(ConnectionResetError):
                assert await reader.read(65536) == b""  # hung up at once, nothing sent
        assert "already in their handshake" in events[1].text()
    finally:
        for writer in writers:
            writer.close()
        await close_all(meshes)
    assert meshes[1]._pending == 0


# ------------------------------------------------------------------------------ listener bounds


async def join_seat_0(meshes: dict[int, Mesh], events: dict[int, Events]) -> None:
    """Start the real seat 0 against the running seat 1 and wait for their link (4 s at most)."""
    more, _, more_events = await start_meshes(
        2, addresses={1: ("127.0.0.1", meshes[1].listen_port)}, skip={1}
    )
    meshes[0], events[0] = more[0], more_events[0]
    assert await meshes[1].wait_connected({0}, timeout=4.0), events[1].text()


async def test_a_huge_length_from_a_caller_is_refused_at_its_header() -> None:
    meshes, _, events = await start_meshes(2, skip={0})
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", meshes[1].listen_port)
        writer.write(struct.pack(">I", 0xFFFFFFFF))  # and then nothing: no body is awaited
        assert await hung_up(reader)
        writer.close()
        assert "a frame of 4294967295 bytes (frames hold 1..4096 bytes)" in events[1].text()
        assert meshes[1].drops == transport.ListenerDrops(oversized=1)
        assert meshes[1]._pending == 0
        await join_seat_0(meshes, events)
    finally:
        await close_all(meshes)


async def test_a_silent_caller_frees_its_slot_and_a_link_still_forms() -> None:
    meshes, _, events = await start_meshes(2, skip={0}, handshake_timeout=0.3)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", meshes[1].listen_port)
        assert await eventually(lambda: meshes[1]._pending == 1)
        assert await hung_up(reader)
        writer.close()
        assert meshes[1].drops.silent == 1
        assert meshes[1]._pending == 0
        await join_seat_0(meshes, events)
    finally:
        await close_all(meshes)


async def test_a_thousand_callers_at_once_are_bounded_and_a_link_still_forms() -> None:
    meshes, _, events = await start_meshes(2, skip={0}, handshake_timeout=1.0)
    flood: list[Any] = []
    try:
        mesh = meshes[1]
        flood = await open_many(mesh.listen_port, 1000)
        assert len(flood) >= 500  # the machine let most of them open
        # Every accepted caller is either holding one of the bounded slots or hung up on.
        ok = await eventually(lambda: mesh.drops.busy + mesh._pending == len(flood), 5.0)
        assert ok, (len(flood), mesh.drops, mesh._pending)
        assert mesh._pending == transport.MAX_PENDING
        assert mesh.drops.busy == len(flood) - transport.MAX_PENDING
        assert "callers are already in their handshake" in events[1].text()
        # The slots are freed when the handshake timeout runs out; then seat 0 gets through.
        await join_seat_0(meshes, events)
        # Seat 0 may get through once one slot is free, before the rest have timed out.
        timed_out = await eventually(lambda: mesh.drops.silent == transport.MAX_PENDING, 5.0)
        assert timed_out, mesh.drops
        assert mesh._pending == 0
    finally:
        close_connections(flood)
        await close_all(meshes)


async def test_one_address_cannot_take_every_slot() -> None:
    meshes, _, events = await start_meshes(2, skip={0}, handshake_timeout=5.0)
    flood: list[Any] = []
    try:
        mesh = meshes[1]
        flood = await open_many(mesh.listen_port, 50, sources=("127.0.0.2",))
        assert await eventually(lambda: mesh.drops.busy + mesh._pending == len(flood))
        assert mesh._pending == transport.MAX_PENDING_PER_HOST
        await join_seat_0(meshes, events)  # from 127.0.0.1, while the flood still holds on
    finally:
        close_connections(flood)
        await close_all(meshes)


async def test_listen_on_every_family_with_port_0_binds_one_port() -> None:
    async def ignore(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    for host in (None, "localhost"):
        server = await transport.listen(ignore, host, 0)
        try:
            ports = {sock.getsockname()[1] for sock in server.sockets}
            assert len(ports) == 1, (host, ports)
        finally:
            server.close()
            await server.wait_closed()
