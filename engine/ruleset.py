"""A game's fixed numbers, loaded from seeds/*.toml: piece limits, costs, deck, bank, awards.

Rules are data (../shared/ARCHITECTURE.md principle 3): the engine reads counts and costs from a
:class:`RuleSet`; nothing here decides a rule by itself.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from hexlan.engine.core import MAX_SEATS, EngineError, Hand
from hexlan.engine.seedfile import read_seed

GAMES: Final = (
    "base",
    "five-six",
    "jungle",
    "big-river",
    "seafarers-new-shores",
    "seafarers-new-shores-3",
    "seafarers-four-islands",
    "seafarers-four-islands-3",
    "seafarers-fog-island",
    "seafarers-fog-island-3",
    "seafarers-pirate-islands",
    "seafarers-pirate-islands-3",
)
"""The games hexlan plays, by name: each is seeds/<name>.toml (``--game NAME``)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Counts and costs of one game family.

    Attributes:
        name: the seeds/ file it came from, without ``.toml``: the game's name.
        board: the map its boards are laid on (seeds/boards/<board>.toml).
        min_players, max_players: the seats the game takes.
        victory_points: points needed to win.
        discard_limit: a player holding more resource cards than this discards half on a 7.
        bank_per_resource: resource cards of each kind in the game.
        road_limit, settlement_limit, city_limit: pieces per player.
        road_cost, settlement_cost, city_cost, development_card_cost: resource 5-tuples.
        development_deck: cards of each :class:`DevCard` type, in enum order: the counts of
            ``decks["development"]``.
        longest_road_min: segments needed for Longest Road.
        largest_army_min: knights needed for Largest Army.
        award_points: victory points of each award.
        special_building: a special building phase follows every turn (the 5-6 player game,
            seed 002 «Расширение на 5-6 игроков»); false when the file does not say.
        decks: every hidden stack of the game by name, each as its count of every card face,
            faces numbered from 0 (``"development"``: :class:`DevCard` order); from the file's
            ``[development_deck]`` (knight, victory_point, ...) and any ``[decks.NAME]`` table
            (its entries in file order, e.g. a fog stack's tiles).
        raw: the whole parsed file, for what a game's own rules module reads.
    """

    name: str
    board: str
    min_players: int
    max_players: int
    victory_points: int
    discard_limit: int
    bank_per_resource: int
    road_limit: int
    settlement_limit: int
    city_limit: int
    road_cost: Hand
    settlement_cost: Hand
    city_cost: Hand
    development_card_cost: Hand
    development_deck: tuple[int, int, int, int, int]
    longest_road_min: int
    largest_army_min: int
    award_points: int
    decks: Mapping[str, tuple[int, ...]]
    raw: dict[str, Any]
    special_building: bool = False

    def seat_count(self, count: int | None, noun: str = "players") -> int:
        """``count`` checked against the game's seat range; None is 4 brought into that range
        (5 in the 5-6 player game).

        Raises:
            EngineError: a count outside the range, in one line, e.g. "the five-six game takes
                5 to 6 players, not 4" (``noun`` names what is counted).
        """
        if count is None:
            return max(self.min_players, min(4, self.max_players))
        if not self.min_players <= count <= self.max_players:
            raise EngineError(
                f"the {self.name} game takes {self.min_players} to {self.max_players} {noun},"
                f" not {count}"
            )
        return count


def parse_cost(values: Any) -> Hand:
    """A cost from a rule set's data: five non-negative integers in resource order.

    >>> parse_cost([1, 0, 1, 0, 0])
    (1, 0, 1, 0, 0)

    Raises:
        EngineError: not five non-negative integers.
    """
    if (
        not isinstance(values, list)
        or len(values) != 5
        or any(not isinstance(v, int) or v < 0 for v in values)
    ):
        raise EngineError(f"a cost must be five non-negative integers, not {values!r}")
    return (values[0], values[1], values[2], values[3], values[4])


def _flag(raw: dict[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise EngineError(f"{key} must be true or false, not {value!r}")
    return value


@cache
def load_ruleset(name: str = "base") -> RuleSet:
    """Load ``seeds/<name>.toml`` (packaged as ``hexlan.seeds``), once per process.

    A file may name another with ``extends = "NAME"``: it is read over that one, so a game states
    only what differs from the game it extends (seeds/five-six.toml extends seeds/base.toml).

    Raises:
        EngineError: the file is missing or a field is malformed.
    """
    if name not in GAMES:
        raise EngineError(f"no game named {name!r}; the games are {', '.join(GAMES)}")
    try:
        raw = read_seed("", name)
        deck = raw["development_deck"]
        development = (
            int(deck["knight"]),
            int(deck["victory_point"]),
            int(deck["road_building"]),
            int(deck["year_of_plenty"]),
            int(deck["monopoly"]),
        )
        decks = {"development": development} | {
            str(name): tuple(int(n) for n in counts.values())
            for name, counts in raw.get("decks", {}).items()
        }
        pieces, costs, awards = raw["pieces"], raw["costs"], raw["awards"]
        fewest, most = (int(n) for n in raw["players"])
        if not 2 <= fewest <= most <= MAX_SEATS:
            raise EngineError(f"players must be within 2..{MAX_SEATS}, not {raw['players']!r}")
        return RuleSet(
            name=name,
            board=str(raw["board"]),
            min_players=fewest,
            max_players=most,
            victory_points=int(raw["victory_points"]),
            discard_limit=int(raw["discard_limit"]),
            bank_per_resource=int(raw["bank_per_resource"]),
            road_limit=int(pieces["road"]),
            settlement_limit=int(pieces["settlement"]),
            city_limit=int(pieces["city"]),
            road_cost=parse_cost(costs["road"]),
            settlement_cost=parse_cost(costs["settlement"]),
            city_cost=parse_cost(costs["city"]),
            development_card_cost=parse_cost(costs["development_card"]),
            development_deck=development,
            longest_road_min=int(awards["longest_road_min"]),
            largest_army_min=int(awards["largest_army_min"]),
            award_points=int(awards["points"]),
            decks=decks,
            raw=raw,
            special_building=_flag(raw, "special_building"),
        )
    except (OSError, KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise EngineError(f"cannot load rule set {name!r}: {exc}") from exc
