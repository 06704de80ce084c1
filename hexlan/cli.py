"""The `hexlan` command line.

Start-up stays light: each command imports what it needs when it runs, so `hexlan --help` loads
neither Textual nor any crypto library.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from hexlan.engine.core import MAX_SEATS, EngineError
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import CATAN_GAMES, GAMES, game_summary, load_ruleset, state_spec

if TYPE_CHECKING:  # the TUI is imported only when a screen is shown
    import random

    from hexlan.tui.screens.menu import MenuServices


def _games_help() -> str:
    ranges = ", ".join(
        f"{name} ({low if low == high else f'{low}-{high}'} players)"
        for name, low, high, _ in map(game_summary, GAMES)
    )
    return f"The game (seeds/<game>.toml): {ranges}."


def _played_game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--game`` of a command that plays at a table in the terminal UI (`hexlan play`,
    `hexlan host`): a Catan game, or a game with a state of its own whose spec makes its
    state (its TUI modules give it a table).

    Raises:
        click.BadParameter: a game with a state of its own but no state factory.
    """
    spec = state_spec(value)
    if value in CATAN_GAMES or (spec is not None and spec.state is not None):
        return value
    raise click.BadParameter(f"{value} has no table to play at")


_GAME_OPTION = click.option(
    "--game",
    type=click.Choice(GAMES),
    default="base",
    show_default=True,
    help=_games_help(),
    callback=_played_game,
)
_SIMULATE_GAME_OPTION = click.option(
    "--game", type=click.Choice(GAMES), default="base", show_default=True, help=_games_help()
)
_SEATS_OPTION = click.option(
    "--seats",
    "--players",
    "seats",
    type=click.IntRange(2, MAX_SEATS),
    default=None,
    help="Table size, within the game's range (hosting; default 4, or the game's nearest to 4).",
)
_PLAYERS_OPTION = click.option(
    "--players",
    type=click.IntRange(2, MAX_SEATS),
    default=None,
    help="Seats, within the game's range (default: 4, or the game's nearest to 4).",
)


def _players(game: str, players: int | None, what: str = "players") -> int:
    """``--players`` (or ``--seats``: ``what``) checked against the game's seat range; when
    not given, 4 brought into that range (5 in ``five-six``).

    Raises:
        click.BadParameter: a count outside the game's range.
    """
    try:
        if state_spec(game) is not None:
            _, fewest, most, _ = game_summary(game)
            count = min(max(4, fewest), most) if players is None else players
            if not fewest <= count <= most:
                raise EngineError(f"{game} takes {fewest} to {most} {what}, not {count}")
            return count
        return load_ruleset(game).seat_count(players, what)
    except EngineError as exc:
        raise click.BadParameter(str(exc), param_hint=f"'--{what}'") from None


_OPTION_OPTION = click.option(
    "--option",
    "game_options",
    metavar="NAME[=VALUE]",
    multiple=True,
    help="A game option: a reading of the rules other than the official one, recorded in the "
    "game's opening and log (repeatable). NAME alone turns a yes/no option on, NAME=yes|no sets "
    "it; NAME=N sets a number, NAME=none the rule set's. 'seed003' turns on every seed 003 reading. Names: "
    f"{', '.join(GameOptions.names())}; and each game's own (a bad name lists the game's). "
    "docs/rules/*.md explain each.",
)


def parse_game_options(game: str, items: tuple[str, ...]) -> GameOptions:
    """``--option`` items parsed for ``game`` (:meth:`GameOptions.parse`) and checked by the
    game's rules module (e.g. a jungle number the Jungle does not take).

    Raises:
        click.BadParameter: in one line, what :meth:`GameOptions.parse` or the rules refuse.
    """
    from hexlan.engine.maps import load_map
    from hexlan.engine.variants import make_variant

    spec = state_spec(game)
    if spec is not None and spec.state is not None:
        try:
            options = GameOptions.parse(items, spec=spec)
            spec.state(game, game_summary(game)[1], options)
        except EngineError as exc:
            raise click.BadParameter(str(exc), param_hint="'--option'") from None
        return options
    rules = load_ruleset(game)
    try:
        options = GameOptions.parse(items, rules)
        make_variant(rules, options, load_map(rules.board, rules.terrains).topology)
    except EngineError as exc:
        raise click.BadParameter(str(exc), param_hint="'--option'") from None
    return options


def check_board_kind(game: str, board: str | None) -> str:
    """``--board`` checked against the game's map; None is its beginner board if it has one,
    else a random board.

    Raises:
        click.BadParameter: a beginner board of a map that has none.
    """
    from hexlan.engine.maps import load_map

    if state_spec(game) is not None:
        if board not in (None, "random"):
            raise click.BadParameter(
                f"{game} starts from an unexplored board: there is no {board} board",
                param_hint="'--board'",
            )
        return "random"
    map_name = load_ruleset(game).board
    if board is None:
        return "random" if load_map(map_name).beginner is None else "beginner"
    if board == "beginner" and load_map(map_name).beginner is None:
        raise click.BadParameter(
            f"the {map_name} map has no beginner board; use --board random",
            param_hint="'--board'",
        )
    return board


_THINK_OPTION = click.option(
    "--think",
    type=click.FloatRange(0.01, 60),
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds a searching bot (mcts) may think per decision.",
)
_STRATEGIES = "random, heuristic or mcts"


def _strategy(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """The ``--strategy`` option's check: a bot's name (None: the command's default)."""
    from hexlan.engine.bots import BOTS

    if value is not None and value not in BOTS:
        raise click.BadParameter(
            f"unknown bot {value!r}; choose from {', '.join(sorted(BOTS))}",
            param_hint="'--strategy'",
        )
    return value


_BELL_OPTION = click.option(
    "--bell/--no-bell",
    default=True,
    show_default=True,
    help="Ring the terminal bell once when the game comes to wait for you.",
)
_TITLE_OPTION = click.option(
    "--title/--no-title",
    default=True,
    show_default=True,
    help="Set the terminal's title to what the game waits for from you.",
)
_PLAY_DEFAULT = {"base": "mcts"}
"""The bots ``play`` seats by game: the strongest that answers within its budget. The search
bot beats heuristic bots as one seat of four in the base game (scripts/bench_mcts.py: 36% at
112 playouts a decision, 95% interval 27-47%, N=83); in the other games it is unmeasured."""


def _bot_list(value: str, players: int) -> list[str]:
    """``--bots`` as one bot name per seat.

    Raises:
        click.BadParameter: a wrong count or an unknown name.
    """
    from hexlan.engine.bots import BOTS

    names = [name.strip() for name in value.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise click.BadParameter(f"give one bot or {players} comma-separated bots, not {value!r}")
    for name in names:
        if name not in BOTS:
            raise click.BadParameter(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    return names


class _Hexlan(click.Group):
    """The ``hexlan`` group: keeps the command line it parses in ``ctx.meta["hexlan.args"]``,
    so that the group reads a command's ``--lang`` ahead of the command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["hexlan.args"] = list(args)
        return super().parse_args(ctx, args)


@click.group(
    cls=_Hexlan,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(package_name="hexlan")
@click.pass_context
def main(ctx: click.Context) -> None:
    """hexlan: Settlers of Catan-style games in the terminal, with no trusted server.

    With no command, a start menu opens: play against bots, host, join, watch, replay a log,
    settings. Your saved settings (`hexlan settings`) are the defaults of the options they
    name; an option given here overrides its setting.
    """
    from hexlan.i18n import current_language, set_language
    from hexlan.settings import command_defaults, read_settings, settings_path

    def warn(line: str) -> None:
        click.echo(f"hexlan: {line}", err=True)

    path = settings_path()
    # the language first, so that the settings' own warnings are in it: the command's --lang
    # (read ahead; its option sets it again when the command is parsed), else this group's,
    # else the saved setting's, else the locale's
    asked = _lang_asked(ctx.meta.get("hexlan.args", []))
    if asked is None and ctx.get_parameter_source("lang") is not ParameterSource.COMMANDLINE:
        set_language(_saved_language(read_settings(path, lambda _line: None)))
    elif asked is not None:
        set_language(asked)
    saved = read_settings(path, warn)
    if saved and ctx.invoked_subcommand != "settings":  # it shows the file as it is
        assert isinstance(ctx.command, click.Group)  # main is a group
        ctx.default_map = command_defaults(ctx.command, ctx, saved, warn)
    if ctx.invoked_subcommand is None:
        from hexlan.net.client import default_log_dir
        from hexlan.tui.screens import menu

        choice = menu.run_menu(default_log_dir(), menu_services())
        if choice is not None:  # run it as if typed
            main.main(args=[*choice, "--lang", current_language()], prog_name="hexlan")


def _lang_asked(args: list[str]) -> str | None:
    """The language a command's ``--lang`` asks for among its arguments ``args``, if one of
    :data:`~hexlan.i18n.LANGUAGES` (the option itself refuses any other)."""
    from hexlan.i18n import LANGUAGES

    for here, arg in enumerate(args):
        value = args[here + 1] if arg == "--lang" and here + 1 < len(args) else None
        value = arg.removeprefix("--lang=") if arg.startswith("--lang=") else value
        if value in LANGUAGES:
            return value
    return None


def _saved_language(saved: Mapping[str, object]) -> str | None:
    """The saved ``lang`` setting, if one of :data:`~hexlan.i18n.LANGUAGES` (else the
    settings' check warns of it), else None."""
    from hexlan.i18n import LANGUAGES

    value = saved.get("lang")
    return value if isinstance(value, str) and value in LANGUAGES else None


def menu_services() -> MenuServices:
    """What the start menu asks of the command line: the checks of ``--option``, the default
    board and the saved settings, as the commands apply them
    (:class:`~hexlan.tui.screens.menu.MenuServices`)."""
    from hexlan.settings import read_settings, save_settings, setting_value, settings_path
    from hexlan.tui.screens.menu import MenuServices

    def check_options(game: str, items: tuple[str, ...]) -> GameOptions:
        try:
            return parse_game_options(game, items)
        except click.BadParameter as exc:
            raise ValueError(exc.message) from None

    def check_setting(key: str, text: str) -> object:
        try:
            return setting_value(main, click.Context(main), key, text)
        except click.BadParameter as exc:
            raise ValueError(exc.message) from None

    def save(values: Mapping[str, object]) -> str:
        path = settings_path()
        save_settings(path, values)
        return str(path)

    return MenuServices(
        check_options=check_options,
        default_board=lambda game: check_board_kind(game, None),
        read_settings=lambda: read_settings(settings_path(), lambda _line: None),
        check_setting=check_setting,
        save_settings=save,
    )


@main.command(name="settings")
@click.argument("assignments", nargs=-1, metavar="[KEY=VALUE]...")
def settings_command(assignments: tuple[str, ...]) -> None:
    """Show your saved settings, or save some: KEY=VALUE with KEY one of name, bot_delay,
    strategy, think, bell, title, lang (e.g. `hexlan settings name=Ann bell=false`). Each is the
    default of the option of that name in every command that has one."""
    from hexlan.settings import (
        SETTINGS,
        read_settings,
        save_settings,
        setting_value,
        settings_path,
    )

    path = settings_path()
    saved = read_settings(path, lambda line: click.echo(f"hexlan: {line}", err=True))
    ctx = click.get_current_context()
    for item in assignments:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in SETTINGS:
            raise click.BadParameter(
                f"{item!r}: give KEY=VALUE, KEY one of {', '.join(SETTINGS)}",
                param_hint="'KEY=VALUE'",
            )
        saved[key] = setting_value(main, ctx, key, text.strip())
    if assignments:
        try:
            save_settings(path, saved)
        except OSError as exc:
            raise click.ClickException(f"cannot save the settings to {path}: {exc}") from None
    click.echo(f"settings file: {path}")
    for key in SETTINGS:
        if key in saved:
            click.echo(f"  {key} = {json.dumps(saved[key])}")
    if not saved:
        click.echo("  (none saved: every option has its built-in default)")


@main.command()
@_GAME_OPTION
@_PLAYERS_OPTION
@click.option(
    "--seed", type=int, default=None, help="Seed for the board, dice and bots (not fair)."
)
@click.option(
    "--board",
    type=click.Choice(["beginner", "random"]),
    default=None,
    help="The board (default: the map's beginner board if it has one, else random).",
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds between bot moves.",
)
@click.option(
    "--strategy",
    callback=_strategy,
    default=None,
    help=f"The bots: {_STRATEGIES} (default: mcts in the base game, heuristic in the others).",
)
@_THINK_OPTION
@_OPTION_OPTION
@_BELL_OPTION
@_TITLE_OPTION
def play(
    game: str,
    players: int | None,
    seed: int | None,
    board: str | None,
    name: str,
    bot_delay: float,
    strategy: str | None,
    think: float,
    game_options: tuple[str, ...],
    bell: bool,
    title: bool,
) -> None:
    """Play a game against bots in the terminal (you are the first seat).

    Every seat runs the network protocol in this process. With --seed the game can be replayed
    (the same seed gives the same game), and its log says it is not fair.
    """
    players = _players(game, players)
    board = check_board_kind(game, board)
    options = parse_game_options(game, game_options)
    own = state_spec(game) is not None
    strategy = strategy or _PLAY_DEFAULT.get(game, "heuristic")
    own_bot = _own_bot(game, players, strategy) if own else None
    from hexlan.tui.app import run_play

    sys.exit(
        run_play(
            players=players,
            seed=seed,
            board=board,
            name=name,
            bot_delay=bot_delay,
            game=game,
            strategy=strategy,
            think=think,
            options=options,
            bell=bell,
            title=title,
            own_bot=own_bot,
        )
    )


def _own_bot(game: str, players: int, strategy: str) -> Callable[[random.Random], object]:
    """The bots of a game with a state of its own (``game``, ``players`` seats), by
    ``--strategy``: a factory of one bot from its rng.

    Raises:
        click.BadParameter: a bot such a game does not have.
    """
    import random as rng_module

    from hexlan.engine.bots.own import own_bot

    spec = state_spec(game)
    assert spec is not None and spec.state is not None
    sample = spec.state(game, players, None)  # the bots' registry reads the game's class
    try:
        own_bot(strategy, sample, rng_module.Random(0))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--strategy'") from None
    return functools.partial(own_bot, strategy, sample)


@main.command()
@click.option("--games", type=click.IntRange(1), required=True, help="How many games.")
@_SIMULATE_GAME_OPTION
@_PLAYERS_OPTION
@click.option(
    "--bots",
    "--strategy",
    "bots",
    default="heuristic",
    show_default=True,
    help=f"{_STRATEGIES}, or one per seat comma-separated (e.g. mcts,heuristic,heuristic).",
)
@_THINK_OPTION
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option(
    "--board", type=click.Choice(["beginner", "random"]), default="random", show_default=True
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line of results.")
@_OPTION_OPTION
def simulate(
    games: int,
    game: str,
    players: int | None,
    bots: str,
    think: float,
    seed: int,
    board: str,
    as_json: bool,
    game_options: tuple[str, ...],
) -> None:
    """Play headless games between bots and report the results."""
    from hexlan.simulate import simulate as run

    seats = _players(game, players)
    board = check_board_kind(game, board)
    names = _bot_list(bots, seats)
    options = parse_game_options(game, game_options)
    report = run(
        games, seats, names, seed=seed, board=board, game=game, think=think, options=options
    )
    result = report.to_json(names)
    if as_json:
        click.echo(json.dumps(result))
        return
    finished = [g for g in report.games if g.winner is not None]
    click.echo(
        f"{len(report.games)} games in {report.seconds:.2f} s ({result['games_per_second']} games/s)"
    )
    for seat, (name, wins) in enumerate(zip(names, result["wins"], strict=True)):
        click.echo(f"  seat {seat} {name:<10} {wins:>5} wins")
    if finished:
        turns = sum(g.turns for g in finished) / len(finished)
        click.echo(f"  mean turns per finished game: {turns:.1f}")
    capped = len(report.games) - len(finished)
    if capped:
        click.echo(f"  {capped} games hit the turn cap without a winner")


@main.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object of results.")
@click.option(
    "--stats",
    is_flag=True,
    help="Also print dice and development-card draw distributions with chi-square p-values.",
)
def verify(logs: tuple[str, ...], as_json: bool, stats: bool) -> None:
    """Check game logs: signatures, hash chains, dice, the development deck's proofs, every
    action against the rules, and the end-of-game audit of the whole hidden game.

    Exit status: 0 every log valid and its game audited, 1 a log breaks the protocol or the
    rules (the audit's findings included), 2 a file is not a readable log, 3 valid so far but
    unfinished, abandoned or unaudited (--stats does not change it).
    """
    from hexlan.net.verify import main as run

    sys.exit(run(list(logs), as_json=as_json, stats=stats))


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--seat",
    type=click.IntRange(0, MAX_SEATS - 1),
    default=None,
    help="Whose view to show (default: the log's own seat; needs a log whose audit passed).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the timeline instead, one JSON object per action: step, message, turn, seat, "
    "action, dice, state_hash (with --summary: the statistics as one JSON object).",
)
@click.option(
    "--summary",
    is_flag=True,
    help="Print the end-of-game statistics instead: points turn by turn, cards received and "
    "lost, Longest Road and Largest Army, the dice against fair dice.",
)
@click.option(
    "--chat",
    is_flag=True,
    help="Print the table chat instead, one line each: NAME (seat S): TEXT, control "
    "sequences shown escaped.",
)
def replay(log: Path, seat: int | None, as_json: bool, summary: bool, chat: bool) -> None:
    """Step through a game log (finished, abandoned or cut short) in the terminal: the board,
    hands and log at every action, as the log's seat saw them, or every hand once the
    end-of-game audit opened them.

    Keys: right/left one action, n/p one turn, g a turn by number, space plays (+/- speed),
    a every hand, q quits. Exit status 2: the file is not a readable log.
    """
    from hexlan.net.replay import Replayer, ReplayError, read_timeline

    try:
        timeline = read_timeline(log)
    except ReplayError as exc:
        click.echo(f"hexlan replay: {log}: {exc}", err=True)
        sys.exit(2)
    if chat:
        for line in timeline.chat_lines():
            click.echo(line)
        return
    if summary:
        from hexlan.net.summary import summarize, summary_lines

        figures = summarize(timeline)
        if as_json:
            click.echo(json.dumps(figures.to_json(), separators=(",", ":")))
        else:
            for line in summary_lines(figures):
                click.echo(line)
        return
    if as_json:
        for line in timeline.json_lines():
            click.echo(line)
        return
    try:
        cursor = Replayer(timeline, seat)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--seat'") from None
    from hexlan.tui.app import run_replay

    sys.exit(run_replay(cursor))


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--at",
    type=int,
    required=True,
    help="After how many of the log's actions (0: the opening).",
)
@click.option(
    "--public", is_flag=True, help="The public position: hands as counts, no audit needed."
)
@click.option(
    "--seat",
    type=int,
    default=None,
    help="The position this seat knew: its cards and the public state (needs a passed audit).",
)
def position(log: Path, at: int, public: bool, seat: int | None) -> None:
    """Print the position after the --at N-th action of a game log, as text (docs/POSITION.md):
    the full game by default (every hidden card: needs a log whose audit passed).

    Exit status 2: the file is not a readable log, N is outside it, or the position asked is
    not known from it.
    """
    from hexlan.net.position_log import log_position
    from hexlan.net.replay import ReplayError

    try:
        text = log_position(log, at, public=public, seat=seat)
    except ReplayError as exc:
        click.echo(f"hexlan position: {log}: {exc}", err=True)
        sys.exit(2)
    click.echo(text, nl=False)


@main.command(context_settings={"ignore_unknown_options": True})
@click.option(
    "--host",
    default="0.0.0.0",
    show_default=True,
    help="The interface to listen on (0.0.0.0: every one, so the LAN can connect).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--public-url",
    default=None,
    help="The address browsers reach this server by (default http://LAN-ADDRESS:PORT).",
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def serve(host: str, port: int, public_url: str | None, args: tuple[str, ...]) -> None:
    """Serve the app to web browsers: each browser that opens the page gets its own game.

    After `--` come the served command's options: `hexlan play`'s by default (`hexlan serve --
    --players 3`), or `join HOST:PORT` to take a seat at a LAN table from the browser.
    """
    from hexlan.tui.serve import served_command

    command = served_command(args)
    served = main.get_command(click.get_current_context(), command[0])
    assert served is not None  # served_command names one of our commands
    try:
        served.make_context(command[0], list(command[1:]), resilient_parsing=False)
    except click.exceptions.Exit:
        pass
    except click.ClickException as exc:
        raise click.UsageError(f"hexlan {command[0]}: {exc.format_message()}") from None
    from hexlan.tui.serve import run_serve

    try:
        sys.exit(run_serve(host, port, args, public_url))
    except OSError as exc:
        raise click.ClickException(
            f"cannot serve on {host}:{port}: {exc.strerror or exc}"
        ) from None


def _game_table(game: str, seats: int | None, board: str | None = None) -> tuple[int, str | None]:
    """A networked table of ``game`` (``--game``, a name of :data:`GAMES`): its seats
    (``--seats``; by default 4 brought into the game's range, as ``--players`` of `hexlan
    play`) and board kind (``--board``; None: the game's first, beginner where its map has
    that layout, else random), checked against the game.

    Raises:
        click.BadParameter: a seat count the game does not take, or a board its map does not
            offer (one line each).
    """
    from hexlan.net.wire import board_kinds

    seats = _players(game, seats, "seats")
    kinds = board_kinds(game)
    if board is not None and board not in kinds:
        raise click.BadParameter(
            f"the {game} game's map has no {board} board; it offers {', '.join(kinds)}",
            param_hint="'--board'",
        )
    return seats, board


_TABLE_GAME_OPTION = click.option(
    "--game",
    type=click.Choice(GAMES),
    default="base",
    show_default=True,
    help=_games_help() + " The host chooses; joiners play it.",
    callback=_played_game,
)
_BOT_GAME_OPTION = click.option(
    "--game",
    type=click.Choice(GAMES),
    default="base",
    show_default=True,
    help=_games_help()
    + " The host chooses; joiners play it. A game with a state of its own is played "
    "by its own bots (random and heuristic; mcts where the game has one).",
)


@main.command(name="map")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def map_(path: Path | None, as_json: bool) -> None:
    """Check a map file (docs/rules/maps.md) and describe it: its hexes, intersections, paths
    and harbours. Without PATH, list the packaged maps and the games played on them.

    Exit status: 0 the map is sound, 2 it is not (one line says why).
    """
    import tomllib

    from hexlan.engine.core import EngineError
    from hexlan.engine.maps import BoardMap, compile_map, load_map, map_names

    def summary(board_map: BoardMap) -> dict[str, Any]:
        topo = board_map.topology
        return {
            "map": board_map.name,
            "land": topo.hex_count,
            "sea": len(topo.sea_axial),
            "intersections": topo.node_count,
            "paths": topo.path_count,
            "harbours": len(board_map.harbour_paths),
            "spirals": len(board_map.spirals),
            "beginner": board_map.beginner is not None,
            "games": [g for g in CATAN_GAMES if load_ruleset(g).board == board_map.name],
        }

    try:
        if path is None:
            maps = [summary(load_map(name)) for name in map_names()]
        else:
            raw = tomllib.loads(path.read_text("utf-8"))
            maps = [summary(compile_map(raw, path.stem))]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, EngineError) as exc:
        raise click.UsageError(f"{path}: {exc}") from None
    if as_json:
        click.echo(json.dumps(maps if path is None else maps[0]))
        return
    for m in maps:
        games = ", ".join(m["games"]) or "no packaged game"
        click.echo(
            f"{m['map']}: {m['land']} land and {m['sea']} sea hexes, {m['intersections']}"
            f" intersections, {m['paths']} paths, {m['harbours']} harbours, {m['spirals']}"
            f" token spirals{', a beginner layout' if m['beginner'] else ''} ({games})"
        )


def _host_port(value: str | None) -> tuple[str, int] | None:
    if value is None:
        return None
    from hexlan.net.lobby import parse_address

    try:
        return parse_address(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--join'") from None


def _routes(values: tuple[str, ...]) -> tuple[tuple[int, str, int], ...]:
    """``--route PORT=HOST:PORT`` values as ``(port, host, dial_port)``.

    Raises:
        click.BadParameter: not that shape.
    """
    from hexlan.net.lobby import parse_address

    routes = []
    for value in values:
        port, sep, address = value.partition("=")
        try:
            if not sep or not port.isdigit() or not 1 <= int(port) <= 65535:
                raise ValueError(f"expected PORT=HOST:PORT, not {value!r}")
            host, via = parse_address(address)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--route'") from None
        routes.append((int(port), host, via))
    return tuple(routes)


_NO_SPECTATORS_OPTION = click.option(
    "--no-spectators",
    is_flag=True,
    help="Refuse spectators (`hexlan watch`): the table takes players only.",
)

_SPECTATOR_CHAT_OPTION = click.option(
    "--spectator-chat",
    is_flag=True,
    help="Let spectators write in the table chat (signed by their own keys; the host checks "
    "and passes on each line). Off by default: spectators only read.",
)

# Options `bot` and `resume` share.
_BOT_SEED_OPTION = click.option(
    "--seed", type=int, default=None, help="Seed for the bot's own choices only."
)
_QUIET_OPTION = click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
_ABANDON_AFTER_OPTION = click.option(
    "--abandon-after",
    type=click.FloatRange(1),
    default=None,
    help="Seconds of a stalled seat before signing that the game is abandoned (default: wait).",
)


@main.command()
@click.option("--host", "hosting", is_flag=True, help="Hold a table and wait for the others.")
@click.option("--join", metavar="HOST:PORT", default=None, help="Join the table at HOST:PORT.")
@_SEATS_OPTION
@_BOT_GAME_OPTION
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="--host: the table port (47400). --join: this bot's game port (any free one).",
)
@click.option(
    "--strategy", callback=_strategy, default="heuristic", show_default=True, help=f"{_STRATEGIES}."
)
@_THINK_OPTION
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The game log to write (default: in the user data directory).",
)
@_BOT_SEED_OPTION
@click.option(
    "--identity",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Identity key file (default: a fresh key, kept beside the log).",
)
@click.option(
    "--name",
    default=None,
    help="The bot's name at the table (default: its strategy and key, 'heuristic bot 3f2a').",
)
@click.option(
    "--board",
    type=click.Choice(["beginner", "random"]),
    default=None,
    help="--host: the board (default beginner where the game's map has it, else random).",
)
@_QUIET_OPTION
@_ABANDON_AFTER_OPTION
@click.option(
    "--delay",
    type=click.FloatRange(0, 10),
    default=0.0,
    show_default=True,
    help="Seconds before each decision, so people at the table can follow the bot's moves.",
)
@click.option(
    "--cheat",
    metavar="KIND",
    default=None,
    help="Red team: the seat commits deviation KIND once, for honest peers to catch "
    "(`--cheat list` prints the kinds and what each proves).",
)
@click.option(
    "--cheat-at",
    metavar="N",
    type=click.IntRange(1),
    default=None,
    help="Deviate at the N-th opportunity of the kind (its N-th reveal, share, ...; default 1).",
)
@click.option(
    "--route",
    "routes",
    metavar="PORT=HOST:PORT",
    multiple=True,
    help="Dial the seat whose game port is PORT at HOST:PORT instead (a relay or a test "
    "proxy such as scripts/faultnet.py); repeatable.",
)
@click.option(
    "--say",
    "says",
    metavar="TEXT",
    multiple=True,
    help="Say TEXT in the table chat once the game has started; repeatable. Sent as given: "
    "the other seats refuse a line over 200 characters or more than 5 in 10 s.",
)
@click.option(
    "--good-game",
    is_flag=True,
    help="Say 'good game' in the table chat once the game is won.",
)
@click.option(
    "--rematch",
    metavar="N",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Play N more games at the same table once a game is won and audited (seats move "
    "on one place; with --log, game k's log is LOG-k).",
)
@click.option(
    "--decline-rematch",
    is_flag=True,
    help="--join: after the last game, tell the host this bot will not play again.",
)
@_NO_SPECTATORS_OPTION
@_SPECTATOR_CHAT_OPTION
@_OPTION_OPTION
def bot(
    hosting: bool,
    join: str | None,
    seats: int | None,
    game: str,
    port: int | None,
    strategy: str,
    think: float,
    log_path: Path | None,
    seed: int | None,
    identity: Path | None,
    name: str | None,
    board: str | None,
    quiet: bool,
    abandon_after: float | None,
    delay: float,
    cheat: str | None,
    cheat_at: int | None,
    routes: tuple[str, ...],
    says: tuple[str, ...],
    good_game: bool,
    rematch: int,
    decline_rematch: bool,
    no_spectators: bool,
    spectator_chat: bool,
    game_options: tuple[str, ...],
) -> None:
    """A headless networked player run by a bot; ends with one JSON line of results (one
    per game with --rematch)."""
    if cheat is not None:
        from hexlan.net.cheats import cheat_lines, check_cheat

        if cheat == "list":
            for line in cheat_lines():
                click.echo(line)
            return
        try:
            check_cheat(cheat, 1 if cheat_at is None else cheat_at)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--cheat'") from None
    elif cheat_at is not None:
        raise click.UsageError("--cheat-at is for --cheat KIND")
    if hosting == (join is not None):
        raise click.UsageError("give exactly one of --host and --join HOST:PORT")
    if seats is not None and not hosting:
        raise click.UsageError("--seats is for --host")
    if decline_rematch and hosting:
        raise click.UsageError("--decline-rematch is for --join: the host ends its table itself")
    if no_spectators and not hosting:
        raise click.UsageError("--no-spectators is for --host: spectators watch through the host")
    _check_spectator_chat(hosting, no_spectators, spectator_chat)
    if game_options and not hosting:
        raise click.UsageError("--option is for --host: a joiner plays the host's options")
    if not hosting and (game != "base" or board is not None):
        raise click.UsageError(
            f"--{'game' if game != 'base' else 'board'} is for --host: a joiner plays the host's "
            "game and board"
        )
    table_seats, board = _game_table(game, seats, board) if hosting else (4, None)
    game_rules = parse_game_options(game, game_options) if hosting else GameOptions()
    address = _host_port(join)
    dial_routes = _routes(routes)
    from hexlan.headless import BotOptions, run_bot

    options = BotOptions(
        join=address,
        seats=table_seats,
        game=game,
        port=port,
        strategy=strategy,
        think=think,
        log=log_path,
        seed=seed,
        identity=identity,
        name=name,
        board=board,
        quiet=quiet,
        abandon_after=abandon_after,
        delay=delay,
        cheat=cheat,
        cheat_at=1 if cheat_at is None else cheat_at,
        routes=dial_routes,
        spectators=not no_spectators,
        spectator_chat=spectator_chat,
        good_game=good_game,
        options=game_rules,
        says=says,
        rematch=rematch,
        decline_rematch=decline_rematch,
    )
    sys.exit(run_bot(options))


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--identity",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Identity key file, when it is neither beside the log nor the default one.",
)
@click.option(
    "--strategy",
    callback=_strategy,
    default=None,
    help="Let this bot play on (default: the bot that played the log's seat).",
)
@_THINK_OPTION
@_BOT_SEED_OPTION
@_QUIET_OPTION
@_ABANDON_AFTER_OPTION
def resume(
    log: Path,
    identity: Path | None,
    strategy: str | None,
    think: float,
    seed: int | None,
    quiet: bool,
    abandon_after: float | None,
) -> None:
    """Restart a crashed or closed peer from its game log and play on."""
    from hexlan.headless import run_resume

    sys.exit(
        run_resume(log, identity, strategy, seed, quiet, abandon_after=abandon_after, think=think)
    )


def _check_spectator_chat(hosting: bool, no_spectators: bool, spectator_chat: bool) -> None:
    """``--spectator-chat`` is the host's, at a table that takes spectators.

    Raises:
        click.UsageError: not so.
    """
    if spectator_chat and not hosting:
        raise click.UsageError("--spectator-chat is for --host: spectators write through the host")
    if spectator_chat and no_spectators:
        raise click.UsageError("--spectator-chat needs spectators: drop --no-spectators")


def _default_name() -> str:
    """The person's name at a table when --name is not given: the login name."""
    import getpass

    try:
        name = getpass.getuser().strip()
    except (KeyError, OSError):
        name = ""
    return (name[:1].upper() + name[1:])[:32] or "Player"


def _net_name(value: str | None) -> str:
    name = (value or _default_name()).strip()
    if not 1 <= len(name) <= 32 or not name.isprintable():
        raise click.BadParameter("1 to 32 printable characters", param_hint="'--name'")
    return name


_LOG_OPTION = click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The game log to write (default: a new file in the user data directory).",
)
_IDENTITY_OPTION = click.option(
    "--identity",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Your identity key file (default: the one in the user data directory; created if "
    "missing).",
)


@main.command()
@click.option(
    "--port", type=click.IntRange(0, 65535), default=47400, show_default=True, help="Table port."
)
@_SEATS_OPTION
@_TABLE_GAME_OPTION
@click.option(
    "--bots",
    type=click.IntRange(0, MAX_SEATS - 1),
    default=0,
    show_default=True,
    help="Bots to seat, each a `hexlan bot` process on this machine.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds the bots wait before each move.",
)
@click.option(
    "--strategy",
    callback=_strategy,
    default="heuristic",
    show_default=True,
    help=f"The bots: {_STRATEGIES}.",
)
@_THINK_OPTION
@click.option("--name", default=None, help="Your name at the table (default: your login).")
@_LOG_OPTION
@_IDENTITY_OPTION
@_NO_SPECTATORS_OPTION
@_SPECTATOR_CHAT_OPTION
@_OPTION_OPTION
@_BELL_OPTION
@_TITLE_OPTION
def host(
    port: int,
    seats: int | None,
    game: str,
    bots: int,
    bot_delay: float,
    strategy: str,
    think: float,
    name: str | None,
    log_path: Path | None,
    identity: Path | None,
    no_spectators: bool,
    spectator_chat: bool,
    game_options: tuple[str, ...],
    bell: bool,
    title: bool,
) -> None:
    """Hold a table on the LAN and play when it is full."""
    _check_spectator_chat(True, no_spectators, spectator_chat)
    seats, _ = _game_table(game, seats)
    game_rules = parse_game_options(game, game_options)
    if bots >= seats:
        raise click.BadParameter(
            f"a table of {seats} seats has room for {seats - 1} bots besides you",
            param_hint="'--bots'",
        )
    if log_path is not None and log_path.exists():
        raise click.BadParameter(
            f"{log_path} exists; a new game needs a new log", param_hint="'--log'"
        )
    from hexlan.tui.app import run_host
    from hexlan.tui.screens.lobby import NetOptions

    options = NetOptions(
        name=_net_name(name),
        identity_path=identity,
        log_path=log_path,
        port=port,
        seats=seats,
        game=game,
        bots=bots,
        bot_delay=bot_delay,
        bot_args=("--strategy", strategy, "--think", f"{think:g}"),
        spectators=not no_spectators,
        spectator_chat=spectator_chat,
        options=game_rules,
        bell=bell,
        title=title,
    )
    sys.exit(run_host(options))


@main.command()
@click.argument("address", metavar="[HOST:PORT]", required=False)
@click.option("--name", default=None, help="Your name at the table (default: your login).")
@_LOG_OPTION
@_IDENTITY_OPTION
@_BELL_OPTION
@_TITLE_OPTION
def join(
    address: str | None,
    name: str | None,
    log_path: Path | None,
    identity: Path | None,
    bell: bool,
    title: bool,
) -> None:
    """List the tables on the LAN and join one, or join HOST:PORT directly."""
    if address is not None:
        from hexlan.net.lobby import parse_address

        try:
            parse_address(address)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'HOST:PORT'") from None
    if log_path is not None and log_path.exists():
        raise click.BadParameter(
            f"{log_path} exists; a new game needs a new log", param_hint="'--log'"
        )
    from hexlan.tui.app import run_join
    from hexlan.tui.screens.lobby import NetOptions

    options = NetOptions(
        name=_net_name(name),
        identity_path=identity,
        log_path=log_path,
        address=address,
        bell=bell,
        title=title,
    )
    sys.exit(run_join(options))


@main.command()
@click.argument("address", metavar="[HOST:PORT]", required=False)
@click.option("--name", default=None, help="Your name among the spectators (default: your login).")
@_IDENTITY_OPTION
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="No screen: follow the game to its end, then print one JSON line (progress on stderr).",
)
@_QUIET_OPTION
@click.option(
    "--say",
    "says",
    metavar="TEXT",
    multiple=True,
    help="--json: say TEXT in the table chat once watching; repeatable (the host refuses it "
    "unless the table lets spectators write).",
)
def watch(
    address: str | None,
    name: str | None,
    identity: Path | None,
    as_json: bool,
    quiet: bool,
    says: tuple[str, ...],
) -> None:
    """Watch a table's game without a seat: found on the LAN, or at HOST:PORT."""
    target = None
    if address is not None:
        from hexlan.net.lobby import parse_address

        try:
            target = parse_address(address)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'HOST:PORT'") from None
    spectator = _net_name(name)
    if as_json:
        from hexlan.headless import run_watch

        sys.exit(run_watch(target, spectator, identity, quiet, says=says))
    if quiet or says:
        raise click.UsageError(f"--{'quiet' if quiet else 'say'} is for --json")
    from hexlan.tui.app import run_watch as run_screen
    from hexlan.tui.screens.lobby import NetOptions

    sys.exit(run_screen(NetOptions(name=spectator, identity_path=identity, address=address)))


def _set_language(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--lang`` (or the ``lang`` setting, its default): the language of everything the
    command shows; when neither is given, the locale's (:func:`hexlan.i18n.set_language`).
    Returns ``value`` (what ``hexlan settings lang=ru`` saves)."""
    from hexlan.i18n import set_language

    set_language(value)
    return value


def _lang_option() -> click.Option:
    from hexlan.i18n import LANGUAGES

    return click.Option(
        ["--lang"],
        type=click.Choice(LANGUAGES),
        is_eager=True,
        expose_value=False,
        callback=_set_language,
        help="The language to speak (default: the lang setting, else LC_ALL, LC_MESSAGES or "
        "LANG, else en).",
    )


for _command in main.commands.values():  # every command speaks --lang (issue 27)
    _command.params.append(_lang_option())
main.params.append(_lang_option())
