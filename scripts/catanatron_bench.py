"""Time games of four Catanatron random players and print the figures as one JSON line.

This script is the Catanatron half of ``scripts/bench_engine.py``. It runs inside a throwaway
virtual environment that has the ``catanatron`` package installed (never hexlan's own), and it
only calls Catanatron: no Catanatron code is copied here.

Every game uses Catanatron's default settings (the base map, 10 victory points to win, discard
above 7 cards, its own turn limit) and Python's ``random`` seeded with ``seed + i`` for game i.
Actions are the entries of the game's action log, turns are the game's own turn counter.
The seed does not make runs repeatable across processes: Catanatron lists some choices from
sets whose order depends on string hashing (fix it with PYTHONHASHSEED) and, on Python 3.11,
on the address of None (maritime trades), so game lengths vary a little from run to run.

Usage: python catanatron_bench.py [--games 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from importlib.metadata import version

from catanatron import Color, Game, RandomPlayer

COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)


def action_count(game: Game) -> int:
    """Return the number of actions in the game's log, whatever this Catanatron calls it."""
    state = game.state
    log = getattr(state, "action_records", None)
    if log is None:
        log = state.actions
    return len(log)


def bench(games: int, seed: int) -> dict[str, object]:
    """Play ``games`` seeded games of four random players and return the measured figures."""
    total_actions = 0
    total_turns = 0
    winners = 0
    elapsed = 0.0
    cpu = time.process_time()
    for i in range(games):
        random.seed(seed + i)
        start = time.perf_counter()
        game = Game([RandomPlayer(color) for color in COLORS])
        winner = game.play()
        elapsed += time.perf_counter() - start
        total_actions += action_count(game)
        total_turns += game.state.num_turns
        winners += winner is not None
    cpu = time.process_time() - cpu
    return {
        "version": version("catanatron"),
        "cpu_seconds": cpu,
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed else 0.0,
        "actions_per_second": total_actions / elapsed if elapsed else 0.0,
        "turns_per_game": total_turns / games if games else 0.0,
        "actions_per_game": total_actions / games if games else 0.0,
        "winners": winners,
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the games and print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(json.dumps(bench(args.games, args.seed)))


if __name__ == "__main__":
    main()
