"""Seafarers: ships, the pirate, gold fields, Longest Trade Route, island bonuses, on the map of
Heading for New Shores.

Rule sources: seed 002 «Мореходы»; the official Seafarers rules where the seed is silent;
docs/rules/seafarers.md records every reading.

New Shores beginner board (seeds/boards/seafarers-new-shores.toml): land hex 7 is the home
island's north-east hex (2, -2), corners 21 (top), 28 (north-east), 34 (south-east); sea hex 43
is (3, -2) east of it, its sides 36 (28-34, the coast of hex 7), 134 (28-22, sea on both sides)
and 29 (22-29, the coast of hex 3). Land hex 3 (4, -3) is on the north-east island; its corners
22 and 29 are one ship from the home island. Hex 1 (2, -4) is a gold field with token 9, corners
1, 5, 10, 15, 9, 4. The pirate starts on sea hex 47 (5, -1).
"""

from __future__ import annotations

import random

import pytest
from variant_play import board_of, play_random_game, play_told_bot_game

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.board import random_board
from hexlan.engine.core import (
    DevCard,
    IllegalActionError,
    Phase,
    Terrain,
)
from hexlan.engine.info import InformationState
from hexlan.engine.longest_road import longest_trade_route
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import GAMES, load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    ExploreFog,
    MovePirate,
    MoveShip,
    SeaPhase,
    gold_choices,
)
from hexlan.engine.variants.seafarers import sea as sea_of
from hexlan.net.wire import MalformedMessage, decode_action, encode_action
from hexlan.simulate import simulate

SEA = load_ruleset("seafarers-new-shores")
BOARD = board_of(SEA)
TOPO = BOARD.topology
SHIP = (1, 0, 1, 0, 0)
COAST, ACROSS, ISLAND_COAST = 36, 134, 29
SEA_HEX, PIRATE_START = 43, 47


@pytest.fixture
def sea(table):
    """A New Shores table on the beginner board: ``sea(players=3)``."""

    def make(players: int = 4):
        return table(players=players, board=BOARD, rules=SEA)

    return make


def ships(t, seat: int, *paths: int) -> None:
    """Place ships for ``seat`` through the engine (paid first, like ``Table.build``)."""
    s = t.state
    phase, active = s.phase, s.active
    s.active, s.phase = seat, Phase.MAIN
    for p in paths:
        t.give(seat, SHIP)
        s.apply(BuildShip(p))
    s.phase, s.active = phase, active


def new_turn(t) -> None:
    """Start the active seat's next turn directly (ships built so far are no longer new)."""
    s = t.state
    s.variant.turn_started(s)
    s.phase = Phase.MAIN


# ---------------------------------------------------------------------- the board


def test_new_shores_board_has_its_islands_sea_and_harbours() -> None:
    """The home island is the base game's 19 hexes; three small islands of 2, 5 and 2 hexes lie
    off it; 35 sea hexes frame them; the nine harbours are the base game's, on the home island."""
    assert "seafarers-new-shores" in GAMES
    assert TOPO.hex_count == 28 and len(TOPO.sea_axial) == 35
    sizes = sorted(TOPO.hex_island.count(i) for i in set(TOPO.hex_island))
    assert sizes == [2, 2, 5, 19]
    home = TOPO.hex_island[TOPO.hex_at((0, 0))]
    assert len(BOARD.harbours) == 9
    assert all(TOPO.node_island[n] == home for h in BOARD.harbours for n in TOPO.path_nodes[h.path])
    # sea-only corners and sides come after the land ones, which keep their numbering
    assert TOPO.land_node_count < TOPO.node_count and TOPO.land_path_count < TOPO.path_count
    assert all(TOPO.path_sea[p] for p in range(TOPO.land_path_count, TOPO.path_count))
    assert BOARD.terrains.count(Terrain.GOLD_FIELD) == 2


def test_random_new_shores_boards_keep_the_pools_apart() -> None:
    """The home island takes the base pool and spiral; the small islands their own pool (two
    gold fields among them) and tokens; the robber starts on the desert, never on gold."""
    land = load_map("seafarers-new-shores")
    home = TOPO.hex_island[TOPO.hex_at((0, 0))]
    for seed in range(5):
        board = random_board(random.Random(seed), "spiral", land)
        islands = [h for h in range(TOPO.hex_count) if TOPO.hex_island[h] != home]
        assert sorted(board.terrains[h] for h in islands).count(Terrain.GOLD_FIELD) == 2
        assert sorted(board.tokens[h] for h in islands) == [2, 3, 4, 5, 6, 8, 9, 10, 11]
        state = GameState(board, 4, rules=SEA)
        assert board.terrains[state.robber] is Terrain.DESERT
        assert sea_of(state).pirate == PIRATE_START


# ---------------------------------------------------------------------- ships


def test_a_ship_goes_on_a_sea_path_joined_to_an_own_coastal_building(sea) -> None:
    """Seed 002 «Мореходы»: ships are built on the border of a sea hex, from the player's
    settlement; not on a path with land on both sides."""
    t = sea()
    t.build(0, settlements=[28])
    t.give(0, SHIP)
    legal = t.state.legal_actions()
    assert BuildShip(COAST) in legal and BuildShip(ACROSS) in legal
    inland = TOPO.path_of[frozenset((33, 40))]  # between two land hexes
    assert BuildShip(inland) not in legal
    with pytest.raises(IllegalActionError, match=r"sea on at least one side.*Мореходы"):
        t.state.play(BuildShip(inland))
    t.state.play(BuildShip(ACROSS))
    assert sea_of(t.state).ships[0] == [ACROSS] and t.state.path_owner[ACROSS] == 0
    assert t.state.hands[0] == [0, 0, 0, 0, 0]


def test_a_road_and_a_ship_meet_only_at_an_own_settlement(sea) -> None:
    """Seed 002 «Мореходы»: «дорогу нельзя продолжить кораблём, и наоборот»."""
    t = sea()
    t.build(0, settlements=[21], roads=[28])  # road 21-28: its end at 28 holds no building
    t.give(0, SHIP)
    assert BuildShip(ACROSS) not in t.state.legal_actions()
    with pytest.raises(IllegalActionError, match="a road and a ship meet only at an own"):
        t.state.play(BuildShip(ACROSS))
    t2 = sea()
    t2.build(0, settlements=[28])
    ships(t2, 0, ACROSS)  # a ship from the settlement reaches node 22 on the island
    t2.give(0, (1, 1, 1, 0, 0))
    legal = t2.state.legal_actions()
    assert all(A.BuildRoad(p) not in legal for p in TOPO.node_paths[22])
    assert BuildShip(ISLAND_COAST) in legal  # a ship goes on from the ship


def test_a_coastal_path_holds_a_road_or_a_ship_not_both(sea) -> None:
    t = sea()
    t.build(0, settlements=[28], roads=[COAST])
    t.give(0, SHIP)
    assert BuildShip(COAST) not in t.state.legal_actions()


def test_moving_a_ship_only_the_open_end_not_new_and_once_a_turn(sea) -> None:
    """Seed 002 «Мореходы»: one ship a turn may be moved; official: only the end ship of an
    open route, not one built this turn."""
    t = sea()
    t.build(0, settlements=[28])
    ships(t, 0, ACROSS, ISLAND_COAST)
    s = t.state
    assert not any(isinstance(a, MoveShip) for a in s.legal_actions())  # both built now
    with pytest.raises(IllegalActionError, match="built this turn"):
        s.play(MoveShip(ISLAND_COAST, COAST))
    new_turn(t)
    with pytest.raises(IllegalActionError, match="end ship of an open route"):
        s.play(MoveShip(ACROSS, COAST))
    moves = [a for a in s.legal_actions() if isinstance(a, MoveShip)]
    assert moves and {a.source for a in moves} == {ISLAND_COAST}  # 134 is inside the route
    s.play(MoveShip(ISLAND_COAST, COAST))
    assert sorted(sea_of(s).ships[0]) == [COAST, ACROSS] and s.path_owner[ISLAND_COAST] < 0
    assert not any(isinstance(a, MoveShip) for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="one ship moves a turn"):
        s.play(MoveShip(COAST, ISLAND_COAST))


def test_a_closed_route_cannot_move(sea) -> None:
    """Official: a route linking two of the seat's buildings is closed; its ships stay."""
    t = sea()
    t.build(0, settlements=[28])
    ships(t, 0, ACROSS, ISLAND_COAST)
    t.build(0, settlements=[29])
    new_turn(t)
    assert not any(isinstance(a, MoveShip) for a in t.state.legal_actions())


# ---------------------------------------------------------------------- the pirate


def test_a_seven_moves_the_robber_or_the_pirate_and_the_pirate_robs_ship_owners(sea) -> None:
    """Seed 002 «Мореходы»: after a 7 or a knight, the robber or the pirate moves; the pirate
    goes to a sea hex and takes a card from a player with a ship there."""
    t = sea()
    t.build(1, settlements=[28])
    ships(t, 1, ACROSS)
    t.give(1, (0, 0, 0, 1, 0))
    s = t.state
    s.phase = Phase.MOVE_ROBBER
    legal = s.legal_actions()
    assert any(isinstance(a, A.MoveRobber) for a in legal)
    assert MovePirate(SEA_HEX, 1) in legal and MovePirate(SEA_HEX, -1) not in legal
    assert MovePirate(PIRATE_START, -1) not in legal  # it must move
    s.play(MovePirate(SEA_HEX, 1))
    assert sea_of(s).pirate == SEA_HEX and s.phase is Phase.STEAL and s.victim == 1
    s.play(s.chance_outcomes()[0][0])
    assert s.hands[0][3] == 1 and s.hand_size[1] == 0 and s.phase is Phase.MAIN


def test_the_pirate_blocks_building_and_moving_ships_on_its_hex(sea) -> None:
    """Seed 002 «Мореходы»: while the pirate is on a sea hex, no ship is built there nor moved
    from it (official: nor to it)."""
    t = sea()
    t.build(0, settlements=[28])
    ships(t, 0, 28)  # path 28 (21-28), a side of sea hex (2, -3), not of the pirate's
    new_turn(t)
    sea_of(t.state).pirate = SEA_HEX
    t.give(0, SHIP)
    legal = t.state.legal_actions()
    with pytest.raises(IllegalActionError, match="pirate blocks"):
        t.state.play(BuildShip(ACROSS))
    for p in TOPO.sea_hex_paths[SEA_HEX - TOPO.hex_count]:
        assert BuildShip(p) not in legal
        assert all(not (isinstance(a, MoveShip) and a.target == p) for a in legal)
    sea_of(t.state).pirate = PIRATE_START
    ships(t, 0, ACROSS)
    new_turn(t)
    sea_of(t.state).pirate = SEA_HEX
    assert all(
        not (isinstance(a, MoveShip) and a.source == ACROSS) for a in t.state.legal_actions()
    )
    with pytest.raises(IllegalActionError, match="pirate blocks the ships"):
        t.state.play(MoveShip(ACROSS, 28))


# ---------------------------------------------------------------------- gold


def test_gold_fields_give_a_resource_of_choice_one_per_settlement_two_per_city(sea) -> None:
    """Seed 002 «Мореходы» («Золотая река»): the player chooses one of the five resources; a
    city takes two. Seats owed gold choose in seat order before play goes on."""
    t = sea()
    t.build(1, settlements=[1])
    t.build(2, settlements=[15], cities=[15])
    s = t.state
    s.phase = Phase.DICE
    s.play(A.Dice(4, 5))
    assert s.phase is SeaPhase.GOLD and sea_of(s).gold_owed == [0, 1, 2, 0]
    assert s.current_player() == 1 and s.legal_actions(2) == []
    assert len(s.legal_actions()) == 5
    s.play(ChooseGold(1, (0, 0, 0, 0, 1)))
    assert s.current_player() == 2
    with pytest.raises(IllegalActionError):
        s.play(ChooseGold(2, (0, 0, 0, 0, 1)))  # a city takes two
    s.play(ChooseGold(2, (1, 1, 0, 0, 0)))
    assert s.phase is Phase.MAIN and s.hands[1][4] == 1 and s.hands[2][:2] == [1, 1]


def test_gold_under_the_robber_gives_nothing_and_the_bank_bounds_the_choice(sea) -> None:
    t = sea()
    t.build(1, settlements=[1])
    s = t.state
    s.robber = 1
    s.phase = Phase.DICE
    s.play(A.Dice(4, 5))
    assert s.phase is Phase.MAIN and s.hand_size[1] == 0
    assert gold_choices(2, (1, 0, 0, 0, 0)) == ((1, 0, 0, 0, 0),)


# ---------------------------------------------------------------------- awards and points


def test_longest_trade_route_joins_roads_and_ships_only_at_own_buildings(sea) -> None:
    """Seed 002 «Мореходы»: road and ship segments count together when linked through a
    settlement or city."""
    owner = [-1] * TOPO.node_count
    route = [ACROSS, ISLAND_COAST]  # ships 28-22-29, roads 28-34-40
    roads = [TOPO.path_of[frozenset((28, 34))], TOPO.path_of[frozenset((34, 40))]]
    assert longest_trade_route(TOPO, roads, route, 0, owner) == 2  # no building at 28
    owner[28] = 0
    assert longest_trade_route(TOPO, roads, route, 0, owner) == 4
    owner[28] = 1
    assert longest_trade_route(TOPO, roads, route, 0, owner) == 2
    t = sea()
    t.build(0, settlements=[21, 29], roads=[TOPO.path_of[frozenset((21, 28))]])
    ships(t, 0, ACROSS, ISLAND_COAST)
    assert t.state.road_length[0] == 2  # the road ends at 28 without a building


def test_longest_trade_route_takes_the_award(sea) -> None:
    """Five ships in a row (round sea hex 43 from corner 28 to corner 34) take the award, which
    stands for Longest Road in Seafarers (official)."""
    t = sea()
    t.build(0, settlements=[28])
    ships(t, 0, ACROSS, ISLAND_COAST, 37, 137)
    s = t.state
    assert s.road_length[0] == 4 and s.longest_road_holder == -1
    t.give(0, SHIP)
    s.play(BuildShip(46))
    assert s.road_length[0] == 5 and s.longest_road_holder == 0 and s.public_vp[0] == 3


def test_the_first_settlement_on_each_new_island_brings_two_points(sea) -> None:
    """New Shores: 2 points for a player's first settlement on each small island (per player);
    none on the home island."""
    t = sea()
    s = t.state
    t.build(0, settlements=[28])
    assert s.public_vp[0] == 1 and s.variant_vp[0] == 0
    t.build(0, settlements=[22])
    assert s.public_vp[0] == 4 and s.variant_vp[0] == 2
    t.build(0, settlements=[12])  # the same island again: a settlement's point only
    assert s.public_vp[0] == 5
    t.build(1, settlements=[36])  # another player's first on that island
    assert s.public_vp[1] == 3
    t.build(0, settlements=[1])  # a second island
    assert s.variant_vp[0] == 4 and sea_of(s).islands_settled[0] == [1, 0]


def test_the_distance_rule_holds_across_the_water(sea) -> None:
    t = sea()
    t.build(0, settlements=[28])
    assert t.state.blocked[22]  # one sea path away, on the island


# ---------------------------------------------------------------------- Road Building, set-up


def test_road_building_gives_two_roads_two_ships_or_one_of_each(sea) -> None:
    """Official Seafarers: Road Building places two pieces, roads or ships in any mix."""
    for first, second in ((BuildShip, BuildShip), (A.BuildRoad, BuildShip)):
        t = sea()
        t.build(0, settlements=[28])
        t.give_dev(0, DevCard.ROAD_BUILDING)
        s = t.state
        s.play(A.PLAY_ROAD_BUILDING)
        one = next(a for a in s.legal_actions() if isinstance(a, first))
        s.play(one)
        assert s.phase is Phase.ROAD_BUILDING
        two = next(a for a in s.legal_actions() if isinstance(a, second))
        s.play(two)
        assert s.phase is Phase.MAIN and s.hands[0] == [0, 0, 0, 0, 0]
        assert len(s.roads[0]) + len(sea_of(s).ships[0]) == 2


def test_setup_settlements_on_the_home_island_and_a_ship_may_be_the_setup_road() -> None:
    """New Shores: both set-up settlements on the home island; official Seafarers: the piece
    beside a set-up settlement may be a ship."""
    s = GameState(BOARD, 4, rules=SEA)
    s.play(A.StartPlayer(0))
    home = TOPO.hex_island[TOPO.hex_at((0, 0))]
    legal = s.legal_actions()
    assert legal and all(TOPO.node_island[a.node] == home for a in legal)
    assert A.BuildSettlement(22) not in legal
    s.play(A.BuildSettlement(28))
    legal = s.legal_actions()
    assert BuildShip(ACROSS) in legal and A.BuildRoad(COAST) in legal
    s.play(BuildShip(ACROSS))
    assert s.phase is Phase.SETUP_SETTLEMENT and s.active == 1 and sea_of(s).ships[0] == [ACROSS]


# ---------------------------------------------------------------------- whole games and the wire


def test_the_new_actions_cross_the_wire() -> None:
    """The four actions come after every earlier one (the base game's bytes stay) and
    round-trip through the wire's action payload."""
    assert [c.__name__ for c in R.ACTION_TYPES[25:30]] == [
        "BuildShip",
        "MoveShip",
        "MovePirate",
        "ChooseGold",
        "ExploreFog",  # the fog's chance outcome (tests/test_rules_fog.py)
    ]
    for action in (
        BuildShip(134),
        MoveShip(29, 36),
        MovePirate(43, 1),
        ChooseGold(2, (1, 0, 0, 0, 1)),
    ):
        assert decode_action(encode_action(action)) == action
    with pytest.raises(MalformedMessage, match="chance outcome"):  # dealt, never sent
        decode_action(encode_action(ExploreFog(6)))


@pytest.mark.parametrize("game", ["seafarers-new-shores", "seafarers-four-islands"])
def test_random_games_keep_every_view_in_step(game: str) -> None:
    """Random play with every seat's information state checked at each step: ships built and
    moved, the pirate moved and robbing."""
    _, seen = play_random_game(game, 0, 4)
    assert seen["BuildShip"] and seen["MoveShip"] and seen["MovePirate"]


def test_a_bot_game_keeps_every_view_and_the_narrator_in_step() -> None:
    """Heuristic bots from their own views, every action checked by the state and every view
    (gold choices included), told in words by seat 0's narrator."""
    seen: set[str] = set()

    def each(state: GameState, views: list[InformationState], action: A.Action) -> None:
        seen.add(type(action).__name__)
        if isinstance(action, ChooseGold | BuildShip) and state.phase is not Phase.VICTORY:
            # (a victory the hidden cards bring is seen by the winner's view alone)
            assert {v.public_hash() for v in views} == {state.public_hash()}

    chance = SeededChance(3)  # a board and game where gold fields pay out
    told = play_told_bot_game(SEA, board_of(SEA, chance.rng), chance, check=True, each=each).told
    assert {"BuildShip", "ChooseGold"} <= seen
    assert any("built a ship" in t for t in told)
    assert any("from the gold fields" in t for t in told)


def test_simulated_new_shores_games_end_with_a_winner_at_fourteen() -> None:
    report = simulate(4, 4, ["heuristic"] * 4, seed=0, game="seafarers-new-shores")
    for game in report.games:
        assert game.winner is not None
        assert game.victory_points[game.winner] >= 14


# ---------------------------------------------------------------------- The Four Islands

FOUR = load_ruleset("seafarers-four-islands")


def test_four_islands_board_has_four_islands_no_desert_and_its_harbours() -> None:
    """Four islands of 4, 4, 7 and 8 hexes (23: 4 hills, 4 mountains, 5 each of the rest), nine
    harbours on them, no desert: the robber starts where the rule set says, the pirate at sea."""
    board_map = load_map("seafarers-four-islands")
    topo = board_map.topology
    assert topo.hex_count == 23 and len(topo.sea_axial) == 35
    assert sorted(topo.hex_island.count(i) for i in set(topo.hex_island)) == [4, 4, 7, 8]
    assert len(board_map.harbour_paths) == 9
    board = random_board(random.Random(0), "spiral", board_map)
    assert Terrain.DESERT not in board.terrains and 0 not in board.tokens
    assert sorted(board.terrains).count(Terrain.PASTURE) == 5
    state = GameState(board, 4, rules=FOUR)
    assert state.robber == topo.hex_at((3, -3))
    assert sea_of(state).pirate == topo.hex_count + topo.sea_axial.index((4, -1))
    assert state.target == 12


def test_four_islands_set_up_anywhere_and_no_bonus_for_the_set_up_islands() -> None:
    """The Four Islands: set-up settlements on any island; a player's first settlement on each
    island other than those of its set-up settlements brings 2 points."""
    board = random_board(random.Random(1), "spiral", load_map("seafarers-four-islands"))
    topo = board.topology
    state = GameState(board, 3, rules=FOUR)
    state.play(A.StartPlayer(0))
    legal = state.legal_actions()
    assert {topo.node_island[a.node] for a in legal} == set(topo.hex_island)
    node = legal[0].node
    state.play(A.BuildSettlement(node))
    assert state.public_vp[0] == 1 and sea_of(state).islands_settled[0] == [topo.node_island[node]]


def test_simulated_four_islands_games_end_with_a_winner_at_twelve() -> None:
    report = simulate(3, 4, ["heuristic"] * 4, seed=0, game="seafarers-four-islands")
    for game in report.games:
        assert game.winner is not None
        assert game.victory_points[game.winner] >= 12


def test_a_settlement_cuts_another_seats_trade_route_at_sea(sea) -> None:
    """Official: another player's settlement breaks a route through its corner, ships too."""
    t = sea()
    t.build(0, settlements=[28])
    ships(t, 0, ACROSS, ISLAND_COAST, 37, 137, 46)  # round sea hex 43, corner 28 to 34
    s = t.state
    assert s.road_length[0] == 5 and s.longest_road_holder == 0
    t.build(1, settlements=[29])  # on the island, where ships 29 and 37 meet
    assert s.road_length[0] == 3 and s.longest_road_holder == -1 and s.public_vp[0] == 1


# ---------------------------------------------------------------------- the 3-player maps


@pytest.mark.parametrize(
    ("game", "hexes", "islands", "harbours", "target"),
    [
        ("seafarers-new-shores-3", 22, [2, 2, 4, 14], 8, 14),
        ("seafarers-four-islands-3", 20, [4, 4, 6, 6], 9, 12),
    ],
)
def test_the_three_player_maps_and_games(
    game: str, hexes: int, islands: list[int], harbours: int, target: int
) -> None:
    """The published 3-player maps (no desert: the robber starts where the rule set says);
    simulated 3-player games end with a winner at the scenario's points."""
    rules = load_ruleset(game)
    board_map = load_map(rules.board)
    topo = board_map.topology
    assert topo.hex_count == hexes and len(board_map.harbour_paths) == harbours
    assert sorted(topo.hex_island.count(i) for i in set(topo.hex_island)) == islands
    board = random_board(random.Random(2), "spiral", board_map)
    assert Terrain.DESERT not in board.terrains
    state = GameState(board, 3, rules=rules)
    assert state.robber >= 0 and sea_of(state).pirate >= topo.hex_count
    report = simulate(2, 3, ["heuristic"] * 3, seed=0, game=game)
    assert all(g.winner is not None and g.victory_points[g.winner] >= target for g in report.games)
