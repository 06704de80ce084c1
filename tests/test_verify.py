"""`hexlan verify` (net/verify.py): a seeded 4-seat bot game played through the real sessions,
its four logs written with net/log.GameLog, then checked as they are, tampered with, cut short,
re-signed with illegal or equivocating messages, and replaced by files that are not logs."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from bot_games import each_log_replayed_once, play_to_end, write_log

from hexlan.engine import actions as A
from hexlan.net.inproc import InProcessTable, SeatKeys
from hexlan.net.log import GameLog
from hexlan.net.verify import (
    EXIT_INVALID,
    EXIT_UNFINISHED,
    EXIT_UNREADABLE,
    EXIT_VALID,
    main,
    verify_logs,
)
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    Body,
    Envelope,
    decode_action,
    encode_action,
    sign_body,
)

SEED = 1
NAMES = ("Ann", "Bob", "Cy", "Di")


@dataclass(frozen=True)
class Game:
    """A finished game: the table, and each seat's log on disk."""

    table: InProcessTable
    paths: tuple[Path, ...]

    @property
    def opening_payload(self) -> object:
        return self.table.opening.to_payload()

    def envelopes(self, seat: int) -> list[bytes]:
        return self.table.logs[seat]


def resign(envelope: bytes, seat: int, **changes: object) -> bytes:
    """The envelope's body with ``changes``, signed with the seat's (seeded) key."""
    body = replace(Envelope.parse(envelope).body, **changes)  # type: ignore[arg-type]
    return sign_body(body, SeatKeys.seeded(SEED, seat).identity).to_bytes()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Game]:
    """The finished game; the module's tests replay each of its four logs once, however many
    times they verify it (a tampered or cut copy is a new file, replayed afresh)."""
    table = play_to_end(NAMES, SEED, range(len(NAMES)))
    directory = tmp_path_factory.mktemp("logs")
    paths = tuple(
        write_log(directory / f"seat{seat}.hexlan", table.opening.to_payload(), table.logs[seat])
        for seat in range(len(NAMES))
    )
    with each_log_replayed_once():
        yield Game(table, paths)


def run(*paths: Path, as_json: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(paths), as_json=as_json, out=out)
    return code, out.getvalue()


def test_every_seats_log_of_a_finished_game_is_valid(game: Game) -> None:
    winner = game.table.sessions[0].view.winner  # type: ignore[union-attr]
    assert winner >= 0
    code, text = run(*game.paths)
    assert code == EXIT_VALID, text
    lines = text.splitlines()
    assert len(lines) == 4
    game_id = game.table.opening.game_id.hex()
    for path, line in zip(game.paths, lines, strict=True):
        assert line == (
            f"{path}: valid, finished, winner seat {winner} ({NAMES[winner]}), "
            f"audit passed and signed by every seat, game {game_id[:8]}…"
        )
    report = verify_logs(game.paths)
    assert all(log.valid and log.finished and log.winner == winner for log in report.logs)
    assert report.exit_code == EXIT_VALID


def test_json_shape(game: Game) -> None:
    code, text = run(game.paths[0], as_json=True)
    assert code == EXIT_VALID
    data = json.loads(text)
    assert list(data) == ["logs"]
    (log,) = data["logs"]
    assert {"path", "game_id", "valid", "finished", "winner", "violations"} <= set(log)
    assert log["path"] == str(game.paths[0])
    assert log["game_id"] == game.table.opening.game_id.hex()
    assert log["valid"] is True and log["finished"] is True
    assert log["winner"] == game.table.sessions[0].view.winner  # type: ignore[union-attr]
    assert log["violations"] == []
    assert log["messages"] == len(game.envelopes(0))


def test_a_changed_signature_byte_is_a_violation_naming_the_message(
    game: Game, tmp_path: Path
) -> None:
    data = game.paths[1].read_bytes()
    index = len(game.envelopes(1)) // 2
    target = game.envelopes(1)[index]
    at = data.index(target) + len(target) - 10  # inside the signature (the last 64 bytes)
    tampered = tmp_path / "tampered.hexlan"
    tampered.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :])
    code, text = run(tampered)
    assert code == EXIT_INVALID, text
    envelope = Envelope.parse(target)
    body = envelope.body
    assert text.splitlines()[0].startswith(f"{tampered}: INVALID, unfinished")
    assert f"    message {index + 1} (seat {body.author}, #{body.seq} {body.kind}, id " in text
    code, text = run(tampered, as_json=True)
    (log,) = json.loads(text)["logs"]
    assert log["valid"] is False and log["finished"] is False
    (violation,) = log["violations"]
    assert violation["message"] == index + 1
    assert violation["message_id"] == envelope.id.hex()
    assert violation["author"] == body.author
    assert "signature" in violation["reason"]


def test_a_signed_illegal_action_stops_the_replay_naming_its_author(
    game: Game, tmp_path: Path
) -> None:
    """The author really signed it (its own key): a rule violation, not a forgery."""
    envelopes = game.envelopes(0)
    index = next(
        i
        for i, e in enumerate(envelopes)
        if (body := Envelope.parse(e).body).kind == "action"
        and body.seq > 20
        and isinstance(decode_action(body.payload), A.EndTurn)
    )
    author = Envelope.parse(envelopes[index]).body.author
    illegal = resign(envelopes[index], author, payload=encode_action(A.BuildCity(0)))
    path = write_log(
        tmp_path / "illegal.hexlan", game.opening_payload, [*envelopes[:index], illegal]
    )
    report = verify_logs([path])
    assert report.exit_code == EXIT_INVALID
    (log,) = report.logs
    (violation,) = log.violations
    assert (violation.message, violation.author, violation.kind) == (index + 1, author, "action")
    assert "BuildCity" in violation.reason


def test_an_unfinished_game_is_valid_so_far(game: Game, tmp_path: Path) -> None:
    """A log cut in the middle of a record (a crash mid-game): exit 3, with a note."""
    data = game.paths[2].read_bytes()
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(data[: len(data) // 2])
    code, text = run(cut)
    assert code == EXIT_UNFINISHED, text
    assert text.startswith(f"{cut}: valid so far, unfinished (turn ")
    assert "note: the file ends inside a record" in text
    (log,) = json.loads(run(cut, as_json=True)[1])["logs"]
    assert log["valid"] is True and log["finished"] is False and log["winner"] is None


def test_files_that_are_not_logs_exit_2(game: Game, tmp_path: Path) -> None:
    text_file = tmp_path / "notes.txt"
    text_file.write_text("hello\n")
    bad_opening = tmp_path / "bad-opening.hexlan"
    write_log(bad_opening, ["not", "an", "opening"], [])
    for path, words in (
        (text_file, "not a hexlan log"),
        (tmp_path / "missing.hexlan", "cannot read the file"),
        (tmp_path, "cannot read the file"),
        (bad_opening, "the opening record is not an opening"),
    ):
        code, text = run(path)
        assert code == EXIT_UNREADABLE, text
        assert text.startswith(f"{path}: unreadable: ") and words in text, text
        assert "Traceback" not in text
    (log,) = json.loads(run(text_file, as_json=True)[1])["logs"]
    assert log["valid"] is False and log["game_id"] is None and log["error"]


def test_a_changed_byte_inside_a_body_breaks_its_signature(game: Game, tmp_path: Path) -> None:
    data = game.paths[1].read_bytes()
    index = len(game.envelopes(1)) // 3
    target = game.envelopes(1)[index]
    for offset in (20, len(target) // 2):  # inside the game id, then somewhere in the body
        at = data.index(target) + offset
        path = tmp_path / f"body{offset}.hexlan"
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :])
        report = verify_logs([path])
        assert report.exit_code == EXIT_INVALID
        (violation,) = report.logs[0].violations
        assert violation.message == index + 1
        assert "signature" in violation.reason or "well-formed" in violation.reason


def test_a_seat_that_signs_another_opening_is_named(game: Game, tmp_path: Path) -> None:
    envelopes = game.envelopes(0)
    index = next(
        i
        for i, e in enumerate(envelopes)
        if (body := Envelope.parse(e).body).kind == "sign_opening" and body.author == 2
    )
    other = list(game.opening_payload)  # type: ignore[call-overload]
    other[5] = 7
    forged = resign(envelopes[index], 2, payload=(tuple(other),))
    path = write_log(tmp_path / "other.hexlan", game.opening_payload, [*envelopes[:index], forged])
    (violation,) = verify_logs([path]).logs[0].violations
    assert (violation.message, violation.author) == (index + 1, 2)
    assert "signed another opening" in violation.reason


def test_an_abandoned_game_exits_3(game: Game, tmp_path: Path) -> None:
    """Abandon messages are checked (signature, game, that the seat they name owes the step
    they name, PROTOCOL.md §11) and end the log as abandoned, saying what the seat owed."""
    from hexlan.net.session import Session

    envelopes = game.envelopes(0)[:400]
    last = {}
    for e in envelopes:
        env = Envelope.parse(e)
        last[env.body.author] = env
    heads = tuple((last[s].body.seq, last[s].id) for s in range(4))
    observer = Session(None, None, game.table.opening, None, None)
    observer.replay(envelopes)
    owed = observer.owed_steps()[0]
    voters = [s for s in range(4) if s != owed.seat]

    def vote(seat: int, step: tuple[str, int]) -> bytes:
        body = Body(
            PROTOCOL_VERSION,
            game.table.opening.game_id,
            seat,
            last[seat].body.seq + 1,
            last[seat].id,
            heads,
            "abandon",
            ((owed.seat,), heads, (step,)),
        )
        return sign_body(body, SeatKeys.seeded(SEED, seat).identity).to_bytes()

    abandons = [vote(seat, (owed.step, owed.number)) for seat in voters]
    path = write_log(tmp_path / "abandoned.hexlan", game.opening_payload, envelopes + abandons)
    code, text = run(path)
    assert code == EXIT_UNFINISHED, text
    signers = ", ".join(map(str, voters))
    assert (
        f"abandoned (signed by seats {signers}: seat {owed.seat} owed its {owed.describe()})"
        in text
    )
    (log,) = json.loads(run(path, as_json=True)[1])["logs"]
    assert log["status"] == "abandoned" and log["abandoned_by"] == voters
    assert log["left_owing"] == {str(owed.seat): owed.describe()}
    # votes naming a step the seat does not owe do not stand: the game is not abandoned
    false = [vote(seat, ("shuffle_proof", -1)) for seat in voters]
    path = write_log(tmp_path / "false.hexlan", game.opening_payload, envelopes + false)
    (log,) = json.loads(run(path, as_json=True)[1])["logs"]
    assert log["status"] == "unfinished" and log["abandoned_by"] == []
    signer = voters[1]
    forged = resign(abandons[1], voters[0])  # another seat's key on this seat's abandon
    path = write_log(tmp_path / "forged.hexlan", game.opening_payload, [*envelopes, forged])
    (violation,) = verify_logs([path]).logs[0].violations
    assert violation.author == signer and "signature" in violation.reason


def test_messages_of_another_opening_are_violations(game: Game, tmp_path: Path) -> None:
    other = list(game.opening_payload)  # type: ignore[call-overload]
    other[5] = 12345  # another "created": another game id
    path = write_log(tmp_path / "other.hexlan", other, game.envelopes(0)[:10])
    report = verify_logs([path])
    (violation,) = report.logs[0].violations
    assert violation.message == 1 and "belongs to game" in violation.reason
    assert report.exit_code == EXIT_INVALID


def test_an_equivocation_record_is_checked(game: Game, tmp_path: Path) -> None:
    original = game.envelopes(0)[-1]
    body = Envelope.parse(original).body
    twin = resign(original, body.author, kind="advance", payload=())
    forged = sign_body(Envelope.parse(twin).body, SeatKeys.seeded(SEED + 1, 0).identity)
    proven = tmp_path / "proven.hexlan"
    write_log(proven, game.opening_payload, game.envelopes(0))
    with GameLog.open_append(proven) as log:
        log.append_equivocation(original, twin)
    report = verify_logs([proven]).logs[0]
    (violation,) = report.violations
    assert violation.author == body.author and violation.seq == body.seq
    assert "signed two different messages" in violation.reason
    bogus = tmp_path / "bogus.hexlan"
    write_log(bogus, game.opening_payload, game.envelopes(0))
    with GameLog.open_append(bogus) as log:
        log.append_equivocation(original, forged.to_bytes())
    report = verify_logs([bogus]).logs[0]
    assert report.valid and report.exit_code == EXIT_VALID
    assert any("proves nothing" in w and "does not verify" in w for w in report.warnings)


def test_two_logs_holding_different_messages_for_one_number_name_the_author(
    game: Game, tmp_path: Path
) -> None:
    envelopes = game.envelopes(3)
    index = next(
        i
        for i, e in enumerate(envelopes)
        if (body := Envelope.parse(e).body).author == 3
        and body.kind == "turn_ack"
        and body.seq > 10
    )
    body = Envelope.parse(envelopes[index]).body
    twin = resign(envelopes[index], 3, kind="advance", payload=())
    path = write_log(tmp_path / "twin.hexlan", game.opening_payload, [*envelopes[:index], twin])
    alone = verify_logs([path])
    assert alone.exit_code == EXIT_UNFINISHED  # on its own the log is consistent
    together = verify_logs([game.paths[0], path])
    assert together.exit_code == EXIT_INVALID
    assert together.logs[0].valid
    (violation,) = together.logs[1].violations
    assert (violation.author, violation.seq, violation.message) == (3, body.seq, index + 1)
    assert str(game.paths[0]) in violation.reason


def test_the_most_serious_log_decides_the_exit_code(game: Game, tmp_path: Path) -> None:
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(game.paths[0].read_bytes()[:5000])
    junk = tmp_path / "junk.hexlan"
    junk.write_bytes(b"\x00" * 10)
    other = list(game.opening_payload)  # type: ignore[call-overload]
    other[5] = 1
    invalid = write_log(tmp_path / "invalid.hexlan", other, game.envelopes(0)[:3])
    assert verify_logs([game.paths[0], cut]).exit_code == EXIT_UNFINISHED
    assert verify_logs([cut, invalid, game.paths[0]]).exit_code == EXIT_INVALID
    assert verify_logs([junk, invalid, cut]).exit_code == EXIT_UNREADABLE
    assert run()[0] == EXIT_UNREADABLE  # no log given
