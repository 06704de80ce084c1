"""Seafarers fog and exploration (issue 9), on the map of The Fog Island.

Rule sources: the official Seafarers rules (a ship or road placed next to a face-down hex reveals
it; the discoverer takes one resource of that terrain, none for sea or desert, one of choice for
gold); docs/rules/seafarers.md (The Fog Island) records the readings: the tile stack and the
number tokens' stack, a reveal when the stack is empty, set-up kept off the fog.

Geometry (seeds/boards/seafarers-fog-island.toml): fog hex (0, 0) lies across sea hex (-1, 1)
from the south-west island's hex (-2, 1). The side shared by sea hexes (-1, 1) and (-1, 0) runs
from a corner of (-2, 1) (:data:`HOME`) to a corner of the fog hex alone (:data:`SHORE`).
"""

from __future__ import annotations

import random

import pytest
from variant_play import board_of, play_bot_game, play_random_game

from hexlan.engine import actions as A
from hexlan.engine.bots.seafaring import fog_value
from hexlan.engine.chance import DECK_DRAW
from hexlan.engine.core import (
    Phase,
    Resource,
    Terrain,
)
from hexlan.engine.ruleset import GAMES, load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    ExploreFog,
    SeaPhase,
    sea,
)
from hexlan.simulate import simulate

FOG = load_ruleset("seafarers-fog-island")
BOARD = board_of(FOG, random.Random(0))
TOPO = BOARD.topology
SHIP = (1, 0, 1, 0, 0)
FOG_HEX = TOPO.hex_at((0, 0))
_SEA = {a: i for i, a in enumerate(TOPO.sea_axial)}
STRAIT = (set(TOPO.sea_hex_paths[_SEA[-1, 1]]) & set(TOPO.sea_hex_paths[_SEA[-1, 0]])).pop()
"""The sea path from the south-west island to the fog hex's corner."""
HOME, SHORE = sorted(
    TOPO.path_nodes[STRAIT], key=lambda n: n not in TOPO.hex_nodes[TOPO.hex_at((-2, 1))]
)
TILES = {face: i for i, face in enumerate(("W", "H", "M", "P", "C", "F", "R"))}
"""The fog stack's faces, in the rule set's ``[decks.fog]`` order."""
TOKENS = (3, 4, 5, 6, 8, 9, 10, 11, 12)
"""The number tokens' faces, in ``[decks.fog_tokens]`` order."""


@pytest.fixture
def fog(table):
    """A Fog Island table, seat 0 with a settlement at :data:`HOME` and a ship's cost in hand."""
    t = table(players=4, board=BOARD, rules=FOG)
    t.build(0, settlements=[HOME])
    t.give(0, SHIP)
    return t


def test_the_fog_island_is_registered_with_its_map_and_stacks() -> None:
    assert "seafarers-fog-island" in GAMES
    assert (FOG.min_players, FOG.max_players, FOG.victory_points) == (3, 4, 12)
    terrains = BOARD.terrains
    assert sum(t is Terrain.FOG for t in terrains) == 12  # JSettlers2's FOG_ISL 4-player strip
    assert TOPO.hex_count == 29 and len(TOPO.sea_axial) == 38
    assert len(BOARD.harbours) == 9
    assert {name: sum(counts) for name, counts in FOG.decks.items()} == {
        "development": 25,
        "fog": 12,
        "fog_tokens": 10,
    }
    assert terrains[FOG_HEX] is Terrain.FOG and BOARD.tokens[FOG_HEX] == 0
    assert HOME in TOPO.hex_nodes[TOPO.hex_at((-2, 1))]
    assert TOPO.node_hexes[SHORE] == (FOG_HEX,)


def test_the_three_player_map_is_its_own_game() -> None:
    """JSettlers2's FOG_ISL 3-player arrays: two islands of 7, the same 12 fog tiles, the
    3-player tokens (3 twice, 11 once)."""
    rules = load_ruleset("seafarers-fog-island-3")
    assert "seafarers-fog-island-3" in GAMES and (rules.min_players, rules.max_players) == (3, 3)
    board = board_of(rules, random.Random(1))
    assert board.topology.hex_count == 26 and len(board.harbours) == 8
    assert sum(t is Terrain.FOG for t in board.terrains) == 12
    assert rules.decks["fog"] == FOG.decks["fog"]
    assert rules.decks["fog_tokens"] == (2, 1, 1, 1, 1, 1, 1, 1, 1)
    report = simulate(3, 3, ["heuristic"] * 3, seed=0, game="seafarers-fog-island-3")
    assert all(g.winner >= 0 for g in report.games)


def test_set_up_settlements_keep_off_the_fog() -> None:
    state = GameState(BOARD, 4, rules=FOG)
    state.play(A.StartPlayer(0))
    spots = {a.node for a in state.legal_actions() if isinstance(a, A.BuildSettlement)}
    fog_corners = {n for h in range(TOPO.hex_count) if BOARD.terrains[h] is Terrain.FOG
                   for n in TOPO.hex_nodes[h]}  # fmt: skip
    assert spots and not spots & fog_corners
    assert state.robber == -1  # no desert, no robber hex: off the board until a 7


def test_a_ship_reaching_fog_draws_a_tile_then_its_token_for_the_discoverer(fog) -> None:
    s = fog.state
    fog.play(BuildShip(STRAIT))
    assert s.phase is SeaPhase.FOG and sea(s).fog_pending == [FOG_HEX]
    node = s.chance_node()
    assert (node.kind, node.deck, node.seats, node.public) == (DECK_DRAW, "fog", (0,), True)
    assert s.legal_actions(0) == []  # chance: nobody chooses the tile
    outcomes = dict(s.chance_outcomes())
    assert outcomes[ExploreFog(TILES["R"])] == pytest.approx(2 / 12)
    fog.play(ExploreFog(TILES["H"]))  # hills: a land tile, so its number comes next
    assert s.phase is SeaPhase.FOG and s.chance_node().deck == "fog_tokens"
    assert s.board.terrains[FOG_HEX] is Terrain.FOG  # not laid until its token is drawn
    brick = s.hands[0][Resource.BRICK]
    fog.play(ExploreFog(TOKENS.index(6)))
    assert s.phase is Phase.MAIN and sea(s).fog_pending == []
    assert (s.board.terrains[FOG_HEX], s.board.tokens[FOG_HEX]) == (Terrain.HILLS, 6)
    assert s.hands[0][Resource.BRICK] == brick + 1  # the discoverer's reward
    assert sea(s).fog_tiles[TILES["H"]] == 1 and sea(s).fog_tokens[TOKENS.index(6)] == 0
    assert sea(s).fog_revealed == [(FOG_HEX, int(Terrain.HILLS), 6)]
    with pytest.raises(ValueError):
        s.play(ExploreFog(0))  # nothing is face down and waiting


def test_a_stall_in_fog_names_the_step_from_the_engines_chance_node(fog) -> None:
    """The peer's stall line names what a seat owes from the chance node the engine describes,
    so Seafarers' own chance phase needs no entry in net/ (a fog tile is opened by every seat)."""
    from hexlan.net.peer import _awaited_step

    s = fog.state
    assert _awaited_step(s) == "answer"  # the main phase: a seat's decision
    fog.play(BuildShip(STRAIT))
    assert s.phase is SeaPhase.FOG
    assert _awaited_step(s) == "decryption share of a fog card"
    fog.play(ExploreFog(TILES["H"]))
    assert _awaited_step(s) == "decryption share of a fog card"  # its number token
    fog.play(ExploreFog(TOKENS.index(6)))
    s.play(A.END_TURN)
    assert _awaited_step(s) == "turn acknowledgement"
    s.play(A.ROLL)
    assert _awaited_step(s) == "reveal"  # the dice: a beacon event


def test_sea_gives_nothing_and_gold_a_resource_of_choice(fog, table) -> None:
    s = fog.state
    hand = list(s.hands[0])
    fog.play(BuildShip(STRAIT), ExploreFog(TILES["W"]))
    assert s.phase is Phase.MAIN and s.board.terrains[FOG_HEX] is Terrain.SEA
    assert s.hands[0] == [0, 0, 0, 0, 0] == [h - c for h, c in zip(hand, SHIP, strict=True)]
    assert s.board.tokens[FOG_HEX] == 0 and sea(s).fog_tokens == list(FOG.decks["fog_tokens"])

    t = table(players=4, board=BOARD, rules=FOG)
    t.build(0, settlements=[HOME])
    t.give(0, SHIP)
    t.play(BuildShip(STRAIT), ExploreFog(TILES["R"]), ExploreFog(TOKENS.index(5)))
    g = t.state
    assert g.phase is SeaPhase.GOLD and sea(g).gold_owed == [1, 0, 0, 0]
    t.play(ChooseGold(0, (0, 0, 0, 0, 1)))
    assert g.phase is Phase.MAIN and g.hands[0][Resource.ORE] == 1
    assert (g.board.terrains[FOG_HEX], g.board.tokens[FOG_HEX]) == (Terrain.GOLD_FIELD, 5)


def test_a_road_reaching_fog_reveals_every_hex_at_its_ends(fog) -> None:
    s = fog.state
    fog.play(BuildShip(STRAIT), ExploreFog(TILES["F"]), ExploreFog(TOKENS.index(9)))
    corner = next(n for n in TOPO.node_nodes[SHORE] if len(TOPO.node_hexes[n]) > 1)
    fog.build(0, settlements=[SHORE])
    fog.give(0, FOG.road_cost)
    fog.play(A.BuildRoad(TOPO.path_of[frozenset((SHORE, corner))]))
    expected = sorted(h for h in TOPO.node_hexes[corner] if s.board.terrains[h] is Terrain.FOG)
    assert expected and s.phase is SeaPhase.FOG and sea(s).fog_pending == expected
    for _ in expected:  # pasture tiles: each takes a token, each gives the discoverer wool
        fog.play(ExploreFog(TILES["P"]) if sea(s).fog_tiles[TILES["P"]] else ExploreFog(TILES["M"]))
        fog.play(ExploreFog(next(i for i, n in enumerate(sea(s).fog_tokens) if n)))
    assert s.phase is Phase.MAIN and len(sea(s).fog_revealed) == 1 + len(expected)


def test_when_the_stacks_run_out_fog_becomes_sea_and_land_goes_without_a_token(fog) -> None:
    s = fog.state
    sea(s).fog_tokens = [0] * len(sea(s).fog_tokens)  # every token drawn: a land tile takes none
    fog.play(BuildShip(STRAIT), ExploreFog(TILES["C"]))
    assert s.phase is Phase.MAIN
    assert (s.board.terrains[FOG_HEX], s.board.tokens[FOG_HEX]) == (Terrain.FIELDS, 0)
    assert s.hands[0][Resource.GRAIN] == 1

    sea(s).fog_tiles = [0] * len(
        sea(s).fog_tiles
    )  # the tile stack is empty: what fog is left is sea
    corner = next(n for n in TOPO.node_nodes[SHORE] if len(TOPO.node_hexes[n]) > 1)
    beyond = [h for h in TOPO.node_hexes[corner] if s.board.terrains[h] is Terrain.FOG]
    fog.build(0, settlements=[SHORE])
    fog.give(0, FOG.road_cost)
    fog.play(A.BuildRoad(TOPO.path_of[frozenset((SHORE, corner))]))
    assert s.phase is Phase.MAIN and s.chance_node() is None
    assert beyond and all(s.board.terrains[h] is Terrain.SEA for h in beyond)


def test_random_fog_games_keep_every_view_in_step() -> None:
    """Random play reveals fog; each seat's information state agrees with the full state after
    every action (the tiles are public once drawn)."""
    revealed = 0
    for seed in range(3):
        state, seen = play_random_game("seafarers-fog-island", seed, 4)
        assert state.winner >= 0
        assert seen["ExploreFog"] >= len(sea(state).fog_revealed)
        revealed += len(sea(state).fog_revealed)
        assert sum(sea(state).fog_tiles) == 12 - len(sea(state).fog_revealed)
    assert revealed > 0


def test_heuristic_bots_explore_the_fog_and_win() -> None:
    explored = 0
    for seed in range(3):
        state, _ = play_bot_game("seafarers-fog-island", seed)
        assert state.winner >= 0 and state.public_vp[state.winner] <= 12 + 2
        explored += len(sea(state).fog_revealed)
    assert explored >= 3


def test_simulate_the_fog_island_ends_every_game_with_a_winner() -> None:
    report = simulate(4, 4, ["heuristic"] * 4, seed=0, game="seafarers-fog-island")
    assert all(g.winner >= 0 for g in report.games)


def test_the_bot_values_fog_by_the_land_left_face_down(fog) -> None:
    """What a corner beside fog is worth to the heuristic bot (engine/bots/seafaring.py): the
    chance its tile is land, from the public stack; nothing once only sea is left."""
    s = fog.state
    assert fog_value(s, HOME) == 0.0  # no fog at the home island's corner
    assert fog_value(s, SHORE) == pytest.approx(10 / 12)  # 2 sea tiles among 12
    sea(s).fog_tiles = [2, 0, 0, 0, 0, 0, 0]  # only sea left: exploring brings nothing
    assert fog_value(s, SHORE) == 0.0
    sea(s).fog_tiles = [0, 1, 0, 0, 0, 0, 0]
    assert fog_value(s, SHORE) == 1.0
