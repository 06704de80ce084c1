"""The game's TCP full mesh between seats (docs/PROTOCOL.md §8).

Two layers, h11 style:

- **Sans-IO core.** :func:`encode_frame` and :class:`FrameDecoder` (a frame is a 4-byte
  big-endian length and one envelope of at most 256 KiB), and :class:`LinkProtocol`, one link's
  handshake and frame checks: bytes in, :data:`LinkEffect` values out (:class:`SendBytes`,
  :class:`Ready`, :class:`Deliver`, :class:`Close`). No sockets, no clock.
- **Thin asyncio shell.** :class:`Mesh` runs one :class:`LinkProtocol` per TCP connection:
  it reads, feeds, carries out the effects, and redials dropped links.

Link handshake (both sides at once): each sends ``link_hello [game_id, seat, nonce, heads]``
(a lobby envelope signed by its identity key, ``nonce`` 16 fresh random bytes, ``heads`` its
accepted heads), then answers the other's hello with ``link_proof [signature]``, the identity
key's signature of ``b"hexlan/v1/link\\0" || game_id || their_nonce``. A link is open when the
other side's hello and proof both verify under the key the opening gives its seat, and that key
passes :func:`~hexlan.net.identity.check_ed25519_public` (no weak key); anything else closes it
with a reason. When it opens, each side resends what the other lacks
(``handler.missing_for(their_heads)``), byte for byte.

Who dials whom: **a seat dials every higher-numbered seat and accepts calls from lower ones**,
so each pair has exactly one connection and no duplicate to settle. A dropped dialled link is
redialled with backoff (0.2 s doubling to 2 s); an accepted one waits for the lower seat to call
again. A new call from a seat that still has an open link replaces the old link (the peer
restarted, and the old connection is half-open).

Bad input from a peer never takes the mesh down: a frame over 256 KiB, bytes that are not an
envelope, or a handshake message after the handshake closes that link only, with a reason
passed to ``on_link_event(seat, text)``.

Callers not yet authenticated are bounded (:class:`CallerGate`): at most :data:`MAX_PENDING` at
once and :data:`MAX_PENDING_PER_HOST` from one address (more are hung up on at once), each with
:data:`HANDSHAKE_TIMEOUT` seconds to finish and frames of at most :data:`HANDSHAKE_MAX_FRAME`
bytes; :attr:`Mesh.drops` counts what was turned away (:class:`ListenerDrops`).
:func:`listen` binds one port number on every address family (port 0 included).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import errno
import logging
import os
import socket
import struct
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from hexlan.net.chat import is_chat_frame
from hexlan.net.identity import Identity, WeakKeyError, check_ed25519_public, fingerprint
from hexlan.net.wire import (
    LINK_PREFIX,
    LOBBY_KINDS,
    MAX_ENVELOPE,
    MAX_SPECTATORS,
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    MalformedMessage,
    RemoteProtocolError,
    sign_body,
)

__all__ = [
    "BACKOFF_MAX",
    "BACKOFF_MIN",
    "HANDSHAKE_TIMEOUT",
    "MAX_FRAME",
    "MAX_PENDING",
    "MAX_PENDING_PER_HOST",
    "NO_SPECTATORS",
    "CallerGate",
    "CatchUp",
    "Chat",
    "Close",
    "Deliver",
    "FrameDecoder",
    "FramingError",
    "LinkProtocol",
    "ListenerDrops",
    "Mesh",
    "MeshHandler",
    "Ready",
    "SendBytes",
    "SpectatorFeed",
    "SpectatorList",
    "SpectatorsChanged",
    "Watching",
    "encode_frame",
    "listen",
]

log = logging.getLogger(__name__)

MAX_FRAME: Final = MAX_ENVELOPE
"""The largest frame body: one envelope (256 KiB)."""
HEADER: Final = struct.Struct(">I")
NONCE_BYTES: Final = 16
HANDSHAKE_TIMEOUT: Final = 5.0
"""Seconds an accepted connection has, from its accept, to complete the handshake (however
slowly its bytes trickle in); then it is closed and its slot freed. ``Mesh(handshake_timeout=)``
overrides it (tests shorten it)."""
BACKOFF_MIN: Final = 0.2
BACKOFF_MAX: Final = 2.0
"""Redial delays after a failed or dropped link: 0.2 s, doubling, at most 2 s."""
MAX_UNSENT: Final = 16 * 1024 * 1024
"""Bytes waiting to be sent to one peer before its link is dropped as not reading (it gets
everything again through ``missing_for`` when it reconnects)."""
READ_CHUNK: Final = 64 * 1024
HANDSHAKE_MAX_FRAME: Final = 4096
"""The largest frame before a link is open (a link_hello or link_proof is well under 1 KiB), so
an unauthenticated caller cannot make us buffer 256 KiB."""
MAX_PENDING: Final = 16
"""Accepted connections still in their handshake, at most; more callers are hung up on at once
(nothing read, nothing sent), and counted in :attr:`ListenerDrops.busy`."""
MAX_PENDING_PER_HOST: Final = 8
"""Of :data:`MAX_PENDING`, at most this many from one address, so one flooding machine cannot
take every slot from the seats that must call (a game has at most 3 callers per seat)."""
LISTEN_BACKLOG: Final = 1024
"""The listen queue of a TCP listener (the OS may cap it, e.g. at ``somaxconn``): deep enough
that a burst of callers is accepted, and the ones over the bounds hung up on, at once; with
asyncio's 100, most of 1,000 simultaneous callers wait on SYN retries for seconds, real seats
among them."""
CATCH_UP_INTERVAL: Final = 1.0
"""Seconds after answering a spectator's ``catch_up`` during which its next ones are ignored
(§17), so that small requests cannot make a seat resend the game over and over."""
LISTEN_ATTEMPTS: Final = 8
"""Tries at finding a port number free on every address family for :func:`listen` (port 0)."""


# ------------------------------------------------------------------------------ framing


class FramingError(MalformedMessage):
    """A frame that breaks §8 framing (an empty frame, or one larger than :data:`MAX_FRAME`)."""


def encode_frame(envelope_bytes: bytes) -> bytes:
    """One frame: the 4-byte big-endian length, then the envelope.

    Raises:
        ValueError: an empty envelope or one over :data:`MAX_FRAME` bytes (ours to fix).

    >>> encode_frame(b"abc")
    b'\\x00\\x00\\x00\\x03abc'
    """
    size = len(envelope_bytes)
    if not 0 < size <= MAX_FRAME:
        raise ValueError(f"a frame holds 1..{MAX_FRAME} bytes, not {size}")
    return HEADER.pack(size) + bytes(envelope_bytes)


class FrameDecoder:
    """Splits a byte stream into frames, whatever the chunking (byte by byte included).

    :meth:`receive_data` only buffers; :meth:`next_frame` returns the next whole frame or None
    when more bytes are needed. A bad length raises :class:`FramingError` as soon as its header
    is complete (before any of the frame is buffered), and every later call raises it again.
    :meth:`feed` does both and returns every whole frame.

    >>> decoder = FrameDecoder()
    >>> decoder.feed(b"\\x00\\x00\\x00\\x02hi\\x00\\x00")
    [b'hi']
    >>> decoder.feed(b"\\x00\\x01!")
    [b'!']
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._error: FramingError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as a frame."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the stream."""
        if self._error is not None:
            raise self._error
        self._buffer += data

    def next_frame(self) -> bytes | None:
        """The next whole frame's body, or None until more bytes arrive.

        Raises:
            FramingError: the next frame's length is 0 or over ``max_frame``.
        """
        if self._error is not None:
            raise self._error
        if len(self._buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self._buffer)
        if not 0 < size <= self.max_frame:
            self._error = FramingError(
                f"a frame of {size} bytes (frames hold 1..{self.max_frame} bytes)"
            )
            raise self._error
        end = HEADER.size + size
        if len(self._buffer) < end:
            return None
        frame = bytes(self._buffer[HEADER.size : end])
        del self._buffer[:end]
        return frame

    def feed(self, data: bytes) -> list[bytes]:
        """Buffer ``data`` and return every frame now whole.

        Raises:
            FramingError: as :meth:`next_frame` (frames before the bad one are lost with it; use
                :meth:`receive_data` and :meth:`next_frame` to keep them).
        """
        self.receive_data(data)
        frames = []
        while (frame := self.next_frame()) is not None:
            frames.append(frame)
        return frames


# ------------------------------------------------------------------------------ sans-IO link


@dataclass(frozen=True, slots=True)
class SendBytes:
    """Write these bytes (whole frames) to the peer."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Ready:
    """The handshake is done: the peer is ``seat``; ``heads`` are the heads it sent."""

    seat: int
    heads: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Deliver:
    """An envelope from the peer (well-formed; signature not yet checked), for the handler."""

    envelope: bytes


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat frame from the peer (§18: not an envelope; unchecked), for ``on_chat`` (a
    seat's link) or ``on_spectator_chat`` (a spectator's)."""

    frame: bytes


@dataclass(frozen=True, slots=True)
class Close:
    """Close the connection; ``reason`` says why, in words."""

    reason: str


@dataclass(frozen=True, slots=True)
class Watching:
    """The caller is a spectator (§17): its ``watch`` hello signed this link's nonce under
    ``public_key``; ``heads`` are what it already holds. Send it the opening and what it
    lacks."""

    name: str
    public_key: bytes
    heads: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class CatchUp:
    """A spectator asks again for what it lacks, given its ``heads`` (§17)."""

    heads: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class SpectatorList:
    """The seat at the other end says who watches through it: ``(name, public_key)`` pairs
    (§17), signed by its key."""

    spectators: tuple[tuple[str, bytes], ...]


LinkEffect = SendBytes | Ready | Deliver | Chat | Close | Watching | CatchUp | SpectatorList


class LinkState(enum.Enum):
    AWAIT_HELLO = "waiting for link_hello"
    AWAIT_PROOF = "waiting for link_proof"
    OPEN = "open"
    WATCHING = "a spectator's"
    CLOSED = "closed"


NO_SPECTATORS: Final = "this table takes no spectators"
"""The ``refuse`` a seat that serves no spectators sends a ``watch`` hello (§17)."""


GAME_NOT_OVER: Final = (
    "the game at this table is still being played: vote for a rematch once it is over"
)
"""The ``refuse`` a seat's mesh port sends a ``rematch`` vote during the game (§3, Rematch)."""


def link_proof_message(game_id: bytes, nonce: bytes) -> bytes:
    """What a ``link_proof`` signs: ``b"hexlan/v1/link\\0" || game_id || nonce``."""
    return LINK_PREFIX + game_id + nonce


def _lobby_envelope(identity: Identity, kind: str, payload: tuple[Any, ...]) -> bytes:
    body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), kind, payload)
    return sign_body(body, identity).to_bytes()


class LinkProtocol:
    """One link's handshake and frame checks, with no I/O (docs/PROTOCOL.md §8).

    ``expected_seat`` is the seat we dialled (None for an accepted connection, which must come
    from ``accept_from(seat)``-approved seats). ``nonce`` is 16 fresh random bytes and ``heads``
    our heads in wire form; both go into our ``link_hello``. An accepted caller may instead
    answer with a spectator's ``watch`` hello (§17): ``spectators`` None serves it (a
    :class:`Watching` effect, then only its ``catch_up`` requests are taken), else it is the
    reason sent back in a ``refuse``.

    Feed received bytes to :meth:`receive_data`; carry out the returned effects in order. After
    a :class:`Close`, the link is :attr:`LinkState.CLOSED` and returns no more effects.
    """

    def __init__(
        self,
        *,
        seat: int,
        identity: Identity,
        game_id: bytes,
        seat_keys: Mapping[int, bytes],
        heads: Sequence[Any],
        nonce: bytes,
        expected_seat: int | None = None,
        accept_from: Callable[[int], bool] = lambda seat: True,
        spectators: str | None = NO_SPECTATORS,
    ) -> None:
        if len(nonce) != NONCE_BYTES:
            raise ValueError(f"a link nonce is {NONCE_BYTES} bytes")
        self.seat = seat
        self.identity = identity
        self.game_id = game_id
        self.seat_keys = seat_keys
        self.heads = tuple(heads)
        self.nonce = nonce
        self.expected_seat = expected_seat
        self.accept_from = accept_from
        self.spectators = spectators
        """None when this seat serves a caller's ``watch`` hello, else the reason it refuses
        it (§17)."""
        self.state = LinkState.AWAIT_HELLO
        self.peer_seat: int | None = expected_seat
        """The peer's seat: the one dialled, or the one whose key signed its hello."""
        self.close_reason: str | None = None
        self.oversized = False
        """Whether it closed on a frame length over the limit (nothing of it was buffered)."""
        self.their_heads: tuple[Any, ...] = ()
        """The heads the peer's link_hello carried."""
        self._decoder = FrameDecoder(max_frame=HANDSHAKE_MAX_FRAME)

    def start(self) -> list[LinkEffect]:
        """Our ``link_hello``, to send as soon as the connection is up."""
        hello = _lobby_envelope(
            self.identity, "link_hello", (self.game_id, self.seat, self.nonce, self.heads)
        )
        return [SendBytes(encode_frame(hello))]

    @property
    def is_open(self) -> bool:
        return self.state is LinkState.OPEN

    @property
    def is_closed(self) -> bool:
        return self.state is LinkState.CLOSED

    @property
    def is_established(self) -> bool:
        """Whether the handshake is over: a seat's open link, or a spectator served."""
        return self.state in (LinkState.OPEN, LinkState.WATCHING)

    def _who(self) -> str:
        return "the peer" if self.peer_seat is None else f"seat {self.peer_seat}"

    def _close(self, reason: str) -> list[LinkEffect]:
        self.state = LinkState.CLOSED
        self.close_reason = reason
        return [Close(reason)]

    def receive_data(self, data: bytes) -> list[LinkEffect]:
        """Take bytes from the connection; the effects they cause, in order."""
        if self.state is LinkState.CLOSED:
            return []
        effects: list[LinkEffect] = []
        self._decoder.receive_data(data)
        while not self.is_closed:  # a read, not narrowed: handling a frame may close
            try:
                frame = self._decoder.next_frame()
            except FramingError as exc:
                self.oversized = True
                effects += self._close(f"{self._who()} sent {exc.reason}")
                break
            if frame is None:
                break
            effects += self._frame(frame)
        return effects

    def _frame(self, frame: bytes) -> list[LinkEffect]:
        if self.state in (LinkState.OPEN, LinkState.WATCHING) and is_chat_frame(frame):
            return [Chat(frame)]  # a seat's line or relay; a spectator's line (§18)
        try:
            envelope = Envelope.parse(frame)
        except RemoteProtocolError as exc:
            return self._close(f"{self._who()} sent a malformed frame: {exc.reason}")
        kind = envelope.body.kind
        if self.state is LinkState.WATCHING:
            if kind != "catch_up":
                return self._close(f"a spectator may only ask to catch up; it sent {kind}")
            (heads,) = envelope.body.payload
            return [CatchUp(tuple(heads))]
        if self.state is LinkState.OPEN:
            if kind == "spectators":
                return self._spectator_list(envelope)
            if kind in LOBBY_KINDS:
                return self._close(f"{self._who()} sent {kind} on an open link")
            return [Deliver(frame)]
        if self.state is LinkState.AWAIT_HELLO:
            if kind == "watch" and self.expected_seat is None:
                return self._watch(envelope)
            if kind == "rematch" and self.expected_seat is None:  # §3 Rematch: too early
                refuse = _lobby_envelope(self.identity, "refuse", (GAME_NOT_OVER,))
                return [SendBytes(encode_frame(refuse)), *self._close(GAME_NOT_OVER)]
            if kind != "link_hello":
                return self._close(f"{self._who()} sent {kind} before link_hello")
            return self._hello(envelope)
        if kind != "link_proof":
            return self._close(f"{self._who()} sent {kind} where link_proof was due")
        return self._proof(envelope)

    def _hello(self, envelope: Envelope) -> list[LinkEffect]:
        game_id, seat, their_nonce, heads = envelope.body.payload
        if game_id != self.game_id:
            return self._close(
                f"{self._who()} is in another game ({game_id.hex()[:16]}, "
                f"not {self.game_id.hex()[:16]})"
            )
        if seat == self.seat:
            return self._close(f"the peer claims our own seat {seat}")
        if seat not in self.seat_keys:
            return self._close(f"the peer claims seat {seat}, which is not in this game")
        if self.expected_seat is not None and seat != self.expected_seat:
            return self._close(f"dialled seat {self.expected_seat} but seat {seat} answered")
        if self.expected_seat is None and not self.accept_from(seat):
            return self._close(f"seat {seat} may not call seat {self.seat} (higher seats wait)")
        key = self.seat_keys[seat]
        try:
            check_ed25519_public(key)  # a weak key would let one fixed signature pass
        except WeakKeyError as exc:
            return self._close(f"seat {seat}'s key is refused: {exc.reason}")
        try:
            envelope.verify(key)
        except RemoteProtocolError:
            return self._close(
                f"the link_hello claiming seat {seat} is not signed by seat {seat}'s key "
                f"{fingerprint(key)}; refused"
            )
        self.peer_seat = seat
        self.their_heads = heads
        proof = self.identity.sign(link_proof_message(self.game_id, their_nonce))
        self.state = LinkState.AWAIT_PROOF
        return [SendBytes(encode_frame(_lobby_envelope(self.identity, "link_proof", (proof,))))]

    def _watch(self, envelope: Envelope) -> list[LinkEffect]:
        """A spectator's hello (§17): it must sign our nonce under an accepted key."""
        name, key, _, _, nonce, heads = envelope.body.payload
        if nonce != self.nonce:
            return self._close("a watch hello that does not sign this link's nonce; refused")
        try:
            check_ed25519_public(key)
            envelope.verify(key)
        except WeakKeyError as exc:
            return self._close(f"a spectator's key is refused: {exc.reason}")
        except RemoteProtocolError:
            return self._close("a watch hello not signed by the key it carries; refused")
        refusal = self.spectators
        if refusal is not None:
            effects: list[LinkEffect] = [
                SendBytes(encode_frame(_lobby_envelope(self.identity, "refuse", (refusal,))))
            ]
            return effects + self._close(f"refused spectator {name}: {refusal}")
        self.state = LinkState.WATCHING
        self._decoder.max_frame = HANDSHAKE_MAX_FRAME
        return [Watching(name, key, tuple(heads))]

    def _spectator_list(self, envelope: Envelope) -> list[LinkEffect]:
        assert self.peer_seat is not None
        try:
            envelope.verify(self.seat_keys[self.peer_seat])
        except RemoteProtocolError:
            return self._close(f"seat {self.peer_seat}'s spectators list is not signed by it")
        (entries,) = envelope.body.payload
        return [SpectatorList(tuple((str(n), bytes(k)) for n, k, _ in entries))]

    def _proof(self, envelope: Envelope) -> list[LinkEffect]:
        assert self.peer_seat is not None
        seat = self.peer_seat
        key = self.seat_keys[seat]
        try:
            envelope.verify(key)
        except RemoteProtocolError:
            return self._close(f"seat {seat}'s link_proof envelope is not signed by its key")
        (signature,) = envelope.body.payload
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(
                signature, link_proof_message(self.game_id, self.nonce)
            )
        except (InvalidSignature, ValueError):
            return self._close(f"seat {seat}'s link_proof does not sign our nonce; refused")
        self.state = LinkState.OPEN
        self._decoder.max_frame = MAX_FRAME
        return [Ready(seat, self.their_heads)]


# ------------------------------------------------------------------------------ listening


@dataclass(slots=True)
class ListenerDrops:
    """What a TCP listener (the mesh's, or the lobby's table port) turned away, by cause.

    Each field counts connections; tests and screens read them, and each drop is logged too.
    """

    busy: int = 0
    """Hung up on at accept: too many callers already in their handshake (:class:`CallerGate`)."""
    oversized: int = 0
    """Closed for announcing a frame over the limit before authenticating (nothing allocated)."""
    silent: int = 0
    """Closed for not finishing the handshake (or the hello) in time."""
    malformed: int = 0
    """Closed for any other bad handshake input (not an envelope, wrong key, wrong game...)."""

    @property
    def total(self) -> int:
        return self.busy + self.oversized + self.silent + self.malformed


class CallerGate:
    """Admission of unauthenticated callers: at most ``max_total`` at once, and at most
    ``max_per_host`` from one address. Pure bookkeeping, no I/O.

    >>> gate = CallerGate(max_total=3, max_per_host=2)
    >>> [gate.admit(host) for host in ("10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2")]
    [None, None, '2 callers from 10.0.0.1 are already in their handshake', None]
    >>> gate.admit("10.0.0.3")
    '3 callers are already in their handshake'
    >>> gate.release("10.0.0.1"); gate.pending
    2
    """

    def __init__(self, max_total: int = MAX_PENDING, max_per_host: int = MAX_PENDING_PER_HOST):
        self.max_total = max_total
        self.max_per_host = max_per_host
        self._hosts: Counter[str] = Counter()
        self.pending = 0
        """Callers admitted and not yet released."""

    def admit(self, host: str) -> str | None:
        """Take a slot for a caller from ``host`` (its IP address); None if it got one, else
        why not, in words (the caller should then be hung up on)."""
        if self.pending >= self.max_total:
            return f"{self.max_total} callers are already in their handshake"
        if self._hosts[host] >= self.max_per_host:
            return f"{self.max_per_host} callers from {host} are already in their handshake"
        self._hosts[host] += 1
        self.pending += 1
        return None

    def release(self, host: str) -> None:
        """Give back the slot of a caller from ``host`` (authenticated, or gone)."""
        if self._hosts[host] <= 0:
            return
        self._hosts[host] -= 1
        if not self._hosts[host]:
            del self._hosts[host]
        self.pending -= 1


def peer_host(writer: asyncio.StreamWriter) -> str:
    """The IP address a connection comes from ("" if the transport does not say)."""
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


ConnectedCallback = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def listen(callback: ConnectedCallback, host: str | None, port: int) -> asyncio.Server:
    """``asyncio.start_server(callback, host, port)`` with one port number on every socket,
    and a listen queue of :data:`LISTEN_BACKLOG`.

    ``host`` None or "" listens on every interface, IPv4 and IPv6 (one socket each); with
    ``port`` 0 the OS would give each family its own port, so the first socket's port is then
    bound on the others (retried with a fresh port if one is taken meanwhile).

    Raises:
        OSError: the port cannot be bound (e.g. in use), or no port was free on every family
            after :data:`LISTEN_ATTEMPTS` tries.
    """
    for _ in range(LISTEN_ATTEMPTS):
        server = await asyncio.start_server(
            callback, host, port, reuse_address=True, backlog=LISTEN_BACKLOG
        )
        ports = [int(sock.getsockname()[1]) for sock in server.sockets]
        if port != 0 or len(set(ports)) <= 1:
            return server
        server.close()
        with contextlib.suppress(Exception):
            await server.wait_closed()
        try:
            return await asyncio.start_server(
                callback, host, ports[0], reuse_address=True, backlog=LISTEN_BACKLOG
            )
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
    raise OSError(errno.EADDRINUSE, "no port is free on every address family")


# ------------------------------------------------------------------------------ asyncio shell


class SpectatorFeed(Protocol):
    """What a seat sends the spectators it serves (§17)."""

    def welcome(self, their_heads: Sequence[Any]) -> list[bytes]:
        """A new spectator's first envelopes: the opening (a ``start`` signed by this seat),
        then every message it lacks given ``their_heads``."""

    def catch_up(self, their_heads: Sequence[Any]) -> list[bytes]:
        """The messages a spectator whose heads are ``their_heads`` lacks."""


SpectatorsChanged = Callable[[int, tuple[tuple[str, bytes], ...]], None]
"""Hears who watches through a seat: ``(seat, ((name, public_key), ...))``, for this seat's own
spectators and for the lists the other seats send."""


class MeshHandler(Protocol):
    """What the mesh needs from the game (the session, or a test double)."""

    def deliver(self, envelope_bytes: bytes, from_seat: int) -> None:
        """An envelope arrived from ``from_seat`` (well-formed; signature unchecked)."""

    def heads(self) -> Sequence[Any]:
        """Our heads in wire form: one ``[seq, id]`` per seat."""

    def missing_for(self, their_heads: Sequence[Any]) -> list[bytes]:
        """The envelopes a peer with ``their_heads`` lacks, to resend byte for byte."""


LinkEvent = Callable[[int | None, str], None]
ChatHandler = Callable[[int, bytes], None]
"""Hears a chat frame (§18) from a seat: ``on_chat(seat, frame)``."""
SpectatorChatHandler = Callable[[tuple[str, bytes], bytes], bytes | None]
"""Hears a chat frame (§18) from a spectator served, ``on_spectator_chat((name, public_key),
frame)`` (the name and key of its ``watch`` hello); returns a frame to answer that spectator
with (a refusal), or None."""


@dataclass(slots=True)
class _Link:
    seat: int
    writer: asyncio.StreamWriter
    dropped: bool = False
    """Closed by us (replaced, or not reading), already reported."""


@dataclass(slots=True)
class _Connection:
    """One connection while :meth:`Mesh._run_link` runs it: its handshake, and once open, the
    seat's link or the spectator's number."""

    protocol: LinkProtocol
    writer: asyncio.StreamWriter
    caller: str | None
    """The address of an accepted connection, admitted by the gate; None for one we dialled."""
    pending: bool
    """Whether the gate still holds a slot for it (released when it opens or ends)."""
    link: _Link | None = None
    watcher: int | None = None
    caught_up: float = 0.0
    """The loop time before which a spectator's catch_up is ignored."""


def _tune(writer: asyncio.StreamWriter) -> None:
    """Keepalive probes, so a peer that vanished without a FIN is noticed within ~25 s."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


async def _shut(writer: asyncio.StreamWriter) -> None:
    """Close a connection; abort it if unsent bytes keep it open for more than a second."""
    writer.close()
    try:
        async with asyncio.timeout(1.0):
            await writer.wait_closed()
    except TimeoutError:
        writer.transport.abort()
    except Exception:  # already reset by the peer, and the like
        return


class Mesh:
    """One seat's links to every other seat of a game.

    ``seat_keys`` maps each seat to its raw Ed25519 identity key (from the opening);
    ``addresses`` maps seats to ``(host, port)`` (only higher seats' are used: we dial those).
    ``listen_port`` 0 picks a free port (then read :attr:`listen_port` after :meth:`start`).
    ``on_link_event(seat, text)`` hears links open, close and fail (``seat`` None while a
    caller is unidentified). ``spectators`` serves callers that come to watch (§17; None
    refuses them with ``refusal``); ``on_spectators`` hears who watches through each seat;
    ``on_chat`` hears the seats' chat frames and ``on_spectator_chat`` the spectators' (§18;
    None: a spectator's is answered with nothing). ``handshake_timeout`` (seconds) bounds
    every handshake;
    ``max_pending`` and ``max_pending_per_host`` bound the callers in their handshake
    (:class:`CallerGate`); :attr:`drops` counts the callers turned away.
    """

    def __init__(
        self,
        seat: int,
        identity: Identity,
        game_id: bytes,
        seat_keys: Mapping[int, bytes],
        listen_host: str,
        listen_port: int,
        addresses: Mapping[int, tuple[str, int]],
        handler: MeshHandler,
        *,
        on_link_event: LinkEvent | None = None,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        backoff: tuple[float, float] = (BACKOFF_MIN, BACKOFF_MAX),
        max_pending: int = MAX_PENDING,
        max_pending_per_host: int = MAX_PENDING_PER_HOST,
        spectators: SpectatorFeed | None = None,
        refusal: str = NO_SPECTATORS,
        on_spectators: SpectatorsChanged | None = None,
        on_chat: ChatHandler | None = None,
        on_spectator_chat: SpectatorChatHandler | None = None,
    ) -> None:
        self.seat = seat
        self.identity = identity
        self.game_id = game_id
        self.seat_keys = dict(seat_keys)
        self.listen_host = listen_host
        self.listen_port = listen_port
        self.addresses = dict(addresses)
        self.handler = handler
        self.on_link_event = on_link_event
        self.handshake_timeout = handshake_timeout
        self.backoff = backoff
        self._links: dict[int, _Link] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None
        self._closing = False
        self._changed = asyncio.Event()
        self._gate = CallerGate(max_pending, max_pending_per_host)
        self.drops = ListenerDrops()
        """Callers turned away so far, by cause."""
        self.feed = spectators
        self.refusal = refusal
        self.on_spectators = on_spectators
        self.on_chat = on_chat
        self.on_spectator_chat = on_spectator_chat
        self._watchers: dict[int, tuple[_Link, str, bytes]] = {}
        self._next_watcher = 0

    @property
    def _pending(self) -> int:
        """Accepted connections not yet open."""
        return self._gate.pending

    # -------------------------------------------------------------------------- public

    async def start(self) -> None:
        """Listen, and start dialling every higher seat.

        Raises:
            OSError: the listening port cannot be bound.
        """
        self._server = await listen(self._accepted, self.listen_host, self.listen_port)
        self.listen_port = self._server.sockets[0].getsockname()[1]
        for seat in sorted(self.seat_keys):
            if seat > self.seat:
                self._spawn(self._dial_loop(seat), f"hexlan-dial-{self.seat}-{seat}")

    def connected_seats(self) -> set[int]:
        """Seats whose link is open (authenticated)."""
        return set(self._links)

    def spectators(self) -> tuple[tuple[str, bytes], ...]:
        """Who watches through this seat now: ``(name, public_key)``, in arrival order."""
        return tuple((name, key) for _, name, key in self._watchers.values())

    def send_spectators(self, envelope_bytes: bytes) -> None:
        """Send an envelope to every spectator served (§17)."""
        if not self._watchers:
            return
        frame = encode_frame(envelope_bytes)
        for link, _, _ in list(self._watchers.values()):
            self._write(link, frame)

    async def wait_connected(self, seats: set[int] | None = None, timeout: float = 10.0) -> bool:
        """Wait until every seat in ``seats`` (default: all others) is connected; False if
        ``timeout`` seconds pass first."""
        wanted = set(self.seat_keys) - {self.seat} if seats is None else set(seats)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not wanted <= set(self._links):
                    self._changed.clear()
                    await self._changed.wait()
        return wanted <= set(self._links)

    async def broadcast(self, envelope_bytes: bytes) -> None:
        """Send an envelope to every connected seat. Seats not connected now get it through
        ``missing_for`` when their link opens."""
        frame = encode_frame(envelope_bytes)
        for link in list(self._links.values()):
            self._write(link, frame)
        await asyncio.sleep(0)

    def send_chat(self, frame: bytes) -> None:
        """Send a chat frame (§18) to every connected seat; one not connected misses it."""
        data = encode_frame(frame)
        for link in list(self._links.values()):
            self._write(link, data)

    async def send_to(self, seat: int, envelope_bytes: bytes) -> bool:
        """Send an envelope to one seat if it is connected; whether it was."""
        link = self._links.get(seat)
        if link is None:
            return False
        self._write(link, encode_frame(envelope_bytes))
        await asyncio.sleep(0)
        return True

    async def close(self) -> None:
        """Close every link and stop listening and dialling."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        for link in list(self._links.values()):
            link.writer.close()
        self._links.clear()
        for link, _, _ in list(self._watchers.values()):
            link.writer.close()
        self._watchers.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> Mesh:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -------------------------------------------------------------------------- internals

    def _event(self, seat: int | None, text: str) -> None:
        log.info("seat %d, link to %s: %s", self.seat, seat, text)
        if self.on_link_event is not None:
            try:
                self.on_link_event(seat, text)
            except Exception:  # a listener's bug must not take links down
                log.exception("on_link_event failed")

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _write(self, link: _Link, data: bytes) -> None:
        writer = link.writer
        if writer.is_closing():
            return
        writer.write(data)
        if writer.transport.get_write_buffer_size() > MAX_UNSENT:
            self._event(link.seat if link.seat >= 0 else None, "closed: the peer is not reading")
            link.dropped = True
            writer.transport.abort()

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if self._closing or task is None:
            writer.close()
            return
        host = peer_host(writer)
        busy = self._gate.admit(host)
        if busy is not None:
            self.drops.busy += 1
            self._event(None, f"refused: {busy}")
            writer.transport.abort()
            return
        self._tasks.add(task)
        try:
            await self._run_link(reader, writer, expected_seat=None, caller=host)
        except asyncio.CancelledError:
            # Only close() cancels these; asyncio's server callback would log a cancelled
            # connection task as an error, so it ends quietly instead.
            return
        except Exception:  # a bug on our side (handler): this link only
            log.exception("link from a caller failed")
        finally:
            self._tasks.discard(task)

    async def _dial_loop(self, seat: int) -> None:
        delay = self.backoff[0]
        failures = 0
        while not self._closing:
            address = self.addresses.get(seat)
            if address is None:
                await asyncio.sleep(self.backoff[1])
                continue
            try:
                async with asyncio.timeout(self.handshake_timeout):
                    reader, writer = await asyncio.open_connection(*address)
            except (OSError, TimeoutError) as exc:
                failures += 1
                if failures == 1:
                    self._event(seat, f"cannot reach {address[0]}:{address[1]}: {exc}")
            else:
                failures = 0
                try:
                    if await self._run_link(reader, writer, expected_seat=seat):
                        delay = self.backoff[0]
                except Exception:  # a bug on our side (handler): keep redialling, loudly
                    log.exception("link to seat %d failed", seat)
            await asyncio.sleep(delay)
            delay = min(self.backoff[1], delay * 2)

    async def _run_link(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        expected_seat: int | None,
        caller: str | None = None,
    ) -> bool:
        """Run one connection until it closes; whether it was ever open.

        ``caller`` is the address of an accepted connection, admitted by the gate (None for
        one we dialled): its slot is released when the link opens or the connection ends.
        """
        _tune(writer)
        protocol = LinkProtocol(
            seat=self.seat,
            identity=self.identity,
            game_id=self.game_id,
            seat_keys=self.seat_keys,
            heads=self.handler.heads(),
            nonce=os.urandom(NONCE_BYTES),
            expected_seat=expected_seat,
            accept_from=lambda seat: seat < self.seat,
            spectators=None if self.feed is not None else self.refusal,
        )
        conn = _Connection(protocol, writer, caller, pending=caller is not None)
        reason = "closed"
        deadline = asyncio.get_running_loop().time() + self.handshake_timeout
        try:
            for effect in protocol.start():
                assert isinstance(effect, SendBytes)
                writer.write(effect.data)
            while True:
                try:
                    if protocol.is_established:
                        data = await reader.read(READ_CHUNK)
                    else:
                        async with asyncio.timeout_at(deadline):
                            data = await reader.read(READ_CHUNK)
                except TimeoutError:
                    reason = f"no handshake within {self.handshake_timeout:g} s"
                    self.drops.silent += conn.pending
                    self._event(protocol.peer_seat, f"refused: {reason}")
                    return False
                except OSError as exc:
                    reason = f"connection lost: {exc}"
                    break
                if not data:
                    reason = "the peer closed the connection"
                    break
                for effect in protocol.receive_data(data):
                    ended = self._on_effect(conn, effect)
                    if ended is not None:
                        return ended
                if writer.is_closing():  # dropped by _write (the peer is not reading)
                    return conn.link is not None
            if conn.link is not None:
                if not conn.link.dropped and not self._closing:
                    self._event(conn.link.seat, f"closed: {reason}")
            elif not self._closing:
                self._event(protocol.peer_seat, f"closed during the handshake: {reason}")
            return conn.link is not None
        finally:
            self._admitted(conn)
            link, watcher = conn.link, conn.watcher
            if link is not None and self._links.get(link.seat) is link:
                del self._links[link.seat]
                self._changed.set()
            if watcher is not None and self._watchers.pop(watcher, None) is not None:
                self._spectators_changed()
            await _shut(writer)

    def _admitted(self, conn: _Connection) -> None:
        """Release the gate's slot of an accepted connection, once (it opened, or it ended)."""
        if conn.caller is not None and conn.pending:
            self._gate.release(conn.caller)
            conn.pending = False

    def _on_effect(self, conn: _Connection, effect: LinkEffect) -> bool | None:
        """Act on one effect of the connection's protocol; a bool ends the connection, with
        whether it was ever open."""
        protocol = conn.protocol
        if isinstance(effect, SendBytes):
            if conn.link is not None:
                self._write(conn.link, effect.data)
            else:
                conn.writer.write(effect.data)
        elif isinstance(effect, Ready):
            conn.link = self._open(effect, conn.writer)
            self._admitted(conn)
        elif isinstance(effect, Deliver):
            self._deliver(effect.envelope, protocol.peer_seat)
        elif isinstance(effect, Chat):
            if conn.watcher is not None:
                self._spectator_chat(conn.watcher, effect.frame)
            elif self.on_chat is not None and protocol.peer_seat is not None:
                self._chat(effect.frame, protocol.peer_seat)
        elif isinstance(effect, Watching):
            conn.watcher = self._watch(effect, conn.writer)
            self._admitted(conn)
            if conn.watcher is None:
                return False
        elif isinstance(effect, CatchUp):
            self._catch_up(conn, effect)
        elif isinstance(effect, SpectatorList):
            if self.on_spectators is not None and protocol.peer_seat is not None:
                self._tell_spectators(protocol.peer_seat, effect.spectators)
        else:
            if conn.pending:
                if protocol.oversized:
                    self.drops.oversized += 1
                else:
                    self.drops.malformed += 1
            what = "closed" if conn.link is not None else "refused"
            self._event(protocol.peer_seat, f"{what}: {effect.reason}")
            return conn.link is not None
        return None

    def _catch_up(self, conn: _Connection, effect: CatchUp) -> None:
        """Send a spectator what it lacks, at most once per :data:`CATCH_UP_INTERVAL`."""
        now = asyncio.get_running_loop().time()
        entry = None if conn.watcher is None else self._watchers.get(conn.watcher)
        if entry is not None and self.feed is not None and now >= conn.caught_up:
            conn.caught_up = now + CATCH_UP_INTERVAL  # a request is no flood lever
            for envelope in self.feed.catch_up(effect.heads):
                self._write(entry[0], encode_frame(envelope))

    def _watch(self, watching: Watching, writer: asyncio.StreamWriter) -> int | None:
        """Serve a spectator (§17): the opening and what it lacks; its number, or None when
        there is no room (it is told so)."""
        assert self.feed is not None
        if len(self._watchers) >= MAX_SPECTATORS:
            refuse = _lobby_envelope(
                self.identity, "refuse", (f"this seat serves {MAX_SPECTATORS} spectators already",)
            )
            writer.write(encode_frame(refuse))
            self._event(None, f"refused spectator {watching.name}: no room")
            return None
        # the welcome first: the forwards it releases (messages made durable for it) reach
        # only the spectators served before this one, which then gets each message once
        welcome = self.feed.welcome(watching.heads)
        number = self._next_watcher
        self._next_watcher += 1
        link = _Link(-1, writer)
        self._watchers[number] = (link, watching.name, watching.public_key)
        for envelope in welcome:
            self._write(link, encode_frame(envelope))
        self._event(None, f"spectator {watching.name} ({fingerprint(watching.public_key)}) watches")
        self._spectators_changed()
        return number

    def _spectators_changed(self) -> None:
        """Tell the screen and every connected seat who watches through this seat now."""
        if self._closing:
            return
        self._tell_spectators(self.seat, self.spectators())
        frame = self._spectator_listing()
        for link in [*self._links.values(), *(w[0] for w in self._watchers.values())]:
            self._write(link, frame)

    def _spectator_listing(self) -> bytes:
        """The signed ``spectators`` frame of who watches through this seat now."""
        entries = tuple((name, key, fingerprint(key)) for name, key in self.spectators())
        return encode_frame(_lobby_envelope(self.identity, "spectators", (entries,)))

    def _tell_spectators(self, seat: int, spectators: tuple[tuple[str, bytes], ...]) -> None:
        if self.on_spectators is None:
            return
        try:
            self.on_spectators(seat, spectators)
        except Exception:  # a listener's bug must not take links down
            log.exception("on_spectators failed")

    def _open(self, ready: Ready, writer: asyncio.StreamWriter) -> _Link:
        old = self._links.get(ready.seat)
        if old is not None:
            self._event(ready.seat, "closed: replaced by a new connection")
            old.dropped = True
            old.writer.close()
        link = _Link(ready.seat, writer)
        self._links[ready.seat] = link
        self._changed.set()
        self._event(ready.seat, "connected")
        if self._watchers:
            writer.write(self._spectator_listing())
        try:
            missing = self.handler.missing_for(ready.heads)
        except Exception:
            log.exception("missing_for failed")
            missing = []
        for envelope in missing:  # all at once: bounded by the game, not by MAX_UNSENT
            try:
                writer.write(encode_frame(envelope))
            except ValueError:
                log.exception("missing_for gave an envelope that cannot be framed")
        return link

    def _chat(self, frame: bytes, seat: int) -> None:
        assert self.on_chat is not None
        try:
            self.on_chat(seat, frame)
        except Exception as exc:  # a listener's bug must not take links down
            log.exception("on_chat failed")
            self._event(seat, f"chat delivery failed: {exc!r}")

    def _spectator_chat(self, watcher: int, frame: bytes) -> None:
        """A served spectator's chat frame: to ``on_spectator_chat``, its answer back."""
        entry = self._watchers.get(watcher)
        if entry is None or self.on_spectator_chat is None:
            return
        link, name, key = entry
        try:
            answer = self.on_spectator_chat((name, key), frame)
        except Exception as exc:  # a listener's bug must not take links down
            log.exception("on_spectator_chat failed")
            self._event(None, f"spectator chat delivery failed: {exc!r}")
            return
        if answer is not None:
            self._write(link, encode_frame(answer))

    def _deliver(self, envelope: bytes, seat: int | None) -> None:
        assert seat is not None
        try:
            self.handler.deliver(envelope, seat)
        except Exception as exc:  # the handler's own failure is reported, never fatal
            log.exception("deliver failed")
            self._event(seat, f"delivery failed: {exc!r}")
