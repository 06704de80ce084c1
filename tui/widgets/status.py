"""The status line: whose turn, the phase, the last roll, and what the game waits for (in a
networked game, the seat that stalls: "waiting for Blue: no reveal for 5 s")."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from hexlan.engine.core import GamePhase, Phase
from hexlan.net.client import GameClient
from hexlan.tui.actionkeys import phase_label
from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.panel_lines import STATUS

PHASE_WORDS: Final[Mapping[GamePhase, str]] = MappingProxyType(
    {
        Phase.START_PLAYER: "start",
        Phase.SETUP_SETTLEMENT: "set-up",
        Phase.SETUP_ROAD: "set-up",
        Phase.ROLL: "roll",
        Phase.DICE: "roll",
        Phase.DISCARD: "discard",
        Phase.MOVE_ROBBER: "move robber",
        Phase.STEAL: "move robber",
        Phase.MAIN: "trade/build",
        Phase.ROAD_BUILDING: "road building",
        Phase.TRADE_RESPONSES: "trade offer",
        Phase.DRAW: "trade/build",
        Phase.MONOPOLY: "monopoly",
        Phase.VICTORY: "game over",
        Phase.GAME_OVER: "game over",
    }
)
"""The engine's phases in the player's words (../shared/UI.md: set-up, roll, discard, move
robber, ...)."""


def phase_words(phase: GamePhase) -> str:
    """The phase as the status line names it: a game's own phase by the label its module in
    :mod:`hexlan.tui.games` registers (:func:`~hexlan.tui.actionkeys.labels`), else by its
    title."""
    return PHASE_WORDS.get(phase) or phase_label(phase) or phase.title


class StatusBar(Static):
    """One line: turn, whose turn, phase, a stall (networked games), last dice, your points.

    Where the line is wider than the bar (80 columns and a game with more to say: Cities &
    Knights' barbarians and event die), it is told compactly: ``T12`` for the turn, the dice's
    total alone, the event die by the track's letter, one space between parts, ``5/13 VP``; it
    is cut with an ellipsis only where even that does not fit (a long stall message)."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        width: 1fr;
        background: $panel;
        padding: 0 1;
    }
    """

    _game: GameClient | None = None

    def show(self, game: GameClient) -> None:
        """Redraw from the game's human view (compact where the full line does not fit)."""
        self._game = game
        text = self.line(game, compact=False)
        room = self.content_size.width
        if room and text.cell_len > room:
            text = self.line(game, compact=True)
        self.update(text)

    def on_resize(self) -> None:
        """A new width: the line is told again, in full or compactly."""
        if self._game is not None:
            self.show(self._game)

    @staticmethod
    def line(game: GameClient, compact: bool) -> Text:
        """The status line of ``game``, in full or ``compact``."""
        view = game.view
        gap = " " if compact else "  "
        text = Text(no_wrap=True, overflow="ellipsis")
        turn = f"T{view.turn}" if compact else f"Turn {view.turn}"
        if view.turn == 0:
            turn = "Set-up"
        text.append(turn, style="bold")
        text.append(gap)
        if view.active >= 0:
            seat = view.active
            who = "You" if seat == game.human_seat else game.names[seat]
            text.append(f"{seat_mark(seat)} {who}", style=seat_style(seat) + Style(bold=True))
            text.append(" ")
        text.append(f"[{phase_words(view.phase)}]", style="bold reverse")
        if game.status:  # a networked game stuck on a seat: say whom it waits for, first
            text.append(gap)
            text.append(game.status, style="bold yellow")
        text.append(f"{gap}dice ")
        if view.dice is not None:
            total = view.dice.first + view.dice.second
            text.append(f"{total}", style="bold red" if total == 7 else "bold")
            if not compact:
                text.append(f" ({view.dice.first}+{view.dice.second})")
        elif game.rolls:
            text.append(f"{game.rolls[-1]}", style="dim")
        else:
            text.append("-", style="dim")
        part = STATUS.of(view.variant)  # a game's own: Cities & Knights' barbarians
        if part is not None:
            text.append_text(part(game, compact))
        if game.human_seat >= 0:  # a spectator (`hexlan watch`) has no seat
            text.append(gap if compact else "  you ")
            text.append(f"{view.victory_points(game.human_seat)}", style="bold")
            text.append(f"/{view.target} VP")
        return text
