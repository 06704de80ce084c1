"""Cities & Knights between real processes (issue 13): three `hexlan bot` processes over the
TCP mesh on 127.0.0.1 finish a game, agree, shuffle and audit the three progress decks, and
`hexlan verify --stats` counts the event die from every log. Three seats: the game allows
three, and they finish sooner than four (tests/test_peer.py's pattern)."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from test_peer import (
    HEXLAN,
    assert_agreement,
    assert_no_equivocation,
    finish,
    free_port,
    start_bot,
    wait_until_listening,
)

from hexlan.engine.ruleset import load_ruleset
from hexlan.net.log import read_log
from hexlan.net.wire import Envelope

GAME = "cities-and-knights"
SEATS = 3
PROCESS_TIMEOUT = 600.0
"""Seconds a bot process may take (a four-seat game took 26 s on two busy cores)."""
EVENT_ROWS = ("ship", "trade gate", "politics gate", "science gate")


@pytest.mark.slow
def test_three_bot_processes_finish_cities_and_knights_over_tcp(tmp_path: Path) -> None:
    """One `hexlan bot --host --seats 3 --game cities-and-knights` and two joiners finish one
    game: the same game id, winner and state hash, the three progress decks each shuffled by
    every seat and the audit passed on every peer; `hexlan verify --stats` exits 0 on the
    three logs and counts the event die once a roll."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(SEATS)]
    host = ["--host", "--seats", str(SEATS), "--game", GAME, "--port", str(port)]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    for i in range(1, SEATS):
        join = ["--join", f"127.0.0.1:{port}", "--seed", str(i), "--log", str(logs[i])]
        procs.append(start_bot(*join, "--quiet"))
    finals = assert_agreement(finish(procs, PROCESS_TIMEOUT))
    assert [f["audit"] for f in finals] == ["passed"] * SEATS
    assert_no_equivocation(logs)
    decks = list(load_ruleset(GAME).decks)
    assert sorted(decks) == ["politics", "science", "trade"]  # no development deck
    for path in logs:
        contents = read_log(path)
        assert contents.opening[6] == GAME
        bodies = [Envelope.parse(m).body for m in contents.messages]
        shuffled = Counter(b.payload[0] for b in bodies if b.kind == "shuffle")
        assert shuffled == dict.fromkeys(decks, SEATS)
        assert Counter(b.author for b in bodies if b.kind == "audit_secrets") == dict.fromkeys(
            range(SEATS), 1
        )
    run = subprocess.run(
        [*HEXLAN, "verify", "--stats", *map(str, logs)],
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count(f"audit passed and signed by every seat, {GAME} game") == SEATS
    assert "fairness over 1 game:" in run.stdout  # the three logs are one game, counted once
    rolls = re.search(r"dice totals \(n = (\d+)\)", run.stdout)
    events = re.search(
        r"event die \(n = (\d+)\):\n.*\n((?:\s+\w[\w ]*\s+\d+\s+[\d.]+\n){4})", run.stdout
    )
    assert rolls is not None and events is not None, run.stdout
    assert int(events[1]) == int(rolls[1]) > 0  # one event die with every roll of the dice
    rows = [re.match(r"\s+(\D+?)\s+(\d+)\s", line) for line in events[2].splitlines()]
    assert [r[1] for r in rows if r] == list(EVENT_ROWS)
    assert sum(int(r[2]) for r in rows if r) == int(events[1])
