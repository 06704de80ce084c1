"""The special building phase of the games for five and six players, as a phase the engine's
open set gains rather than a member of its own :class:`~hexlan.engine.core.Phase`.

A rule set opts in with ``special_building = true`` (seeds/five-six.toml,
seeds/seafarers-pirate-islands-6.toml): a flag, not a hooks module, since a game with hooks of its
own (Pirate Islands for six) has the phase too. :data:`~hexlan.engine.variants.FLAG_PHASES` names
it by that flag, and :mod:`hexlan.engine.registry` merges it after the engine's phases, before
any game's, so its code (15, the one it always had) is stable on the wire and in every hash.
"""

from __future__ import annotations

from hexlan.engine.core import GamePhase


class BuildPhase(GamePhase):
    """The phase the ``special_building`` flag adds (seed 002 «Расширение на 5-6 игроков»)."""

    SPECIAL_BUILD = 15
    """After a turn, each other seat in turn order may build and buy development cards, no
    trade and no card play; the active seat is the builder (docs/rules/five-six.md)."""


__all__ = ["BuildPhase"]
