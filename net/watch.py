"""A spectator: `hexlan watch` follows a game with no seat (docs/PROTOCOL.md §17).

A :class:`Spectator` dials the host's table port with its own identity. Before the start the
host's lobby lists it (``watch`` answers the ``challenge``; ``lobby_state`` and ``spectators``
come back); from the start the same port is the host seat's mesh, which answers a ``watch``
hello with the opening (a ``start`` the seat signs), every message the spectator lacks, and
then every message the seat accepts or signs, as it does. The spectator checks all of it with
an *observer* :class:`~hexlan.net.session.Session` (seat None, the one ``hexlan verify`` uses):
signatures, hash chains, the order rule, the beacon, every move through the engine, the deck's
proofs. It holds no seat secret, so its information state is the public one: a steal and a
card draw are ``StealCard(None)`` and ``DrawCard(None)`` to it, as to any third party, until
the end-of-game audit makes every secret public.

It signs nothing the game counts and the seats take nothing from it but its hello, its
``catch_up [heads]`` requests and, where the host lets spectators write (§18), its chat lines,
which are never game state, so it cannot change the game or its transcript. It keeps no log:
killed and restarted, it asks again from nothing and the seat resends the game so far. A lost
connection is redialled (0.2 s doubling to 2 s) with its heads, so it gets only what it lacks.

``on_event`` hears :class:`WatchEvent` values on the event loop; :meth:`Spectator.run` returns a
:class:`WatchResult` once the game is done (won and audited, stopped or abandoned).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from hexlan.engine.actions import Action
from hexlan.net.chat import (
    SPECTATOR,
    ChatBook,
    ChatRefused,
    is_chat_frame,
    is_chat_refusal,
    parse_chat_refusal,
    safe_text,
    sign_spectator_chat,
)
from hexlan.net.effects import Abandoned, Applied, Audited, Compute, Effect, Rejected, Stopped
from hexlan.net.identity import Identity, WeakKeyError, check_ed25519_public, fingerprint
from hexlan.net.lobby import LobbySeat, TableChanged, table_terms
from hexlan.net.session import Session, engine_version
from hexlan.net.transport import FrameDecoder, FramingError, encode_frame
from hexlan.net.wire import (
    GAME_KINDS,
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    Opening,
    RemoteProtocolError,
    sign_body,
)

__all__ = [
    "CATCH_UP_AFTER",
    "Spectator",
    "WatchError",
    "WatchEvent",
    "WatchRefused",
    "WatchResult",
]

log = logging.getLogger(__name__)

CATCH_UP_AFTER: Final = 2.0
"""Seconds without news after which a spectator asks the seat again for what it lacks."""
BACKOFF: Final = (0.2, 2.0)
"""Redial delays after a lost connection: 0.2 s, doubling, at most 2 s."""
CONNECT_TIMEOUT: Final = 5.0
"""Seconds a connection attempt may take."""
READ_CHUNK: Final = 64 * 1024


class WatchError(Exception):
    """Watching cannot go on: the table broke the protocol or plays another game. ``reason``
    says what, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WatchRefused(WatchError):
    """The table refused this spectator (``refuse [reason]``, e.g. it takes no spectators)."""


@dataclass(frozen=True, slots=True)
class WatchEvent:
    """News for a screen.

    Attributes:
        kind: ``"table"`` (the lobby changed: :attr:`Spectator.table`), ``"opening"`` (the game
            is known: :attr:`Spectator.session`), ``"applied"`` (an action took effect),
            ``"link"`` (connected, lost, redialling), ``"spectators"`` (who watches changed),
            ``"rejected"``, ``"stopped"``, ``"abandoned"``, ``"audited"``, ``"chat"`` (a table
            chat line, ``text`` made safe; ``author`` :data:`~hexlan.net.chat.SPECTATOR` for a
            spectator's) and ``"chat_refused"`` (§18: a line refused here, or this
            spectator's own refused by the host).
        text: the news in words.
        action: the action applied, if any (hidden parts None, as a third party sees it).
        author: the seat whose message carried it (None: a chance outcome, or not a message).
    """

    kind: str
    text: str
    action: Action | None = None
    author: int | None = None


@dataclass(frozen=True, slots=True)
class WatchResult:
    """How the game ended, as the spectator checked it (``hexlan watch --json``'s line).

    Attributes:
        game_id: hex. winner: the winning seat or None. state_hash: the final public state's
        hash (the seats' ``hexlan bot`` lines give the same). turns: the turn reached.
        stopped: why the game stopped, or None. abandoned: the seats it was abandoned by, or
        None. audit: "passed", the first deviation found, or None. messages: messages checked.
        connections: connections made to the table (one more per redial).
    """

    game_id: str
    winner: int | None
    state_hash: str
    turns: int
    stopped: str | None
    abandoned: tuple[int, ...] | None
    audit: str | None
    messages: int
    connections: int

    def to_json(self) -> dict[str, Any]:
        """The result as one JSON object."""
        return {
            "game_id": self.game_id,
            "winner": self.winner,
            "state_hash": self.state_hash,
            "turns": self.turns,
            "stopped": self.stopped,
            "abandoned": None if self.abandoned is None else list(self.abandoned),
            "audit": self.audit,
            "messages": self.messages,
            "connections": self.connections,
        }


def _lobby_envelope(identity: Identity, payload: tuple[Any, ...]) -> bytes:
    body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "watch", payload)
    return sign_body(body, identity).to_bytes()


def _catch_up(identity: Identity, heads: tuple[Any, ...]) -> bytes:
    body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "catch_up", (heads,))
    return sign_body(body, identity).to_bytes()


class Spectator:
    """One spectator of the table at ``host:port`` (see the module docstring).

    Args:
        identity: the spectator's own key (never a seat's).
        name: its name, listed at the table (1..32 characters).
        host, port: the table's address (the host's table port, its mesh port once the game
            runs).
        host_fingerprint: the host key's fingerprint, when known (a LAN announcement); the
            first key heard is pinned otherwise.
        on_event: hears every :class:`WatchEvent` (on the event loop; keep it quick).
        clock: a monotonic clock in seconds.
        give_up_after: seconds without reaching the table after which :meth:`run` stops
            (a game over and its host gone); None keeps redialling.
        wall_clock: the time of day in seconds (:func:`time.time`): a spectator keeps no log,
            so it numbers its chat lines from the time of its first one, in milliseconds, and a
            restarted spectator repeats no number (§18).
    """

    def __init__(
        self,
        identity: Identity,
        name: str,
        host: str,
        port: int,
        *,
        host_fingerprint: str | None = None,
        on_event: Callable[[WatchEvent], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        give_up_after: float | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.identity = identity
        self.give_up_after = give_up_after
        self.name = name
        self.host = host
        self.port = port
        self.host_fingerprint = host_fingerprint
        self.on_event = on_event
        self.clock = clock
        self.host_key: bytes | None = None
        self.session: Session | None = None
        """The observer session, once the opening is known."""
        self.chat: ChatBook | None = None
        """The table chat heard (§18), once the opening is known."""
        self.table: TableChanged | None = None
        """The lobby as the host last showed it (before the start)."""
        self.spectators: tuple[LobbySeat, ...] = ()
        """Who watches the table, as the host last listed them."""
        self.connections = 0
        self.messages = 0
        self.connected = False
        self._link_hello: Envelope | None = None  # this connection's, from the host seat
        self._writer: asyncio.StreamWriter | None = None
        self._jobs: set[asyncio.Task[None]] = set()
        self._failure: WatchError | None = None
        self.says: deque[str] = deque()
        """Chat lines to say once the host seat serves this spectator (``--say``, and lines
        typed while the connection is down), each once."""
        self._wall_clock = wall_clock
        self._chat_seq: int | None = None  # the next line's number, from the first line's time

    @property
    def opening(self) -> Opening | None:
        """The game's opening, once the host seat has sent it."""
        return None if self.session is None else self.session.opening

    @property
    def done(self) -> bool:
        """Whether nothing more will happen: the game is stopped, abandoned, or audited."""
        return self.session is not None and self.session.done

    def result(self) -> WatchResult:
        """The game as the spectator has checked it so far."""
        session = self.session
        view = None if session is None else session.game
        winner = None
        if view is not None and view.is_over and view.winners():
            winner = int(view.winners()[0])
        audit = None
        if session is not None and session.audited is not None:
            deviations = session.audited.report.deviations
            audit = "passed" if not deviations else deviations[0].reason
        return WatchResult(
            game_id="" if session is None else session.game_id.hex(),
            winner=winner,
            state_hash="" if view is None else view.public_hash(),
            turns=0 if view is None else int(view.turn),
            stopped=None if session is None or session.stopped is None else session.stopped.reason,
            abandoned=None if session is None or session.abandoned is None else session.abandoned,
            audit=audit,
            messages=self.messages,
            connections=self.connections,
        )

    # ------------------------------------------------------------------ running

    async def run(self) -> WatchResult:
        """Watch until the game is done, redialling lost connections; the result.

        Raises:
            WatchRefused: the table refused this spectator.
            WatchError: the table broke the protocol, plays another game than before, or could
                not be reached for ``give_up_after`` seconds.
        """
        try:
            return await self._run()
        finally:
            for job in list(self._jobs):
                job.cancel()

    async def _run(self) -> WatchResult:
        delay = BACKOFF[0]
        failures = 0
        reached = self.clock()
        while not self.done:
            if self.give_up_after is not None and self.clock() - reached > self.give_up_after:
                raise WatchError(
                    f"cannot reach {self.host}:{self.port} for {self.give_up_after:g} s"
                )
            try:
                async with asyncio.timeout(CONNECT_TIMEOUT):
                    reader, writer = await asyncio.open_connection(self.host, self.port)
            except (OSError, TimeoutError) as exc:
                failures += 1
                if failures == 1:
                    self._emit("link", f"cannot reach {self.host}:{self.port}: {exc}; retrying")
            else:
                failures = 0
                self.connections += 1
                reached = self.clock()
                self._writer = writer
                try:
                    if await self._follow(reader, writer):
                        delay = BACKOFF[0]
                finally:
                    self.connected = False
                    reached = self.clock()
                    writer.close()
                    with contextlib.suppress(Exception):
                        await writer.wait_closed()
                if self._failure is not None:
                    raise self._failure
                if self.done:
                    break
                if self.session is None and self.table is not None:
                    self._emit("link", "the lobby closed: the game starts; joining it")
                else:
                    self._emit("link", f"lost {self.host}:{self.port}; redialling")
            await asyncio.sleep(delay)
            delay = min(BACKOFF[1], delay * 2)
        return self.result()

    async def _follow(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Follow one connection until it closes or the game is done; whether it got anywhere
        (the table answered the hello)."""
        decoder = FrameDecoder()
        first = True
        answered = False
        while not self.done:
            try:
                async with asyncio.timeout(CATCH_UP_AFTER):
                    data = await reader.read(READ_CHUNK)
            except TimeoutError:
                if answered and self.session is not None:
                    writer.write(encode_frame(_catch_up(self.identity, self.session.heads())))
                continue
            except OSError:
                return answered
            if not data:
                return answered
            try:
                frames = decoder.feed(data)
            except FramingError as exc:
                raise WatchError(
                    f"{self.host}:{self.port} sent a bad frame: {exc.reason}"
                ) from None
            for frame in frames:
                if first:
                    writer.write(encode_frame(self.greet(frame)))
                    first = False
                    continue
                answered = True
                self.receive(frame)
                if self.done:
                    return True
        return answered

    # ------------------------------------------------------------------ frames

    def _parse(self, frame: bytes) -> Envelope:
        try:
            return Envelope.parse(frame)
        except RemoteProtocolError as exc:
            raise WatchError(f"the table sent a malformed message: {exc.reason}") from None

    def _pin(self, key: bytes) -> None:
        if self.host_key is None:
            if self.host_fingerprint is not None and fingerprint(key) != self.host_fingerprint:
                raise WatchError(
                    f"the host's key is {fingerprint(key)}, not the announced "
                    f"{self.host_fingerprint}"
                )
            try:
                check_ed25519_public(key)
            except WeakKeyError as exc:
                raise WatchError(f"the host's key is refused: {exc.reason}") from None
            self.host_key = key
        elif key != self.host_key:
            raise WatchError(f"the key at {self.host}:{self.port} is not the host's any more")

    def _verify(self, env: Envelope, key: bytes) -> None:
        try:
            env.verify(key)
        except RemoteProtocolError:
            raise WatchError(f"the table's {env.body.kind} is not signed by its key") from None

    def greet(self, frame: bytes) -> bytes:
        """The ``watch`` hello (an envelope, not yet framed) answering the table's first
        frame of a connection: the lobby's ``challenge`` or the host seat's ``link_hello``.
        It signs that frame's nonce and gives this spectator's heads.

        Raises:
            WatchError: the frame is neither, or not from the host (its key, its game).
        """
        env = self._parse(frame)
        kind, payload = env.body.kind, env.body.payload
        heads: tuple[Any, ...] = ()
        if kind == "challenge":
            key, nonce = payload
            self._pin(key)
            self._verify(env, key)
        elif kind == "link_hello":
            game_id, seat, nonce, _ = payload
            if seat != 0:
                raise WatchError(f"{self.host}:{self.port} is seat {seat}'s port, not the host's")
            if self.session is not None:
                if game_id != self.session.game_id:
                    raise WatchError(f"{self.host}:{self.port} now plays another game")
                self._verify(env, self.session.opening.seats[0].public_key)
                heads = self.session.heads()
        else:
            raise WatchError(f"{self.host}:{self.port} is no hexlan table (it sent {kind})")
        self._link_hello = env if kind == "link_hello" else None
        return _lobby_envelope(
            self.identity,
            (
                self.name,
                self.identity.public_bytes,
                PROTOCOL_VERSION,
                engine_version(),
                nonce,
                heads,
            ),
        )

    def receive(self, frame: bytes) -> None:
        """Take one frame after the greeting: lobby news, the opening, a game message (checked
        by the observer session), or a refusal.

        Raises:
            WatchRefused: the table refused this spectator.
            WatchError: the table broke the protocol.
        """
        if is_chat_frame(frame):
            self._chat_line(frame)
            return
        env = self._parse(frame)
        body_kind, payload = env.body.kind, env.body.payload
        if body_kind in GAME_KINDS:
            self._game_message(frame)
            return
        if body_kind == "refuse":
            if self.host_key is not None:
                self._verify(env, self.host_key)
            raise WatchRefused(f"the table refused to be watched: {payload[0]}")
        if body_kind == "lobby_state":
            self._lobby_state(env)
        elif body_kind == "spectators":
            key = (
                self.host_key if self.session is None else self.session.opening.seats[0].public_key
            )
            if key is None:
                raise WatchError("the table listed spectators before itself")
            self._verify(env, key)
            self.spectators = tuple(LobbySeat(*row) for row in payload[0])
            names = ", ".join(s.name for s in self.spectators) or "nobody"
            self._emit("spectators", f"watching: {names}")
        elif body_kind == "start":
            self._start(env)
        else:
            raise WatchError(f"the table sent {body_kind}, which has no place here")

    def _lobby_state(self, env: Envelope) -> None:
        max_seats, rows = env.body.payload[:2]
        game, board_kind, options = table_terms(env.body.payload)
        if not rows or rows[0][1] != self.host_key or self.host_key is None:
            raise WatchError("the lobby does not seat the host first")
        self._verify(env, self.host_key)
        seats = tuple(LobbySeat(*row) for row in rows)
        self.table = TableChanged(max_seats, seats, game, self.spectators, board_kind, options)
        self._emit("table", f"{len(seats)} of {max_seats} seats taken")

    def _start(self, env: Envelope) -> None:
        """The opening, from the host seat's mesh (§17): it must be the game the seat's
        ``link_hello`` named, signed by seat 0's key, and the host's."""
        hello = self._link_hello
        if hello is None:
            raise WatchError("the table sent the opening before its link_hello")
        try:
            opening = Opening.from_payload(env.body.payload[0])
        except RemoteProtocolError as exc:
            raise WatchError(f"the table sent a malformed opening: {exc.reason}") from None
        if opening.game_id != hello.body.payload[0]:
            raise WatchError("the opening is not the game the host's link_hello names")
        host_key = opening.seats[0].public_key
        self._verify(hello, host_key)
        self._verify(env, host_key)
        self._pin(host_key)
        if self.session is not None:
            if opening.game_id != self.session.game_id:
                raise WatchError(f"{self.host}:{self.port} now plays another game")
            self._emit("link", f"watching {self.host}:{self.port} again")
            self.connected = True
            self._say_pending()
            return
        if opening.engine_version != engine_version():
            raise WatchError(
                f"this table runs hexlan {opening.engine_version}; this spectator runs "
                f"{engine_version()}"
            )
        try:
            self.session = Session(None, None, opening, None, None, inline_work=False)
        except ValueError as exc:
            raise WatchError(str(exc)) from None
        self.connected = True
        self._emit("opening", f"watching game {opening.game_id.hex()[:16]}")
        self._say_pending()

    def say(self, text: str) -> None:
        """Say ``text`` at the table (§18): signed by this spectator's key and sent to the host
        seat, which passes it on where the table lets spectators write (``--spectator-chat``)
        and answers with a refusal otherwise. It is shown once the host relays it back; while
        the connection is down it waits in :attr:`says`."""
        self.says.append(text)
        self._say_pending()

    def _say_pending(self) -> None:
        session, writer = self.session, self._writer
        if session is None or writer is None or not self.connected or writer.is_closing():
            return
        while self.says:
            if self._chat_seq is None:
                self._chat_seq = int(self._wall_clock() * 1000)
            frame = sign_spectator_chat(
                self.identity, session.game_id, self.name, self._chat_seq, self.says.popleft()
            )
            self._chat_seq += 1
            writer.write(encode_frame(frame))

    def _chat_line(self, frame: bytes) -> None:
        """A chat line the host seat passed on (§18; a seat's, or a spectator's it relays):
        checked like any seat checks it, shown once; a refused one is a system line, never a
        failure. The host's refusal of this spectator's own line is shown in its words."""
        session = self.session
        if session is None:
            raise WatchError("the table sent a chat line before the opening")
        if self.chat is None:
            self.chat = ChatBook.of(session.opening)
        try:
            if is_chat_refusal(frame):
                _, reason = parse_chat_refusal(
                    frame, session.game_id, session.opening.seats[0].public_key
                )
                text = f"the table refused your chat line: {safe_text(reason)}"
                self._emit("chat_refused", text, author=SPECTATOR)
                return
            line = self.chat.receive(frame, self.clock())
        except ChatRefused as exc:
            self._emit("chat_refused", f"a chat line refused: {exc.reason}", author=exc.author)
            return
        if line is not None:
            who = line.spectator
            name = session.opening.seats[line.author].name if who is None else who[0]
            self._emit("chat", safe_text(f"{name}: {line.text}"), author=line.author)

    def _game_message(self, frame: bytes) -> None:
        session = self.session
        if session is None:
            raise WatchError("the table sent game messages before the opening")
        before = sum(len(m) for m in session.accepted)
        effects = session.receive(frame, self.clock())
        self.messages += sum(len(m) for m in session.accepted) - before
        self._perform(effects)

    def _perform(self, effects: list[Effect]) -> None:
        """Tell the screen what the observer session did; start its proof work."""
        for effect in effects:
            if isinstance(effect, Compute):
                self._start_job(effect)
            elif isinstance(effect, Applied):
                self._emit("applied", "", action=effect.action, author=effect.author)
            elif isinstance(effect, Rejected):
                self._emit("rejected", f"refused a message: {effect.reason}", author=effect.author)
            elif isinstance(effect, Stopped):
                self._emit("stopped", f"the game stopped: {effect.reason}", author=effect.author)
            elif isinstance(effect, Abandoned):
                seats = ", ".join(str(s) for s in effect.missing)
                self._emit("abandoned", f"the game ends as abandoned by seats {seats}")
            elif isinstance(effect, Audited):
                found = effect.report.deviations
                text = "passed" if not found else found[0].reason
                self._emit("audited", f"the audit {text}")

    def _start_job(self, compute: Compute) -> None:
        """Check a proof (a shuffle's, the audit) in a worker thread, so news keeps flowing
        to the screen meanwhile; with no event loop running (a caller feeding frames by
        hand), here and now."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._computed(compute.key, compute.job())
            return
        task = loop.create_task(self._job(compute), name=compute.key)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _job(self, compute: Compute) -> None:
        try:
            result = await asyncio.to_thread(compute.job)
        except Exception as exc:  # a bug in proof work: end the run with the reason
            log.exception("proof work %s failed", compute.key)
            self._failure = WatchError(f"proof work {compute.key} failed: {exc}")
            if self._writer is not None:
                self._writer.close()
            return
        self._computed(compute.key, result)
        if self.done and self._writer is not None:
            self._writer.close()  # nothing more to hear: end the connection's read

    def _computed(self, key: str, result: object) -> None:
        assert self.session is not None
        self._perform(self.session.computed(key, result, self.clock()))

    def _emit(self, kind: str, text: str, **fields: Any) -> None:
        if self.on_event is not None:
            self.on_event(WatchEvent(kind, text, **fields))
