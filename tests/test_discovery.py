"""LAN discovery (docs/PROTOCOL.md §10): beacon encoding, the bounded and rate-limited table book,
announcer and listener over loopback, junk and floods, and two network namespaces joined by a
veth pair (root and iproute2 only; skipped otherwise, with the reason)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.net import discovery
from hexlan.net.discovery import (
    DISCOVERY_PORT,
    MAX_TABLES,
    Announcer,
    Listener,
    TableAnnouncement,
    TableBook,
    broadcast_addresses,
    decode_announcement,
    encode_announcement,
)

FP = "3f9a-01c2-77de-b410"
TABLE = TableAnnouncement("Ann's table", 47400, 1, 4, FP)


def beacon(*fields: object) -> bytes:
    return msgpack.packb(list(fields), use_bin_type=True)


# ------------------------------------------------------------------------------ encoding


def test_round_trip_and_size() -> None:
    data = encode_announcement(TABLE)
    assert len(data) < 512
    assert decode_announcement(data) == TABLE
    assert decode_announcement(data, host="10.1.2.3") == TableAnnouncement(
        "Ann's table", 47400, 1, 4, FP, "10.1.2.3"
    )
    longest = TableAnnouncement("é" * 64, 65535, 6, 6, FP, game="g" * 32)
    assert len(encode_announcement(longest)) < 512
    assert decode_announcement(encode_announcement(longest)) == longest


def test_the_game_is_announced_only_when_it_is_not_the_base_game() -> None:
    """A base table's beacon keeps its seven fields; another game's appends its name, so a
    joiner knows which game the host's table plays before it connects."""
    assert msgpack.unpackb(encode_announcement(TABLE))[-1] == FP
    six = TableAnnouncement("Six", 47400, 2, 6, FP, game="five-six")
    data = encode_announcement(six)
    assert msgpack.unpackb(data)[-1] == "five-six"
    assert decode_announcement(data) == six
    explicit_base = msgpack.packb(["hexlan-table", 1, "T", 1, 0, 4, FP, "base"])
    assert decode_announcement(explicit_base) is None
    assert decode_announcement(msgpack.packb(["hexlan-table", 1, "T", 1, 0, 7, FP])) is None
    for game in ("", "Five", "x" * 33, "five six", 5):
        assert (
            decode_announcement(msgpack.packb(["hexlan-table", 1, "T", 1, 0, 6, FP, game])) is None
        )
    with pytest.raises(ValueError, match="game"):
        encode_announcement(TableAnnouncement("T", 1, 0, 6, FP, game="Five Six"))


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",
        beacon("hexlan-table", 1, "T", 47400, 1, 4),  # short
        beacon("hexlan-table", 1, "T", 47400, 1, 4, FP, 0),  # long
        beacon("hexlan-tablo", 1, "T", 47400, 1, 4, FP),
        beacon("hexlan-table", 2, "T", 47400, 1, 4, FP),
        beacon("hexlan-table", True, "T", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, b"T", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, "", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, "x" * 65, 47400, 1, 4, FP),
        beacon("hexlan-table", 1, "evil\x1b[2J", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, "a\u202eb", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, " T", 47400, 1, 4, FP),
        beacon("hexlan-table", 1, "T", 0, 1, 4, FP),
        beacon("hexlan-table", 1, "T", 65536, 1, 4, FP),
        beacon("hexlan-table", 1, "T", 47400.0, 1, 4, FP),
        beacon("hexlan-table", 1, "T", 47400, 5, 4, FP),
        beacon("hexlan-table", 1, "T", 47400, -1, 4, FP),
        beacon("hexlan-table", 1, "T", 47400, 1, 0, FP),
        beacon("hexlan-table", 1, "T", 47400, 1, 9, FP),
        beacon("hexlan-table", 1, "T", 47400, 1, 4, "3F9A-01C2-77DE-B410"),
        beacon("hexlan-table", 1, "T", 47400, 1, 4, "3f9a01c277deb410"),
        beacon("hexlan-table", 1, "T", 47400, 1, 4, None),
        msgpack.packb({"hexlan-table": 1}),
        beacon("hexlan-table", 1, "T", 47400, 1, 4, FP) + b"\x00",  # trailing bytes
        beacon("hexlan-table", 1, "T", 47400, 1, 4, FP)[:-1],  # truncated
        beacon("hexlan-table", 1, "T" * 40, 47400, 1, 4, FP).ljust(512, b"\x00"),  # too big
        msgpack.packb([b"\x00" * 600]),
    ],
)
def test_decode_rejects_wrong_shapes(data: bytes) -> None:
    assert decode_announcement(data) is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_decode_never_raises(data: bytes) -> None:
    decode_announcement(data)


def test_encode_refuses_bad_tables() -> None:
    for bad in (
        TableAnnouncement("", 1, 0, 4, FP),
        TableAnnouncement("T", 1, 5, 4, FP),
        TableAnnouncement("T", 70000, 0, 4, FP),
        TableAnnouncement("T", 1, 0, 4, "nope"),
        TableAnnouncement("T\n", 1, 0, 4, FP),
    ):
        with pytest.raises(ValueError):
            encode_announcement(bad)


# ------------------------------------------------------------------------------ table book


def test_book_keeps_the_newest_per_host_and_port_and_expires() -> None:
    book = TableBook()
    book.receive(encode_announcement(TABLE), "10.0.0.1", now=0.0)
    newer = TableAnnouncement("Ann's table", 47400, 2, 4, FP)
    book.receive(encode_announcement(newer), "10.0.0.1", now=1.0)
    book.receive(encode_announcement(TABLE), "10.0.0.2", now=1.5)
    assert [(t.host, t.seats_taken) for t in book.tables(now=2.0)] == [
        ("10.0.0.1", 2),
        ("10.0.0.2", 1),
    ]
    assert [t.host for t in book.tables(now=6.2)] == ["10.0.0.2"]
    assert book.tables(now=7.0) == []


def test_book_rate_limits_each_sender() -> None:
    book = TableBook(rate=5.0)
    data = encode_announcement(TABLE)
    accepted = sum(book.receive(data, "10.0.0.9", now=0.0) is not None for _ in range(50))
    assert accepted == 5
    assert book.dropped == 45
    assert book.receive(data, "10.0.0.8", now=0.0) is not None  # another sender is unaffected
    assert book.receive(data, "10.0.0.9", now=0.1) is None  # half a token
    assert book.receive(data, "10.0.0.9", now=0.25) is not None


def test_book_is_bounded() -> None:
    book = TableBook()
    for i in range(1000):
        table = TableAnnouncement(f"T{i}", 1000 + i, 0, 4, FP)
        book.receive(encode_announcement(table), f"10.0.{i // 250}.{i % 250}", now=i * 0.001)
        assert len(book) <= MAX_TABLES
    assert len(book) == MAX_TABLES
    assert {t.name for t in book.tables(now=1.0)} == {f"T{i}" for i in range(936, 1000)}
    one_host = TableBook()
    for i in range(100):
        table = TableAnnouncement("T", 1000 + i, 0, 4, FP)
        one_host.receive(encode_announcement(table), "10.9.9.9", now=i * 0.25)  # within rate
    assert len(one_host) == discovery.MAX_TABLES_PER_HOST
    assert len(one_host._buckets) == 1


def test_book_forgets_old_senders() -> None:
    book = TableBook(max_senders=10)
    for i in range(100):
        book.receive(b"junk", f"10.1.0.{i}", now=0.0)
    assert len(book._buckets) == 10
    assert len(book) == 0


# ------------------------------------------------------------------------------ sockets


def test_broadcast_addresses_include_loopback() -> None:
    addresses = broadcast_addresses()
    assert addresses[-1] == "127.255.255.255"
    assert len(addresses) >= 2
    for a in addresses:
        socket.inet_aton(a)


async def test_listener_hears_an_announcer_on_loopback() -> None:
    listener = Listener(port=0, host="127.0.0.1")
    await listener.start()
    announcer = Announcer(
        TABLE, port=listener.port, targets=["127.0.0.1"], interval=5.0, min_interval=0.2
    )
    await announcer.start()
    try:
        tables = await listener.wait_for_table(3.0)
        assert tables == [TableAnnouncement("Ann's table", 47400, 1, 4, FP, "127.0.0.1")]
        announcer.update(3)
        for _ in range(40):  # the update goes out within the once-per-second limit
            await asyncio.sleep(0.05)
            if listener.tables()[0].seats_taken == 3:
                break
        assert listener.tables()[0].seats_taken == 3
        assert announcer.sent == 2
        with pytest.raises(ValueError):
            announcer.update(9)
    finally:
        await announcer.stop()
        await announcer.stop()
        await listener.stop()
        await listener.stop()


async def test_announcer_sends_at_most_once_per_second() -> None:
    listener = Listener(port=0, host="127.0.0.1")
    await listener.start()
    announcer = Announcer(TABLE, port=listener.port, targets=["127.0.0.1"], interval=0.01)
    assert announcer.interval == 1.0  # clamped to the protocol's minimum
    await announcer.start()
    try:
        await listener.wait_for_table(3.0)
        for taken in (2, 3, 4, 2):
            announcer.update(taken)
        await asyncio.sleep(0.3)
        assert announcer.sent == 1
        assert listener.received == 1
    finally:
        await announcer.stop()
        await listener.stop()


async def test_two_listeners_share_the_port() -> None:
    first = Listener(port=0)
    await first.start()
    second = Listener(port=first.port)
    await second.start()
    announcer = Announcer(TABLE, port=first.port, targets=["127.255.255.255"])
    await announcer.start()
    try:
        for listener in (first, second):
            tables = await listener.wait_for_table(3.0)
            assert [t.name for t in tables] == ["Ann's table"]
    finally:
        await announcer.stop()
        await first.stop()
        await second.stop()


async def test_junk_and_a_flood_do_not_hurt_the_listener() -> None:
    listener = Listener(port=0, host="0.0.0.0")
    await listener.start()
    junk = [
        b"",
        b"\xc1" * 10,
        os.urandom(1400),
        beacon("hexlan-table", 1, "T", 47400, 9, 4, FP),
        msgpack.packb([[[[[[[[]]]]]]]]),
    ]
    flooder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flooder.bind(("127.0.0.3", 0))
    flooder.setblocking(False)
    try:
        for data in junk:
            flooder.sendto(data, ("127.0.0.1", listener.port))
        for i in range(1000):
            table = TableAnnouncement(f"flood {i}", 1 + i, 0, 4, FP)
            with contextlib.suppress(BlockingIOError):  # a full send buffer drops it
                flooder.sendto(encode_announcement(table), ("127.0.0.1", listener.port))
            if i % 50 == 0:
                await asyncio.sleep(0.002)
        for _ in range(50):
            await asyncio.sleep(0.01)
            if listener.received >= 1005:
                break
        assert listener.received > 100
        assert len(listener.book) <= 5  # the rate limit let the first burst through, no more
        assert len(listener.book) <= MAX_TABLES
        assert listener._task is not None and not listener._task.done()

        announcer = Announcer(TABLE, port=listener.port, targets=["127.0.0.1"])
        await announcer.start()
        try:
            for _ in range(60):
                await asyncio.sleep(0.05)
                if any(t.name == "Ann's table" for t in listener.tables()):
                    break
            assert any(t.name == "Ann's table" for t in listener.tables())
        finally:
            await announcer.stop()
    finally:
        flooder.close()
        await listener.stop()


async def test_a_junk_flood_is_dropped_undecoded_and_a_real_table_is_still_heard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Junk from 8 addresses, as fast as the socket takes it, while a real table announces
    from 127.0.0.1: the junk over each sender's rate is never decoded, the table is heard."""
    decoded = 0
    decode = discovery.decode_announcement

    def counting(data: bytes, host: str | None = None) -> TableAnnouncement | None:
        nonlocal decoded
        decoded += 1
        return decode(data, host)

    monkeypatch.setattr(discovery, "decode_announcement", counting)
    listener = Listener(port=0, host="0.0.0.0")
    await listener.start()
    flooders = []
    for i in range(2, 10):
        flooder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        flooder.bind((f"127.0.0.{i}", 0))
        flooder.setblocking(False)
        flooders.append(flooder)
    announcer = Announcer(TABLE, port=listener.port, targets=["127.0.0.1"], min_interval=0.2)
    try:
        await announcer.start()
        loop = asyncio.get_running_loop()
        end = loop.time() + 1.5
        sent = 0
        while loop.time() < end:
            for flooder in flooders:
                with contextlib.suppress(BlockingIOError):  # a full send buffer drops it
                    flooder.sendto(os.urandom(sent % 600 + 1), ("127.0.0.1", listener.port))
                    sent += 1
            if sent % 200 < len(flooders):
                await asyncio.sleep(0.001)
        await asyncio.sleep(0.1)
        book = listener.book
        assert listener.received > 1000
        assert any(t.name == "Ann's table" for t in listener.tables())
        # Only what each sender's rate let through was decoded: at most a burst of RATE and
        # RATE per second more, per address (8 flooders, the announcer).
        assert decoded == listener.received - book.rate_limited
        assert decoded <= 9 * discovery.RATE * (1 + 2.0)
        assert book.junk <= 8 * discovery.RATE * (1 + 2.0)
        assert book.rate_limited > 0.9 * listener.received
        assert [t.name for t in listener.tables()] == ["Ann's table"]
        assert listener._task is not None and not listener._task.done()
    finally:
        await announcer.stop()
        for flooder in flooders:
            flooder.close()
        await listener.stop()


# ------------------------------------------------------------------------------ namespaces

PYTHON = sys.executable
REPO = Path(__file__).resolve().parents[1]

LISTEN_SCRIPT = """
import asyncio, json
from hexlan.net.discovery import Listener
async def main():
    listener = Listener()  # the real port: each namespace has its own
    await listener.start()
    print("ready", flush=True)
    tables = await listener.wait_for_table(6.0)
    await listener.stop()
    print(json.dumps([[t.name, t.host, t.tcp_port, t.seats_taken, t.seats] for t in tables]))
asyncio.run(main())
"""

ANNOUNCE_SCRIPT = """
import asyncio
from hexlan.net.discovery import Announcer, TableAnnouncement, broadcast_addresses
async def main():
    print(" ".join(broadcast_addresses()), flush=True)
    announcer = Announcer(TableAnnouncement("netns table", 47555, 2, 3, "3f9a-01c2-77de-b410"))
    await announcer.start()
    await asyncio.sleep(8)
asyncio.run(main())
"""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=5)


def _netns_unavailable() -> str | None:
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if shutil.which("ip") is None:
        return "`ip` (iproute2) is not installed"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    probe = f"hxprobe{os.getpid()}"
    try:
        _ip("netns", "add", probe)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        return f"`ip netns add` fails here: {getattr(exc, 'stderr', b'')!r}"
    _ip("netns", "del", probe)
    return None


def test_announcer_and_listener_in_two_namespaces() -> None:
    reason = _netns_unavailable()
    if reason:
        pytest.skip(reason)
    tag = f"{os.getpid() % 100000}"
    ns_a, ns_b = f"hxa{tag}", f"hxb{tag}"
    veth_a, veth_b = f"hxva{tag}", f"hxvb{tag}"
    listener = announcer = None
    try:
        _ip("netns", "add", ns_a)
        _ip("netns", "add", ns_b)
        _ip("link", "add", veth_a, "type", "veth", "peer", "name", veth_b)
        _ip("link", "set", veth_a, "netns", ns_a)
        _ip("link", "set", veth_b, "netns", ns_b)
        _ip("-n", ns_a, "addr", "add", "10.231.7.1/24", "brd", "+", "dev", veth_a)
        _ip("-n", ns_b, "addr", "add", "10.231.7.2/24", "brd", "+", "dev", veth_b)
        for ns, dev in ((ns_a, veth_a), (ns_b, veth_b)):
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")

        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        listener = subprocess.Popen(
            ["ip", "netns", "exec", ns_b, PYTHON, "-c", LISTEN_SCRIPT],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )
        assert listener.stdout is not None
        assert listener.stdout.readline().strip() == "ready"
        announcer = subprocess.Popen(
            ["ip", "netns", "exec", ns_a, PYTHON, "-c", ANNOUNCE_SCRIPT],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=env,
        )
        out, err = listener.communicate(timeout=8)
        assert listener.returncode == 0, err
        tables = json.loads(out.strip().splitlines()[-1])
        assert tables == [["netns table", "10.231.7.1", 47555, 2, 3]]
        announcer.kill()
        a_out, _ = announcer.communicate(timeout=5)
        assert "10.231.7.255" in a_out.split()  # found through the interface's ioctl
    finally:
        for process in (announcer, listener):
            if process is not None and process.poll() is None:
                process.kill()
                process.communicate(timeout=5)
        for ns in (ns_a, ns_b):
            subprocess.run(["ip", "netns", "del", ns], check=False, capture_output=True, timeout=5)


def test_default_port() -> None:
    assert DISCOVERY_PORT == 47431
