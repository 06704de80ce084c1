"""Seafarers at the table, driven as a person would at 80x24 and at 120x40: build a ship, move a
ship, move the pirate instead of the robber, and choose gold, each by keys, each checked against
the engine's state (docs/rules/seafarers.md; issue 9).

The games are real in-process sessions of `hexlan play --game seafarers-new-shores` (seeded), the
person's seat played by a heuristic bot up to the position wanted, then by keys.
"""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.pilot import Pilot
from tui_play import Step, legal, move_a_ship, type_label
from tui_play import play_by_keys as play_steps

from hexlan.engine.core import Phase, Resource
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaPhase,
    sea,
)
from hexlan.net.client import SessionGame
from hexlan.tui.app import HexlanApp
from hexlan.tui.board import COMPACT, MINI, geometry
from hexlan.tui.games.seafarers_gold import GoldDialog
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen
from hexlan.tui.widgets.controls import Counter
from hexlan.tui.widgets.players import PlayersPanel

GAME = "seafarers-new-shores"
SIZES = [pytest.param((80, 24), MINI, id="80x24"), pytest.param((120, 40), COMPACT, id="120x40")]
SEEDS = (0, 2)
"""Seeds whose games reach a pirate's move, a ship to build and a ship to move within about a
hundred turns (the second game is played only for what the first did not bring)."""
GOLD_SEEDS = (2, 4)
"""Seeds whose games, played by bots alone, owe the person gold."""


pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


READY = {
    "pirate": legal(MovePirate),
    "ship": lambda g: g.view.phase is Phase.MAIN and legal(BuildShip)(g),
    "move": legal(MoveShip),
    "gold": legal(ChooseGold),
}
"""When each step of this file may be played."""


async def play_by_keys(
    size: tuple[int, int], layout: object, steps: dict[str, Step], seeds: tuple[int, ...] = SEEDS
) -> None:
    """New Shores games, each of ``steps`` played by keys once it is legal."""
    await play_steps(size, layout, steps, READY, GAME, seeds)


async def build_a_ship(pilot: Pilot[int], screen: GameScreen) -> None:
    """b lights the paths a ship may take (exactly the legal ones); typing a label (or, at
    120x40, a click on the path) builds it there, paid with lumber and wool, and the board
    draws it as a ship."""
    game = screen.game
    view = game.view
    spots = {a.path for a in game.legal_actions() if isinstance(a, BuildShip)}
    hand = tuple(view.hands[0])
    ships = list(sea(view).ships[0])
    assert "b" in pilot.app.active_bindings
    await pilot.press("b")
    pick = screen.pick
    assert pick is not None and pick.what == "ship" and set(pick.labels) == spots
    path = max(spots)
    if screen.has_class("-wide"):  # by mouse: a click on the path
        cell = screen.board.cell_of("path", path)
        assert cell is not None
        await pilot.click("#board", offset=(cell.x, cell.y))
        await pilot.pause()
    else:
        await type_label(pilot, screen, path)
    view = game.view
    assert sea(view).ships[0] == [*ships, path] and view.path_owner[path] == 0
    paid = [h - n for h, n in zip(hand, view.hands[0], strict=True)]
    assert paid[Resource.LUMBER] == 1 and paid[Resource.WOOL] == 1 and sum(paid) == 2
    assert screen.pick is None
    cell = screen.board.cell_of("path", path)
    assert cell is not None
    assert screen.board.rendered_lines()[cell.y][cell.x] in ("a", "~", "≀")
    # The players panel counts the ship: every seat's ships left and island bonus points.
    await pilot.pause()
    panel = screen.query_one(PlayersPanel)
    console = Console(width=panel.content_size.width, record=True, color_system=None)
    console.print(panel.render())
    lines = console.export_text().split("\n")
    variant = view.variant
    assert isinstance(variant, Seafarers)
    ships_line = next(line for line in lines if line.startswith("Ships"))
    isles_line = next(line for line in lines if line.startswith(("Isles", "Island bonus")))
    wide = panel.content_size.width >= 38
    for seat in range(4):
        mark = "abcd"[seat]
        left, bonus = variant.ships_left(view, seat), view.variant_vp[seat]
        assert (f" {mark} {left}" if wide else f" {mark}{left}") in ships_line
        assert (f" {mark} {bonus}" if wide else f" {mark}{bonus}") in isles_line
    assert variant.ships_left(view, 0) == 15 - len(sea(view).ships[0])


async def move_the_pirate(pilot: Pilot[int], screen: GameScreen) -> None:
    """A robber's move starts on the land hexes with P offered; P lights the sea hexes (the
    pirate's legal moves), R goes back; typing a sea hex's label moves the pirate there."""
    game = screen.game
    view = game.view
    moves = [a for a in game.legal_actions() if isinstance(a, MovePirate)]
    pick = screen.pick
    assert pick is not None and pick.what == "robber" and pick.mandatory
    assert all(h < view.topology.hex_count for h in pick.labels)
    assert "P" in pilot.app.active_bindings
    await pilot.press("P")
    pick = screen.pick
    assert pick is not None and pick.what == "pirate" and pick.kind == "hex"
    assert set(pick.labels) == {m.hex for m in moves}
    assert all(h >= view.topology.hex_count for h in pick.labels)
    await pilot.press("R")
    assert screen.pick is not None and screen.pick.what == "robber"
    await pilot.press("P")
    assert screen.pick is not None
    before = sea(view).pirate
    target = max(screen.pick.labels)
    await type_label(pilot, screen, target)
    if isinstance(pilot.app.screen, ChoiceDialog):  # two ship owners there: rob the first
        await pilot.press("1")
        await pilot.pause()
    view = game.view
    assert sea(view).pirate == target != before
    assert view.phase is not Phase.MOVE_ROBBER


async def choose_gold(pilot: Pilot[int], screen: GameScreen) -> None:
    """Owed gold, the dialog opens by itself titled "Gold: choose N resources"; Esc looks at
    the board and g opens it again; the counters take exactly N (Enter does nothing before),
    and the cards come from the bank."""
    game = screen.game
    app = pilot.app
    owed = sum(next(a for a in game.legal_actions() if isinstance(a, ChooseGold)).cards)
    dialog = app.screen
    assert isinstance(dialog, GoldDialog)
    noun = "resource" if owed == 1 else "resources"
    assert dialog.title_text == f"Gold: choose {owed} {noun}"
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is screen and "g" in app.active_bindings
    await pilot.press("g")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, GoldDialog)
    hand = tuple(game.view.hands[0])
    await pilot.press("enter")  # nothing chosen yet: refused
    await pilot.pause()
    assert app.screen is dialog and game.view.phase is SeaPhase.GOLD
    for _ in range(owed):  # all on the resource focused first
        await pilot.press("plus")
    focused = app.focused
    assert isinstance(focused, Counter) and focused.value == owed
    resource = list(dialog.query(Counter)).index(focused)
    await pilot.press("enter")
    await pilot.pause()
    assert not isinstance(app.screen, GoldDialog)
    gained = [n - h for h, n in zip(hand, game.view.hands[0], strict=True)]
    assert gained[resource] == owed and sum(gained) == owed


@pytest.mark.parametrize(("size", "layout"), SIZES)
async def test_ships_the_pirate_and_gold_by_keys(size: tuple[int, int], layout: object) -> None:
    """At 80x24 (the mini board beside narrowed panels) and 120x40 (compact): the four
    Seafarers decisions, each by keys, each changing the engine's state as the rules say."""
    await play_by_keys(
        size, layout, {"pirate": move_the_pirate, "ship": build_a_ship, "move": move_a_ship}
    )
    # Gold comes to the person late; in a game of its own, keys played earlier cannot steer
    # the bots' game away from it.
    await play_by_keys(size, layout, {"gold": choose_gold}, GOLD_SEEDS)


async def test_a_set_up_ship_on_a_coastal_path_asks_road_or_ship() -> None:
    """Set-up at 80x24: after a coastal settlement, the paths beside it light up for a road or
    a ship; a coastal path (either may go there) asks which, and 2 places a ship."""
    game = SessionGame(players=4, seed=SEEDS[0], save_log=False, game=GAME)
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        for _ in range(500):
            await pilot.pause()
            if game.human_to_act():
                break
        view = game.view
        topo = view.topology
        assert view.phase is Phase.SETUP_SETTLEMENT and screen.pick is not None
        node = next(  # a free corner on the coast: a path there takes a road or a ship
            n
            for n in sorted(screen.pick.labels)
            if any(topo.path_sea[p] and p < topo.land_path_count for p in topo.node_paths[n])
        )
        await type_label(pilot, screen, node)
        pick = screen.pick
        assert pick is not None and pick.what == "road or ship" and pick.kind == "path"
        both = next(p for p, actions in pick.actions.items() if len(actions) == 2)
        await type_label(pilot, screen, both)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.title_text == "A road or a ship here?"
        await pilot.press("2")
        await pilot.pause()
        assert sea(game.view).ships[0] == [both] and game.view.roads[0] == []


@pytest.mark.parametrize(
    ("game", "players", "panned"),
    [
        ("seafarers-through-the-desert", 4, False),
        # six seats' deck shuffles and proofs take half a minute before the person's turn
        pytest.param("seafarers-through-the-desert-6", 6, True, marks=pytest.mark.slow),
    ],
)
async def test_through_the_desert_at_80x24(game: str, players: int, panned: bool) -> None:
    """80x24: Through the Desert's board in mini beside the narrowed side panels, whole (4
    players) or panned round the cursor (the 5-6 player map); the set-up settlement picked by
    arrows and Enter lands on the main island this side of the desert."""
    session = SessionGame(players=players, seed=SEEDS[0], save_log=False, game=game, board="random")
    app = HexlanApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        for _ in range(500):
            await pilot.pause()
            if session.human_to_act():
                break
        board = screen.board
        topo = session.view.topology
        assert board.board_layout is MINI and board.is_panned is panned
        if not panned:
            geo = geometry(MINI, topo)
            assert geo.width <= board.size.width and geo.height <= board.size.height
        assert screen.pick is not None and screen.pick.kind == "node"
        board.focus()
        for _ in range(6):
            await pilot.press("right")
        node = board.cursor_target()
        cell = board.cell_of("node", node)
        assert cell is not None and 0 <= cell.x < board.size.width
        await pilot.press("enter")
        await pilot.pause()
        assert session.view.settlements[0] == [node]
        assert topo.node_island[node] == 0  # the main island's region
