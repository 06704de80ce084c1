"""Benchmark Landnám's bots: games between heuristic bots at 3, 4 and 5 seats (games per
second, turns, games that hit the turn cap), and the heuristic's win rate as one seat of four
against three random bots, its seat moving on each game; with ``--search``, instead, the search
bot's (``mcts``) win rate as one seat of four against three heuristic bots and its decisions
per second (issue 25's bar: above 25%).

Usage: python scripts/bench_landnam.py [--games 100] [--seed 0]
       python scripts/bench_landnam.py --search [--games 20] [--think 0.1 | --playouts 12]

``--think`` holds the search bot to seconds of wall time a decision; ``--playouts`` gives it a
fixed budget of playouts instead (no clock: reproducible from the seed).

Every game is played as ``hexlan simulate --game landnam`` plays it
(:func:`hexlan.simulate.simulate`): each bot reads its own seat's view; chance, bots and their
tie-breaks are seeded, so a run is reproducible. Figures are printed, never asserted
(../shared/ARCHITECTURE.md: scripts/); a game that hits the turn cap is counted and named.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from hexlan.engine.actions import Action
from hexlan.engine.bots.own import OwnPolicy, own_bot
from hexlan.engine.bots.own_search import NOMINAL_RATE, OwnSearchBot
from hexlan.engine.game import Game
from hexlan.engine.variants.landnam.state import new_game
from hexlan.simulate import TURN_CAP, SimulationReport, play_own_policies, simulate


def _turns(report: SimulationReport) -> str:
    """Mean, least and most turns of the report's finished games, in words."""
    finished = [g.turns for g in report.games if g.winner is not None]
    if not finished:
        return "no game finished"
    mean = sum(finished) / len(finished)
    return f"turns mean {mean:.1f}, min {min(finished)}, max {max(finished)}"


def _self_play(games: int, seed: int) -> None:
    """Heuristic bots in every seat, at each table size."""
    for players in (3, 4, 5):
        report = simulate(games, players, ["heuristic"] * players, seed=seed, game="landnam")
        capped = [g.seed for g in report.games if g.winner is None]
        points = [max(g.victory_points) for g in report.games if g.winner is not None]
        low = min(points, default=0)
        print(
            f"{players} heuristic seats: {games} games in {report.seconds:.1f} s "
            f"({report.games_per_second:.2f} games/s); {_turns(report)}; "
            f"winners' least points {low}; hit the cap of {TURN_CAP} turns: "
            f"{len(capped)}{' ' + str(capped) if capped else ''}"
        )


def _rate(wins: int, games: int) -> str:
    """A win rate with its 95% interval, in words."""
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    return f"won {wins} of {games} ({100 * rate:.1f}% ± {100 * half:.1f})"


def _against_random(games: int, seed: int) -> None:
    """One heuristic seat against three random ones, the heuristic seat rotated."""
    wins = capped = 0
    turns = 0
    for i in range(games):
        seat = i % 4
        names = ["heuristic" if s == seat else "random" for s in range(4)]
        report = simulate(1, 4, names, seed=seed + i, game="landnam")
        game = report.games[0]
        wins += game.winner == seat
        capped += game.winner is None
        turns += game.turns
    print(
        f"heuristic vs 3 random (seat rotated): {_rate(wins, games)}, "
        f"mean turns {turns / games:.1f}, hit the cap: {capped}"
    )


class _Timed:
    """The search bot as a policy that times its decisions (seconds, decisions, playouts)."""

    def __init__(self, bot: OwnSearchBot) -> None:
        self.bot = bot
        self.decisions = self.playouts = 0
        self.seconds = 0.0

    def choose(self, view: Game, seat: int) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, seat)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        self.playouts += self.bot.last_playouts
        return action


def _search(games: int, seed: int, think: float, playouts: int) -> None:
    """The search bot as one seat of four against three heuristic bots, its seat rotated;
    every game as :func:`hexlan.simulate.play_own_game` plays it (each bot reads its view,
    chance and bots seeded alike)."""
    wins = decisions = runs = 0
    seconds = 0.0
    budget = think if not playouts else playouts / NOMINAL_RATE
    clock = time.perf_counter if not playouts else None
    for i in range(games):
        state = new_game("landnam", 4)
        seat = i % 4
        policies: list[OwnPolicy] = []
        for s in range(4):
            name = "mcts" if s == seat else "heuristic"
            policies.append(own_bot(name, state, random.Random((seed + i) * 31 + s), budget, clock))
        bot = policies[seat]
        assert isinstance(bot, OwnSearchBot)
        timed = policies[seat] = _Timed(bot)
        game = play_own_policies(seed + i, state, policies)
        wins += game.winner == seat
        decisions += timed.decisions
        runs += timed.playouts
        seconds += timed.seconds
    shown = f"{playouts} playouts" if playouts else f"think {think:g} s"
    print(
        f"mcts ({shown}) vs 3 heuristic (seat rotated): {_rate(wins, games)}; "
        f"{decisions / seconds:.1f} decisions/s, {runs / max(1, decisions):.1f} playouts a "
        "decision"
    )


def main() -> None:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--search", action="store_true", help="the search bot against three heuristic bots"
    )
    parser.add_argument("--think", type=float, default=0.1, help="the search bot's seconds")
    parser.add_argument(
        "--playouts", type=int, default=0, help="the search bot's playouts (no clock) instead"
    )
    args = parser.parse_args()
    if args.search:
        _search(args.games, args.seed, args.think, args.playouts)
        return
    _self_play(args.games, args.seed)
    _against_random(args.games, args.seed)


if __name__ == "__main__":
    main()
