"""Why an action is not legal in a Landnám state: every refusal names its rule
(../shared/landnam-rules.md), as the engine's do (:class:`~hexlan.engine.core.IllegalActionError`).

An action is legal when it is among the state's legal actions for its seat, with two openings:
a trade offer of any cards (legal actions list one-for-one offers only), and, in one seat's view,
another seat's fate card this view has not seen (legal if the seat may hold it: the card is
checked as if held, and the audit shows the face at the end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine import actions as A
from hexlan.engine.actions import Action, VariantAction
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.althing import need
from hexlan.engine.variants.landnam.economy import build_refusal
from hexlan.engine.variants.landnam.movement import move_refusal
from hexlan.engine.variants.landnam.phases import (
    AGE_PICK,
    CASE,
    CHANCE_PHASES,
    FLEE,
    INVITED,
    MOVE,
    OVER,
    SEER,
    SUING,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import Fate

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState

Refusal = tuple[str, str]
"""A refusal's reason and rule."""

_BUILDS = (L.BuildFarm, L.BuildTown, L.BuildUnit, L.BuildHarbour, L.AgeNumber)


def refusal(state: LandnamState, action: Action) -> Refusal | None:
    """Why ``action`` is not legal now, or None when it is."""
    if state.phase == OVER:
        return "the game is over", "landnam §15"
    chance = getattr(type(action), "chance", False) or isinstance(action, A.StartPlayer | A.Dice)
    if state.phase in CHANCE_PHASES or chance:
        return _chance_refusal(state, action, chance)
    seat = action.actor(state.active) if isinstance(action, VariantAction) else state.active
    actor = state.acting_seats()[0]
    if seat != actor:
        return f"it is seat {actor}'s decision now, not seat {seat}'s", "landnam §5"
    if isinstance(action, L.OfferTrade):
        return _offer_refusal(state, action)
    face = card_of(action)
    if face is not None:
        if not 0 <= face < len(state.rules.fate_deck) or not state.may_hold(seat, face):
            return "the seat holds no such fate card", "landnam §16.1"
        state = _supposing(state, seat, face)
    if action in state.legal_actions(seat):
        return None
    return _reason(state, seat, action)


def _chance_refusal(state: LandnamState, action: Action, chance: bool) -> Refusal | None:
    """A chance outcome must be one the node due allows; a seat's action waits for chance."""
    if not chance:
        return "a chance outcome is due, not a seat's decision", "landnam §5"
    if state.phase not in CHANCE_PHASES:
        return "no chance outcome is due now", "landnam §5"
    node = state.chance_node()
    assert node is not None
    if node.outcomes:
        return (
            None if action in node.outcomes else ("not an outcome of the dice due", "landnam §10.2")
        )
    if isinstance(action, L.Reshuffle):
        return None if node.kind == "reshuffle" else ("no reshuffle is due", "landnam §16, G18")
    if (
        not isinstance(action, L.DrawFate)
        or node.seats != (action.seat,)
        or action.public != node.public
    ):
        return "the fate draw due is another", "landnam §16"
    if action.face == L.NO_CARD:
        return (
            None
            if state.viewer not in (None, action.seat)
            else ("the drawer sees its card", "landnam §16")
        )
    if not 0 <= action.face < len(state.unseen) or not state.unseen[action.face]:
        return "no such fate card is left in the deck", "landnam §16"
    return None


def card_of(action: Action) -> int | None:
    """The fate card an action plays, if any."""
    if isinstance(action, L.PlayFate):
        return action.face
    if isinstance(action, L.Move) and action.fate != L.NO_CARD:
        return action.fate
    return None


def _supposing(state: LandnamState, seat: int, face: int) -> LandnamState:
    """``state`` itself when it knows ``seat`` holds ``face``; else a copy in which one of the
    seat's unseen cards is that face (a view checking another seat's card)."""
    if state.fate[seat][face]:
        return state
    other = state.copy()
    other.hidden[seat] -= 1
    other.unseen[face] -= 1
    other.fate[seat][face] += 1
    return other


def _offer_refusal(state: LandnamState, action: L.OfferTrade) -> Refusal | None:
    """A trade offer (§11.3): in trade and building, to another seat, each side at least one
    card, the active seat holding what it gives."""
    rule = "landnam §11.3"
    if state.phase != TRADE:
        return "trade offers are made in the trade and building phase", rule
    if not 0 <= action.to < state.players or action.to == state.active:
        return "an offer goes to another seat", rule
    if state.offers >= state.rules.offers_per_turn:
        return f"the active seat may make {state.rules.offers_per_turn} offers a turn", rule
    hands = (action.give, action.get)
    if any(len(h) != 4 or min(h) < 0 or not sum(h) for h in hands):
        return "each side of a trade gives at least one resource card", rule
    if any(h < n for h, n in zip(state.hands[state.active], action.give, strict=True)):
        return "the active seat does not hold the cards it offers", rule
    return None


def _reason(state: LandnamState, seat: int, action: Action) -> Refusal:
    """The rule an action outside the legal ones breaks, as near as can be said."""
    if isinstance(action, _BUILDS) and state.phase == TRADE:
        return build_refusal(state, seat, action) or "not a legal build now", "landnam §12"
    if isinstance(action, L.Bid) and state.phase == CASE:
        case = state.althing.case if state.althing else None
        if case is not None and action.cards > state.hands[seat][case.kind]:
            return "the seat does not hold so many cards of the case's resource", "landnam §8.5"
        return (
            f"a raise must bring the side's total above the other's: at least {need(state)}",
            "landnam §8.5.2",
        )
    if isinstance(action, L.Join):
        if state.phase == INVITED:
            return "the invited seat joins with cards it holds, or declines", "landnam §8.5.4"
        return "only a seat invited to a case joins it", "landnam §8.5.4"
    if isinstance(action, L.Sue) and state.phase == SUING:
        return (
            "a case is brought once against another seat's unit beside the seat's settlement,"
            " opening with at least one card of its resource that the seat holds",
            "landnam §8.3, §8.5.1",
        )
    if isinstance(action, L.Invite):
        return (
            "only the side's last joiner invites, an uninvolved seat holding the case's resource",
            "landnam §8.5.4",
        )
    if isinstance(action, L.PlayFate):
        mark = state.rules.fate_marks[action.face]
        return (
            f"{Fate(action.face).words} is marked {mark}: it is played only then and as it says",
            "landnam §16.1",
        )
    if state.phase == TRADE and isinstance(action, L.BankTrade | L.HarbourTrade):
        return _trade_reason(action)
    if isinstance(action, L.AnswerTrade):
        return "the offered seat accepts only holding the cards asked for, or declines", (
            "landnam §11.3"
        )
    if isinstance(action, L.AgeHex) and state.phase == AGE_PICK:
        return "the hex that ages is one of those that paid this harvest", "landnam §6.5, G10"
    if isinstance(action, L.ChooseSeer) and state.phase == SEER:
        return "Seer's counsel chooses one of the two green and one of the two red dice", (
            "landnam §16.2"
        )
    if isinstance(action, L.Move) and state.phase == MOVE:
        return move_refusal(state, seat, action)
    if isinstance(action, L.Flee) and state.phase == FLEE:
        return (
            "a chased unit steps once by its normal rules: not exploring, not back where the"
            " chaser came from, into no occupied hex",
            "landnam §9.7",
        )
    return f"{type(action).__name__} is not legal in the {state.phase} phase", "landnam §5"


def _trade_reason(action: L.BankTrade | L.HarbourTrade) -> Refusal:
    """Why a trade with the stock is refused (§11.1, §11.2)."""
    if isinstance(action, L.BankTrade):
        return (
            "four cards of one kind buy one card of another kind the stock holds",
            "landnam §11.1",
        )
    return (
        "two cards of a harbour's resource buy one of another kind, by the seat's own ship on the"
        " harbour, or its settlement beside it with no ship there; not at a harbour built this turn",
        "landnam §11.2",
    )


__all__ = ["Refusal", "card_of", "refusal"]
