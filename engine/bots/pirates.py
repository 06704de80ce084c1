"""Pirate Islands' choices for the heuristic bot (seed 004; docs/rules/pirate-islands.md): what
the scenario adds to a turn, before the bot's general play.

The plan: turn every knight into a warship at once (they guard against the fleet and win the
fortress), extend the ship line whenever it can pay, buy development cards for knights while the
line is short of warships, and attack the fortress once the warships make a won attack likely.
Registered for the Pirate Islands rules (:mod:`hexlan.engine.bots.knowledge`); the rest of its
play is Seafarers' (:mod:`.seafaring`), which its rules build on.
"""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots.knowledge import KNOWLEDGE, GameKnowledge
from hexlan.engine.core import (
    Phase,
    Seat,
)
from hexlan.engine.state import GameState
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    PirateIslands,
    RobSeat,
    fleet,
)
from hexlan.engine.variants.seafarers import BuildShip

ATTACK_WARSHIPS = 4
"""Warships from which the bot attacks its fortress: a won attack then beats a lost one (a die
below 4 takes a chit, 4 costs a ship, 5-6 two)."""
WANTED_WARSHIPS = 6
"""Warships the bot buys development cards for (six beat every die but a 6)."""


def pirate_choice(view: GameState, seat: Seat, legal: list[Action]) -> Action | None:
    """The scenario's move for ``seat`` now, or None to let the general play decide (a city or
    settlement first, trades, the end of the turn).

    Args:
        view: the seat's view of a Pirate Islands game (any other game: None).
        seat: the deciding seat.
        legal: its legal actions now.
    """
    variant = view.variant
    if not isinstance(variant, PirateIslands):
        return None
    phase = view.phase
    if phase is Phase.MOVE_ROBBER:  # seed 004 «"7"»: rob the leader with the most cards
        robs = [a for a in legal if isinstance(a, RobSeat)]
        return max(robs, key=lambda a: (view.public_vp[a.victim], view.hand_size[a.victim]))
    if A.PLAY_KNIGHT in legal:
        return A.PLAY_KNIGHT
    if phase is not Phase.MAIN:
        return None
    warships = fleet(view).warships[seat]
    if AttackFortress() in legal and (
        warships >= ATTACK_WARSHIPS or (warships >= 2 and not view.deck_size())
    ):
        return AttackFortress()
    if any(isinstance(a, A.BuildCity | A.BuildSettlement) for a in legal):
        return None
    ships = [a for a in legal if isinstance(a, BuildShip)]
    if ships:
        return ships[0]
    if warships < WANTED_WARSHIPS and A.BUY_DEVELOPMENT_CARD in legal:
        return A.BUY_DEVELOPMENT_CARD
    return None


KNOWLEDGE.register(PirateIslands)(GameKnowledge(choice=pirate_choice))
