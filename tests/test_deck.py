"""The reusable deck (net/deck.py): joint key, shuffles with proofs, dealing, opening, audit.

Spec: docs/PROTOCOL.md §13. :class:`Game` plays the peers: every seat has its secret, and each
*view* (a peer's own :class:`Deck`) receives exactly the bytes the seats publish. Most tests use
2 seats and 5 cards; the round trips use 2-4 seats and one uses the 25 development cards.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from hexlan.net.dealing import Dealer
from hexlan.net.deck import (
    Deck,
    DeckError,
    JointKey,
    derive_deck_secret,
    derive_shuffle_seed,
)
from hexlan.net.group import GROUP_ORDER, add, base_mul, is_scalar, mul, sub
from hexlan.net.proofs import prove_key
from hexlan.net.shuffle import (
    ShuffleCommitment,
    ShuffleSecret,
    card_point,
    initial_deck,
    pack_deck,
    reencrypt,
    shuffle_deck,
)

GAME_ID = bytes(range(32))
KEY_CONTEXT = GAME_ID + b"deck-key"
LABEL = "development"
SMALL = [0, 0, 1, 2, 3]
DEVELOPMENT = [0] * 14 + [1] * 5 + [2] * 2 + [3] * 2 + [4] * 2
"""Knights, victory points, road building, year of plenty, monopoly: 25 cards."""
BEACON = b"\x33" * 32


def sc(n: int) -> bytes:
    return (n % GROUP_ORDER).to_bytes(32, "little")


class Game:
    """Seats with their seeds and secrets, and the views the published bytes go to."""

    def __init__(self, players: int, faces: list[int], views: int = 1) -> None:
        self.players = players
        self.seeds = [hashlib.sha256(b"seat" + bytes([s])).digest() for s in range(players)]
        self.secrets = [derive_deck_secret(seed) for seed in self.seeds]
        self.views = [
            Deck(LABEL, faces, JointKey(players, KEY_CONTEXT), GAME_ID) for _ in range(views)
        ]
        self.shuffles: dict[int, tuple[ShuffleCommitment, ShuffleSecret]] = {}

    def view(self, seat: int) -> Deck:
        """The view ``seat`` computes its own messages on."""
        return self.views[seat % len(self.views)]

    def publish_keys(self) -> None:
        for seat in range(self.players):
            share, proof = self.view(seat).key.prove(seat, self.secrets[seat])
            for view in self.views:
                view.key.add(seat, share, proof)

    def publish_shuffle(self, seat: int) -> None:
        commitment, secret = self.view(seat).shuffle(self.seeds[seat])
        self.shuffles[seat] = commitment, secret
        for view in self.views:
            view.add_shuffle(seat, pack_deck(commitment.output))

    def challenge(self) -> None:
        for view in self.views:
            view.set_challenges(BEACON)

    def responses(self, seat: int) -> tuple[bytes, ...]:
        """``seat``'s proof of its shuffle in wire form, made on its own view."""
        return self.view(seat).prove(seat, *self.shuffles[seat]).pack()

    def make_ready(self) -> None:
        self.publish_keys()
        for seat in range(self.players):
            self.publish_shuffle(seat)
        self.challenge()
        for view in self.views:
            for seat in range(self.players):
                view.check_proof(seat, self.responses(seat))

    def deal(self, owner: int) -> int:
        """Deal the top card to ``owner``; every other seat publishes its share."""
        positions = {view.deal(owner) for view in self.views}
        assert len(positions) == 1
        position = positions.pop()
        for seat in range(self.players):
            if seat != owner:
                share, proof = self.view(seat).own_share(position, self.secrets[seat], seat)
                for view in self.views:
                    view.add_share(position, seat, share, proof)
        return position


@pytest.fixture
def ready() -> Game:
    game = Game(2, SMALL)
    game.make_ready()
    return game


# Round trips.


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip(players: int) -> None:
    game = Game(players, [*SMALL, 4], views=players)
    game.make_ready()
    decks = {pack_deck(view.current) for view in game.views}
    assert len(decks) == 1
    assert all(view.ready for view in game.views)

    opened = []
    for i in range(6):
        owner = i % players
        position = game.deal(owner)
        assert position == i
        opened.append(game.view(owner).open(position, game.secrets[owner]))
    assert sorted(opened) == list(range(6))  # every card exactly once
    for view in game.views:
        assert [view.owner(p) for p in range(6)] == [p % players for p in range(6)]
        assert view.dealt == 6
        assert view.remaining == 0

    # Owners show their cards among all their positions: every view learns the same card.
    for position in (0, players - 1, 5):
        owner = position % players
        mine = [p for p in range(6) if p % players == owner]
        index = opened[position]
        proof = game.view(owner).prove_show(index, mine, game.secrets[owner], owner)
        assert len(proof) == len(mine)
        for view in game.views:
            assert view.show(owner, index, mine, proof) == view.face(index)
            assert view.shown_by(index) == owner
            assert set(view.shares(position)) == set(range(players)) - {owner}

    for view in game.views:
        assert view.open_all(game.secrets) == opened
    assert Counter(game.views[0].face(i) for i in opened) == Counter([*SMALL, 4])


def test_development_deck_round_trip() -> None:
    """25 cards, 4 seats, the proofs checked in worker threads as a session would."""
    game = Game(4, DEVELOPMENT)
    deck = game.views[0]
    game.publish_keys()
    assert deck.initial == initial_deck(
        [card_point(b"development", i) for i in range(25)], deck.key.joint
    )
    for seat in range(4):
        assert deck.next_shuffler == seat
        game.publish_shuffle(seat)
    assert deck.next_shuffler is None and deck.shuffled
    game.challenge()
    jobs = [deck.verification_job(seat, game.responses(seat)) for seat in range(4)]
    assert not deck.ready
    with ThreadPoolExecutor(2) as pool:
        for seat, future in enumerate([pool.submit(job) for job in jobs]):
            future.result()
            deck.mark_verified(seat)
    assert deck.ready

    opened = []
    for i in range(25):
        position = game.deal(i % 4)
        opened.append(deck.open(position, game.secrets[i % 4]))
    assert sorted(opened) == list(range(25))
    assert opened != list(range(25))
    assert Counter(deck.face(i) for i in opened) == Counter(DEVELOPMENT)
    assert deck.open_all(game.secrets) == opened


def test_a_restarted_seat_shuffles_the_same_bytes() -> None:
    first, second = Game(2, SMALL), Game(2, SMALL)
    for game in (first, second):
        game.publish_keys()
        game.publish_shuffle(0)
    assert first.views[0].current == second.views[0].current
    assert first.shuffles[0] == second.shuffles[0]


def test_the_audit_recomputes_each_shuffle() -> None:
    """Each seat's output is a function of its seed and its input alone (no rounds needed)."""
    game = Game(3, SMALL)
    deck = game.views[0]
    game.publish_keys()
    game.publish_shuffle(0)
    assert deck.shuffle_input(0) == deck.initial
    with pytest.raises(DeckError, match="seat 1 has not shuffled"):
        deck.shuffle_input(1)
    game.publish_shuffle(1)
    game.publish_shuffle(2)
    assert not deck.challenged
    game.challenge()
    assert deck.challenged
    for seat in range(3):
        context = GAME_ID + LABEL.encode() + b"\0" + bytes([seat]) + BEACON
        assert deck.proof_context(seat) == context
    for seat in range(3):
        assert deck.shuffle_input(seat) == (deck.shuffle_output(seat - 1) if seat else deck.initial)
        seed = derive_shuffle_seed(game.seeds[seat], LABEL)
        label = LABEL.encode()
        commitment, _ = shuffle_deck(deck.shuffle_input(seat), deck.key.joint, seed, label)
        assert commitment.output == deck.shuffle_output(seat)
    assert deck.current == deck.shuffle_output(2)


def test_derived_secrets() -> None:
    seed = bytes(32)
    assert derive_deck_secret(seed) == derive_deck_secret(seed)
    assert is_scalar(derive_deck_secret(seed))
    assert derive_deck_secret(seed) != derive_deck_secret(b"\1" * 32)
    assert derive_shuffle_seed(seed, "a") != derive_shuffle_seed(seed, "b")
    assert len(derive_shuffle_seed(seed, "a")) == 32
    for bad in (bytes(31), "x" * 32):
        with pytest.raises(ValueError, match="32 bytes"):
            derive_deck_secret(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="32 bytes"):
            derive_shuffle_seed(bad, "a")  # type: ignore[arg-type]


# The joint key.


def test_joint_key() -> None:
    key = JointKey(3, KEY_CONTEXT)
    secrets = [sc(101), sc(202), sc(303)]
    assert not key.complete
    for seat, x in enumerate(secrets):
        key.add(seat, *key.prove(seat, x))
    assert key.complete
    assert key.joint == base_mul(sc(606))
    assert key.share(1) == base_mul(sc(202))


def test_joint_key_refuses_bad_shares() -> None:
    key = JointKey(3, KEY_CONTEXT)
    with pytest.raises(DeckError, match=r"lacks the shares of seats \[0, 1, 2\]") as info:
        key.joint  # noqa: B018
    assert info.value.seat is None
    with pytest.raises(DeckError) as info:
        key.share(0)
    assert info.value.seat == 0

    share, proof = key.prove(1, sc(5))
    with pytest.raises(DeckError, match="seat 2's key share proof does not verify") as info:
        key.add(2, share, proof)  # a proof is bound to its seat
    assert info.value.seat == 2
    with pytest.raises(DeckError) as info:
        key.add(0, *prove_key(sc(5), b"another game\0"))
    assert info.value.seat == 0
    with pytest.raises(DeckError) as info:
        key.add(0, b"\x01" + bytes(31), proof)
    assert info.value.seat == 0
    with pytest.raises(DeckError, match="not one of 3 seats") as info:
        key.add(3, *key.prove(3, sc(5)))
    assert info.value.seat == 3

    key.add(1, share, proof)
    with pytest.raises(DeckError, match="already published") as info:
        key.add(1, *key.prove(1, sc(6)))
    assert info.value.seat == 1
    assert key.share(1) == share
    with pytest.raises(ValueError, match=r"1\.\.6 seats"):
        JointKey(0, KEY_CONTEXT)
    with pytest.raises(ValueError, match=r"1\.\.6 seats, got 7"):
        JointKey(7, KEY_CONTEXT)


def test_a_rogue_key_is_refused() -> None:
    """Seat 1 cannot cancel seat 0's share: it does not know the log of G·a − Y_0."""
    key = JointKey(2, KEY_CONTEXT)
    key.add(0, *key.prove(0, sc(1234)))
    a = sc(777)
    rogue = sub(base_mul(a), key.share(0))
    _, proof_for_a = key.prove(1, a)
    with pytest.raises(DeckError) as info:
        key.add(1, rogue, proof_for_a)
    assert info.value.seat == 1


# Shuffles out of turn, malformed and cheating.


def test_shuffles_wait_for_the_key_and_their_turn() -> None:
    game = Game(2, SMALL)
    deck = game.views[0]
    with pytest.raises(DeckError, match="lacks the shares") as info:
        deck.initial  # noqa: B018
    assert info.value.seat is None
    game.publish_keys()
    with pytest.raises(DeckError, match="not seat 1's turn") as info:
        game.publish_shuffle(1)
    assert info.value.seat == 1
    game.publish_shuffle(0)
    with pytest.raises(DeckError, match="not seat 0's turn"):
        game.publish_shuffle(0)
    with pytest.raises(DeckError, match="after every seat has shuffled"):
        deck.set_challenges(BEACON)


def test_malformed_shuffles_are_refused() -> None:
    game = Game(2, SMALL)
    game.publish_keys()
    deck = game.views[0]
    commitment, _ = deck.shuffle(game.seeds[0])
    output = pack_deck(commitment.output)
    identity_card = b"\x01" + bytes(31) + commitment.output[0][32:]
    torsion = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    off_card = commitment.output[1][:32] + add(commitment.output[1][32:], torsion)
    bad = [
        (pack_deck([identity_card, *commitment.output[1:]]), "card 0 is not a pair"),
        (pack_deck([commitment.output[0], off_card, *commitment.output[2:]]), "card 1 is not"),
        (output[:-64], "a deck of 5 cards is 320 bytes"),
    ]
    for out, match in bad:
        with pytest.raises(DeckError, match=match) as info:
            deck.add_shuffle(0, out)
        assert info.value.seat == 0
    assert deck.next_shuffler == 0
    deck.add_shuffle(0, output)
    assert deck.next_shuffler == 1


def test_a_cheating_shuffle_names_the_cheater() -> None:
    """Seat 1 swaps a card for a second copy of card 0 and proves with its honest secret."""
    game = Game(2, SMALL)
    game.publish_keys()
    game.publish_shuffle(0)
    deck = game.views[0]
    commitment, secret = deck.shuffle(game.seeds[1])
    output = list(commitment.output)
    output[3] = reencrypt(deck.initial[0], deck.key.joint, sc(4242))
    deck.add_shuffle(1, pack_deck(output))
    game.shuffles[1] = ShuffleCommitment(output, commitment.permutation), secret
    game.challenge()
    deck.check_proof(0, game.responses(0))
    match = r"^seat 1's shuffle proof: the challenge is not the hash of the recomputed"
    with pytest.raises(DeckError, match=match) as info:
        deck.check_proof(1, game.responses(1))
    assert info.value.seat == 1
    assert not deck.ready


def test_a_proof_is_bound_to_its_seat_and_the_challenge_event() -> None:
    """Seat 0's proof does not pass as seat 1's, nor under another beacon output."""
    game = Game(2, SMALL)
    game.publish_keys()
    game.publish_shuffle(0)
    game.publish_shuffle(1)
    game.challenge()
    deck = game.views[0]
    other = Game(2, SMALL)
    other.publish_keys()
    other.publish_shuffle(0)
    other.publish_shuffle(1)
    other.views[0].set_challenges(b"\x44" * 32)
    with pytest.raises(DeckError, match="the challenge is not the hash") as info:
        deck.check_proof(0, other.responses(0))
    assert info.value.seat == 0
    deck.check_proof(0, game.responses(0))


def test_a_malformed_proof_fails_naming_its_author() -> None:
    game = Game(2, SMALL)
    game.publish_keys()
    game.publish_shuffle(0)
    game.publish_shuffle(1)
    game.challenge()
    deck = game.views[0]
    permutation, chain, challenge, responses = game.responses(0)
    for bad, match in (
        ((permutation, chain, challenge), "parts of"),
        ((permutation, chain, challenge, responses[:-32]), "parts of"),
        ((permutation, b"\xff" * len(chain), challenge, responses), "chain 0 is not a point"),
        ((permutation, chain, bytes(32), responses), "the challenge is not a canonical"),
    ):
        with pytest.raises(DeckError, match=match) as info:
            deck.check_proof(0, bad)
        assert info.value.seat == 0


def test_challenges_are_checked() -> None:
    game = Game(2, SMALL)
    game.publish_keys()
    game.publish_shuffle(0)
    game.publish_shuffle(1)
    deck = game.views[0]
    with pytest.raises(DeckError, match="wait for the challenges"):
        deck.verification_job(0, [])
    for bad in (BEACON[:-1], BEACON + b"\0", None):
        with pytest.raises(DeckError, match="the challenge event's output is 32 bytes"):
            deck.set_challenges(bad)  # type: ignore[arg-type]
    game.challenge()
    with pytest.raises(DeckError, match="already set"):
        deck.set_challenges(BEACON)
    with pytest.raises(DeckError) as info:
        deck.check_proof(1, game.responses(1)[:-1])
    assert info.value.seat == 1


# Dealing, shares, opening.


def test_dealing_runs_out(ready: Game) -> None:
    deck = ready.views[0]
    assert deck.remaining == 5
    for i in range(5):
        assert deck.deal(i % 2) == i
    assert deck.remaining == 0
    with pytest.raises(DeckError, match="empty"):
        deck.deal(0)
    with pytest.raises(DeckError, match="position 5 of the development deck is not dealt"):
        deck.owner(5)


def test_deal_needs_a_seat(ready: Game) -> None:
    with pytest.raises(DeckError, match="seat 2 is not one of 2 seats"):
        ready.views[0].deal(2)


def test_shares_are_verified(ready: Game) -> None:
    deck = ready.views[0]
    first, second = deck.deal(0), deck.deal(0)
    x1 = ready.secrets[1]
    with pytest.raises(DeckError, match="not dealt"):
        deck.own_share(2, x1, 1)
    share, proof = deck.own_share(first, x1, 1)
    with pytest.raises(DeckError, match="seat 1's share of position 1 does not verify") as info:
        deck.add_share(second, 1, share, proof)  # bound to its position
    assert info.value.seat == 1
    with pytest.raises(DeckError) as info:
        deck.add_share(first, 0, share, proof)  # bound to its seat
    assert info.value.seat == 0
    wrong = mul(sc(2), share)
    with pytest.raises(DeckError) as info:
        deck.add_share(first, 1, wrong, proof)
    assert info.value.seat == 1
    with pytest.raises(DeckError) as info:
        deck.add_share(first, 1, share, proof[:-1])
    assert info.value.seat == 1
    assert deck.shares(first) == {}
    deck.add_share(first, 1, share, proof)
    assert deck.shares(first) == {1: share}
    with pytest.raises(DeckError, match="already published") as info:
        deck.add_share(first, 1, share, proof)
    assert info.value.seat == 1
    with pytest.raises(DeckError) as info:
        deck.own_share(first, ready.secrets[0], 1)
    assert info.value.seat == 1


def test_share_context() -> None:
    deck = Game(2, SMALL).views[0]
    assert deck.share_context(1, 258) == GAME_ID + b"development" + b"\x01" + b"\x01\x02"


def test_opening_needs_every_other_share(ready: Game) -> None:
    deck = ready.views[0]
    position = deck.deal(1)
    with pytest.raises(DeckError, match=r"position 0 lacks the shares of seats \[0\]") as info:
        deck.open(position, ready.secrets[1])
    assert info.value.seat is None
    with pytest.raises(DeckError, match="listed a card not dealt yet") as info:
        deck.prove_show(0, [position], ready.secrets[1], 1)
    assert info.value.seat == 1
    assert deck.shares(position) == {}
    deck.add_share(position, 0, *deck.own_share(position, ready.secrets[0], 0))
    with pytest.raises(DeckError, match="does not match seat 1's key share") as info:
        deck.open(position, ready.secrets[0])
    assert info.value.seat == 1
    index = deck.open(position, ready.secrets[1])
    proof = deck.prove_show(index, [position], ready.secrets[1], 1)
    with pytest.raises(DeckError, match="seat 0 listed position 0, not a card it holds") as info:
        deck.show(0, index, [position], proof)
    assert info.value.seat == 0
    assert deck.show(1, index, [position], proof) == deck.face(index)


def test_a_card_that_is_no_card(ready: Game) -> None:
    """What a wrong share would do without its proof: the owner finds no card."""
    deck = ready.views[0]
    position = deck.deal(1)
    deck.add_share(position, 0, *deck.own_share(position, ready.secrets[0], 0))
    deck._shares[position][0] = base_mul(sc(9))  # bypassing the proof check
    with pytest.raises(DeckError, match="decrypts to no card") as info:
        deck.open(position, ready.secrets[1])
    assert info.value.seat is None


def test_the_audit_checks_every_secret(ready: Game) -> None:
    deck = ready.views[0]
    with pytest.raises(DeckError, match="does not match seat 1's key share") as info:
        deck.open_all([ready.secrets[0], ready.secrets[0]])
    assert info.value.seat == 1
    with pytest.raises(DeckError, match="all 2 seats") as info:
        deck.open_all(ready.secrets[:1])
    assert info.value.seat is None
    assert sorted(deck.open_all(ready.secrets)) == list(range(5))


def test_deck_arguments() -> None:
    key = JointKey(2, KEY_CONTEXT)
    with pytest.raises(ValueError, match=r"1\.\.256 cards"):
        Deck(LABEL, [], key, GAME_ID)
    with pytest.raises(ValueError, match="a game id is 32 bytes"):
        Deck(LABEL, SMALL, key, GAME_ID[:31])


# Showing a card among several positions.


def test_show_context() -> None:
    deck = Game(2, SMALL).views[0]
    assert deck.show_context(1, 258, [0, 3, 300]) == (
        GAME_ID + b"development\0" + b"\x01" + b"\x01\x02" + b"\x00\x00\x00\x03\x01\x2c"
    )


def swapped_world(game: Game, first: int, second: int) -> Deck:
    """A view of another world: ``game``'s final deck with the ciphertexts at ``first`` and
    ``second`` exchanged (so are the cards they hold); the keys and every other ciphertext are
    the same. Its shuffles are not proven: the deck methods that show cards do not need it."""
    world = game.views[0]
    other = Deck(LABEL, world.faces, JointKey(game.players, KEY_CONTEXT), GAME_ID)
    for seat in range(game.players):
        other.key.add(seat, *world.key.prove(seat, game.secrets[seat]))
    for seat in range(game.players):
        output = list(world.shuffle_output(seat))
        if seat == game.players - 1:
            output[first], output[second] = output[second], output[first]
        other.add_shuffle(seat, pack_deck(output))
    return other


def deal_in(deck: Deck, game: Game, owner: int) -> int:
    """Deal the top card of ``deck`` to ``owner``; the other seats give their shares."""
    position = deck.deal(owner)
    for seat in range(game.players):
        if seat != owner:
            deck.add_share(position, seat, *deck.own_share(position, game.secrets[seat], seat))
    return position


def test_a_show_does_not_tell_which_listed_position_holds_the_card(ready: Game) -> None:
    """The attack: showing card ``i`` at position ``p`` told every opponent that the owner's
    other eligible positions below ``p`` hold no card of its type. Now, in two worlds that
    differ only in which of the owner's positions (0 or 2) holds the card, the owner's show
    lists the same public positions [0, 1, 2] with the same card, and each proof verifies for
    that set: the payload names no position; the proof's scalars are uniform whichever branch
    is real (tests/test_proofs.py)."""
    worlds = [ready.views[0], swapped_world(ready, 0, 2)]
    owner, listed = 1, [0, 1, 2]
    for deck in worlds:
        assert [deal_in(deck, ready, owner) for _ in listed] == listed
        deal_in(deck, ready, 0)
    index = worlds[0].open(0, ready.secrets[owner])
    assert worlds[1].open(2, ready.secrets[owner]) == index  # the card moved, nothing else
    assert worlds[1].open(0, ready.secrets[owner]) == worlds[0].open(2, ready.secrets[owner])
    payloads = []
    for deck in worlds:
        proof = deck.prove_show(index, listed, ready.secrets[owner], owner)
        payloads.append((LABEL, index, tuple(listed), tuple(proof)))
        assert deck.show(owner, index, listed, proof) == deck.face(index)
    # what the payloads say besides the proof is the same public data
    assert payloads[0][:3] == payloads[1][:3]
    assert len(payloads[0][3]) == len(payloads[1][3]) == len(listed)


def test_show_refusals_name_the_author(ready: Game) -> None:
    deck = ready.views[0]
    for owner in (1, 1, 0):
        deal_in(deck, ready, owner)
    x0, x1 = ready.secrets
    mine = [0, 1]
    index = deck.open(0, x1)
    theirs = deck.open(2, x0)
    proof = deck.prove_show(index, mine, x1, 1)

    def refused(
        seat: int, card: int, positions: list[int], entries: list[bytes], words: str
    ) -> None:
        with pytest.raises(DeckError, match=words) as info:
            deck.show(seat, card, positions, entries)
        assert info.value.seat == seat

    refused(1, 5, mine, proof, "has no card 5")
    refused(1, index, [], [], "not ascending")
    refused(1, index, [1, 0], proof[::-1], "not ascending")
    refused(1, index, [0, 2], proof, "seat 1 listed position 2, not a card it holds")
    refused(1, index, [0, 3], proof, "seat 1 listed position 3, not a card it holds")
    refused(1, theirs, mine, proof, "does not verify")  # another card than proven
    refused(1, index, [0], proof[:1], "does not verify")  # another set
    flipped = [proof[0], proof[1][:40] + bytes([proof[1][40] ^ 1]) + proof[1][41:]]
    refused(1, index, mine, flipped, "does not verify")
    # a card that is not at the listed positions cannot be proven there
    with pytest.raises(DeckError, match="is at none of positions") as info:
        deck.prove_show(theirs, mine, x1, 1)
    assert info.value.seat == 1
    with pytest.raises(DeckError, match="does not match seat 1's key share"):
        deck.prove_show(index, mine, x0, 1)
    assert deck.shown_by(index) is None
    assert deck.show(1, index, mine, proof) == deck.face(index)
    assert deck.shown_by(index) == 1
    refused(1, index, mine, proof, "shown before")
    # the card point is a nullifier: nobody shows it again, with any set
    refused(1, index, [0], deck.prove_show(index, [0], x1, 1), "shown before")
    assert deck.show(0, theirs, [2], deck.prove_show(theirs, [2], x0, 0)) == deck.face(theirs)
    # a position still being dealt (its shares not all in) cannot be listed
    position = deck.deal(1)
    refused(1, deck.open(1, x1), [1, position], proof, "listed a card not dealt yet")


def test_a_shown_card_counts_from_its_deal_bound(ready: Game) -> None:
    """A peer's dealer (net/dealing.py) records each shown card with the latest deal turn of its
    listed positions: a card shown among this turn's positions too is neither playable nor
    counted (``vp_cards_next_turn``) before the next turn; one shown among earlier ones is."""
    deck = ready.views[0]
    dealer = Dealer(deck, None, None)  # an observer's
    for turn in (1, 2, 3):
        position = dealer.deal(1, turn)
        assert dealer.eligible(1) == tuple(range(position))  # not while it is being dealt
        assert dealer.add_share(position, 0, *deck.own_share(position, ready.secrets[0], 0))
        assert dealer.finish_deal() == (position, None)
    x1 = ready.secrets[1]
    assert dealer.eligible(1, 3) == (0, 1) and dealer.eligible(1) == (0, 1, 2)
    assert dealer.eligible(0) == ()
    old, new = deck.open(0, x1), deck.open(2, x1)
    face_old = dealer.show(1, old, (0, 1), deck.prove_show(old, (0, 1), x1, 1))
    face_new = dealer.show(1, new, (0, 1, 2), deck.prove_show(new, (0, 1, 2), x1, 1))
    assert [(c.index, c.dealt_by) for c in dealer.shown[1]] == [(old, 2), (new, 3)]
    both = 2 if face_old == face_new else 1
    assert dealer.shown_count(1, face_new) == both
    assert dealer.shown_count(1, face_new, before=3) == both - 1
    assert dealer.shown_count(1, face_new, before=4) == both
    # in turn 3 only the older card of that face can be spent, from turn 4 on the new one too
    assert dealer.spend(1, face_new, 3) == (both == 2)
    assert dealer.spend(1, face_new, 4)
    assert dealer.shown_count(1, face_new) == 0
