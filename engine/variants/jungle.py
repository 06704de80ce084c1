"""The Jungle (seed 002 «Джунгли»; docs/rules/jungle.md): the desert becomes a jungle that yields
discoveries, which help to buy development cards.

- The jungle hex (terrain :attr:`~hexlan.engine.core.Terrain.JUNGLE`) carries a number token of
  its own (the map's, or the ``jungle_number`` option: 3, 4, 5, 9, 10 or 11, official variant).
- When its number is rolled, each settlement on its corners brings its owner one discovery and
  each city two (seed 002 «Джунгли»), unless the robber stands on it (official variant; the
  ``jungle_robber_blocks`` option turns that off). The robber starts on the jungle (official).
- Discoveries are public counters (``GameState.discoveries``), not cards: they are not in the hand,
  so they count toward no discard, and no steal, trade, Monopoly or Year of Plenty touches them.
- Buying a development card, 1 to 3 discoveries may each replace one resource of its cost
  (:class:`BuyWithDiscoveries`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Final

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.core import EngineError, Hand, HexId, Phase, Seat, Terrain, as_hand, hand_minus
from hexlan.engine.gamespec import GameOption, GameSpec
from hexlan.engine.variants.base import Variant, VariantHandler

if TYPE_CHECKING:
    from hexlan.engine.board import Board
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology


@dataclass(frozen=True, slots=True)
class BuyWithDiscoveries(A.VariantAction):
    """Jungle: buy a development card letting discoveries replace 1 to 3 resources of its cost,
    one each, then draw as :class:`BuyDevelopmentCard` does (seed 002 «Джунгли»).

    Attributes:
        replaced: the resources of the cost the discoveries stand for, a hand in card-kind
            order (its sum is the discoveries spent); the seat pays the rest of the cost.
    """

    replaced: Hand

    hand_fields: ClassVar[frozenset[str]] = frozenset({"replaced"})


@cache
def replacements(cost: Hand, most: int) -> tuple[BuyWithDiscoveries, ...]:
    """Every purchase with discoveries of a card costing ``cost``: each way to replace 1 to
    ``most`` of its resources, fewest discoveries first, then in resource order.

    >>> [a.replaced for a in replacements((0, 0, 1, 1, 1), 1)]
    [(0, 0, 1, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 1)]
    >>> len(replacements((0, 0, 1, 1, 1), 3))
    7
    """
    found: list[Hand] = []

    def build(prefix: list[int]) -> None:
        r = len(prefix)
        if r == len(cost):
            if 1 <= sum(prefix) <= most:
                found.append(as_hand(prefix))
            return
        for n in range(cost[r] + 1):
            build([*prefix, n])

    build([])
    found.sort(key=lambda h: (sum(h), [-n for n in h]))
    return tuple(BuyWithDiscoveries(h) for h in found)


class Jungle(Variant):
    """The Jungle's hooks (see the module docstring).

    Raises:
        EngineError: a ``jungle_number`` the rule set does not allow (constructing), or a board
            without a jungle (:meth:`prepare_board`).
    """

    name: ClassVar[str] = "jungle"

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        super().__init__(rules, options, topology)
        table = rules.raw["jungle"]
        self.numbers = tuple(int(n) for n in table["numbers"])
        self.most = int(table["most_per_card"])
        self.per_building = int(table["discoveries_per_level"])
        number = options.number("jungle_number")
        if number is not None and number not in self.numbers:
            raise EngineError(
                f"the jungle takes one of the numbers {', '.join(map(str, self.numbers))},"
                f" not {number} (official Jungle variant)"
            )
        self.robber_blocks = options.flag("jungle_robber_blocks")
        self.buys = replacements(rules.development_card_cost, self.most)
        self.jungle: tuple[HexId, ...] = ()

    def prepare_board(self, board: Board) -> Board:
        """The board with the ``jungle_number`` option's token on the jungle, if set.

        Raises:
            EngineError: the board has no jungle.
        """
        jungle = tuple(h for h, t in enumerate(board.terrains) if t is Terrain.JUNGLE)
        if not jungle:
            raise EngineError("a Jungle game needs a jungle on its board (seed 002 «Джунгли»)")
        self.jungle = jungle
        number = self.options.number("jungle_number")
        if number is None:
            return board
        tokens = tuple(number if h in jungle else t for h, t in enumerate(board.tokens))
        return replace(board, tokens=tokens)

    def after_roll(self, state: GameState, total: int) -> None:
        """Discoveries for the jungle's number: 1 a settlement, 2 a city on its corners (seed 002
        «Джунгли»); none while the robber stands there (official variant)."""
        tokens, owner, level = state.board.tokens, state.node_owner, state.node_level
        found = [0] * state.players
        for h in self.jungle:
            if tokens[h] != total or (self.robber_blocks and state.robber == h):
                continue
            for node in self.topology.hex_nodes[h]:
                if owner[node] >= 0:
                    found[owner[node]] += self.per_building * level[node]
        if any(found):
            for seat, n in enumerate(found):
                state.discoveries[seat] += n
            if state.record_events:
                state.last_events.append(E.Discovered(total, tuple(found)))

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Each purchase with 1 to 3 discoveries the seat can pay the rest of (seed 002
        «Джунгли»: "При покупке карты Развития может быть использовано от 1 до 3 фишек")."""
        held = state.discoveries[seat]
        if not held or not state.deck_size():
            return
        cost = state.rules.development_card_cost
        covers = state.hand_covers  # the information state's hook for an opponent's hand
        for action in self.buys:
            spent = sum(action.replaced)
            if spent > held:
                break  # fewest discoveries first
            if covers(seat, hand_minus(cost, action.replaced)):
                result.append(action)

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """The discoveries each seat holds."""
        return {"discoveries": list(state.discoveries)}

    def _on_buy(self, state: GameState, action: BuyWithDiscoveries) -> None:
        """The discoveries stand for ``replaced``; the rest of the cost is paid, and the card is
        drawn next (seed 002 «Джунгли»)."""
        seat = state.active
        state.discoveries[seat] -= sum(action.replaced)
        state.pay_bank(seat, hand_minus(state.rules.development_card_cost, action.replaced))
        state.phase = Phase.DRAW
        if state.record_events:
            state.last_events.append(E.CardBought(seat, sum(action.replaced)))

    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (BuyWithDiscoveries,)
    handlers: ClassVar[Mapping[type[A.VariantAction], VariantHandler]] = {
        BuyWithDiscoveries: _on_buy
    }


SPEC: Final = GameSpec(
    name=Jungle.name,
    rules=Jungle,
    place=1,
    options=(
        GameOption("jungle_number", None, lambda n: f"the jungle's number is {n}"),
        GameOption(
            "jungle_robber_blocks",
            True,
            lambda on: (
                "the robber stops the jungle's discoveries"
                if on
                else "the jungle yields under the robber too"
            ),
        ),
    ),
    tellers=("hexlan.net.tellers.jungle",),
    keys=("hexlan.tui.games.jungle",),
    bots=("hexlan.engine.bots.jungle",),
)
"""The Jungle variant (seed 002 «Джунгли»; docs/rules/jungle.md). Its options:
``jungle_number``, the jungle's number token, one of 3, 4, 5, 9, 10, 11 as the players agree
(official variant; unset, the map's 10); ``jungle_robber_blocks``, the robber on the jungle
stops its discoveries (official: discoveries come from an "unblocked" jungle); off, the jungle
yields under the robber too."""


__all__ = ["SPEC", "BuyWithDiscoveries", "Jungle", "replacements"]
