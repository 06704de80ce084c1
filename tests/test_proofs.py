"""Schnorr key proofs, Chaum–Pedersen DLEQ proofs and their disjunction (net/proofs.py).

Spec: docs/PROTOCOL.md §13. Verifiers take peer data, so every malformed or forged input must
give ``False``, never an exception.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.net.group import (
    GROUP_ORDER,
    GroupError,
    add,
    base_mul,
    hash_to_point,
    is_point,
    mul,
    scalar_add,
    sub,
)
from hexlan.net.proofs import (
    prove_dleq,
    prove_dleq_any,
    prove_key,
    verify_dleq,
    verify_dleq_any,
    verify_key,
)

L = GROUP_ORDER


def sc(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


X = sc(0x1234567890ABCDEF << 100)
X_OTHER = sc(987654321987654321)
CONTEXT = b"game\0seat-1"
BASE = hash_to_point(b"test\0", b"base")
IDENTITY = b"\x01" + bytes(31)
ORDER_TWO = b"\xec" + b"\xff" * 30 + b"\x7f"
BAD_POINTS = [bytes(32), IDENTITY, ORDER_TWO, b"\xee" + b"\xff" * 30 + b"\x7f", BASE[:31], None]


def with_byte_flipped(data: bytes, i: int) -> bytes:
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :]


def non_canonical(proof: bytes, half: int) -> bytes:
    """The proof with c (half 0) or z (half 1) replaced by the same value plus ℓ."""
    parts = [proof[:32], proof[32:]]
    parts[half] = (int.from_bytes(parts[half], "little") + L).to_bytes(32, "little")
    return b"".join(parts)


# Key proofs.


def test_key_proof_round_trip() -> None:
    share, proof = prove_key(X, CONTEXT)
    assert share == base_mul(X)
    assert len(proof) == 64
    assert verify_key(share, proof, CONTEXT)


def test_key_proof_is_deterministic_per_context() -> None:
    assert prove_key(X, CONTEXT) == prove_key(X, CONTEXT)
    assert prove_key(X, CONTEXT)[1] != prove_key(X, b"other")[1]


def test_key_proof_is_bound_to_context_and_share() -> None:
    share, proof = prove_key(X, CONTEXT)
    assert not verify_key(share, proof, b"game\0seat-2")
    assert not verify_key(base_mul(X_OTHER), proof, CONTEXT)


@pytest.mark.parametrize("i", [0, 17, 31, 32, 50, 63])
def test_key_proof_with_a_flipped_byte_fails(i: int) -> None:
    share, proof = prove_key(X, CONTEXT)
    assert not verify_key(share, with_byte_flipped(proof, i), CONTEXT)
    assert not verify_key(with_byte_flipped(share, i % 32), proof, CONTEXT)


def test_key_proof_scalars_must_be_canonical_and_non_zero() -> None:
    share, proof = prove_key(X, CONTEXT)
    # libsodium would multiply by z + ℓ just as by z: only the canonical check refuses it.
    assert not verify_key(share, non_canonical(proof, 1), CONTEXT)
    assert not verify_key(share, non_canonical(proof, 0), CONTEXT)
    assert not verify_key(share, bytes(32) + proof[32:], CONTEXT)
    assert not verify_key(share, proof[:32] + bytes(32), CONTEXT)
    assert not verify_key(share, bytes(64), CONTEXT)


@pytest.mark.parametrize("bad", BAD_POINTS)
def test_key_proof_for_an_invalid_share_fails(bad: bytes) -> None:
    _, proof = prove_key(X, CONTEXT)
    assert not verify_key(bad, proof, CONTEXT)


def test_rogue_key_cannot_be_proven() -> None:
    """Y' = G·a − Y_victim would make the joint key G·a, known to the attacker alone."""
    victim = base_mul(X)
    a = sc(42424242)
    rogue = sub(base_mul(a), victim)
    assert is_point(rogue)
    _, proof_for_a = prove_key(a, CONTEXT)
    assert not verify_key(rogue, proof_for_a, CONTEXT)
    _, victims_proof = prove_key(X, CONTEXT)
    assert not verify_key(rogue, victims_proof, CONTEXT)
    # A Schnorr forgery attempt: pick z and c, solve for R; the hash will not give back c.
    c, z = sc(7), sc(11)
    assert not verify_key(rogue, c + z, CONTEXT)


def test_prove_key_refuses_a_bad_secret() -> None:
    for bad in (bytes(32), sc(0), L.to_bytes(32, "little"), X[:31]):
        with pytest.raises(GroupError):
            prove_key(bad, CONTEXT)


junk = st.one_of(st.none(), st.binary(max_size=70), st.text(max_size=5), st.integers())


@settings(max_examples=60)
@given(share=junk, proof=junk, context=st.binary(max_size=8))
def test_verify_key_never_raises(share: object, proof: object, context: bytes) -> None:
    assert verify_key(share, proof, context) is False  # type: ignore[arg-type]


# DLEQ proofs.


def test_dleq_round_trip() -> None:
    share, proof = prove_dleq(X, BASE, CONTEXT)
    assert share == mul(X, BASE)
    assert verify_dleq(base_mul(X), BASE, share, proof, CONTEXT)
    assert prove_dleq(X, BASE, CONTEXT) == (share, proof)


def test_dleq_binds_every_input() -> None:
    public = base_mul(X)
    share, proof = prove_dleq(X, BASE, CONTEXT)
    other_base = hash_to_point(b"test\0", b"other")
    assert not verify_dleq(public, BASE, share, proof, b"other context")
    assert not verify_dleq(base_mul(X_OTHER), BASE, share, proof, CONTEXT)
    assert not verify_dleq(public, other_base, share, proof, CONTEXT)
    assert not verify_dleq(public, BASE, mul(X_OTHER, BASE), proof, CONTEXT)


def test_a_wrong_share_cannot_be_proven() -> None:
    """A seat that publishes D + P instead of D (to make the owner open a wrong card) fails."""
    public = base_mul(X)
    share, proof = prove_dleq(X, BASE, CONTEXT)
    shifted = add(share, BASE)
    assert shifted == mul(scalar_add(X, sc(1)), BASE)
    assert not verify_dleq(public, BASE, shifted, proof, CONTEXT)
    # Proving with another secret gives a valid proof, but of a different public key.
    other_share, other_proof = prove_dleq(X_OTHER, BASE, CONTEXT)
    assert not verify_dleq(public, BASE, other_share, other_proof, CONTEXT)


@pytest.mark.parametrize("i", [0, 31, 32, 63])
def test_dleq_with_a_flipped_byte_fails(i: int) -> None:
    public = base_mul(X)
    share, proof = prove_dleq(X, BASE, CONTEXT)
    assert not verify_dleq(public, BASE, share, with_byte_flipped(proof, i), CONTEXT)
    assert not verify_dleq(public, BASE, with_byte_flipped(share, i % 32), proof, CONTEXT)


def test_dleq_scalars_must_be_canonical_and_non_zero() -> None:
    public = base_mul(X)
    share, proof = prove_dleq(X, BASE, CONTEXT)
    for bad in (
        non_canonical(proof, 0),
        non_canonical(proof, 1),
        bytes(64),
        proof[:32] + bytes(32),
    ):
        assert not verify_dleq(public, BASE, share, bad, CONTEXT)


@pytest.mark.parametrize("bad", BAD_POINTS)
def test_dleq_with_invalid_points_fails(bad: bytes) -> None:
    public = base_mul(X)
    share, proof = prove_dleq(X, BASE, CONTEXT)
    assert not verify_dleq(bad, BASE, share, proof, CONTEXT)
    assert not verify_dleq(public, bad, share, proof, CONTEXT)
    assert not verify_dleq(public, BASE, bad, proof, CONTEXT)


def test_prove_dleq_refuses_bad_inputs() -> None:
    with pytest.raises(GroupError):
        prove_dleq(bytes(32), BASE, CONTEXT)
    for bad in (IDENTITY, ORDER_TWO, BASE[:31]):
        with pytest.raises(GroupError):
            prove_dleq(X, bad, CONTEXT)


@settings(max_examples=60)
@given(public=junk, share=junk, proof=junk)
def test_verify_dleq_never_raises(public: object, share: object, proof: object) -> None:
    assert verify_dleq(public, BASE, share, proof, CONTEXT) is False  # type: ignore[arg-type]


def test_proof_domains_differ() -> None:
    """A key proof is not a DLEQ proof for base G (the domains separate them)."""
    g = base_mul(sc(1))
    public, key_proof = prove_key(X, CONTEXT)
    assert not verify_dleq(public, g, public, key_proof, CONTEXT)
    share, dleq_proof = prove_dleq(X, g, CONTEXT)
    assert verify_dleq(public, g, share, dleq_proof, CONTEXT)
    assert not verify_key(share, dleq_proof, CONTEXT)


# Disjunctive DLEQ proofs: one of several statements holds, not saying which.

BASES = [hash_to_point(b"test\0", b"base %d" % j) for j in range(4)]


def statements(real: int, secret: bytes = X) -> list[tuple[bytes, bytes]]:
    """Four statements ``(A_j, T_j)``, ``T_j = A_j·secret`` only for ``j == real``: the others
    are ``A_j`` times another scalar (as a position holding another card would be)."""
    return [
        (base, mul(secret if j == real else sc(1000 + j), base)) for j, base in enumerate(BASES)
    ]


@pytest.mark.parametrize("real", range(4))
def test_dleq_any_round_trip_for_each_true_branch(real: int) -> None:
    public, stmts = base_mul(X), statements(real)
    proof = prove_dleq_any(X, stmts, real, CONTEXT)
    assert len(proof) == 4 and all(len(entry) == 64 for entry in proof)
    assert verify_dleq_any(public, stmts, proof, CONTEXT)
    assert prove_dleq_any(X, stmts, real, CONTEXT) == proof  # deterministic
    assert prove_dleq_any(X, stmts, real, b"another context") != proof


def test_dleq_any_with_one_statement_is_a_dleq() -> None:
    stmts = statements(0)[:1]
    proof = prove_dleq_any(X, stmts, 0, CONTEXT)
    assert verify_dleq_any(base_mul(X), stmts, proof, CONTEXT)


def test_dleq_any_binds_every_input() -> None:
    public, stmts = base_mul(X), statements(2)
    proof = prove_dleq_any(X, stmts, 2, CONTEXT)
    assert not verify_dleq_any(public, stmts, proof, b"other context")
    assert not verify_dleq_any(base_mul(X_OTHER), stmts, proof, CONTEXT)
    assert not verify_dleq_any(public, stmts[::-1], proof[::-1], CONTEXT)  # another order
    assert not verify_dleq_any(public, stmts[:3], proof[:3], CONTEXT)  # a branch dropped
    assert not verify_dleq_any(public, stmts, [*proof[1:], proof[0]], CONTEXT)
    moved = [stmts[0], (stmts[1][0], add(stmts[1][1], BASE)), *stmts[2:]]
    assert not verify_dleq_any(public, moved, proof, CONTEXT)  # a target changed
    assert not verify_dleq_any(public, stmts, proof[:3], CONTEXT)  # too few entries
    assert not verify_dleq_any(public, stmts, [*proof, proof[0]], CONTEXT)  # too many


def test_dleq_any_of_false_statements_cannot_be_proven() -> None:
    """No branch holds: the prover refuses, and a proof made for true statements does not fit
    false ones (the same bases, every target shifted off ``A·x``)."""
    public = base_mul(X)
    false = statements(-1)
    for real in range(4):
        with pytest.raises(GroupError, match="does not hold"):
            prove_dleq_any(X, false, real, CONTEXT)
    with pytest.raises(GroupError, match="does not hold"):
        prove_dleq_any(X, statements(1), 2, CONTEXT)  # the wrong branch named
    proof = prove_dleq_any(X, statements(1), 1, CONTEXT)
    assert not verify_dleq_any(public, false, proof, CONTEXT)
    # another secret's true statement proves its own key, not this one
    other = prove_dleq_any(X_OTHER, statements(3, X_OTHER), 3, CONTEXT)
    assert not verify_dleq_any(public, statements(3, X_OTHER), other, CONTEXT)
    assert verify_dleq_any(base_mul(X_OTHER), statements(3, X_OTHER), other, CONTEXT)


@pytest.mark.parametrize("i", [0, 31, 32, 63])
@pytest.mark.parametrize("branch", [0, 2])
def test_dleq_any_with_a_flipped_byte_fails(i: int, branch: int) -> None:
    """Bit flips in the real branch (2) and in a simulated one (0) alike."""
    public, stmts = base_mul(X), statements(2)
    proof = prove_dleq_any(X, stmts, 2, CONTEXT)
    forged = list(proof)
    forged[branch] = with_byte_flipped(proof[branch], i)
    assert not verify_dleq_any(public, stmts, forged, CONTEXT)


def test_dleq_any_scalars_must_be_canonical_and_non_zero() -> None:
    public, stmts = base_mul(X), statements(1)
    proof = prove_dleq_any(X, stmts, 1, CONTEXT)
    for branch in (0, 1):
        for bad in (non_canonical(proof[branch], 0), non_canonical(proof[branch], 1), bytes(64)):
            forged = list(proof)
            forged[branch] = bad
            assert not verify_dleq_any(public, stmts, forged, CONTEXT)


@pytest.mark.parametrize("bad", BAD_POINTS)
def test_dleq_any_with_invalid_points_fails(bad: bytes) -> None:
    public, stmts = base_mul(X), statements(0)
    proof = prove_dleq_any(X, stmts, 0, CONTEXT)
    assert not verify_dleq_any(bad, stmts, proof, CONTEXT)
    assert not verify_dleq_any(public, [*stmts[:3], (bad, stmts[3][1])], proof, CONTEXT)
    assert not verify_dleq_any(public, [*stmts[:3], (stmts[3][0], bad)], proof, CONTEXT)


def test_prove_dleq_any_refuses_bad_inputs() -> None:
    stmts = statements(0)
    with pytest.raises(GroupError):
        prove_dleq_any(bytes(32), stmts, 0, CONTEXT)
    with pytest.raises(ValueError):
        prove_dleq_any(X, [], 0, CONTEXT)
    with pytest.raises(ValueError):
        prove_dleq_any(X, stmts, 4, CONTEXT)
    for bad in (IDENTITY, ORDER_TWO, BASE[:31]):
        with pytest.raises(GroupError):
            prove_dleq_any(X, [*stmts[:3], (stmts[3][0], bad)], 0, CONTEXT)


@settings(max_examples=60)
@given(public=junk, entry=junk, count=st.integers(0, 5))
def test_verify_dleq_any_never_raises(public: object, entry: object, count: int) -> None:
    proof = [entry] * count
    assert verify_dleq_any(public, statements(0), proof, CONTEXT) is False  # type: ignore[arg-type]
    assert verify_dleq_any(base_mul(X), statements(0), proof, CONTEXT) is False  # type: ignore[arg-type]


def test_a_dleq_any_branch_is_no_dleq_proof() -> None:
    """No entry of a disjunctive proof, not even the true branch's, passes as a plain DLEQ proof
    of its statement (the domains and challenges differ): an entry says nothing alone."""
    public, stmts = base_mul(X), statements(1)
    proof = prove_dleq_any(X, stmts, 1, CONTEXT)
    for (base, target), entry in zip(stmts, proof, strict=True):
        assert not verify_dleq(public, base, target, entry, CONTEXT)


def test_dleq_any_hides_the_true_branch() -> None:
    """Two worlds that differ only in which branch is true: 0 or 3 (a card at the owner's lowest
    or highest listed position). Over many contexts every branch's challenge and response look
    alike, uniform, in both worlds: their share in the lower half of ``ℓ`` is 1/2 within five
    standard deviations, whichever branch is real."""
    runs = 240
    worlds = {}
    for real in (0, 3):
        # the same statements in both worlds: the true branch's target is A·x, the others'
        # are fixed points; only which index holds A·x moves
        stmts = statements(real)
        halves = [[0, 0] for _ in stmts]
        for n in range(runs):
            context = CONTEXT + n.to_bytes(4, "big")
            proof = prove_dleq_any(X, stmts, real, context)
            assert verify_dleq_any(base_mul(X), stmts, proof, context)
            for j, entry in enumerate(proof):
                for half in (0, 1):
                    value = int.from_bytes(entry[32 * half : 32 * half + 32], "little")
                    halves[j][half] += value < L // 2
        worlds[real] = halves
    bound = 5 * (runs * 0.25) ** 0.5
    for halves in worlds.values():
        for counts in halves:
            for count in counts:
                assert abs(count - runs / 2) < bound, worlds
