"""scripts/soak.py end to end (issue 11): one small game of real bot processes on 127.0.0.1
whose seats are killed with SIGKILL and resumed from their logs finishes, agrees, verifies and
passes its audit with no sequence number signed twice, and the script says so in its last
JSON line. The figures of a long soak are printed by the script, never asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scripts_import import load_script

ROOT = Path(__file__).resolve().parents[1]
SOAK = ROOT / "scripts" / "soak.py"


@pytest.mark.slow
def test_one_game_with_kills_and_resumes_passes_every_check(tmp_path: Path) -> None:
    args = ["--games", "1", "--players", "2", "--kills", "1.5", "--seed", "3", "--json"]
    run = subprocess.run(
        [sys.executable, str(SOAK), *args, "--timeout", "150", "--log-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    expected = {"games": 1, "finished": 1, "agreed": 1, "verified": 1, "audited": 1}
    assert {key: summary[key] for key in expected} == expected, run.stderr
    assert summary["equivocations"] == 0
    assert summary["failures"] == []
    assert 1 <= summary["kills"] <= 2, run.stderr  # the first kill lands in the first half
    assert summary["resumes"] == summary["kills"]
    assert summary["wall_seconds"] > 0


def test_the_equivocation_scan_counts_two_bodies_for_one_seq(tmp_path: Path) -> None:
    """The scan the script relies on: the same messages in two logs count nothing; a second
    body signed by seat 1 for one of its sequence numbers counts once."""
    from dataclasses import replace

    from bot_games import write_log

    from hexlan.net.inproc import InProcessTable, SeatKeys
    from hexlan.net.wire import Envelope, sign_body

    count_equivocations = load_script("soak").count_equivocations
    table = InProcessTable(["Ann", "Bob"], seed=4)
    table.start()
    opening, messages = table.opening.to_payload(), table.logs[0]
    same = [write_log(tmp_path / f"seat{i}.log", opening, messages) for i in range(2)]
    assert count_equivocations(same) == (0, [])
    body = next(e.body for e in map(Envelope.parse, messages) if e.body.author == 1 and e.body.seq)
    twin = sign_body(replace(body, prev=bytes(31) + b"\x01"), SeatKeys.seeded(4, 1).identity)
    forked = write_log(tmp_path / "forked.log", opening, [twin.to_bytes()])
    assert count_equivocations([*same, forked]) == (1, [f"seat 1 seq {body.seq}: 2 bodies"])
