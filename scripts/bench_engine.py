"""Benchmark hexlan's engine against Catanatron: games of four random bots, games per second.

Usage: python scripts/bench_engine.py [--games 200] [--seed 0] [--rounds 5]
                                      [--catanatron-venv DIR ...] [--skip-pypi]
                                      [--skip-catanatron]

hexlan's games run in this process through ``hexlan.simulate.simulate``. Catanatron's run
through ``scripts/catanatron_bench.py`` in a virtual environment that has it installed:

- each ``--catanatron-venv DIR`` (repeatable): a venv the user made, e.g. Catanatron 3.3 built
  from its repository's source (issue 28 compares against 3.3, which is faster than 3.2.1 and
  not on PyPI)::

      python3 -m venv ~/c33 && ~/c33/bin/pip install ./catanatron   # a checkout of the repository

- and, unless ``--skip-pypi``, a throwaway venv under the user's cache directory with
  ``catanatron==3.2.1`` from PyPI (created on first use), reported beside it.

Catanatron is only called, never copied. The engines play **side by side**: the games are split
into ``--rounds`` rounds, and each round plays its share on every engine in turn, so a change in
the machine's load during the run falls on all of them alike. Each engine's time is measured as
wall time and as CPU time of its own process (``time.process_time``), which other work on the
machine disturbs less; the ratios are printed for both. The figures are printed, never asserted:
the target is hexlan playing at least ``TARGET_RATIO`` times as many games per second as
Catanatron 3.3.

Counting differs a little between the engines. Catanatron logs a dice roll, each player's
discard and the robber move with its steal as one action each, and its turn counter also counts
the six seat changes of the four-player setup. Its games stop at 1000 turns without a winner.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

CATANATRON_REQUIREMENT = "catanatron==3.2.1"
TARGET_RATIO = 5.0
SCRIPTS = Path(__file__).resolve().parent


class BenchError(Exception):
    """A step of the benchmark failed; the message says which and why."""


@dataclass(frozen=True)
class Figures:
    """What one engine measured over its games."""

    engine: str
    version: str
    games: int
    seconds: float
    actions: int
    turns: int
    winners: int
    cpu_seconds: float = 0.0
    """CPU time of the engine's process over its games (user + system)."""

    def __add__(self, other: Figures) -> Figures:
        """The figures of both runs of one engine together."""
        return Figures(
            self.engine,
            self.version,
            self.games + other.games,
            self.seconds + other.seconds,
            self.actions + other.actions,
            self.turns + other.turns,
            self.winners + other.winners,
            self.cpu_seconds + other.cpu_seconds,
        )

    @property
    def games_per_cpu_second(self) -> float:
        """Games finished per second of the engine's CPU time."""
        return self.games / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def games_per_second(self) -> float:
        """Games finished per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions applied per second of wall time."""
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def micros_per_action(self) -> float:
        """Mean wall time of one action, in microseconds."""
        return self.seconds / self.actions * 1e6 if self.actions else 0.0


def cache_dir() -> Path:
    """Return this benchmark's folder under the platform's cache directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "hexlan-bench"


def venv_python(venv: Path) -> Path:
    """Return the interpreter of the virtual environment at ``venv``."""
    if sys.platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _run(
    command: list[str], what: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``command``, raising BenchError with its output if it fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    except OSError as error:
        raise BenchError(f"could not {what}: {error}") from error
    if done.returncode != 0:
        output = (done.stderr or done.stdout).strip()
        raise BenchError(f"could not {what} (exit {done.returncode}):\n{output}")
    return done


def ensure_catanatron_venv() -> Path:
    """Create the throwaway Catanatron venv if needed and return its interpreter."""
    venv = cache_dir() / "catanatron-venv"
    python = venv_python(venv)
    if not python.exists():
        print(f"Creating a throwaway venv for Catanatron at {venv}", flush=True)
        _run([sys.executable, "-m", "venv", str(venv)], f"create a venv at {venv}")
    probe = [str(python), "-c", "import catanatron"]
    if subprocess.run(probe, capture_output=True, check=False).returncode != 0:
        print(f"Installing {CATANATRON_REQUIREMENT} into {venv}", flush=True)
        _run(
            [str(python), "-m", "pip", "install", "--quiet", CATANATRON_REQUIREMENT],
            f"install {CATANATRON_REQUIREMENT} into {venv}",
        )
    return python


def bench_catanatron(python: Path, games: int, seed: int) -> Figures:
    """Play Catanatron's games with the interpreter ``python`` (of a venv that has it) and
    return their figures."""
    command = [str(python), str(SCRIPTS / "catanatron_bench.py")]
    command += ["--games", str(games), "--seed", str(seed)]
    # Fixes the order of Catanatron's sets of strings; its games still differ between runs,
    # because on Python 3.11 hash(None) is an address and it lists maritime trades in a set.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = _run(command, f"run scripts/catanatron_bench.py with {python}", env)
    lines = done.stdout.strip().splitlines()
    try:
        data = json.loads(lines[-1])
        return Figures(
            engine="Catanatron",
            version=str(data["version"]),
            games=int(data["games"]),
            seconds=float(data["seconds"]),
            actions=round(data["actions_per_game"] * data["games"]),
            turns=round(data["turns_per_game"] * data["games"]),
            winners=int(data["winners"]),
            cpu_seconds=float(data.get("cpu_seconds", 0.0)),
        )
    except (IndexError, ValueError, KeyError, TypeError) as error:
        raise BenchError(f"unexpected output from catanatron_bench.py: {done.stdout!r}") from error


def bench_hexlan(games: int, seed: int) -> Figures:
    """Play hexlan's games in this process and return their figures."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    from hexlan.simulate import simulate  # noqa: PLC0415 (this process's hexlan, not Catanatron's)

    try:
        hexlan_version = version("hexlan")
    except PackageNotFoundError:
        hexlan_version = "?"
    cpu = time.process_time()
    report = simulate(games=games, players=4, bots=["random"] * 4, seed=seed)
    cpu = time.process_time() - cpu
    results = report.games
    return Figures(
        engine="hexlan",
        version=hexlan_version,
        games=len(results),
        seconds=report.seconds,
        actions=sum(game.actions for game in results),
        turns=sum(game.turns for game in results),
        winners=sum(game.winner is not None for game in results),
        cpu_seconds=cpu,
    )


def side_by_side(
    games: int, seed: int, rounds: int, catanatrons: list[Path], skip_hexlan: bool = False
) -> tuple[list[Figures], list[str]]:
    """Play ``games`` games on hexlan (unless ``skip_hexlan``) and on each Catanatron
    interpreter in ``catanatrons``, in ``rounds`` rounds that each play a share on every engine
    in turn (game seeds ``seed, seed+1, ...`` as the rounds go).

    Returns:
        The figures of each engine that ran (hexlan first), and one line for each engine that
        failed (it is left out of the later rounds).
    """
    shares = [games // rounds + (i < games % rounds) for i in range(rounds)]
    totals: dict[str, Figures] = {}
    failures: list[str] = []
    engines: list[Path | None] = ([] if skip_hexlan else [None]) + list(catanatrons)
    first = seed
    for number, share in enumerate(s for s in shares if s):
        print(f"round {number + 1}/{rounds}: {share} games on each engine", flush=True)
        for engine in list(engines):
            key = "hexlan" if engine is None else str(engine)
            try:
                figures = (
                    bench_hexlan(share, first)
                    if engine is None
                    else bench_catanatron(engine, share, first)
                )
            except BenchError as error:
                failures.append(f"{key}: {error}")
                engines.remove(engine)
                continue
            totals[key] = totals[key] + figures if key in totals else figures
        first += share
    return list(totals.values()), failures


def print_table(rows: list[Figures]) -> None:
    """Print the figures of each engine as one table row."""
    header = (
        f"{'engine':<11} {'version':<8} {'games':>6} {'games/s':>9} {'games/cpu-s':>12} "
        f"{'actions/s':>10} "
        f"{'µs/action':>10} {'turns/game':>11} {'actions/game':>13} {'winners':>8}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in rows:
        per_game = max(row.games, 1)
        print(
            f"{row.engine:<11} {row.version:<8} {row.games:>6} {row.games_per_second:>9.1f} "
            f"{row.games_per_cpu_second:>12.1f} "
            f"{row.actions_per_second:>10.0f} {row.micros_per_action:>10.1f} "
            f"{row.turns / per_game:>11.1f} {row.actions / per_game:>13.1f} {row.winners:>8}"
        )


def _release(version: str) -> tuple[int, ...]:
    """``"3.3.0"`` as (3, 3, 0); a part that is not a number ends it."""
    parts = []
    for part in version.split("."):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds the engines take turns in (default 5)"
    )
    parser.add_argument(
        "--catanatron-venv",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a venv with a Catanatron installed (e.g. 3.3 from its source); repeatable",
    )
    parser.add_argument(
        "--skip-pypi",
        action="store_true",
        help=f"do not compare with {CATANATRON_REQUIREMENT} from PyPI (its throwaway venv)",
    )
    parser.add_argument(
        "--skip-catanatron", action="store_true", help="time hexlan only, with no comparison"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")

    catanatrons: list[Path] = []
    failures: list[str] = []
    if not args.skip_catanatron:
        for venv in args.catanatron_venv:
            python = venv_python(venv)
            if python.exists():
                catanatrons.append(python)
            else:
                failures.append(f"{venv}: no interpreter at {python}")
        if not args.skip_pypi:
            try:
                catanatrons.append(ensure_catanatron_venv())
            except BenchError as error:
                failures.append(f"{CATANATRON_REQUIREMENT}: {error}")
    rows, failed = side_by_side(args.games, args.seed, args.rounds, catanatrons)
    failures += failed
    if rows:
        print_table(rows)
    hexlan = next((row for row in rows if row.engine == "hexlan"), None)
    for other in (row for row in rows if row.engine != "hexlan"):
        if hexlan is None or not other.games_per_second or not other.games_per_cpu_second:
            continue
        wall = hexlan.games_per_second / other.games_per_second
        cpu = hexlan.games_per_cpu_second / other.games_per_cpu_second
        target = f" (target >= {TARGET_RATIO:g}x)" if _release(other.version) >= (3, 3) else ""
        print(
            f"\nhexlan ÷ Catanatron {other.version}, games/s: {wall:.2f}x by wall time, "
            f"{cpu:.2f}x by CPU time{target}"
        )
    for failure in failures:
        print(f"\nerror: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
