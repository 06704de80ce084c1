"""The Big River on the game screen (docs/rules/big-river.md): the hand's gold points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.engine.variants.big_river import BigRiver
from hexlan.tui.panel_lines import HAND

if TYPE_CHECKING:
    from hexlan.engine.state import GameState


@HAND.register(BigRiver)
def gold_points_line(view: GameState, seat: Seat, wide: bool) -> Text:
    """The seat's gold points and the victory points they make (published variant)."""
    text = Text(f"Gold points {view.gold_points[seat]}", style="bold")
    text.append(f"  ({view.variant_vp[seat]} VP)\n", style="dim")
    return text
