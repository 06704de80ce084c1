"""What a game's own keys and picks do on the game screen, registered by its modules in
:mod:`hexlan.tui.games` (as :mod:`hexlan.tui.actionkeys` registers which actions answer a
key), so the screen (:mod:`hexlan.tui.screens.game`) names no game:

- :func:`runs` registers what a key's action does in a game (Cities & Knights' ``k``nights,
  Seafarers' ``g``old dialog), found along the rules class's bases (:func:`game_key`), and
  when the key is shown;
- :func:`pick_heads` registers a game's picks on the board: each one's prompt head and the
  kind of place it lights (:func:`pick_head`, :func:`pick_kind`);
- :func:`steps` registers what picking a place does in a pick, in place of playing the
  place's action (a knight's commands, the Inventor's second hex: :func:`step_of`);
- :func:`picks_in` registers the phases whose decision is picked on the board at once
  (:func:`phase_pick`);
- :func:`builds_on_paths` registers a game's pieces built on paths beside the road, so a
  set-up or free path pick places either (:func:`path_pick`, :func:`picks`);
- :func:`switches` registers a key that, in a pick of one piece's move, moves another piece
  instead (Seafarers' ``P``: the pirate rather than the robber; :func:`switch_of`);
- :func:`binds` registers a game's key on the screen's footer and in its command palette
  (:func:`bound`), and :func:`explains` its line on the help screen with a paragraph of its
  rules in short (:func:`explained`);
- :data:`ROLL_WORDS` is the slot of what a game adds to the prompt before the roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypeVar

from hexlan.engine.actions import Action
from hexlan.engine.core import GamePhase
from hexlan.engine.info import InformationState
from hexlan.tui.actionkeys import keyed
from hexlan.tui.slots import Slot

if TYPE_CHECKING:
    from hexlan.engine.variants.base import Variant
    from hexlan.tui.screens.game import GameScreen, Pick

T = TypeVar("T")

PickKind: TypeAlias = Literal["node", "path", "hex"]
"""What a pick lights: intersections, paths or hexes."""
Step: TypeAlias = "Callable[[GameScreen, Pick, int, list[Action]], None]"
"""``step(screen, pick, place, actions)``: what picking ``place`` in ``pick`` does, its legal
``actions`` there given."""


def _when_keyed(name: str) -> Callable[[GameScreen, list[Action]], bool]:
    """Shown once an action answering the key ``name`` is legal."""
    return lambda screen, legal: bool(keyed(name, legal))


@dataclass(frozen=True, slots=True)
class GameKey:
    """A game's key on the game screen.

    Attributes:
        run: what its action does: ``run(screen)``.
        shown: ``shown(screen, legal)``: whether the key is shown and allowed now, the
            person's legal actions being ``legal`` (never while a pick is on).
    """

    run: Callable[[GameScreen], None]
    shown: Callable[[GameScreen, list[Action]], bool]


@dataclass(frozen=True, slots=True)
class ScreenKey:
    """A game's key on the game screen's footer and in its command palette.

    Attributes:
        key: the key (``"b"``).
        action: the screen's action it runs (``"build('ship')"``, ``"game('gold')"``).
        label: its name in the footer (``"Ship"``).
        title: its command's title in the palette (``"Build a ship"``).
        help: its command's help in the palette (``"key b: ..."``).
        before: the action of the screen's own key it goes before, in the footer and the
            palette (``"buy"``; one the screen has not: at the end).
    """

    key: str
    action: str
    label: str
    title: str
    help: str
    before: str


_KEYS: Final[dict[type, dict[str, GameKey]]] = {}
_HEADS: Final[dict[str, str]] = {}
_KINDS: Final[dict[str, PickKind]] = {}
_STEPS: Final[dict[str, Step]] = {}
_PHASE_PICKS: Final[dict[GamePhase, str]] = {}
_BOUND: Final[list[ScreenKey]] = []
_EXPLAINED: Final[list[tuple[tuple[str, str], ...]]] = []
_RULES_IN_SHORT: Final[list[str]] = []
_PATH_PIECES: Final[list[str]] = ["road"]
_SWITCHES: Final[dict[str, tuple[str, str]]] = {}


def runs(
    rules: type[Variant],
    name: str,
    shown: Callable[[GameScreen, list[Action]], bool] | None = None,
) -> Callable[[Callable[[GameScreen], None]], Callable[[GameScreen], None]]:
    """Register the decorated function as what the key whose action is named ``name`` does
    in games of ``rules``, shown when ``shown`` says so (by default once an action answering
    ``name`` is legal: :func:`~hexlan.tui.actionkeys.keyed`).

    Raises:
        ValueError: ``rules`` already has that key.
    """

    def register(run: Callable[[GameScreen], None]) -> Callable[[GameScreen], None]:
        keys = _KEYS.setdefault(rules, {})
        if name in keys:
            raise ValueError(f"the {rules.name} rules have the {name!r} key twice")
        keys[name] = GameKey(run, shown or _when_keyed(name))
        return run

    return register


def game_key(variant: object, name: str) -> GameKey | None:
    """The key named ``name`` in the game of the ``variant`` rules (None: the base game),
    found along its class's bases; None when the game has no such key."""
    if variant is None:
        return None
    import hexlan.tui.games  # noqa: F401, PLC0415 - the games' modules import this one

    for cls in type(variant).__mro__:
        key = _KEYS.get(cls, {}).get(name)
        if key is not None:
            return key
    return None


def pick_heads(kind: PickKind, heads: Mapping[str, str]) -> None:
    """Register a game's picks of ``kind`` places, each by its name with its prompt's head
    (``{"knight": "Build or pick a knight"}``).

    Raises:
        ValueError: a pick already registered.
    """
    for what, head in heads.items():
        if what in _HEADS:
            raise ValueError(f"the pick {what!r} is registered twice")
        _HEADS[what] = head
        _KINDS[what] = kind


def pick_head(what: str) -> str | None:
    """The prompt's head of a game's pick ``what`` (None: no game registered it)."""
    return _HEADS.get(what)


def pick_kind(what: str) -> PickKind | None:
    """What a game's pick ``what`` lights (None: no game registered it)."""
    return _KINDS.get(what)


def steps(*picks: str) -> Callable[[Step], Step]:
    """Register the decorated :data:`Step` as what picking a place does in the ``picks``.

    Raises:
        ValueError: a pick that already has its step.
    """

    def register(step: Step) -> Step:
        for what in picks:
            if what in _STEPS:
                raise ValueError(f"the pick {what!r} already has its step")
            _STEPS[what] = step
        return step

    return register


def step_of(what: str) -> Step | None:
    """What picking a place does in the pick ``what`` (None: it plays the place's action)."""
    return _STEPS.get(what)


def picks_in(phase: GamePhase, what: str) -> None:
    """Register ``phase`` as one whose decision is the pick ``what`` on the board, started as
    soon as it is due (it cannot be put off).

    Raises:
        ValueError: a phase that already has its pick.
    """
    if phase in _PHASE_PICKS:
        raise ValueError(f"{phase!r} already has its pick")
    _PHASE_PICKS[phase] = what


def phase_pick(phase: GamePhase) -> str | None:
    """The pick ``phase``'s decision is made by (None: none registered)."""
    return _PHASE_PICKS.get(phase)


def binds(*keys: ScreenKey) -> None:
    """Register ``keys`` as a game's keys on the game screen (their footer bindings and their
    commands), which the screen shows and allows as their actions say (a ``game(NAME)`` key:
    :func:`runs`).

    Raises:
        ValueError: a key already bound.
    """
    for key in keys:
        if any(k.key == key.key for k in _BOUND):
            raise ValueError(f"the key {key.key!r} is bound twice")
        _BOUND.append(key)


def bound() -> tuple[ScreenKey, ...]:
    """Every game's keys, in the order their modules registered them."""
    return tuple(_BOUND)


def placed(
    own: Sequence[T], action_of: Callable[[T], str], make: Callable[[ScreenKey], T]
) -> list[T]:
    """The screen's ``own`` keys (bindings or commands, each of the action ``action_of(it)``)
    with every game's keys made by ``make`` among them, each before the one it names
    (:attr:`ScreenKey.before`; the ones naming none of them at the end)."""
    game = bound()
    merged: list[T] = []
    for item in own:
        merged += [make(k) for k in game if k.before == action_of(item)]
        merged.append(item)
    known = {action_of(item) for item in own}
    return merged + [make(k) for k in game if k.before not in known]


def explains(rules_in_short: str, *lines: tuple[str, str]) -> None:
    """Register a game's help: a paragraph of its rules in short, and the ``lines`` of its
    keys for the help screen's key map, each the keys and what they do (``("b / n", "Seafarers:
    build a ship / move a ship")``)."""
    _RULES_IN_SHORT.append(rules_in_short)
    _EXPLAINED.append(lines)


def explained() -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Every game's help (:func:`explains`) in the order their modules registered it: the
    key map's lines and the paragraphs of rules in short."""
    import hexlan.tui.games  # noqa: F401, PLC0415 - the games' modules import this one

    return tuple(line for lines in _EXPLAINED for line in lines), tuple(_RULES_IN_SHORT)


def builds_on_paths(piece: str) -> None:
    """Register ``piece`` (``"ship"``) as built on paths like the road, by the key
    ``build:PIECE`` (:func:`~hexlan.tui.actionkeys.answers`).

    Raises:
        ValueError: a piece already registered.
    """
    if piece in _PATH_PIECES:
        raise ValueError(f"the path piece {piece!r} is registered twice")
    _PATH_PIECES.append(piece)


def path_pick(legal: Sequence[Action]) -> str:
    """What a set-up or free path pick places, the person's legal actions being ``legal``:
    the path pieces legal now joined by " or " (``"road or ship"``), else ``"road"``."""
    legal_now = [p for p in _PATH_PIECES if keyed(f"build:{p}", legal)]
    return " or ".join(legal_now) or "road"


def picks(what: str) -> list[str]:
    """The pieces a pick of ``what`` places (:func:`path_pick`): ``"road or ship"`` places
    either.

    >>> picks("road or ship"), picks("city")
    (['road', 'ship'], ['city'])
    """
    return what.split(" or ")


def switches(what: str, other: str, key: str) -> None:
    """Register ``key`` as switching a pick of ``what``'s move to a pick of ``other``'s
    (Seafarers: ``switches("robber", "pirate", "P")``), shown when ``other`` has a legal
    place; a robber's move the robber cannot make starts the ``other`` pick at once.

    Raises:
        ValueError: ``what`` already switches.
    """
    if what in _SWITCHES:
        raise ValueError(f"the pick {what!r} already switches")
    _SWITCHES[what] = (other, key)


def switch_of(what: str) -> tuple[str, str] | None:
    """The pick a pick of ``what`` switches to and its key (None: it does not switch)."""
    return _SWITCHES.get(what)


RollWords = Callable[[InformationState, Sequence[Action]], str]
"""``words(view, legal)``: what a game adds to the prompt before the roll ("": nothing now)."""
ROLL_WORDS: Final = Slot[RollWords]("roll words")
"""Each game's :data:`RollWords` (Cities & Knights' Alchemist), by its rules class."""
