"""What the heuristic bot knows of the Jungle (engine/variants/jungle.py; seed 002 «Джунгли»):
discoveries count as most of a resource toward a development card, and only toward one.

A spot on the jungle is worth its pips in discoveries (:data:`DISCOVERY_WEIGHT`); a card the
seat saves for costs it what its discoveries leave (:func:`card_cost`), and it buys cards with
as many discoveries as it may, standing for what its goal needs most (:func:`discovery_buy`).
Registered for the Jungle rules (:mod:`hexlan.engine.bots.knowledge`).
"""

from __future__ import annotations

from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.bots.goals import Goal
from hexlan.engine.bots.knowledge import KNOWLEDGE, GameKnowledge, Planner
from hexlan.engine.core import Hand, Seat, Terrain, as_hand, hand_minus
from hexlan.engine.state import GameState
from hexlan.engine.variants.jungle import BuyWithDiscoveries, Jungle

DISCOVERY_WEIGHT: Final = 0.6
"""What a pip of discoveries is worth beside a pip of a resource (they only buy cards)."""


def replaced(view: GameState, seat: Seat, cost: Hand, hand: list[int] | Hand) -> Hand:
    """What the seat's discoveries best replace of ``cost``: the resources the hand lacks
    first, then the rarest in hand (at most the rule set's limit per card)."""
    variant = view.variant
    assert isinstance(variant, Jungle)
    left = min(view.discoveries[seat], variant.most)
    spent = [0] * len(cost)
    for r in sorted(range(len(cost)), key=lambda r: (hand[r] >= cost[r], hand[r] - cost[r])):
        take = min(cost[r], left)
        spent[r] += take
        left -= take
    return as_hand(spent)


def card_cost(view: GameState, seat: Seat, cost: Hand) -> Hand:
    """The resources a development card costing ``cost`` takes once the seat's discoveries
    replace what they best may (:func:`replaced`)."""
    if not view.discoveries[seat]:
        return cost
    return hand_minus(cost, replaced(view, seat, cost, view.hands[seat]))


def discovery_buy(
    planner: Planner, view: GameState, seat: Seat, goal: Goal | None, legal: list[Action]
) -> Action | None:
    """The purchase with discoveries to make now, if any: as many discoveries as may be spent,
    standing for what the goal needs most (:func:`replaced`), when what is left to pay leaves
    the goal about as near."""
    if not view.discoveries[seat]:
        return None
    cost = view.rules.development_card_cost
    buy = BuyWithDiscoveries(replaced(view, seat, cost, view.hands[seat]))
    if buy not in legal:
        buys = [a for a in legal if isinstance(a, BuyWithDiscoveries)]
        if not buys:
            return None
        buy = max(buys, key=lambda a: sum(a.replaced))
    if planner.may_buy_card(view, seat, goal, hand_minus(cost, buy.replaced)):
        return buy
    return None


KNOWLEDGE.register(Jungle)(
    GameKnowledge(
        terrains=((Terrain.JUNGLE, DISCOVERY_WEIGHT),),
        card_cost=card_cost,
        card_buy=discovery_buy,
    )
)

__all__ = ["DISCOVERY_WEIGHT", "card_cost", "discovery_buy", "replaced"]
