"""Networked peers end to end (net/peer.py, `hexlan bot`, `hexlan resume`): real processes on
127.0.0.1 play whole games over the TCP mesh and agree; a peer killed with SIGKILL and resumed
from its log finishes the game without any equivocation; bots left with a dead seat abandon the
game together; bad arguments give exit code 2 and a clear message, never a traceback. Then one
peer without a mesh: nothing is sent before its log is synced, an equivocation stops the game
and is kept, a forgery is kept as evidence."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ports import free_port

from hexlan.engine.core import IllegalActionError
from hexlan.net import log as log_module
from hexlan.net.log import GameLog, load_secrets, read_log, secrets_path
from hexlan.net.wire import Envelope

TIMEOUT = 120.0
HEXLAN = [sys.executable, "-m", "hexlan"]


def start_bot(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*HEXLAN, "bot", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_until_listening(port: int, proc: subprocess.Popen[str]) -> None:
    """Return once something accepts TCP connections on ``port`` of 127.0.0.1 (the host's
    table is open); fail if ``proc`` exits first or nothing listens within :data:`TIMEOUT`."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        assert proc.poll() is None, proc.communicate()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on port {port}"
            time.sleep(0.02)


def start_table(tmp_path: Path, seats: int = 4) -> tuple[list[subprocess.Popen[str]], list[Path]]:
    """A host and ``seats - 1`` joiners, each with its own seed and log."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(seats)]
    host = ["--host", "--seats", str(seats), "--port", str(port)]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]))]
    wait_until_listening(port, procs[0])  # the table is open before anyone knocks
    for i in range(1, seats):
        procs.append(
            start_bot("--join", f"127.0.0.1:{port}", "--seed", str(i), "--log", str(logs[i]))
        )
    return procs, logs


def message_count(path: Path) -> int:
    """Messages in a log being written by another process (-1 before it can be read: a
    reader may catch an append half done)."""
    try:
        return len(read_log(path).messages)
    except (FileNotFoundError, ValueError):
        return -1


def finish(
    procs: list[subprocess.Popen[str]], seconds: float = TIMEOUT
) -> list[tuple[int, str, str]]:
    """Each process's exit code, stdout and stderr, waiting ``seconds`` in all; any still
    running then is killed."""
    deadline = time.monotonic() + seconds
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            results.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def last_json(out: str) -> dict[str, Any]:
    lines = out.strip().splitlines()
    assert lines, "no output on stdout"
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def verify_cli(
    logs: list[Path], *flags: str, timeout: float = TIMEOUT
) -> subprocess.CompletedProcess[str]:
    """``hexlan verify [flags] LOGS`` in a process of its own (up to ``timeout`` seconds); its
    exit code must be 0.

    Returns the finished process (its ``stdout`` holds the report)."""
    run = subprocess.run(
        [*HEXLAN, "verify", *flags, *map(str, logs)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run


def assert_agreement(results: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    for code, _, err in results:
        assert code == 0, err[-3000:]
    finals = [last_json(out) for _, out, _ in results]
    assert {f["game_id"] for f in finals} == {finals[0]["game_id"]}
    assert {f["winner"] for f in finals} == {finals[0]["winner"]}
    assert {f["state_hash"] for f in finals} == {finals[0]["state_hash"]}
    assert finals[0]["winner"] in range(len(finals))
    assert len(finals[0]["state_hash"]) == 64
    assert sorted(f["seat"] for f in finals) == list(range(len(finals)))
    return finals


def assert_no_equivocation(logs: list[Path]) -> None:
    for path in logs:
        contents = read_log(path)
        assert contents.equivocations == [], path
        assert not [e for e in contents.evidence if "equivocat" in e.reason.lower()], path
        assert not [n for n in contents.notes if "stopped" in n], (path, contents.notes)


def verify_or_skip(logs: list[Path]) -> None:
    try:
        from hexlan.net.verify import verify_logs
    except ImportError as exc:
        pytest.skip(f"net/verify.py is not available yet ({exc}); the peers agreed")
    report = verify_logs(logs)
    assert report.exit_code == 0, [(r.path, r.violations) for r in report.logs]


# ------------------------------------------------------------------------------ whole games


@pytest.mark.slow
def test_four_bot_processes_finish_one_game_and_agree(tmp_path: Path) -> None:
    procs, logs = start_table(tmp_path)
    results = finish(procs)
    finals = assert_agreement(results)
    assert [Path(f["log"]) for f in sorted(finals, key=lambda f: f["log"])] == sorted(logs)
    # Bots left unnamed are told apart by their keys: "heuristic bot 3f2a [3f2a-...]".
    table = [line for line in results[0][2].splitlines() if line.startswith("hexlan: table 4/4: ")]
    names = re.findall(r"(heuristic bot [0-9a-f]{4}) \[", table[-1])
    assert len(set(names)) == 4, table
    for path in logs:
        contents = read_log(path)
        assert "peer: bot heuristic" in contents.notes
        assert len(contents.messages) > 100
        assert (path.parent / (path.name + ".secrets")).stat().st_mode & 0o777 == 0o600
        assert (path.parent / (path.name + ".identity.pem")).stat().st_mode & 0o777 == 0o600
    assert_no_equivocation(logs)
    # The end-of-game audit passed and was signed on every peer (PROTOCOL.md §14) ...
    assert [f["audit"] for f in finals] == ["passed"] * 4
    for path in logs:
        notes = read_log(path).notes
        assert any(n.startswith("audit: the audit passed") for n in notes), notes
        kinds = [Envelope.parse(m).body.kind for m in read_log(path).messages]
        assert kinds.count("audit_result") == 4 and kinds.count("shuffle") == 4
    # ... and `hexlan verify --stats` passes every log and gives the distributions.
    run = verify_cli(logs, "--stats")
    assert run.stdout.count("audit passed and signed by every seat") == 4
    assert "fairness over 1 game:" in run.stdout
    assert "dice totals (n = " in run.stdout and "development-card draws (n = " in run.stdout


@pytest.mark.slow
def test_a_peer_killed_and_resumed_finishes_the_game(tmp_path: Path) -> None:
    seed = os.environ.get("HEXLAN_KILL_SEED", "0")  # another seed kills elsewhere
    rng = random.Random(seed)
    seats = 3  # a kill and a resume: the table size is not the point, a shorter game is
    victim, after = rng.randrange(seats), rng.randrange(100, 500)
    context = f"peer {victim} killed after {after} messages (HEXLAN_KILL_SEED={seed})"
    procs, logs = start_table(tmp_path, seats)
    deadline = time.monotonic() + TIMEOUT
    try:
        # ``victim`` is a process (its seat follows the joining order), known by its log.
        while True:
            assert time.monotonic() < deadline, context
            assert procs[victim].poll() is None, (context, procs[victim].communicate())
            if message_count(logs[victim]) > after:
                break
            time.sleep(0.01)
        procs[victim].send_signal(signal.SIGKILL)
        procs[victim].wait()
        killed_at = len(read_log(logs[victim]).messages)
        time.sleep(rng.uniform(0.1, 1.0))  # the others notice and wait for it
        procs[victim] = subprocess.Popen(
            [*HEXLAN, "resume", str(logs[victim])],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    except BaseException:
        finish(procs)
        raise
    results = finish(procs)
    finals = assert_agreement(results)
    contents = read_log(logs[victim])
    assert f"resumed after {killed_at} messages" in contents.notes, (context, contents.notes)
    assert len(contents.messages) > killed_at
    assert "resumed seat" in results[victim][2]
    assert_no_equivocation(logs)
    assert finals[victim]["log"] == str(logs[victim])
    verify_or_skip(logs)


@pytest.mark.slow
@pytest.mark.parametrize(("when", "messages"), [("set-up", 4), ("play", 200)])
def test_bots_abandon_a_game_whose_seat_is_gone(tmp_path: Path, when: str, messages: int) -> None:
    """A bot process is killed, while the decks are set up (its 4th message logged: its deck
    key share or shuffle at most, PROTOCOL.md §13) or in play; the two live bots name it alone
    and abandon the game by it, never each other (a set-up kill once made a live bot's stall
    list name the other live bot too: the §4 activation race, tests/test_stall_blame.py)."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(3)]
    abandon = ("--abandon-after", "1", "--quiet")
    procs = [
        start_bot("--host", "--seats", "3", "--port", str(port), "--log", str(logs[0]), *abandon)
    ]
    wait_until_listening(port, procs[0])
    for i in (1, 2):
        procs.append(start_bot("--join", f"127.0.0.1:{port}", "--log", str(logs[i]), *abandon))
    deadline = time.monotonic() + TIMEOUT
    try:
        while message_count(logs[2]) < messages:
            assert time.monotonic() < deadline and procs[2].poll() is None
            time.sleep(0.01)
    except BaseException:
        finish(procs)
        raise
    procs[2].kill()
    procs[2].wait()
    if when == "set-up":  # it died before every seat's shuffle proof was in
        kinds = [Envelope.parse(m).body.kind for m in read_log(logs[2]).messages]
        assert kinds.count("shuffle_proof") < 3, kinds
    results = finish(procs[:2])
    for code, _, err in results:
        assert code == 0, err
    finals = [last_json(out) for _, out, _ in results]
    seat = load_secrets(secrets_path(logs[2])).seat  # the dead process's seat
    assert [f["abandoned"] for f in finals] == [[seat], [seat]], finals
    assert [f["winner"] for f in finals] == [None, None]
    assert finals[0]["state_hash"] == finals[1]["state_hash"]


# ------------------------------------------------------------------------------ bad input


def run_cli(*args: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HEXLAN, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def assert_clean_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def test_bad_join_address_is_a_usage_error() -> None:
    assert_clean_error(run_cli("bot", "--join", "nonsense"), "HOST:PORT", "nonsense")
    assert_clean_error(run_cli("bot", "--join", "127.0.0.1:99999"), "HOST:PORT")


def test_host_or_join_exactly_once() -> None:
    assert_clean_error(run_cli("bot"), "exactly one of --host and --join")
    assert_clean_error(run_cli("bot", "--host", "--join", "h:1"), "exactly one of")
    assert_clean_error(run_cli("bot", "--join", "h:1", "--seats", "3"), "--seats is for --host")
    assert_clean_error(run_cli("bot", "--host", "--strategy", "genius"), "unknown bot 'genius'")


def test_unreachable_host_exits_2() -> None:
    port = free_port()  # nobody listens there
    result = run_cli("bot", "--join", f"127.0.0.1:{port}", "--quiet")
    assert_clean_error(result, f"cannot reach 127.0.0.1:{port}", "refused")
    assert result.stdout == ""


def test_a_port_in_use_exits_2() -> None:
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        port = sock.getsockname()[1]
        result = run_cli("bot", "--host", "--port", str(port), "--quiet")
    assert_clean_error(result, f"cannot listen on port {port}", "in use")


def test_resume_needs_a_readable_log(tmp_path: Path) -> None:
    assert_clean_error(run_cli("resume", str(tmp_path / "missing.log")), "no log at")
    junk = tmp_path / "junk.log"
    junk.write_bytes(b"PK\x03\x04")
    assert_clean_error(run_cli("resume", str(junk)), "not a hexlan log")
    person = tmp_path / "person.log"
    with GameLog.create(person, [1, "0", [], [], "beginner", 0]) as log:
        log.append_note("peer: human")
    # A person's seat goes back to the table; a log that cannot be resumed says why first.
    assert_clean_error(run_cli("resume", str(person)), "unreadable opening")
    local = tmp_path / "play.log"
    with GameLog.create(local, [1, "0", [], [], "beginner", 0]) as log:
        log.append_note("peer: human (hexlan play: every seat in one process)")
    assert_clean_error(run_cli("resume", str(local)), "is a local game")
    # With a strategy a bot takes the seat, and fails on the (empty) opening the same way.
    assert_clean_error(run_cli("resume", str(person), "--strategy", "random"), "unreadable opening")


def test_help_does_not_load_the_network_stack() -> None:
    code = (
        "import sys; from hexlan.cli import main\n"
        "try:\n    main(['bot', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'cryptography', "
        "'msgpack', 'asyncio_dgram'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


# ------------------------------------------------------------------------------ group commit


def test_messages_written_unsynced_are_made_durable_by_one_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    with GameLog.create(tmp_path / "g.log", [1, "0", [], [], "beginner", 0]) as log:
        monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
        monkeypatch.setattr(log_module, "_datasync", os.fsync)
        for i in range(5):
            log.append_message(bytes([0x92, 0xC4, 1, i, 0xC4, 1, i]), sync=False)
        assert synced == []
        log.sync()
        assert len(synced) == 1
        log.append_message(b"\x92\xc4\x01a\xc4\x01b")  # the default still syncs each append
        assert len(synced) == 2
    assert len(read_log(tmp_path / "g.log").messages) == 6


# ------------------------------------------------------------------------------ one peer, no mesh


def two_seats(tmp_path: Path) -> tuple[Any, Any, Any]:
    """Seat 0 as a :class:`Peer` (not running) and seat 1 as a bare session, same opening."""
    from hexlan.net.inproc import SeatKeys, make_opening
    from hexlan.net.peer import Peer
    from hexlan.net.session import Session

    keys = [SeatKeys.seeded(5, seat) for seat in range(2)]
    opening = make_opening(["Ann", "Bob"], keys, created=0)
    events: list[Any] = []
    peer = Peer(
        0,
        keys[0].identity,
        opening,
        keys[0].chain,
        keys[0].game_keys,
        tmp_path / "ann.log",
        on_event=events.append,
        kind="human",
    )
    other = Session(1, keys[1].identity, opening, keys[1].chain, keys[1].game_keys)
    return peer, other, events


def sends(effects: list[Any]) -> list[bytes]:
    from hexlan.net.effects import Send

    return [e.envelope for e in effects if isinstance(e, Send)]


def test_nothing_is_sent_before_the_log_is_synced(tmp_path: Path) -> None:
    peer, other, _ = two_seats(tmp_path)
    peer._flushing = True  # as while running: syncs happen in the background
    peer._perform(peer.session.start(0.0))
    assert peer._written == 2 and peer._synced == 0  # the opening and the deck key share
    assert list(peer._outbox) == []  # both wait for their sync
    for data in sends(other.start(0.0)):
        peer.deliver(data, 1)
    assert list(peer._outbox) == []
    peer._sync_now()
    assert peer._synced == peer._written >= 2
    assert len(peer._outbox) >= 1
    assert read_log(tmp_path / "ann.log").messages[0] == peer._outbox[0]
    peer.close()


def test_an_equivocation_stops_the_game_and_is_kept(tmp_path: Path) -> None:
    from dataclasses import replace

    from hexlan.net.inproc import SeatKeys
    from hexlan.net.wire import Envelope, sign_body

    peer, other, events = two_seats(tmp_path)
    peer._perform(peer.session.start(0.0))
    opening_msg, _key_share = sends(other.start(0.0))
    peer.deliver(opening_msg, 1)
    body = Envelope.parse(opening_msg).body
    # The same message number, now claiming to have seen seat 0's opening: another body.
    twin = sign_body(
        replace(body, heads=(peer.session.heads()[0], body.heads[1])),
        SeatKeys.seeded(5, 1).identity,
    )
    peer.deliver(twin.to_bytes(), 1)
    assert peer.session.stopped is not None
    assert peer.result().stopped == peer.session.stopped.reason
    peer.close()
    contents = read_log(tmp_path / "ann.log")
    assert len(contents.equivocations) == 1
    assert any(
        n.startswith("stopped: seat 1 signed two different messages") for n in contents.notes
    )
    assert any(e.kind == "stopped" and "seat 1 (Bob)" in e.text for e in events)


def test_a_forged_message_is_refused_and_kept_as_evidence(tmp_path: Path) -> None:
    from hexlan.net.identity import Identity
    from hexlan.net.wire import Envelope, sign_body

    peer, other, events = two_seats(tmp_path)
    opening_msg, _key_share = sends(other.start(0.0))
    forged = sign_body(Envelope.parse(opening_msg).body, Identity.generate()).to_bytes()
    peer.deliver(forged, 1)
    peer.deliver(forged, 1)  # resent byte for byte (a link that reopens, a stall): kept once
    assert peer.session.stopped is None
    other_forgery = sign_body(Envelope.parse(opening_msg).body, Identity.generate()).to_bytes()
    peer.deliver(other_forgery, 1)
    peer.close()
    kept = read_log(tmp_path / "ann.log").evidence
    assert [e.envelope for e in kept] == [forged, other_forgery]
    assert all("does not verify" in e.reason for e in kept)
    assert len([e for e in events if e.kind == "rejected"]) == 2


class RecordingMesh:
    """The part of a :class:`~hexlan.net.transport.Mesh` that a peer's resends use."""

    def __init__(self, connected: set[int]) -> None:
        self.connected = connected
        self.sent: list[tuple[int, bytes]] = []

    def connected_seats(self) -> set[int]:
        return set(self.connected)

    async def send_to(self, seat: int, envelope_bytes: bytes) -> bool:
        self.sent.append((seat, envelope_bytes))
        return True


def test_a_gone_seats_messages_are_sent_on_at_once_and_once(tmp_path: Path) -> None:
    """A seat not connected here may have reached only some seats before it went: what another
    seat's latest message shows it lacks of it is sent on at every tick, not only in a stall,
    each message once; in a stall (or at the end) everything a seat lacks is sent (§8)."""
    import asyncio

    from hexlan.net.inproc import SeatKeys, make_opening
    from hexlan.net.peer import Peer
    from hexlan.net.session import Session

    keys = [SeatKeys.seeded(7, seat) for seat in range(3)]
    opening = make_opening(["Ann", "Bob", "Cy"], keys, created=0)
    peer = Peer(0, keys[0].identity, opening, keys[0].chain, keys[0].game_keys, tmp_path / "a.log")
    bob, cy = (
        Session(s, keys[s].identity, opening, keys[s].chain, keys[s].game_keys) for s in (1, 2)
    )
    peer._perform(peer.session.start(0.0))
    for data in sends(cy.start(0.0)):  # Cy has seen nothing of Bob's
        peer.deliver(data, 2)
    bobs = sends(bob.start(0.0))
    for data in bobs:
        peer.deliver(data, 1)
    assert [e.to_bytes() for e in peer.session.accepted[1]] == bobs
    mesh = RecordingMesh({1, 2})
    peer.mesh = mesh  # type: ignore[assignment]
    asyncio.run(peer._anti_entropy(everything=False))
    assert mesh.sent == []  # Bob is here: he sends his own
    mesh.connected = {2}  # Bob is gone
    asyncio.run(peer._anti_entropy(everything=False))
    assert mesh.sent == [(2, data) for data in bobs]
    mesh.sent.clear()
    asyncio.run(peer._anti_entropy(everything=False))
    assert mesh.sent == []  # once
    asyncio.run(peer._anti_entropy())  # a stall: all Cy lacks, this seat's own messages too
    own = [e.to_bytes() for e in peer.session.accepted[0]]
    assert mesh.sent == [(2, data) for data in own + bobs]
    peer.close()


def test_abandoning_a_stalled_game_ends_it(tmp_path: Path) -> None:
    peer, other, events = two_seats(tmp_path)
    peer._perform(peer.session.start(0.0))
    for data in sends(other.start(0.0)):
        peer.deliver(data, 1)
    with pytest.raises(IllegalActionError, match="can be left behind after"):
        peer.abandon([1])  # seat 1 owes its first reveal, but not for long enough yet
    peer.clock = lambda: 1e9  # the stall timeout has passed
    peer.abandon([1])  # the only other seat: this seat's signature is every remaining one
    assert peer.is_over and peer.session.stopped is None
    result = peer.result()
    assert result.abandoned == (1,) and result.winner is None
    assert result.to_json()["abandoned"] == [1]
    peer.close()
    contents = read_log(tmp_path / "ann.log")
    assert "abandoned: every other seat signed that seat 1 (Bob) left" in contents.notes
    assert any(e.kind == "abandoned" for e in events)


def test_a_resumed_seat_narrates_the_game_so_far(tmp_path: Path) -> None:
    """`hexlan resume` puts a person back at the table with the whole game in the log panel."""
    from hexlan.net.client import NetworkGame
    from hexlan.net.peer import Peer

    peer, other, _ = two_seats(tmp_path)
    live = NetworkGame(peer)  # the screen's client, narrating as messages arrive
    peer._perform(peer.session.start(0.0))
    for data in sends(other.start(0.0)):
        peer.deliver(data, 1)
    for _ in range(6):  # pass messages both ways until the set-up is under way
        for data in read_log(tmp_path / "ann.log").messages:
            other.receive(data)
        for data in other.messages():
            peer.deliver(data, 1)
    before = list(live.events)
    assert before and before[0].kind == "start" and "the set-up" in before[0].text
    peer.close()
    key = tmp_path / "ann.pem"
    key.write_bytes(peer.session.identity.to_pem())
    resumed = Peer.resume(tmp_path / "ann.log", key)
    game = NetworkGame(resumed)
    assert [e.text for e in game.events] == [e.text for e in before]
    resumed.close()


# ------------------------------------------------------------------------------ a cheating seat


class _Silent:
    """The mesh handler of a scripted seat: it takes nothing and holds nothing."""

    def __init__(self, players: int) -> None:
        self.players = players

    def deliver(self, envelope_bytes: bytes, from_seat: int) -> None:
        """Ignore every envelope."""

    def heads(self) -> list[list[Any]]:
        return [[-1, bytes(32)] for _ in range(self.players)]

    def missing_for(self, their_heads: Any) -> list[bytes]:
        return []


def _cheated_game(
    tmp_path: Path,
    script: Any,
    *,
    abandon_after: float | None = None,
    timeout: float = 60.0,
) -> tuple[list[Any], list[list[Any]], list[Path]]:
    """Seats 0 and 1 are bot :class:`Peer` s on real TCP (127.0.0.1); seat 2 is a bare mesh
    run by ``script(mesh, sign, opening)`` (``sign(seq, prev, kind, payload) -> bytes`` signs
    as seat 2). Returns both peers' results, their events and their logs."""
    import asyncio
    from dataclasses import replace

    from hexlan.engine.bots import make_bot
    from hexlan.net.inproc import SeatKeys, make_opening
    from hexlan.net.peer import Peer
    from hexlan.net.transport import Mesh
    from hexlan.net.wire import PROTOCOL_VERSION, Body, sign_body

    keys = [SeatKeys.seeded(9, seat) for seat in range(3)]
    base = make_opening(["Ann", "Bob", "Cy"], keys, created=0)
    ports = [free_port() for _ in range(3)]
    seats = tuple(
        replace(info, host="127.0.0.1", port=port)
        for info, port in zip(base.seats, ports, strict=True)
    )
    opening = replace(base, seats=seats)
    events: list[list[Any]] = [[], []]
    logs = [tmp_path / f"seat{seat}.log" for seat in range(2)]
    peers = [
        Peer(
            seat,
            keys[seat].identity,
            opening,
            keys[seat].chain,
            keys[seat].game_keys,
            logs[seat],
            decide=make_bot("heuristic", random.Random(seat)).choose,
            on_event=events[seat].append,
            listen_host="127.0.0.1",
            kind="bot heuristic",
        )
        for seat in range(2)
    ]
    for peer in peers:
        peer.abandon_after = abandon_after

    def sign(seq: int, prev: bytes, kind: str, payload: tuple[Any, ...]) -> bytes:
        heads = ((-1, bytes(32)), (-1, bytes(32)), (seq - 1, prev) if seq else (-1, bytes(32)))
        body = Body(PROTOCOL_VERSION, opening.game_id, 2, seq, prev, heads, kind, payload)
        return sign_body(body, keys[2].identity.private_key).to_bytes()

    async def main() -> list[Any]:
        mesh = Mesh(
            2,
            keys[2].identity,
            opening.game_id,
            {s: info.public_key for s, info in enumerate(seats)},
            "127.0.0.1",
            ports[2],
            {},
            _Silent(3),
        )
        await mesh.start()
        try:
            runs = [asyncio.create_task(peer.run()) for peer in peers]
            assert await mesh.wait_connected(timeout=timeout)
            await script(mesh, sign, opening)
            async with asyncio.timeout(timeout):
                return list(await asyncio.gather(*runs))
        finally:
            await mesh.close()

    return asyncio.run(main()), events, logs


def test_a_fork_seen_through_heads_is_proven_over_tcp(tmp_path: Path) -> None:
    """Seat 2 signs two bodies as its message 1, one for each peer. Seat 0 orders its body;
    seat 1 sees conflicting heads and shows its body; both peers end naming seat 2, each log
    holding both bodies as an equivocation record."""
    from hexlan.net.wire import Envelope

    bodies: list[bytes] = []

    async def script(mesh: Any, sign: Any, opening: Any) -> None:
        first = sign(0, bytes(32), "sign_opening", (opening.to_payload(),))
        prev = Envelope.parse(first).id
        bodies.extend(sign(1, prev, "present", (bytes([n]) * 32,)) for n in (1, 2))
        for seat in (0, 1):
            await mesh.send_to(seat, first)
        await mesh.send_to(0, bodies[0])
        await mesh.send_to(1, bodies[1])

    results, events, logs = _cheated_game(tmp_path, script)
    for seat, result in enumerate(results):
        assert result.stopped is not None, seat
        assert "seat 2 signed two different messages as number 1" in result.stopped, seat
        records = read_log(logs[seat]).equivocations
        assert any(set(e.envelopes()) == set(bodies) for e in records), seat
        assert any(e.kind == "stopped" and "seat 2 (Cy)" in e.text for e in events[seat])


def test_a_chain_breaking_seat_is_named_in_the_stall_over_tcp(tmp_path: Path) -> None:
    """Seat 2's message 1 does not continue its chain: both peers report the stall naming seat
    2 and the message, then leave it behind (it still owes its deck key)."""

    async def script(mesh: Any, sign: Any, opening: Any) -> None:
        first = sign(0, bytes(32), "sign_opening", (opening.to_payload(),))
        broken = sign(1, b"\x33" * 32, "present", (bytes(32),))
        for seat in (0, 1):
            await mesh.send_to(seat, first)
            await mesh.send_to(seat, broken)

    results, events, _ = _cheated_game(tmp_path, script, abandon_after=6.0)
    for seat, result in enumerate(results):
        assert result.abandoned == (2,), (seat, result)
        stalls = [e.text for e in events[seat] if e.kind == "stall" and e.author == 2]
        assert any("seat 2's message 1 breaks its hash chain" in t for t in stalls), stalls


def test_a_bot_peer_whose_submit_fails_unexpectedly_reports_it_and_plays_on(
    tmp_path: Path,
) -> None:
    """Seat 0's session fails to sign its bot's first decision with a ValueError (a bug, not
    an illegal action): its peer reports one ``error`` line (an event, a note of its log), does
    not die, and the bot decides again; two bot peers on real TCP (127.0.0.1) finish the
    game, both with the same winner."""
    import asyncio
    from dataclasses import replace

    from hexlan.engine.bots import make_bot
    from hexlan.net.inproc import SeatKeys, make_opening
    from hexlan.net.peer import Peer

    keys = [SeatKeys.seeded(11, seat) for seat in range(2)]
    base = make_opening(["Ann", "Bob"], keys, created=0)
    seats = tuple(replace(info, host="127.0.0.1", port=free_port()) for info in base.seats)
    opening = replace(base, seats=seats)
    events: list[list[Any]] = [[], []]
    logs = [tmp_path / f"seat{seat}.log" for seat in range(2)]
    peers = [
        Peer(
            seat,
            keys[seat].identity,
            opening,
            keys[seat].chain,
            keys[seat].game_keys,
            logs[seat],
            decide=make_bot("heuristic", random.Random(seat)).choose,
            on_event=events[seat].append,
            listen_host="127.0.0.1",
            kind="bot heuristic",
        )
        for seat in range(2)
    ]
    session = peers[0].session
    real_submit = session.submit
    failed: list[Any] = []

    def submit_failing_once(action: Any, now: float = 0.0) -> Any:
        if not failed:
            failed.append(action)
            raise ValueError("a bug in signing\nsecond line")
        return real_submit(action, now)

    session.submit = submit_failing_once  # type: ignore[method-assign]

    async def main() -> list[Any]:
        runs = [asyncio.create_task(peer.run()) for peer in peers]
        async with asyncio.timeout(TIMEOUT):
            return list(await asyncio.gather(*runs))

    results = asyncio.run(main())
    assert failed, "seat 0's bot never decided"
    errors = [e for e in events[0] if e.kind == "error"]
    assert len(errors) == 1, errors
    assert "\n" not in errors[0].text and "Traceback" not in errors[0].text
    assert "ValueError: a bug in signing second line" in errors[0].text
    assert errors[0].author == 0
    assert any(n.startswith("error: ") for n in read_log(logs[0]).notes)
    for seat, result in enumerate(results):
        assert result.stopped is None and result.abandoned is None, (seat, result)
        assert result.winner is not None, (seat, result)
    assert results[0].winner == results[1].winner
    signed_after = [e for e in events[0] if e.kind == "signed" and e.time >= errors[0].time]
    assert signed_after, "seat 0 made no decision after the failure"


def test_a_person_whose_submit_fails_unexpectedly_gets_a_refusal(tmp_path: Path) -> None:
    """A person's decision (``Peer.submit``, the screen's path) whose signing fails with an
    unexpected error is refused as an IllegalActionError with the one-line reason (the screen
    shows it as a refusal, no traceback), reported as an ``error`` event; the peer goes on."""
    from hexlan.engine import actions as A

    peer, _other, events = two_seats(tmp_path)

    def failing(action: Any, now: float = 0.0) -> Any:
        raise KeyError("oops")

    peer.session.submit = failing  # type: ignore[method-assign]
    with pytest.raises(IllegalActionError, match=r"could not sign its decision .*KeyError"):
        peer.submit(A.END_TURN)
    assert [e.kind for e in events] == ["error"]
    peer.close()
