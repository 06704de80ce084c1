"""The command line: light start-up, `hexlan simulate` output, clear errors on bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from hexlan.cli import main


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
