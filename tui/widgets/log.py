"""The game log: every event in words, names in their seats' colours; keeps the whole game."""

from __future__ import annotations

from typing import Any

from textual.widgets import RichLog

from hexlan.net.client import GameReader
from hexlan.net.narrate import GameEvent
from hexlan.tui.narrate import event_text


class GameLog(RichLog):
    """Scrolling log of :class:`GameEvent` lines (follows the end unless scrolled back)."""

    DEFAULT_CSS = """
    GameLog {
        height: 1fr;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, game: GameReader, **kwargs: Any) -> None:
        super().__init__(
            wrap=True, markup=False, highlight=False, max_lines=None, min_width=20, **kwargs
        )
        self.game = game
        self.shown = 0
        """How many of the game's events have been written."""

    def catch_up(self) -> None:
        """Write every event not written yet."""
        events = self.game.events
        while self.shown < len(events):
            self.add_event(events[self.shown])

    def add_event(self, event: GameEvent) -> None:
        """Write one event (events that say nothing, or were written already, are skipped)."""
        if event.index < self.shown:
            return
        self.shown = event.index + 1
        line = event_text(event, self.game.names, self.game.human_seat)
        if line:
            self.write(line)
