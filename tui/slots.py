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

from typing import TYPE_CHECKING, TypeVar

from hexlan.engine.slots import RulesSlot

if TYPE_CHECKING:
    from hexlan.engine.variants.base import Variant

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
