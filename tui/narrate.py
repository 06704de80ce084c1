"""Event text for the screen: the plain narration of :class:`~hexlan.net.narrate.GameEvent`, with
every seat's name (and "You") in that seat's colour.

The words themselves come from the game client (net/narrate.py narrates from the human seat's view,
so hidden cards of others are never named); this module only styles them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Final

from rich.style import Style
from rich.text import Text

from hexlan.net.narrate import GameEvent
from hexlan.tui.palette import seat_style

_KIND_STYLES: Final = {
    "turn": Style(bold=True),
    "game": Style(bold=True, reverse=True),
    "steal": Style(italic=True),
    "robber": Style(italic=True),
}


@cache
def _name_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted({*names, "You", "you", "Your", "your"}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b")


def style_names(
    text: str, names: Sequence[str], human_seat: int, base: Style | None = None
) -> Text:
    """``text`` with each seat's name (and you/your for the human seat) in the seat's colour."""
    result = Text(text, style=base or Style())
    seat_of = {name: seat for seat, name in enumerate(names)}
    for match in _name_pattern(tuple(names)).finditer(text):
        word = match.group(1)
        seat = human_seat if word.lower() in ("you", "your") else seat_of.get(word)
        if seat is not None:
            result.stylize(seat_style(seat) + Style(bold=True), match.start(1), match.end(1))
    return result


def event_text(event: GameEvent, names: Sequence[str], human_seat: int) -> Text:
    """One log line for an event (empty Text for events that say nothing)."""
    if not event.text:
        return Text()
    return style_names(event.text, names, human_seat, _KIND_STYLES.get(event.kind))
