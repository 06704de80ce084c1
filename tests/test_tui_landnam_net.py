"""Landnám over the LAN in the terminal UI (issue 25): a person hosts a Landnám table from the
TUI (`hexlan host --game landnam`), two `hexlan bot` processes join it over TCP on 127.0.0.1,
and the person plays a short game by keys alone to the game-over screen; the host's log, the
bots' results and the audit agree (logs in a temporary data directory; every wait is on a
condition)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_peer import finish, free_port, start_bot, verify_cli
from test_tui_landnam import _play, _screen, _screen_text, _until

from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import state_spec
from hexlan.net.own_client import OwnNetworkGame
from hexlan.tui.app import make_net_app
from hexlan.tui.games.landnam import LandnamScreen
from hexlan.tui.games.landnam_dialogs import GameOverScreen
from hexlan.tui.screens.lobby import HostScreen, NetOptions

pytestmark = pytest.mark.usefixtures("data_dir")


async def test_a_tui_host_plays_landnam_by_keys_against_joining_bot_processes(
    data_dir: Path,
) -> None:
    """The host's lobby fills with two bot processes, Landnám's table opens over the seat's
    peer (fair: the beacon's chance), the person plays by keys to 2 points, and the host's log
    verifies as a finished game."""
    port = free_port()
    log = data_dir / "host.hexlan"
    options = NetOptions(
        name="Ann",
        identity_path=data_dir / "ann.pem",
        log_path=log,
        port=port,
        seats=3,
        game="landnam",
        announce=False,
        options=GameOptions.parse(("victory_points=2",), spec=state_spec("landnam")),
        bell=False,
        title=False,
    )
    app = make_net_app(options, host=True, bot_delay=0)
    bots = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, HostScreen)
            await _until(
                pilot,
                lambda: "Waiting for 2 more" in str(app.screen.query_one("#lobby-status").render()),
            )
            for name in ("B1", "B2"):
                join = ("--join", f"127.0.0.1:{port}", "--name", name)
                bots.append(start_bot(*join, "--strategy", "heuristic", "--quiet"))
            await _until(
                pilot,
                lambda: any(isinstance(s, LandnamScreen) for s in app.screen_stack),
                20_000,
            )
            client = _screen(app).client
            assert isinstance(client, OwnNetworkGame) and client.fair
            assert client.names[0] == "Ann" and sorted(client.names[1:]) == ["B1", "B2"]
            pressed = await _play(pilot, app, 3000)
            assert isinstance(app.screen, GameOverScreen)
            await _until(pilot, lambda: "Game over" in _screen_text(app), 2000)  # once drawn
            assert client.view.winners() and {"d", "m"} <= set(pressed)
            texts = [e.text for e in client.events]
            assert any(t.startswith("B1") for t in texts) and any(t.startswith("B2") for t in texts)
            await _until(pilot, lambda: client.session.done, 20_000)
            await pilot.press("ctrl+q")
        results = finish(bots, 30)
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    assert all(code == 0 for code, _, _ in results), results
    verify_cli([log])
