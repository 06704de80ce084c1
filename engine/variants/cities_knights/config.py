"""Cities & Knights' numbers, read from the rule set's ``[cities_knights]`` table
(seeds/cities-and-knights.toml), and the game options that choose between seed 002's readings and
the official rules (:class:`~hexlan.engine.options.GameOptions`, ``ck_*``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexlan.engine.seedfile import parse_cost

if TYPE_CHECKING:
    from hexlan.engine.options import GameOptions


class Config:
    """The rule set's ``[cities_knights]`` numbers (seeds/cities-and-knights.toml) and the
    game's ``ck_*`` options (the official rules without them).

    Attributes:
        city_for_improvement: a city improvement needs a city (official; off with the option
            ``ck_improve_without_city``, seed 002).
        rest_after_win: every knight goes inactive after an attack Catan holds too (official;
            off with ``ck_knights_active_after_win``, seed 002).
        one_monopoly: a seat plays at most one Resource or Trade Monopoly a turn (the option
            ``ck_one_monopoly_per_turn``; officially any number).
        points_at_once: a Printer or Constitution drawn is shown at once, never held (official;
            off with ``ck_point_cards_in_hand``).

    Raises:
        EngineError: through :func:`~hexlan.engine.seedfile.parse_cost`, a malformed cost.
    """

    def __init__(self, table: dict[str, Any], kinds: int, options: GameOptions) -> None:
        self.city_for_improvement = not options.flag("ck_improve_without_city")
        self.rest_after_win = not options.flag("ck_knights_active_after_win")
        self.one_monopoly = options.flag("ck_one_monopoly_per_turn")
        self.points_at_once = not options.flag("ck_point_cards_in_hand")
        self.knight_cost = parse_cost(table["knight"], kinds)
        self.promote_cost = parse_cost(table["promote"], kinds)
        self.activate_cost = parse_cost(table["activate"], kinds)
        self.wall_cost = parse_cost(table["wall"], kinds)
        self.knights_per_level = int(table["knights_per_level"])
        self.walls = int(table["walls"])
        self.wall_bonus = int(table["wall_bonus"])
        self.top_level = int(table["improvement_levels"])
        self.ability_level = int(table["ability_level"])
        self.metropolis_level = int(table["metropolis_level"])
        self.metropolis_points = int(table["metropolis_points"])
        self.barbarian_track = int(table["barbarian_track"])
        self.progress_hand = int(table["progress_hand"])
