"""Soak test: bot games whose peers are killed with SIGKILL at random moments and resumed.

Usage: python scripts/soak.py [--games 10] [--players 2-4] [--kills 2] [--seed 0]
                              [--timeout 300] [--log-dir DIR] [--keep-logs] [--json]

Each game is a table of real processes on 127.0.0.1, as a person would start them: one
``hexlan bot --host`` and ``players - 1`` ``hexlan bot --join``, each with its own log (the
same approach as tests/test_peer.py; stdout and stderr go to files beside the logs, the last
stdout line of a run is its JSON result). Once every seat has its log and secrets (the lobby is
over: a seat killed in the lobby has nothing to resume), the script kills random seats with
SIGKILL and starts ``hexlan resume LOG`` in their place; the log's ``peer: bot heuristic`` note
makes the resumed seat a bot again, and it plays on to the end. A resumed seat may be killed
again.

**Kills.** A game gets ``floor(K)`` kills, plus one with probability ``frac(K)`` (mean ``K``).
Each kill happens when the largest log of the table passes a byte threshold drawn uniformly over
the expected length of a game of that size (the running mean of the games played so far); the
first kill of a game falls in the first half, so every game with kills gets at least one (later
ones can miss a short game: ``kills`` counts those done). The victim is a random seat, and the
moment is one of two kinds, at random:

- *after a write*: the script watches the victim's log and kills it 0 to 2 ms after the file
  grows (between appending a message and syncing, sending or acting on it);
- *any time*: 0 to 50 ms after the threshold is passed, wherever the peer is.

The resume starts 0 to 300 ms after the kill. No kill happens once a seat's process has ended
(the game is over for it: a seat resumed after every other seat has left has no one to catch up
from).

**Checks**, per game: *finished* (every seat's last run exited 0 with a winner), *agreed* (one
game id, winner and final state hash across the seats), *verified* (``hexlan verify --json`` on
the table's logs exits 0), *audited* (every log's audit "passed" in that report and every seat's
JSON line says the audit passed) and *equivocations*: every log is scanned (its messages and its
equivocation records) and each ``(author, seq)`` must have one body across all the table's logs;
every other one counts.

The last line with ``--json`` is one JSON object: games, finished, agreed, verified, audited,
equivocations, kills, resumes, wall_seconds, seconds_per_game, failures (and the log directory).
Logs of a game that passed every check are deleted unless ``--keep-logs``; a failing game's are
kept and named in ``failures``. Figures are printed, never asserted (../shared/ARCHITECTURE.md:
scripts/).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from botprocs import last_json

from hexlan.net.log import LogFormatError, read_log, secrets_path
from hexlan.net.wire import Envelope, ProtocolError

HEXLAN = [sys.executable, "-m", "hexlan"]
EXPECTED_BYTES = {2: 250_000, 3: 700_000, 4: 1_000_000}
"""A first guess at the size of one seat's log at the end of a game, by table size. Two seats:
below the 430 KB such a game writes with protocol version 4, so that the first kill comes early
in a game that now lasts about 3 s (drawn over the first half of the true size, it once came
when the seats had already ended on their own, and the game had no kill)."""
POLL = 0.005
"""Seconds between looks at the table."""
AFTER_WRITE_WAIT = 2.0
"""Seconds an after-a-write kill waits for the victim's log to grow before killing anyway."""


@dataclass
class Run:
    """One process of a seat: its first ``hexlan bot`` or a ``hexlan resume``."""

    proc: subprocess.Popen[bytes]
    out: Path
    err: Path
    files: tuple[IO[bytes], IO[bytes]]

    def close_files(self) -> None:
        """Close the stdout and stderr files (the process has ended or was killed)."""
        for handle in self.files:
            handle.close()


@dataclass
class SeatProcs:
    """A seat at the table: its log and every process that played it, the live one last."""

    log: Path
    runs: list[Run] = field(default_factory=list)

    @property
    def live(self) -> Run:
        """The seat's current process."""
        return self.runs[-1]


@dataclass
class GameReport:
    """What one soak game did and which checks it passed."""

    index: int
    players: int
    finished: bool = False
    agreed: bool = False
    verified: bool = False
    audited: bool = False
    equivocations: int = 0
    kills: int = 0
    planned_kills: int = 0
    resumes: int = 0
    seconds: float = 0.0
    log_bytes: int = 0
    kill_notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Every check passed."""
        return (
            self.finished
            and self.agreed
            and self.verified
            and self.audited
            and self.equivocations == 0
        )


def _start(args: Sequence[str], directory: Path, name: str) -> Run:
    out, err = directory / f"{name}.out", directory / f"{name}.err"
    files = (out.open("wb"), err.open("wb"))
    proc = subprocess.Popen([*HEXLAN, *args], stdout=files[0], stderr=files[1])
    return Run(proc, out, err, files)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _tail(path: Path, n: int = 600) -> str:
    return path.read_text(errors="replace")[-n:].strip()


def count_equivocations(logs: Sequence[Path]) -> tuple[int, list[str]]:
    """Sequence numbers signed with two different bodies, across ``logs``.

    Every message of every log and both bodies of every equivocation record count: for each
    ``(author, seq)`` there must be one distinct body. Returns how many ``(author, seq)`` have
    more than one, and a description of each.
    """
    bodies: dict[tuple[int, int], set[bytes]] = {}

    def add(envelope_bytes: bytes) -> None:
        envelope = Envelope.parse(envelope_bytes)
        key = (envelope.body.author, envelope.body.seq)
        bodies.setdefault(key, set()).add(envelope.body_bytes)

    for path in logs:
        contents = read_log(path)
        for message in contents.messages:
            add(message)
        for record in contents.equivocations:
            for envelope_bytes in record.envelopes():
                add(envelope_bytes)
    found = [
        f"seat {author} seq {seq}: {len(seen)} bodies"
        for (author, seq), seen in sorted(bodies.items())
        if len(seen) > 1
    ]
    return len(found), found


class Table:
    """One game of bot processes on 127.0.0.1 and the kills and resumes done to it."""

    def __init__(self, directory: Path, players: int, rng: random.Random) -> None:
        self.directory = directory
        self.players = players
        self.rng = rng
        self.seats = [SeatProcs(directory / f"seat{i}.log") for i in range(players)]
        self.kills = 0
        self.resumes = 0
        self.kill_notes: list[str] = []

    def start(self, deadline: float) -> None:
        """Open the table (the host first, listening) and seat the joiners.

        Raises:
            RuntimeError: the host did not open its table before ``deadline``.
        """
        host = self.seats[0]
        seed = str(self.rng.randrange(2**31))
        args = ["bot", "--host", "--seats", str(self.players), "--port", "0", "--seed", seed]
        host.runs.append(_start([*args, "--board", "random", "--log", str(host.log)], *self._io(0)))
        port = None
        while port is None:
            if time.monotonic() > deadline or host.live.proc.poll() is not None:
                raise RuntimeError(f"the host did not open its table: {_tail(host.live.err)}")
            for line in host.live.err.read_text(errors="replace").splitlines():
                if "table open on port " in line:
                    port = int(line.split("table open on port ")[1].split(",")[0])
            time.sleep(POLL)
        for i, seat in enumerate(self.seats[1:], start=1):
            seed = str(self.rng.randrange(2**31))
            args = ["bot", "--join", f"127.0.0.1:{port}", "--seed", seed, "--log", str(seat.log)]
            seat.runs.append(_start(args, *self._io(i)))

    def _io(self, seat: int) -> tuple[Path, str]:
        return self.directory, f"seat{seat}.run{len(self.seats[seat].runs)}"

    def all_live(self) -> bool:
        """Every seat's current process still runs."""
        return all(seat.live.proc.poll() is None for seat in self.seats)

    def all_done(self) -> bool:
        """Every seat's current process has ended."""
        return all(seat.live.proc.poll() is not None for seat in self.seats)

    def seated(self) -> bool:
        """Every seat has its log and its secrets (the lobby is over for all)."""
        return all(secrets_path(s.log).exists() and _size(s.log) > 0 for s in self.seats)

    def progress(self) -> int:
        """Bytes in the largest log of the table."""
        return max(_size(seat.log) for seat in self.seats)

    def kill_and_resume(self) -> None:
        """SIGKILL a random seat at a random moment and start ``hexlan resume`` in its place."""
        victim = self.rng.randrange(self.players)
        seat = self.seats[victim]
        if self.rng.random() < 0.5:
            how = "after a write"
            start, before = time.monotonic(), _size(seat.log)
            while _size(seat.log) == before and time.monotonic() - start < AFTER_WRITE_WAIT:
                if seat.live.proc.poll() is not None:
                    return  # it ended on its own: the game is over for it
                time.sleep(0)
            time.sleep(self.rng.uniform(0, 0.002))
        else:
            how = "any time"
            time.sleep(self.rng.uniform(0, 0.05))
        if seat.live.proc.poll() is not None:
            return
        seat.live.proc.send_signal(signal.SIGKILL)
        seat.live.proc.wait()
        seat.live.close_files()
        self.kills += 1
        self.kill_notes.append(f"seat {victim} {how} at {_size(seat.log)} bytes")
        time.sleep(self.rng.uniform(0, 0.3))
        seed = str(self.rng.randrange(2**31))
        seat.runs.append(_start(["resume", str(seat.log), "--seed", seed], *self._io(victim)))
        self.resumes += 1

    def stop(self) -> None:
        """Kill whatever still runs (a game past its deadline) and close every file."""
        for seat in self.seats:
            for run in seat.runs:
                if run.proc.poll() is None:
                    run.proc.kill()
                    run.proc.wait()
                if not run.files[0].closed:
                    run.close_files()


def kill_thresholds(rng: random.Random, kills: float, low: int, expected: int) -> list[int]:
    """Byte thresholds of a game's kills (see the module docstring), in order."""
    count = math.floor(kills) + (1 if rng.random() < kills - math.floor(kills) else 0)
    high = max(low + 1, expected)
    marks = [rng.randint(low, high) for _ in range(count)]
    if marks:
        marks[0] = rng.randint(low, max(low + 1, (low + high) // 2))
    return sorted(marks)


def play_game(
    index: int,
    players: int,
    kills: float,
    rng: random.Random,
    directory: Path,
    expected: int,
    timeout: float,
) -> GameReport:
    """Play one soak game in ``directory`` and check it."""
    report = GameReport(index, players)
    table = Table(directory, players, rng)
    started = time.monotonic()
    deadline = started + timeout
    try:
        table.start(deadline)
        while not table.seated():
            if time.monotonic() > deadline or not table.all_live():
                break
            time.sleep(POLL)
        marks = kill_thresholds(rng, kills, table.progress(), expected)
        report.planned_kills = len(marks)
        while not table.all_done():
            if time.monotonic() > deadline:
                report.problems.append(f"not over after {timeout:.0f} s")
                break
            if marks and table.all_live() and table.progress() >= marks[0]:
                marks.pop(0)
                table.kill_and_resume()
            time.sleep(POLL)
    except RuntimeError as exc:
        report.problems.append(str(exc))
    finally:
        table.stop()
    report.seconds = time.monotonic() - started
    report.kills, report.resumes, report.kill_notes = table.kills, table.resumes, table.kill_notes
    report.log_bytes = table.progress()
    check_game(table, report)
    return report


def check_game(table: Table, report: GameReport) -> None:
    """Fill in ``report``'s checks from the table's processes and logs."""
    finals: list[dict[str, Any]] = []
    for i, seat in enumerate(table.seats):
        run = seat.live
        final = last_json(run.out)
        if run.proc.returncode != 0 or final is None:
            report.problems.append(
                f"seat {i} run {len(seat.runs) - 1} exit {run.proc.returncode}: {_tail(run.err)}"
            )
            continue
        finals.append(final)
    if len(finals) == table.players:
        report.finished = all(f["winner"] is not None and f["stopped"] is None for f in finals)
        keys = {(f["game_id"], f["winner"], f["state_hash"]) for f in finals}
        report.agreed = report.finished and len(keys) == 1
        if not report.finished:
            report.problems.append(f"not won: {finals}")
        elif not report.agreed:
            report.problems.append(f"seats disagree: {sorted(keys)}")
    logs = [seat.log for seat in table.seats]
    verify = subprocess.run(
        [*HEXLAN, "verify", "--json", *map(str, logs)],
        capture_output=True,
        text=True,
        check=False,
    )
    report.verified = verify.returncode == 0
    try:
        verdicts = json.loads(verify.stdout.strip().splitlines()[-1])["logs"]
    except (IndexError, KeyError, json.JSONDecodeError):
        verdicts = []
    if not report.verified:
        report.problems.append(f"verify exit {verify.returncode}: {verify.stdout[-1500:]}")
    report.audited = (
        len(verdicts) == table.players
        and all(v.get("audit") == "passed" for v in verdicts)
        and len(finals) == table.players
        and all(f.get("audit") == "passed" for f in finals)
    )
    try:
        report.equivocations, found = count_equivocations(logs)
    except (OSError, LogFormatError, ProtocolError) as exc:
        report.problems.append(f"cannot scan the logs for equivocations: {exc}")
        return
    report.problems.extend(f"equivocation: {e}" for e in found)


def _players(value: str) -> tuple[int, int]:
    low, _, high = value.partition("-")
    bounds = (int(low), int(high or low))
    if not 2 <= bounds[0] <= bounds[1] <= 4:
        raise argparse.ArgumentTypeError(f"table sizes between 2 and 4, not {value!r}")
    return bounds


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak games and print the figures; 0 when every game passed every check."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="how many games")
    parser.add_argument("--players", type=_players, default=(2, 4), help="table size or range")
    parser.add_argument("--kills", type=float, default=2.0, help="SIGKILLs per game (mean)")
    parser.add_argument("--seed", type=int, default=0, help="seed of kill moments and bots")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per game at most")
    parser.add_argument("--log-dir", type=Path, default=None, help="where logs go (a temp dir)")
    parser.add_argument("--keep-logs", action="store_true", help="keep passing games' logs")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of figures")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    root = args.log_dir or Path(tempfile.mkdtemp(prefix="hexlan-soak-"))
    root.mkdir(parents=True, exist_ok=True)
    sizes: dict[int, list[int]] = {}
    reports: list[GameReport] = []
    started = time.monotonic()
    for index in range(args.games):
        players = rng.randint(*args.players)
        seen = sizes.get(players)
        expected = round(sum(seen) / len(seen)) if seen else EXPECTED_BYTES[players]
        directory = root / f"game{index:03d}-{players}p"
        directory.mkdir()
        report = play_game(index, players, args.kills, rng, directory, expected, args.timeout)
        reports.append(report)
        if report.finished:
            sizes.setdefault(players, []).append(report.log_bytes)
        if report.passed and not args.keep_logs:
            shutil.rmtree(directory)
        checks = ", ".join(
            name
            for name, ok in (
                ("finished", report.finished),
                ("agreed", report.agreed),
                ("verified", report.verified),
                ("audited", report.audited),
            )
            if ok
        )
        print(
            f"game {index}: {players} players, {report.kills}/{report.planned_kills} kills, "
            f"{report.resumes} resumes, {report.seconds:.1f} s: {checks or 'no check passed'}"
            f"; {report.equivocations} equivocations"
            + ("" if report.passed else f"  FAILED, logs in {directory}"),
            file=sys.stderr if args.json else sys.stdout,
            flush=True,
        )
        for note in report.kill_notes:
            print(f"  killed {note}", file=sys.stderr if args.json else sys.stdout, flush=True)
        for problem in report.problems:
            print(f"  {problem}", file=sys.stderr, flush=True)
    wall = time.monotonic() - started
    summary: dict[str, Any] = {
        "games": len(reports),
        "finished": sum(r.finished for r in reports),
        "agreed": sum(r.agreed for r in reports),
        "verified": sum(r.verified for r in reports),
        "audited": sum(r.audited for r in reports),
        "equivocations": sum(r.equivocations for r in reports),
        "kills": sum(r.kills for r in reports),
        "resumes": sum(r.resumes for r in reports),
        "wall_seconds": round(wall, 1),
        "seconds_per_game": round(wall / max(1, len(reports)), 1),
        "failures": [r.index for r in reports if not r.passed],
        "log_dir": str(root),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{summary['games']} games in {wall:.0f} s ({summary['seconds_per_game']} s each): "
            f"{summary['finished']} finished, {summary['agreed']} agreed, "
            f"{summary['verified']} verified, {summary['audited']} audited, "
            f"{summary['equivocations']} equivocations; {summary['kills']} kills, "
            f"{summary['resumes']} resumes; logs in {root}"
        )
    if not summary["failures"] and not args.keep_logs and args.log_dir is None:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if not summary["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
