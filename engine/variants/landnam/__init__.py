"""Landnám, the settlement of Iceland (seeds 000 and 001; ../shared/landnam-rules.md;
docs/rules/landnam.md): a game unlike Catan, with a state of its own on the
:class:`~hexlan.engine.game.Game` protocol (:class:`~.state.LandnamState`), registered by its
spec's state factory rather than by a Catan rules module.

Modules, each importing only those listed before it: :mod:`.board` (geometry), :mod:`.rules`
(the data file's numbers and the codes' names), :mod:`.actions`, :mod:`.phases`, :mod:`.parts`,
:mod:`.fate` (the deck and its draws), :mod:`.movement`, :mod:`.economy`, :mod:`.althing` (the
rules, by phase, with the fate cards each phase allows), :mod:`.cards` (what a fate card does),
:mod:`.refusals` (why an action is refused), :mod:`.state` (the state, the protocol and the
dispatch: the modules move the game on through :meth:`~.state.LandnamState.enter`),
:mod:`.position` (positions as text).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from hexlan.engine.gamespec import DieSpec, GameOption, GameSpec
from hexlan.engine.variants.landnam.actions import ACTIONS, ExploreRoll

if TYPE_CHECKING:
    from hexlan.engine.actions import Action
    from hexlan.engine.options import GameOptions
    from hexlan.engine.variants.landnam.state import LandnamState


def _new_game(name: str, players: int, options: GameOptions | None) -> LandnamState:
    """The state factory: imports the rules only when a game is made (the spec is read while
    the engine's registries are built)."""
    from hexlan.engine.variants.landnam.state import new_game  # noqa: PLC0415 - see above

    return new_game(name, players, options)


def _faces_rolled(colour: str, action: Action) -> tuple[int, ...]:
    """The faces an exploration roll shows on its ``colour`` d10s (§10.2), as indices 0-9."""
    assert isinstance(action, ExploreRoll)
    return tuple(face - 1 for face in (action.green if colour == "green" else action.red))


SPEC = GameSpec(
    name="landnam",
    rules=None,
    state=_new_game,
    place=6,
    bots=("hexlan.engine.bots.landnam",),
    actions=ACTIONS,
    dice=tuple(
        DieSpec(
            f"{colour} exploration die",
            ExploreRoll,
            functools.partial(_faces_rolled, colour),
            tuple(str(face) for face in range(1, 11)),
            (0.1,) * 10,
        )
        for colour in ("green", "red")
    ),
    options=(
        GameOption(
            "landnam_outlaw_mountains",
            True,
            lambda v: (
                "outlaws may flee into the mountains"
                if v
                else "only a Landing card opens a mountain"
            ),
        ),
        GameOption(
            "landnam_ships_two",
            False,
            lambda v: "only a ship may take two steps" if v else "any unit may take two steps",
        ),
        GameOption(
            "landnam_units_lost",
            False,
            lambda v: (
                "units leaving the board are lost"
                if v
                else "units leaving the board return to the reserve"
            ),
        ),
        GameOption(
            "landnam_rim_is_land",
            False,
            lambda v: "the rim is not sea for towns" if v else "the rim counts as sea for towns",
        ),
        GameOption("landnam_radius", None, lambda v: f"a board of radius {v}"),
        GameOption("landnam_harbours", None, lambda v: f"{v} harbour markers of each resource"),
    ),
    tellers=("hexlan.net.tellers.landnam",),
    keys=("hexlan.tui.games.landnam",),
    views=(
        "hexlan.tui.games.landnam_board",
        "hexlan.tui.games.landnam_client",
        "hexlan.tui.games.landnam_dialogs",
        "hexlan.tui.games.landnam_panels",
    ),
)
"""Landnám's registration: its state factory, its options (the reference's gaps G2, G3, G11,
G12, G9 and G7; docs/rules/landnam.md), its heuristic bot, its narration and its TUI modules (its
table, board, client, dialogs and panels)."""
