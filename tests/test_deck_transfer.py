"""A dealt card changing holder: the re-encryption proof (net/proofs.py) and the deck's and
dealer's transfer (net/deck.py, net/dealing.py).

Spec: docs/PROTOCOL.md §7.3 (the Cities & Knights Spy) and §13. :class:`Table` plays three
seats, each with its own :class:`Dealer` over its own :class:`Deck` (its view), fed exactly the
bytes the seats publish. Verifiers take peer data: every forged or malformed input must fail,
naming the seat whose data it is, never raise anything else.
"""

from __future__ import annotations

import hashlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.net.dealing import Dealer, MovedItem
from hexlan.net.deck import Deck, DeckError, JointKey, derive_deck_secret
from hexlan.net.group import GROUP_ORDER, add, base_mul, mul, sub
from hexlan.net.proofs import (
    REENCRYPTION_PROOF_BYTES,
    prove_reencryption,
    verify_reencryption,
)
from hexlan.net.shuffle import card_point, pack_deck

GAME_ID = bytes(range(32))
LABEL = "politics"
FACES = [0, 0, 1, 2, 3, 4, 5, 6]
BEACON = b"\x44" * 32
SPY = (7).to_bytes(8, "big")  # the caller's context: a Spy's number
ORDER_TWO = bytes([0xEC] + [0xFF] * 30 + [0x7F])  # (0, −1): a point of order 2
ORDER_EIGHT = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")

PLAYER, VICTIM, THIRD = 0, 1, 2


def sc(n: int) -> bytes:
    return (n % GROUP_ORDER).to_bytes(32, "little")


class Table:
    """Three seats with their seeds, each with a dealer over its own view of one deck; the
    victim is dealt positions 0, 1 and 2, the player 3, the third seat 4."""

    def __init__(self) -> None:
        self.seeds = [hashlib.sha256(b"spy-seat" + bytes([s])).digest() for s in range(3)]
        self.secrets = [derive_deck_secret(seed) for seed in self.seeds]
        self.dealers = [
            Dealer(Deck(LABEL, FACES, JointKey(3, GAME_ID), GAME_ID), s, self.seeds[s])
            for s in range(3)
        ]
        for seat in range(3):
            share, proof = self.dealers[seat].key_payload()
            for dealer in self.dealers:
                dealer.deck.key.add(seat, share, proof)
        shuffles = []
        for seat in range(3):
            commitment, secret = self.dealers[seat].deck.shuffle(self.seeds[seat])
            shuffles.append((commitment, secret))
            for dealer in self.dealers:
                dealer.deck.add_shuffle(seat, pack_deck(commitment.output))
        for dealer in self.dealers:
            dealer.deck.set_challenges(BEACON)
        for seat, (commitment, secret) in enumerate(shuffles):
            proof = self.dealers[seat].deck.prove(seat, commitment, secret).pack()
            for dealer in self.dealers:
                dealer.deck.check_proof(seat, proof)
        for turn, owner in enumerate([VICTIM, VICTIM, VICTIM, PLAYER, THIRD], start=1):
            self.deal(owner, turn)

    def deal(self, owner: int, turn: int) -> int:
        positions = {dealer.deal(owner, turn) for dealer in self.dealers}
        (position,) = positions
        for seat in range(3):
            if seat != owner:
                payload = self.dealers[seat].share_payload(position)
                for dealer in self.dealers:
                    dealer.add_share(position, seat, *payload[2:])
        for dealer in self.dealers:
            dealer.finish_deal()
        return position

    def items(self, seat: int, to: int) -> tuple[MovedItem, ...]:
        return self.dealers[seat].reencryption_items(to, SPY)

    def move(self, seat: int, to: int, position: int, turn: int) -> None:
        """``seat`` opens its cards to ``to``, which takes ``position``; every view accepts."""
        items = self.items(seat, to)
        for dealer in self.dealers:
            dealer.check_items(seat, to, items, SPY)
        item = next(i for i in items if i.position == position)
        for dealer in self.dealers:
            dealer.accept_transfer(seat, to, item, SPY, turn)

    def show(self, seat: int, position: int) -> int:
        """``seat`` shows its card at ``position`` among all it holds; every view checks it."""
        dealer = self.dealers[seat]
        _label, index, positions, proof = dealer.show_payload(position, None)
        faces = {d.show(seat, index, positions, proof) for d in self.dealers}
        assert faces == {dealer.deck.face(index)}
        return index


@pytest.fixture
def table() -> Table:
    return Table()


# The proof itself.


def statement(
    x: int, r: int, card: int = 1
) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, bytes]:
    """``(Y, A, B*, P, A', B', proof)``: a card held under ``x`` re-encrypted to a fixed key."""
    secret, target = sc(x), base_mul(sc(0xBEEF))
    base = base_mul(sc(0x51DE))
    reduced = add(card_point(b"t", card), mul(secret, base))
    fresh_a, fresh_b, proof = prove_reencryption(secret, sc(r), base, reduced, target, b"ctx")
    return base_mul(secret), base, reduced, target, fresh_a, fresh_b, proof


def test_a_reencryption_opens_to_the_same_card_for_the_new_holder_only() -> None:
    public, base, reduced, target, fresh_a, fresh_b, proof = statement(0x1234, 0x5678)
    assert len(proof) == REENCRYPTION_PROOF_BYTES == 96
    assert fresh_a == base_mul(sc(0x5678))
    assert sub(fresh_b, mul(sc(0xBEEF), fresh_a)) == card_point(b"t", 1)
    assert sub(fresh_b, mul(sc(0x1234), fresh_a)) != card_point(b"t", 1)
    assert verify_reencryption(public, base, reduced, target, fresh_a, fresh_b, proof, b"ctx")
    assert not verify_reencryption(public, base, reduced, target, fresh_a, fresh_b, proof, b"cty")
    # deterministic: the same inputs, the same bytes (a restart re-sends them)
    assert statement(0x1234, 0x5678)[-1] == proof


def test_every_forgery_of_the_proof_fails() -> None:
    public, base, reduced, target, fresh_a, fresh_b, proof = statement(0x1234, 0x5678)
    good = (public, base, reduced, target, fresh_a, fresh_b, proof)

    def fails(**change: bytes) -> bool:
        names = ("public", "base", "reduced", "target", "fresh_a", "fresh_b", "proof")
        args = [change.get(name, value) for name, value in zip(names, good, strict=True)]
        return not verify_reencryption(*args, b"ctx")

    other = card_point(b"t", 2)
    assert fails(fresh_b=add(sub(fresh_b, card_point(b"t", 1)), other))  # another card
    assert fails(fresh_a=base_mul(sc(0x5679)))  # another r
    assert fails(target=base_mul(sc(0xBEF0)))  # another seat's key
    assert fails(public=base_mul(sc(0x1235)))  # another holder
    assert fails(reduced=add(reduced, other))  # another card held
    assert fails(fresh_a=ORDER_TWO)
    assert fails(fresh_b=ORDER_EIGHT)
    assert fails(fresh_a=add(fresh_a, ORDER_EIGHT))  # off the prime-order subgroup
    c, z1, z2 = proof[:32], proof[32:64], proof[64:]
    high = (int.from_bytes(z1, "little") + GROUP_ORDER).to_bytes(32, "little")
    assert fails(proof=c + high + z2)  # a non-canonical scalar
    assert fails(proof=bytes(32) + z1 + z2)  # a zero challenge
    assert fails(proof=proof[:-1])
    assert fails(proof=c + z2 + z1)
    # a proof made with a secret that is not the holder's
    _, _, forged = prove_reencryption(sc(0x1235), sc(0x5678), base, reduced, target, b"ctx")
    assert fails(proof=forged)
    assert not verify_reencryption(
        public,
        base,
        reduced,
        target,
        fresh_a,
        fresh_b,
        "not bytes",
        b"ctx",
    )


@settings(max_examples=25, deadline=None)
@given(
    x=st.integers(1, GROUP_ORDER - 1),
    r=st.integers(1, GROUP_ORDER - 1),
    card=st.integers(0, 50),
    flip=st.integers(0, 32 * 6 + 96 - 1),
    bit=st.integers(0, 7),
)
def test_property_true_statements_verify_and_any_flipped_bit_fails(
    x: int, r: int, card: int, flip: int, bit: int
) -> None:
    parts = list(statement(x, r, card))
    assert verify_reencryption(*parts, b"ctx")
    data = bytearray(b"".join(parts))
    data[flip] ^= 1 << bit
    cut = [0, 32, 64, 96, 128, 160, 192, 288]
    changed = [bytes(data[a:b]) for a, b in itertools.pairwise(cut)]
    assert verify_reencryption(*changed, b"ctx") is False


# The deck and the dealers.


def test_an_honest_transfer_moves_the_card(table: Table) -> None:
    victim, player = table.dealers[VICTIM], table.dealers[PLAYER]
    held = dict(victim.own_index)
    assert sorted(held) == [0, 1, 2]
    items = table.items(VICTIM, PLAYER)
    assert [i.position for i in items] == [0, 1, 2]
    assert all(len(i.moved) == 64 and len(i.proof) == 96 for i in items)
    assert table.items(VICTIM, PLAYER) == items  # from the seed: the same bytes again
    for dealer in table.dealers:
        dealer.check_items(VICTIM, PLAYER, items, SPY)
    assert player.read_items(items) == tuple(held[p] for p in (0, 1, 2))
    with pytest.raises(DeckError) as caught:
        victim.read_items(items)  # re-encrypted to the player: the victim's key opens nothing
    assert caught.value.seat is None

    table.move(VICTIM, PLAYER, 1, turn=9)
    for dealer in table.dealers:
        assert dealer.deck.owner(1) == PLAYER
        assert dealer.deck.dealt_to(1) == VICTIM
        assert dealer.deck.moves(1) == 1
        assert dealer.eligible(PLAYER) == (1, 3)
        assert dealer.eligible(VICTIM) == (0, 2)
        assert dealer.eligible(PLAYER, before=9) == (3,)
        assert dealer.dealt_in[1] == 9
    assert 1 not in victim.own_cards and 1 not in victim.own_index
    assert player.own_index[1] == held[1]
    assert player.own_cards[1] == player.deck.face(held[1])
    assert player.deck.open(1, table.secrets[PLAYER]) == held[1]
    with pytest.raises(DeckError):
        victim.deck.open(1, table.secrets[VICTIM])
    with pytest.raises(DeckError) as caught:  # the victim can no longer show it
        victim.deck.prove_show(held[1], [0, 1, 2], table.secrets[VICTIM], VICTIM)
    assert caught.value.seat == VICTIM
    assert table.show(PLAYER, 1) == held[1]  # the player shows it among (1, 3)
    table.show(VICTIM, 2)  # the victim's other cards still show
    # the audit sees the same final deck: a transfer changes no card of it
    opened = table.dealers[THIRD].deck.open_all(table.secrets)
    assert opened[1] == held[1] and opened[0] == held[0]


def test_a_card_can_move_twice(table: Table) -> None:
    card = table.dealers[VICTIM].own_index[0]
    table.move(VICTIM, PLAYER, 0, turn=9)
    table.move(PLAYER, THIRD, 0, turn=12)  # the Spy on the spy
    for dealer in table.dealers:
        assert dealer.deck.owner(0) == THIRD and dealer.deck.moves(0) == 2
        assert dealer.eligible(THIRD) == (0, 4)
        assert dealer.eligible(PLAYER) == (3,)
    assert table.dealers[THIRD].own_index[0] == card
    assert 0 not in table.dealers[PLAYER].own_index
    assert table.show(THIRD, 0) == card
    # and back to the seat it was dealt to
    table.move(THIRD, VICTIM, 0, turn=14)
    assert table.dealers[VICTIM].own_index[0] == card
    assert table.dealers[VICTIM].eligible(VICTIM) == (0, 1, 2)


def test_the_holder_opens_its_card_to_everyone(table: Table) -> None:
    card = table.dealers[VICTIM].own_index[2]
    share, proof = table.dealers[VICTIM].holder_share_payload(2)
    for dealer in table.dealers:
        assert dealer.deck.open_by_share(2, VICTIM, share, proof) == card
    with pytest.raises(DeckError) as caught:  # a share of another card
        table.dealers[THIRD].deck.open_by_share(1, VICTIM, share, proof)
    assert caught.value.seat == VICTIM
    with pytest.raises(DeckError) as caught:  # not the holder
        table.dealers[THIRD].deck.open_by_share(2, PLAYER, share, proof)
    assert caught.value.seat == PLAYER
    for bad in (ORDER_TWO, b"\x01" * 31):
        with pytest.raises(DeckError) as caught:
            table.dealers[THIRD].deck.open_by_share(2, VICTIM, bad, proof)
        assert caught.value.seat == VICTIM
    # after a move, the new holder's share opens it and the old one's no longer does
    table.move(VICTIM, PLAYER, 2, turn=9)
    share2, proof2 = table.dealers[PLAYER].holder_share_payload(2)
    assert table.dealers[THIRD].deck.open_by_share(2, PLAYER, share2, proof2) == card
    with pytest.raises(DeckError) as caught:
        table.dealers[THIRD].deck.open_by_share(2, VICTIM, share, proof)
    assert caught.value.seat == VICTIM
    # the card as the victim held it (before its first move) still opens with its share
    assert table.dealers[THIRD].deck.open_by_share(2, VICTIM, share, proof, at=0) == card
    again = table.dealers[VICTIM].holder_share_payload(2, at=0)
    assert again == (share, proof)
    with pytest.raises(DeckError) as caught:  # the player did not hold it then
        table.dealers[THIRD].deck.open_by_share(2, PLAYER, share2, proof2, at=0)
    assert caught.value.seat == PLAYER
    with pytest.raises(DeckError) as caught:  # it has not moved twice
        table.dealers[THIRD].deck.open_by_share(2, PLAYER, share2, proof2, at=2)
    assert caught.value.seat == PLAYER


def forged_item(table: Table, how: str) -> MovedItem:
    """The victim's item for position 1 to the player, forged ``how``."""
    victim = table.dealers[VICTIM]
    deck = victim.deck
    honest = {i.position: i for i in table.items(VICTIM, PLAYER)}[1]
    reduced = deck.reduced(1)
    a, b = honest.moved[:32], honest.moved[32:]
    context = deck.transfer_context(VICTIM, PLAYER, 1, SPY)
    if how == "plaintext":  # another card than the one held
        other = card_point(LABEL.encode(), (victim.own_index[1] + 1) % len(FACES))
        card = card_point(LABEL.encode(), victim.own_index[1])
        return MovedItem(1, a + add(sub(b, card), other), honest.proof)
    if how == "r":
        return MovedItem(1, base_mul(sc(99)) + b, honest.proof)
    if how == "key":  # re-encrypted to the third seat, named as to the player
        a2, b2, proof = prove_reencryption(
            table.secrets[VICTIM],
            sc(99),
            reduced[:32],
            reduced[32:],
            deck.key.share(THIRD),
            context,
        )
        return MovedItem(1, a2 + b2, proof)
    if how == "swapped":  # position 2's card named as position 1's
        return MovedItem(1, *[(i.moved, i.proof) for i in table.items(VICTIM, PLAYER)][2])
    if how == "small-order":
        return MovedItem(1, ORDER_EIGHT + b, honest.proof)
    if how == "torsion":
        return MovedItem(1, a + add(b, ORDER_EIGHT), honest.proof)
    if how == "scalar":
        c, z1, z2 = honest.proof[:32], honest.proof[32:64], honest.proof[64:]
        high = (int.from_bytes(z2, "little") + GROUP_ORDER).to_bytes(32, "little")
        return MovedItem(1, honest.moved, c + z1 + high)
    if how == "context":  # made for another Spy
        return {i.position: i for i in victim.reencryption_items(PLAYER, b"other")}[1]
    if how == "short":
        return MovedItem(1, honest.moved[:63], honest.proof)
    raise AssertionError(how)


@pytest.mark.parametrize(
    "how",
    ["plaintext", "r", "key", "swapped", "small-order", "torsion", "scalar", "context", "short"],
)
def test_a_forged_reencryption_names_the_holder(table: Table, how: str) -> None:
    bad = forged_item(table, how)
    items = list(table.items(VICTIM, PLAYER))
    items[1] = bad
    for dealer in table.dealers:
        with pytest.raises(DeckError) as caught:
            dealer.check_items(VICTIM, PLAYER, items, SPY)
        assert caught.value.seat == VICTIM
        with pytest.raises(DeckError) as caught:
            dealer.accept_transfer(VICTIM, PLAYER, bad, SPY, 9)
        assert caught.value.seat == VICTIM
        assert dealer.deck.owner(1) == VICTIM  # nothing moved
        assert dealer.deck.moves(1) == 0


def test_the_list_must_be_exactly_the_holders_cards(table: Table) -> None:
    items = table.items(VICTIM, PLAYER)
    player_items = table.items(PLAYER, VICTIM)
    lists = [
        items[:2],  # one held card left out
        (items[1], items[0], items[2]),  # not ascending
        (*items, *player_items),  # another seat's card
        (),
    ]
    for listed in lists:
        with pytest.raises(DeckError) as caught:
            table.dealers[THIRD].check_items(VICTIM, PLAYER, listed, SPY)
        assert caught.value.seat == VICTIM
    with pytest.raises(DeckError) as caught:  # a card the victim does not hold
        table.dealers[THIRD].accept_transfer(VICTIM, PLAYER, player_items[0], SPY, 9)
    assert caught.value.seat == VICTIM
    with pytest.raises(DeckError) as caught:  # to itself
        table.dealers[THIRD].deck.check_transfer(
            1, VICTIM, VICTIM, items[1].moved, items[1].proof, SPY
        )
    assert caught.value.seat == VICTIM
