"""Cities & Knights' progress cards that take from the others' hidden hands (official card
list; docs/rules/cities-and-knights.md): the Resource and Trade Monopolies, the Commercial
Harbor and the Master Merchant. :mod:`.progress_play` hands them the cards named in
:data:`NAMES`.

- ``resource_monopoly``: every other seat hands over up to two of the resource ``choice``;
  ``trade_monopoly``: one of the commodity ``choice``. Both are the base game's Monopoly with a
  cap (:attr:`~hexlan.engine.state.GameState.monopoly_cap`): its counts are revealed by a
  :data:`~hexlan.engine.chance.MONOPOLY_COUNTS` chance node, each seat showing only what it
  hands over (``min(held, cap)``), so a view learns "at least the cap" from a full count.
  Any number of them a turn (official; seed 002 «За один ход можно играть сколько угодно
  карточек»), at most one with the option ``ck_one_monopoly_per_turn``; a network game's
  ``count`` names its monopoly within the turn (docs/PROTOCOL.md §5).
- ``commercial_harbor``: its player offers each other seat holding cards, in turn order, a
  resource of its hand (:class:`~.actions.HarborOffer`, or -1 to pass the seat by); that seat
  answers (:class:`~.actions.HarborAnswer`) with a commodity of its choice, which the two swap,
  or -1, showing it holds no commodity: nothing moves (official: it "does not have to take the
  resource"). Offer and answer are public actions, in turn, like the Wedding's
  gifts; an answer of -1 narrows every view of that seat's hand to hands with no commodity.
- ``master_merchant``: the player names a seat with more victory points holding a card
  (``choice``); that seat's hand is shown to the player alone (:class:`~hexlan.engine.shown.HandShown`, a
  chance outcome: the player's view then knows it exactly), and the player takes two cards of
  its choice (:class:`~hexlan.engine.shown.HandTake`), seen by the two seats alone: every other view
  moves two hidden cards, as it does for a steal it does not see.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Final

from hexlan.engine.chance import HAND_SHOW, ChanceNode
from hexlan.engine.core import (
    COMMODITIES,
    RESOURCES,
    Hand,
    Phase,
    Resource,
    Seat,
    as_hand,
    one_kind,
)
from hexlan.engine.shown import HandShown, HandTake
from hexlan.engine.variants.cities_knights.actions import (
    HarborAnswer,
    HarborOffer,
    KnightsPhase,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.state import GameState

MONOPOLY_CAPS: Final = {"resource_monopoly": 2, "trade_monopoly": 1}
"""The most each other seat hands over to each monopoly card (official)."""
MONOPOLY_KINDS: Final = {"resource_monopoly": RESOURCES, "trade_monopoly": COMMODITIES}
"""The kinds each monopoly card may name: a resource, or a commodity (official)."""
NAMES: Final = frozenset({*MONOPOLY_CAPS, "commercial_harbor", "master_merchant"})
"""The cards this module plays."""
NO_OFFER: Final = -1
"""A Harbor offer passing a seat by, or an answer that holds no commodity."""
MERCHANT_TAKES: Final = 2
"""Cards the Master Merchant takes (official)."""


def plays(
    state: GameState,
    progress: Progress,
    seat: Seat,
    track: int,
    face: int,
    name: str,
    one_monopoly: bool = False,
) -> list[A.Action]:
    """The plays of the card ``name`` (``(track, face)``) open to ``seat`` now: a monopoly on
    each kind it may name (with ``one_monopoly``, the option ``ck_one_monopoly_per_turn``: if
    it played none this turn; officially any number a turn); the Harbor while the seat may hold
    a resource and another seat holds a card."""
    if name in MONOPOLY_KINDS:
        if one_monopoly and progress.monopolised:
            return []
        return [PlayProgress(track, face, int(k)) for k in MONOPOLY_KINDS[name]]
    if name == "master_merchant":
        return [PlayProgress(track, face, s) for s in merchant_victims(state, seat)]
    if trading_partners(state, seat) and _has_resource(state, seat):
        return [PlayProgress(track, face)]
    return []


def play(state: GameState, progress: Progress, name: str, choice: int) -> None:
    """The effect of the card ``name`` played by the active seat (``choice``: a monopoly's
    kind)."""
    if name in MONOPOLY_CAPS:
        state.monopoly = Resource(choice)
        state.monopoly_cap = MONOPOLY_CAPS[name]
        progress.monopolised = True
        state.robber_resume = state.phase
        state.phase = Phase.MONOPOLY
    elif name == "master_merchant":
        progress.merchant = choice
        state.phase = KnightsPhase.MERCHANT_SHOW
    else:
        progress.harbor = trading_partners(state, state.active)
        progress.harbor_offer = NO_OFFER
        state.phase = KnightsPhase.HARBOR


def trading_partners(state: GameState, seat: Seat) -> list[Seat]:
    """The seats the Commercial Harbor played by ``seat`` trades with: every other seat holding
    a card (public), in turn order from it."""
    order = [(seat + i) % state.players for i in range(1, state.players)]
    return [s for s in order if state.hand_size[s]]


def harbor_seat(state: GameState, progress: Progress) -> Seat:
    """Who decides in :attr:`~.actions.KnightsPhase.HARBOR`: the player, to make its next
    offer; the seat offered, to answer it."""
    return state.active if progress.harbor_offer == NO_OFFER else progress.harbor[0]


def harbor_actions(state: GameState, progress: Progress, seat: Seat) -> list[A.Action]:
    """The Harbor's choices of ``seat`` (:func:`harbor_seat`): each resource it may hold to
    offer, or no offer; each commodity it may hold to give, or none if it may hold none."""
    kinds = state.kinds
    if progress.harbor_offer == NO_OFFER:
        offers: list[A.Action] = [
            HarborOffer(int(r)) for r in RESOURCES if state.hand_covers(seat, one_kind(r, 1, kinds))
        ]
        return [*offers, HarborOffer(NO_OFFER)]
    answers: list[A.Action] = [
        HarborAnswer(seat, int(c))
        for c in COMMODITIES
        if state.hand_covers(seat, one_kind(c, 1, kinds))
    ]
    if state.hand_could(seat, _no_commodity):
        answers.append(HarborAnswer(seat, NO_OFFER))
    return answers


def offer(state: GameState, progress: Progress, action: HarborOffer) -> None:
    """The player's offer to the next seat (passing it by ends that seat's trade): every view
    now knows the player holds the resource offered."""
    kind = action.offer
    progress.harbor_offer = kind
    if kind == NO_OFFER:
        _next_partner(state, progress)
    else:
        state.hand_narrow(state.active, lambda h: h[kind] > 0, "offered a resource it lacks")


def answer(state: GameState, progress: Progress, action: HarborAnswer) -> None:
    """A seat's answer: the commodity and the offered resource change hands, or the seat shows
    it holds no commodity and nothing moves."""
    seat, player, kinds = action.seat, state.active, state.kinds
    if action.commodity == NO_OFFER:
        state.hand_narrow(seat, _no_commodity, "holds a commodity for the Commercial Harbor")
    else:
        given = one_kind(action.commodity, 1, kinds)
        offered = one_kind(progress.harbor_offer, 1, kinds)
        state.hand_pay(seat, given)
        state.hand_gain(player, given)
        state.hand_pay(player, offered)
        state.hand_gain(seat, offered)
    _next_partner(state, progress)


def _next_partner(state: GameState, progress: Progress) -> None:
    """On to the next seat; the turn goes on after the last."""
    progress.harbor.pop(0)
    progress.harbor_offer = NO_OFFER
    if not progress.harbor:
        state.phase = Phase.MAIN


def merchant_victims(state: GameState, seat: Seat) -> list[Seat]:
    """The seats whose hand the Master Merchant played by ``seat`` may open: those with more
    victory points (public in Cities & Knights) holding a card, in seat order (official)."""
    points = state.public_vp
    return [s for s in range(state.players) if points[s] > points[seat] and state.hand_size[s]]


def merchant_node(state: GameState, progress: Progress) -> ChanceNode:
    """The chance of :attr:`~.actions.KnightsPhase.MERCHANT_SHOW`: the victim's hand shown to
    the player alone."""
    return ChanceNode(
        HAND_SHOW, "merchant", seats=(state.active, progress.merchant), cards=MERCHANT_TAKES
    )


def merchant_outcomes(state: GameState, progress: Progress) -> list[tuple[A.Action, float]]:
    """The hand shown, as this state will see it: the true hand where it sees the victim's
    cards; each hand the victim may hold for the player, which sees it next; the hidden outcome
    for every other seat."""
    victim = progress.merchant
    if state.sees(victim):
        return [(HandShown(victim, as_hand(state.hands[victim])), 1.0)]
    if not state.sees(state.active):
        return [(HandShown(victim, None), 1.0)]
    hands = sorted(state.possible_hands(victim))
    return [(HandShown(victim, h), 1 / len(hands)) for h in hands]


def merchant_observation(
    state: GameState, progress: Progress, action: A.Action, seat: Seat
) -> A.Action:
    """What ``seat`` sees of the Master Merchant's show or take: the cards, if it is the player
    or the victim; else that the hand was shown, or that cards moved."""
    if seat in (state.active, progress.merchant):
        return action
    if isinstance(action, HandShown):
        return HandShown(action.seat, None)
    return HandTake(None) if isinstance(action, HandTake) else action


def shown(state: GameState, progress: Progress, action: HandShown) -> None:
    """The victim's hand is shown: a view that sees it keeps that hand alone; the player then
    takes its cards."""
    hand = action.hand
    if hand is not None:
        state.hand_narrow(action.seat, lambda h: h == hand, "showed a hand it does not hold")
    state.phase = KnightsPhase.MERCHANT


def merchant_takes(state: GameState, progress: Progress) -> list[A.Action]:
    """The player's takes: every two cards (all, if fewer) the victim may hold, as this state
    sees them; the one hidden take for a state that sees neither hand."""
    victim = progress.merchant
    if not state.sees(victim) and not state.sees(state.active):
        return [HandTake(None)]
    count = min(MERCHANT_TAKES, state.hand_size[victim])
    result: list[A.Action] = []
    for kinds in combinations_with_replacement(range(state.kinds), count):
        hand = [0] * state.kinds
        for kind in kinds:
            hand[kind] += 1
        if state.hand_covers(victim, as_hand(hand)):
            result.append(HandTake(as_hand(hand)))
    return result


def take(state: GameState, progress: Progress, action: HandTake) -> None:
    """The cards move from the victim to the player: as seen, or, unseen, as that many hidden
    cards of the victim's (as steals a third party does not see)."""
    player, victim = state.active, progress.merchant
    if action.taken is not None:
        state.hand_pay(victim, action.taken)
        state.hand_gain(player, action.taken)
    else:
        for _ in range(min(MERCHANT_TAKES, state.hand_size[victim])):
            state.hand_steal(player, victim, None)
    state.phase = Phase.MAIN  # the victim stays named till the turn's end (for the telling)


def why_not(state: GameState, progress: Progress, action: A.Action) -> tuple[str, str] | None:
    """Why a Harbor offer or answer is refused, as ``(reason, rule)``; None for other actions."""
    rule = "official Cities & Knights rules (Commercial Harbor)"
    if not isinstance(action, HarborOffer | HarborAnswer):
        return None
    if state.phase is not KnightsPhase.HARBOR:
        return ("no Commercial Harbor is being played", rule)
    if harbor_seat(state, progress) != action.actor(state.active):
        return (f"it is seat {harbor_seat(state, progress)}'s move in the Commercial Harbor", rule)
    if isinstance(action, HarborOffer):
        if action.offer not in RESOURCES:
            return ("the Commercial Harbor offers a resource (lumber .. ore), or none", rule)
        return (f"seat {state.active} holds no {Resource(action.offer).name.lower()}", rule)
    if action.commodity == NO_OFFER:
        return (f"seat {action.seat} holds a commodity: it must give one", rule)
    if action.commodity not in COMMODITIES:
        return ("the Commercial Harbor is answered with a commodity (paper, cloth, coin)", rule)
    return (f"seat {action.seat} holds no {Resource(action.commodity).name.lower()}", rule)


def _has_resource(state: GameState, seat: Seat) -> bool:
    return state.hand_could(seat, lambda h: any(h[r] for r in RESOURCES))


def _no_commodity(hand: Hand) -> bool:
    return not any(hand[c] for c in COMMODITIES if c < len(hand))
