"""What the side panels have in common: a game to read, and a redraw after each change."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

from hexlan.net.client import GameReader


class GamePanel(Widget):
    """A panel that renders from the human seat's view of ``game`` (read only).

    Args:
        game: the game client.
        **kwargs: passed to :class:`~textual.widget.Widget` (``id``, ``classes``, ...).
    """

    DEFAULT_CSS = """
    GamePanel {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, game: GameReader, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game

    def show(self) -> None:
        """Redraw after a change of the game."""
        self.refresh(layout=True)
