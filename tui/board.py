"""The board widget: :class:`BoardView` draws a game state's board and lets the player pick on it.

The drawing itself is pure and lives in :mod:`hexlan.tui.board_render`; this module adds what a
Textual widget needs: choosing the layout from the widget's size and the game's map (the largest
of roomy, medium, compact and mini that fits: the base map is roomy at 120x40 and compact at 80x24,
the 30-hex 5-6 player map medium and mini, the Seafarers maps compact and mini; a map wider than
the widget even in mini, whose height fits, is drawn in mini and **panned**: the widget shows the
columns round the cursor, and follows it as it moves (the 5-6 player Seafarers maps at 80x24);
a one-line message when even that does not fit), the
Line API with cached strips (only the lines that changed are refreshed, which matters over SSH),
targets with a keyboard cursor, mouse picking, and a brief flash of a bot's last move.

The palette and glyphs are re-exported here so the rest of the TUI shows seats exactly as the
board does::

    from hexlan.tui.board import SEAT_COLOURS, SEAT_MARKS, seat_style

Typical use by a screen::

    board = BoardView(state)
    board.set_targets("node", {12: "a", 25: "b"})   # legal places, labels chosen by the app
    ...
    def on_board_view_picked(self, event: BoardView.Picked) -> None:
        self.play(BuildSettlement(event.target_id))
        board.set_targets(None, {})
        board.update_state(state)
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from hexlan.engine.board import PIPS
from hexlan.engine.topology import Topology
from hexlan.tui.board_render import (
    BASE_MAP,
    CITY_GLYPHS,
    COMPACT,
    FLEET_PATH_GLYPH,
    LAYOUTS,
    MEDIUM,
    MINI,
    NODE_GLYPH,
    PIP_BRAILLE,
    PIP_GLYPH,
    PIRATE_GLYPH,
    PLAIN,
    RED_MARK,
    RESOURCE_WORDS,
    ROAD_GLYPH,
    ROAD_GLYPH_VERTICAL,
    ROBBER_GLYPH,
    ROOMY,
    SEA_COLOUR,
    SEAT_COLOUR_NAMES,
    SEAT_COLOURS,
    SEAT_MARKS,
    SETTLEMENT_GLYPHS,
    SHIP_GLYPH,
    SHIP_GLYPH_VERTICAL,
    TERRAIN_COLOURS,
    WARSHIP_GLYPH,
    BoardState,
    Cell,
    Direction,
    Geometry,
    Layout,
    TargetKind,
    board_lines,
    choose_layout,
    geometry,
    hex_cell,
    hit_test,
    nearest_target,
    node_cell,
    path_cells,
    piece_glyph,
    pips,
    render_board,
    render_canvas,
    robber_cell,
    seat_colour,
    seat_mark,
    seat_style,
    step_cursor,
    token_text,
    too_small_message,
)

FLASH_SECONDS = 1.5
"""How long :meth:`BoardView.flash` highlights a move."""
PAN_MIN = 30
"""The narrowest widget a board too wide for it is panned in (narrower: the too-small message)."""
PAN_MARGIN = 8
"""When panned, the cursor is kept this many columns from the widget's edges."""
PAN_LEFT, PAN_RIGHT = "◂", "▸"
"""Drawn at the top corners of a panned board where it runs on past the widget's edge."""


class BoardView(Widget, can_focus=True):
    """The board of a game state, with pickable targets.

    Args:
        state: the game state to draw (``GameState`` or a seat's ``InformationState``; only the
            public board fields are read). None draws nothing until :meth:`update_state`.

    Keys (when focused; the app may equally call the methods): arrows move the cursor among the
    targets, Enter picks the cursor's target. A click on or near a target picks it.
    """

    DEFAULT_CSS = """
    BoardView {
        width: 1fr;
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor('up')", "Up", show=False),
        Binding("down", "cursor('down')", "Down", show=False),
        Binding("left", "cursor('left')", "Left", show=False),
        Binding("right", "cursor('right')", "Right", show=False),
        Binding("enter", "pick", "Pick", show=False),
    ]

    class Picked(Message):
        """A target was picked (clicked, or Enter on the cursor).

        Attributes:
            board: the board it was picked on.
            kind: "node", "path" or "hex".
            target_id: the intersection, path or hex id.
        """

        def __init__(self, board: BoardView, kind: TargetKind, target_id: int) -> None:
            super().__init__()
            self.board = board
            self.kind: TargetKind = kind
            self.target_id = target_id

        @property
        def control(self) -> BoardView:
            """The board (for ``@on(BoardView.Picked, "#board")`` selectors)."""
            return self.board

        def __repr__(self) -> str:
            return f"BoardView.Picked({self.kind!r}, {self.target_id})"

    def __init__(
        self,
        state: BoardState | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._state = state
        self._kind: TargetKind | None = None
        self._targets: dict[int, str] = {}
        self._cursor: int | None = None
        self._flash: tuple[TargetKind, frozenset[int]] | None = None
        self._flash_timer: Timer | None = None
        self._layout: Layout | None = None
        self._origin = Offset(0, 0)
        self._pan: int | None = None  # the board's first column on screen, when panned
        self._strips: list[Strip] = []
        self._strips_size = Size(0, 0)

    # ------------------------------------------------------------------------------ public API

    @property
    def state(self) -> BoardState | None:
        """The state drawn."""
        return self._state

    @property
    def board_layout(self) -> Layout | None:
        """The layout in use (one of :data:`LAYOUTS`), None when the board does not fit."""
        return self._layout

    @property
    def is_panned(self) -> bool:
        """Whether the board is wider than the widget and shows only the part round the
        cursor."""
        return self._layout is not None and self._geometry().width > self.size.width

    @property
    def targets(self) -> Mapping[int, str]:
        """The targets offered, each with its label."""
        return dict(self._targets)

    def update_state(self, state: BoardState) -> None:
        """Draw ``state`` (call after every action; only lines that changed are repainted)."""
        self._state = state
        self._redraw()

    def set_targets(self, kind: TargetKind | None, targets: Mapping[int, str]) -> None:
        """Offer places to pick: light them up with their labels and put the cursor on one.

        Args:
            kind: "node", "path" or "hex"; None (or no targets) clears the offer.
            targets: each place's id and the short label to draw there ("a", "b", ... "aa").

        The cursor stays where it was if that place is still offered, else goes to the offered
        place nearest it (or nearest the board's centre).
        """
        old_kind, old_cursor = self._kind, self._cursor
        self._kind = kind if targets else None
        self._targets = dict(targets) if self._kind is not None else {}
        if self._kind is None:
            self._cursor = None
        elif old_kind != self._kind or old_cursor not in self._targets:
            geo = self._geometry()
            here = (geo.width // 2, geo.height // 2)
            if old_kind is not None and old_cursor is not None:
                here = geo.anchor(old_kind, old_cursor)
            self._cursor = nearest_target(geo, self._kind, self._targets, here)
        self._redraw()

    def clear_targets(self) -> None:
        """Offer nothing (e.g. after a pick or on Esc)."""
        self.set_targets(None, {})

    def cursor_target(self) -> int | None:
        """The target under the cursor, or None when nothing is offered."""
        return self._cursor

    def set_cursor(self, target: int) -> None:
        """Put the cursor on an offered target.

        Raises:
            ValueError: ``target`` is not offered.
        """
        if target not in self._targets:
            raise ValueError(f"{target} is not among the targets {sorted(self._targets)}")
        if target != self._cursor:
            self._cursor = target
            self._redraw()

    def move_cursor(self, direction: Direction) -> int | None:
        """Move the cursor to the nearest target in ``direction`` on screen ("up", "down",
        "left", "right"); it stays put when nothing lies that way. Returns the cursor's target."""
        if self._kind is None or not self._targets:
            return None
        geo = self._geometry()
        target = step_cursor(geo, self._kind, self._targets, self._cursor, direction)
        if target is not None and target != self._cursor:
            self._cursor = target
            self._redraw()
        return self._cursor

    def pick(self, target: int | None = None) -> bool:
        """Pick ``target`` (default: the cursor's): post :class:`Picked`. False if not offered."""
        if target is None:
            target = self._cursor
        if target is None or self._kind is None or target not in self._targets:
            return False
        self.post_message(self.Picked(self, self._kind, target))
        return True

    def flash(self, kind: TargetKind, ids: Collection[int], seconds: float = FLASH_SECONDS) -> None:
        """Highlight places briefly, e.g. a bot's last move (a road's path, a settlement's node,
        the robber's hex)."""
        if not self.is_mounted:
            return  # nothing on screen to flash (and no timer to end it)
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash = (kind, frozenset(ids))
        self._redraw()
        self._flash_timer = self.set_timer(seconds, self._end_flash)

    def end_flash(self) -> None:
        """Stop highlighting what :meth:`flash` lit (at once, before its time is up)."""
        if self._flash_timer is not None:
            self._flash_timer.stop()
        if self._flash is not None:
            self._end_flash()

    def cell_of(self, kind: TargetKind, target: int) -> Offset | None:
        """Where a node, path (its middle) or hex (its centre) is drawn, relative to the widget's
        content; None when the board is not drawn."""
        if self._layout is None:
            return None
        col, row = self._geometry().anchor(kind, target)
        return self._origin + Offset(col, row)

    def rendered_lines(self) -> list[str]:
        """The widget's lines as plain text, as last rendered (for tests and debugging)."""
        if self._strips_size != self.size:
            self._rebuild()
        return ["".join(seg.text for seg in strip) for strip in self._strips]

    # ------------------------------------------------------------------------------ actions

    def action_cursor(self, direction: Direction) -> None:
        """Key binding: move the cursor."""
        self.move_cursor(direction)

    def action_pick(self) -> None:
        """Key binding: pick the cursor's target."""
        self.pick()

    # ------------------------------------------------------------------------------ events

    def on_resize(self, event: events.Resize) -> None:
        """Re-choose the layout and redraw everything."""
        self._redraw(full=True)

    def on_mount(self) -> None:
        """Draw the board for the first time."""
        self._redraw(full=True)

    def on_click(self, event: events.Click) -> None:
        """A click on or near a target moves the cursor there and picks it."""
        target = self._target_at(event)
        if target is None:
            return
        event.stop()
        if target != self._cursor:
            self._cursor = target
            self._redraw()
        self.pick(target)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Hovering over a target moves the cursor there."""
        target = self._target_at(event)
        if target is not None and target != self._cursor:
            self._cursor = target
            self._redraw()

    # ------------------------------------------------------------------------------ rendering

    def render_line(self, y: int) -> Strip:
        """Line API: one cached line of the board."""
        if self._strips_size != self.size:
            self._rebuild()
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, PLAIN)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """For ``width: auto``: the roomy board's width if it fits, else the compact one's."""
        for layout in LAYOUTS:
            width = geometry(layout, self._topology()).width
            if width <= container.width:
                return width
        return container.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """For ``height: auto``: the height of the layout that fits the width."""
        for layout in LAYOUTS:
            geo = geometry(layout, self._topology())
            if geo.width <= width and geo.height <= container.height:
                return geo.height
        return 1

    def _topology(self) -> Topology:
        return self._state.board.topology if self._state is not None else BASE_MAP

    def _geometry(self) -> Geometry:
        return geometry(self._layout or ROOMY, self._topology())

    def _target_at(self, event: events.MouseEvent) -> int | None:
        if self._kind is None or not self._targets or self._layout is None:
            return None
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        col, row = offset - self._origin
        return hit_test(self._geometry(), self._kind, self._targets, col, row)

    def _redraw(self, full: bool = False) -> None:
        """Re-render into the strip cache and repaint the lines that changed."""
        old = self._strips
        self._rebuild()
        if not self.is_mounted:
            return
        if full or len(old) != len(self._strips):
            self.refresh()
            return
        width = self.size.width
        for y, (before, after) in enumerate(zip(old, self._strips, strict=True)):
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def _rebuild(self) -> None:
        size = self.size
        width, height = size
        self._strips_size = size
        topology = self._topology()
        self._layout = choose_layout(width, height, topology)
        if self._layout is None and geometry(MINI, topology).height <= height and width >= PAN_MIN:
            self._layout = MINI  # too wide: panned round the cursor
        blank = Strip.blank(width, PLAIN)
        if self._state is None or width <= 0 or height <= 0:
            self._strips = [blank] * max(height, 0)
            return
        if self._layout is None:
            message = too_small_message(topology).replace("(need ", "(need\0")
            lines = [line.replace("\0", " ") for line in textwrap.wrap(message, width)] or [""]
            strips = [blank] * height
            top = max(0, (height - len(lines)) // 2)
            for i, line in enumerate(lines[: height - top]):
                text = line.center(width)
                strips[top + i] = Strip([Segment(text, _MESSAGE)]).crop_extend(0, width, PLAIN)
            self._strips = strips
            return
        geo = geometry(self._layout, topology)
        self._origin = Offset(self._left(geo, width), (height - geo.height) // 2)
        canvas = render_canvas(
            self._state,
            self._layout,
            kind=self._kind,
            targets=self._targets,
            cursor=self._cursor,
            flash=self._flash,
        )
        x = self._origin.x
        left = [Segment(" " * x, PLAIN)] if x > 0 else []
        strips = [blank] * height
        for row in range(canvas.height):
            y = self._origin.y + row
            if 0 <= y < height:
                drawn = Strip([*left, *canvas.segments(row)])
                strips[y] = drawn.crop_extend(max(0, -x), max(0, -x) + width, PLAIN)
        if x < 0 or x + geo.width > width:  # panned: arrows where the board runs on
            y = max(0, self._origin.y)
            marks = (PAN_LEFT if x < 0 else " ", PAN_RIGHT if x + geo.width > width else " ")
            inner = strips[y].crop(1, width - 1)
            strips[y] = Strip(
                [Segment(marks[0], _MESSAGE), *inner, Segment(marks[1], _MESSAGE)]
            ).crop_extend(0, width, PLAIN)
        self._strips = strips

    def _left(self, geo: Geometry, width: int) -> int:
        """Where the board's first column goes: centred when it fits; when panned, where it was
        unless the cursor would come within :data:`PAN_MARGIN` columns of an edge, then
        centred on the cursor (never past the board's ends)."""
        if geo.width <= width:
            self._pan = None
            return (width - geo.width) // 2
        lowest = width - geo.width
        left = (width - geo.width) // 2 if self._pan is None else self._pan
        if self._kind is not None and self._cursor is not None:
            col = geo.anchor(self._kind, self._cursor)[0]
            if not PAN_MARGIN <= col + left < width - PAN_MARGIN:
                left = width // 2 - col
        self._pan = max(lowest, min(0, left))
        return self._pan

    def _end_flash(self) -> None:
        self._flash = None
        self._flash_timer = None
        self._redraw()


_MESSAGE = Style(bold=True)

__all__ = [
    "CITY_GLYPHS",
    "COMPACT",
    "FLASH_SECONDS",
    "FLEET_PATH_GLYPH",
    "LAYOUTS",
    "MEDIUM",
    "MINI",
    "NODE_GLYPH",
    "PIPS",
    "PIP_BRAILLE",
    "PIP_GLYPH",
    "PIRATE_GLYPH",
    "RED_MARK",
    "RESOURCE_WORDS",
    "ROAD_GLYPH",
    "ROAD_GLYPH_VERTICAL",
    "ROBBER_GLYPH",
    "ROOMY",
    "SEAT_COLOURS",
    "SEAT_COLOUR_NAMES",
    "SEAT_MARKS",
    "SEA_COLOUR",
    "SETTLEMENT_GLYPHS",
    "SHIP_GLYPH",
    "SHIP_GLYPH_VERTICAL",
    "TERRAIN_COLOURS",
    "WARSHIP_GLYPH",
    "BoardState",
    "BoardView",
    "Cell",
    "Direction",
    "Geometry",
    "Layout",
    "TargetKind",
    "board_lines",
    "choose_layout",
    "geometry",
    "hex_cell",
    "hit_test",
    "node_cell",
    "path_cells",
    "piece_glyph",
    "pips",
    "render_board",
    "robber_cell",
    "seat_colour",
    "seat_mark",
    "seat_style",
    "step_cursor",
    "token_text",
    "too_small_message",
]
