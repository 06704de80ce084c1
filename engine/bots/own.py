"""Bots of the games with a state of their own (Landnám): policies registered by the game's own
bot modules for its state class, so that the code that seats bots (``hexlan simulate``) names
no game (ARCHITECTURE.md "Many games on one engine": one registration per game).

A game whose spec has a ``state`` factory and no Catan rules class
(:class:`~hexlan.engine.gamespec.GameSpec`) names its bot modules as ``bots``, as every game
does; each registers a policy factory for its state class and a bot name in :data:`OWN_BOTS`
(``@OWN_BOTS.register(LandnamState, "heuristic")``). :func:`own_bot` makes the named bot for a
game: the random bot, which reads nothing but the :class:`~hexlan.engine.game.Game` protocol,
plays every game; any other name must be registered for the game's state class (or one of its
bases). A game's search bot is :class:`~hexlan.engine.bots.own_search.OwnSearchBot` registered
by the game's bot module with its heuristic for the playouts (Landnám's ``mcts``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from hexlan.engine.actions import Action
from hexlan.engine.bots import DEFAULT_THINK, Clock
from hexlan.engine.bots.knowledge import import_bot_modules
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.core import Seat
from hexlan.engine.game import Game

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random


class OwnPolicy(Protocol):
    """A bot of a game with a state of its own: it reads the seat's view (a state of the
    game's class that sees as the seat does) and picks one of its legal actions."""

    def choose(self, view: Game, seat: Seat) -> Action:
        """One of ``view.legal_actions(seat)``."""
        ...  # pragma: no cover


PolicyFactory = Callable[["random.Random", float, Clock | None], OwnPolicy]
"""``factory(rng, think, clock)``: a new policy drawing any randomness from ``rng``; a search
bot takes ``think`` seconds a decision by ``clock`` (None: a fixed budget, reproducible from
the seed), any other ignores them (as :data:`hexlan.engine.bots.BOTS`)."""


class OwnBots:
    """Policy factories by state class and bot name, filled by the games' bot modules.

    Args:
        load: imports the modules that register (every spec's ``bots``); called before each
            look-up, so it must be cheap once done (``functools.cache``).
    """

    def __init__(self, load: Callable[[], object]) -> None:
        self._load = load
        self._by_state: dict[tuple[type, str], PolicyFactory] = {}

    def register(self, state: type, name: str) -> Callable[[PolicyFactory], PolicyFactory]:
        """Decorate (or call on) the factory of bot ``name`` for games of ``state``'s class.

        Raises:
            ValueError: that class has a bot of that name already.
        """

        def register(factory: PolicyFactory) -> PolicyFactory:
            if (state, name) in self._by_state:
                raise ValueError(f"{state.__name__} has a {name!r} bot already")
            self._by_state[(state, name)] = factory
            return factory

        return register

    def factory(self, game: Game, name: str) -> PolicyFactory | None:
        """The factory of bot ``name`` registered for ``game``'s class or the nearest of its
        bases, or None."""
        self._load()
        for cls in type(game).__mro__:
            found = self._by_state.get((cls, name))
            if found is not None:
                return found
        return None

    def names(self, game: Game) -> list[str]:
        """The bot names registered for ``game``'s class and its bases, sorted."""
        self._load()
        classes = set(type(game).__mro__)
        return sorted({name for cls, name in self._by_state if cls in classes})


OWN_BOTS: Final = OwnBots(import_bot_modules)
"""The bots of each game with a state of its own, registered by its bot modules."""


def own_bot(
    name: str,
    game: Game,
    rng: random.Random,
    think: float = DEFAULT_THINK,
    clock: Clock | None = None,
) -> OwnPolicy:
    """A new bot ``name`` for ``game`` (a state of a game with a state of its own).

    Args:
        name: ``"random"`` (every game), or a name the game's bot modules register
            (Landnám's ``"heuristic"`` and ``"mcts"``).
        game: the game (any view of it) the bot will play; only its class is read.
        rng: the bot's only source of randomness.
        think: seconds a searching bot may take per decision (> 0).
        clock: what holds a searching bot to ``think`` (``time.perf_counter``); None: a fixed
            budget of playouts, reproducible from ``rng``'s seed.

    Raises:
        ValueError: a name not registered for the game (the message lists those that are), or
            a ``think`` that is not positive.
    """
    if not think > 0:
        raise ValueError(f"think must be a positive number of seconds, not {think!r}")
    if name == "random":
        return RandomBot(rng)
    factory = OWN_BOTS.factory(game, name)
    if factory is None:
        known = ", ".join(["random", *OWN_BOTS.names(game)])
        raise ValueError(f"{type(game).__name__} has no {name!r} bot; choose one of: {known}")
    return factory(rng, think, clock)


__all__ = ["OWN_BOTS", "OwnBots", "OwnPolicy", "PolicyFactory", "own_bot"]
