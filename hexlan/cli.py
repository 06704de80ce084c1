"""The `hexlan` command line.

Start-up stays light: each command imports what it needs when it runs, so `hexlan --help` loads
neither Textual nor any crypto library.
"""

from __future__ import annotations

import json
import secrets
import sys

import click


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hexlan")
def main() -> None:
    """hexlan: Settlers of Catan-style games in the terminal, with no trusted server."""


@main.command()
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--seed", type=int, default=None, help="Seed for the board, dice and bots.")
@click.option(
    "--board", type=click.Choice(["beginner", "random"]), default="beginner", show_default=True
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds between bot moves.",
)
def play(players: int, seed: int | None, board: str, name: str, bot_delay: float) -> None:
    """Play a game against bots in the terminal (you are the first seat)."""
    if seed is None:
        seed = secrets.randbelow(2**31)
    from hexlan.tui.app import run_play

    sys.exit(run_play(players=players, seed=seed, board=board, name=name, bot_delay=bot_delay))


@main.command()
@click.option("--games", type=click.IntRange(1), required=True, help="How many games.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="random, heuristic, or one per seat comma-separated (e.g. heuristic,random,random).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option(
    "--board", type=click.Choice(["beginner", "random"]), default="random", show_default=True
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON line of results.")
def simulate(games: int, players: int, bots: str, seed: int, board: str, as_json: bool) -> None:
    """Play headless games between bots and report the results."""
    from hexlan.simulate import simulate as run

    names = _bot_list(bots, players)
    report = run(games, players, names, seed=seed, board=board)
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
def verify(logs: tuple[str, ...], as_json: bool) -> None:
    """Check game logs: signatures, hash chains, dice, and every action against the rules.

    Exit status: 0 every log valid, 1 a log breaks the protocol or the rules, 2 a file is not
    a readable log, 3 valid so far but unfinished or abandoned.
    """
    from hexlan.net.verify import main as run

    sys.exit(run(list(logs), as_json=as_json))
