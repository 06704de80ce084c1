"""The command line: light start-up, `hexlan simulate` output, clear errors on bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexlan.cli import main
from hexlan.engine.ruleset import GAMES


def test_help_imports_neither_textual_nor_crypto() -> None:
    """`hexlan --help` stays light (developers' guide: start-up)."""
    code = (
        "import sys; from hexlan.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('textual', 'cryptography', 'nacl', 'msgpack')]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_simulate_json_reports_every_game_with_a_winner() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "--games", "3", "--players", "3", "--bots", "random", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert [g["seed"] for g in report["games"]] == [0, 1, 2]
    for game in report["games"]:
        assert game["winner"] in (0, 1, 2)
        assert game["victory_points"][game["winner"]] >= 10
        assert len(game["victory_points"]) == 3
        assert game["turns"] > 0 and game["actions"] > game["turns"]
    assert report["games_per_second"] > 0


def test_simulate_is_deterministic_per_seed() -> None:
    args = ["simulate", "--games", "2", "--bots", "heuristic,random,random,random", "--json"]
    first = json.loads(CliRunner().invoke(main, [*args, "--seed", "7"]).output.splitlines()[-1])
    second = json.loads(CliRunner().invoke(main, [*args, "--seed", "7"]).output.splitlines()[-1])
    assert first["games"] == second["games"]


def test_simulate_plain_output_summarises() -> None:
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--bots", "random"])
    assert result.exit_code == 0
    assert "1 games in" in result.output and "wins" in result.output


def test_bad_arguments_get_clear_errors_and_no_traceback() -> None:
    runner = CliRunner()
    unknown_bot = runner.invoke(main, ["simulate", "--games", "1", "--bots", "genius"])
    assert unknown_bot.exit_code == 2 and "unknown bot 'genius'" in unknown_bot.output
    wrong_count = runner.invoke(main, ["simulate", "--games", "1", "--bots", "random,random"])
    assert wrong_count.exit_code == 2 and "give one bot or 4" in wrong_count.output
    players = runner.invoke(main, ["play", "--players", "7"])
    assert players.exit_code == 2 and "--players" in players.output
    for result in (unknown_bot, wrong_count, players):
        assert "Traceback" not in result.output


# ---------------------------------------------------------------------- games (--game)


@pytest.mark.parametrize("players", [5, 6])
def test_simulate_five_six_ends_every_game_with_a_winner_and_names_the_game(players: int) -> None:
    args = ["simulate", "--game", "five-six", "--players", str(players), "--games", "3", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["game"] == "five-six"
    assert report["bots"] == ["heuristic"] * players
    for game in report["games"]:
        assert len(game["victory_points"]) == players
        assert game["winner"] is not None and game["victory_points"][game["winner"]] >= 10


def test_simulate_names_the_base_game_and_five_six_defaults_to_five_seats() -> None:
    base = CliRunner().invoke(main, ["simulate", "--games", "1", "--bots", "random", "--json"])
    assert json.loads(base.output.splitlines()[-1])["game"] == "base"
    five = CliRunner().invoke(
        main, ["simulate", "--game", "five-six", "--games", "1", "--bots", "random", "--json"]
    )
    assert five.exit_code == 0, five.output
    assert len(json.loads(five.output.splitlines()[-1])["bots"]) == 5


def test_help_lists_the_games_and_their_seats() -> None:
    for command in ("play", "simulate"):
        output = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
        games = "|".join(GAMES)
        assert f"[{games}]" in output and "seafarers-new-shores-3" in games
        assert "five-six (5-6 players)" in output and "jungle (2-4 players)" in output
        assert "(3 players)" in output and "(3-3 players)" not in output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--games", "1", "--game", "atlantis"], "'atlantis' is not one of"),
        (["simulate", "--games", "1", "--game", "five-six", "--players", "7"], "--players"),
        (["simulate", "--games", "1", "--game", "five-six", "--players", "4"], "5 to 6 players"),
        (["simulate", "--games", "1", "--players", "5"], "the base game takes 2 to 4 players"),
        (["simulate", "--games", "1", "--game", "five-six", "--board", "beginner"], "no beginner"),
        (["play", "--game", "five-six", "--players", "3"], "5 to 6 players, not 3"),
        (["play", "--players", "6"], "the base game takes 2 to 4 players, not 6"),
        (
            ["simulate", "--games", "1", "--game", "seafarers-pirate-islands", "--players", "3"],
            "the seafarers-pirate-islands game takes 4 players, not 3",
        ),
        (["play", "--game", "five-six", "--board", "beginner"], "no beginner board"),
    ],
)
def test_bad_game_arguments_get_one_line_errors_and_no_traceback(
    args: list[str], words: str
) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    assert "Traceback" not in result.output


def test_map_lists_the_packaged_maps_and_checks_a_file() -> None:
    listing = CliRunner().invoke(main, ["map"])
    assert listing.exit_code == 0
    assert "five-six: 30 land and 22 sea hexes, 80 intersections, 109 paths, 11 harbours" in (
        listing.output
    )
    good = CliRunner().invoke(main, ["map", "seeds/boards/base.toml", "--json"])
    assert json.loads(good.output)["intersections"] == 54


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("land = [[0, 0]]\nterrains = { F = 1 }\ntokens = []\nspirals = []\n", "0 number tokens"),
        (
            "land = [[0, 0]]\nterrains = { D = 1 }\ntokens = []\nspirals = []\n"
            'harbours = [{ hex = [4, 4], side = "E" }]\nharbour_kinds = ["3:1"]\n',
            "no land hex at [4, 4]",
        ),
        ("land = [[0, 0]\n", "Unclosed array"),
    ],
)
def test_a_bad_map_file_gets_one_line_and_no_traceback(
    tmp_path: Path, text: str, words: str
) -> None:
    """A hex off the map, a missing token, a file that is not TOML: one error line, exit 2."""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["map", str(path)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    assert "Traceback" not in result.output
