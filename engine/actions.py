"""Actions: every decision a seat makes and every chance outcome, as frozen dataclasses.

Player actions are made by a seat; chance actions (:data:`CHANCE_ACTIONS`) are outcomes supplied by
a chance source: a seeded one in simulations, the network's beacon and reveals in real games
(../shared/ARCHITECTURE.md principle 1). Unless noted, an action is made by the active seat;
:class:`Discard` and the trade answers carry the seat that makes them, since several seats may act.

Trade terms are always in the active seat's frame: ``give`` is what the active seat hands over,
``get`` what it receives. Hands (:data:`~hexlan.engine.core.Hand`) have one count per card kind of
the game in :class:`~hexlan.engine.core.Resource` order: five (lumber, brick, wool, grain, ore) in
the base game, eight where a rule set adds the commodities. Decoding takes any length from five
to :data:`MAX_KINDS`; the game's own length is the engine's check (:meth:`GameState.check`).

Every action round-trips through :func:`action_to_list` / :func:`action_from_list`, the form the
log and the wire use.

Rule sources are cited as in docs/rules/base.md: seed 002 «section» or "official".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, Final, TypeAlias

from hexlan.engine.core import (
    RESOURCES,
    DevCard,
    EngineError,
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


@dataclass(frozen=True, slots=True)
class BuyWithDiscoveries:
    """Jungle: buy a development card letting discoveries replace 1 to 3 resources of its cost,
    one each, then draw as :class:`BuyDevelopmentCard` does (seed 002 «Джунгли»).

    Attributes:
        replaced: the resources of the cost the discoveries stand for, a hand in card-kind
            order (its sum is the discoveries spent); the seat pays the rest of the cost.
    """

    replaced: Hand


@dataclass(frozen=True, slots=True)
class BuildShip:
    """Seafarers: build a ship on a free path with sea on a side, joined to an own ship or an own
    settlement or city, not on a side of the pirate's hex (seed 002 «Мореходы»; official); free in
    set-up (beside the settlement just placed) and with Road Building, else lumber + wool."""

    path: PathId


@dataclass(frozen=True, slots=True)
class MoveShip:
    """Seafarers: move one own ship, once a turn after the roll: the end ship of an open route,
    not one built this turn, from ``source`` to ``target``, a place where it could be built (seed
    002 «Мореходы»: «максимум один за ход»; official)."""

    source: PathId
    target: PathId


@dataclass(frozen=True, slots=True)
class MovePirate:
    """Seafarers: instead of the robber, move the pirate to another sea hex and name the victim:
    an opponent with a ship on a side of it holding a card, or -1 (seed 002 «Мореходы»).

    Attributes:
        hex: the sea hex (sea hex ``i`` of the map is id ``hex_count + i``).
        victim: the seat robbed, or -1.
    """

    hex: HexId
    victim: Seat


@dataclass(frozen=True, slots=True)
class ChooseGold:
    """Seafarers: a seat owed gold-field resources takes them from the bank, of its choice (seed
    002 «Мореходы»: «Золотая река»; one per settlement, two per city).

    Attributes:
        seat: the seat choosing (not necessarily the active one).
        cards: the resources taken, a hand in card-kind order.
    """

    seat: Seat
    cards: Hand


@dataclass(frozen=True, slots=True)
class AttackFortress:
    """Pirate Islands: the active seat, its ship line closed at its own fortress, attacks it: a
    die gives the fortress's strength, then the turn ends (seed 004 «Захват пиратской крепости»:
    once a turn)."""


@dataclass(frozen=True, slots=True)
class RobSeat:
    """Pirate Islands: after a 7 and its discards (there is no robber), the roller names any
    opponent holding a card to take one from at random, or -1 when nobody holds one (seed 004
    «"7" на кубиках»).

    Attributes:
        victim: the seat robbed, or -1.
    """

    victim: Seat


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

    card: DevCard | None


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


@dataclass(frozen=True, slots=True)
class ExploreFog:
    """Chance, Seafarers: the face drawn from the fog stack due now, shown to all: a tile of the
    deck ``fog`` (its face in the rule set's ``[decks.fog]`` order), or, after a land tile, a
    number token of ``fog_tokens`` (docs/rules/seafarers.md, fog)."""

    face: int


@dataclass(frozen=True, slots=True)
class FortressDie:
    """Chance, Pirate Islands: the die of a fortress attack, 1 .. 6 (:data:`FORTRESS_DICE`): the
    fortress's strength against the attacker's warships (seed 004 «Захват пиратской крепости»)."""

    roll: int


Action: TypeAlias = (
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
    | BuyWithDiscoveries
    | BuildShip
    | MoveShip
    | MovePirate
    | ChooseGold
    | ExploreFog
    | AttackFortress
    | RobSeat
    | FortressDie
)

ACTION_TYPES: Final[tuple[type, ...]] = Action.__args__
"""Every action class, in the order of :data:`Action` (actions a variant adds come last, so the
base game's order never changes)."""
CHANCE_ACTIONS: Final = (
    StartPlayer,
    Dice,
    StealCard,
    DrawCard,
    MonopolyTake,
    RevealVictory,
    ExploreFog,
    FortressDie,
)
"""The chance outcomes and reveals: supplied by a chance source (a reveal, by the seat that knows
it), never a seat's choice."""
_BY_NAME: Final = {cls.__name__: cls for cls in ACTION_TYPES}

MAX_KINDS: Final = len(Resource)
"""The most counts a hand in an action lists: every card kind any game has (8)."""

ALL_DICE: Final = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))
FORTRESS_DICE: Final = tuple(FortressDie(n) for n in range(1, 7))
"""The 6 equally likely outcomes of a fortress attack's die."""
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
    return [type(action).__name__, *(_encode(getattr(action, f.name)) for f in fields(action))]


_FIELD_TYPES: Final = {
    "resource": Resource,
    "get": Resource,
    "card": DevCard,
}


def action_from_list(data: list[Any]) -> Action:
    """Inverse of :func:`action_to_list`.

    Raises:
        EngineError: an unknown action type or fields of the wrong shape.
    """
    if not isinstance(data, list) or not data or data[0] not in _BY_NAME:
        raise EngineError(f"not an action: {data!r}")
    cls = _BY_NAME[data[0]]
    names = [f.name for f in fields(cls)]
    if len(data) - 1 != len(names):
        raise EngineError(f"{data[0]} takes {len(names)} fields, not {len(data) - 1}")
    values: list[Any] = []
    try:
        for name, raw in zip(names, data[1:], strict=True):
            values.append(_decode(name, raw))
    except (TypeError, ValueError) as exc:
        raise EngineError(f"malformed {data[0]}: {exc}") from exc
    return cls(*values)  # type: ignore[no-any-return]


def _decode(name: str, raw: Any) -> Any:
    if name == "accept":
        if not isinstance(raw, bool):
            raise TypeError("accept must be a bool")
        return raw
    if isinstance(raw, list):
        items = tuple(_int(v) for v in raw)
        if name in ("give", "get", "cards", "replaced") and not (
            len(RESOURCES) <= len(items) <= MAX_KINDS
        ):
            raise ValueError(f"{name} must list {len(RESOURCES)} to {MAX_KINDS} counts")
        if name == "resources":
            return tuple(Resource(v) for v in items)
        return items
    if raw is None and name in ("resource", "card"):
        return None
    value = _int(raw)
    kind = _FIELD_TYPES.get(name)
    return kind(value) if kind else value


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


_TYPE_ORDER: Final = {cls: i for i, cls in enumerate(ACTION_TYPES)}


def action_key(action: Action) -> tuple[Any, ...]:
    """A stable sort key: the action type's place in :data:`ACTION_TYPES`, then its fields in
    wire form (:func:`action_to_list`, None first). Equal actions have equal keys in every
    process and every determinisation of a position.

    >>> action_key(BuildRoad(7)), action_key(MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE))
    ((0, 7), (12, (4, 0, 0, 0, 0), 4))
    """
    return (_TYPE_ORDER[type(action)], *(_key(v) for v in action_to_list(action)[1:]))


def _key(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    return -1 if value is None else int(value)


def number_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    """Stable action numbering: the actions in :func:`action_key` order, so index ``i`` names
    the same action whatever order they were listed in (a search's child index, an encoding
    for learning). ``{a: i for i, a in enumerate(...)}`` maps back.

    >>> number_actions([END_TURN, BuildRoad(9), BuildRoad(2)])
    (BuildRoad(path=2), BuildRoad(path=9), EndTurn())
    """
    return tuple(sorted(set(actions), key=action_key))
