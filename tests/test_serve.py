"""`hexlan serve`: the app served to browsers by textual-serve, reached by a real HTTP client.

A real `hexlan serve` process listens on 127.0.0.1 on a free port; aiohttp (a textual-serve
dependency) fetches the page and opens its websocket, which starts a `hexlan play` process whose
screen arrives as terminal output, and whose keys go back as the browser sends them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from ports import free_port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """A `hexlan serve` process serving `hexlan play --players 2 --seed 1`; its port."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}  # the served games' logs
    serve = ["serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, "-m", "hexlan", *serve, "--", "--players", "2", "--seed", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "serve.err").open("wb"),
    )
    try:
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _page(port: int) -> str:
    deadline = time.monotonic() + 30
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(f"http://127.0.0.1:{port}/") as response:
                    assert response.status == 200
                    return await response.text()
            except aiohttp.ClientConnectionError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)


async def _until(ws: aiohttp.ClientWebSocketResponse, needle: bytes, seen: bytearray) -> None:
    """Read the app's output until ``needle`` appears (30 s at most)."""
    deadline = time.monotonic() + 30
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{needle!r} never arrived; got {bytes(seen[-300:])!r}"
        try:
            message = await ws.receive(timeout=left)
        except TimeoutError:
            continue
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += message.data


async def test_a_browser_reaches_the_game_screen(server: int) -> None:
    async with asyncio.timeout(120):
        page = await _page(server)
        assert f'data-session-websocket-url="ws://127.0.0.1:{server}/ws"' in page
        assert "hexlan play" in page
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(f"ws://127.0.0.1:{server}/ws?width=80&height=24") as ws,
        ):
            seen = bytearray()
            await _until(ws, b"Set-up", seen)  # the game screen's status line, by the app
            await ws.send_json(["stdin", "?"])  # a key, as the browser's terminal sends it
            await _until(ws, b"hexlan: help", seen)


def test_serve_checks_the_served_commands_options_first() -> None:
    from click.testing import CliRunner

    from hexlan.cli import main

    result = CliRunner().invoke(main, ["serve", "--", "--bogus"])
    assert result.exit_code == 2
    assert "hexlan play: No such option '--bogus'" in result.output
    result = CliRunner().invoke(main, ["serve", "--", "join", "--seats", "3"])
    assert result.exit_code == 2 and "hexlan join: No such option" in result.output
