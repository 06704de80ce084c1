"""What the heuristic bot knows of a game beyond the base game, registered by the game's own bot
modules, so that the bot (:mod:`hexlan.engine.bots.heuristic`, and the search bot that plays
it out) names no game.

A game's spec names its bot modules as ``bots`` (:class:`~hexlan.engine.gamespec.GameSpec`);
each registers a :class:`GameKnowledge` for its rules class in :data:`KNOWLEDGE`, and the bot
reads :func:`knowledge_of` the game's rules: each field is found along the rules class's
bases, so Pirate Islands plays Seafarers' gold, pirate and sea goals and adds its own choices.
What a game leaves at None is the base game's play. A game's functions may ask the bot for
its judgement through a :class:`Planner`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final, Protocol

from hexlan.engine.actions import Action
from hexlan.engine.bots.goals import Goal
from hexlan.engine.core import Hand, NodeId, PathId, Seat, Terrain
from hexlan.engine.slots import RulesSlot
from hexlan.engine.state import GameState
from hexlan.engine.variants import game_specs

if TYPE_CHECKING:
    from hexlan.engine.variants.base import Variant


class Planner(Protocol):
    """The heuristic bot's judgement, lent to a game's functions for one decision."""

    def goal(self, view: GameState, seat: Seat) -> Goal | None:
        """The seat's best goal now (None: nothing to save for)."""
        ...  # pragma: no cover

    def rates(self, view: GameState, seat: Seat) -> list[float]:
        """Expected cards of each kind per own turn, at the seat's production."""
        ...  # pragma: no cover

    def best(self, legal: list[Action], value: Callable[[Action], float]) -> Action:
        """The action of highest ``value``, ties broken by the bot's rng."""
        ...  # pragma: no cover

    def settlement_value(self, view: GameState, node: NodeId, own: list[float]) -> float:
        """What a settlement on ``node`` is worth (rough victory points) to a seat whose
        buildings make ``own`` pips of each kind."""
        ...  # pragma: no cover

    def may_buy_card(self, view: GameState, seat: Seat, goal: Goal | None, cost: Hand) -> bool:
        """Whether paying ``cost`` for a development card leaves ``goal`` about as near."""
        ...  # pragma: no cover


Choice = Callable[[GameState, Seat, list[Action]], Action | None]
"""``choice(view, seat, legal)``: the game's move now, or None to let the general play decide."""
PhaseChoice = Callable[[Planner, GameState, Seat, list[Action]], Action | None]
"""``phase(planner, view, seat, legal)``: the choice in a phase of the game's own that the
general play does not know, or None (then the first legal action)."""
Points = Callable[[GameState, Seat, NodeId, PathId], float]
"""``points(view, seat, node, path)``: the victory points (a fraction) a building on ``node``
(-1: none) or a road on ``path`` (-1: none) brings the seat by the game's own rules."""
Goals = Callable[[GameState, Seat], list[Goal]]
"""``goals(view, seat)``: goals of the game's own (their waits are the bot's to work out)."""
SettleGoal = Callable[[Planner, GameState, Seat, list[float], Goal | None], Goal | None]
"""``settle(planner, view, seat, own, best)``: the better of ``best`` (the best settlement
goal by roads, or None) and the game's own ways to a settlement spot; ``own`` as for
:meth:`Planner.settlement_value`."""
RobberValue = Callable[[GameState, Seat, Action], float | None]
"""``robber(view, seat, action)``: what a legal action of the robber phase is worth, or None
for one the general play values (a move of the robber)."""
CardCost = Callable[[GameState, Seat, Hand], Hand]
"""``card_cost(view, seat, cost)``: what a development card costing ``cost`` costs the seat in
resources."""
CardBuy = Callable[[Planner, GameState, Seat, Goal | None, list[Action]], Action | None]
"""``card_buy(planner, view, seat, goal, legal)``: a purchase of a development card of the
game's own to make now, or None."""


@dataclass(frozen=True, slots=True)
class GameKnowledge:
    """What the heuristic bot knows of one game; None (or empty) where the game plays as the
    base game, or as the game its rules build on.

    Attributes:
        choice: its move before the general play decides (Pirate Islands' warships and fleet,
            Cities & Knights' knights, cities and progress cards).
        phase: its choice in the game's own phases (Seafarers' gold pick).
        terrains: ``(terrain, weight)``: what a pip of a hex of ``terrain`` is worth to a
            settlement spot beside a pip of a resource (the Jungle's discoveries, Seafarers'
            gold).
        points: the points its buildings and roads bring (the Big River's gold points).
        goals: its own goals (Cities & Knights' city improvements, the Big River's road).
        settle: its own ways to a settlement spot (Seafarers' ships).
        robber: its own actions of the robber phase (Seafarers' pirate).
        card_cost: what a development card costs the seat (the Jungle's discoveries).
        card_buy: its own purchase of a development card (the Jungle's, with discoveries).
    """

    choice: Choice | None = None
    phase: PhaseChoice | None = None
    terrains: tuple[tuple[Terrain, float], ...] = ()
    points: Points | None = None
    goals: Goals | None = None
    settle: SettleGoal | None = None
    robber: RobberValue | None = None
    card_cost: CardCost | None = None
    card_buy: CardBuy | None = None


BASE_GAME: Final = GameKnowledge()
"""The base game's knowledge: nothing beyond the bot's general play."""


@cache
def import_bot_modules() -> None:
    """Import the bot modules every game's spec names, once (they register in
    :data:`KNOWLEDGE`, and a game with a state of its own in
    :data:`hexlan.engine.bots.own.OWN_BOTS`)."""
    for spec in game_specs():
        for module in spec.bots:
            importlib.import_module(module)


KNOWLEDGE: Final = RulesSlot[GameKnowledge]("bot knowledge", import_bot_modules)
"""Each game's :class:`GameKnowledge`, registered by its bot modules for its rules class."""


def knowledge_of(variant: Variant | None) -> GameKnowledge:
    """What the bot knows of the game ``variant`` rules (None: the base game): each field the
    nearest registered along the rules class's bases sets, else the base game's.

    Pirate Islands makes its own choices and picks gold as Seafarers, whose rules it builds on:

    >>> from hexlan.engine.maps import load_map
    >>> from hexlan.engine.options import GameOptions
    >>> from hexlan.engine.ruleset import load_ruleset
    >>> from hexlan.engine.variants import make_variant
    >>> rules = load_ruleset("seafarers-pirate-islands")
    >>> rules_module = make_variant(rules, GameOptions(), load_map(rules.board).topology)
    >>> pirates = knowledge_of(rules_module)
    >>> pirates.choice.__module__, pirates.phase.__module__
    ('hexlan.engine.bots.pirates', 'hexlan.engine.bots.seafaring')
    >>> knowledge_of(None) is BASE_GAME
    True
    """
    found = KNOWLEDGE.along(variant)
    if not found:
        return BASE_GAME
    fields = {
        field.name: next(
            (v for k in found if (v := getattr(k, field.name))), getattr(BASE_GAME, field.name)
        )
        for field in dataclasses.fields(GameKnowledge)
    }
    return GameKnowledge(**fields)


__all__ = [
    "BASE_GAME",
    "KNOWLEDGE",
    "GameKnowledge",
    "Planner",
    "import_bot_modules",
    "knowledge_of",
]
