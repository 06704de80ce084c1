"""Named game options: every reading of the rules that differs from the official default.

The official rules (seed 002, as corrected in docs/rules/base.md) are the default everywhere; each
reading of the two-player specification (seed 003) is a named option here, recorded in the log.
The variants' own readings (docs/rules/jungle.md, docs/rules/big-river.md) are options too; they
appear in :meth:`GameOptions.to_dict` (and so in logs, openings and state hashes) only when set to
something other than their default, so a game that does not use them records exactly what it did
before they existed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Self

from hexlan.engine.core import EngineError

if TYPE_CHECKING:
    from hexlan.engine.ruleset import RuleSet

OPTION_HOOKS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "jungle_number": "jungle",
        "jungle_robber_blocks": "jungle",
        "river_gold_points": "big-river",
        "river_setup_ban_whole_river": "big-river",
        "ck_improve_without_city": "cities-and-knights",
        "ck_knights_active_after_win": "cities-and-knights",
        "ck_one_monopoly_per_turn": "cities-and-knights",
        "ck_point_cards_in_hand": "cities-and-knights",
    }
)
"""The options of the variants' own rules, each with the rules module that reads it (the
``hooks`` a rule set names, engine/variants/): only a game with those hooks takes the option."""

VARIANT_OPTIONS: Final = frozenset(OPTION_HOOKS)
"""Options of the variants' own rules: left out of :meth:`GameOptions.to_dict` at their default."""

_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


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
        ck_one_monopoly_per_turn: Cities & Knights: a seat plays at most one Resource or Trade
            Monopoly a turn (hexlan's older reading); officially, and in seed 002 («За один ход
            можно играть сколько угодно карточек»), any number.
        ck_point_cards_in_hand: Cities & Knights: a Printer or Constitution drawn is held, counts
            toward the progress-card limit, may be taken by the Spy and is played in its holder's
            main phase (hexlan's older reading); officially it is shown at once when drawn, even
            out of turn, never held.
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
    ck_one_monopoly_per_turn: bool = False
    ck_point_cards_in_hand: bool = False

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

    @classmethod
    def names(cls, rules: RuleSet | None = None) -> tuple[str, ...]:
        """The option names a game takes, in declaration order: every option but the variants'
        (:data:`OPTION_HOOKS`), and those of the rules module ``rules`` names (``hooks``); None
        is a game without one (the base game).

        >>> "jungle_number" in GameOptions.names()
        False
        """
        hooks = None if rules is None else rules.raw.get("hooks")
        return tuple(f.name for f in fields(cls) if OPTION_HOOKS.get(f.name, hooks) == hooks)

    @classmethod
    def parse(cls, items: Sequence[str], rules: RuleSet | None = None) -> Self:
        """Options from command-line items (`--option NAME[=VALUE]`), applied in order over the
        official defaults.

        ``NAME`` alone sets a yes/no option on; ``NAME=true|false|yes|no|on|off|1|0`` sets it
        (any case); ``NAME=N`` sets a number option to the integer N >= 1; ``NAME=none`` puts
        a number option back to the rule set's value. A preset's name (:data:`PRESETS`, e.g.
        ``seed003``) alone sets each option the preset holds; later items override it.

        Args:
            items: the items, e.g. ``["victory_points=5", "largest_army=off"]``.
            rules: the game's rule set, whose ``hooks`` decide which variant options it takes
                (:meth:`names`); None: a game without hooks.

        Raises:
            EngineError: in one line, an unknown name or one the game does not take (naming
                the game's options), or a value of the wrong kind.

        >>> GameOptions.parse(["victory_points=5", "largest_army=no"]).victory_points
        5
        """
        game = "base" if rules is None else rules.name
        allowed = cls.names(rules)
        known = {f.name for f in fields(cls)}
        defaults = cls()
        result = defaults
        for item in items:
            name, sep, text = item.partition("=")
            name, text = name.strip(), text.strip().lower()
            if name in PRESETS and not sep:
                result = replace(result, **PRESETS[name]().changed())
                continue
            if name not in known:
                raise EngineError(
                    f"unknown game option {name!r}; the {game} game takes: {', '.join(allowed)}"
                    f" (presets: {', '.join(PRESETS)})"
                )
            if name not in allowed:
                raise EngineError(
                    f"the {game} game has no option {name!r} (the {OPTION_HOOKS[name]} game's);"
                    f" it takes: {', '.join(allowed)}"
                )
            default = getattr(defaults, name)
            value: bool | int | None
            if isinstance(default, bool):
                if not sep or text in _TRUE:
                    value = True
                elif text in _FALSE:
                    value = False
                else:
                    raise EngineError(f"game option {name} is yes or no, not {text!r}")
            elif not sep:
                raise EngineError(f"game option {name} needs a number: {name}=N (or {name}=none)")
            elif text == "none":
                value = None
            else:
                try:
                    value = int(text)
                except ValueError:
                    value = 0
                if value < 1:
                    raise EngineError(f"game option {name} is a whole number from 1, not {text!r}")
            change: dict[str, Any] = {name: value}
            result = replace(result, **change)
        return result

    def changed(self) -> dict[str, Any]:
        """The options that differ from the official defaults, as :meth:`to_dict` writes them.

        >>> GameOptions(victory_points=5).changed()
        {'victory_points': 5}
        """
        return {k: v for k, v in asdict(self).items() if v != _DEFAULTS[k]}

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

PRESETS: Final[Mapping[str, Callable[[], GameOptions]]] = MappingProxyType(
    {"seed003": GameOptions.seed003}
)
"""Named bundles of options (docs/rules/base.md): ``seed003``, every reading of seed 003."""
