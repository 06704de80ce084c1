"""What bots do with their knights in Cities & Knights: wins, and per bot the knights built,
moved, displacing, chasing the robber, activated, promoted and retreated (a displaced knight
moved on by its owner), with the mean worth (:func:`hexlan.engine.bots.knights.knight_post`) of
the retreat spots chosen beside the best offered (seed 002 «Города и рыцари»); and the Spies it
played and the cards they took.

Usage: python scripts/bench_knights.py [--games 50] [--seed 0] [--bots heuristic,random,random,random]

Plays ``hexlan simulate``'s games (hexlan.simulate.play_game, the same seeds) and counts the
knight actions each seat took from the full state before each is applied (a retreat counts
for the knight's owner, who chooses it in another seat's turn). Figures are printed,
never asserted (../shared/ARCHITECTURE.md: scripts/); ``--json`` ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from hexlan.engine.actions import Action
from hexlan.engine.bots.knights import knight_post
from hexlan.engine.shown import (
    NO_TAKE,
    DeckTake,
)
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    ActivateKnight,
    BuildKnight,
    ChaseRobber,
    MoveKnight,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.simulate import play_game

KINDS = (
    "built",
    "moved",
    "displaced",
    "chased",
    "activated",
    "promoted",
    "retreated",
    "spies",
    "spy_took",
)
"""The actions counted, in the order printed: knight actions, then Spies played and the
Spies' takes of a card."""


def _kind(state: GameState, action: Action) -> str | None:
    """The counted kind of ``action`` in ``state``, or None for any other action."""
    if isinstance(action, MoveKnight):
        return "displaced" if action.target in progress_of(state).knights else "moved"
    if isinstance(action, PlayProgress):
        assert isinstance(state.variant, CitiesKnights)
        return "spies" if state.variant.card_names[action.track][action.face] == "spy" else None
    if isinstance(action, DeckTake):
        return "spy_took" if action.deck != NO_TAKE else None
    kinds: dict[type[Action], str] = {
        BuildKnight: "built",
        ChaseRobber: "chased",
        ActivateKnight: "activated",
        PromoteKnight: "promoted",
        RetreatKnight: "retreated",
    }
    return kinds.get(type(action))


def run(games: int, seed: int, bots: list[str]) -> dict[str, Any]:
    """Play the games; returns the wins per seat, the knight actions per bot name and per bot
    name the mean worth of its retreat spots, chosen and best offered."""
    counts: dict[str, Counter[str]] = {name: Counter() for name in bots}
    worth: dict[str, list[float]] = {name: [0.0, 0.0] for name in bots}  # chosen, best
    wins = [0] * len(bots)
    turns = 0
    start = time.perf_counter()

    def observe(state: GameState, action: Action) -> None:
        kind = _kind(state, action)
        if kind is None:
            return
        seat = state.active
        if isinstance(action, RetreatKnight):
            seat = action.seat
            spots = [a.node for a in state.legal_actions(seat) if isinstance(a, RetreatKnight)]
            worth[bots[seat]][0] += knight_post(state, seat, action.node)
            worth[bots[seat]][1] += max(knight_post(state, seat, n) for n in spots)
        counts[bots[seat]][kind] += 1

    for i in range(games):
        result = play_game(seed + i, bots, game="cities-and-knights", observe=observe)
        turns += result.turns
        if result.winner is not None:
            wins[result.winner] += 1
    return {
        "games": games,
        "bots": bots,
        "wins": wins,
        "mean_turns": round(turns / games, 1),
        "actions": {name: {k: c[k] for k in KINDS} for name, c in counts.items()},
        "retreat_worth": {
            name: [round(w / max(1, counts[name]["retreated"]), 2) for w in pair]
            for name, pair in worth.items()
        },
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    """Parse the arguments, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.games, args.seed, args.bots.split(","))
    print(f"{report['games']} games, wins per seat {report['wins']}, {report['mean_turns']} turns")
    for name, row in report["actions"].items():
        chosen, best = report["retreat_worth"][name]
        print(
            f"  {name:10} "
            + "  ".join(f"{k} {row[k]}" for k in KINDS)
            + f"  retreat worth {chosen} (best {best})"
        )
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
