"""The wire format: msgpack with limits, signed envelopes, and a strict schema for every payload.

This module is the whole of docs/PROTOCOL.md section 2 (encoding and envelope) and the payload
schemas of sections 3, 5 and 8. It is sans-IO and stateless: bytes in, checked values out, and
values in, bytes out. Who may send what and when (order, turns, chains) is the session's job.

- :func:`pack` / :func:`unpack`: msgpack restricted to arrays, ints, bytes, strings, bools and
  nil, decoded with the Unpacker limits of section 2.
- :class:`Body`: the signed fields ``[version, game_id, author, seq, prev, heads, kind,
  payload]``, checked when constructed (shape, ranges, the kind's payload schema).
- :class:`Envelope`: ``[body bytes, signature]`` as received; :meth:`Envelope.parse` decodes the
  body from the bytes as received (never re-encoding) and :meth:`Envelope.verify` checks the
  Ed25519 signature over exactly those bytes. :func:`sign_body` makes one.
- :data:`PAYLOAD_SCHEMAS`: one table, kind -> schema, the single place payload shapes live
  (h11's ``_events.py`` / ``_state.py`` habit: rules as data).
- :class:`Opening` / :class:`SeatInfo`: the typed opening payload (section 3) and its game id.

Errors say which side broke the rules (h11's ``_util.py``): :class:`LocalProtocolError` when our
own code misuses this API (e.g. builds a body that breaks a schema), :class:`RemoteProtocolError`
subclasses when received bytes do. Constructors raise the local kind; :meth:`Envelope.parse`
converts it to :class:`MalformedMessage`, so the same checks serve both directions.

>>> from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
>>> key = Ed25519PrivateKey.generate()
>>> body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "refuse", ("this table is full",))
>>> envelope = Envelope.parse(sign_body(body, key).to_bytes())
>>> envelope.body == body, envelope.id == message_id(body.encode())
(True, True)
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, cast

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from hexlan.engine.actions import (
    Action,
    RevealVictory,
    action_to_list,
)
from hexlan.engine.core import (
    MAX_SEATS,
    EngineError,
    Resource,
)
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.registry import (
    CHANCE_ACTIONS,
    action_from_list,
)
from hexlan.engine.ruleset import (
    CATAN_GAMES,
    GAMES,
    RuleSet,
    load_ruleset,
    seat_range,
    state_spec,
)
from hexlan.net.identity import (
    WeakKeyError,
    check_ed25519_public,
    check_x25519_public,
    fingerprint,
)

if TYPE_CHECKING:
    from hexlan.net.identity import Identity

__all__ = [
    "BASE_GAME",
    "GAME_ID_PREFIX",
    "GAME_KINDS",
    "KINDS",
    "LINK_PREFIX",
    "LOBBY_KINDS",
    "LOBBY_NONCE_BYTES",
    "MAX_CARDS",
    "MAX_DEPTH",
    "MAX_ENVELOPE",
    "MAX_SEATS",
    "MAX_SPECTATORS",
    "MESSAGE_ID_PREFIX",
    "OWED_STEPS",
    "PAYLOAD_SCHEMAS",
    "PROTOCOL_VERSION",
    "SIGNING_PREFIX",
    "UNPACK_LIMITS",
    "WIRE_SEATS",
    "ZERO_ID",
    "BoardKind",
    "Body",
    "Envelope",
    "Equivocation",
    "ForgedSignature",
    "IllegalMove",
    "LocalProtocolError",
    "MalformedMessage",
    "Opening",
    "OptionValue",
    "OutOfTurn",
    "ProtocolError",
    "RemoteProtocolError",
    "SeatInfo",
    "VersionMismatch",
    "WrongGame",
    "board_kinds",
    "decode_action",
    "encode_action",
    "message_id",
    "option_entries",
    "pack",
    "sign_body",
    "unpack",
    "validate_payload",
]

# --------------------------------------------------------------------------------------------
# Constants (docs/PROTOCOL.md sections 2, 3, 8)

PROTOCOL_VERSION: Final = 4
"""The protocol version this code speaks (the ``version`` field of every body)."""

ZERO_ID: Final = bytes(32)
"""32 zero bytes: the game id of lobby messages, ``prev`` at ``seq == 0``, a head for "none"."""

MAX_ENVELOPE: Final = 256 * 1024
"""The largest envelope, in bytes, on the wire and in logs (section 2)."""

UNPACK_LIMITS: Final[Mapping[str, Any]] = MappingProxyType(
    {
        "max_buffer_size": 1024 * 1024,
        "max_bin_len": 256 * 1024,
        "max_str_len": 4 * 1024,
        "max_array_len": 4096,
        "max_map_len": 0,
        "max_ext_len": 0,
        "strict_map_key": True,
        "raw": False,
    }
)
"""The ``msgpack.Unpacker`` settings of section 2, used for everything we decode."""

MAX_DEPTH: Final = 16
"""Deepest array nesting :func:`unpack` accepts (a body nests 6 deep; this bounds the walk)."""

SIGNING_PREFIX: Final = b"hexlan/v1/message\0"
"""Domain separation for envelope signatures: the signed bytes are this plus the body."""

MESSAGE_ID_PREFIX: Final = b"hexlan/v1/id\0"
"""Domain separation for message ids: ``H(MESSAGE_ID_PREFIX || body)``."""

GAME_ID_PREFIX: Final = b"hexlan/v1/game\0"
"""Domain separation for game ids: ``H(GAME_ID_PREFIX || msgpack(opening payload))``."""

LINK_PREFIX: Final = b"hexlan/v1/link\0"
"""Domain separation for ``link_proof`` signatures: ``LINK_PREFIX || game_id || nonce``."""

LOBBY_NONCE_BYTES: Final = 16
"""Bytes of the host's ``challenge`` nonce, which a joiner signs back in its ``hello`` (§3)."""

MAX_SPECTATORS: Final = 32
"""Spectators a seat serves at once, and so the longest ``spectators`` list (§17)."""

WIRE_SEATS: Final = MAX_SEATS
"""Seat numbers an envelope can carry: 0..5, the engine's :data:`~hexlan.engine.core.MAX_SEATS`
(re-exported here as :data:`MAX_SEATS`); ``heads`` has at most this many entries. An opening or
a lobby holds 2..6 seats, within the range of its game's rule set."""

BASE_GAME: Final = "base"
"""The game an opening without a ``game`` entry plays (section 3)."""

MAX_CARDS: Final = max(sum(load_ruleset(game).bank) for game in CATAN_GAMES)
"""Cards in the largest bank of any game (131: Cities & Knights' 19 of each resource and 12 of
each commodity): the most cards a hand can hold, so the bound of a steal's commitments and of a
Monopoly count (section 5)."""

_U32_MAX: Final = 2**32 - 1
MAX_DECK: Final = 96
"""Cards a mental-poker deck may hold (§13): well above any game's deck (34), and far inside one
envelope: its largest messages are a shuffle (64·96 bytes) and its proof (32·(4·96 + 5) bytes,
12.4 KB), and a card shown among 96 positions (64 bytes a position)."""
_CIPHERTEXT: Final = 64  # an ElGamal ciphertext: two ed25519 points
_SCALAR_BYTES: Final = 32  # an ed25519 scalar, as a point's encoding
PROOF_RESPONSES_BASE: Final = 4
"""A shuffle proof of n cards has 2n + 4 response scalars (§13.6)."""
_PACK_INT_MIN: Final = -(2**63)
_PACK_INT_MAX: Final = 2**64 - 1

BoardKind: TypeAlias = Literal["beginner", "random"]
BOARD_KINDS: Final = ("beginner", "random")
OptionValue: TypeAlias = int | bool | None

# --------------------------------------------------------------------------------------------
# Errors (h11 style: which side broke the rules)


class ProtocolError(Exception):
    """Base of every hexlan protocol error; ``reason`` says what was wrong, in words."""

    reason: str

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LocalProtocolError(ProtocolError):
    """We misused the API: a body, opening or value we built breaks the protocol."""


class RemoteProtocolError(ProtocolError, ValueError):
    """A peer broke the protocol: bytes or a message we received are not acceptable.

    Attributes:
        reason: what was wrong, in words, fit to show and to keep as evidence.
        author: the seat held responsible, when known and proven (a verified signature);
            None otherwise: a malformed or forged message proves nothing about its claimed author.
    """

    author: int | None

    def __init__(self, reason: str, *, author: int | None = None) -> None:
        super().__init__(reason)
        self.author = author


class MalformedMessage(RemoteProtocolError):
    """Bytes that are not a well-formed message: bad msgpack, limits, shape or payload schema."""


class ForgedSignature(RemoteProtocolError):
    """A signature that does not verify under the claimed author's key."""


class WrongGame(RemoteProtocolError):
    """A message for another game id (raised by the session)."""


class VersionMismatch(RemoteProtocolError):
    """A message in another protocol version.

    Attributes:
        version: the version the message speaks (ours is :data:`PROTOCOL_VERSION`).
    """

    version: int | None

    def __init__(
        self, reason: str, *, version: int | None = None, author: int | None = None
    ) -> None:
        super().__init__(reason, author=author)
        self.version = version


class OutOfTurn(RemoteProtocolError):
    """A message from a seat that may not send it now (raised by the session)."""


class IllegalMove(RemoteProtocolError):
    """An action the engine rejects for its author's seat (raised by the session)."""


class Equivocation(RemoteProtocolError):
    """Two different bodies signed by one author for one ``seq`` (raised by the session)."""


# --------------------------------------------------------------------------------------------
# msgpack with limits


def _show(value: object) -> str:
    """A short, escaped description of a value for error reasons."""
    if isinstance(value, bytes):
        return f"{len(value)} bytes"
    if isinstance(value, (list, tuple)):
        return f"an array of {len(value)}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_Where = tuple["_Where", int] | None
"""Where a value sits in the walked object: None at the top, else (its array's place, its
index), formatted only for a reason (:func:`_at`)."""


def _at(where: _Where) -> str:
    """``where`` as the indices from the top, ``"[2][0]"``; ``"top"`` for the top itself."""
    indices: list[int] = []
    while where is not None:
        where, index = where
        indices.append(index)
    return "".join(f"[{i}]" for i in reversed(indices)) or "top"


def _plain_problem(obj: object, *, arrays: tuple[type, ...]) -> str | None:
    """Why ``obj`` is not plain msgpack data (arrays, ints, bytes, str, bool, nil), or None.

    Walks iteratively, so hostile nesting cannot exhaust the Python stack. perf: on every
    message packed or unpacked; scalars are checked where their array is read, and an item's
    place is kept as a link to its array's, written out only for a reason.
    """
    if type(obj) not in arrays:
        return _scalar_problem(obj, None)
    stack: list[tuple[list[object] | tuple[object, ...], int, _Where]] = [
        (cast("list[object] | tuple[object, ...]", obj), 1, None)
    ]
    while stack:
        items, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return f"arrays nest deeper than {MAX_DEPTH} at {_at(where)}"
        for i, item in enumerate(items):
            if item is None or isinstance(item, (bool, str, bytes)):
                continue
            if type(item) in arrays:  # exact: a namedtuple such as msgpack.ExtType is no array
                stack.append(
                    (cast("list[object] | tuple[object, ...]", item), depth + 1, (where, i))
                )
                continue
            problem = _scalar_problem(item, (where, i))
            if problem is not None:
                return problem
    return None


def _scalar_problem(value: object, where: _Where) -> str | None:
    """Why ``value``, found at ``where`` and no array, is no plain msgpack scalar (an integer
    out of 64 bits, a float, a map, any other type), or None."""
    if value is None or isinstance(value, (bool, str, bytes)):
        return None
    if isinstance(value, int):
        if _PACK_INT_MIN <= value <= _PACK_INT_MAX:
            return None
        return f"the integer at {_at(where)} does not fit in 64 bits"
    what = {
        float: "floats are",
        dict: "maps are",
        msgpack.ExtType: "ext types are",
        msgpack.Timestamp: "timestamps are",
    }.get(type(value), f"{type(value).__name__} values are")
    return f"{what} not allowed (at {_at(where)})"


def pack(obj: object) -> bytes:
    """msgpack of plain data (``use_bin_type=True``; tuples pack as arrays).

    Raises:
        LocalProtocolError: ``obj`` holds something the protocol forbids (a float, a map, any
            other type) or an integer that does not fit in 64 bits.

    >>> pack([1, b"\\x00", "a", None, True]).hex()
    '9501c40100a161c0c3'
    """
    problem = _plain_problem(obj, arrays=(list, tuple))
    if problem is not None:
        raise LocalProtocolError(f"cannot pack: {problem}")
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def unpack(data: bytes) -> object:
    """Decode exactly one msgpack object with the limits of docs/PROTOCOL.md section 2.

    Arrays decode as lists; only ints, bytes, str, bools, nil and arrays (nested at most
    :data:`MAX_DEPTH` deep) are accepted.

    Raises:
        MalformedMessage: truncated or invalid msgpack, a limit exceeded, trailing bytes, or a
            float, map or ext type anywhere.
        LocalProtocolError: ``data`` is not bytes.

    >>> unpack(b"\\x92\\x01\\xc4\\x01\\x00")
    [1, b'\\x00']
    >>> unpack(b"\\xcb" + bytes(8))
    Traceback (most recent call last):
    hexlan.net.wire.MalformedMessage: floats are not allowed (at top)
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise LocalProtocolError(f"unpack takes bytes, not {type(data).__name__}")
    data = bytes(data)
    limit = UNPACK_LIMITS["max_buffer_size"]
    if len(data) > limit:
        raise MalformedMessage(f"{len(data)} bytes is more than the {limit}-byte decoding limit")
    if not data:
        raise MalformedMessage("no bytes where a msgpack object was expected")
    unpacker = msgpack.Unpacker(**UNPACK_LIMITS)
    try:
        unpacker.feed(data)
        obj = unpacker.unpack()
    except msgpack.OutOfData:
        raise MalformedMessage(f"truncated msgpack ({len(data)} bytes)") from None
    except msgpack.StackError:
        raise MalformedMessage("msgpack nests too deeply") from None
    except msgpack.FormatError:
        raise MalformedMessage("invalid msgpack (a reserved type byte)") from None
    except UnicodeDecodeError as exc:
        raise MalformedMessage(f"a msgpack string is not valid UTF-8: {exc.reason}") from None
    except (msgpack.UnpackException, ValueError, TypeError, OverflowError) as exc:
        raise MalformedMessage(f"undecodable msgpack: {exc}") from None
    if unpacker.tell() != len(data):
        raise MalformedMessage(
            f"{len(data) - unpacker.tell()} trailing bytes after the msgpack object"
        )
    problem = _plain_problem(obj, arrays=(list,))
    if problem is not None:
        raise MalformedMessage(problem)
    return obj


def _freeze(value: Any) -> Any:
    """Lists become tuples, all the way down; int subclasses (IntEnum) become plain ints."""
    if type(value) in (list, tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool) and type(value) is not int:
        return int(value)
    return value


def _thaw(value: Any) -> Any:
    """Tuples become lists, all the way down (the engine's plain action form)."""
    if isinstance(value, (list, tuple)):
        return [_thaw(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# Schemas: small checkers composed into one table (section 5: "every payload has a strict schema")


def _fail(where: str, problem: str) -> None:
    if len(problem) > 300:  # a reason is kept as evidence and shown: never the whole input
        problem = problem[:297] + "..."
    raise MalformedMessage(f"{where}: {problem}")


def _is_array(value: object) -> bool:
    return type(value) in (list, tuple)  # exact: a namedtuple (msgpack.ExtType) is no array


class Schema:
    """A payload checker: ``check(value, where)`` raises :class:`MalformedMessage` naming
    ``where`` (e.g. ``"hello payload.public_key"``) and returns None when the value fits."""

    __slots__ = ()

    def check(self, value: object, where: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Int(Schema):
    """An integer (never a bool) in ``lo..hi`` inclusive."""

    lo: int
    hi: int

    def check(self, value: object, where: str) -> None:
        if type(value) is not int:
            _fail(where, f"expected an integer {self.lo}..{self.hi}, got {_show(value)}")
        elif not self.lo <= value <= self.hi:
            _fail(where, f"{value} is outside {self.lo}..{self.hi}")


@dataclass(frozen=True, slots=True)
class Bool(Schema):
    """True or False."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, bool):
            _fail(where, f"expected a bool, got {_show(value)}")


@dataclass(frozen=True, slots=True)
class Nil(Schema):
    """nil (None)."""

    def check(self, value: object, where: str) -> None:
        if value is not None:
            _fail(where, f"expected nil, got {_show(value)}")


@dataclass(frozen=True, slots=True)
class Bytes(Schema):
    """A byte string of ``lo..hi`` bytes."""

    lo: int
    hi: int

    def check(self, value: object, where: str) -> None:
        size = f"{self.lo}" if self.lo == self.hi else f"{self.lo}..{self.hi}"
        if not isinstance(value, bytes):
            _fail(where, f"expected {size} bytes, got {_show(value)}")
        elif not self.lo <= len(value) <= self.hi:
            _fail(where, f"expected {size} bytes, got {len(value)}")


# Characters no text field may hold: C0/C1 controls and DEL (terminal escapes), line and
# paragraph separators, and the bidirectional overrides that reorder what a screen shows. A fixed
# set, never unicodedata, so every peer's Python agrees on what is valid.
_FORBIDDEN_CHARS: Final = frozenset(
    [*map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0))]
    + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)


@dataclass(frozen=True, slots=True)
class Text(Schema):
    """A string of ``lo..hi`` characters with no control or bidirectional-override characters."""

    lo: int
    hi: int

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, str):
            _fail(
                where, f"expected a string of {self.lo}..{self.hi} characters, got {_show(value)}"
            )
        elif not self.lo <= len(value) <= self.hi:
            _fail(where, f"expected {self.lo}..{self.hi} characters, got {len(value)}")
        elif not _FORBIDDEN_CHARS.isdisjoint(value):
            bad = next(c for c in value if c in _FORBIDDEN_CHARS)
            _fail(where, f"control character U+{ord(bad):04X} in {_show(value)}")


@dataclass(frozen=True, slots=True)
class OneOfText(Schema):
    """One of a few fixed strings."""

    values: tuple[str, ...]

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, str) or value not in self.values:
            _fail(where, f"expected one of {', '.join(map(repr, self.values))}, got {_show(value)}")


@dataclass(frozen=True, slots=True)
class AnyOf(Schema):
    """Any one of several schemas (tried in order)."""

    options: tuple[Schema, ...]
    description: str

    def check(self, value: object, where: str) -> None:
        for option in self.options:
            try:
                option.check(value, where)
            except MalformedMessage:
                continue
            return
        _fail(where, f"expected {self.description}, got {_show(value)}")


@dataclass(frozen=True, slots=True)
class Array(Schema):
    """An array of ``lo..hi`` items, each fitting ``item``."""

    item: Schema
    lo: int
    hi: int

    def check(self, value: object, where: str) -> None:
        if not _is_array(value):
            _fail(where, f"expected an array of {self.lo}..{self.hi} items, got {_show(value)}")
        assert isinstance(value, (list, tuple))
        if not self.lo <= len(value) <= self.hi:
            _fail(where, f"expected {self.lo}..{self.hi} items, got {len(value)}")
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


@dataclass(frozen=True, slots=True)
class Record(Schema):
    """An array whose positions have names and schemas (``[name, key, ...]``): fixed length,
    except that its last ``optional`` entries may be left out (from the end: an array of
    ``len(entries) - k`` items holds the first entries only)."""

    entries: tuple[tuple[str, Schema], ...]
    optional: int = 0

    def check(self, value: object, where: str) -> None:
        names = ", ".join(name for name, _ in self.entries)
        if not _is_array(value):
            _fail(where, f"expected an array [{names}], got {_show(value)}")
        assert isinstance(value, (list, tuple))
        most = len(self.entries)
        fewest = most - self.optional
        if not fewest <= len(value) <= most:
            count = f"{most}" if fewest == most else f"{fewest}..{most}"
            _fail(where, f"expected {count} items [{names}], got {len(value)}")
        for (name, schema), item in zip(self.entries, value, strict=False):
            schema.check(item, f"{where}.{name}")


def _record(*entries: tuple[str, Schema], optional: int = 0) -> Record:
    return Record(tuple(entries), optional)


@dataclass(frozen=True, slots=True)
class Where(Schema):
    """``schema``, then a cross-field rule: ``rule(value)`` returns a problem or None."""

    schema: Schema
    rule: Callable[[Any], str | None]

    def check(self, value: object, where: str) -> None:
        self.schema.check(value, where)
        problem = self.rule(value)
        if problem is not None:
            _fail(where, problem)


@dataclass(frozen=True, slots=True)
class ActionSchema(Schema):
    """A seat's action in :func:`hexlan.engine.actions.action_to_list` form.

    Never a chance outcome, except :class:`~hexlan.engine.actions.RevealVictory`: the winner
    reveals its own hidden victory point cards.

    The action must decode with ``action_from_list`` and encode back to exactly the same form.
    """

    def check(self, value: object, where: str) -> None:
        if not _is_array(value) or not value:
            _fail(where, f"expected an action [type, field, ...], got {_show(value)}")
        assert isinstance(value, (list, tuple))
        if not isinstance(value[0], str) or len(value) > 8:
            _fail(where, f"expected an action [type, field, ...], got {_show(value)}")
        plain = _thaw(value)
        try:
            action = action_from_list(plain)
        except EngineError as exc:
            _fail(where, str(exc))
            return
        if isinstance(action, CHANCE_ACTIONS) and not (
            isinstance(action, RevealVictory) or getattr(action, "revealed", False)
        ):
            _fail(where, f"{value[0]} is a chance outcome, never a seat's action")
        if action_to_list(action) != plain:
            _fail(where, f"{value[0]} is not in canonical form: {plain!r}")


@dataclass(frozen=True, slots=True)
class PublicKey(Schema):
    """A raw 32-byte public key that ``accept`` takes (it raises :class:`WeakKeyError`):
    :func:`~hexlan.net.identity.check_ed25519_public` or
    :func:`~hexlan.net.identity.check_x25519_public`."""

    accept: Callable[[object], None]

    def check(self, value: object, where: str) -> None:
        Bytes(32, 32).check(value, where)
        try:
            self.accept(value)
        except WeakKeyError as exc:
            _fail(where, exc.reason)


# Field schemas shared by several kinds.
_U32: Final = Int(0, _U32_MAX)
_HASH: Final = Bytes(32, 32)
_KEY: Final = Bytes(32, 32)
_SIGNATURE: Final = Bytes(64, 64)
_ED25519_KEY: Final = PublicKey(check_ed25519_public)
_X25519_KEY: Final = PublicKey(check_x25519_public)
_SEAT: Final = Int(0, WIRE_SEATS - 1)
_POINT: Final = Bytes(32, 32)
_PROOF: Final = Bytes(64, 64)  # challenge scalar || response scalar
_REENCRYPTION_PROOF: Final = Bytes(96, 96)  # challenge || two responses (§7.3)
_DECK_NAME: Final = Text(1, 32)
_POSITION: Final = Int(0, MAX_DECK - 1)
_CARD: Final = Int(0, MAX_DECK - 1)  # a card index of the deck
_EVENT: Final = Int(1, _U32_MAX)
_NAME: Final = Text(1, 32)
_VERSION_TEXT: Final = Text(1, 64)
_PORT: Final = Int(0, 65535)


def _head_rule(head: Any) -> str | None:
    seq, id_ = head
    if (seq == -1) != (id_ == ZERO_ID):
        return "a head is [-1, 32 zero bytes] for none, else [seq >= 0, a message id]"
    return None


_HEADS: Final = Array(
    Where(_record(("seq", Int(-1, _U32_MAX)), ("id", _HASH)), _head_rule), 0, WIRE_SEATS
)


def _ascending_distinct(values: Any) -> str | None:
    if any(a >= b for a, b in itertools.pairwise(values)):
        return f"must be distinct and ascending, got {list(values)}"
    return None


OWED_STEPS: Final = (
    "sign_opening",
    "reveal",
    "deck_key",
    "shuffle",
    "shuffle_proof",
    "draw_share",
    "steal_commit",
    "steal_open",
    "loot_open",
    "hand_open",
    "spy_open",
    "count",
    "card_show",
    "turn_ack",
    "advance",
    "audit_secrets",
    "audit_result",
    "victory",
    "decision",
)
"""The steps an ``abandon`` can say a missing seat owed (§11): the automatic steps, and a
decision (a seat that is gone while the game waits for its move)."""

_OWED_STEP: Final = _record(("step", OneOfText(OWED_STEPS)), ("number", Int(-1, _U32_MAX)))


def _one_step_per_seat(payload: Any) -> str | None:
    missing, _, owed = payload
    if len(owed) != len(missing):
        return f"owed must name one step per missing seat: {len(owed)} for {len(missing)}"
    return None


def _fingerprint_rule(entry: Any) -> str | None:
    _, public_key, shown = entry
    expected = fingerprint(public_key)
    return None if shown == expected else f"fingerprint {shown!r} is not {expected!r} of the key"


def _game_rule(name: Any) -> str | None:
    if name == BASE_GAME:
        return f"the {BASE_GAME} game is named by leaving the game out"
    if name not in GAMES:
        return f"unknown game {name!r}; this peer plays {', '.join(GAMES)}"
    return None


def _game_entry(payload: Any, index: int) -> str:
    """The game an optional trailing entry names, :data:`BASE_GAME` when it is left out."""
    return str(payload[index]) if len(payload) > index else BASE_GAME


def _seat_range_problem(game: str, seats: int) -> str | None:
    fewest, most = seat_range(game)
    if not fewest <= seats <= most:
        return f"the {game} game takes {fewest}..{most} seats, not {seats}"
    return None


def board_kinds(game: str = BASE_GAME) -> tuple[str, ...]:
    """The board kinds an opening of ``game`` may name: "beginner" when the game's map has a
    fixed beginner layout (the base map does; the 5-6 player map does not), and "random".

    Raises:
        EngineError: an unknown game, or a map file that cannot be loaded.

    A game with a state of its own (Landnám) starts from a board chance lays or explores: its
    only kind is "random".

    >>> board_kinds(), board_kinds("five-six"), board_kinds("landnam")
    (('beginner', 'random'), ('random',), ('random',))
    """
    if state_spec(game) is not None:
        return ("random",)
    rules = load_ruleset(game)
    board_map = load_map(rules.board, rules.terrains)
    return BOARD_KINDS if board_map.beginner is not None else ("random",)


def _lobby_rule(payload: Any) -> str | None:
    max_seats, seats = payload[0], payload[1]
    if len(seats) > max_seats:
        return f"{len(seats)} seats taken at a table of {max_seats}"
    game = _game_entry(payload, 2)
    if len(payload) == 3 and game == BASE_GAME:
        return f"the {BASE_GAME} game is named by leaving the game out"
    if len(payload) == 4:
        return "a table's board_kind and options come together"
    if len(payload) > 2 and game not in GAMES:
        return f"unknown game {game!r}; this peer plays {', '.join(GAMES)}"
    problem = _seat_range_problem(game, max_seats)
    if problem is None and len(payload) == 5 and payload[3] not in board_kinds(game):
        problem = f"the {game} game's map has no {payload[3]} board"
    return problem or _distinct(seats, 1, "public key")


def _opening_rule(payload: Any) -> str | None:
    game = _game_entry(payload, 6)
    problem = _seat_range_problem(game, len(payload[2]))
    if problem is None and payload[4] not in board_kinds(game):
        problem = f"the {game} game's map has no {payload[4]} board"
    return problem


def _distinct(rows: Any, column: int, what: str) -> str | None:
    values = [row[column] for row in rows]
    if len(set(values)) != len(values):
        return f"two seats share one {what}"
    return None


def _seats_rule(seats: Any) -> str | None:
    return (
        _distinct(seats, 1, "public key")
        or _distinct(seats, 2, "X25519 key")
        or _distinct(seats, 3, "chain commitment")
    )


_OPTION_TYPES: Final[Mapping[str, tuple[type, ...]]] = MappingProxyType(GameOptions.kinds())
"""The value types each game option takes (every game's, by name)."""


def _options_rule(options: Any) -> str | None:
    names = [name for name, _ in options]
    if any(a >= b for a, b in itertools.pairwise(names)):
        return f"option names must be distinct and sorted, got {names}"
    for name, value in options:
        kinds = _OPTION_TYPES.get(name)
        if kinds is None:
            return f"unknown game option {name!r}"
        if type(value) not in kinds:
            allowed = " or ".join("nil" if k is type(None) else k.__name__ for k in kinds)
            return f"game option {name} takes {allowed}, not {value!r}"
    try:
        GameOptions.from_dict(dict(options))
    except EngineError as exc:  # pragma: no cover - the rules above already cover from_dict
        return str(exc)
    return None


def _deck_bytes_rule(data: Any) -> str | None:
    if len(data) % _CIPHERTEXT:
        return f"a deck is a whole number of {_CIPHERTEXT}-byte ciphertexts, not {len(data)} bytes"
    return None


def _points_rule(data: Any) -> str | None:
    if len(data) % _SCALAR_BYTES:
        return f"a list of points or scalars is a whole number of 32-byte entries, not {len(data)}"
    return None


def _shuffle_proof_rule(payload: Any) -> str | None:
    _, permutation, chain, _, responses = payload
    n = len(permutation) // _SCALAR_BYTES
    if len(chain) != len(permutation):
        return "the chain must hold as many points as the permutation commitment"
    if len(responses) != _SCALAR_BYTES * (2 * n + PROOF_RESPONSES_BASE):
        return f"a proof of {n} cards has {2 * n + PROOF_RESPONSES_BASE} response scalars"
    return None


def _spy_take_rule(payload: Any) -> str | None:
    _, deck, position = payload
    if (deck == "") != (position == -1):
        return 'a take names a deck and a position, or "" and -1 for none'
    return None


def _one_proof_per_position_rule(payload: Any) -> str | None:
    _, _, positions, proof = payload
    if len(proof) != len(positions):
        return f"one proof per listed position: {len(positions)} positions, {len(proof)} proofs"
    return None


_DECK: Final = Where(Bytes(2 * _CIPHERTEXT, MAX_DECK * _CIPHERTEXT), _deck_bytes_rule)
_POINTS: Final = Where(Bytes(2 * _SCALAR_BYTES, MAX_DECK * _SCALAR_BYTES), _points_rule)
_RESPONSES: Final = Where(
    Bytes(
        _SCALAR_BYTES * (2 * 2 + PROOF_RESPONSES_BASE),
        _SCALAR_BYTES * (2 * MAX_DECK + PROOF_RESPONSES_BASE),
    ),
    _points_rule,
)
_DEVIATION: Final = _record(
    ("seat", Int(-1, WIRE_SEATS - 1)),
    ("message_id", Bytes(0, 32)),
    ("reason", Text(1, 500)),
)

_SEAT_ENTRY: Final = _record(
    ("name", _NAME),
    ("public_key", _ED25519_KEY),
    ("x25519_public", _X25519_KEY),
    ("chain_commitment", _HASH),
    ("host", Text(0, 253)),
    ("port", _PORT),
)

_OPTION: Final = _record(
    ("name", Text(1, 64)),
    (
        "value",
        AnyOf((Int(-(2**31), 2**31 - 1), Bool(), Nil()), "an integer, a bool or nil"),
    ),
)

_GAME: Final = Where(Text(1, 32), _game_rule)

_OPENING: Final = Where(
    _record(
        ("protocol_version", _U32),
        ("engine_version", _VERSION_TEXT),
        ("seats", Where(Array(_SEAT_ENTRY, 2, MAX_SEATS), _seats_rule)),
        ("options", Where(Array(_OPTION, 0, 64), _options_rule)),
        ("board_kind", OneOfText(BOARD_KINDS)),
        ("created", Int(0, 2**63 - 1)),
        ("game", _GAME),  # left out for the base game, so base openings keep their bytes
        optional=1,
    ),
    _opening_rule,
)

PAYLOAD_SCHEMAS: Final[Mapping[str, Schema]] = MappingProxyType(
    {
        # Lobby (author -1, game id ZERO_ID): sections 3 and 8.
        "challenge": _record(
            ("public_key", _ED25519_KEY), ("nonce", Bytes(LOBBY_NONCE_BYTES, LOBBY_NONCE_BYTES))
        ),
        "hello": _record(
            ("name", _NAME),
            ("public_key", _ED25519_KEY),
            ("protocol_version", _U32),
            ("engine_version", _VERSION_TEXT),
            ("x25519_public", _X25519_KEY),
            ("chain_commitment", _HASH),
            ("listen_port", _PORT),
            ("nonce", Bytes(LOBBY_NONCE_BYTES, LOBBY_NONCE_BYTES)),
        ),
        "refuse": _record(("reason", Text(1, 500))),
        "lobby_state": Where(
            _record(
                ("max_seats", Int(2, MAX_SEATS)),
                (
                    "seats",
                    Array(
                        Where(
                            _record(
                                ("name", _NAME),
                                ("public_key", _ED25519_KEY),
                                ("fingerprint", Text(19, 19)),
                            ),
                            _fingerprint_rule,
                        ),
                        0,
                        MAX_SEATS,
                    ),
                ),
                # Left out for the base game, unless the table's terms follow: then named.
                ("game", Text(1, 32)),
                ("board_kind", OneOfText(BOARD_KINDS)),  # these two: only when either
                ("options", Where(Array(_OPTION, 0, 64), _options_rule)),  # is not the default
                optional=3,
            ),
            _lobby_rule,
        ),
        "start": _record(("opening", _OPENING)),
        "link_hello": _record(
            ("game_id", _HASH),
            ("seat", _SEAT),
            ("nonce", Bytes(16, 16)),
            ("heads", _HEADS),
        ),
        "link_proof": _record(("signature", _SIGNATURE)),
        # Spectators (author -1, game id ZERO_ID): section 17.
        "watch": _record(
            ("name", _NAME),
            ("public_key", _ED25519_KEY),
            ("protocol_version", _U32),
            ("engine_version", _VERSION_TEXT),
            ("nonce", Bytes(LOBBY_NONCE_BYTES, LOBBY_NONCE_BYTES)),
            ("heads", _HEADS),
        ),
        "catch_up": _record(("heads", _HEADS)),
        # Rematch (author -1, game id ZERO_ID): section 3, "Rematch".
        "rematch": _record(
            ("game_id", _HASH),
            ("public_key", _ED25519_KEY),
            ("agree", Bool()),
            ("nonce", Bytes(LOBBY_NONCE_BYTES, LOBBY_NONCE_BYTES)),
        ),
        "spectators": _record(
            (
                "spectators",
                Array(
                    Where(
                        _record(
                            ("name", _NAME),
                            ("public_key", _ED25519_KEY),
                            ("fingerprint", Text(19, 19)),
                        ),
                        _fingerprint_rule,
                    ),
                    0,
                    MAX_SPECTATORS,
                ),
            )
        ),
        # Game (author 0..5, the game's id): section 5.
        "sign_opening": _record(("opening", _OPENING)),
        "action": _record(("action", ActionSchema())),
        "advance": _record(),
        "reveal": _record(("event", _EVENT), ("preimage", _HASH)),
        "steal_commit": _record(("steal", _EVENT), ("commitments", Array(_HASH, 1, MAX_CARDS))),
        "steal_open": _record(
            ("steal", _EVENT),
            ("nonce", Bytes(12, 12)),
            ("ciphertext", Bytes(16, 64)),  # ChaCha20-Poly1305: at least the 16-byte tag
        ),
        "steal_dispute": _record(("steal", _EVENT), ("x25519_private", _KEY)),
        "loot_open": _record(
            ("steal", _EVENT),
            (
                "openings",
                Array(_record(("salt", Bytes(16, 16)), ("card", Int(0, 7))), 1, MAX_CARDS),
            ),
        ),
        "hand_open": _record(
            ("steal", _EVENT),
            ("nonce", Bytes(12, 12)),
            # every card's salt || kind (17 bytes each) and the 16-byte tag
            ("ciphertext", Bytes(16 + 17, 16 + 17 * MAX_CARDS)),
        ),
        "merchant_take": _record(
            ("steal", _EVENT),
            ("positions", Array(Int(0, MAX_CARDS - 1), 1, 2)),
        ),
        "spy_open": _record(
            ("spy", _EVENT),
            (
                "items",
                Array(
                    _record(
                        ("deck", _DECK_NAME),
                        ("position", _POSITION),
                        ("a", _POINT),
                        ("b", _POINT),
                        ("proof", _REENCRYPTION_PROOF),
                    ),
                    1,
                    MAX_DECK,
                ),
            ),
        ),
        "spy_take": Where(
            _record(("spy", _EVENT), ("deck", Text(0, 32)), ("position", Int(-1, MAX_DECK - 1))),
            _spy_take_rule,
        ),
        "spy_dispute": _record(
            ("spy", _EVENT),
            ("deck", _DECK_NAME),
            ("position", _POSITION),
            ("share", _POINT),
            ("proof", _PROOF),
        ),
        # ``monopoly``: the Monopoly's number in its turn, left out for the first (§5)
        "count": _record(
            ("turn", _EVENT), ("n", Int(0, MAX_CARDS)), ("monopoly", Int(1, 63)), optional=1
        ),
        "turn_ack": _record(
            ("turn", _U32),
            ("public_state_hash", _HASH),
            ("trail", Array(Bytes(8, 8), 0, 4096)),
        ),
        "abandon": Where(
            _record(
                ("missing_seats", Where(Array(_SEAT, 1, WIRE_SEATS), _ascending_distinct)),
                ("last_heads", _HEADS),
                ("owed", Array(_OWED_STEP, 1, WIRE_SEATS)),
            ),
            _one_step_per_seat,
        ),
        "present": _record(("vote", _HASH)),
        # An accusation: the message contested and why (§11.1).
        "accuse": _record(("message_id", _HASH), ("reason", Text(1, 500))),
        # The mental-poker deck and the end-of-game audit: sections 13 and 14.
        "deck_key": _record(("share", _POINT), ("proof", _PROOF)),
        "shuffle": _record(("deck", _DECK_NAME), ("output", _DECK)),
        "shuffle_proof": Where(
            _record(
                ("deck", _DECK_NAME),
                ("permutation", _POINTS),
                ("chain", _POINTS),
                ("challenge", Bytes(_SCALAR_BYTES, _SCALAR_BYTES)),
                ("responses", _RESPONSES),
            ),
            _shuffle_proof_rule,
        ),
        "draw_share": _record(
            ("deck", _DECK_NAME), ("position", _POSITION), ("share", _POINT), ("proof", _PROOF)
        ),
        "card_reveal": Where(
            _record(
                ("deck", _DECK_NAME),
                ("card", _CARD),
                ("positions", Where(Array(_POSITION, 1, MAX_DECK), _ascending_distinct)),
                ("proof", Array(_PROOF, 1, MAX_DECK)),
            ),
            _one_proof_per_position_rule,
        ),
        "audit_secrets": _record(("seed", _HASH), ("x25519_private", _KEY)),
        "audit_result": _record(("digest", _HASH), ("deviations", Array(_DEVIATION, 0, 64))),
    }
)
"""kind -> schema of its payload (docs/PROTOCOL.md sections 3, 5, 8): the one place they live."""

LOBBY_KINDS: Final = frozenset(
    {
        "challenge",
        "hello",
        "refuse",
        "lobby_state",
        "start",
        "link_hello",
        "link_proof",
        "watch",
        "catch_up",
        "spectators",
        "rematch",
    }
)
"""Kinds sent in lobby envelopes: author -1, game id :data:`ZERO_ID`."""

GAME_KINDS: Final = frozenset(PAYLOAD_SCHEMAS) - LOBBY_KINDS
"""Kinds sent in a game: author 0..5, the game's id, ``sign_opening`` exactly at seq 0."""

KINDS: Final = frozenset(PAYLOAD_SCHEMAS)
"""Every kind this version knows."""


def validate_payload(kind: str, payload: object) -> None:
    """Check ``payload`` against the schema of ``kind`` (lists and tuples both count as arrays).

    Raises:
        MalformedMessage: an unknown kind, or the payload breaks the kind's schema; the reason
            names the field, e.g. ``"reveal payload.preimage: expected 32 bytes, got 31"``.

    >>> validate_payload("count", (3, 20))
    >>> validate_payload("count", (3, 132))
    Traceback (most recent call last):
    hexlan.net.wire.MalformedMessage: count payload.n: 132 is outside 0..131
    """
    schema = PAYLOAD_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MalformedMessage(f"unknown message kind {_show(kind)}")
    schema.check(payload, f"{kind} payload")


def encode_action(action: Action) -> tuple[Any, ...]:
    """The ``action`` payload for a player action: ``(action_to_list(action),)`` as tuples."""
    return (_freeze(action_to_list(action)),)


def decode_action(payload: tuple[Any, ...], kinds: Sequence[Resource] | None = None) -> Action:
    """The engine action in an ``action`` payload, for a game whose card kinds are ``kinds``
    (its rule set's ``cards``, as the session passes them): a hand in it lists exactly one count
    per kind, and a field naming a kind is the game's kind. Without ``kinds``, the shape alone
    (:func:`~hexlan.engine.registry.action_from_list`: 1 to 8 counts, catalogue kinds).

    Raises:
        MalformedMessage: the payload does not fit the ``action`` schema, or its hands or kinds
            are not the game's.
    """
    validate_payload("action", payload)
    try:
        return action_from_list(_thaw(payload[0]), kinds)
    except EngineError as exc:
        raise MalformedMessage(f"action: {exc}") from exc


# --------------------------------------------------------------------------------------------
# The opening (section 3)


def _as_local(exc: RemoteProtocolError) -> LocalProtocolError:
    return LocalProtocolError(exc.reason)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of the opening: ``[name, public_key, x25519_public, chain_commitment, host,
    port]``.

    ``host`` and ``port`` are where the seat listens for the game's TCP mesh (section 8); the
    host seat may leave ``host`` empty, meaning "the address you reached the host at".

    Raises:
        LocalProtocolError: a field breaks the schema (constructing).
    """

    name: str
    public_key: bytes
    x25519_public: bytes
    chain_commitment: bytes
    host: str = ""
    port: int = 0

    def __post_init__(self) -> None:
        try:
            _SEAT_ENTRY.check(self.to_payload(), "seat")
        except RemoteProtocolError as exc:
            raise _as_local(exc) from None

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the seat's identity key."""
        return fingerprint(self.public_key)

    def to_payload(self) -> tuple[Any, ...]:
        """The seat entry as the opening carries it."""
        return (
            self.name,
            self.public_key,
            self.x25519_public,
            self.chain_commitment,
            self.host,
            self.port,
        )

    @classmethod
    def from_payload(cls, entry: object) -> SeatInfo:
        """A seat from its entry in an opening.

        Raises:
            MalformedMessage: the entry breaks the schema.
        """
        _SEAT_ENTRY.check(entry, "seat")
        assert isinstance(entry, (list, tuple))
        return cls(*entry)


def option_entries(options: GameOptions) -> tuple[tuple[str, OptionValue], ...]:
    """The opening's ``options``: every option as ``(name, value)``, sorted by name.

    >>> option_entries(GameOptions())[:2]
    (('knight_only_before_roll', False), ('largest_army', True))
    """
    return tuple(sorted(options.to_dict().items()))


@dataclass(frozen=True, slots=True)
class Opening:
    """The opening payload ``[protocol_version, engine_version, seats, options, board_kind,
    created]``, then ``game`` unless the game is the base game (docs/PROTOCOL.md section 3),
    checked when constructed.

    Attributes:
        protocol_version: the protocol the game is played in (:data:`PROTOCOL_VERSION`).
        engine_version: the rules engine's version string.
        seats: 2..6 seats in seat order (the host first); keys distinct; as many as the game's
            rule set takes (2..4 in the base game, 5..6 in the 5-6 player game).
        options: ``(name, value)`` pairs sorted by name, each a :class:`GameOptions` field
            (:func:`option_entries` makes them).
        board_kind: "beginner" or "random" (:func:`board_kinds`: a map without a beginner
            layout offers only "random").
        created: seconds since the epoch (informative only).
        game: the game's name, one of :data:`hexlan.engine.ruleset.GAMES` (seeds/<game>.toml);
            the payload leaves it out for :data:`BASE_GAME`, so a base game's opening, game id
            and log bytes are those of an opening without games.

    Raises:
        LocalProtocolError: a field breaks the schema (constructing).
    """

    protocol_version: int
    engine_version: str
    seats: tuple[SeatInfo, ...]
    options: tuple[tuple[str, OptionValue], ...]
    board_kind: BoardKind
    created: int
    game: str = BASE_GAME

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "options", _freeze(self.options))
        if not all(isinstance(seat, SeatInfo) for seat in self.seats):
            raise LocalProtocolError("Opening.seats must hold SeatInfo values")
        if not isinstance(self.game, str):
            raise LocalProtocolError(f"Opening.game is a game's name, not {self.game!r}")
        try:
            _OPENING.check(self.to_payload(), "opening")
        except RemoteProtocolError as exc:
            raise _as_local(exc) from None

    @classmethod
    def from_payload(cls, payload: object) -> Opening:
        """The opening in a ``start`` or ``sign_opening`` payload's first item.

        Raises:
            MalformedMessage: the payload breaks the opening schema (an unknown game, a game
                named "base", a seat count outside the game's range, a board its map lacks...).
        """
        _OPENING.check(payload, "opening")
        assert isinstance(payload, (list, tuple))
        version, engine, seats, options, board_kind, created = payload[:6]
        return cls(
            version,
            engine,
            tuple(SeatInfo(*seat) for seat in seats),
            _freeze(options),
            board_kind,
            created,
            _game_entry(payload, 6),
        )

    def to_payload(self) -> tuple[Any, ...]:
        """The opening payload as nested tuples (what ``start`` and ``sign_opening`` carry)."""
        payload = (
            self.protocol_version,
            self.engine_version,
            tuple(seat.to_payload() for seat in self.seats),
            self.options,
            self.board_kind,
            self.created,
        )
        return payload if self.game == BASE_GAME else (*payload, self.game)

    @property
    def game_id(self) -> bytes:
        """``H(b"hexlan/v1/game\\0" || msgpack(opening payload))`` (section 3)."""
        return hashlib.sha256(GAME_ID_PREFIX + pack(self.to_payload())).digest()

    def game_options(self) -> GameOptions:
        """The options as the engine takes them."""
        return GameOptions.from_dict(dict(self.options))

    def rules(self) -> RuleSet:
        """The game's rule set (seeds/<game>.toml; loaded once per process).

        Raises:
            EngineError: a game with a state of its own (:attr:`own_state`), which has no
                Catan rule set.
        """
        return load_ruleset(self.game)

    @property
    def own_state(self) -> bool:
        """Whether the game has a state of its own, made by its spec's state factory
        (:func:`~hexlan.engine.ruleset.state_spec`: Landnám) rather than a Catan rule set."""
        return state_spec(self.game) is not None


# --------------------------------------------------------------------------------------------
# Bodies and envelopes (section 2)


def message_id(body_bytes: bytes) -> bytes:
    """The id of a message: ``H(b"hexlan/v1/id\\0" || body)``, the body bytes as received.

    >>> message_id(b"").hex()[:16]
    '2385b86a20ace14a'
    """
    return hashlib.sha256(MESSAGE_ID_PREFIX + body_bytes).digest()


def _check_body(body: Body) -> None:
    """Every stateless rule on a body (section 2, plus the kind's payload schema).

    Raises:
        RemoteProtocolError: :class:`VersionMismatch` or :class:`MalformedMessage`.
    """
    version = body.version
    if type(version) is not int:
        _fail("version", f"expected an integer, got {_show(version)}")
    if version != PROTOCOL_VERSION:
        raise VersionMismatch(
            f"this message speaks hexlan protocol {version}; this peer speaks {PROTOCOL_VERSION}",
            version=version,
        )
    kind = body.kind
    if not isinstance(kind, str) or kind not in PAYLOAD_SCHEMAS:
        _fail("kind", f"unknown message kind {_show(kind)}")
    _HASH.check(body.game_id, "game_id")
    Int(-1, WIRE_SEATS - 1).check(body.author, "author")
    _U32.check(body.seq, "seq")
    _HASH.check(body.prev, "prev")
    _HEADS.check(body.heads, "heads")
    if body.seq == 0 and body.prev != ZERO_ID:
        _fail("prev", "must be 32 zero bytes at seq 0")
    if kind in LOBBY_KINDS:
        if body.author != -1 or body.game_id != ZERO_ID:
            _fail(kind, "a lobby message has author -1 and a zero game id")
    else:
        if body.author == -1 or body.game_id == ZERO_ID:
            _fail(kind, "a game message has a seat (0..5) as author and the game's id")
        if (kind == "sign_opening") != (body.seq == 0):
            _fail(kind, "sign_opening is exactly each seat's message at seq 0")
        if body.seq > 0 and body.prev == ZERO_ID:
            _fail("prev", f"must be the id of message {body.seq - 1}, not zero bytes")
    if not isinstance(body.payload, tuple):
        _fail("payload", f"expected an array, got {_show(body.payload)}")
    PAYLOAD_SCHEMAS[kind].check(body.payload, f"{kind} payload")


@dataclass(frozen=True, slots=True)
class Body:
    """The signed part of a message: ``[version, game_id, author, seq, prev, heads, kind,
    payload]`` (docs/PROTOCOL.md section 2).

    Lists given for ``heads`` and ``payload`` are stored as nested tuples; bytes stay bytes.
    Construction checks every stateless rule: field types and ranges, lobby kinds (author -1,
    game id :data:`ZERO_ID`) against game kinds (a seat, the game's id, ``sign_opening`` exactly
    at seq 0), ``prev`` zero exactly at seq 0, and the kind's payload schema.

    Raises:
        LocalProtocolError: the body breaks a rule (its reason says which).
    """

    version: int
    game_id: bytes
    author: int
    seq: int
    prev: bytes
    heads: tuple[tuple[int, bytes], ...]
    kind: str
    payload: tuple[Any, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", _freeze(self.heads))
        object.__setattr__(self, "payload", _freeze(self.payload))
        try:
            _check_body(self)
        except RemoteProtocolError as exc:
            raise _as_local(exc) from None

    def encode(self) -> bytes:
        """The body's msgpack bytes (the array above; tuples packed as arrays)."""
        data: bytes = msgpack.packb(
            [
                self.version,
                self.game_id,
                self.author,
                self.seq,
                self.prev,
                self.heads,
                self.kind,
                self.payload,
            ],
            use_bin_type=True,
        )
        return data


@dataclass(frozen=True, slots=True, repr=False)
class Envelope:
    """A message as received or sent: the body bytes, their signature, the decoded body, its id.

    ``body`` is decoded from ``body_bytes`` exactly as received, and ``id`` is
    :func:`message_id` of those bytes; nothing is ever re-encoded. A parsed envelope is
    well-formed but not yet authentic: call :meth:`verify` with the author's key.

    Raises:
        LocalProtocolError: (constructing) a signature that is not 64 bytes or an ``id`` that is
            not the body bytes' id.
    """

    body_bytes: bytes
    signature: bytes
    body: Body
    id: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.signature, bytes) or len(self.signature) != 64:
            raise LocalProtocolError("an envelope's signature is 64 bytes")
        if not isinstance(self.body_bytes, bytes) or self.id != message_id(self.body_bytes):
            raise LocalProtocolError("an envelope's id is the message id of its body bytes")

    def __repr__(self) -> str:
        b = self.body
        return f"Envelope(kind={b.kind!r}, author={b.author}, seq={b.seq}, id={self.id.hex()[:16]})"

    def to_bytes(self) -> bytes:
        """The envelope on the wire: msgpack ``[body_bytes, signature]``."""
        data: bytes = msgpack.packb([self.body_bytes, self.signature], use_bin_type=True)
        return data

    @staticmethod
    def parse(data: bytes) -> Envelope:
        """Decode and check an envelope (not its signature: see :meth:`verify`).

        Checks, in order: size (at most :data:`MAX_ENVELOPE`), msgpack limits, the shape
        ``[bytes, 64 bytes]``, the body's version, then every rule :class:`Body` checks.

        Raises:
            VersionMismatch: the body speaks another protocol version.
            MalformedMessage: anything else wrong, with the reason.
            LocalProtocolError: ``data`` is not bytes.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise LocalProtocolError(f"Envelope.parse takes bytes, not {type(data).__name__}")
        if len(data) > MAX_ENVELOPE:  # before the cache: it keeps no oversized bytes
            raise MalformedMessage(
                f"an envelope of {len(data)} bytes is larger than the {MAX_ENVELOPE}-byte limit"
            )
        return _parse_envelope(bytes(data))

    def verify(self, public_key: bytes) -> None:
        """Check the signature over ``SIGNING_PREFIX || body_bytes`` under a raw Ed25519 key.

        Raises:
            ForgedSignature: the signature does not verify (tampered bytes, another signer), or
                the key is weak or non-canonical (:func:`~hexlan.net.identity.
                check_ed25519_public`), under which no signature proves anything.
            LocalProtocolError: ``public_key`` is not 32 bytes.
        """
        if not isinstance(public_key, bytes) or len(public_key) != 32:
            raise LocalProtocolError(f"an Ed25519 public key is 32 bytes, not {public_key!r}")
        b = self.body
        try:
            check_ed25519_public(public_key)
        except WeakKeyError as exc:
            raise ForgedSignature(
                f"the signature on {b.kind} #{b.seq} (author {b.author}) proves nothing: "
                f"{exc.reason}"
            ) from None
        if not _signature_holds(public_key, self.signature, self.body_bytes):
            raise ForgedSignature(
                f"the signature on {b.kind} #{b.seq} (author {b.author}) does not verify "
                f"under key {fingerprint(public_key)}"
            )


PARSE_CACHE: Final = 2048
"""Envelopes :meth:`Envelope.parse` keeps parsed, and signatures :meth:`Envelope.verify` keeps
checked, by their exact bytes: several seats played in one process (an in-process table of
bots) or a log read twice decode and verify each message once. Both are pure functions of the
bytes, and an envelope is immutable, so sharing one changes nothing a caller can see."""


@functools.lru_cache(maxsize=PARSE_CACHE)
def _parse_envelope(data: bytes) -> Envelope:
    """:meth:`Envelope.parse` of bytes (failures are raised, never kept)."""
    outer = unpack(data)
    if not isinstance(outer, list) or len(outer) != 2:
        raise MalformedMessage(f"an envelope is [body, signature], got {_show(outer)}")
    body_bytes, signature = outer
    if not isinstance(body_bytes, bytes):
        raise MalformedMessage(f"an envelope's body is bytes, got {_show(body_bytes)}")
    if not isinstance(signature, bytes) or len(signature) != 64:
        raise MalformedMessage(f"an envelope's signature is 64 bytes, got {_show(signature)}")
    fields_ = unpack(body_bytes)
    if not isinstance(fields_, list) or not fields_:
        raise MalformedMessage(f"a body is an array of 8 fields, got {_show(fields_)}")
    version = fields_[0]
    if type(version) is int and version != PROTOCOL_VERSION:
        raise VersionMismatch(
            f"this message speaks hexlan protocol {version}; this peer speaks {PROTOCOL_VERSION}",
            version=version,
        )
    if len(fields_) != 8:
        raise MalformedMessage(
            "a body is [version, game_id, author, seq, prev, heads, kind, payload], "
            f"got {len(fields_)} fields"
        )
    if not isinstance(fields_[7], list):
        raise MalformedMessage(f"payload: expected an array, got {_show(fields_[7])}")
    try:
        body = Body(*fields_)
    except LocalProtocolError as exc:
        raise MalformedMessage(exc.reason) from None
    return Envelope(body_bytes, signature, body, message_id(body_bytes))


@functools.lru_cache(maxsize=PARSE_CACHE)
def _signature_holds(public_key: bytes, signature: bytes, body_bytes: bytes) -> bool:
    """Whether ``signature`` verifies over ``SIGNING_PREFIX || body_bytes`` under the raw
    Ed25519 ``public_key`` (a key the caller checked is not weak)."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(
            signature, SIGNING_PREFIX + body_bytes
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def sign_body(body: Body, key: Ed25519PrivateKey | Identity) -> Envelope:
    """Sign a body: the Ed25519 signature of ``SIGNING_PREFIX || body.encode()``.

    ``key`` is an Ed25519 private key or a :class:`~hexlan.net.identity.Identity`.

    Raises:
        LocalProtocolError: the envelope would exceed :data:`MAX_ENVELOPE` bytes.
    """
    body_bytes = body.encode()
    signature = key.sign(SIGNING_PREFIX + body_bytes)
    envelope = Envelope(body_bytes, signature, body, message_id(body_bytes))
    size = len(envelope.to_bytes())
    if size > MAX_ENVELOPE:
        raise LocalProtocolError(
            f"a {body.kind} envelope of {size} bytes exceeds the {MAX_ENVELOPE}-byte limit"
        )
    return envelope
