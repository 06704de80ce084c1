"""Spectators (`hexlan watch`, docs/PROTOCOL.md §17, net/watch.py).

First the handshakes without sockets: a seat's link serves a ``watch`` hello that signs its
nonce and then takes nothing but ``catch_up``; the host's lobby lists spectators or refuses
them. Then a whole in-process game fed to a real :class:`~hexlan.net.watch.Spectator` through
the host seat's real link handshake, shown in the watch screen under ``App.run_test()``: the
spectator ends on the seats' public state, and no seat secret, stolen card or drawn card reaches
its memory or its screen. Last, real `hexlan bot` processes over TCP on 127.0.0.1: a spectator
follows two bots to the same state hash, one killed mid-game and restarted catches up, and
``--no-spectators`` refuses one in one line (2-seat tables: what a spectator sees comes through
the host seat whatever the table's size, and two seats play the shortest games).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import io
import json
import os
import re
import signal
import subprocess
import time
import types
from pathlib import Path
from typing import Any

import pytest
from bot_games import play_to_end
from test_peer import HEXLAN, finish, free_port, last_json, start_bot, wait_until_listening

from hexlan.engine import actions as A
from hexlan.net.beacon import HashChain
from hexlan.net.deck import derive_deck_secret
from hexlan.net.effects import Applied
from hexlan.net.identity import GameKeys, Identity, fingerprint
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.lobby import Disconnect, HostLobby, SendTo, TableChanged
from hexlan.net.log import load_secrets, read_log, secrets_path
from hexlan.net.peer import Peer
from hexlan.net.transport import (
    NO_SPECTATORS,
    CatchUp,
    Close,
    LinkProtocol,
    SendBytes,
    Watching,
    encode_frame,
)
from hexlan.net.watch import Spectator, WatchEvent
from hexlan.net.wire import PROTOCOL_VERSION, ZERO_ID, Body, Envelope, sign_body

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def lobby_envelope(identity: Identity, kind: str, payload: tuple[Any, ...]) -> bytes:
    return sign_body(
        Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), kind, payload), identity
    ).to_bytes()


def unframe(data: bytes) -> Envelope:
    return Envelope.parse(data[4:])


def seat_link(identity: Identity, game_id: bytes, *, serve: bool) -> LinkProtocol:
    """Seat 0's side of an accepted connection (the host's mesh port)."""
    return LinkProtocol(
        seat=0,
        identity=identity,
        game_id=game_id,
        seat_keys={0: identity.public_bytes, 1: Identity.generate().public_bytes},
        heads=(),
        nonce=os.urandom(16),
        spectators=None if serve else NO_SPECTATORS,
    )


def watch_hello(spectator: Identity, nonce: bytes, name: str = "Eve") -> bytes:
    payload = (name, spectator.public_bytes, PROTOCOL_VERSION, "0.1", nonce, ())
    return lobby_envelope(spectator, "watch", payload)


# ------------------------------------------------------------------------------ handshakes


def test_a_seat_serves_a_watch_hello_then_takes_only_catch_up_requests() -> None:
    host, eve = Identity.generate(), Identity.generate()
    link = seat_link(host, bytes(range(32)), serve=True)
    (hello,) = link.start()
    assert isinstance(hello, SendBytes)
    nonce = unframe(hello.data).body.payload[2]
    (watching,) = link.receive_data(encode_frame(watch_hello(eve, nonce)))
    assert watching == Watching("Eve", eve.public_bytes, ())
    heads = ((3, b"\x01" * 32), (-1, ZERO_ID))
    catch_up = lobby_envelope(eve, "catch_up", (heads,))
    assert link.receive_data(encode_frame(catch_up)) == [CatchUp(heads)]
    # anything else from a spectator closes its link: it cannot move the game
    action = sign_body(
        Body(PROTOCOL_VERSION, bytes(range(32)), 1, 1, b"\x02" * 32, heads, "advance", ()), eve
    )
    effects = link.receive_data(encode_frame(action.to_bytes()))
    assert effects == [Close("a spectator may only ask to catch up; it sent advance")]


def test_a_watch_hello_must_sign_this_links_nonce() -> None:
    host, eve = Identity.generate(), Identity.generate()
    link = seat_link(host, bytes(32), serve=True)
    link.start()
    (closed,) = link.receive_data(encode_frame(watch_hello(eve, bytes(16))))
    assert isinstance(closed, Close) and "nonce" in closed.reason


def test_a_seat_that_takes_no_spectators_says_so_and_closes() -> None:
    host, eve = Identity.generate(), Identity.generate()
    link = seat_link(host, bytes(32), serve=False)
    (hello,) = link.start()
    nonce = unframe(hello.data).body.payload[2]
    refuse, closed = link.receive_data(encode_frame(watch_hello(eve, nonce)))
    assert isinstance(refuse, SendBytes) and isinstance(closed, Close)
    answer = unframe(refuse.data)
    answer.verify(host.public_bytes)
    assert (answer.body.kind, answer.body.payload) == ("refuse", (NO_SPECTATORS,))


def lobby(spectators: bool) -> HostLobby:
    return HostLobby(
        Identity.generate(),
        4,
        "Ann",
        47400,
        game_keys=GameKeys.generate(),
        chain=HashChain.generate(length=8),
        clock=lambda: 0,
        spectators=spectators,
    )


def test_the_lobby_lists_spectators_to_everyone_and_forgets_them_when_they_leave() -> None:
    host = lobby(spectators=True)
    eve = Identity.generate()
    (challenge,) = host.connect(1, "10.0.0.9")
    nonce = Envelope.parse(challenge.envelope).body.payload[1]  # type: ignore[union-attr]
    effects = host.receive(1, watch_hello(eve, nonce))
    table = effects[-1]
    assert isinstance(table, TableChanged)
    assert [(s.name, s.fingerprint) for s in table.spectators] == [
        ("Eve", fingerprint(eve.public_bytes))
    ]
    kinds = [Envelope.parse(e.envelope).body.kind for e in effects if isinstance(e, SendTo)]
    assert kinds == ["lobby_state", "spectators"]
    assert not host.is_seated(1) and host.is_known(1)  # a spectator takes no seat
    assert len(host.seats) == 1
    after = host.disconnect(1)
    assert isinstance(after[-1], TableChanged) and after[-1].spectators == ()


def test_a_lobby_without_spectators_refuses_them_in_words() -> None:
    host = lobby(spectators=False)
    (challenge,) = host.connect(1, "10.0.0.9")
    nonce = Envelope.parse(challenge.envelope).body.payload[1]  # type: ignore[union-attr]
    refuse, disconnect = host.receive(1, watch_hello(Identity.generate(), nonce))
    assert isinstance(refuse, SendTo) and isinstance(disconnect, Disconnect)
    assert Envelope.parse(refuse.envelope).body.payload == (NO_SPECTATORS,)
    assert host.spectators == ()


# ------------------------------------------------------------------------------ a whole game


@pytest.fixture(scope="module")
def finished_table() -> InProcessTable:
    """A seeded four-bot game, won and audited, with steals and development cards bought."""
    return play_to_end(NAMES, 3, [1, 2, 3, 4])


def seat_secrets(seed: bytes, x25519_private: bytes) -> list[bytes]:
    """What a seat never shows before the audit: its seed, the top of its hash chain, its deck
    secret and its X25519 private key."""
    top = hashlib.sha256(b"hexlan/v1/chain-top\0" + seed).digest()
    return [seed, top, derive_deck_secret(seed), x25519_private]


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through ``gc.get_referents`` (bytes included), not
    through classes, modules or functions (their globals lead to everything loaded, this
    test's fixtures among them)."""
    seen: set[int] = set()
    found: list[object] = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(obj))
        found.append(obj)
        stack.extend(gc.get_referents(obj))
    return found


def holds_any(root: object, secrets: list[bytes]) -> list[bytes]:
    """The ``secrets`` found (as bytes, or inside longer bytes) among ``root``'s objects."""
    wanted = set(secrets)
    hits = []
    for obj in reachable(root):
        if isinstance(obj, bytes | bytearray) and (
            bytes(obj) in wanted or any(s in obj for s in secrets if len(obj) > len(s))
        ):
            hits.append(bytes(obj))
    return hits


def feed_from_host(
    table: InProcessTable, upto: int, steals: list[int] | None = None
) -> tuple[Spectator, list[WatchEvent]]:
    """A spectator greeted by seat 0's real link handshake, then given seat 0's messages in the
    order seat 0 logged them (as the host forwards them), up to message ``upto``. ``steals``
    hears, at each steal, how many hands the thief may hold as far as the spectator knows."""
    host = SeatKeys.seeded(3, 0).identity
    assert host.public_bytes == table.opening.seats[0].public_key
    link = LinkProtocol(
        seat=0,
        identity=host,
        game_id=table.opening.game_id,
        seat_keys={s: info.public_key for s, info in enumerate(table.opening.seats)},
        heads=(),
        nonce=os.urandom(16),
        spectators=None,
    )
    events: list[WatchEvent] = []

    def hear(event: WatchEvent) -> None:
        events.append(event)
        view = spectator.session.view if spectator.session is not None else None
        if steals is not None and view is not None and isinstance(event.action, A.StealCard):
            steals.append(len(view.possible_hands(view.active)))

    spectator = Spectator(Identity.generate(), "Eve", "127.0.0.1", 1, on_event=hear)
    (hello,) = link.start()
    answer = spectator.greet(hello.data[4:])  # type: ignore[union-attr]
    (watching,) = link.receive_data(encode_frame(answer))
    assert isinstance(watching, Watching) and watching.name == "Eve"
    spectator.receive(lobby_envelope(host, "start", (table.opening.to_payload(),)))
    for envelope in table.logs[0][:upto]:
        spectator.receive(envelope)
    return spectator, events


def first_audit_message(table: InProcessTable) -> int:
    kinds = [Envelope.parse(e).body.kind for e in table.logs[0]]
    return kinds.index("audit_secrets")


def test_a_spectator_reaches_the_seats_state_and_never_holds_a_hidden_card(
    finished_table: InProcessTable,
) -> None:
    table = finished_table
    cut = first_audit_message(table)  # the game is won; no seat has shown its secrets yet
    unsure_after_steal: list[int] = []
    spectator, events = feed_from_host(table, cut, unsure_after_steal)
    session = spectator.session
    assert session is not None and session.view is not None and spectator.messages == cut
    # Its information state is the public one: the seats' public state, hands unknown ...
    assert session.view.public_hash() == table.sessions[0].view.public_hash()  # type: ignore[union-attr]
    seen = [e.action for e in events if e.kind == "applied"]
    thief_saw = [
        e.action
        for seat in range(4)
        for e in table.effects[seat]
        if isinstance(e, Applied)
        and isinstance(e.action, A.StealCard)
        and e.action.resource is not None
    ]
    steals = [a for a in seen if isinstance(a, A.StealCard)]
    draws = [a for a in seen if isinstance(a, A.DrawCard)]
    assert steals and draws and thief_saw  # the game had both, and the thieves saw the cards
    assert {a.resource for a in steals} == {None} and {a.card for a in draws} == {None}
    for seat, own in enumerate(table.sessions):
        (hand,) = own.view.possible_hands(seat)  # type: ignore[union-attr]  # a seat knows its own
        assert hand in session.view.possible_hands(seat)
    assert max(unsure_after_steal) > 1  # a stolen card left the thief's hand unknown to it
    assert all(not dealer.own_cards for dealer in session.decks.values())
    # ... and no seat secret is anywhere in its memory.
    secrets = [
        secret
        for s in table.sessions
        for secret in seat_secrets(s.chain.secret, s.game_keys.private_bytes)
    ]
    assert holds_any(spectator, secrets) == []
    assert table.sessions[1].chain.secret in holds_any(table.sessions[1], secrets)  # it would see
    # The audit makes everything public; the spectator checks it and signs nothing.
    for envelope in table.logs[0][cut:]:
        spectator.receive(envelope)
    assert spectator.done and spectator.result().audit == "passed"
    assert spectator.result().state_hash == table.sessions[0].view.public_hash()  # type: ignore[union-attr]


async def test_the_watch_screen_shows_the_public_game_at_both_sizes(
    finished_table: InProcessTable,
) -> None:
    from rich.console import Console
    from textual.app import App
    from textual.widgets import RichLog

    from hexlan.net.chat import sign_chat
    from hexlan.net.client import WatchGame
    from hexlan.tui.app import TableApp
    from hexlan.tui.screens.chat import ChatDialog
    from hexlan.tui.screens.watch import WatchScreen
    from hexlan.tui.widgets.dice import DiceChart
    from hexlan.tui.widgets.players import PlayersPanel

    table = finished_table
    spectator, _ = feed_from_host(table, 0)
    spectator.receive(
        lobby_envelope(
            SeatKeys.seeded(3, 0).identity,
            "spectators",
            ((("Eve", spectator.identity.public_bytes, spectator.identity.fingerprint),),),
        )
    )
    game = WatchGame(spectator)
    spectator.on_event = game.hear
    fed = 0
    while not game.is_started:  # the app shows the board once every seat has signed
        spectator.receive(table.logs[0][fed])
        fed += 1

    class Harness(App[None]):
        CSS_PATH = TableApp.CSS_PATH

        def on_mount(self) -> None:
            self.push_screen(WatchScreen(game))

    cut = first_audit_message(table) // 2  # mid-game: the table is on top
    app = Harness()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        for envelope in table.logs[0][fed:cut]:
            spectator.receive(envelope)
        await pilot.pause(0.3)  # one redraw interval and more: every move is on screen
        assert app.screen is screen and not game.is_over
        log = screen.query_one(RichLog)
        lines = [strip.text for strip in log.lines]
        text = "\n".join(lines)
        assert "stole a card from" in text and "bought a development card" in text
        # what the thief and the buyer saw is not what the spectator sees: a seat's line names
        # the card ("Cy stole a card from Ann: wool"), the spectator's never does
        said = [e.text for e in game.events if "stole a card" in e.text]
        assert said and not [text for text in said if ":" in text]
        assert not re.search(r"stole a card from \w+\s*:", text)
        assert "(you)" not in text and "You " not in text
        players = screen.query_one(PlayersPanel)
        console = Console(width=players.size.width, record=True, file=io.StringIO())
        console.print(players.render())
        standings = console.export_text()
        assert "watching: Eve" in standings and all(name in standings for name in NAMES)
        board = screen.query_one("#watch-board")
        side = screen.query_one("#watch-side")
        assert board.size.width > side.size.width and board.size.height >= 30
        chart = screen.query_one(DiceChart)  # the rolls so far against two fair dice
        assert chart.region.height >= 12 and f"{len(game.rolls)} rolls" in str(chart.render())
        # no key moves the game: a spectator has no seat
        before = len(game.events)
        await pilot.press("r", "e", "v", "s")
        assert len(game.events) == before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("-too-small")
        assert screen.query_one("#watch-board").size.width >= 40
        # the table chat reaches the spectator through the host (§18): `/` reads it, defused
        cy = SeatKeys.seeded(3, 2).identity
        spectator.receive(sign_chat(cy, spectator.session.game_id, 2, 0, "[b]gg\x1b[2J"))
        await pilot.press("slash")
        dialog = app.screen
        assert isinstance(dialog, ChatDialog)
        await pilot.pause(0.3)
        assert [s.text for s in dialog.query_one(RichLog).lines] == [f"{NAMES[2]}: [b]gg\\x1b[2J"]
        await pilot.press(*"hi", "enter")  # a spectator reads; its line is refused in words
        assert game.chat.heard == 1
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert screen.has_class("-too-small")


# ------------------------------------------------------------------------------ real processes


def watch_process(port: int, tmp_path: Path, name: str = "Eve") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *HEXLAN,
            "watch",
            f"127.0.0.1:{port}",
            "--json",
            "--name",
            name,
            "--identity",
            str(tmp_path / f"{name}.pem"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


SEATS = 2
"""The seats of the process tables: the host, which spectators watch through, and a joiner."""


def open_table(tmp_path: Path, *host_args: str) -> tuple[int, subprocess.Popen[str], list[Path]]:
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(SEATS)]
    host = start_bot(
        "--host",
        "--seats",
        str(SEATS),
        "--port",
        str(port),
        "--seed",
        "0",
        "--log",
        str(logs[0]),
        "--name",
        "Ann",
        *host_args,
    )
    wait_until_listening(port, host)
    return port, host, logs


def join_table(port: int, logs: list[Path], *args: str) -> list[subprocess.Popen[str]]:
    """The joiners; the first tells its news on stderr, any others are quiet."""
    return [
        start_bot(
            "--join",
            f"127.0.0.1:{port}",
            "--seed",
            str(i),
            "--log",
            str(logs[i]),
            *(["--quiet"] if i > 1 else []),
            *args,
        )
        for i in range(1, SEATS)
    ]


def wait_for_messages(path: Path, count: int, procs: list[subprocess.Popen[str]]) -> None:
    deadline = time.monotonic() + 60
    while len(read_messages(path)) < count:
        assert all(p.poll() is None for p in procs), "a process ended early"
        assert time.monotonic() < deadline, f"{path} never reached {count} messages"
        time.sleep(0.05)


def read_messages(path: Path) -> list[bytes]:
    try:
        return read_log(path).messages
    except (FileNotFoundError, ValueError):
        return []


@pytest.mark.slow
def test_a_spectator_follows_bot_processes_and_holds_no_secret(tmp_path: Path) -> None:
    port, host, logs = open_table(tmp_path)
    checked: list[int] = []

    async def watch() -> Spectator:
        def hear(event: WatchEvent) -> None:
            view = spectator.session.view if spectator.session is not None else None
            if checked or view is None or view.turn < 8 or view.is_over:
                return
            secrets = []
            for path in logs:  # each bot's secrets file, beside its log
                seat = load_secrets(secrets_path(path))
                secrets += seat_secrets(seat.chain_secret, seat.x25519_private)
            checked.append(len(holds_any(spectator, secrets)))

        spectator = Spectator(Identity.generate(), "Eve", "127.0.0.1", port, on_event=hear)
        joiners.extend(join_table(port, logs))
        async with asyncio.timeout(60):
            await spectator.run()
        return spectator

    joiners: list[subprocess.Popen[str]] = []
    try:
        spectator = asyncio.run(watch())
    finally:
        results = finish([host, *joiners], 60)
    finals = [last_json(out) for _, out, _ in results]
    result = spectator.result()
    assert {f["state_hash"] for f in finals} == {result.state_hash}
    assert {f["game_id"] for f in finals} == {result.game_id}
    assert result.audit == "passed" and result.winner == finals[0]["winner"]
    assert result.messages == len(read_log(logs[0]).messages)  # every message, each once
    assert checked == [0]  # mid-game, no seat's secret was anywhere in its memory
    assert "watching: Eve" in results[0][2]  # the host's table listed the spectator ...
    assert "watching through seat 0 (Ann): Eve" in results[0][2]  # ... and its game
    assert "watching through seat 0 (Ann): Eve" in results[1][2]  # told over the mesh
    assert [s.name for s in spectator.spectators] == ["Eve"]


@pytest.mark.slow
def test_a_spectator_killed_mid_game_and_restarted_catches_up(tmp_path: Path) -> None:
    port, host, logs = open_table(tmp_path)
    first = watch_process(port, tmp_path)
    joiners = join_table(port, logs, "--delay", "0.01")
    procs = [host, *joiners]
    try:
        wait_for_messages(logs[0], 300, procs)  # the deck is being dealt, the set-up played
        first.send_signal(signal.SIGKILL)
        first.wait()
        again = watch_process(port, tmp_path)  # the same identity, nothing kept
        (code, out, err), *seats = finish([again, *procs], 60)
    finally:
        for proc in (first, host, *joiners):
            if proc.poll() is None:
                proc.kill()
    assert code == 0, err[-2000:]
    watched = json.loads(out.strip().splitlines()[-1])
    finals = [last_json(seat_out) for _, seat_out, _ in seats]
    assert {f["state_hash"] for f in finals} == {watched["state_hash"]}
    assert watched["audit"] == "passed"
    assert watched["messages"] == len(read_log(logs[0]).messages)


@pytest.mark.slow
def test_a_table_without_spectators_refuses_one_in_one_line(tmp_path: Path) -> None:
    port, host, logs = open_table(tmp_path, "--no-spectators")
    early = watch_process(port, tmp_path)
    _, out, err = finish([early], 30)[0]
    assert early.returncode == 2 and out == ""
    assert err.strip().splitlines()[-1] == (
        "hexlan watch: the table refused to be watched: this table takes no spectators"
    )
    joiners = join_table(port, logs)
    try:
        wait_for_messages(logs[0], 50, [host, *joiners])
        late = watch_process(port, tmp_path, "Zed")  # the game runs: the host seat refuses
        _, _, late_err = finish([late], 30)[0]
        results = finish([host, *joiners], 60)
    finally:
        for proc in (host, *joiners):
            if proc.poll() is None:
                proc.kill()
    assert late.returncode == 2
    assert late_err.strip().splitlines()[-1] == (
        "hexlan watch: the table refused to be watched: this table takes no spectators"
    )
    assert "Traceback" not in err + late_err
    finals = [last_json(o) for _, o, _ in results]
    assert len({f["state_hash"] for f in finals}) == 1 and finals[0]["audit"] == "passed"


@pytest.mark.slow
async def test_the_watch_app_follows_bot_processes_from_the_lobby_to_the_end(
    tmp_path: Path,
) -> None:
    from textual.widgets import Static

    from hexlan.tui.app import WatchApp
    from hexlan.tui.screens.info import GameOverScreen
    from hexlan.tui.screens.lobby import NetOptions
    from hexlan.tui.screens.watch import WatchLobbyScreen, WatchScreen

    port, host, logs = open_table(tmp_path)
    options = NetOptions(
        name="Eve", identity_path=tmp_path / "eve.pem", address=f"127.0.0.1:{port}"
    )
    app = WatchApp(options)
    joiners: list[subprocess.Popen[str]] = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:

            async def until(condition: Any, seconds: float) -> bool:
                for _ in range(int(seconds / 0.05)):
                    if condition():
                        return True
                    await pilot.pause(0.05)
                return bool(condition())

            lobby = app.screen
            assert isinstance(lobby, WatchLobbyScreen)
            watchers = lobby.query_one("#lobby-watchers", Static)
            assert await until(lambda: "watching: Eve" in str(watchers.render()), 10)
            joiners.extend(join_table(port, logs))
            assert await until(lambda: isinstance(app.screen, WatchScreen), 90)
            assert await until(lambda: isinstance(app.screen, GameOverScreen), 60)
            spectator = app.spectator
            assert spectator is not None
            assert await until(lambda: spectator.done, 15)
        results = finish([host, *joiners], 30)
    finally:
        for proc in (host, *joiners):
            if proc.poll() is None:
                proc.kill()
    finals = [last_json(out) for _, out, _ in results]
    assert {f["state_hash"] for f in finals} == {spectator.result().state_hash}


@pytest.mark.parametrize(("spectators", "announce"), [(False, True), (True, False)])
def test_a_resumed_host_keeps_its_spectator_settings(
    tmp_path: Path, spectators: bool, announce: bool
) -> None:
    """`--no-spectators` and the LAN announcement are local choices in no signed message: the
    host seat's log notes them, so `hexlan resume` serves (or refuses) spectators as before."""
    keys = [SeatKeys.seeded(7, seat) for seat in range(2)]
    opening = make_opening(["Ann", "Bob"], keys, created=0)
    log = tmp_path / "ann.log"
    host = Peer(
        0,
        keys[0].identity,
        opening,
        keys[0].chain,
        keys[0].game_keys,
        log,
        spectators=spectators,
        announce=announce,
    )
    assert (host.serve_spectators, host.announce_game) == (spectators, announce)
    host.close()
    key = tmp_path / "ann.pem"
    key.write_bytes(keys[0].identity.to_pem())
    resumed = Peer.resume(log, key)
    assert (resumed.serve_spectators, resumed.announce_game) == (spectators, announce)
    resumed.close()
    joiner = Peer(
        1, keys[1].identity, opening, keys[1].chain, keys[1].game_keys, tmp_path / "bob.log"
    )
    assert not joiner.serve_spectators  # spectators watch through the host (§17)
    joiner.close()
