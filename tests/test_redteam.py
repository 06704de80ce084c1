"""Red-team seats (`hexlan bot --cheat KIND [--cheat-at N]`; net/cheats.py, net/redteam.py).

Every kind is played twice over: in process, where a :class:`~hexlan.net.redteam.Cheat` is
installed on one seat of a seeded :class:`test_session.Table` exactly as `hexlan bot` installs
it on its peer's session, and the honest sessions' stops, stalls and logs (read by
`hexlan verify`) are checked seat by seat; and with real processes, one 2-seat table per kind
over TCP on 127.0.0.1 (several tables at once), where the honest bot's JSON line, its stderr and
`hexlan verify` on its log must name the cheating seat. Then the command line: `--cheat list`,
bad kinds and counts.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner
from test_session import Table

from hexlan.cli import main
from hexlan.net.cheats import CHEATS, cheat_lines, check_cheat
from hexlan.net.effects import Rejected, Stopped
from hexlan.net.log import GameLog, load_secrets, read_log, secrets_path
from hexlan.net.peer import MAX_EVIDENCE
from hexlan.net.redteam import Cheat
from hexlan.net.session import AUTOMATIC_TIMEOUT
from hexlan.net.verify import EXIT_INVALID, EXIT_UNFINISHED, EXIT_VALID, verify_logs
from hexlan.net.wire import Envelope

HEXLAN = [sys.executable, "-m", "hexlan"]
WITHHOLDING = sorted(name for name, kind in CHEATS.items() if kind.withholds)
CHEATER = 1
# Kinds that deviate during the set-up are cheap enough to show every honest seat of three
# catching them; the others play 2-seat games (fewer seats, shorter games).
# Cities & Knights kinds play three seats, the fewest it takes.
THREE_SEATS = {"equivocate", "forge", "replay", "swap-shuffle", "withhold-reveal"} | {
    name for name, kind in CHEATS.items() if kind.game is not None
}
AFTER_THE_WIN = {"withhold-audit", "false-head"}
"""Withholding kinds whose step comes once the game is won: the game stays unaudited."""
ACCUSED = {"false-hash", "lie-commit", "lie-offer"}
"""Kinds an honest seat accuses (§11.1): the stop is the verdict of the audit of the game so
far, after every seat published its secrets."""
# What each stop says (the honest seats' ``Stopped.reason``), with {s} the cheating seat.
STOP_WORDS = {
    "equivocate": "seat {s} signed two different messages as number",
    "replay": "seat {s}'s reveal for event {n} does not hash to its chain",
    "false-share": "seat {s}'s decryption share",
    "swap-shuffle": "seat {s}'s shuffle proof fails",
    "false-steal": "seat {s} opened a card it had not committed to",
    "undealt-card": "seat {s} played Knight without revealing one it drew",
    "missing-commodity": "seat {s}: ",  # then the track, its level and its cost
    "undealt-discard": "seat {s} discarded ",  # then the card's name
    "false-hash": "seat {s} acknowledged a public state the game never reached",
    "lie-commit": "seat {s} committed to a hand it did not hold",
    "lie-offer": "seat {s} does not hold the cards it offers",
    "spy-forge": "seat {s}'s spy_open",
    "spy-spent": "seat {s} took a card already played",
}


# ---------------------------------------------------------------------------- in process


def play_out(table: Table, max_steps: int = 3000) -> None:
    """Let the bots play until the game is over or stopped anywhere, or nobody may move (a
    seat withholds a step: the table stalls)."""
    for _ in range(max_steps):
        sessions = table.sessions
        if any(s.stopped for s in sessions) or all(s.is_over for s in sessions):
            table.pump()
            return
        due = [s.seat for s in sessions if not s.is_over and s.decision_due()]
        if not due:
            return
        seat = due[0]
        table.act(seat, table.bots[seat].choose(sessions[seat].view, seat))
    raise AssertionError(f"no end after {max_steps} decisions")


def cheating_table(kind: str, at: int = 1, first_seed: int = 300) -> tuple[Table, Cheat]:
    """The first seeded table from ``first_seed`` on whose cheating seat gets to deviate,
    played until it ends, stops or stalls."""
    players = 3 if kind in THREE_SEATS else 2
    for seed in range(first_seed, first_seed + 12):
        table = Table(players, seed=seed, game=CHEATS[kind].game or "base")
        cheat = Cheat(kind, at)
        cheat.install(table.sessions[CHEATER])
        table.now = 100.0
        table.start()
        play_out(table)
        if cheat.done:
            return table, cheat
    raise AssertionError(f"no seeded game from {first_seed} on lets seat {CHEATER} play {kind}")


def honest(table: Table) -> list[int]:
    return [s for s in range(len(table.sessions)) if s != CHEATER]


def write_log(path: Path, table: Table, seat: int) -> Path:
    """``seat``'s log as its :class:`~hexlan.net.peer.Peer` would have written it: its
    messages, then what it refused and why it stopped, kept as evidence."""
    with GameLog.create(path, table.opening.to_payload()) as log:
        for data in table.logs[seat]:
            log.append_message(data)
        for effect in table.effects[seat]:
            if isinstance(effect, Rejected):
                log.append_evidence(effect.reason, effect.envelope)
            elif isinstance(effect, Stopped):
                bodies = [Envelope.parse(e).body for e in effect.evidence]
                twins = len(bodies) == 2 and (bodies[0].author, bodies[0].seq) == (
                    bodies[1].author,
                    bodies[1].seq,
                )
                if twins:
                    log.append_equivocation(*effect.evidence)
                else:
                    for data in effect.evidence:
                        log.append_evidence(effect.reason, data)
    return path


def check_withheld(table: Table, cheat: Cheat, tmp_path: Path) -> None:
    """The table stalls on the cheating seat alone; every honest seat's stall check names it,
    they abandon the game together, and `hexlan verify` on each log names the step it owed
    (or, after a win, the seat whose audit secrets are missing)."""
    assert not any(s.stopped for s in table.sessions)
    for seat in honest(table):
        session = table.sessions[seat]
        assert session.waiting_on() == [CHEATER]
        assert session.tick(100.0 + AUTOMATIC_TIMEOUT - 0.1) == []
        assert session.tick(100.0 + AUTOMATIC_TIMEOUT + 0.1) == [CHEATER]
    before = [write_log(tmp_path / f"stalled{s}.hexlan", table, s) for s in honest(table)]
    for seat in honest(table):
        table._carry_out(seat, table.sessions[seat].abandon([CHEATER], 200.0))
    table.pump()
    won = cheat.kind.name in AFTER_THE_WIN
    owed = "audit_secrets" if won else f"reveal {cheat.seen}"
    for seat in honest(table):
        session = table.sessions[seat]
        assert session.abandoned == (CHEATER,) and session.stopped is None
        assert [o.describe() for o in session.abandon_owed] == [owed]
    after = [write_log(tmp_path / f"abandoned{s}.hexlan", table, s) for s in honest(table)]
    report = verify_logs([*before, *after])
    assert report.exit_code == EXIT_UNFINISHED
    for log in report.logs:
        assert log.valid, log.violations
        if won:
            assert (log.status, log.unaudited_by) == ("unaudited", (CHEATER,))
    for log in report.logs[len(before) :]:
        if not won:
            assert (log.status, log.left_owing) == ("abandoned", ((CHEATER, owed),))
    if cheat.kind.name == "false-head":  # refused naming the cheater, never the seat framed
        (lie,) = cheat.evidence
        for seat in honest(table):
            refused = [e for e in table.effects[seat] if isinstance(e, Rejected)]
            assert {(r.envelope, r.author) for r in refused} == {(lie, CHEATER)}
            assert f"or seat {CHEATER} lied" in refused[0].reason
        for path in after:
            assert [kept.envelope for kept in read_log(path).evidence] == [lie]
    if cheat.kind.name == "forge":  # refused as unproven, naming nobody, and kept
        (forged,) = cheat.evidence
        # The cheater logged its true reveal, but every path that sends its messages (a link's
        # catch-up, a peer's resend during a stall: both read its accepted messages) gives the
        # forgery: the true one never leaves.
        (true,) = [
            d for d in table.logs[CHEATER] if Envelope.parse(d).id == Envelope.parse(forged).id
        ]
        cheater = table.sessions[CHEATER]
        assert true != forged and forged in cheater.messages()
        assert true not in cheater.messages() and true not in cheater.missing_for(())
        assert forged in cheater.missing_for(())
        for seat in honest(table):
            (refusal,) = [e for e in table.effects[seat] if isinstance(e, Rejected)]
            assert refusal.envelope == forged and refusal.author is None
            assert "does not verify" in refusal.reason
        for path in after:
            (kept,) = read_log(path).evidence
            assert kept.envelope == forged


def session_accused(table: Table, seat: int) -> bool:
    """Whether ``seat``'s session counted an accusation (§11.1)."""
    return bool(table.sessions[seat].accusations)


def check_stopped(table: Table, cheat: Cheat, tmp_path: Path) -> None:
    """Every honest seat stopped naming the cheating seat (a false state hash through an
    accusation and the audit of the game so far, §11.1), with the deviating message as
    evidence, and `hexlan verify` names the seat in each honest log."""
    kind = cheat.kind.name
    words = STOP_WORDS[kind].format(s=CHEATER, n=cheat.seen)
    deviant = set(cheat.evidence)
    assert deviant
    for seat in honest(table):
        stop = table.sessions[seat].stopped
        assert stop is not None, f"seat {seat} did not stop"
        assert words in stop.reason, stop.reason
        assert stop.author == CHEATER, stop
        if kind in ("false-steal", "spy-spent"):
            # the victim's (thief's) dispute settles it; the deviation is in every honest log
            (dispute,) = (Envelope.parse(e) for e in stop.evidence)
            assert dispute.body.kind == (
                "steal_dispute" if kind == "false-steal" else "spy_dispute"
            )
            assert deviant <= set(table.logs[seat])
        elif kind == "equivocate":
            assert set(stop.evidence) == deviant
        elif kind == "lie-commit":
            # the thief accused the true opening; the audit names the false commitment
            assert deviant <= set(table.logs[seat])
            assert session_accused(table, seat)
        else:
            assert deviant & set(stop.evidence), stop
    # an accused game's verdict is every seat's, the liar's own log's too (§11.1)
    seats = range(len(table.sessions)) if kind in ACCUSED else honest(table)
    paths = [write_log(tmp_path / f"seat{s}.hexlan", table, s) for s in seats]
    report = verify_logs(paths)
    assert report.exit_code == EXIT_INVALID
    for log in report.logs:
        assert log.violations, log
        first = log.violations[0]
        assert first.author == CHEATER, first
        assert words in first.reason, first.reason


FIRST_SEED: Final = {"undealt-discard": 301, "spy-forge": 304, "spy-spent": 304}
"""The seeds the in-process tables of the rare kinds (:data:`RARE`) start from: the first from
300 whose game brings the opportunity (each seed before was a whole game played for nothing);
the others start from 300. Should the bots change, the search goes on from there."""


@pytest.mark.parametrize(("kind", "at"), [(kind, 1) for kind in CHEATS] + [("replay", 2)])
def test_every_kind_is_caught_in_process(kind: str, at: int, tmp_path: Path) -> None:
    """The cheating seat deviates at the ``at``-th opportunity, once, and the honest seats
    stop (or stall) naming it; `hexlan verify` on their logs names it too."""
    table, cheat = cheating_table(kind, at, FIRST_SEED.get(kind, 300))
    assert (cheat.seen, cheat.done) == (at, True)
    assert cheat.summary()["deviation"] == cheat.deviation
    if kind in WITHHOLDING:
        check_withheld(table, cheat, tmp_path)
    elif kind == "flood-held":
        check_flooded(table, cheat, tmp_path)
    else:
        check_stopped(table, cheat, tmp_path)


def check_flooded(table: Table, cheat: Cheat, tmp_path: Path) -> None:
    """Every honest seat refused each message of the flood naming the flooder (§8: too far
    ahead to be held), refused nothing else, and the game was played to its audited end by
    every seat; `hexlan verify` finds the honest logs valid (the flood is kept as evidence)."""
    flood = set(cheat.evidence)
    assert len(flood) == 850
    for seat in honest(table):
        refused = [e for e in table.effects[seat] if isinstance(e, Rejected)]
        assert {r.author for r in refused} == {CHEATER}
        assert {r.envelope for r in refused} == flood
        assert all("ahead of the next one" in r.reason for r in refused)
    for session in table.sessions:
        assert session.stopped is None and session.is_over
        assert session.audited is not None and session.audited.report.passed
    paths = [write_log(tmp_path / f"seat{s}.hexlan", table, s) for s in honest(table)]
    report = verify_logs(paths)
    assert report.exit_code == 0, report
    assert all(log.valid and not log.violations for log in report.logs)


def test_a_seat_cheats_once_and_only_its_own_session() -> None:
    """Installing is refused on an observer or twice; a kind's opportunities before the N-th
    are played honestly."""
    table = Table(2, seed=5)
    cheat = Cheat("false-hash", 2)
    cheat.install(table.sessions[CHEATER])
    with pytest.raises(ValueError, match="already cheats"):
        Cheat("replay").install(table.sessions[CHEATER])
    from hexlan.net.session import Session

    with pytest.raises(ValueError, match="observer"):
        Cheat("replay").install(Session(None, None, table.opening, None, None))
    table.start()
    play_out(table)
    assert cheat.seen == 2 and cheat.done
    session = table.sessions[0]
    stop = session.stopped
    assert stop is not None and stop.author == CHEATER, stop
    _, accusation = session.accusations[0]
    (accuse,) = [e for e in session.accepted[0] if e.id == accusation]
    assert "after turn 2" in accuse.body.payload[1]  # its first ack was honest


# ---------------------------------------------------------------------------- real processes


TABLE_OPEN: Final = "table open on port "


@dataclass(frozen=True)
class Played:
    """One 2-seat table over TCP: an honest host and a joiner that cheats."""

    kind: str
    honest_code: int
    honest_json: dict[str, Any]
    honest_err: str
    cheater_err: str
    honest_log: Path
    cheater_log: Path
    cheater_seat: int


def wait_for(path: Path, text: str, proc: subprocess.Popen[str], timeout: float) -> None:
    """Until ``text`` is in the file ``path`` (a process's stderr)."""
    deadline = time.monotonic() + timeout
    while text not in path.read_text():
        assert proc.poll() is None, path.read_text()
        assert time.monotonic() < deadline, f"no {text!r} in {path.read_text()!r}"
        time.sleep(0.05)


def play_table(kind: str, where: Path, timeout: float = 90.0) -> Played:
    """An honest bot hosts a table and a bot joins it with ``--cheat kind``; the honest bot
    runs to its end (with ``--abandon-after 1`` for a withholding kind), then the cheater,
    which may be left waiting for a seat that is gone, is ended. Two seats, or three for a
    kind of a game that needs them (Cities & Knights: another honest bot joins)."""
    where.mkdir(parents=True, exist_ok=True)
    logs = where / "honest.log", where / "cheater.log"
    errs = where / "honest.err", where / "cheater.err"
    abandon = ["--abandon-after", "1"] if CHEATS[kind].withholds else []
    game = CHEATS[kind].game
    table = ["--seats", "2"] if game is None else ["--seats", "3", "--game", game]
    with errs[0].open("w") as host_err, errs[1].open("w") as join_err:
        host = subprocess.Popen(
            [
                *HEXLAN,
                "bot",
                "--host",
                *table,
                "--port",
                "0",  # the host binds a port no other socket holds and says which
                "--log",
                str(logs[0]),
                *abandon,
            ],
            stdout=subprocess.PIPE,
            stderr=host_err,
            text=True,
        )
        joiners: list[subprocess.Popen[str]] = []
        try:
            wait_for(errs[0], TABLE_OPEN, host, 30.0)
            port = int(errs[0].read_text().split(TABLE_OPEN)[1].split(",")[0])
            join = [*HEXLAN, "bot", "--join", f"127.0.0.1:{port}"]
            cheat = ["--log", str(logs[1]), "--cheat", kind]
            joiners.append(
                subprocess.Popen(
                    [*join, *cheat], stdout=subprocess.DEVNULL, stderr=join_err, text=True
                )
            )
            if game is not None:
                other = ["--log", str(where / "third.log"), "--quiet"]
                joiners.append(
                    subprocess.Popen(
                        [*join, *other],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        text=True,
                    )
                )
            out, _ = host.communicate(timeout=timeout)
            settle = time.monotonic() + 0.5  # the joiners' last words, up to half a second
            for proc in joiners:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=max(0.0, settle - time.monotonic()))
        finally:
            for proc in (host, *joiners):
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    return Played(
        kind,
        host.returncode,
        json.loads(out.strip().splitlines()[-1]) if out.strip() else {},
        errs[0].read_text(),
        errs[1].read_text(),
        logs[0],
        logs[1],
        load_secrets(secrets_path(logs[1])).seat,
    )


RARE: Final = {"undealt-discard": 8, "spy-forge": 16, "spy-spent": 16}
"""Tries for kinds whose situation many games never bring (a fifth progress card in hand, even
for a cheater that keeps every card it draws; a Spy played on the cheater, or by it on a seat
that has played a progress card: it must draw one of the 3 Spies of 18 politics cards, and
once in three CI runs five games brought none, and once eight games no Spy on the cheater);
the others get 3. Only a game without the
opportunity costs a try; most kinds meet it in the first."""


def play_until_it_cheats(kind: str, where: Path) -> Played:
    """:func:`play_table` again when the game ended before the cheater's opportunity came (a
    kind that waits for a situation: a card bought, a steal), up to 3 games (:data:`RARE`)."""
    for attempt in range(RARE.get(kind, 3)):
        played = play_table(kind, where / str(attempt))
        if "cheating: " in played.cheater_err:
            return played
    return played


def check_real(played: Played) -> None:
    """The honest peer's JSON line, stderr and log name the cheating seat, and so does
    `hexlan verify --json` on its log."""
    kind, seat, result = played.kind, played.cheater_seat, played.honest_json
    context = f"{kind}: {played.honest_err[-1500:]}\ncheater: {played.cheater_err[-1500:]}"
    assert "cheating: " in played.cheater_err, context
    assert f"red team: seat {seat} plays {kind}" in played.cheater_err
    notes = read_log(played.cheater_log).notes
    assert any(n.startswith("red team: ") for n in notes), notes
    assert f"peer: bot heuristic cheat {kind}@1" in notes
    run = subprocess.run(
        [*HEXLAN, "verify", "--json", str(played.honest_log)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    report = json.loads(run.stdout)
    log = report["logs"][0] if "logs" in report else report
    if kind in WITHHOLDING:
        assert played.honest_code == 0, context
        assert result["abandoned"] == [seat] and result["stopped"] is None, (result, context)
        assert f"giving up on seat {seat} " in played.honest_err, context
        assert run.returncode == EXIT_UNFINISHED, run.stdout
        if kind in AFTER_THE_WIN:
            assert result["winner"] is not None and result["audit"] is None
            assert (log["status"], log["unaudited_by"]) == ("unaudited", [seat]), log
        else:
            assert log["status"] == "abandoned" and log["left_owing"] == {str(seat): "reveal 1"}
        if kind == "forge":
            check_forgery_kept(played, log)
        return
    if kind == "flood-held":
        check_flood_refused(played, result, log, run.returncode)
        return
    words = STOP_WORDS[kind].format(s=seat, n=1)
    assert played.honest_code == 1, context
    assert words in (result["stopped"] or ""), (result, context)
    said = "accused: " if kind in ACCUSED else words  # the verdict of §11.1's audit, or words
    stops = [line for line in played.honest_err.splitlines() if f"the game stopped: {said}" in line]
    assert stops and words in stops[-1], context
    assert run.returncode == EXIT_INVALID, run.stdout
    assert log["status"] == "invalid"
    assert log["violations"][0]["author"] == seat, log["violations"]
    assert words in log["violations"][0]["reason"]
    if kind == "equivocate":
        assert len(read_log(played.honest_log).equivocations) == 1


def check_flood_refused(
    played: Played, result: dict[str, Any], log: dict[str, Any], verify_code: int
) -> None:
    """The flood was refused naming the flooder alone (§8) and the game went on to its audited
    end: the honest bot exits 0 with a winner, its JSON line counts the refusals against the
    cheater only, its log keeps them as evidence (up to the evidence budget), and `hexlan
    verify` finds the log valid."""
    seat = played.cheater_seat
    context = f"flood-held: {played.honest_err[-1500:]}\ncheater: {played.cheater_err[-1500:]}"
    assert played.honest_code == 0, context
    assert result["stopped"] is None and result["abandoned"] is None, (result, context)
    assert result["winner"] is not None and result["audit"] == "passed", result
    assert set(result["refused"]) == {str(seat)} and result["refused"][str(seat)] >= 850, result
    evidence = read_log(played.honest_log).evidence
    assert len(evidence) == MAX_EVIDENCE
    assert {Envelope.parse(kept.envelope).body.author for kept in evidence} == {seat}
    assert all("ahead of the next one" in kept.reason for kept in evidence)
    assert verify_code == EXIT_VALID and log["status"] == "valid", log


def check_forgery_kept(played: Played, log: dict[str, Any]) -> None:
    """The honest log keeps the forged reveal once (however often the cheater's links and
    stalls resent it), refused as unproven; its body is the reveal the cheater logged, under
    another signature: the true one never left."""
    (kept,) = read_log(played.honest_log).evidence
    assert "does not verify" in kept.reason, kept.reason
    forged = Envelope.parse(kept.envelope)
    assert (forged.body.author, forged.body.kind) == (played.cheater_seat, "reveal")
    (true,) = [
        env
        for env in map(Envelope.parse, read_log(played.cheater_log).messages)
        if env.id == forged.id
    ]
    assert true.signature != forged.signature
    honest = {Envelope.parse(data).id for data in read_log(played.honest_log).messages}
    assert forged.id not in honest
    assert any("1 refused message(s) as evidence" in w for w in log["warnings"]), log


@pytest.mark.slow
def test_every_kind_is_caught_between_real_processes(tmp_path: Path) -> None:
    """One 2-seat table per kind, five tables at a time: for each, the honest bot's result, its
    stderr and `hexlan verify` on its log name the cheating seat (or the seat it abandoned the
    game by, for the withholding kinds). The kinds go in their list's order: starting the
    rare three-seat kinds together made one game outlast its timeout on a loaded machine, and
    gained nothing measurable."""
    kinds: Sequence[str] = list(CHEATS)
    workers = int(os.environ.get("HEXLAN_REDTEAM_TABLES", "5"))
    with ThreadPoolExecutor(workers) as pool:
        played = list(pool.map(lambda k: play_until_it_cheats(k, tmp_path / k), kinds))
    for table in played:
        check_real(table)


# ---------------------------------------------------------------------------- command line


def test_cheat_list_prints_one_line_per_kind() -> None:
    result = CliRunner().invoke(main, ["bot", "--cheat", "list"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines == cheat_lines() and len(lines) == len(CHEATS) == 18
    for line, name in zip(lines, CHEATS, strict=True):
        assert line.split()[0] == name


def test_bad_cheats_are_usage_errors() -> None:
    run = subprocess.run(
        [*HEXLAN, "bot", "--join", "127.0.0.1:1", "--cheat", "nosuchkind"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "no cheat 'nosuchkind'" in run.stderr
    for name in CHEATS:
        assert name in run.stderr
    runner = CliRunner()
    for args, words in [
        (["--cheat", "swap-shuffle", "--cheat-at", "2"], "--cheat-at must be 1"),
        (["--cheat", "replay", "--cheat-at", "0"], "--cheat-at"),
        (["--cheat-at", "3"], "--cheat-at is for --cheat KIND"),
    ]:
        result = runner.invoke(main, ["bot", "--host", *args])
        assert result.exit_code == 2 and words in result.output, result.output
    with pytest.raises(ValueError, match="no cheat"):
        check_cheat("nosuchkind", 1)
