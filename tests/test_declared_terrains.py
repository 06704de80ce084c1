"""Terrains a rule set declares (issue 24): the four-kinds test game (tests/data/four-kinds.toml)
declares a bog, which yields iron, and ice, which yields nothing and takes no number token; a map
file lays them by their letters (tests/data/four-kinds-board.toml), and the board loads, plays,
draws and round-trips through a position with no engine edit.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from random_play import random_step
from test_declared_kinds import RULES, four_kinds

from hexlan.engine import actions as A
from hexlan.engine.board import Board, beginner_board, random_board
from hexlan.engine.core import EngineError, Resource, Terrain
from hexlan.engine.maps import BoardMap, compile_map, load_map, terrain_codes
from hexlan.engine.position import PositionError, from_position, to_position
from hexlan.engine.state import GameState
from hexlan.tui.board import COMPACT, ROOMY, board_lines, hex_cell, render_board
from hexlan.tui.board_render import DECLARED_COLOUR, render_canvas
from hexlan.tui.widgets.hand import RESOURCE_STYLES

BOARD_FILE = Path(__file__).resolve().parent / "data" / "four-kinds-board.toml"
GRAIN, TIMBER, WOOL, IRON = RULES.cards
BOG, ICE = RULES.terrains[-2:]


def load_test_map() -> BoardMap:
    """The test map, its letters read with the game's terrains."""
    raw = tomllib.loads(BOARD_FILE.read_text())
    return compile_map(raw, "four-kinds-board", terrain_codes(RULES.terrains))


MAP = load_test_map()
ON_MAP = four_kinds(board="four-kinds-board")
"""The test game played on the test map."""


def test_the_rule_set_declares_terrains_after_the_catalogue() -> None:
    assert RULES.terrains[: len(Terrain)] == tuple(Terrain) and len(Terrain) == 11
    assert (BOG, ICE) == (11, 12) and (BOG.name, ICE.name) == ("BOG", "ICE")
    assert (BOG.code, BOG.letter, ICE.code) == ("b", "b", "i")
    assert BOG.takes_token and not ICE.takes_token
    assert not BOG.is_catalogue and Terrain.FOREST.is_catalogue and Terrain.FOREST.code == "F"
    assert RULES.produce[BOG] is IRON and RULES.produce[ICE] is None
    assert RULES.produce[Terrain.FOREST] is TIMBER and len(RULES.produce) == 13
    assert load_map("base").topology is load_map("base", RULES.terrains).topology


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"terrains": {"bog": {"letter": "bb"}}}, "terrains.bog needs a one-letter letter"),
        ({"terrains": {"bog": {}}}, "terrains.bog needs a one-letter letter"),
        ({"terrains": {"forest": {"letter": "x"}}}, "terrains.forest must declare a new terrain"),
        ({"terrains": {"bog": "b"}}, "terrains.bog must declare a new terrain"),
        ({"terrains": {"bog": {"letter": "F"}}}, "another terrain has the letter 'F'"),
        (
            {"terrains": {"bog": {"letter": "b"}, "fen": {"letter": "b"}}},
            "another terrain has the letter 'b'",
        ),
        ({"terrains": {"bog": {"letter": "b", "token": 1}}}, "terrains.bog.token must be true"),
        ({"terrains": ["bog"]}, "terrains must be a table of terrains"),
        ({"terrains": {"ice": {"letter": "i"}}}, "produce must map terrains"),  # no bog
    ],
)
def test_malformed_terrain_declarations_are_one_line_errors(
    extra: dict[str, object], words: str
) -> None:
    with pytest.raises(EngineError) as info:
        four_kinds(**extra)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_map_lays_the_declared_terrains_by_their_letters() -> None:
    board = beginner_board(MAP)
    assert [h for h, t in enumerate(board.terrains) if t is BOG] == [4, 6]
    assert [board.tokens[h] for h in (4, 6)] == [6, 10]
    assert board.terrains[9] is ICE and board.tokens[9] == 0 and board.desert == 9
    for seed in range(5):
        laid = random_board(random.Random(seed), board_map=MAP)
        assert laid.terrains.count(BOG) == 2 and laid.terrains.count(ICE) == 1
        assert all(
            bool(n) == (t is not ICE) for t, n in zip(laid.terrains, laid.tokens, strict=True)
        )
        assert laid.terrains[laid.desert] is ICE


def test_a_map_using_letters_the_game_does_not_declare_is_a_one_line_error() -> None:
    raw = tomllib.loads(BOARD_FILE.read_text())
    with pytest.raises(EngineError, match=r"^map 'four-kinds-board': unknown terrain code 'b'$"):
        compile_map(raw, "four-kinds-board")
    with pytest.raises(EngineError, match="malformed board"):
        Board.from_dict(beginner_board(MAP).to_dict() | {"map": "base"})


def test_a_settlement_beside_a_bog_takes_iron() -> None:
    """The second set-up settlement takes one card of what each hex beside it yields: iron from
    a bog, nothing from ice."""
    state = GameState(beginner_board(MAP), 3, rules=ON_MAP)
    state.play(A.StartPlayer(0))
    while state.setup_step < state.players:
        state.play(state.legal_actions(state.active)[0])
        state.play(state.legal_actions(state.active)[0])
    seat = state.active
    node = next(
        a.node
        for a in state.legal_actions(seat)
        if isinstance(a, A.BuildSettlement) and 4 in state.topology.node_hexes[a.node]
    )
    hexes = state.topology.node_hexes[node]
    before = list(state.hands[seat])
    state.play(A.BuildSettlement(node))
    gain = [a - b for a, b in zip(state.hands[seat], before, strict=True)]
    expected = [0] * 4
    for h in hexes:
        kind = RULES.produce[state.board.terrains[h]]
        if kind is not None:
            expected[kind] += 1
    assert gain == expected and gain[IRON] >= 1


def test_the_board_draws_the_declared_terrains() -> None:
    state = GameState(beginner_board(MAP), 3, rules=ON_MAP)
    roomy = "\n".join(board_lines(render_board(state, ROOMY)))
    assert roomy.count("b bog") == 2 and roomy.count("i ice") == 1
    canvas = render_canvas(state, COMPACT)
    col, row = hex_cell(4, COMPACT, MAP.topology)
    assert canvas.chars[row][col - 2] == "b"
    style = canvas.styles[row][col - 2]
    assert style is not None and style.bgcolor is not None
    assert style.bgcolor.name == DECLARED_COLOUR.lower() and style.bold


def test_a_position_of_the_game_round_trips() -> None:
    """The test board laid on the base map (a position names a listed map): its text reads back
    under the rule set to the same state, bogs and all, and names the game's kinds."""
    board = replace(beginner_board(MAP), topology=load_map("base").topology)
    state = GameState(board, 3, rules=RULES)
    rng = random.Random(7)
    for _ in range(60):
        state.play(random_step(state, rng))
    state.monopoly = IRON
    text = to_position(state)
    assert '"terrains":"MPFCbPbCFiFMFMCPHCP"' in text and '\nmonopoly "iron"\n' in text
    loaded = from_position(text, RULES)
    assert loaded.full_hash() == state.full_hash() and to_position(loaded) == text
    assert loaded.board.terrains[4] is BOG and loaded.monopoly is IRON
    assert [sorted(row) for row in loaded.income] == [sorted(row) for row in state.income]
    assert (4, 12, 0, IRON) in loaded.income[6]  # seat 0 on a bog of number 6 takes iron
    public = from_position(to_position(state, public=True), RULES)
    assert public.public_hash() == state.public_hash()
    with pytest.raises(PositionError, match=r"^line 1: no game named 'four-kinds'"):
        from_position(text)


def test_declared_kinds_have_colours_of_their_own() -> None:
    """Kinds are coloured by name: Landnám's grain and wool keep the catalogue's colours at
    their own places; timber and iron, which stand where brick and wool do in a Catan hand,
    take colours apart from every catalogue kind's."""
    assert RESOURCE_STYLES[GRAIN] == RESOURCE_STYLES[Resource.GRAIN] == "yellow"
    assert RESOURCE_STYLES[WOOL] == RESOURCE_STYLES[Resource.WOOL]
    catalogue = {RESOURCE_STYLES[k] for k in Resource}
    assert RESOURCE_STYLES[TIMBER] not in catalogue and RESOURCE_STYLES[IRON] not in catalogue
    assert RESOURCE_STYLES[TIMBER] != RESOURCE_STYLES[IRON]
    assert (TIMBER.letter, IRON.letter) == ("T", "I")
