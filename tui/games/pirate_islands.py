"""Pirate Islands' actions on the game screen (docs/rules/pirate-islands.md): robbing any seat
on a 7 (no robber to move) and attacking one's fortress."""

from __future__ import annotations

from hexlan.engine.variants.pirate_islands import AttackFortress, PiratePhase, RobSeat
from hexlan.tui.actionkeys import answers, waits

answers("rob", RobSeat)
answers("attack", AttackFortress)
waits("to attack a fortress", PiratePhase.FORTRESS)
