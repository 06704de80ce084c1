"""What a bot is: a policy that, given a seat's view of the game, picks one legal action.

A bot is an engine-level policy (../shared/ARCHITECTURE.md, "Layout"): no I/O, no asyncio, and no
randomness of its own; any randomness comes from the ``random.Random`` it is built with, so a seeded
game between bots is reproducible.

A bot reads only what its seat may see (principle 2): the public state plus its own hand
(``view.hands[seat]``) and its own development cards (``view.dev_cards[seat]``). In real games the
view is the seat's :class:`hexlan.engine.info.InformationState`; a full :class:`GameState` works
too, and bots must not peek at the parts of it another seat could not see.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.engine.state import GameState


@runtime_checkable
class Bot(Protocol):
    """A policy for one or more seats."""

    def choose(self, view: GameState, seat: Seat) -> Action:
        """The action ``seat`` takes now.

        Called only when ``seat`` is among ``view.acting_seats()`` and the phase is not a chance
        phase; the result passes ``view.check(action)``.
        """
        ...  # pragma: no cover
