"""Benchmark Landnám's heuristic bot: games between heuristic bots at 3, 4 and 5 seats (games
per second, turns, games that hit the turn cap), and its win rate as one seat of four against
three random bots, its seat moving on each game.

Usage: python scripts/bench_landnam.py [--games 100] [--seed 0]

Every game is played as ``hexlan simulate --game landnam`` plays it
(:func:`hexlan.simulate.simulate`): each bot reads its own seat's view; chance, bots and their
tie-breaks are seeded, so a run is reproducible. Figures are printed, never asserted
(../shared/ARCHITECTURE.md: scripts/); a game that hits the turn cap is counted and named.
"""

from __future__ import annotations

import argparse
import math

from hexlan.simulate import TURN_CAP, SimulationReport, simulate


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
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(
        f"heuristic vs 3 random (seat rotated): won {wins} of {games} "
        f"({100 * rate:.1f}% ± {100 * half:.1f}), mean turns {turns / games:.1f}, "
        f"hit the cap: {capped}"
    )


def main() -> None:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    _self_play(args.games, args.seed)
    _against_random(args.games, args.seed)


if __name__ == "__main__":
    main()
