"""Every game's tellers (:mod:`hexlan.net.telling`), one module per game: importing this
package registers them all. A new game adds its module here, beside its rules module's place in
:data:`hexlan.engine.variants.HOOKS`."""

from __future__ import annotations

from hexlan.net.tellers import (
    base,
    board_cards,
    cities_knights,
    jungle,
    pirate_islands,
    seafarers,
)

__all__ = ["base", "board_cards", "cities_knights", "jungle", "pirate_islands", "seafarers"]
