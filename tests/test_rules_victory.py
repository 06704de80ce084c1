"""Victory: 10 points on one's own turn, hidden victory point cards, and the options.

Rule sources: docs/rules/base.md «Victory» (seed 002 «Конец игры», «Цель участников»; official
"wait until your turn"; seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ ИГРОКАМ», «ОКОНЧАНИЕ ИГРЫ» for the options).
"""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.core import NO_SEAT, DevCard, Phase
from hexlan.engine.options import GameOptions

SETTLEMENT = (1, 1, 1, 1, 0)
CARD = (0, 0, 1, 1, 1)


def _eight_points(t, seat: int = 0) -> None:
    """Two cities and four settlements (8 VP), with a road 22-28-34 ready for a fifth settlement."""
    t.build(seat, cities=[0, 2], settlements=[11, 20, 42, 22], roads=t.trail(22, 28, 34))


def _win_by_settlement(t) -> None:
    t.give(0, SETTLEMENT)
    t.play(A.BuildSettlement(34))


def test_ten_points_on_ones_turn_end_the_game(table) -> None:
    """seed 002 «Конец игры»: settlement 1, city 2, victory point card 1; reaching 10 during
    one's own turn wins at once, and the winner reveals the hidden cards (Phase.VICTORY)."""
    t = table(players=3)
    _eight_points(t)
    t.give_dev(0, DevCard.VICTORY_POINT)
    s = t.state
    assert s.public_vp[0] == 8 and s.victory_points(0) == 9
    _win_by_settlement(t)
    assert s.phase is Phase.VICTORY
    assert s.chance_outcomes() == [(A.RevealVictory(0, 1), 1.0)]
    t.rejected(A.RevealVictory(0, 0), "not a possible outcome")
    t.rejected(A.EndTurn(), "chance outcome is due")
    t.play(A.RevealVictory(0, 1))
    assert s.phase is Phase.GAME_OVER and s.is_over and s.winner == 0
    assert s.revealed_vp_cards[0] == 1 and s.public_vp[0] == 10
    assert s.victory_points(0) == 10  # revealed cards are not counted twice
    assert s.legal_actions() == [] and s.current_player() == NO_SEAT
    t.rejected(A.EndTurn(), "game is over")


def test_buying_the_tenth_point_wins(table) -> None:
    """seed 002 «Конец игры» ("Одно очко начисляется при покупке"): a victory point card counts
    as soon as it is bought."""
    t = table(players=2)
    _eight_points(t)
    t.give_dev(0, DevCard.VICTORY_POINT)
    t.give(0, CARD)
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.VICTORY_POINT))
    assert t.state.phase is Phase.VICTORY
    t.play(A.RevealVictory(0, 2))
    assert t.state.winner == 0 and t.state.public_vp[0] == 10


def test_points_gained_on_anothers_turn_win_when_ones_turn_begins(table) -> None:
    """Official ("wait until your turn"): a player who reaches 10 outside their turn, here by
    inheriting Longest Road after a break, wins as soon as their own turn begins."""
    t = table(players=3)
    t.build(0, roads=t.trail(3, 7, 12, 17, 22, 28, 34), settlements=[3])  # holds the card (6)
    t.build(1, cities=[6, 26], settlements=[2, 37], roads=t.trail(*(6, 10, 15, 20, 26, 32)))
    t.build(2, roads=t.trail(18, 23, 17), settlements=[18])
    s = t.state
    assert s.longest_road_holder == 0 and s.public_vp[1] == 6
    t.build(1, settlements=[42])
    t.build(1, cities=[42])
    assert s.public_vp[1] == 8
    t.main(2)
    t.give(2, SETTLEMENT)
    t.play(A.BuildSettlement(17))  # breaks seat 0's road: seat 1 is alone longest
    assert s.longest_road_holder == 1 and s.public_vp[1] == 10
    assert s.phase is Phase.MAIN  # seat 2's turn goes on
    t.play(A.EndTurn())
    assert s.active == 0 and s.phase is Phase.ROLL
    t.roll(3, 3)
    t.play(A.EndTurn())
    assert s.active == 1 and s.phase is Phase.VICTORY
    t.play(A.RevealVictory(1, 0))
    assert s.winner == 1


def test_victory_at_turn_end_option(table) -> None:
    """seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ ИГРОКАМ» (option victory_at_turn_end): the active player's
    points are checked at the end of their turn only."""
    t = table(players=2, options=GameOptions(victory_at_turn_end=True))
    _eight_points(t)
    t.give_dev(0, DevCard.VICTORY_POINT)
    _win_by_settlement(t)
    s = t.state
    assert s.phase is Phase.MAIN and s.victory_points(0) == 10
    t.play(A.EndTurn())
    assert s.phase is Phase.VICTORY and s.active == 0
    t.play(A.RevealVictory(0, 1))
    assert s.winner == 0 and s.public_vp[0] == 10


def test_vp_cards_next_turn_option(table) -> None:
    """seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ ИГРОКАМ» (option vp_cards_next_turn): a victory point card
    counts only from the turn after its purchase."""
    t = table(players=2, options=GameOptions(vp_cards_next_turn=True))
    _eight_points(t)
    t.give_dev(0, DevCard.VICTORY_POINT)
    t.give(0, CARD)
    t.play(A.BuyDevelopmentCard(), A.DrawCard(DevCard.VICTORY_POINT))
    s = t.state
    assert s.phase is Phase.MAIN
    assert s.victory_points(0) == 9 and s.hidden_victory_points(0) == 1
    t.play(A.EndTurn())
    assert s.victory_points(0) == 10  # counts now, but it is seat 1's turn
    t.roll(2, 2)
    t.play(A.EndTurn())
    assert s.active == 0 and s.phase is Phase.VICTORY
    assert s.chance_outcomes() == [(A.RevealVictory(0, 2), 1.0)]


def test_points_to_win_option(table) -> None:
    """GameOptions.victory_points overrides the rule set's 10."""
    t = table(players=2, options=GameOptions(victory_points=3))
    t.build(0, settlements=[0, 2], roads=t.trail(2, 6))
    assert t.state.phase is Phase.MAIN
    t.give(0, SETTLEMENT)
    t.give(0, (1, 1, 0, 0, 0))
    t.play(A.BuildRoad(t.path(6, 10)), A.BuildSettlement(10))
    assert t.state.phase is Phase.VICTORY
