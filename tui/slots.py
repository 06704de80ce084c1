"""Places in the TUI that a game fills with its own parts, so the board, the screens and the
panels name no game (ARCHITECTURE.md "Many games on one engine").

A :class:`Slot` is a :class:`~hexlan.engine.slots.RulesSlot` of the TUI: it maps a game's rules
class to what it puts in one place (a board layer, a panel's lines, a dialog); the game's own
modules register there, and those are the modules its spec names as its ``keys`` and ``views``
(:class:`~hexlan.engine.gamespec.GameSpec`), imported by :mod:`hexlan.tui.games` on the first
look-up. The registered part is found along the rules class's bases: Pirate Islands, built on
Seafarers, has Seafarers' parts unless it registers its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from hexlan.engine.options import GameOptions
from hexlan.engine.slots import RulesSlot

if TYPE_CHECKING:
    from textual.screen import Screen

    from hexlan.engine.variants.base import Variant
    from hexlan.net.peer import Peer

F = TypeVar("F")


def _load_games() -> None:
    """Import every game's TUI modules (they import this one, so not at import time)."""
    import hexlan.tui.games  # noqa: F401, PLC0415


class Slot(RulesSlot[F]):
    """One place in the TUI that a game's rules class may fill.

    Args:
        name: the place in words, for errors.
    """

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} slot", _load_games)

    def of(self, variant: Variant | None) -> F | None:
        """What fills this place in the game of the ``variant`` rules (None: the base game),
        the nearest along its class's bases; None when nothing does."""
        return next(iter(self.along(variant)), None)


class NameSlot(Generic[F]):
    """One place in the TUI that a game with a state of its own fills, by its spec's name (such
    a game has no rules class for :class:`Slot`): its table for `hexlan play`.

    Args:
        name: the place in words, for errors.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._by_game: dict[str, F] = {}

    def register(self, game: str) -> Callable[[F], F]:
        """Decorate (or call on) what fills this place for the game whose spec is ``game``.

        Raises:
            ValueError: ``game`` fills it already.
        """

        def register(value: F) -> F:
            if game in self._by_game:
                raise ValueError(f"the {game} game fills the {self.name} twice")
            self._by_game[game] = value
            return value

        return register

    def of(self, game: str) -> F | None:
        """What fills this place for the game whose spec is ``game``, or None."""
        _load_games()
        return self._by_game.get(game)


@dataclass(frozen=True, slots=True)
class OwnTable:
    """What `hexlan play` asks of a game with a state of its own: the table to open.

    Attributes:
        game: the rule set's name; names: one per seat (the person's first); seed: the seats'
            keys and chains and the bots follow from it (not fair; None: fresh keys, a fair
            game); options: the game options; bot: makes a
            bot's policy from its seeded ``random.Random`` (`hexlan play` passes the named
            bot of ``hexlan.simulate.own_bot``); bot_delay: seconds between bot moves (0 in
            tests); log_dir: where the game's log goes (None: the user's log directory);
            save_log: False keeps no log (tests).
    """

    game: str
    names: tuple[str, ...]
    seed: int | None
    options: GameOptions | None
    bot: Callable[[random.Random], Any]
    bot_delay: float
    log_dir: Path | None = None
    save_log: bool = True


OWN_TABLES: Final = NameSlot[Callable[[OwnTable], "Screen[Any]"]]("own table")
"""Each game with a state of its own: the screen `hexlan play` opens for it, by its spec's name."""


@dataclass(frozen=True, slots=True)
class OwnNetTable:
    """What `hexlan host` / `hexlan join` ask of a game with a state of its own.

    Attributes:
        client: the person's client from their seat's peer: ``client(peer)`` (a
            :class:`~hexlan.net.own_client.OwnNetworkGame` with the game's teller).
        screen: the table's screen for that client: ``screen(client, bot_delay)``.
    """

    client: Callable[[Peer], Any]
    screen: Callable[[Any, float], Screen[Any]]


OWN_NET_TABLES: Final = NameSlot[OwnNetTable]("own networked table")
"""Each game with a state of its own: its networked client and table, by its spec's name."""
