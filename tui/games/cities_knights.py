"""Cities & Knights' actions on the game screen: the wall and improvement keys, and the places of
its pieces in picks (:func:`hexlan.tui.screens.knights.places_of` says where)."""

from __future__ import annotations

from hexlan.engine.variants.cities_knights.actions import (
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.tui.actionkeys import answers, places
from hexlan.tui.screens import knights

answers("build:wall", BuildWall)
answers("improve", ImproveCity)
places(
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)(knights.places_of)
