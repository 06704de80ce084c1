"""Seafarers' actions in words (seed 002 «Мореходы»; docs/rules/seafarers.md): ships, the
pirate, gold fields and the fog."""

from __future__ import annotations

from hexlan.engine import events as E
from hexlan.engine.core import Terrain
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    ExploreFog,
    MovePirate,
    MoveShip,
    sea,
)
from hexlan.net.tellers.base import placed_path
from hexlan.net.telling import Telling, Told, describe_cards, tells


@tells(BuildShip)
def built_ship(t: Telling) -> Told:
    """A ship, placed like a road."""
    return placed_path(t, "ship")


@tells(MoveShip)
def moved_ship(t: Telling) -> Told:
    """A ship moved to another sea side."""
    action = t.of(MoveShip)
    return Told(f"{t.who} moved a ship", "build", ("path", (action.target,)))


@tells(MovePirate)
def moved_pirate(t: Telling) -> Told:
    """The pirate moved to a sea hex, and whom it robs."""
    action = t.of(MovePirate)
    n = t.narrator
    text = f"{t.who} moved the pirate"
    if action.victim >= 0:
        text += f" and {n.verb(t.active, 'rob', 'robs')} {n.whom(action.victim)}"
    return Told(text, "robber", ("hex", (action.hex,)))  # the board numbers sea after land


@tells(ExploreFog, actor=lambda view: sea(view).fog_seat)
def explored(t: Telling) -> Told:
    """A fog tile drawn (:class:`~hexlan.engine.events.FogRevealed`): its terrain, number and
    the discoverer's resource; a land tile's number is a draw of its own."""
    found = [ev for ev in t.news if isinstance(ev, E.FogRevealed)]
    if not found:
        return Told(f"{t.who} drew a land tile from the fog; its number comes next")
    parts = []
    for ev in found:
        terrain = Terrain(ev.terrain).name.replace("_", " ").lower()
        token = f" {ev.token}" if ev.token else ""
        took = f", taking {describe_cards(ev.cards)}" if ev.cards else ""
        parts.append(f"{t.who} revealed {terrain}{token} from the fog{took}")
    return Told("; ".join(parts), "build", ("hex", tuple(ev.hex for ev in found)))


@tells(ChooseGold)
def chose_gold(t: Telling) -> Told:
    """A seat's pick from the gold fields (and what the roll then gave)."""
    action = t.of(ChooseGold)
    n = t.narrator
    text = (
        f"{n.who(action.seat)} {n.verb(action.seat, 'take', 'takes')} "
        f"{describe_cards(action.cards)} from the gold fields"
    )
    return Told(text + n.roll_went_on(t.news), seat=action.seat)
