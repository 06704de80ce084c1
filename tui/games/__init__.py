"""What each game's actions do on the game screen: their keys, their places in picks, the cards
they play (:mod:`hexlan.tui.actionkeys`), one module per game; importing this package registers
them all (as :mod:`hexlan.net.tellers` does for narration)."""

from hexlan.tui.games import (
    base,
    cities_knights,
    jungle,
    pirate_islands,
    seafarers,
    special_build,
)

__all__ = ["base", "cities_knights", "jungle", "pirate_islands", "seafarers", "special_build"]
