"""Cities & Knights on the board (seed 002 «Города и рыцари»): knights, city walls and
metropolises, drawn over the pieces :mod:`hexlan.tui.board_render` draws (the game's
:class:`~hexlan.tui.board_render.BoardLayers`; its spec names this module among its ``views``).

Every fact has a glyph or an attribute as well as a colour, so the board reads in monochrome:

- a **knight** is its level's digit (``1`` basic, ``2`` strong, ``3`` mighty) on its intersection
  in its seat's colour: **active** in reverse video (a solid block), inactive underlined; the
  seat's mark (``a``) is written in the cell to its right when that cell is an empty part of a
  hex, so the owner reads without colour too;
- a **walled city** is the city's glyph (``A``) with a ``#`` in the cell to its left where
  that is empty (else the city alone is underlined);
- a **metropolis** is the city's glyph with the track's letter (``T`` trade, ``P`` politics,
  ``S`` science) in the cell to its right, in the seat's colour, reversed;
- the **merchant** is a reverse ``M`` in its holder's colour on an empty cell of its hex, beside
  the middle (drawn after the robber, so both show).
"""

from __future__ import annotations

from typing import Final

from rich.style import Style

from hexlan.engine.variants.cities_knights import CitiesKnights
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.tui import board_render as R
from hexlan.tui.board_render import LAYERS, BoardLayers, BoardState, Canvas, Geometry

KNIGHT_GLYPHS: Final = ("", "1", "2", "3")
"""A knight's glyph by level: its strength against the barbarians."""
WALL_GLYPH: Final = "#"
"""Beside a city with a wall."""
METROPOLIS_GLYPHS: Final = ("T", "P", "S")
"""Beside a metropolis: its track's letter (trade, politics, science)."""
MERCHANT_GLYPH: Final = "M"
"""The merchant piece (the Merchant progress card)."""


def progress_on(state: BoardState) -> Progress | None:
    """The Cities & Knights progress a state carries (None in any other game)."""
    if not isinstance(getattr(state, "variant", None), CitiesKnights):
        return None
    progress = getattr(state, "variant_state", None)
    return progress if isinstance(progress, Progress) else None


def draw_knights(canvas: Canvas, geo: Geometry, state: BoardState) -> None:
    """Knights, walls and metropolises (module docstring); nothing outside Cities & Knights."""
    progress = progress_on(state)
    if progress is None:
        return
    for node, knight in progress.knights.items():
        col, row = geo.nodes[node]
        colour = R.seat_colour(knight.seat)
        style = Style(color=colour, bold=True)
        style += Style(reverse=True) if knight.active else Style(underline=True)
        canvas.put(col, row, KNIGHT_GLYPHS[knight.level], style)
        _beside(canvas, col + 1, row, R.seat_mark(knight.seat), Style(color=colour, bold=True))
    owners = state.node_owner
    for seat, walls in enumerate(progress.walls):
        for node in walls:
            col, row = geo.nodes[node]
            style = Style(color=R.seat_colour(seat), bold=True)
            if not _beside(canvas, col - 1, row, WALL_GLYPH, style):
                canvas.restyle(col, row, Style(underline=True))
    for track, node in enumerate(progress.metropolis):
        if node < 0:
            continue
        col, row = geo.nodes[node]
        style = Style(color=R.seat_colour(owners[node]), bold=True, reverse=True)
        if not _beside(canvas, col + 1, row, METROPOLIS_GLYPHS[track], style):
            canvas.restyle(col, row, Style(overline=True, underline=True))


def draw_merchant(canvas: Canvas, geo: Geometry, state: BoardState) -> None:
    """The merchant on its hex (module docstring); nothing when it is not on the board."""
    progress = progress_on(state)
    if progress is None or progress.board.merchant < 0:
        return
    hex_id, seat = progress.board.merchant, progress.board.merchant_seat
    col, row = geo.hexes[hex_id]
    free = [(c, r) for c, r in geo.interiors[hex_id] if canvas.chars[r][c] == " "]
    if not free:
        return
    spot = min(free, key=lambda cell: (abs(cell[1] - row), abs(cell[0] - col - 3)))
    style = Style(color=R.seat_colour(seat), bold=True, reverse=True)
    _beside(canvas, *spot, MERCHANT_GLYPH, style)


def _beside(canvas: Canvas, col: int, row: int, glyph: str, style: Style) -> bool:
    """Write ``glyph`` at a cell that holds nothing yet but a hex's fill (keeping the fill's
    background); False when the cell holds anything else or is off the canvas."""
    if not (0 <= row < canvas.height and 0 <= col < canvas.width):
        return False
    if canvas.chars[row][col] != " ":
        return False
    old = canvas.styles[row][col]
    canvas.put(col, row, glyph, style if old is None else old + style)
    return True


LAYERS.register(CitiesKnights)(BoardLayers(pieces=draw_knights, tops=draw_merchant))
