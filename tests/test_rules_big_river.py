"""The Big River: a three-hex river tile (mountains, forest, gold mine), no set-up settlement on
its bank, and points for building along it.

Rule sources: seed 002 «Большая река»; the published variant (Mayfair's "The Great River") where
the seed is silent; docs/rules/big-river.md records every reading.

Big River beginner board (hex ids as on the base map): the river is hex 10 (mountains 3), hex 14
(forest 4) and hex 17 (the gold mine, no token) on the south coast.

- gold mine corners: 40, 44, 45, 48, 49, 52; the delta's tip is 52 (between its sea sides);
- the other river corners: 19, 24, 25, 30, 31, 35, 36, 41;
- river sides (paths): 29, 30, 36, 37, 44, 45, 46, 51, 52, 57, 58, 59, 63, 64, 68, 69.
"""

from __future__ import annotations

import random

import pytest
from variant_play import board_of, play_bot_game, play_random_game

from hexlan.engine import actions as A
from hexlan.engine.board import random_board
from hexlan.engine.core import Phase, Terrain
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState

RIVER = load_ruleset("big-river")
BOARD = board_of(RIVER)
MOUNTAINS, FOREST, GOLD_MINE = 10, 14, 17
MINE_NODES = {40, 44, 45, 48, 49, 52}
TIP = 52
BANK_NODES = {19, 24, 25, 30, 31, 35, 36, 41}
RIVER_PATHS = {29, 30, 36, 37, 44, 45, 46, 51, 52, 57, 58, 59, 63, 64, 68, 69}
SIMPLE = GameOptions.of(river_gold_points=False)


@pytest.fixture
def river(table):
    """A Big River table on its beginner board: ``river(players=3, options=...)``."""

    def make(players: int = 4, options: GameOptions | None = None):
        return table(players=players, options=options, board=BOARD, rules=RIVER)

    return make


def on_path(state: GameState, a: int, b: int) -> int:
    return state.topology.path_of[frozenset((a, b))]


# ---------------------------------------------------------------------- the board


def test_the_river_tile_lies_at_its_place_on_every_board() -> None:
    """seed 002 «Большая река»: the tile (mountains, forest, gold mine in a line) replaces one
    mountains, one forest and the desert; the rest is laid at random; the gold mine takes no
    token and the river's mountains and forest take theirs as usual."""
    river_map = load_map("big-river")
    pool = sorted(river_map.terrains)
    base_pool = sorted(load_map("base").terrains)
    for gone in (Terrain.DESERT, Terrain.FOREST, Terrain.MOUNTAINS):
        base_pool.remove(gone)
    assert pool == base_pool
    for seed in range(6):
        board = random_board(random.Random(seed), "spiral", river_map)
        assert board.terrains[MOUNTAINS] is Terrain.MOUNTAINS and board.tokens[MOUNTAINS]
        assert board.terrains[FOREST] is Terrain.FOREST and board.tokens[FOREST]
        assert board.terrains[GOLD_MINE] is Terrain.GOLD_MINE and board.tokens[GOLD_MINE] == 0
        assert Terrain.DESERT not in board.terrains
        assert sorted(board.tokens)[1:] == sorted(load_map("base").tokens)
        assert GameState(board, 3, rules=RIVER).robber == GOLD_MINE  # as the published swamp


def test_the_river_geometry() -> None:
    """The delta's tip is the gold mine's one corner on the sea alone; the bank is every corner
    of the three hexes, the sides every side of them."""
    variant = GameState(BOARD, 3, rules=RIVER).variant
    assert variant.tip == TIP
    assert variant.mine_nodes == MINE_NODES
    assert variant.river_nodes == MINE_NODES | BANK_NODES
    assert variant.river_paths == RIVER_PATHS
    assert RIVER.victory_points == 12


def test_the_gold_mine_produces_nothing_and_the_robber_may_return_there(river) -> None:
    t = river(players=3)
    t.build(0, settlements=[44])  # hexes 13 (mountains 3), 16 (hills 5) and the gold mine
    t.at_roll(0)
    t.roll(1, 2)
    assert t.state.hands[0] == [0, 0, 0, 0, 1]
    t.state.robber = 4
    t.state.phase = Phase.MOVE_ROBBER
    assert A.MoveRobber(GOLD_MINE, -1) in t.legal()
    closed = river(players=3, options=GameOptions(robber_to_desert=False))
    closed.state.robber, closed.state.phase = 4, Phase.MOVE_ROBBER
    assert not [a for a in closed.legal() if a.hex == GOLD_MINE]


# ---------------------------------------------------------------------- set-up


def _setup_spots(options: GameOptions | None = None) -> set[int]:
    state = GameState(BOARD, 3, options, RIVER)
    state.play(A.StartPlayer(0))
    return {a.node for a in state.legal_actions()}


def test_no_set_up_settlement_on_the_gold_mine(rejected) -> None:
    """seed 002: no settlement on the river bank at the start; read as the published variant,
    not on the gold mine's corners; the river's other corners stay open."""
    spots = _setup_spots()
    assert not spots & MINE_NODES
    assert spots >= BANK_NODES
    assert len(spots) == 54 - len(MINE_NODES)
    state = GameState(BOARD, 3, rules=RIVER)
    state.play(A.StartPlayer(0))
    rejected(state, A.BuildSettlement(TIP), "not legal")


def test_the_whole_river_bank_closed_is_an_option() -> None:
    """``river_setup_ban_whole_river``: no set-up settlement on any river corner."""
    spots = _setup_spots(GameOptions.of(river_setup_ban_whole_river=True))
    assert not spots & (MINE_NODES | BANK_NODES)
    assert len(spots) == 54 - 14


def test_after_set_up_the_gold_mine_is_open(river) -> None:
    """The ban holds during set-up only: a road brings a settlement to the gold mine later."""
    t = river(players=3)
    s = t.state
    t.build(0, settlements=[35], roads=[on_path(s, 35, 40), on_path(s, 40, 44)])
    t.give(0, RIVER.settlement_cost)
    assert A.BuildSettlement(44) in t.legal()


def test_a_random_set_up_never_settles_the_gold_mine() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        state = GameState(board_of(RIVER, rng), 4, rules=RIVER)
        state.play(A.StartPlayer(seed % 4))
        while state.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
            state.play(rng.choice(state.legal_actions()))
        assert not {n for seat in range(4) for n in state.settlements[seat]} & MINE_NODES


# ---------------------------------------------------------------------- points


def test_gold_points_make_a_victory_point_every_three(river) -> None:
    """Published variant: a road on a river side and a settlement on a river corner are worth a
    gold point each; every three make a victory point, counted in public_vp and everywhere."""
    t = river(players=3)
    s = t.state
    t.build(0, roads=[29])
    assert (s.gold_points[0], s.variant_vp[0], s.public_vp[0]) == (1, 0, 0)
    t.build(0, settlements=[19])
    assert (s.gold_points[0], s.variant_vp[0], s.public_vp[0]) == (2, 0, 1)
    t.build(0, roads=[30])
    assert (s.gold_points[0], s.variant_vp[0], s.public_vp[0]) == (3, 1, 2)
    assert s.victory_points(0) == 2
    t.build(0, cities=[19])  # no gold point for the upgrade
    assert (s.gold_points[0], s.variant_vp[0], s.public_vp[0]) == (3, 1, 3)
    t.build(0, roads=[on_path(s, 14, 19)])  # not a river side
    assert s.gold_points[0] == 3
    t.build(1, roads=[36], settlements=[41])  # another seat's gold points are its own
    assert s.gold_points[:2] == [3, 2] and s.public_dict()["gold_points"] == [3, 2, 0]


def test_the_deltas_tip_is_worth_two_gold_points(river) -> None:
    t = river(players=3)
    s = t.state
    t.build(0, settlements=[TIP])
    assert s.gold_points[0] == 2
    t.build(0, roads=[68])
    assert (s.gold_points[0], s.variant_vp[0], s.public_vp[0]) == (3, 1, 2)


def test_seed_002s_short_reading_is_an_option(river) -> None:
    """``river_gold_points`` off: each settlement or city on the gold mine is worth one point
    more (seed 002: "строительство поселений на золотом прииске приносит дополнительные очки");
    roads and the rest of the river bring nothing."""
    t = river(players=3, options=SIMPLE)
    s = t.state
    t.build(0, settlements=[19], roads=[29, 30, 36])
    assert s.variant_vp[0] == 0 and s.public_vp[0] == 1
    t.build(0, settlements=[44])
    assert s.variant_vp[0] == 1 and s.public_vp[0] == 3
    t.build(0, cities=[44])
    assert s.variant_vp[0] == 1 and s.public_vp[0] == 4


def test_gold_points_can_win_the_game_at_twelve(river) -> None:
    """The published variant plays to 12; a gold point that completes the twelfth victory point
    wins on the spot (seed 002 «Цель участников»)."""
    t = river(players=3)
    s = t.state
    t.build(0, roads=[29, 30])
    s.public_vp[0] += 11  # direct: eleven points from elsewhere
    t.give(0, RIVER.road_cost)
    t.play(A.BuildRoad(36))
    assert s.phase is Phase.VICTORY and s.victory_points(0) == 12
    t.play(A.RevealVictory(0, 0))
    assert s.winner == 0 and s.is_over


def test_scores_count_the_river_points() -> None:
    from hexlan.engine.info import InformationState
    from hexlan.net.narrate import scores

    view = InformationState(BOARD, 2, 0, rules=RIVER)
    view.play(A.StartPlayer(0))
    for node, road in ((19, 29), (0, 0), (11, 10), (30, 36)):
        view.play(A.BuildSettlement(node))
        view.play(A.BuildRoad(road))
    mine, other = scores(view, ("You", "Blue"), 0)
    assert view.gold_points == [4, 0]
    assert (mine.variant_points, mine.gold_points, mine.total) == (1, 4, 3)
    assert mine.total == view.victory_points(0) and other.total == 2


# ---------------------------------------------------------------------- information states, bots


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 3), (2, 4)])
def test_views_agree_with_the_full_state_along_random_river_games(seed, players) -> None:
    """Principle 2: the gold points are public and every view counts them as the full state."""
    state, _ = play_random_game("big-river", seed, players)
    assert state.is_over and any(state.gold_points)


@pytest.mark.parametrize(
    ("seed", "options"), [(0, None), (1, None), (2, SIMPLE), (3, GameOptions(victory_points=10))]
)
def test_heuristic_bots_finish_river_games(seed, options) -> None:
    state, _ = play_bot_game("big-river", seed, options=options)
    assert state.is_over and state.victory_points(state.winner) >= state.target
    assert state.target == (10 if options and options.victory_points else 12)
    if options is None:
        assert any(state.variant_vp)


def test_the_board_draws_the_gold_mine() -> None:
    from hexlan.tui.board_render import COMPACT, ROOMY, board_lines, render_board

    state = GameState(BOARD, 3, rules=RIVER)
    for layout in (COMPACT, ROOMY):
        assert any("$" in line for line in board_lines(render_board(state, layout)))
