"""Pirate Islands' actions on the game screen (docs/rules/pirate-islands.md): robbing any seat
on a 7 (no robber to move), attacking one's fortress, and what a knight card does there."""

from __future__ import annotations

from hexlan.engine.core import DevCard
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    PirateIslands,
    PiratePhase,
    RobSeat,
)
from hexlan.tui.actionkeys import answers, card_helps, waits

answers("rob", RobSeat)
answers("attack", AttackFortress)
waits("to attack a fortress", PiratePhase.FORTRESS)
card_helps(PirateIslands, {DevCard.KNIGHT: "turn a ship of your line into a warship"})
