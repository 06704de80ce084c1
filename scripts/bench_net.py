"""Benchmark networked bot games: action and dice latency, bytes per turn, wall time.

Usage: python scripts/bench_net.py [--games 3] [--players 2,3,4,5,6] [--game NAME]
                                   [--processes] [--strategy heuristic] [--seed 0]
                                   [--log-dir DIR] [--json]

Each table size plays its game: ``--game``, else the first game whose rule set takes that many
seats (base for 2-4, five-six for 5-6: its map, its 34-card deck).

How it measures: **one process, one asyncio event loop**, running one :class:`hexlan.net.peer.Peer`
per seat, each with its own TCP listening socket on 127.0.0.1, its own game log (fsynced,
group commit) and a heuristic bot as its policy; messages really cross the loopback TCP mesh
(net/transport.Mesh). With ``--processes`` every seat is **its own process** instead (this
script with ``--child``, started highest seat first, 0.1 s apart), as `hexlan bot` peers run;
each reports its events at the end. Every peer reports events through ``on_event`` with
``time.perf_counter`` (CLOCK_MONOTONIC: one clock for every process on Linux), so latencies
compare timestamps from one clock:

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

Targets (issues): the roll visible on all 4 peers within 50 ms p95, on all 6 peers (five-six, in
six processes) within 50 ms p95; a networked 4-bot game within 3x the in-process time. In one
event loop all seats share one CPU core, so the in-process comparison is like for like; separate
processes run the seats in parallel (as far as the machine's cores allow). Figures are printed
(``--json``: one JSON line), never asserted (../shared/ARCHITECTURE.md: scripts/).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexlan.engine import actions as A
from hexlan.engine.actions import action_to_list
from hexlan.engine.bots import make_bot
from hexlan.engine.registry import action_from_list
from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.lobby import free_port
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.wire import Opening, SeatInfo

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
STAGGER = 0.1
"""Seconds between starting two seat processes (``--processes``)."""
CHILD_TIMEOUT = 900.0
"""Seconds a seat process may take for its game."""


def game_for(players: int) -> str:
    """The first game whose rule set takes ``players`` seats (base for 2-4, five-six for 5-6).

    Raises:
        ValueError: no game takes that many seats.
    """
    for game in CATAN_GAMES:
        rules = load_ruleset(game)
        if rules.min_players <= players <= rules.max_players:
            return game
    raise ValueError(f"no game takes {players} seats")


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
    seed: int, players: int, ports: Sequence[int] | None = None, game: str | None = None
) -> tuple[Opening, list[SeatKeys]]:
    """A seeded table of ``game`` (default :func:`game_for`) whose seats listen on 127.0.0.1
    (at ``ports``, else free ports), the same in every process that builds it with the same
    ports (scripts/bench_crypto.py too)."""
    keys = [SeatKeys.seeded(seed, seat) for seat in range(players)]
    base = make_opening(NAMES[:players], keys, created=0, game=game or game_for(players))
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
        base.protocol_version,
        base.engine_version,
        seats,
        base.options,
        base.board_kind,
        0,
        base.game,
    )
    return opening, keys


def _seat_peer(
    seat: int,
    opening: Opening,
    keys: SeatKeys,
    strategy: str,
    seed: int,
    path: Path,
    on_event: Any,
) -> Peer:
    bot = make_bot(strategy, random.Random(seed * 100 + seat))
    return Peer(
        seat,
        keys.identity,
        opening,
        keys.chain,
        keys.game_keys,
        path,
        bot.choose,
        on_event,
        host_address="127.0.0.1",
        listen_host="127.0.0.1",
        kind=f"bot {strategy}",
        clock=time.perf_counter,
    )


async def _net_game(
    seed: int, players: int, strategy: str, log_dir: Path, game: str | None = None
) -> NetGame:
    opening, keys = loopback_opening(seed, players, game=game)
    events: list[list[PeerEvent]] = [[] for _ in range(players)]
    peers = []
    for seat in range(players):
        path = log_dir / f"g{seed}-{players}p-seat{seat}.log"
        peers.append(
            _seat_peer(seat, opening, keys[seat], strategy, seed, path, events[seat].append)
        )
    start = time.perf_counter()
    results = await asyncio.gather(*(peer.run() for peer in peers))
    net = NetGame(
        players=players,
        seconds=_game_seconds(events, players, start),
        turns=results[0].turns,
        messages=sum(p.messages_sent for p in peers),
        bytes_sent=sum(p.bytes_sent for p in peers),
        syncs=sum(p.syncs for p in peers),
        agreed=len({(r.winner, r.state_hash) for r in results}) == 1,
    )
    _latencies(events, net)
    return net


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


def _event_row(e: PeerEvent) -> list[Any]:
    """A ``signed`` or ``applied`` event as JSON: kind, time, message id, action."""
    action = None if e.action is None else action_to_list(e.action)
    return [e.kind, e.time, e.message_id.hex(), action]


def _child(spec_text: str) -> int:
    """One seat of :func:`_net_game_processes`: play the game, then print its events and
    result as one JSON line."""
    spec = json.loads(spec_text)
    seat, players, seed = spec["seat"], spec["players"], spec["seed"]
    opening, keys = loopback_opening(seed, players, spec["ports"], spec["game"])
    events: list[PeerEvent] = []

    async def run() -> dict[str, Any]:
        peer = _seat_peer(
            seat, opening, keys[seat], spec["strategy"], seed, Path(spec["log"]), events.append
        )
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)  # "go"
        result = await asyncio.wait_for(peer.run(), CHILD_TIMEOUT)
        return {
            "winner": result.winner,
            "state_hash": result.state_hash,
            "turns": result.turns,
            "audit": result.audit,
            "messages": peer.messages_sent,
            "bytes": peer.bytes_sent,
            "syncs": peer.syncs,
        }

    try:
        report = asyncio.run(run())
    except Exception as exc:  # reported to the parent, which stops
        print(json.dumps({"error": f"seat {seat}: {exc!r}"}), flush=True)
        return 1
    report["events"] = [_event_row(e) for e in events if e.kind in ("signed", "applied")]
    print(json.dumps(report), flush=True)
    return 0


def _game_seconds(events: Sequence[Sequence[PeerEvent]], players: int, start: float) -> float:
    """Seconds from ``start`` (a ``time.perf_counter()``) until the last seat applied the
    winner's reveal, or until now if some seat never did."""
    ends = [
        e.time
        for evs in events
        for e in evs
        if e.kind == "applied" and isinstance(e.action, A.RevealVictory)
    ]
    return (max(ends) if len(ends) == players else time.perf_counter()) - start


def run_seat_processes(
    script: str, specs: Sequence[dict[str, Any]], *, stop: bool = False
) -> tuple[list[dict[str, Any]], float]:
    """Run one process per seat (``script --child SPEC``) through the children's protocol: each
    prints "ready" once it has imported everything and built its peer; then each is told "go",
    highest seat first, :data:`STAGGER` apart (a seat dials the higher seats, so they are
    listening), prints one JSON report and (with ``stop``) waits for "stop".

    Returns:
        The reports in seat order, and the ``time.perf_counter()`` of the first "go".

    Raises:
        RuntimeError: a child did not start or reported an error.
    """
    procs: list[subprocess.Popen[str]] = []
    try:
        for spec in specs:
            procs.append(
                subprocess.Popen(
                    [sys.executable, script, "--child", json.dumps(spec)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if line.strip() != "ready":
                raise RuntimeError(f"a seat process did not start: {line!r}")
        start = time.perf_counter()
        for k, proc in enumerate(reversed(procs)):
            if k:
                time.sleep(STAGGER)
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        reports: list[dict[str, Any]] = []
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            report: dict[str, Any] = json.loads(line) if line.strip() else {"error": "no report"}
            if "error" in report:
                raise RuntimeError(f"a seat process failed: {report['error']}")
            reports.append(report)
        if stop:
            for proc in procs:
                assert proc.stdin is not None
                proc.stdin.write("stop\n")
                proc.stdin.flush()
        for proc in procs:
            proc.wait(timeout=30)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return reports, start


def _net_game_processes(
    seed: int, players: int, strategy: str, log_dir: Path, game: str | None = None
) -> NetGame:
    """One game with every seat in its own process (see :func:`_child`)."""
    ports = [free_port("127.0.0.1") for _ in range(players)]
    specs = [
        {
            "seed": seed,
            "players": players,
            "seat": seat,
            "ports": ports,
            "game": game or game_for(players),
            "strategy": strategy,
            "log": str(log_dir / f"g{seed}-{players}p-proc-seat{seat}.log"),
        }
        for seat in range(players)
    ]
    reports, start = run_seat_processes(__file__, specs)
    events = [
        [
            PeerEvent(
                kind,
                "",
                at,
                None if action is None else action_from_list(action),
                message_id=bytes.fromhex(message_id),
            )
            for kind, at, message_id, action in report["events"]
        ]
        for report in reports
    ]
    net = NetGame(
        players=players,
        seconds=_game_seconds(events, players, start),
        turns=reports[0]["turns"],
        messages=sum(r["messages"] for r in reports),
        bytes_sent=sum(r["bytes"] for r in reports),
        syncs=sum(r["syncs"] for r in reports),
        agreed=len({(r["winner"], r["state_hash"]) for r in reports}) == 1
        and all(r["audit"] == "passed" for r in reports),
    )
    _latencies(events, net)
    return net


def _inproc_game(
    seed: int, players: int, strategy: str, game: str | None = None
) -> tuple[float, int]:
    """Seconds and turns of one bot game through the in-process transport."""
    table = InProcessTable(list(NAMES[:players]), seed=seed, game=game or game_for(players))
    bots = [make_bot(strategy, random.Random(seed * 100 + seat)) for seat in range(players)]
    start = time.perf_counter()
    table.play_bots(bots)
    view = table.sessions[0].view
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


def _rounded(value: float, digits: int) -> float | None:
    """``value`` rounded, or None (JSON null) for NaN (no in-process games)."""
    return None if math.isnan(value) else round(value, digits)


def _parser() -> argparse.ArgumentParser:
    """The command line (see the module's usage)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per table size")
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated (2-6)")
    parser.add_argument(
        "--game", default=None, help="the game of every size (default: base 2-4, five-six 5-6)"
    )
    parser.add_argument(
        "--processes", action="store_true", help="one process per seat, not one event loop"
    )
    parser.add_argument(
        "--no-inproc", action="store_true", help="skip the in-process comparison games"
    )
    parser.add_argument("--strategy", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log-dir", type=Path, default=None, help="where logs go (a temp dir)")
    parser.add_argument("--json", action="store_true", help="one JSON line of figures")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser


def _machine(log_dir: Path, sync: float, mode: str) -> dict[str, Any]:
    """The report's figures about the run itself: sync cost, logs, mode, cores and load."""
    return {
        "sync_ms": round(sync * 1000, 3),
        "log_dir": str(log_dir),
        "mode": mode,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else [],
    }


def _print_header(args: argparse.Namespace, log_dir: Path, sync: float, mode: str) -> None:
    """The table's title line and column heads."""
    print(
        f"{mode}, real TCP on 127.0.0.1; logs in {log_dir} (append+sync "
        f"{sync * 1000:.2f} ms); {args.games} games per size, {args.strategy} bots"
    )
    print(
        f"{'peers':>5} {'action p50/p95 ms':>18} {'dice p50/p95 ms':>16} {'bytes/turn':>10} "
        f"{'net s':>6} {'inproc s':>8} {'ratio':>6} {'net ms/turn':>11} {'inproc ms/turn':>14}"
    )


def _play_size(
    args: argparse.Namespace, players: int, game: str, log_dir: Path
) -> tuple[list[NetGame], list[tuple[float, int]]]:
    """``--games`` networked games of one table size, each followed by its in-process twin
    (seconds and turns) unless ``--no-inproc``."""
    net: list[NetGame] = []
    inproc: list[tuple[float, int]] = []
    for g in range(args.games):
        seed = args.seed + g
        if args.processes:
            net.append(_net_game_processes(seed, players, args.strategy, log_dir, game))
        else:
            net.append(asyncio.run(_net_game(seed, players, args.strategy, log_dir, game)))
        if not args.no_inproc:
            inproc.append(_inproc_game(seed, players, args.strategy, game))
    return net, inproc


@dataclass(frozen=True, slots=True)
class _Times:
    """One table size's wall times (seconds, unrounded): per game (means) and per turn; the
    in-process ones NaN when none were played."""

    net_seconds: float
    in_seconds: float
    net_per_turn: float
    in_per_turn: float


def _times(net: Sequence[NetGame], inproc: Sequence[tuple[float, int]]) -> _Times:
    """The wall times of one table size's networked and in-process games."""
    turns = sum(game.turns for game in net)
    return _Times(
        net_seconds=statistics.mean(g.seconds for g in net),
        in_seconds=statistics.mean(s for s, _ in inproc) if inproc else float("nan"),
        net_per_turn=sum(g.seconds for g in net) / max(1, turns),
        in_per_turn=(
            sum(s for s, _ in inproc) / max(1, sum(t for _, t in inproc)) if inproc else math.nan
        ),
    )


def _size_row(players: int, game: str, net: Sequence[NetGame], times: _Times) -> dict[str, Any]:
    """One table size's figures, rounded, as the report's JSON row."""
    actions = [x for game in net for x in game.action_latencies]
    dice = [x for game in net for x in game.dice_latencies]
    turns = sum(game.turns for game in net)
    return {
        "peers": players,
        "game": game,
        "dice_events": len(dice),
        "action_ms_p50": round(_q(actions, 0.5) * 1000, 2),
        "action_ms_p95": round(_q(actions, 0.95) * 1000, 2),
        "dice_ms_p50": round(_q(dice, 0.5) * 1000, 2),
        "dice_ms_p95": round(_q(dice, 0.95) * 1000, 2),
        "bytes_per_turn": round(sum(g.bytes_sent for g in net) / max(1, turns)),
        "messages_per_turn": round(sum(g.messages for g in net) / max(1, turns), 1),
        "fsyncs_per_turn": round(sum(g.syncs for g in net) / max(1, turns), 1),
        "net_seconds": round(times.net_seconds, 3),
        "inproc_seconds": _rounded(times.in_seconds, 3),
        "ratio": _rounded(times.net_seconds / times.in_seconds, 2),
        "net_ms_per_turn": round(times.net_per_turn * 1000, 2),
        "inproc_ms_per_turn": _rounded(times.in_per_turn * 1000, 2),
        "ratio_per_turn": _rounded(times.net_per_turn / times.in_per_turn, 2),
        "all_agreed": all(g.agreed for g in net),
    }


def _size_line(players: int, row: Mapping[str, Any], times: _Times) -> str:
    """One table size's line of the table (wall times unrounded, NaN shown as ``nan``)."""
    return (
        f"{players:>5} {row['action_ms_p50']:>8.2f} / {row['action_ms_p95']:<7.2f} "
        f"{row['dice_ms_p50']:>7.2f} / {row['dice_ms_p95']:<6.2f} "
        f"{row['bytes_per_turn']:>10} {times.net_seconds:>6.2f} {times.in_seconds:>8.2f} "
        f"{times.net_seconds / times.in_seconds:>6.2f} {row['net_ms_per_turn']:>11.2f} "
        f"{times.in_per_turn * 1000:>14.2f}" + ("" if row["all_agreed"] else "  (peers disagreed!)")
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (or, with ``--child``, one seat of a ``--processes`` game)."""
    args = _parser().parse_args(argv)
    if args.child:
        return _child(args.child)
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="hexlan-bench-net-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    sync = _sync_cost(log_dir)
    mode = "one process per seat" if args.processes else "one process, one event loop"
    report = _machine(log_dir, sync, mode)
    if not args.json:
        _print_header(args, log_dir, sync, mode)
    for players in (int(p) for p in args.players.split(",")):
        game = args.game or game_for(players)
        net, inproc = _play_size(args, players, game, log_dir)
        times = _times(net, inproc)
        row = _size_row(players, game, net, times)
        report[f"{players}p"] = row
        if not args.json:
            print(_size_line(players, row, times))
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
