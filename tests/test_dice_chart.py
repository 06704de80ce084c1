"""The dice chart: the rolls so far against two fair dice, as bars (net/stats.py ``bar``), in
the game screen (``h``, at 80x24), in `hexlan verify --stats` and in the replay (test_replay)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot_games import play_to_end, write_log
from click.testing import CliRunner
from textual.widgets import Static

from hexlan.cli import main as cli
from hexlan.net.stats import DICE_TOTALS, bar
from hexlan.tui.app import make_app
from hexlan.tui.screens.info import DiceScreen


def test_a_bar_is_as_long_as_its_count_and_marks_a_shortfall() -> None:
    assert bar(4, 4.0, 4, 8) == "█" * 8
    assert bar(0, 2.0, 4, 8) == "    ┆   "
    assert bar(3, 1.0, 4, 8) == "██████  "  # above the expected count: no mark
    assert bar(2, 2.2, 4, 8) == "████┆   "  # short by less than a cell: marked right after


def test_verify_stats_prints_the_dice_chart(tmp_path: Path) -> None:
    table = play_to_end(["Ann", "Bob"], 7, [70, 71])  # two seats: the shortest game to verify
    log = write_log(tmp_path / "seat0.hexlan", table.opening.to_payload(), table.logs[0])
    result = CliRunner().invoke(cli, ["verify", "--stats", str(log)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    head = lines.index("  dice totals against the expected (┆):")
    rows = lines[head + 1 : head + 1 + len(DICE_TOTALS)]
    data = CliRunner().invoke(cli, ["verify", "--stats", "--json", str(log)]).output
    dice = json.loads(data)["stats"]["distributions"][0]
    assert dice["total"] == sum(dice["observed"]) > 10
    peak = max(*dice["observed"], *dice["expected"])
    for total, row, observed, expected in zip(
        DICE_TOTALS, rows, dice["observed"], dice["expected"], strict=True
    ):
        assert row.split()[0] == str(total)
        assert row.endswith(f"{observed:>3}  exp {expected:.1f}")
        assert row.count("█") == round(observed * 40 / peak)
        assert ("┆" in row) == (observed < expected)


async def test_the_game_screens_dice_chart_fits_80x24(tmp_path: Path) -> None:
    app = make_app(2, 1, "beginner", "You", 0.01, autoplay=True, log_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if len(app.game.rolls) >= 6:
                break
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, DiceScreen)
        chart = app.screen.query_one("#histogram", Static)
        text = str(chart.render())
        shown = re.search(r"^(\d+) rolls", text, re.MULTILINE)
        assert shown is not None and 6 <= int(shown.group(1)) <= len(app.game.rolls)
        assert [line.split()[0] for line in text.splitlines()[:11]] == [str(t) for t in DICE_TOTALS]
        region = app.screen.query_one(".dialog").region
        assert region.right <= 80 and region.bottom <= 24
        assert chart.region.height >= 12
        await pilot.press("escape")
        assert not isinstance(app.screen, DiceScreen)
        screen = app.game_screen
        screen.autoplayer = None  # the bots stop once the person is due: a quiet exit
        for _ in range(3000):
            await pilot.pause()
            if not screen._bots_running:
                break
