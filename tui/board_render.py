"""The board as text: lattice geometry to screen cells, and a pure renderer to rich ``Text`` lines.

No Textual here, so everything is unit-testable without an app; :mod:`hexlan.tui.board` wraps it
in the :class:`~hexlan.tui.board.BoardView` widget.

Geometry. The engine's topology puts a hex centre at lattice ``(x, y)`` and its six corners at
``(x, y-2)``, ``(x+1, y-1)``, ``(x+1, y+1)``, ``(x, y+2)``, ``(x-1, y+1)``, ``(x-1, y-1)``
(:mod:`hexlan.engine.topology`); hex centres lie on rows ``y = 3r``. A :class:`Layout` maps that
lattice to cells: ``col = x * sx + ox``, and rows by :meth:`Layout.row` (``pitch`` rows from one
hex row to the next, ``side`` rows from a hex's centre to its side corners). Every intersection
is one cell, every path the cells of the hex edge between its two intersections (``|`` for the
vertical ones, slopes for the slanted ones), a land hex's interior is filled with its terrain's
colour, and the sea hexes of the map's frame fill the margins with water. The layouts, largest
first (board sizes in cells for the base map and the 5-6 player map):

- :data:`ROOMY` (``sx=6``, 2 rows per lattice step): base 75 x 35, for 120x40 and larger;
- :data:`MEDIUM` (``sx=5``, 4 rows per hex row): base 65 x 25, five-six 75 x 33 (120x40);
- :data:`COMPACT` (``sx=4``, 1 row per lattice step): base 49 x 19 (80x24), five-six 57 x 25;
- :data:`MINI` (``sx=3``, 2 rows per hex row: a brick wall of hexes, each one line of letter,
  token and pips): five-six 49 x 17, for 80x24.

Monochrome (``NO_COLOR``): every fact has a glyph as well as a colour. Terrain is a letter, 6 and
8 are bold with a ``!`` and five pips, a settlement is its seat's lower-case mark (``a``), a city
the upper-case mark (``A``), a road ``=``/``‖`` with the owner's mark at its middle, a ship
``~``/``≀`` on the water with the owner's mark underlined at its middle, targets are reverse video
(the cursor also underlined), the robber a reverse ``R``, the pirate a reverse ``P`` on its sea hex.

A game's own pieces (ships and the pirate, the fleet, knights and walls) are drawn by its own
modules, through its :class:`BoardLayers` in the :data:`LAYERS` slot: this module names no game.

Maps for ships (Seafarers): the sea frame is part of the map (ships sail on its paths), so the board
ends at the frame's outer corners (a one-column margin, none above and below), the paths between
two sea hexes are drawn on the water, and sea hexes take hex ids after the land ones (as the
engine numbers them), so the pirate's hexes are picked like the robber's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Final, Literal, Protocol, TypeAlias

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from hexlan.engine.board import PIPS, RED_NUMBERS, Board
from hexlan.engine.core import NO_SEAT, HexId, NodeId, PathId, Terrain
from hexlan.engine.maps import load_map
from hexlan.engine.topology import Topology
from hexlan.tui.slots import Slot

TargetKind: TypeAlias = Literal["node", "path", "hex"]
"""What a highlight or a pick refers to: an intersection, a path, or a land hex."""

Cell: TypeAlias = tuple[int, int]
"""A screen cell ``(col, row)`` in board coordinates (0, 0 is the board's top-left cell)."""

Direction: TypeAlias = Literal["up", "down", "left", "right"]

# --------------------------------------------------------------------------------------- palette

SEAT_COLOURS: Final = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#D55E00", "#0072B2")
"""Okabe-Ito colour-blind-safe colours per seat: orange, sky blue, bluish green, reddish purple,
then vermilion and blue for the fifth and sixth seats of the 5-6 player game (both keep a
contrast of 3.9:1 or more against black and against white, so they read on dark and light
terminals; the other Okabe-Ito colours, yellow and black, each vanish on one of them)."""

SEAT_COLOUR_NAMES: Final = ("orange", "sky blue", "green", "purple", "vermilion", "cobalt blue")
"""The colours in words, for text that names a seat's colour."""

SEAT_MARKS: Final = ("a", "b", "c", "d", "e", "f")
"""The seat's mark on the board: a settlement is the mark (``a``), a city its upper case (``A``),
a road carries it at its middle. Show it beside the seat's name so it reads without colour."""

SETTLEMENT_GLYPHS: Final = SEAT_MARKS
CITY_GLYPHS: Final = tuple(mark.upper() for mark in SEAT_MARKS)
ROAD_GLYPH: Final = "="
"""A road's cells along a slanted path (the middle one shows the owner's mark)."""
ROAD_GLYPH_VERTICAL: Final = "‖"
"""A road's cells along a vertical path."""
NODE_GLYPH: Final = "·"
"""An empty intersection."""
ROBBER_GLYPH: Final = "R"
PIRATE_GLYPH: Final = "P"
SHIP_GLYPH: Final = "~"
"""A ship's cells along a slanted path (the middle one shows the owner's mark, underlined)."""
SHIP_GLYPH_VERTICAL: Final = "≀"
"""A ship's cells along a vertical path."""
WARSHIP_GLYPH: Final = "≈"
"""A warship's cells, slanted or vertical (Pirate Islands)."""
FLEET_PATH_GLYPH: Final = "∘"
"""The middle of each sea hex on the pirate fleet's circle (Pirate Islands)."""
PIP_GLYPH: Final = "•"
RED_MARK: Final = "!"
"""Written after a 6 or an 8, so they stand out in monochrome too."""

PIP_BRAILLE: Final = ("", "⠁", "⠃", "⠇", "⠏", "⠟")
"""Pips in one cell (one to five dots), for :data:`MINI` hexes that have no pips row."""

BASE_MAP: Final = load_map().topology
"""The base game's map, drawn when no game names another."""


def seat_colour(seat: int) -> str:
    """The seat's colour as ``#RRGGBB`` (seats beyond six wrap around)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_style(seat: int) -> Style:
    """The seat's colour as a rich foreground style (for names, log lines, panels)."""
    return _SEAT_STYLES[seat % len(SEAT_COLOURS)]


def seat_mark(seat: int) -> str:
    """The seat's mark (``a``, ``b``, ...): settlements show it, cities its upper case."""
    return SEAT_MARKS[seat % len(SEAT_MARKS)]


def piece_style(seat: int) -> Style:
    """The style of the seat's pieces on the board: its colour, bold."""
    return _PIECE_STYLES[seat % len(SEAT_COLOURS)]


def piece_glyph(seat: int, level: int) -> str:
    """The glyph of a building: settlement (``level`` 1) or city (``level`` 2)."""
    mark = seat_mark(seat)
    return mark.upper() if level >= 2 else mark


_SEAT_STYLES: Final = tuple(Style(color=c) for c in SEAT_COLOURS)
_PIECE_STYLES: Final = tuple(Style(color=c, bold=True) for c in SEAT_COLOURS)
_CITY_STYLES: Final = tuple(Style(color="#000000", bgcolor=c, bold=True) for c in SEAT_COLOURS)

TERRAIN_COLOURS: Final[Mapping[Terrain, str]] = MappingProxyType(
    {
        Terrain.FOREST: "#2E7D32",
        Terrain.HILLS: "#B0502A",
        Terrain.PASTURE: "#9CCC65",
        Terrain.FIELDS: "#F0C93A",
        Terrain.MOUNTAINS: "#8C9AA3",
        Terrain.DESERT: "#DCCB9C",
        Terrain.JUNGLE: "#0B4F2A",
        Terrain.GOLD_MINE: "#C9A227",
        Terrain.GOLD_FIELD: "#A67C00",
        Terrain.FOG: "#5A5A66",
        Terrain.SEA: "#2F6FA8",
    }
)
"""Hex fill per terrain (chosen so fills stay apart in 256 colours and in grey levels too; the
gold field is a dark gold with light text, apart from the fields' light yellow in 16 colours
too)."""

RESOURCE_WORDS: Final[Mapping[Terrain, str]] = MappingProxyType(
    {
        Terrain.FOREST: "lumber",
        Terrain.HILLS: "brick",
        Terrain.PASTURE: "wool",
        Terrain.FIELDS: "grain",
        Terrain.MOUNTAINS: "ore",
        Terrain.DESERT: "desert",
        Terrain.JUNGLE: "jungle",
        Terrain.GOLD_MINE: "gold",
        Terrain.GOLD_FIELD: "gold",
        Terrain.FOG: "fog",
        Terrain.SEA: "sea",
    }
)
"""The word a roomy hex shows: its terrain's resource ("desert", "jungle", "gold" for the hexes
that produce none; "fog" for a face-down hex, "sea" for one revealed as water)."""

DECLARED_COLOUR: Final = "#6E5A8A"
"""The fill of a terrain a rule set declares (a muted violet, apart from the catalogue's
fills); its letter and name tell it from the others."""

_DARK_TEXT: Final = frozenset({Terrain.PASTURE, Terrain.FIELDS, Terrain.DESERT, Terrain.GOLD_MINE})
_FILL: Final = {
    t: Style(bgcolor=c, color="#000000" if t in _DARK_TEXT else "#FFFFFF")
    for t, c in TERRAIN_COLOURS.items()
}
_LETTER: Final = {t: s + Style(bold=True) for t, s in _FILL.items()}
_DECLARED_FILL: Final = Style(bgcolor=DECLARED_COLOUR, color="#FFFFFF")
_DECLARED_LETTER: Final = _DECLARED_FILL + Style(bold=True)
_WORD_ROOM: Final = max(len(w) for w in RESOURCE_WORDS.values())


def _terrain_look(terrain: Terrain) -> tuple[Style, Style, str]:
    """A hex's fill, its letter's style and its word (:data:`RESOURCE_WORDS`); a declared
    terrain's are :data:`DECLARED_COLOUR` and its name (cut to the longest catalogue word's
    length, so it fits the hex)."""
    if terrain.is_catalogue:
        return _FILL[terrain], _LETTER[terrain], RESOURCE_WORDS[terrain]
    return _DECLARED_FILL, _DECLARED_LETTER, terrain.name.lower()[:_WORD_ROOM]


_TOKEN: Final = Style(bgcolor="#F4E8C8", color="#000000", bold=True)
_TOKEN_RED: Final = Style(bgcolor="#C4161C", color="#FFFFFF", bold=True)
"""6 and 8: a red chip (dark in grey levels too, so they stand out under NO_COLOR)."""
_OUTLINE: Final = Style(color="#8A8A8A")
_NODE: Final = Style(color="#6C6C6C")
SEA_COLOUR: Final = "#2B5D80"
"""The sea frame's water (a steel blue: apart from every terrain, and dark under grey levels)."""
_SEA: Final = Style(bgcolor=SEA_COLOUR)
_SHIP_STYLES: Final = tuple(Style(color=c, bgcolor=SEA_COLOUR, bold=True) for c in SEAT_COLOURS)
"""A ship: the seat's colour on the sea's (so a ship and a road differ in colour too)."""
_SHIP_MARK_STYLES: Final = tuple(s + Style(underline=True) for s in _SHIP_STYLES)
"""A ship's mark: underlined, so a one-cell ship (the small layouts' vertical paths) still reads
apart from a road's mark without colour."""
_HARBOUR: Final = Style(color="#FFFFFF", bgcolor="#0A1F33", bold=True)
"""A harbour's label: a near-black plaque on the water."""
_HARBOUR_POINTER: Final = Style(color="#FFFFFF", bold=True)
_ROBBER: Final = Style(color="#000000", bgcolor="#FFFFFF", bold=True, reverse=True)
"""White on black; reverse video, so it stays a solid block with no colour at all."""
FLEET_PATH_STYLE: Final = Style(color="#D0D0D0", bold=True)
"""The fleet's circle, drawn on the water (Pirate Islands)."""
_TARGET: Final = Style(color="#FFFFFF", bold=True, reverse=True)
_CURSOR: Final = Style(color="#FFD700", bold=True, reverse=True, underline=True)
_FLASH: Final = Style(reverse=True, underline=True, bold=True)
PLAIN: Final = Style()
"""The style of blank cells (a real, empty style: Textual's NO_COLOR filter rejects None)."""


# -------------------------------------------------------------------------------------- layouts


@dataclass(frozen=True, slots=True)
class Layout:
    """How the lattice maps to cells.

    Attributes:
        name: "mini", "compact", "medium" or "roomy".
        sx: cells per lattice step in x.
        pitch: rows from one hex row's centre to the next (three lattice steps in y).
        side: rows from a hex's centre to its side corners (its top and bottom corners are
            ``pitch - side`` rows away).
        margin_x: columns left and right of the outermost intersections (sea, harbour labels).
        margin_y: rows above and below them.
        slant: the cells of a slanted path going down and right from its upper intersection, as
            ``(dcol, drow, char)``; mirrored for paths going down and left (in :data:`MINI` the
            two ends share a row).
        harbour_gap: columns from a vertical coastal path to its harbour label.
        pointers: whether harbour labels get ``\\``/``/`` pointers to their intersections.
    """

    name: Literal["mini", "compact", "medium", "roomy"]
    sx: int
    pitch: int
    side: int
    margin_x: int
    margin_y: int
    slant: tuple[tuple[int, int, str], ...]
    harbour_gap: int
    pointers: bool

    def row(self, y: int) -> int:
        """The row of lattice ``y`` counted from the row of ``y = 0`` (a hex row's centre).

        >>> [ROOMY.row(y) for y in range(-2, 4)], [MINI.row(y) for y in range(-2, 4)]
        ([-4, -2, 0, 2, 4, 6], [-1, -1, 0, 1, 1, 2])
        """
        hex_row = (y + 1) // 3
        return self.pitch * hex_row + self.side * (y - 3 * hex_row)


MINI: Final = Layout(
    name="mini",
    sx=3,
    pitch=2,
    side=1,
    margin_x=6,
    margin_y=1,
    slant=((1, 0, "-"), (2, 0, "-")),
    harbour_gap=2,
    pointers=False,
)
COMPACT: Final = Layout(
    name="compact",
    sx=4,
    pitch=3,
    side=1,
    margin_x=4,
    margin_y=1,
    slant=((1, 0, "-"), (2, 0, "."), (3, 0, "_")),
    harbour_gap=2,
    pointers=False,
)
MEDIUM: Final = Layout(
    name="medium",
    sx=5,
    pitch=4,
    side=1,
    margin_x=7,
    margin_y=1,
    slant=((1, 0, "."), (2, 1, "'"), (3, 1, "."), (4, 2, "'")),
    harbour_gap=3,
    pointers=True,
)
ROOMY: Final = Layout(
    name="roomy",
    sx=6,
    pitch=6,
    side=2,
    margin_x=7,
    margin_y=1,
    slant=((1, 0, "."), (2, 1, "'"), (3, 1, "-"), (4, 1, "."), (5, 2, "'")),
    harbour_gap=3,
    pointers=True,
)
LAYOUTS: Final = (ROOMY, MEDIUM, COMPACT, MINI)
"""Largest first: :func:`choose_layout` takes the first that fits."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """Screen cells of everything on a board shape in one layout (computed once, then cached).

    Attributes:
        layout: the layout.
        width: board width in cells (sea and harbour margins included).
        height: board height in rows.
        nodes: the cell of each intersection.
        paths: the cells of each path with its outline character, ``(col, row, char)``.
        hexes: the centre cell of each hex by engine id: the land hexes, then the map's sea
            hexes (sea hex ``i`` is id ``land_hexes + i``, where the pirate goes).
        interiors: the cells inside each hex, in the same order (a land hex's are filled with
            its terrain).
        path_hex: for each path, one land hex it borders (the only one on the coast; -1 for a
            path between two sea hexes, on a map for ships).
        vertical: whether each path is vertical.
        sea: the cells of the sea hexes (their insides and the edges between them) that lie on
            the board, row by row.
        land_hexes: how many of ``hexes`` are land (the first ones).
        sea_lines: the cells of the paths and corners that touch no land (a map for ships):
            drawn on the water.
    """

    layout: Layout
    width: int
    height: int
    nodes: tuple[Cell, ...]
    paths: tuple[tuple[tuple[int, int, str], ...], ...]
    hexes: tuple[Cell, ...]
    interiors: tuple[tuple[Cell, ...], ...]
    path_hex: tuple[HexId, ...]
    vertical: tuple[bool, ...]
    sea: tuple[Cell, ...] = ()
    land_hexes: int = 0
    sea_lines: tuple[Cell, ...] = ()

    def is_sea(self, hex_id: HexId) -> bool:
        """Whether a hex id is one of the sea hexes."""
        return hex_id >= self.land_hexes

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` in cells."""
        return self.width, self.height

    def path_middle(self, path: PathId) -> Cell:
        """The middle cell of a path (where its label or its owner's mark goes)."""
        cells = self.paths[path]
        col, row, _ = cells[len(cells) // 2]
        return col, row

    def anchor(self, kind: TargetKind, target: int) -> Cell:
        """The cell that stands for a node, path or hex (cursor moves and clicks measure from it)."""
        if kind == "node":
            return self.nodes[target]
        if kind == "path":
            return self.path_middle(target)
        return self.hexes[target]


def geometry(layout: Layout, topology: Topology = BASE_MAP) -> Geometry:
    """The :class:`Geometry` of a topology in a layout (cached).

    >>> g = geometry(COMPACT)
    >>> g.size, g.nodes[0], g.hexes[9]
    ((49, 19), (16, 1), (24, 9))
    >>> geometry(MINI, load_map("five-six").topology).size
    (49, 17)
    """
    return _geometry(
        layout,
        topology.node_xy,
        topology.path_nodes,
        topology.hex_centres,
        tuple(tuple(h) for h in topology.node_hexes),
        topology.sea_centres,
        bool(topology.path_sea),
    )


_CORNERS: Final = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""A hex's corners about its centre on the lattice, clockwise from the top (as the engine's)."""


def _edge_cells(layout: Layout, a: Cell, b: Cell) -> tuple[tuple[int, int, str], ...]:
    """The cells of the hex edge between two corner cells, left to right."""
    (ca, ra), (cb, rb) = a, b
    if ca == cb:
        return tuple((ca, r, "|") for r in range(min(ra, rb) + 1, max(ra, rb)))
    (uc, ur), (lc, _) = (a, b) if ra < rb else (b, a)
    step = 1 if lc > uc else -1
    return tuple(sorted((uc + step * dc, ur + dr, ch) for dc, dr, ch in layout.slant))


def _inside(
    centre: Cell, top: int, bottom: int, outline: Collection[Cell], notches: bool
) -> list[Cell]:
    """The cells strictly inside a hex outline, scanning each row out from the centre column.

    ``notches`` False drops rows only one or two cells wide (a stalk, not a fill).
    """
    hc = centre[0]
    inside: list[Cell] = []
    for row in range(top + 1, bottom):
        if (hc, row) in outline:
            continue
        left = hc
        while (left - 1, row) not in outline:
            left -= 1
        right = hc
        while (right + 1, row) not in outline:
            right += 1
        if notches or right - left >= 2:
            inside.extend((c, row) for c in range(left, right + 1))
    return inside


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where the lattice lands on the board: the offsets :meth:`cell` adds, and the board's size."""

    layout: Layout
    ox: int
    oy: int
    width: int
    height: int

    def cell(self, x: int, y: int) -> Cell:
        """The cell of lattice point ``(x, y)``."""
        return x * self.layout.sx + self.ox, self.layout.row(y) + self.oy

    def is_on_board(self, cell: Cell) -> bool:
        """Whether a cell lies within the board's width and height."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def inside(self, centre: Cell, outline: Collection[Cell], notches: bool) -> list[Cell]:
        """The cells inside the outline of the hex centred on ``centre`` (see :func:`_inside`)."""
        top, bottom = self.layout.row(-2), self.layout.row(2)
        return _inside(centre, centre[1] + top, centre[1] + bottom, outline, notches)


def _frame(layout: Layout, node_xy: Sequence[tuple[int, int]], ships: bool) -> _Frame:
    """The frame that leaves the layout's margins around the outermost intersections.

    A map for ships ends at its sea frame's outer corners (harbours lie inside it): a margin of
    one column and no rows.
    """
    xs = [x for x, _ in node_xy]
    ys = [y for _, y in node_xy]
    margin_x, margin_y = (1, 0) if ships else (layout.margin_x, layout.margin_y)
    return _Frame(
        layout=layout,
        ox=-min(xs) * layout.sx + margin_x,
        oy=-layout.row(min(ys)) + margin_y,
        width=(max(xs) - min(xs)) * layout.sx + 1 + 2 * margin_x,
        height=layout.row(max(ys)) - layout.row(min(ys)) + 1 + 2 * margin_y,
    )


def _sea_outline(frame: _Frame, sea_centres: Iterable[tuple[int, int]]) -> set[Cell]:
    """The cells of every sea hex's corners and six edges."""
    outline: set[Cell] = set()
    for x, y in sea_centres:
        corners = [frame.cell(x + dx, y + dy) for dx, dy in _CORNERS]
        outline.update(corners)
        for k in range(6):
            edge = _edge_cells(frame.layout, corners[k], corners[(k + 1) % 6])
            outline.update((c, r) for c, r, _ in edge)
    return outline


def _sea(
    frame: _Frame, sea_centres: Sequence[tuple[int, int]], land_outline: set[Cell]
) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, ...], ...]]:
    """The sea frame's cells on the board, row by row (every sea hex's inside and its own edges
    and corners, less the coast), and the cells of each sea hex's interior on the board."""
    sea_outline = _sea_outline(frame, sea_centres)
    every_outline = land_outline | sea_outline
    centres = [frame.cell(x, y) for x, y in sea_centres]
    water = sea_outline - land_outline
    for centre in centres:
        water.update(frame.inside(centre, every_outline, notches=True))
    interiors = tuple(
        tuple(filter(frame.is_on_board, frame.inside(centre, every_outline, notches=False)))
        for centre in centres
    )
    return tuple(sorted(filter(frame.is_on_board, water), key=_by_row)), interiors


def _sea_lines(
    nodes: Sequence[Cell],
    paths: Sequence[Sequence[tuple[int, int, str]]],
    path_hex: Sequence[HexId],
    node_hexes: Sequence[Sequence[HexId]],
) -> tuple[Cell, ...]:
    """The cells of the corners and paths that touch no land hex, row by row."""
    lines = {nodes[n] for n in range(len(nodes)) if n >= len(node_hexes) or not node_hexes[n]}
    for p, hex_id in enumerate(path_hex):
        if hex_id < 0:
            lines.update((c, r) for c, r, _ in paths[p])
    return tuple(sorted(lines, key=_by_row))


@lru_cache(maxsize=32)
def _geometry(
    layout: Layout,
    node_xy: tuple[tuple[int, int], ...],
    path_nodes: tuple[tuple[NodeId, NodeId], ...],
    hex_centres: tuple[tuple[int, int], ...],
    node_hexes: tuple[tuple[HexId, ...], ...],
    sea_centres: tuple[tuple[int, int], ...] = (),
    ships: bool = False,
) -> Geometry:
    """The :class:`Geometry` of a topology's parts (hashable, so the result is cached)."""
    frame = _frame(layout, node_xy, ships)
    nodes = tuple(frame.cell(x, y) for x, y in node_xy)
    paths = tuple(_edge_cells(layout, nodes[a], nodes[b]) for a, b in path_nodes)
    hexes = tuple(frame.cell(x, y) for x, y in hex_centres)
    outline = set(nodes) | {(c, r) for cells in paths for c, r, _ in cells}
    interiors = tuple(tuple(frame.inside(centre, outline, notches=False)) for centre in hexes)
    sea, sea_interiors = _sea(frame, sea_centres, outline)
    path_hex = tuple(
        min(set(node_hexes[a]) & set(node_hexes[b]), default=-1) for a, b in path_nodes
    )
    return Geometry(
        layout=layout,
        width=frame.width,
        height=frame.height,
        nodes=nodes,
        paths=paths,
        hexes=hexes + tuple(frame.cell(x, y) for x, y in sea_centres),
        interiors=interiors + sea_interiors,
        path_hex=path_hex,
        vertical=tuple(nodes[a][0] == nodes[b][0] for a, b in path_nodes),
        sea=sea,
        land_hexes=len(hexes),
        sea_lines=_sea_lines(nodes, paths, path_hex, node_hexes),
    )


def _by_row(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


def choose_layout(width: int, height: int, topology: Topology = BASE_MAP) -> Layout | None:
    """The largest layout whose board fits in ``width`` x ``height`` cells, or None."""
    for layout in LAYOUTS:
        w, h = geometry(layout, topology).size
        if w <= width and h <= height:
            return layout
    return None


def too_small_message(topology: Topology = BASE_MAP) -> str:
    """What to show instead of a board that does not fit (names the smallest size that does)."""
    w, h = geometry(LAYOUTS[-1], topology).size
    return f"Terminal too small for the board (need {w}x{h})"


def node_cell(node: NodeId, layout: Layout = ROOMY, topology: Topology = BASE_MAP) -> Cell:
    """The cell of an intersection.

    >>> node_cell(0, COMPACT)
    (16, 1)
    """
    return geometry(layout, topology).nodes[node]


def path_cells(
    path: PathId, layout: Layout = ROOMY, topology: Topology = BASE_MAP
) -> tuple[Cell, ...]:
    """The cells of a path's edge (a road there recolours and replaces them), left to right.

    >>> path_cells(0, COMPACT)
    ((13, 1), (14, 1), (15, 1))
    """
    return tuple((c, r) for c, r, _ in geometry(layout, topology).paths[path])


def hex_cell(hex_id: HexId, layout: Layout = ROOMY, topology: Topology = BASE_MAP) -> Cell:
    """The centre cell of a hex.

    >>> hex_cell(9, ROOMY)
    (37, 17)
    """
    return geometry(layout, topology).hexes[hex_id]


# ------------------------------------------------------------------------------------- canvas


class Canvas:
    """A grid of characters and styles, written cell by cell, read out as segments."""

    __slots__ = ("chars", "height", "styles", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]
        # None marks a never-written cell; segments() emits it as PLAIN, never as None.

    def put(self, col: int, row: int, text: str, style: Style | None) -> None:
        """Write ``text`` from ``(col, row)`` rightwards; cells off the canvas are dropped."""
        if not 0 <= row < self.height:
            return
        chars, styles = self.chars[row], self.styles[row]
        for i, ch in enumerate(text):
            c = col + i
            if 0 <= c < self.width:
                chars[c] = ch
                styles[c] = style

    def restyle(self, col: int, row: int, style: Style) -> None:
        """Add ``style`` on top of the cell's current style."""
        if 0 <= row < self.height and 0 <= col < self.width:
            old = self.styles[row][col]
            self.styles[row][col] = style if old is None else old + style

    def is_blank(self, col: int, row: int) -> bool:
        """Whether the cell is on the canvas and still empty."""
        return (
            0 <= row < self.height
            and 0 <= col < self.width
            and self.chars[row][col] == " "
            and self.styles[row][col] is None
        )

    def segments(self, row: int) -> list[Segment]:
        """One row as segments, runs of one style merged."""
        chars, styles = self.chars[row], self.styles[row]
        out: list[Segment] = []
        start = 0
        for c in range(1, self.width + 1):
            if c == self.width or styles[c] is not styles[start]:
                out.append(Segment("".join(chars[start:c]), styles[start] or PLAIN))
                start = c
        return out


# ---------------------------------------------------------------------------------- rendering


class BoardState(Protocol):
    """The public fields of a game state the board reads (``GameState``, ``InformationState``)."""

    @property
    def board(self) -> Board:
        """The board: terrains, tokens, harbours."""

    @property
    def robber(self) -> HexId:
        """The robber's hex."""

    @property
    def node_owner(self) -> Sequence[int]:
        """Per intersection, the owner of its building (-1 none)."""

    @property
    def node_level(self) -> Sequence[int]:
        """Per intersection, 1 for a settlement, 2 for a city."""

    @property
    def path_owner(self) -> Sequence[int]:
        """Per path, the owner of its road or ship (-1 none)."""

    @property
    def variant_state(self) -> object:
        """A game's own progress (Seafarers' ships and pirate), None in games without; its
        :class:`BoardLayers` read it."""


@dataclass(frozen=True, slots=True)
class SeaPieces:
    """A game's pieces at sea, drawn with the base game's pieces.

    Attributes:
        ship_owner: per path, the owner of its ship (-1 none; empty: no ships at all).
        pirate: the pirate's hex (-1: none on the board).
        warships: the paths whose ships are warships (Pirate Islands).
    """

    ship_owner: Sequence[int] = ()
    pirate: HexId = NO_SEAT
    warships: Collection[PathId] = frozenset()


Layer: TypeAlias = Callable[["Canvas", Geometry, BoardState], None]
"""A game's drawing on the board: ``layer(canvas, geo, state)`` puts its pieces on ``canvas``."""


def _no_layer(canvas: Canvas, geo: Geometry, state: BoardState) -> None:
    """Draws nothing (a game without a layer there)."""


@dataclass(frozen=True, slots=True)
class BoardLayers:
    """What a game draws on the board besides the base game's pieces, registered for its rules
    class in :data:`LAYERS` by its own module.

    Attributes:
        sea: its ships, warships and pirate, from the state (drawn on the paths and the water).
        pieces: drawn over the buildings, under the harbours (Cities & Knights' knights, walls
            and metropolises; Pirate Islands' fortresses).
        tops: drawn over the robber and the pirate (Cities & Knights' merchant; Pirate Islands'
            fleet circle).
    """

    sea: Callable[[BoardState], SeaPieces] | None = None
    pieces: Layer = _no_layer
    tops: Layer = _no_layer


LAYERS: Final = Slot[BoardLayers]("board")
"""Each game's :class:`BoardLayers`, by its rules class (the state's ``variant``)."""
_NO_LAYERS: Final = BoardLayers()


def token_text(token: int) -> str:
    """A number token as shown: ``"10"``, ``"6!"`` (6 and 8 marked), ``""`` for the desert."""
    if not token:
        return ""
    return f"{token}{RED_MARK}" if token in RED_NUMBERS else str(token)


def pips(token: int) -> str:
    """The token's probability as pips: ``"•"`` for 2 and 12 ... ``"•••••"`` for 6 and 8."""
    return PIP_GLYPH * PIPS[token]


def render_canvas(
    state: BoardState,
    layout: Layout,
    *,
    kind: TargetKind | None = None,
    targets: Mapping[int, str] | None = None,
    cursor: int | None = None,
    flash: tuple[TargetKind, Collection[int]] | None = None,
) -> Canvas:
    """Draw the board onto a fresh canvas (see :func:`render_board`)."""
    board = state.board
    geo = geometry(layout, board.topology)
    canvas = Canvas(geo.width, geo.height)
    _draw_hexes(canvas, geo, board)
    layers = LAYERS.of(getattr(state, "variant", None)) or _NO_LAYERS
    sea = SeaPieces() if layers.sea is None else layers.sea(state)
    _draw_paths(canvas, geo, state.path_owner, sea.ship_owner, sea.warships)
    _draw_nodes(canvas, geo, state.node_owner, state.node_level)
    layers.pieces(canvas, geo, state)
    _draw_harbours(canvas, geo, board)
    _draw_robber(canvas, geo, state.robber)
    _draw_pirate(canvas, geo, sea.pirate)
    layers.tops(canvas, geo, state)
    if flash is not None:
        _draw_flash(canvas, geo, *flash)
    if kind is not None and targets:
        _draw_targets(canvas, geo, kind, targets, cursor)
    _draw_sea(canvas, geo)
    return canvas


def render_board(
    state: BoardState,
    layout: Layout,
    *,
    kind: TargetKind | None = None,
    targets: Mapping[int, str] | None = None,
    cursor: int | None = None,
    flash: tuple[TargetKind, Collection[int]] | None = None,
) -> list[Text]:
    """The board as rich ``Text`` lines, ``geometry(layout).height`` lines of equal width.

    Args:
        state: a game state (only its public board fields are read).
        layout: one of :data:`LAYOUTS`.
        kind: what ``targets`` are: "node", "path" or "hex".
        targets: the places to light up, each with its short label (chosen by the app).
        cursor: the target under the cursor (drawn underlined, in another colour).
        flash: ``(kind, ids)`` to highlight briefly, e.g. a bot's last move.
    """
    canvas = render_canvas(state, layout, kind=kind, targets=targets, cursor=cursor, flash=flash)
    return canvas_lines(canvas)


def canvas_lines(canvas: Canvas) -> list[Text]:
    """A canvas as rich ``Text`` lines, one a row (a game's own board drawn on a canvas)."""
    return [_text(canvas.segments(row)) for row in range(canvas.height)]


def board_lines(text_lines: Iterable[Text]) -> list[str]:
    """The plain characters of rendered lines (for tests and logs)."""
    return [line.plain for line in text_lines]


def _text(segments: list[Segment]) -> Text:
    text = Text(no_wrap=True, overflow="crop", end="")
    for seg in segments:
        text.append(seg.text, seg.style)
    return text


def _centred(canvas: Canvas, centre_col: int, row: int, text: str, style: Style | None) -> int:
    """Write ``text`` centred on ``centre_col`` (odd lengths exact, even ones one cell left)."""
    start = centre_col - (len(text) - 1) // 2
    canvas.put(start, row, text, style)
    return start


def _draw_hexes(canvas: Canvas, geo: Geometry, board: Board) -> None:
    name = geo.layout.name
    for h, (col, row) in enumerate(geo.hexes[: geo.land_hexes]):
        terrain, token = board.terrains[h], board.tokens[h]
        fill, letter, word = _terrain_look(terrain)
        for c, r in geo.interiors[h]:
            canvas.put(c, r, " ", fill)
        token_style = _TOKEN_RED if token in RED_NUMBERS else _TOKEN
        if name == "roomy":  # "L lumber" above the token chip, the pips on the chip below
            start = _centred(canvas, col, row - 1, f"{terrain.letter} {word}", fill)
            canvas.put(start, row - 1, terrain.letter, letter)
            if token:
                _centred(canvas, col, row, f"{token_text(token):^7}", token_style)
                _centred(canvas, col, row + 1, f"{pips(token):^7}", token_style)
        elif name == "medium":  # the token chip, "L lumber" below it, then the pips
            start = _centred(canvas, col, row, f"{terrain.letter} {word}", fill)
            canvas.put(start, row, terrain.letter, letter)
            if token:
                _centred(canvas, col, row - 1, f"{token_text(token):^5}", token_style)
                _centred(canvas, col, row + 1, pips(token), fill)
        elif name == "compact":  # "L 10" with the pips above
            canvas.put(col - 2, row, terrain.letter, letter)
            if token:
                canvas.put(col, row, f"{token:>2}", token_style)
                if token in RED_NUMBERS:
                    canvas.put(col + 2, row, RED_MARK, token_style)
                _centred(canvas, col, row - 1, pips(token), fill)
        else:  # mini: one line, "L 10" and the pips as one braille cell ("!" for 6 and 8)
            canvas.put(col - 2, row, terrain.letter, letter)
            if token:
                canvas.put(col, row, f"{token:>2}", token_style)
                if token in RED_NUMBERS:
                    canvas.put(col + 2, row, RED_MARK, token_style)
                else:
                    canvas.put(col + 2, row, PIP_BRAILLE[PIPS[token]], fill)


def _draw_paths(
    canvas: Canvas,
    geo: Geometry,
    owners: Sequence[int],
    ship_owners: Sequence[int],
    warships: Collection[PathId] = (),
) -> None:
    """Outlines, roads (``=a=``, ``‖``), ships (``~a~``, ``≀``, on the water, the mark
    underlined) and warships (``≈a≈``)."""
    for p, cells in enumerate(geo.paths):
        owner = owners[p]
        if owner == NO_SEAT:
            for c, r, ch in cells:
                canvas.put(c, r, ch, _OUTLINE)
            continue
        seat = owner % len(SEAT_COLOURS)
        vertical = geo.vertical[p]
        if ship_owners and ship_owners[p] != NO_SEAT:
            style, mark_style = _SHIP_STYLES[seat], _SHIP_MARK_STYLES[seat]
            glyph = SHIP_GLYPH_VERTICAL if vertical else SHIP_GLYPH
            if p in warships:
                glyph = WARSHIP_GLYPH
        else:
            style = mark_style = _PIECE_STYLES[seat]
            glyph = ROAD_GLYPH_VERTICAL if vertical else ROAD_GLYPH
        for c, r, _ in cells:
            canvas.put(c, r, glyph, style)
        mc, mr = geo.path_middle(p)
        canvas.put(mc, mr, seat_mark(owner), mark_style)


def _draw_nodes(
    canvas: Canvas, geo: Geometry, owners: Sequence[int], levels: Sequence[int]
) -> None:
    for n, (c, r) in enumerate(geo.nodes):
        owner = owners[n]
        if owner == NO_SEAT:
            canvas.put(c, r, NODE_GLYPH, _NODE)
        else:
            styles = _CITY_STYLES if levels[n] >= 2 else _PIECE_STYLES
            canvas.put(c, r, piece_glyph(owner, levels[n]), styles[owner % len(SEAT_COLOURS)])


def _draw_harbours(canvas: Canvas, geo: Geometry, board: Board) -> None:
    """Each harbour's label just outside the coastal path it faces, pointing at its two ends."""
    path_nodes = board.topology.path_nodes
    gap = geo.layout.harbour_gap
    for harbour in board.harbours:
        path = harbour.path
        a, b = path_nodes[path]
        (ac, ar), (bc, br) = geo.nodes[a], geo.nodes[b]
        hc, hr = geo.hexes[geo.path_hex[path]]
        label = harbour.label
        if geo.vertical[path]:
            side = 1 if ac > hc else -1
            top, bottom = min(ar, br), max(ar, br)
            row = (top + bottom) // 2
            # Nearer the coast when the label would cover a line out at sea (a map for ships).
            while gap > 1 and not _is_clear(canvas, _span(ac, side, gap, len(label)), row):
                gap -= 1
            room = canvas.width - (ac + gap) if side > 0 else ac - gap + 1
            lines = [label] if len(label) <= room else label.split(" ")
            for i, line in enumerate(lines):
                start = _span(ac, side, gap, len(line)).start
                canvas.put(start, row + i, line, _HARBOUR)
            if geo.layout.pointers:
                pc = ac + side * (gap - 1)
                canvas.put(pc, top + 1, "\\" if side > 0 else "/", _HARBOUR_POINTER)
                canvas.put(pc, bottom - 1, "/" if side > 0 else "\\", _HARBOUR_POINTER)
            continue
        upper_row, lower_row = min(ar, br), max(ar, br)
        up = hr > upper_row  # the land is below the path: the label goes above it
        row = upper_row - 1 if up else lower_row + 1
        cols = [c for c, _, _ in geo.paths[path]]
        outward = 1 if ac + bc > 2 * hc else -1
        start = (
            (min(cols) + max(cols)) // 2 - (len(label) - 1) // 2 + outward * (geo.layout.sx // 4)
        )
        # Slide outwards until a blank cell separates the label from the outline beside it.
        first = start
        for _ in range(geo.layout.sx):
            if _is_clear(canvas, range(start - 1, start + len(label) + 1), row):
                break
            start += outward
        else:  # no room with a blank each side: the nearest place that covers no line at sea
            near = sorted(range(first - geo.layout.sx, first + geo.layout.sx + 1), key=_from(first))
            start = next(
                (s for s in near if _is_clear(canvas, range(s, s + len(label)), row)), start
            )
        start = max(0, min(start, canvas.width - len(label)))
        canvas.put(start, row, label, _HARBOUR)
        if geo.layout.pointers:
            left, right = start - 1, start + len(label)
            if is_free(canvas, left, row):
                canvas.put(left, row, "/" if up else "\\", _HARBOUR_POINTER)
            if is_free(canvas, right, row):
                canvas.put(right, row, "\\" if up else "/", _HARBOUR_POINTER)


def _from(origin: int) -> Callable[[int], tuple[int, int]]:
    """A sort key: nearest ``origin`` first (ties: the left one)."""
    return lambda col: (abs(col - origin), col)


def _span(col: int, side: int, gap: int, length: int) -> range:
    """The columns of a label ``gap`` cells right (``side`` 1) or left (-1) of ``col``."""
    start = col + gap if side > 0 else col - gap - length + 1
    return range(start, start + length)


def _is_clear(canvas: Canvas, cols: range, row: int) -> bool:
    """Whether every cell of ``cols`` on ``row`` is free."""
    return all(is_free(canvas, c, row) for c in cols)


def is_free(canvas: Canvas, col: int, row: int) -> bool:
    """Whether the cell is blank, or off the canvas (nothing there to collide with)."""
    if not (0 <= row < canvas.height and 0 <= col < canvas.width):
        return True
    return canvas.is_blank(col, row)


def _draw_robber(canvas: Canvas, geo: Geometry, robber: HexId) -> None:
    """The robber: a reverse-video `` R `` block (one reverse ``R`` cell in :data:`MINI`)."""
    if robber < 0:
        return
    col, row = robber_cell(geo, robber)
    name = geo.layout.name
    if name == "mini":  # between the terrain letter and the token
        canvas.put(col, row, ROBBER_GLYPH, _ROBBER)
        return
    if name == "compact":  # over the pips: a robbed hex produces nothing anyway
        fill = canvas.styles[row][col - 2]
        canvas.put(col - 2, row, "     ", fill)
    canvas.put(col - 1, row, f" {ROBBER_GLYPH} ", _ROBBER)


def _draw_pirate(canvas: Canvas, geo: Geometry, pirate: HexId) -> None:
    """The pirate: a reverse-video `` P `` block on the middle of its sea hex, or on a row
    above or below it when a harbour's label is there; in the mini layout's one-row hexes, a
    reverse ``P`` in the label's gap (``2:1PL``), so the harbour still reads."""
    if pirate < 0 or pirate >= len(geo.hexes):
        return
    col, row = geo.hexes[pirate]
    inside = set(geo.interiors[pirate])
    for r in (row, row - 1, row + 1):
        cells = [(c, r) for c in range(col - 1, col + 2)]
        if all(cell in inside and is_free(canvas, *cell) for cell in cells):
            canvas.put(col - 1, r, f" {PIRATE_GLYPH} ", _ROBBER)
            return
    gaps = [c for c, r in inside if r == row and canvas.chars[r][c] == " "]
    spot = min(gaps, key=_from(col), default=col)
    canvas.put(spot, row, PIRATE_GLYPH, _ROBBER)


def robber_cell(geo: Geometry, hex_id: HexId) -> Cell:
    """Where the robber's ``R`` is drawn on a hex: below the token or the pips (roomy, medium),
    in place of the pips (compact), between the letter and the token (mini); the pirate's
    ``P`` on a sea hex's centre."""
    col, row = geo.hexes[hex_id]
    if geo.is_sea(hex_id):
        return col, row
    name = geo.layout.name
    if name == "compact":
        return col, row - 1
    if name == "mini":
        return col - 1, row
    return col, row + 2


def _label_spot(geo: Geometry, kind: TargetKind, target: int, label: str) -> tuple[int, int, str]:
    """Where a target's label goes and what is written: ``(start_col, row, text)``.

    A node's label sits on the intersection, a path's on its middle cell (moved back along the
    path when a longer label would run past its end), a hex's on the band above its token (the
    pips' row in the compact layout, the terrain letter's place in the mini one).
    """
    name = geo.layout.name
    if kind == "hex":
        col, row = geo.hexes[target]
        if geo.is_sea(target):  # open water: the label on the middle of the hex
            return col - (len(label) - 1) // 2, row, label
        if name == "roomy":
            return col - 1, row - 2, f" {label} "
        if name == "medium":
            return col - 1, row - 2, f"{label:^3}"
        if name == "mini":
            return col - 2, row, label
        return col - (len(label) - 1) // 2, row - 1, label
    col, row = geo.anchor(kind, target)
    if kind == "path":
        own = {(c, r) for c, r, _ in geo.paths[target]}
        while (col - 1, row) in own and any((col + i, row) not in own for i in range(len(label))):
            col -= 1
    return col, row, label


def _draw_targets(
    canvas: Canvas, geo: Geometry, kind: TargetKind, targets: Mapping[int, str], cursor: int | None
) -> None:
    for target, label in targets.items():
        style = _CURSOR if target == cursor else _TARGET
        start, row, text = _label_spot(geo, kind, target, label)
        if kind == "hex" and (geo.is_sea(target) or geo.layout.name != "mini"):
            cells = [c for c, r in geo.interiors[target] if r == row]
            fill = canvas.styles[row][min(cells)] if cells and not geo.is_sea(target) else None
            for c in cells:  # clear the pips (the robber, a harbour's label) under the label
                canvas.put(c, row, " ", fill)
        elif kind == "path":  # light the whole edge, the label at its middle
            for c, r, _ in geo.paths[target]:
                canvas.restyle(c, r, style)
        canvas.put(start, row, text, style)


def _draw_sea(canvas: Canvas, geo: Geometry) -> None:
    """Water under the sea frame's cells (and the paths and corners out at sea on a map for
    ships): blank ones take the sea's colour, written ones (a harbour's pointers, a sea path's
    outline) keep their glyph and colour on it; reverse-video ones (a target's label
    running off the coast) stay as they are, like the rest of their label."""
    cache: dict[Style, Style] = {}
    for c, r in (*geo.sea, *geo.sea_lines):
        old = canvas.styles[r][c]
        if old is None:
            canvas.styles[r][c] = _SEA
        elif old.bgcolor is None and not old.reverse:
            new = cache.get(old)
            if new is None:
                new = cache[old] = _SEA + old
            canvas.styles[r][c] = new


def _draw_flash(canvas: Canvas, geo: Geometry, kind: TargetKind, ids: Collection[int]) -> None:
    """Reverse and underline the flashed pieces (a node, a path's cells, a hex's robber band)."""
    for i in ids:
        if kind == "node":
            cells: Iterable[Cell] = [geo.nodes[i]]
        elif kind == "path":
            cells = [(c, r) for c, r, _ in geo.paths[i]]
        else:  # the robber's band of the hex
            row = robber_cell(geo, i)[1]
            cells = [(c, r) for c, r in geo.interiors[i] if r == row] or [geo.hexes[i]]
        for c, r in cells:
            canvas.restyle(c, r, _FLASH)


# ------------------------------------------------------------------------- picking and cursor


_REACH: Final = {"roomy": 2.5, "medium": 2.0}
"""How far from a node or path a click still hits it, per layout (1.5 in the small ones)."""


def hit_test(
    geo: Geometry, kind: TargetKind, targets: Collection[int], col: int, row: int
) -> int | None:
    """The target at or near board cell ``(col, row)``, or None if the cell is near none.

    A hex is hit anywhere inside it; a path on or beside its edge cells; a node within a couple
    of cells (rows count double: cells are about twice as tall as wide).
    """
    if kind == "hex":
        for t in targets:
            if (col, row) in geo.interiors[t] or (col, row) == geo.hexes[t]:
                return t
        return None
    reach = _REACH.get(geo.layout.name, 1.5)
    best: tuple[float, int] | None = None
    for t in targets:
        cells = [geo.nodes[t]] if kind == "node" else [(c, r) for c, r, _ in geo.paths[t]]
        d = min(math.hypot(col - c, 2 * (row - r)) for c, r in cells)
        if d <= reach and (best is None or (d, t) < best):
            best = (d, t)
    return None if best is None else best[1]


def step_cursor(
    geo: Geometry,
    kind: TargetKind,
    targets: Collection[int],
    current: int | None,
    direction: Direction,
) -> int | None:
    """The target the cursor moves to from ``current`` in ``direction`` (on screen).

    The nearest target ahead wins, sideways distance counting four times (rows twice, as cells
    are about twice as tall as wide), so "right" prefers the next one on the same row and "down"
    the one straight below; ties go to the lower id. None when nothing lies that way. With no
    current target, the one nearest the board's centre.
    """
    if not targets:
        return None
    if current is None or current not in targets:
        return nearest_target(geo, kind, targets, (geo.width // 2, geo.height // 2))
    cc, cr = geo.anchor(kind, current)
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
    best: tuple[float, int] | None = None
    for t in targets:
        if t == current:
            continue
        tc, tr = geo.anchor(kind, t)
        vx, vy = tc - cc, 2 * (tr - cr)
        ahead = vx * dx + vy * dy
        side = abs(vx * dy - vy * dx)
        if ahead <= 0:
            continue
        cost = ahead + 4 * side
        if best is None or (cost, t) < best:
            best = (cost, t)
    return None if best is None else best[1]


def nearest_target(
    geo: Geometry, kind: TargetKind, targets: Collection[int], cell: Cell
) -> int | None:
    """The target whose anchor is nearest ``cell`` (ties: the lowest id)."""
    col, row = cell

    def distance(t: int) -> tuple[float, int]:
        tc, tr = geo.anchor(kind, t)
        return math.hypot(tc - col, 2 * (tr - row)), t

    return min(targets, key=distance, default=None)
