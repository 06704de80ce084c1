"""Landnám's fixed numbers, read from seeds/landnam.toml, and the names of its terrains, card kinds
and fate cards (../shared/landnam-rules.md §2, §12.1, §16).

The data file says the counts (stocks, pieces, costs, the fate deck); this module says what the
codes mean. Terrains, resources and fate faces are small ints, so states hash and copy cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import Any, Final

from hexlan.engine.core import EngineError, Hand
from hexlan.engine.seedfile import parse_cost, read_seed


class Land(IntEnum):
    """A terrain hex of Landnám (§2.2). Field, woodland, pasture and bog are the producing land;
    the mountain is land that produces nothing; the sea carries harbours."""

    SEA = 0
    FIELD = 1
    WOODLAND = 2
    PASTURE = 3
    BOG = 4
    MOUNTAIN = 5

    @property
    def produces(self) -> bool:
        """Whether the terrain is producing land (carries a number marker)."""
        return Land.FIELD <= self <= Land.BOG

    @property
    def kind(self) -> int:
        """The resource a producing terrain yields (its index into a hand: grain, timber, wool,
        iron); -1 for sea and mountain."""
        return int(self) - 1 if self.produces else -1


UNEXPLORED: Final = -1
"""A position's terrain before it is explored (§3: no hex lies there)."""
KIND_NAMES: Final = ("grain", "timber", "wool", "iron")
"""The four resources in hand order (§1 [SEED])."""
TERRAIN_NAMES: Final = tuple(t.name.lower() for t in Land)
CYCLE: Final = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
"""The ageing cycle of number markers (§7 [SEED]): 7 is skipped, 12 is followed by 2."""


class Fate(IntEnum):
    """A fate card's face (§16.2, gap G1: the proposed deck; the seed's list is lost)."""

    WOODLAND_AHEAD = 0
    GOOD_GRAZING = 1
    FERTILE_SOIL = 2
    BOG_IRON = 3
    SEERS_COUNSEL = 4
    LANDING = 5
    FAIR_WIND = 6
    DRIVE_OFF = 7
    GOOD_YEAR = 8
    FULL_BARNS = 9
    STEADY_SEASONS = 10
    ATONEMENT = 11
    FLAWED_PLEADING = 12
    THING_BROKEN_UP = 13

    @property
    def words(self) -> str:
        """The card's name in words ("Woodland ahead")."""
        return _FATE_WORDS[self]


_FATE_WORDS: Final = {
    Fate.WOODLAND_AHEAD: "Woodland ahead",
    Fate.GOOD_GRAZING: "Good grazing",
    Fate.FERTILE_SOIL: "Fertile soil",
    Fate.BOG_IRON: "Bog iron",
    Fate.SEERS_COUNSEL: "Seer's counsel",
    Fate.LANDING: "Landing",
    Fate.FAIR_WIND: "Fair wind",
    Fate.DRIVE_OFF: "Drive off",
    Fate.GOOD_YEAR: "Good year",
    Fate.FULL_BARNS: "Full barns",
    Fate.STEADY_SEASONS: "Steady seasons",
    Fate.ATONEMENT: "Atonement",
    Fate.FLAWED_PLEADING: "Flawed pleading",
    Fate.THING_BROKEN_UP: "Thing broken up",
}

FIXED_TERRAIN: Final = {
    Fate.WOODLAND_AHEAD: Land.WOODLAND,
    Fate.GOOD_GRAZING: Land.PASTURE,
    Fate.FERTILE_SOIL: Land.FIELD,
    Fate.BOG_IRON: Land.BOG,
}
"""The Exploration cards that fix the terrain found (§16.2)."""

MARKS: Final = ("exploration", "harvest", "movement", "althing")
"""The sub-phases a fate card may be marked with (§16.1 [SEED] [SITE-NN])."""


def terrain_of(result: int) -> Land:
    """The terrain of an exploration's green die plus modifier (§10 table, gap G4).

    >>> [terrain_of(x).name for x in (1, 4, 5, 6, 7, 9, 10, 11, 14)][:5]
    ['SEA', 'SEA', 'FIELD', 'WOODLAND', 'PASTURE']
    """
    if result <= 4:
        return Land.SEA
    if result == 5:
        return Land.FIELD
    if result == 6:
        return Land.WOODLAND
    if result <= 9:
        return Land.PASTURE
    if result == 10:
        return Land.BOG
    return Land.MOUNTAIN


def marker_of(red: int) -> int:
    """The number marker of the red d10's face 1-10 (§10: 1 is 11, 7 is 12, others as shown).

    >>> [marker_of(d) for d in range(1, 11)]
    [11, 2, 3, 4, 5, 6, 12, 8, 9, 10]
    """
    return {1: 11, 7: 12}.get(red, red)


def next_number(value: int) -> int:
    """The value after ``value`` in the ageing cycle (§7): 6 -> 8, 12 -> 2."""
    return CYCLE[(CYCLE.index(value) + 1) % len(CYCLE)]


@dataclass(frozen=True, slots=True)
class LandnamRules:
    """Counts and costs of a Landnám game (seeds/landnam.toml).

    Attributes:
        name: the data file's name (``"landnam"``).
        min_players, max_players: the seats it takes (3 to 5).
        victory_points: points to win (12).
        radius: the interior's radius (gap G9).
        bank: resource cards of each kind (24).
        start_hand: each seat's cards at the start (2 of each).
        ships, settlers, houses: pieces per colour.
        terrain_stock: terrain hexes of each :class:`Land` besides the centre mountain, at radius 2.
        markers_per_value: number markers of each value of :data:`CYCLE`.
        harbours_per_kind: harbour markers of each resource.
        farm_cost, town_cost, settler_cost, ship_cost: hands (grain, timber, wool, iron).
        harbour_cost: cards of the marker's kind a harbour costs; age_cost: of the hex's kind.
        bank_rate, harbour_rate: cards given for one in a trade with the stock.
        offers_per_turn: domestic offers the active seat may make in one turn.
        black_token_cases: possible suits against a seat that earn it a black token if none is
            tried.
        fate_deck: cards of each :class:`Fate` face.
        fate_marks: each face's sub-phase mark (one of :data:`MARKS`).
        description: the game in one line, for the game picker.
    """

    name: str
    min_players: int
    max_players: int
    victory_points: int
    radius: int
    bank: int
    start_hand: Hand
    ships: int
    settlers: int
    houses: int
    terrain_stock: tuple[int, ...]
    markers_per_value: int
    harbours_per_kind: int
    farm_cost: Hand
    town_cost: Hand
    settler_cost: Hand
    ship_cost: Hand
    harbour_cost: int
    age_cost: int
    bank_rate: int
    harbour_rate: int
    offers_per_turn: int
    black_token_cases: int
    fate_deck: tuple[int, ...]
    fate_marks: tuple[str, ...]
    description: str

    def seat_range(self, joiner: str = " to ") -> str:
        """The seats the game takes, in words ("3 to 5")."""
        return f"{self.min_players}{joiner}{self.max_players}"


def rules_from(name: str, raw: dict[str, Any]) -> LandnamRules:
    """A rule set from a parsed data file (``raw``).

    Raises:
        EngineError: a missing or malformed field, or a fate face the engine does not know, in
            one line.
    """
    try:
        kinds = len(KIND_NAMES)
        if [str(k) for k in raw["cards"]] != list(KIND_NAMES):
            raise EngineError(f"cards must be {', '.join(KIND_NAMES)}")
        fewest, most = (int(n) for n in raw["players"])
        costs, pieces, fate = raw["costs"], raw["pieces"], raw["fate"]
        unknown = set(fate) - {f.name.lower() for f in Fate}
        if unknown:
            raise EngineError(f"fate names unknown cards: {', '.join(sorted(unknown))}")
        marks = tuple(str(fate[f.name.lower()]["mark"]) for f in Fate)
        if any(m not in MARKS for m in marks):
            raise EngineError(f"a fate card's mark must be one of {', '.join(MARKS)}")
        return LandnamRules(
            name=name,
            min_players=fewest,
            max_players=most,
            victory_points=int(raw["victory_points"]),
            radius=int(raw["radius"]),
            bank=int(raw["bank_per_resource"]),
            start_hand=parse_cost(raw["start_hand"], kinds),
            ships=int(pieces["ship"]),
            settlers=int(pieces["settler"]),
            houses=int(pieces["house"]),
            terrain_stock=tuple(int(raw["terrains"][t]) for t in TERRAIN_NAMES),
            markers_per_value=int(raw["markers"]["per_value"]),
            harbours_per_kind=int(raw["harbours"]["per_kind"]),
            farm_cost=parse_cost(costs["farm"], kinds),
            town_cost=parse_cost(costs["town"], kinds),
            settler_cost=parse_cost(costs["settler"], kinds),
            ship_cost=parse_cost(costs["ship"], kinds),
            harbour_cost=int(costs["harbour"]),
            age_cost=int(costs["age"]),
            bank_rate=int(raw["trade"]["bank"]),
            harbour_rate=int(raw["trade"]["harbour"]),
            offers_per_turn=int(raw["trade"]["offers_per_turn"]),
            black_token_cases=int(raw["althing"]["black_token_cases"]),
            fate_deck=tuple(int(fate[f.name.lower()]["count"]) for f in Fate),
            fate_marks=marks,
            description=str(raw.get("description", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"cannot load rule set {name!r}: {exc}") from exc


@cache
def load_rules(name: str = "landnam") -> LandnamRules:
    """Load ``seeds/<name>.toml`` as a Landnám rule set, once per process.

    Raises:
        EngineError: the file is missing or malformed.
    """
    try:
        raw = read_seed("", name)
    except OSError as exc:
        raise EngineError(f"cannot load rule set {name!r}: {exc}") from exc
    return rules_from(name, raw)


__all__ = [
    "CYCLE",
    "FIXED_TERRAIN",
    "KIND_NAMES",
    "MARKS",
    "TERRAIN_NAMES",
    "UNEXPLORED",
    "Fate",
    "Land",
    "LandnamRules",
    "load_rules",
    "marker_of",
    "next_number",
    "rules_from",
    "terrain_of",
]
