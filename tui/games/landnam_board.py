"""Landnám's board on screen (../shared/landnam-rules.md §2-§3, §14; /work/shared/UI.md): the hex
field as explored so far, drawn with the generic board's geometry and canvas
(:mod:`hexlan.tui.board_render`), and the widget that picks a hex or a corner on it.

The field's positions are a map's land hexes (the same reading order as the engine's numbers),
its rim the map's sea ring, so the lattice, the cells, the clicks and the cursor steps are the
generic board's; a Landnám corner is the map intersection at the same lattice point.

On a hex: an unexplored position is a dim ``?``; an explored one its terrain's colour and
letter (G grain field, T timber woodland, W wool pasture, I iron bog, M mountain, ~ sea), its
number marker (2-6 green, 8-12 red: markers 2-6 improve with age) with its pips, a harbour's
resource letter and ``2:1`` on a sea hex, a unit as its owner's mark after ``≈`` (ship) or ``♟``
(settler), in its colour, and a red ``×n`` for its red tokens. Farms are the owner's mark at a
corner, towns its capital. The outer sea is the rim; its units are listed under the board.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Final

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from hexlan.engine.board import PIPS
from hexlan.engine.core import Terrain
from hexlan.engine.topology import CORNER_OFFSETS, Topology, build_topology
from hexlan.engine.variants.landnam.board import OUTER, LandnamBoard
from hexlan.engine.variants.landnam.rules import UNEXPLORED, Land
from hexlan.engine.variants.landnam.state import LandnamState
from hexlan.i18n import N_, _, pgettext
from hexlan.net.tellers.landnam import TERRAIN_LETTERS
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.board_render import (
    LAYOUTS,
    PIP_BRAILLE,
    PIP_GLYPH,
    TERRAIN_COLOURS,
    Canvas,
    Direction,
    Geometry,
    Layout,
    TargetKind,
    canvas_lines,
    geometry,
    hit_test,
    piece_glyph,
    piece_style,
    seat_mark,
    step_cursor,
)

SHIP_GLYPH: Final = "≈"
SETTLER_GLYPH: Final = "♟"
OUTLAW_GLYPH: Final = "×"
UNKNOWN_GLYPH: Final = "?"
FLASH_SECONDS: Final = 1.5
"""How long a bot's move stays highlighted."""
SIDE_ROOM: Final = 25
"""Columns the board leaves beside it for the side column."""

_LOOK: Final = {
    Land.SEA: Terrain.SEA,
    Land.FIELD: Terrain.FIELDS,
    Land.WOODLAND: Terrain.FOREST,
    Land.PASTURE: Terrain.PASTURE,
    Land.BOG: Terrain.HILLS,
    Land.MOUNTAIN: Terrain.MOUNTAINS,
}
"""Each terrain drawn in the colour of the Catan terrain nearest it (a bog's iron in the hills'
brown-red)."""
_DARK: Final = frozenset({Land.FIELD, Land.PASTURE})
_FILL: Final = {
    land: Style(bgcolor=TERRAIN_COLOURS[terrain], color="#000000" if land in _DARK else "#FFFFFF")
    for land, terrain in _LOOK.items()
}
_UNKNOWN: Final = Style(color="#8A8A8A", dim=True)
_RIM: Final = Style(bgcolor="#1E4A6B", color="#FFFFFF")
_GREEN: Final = Style(bgcolor="#1B7F3B", color="#FFFFFF", bold=True)
_RED: Final = Style(bgcolor="#C4161C", color="#FFFFFF", bold=True)
_HARBOUR: Final = Style(color="#FFFFFF", bgcolor="#0A1F33", bold=True)
_OUTLAW: Final = Style(color="#FFFFFF", bgcolor="#C4161C", bold=True)
_OUTLINE: Final = Style(color="#8A8A8A")
_FLASH: Final = Style(reverse=True, bold=True)
_TARGET: Final = Style(color="#FFFFFF", bold=True, reverse=True)
_CURSOR: Final = Style(color="#FFD700", bold=True, reverse=True, underline=True)


@dataclass(frozen=True, slots=True)
class FieldMap:
    """A Landnám board as a map the generic board draws.

    Attributes:
        topology: the field's positions as land hexes, its rim as the sea ring.
        corner_node: each Landnám corner's intersection in ``topology``.
        node_corner: each intersection's Landnám corner.
    """

    topology: Topology
    corner_node: tuple[int, ...]
    node_corner: tuple[int, ...]


@cache
def field_map(board: LandnamBoard) -> FieldMap:
    """The :class:`FieldMap` of ``board`` (cached per board).

    >>> from hexlan.engine.variants.landnam.board import landnam_board
    >>> m = field_map(landnam_board())
    >>> len(m.topology.axial), len(m.topology.sea_axial), len(m.corner_node)
    (19, 18, 54)
    """
    ring = board.radius + 1
    sea = [
        (q, r)
        for q in range(-ring, ring + 1)
        for r in range(-ring, ring + 1)
        if max(abs(q), abs(r), abs(q + r)) == ring
    ]
    topology = build_topology(board.coords, sea, name=f"landnam-{board.radius}")
    index = {xy: n for n, xy in enumerate(topology.node_xy)}
    corner_node = [0] * len(board.corner_hexes)
    for position, corners in enumerate(board.corners):
        q, r = board.coords[position]
        for k, corner in enumerate(corners):
            dx, dy = CORNER_OFFSETS[k]
            corner_node[corner] = index[(2 * q + r + dx, 3 * r + dy)]
    node_corner = [0] * len(topology.node_xy)
    for corner, node in enumerate(corner_node):
        node_corner[node] = corner
    return FieldMap(topology, tuple(corner_node), tuple(node_corner))


def choose_layout(width: int, height: int, board: LandnamBoard) -> Layout | None:
    """The largest layout whose board (and its outer-sea line) fits, or None."""
    topology = field_map(board).topology
    for layout in LAYOUTS:
        w, h = geometry(layout, topology).size
        if w <= width and h + 1 <= height:
            return layout
    return None


def marker_style(value: int) -> Style:
    """A number marker's chip: green for 2-6 (they improve with age), red for 8-12."""
    return _GREEN if value < 7 else _RED


def marker_text(value: int) -> Text:
    """A number marker with its pips, for panels: ``"6•••••"``."""
    return Text(f"{value:>2}", marker_style(value)) + Text(PIP_GLYPH * PIPS[value])


Parts = list[tuple[str, Style]]
"""Text as runs of one style, to write on a canvas."""


def unit_parts(owner: int, ship: bool, tokens: int = 0) -> Parts:
    """A unit as drawn: ``≈a`` a ship, ``♟a`` a settler, then ``×n`` for its red tokens."""
    parts = [(f"{SHIP_GLYPH if ship else SETTLER_GLYPH}{seat_mark(owner)}", piece_style(owner))]
    if tokens:
        parts.append((f"{OUTLAW_GLYPH}{tokens}", _OUTLAW))
    return parts


def unit_text(owner: int, ship: bool, tokens: int = 0) -> Text:
    """:func:`unit_parts` as rich text, for panels."""
    return Text.assemble(*unit_parts(owner, ship, tokens))


def _centred(canvas: Canvas, col: int, row: int, parts: Parts) -> None:
    start = col - (sum(len(t) for t, _ in parts) - 1) // 2
    for text, style in parts:
        canvas.put(start, row, text, style)
        start += len(text)


def _draw_hex(canvas: Canvas, geo: Geometry, state: LandnamState, p: int) -> None:
    col, row = geo.hexes[p]
    terrain = state.terrain[p]
    if terrain == UNEXPLORED:
        canvas.put(col, row, UNKNOWN_GLYPH, _UNKNOWN + Style(bold=True))
        return
    land = Land(terrain)
    fill = _FILL[land]
    for c, r in geo.interiors[p]:
        canvas.put(c, r, " ", fill)
    parts = _hex_parts(state, p, fill, geo.layout.name, state.occupant(p) >= 0)
    for offset, line in parts.items():
        _centred(canvas, col, row + offset, line)


KIND_WORDS: Final = (N_("grain"), N_("timber"), N_("wool"), N_("iron"))
"""The four resources' words in hand order, as the engine's ``KIND_NAMES`` (English; shown
translated by :func:`kind_words`)."""


def kind_words(kind: int) -> str:
    """Resource ``kind`` (0-3: grain, timber, wool, iron) in the language in force."""
    return _(KIND_WORDS[kind])


def _hex_word(land: Land) -> str:
    """The word a roomy hex shows: its resource, else "mtn" or "sea" (abbreviated to fit)."""
    if land.produces:
        return kind_words(land.kind)
    return pgettext("hex", "mtn") if land == Land.MOUNTAIN else pgettext("hex", "sea")


def _hex_parts(
    state: LandnamState, p: int, fill: Style, layout: str, occupied: bool
) -> dict[int, Parts]:
    """What a hex shows, by row from its centre: its letter (and word, roomy), its number
    marker, its pips (in the mini and compact layouts beside the letter when a unit takes the
    centre row), a harbour; the unit goes on the row below the centre (roomy) or on it."""
    land = Land(state.terrain[p])
    letter = TERRAIN_LETTERS[land]
    bold = fill + Style(bold=True)
    number = state.numbers[p]
    harbour = state.harbours[p]
    harbour_part = (f"{TERRAIN_LETTERS[Land(harbour + 1)]}2:1", _HARBOUR) if harbour >= 0 else None
    if layout in ("roomy", "medium"):
        word = _hex_word(land)
        rows: dict[int, Parts] = {-2 if layout == "roomy" else -1: [(f"{letter} {word}", bold)]}
        if number:
            rows[-1 if layout == "roomy" else 0] = [(f" {number} ", marker_style(number))]
            if layout == "roomy":
                rows[0] = [(PIP_GLYPH * PIPS[number], fill)]
        if harbour_part is not None:
            rows[-1 if layout == "roomy" else 0] = [harbour_part]
        return rows
    top: Parts = [(letter, bold)]
    if number:
        top += [(" ", fill), (str(number), marker_style(number))]
        if occupied or layout == "mini":
            top.append((PIP_BRAILLE[PIPS[number]], fill))
    if harbour_part is not None:
        top.append(harbour_part)
    if layout == "mini":  # one row: the unit takes the number's place
        return {0: top if not occupied else [(letter, bold)]}
    rows = {-1: top}
    if number and not occupied:
        rows[0] = [(PIP_GLYPH * PIPS[number], fill)]
    return rows


def _draw_units(canvas: Canvas, geo: Geometry, state: LandnamState) -> None:
    below = 1 if geo.layout.name in ("roomy", "medium") else 0
    for unit in state.units:
        if unit is None or unit.at == OUTER:
            continue
        col, row = geo.hexes[unit.at]
        parts = unit_parts(unit.owner, unit.ship, len(unit.tokens))
        if geo.layout.name == "mini":
            canvas.put(col, row, "".join(t for t, _ in parts)[:3], parts[-1][1])
            continue
        _centred(canvas, col, row + below, parts)


def _draw_houses(canvas: Canvas, geo: Geometry, state: LandnamState, fmap: FieldMap) -> None:
    for corner, (owner, town) in state.buildings.items():
        c, r = geo.nodes[fmap.corner_node[corner]]
        style = piece_style(owner) + Style(reverse=town)
        canvas.put(c, r, piece_glyph(owner, 2 if town else 1), style)


def _draw_rim(canvas: Canvas, geo: Geometry) -> None:
    for h in range(geo.land_hexes, len(geo.hexes)):
        for c, r in geo.interiors[h]:
            if canvas.is_blank(c, r):
                canvas.put(c, r, " ", _RIM)
    for c, r in geo.sea:
        if canvas.is_blank(c, r):
            canvas.put(c, r, " ", _RIM)


def _draw_targets(
    canvas: Canvas,
    geo: Geometry,
    kind: TargetKind,
    targets: Mapping[int, str],
    cursor: int | None,
) -> None:
    for target, label in targets.items():
        style = _CURSOR if target == cursor else _TARGET
        col, row = geo.anchor(kind, target)
        if kind == "hex":
            for c, r in geo.interiors[target]:
                canvas.restyle(c, r, Style(underline=True))
            cols = [c for c, r in geo.interiors[target] if r == row and c >= 0]
            col = min(cols, default=col)
        canvas.put(col, row, label, style)


def render_field(
    state: LandnamState,
    layout: Layout,
    *,
    kind: TargetKind | None = None,
    targets: Mapping[int, str] | None = None,
    cursor: int | None = None,
    flash: Collection[int] = (),
) -> Canvas:
    """The board drawn on a canvas: hexes, rim, houses, units, then the targets' labels.

    Args:
        state: a view of the game (only the board's public facts are read).
        layout: one of the generic board's layouts.
        kind: what ``targets`` are: map hex ids ("hex": positions, rim hexes for the outer
            sea) or map intersections ("node").
        targets: the places to light up, each with its short label.
        cursor: the target under the cursor.
        flash: positions to highlight briefly (a bot's last move).
    """
    fmap = field_map(state.board)
    geo = geometry(layout, fmap.topology)
    canvas = Canvas(geo.width, geo.height)
    for cells in geo.paths:
        for c, r, char in cells:
            canvas.put(c, r, char, _OUTLINE)
    for c, r in geo.nodes:
        canvas.put(c, r, "·", _OUTLINE)
    for p in range(state.board.size):
        _draw_hex(canvas, geo, state, p)
    _draw_rim(canvas, geo)
    _draw_houses(canvas, geo, state, fmap)
    _draw_units(canvas, geo, state)
    for position in flash:
        if position != OUTER:
            for c, r in geo.interiors[position]:
                canvas.restyle(c, r, _FLASH)
    if kind is not None and targets:
        _draw_targets(canvas, geo, kind, targets, cursor)
    return canvas


def outer_line(state: LandnamState) -> Text:
    """The units in the outer sea, in a line: ``"Outer sea: ≈a ≈b"``."""
    text = Text(_("Outer sea:") + " ", Style(bold=True))
    found = [u for u in state.units if u is not None and u.at == OUTER]
    for unit in found:
        text += unit_text(unit.owner, unit.ship, len(unit.tokens)) + Text(" ")
    if not found:
        text.append(_("no units"), Style(dim=True))
    return text


class FieldView(Widget, can_focus=True):
    """The board: draws a view, lights up a pick's targets with their labels, and picks one by
    its typed label, the arrows and Enter, or a click; Esc cancels.

    Messages: :class:`FieldView.Picked` (a target chosen), :class:`FieldView.Cancelled`.
    """

    DEFAULT_CSS = """
    FieldView { width: auto; height: 1fr; }
    FieldView:focus { background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor('up')", show=False),
        Binding("down", "cursor('down')", show=False),
        Binding("left", "cursor('left')", show=False),
        Binding("right", "cursor('right')", show=False),
        Binding("enter", "choose", N_("Pick"), show=False),
        Binding("escape", "cancel", N_("Cancel"), show=False),
    ]

    class Picked(Message):
        """A place was picked: ``index`` is its index in the places offered."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Cancelled(Message):
        """The pick was cancelled."""

    def __init__(self, state: LandnamState, id: str | None = None) -> None:
        super().__init__(id=id)
        translate_bindings(self)
        self.state = state
        self.kind: TargetKind | None = None
        self.places: list[int] = []
        self.place_labels: list[str] = []
        self.targets: dict[int, str] = {}
        self._index: dict[int, int] = {}
        self.cursor: int | None = None
        self.typed = ""
        self.flashed: tuple[int, ...] = ()

    def show(self, state: LandnamState) -> None:
        """Draw ``state`` (the view after an event)."""
        self.state = state
        self.refresh()

    def flash(self, positions: Sequence[int], seconds: float = FLASH_SECONDS) -> None:
        """Highlight ``positions`` for ``seconds`` (a bot's move, so the eye finds it)."""
        self.flashed = tuple(positions)
        self.refresh()
        self.set_timer(seconds, self._unflash)

    def _unflash(self) -> None:
        self.flashed = ()
        self.refresh()

    def offer(self, kind: TargetKind, places: Sequence[int], names: Sequence[str]) -> None:
        """Light up ``places`` for a pick, each with its label in ``names``: positions (the
        outer sea, :data:`OUTER`, on the rim) for "hex", Landnám corners for "node". A pick
        posts the place's index in ``places``."""
        self.kind, self.places, self.place_labels = kind, list(places), list(names)
        self.cursor, self.typed = None, ""
        self._retarget()
        self.refresh()

    def clear(self) -> None:
        """End the pick: no target lit."""
        self.kind, self.places, self.place_labels = None, [], []
        self.targets, self._index, self.cursor, self.typed = {}, {}, None, ""
        self.refresh()

    def _retarget(self) -> None:
        """The map ids of the places in the current layout (the rim hexes in view stand for
        the outer sea, one a place)."""
        geo = self._geo()
        self.targets, self._index = {}, {}
        if geo is None or self.kind is None:
            return
        fmap = field_map(self.state.board)
        rim = iter(rim_in_view(geo))
        for i, (place, label) in enumerate(zip(self.places, self.place_labels, strict=True)):
            if self.kind == "node":
                target = fmap.corner_node[place]
            else:
                target = next(rim, -1) if place == OUTER else place
            if target >= 0:
                self.targets[target] = label
                self._index[target] = i

    def on_resize(self, event: events.Resize) -> None:
        """Another layout: the targets move."""
        self._retarget()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the largest layout that fits beside the side column's least width."""
        room = container.width - SIDE_ROOM
        layout = choose_layout(room, container.height, self.state.board)
        if layout is None:
            return max(room, 1)
        return geometry(layout, field_map(self.state.board).topology).width

    @property
    def layout_now(self) -> Layout | None:
        """The layout the widget's size allows, or None when the board does not fit."""
        return choose_layout(self.size.width, self.size.height, self.state.board)

    def render(self) -> RenderableType:
        """The board, its outer-sea line, or a note that the terminal is too small."""
        layout = self.layout_now
        if layout is None:
            return Text(_("Terminal too small for the board: enlarge it"), Style(bold=True))
        canvas = render_field(
            self.state,
            layout,
            kind=self.kind,
            targets=self.targets,
            cursor=self.cursor,
            flash=self.flashed,
        )
        return Text("\n").join([*canvas_lines(canvas), outer_line(self.state)])

    def _geo(self) -> Geometry | None:
        layout = self.layout_now
        if layout is None:
            return None
        return geometry(layout, field_map(self.state.board).topology)

    def action_cursor(self, direction: Direction) -> None:
        """Move the cursor among the targets."""
        geo = self._geo()
        if geo is None or self.kind is None or not self.targets:
            return
        self.cursor = step_cursor(geo, self.kind, self.targets, self.cursor, direction)
        if self.cursor is None:
            self.cursor = next(iter(self.targets))
        self.refresh()

    def action_choose(self) -> None:
        """Pick the target under the cursor."""
        if self.cursor is not None and self.cursor in self.targets:
            self.post_message(self.Picked(self._index[self.cursor]))

    def action_cancel(self) -> None:
        """Cancel the pick."""
        if self.kind is not None:
            self.post_message(self.Cancelled())

    def on_click(self, event: events.Click) -> None:
        """A click on a target picks it."""
        geo = self._geo()
        if geo is None or self.kind is None:
            return
        hit = hit_test(geo, self.kind, self.targets, event.x, event.y)
        if hit is not None:
            self.post_message(self.Picked(self._index[hit]))

    def on_key(self, event: events.Key) -> None:
        """Typing a target's label picks it (letters and digits, as far as they lead)."""
        char = event.character
        if self.kind is None or char is None or not char.isalnum():
            return
        typed = self.typed + char
        matching = [t for t, label in self.targets.items() if label.startswith(typed)]
        if not matching:
            return
        event.stop()
        exact = [t for t in matching if self.targets[t] == typed]
        if exact and len(matching) == 1:
            self.typed = ""
            self.post_message(self.Picked(self._index[exact[0]]))
            return
        self.typed = typed
        self.cursor = matching[0]
        self.refresh()


def labels(count: int) -> list[str]:
    """Short labels for ``count`` targets: ``1``-``9`` then ``a``-``z``, then two letters."""
    singles = [str(d) for d in range(1, 10)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    if count <= len(singles):
        return singles[:count]
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    return [a + b for a in letters for b in letters][:count]


def rim_in_view(geo: Geometry) -> list[int]:
    """The rim hexes whose middle is on the board, left side then right, top to bottom:
    where the outer sea's targets go."""
    found = []
    for h in range(geo.land_hexes, len(geo.hexes)):
        col, row = geo.hexes[h]
        if 1 <= col < geo.width - 2 and 0 <= row < geo.height:
            found.append((col > geo.width // 2, row, h))
    return [h for _, _, h in sorted(found)]


__all__ = [
    "FieldMap",
    "FieldView",
    "choose_layout",
    "field_map",
    "labels",
    "marker_style",
    "marker_text",
    "outer_line",
    "render_field",
    "rim_in_view",
    "unit_text",
]
