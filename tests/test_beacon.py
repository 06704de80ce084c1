"""The random beacon (net/beacon.py): hash chains, beacon outputs, the outcome stream.

Spec: docs/PROTOCOL.md §6. Known answers were computed once from the implementation and are
also recomputed here from the spec's formulas with :mod:`hashlib` alone, so a change to either
the code or the formulas shows up. Uniformity tests use fixed streams (deterministic) and compare
a chi-square statistic with its critical value at significance 0.001 (no scipy needed).
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexlan.engine.board import Board, TokenMode, random_board, validate_board
from hexlan.engine.core import RESOURCES, Resource, Terrain
from hexlan.net.beacon import (
    CHAIN_LENGTH,
    BeaconStream,
    HashChain,
    beacon_output,
    chain_step,
    verify_preimage,
)

SECRET_A = bytes(range(32))
SECRET_B = bytes(range(32, 64))
GAME_ID = b"\x11" * 32
TRIGGER_ID = b"\x22" * 32

# Chi-square critical values at significance 0.001 (chi2.ppf(0.999, df)).
CHI2_CRITICAL = {2: 13.816, 4: 18.467, 5: 20.515, 10: 29.588, 35: 66.619, 119: 172.418}

STREAMS = 20_000


@pytest.fixture(scope="module")
def chains() -> tuple[HashChain, HashChain]:
    """Two full-length chains from fixed secrets (computed once per module)."""
    return HashChain(SECRET_A), HashChain(SECRET_B)


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def reference_words(output: bytes) -> Iterator[int]:
    """The 4-byte words of S[n] = H(R || u64(0)) || H(R || u64(1)) || ..., straight from §6."""
    for block in itertools.count():
        digest = sha(output + u64(block))
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")


def reference_randbelow(words: Iterator[int], k: int) -> int:
    """§6: accept v if v < k * floor(2^32 / k), return v mod k."""
    for v in words:
        if v < k * (2**32 // k):
            return v % k
    raise AssertionError("unreachable")


def seeded_outputs(label: bytes, n: int = STREAMS) -> list[bytes]:
    """``n`` fixed beacon outputs, one per stream."""
    return [sha(label + u64(i)) for i in range(n)]


def chi_square(counts: Sequence[int], expected: Sequence[float]) -> float:
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))


# ---------------------------------------------------------------------------- hash chains


def test_chain_known_answers(chains: tuple[HashChain, HashChain]) -> None:
    """A fixed seed gives a pinned commitment x[0] and first preimage x[1]; x[L] is a hash of
    the seed (never the seed itself)."""
    a, b = chains
    assert a.length == CHAIN_LENGTH == 65536
    assert a.commitment.hex() == (
        "068346bc79dbb16f990d0935b7c58d992eb4311984c475049b0f7cf855324d37"
    )
    assert a.preimage(1).hex() == (
        "e64e6e2981813183ca3bda1c4c926dac7bc4245d7de881c5638feeff380c60cf"
    )
    assert b.commitment.hex() == (
        "23849b8dab6c702e50b9c5a139a0c4d0457b84fb9c9af202819742a73d6fc7e9"
    )
    top = sha(b"hexlan/v1/chain-top\0" + SECRET_A)
    assert a.secret == SECRET_A and a.preimage(CHAIN_LENGTH) == top
    assert chain_step(top) == a.preimage(CHAIN_LENGTH - 1)


def test_chain_follows_the_spec_formula() -> None:
    """§6: x[L] = H(b"hexlan/v1/chain-top\\0" || seed), then x[i-1] = H(b"hexlan/v1/chain\\0" ||
    x[i]) down to x[0]."""
    chain = HashChain(SECRET_A, length=6)
    x = sha(b"hexlan/v1/chain-top\0" + SECRET_A)
    expected = [x]
    for _ in range(6):
        x = sha(b"hexlan/v1/chain\0" + x)
        expected.append(x)
    expected.reverse()
    assert chain.commitment == expected[0]
    assert [chain.preimage(n) for n in range(1, 7)] == expected[1:]
    assert all(chain_step(expected[n]) == expected[n - 1] for n in range(1, 7))


def test_every_link_of_a_full_chain_verifies(chains: tuple[HashChain, HashChain]) -> None:
    """Revealing x[1], x[2], ... in order, each checks against the one before (x[0] first)."""
    chain = chains[0]
    previous = chain.commitment
    for n in range(1, CHAIN_LENGTH + 1):
        preimage = chain.preimage(n)
        assert verify_preimage(preimage, previous), n
        previous = preimage


def test_preimage_outside_the_chain_is_refused() -> None:
    chain = HashChain(SECRET_A, length=8)
    for n in (0, -1, 9, 2**64):
        with pytest.raises(ValueError, match="outside this chain"):
            chain.preimage(n)


@pytest.mark.parametrize("secret", [b"", bytes(31), bytes(33)])
def test_chain_secret_must_be_32_bytes(secret: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        HashChain(secret, length=4)


def test_chain_length_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        HashChain(SECRET_A, length=0)


def test_generated_chains_have_fresh_secrets() -> None:
    a, b = HashChain.generate(length=16), HashChain.generate(length=16)
    assert len(a.secret) == 32 and a.secret != b.secret
    assert a.commitment != b.commitment
    assert verify_preimage(a.preimage(1), a.commitment)
    assert a.secret.hex() not in repr(a)


def test_verify_preimage_rejects_what_does_not_link(chains: tuple[HashChain, HashChain]) -> None:
    a, b = chains
    assert verify_preimage(a.preimage(1), a.commitment)
    assert verify_preimage(a.preimage(5), a.preimage(4))
    assert not verify_preimage(a.preimage(2), a.commitment), "skipping an event"
    assert not verify_preimage(a.preimage(4), a.preimage(5)), "the wrong direction"
    assert not verify_preimage(b.preimage(1), a.commitment), "another seat's chain"
    assert not verify_preimage(a.commitment, a.commitment)
    flipped = bytes([a.preimage(1)[0] ^ 1]) + a.preimage(1)[1:]
    assert not verify_preimage(flipped, a.commitment)
    assert not verify_preimage(a.preimage(1)[:31], a.commitment), "too short"
    assert not verify_preimage(a.preimage(1) + b"\0", a.commitment), "too long"
    assert not verify_preimage(a.preimage(1), a.commitment[:31])


# ---------------------------------------------------------------------------- beacon output


def test_beacon_output_known_answer(chains: tuple[HashChain, HashChain]) -> None:
    """Fixed preimages → pinned R[1] and pinned dice, and R follows §6's formula."""
    a, b = chains
    preimages = [a.preimage(1), b.preimage(1)]
    output = beacon_output(GAME_ID, 1, TRIGGER_ID, preimages)
    assert output.hex() == "829ae93e6392cb87ddbecf98489b1528c58018d23ac4e45afd4a6a9553596869"
    assert output == sha(
        b"hexlan/v1/beacon\0" + GAME_ID + u64(1) + TRIGGER_ID + b"".join(preimages)
    )
    stream = BeaconStream(output)
    assert [stream.dice() for _ in range(5)] == [(6, 5), (1, 3), (4, 2), (6, 2), (1, 6)]
    assert stream.words_read == 10


def test_shuffle_known_answer(chains: tuple[HashChain, HashChain]) -> None:
    a, b = chains
    stream = BeaconStream.from_reveals(GAME_ID, 3, TRIGGER_ID, [a.preimage(3), b.preimage(3)])
    assert stream.output.hex() == (
        "12089a6f0542b530d628c64359eb4b00aec71a6b85d35634d29019a561f23746"
    )
    items = list(range(10))
    stream.shuffle(items)
    assert items == [2, 4, 0, 8, 5, 1, 9, 6, 7, 3]
    assert stream.words_read == 9, "one draw per position 9..1, none for position 0"


def test_beacon_output_binds_every_input(chains: tuple[HashChain, HashChain]) -> None:
    """Game, event, trigger, each preimage and the seat order all change R."""
    a, b = chains
    base: tuple[bytes, int, bytes, list[bytes]] = (
        GAME_ID,
        2,
        TRIGGER_ID,
        [a.preimage(2), b.preimage(2)],
    )
    variants = [
        (b"\x12" * 32, *base[1:]),
        (GAME_ID, 3, TRIGGER_ID, base[3]),
        (GAME_ID, 2, b"\x23" * 32, base[3]),
        (GAME_ID, 2, TRIGGER_ID, [b.preimage(2), a.preimage(2)]),
        (GAME_ID, 2, TRIGGER_ID, [a.preimage(2), b.preimage(3)]),
        (GAME_ID, 2, TRIGGER_ID, [a.preimage(2)]),
    ]
    outputs = {beacon_output(*base)} | {beacon_output(*v) for v in variants}
    assert len(outputs) == 1 + len(variants)


@pytest.mark.parametrize(
    ("game_id", "event", "trigger", "preimages", "words"),
    [
        (GAME_ID[:31], 1, TRIGGER_ID, [SECRET_A], "game id"),
        (GAME_ID, 1, TRIGGER_ID + b"\0", [SECRET_A], "trigger id"),
        (GAME_ID, 0, TRIGGER_ID, [SECRET_A], "event"),
        (GAME_ID, 2**64, TRIGGER_ID, [SECRET_A], "event"),
        (GAME_ID, 1, TRIGGER_ID, [], "none"),
        (GAME_ID, 1, TRIGGER_ID, [SECRET_A, SECRET_B[:16]], "seat 1"),
    ],
)
def test_beacon_output_refuses_malformed_fields(
    game_id: bytes, event: int, trigger: bytes, preimages: list[bytes], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        beacon_output(game_id, event, trigger, preimages)


# ---------------------------------------------------------------------------- the stream


def test_stream_matches_the_spec_reference() -> None:
    """Draws of every size, in sequence, read the same words as §6's S[n] taken by hand."""
    bounds = [1, 2, 3, 6, 7, 19, 36, 1000, 3 * 2**30, 2**31 + 1, 2**32 - 1, 2**32]
    for output in seeded_outputs(b"reference", 200):
        stream, words = BeaconStream(output), reference_words(output)
        for k in bounds * 3:
            assert stream.randbelow(k) == reference_randbelow(words, k), (output.hex(), k)


@given(output=st.binary(min_size=32, max_size=32), k=st.integers(1, 2**32))
def test_randbelow_is_below_k_and_matches_the_reference(output: bytes, k: int) -> None:
    value = BeaconStream(output).randbelow(k)
    assert 0 <= value < k
    assert value == reference_randbelow(reference_words(output), k)


def test_every_draw_reads_a_word_even_for_k_1() -> None:
    stream = BeaconStream(bytes(32))
    assert [stream.randbelow(1) for _ in range(10)] == [0] * 10
    assert stream.words_read == 10
    assert stream.randrange(2**32) == next(itertools.islice(reference_words(bytes(32)), 10, 11))


@pytest.mark.parametrize("k", [0, -1, 2**32 + 1, 2**64])
def test_randbelow_refuses_bounds_outside_1_to_2_32(k: int) -> None:
    with pytest.raises(ValueError, match="1 <= k <= 2\\*\\*32"):
        BeaconStream(bytes(32)).randbelow(k)


@pytest.mark.parametrize("output", [b"", bytes(31), bytes(33)])
def test_stream_needs_a_32_byte_output(output: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        BeaconStream(output)


def test_rejection_sampling_rejects_and_stays_uniform() -> None:
    """k = 3·2^30: 2^32 mod k = 2^30, so a quarter of the words are rejected. Rejections happen,
    no value reaches k, and the three thirds of [0, k) are equally likely; a bare modulo would
    give the first third half of the time (its statistic is shown to fail the same test)."""
    k = 3 * 2**30
    thirds, bare, rejected = [0, 0, 0], [0, 0, 0], 0
    for output in seeded_outputs(b"rejection"):
        stream = BeaconStream(output)
        value = stream.randbelow(k)
        assert 0 <= value < k
        first = next(reference_words(output))
        assert (stream.words_read > 1) == (first >= k), "rejects exactly the words >= k"
        rejected += stream.words_read > 1
        thirds[value // 2**30] += 1
        bare[(first % k) // 2**30] += 1
    assert 0.23 < rejected / STREAMS < 0.27
    even = [STREAMS / 3] * 3
    assert chi_square(thirds, even) < CHI2_CRITICAL[2]
    assert chi_square(bare, even) > 10 * CHI2_CRITICAL[2]


def test_dice_are_uniform() -> None:
    """randbelow(6), each die of a roll, the 36 (first, second) pairs and the 11 totals."""
    faces: Counter[int] = Counter()
    pairs: Counter[tuple[int, int]] = Counter()
    totals: Counter[int] = Counter()
    for output in seeded_outputs(b"dice"):
        stream = BeaconStream(output)
        faces[stream.randbelow(6)] += 1
        first, second = stream.dice()
        pairs[first, second] += 1
        totals[first + second] += 1
    assert set(faces) == set(range(6))
    assert chi_square([faces[v] for v in range(6)], [STREAMS / 6] * 6) < CHI2_CRITICAL[5]
    cells = [(first, second) for first in range(1, 7) for second in range(1, 7)]
    assert set(pairs) == set(cells)
    assert chi_square([pairs[c] for c in cells], [STREAMS / 36] * 36) < CHI2_CRITICAL[35]
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    assert (
        chi_square(
            [totals[t] for t in range(2, 13)], [STREAMS * ways[t] / 36 for t in range(2, 13)]
        )
        < CHI2_CRITICAL[10]
    )


def test_shuffle_is_a_uniform_permutation() -> None:
    """Every shuffle is a permutation; each item's final position is uniform, and so are the
    120 orders of five items."""
    positions = [[0] * 5 for _ in range(5)]
    orders: Counter[tuple[int, ...]] = Counter()
    for output in seeded_outputs(b"shuffle"):
        items = list(range(5))
        BeaconStream(output).shuffle(items)
        assert sorted(items) == [0, 1, 2, 3, 4]
        for position, item in enumerate(items):
            positions[item][position] += 1
        orders[tuple(items)] += 1
    for item in range(5):
        assert chi_square(positions[item], [STREAMS / 5] * 5) < CHI2_CRITICAL[4], item
    every = list(itertools.permutations(range(5)))
    assert chi_square([orders[p] for p in every], [STREAMS / 120] * 120) < CHI2_CRITICAL[119]


def test_shuffle_of_short_lists_draws_nothing() -> None:
    stream = BeaconStream(bytes(32))
    empty: list[int] = []
    one = ["x"]
    stream.shuffle(empty)
    stream.shuffle(one)
    assert (empty, one, stream.words_read) == ([], ["x"], 0)


# ---------------------------------------------------------------------------- random boards


def _board_from(output: bytes, tokens: TokenMode) -> Board:
    """The stream passes as engine/board.py's Shuffler (mypy checks the protocol here)."""
    return random_board(BeaconStream(output), tokens)


@pytest.mark.parametrize("tokens", ["spiral", "random"])
def test_random_board_from_the_beacon_is_valid_and_deterministic(tokens: TokenMode) -> None:
    """The stream is a Shuffler (engine/board.py): the same R[n] builds the same board on every
    peer, with the official components (seed 002 «Содержимое фирменной коробки»)."""
    boards = []
    for output in seeded_outputs(b"board", 8):
        board = _board_from(output, tokens)
        validate_board(board)
        assert Counter(board.terrains) == Counter(
            {
                Terrain.FOREST: 4,
                Terrain.HILLS: 3,
                Terrain.PASTURE: 4,
                Terrain.FIELDS: 4,
                Terrain.MOUNTAINS: 3,
                Terrain.DESERT: 1,
            }
        )
        assert sorted(t for t in board.tokens if t) == sorted(
            [2, 12, *[n for n in (3, 4, 5, 6, 8, 9, 10, 11) for _ in range(2)]]
        )
        harbours: Counter[Resource | None] = Counter({None: 4})
        harbours.update(RESOURCES)
        assert Counter(h.resource for h in board.harbours) == harbours
        assert _board_from(output, tokens).to_dict() == board.to_dict()
        boards.append(board.to_dict())
    assert len({repr(b) for b in boards}) == len(boards), "different outputs, different boards"


def test_no_reveal_gives_the_seed_away() -> None:
    """Review finding (low): the seed was the chain's top ``x[L]``, revealed at event ``L``.
    The top is now a hash of the seed, so even the last reveal tells nothing of it."""
    seed = bytes(range(32))
    chain = HashChain(seed, length=3)
    reveals = [chain.preimage(n) for n in range(1, 4)]
    assert chain.secret == seed and seed not in reveals
    assert reveals[-1] == hashlib.sha256(b"hexlan/v1/chain-top\0" + seed).digest()
    assert verify_preimage(reveals[0], chain.commitment)
