"""Table chat: signed lines that travel beside the game and never enter it (docs/PROTOCOL.md §18).

A chat line is a frame of its own on the mesh links, not an envelope: it is in no seat's hash
chain, never waits in the order rule and never changes a state hash, so a game without chat has
the same game bytes as before chat existed. A chat frame is the msgpack array
``["chat", body, signature]`` where ``body`` is the msgpack encoding of
``[version, game_id, author, chat_seq, text]`` and ``signature`` is the author's Ed25519
signature of :data:`CHAT_PREFIX` ``|| body`` under its identity key (the opening's key for the
seat). An envelope is a 2-array, so the first byte tells the two apart.

A spectator writes only where the host allows it (``--spectator-chat``): its line is a
``["spectator_chat", body, signature]`` frame signed by its own key (:func:`sign_spectator_chat`),
sent to the host seat, which checks it and passes it on as a ``["chat_relay", line, signature]``
frame it signs (:func:`relay_chat`); a line the host does not take is answered with a
``["chat_refused", body, signature]`` frame (:func:`sign_chat_refusal`), in words.

Sans-IO: :func:`sign_chat` makes a frame, :class:`ChatBook` checks, de-duplicates and rate
limits the frames a peer hears (clock passed in), :func:`safe_text` makes a line safe for a
terminal. The shells (:mod:`hexlan.net.peer`, the screens) log and show what it accepts.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from hexlan.net.identity import Identity, fingerprint
from hexlan.net.wire import PROTOCOL_VERSION, Opening

__all__ = [
    "CHAT_PREFIX",
    "CHAT_TAG",
    "GOOD_GAME",
    "MAX_CHAT_FRAME",
    "MAX_CHAT_TEXT",
    "MAX_RELAY_FRAME",
    "NO_SPECTATOR_CHAT",
    "RATE_BURST",
    "RATE_WINDOW",
    "REFUSED_PREFIX",
    "REFUSED_TAG",
    "RELAY_PREFIX",
    "RELAY_TAG",
    "SPECTATOR",
    "SPECTATOR_PREFIX",
    "SPECTATOR_TAG",
    "ChatBook",
    "ChatLine",
    "ChatRefused",
    "Spectator",
    "TableChat",
    "is_chat_frame",
    "is_chat_refusal",
    "line_seq",
    "parse_chat",
    "parse_chat_refusal",
    "parse_spectator_chat",
    "relay_chat",
    "safe_text",
    "sign_chat",
    "sign_chat_refusal",
    "sign_spectator_chat",
    "spectator_words",
]

CHAT_PREFIX: Final = b"hexlan/v1/chat\0"
"""Domain separation for chat signatures: ``CHAT_PREFIX || body``."""
CHAT_TAG: Final = "chat"
MAX_CHAT_TEXT: Final = 200
"""The longest chat line, in characters."""
MAX_CHAT_FRAME: Final = 1024
"""The largest chat frame, in bytes."""
RATE_BURST: Final = 5
RATE_WINDOW: Final = 10.0
"""At most :data:`RATE_BURST` lines per :data:`RATE_WINDOW` seconds per author (a token bucket
of 5 that refills one token every 2 s)."""
SPECTATOR: Final = -1
"""The author of a spectator's line (a spectator has no seat; §17's lobby kinds' author)."""
SPECTATOR_TAG: Final = "spectator_chat"
SPECTATOR_PREFIX: Final = b"hexlan/v1/spectator-chat\0"
"""Domain separation for a spectator's line: its key signs ``SPECTATOR_PREFIX || body``."""
RELAY_TAG: Final = "chat_relay"
RELAY_PREFIX: Final = b"hexlan/v1/chat-relay\0"
"""Domain separation for the host's relay: seat 0 signs ``RELAY_PREFIX || line frame``."""
REFUSED_TAG: Final = "chat_refused"
REFUSED_PREFIX: Final = b"hexlan/v1/chat-refused\0"
"""Domain separation for the host's refusal of a spectator's line."""
MAX_RELAY_FRAME: Final = MAX_CHAT_FRAME + 128
"""The largest relay frame, in bytes: a spectator's line (at most :data:`MAX_CHAT_FRAME`) and
the host's signature."""
NO_SPECTATOR_CHAT: Final = "this table does not let spectators write in the chat"
"""The host's refusal of a spectator's line at a table without ``--spectator-chat``."""
GOOD_GAME: Final = "good game"
"""What a bot says once the game is won (``hexlan bot --good-game``)."""

Spectator = tuple[str, bytes]
"""A spectator as a line names it: its ``(name, public_key)``."""

_FRAME_HEADS: Final = tuple(
    b"\x93" + bytes(msgpack.packb(tag)) for tag in (CHAT_TAG, SPECTATOR_TAG, RELAY_TAG, REFUSED_TAG)
)  # msgpack: a 3-array whose first item is one of the chat tags
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRefused(ValueError):
    """A chat frame this peer does not take; ``author`` is its seat when it is known
    (:data:`SPECTATOR` for a spectator's line, then ``spectator`` names it)."""

    def __init__(
        self, reason: str, author: int | None = None, spectator: Spectator | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.author = author
        self.spectator = spectator


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One accepted chat line: its ``author`` seat (:data:`SPECTATOR` for a spectator's, then
    ``spectator`` is its ``(name, public_key)``), ``seq`` (per author), ``text`` exactly as
    signed (show it through :func:`safe_text`), and its ``frame`` bytes as received (a
    spectator's line as the host relayed it)."""

    author: int
    seq: int
    text: str
    frame: bytes
    spectator: Spectator | None = None

    @property
    def who(self) -> int | bytes:
        """Whose line it is for de-duplication and the rate: the seat, or the spectator's
        key."""
        return self.author if self.spectator is None else self.spectator[1]


def spectator_words(spectator: Spectator) -> str:
    """A spectator as a note names it: ``spectator Eve (630d-cd29-66c4-3366)``."""
    name, key = spectator  # a spectator's own name: made safe like its lines
    return f"spectator {safe_text(name)} ({fingerprint(key)})"


def is_chat_frame(frame: bytes) -> bool:
    """Whether a mesh frame's body is a chat frame (a line, a relay or a refusal), not an
    envelope."""
    return frame.startswith(_FRAME_HEADS)


def _pack(value: object) -> bytes:
    return bytes(msgpack.packb(value, use_bin_type=True))


def sign_chat(identity: Identity, game_id: bytes, author: int, seq: int, text: str) -> bytes:
    """The chat frame ``["chat", body, signature]`` of one line, signed by ``identity``.

    It checks no bound: the receivers do (:class:`ChatBook`), so a test can send a line that
    is too long.
    """
    body = _pack([PROTOCOL_VERSION, game_id, author, seq, text])
    return _pack([CHAT_TAG, body, identity.sign(CHAT_PREFIX + body)])


def sign_spectator_chat(
    identity: Identity, game_id: bytes, name: str, seq: int, text: str
) -> bytes:
    """A spectator's chat frame ``["spectator_chat", body, signature]`` of one line: ``body``
    is ``[version, game_id, -1, seq, text, name, public_key]``, signed by the spectator's own
    ``identity``. It checks no bound (the host does)."""
    body = _pack([PROTOCOL_VERSION, game_id, SPECTATOR, seq, text, name, identity.public_bytes])
    return _pack([SPECTATOR_TAG, body, identity.sign(SPECTATOR_PREFIX + body)])


def relay_chat(host: Identity, line: bytes) -> bytes:
    """The host seat's relay ``["chat_relay", line, signature]`` of a spectator's line frame it
    took, signed by the host seat's key (§18)."""
    return _pack([RELAY_TAG, line, host.sign(RELAY_PREFIX + line)])


def sign_chat_refusal(host: Identity, game_id: bytes, seq: int, reason: str) -> bytes:
    """The host seat's answer ``["chat_refused", body, signature]`` to a spectator's line it
    did not take: ``body`` is ``[version, game_id, seq, reason]`` (``seq`` the line's, -1 when
    it could not be read), signed by the host seat's key."""
    body = _pack([PROTOCOL_VERSION, game_id, seq, reason[:MAX_CHAT_TEXT]])
    return _pack([REFUSED_TAG, body, host.sign(REFUSED_PREFIX + body)])


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, max_map_len=0, max_ext_len=0)


def _outer(frame: bytes, tag: str, limit: int) -> tuple[bytes, bytes]:
    """The ``(body, signature)`` of a 3-array frame tagged ``tag``, at most ``limit`` bytes.

    Raises:
        ChatRefused: larger, malformed, or another tag.
    """
    if len(frame) > limit:
        raise ChatRefused(f"a chat frame of {len(frame)} bytes (at most {limit})")
    try:
        got, body, signature = _unpack(frame)
    except (ValueError, TypeError, msgpack.UnpackException):
        raise ChatRefused("a malformed chat frame") from None
    if got != tag or not isinstance(body, bytes) or not isinstance(signature, bytes):
        raise ChatRefused("a malformed chat frame")
    return body, signature


def _verify(key: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def parse_spectator_chat(
    frame: bytes, game_id: bytes, spectator: Spectator | None = None
) -> ChatLine:
    """Check a spectator's line frame (:func:`sign_spectator_chat`) and return its line
    (author :data:`SPECTATOR`).

    Args:
        frame: the frame's bytes as received.
        game_id: this game's id.
        spectator: the ``(name, public_key)`` of the spectator whose connection it came on (the
            host's check), or None to take the ones it carries (a relay's reader).

    Raises:
        ChatRefused: larger than :data:`MAX_CHAT_FRAME`, malformed, of another version or game,
            not the connection's spectator, not signed by the key it carries (a weak or bad
            key included), or its text longer than :data:`MAX_CHAT_TEXT` (§18).
    """
    body, signature = _outer(frame, SPECTATOR_TAG, MAX_CHAT_FRAME)
    try:
        version, game, author, seq, text, name, key = _unpack(body)
    except (ValueError, TypeError, msgpack.UnpackException):
        raise ChatRefused("a malformed chat frame") from None
    shapes = (int, bytes, int, int, str, str, bytes)
    values = (version, game, author, seq, text, name, key)
    if not all(isinstance(v, t) for v, t in zip(values, shapes, strict=True)) or len(key) != 32:
        raise ChatRefused("a spectator's chat body of the wrong shape", spectator=spectator)
    who = (name, key) if spectator is None else spectator
    if author != SPECTATOR or (spectator is not None and (name, key) != spectator):
        raise ChatRefused("a spectator's line that names another author", SPECTATOR, who)
    if version != PROTOCOL_VERSION or game != game_id:
        raise ChatRefused("a chat line of another game or protocol version", SPECTATOR, who)
    if not 1 <= len(name) <= 32:
        raise ChatRefused("a spectator's name of 1..32 characters", SPECTATOR, who)
    if not _verify(key, signature, SPECTATOR_PREFIX + body):
        raise ChatRefused("a spectator's line not signed by the key it carries", SPECTATOR, who)
    if len(text) > MAX_CHAT_TEXT:
        raise ChatRefused(
            f"a chat line of {len(text)} characters (at most {MAX_CHAT_TEXT})", SPECTATOR, who
        )
    return ChatLine(SPECTATOR, seq, text, frame, who)


def _relayed(frame: bytes, game_id: bytes, seat_keys: Mapping[int, bytes]) -> ChatLine:
    """A host's relay of a spectator's line: signed by seat 0, then the line checked."""
    line, signature = _outer(frame, RELAY_TAG, MAX_RELAY_FRAME)
    if 0 not in seat_keys or not _verify(seat_keys[0], signature, RELAY_PREFIX + line):
        raise ChatRefused("a relayed chat line not signed by the host seat's key", 0)
    return replace(parse_spectator_chat(line, game_id), frame=frame)


def is_chat_refusal(frame: bytes) -> bool:
    """Whether a chat frame is the host's refusal of a spectator's line."""
    return frame.startswith(_FRAME_HEADS[3])


def line_seq(frame: bytes) -> int:
    """The chat sequence number a line frame carries (unchecked), -1 when it has none: what a
    refusal answers.

    >>> line_seq(sign_chat(Identity.generate(), bytes(32), 1, 7, "hi")), line_seq(b"junk")
    (7, -1)
    """
    try:
        _, body, _ = _unpack(frame)
        seq = _unpack(body)[3]
    except Exception:  # any bytes at all: the number is only an answer's courtesy
        return -1
    return seq if isinstance(seq, int) else -1


def parse_chat_refusal(frame: bytes, game_id: bytes, host_key: bytes) -> tuple[int, str]:
    """Check the host's refusal of a spectator's line (:func:`sign_chat_refusal`); its
    ``(seq, reason)``.

    Raises:
        ChatRefused: malformed, of another game, or not signed by ``host_key``.
    """
    body, signature = _outer(frame, REFUSED_TAG, MAX_CHAT_FRAME)
    try:
        version, game, seq, reason = _unpack(body)
    except (ValueError, TypeError, msgpack.UnpackException):
        raise ChatRefused("a malformed chat refusal") from None
    if version != PROTOCOL_VERSION or game != game_id or not isinstance(reason, str):
        raise ChatRefused("a chat refusal of another game, or malformed")
    if not isinstance(seq, int) or not _verify(host_key, signature, REFUSED_PREFIX + body):
        raise ChatRefused("a chat refusal not signed by the host seat's key")
    return seq, reason


def parse_chat(frame: bytes, game_id: bytes, seat_keys: Mapping[int, bytes]) -> ChatLine:
    """Check a chat frame (a seat's line, or the host's relay of a spectator's) and return its
    line.

    Args:
        frame: the frame's bytes as received.
        game_id: this game's id (32 bytes).
        seat_keys: each seat's raw Ed25519 identity key, from the opening.

    Raises:
        ChatRefused: the frame is larger than :data:`MAX_CHAT_FRAME` (a relay
            :data:`MAX_RELAY_FRAME`), not a line or a relay, of another version or game, from
            no seat of the game, not signed by its seat's key (a relay: by the host seat's,
            and its line by the key it carries), or its text is longer than
            :data:`MAX_CHAT_TEXT` (§18).
    """
    if frame.startswith(_FRAME_HEADS[2]):
        return _relayed(frame, game_id, seat_keys)
    body, signature = _outer(frame, CHAT_TAG, MAX_CHAT_FRAME)
    try:
        version, game, author, seq, text = _unpack(body)
    except (ValueError, TypeError, msgpack.UnpackException):
        raise ChatRefused("a malformed chat frame") from None
    if not (
        isinstance(author, int)
        and isinstance(seq, int)
        and isinstance(text, str)
        and isinstance(game, bytes)
    ):
        raise ChatRefused("a chat body of the wrong shape")
    if author not in seat_keys:
        raise ChatRefused(f"a chat line from seat {author}, which is not in this game")
    if version != PROTOCOL_VERSION or game != game_id:
        raise ChatRefused("a chat line of another game or protocol version", author)
    if not _verify(seat_keys[author], signature, CHAT_PREFIX + body):
        raise ChatRefused(f"a chat line not signed by seat {author}'s key", author)
    if len(text) > MAX_CHAT_TEXT:
        raise ChatRefused(
            f"a chat line of {len(text)} characters (at most {MAX_CHAT_TEXT})", author
        )
    return ChatLine(author, seq, text, frame)


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


@dataclass(slots=True)
class ChatBook:
    """What one peer has heard: checks each frame (:func:`parse_chat`), drops repeats of an
    ``(author, seq)`` and limits each author to :data:`RATE_BURST` lines per
    :data:`RATE_WINDOW` seconds (a token bucket on the clock passed in).

    ``seen`` holds the ``(who, seq)`` pairs accepted, ``who`` the seat or a spectator's key
    (:attr:`ChatLine.who`; a resumed peer fills it from its log's chat records with
    :meth:`remember`).
    """

    game_id: bytes
    seat_keys: Mapping[int, bytes]
    seen: set[tuple[int | bytes, int]] = field(default_factory=set)
    _buckets: dict[int | bytes, _Bucket] = field(default_factory=dict)

    @classmethod
    def of(cls, opening: Opening) -> ChatBook:
        """An empty book for the game of ``opening``, with its seats' keys."""
        keys = {seat: info.public_key for seat, info in enumerate(opening.seats)}
        return cls(opening.game_id, keys)

    def remember(self, frames: Iterable[bytes]) -> list[ChatLine]:
        """Take the lines of frames already accepted (a log's), unlimited; the lines (a frame
        that does not check, in a log edited by hand, is skipped)."""
        lines: list[ChatLine] = []
        for frame in frames:
            try:
                lines.append(parse_chat(frame, self.game_id, self.seat_keys))
            except ChatRefused:
                continue
        self.seen.update((line.who, line.seq) for line in lines)
        return lines

    def next_seq(self, author: int) -> int:
        """The next chat sequence number for ``author``: one past the highest seen."""
        return 1 + max((seq for who, seq in self.seen if who == author), default=-1)

    def receive(self, frame: bytes, now: float) -> ChatLine | None:
        """Check one frame heard at ``now`` (seconds); the new line, or None for a repeat.

        Raises:
            ChatRefused: as :func:`parse_chat`, or the author (a seat, or the spectator a
                relayed line names) has sent more than :data:`RATE_BURST` lines in
                :data:`RATE_WINDOW` seconds.
        """
        return self._take(parse_chat(frame, self.game_id, self.seat_keys), now)

    def receive_spectator(self, frame: bytes, spectator: Spectator, now: float) -> ChatLine | None:
        """The host seat's check of a line that ``spectator`` (its connection's ``(name,
        public_key)``) sent at ``now``; the new line, or None for a repeat.

        Raises:
            ChatRefused: as :func:`parse_spectator_chat`, or past the spectator's rate.
        """
        return self._take(parse_spectator_chat(frame, self.game_id, spectator), now)

    def _take(self, line: ChatLine, now: float) -> ChatLine | None:
        """De-duplicate and rate-limit a line that checked out."""
        key = (line.who, line.seq)
        if key in self.seen:
            return None
        bucket = self._buckets.setdefault(line.who, _Bucket(float(RATE_BURST), now))
        refill = (now - bucket.at) * RATE_BURST / RATE_WINDOW
        bucket.tokens, bucket.at = min(float(RATE_BURST), bucket.tokens + refill), now
        if bucket.tokens < 1.0:
            raise ChatRefused(
                f"more than {RATE_BURST} chat lines in {RATE_WINDOW:g} s",
                line.author,
                line.spectator,
            )
        bucket.tokens -= 1.0
        self.seen.add(key)
        return line


def safe_text(text: str) -> str:
    """A chat line made safe for a terminal: every control character (C0, DEL, C1, so ESC and
    every escape sequence's introducer), every bidirectional override or isolate, and every
    other format or unassigned character is shown as ``\\uXXXX``/``\\xXX`` instead, so no byte
    from another seat acts on anyone's terminal. Rich markup is left as text: show the result
    as a ``rich.text.Text`` (or plain), never as markup.

    >>> safe_text("hi \\x1b[31mred\\x1b[0m [bold]x[/bold] \\u202egnp.exe")
    'hi \\\\x1b[31mred\\\\x1b[0m [bold]x[/bold] \\\\u202egnp.exe'
    """
    out: list[str] = []
    for char in text:
        if char in _BIDI or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


MAX_SHOWN: Final = 200
"""Chat lines a screen keeps (the log keeps them all)."""


@dataclass(slots=True)
class TableChat:
    """A screen's side of the table chat: the lines to show and a way to say one.

    ``lines`` are ``(author, text)``, newest last, at most :data:`MAX_SHOWN`: a line heard
    (``author`` its seat, ``text`` ``"NAME: LINE"`` already through :func:`safe_text`) or a
    system line (``author`` None: a refusal naming its author). ``send`` signs and sends a
    line (:meth:`hexlan.net.peer.Peer.say`); the peer's ``"chat"`` and ``"chat_refused"``
    events come in through :meth:`hear`.
    """

    send: Callable[[str], None]
    lines: list[tuple[int | None, str]] = field(default_factory=list)
    heard: int = 0
    """Lines taken so far, the dropped ones included (a screen's count of what it drew)."""

    def hear(self, kind: str, text: str, author: int | None) -> bool:
        """Take a peer event (its ``kind``, ``text`` and ``author``); whether it was chat."""
        if kind not in ("chat", "chat_refused"):
            return False
        self.lines.append((author if kind == "chat" else None, text))
        del self.lines[:-MAX_SHOWN]
        self.heard += 1
        return True

    def say(self, text: str) -> None:
        """Say ``text`` at the table (blank lines are not sent).

        Raises:
            ValueError: the line is longer than :data:`MAX_CHAT_TEXT` characters (every seat
                would refuse it).
        """
        text = text.strip()
        if not text:
            return
        if len(text) > MAX_CHAT_TEXT:
            raise ValueError(f"a chat line is at most {MAX_CHAT_TEXT} characters")
        self.send(text)
