"""Cities & Knights' actions told in words (seed 002 «Города и рыцари»), for
:class:`~hexlan.net.narrate.Narrator`: the event die and the barbarians, knights, walls, city
improvements, pillaged cities, the aqueduct and progress cards (a card's name only where the
narrating seat saw it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import (
    SHIP,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DiscardProgress,
    EventDie,
    ImproveCity,
    MoveKnight,
    PillageCity,
    ProgressDrawn,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress import Progress

LEVELS: Final = ("", "basic", "strong", "mighty")
"""A knight's level in words, by level."""


def card_name(state: GameState, track: int, face: int) -> str:
    """A progress card's name: its entry in the rule set's deck table (``"merchant fleet"``)."""
    names = list(state.rules.raw["decks"][TRACKS[track]])
    return str(names[face]).replace("_", " ")


def knights_text(
    state: GameState,
    prior: Progress,
    action: Action,
    who: Callable[[int], str],
    place: Callable[[int], str],
) -> str | None:
    """``action`` (just applied to ``state``; ``prior``: the progress before it) in words, or
    None when it is no Cities & Knights action. ``who`` names a seat ("You", "b"), ``place`` an
    intersection."""
    progress = progress_of(state)
    if isinstance(action, EventDie):
        return _event(state, prior, progress, action, who)
    if isinstance(action, BuildKnight):
        return f"{who(state.active)} built a knight at {place(action.node)}"
    if isinstance(action, ActivateKnight):
        return f"{who(state.active)} activated a knight at {place(action.node)}"
    if isinstance(action, PromoteKnight):
        level = LEVELS[progress.knights[action.node].level]
        return f"{who(state.active)} promoted a knight to {level} at {place(action.node)}"
    if isinstance(action, MoveKnight):
        text = f"{who(state.active)} moved a knight to {place(action.target)}"
        displaced = prior.knights.get(action.target)
        if displaced is not None:
            text += f", displacing {who(displaced.seat)}'s {LEVELS[displaced.level]} knight"
        return text
    if isinstance(action, RetreatKnight):
        return f"{who(action.seat)} moved the displaced knight to {place(action.node)}"
    if isinstance(action, ChaseRobber):
        return f"{who(state.active)} sent a knight after the robber"
    if isinstance(action, BuildWall):
        return f"{who(state.active)} built a city wall at {place(action.node)}"
    if isinstance(action, ImproveCity):
        seat = state.active
        built = progress.levels[seat][action.track]
        text = f"{who(seat)} built {TRACKS[action.track]} level {built}"
        if prior.metropolis_seat[action.track] != progress.metropolis_seat[action.track]:
            text += f" and takes the {TRACKS[action.track]} metropolis"
        return text
    if isinstance(action, PillageCity):
        return f"{who(action.seat)} lost the city at {place(action.node)} to the barbarians"
    if isinstance(action, AqueductPick):
        return f"{who(action.seat)} took 1 {action.resource.name.lower()} (the aqueduct)"
    if isinstance(action, ChooseProgress):
        return f"{who(action.seat)} chose the {TRACKS[action.track]} progress cards"
    if isinstance(action, ProgressDrawn):
        seat, track = prior.draws[0]
        card = "" if action.face is None else f": {card_name(state, track, action.face)}"
        return f"{who(seat)} drew a {TRACKS[track]} progress card{card}"
    if isinstance(action, DiscardProgress):
        name = card_name(state, action.track, action.face)
        return f"{who(action.seat)} discarded the progress card {name}"
    return None


def _event(
    state: GameState,
    prior: Progress,
    progress: Progress,
    action: EventDie,
    who: Callable[[int], str],
) -> str:
    """The event die's face and what it set off."""
    if action.symbol != SHIP:
        track = TRACKS[action.symbol - 1]
        drawers = len(progress.draws)
        return f"The event die shows the {track} gate: {drawers} progress card(s) to draw"
    if not progress.arrived or progress.barbarians:
        steps = progress.barbarians
        plural = "step" if steps == 1 else "steps"
        return f"The event die shows the ship: the barbarians sail ({steps} {plural} so far)"
    text = "The event die shows the ship: the barbarians attack"
    gained = [s for s in range(state.players) if progress.defenders[s] > prior.defenders[s]]
    if gained:
        return f"{text}; Catan holds, and {who(gained[0])} is Defender of Catan"
    if progress.choosing:
        return f"{text}; Catan holds, its strongest defenders tied"
    if progress.pillage:
        return f"{text} and win: the weakest each lose a city"
    return f"{text}; Catan holds"
