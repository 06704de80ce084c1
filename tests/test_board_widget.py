"""The board widget: the pure renderer on the beginner board and on the 30-hex 5-6 player map, and
BoardView in a real Textual app.

Beginner board (seeds/base.toml ``[beginner]``), rows top to bottom, in UI letters:
O10 W2 L9 / G12 B6 W4 B10 / G9 L11 D L3 O8 / L8 O3 G4 W5 / B5 G6 W11.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Offset

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.core import Terrain
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.topology import Topology
from hexlan.engine.variants.pirate_islands import PirateIslands, fleet
from hexlan.engine.variants.seafarers import BuildShip, sea
from hexlan.tui.board import (
    CITY_GLYPHS,
    COMPACT,
    FLEET_PATH_GLYPH,
    LAYOUTS,
    MEDIUM,
    MINI,
    PIP_BRAILLE,
    PIPS,
    ROAD_GLYPH,
    ROAD_GLYPH_VERTICAL,
    ROBBER_GLYPH,
    ROOMY,
    SEA_COLOUR,
    SEAT_COLOURS,
    SEAT_MARKS,
    SETTLEMENT_GLYPHS,
    WARSHIP_GLYPH,
    BoardView,
    Geometry,
    Layout,
    board_lines,
    choose_layout,
    geometry,
    hex_cell,
    hit_test,
    node_cell,
    path_cells,
    render_board,
    robber_cell,
    seat_style,
    step_cursor,
    too_small_message,
)

TOPO = load_map().topology
LAYOUT_IDS = ["compact", "roomy"]
BEGINNER_ROWS = [
    [("O", "10"), ("W", "2"), ("L", "9")],
    [("G", "12"), ("B", "6"), ("W", "4"), ("B", "10")],
    [("G", "9"), ("L", "11"), ("D", ""), ("L", "3"), ("O", "8")],
    [("L", "8"), ("O", "3"), ("G", "4"), ("W", "5")],
    [("B", "5"), ("G", "6"), ("W", "11")],
]


def new_game() -> GameState:
    state = GameState(beginner_board(), 4)
    state.play(A.StartPlayer(0))
    return state


def path(a: int, b: int) -> int:
    return TOPO.path_of[frozenset((a, b))]


def char_at(lines: list[str], cell: tuple[int, int]) -> str:
    col, row = cell
    return lines[row][col]


def style_at(lines: list[Text], cell: tuple[int, int]):
    col, row = cell
    return lines[row].get_style_at_offset(Console(), col)


# ------------------------------------------------------------------------------------ layouts


def test_compact_fits_80x24_board_area_and_roomy_fits_120x40() -> None:
    cw, ch = geometry(COMPACT).size
    rw, rh = geometry(ROOMY).size
    assert cw <= 50 and ch <= 21
    assert 70 <= rw <= 80 and 33 <= rh <= 37
    assert choose_layout(120, 40) is ROOMY
    assert choose_layout(80, 21) is COMPACT
    assert choose_layout(50, 21) is COMPACT
    assert choose_layout(cw - 1, ch) is MINI  # the one-line hexes, below 80x24
    mw, mh = geometry(MINI).size
    assert choose_layout(mw - 1, mh) is None
    assert too_small_message() == f"Terminal too small for the board (need {mw}x{mh})"


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_every_line_has_the_layout_width(layout) -> None:
    lines = board_lines(render_board(new_game(), layout))
    width, height = geometry(layout).size
    assert len(lines) == height
    assert {len(line) for line in lines} == {width}


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_lattice_maps_linearly_to_cells(layout) -> None:
    for h, (x, y) in enumerate(TOPO.hex_centres):
        hc, hr = hex_cell(h, layout)
        for node, (dx, dy) in zip(
            TOPO.hex_nodes[h], ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)), strict=True
        ):
            assert TOPO.node_xy[node] == (x + dx, y + dy)
            assert node_cell(node, layout) == (hc + dx * layout.sx, hr + layout.row(dy))


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_path_cells_lie_between_their_intersections(layout) -> None:
    for p, (a, b) in enumerate(TOPO.path_nodes):
        (ac, ar), (bc, br) = node_cell(a, layout), node_cell(b, layout)
        cells = path_cells(p, layout)
        assert cells
        for c, r in cells:
            assert min(ac, bc) <= c <= max(ac, bc) and min(ar, br) <= r <= max(ar, br)
            assert (c, r) not in (node_cell(a, layout), node_cell(b, layout))
    every = [c for p in range(TOPO.path_count) for c in path_cells(p, layout)]
    assert len(every) == len(set(every)), "two paths share a cell"


# ---------------------------------------------------------------------------- hexes and tokens


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_terrain_letters_and_tokens_read_row_by_row(layout) -> None:
    lines = board_lines(render_board(new_game(), layout))
    for row_hexes, expected in zip(TOPO.hex_rows, BEGINNER_ROWS, strict=True):
        got = []
        for h in row_hexes:
            col, row = hex_cell(h, layout)
            if layout is COMPACT:  # "O 10" on the centre row, letter two cells left of centre
                letter, token = lines[row][col - 2], lines[row][col : col + 2].strip()
            else:  # "O ore" above the centre, the token on it
                letter, token = _word_at(lines[row - 1], col)[0], _word_at(lines[row], col)
            got.append((letter, token.rstrip("!")))
        assert got == expected


def _word_at(line: str, col: int) -> str:
    """The word of ``line`` around (or nearest right of) column ``col`` within the hex."""
    words = line[col - 5 : col + 6].split()
    return words[0] if words else ""


def test_top_row_reads_o10_w2_l9_in_both_layouts() -> None:
    state = new_game()
    for layout in (COMPACT, ROOMY):
        lines = board_lines(render_board(state, layout))
        _, row = hex_cell(0, layout)
        if layout is COMPACT:
            assert re.findall(r"([LBWGOD]) +(\d+)", lines[row]) == [
                ("O", "10"),
                ("W", "2"),
                ("L", "9"),
            ]
        else:
            assert re.findall(r"([LBWGOD]) (ore|wool|lumber)", lines[row - 1]) == [
                ("O", "ore"),
                ("W", "wool"),
                ("L", "lumber"),
            ]
            assert re.findall(r"\d+", lines[row]) == ["10", "2", "9"]


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_pips_and_red_numbers(layout) -> None:
    state = new_game()
    text = render_board(state, layout)
    lines = board_lines(text)
    expected_pips = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    for h, token in enumerate(state.board.tokens):
        col, row = hex_cell(h, layout)
        pip_row = row - 1 if layout is COMPACT else row + 1
        pips = lines[pip_row][col - 5 : col + 6].count("•")
        assert pips == expected_pips.get(token, 0), (h, token)
        if token in (6, 8):
            token_row = lines[row][col - 3 : col + 4]
            assert f"{token}!" in token_row  # a marker that survives NO_COLOR
            start = lines[row].index(f"{token}!", col - 3)
            style = style_at(text, (start, row))
            assert style.bold and style.bgcolor is not None
            red = style.bgcolor.triplet
            assert red.red > 150 and red.green < 80 and red.blue < 80  # a red chip


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_hexes_are_filled_with_their_terrain_colour(layout) -> None:
    state = new_game()
    text = render_board(state, layout)
    geo = geometry(layout)
    for h in range(TOPO.hex_count):
        backgrounds = {style_at(text, cell).bgcolor for cell in geo.interiors[h][:1]}
        assert len(backgrounds) == 1 and None not in backgrounds
    desert = state.board.terrains.index(Terrain.DESERT)
    forest = state.board.terrains.index(Terrain.FOREST)
    assert (
        style_at(text, geo.interiors[desert][0]).bgcolor
        != style_at(text, geo.interiors[forest][0]).bgcolor
    )


# ------------------------------------------------------------------------- harbours and robber


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_harbour_labels_sit_outside_the_coast_by_their_path(layout) -> None:
    state = new_game()
    lines = board_lines(render_board(state, layout))
    geo = geometry(layout)
    land = {cell for cells in geo.interiors[: geo.land_hexes] for cell in cells}
    board_text = "\n".join(lines)
    assert board_text.count("3:1") == 4
    for word in ("2:1 W", "2:1 B", "2:1 L", "2:1 G", "2:1 O"):
        assert board_text.count(word) == 1
    cx, cy = geo.width / 2, geo.height / 2
    for harbour in state.board.harbours:
        a, b = TOPO.path_nodes[harbour.path]
        (ac, ar), (bc, br) = node_cell(a, layout), node_cell(b, layout)
        mid = ((ac + bc) / 2, (ar + br) / 2)
        hits = [
            (row, m.start())
            for row, line in enumerate(lines)
            for m in re.finditer(re.escape(harbour.label), line)
        ]
        row, start = min(hits, key=lambda rc: abs(rc[1] + 2 - mid[0]) + 2 * abs(rc[0] - mid[1]))
        label_mid = (start + len(harbour.label) / 2, row)
        assert abs(label_mid[0] - mid[0]) <= layout.sx + 3 and abs(row - mid[1]) <= layout.row(2)
        assert all((c, row) not in land for c in range(start, start + len(harbour.label)))
        # Farther from the board's centre than the path it faces: on the sea side.
        far = ((label_mid[0] - cx) ** 2 + (2 * (row - cy)) ** 2) ** 0.5
        near = ((mid[0] - cx) ** 2 + (2 * (mid[1] - cy)) ** 2) ** 0.5
        assert far > near


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_robber_starts_on_the_desert_and_moves(layout) -> None:
    state = new_game()
    desert = state.board.desert
    text = render_board(state, layout)
    lines = board_lines(text)
    robber_rows = [r for r, line in enumerate(lines) if ROBBER_GLYPH in line]
    assert len(robber_rows) == 1
    col, row = robber_cell(geometry(layout), desert)
    assert abs(row - hex_cell(desert, layout)[1]) <= 2 and col == hex_cell(desert, layout)[0]
    assert lines[row][col - 1 : col + 2] == f" {ROBBER_GLYPH} "
    style = style_at(text, (col, row))
    assert style.reverse and style.bold
    state.robber = 4  # the field MoveRobber sets (the phase machinery is tested in the engine)
    lines = board_lines(render_board(state, layout))
    assert char_at(lines, robber_cell(geometry(layout), 4)) == ROBBER_GLYPH
    assert sum(line.count(ROBBER_GLYPH) for line in lines) == 1


# ---------------------------------------------------------------------------------- pieces


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_pieces_from_real_actions_appear_with_their_owners_glyphs(layout) -> None:
    state = new_game()
    state.play(A.BuildSettlement(12))
    road0 = path(12, 8)
    state.play(A.BuildRoad(road0))
    state.play(A.BuildSettlement(29))  # seat 1
    road1 = path(29, 23)  # vertical
    state.play(A.BuildRoad(road1))
    text = render_board(state, layout)
    lines = board_lines(text)
    assert char_at(lines, node_cell(12, layout)) == "a"
    assert char_at(lines, node_cell(29, layout)) == "b"
    for p, seat in ((road0, 0), (road1, 1)):
        chars = [char_at(lines, cell) for cell in path_cells(p, layout)]
        glyph = (
            ROAD_GLYPH_VERTICAL if len({c for c, _ in path_cells(p, layout)}) == 1 else ROAD_GLYPH
        )
        assert SEAT_MARKS[seat] in chars  # the owner's mark reads without colour
        assert set(chars) <= {glyph, SEAT_MARKS[seat]}
        for cell in path_cells(p, layout):
            assert style_at(text, cell).color.triplet.hex.upper() == SEAT_COLOURS[seat]
    assert style_at(text, node_cell(12, layout)).color.triplet.hex.upper() == SEAT_COLOURS[0]
    geo = geometry(layout)
    land = {cell for cells in geo.interiors[: geo.land_hexes] for cell in cells}
    marks = [
        (c, r)
        for r, line in enumerate(lines)
        for c, ch in enumerate(line)
        if ch == "a" and (c, r) not in land
    ]
    assert len(marks) == 2  # the settlement and the road's mark


def test_city_is_the_upper_case_mark(table) -> None:
    t = table()
    t.build(2, settlements=[20], cities=[40])
    lines = board_lines(render_board(t.state, ROOMY))
    assert char_at(lines, node_cell(20, ROOMY)) == "c"
    assert char_at(lines, node_cell(40, ROOMY)) == "C"


def test_glyphs_differ_by_shape_for_monochrome() -> None:
    assert len(set(SEAT_MARKS)) == len(SEAT_MARKS) == len(SEAT_COLOURS) == 6
    pieces = set(SETTLEMENT_GLYPHS) | set(CITY_GLYPHS)
    assert len(pieces) == 12  # settlement and city differ, and every seat differs
    assert not pieces & {ROAD_GLYPH, ROAD_GLYPH_VERTICAL, ROBBER_GLYPH, "·"}
    assert not {c.lower() for c in CITY_GLYPHS} & {"l", "w", "g", "o", "r"}
    assert [seat_style(s).color.triplet.hex.upper() for s in range(6)] == [
        "#E69F00",
        "#56B4E9",
        "#009E73",
        "#CC79A7",
        "#D55E00",
        "#0072B2",
    ]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _rgb(colour: str) -> tuple[float, float, float]:
    r, g, b = (_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return r, g, b


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#RRGGBB``."""
    r, g, b = _rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of ``#RRGGBB``."""
    r, g, b = _rgb(colour)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_seats_five_and_six_read_on_dark_and_light_terminals_and_stand_apart() -> None:
    """The 5-6 player seats' colours keep WCAG's 3:1 for large text against black and white,
    every seat's colour is apart from every other's (CIE76 ΔE over 20), and the seat names
    differ."""
    from hexlan.tui.palette import SEAT_NAMES

    for seat in (4, 5):
        lum = _luminance(SEAT_COLOURS[seat])
        assert (lum + 0.05) / 0.05 >= 3.0, seat  # on a dark terminal
        assert 1.05 / (lum + 0.05) >= 3.0, seat  # on a light one
    for a in range(6):
        for b in range(a + 1, 6):
            la, lb = _lab(SEAT_COLOURS[a]), _lab(SEAT_COLOURS[b])
            assert sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5 > 20, (a, b)
    assert SEAT_NAMES == ("Orange", "Blue", "Green", "Purple", "Red", "Cobalt")


def _no_color(style) -> tuple[bool, bool, bool]:
    """What survives NO_COLOR (Textual's NoColor filter drops every colour): the attributes."""
    return bool(style.bold), bool(style.reverse), bool(style.underline)


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_board_reads_with_no_colour_at_all(layout, table) -> None:
    t = table()
    t.build(0, roads=[path(12, 8)], settlements=[12], cities=[41])
    state = t.state
    text = render_board(state, layout, kind="node", targets={20: "x", 30: "y"}, cursor=30)
    lines = board_lines(text)
    # Shapes: settlement, city and road differ in the characters themselves.
    assert char_at(lines, node_cell(12, layout)) == "a"
    assert char_at(lines, node_cell(41, layout)) == "A"
    assert {char_at(lines, c) for c in path_cells(path(12, 8), layout)} == {ROAD_GLYPH, "a"}
    # Attributes: targets reverse, the cursor also underlined, the robber a reverse block.
    assert _no_color(style_at(text, node_cell(20, layout))) == (True, True, False)
    assert _no_color(style_at(text, node_cell(30, layout))) == (True, True, True)
    robber = robber_cell(geometry(layout), state.robber)
    assert char_at(lines, robber) == ROBBER_GLYPH
    assert _no_color(style_at(text, robber))[1]
    # 6 and 8: bold with a "!" (checked with their pips in test_pips_and_red_numbers).
    assert sum(line.count("6!") + line.count("8!") for line in lines) == 4


# ---------------------------------------------------------------------------------- targets


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_target_labels_are_drawn_in_reverse_video(layout) -> None:
    state = new_game()
    nodes = {10: "a", 20: "b", 41: "cd"}
    text = render_board(state, layout, kind="node", targets=nodes, cursor=20)
    lines = board_lines(text)
    for node, label in nodes.items():
        col, row = node_cell(node, layout)
        assert lines[row][col : col + len(label)] == label
        assert style_at(text, (col, row)).reverse
    assert style_at(text, node_cell(20, layout)).underline  # the cursor
    assert not style_at(text, node_cell(10, layout)).underline

    paths = {path(12, 8): "a", path(29, 23): "b"}
    text = render_board(state, layout, kind="path", targets=paths)
    lines = board_lines(text)
    geo = geometry(layout)
    for p, label in paths.items():
        assert char_at(lines, geo.path_middle(p)) == label
        assert all(style_at(text, cell).reverse for cell in path_cells(p, layout))

    hexes = {0: "a", 18: "b"}
    text = render_board(state, layout, kind="hex", targets=hexes)
    lines = board_lines(text)
    for h, label in hexes.items():
        col, row = hex_cell(h, layout)
        band = lines[row - 1] if layout is COMPACT else lines[row - 2]
        assert band[col - 2 : col + 3].strip() == label


@pytest.mark.parametrize("layout", [COMPACT, ROOMY], ids=LAYOUT_IDS)
def test_hit_test_finds_targets_near_their_cells_only(layout) -> None:
    geo = geometry(layout)
    nodes = [0, 4, 20]
    for n in nodes:
        col, row = node_cell(n, layout)
        assert hit_test(geo, "node", nodes, col, row) == n
        assert hit_test(geo, "node", nodes, col + 1, row) == n
    hc, hr = hex_cell(9, layout)
    assert hit_test(geo, "node", nodes, hc, hr) is None
    assert hit_test(geo, "hex", [9, 0], hc + 2, hr) == 9
    assert hit_test(geo, "hex", [0], hc, hr) is None
    p = path(29, 23)
    for cell in path_cells(p, layout):
        assert hit_test(geo, "path", [p, path(12, 8)], *cell) == p


def test_step_cursor_moves_to_the_neighbour_on_screen() -> None:
    geo = geometry(ROOMY)
    everything = range(TOPO.node_count)
    # node 0 is the top of hex 0 at (-2, -8); node 1 the top of hex 1 at (0, -8).
    assert step_cursor(geo, "node", everything, 0, "right") == 1
    assert step_cursor(geo, "node", everything, 1, "left") == 0
    below = TOPO.node_xy.index((-2, -4))  # the bottom of hex 0, straight below
    assert step_cursor(geo, "node", everything, 0, "down") == below
    assert step_cursor(geo, "node", everything, 0, "up") is None  # the top coast
    assert step_cursor(geo, "node", [5, 9], None, "up") in (5, 9)


# ------------------------------------------------------------------------------ the widget


class BoardApp(App[None]):
    """A bare app hosting one BoardView, recording what it posts."""

    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state
        self.picked: list[tuple[str, int]] = []

    def compose(self) -> ComposeResult:
        yield BoardView(self.state, id="board")

    def on_board_view_picked(self, event: BoardView.Picked) -> None:
        self.picked.append((event.kind, event.target_id))


async def test_click_on_a_target_posts_picked_and_elsewhere_nothing() -> None:
    state = new_game()
    app = BoardApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        assert board.board_layout is ROOMY
        spots = [a.node for a in state.legal_actions()]
        board.set_targets("node", {n: f"{i}" for i, n in enumerate(spots)})
        await pilot.pause()
        await pilot.click(BoardView, offset=board.cell_of("node", 20))
        await pilot.pause()
        assert app.picked == [("node", 20)]
        assert board.cursor_target() == 20
        # The middle of the desert is far from every intersection: nothing is picked.
        await pilot.click(BoardView, offset=board.cell_of("hex", 9))
        await pilot.pause()
        assert app.picked == [("node", 20)]

        board.set_targets("hex", {0: "a", 18: "b"})
        await pilot.pause()
        await pilot.click(BoardView, offset=board.cell_of("hex", 18) + Offset(3, 1))
        await pilot.pause()
        assert app.picked[-1] == ("hex", 18)


async def test_arrows_move_the_cursor_and_enter_picks() -> None:
    state = new_game()
    app = BoardApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(BoardView)
        board.focus()
        board.set_targets("node", {n: str(n) for n in range(TOPO.node_count)})
        board.set_cursor(0)
        await pilot.press("right")
        assert board.cursor_target() == 1
        await pilot.press("left")
        assert board.cursor_target() == 0
        await pilot.press("down")
        assert board.cursor_target() == TOPO.node_xy.index((-2, -4))
        await pilot.press("enter")
        await pilot.pause()
        assert app.picked == [("node", TOPO.node_xy.index((-2, -4)))]
        board.clear_targets()
        await pilot.press("enter")
        await pilot.pause()
        assert len(app.picked) == 1
        assert board.cursor_target() is None


async def test_layout_follows_the_size_and_says_when_too_small() -> None:
    app = BoardApp(new_game())
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        assert board.board_layout is COMPACT
        lines = board.rendered_lines()
        assert any("O 10" in line for line in lines)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert board.board_layout is ROOMY
        assert any("O ore" in line for line in board.rendered_lines())
        await pilot.resize_terminal(60, 12)
        await pilot.pause()
        assert board.board_layout is None
        text = [line.strip() for line in board.rendered_lines() if line.strip()]
        assert text == [too_small_message()]


async def test_update_state_redraws_and_flash_fades() -> None:
    state = new_game()
    app = BoardApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        before = board.rendered_lines()
        state.play(A.BuildSettlement(12))
        board.update_state(state)
        after = board.rendered_lines()
        changed = [y for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        origin = board.cell_of("node", 12)
        assert changed == [origin.y]
        assert after[origin.y][origin.x] == "a"

        board.flash("node", [12], seconds=0.05)
        await pilot.pause()
        strip = board.render_line(origin.y)
        flashed = [
            seg.style for seg in strip if "a" in seg.text and seg.style and seg.style.underline
        ]
        assert flashed
        await pilot.pause(0.2)
        strip = board.render_line(origin.y)
        assert not [seg for seg in strip if seg.style and seg.style.underline and "a" in seg.text]


async def test_runs_under_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NO_COLOR set, Textual filters every line to monochrome: the board must survive it
    (no unstyled segments) and still show its pieces, targets and robber."""
    monkeypatch.setenv("NO_COLOR", "1")
    state = new_game()
    state.play(A.BuildSettlement(12))
    app = BoardApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        board = app.query_one(BoardView)
        board.set_targets("path", {p: "abc"[i] for i, p in enumerate(TOPO.node_paths[12])})
        board.flash("node", [12])
        await pilot.pause()
        screen = app.export_screenshot()
        assert "O 10" in "".join(board.rendered_lines())
        assert screen  # rendered through the NO_COLOR filter without error
        await pilot.resize_terminal(40, 10)
        await pilot.pause()
        assert board.board_layout is None


# ------------------------------------------------------------------ any map: the 5-6 player map

FIVE_SIX = load_map("five-six")
FIVE_TOPO = FIVE_SIX.topology
MAPS: dict[str, Topology] = {"base": TOPO, "five-six": FIVE_TOPO}
ALL_LAYOUT_IDS = [layout.name for layout in LAYOUTS]


def five_six_game(seed: int = 3) -> GameState:
    """A six-seat game on a random five-six board (two deserts: the robber on the first)."""
    board = random_board(random.Random(seed), "spiral", FIVE_SIX)
    state = GameState(board, 6, rules=load_ruleset("five-six"))
    state.play(A.StartPlayer(0))
    return state


GAMES: dict[str, Callable[[], GameState]] = {"base": new_game, "five-six": five_six_game}


def read_hex(lines: list[str], layout: Layout, geo_hex: tuple[int, int]) -> tuple[str, str]:
    """The terrain letter and the token (without its "!") drawn on a hex, per layout."""
    col, row = geo_hex
    if layout.name in ("compact", "mini"):  # "L 10" on the centre row
        letter, token = lines[row][col - 2], lines[row][col : col + 2].strip()
    elif layout.name == "medium":  # the token chip, then "L lumber" on the centre row
        letter, token = lines[row][col - 4 : col + 5].split()[0], lines[row - 1][col - 3 : col + 4]
    else:  # roomy: "L lumber" above the centre, the token on it
        letter, token = _word_at(lines[row - 1], col)[0], _word_at(lines[row], col)
    return letter, token.strip().rstrip("!")


def test_five_six_fits_the_game_screen_at_120x40_and_80x24() -> None:
    """The board area of the game screen is 76x37 at 120x40 and 50x21 at 80x24."""
    assert geometry(MEDIUM, FIVE_TOPO).size == (75, 33)
    assert geometry(MINI, FIVE_TOPO).size == (49, 17)
    assert choose_layout(76, 37, FIVE_TOPO) is MEDIUM  # roomy would need 87x47
    assert choose_layout(50, 21, FIVE_TOPO) is MINI  # compact would need 57x25
    assert geometry(COMPACT, FIVE_TOPO).size == (57, 25)
    assert choose_layout(48, 17, FIVE_TOPO) is None
    assert too_small_message(FIVE_TOPO) == "Terminal too small for the board (need 49x17)"
    # The base map keeps its layouts at both sizes.
    assert choose_layout(76, 37, TOPO) is ROOMY and choose_layout(50, 21, TOPO) is COMPACT


@pytest.mark.parametrize("layout", LAYOUTS, ids=ALL_LAYOUT_IDS)
@pytest.mark.parametrize("map_name", ["base", "five-six"])
def test_every_hex_reads_its_terrain_letter_and_token(map_name: str, layout: Layout) -> None:
    state = GAMES[map_name]()
    topo = MAPS[map_name]
    lines = board_lines(render_board(state, layout))
    geo = geometry(layout, topo)
    assert len(lines) == geo.height and {len(line) for line in lines} == {geo.width}
    for h in range(topo.hex_count):
        letter, token = read_hex(lines, layout, geo.hexes[h])
        terrain, number = state.board.terrains[h], state.board.tokens[h]
        assert (letter, token) == (terrain.letter, str(number) if number else ""), (h, layout)


@pytest.mark.parametrize("layout", LAYOUTS, ids=ALL_LAYOUT_IDS)
def test_five_six_pips_harbours_and_robber(layout: Layout) -> None:
    state = five_six_game()
    text = render_board(state, layout)
    lines = board_lines(text)
    geo = geometry(layout, FIVE_TOPO)
    for h, token in enumerate(state.board.tokens):
        col, row = geo.hexes[h]
        if layout is MINI:  # one cell of braille dots, or the "!" of 6 and 8 (five pips)
            mark = lines[row][col + 2]
            expected = "!" if token in (6, 8) else PIP_BRAILLE[PIPS[token]] if token else " "
            assert mark == expected, (h, token)
        elif token:
            pip_row = {"compact": row - 1, "medium": row + 1, "roomy": row + 1}[layout.name]
            assert lines[pip_row][col - 3 : col + 4].count("•") == PIPS[token], (h, token)
    board_text = "\n".join(lines)
    assert board_text.count("3:1") == 5  # eleven harbours: five 3:1 and six 2:1
    for word in ("2:1 L", "2:1 B", "2:1 G", "2:1 O"):
        assert board_text.count(word) == 1
    assert board_text.count("2:1 W") == 2
    assert sum(line.count(ROBBER_GLYPH) for line in lines) == 1
    robber = robber_cell(geo, state.robber)
    assert char_at(lines, robber) == ROBBER_GLYPH
    assert style_at(text, robber).reverse


@pytest.mark.parametrize("layout", LAYOUTS, ids=ALL_LAYOUT_IDS)
@pytest.mark.parametrize("map_name", ["base", "five-six"])
def test_the_sea_frame_surrounds_the_coast(map_name: str, layout: Layout) -> None:
    """The map's sea hexes fill the margins with water up to the coast, never over the land."""
    game = GAMES[map_name]()
    state = GameState(replace(game.board, harbours=()), game.players, rules=game.rules)
    topo = MAPS[map_name]
    geo = geometry(layout, topo)
    text = render_board(state, layout)
    land = {cell for cells in geo.interiors[: geo.land_hexes] for cell in cells}
    outline = set(geo.nodes) | {(c, r) for cells in geo.paths for c, r, _ in cells}
    sea = set(geo.sea)
    assert sea and not sea & land and not sea & outline
    lines = board_lines(text)
    assert {char_at(lines, cell) for cell in sea} == {" "}  # no harbours on this board
    assert {style_at(text, cell).bgcolor.triplet.hex.upper() for cell in sea} == {SEA_COLOUR}
    for p in topo.coast:  # every coastal path has water beside it
        around = {
            (c + dc, r + dr)
            for c, r in path_cells(p, layout, topo)
            for dc in (-1, 0, 1)
            for dr in (-1, 0, 1)
        }
        assert around & sea, (p, layout)
    for cells in geo.interiors[: geo.land_hexes]:  # and no land hex has any
        around = {(c + dc, r) for c, r in cells for dc in (-1, 1)}
        assert not around & sea


def assert_arrows_reach_and_clicks_hit(geo: Geometry, kind: str, targets: range) -> None:
    """From the first cursor spot among ``targets`` (ids of places of ``kind``), the four arrows
    lead to every one of them, and a click on each one's anchor cell picks it."""
    start = step_cursor(geo, kind, targets, None, "up")
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for direction in ("up", "down", "left", "right"):
            there = step_cursor(geo, kind, targets, here, direction)
            if there is not None and there not in seen:
                seen.add(there)
                todo.append(there)
    assert seen == set(targets), (kind, sorted(set(targets) - seen))
    for t in targets:
        assert hit_test(geo, kind, targets, *geo.anchor(kind, t)) == t


@pytest.mark.parametrize("layout", LAYOUTS, ids=ALL_LAYOUT_IDS)
@pytest.mark.parametrize("map_name", ["base", "five-six"])
def test_arrows_reach_every_place_and_clicks_hit_it(map_name: str, layout: Layout) -> None:
    """From the first cursor spot, the four arrows lead to every intersection, path and hex;
    a click on each one's cell picks it."""
    topo = MAPS[map_name]
    geo = geometry(layout, topo)
    counts = {"node": topo.node_count, "path": topo.path_count, "hex": topo.hex_count}
    for kind, count in counts.items():
        assert_arrows_reach_and_clicks_hit(geo, kind, range(count))


def test_mini_path_labels_stay_on_their_path_and_the_robber_keeps_the_token() -> None:
    state = five_six_game()
    geo = geometry(MINI, FIVE_TOPO)
    labels = {p: f"{chr(97 + p // 26)}{chr(97 + p % 26)}" for p in range(FIVE_TOPO.path_count)}
    lines = board_lines(render_board(state, MINI, kind="path", targets=labels))
    for p, label in labels.items():
        cells = path_cells(p, MINI, FIVE_TOPO)
        if len(cells) == 2:  # the slanted paths of the brick rows: both cells hold the label
            assert "".join(char_at(lines, cell) for cell in cells) == label
    for node in range(FIVE_TOPO.node_count):  # no label covers an intersection
        assert char_at(lines, geo.nodes[node]) == "·"
    lines = board_lines(render_board(state, MINI))
    col, row = geo.hexes[state.robber]
    assert lines[row][col - 2 : col + 2] == f"D{ROBBER_GLYPH}  "  # the desert: no token


async def test_five_six_board_in_an_app_every_hex_by_keys_and_clicks() -> None:
    """At 120x40 (medium) and 80x24 (mini): the arrows reach all 30 hexes, and a click inside a
    hex, away from its centre, picks that hex.

    The walk is planned with :func:`step_cursor` on the layout's geometry (every hex first
    reached by one arrow from a hex already reached), and each of its 29 steps is a key pressed
    in the app that must land where the plan says: every hex is reached by a real key press,
    without pressing all four arrows on every hex (test_arrows_reach_every_place_and_clicks_hit_it
    tries those on the geometry)."""
    state = five_six_game()
    app = BoardApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(BoardView)
        for size, layout in (((120, 40), MEDIUM), ((80, 24), MINI)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert board.board_layout is layout
            geo = geometry(layout, FIVE_TOPO)
            hexes = range(FIVE_TOPO.hex_count)
            board.set_targets("hex", {h: f"{h:02}" for h in hexes})
            board.focus()
            await pilot.pause()
            start = board.cursor_target()
            assert start is not None
            seen, todo = {start}, [start]
            while todo:
                here = todo.pop()
                for key in ("up", "down", "left", "right"):
                    there = step_cursor(geo, "hex", hexes, here, key)
                    if there is None or there in seen:
                        continue
                    board.set_cursor(here)
                    await pilot.press(key)
                    assert board.cursor_target() == there, (layout, here, key)
                    seen.add(there)
                    todo.append(there)
            assert seen == set(hexes)
            for h in (0, 2, 12, 17, 27, 29):  # corners and both ends of the long row
                centre = board.cell_of("hex", h)
                col, row = geo.hexes[h]
                inside = next(
                    (c, r) for c, r in geo.interiors[h] if (c, r) != (col, row) and c < col
                )
                offset = centre + Offset(inside[0] - col, inside[1] - row)
                await pilot.click(BoardView, offset=offset)
                await pilot.pause()
                assert app.picked[-1] == ("hex", h)
                assert board.cursor_target() == h
            board.clear_targets()


# ------------------------------------------------------------------ Seafarers: ships, pirate, sea

SEA_RULES = load_ruleset("seafarers-new-shores")
SEA_MAP = load_map("seafarers-new-shores")
SEA_TOPO = SEA_MAP.topology


def sea_game() -> GameState:
    """New Shores on its beginner board, at the first set-up settlement."""
    state = GameState(beginner_board(SEA_MAP), 4, rules=SEA_RULES)
    state.play(A.StartPlayer(0))
    return state


def test_ship_maps_fit_the_game_screen_at_80x24_and_120x40() -> None:
    """The sea frame is the board's edge: New Shores is compact in the 76x37 board area at
    120x40 and mini in 54 columns (the side panels narrow to 26 at 80x24); every Seafarers map
    fits the same (Pirate Islands too: 51 x 19 mini, 67 x 29 compact)."""
    for game in (
        "seafarers-new-shores",
        "seafarers-four-islands",
        "seafarers-through-the-desert-3",
        "seafarers-pirate-islands",
    ):
        topo = load_map(game).topology
        assert choose_layout(76, 37, topo) is COMPACT
        assert geometry(MINI, topo).width <= 54 and geometry(MINI, topo).height <= 21
    assert geometry(MINI, SEA_TOPO).size == (54, 19)
    assert choose_layout(54, 21, SEA_TOPO) is MINI
    # Through the Desert: mini in 57 columns, beside side panels at their narrowest (23).
    desert = load_map("seafarers-through-the-desert").topology
    assert choose_layout(76, 37, desert) is COMPACT
    assert geometry(MINI, desert).size == (57, 19) and choose_layout(57, 21, desert) is MINI
    # The 5-6 player maps: whole in mini at 120x40; at 80x24 as tall as the board area (21
    # rows), and panned across it (BoardView).
    for game in SIX_SEA_MAPS:
        topo = load_map(game).topology
        assert choose_layout(76, 37, topo) is not None
        assert 57 < geometry(MINI, topo).width <= 76 and geometry(MINI, topo).height <= 21


SIX_SEA_MAPS = (
    "seafarers-through-the-desert-6",
    "seafarers-new-shores-6",
    "seafarers-four-islands-6",
    "seafarers-fog-island-6",
)


@pytest.mark.parametrize("game", ["seafarers-through-the-desert-6", "seafarers-fog-island-6"])
async def test_a_board_too_wide_is_panned_round_the_cursor(game: str) -> None:
    """A 5-6 player Seafarers map in a board area narrower than its mini layout (57 columns,
    as at 80x24): drawn in mini and panned, the cursor always on screen, whether set or moved
    by the arrows right across the map and back; a click on it picks it; arrows at the top
    corners show where the board runs on."""
    rules = load_ruleset(game)
    board_map = load_map(rules.board)
    state = GameState(random_board(random.Random(0), "spiral", board_map), 6, rules=rules)
    topo = state.board.topology
    app = BoardApp(state)
    async with app.run_test(size=(57, 21)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        assert board.board_layout is MINI and board.is_panned

        def on_screen(h: int) -> bool:
            cell = board.cell_of("hex", h)
            return cell is not None and 0 <= cell.x < 57 and 0 <= cell.y < 21

        board.set_targets("hex", {h: f"{h:02}" for h in range(topo.hex_count)})
        board.focus()
        for h in range(topo.hex_count):
            board.set_cursor(h)
            assert on_screen(h), h
        west = min(range(topo.hex_count), key=lambda h: topo.hex_centres[h])
        board.set_cursor(west)
        for key in ("right", "left"):
            moved = []
            while True:
                await pilot.press(key)
                here = board.cursor_target()
                assert here is not None and on_screen(here)
                if moved and moved[-1] == here:
                    break
                moved.append(here)
            assert len(moved) > 4
        marks = set()
        for h in (west, max(range(topo.hex_count), key=lambda h: topo.hex_centres[h])):
            board.set_cursor(h)
            await pilot.pause()
            await pilot.click(BoardView, offset=board.cell_of("hex", h))
            await pilot.pause()
            assert app.picked[-1] == ("hex", h)
            top = next(line for line in board.rendered_lines() if line.strip())
            marks.add((top[0], top[-1]))
        assert marks == {(" ", "▸"), ("◂", " ")}


@pytest.mark.parametrize("layout", [COMPACT, MINI], ids=["compact", "mini"])
def test_a_ship_differs_from_a_road_and_the_pirate_sits_on_its_sea_hex(layout: Layout) -> None:
    """A road is ``=`` with the bold mark; a ship ``~`` on the water with the mark underlined
    (so a one-cell ship reads apart from a road without colour); the pirate a reverse ``P`` in
    the middle of its sea hex."""
    state = sea_game()
    topo = SEA_TOPO
    node = next(  # on the coast, with a path inland
        n
        for n in range(topo.land_node_count)
        if A.BuildSettlement(n) in state.legal_actions()
        and any(topo.path_sea[p] for p in topo.node_ship_paths[n])
        and any(not topo.path_sea[p] for p in topo.node_paths[n])
    )
    state.play(A.BuildSettlement(node))
    ship = next(a for a in state.legal_actions() if isinstance(a, BuildShip))
    road = next(
        a for a in state.legal_actions() if isinstance(a, A.BuildRoad) and a.path != ship.path
    )
    sea(state).ship_owner[ship.path] = state.path_owner[ship.path] = 0  # both drawn at once
    state.path_owner[road.path] = 0
    text = render_board(state, layout)
    lines = board_lines(text)
    geo = geometry(layout, topo)
    mid_ship, mid_road = geo.path_middle(ship.path), geo.path_middle(road.path)
    assert char_at(lines, mid_ship) == char_at(lines, mid_road) == "a"
    assert style_at(text, mid_ship).underline and not style_at(text, mid_road).underline
    assert style_at(text, mid_ship).bgcolor.triplet.hex.upper() == SEA_COLOUR
    for cell in path_cells(ship.path, layout, topo):
        assert char_at(lines, cell) in ("a", "~", "≀")
    for cell in path_cells(road.path, layout, topo):
        assert char_at(lines, cell) in ("a", "=", "‖")
    col, row = geo.hexes[sea(state).pirate]
    assert geo.is_sea(sea(state).pirate)
    assert lines[row][col - 1 : col + 2] == " P " and style_at(text, (col, row)).reverse
    assert sum(line.count("P") for line in lines) == 1


@pytest.mark.parametrize("layout", [COMPACT, MINI], ids=["compact", "mini"])
def test_every_sea_path_and_sea_hex_is_reached_by_arrows_and_clicks(layout: Layout) -> None:
    """The pirate's hexes (sea ids after the land ones) and every path of a map for ships: a
    click on each picks it, the arrows reach each from the first cursor spot (the one-cell
    paths out at sea too), a sea hex's label sits in its middle."""
    geo = geometry(layout, SEA_TOPO)
    sea_hexes = range(SEA_TOPO.hex_count, SEA_TOPO.hex_count + len(SEA_TOPO.sea_axial))
    for kind, targets in (("hex", sea_hexes), ("path", range(SEA_TOPO.path_count))):
        assert_arrows_reach_and_clicks_hit(geo, kind, targets)
    state = sea_game()
    labels = {h: f"{h - SEA_TOPO.hex_count:02}" for h in sea_hexes if h != sea(state).pirate}
    lines = board_lines(render_board(state, layout, kind="hex", targets=labels))
    for h, label in labels.items():
        col, row = geo.hexes[h]
        assert lines[row][col : col + 2] == label
        assert all(0 <= c < geo.width for c, _ in geo.interiors[h])


def test_harbour_labels_on_a_ship_map_cover_no_path() -> None:
    """Harbours lie inside the sea frame: their labels keep off every path and corner."""
    state = sea_game()
    for layout in LAYOUTS:
        geo = geometry(layout, SEA_TOPO)
        lines = board_lines(render_board(state, layout))
        for p, cells in enumerate(geo.paths):
            for c, r, ch in cells:
                assert lines[r][c] == ch, (layout.name, p)


@pytest.mark.parametrize("layout", [COMPACT, MINI], ids=["compact", "mini"])
def test_pirate_islands_shows_fortresses_the_fleets_circle_and_warships(layout: Layout) -> None:
    """Pirate Islands (seed 004): each fortress is its chits left, in reverse video, on its
    intersection; the fleet is the reverse ``P`` and every other hex of its circle a dim ``∘``;
    a warship is drawn ``≈`` where a plain ship is ``~``."""
    rules = load_ruleset("seafarers-pirate-islands")
    board_map = load_map(rules.board)
    state = GameState(random_board(random.Random(0), "spiral", board_map), 4, rules=rules)
    variant = state.variant
    assert isinstance(variant, PirateIslands)
    fleet(state).fortress_chits[2] = 1
    fleet(state).warships[1] = 1
    text = render_board(state, layout)
    lines = board_lines(text)
    geo = geometry(layout, board_map.topology)
    for seat, slot in enumerate(variant.slots):
        cell = geo.nodes[slot.fortress]
        assert char_at(lines, cell) == ("1" if seat == 2 else "3")
        assert style_at(text, cell).reverse
    for h in variant.fleet_path:
        col, row = geo.hexes[h]
        if h != sea(state).pirate:
            assert FLEET_PATH_GLYPH in lines[row][col - 2 : col + 3]
    assert sum(line.count("P") for line in lines) == 1
    warship = path_cells(variant.slots[1].ship, layout, board_map.topology)
    plain = path_cells(variant.slots[0].ship, layout, board_map.topology)
    assert any(char_at(lines, c) == WARSHIP_GLYPH for c in warship)
    assert not any(char_at(lines, c) == WARSHIP_GLYPH for c in plain)
