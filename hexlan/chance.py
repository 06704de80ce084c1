"""A seeded local chance source, for simulations, tests and `hexlan play`.

It is not fair against a cheating peer (whoever knows the seed knows the dice); networked games
use the commit-reveal beacon instead. The engine never calls it: the game loop asks it for the
outcome of each chance node (../shared/ARCHITECTURE.md principle 1).
"""

from __future__ import annotations

import random
from typing import Final

from hexlan.engine.actions import Action, Dice
from hexlan.engine.board import Board, TokenMode, beginner_board, random_board
from hexlan.engine.core import Phase
from hexlan.engine.state import GameState

_DICE: Final = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))


class SeededChance:
    """Chance outcomes drawn from ``random.Random(seed)``: same seed, same outcomes.

    Args:
        seed: any integer.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def outcome(self, state: GameState) -> Action:
        """Draw the chance action due in ``state`` with the probabilities the rules give it.

        Raises:
            ValueError: no chance outcome is due.
        """
        if state.phase is Phase.DICE:  # perf: the most common chance node
            return _DICE[self.rng.randrange(36)]
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise ValueError(f"no chance outcome is due in phase {state.phase.title}")
        if len(outcomes) == 1:
            return outcomes[0][0]
        pick = self.rng.random()
        for action, probability in outcomes:
            pick -= probability
            if pick < 0:
                return action
        return outcomes[-1][0]

    def board(self, kind: str = "beginner", tokens: TokenMode = "spiral") -> Board:
        """The beginner board, or a random one drawn from this source ("random").

        Raises:
            ValueError: an unknown board kind.
        """
        if kind == "beginner":
            return beginner_board()
        if kind == "random":
            return random_board(self.rng, tokens)  # type: ignore[arg-type]
        raise ValueError(f"board must be 'beginner' or 'random', not {kind!r}")
