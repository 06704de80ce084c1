"""The Jungle's actions on the game screen (docs/rules/jungle.md): buying a development card with
discoveries standing for some of its resources; the hand's discoveries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.engine.variants.jungle import BuyWithDiscoveries, Jungle
from hexlan.tui.actionkeys import answers
from hexlan.tui.panel_lines import HAND

if TYPE_CHECKING:
    from hexlan.engine.state import GameState

answers("buy", BuyWithDiscoveries)
answers("buy:discoveries", BuyWithDiscoveries)


@HAND.register(Jungle)
def discoveries_line(view: GameState, seat: Seat, wide: bool) -> Text:
    """The seat's discoveries: public counters, not cards (seed 002 «Джунгли»), that help only
    to buy development cards."""
    text = Text(f"Discoveries {view.discoveries[seat]}", style="bold")
    text.append("  (each may replace a card's resource)\n" if wide else "\n", style="dim")
    return text
