"""Names shared by the whole engine: resources, terrains, development cards, phases, seat ids.

Everything here is a small immutable enum or alias, or a pure helper on resource hands
(:data:`Hand`); the rules live in :mod:`hexlan.engine.state`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, TypeAlias

Seat: TypeAlias = int
"""A seat index, 0 .. players-1, in the order play proceeds."""

HexId: TypeAlias = int
"""A land hex index, 0 .. 18 on the base board (rows top to bottom, left to right)."""

NodeId: TypeAlias = int
"""An intersection index, 0 .. 53 on the base board (rows top to bottom, left to right)."""

PathId: TypeAlias = int
"""A path (hex edge) index, 0 .. 71 on the base board."""

Hand: TypeAlias = tuple[int, int, int, int, int]
"""Resource counts in :class:`Resource` order: lumber, brick, wool, grain, ore."""

MAX_SEATS: Final = 6
"""The most seats any game takes (the 5-6 player game); the protocol and deck share this bound."""

NO_LIMIT: Final = 1_000_000
"""A piece limit when the ``piece_limits`` option is off (more than any game can use)."""

NO_SEAT: Final = -1
"""No seat: an empty intersection's or path's owner, an award nobody holds, an offer to all."""


class Resource(enum.IntEnum):
    """The five resources, in the order every 5-tuple of counts uses."""

    LUMBER = 0
    BRICK = 1
    WOOL = 2
    GRAIN = 3
    ORE = 4

    @property
    def letter(self) -> str:
        """The one-letter code shown on the board (L, B, W, G, O)."""
        return self.name[0]


RESOURCES: Final = tuple(Resource)
"""The resources in order (lumber first)."""


def as_hand(counts: Sequence[int]) -> Hand:
    """Five counts in resource order (a list, say) as a :data:`Hand`.

    >>> as_hand([1, 0, 2, 0, 0])
    (1, 0, 2, 0, 0)
    """
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def hand_plus(hand: Sequence[int], cards: Sequence[int]) -> Hand:
    """``hand`` with ``cards`` added, resource by resource.

    >>> hand_plus((1, 0, 2, 0, 0), (0, 1, 1, 0, 0))
    (1, 1, 3, 0, 0)
    """
    return (
        hand[0] + cards[0],
        hand[1] + cards[1],
        hand[2] + cards[2],
        hand[3] + cards[3],
        hand[4] + cards[4],
    )


def hand_minus(hand: Sequence[int], cards: Sequence[int]) -> Hand:
    """``hand`` less ``cards``, resource by resource (negative where ``cards`` has more).

    >>> hand_minus((1, 1, 3, 0, 0), (0, 1, 1, 0, 0))
    (1, 0, 2, 0, 0)
    """
    return (
        hand[0] - cards[0],
        hand[1] - cards[1],
        hand[2] - cards[2],
        hand[3] - cards[3],
        hand[4] - cards[4],
    )


def hand_covers(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether ``hand`` holds at least ``cards`` of every resource.

    >>> hand_covers((1, 1, 3, 0, 0), (0, 1, 1, 0, 0)), hand_covers((1, 0, 0, 0, 0), (0, 1, 0, 0, 0))
    (True, False)
    """
    return (
        hand[0] >= cards[0]
        and hand[1] >= cards[1]
        and hand[2] >= cards[2]
        and hand[3] >= cards[3]
        and hand[4] >= cards[4]
    )


def one_kind(resource: int, count: int = 1) -> Hand:
    """``count`` cards of one resource as a :data:`Hand`.

    >>> one_kind(Resource.WOOL, 3)
    (0, 0, 3, 0, 0)
    """
    cards = [0, 0, 0, 0, 0]
    cards[resource] = count
    return as_hand(cards)


class Terrain(enum.IntEnum):
    """Land hex terrains; each of the first five produces one resource (seed 002, «Описание
    игры»); the desert and the terrains variants add produce none."""

    FOREST = 0
    HILLS = 1
    PASTURE = 2
    FIELDS = 3
    MOUNTAINS = 4
    DESERT = 5
    JUNGLE = 6
    """The jungle of the Jungle variant (seed 002 «Джунгли»): it has a number token and yields
    discoveries, not resource cards (docs/rules/jungle.md)."""
    GOLD_MINE = 7
    """The gold mine at the mouth of the Big River (seed 002 «Большая река»): no token, no
    resource; a settlement on it brings points (docs/rules/big-river.md)."""
    GOLD_FIELD = 8
    """Seafarers' gold field, the seed's "gold river" (seed 002 «Мореходы»: «Золотая река»): it
    has a number token and brings a resource of the owner's choice (docs/rules/seafarers.md)."""
    FOG = 9
    """A face-down Seafarers hex (seed 002 «Мореходы»; the official Seafarers rules, "The Fog
    Island"): no token and no resource until a road or ship reaching it reveals a tile of the fog
    stack (docs/rules/seafarers.md)."""
    SEA = 10
    """A fog hex revealed as water: it produces nothing and takes no token."""

    @property
    def resource(self) -> Resource | None:
        """The resource this terrain produces, or None (desert, jungle, gold mine)."""
        return Resource(self.value) if self.value < 5 else None

    @property
    def letter(self) -> str:
        """The board letter: the resource's letter; D desert, J jungle, $ gold mine, * gold field,
        ? fog, ~ a fog hex revealed as sea (../shared/UI.md)."""
        return Resource(self.value).letter if self.value < 5 else _TERRAIN_LETTERS[self.value - 5]

    @property
    def takes_token(self) -> bool:
        """Whether a hex of this terrain carries a number token (all but desert, gold mine, fog
        and sea)."""
        return self.value not in _NO_TOKEN


_TERRAIN_LETTERS: Final = ("D", "J", "$", "*", "?", "~")
_NO_TOKEN: Final = frozenset({5, 7, 9, 10})  # desert, gold mine, fog, sea


class DevCard(enum.IntEnum):
    """Development card types, in the order every 5-tuple of card counts uses."""

    KNIGHT = 0
    VICTORY_POINT = 1
    ROAD_BUILDING = 2
    YEAR_OF_PLENTY = 3
    MONOPOLY = 4

    @property
    def title(self) -> str:
        """The card's name in words, e.g. "Year of Plenty"."""
        return self.name.replace("_", " ").title().replace(" Of ", " of ")


class Phase(enum.IntEnum):
    """Where the game stands; decides whose decision it is and what kind."""

    START_PLAYER = 0
    """Chance: who starts (a roll-off, taken as one uniform chance outcome)."""
    SETUP_SETTLEMENT = 1
    """Set-up: the active seat places a free settlement (snake order, seed 002 «Начало игры»)."""
    SETUP_ROAD = 2
    """Set-up: the active seat places a free road touching the settlement just placed."""
    ROLL = 3
    """The active seat must roll (or play a development card first)."""
    DICE = 4
    """Chance: the dice outcome."""
    DISCARD = 5
    """Seats holding more than the limit discard half, each their own choice."""
    MOVE_ROBBER = 6
    """The active seat moves the robber and names the victim (after a 7 or a knight)."""
    STEAL = 7
    """Chance: the card taken from the victim."""
    MAIN = 8
    """After the roll: trade, build, play a card, end the turn."""
    ROAD_BUILDING = 9
    """Placing the free roads of a Road Building card."""
    TRADE_RESPONSES = 10
    """A domestic trade offer awaits the answers of the seats it was made to."""
    DRAW = 11
    """Chance: the development card a purchase draws."""
    MONOPOLY = 12
    """Chance-like reveal: how many cards each opponent hands over."""
    VICTORY = 13
    """Chance-like reveal: the winner shows their victory point cards."""
    GAME_OVER = 14
    """The game has ended; nobody acts."""
    SPECIAL_BUILD = 15
    """5-6 players: after a turn, each other seat in turn order may build and buy development
    cards, no trade and no card play (seed 002 «Расширение на 5-6 игроков»); the active seat is
    the builder."""
    GOLD = 16
    """Seafarers: each seat owed gold-field picks chooses its resources, in seat order (seed 002
    «Мореходы»: «Золотая река»); the seat choosing is the lowest one still owed."""
    FOG = 17
    """Chance, Seafarers: a road or ship has reached fog; the top tile of the fog stack (then,
    for land, a number token) is drawn and shown to all (docs/rules/seafarers.md, fog)."""
    FORTRESS = 18
    """Chance, Pirate Islands: the active seat attacks its pirate fortress; the fortress's
    strength is one die (seed 004 «Захват пиратской крепости»)."""

    @property
    def title(self) -> str:
        """The phase in words, for status lines."""
        return self.name.replace("_", " ").lower()


CHANCE_PHASES: Final = frozenset(
    {
        Phase.START_PLAYER,
        Phase.DICE,
        Phase.STEAL,
        Phase.DRAW,
        Phase.MONOPOLY,
        Phase.VICTORY,
        Phase.FOG,
        Phase.FORTRESS,
    }
)
"""Phases where the next action is a chance outcome or a reveal, not a seat's decision."""


class EngineError(Exception):
    """Base class of every error the engine raises."""


class IllegalActionError(EngineError, ValueError):
    """An action that the rules do not allow in this state.

    Attributes:
        reason: what is wrong, in words.
        rule: where the rule comes from (seed file and section, or the official rule).
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)
