"""LAN table discovery: small UDP beacons (docs/PROTOCOL.md §10).

``hexlan host`` runs an :class:`Announcer`, which sends its table at most once per second to the
broadcast address of each IPv4 interface on port :data:`DISCOVERY_PORT`; ``hexlan join`` runs a
:class:`Listener`, which lists the tables it hears. A beacon is msgpack
``["hexlan-table", 1, name, tcp_port, seats_taken, seats, fingerprint]``, under 512 bytes.

The pure part is :func:`encode_announcement`, :func:`decode_announcement` (``None`` for anything
that is not exactly that shape; it never raises on junk) and :class:`TableBook`, which keeps what
was heard (newest per sender host and port, expiring after 5 s, bounded, rate-limited per
sender). :class:`Announcer` and :class:`Listener` are thin asyncio shells over ``asyncio-dgram``.

Beacons are neither signed nor trusted: they only say where to connect. The table's identity is
checked by its fingerprint and the signed ``hello`` exchange that follows (§3).

>>> table = TableAnnouncement("Ann's table", 47400, 1, 4, "3f9a-01c2-77de-b410")
>>> decode_announcement(encode_announcement(table), host="10.0.0.7")
TableAnnouncement(name="Ann's table", tcp_port=47400, seats_taken=1, seats=4, fingerprint='3f9a-01c2-77de-b410', host='10.0.0.7')
>>> decode_announcement(b"\\x00junk") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import socket
import struct
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

import asyncio_dgram
import msgpack

__all__ = [
    "DISCOVERY_PORT",
    "MAX_ANNOUNCEMENT",
    "Announcer",
    "Listener",
    "TableAnnouncement",
    "TableBook",
    "broadcast_addresses",
    "decode_announcement",
    "encode_announcement",
]

log = logging.getLogger(__name__)

DISCOVERY_PORT: Final = 47431
MAX_ANNOUNCEMENT: Final = 512
"""Beacons are shorter than this many bytes."""
ANNOUNCE_TAG: Final = "hexlan-table"
ANNOUNCE_VERSION: Final = 1
MAX_NAME: Final = 64
"""The longest table name, in characters."""
MAX_SEATS: Final = 8
EXPIRY: Final = 5.0
"""Seconds after which a table not heard again is dropped."""
MAX_TABLES: Final = 64
MAX_TABLES_PER_HOST: Final = 8
RATE: Final = 5.0
"""Datagrams per second accepted from one sender address (a burst of as many is allowed); the
rest are dropped before any decoding, so a flood costs a dictionary look-up per datagram."""
MAX_SENDERS: Final = 256
"""Sender addresses whose rate is tracked; the least recently heard is forgotten first."""
MIN_INTERVAL: Final = 1.0
"""Seconds between two beacons of one announcer, at least (§10)."""

_FINGERPRINT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters a table name may not hold: controls and bidirectional overrides, which a name
would otherwise use to redraw or disguise a terminal line."""


@dataclass(frozen=True, slots=True)
class TableAnnouncement:
    """A table as announced: where to connect and how full it is.

    ``host`` is the sender's address when the announcement was received (``None`` when built
    locally); it is not part of the beacon.
    """

    name: str
    tcp_port: int
    seats_taken: int
    seats: int
    fingerprint: str
    host: str | None = None

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.seats


def _is_int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _problem(t: TableAnnouncement) -> str | None:
    """Why ``t`` cannot be announced, or None."""
    if not isinstance(t.name, str) or not 1 <= len(t.name) <= MAX_NAME:
        return f"a table name has 1..{MAX_NAME} characters, not {t.name!r}"
    if _CONTROL.search(t.name) or t.name != t.name.strip():
        return f"a table name may not hold control characters or edge spaces: {t.name!r}"
    if not _is_int(t.tcp_port, 1, 65535):
        return f"tcp_port must be in 1..65535, not {t.tcp_port!r}"
    if not _is_int(t.seats, 1, MAX_SEATS):
        return f"seats must be in 1..{MAX_SEATS}, not {t.seats!r}"
    if not _is_int(t.seats_taken, 0, t.seats):
        return f"seats_taken must be in 0..{t.seats}, not {t.seats_taken!r}"
    if not (isinstance(t.fingerprint, str) and _FINGERPRINT.fullmatch(t.fingerprint)):
        return f"a fingerprint looks like '3f9a-01c2-77de-b410', not {t.fingerprint!r}"
    return None


def encode_announcement(table: TableAnnouncement) -> bytes:
    """The beacon for ``table`` (its ``host`` is not sent).

    Raises:
        ValueError: a field out of range, or a beacon of 512 bytes or more.
    """
    problem = _problem(table)
    if problem:
        raise ValueError(problem)
    data: bytes = msgpack.packb(
        [
            ANNOUNCE_TAG,
            ANNOUNCE_VERSION,
            table.name,
            table.tcp_port,
            table.seats_taken,
            table.seats,
            table.fingerprint,
        ],
        use_bin_type=True,
    )
    if len(data) >= MAX_ANNOUNCEMENT:
        raise ValueError(f"a beacon of {len(data)} bytes; beacons are under {MAX_ANNOUNCEMENT}")
    return data


def decode_announcement(data: bytes, host: str | None = None) -> TableAnnouncement | None:
    """The table a beacon announces, or ``None`` if ``data`` is anything but exactly a beacon
    (wrong tag or version, a field of the wrong type or range, extra bytes, 512 bytes or more).
    Never raises.
    """
    if not isinstance(data, bytes | bytearray | memoryview) or len(data) >= MAX_ANNOUNCEMENT:
        return None
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            max_str_len=MAX_ANNOUNCEMENT,
            max_bin_len=0,
            max_array_len=7,
            max_map_len=0,
            max_ext_len=0,
        )
    except Exception:  # msgpack's errors on junk are many; junk is simply not a beacon
        return None
    if not (isinstance(value, list) and len(value) == 7):
        return None
    tag, version, name, tcp_port, seats_taken, seats, fp = value
    if tag != ANNOUNCE_TAG or type(version) is not int or version != ANNOUNCE_VERSION:
        return None
    table = TableAnnouncement(name, tcp_port, seats_taken, seats, fp, host)
    return None if _problem(table) else table


# ------------------------------------------------------------------------------ sans-IO book


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class TableBook:
    """What a listener has heard: the pure core of :class:`Listener` (no sockets, no clock).

    :meth:`receive` takes one datagram with its sender and the time; :meth:`tables` lists the
    newest announcement per ``(host, tcp_port)`` heard within ``expiry`` seconds. It stays
    bounded whatever arrives: at most ``max_tables`` tables (the stalest is dropped for a new
    one), ``max_per_host`` per sender host, and ``rate`` datagrams per second per sender address
    (token bucket; the rest are dropped before decoding).
    """

    def __init__(
        self,
        *,
        expiry: float = EXPIRY,
        max_tables: int = MAX_TABLES,
        max_per_host: int = MAX_TABLES_PER_HOST,
        rate: float = RATE,
        max_senders: int = MAX_SENDERS,
    ) -> None:
        self.expiry = expiry
        self.max_tables = max_tables
        self.max_per_host = max_per_host
        self.rate = rate
        self.max_senders = max_senders
        self._tables: OrderedDict[tuple[str, int], tuple[float, TableAnnouncement]] = OrderedDict()
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self.rate_limited = 0
        """Datagrams dropped undecoded: over their sender's rate."""
        self.junk = 0
        """Datagrams within the rate that were not a beacon."""

    @property
    def dropped(self) -> int:
        """Datagrams dropped so far: rate-limited or not a beacon."""
        return self.rate_limited + self.junk

    def _allow(self, sender: str, now: float) -> bool:
        bucket = self._buckets.pop(sender, None)
        if bucket is None:
            bucket = _Bucket(self.rate, now)
            while len(self._buckets) >= self.max_senders:
                self._buckets.popitem(last=False)
        else:
            elapsed = max(0.0, now - bucket.at)
            bucket.tokens = min(self.rate, bucket.tokens + elapsed * self.rate)
            bucket.at = now
        self._buckets[sender] = bucket  # most recently heard last
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def receive(self, data: bytes, sender: str, now: float) -> TableAnnouncement | None:
        """Take one datagram from address ``sender`` at time ``now`` (seconds, monotonic).

        Returns the announcement it carried, or None if it was dropped.
        """
        if not self._allow(sender, now):
            self.rate_limited += 1
            return None
        table = decode_announcement(data, host=sender)
        if table is None:
            self.junk += 1
            return None
        self._expire(now)
        key = (sender, table.tcp_port)
        if key not in self._tables:
            same_host = [k for k in self._tables if k[0] == sender]
            if len(same_host) >= self.max_per_host:
                del self._tables[same_host[0]]  # that host's stalest
            elif len(self._tables) >= self.max_tables:
                self._tables.popitem(last=False)  # the stalest of all
        self._tables.pop(key, None)
        self._tables[key] = (now, table)  # freshest last
        return table

    def _expire(self, now: float) -> None:
        while self._tables:
            key, (heard, _) = next(iter(self._tables.items()))
            if now - heard <= self.expiry:
                break
            del self._tables[key]

    def tables(self, now: float) -> list[TableAnnouncement]:
        """The tables heard within ``expiry`` seconds of ``now``, sorted by name, host, port."""
        self._expire(now)
        return sorted(
            (t for _, t in self._tables.values()),
            key=lambda t: (t.name.casefold(), t.host or "", t.tcp_port),
        )

    def __len__(self) -> int:
        return len(self._tables)


# ------------------------------------------------------------------------------ interfaces

_SIOCGIFFLAGS: Final = 0x8913
_SIOCGIFBRDADDR: Final = 0x8919
_IFF_UP: Final = 0x1
_IFF_BROADCAST: Final = 0x2
LOOPBACK_BROADCAST: Final = "127.255.255.255"
"""Reaches every listener on this host, however many share the port (unicast would reach
only one of them)."""


def _interface_broadcasts() -> list[str]:
    """Broadcast addresses of the IPv4 interfaces that are up (Linux ``ioctl``; else [])."""
    if not sys.platform.startswith("linux"):
        return []
    try:
        import fcntl  # noqa: PLC0415 - Unix only
    except ImportError:  # pragma: no cover
        return []
    found: list[str] = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in interfaces:
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack_from(
                    "H", fcntl.ioctl(s.fileno(), _SIOCGIFFLAGS, request), 16
                )[0]
                if not (flags & _IFF_UP and flags & _IFF_BROADCAST):
                    continue
                answer = fcntl.ioctl(s.fileno(), _SIOCGIFBRDADDR, request)
            except OSError:  # no IPv4 address, gone meanwhile, ...
                continue
            address = socket.inet_ntoa(answer[20:24])
            if address != "0.0.0.0" and address not in found:
                found.append(address)
    return found


def broadcast_addresses() -> list[str]:
    """Where beacons go: each IPv4 interface's broadcast address (or ``255.255.255.255`` if
    none is found), then :data:`LOOPBACK_BROADCAST` so that listeners on this host hear them."""
    found = _interface_broadcasts() or ["255.255.255.255"]
    return [*found, LOOPBACK_BROADCAST]


# ------------------------------------------------------------------------------ asyncio shells


async def _server(sock: socket.socket) -> asyncio_dgram.aio.DatagramServer:
    """The datagram stream of an unconnected UDP socket (asyncio-dgram makes it a server)."""
    stream = await asyncio_dgram.from_socket(sock)
    assert isinstance(stream, asyncio_dgram.aio.DatagramServer)
    return stream


def _udp_socket(bind: tuple[str, int] | None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if bind is not None:
            sock.bind(bind)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


class Announcer:
    """Announces a table on the LAN until stopped.

    Sends the beacon at once, then every ``interval`` seconds (never more often than once per
    :data:`MIN_INTERVAL`, unless a test passes a smaller ``min_interval``), and soon after
    :meth:`update` changes it. ``targets`` replaces :func:`broadcast_addresses` (e.g.
    ``["127.0.0.1"]`` in tests). Send errors (an interface gone, a network down) are logged and
    skipped; the announcer keeps going.
    """

    def __init__(
        self,
        table: TableAnnouncement,
        *,
        port: int = DISCOVERY_PORT,
        targets: Iterable[str] | None = None,
        interval: float = MIN_INTERVAL,
        min_interval: float = MIN_INTERVAL,
    ) -> None:
        self._beacon = encode_announcement(table)
        self.table = dataclasses.replace(table, host=None)
        self.port = port
        self.targets = list(targets) if targets is not None else None
        self.min_interval = min_interval
        self.interval = max(interval, min_interval)
        self.sent = 0
        """Beacons sent so far (one per target address)."""
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stream: asyncio_dgram.aio.DatagramServer | None = None

    def update(self, seats_taken: int) -> None:
        """Announce a new number of seats taken (sent soon, within the rate limit).

        Raises:
            ValueError: out of range for the table's seats.
        """
        table = dataclasses.replace(self.table, seats_taken=seats_taken)
        self._beacon = encode_announcement(table)
        self.table = table
        self._changed.set()

    async def start(self) -> None:
        """Open the socket and start beaconing in the background."""
        if self._task is not None:
            return
        self._stream = await _server(_udp_socket(None))
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hexlan-announcer")

    async def _run(self) -> None:
        assert self._stream is not None
        loop = asyncio.get_running_loop()
        while True:
            self._changed.clear()
            targets = self.targets if self.targets is not None else broadcast_addresses()
            for address in targets:
                try:
                    await self._stream.send(self._beacon, (address, self.port))
                    self.sent += 1
                except (OSError, asyncio_dgram.TransportClosed) as exc:
                    log.debug("beacon to %s:%d failed: %s", address, self.port, exc)
            sent_at = loop.time()
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancellation
            # that arrives as the event is set (an update just before stop()), and the task
            # would then beacon on forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.interval):
                    await self._changed.wait()
            wait = sent_at + self.min_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)

    async def stop(self) -> None:
        """Stop beaconing and close the socket. Stopping twice is harmless."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class Listener:
    """Listens for beacons on ``port`` (shared with other listeners on this host:
    ``SO_REUSEADDR``/``SO_REUSEPORT``) and keeps a :class:`TableBook`.

    ``clock`` is the time source for expiry and rate limits (``time.monotonic``).
    """

    def __init__(
        self,
        *,
        port: int = DISCOVERY_PORT,
        host: str = "0.0.0.0",
        clock: Callable[[], float] = time.monotonic,
        book: TableBook | None = None,
    ) -> None:
        self.port = port
        self.host = host
        self.clock = clock
        self.book = book if book is not None else TableBook()
        self.received = 0
        """Datagrams received so far, junk included."""
        self._task: asyncio.Task[None] | None = None
        self._stream: asyncio_dgram.aio.DatagramServer | None = None
        self._heard = asyncio.Event()

    async def start(self) -> None:
        """Bind the port and start listening in the background.

        Raises:
            OSError: the port cannot be bound.
        """
        if self._task is not None:
            return
        stream = await _server(_udp_socket((self.host, self.port)))
        self._stream = stream
        self.port = stream.sockname[1]
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hexlan-listener")

    async def _run(self) -> None:
        assert self._stream is not None
        while True:
            try:
                data, address = await self._stream.recv()
            except asyncio_dgram.TransportClosed:
                return
            except OSError as exc:  # an ICMP error reported on the socket: not ours to fix
                log.debug("discovery socket error: %s", exc)
                continue
            self.received += 1
            host = address[0] if isinstance(address, tuple) else str(address)
            if self.book.receive(data, host, self.clock()) is not None:
                self._heard.set()

    def tables(self) -> list[TableAnnouncement]:
        """The tables heard in the last few seconds (see :class:`TableBook`)."""
        return self.book.tables(self.clock())

    async def wait_for_table(self, timeout: float) -> list[TableAnnouncement]:
        """Wait until at least one table is known (or ``timeout`` seconds pass); the tables."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not self.tables():
                    self._heard.clear()
                    await self._heard.wait()
        return self.tables()

    async def stop(self) -> None:
        """Stop listening and close the socket. Stopping twice is harmless."""
        task, self._task = self._task, None
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
