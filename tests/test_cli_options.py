"""Game options on the command line (`--option NAME[=VALUE]`): :meth:`GameOptions.parse` reads
every accepted form and refuses each bad one in one line; `hexlan simulate` plays the options it
was given and names them; `hexlan bot --host --option` seats a table whose signed opening carries
them, and its joiners finish that game over 127.0.0.1; a bad option is exit 2 and one line."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hexlan.cli import main
from hexlan.engine.core import EngineError
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants import declared_options
from hexlan.net.log import read_log
from hexlan.net.wire import Opening
from hexlan.simulate import play_game

HEXLAN = [sys.executable, "-m", "hexlan"]

# ---------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([], GameOptions()),
        (["knight_only_before_roll"], GameOptions(knight_only_before_roll=True)),
        (["largest_army=no"], GameOptions(largest_army=False)),
        (["largest_army=OFF", "largest_army=on"], GameOptions()),
        (
            ["piece_limits=false", "mixed_three_to_one=1"],
            GameOptions(piece_limits=False, mixed_three_to_one=True),
        ),
        (["victory_points=3"], GameOptions(victory_points=3)),
        (["victory_points=3", "victory_points=none"], GameOptions()),
        ([" longest_road_min = 6 "], GameOptions(longest_road_min=6)),
        (["seed003"], GameOptions.seed003()),
        (["seed003", "largest_army=yes"], replace(GameOptions.seed003(), largest_army=True)),
        (["victory_points=5", "seed003"], replace(GameOptions.seed003(), victory_points=5)),
    ],
)
def test_parse_reads_every_accepted_form(items: list[str], expected: GameOptions) -> None:
    assert GameOptions.parse(items) == expected


def test_parse_takes_a_variants_options_only_in_its_game() -> None:
    jungle = GameOptions.parse(
        ["jungle_number=4", "jungle_robber_blocks=no"], load_ruleset("jungle")
    )
    assert (jungle.number("jungle_number"), jungle.flag("jungle_robber_blocks")) == (4, False)
    river = GameOptions.parse(["river_gold_points=off"], load_ruleset("big-river"))
    assert river.flag("river_gold_points") is False
    ck = GameOptions.parse(["ck_improve_without_city"], load_ruleset("cities-and-knights"))
    assert ck.flag("ck_improve_without_city") is True
    # every variant option belongs to exactly one game's list; the base game has none of them
    assert not set(declared_options()) & set(GameOptions.names(load_ruleset("base")))
    assert "victory_points" in GameOptions.names(load_ruleset("cities-and-knights"))


@pytest.mark.parametrize(
    ("items", "game", "words"),
    [
        (["nosuch"], "base", "unknown game option 'nosuch'; the base game takes: victory_points"),
        (["nosuch=3"], "jungle", "the jungle game takes: victory_points,"),
        (["largest_army=maybe"], "base", "game option largest_army is yes or no, not 'maybe'"),
        (["victory_points"], "base", "game option victory_points needs a number"),
        (["victory_points=ten"], "base", "is a whole number from 1, not 'ten'"),
        (["victory_points=0"], "base", "is a whole number from 1, not '0'"),
        (["victory_points=-2"], "base", "not '-2'"),
        (["longest_road_min=yes"], "base", "not 'yes'"),
        (["ck_improve_without_city"], "base", "the base game has no option"),
        (["jungle_number=4"], "big-river", "(the jungle game's); it takes:"),
        (["river_gold_points=no"], "jungle", "the jungle game has no option 'river_gold_points'"),
        (["seed003=yes"], "base", "unknown game option 'seed003'"),
    ],
)
def test_parse_refuses_each_bad_item_in_one_line(items: list[str], game: str, words: str) -> None:
    with pytest.raises(EngineError) as raised:
        GameOptions.parse(items, load_ruleset(game))
    message = str(raised.value)
    assert words in message and "\n" not in message


# ---------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--option", "nosuch"], "unknown game option 'nosuch'"),
        (["simulate", "--games", "1", "--option", "jungle_number=4"], "has no option"),
        # the Jungle's own rules refuse a number it does not take
        (
            ["simulate", "--games", "1", "--game", "jungle", "--option", "jungle_number=7"],
            "the jungle takes one of the numbers 3, 4, 5, 9, 10, 11, not 7",
        ),
        (["host", "--option", "largest_army=perhaps"], "yes or no"),
        (["bot", "--host", "--option", "ck_knights_active_after_win"], "has no option"),
        (["bot", "--join", "127.0.0.1:1", "--option", "victory_points=3"], "--option is for"),
    ],
)
def test_a_bad_option_is_exit_2_and_one_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], result.output
    assert "Traceback" not in result.output


def test_play_with_an_unknown_option_exits_2_with_one_line_in_a_process() -> None:
    run = subprocess.run(
        [*HEXLAN, "play", "--option", "nosuch"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and run.stdout == ""
    errors = [line for line in run.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "unknown game option 'nosuch'" in errors[0], run.stderr
    assert "Traceback" not in run.stderr


def test_help_of_each_command_names_the_flag() -> None:
    for command in (["play"], ["simulate"], ["host"], ["bot"]):
        output = " ".join(CliRunner().invoke(main, [*command, "--help"]).output.split())
        assert "--option NAME[=VALUE]" in output and "seed003" in output, command
        assert "victory_points" in output


def test_simulate_plays_the_jungle_number_given_and_names_it() -> None:
    """`hexlan simulate --game jungle --option jungle_number=4`: the JSON names the option, and
    the same seed's game with the option differs from the one without (the jungle's token)."""
    args = ["simulate", "--game", "jungle", "--games", "2", "--bots", "random", "--json"]
    run = subprocess.run(
        [*HEXLAN, *args, "--option", "jungle_number=4"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["game"] == "jungle" and report["options"] == {"jungle_number": 4}
    assert len(report["games"]) == 2
    plain = CliRunner().invoke(main, args)
    assert plain.exit_code == 0, plain.output
    plain_report = json.loads(plain.output.strip().splitlines()[-1])
    assert "options" not in plain_report  # no option given: the JSON is what it was
    assert plain_report["games"] != report["games"]


def test_play_game_lays_the_jungle_number_on_the_board() -> None:
    """The engine state proves it: the jungle's token is the option's number."""
    seen: list[int] = []

    def observe(state: GameState, _action: object) -> None:
        if not seen:
            variant = state.variant
            assert variant is not None
            seen.extend(state.board.tokens[h] for h in variant.jungle)  # type: ignore[attr-defined]

    options = GameOptions.of(jungle_number=4)
    play_game(0, ["random"] * 3, game="jungle", options=options, observe=observe)
    assert seen and set(seen) == {4}


def test_simulate_with_victory_points_three_ends_games_at_three() -> None:
    result = CliRunner().invoke(
        main,
        ["simulate", "--games", "2", "--players", "2", "--json", "--option", "victory_points=3"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["options"] == {"victory_points": 3}
    for game in report["games"]:
        assert game["winner"] is not None and 3 <= game["victory_points"][game["winner"]] < 10


# ---------------------------------------------------------------------- a networked table


@pytest.mark.slow
def test_a_hosting_bot_seats_a_table_with_its_options(tmp_path: Path) -> None:
    """`hexlan bot --host --seats 2 --option victory_points=3` and one joiner finish the game
    over 127.0.0.1; both logs' signed openings carry the option and the peers agree."""
    from test_peer import assert_agreement, finish, free_port, start_bot, wait_until_listening

    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(2)]
    host = ["--host", "--seats", "2", "--port", str(port), "--option", "victory_points=3"]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    procs.append(
        start_bot("--join", f"127.0.0.1:{port}", "--seed", "1", "--log", str(logs[1]), "--quiet")
    )
    finals = assert_agreement(finish(procs))
    assert [f["audit"] for f in finals] == ["passed"] * 2
    for path in logs:
        opening = Opening.from_payload(read_log(path).opening)
        assert opening.game_options() == GameOptions(victory_points=3)


def test_play_threads_the_options_into_the_tables_opening(tmp_path: Path) -> None:
    """`hexlan play --option` reaches the game: the app's table opens with the options."""
    from hexlan.net.client import SessionGame
    from hexlan.tui.app import make_app

    options = GameOptions.parse(["victory_points=5", "largest_army=no"])
    app = make_app(players=2, seed=3, bot_delay=0, save_log=False, options=options)
    assert isinstance(app.game, SessionGame)
    assert app.game.table.opening.game_options() == options
    plain = make_app(players=2, seed=3, bot_delay=0, save_log=False)
    assert isinstance(plain.game, SessionGame)
    assert plain.game.table.opening.game_options() == GameOptions()


def test_play_and_host_hand_the_parsed_options_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands pass what `--option` says to the app runners (the runners are caught here:
    the tests above and below run the real ones with options)."""
    import hexlan.tui.app as tui_app

    seen: dict[str, object] = {}
    monkeypatch.setattr(tui_app, "run_play", lambda **kw: seen.setdefault("play", kw) and 0)
    monkeypatch.setattr(tui_app, "run_host", lambda options: seen.setdefault("host", options) and 0)
    runner = CliRunner()
    args = ["--game", "jungle", "--option", "jungle_number=9", "--option", "victory_points=4"]
    assert runner.invoke(main, ["play", *args]).exit_code == 0
    assert runner.invoke(main, ["host", *args]).exit_code == 0
    expected = GameOptions.of(jungle_number=9, victory_points=4)
    play = seen["play"]
    assert isinstance(play, dict) and play["options"] == expected
    host = seen["host"]
    assert getattr(host, "options", None) == expected and getattr(host, "game", None) == "jungle"


@pytest.mark.slow
async def test_a_tui_host_opens_its_table_with_its_options(data_dir: Path) -> None:
    """`hexlan host --option` as the app runs it: a 2-seat table hosted from the TUI with one
    `hexlan bot` process opens with the host's options, which the bot's own log carries too."""
    from ports import free_port
    from test_tui_net import WIDE, wait_for

    from hexlan.net.client import NetworkGame
    from hexlan.tui.app import make_net_app
    from hexlan.tui.screens.lobby import NetOptions

    chosen = GameOptions(victory_points=3, largest_army=False)
    options = NetOptions(
        name="Ann",
        identity_path=data_dir / "ann.pem",
        log_path=data_dir / "host.hexlan",
        port=free_port(),
        seats=2,
        bots=1,
        announce=False,
        bot_args=["--quiet"],
        bot_delay=0,
        options=chosen,
    )
    app = make_net_app(options, host=True, bot_delay=0, autoplay=True)
    async with app.run_test(size=WIDE) as pilot:
        assert await wait_for(pilot, lambda: hasattr(app, "game"), 30)
        game = app.game
        assert isinstance(game, NetworkGame)
        assert game.peer.opening.game_options() == chosen
        assert game.view.target == 3
        await pilot.press("ctrl+q")
    assert Opening.from_payload(read_log(data_dir / "host.hexlan").opening).game_options() == chosen
