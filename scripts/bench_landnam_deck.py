"""Benchmark Landnám's fate deck over the network protocol (issue 25: a 4-seat fate deck set-up
under 1 s, a reshuffle under 0.5 s), in one process: every seat a session (net/inproc.py), the
mental-poker deck's shuffles, proofs and reveals all done.

Prints, per table of ``--seats`` sessions:
- the set-up: from the table's start to the start player's first roll, which takes the fate
  deck's first generation (every seat's shuffle and proof), the set-up's public search for an
  Exploration card (each draw's decryption shares) and the put-back cards' reshuffle (the
  second generation);
- every reshuffle of the discards in play (gap G18): the decision whose consequences include
  a new generation, timed whole (the generation's shuffles and proofs, and the draw that
  follows).

    .venv/bin/python scripts/bench_landnam_deck.py --seats 4 --games 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hexlan.engine.bots.own import own_bot
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import state_spec
from hexlan.net.inproc import InProcessTable

GAME = "landnam"


def one_game(seats: int, seed: int) -> tuple[float, list[float]]:
    """Seconds to the first roll, and the seconds of each decision that led to a reshuffle of
    the discards, in one game of heuristic bots (victory at 12)."""
    spec = state_spec(GAME)
    assert spec is not None and spec.state is not None
    sample = spec.state(GAME, seats, None)
    bots = [own_bot("heuristic", sample, random.Random(seed * 10 + s)) for s in range(seats)]
    table = InProcessTable([f"seat {s}" for s in range(seats)], GameOptions(), game=GAME)
    start = time.perf_counter()
    table.start()
    setup = time.perf_counter() - start
    reshuffles = []
    for _ in range(50_000):
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            break
        view = table.sessions[seat].game
        assert view is not None
        action = bots[seat].choose(view, seat)
        before = sum(getattr(view, "discard", ()))
        began = time.perf_counter()
        table.submit(seat, action)
        took = time.perf_counter() - began
        after = table.sessions[seat].game
        if before and after is not None and not sum(getattr(after, "discard", ())):
            reshuffles.append(took)
    table.close()
    return setup, reshuffles


def main() -> None:
    """Run the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    setups: list[float] = []
    reshuffles: list[float] = []
    for i in range(args.games):
        setup, shuffles = one_game(args.seats, args.seed + i)
        setups.append(setup)
        reshuffles.extend(shuffles)
    print(
        f"{args.seats} seats, {args.games} games, one process (targets: set-up <= 1 s, reshuffle <= 0.5 s)"
    )
    print(
        f"  fate deck set-up to the first roll: median {statistics.median(setups) * 1000:.0f} ms"
        f" (min {min(setups) * 1000:.0f}, max {max(setups) * 1000:.0f})"
    )
    if reshuffles:
        print(
            f"  reshuffles of the discards: {len(reshuffles)}, median"
            f" {statistics.median(reshuffles) * 1000:.0f} ms (max {max(reshuffles) * 1000:.0f})"
        )
    else:
        print("  no reshuffle of the discards in these games")


if __name__ == "__main__":
    main()
