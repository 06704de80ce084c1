"""What a game adds to the side panels, registered by its module in :mod:`hexlan.tui.games` (as
:mod:`hexlan.tui.actionkeys` registers its keys), so the panels name no game.

Each :class:`~hexlan.tui.slots.Slot` is a place in a panel where a game's rules module may
add lines: the registered function is found along the game's rules class's bases (Pirate
Islands, built on Seafarers, has Seafarers' lines unless it registers its own):

- :data:`HAND`: after the development cards of the hand panel (the Jungle's discoveries, the
  Big River's gold points);
- :data:`PIECES`: after the pieces left (Seafarers' ships);
- :data:`COSTS`: after the costs, where there is room (a ship's cost);
- :data:`STANDING`: the players panel's lines under the table of seats, in place of Longest Road
  and Largest Army (Seafarers' trade route and ships, Pirate Islands' warships and fortresses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from rich.console import RenderableType
from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.tui.slots import Slot

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.tui.widgets.players import PlayersPanel

HandLine = Callable[["GameState", Seat, bool], Text]
"""``line(view, seat, wide)``: the seat's line (styled text, its own line breaks), ``wide``
when the panel has room for words beside the figures."""

StandingLines = Callable[["PlayersPanel", bool], list[RenderableType]]
"""``lines(panel, wide)``: the lines under the players table (the panel lends its helpers)."""


HAND: Final = Slot[HandLine]("hand")
PIECES: Final = Slot[HandLine]("pieces")
COSTS: Final = Slot[HandLine]("costs")
STANDING: Final = Slot[StandingLines]("standing")
