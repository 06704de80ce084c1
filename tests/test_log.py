"""The game log and secrets file (docs/PROTOCOL.md §9): round trips, durability, torn tails,
corruption reported as LogFormatError naming the record, and the secrets file's mode."""

from __future__ import annotations

import contextlib
import os
import stat
import struct
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexlan.net.log import (
    LOG_MAGIC,
    Equivocation,
    Evidence,
    GameLog,
    LogFormatError,
    SeatSecrets,
    load_secrets,
    parse_log,
    read_log,
    save_secrets,
    secrets_path,
)

OPENING = [1, "0.1.0", [["Ann", b"k" * 32, b"x" * 32, b"c" * 32]], [["vp", 10]], "beginner", 1]


def envelope(body: bytes, sig: bytes = b"s" * 64) -> bytes:
    return msgpack.packb([body, sig], use_bin_type=True)


def write_sample(path: Path) -> list[bytes]:
    messages = [envelope(b"body %d" % i) for i in range(5)]
    with GameLog.create(path, OPENING) as log:
        for m in messages:
            log.append_message(m)
        log.append_note("not fair: seeded local chance")
        log.append_evidence("bad signature", b"\x92junk")
        log.append_equivocation(envelope(b"A"), envelope(b"B", b"t" * 64))
    return messages


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    messages = write_sample(path)
    assert path.read_bytes().startswith(LOG_MAGIC)
    contents = read_log(path)
    assert contents.opening == OPENING
    assert contents.messages == messages
    assert contents.notes == ["not fair: seeded local chance"]
    assert contents.evidence == [Evidence("bad signature", b"\x92junk")]
    assert contents.equivocations == [Equivocation(b"A", b"s" * 64, b"B", b"t" * 64)]
    assert contents.equivocations[0].envelopes() == (envelope(b"A"), envelope(b"B", b"t" * 64))
    assert not contents.torn_tail
    assert contents.end == path.stat().st_size


def test_every_append_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        calls.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    with GameLog.create(tmp_path / "g.log", OPENING) as log:
        created = len(calls)
        assert created >= 1  # the opening is durable before create returns
        log.append_message(envelope(b"m"))
        assert len(calls) == created + 1
        log.append_note("n")
        log.append_evidence("r", b"e")
        log.append_equivocation(envelope(b"a"), envelope(b"b"))
        assert len(calls) == created + 4


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    path.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        GameLog.create(path, OPENING)
    assert path.read_bytes() == b"precious"


def test_closed_log_refuses_appends(tmp_path: Path) -> None:
    log = GameLog.create(tmp_path / "g.log", OPENING)
    log.close()
    log.close()
    assert log.closed
    with pytest.raises(ValueError, match="closed"):
        log.append_note("late")


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    with GameLog.create(path, OPENING), pytest.raises(LogFormatError, match="another process"):
        GameLog.open_append(path)
    with GameLog.open_append(path) as log:  # released on close
        assert not log.torn_tail


def test_equivocation_needs_envelopes(tmp_path: Path) -> None:
    with GameLog.create(tmp_path / "g.log", OPENING) as log, pytest.raises(ValueError):
        log.append_equivocation(b"not msgpack \xc1", envelope(b"b"))


@pytest.mark.parametrize("cut", [1, 3, 4, 5, 20])
def test_torn_tail_is_reported_and_cut_on_resume(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "g.log"
    messages = write_sample(path)
    whole = path.read_bytes()
    with GameLog.open_append(path) as log:
        log.append_message(envelope(b"the last one, torn by a crash"))
    with_last = path.read_bytes()
    torn = with_last[: len(whole) + cut]
    path.write_bytes(torn)

    contents = read_log(path)
    assert contents.torn_tail
    assert contents.messages == messages
    assert contents.end == len(whole)

    with GameLog.open_append(path) as log:
        assert log.torn_tail
        assert log.truncated_bytes == cut
        assert log.contents.messages == messages
        assert path.stat().st_size == len(whole)
        log.append_message(envelope(b"after resume"))
    contents = read_log(path)
    assert not contents.torn_tail
    assert contents.messages == [*messages, envelope(b"after resume")]


def test_resume_of_a_whole_log_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    write_sample(path)
    before = path.read_bytes()
    with GameLog.open_append(path) as log:
        assert not log.torn_tail and log.truncated_bytes == 0
    assert path.read_bytes() == before


def test_corrupt_magic(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    write_sample(path)
    data = bytearray(path.read_bytes())
    data[0] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(LogFormatError, match="not a hexlan log"):
        read_log(path)
    with pytest.raises(LogFormatError, match="not a hexlan log"):
        GameLog.open_append(path)
    with pytest.raises(LogFormatError, match="not a hexlan log"):
        parse_log(LOG_MAGIC[:5])
    with pytest.raises(LogFormatError, match="not a hexlan log"):
        parse_log(b"")
    with pytest.raises(LogFormatError, match="no opening"):
        parse_log(LOG_MAGIC)


def record_offsets(data: bytes) -> list[int]:
    offsets, pos = [], len(LOG_MAGIC)
    while pos < len(data):
        offsets.append(pos)
        pos += 4 + struct.unpack_from(">I", data, pos)[0]
    return offsets


def test_corrupt_length_names_the_record(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    write_sample(path)
    data = bytearray(path.read_bytes())
    third = record_offsets(bytes(data))[2]
    data[third : third + 4] = struct.pack(">I", 0xFFFFFF00)
    path.write_bytes(bytes(data))
    with pytest.raises(LogFormatError, match=r"record 3 .* is corrupt: length"):
        read_log(path)


def test_length_that_misframes_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    write_sample(path)
    data = bytearray(path.read_bytes())
    second = record_offsets(bytes(data))[1]
    (length,) = struct.unpack_from(">I", data, second)
    data[second : second + 4] = struct.pack(">I", length - 1)  # one byte short: misframed
    path.write_bytes(bytes(data))
    with pytest.raises(LogFormatError, match=r"record [23] .* is corrupt"):
        read_log(path)


def test_truncated_inside_the_opening_is_torn_without_an_opening(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    write_sample(path)
    data = path.read_bytes()
    with pytest.raises(LogFormatError, match="no opening"):
        parse_log(data[: len(LOG_MAGIC) + 6])


def test_truncated_anywhere_reads_or_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    messages = write_sample(path)
    data = path.read_bytes()
    boundaries = set(record_offsets(data)) | {len(data)}
    for n in range(len(data)):
        try:
            contents = parse_log(data[:n])
        except LogFormatError:
            continue
        assert contents.torn_tail == (n not in boundaries)
        assert contents.messages == messages[: len(contents.messages)]


def test_a_flipped_byte_inside_a_message_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    messages = write_sample(path)
    data = bytearray(path.read_bytes())
    offset = bytes(data).index(b"body 2")
    data[offset] ^= 0x01
    contents = parse_log(bytes(data))
    assert contents.messages[2] != messages[2]
    assert len(contents.messages[2]) == len(messages[2])
    assert contents.messages[:2] == messages[:2] and contents.messages[3:] == messages[3:]


def test_wrong_shapes_are_corrupt() -> None:
    def log_of(*records: object) -> bytes:
        out = LOG_MAGIC
        for r in records:
            packed = msgpack.packb(r, use_bin_type=True)
            out += struct.pack(">I", len(packed)) + packed
        return out

    opening = ["opening", OPENING]
    cases = {
        "first record must be the opening": log_of(["note", "x"]),
        "second opening": log_of(opening, opening),
        "unknown kind": log_of(opening, ["gossip", b""]),
        "message must be bytes": log_of(opening, ["message", "text"]),
        "note must be text": log_of(opening, ["note", b"bytes"]),
        "evidence must be": log_of(opening, ["evidence", ["r"]]),
        "equivocation must be": log_of(opening, ["equivocation", [b"a", b"b"]]),
        "not a \\[kind, data\\] pair": log_of(opening, {"kind": "note"}),
        "is corrupt: length 0": LOG_MAGIC + struct.pack(">I", 0),
        "record 2 .* is corrupt": log_of(opening) + struct.pack(">I", 2) + b"\xc1\xc1",
        "record 2 .* is corrupt: ExtraData": log_of(opening) + struct.pack(">I", 2) + b"\xc0\xc0",
    }
    for reason, data in cases.items():
        with pytest.raises(LogFormatError, match=reason):
            parse_log(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_garbage_only_raises_log_format_error(garbage: bytes) -> None:
    for data in (garbage, LOG_MAGIC + garbage):
        with contextlib.suppress(LogFormatError):
            parse_log(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0, max_value=255))
def test_any_single_byte_change_reads_or_raises_log_format_error(where: int, value: int) -> None:
    data = bytearray(SAMPLE)
    data[where % len(data)] = value
    with contextlib.suppress(LogFormatError):
        parse_log(bytes(data))


def _sample_bytes() -> bytes:
    out = LOG_MAGIC
    records = [
        ["opening", OPENING],
        ["message", envelope(b"m1")],
        ["note", "n"],
        ["evidence", ["r", b"e"]],
        ["equivocation", [b"a", b"s", b"b", b"t"]],
    ]
    for r in records:
        packed = msgpack.packb(r, use_bin_type=True)
        out += struct.pack(">I", len(packed)) + packed
    return out


SAMPLE = _sample_bytes()


# ------------------------------------------------------------------------------ secrets


def sample_secrets() -> SeatSecrets:
    return SeatSecrets(game_id=b"g" * 32, seat=2, chain_secret=b"c" * 32, x25519_private=b"x" * 32)


def test_secrets_round_trip_with_mode_0600(tmp_path: Path) -> None:
    old_umask = os.umask(0)
    try:
        path = secrets_path(tmp_path / "game.log")
        assert path.name == "game.log.secrets"
        save_secrets(path, sample_secrets())
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secrets(path) == sample_secrets()
    with pytest.raises(FileExistsError):
        save_secrets(path, sample_secrets())


def test_bad_secrets_raise_log_format_error(tmp_path: Path) -> None:
    path = tmp_path / "s"
    good = sample_secrets().to_bytes()
    for data in (
        b"",
        b"junk",
        good[:-3],
        good[:20],
        good + b"\x00",
        good.replace(b"g" * 32, b"g" * 31 + b"\x00\x00"),
    ):
        path.write_bytes(data)
        with pytest.raises(LogFormatError):
            load_secrets(path)
    with pytest.raises(ValueError):
        SeatSecrets(b"short", 0, b"c" * 32, b"x" * 32)
