"""Production: what a roll pays, the robber's hex, and the bank shortage rules.

Rule sources: docs/rules/base.md «Production» (seed 002 «Бросок кубиков», «Сбор сырья»,
«Разбойник»; seed 003 «ПРАВИЛО СБОРА РЕСУРСОВ», «ОБМЕН РЕСУРСОВ В БАНКЕ»; the official bank
shortage rule).

Beginner board: hex 4 is hills 6 (nodes 8, 13, 18, 23, 17, 12), hex 17 fields 6 (nodes 40, 45,
49, 52, 48, 44), hex 0 mountains 10.
"""

from __future__ import annotations

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import RESOURCES, DevCard, Phase, Resource


def test_dice_are_two_fair_dice(table) -> None:
    """seed 002 «Бросок кубиков»: two six-sided dice; the roll is a chance outcome (Phase.DICE)
    with 36 equally likely results, so a 7 comes up 6 times in 36."""
    t = table(players=2)
    t.at_roll(0)
    t.play(A.RollDice())
    outcomes = t.state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == pytest.approx(1)
    sevens = sum(p for a, p in outcomes if a.total == 7)  # type: ignore[union-attr]
    assert sevens == pytest.approx(6 / 36)
    t.rejected(A.Dice(0, 6), "not a possible outcome")
    t.rejected(A.Dice(6, 7), "not a possible outcome")


def test_settlement_pays_one_city_two(table) -> None:
    """seed 002 «Сбор сырья»: each settlement on a hex with the rolled number takes one card,
    each city two; other hexes pay nothing."""
    t = table(players=3)
    t.build(0, settlements=[12])  # mountains 10, fields 12, hills 6
    t.build(1, cities=[13])  # pasture 2, hills 6, pasture 4
    t.build(2, settlements=[44])  # mountains 3, hills 5, fields 6
    t.at_roll(0)
    t.roll(3, 3)
    s = t.state
    assert s.phase is Phase.MAIN
    assert s.hands == [[0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 0, 1, 0]]
    assert s.hand_size == [1, 2, 1]
    assert s.bank == [19, 16, 19, 18, 19]
    t.play(A.EndTurn())
    t.roll(6, 4)  # 10: mountains (hex 0) for seat 0, hills 10 (hex 6) for nobody
    assert s.hands[0] == [0, 1, 0, 0, 1]
    assert s.hands[1] == [0, 2, 0, 0, 0]


def test_robbers_hex_produces_nothing(table) -> None:
    """seed 002 «Разбойник» (Внимание): the hex under the robber pays nobody; the other hexes
    with the number still pay."""
    t = table(players=3)
    t.build(0, settlements=[12])
    t.build(2, settlements=[44])
    t.state.robber = 4  # direct: the robber on hills 6
    t.at_roll(1)
    t.roll(2, 4)
    assert t.state.hands[0] == [0, 0, 0, 0, 0]
    assert t.state.hands[2] == [0, 0, 0, 1, 0]


def test_bank_shortage_nobody_gets_a_resource_it_cannot_pay_everyone(table) -> None:
    """Official bank shortage rule: when the bank cannot pay every player owed a resource,
    nobody gets that resource; other resources are judged on their own and still paid."""
    t = table(players=4)
    t.build(0, settlements=[12])  # owed 1 brick
    t.build(1, cities=[13])  # owed 2 brick
    t.build(2, settlements=[44])  # owed 1 grain
    t.empty_bank(Resource.BRICK, leave=2)
    t.at_roll(0)
    t.roll(1, 5)
    s = t.state
    assert s.bank[Resource.BRICK] == 2
    assert s.hands[0][Resource.BRICK] == 0 and s.hands[1][Resource.BRICK] == 0
    assert s.hands[2][Resource.GRAIN] == 1
    assert t.conserved(s)


def test_bank_shortage_pays_in_full_when_it_can(table) -> None:
    """Official bank shortage rule: a bank that holds exactly what is owed pays everyone."""
    t = table(players=4)
    t.build(0, settlements=[12])
    t.build(1, cities=[13])
    t.empty_bank(Resource.BRICK, leave=3)
    t.at_roll(0)
    t.roll(3, 3)
    assert t.state.bank[Resource.BRICK] == 0
    assert t.state.hands[0][Resource.BRICK] == 1
    assert t.state.hands[1][Resource.BRICK] == 2


def test_bank_shortage_a_single_owed_player_takes_what_is_left(table) -> None:
    """Official bank shortage rule: when only one player is owed the resource, that player takes
    what the bank has left (even when owed by several buildings)."""
    t = table(players=4)
    t.build(1, cities=[13], settlements=[23])  # owed 2 + 1 brick
    t.empty_bank(Resource.BRICK, leave=2)
    t.at_roll(0)
    t.roll(4, 2)
    assert t.state.hands[1][Resource.BRICK] == 2
    assert t.state.bank[Resource.BRICK] == 0
    assert t.conserved(t.state)


def test_year_of_plenty_takes_only_what_the_bank_has(table) -> None:
    """seed 003 «ОБМЕН РЕСУРСОВ В БАНКЕ» ("если такой имеется"): Year of Plenty takes two cards
    the bank holds; two of a kind only if it holds two."""
    t = table(players=3)
    t.give_dev(0, DevCard.YEAR_OF_PLENTY)
    t.empty_bank(Resource.ORE, leave=1)
    legal = [a for a in t.legal() if isinstance(a, A.PlayYearOfPlenty)]
    assert A.PlayYearOfPlenty((Resource.ORE, Resource.ORE)) not in legal
    assert A.PlayYearOfPlenty((Resource.LUMBER, Resource.ORE)) in legal
    assert A.PlayYearOfPlenty((Resource.LUMBER, Resource.LUMBER)) in legal
    assert len(legal) == 14  # 15 pairs of five kinds, less ore-ore
    t.rejected(A.PlayYearOfPlenty((Resource.ORE, Resource.ORE)), "not legal")
    t.rejected(A.PlayYearOfPlenty((Resource.ORE,)), "not legal")


def test_year_of_plenty_with_one_card_in_the_bank_takes_it(table) -> None:
    """docs/rules/base.md «Production»: with one card left in the bank, Year of Plenty takes that
    card; with none it cannot be played."""
    t = table(players=2)
    t.give_dev(0, DevCard.YEAR_OF_PLENTY, 2)
    for r in RESOURCES:
        t.empty_bank(r, leave=1 if r is Resource.WOOL else 0)
    legal = [a for a in t.legal() if isinstance(a, A.PlayYearOfPlenty)]
    assert legal == [A.PlayYearOfPlenty((Resource.WOOL,))]
    t.play(legal[0])
    assert t.state.hands[0] == [0, 0, 1, 0, 0]
    assert sum(t.state.bank) == 0
    t.state.dev_played_this_turn = False  # direct: as if a new turn
    assert not any(isinstance(a, A.PlayYearOfPlenty) for a in t.legal())


def test_maritime_trade_needs_the_card_in_the_bank(table) -> None:
    """seed 003 «ОБМЕН РЕСУРСОВ В БАНКЕ»: the bank gives a card only if it has one."""
    t = table(players=3)
    t.give(0, t.hand(lumber=4))
    t.empty_bank(Resource.ORE)
    trades = [a for a in t.legal() if isinstance(a, A.MaritimeTrade)]
    assert {a.get for a in trades} == {Resource.BRICK, Resource.WOOL, Resource.GRAIN}
    t.rejected(A.MaritimeTrade(t.hand(lumber=4), Resource.ORE), "not legal")


def test_no_buying_from_an_empty_deck(table) -> None:
    """docs/rules/base.md «Production»: nobody can buy from an empty development deck."""
    t = table(players=2)
    t.give(0, t.hand(wool=2, grain=2, ore=2))
    t.give_dev(1, DevCard.KNIGHT, 14)
    t.give_dev(1, DevCard.VICTORY_POINT, 5)
    t.give_dev(1, DevCard.ROAD_BUILDING, 2)
    t.give_dev(1, DevCard.YEAR_OF_PLENTY, 2)
    t.give_dev(1, DevCard.MONOPOLY, 1)
    assert A.BuyDevelopmentCard() in t.legal()
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.MONOPOLY))
    assert sum(t.state.deck) == 0
    assert A.BuyDevelopmentCard() not in t.legal()
    t.rejected(A.BuyDevelopmentCard(), "not legal")
