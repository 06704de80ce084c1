"""The table before the game (docs/PROTOCOL.md §3): seats fill, then every seat gets the opening.

Two layers, h11 style:

- **Sans-IO core.** :class:`HostLobby` is the host's table: each new connection (numbered by
  the shell) gets a ``challenge [host key, fresh nonce]``; signed ``hello`` envelopes in (one per
  joining connection, carrying that connection's nonce), :data:`LobbyEffect` values out
  (:class:`SendTo`, :class:`Disconnect`, :class:`TableChanged`, :class:`GameStarts`).
  :class:`JoinLobby` is one joining peer: :meth:`JoinLobby.hello` answers the host's challenge
  with its ``hello``, and :meth:`JoinLobby.receive` turns the host's ``lobby_state`` and
  ``start`` into :class:`TableChanged` and :class:`GameStarts`, or raises :class:`Refused`. No
  sockets, no clock of their own (the host takes one for the opening's informative ``created``
  field).
- **Thin asyncio shell.** :func:`host_table` listens on the table port (and announces the table
  on the LAN, §10) until the seats are full; :func:`join_table` dials a host. Each lobby
  connection carries frames of :mod:`hexlan.net.transport` (:func:`encode_frame`,
  :class:`FrameDecoder`). Both return ``(opening, seat)``; the host closes the table port at
  start, and the game's :class:`~hexlan.net.transport.Mesh` then listens on the same port.

Seats are in joining order, the host first (seat 0). In the opening the host's seat leaves
``host`` empty ("the address you reached the host at") with the table port; each joiner's seat
holds the address the host saw it connect from and the ``listen_port`` of its ``hello``, except
that a joiner which connected over loopback runs on the host's machine, so its ``host`` is left
empty too (127.0.0.1 would send every other seat to itself).

The table port is bounded like the mesh's (:mod:`hexlan.net.transport`): at most
:data:`LOBBY_MAX_PENDING` connections without a seat at once (:data:`LOBBY_MAX_PENDING_PER_HOST`
from one address), each with :data:`HELLO_TIMEOUT` seconds to send its hello, in frames of at
most :data:`LOBBY_MAX_FRAME` bytes; ``host_table(drops=)`` counts what was turned away.

>>> from hexlan.net.beacon import HashChain
>>> from hexlan.net.identity import GameKeys, Identity
>>> def keys():
...     return Identity.generate(), GameKeys.generate(), HashChain.generate(length=8)
>>> ann, ann_x, ann_chain = keys()
>>> host = HostLobby(ann, 2, "Ann", 47400, game_keys=ann_x, chain=ann_chain, clock=lambda: 0)
>>> bob, bob_x, bob_chain = keys()
>>> join = JoinLobby(bob, "Bob", bob_x, bob_chain, listen_port=47500)
>>> (challenge,) = host.connect(1, "10.0.0.8")
>>> effects = host.receive(1, join.hello(challenge.envelope))
>>> [type(e).__name__ for e in effects]
['SendTo', 'TableChanged', 'SendTo', 'GameStarts']
>>> events = [event for e in effects if isinstance(e, SendTo) for event in join.receive(e.envelope)]
>>> [type(e).__name__ for e in events]
['TableChanged', 'GameStarts']
>>> opening = events[-1].opening
>>> events[-1].seat, [(s.name, s.host, s.port) for s in opening.seats]
(1, [('Ann', '', 47400), ('Bob', '10.0.0.8', 47500)])
>>> seat_host("127.0.0.1"), seat_host("::ffff:10.0.0.8"), seat_host("::1")
('', '10.0.0.8', '')
>>> opening == host.opening
True
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from hexlan.engine.core import EngineError
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import seat_range
from hexlan.net.beacon import HashChain
from hexlan.net.identity import GameKeys, Identity, fingerprint
from hexlan.net.session import engine_version
from hexlan.net.transport import (
    NO_SPECTATORS,
    CallerGate,
    FrameDecoder,
    FramingError,
    ListenerDrops,
    encode_frame,
    listen,
    peer_host,
)
from hexlan.net.wire import (
    BASE_GAME,
    LOBBY_NONCE_BYTES,
    MAX_SPECTATORS,
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    ForgedSignature,
    LocalProtocolError,
    Opening,
    RemoteProtocolError,
    SeatInfo,
    VersionMismatch,
    board_kinds,
    option_entries,
    sign_body,
)

__all__ = [
    "HELLO_TIMEOUT",
    "LOBBY_MAX_FRAME",
    "LOBBY_MAX_PENDING",
    "LOBBY_MAX_PENDING_PER_HOST",
    "Disconnect",
    "GameStarts",
    "HostLobby",
    "JoinLobby",
    "LobbyEffect",
    "LobbyError",
    "LobbySeat",
    "Refused",
    "RematchVoted",
    "SendTo",
    "TableChanged",
    "decline_rematch",
    "free_port",
    "host_table",
    "join_table",
    "parse_address",
    "seat_host",
    "table_terms",
]

log = logging.getLogger(__name__)

LOBBY_MAX_FRAME: Final = 16 * 1024
"""The largest lobby frame: a ``start`` with six seats is about 1.5 KiB. A longer length prefix
closes the connection as soon as its 4 bytes arrive (nothing of the frame is buffered)."""
HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has, from its accept, to send its ``hello`` (however slowly its
bytes trickle in); then it is refused and closed. ``host_table(hello_timeout=)`` overrides it."""
LOBBY_MAX_PENDING: Final = 32
"""Connections to the table port without a seat (waiting for their hello), at most; more are
hung up on at once (no challenge is signed for them) and counted in ``ListenerDrops.busy``."""
LOBBY_MAX_PENDING_PER_HOST: Final = 8
"""Of :data:`LOBBY_MAX_PENDING`, at most this many from one address, so one flooding machine
cannot keep the other players from joining."""
CONNECT_TIMEOUT: Final = 10.0
"""Seconds a joiner waits for the host's TCP connection to open."""


class LobbyError(Exception):
    """The lobby failed: the host cannot be reached or listened for, or broke the protocol.

    ``reason`` says what happened, in words a player can act on.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refused(LobbyError):
    """The host refused this peer (``refuse [reason]``): another protocol, a full table..."""


# ------------------------------------------------------------------------------ effects


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A seat as the lobby shows it: ``[name, public_key, fingerprint]``."""

    name: str
    public_key: bytes
    fingerprint: str


@dataclass(frozen=True, slots=True)
class SendTo:
    """Send this lobby envelope (not yet framed) on connection ``conn``."""

    conn: int
    envelope: bytes


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Close connection ``conn`` once what was sent on it is flushed; ``reason`` in words."""

    conn: int
    reason: str


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The table as it is now (for a screen): seats in order, the host first, and the game the
    host chose, on its board kind, with its options (a joiner plays them)."""

    max_seats: int
    seats: tuple[LobbySeat, ...]
    game: str = BASE_GAME
    spectators: tuple[LobbySeat, ...] = ()
    """Who has come to watch (§17), in arrival order."""
    board_kind: str = "beginner"
    """The board the opening will name ("beginner" or "random"; the game's first when the
    host's ``lobby_state`` leaves it out)."""
    options: GameOptions = field(default_factory=GameOptions)
    """The game options the opening will carry (the defaults when ``lobby_state`` leaves them
    out)."""


def table_terms(payload: tuple[Any, ...]) -> tuple[str, str, GameOptions]:
    """A checked ``lobby_state`` payload's game, board kind and options (§3): the game is the
    base game when left out, the board kind the game's first (:func:`board_kinds`) and the
    options the defaults when those are left out.

    >>> table_terms((4, ())) == ("base", "beginner", GameOptions())
    True
    >>> game, board, options = table_terms((4, (), "base", "random", (("largest_army", False),)))
    >>> (game, board, options.largest_army)
    ('base', 'random', False)
    """
    game = str(payload[2]) if len(payload) > 2 else BASE_GAME
    if len(payload) > 3:
        return game, str(payload[3]), GameOptions.from_dict(dict(payload[4]))
    return game, board_kinds(game)[0], GameOptions()


@dataclass(frozen=True, slots=True)
class RematchVoted:
    """A seat of the last game answered the host's rematch (§3, Rematch): ``agree`` False
    frees its place (for a newcomer's hello, or a bot the host starts)."""

    seat: int
    """Its seat in the last game."""
    name: str
    agree: bool

    def words(self) -> str:
        """The vote in words, for the host's screen."""
        if self.agree:
            return f"seat {self.seat} ({self.name}) plays again"
        return f"seat {self.seat} ({self.name}) declines the rematch; its place is free"


@dataclass(frozen=True, slots=True)
class GameStarts:
    """The game starts: the opening every seat signs, and this peer's seat in it."""

    opening: Opening
    seat: int


LobbyEffect = SendTo | Disconnect | TableChanged | GameStarts | RematchVoted


def _lobby_envelope(identity: Identity, kind: str, payload: tuple[Any, ...]) -> bytes:
    body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), kind, payload)
    return sign_body(body, identity).to_bytes()


def _mesh_host(address: str) -> str:
    """An address as the mesh should dial it: IPv4-mapped IPv6 back to IPv4, no scope id."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return address


def seat_host(address: str) -> str:
    """The opening's ``host`` for a joiner that connected from ``address`` (§3).

    The address as the mesh should dial it (:func:`_mesh_host`), except a loopback address
    (127.0.0.0/8, ::1, or IPv4-mapped loopback): that joiner runs on the host's machine, which
    the other seats reach at the address they reached the host at, so its ``host`` is empty,
    meaning just that (as for the host's own seat).
    """
    host = _mesh_host(address)
    try:
        loopback = ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        loopback = False
    return "" if loopback else host


# ------------------------------------------------------------------------------ the host


@dataclass(slots=True)
class _Joiner:
    conn: int
    name: str
    public_key: bytes
    x25519_public: bytes
    chain_commitment: bytes
    host: str
    listen_port: int


class HostLobby:
    """The host's table: seats fill in joining order, then the game starts (§3).

    Args:
        identity: the host's identity key (seat 0); it signs every lobby message.
        seats: the table's size, within the game's range (2..4 in the base game, 5..6 in the
            5-6 player game); the game starts when it is full.
        name: the host's name at the table.
        listen_port: the table port, where the host's game mesh will listen too.
        options: the game options (default: :class:`GameOptions`'s defaults).
        board_kind: "beginner" or "random"; None: the game's first (:func:`board_kinds`:
            "beginner" where its map has that layout, "random" on the 5-6 player map).
        game: the game the table plays (seeds/<game>.toml); the lobby and the opening carry it,
            so every joiner plays it.
        game_keys: the host's X25519 keys for this game.
        chain: the host's hash chain for this game.
        clock: seconds since the epoch, for the opening's ``created`` (informative).
        spectators: take callers that come to watch (§17: a ``watch`` hello); False refuses
            them with :data:`~hexlan.net.transport.NO_SPECTATORS`.
        rematch_of: the opening of the game this table plays again after (§3, Rematch): each
            of its other seats keeps its place until it votes (``rematch``) and says hello,
            or declines and frees it for a newcomer; the opening seats everyone one place on.

    Raises:
        ValueError: an unknown game, a table size outside the game's range, a board kind its
            map lacks, or a name the opening cannot carry.
    """

    def __init__(
        self,
        identity: Identity,
        seats: int,
        name: str,
        listen_port: int,
        options: GameOptions | None = None,
        board_kind: str | None = None,
        *,
        game: str = BASE_GAME,
        game_keys: GameKeys,
        chain: HashChain,
        clock: Callable[[], float] = time.time,
        spectators: bool = True,
        rematch_of: Opening | None = None,
    ) -> None:
        try:
            fewest, most = seat_range(game)
            kinds = board_kinds(game)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        if not fewest <= seats <= most:
            raise ValueError(f"a {game} table has {fewest}..{most} seats, not {seats}")
        if board_kind is None:
            board_kind = kinds[0]
        if board_kind not in kinds:
            raise ValueError(
                f"the {game} game's map offers {' or '.join(map(repr, kinds))} boards, "
                f"not {board_kind!r}"
            )
        try:
            self._seat0 = SeatInfo(
                name,
                identity.public_bytes,
                game_keys.public_bytes,
                chain.commitment,
                "",
                listen_port,
            )
        except LocalProtocolError as exc:
            raise ValueError(exc.reason) from None
        self.identity = identity
        self.max_seats = seats
        self.min_seats = fewest
        """Seats the game needs at least: :meth:`start` before the table is full needs them."""
        self.game = game
        self.name = name
        self.listen_port = listen_port
        self.options = options or GameOptions()
        self.board_kind = board_kind
        self.clock = clock
        self.engine_version = engine_version()
        self.opening: Opening | None = None
        """The opening, once the game has started."""
        self._joiners: list[_Joiner] = []
        self.accepts_spectators = spectators
        self._spectators: dict[int, LobbySeat] = {}  # conn -> who watches
        self._listed = False  # a spectators list was ever sent
        self._addresses: dict[int, str] = {}
        self._nonces: dict[int, bytes] = {}
        self.rematch_of = rematch_of
        """The last game's opening when this table plays again after it (§3, Rematch)."""
        self._places: dict[bytes, int] = {}  # last game's seat, by key: places held or taken
        if rematch_of is not None:
            keys = [s.public_key for s in rematch_of.seats]
            if identity.public_bytes not in keys or len(keys) != seats:
                raise ValueError("a rematch is hosted by the last game's host, at its table size")
            self._places = {k: i for i, k in enumerate(keys) if k != identity.public_bytes}
        self._voted: set[bytes] = set()  # keys that voted on the rematch
        self._voters: dict[int, bytes] = {}  # conn -> key that agreed there, its hello due
        self._freed: list[int] = []  # the last game's seats given up, in order: newcomers' places

    # ------------------------------------------------------------------ queries

    @property
    def seats(self) -> tuple[LobbySeat, ...]:
        """Every seat taken, the host first."""
        rows = [(self.name, self.identity.public_bytes)]
        rows += [(j.name, j.public_key) for j in self._joiners]
        return tuple(LobbySeat(n, k, fingerprint(k)) for n, k in rows)

    @property
    def is_started(self) -> bool:
        return self.opening is not None

    @property
    def is_full(self) -> bool:
        return 1 + len(self._joiners) >= self.max_seats

    def is_seated(self, conn: int) -> bool:
        """Whether connection ``conn`` holds a seat."""
        return any(j.conn == conn for j in self._joiners)

    def is_known(self, conn: int) -> bool:
        """Whether connection ``conn`` holds a seat or watches (its hello was taken)."""
        return conn in self._spectators or self.is_seated(conn)

    @property
    def spectators(self) -> tuple[LobbySeat, ...]:
        """Who watches the table, in arrival order (§17)."""
        return tuple(self._spectators.values())

    # ------------------------------------------------------------------ entry points

    def connect(self, conn: int, address: str) -> list[LobbyEffect]:
        """A new connection ``conn`` from ``address`` (the IP it connected from; its seat's
        ``host`` will be :func:`seat_host` of it): send it
        ``challenge [host public key, nonce]`` with a fresh random nonce, which its ``hello``
        must carry (so a hello captured on another connection is refused)."""
        self._addresses[conn] = seat_host(address)
        nonce = os.urandom(LOBBY_NONCE_BYTES)
        self._nonces[conn] = nonce
        challenge = _lobby_envelope(self.identity, "challenge", (self.identity.public_bytes, nonce))
        return [SendTo(conn, challenge)]

    def receive(self, conn: int, data: bytes) -> list[LobbyEffect]:
        """A frame from connection ``conn``: its ``hello``, or anything else (refused).

        A hello is refused (``refuse [reason]``, then the connection is closed) when it is
        malformed, in another version, not signed by the key it carries, carries a weak or
        non-canonical key, or does not carry the nonce this connection's ``challenge`` gave.

        Raises:
            LocalProtocolError: ``conn`` was never connected.
        """
        if conn not in self._addresses:
            raise LocalProtocolError(f"connection {conn} was never connected")
        if self.is_known(conn):
            effects = self.refuse(conn, "a joining peer sends one hello and then waits")
            return effects + self._leave(conn)
        try:
            env = Envelope.parse(data)
        except VersionMismatch as exc:
            return self.refuse(conn, self._version_words(exc.version))
        except RemoteProtocolError as exc:
            return self.refuse(conn, f"not a hello: {exc.reason}")
        body = env.body
        if body.kind == "watch":
            return self._watch(conn, env)
        if body.kind == "rematch":
            return self._vote(conn, env)
        if body.kind != "hello":
            return self.refuse(conn, f"expected a hello, got {body.kind}")
        name, public_key, version, engine, x25519_public, commitment, port, nonce = body.payload
        try:
            env.verify(public_key)
        except ForgedSignature:
            return self.refuse(conn, "the hello is not signed by the key it carries")
        if version != PROTOCOL_VERSION:
            return self.refuse(conn, self._version_words(version))
        if engine != self.engine_version:
            return self.refuse(
                conn,
                f"this table runs hexlan {self.engine_version}; you run {engine} "
                "(every seat needs the same rules engine)",
            )
        if nonce != self._nonces.pop(conn, None):
            return self.refuse(
                conn,
                "the hello does not carry the nonce this table sent on this connection "
                "(a hello replayed from another connection?)",
            )
        if self.is_full:
            return self.refuse(
                conn, f"this table is full ({self.max_seats} of {self.max_seats} seats taken)"
            )
        if self.is_started:
            return self.refuse(conn, "the game at this table has already started")
        if port == 0:
            return self.refuse(conn, "the hello gives no listen port for the game")
        taken = [self._seat0.public_key] + [j.public_key for j in self._joiners]
        if public_key in taken:
            return self.refuse(
                conn, f"a player with key {fingerprint(public_key)} is already at this table"
            )
        keys = [self._seat0.x25519_public] + [j.x25519_public for j in self._joiners]
        chains = [self._seat0.chain_commitment] + [j.chain_commitment for j in self._joiners]
        if x25519_public in keys or commitment in chains:
            return self.refuse(conn, "the hello repeats another seat's game keys")
        place = self._place_refusal(conn, public_key)
        if place is not None:
            return self.refuse(conn, place)
        self._joiners.append(
            _Joiner(conn, name, public_key, x25519_public, commitment, self._addresses[conn], port)
        )
        effects = self._announce()
        if self.is_full:
            effects += self.start()
        return effects

    def _watch(self, conn: int, env: Envelope) -> list[LobbyEffect]:
        """A spectator's hello (§17): listed at the table, or refused."""
        name, public_key, version, _, nonce, _ = env.body.payload
        try:
            env.verify(public_key)
        except ForgedSignature:
            return self.refuse(conn, "the watch hello is not signed by the key it carries")
        if version != PROTOCOL_VERSION:
            return self.refuse(conn, self._version_words(version))
        if nonce != self._nonces.pop(conn, None):
            return self.refuse(
                conn, "the watch hello does not carry the nonce this table sent on this connection"
            )
        if not self.accepts_spectators:
            return self.refuse(conn, NO_SPECTATORS)
        if len(self._spectators) >= MAX_SPECTATORS:
            return self.refuse(conn, f"this table has {MAX_SPECTATORS} spectators already")
        self._spectators[conn] = LobbySeat(name, public_key, fingerprint(public_key))
        return self._announce()

    def _vote(self, conn: int, env: Envelope) -> list[LobbyEffect]:
        """A ``rematch [game_id, public_key, agree, nonce]`` vote (§3, Rematch): refused
        unless this table plays again after that game, the key held a seat in it other than
        the host's, signed it, and has not voted yet; agreeing keeps the place for the hello
        that follows on this connection, declining frees it."""
        game_id, public_key, agree, nonce = env.body.payload
        last = self.rematch_of
        if last is None:
            return self.refuse(conn, "this table plays a new game, not a rematch: send a hello")
        if game_id != last.game_id:
            return self.refuse(
                conn,
                f"this table plays again after game {last.game_id.hex()[:12]}, "
                f"not {game_id.hex()[:12]}",
            )
        try:
            env.verify(public_key)
        except ForgedSignature:
            return self.refuse(conn, "the rematch vote is not signed by the key it carries")
        if nonce != self._nonces.get(conn):
            return self.refuse(
                conn, "the rematch vote does not carry the nonce this table sent on this connection"
            )
        seat = self._places.get(public_key)
        if seat is None:
            return self.refuse(
                conn,
                f"key {fingerprint(public_key)} held no seat in game {last.game_id.hex()[:12]} "
                "(or is the host's): a newcomer joins with a hello",
            )
        name = last.seats[seat].name
        if public_key in self._voted:
            return self.refuse(conn, f"seat {seat} ({name}) has already voted on this rematch")
        if self.is_started:
            return self.refuse(conn, "the rematch has already started")
        self._voted.add(public_key)
        vote = RematchVoted(seat, name, bool(agree))
        if agree:
            self._voters[conn] = public_key
            return [vote]
        self._freed.append(seat)
        return [vote, Disconnect(conn, vote.words()), *self._announce()]

    def _place_refusal(self, conn: int, public_key: bytes) -> str | None:
        """Why a hello may not take a place at a rematch table, or None (a plain table takes
        any): a seat of the last game takes its own after agreeing on this connection; a
        newcomer takes one a seat gave up."""
        last = self.rematch_of
        if last is None:
            return None
        seat = self._places.get(public_key)
        if seat is not None and seat not in self._freed:
            if self._voters.get(conn) != public_key:
                return f"seat {seat} of the last game votes for the rematch before its hello"
            return None
        newcomers = sum(
            1 for j in self._joiners if self._places.get(j.public_key, -1) in (-1, *self._freed)
        )
        if newcomers >= len(self._freed):
            return "this table keeps its places for the last game's players; none is free"
        return None

    def disconnect(self, conn: int) -> list[LobbyEffect]:
        """Connection ``conn`` closed; before the start its seat is given up."""
        self._addresses.pop(conn, None)
        self._nonces.pop(conn, None)
        if self.is_started:
            return []
        return self._leave(conn)

    def start(self) -> list[LobbyEffect]:
        """Start the game with the seats taken (at least the game's fewest, :attr:`min_seats`):
        build the opening, send ``start [opening]`` to every joiner.

        Raises:
            LocalProtocolError: fewer seats taken than the game takes, or already started.
        """
        if self.is_started:
            raise LocalProtocolError("the game has already started")
        if 1 + len(self._joiners) < self.min_seats:
            raise LocalProtocolError(f"a {self.game} game needs at least {self.min_seats} seats")
        seats = [self._seat0] + [
            SeatInfo(
                j.name, j.public_key, j.x25519_public, j.chain_commitment, j.host, j.listen_port
            )
            for j in self._joiners
        ]
        if self.rematch_of is not None:
            seats = self._rotated(seats)
        self.opening = Opening(
            PROTOCOL_VERSION,
            self.engine_version,
            tuple(seats),
            option_entries(self.options),
            self.board_kind,  # type: ignore[arg-type]
            int(self.clock()),
            self.game,
        )
        start = _lobby_envelope(self.identity, "start", (self.opening.to_payload(),))
        effects: list[LobbyEffect] = [SendTo(j.conn, start) for j in self._joiners]
        mine = [s.public_key for s in seats].index(self.identity.public_bytes)
        effects.append(GameStarts(self.opening, mine))
        return effects

    def _rotated(self, seats: list[SeatInfo]) -> list[SeatInfo]:
        """A rematch's seats (§3, Rematch): each in its last game's place, newcomers in the
        places given up (in joining order), then every seat one place on (the last seat
        becomes the first, as `hexlan play`'s rematch)."""
        assert self.rematch_of is not None
        places = dict(self._places)
        places[self.identity.public_bytes] = [s.public_key for s in self.rematch_of.seats].index(
            self.identity.public_bytes
        )
        freed = iter(sorted(set(self._freed)))
        order: list[tuple[int, SeatInfo]] = []
        for info in seats:
            place = places.get(info.public_key)
            if place is None or place in self._freed:
                place = next(freed)
            order.append((place, info))
        order.sort(key=lambda pair: pair[0])
        ranked = [info for _, info in order]
        return [ranked[-1], *ranked[:-1]]

    # ------------------------------------------------------------------ helpers

    def _version_words(self, version: object) -> str:
        return f"this table speaks hexlan protocol {PROTOCOL_VERSION}; you speak {version}"

    def refuse(self, conn: int, reason: str) -> list[LobbyEffect]:
        """Refuse connection ``conn`` with ``reason`` (the shell refuses a silent caller or
        a bad frame through it too)."""
        envelope = _lobby_envelope(self.identity, "refuse", (reason[:500],))
        return [SendTo(conn, envelope), Disconnect(conn, reason)]

    def _leave(self, conn: int) -> list[LobbyEffect]:
        key = self._voters.pop(conn, None)
        if key is not None and key in self._places:  # an agreed seat left: its place is free
            self._freed.append(self._places[key])
        before = len(self._joiners)
        self._joiners = [j for j in self._joiners if j.conn != conn]
        watched = self._spectators.pop(conn, None) is not None
        return self._announce() if len(self._joiners) != before or watched else []

    def _announce(self) -> list[LobbyEffect]:
        seats = self.seats
        payload: tuple[Any, ...] = (
            self.max_seats,
            tuple((s.name, s.public_key, s.fingerprint) for s in seats),
        )
        changed = tuple(sorted(self.options.changed().items()))
        if changed or self.board_kind != board_kinds(self.game)[0]:
            # §3: the table's terms, left out at their defaults (so a default table's
            # lobby_state keeps the bytes it had before they were announced)
            payload += (self.game, self.board_kind, changed)
        elif self.game != BASE_GAME:
            payload += (self.game,)  # §3: the base game is announced by leaving it out
        state = _lobby_envelope(self.identity, "lobby_state", payload)
        listeners = [j.conn for j in self._joiners] + list(self._spectators)
        effects: list[LobbyEffect] = [SendTo(conn, state) for conn in listeners]
        if self._spectators or self._listed:  # §17: who watches, once anyone has
            self._listed = True
            rows = tuple((s.name, s.public_key, s.fingerprint) for s in self.spectators)
            listing = _lobby_envelope(self.identity, "spectators", (rows,))
            effects += [SendTo(conn, listing) for conn in listeners]
        effects.append(self.table(self.spectators))
        return effects

    def table(self, spectators: tuple[LobbySeat, ...] = ()) -> TableChanged:
        """The table as it is now, for the host's screen."""
        return TableChanged(
            self.max_seats, self.seats, self.game, spectators, self.board_kind, self.options
        )


# ------------------------------------------------------------------------------ a joiner


class JoinLobby:
    """One joining peer's side of the lobby (§3).

    Args:
        identity: this peer's identity key.
        name: its name at the table.
        game_keys: its X25519 keys for this game (the public key goes into the hello).
        chain: its hash chain for this game (the commitment goes into the hello).
        listen_port: where its game mesh will listen (the opening carries it).
        host_fingerprint: when known (from a LAN announcement), the host's key must have it.

    The host's key is learnt from its ``challenge`` (checked against ``host_fingerprint``) and
    every later message must be signed by it.
    """

    def __init__(
        self,
        identity: Identity,
        name: str,
        game_keys: GameKeys,
        chain: HashChain,
        listen_port: int,
        *,
        host_fingerprint: str | None = None,
    ) -> None:
        self.identity = identity
        self.name = name
        self.game_keys = game_keys
        self.chain = chain
        self.listen_port = listen_port
        self.host_fingerprint = host_fingerprint
        self.engine_version = engine_version()
        self.host_key: bytes | None = None
        self.max_seats = 0
        self.seats: tuple[LobbySeat, ...] = ()
        self.spectators: tuple[LobbySeat, ...] = ()
        """Who watches the table (§17), as the host last listed them."""
        """The table as the host last showed it."""
        self.game: str | None = None
        """The game the host's ``lobby_state`` announced (None before the first)."""
        self.board_kind = ""
        """The board kind the host's ``lobby_state`` announced (empty before the first)."""
        self.options = GameOptions()
        """The game options the host's ``lobby_state`` announced."""
        self.opening: Opening | None = None
        self.seat: int | None = None
        self._nonce: bytes | None = None  # the host's challenge's (a rematch vote signs it)

    def hello(self, challenge: bytes) -> bytes:
        """This peer's ``hello`` envelope, answering the host's first frame, its ``challenge
        [host public key, nonce]``: the hello carries (and so signs) the nonce.

        Args:
            challenge: the host's first frame (a lobby envelope).

        Raises:
            Refused: the host refused this peer instead.
            LobbyError: the frame is not a challenge signed by the key it carries, or that key
                is not the announced host's (``host_fingerprint``).
            ValueError: a name the protocol cannot carry (1..32 printable characters).
        """
        env = self._parse(challenge)
        if env.body.kind == "refuse":
            raise Refused(f"the table refused: {env.body.payload[0]}")
        if env.body.kind != "challenge":
            raise LobbyError(f"the host sent {env.body.kind} where its challenge was due")
        if self.host_key is not None:
            raise LobbyError("the host sent a second challenge")
        host_key, nonce = env.body.payload
        self._pin(host_key)
        self._verify(env, host_key)
        self._nonce = nonce
        return self._hello_envelope(nonce)

    def vote(self, game_id: bytes, agree: bool) -> bytes:
        """This peer's ``rematch [game_id, public_key, agree, nonce]`` vote (§3, Rematch) on
        the connection whose challenge :meth:`hello` answered; sent before that hello when
        agreeing, alone when declining.

        Raises:
            LobbyError: no challenge has been answered yet.
        """
        if self._nonce is None:
            raise LobbyError("a rematch vote answers the host's challenge")
        payload = (game_id, self.identity.public_bytes, agree, self._nonce)
        return _lobby_envelope(self.identity, "rematch", payload)

    def _hello_envelope(self, nonce: bytes) -> bytes:
        """The signed ``hello`` carrying ``nonce``.

        Raises:
            ValueError: a name the protocol cannot carry.
        """
        payload = (
            self.name,
            self.identity.public_bytes,
            PROTOCOL_VERSION,
            self.engine_version,
            self.game_keys.public_bytes,
            self.chain.commitment,
            self.listen_port,
            nonce,
        )
        try:
            return _lobby_envelope(self.identity, "hello", payload)
        except LocalProtocolError as exc:
            raise ValueError(exc.reason) from None

    def _parse(self, data: bytes) -> Envelope:
        try:
            return Envelope.parse(data)
        except VersionMismatch as exc:
            raise LobbyError(
                f"the host speaks hexlan protocol {exc.version}; this peer speaks "
                f"{PROTOCOL_VERSION}"
            ) from None
        except RemoteProtocolError as exc:
            raise LobbyError(f"the host sent a malformed message: {exc.reason}") from None

    def receive(self, data: bytes) -> list[TableChanged | GameStarts]:
        """A frame from the host after its challenge (see :meth:`hello`).

        Raises:
            Refused: the host refused this peer (the reason is the host's, in words).
            LobbyError: the host broke the lobby protocol (the reason says how).
        """
        if self.opening is not None:
            raise LobbyError("the host sent more after the game started")
        env = self._parse(data)
        kind, payload = env.body.kind, env.body.payload
        if kind == "challenge":
            raise LobbyError("the host sent a second challenge")
        if kind == "refuse":
            if self.host_key is not None:
                self._verify(env, self.host_key)
            raise Refused(f"the table refused: {payload[0]}")
        if kind == "lobby_state":
            return [self._lobby_state(env)]
        if kind == "spectators":
            return [self._spectator_list(env)]
        if kind == "start":
            return [self._start(env)]
        raise LobbyError(f"the host sent {kind}, which has no place in a lobby")

    def _verify(self, env: Envelope, key: bytes) -> None:
        try:
            env.verify(key)
        except ForgedSignature:
            raise LobbyError(f"the host's {env.body.kind} is not signed by its key") from None

    def _pin(self, key: bytes) -> None:
        if self.host_key is None:
            if self.host_fingerprint is not None and fingerprint(key) != self.host_fingerprint:
                raise LobbyError(
                    f"the host's key is {fingerprint(key)}, not the announced "
                    f"{self.host_fingerprint}"
                )
            self.host_key = key
        elif key != self.host_key:
            raise LobbyError("the host's key changed during the lobby")

    def _lobby_state(self, env: Envelope) -> TableChanged:
        max_seats, rows = env.body.payload[:2]
        game, board_kind, options = table_terms(env.body.payload)
        if not rows:
            raise LobbyError("the host sent a table without its own seat")
        self._pin(rows[0][1])
        assert self.host_key is not None
        self._verify(env, self.host_key)
        if self.game is not None and game != self.game:
            raise LobbyError(f"the host changed its table's game from {self.game} to {game}")
        if self.game is not None and (board_kind, options) != (self.board_kind, self.options):
            raise LobbyError("the host changed its table's board or options")
        self.max_seats = max_seats
        self.seats = tuple(LobbySeat(*row) for row in rows)
        self.game, self.board_kind, self.options = game, board_kind, options
        return self._table()

    def _table(self) -> TableChanged:
        return TableChanged(
            self.max_seats,
            self.seats,
            self.game or BASE_GAME,
            self.spectators,
            self.board_kind,
            self.options,
        )

    def _spectator_list(self, env: Envelope) -> TableChanged:
        if self.host_key is None:
            raise LobbyError("the host listed spectators before its table")
        self._verify(env, self.host_key)
        (rows,) = env.body.payload
        self.spectators = tuple(LobbySeat(*row) for row in rows)
        return self._table()

    def _start(self, env: Envelope) -> GameStarts:
        (payload,) = env.body.payload
        opening = Opening.from_payload(payload)
        if self.host_key is None:
            self._pin(opening.seats[0].public_key)
        assert self.host_key is not None
        self._verify(env, self.host_key)
        if opening.protocol_version != PROTOCOL_VERSION:
            raise LobbyError(
                f"the opening is for hexlan protocol {opening.protocol_version}; this peer "
                f"speaks {PROTOCOL_VERSION}"
            )
        if opening.engine_version != self.engine_version:
            raise LobbyError(
                f"the opening is for hexlan {opening.engine_version}; this peer runs "
                f"{self.engine_version}"
            )
        if self.game is not None and opening.game != self.game:
            raise LobbyError(
                f"the host announced a {self.game} table but its opening is for the "
                f"{opening.game} game"
            )
        if self.game is not None and (
            opening.board_kind != self.board_kind or opening.game_options() != self.options
        ):
            raise LobbyError(
                "the host's opening has another board or other options than its table announced"
            )
        mine = [
            i for i, s in enumerate(opening.seats) if s.public_key == self.identity.public_bytes
        ]
        keys = [s.public_key for s in opening.seats]
        if len(mine) != 1 or self.host_key not in keys or keys.index(self.host_key) == mine[0]:
            raise LobbyError("the opening gives this peer no seat")
        seat = mine[0]
        entry = opening.seats[seat]
        if entry.x25519_public != self.game_keys.public_bytes:
            raise LobbyError(f"the opening gives seat {seat} other X25519 keys than this peer's")
        if entry.chain_commitment != self.chain.commitment:
            raise LobbyError(
                f"the opening gives seat {seat} another chain commitment than this peer's"
            )
        if entry.port != self.listen_port:
            raise LobbyError(
                f"the opening gives seat {seat} port {entry.port}; this peer listens on "
                f"{self.listen_port}"
            )
        self.opening, self.seat = opening, seat
        return GameStarts(opening, seat)


# ------------------------------------------------------------------------------ asyncio shell


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6) as ``(host, port)``.

    Raises:
        ValueError: not that shape, or a port outside 1..65535.

    >>> parse_address("192.168.1.20:47400"), parse_address("[::1]:9")
    (('192.168.1.20', 47400), ('::1', 9))
    """
    host, sep, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"expected HOST:PORT (e.g. 192.168.1.20:47400), not {text!r}")
    return host, int(port)


def free_port(host: str = "") -> int:
    """A TCP port free right now on ``host`` (all interfaces by default), for a joiner's mesh.

    It is free when this returns; another program could take it before the mesh binds it.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _os_words(exc: OSError) -> str:
    """An OS error in words: "Connection refused", "Address already in use"..."""
    if exc.errno is not None:
        return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(Exception):
        async with asyncio.timeout(1.0):
            await writer.wait_closed()


async def host_table(
    identity: Identity,
    seats: int,
    name: str,
    port: int,
    *,
    game_keys: GameKeys,
    chain: HashChain,
    options: GameOptions | None = None,
    board_kind: str | None = None,
    game: str = BASE_GAME,
    listen_host: str | None = None,
    on_change: Callable[[TableChanged], None] | None = None,
    on_listening: Callable[[int], None] | None = None,
    announce: bool = True,
    announce_targets: list[str] | None = None,
    hello_timeout: float = HELLO_TIMEOUT,
    start_now: asyncio.Event | None = None,
    drops: ListenerDrops | None = None,
    spectators: bool = True,
    rematch_of: Opening | None = None,
    on_vote: Callable[[RematchVoted], None] | None = None,
) -> tuple[Opening, int]:
    """Hold a table of ``game`` on ``port`` until its seats are full; the opening and the
    host's seat (0, except in a rematch).

    ``rematch_of`` plays again after that game (§3, Rematch; :class:`HostLobby`): its seat
    count, game, board kind and options are the table's (the arguments given for them are
    ignored), and ``on_vote`` hears each seat's vote.

    ``listen_host`` None listens on every interface, IPv4 and IPv6, on one port number (with
    ``port`` 0 too: :func:`~hexlan.net.transport.listen`). ``hello_timeout`` is the seconds a
    connection has to send its hello (:data:`HELLO_TIMEOUT`); ``drops``, when given, counts the
    connections turned away (too many waiting, an oversized frame, silence), which are logged.
    ``on_listening(port)`` is called once the port is bound (useful with ``port`` 0);
    ``on_change`` hears every change of the table. Setting ``start_now`` starts the game with
    the seats taken so far (if the game can start with them, :attr:`HostLobby.min_seats`; else
    it is cleared and the table waits on). ``board_kind`` and ``game`` are
    :class:`HostLobby`'s, and so is ``spectators`` (False refuses callers that come to watch).
    While waiting, the table is announced on the LAN (§10) unless ``announce`` is
    false; a failing announcer never stops hosting.

    Raises:
        LobbyError: the port cannot be bound (e.g. already in use).
        ValueError: what :class:`HostLobby` refuses (an unknown game, a table size outside its
            range, a board kind its map lacks, a name the opening cannot carry).
    """
    lobby: HostLobby | None = None
    writers: dict[int, asyncio.StreamWriter] = {}
    started: asyncio.Future[GameStarts] = asyncio.get_running_loop().create_future()
    announcer: Any = None
    starter: asyncio.Task[None] | None = None
    next_conn = 0
    gate = CallerGate(LOBBY_MAX_PENDING, LOBBY_MAX_PENDING_PER_HOST)
    dropped = drops if drops is not None else ListenerDrops()

    def perform(effects: list[LobbyEffect]) -> None:
        for effect in effects:
            if isinstance(effect, SendTo):
                writer = writers.get(effect.conn)
                if writer is not None and not writer.is_closing():
                    writer.write(encode_frame(effect.envelope))
            elif isinstance(effect, Disconnect):
                writer = writers.get(effect.conn)
                if writer is not None:
                    log.info("lobby: closing connection %d: %s", effect.conn, effect.reason)
                    writer.close()
            elif isinstance(effect, TableChanged):
                if announcer is not None:
                    with contextlib.suppress(ValueError):
                        announcer.update(len(effect.seats))
                if on_change is not None:
                    on_change(effect)
            elif isinstance(effect, RematchVoted):
                if on_vote is not None:
                    on_vote(effect)
            elif not started.done():
                started.set_result(effect)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal next_conn
        assert lobby is not None
        address = peer_host(writer)
        busy = gate.admit(address)
        if busy is not None:  # hung up on before any work (no challenge to sign)
            dropped.busy += 1
            log.debug("lobby: hung up on a caller from %s: %s", address, busy)
            writer.transport.abort()
            return
        pending = True
        next_conn += 1
        conn = next_conn
        writers[conn] = writer
        perform(lobby.connect(conn, address))
        decoder = FrameDecoder(max_frame=LOBBY_MAX_FRAME)
        deadline = asyncio.get_running_loop().time() + hello_timeout
        try:
            while not writer.is_closing():
                seated = lobby.is_known(conn)
                if seated and pending:  # a seat is bounded by the table: its slot is freed
                    gate.release(address)
                    pending = False
                try:
                    async with asyncio.timeout_at(None if seated else deadline):
                        data = await reader.read(4096)
                except TimeoutError:
                    dropped.silent += 1
                    perform(lobby.refuse(conn, f"no hello within {hello_timeout:g} s"))
                    break
                if not data:
                    break
                try:
                    frames = decoder.feed(data)
                except FramingError as exc:
                    dropped.oversized += 1
                    perform(lobby.refuse(conn, f"not a lobby frame: {exc.reason}"))
                    break
                for frame in frames:
                    perform(lobby.receive(conn, frame))
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            if pending:
                gate.release(address)
            if not started.done():
                perform(lobby.disconnect(conn))
                writers.pop(conn, None)
                await _close(writer)

    try:
        server = await listen(serve, listen_host, port)
    except OSError as exc:
        raise LobbyError(f"cannot listen on port {port}: {_os_words(exc)}") from None
    bound = int(server.sockets[0].getsockname()[1])
    if rematch_of is not None:
        seats, game, board_kind = len(rematch_of.seats), rematch_of.game, rematch_of.board_kind
        options = rematch_of.game_options()
    try:
        lobby = HostLobby(
            identity,
            seats,
            name,
            bound,
            options,
            board_kind,
            game=game,
            game_keys=game_keys,
            chain=chain,
            spectators=spectators,
            rematch_of=rematch_of,
        )
        if on_listening is not None:
            on_listening(bound)
        if on_change is not None:
            on_change(lobby.table())
        if announce:
            announcer = await _start_announcer(lobby, announce_targets)
        if start_now is not None:
            starter = asyncio.get_running_loop().create_task(_start_when(start_now, lobby, perform))
        starts = await started
        for writer in list(writers.values()):  # flush every start before closing
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await writer.drain()
        return starts.opening, starts.seat
    finally:
        server.close()
        if starter is not None:
            starter.cancel()
        if announcer is not None:
            with contextlib.suppress(Exception):
                await announcer.stop()
        await asyncio.gather(*(_close(w) for w in writers.values()), return_exceptions=True)
        with contextlib.suppress(Exception):
            await server.wait_closed()


async def _start_when(
    event: asyncio.Event, lobby: HostLobby, perform: Callable[[list[LobbyEffect]], None]
) -> None:
    """Start the game with the seats taken whenever ``event`` is set (see :func:`host_table`)."""
    while not lobby.is_started:
        await event.wait()
        event.clear()
        if len(lobby.seats) >= max(2, lobby.min_seats) and not lobby.is_started:
            perform(lobby.start())


async def _start_announcer(lobby: HostLobby, targets: list[str] | None) -> Any:
    """An :class:`~hexlan.net.discovery.Announcer` for the table, or None if it cannot run."""
    try:
        from hexlan.net.discovery import Announcer, TableAnnouncement  # noqa: PLC0415

        table = TableAnnouncement(
            lobby.name,
            lobby.listen_port,
            len(lobby.seats),
            lobby.max_seats,
            lobby.identity.fingerprint,
            game=lobby.game,
        )
        announcer = Announcer(table, targets=targets)
        await announcer.start()
    except Exception as exc:  # discovery is a convenience: hosting goes on without it
        log.warning("cannot announce the table on the LAN: %s", exc)
        return None
    return announcer


async def join_table(
    host: str,
    port: int,
    identity: Identity,
    name: str,
    *,
    game_keys: GameKeys,
    chain: HashChain,
    listen_port: int,
    host_fingerprint: str | None = None,
    on_change: Callable[[TableChanged], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    rematch: bytes | None = None,
    retry_for: float = 0.0,
) -> tuple[Opening, int]:
    """Join the table at ``host:port``; waits until the game starts; the opening and seat.

    ``rematch``, a game id, plays again after that game (§3, Rematch): the hello follows a
    ``rematch`` vote for it. ``retry_for`` seconds the host is dialled again while it is not
    yet listening, or its port still carries the last game's mesh (its first frame is then a
    ``link_hello``, not a challenge).

    Raises:
        LobbyError: the host cannot be reached, closes the connection, or breaks the protocol
            (its first frame must be its ``challenge``; this peer's ``hello`` answers it).
        Refused: the host refused this peer.
        ValueError: a name the protocol cannot carry (before connecting).
    """
    lobby = JoinLobby(
        identity, name, game_keys, chain, listen_port, host_fingerprint=host_fingerprint
    )
    lobby._hello_envelope(bytes(LOBBY_NONCE_BYTES))  # a name it cannot carry fails here
    reader, writer, decoder, early = await _dial_table(host, port, connect_timeout, retry_for)
    challenge, *frames = early
    try:
        if rematch is not None:
            hello = lobby.hello(challenge)
            writer.write(encode_frame(lobby.vote(rematch, True)) + encode_frame(hello))
        else:
            writer.write(encode_frame(lobby.hello(challenge)))
        while True:
            for frame in frames:
                for event in lobby.receive(frame):
                    if isinstance(event, GameStarts):
                        return event.opening, event.seat
                    if on_change is not None:
                        on_change(event)
            try:
                data = await reader.read(4096)
            except OSError as exc:
                raise LobbyError(f"lost the connection to {host}:{port}: {exc}") from None
            if not data:
                raise LobbyError(f"{host}:{port} closed the connection before the game started")
            try:
                frames = decoder.feed(data)
            except FramingError as exc:
                raise LobbyError(f"{host}:{port} sent a bad frame: {exc.reason}") from None
    finally:
        await _close(writer)


RETRY_PAUSE: Final = 0.25
"""Seconds between two dials of a host not listening yet (``join_table(retry_for=)``)."""


async def _dial_table(
    host: str, port: int, connect_timeout: float, retry_for: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, FrameDecoder, list[bytes]]:
    """A connection to the table at ``host:port`` and its first frames (the challenge, §3);
    dialled again for ``retry_for`` seconds while nobody listens there or the last game's
    mesh answers instead (a ``link_hello``: its host has not reopened the table yet).

    Raises:
        LobbyError: the host cannot be reached, or closes before its first frame.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + retry_for
    while True:
        try:
            async with asyncio.timeout(connect_timeout):
                reader, writer = await asyncio.open_connection(host, port)
        except TimeoutError:
            raise LobbyError(
                f"cannot reach {host}:{port}: no answer within {connect_timeout:g} s"
            ) from None
        except OSError as exc:
            if loop.time() < deadline:
                await asyncio.sleep(RETRY_PAUSE)
                continue
            raise LobbyError(f"cannot reach {host}:{port}: {_os_words(exc)}") from None
        decoder = FrameDecoder(max_frame=LOBBY_MAX_FRAME)
        frames: list[bytes] = []
        with contextlib.suppress(OSError, FramingError, TimeoutError):
            async with asyncio.timeout(connect_timeout):
                while not frames:
                    data = await reader.read(4096)
                    if not data:
                        break
                    frames = decoder.feed(data)
        kind = _kind_of(frames[0]) if frames else None
        if kind not in (None, "link_hello") or loop.time() >= deadline:
            if not frames:
                await _close(writer)
                raise LobbyError(f"{host}:{port} closed the connection before the game started")
            return reader, writer, decoder, frames
        await _close(writer)
        await asyncio.sleep(RETRY_PAUSE)


def _kind_of(frame: bytes) -> str | None:
    """The kind of a frame's envelope, or None when it does not parse."""
    try:
        return Envelope.parse(frame).body.kind
    except RemoteProtocolError:
        return None


async def decline_rematch(
    host: str,
    port: int,
    identity: Identity,
    game_id: bytes,
    *,
    connect_timeout: float = CONNECT_TIMEOUT,
    retry_for: float = 0.0,
) -> None:
    """Tell the host of the table at ``host:port`` that this peer will not play again after
    game ``game_id`` (§3, Rematch): a ``rematch`` vote with ``agree`` false, then the host
    closes the connection (frees the place).

    Raises:
        LobbyError: the host cannot be reached.
        Refused: the host refused the vote (the reason is the host's).
    """
    lobby = JoinLobby(identity, "-", GameKeys.generate(), HashChain.generate(length=2), 1)
    reader, writer, decoder, frames = await _dial_table(host, port, connect_timeout, retry_for)
    try:
        lobby.hello(frames[0])  # pins and checks the host's challenge
        writer.write(encode_frame(lobby.vote(game_id, False)))
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(connect_timeout):
                while data := await reader.read(4096):
                    for frame in decoder.feed(data):
                        lobby.receive(frame)  # a refusal raises Refused
    finally:
        await _close(writer)
