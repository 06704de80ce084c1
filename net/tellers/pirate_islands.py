"""Pirate Islands' actions in words (seed 004; docs/rules/pirate-islands.md): the fleet
sailing with a roll, robbing without a robber, and fortress attacks."""

from __future__ import annotations

from hexlan.engine import events as E
from hexlan.engine.variants.pirate_islands import AttackFortress, FleetLoot, FortressDie, RobSeat
from hexlan.net.telling import Telling, Told, describe_cards, tells, tells_event


@tells_event(E.FleetSailed, "roll")
def fleet_sailed(t: Telling, ev: E.Event) -> str:
    """Where the fleet sailed with the lower die and whom it attacked, after the dice."""
    assert isinstance(ev, E.FleetSailed)
    if ev.victim < 0:
        return f"; the pirate fleet sails {ev.strength}"
    n = t.narrator
    who = n.whom(ev.victim)
    if ev.strength > ev.warships:
        outcome = f"{who} {n.verb(ev.victim, 'lose', 'loses')} cards"
    elif ev.strength < ev.warships:
        outcome = f"{who} {n.verb(ev.victim, 'beat', 'beats')} it off and takes a card"
    else:
        outcome = f"{who} {n.verb(ev.victim, 'hold', 'holds')} it off"
    return f"; the pirate fleet ({ev.strength}) attacks {who} ({ev.warships} warships): {outcome}"


@tells(RobSeat)
def robbed(t: Telling) -> Told:
    """After a 7, the roller robs a seat of its choice (there is no robber)."""
    action = t.of(RobSeat)
    n = t.narrator
    whom = n.whom(action.victim) if action.victim >= 0 else "nobody: no cards in hand"
    return Told(f"{t.who} {n.verb(t.active, 'rob', 'robs')} {whom}", "robber")


@tells(AttackFortress)
def attacked_fortress(t: Telling) -> Told:
    """A seat attacks its pirate fortress (the fortress's die follows)."""
    return Told(
        f"{t.who} {t.narrator.verb(t.active, 'attack', 'attacks')} the pirate fortress", "robber"
    )


@tells(FortressDie)
def fortress_rolled(t: Telling) -> Told:
    """The fortress's die against the warships, and what came of it."""
    n = t.narrator
    attack = next(ev for ev in t.news if isinstance(ev, E.FortressAttacked))
    text = f"The fortress rolled {attack.roll} against {attack.warships} warships: "
    if attack.ships_lost:
        lost = "a ship" if attack.ships_lost == 1 else f"{attack.ships_lost} ships"
        text += f"{t.who} {n.verb(attack.seat, 'lose', 'loses')} {lost}"
    elif attack.chits:
        text += f"{attack.chits} chit{'s' if attack.chits != 1 else ''} left"
    else:
        text += f"{t.who} {n.verb(attack.seat, 'capture', 'captures')} it!"
    return Told(text, "robber")


@tells(FleetLoot)
def looted(t: Telling) -> Told:
    """The cards the fleet took from the attacked seat, drawn blind (and what the roll then
    gave)."""
    action = t.of(FleetLoot)
    n = t.narrator
    loot = next(ev for ev in t.news if isinstance(ev, E.FleetLooted))
    text = (
        f"The pirate fleet takes {describe_cards(action.cards)} from {n.whom(loot.seat)}, "
        "drawn blind"
    )
    return Told(text + n.roll_went_on(t.news), "robber", seat=loot.seat)
