"""The heuristic bot's measures: goals (something to save for) and the turns until a hand pays
for one, and what robbing a seat is worth.

Shared by :mod:`hexlan.engine.bots.heuristic` and the games' own bot modules
(:mod:`hexlan.engine.bots.knowledge`), which add goals of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hexlan.engine.actions import Action
from hexlan.engine.core import Hand, NodeId, PathId, Seat
from hexlan.engine.state import GameState

Step = Callable[[list[Action], PathId], Action | None]
"""``step(legal, path)``: the legal action that takes a goal's first step on ``path`` by a
game's own pieces (Seafarers' ships), or None."""


@dataclass(slots=True)
class Goal:
    """Something to save for.

    Attributes:
        kind: "city", "settlement", "dev", "road" (a road that completes a victory point: Big
            River's on the river) or a game's own ("improve": a Cities & Knights city
            improvement).
        cost: the resources it needs in all (roads to a settlement spot included).
        value: what it is worth, in rough victory points.
        node: the city or settlement intersection (-1 for a development card).
        path: the first road to build toward the settlement spot, or the goal's road (-1 when
            none is needed).
        roads: roads (or, with ``step``, the game's own pieces) still needed to reach the spot.
        eta: estimated turns until it is affordable.
        step: the spot is reached by a game's own pieces, not roads (Seafarers' ships), and
            this finds the first one's action on ``path``; None: by roads.
    """

    kind: str
    cost: Hand
    value: float
    node: NodeId = -1
    path: PathId = -1
    roads: int = 0
    eta: float = 0.0
    step: Step | None = None

    @property
    def score(self) -> float:
        """Value per turn of waiting (higher is better)."""
        return self.value / (1.0 + self.eta)


def lacking(cost: Hand, hand: list[int] | Hand) -> list[int]:
    """Cards of each kind ``hand`` lacks to pay ``cost``."""
    return [max(0, cost[r] - hand[r]) for r in range(len(cost))]


def bank_trades(cost: Hand, hand: list[int] | Hand, ratios: list[int]) -> int:
    """Cards the bank would give for what the hand holds beyond ``cost``."""
    return sum((hand[r] - cost[r]) // ratios[r] for r in range(len(cost)) if hand[r] > cost[r])


def eta(cost: Hand, hand: list[int] | Hand, rates: list[float], ratios: list[int]) -> float:
    """Rough turns until ``hand`` covers ``cost`` at the given per-turn production rates."""
    waits: list[float] = []
    for r in range(len(cost)):
        lack = cost[r] - hand[r]
        for k in range(1, lack + 1):
            waits.append(k / (rates[r] + 0.06))
    if not waits:
        return 0.0
    trades = bank_trades(cost, hand, ratios)
    if trades >= len(waits):
        return 0.05 * len(waits)
    waits.sort(reverse=True)
    waits = waits[trades:]
    return waits[0] + 0.25 * sum(waits[1:])


def victim_weight(vp: list[int], leader: int, seat: Seat) -> float:
    """How much hurting ``seat`` is worth to the robber, by its public victory points ``vp``
    (``leader``: the most any seat shows)."""
    return 1.0 + vp[seat] / 4 + (1.5 if vp[seat] == leader else 0.0)


def steal_value(view: GameState, victim: Seat) -> float:
    """What robbing ``victim`` of a card is worth: more from a big hand and a leading seat."""
    return 2.0 + 0.3 * min(view.hand_size[victim], 8) + view.public_vp[victim] / 2
