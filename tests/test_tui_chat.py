"""The table chat on the network game screen at 80x24 (docs/PROTOCOL.md §18): the person hosts
from the TUI, two `hexlan bot` processes join over TCP and each says a line with Rich markup
and an escape sequence; ``/`` opens the chat, which shows their lines defused in their seats'
colours, takes the person's typing (not the game's keys) and says it to every seat; Escape
closes it and the game's keys work again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_tui_net import type_first_label, wait_for
from textual.widgets import Input, RichLog

from hexlan.net.chat import parse_chat, safe_text
from hexlan.net.client import NetworkGame
from hexlan.net.log import read_log
from hexlan.net.wire import Opening
from hexlan.tui.app import NetApp, make_net_app
from hexlan.tui.palette import seat_style
from hexlan.tui.screens.chat import ChatDialog, chat_line
from hexlan.tui.screens.lobby import NetOptions

SMALL = (80, 24)
HOSTILE = "[bold]gg[/bold]\x1b[2J\u202e!"

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
