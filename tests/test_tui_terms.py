"""A table's terms in words (tui/terms.py): the lobby names every option that is not the
official default, so a joiner knows the rules it is about to play."""

from __future__ import annotations

from dataclasses import fields

import pytest

from hexlan.engine.core import EngineError
from hexlan.engine.options import GameOptions
from hexlan.engine.variants import declared_options
from hexlan.tui.terms import option_words, table_words

ALL_OPTIONS = [
    *(f.name for f in fields(GameOptions) if f.name != "extra"),
    *declared_options(),
]
"""Every option of every game: the shared ones and each game's own."""


def off_default(name: str) -> bool | int:
    """A value of option ``name`` other than its default."""
    own = declared_options().get(name)
    default = GameOptions().to_dict()[name] if own is None else own.default
    return not default if isinstance(default, bool) else 3


@pytest.mark.parametrize("name", ALL_OPTIONS)
def test_every_option_off_its_default_is_said_in_words(name: str) -> None:
    value = off_default(name)
    (words,) = option_words(GameOptions.of(**{name: value}))
    assert words and name not in words  # words, not the option's name
    if not isinstance(value, bool):
        assert "3" in words


def test_the_official_rules_say_so_and_the_board_names_its_map() -> None:
    assert option_words(GameOptions()) == []
    assert table_words("base", "beginner", 4, GameOptions()) == (
        "base game · beginner board · 4 players",
        "Options: none (the official rules)",
    )
    first, second = table_words("seafarers-fog-island-3", "random", 3, GameOptions.seed003())
    assert first.startswith("seafarers-fog-island-3 game · random board")
    assert second.count(";") == len(GameOptions.seed003().changed()) - 1
    first, _ = table_words("cities-and-knights", "beginner", 3, GameOptions())
    assert first == "cities-and-knights game · beginner board (base map) · 3 players"
    with pytest.raises(EngineError):
        table_words("no-such-game", "random", 4, GameOptions())
