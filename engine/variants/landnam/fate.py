"""Landnám's fate cards: the deck and its draws, the set-up search for an Exploration card, and
playing a card in the sub-phase its mark names (../shared/landnam-rules.md §4.4, §16; gaps G1,
G18, G22, G23).

The deck is a mental-poker deck over the network like the development deck: a draw is a chance
node of kind :data:`~hexlan.engine.chance.DECK_DRAW` (face down but for the set-up's cards), and
when the deck runs out its discards are reshuffled (:data:`~hexlan.engine.chance.RESHUFFLE`: a new deck
generation with a fresh shuffle by every seat, gap G18). With both empty, no card is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.chance import DECK_DRAW, RESHUFFLE, ChanceNode
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import althing, economy, flow, movement
from hexlan.engine.variants.landnam.phases import (
    ALTHING_OPEN,
    CASE,
    DRAW,
    FATE_DECK,
    HARVEST_CARD,
    MOVE,
    ROLL,
    SETUP,
    SUING,
)
from hexlan.engine.variants.landnam.rules import Fate

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState


def draw_node(state: LandnamState) -> ChanceNode:
    """The fate draw due (set-up or queued), or the reshuffle that must come first."""
    if state.shuffle_due or state.deck_size == 0:
        return ChanceNode(RESHUFFLE, "fate", deck=FATE_DECK)
    if state.phase == SETUP:
        return ChanceNode(
            DECK_DRAW, "setup", deck=FATE_DECK, seats=(state.setup_seat,), public=True
        )
    seat, public = state.draws[0]
    return ChanceNode(DECK_DRAW, "fate", deck=FATE_DECK, seats=(seat,), public=public)


def queue_draws(state: LandnamState, seats: list[Seat], then: str) -> None:
    """Draw one fate card for each of ``seats`` in order, then enter phase ``then`` (a seat's
    draw is skipped when the deck and the discards are both empty, gap G18)."""
    state.draws = [(seat, False) for seat in seats]
    state.after_draws = then
    state.phase = DRAW
    _settle(state)


def _settle(state: LandnamState) -> None:
    """Leave the draws once none is due (none can be, with no card left anywhere)."""
    if state.shuffle_due:
        return
    if state.deck_size == 0 and not any(state.discard):
        state.draws.clear()
    if not state.draws:
        flow.enter(state, state.after_draws)


def start_player(state: LandnamState, action: A.StartPlayer) -> None:
    """The start player is chosen (§4.6); the set-up's fate search begins with it (§4.4)."""
    state.start = state.active = action.seat
    state.setup_seat = action.seat
    state.phase = SETUP


def drawn(state: LandnamState, action: L.DrawFate) -> None:
    """A fate card is drawn: at the set-up, kept and shown if it is an Exploration card, else
    put back (§4.4, gap G23); later, into the drawer's hand."""
    state.deck_size -= 1
    face = action.face
    if face != L.NO_CARD:
        state.unseen[face] -= 1
    if state.phase == SETUP:
        _setup_card(state, action.seat, face)
        return
    if face == L.NO_CARD:
        state.hidden[action.seat] += 1
    else:
        state.fate[action.seat][face] += 1
    state.draws.pop(0)
    _settle(state)


def _setup_card(state: LandnamState, seat: Seat, face: int) -> None:
    """One card of the set-up's search (§4.4-4.5): the put-back cards are reshuffled into the
    deck once every seat has its Exploration card."""
    if state.rules.fate_marks[face] != "exploration":
        state.put_back[face] += 1
        return
    state.fate[seat][face] += 1
    state.shown[seat][face] += 1
    state.setup_seat = state.next_seat(seat)
    if state.setup_seat != state.start:
        return
    state.setup_seat = -1
    state.shuffle_due = any(state.put_back)
    state.draws = []
    state.after_draws = ROLL
    state.phase = DRAW
    _settle(state)


def reshuffled(state: LandnamState, action: L.Reshuffle) -> None:
    """The put-back (set-up, §4.5) or the discarded (gap G18) cards are shuffled into the deck."""
    pile = state.put_back if state.shuffle_due else state.discard
    for face, count in enumerate(pile):
        state.unseen[face] += count
        state.deck_size += count
        pile[face] = 0
    state.shuffle_due = False
    _settle(state)


def spend(state: LandnamState, seat: Seat, face: int) -> None:
    """``seat`` plays a card of ``face``: out of its hand (a shown one first) onto the discards."""
    if state.fate[seat][face]:
        state.fate[seat][face] -= 1
        if state.shown[seat][face]:
            state.shown[seat][face] -= 1
    else:
        state.hidden[seat] -= 1
        state.unseen[face] -= 1
    state.discard[face] += 1


def harvest_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """The active seat's choices after a harvest roll: take it, or play one Harvest card
    (§6.2, gap G22): Good year up or down by one (never to 7, within 2-12), Full barns,
    Steady seasons."""
    choices: list[Action] = [L.Harvest()]
    for face in state.holds(seat, "harvest"):
        if face == Fate.GOOD_YEAR:
            for change in (-1, 1):
                total = state.roll + change
                if 2 <= total <= 12 and total != 7:
                    choices.append(L.PlayFate(seat, face, -1, change))
        else:
            choices.append(L.PlayFate(seat, face))
    return choices


def movement_cards(state: LandnamState, seat: Seat) -> list[Action]:
    """The Movement cards the active seat may play in the movement phase (§9.5, §16.2):
    Landing and Drive off for the next step (one of each in force at a time), Fair wind for an
    extra step once the normal steps are spent."""
    choices: list[Action] = []
    for face in state.holds(seat, "movement"):
        if (
            (face == Fate.LANDING and not state.landing)
            or (face == Fate.DRIVE_OFF and not state.drive_off)
            or (face == Fate.FAIR_WIND and movement.steps_left(state) == 0)
        ):
            choices.append(L.PlayFate(seat, face))
    return choices


def althing_cards(state: LandnamState, seat: Seat) -> list[Action]:
    """The Althing cards ``seat`` may play now (§8.7, §16.2): Atonement on any red token,
    Flawed pleading while a case is in progress, Thing broken up."""
    choices: list[Action] = []
    for face in state.holds(seat, "althing"):
        if face == Fate.ATONEMENT:
            for number, unit in enumerate(state.units):
                if unit is not None:
                    choices.extend(
                        L.PlayFate(seat, face, number, i) for i in range(len(unit.tokens))
                    )
        elif face == Fate.FLAWED_PLEADING:
            if state.phase == CASE:
                choices.append(L.PlayFate(seat, face))
        else:
            choices.append(L.PlayFate(seat, face))
    return choices


def played(state: LandnamState, action: L.PlayFate) -> None:
    """A fate card's effect (§16.2); the card goes to the discards."""
    spend(state, action.seat, action.face)
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


def fate_playable_phase(state: LandnamState) -> str:
    """The mark of the cards that may be played in the current phase ("" for none)."""
    if state.phase == HARVEST_CARD:
        return "harvest"
    if state.phase == MOVE:
        return "movement"
    if state.phase in (ALTHING_OPEN, SUING, CASE):
        return "althing"
    return ""


__all__ = [
    "althing_cards",
    "draw_node",
    "drawn",
    "fate_playable_phase",
    "harvest_choices",
    "movement_cards",
    "played",
    "queue_draws",
    "reshuffled",
    "spend",
    "start_player",
]
