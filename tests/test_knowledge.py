"""The hidden-card knowledge objects on their own (engine/knowledge.py), with no game state:
a seat's knowledge of every seat's hand (:class:`HandKnowledge`) and of a hidden deck's unseen
pool (:class:`DeckKnowledge`)."""

from __future__ import annotations

import pytest

from hexlan.engine.core import NO_SEAT, EngineError, IllegalActionError
from hexlan.engine.knowledge import DeckKnowledge, HandKnowledge


def test_an_unseen_steal_between_two_opponents_links_their_hands() -> None:
    """Seat 0 sees seat 2 take one of seat 1's two cards (one of each of two kinds): the two
    hands are one group of two worlds, and paying the kind names which."""
    k = HandKnowledge(3, 0, 3)
    k.gain(1, (1, 1, 0))
    k.steal(2, 1, None)
    assert k.possible_hands(1) == {(1, 0, 0), (0, 1, 0)}
    assert k.possible_hands(2) == {(0, 1, 0), (1, 0, 0)}
    worlds = frozenset({((1, 0, 0), (0, 1, 0)), ((0, 1, 0), (1, 0, 0))})
    assert k.joint_hands() == [((2, 1), worlds)]  # the thief's seats first
    assert k.bounds[1] == [1, 1, 0] and k.bounds[2] == [1, 1, 0]  # the most of each kind
    assert k.known_cards(1) == (0, 0, 0) and k.hidden_kinds(1) == {0, 1}
    # one world must give both sides: seat 1 cannot keep kind 0 while seat 2 holds it
    assert not k.could_all({1: lambda h: h[0] == 1, 2: lambda h: h[0] == 1})
    assert k.could_all({1: lambda h: h[0] == 1, 2: lambda h: h[1] == 1})
    assert k.is_consistent([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    assert not k.is_consistent([(0, 0, 0), (1, 0, 0), (1, 0, 0)])
    k.pay(2, (1, 0, 0))  # seat 2 pays kind 0: it stole it, seat 1 kept kind 1
    assert k.possible_hands(1) == {(0, 1, 0)} and k.possible_hands(2) == {(0, 0, 0)}
    assert [seats for seats, _ in k.joint_hands()] == [(1,), (2,)]  # independent again


def test_a_payment_keeps_the_hands_that_cover_it_or_refuses() -> None:
    k = HandKnowledge(2, NO_SEAT, 2)  # a third party: both hands unknown
    k.gain(0, (2, 1))
    k.steal(1, 0, None)
    assert k.possible_hands(0) == {(1, 1), (2, 0)}
    with pytest.raises(IllegalActionError, match="cannot pay"):
        k.pay(0, (0, 2))
    assert k.possible_hands(0) == {(1, 1), (2, 0)}  # unchanged by the refusal
    k.pay(0, (2, 0))
    assert k.exact_hand(0) == (0, 0) and k.exact_hand(1) == (0, 1)
    assert k.count(1, 1) == 1


def test_the_own_hand_is_exact_and_its_moves_unchecked() -> None:
    k = HandKnowledge(2, 0, 4)
    k.gain(0, (1, 0, 2, 0))
    k.pay(0, (0, 0, 1, 0))
    k.narrow(0, lambda h: False, "is never narrowed")
    assert k.knows(0) and not k.knows(1)
    assert k.possible_hands(0) == {(1, 0, 1, 0)} and k.bounds[0] == [1, 0, 1, 0]
    with pytest.raises(EngineError, match="sees the card"):
        k.steal(1, 0, None)


def test_a_narrowing_and_a_take_all_keep_only_the_hands_shown() -> None:
    k = HandKnowledge(3, 0, 2)
    k.gain(1, (1, 1))
    k.steal(2, 1, None)  # seat 1 holds (1, 0) or (0, 1)
    with pytest.raises(IllegalActionError, match="holds nothing"):
        k.narrow(1, lambda h: sum(h) == 0, "holds nothing")
    k.take_all(0, 1, (0, 1), lambda h: h[1] == 1, "did not hold exactly 1")
    assert k.possible_hands(1) == {(0, 0)} and k.possible_hands(2) == {(1, 0)}
    assert k.bounds[0] == [0, 1]


def test_over_the_cap_a_steal_splits_the_group_seat_by_seat() -> None:
    """With one world allowed, an unseen steal from a two-way hand cannot link the seats: each
    keeps its own possible hands, a product that holds every world and more."""
    k = HandKnowledge(3, 0, 2, max_worlds=1)
    k.gain(1, (1, 1))
    k.gain(2, (1, 0))
    k.steal(1, 2, None)  # seat 2's one card: 1 world each, joinable
    assert k.possible_hands(1) == {(2, 1)}
    k.steal(2, 1, None)  # 1 x 1 worlds, joined, then 2 worlds > cap: split
    assert [seats for seats, _ in k.joint_hands()] == [(1,), (2,)]
    assert k.possible_hands(1) == {(1, 1), (2, 0)}
    assert k.possible_hands(2) == {(1, 0), (0, 1)}
    k.steal(1, 2, None)  # 2 x 2 worlds over the cap: unlinked at once
    assert [seats for seats, _ in k.joint_hands()] == [(1,), (2,)]
    assert k.possible_hands(2) == {(0, 0)}
    # the over-approximation: seat 1 got back what it gave, but may hold any kind stolen
    assert k.possible_hands(1) == {(2, 1), (1, 2), (3, 0)}
    assert k.is_consistent([(0, 0), (2, 1), (0, 0)])


def test_a_copy_keeps_linked_seats_linked_and_apart_from_the_original() -> None:
    k = HandKnowledge(3, 0, 2)
    k.gain(1, (1, 1))
    k.steal(2, 1, None)
    twin = k.copy()
    assert twin.groups[1] is twin.groups[2] and twin.groups[1] is not k.groups[1]
    twin.pay(1, (1, 0))
    assert k.possible_hands(1) == {(1, 0), (0, 1)}
    assert twin.possible_hands(1) == {(0, 0)} and twin.possible_hands(2) == {(0, 1)}
    assert twin.bounds is not k.bounds


def test_a_position_may_set_what_a_hand_may_be() -> None:
    k = HandKnowledge(2, 0, 2)
    k.set_possible(1, frozenset({(2, 0), (0, 2)}))
    assert k.bounds[1] == [2, 2] and k.covers(1, (2, 0)) and not k.covers(1, (1, 1))


def test_a_bad_seat_or_cap_is_refused() -> None:
    with pytest.raises(EngineError, match="not one of the 2 seats"):
        HandKnowledge(2, 2, 5)
    with pytest.raises(EngineError, match="at least 1"):
        HandKnowledge(2, 0, 5, max_worlds=0)


def test_a_deck_pool_after_draws_and_plays() -> None:
    """A deck of 3, 2, 1 of three faces: this seat draws a face 1; another seat draws two
    unseen and plays a face 2, the only one: the pool is what this seat has not seen."""
    pool = [3, 2, 1]
    deck = DeckKnowledge(pool)
    deck.seen(1)  # the own draw
    assert deck.left(0) == 5
    # another seat draws two: the pool is unchanged, the deck is smaller
    assert deck.left(2) == 3 and deck.may_be(2)
    deck.seen(2)  # it plays the face-2 card: seen
    assert pool == [3, 1, 0]  # changed in place: the state's own list
    assert not deck.may_be(2) and deck.left(1) == 3
    assert deck.most(1, 1) == 1 and deck.most(0, 1) == 1 and deck.most(2, 1) == 0
    assert deck.chances() == [(0, 0.75), (1, 0.25)]
    assert deck.chances([1, 2]) == [(1, 0.25)] and deck.chance_of_none([1, 2]) == 0.75
    deck.unseen(2)  # shuffled back
    assert pool == [3, 1, 1]


def test_a_deck_hand_of_unseen_cards_by_chance() -> None:
    deck = DeckKnowledge([2, 1, 1])
    hands = dict(deck.hands(2))
    assert hands == {(0, 0): 1 / 6, (0, 1): 2 / 6, (0, 2): 2 / 6, (1, 2): 1 / 6}
    assert dict(deck.hands(2, frozenset({0}))) == {(1, 2): 1.0}
    assert list(deck.hands(5)) == []
    assert deck.faces(frozenset({1})) == [2, 0, 1]
    assert deck.fits([0, 0, 2]) and not deck.fits([1, 1]) and not deck.fits([3])
    assert not deck.fits([0], frozenset({0}))
