"""Bot games through a faulty network: delay and jitter, stalls, dropped links, reordering.

Usage: python scripts/faultnet.py [--games 3] [--players 4] [--jitter-ms 50-300]
                                  [--drop-every 20] [--stall-every 30] [--stall-s 1-4]
                                  [--seed 0] [--parallel 1] [--log-dir DIR] [--json]

How it is wired: every seat is a real ``hexlan bot`` process on 127.0.0.1 (the first hosts the
table, the others join it; the lobby is not proxied). For each ordered pair of processes (a, b)
this script runs an asyncio TCP proxy listener that forwards to b's real game port, and starts
process a with ``--route PORT_b=127.0.0.1:PROXY_ab``, so every mesh link a dials (docs/PROTOCOL.md §8: a
seat dials every higher seat) runs through a proxy of its own; the opening still carries the
real ports. Each proxied connection is two byte pumps, one per direction, and each pump:

- delays every chunk it reads by a uniform random time in ``--jitter-ms`` (order within the
  direction kept, as TCP would: a chunk never overtakes the one before it); links draw their
  delays independently, so messages reorder *across* links;
- is stalled now and then (``--stall-every``: mean seconds between stalls over the whole game,
  exponential; each holds one random direction of one open link for ``--stall-s`` seconds).

And ``--drop-every`` (mean seconds between drops over the whole game, exponential) aborts one
random open link, both sides at once; the dialling seat redials it (backoff 0.2 s to 2 s) and the
two seats resend what the other lacks.

After each game the script reads every bot's JSON last line and runs ``hexlan verify --json`` on
the game's logs; it prints per game: finished (every seat saw a winner), agreed (same winner and
final state hash everywhere), verified (every log valid and finished), audited (every log's
end-of-game audit passed and signed by every seat), plus turns, wall seconds and the faults
injected. With ``--json`` the last line is one JSON object: games, finished, agreed, verified,
audited, wall_seconds (and per-game details). Figures are printed, never asserted.
``random`` drives the faults (not fairness: the game's own chance is the protocol's beacon).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from botprocs import last_json

HEXLAN = [sys.executable, "-m", "hexlan"]
READ_CHUNK = 64 * 1024
TABLE_OPEN = "table open on port"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (for a bot's game port)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def span(text: str) -> tuple[float, float]:
    """``"50-300"`` (or ``"100"``) as ``(low, high)``."""
    low, _, high = text.partition("-")
    a, b = float(low), float(high or low)
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH with 0 <= LOW <= HIGH, not {text!r}")
    return a, b


@dataclass
class Faults:
    """What the proxies did during one game."""

    connections: int = 0
    drops: int = 0
    stalls: int = 0
    chunks: int = 0
    bytes: int = 0


class Pump:
    """One direction of a proxied connection: read chunks, release each after its delay."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        jitter: tuple[float, float],
        rng: random.Random,
        faults: Faults,
    ) -> None:
        self.reader, self.writer = reader, writer
        self.jitter, self.rng, self.faults = jitter, rng, faults
        self.queue: deque[tuple[float, bytes]] = deque()
        self.ready = asyncio.Event()
        self.stalled_until = 0.0
        self.eof = False
        self.dead = False
        """The link was dropped: what is queued is lost, as on a reset connection."""

    async def read(self) -> None:
        """Read until EOF, stamping each chunk with its release time (never before the last)."""
        loop = asyncio.get_running_loop()
        last = 0.0
        try:
            while data := await self.reader.read(READ_CHUNK):
                delay = self.rng.uniform(*self.jitter) / 1000
                last = max(last, loop.time() + delay)
                self.queue.append((last, data))
                self.faults.chunks += 1
                self.faults.bytes += len(data)
                self.ready.set()
        except OSError:
            pass
        self.eof = True
        self.ready.set()

    async def write(self) -> None:
        """Write each chunk at its release time, or after a stall of this direction ends; at
        EOF, half-close the other side."""
        loop = asyncio.get_running_loop()
        while not self.dead:
            while not self.queue:
                if self.dead:
                    return
                if self.eof:
                    with contextlib.suppress(OSError, RuntimeError):
                        if self.writer.can_write_eof():
                            self.writer.write_eof()
                    return
                self.ready.clear()
                await self.ready.wait()
            due, data = self.queue[0]
            wait = max(due, self.stalled_until) - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # a stall may have begun meanwhile
            if self.dead:
                return
            self.queue.popleft()
            self.writer.write(data)
            await self.writer.drain()


class Link:
    """One proxied TCP connection: two pumps, dropped by aborting both sockets."""

    def __init__(
        self,
        client: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        server: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        jitter: tuple[float, float],
        rng: random.Random,
        faults: Faults,
    ) -> None:
        self.writers = (client[1], server[1])
        self.pumps = (
            Pump(client[0], server[1], jitter, rng, faults),
            Pump(server[0], client[1], jitter, rng, faults),
        )

    async def run(self) -> None:
        """Pump both ways until both directions end, or until either socket fails (then the
        link is dropped)."""

        async def guarded(step: Callable[[], Awaitable[None]]) -> None:
            try:
                await step()
            except (OSError, RuntimeError):
                self.drop()

        await asyncio.gather(*(guarded(f) for p in self.pumps for f in (p.read, p.write)))
        self.drop()

    def drop(self) -> None:
        """Abort both sockets (a reset on each side); queued bytes are lost."""
        for pump in self.pumps:
            pump.dead = True
            pump.ready.set()
        for writer in self.writers:
            writer.transport.abort()


class FaultyNet:
    """Proxies for one game, and the fault schedule over their links."""

    def __init__(self, args: argparse.Namespace, rng: random.Random) -> None:
        self.args, self.rng = args, rng
        self.faults = Faults()
        self.links: set[Link] = set()
        self.servers: list[asyncio.Server] = []
        self.tasks: set[asyncio.Task[None]] = set()

    async def proxy(self, target_port: int) -> int:
        """Start a listener forwarding to 127.0.0.1:``target_port``; its port."""

        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                server = await asyncio.open_connection("127.0.0.1", target_port)
            except OSError:  # the seat is not listening (yet, or any more): refuse, it redials
                writer.transport.abort()
                return
            for w in (writer, server[1]):
                with contextlib.suppress(OSError):
                    w.transport.get_extra_info("socket").setsockopt(
                        socket.IPPROTO_TCP, socket.TCP_NODELAY, 1
                    )
            link = Link((reader, writer), server, self.args.jitter_ms, self.rng, self.faults)
            self.faults.connections += 1
            self.links.add(link)
            try:
                await link.run()
            finally:
                self.links.discard(link)

        server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        self.servers.append(server)
        return int(server.sockets[0].getsockname()[1])

    async def chaos(self) -> None:
        """Drop a random link and stall a random direction, at exponential intervals."""
        loop = asyncio.get_running_loop()
        drop_every, stall_every = self.args.drop_every, self.args.stall_every
        next_drop = loop.time() + self.rng.expovariate(1 / drop_every) if drop_every else None
        next_stall = loop.time() + self.rng.expovariate(1 / stall_every) if stall_every else None
        while True:
            await asyncio.sleep(0.05)
            now = loop.time()
            if next_drop is not None and now >= next_drop:
                next_drop = now + self.rng.expovariate(1 / drop_every)
                if self.links:
                    self.rng.choice(sorted(self.links, key=id)).drop()
                    self.faults.drops += 1
            if next_stall is not None and now >= next_stall:
                next_stall = now + self.rng.expovariate(1 / stall_every)
                if self.links:
                    link = self.rng.choice(sorted(self.links, key=id))
                    pump = self.rng.choice(link.pumps)
                    pump.stalled_until = now + self.rng.uniform(*self.args.stall_s)
                    pump.ready.set()
                    self.faults.stalls += 1

    async def close(self) -> None:
        """Stop listening and drop every link."""
        for server in self.servers:
            server.close()
        for link in list(self.links):
            link.drop()


@dataclass
class GameResult:
    """One game's outcome as the bots and `hexlan verify` saw it."""

    game: int
    finished: bool = False
    agreed: bool = False
    verified: bool = False
    audited: bool = False
    winner: int | None = None
    turns: int = 0
    seconds: float = 0.0
    exit_codes: list[int | None] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)


async def _wait_for_text(path: Path, text: str, proc: asyncio.subprocess.Process) -> bool:
    """Wait until ``text`` appears in the file at ``path``; False if ``proc`` ended first."""
    while proc.returncode is None:
        with contextlib.suppress(FileNotFoundError):
            if text in path.read_text(errors="replace"):
                return True
        await asyncio.sleep(0.05)
    return False


async def _proxy_routes(net: FaultyNet, ports: Sequence[int]) -> list[list[str]]:
    """For each seat, the ``--route`` options that send its link to every other seat's game port
    through a proxy of its own."""
    routes: list[list[str]] = [[] for _ in ports]
    for a in range(len(ports)):
        for b, port in enumerate(ports):
            if a != b:
                via = await net.proxy(port)
                routes[a] += ["--route", f"{port}=127.0.0.1:{via}"]
    return routes


@dataclass(frozen=True, slots=True)
class _SeatFiles:
    """One game's files per seat process: its game log, its stdout and its stderr."""

    logs: list[Path]
    outs: list[Path]
    errs: list[Path]

    @classmethod
    def of(cls, log_dir: Path, game: int, players: int) -> _SeatFiles:
        """The files of game ``game``'s seats in ``log_dir`` (``g0-p1.log``, ``.out``, ``.err``)."""
        stem = log_dir / f"g{game}"

        def each(suffix: str) -> list[Path]:
            return [Path(f"{stem}-p{i}.{suffix}") for i in range(players)]

        return cls(each("log"), each("out"), each("err"))


def _bot_command(
    seat: int, ports: Sequence[int], seed: str, args: argparse.Namespace, log: Path
) -> list[str]:
    """The ``hexlan bot`` command of one seat: seat 0 hosts the table on ``ports[0]``, the others
    join it and play on their own port (routes not included)."""
    where = (
        ["--host", "--seats", str(len(ports)), "--port", str(ports[0])]
        if seat == 0
        else ["--join", f"127.0.0.1:{ports[0]}", "--port", str(ports[seat])]
    )
    return [*HEXLAN, "bot", *where, "--seed", seed, "--strategy", args.strategy, "--log", str(log)]


async def _start_bots(
    procs: list[asyncio.subprocess.Process],
    args: argparse.Namespace,
    game: int,
    ports: Sequence[int],
    routes: Sequence[Sequence[str]],
    files: _SeatFiles,
) -> bool:
    """Start every seat's bot process into ``procs`` (the host first, and the others once its
    table is open); False if the host ended without opening it."""
    for i in range(len(ports)):
        seed = str(args.seed * 1000 + game * 10 + i)
        with files.outs[i].open("w") as out, files.errs[i].open("w") as err:
            procs.append(
                await asyncio.create_subprocess_exec(
                    *_bot_command(i, ports, seed, args, files.logs[i]),
                    *routes[i],
                    stdout=out,
                    stderr=err,
                )
            )
        if i == 0 and not await _wait_for_text(files.errs[0], TABLE_OPEN, procs[0]):
            return False
    return True


async def _stop(
    procs: Sequence[asyncio.subprocess.Process], chaos: asyncio.Task[None], net: FaultyNet
) -> None:
    """Kill the bot processes still running, stop the faults and close the proxies."""
    for proc in procs:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    chaos.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await chaos
    await net.close()


def _read_finals(result: GameResult, players: int, files: _SeatFiles) -> None:
    """Fill ``result`` from the bots' last JSON lines: problems of the seats that failed,
    finished, agreed, winner and turns (``result.exit_codes`` already set)."""
    finals = [last_json(path) for path in files.outs[: len(result.exit_codes)]]
    for i, (code, final) in enumerate(zip(result.exit_codes, finals, strict=True)):
        if code != 0 or final is None:
            tail = files.errs[i].read_text(errors="replace").strip().splitlines()[-1:]
            result.problems.append(f"seat process {i} exited {code}: {' '.join(tail)}")
    seen = [f for f in finals if f is not None]
    result.finished = len(seen) == players and all(f["winner"] is not None for f in seen)
    result.agreed = result.finished and len({(f["winner"], f["state_hash"]) for f in seen}) == 1
    if seen:
        result.winner, result.turns = seen[0]["winner"], max(int(f["turns"]) for f in seen)


async def _verify(result: GameResult, players: int, logs: Sequence[Path]) -> None:
    """Run ``hexlan verify --json`` on the game's logs that exist, and fill ``result``'s
    verified, audited and problems from its reports (nothing when no log exists)."""
    present = [str(path) for path in logs if path.exists()]
    if not present:
        return
    verify = await asyncio.create_subprocess_exec(
        *HEXLAN, "verify", "--json", *present, stdout=asyncio.subprocess.PIPE
    )
    verify_out, _ = await verify.communicate()
    try:
        reports = json.loads(verify_out.decode().strip().splitlines()[-1])["logs"]
    except (json.JSONDecodeError, IndexError, KeyError):
        reports = []
        result.problems.append(f"hexlan verify exited {verify.returncode} without JSON")
    full = len(reports) == players
    result.verified = full and all(r["valid"] and r["finished"] for r in reports)
    result.audited = full and all(r["audit"] == "passed" for r in reports)
    for r in reports:
        for v in r["violations"][:3]:
            result.problems.append(f"{Path(r['path']).name}: {v['reason']}")


async def play_game(game: int, args: argparse.Namespace, log_dir: Path) -> GameResult:
    """Play one game of ``args.players`` bot processes through the proxies, then verify it."""
    n = args.players
    net = FaultyNet(args, random.Random(f"{args.seed}/{game}"))
    ports = [free_port() for _ in range(n)]  # ports[0]: the host's table and game port
    routes = await _proxy_routes(net, ports)
    files = _SeatFiles.of(log_dir, game, n)
    procs: list[asyncio.subprocess.Process] = []
    result = GameResult(game)
    chaos = asyncio.get_running_loop().create_task(net.chaos())
    start = time.monotonic()
    try:
        if not await _start_bots(procs, args, game, ports, routes, files):
            result.problems.append("the host did not open its table")
        try:
            async with asyncio.timeout(args.timeout):
                await asyncio.gather(*(p.wait() for p in procs))
        except TimeoutError:
            result.problems.append(f"timed out after {args.timeout:g} s")
    finally:
        result.seconds = time.monotonic() - start
        await _stop(procs, chaos, net)
    result.faults = asdict(net.faults)
    result.exit_codes = [p.returncode for p in procs]
    _read_finals(result, n, files)
    await _verify(result, n, files.logs)
    return result


def _line(r: GameResult) -> str:
    def yes(flag: bool) -> str:
        return "yes" if flag else "NO"

    f = r.faults
    text = (
        f"game {r.game:>3}: finished {yes(r.finished):<3} agreed {yes(r.agreed):<3} "
        f"verified {yes(r.verified):<3} audited {yes(r.audited):<3} winner {r.winner} "
        f"turns {r.turns:>3} {r.seconds:7.1f} s; links {f['connections']}, "
        f"drops {f['drops']}, stalls {f['stalls']}"
    )
    return text + "".join(f"\n    {p}" for p in r.problems)


async def run(args: argparse.Namespace, log_dir: Path) -> list[GameResult]:
    """Play every game, ``args.parallel`` at a time, printing each as it ends (unless JSON)."""
    results: list[GameResult] = []
    gate = asyncio.Semaphore(args.parallel)

    async def one(game: int) -> None:
        async with gate:
            r = await play_game(game, args, log_dir)
        results.append(r)
        if not args.json:
            print(_line(r), flush=True)

    await asyncio.gather(*(one(g) for g in range(args.games)))
    return sorted(results, key=lambda r: r.game)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--jitter-ms", type=span, default=(50.0, 300.0), metavar="LOW-HIGH")
    parser.add_argument(
        "--drop-every", type=float, default=20.0, metavar="S", help="mean s between drops; 0 off"
    )
    parser.add_argument(
        "--stall-every", type=float, default=30.0, metavar="S", help="mean s between stalls; 0 off"
    )
    parser.add_argument("--stall-s", type=span, default=(1.0, 4.0), metavar="LOW-HIGH")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", default="heuristic")
    parser.add_argument("--parallel", type=int, default=1, help="games at once")
    parser.add_argument("--timeout", type=float, default=900.0, help="s per game before giving up")
    parser.add_argument("--log-dir", type=Path, default=None, help="where logs go (a temp dir)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args(argv)
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="hexlan-faultnet-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    if not args.json:
        print(
            f"{args.games} games of {args.players} {args.strategy} bot processes on 127.0.0.1, "
            f"every mesh link through a proxy: jitter {args.jitter_ms[0]:g}-"
            f"{args.jitter_ms[1]:g} ms, a drop every {args.drop_every:g} s, a stall "
            f"({args.stall_s[0]:g}-{args.stall_s[1]:g} s) every {args.stall_every:g} s on "
            f"average; seed {args.seed}; logs in {log_dir}",
            flush=True,
        )
    start = time.monotonic()
    results = asyncio.run(run(args, log_dir))
    wall = time.monotonic() - start
    summary: dict[str, Any] = {
        "games": len(results),
        "finished": sum(r.finished for r in results),
        "agreed": sum(r.agreed for r in results),
        "verified": sum(r.verified for r in results),
        "audited": sum(r.audited for r in results),
        "wall_seconds": round(wall, 1),
        "game_seconds": [round(r.seconds, 1) for r in results],
        "drops": sum(r.faults.get("drops", 0) for r in results),
        "stalls": sum(r.faults.get("stalls", 0) for r in results),
        "log_dir": str(log_dir),
    }
    if args.json:
        summary["details"] = [asdict(r) for r in results]
        print(json.dumps(summary))
    else:
        print(
            f"{summary['games']} games: {summary['finished']} finished, {summary['agreed']} "
            f"agreed, {summary['verified']} verified, {summary['audited']} audited; "
            f"{summary['drops']} drops, {summary['stalls']} stalls; wall {wall:.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
