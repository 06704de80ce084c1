"""Pirate Islands' actions on the game screen (docs/rules/pirate-islands.md): robbing any seat
on a 7 (no robber to move), attacking one's fortress, and what a knight card does there; the
players panel's fleet lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import RenderableType

from hexlan.engine.core import DevCard
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    PirateIslands,
    PiratePhase,
    RobSeat,
    fleet,
)
from hexlan.tui.actionkeys import answers, card_helps, waits
from hexlan.tui.games.seafarers import ships_left_line
from hexlan.tui.panel_lines import STANDING

if TYPE_CHECKING:
    from hexlan.tui.widgets.players import PlayersPanel

answers("rob", RobSeat)
answers("attack", AttackFortress)
waits("to attack a fortress", PiratePhase.FORTRESS)
card_helps(PirateIslands, {DevCard.KNIGHT: "turn a ship of your line into a warship"})


@STANDING.register(PirateIslands)
def fleet_standing(panel: PlayersPanel, wide: bool) -> list[RenderableType]:
    """No awards (seed 004): ``Ships``, ``Warships`` and ``Fortress chits`` per seat (narrow:
    ``War a2 b0 ...``, ``Fort a3 b1 ...``; a captured fortress shows ``✓``)."""
    progress = fleet(panel.game.view)
    chits = [str(n) if n else "✓" for n in progress.fortress_chits]
    return [
        ships_left_line(panel, wide),
        panel.per_seat("Warships", "War", list(progress.warships), wide),
        panel.per_seat("Fortress chits", "Fort", chits, wide),
    ]
