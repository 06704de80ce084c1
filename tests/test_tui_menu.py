"""The start menu (tui/screens/menu.py): `hexlan` with no command opens it; it only chooses, and
exits with the command line of the choice, which the CLI then runs."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Label, OptionList, Static

from hexlan.cli import main, menu_services
from hexlan.engine.ruleset import CATAN_GAMES as GAMES  # the menu lists the games it can play
from hexlan.tui.screens.menu import (
    Command,
    GamePicker,
    LogPicker,
    OptionsForm,
    SettingsForm,
    StartApp,
    TablePicker,
)

SIZE = (80, 24)


async def test_enter_on_the_first_entry_plays_the_base_game(tmp_path: Path) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
    assert app.return_value == ("play",)


async def test_another_game_against_bots_by_keys(tmp_path: Path) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, GamePicker)
        games = picker.query_one(OptionList)
        assert games.option_count == len(GAMES)
        assert "becomes a jungle" in str(games.get_option("jungle").prompt)  # its one line
        await pilot.press(*["down"] * GAMES.index("jungle"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, TablePicker)
        seats = app.screen.query_one("#seats", OptionList)
        assert seats.option_count == 3 and seats.highlighted == 2  # 2-4 players, 4 by default
        await pilot.press("enter")  # 4 players; then the bots
        await pilot.pause()
        await pilot.press("down", "enter")  # the search bots
        await pilot.pause()
        assert isinstance(app.screen, OptionsForm)
        await pilot.press("enter")  # Start, with the official rules
    assert app.return_value == ("play", "--game", "jungle", "--players", "4", "--strategy", "mcts")


async def test_hosting_picks_the_seats_in_the_games_range(tmp_path: Path) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        await pilot.press(*["down"] * GAMES.index("five-six"), "enter")
        await pilot.pause()
        seats = app.screen.query_one("#seats", OptionList)
        assert seats.option_count == 2 and seats.highlighted == 0  # 5 or 6, 5 nearest to 4
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press("enter")  # Start
    assert app.return_value == ("host", "--game", "five-six", "--seats", "6")


async def test_escape_goes_back_and_q_quits(tmp_path: Path) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GamePicker)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("q")
    assert app.return_value is None


async def test_replay_lists_the_newest_logs_and_takes_a_path(tmp_path: Path) -> None:
    for n, name in enumerate(["old.hexlan", "new.hexlan"]):
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (1_000_000 + n, 1_000_000 + n))
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 5, "enter")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, LogPicker)
        logs = picker.query_one(OptionList)
        assert [logs.get_option_at_index(i).id for i in range(2)] == [
            str(tmp_path / "new.hexlan"),
            str(tmp_path / "old.hexlan"),
        ]
        picker.query_one(Input).focus()
        await pilot.press(*"~/x.hexlan", "enter")
    assert app.return_value == ("replay", str(Path("~/x.hexlan").expanduser()))


async def test_settings_are_checked_and_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    saved = tmp_path / "config" / "hexlan" / "settings.toml"
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 6, "enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, SettingsForm)
        form.query_one("#setting-name", Input).value = "Ann"
        form.query_one("#setting-bot_delay", Input).value = "99"
        form.query_one("#setting-bell", Input).value = "no"
        await pilot.press("ctrl+s")
        await pilot.pause()
        status = str(form.query_one("#settings-status", Static).render())
        assert "bot_delay" in status and "0<=x<=10" in status and not saved.exists()
        form.query_one("#setting-bot_delay", Input).value = "0.2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "saved" in str(form.query_one("#settings-status", Static).render())
    assert tomllib.loads(saved.read_text()) == {"name": "Ann", "bot_delay": 0.2, "bell": False}


def test_hexlan_alone_runs_the_menu_and_then_the_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The choice runs as if typed (here `hexlan settings`, which prints); --help still
    prints the help, with no menu."""
    from hexlan.tui.screens import menu

    chosen: list[Path] = []

    def run_menu(log_dir: Path, services: object) -> tuple[str, ...]:
        chosen.append(log_dir)
        return ("settings",)

    monkeypatch.setattr(menu, "run_menu", run_menu)
    env = {"XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = CliRunner().invoke(main, [], env=env)
    assert result.exit_code == 0 and "settings file:" in result.output
    assert chosen == [tmp_path / "data" / "hexlan" / "logs"]
    help_text = CliRunner().invoke(main, ["--help"], env=env)
    assert help_text.exit_code == 0 and "Usage:" in help_text.output and len(chosen) == 1


async def _options_form(app: StartApp, pilot: Pilot[Command | None], game: str) -> OptionsForm:
    """Play ``game`` at its default table against the default bots: the options form."""
    await pilot.pause()
    await pilot.press("down", "enter")
    await pilot.pause()
    await pilot.press(*["down"] * GAMES.index(game), "enter")
    await pilot.pause()
    await pilot.press("enter", "enter")  # the default seats, the heuristic bots
    await pilot.pause()
    form = app.screen
    assert isinstance(form, OptionsForm)
    return form


async def test_the_options_form_gives_only_the_changed_options(tmp_path: Path) -> None:
    """One flag toggled by Enter, one number typed: exactly those two `--option` items (and
    the board, toggled by a click); every option is listed in its words."""
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        form = await _options_form(app, pilot, "jungle")
        box = form.query_one("#opt-largest_army", Checkbox)
        assert str(box.label) == "Largest Army is awarded" and not box.value
        assert form.query("#opt-jungle_robber_blocks")  # the game's own options are there
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert box.value and str(box.label) == "no Largest Army"
        form.query_one("#opt-victory_points", Input).focus()
        await pilot.press(*"7")
        await pilot.pause()
        words = form.query_one("#words-victory_points", Label)
        assert str(words.render()) == "7 victory points to win"
        await pilot.click("#board")
        await pilot.pause()
        form.query_one("#start").focus()
        await pilot.press("enter")
    assert app.return_value == (
        *("play", "--game", "jungle", "--players", "4", "--strategy", "heuristic"),
        *("--board", "random"),
        *("--option", "victory_points=7", "--option", "largest_army=no"),
    )


async def test_a_refused_number_says_why_and_chooses_nothing(tmp_path: Path) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        form = await _options_form(app, pilot, "base")
        form.query_one("#opt-longest_road_min", Input).value = "0"
        form.query_one("#start").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form and app.is_running
        status = str(form.query_one("#options-status", Static).render())
        assert status == "game option longest_road_min is a whole number from 1, not '0'"
        await pilot.press("escape")  # back to the seats and bots
        await pilot.pause()
        assert isinstance(app.screen, TablePicker)


async def test_the_menus_command_line_runs_with_its_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real CLI takes the command line the form gives: the chosen options (a game's own
    flag and a shared number) reach the game's runner."""
    import hexlan.tui.app as tui_app
    from hexlan.engine.options import GameOptions

    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=SIZE) as pilot:
        form = await _options_form(app, pilot, "cities-and-knights")
        form.query_one("#opt-ck_one_monopoly_per_turn", Checkbox).value = True
        form.query_one("#opt-victory_points", Input).value = "11"
        form.query_one("#start").focus()
        await pilot.press("enter")
    line = app.return_value
    assert line is not None
    seen: dict[str, dict[str, object]] = {}
    monkeypatch.setattr(tui_app, "run_play", lambda **kw: seen.setdefault("play", kw) and 0)
    result = CliRunner().invoke(main, list(line))
    assert result.exit_code == 0, result.output
    play = seen["play"]
    assert play["game"] == "cities-and-knights" and play["board"] == "beginner"
    assert play["options"] == GameOptions.of(victory_points=11, ck_one_monopoly_per_turn=True)
