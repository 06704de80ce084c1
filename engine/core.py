"""Names shared by the whole engine: resources, terrains, development cards, phases, seat ids.

Everything here is a small immutable enum or alias; the rules live in :mod:`hexlan.engine.state`.
"""

from __future__ import annotations

import enum
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

NO_SEAT: Final = -1


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


class Terrain(enum.IntEnum):
    """Land hex terrains; each but the desert produces one resource (seed 002, «Описание игры»)."""

    FOREST = 0
    HILLS = 1
    PASTURE = 2
    FIELDS = 3
    MOUNTAINS = 4
    DESERT = 5

    @property
    def resource(self) -> Resource | None:
        """The resource this terrain produces, or None for the desert."""
        return None if self is Terrain.DESERT else Resource(self.value)

    @property
    def letter(self) -> str:
        """The board letter: the resource's letter, D for the desert (../shared/UI.md)."""
        return "D" if self is Terrain.DESERT else Resource(self.value).letter


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


DEV_CARDS: Final = tuple(DevCard)


class Phase(enum.IntEnum):
    """Where the game stands; decides whose decision it is and what kind."""

    START_PLAYER = 0
    """Chance: who starts (a roll-off, taken as one uniform chance outcome)."""
    SETUP_SETTLEMENT = 1
    SETUP_ROAD = 2
    ROLL = 3
    """The active seat must roll (or play a development card first)."""
    DICE = 4
    """Chance: the dice outcome."""
    DISCARD = 5
    """Seats holding more than the limit discard half, each their own choice."""
    MOVE_ROBBER = 6
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

    @property
    def title(self) -> str:
        """The phase in words, for status lines."""
        return self.name.replace("_", " ").lower()


CHANCE_PHASES: Final = frozenset(
    {Phase.START_PLAYER, Phase.DICE, Phase.STEAL, Phase.DRAW, Phase.MONOPOLY, Phase.VICTORY}
)


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
