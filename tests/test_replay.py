"""`hexlan replay`: a real finished log replayed turn by turn against the live game's states,
the replay screen driven by keys, and the command line (--json, a corrupt file).

The game is four heuristic bots on an in-process table (every seat a real session, the whole
protocol and audit); while it runs the test notes, at the start of every turn, each seat's live
view: the public-state hash and the seat's own hand and development cards. The replay of seat
0's log must give the very same states at the same points.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from bot_games import write_log
from click.testing import CliRunner
from textual.widgets import Static
from textual_plotext import PlotextPlot

from hexlan.cli import main as cli
from hexlan.engine.bots import make_bot
from hexlan.engine.core import NO_SEAT
from hexlan.net.effects import Applied
from hexlan.net.inproc import InProcessTable
from hexlan.net.replay import Replayer, ReplayError, Timeline, read_timeline
from hexlan.tui.app import ReplayApp
from hexlan.tui.screens.replay import HandsPanel, ReplayScreen, TurnDialog
from hexlan.tui.screens.stats import StatsScreen
from hexlan.tui.widgets.dice import DiceChart
from hexlan.tui.widgets.hand import HandPanel
from hexlan.tui.widgets.log import GameLog

NAMES = ("Ann", "Bob", "Cy", "Di")
SEED = 11


@dataclass(frozen=True, slots=True)
class TurnState:
    """The live game where a turn began: how many actions seat 0 had applied, and per seat
    its view's public hash, own hand and own development cards."""

    turn: int
    applied: int
    public_hash: str
    hands: tuple[tuple[int, ...], ...]
    dev_cards: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Played:
    log: Path
    turns: tuple[TurnState, ...]
    applied: int
    rolls: tuple[int, ...]


def _applied(table: InProcessTable) -> list[Applied]:
    return [e for e in table.effects[0] if isinstance(e, Applied)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Four bots play to the end and the audit; seat 0's log is written, and the live states
    at every turn's start noted (the first quiet point of each turn)."""
    table = InProcessTable(list(NAMES), seed=SEED)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(len(NAMES))]
    table.start()
    turns: list[TurnState] = []
    for _ in range(20_000):
        view = table.sessions[0].view
        if view is not None and (not turns or view.turn > turns[-1].turn):
            sessions = table.sessions
            turns.append(
                TurnState(
                    view.turn,
                    len(_applied(table)),
                    view.public_hash(),
                    tuple(tuple(s.view.hands[s.seat]) for s in sessions if s.view),
                    tuple(tuple(s.view.dev_cards[s.seat]) for s in sessions if s.view),
                )
            )
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            break
        decider = table.sessions[seat].view
        assert decider is not None
        table.submit(seat, bots[seat].choose(decider, seat))
    assert all(s.done and s.audited is not None for s in table.sessions)
    log = write_log(
        tmp_path_factory.mktemp("replay") / "seat0.hexlan",
        table.opening.to_payload(),
        table.logs[0],
    )
    rolls = tuple(e.action.total for e in _applied(table) if type(e.action).__name__ == "Dice")
    return Played(log, tuple(turns), len(_applied(table)), rolls)


@pytest.fixture(scope="module")
def timeline(played: Played) -> Timeline:
    """The log's timeline, read once (a :class:`Timeline` does not change)."""
    return read_timeline(played.log)


def test_every_turn_of_the_replay_is_the_live_games_state(
    played: Played, timeline: Timeline
) -> None:
    assert len(timeline.steps) == played.applied
    assert timeline.resolved is not None and "audit passed" in timeline.ending
    assert len(played.turns) > 20
    replay = Replayer(timeline)  # seat 0's view, the full game alongside
    assert replay.human_seat == 0 and replay.can_reveal
    for live in played.turns:
        if live.turn:
            replay.goto_turn(live.turn)
        else:
            replay.seek(live.applied)
        assert replay.position == live.applied, f"turn {live.turn}"
        assert replay.turn == live.turn
        step_hash = timeline.steps[live.applied - 1].state_hash if live.applied else None
        assert replay.seat_view.public_hash() == live.public_hash
        if step_hash is not None:
            assert step_hash == live.public_hash
        full = replay.full
        assert full is not None and full.public_hash() == live.public_hash
        assert tuple(tuple(h) for h in full.hands) == live.hands
        assert tuple(tuple(c) for c in full.dev_cards) == live.dev_cards
        assert tuple(replay.seat_view.hands[0]) == live.hands[0]
    replay.seek(len(timeline.steps))
    assert replay.at_end and replay.view.is_over
    assert tuple(replay.rolls) == played.rolls
    assert [s.dice for s in timeline.steps if s.dice is not None] == list(played.rolls)


def test_stepping_back_gives_the_same_state_as_stepping_forward(timeline: Timeline) -> None:
    replay = Replayer(timeline)
    replay.seek(300)
    there = (replay.view.public_hash(), replay.full.full_hash() if replay.full else "")
    events = [e.text for e in replay.events]
    replay.seek(len(replay.timeline.steps))
    replay.step(-(len(replay.timeline.steps) - 300))
    assert replay.position == 300
    assert (replay.view.public_hash(), replay.full.full_hash() if replay.full else "") == there
    assert [e.text for e in replay.events] == events
    replay.previous_turn()
    start = replay.timeline.turn_start(replay.turn)
    assert replay.position == start and replay.timeline.steps[start - 1].turn == replay.turn


def test_a_log_cut_short_replays_in_public_view(played: Played, tmp_path: Path) -> None:
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(played.log.read_bytes()[: played.log.stat().st_size // 2])
    timeline = read_timeline(cut)
    assert timeline.resolved is None and timeline.ending == "unfinished"
    assert 0 < len(timeline.steps) < played.applied
    replay = Replayer(timeline)
    assert replay.human_seat == NO_SEAT and not replay.can_reveal
    replay.seek(len(timeline.steps))
    assert replay.view.hands[0] == replay.view.hands[0]  # a third party: maxima, not a hand
    with pytest.raises(ValueError, match="no passed audit"):
        Replayer(timeline, 1)


def test_not_a_log_is_a_replay_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.hexlan"
    junk.write_bytes(b"PK\x03\x04 not a log")
    with pytest.raises(ReplayError, match="not a hexlan log"):
        read_timeline(junk)
    with pytest.raises(ReplayError, match="cannot read the file"):
        read_timeline(tmp_path / "missing.hexlan")


def _status(app: ReplayApp) -> str:
    return str(app.screen.query_one("#status", Static).render())


async def test_the_replay_screen_steps_by_keys(timeline: Timeline) -> None:
    replay = Replayer(timeline)
    app = ReplayApp(replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "Step 0/" in _status(app) and "set-up" in _status(app)
        for _ in range(3):
            await pilot.press("n")
        assert replay.turn == 3 and "turn 3/" in _status(app)
        position = replay.position
        log = screen.query_one(GameLog)
        lines = len(log.lines)
        await pilot.press("right", "right")
        assert replay.position == position + 2
        await pilot.press("left")
        assert replay.position == position + 1
        await pilot.press("left", "left")
        assert replay.position == position - 1 and replay.turn == 2
        assert len(log.lines) < lines  # the log was written again, shorter
        assert screen.board.state is replay.view
        await pilot.press("p")
        assert replay.position == replay.timeline.turn_start(2)
        await pilot.press("g")
        assert isinstance(app.screen, TurnDialog)
        await pilot.press("1", "2", "enter")
        assert app.screen is screen and replay.turn == 12
        assert f"Step {replay.position}/" in _status(app)
        # the seat's hand, then every hand (the audit passed)
        await pilot.press("1")
        assert screen.query_one(HandPanel).display and not screen.query_one(HandsPanel).display
        await pilot.press("a")
        assert replay.reveal and screen.query_one(HandsPanel).display
        shown = str(screen.query_one(HandsPanel).render())
        assert all(name in shown for name in NAMES)
        assert screen.board.state is replay.full
        await pilot.press("a")
        assert not replay.reveal
        # the dice chart counts the rolls so far
        await pilot.press("3")
        chart = str(screen.query_one(DiceChart).render())
        assert f"{len(replay.rolls)} rolls" in chart
        await pilot.press("end")
        assert replay.at_end and "the end: won by" in str(screen.query_one("#prompt").render())
        await pilot.press("home")
        assert replay.position == 0
        # the whole game's statistics, wherever the cursor is, at 80x24
        await pilot.press("s")
        await pilot.pause(0.3)
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.summary.turns == timeline.last_turn
        assert stats.query_one(PlotextPlot).region.height >= 8
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        # tab cycles the side panels (dice, then round to the hand); too small, it says so
        await pilot.press("tab")
        assert screen.panel == "hand" and screen.query_one("#panel-hand").has_class("-current")
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert screen.has_class("-too-small") and not screen.query_one("#main").display
        message = str(screen.query_one("#too-small", Static).render())
        assert "70x20: the replay needs at least 80x24" in message


async def test_the_replay_plays_at_a_speed_and_fits_120x40(timeline: Timeline) -> None:
    replay = Replayer(timeline)
    app = ReplayApp(replay)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.has_class("-wide")
        assert screen.query_one(HandPanel).region.height > 0
        assert screen.query_one(GameLog).region.height > 0
        for _ in range(6):
            await pilot.press("plus")
        await pilot.press("space")
        assert "▶ 32/s" in _status(app)
        await pilot.pause(0.5)
        await pilot.press("space")
        moved = replay.position
        assert moved > 3 and "paused" in _status(app)
        await pilot.pause(0.2)
        assert replay.position == moved


def test_replay_json_prints_the_timeline_without_textual(
    played: Played, timeline: Timeline
) -> None:
    code = (
        "import sys\n"
        "from hexlan.cli import main\n"
        "try:\n"
        f"    main(['replay', {str(played.log)!r}, '--json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'textual' not in sys.modules, 'replay --json imported Textual'\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == played.applied
    assert [r["step"] for r in rows] == list(range(1, played.applied + 1))
    assert {"turn", "seat", "action", "dice", "state_hash", "message"} <= set(rows[0])
    assert rows[0]["action"][0] == "StartPlayer"
    assert [r["dice"] for r in rows if r["dice"] is not None] == list(played.rolls)
    assert rows[-1]["state_hash"] == timeline.steps[-1].state_hash


def test_replay_of_a_corrupt_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.hexlan"
    junk.write_bytes(b"hexlan-log 1\n\x00\x00\x00\x05abcde")
    result = CliRunner().invoke(cli, ["replay", str(junk), "--json"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith(f"hexlan replay: {junk}: ")
    assert "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "missing.hexlan")])
    assert result.exit_code == 2 and "cannot read the file" in result.output


def test_the_logs_own_seat_comes_from_its_secrets_file(
    played: Played, timeline: Timeline, tmp_path: Path
) -> None:
    from hexlan.net.log import SeatSecrets, save_secrets, secrets_path

    log = tmp_path / "seat2.hexlan"
    log.write_bytes(played.log.read_bytes())
    game_id = timeline.opening.game_id
    save_secrets(secrets_path(log), SeatSecrets(game_id, 2, bytes(32), bytes(32)))
    own = read_timeline(log)
    assert own.seat == 2 and Replayer(own).human_seat == 2
    assert timeline.seat is None and Replayer(timeline).human_seat == 0  # no secrets: seat 0
    assert Replayer(own, 1).human_seat == 1


def test_a_log_that_breaks_a_rule_replays_up_to_the_break(
    played: Played, timeline: Timeline, tmp_path: Path
) -> None:
    from hexlan.net.log import read_log

    contents = read_log(played.log)
    messages = contents.messages[:400]
    broken = write_log(tmp_path / "broken.hexlan", contents.opening, [*messages, b"\x92\xc4\x01x"])
    cut = read_timeline(broken)
    assert cut.ending.startswith(f"stops at message {len(messages) + 1}: ")
    assert cut.steps == tuple(s for s in timeline.steps if s.message <= len(messages))
    assert cut.resolved is None


def test_replay_refuses_a_seat_it_cannot_show(played: Played, tmp_path: Path) -> None:
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(played.log.read_bytes()[: played.log.stat().st_size // 2])
    result = CliRunner().invoke(cli, ["replay", str(cut), "--seat", "1"])
    assert result.exit_code == 2 and "no passed audit" in result.output


def test_the_summary_accounts_for_every_card_and_roll(played: Played, timeline: Timeline) -> None:
    """`hexlan replay --summary` (net/summary.py) of the audited game: per seat and kind, the
    cards received less those lost and those spent on building and buying (read off the hands
    around each such action, not off the summary's events) leave the seat's final hand; steals
    balance; the dice are the rolls the live game made; the points end at the final score."""
    from hexlan.engine import actions as A
    from hexlan.engine.state import GameState
    from hexlan.net.summary import summarize

    summary = summarize(timeline)
    assert summary.audited and summary.winner is not None
    assert summary.turns == timeline.last_turn
    opening = timeline.opening
    state = GameState(timeline.board, 4, opening.game_options(), opening.rules())
    spent = [[0] * state.kinds for _ in range(4)]
    assert timeline.resolved is not None
    for action in timeline.resolved:
        # what building costs (the set-up's buildings are free; the second one yields cards)
        buys = state.turn > 0 and isinstance(
            action, A.BuildRoad | A.BuildSettlement | A.BuildCity | A.BuyDevelopmentCard
        )
        seat, before = state.active, [list(h) for h in state.hands]
        state.apply(action)
        if buys:
            for kind in range(state.kinds):
                spent[seat][kind] += before[seat][kind] - state.hands[seat][kind]
    kinds = [k.name.lower() for k in state.rules.cards]
    for seat in summary.seats:
        for k, kind in enumerate(kinds):
            got = sum(table.get(kind, 0) for table in seat.received.values())
            gone = sum(table.get(kind, 0) for table in seat.lost.values())
            assert got - gone - spent[seat.seat][k] == state.hands[seat.seat][k], (seat, kind)
        assert seat.points[-1] == state.victory_points(seat.seat)
        assert len(seat.points) == summary.turns + 1
    stolen = sum(s.total_received("steal") for s in summary.seats)
    assert stolen == sum(s.total_lost("robber") for s in summary.seats) > 0
    assert summary.dice.total == len(played.rolls)
    assert list(summary.dice.observed) == [played.rolls.count(t) for t in range(2, 13)]


def test_replay_summary_prints_the_figures(played: Played) -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ["replay", str(played.log), "--summary"])
    assert text.exit_code == 0, text.output
    assert "audit passed" in text.output and "received" in text.output and "dice (" in text.output
    for name in NAMES:
        assert f"{name} (seat " in text.output
    data = json.loads(runner.invoke(cli, ["replay", str(played.log), "--summary", "--json"]).output)
    assert [s["name"] for s in data["seats"]] == list(NAMES)
    assert sum(data["dice"]["observed"]) == len(played.rolls)
