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
from hexlan.engine.chance import DECK_DRAW, RESHUFFLE, ChanceNode
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.phases import (
    DRAW,
    FATE_DECK,
    ROLL,
    SETUP,
)

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
        state.enter(state.after_draws)


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


__all__ = [
    "draw_node",
    "drawn",
    "queue_draws",
    "reshuffled",
    "spend",
    "start_player",
]
