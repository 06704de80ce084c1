"""scripts/faultnet.py end to end, and `hexlan bot --route` that it relies on: one small game
of real bot processes on 127.0.0.1 whose mesh links all run through the script's faulty proxies
finishes, agrees and verifies; a malformed ``--route`` is a usage error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from hexlan.cli import _routes

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_one_small_game_through_the_faulty_proxies_finishes_and_verifies(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "faultnet.py"),
            "--games",
            "1",
            "--players",
            "2",
            "--jitter-ms",
            "0-20",
            "--drop-every",
            "4",
            "--stall-every",
            "6",
            "--stall-s",
            "0.2-0.5",
            "--timeout",
            "100",
            "--log-dir",
            str(tmp_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    details = report["details"][0]
    assert {k: report[k] for k in ("games", "finished", "agreed", "verified", "audited")} == {
        "games": 1,
        "finished": 1,
        "agreed": 1,
        "verified": 1,
        "audited": 1,
    }, details["problems"]
    assert details["exit_codes"] == [0, 0]
    # Seat 0 dialled seat 1 through its proxy (--route), not directly.
    assert details["faults"]["connections"] >= 1 and details["faults"]["bytes"] > 0
    assert sorted(p.name for p in tmp_path.glob("g0-p*.log")) == ["g0-p0.log", "g0-p1.log"]


def test_route_values_parse_and_bad_ones_are_usage_errors() -> None:
    assert _routes(("47401=127.0.0.1:50000", "47402=[::1]:50001")) == (
        (47401, "127.0.0.1", 50000),
        (47402, "::1", 50001),
    )
    for bad in ("47401", "x=127.0.0.1:5", "0=127.0.0.1:5", "47401=nowhere"):
        with pytest.raises(click.BadParameter):
            _routes((bad,))
    run = subprocess.run(
        [sys.executable, "-m", "hexlan", "bot", "--host", "--route", "5=x"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert run.returncode == 2 and "'--route'" in run.stderr and "Traceback" not in run.stderr
