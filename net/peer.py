"""One networked peer: a :class:`~hexlan.net.session.Session` on a TCP mesh, with its log.

A :class:`Peer` is the thin shell around one seat's sans-IO session (docs/PROTOCOL.md §8, §9,
§11): it hands the :class:`~hexlan.net.transport.Mesh`'s envelopes to the session and carries
out the session's effects, in order:

- :class:`~hexlan.net.session.Persist`: append to the :class:`~hexlan.net.log.GameLog` (fsynced)
  *before* anything later in the list happens, so a message is on disk before it is sent or acted
  on (principle 5);
- :class:`~hexlan.net.session.Send`: queue for the mesh (sent to every connected seat, in order;
  a seat not connected gets it from ``missing_for`` when its link opens);
- :class:`~hexlan.net.session.Applied`: tell the screen (``on_event``);
- :class:`~hexlan.net.session.Rejected`: keep the message as evidence in the log (once: the same
  message refused again, as the resends of §8 and of a stall deliver it, is not kept again);
- :class:`~hexlan.net.session.Stopped`: keep the evidence (two bodies for one ``seq`` as an
  equivocation record) and end the game.

A peer created for a new game writes its log's opening, its secrets file (``LOG.secrets``) and,
for a bot with a fresh identity, the identity key (``LOG.identity.pem``), all fsynced before the
first message. :meth:`Peer.resume` rebuilds a peer from those files after a crash; the mesh's
resend on reconnection (``missing_for``, both ways) then catches it up. Because every signed
message is logged before it is sent and the session derives what it owes from its state, a
resumed peer never signs a sequence number twice.

A bot peer passes ``decide(view, seat) -> action``; a person's screen passes none and calls
:meth:`Peer.submit` instead. ``on_event`` hears :class:`PeerEvent` values: actions applied,
messages signed, links, stalls (``"waiting for seat 2 (Cy): no reveal for 5 s"``), the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Final

from hexlan.engine.actions import Action
from hexlan.engine.chance import (
    DECK_DRAW,
    HAND_DRAW,
    HAND_SHOW,
    STEAL,
    UNIFORM,
)
from hexlan.engine.core import IllegalActionError, Phase
from hexlan.engine.game import TableGame
from hexlan.engine.info import InformationState
from hexlan.net.beacon import HashChain
from hexlan.net.chat import (
    NO_SPECTATOR_CHAT,
    SPECTATOR,
    ChatBook,
    ChatLine,
    ChatRefused,
    Spectator,
    line_seq,
    relay_chat,
    safe_text,
    sign_chat,
    sign_chat_refusal,
    spectator_words,
)
from hexlan.net.effects import (
    Abandoned,
    Applied,
    Audited,
    Compute,
    Effect,
    Persist,
    Rejected,
    Send,
    Stopped,
)
from hexlan.net.files import create_private
from hexlan.net.identity import (
    GameKeys,
    Identity,
    IdentityError,
    default_identity_path,
    fingerprint,
)
from hexlan.net.log import (
    GameLog,
    LogContents,
    LogFormatError,
    SeatSecrets,
    load_secrets,
    read_log,
    save_secrets,
    secrets_path,
)
from hexlan.net.session import AUTOMATIC_TIMEOUT, BROKEN_CHAIN, FALSE_HEAD, Session
from hexlan.net.transport import NO_SPECTATORS, Mesh
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    Opening,
    RemoteProtocolError,
    message_id,
    sign_body,
    unpack,
)

__all__ = [
    "LINGER",
    "TICK",
    "Decide",
    "Peer",
    "PeerError",
    "PeerEvent",
    "PeerResult",
    "identity_path_for",
    "peer_kind",
    "read_peer_kind",
]

log = logging.getLogger(__name__)

TICK: Final = 0.5
"""Seconds between two stall checks (``Session.tick``)."""
LINGER: Final = 1.0
"""Seconds a peer stays on the mesh after the game ends, so its last messages reach everyone."""
STALL_REPEAT: Final = 5.0
"""Seconds before the same stall is reported again."""
MAX_EVIDENCE: Final = 256
"""Rejected messages kept in the log per run; a flood beyond that is only counted. A message
refused again for the same reason (a resend) is neither kept nor reported again."""
PEER_NOTE: Final = "peer: "
IDENTITY_NOTE: Final = "identity: "
NO_SPECTATORS_NOTE: Final = "table: no spectators"
"""The host seat's note that it refuses spectators, so ``hexlan resume`` keeps refusing (§17)."""
SPECTATOR_CHAT_NOTE: Final = "table: spectators write in the chat"
"""The host seat's note that spectators may write in the chat (``--spectator-chat``, §18), so
a resumed host goes on letting them."""
ANNOUNCE_NOTE: Final = "table: announced"
"""The host seat's note that it announces its game on the LAN, so a resumed host goes on (§17)."""
SPECTATE_THE_HOST: Final = "spectators watch through the host's table port"
"""What a seat other than the host tells a caller that comes to watch (§17)."""
THIS_MACHINE: Final = "127.0.0.1"
"""Where an opening's empty ``host`` is dialled when this peer does not know the address it
reached the host at: it is the host (the seat runs on its machine), or it was resumed."""

Decide = Callable[[Any, int], Action]
"""A policy: the action ``seat`` takes now, given its view (a bot's ``choose``): a Catan
game's :class:`~hexlan.engine.info.InformationState`, or the view of a game with a state of
its own (:attr:`Session.game <hexlan.net.session.Session.game>`)."""


class PeerError(Exception):
    """The peer cannot run: its port is taken, its files do not fit together, a bot broke the
    rules. ``reason`` says which, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class PeerEvent:
    """Something a screen or a log may want to show.

    Attributes:
        kind: ``"applied"`` (an action took effect here), ``"signed"`` (this seat signed and
            queued a decision), ``"error"`` (the session failed to sign this seat's decision:
            a bug, reported in one line; the peer goes on), ``"link"``, ``"stall"``,
            ``"rejected"``, ``"stopped"``, ``"abandoned"``, ``"over"``, ``"spectators"`` (who
            watches changed; see :attr:`Peer.spectators`), ``"chat"`` (a table chat line,
            ``text`` made safe by :func:`~hexlan.net.chat.safe_text`, §18) and
            ``"chat_refused"`` (a chat line refused, naming its author).
        text: the event in words.
        time: the peer's clock (``time.monotonic`` unless given) when it happened.
        action: the action applied or decided, if any.
        author: the seat whose message carried it (None: a chance outcome, or not a message).
        message_id: the id of the message concerned, if any.
        replayed: true for actions re-applied from the log by :meth:`Peer.resume`.
    """

    kind: str
    text: str
    time: float
    action: Action | None = None
    author: int | None = None
    message_id: bytes = b""
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class PeerResult:
    """How a peer's game ended.

    Attributes:
        game_id: the game id, hex.
        seat: this peer's seat.
        winner: the winning seat (from 0), or None if the game did not end in a win.
        state_hash: the final public state's hash (``view.public_hash()``), hex.
        log: the log file.
        stopped: why the game stopped (a protocol violation), or None.
        turns: the turn number reached.
        abandoned: the seats the game was abandoned by (every other seat signed it), or None.
        audit: the end-of-game audit's outcome: "passed", the first deviation found, or None
            when no audit was completed (PROTOCOL.md §14).
        refused: for each seat whose signed messages this peer refused (a flood far ahead of
            its number, an illegal move, §8), how many refusals it reported: a resend of a
            message refused for the same reason is not counted again (among the first
            :data:`MAX_EVIDENCE` remembered). Bytes that name no seat are not counted. Empty
            when nothing was refused.
    """

    game_id: str
    seat: int
    winner: int | None
    state_hash: str
    log: str
    stopped: str | None = None
    turns: int = 0
    abandoned: tuple[int, ...] | None = None
    audit: str | None = None
    refused: Mapping[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The result as one JSON object (``hexlan bot``'s last line)."""
        return {
            "game_id": self.game_id,
            "seat": self.seat,
            "winner": self.winner,
            "state_hash": self.state_hash,
            "log": self.log,
            "stopped": self.stopped,
            "turns": self.turns,
            "abandoned": None if self.abandoned is None else list(self.abandoned),
            "audit": self.audit,
            "refused": {str(seat): n for seat, n in sorted(self.refused.items())},
        }


def identity_path_for(log_path: str | os.PathLike[str]) -> Path:
    """Where a bot's fresh identity key is kept beside its log: ``LOG.identity.pem``."""
    path = Path(log_path)
    return path.with_name(path.name + ".identity.pem")


def peer_kind(contents: LogContents) -> str:
    """Who played a log's seat, from its ``"peer: ..."`` note: ``"bot heuristic"``,
    ``"human"``, ... (``"human"`` when the log has no such note)."""
    for note in contents.notes:
        if note.startswith(PEER_NOTE):
            return note[len(PEER_NOTE) :]
    return "human"


_STEP_BY_PHASE: Final[dict[object, str]] = {
    Phase.GAME_OVER: "audit secrets or audit result",
    Phase.MONOPOLY: "Monopoly count",
    Phase.ROLL: "turn acknowledgement",
}
_STEP_BY_CHANCE: Final = {
    UNIFORM: "reveal",
    DECK_DRAW: "decryption share",
    STEAL: "steal commitment, reveal or opening",
    HAND_DRAW: "loot commitment, reveal or opening",
    HAND_SHOW: "hand commitment or opening",
}


def _awaited_step(view: TableGame) -> str:
    """What the game waits for from a stalled seat, in words: by the phase where it names the
    step, else by the chance node the engine describes (so a game's own chance phases need no
    entry here), else an answer."""
    step = _STEP_BY_PHASE.get(view.phase)
    if step is not None:
        return step
    node = view.chance_node()
    if node is None or node.kind not in _STEP_BY_CHANCE:
        return "answer"
    if node.kind == DECK_DRAW and node.public:  # a card every seat opens (a fog tile)
        return f"decryption share of a {node.event} card"
    return _STEP_BY_CHANCE[node.kind]


class Peer:
    """One seat of a game on the TCP mesh (see the module docstring).

    Creating a peer starts a new log at ``log_path`` (it must not exist) with the opening, a
    note ``"peer: KIND"``, and the secrets file beside it; nothing is sent before
    :meth:`run`.

    Args:
        seat: this peer's seat in the opening.
        identity: its identity key (the opening's key for the seat).
        opening: the opening from the lobby.
        chain: its hash chain (committed in the opening).
        game_keys: its X25519 keys (in the opening).
        log_path: the new log file.
        decide: a bot's policy, or None when a person decides through :meth:`submit`.
        on_event: hears every :class:`PeerEvent` (called on the event loop; keep it quick).
        host_address: the address this peer reached the host at (a joiner's), standing for the
            opening's empty host field (None for the host: its own machine).
        listen_host: where the mesh listens ("" is every interface).
        kind: who plays the seat, recorded as the note ``"peer: KIND"`` (``"bot heuristic"``).
        save_identity: keep ``identity`` beside the log as ``LOG.identity.pem`` (mode 0600), so
            ``hexlan resume`` can sign with it again (a bot's fresh key).
        identity_path: the identity file used, recorded in the log for ``hexlan resume``.
        spectators: whether the host seat (seat 0) serves spectators (§17;
            ``--no-spectators`` is False); recorded in the log, so a resumed host keeps it.
        announce: whether the host seat keeps announcing its game on the LAN while it runs
            (§17), recorded likewise.
        spectator_chat: whether the host seat takes spectators' chat lines and passes them on
            (§18; ``--spectator-chat``), recorded likewise.
        clock: a monotonic clock in seconds.

    Raises:
        ValueError: the identity, chain or keys are not the opening's for ``seat``.
        FileExistsError: the log, its secrets file or its identity file already exists.
    """

    def __init__(
        self,
        seat: int,
        identity: Identity,
        opening: Opening,
        chain: HashChain,
        game_keys: GameKeys,
        log_path: str | os.PathLike[str],
        decide: Decide | None = None,
        on_event: Callable[[PeerEvent], None] | None = None,
        *,
        host_address: str | None = None,
        listen_host: str = "",
        kind: str = "human",
        save_identity: bool = False,
        identity_path: str | os.PathLike[str] | None = None,
        spectators: bool = True,
        announce: bool = False,
        spectator_chat: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        session = Session(seat, identity, opening, chain, game_keys, inline_work=False)
        path = Path(log_path)
        game_log = GameLog.create(path, opening.to_payload())
        try:
            save_secrets(
                secrets_path(path),
                SeatSecrets(opening.game_id, seat, chain.secret, game_keys.private_bytes),
            )
            if save_identity:
                create_private(identity_path_for(path), identity.to_pem())
            game_log.append_note(PEER_NOTE + kind)
            if identity_path is not None:
                game_log.append_note(IDENTITY_NOTE + str(Path(identity_path).resolve()))
            if seat == 0 and not spectators:
                game_log.append_note(NO_SPECTATORS_NOTE)
            if seat == 0 and announce:
                game_log.append_note(ANNOUNCE_NOTE)
            if seat == 0 and spectators and spectator_chat:
                game_log.append_note(SPECTATOR_CHAT_NOTE)
        except BaseException:
            game_log.close()
            raise
        self._setup(session, game_log, decide, on_event, host_address, listen_host, clock)
        self.serve_spectators = seat == 0 and spectators
        self.announce_game = seat == 0 and announce
        self.spectator_chat = self.serve_spectators and spectator_chat
        self._started = False

    @classmethod
    def resume(
        cls,
        log_path: str | os.PathLike[str],
        identity_path: str | os.PathLike[str] | None = None,
        decide: Decide | None = None,
        on_event: Callable[[PeerEvent], None] | None = None,
        *,
        host_address: str | None = None,
        listen_host: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> Peer:
        """Rebuild a crashed or closed peer from its log (``hexlan resume``).

        Reads the log and ``LOG.secrets``; the identity comes from ``LOG.identity.pem`` if it
        exists, else ``identity_path``, else the identity file the log names, else the default
        identity. The session replays every logged message (signing nothing), then signs what
        it still owes; :meth:`run` reconnects and catches up from the other seats.

        Raises:
            PeerError: a file is missing or unreadable, or the files do not belong together
                (another game's secrets, an identity that is not the seat's key).
        """
        path = Path(log_path)
        try:
            game_log = GameLog.open_append(path)
        except FileNotFoundError:
            raise PeerError(f"no log at {path}") from None
        except (LogFormatError, OSError) as exc:
            raise PeerError(f"cannot resume from {path}: {exc}") from None
        try:
            contents = game_log.contents
            try:
                opening = Opening.from_payload(contents.opening)
            except RemoteProtocolError as exc:
                raise PeerError(f"{path} has an unreadable opening: {exc.reason}") from None
            try:
                secrets = load_secrets(secrets_path(path))
            except FileNotFoundError:
                raise PeerError(f"no secrets file at {secrets_path(path)}") from None
            except (LogFormatError, OSError) as exc:
                raise PeerError(f"cannot read {secrets_path(path)}: {exc}") from None
            if secrets.game_id != opening.game_id:
                raise PeerError(f"{secrets_path(path)} belongs to another game than {path}")
            if not 0 <= secrets.seat < len(opening.seats):
                raise PeerError(
                    f"{secrets_path(path)} names seat {secrets.seat}, not at this table"
                )
            identity = _resume_identity(
                path, contents, identity_path, opening.seats[secrets.seat].public_key
            )
            try:
                session = Session(
                    secrets.seat,
                    identity,
                    opening,
                    HashChain(secrets.chain_secret),
                    GameKeys.from_private_bytes(secrets.x25519_private),
                    inline_work=False,
                )
            except ValueError as exc:
                raise PeerError(f"cannot resume seat {secrets.seat}: {exc}") from None
            try:
                effects = session.replay(contents.messages)
            except ValueError as exc:
                raise PeerError(f"{path} does not replay: {exc}") from None
            if game_log.torn_tail:
                game_log.append_note(
                    f"resumed: cut off a torn last record ({game_log.truncated_bytes} bytes)"
                )
            game_log.append_note(f"resumed after {len(contents.messages)} messages")
        except BaseException:
            game_log.close()
            raise
        peer = cls.__new__(cls)
        peer._setup(session, game_log, decide, on_event, host_address, listen_host, clock)
        peer._started = True
        if session.seat == 0:
            peer.serve_spectators = NO_SPECTATORS_NOTE not in contents.notes
            peer.announce_game = ANNOUNCE_NOTE in contents.notes
            peer.spectator_chat = peer.serve_spectators and SPECTATOR_CHAT_NOTE in contents.notes
        peer.chat.remember(contents.chats)
        peer._chat_seq = peer.chat.next_seq(peer.seat)
        peer._perform(effects, replayed=True)
        peer.replayed = [e.action for e in effects if isinstance(e, Applied)]
        return peer

    def _setup(
        self,
        session: Session,
        game_log: GameLog,
        decide: Decide | None,
        on_event: Callable[[PeerEvent], None] | None,
        host_address: str | None,
        listen_host: str,
        clock: Callable[[], float],
    ) -> None:
        self.session = session
        self.seat: int = session.seat
        self.opening = session.opening
        self.log = game_log
        self.log_path = game_log.path
        self.decide = decide
        self.on_event = on_event
        self.host_address = host_address
        self.listen_host = listen_host
        self.clock = clock
        self.mesh: Mesh | None = None
        self.names = [s.name for s in self.opening.seats]
        self.bytes_sent = 0
        """Frame bytes written to links (each message counted once per connected seat)."""
        self.messages_sent = 0
        self.syncs = 0
        """Log fsyncs made for messages (one per batch: group commit)."""
        self._written = 0  # message records written to the log
        self._synced = 0  # ... of which known durable
        self._gated: deque[tuple[int, Callable[[], None]]] = deque()
        self._outbox: deque[bytes] = deque()
        self._outbox_ready = asyncio.Event()
        self._dirty = asyncio.Event()
        self._wake = asyncio.Event()
        self._flushing = False
        self._failure: PeerError | None = None
        self._evidence_kept = 0
        self._refused: set[bytes] = set()  # digests of the refusals kept (at most MAX_EVIDENCE)
        self._refused_by: dict[int, int] = {}  # author: distinct refused messages (PeerResult)
        self._last_stall: tuple[int, ...] = ()
        self._last_stall_at = 0.0
        self._last_failure: str | None = None  # the bot's last decision that failed to sign
        self.abandon_after: float | None = None
        self.replayed: list[Action] = []
        """The actions a resumed peer re-applied from its log, in order (a screen narrates
        them so its log panel shows the whole game)."""
        self.delay = 0.0
        """Seconds a bot waits before each decision, so people at the table can follow."""
        """Seconds after which a stall of automatic steps makes this peer sign ``abandon`` for
        the stalled seats by itself (a bot left alone at a table); None: wait forever."""
        self._abandoned_for: tuple[int, ...] = ()
        self._relaying = False  # sent fork proofs after the stop (§11): linger, hear answers
        self._forwarded: set[tuple[int, bytes]] = set()  # (seat, message id) sent on, each once
        self._closed = False
        self._jobs: set[asyncio.Task[None]] = set()
        self._deferred: list[Compute] = []  # jobs that arose before the event loop ran
        self.serve_spectators = False
        """Whether this seat serves spectators (§17): the host's seat does, unless the host
        refuses them (``hexlan host --no-spectators``); from the constructor's
        ``spectators`` or, resumed, the log's note."""
        self.spectator_chat = False
        """Whether the host seat takes spectators' chat lines and passes them on (§18:
        ``--spectator-chat``); from the constructor or, resumed, the log's note."""
        self.announce_game = False
        """Whether a host seat that serves spectators keeps announcing its table on the LAN
        during the game (as full, §10), so spectators can find it (§17); from the
        constructor's ``announce`` or, resumed, the log's note. ``announce_targets`` replaces
        the broadcast addresses (tests)."""
        self.announce_targets: list[str] | None = None
        self._announcer: Any = None
        self.spectators: dict[int, tuple[tuple[str, bytes], ...]] = {}
        """Who watches, by the seat they watch through: ``(name, public_key)`` pairs."""
        self.chat = ChatBook.of(self.opening)
        """The table chat heard (§18): checked, de-duplicated and rate-limited per author."""
        self._chat_seq = 0  # this seat's next chat sequence number
        self._chat_refusals = 0  # refusal notes written (at most MAX_EVIDENCE)
        self.says: deque[str] = deque()
        """Chat lines to say once the game has started and every seat is connected (a bot's
        ``--say``), each once."""
        self.farewell: str | None = None
        """A line to say once the game is won (a bot's ``--good-game``), once."""
        self.routes: dict[int, tuple[str, int]] = {}
        """Dial a seat whose mesh port in the opening is the key at this ``(host, port)``
        instead (a relay or test proxy: ``hexlan bot --route``, scripts/faultnet.py); set
        before :meth:`run`."""

    # ------------------------------------------------------------------ queries

    @property
    def view(self) -> InformationState | None:
        """This seat's information state (None until every seat has signed the opening)."""
        return self.session.view

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    def addresses(self) -> dict[int, tuple[str, int]]:
        """Where each other seat's mesh listens, as ``{seat: (host, port)}``.

        An empty ``host`` in the opening (the host's seat, and a joiner that joined over
        loopback, so on the host's machine: §3) is read as ``host_address``, the address this
        peer reached the host at; the host's own peer, or one resumed without it, reads it as
        :data:`THIS_MACHINE`. A seat whose port is in :attr:`routes` is dialled there instead.
        """
        reached = self.host_address or THIS_MACHINE
        return {
            s: self.routes.get(info.port, (info.host or reached, info.port))
            for s, info in enumerate(self.opening.seats)
            if s != self.seat
        }

    def result(self) -> PeerResult:
        """The game's outcome as this peer sees it now."""
        view = self.session.game
        winner = None
        if view is not None and view.is_over and view.winners():
            winner = int(view.winners()[0])
        stopped = self.session.stopped
        abandoned = self.session.abandoned
        audited = self.session.audited
        audit = None
        if audited is not None:
            deviations = audited.report.deviations
            audit = "passed" if not deviations else deviations[0].reason
        return PeerResult(
            game_id=self.opening.game_id.hex(),
            seat=self.seat,
            winner=winner,
            state_hash=view.public_hash() if view is not None else "",
            log=str(Path(self.log_path).absolute()),
            stopped=None if stopped is None else stopped.reason,
            turns=0 if view is None else int(view.turn),
            abandoned=None if abandoned is None else tuple(abandoned),
            audit=audit,
            refused=dict(self._refused_by),
        )

    # ------------------------------------------------------------------ MeshHandler

    def deliver(self, envelope_bytes: bytes, from_seat: int) -> None:
        """An envelope from the mesh: the session takes it, its effects run at once."""
        if self._closed:
            return
        self._perform(self.session.receive(envelope_bytes, self.clock()))
        self._wake.set()

    def heads(self) -> Sequence[Any]:
        return self.session.heads()

    def missing_for(self, their_heads: Sequence[Any]) -> list[bytes]:
        """What a peer lacks, resent when its link opens; only messages already durable here
        leave (a batch still being synced is synced first)."""
        if self._written > self._synced and not self._closed:
            self.log.sync()
            self.syncs += 1
            self._synced = self._written
            self._release()
        return self.session.missing_for(their_heads)

    # ------------------------------------------------------------------ table chat

    def say(self, text: str) -> None:
        """Sign a chat line and send it to every connected seat (§18); it is heard here as
        from any seat (logged, shown, or refused over a bound). Bounds are checked by whoever
        hears the line, so a line too long or too fast is refused by every seat."""
        frame = sign_chat(
            self.session.identity, self.opening.game_id, self.seat, self._chat_seq, text
        )
        self._chat_seq += 1
        self.hear_chat(self.seat, frame)
        if self.mesh is not None:
            self.mesh.send_chat(frame)

    def hear_chat(self, from_seat: int, frame: bytes) -> None:
        """A chat frame from the link of ``from_seat``: logged and shown once, or refused with
        a note naming its author (the link's seat when the frame names no seat of the game)."""
        if self._closed:
            return
        try:
            line = self.chat.receive(frame, self.clock())
        except ChatRefused as exc:
            self._chat_refused(exc, from_seat)
            return
        if line is not None:
            self._took(line)

    def hear_spectator_chat(self, spectator: Spectator, frame: bytes) -> bytes | None:
        """A line from a spectator this host seat serves (``spectator`` its ``(name,
        public_key)``, §18): when the table lets spectators write and it checks out, relayed
        (signed by this seat) to every seat and spectator, logged and shown; else refused with
        a note naming the spectator. The frame to answer the spectator with: a refusal, or
        None."""
        if self._closed:
            return None
        try:
            if not self.spectator_chat:
                raise ChatRefused(NO_SPECTATOR_CHAT, SPECTATOR, spectator)
            line = self.chat.receive_spectator(frame, spectator, self.clock())
        except ChatRefused as exc:
            self._chat_refused(exc, SPECTATOR, spectator)
            return sign_chat_refusal(
                self.session.identity, self.opening.game_id, line_seq(frame), exc.reason
            )
        if line is None:
            return None
        relay = relay_chat(self.session.identity, frame)
        self._took(replace(line, frame=relay))  # logged before it leaves, as a seat's own
        if self.mesh is not None:
            self.mesh.send_chat(relay)
        return None

    def _chat_refused(
        self, exc: ChatRefused, from_seat: int, spectator: Spectator | None = None
    ) -> None:
        """Note (at most :data:`MAX_EVIDENCE` times) and show a refused line, naming its
        author: the seat or spectator it names, else the one it came from (``from_seat``, or
        :data:`~hexlan.net.chat.SPECTATOR` and ``spectator``)."""
        author = from_seat if exc.author is None else exc.author
        who = exc.spectator or spectator
        words = spectator_words(who) if author == SPECTATOR and who else self._who(author)
        text = f"chat from {words} refused: {exc.reason}"
        if self._chat_refusals < MAX_EVIDENCE:
            self._chat_refusals += 1
            self.log.append_note(text)
        self._emit("chat_refused", text, author=author)

    def _took(self, line: ChatLine) -> None:
        """Log, pass on to the spectators and show a line taken."""
        self.log.append_chat(line.frame)
        if self.serve_spectators:  # spectators read the chat through the host's seat (§18)
            self._to_spectators(line.frame)
        name = self.names[line.author] if line.spectator is None else line.spectator[0]
        self._emit("chat", safe_text(f"{name}: {line.text}"), author=line.author)

    def _say_pending(self) -> None:
        """Say the queued lines once the game has started and every seat is connected."""
        mesh = self.mesh
        if self.session.view is None or mesh is None:
            return
        if mesh.connected_seats() < set(range(len(self.opening.seats))) - {self.seat}:
            return
        while self.says:
            self.say(self.says.popleft())

    # ------------------------------------------------------------------ SpectatorFeed

    def welcome(self, their_heads: Sequence[Any]) -> list[bytes]:
        """A new spectator's first envelopes (§17): the opening, as a ``start`` this seat
        signs, then every durable message it lacks."""
        opening = sign_body(
            Body(
                PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "start", (self.opening.to_payload(),)
            ),
            self.session.identity,
        ).to_bytes()
        return [opening, *self.missing_for(their_heads)]

    def catch_up(self, their_heads: Sequence[Any]) -> list[bytes]:
        """What a spectator lacks, given its heads (its ``catch_up``)."""
        return self.missing_for(their_heads)

    def _to_spectators(self, envelope: bytes) -> None:
        if self.mesh is not None:
            self.mesh.send_spectators(envelope)

    def _spectators_changed(self, seat: int, spectators: tuple[tuple[str, bytes], ...]) -> None:
        self.spectators[seat] = spectators
        names = ", ".join(name for name, _ in spectators) or "nobody"
        self._emit("spectators", f"watching through {self._who(seat)}: {names}", author=seat)

    # ------------------------------------------------------------------ decisions

    def submit(self, action: Action) -> None:
        """This seat's decision (a person's, through the screen): signed, logged, sent.

        An unexpected failure of the session's submit (a bug) is reported as an ``"error"``
        event and a line of the game log (:meth:`_own_failure`) and refused like an illegal
        action: the peer and the game go on, and the screen shows one line, no traceback.

        Raises:
            IllegalActionError: the action is not legal for this seat now, or the session
                failed to sign it (the one-line reason); nothing was sent.
        """
        try:
            effects = self.session.submit(action, self.clock())
        except IllegalActionError:
            raise
        except Exception as exc:
            raise IllegalActionError(self._own_failure(action, exc)) from None
        self._signed(action, effects)
        self._perform(effects)
        self._wake.set()

    def abandon(self, missing: Sequence[int]) -> None:
        """Sign that the game ends as abandoned by the stalled seats ``missing`` (§11); it ends
        when every other seat has signed the same (then :meth:`run` returns).

        Raises:
            IllegalActionError: the game is over, or ``missing`` names this seat or no seat.
        """
        self._perform(self.session.abandon(missing, self.clock()))
        self._wake.set()

    def _own_failure(self, action: Action, exc: Exception, *, report: bool = True) -> str:
        """The one line saying that the session failed to sign this seat's ``action`` with
        ``exc`` (a bug, not an illegal action); with ``report``, also told as an ``"error"``
        event, a note of the game log and a warning of the logger (the traceback only at debug
        level)."""
        why = " ".join(f"{type(exc).__name__}: {exc}".split())
        text = f"{self._who(self.seat)} could not sign its decision {action}: {why}"
        if report:
            log.warning("%s", text)
            log.debug("the failed decision's traceback", exc_info=exc)
            with contextlib.suppress(Exception):  # a log that takes no note: the event stands
                self.log.append_note(f"error: {text}")
            self._emit("error", text, action=action, author=self.seat)
        return text

    def _signed(self, action: Action, effects: list[Effect]) -> None:
        if self.on_event is None:
            return
        for effect in effects:
            if isinstance(effect, Persist):
                body_bytes = unpack(effect.envelope)[0]  # type: ignore[index]
                self._emit(
                    "signed",
                    f"seat {self.seat} ({self.names[self.seat]}) decided {action}",
                    action=action,
                    author=self.seat,
                    message_id=message_id(body_bytes),
                )
                return

    # ------------------------------------------------------------------ effects

    def _perform(self, effects: list[Effect], *, replayed: bool = False) -> None:
        """Carry out effects in order.

        Group commit: a Persist is written at once (it survives the process being killed) and
        synced with the rest of its batch; a Send waits until every message logged before it
        is durable, so nothing leaves before it is on disk (principle 5), and one fsync covers
        all that arrived meanwhile. The screen hears applied actions at once: a crash before
        the sync loses only what the other seats resend.
        """
        for effect in effects:
            if isinstance(effect, Persist):
                self.log.append_message(effect.envelope, sync=False)
                self._written += 1
                if self.serve_spectators:  # durable first, as for the seats (§17)
                    self._after_sync(partial(self._to_spectators, effect.envelope))
            elif isinstance(effect, Send):
                if self.session.stopped is not None:
                    self._relaying = True  # fork proofs: stay on the mesh until they are out
                self._after_sync(partial(self._queue_send, effect.envelope))
            elif isinstance(effect, Applied):
                if self.on_event is not None:
                    who = "chance" if effect.author is None else self._who(effect.author)
                    self._emit(
                        "applied",
                        f"{who}: {effect.action}",
                        action=effect.action,
                        author=effect.author,
                        message_id=effect.message_id,
                        replayed=replayed,
                    )
            elif isinstance(effect, Rejected):
                if not self._first_refusal(effect):
                    continue  # the same message refused again (a resend): kept and told once
                if effect.author is not None:
                    self._refused_by[effect.author] = self._refused_by.get(effect.author, 0) + 1
                self._keep_evidence(effect.reason, (effect.envelope,))
                who = "a peer" if effect.author is None else self._who(effect.author)
                self._emit("rejected", f"refused a message from {who}: {effect.reason}")
            elif isinstance(effect, Abandoned):
                seats = ", ".join(self._who(s) for s in effect.missing)
                if not replayed:
                    self.log.append_note(f"abandoned: every other seat signed that {seats} left")
                self._emit("abandoned", f"the game ends as abandoned by {seats}")
                self._wake.set()
            elif isinstance(effect, Compute):
                self._start_job(effect)
            elif isinstance(effect, Audited):
                self._report_audit(effect, replayed)
            elif isinstance(effect, Stopped):
                if not replayed:
                    self._keep_stop_evidence(effect)
                who = "" if effect.author is None else f" ({self._who(effect.author)})"
                self._emit("stopped", f"the game stopped{who}: {effect.reason}")
                self._wake.set()
        if self._written > self._synced:
            if self._flushing:
                self._dirty.set()
            else:  # not running (yet): sync here
                self._sync_now()

    def _start_job(self, compute: Compute) -> None:
        """Run proof work in a worker thread (libsodium releases the GIL), so the event loop,
        the mesh and the screen stay live; its result goes back to the session on the loop.
        Outside the loop (a resume replaying its log) the job waits for :meth:`run`."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._deferred.append(compute)
            return
        task = loop.create_task(self._job(compute), name=compute.key)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _job(self, compute: Compute) -> None:
        try:
            result = await asyncio.to_thread(compute.job)
        except Exception as exc:  # a bug in proof work: end this peer's run with the reason
            log.exception("proof work %s failed", compute.key)
            self._failure = PeerError(f"proof work {compute.key} failed: {exc}")
            self._wake.set()
            return
        if not self._closed:
            self._perform(self.session.computed(compute.key, result, self.clock()))
            self._wake.set()

    def _report_audit(self, audited: Audited, replayed: bool) -> None:
        deviations = audited.report.deviations
        if not deviations:
            text = "the audit passed: every shuffle, share, steal and hand checks out"
        else:
            text = "the audit found: " + "; ".join(d.reason for d in deviations)
        if audited.disagreeing:
            seats = ", ".join(self._who(s) for s in audited.disagreeing)
            text += f" (signed otherwise by {seats})"
        elif not replayed:
            text += ", signed by every seat"
        if not replayed:
            self.log.append_note(f"audit: {text}")
        self._emit("audit", text)
        self._wake.set()

    def _after_sync(self, step: Callable[[], None]) -> None:
        """Run ``step`` once every message logged so far is durable, after earlier steps."""
        if self._gated or self._written > self._synced:
            self._gated.append((self._written, step))
        else:
            step()

    def _release(self) -> None:
        while self._gated and self._gated[0][0] <= self._synced:
            self._gated.popleft()[1]()

    def _sync_now(self) -> None:
        if self._written > self._synced:
            self.log.sync()
            self.syncs += 1
            self._synced = self._written
        self._release()

    def _queue_send(self, envelope: bytes) -> None:
        self._outbox.append(envelope)
        self._outbox_ready.set()

    async def _flush_loop(self) -> None:
        """Sync the log in a worker thread whenever messages were written, then release what
        waited for them (one fsync per batch, and the event loop never waits on the disk)."""
        loop = asyncio.get_running_loop()
        while self._flushing or self._written > self._synced:
            await self._dirty.wait()
            self._dirty.clear()
            target = self._written
            if target > self._synced:
                try:
                    await loop.run_in_executor(None, self.log.sync)
                except (OSError, ValueError) as exc:
                    self._failure = PeerError(f"cannot write the log {self.log_path}: {exc}")
                    self._wake.set()
                    return
                self.syncs += 1
                self._synced = max(self._synced, target)
            self._release()

    def _first_refusal(self, rejected: Rejected) -> bool:
        """Whether this peer has not refused these very bytes for this reason before in this
        run. Links resend byte for byte (§8) and a stall resends what a seat lacks, so a
        refused message comes back again and again: kept each time, one message resent at every
        stall would spend the whole evidence budget. As many refusals are remembered as kept."""
        digest = hashlib.sha256(rejected.reason.encode() + b"\0" + rejected.envelope).digest()
        if digest in self._refused:
            return False
        if len(self._refused) < MAX_EVIDENCE:
            self._refused.add(digest)
        return True

    def _keep_evidence(self, reason: str, envelopes: Sequence[bytes]) -> None:
        for envelope in envelopes:
            if self._evidence_kept >= MAX_EVIDENCE:
                return
            self._evidence_kept += 1
            try:
                self.log.append_evidence(reason, envelope)
            except ValueError:  # larger than a record: keep the reason only
                self.log.append_note(f"evidence too large to keep: {reason}")

    def _keep_stop_evidence(self, stopped: Stopped) -> None:
        evidence = stopped.evidence
        if len(evidence) == 2:
            try:
                a, b = (Envelope.parse(e).body for e in evidence)
            except RemoteProtocolError:
                pass
            else:
                if (a.author, a.seq) == (b.author, b.seq):
                    self.log.append_equivocation(evidence[0], evidence[1])
                    self.log.append_note(f"stopped: {stopped.reason}")
                    return
        self.log.append_note(f"stopped: {stopped.reason}")
        self._keep_evidence(stopped.reason, evidence)

    def _who(self, seat: int) -> str:
        name = self.names[seat] if 0 <= seat < len(self.names) else "?"
        return f"seat {seat} ({name})"

    def _emit(self, kind: str, text: str, **fields: Any) -> None:
        if self.on_event is None:
            return
        try:
            self.on_event(PeerEvent(kind, text, self.clock(), **fields))
        except Exception:  # a screen's bug must not take the game down
            log.exception("on_event failed")

    # ------------------------------------------------------------------ running

    async def run(self) -> PeerResult:
        """Join the mesh and play until the game is over (won or stopped).

        Returns the result once the game ends; after a win or an abandonment the peer sends
        each seat what its latest message shows it lacks (:meth:`_anti_entropy`) and stays
        :data:`LINGER` seconds on the mesh, so its last messages reach every seat; after a
        stop, until what it signed before the stop has left (at most :data:`LINGER` seconds: a
        thief's ``steal_dispute`` must still reach the others).

        Raises:
            PeerError: the game's port cannot be bound, or the bot chose an illegal action.
        """
        port = self.opening.seats[self.seat].port
        keys = {s: info.public_key for s, info in enumerate(self.opening.seats)}
        self._wake = asyncio.Event()
        self._outbox_ready = asyncio.Event()
        self._dirty = asyncio.Event()
        if self._outbox:
            self._outbox_ready.set()
        mesh = Mesh(
            self.seat,
            self.session.identity,
            self.opening.game_id,
            keys,
            self.listen_host,
            port,
            self.addresses(),
            self,
            on_link_event=self._link_event,
            spectators=self if self.serve_spectators else None,
            refusal=NO_SPECTATORS if self.seat == 0 else SPECTATE_THE_HOST,
            on_spectators=self._spectators_changed,
            on_chat=self.hear_chat,
            on_spectator_chat=self.hear_spectator_chat,
        )
        try:
            await mesh.start()
        except OSError as exc:
            self.close()
            raise PeerError(
                f"cannot listen on port {port} for the game: {exc.strerror or exc}"
            ) from None
        self.mesh = mesh
        if self.announce_game and self.serve_spectators:
            self._announcer = await self._start_announcer()
        loop = asyncio.get_running_loop()
        self._flushing = True
        flusher = loop.create_task(self._flush_loop(), name="hexlan-log-sync")
        sender = loop.create_task(self._send_loop(), name="hexlan-send")
        try:
            if not self._started:
                self._started = True
                self._perform(self.session.start(self.clock()))
            deferred, self._deferred = self._deferred, []
            for compute in deferred:
                self._start_job(compute)
            await self._play()
            if self.session.stopped is None:
                # won or abandoned: once what it signed is durable and out, send each seat what
                # its latest message shows it lacks (a message whose author is gone may be held
                # here alone, and another seat's last vote wait on it), then make sure all
                # have heard
                await self._drain(LINGER)
                await self._anti_entropy()
                await asyncio.sleep(LINGER)
            elif self._relaying:
                # stopped over a fork: let the bodies relayed reach every seat, and a seat's
                # proof in answer reach this one
                await asyncio.sleep(LINGER)
            else:  # what it signed before the stop still leaves (a thief's steal_dispute)
                await self._drain(LINGER)
            return self.result()
        finally:
            self._flushing = False
            self._dirty.set()
            with contextlib.suppress(Exception):
                await asyncio.shield(flusher)  # never close the log under a running fsync
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            await mesh.close()
            if self._announcer is not None:
                with contextlib.suppress(Exception):
                    await self._announcer.stop()
            self.close()
            if self.session.stopped is None and self.session.is_over:
                self._emit("over", self._over_text())

    async def _start_announcer(self) -> Any:
        """An :class:`~hexlan.net.discovery.Announcer` of the running game's table (full), or
        None when it cannot run (discovery is a convenience)."""
        from hexlan.net.discovery import Announcer, TableAnnouncement  # noqa: PLC0415

        seats = len(self.opening.seats)
        table = TableAnnouncement(
            self.names[0],
            self.opening.seats[self.seat].port,
            seats,
            seats,
            self.session.identity.fingerprint,
            game=self.opening.game,
        )
        try:
            announcer = Announcer(table, targets=self.announce_targets)
            await announcer.start()
        except Exception as exc:
            log.warning("cannot announce the game on the LAN: %s", exc)
            return None
        return announcer

    async def _drain(self, limit: float) -> None:
        """Wait, at most ``limit`` seconds, until every message logged is synced and handed to
        the mesh."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while self._written > self._synced or self._gated or self._outbox:
            if self._failure is not None or loop.time() >= deadline:
                return
            self._dirty.set()
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last broadcast's writes

    def close(self) -> None:
        """Close the log (every record is already durable). Closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(ValueError, OSError):
            self._sync_now()
        self.log.close()

    def _is_won(self) -> bool:
        """Whether the game has a winner (not abandoned, not stopped)."""
        view = self.session.game
        return (
            view is not None
            and view.is_over
            and bool(view.winners())
            and self.session.stopped is None
            and self.session.abandoned is None
        )

    def _over_text(self) -> str:
        result = self.result()
        if result.abandoned is not None:
            return "the game is over: abandoned"
        if result.winner is None:
            return "the game is over"
        return f"the game is over: {self._who(result.winner)} wins"

    async def _play(self) -> None:
        next_tick = self.clock() + TICK
        while not self.session.done:
            if self._failure is not None:
                raise self._failure
            if self.farewell is not None and self._is_won():
                self.says.append(self.farewell)
                self.farewell = None
            if self.says:
                self._say_pending()
            if self.decide is not None and self.session.decision_due():
                if self.delay > 0:
                    await asyncio.sleep(self.delay)
                    if not self.session.decision_due():  # the game moved on meanwhile
                        continue
                action = await self._think()
                if action is None:  # the game moved on while the bot thought
                    continue
                try:
                    effects = self.session.submit(action, self.clock())
                except IllegalActionError as exc:
                    raise PeerError(f"the bot chose {action}, which is not legal: {exc}") from None
                except Exception as exc:  # a bug in signing: report it, and the bot decides again
                    text = self._own_failure(action, exc, report=False)
                    if text != self._last_failure:  # told once while the same failure repeats
                        self._own_failure(action, exc)
                        self._last_failure = text
                    await asyncio.sleep(TICK)  # no busy loop if it fails again
                    continue
                self._last_failure = None
                self._signed(action, effects)
                self._perform(effects)
                await asyncio.sleep(0)  # let the mesh read and write between decisions
                continue
            wait = next_tick - self.clock()
            if wait <= 0:
                await self._anti_entropy(everything=self._tick())
                next_tick = self.clock() + TICK
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    async def _think(self) -> Action | None:
        """The bot's decision, made in a worker thread on a copy of the seat's view, so that a
        bot thinking for a second never holds up the mesh; None when a message was applied
        meanwhile (the decision may be stale: the loop asks again)."""
        session = self.session
        view = session.game
        assert view is not None and self.decide is not None
        before = (id(view), tuple(session.applied))
        action = await asyncio.to_thread(self.decide, view.copy(), self.seat)
        if (id(session.game), tuple(session.applied)) != before or not session.decision_due():
            return None
        return action

    def _stalled(self, now: float) -> tuple[int, ...]:
        """Seats the game has waited on for :data:`AUTOMATIC_TIMEOUT` seconds: those owing an
        automatic step (``Session.tick``), and those owing a decision while not connected (a
        decision never times out, but a seat that is gone cannot make it)."""
        stalled = set(self.session.tick(now))
        view = self.session.game
        mesh = self.mesh
        if (
            view is not None
            and mesh is not None
            and not self.session.done
            and now - self.session.last_progress >= AUTOMATIC_TIMEOUT
        ):
            connected = mesh.connected_seats()
            stalled.update(s for s in view.acting_seats() if s != self.seat and s not in connected)
        return tuple(sorted(stalled))

    def _tick(self) -> bool:
        """Report a stall (at most every :data:`STALL_REPEAT` seconds), and abandon the game
        after :attr:`abandon_after`; whether a stall was reported. It signs again when the
        stalled seats change, or when its own vote no longer stands (§11: the vote crossed a
        message that another seat held, say a dead seat's torn last one, and is void).

        It votes only on a stall it has already reported, at least :data:`STALL_REPEAT`
        seconds before (§11): each report resends everything (:meth:`_anti_entropy`), so a
        dead seat's last message that reached only some seats has reached every live one
        before any of them votes, and no live seat votes out another that only waits on it."""
        now = self.clock()
        stalled = self._stalled(now)
        if not stalled:
            if self._last_stall:
                self._emit("stall", "the game moves on again")
            self._last_stall = ()
            return False
        if stalled == self._last_stall and now - self._last_stall_at < STALL_REPEAT:
            return False
        stalled_for = now - self.session.last_progress
        if (
            self.abandon_after is not None
            and stalled_for >= self.abandon_after
            and stalled == self._last_stall  # reported, and everything resent, a while ago
            and (stalled != self._abandoned_for or self.session.vote_void())
        ):
            self._abandoned_for = stalled
            who = ", ".join(self._who(s) for s in stalled)
            self._emit("stall", f"giving up on {who}", author=stalled[0])
            try:
                self.abandon(stalled)
            except IllegalActionError as exc:
                self._emit("stall", f"cannot abandon the game: {exc}", author=stalled[0])
                self._last_stall, self._last_stall_at = stalled, now  # try again after a while
            return True
        self._last_stall, self._last_stall_at = stalled, now
        view = self.session.game
        step = "answer" if view is None else _awaited_step(view)
        if view is None:
            step = "opening signature, deck key, shuffle or reveal"
        seconds = int(now - self.session.last_progress)
        connected = self.mesh.connected_seats() if self.mesh is not None else set()
        invalid = {
            o.seat: o for o in self.session.owed_steps() if o.step in (BROKEN_CHAIN, FALSE_HEAD)
        }
        for seat in stalled:
            link = "" if seat in connected else " (not connected)"
            if seat in invalid:
                number = invalid[seat].number
                why = (
                    "breaks its hash chain"
                    if invalid[seat].step == BROKEN_CHAIN
                    else "lists another seat's message that no seat has shown"
                )
                text = (
                    f"waiting for {self._who(seat)}: seat {seat}'s message {number} {why}; "
                    f"no valid one for {seconds} s{link}"
                )
            else:
                text = f"waiting for {self._who(seat)}: no {step} for {seconds} s{link}"
            self._emit("stall", text, author=seat)
        return True

    async def _anti_entropy(self, *, everything: bool = True) -> None:
        """Send each connected seat the messages of *other* seats that its latest message
        shows it lacks: with ``everything``, all of them (during a stall, and once the game is
        over); else (every tick) those whose author is not connected here, each message once.

        The mesh resends only when a link (re)opens, so a message its author sent to some
        seats just before it died would otherwise never reach the rest: a seat whose own
        messages list it could then never be accepted there (an abandonment, for one, would
        never complete). Such a message is sent on at once, not at this seat's own stall: the
        seat that lacks it holds every later message of this one (they list it), so it may
        stall first and sign this seat out for an ``advance`` it never got, while this seat,
        hearing its vote, makes progress and never stalls. And the seat whose vote completes an
        abandonment has no stall left to resend in: it resends on its way out (:meth:`run`).
        Duplicates are ignored by the receiver; only durable messages leave.
        """
        mesh = self.mesh
        if mesh is None or self._written > self._synced:
            return
        accepted = self.session.accepted
        connected = mesh.connected_seats()
        for seat in sorted(connected):
            theirs = accepted[seat][-1].body.heads if accepted[seat] else ()
            for author, messages in enumerate(accepted):
                if author == seat:
                    continue
                if not everything and (author == self.seat or author in connected):
                    continue
                have = theirs[author][0] if len(theirs) == len(accepted) else -1
                for env in messages[have + 1 :]:
                    if not everything and (seat, env.id) in self._forwarded:
                        continue
                    if await mesh.send_to(seat, env.to_bytes()) and not everything:
                        self._forwarded.add((seat, env.id))

    async def _send_loop(self) -> None:
        while True:
            while self._outbox:
                data = self._outbox.popleft()
                mesh = self.mesh
                if mesh is None:
                    continue
                self.messages_sent += 1
                self.bytes_sent += (len(data) + 4) * len(mesh.connected_seats())
                await mesh.broadcast(data)
            self._outbox_ready.clear()
            await self._outbox_ready.wait()

    def _link_event(self, seat: int | None, text: str) -> None:
        who = "an unknown caller" if seat is None else self._who(seat)
        self._emit("link", f"{who}: {text}", author=seat)


def _resume_identity(
    path: Path,
    contents: LogContents,
    identity_path: str | os.PathLike[str] | None,
    seat_key: bytes,
) -> Identity:
    """The identity to resume with: the first of ``LOG.identity.pem``, ``identity_path``, the
    file the log names and the default identity that holds the seat's key (see
    :meth:`Peer.resume`)."""
    candidates: list[Path] = [identity_path_for(path)]
    if identity_path is not None:
        candidates.append(Path(identity_path))
    candidates += [
        Path(note[len(IDENTITY_NOTE) :])
        for note in contents.notes
        if note.startswith(IDENTITY_NOTE)
    ]
    candidates.append(default_identity_path())
    tried = []
    for candidate in candidates:
        try:
            data = candidate.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise PeerError(f"cannot read the identity file {candidate}: {exc}") from None
        try:
            identity = Identity.from_pem(data, source=f"identity file {str(candidate)!r}")
        except IdentityError as exc:
            raise PeerError(str(exc)) from None
        if identity.public_bytes == seat_key:
            return identity
        tried.append(f"{candidate} ({identity.fingerprint})")
    wanted = fingerprint(seat_key)
    if tried:
        raise PeerError(
            f"no identity with this seat's key {wanted}: tried {', '.join(tried)}; "
            "pass the right one with --identity"
        )
    raise PeerError(
        f"no identity to sign with: no {identity_path_for(path)} and no {candidates[-1]}; "
        "pass one with --identity"
    )


def read_peer_kind(log_path: str | os.PathLike[str]) -> str:
    """:func:`peer_kind` of the log at ``log_path``.

    Raises:
        PeerError: the log cannot be read.
    """
    try:
        return peer_kind(read_log(log_path))
    except FileNotFoundError:
        raise PeerError(f"no log at {log_path}") from None
    except (LogFormatError, OSError) as exc:
        raise PeerError(f"cannot read {log_path}: {exc}") from None
