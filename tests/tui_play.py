"""Playing a game at the table by keys, for the TUI tests of the Seafarers scenarios
(``test_tui_seafarers``, ``test_tui_pirate_islands``) and of Cities & Knights
(``test_tui_cities_knights``, ``test_tui_board_cards``): bots play until a step is legal for the
person, then a fresh game screen plays it by keys.

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence

from textual.pilot import Pilot

from hexlan.engine.bots import make_bot
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.engine.variants.seafarers import MoveShip, sea
from hexlan.net.client import SessionGame
from hexlan.net.wire import board_kinds
from hexlan.tui.app import HexlanApp
from hexlan.tui.board import COMPACT, MINI, geometry
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen

Step = Callable[[Pilot[int], GameScreen], Awaitable[None]]
"""An action played by keys on the game screen (it asserts the engine's state after it)."""

Ready = Callable[[SessionGame], bool]
"""Whether a step may be played now."""


def legal(kind: type) -> Ready:
    """The person may play an action of ``kind`` now."""
    return lambda game: (
        game.human_to_act() and any(isinstance(a, kind) for a in game.legal_actions())
    )


async def play_by_keys(
    size: tuple[int, int],
    layout: object,
    steps: Mapping[str, Step],
    ready: Mapping[str, Ready],
    game_name: str,
    seed: int | Sequence[int],
) -> None:
    """4-player games of ``game_name``: the bots play (the person's seat too) until one of
    ``steps`` is ``ready``; then, on a fresh game screen at ``size``, that step is played by
    keys; and on, until every step has been played once. ``seed``: the game's seed, or several
    seeds, each game played only for the steps the ones before it never reached (bots change,
    and a seed that brought every step once may stop bringing one; the test still fails when
    no game does)."""
    todo = dict(steps)
    for one in (seed,) if isinstance(seed, int) else seed:
        if todo:
            await _play_one(size, layout, todo, ready, game_name, one)
    assert not todo, f"the game never reached {sorted(todo)}"


async def _play_one(
    size: tuple[int, int],
    layout: object,
    todo: dict[str, Step],
    ready: Mapping[str, Ready],
    game_name: str,
    seed: int,
) -> None:
    """:func:`play_by_keys` in one game of seed ``seed``: each step of ``todo`` played leaves
    it."""
    board = board_kinds(game_name)[0]  # the beginner layout where the map has one
    game = SessionGame(players=4, seed=seed, board=board, save_log=False, game=game_name)
    driver = make_bot("heuristic", random.Random(seed))
    for _ in range(20_000):
        if not todo or game.is_over:
            break
        due = next((name for name in todo if ready[name](game)), None)
        if due is None:
            if game.human_to_act():
                game.submit(driver.choose(game.view, 0))
            else:
                game.step()
            continue
        app = HexlanApp(game, bot_delay=3600)  # the bots wait while the screen is checked
        async with app.run_test(size=size) as pilot:
            screen = await table(pilot, size, layout)
            await todo.pop(due)(pilot, screen)
        while game.working:  # the deck's proofs the app started finish before it goes on
            game.wait()


async def table(pilot: Pilot[int], size: tuple[int, int], layout: object) -> GameScreen:
    """The game screen at ``size``, its board in ``layout`` (the whole map on screen)."""
    app = pilot.app
    assert isinstance(app, HexlanApp)
    await pilot.pause()
    screen = app.game_screen
    board = screen.board
    assert board.board_layout is layout
    geo = geometry(MINI if layout is MINI else COMPACT, app.game.view.board.topology)
    assert geo.width <= board.size.width and geo.height <= board.size.height
    return screen


async def type_label(pilot: Pilot[int], screen: GameScreen, target: int) -> None:
    """Type the label the pick shows on ``target``."""
    assert screen.pick is not None
    await pilot.press(*screen.pick.labels[target])
    await pilot.pause()


async def pick_card(pilot: Pilot[int], play: PlayProgress) -> None:
    """``l`` lists the person's progress cards; the card ``play`` plays is picked by its number
    (it is not marked "(not now)"). What the card asks next is the caller's."""
    await pilot.press("l")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text == "Your progress cards"
    index = next(i for i, (_, card) in enumerate(dialog.choices) if card == (play.track, play.face))
    assert "(not now)" not in str(dialog.choices[index][0])
    await pilot.press(str(index + 1))
    await pilot.pause()


async def move_a_ship(pilot: Pilot[int], screen: GameScreen) -> None:
    """n lights the ships that may move; Enter takes the one under the cursor, then only its
    legal new places light up; typing one moves it (once a turn)."""
    game = screen.game
    moves = [a for a in game.legal_actions() if isinstance(a, MoveShip)]
    await pilot.press("n")
    pick = screen.pick
    assert pick is not None and pick.what == "ship to move"
    assert set(pick.labels) == {m.source for m in moves}
    source = screen.board.cursor_target()
    assert source is not None
    await pilot.press("enter")
    await pilot.pause()
    pick = screen.pick
    assert pick is not None and pick.what == "ship target" and pick.source == source
    assert set(pick.labels) == {m.target for m in moves if m.source == source}
    target = min(pick.labels)
    await type_label(pilot, screen, target)
    view = game.view
    assert source not in sea(view).ships[0] and target in sea(view).ships[0]
    assert sea(view).ship_moved and not legal(MoveShip)(game)
    assert not screen.check_action("game", ("move_ship",))
