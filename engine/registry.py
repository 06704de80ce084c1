"""The engine's open sets, merged once at import: the base game's actions and phases, then what
each registered game adds (../shared/ARCHITECTURE.md, "Open sets, not fixed tuples").

A game extends the engine by registering, not by editing it: its rules module
(engine/variants/*.py) declares its action classes (:class:`~hexlan.engine.actions.VariantAction`),
their handlers and the phases it owns, with which of them are chance phases, as class attributes
of its :class:`~hexlan.engine.variants.base.Variant`; :data:`~hexlan.engine.variants.HOOKS` holds
the games in the order of their specs' places (:class:`~hexlan.engine.gamespec.GameSpec`). This
module merges them in that order, base game first, so an action's type code (its place in
:data:`ACTION_TYPES`, which :func:`action_key` and the MCTS bot's numbering use) never moves
when a game is added with the next place.

At import it checks each game's sets: every action has a handler and one owner (an action
the engine shares, :data:`~hexlan.engine.shown.SHARED_ACTIONS`, may have several), names are
unique, and no two phases share a code.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import (
    BASE_CHANCE_PHASES,
    DevCard,
    DevelopmentCard,
    EngineError,
    GamePhase,
    Phase,
    Resource,
)
from hexlan.engine.shown import SHARED_ACTIONS
from hexlan.engine.variants import FLAG_PHASES, HOOKS, SPECS, Variant
from hexlan.engine.variants.base import VariantHandler

if TYPE_CHECKING:
    from hexlan.engine.state import GameState

StateHandler: TypeAlias = "Callable[[GameState, Any], None]"
"""How the engine applies an action: ``handler(state, action)``."""


def merge_actions(
    games: Iterable[type[Variant]],
    shared: Collection[type[A.VariantAction]] = SHARED_ACTIONS,
) -> tuple[tuple[type[Action], ...], dict[type[A.VariantAction], tuple[type[Variant], ...]]]:
    """The action classes of the base game then of ``games`` in order, and each added class's
    games (the games that register it, in order).

    An action of ``shared`` (the engine's own, :data:`~hexlan.engine.shown.SHARED_ACTIONS`) may
    be registered by several games: it takes one type code, where the first of them lists it,
    so a later game listing it moves no code. Every other action has one game.

    Raises:
        EngineError: a game's action without a handler (or a handler without an action), an
            action not in ``shared`` registered twice, or two actions of one name.
    """
    owners: dict[type[A.VariantAction], tuple[type[Variant], ...]] = {}
    for game in games:
        if set(game.handlers) != set(game.actions):
            raise EngineError(f"the {game.name} rules must give each of their actions a handler")
        for cls in game.actions:
            known = owners.get(cls, ())
            if known and (cls not in shared or game in known):
                raise EngineError(f"{cls.__name__} is registered twice")
            owners[cls] = (*known, game)
    merged = (*A.BASE_ACTION_TYPES, *owners)
    if len({cls.__name__ for cls in merged}) != len(merged):
        raise EngineError("two registered actions share a name")
    return merged, owners


ACTION_TYPES, _OWNERS = merge_actions(HOOKS.values())
"""Every action class: the base game's (:data:`~hexlan.engine.actions.BaseAction` order), then
each game's in :data:`~hexlan.engine.variants.HOOKS` order."""

OWN_ACTIONS: Final[tuple[type[Action], ...]] = tuple(
    cls for spec in SPECS.values() for cls in spec.actions
)
"""The action classes of the games with a state of their own (their specs'
:attr:`~hexlan.engine.gamespec.GameSpec.actions`): decoded by name like every action, with no
type code of :data:`ACTION_TYPES` (no Catan state applies them)."""

CHANCE_ACTIONS: Final[tuple[type[Action], ...]] = (
    *A.BASE_CHANCE_ACTIONS,
    *(cls for cls in _OWNERS if cls.chance),
    *(cls for cls in OWN_ACTIONS if getattr(cls, "chance", False)),
)
"""The chance outcomes and reveals (for ``isinstance``): supplied by a chance source (a reveal,
by the seat that knows it), never a seat's choice."""

_BY_NAME: Final = {A.action_name(cls): cls for cls in (*ACTION_TYPES, *OWN_ACTIONS)}
if len(_BY_NAME) != len(ACTION_TYPES) + len(OWN_ACTIONS):
    raise EngineError("two actions of the games share a name")


def merge_phases(games: Iterable[type[Variant]]) -> frozenset[GamePhase]:
    """The chance phases of the engine and of ``games``; the phases a rule-set flag adds
    (:data:`~hexlan.engine.variants.FLAG_PHASES`, none of them a chance phase) are checked with
    them.

    Raises:
        EngineError: a phase code of a game that the engine, a flag or an earlier game already
            uses, or a chance phase a game does not declare among its phases.
    """
    codes: dict[int, GamePhase] = {int(p): p for p in Phase}
    for flag, phases in FLAG_PHASES.items():
        for phase in phases:
            if int(phase) in codes:
                raise EngineError(f"phase code {int(phase)} of the {flag} flag is taken")
            codes[int(phase)] = phase
    chance: set[GamePhase] = set(BASE_CHANCE_PHASES)
    for game in games:
        if not game.chance_phases <= set(game.phases):
            raise EngineError(f"the {game.name} rules flag a chance phase they do not declare")
        for phase in game.phases:
            if int(phase) in codes:
                raise EngineError(f"phase code {int(phase)} of the {game.name} rules is taken")
            codes[int(phase)] = phase
        chance.update(game.chance_phases)
    return frozenset(chance)


CHANCE_PHASES: Final = merge_phases(HOOKS.values())
"""Phases where the next action is a chance outcome or a reveal, not a seat's decision: the
base game's and those each game flags (``Variant.chance_phases``)."""


def merge_dev_cards(games: Iterable[type[Variant]]) -> dict[str, DevelopmentCard]:
    """The development card faces by name (lower case, as seeds/*.toml write them): the base
    game's :class:`~hexlan.engine.core.DevCard`, then each of ``games``' ``dev_cards``.

    Raises:
        EngineError: a face whose name or code is taken, or a code that leaves a gap (a face's
            code is its index in every seat's card counts).
    """
    faces: dict[str, DevelopmentCard] = {card.name.lower(): card for card in DevCard}
    for game in games:
        for card in game.dev_cards:
            if card.name.lower() in faces or int(card) != len(faces):
                raise EngineError(
                    f"development card {card.name} ({int(card)}) of the {game.name} rules must"
                    f" have a new name and the next code, {len(faces)}"
                )
            faces[card.name.lower()] = card
    return faces


DEV_CARDS: Final[Mapping[str, DevelopmentCard]] = MappingProxyType(merge_dev_cards(HOOKS.values()))
"""Every development card face by its name in seeds/*.toml (``knight``, ``victory_point``,
...), the base game's five first: the faces a rule set's ``[development_deck]`` may name. Codes
run 0, 1, 2, ... in this order."""

_DEV_CARD_CODES: Final = tuple(DEV_CARDS.values())


def dev_card(code: int) -> DevelopmentCard:
    """The registered face of ``code`` (a drawn card's wire code, a deck's face number).

    >>> dev_card(3)
    <DevCard.YEAR_OF_PLENTY: 3>

    Raises:
        ValueError: no face has that code.
    """
    if not 0 <= code < len(_DEV_CARD_CODES):
        raise ValueError(f"{code!r} is not a development card")
    return _DEV_CARD_CODES[code]


def _bind(games: tuple[type[Variant], ...], cls: type[A.VariantAction]) -> StateHandler:
    """``cls``'s handler of the state's rules module: that of the nearest class among ``games``
    in its class's method resolution order (a game that subclasses another and lists a shared
    action too uses its own handler)."""
    handlers: dict[type, VariantHandler] = {game: game.handlers[cls] for game in games}

    def handle(state: GameState, action: Any) -> None:
        variant = state.variant
        for kind in type(variant).__mro__:
            if kind in handlers:
                handlers[kind](variant, state, action)
                return
        raise EngineError(f"{cls.__name__} is not an action of this game")

    return handle


VARIANT_HANDLERS: Final[dict[type[Action], StateHandler]] = {
    cls: _bind(games, cls) for cls, games in _OWNERS.items()
}
"""The handler of each action a game adds, as the engine calls it (``handler(state,
action)``, the handler of the game played for a shared action);
:class:`~hexlan.engine.state.GameState` adds the base game's own."""


# ---------------------------------------------------------------------------- wire form

_KIND_FIELDS: Final = frozenset({"resource", "get"})
"""Fields that name one card kind (``get`` is a hand where it is a list: a trade's terms)."""
_HAND_FIELDS: Final = frozenset(
    {"give", "get", "cards", *(f for cls in _OWNERS for f in cls.hand_fields)}
)
_CATALOGUE: Final = tuple(Resource)


def action_from_list(data: list[Any], kinds: Sequence[Resource] | None = None) -> Action:
    """Inverse of :func:`~hexlan.engine.actions.action_to_list`, for every registered action.

    ``kinds`` are the game's card kinds (its rule set's ``cards``): a hand must then list
    exactly one count per kind, and a field naming a kind decodes as the game's
    :class:`~hexlan.engine.core.Resource`. Without them (a check of shape alone), a hand lists
    1 to :data:`~hexlan.engine.actions.MAX_KINDS` counts and a kind decodes as its
    :class:`~hexlan.engine.core.Resource` number.

    Raises:
        EngineError: an unknown action type or fields of the wrong shape: a hand of another
            count than the game's, a kind the game does not have.
    """
    if not isinstance(data, list) or not data or data[0] not in _BY_NAME:
        raise EngineError(f"not an action: {data!r}")
    cls = _BY_NAME[data[0]]
    names = [f.name for f in fields(cls)]
    flags = {f.name for f in fields(cls) if f.type in ("bool", bool)} | {"accept"}
    if len(data) - 1 != len(names):
        raise EngineError(f"{data[0]} takes {len(names)} fields, not {len(data) - 1}")
    pairs: frozenset[str] = getattr(cls, "pair_fields", frozenset())
    table = _CATALOGUE if kinds is None else kinds
    counts = range(1, A.MAX_KINDS + 1) if kinds is None else range(len(kinds), len(kinds) + 1)
    values: list[Any] = []
    try:
        for name, raw in zip(names, data[1:], strict=True):
            values.append(
                _decode_pairs(raw)
                if name in pairs
                else _decode(name, raw, table, counts, name in flags)
            )
    except (TypeError, ValueError, IndexError) as exc:
        raise EngineError(f"malformed {data[0]}: {exc}") from exc
    return cls(*values)


def _decode(name: str, raw: Any, kinds: Sequence[Resource], counts: range, flag: bool) -> Any:
    if flag:  # a yes/no field (a trade's ``accept``, a Landnám ship or a public draw)
        if not isinstance(raw, bool):
            raise TypeError(f"{name} must be a bool")
        return raw
    if isinstance(raw, list):
        items = tuple(_int(v) for v in raw)
        if name in _HAND_FIELDS and len(items) not in counts:
            many = counts[0] if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
            raise ValueError(f"{name} must list {many} counts, not {len(items)}")
        if name == "resources":
            return tuple(_kind(kinds, v) for v in items)
        return items
    if raw is None and name in ("resource", "card", "face", "hand", "taken"):  # a card unseen
        return None
    value = _int(raw)
    if name in _KIND_FIELDS:
        return _kind(kinds, value)
    return dev_card(value) if name == "card" else value


def _kind(kinds: Sequence[Resource], value: int) -> Resource:
    if not 0 <= value < len(kinds):
        raise ValueError(f"card kind {value} is not one of the game's {len(kinds)}")
    return kinds[value]


def _decode_pairs(raw: Any) -> tuple[tuple[int, int], ...] | None:
    """A field of integer pairs (``VariantAction.pair_fields``), or None (unseen)."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise TypeError(f"expected a list of pairs, got {raw!r}")
    pairs = []
    for item in raw:
        if not isinstance(item, list) or len(item) != 2:
            raise TypeError(f"expected a pair of integers, got {item!r}")
        pairs.append((_int(item[0]), _int(item[1])))
    return tuple(pairs)


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


# ---------------------------------------------------------------------------- numbering

_TYPE_ORDER: Final = {cls: i for i, cls in enumerate(ACTION_TYPES)}


def action_key(action: Action) -> tuple[Any, ...]:
    """A stable sort key: the action type's place in :data:`ACTION_TYPES`, then its fields in
    wire form (:func:`~hexlan.engine.actions.action_to_list`, None first). Equal actions have
    equal keys in every process and every determinisation of a position.

    >>> from hexlan.engine.actions import BuildRoad, MaritimeTrade
    >>> action_key(BuildRoad(7)), action_key(MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE))
    ((0, 7), (12, (4, 0, 0, 0, 0), 4))
    """
    return (_TYPE_ORDER[type(action)], *(_key(v) for v in A.action_to_list(action)[1:]))


def _key(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    return -1 if value is None else int(value)


def number_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    """Stable action numbering: the actions in :func:`action_key` order, so index ``i`` names
    the same action whatever order they were listed in (a search's child index, an encoding
    for learning). ``{a: i for i, a in enumerate(...)}`` maps back.

    >>> from hexlan.engine.actions import END_TURN, BuildRoad
    >>> number_actions([END_TURN, BuildRoad(9), BuildRoad(2)])
    (BuildRoad(path=2), BuildRoad(path=9), EndTurn())
    """
    return tuple(sorted(set(actions), key=action_key))
