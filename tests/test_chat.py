"""Table chat's sans-IO core (docs/PROTOCOL.md §18): frames, checks, bounds, the log record and
the display filter."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_peer import run_cli

from hexlan.net.chat import (
    MAX_CHAT_TEXT,
    NO_SPECTATOR_CHAT,
    RATE_BURST,
    SPECTATOR,
    ChatBook,
    ChatRefused,
    is_chat_frame,
    line_seq,
    parse_chat,
    parse_chat_refusal,
    relay_chat,
    safe_text,
    sign_chat,
    sign_chat_refusal,
    sign_spectator_chat,
    spectator_words,
)
from hexlan.net.identity import Identity
from hexlan.net.inproc import SeatKeys, make_opening
from hexlan.net.log import GameLog, read_log
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.wire import Opening

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


def test_a_spectators_line_is_checked_by_the_host_and_relayed(
    keys: tuple[Identity, Identity],
) -> None:
    """§18 Spectators: the host seat checks a spectator's line against the connection's name
    and key, relays it signed by seat 0; the seats check the relay and the line inside it."""
    host_book, seat_book = _book(keys), _book(keys)
    eve = Identity.generate()
    who = ("Eve", eve.public_bytes)
    frame = sign_spectator_chat(eve, GAME, "Eve", 1000, "hello, table")
    assert is_chat_frame(frame)
    line = host_book.receive_spectator(frame, who, 0.0)
    assert line is not None and (line.author, line.spectator) == (SPECTATOR, who)
    assert host_book.receive_spectator(frame, who, 0.1) is None  # a repeat
    # the connection's spectator must be the line's
    with pytest.raises(ChatRefused, match="names another author") as caught:
        host_book.receive_spectator(frame, ("Mallory", eve.public_bytes), 0.2)
    assert caught.value.spectator == ("Mallory", eve.public_bytes)
    relay = relay_chat(keys[0], frame)
    heard = seat_book.receive(relay, 0.0)
    assert heard is not None and heard.text == "hello, table" and heard.frame == relay
    assert parse_chat(relay, GAME, seat_book.seat_keys).spectator == who
    # a relay signed by any other seat, or a line whose text was changed, is refused
    with pytest.raises(ChatRefused, match="not signed by the host seat's key"):
        seat_book.receive(relay_chat(keys[1], sign_spectator_chat(eve, GAME, "Eve", 1, "x")), 0)
    forged = frame.replace(b"hello, table", b"hello, tabl!")
    with pytest.raises(ChatRefused, match="not signed by the key it carries"):
        seat_book.receive(relay_chat(keys[0], forged), 0.0)
    # a seat never takes a spectator's line that the host did not relay
    with pytest.raises(ChatRefused, match="malformed"):
        seat_book.receive(frame, 0.0)
    # the same bounds: length, and the rate per spectator (keyed by its key)
    with pytest.raises(ChatRefused, match="201 characters") as caught:
        host_book.receive_spectator(
            sign_spectator_chat(eve, GAME, "Eve", 1001, "x" * (MAX_CHAT_TEXT + 1)), who, 0.0
        )
    assert caught.value.spectator == who
    for seq in range(1002, 1002 + RATE_BURST - 1):
        assert host_book.receive_spectator(sign_spectator_chat(eve, GAME, "Eve", seq, "s"), who, 0)
    with pytest.raises(ChatRefused, match="more than 5 chat lines in 10 s") as caught:
        host_book.receive_spectator(sign_spectator_chat(eve, GAME, "Eve", 2000, "s"), who, 0.5)
    assert caught.value.spectator == who
    # the host's refusal comes back to the spectator signed by seat 0
    refusal = sign_chat_refusal(keys[0], GAME, line_seq(frame), NO_SPECTATOR_CHAT)
    assert parse_chat_refusal(refusal, GAME, keys[0].public_bytes) == (1000, NO_SPECTATOR_CHAT)
    with pytest.raises(ChatRefused, match="not signed by the host"):
        parse_chat_refusal(refusal, GAME, keys[1].public_bytes)


def test_the_log_keeps_a_relayed_line_and_a_resumed_book_remembers_it(
    tmp_path: Path, keys: tuple[Identity, Identity]
) -> None:
    eve = Identity.generate()
    relay = relay_chat(keys[0], sign_spectator_chat(eve, GAME, "Eve", 7, "gg all"))
    path = tmp_path / "a.log"
    with GameLog.create(path, ["opening"]) as log:
        log.append_chat(relay)
    book = _book(keys)
    (line,) = book.remember(read_log(path).chats)
    assert (line.spectator, line.text) == (("Eve", eve.public_bytes), "gg all")
    assert book.receive(relay, 0.0) is None  # a repeat after a resume


def _host_peer(tmp_path: Path, name: str, **table: bool) -> tuple[Peer, Opening]:
    keys = [SeatKeys.seeded(11, seat) for seat in range(2)]
    opening = make_opening(["Ann", "Bob"], keys, created=0)
    log = tmp_path / f"{name}.log"
    (tmp_path / f"{name}.pem").write_bytes(keys[0].identity.to_pem())
    peer = Peer(0, keys[0].identity, opening, keys[0].chain, keys[0].game_keys, log, **table)
    return peer, opening


def test_the_host_seat_relays_a_spectators_line_only_where_the_table_allows_it(
    tmp_path: Path,
) -> None:
    eve = Identity.generate()
    who = ("Eve", eve.public_bytes)
    for allowed in (True, False):
        host, opening = _host_peer(tmp_path, f"host-{allowed}", spectator_chat=allowed)
        heard: list[PeerEvent] = []
        host.on_event = heard.append
        frame = sign_spectator_chat(eve, opening.game_id, "Eve", 5, "hello")
        answer = host.hear_spectator_chat(who, frame)
        host.close()
        contents = read_log(host.log_path)
        keys = {s: info.public_key for s, info in enumerate(opening.seats)}
        if allowed:
            assert answer is None
            (line,) = [parse_chat(c, opening.game_id, keys) for c in contents.chats]
            assert (line.spectator, line.text) == (who, "hello")
            assert [(e.kind, e.text, e.author) for e in heard] == [
                ("chat", "Eve: hello", SPECTATOR)
            ]
        else:
            assert answer is not None and contents.chats == []
            seat0 = opening.seats[0].public_key
            assert parse_chat_refusal(answer, opening.game_id, seat0) == (5, NO_SPECTATOR_CHAT)
            note = f"chat from {spectator_words(who)} refused: {NO_SPECTATOR_CHAT}"
            assert note in contents.notes and heard[0].kind == "chat_refused"


@pytest.mark.parametrize("allowed", [True, False])
def test_a_resumed_host_keeps_its_spectator_chat_setting(tmp_path: Path, allowed: bool) -> None:
    host, _ = _host_peer(tmp_path, "ann", spectator_chat=allowed)
    assert host.spectator_chat is allowed
    host.close()
    resumed = Peer.resume(host.log_path, tmp_path / "ann.pem")
    assert resumed.spectator_chat is allowed
    resumed.close()
    # a table that takes no spectators has no spectator chat either
    refusing, _ = _host_peer(tmp_path, "cy", spectator_chat=True, spectators=False)
    assert not refusing.spectator_chat
    refusing.close()


def test_spectator_chat_and_say_are_refused_where_they_mean_nothing() -> None:
    joiner = run_cli("bot", "--join", "127.0.0.1:9", "--spectator-chat")
    assert joiner.returncode == 2 and "--spectator-chat is for --host" in joiner.stderr
    both = run_cli("bot", "--host", "--no-spectators", "--spectator-chat")
    assert both.returncode == 2 and "drop --no-spectators" in both.stderr
    screen = run_cli("watch", "127.0.0.1:9", "--say", "hi")
    assert screen.returncode == 2 and "--say is for --json" in screen.stderr


def test_a_spectators_name_reaches_no_terminal_raw(tmp_path: Path) -> None:
    """A spectator names itself: its name is defused like its lines, in the event and the
    refusal note (the name comes from no opening)."""
    mallory = Identity.generate()
    who = ("Ann\x1b[2J\u202e", mallory.public_bytes)
    host, opening = _host_peer(tmp_path, "host", spectator_chat=True)
    heard: list[PeerEvent] = []
    host.on_event = heard.append
    assert (
        host.hear_spectator_chat(who, sign_spectator_chat(mallory, opening.game_id, who[0], 0, "x"))
        is None
    )
    long = "y" * (MAX_CHAT_TEXT + 1)
    assert host.hear_spectator_chat(
        who, sign_spectator_chat(mallory, opening.game_id, who[0], 1, long)
    )
    host.close()
    assert [e.kind for e in heard] == ["chat", "chat_refused"]
    assert heard[0].text == "Ann\\x1b[2J\\u202e: x"
    assert all("\x1b" not in e.text and "\u202e" not in e.text for e in heard)
    assert all("\x1b" not in n for n in read_log(host.log_path).notes)
