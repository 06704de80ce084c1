"""The table chat on the network game screen at 80x24 (docs/PROTOCOL.md §18): the person hosts
from the TUI, two `hexlan bot` processes join over TCP and each says a line with Rich markup
and an escape sequence; ``/`` opens the chat, which shows their lines defused in their seats'
colours, takes the person's typing (not the game's keys) and says it to every seat; Escape
closes it and the game's keys work again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from latin_scan import latin_words
from test_peer import assert_agreement, finish
from test_tui_net import type_first_label, wait_for
from test_watch import join_table, open_table
from textual.pilot import Pilot
from textual.widgets import Input, Label, RichLog, Static

from hexlan.engine.options import GameOptions
from hexlan.i18n import set_language
from hexlan.net.chat import parse_chat, safe_text
from hexlan.net.client import NetworkGame, SessionGame
from hexlan.net.log import read_log
from hexlan.net.wire import Opening
from hexlan.tui.app import HexlanApp, NetApp, WatchApp, make_app, make_net_app
from hexlan.tui.palette import seat_style
from hexlan.tui.screens.chat import ChatDialog, chat_line
from hexlan.tui.screens.game import GameScreen
from hexlan.tui.screens.info import GameOverScreen
from hexlan.tui.screens.lobby import NetOptions
from hexlan.tui.screens.watch import WatchLobbyScreen, WatchScreen

SMALL = (80, 24)
HOSTILE = "[bold]gg[/bold]\x1b[2J\u202e!"
SHORT = GameOptions(victory_points=3)

pytestmark = pytest.mark.usefixtures("data_dir")


def test_chat_line_is_plain_text_in_the_seat_colour() -> None:
    line = chat_line(2, f"Bot 2: {HOSTILE}")
    assert line.plain == f"Bot 2: {safe_text(HOSTILE)}" and "\x1b" not in line.plain
    assert line.style == seat_style(2) and not line.spans  # no markup parsed into spans
    assert chat_line(None, "chat from seat 1 (Bo) refused").style == "dim italic"


@pytest.mark.slow
async def test_the_chat_window_over_a_network_game(data_dir: Path) -> None:
    from ports import free_port

    options = NetOptions(
        name="Ann",
        identity_path=data_dir / "ann.pem",
        log_path=data_dir / "host.hexlan",
        port=free_port(),
        seats=3,
        bots=2,
        announce=False,
        bot_command=[sys.executable, "-m", "hexlan", "bot"],
        bot_args=["--quiet", "--say", HOSTILE],
        bot_delay=0,
    )
    app = make_net_app(options, host=True, bot_delay=0)
    assert isinstance(app, NetApp)
    async with app.run_test(size=SMALL) as pilot:
        assert await wait_for(pilot, lambda: hasattr(app, "game"), 30)
        game = app.game
        assert isinstance(game, NetworkGame)
        screen = app.game_screen
        assert await wait_for(pilot, lambda: game.chat.heard >= 2, 30), game.chat.lines
        assert await wait_for(
            pilot, lambda: screen.pick is not None and screen.pick.kind == "node", 30
        )
        await pilot.press("slash")
        dialog = app.screen
        assert isinstance(dialog, ChatDialog)
        assert isinstance(app.focused, Input)
        await pilot.pause(0.3)
        shown = [strip.text for strip in dialog.query_one(RichLog).lines]
        assert sum(f": {safe_text(HOSTILE)}" in text for text in shown) == 2, shown
        # typing goes to the chat, not to the board's labels
        await pilot.press(*"a[i]hi", "enter")
        assert not game.view.settlements[0]
        assert dialog.query_one(Input).value == ""
        assert await wait_for(pilot, lambda: "Ann: a[i]hi" in [t for _, t in game.chat.lines], 5)
        await pilot.press("escape")
        assert not isinstance(app.screen, ChatDialog)
        # closed, the game's keys are the game's again: place the first settlement by label
        node = await type_first_label(pilot, screen)
        assert node in game.view.settlements[0]
        own = read_log(options.log_path)
        await pilot.press("ctrl+q")
    opening = Opening.from_payload(own.opening)
    keys = {s: info.public_key for s, info in enumerate(opening.seats)}
    lines = [parse_chat(frame, opening.game_id, keys) for frame in own.chats]
    assert sorted((line.author, line.text) for line in lines) == [
        (0, "a[i]hi"),
        (1, HOSTILE),
        (2, HOSTILE),
    ]
    # the person's line reached both bots' logs, signed by seat 0
    bot_logs = sorted(data_dir.rglob(f"{opening.game_id.hex()[:12]}-seat*.log"))
    assert len(bot_logs) == 2, list(data_dir.rglob("*"))
    for path in bot_logs:
        heard = [parse_chat(frame, opening.game_id, keys) for frame in read_log(path).chats]
        assert (0, "a[i]hi") in [(line.author, line.text) for line in heard]


def _dialog_text(dialog: ChatDialog) -> str:
    """Everything the chat window draws: its title, lines, placeholder and hint."""
    parts = [str(w.render()) for w in dialog.query(Label)]
    parts += [str(w.render()) for w in dialog.query(Static)]
    parts.append(str(dialog.query_one(Input).placeholder))
    parts += [strip.text for strip in dialog.query_one(RichLog).lines]
    return "\n".join(parts)


async def _local_game_chat(pilot: Pilot[int], app: HexlanApp) -> tuple[ChatDialog, SessionGame]:
    """``/`` on a local game's screen (waiting for the person) opens the chat; the person
    says a line there."""
    game = app.game
    assert isinstance(game, SessionGame)
    assert await wait_for(pilot, game.human_to_act, 30)
    await pilot.press("slash")
    dialog = app.screen
    assert isinstance(dialog, ChatDialog) and isinstance(app.focused, Input)
    await pilot.press(*"hi all", "enter")
    await pilot.pause(0.3)
    return dialog, game


async def test_a_local_game_has_the_chat_window() -> None:
    """`hexlan play`: ``/`` opens the same chat window over a local table; the person's line
    shows at once (nothing signed or sent); typing goes to the chat, not to the board, and
    Escape gives the game its keys back."""
    app = make_app(3, 5, "beginner", "You", 0, save_log=False, options=SHORT)
    async with app.run_test(size=SMALL) as pilot:
        dialog, game = await _local_game_chat(pilot, app)
        shown = [strip.text for strip in dialog.query_one(RichLog).lines]
        assert shown == ["You: hi all"], shown
        assert dialog.query_one(Input).value == "" and not game.view.settlements[0]
        assert game.chat.lines == [(0, "You: hi all")]
        await pilot.press("escape")
        assert not isinstance(app.screen, ChatDialog)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        node = await type_first_label(pilot, screen)
        assert node in game.view.settlements[0]
        await pilot.press("q")


async def test_the_bots_of_a_local_game_say_good_game_once_it_is_won() -> None:
    app = make_app(3, 5, "beginner", "You", 0, autoplay=True, save_log=False, options=SHORT)
    async with app.run_test(size=SMALL) as pilot:
        game = app.game
        assert isinstance(game, SessionGame)
        assert await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), 120)
        assert game.winner is not None
        assert game.chat.lines == [(1, "Blue: good game"), (2, "Green: good game")]
        await pilot.pause(0.2)
        assert game.chat.heard == 2
        await pilot.press("q")


async def test_the_chat_window_in_russian() -> None:
    set_language("ru")
    app = make_app(2, 5, "beginner", "You", 0, save_log=False, options=SHORT)
    async with app.run_test(size=SMALL) as pilot:
        dialog, game = await _local_game_chat(pilot, app)
        text = _dialog_text(dialog)
        assert "Чат стола" in text and "Enter — сказать столу" in text, text
        assert latin_words(text, allowed={*game.names, "Enter", "Esc", "hi", "all"}) == []
        assert dialog.query_one(".chat-dialog").region.right <= SMALL[0]
        await pilot.press("escape")
        assert chat_line(-1, "Eve: привет").plain == "(зритель) Eve: привет"
        await pilot.press("q")
    farewell = make_app(2, 5, "beginner", "You", 0, autoplay=True, save_log=False, options=SHORT)
    async with farewell.run_test(size=SMALL) as pilot:
        assert await wait_for(pilot, lambda: isinstance(farewell.screen, GameOverScreen), 120)
        game = farewell.game
        assert game.chat.lines == [(1, f"{game.names[1]}: спасибо за игру")]
        await pilot.press("q")


@pytest.mark.slow
async def test_a_spectator_writes_from_the_watch_screen(tmp_path: Path) -> None:
    """The watch screen at 80x24: ``/`` opens the chat; a line typed there goes to the host
    seat (``--spectator-chat``), which relays it to every seat and back to the spectator,
    whose window shows it marked as a spectator's."""
    slow = ("--delay", "0.05")  # so the game outlasts the typing
    port, host, logs = open_table(tmp_path, "--spectator-chat", *slow)
    options = NetOptions(
        name="Eve", identity_path=tmp_path / "eve.pem", address=f"127.0.0.1:{port}"
    )
    app = WatchApp(options)
    joiners: list[subprocess.Popen[str]] = []
    try:
        async with app.run_test(size=SMALL) as pilot:
            assert await wait_for(pilot, lambda: isinstance(app.screen, WatchLobbyScreen), 10)
            await pilot.pause(0.5)
            joiners.extend(join_table(port, logs, *slow))
            assert await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen), 90)
            await pilot.press("slash")
            dialog = app.screen
            assert isinstance(dialog, ChatDialog) and isinstance(app.focused, Input)
            # the line is set, not typed key by key: a watch screen catching up with a game
            # under a loaded machine takes a second a key, and the game would be over
            typed = app.focused
            typed.value = "[b]hi[/b] table"
            await pilot.press("enter")
            wanted = "(spectator) Eve: [b]hi[/b] table"

            def shown() -> list[str]:
                return [strip.text for strip in dialog.query_one(RichLog).lines]

            assert await wait_for(pilot, lambda: wanted in shown(), 15), shown()
            await pilot.press("escape")
            await pilot.press("ctrl+q")
        results = finish([host, *joiners], 90)
    finally:
        for proc in (host, *joiners):
            if proc.poll() is None:
                proc.kill()
    assert_agreement(results)
    for path in logs:
        contents = read_log(path)
        opening = Opening.from_payload(contents.opening)
        keys = {s: info.public_key for s, info in enumerate(opening.seats)}
        lines = [parse_chat(frame, opening.game_id, keys) for frame in contents.chats]
        assert [(ln.spectator and ln.spectator[0], ln.text) for ln in lines] == [
            ("Eve", "[b]hi[/b] table")
        ]
