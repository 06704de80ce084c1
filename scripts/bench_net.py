"""Benchmark networked bot games: action and dice latency, bytes per turn, wall time.

Usage: python scripts/bench_net.py [--games 3] [--players 2,3,4] [--strategy heuristic]
                                   [--seed 0] [--log-dir DIR] [--json]

How it measures: **one process, one asyncio event loop**, running one :class:`hexlan.net.peer.Peer`
per seat, each with its own TCP listening socket on 127.0.0.1, its own game log (fsynced,
group commit) and a heuristic bot as its policy; messages really cross the loopback TCP mesh
(net/transport.Mesh). Every peer reports events through ``on_event`` with a shared
``time.perf_counter`` clock, so latencies compare timestamps from one clock:

- *action latency*: from the moment a seat signs a decision (its ``signed`` event) until the
  last peer applies it (its ``applied`` event for the same message id), over every decision
  that every peer applied;
- *dice latency*: from RollDice signed until the Dice outcome is applied on every peer (the
  beacon round: every seat's reveal, then the roller's ``advance``);
- *bytes per turn*: frame bytes written to TCP by all peers (each message once per connected
  seat, resends on reconnection not counted), divided by the turns played;
- *wall time*: from the peers' start to the last peer applying the winner's RevealVictory
  (the peers' 1 s linger after the end is not counted), against the same kind of game through
  net/inproc.InProcessTable (all sessions in memory, no sockets, no logs). Games differ (the
  beacon depends on message ids, which depend on timing), so per-turn times are shown too.

Targets (issue): the roll visible on all 4 peers within 50 ms p95; a networked 4-bot game within
3x the in-process time. All seats share one CPU core here (they run on one event loop), so the
in-process comparison is like for like; separate processes would run the seats in parallel.
Figures are printed, never asserted (../shared/ARCHITECTURE.md: scripts/).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexlan.engine import actions as A
from hexlan.engine.bots import make_bot
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.lobby import free_port
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.wire import Opening, SeatInfo

NAMES = ("Ann", "Bob", "Cy", "Di")


@dataclass
class NetGame:
    """One networked game's measurements (seconds and bytes)."""

    players: int
    seconds: float
    turns: int
    messages: int
    bytes_sent: int
    syncs: int
    action_latencies: list[float] = field(default_factory=list)
    dice_latencies: list[float] = field(default_factory=list)
    agreed: bool = True


def loopback_opening(
    seed: int, players: int, ports: Sequence[int] | None = None
) -> tuple[Opening, list[SeatKeys]]:
    """A seeded table whose seats listen on 127.0.0.1 (at ``ports``, else free ports), the same
    in every process that builds it with the same ports (scripts/bench_crypto.py too)."""
    keys = [SeatKeys.seeded(seed, seat) for seat in range(players)]
    base = make_opening(NAMES[:players], keys, created=0)
    seats = tuple(
        SeatInfo(
            s.name,
            s.public_key,
            s.x25519_public,
            s.chain_commitment,
            "" if i == 0 else "127.0.0.1",
            free_port("127.0.0.1") if ports is None else ports[i],
        )
        for i, s in enumerate(base.seats)
    )
    opening = Opening(
        base.protocol_version, base.engine_version, seats, base.options, base.board_kind, 0
    )
    return opening, keys


async def _net_game(seed: int, players: int, strategy: str, log_dir: Path) -> NetGame:
    opening, keys = loopback_opening(seed, players)
    events: list[list[PeerEvent]] = [[] for _ in range(players)]
    peers = []
    for seat in range(players):
        bot = make_bot(strategy, random.Random(seed * 100 + seat))
        path = log_dir / f"g{seed}-{players}p-seat{seat}.log"
        peers.append(
            Peer(
                seat,
                keys[seat].identity,
                opening,
                keys[seat].chain,
                keys[seat].game_keys,
                path,
                bot.choose,
                events[seat].append,
                host_address="127.0.0.1",
                listen_host="127.0.0.1",
                kind=f"bot {strategy}",
                clock=time.perf_counter,
            )
        )
    start = time.perf_counter()
    results = await asyncio.gather(*(peer.run() for peer in peers))
    ends = [
        e.time
        for evs in events
        for e in evs
        if e.kind == "applied" and isinstance(e.action, A.RevealVictory)
    ]
    game = NetGame(
        players=players,
        seconds=(max(ends) if len(ends) == players else time.perf_counter()) - start,
        turns=results[0].turns,
        messages=sum(p.messages_sent for p in peers),
        bytes_sent=sum(p.bytes_sent for p in peers),
        syncs=sum(p.syncs for p in peers),
        agreed=len({(r.winner, r.state_hash) for r in results}) == 1,
    )
    _latencies(events, game)
    return game


def _latencies(events: Sequence[list[PeerEvent]], game: NetGame) -> None:
    signed: dict[bytes, PeerEvent] = {}
    applied: dict[bytes, list[float]] = defaultdict(list)
    rolls: list[float] = []
    dice: list[list[float]] = [[] for _ in events]
    for seat, evs in enumerate(events):
        for e in evs:
            if e.kind == "signed":
                signed[e.message_id] = e
                if isinstance(e.action, A.RollDice):
                    rolls.append(e.time)
            elif e.kind == "applied":
                applied[e.message_id].append(e.time)
                if isinstance(e.action, A.Dice):
                    dice[seat].append(e.time)
    for message_id, event in signed.items():
        times = applied.get(message_id, [])
        if len(times) == len(events):
            game.action_latencies.append(max(times) - event.time)
    rolls.sort()
    for k, rolled in enumerate(rolls):
        if all(k < len(d) for d in dice):
            game.dice_latencies.append(max(d[k] for d in dice) - rolled)


def _inproc_game(seed: int, players: int, strategy: str) -> tuple[float, int]:
    """Seconds and turns of one bot game through the in-process transport."""
    table = InProcessTable(list(NAMES[:players]), seed=seed)
    bots = [make_bot(strategy, random.Random(seed * 100 + seat)) for seat in range(players)]
    start = time.perf_counter()
    table.start()
    sessions = table.sessions
    while not all(s.is_over for s in sessions):
        seat = next(s for s, session in enumerate(sessions) if session.decision_due())
        table.submit(seat, bots[seat].choose(sessions[seat].view, seat))  # type: ignore[arg-type]
    view = sessions[0].view
    assert view is not None
    return time.perf_counter() - start, int(view.turn)


def _sync_cost(log_dir: Path, n: int = 50) -> float:
    """Seconds per append-and-sync, as GameLog.sync does it (fdatasync where available)."""
    sync = getattr(os, "fdatasync", os.fsync)
    path = log_dir / "sync.probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        start = time.perf_counter()
        for _ in range(n):
            os.write(fd, b"x" * 300)
            sync(fd)
        return (time.perf_counter() - start) / n
    finally:
        os.close(fd)
        path.unlink()


def _q(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per table size")
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--strategy", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log-dir", type=Path, default=None, help="where logs go (a temp dir)")
    parser.add_argument("--json", action="store_true", help="one JSON line of figures")
    args = parser.parse_args(argv)
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="hexlan-bench-net-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    sync = _sync_cost(log_dir)
    report: dict[str, Any] = {"sync_ms": round(sync * 1000, 3), "log_dir": str(log_dir)}
    if not args.json:
        print(
            f"one process, one event loop, real TCP on 127.0.0.1; logs in {log_dir} "
            f"(append+sync {sync * 1000:.2f} ms); {args.games} games per size, {args.strategy} bots"
        )
        print(
            f"{'peers':>5} {'action p50/p95 ms':>18} {'dice p50/p95 ms':>16} {'bytes/turn':>10} "
            f"{'net s':>6} {'inproc s':>8} {'ratio':>6} {'net ms/turn':>11} {'inproc ms/turn':>14}"
        )
    for players in (int(p) for p in args.players.split(",")):
        net: list[NetGame] = []
        inproc: list[tuple[float, int]] = []
        for g in range(args.games):
            seed = args.seed + g
            net.append(asyncio.run(_net_game(seed, players, args.strategy, log_dir)))
            inproc.append(_inproc_game(seed, players, args.strategy))
        actions = [x for game in net for x in game.action_latencies]
        dice = [x for game in net for x in game.dice_latencies]
        turns = sum(game.turns for game in net)
        net_seconds = statistics.mean(game.seconds for game in net)
        in_seconds = statistics.mean(s for s, _ in inproc)
        net_per_turn = sum(game.seconds for game in net) / max(1, turns)
        in_per_turn = sum(s for s, _ in inproc) / max(1, sum(t for _, t in inproc))
        row = {
            "peers": players,
            "action_ms_p50": round(_q(actions, 0.5) * 1000, 2),
            "action_ms_p95": round(_q(actions, 0.95) * 1000, 2),
            "dice_ms_p50": round(_q(dice, 0.5) * 1000, 2),
            "dice_ms_p95": round(_q(dice, 0.95) * 1000, 2),
            "bytes_per_turn": round(sum(game.bytes_sent for game in net) / max(1, turns)),
            "messages_per_turn": round(sum(game.messages for game in net) / max(1, turns), 1),
            "fsyncs_per_turn": round(sum(game.syncs for game in net) / max(1, turns), 1),
            "net_seconds": round(net_seconds, 3),
            "inproc_seconds": round(in_seconds, 3),
            "ratio": round(net_seconds / in_seconds, 2),
            "net_ms_per_turn": round(net_per_turn * 1000, 2),
            "inproc_ms_per_turn": round(in_per_turn * 1000, 2),
            "ratio_per_turn": round(net_per_turn / in_per_turn, 2),
            "all_agreed": all(game.agreed for game in net),
        }
        report[f"{players}p"] = row
        if not args.json:
            print(
                f"{players:>5} {row['action_ms_p50']:>8.2f} / {row['action_ms_p95']:<7.2f} "
                f"{row['dice_ms_p50']:>7.2f} / {row['dice_ms_p95']:<6.2f} "
                f"{row['bytes_per_turn']:>10} {net_seconds:>6.2f} {in_seconds:>8.2f} "
                f"{row['ratio']:>6.2f} {row['net_ms_per_turn']:>11.2f} "
                f"{row['inproc_ms_per_turn']:>14.2f}"
                + ("" if row["all_agreed"] else "  (peers disagreed!)")
            )
    if args.json:
        print(json.dumps(report))
    else:
        print(
            "ratio: networked / in-process wall time of a whole game (means); per turn: the same "
            "normalised by turns played (games differ in length)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
