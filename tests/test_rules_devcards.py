"""Development cards: the deck, buying, one card per turn, timing, and each card's effect.

Rule sources: docs/rules/base.md «Development cards» (seed 002 «Карточки развития», «Фаза
строительства», «Начало партии в игре с новичками»; seed 003 «БАНК», «ХОД ИГРОКА» 4; official).

Beginner board: hex 4 (hills 6) has nodes 8, 13, 18, 23, 17, 12.
"""

from __future__ import annotations

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import DevCard, Phase, Resource
from hexlan.engine.options import GameOptions
from hexlan.engine.state import GameState

ROAD_BUILDING_PLAY = A.PlayRoadBuilding()
KNIGHT = A.PlayKnight()


def _card_plays(actions: list[A.Action]) -> set[type]:
    kinds = (A.PlayKnight, A.PlayRoadBuilding, A.PlayYearOfPlenty, A.PlayMonopoly)
    return {type(a) for a in actions if isinstance(a, kinds)}


def test_deck_of_25(table) -> None:
    """seed 003 «БАНК»: 14 knights, 5 victory points, 2 road building, 2 year of plenty,
    2 monopoly; a purchase draws each with probability proportional to the cards left."""
    t = table(players=3)
    s = t.state
    assert s.deck == [14, 5, 2, 2, 2]
    t.give(0, t.hand(wool=1, grain=1, ore=1))
    t.play(A.BuyDevelopmentCard())
    assert s.phase is Phase.DRAW
    outcomes = dict(s.chance_outcomes())
    assert outcomes == {
        A.DrawCard(DevCard.KNIGHT): pytest.approx(14 / 25),
        A.DrawCard(DevCard.VICTORY_POINT): pytest.approx(5 / 25),
        A.DrawCard(DevCard.ROAD_BUILDING): pytest.approx(2 / 25),
        A.DrawCard(DevCard.YEAR_OF_PLENTY): pytest.approx(2 / 25),
        A.DrawCard(DevCard.MONOPOLY): pytest.approx(2 / 25),
    }


def test_buying_costs_wool_grain_ore_and_draws_a_hidden_card(table) -> None:
    """seed 002 «Ресурсы и постройки»: a development card costs wool + grain + ore."""
    t = table(players=3)
    t.give(0, t.hand(wool=1, grain=1, ore=0))
    assert A.BuyDevelopmentCard() not in t.legal()
    t.rejected(A.BuyDevelopmentCard(), "not legal")
    t.give(0, t.hand(ore=1))
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.KNIGHT))
    s = t.state
    assert s.hands[0] == [0, 0, 0, 0, 0]
    assert s.bank == [19] * 5
    assert s.dev_cards[0] == [1, 0, 0, 0, 0] and s.dev_count[0] == 1
    assert s.deck == [13, 5, 2, 2, 2]
    assert s.phase is Phase.MAIN
    # the card is hidden from the others
    assert s.observation(A.DrawCard(DevCard.KNIGHT), 1) == A.DrawCard(None)


def test_not_in_the_turn_it_was_bought(table) -> None:
    """seed 002 «Фаза строительства»: a card cannot be played in the turn it was bought; it can
    from the owner's next turn, before or after the roll."""
    t = table(players=2)
    t.give(0, t.hand(wool=1, grain=1, ore=1))
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.KNIGHT))
    assert KNIGHT not in t.legal()
    t.rejected(KNIGHT, "not legal")
    t.play(A.EndTurn())
    assert t.state.legal_actions(0) == []  # not seat 0's turn
    t.roll(2, 2)
    t.play(A.EndTurn())
    assert t.state.active == 0 and t.state.phase is Phase.ROLL
    assert KNIGHT in t.legal()


def test_one_card_per_turn(table) -> None:
    """seed 002 «Карточки развития»: at most one development card per turn, of any kind."""
    t = table(players=2)
    t.give_dev(0, DevCard.KNIGHT, 2)
    t.give_dev(0, DevCard.MONOPOLY)
    t.play(KNIGHT, A.MoveRobber(0, -1))
    assert _card_plays(t.legal()) == set()
    t.rejected(KNIGHT, "not legal")
    t.rejected(A.PlayMonopoly(Resource.ORE), "not legal")
    t.play(A.EndTurn())
    t.roll(2, 2)
    t.play(A.EndTurn())
    assert _card_plays(t.legal()) == {A.PlayKnight, A.PlayMonopoly}


def test_any_card_before_the_roll_by_default(table) -> None:
    """Official rule, seed 002 «Начало партии в игре с новичками»: any one card may be played at
    any time in one's turn, even before the roll."""
    t = table(players=2)
    t.build(0, roads=[t.path(12, 17)], settlements=[12])
    for card in DevCard:
        t.give_dev(0, card)
    t.at_roll(0)
    assert _card_plays(t.legal()) == {
        A.PlayKnight,
        A.PlayRoadBuilding,
        A.PlayYearOfPlenty,
        A.PlayMonopoly,
    }
    t.play(A.PlayMonopoly(Resource.ORE), A.MonopolyTake((0, 0)))
    assert t.state.phase is Phase.ROLL
    assert _card_plays(t.legal()) == set()
    assert t.legal() == [A.RollDice()]


def test_knight_only_before_roll_option(table) -> None:
    """seed 002 «Карточки развития» (option knight_only_before_roll): before the roll only a
    knight may be played; the other cards after it."""
    t = table(players=2, options=GameOptions(knight_only_before_roll=True))
    t.build(0, roads=[t.path(12, 17)], settlements=[12])
    for card in DevCard:
        t.give_dev(0, card)
    t.at_roll(0)
    assert _card_plays(t.legal()) == {A.PlayKnight}
    t.rejected(A.PlayMonopoly(Resource.ORE), "not legal")
    t.rejected(ROAD_BUILDING_PLAY, "not legal")
    t.roll(2, 2)
    assert _card_plays(t.legal()) == {
        A.PlayKnight,
        A.PlayRoadBuilding,
        A.PlayYearOfPlenty,
        A.PlayMonopoly,
    }


def test_knight_before_the_roll_moves_the_robber_without_discards(table) -> None:
    """seed 002 «Карточки развития»: a knight moves the robber and steals as on a 7, but nobody
    discards; played before the roll, the roll follows."""
    t = table(players=2)
    t.build(1, settlements=[13])
    t.give(1, t.hand(ore=9))
    t.give(0, t.hand(lumber=9))
    t.give_dev(0, DevCard.KNIGHT)
    t.at_roll(0)
    t.play(KNIGHT)
    s = t.state
    assert s.phase is Phase.MOVE_ROBBER and s.knights == [1, 0]
    assert A.MoveRobber(9, -1) not in t.legal()  # the robber must move
    t.play(A.MoveRobber(4, 1), A.StealCard(Resource.ORE))
    assert s.phase is Phase.ROLL
    assert s.hand_size == [10, 8]
    assert s.discards == [0, 0]
    assert s.robber == 4


def test_knight_respects_robber_to_desert_option(table) -> None:
    """seed 003 «ХОД ИГРОКА» 4 (option robber_to_desert=False): a knight may not send the robber
    to the desert either."""
    t = table(players=2, options=GameOptions(robber_to_desert=False))
    t.state.robber = 0
    t.give_dev(0, DevCard.KNIGHT)
    t.play(KNIGHT)
    assert 9 not in {a.hex for a in t.legal()}  # type: ignore[union-attr]


def _play_knight(t, seat: int, to_hex: int) -> None:
    t.give_dev(seat, DevCard.KNIGHT)
    t.main(seat)
    t.state.dev_played_this_turn = False  # direct: a new turn for this seat
    t.play(KNIGHT, A.MoveRobber(to_hex, -1))


def test_largest_army_at_three_and_strictly_more_to_take_it(table) -> None:
    """seed 002 «Карточки развития», «Конец игры»: the first to play 3 knights takes Largest Army
    (2 VP); another takes it only with strictly more knights."""
    t = table(players=3)
    s = t.state
    for k, h in enumerate((0, 1)):
        _play_knight(t, 0, h)
        assert s.largest_army_holder == -1, k
    _play_knight(t, 1, 2)
    _play_knight(t, 1, 3)
    _play_knight(t, 0, 5)
    assert s.largest_army_holder == 0 and s.public_vp[0] == 2
    _play_knight(t, 1, 6)  # 3 knights: a tie keeps it with seat 0
    assert s.largest_army_holder == 0 and s.public_vp == [2, 0, 0]
    _play_knight(t, 1, 7)  # 4 knights: strictly more
    assert s.largest_army_holder == 1 and s.public_vp == [0, 2, 0]
    assert s.knights == [3, 4, 0]


def test_no_largest_army_with_the_option_off(table) -> None:
    """seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ» (option largest_army=False): no award at all."""
    t = table(players=2, options=GameOptions(largest_army=False))
    for h in (0, 1, 2, 3):
        _play_knight(t, 0, h)
    assert t.state.knights[0] == 4
    assert t.state.largest_army_holder == -1 and t.state.public_vp[0] == 0


def test_road_building_places_two_free_roads_by_the_road_rules(table) -> None:
    """seed 002 «Карточки развития»: Road Building places two roads free, each connected as
    usual."""
    t = table(players=2)
    t.build(0, settlements=[12])
    t.give_dev(0, DevCard.ROAD_BUILDING)
    t.play(ROAD_BUILDING_PLAY)
    s = t.state
    assert s.phase is Phase.ROAD_BUILDING and s.free_roads == 2
    assert {a.path for a in t.legal()} == set(s.topology.node_paths[12])  # type: ignore[union-attr]
    t.rejected(A.BuildRoad(t.path(0, 3)), "not legal")
    t.rejected(A.EndTurn(), "not legal")
    t.play(A.BuildRoad(t.path(12, 17)))
    assert s.phase is Phase.ROAD_BUILDING
    t.play(A.BuildRoad(t.path(17, 22)))
    assert s.phase is Phase.MAIN
    assert s.hands[0] == [0] * 5 and s.bank == [19] * 5
    assert sorted(s.roads[0]) == sorted([t.path(12, 17), t.path(17, 22)])


def test_road_building_with_one_road_left_places_one(table) -> None:
    """docs/rules/base.md «Development cards»: with fewer than two roads left, as many as can be
    placed; with none left, the card cannot be played."""
    t = table(players=2)
    t.build(0, settlements=[12])
    nodes = [12, 7, 3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42]
    t.build(0, roads=t.trail(*nodes[:15]))  # 14 roads along the coast
    t.give_dev(0, DevCard.ROAD_BUILDING, 2)
    t.play(ROAD_BUILDING_PLAY)
    assert t.state.free_roads == 1
    t.play(A.BuildRoad(t.path(37, 42)))
    assert t.state.phase is Phase.MAIN and len(t.state.roads[0]) == 15
    t.state.dev_played_this_turn = False  # direct: a new turn
    t.rejected(ROAD_BUILDING_PLAY, "not legal")


def test_year_of_plenty_takes_two_from_the_bank(table) -> None:
    """seed 002 «Карточки развития»: take any two resources from the bank."""
    t = table(players=2)
    t.give_dev(0, DevCard.YEAR_OF_PLENTY)
    t.play(A.PlayYearOfPlenty((Resource.ORE, Resource.ORE)))
    s = t.state
    assert s.hands[0] == [0, 0, 0, 0, 2] and s.bank[Resource.ORE] == 17
    assert s.dev_count[0] == 0 and s.phase is Phase.MAIN


def test_monopoly_takes_every_card_of_a_kind(table) -> None:
    """seed 002 «Карточки развития»: every other player hands over all their cards of the named
    resource; the amounts are revealed (Phase.MONOPOLY)."""
    t = table(players=4)
    t.give(0, t.hand(wool=1))
    t.give(1, t.hand(wool=3, ore=1))
    t.give(3, t.hand(wool=2, grain=2))
    t.give_dev(0, DevCard.MONOPOLY)
    t.play(A.PlayMonopoly(Resource.WOOL))
    s = t.state
    assert s.phase is Phase.MONOPOLY
    assert s.chance_outcomes() == [(A.MonopolyTake((0, 3, 0, 2)), 1.0)]
    t.rejected(A.MonopolyTake((0, 3, 0, 1)), "not a possible outcome")
    t.play(A.MonopolyTake((0, 3, 0, 2)))
    assert s.hands == [[0, 0, 6, 0, 0], [0, 0, 0, 0, 1], [0] * 5, [0, 0, 0, 2, 0]]
    assert s.phase is Phase.MAIN and t.conserved(s)


def test_victory_point_cards_are_never_played(table) -> None:
    """seed 002 «Конец игры»: a victory point card counts at once and is never played."""
    t = table(players=2)
    t.give(0, t.hand(wool=1, grain=1, ore=1))
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.VICTORY_POINT))
    s: GameState = t.state
    assert s.victory_points(0) == 1 and s.public_vp[0] == 0
    assert _card_plays(t.legal()) == set()


def test_the_hidden_card_each_play_spends_and_the_point_card(table) -> None:
    """What the network's card shows read of a game (docs/PROTOCOL.md §13.8): each card play
    spends a development card drawn before this turn (seed 002 «Карточки развития»), a trade or
    a roll spends none, and the victory point card is the one that counts while held."""
    s = table(players=3).state
    plays = {
        A.PlayKnight(): DevCard.KNIGHT,
        A.PlayRoadBuilding(): DevCard.ROAD_BUILDING,
        A.PlayYearOfPlenty((Resource.WOOL, Resource.ORE)): DevCard.YEAR_OF_PLENTY,
        A.PlayMonopoly(Resource.GRAIN): DevCard.MONOPOLY,
    }
    for play, card in plays.items():
        assert s.hidden_card(play) == ("development", card, card.title, False)
    assert s.hidden_card(A.EndTurn()) is None
    assert s.hidden_card(A.RollDice()) is None
    assert s.point_card() == ("development", DevCard.VICTORY_POINT)
