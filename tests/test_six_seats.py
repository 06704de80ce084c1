"""Up to six seats everywhere (issue 8): the 5-6 player game over the network.

An in-process table of six sessions plays a whole five-six game (its map, its bank, its
34-card deck shuffled by six seats, steals, the audit); `hexlan verify --stats` rebuilds it from
a log; a log of one game replayed by a peer told another game is refused in words; the command
line checks the game, the seats and the board. The slow test runs six `hexlan bot` processes
over the TCP mesh (tests/test_peer.py's pattern).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bot_games import assert_logs_verify, write_log
from click.testing import CliRunner
from test_peer import (
    assert_agreement,
    assert_no_equivocation,
    finish,
    free_port,
    start_bot,
    verify_cli,
    wait_until_listening,
)

from hexlan.cli import main
from hexlan.engine.bots import make_bot
from hexlan.engine.core import BuildPhase, DevCard
from hexlan.net import session as session_module
from hexlan.net.client import SessionGame
from hexlan.net.effects import Rejected
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.log import read_log
from hexlan.net.session import Session
from hexlan.net.verify import stats_report, verify_logs
from hexlan.net.wire import Envelope, Opening

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
SEED = 1
PROCESS_TIMEOUT = 600.0
"""Seconds six bot processes may take for one game: on a loaded two-core machine a six-seat
game (six shuffles of 34 cards, each checked by five seats, and every reveal by six) is several
times a four-seat one."""


SPECIAL_MOVES: list[tuple[int, str]] = []
"""The fixture game's decisions made in the special building phase: (seat, action name)."""


@pytest.fixture(scope="module")
def six_seat_game() -> InProcessTable:
    """A seeded six-seat game of five-six between heuristic bots, won and audited."""
    table = InProcessTable(list(NAMES), seed=SEED, game="five-six")
    bots = [make_bot("heuristic", random.Random(seat)) for seat in range(len(NAMES))]
    table.start()
    for _ in range(40_000):
        if all(s.done for s in table.sessions):
            break
        seat = next(s for s, session in enumerate(table.sessions) if session.decision_due())
        view = table.sessions[seat].view
        assert view is not None
        action = bots[seat].choose(view, seat)
        if view.phase is BuildPhase.SPECIAL_BUILD:
            SPECIAL_MOVES.append((seat, type(action).__name__))
        table.submit(seat, action)
    return table


def test_six_sessions_play_five_six_to_an_audited_end(six_seat_game: InProcessTable) -> None:
    sessions = six_seat_game.sessions
    opening = six_seat_game.opening
    assert (opening.game, len(opening.seats), opening.board_kind) == ("five-six", 6, "random")
    assert len(opening.to_payload()) == 7 and opening.to_payload()[6] == "five-six"
    assert all(s.stopped is None and s.audited is not None for s in sessions)
    assert all(not s.audited.report.deviations for s in sessions)  # type: ignore[union-attr]
    assert len({s.view.public_hash() for s in sessions}) == 1  # type: ignore[union-attr]
    view = sessions[0].view
    assert view is not None and view.winner in range(6)
    assert view.board.topology.name == "five-six" and view.board.topology.hex_count == 30
    assert view.rules.bank_per_resource == 24
    deck = sessions[0].dealer.deck
    assert deck.size == 34 and deck.key.players == 6
    faces = [deck.face(i) for i in range(deck.size)]
    assert [faces.count(card) for card in DevCard] == [20, 5, 3, 3, 3]
    kinds = [Envelope.parse(m).body.kind for m in six_seat_game.logs[0]]
    assert kinds.count("shuffle") == 6 and kinds.count("audit_result") == 6
    assert "steal_open" in kinds  # steals between six seats: opened to the thief alone
    # The special building phase ran over the network: five special turns after each turn,
    # builds and buys among them, each turn acknowledged once.
    assert sum(name == "EndTurn" for _, name in SPECIAL_MOVES) >= 5 * (view.turn - 1)
    assert {name for _, name in SPECIAL_MOVES} - {"EndTurn"}
    # (the turn end that makes its next seat the winner is not acknowledged, §11)
    assert kinds.count("turn_ack") in (6 * (view.turn - 1), 6 * (view.turn - 2))


def test_verify_rebuilds_a_five_six_game_from_its_log(
    six_seat_game: InProcessTable, tmp_path: Path
) -> None:
    report = assert_logs_verify(six_seat_game, tmp_path, "five-six", seats=2)
    assert "five-six game" in report.logs[0].lines()[0]
    assert report.logs[0].to_json()["game"] == "five-six"
    dice, draws = stats_report(report)
    assert dice.total > 0
    assert draws.total == len(report.logs[0].draws) > 0
    expected = [draws.total * count / 34 for count in (20, 5, 3, 3, 3)]
    assert list(draws.expected) == pytest.approx(expected)  # its own deck: 34 cards, not 25


def told(game: str, seats: int, seat: int) -> Session:
    """A session of ``seat`` of :data:`SEED`'s seats, told that the table plays ``game`` with
    ``seats`` seats (the same keys, another opening)."""
    keys = [SeatKeys.seeded(SEED, s) for s in range(seats)]
    opening = make_opening(NAMES[:seats], keys, created=0, game=game)
    mine = keys[seat]
    return Session(seat, mine.identity, opening, mine.chain, mine.game_keys)


def test_a_log_replayed_by_a_peer_told_another_game_is_refused_in_words(
    six_seat_game: InProcessTable,
) -> None:
    """Seat 1's five-six log, resumed by a peer whose opening (the same keys) says the table
    plays the base game: its own signed opening is of another game, and the replay stops naming
    both games. A message of another game reaching a live session is refused the same way."""
    session = told("base", 4, 1)
    with pytest.raises(ValueError, match="own logged message refused") as info:
        session.replay(six_seat_game.logs[1])
    assert "seat 1 signed an opening of the five-six game; this peer was told the game is base" in (
        str(info.value)
    )
    base_seat0 = told("base", 4, 0)
    their_opening = next(
        m for m in six_seat_game.logs[2] if Envelope.parse(m).body.kind == "sign_opening"
    )
    (refusal,) = [e for e in base_seat0.receive(their_opening) if isinstance(e, Rejected)]
    assert refusal.reason == (
        "seat 2 signed an opening of the five-six game; this peer was told the game is base"
    )


def test_a_jungle_log_replayed_as_a_base_game_is_refused_in_words(tmp_path: Path) -> None:
    """Two games of one seat range (the Jungle and the base game, 2..4 seats): the same seats'
    keys, told the base game, refuse the Jungle log's first signed opening, naming both."""
    table = InProcessTable(list(NAMES[:3]), seed=SEED, game="jungle")
    table.start()
    assert table.opening.game == "jungle" and table.sessions[0].view is not None
    with pytest.raises(ValueError, match="opening of the jungle game; this peer was told the"):
        told("base", 3, 2).replay(table.logs[2])
    keys = [SeatKeys.seeded(SEED, s) for s in range(3)]
    claimed = make_opening(NAMES[:3], keys, created=0)
    path = write_log(tmp_path / "jungle-as-base.hexlan", claimed.to_payload(), table.logs[0])
    (log,) = verify_logs([path]).logs
    assert log.exit_code == 1
    assert "signed an opening of the jungle game; this peer was told the game is base" in (
        log.violations[0].reason
    )


def test_verify_names_both_games_when_a_log_claims_another(
    six_seat_game: InProcessTable, tmp_path: Path
) -> None:
    """A log whose opening record says base while its messages are a five-six game's: the
    first signed opening is refused in words (not just "another game id")."""
    keys = [SeatKeys.seeded(SEED, s) for s in range(4)]
    claimed = make_opening(NAMES[:4], keys, created=0)
    path = write_log(tmp_path / "claims-base.hexlan", claimed.to_payload(), six_seat_game.logs[0])
    (log,) = verify_logs([path]).logs
    assert log.exit_code == 1 and log.game == "base"
    assert "signed an opening of the five-six game; this peer was told the game is base" in (
        log.violations[0].reason
    )


def test_the_sequencer_follows_the_seat_whose_decision_is_due_in_a_special_building_phase(
    six_seat_game: InProcessTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat that moves the game on (PROTOCOL.md §4) is the engine's active seat, except in
    the special building phase (when the engine has it), where it is ``current_player()``
    (the engine's ``deciding_seat``)."""
    view = six_seat_game.sessions[0].view
    assert view is not None
    assert session_module.sequencer(view) == view.active  # game over: the winner
    monkeypatch.setattr(view, "current_player", lambda: (view.active + 2) % 6)
    assert session_module.sequencer(view) == view.active  # not a phase that passes it round
    monkeypatch.setattr(view, "phase", BuildPhase.SPECIAL_BUILD)
    assert session_module.sequencer(view) == (view.active + 2) % 6


def test_a_base_opening_keeps_its_bytes() -> None:
    """The base game is named by leaving the game out: an opening built without a game and one
    built for "base" are the same bytes, six items long (tests/test_protocol_vectors.py checks
    docs/vectors, whose bytes this keeps)."""
    keys = [SeatKeys.seeded(0, s) for s in range(2)]
    plain = make_opening(NAMES[:2], keys, created=0)
    named = make_opening(NAMES[:2], keys, created=0, game="base")
    assert plain == named and len(plain.to_payload()) == 6
    assert Opening.from_payload(plain.to_payload()).game == "base"


def test_a_local_game_of_another_game_is_checked_against_it() -> None:
    """`hexlan play`'s client takes the game too (its in-process sessions' opening names it)."""
    with pytest.raises(ValueError, match="the five-six game takes 5 to 6 players, not 4"):
        SessionGame(4, seed=0, game="five-six", save_log=False)
    with pytest.raises(ValueError, match="board must be 'random', not 'beginner'"):
        SessionGame(5, seed=0, game="five-six", save_log=False)
    with pytest.raises(ValueError, match="no game named 'nope'"):
        SessionGame(4, seed=0, game="nope", save_log=False)


# ------------------------------------------------------------------ the command line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["bot", "--host", "--game", "nope"], "'nope' is not one of 'base', 'big-river'"),
        (["bot", "--host", "--game", "five-six", "--seats", "4"], "takes 5 to 6 seats, not 4"),
        (["bot", "--host", "--seats", "5"], "the base game takes 2 to 4 seats, not 5"),
        (["bot", "--host", "--players", "7"], "'--seats' / '--players'"),
        (["bot", "--host", "--game", "five-six", "--board", "beginner"], "no beginner board"),
        (["bot", "--join", "h:1", "--game", "five-six"], "--game is for --host"),
        (["bot", "--join", "h:1", "--board", "random"], "--board is for --host"),
        (["host", "--game", "five-six", "--seats", "3"], "takes 5 to 6 seats, not 3"),
        (["host", "--seats", "6", "--bots", "6"], "'--bots'"),
        (["host", "--game", "five-six", "--seats", "5", "--bots", "5"], "room for 4 bots"),
    ],
)
def test_bad_game_seats_or_board_is_a_one_line_error(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and words in errors[0], result.output


# ------------------------------------------------------------------ six processes


@pytest.mark.slow
def test_six_bot_processes_play_five_six_and_agree(tmp_path: Path) -> None:
    """One `hexlan bot --host --seats 6 --game five-six` and five joiners finish one game over
    the TCP mesh: the same game id, winner and state hash, the audit passed on every peer, and
    `hexlan verify --stats` exits 0 on all six logs. The game is won at 5 points (the whole
    five-six game, its steals and special building phases, is the in-process fixture's): six
    shuffles, the reveals and the audit cross the mesh all the same, in far fewer turns."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(6)]
    host = ["--host", "--seats", "6", "--game", "five-six", "--port", str(port)]
    host += ["--option", "victory_points=5"]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    for i in range(1, 6):
        procs.append(
            start_bot(
                "--join", f"127.0.0.1:{port}", "--seed", str(i), "--log", str(logs[i]), "--quiet"
            )
        )
    finals = assert_agreement(finish(procs, PROCESS_TIMEOUT))
    assert [f["audit"] for f in finals] == ["passed"] * 6
    assert_no_equivocation(logs)
    for path in logs:
        contents = read_log(path)
        assert contents.opening[6] == "five-six"
        kinds = [Envelope.parse(m).body.kind for m in contents.messages]
        assert kinds.count("shuffle") == 6 and kinds.count("audit_result") == 6
    run = verify_cli(logs, "--stats", timeout=PROCESS_TIMEOUT)
    assert run.stdout.count("audit passed and signed by every seat") == 6
    assert run.stdout.count("five-six game") == 6
    assert "fairness over 1 game:" in run.stdout
