"""Rolling a 7: discards, moving the robber, the steal, and the robber_before_discard option.

Rule sources: docs/rules/base.md «Rolling a 7» (seed 002 «Разбойник» 1-3, «Правила расстояния…»;
seed 003 «ХОД ИГРОКА» 1; official: the desert, the steal from a victim holding cards).

Beginner board: hex 4 (hills 6) has nodes 8, 13, 18, 23, 17, 12; hex 9 is the desert.
"""

from __future__ import annotations

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import EngineError, Phase, Resource
from hexlan.engine.options import GameOptions
from hexlan.engine.state import CHANCE


def test_seven_pays_nothing_and_discards_half_of_big_hands(table) -> None:
    """seed 002 «Разбойник» 1: each player with more than 7 cards discards half, rounded down;
    a player with exactly 7 does not (seed 002's "из 7 карт вы лишаетесь 3" is a slip)."""
    t = table(players=4)
    t.build(0, settlements=[12])
    t.give(0, t.hand(lumber=5, brick=4))  # 9 cards: discards 4
    t.give(1, t.hand(wool=3, grain=3, ore=2))  # 8: discards 4
    t.give(2, t.hand(lumber=7))  # exactly 7: keeps them
    t.at_roll(0)
    t.roll(3, 4)
    s = t.state
    assert s.phase is Phase.DISCARD
    assert s.discards == [4, 4, 0, 0]
    assert s.acting_seats() == (0, 1)
    assert s.legal_actions(2) == [] and s.legal_actions(3) == []
    choices = s.legal_actions(1)
    assert choices and all(isinstance(a, A.Discard) and sum(a.cards) == 4 for a in choices)
    assert A.Discard(1, t.hand(wool=2, ore=2)) in choices
    assert s.hand_size[0] == 9  # a 7 produces nothing


def test_discard_count_and_cards_are_enforced(table) -> None:
    """seed 002 «Разбойник»: exactly half, rounded down, of one's own cards; a seat that owes
    nothing cannot discard."""
    t = table(players=3)
    t.give(1, t.hand(wool=3, grain=3, ore=3))  # 9: discards 4
    t.give(2, t.hand(lumber=7))
    t.at_roll(0)
    t.roll(1, 6)
    t.rejected(A.Discard(1, t.hand(wool=3)), "exactly 4")
    t.rejected(A.Discard(1, t.hand(wool=3, grain=2)), "exactly 4")
    t.rejected(A.Discard(1, t.hand(lumber=4)), "does not hold")
    t.rejected(A.Discard(1, (5, -1, 0, 0, 0)), "exactly 4")
    t.rejected(A.Discard(2, t.hand(lumber=3)), "nothing to discard")
    t.rejected(A.Discard(0, t.hand()), "nothing to discard")
    t.rejected(A.MoveRobber(0, -1), "may not act")
    t.play(A.Discard(1, t.hand(wool=1, grain=1, ore=2)))
    s = t.state
    assert s.hands[1] == [0, 0, 2, 2, 1]
    assert s.bank == [12, 19, 17, 17, 18]  # discards go back to the bank
    assert s.phase is Phase.MOVE_ROBBER


def test_discards_in_any_order_then_the_robber(table) -> None:
    """seed 002 «Разбойник»: every seat over the limit discards (each its own choice, in any
    order); only then does the roller move the robber."""
    t = table(players=3)
    t.give(0, t.hand(ore=8))
    t.give(2, t.hand(grain=10))
    t.at_roll(1)
    t.roll(5, 2)
    t.play(A.Discard(2, t.hand(grain=5)))
    assert t.state.phase is Phase.DISCARD and t.state.acting_seats() == (0,)
    t.play(A.Discard(0, t.hand(ore=4)))
    assert t.state.phase is Phase.MOVE_ROBBER and t.state.current_player() == 1


def test_robber_goes_to_any_other_hex_desert_included(table) -> None:
    """seed 002 «Разбойник» 2: the robber must move to a different hex; officially the desert is
    allowed (docs/rules/base.md, seed 002 slips)."""
    t = table(players=3)
    t.state.robber = 0  # direct: the robber away from the desert
    t.at_roll(0)
    t.roll(6, 1)
    hexes = {a.hex for a in t.legal()}  # type: ignore[union-attr]
    assert hexes == set(range(19)) - {0}
    assert 9 in hexes
    t.rejected(A.MoveRobber(0, -1), "not legal")
    t.play(A.MoveRobber(9, -1))
    assert t.state.robber == 9 and t.state.phase is Phase.MAIN


def test_robber_to_desert_option_forbids_the_desert(table) -> None:
    """seed 003 «ХОД ИГРОКА» 1 (option robber_to_desert=False): never onto the desert."""
    t = table(players=3, options=GameOptions(robber_to_desert=False))
    t.state.robber = 0
    t.at_roll(0)
    t.roll(6, 1)
    hexes = {a.hex for a in t.legal()}  # type: ignore[union-attr]
    assert hexes == set(range(19)) - {0, 9}
    t.rejected(A.MoveRobber(9, -1), "not legal")


def test_steal_only_from_an_opponent_there_holding_cards(table) -> None:
    """seed 002 «Разбойник» 3: the roller robs an opponent with a settlement or city on the hex;
    only opponents holding cards can be chosen, and the roller never robs itself."""
    t = table(players=4)
    t.build(0, settlements=[12])  # the roller, on hex 4
    t.build(1, settlements=[13])  # holds cards
    t.build(2, cities=[23])  # holds none
    t.give(1, t.hand(grain=1, ore=2))
    t.give(3, t.hand(wool=2))  # holds cards but has no building on hex 4
    t.at_roll(0)
    t.roll(3, 4)
    on_hex_4 = [a for a in t.legal() if a.hex == 4]  # type: ignore[union-attr]
    assert on_hex_4 == [A.MoveRobber(4, 1)]
    for victim in (-1, 0, 2, 3):
        t.rejected(A.MoveRobber(4, victim), "not legal")
    # a hex with buildings of nobody holding cards: no victim
    assert [a for a in t.legal() if a.hex == 8] == [A.MoveRobber(8, -1)]  # type: ignore[union-attr]
    t.play(A.MoveRobber(4, 1))
    s = t.state
    assert s.phase is Phase.STEAL and s.current_player() == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes == {
        A.StealCard(Resource.GRAIN): pytest.approx(1 / 3),
        A.StealCard(Resource.ORE): pytest.approx(2 / 3),
    }
    t.rejected(A.StealCard(Resource.WOOL), "not a possible outcome")
    t.play(A.StealCard(Resource.ORE))
    assert s.hands[0] == [0, 0, 0, 0, 1] and s.hands[1] == [0, 0, 0, 1, 1]
    assert s.phase is Phase.MAIN


def test_steal_outcome_maps_an_index_in_resource_order(table) -> None:
    """docs/rules/base.md «Rolling a 7»: a beacon's index picks the card at that position of the
    victim's hand sorted in resource order (lumber first)."""
    t = table(players=2)
    t.build(1, settlements=[13])
    t.give(1, t.hand(lumber=2, wool=1, ore=3))
    t.at_roll(0)
    with pytest.raises(EngineError):
        t.state.steal_outcome(0)  # no steal is due
    t.roll(3, 4)
    t.play(A.MoveRobber(4, 1))
    got = [t.state.steal_outcome(i).resource for i in range(6)]
    L, W, ORE = Resource.LUMBER, Resource.WOOL, Resource.ORE
    assert got == [L, L, W, ORE, ORE, ORE]
    for bad in (-1, 6):
        with pytest.raises(EngineError):
            t.state.steal_outcome(bad)


def test_robber_before_discard_order_and_counts_after_the_steal(table) -> None:
    """seed 003 «ХОД ИГРОКА» 1 (option robber_before_discard): the robber moves and steals first,
    then players discard; the steal moves a card, so the counts are taken after it: the thief
    going from 7 to 8 discards 4, the victim going from 8 to 7 keeps its cards."""
    t = table(players=2, options=GameOptions(robber_before_discard=True))
    t.build(1, settlements=[13])
    t.give(0, t.hand(lumber=7))
    t.give(1, t.hand(ore=8))
    t.at_roll(0)
    t.roll(2, 5)
    s = t.state
    assert s.phase is Phase.MOVE_ROBBER
    t.play(A.MoveRobber(4, 1), A.StealCard(Resource.ORE))
    assert s.phase is Phase.DISCARD
    assert s.discards == [4, 0]
    t.rejected(A.Discard(1, t.hand(ore=4)), "nothing to discard")
    t.play(A.Discard(0, t.hand(lumber=4)))
    assert s.phase is Phase.MAIN
    assert s.hand_size == [4, 7]


def test_robber_before_discard_with_nobody_over_the_limit(table) -> None:
    """seed 003 «ХОД ИГРОКА» 1: with no hand over 7 after the steal, the turn goes on."""
    t = table(players=2, options=GameOptions(robber_before_discard=True))
    t.build(1, settlements=[13])
    t.give(1, t.hand(ore=8))
    t.at_roll(0)
    t.roll(2, 5)
    t.play(A.MoveRobber(4, 1), A.StealCard(Resource.ORE))
    assert t.state.phase is Phase.MAIN
    assert t.state.hand_size == [1, 7]


def test_default_order_discards_before_the_steal(table) -> None:
    """seed 002 «Разбойник» 1-3 (default): discards first, counted before any steal."""
    t = table(players=2)
    t.build(1, settlements=[13])
    t.give(0, t.hand(lumber=7))
    t.give(1, t.hand(ore=8))
    t.at_roll(0)
    t.roll(2, 5)
    assert t.state.phase is Phase.DISCARD and t.state.discards == [0, 4]
    t.play(A.Discard(1, t.hand(ore=4)), A.MoveRobber(4, 1), A.StealCard(Resource.ORE))
    assert t.state.hand_size == [8, 3] and t.state.phase is Phase.MAIN
