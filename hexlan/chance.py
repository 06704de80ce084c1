"""A seeded local chance source, for simulations, tests and `hexlan play`.

It is not fair against a cheating peer (whoever knows the seed knows the dice); networked games
use the commit-reveal beacon instead. The engine never calls it: the game loop asks it for the
outcome of each chance node (../shared/ARCHITECTURE.md principle 1).
"""

from __future__ import annotations

import random

from hexlan.engine.actions import ALL_DICE, Action
from hexlan.engine.board import Board, TokenMode, beginner_board, random_board
from hexlan.engine.chance import draw_outcome
from hexlan.engine.core import Phase
from hexlan.engine.maps import BoardMap
from hexlan.engine.state import GameState


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
            return ALL_DICE[self.rng.randrange(36)]
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise ValueError(f"no chance outcome is due in phase {state.phase.title}")
        if len(outcomes) == 1:  # a sure outcome draws nothing from the source
            return outcomes[0][0]
        return draw_outcome(self.rng, outcomes)

    def board(
        self,
        kind: str = "beginner",
        tokens: TokenMode = "spiral",
        board_map: BoardMap | None = None,
    ) -> Board:
        """The map's beginner board, or a random one drawn from this source ("random").

        Args:
            kind: "beginner" or "random".
            tokens: token placement of a random board, "spiral" or "random".
            board_map: the map (:func:`hexlan.engine.maps.load_map`; the base map by default).

        Raises:
            ValueError: an unknown board kind.
            EngineError: a beginner board of a map that has none (the 5-6 player map).
        """
        if kind == "beginner":
            return beginner_board(board_map)
        if kind == "random":
            return random_board(self.rng, tokens, board_map)
        raise ValueError(f"board must be 'beginner' or 'random', not {kind!r}")
