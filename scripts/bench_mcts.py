"""Benchmark the search bot: the cost of its foundations, its strength, its decision time.

Usage: python scripts/bench_mcts.py [--games 40] [--think 0.1 0.25] [--playouts N]
                                    [--players 4 2] [--timing 40] [--timing-think 1.0]
                                    [--seed 0] [--jobs 1] [--skip-games]

Prints progress on stderr and, last on stdout, one JSON object:

- ``copy``: microseconds per :meth:`GameState.copy`, per :meth:`InformationState.copy` and per
  determinisation (:meth:`Determinizer.sample`), averaged over the positions of seeded games;
- ``games``: per ``--think`` budget, the mcts bot's wins as one seat against three heuristic
  bots and 1v1 against one (``--players``), its seat rotating through the table, with a 95%
  Wilson interval. With ``--playouts N`` the bot runs exactly N playouts per decision, whatever
  the clock says (no clock: figures that do not depend on the machine's load; N = 112 is what
  a 0.25 s budget gives on one core of this 2-core machine, counted in CPU time);
- ``decisions``: wall seconds per searched decision at ``--timing-think`` (p50, p95, max), and
  the playouts those decisions ran, over positions of seeded heuristic games.

Figures are printed, never asserted (the issue's goal: p95 <= 1.2 s at the default 1 s budget).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hexlan.chance import SeededChance
from hexlan.engine.bots import HeuristicBot, MctsBot
from hexlan.engine.bots.mcts import NOMINAL_RATE
from hexlan.engine.core import Phase
from hexlan.engine.determinize import Determinizer
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.state import CHANCE, GameState

TURN_CAP = 500


def _positions(seed: int, every: int = 7) -> list[tuple[GameState, list[InformationState]]]:
    """Copies of the full state and every view, every ``every`` actions of a heuristic game."""
    chance = SeededChance(seed)
    state = GameState(chance.board("random"), 4)
    views = [InformationState(state.board, 4, s) for s in range(4)]
    bots = [HeuristicBot(random.Random(seed * 31 + s)) for s in range(4)]
    found = []
    step = 0
    while not state.is_over:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        advance_views(state, views, action)
        step += 1
        if step % every == 0 and not state.is_over:
            found.append((state.copy(), [v.copy() for v in views]))
    return found


def bench_copy(seed: int) -> dict[str, float]:
    """Microseconds per state copy, view copy and determinisation."""
    positions = _positions(seed)
    rng = random.Random(seed)
    timings = {"state_copy_us": 0.0, "view_copy_us": 0.0, "determinize_us": 0.0}
    for state, views in positions:
        t = time.perf_counter()
        for _ in range(20):
            state.copy()
        timings["state_copy_us"] += (time.perf_counter() - t) / 20
        view = views[0]
        t = time.perf_counter()
        for _ in range(20):
            view.copy()
        timings["view_copy_us"] += (time.perf_counter() - t) / 20
        sampler = Determinizer(view)
        t = time.perf_counter()
        for _ in range(20):
            sampler.sample(rng)
        timings["determinize_us"] += (time.perf_counter() - t) / 20
    return {k: round(v / len(positions) * 1e6, 2) for k, v in timings.items()} | {
        "positions": len(positions)
    }


def _mcts(rng: random.Random, think: float, playouts: int) -> MctsBot:
    """The bot under test: held to ``think`` seconds by the clock, or (``playouts`` > 0) to
    exactly that many playouts per decision with no clock."""
    if playouts:
        return MctsBot(rng, playouts / NOMINAL_RATE, None, playouts=playouts)
    return MctsBot(rng, think, time.perf_counter)


def play(seed: int, players: int, mcts_seat: int, think: float, playouts: int) -> dict[str, Any]:
    """One game: the mcts bot at ``mcts_seat``, heuristic bots elsewhere, each on its view."""
    chance = SeededChance(seed)
    state = GameState(chance.board("random"), players)
    views = [InformationState(state.board, players, s) for s in range(players)]
    bots = [
        _mcts(random.Random(seed * 31 + s), think, playouts)
        if s == mcts_seat
        else HeuristicBot(random.Random(seed * 31 + s))
        for s in range(players)
    ]
    while not state.is_over and state.turn <= TURN_CAP:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        advance_views(state, views, action)
    return {"seed": seed, "winner": state.winner if state.is_over else None, "turns": state.turn}


def _wilson(wins: int, games: int) -> list[float]:
    if not games:
        return [0.0, 0.0]
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def bench_games(
    games: int,
    players: int,
    think: float,
    playouts: int,
    seed: int,
    pool: ProcessPoolExecutor | None,
) -> dict[str, Any]:
    """``games`` games of the mcts bot against heuristic bots, the mcts seat rotating."""
    jobs = [(seed + g, players, g % players, think, playouts) for g in range(games)]
    start = time.perf_counter()
    columns = zip(*jobs, strict=True)
    played = (play(*job) for job in jobs) if pool is None else pool.map(play, *columns)
    results = []
    for job, result in zip(jobs, played, strict=True):
        results.append(result)
        won = sum(1 for r, j in zip(results, jobs, strict=False) if r["winner"] == j[2])
        print(
            f"    game {len(results)}: seed {job[0]}, mcts seat {job[2]}, winner"
            f" {result['winner']} ({won}/{len(results)})",
            file=sys.stderr,
            flush=True,
        )
    wins = sum(1 for r, job in zip(results, jobs, strict=True) if r["winner"] == job[2])
    capped = sum(1 for r in results if r["winner"] is None)
    budget = f"{playouts} playouts" if playouts else f"think {think}"
    print(f"  {players} seats, {budget}: {wins}/{games} wins", file=sys.stderr, flush=True)
    return {
        "players": players,
        "think": None if playouts else think,
        "playouts": playouts or None,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 3),
        "interval95": _wilson(wins, games),
        "baseline": round(1 / players, 3),
        "capped": capped,
        "seconds": round(time.perf_counter() - start, 1),
    }


def bench_decisions(count: int, think: float, seed: int) -> dict[str, Any]:
    """Wall time of ``count`` searched decisions (main phase, robber, roll, trade answers)."""
    times: list[float] = []
    playouts: list[int] = []
    game = seed
    while len(times) < count:
        for _, views in _positions(game, every=11):
            view = views[0]
            seat = view.current_player()
            if seat != 0 or view.phase not in (Phase.MAIN, Phase.MOVE_ROBBER, Phase.ROLL):
                continue
            bot = MctsBot(random.Random(len(times)), think, time.perf_counter)
            t = time.perf_counter()
            bot.choose(view, seat)
            elapsed = time.perf_counter() - t
            if bot.last_playouts:
                times.append(elapsed)
                playouts.append(bot.last_playouts)
            if len(times) >= count:
                break
        game += 1
    times.sort()
    return {
        "think": think,
        "decisions": len(times),
        "p50_s": round(times[len(times) // 2], 3),
        "p95_s": round(times[min(len(times) - 1, int(len(times) * 0.95))], 3),
        "max_s": round(times[-1], 3),
        "mean_playouts": round(sum(playouts) / len(playouts), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per table and budget")
    parser.add_argument("--think", type=float, nargs="+", default=[0.1, 0.25])
    parser.add_argument(
        "--playouts", type=int, default=0, help="playouts per decision, no clock (for --think)"
    )
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2], choices=(2, 3, 4))
    parser.add_argument("--timing", type=int, default=40, help="decisions timed")
    parser.add_argument("--timing-think", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the games")
    parser.add_argument("--skip-games", action="store_true")
    args = parser.parse_args(argv)
    result: dict[str, Any] = {"copy": bench_copy(args.seed)}
    print(f"copy: {result['copy']}", file=sys.stderr, flush=True)
    if args.timing:
        result["decisions"] = bench_decisions(args.timing, args.timing_think, args.seed)
        print(f"decisions: {result['decisions']}", file=sys.stderr, flush=True)
    if not args.skip_games:
        pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
        result["games"] = [
            bench_games(args.games, players, think, args.playouts, args.seed, pool)
            for think in ([0.0] if args.playouts else args.think)
            for players in args.players
        ]
        if pool is not None:
            pool.shutdown()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
