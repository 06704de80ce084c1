"""Whole games between heuristic bots on an in-process table, and their logs on disk, for the
tests that read finished logs (``test_verify``, ``test_stats``).

A plain helper module: pytest puts ``tests/`` on ``sys.path`` (no ``__init__.py``, default import
mode), so the tests import it as ``bot_games``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from hexlan.engine.bots import make_bot
from hexlan.net import verify
from hexlan.net.inproc import InProcessTable
from hexlan.net.log import GameLog
from hexlan.net.verify import VerifyReport, verify_logs


def play_to_end(
    names: Sequence[str], seed: int, bot_seeds: Sequence[int], limit: int = 20_000
) -> InProcessTable:
    """A seeded table whose every seat a heuristic bot (seeded by ``bot_seeds``) plays until the
    game is won and audited."""
    table = InProcessTable(list(names), seed=seed)
    bots = [make_bot("heuristic", random.Random(s)) for s in bot_seeds]
    table.play_bots(bots, limit)
    assert all(s.view is not None and s.view.is_over for s in table.sessions)
    assert all(s.done for s in table.sessions)
    return table


def write_log(path: Path, opening_payload: object, envelopes: Sequence[bytes]) -> Path:
    """A log file holding the opening and ``envelopes``, as a peer writes it."""
    with GameLog.create(path, opening_payload) as log:
        for envelope in envelopes:
            log.append_message(envelope)
    return path


def assert_logs_verify(
    table: InProcessTable, directory: Path, game: str, seats: int | None = None
) -> VerifyReport:
    """Every seat's log of ``table``'s finished game (only the first ``seats`` seats' with
    ``seats``), written to ``directory``, passes `hexlan verify` (:func:`verify_logs`) as a
    ``game`` game whose audit passed; the report."""
    paths = [
        write_log(directory / f"seat{s}.hexlan", table.opening.to_payload(), log)
        for s, log in enumerate(table.logs[:seats])
    ]
    report = verify_logs(paths)
    assert report.exit_code == 0, [r.violations for r in report.logs]
    assert [(r.game, r.audit) for r in report.logs] == [(game, "passed")] * len(paths)
    return report


@contextmanager
def each_log_replayed_once() -> Iterator[None]:
    """While it lasts, `hexlan verify` (:mod:`hexlan.net.verify`, in this process) replays each
    log file once: a file it has replayed before, with the same path and bytes, gets the same
    report again. For tests that verify the same finished logs many ways (plain, ``--stats``,
    ``--json``, on the command line): every log is still replayed for real, once, everything
    after the replay (the cross-log checks, the statistics, the output) runs every time, and a
    file whose bytes changed is replayed afresh."""
    replay = verify._check_log
    done: dict[tuple[str, bytes], object] = {}

    def once(path: Path) -> object:
        try:
            key = (str(path), hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            return replay(path)
        if key not in done:
            done[key] = replay(path)
        return done[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify, "_check_log", once)
        yield
