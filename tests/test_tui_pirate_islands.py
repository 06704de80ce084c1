"""Pirate Islands at the table (seed 004; docs/rules/pirate-islands.md), driven as a person would
at 80x24 and at 120x40: the board shows the fortresses with their chits, the fleet and its
circle, and warships; a knight makes a warship, a 7 robs anyone, and f attacks the fortress, each
by keys, each checked against the engine's state.

The games are real in-process sessions of `hexlan play --game seafarers-pirate-islands` (seeded),
the person's seat played by a heuristic bot up to the position wanted, then by keys.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from tui_play import legal, move_a_ship, play_by_keys

from hexlan.engine import actions as A
from hexlan.engine.core import Phase
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    PirateIslands,
    RobSeat,
    fleet,
)
from hexlan.engine.variants.seafarers import MoveShip, sea
from hexlan.tui.board import COMPACT, FLEET_PATH_GLYPH, MINI, WARSHIP_GLYPH
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen

GAME = "seafarers-pirate-islands"
SIZES = [pytest.param((80, 24), MINI, id="80x24"), pytest.param((120, 40), COMPACT, id="120x40")]
SEED = 1
"""A seed whose game brings the person a knight, a 7, a ship move and a closed ship line (about
80 turns)."""
READY = {
    "knight": legal(A.PlayKnight),
    "rob": legal(RobSeat),
    "attack": legal(AttackFortress),
    "move": legal(MoveShip),
}
"""When each step may be played."""


pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


def scenario(screen: GameScreen) -> PirateIslands:
    variant = screen.game.view.variant
    assert isinstance(variant, PirateIslands)
    return variant


async def make_a_warship(pilot: Pilot[int], screen: GameScreen) -> None:
    """p offers the knight as a warship; playing it turns the line's first plain ship into a
    warship, drawn as ``≈``, and counted in the players panel."""
    view = screen.game.view
    before, phase = fleet(view).warships[0], view.phase
    await pilot.press("p")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog)
    labels = [str(label) for label, _ in dialog.choices]
    index = next(i for i, label in enumerate(labels) if label.startswith("Knight"))
    assert "warship" in labels[index]
    await pilot.press(str(index + 1))
    await pilot.pause()
    view = screen.game.view
    assert fleet(view).warships[0] == before + 1 and view.phase is phase
    ship = sea(view).ships[0][before]
    cell = screen.board.cell_of("path", ship)
    assert cell is not None
    assert WARSHIP_GLYPH in "".join(screen.board.rendered_lines()[cell.y])


async def rob_anyone(pilot: Pilot[int], screen: GameScreen) -> None:
    """A 7 without a robber: no hex lights up; whom to rob is asked (or, with one choice,
    taken at once), and play goes on to the steal."""
    game = screen.game
    robs = [a for a in game.legal_actions() if isinstance(a, RobSeat)]
    assert screen.pick is None
    if len(robs) > 1:
        dialog = pilot.app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.title_text == "Rob whom?"
        await pilot.press("1")
        await pilot.pause()
    assert game.view.phase is not Phase.MOVE_ROBBER


async def attack_the_fortress(pilot: Pilot[int], screen: GameScreen) -> None:
    """The board shows each fortress as its chits and the fleet's circle; f asks first, then
    attacks: the beacon's die settles it and the turn can only end."""
    game = screen.game
    view = game.view
    variant = scenario(screen)
    lines = screen.board.rendered_lines()
    for seat in range(4):
        if fleet(view).fortress_chits[seat]:
            cell = screen.board.cell_of("node", variant.slots[seat].fortress)
            assert cell is not None
            assert lines[cell.y][cell.x] == str(fleet(view).fortress_chits[seat])
    assert any(FLEET_PATH_GLYPH in line for line in lines)
    chits, ships = fleet(view).fortress_chits[0], len(sea(view).ships[0])
    assert "f" in pilot.app.active_bindings
    await pilot.press("f")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ChoiceDialog)
    await pilot.press("1")
    for _ in range(200):
        await pilot.pause()
        if fleet(game.view).fortress_attacked:
            break
    view = game.view
    assert fleet(view).fortress_attacked and view.phase is Phase.MAIN
    assert (fleet(view).fortress_chits[0], len(sea(view).ships[0])) != (chits, ships)
    assert game.legal_actions() == [A.END_TURN]


@pytest.mark.slow
@pytest.mark.parametrize(("size", "layout"), SIZES)
async def test_warships_the_seven_and_a_fortress_attack_by_keys(
    size: tuple[int, int], layout: object
) -> None:
    """At 80x24 and 120x40 the whole map fits and the scenario's decisions work by keys: a
    warship, a 7, a fortress attack, and the line's end ship moved onto its other way."""
    steps = {
        "knight": make_a_warship,
        "rob": rob_anyone,
        "attack": attack_the_fortress,
        "move": move_a_ship,
    }
    await play_by_keys(size, layout, steps, READY, GAME, SEED)
