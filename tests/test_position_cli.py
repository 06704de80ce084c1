"""`hexlan position LOG --at N`: a real log of a short bot game, printed as positions that load
with the replay's hashes; bad input gives one line and exit status 2."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bot_games import write_log
from click.testing import CliRunner

from hexlan.cli import main as cli
from hexlan.engine.bots import make_bot
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.position import from_position
from hexlan.net.inproc import InProcessTable
from hexlan.net.replay import Replayer, Timeline, read_timeline

AT = 40
"""A step after the set-up, in the game's first turns."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Seat 0's log of a finished and audited two-bot game (short: 4 points win), and the same
    log cut short (no audit)."""
    table = InProcessTable(["Ann", "Bob"], GameOptions(victory_points=4), seed=5)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in (1, 2)], 20_000)
    assert all(s.done and s.audited is not None for s in table.sessions)
    directory = tmp_path_factory.mktemp("position")
    whole = write_log(directory / "seat0.hexlan", table.opening.to_payload(), table.logs[0])
    cut = write_log(directory / "cut.hexlan", table.opening.to_payload(), table.logs[0][:80])
    return whole, cut


@pytest.fixture(scope="module")
def timeline(logs: tuple[Path, Path]) -> Timeline:
    return read_timeline(logs[0])


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["position", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_full_position_is_the_replays_state(
    logs: tuple[Path, Path], timeline: Timeline
) -> None:
    code, out, _ = _run(str(logs[0]), "--at", str(AT))
    assert code == 0 and out.startswith("hexlan-position 1 base full\n")
    cursor = Replayer(timeline, 0)
    cursor.seek(AT)
    assert cursor.full is not None
    state = from_position(out)
    assert state.full_hash() == cursor.full.full_hash()
    assert state.public_hash() == timeline.steps[AT - 1].state_hash


def test_the_public_and_seat_positions(logs: tuple[Path, Path], timeline: Timeline) -> None:
    cut = read_timeline(logs[1])
    at = len(cut.steps)
    assert cut.resolved is None and at > 10
    code, out, _ = _run(str(logs[1]), "--at", str(at), "--public")  # no audit needed
    assert code == 0 and out.startswith("hexlan-position 1 base public\n")
    view = from_position(out)
    assert isinstance(view, InformationState)
    assert view.public_hash() == timeline.steps[at - 1].state_hash
    code, out, _ = _run(str(logs[0]), "--at", str(AT), "--seat", "1")
    assert code == 0 and out.startswith("hexlan-position 1 base seat 1\n")
    seat = from_position(out)
    assert isinstance(seat, InformationState) and seat.seat == 1
    code, out, _ = _run(str(logs[0]), "--at", "0", "--public")
    assert code == 0 and from_position(out).turn == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "100000"], "is outside 0 .."),
        (["--at", "-1"], "is outside 0 .."),
        (["--at", "3", "--seat", "5", "--public"], "seat 5 is not at this table of 2"),
    ],
)
def test_bad_steps_and_seats(logs: tuple[Path, Path], args: list[str], message: str) -> None:
    code, out, err = _run(str(logs[1]), *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_unaudited_log_has_no_full_position(logs: tuple[Path, Path]) -> None:
    code, _, err = _run(str(logs[1]), "--at", "3")
    assert code == 2 and "no passed audit" in err and "try --public" in err
    code, _, err = _run(str(logs[1]), "--at", "3", "--seat", "0")
    assert code == 2 and "seat 0's position is not known" in err


def test_missing_and_corrupt_files(tmp_path: Path) -> None:
    code, _, err = _run(str(tmp_path / "none.hexlan"), "--at", "1")
    assert code == 2 and "cannot read the file" in err and err.count("\n") == 1
    corrupt = tmp_path / "corrupt.hexlan"
    corrupt.write_bytes(b"\x00garbage, not a log\xff" * 10)
    code, _, err = _run(str(corrupt), "--at", "1")
    assert code == 2 and err.startswith("hexlan position: ") and err.count("\n") == 1
