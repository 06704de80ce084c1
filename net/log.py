"""The game log and the seat's secrets file (docs/PROTOCOL.md §9). No asyncio, no sockets.

A log file is the magic line ``hexlan-log 1\\n`` followed by records. Each record is a 4-byte
big-endian length and a msgpack array ``[kind, data]``:

- ``["opening", opening payload]``, once, first;
- ``["message", envelope bytes]`` for every message the peer accepted or signed, in order;
- ``["note", text]``;
- ``["evidence", [reason, envelope bytes]]`` for a rejected message;
- ``["equivocation", [body_a, sig_a, body_b, sig_b]]`` for two bodies signed for one ``seq``.
- ``["chat", frame]`` for a table chat line accepted (PROTOCOL §18): beside the game, never replayed.

Every append is written with one ``write`` and made durable with ``os.fsync`` before the method
returns (or, for a message appended with ``sync=False``, at the next :meth:`GameLog.sync`), so a
crash can only tear the *last* record. :meth:`GameLog.open_append` (used by
``hexlan resume``) cuts such a torn tail off and says so; :func:`read_log` reports it and
ignores it. Anything else unreadable raises :class:`LogFormatError` naming the record.

The log stores envelope bytes as they were received; it never checks signatures (a flipped byte
inside a message still reads as a log, and the signature check of whoever replays it fails).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.hexlan"
>>> with GameLog.create(path, [1, "0.1.0", [], [], "beginner", 0]) as log:
...     log.append_message(b"\\x92\\xc4\\x01a\\xc4\\x01b")
...     log.append_note("not fair: seeded local chance")
>>> contents = read_log(path)
>>> contents.messages, contents.notes
([b'\\x92\\xc4\\x01a\\xc4\\x01b'], ['not fair: seeded local chance'])

The seat's own secrets (its per-game seed, the chain secret from which its deck key, shuffles and
steal salts are derived, and its X25519 private key) live beside the log in ``LOG.secrets``
(mode 0600): :func:`save_secrets`, :func:`load_secrets`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

import msgpack

from hexlan.net.files import create_private, fsync_directory

try:  # Unix only; without it two writers are not kept apart, which is all it does.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOG_MAGIC: Final = b"hexlan-log 1\n"
SECRETS_MAGIC: Final = b"hexlan-secrets 1\n"

MAX_ENVELOPE: Final = 256 * 1024
"""The largest envelope (PROTOCOL §2)."""
MAX_RECORD: Final = 2 * MAX_ENVELOPE + 4096
"""The largest record body: an equivocation holds two envelopes' worth of bytes."""
MAX_NOTE: Final = 64 * 1024
"""The longest note or evidence reason, in characters (UTF-8 bytes, as msgpack counts)."""
MAX_SECRETS_FILE: Final = 4 * 1024 * 1024

_LENGTH = struct.Struct(">I")
_BYTES_RECORDS: Final = {"message": "a message", "chat": "a chat line"}
"""The record kinds whose data is bytes, as a corrupt one is named."""
KINDS: Final = ("opening", "message", "note", "evidence", "equivocation", "chat")


class LogFormatError(ValueError):
    """A log or secrets file that cannot be read; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A rejected message: why, and its envelope bytes exactly as received."""

    reason: str
    envelope: bytes


@dataclass(frozen=True, slots=True)
class Equivocation:
    """Two different bodies signed by one author for one ``seq`` (PROTOCOL §11)."""

    body_a: bytes
    sig_a: bytes
    body_b: bytes
    sig_b: bytes

    def envelopes(self) -> tuple[bytes, bytes]:
        """Both messages as envelopes ``[body, signature]`` (msgpack, shortest encodings)."""
        return (_pack([self.body_a, self.sig_a]), _pack([self.body_b, self.sig_b]))


@dataclass(frozen=True, slots=True)
class LogContents:
    """Everything a log holds, in file order per kind.

    ``torn_tail`` is true when the file ends inside a record (a crash during an append); that
    partial record is not part of the contents. ``end`` is the byte offset where the last whole
    record ends (the file size once a torn tail is cut off).
    """

    opening: Any
    messages: list[bytes]
    notes: list[str]
    evidence: list[Evidence]
    equivocations: list[Equivocation]
    torn_tail: bool
    end: int
    chats: list[bytes] = field(default_factory=list)
    """The chat frames accepted (§18), in file order: beside the game, never replayed."""


# ------------------------------------------------------------------------------ reading


def _unpack_record(body: bytes) -> Any:
    return msgpack.unpackb(
        body,
        raw=False,
        strict_map_key=True,
        use_list=True,
        max_bin_len=MAX_RECORD,
        max_str_len=MAX_NOTE,
        max_array_len=4096,
        max_map_len=4096,
        max_ext_len=0,
    )


def _is_bytes_list(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(isinstance(v, bytes) for v in value)


def parse_log(data: bytes) -> LogContents:
    """Parse a whole log file's bytes.

    Records are numbered from 1 (the opening) in error messages, with their byte offset.

    Raises:
        LogFormatError: not a log, a record that cannot be decoded, a record of an unknown
            kind or a wrong shape, an opening that is missing, repeated or not first.

    >>> try:
    ...     parse_log(b"PK\\x03\\x04")
    ... except LogFormatError as error:
    ...     print(error)
    not a hexlan log: the file does not start with 'hexlan-log 1'
    """
    if not data.startswith(LOG_MAGIC):
        if LOG_MAGIC.startswith(data) and data:
            raise LogFormatError("not a hexlan log: the file ends inside the magic line")
        raise LogFormatError("not a hexlan log: the file does not start with 'hexlan-log 1'")
    opening: Any = None
    has_opening = False
    messages: list[bytes] = []
    notes: list[str] = []
    evidence: list[Evidence] = []
    equivocations: list[Equivocation] = []
    chats: list[bytes] = []
    pos = len(LOG_MAGIC)
    number = 0
    torn = False
    while pos < len(data):
        number += 1
        where = f"record {number} (at byte {pos})"
        if len(data) - pos < _LENGTH.size:
            torn = True
            break
        (length,) = _LENGTH.unpack_from(data, pos)
        if length == 0 or length > MAX_RECORD:
            raise LogFormatError(f"{where} is corrupt: length {length} is not in 1..{MAX_RECORD}")
        if len(data) - pos - _LENGTH.size < length:
            torn = True
            break
        body = data[pos + _LENGTH.size : pos + _LENGTH.size + length]
        try:
            record = _unpack_record(body)
        except Exception as exc:  # msgpack raises several types, all meaning "not decodable"
            raise LogFormatError(f"{where} is corrupt: {exc.__class__.__name__}: {exc}") from None
        if not (isinstance(record, list) and len(record) == 2 and isinstance(record[0], str)):
            raise LogFormatError(f"{where} is corrupt: not a [kind, data] pair")
        kind, value = record
        if number == 1 and kind != "opening":
            raise LogFormatError(f"{where} is corrupt: the first record must be the opening")
        if kind == "opening":
            if has_opening:
                raise LogFormatError(f"{where} is corrupt: a second opening")
            opening, has_opening = value, True
        elif kind in _BYTES_RECORDS:  # a message or a chat line
            if not isinstance(value, bytes):
                raise LogFormatError(f"{where} is corrupt: {_BYTES_RECORDS[kind]} must be bytes")
            (messages if kind == "message" else chats).append(value)
        elif kind == "note":
            if not isinstance(value, str):
                raise LogFormatError(f"{where} is corrupt: a note must be text")
            notes.append(value)
        elif kind == "evidence":
            if not (
                isinstance(value, list)
                and len(value) == 2
                and isinstance(value[0], str)
                and isinstance(value[1], bytes)
            ):
                raise LogFormatError(f"{where} is corrupt: evidence must be [reason, envelope]")
            evidence.append(Evidence(value[0], value[1]))
        elif kind == "equivocation":
            if not _is_bytes_list(value, 4):
                raise LogFormatError(
                    f"{where} is corrupt: an equivocation must be [body_a, sig_a, body_b, sig_b]"
                )
            equivocations.append(Equivocation(*value))
        else:
            raise LogFormatError(f"{where} is corrupt: unknown kind {kind!r}")
        pos += _LENGTH.size + length
    if not has_opening:
        raise LogFormatError("not a hexlan log: it has no opening record")
    return LogContents(opening, messages, notes, evidence, equivocations, torn, pos, chats)


def read_log(path: str | os.PathLike[str]) -> LogContents:
    """Read and check the log at ``path`` (see :func:`parse_log`).

    Raises:
        LogFormatError: the file is not a readable log (an ``OSError`` reading it propagates).
    """
    with open(path, "rb") as f:
        head = f.read(len(LOG_MAGIC))
        if head != LOG_MAGIC:  # not a log: refuse it without reading the rest (100 MB of junk)
            return parse_log(head)
        data = head + f.read()
    return parse_log(data)


# ------------------------------------------------------------------------------ writing


def _pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


_datasync = getattr(os, "fdatasync", os.fsync)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _lock(fd: int, path: Path) -> None:
    if fcntl is None:  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LogFormatError(f"{path} is open for writing in another process") from None


def _split_envelope(envelope: bytes) -> tuple[bytes, bytes]:
    try:
        value = msgpack.unpackb(envelope, raw=False, max_bin_len=MAX_ENVELOPE, max_str_len=0)
    except Exception:
        value = None
    if not _is_bytes_list(value, 2):
        raise ValueError("an equivocation needs two envelopes [body, signature]")
    return value[0], value[1]


class GameLog:
    """An open log, appended to record by record; each append is durable when it returns.

    Create a new one with :meth:`create` or reopen one to resume with :meth:`open_append`.
    One process at a time may hold a log open (an exclusive ``flock``).
    """

    def __init__(self, fd: int, path: Path, contents: LogContents, truncated: int = 0) -> None:
        """Use :meth:`create` or :meth:`open_append`."""
        self._fd: int | None = fd
        self.path = path
        self.contents = contents
        """What the file held when it was opened (for :meth:`open_append`, the game so far)."""
        self.truncated_bytes = truncated
        """How many bytes of a torn last record :meth:`open_append` cut off (0: none)."""

    @property
    def torn_tail(self) -> bool:
        """True when :meth:`open_append` found and cut off a partial last record."""
        return self.truncated_bytes > 0

    @classmethod
    def create(cls, path: str | os.PathLike[str], opening_payload: Any) -> Self:
        """Start a new log holding the opening; refuses to overwrite anything.

        Raises:
            FileExistsError: ``path`` exists.
            TypeError: the opening payload cannot be packed as msgpack.
        """
        path = Path(path)
        record = _pack(["opening", opening_payload])
        if len(record) > MAX_RECORD:
            raise ValueError(
                f"the opening payload packs to {len(record)} bytes; at most {MAX_RECORD}"
            )
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        try:
            _lock(fd, path)
            _write_all(fd, LOG_MAGIC + _LENGTH.pack(len(record)) + record)
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise
        fsync_directory(path.parent)
        contents = LogContents(opening_payload, [], [], [], [], False, 0)
        return cls(fd, path, contents)

    @classmethod
    def open_append(cls, path: str | os.PathLike[str]) -> Self:
        """Reopen an existing log to append to it (``hexlan resume``).

        The whole file is checked first (:func:`parse_log`); the result is :attr:`contents`. A
        torn last record is cut off and fsynced away; :attr:`torn_tail` and
        :attr:`truncated_bytes` report it.

        Raises:
            FileNotFoundError: no such file.
            LogFormatError: the file is not a readable log, or another process has it open.
        """
        path = Path(path)
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
        try:
            _lock(fd, path)
            size = os.fstat(fd).st_size
            with open(fd, "rb", closefd=False) as f:
                f.seek(0)
                data = f.read(size)
            contents = parse_log(data)
            truncated = len(data) - contents.end
            if truncated:
                os.ftruncate(fd, contents.end)
                os.fsync(fd)
                contents = dataclasses.replace(contents, torn_tail=False)
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise
        return cls(fd, path, contents, truncated)

    # -------------------------------------------------------------------------- appends

    def _append(self, kind: str, data: Any, *, sync: bool = True) -> None:
        if self._fd is None:
            raise ValueError(f"the log {self.path} is closed")
        record = _pack([kind, data])
        if len(record) > MAX_RECORD:
            raise ValueError(f"a {kind} record of {len(record)} bytes; at most {MAX_RECORD}")
        _write_all(self._fd, _LENGTH.pack(len(record)) + record)
        if sync:
            os.fsync(self._fd)

    def append_message(self, envelope_bytes: bytes, *, sync: bool = True) -> None:
        """Record a message accepted or signed, as its exact envelope bytes.

        With ``sync=False`` the record is written (it survives the process being killed) but
        is durable against a power cut only after the next :meth:`sync`: a shell that logs a
        batch of messages syncs once and only then sends or acts on them (group commit).
        """
        self._append("message", bytes(envelope_bytes), sync=sync)

    def sync(self) -> None:
        """Make every record appended so far durable; safe from a worker thread while the log
        stays open.

        Uses ``os.fdatasync`` where there is one (it flushes the data and the file size, all a
        reader needs, but not the modification time: on Linux ext4 about ten times faster than
        ``fsync``), else ``os.fsync``.
        """
        fd = self._fd
        if fd is None:
            raise ValueError(f"the log {self.path} is closed")
        _datasync(fd)

    def append_note(self, text: str) -> None:
        """Record a local note (e.g. ``"not fair: seeded local chance"``)."""
        self._append("note", str(text))

    def append_chat(self, frame: bytes) -> None:
        """Record a chat frame accepted (§18), as its exact bytes (not fsynced: chat is not
        game state; the next message's sync makes it durable)."""
        self._append("chat", bytes(frame), sync=False)

    def append_evidence(self, reason: str, envelope_bytes: bytes) -> None:
        """Keep a rejected message's bytes with the reason it was rejected."""
        self._append("evidence", [str(reason), bytes(envelope_bytes)])

    def append_equivocation(self, a: bytes, b: bytes) -> None:
        """Keep two envelopes whose bodies have one author and ``seq`` (PROTOCOL §11).

        Raises:
            ValueError: either is not an envelope ``[body, signature]``.
        """
        body_a, sig_a = _split_envelope(a)
        body_b, sig_b = _split_envelope(b)
        self._append("equivocation", [body_a, sig_a, body_b, sig_b])

    # -------------------------------------------------------------------------- lifetime

    @property
    def closed(self) -> bool:
        return self._fd is None

    def close(self) -> None:
        """Close the file (every append is already durable). Closing twice is harmless."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# ------------------------------------------------------------------------------ secrets


@dataclass(frozen=True, slots=True)
class SeatSecrets:
    """What only this seat knows about its game (PROTOCOL §6, §7, §9, §13).

    ``chain_secret`` is the seat's per-game seed: the top of its hash chain, its deck secret,
    shuffles, steal orders and salts derive from it; ``x25519_private`` the raw 32-byte
    X25519 private key. Both are revealed at the end-of-game audit.
    """

    game_id: bytes
    seat: int
    chain_secret: bytes
    x25519_private: bytes

    def __post_init__(self) -> None:
        for name in ("game_id", "chain_secret", "x25519_private"):
            value = getattr(self, name)
            if not (isinstance(value, bytes) and len(value) == 32):
                raise ValueError(f"{name} must be 32 bytes, not {value!r:.80}")
        if type(self.seat) is not int or not 0 <= self.seat < 256:
            raise ValueError(f"seat must be an int in 0..255, not {self.seat!r}")

    def to_bytes(self) -> bytes:
        """The file's bytes: a magic line, then msgpack
        ``[game_id, seat, chain_secret, x25519_private]``."""
        fields = [self.game_id, self.seat, self.chain_secret, self.x25519_private]
        return SECRETS_MAGIC + _pack(fields)

    @classmethod
    def from_bytes(cls, data: bytes) -> SeatSecrets:
        """Parse :meth:`to_bytes` output.

        Raises:
            LogFormatError: anything else.
        """
        if not data.startswith(SECRETS_MAGIC):
            raise LogFormatError("not a hexlan secrets file")
        try:
            value = msgpack.unpackb(
                data[len(SECRETS_MAGIC) :],
                raw=False,
                max_bin_len=1024,
                max_str_len=0,
                max_map_len=0,
                max_ext_len=0,
                max_array_len=1 << 20,
            )
        except Exception as exc:
            raise LogFormatError(f"the secrets file is corrupt: {exc}") from None
        if not (isinstance(value, list) and len(value) == 4):
            raise LogFormatError("the secrets file is corrupt: wrong shape")
        try:
            return cls(value[0], value[1], value[2], value[3])
        except ValueError as exc:
            raise LogFormatError(f"the secrets file is corrupt: {exc}") from None


def secrets_path(log_path: str | os.PathLike[str]) -> Path:
    """Where a log's secrets live: ``LOG.secrets`` beside it."""
    log_path = Path(log_path)
    return log_path.with_name(log_path.name + ".secrets")


def save_secrets(path: str | os.PathLike[str], secrets: SeatSecrets) -> None:
    """Write a new secrets file, mode 0600, durable when this returns.

    Raises:
        FileExistsError: ``path`` exists (secrets are never silently replaced).
    """
    create_private(Path(path), secrets.to_bytes())


def load_secrets(path: str | os.PathLike[str]) -> SeatSecrets:
    """Read a secrets file.

    Raises:
        LogFormatError: the file is not a readable secrets file.
    """
    with open(path, "rb") as f:
        data = f.read(MAX_SECRETS_FILE + 1)
    if len(data) > MAX_SECRETS_FILE:
        raise LogFormatError(f"the secrets file is larger than {MAX_SECRETS_FILE} bytes")
    return SeatSecrets.from_bytes(data)
