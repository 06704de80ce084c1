"""The special building phase of the games for five and six players on the game screen
(:class:`hexlan.engine.core.BuildPhase`, docs/rules/five-six.md): the build keys build in
it, the waiting line names the builder, and a turn with nothing to build passes by itself."""

from __future__ import annotations

from collections.abc import Sequence

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import BuildPhase
from hexlan.tui.actionkeys import builds_in, keyed, labels, prompts, waits
from hexlan.tui.screen_keys import explains

_BUILDS = (("a road", "d", "road"), ("a settlement", "s", "settlement"), ("a city", "c", "city"))
"""What the phase's prompt offers to build: its words, its key and its build key's piece."""


def special_build_words(legal: Sequence[Action]) -> str:
    """Your special building turn: what you may do now with its keys (only what ``legal``, the
    person's legal actions, allows; ending is always there).

    >>> special_build_words([A.BuildRoad(3), A.END_TURN])
    'Special building, your turn: build a road (d), end (e)'
    """
    builds = [f"{what} ({key})" for what, key, piece in _BUILDS if keyed(f"build:{piece}", legal)]
    options = []
    if builds:
        options.append("build " + " or ".join(builds))
    if keyed("buy", legal):
        options.append("buy a card (v)")
    options.append("end (e)" if options else "nothing to build: end (e)")
    return "Special building, your turn: " + ", ".join(options)


def nothing_to_build(legal: Sequence[Action]) -> bool:
    """Whether ending is all the person may do (``legal``: their legal actions): then the turn
    passes without a key press, and with no notice (one a round would stack over the panels;
    the log says "You passed")."""
    return list(legal) == [A.END_TURN]


builds_in(BuildPhase.SPECIAL_BUILD)
labels("special build", BuildPhase.SPECIAL_BUILD)
waits("may build", BuildPhase.SPECIAL_BUILD, head="Special building: ")
prompts(BuildPhase.SPECIAL_BUILD, "end_turn", special_build_words, due=nothing_to_build)
explains("""\
5-6 players: after each turn, every other player in turn order may build and buy development
cards (the special building phase: no trading, no cards played); e ends your part of it.""")
