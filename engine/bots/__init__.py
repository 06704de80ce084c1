"""Bots: engine-level policies that pick a legal action from a seat's view of the game.

>>> import random
>>> sorted(BOTS)
['heuristic', 'random']
>>> type(make_bot("random", random.Random(0))).__name__
'RandomBot'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from hexlan.engine.bots.base import Bot
from hexlan.engine.bots.heuristic import HeuristicBot
from hexlan.engine.bots.random_bot import RandomBot

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random

BOTS: Final[Mapping[str, Callable[[random.Random], Bot]]] = MappingProxyType(
    {"random": RandomBot, "heuristic": HeuristicBot}
)
"""Bot factories by name (read only), in the order the CLI lists them."""


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of the named kind, drawing any randomness from ``rng``.

    Raises:
        ValueError: an unknown name; the message lists the valid ones.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(
            f"unknown bot {name!r}; choose one of: {', '.join(sorted(BOTS))}"
        ) from None
    return factory(rng)


__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bot"]
