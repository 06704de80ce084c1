"""Table chat's sans-IO core (docs/PROTOCOL.md §18): frames, checks, bounds, the log record and
the display filter."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexlan.net.chat import (
    MAX_CHAT_TEXT,
    RATE_BURST,
    ChatBook,
    ChatRefused,
    is_chat_frame,
    parse_chat,
    safe_text,
    sign_chat,
)
from hexlan.net.identity import Identity
from hexlan.net.log import GameLog, read_log

GAME = bytes(range(32))


@pytest.fixture(scope="module")
def keys() -> tuple[Identity, Identity]:
    return Identity.generate(), Identity.generate()


def _book(keys: tuple[Identity, Identity]) -> ChatBook:
    return ChatBook(GAME, {0: keys[0].public_bytes, 1: keys[1].public_bytes})


def test_a_signed_line_is_accepted_once(keys: tuple[Identity, Identity]) -> None:
    book = _book(keys)
    frame = sign_chat(keys[1], GAME, 1, 0, "good game")
    assert is_chat_frame(frame)
    line = book.receive(frame, 0.0)
    assert line is not None and (line.author, line.seq, line.text) == (1, 0, "good game")
    assert book.receive(frame, 0.1) is None  # the same (author, seq) again: a repeat
    assert book.next_seq(1) == 1 and book.next_seq(0) == 0


def test_forged_foreign_and_oversized_lines_are_refused(keys: tuple[Identity, Identity]) -> None:
    book = _book(keys)
    forged = sign_chat(keys[0], GAME, 1, 0, "I resign")  # seat 0's key, claiming seat 1
    with pytest.raises(ChatRefused, match="not signed by seat 1's key") as caught:
        book.receive(forged, 0.0)
    assert caught.value.author == 1
    with pytest.raises(ChatRefused, match="another game"):
        book.receive(sign_chat(keys[1], bytes(32), 1, 0, "hi"), 0.0)
    with pytest.raises(ChatRefused, match="seat 5, which is not in this game"):
        book.receive(sign_chat(keys[1], GAME, 5, 0, "hi"), 0.0)
    long = sign_chat(keys[1], GAME, 1, 1, "x" * (MAX_CHAT_TEXT + 1))
    with pytest.raises(ChatRefused, match="201 characters") as caught:
        book.receive(long, 0.0)
    assert caught.value.author == 1
    with pytest.raises(ChatRefused, match=r"a chat frame of \d+ bytes"):
        book.receive(sign_chat(keys[1], GAME, 1, 2, "y" * 2000), 0.0)
    with pytest.raises(ChatRefused, match="malformed"):
        parse_chat(b"\x93\xa4chat\x01", GAME, book.seat_keys)
    assert book.seen == set()


def test_the_rate_is_bounded_per_author(keys: tuple[Identity, Identity]) -> None:
    book = _book(keys)
    for seq in range(RATE_BURST):
        assert book.receive(sign_chat(keys[1], GAME, 1, seq, "spam"), 0.0) is not None
    with pytest.raises(ChatRefused, match="more than 5 chat lines in 10 s"):
        book.receive(sign_chat(keys[1], GAME, 1, RATE_BURST, "spam"), 0.5)
    assert book.receive(sign_chat(keys[0], GAME, 0, 0, "calm"), 0.5) is not None  # not seat 0's
    # a token comes back every 2 s
    assert book.receive(sign_chat(keys[1], GAME, 1, RATE_BURST + 1, "later"), 2.6) is not None


def test_safe_text_defuses_controls_bidi_and_keeps_markup_as_text() -> None:
    hostile = "\x1b]0;pwned\x07[red]x[/red]\u202eevil\x9b2J\u2066ok\r\n"
    shown = safe_text(hostile)
    assert all(ord(c) >= 0x20 and not 0x7F <= ord(c) < 0xA0 for c in shown)
    assert "\u202e" not in shown and "\u2066" not in shown
    assert shown == "\\x1b]0;pwned\\x07[red]x[/red]\\u202eevil\\x9b2J\\u2066ok\\x0d\\x0a"
    assert safe_text("héllo, ünïcode ✓") == "héllo, ünïcode ✓"


def test_the_log_keeps_chat_beside_the_game(
    tmp_path: Path, keys: tuple[Identity, Identity]
) -> None:
    path = tmp_path / "a.log"
    frame = sign_chat(keys[0], GAME, 0, 0, "[bold]hi\x1b[2J")
    with GameLog.create(path, ["opening"]) as log:
        log.append_note("peer: human")
        log.append_chat(frame)
    contents = read_log(path)
    assert contents.chats == [frame] and contents.messages == []
    assert parse_chat(contents.chats[0], GAME, {0: keys[0].public_bytes}).text == "[bold]hi\x1b[2J"
    # a log without chat reads as before: no chat record, an empty list
    old = tmp_path / "old.log"
    with GameLog.create(old, ["opening"]):
        pass
    assert read_log(old).chats == []
