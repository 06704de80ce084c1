"""The app joining a `hexlan bot` process's table over TCP by address, for the TUI tests that
play against bot processes (``test_tui_net``, ``test_cities_knights_tcp``).

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from hexlan.net.client import NetworkGame
from hexlan.tui.app import NetApp, make_net_app
from hexlan.tui.screens.lobby import JoinScreen, NetOptions

JOIN_STEPS = 600
"""Pauses of 0.05 s the join may take (30 s: the bot process may still be starting)."""


def autoplayed_join(data_dir: Path, port: int) -> NetApp:
    """The app of `hexlan join 127.0.0.1:PORT` for the person "Jo" (identity ``jo.pem``, log
    ``jo.hexlan``, both in ``data_dir``), whose seat a bot plays with no delay."""
    options = NetOptions(
        name="Jo",
        identity_path=data_dir / "jo.pem",
        log_path=data_dir / "jo.hexlan",
        address=f"127.0.0.1:{port}",
    )
    return make_net_app(options, host=False, bot_delay=0, autoplay=True)


async def joined_game(app: NetApp, pilot: Pilot[int]) -> NetworkGame:
    """Wait on ``app``'s join screen until the join leads into the game; the game. Whenever the
    status says the host cannot be reached (its process was not listening yet), Enter in the
    address box tries again. Fails (AssertionError, naming every status seen) after 30 s."""
    lobby = app.screen
    assert isinstance(lobby, JoinScreen)
    seen: list[str] = []
    for _ in range(JOIN_STEPS):
        if hasattr(app, "game"):
            break
        status = str(lobby.query_one("#lobby-status").render())
        seen.append(status)
        if "Cannot reach" in status and not lobby.joining:
            lobby.query_one("#address", Input).focus()
            await pilot.press("enter")
        await pilot.pause(0.05)
    assert hasattr(app, "game"), f"the join never led into the game: {sorted(set(seen))}"
    game = app.game
    assert isinstance(game, NetworkGame)
    return game
