"""Bots: engine-level policies that pick a legal action from a seat's view of the game.

>>> import random
>>> sorted(BOTS)
['heuristic', 'mcts', 'random']
>>> type(make_bot("random", random.Random(0))).__name__
'RandomBot'
>>> make_bot("mcts", random.Random(0), think=0.25).think
0.25
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypeAlias

from hexlan.engine.bots.base import Bot
from hexlan.engine.bots.heuristic import HeuristicBot
from hexlan.engine.bots.mcts import DEFAULT_THINK, MctsBot
from hexlan.engine.bots.random_bot import RandomBot

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random


Clock: TypeAlias = Callable[[], float]
"""Seconds from a fixed origin (``time.perf_counter``); passed in: the engine reads no clock."""


def _random(rng: random.Random, think: float, clock: Clock | None) -> Bot:
    return RandomBot(rng)


def _heuristic(rng: random.Random, think: float, clock: Clock | None) -> Bot:
    return HeuristicBot(rng)


def _mcts(rng: random.Random, think: float, clock: Clock | None) -> Bot:
    return MctsBot(rng, think, clock)


BOTS: Final[Mapping[str, Callable[[random.Random, float, Clock | None], Bot]]] = MappingProxyType(
    {"random": _random, "heuristic": _heuristic, "mcts": _mcts}
)
"""Bot factories by name (read only), in the order the CLI lists them (weakest first); each
takes the bot's rng, its thinking budget in seconds and the clock to hold it to (which only
``mcts`` uses)."""


def make_bot(
    name: str, rng: random.Random, think: float = DEFAULT_THINK, clock: Clock | None = None
) -> Bot:
    """A new bot of the named kind, drawing any randomness from ``rng``.

    Args:
        name: a key of :data:`BOTS`.
        rng: the bot's only source of randomness.
        think: seconds a searching bot may take per decision (> 0; default 1).
        clock: the clock that holds a searching bot to ``think`` (``time.perf_counter``);
            None: a budget of playouts instead (:data:`hexlan.engine.bots.mcts.NOMINAL_RATE`
            per second), reproducible from the seed.

    Raises:
        ValueError: an unknown name (the message lists the valid ones), or a budget that is
            not positive.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(
            f"unknown bot {name!r}; choose one of: {', '.join(sorted(BOTS))}"
        ) from None
    if not think > 0:
        raise ValueError(f"think must be a positive number of seconds, not {think!r}")
    return factory(rng, think, clock)


__all__ = [
    "BOTS",
    "DEFAULT_THINK",
    "Bot",
    "Clock",
    "HeuristicBot",
    "MctsBot",
    "RandomBot",
    "make_bot",
]
