"""A table's terms in words, for the lobby: the game, its board, the seats and every game
option that is not the official default (:class:`~hexlan.engine.options.GameOptions`, whose
docstring is the source of each reading).

>>> option_words(GameOptions(victory_points=8, largest_army=False))
['8 victory points to win', 'no Largest Army']
>>> table_words("base", "beginner", 4, GameOptions())
('base game · beginner board · 4 players', 'Options: none (the official rules)')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, Final

from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset

_WORDS: Final[dict[str, Callable[[Any], str]]] = {
    "victory_points": lambda n: f"{n} victory points to win",
    "knight_only_before_roll": lambda on: (
        "only a Knight may be played before the roll"
        if on
        else "any development card may be played before the roll"
    ),
    "robber_before_discard": lambda on: (
        "on a 7 the robber moves before the discards"
        if on
        else "on a 7 the discards come before the robber"
    ),
    "robber_to_desert": lambda on: (
        "the robber may go to the desert" if on else "the robber may not go to the desert"
    ),
    "longest_road_min": lambda n: f"Longest Road needs {n} roads",
    "largest_army": lambda on: "Largest Army is awarded" if on else "no Largest Army",
    "vp_cards_next_turn": lambda on: (
        "victory point cards count from the turn after they are bought"
        if on
        else "victory point cards count at once"
    ),
    "settlements_need_road": lambda on: (
        "settlements must touch their owner's road"
        if on
        else "settlements need no road (distance rule only)"
    ),
    "mixed_three_to_one": lambda on: (
        "3:1 harbours take any three cards" if on else "3:1 harbours take three of one kind"
    ),
    "piece_limits": lambda on: (
        "15 roads, 5 settlements, 4 cities each" if on else "no limit on pieces"
    ),
    "victory_at_turn_end": lambda on: (
        "victory is checked at the end of a turn" if on else "a player wins at once"
    ),
    "jungle_number": lambda n: f"the jungle's number is {n}",
    "jungle_robber_blocks": lambda on: (
        "the robber stops the jungle's discoveries"
        if on
        else "the jungle yields under the robber too"
    ),
    "river_gold_points": lambda on: (
        "gold points from the river"
        if on
        else "no gold points: a building on the gold mine is worth a point more"
    ),
    "river_setup_ban_whole_river": lambda on: (
        "no set-up settlement on any river corner"
        if on
        else "no set-up settlement on the gold mine's corners"
    ),
    "ck_improve_without_city": lambda on: (
        "city improvements need no city" if on else "city improvements need a city"
    ),
    "ck_knights_active_after_win": lambda on: (
        "knights stay active after a won attack"
        if on
        else "every knight goes inactive after an attack"
    ),
    "ck_one_monopoly_per_turn": lambda on: (
        "one monopoly a turn" if on else "any number of monopolies a turn"
    ),
    "ck_point_cards_in_hand": lambda on: (
        "Printer and Constitution are held till their holder's turn"
        if on
        else "Printer and Constitution are shown when drawn"
    ),
}
"""Each option's value in words (every :class:`GameOptions` field has its entry)."""


def option_words(options: GameOptions) -> list[str]:
    """Every option of ``options`` that differs from the official default, in words, in the
    options' declaration order."""
    changed = options.changed()
    return [_WORDS[name](changed[name]) for name in asdict(options) if name in changed]


def table_words(game: str, board_kind: str, seats: int, options: GameOptions) -> tuple[str, str]:
    """The table's terms as two lines: the game, its board and the seats; then its options.

    Args:
        game: the game's name (seeds/<game>.toml).
        board_kind: "beginner" or "random".
        seats: the table's size.
        options: the options the opening will carry.

    Raises:
        EngineError: an unknown game.
    """
    rules = load_ruleset(game)
    board = f"{board_kind} board" + ("" if rules.board == game else f" ({rules.board} map)")
    first = f"{game} game · {board} · {seats} players"
    words = option_words(options)
    second = "Options: " + ("; ".join(words) if words else "none (the official rules)")
    return first, second


__all__ = ["option_words", "table_words"]
