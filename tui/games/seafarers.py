"""Seafarers' actions on the game screen (docs/rules/seafarers.md): the ship keys, gold, and the
places of ships and the pirate in picks, and the gold prompt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from hexlan.engine.actions import Action
from hexlan.engine.variants.seafarers import BuildShip, ChooseGold, MovePirate, MoveShip, SeaPhase
from hexlan.tui.actionkeys import answers, keyed, places, prompts, waits
from hexlan.tui.games.base import picks

answers("build:ship", BuildShip)
answers("move_ship", MoveShip)
answers("gold", ChooseGold)
waits("to choose gold", SeaPhase.GOLD)


def gold_words(legal: Sequence[Action]) -> str:
    """The prompt of the gold the fields owe the person (``legal``: the person's legal
    actions, the gold choices among them)."""
    due = keyed("gold", legal)
    count = sum(cast(ChooseGold, due[0]).cards) if due else 0
    return f"Gold: choose {count} resource{'s' if count != 1 else ''} (g)"


prompts(SeaPhase.GOLD, "gold", gold_words)


@places(BuildShip)
def ship_place(what: str, action: BuildShip, source: int) -> int | None:
    """A ship's path, in a pick of ships (or of roads or ships)."""
    return action.path if "ship" in picks(what) else None


@places(MovePirate)
def pirate_place(what: str, action: MovePirate, source: int) -> int | None:
    """The pirate's new hex, in a pick of the pirate's move."""
    return action.hex if what == "pirate" else None


@places(MoveShip)
def moved_ship_place(what: str, action: MoveShip, source: int) -> int | None:
    """In a pick of the ship to move, the ship's path; in a pick of where ship ``source`` goes,
    its new path."""
    if what == "ship to move":
        return action.source
    if what == "ship target" and action.source == source:
        return action.target
    return None
