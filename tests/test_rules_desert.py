"""Through the Desert (3, 4 and 5-6 players) and the 5-6 player Seafarers maps: the maps hold
together, the desert divides the main island from the land past it, the island bonus counts
regions, and simulated games end with a winner.

Rule sources: seed 002 «Мореходы» (island bonuses); JSettlers2's SC_TTD for what the seed leaves
open (set-up on the main island, 2 points for each land area first settled past the start, none
for the desert strip); docs/rules/seafarers.md records every reading.
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest
from bot_games import assert_logs_verify
from variant_play import play_bot_game, play_random_game

from hexlan.engine import actions as A
from hexlan.engine.board import random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.core import EngineError, Terrain
from hexlan.engine.maps import compile_map, load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import GAMES, load_ruleset
from hexlan.engine.seedfile import read_seed
from hexlan.engine.state import GameState
from hexlan.engine.topology import build_topology, with_regions
from hexlan.engine.variants.seafarers import sea
from hexlan.net.inproc import InProcessTable
from hexlan.simulate import simulate

SHIP_GAMES = [g for g in GAMES if g.startswith("seafarers-")]
NEW_GAMES = [
    ("seafarers-through-the-desert", 4),
    ("seafarers-through-the-desert", 3),
    ("seafarers-through-the-desert-3", 3),
    ("seafarers-through-the-desert-6", 5),
    ("seafarers-through-the-desert-6", 6),
    ("seafarers-new-shores-6", 6),
    ("seafarers-four-islands-6", 5),
    ("seafarers-fog-island-6", 6),
]
DESERT = load_ruleset("seafarers-through-the-desert")


def new_board(game: str, seed: int = 0) -> GameState:
    """A random board of ``game`` at its first set-up settlement, with its most seats."""
    rules = load_ruleset(game)
    board = random_board(random.Random(seed), "spiral", load_map(rules.board))
    state = GameState(board, rules.max_players, rules=rules)
    state.play(A.StartPlayer(0))
    return state


# ---------------------------------------------------------------------- every map for ships


@pytest.mark.parametrize("game", SHIP_GAMES)
def test_a_ship_map_holds_together(game: str) -> None:
    """Every sea hex lies beside land; from any corner every corner of every land hex is
    reached over paths (roads and ships); every harbour is a coastal path with the sea or the
    frame (off the map) on its other side, no two share a corner; the pirate starts at sea, the robber (if any) on land."""
    state = new_board(game)
    topo = state.board.topology
    land = set(topo.axial)
    for q, r in topo.sea_axial:
        assert any(
            (q + dq, r + dr) in land
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        )
    seen, todo = {0}, deque([0])
    while todo:
        for m in topo.node_ship_nodes[todo.popleft()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    assert {n for nodes in topo.hex_nodes for n in nodes} <= seen
    corners = [n for h in state.board.harbours for n in topo.path_nodes[h.path]]
    assert len(corners) == len(set(corners))
    for harbour in state.board.harbours:  # sea beside it, or the frame (Pirate Islands)
        on_frame = len(topo.path_hexes[harbour.path]) == 1
        assert harbour.path in topo.coast and (topo.path_sea[harbour.path] or on_frame)
    assert topo.hex_count <= sea(state).pirate < topo.hex_count + len(topo.sea_axial)
    assert state.robber < topo.hex_count


# ---------------------------------------------------------------------- Through the Desert


def test_the_desert_map_has_its_regions_deserts_and_harbours() -> None:
    """4 players: a main island of 17 hexes, 3 past a strip of 3 deserts, small islands of 3, 2
    and 2; nine harbours on the main island; 12 points to win; the robber on the desert."""
    state = new_board("seafarers-through-the-desert")
    topo = state.board.topology
    sizes = [topo.hex_island.count(i) for i in range(max(topo.hex_island) + 1)]
    assert sizes == [17, 3, 3, 3, 2, 2]
    deserts = [h for h, t in enumerate(state.board.terrains) if t is Terrain.DESERT]
    assert {topo.hex_island[h] for h in deserts} == {2} and len(deserts) == 3
    assert state.board.terrains[state.robber] is Terrain.DESERT
    assert len(state.board.harbours) == 9
    assert all(
        topo.node_island[n] == 0 for h in state.board.harbours for n in topo.path_nodes[h.path]
    )
    assert state.target == 12 and DESERT.min_players == 3


@pytest.mark.parametrize("seed", range(6))
def test_the_main_islands_one_gold_field_lies_past_the_desert(seed: int) -> None:
    """JSettlers2 (SC_TTD): the main island's tiles are shuffled over both sides of the desert,
    its one gold field always past it; the small islands take their own tiles and tokens."""
    board_map = load_map("seafarers-through-the-desert")
    topo = board_map.topology
    board = random_board(random.Random(seed), "spiral", board_map)
    gold = [h for h, t in enumerate(board.terrains) if t is Terrain.GOLD_FIELD]
    regions = sorted(topo.hex_island[h] for h in gold)
    assert len(regions) == 2 and regions[0] == 1 and regions[1] > 2  # past the desert; at sea
    small = [h for h in range(topo.hex_count) if topo.hex_island[h] > 2]
    assert sorted(board.tokens[h] for h in small) == [2, 3, 4, 5, 6, 9, 12]


def test_set_up_settlements_go_on_the_main_island_this_side_of_the_desert() -> None:
    """Set-up: every offered corner is on the main island (the first region), corners it
    shares with the desert included; none past the desert, on the desert alone or at sea."""
    state = new_board("seafarers-through-the-desert")
    topo = state.board.topology
    offered = {a.node for a in state.legal_actions() if isinstance(a, A.BuildSettlement)}
    assert offered and {topo.node_island[n] for n in offered} == {0}
    desert = {h for h in range(topo.hex_count) if topo.hex_island[h] == 2}
    assert any(desert & set(topo.node_hexes[n]) for n in offered)


def test_settling_past_the_desert_and_on_each_small_island_brings_two_points(table) -> None:
    """2 points for a player's first settlement past the desert and on each small island
    (JSettlers2 `_SC_SEAC`); none on the main island, none on a corner of the desert alone, none
    for a second settlement in a region already settled."""
    board = random_board(random.Random(0), "spiral", load_map("seafarers-through-the-desert"))
    topo = board.topology
    t = table(players=4, board=board, rules=DESERT)
    s = t.state

    def corner(region: int, alone: bool = False) -> int:
        return next(
            n
            for n in range(topo.land_node_count)
            if topo.node_island[n] == region
            and not s.blocked[n]
            and s.node_owner[n] < 0
            and (not alone or all(topo.hex_island[h] == region for h in topo.node_hexes[n]))
        )

    t.build(0, settlements=[corner(0)])
    assert s.public_vp[0] == 1 and s.variant_vp[0] == 0
    t.build(0, settlements=[corner(2, alone=True)])  # the desert strip alone
    assert s.public_vp[0] == 2 and s.variant_vp[0] == 0
    t.build(0, settlements=[corner(1)])  # past the desert
    assert s.public_vp[0] == 5 and s.variant_vp[0] == 2
    t.build(0, settlements=[corner(1)])  # past the desert again
    assert s.public_vp[0] == 6 and s.variant_vp[0] == 2
    t.build(0, settlements=[corner(3)])  # a small island
    assert s.public_vp[0] == 9 and s.variant_vp[0] == 4
    t.build(1, settlements=[corner(3)])  # another player's first there
    assert s.variant_vp[1] == 2


def test_a_corner_takes_the_first_region_among_its_hexes() -> None:
    """Regions (a map's ``regions``): numbered in file order, the hexes in none keep their
    islands after them; a corner on two regions belongs to the one listed first; a hex in two
    regions is refused."""
    topo = build_topology([(0, 0), (1, 0), (2, 0), (5, 0)])
    regrouped = with_regions(topo, [[1], [0, 2]])
    assert regrouped.hex_island == (1, 0, 1, 2)
    shared = set(topo.hex_nodes[0]) & set(topo.hex_nodes[1])
    assert {regrouped.node_island[n] for n in shared} == {0}
    with pytest.raises(EngineError, match="two regions"):
        with_regions(topo, [[1], [1, 2]])


def test_an_area_that_cannot_keep_its_gold_where_the_map_says_is_refused() -> None:
    raw = read_seed("boards", "seafarers-through-the-desert")
    raw["areas"][0]["only"] = {"R": [[4, -3]]}  # a small island's hex, outside the area
    with pytest.raises(EngineError, match="do not fit"):
        compile_map(raw, "broken")


# ---------------------------------------------------------------------- the 5-6 player maps


@pytest.mark.parametrize(
    ("game", "hexes", "harbours"),
    [
        ("seafarers-through-the-desert-6", 43, 11),
        ("seafarers-new-shores-6", 40, 11),
        ("seafarers-four-islands-6", 32, 11),
        ("seafarers-fog-island-6", 51, 9),
    ],
)
def test_the_five_six_maps_take_the_five_six_extension(
    game: str, hexes: int, harbours: int
) -> None:
    """5-6 seats, the extension's bank (24 a resource) and 25-card deck, the special building
    phase after every turn; the published map's land and harbours."""
    rules = load_ruleset(game)
    assert (rules.min_players, rules.max_players) == (5, 6)
    assert rules.special_building and rules.bank_per_resource == 24
    assert sum(rules.development_deck) == 34
    board_map = load_map(rules.board)
    assert board_map.topology.hex_count == hexes and len(board_map.harbour_paths) == harbours
    four = game.removesuffix("-6")
    with pytest.raises(EngineError, match=f"not 6 \\(for 6 players: {game}\\)"):
        load_ruleset(four).seat_count(6)


def test_the_six_islands_have_no_robber_until_the_first_seven() -> None:
    state = new_board("seafarers-four-islands-6")
    topo = state.board.topology
    assert state.robber < 0 and Terrain.DESERT not in state.board.terrains
    assert sorted(topo.hex_island.count(i) for i in set(topo.hex_island)) == [5, 5, 5, 5, 6, 6]


def test_the_big_fog_island_starts_on_the_main_island_with_a_stack_of_25() -> None:
    """The Fog Island for 5-6: set-up on the 24-hex main island only (not the gold corners,
    never beside fog); 25 face-down hexes and a fog stack of 25 tiles (12 water), 13 tokens."""
    state = new_board("seafarers-fog-island-6")
    topo = state.board.topology
    assert state.board.terrains.count(Terrain.FOG) == 25 == sum(sea(state).fog_tiles)
    assert sum(sea(state).fog_tokens) == 13
    assert state.board.terrains[state.robber] is Terrain.DESERT
    offered = {a.node for a in state.legal_actions() if isinstance(a, A.BuildSettlement)}
    assert {topo.node_island[n] for n in offered} == {0}
    fog = {h for h, t in enumerate(state.board.terrains) if t is Terrain.FOG}
    assert not any(fog & set(topo.node_hexes[n]) for n in offered)


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize(("game", "players"), NEW_GAMES)
def test_simulated_games_end_with_a_winner(game: str, players: int) -> None:
    """Heuristic bots finish each new game and table size with a winner at the scenario's
    points; the 5-6 games pass through special building phases."""
    report = simulate(2, players, ["heuristic"] * players, seed=0, game=game)
    target = load_ruleset(game).victory_points
    for result in report.games:
        assert result.winner is not None
        assert result.victory_points[result.winner] >= target


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("seafarers-through-the-desert", 4),
        ("seafarers-through-the-desert-6", 6),
        ("seafarers-fog-island-6", 5),
    ],
)
def test_bot_games_keep_every_view_in_step(game: str, players: int) -> None:
    """Heuristic bots from their own views, every view checked against the state at the end:
    ships built, and in Through the Desert the bonus taken past the desert or at sea."""
    state, seen = play_bot_game(game, 1, players)
    assert state.is_over and seen["BuildShip"]
    if game.startswith("seafarers-through-the-desert"):
        assert any(state.variant_vp)


def test_random_desert_play_keeps_every_view_in_step() -> None:
    """Random play on the 5-6 player desert map, every seat's view checked at each step."""
    state, seen = play_random_game("seafarers-through-the-desert-6", 0, 5)
    assert state.is_over and seen["BuildShip"] and seen["MovePirate"]


@pytest.mark.slow
def test_a_networked_desert_game_finishes_audits_and_verifies(tmp_path: Path) -> None:
    """Three seats' sessions in memory (signed messages, the beacon's dice and board, the dealt
    deck, private steals) play a short Through the Desert game (to 8 points, on its 3-4 player
    map) between heuristic bots to a winner; the audit passes and `hexlan verify` accepts every
    seat's log. (The 5-6 fog map's game takes two minutes here, its decks' shuffles most of it:
    run by hand.)"""
    game, players = "seafarers-through-the-desert", 3
    names = ["a", "b", "c"]
    table = InProcessTable(names, GameOptions(victory_points=8), seed=3, game=game)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(players)])
    views = [s.view for s in table.sessions]
    assert all(v is not None and v.is_over for v in views)
    state = views[0]
    assert state is not None and state.public_vp[state.winner] >= 8
    assert all(s.stopped is None and s.audited is not None for s in table.sessions)
    assert_logs_verify(table, tmp_path, game)
