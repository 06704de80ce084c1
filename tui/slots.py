"""Places in the TUI that a game fills with its own parts, so the board, the screens and the
panels name no game (ARCHITECTURE.md "Many games on one engine").

A :class:`Slot` maps a game's rules class to what it puts in one place (a board layer, a
panel's lines, a dialog); the game's own modules register there, and those are the modules its
spec names as its ``keys`` and ``views`` (:class:`~hexlan.engine.gamespec.GameSpec`), imported
by :mod:`hexlan.tui.games`. The registered part is found along the rules class's bases: Pirate
Islands, built on Seafarers, has Seafarers' parts unless it registers its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from hexlan.engine.variants.base import Variant

F = TypeVar("F")


class Slot(Generic[F]):
    """One place in the TUI that a game's rules class may fill.

    Args:
        name: the place in words, for errors.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._by_rules: dict[type[Variant], F] = {}

    def register(self, rules: type[Variant]) -> Callable[[F], F]:
        """Decorate the part (a function, or any value) that fills this place in games of
        ``rules``.

        Raises:
            ValueError: ``rules`` already fills it.
        """

        def register(part: F) -> F:
            if rules in self._by_rules:
                raise ValueError(f"the {rules.name} rules fill the {self.name} slot twice")
            self._by_rules[rules] = part
            return part

        return register

    def of(self, variant: object) -> F | None:
        """What fills this place in the game of the ``variant`` rules (None: the base game),
        found along its class's bases; None when nothing does."""
        if variant is None:
            return None
        # the games' modules import this one: they are imported on first use, not at import
        import hexlan.tui.games  # noqa: F401, PLC0415

        for cls in type(variant).__mro__:
            part = self._by_rules.get(cls)
            if part is not None:
                return part
        return None
