"""Cities & Knights (seed 002 «Города и рыцари»; docs/rules/cities-and-knights.md): set-up,
commodities, walls, improvements and metropolises, knights, the event die and the barbarians,
each rule's costs and rejections; whole games by random and heuristic bots with every seat's
information state, and four in-process network sessions."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from bot_games import assert_logs_verify
from click.testing import CliRunner
from variant_play import board_of, play_bot_game, play_random_game, play_told_bot_game

from hexlan.chance import SeededChance
from hexlan.cli import main
from hexlan.engine import actions as A
from hexlan.engine.board import PIPS, Terrain, beginner_board
from hexlan.engine.bots import make_bot
from hexlan.engine.bots.knights import GUARD_VALUE, knight_post, retreat_post
from hexlan.engine.chance import UNIFORM, draw_outcome
from hexlan.engine.core import IllegalActionError, Phase, Resource
from hexlan.engine.determinize import Determinizer
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import CHANCE, GameState
from hexlan.engine.variants.cities_knights import (
    CitiesKnights,
    Progress,
    barbarians,
    knights,
    progress_of,
)
from hexlan.engine.variants.cities_knights.actions import (
    POLITICS,
    SCIENCE,
    TRADE,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DiscardProgress,
    EventDie,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlayProgress,
    PointShown,
    ProgressDrawn,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.net.inproc import InProcessTable
from hexlan.net.verify import stats_report
from hexlan.net.wire import MalformedMessage, decode_action, encode_action
from hexlan.simulate import simulate

GAME = "cities-and-knights"
RULES = load_ruleset(GAME)
BOARD = beginner_board(load_map(RULES.board))
SHIP_FACE = 1
TRADE_GATE = 4
KNIGHT = (0, 0, 1, 0, 1, 0, 0, 0)
GRAIN = (0, 0, 0, 1, 0, 0, 0, 0)


def new_state(players: int = 4, options: GameOptions | None = None) -> GameState:
    """A game after set-up (start player 0, the first legal spot each time), hands emptied."""
    state = GameState(BOARD, players, rules=RULES, options=options or GameOptions())
    state.play(A.StartPlayer(0))
    while state.phase is not Phase.ROLL:
        state.play(state.legal_actions()[0])
    for seat in range(players):
        state.pay_bank(seat, tuple(state.hands[seat]))
    return state


def give(state: GameState, seat: int, **cards: int) -> None:
    """Hand ``seat`` cards from the bank, by kind name (``paper=2``)."""
    hand = [0] * state.kinds
    for name, count in cards.items():
        hand[Resource[name.upper()]] = count
    state.take_from_bank(seat, tuple(hand))


def roll(state: GameState, red: int, yellow: int, face: int = TRADE_GATE) -> None:
    """Roll the red and yellow dice and the event die (a trade gate by default: nothing sails)."""
    state.play(A.ROLL)
    state.play(A.Dice(red, yellow))
    assert state.phase is KnightsPhase.EVENT
    state.play(EventDie(face))


def to_main(state: GameState, seat: int) -> None:
    """End turns until ``seat`` has rolled (a 1 and a 2, a trade gate): its MAIN phase."""
    while not (state.active == seat and state.phase is Phase.MAIN):
        if state.phase is Phase.ROLL:
            roll(state, 1, 2)
        elif state.phase is Phase.MAIN:
            state.play(A.END_TURN)
        else:
            state.play(state.legal_actions()[0])


def rejected(state: GameState, action: A.Action, words: str) -> None:
    """``action`` is refused with a reason containing ``words``; the state is unchanged."""
    before = state.full_hash()
    with pytest.raises(IllegalActionError, match=words):
        state.play(action)
    assert state.full_hash() == before


def extend(state: GameState, seat: int, node: int) -> tuple[int, int]:
    """The active ``seat`` builds a road (paid) from its network at ``node`` to an empty
    intersection: returns the road's path and that far intersection."""
    give(state, seat, lumber=1, brick=1)
    topo = state.topology
    for action in state.legal_actions():
        if isinstance(action, A.BuildRoad) and node in topo.path_nodes[action.path]:
            a, b = topo.path_nodes[action.path]
            far = b if a == node else a
            if state.node_owner[far] < 0 and far < topo.land_node_count:
                state.play(action)
                return action.path, far
    raise AssertionError(f"no road from intersection {node}")


def road_end(state: GameState, seat: int) -> int:
    """The active ``seat`` builds a road (paid) from one of its buildings to an empty
    intersection from which roads lead on inland at least two steps; returns that end."""
    topo, owner, path_owner = state.topology, state.node_owner, state.path_owner

    def onward(node: int) -> list[int]:
        return [
            m
            for q in topo.node_paths[node]
            if path_owner[q] < 0
            for m in topo.path_nodes[q]
            if m != node and owner[m] < 0 and m < topo.land_node_count
        ]

    start, end = next(
        (b, m)
        for b in state.settlements[seat] + state.cities[seat]
        for m in onward(b)
        if any(len(onward(k)) > 1 for k in onward(m))
    )
    path = next(q for q in topo.node_paths[start] if end in topo.path_nodes[q])
    give(state, seat, lumber=1, brick=1)
    state.play(A.BuildRoad(path))
    return end


def next_turn(state: GameState, seat: int) -> None:
    """End the turn under way, then play on to ``seat``'s next MAIN phase."""
    state.play(A.END_TURN)
    to_main(state, seat)


def progress(state: GameState) -> Progress:
    return progress_of(state)


def own_city(state: GameState, seat: int) -> int:
    return state.cities[seat][0]


# ------------------------------------------------------------------ set-up and production


def test_the_second_set_up_building_is_a_city_yielding_a_resource_per_terrain() -> None:
    state = GameState(BOARD, 4, rules=RULES)
    state.play(A.StartPlayer(0))
    while state.phase is not Phase.ROLL:
        legal = state.legal_actions()
        if state.phase is Phase.SETUP_SETTLEMENT:
            kind = A.BuildCity if state.setup_step >= 4 else A.BuildSettlement
            assert all(type(a) is kind for a in legal)
        state.play(legal[0])
    for seat in range(4):
        assert len(state.settlements[seat]) == 1 and len(state.cities[seat]) == 1
        assert state.public_vp[seat] == 3
        terrains = [BOARD.terrains[h] for h in state.topology.node_hexes[own_city(state, seat)]]
        assert state.hand_size[seat] == sum(t.resource is not None for t in terrains)
        assert not any(state.hands[seat][5:])  # resources only, no commodity
    assert state.deck_size() == 0 and A.BUY_DEVELOPMENT_CARD not in state.legal_actions()


def test_a_city_on_forest_pasture_or_mountains_yields_a_resource_and_a_commodity() -> None:
    state = new_state()
    split = {Terrain.FOREST: Resource.PAPER, Terrain.PASTURE: Resource.CLOTH}
    split[Terrain.MOUNTAINS] = Resource.COIN
    seat, hex_id = next(
        (s, h)
        for s in range(4)
        for n in state.cities[s]
        for h in state.topology.node_hexes[n]
        if BOARD.terrains[h] in split and BOARD.tokens[h] not in (2, 12)
    )
    total = BOARD.tokens[hex_id]
    terrain = BOARD.terrains[hex_id]
    assert terrain.resource is not None
    to_main(state, seat)
    state.play(A.END_TURN)
    before = list(state.hands[seat])
    red = min(6, total - 1)
    roll(state, red, total - red)
    gained = [a - b for a, b in zip(state.hands[seat], before, strict=True)]
    assert gained[terrain.resource] >= 1 and gained[split[terrain]] >= 1


def test_the_event_die_is_a_beacon_chance_after_the_dice() -> None:
    state = new_state()
    state.play(A.ROLL)
    state.play(A.Dice(1, 2))
    node = state.chance_node()
    assert state.current_player() == CHANCE and node is not None
    assert (node.kind, node.event, node.sides) == (UNIFORM, "event", (6,))
    assert sorted(node.outcomes, key=lambda a: a.face) == [EventDie(f) for f in range(1, 7)]  # type: ignore[attr-defined]
    rejected(state, A.END_TURN, "chance outcome")
    state.play(EventDie(SHIP_FACE))
    assert progress(state).barbarians == 1 and state.phase is Phase.MAIN


# ------------------------------------------------------------------ the 7, walls and the robber


def test_a_seven_only_makes_discards_until_the_barbarians_first_attack() -> None:
    state = new_state()
    to_main(state, 0)
    state.play(A.END_TURN)
    give(state, 1, lumber=4, paper=4)  # commodities count toward the limit
    robber = state.robber
    roll(state, 3, 4)
    assert state.phase is Phase.DISCARD and state.discards[1] == 4
    state.play(state.legal_actions(1)[0])
    assert state.phase is Phase.MAIN and state.robber == robber


def test_each_wall_raises_the_hand_limit_by_two_and_walls_cost_two_brick() -> None:
    state = new_state()
    to_main(state, 1)
    city = own_city(state, 1)
    rejected(state, BuildWall(city), "two brick")
    rejected(state, BuildWall(state.settlements[1][0]), "under one of the seat's cities")
    give(state, 1, brick=2)
    state.play(BuildWall(city))
    assert progress(state).walls[1] == [city] and state.hand_size[1] == 0
    rejected(state, BuildWall(city), "has its wall already")
    state.play(A.END_TURN)
    give(state, 1, lumber=9)  # 9 = 7 + 2: kept
    give(state, 2, lumber=8)
    roll(state, 3, 4)
    assert state.discards[1] == 0 and state.discards[2] == 4


# ------------------------------------------------------------------ improvements


def test_level_n_costs_n_commodities_and_a_third_trade_level_trades_two_for_one() -> None:
    state = new_state()
    to_main(state, 0)
    rejected(state, ImproveCity(TRADE), "trade level 1 costs 1 cloth")
    give(state, 0, cloth=6)
    for level in (1, 2, 3):
        state.play(ImproveCity(TRADE))
        assert progress(state).levels[0][TRADE] == level
    assert state.hands[0][Resource.CLOTH] == 0 and state.bank[Resource.CLOTH] == 12
    assert state.ratios[0][5:] == [2, 2, 2]
    give(state, 0, paper=2)
    assert A.MaritimeTrade((0, 0, 0, 0, 0, 2, 0, 0), Resource.ORE) in state.legal_actions()
    rejected(state, ImproveCity(3), "no improvement track 3")


def test_the_first_to_level_four_takes_the_metropolis_and_a_fifth_level_takes_it_over() -> None:
    state = new_state()
    to_main(state, 0)
    give(state, 0, paper=10)
    for _ in range(3):
        state.play(ImproveCity(SCIENCE))
    city0 = own_city(state, 0)
    rejected(state, ImproveCity(SCIENCE), "wins the metropolis: name a city")
    state.play(ImproveCity(SCIENCE, city0))
    assert progress(state).metropolis[SCIENCE] == city0 and state.public_vp[0] == 5
    give(state, 0, coin=10)
    for _ in range(3):
        state.play(ImproveCity(POLITICS))
    rejected(state, ImproveCity(POLITICS, city0), "needs a city without a metropolis")
    to_main(state, 1)
    give(state, 1, paper=15)
    for _ in range(4):
        state.play(ImproveCity(SCIENCE))
    assert progress(state).metropolis_seat[SCIENCE] == 0  # a level 4 takes nothing from a 4
    city1 = own_city(state, 1)
    state.play(ImproveCity(SCIENCE, city1))
    assert progress(state).metropolis_seat[SCIENCE] == 1
    assert progress(state).metropolis[SCIENCE] == city1
    assert state.public_vp[0] == 3 and state.public_vp[1] == 5
    rejected(state, ImproveCity(SCIENCE), "has 5 levels, all built")


def test_the_aqueduct_gives_a_resource_of_choice_when_a_roll_gives_nothing() -> None:
    state = new_state()
    progress(state).levels[2][SCIENCE] = 3
    to_main(state, 0)
    state.play(A.END_TURN)
    roll(state, 1, 1)  # a 2: at most one hex produces
    if state.phase is KnightsPhase.AQUEDUCT:  # some seats got nothing
        seats = list(progress(state).aqueduct)
        assert seats == [s for s in (1, 2, 3, 0) if progress(state).levels[s][SCIENCE] >= 3]
        before = state.hands[2][Resource.ORE]
        state.play(AqueductPick(2, Resource.ORE))
        assert state.hands[2][Resource.ORE] == before + 1
    assert state.phase is Phase.MAIN


# ------------------------------------------------------------------ knights


def test_knights_are_built_on_the_road_network_activated_and_promoted_at_their_costs() -> None:
    state = new_state()
    to_main(state, 0)
    road_end = next(n for n in knights.build_spots(state, 0))
    far = next(
        n
        for n in range(state.topology.land_node_count)
        if state.node_owner[n] < 0 and n not in knights.road_nodes(state, 0)
    )
    rejected(state, BuildKnight(road_end), "a knight costs a wool and an ore")
    give(state, 0, wool=1, ore=1)
    rejected(state, BuildKnight(far), "empty intersection one of the seat's roads touches")
    state.play(BuildKnight(road_end))
    assert progress(state).knights[road_end] == Knight(0, 1, False)
    assert state.node_owner[road_end] == 0 and state.node_level[road_end] == 0
    assert state.hand_size[0] == 0
    rejected(state, ActivateKnight(road_end), "activating a knight costs a grain")
    rejected(state, PromoteKnight(road_end), "promoting a knight costs a wool and an ore")
    give(state, 0, grain=1, wool=2, ore=2)
    state.play(ActivateKnight(road_end))
    state.play(PromoteKnight(road_end))
    assert progress(state).knights[road_end] == Knight(0, 2, True)
    rejected(state, PromoteKnight(road_end), "promoted once a turn")
    next_turn(state, 0)
    rejected(state, PromoteKnight(road_end), "third politics improvement")
    progress(state).levels[0][POLITICS] = 3
    state.play(PromoteKnight(road_end))
    assert progress(state).knights[road_end].level == 3


def test_a_knight_activated_this_turn_may_not_act_and_acting_makes_it_inactive() -> None:
    state = new_state()
    to_main(state, 0)
    give(state, 0, wool=1, ore=1, grain=1)
    spot = road_end(state, 0)
    state.play(BuildKnight(spot))
    state.play(ActivateKnight(spot))
    _, far = extend(state, 0, spot)
    assert far in knights.move_targets(state, progress(state), spot)
    rejected(state, MoveKnight(spot, far), "activated this turn may not act")
    next_turn(state, 0)
    state.play(MoveKnight(spot, far))
    assert spot not in progress(state).knights and state.node_owner[spot] < 0
    assert progress(state).knights[far] == Knight(0, 1, False)
    rejected(state, MoveKnight(far, spot), "only an active knight acts")


def test_a_stronger_knight_displaces_a_weaker_one_whose_owner_moves_it() -> None:
    state = new_state()
    to_main(state, 0)
    progress_ = progress(state)
    spot = road_end(state, 0)
    _, far = extend(state, 0, spot)
    topo = state.topology
    escape, beyond = next(
        (q, m)
        for q in topo.node_paths[far]
        for m in topo.path_nodes[q]
        if m != far and state.path_owner[q] < 0 and state.node_owner[m] < 0
    )
    state.path_owner[escape] = 1  # seat 1's road leads on from the knight's intersection
    state.roads[1].append(escape)
    state._road_cache = [None] * 4
    knights.place(state, progress_, far, Knight(1, 1, True))
    knights.place(state, progress_, spot, Knight(0, 2, True))
    state.play(MoveKnight(spot, far))
    assert progress_.knights[far] == Knight(0, 2, False)
    assert state.phase is KnightsPhase.RETREAT and state.current_player() == 1
    assert state.legal_actions() == [RetreatKnight(1, beyond)]
    rejected(state, A.END_TURN, "may not act")
    state.play(RetreatKnight(1, beyond))
    assert progress_.knights[beyond] == Knight(1, 1, True)  # its level and state kept
    assert state.phase is Phase.MAIN


def test_a_displaced_knight_with_nowhere_to_go_leaves_the_board() -> None:
    state = new_state()
    to_main(state, 0)
    spot = road_end(state, 0)
    _, far = extend(state, 0, spot)
    knights.place(state, progress(state), far, Knight(1, 1, False))
    knights.place(state, progress(state), spot, Knight(0, 2, True))
    state.play(MoveKnight(spot, far))
    assert [k.seat for k in progress(state).knights.values()] == [0]
    assert state.phase is Phase.MAIN


def test_a_weaker_or_equal_knight_is_not_displaced() -> None:
    state = new_state()
    to_main(state, 0)
    spot = road_end(state, 0)
    _, far = extend(state, 0, spot)
    knights.place(state, progress(state), far, Knight(1, 1, False))
    knights.place(state, progress(state), spot, Knight(0, 1, True))
    rejected(state, MoveKnight(spot, far), "displaces only a weaker knight")


def test_a_knight_moves_past_no_other_players_piece() -> None:
    state = new_state()
    to_main(state, 0)
    spot = road_end(state, 0)
    _, middle = extend(state, 0, spot)
    _, third = extend(state, 0, middle)
    knights.place(state, progress(state), middle, Knight(1, 3, False))
    knights.place(state, progress(state), spot, Knight(0, 1, True))
    rejected(state, MoveKnight(spot, third), "past none of another player's pieces")
    knights.lift(state, progress(state), middle)
    state.play(MoveKnight(spot, third))
    assert progress(state).knights[third] == Knight(0, 1, False)


def test_an_opponents_knight_breaks_a_road_like_a_settlement() -> None:
    state = new_state()
    to_main(state, 0)
    spot = road_end(state, 0)
    _, middle = extend(state, 0, spot)
    extend(state, 0, middle)
    length = state.road_length[0]
    assert length >= 3
    knights.place(state, progress(state), middle, Knight(1, 1, False))
    assert state.road_length[0] == length - 1  # the last road is cut off
    knights.lift(state, progress(state), middle)
    assert state.road_length[0] == length


def test_the_bot_displaces_a_weaker_knight_on_an_end_of_its_road() -> None:
    """Seed 002: a stronger knight displaces a weaker one; the heuristic bot pushes an opponent's
    knight off its road's end (it blocks the bot's road there)."""
    state = new_state()
    to_main(state, 0)
    spot = road_end(state, 0)
    _, far = extend(state, 0, spot)
    knights.place(state, progress(state), far, Knight(1, 1, True))
    knights.place(state, progress(state), spot, Knight(0, 2, True))
    bot = make_bot("heuristic", random.Random(0))
    assert bot.choose(state, 0) == MoveKnight(spot, far)
    knights.lift(state, progress(state), far)  # nothing to push: the knight stays
    assert not isinstance(bot.choose(state, 0), MoveKnight)


def test_the_bot_walks_a_knight_to_the_robber_on_its_hex_then_chases_it() -> None:
    """Seed 002 «Прогнать разбойника»: the bot's active knight away from the robber, which sits
    on one of the bot's hexes, walks beside it, and a knight beside it chases it."""
    state = new_state()
    to_main(state, 0)
    topo, owner = state.topology, state.node_owner
    land = topo.land_node_count

    def empty(n: int) -> bool:
        return owner[n] < 0 and n < land

    building, spot, far, hex_ = next(
        (b, m, f, h)
        for b in state.settlements[0] + state.cities[0]
        for m in topo.node_nodes[b]
        if empty(m)
        for f in topo.node_nodes[m]
        if empty(f) and f != b
        for h in set(topo.node_hexes[b]) & set(topo.node_hexes[m]) - set(topo.node_hexes[f])
    )
    for a, b in ((building, spot), (spot, far)):
        give(state, 0, lumber=1, brick=1)
        state.play(A.BuildRoad(next(p for p in topo.node_paths[a] if b in topo.path_nodes[p])))
    state.robber = hex_
    progress(state).arrived = True
    knights.place(state, progress(state), far, Knight(0, 1, True))
    bot = make_bot("heuristic", random.Random(0))
    assert bot.choose(state, 0) == MoveKnight(far, spot)
    state.play(MoveKnight(far, spot))
    state.play(A.END_TURN)
    to_main(state, 0)
    give(state, 0, grain=1)
    assert bot.choose(state, 0) == ActivateKnight(spot)  # fed beside the robber
    state.play(ActivateKnight(spot))
    next_turn(state, 0)
    assert bot.choose(state, 0) == ChaseRobber(spot)


def test_the_bot_retreats_its_displaced_knight_where_it_blocks_an_opponents_road() -> None:
    """Seed 002: a displaced knight's owner moves it along its roads; the heuristic bot takes
    the spot where the knight is worth most (an end of another seat's road, which it blocks),
    not the first one offered."""
    state = new_state()
    to_main(state, 0)
    topo, owner, path_owner = state.topology, state.node_owner, state.path_owner

    def onward(node: int) -> list[tuple[int, int]]:
        """(path, intersection) of each road not yet built from ``node`` to an empty one."""
        return [
            (q, m)
            for q in topo.node_paths[node]
            if path_owner[q] < 0
            for m in topo.path_nodes[q]
            if m != node and owner[m] < 0 and m < topo.land_node_count
        ]

    far = next(n for n in range(topo.land_node_count) if owner[n] < 0 and len(onward(n)) == 3)
    (road, spot), (first, low), (second, high) = onward(far)
    low, high = min(low, high), max(low, high)
    block = next(q for q, m in onward(high) if m != far)
    roads = ((0, road), (1, first), (1, second), (2, block))  # seat 2's road ends at ``high``
    for seat, path in roads:
        path_owner[path] = seat
        state.roads[seat].append(path)
    state._road_cache = [None] * 4
    knights.place(state, progress(state), far, Knight(1, 1, True))
    knights.place(state, progress(state), spot, Knight(0, 2, True))
    state.play(MoveKnight(spot, far))
    assert state.legal_actions() == [RetreatKnight(1, low), RetreatKnight(1, high)]
    assert knight_post(state, 1, high) > knight_post(state, 1, low)
    assert make_bot("heuristic", random.Random(0)).choose(state, 1) == RetreatKnight(1, high)


def test_a_retreat_beside_the_seats_own_hexes_is_worth_more_than_its_work_alone() -> None:
    """Where the robber may come, a knight can chase it: beside a hex the seat's buildings take
    from, a retreat spot is worth the hex's dots times the cards taken there, more."""
    state = new_state()
    topo, tokens = state.topology, state.board.tokens
    city = own_city(state, 1)
    beside = next(m for m in topo.node_nodes[city] if state.node_owner[m] < 0)
    shared = set(topo.node_hexes[beside]) & set(topo.node_hexes[city])
    guard = retreat_post(state, 1, beside) - knight_post(state, 1, beside)
    assert guard >= GUARD_VALUE * 2 * sum(PIPS[tokens[h]] for h in shared) > 0  # a city: 2 cards
    lonely = next(
        n
        for n in range(topo.land_node_count)
        if not any(state.hex_seats[h] >> 1 & 1 for h in topo.node_hexes[n])
    )
    assert retreat_post(state, 1, lonely) == knight_post(state, 1, lonely)


# ------------------------------------------------------------------ the barbarians


def arm(state: GameState, seat: int, *levels: int) -> None:
    """Stand active knights of ``levels`` for ``seat`` on empty intersections its roads reach."""
    for level in levels:
        spot = next(
            n
            for n in range(state.topology.land_node_count)
            if state.node_owner[n] < 0 and not state.blocked[n]
        )
        knights.place(state, progress(state), spot, Knight(seat, level, True))


def test_catan_holds_and_its_one_strongest_defender_takes_a_point() -> None:
    state = new_state()
    arm(state, 2, 3)
    arm(state, 1, 1)  # 4 active strength against 4 cities
    progress(state).barbarians = 6
    to_main(state, 0)
    state.play(A.END_TURN)
    vp = state.public_vp[2]
    roll(state, 1, 2, SHIP_FACE)
    p = progress(state)
    assert p.arrived and p.barbarians == 0 and p.defenders == [0, 0, 1, 0]
    assert state.public_vp[2] == vp + 1
    assert not any(k.active for k in p.knights.values())
    assert state.phase is Phase.MAIN


def test_tied_strongest_defenders_are_owed_a_progress_card_each() -> None:
    state = new_state()
    arm(state, 0, 2)
    arm(state, 3, 2)
    progress(state).barbarians = 6
    to_main(state, 1)
    state.play(A.END_TURN)
    roll(state, 1, 2, SHIP_FACE)
    assert progress(state).defenders == [0, 0, 0, 0]
    assert state.phase is KnightsPhase.PROGRESS_CHOICE and state.current_player() == 3
    assert progress(state).choosing == [3, 0]  # turn order from the roller, seat 2
    state.play(ChooseProgress(3, SCIENCE))
    state.play(ChooseProgress(0, TRADE))
    assert state.phase is KnightsPhase.PROGRESS and progress(state).draws == [(3, 2), (0, 0)]


def test_the_weakest_lose_a_city_of_their_choice_metropolis_cities_are_safe() -> None:
    state = new_state()
    arm(state, 1, 1)
    progress(state).metropolis[TRADE] = own_city(state, 3)  # seat 3's only city is safe
    progress(state).metropolis_seat[TRADE] = 3
    progress(state).barbarians = 6
    give(state, 0, brick=2)
    to_main(state, 0)
    state.play(BuildWall(own_city(state, 0)))
    state.play(A.END_TURN)
    vp = list(state.public_vp)
    roll(state, 1, 2, SHIP_FACE)  # 1 against 4 cities
    assert state.phase is KnightsPhase.PILLAGE
    assert progress(state).pillage == [2, 0]  # the weakest with a city to lose, turn order
    assert state.current_player() == 2
    rejected(state, PillageCity(0, own_city(state, 0)), "may not act")
    for seat in (2, 0):
        city = own_city(state, seat)
        assert state.legal_actions() == [PillageCity(seat, city)]
        state.play(PillageCity(seat, city))
        assert state.node_level[city] == 1 and city in state.settlements[seat]
    assert progress(state).walls[0] == []  # the wall went with the city
    assert [vp[s] - state.public_vp[s] for s in range(4)] == [1, 0, 1, 0]
    assert state.phase is Phase.MAIN and progress(state).arrived
    to_main(state, 2)
    give(state, 2, cloth=1)
    rejected(state, ImproveCity(TRADE), "needs a city")


@pytest.mark.parametrize("seed_reading", [False, True])
def test_a_seat_without_a_city_improves_only_under_the_seeds_reading(seed_reading: bool) -> None:
    """Official: a city improvement needs a city; seed 002 «не требуют наличия города у
    игрока»: the option ``ck_improve_without_city``. A level winning a metropolis still needs
    a city to put it on."""
    state = new_state(options=GameOptions.of(ck_improve_without_city=seed_reading))
    to_main(state, 0)
    progress(state).pillage = [0]  # the barbarians took seat 0's only city
    barbarians.pillage(state, progress(state), 0, own_city(state, 0))
    assert not state.cities[0]
    give(state, 0, cloth=1)
    if not seed_reading:
        rejected(state, ImproveCity(TRADE), "needs a city")
        assert "ck_improve_without_city" not in GameOptions().to_dict()
        return
    assert GameOptions.of(ck_improve_without_city=True).to_dict()["ck_improve_without_city"]
    state.play(ImproveCity(TRADE))
    assert progress(state).levels[0][TRADE] == 1
    progress(state).levels[0][TRADE] = 3
    give(state, 0, cloth=4)
    rejected(state, ImproveCity(TRADE), "needs a city without a metropolis")


@pytest.mark.parametrize("seed_reading", [False, True])
def test_knights_stay_active_after_a_won_attack_only_under_the_seeds_reading(
    seed_reading: bool,
) -> None:
    """Official: every knight goes inactive after an attack, won or lost; seed 002 says so of
    a lost one only: the option ``ck_knights_active_after_win``. A lost attack rests them
    either way."""
    state = new_state(options=GameOptions.of(ck_knights_active_after_win=seed_reading))
    arm(state, 2, 3)
    arm(state, 1, 1)  # 4 active strength against 4 cities: Catan holds
    progress(state).barbarians = 6
    to_main(state, 0)
    state.play(A.END_TURN)
    roll(state, 1, 2, SHIP_FACE)
    p = progress(state)
    assert p.defenders == [0, 0, 1, 0] and p.barbarians == 0
    assert [k.active for k in p.knights.values()] == [seed_reading] * 2
    for node, knight in list(p.knights.items()):  # one level short: the barbarians win
        p.knights[node] = replace(knight, active=knight.seat == 1)
    p.barbarians = 6
    to_main(state, 1)
    state.play(A.END_TURN)
    roll(state, 1, 2, SHIP_FACE)
    assert state.phase is KnightsPhase.PILLAGE
    assert not any(k.active for k in p.knights.values())


def test_after_the_first_attack_a_seven_moves_the_robber_and_knights_chase_it() -> None:
    state = new_state()
    robber_node = state.topology.hex_nodes[state.robber][0]
    knights.place(state, progress(state), robber_node, Knight(1, 1, True))
    to_main(state, 0)
    state.play(A.END_TURN)
    rejected(state, ChaseRobber(robber_node), "not legal for seat 1 in phase roll")
    roll(state, 1, 2)
    rejected(state, ChaseRobber(robber_node), "the robber stays put until the barbarians")
    progress(state).arrived = True
    progress(state).knights[robber_node] = Knight(1, 1, True)
    state.play(ChaseRobber(robber_node))
    assert state.phase is Phase.MOVE_ROBBER
    assert progress(state).knights[robber_node] == Knight(1, 1, False)
    state.play(state.legal_actions()[0])
    while state.current_player() == CHANCE:
        state.play(state.chance_outcomes()[0][0])
    assert state.phase is Phase.MAIN
    state.play(A.END_TURN)
    roll(state, 3, 4)
    while state.phase is Phase.DISCARD:
        seat = state.acting_seats()[0]
        state.play(state.legal_actions(seat)[0])
    assert state.phase is Phase.MOVE_ROBBER


# ------------------------------------------------------------------ progress cards


def with_views(
    players: int = 4, options: GameOptions | None = None
) -> tuple[GameState, list[InformationState]]:
    """A game and every seat's view, after set-up (start player 0, first legal spots)."""
    options = options or GameOptions()
    state = GameState(BOARD, players, rules=RULES, options=options)
    views = [
        InformationState(BOARD, players, s, rules=RULES, options=options) for s in range(players)
    ]
    advance_views(state, views, A.StartPlayer(0), check=True)
    while state.phase is not Phase.ROLL:
        advance_views(state, views, state.legal_actions()[0], check=True)
    return state, views


def legal(state: GameState) -> A.Action:
    """The first legal action of the seat whose decision is due."""
    return state.legal_actions()[0]


def step(state: GameState, views: list[InformationState], action: A.Action) -> None:
    advance_views(state, views, action, check=True)
    public = state.public_hash()
    assert all(v.public_hash() == public for v in views)


def test_a_gate_gives_a_hidden_progress_card_to_seats_whose_level_reaches_the_red_die() -> None:
    state, views = with_views()
    for game in (state, *views):
        progress(game).levels[1][TRADE] = 1  # red 1-2
        progress(game).levels[2][TRADE] = 3  # red 1-4
    step(state, views, A.ROLL)
    step(state, views, A.Dice(3, 4))
    step(state, views, EventDie(TRADE_GATE))  # red 3: seat 2 only
    assert state.phase is KnightsPhase.PROGRESS and progress(state).draws == [(2, TRADE)]
    node = state.chance_node()
    assert node is not None and (node.kind, node.deck, node.seats) == ("deck_draw", "trade", (2,))
    assert views[0].chance_outcomes() == [(ProgressDrawn(None), 1.0)]
    assert len(views[2].chance_outcomes()) == len(RULES.decks["trade"])
    drawn = ProgressDrawn(2)  # a merchant
    assert state.observation(drawn, 0) == ProgressDrawn(None)
    step(state, views, drawn)
    assert progress(views[2]).cards[2] == [(TRADE, 2)]
    assert progress(views[0]).unknown[2] == [1, 0, 0]  # its deck is public, its face not
    assert state.public_dict()["cities_knights"]["progress_cards"][2] == [1, 0, 0]
    assert state.phase is Phase.DISCARD or state.phase is Phase.MAIN  # the 7 goes on


def test_a_fifth_progress_card_is_discarded_face_up_at_once() -> None:
    state, views = with_views()
    for game in (state, *views):
        progress(game).levels[1][SCIENCE] = 5  # every red die
    for turn in range(5):
        while not (state.phase is Phase.ROLL and state.active == 0):
            if state.phase is Phase.ROLL:
                step(state, views, A.ROLL)
                step(state, views, A.Dice(1, 2))
                step(state, views, EventDie(TRADE_GATE))
            else:  # the end of a turn, or whatever its roll asks of the first seat due
                step(state, views, A.END_TURN if state.phase is Phase.MAIN else legal(state))
        step(state, views, A.ROLL)
        step(state, views, A.Dice(1, 2))
        step(state, views, EventDie(6))  # the science gate
        step(state, views, ProgressDrawn(turn))
        step(state, views, PointShown(1, SCIENCE, -1, turn + 1))  # no printer: the limit next
    p = progress(state)
    assert p.held(1) == 5 and state.phase is KnightsPhase.PROGRESS_DISCARD
    assert state.current_player() == 1
    assert state.legal_actions(1) == [DiscardProgress(1, SCIENCE, f) for f in range(5)]
    before = progress(views[0]).pool[SCIENCE][2]
    rejected(views[0], DiscardProgress(1, SCIENCE, 99), "not legal")
    step(state, views, DiscardProgress(1, SCIENCE, 2))
    assert p.held(1) == 4 and (SCIENCE, 2) not in p.cards[1]
    assert progress(views[0]).pool[SCIENCE][2] == before - 1  # now seen by all
    assert progress(views[0]).unknown[1] == [0, 0, 4]
    assert state.phase in (Phase.MAIN, KnightsPhase.AQUEDUCT)  # the roll goes on


def test_the_progress_is_copied_and_hashed() -> None:
    state = new_state()
    twin = state.copy()
    assert twin.variant_state is not state.variant_state
    progress(twin).barbarians = 3
    assert progress(state).barbarians == 0
    assert twin.public_hash() != state.public_hash()
    assert state.public_dict()["cities_knights"]["barbarians"] == 0


def test_the_new_actions_cross_the_wire_and_the_event_die_only_from_the_beacon() -> None:
    for action in (
        BuildKnight(3),
        MoveKnight(3, 9),
        RetreatKnight(2, 5),
        ImproveCity(1, -1),
        PillageCity(0, 7),
        AqueductPick(1, Resource.ORE),
    ):
        assert decode_action(encode_action(action)) == action
    with pytest.raises(MalformedMessage, match="chance outcome"):
        decode_action(encode_action(EventDie(2)))


def test_simulate_plays_the_game() -> None:
    result = CliRunner().invoke(main, ["simulate", "--game", GAME, "--games", "1", "--json"])
    assert result.exit_code == 0 and '"game": "cities-and-knights"' in result.output


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_keep_every_view_in_step(players: int) -> None:
    """Random play with every seat's information state checked at every step."""
    _, seen = play_random_game(GAME, 3, players, GameOptions(victory_points=8))
    assert seen["EventDie"] > 20 and seen["BuildKnight"] and seen["ImproveCity"]


def test_a_heuristic_bots_game_is_applied_by_every_information_state() -> None:
    state, seen = play_bot_game(GAME, 2, 4)
    assert state.winner >= 0 and state.public_vp[state.winner] >= 13
    assert seen["ImproveCity"] and seen["ActivateKnight"] and seen["BuildKnight"]
    assert isinstance(state.variant, CitiesKnights)


def test_determinised_states_play_on_to_the_end() -> None:
    """A view well into a bot game (progress cards held unseen) is determinised, and each full
    state drawn plays on to a winner: its unseen cards keep to the decks they came from."""
    rules, seed = RULES, 4
    chance = SeededChance(seed)
    board = board_of(rules, chance.rng)
    state = GameState(board, 4, rules=rules)
    views = [InformationState(board, 4, s, rules=rules) for s in range(4)]
    bots = [make_bot("heuristic", random.Random(seed * 31 + i)) for i in range(4)]
    while state.turn < 60 or not any(progress(views[0]).unknown[s] != [0, 0, 0] for s in (1, 2, 3)):
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        advance_views(state, views, action)
    rng = random.Random(1)
    for _ in range(2):
        game = Determinizer(views[0]).sample(rng)
        assert game.public_hash() == state.public_hash()
        while not game.is_over:
            seat = game.current_player()
            if seat == CHANCE:
                game.apply(draw_outcome(rng, game.chance_outcomes()))
            else:
                game.play(bots[seat].choose(game, seat))
        assert game.public_vp[game.winner] >= 13


def test_a_bots_game_is_told_in_words() -> None:
    """Heuristic bots play a game told by seat 0's narrator: the event die, the barbarians,
    knights, improvements and progress cards (another seat's unnamed) read as such."""
    chance = SeededChance(4)
    told = play_told_bot_game(RULES, board_of(RULES, chance.rng), chance).told
    assert any(t.startswith("The event die shows the ship: the barbarians sail") for t in told)
    assert any(t.startswith("The barbarians land: ") for t in told)
    assert any("the roll gives:" in t for t in told)  # production after the event die
    assert any(" built a knight at " in t for t in told)
    assert any(" built science level 1" in t for t in told)
    assert any(" metropolis" in t for t in told)
    assert any(t.startswith("You drew a ") and ": " in t for t in told)  # its own card named
    others = re.compile(r"[bcd] drew a \w+ progress card($|;)")  # another's card not named
    assert any(others.match(t) for t in told)
    assert any(re.match(r"[bcd] played the progress card \w+", t) for t in told)


@pytest.mark.parametrize("players", [3, 4])
def test_simulated_games_end_with_a_winner_at_thirteen(players: int) -> None:
    report = simulate(3, players, ["heuristic"] * players, seed=0, game=GAME)
    assert all(g.winner is not None for g in report.games)
    assert all(g.victory_points[g.winner] >= 13 for g in report.games if g.winner is not None)
    mixed = simulate(2, 4, ["heuristic", "random", "random", "random"], seed=0, game=GAME)
    assert [g.winner for g in mixed.games] == [0, 0]


@pytest.mark.slow
def test_three_in_process_sessions_finish_audit_and_verify(tmp_path: Path) -> None:
    """Three seats' sessions in memory play between heuristic bots (real processes over TCP are
    tests/test_cities_knights_tcp.py's): the event die is a beacon event after the
    dice; progress cards come from the three mental-poker decks, each seen by its drawer only,
    and are shown before they are played; the audit passes and `hexlan verify` accepts every
    log."""
    table = InProcessTable(["a", "b", "c"], seed=3, game=GAME)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(3)])
    views = [s.view for s in table.sessions]
    assert all(v is not None and v.is_over for v in views)
    state = views[0]
    assert state is not None and state.public_vp[state.winner] >= 13
    assert all(s.stopped is None and s.audited is not None for s in table.sessions)
    journal = table.sessions[0].journal
    dice = sum(isinstance(e.action, A.Dice) for e in journal)
    events = sum(isinstance(e.action, EventDie) for e in journal)
    names = [tuple(RULES.raw["decks"][t]) for t in ("trade", "politics", "science")]
    alchemists = sum(  # an Alchemist's chosen dice are no beacon roll; its event die is
        isinstance(e.action, PlayProgress) and names[e.action.track][e.action.face] == "alchemist"
        for e in journal
    )
    assert dice + alchemists == events > 20
    own = [
        e.action
        for e in journal
        if isinstance(e.action, ProgressDrawn) and e.deck and e.action.face is not None
    ]
    hidden = [e for e in journal if e.action == ProgressDrawn(None)]
    assert own and hidden  # its own cards it saw, the others' it did not
    assert any(isinstance(e.action, PlayProgress) for e in journal)  # shown, then played
    report = assert_logs_verify(table, tmp_path, GAME)  # the seats' logs, verified once
    distributions = {d.name: d for d in stats_report(report)}
    assert distributions["event die"].total == events  # `hexlan verify --stats` counts it
    assert "development-card draws" not in distributions
