"""Actions: every decision a seat makes and every chance outcome, as frozen dataclasses.

Player actions are made by a seat; chance actions (:data:`BASE_CHANCE_ACTIONS`, and those a game
adds: all are in :data:`hexlan.engine.registry.CHANCE_ACTIONS`) are outcomes supplied by a chance
source: a seeded one in simulations, the network's beacon and reveals in real games
(../shared/ARCHITECTURE.md principle 1). Unless noted, an action is made by the active seat;
:class:`Discard` and the trade answers carry the seat that makes them, since several seats may
act.

Trade terms are always in the active seat's frame: ``give`` is what the active seat hands over,
``get`` what it receives. Hands (:data:`~hexlan.engine.core.Hand`) have one count per card kind of
the game in its rule set's order (``cards``): five (lumber, brick, wool, grain, ore) in the base
game, eight where a rule set adds the commodities, four in Landnám. A field naming one kind holds
the game's :class:`~hexlan.engine.core.Resource` (a :class:`~hexlan.engine.core.Resource` member
in every Catan game). Decoding for a game (:func:`hexlan.engine.registry.action_from_list` given
its kinds) takes exactly the game's count; without a game, any count from 1 to
:data:`MAX_KINDS`, and the game's own length is the engine's check (:meth:`GameState.check`).

This module holds the base game's actions; a game's rules module adds its own
(:class:`VariantAction`), and :mod:`hexlan.engine.registry` merges both sets. Every action
round-trips through :func:`action_to_list` / :func:`hexlan.engine.registry.action_from_list`, the
form the log and the wire use.

Rule sources are cited as in docs/rules/base.md: seed 002 «section» or "official".
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, TypeAlias

from hexlan.engine.core import (
    DevelopmentCard,
    Hand,
    HexId,
    NodeId,
    PathId,
    Resource,
    Seat,
)


@dataclass(frozen=True, slots=True)
class BuildRoad:
    """Build a road on a free path touching the seat's network (seed 002 «Правила строительства
    дорог»); free in set-up and with Road Building, else it costs lumber + brick."""

    path: PathId


@dataclass(frozen=True, slots=True)
class BuildSettlement:
    """Build a settlement on an intersection under the distance rule, touching an own road after
    set-up (seed 002 «Ресурсы и постройки»); free in set-up, else lumber + brick + wool + grain."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class BuildCity:
    """Upgrade one's settlement on an intersection to a city for 2 grain + 3 ore (seed 002 «Как
    происходит освоение острова»)."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class BuyDevelopmentCard:
    """Pay wool + grain + ore for the top development card, drawn next by a :class:`DrawCard`
    (seed 002 «Карточки развития»)."""


@dataclass(frozen=True, slots=True)
class RollDice:
    """Roll the two dice (the outcome is a :class:`Dice` chance action)."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Pass the turn to the next seat."""


@dataclass(frozen=True, slots=True)
class Discard:
    """A seat holding more than the limit (7) of resource cards on a 7 gives back exactly half,
    rounded down, cards of its own choice (seed 002 «Разбойник» 1).

    Attributes:
        seat: the seat discarding (not necessarily the active one).
        cards: the cards given back, a hand in card-kind order.
    """

    seat: Seat
    cards: Hand


@dataclass(frozen=True, slots=True)
class MoveRobber:
    """Move the robber to another hex and name the victim: an opponent with a building there
    holding a card, or -1 when there is none (seed 002 «Разбойник» 2-3)."""

    hex: HexId
    victim: Seat


@dataclass(frozen=True, slots=True)
class PlayKnight:
    """Play a knight: move the robber (and steal) next, with no discards (seed 002 «Карточки
    развития»)."""


@dataclass(frozen=True, slots=True)
class PlayRoadBuilding:
    """Play Road Building: build up to two roads free next (seed 002 «Карточки развития»)."""


@dataclass(frozen=True, slots=True)
class PlayYearOfPlenty:
    """Play Year of Plenty: take these resources from the bank (two, fewer only if the bank holds
    fewer; seed 002 «Карточки развития»)."""

    resources: tuple[Resource, ...]


@dataclass(frozen=True, slots=True)
class PlayMonopoly:
    """Play Monopoly: every other seat hands over all its cards of this resource, the counts
    revealed next by a :class:`MonopolyTake` (seed 002 «Карточки развития»)."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class MaritimeTrade:
    """Trade with the bank at the seat's ratio for that resource (4:1, or 3:1 and 2:1 at its
    harbours; seed 002 «Фаза строительства», «Торговля»): ``give`` (one kind, or any three with
    the ``mixed_three_to_one`` option) for one ``get`` of another resource."""

    give: Hand
    get: Resource


@dataclass(frozen=True, slots=True)
class OfferTrade:
    """Offer a domestic trade to one seat or, with ``to == -1``, to every other seat (seed 002
    «Торговля»; after the roll, both sides give at least one card, no like for like).

    Attributes:
        give, get: hands in the active seat's frame.
        to: the seat asked, or -1 for everyone else.
    """

    give: Hand
    get: Hand
    to: Seat


@dataclass(frozen=True, slots=True)
class AnswerTrade:
    """A seat the offer was made to accepts (holding the cards asked for) or rejects it."""

    seat: Seat
    accept: bool


@dataclass(frozen=True, slots=True)
class CounterOffer:
    """A seat the offer was made to proposes other terms, ``give`` and ``get`` in the active
    seat's frame (seed 002 «Торговля»: "Они могут выступить со своими предложениями")."""

    seat: Seat
    give: Hand
    get: Hand


@dataclass(frozen=True, slots=True)
class ConfirmTrade:
    """The active seat completes the trade with a seat that accepted or countered, once every
    seat asked has answered."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class CancelTrade:
    """The active seat withdraws its offer: at any time before confirming one, even before every
    answer is in."""


# Chance actions: outcomes from the chance source (or, for reveals, from the seat that knows).


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """Chance: the seat that starts (the roll-off, seed 002 «Подготовка к началу игры»)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance: the two dice, each 1 .. 6 (:data:`ALL_DICE` lists the 36 outcomes)."""

    first: int
    second: int

    @property
    def total(self) -> int:
        """The sum of both dice."""
        return self.first + self.second


@dataclass(frozen=True, slots=True)
class StealCard:
    """Chance: the resource taken by the robber, at random from the victim's hand (seed 002
    «Разбойник» 3); None where the observer may not see it (a third seat)."""

    resource: Resource | None


@dataclass(frozen=True, slots=True)
class DrawCard:
    """Chance: the development card drawn; None where the observer may not see it (every seat
    but the buyer)."""

    card: DevelopmentCard | None


@dataclass(frozen=True, slots=True)
class MonopolyTake:
    """Reveal: the count of the named resource each seat hands over, one per seat in seat order
    (0 for the player of the Monopoly)."""

    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RevealVictory:
    """Reveal: the winner shows its hidden victory point cards (seed 002 «Конец игры»); it follows
    :attr:`~hexlan.engine.core.Phase.VICTORY` and ends the game.

    Attributes:
        seat: the winner.
        victory_point_cards: how many victory point cards it shows.
    """

    seat: Seat
    victory_point_cards: int


class VariantAction:
    """Base of the actions a game's rules module adds: each is a frozen dataclass subclassing
    this, declared in its module (engine/variants/*.py) and listed with its handler in its
    :class:`~hexlan.engine.variants.base.Variant` class (``actions``, ``handlers``).
    :mod:`hexlan.engine.registry` merges them after the base game's actions, once, at import.

    Attributes:
        chance: whether the action is a chance outcome or a reveal, never a seat's choice.
        hand_fields: the names of its fields that hold a hand (decoded as one).
        pair_fields: the names of its fields that hold pairs of integers or None (a
            Cities & Knights hand of progress cards as ``(track, face)``).
        spends: what the action does with the hidden card it spends, in words ("played",
            "discarded"), for a refusal naming a card never shown.
        wire_name: its name in plain form (:func:`action_to_list`) when not its class's: an
            action of a game with a state of its own whose class shares a name with another
            game's (Landnám's ``OfferTrade``); empty for the class's name.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # set by @dataclass on each subclass
    chance: ClassVar[bool] = False
    hand_fields: ClassVar[frozenset[str]] = frozenset()
    pair_fields: ClassVar[frozenset[str]] = frozenset()
    spends: ClassVar[str] = "played"
    wire_name: ClassVar[str] = ""

    def actor(self, active: Seat) -> Seat:
        """The seat making this action while ``active`` is the active seat: ``active``, unless
        the action names its own seat (a gold pick); unused for a chance action."""
        return active


BaseAction: TypeAlias = (
    BuildRoad
    | BuildSettlement
    | BuildCity
    | BuyDevelopmentCard
    | RollDice
    | EndTurn
    | Discard
    | MoveRobber
    | PlayKnight
    | PlayRoadBuilding
    | PlayYearOfPlenty
    | PlayMonopoly
    | MaritimeTrade
    | OfferTrade
    | AnswerTrade
    | CounterOffer
    | ConfirmTrade
    | CancelTrade
    | StartPlayer
    | Dice
    | StealCard
    | DrawCard
    | MonopolyTake
    | RevealVictory
)
"""The base game's actions, in their wire order."""

Action: TypeAlias = BaseAction | VariantAction
"""Any action: the base game's or one a game adds (:class:`VariantAction`)."""

BASE_ACTION_TYPES: Final[tuple[type[BaseAction], ...]] = BaseAction.__args__
"""The base game's action classes, in the order of :data:`BaseAction`: the first type codes
(:data:`hexlan.engine.registry.ACTION_TYPES` adds the games' actions after them)."""
BASE_CHANCE_ACTIONS: Final = (
    StartPlayer,
    Dice,
    StealCard,
    DrawCard,
    MonopolyTake,
    RevealVictory,
)
"""The base game's chance outcomes and reveals: supplied by a chance source (a reveal, by the
seat that knows it), never a seat's choice."""

MAX_KINDS: Final = len(Resource)
"""The most card kinds a game may declare (8, the Catan catalogue's count): the bound of a hand
in an action decoded without its game, and of a rule set's ``cards``."""

ALL_DICE: Final = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 equally likely outcomes of the two dice: ``Dice(1, 1), Dice(1, 2), ... Dice(6, 6)``."""

# perf: one shared instance of each action without fields; legal-move lists reuse them.
ROLL: Final = RollDice()
END_TURN: Final = EndTurn()
BUY_DEVELOPMENT_CARD: Final = BuyDevelopmentCard()
PLAY_KNIGHT: Final = PlayKnight()
PLAY_ROAD_BUILDING: Final = PlayRoadBuilding()
CANCEL_TRADE: Final = CancelTrade()


def _encode(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    return int(value)


def action_to_list(action: Action) -> list[Any]:
    """Plain form: ``[type name, field, ...]`` with ints, bools, None and lists only.

    >>> action_to_list(MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE))
    ['MaritimeTrade', [4, 0, 0, 0, 0], 4]
    """
    return [action_name(type(action)), *(_encode(getattr(action, f.name)) for f in fields(action))]


def action_name(cls: type[Action]) -> str:
    """An action class's name in plain form: its :attr:`VariantAction.wire_name` if it has
    one, else the class's name.

    >>> action_name(MaritimeTrade)
    'MaritimeTrade'
    """
    return getattr(cls, "wire_name", "") or cls.__name__
