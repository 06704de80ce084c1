"""Fuzz the envelope decoder and a live session with mutated messages from a real game log.

Usage: python scripts/fuzz.py [--inputs 100000] [--session-inputs 10000] [--seed 0]
                              [--players 2] [--jobs 2] [--max-growth-mb 64] [--junk-mb 0] [--json]

How it works: one seeded game between heuristic bots is played in memory
(net/inproc.InProcessTable, seats keyed by :meth:`~hexlan.net.inproc.SeatKeys.seeded`, so every
seat's signing key is known here) and seat 0's log, every message of the game, is the corpus.
Each input is one corpus message mutated by a seeded :class:`random.Random` (a test tool, never
a fairness source):

- *raw* mutations of the envelope bytes: bit flips, truncation, insertion, deletion, overwrites,
  splices of two messages, oversized inputs (past the 256 KiB envelope limit, huge length
  headers, 4097-item arrays, 5000-character strings, 2^64 integers), deeply nested msgpack
  (alone, and as the body's payload), random junk;
- *re-signed* mutations: the body decoded, one field or payload item replaced (a boundary
  integer, bytes of a neighbouring length, a control character, a float, a map, an ext type, an
  item dropped or repeated, a nudged integer or a flipped bit that keeps the schema, another
  message's payload or kind...), or its bytes flipped, then signed by the real key of the seat
  it claims as author: a valid signature over a bad payload.

Targets:

- *decoder*: :meth:`Envelope.parse` (msgpack limits, shape, :class:`~hexlan.net.wire.Body`'s
  checks), then for what it accepts :func:`validate_payload`, :func:`decode_action` or
  :meth:`Opening.from_payload`, and :meth:`Envelope.verify` under the claimed seat's key.
  Expected outcomes: success, or a :class:`~hexlan.net.wire.RemoteProtocolError`.
- *session*: seat 0's :class:`~hexlan.net.session.Session` restored mid-game (the log replayed
  up to a cut drawn per chunk of inputs), then :meth:`Session.receive` of each input. Each
  outcome is classified: *rejected* (only :class:`Rejected` effects), *ignored* (no effect: a
  duplicate), *held* (no effect, but a validly signed message now waits for its predecessors),
  *accepted* (the message was persisted or applied), *stopped* (:class:`Stopped`: a validly
  signed message broke a rule). For rejected and ignored inputs the session's heads, applied
  sequence numbers, log length, waiting messages, public state hash and view hash (the view's
  public and hidden state and every seat's possible hands) must be as before: any difference is
  a *state change*. A held input is checked the same way but for its waiting message, which
  is then dropped. An accepted or stopped input may change the session legitimately (its
  signature is real), so the session is restored from a snapshot after one.

The run fails (exit 1) on any *unexpected* outcome (an exception other than the protocol's own
rejections, a decoder that accepts what its schema refuses), on any state change, or when the
resident set grows by more than ``--max-growth-mb`` between the end of a warm-up and the end of
the run (measured per worker process). ``--junk-mb N`` also times ``hexlan verify`` on N MB of
random bytes (it must exit 2 with a one-line reason). The last line with ``--json`` is one JSON
object of counts and rates. Figures are printed, never asserted (../shared/ARCHITECTURE.md:
scripts/).
"""

from __future__ import annotations

import argparse
import copy
import functools
import hashlib
import json
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from hexlan.engine.bots import make_bot
from hexlan.net.effects import Effect, Rejected, Stopped
from hexlan.net.identity import Identity
from hexlan.net.inproc import InProcessTable, SeatKeys
from hexlan.net.session import Session
from hexlan.net.wire import (
    MAX_ENVELOPE,
    SIGNING_PREFIX,
    Envelope,
    Opening,
    RemoteProtocolError,
    decode_action,
    validate_payload,
)

NAMES = ("Ann", "Bob", "Cy", "Di")
DECODER_CHUNK = 50_000
"""Decoder inputs per unit of work (each seeded on its own: results do not depend on --jobs)."""
SESSION_CHUNK = 5_000
"""Session inputs per unit of work; each unit restores the session at its own cut."""
MAX_EXAMPLES = 10
"""Unexpected outcomes and state changes kept as examples (each with its input's hex prefix)."""


# ---------------------------------------------------------------------------- the corpus


@dataclass(frozen=True, slots=True)
class Corpus:
    """A finished seeded game: its opening and seat 0's log (every message, as accepted)."""

    seed: int
    players: int
    opening_payload: Any
    envelopes: tuple[bytes, ...]

    @property
    def opening(self) -> Opening:
        return Opening.from_payload(self.opening_payload)


def build_corpus(seed: int, players: int = 2, limit: int = 20_000) -> Corpus:
    """Play one seeded game between heuristic bots on an in-process table; seat 0's log."""
    table = InProcessTable(list(NAMES[:players]), seed=seed)
    bots = [make_bot("heuristic", random.Random(seed * 10 + s)) for s in range(players)]
    table.play_bots(bots, limit)
    return Corpus(seed, players, table.opening.to_payload(), tuple(table.logs[0]))


# ---------------------------------------------------------------------------- mutations


@functools.cache
def seat_identities(seed: int, players: int) -> tuple[Identity, ...]:
    """The seats' signing keys of a seeded table (made once: a seeded chain takes a while)."""
    return tuple(SeatKeys.seeded(seed, seat).identity for seat in range(players))


@functools.cache
def _junk_block(seed: int) -> bytes:
    return random.Random(f"hexlan fuzz junk {seed}").randbytes(MAX_ENVELOPE + 4096)


_BOUNDARY_INTS = (  # every one packs: msgpack holds -2^63 .. 2^64 - 1
    -(2**63),
    -(2**31) - 1,
    -2,
    -1,
    0,
    1,
    2,
    3,
    5,
    6,
    95,
    96,
    255,
    256,
    4096,
    2**31,
    2**32 - 1,
    2**32,
    2**63 - 1,
    2**64 - 1,
)
_TEXTS = (
    "",
    "a",
    "x" * 33,
    "x" * 501,
    "\x00",
    "\x1b[2J",
    "\u202e",
    "\u2028",
    "\x7f",
    "action",
    "advance",
    "reveal",
    "hello",
    "start",
    "development",
    "é" * 20,
)


def _pack(value: object) -> bytes:
    """Raw msgpack of anything msgpack takes (floats, maps, ext types included)."""
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class Mutator:
    """Mutated inputs from a corpus, drawn from a seeded :class:`random.Random`.

    Args:
        corpus: the game whose messages are mutated.
        rng: the source of every choice (seeded by the caller: runs are reproducible).
        sources: indices of the corpus messages to start from (default: all).
        resign_share: the share of re-signed inputs (a real key's signature over a bad body).
    """

    def __init__(
        self,
        corpus: Corpus,
        rng: random.Random,
        sources: Sequence[int] | None = None,
        resign_share: float = 0.3,
    ) -> None:
        self.corpus = corpus
        self.rng = rng
        self.envelopes = corpus.envelopes
        self.sources = list(range(len(corpus.envelopes))) if sources is None else list(sources)
        self.resign_share = resign_share
        self.keys = seat_identities(corpus.seed, corpus.players)
        self._bodies: dict[int, tuple[bytes, list[Any]]] = {}
        self._junk = _junk_block(corpus.seed)
        self.raw: list[tuple[str, Callable[[bytes], bytes]]] = [
            ("bitflip", self._bitflip),
            ("truncate", self._truncate),
            ("insert", self._insert),
            ("delete", self._delete),
            ("overwrite", self._overwrite),
            ("splice", self._splice),
            ("oversized", self._oversized),
            ("nested", self._nested),
            ("junk", self._junk_bytes),
        ]
        self.resigned: list[tuple[str, Callable[[int], bytes]]] = [
            ("resign_field", self._resign_field),
            ("resign_payload", self._resign_payload),
            ("resign_tweak", self._resign_tweak),
            ("resign_bytes", self._resign_bytes),
            ("resign_swap", self._resign_swap),
            ("resign_exotic", self._resign_exotic),
            ("resign_same", self._resign_same),
        ]

    def next(self) -> tuple[str, bytes]:
        """One input: ``(mutation name, bytes)``."""
        index = self.rng.choice(self.sources)
        if self.rng.random() < self.resign_share:
            name, resign = self.rng.choice(self.resigned)
            return name, resign(index)
        name, mutate = self.rng.choice(self.raw)
        return name, mutate(self.envelopes[index])

    # -- raw mutations of the envelope bytes

    def _bitflip(self, data: bytes) -> bytes:
        buf = bytearray(data)
        for _ in range(self.rng.choice((1, 1, 1, 2, 3, 8))):
            i = self.rng.randrange(len(buf))
            buf[i] ^= 1 << self.rng.randrange(8)
        return bytes(buf)

    def _truncate(self, data: bytes) -> bytes:
        return data[: self.rng.randrange(len(data))]

    def _insert(self, data: bytes) -> bytes:
        i = self.rng.randrange(len(data) + 1)
        return data[:i] + self.rng.randbytes(self.rng.choice((1, 1, 2, 4, 17, 300))) + data[i:]

    def _delete(self, data: bytes) -> bytes:
        i = self.rng.randrange(len(data))
        return data[:i] + data[i + self.rng.choice((1, 1, 2, 8, 64)) :]

    def _overwrite(self, data: bytes) -> bytes:
        buf = bytearray(data)
        i = self.rng.randrange(len(buf))
        buf[i] = self.rng.choice((0x00, 0x7F, 0x80, 0x90, 0xC0, 0xC1, 0xC4, 0xCA, 0xD4, 0xFF))
        return bytes(buf)

    def _splice(self, data: bytes) -> bytes:
        other = self.envelopes[self.rng.randrange(len(self.envelopes))]
        return data[: self.rng.randrange(len(data) + 1)] + other[self.rng.randrange(len(other)) :]

    def _oversized(self, data: bytes) -> bytes:
        choice = self.rng.randrange(8)
        if choice == 0:  # past the envelope limit
            return data + self._junk[: MAX_ENVELOPE + 1 - len(data) + self.rng.randrange(4096)]
        if choice == 1:  # a length header promising 4 GiB
            return self.rng.choice((b"\xc6", b"\xdb", b"\xdd")) + b"\xff\xff\xff\xff" + data
        if choice == 2:  # an array of 4097 items as the payload
            return self._with_body(data, lambda f: [*f[:7], [0] * 4097])
        if choice == 3:  # a 5000-character kind
            return self._with_body(data, lambda f: [*f[:6], "k" * 5000, f[7]])
        if choice == 4:  # integers past 64 bits cannot be packed; 2^64 - 1 and -2^63 can
            value = self.rng.choice((2**64 - 1, -(2**63), 2**63))
            return self._with_body(data, lambda f: [f[0], f[1], value, *f[3:]])
        if choice == 5:  # a body bin of nearly the whole envelope
            body = _pack([3, bytes(32), 0, 0, bytes(32), [], "action", [self._junk[:250_000]]])
            return _pack([body, bytes(64)])
        if choice == 6:  # seven heads
            return self._with_body(data, lambda f: [*f[:5], [[-1, bytes(32)]] * 7, *f[6:]])
        return data * self.rng.choice((2, 3))  # trailing bytes

    def _nested(self, data: bytes) -> bytes:
        depth = self.rng.choice((15, 16, 17, 100, 1000, 5000, 100_000))
        nest = b"\x91" * depth + b"\xc0"
        where = self.rng.randrange(3)
        if where == 0:
            return nest  # the whole envelope
        if where == 1:
            return _pack([nest, bytes(64)])  # the body
        try:  # the payload of a real body
            fields = _unpack(_unpack(data)[0])
        except Exception:
            return nest
        head = b"\x98" + b"".join(_pack(f) for f in fields[:7])
        return _pack([head + nest, bytes(64)])

    def _junk_bytes(self, data: bytes) -> bytes:
        size = self.rng.choice((0, 1, 2, 7, 64, len(data)))
        start = self.rng.randrange(len(self._junk) - size)
        prefix = self.rng.choice((b"", b"\x92", b"\x92\xc4", b"\x92\xc5"))
        return prefix + self._junk[start : start + size]

    def _with_body(self, data: bytes, change: Callable[[list[Any]], list[Any]]) -> bytes:
        try:
            body, sig = _unpack(data)
            fields = _unpack(body)
            return _pack([_pack(change(list(fields))), sig])
        except Exception:
            return data

    # -- re-signed mutations: a real seat's signature over a bad body

    def _fields(self, index: int) -> tuple[bytes, list[Any]]:
        cached = self._bodies.get(index)
        if cached is None:
            body, _ = _unpack(self.envelopes[index])
            cached = self._bodies[index] = (body, _unpack(body))
        return cached[0], copy.deepcopy(cached[1])

    def sign(self, body: bytes, author: object) -> bytes:
        """The envelope of ``body`` signed by the key of seat ``author`` (seat 0's if none)."""
        seat = author if type(author) is int and 0 <= author < len(self.keys) else 0
        return _pack([body, self.keys[seat].sign(SIGNING_PREFIX + body)])

    def _resign(self, fields: list[Any], author: object) -> bytes:
        return self.sign(_pack(fields), author)

    def _value(self) -> Any:
        """A replacement value of any kind."""
        rng = self.rng
        kind = rng.randrange(9)
        if kind == 0:
            return rng.choice(_BOUNDARY_INTS)
        if kind == 1:
            return rng.randbytes(rng.choice((0, 1, 12, 16, 31, 32, 33, 63, 64, 65, 128)))
        if kind == 2:
            return rng.choice(_TEXTS)
        if kind == 3:
            return rng.choice((None, True, False))
        if kind == 4:
            return [self._value() for _ in range(rng.choice((0, 1, 2, 8)))]
        if kind == 5:
            return bytes(32)
        if kind == 6:
            return rng.choice((0.5, float("nan"), {"a": 1}, {1: [2]}))
        if kind == 7:
            return msgpack.ExtType(rng.randrange(128), rng.randbytes(4))
        return rng.randrange(-3, 100)

    def _paths(self, value: Any, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
        found = [path]
        if isinstance(value, list) and len(path) < 6:
            for i, item in enumerate(value[:64]):
                found.extend(self._paths(item, (*path, i)))
        return found

    def _replace_at(
        self, root: list[Any], path: tuple[int, ...], change: Callable[[Any], Any]
    ) -> Any:
        if not path:
            return change(root)
        node = root
        for i in path[:-1]:
            node = node[i]
        node[path[-1]] = change(node[path[-1]])
        return root

    def _resign_field(self, index: int) -> bytes:
        _, fields = self._fields(index)
        author = fields[2] if len(fields) > 2 else 0
        fields[self.rng.randrange(len(fields))] = self._value()
        return self._resign(fields, author)

    def _resign_payload(self, index: int) -> bytes:
        _, fields = self._fields(index)
        author = fields[2]
        payload = fields[7]
        paths = self._paths(payload)
        path = self.rng.choice(paths)
        action = self.rng.randrange(4)
        if action == 0 or not path:
            fields[7] = self._replace_at(payload, path, lambda _: self._value())
        else:
            parent = payload
            for i in path[:-1]:
                parent = parent[i]
            i = path[-1]
            if action == 1:
                del parent[i]
            elif action == 2:
                parent.insert(i, parent[i])
            else:
                parent.insert(i, self._value())
        return self._resign(fields, author)

    def _tweak(self, value: Any) -> Any:
        """A value of the same type, slightly off (a schema-valid mutation, often)."""
        if isinstance(value, bool):
            return not value
        if isinstance(value, int):
            return min(2**64 - 1, max(-(2**63), value + self.rng.choice((-2, -1, 1, 2))))
        if isinstance(value, bytes) and value:
            buf = bytearray(value)
            buf[self.rng.randrange(len(buf))] ^= 1 << self.rng.randrange(8)
            return bytes(buf)
        if isinstance(value, str) and value:
            return value[:-1] + self.rng.choice("aZ0_")
        return value

    def _resign_tweak(self, index: int) -> bytes:
        _, fields = self._fields(index)
        author = fields[2]
        leaves = [p for p in self._paths(fields) if p and not isinstance(self._at(fields, p), list)]
        path = self.rng.choice(leaves)
        if path[0] != 0:  # the version is tried by resign_field; here stay in protocol 3
            fields = self._replace_at(fields, path, self._tweak)
        return self._resign(fields, author)

    @staticmethod
    def _at(root: Any, path: tuple[int, ...]) -> Any:
        for i in path:
            root = root[i]
        return root

    def _resign_bytes(self, index: int) -> bytes:
        body, fields = self._fields(index)
        mutated = self._bitflip(body) if self.rng.random() < 0.7 else self._truncate(body)
        return self.sign(mutated, fields[2])

    def _resign_swap(self, index: int) -> bytes:
        _, fields = self._fields(index)
        _, other = self._fields(self.rng.randrange(len(self.envelopes)))
        which = self.rng.randrange(3)
        if which == 0:
            fields[7] = other[7]  # another message's payload
        elif which == 1:
            fields[6] = other[6]  # another message's kind
        else:
            fields[5] = other[5]  # another message's heads
        return self._resign(fields, fields[2])

    def _resign_same(self, index: int) -> bytes:
        """The body unchanged, signed again: Ed25519 is deterministic, so the very message
        (a duplicate, or accepted if it is the next one)."""
        body, fields = self._fields(index)
        return self.sign(body, fields[2])

    def _resign_exotic(self, index: int) -> bytes:
        _, fields = self._fields(index)
        author = fields[2]
        choice = self.rng.randrange(4)
        if choice == 0:
            fields = fields[: self.rng.randrange(len(fields))]
        elif choice == 1:
            fields = [*fields, self._value()]
        elif choice == 2:
            fields[7] = self.rng.choice(({"a": 1}, 1.5, b"", "payload", None))
        else:
            fields = [self.rng.choice(({}, 2.0, "3", b"\x03", None, True)), *fields[1:]]
        return self._resign(fields, author)


# ---------------------------------------------------------------------------- the decoder


@dataclass(slots=True)
class Tally:
    """Counts of one run (or one chunk of it)."""

    inputs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    mutations: Counter[str] = field(default_factory=Counter)
    unexpected: int = 0
    state_changes: int = 0
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rss_growth_kb: int = 0

    def note(self, problem: str, mutation: str, data: bytes) -> None:
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(f"{mutation}: {problem} [input {data[:48].hex()}…]")

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.outcomes.update(other.outcomes)
        self.mutations.update(other.mutations)
        self.unexpected += other.unexpected
        self.state_changes += other.state_changes
        self.examples.extend(other.examples[: MAX_EXAMPLES - len(self.examples)])
        self.seconds += other.seconds
        self.rss_growth_kb = max(self.rss_growth_kb, other.rss_growth_kb)


def decode(data: bytes, keys: Sequence[bytes]) -> str:
    """Feed one input to the decoder; the outcome's name.

    Raises:
        AssertionError: the decoder accepted what its own checks refuse.
        Exception: anything the decoder raised other than a :class:`RemoteProtocolError`.
    """
    try:
        env = Envelope.parse(data)
    except RemoteProtocolError as exc:
        return f"rejected:{type(exc).__name__}"
    body = env.body
    try:
        validate_payload(body.kind, body.payload)
    except RemoteProtocolError as exc:
        raise AssertionError(
            f"parse accepted a {body.kind} payload its schema refuses: {exc}"
        ) from None
    if body.kind == "action":
        decode_action(body.payload)
    elif body.kind in ("sign_opening", "start"):
        Opening.from_payload(body.payload[0])
    if not 0 <= body.author < len(keys):
        return "parsed:no_such_seat"
    try:
        env.verify(keys[body.author])
    except RemoteProtocolError as exc:
        return f"parsed:{type(exc).__name__}"
    return "parsed:verified"


def rss_kb() -> int:
    """This process's resident set size, in KiB (Linux /proc; else the peak from getrusage)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


_BASELINE: list[int] = []  # the worker's resident set after its first warm-up


def _growth(warmed: bool) -> int:
    if not warmed:
        return 0
    if not _BASELINE:
        _BASELINE.append(rss_kb())
        return 0
    return rss_kb() - _BASELINE[0]


def fuzz_decoder(corpus: Corpus, seed: int, chunk: int, count: int) -> Tally:
    """Feed ``count`` mutated inputs to the decoder (chunk ``chunk`` of the run seeded ``seed``)."""
    rng = random.Random(f"hexlan fuzz decoder {seed} {chunk}")
    mutator = Mutator(corpus, rng)
    keys = [seat[1] for seat in corpus.opening_payload[2]]
    tally = Tally()
    warmup = count // 10
    start = time.perf_counter()
    for i in range(count):
        if i == warmup:
            _growth(True)
        name, data = mutator.next()
        tally.mutations[name] += 1
        try:
            outcome = decode(data, keys)
        except Exception as exc:
            tally.unexpected += 1
            tally.note(f"{type(exc).__name__}: {exc}"[:300], name, data)
            outcome = "unexpected"
        tally.outcomes[outcome] += 1
    tally.inputs = count
    tally.seconds = time.perf_counter() - start
    tally.rss_growth_kb = _growth(True)
    return tally


# ---------------------------------------------------------------------------- the session


def view_hash(session: Session) -> str | None:
    """A hash of everything the session's view knows: public state, the hidden state as far as
    the view holds it, and every seat's possible hands."""
    view = session.view
    if view is None:
        return None
    digest = hashlib.sha256(view.public_hash().encode())
    digest.update(repr(view.hidden_dict()).encode())
    for seat in range(session.players):
        digest.update(repr(sorted(view.possible_hands(seat))).encode())
    return digest.hexdigest()


def session_state(session: Session) -> tuple[object, ...]:
    """What no rejected message may change: heads, applied numbers, the log's length (accepted
    messages), waiting messages, chance events, the stop, the public state hash, the view
    hash."""
    view = session.view
    return (
        session.heads(),
        tuple(session.applied),
        sum(len(msgs) for msgs in session.accepted),
        len(session._waiting),
        session.beacon.next_event,
        len(session.beacon.events),
        len(session.journal),
        session.stopped,
        None if view is None else view.public_hash(),
        view_hash(session),
    )


def restored_session(corpus: Corpus, cut: int) -> Session:
    """Seat 0's session after its first ``cut`` logged messages (a resumed peer, §9)."""
    keys = SeatKeys.seeded(corpus.seed, 0)
    session = Session(0, keys.identity, corpus.opening, keys.chain, keys.game_keys)
    session.replay(corpus.envelopes[:cut])
    return session


class Snapshot:
    """A session to restore after each input that may legitimately have changed it.

    :func:`copy.deepcopy` shares the session's immutable parts (envelopes, bodies, journal entries,
    the opening, the keys) instead of copying them: a restore then takes a few milliseconds.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        shared: list[object] = [
            session.opening,
            session.identity,
            session.chain,
            session.game_keys,
            *(env for msgs in session.accepted for env in msgs),
            *(env.body for msgs in session.accepted for env in msgs),
            *session.journal,  # frozen entries of frozen actions
        ]
        self._memo = {id(obj): obj for obj in shared}

    def fresh(self) -> Session:
        """A copy of the snapshot to feed inputs to."""
        return copy.deepcopy(self.session, dict(self._memo))


def classify(effects: Sequence[Effect], before: int, after: int) -> str:
    """The outcome of one receive from its effects (``before``/``after``: waiting messages)."""
    if any(isinstance(e, Stopped) for e in effects):
        return "stopped"
    if effects and all(isinstance(e, Rejected) for e in effects):
        return "rejected"
    if effects:
        return "accepted"
    return "held" if after > before else "ignored"


def fuzz_session(corpus: Corpus, seed: int, chunk: int, count: int) -> Tally:
    """Feed ``count`` mutated inputs to seat 0's session restored at a cut of this chunk's."""
    rng = random.Random(f"hexlan fuzz session {seed} {chunk}")
    total = len(corpus.envelopes)
    cut = rng.randrange(total // 10, total * 9 // 10)
    # Start from the messages just after the cut (the frontier: re-signed, some are accepted)
    # and from any message of the game.
    frontier = list(range(cut, min(total, cut + 12)))
    sources = frontier * 4 + list(range(total))
    mutator = Mutator(corpus, rng, sources, resign_share=0.3)
    snapshot = Snapshot(restored_session(corpus, cut))
    session = snapshot.fresh()
    state = session_state(session)
    tally = Tally()
    warmup = count // 10
    start = time.perf_counter()
    for i in range(count):
        if i == warmup:
            _growth(True)
        name, data = mutator.next()
        tally.mutations[name] += 1
        waiting = dict(session._waiting)
        try:
            effects = session.receive(data)
        except Exception as exc:
            tally.unexpected += 1
            tally.note(f"{type(exc).__name__}: {exc}"[:300], name, data)
            tally.outcomes["unexpected"] += 1
            session = snapshot.fresh()
            state = session_state(session)
            continue
        outcome = classify(effects, len(waiting), len(session._waiting))
        tally.outcomes[outcome] += 1
        if outcome == "held":
            # A validly signed message waits for its predecessors, and nothing else changed
            # (checked below): drop it rather than restore the whole session.
            session._waiting = waiting
        if outcome in ("rejected", "ignored", "held"):
            after = session_state(session)
            if after != state:
                tally.state_changes += 1
                changed = [n for n, (a, b) in enumerate(zip(state, after, strict=True)) if a != b]
                tally.note(f"{outcome} input changed state fields {changed}", name, data)
                session = snapshot.fresh()
                state = session_state(session)
        else:  # a real signature: the change may be legitimate; start again from the snapshot
            session = snapshot.fresh()
            state = session_state(session)
    tally.inputs = count
    tally.seconds = time.perf_counter() - start
    tally.rss_growth_kb = _growth(True)
    return tally


# ---------------------------------------------------------------------------- running


_CORPUS: list[Corpus] = []


def _init_worker(corpus: Corpus) -> None:
    _CORPUS[:] = [corpus]


def _run_chunk(target: str, seed: int, chunk: int, count: int) -> Tally:
    corpus = _CORPUS[0]
    if target == "decoder":
        return fuzz_decoder(corpus, seed, chunk, count)
    return fuzz_session(corpus, seed, chunk, count)


def _chunks(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]


def run(
    corpus: Corpus, target: str, seed: int, total: int, jobs: int, chunk_size: int
) -> tuple[Tally, float]:
    """Every chunk of ``total`` inputs for ``target``, on ``jobs`` processes; the tally and the
    wall time."""
    sizes = _chunks(total, chunk_size)
    tally = Tally()
    start = time.perf_counter()
    if jobs <= 1:
        _init_worker(corpus)
        for chunk, size in enumerate(sizes):
            tally.add(_run_chunk(target, seed, chunk, size))
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with ProcessPoolExecutor(jobs, context, _init_worker, (corpus,)) as pool:
            futures = [
                pool.submit(_run_chunk, target, seed, chunk, size)
                for chunk, size in enumerate(sizes)
            ]
            for future in futures:
                tally.add(future.result())
    return tally, time.perf_counter() - start


def junk_verify(megabytes: int) -> dict[str, Any]:
    """Time ``hexlan verify`` on ``megabytes`` MB of random bytes: exit code, lines, seconds."""
    with tempfile.TemporaryDirectory(prefix="hexlan-fuzz-") as tmp:
        path = Path(tmp) / "junk.hexlan"
        block = random.Random(0).randbytes(1 << 20)
        with open(path, "wb") as f:
            for _ in range(megabytes):
                f.write(block)
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "hexlan", "verify", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - start
    lines = result.stdout.splitlines()
    return {
        "megabytes": megabytes,
        "exit_code": result.returncode,
        "lines": len(lines),
        "reason": lines[0] if lines else result.stderr.strip()[:200],
        "seconds": round(seconds, 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="decoder inputs")
    parser.add_argument("--session-inputs", type=int, default=10_000, help="session inputs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--max-growth-mb", type=float, default=64.0, help="resident set growth that fails"
    )
    parser.add_argument("--junk-mb", type=int, default=0, help="also time verify on N MB junk")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    corpus = build_corpus(args.seed, args.players)
    built = time.perf_counter() - start
    if not args.json:
        print(
            f"corpus: seed {args.seed}, {args.players} seats, {len(corpus.envelopes)} messages "
            f"({sum(map(len, corpus.envelopes))} bytes), played in {built:.1f} s; "
            f"{args.jobs} process(es)"
        )
    report: dict[str, Any] = {
        "seed": args.seed,
        "players": args.players,
        "jobs": args.jobs,
        "corpus_messages": len(corpus.envelopes),
    }
    failed = False
    total = Tally()
    for target, count, size in (
        ("decoder", args.inputs, DECODER_CHUNK),
        ("session", args.session_inputs, SESSION_CHUNK),
    ):
        if count <= 0:
            continue
        tally, wall = run(corpus, target, args.seed, count, args.jobs, size)
        total.add(tally)
        growth_mb = tally.rss_growth_kb / 1024
        rate = tally.inputs / wall if wall else 0.0
        report[target] = {
            "inputs": tally.inputs,
            "seconds": round(wall, 2),
            "inputs_per_s": round(rate),
            "unexpected": tally.unexpected,
            "state_changes": tally.state_changes,
            "rss_growth_mb": round(growth_mb, 1),
            "outcomes": dict(sorted(tally.outcomes.items())),
            "mutations": dict(sorted(tally.mutations.items())),
            "examples": tally.examples,
        }
        bad = tally.unexpected or tally.state_changes or growth_mb > args.max_growth_mb
        failed = failed or bool(bad)
        if not args.json:
            print(
                f"{target}: {tally.inputs} inputs in {wall:.1f} s ({rate:,.0f}/s), "
                f"unexpected {tally.unexpected}, state changes {tally.state_changes}, "
                f"resident set +{growth_mb:.1f} MB (bound {args.max_growth_mb:g})"
            )
            print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.outcomes.items())))
            for example in tally.examples:
                print(f"  ! {example}")
    if args.junk_mb:
        junk = junk_verify(args.junk_mb)
        report["junk_verify"] = junk
        failed = failed or junk["exit_code"] != 2 or junk["lines"] != 1
        if not args.json:
            print(
                f"hexlan verify on {junk['megabytes']} MB of junk: exit {junk['exit_code']}, "
                f"{junk['lines']} line(s) in {junk['seconds']:.2f} s: {junk['reason']}"
            )
    report.update(
        inputs=total.inputs,
        unexpected=total.unexpected,
        state_changes=total.state_changes,
        failed=failed,
    )
    if args.json:
        print(json.dumps(report))
    else:
        print("FAILED" if failed else "ok: no unexpected outcome, no state change")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
