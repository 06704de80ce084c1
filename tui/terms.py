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
from typing import Any, Final

from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset, state_spec
from hexlan.engine.variants import declared_options

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
}
"""Each shared option's value in words (every :class:`GameOptions` field has its entry); a
game's own options carry their words in its spec (:attr:`GameOption.words
<hexlan.engine.gamespec.GameOption.words>`)."""


def value_words(name: str, value: Any) -> str:
    """Option ``name`` at ``value`` in words: the shared options' words here, a game's own
    option's from its spec (:attr:`~hexlan.engine.gamespec.GameOption.words`).

    >>> value_words("largest_army", False)
    'no Largest Army'

    Raises:
        KeyError: no game has an option ``name``.
    """
    return _WORDS[name](value) if name in _WORDS else declared_options()[name].words(value)


def option_words(options: GameOptions) -> list[str]:
    """Every option of ``options`` that differs from the official default, in words, in the
    options' declaration order."""
    return [value_words(name, value) for name, value in options.changed().items()]


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
    if state_spec(game) is not None:  # a game with a state of its own lays no Catan board
        first = f"{game} game · {seats} players"
    else:
        rules = load_ruleset(game)
        board = f"{board_kind} board" + ("" if rules.board == game else f" ({rules.board} map)")
        first = f"{game} game · {board} · {seats} players"
    words = option_words(options)
    second = "Options: " + ("; ".join(words) if words else "none (the official rules)")
    return first, second


__all__ = ["option_words", "table_words"]
