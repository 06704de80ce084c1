"""The Latin words on a screen: the guard that every string a person reads in the TUI is
marked for translation (issue 27). A screen drawn in Russian should show no English word but
those of :data:`ALLOWED` (names, key names, board labels) and the ones a test names.

>>> latin_words("Ход игрока Ann: aa, cb, Enter", allowed={"Ann"})
[]
>>> latin_words("Roll the dice (r)")
['Roll', 'dice', 'the']
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any, Final

from textual.app import App

ALLOWED: Final = frozenset(
    {
        "hexlan",
        # key names, as the footer and the help show them
        *("Enter", "enter", "Esc", "esc", "Tab", "tab", "Space", "space", "ctrl", "Ctrl"),
        *("shift", "Shift", "PgUp", "PgDn", "Home", "End", "Up", "Down", "Left", "Right"),
        *("Backspace", "Del", "Delete", "Ins", "Insert"),
        # names of things that are not words: formats, protocols
        *("TOML", "JSON", "LAN", "SSH", "TCP", "UDP", "IP", "MCTS", "Ed25519", "PROTOCOL"),
    }
)
"""Latin words a Russian screen may show."""

_BOARD_LABEL: Final = re.compile(r"[a-z]{2}")
"""A typed board label, ``aa``, ``ab``, ... (tui/screens/game.py ``make_labels``): the same in
every language. (An English word of two lowercase letters passes too; a sentence left in
English has longer words.)"""

_WORD: Final = re.compile(r"[A-Za-z][A-Za-z']+")


def latin_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The distinct Latin words of ``text`` (two letters or more) that are neither in
    :data:`ALLOWED`, nor in ``allowed``, nor a board label; sorted."""
    extra = frozenset(allowed)
    return sorted(
        {
            word
            for word in _WORD.findall(text)
            if word not in ALLOWED and word not in extra and not _BOARD_LABEL.fullmatch(word)
        }
    )


def screen_text(app: App[Any]) -> str:
    """Everything the app's screen shows now, as text (from its SVG screenshot, so every
    widget, the footer and any dialog over it are read as drawn)."""
    svg = app.export_screenshot(title="hexlan")
    parts = re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)
    return " ".join(html.unescape(part) for part in parts)


def latin_on_screen(app: App[Any], allowed: Iterable[str] = ()) -> list[str]:
    """:func:`latin_words` of :func:`screen_text`: the untranslated words on the screen."""
    return latin_words(screen_text(app), allowed)
