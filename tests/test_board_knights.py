"""Cities & Knights on the board (tui/board_knights.py): knights by level and state, walls and
metropolises read without colour: a digit per level, reverse video when active, underline when
not; ``#`` beside a walled city, the track's letter beside a metropolis."""

from __future__ import annotations

from hexlan.chance import SeededChance
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.tui.board_knights import KNIGHT_GLYPHS, METROPOLIS_GLYPHS, WALL_GLYPH
from hexlan.tui.board_render import LAYOUTS, geometry, render_canvas

RULES = load_ruleset("cities-and-knights")


def a_state() -> GameState:
    chance = SeededChance(1)
    return GameState(chance.board("beginner", board_map=load_map(RULES.board)), 4, rules=RULES)


def test_knights_read_by_level_and_state_in_every_layout() -> None:
    state = a_state()
    progress = progress_of(state)
    knights = {3: Knight(0, 1), 10: Knight(1, 2, active=True), 30: Knight(2, 3)}
    progress.knights.update(knights)
    for layout in LAYOUTS:
        canvas = render_canvas(state, layout)
        nodes = geometry(layout, state.board.topology).nodes
        for node, knight in knights.items():
            col, row = nodes[node]
            assert canvas.chars[row][col] == KNIGHT_GLYPHS[knight.level], layout.name
            style = canvas.styles[row][col]
            assert style is not None
            assert (
                bool(style.reverse) is knight.active and bool(style.underline) is not knight.active
            )


def test_a_wall_and_a_metropolis_are_marked_beside_their_city() -> None:
    state = a_state()
    progress = progress_of(state)
    node = 20
    state.node_owner[node], state.node_level[node] = 1, 2
    state.cities[1].append(node)
    progress.walls[1].append(node)
    progress.metropolis[2], progress.metropolis_seat[2] = node, 1
    for layout in LAYOUTS:
        canvas = render_canvas(state, layout)
        col, row = geometry(layout, state.board.topology).nodes[node]
        assert canvas.chars[row][col] == "B"  # the city stays
        style = canvas.styles[row][col]
        assert style is not None
        left, right = canvas.chars[row][col - 1], canvas.chars[row][col + 1]
        assert left == WALL_GLYPH or style.underline, layout.name
        assert right == METROPOLIS_GLYPHS[2] or style.overline, layout.name
