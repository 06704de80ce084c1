"""check() and play(): illegal actions raise IllegalActionError with a useful message and leave
the state exactly as it was.

Rule source: ../shared/STYLE.md (python-chess's checked front door: ``play`` checks, ``apply``
does not) and docs/rules/base.md for each rule named in a message.
"""

from __future__ import annotations

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import DevCard, EngineError, IllegalActionError, Phase, Resource
from hexlan.engine.state import GameState

ILLEGAL_EVERYWHERE = [
    A.BuildRoad(71),
    A.BuildSettlement(53),
    A.BuildCity(53),
    A.MoveRobber(9, -1),
    A.Discard(3, (1, 0, 0, 0, 0)),
    A.PlayYearOfPlenty((Resource.ORE, Resource.ORE)),
    A.ConfirmTrade(2),
    A.AnswerTrade(2, True),
    A.Dice(0, 7),
    A.StealCard(Resource.ORE),
    A.DrawCard(DevCard.KNIGHT),
    A.MonopolyTake((0, 0, 0, 0)),
    A.RevealVictory(1, 0),
    A.StartPlayer(9),
]


def _positions(table) -> dict[str, GameState]:
    """One state in each kind of phase."""
    positions: dict[str, GameState] = {}
    setup = GameState(table.seeded_setup(4, seed=3).board, 4)
    setup.play(A.StartPlayer(1))
    positions["setup settlement"] = setup
    positions["roll"] = table.seeded_setup(4, seed=3)

    t = table(players=4)
    t.build(0, settlements=[12])
    positions["main"] = t.state

    t = table(players=4)
    t.give(1, (3, 3, 3, 0, 0))
    t.at_roll(0)
    t.roll(3, 4)
    positions["discard"] = t.state

    t = table(players=4)
    t.build(1, settlements=[13])
    t.give(1, (0, 0, 1, 0, 0))
    t.at_roll(0)
    t.roll(3, 4)
    positions["move robber"] = t.state

    t = table(players=4)
    t.build(1, settlements=[13])
    t.give(1, (0, 0, 1, 0, 0))
    t.at_roll(0)
    t.roll(3, 4)
    t.play(A.MoveRobber(4, 1))
    positions["steal"] = t.state

    t = table(players=4)
    t.give(0, (1, 0, 0, 0, 0))
    t.play(A.OfferTrade((1, 0, 0, 0, 0), (0, 0, 0, 0, 1), -1))
    positions["trade responses"] = t.state

    t = table(players=4)
    t.build(0, settlements=[12])
    t.give_dev(0, DevCard.ROAD_BUILDING)
    t.play(A.PlayRoadBuilding())
    positions["road building"] = t.state

    t = table(players=4)
    t.give(0, (0, 0, 1, 1, 1))
    t.play(A.BuyDevelopmentCard())
    positions["draw"] = t.state
    return positions


def test_illegal_actions_raise_and_change_nothing(table) -> None:
    """play() raises IllegalActionError (a ValueError and an EngineError) for actions the rules
    do not allow, and the state keeps the same full hash."""
    for name, state in _positions(table).items():
        legal = set(state.legal_actions()) | {a for a, _ in state.chance_outcomes()}
        for action in ILLEGAL_EVERYWHERE:
            if action in legal:
                continue
            before = state.full_hash()
            with pytest.raises(IllegalActionError) as info:
                state.play(action)
            assert isinstance(info.value, ValueError) and isinstance(info.value, EngineError)
            assert info.value.reason, (name, action)
            assert state.full_hash() == before, (name, action)


def test_every_listed_action_passes_check(table) -> None:
    """legal_actions() and chance_outcomes() list only actions check() accepts."""
    for state in _positions(table).values():
        for action in state.legal_actions():
            state.check(action)
        for seat in state.acting_seats():
            for action in state.legal_actions(seat):
                state.check(action)
        for action, _ in state.chance_outcomes():
            state.check(action)


def test_messages_name_the_action_the_seat_and_the_phase(table) -> None:
    """STYLE.md house habit 4: messages name the value and its context."""
    t = table(players=3)
    with pytest.raises(IllegalActionError) as info:
        t.state.play(A.BuildRoad(5))
    assert "BuildRoad" in str(info.value) and "main" in str(info.value)
    assert "seat 0" in str(info.value) and "path=5" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        t.state.play(A.Discard(1, (1, 0, 0, 0, 0)))
    assert "seat 1" in str(info.value)
    t.rejected(A.Dice(3, 4), "no chance outcome is due", "main")
    t.give(0, (0, 0, 1, 1, 1))
    t.play(A.BuyDevelopmentCard())
    t.rejected(A.EndTurn(), "chance outcome is due", "draw")
    t.state.deck[DevCard.MONOPOLY] = 0  # direct: the monopolies are gone
    t.state.deck[DevCard.KNIGHT] += 2
    t.rejected(A.DrawCard(DevCard.MONOPOLY), "not a possible outcome")


def test_rule_source_is_attached(table) -> None:
    """IllegalActionError.rule cites where the rule comes from, where the check knows it."""
    t = table(players=3)
    t.give(1, (5, 4, 0, 0, 0))
    t.at_roll(0)
    t.roll(3, 4)
    with pytest.raises(IllegalActionError) as info:
        t.state.play(A.Discard(1, (1, 0, 0, 0, 0)))
    assert "Разбойник" in info.value.rule
    assert info.value.reason in str(info.value)


def test_other_seats_may_not_act_in_the_active_turn(table) -> None:
    """seed 002 «Ход»: only the active player builds, trades and ends the turn."""
    t = table(players=3)
    t.build(1, settlements=[12], roads=[t.path(12, 17)])
    t.give(1, (5, 5, 5, 5, 5))
    assert t.legal(1) == []
    t.main(0)
    assert A.BuildRoad(t.path(17, 22)) not in t.legal()
    t.rejected(A.BuildRoad(t.path(17, 22)), "not legal")


def test_replay_reports_the_index_of_the_illegal_action(table) -> None:
    """GameState.replay checks every action and names the first illegal one."""
    board = table.seeded_setup(2, seed=1).board
    with pytest.raises(IllegalActionError) as info:
        GameState.replay(board, 2, [A.StartPlayer(0), A.BuildSettlement(0), A.BuildSettlement(1)])
    assert info.value.reason.startswith("action 2:")


def test_game_over_rejects_everything(table) -> None:
    """docs/rules/base.md «Victory»: after the reveal the game is over."""
    t = table(players=2)
    t.state.phase = Phase.GAME_OVER  # direct
    for action in (A.EndTurn(), A.RollDice(), A.Dice(1, 1), A.StartPlayer(0)):
        t.rejected(action, "game is over")
