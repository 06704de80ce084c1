"""Cities & Knights' board progress cards in words (docs/rules/cities-and-knights.md;
:mod:`hexlan.engine.variants.cities_knights.progress_board`): what the Alchemist, Bishop,
Deserter, Merchant and Inventor do when played (the card itself is told by
:func:`hexlan.net.tellers.cities_knights.progress_played`), and the Deserter's two steps."""

from __future__ import annotations

from typing import Final

from hexlan.engine import events as E
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import DesertKnight, PlaceDeserter
from hexlan.engine.variants.cities_knights.progress_board import alchemist_dice, inventor_hexes
from hexlan.net.telling import Target, Telling, Told, tells

LEVELS: Final = ("", "basic", "strong", "mighty")
"""A knight's level in words, by level."""


def board_effect(t: Telling, name: str, choice: int) -> tuple[str, Target]:
    """What the board card ``name`` played with ``choice`` did, in words, and what it lights on
    the board (the narrator's state is the one after the play)."""
    n = t.narrator
    if name == "alchemist":
        dice = alchemist_dice(choice)
        assert dice is not None
        return f"red {dice.first} and yellow {dice.second} chosen, the event die next", None
    if name == "bishop":
        return f"the robber to {n.hex_place(choice)}, a card from each player there", (
            "hex",
            (choice,),
        )
    if name == "deserter":
        return f"{n.who(choice)} must remove a knight", None
    if name == "merchant":
        resource = t.state.board.terrains[choice].resource
        kind = "" if resource is None else f"{resource.name.lower()} "
        return f"the merchant on {n.hex_place(choice)}: {kind}2:1 and 1 point", ("hex", (choice,))
    if name == "inventor":
        first, second = inventor_hexes(choice)
        text = f"number tokens swapped, now {n.hex_label(first)} and {n.hex_label(second)}"
        return text, ("hex", (first, second))
    return "", None


@tells(DesertKnight)
def knight_deserted(t: Telling) -> Told:
    """The knight a Deserter's opponent removes."""
    action, n = t.of(DesertKnight), t.narrator
    gone = next(ev for ev in t.news if isinstance(ev, E.KnightDisplaced))
    text = f"{n.who(action.seat)} removed a {LEVELS[gone.level]} knight"
    text += f" at {n.node_place(action.node)} (the Deserter)"
    return Told(text, "robber", ("node", (action.node,)), seat=action.seat)


@tells(PlaceDeserter)
def deserter_placed(t: Telling) -> Told:
    """The Deserter's knight placed, or none."""
    action, n = t.of(PlaceDeserter), t.narrator
    if action.node < 0:
        return Told(f"{t.who} placed no knight for the Deserter", "build")
    knight = progress_of(t.state).knights[action.node]
    state = "active" if knight.active else "inactive"
    place = n.node_place(action.node)
    text = f"{t.who} placed an {state} {LEVELS[knight.level]} knight at {place}"
    return Told(text + " (the Deserter)", "build", ("node", (action.node,)))
