"""Places a game's own modules fill for its rules class, so the module that reads them names no
game (ARCHITECTURE.md "Many games on one engine": one registration per game).

A :class:`RulesSlot` holds what each game registers for its rules class (a
:class:`~hexlan.engine.variants.base.Variant` subclass) and finds it along the class's bases:
Pirate Islands, built on Seafarers, has what Seafarers registers unless it registers its own.
The games' modules are named by their specs (:class:`~hexlan.engine.gamespec.GameSpec`) and
imported by the slot's ``load`` on first use, never by the module that reads the slot: the
heuristic bot's knowledge of each game (:mod:`hexlan.engine.bots.knowledge`) is one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from hexlan.engine.variants.base import Variant

F = TypeVar("F")


class RulesSlot(Generic[F]):
    """One place that a game's rules class may fill.

    Args:
        name: the place in words, for errors ("bot knowledge").
        load: imports the modules that register (every spec's, for this slot); called before
            each look-up, so it must be cheap once done (``functools.cache``).
    """

    def __init__(self, name: str, load: Callable[[], object]) -> None:
        self.name = name
        self._load = load
        self._by_rules: dict[type[Variant], F] = {}

    def register(self, rules: type[Variant]) -> Callable[[F], F]:
        """Decorate (or call on) what fills this place in games of ``rules``.

        Raises:
            ValueError: ``rules`` already fills it.
        """

        def register(value: F) -> F:
            if rules in self._by_rules:
                raise ValueError(f"the {rules.name} rules fill the {self.name} twice")
            self._by_rules[rules] = value
            return value

        return register

    def along(self, variant: Variant | None) -> list[F]:
        """What fills this place for the game ``variant`` rules (None: the base game, which
        fills none), nearest first along its class's bases."""
        if variant is None:
            return []
        self._load()
        found = (self._by_rules.get(cls) for cls in type(variant).__mro__)
        return [value for value in found if value is not None]
