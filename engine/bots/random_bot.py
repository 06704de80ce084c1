"""A bot that plays uniformly at random among its legal actions (the baseline of every benchmark).

Like Catanatron's ``RandomPlayer`` it never makes a domestic trade offer or a counter-offer
(:meth:`GameState.legal_actions` does not list them: their terms are open); asked to answer an offer,
it accepts or rejects at random among the answers listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.actions import Action
from hexlan.engine.core import EngineError, Seat
from hexlan.engine.game import Game

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random


class RandomBot:
    """Uniformly random among ``view.legal_actions(seat)``: it reads nothing else, so it plays
    any game of the :class:`~hexlan.engine.game.Game` protocol.

    Args:
        rng: the only source of randomness.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Game, seat: Seat) -> Action:
        """A uniformly random legal action of ``seat``.

        Raises:
            EngineError: ``seat`` has no legal action now (it is not acting, or a chance outcome
                is due).
        """
        actions = view.legal_actions(seat)
        if not actions:
            raise EngineError(f"seat {seat} has no legal action now")
        return actions[self.rng.randrange(len(actions))]
