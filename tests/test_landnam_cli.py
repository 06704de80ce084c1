"""`hexlan simulate --game landnam` plays Landnám headless; `hexlan play` and `hexlan host` take
it at its own table (tests/test_tui_landnam.py, tests/test_tui_landnam_net.py play them); bad CLI
input gets a clear error, no traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hexlan.cli import main


def test_simulate_plays_landnam_to_a_winner() -> None:
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--game",
            "landnam",
            "--games",
            "2",
            "--players",
            "3",
            "--bots",
            "random",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.splitlines()[-1])
    assert report["game"] == "landnam" and len(report["games"]) == 2
    for game in report["games"]:
        assert game["winner"] is not None and max(game["victory_points"]) >= 12


def test_simulate_is_deterministic_per_seed() -> None:
    args = [
        "simulate",
        "--game",
        "landnam",
        "--games",
        "1",
        "--bots",
        "random",
        "--json",
        "--seed",
        "5",
    ]
    first, second = (json.loads(CliRunner().invoke(main, args).output) for _ in range(2))
    assert first["games"] == second["games"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["host", "--game", "landnam", "--seats", "6"], "landnam takes 3 to 5 seats, not 6"),
        (["play", "--game", "landnam", "--players", "6"], "3 to 5 players"),
        (["simulate", "--game", "landnam", "--games", "1", "--players", "6"], "3 to 5 players"),
        (["simulate", "--game", "landnam", "--games", "1", "--board", "beginner"], "unexplored"),
        (
            ["simulate", "--game", "landnam", "--games", "1", "--option", "landnam_radius=4"],
            "landnam_radius is 2 or 3",
        ),
        (
            ["simulate", "--game", "landnam", "--games", "1", "--option", "jungle_number=4"],
            "the landnam game has no option 'jungle_number'",
        ),
    ],
)
def test_bad_landnam_arguments_get_one_clear_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and result.exception is not None
    assert words in result.output and "Traceback" not in result.output
