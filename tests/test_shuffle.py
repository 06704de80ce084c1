"""ElGamal decks, re-encryption and the Terelius–Wikström proof of a shuffle (net/shuffle.py).

Spec: docs/PROTOCOL.md §13. Decks are small (6 cards; the property tests go from 1 to 40). A
cheating shuffler is simulated by publishing a deck its secret does not give (or a secret that
is no permutation) and proving with the real prover, the best it can do without breaking the
discrete logarithm or the hash.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.net.beacon import BeaconStream
from hexlan.net.group import (
    GROUP_ORDER,
    GroupError,
    ScalarStream,
    add,
    base_mul,
    is_point,
    mul,
    sub,
)
from hexlan.net.shuffle import (
    ShuffleCommitment,
    ShuffleError,
    ShuffleProof,
    ShuffleSecret,
    apply_shuffle,
    card_point,
    commitment_generators,
    decrypt,
    decryption_base,
    draw_shuffle,
    initial_deck,
    pack_deck,
    prove_shuffle,
    reencrypt,
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
CONTEXT = b"game id || label || seat || beacon output"


def open_card(ct: bytes) -> bytes:
    return decrypt(ct, [mul(SECRET, decryption_base(ct))])


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


# The commitment generators.


def test_commitment_generators_are_independent_points() -> None:
    h, generators = commitment_generators(N)
    assert all(is_point(p) for p in (h, *generators))
    assert len({h, *generators, base_mul(sc(1))}) == N + 2
    assert commitment_generators(N + 3)[1][:N] == generators  # h_j does not depend on n
    assert commitment_generators(N + 3)[0] == h


# Honest shuffles.


def test_shuffle_permutes_and_reencrypts() -> None:
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    assert sorted(secret.perm) == list(range(N))
    assert [open_card(ct) for ct in commitment.output] == [POINTS[p] for p in secret.perm]
    assert commitment.output == [
        reencrypt(DECK[p], KEY, r) for p, r in zip(secret.perm, secret.rands, strict=True)
    ]
    assert not set(commitment.output) & set(DECK)
    # c_i commits to input card i's output position: G·ρ_i + h_{perm⁻¹[i]}
    _, generators = commitment_generators(N)
    for j, i in enumerate(secret.perm):
        expected = add(base_mul(secret.commit_rands[i]), generators[j])
        assert commitment.permutation[i] == expected
    assert secret.chain_bases == [base_mul(k) for k in secret.chain_rands]


def test_shuffle_is_deterministic() -> None:
    first = shuffle_deck(DECK, KEY, SEED, LABEL)
    assert shuffle_deck(DECK, KEY, SEED, LABEL) == first
    assert shuffle_deck(DECK, KEY, SEED, b"other")[0].output != first[0].output
    assert shuffle_deck(DECK, KEY, bytes(32), LABEL)[0].output != first[0].output


def test_the_draws_come_in_the_protocol_order() -> None:
    """``perm``, then ``r``, ``ρ`` and ``ρ̂`` from one stream (PROTOCOL.md §13.5)."""
    _, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    stream = ScalarStream(SEED, LABEL)
    assert sample_permutation(stream, N) == secret.perm
    for drawn in (secret.rands, secret.commit_rands, secret.chain_rands):
        assert [stream.scalar() for _ in range(N)] == drawn


def test_a_shuffle_drawn_before_its_deck_is_the_same_reencryption() -> None:
    """The masks are drawn before the input deck exists (a seat computes them while the seats
    before it shuffle): applied to any deck later, each card is ``reencrypt`` of its input card
    with the drawn scalar, byte for byte (§13.5)."""
    drawn = draw_shuffle(N, KEY, SEED, LABEL)
    later, _ = shuffle_deck(DECK, KEY, bytes(32), b"another")  # a deck not known at the draw
    commitment, secret = apply_shuffle(later.output, drawn)
    assert secret == drawn.secret
    assert commitment.output == [
        reencrypt(later.output[p], KEY, k) for p, k in zip(secret.perm, secret.rands, strict=True)
    ]
    with pytest.raises(ValueError, match="drawn for 6 cards, not 5"):
        apply_shuffle(DECK[:5], drawn)


def test_shuffle_refuses_too_many_cards() -> None:
    with pytest.raises(ValueError, match=r"1..256 cards"):
        shuffle_deck(DECK * 43, KEY, SEED, LABEL)


def prove(
    output: list[bytes] | None = None,
    secret: ShuffleSecret | None = None,
    permutation: list[bytes] | None = None,
    deck: list[bytes] = DECK,
    context: bytes = CONTEXT,
) -> tuple[list[bytes], ShuffleProof]:
    """The real prover's proof of an honest shuffle of ``deck`` with any part replaced: what a
    cheater that publishes ``output`` (or commits to ``permutation``) can prove at best."""
    commitment, honest_secret = shuffle_deck(deck, KEY, SEED, LABEL)
    commitment = ShuffleCommitment(
        commitment.output if output is None else output,
        commitment.permutation if permutation is None else permutation,
    )
    proof = prove_shuffle(deck, commitment, secret or honest_secret, KEY, context)
    return commitment.output, proof


def test_honest_shuffle_verifies() -> None:
    output, proof = prove()
    assert len(proof.permutation) == len(proof.chain) == N
    assert len(proof.responses) == 2 * N + 4
    packed = proof.pack()
    assert [len(part) for part in packed] == [32 * N, 32 * N, 32, 32 * (2 * N + 4)]
    assert ShuffleProof.unpack(packed, N) == proof
    verify_shuffle(DECK, output, ShuffleProof.unpack(packed, N), KEY, CONTEXT)


def test_the_proof_is_deterministic_and_bound_to_its_context() -> None:
    """A restarted seat proves with the same bytes; the proof holds only under its context
    (game, deck, seat, challenge event) and its nonces change with the statement."""
    output, proof = prove()
    assert prove() == (output, proof)
    _, other = prove(context=CONTEXT + b"!")
    assert other.challenge != proof.challenge
    assert set(other.responses).isdisjoint(proof.responses)
    with pytest.raises(ShuffleError, match=r"^the challenge is not the hash"):
        verify_shuffle(DECK, output, proof, KEY, CONTEXT + b"!")


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 40),
    seed=st.binary(min_size=32, max_size=32),
    tamper=st.integers(0, 2**32),
)
def test_property_honest_proofs_verify_and_any_changed_part_fails(
    n: int, seed: bytes, tamper: int
) -> None:
    points = [card_point(b"property", i) for i in range(n)]
    deck = initial_deck(points, KEY)
    commitment, secret = shuffle_deck(deck, KEY, seed, b"property")
    proof = prove_shuffle(deck, commitment, secret, KEY, CONTEXT)
    verify_shuffle(deck, commitment.output, ShuffleProof.unpack(proof.pack(), n), KEY, CONTEXT)
    # Change one scalar, or one point to another point of the group, anywhere in the proof.
    scalars = [proof.challenge, *proof.responses]
    points_ = [*proof.permutation, *proof.chain]
    k = tamper % (len(scalars) + len(points_))
    if k < len(scalars):
        scalars[k] = sc(int.from_bytes(scalars[k], "little") + 1 + tamper)
    else:
        points_[k - len(scalars)] = add(points_[k - len(scalars)], base_mul(sc(1 + tamper)))
    bad = ShuffleProof(points_[:n], points_[n:], scalars[0], scalars[1:])
    with pytest.raises(ShuffleError):
        verify_shuffle(deck, commitment.output, bad, KEY, CONTEXT)


# Verification failures: cheating shufflers.

OTHER_FACE = card_point(LABEL, 99)


def expect_failure(output: list[bytes], proof: ShuffleProof, deck: list[bytes] = DECK) -> None:
    with pytest.raises(ShuffleError, match=r"^the challenge is not the hash"):
        verify_shuffle(deck, output, proof, KEY, CONTEXT)


@pytest.mark.parametrize("face", [OTHER_FACE, POINTS[0]], ids=["foreign", "duplicate"])
def test_a_card_replaced_by_a_fresh_encryption_of_another_face_fails(face: bytes) -> None:
    commitment, _ = shuffle_deck(DECK, KEY, SEED, LABEL)
    output = list(commitment.output)
    target = next(j for j, ct in enumerate(output) if open_card(ct) != face)
    output[target] = base_mul(sc(777)) + add(face, mul(sc(777), KEY))
    assert open_card(output[target]) == face
    expect_failure(*prove(output=output))  # proven with its honest secret
    _, honest_proof = prove()
    expect_failure(output, honest_proof)  # the honest proof, another output


def test_two_outputs_swapped_against_the_committed_permutation_fail() -> None:
    commitment, _ = shuffle_deck(DECK, KEY, SEED, LABEL)
    output = list(commitment.output)
    output[0], output[1] = output[1], output[0]
    expect_failure(*prove(output=output))


def test_a_wrong_reencryption_scalar_fails() -> None:
    """The output re-encrypts card 3 with ``r_3 + 1`` while the secret says ``r_3``."""
    commitment, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    output = list(commitment.output)
    wrong = sc(int.from_bytes(secret.rands[3], "little") + 1)
    output[3] = reencrypt(DECK[secret.perm[3]], KEY, wrong)
    expect_failure(*prove(output=output))
    # a secret that says r_3 + 1 proves the output it gives: the scalar is the prover's choice
    rands = [*secret.rands[:3], wrong, *secret.rands[4:]]
    proven, proof = prove(output=output, secret=dataclasses.replace(secret, rands=rands))
    verify_shuffle(DECK, proven, proof, KEY, CONTEXT)
    # but not with the honest scalar
    expect_failure(proven, prove()[1])


def test_a_duplicated_card_with_a_consistent_commitment_fails() -> None:
    """Not a permutation: output cards 0 and 1 both re-encrypt input card ``perm[0]``, and the
    commitments say so (``c_i = G·ρ_i + Σ h_j`` over the outputs ``j`` of input ``i``). The
    output and every equation but the product of the permuted challenges hold."""
    _, secret = shuffle_deck(DECK, KEY, SEED, LABEL)
    perm = [secret.perm[0], *secret.perm[:1], *secret.perm[2:]]
    assert sorted(perm) != list(range(N))
    output = [reencrypt(DECK[p], KEY, r) for p, r in zip(perm, secret.rands, strict=True)]
    _, generators = commitment_generators(N)
    permutation = []
    for i, rho in enumerate(secret.commit_rands):
        c = base_mul(rho)
        for j, p in enumerate(perm):
            if p == i:
                c = add(c, generators[j])
        permutation.append(c)
    cheat = dataclasses.replace(secret, perm=perm)
    expect_failure(*prove(output=output, secret=cheat, permutation=permutation))


@pytest.mark.parametrize("part", ["permutation", "chain"])
@pytest.mark.parametrize("index", [0, N - 1])
def test_a_tampered_commitment_fails(part: str, index: int) -> None:
    output, proof = prove()
    points = list(getattr(proof, part))
    points[index] = add(points[index], base_mul(sc(1)))
    expect_failure(output, dataclasses.replace(proof, **{part: points}))


@pytest.mark.parametrize("index", [0, 1, 2, 3, 4, 3 + N, 4 + N, 3 + 2 * N])
def test_a_tampered_response_fails(index: int) -> None:
    """``s1 .. s4``, the first and last ``ŝ_j`` and the first and last ``s'_j``."""
    output, proof = prove()
    responses = list(proof.responses)
    responses[index] = sc(int.from_bytes(responses[index], "little") + 1)
    expect_failure(output, dataclasses.replace(proof, responses=responses))


def test_a_tampered_challenge_fails() -> None:
    output, proof = prove()
    challenge = sc(int.from_bytes(proof.challenge, "little") + 1)
    expect_failure(output, dataclasses.replace(proof, challenge=challenge))


def test_a_proof_of_another_input_deck_fails() -> None:
    output, proof = prove()
    other, _ = shuffle_deck(DECK, KEY, bytes(32), b"another")
    expect_failure(output, proof, deck=other.output)


def test_an_invalid_joint_key_fails_verification() -> None:
    output, proof = prove()
    with pytest.raises(ShuffleError):
        verify_shuffle(DECK, output, proof, b"\x01" + bytes(31), CONTEXT)


def test_wrong_counts_fail() -> None:
    output, proof = prove()
    with pytest.raises(ShuffleError, match="not all of 6 cards"):
        verify_shuffle(DECK, output[:-1], proof, KEY, CONTEXT)
    with pytest.raises(ShuffleError, match="has 16 responses"):
        verify_shuffle(
            DECK, output, dataclasses.replace(proof, responses=proof.responses[:-1]), KEY, CONTEXT
        )


SMALL_ORDER = {
    2: bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    4: bytes(32),
    8: bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
}
"""A point of each small order on edwards25519 (outside the prime-order group)."""


@pytest.mark.parametrize("order", sorted(SMALL_ORDER))
@pytest.mark.parametrize(("half", "card"), [(0, 0), (1, N - 1)])
def test_an_output_card_off_by_a_small_order_point_is_refused(
    order: int, half: int, card: int
) -> None:
    """A card plus a point of small order is the same card modulo the cofactor, and the proof's
    sums could not see it if it were summed with additions alone (a multiple of the order in its
    coefficient cancels it): it is refused when the deck is received (:func:`unpack_deck`), and
    a verifier given it anyway fails, since libsodium's ``P·k`` refuses a point off the group."""
    output, proof = prove()
    torsion = SMALL_ORDER[order]
    right = output[card][32 * half : 32 * half + 32]
    off = add(right, torsion)
    assert sub(off, torsion) == right and off != right and not is_point(off)
    changed = list(output)
    changed[card] = output[card][: 32 * half] + off + output[card][32 * half + 32 :]
    with pytest.raises(GroupError, match=f"card {card} is not a pair of points"):
        unpack_deck(pack_deck(changed), N)
    with pytest.raises(ShuffleError, match=r"^the proof does not verify"):
        verify_shuffle(DECK, changed, proof, KEY, CONTEXT)


@pytest.mark.parametrize("part", [0, 1])
@pytest.mark.parametrize("bad", [bytes(32), SMALL_ORDER[8], b"\xee" + b"\xff" * 30 + b"\x7f"])
def test_unpack_refuses_a_commitment_that_is_not_a_point(part: int, bad: bytes) -> None:
    _, proof = prove()
    fields = list(proof.pack())
    fields[part] = fields[part][:32] + bad + fields[part][64:]
    what = "permutation commitment" if part == 0 else "chain"
    with pytest.raises(ShuffleError, match=rf"^{what} 1 is not a point of the group$"):
        ShuffleProof.unpack(fields, N)
    torsion_added = add(fields[part][:32], SMALL_ORDER[4])
    fields[part] = torsion_added + fields[part][32:]
    with pytest.raises(ShuffleError, match=rf"^{what} 0 is not a point"):
        ShuffleProof.unpack(fields, N)


@pytest.mark.parametrize(
    "bad", [bytes(32), L.to_bytes(32, "little"), b"\xff" * 32], ids=["zero", "order", "big"]
)
def test_unpack_refuses_a_zero_or_non_canonical_scalar(bad: bytes) -> None:
    _, proof = prove()
    fields = list(proof.pack())
    with pytest.raises(ShuffleError, match=r"^the challenge is not a canonical"):
        ShuffleProof.unpack([*fields[:2], bad, fields[3]], N)
    responses = fields[3][:64] + bad + fields[3][96:]
    with pytest.raises(ShuffleError, match=r"^response 2 is not a canonical non-zero scalar$"):
        ShuffleProof.unpack([*fields[:3], responses], N)


def test_unpack_refuses_a_scalar_plus_the_order() -> None:
    """libsodium would treat s + ℓ as s: only the canonical check stops the malleability."""
    _, proof = prove()
    fields = list(proof.pack())
    shifted = (int.from_bytes(fields[2], "little") + L).to_bytes(32, "little")
    with pytest.raises(ShuffleError, match=r"^the challenge is not a canonical"):
        ShuffleProof.unpack([*fields[:2], shifted, fields[3]], N)


@pytest.mark.parametrize("part", [0, 1, 2, 3])
def test_unpack_refuses_wrong_sizes(part: int) -> None:
    _, proof = prove()
    fields: list[object] = list(proof.pack())
    for bad in (fields[part][:-1], fields[part] + bytes(32), "text"):  # type: ignore[index,operator]
        changed = [*fields[:part], bad, *fields[part + 1 :]]
        with pytest.raises(ShuffleError, match=r"^a proof of 6 cards has parts of \[192, 192"):
            ShuffleProof.unpack(changed, N)
    with pytest.raises(ShuffleError, match="parts of"):
        ShuffleProof.unpack(fields[:3], N)
