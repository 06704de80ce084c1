"""Set-up: the start player, snake order, settlement-then-road, the distance rule and the
starting resources.

Rule sources: docs/rules/base.md «Set-up» (seed 002 «Начало игры» 2-7; seed 003 «НАЧАЛО ИГРЫ»).
"""

from __future__ import annotations

import pytest

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board
from hexlan.engine.core import Phase
from hexlan.engine.state import CHANCE, GameState

BOARD = beginner_board()


def _placement_order(players: int, start: int) -> list[int]:
    """Seats in the order they place a settlement, playing the first legal choices."""
    state = GameState(BOARD, players)
    state.play(A.StartPlayer(start))
    order = []
    while state.phase is not Phase.ROLL:
        if state.phase is Phase.SETUP_SETTLEMENT:
            order.append(state.active)
        state.play(state.legal_actions()[0])
    assert state.active == start and state.turn == 1
    return order


def test_start_player_is_a_uniform_chance_outcome() -> None:
    """seed 002 «Начало игры» 2: the highest roll starts, ties re-roll; taken as one uniform
    chance outcome (Phase.START_PLAYER)."""
    for players in (2, 3, 4):
        state = GameState(BOARD, players)
        assert state.phase is Phase.START_PLAYER
        assert state.current_player() == CHANCE
        assert state.legal_actions() == []
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == [A.StartPlayer(s) for s in range(players)]
        assert all(p == pytest.approx(1 / players) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1)


def test_start_player_outside_the_seats_is_rejected(rejected) -> None:
    """Only an existing seat can start."""
    state = GameState(BOARD, 3)
    rejected(state, A.StartPlayer(3), "not a possible outcome")
    rejected(state, A.BuildSettlement(0), "chance outcome is due")


@pytest.mark.parametrize(
    ("players", "start", "order"),
    [
        (4, 2, [2, 3, 0, 1, 1, 0, 3, 2]),
        (4, 0, [0, 1, 2, 3, 3, 2, 1, 0]),
        (3, 1, [1, 2, 0, 0, 2, 1]),
        (2, 1, [1, 0, 0, 1]),
    ],
)
def test_snake_order(players: int, start: int, order: list[int]) -> None:
    """seed 002 «Начало игры» 3-6: 1, 2, ..., n, n, ..., 2, 1 from the start player (seed 003
    «НАЧАЛО ИГРЫ» gives 1, 2, 2, 1 for two); then the start player rolls first."""
    assert _placement_order(players, start) == order


def test_settlement_then_an_adjoining_road() -> None:
    """seed 002 «Начало игры» 3: each placement is a settlement, then one road touching it."""
    state = GameState(BOARD, 4)
    state.play(A.StartPlayer(0))
    assert state.phase is Phase.SETUP_SETTLEMENT
    assert all(isinstance(a, A.BuildSettlement) for a in state.legal_actions())
    assert len(state.legal_actions()) == 54  # any intersection, coastal ones included
    state.play(A.BuildSettlement(12))
    assert state.phase is Phase.SETUP_ROAD and state.active == 0
    roads = state.legal_actions()
    assert {a.path for a in roads} == set(state.topology.node_paths[12])  # type: ignore[union-attr]
    state.play(A.BuildRoad(state.topology.path_of[frozenset((12, 17))]))
    assert state.phase is Phase.SETUP_SETTLEMENT and state.active == 1


def test_setup_road_must_touch_the_new_settlement(rejected) -> None:
    """seed 002 «Начало игры» 3: the road adjoins the settlement just placed; a road touching the
    seat's other settlement, or touching nothing, is rejected."""
    state = GameState(BOARD, 2)
    state.play(A.StartPlayer(0))
    path = state.topology.path_of
    state.play(A.BuildSettlement(12))
    state.play(A.BuildRoad(path[frozenset((12, 17))]))
    state.play(A.BuildSettlement(40))
    state.play(A.BuildRoad(path[frozenset((40, 44))]))
    state.play(A.BuildSettlement(50))
    # seat 1's second placement: not at its own first settlement, not next to seat 0's road
    rejected(state, A.BuildRoad(path[frozenset((40, 45))]), "not legal")
    rejected(state, A.BuildRoad(path[frozenset((17, 22))]), "not legal")
    rejected(state, A.BuildRoad(path[frozenset((0, 3))]), "not legal")
    state.play(A.BuildRoad(path[frozenset((50, 53))]))
    assert state.active == 0 and state.phase is Phase.SETUP_SETTLEMENT


def test_setup_distance_rule(rejected) -> None:
    """seed 002 «Ресурсы и постройки»: no settlement next to any settlement, own or not; the
    occupied intersection itself is taken too."""
    state = GameState(BOARD, 2)
    state.play(A.StartPlayer(0))
    state.play(A.BuildSettlement(12))
    state.play(state.legal_actions()[0])
    legal = {a.node for a in state.legal_actions()}  # type: ignore[union-attr]
    assert legal == set(range(54)) - {12, 7, 8, 17}
    for node in (12, 7, 8, 17):
        rejected(state, A.BuildSettlement(node), "not legal")
    state.play(A.BuildSettlement(13))  # two paths away: fine
    state.play(state.legal_actions()[0])
    state.play(A.BuildSettlement(40))
    state.play(state.legal_actions()[0])
    # seat 0's second settlement may touch neither its own first one nor seat 1's
    legal = {a.node for a in state.legal_actions()}  # type: ignore[union-attr]
    taken = {12, 7, 8, 17} | {13, 9, 18} | {40, 35, 44, 45}
    assert legal == set(range(54)) - taken


def test_only_the_second_settlement_yields_resources() -> None:
    """seed 002 «Начало игры» 7 / «Подготовка к началу игры»: the second settlement gives one
    card per adjoining producing hex (two forests give two lumber); the desert gives nothing;
    the first settlement gives nothing."""
    state = GameState(BOARD, 2)
    state.play(A.StartPlayer(0))
    # node 12: mountains (0), fields (3), hills (4) — the first placement gives nothing
    state.play(A.BuildSettlement(12))
    assert state.hands[0] == [0, 0, 0, 0, 0]
    state.play(state.legal_actions()[0])
    state.play(A.BuildSettlement(40))  # seat 1's first
    assert state.hands[1] == [0, 0, 0, 0, 0]
    state.play(state.legal_actions()[0])
    # seat 1's second: node 28 touches fields (7) and two forests (8, 12)
    state.play(A.BuildSettlement(28))
    assert state.hands[1] == [2, 0, 0, 1, 0]
    assert state.hand_size[1] == 3
    state.play(state.legal_actions()[0])
    # seat 0's second: node 23 touches hills (4), forest (8) and the desert (9)
    state.play(A.BuildSettlement(23))
    assert state.hands[0] == [1, 1, 0, 0, 0]
    assert state.bank == [16, 18, 19, 18, 19]
    state.play(state.legal_actions()[0])
    assert state.phase is Phase.ROLL
    assert state.public_vp == [2, 2]


def test_setup_allows_nothing_else(rejected) -> None:
    """seed 002 «Начало игры»: set-up is only placements; no roll, no end of turn."""
    state = GameState(BOARD, 3)
    state.play(A.StartPlayer(1))
    rejected(state, A.RollDice(), "not legal")
    rejected(state, A.EndTurn(), "not legal")
    rejected(state, A.BuildRoad(0), "not legal")
    state.play(A.BuildSettlement(0))
    rejected(state, A.BuildSettlement(20), "not legal")
    rejected(state, A.EndTurn(), "not legal")


def test_after_setup_every_seat_has_two_of_each_and_its_second_yield(setup_game) -> None:
    """seed 002 «Начало игры» 3-7: after set-up each seat has two settlements, two roads and the
    resources of its second settlement; the start player rolls first."""
    state = setup_game
    assert state.phase is Phase.ROLL and state.turn == 1
    assert state.active == state.start_seat == state.setup_order[0]
    assert state.legal_actions() == [A.RollDice()]
    for seat in range(4):
        assert len(state.settlements[seat]) == 2 and len(state.roads[seat]) == 2
        assert state.public_vp[seat] == 2
        second = state.settlements[seat][1]
        expected = [0] * 5
        for h in state.topology.node_hexes[second]:
            resource = state.board.terrains[h].resource
            if resource is not None:
                expected[resource] += 1
        assert state.hands[seat] == expected
    for r in range(5):
        assert state.bank[r] + sum(h[r] for h in state.hands) == 19
