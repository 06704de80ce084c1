"""What a game adds to the side panels, registered by its module in :mod:`hexlan.tui.games` (as
:mod:`hexlan.tui.actionkeys` registers its keys), so the panels name no game.

Each :class:`Slot` is a place in a panel where a game's rules module may add lines: the
registered function is found along the game's rules class's bases (Pirate Islands, built on
Seafarers, has Seafarers' lines unless it registers its own):

- :data:`HAND`: after the development cards of the hand panel (the Jungle's discoveries, the
  Big River's gold points);
- :data:`PIECES`: after the pieces left (Seafarers' ships);
- :data:`COSTS`: after the costs, where there is room (a ship's cost);
- :data:`STANDING`: the players panel's lines under the table of seats, in place of Longest Road
  and Largest Army (Seafarers' trade route and ships, Pirate Islands' warships and fortresses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from rich.console import RenderableType
from rich.text import Text

from hexlan.engine.core import Seat

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.engine.variants.base import Variant
    from hexlan.tui.widgets.players import PlayersPanel

F = TypeVar("F")

HandLine = Callable[["GameState", Seat, bool], Text]
"""``line(view, seat, wide)``: the seat's line (styled text, its own line breaks), ``wide``
when the panel has room for words beside the figures."""

StandingLines = Callable[["PlayersPanel", bool], list[RenderableType]]
"""``lines(panel, wide)``: the lines under the players table (the panel lends its helpers)."""


class Slot(Generic[F]):
    """One place in a panel that a game's rules class may fill.

    Args:
        name: the place in words, for errors.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._by_rules: dict[type[Variant], F] = {}

    def register(self, rules: type[Variant]) -> Callable[[F], F]:
        """Decorate the function that fills this place in games of ``rules``.

        Raises:
            ValueError: ``rules`` already fills it.
        """

        def register(function: F) -> F:
            if rules in self._by_rules:
                raise ValueError(f"the {rules.name} rules fill the {self.name} lines twice")
            self._by_rules[rules] = function
            return function

        return register

    def of(self, variant: Variant | None) -> F | None:
        """The function that fills this place in the game ``variant`` rules (None: the base
        game), found along its class's bases; None when none does."""
        if variant is None:
            return None
        # the games' modules import this one: they are imported on first use, not at import
        import hexlan.tui.games  # noqa: F401, PLC0415

        for cls in type(variant).__mro__:
            function = self._by_rules.get(cls)
            if function is not None:
                return function
        return None


HAND: Final = Slot[HandLine]("hand")
PIECES: Final = Slot[HandLine]("pieces")
COSTS: Final = Slot[HandLine]("costs")
STANDING: Final = Slot[StandingLines]("standing")
