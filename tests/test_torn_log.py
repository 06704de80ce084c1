"""Files that are not what they should be (issue 11): a real game log cut by a power cut inside
its last record resumes from its last whole record and loses nothing that was whole, and
`hexlan verify` on 100 MB of junk exits 2 with a one-line reason without reading it all.

How long verify takes on the junk is printed by ``scripts/fuzz.py --junk-mb 100``, never
asserted here (../shared/ARCHITECTURE.md).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from bot_games import play_to_end, write_log

from hexlan.net.inproc import InProcessTable, SeatKeys
from hexlan.net.log import LOG_MAGIC, SeatSecrets, read_log, save_secrets, secrets_path
from hexlan.net.peer import Peer, identity_path_for

SEED = 5
NAMES = ("Ann", "Bob")
WHOLE = 300
"""Messages of seat 0's log that are whole; the next one is torn."""


@pytest.fixture(scope="module")
def table() -> InProcessTable:
    return play_to_end(NAMES, SEED, range(len(NAMES)))


def seat_files(directory: Path, table: InProcessTable, messages: list[bytes]) -> Path:
    """Seat 0's log holding ``messages``, with its secrets and identity beside it."""
    keys = SeatKeys.seeded(SEED, 0)
    path = write_log(directory / "ann.hexlan", table.opening.to_payload(), messages)
    save_secrets(
        secrets_path(path),
        SeatSecrets(table.opening.game_id, 0, keys.chain.secret, keys.game_keys.private_bytes),
    )
    identity_path_for(path).write_bytes(keys.identity.to_pem())
    return path


@pytest.mark.parametrize("keep", [1, 2, 3, 4, 5, 40, -1])
def test_a_log_cut_inside_its_last_record_resumes_from_the_last_whole_one(
    tmp_path: Path, table: InProcessTable, keep: int
) -> None:
    """The last record is cut after ``keep`` bytes (-1: all but its last byte): inside the
    4-byte length, right after it, inside the envelope."""
    whole = table.logs[0][:WHOLE]
    path = seat_files(tmp_path, table, table.logs[0][: WHOLE + 1])
    data = path.read_bytes()
    record_start = _last_record_start(data)
    cut = record_start + (keep if keep > 0 else len(data) - record_start - 1)
    path.write_bytes(data[:cut])
    torn = read_log(path)
    assert torn.torn_tail and torn.messages == whole

    peer = Peer.resume(path)
    try:
        assert peer.log.truncated_bytes == cut - record_start
        accepted = set(peer.session.messages())
        assert all(m in accepted for m in whole)  # nothing whole is lost
        assert peer.session.heads()[1][0] >= 0
    finally:
        peer.close()
    after = read_log(path)
    assert not after.torn_tail
    assert after.messages[:WHOLE] == whole  # then whatever seat 0 still owed, signed anew
    assert f"resumed: cut off a torn last record ({cut - record_start} bytes)" in after.notes
    assert f"resumed after {WHOLE} messages" in after.notes


def _last_record_start(data: bytes) -> int:
    """The byte offset of the last record of a whole log."""
    pos, start = len(LOG_MAGIC), len(LOG_MAGIC)
    while pos < len(data):
        start = pos
        pos += 4 + int.from_bytes(data[pos : pos + 4], "big")
    assert pos == len(data)
    return start


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hexlan", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_verify_on_100_mb_of_junk_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.hexlan"
    block = random.Random(1).randbytes(1 << 20)
    with open(path, "wb") as f:
        for _ in range(100):
            f.write(block)
    result = _verify(path)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{path}: unreadable: not a hexlan log: the file does not start with 'hexlan-log 1'"
    ]
    assert result.stderr == ""


def test_verify_on_junk_after_the_magic_line_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.hexlan"
    path.write_bytes(LOG_MAGIC + random.Random(2).randbytes(4 << 20))
    result = _verify(path)
    assert result.returncode == 2
    [line] = result.stdout.splitlines()
    assert line.startswith(f"{path}: unreadable: record 1 (at byte 13) is corrupt")
