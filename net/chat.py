"""Table chat: signed lines that travel beside the game and never enter it (docs/PROTOCOL.md §18).

A chat line is a frame of its own on the mesh links, not an envelope: it is in no seat's hash
chain, never waits in the order rule and never changes a state hash, so a game without chat has
the same game bytes as before chat existed. A chat frame is the msgpack array
``["chat", body, signature]`` where ``body`` is the msgpack encoding of
``[version, game_id, author, chat_seq, text]`` and ``signature`` is the author's Ed25519
signature of :data:`CHAT_PREFIX` ``|| body`` under its identity key (the opening's key for the
seat). An envelope is a 2-array, so the first byte tells the two apart.

Sans-IO: :func:`sign_chat` makes a frame, :class:`ChatBook` checks, de-duplicates and rate
limits the frames a peer hears (clock passed in), :func:`safe_text` makes a line safe for a
terminal. The shells (:mod:`hexlan.net.peer`, the screens) log and show what it accepts.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from hexlan.net.identity import Identity
from hexlan.net.wire import PROTOCOL_VERSION, Opening

__all__ = [
    "CHAT_PREFIX",
    "CHAT_TAG",
    "MAX_CHAT_FRAME",
    "MAX_CHAT_TEXT",
    "RATE_BURST",
    "RATE_WINDOW",
    "ChatBook",
    "ChatLine",
    "ChatRefused",
    "TableChat",
    "is_chat_frame",
    "parse_chat",
    "safe_text",
    "sign_chat",
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
_FRAME_HEAD: Final = b"\x93\xa4chat"  # msgpack: a 3-array whose first item is "chat"
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRefused(ValueError):
    """A chat frame this peer does not take; ``reason`` names the author when it is known."""

    def __init__(self, reason: str, author: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.author = author


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One accepted chat line: its ``author`` seat, ``seq`` (per author), ``text`` exactly as
    signed (show it through :func:`safe_text`), and its ``frame`` bytes as received."""

    author: int
    seq: int
    text: str
    frame: bytes


def is_chat_frame(frame: bytes) -> bool:
    """Whether a mesh frame's body is a chat frame (not an envelope)."""
    return frame.startswith(_FRAME_HEAD)


def _pack(value: object) -> bytes:
    return bytes(msgpack.packb(value, use_bin_type=True))


def sign_chat(identity: Identity, game_id: bytes, author: int, seq: int, text: str) -> bytes:
    """The chat frame ``["chat", body, signature]`` of one line, signed by ``identity``.

    It checks no bound: the receivers do (:class:`ChatBook`), so a test can send a line that
    is too long.
    """
    body = _pack([PROTOCOL_VERSION, game_id, author, seq, text])
    return _pack([CHAT_TAG, body, identity.sign(CHAT_PREFIX + body)])


def parse_chat(frame: bytes, game_id: bytes, seat_keys: Mapping[int, bytes]) -> ChatLine:
    """Check a chat frame and return its line.

    Args:
        frame: the frame's bytes as received.
        game_id: this game's id (32 bytes).
        seat_keys: each seat's raw Ed25519 identity key, from the opening.

    Raises:
        ChatRefused: the frame is larger than :data:`MAX_CHAT_FRAME`, not a chat frame, of
            another version or game, from no seat of the game, not signed by its seat's key,
            or its text is longer than :data:`MAX_CHAT_TEXT` (§18).
    """
    if len(frame) > MAX_CHAT_FRAME:
        raise ChatRefused(f"a chat frame of {len(frame)} bytes (at most {MAX_CHAT_FRAME})")
    try:
        tag, body, signature = msgpack.unpackb(frame, raw=False, max_map_len=0, max_ext_len=0)
        version, game, author, seq, text = msgpack.unpackb(
            body, raw=False, max_map_len=0, max_ext_len=0
        )
    except (ValueError, TypeError, msgpack.UnpackException):
        raise ChatRefused("a malformed chat frame") from None
    if tag != CHAT_TAG or not isinstance(body, bytes) or not isinstance(signature, bytes):
        raise ChatRefused("a malformed chat frame")
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
    try:
        Ed25519PublicKey.from_public_bytes(seat_keys[author]).verify(signature, CHAT_PREFIX + body)
    except (InvalidSignature, ValueError):
        raise ChatRefused(f"a chat line not signed by seat {author}'s key", author) from None
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

    ``seen`` holds the ``(author, seq)`` pairs accepted (a resumed peer fills it from its
    log's chat records with :meth:`remember`).
    """

    game_id: bytes
    seat_keys: Mapping[int, bytes]
    seen: set[tuple[int, int]] = field(default_factory=set)
    _buckets: dict[int, _Bucket] = field(default_factory=dict)

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
        self.seen.update((line.author, line.seq) for line in lines)
        return lines

    def next_seq(self, author: int) -> int:
        """The next chat sequence number for ``author``: one past the highest seen."""
        return 1 + max((seq for who, seq in self.seen if who == author), default=-1)

    def receive(self, frame: bytes, now: float) -> ChatLine | None:
        """Check one frame heard at ``now`` (seconds); the new line, or None for a repeat.

        Raises:
            ChatRefused: as :func:`parse_chat`, or the author has sent more than
                :data:`RATE_BURST` lines in :data:`RATE_WINDOW` seconds.
        """
        line = parse_chat(frame, self.game_id, self.seat_keys)
        key = (line.author, line.seq)
        if key in self.seen:
            return None
        bucket = self._buckets.setdefault(line.author, _Bucket(float(RATE_BURST), now))
        refill = (now - bucket.at) * RATE_BURST / RATE_WINDOW
        bucket.tokens, bucket.at = min(float(RATE_BURST), bucket.tokens + refill), now
        if bucket.tokens < 1.0:
            raise ChatRefused(
                f"more than {RATE_BURST} chat lines in {RATE_WINDOW:g} s", line.author
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
