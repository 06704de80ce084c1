"""Table chat between real ``hexlan bot`` processes over TCP (docs/PROTOCOL.md §18).

Three bots play a short game (3 victory points) and chat: Ann says a line with Rich markup and
an escape sequence, then one too long; Bo floods eight lines; Cy says nothing. Every log holds
the lines that were taken, signed by their authors; the game's own records are envelopes only
and every seat ends on one state hash; the long line and the flood's last three are refused,
naming their author, in every log.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path

import pytest
from test_peer import (
    HEXLAN,
    assert_agreement,
    finish,
    free_port,
    run_cli,
    start_bot,
    verify_cli,
    wait_until_listening,
)
from test_watch import join_table, open_table, wait_for_messages

from hexlan.net.chat import GOOD_GAME, NO_SPECTATOR_CHAT, is_chat_frame, parse_chat, safe_text
from hexlan.net.identity import Identity
from hexlan.net.log import load_secrets, read_log, secrets_path
from hexlan.net.watch import Spectator, WatchEvent
from hexlan.net.wire import Envelope, Opening

HOSTILE = "[bold red]gg[/bold red] \x1b[2J\x1b]0;owned\x07 \u202etxt.exe"
LONG = "z" * 250
FLOOD = [f"spam {i}" for i in range(8)]


@pytest.mark.slow
def test_three_bots_chat_beside_a_game_and_refuse_the_unruly(tmp_path: Path) -> None:
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(3)]
    common = ["--option", "victory_points=3"]
    host = ["--host", "--seats", "3", "--port", str(port), *common]
    ann = ["--say", HOSTILE, "--say", LONG]
    procs = [start_bot(*host, "--seed", "0", "--name", "Ann", "--log", str(logs[0]), *ann)]
    wait_until_listening(port, procs[0])
    join = ["--join", f"127.0.0.1:{port}"]
    bo = [arg for line in FLOOD for arg in ("--say", line)]
    procs.append(start_bot(*join, "--seed", "1", "--name", "Bo", "--log", str(logs[1]), *bo))
    procs.append(start_bot(*join, "--seed", "2", "--name", "Cy", "--log", str(logs[2])))
    results = finish(procs)
    finals = assert_agreement(results)
    assert {f["state_hash"] for f in finals} == {finals[0]["state_hash"]}
    for path in logs:
        contents = read_log(path)
        opening = Opening.from_payload(contents.opening)
        keys = {s: info.public_key for s, info in enumerate(opening.seats)}
        names = [s.name for s in opening.seats]
        # the game's records are envelopes only; chat is beside them
        assert not any(is_chat_frame(m) for m in contents.messages)
        assert all(Envelope.parse(m).body.game_id == opening.game_id for m in contents.messages)
        lines = [parse_chat(frame, opening.game_id, keys) for frame in contents.chats]
        said = [(names[line.author], line.text) for line in lines]
        # every line that was taken checks out under its author's key, verbatim
        assert sorted(said) == sorted([("Ann", HOSTILE)] + [("Bo", t) for t in FLOOD[:5]])
        assert len({(line.author, line.seq) for line in lines}) == len(lines)
        ann_seat, bo_seat = names.index("Ann"), names.index("Bo")
        refused = [n for n in contents.notes if n.startswith("chat from ")]
        assert f"chat from seat {ann_seat} (Ann) refused: a chat line of 250 characters" in (
            " | ".join(refused)
        ), refused
        flood = [n for n in refused if f"seat {bo_seat} (Bo)" in n]
        assert len(flood) == 3 and all("more than 5 chat lines in 10 s" in n for n in flood)
    assert [_name(path) for path in logs] == ["Ann", "Bo", "Cy"]
    # the other seats showed the refusals as system lines on their screens (stderr)
    cy_err = results[2][2]
    assert "(Ann) refused: a chat line of 250 characters" in cy_err
    assert "(Bo) refused: more than 5 chat lines" in cy_err
    # shown, the hostile line is defused: no ESC, no bidi override reaches a terminal
    assert "\x1b" not in cy_err and "\u202e" not in cy_err
    assert f"Ann: {safe_text(HOSTILE)}" in cy_err
    # `hexlan replay LOG --chat` prints the lines taken, defused
    replayed = run_cli("replay", str(logs[2]), "--chat")
    assert replayed.returncode == 0, replayed.stderr
    printed = replayed.stdout.splitlines()
    assert f"Ann (seat {names.index('Ann')}): {safe_text(HOSTILE)}" in printed
    assert len(printed) == 6 and "\x1b" not in replayed.stdout
    # the logs verify: the checker reads the game's messages and never the chat
    assert verify_cli(logs).stdout.count("audit passed and signed by every seat") == 3


def _name(path: Path) -> str:
    """The name of the seat whose log ``path`` is (its secrets file names the seat)."""
    contents = read_log(path)
    opening = Opening.from_payload(contents.opening)
    return opening.seats[load_secrets(secrets_path(path)).seat].name


@pytest.mark.slow
def test_a_spectator_reads_the_chat_through_the_host(tmp_path: Path) -> None:
    """The host seat passes on every chat line it takes to its spectators (§18); the
    spectator checks each against its author's key and shows it defused."""
    port, host, logs = open_table(tmp_path, "--option", "victory_points=3", "--say", HOSTILE)
    heard: list[WatchEvent] = []

    async def watch() -> None:
        spectator = Spectator(Identity.generate(), "Eve", "127.0.0.1", port, on_event=heard.append)
        joiners.extend(join_table(port, logs, "--say", "hello from a joiner"))
        async with asyncio.timeout(60):
            await spectator.run()

    joiners: list[subprocess.Popen[str]] = []
    try:
        asyncio.run(watch())
    finally:
        results = finish([host, *joiners], 60)
    assert_agreement(results)
    chat = sorted(e.text for e in heard if e.kind == "chat")
    assert chat == sorted(
        [f"Ann: {safe_text(HOSTILE)}"] + [f"{_name(p)}: hello from a joiner" for p in logs[1:]]
    ), chat
    assert not [e for e in heard if e.kind == "chat_refused"]


def _watch(tmp_path: Path, port: int, name: str, *says: str) -> subprocess.Popen[str]:
    """``hexlan watch --json`` as a process, saying ``says`` once it is served."""
    args = [arg for line in says for arg in ("--say", line)]
    identity = ["--identity", str(tmp_path / f"{name}.pem")]
    return subprocess.Popen(
        [*HEXLAN, "watch", "--json", f"127.0.0.1:{port}", "--name", name, *identity, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _spectator_lines(path: Path) -> list[tuple[str, str]]:
    """The spectators' lines a log holds, each checked (the host's relay, the spectator's
    signature): ``(name, text)``."""
    contents = read_log(path)
    opening = Opening.from_payload(contents.opening)
    keys = {s: info.public_key for s, info in enumerate(opening.seats)}
    lines = [parse_chat(frame, opening.game_id, keys) for frame in contents.chats]
    return [(line.spectator[0], line.text) for line in lines if line.spectator is not None]


def _seat_lines(path: Path) -> list[tuple[str, str]]:
    contents = read_log(path)
    opening = Opening.from_payload(contents.opening)
    keys = {s: info.public_key for s, info in enumerate(opening.seats)}
    lines = [parse_chat(frame, opening.game_id, keys) for frame in contents.chats]
    return [(opening.seats[ln.author].name, ln.text) for ln in lines if ln.spectator is None]


EVE_FLOOD = ["hi from Eve", *(f"eve spam {i}" for i in range(7))]


@pytest.mark.slow
def test_spectators_write_where_the_host_lets_them(tmp_path: Path) -> None:
    """``--spectator-chat``: Eve's lines go through the host seat to every seat's log and to
    the other spectator, Zed; her flood's last three and her line of 250 characters are
    refused naming her; the bots say "good game" once the game is won; the game's messages,
    state hashes and verification are those of any game."""
    port, host, logs = open_table(tmp_path, "--spectator-chat", "--good-game")
    watchers = [_watch(tmp_path, port, "Zed")]  # in the lobby: served before Eve speaks
    time.sleep(1.0)
    joiners = join_table(port, logs, "--name", "Bo", "--good-game")
    try:
        wait_for_messages(logs[0], 12, [host, *joiners])
        watchers.append(_watch(tmp_path, port, "Eve", *EVE_FLOOD, LONG))
    finally:
        results = finish([host, *joiners, *watchers], 120)
    finals = assert_agreement(results[:2])
    zed, eve = results[2:]
    for code, out, err in (zed, eve):
        assert code == 0, err[-2000:]
        assert json.loads(out.splitlines()[-1])["state_hash"] == finals[0]["state_hash"]
        assert json.loads(out.splitlines()[-1])["audit"] == "passed"
    taken = [("Eve", text) for text in EVE_FLOOD[:5]]
    for path in logs:
        assert _spectator_lines(path) == taken, path
        # the bots' farewell, once each, in every seat's log
        assert sorted(_seat_lines(path)) == [("Ann", GOOD_GAME), ("Bo", GOOD_GAME)], path
        assert not any(is_chat_frame(m) for m in read_log(path).messages)
    notes = [n for n in read_log(logs[0]).notes if n.startswith("chat from spectator Eve (")]
    assert len(notes) == 4, notes
    assert sum("more than 5 chat lines in 10 s" in n for n in notes) == 3
    assert sum("a chat line of 250 characters (at most 200)" in n for n in notes) == 1
    # the other spectator read Eve's lines through the host; Eve was told of her refusals
    for text in EVE_FLOOD[:5]:
        assert f"Eve: {text}" in zed[2]
    assert "eve spam 6" not in zed[2]
    assert eve[2].count("the table refused your chat line: more than 5 chat lines") == 3
    assert "the table refused your chat line: a chat line of 250 characters" in eve[2]
    assert verify_cli(logs).stdout.count("audit passed and signed by every seat") == 2
    replayed = run_cli("replay", str(logs[1]), "--chat")
    assert replayed.returncode == 0, replayed.stderr
    assert "Eve (spectator " in replayed.stdout and "): hi from Eve" in replayed.stdout


@pytest.mark.slow
def test_a_table_without_spectator_chat_refuses_a_spectators_line(tmp_path: Path) -> None:
    port, host, logs = open_table(tmp_path)
    joiners = join_table(port, logs)
    watchers: list[subprocess.Popen[str]] = []
    try:
        wait_for_messages(logs[0], 12, [host, *joiners])
        watchers.append(_watch(tmp_path, port, "Eve", "may I?"))
    finally:
        results = finish([host, *joiners, *watchers], 120)
    assert_agreement(results[:2])
    code, _, err = results[2]
    assert code == 0, err[-2000:]
    assert f"the table refused your chat line: {NO_SPECTATOR_CHAT}" in err
    for path in logs:
        assert read_log(path).chats == []
    assert [n for n in read_log(logs[0]).notes if n.startswith("chat from spectator Eve (")] == [
        f"chat from {_eve(err)} refused: {NO_SPECTATOR_CHAT}"
    ]


def _eve(err: str) -> str:
    """``spectator Eve (FINGERPRINT)`` from the watcher's first line."""
    fingerprint = err.split("as Eve [", 1)[1].split("]", 1)[0]
    return f"spectator Eve ({fingerprint})"
