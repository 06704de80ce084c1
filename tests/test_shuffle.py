"""ElGamal decks, re-encryption and the cut-and-choose shuffle proof (net/shuffle.py).

Spec: docs/PROTOCOL.md §13. Decks are small (6 cards); the proofs have the full 40 rounds.
A cheating shuffler is simulated by building its decks and responses by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from hexlan.net.beacon import BeaconStream
from hexlan.net.group import (
    GROUP_ORDER,
    GroupError,
    ScalarStream,
    add,
    base_mul,
    is_point,
    mul,
    scalar_sub,
    sub,
)
from hexlan.net.shuffle import (
    ROUNDS,
    ShuffleCommitment,
    ShuffleError,
    ShuffleSecret,
    apply_shuffle,
    card_point,
    check_permutation,
    decrypt,
    decryption_base,
    draw_shuffle,
    initial_deck,
    pack_deck,
    reencrypt,
    respond,
    sample_permutation,
    shuffle_deck,
    unpack_deck,
    verify_shuffle,
)

L = GROUP_ORDER
N = 6
LABEL = b"test-deck"
SEED = bytes(range(32))


def sc(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


SECRET = sc(0xDEADBEEF << 64)
KEY = base_mul(SECRET)
POINTS = [card_point(LABEL, i) for i in range(N)]
DECK = initial_deck(POINTS, KEY)
ALTERNATING = [k % 2 for k in range(ROUNDS)]


def open_card(ct: bytes) -> bytes:
    return decrypt(ct, [mul(SECRET, decryption_base(ct))])


def only(bit_round: int, bit: int = 1) -> list[int]:
    """Challenges that are all 1 - ``bit`` but ``bit`` in round ``bit_round``."""
    bits = [1 - bit] * ROUNDS
    bits[bit_round] = bit
    return bits


# Cards, encryption, decks on the wire.


def test_card_points() -> None:
    assert all(is_point(p) for p in POINTS)
    assert len(set(POINTS)) == N
    assert card_point(LABEL, 0) == POINTS[0]
    assert card_point(b"other", 0) != POINTS[0]


def test_initial_deck_and_reencryption_decrypt_to_the_cards() -> None:
    assert [open_card(ct) for ct in DECK] == POINTS
    assert all(ct[:32] == base_mul(sc(1)) for ct in DECK)
    again = reencrypt(DECK[2], KEY, sc(99))
    assert again != DECK[2]
    assert open_card(again) == POINTS[2]


def test_decrypt_with_every_seats_share() -> None:
    x = [sc(11), sc(22), sc(33)]
    joint = base_mul(sc(66))
    ct = reencrypt(initial_deck(POINTS[:1], joint)[0], joint, sc(5))
    assert decrypt(ct, [mul(xi, decryption_base(ct)) for xi in x]) == POINTS[0]
    assert decrypt(ct, [mul(xi, decryption_base(ct)) for xi in x[:2]]) != POINTS[0]


def test_pack_and_unpack() -> None:
    data = pack_deck(DECK)
    assert len(data) == 64 * N
    assert unpack_deck(data, N) == DECK
    with pytest.raises(GroupError):
        pack_deck([DECK[0][:63]])


@pytest.mark.parametrize(
    "bad",
    [
        bytes(32),
        b"\x01" + bytes(31),
        b"\xec" + b"\xff" * 30 + b"\x7f",
        b"\xee" + b"\xff" * 30 + b"\x7f",
    ],
)
@pytest.mark.parametrize("half", [0, 1])
def test_unpack_refuses_a_card_that_is_not_two_points(bad: bytes, half: int) -> None:
    card = bad + DECK[3][32:] if half == 0 else DECK[3][:32] + bad
    data = pack_deck([*DECK[:3], card, *DECK[4:]])
    with pytest.raises(GroupError, match="card 3 is not a pair of points"):
        unpack_deck(data, N)


@pytest.mark.parametrize("data", [pack_deck(DECK)[:-1], pack_deck(DECK) + b"\0", None, "x"])
def test_unpack_refuses_a_wrong_length(data: bytes) -> None:
    with pytest.raises(GroupError, match="a deck of 6 cards is 384 bytes"):
        unpack_deck(data, N)


# Permutations.


def test_sample_permutation_is_the_protocol_shuffle() -> None:
    """``perm`` is ``range(n)`` shuffled as PROTOCOL.md §6 shuffles a list."""
    for seed in range(20):
        output = seed.to_bytes(32, "big")
        perm = sample_permutation(BeaconStream(output), 9)
        items = list(range(9))
        BeaconStream(output).shuffle(items)
        assert perm == items
        letters = list("abcdefghi")
        BeaconStream(output).shuffle(letters)
        assert [("abcdefghi")[p] for p in perm] == letters


def chi_square_q(x: float, dof: int) -> float:
    """P(χ² with ``dof`` (even) degrees of freedom >= x) = e^{-x/2} Σ_{i<dof/2} (x/2)^i / i!."""
    assert dof % 2 == 0
    half = x / 2
    term, total = 1.0, 0.0
    for i in range(dof // 2):
        total += term
        term *= half / (i + 1)
    return math.exp(-half) * total


def test_chi_square_q_known_values() -> None:
    assert chi_square_q(5.0, 2) == pytest.approx(math.exp(-2.5))
    assert chi_square_q(39.252, 16) == pytest.approx(0.001, rel=1e-3)  # chi2.ppf(0.999, 16)
    assert chi_square_q(0.0, 16) == 1.0


def position_chi_square(sampler: Callable[[ScalarStream, int], list[int]]) -> float:
    """χ² over every (card, position) cell of 6000 permutations of 5 cards from one stream."""
    n, runs = 5, 6000
    stream = ScalarStream(bytes(32), b"chi-square")
    counts = [[0] * n for _ in range(n)]
    for _ in range(runs):
        for position, card in enumerate(sampler(stream, n)):
            counts[card][position] += 1
    expected = runs / n
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


def test_sample_permutation_is_uniform() -> None:
    # Rows and columns of the 5x5 table each sum to the run count: (5-1)^2 degrees of freedom.
    assert chi_square_q(position_chi_square(sample_permutation), 16) > 0.001


def test_the_uniformity_test_catches_the_naive_shuffle() -> None:
    def naive(stream: ScalarStream, n: int) -> list[int]:
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = stream.randbelow(n)  # the classic bug: n, not i + 1
            perm[i], perm[j] = perm[j], perm[i]
        return perm

    assert chi_square_q(position_chi_square(naive), 16) < 0.001


def test_check_permutation() -> None:
    assert check_permutation(bytes([2, 0, 1]), 3) == [2, 0, 1]
    assert check_permutation(b"", 0) == []
    for bad in (bytes([0, 0, 1]), bytes([0, 1, 3]), bytes([0, 1]), bytes([0, 1, 2, 3]), [0, 1, 2]):
        with pytest.raises(ShuffleError, match="not a permutation of 3 cards"):
            check_permutation(bad, 3)  # type: ignore[arg-type]


# Honest shuffles.


def test_shuffle_permutes_and_reencrypts() -> None:
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    assert sorted(secret.perm) == list(range(N))
    assert len(commitment.rounds) == len(secret.round_perms) == ROUNDS
    assert [open_card(ct) for ct in commitment.output] == [POINTS[p] for p in secret.perm]
    assert not set(commitment.output) & set(DECK)
    for middle, sigma in zip(commitment.rounds, secret.round_perms, strict=True):
        assert [open_card(ct) for ct in middle] == [POINTS[p] for p in sigma]


def test_shuffle_is_deterministic() -> None:
    first = shuffle_deck(DECK, KEY, SEED, LABEL)
    assert shuffle_deck(DECK, KEY, SEED, LABEL) == first
    assert shuffle_deck(DECK, KEY, SEED, b"other")[0].output != first[0].output
    assert shuffle_deck(DECK, KEY, bytes(32), LABEL)[0].output != first[0].output


def test_a_shuffle_drawn_before_its_deck_is_the_same_reencryption() -> None:
    """The masks are drawn before the input deck exists (a seat computes them while the seats
    before it shuffle): applied to any deck later, each card is ``reencrypt`` of its input card
    with the drawn scalar, byte for byte (§13.5)."""
    drawn = draw_shuffle(N, KEY, SEED, LABEL)
    later, _ = shuffle_deck(DECK, KEY, bytes(32), b"another")  # a deck not known at the draw
    commitment, secret = apply_shuffle(later.output, drawn)
    assert secret == drawn.secret
    perms = [secret.perm, *secret.round_perms]
    rands = [secret.rands, *secret.round_rands]
    for deck, perm, r in zip([commitment.output, *commitment.rounds], perms, rands, strict=True):
        assert deck == [reencrypt(later.output[p], KEY, k) for p, k in zip(perm, r, strict=True)]
    with pytest.raises(ValueError, match="drawn for 6 cards, not 5"):
        apply_shuffle(DECK[:5], drawn)


@pytest.mark.parametrize(
    "challenges",
    [[0] * ROUNDS, [1] * ROUNDS, ALTERNATING],
    ids=["all-0", "all-1", "alternating"],
)
def test_honest_shuffle_verifies(challenges: list[int]) -> None:
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    responses = respond(secret, challenges)
    for (perm, scalars), bit, sigma in zip(responses, challenges, secret.round_perms, strict=True):
        assert len(perm) == N and len(scalars) == 32 * N
        assert (list(perm) == sigma) == (bit == 0)
    verify_shuffle(DECK, commitment.output, commitment.rounds, challenges, responses, KEY)


def test_respond_needs_one_bit_per_round() -> None:
    _, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    for bad in ([0] * (ROUNDS - 1), [2] * ROUNDS):
        with pytest.raises(ValueError, match="challenge bits"):
            respond(secret, bad)


def test_shuffle_refuses_too_many_cards() -> None:
    with pytest.raises(ValueError, match="at most 256"):
        shuffle_deck(DECK * 43, KEY, SEED, LABEL)


# Verification failures.


Honest = tuple[list[bytes], list[list[bytes]], list[tuple[bytes, bytes]]]
"""An honest shuffle's output, intermediate decks and responses to ALTERNATING."""


@pytest.fixture(scope="module")
def honest() -> Honest:
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    return commitment.output, commitment.rounds, respond(secret, ALTERNATING)


def expect_failure(
    honest: Honest,
    match: str,
    *,
    output: list[bytes] | None = None,
    rounds: list[list[bytes]] | None = None,
    challenges: list[int] | None = None,
    responses: list | None = None,
) -> None:
    out, rds, resp = honest
    with pytest.raises(ShuffleError, match=match):
        verify_shuffle(
            DECK,
            out if output is None else output,
            rds if rounds is None else rounds,
            ALTERNATING if challenges is None else challenges,
            resp if responses is None else responses,
            KEY,
        )


def replace_response(
    responses: list, k: int, perm: bytes | None = None, scalars: bytes | None = None
) -> list:
    changed = list(responses)
    old_perm, old_scalars = changed[k]
    changed[k] = (old_perm if perm is None else perm, old_scalars if scalars is None else scalars)
    return changed


@pytest.mark.parametrize("k", [4, 7])
def test_a_tampered_scalar_names_the_round_and_card(honest: Honest, k: int) -> None:
    _, _, responses = honest
    scalars = responses[k][1]
    tampered = scalars[:64] + sc(int.from_bytes(scalars[64:96], "little") + 1) + scalars[96:]
    expect_failure(
        honest,
        f"^round {k}: card 2 does not match$",
        responses=replace_response(responses, k, scalars=tampered),
    )


@pytest.mark.parametrize("bad", [bytes(32), L.to_bytes(32, "little")], ids=["zero", "order"])
def test_a_zero_or_non_canonical_scalar_is_refused(honest: Honest, bad: bytes) -> None:
    _, _, responses = honest
    scalars = responses[3][1]
    expect_failure(
        honest,
        "^round 3: scalar 1 is not a canonical non-zero scalar$",
        responses=replace_response(responses, 3, scalars=scalars[:32] + bad + scalars[64:]),
    )


def test_a_scalar_plus_the_order_is_refused(honest: Honest) -> None:
    """libsodium would treat s + ℓ as s: only the canonical check stops the malleability."""
    _, _, responses = honest
    scalars = responses[0][1]
    shifted = (int.from_bytes(scalars[:32], "little") + L).to_bytes(32, "little")
    expect_failure(
        honest,
        "^round 0: scalar 0 is not",
        responses=replace_response(responses, 0, scalars=shifted + scalars[32:]),
    )


@pytest.mark.parametrize("perm", [bytes([0, 0, 1, 2, 3, 4]), bytes([0, 1, 2, 3, 4]), None])
def test_a_bad_permutation_is_refused(honest: Honest, perm: bytes | None) -> None:
    _, _, responses = honest
    changed = list(responses)
    changed[5] = (perm, responses[5][1])
    expect_failure(
        honest, "^round 5: the response is not a permutation of 6 cards$", responses=changed
    )


def test_a_swapped_permutation_does_not_match(honest: Honest) -> None:
    _, _, responses = honest
    perm = bytearray(responses[2][0])
    perm[0], perm[1] = perm[1], perm[0]
    expect_failure(
        honest,
        "^round 2: card 0 does not match$",
        responses=replace_response(responses, 2, bytes(perm)),
    )


def test_malformed_responses_and_counts(honest: Honest) -> None:
    output, rounds, responses = honest
    expect_failure(
        honest,
        "^round 1: the response is not a permutation and its scalars$",
        responses=[responses[0], b"junk", *responses[2:]],
    )
    expect_failure(
        honest,
        "^round 1: the response does not have 6 scalars$",
        responses=replace_response(responses, 1, scalars=responses[1][1][:-1]),
    )
    expect_failure(
        honest, "^round 0: the challenge is not a bit$", challenges=[2, *ALTERNATING[1:]]
    )
    expect_failure(honest, "40 rounds", responses=responses[:-1])
    expect_failure(honest, "40 rounds", rounds=rounds[:-1])
    expect_failure(honest, "40 rounds", challenges=ALTERNATING[:-1])
    expect_failure(honest, "the shuffled deck has 5 cards, not 6", output=output[:-1])
    expect_failure(
        honest,
        "^round 6: the intermediate deck does not have 6 cards$",
        rounds=[*rounds[:6], rounds[6][:-1], *rounds[7:]],
    )


@pytest.mark.parametrize("bit", [0, 1])
@pytest.mark.parametrize("garbage", [bytes(64), b"\x01" + bytes(63), b"\xff" * 64])
def test_garbage_in_an_intermediate_deck_is_a_mismatch(
    honest: Honest, bit: int, garbage: bytes
) -> None:
    """Intermediate decks are never validated, only compared: garbage never reaches libsodium."""
    _, rounds, _ = honest
    k = 8 + bit  # ALTERNATING has bit 0 in round 8 and bit 1 in round 9
    changed = [list(middle) for middle in rounds]
    changed[k] = [garbage] * N
    expect_failure(honest, f"^round {k}: card 0 does not match$", rounds=changed)


SMALL_ORDER = {
    2: bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    4: bytes(32),
    8: bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
}
"""A point of each small order on edwards25519 (outside the prime-order group)."""


@pytest.mark.parametrize("order", sorted(SMALL_ORDER))
@pytest.mark.parametrize(("bit", "card"), [(0, 0), (0, N - 1), (1, 0), (1, N - 1)])
def test_one_card_off_by_a_small_order_point_is_a_mismatch(
    honest: Honest, order: int, bit: int, card: int
) -> None:
    """One wrong equation among the proof's 40·n: card ``card`` of one round is the right
    point plus a point of small order (the same card modulo the cofactor).

    Every equation is checked on its own, byte for byte, so the card fails. A random linear
    combination of the equations (batch verification) catches it only by checking every
    intermediate point's subgroup (libsodium's scalar multiplication does, at half its cost);
    one summed with point additions alone would pass the card whenever its coefficient is a
    multiple of ``order`` (net/shuffle.py, ``verify_shuffle``).
    """
    _, rounds, responses = honest
    k = 8 + bit  # ALTERNATING has bit 0 in round 8 and bit 1 in round 9
    torsion = SMALL_ORDER[order]
    # bit 0 compares E_k[j] with input card σ[j]; bit 1 compares E_k[φ[j]] with output card j
    position = card if bit == 0 else responses[k][0][card]
    half = 0 if order != 4 else 32  # A for orders 2 and 8, B for order 4
    honest_card = rounds[k][position]
    right = honest_card[half : half + 32]
    off = add(right, torsion)
    assert sub(off, torsion) == right and off != right and not is_point(off)
    changed = [list(middle) for middle in rounds]
    changed[k][position] = honest_card[:half] + off + honest_card[half + 32 :]
    expect_failure(honest, f"^round {k}: card {card} does not match$", rounds=changed)


def test_the_first_bad_round_is_reported(honest: Honest) -> None:
    _, rounds, _ = honest
    changed = [list(middle) for middle in rounds]
    changed[11][0], changed[11][1] = changed[11][1], changed[11][0]
    changed[30][0] = bytes(64)
    changed[3][5] = changed[3][4]
    expect_failure(honest, "^round 3: ", rounds=changed)


def test_an_invalid_joint_key_fails_verification(honest: Honest) -> None:
    output, rounds, responses = honest
    with pytest.raises(ShuffleError, match=r"^round 0: "):
        verify_shuffle(DECK, output, rounds, ALTERNATING, responses, b"\x01" + bytes(31))


# A cheating shuffler: card CHEAT of its output encrypts a card point that is not in the deck.

CHEAT = 2
FOREIGN = card_point(LABEL, 99)


def cheat() -> tuple[list[bytes], ShuffleCommitment, ShuffleSecret]:
    """An honest shuffle whose output card CHEAT is swapped for an encryption of FOREIGN."""
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    output = list(commitment.output)
    r = sc(777)
    output[CHEAT] = base_mul(r) + add(FOREIGN, mul(r, KEY))
    assert open_card(output[CHEAT]) == FOREIGN
    return output, commitment, secret


def test_a_cheat_with_honest_intermediate_decks_fails_a_challenge_1_round() -> None:
    """Decks built from the input answer every bit 0, and no bit 1 round can be answered."""
    output, commitment, secret = cheat()
    all_zero = [0] * ROUNDS
    verify_shuffle(DECK, output, commitment.rounds, all_zero, respond(secret, all_zero), KEY)
    challenges = only(7, bit=1)
    with pytest.raises(ShuffleError, match=rf"^round 7: card {CHEAT} does not match$"):
        verify_shuffle(
            DECK, output, commitment.rounds, challenges, respond(secret, challenges), KEY
        )


def test_a_cheat_with_decks_built_from_the_output_fails_a_challenge_0_round() -> None:
    """Decks built back from the output answer every bit 1, and no bit 0 round can be answered.

    Each round picks ``φ`` and ``u`` and sets ``E[φ[j]] = output[j] − (G·u_j, Y·u_j)``. For bit 0
    the cheater opens every honest card correctly (``σ[φ[j]] = perm[j]``, ``t = r_j − u_j``);
    the foreign card has no opening.
    """
    output, _, secret = cheat()
    stream = ScalarStream(SEED, b"cheater")
    rounds, openings_1, openings_0 = [], [], []
    for _ in range(ROUNDS):
        phi = sample_permutation(stream, N)
        u = [stream.scalar() for _ in range(N)]
        middle, sigma, t = [b""] * N, [0] * N, [b""] * N
        for j in range(N):
            a, b = output[j][:32], output[j][32:]
            middle[phi[j]] = sub(a, base_mul(u[j])) + sub(b, mul(u[j], KEY))
            sigma[phi[j]] = secret.perm[j]
            t[phi[j]] = scalar_sub(secret.rands[j], u[j])
        rounds.append(middle)
        openings_1.append((bytes(phi), b"".join(u)))
        openings_0.append((bytes(sigma), b"".join(t)))
    all_one = [1] * ROUNDS
    verify_shuffle(DECK, output, rounds, all_one, openings_1, KEY)
    challenges = only(12, bit=0)
    responses = [openings_0[k] if bit == 0 else openings_1[k] for k, bit in enumerate(challenges)]
    bad_card = openings_1[12][0][CHEAT]
    with pytest.raises(ShuffleError, match=rf"^round 12: card {bad_card} does not match$"):
        verify_shuffle(DECK, output, rounds, challenges, responses, KEY)
