"""One registration per game: a :class:`GameSpec` says everything hexlan needs to play a family
of games, so adding one edits no central list (ARCHITECTURE.md "Many games on one engine").

A game is a data file and its own modules. The data file is seeds/<game>.toml: the rule set
(counts, costs, decks), its board (seeds/boards/), and ``hooks = "NAME"`` naming the spec of its
rules. The spec lives beside those rules, as the module-level ``SPEC`` of a module or package in
engine/variants/ (the base game's, with no rules module, is :data:`BASE_SPEC`), and names:

- ``rules``: its rules module's :class:`~hexlan.engine.variants.base.Variant` class (None for
  the base game), whose actions, phases and cards join the engine's open sets;
- ``place``: where those sets are merged (:mod:`hexlan.engine.registry`): after every game with
  a smaller place, so a new game takes the next free place and moves no existing wire code;
- ``options``: the game's own readings of its rules, as :class:`GameOption` data (the options
  every game shares are the fields of :class:`~hexlan.engine.options.GameOptions`);
- ``dice``: the game's own dice (:class:`DieSpec`), whose rolls ``hexlan verify --stats``
  checks against fair chance beside the two dice every game rolls;
- ``tellers`` and ``keys``: the modules that put its actions into words (net/tellers/) and
  onto the game screen's keys (tui/games/), as dotted names: the engine never imports them; the
  narration and the TUI import the modules every spec names, so neither keeps a list of games;
- ``views``: the game's other TUI modules (what it draws on the board, its dialogs and panels),
  as dotted names, imported with its ``keys``: they fill the TUI's slots
  (:mod:`hexlan.tui.slots`: the board's layers, the panels' lines, the game screen's keys), so
  the board, the screens and the panels name no game;
- ``bots`` and ``cheats``: the modules that give the heuristic bot its knowledge of the game
  (engine/bots/, registered as :mod:`hexlan.engine.bots.knowledge` says) and red-team seats
  the deviations only the game offers (net/, read by :mod:`hexlan.net.redteam`), as dotted
  names the bots and the red team import from every spec.

:func:`hexlan.engine.variants.game_specs` finds every spec by reading engine/variants/, and
:data:`hexlan.engine.ruleset.GAMES` finds every game by reading seeds/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from hexlan.engine.actions import Action
    from hexlan.engine.game import SeatViews
    from hexlan.engine.options import GameOptions
    from hexlan.engine.variants.base import Variant

StateFactory = Callable[[str, int, "GameOptions | None"], "SeatViews"]
"""A game's own state factory: ``factory(rule set name, seats, options)`` gives a new game
(raising :class:`~hexlan.engine.core.EngineError` for seats or options it refuses)."""

OptionValue = bool | int | None
"""A game option's value: yes/no, or a whole number from 1 (None: the rule set's number)."""


@dataclass(frozen=True, slots=True)
class GameOption:
    """One named reading of a game's own rules, off (at ``default``) unless the table sets it.

    A number option takes any whole number from 1; the game's rules module refuses, when it
    builds, a number its rule set does not allow (the Jungle's tokens: seeds/jungle.toml).

    Attributes:
        name: the option's name on the command line and in logs (``--option NAME=VALUE``),
            prefixed by its game's short name (``jungle_number``); unique among all games.
        default: the official reading: a bool for a yes/no option, an int or None (the rule
            set's or map's number) for a number option.
        words: the option's value in words for the table's terms, the lobby and the game
            picker: ``words(value)`` (for a number option, ``value`` is never None there).
    """

    name: str
    default: OptionValue
    words: Callable[[OptionValue], str]

    @property
    def is_flag(self) -> bool:
        """Whether the option is yes/no (its default is a bool)."""
        return isinstance(self.default, bool)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """A die of a game's own, rolled by the beacon as a chance action (Cities & Knights' event
    die, Landnám's green and red exploration dice), that ``hexlan verify --stats`` tests for
    fairness.

    Attributes:
        name: the die in words ("event die"); unique among all games' dice.
        action: the chance action class whose every applied instance rolls it (several dice
            may share one: Landnám's exploration roll is a green and a red d10).
        outcome: the roll's outcome as an index into ``outcomes``: ``outcome(action)``; or
            the outcomes of each of the die's rolls in the action, as a tuple (none, one or
            two of each exploration die, §10.2).
        outcomes: each outcome's label, in table order (the event die: the ship, then each
            track's gate).
        chances: the probability of each outcome under fair chance (one per outcome, summing
            to 1).
    """

    name: str
    action: type[Action]
    outcome: Callable[[Action], int | tuple[int, ...]]
    outcomes: tuple[str, ...]
    chances: tuple[float, ...]

    def rolled(self, action: Action) -> tuple[int, ...]:
        """Each roll of this die ``action`` makes, as indices into :attr:`outcomes`."""
        found = self.outcome(action)
        return found if isinstance(found, tuple) else (found,)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything hexlan needs of one family of games (the rule sets whose ``hooks`` name it).

    Attributes:
        name: the name rule sets give as ``hooks`` (``"seafarers"``); ``"base"`` for
            :data:`BASE_SPEC`, which every rule set without ``hooks`` plays.
        rules: the rules module's Variant class; None for the base game and for a game with a
            state of its own.
        state: the state factory of a game unlike Catan, which implements the
            :class:`~hexlan.engine.game.Game` protocol itself (Landnám) and has no ``rules``;
            None for every game :class:`~hexlan.engine.state.GameState` plays.
        place: the merge order of the games' actions, phases and cards, from 1; unique.
        options: the game's own options, in the order the terms list them.
        dice: the game's own dice, tested for fairness by ``hexlan verify --stats``.
        tellers: dotted names of the modules that narrate its actions (hexlan.net.tellers.*).
        keys: dotted names of the modules that give its actions keys (hexlan.tui.games.*).
        views: dotted names of the game's other TUI modules (its board layers, dialogs and
            panels), which the TUI imports with its keys.
        bots: dotted names of the modules that register the heuristic bot's knowledge of it
            (hexlan.engine.bots.*; :mod:`hexlan.engine.bots.knowledge`).
        cheats: dotted names of the modules of its own red-team deviations (hexlan.net.*),
            each with an ``INSTALLS`` mapping (:mod:`hexlan.net.redteam`).
        actions: a game with a state of its own: its action classes, which the wire decodes
            by name (:func:`hexlan.engine.registry.action_from_list`); a Catan game's come from
            its ``rules``.
    """

    name: str
    rules: type[Variant] | None
    place: int
    options: tuple[GameOption, ...] = ()
    state: StateFactory | None = None
    dice: tuple[DieSpec, ...] = ()
    tellers: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    views: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()
    cheats: tuple[str, ...] = ()
    actions: tuple[type[Action], ...] = ()


BASE_SPEC: Final = GameSpec(
    name="base",
    rules=None,
    place=0,
    tellers=("hexlan.net.tellers.base",),
    keys=("hexlan.tui.games.base", "hexlan.tui.games.special_build"),
)
"""The base game (seed 002): no rules module and no options of its own; its tellers and keys
cover the special building phase the games for five and six add by a flag."""
