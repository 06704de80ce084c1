"""Benchmark the heuristic bot against random bots: win rate, mean turns, games per second.

Usage: python scripts/bench_bots.py [--games 200] [--seed 0] [--players 4] [--turn-cap 1000]
                                    [--bot heuristic] [--opponent random] [--full-state]

Each game seats the tested bot once against random bots, on the beginner board and a random
board in turn; its seat moves on every two games, so every seat plays both kinds of board. Boards, dice and the bots' tie-breaks are all
seeded (hexlan.chance.SeededChance), so a run is reproducible. A game that reaches the turn cap
counts as not won. Each bot reads its own seat's information state when hexlan.engine.info is
available (``--full-state`` hands every bot the full state instead). Figures are printed, never
asserted (../shared/ARCHITECTURE.md: scripts/).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from hexlan.chance import SeededChance
from hexlan.engine.bots import make_bot
from hexlan.engine.state import CHANCE, GameState


@dataclass(frozen=True, slots=True)
class Result:
    """One game: where the tested bot sat, who won (None at the cap), turns played."""

    seat: int
    board: str
    winner: int | None
    turns: int
    decisions: int
    seconds: float
    bot_seconds: float
    bot_decisions: int
    bot_slowest: float


def _views_api() -> Any:
    """``(InformationState, advance_views)`` from hexlan.engine.info, or None if not there yet."""
    try:
        from hexlan.engine.info import (  # noqa: PLC0415 (optional until it lands)
            InformationState,
            advance_views,
        )
    except ImportError:
        return None
    return InformationState, advance_views


def play(
    seed: int,
    players: int,
    bot: str,
    opponent: str,
    seat: int,
    board: str,
    turn_cap: int,
    full_state: bool,
    check: bool = False,
) -> Result:
    """Play one game and report it."""
    chance = SeededChance(seed)
    state = GameState(chance.board(board), players)
    names = [bot if s == seat else opponent for s in range(players)]
    bots = [make_bot(name, random.Random(seed * 31 + s)) for s, name in enumerate(names)]
    api = None if full_state else _views_api()
    if api is None:
        views: list[GameState] = [state] * players
        infos: list[Any] = []
    else:
        info_cls, advance = api
        infos = [info_cls(state.board, players, s) for s in range(players)]
        views = list(infos)
    decisions = bot_decisions = 0
    bot_seconds = bot_slowest = 0.0
    start = time.perf_counter()
    while not state.is_over and state.turn <= turn_cap:
        p = state.current_player()
        if p == CHANCE:
            action = chance.outcome(state)
        else:
            # Several seats may act at once (discards, trade answers); any order is fine.
            p = state.acting_seats()[0]
            if p == seat:
                t = time.perf_counter()
                action = bots[p].choose(views[p], p)
                spent = time.perf_counter() - t
                bot_seconds += spent
                bot_slowest = max(bot_slowest, spent)
                bot_decisions += 1
            else:
                action = bots[p].choose(views[p], p)
            decisions += 1
            if check:
                views[p].check(action)
        if api is None:
            state.apply(action)
        else:
            advance(state, infos, action)
    return Result(
        seat=seat,
        board=board,
        winner=state.winner if state.is_over else None,
        turns=state.turn,
        decisions=decisions,
        seconds=time.perf_counter() - start,
        bot_seconds=bot_seconds,
        bot_decisions=bot_decisions,
        bot_slowest=bot_slowest,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--turn-cap", type=int, default=1000)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--full-state", action="store_true", help="give bots the full state")
    parser.add_argument("--check", action="store_true", help="check every bot action first")
    parser.add_argument("--verbose", action="store_true", help="print every game")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    make_bot(args.bot, random.Random(0))  # fail early on a bad name
    make_bot(args.opponent, random.Random(0))

    views = "full state" if args.full_state or _views_api() is None else "information states"
    print(
        f"{args.games} games: {args.bot} vs {args.players - 1} x {args.opponent}, "
        f"turn cap {args.turn_cap}, bots read {views}",
        flush=True,
    )
    results: list[Result] = []
    start = time.perf_counter()
    for i in range(args.games):
        result = play(
            seed=args.seed + i,
            players=args.players,
            bot=args.bot,
            opponent=args.opponent,
            seat=(i // 2) % args.players,
            board="beginner" if i % 2 == 0 else "random",
            turn_cap=args.turn_cap,
            full_state=args.full_state,
            check=args.check,
        )
        results.append(result)
        if args.verbose:
            print(
                f"game {i:4d} seed {args.seed + i} {result.board:<8} seat {result.seat}: "
                f"winner {result.winner} after {result.turns} turns",
                flush=True,
            )
    seconds = time.perf_counter() - start

    wins = sum(r.winner == r.seat for r in results)
    capped = sum(r.winner is None for r in results)
    print(f"win rate      {wins / len(results):7.1%}  ({wins}/{len(results)}, {capped} capped)")
    for board in ("beginner", "random"):
        subset = [r for r in results if r.board == board]
        if subset:
            won = sum(r.winner == r.seat for r in subset)
            print(f"  {board:<10}  {won / len(subset):7.1%}  ({won}/{len(subset)})")
    for seat in range(args.players):
        subset = [r for r in results if r.seat == seat]
        if subset:
            won = sum(r.winner == r.seat for r in subset)
            print(f"  seat {seat:<5}  {won / len(subset):7.1%}  ({won}/{len(subset)})")
    finished = [r for r in results if r.winner is not None]
    mean_turns = sum(r.turns for r in finished) / len(finished) if finished else 0.0
    won_turns = [r.turns for r in results if r.winner == r.seat]
    print(f"mean turns    {mean_turns:7.1f}  (finished games; won games: ", end="")
    print(f"{sum(won_turns) / len(won_turns):.1f})" if won_turns else "n/a)")
    print(f"games/s       {len(results) / seconds:7.2f}  ({seconds:.1f} s)")
    bot_decisions = sum(r.bot_decisions for r in results)
    bot_seconds = sum(r.bot_seconds for r in results)
    if bot_decisions:
        print(
            f"{args.bot} decision  {bot_seconds / bot_decisions * 1e3:.3f} ms mean, "
            f"{max(r.bot_slowest for r in results) * 1e3:.2f} ms slowest "
            f"({bot_decisions} decisions)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
