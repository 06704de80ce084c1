"""Seafarers between real processes: four `hexlan bot` processes over the TCP mesh on 127.0.0.1
play The Fog Island (its fog stacks dealt and audited as mental-poker decks, PROTOCOL.md §13.7)
and Pirate Islands (the fortress die from the beacon) to the end, agree, and pass `hexlan
verify`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_peer import (
    assert_agreement,
    assert_no_equivocation,
    finish,
    free_port,
    start_bot,
    verify_cli,
    wait_until_listening,
)

from hexlan.engine.ruleset import load_ruleset
from hexlan.net.log import read_log
from hexlan.net.wire import Envelope

PROCESS_TIMEOUT = 600.0
"""Seconds a bot process may take (a game takes about one minute on two busy cores)."""


@pytest.mark.slow
@pytest.mark.parametrize("game", ["seafarers-fog-island", "seafarers-pirate-islands"])
def test_four_bot_processes_play_a_seafarers_game_over_tcp_and_agree(
    game: str, tmp_path: Path
) -> None:
    """One `hexlan bot --host --seats 4 --game GAME` and three joiners finish one game: the same
    game id, winner and state hash, every deck of the rule set shuffled by all four and the
    audit passed on every peer, and `hexlan verify` exits 0 on all four logs."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(4)]
    host = ["--host", "--seats", "4", "--game", game, "--port", str(port)]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    for i in range(1, 4):
        join = ["--join", f"127.0.0.1:{port}", "--seed", str(i), "--log", str(logs[i])]
        procs.append(start_bot(*join, "--quiet"))
    finals = assert_agreement(finish(procs, PROCESS_TIMEOUT))
    assert [f["audit"] for f in finals] == ["passed"] * 4
    assert_no_equivocation(logs)
    decks = list(load_ruleset(game).decks)
    for path in logs:
        contents = read_log(path)
        assert contents.opening[6] == game
        bodies = [Envelope.parse(m).body for m in contents.messages]
        shuffled = Counter(b.payload[0] for b in bodies if b.kind == "shuffle")
        assert shuffled == dict.fromkeys(decks, 4)  # the fog stacks too, on The Fog Island
    run = verify_cli(logs, timeout=PROCESS_TIMEOUT)
    assert run.stdout.count(f"audit passed and signed by every seat, {game} game") == 4
