"""Cities & Knights' actions on the game screen: the wall and improvement keys, the places of
its pieces in picks (:func:`hexlan.tui.screens.knights.places_of` says where), what the others
are doing in its phases, their names on the status line, and the decisions its dialogs answer (the Deserter's placement among
them, whose "yes" then picks the place on the board)."""

from __future__ import annotations

from collections.abc import Sequence

from hexlan.engine.actions import Action
from hexlan.engine.info import InformationState
from hexlan.engine.variants.cities_knights.actions import (
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.tui.actionkeys import Choices, answers, asks, labels, places, waits
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


def decision(view: InformationState, legal: Sequence[Action], names: Sequence[str]) -> Choices:
    """The dialog of the decision due in ``view`` (an :data:`~hexlan.tui.actionkeys.Dialog`):
    :func:`~hexlan.tui.screens.knights.dialog_choices`, or in the Deserter's placement its
    question, whose "yes" picks the place on the board (a pick of "deserter place")."""
    if view.phase is KnightsPhase.DESERTER_PLACE:
        title, placing = knights.deserter_place_choices(view)
        return title, [
            (label, "deserter place" if choice == knights.PICK_DESERTER else choice)
            for label, choice in placing
        ]
    title, choices = knights.dialog_choices(view, legal, names)
    return title, list[tuple[str, Action | str]](choices)


labels("event die", KnightsPhase.EVENT)
labels("barbarians", KnightsPhase.PILLAGE)
labels("retreat", KnightsPhase.RETREAT)
labels("aqueduct", KnightsPhase.AQUEDUCT)
labels("progress card", KnightsPhase.PROGRESS, KnightsPhase.PROGRESS_CHOICE)
labels("progress discard", KnightsPhase.PROGRESS_DISCARD)
for phase, words in knights.WAITING_WORDS.items():
    waits(words, phase)
for phase in knights.DIALOG_PHASES:
    asks(phase, knights.WAITING_WORDS[phase].replace("to ", "Your move: ", 1) + " (y)", decision)
