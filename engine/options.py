"""Named game options: every reading of the rules that differs from the official default.

The official rules (seed 002, as corrected in docs/rules/base.md) are the default everywhere; each
reading of the two-player specification (seed 003) is a named option here, recorded in the log.
The variants' own readings (docs/rules/jungle.md, docs/rules/big-river.md) are options too; they
appear in :meth:`GameOptions.to_dict` (and so in logs, openings and state hashes) only when set to
something other than their default, so a game that does not use them records exactly what it did
before they existed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Self

from hexlan.engine.core import EngineError

VARIANT_OPTIONS: Final = frozenset(
    {
        "jungle_number",
        "jungle_robber_blocks",
        "river_gold_points",
        "river_setup_ban_whole_river",
        "ck_improve_without_city",
        "ck_knights_active_after_win",
    }
)
"""Options of the variants' own rules: left out of :meth:`GameOptions.to_dict` at their default."""


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Options of one game; the defaults are the official rules.

    Attributes:
        victory_points: points to win; None takes the rule set's (10 in the base game).
        knight_only_before_roll: only a knight may be played before the roll (older official
            rule); by default any development card may be.
        robber_before_discard: on a 7 the robber moves first, then players discard (seed 003,
            «ХОД ИГРОКА»); officially discards come first.
        robber_to_desert: the robber may be moved to the desert (official); seed 003 and a slip of
            seed 002 («Рыцарь») forbid it.
        longest_road_min: segments needed for Longest Road; None takes the rule set's (5);
            seed 003 says "more than 5" (6).
        largest_army: the Largest Army award exists (official); seed 003 has none.
        vp_cards_next_turn: a victory point card counts only from the turn after its purchase
            (seed 003, «НАЧИСЛЕНИЕ БАЛЛОВ»); officially it counts at once.
        settlements_need_road: after set-up a settlement must touch the owner's road (official);
            seed 003 lets it stand anywhere the distance rule allows.
        mixed_three_to_one: a 3:1 harbour takes any three cards (seed 003, «ОБМЕН РЕСУРСОВ»);
            officially three of one kind.
        piece_limits: 15 roads, 5 settlements, 4 cities per player (official); seed 003 has none.
        victory_at_turn_end: points are checked only at the end of the active player's turn
            (seed 003); officially a player wins the moment they reach the target on their turn.
        jungle_number: Jungle: the jungle's number token, one of 3, 4, 5, 9, 10, 11 as the
            players agree (official variant); None takes the map's (10).
        jungle_robber_blocks: Jungle: the robber on the jungle stops its discoveries (official
            variant: discoveries come from an "unblocked" jungle); off, the jungle yields under
            the robber too.
        river_gold_points: Big River: points come from gold points, as in the published variant
            (a road on a river hex side 1, a settlement or city on a river hex corner 1, on the
            delta's tip 2; each 3 make a victory point); off, seed 002's short reading: each
            settlement or city on the gold mine is worth one point more.
        river_setup_ban_whole_river: Big River: no set-up settlement on any corner of the three
            river hexes (seed 002 "на берегу реки" read widely); by default only the gold mine's
            corners are closed, as in the published variant.
        ck_improve_without_city: Cities & Knights: a seat without a city may build city
            improvements (seed 002: «не требуют наличия города у игрока»); officially it needs
            one. A level that wins a metropolis still needs a city to put it on.
        ck_knights_active_after_win: Cities & Knights: after an attack Catan holds, the knights
            stay active (seed 002 sends knights inactive only after a lost attack); officially
            every knight goes inactive after either outcome.
    """

    victory_points: int | None = None
    knight_only_before_roll: bool = False
    robber_before_discard: bool = False
    robber_to_desert: bool = True
    longest_road_min: int | None = None
    largest_army: bool = True
    vp_cards_next_turn: bool = False
    settlements_need_road: bool = True
    mixed_three_to_one: bool = False
    piece_limits: bool = True
    victory_at_turn_end: bool = False
    jungle_number: int | None = None
    jungle_robber_blocks: bool = True
    river_gold_points: bool = True
    river_setup_ban_whole_river: bool = False
    ck_improve_without_city: bool = False
    ck_knights_active_after_win: bool = False

    @classmethod
    def seed003(cls) -> Self:
        """Every reading of the two-player specification, seed 003, turned on."""
        return cls(
            robber_before_discard=True,
            robber_to_desert=False,
            longest_road_min=6,
            largest_army=False,
            vp_cards_next_turn=True,
            settlements_need_road=False,
            mixed_three_to_one=True,
            piece_limits=False,
            victory_at_turn_end=True,
        )

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict, for logs and JSON: every option, except the variants'
        (:data:`VARIANT_OPTIONS`) where they hold their default.

        >>> "jungle_number" in GameOptions().to_dict()
        False
        >>> GameOptions(jungle_number=4).to_dict()["jungle_number"]
        4
        """
        data = asdict(self)
        for name in VARIANT_OPTIONS:
            if data[name] == _DEFAULTS[name]:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Options from :meth:`to_dict` output or a subset of it.

        Raises:
            EngineError: an unknown option name or a value of the wrong type.
        """
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise EngineError(f"unknown game options: {', '.join(sorted(unknown))}")
        defaults = cls()
        for key, value in data.items():
            default = getattr(defaults, key)
            kind = bool if isinstance(default, bool) else int
            if value is not None and (type(value) is not kind):
                raise EngineError(f"game option {key} must be {kind.__name__}, not {value!r}")
        return replace(defaults, **data)


_DEFAULTS: Final[dict[str, Any]] = asdict(GameOptions())
