"""Rules modules of the variants: what a rule set's data cannot say, as hooks the engine calls.

A rule set names its module with ``hooks = "NAME"`` (seeds/jungle.toml, seeds/big-river.toml);
:func:`make_variant` builds it for one game. :class:`~hexlan.engine.state.GameState` calls the
hooks at named points (../shared/ARCHITECTURE.md, "A game is a rule set, a board and hooks"):

- :meth:`Variant.prepare_board`: once, before play, on the board the game is given;
- :meth:`Variant.setup_closed`: intersections closed to set-up settlements (a set-up ban);
- :meth:`Variant.after_roll`: after a roll other than 7, before resource production;
- :meth:`Variant.main_actions`: extra legal actions of the active seat's main phase;
- :meth:`Variant.after_build`: after a road, settlement or city is placed (set-up included);
- :meth:`Variant.public_dict`: the variant's public state, added to the state's public dict;
- :meth:`Variant.action_applied`, :meth:`Variant.settlement_reach`: after an action the variant
  asked to follow (``state.variant_due``), and where its pieces other than roads reach;
- :meth:`Variant.prepare_state`, :meth:`Variant.after_production`, :meth:`Variant.turn_started`,
  :meth:`Variant.phase_seat`, :meth:`Variant.phase_actions`, :meth:`Variant.deck_outcome`,
  :meth:`Variant.free_builds`, :meth:`Variant.has_free_builds`, :meth:`Variant.free_pieces`,
  :meth:`Variant.robber_actions` and :meth:`Variant.route_length`: what Seafarers adds (ships,
  the pirate, gold, fog; docs/rules/seafarers.md);
- :meth:`Variant.dice_rolled`, :meth:`Variant.knight_played`, :meth:`Variant.can_play_knight`,
  :meth:`Variant.turn_must_end`,
  :meth:`Variant.can_win`, :meth:`Variant.hand_draw_outcome`: what Pirate Islands adds (the
  fleet, its loot drawn blind, warships, the fortress to win; docs/rules/pirate-islands.md).

Each game registers by a module of this folder, found by reading it: its ``SPEC``
(:class:`~hexlan.engine.gamespec.GameSpec`) names its :class:`Variant` class, which declares its
actions with their handlers and its phases (which of them are chance phases), its options, its
dice and its narration and TUI modules. :data:`SPECS` holds them in place order, and
:data:`HOOKS` is the registry :mod:`hexlan.engine.registry` merges, in that order, after the base
game's sets (so a game added with the next place moves no existing action's type code).

A variant keeps no game progress of its own: what changes in play lives in the state, so the
full state and every information state run the same hooks on the same data. The older games use
the state's public lists (``discoveries``, ``gold_points``, ``variant_vp``); a game with much
progress of its own (Seafarers and Pirate Islands, Cities & Knights) keeps it in one object in
the state's generic slot
:attr:`~hexlan.engine.state.GameState.variant_state`: a :class:`VariantState` its rules module
makes in :meth:`Variant.prepare_state`, which :meth:`GameState.copy` copies and whose
``public_dict`` the module's :meth:`Variant.public_dict` adds to the state's (so it is in every
hash); its Variant class's ``position_fields`` (a
:class:`~hexlan.engine.position_fields.ProgressFields`) says how a position (docs/POSITION.md)
writes and reads it. No new game adds fields to GameState. A game without hooks (the base game)
has no variant and pays one ``is None`` test at each point.

Cities & Knights (:mod:`hexlan.engine.variants.cities_knights`) adds
:meth:`Variant.setup_city`, :meth:`Variant.robber_locked`, :meth:`Variant.hand_limit_bonus`,
:attr:`Variant.city_commodities`, and for hidden cards of its own (progress cards)
:meth:`Variant.observation` (what each seat sees of an action) and a ``deck_outcome`` of a face
the state may not see (None); it asks :meth:`GameState.sees` whose cards a state knows, and its
:class:`VariantState` gives its hidden part to :meth:`GameState.hidden_dict`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from hexlan.engine.core import BuildPhase, EngineError, GamePhase
from hexlan.engine.gamespec import BASE_SPEC, DieSpec, GameOption, GameSpec
from hexlan.engine.variants.base import Variant, VariantState

if TYPE_CHECKING:
    from hexlan.engine.actions import Action
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.topology import Topology


def _discover() -> tuple[GameSpec, ...]:
    """Every game's spec, in place order: :data:`~hexlan.engine.gamespec.BASE_SPEC`, then the
    ``SPEC`` of each module or package in this folder that has one.

    Raises:
        EngineError: two specs with one name, place or option name, a spec whose name is not its
            rules module's, or one whose place is not above the base game's.
    """
    specs = [BASE_SPEC]
    for found in pkgutil.iter_modules(__path__):
        spec = getattr(importlib.import_module(f"{__name__}.{found.name}"), "SPEC", None)
        if isinstance(spec, GameSpec):
            specs.append(spec)
    specs.sort(key=lambda spec: spec.place)
    options = [option.name for spec in specs for option in spec.options]
    for spec in specs[1:]:
        named = spec.state is not None if spec.rules is None else spec.rules.name == spec.name
        if not named or spec.place < 1:
            raise EngineError(
                f"the {spec.name} spec must name its rules or its state and take a place from 1"
            )
    if len({s.name for s in specs}) != len(specs) or len({s.place for s in specs}) != len(specs):
        raise EngineError("two game specs share a name or a place")
    if len(set(options)) != len(options):
        raise EngineError("two game options share a name")
    return tuple(specs)


SPECS: Final[Mapping[str, GameSpec]] = MappingProxyType({s.name: s for s in _discover()})
"""Every game's spec by the name a rule set gives as ``hooks`` (``"base"`` for the base game),
in place order: found by reading this folder, so adding a game edits no list here."""

HOOKS: Final[Mapping[str, type[Variant]]] = MappingProxyType(
    {name: spec.rules for name, spec in SPECS.items() if spec.rules is not None}
)
"""The rules modules by the name a rule set gives as ``hooks`` (read only); also the registry of
the games' actions and phases, merged in this (place) order."""


def game_specs() -> tuple[GameSpec, ...]:
    """Every game's spec, base game first, in place order."""
    return tuple(SPECS.values())


def spec_for(rules: RuleSet) -> GameSpec:
    """The spec of the rule set's game: the one its ``hooks`` names, else the base game's.

    Raises:
        EngineError: ``hooks`` names no spec.
    """
    name = rules.raw.get("hooks")
    if name is None:
        return BASE_SPEC
    spec = SPECS.get(str(name))
    if spec is None or spec.rules is None:
        raise EngineError(f"rule set {rules.name!r} names unknown hooks {name!r}")
    return spec


@cache
def game_dice() -> Mapping[type[Action], tuple[DieSpec, ...]]:
    """Every game's own dice by the chance action that rolls them (read only; several dice
    of one action in their spec's order).

    Raises:
        EngineError: two dice of one name.
    """
    dice = [die for spec in SPECS.values() for die in spec.dice]
    if len({d.name for d in dice}) != len(dice):
        raise EngineError("two games' dice share a name")
    by_action: dict[type[Action], tuple[DieSpec, ...]] = {}
    for die in dice:
        by_action[die.action] = (*by_action.get(die.action, ()), die)
    return MappingProxyType(by_action)


@cache
def declared_options() -> Mapping[str, GameOption]:
    """Every game's own options by name (read only)."""
    return MappingProxyType({o.name: o for spec in SPECS.values() for o in spec.options})


FLAG_PHASES: Final[Mapping[str, tuple[GamePhase, ...]]] = MappingProxyType(
    {"special_building": tuple(BuildPhase)}
)
"""Phases a rule set opts into by a flag rather than by a hooks module (read only), by the flag's
name: the special building phase of the games for five and six (``special_building = true``),
which Pirate Islands for six shares with the 5-6 player game. Merged after the engine's own
phases, before the games' (:mod:`hexlan.engine.registry`)."""


def make_variant(rules: RuleSet, options: GameOptions, topology: Topology) -> Variant | None:
    """The rules module the rule set names (``hooks``), built for one game; None without one.

    Raises:
        EngineError: an unknown module name, or what the module raises for the game's options.
    """
    cls = spec_for(rules).rules
    return None if cls is None else cls(rules, options, topology)


__all__ = [
    "FLAG_PHASES",
    "HOOKS",
    "SPECS",
    "Variant",
    "VariantState",
    "declared_options",
    "game_dice",
    "game_specs",
    "make_variant",
    "spec_for",
]
