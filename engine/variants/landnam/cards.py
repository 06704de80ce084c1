"""What each fate card does when played (../shared/landnam-rules.md §16.2, gap G1): the Harvest
cards change the harvest, the Movement cards the next step, the Althing cards the Althing. The
deck and its draws are :mod:`.fate`'s; which cards may be played when is each phase's module's
(:func:`~.economy.harvest_choices`, :func:`~.movement.movement_cards`,
:func:`~.althing.althing_cards`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import althing, economy, fate, movement
from hexlan.engine.variants.landnam.phases import MOVE
from hexlan.engine.variants.landnam.rules import Fate

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState


def played(state: LandnamState, action: L.PlayFate) -> None:
    """A fate card's effect (§16.2); the card goes to the discards."""
    fate.spend(state, action.seat, action.face)
    face = Fate(action.face)
    if face in (Fate.GOOD_YEAR, Fate.FULL_BARNS, Fate.STEADY_SEASONS):
        state.roll += action.choice
        state.barns = face == Fate.FULL_BARNS
        state.steady = face == Fate.STEADY_SEASONS
        economy.harvest(state, L.Harvest())
    elif face == Fate.LANDING:
        state.landing = True
        if state.phase != MOVE:
            movement.land_after_exploration(state)
    elif face == Fate.DRIVE_OFF:
        state.drive_off = True
    elif face == Fate.FAIR_WIND:
        state.extra_steps += 1
    else:
        althing.althing_card(state, face, action)


__all__ = ["played"]
