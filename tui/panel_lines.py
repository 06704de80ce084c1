"""What a game adds to the side panels, the status line and the final scores, registered by its
modules in :mod:`hexlan.tui.games` (as :mod:`hexlan.tui.actionkeys` registers its keys), so
the panels name no game.

Each :class:`~hexlan.tui.slots.Slot` is a place in a panel where a game's rules module may
add lines: the registered function is found along the game's rules class's bases (Pirate
Islands, built on Seafarers, has Seafarers' lines unless it registers its own):

- :data:`CARDS`: the hand panel's cards in place of the development cards (Cities & Knights'
  progress cards), and then no :data:`HAND` line;
- :data:`HAND`: after the development cards of the hand panel (the Jungle's discoveries, the
  Big River's gold points);
- :data:`PIECES`: after the pieces left (Seafarers' ships);
- :data:`PRICES`: the costs in place of the base game's, where there is room (Cities &
  Knights');
- :data:`COSTS`: after the costs, where there is room (a ship's cost);
- :data:`COLUMNS`: the players table's cards and knights columns, in place of the development
  cards and the knights played (Cities & Knights' progress cards and knights' strength);
- :data:`STANDING`: the players panel's lines under the table of seats, in place of Longest Road
  and Largest Army (Seafarers' trade route and ships, Pirate Islands' warships and fortresses,
  Cities & Knights' tracks);
- :data:`STATUS`: the status line's part after the dice (Cities & Knights' barbarians);
- :data:`SCORES`: the final scores' columns in place of the army and the VP cards (Cities &
  Knights' metropolises, defenders and progress-card points).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rich.console import RenderableType
from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.tui.slots import Slot

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.net.client import GameClient
    from hexlan.tui.widgets.players import PlayersPanel

HandLine = Callable[["GameState", Seat, bool], Text]
"""``line(view, seat, wide)``: the seat's line (styled text, its own line breaks), ``wide``
when the panel has room for words beside the figures."""

StandingLines = Callable[["PlayersPanel", bool], list[RenderableType]]
"""``lines(panel, wide)``: the lines under the players table (the panel lends its helpers)."""

StatusPart = Callable[["GameClient", bool], Text]
"""``part(game, compact)``: the status line's part (``compact``: for a narrow line)."""


@dataclass(frozen=True, slots=True)
class SeatColumns:
    """A game's cards and knights columns of the players table.

    Attributes:
        head: the cards column's title, wide and narrow (``("prog", "prg")``).
        cells: ``cells(view, seat)``: the seat's cards and knights cells.
    """

    head: tuple[str, str]
    cells: Callable[[GameState, Seat], tuple[str, str]]


@dataclass(frozen=True, slots=True)
class ScoreColumns:
    """A game's columns of the final scores.

    Attributes:
        titles: the columns' titles.
        cells: ``cells(view, seat)``: the seat's cells, one per title.
        hint: what the scores' columns mean, under the table.
    """

    titles: tuple[str, ...]
    cells: Callable[[GameState, Seat], tuple[str, ...]]
    hint: str


CARDS: Final = Slot[HandLine]("cards")
HAND: Final = Slot[HandLine]("hand")
PIECES: Final = Slot[HandLine]("pieces")
PRICES: Final = Slot[HandLine]("prices")
COSTS: Final = Slot[HandLine]("costs")
COLUMNS: Final = Slot[SeatColumns]("columns")
STANDING: Final = Slot[StandingLines]("standing")
STATUS: Final = Slot[StatusPart]("status")
SCORES: Final = Slot[ScoreColumns]("scores")
