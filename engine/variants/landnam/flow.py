"""Entering a phase of a Landnám turn (§5): what happens by itself when a phase begins, so every
rules module moves the game on the same way (a new turn counts, the Althing opens, an
exploration settles once its fate card is drawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hexlan.engine.variants.landnam import althing, movement
from hexlan.engine.variants.landnam.phases import ALTHING_OPEN, ROLL

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState

EXPLORED: Final = "explored"
"""Not a phase: where an exploration goes once its reward is drawn (:func:`enter` settles it)."""


def enter(state: LandnamState, phase: str) -> None:
    """Enter ``phase`` (or settle :data:`EXPLORED`), doing what it does by itself."""
    if phase == EXPLORED:
        movement.settle_exploration(state)
        return
    state.phase = phase
    if phase == ROLL:
        state.turn += 1
    elif phase == ALTHING_OPEN:
        althing.open_window(state)


__all__ = ["EXPLORED", "enter"]
