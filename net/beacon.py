"""The random beacon: per-seat hash chains, beacon outputs and the outcome stream (PROTOCOL.md §6).

Sans-IO: pure functions and two small classes. Nothing here draws randomness except
:meth:`HashChain.generate`, which takes its secret from :func:`secrets.token_bytes`; everything
else is a deterministic function of its arguments, so tests pass fixed bytes.

Each seat commits to ``x[0]`` of a hash chain ``x[i-1] = H(b"hexlan/v1/chain\\0" || x[i])`` and
reveals ``x[n]`` for chance event ``n``; once every seat's ``x[n]`` is in,
:func:`beacon_output` gives ``R[n]`` and :class:`BeaconStream` turns it into dice, indices and
shuffles by rejection sampling (never a bare modulo).

>>> chain = HashChain(bytes(32), length=4)
>>> verify_preimage(chain.preimage(1), chain.commitment)
True
>>> stream = BeaconStream(beacon_output(bytes(32), 1, bytes(32), [chain.preimage(1)]))
>>> 1 <= stream.die() <= 6
True
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

CHAIN_LENGTH: Final = 65536
"""``L``: events a chain covers, one preimage per chance event (PROTOCOL.md §6)."""

HASH_SIZE: Final = 32
"""Bytes in every hash, id, chain value and beacon output (SHA-256)."""

MAX_BOUND: Final = 2**32
"""The largest ``k`` :meth:`BeaconStream.randbelow` accepts: one 4-byte word covers it."""

CHAIN_CACHE: Final = 8
"""Chains :func:`chain_commitment` and :class:`HashChain` keep computed (2 MiB each at the
default length): a process that plays several seats (an in-process table of bots, a test) and
then audits every seat's seed computes each chain once, not once per seat and audit."""

CHAIN_PREFIX: Final = b"hexlan/v1/chain\0"
CHAIN_TOP_PREFIX: Final = b"hexlan/v1/chain-top\0"
BEACON_PREFIX: Final = b"hexlan/v1/beacon\0"

_WORD: Final = 4
_U64_LIMIT: Final = 2**64

T = TypeVar("T")


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _check_hash(name: str, value: bytes) -> None:
    if not isinstance(value, bytes | bytearray) or len(value) != HASH_SIZE:
        raise ValueError(f"{name} must be {HASH_SIZE} bytes, got {value!r:.80}")


def _check_chain(secret: bytes, length: int) -> None:
    _check_hash("the chain secret", secret)
    if not isinstance(length, int) or length < 1:
        raise ValueError(f"a chain length must be at least 1, got {length!r}")


def chain_step(preimage: bytes) -> bytes:
    """One step down the chain: ``H(b"hexlan/v1/chain\\0" || x[i]) = x[i-1]`` (PROTOCOL.md §6).

    Args:
        preimage: ``x[i]``, 32 bytes.

    Raises:
        ValueError: ``preimage`` is not 32 bytes.

    >>> chain_step(bytes(32)).hex()[:16]
    '6d34e1e3031214a4'
    """
    _check_hash("a chain value", preimage)
    return hashlib.sha256(CHAIN_PREFIX + preimage).digest()


def verify_preimage(preimage: bytes, previous: bytes) -> bool:
    """Whether ``preimage`` is the chain value just before ``previous``: ``x[n]`` against ``x[n-1]``.

    ``previous`` is the seat's commitment ``x[0]`` for event 1, else its reveal of event ``n-1``.
    A value of the wrong length (untrusted input) is simply not a preimage.

    >>> chain = HashChain(bytes(32), length=2)
    >>> verify_preimage(chain.preimage(2), chain.preimage(1)), verify_preimage(bytes(32), bytes(32))
    (True, False)
    """
    if (
        not isinstance(preimage, bytes | bytearray)
        or not isinstance(previous, bytes | bytearray)
        or len(preimage) != HASH_SIZE
        or len(previous) != HASH_SIZE
    ):
        return False
    return secrets.compare_digest(chain_step(bytes(preimage)), bytes(previous))


class HashChain:
    """A seat's hash chain ``x[0] .. x[L]``, computed once (PROTOCOL.md §6).

    The secret is the seat's per-game seed; the top of the chain is
    ``x[L] = H(b"hexlan/v1/chain-top\0" || seed)``, so no reveal (not even ``x[L]``, at event
    ``L``) gives the seed away; ``x[0]`` is the public commitment (``chain_commitment`` in
    ``hello``); event ``n`` reveals ``x[n]``. The whole chain is kept as one 32·(L+1)-byte
    string: about 2 MiB and 65 536 SHA-256 calls (roughly 0.05 s) for the default length; the
    last :data:`CHAIN_CACHE` chains computed are kept, so building one again is free.

    Args:
        secret: the per-game seed, 32 bytes (:meth:`generate` draws one).
        length: ``L``, at least 1.

    Raises:
        ValueError: a secret that is not 32 bytes, or a length below 1.
    """

    __slots__ = ("_seed", "_values", "length")

    def __init__(self, secret: bytes, length: int = CHAIN_LENGTH) -> None:
        _check_chain(secret, length)
        self.length: Final = length
        self._seed: Final = bytes(secret)
        self._values: Final = _chain_values(self._seed, length)

    @classmethod
    def generate(cls, length: int = CHAIN_LENGTH) -> HashChain:
        """A fresh chain whose secret comes from :func:`secrets.token_bytes`."""
        return cls(secrets.token_bytes(HASH_SIZE), length)

    @property
    def secret(self) -> bytes:
        """The per-game seed, never part of the chain: keep it private (it is in
        ``LOG.secrets``, PROTOCOL.md §9, and revealed only in the audit)."""
        return self._seed

    @property
    def commitment(self) -> bytes:
        """``x[0]``: the public ``chain_commitment``."""
        return self._value(0)

    def preimage(self, n: int) -> bytes:
        """``x[n]``, this seat's reveal for chance event ``n``.

        Raises:
            ValueError: ``n`` outside ``1 .. length``.
        """
        if not isinstance(n, int) or not 1 <= n <= self.length:
            raise ValueError(f"chance event {n!r} is outside this chain's 1..{self.length}")
        return self._value(n)

    def _value(self, i: int) -> bytes:
        return self._values[i * HASH_SIZE : (i + 1) * HASH_SIZE]

    def __repr__(self) -> str:
        return f"HashChain(commitment={self.commitment.hex()}, length={self.length})"


def chain_commitment(secret: bytes, length: int = CHAIN_LENGTH) -> bytes:
    """``x[0]`` of the chain that ``secret`` (a per-game seed, 32 bytes) starts: what the audit
    checks a revealed seed against (PROTOCOL.md §9). The same as
    ``HashChain(secret, length).commitment``, sharing its cache.

    Raises:
        ValueError: a secret that is not 32 bytes, or a length below 1.

    >>> chain_commitment(bytes(32), 4) == HashChain(bytes(32), 4).commitment
    True
    """
    _check_chain(secret, length)
    return _chain_values(bytes(secret), length)[:HASH_SIZE]


@functools.lru_cache(maxsize=CHAIN_CACHE)
def _chain_values(seed: bytes, length: int) -> bytes:
    """``x[0] || x[1] || .. || x[length]`` for ``seed`` (checked by the callers)."""
    values = [hashlib.sha256(CHAIN_TOP_PREFIX + seed).digest()]
    x = values[0]
    sha256 = hashlib.sha256
    for _ in range(length):  # perf: the only loop; ~0.05 s for CHAIN_LENGTH
        x = sha256(CHAIN_PREFIX + x).digest()
        values.append(x)
    values.reverse()
    return b"".join(values)


def beacon_output(
    game_id: bytes, event: int, trigger_id: bytes, preimages: Sequence[bytes]
) -> bytes:
    """``R[n] = H(b"hexlan/v1/beacon\\0" || game_id || u64(n) || trigger_id || x_0[n] || ...)``.

    Args:
        game_id: the game id, 32 bytes.
        event: the chance event number ``n`` (from 1).
        trigger_id: the id of the message that triggered the event, 32 bytes.
        preimages: every seat's ``x[n]``, in seat order, 32 bytes each (at least one).

    Raises:
        ValueError: a field of the wrong length, an event outside ``1 .. 2**64-1``, no preimages.

    Checking each preimage against its chain (:func:`verify_preimage`) is the caller's job.
    """
    _check_hash("the game id", game_id)
    _check_hash("the trigger id", trigger_id)
    if not isinstance(event, int) or not 1 <= event < _U64_LIMIT:
        raise ValueError(f"a chance event number must be in 1..2**64-1, got {event!r}")
    if not preimages:
        raise ValueError("a beacon output needs every seat's preimage, got none")
    for seat, preimage in enumerate(preimages):
        _check_hash(f"seat {seat}'s preimage", preimage)
    return hashlib.sha256(
        b"".join((BEACON_PREFIX, game_id, _u64(event), trigger_id, *preimages))
    ).digest()


def sample_below(k: int, next_word: Callable[[], int]) -> int:
    """A uniform integer in ``[0, k)`` from a stream of 4-byte words, by rejection sampling
    (PROTOCOL.md §6): take a word ``v`` (``next_word()``, 0 .. 2**32-1); return ``v mod k`` if
    ``v < k * floor(2**32 / k)``, else take another. Always takes at least one word.

    Raises:
        ValueError: ``k`` outside ``1 .. 2**32``.

    >>> words = iter([2**32 - 1, 7])
    >>> sample_below(5, lambda: next(words))
    2
    """
    if not isinstance(k, int) or not 1 <= k <= MAX_BOUND:
        raise ValueError(f"randbelow needs 1 <= k <= 2**32, got {k!r}")
    limit = k * (MAX_BOUND // k)
    while True:
        v = next_word()
        if v < limit:
            return v % k


class BeaconStream:
    """Outcomes drawn from ``S[n] = H(R[n] || u64(0)) || H(R[n] || u64(1)) || ...``.

    Draws consume the stream 4 bytes at a time, in call order, so every peer that makes the same
    calls in the same order gets the same outcomes (PROTOCOL.md §6). It has the
    :class:`~hexlan.engine.board.Shuffler` shape, so ``random_board(BeaconStream(R))`` works.

    Args:
        output: the beacon output ``R[n]``, 32 bytes.

    Raises:
        ValueError: an output that is not 32 bytes.

    >>> stream = BeaconStream(bytes(32))
    >>> stream.dice(), stream.randbelow(19), stream.words_read
    ((2, 3), 0, 3)
    """

    __slots__ = ("_block", "_buffer", "_offset", "_output", "_words")

    def __init__(self, output: bytes) -> None:
        _check_hash("a beacon output", output)
        self._output: Final = bytes(output)
        self._block = 0
        self._buffer = b""
        self._offset = 0
        self._words = 0

    @classmethod
    def from_reveals(
        cls, game_id: bytes, event: int, trigger_id: bytes, preimages: Sequence[bytes]
    ) -> BeaconStream:
        """The stream of :func:`beacon_output` of these arguments."""
        return cls(beacon_output(game_id, event, trigger_id, preimages))

    @property
    def output(self) -> bytes:
        """``R[n]``."""
        return self._output

    @property
    def words_read(self) -> int:
        """4-byte words consumed so far (rejected ones included)."""
        return self._words

    def _next_word(self) -> int:
        if self._offset == len(self._buffer):
            self._buffer = hashlib.sha256(self._output + _u64(self._block)).digest()
            self._block += 1
            self._offset = 0
        word = self._buffer[self._offset : self._offset + _WORD]
        self._offset += _WORD
        self._words += 1
        return int.from_bytes(word, "big")

    def randbelow(self, k: int) -> int:
        """A uniform integer in ``[0, k)``, by rejection sampling (PROTOCOL.md §6).

        Takes the next 4-byte big-endian word ``v``; returns ``v mod k`` if
        ``v < k * floor(2**32 / k)``, else takes another word. Always reads at least one word,
        even for ``k == 1``.

        Raises:
            ValueError: ``k`` outside ``1 .. 2**32``.
        """
        return sample_below(k, self._next_word)

    def randrange(self, n: int, /) -> int:
        """:meth:`randbelow` under the name :class:`~hexlan.engine.board.Shuffler` uses."""
        return self.randbelow(n)

    def die(self) -> int:
        """One die, 1..6: ``randbelow(6) + 1``."""
        return self.randbelow(6) + 1

    def dice(self) -> tuple[int, int]:
        """A roll: two dice, first then second."""
        first = self.die()
        return first, self.die()

    def shuffle(self, items: list[T], /) -> None:
        """Shuffle ``items`` in place: Fisher-Yates from the last position down.

        For ``i = len-1 .. 1``: swap positions ``i`` and ``randbelow(i + 1)``; position 0 draws
        nothing (PROTOCOL.md §6).
        """
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def __repr__(self) -> str:
        return f"BeaconStream(output={self._output.hex()}, words_read={self._words})"
