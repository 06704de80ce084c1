"""How far behind the table a spectator sees the game (`hexlan watch`, PROTOCOL.md §17).

The host seat runs in this process (a heuristic bot's :class:`~hexlan.net.peer.Peer`), three
`hexlan bot` processes join it on 127.0.0.1, and a :class:`~hexlan.net.watch.Spectator` in this
process follows the host. Both apply the same actions in the same order, so the i-th action's
lag is the spectator's clock minus the host's when each applied it (one monotonic clock). When
the host has applied ``--late-at`` actions a second spectator joins from nothing, and the
script times how long it takes to reach the host's count then (a restarted spectator's
catch-up). The watch screen adds at most its redraw interval (0.1 s) to the lag.

    python scripts/bench_watch.py [--delay S] [--late-at N] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hexlan.engine.bots import make_bot
from hexlan.net.beacon import HashChain
from hexlan.net.identity import GameKeys, Identity
from hexlan.net.lobby import host_table
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.watch import Spectator, WatchEvent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def bench(delay: float, late_at: int, workdir: Path) -> dict[str, Any]:
    port = free_port()
    host_times: list[float] = []
    watch_times: list[float] = []
    late_times: list[float] = []
    late: dict[str, Any] = {}

    setup_end = 0

    def host_heard(event: PeerEvent) -> None:
        nonlocal setup_end
        if event.kind == "applied":
            host_times.append(time.monotonic())
            if not setup_end and peer.view is not None and peer.view.turn >= 1:
                setup_end = len(host_times)
            if len(host_times) == late_at and not late:
                late["target"] = late_at
                late["start"] = time.monotonic()
                late["task"] = asyncio.get_running_loop().create_task(
                    Spectator(
                        Identity.generate(), "Late", "127.0.0.1", port, on_event=late_heard
                    ).run()
                )

    def watch_heard(event: WatchEvent) -> None:
        if event.kind == "applied":
            watch_times.append(time.monotonic())

    def late_heard(event: WatchEvent) -> None:
        if event.kind == "applied":
            late_times.append(time.monotonic())
            if len(late_times) == late.get("target"):
                late["caught_up"] = time.monotonic() - late["start"]

    identity, chain, keys = Identity.generate(), HashChain.generate(), GameKeys.generate()
    hosting = asyncio.create_task(
        host_table(identity, 4, "Ann", port, game_keys=keys, chain=chain, announce=False)
    )
    await asyncio.sleep(0.3)
    spectator = Spectator(Identity.generate(), "Eve", "127.0.0.1", port, on_event=watch_heard)
    watching = asyncio.create_task(spectator.run())
    joiners = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hexlan",
                "bot",
                "--join",
                f"127.0.0.1:{port}",
                "--quiet",
                "--delay",
                str(delay),
                "--seed",
                str(i),
                "--log",
                str(workdir / f"seat{i}.log"),
            ],
            stdout=subprocess.DEVNULL,
        )
        for i in range(1, 4)
    ]
    opening, seat = await hosting
    bot = make_bot("heuristic", random.Random(0))
    peer = Peer(seat, identity, opening, chain, keys, workdir / "seat0.log", bot.choose, host_heard)
    peer.delay = delay
    started = time.monotonic()
    await peer.run()
    game_seconds = time.monotonic() - started
    async with asyncio.timeout(30):
        result = await watching
    if "task" in late:
        late["task"].cancel()
    for proc in joiners:
        proc.wait(timeout=30)
    lags = [w - h for h, w in zip(host_times, watch_times, strict=False)]
    ms = sorted(1000 * lag for lag in lags)
    worst = max(range(len(lags)), key=lags.__getitem__)
    return {
        "actions": len(host_times),
        "spectator_actions": len(watch_times),
        "same_state": result.state_hash == peer.result().state_hash,
        "game_seconds": round(game_seconds, 2),
        "lag_ms_median": round(statistics.median(ms), 1),
        "lag_ms_p95": round(ms[int(0.95 * (len(ms) - 1))], 1),
        "lag_ms_max": round(ms[-1], 1),
        "lag_max_at_action": worst,
        "lag_ms_max_after_set_up": round(1000 * max(lags[setup_end:], default=0.0), 1),
        "late_joiner_actions": late.get("target"),
        "late_joiner_catch_up_s": round(late["caught_up"], 2) if "caught_up" in late else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.0, help="seconds each bot waits")
    parser.add_argument(
        "--late-at", type=int, default=300, help="host actions before a late spectator"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        figures = asyncio.run(bench(args.delay, args.late_at, Path(workdir)))
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['actions']} actions in {figures['game_seconds']} s; the spectator applied "
        f"{figures['spectator_actions']} (same final state: {figures['same_state']})"
    )
    print(
        f"lag behind the host seat: median {figures['lag_ms_median']} ms, p95 "
        f"{figures['lag_ms_p95']} ms, max {figures['lag_ms_max']} ms (at action "
        f"{figures['lag_max_at_action']}; after the set-up {figures['lag_ms_max_after_set_up']} ms)"
    )
    print(
        f"a spectator joining after {figures['late_joiner_actions']} actions caught up in "
        f"{figures['late_joiner_catch_up_s']} s"
    )


if __name__ == "__main__":
    main()
