"""Benchmark hexlan's engine against Catanatron: games of four random bots, games per second.

Usage: python scripts/bench_engine.py [--games 200] [--seed 0] [--skip-catanatron]

hexlan's games run in this process through ``hexlan.simulate.simulate``. Catanatron's run in a
throwaway virtual environment under the user's cache directory (created, with catanatron
installed from PyPI, on first use) through ``scripts/catanatron_bench.py``; Catanatron is only
called, never copied. The figures are printed, never asserted: the target is hexlan playing at
least ``TARGET_RATIO`` times as many games per second as Catanatron.

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
from dataclasses import dataclass
from pathlib import Path

CATANATRON_REQUIREMENT = "catanatron==3.2.1"
TARGET_RATIO = 3.0
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


def bench_catanatron(games: int, seed: int) -> Figures:
    """Play Catanatron's games in its venv and return their figures."""
    python = ensure_catanatron_venv()
    print(f"Playing {games} Catanatron games...", flush=True)
    command = [str(python), str(SCRIPTS / "catanatron_bench.py")]
    command += ["--games", str(games), "--seed", str(seed)]
    # Fixes the order of Catanatron's sets of strings; its games still differ between runs,
    # because on Python 3.11 hash(None) is an address and it lists maritime trades in a set.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = _run(command, "run scripts/catanatron_bench.py", env)
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
    print(f"Playing {games} hexlan games...", flush=True)
    report = simulate(games=games, players=4, bots=["random"] * 4, seed=seed)
    results = report.games
    return Figures(
        engine="hexlan",
        version=hexlan_version,
        games=len(results),
        seconds=report.seconds,
        actions=sum(game.actions for game in results),
        turns=sum(game.turns for game in results),
        winners=sum(game.winner is not None for game in results),
    )


def print_table(rows: list[Figures]) -> None:
    """Print the figures of each engine as one table row."""
    header = (
        f"{'engine':<11} {'version':<8} {'games':>6} {'games/s':>9} {'actions/s':>10} "
        f"{'µs/action':>10} {'turns/game':>11} {'actions/game':>13} {'winners':>8}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in rows:
        per_game = max(row.games, 1)
        print(
            f"{row.engine:<11} {row.version:<8} {row.games:>6} {row.games_per_second:>9.1f} "
            f"{row.actions_per_second:>10.0f} {row.micros_per_action:>10.1f} "
            f"{row.turns / per_game:>11.1f} {row.actions / per_game:>13.1f} {row.winners:>8}"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--skip-catanatron", action="store_true", help="time hexlan only, with no comparison"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    rows: list[Figures] = []
    failures: list[str] = []
    try:
        rows.append(bench_hexlan(args.games, args.seed))
    except BenchError as error:
        failures.append(f"hexlan: {error}")
    if not args.skip_catanatron:
        try:
            rows.append(bench_catanatron(args.games, args.seed))
        except BenchError as error:
            failures.append(f"Catanatron: {error}")

    if rows:
        print_table(rows)
    by_engine = {row.engine: row for row in rows}
    hexlan, catanatron = by_engine.get("hexlan"), by_engine.get("Catanatron")
    if hexlan and catanatron and catanatron.games_per_second:
        ratio = hexlan.games_per_second / catanatron.games_per_second
        verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
        print(
            f"\nhexlan games/s ÷ Catanatron {catanatron.version} games/s = {ratio:.2f}x "
            f"(target >= {TARGET_RATIO:g}x: {verdict})"
        )
    for failure in failures:
        print(f"\nerror: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
