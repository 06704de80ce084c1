"""Positions in the 5-6 player game for the special building tests (``test_rules_special_build``,
``test_bots``).

A plain helper module like ``random_play``: pytest puts ``tests/`` on ``sys.path``. The shortcuts
set state fields directly, as ``conftest.Table`` does for the base game, and keep the rule set's
card totals (24 of each resource, 34 development cards) intact.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from hexlan.engine import actions as A
from hexlan.engine.board import random_board
from hexlan.engine.core import BuildPhase, DevCard, Hand, NodeId, PathId, Phase, Seat
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState

RULES = load_ruleset("five-six")
MAP = load_map(RULES.board)
TOPOLOGY = MAP.topology
BOARD = random_board(random.Random(0), "spiral", MAP)


def five_six(players: int = 5, active: Seat = 0, options: GameOptions | None = None) -> GameState:
    """A 5-6 player game past set-up with an empty board: ``active`` in :attr:`Phase.MAIN` of
    turn 1 (set directly, as ``conftest.Table`` does)."""
    state = GameState(BOARD, players, options, RULES)
    state.play(A.StartPlayer(active))
    state.setup_step = len(state.setup_order)
    state.turn = 1
    state.phase = Phase.MAIN
    return state


def give(state: GameState, seat: Seat, cards: Hand) -> None:
    """Move ``cards`` from the bank to the seat's hand (direct; totals are conserved)."""
    for r, n in enumerate(cards):
        assert state.bank[r] >= n
        state.bank[r] -= n
        state.hands[seat][r] += n
    state.hand_size[seat] += sum(cards)


def give_dev(state: GameState, seat: Seat, card: DevCard, count: int = 1) -> None:
    """Deal development cards bought before this turn from the deck (direct)."""
    assert state.deck[card] >= count
    state.deck[card] -= count
    state.dev_cards[seat][card] += count
    state.dev_count[seat] += count


def build(
    state: GameState,
    seat: Seat,
    settlements: Iterable[NodeId] = (),
    cities: Iterable[NodeId] = (),
    roads: Iterable[PathId] = (),
) -> None:
    """Place pieces through the engine's unchecked ``apply``, paying them from cards given first
    (as ``conftest.Table.build``); the phase and active seat are restored."""
    phase, active = state.phase, state.active
    state.active, state.phase = seat, Phase.MAIN
    for node in settlements:
        give(state, seat, state.rules.settlement_cost)
        state.apply(A.BuildSettlement(node))
    for node in cities:
        if node not in state.settlements[seat]:
            give(state, seat, state.rules.settlement_cost)
            state.apply(A.BuildSettlement(node))
        give(state, seat, state.rules.city_cost)
        state.apply(A.BuildCity(node))
    for p in roads:
        give(state, seat, state.rules.road_cost)
        state.apply(A.BuildRoad(p))
    state.phase, state.active = phase, active


def free_node(state: GameState, skip: int = 0) -> NodeId:
    """An intersection the distance rule leaves open, with three neighbours (the ``skip``-th
    such one in id order)."""
    spots = [
        n
        for n in range(TOPOLOGY.node_count)
        if not state.blocked[n] and len(TOPOLOGY.node_nodes[n]) == 3
    ]
    return spots[skip]


def outpost(state: GameState, seat: Seat, skip: int = 0) -> tuple[NodeId, PathId, NodeId]:
    """Give ``seat`` a settlement and two roads leading away from it, on open ground.

    Returns ``(settlement, next_road, spot)``: a free path at the road's end and the open
    intersection two roads away, where a settlement may go.
    """
    for candidate in range(skip, TOPOLOGY.node_count):
        home = free_node(state, candidate)
        for middle in TOPOLOGY.node_nodes[home]:
            for spot in TOPOLOGY.node_nodes[middle]:
                if spot == home or state.blocked[spot]:
                    continue
                onward = [
                    p
                    for p in TOPOLOGY.node_paths[spot]
                    if state.path_owner[p] < 0 and p != TOPOLOGY.path_of[frozenset((middle, spot))]
                ]
                if onward:
                    roads = [
                        TOPOLOGY.path_of[frozenset((home, middle))],
                        TOPOLOGY.path_of[frozenset((middle, spot))],
                    ]
                    build(state, seat, settlements=[home], roads=roads)
                    return home, onward[0], spot
    raise AssertionError("no open ground left")


def end_special_phase(state: GameState) -> list[Seat]:
    """End every remaining special turn; the builders, in the order they ended."""
    builders = []
    while state.phase is BuildPhase.SPECIAL_BUILD:
        builders.append(state.active)
        state.play(A.END_TURN)
    return builders
