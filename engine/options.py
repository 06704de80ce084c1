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
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Self

from hexlan.engine.core import EngineError
from hexlan.engine.gamespec import GameOption, GameSpec, OptionValue
from hexlan.engine.variants import declared_options, game_specs, spec_for

if TYPE_CHECKING:
    from hexlan.engine.ruleset import RuleSet

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
        extra: the options of the game's own rules (:attr:`~hexlan.engine.gamespec.GameSpec.options`,
            declared beside its rules module) that differ from their defaults, as sorted
            ``(name, value)`` pairs: built by :meth:`of`, read by :meth:`value`, :meth:`flag`
            and :meth:`number`. An option at its default is dropped, so one set of options has
            one value.
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
    extra: tuple[tuple[str, OptionValue], ...] = ()

    def __post_init__(self) -> None:
        declared = declared_options()
        values: dict[str, OptionValue] = {}
        for name, value in self.extra:
            option = declared.get(name)
            if option is None:
                raise EngineError(f"unknown game option {name!r}")
            _check_kind(option, value)
            if value != option.default:
                values[name] = value
        object.__setattr__(self, "extra", tuple(sorted(values.items())))

    @classmethod
    def of(cls, **values: OptionValue) -> Self:
        """Options from keyword values, the shared ones and any game's own alike.

        Raises:
            EngineError: a name no game declares, or a value of the wrong kind.

        >>> GameOptions.of(victory_points=8, jungle_number=4).number("jungle_number")
        4
        """
        shared: dict[str, Any] = {k: v for k, v in values.items() if k in _SHARED}
        extra = tuple((k, v) for k, v in values.items() if k not in _SHARED)
        return cls(**shared, extra=extra)

    def value(self, name: str) -> OptionValue:
        """The value of the game option ``name`` (its declared default when not set).

        Raises:
            EngineError: no game declares ``name``.
        """
        option = declared_options().get(name)
        if option is None:
            raise EngineError(f"unknown game option {name!r}")
        return dict(self.extra).get(name, option.default)

    def flag(self, name: str) -> bool:
        """The yes/no game option ``name``, as :meth:`value`.

        Raises:
            EngineError: no game declares ``name``, or it is a number option.
        """
        value = self.value(name)
        if not isinstance(value, bool):
            raise EngineError(f"game option {name} is a number, not yes or no")
        return value

    def number(self, name: str) -> int | None:
        """The number game option ``name`` (None: the rule set's number), as :meth:`value`.

        Raises:
            EngineError: no game declares ``name``, or it is a yes/no option.
        """
        value = self.value(name)
        if isinstance(value, bool):
            raise EngineError(f"game option {name} is yes or no, not a number")
        return value

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
    def names(cls, rules: RuleSet | None = None, spec: GameSpec | None = None) -> tuple[str, ...]:
        """The option names a game takes: the shared options in declaration order, then its own
        (those of the spec its rule set's ``hooks`` names, :func:`~hexlan.engine.variants.
        spec_for`), or of ``spec`` (a game with a state of its own, which has no rule set);
        neither is the base game, which has none of its own.

        >>> "jungle_number" in GameOptions.names()
        False
        """
        if spec is None:
            spec = None if rules is None else spec_for(rules)
        own = () if spec is None else spec.options
        return (*_SHARED, *(option.name for option in own))

    @classmethod
    def parse(
        cls, items: Sequence[str], rules: RuleSet | None = None, spec: GameSpec | None = None
    ) -> Self:
        """Options from command-line items (`--option NAME[=VALUE]`), applied in order over the
        official defaults.

        ``NAME`` alone sets a yes/no option on; ``NAME=true|false|yes|no|on|off|1|0`` sets it
        (any case); ``NAME=N`` sets a number option to the integer N >= 1; ``NAME=none`` puts
        a number option back to the rule set's value. A preset's name (:data:`PRESETS`, e.g.
        ``seed003``) alone sets each option the preset holds; later items override it.

        Args:
            items: the items, e.g. ``["victory_points=5", "largest_army=off"]``.
            rules: the game's rule set, whose spec decides which options of its own it takes
                (:meth:`names`); None: the base game.
            spec: instead of ``rules``, the spec of a game with a state of its own.

        Raises:
            EngineError: in one line, an unknown name or one the game does not take (naming
                the game's options), or a value of the wrong kind.

        >>> GameOptions.parse(["victory_points=5", "largest_army=no"]).victory_points
        5
        """
        game = spec.name if spec is not None else "base" if rules is None else rules.name
        allowed = cls.names(rules, spec)
        declared = declared_options()
        values: dict[str, OptionValue] = {}
        for item in items:
            name, sep, text = item.partition("=")
            name, text = name.strip(), text.strip().lower()
            if name in PRESETS and not sep:
                values.update(PRESETS[name]().changed())
                continue
            if name not in _SHARED and name not in declared:
                raise EngineError(
                    f"unknown game option {name!r}; the {game} game takes: {', '.join(allowed)}"
                    f" (presets: {', '.join(PRESETS)})"
                )
            if name not in allowed:
                raise EngineError(
                    f"the {game} game has no option {name!r} (the {_owner(name)} game's);"
                    f" it takes: {', '.join(allowed)}"
                )
            default = _SHARED[name] if name in _SHARED else declared[name].default
            values[name] = _parse_value(name, default, text if sep else None)
        return cls.of(**values)

    def changed(self) -> dict[str, Any]:
        """The options that differ from the official defaults, as :meth:`to_dict` writes them.

        >>> GameOptions(victory_points=5).changed()
        {'victory_points': 5}
        """
        shared = {k: getattr(self, k) for k in _SHARED}
        return {k: v for k, v in shared.items() if v != _SHARED[k]} | dict(self.extra)

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict, for logs and JSON: every shared option, then the game's
        own where they differ from their defaults (so a game that does not use them records
        exactly what it did before they existed).

        >>> "jungle_number" in GameOptions().to_dict()
        False
        >>> GameOptions.of(jungle_number=4).to_dict()["jungle_number"]
        4
        """
        return {k: getattr(self, k) for k in _SHARED} | dict(self.extra)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Options from :meth:`to_dict` output or a subset of it.

        Raises:
            EngineError: an unknown option name or a value of the wrong type.
        """
        declared = declared_options()
        unknown = set(data) - set(_SHARED) - set(declared)
        if unknown:
            raise EngineError(f"unknown game options: {', '.join(sorted(unknown))}")
        for key, value in data.items():
            default = _SHARED[key] if key in _SHARED else declared[key].default
            kind = bool if isinstance(default, bool) else int
            if value is not None and (type(value) is not kind):
                raise EngineError(f"game option {key} must be {kind.__name__}, not {value!r}")
        return cls.of(**data)

    @staticmethod
    def kinds() -> dict[str, tuple[type, ...]]:
        """The value types each option of any game takes (``bool``; or ``int`` and None), by
        name: what the wire accepts in an opening's ``options``."""
        defaults = {**_SHARED, **{k: o.default for k, o in declared_options().items()}}
        return {
            name: (bool,) if isinstance(default, bool) else (int, type(None))
            for name, default in defaults.items()
        }


def _check_kind(option: GameOption, value: OptionValue) -> None:
    """Refuse a value of the wrong kind for ``option``.

    Raises:
        EngineError: a bool for a number option, or the other way round.
    """
    if option.is_flag != isinstance(value, bool) or (
        not option.is_flag and value is not None and value < 1
    ):
        raise EngineError(f"game option {option.name} takes no {value!r}")


def _parse_value(name: str, default: OptionValue, text: str | None) -> OptionValue:
    """One command-line value of option ``name`` whose default is ``default`` (``text`` None:
    the name alone).

    Raises:
        EngineError: a word that is not yes or no, or not a whole number from 1.
    """
    if isinstance(default, bool):
        if text is None or text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise EngineError(f"game option {name} is yes or no, not {text!r}")
    if text is None:
        raise EngineError(f"game option {name} needs a number: {name}=N (or {name}=none)")
    if text == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise EngineError(f"game option {name} is a whole number from 1, not {text!r}")
    return value


def _owner(name: str) -> str:
    """The name of the game whose spec declares option ``name``."""
    return next(spec.name for spec in game_specs() if any(o.name == name for o in spec.options))


_SHARED: Final[Mapping[str, Any]] = MappingProxyType(
    {f.name: f.default for f in fields(GameOptions) if f.name != "extra"}
)
"""The options every game shares, by name, with their defaults, in declaration order."""

PRESETS: Final[Mapping[str, Callable[[], GameOptions]]] = MappingProxyType(
    {"seed003": GameOptions.seed003}
)
"""Named bundles of options (docs/rules/base.md): ``seed003``, every reading of seed 003."""
