"""The table's frame that the game and the replay share: a status line, the board, side panels
(the players on top, then panels behind tabs: the hand, the log...), a prompt line and the keys.

:class:`TableScreen` composes that frame, fits it to the terminal (``-wide`` from
:data:`WIDE_SIZE`, ``-too-small`` under :data:`MIN_SIZE`, with a message saying so) and
switches the side panels by tab, ``tab`` and digit keys. A screen built on it supplies what goes
into the frame (:meth:`TableScreen.compose_status`, :meth:`TableScreen.compose_panel`) and its
panels' names (:attr:`TableScreen.PANELS`); app.tcss styles ``TableScreen`` once for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static, Tab, Tabs

from hexlan.tui.board import BoardView

MIN_SIZE: Final = (80, 24)
"""The smallest terminal (columns, rows) a table is drawn in."""

WIDE_SIZE: Final = (110, 34)
"""From this terminal size on (columns, rows), the side panels show side by side, not behind
tabs."""


def too_small_text(width: int, height: int, who: str) -> Text:
    """What a table says in a terminal under :data:`MIN_SIZE`: its size and the least ``who``
    ("hexlan", "the replay", "watching") needs."""
    return Text.assemble(
        ("Terminal too small\n\n", "bold"),
        f"{width}x{height}: {who} needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]}.\n"
        "Enlarge the window (ctrl+q quits).",
        justify="center",
    )


class TableScreen(Screen[None]):
    """The frame of a table (see the module docstring).

    Attributes:
        panel: the side panel shown behind the tabs ("log" at first).
    """

    PANELS: ClassVar[tuple[str, ...]] = ("hand", "log")
    """The side panels behind tabs, in tab order (their titles are the names, capitalised)."""

    NEEDS: ClassVar[str] = "hexlan"
    """Who needs :data:`MIN_SIZE`, in the too-small message."""

    def __init__(self) -> None:
        super().__init__()
        self.panel = "log"

    # ------------------------------------------------------------------ what a table puts in

    def compose_status(self) -> Widget:
        """The status line's widget (id ``status``)."""
        return Static(id="status")

    def compose_board(self) -> BoardView:
        """The board widget (id ``board``)."""
        raise NotImplementedError

    def compose_players(self) -> Widget:
        """The players panel's widget, above the tabs."""
        raise NotImplementedError

    def compose_panel(self, name: str) -> ComposeResult:
        """The widgets of side panel ``name`` (one of :attr:`PANELS`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the frame

    def compose(self) -> ComposeResult:
        """Status line, board, side panels (players, then the tabbed ones), prompt, keys."""
        yield self.compose_status()
        with Horizontal(id="main"):
            yield self.compose_board()
            with Vertical(id="side"):
                with Vertical(id="panel-players"):
                    yield self.compose_players()
                yield Tabs(
                    *(Tab(name.capitalize(), id=f"tab-{name}") for name in self.PANELS),
                    active="tab-log",
                    id="side-tabs",
                )
                for name in self.PANELS:
                    classes = "panel -current" if name == "log" else "panel"
                    with Vertical(id=f"panel-{name}", classes=classes):
                        yield from self.compose_panel(name)
        yield Static(id="prompt")
        yield Footer(compact=True)
        yield Static(id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        """Re-fit the layout (wide, narrow, too small) to the new terminal size."""
        self.lay_out()

    def lay_out(self) -> tuple[int, bool]:
        """Fit the frame to the terminal: the ``-wide``, ``-narrow`` and ``-too-small``
        classes, the too-small message, the command palette's place in the footer (only wide:
        the room goes to the keys). Returns the terminal's width and whether it is wide."""
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        wide = width >= WIDE_SIZE[0] and height >= WIDE_SIZE[1]
        self.set_class(small, "-too-small")
        self.set_class(wide, "-wide")
        self.set_class(not wide, "-narrow")
        self.query_one(Footer).show_command_palette = wide  # ctrl+p works anyway
        if small:
            self.query_one("#too-small", Static).update(too_small_text(width, height, self.NEEDS))
        self.refresh_bindings()
        return width, wide

    @property
    def board(self) -> BoardView:
        """The board widget."""
        return self.query_one("#board", BoardView)

    # ------------------------------------------------------------------ side panels

    def tabbed_panels(self) -> Sequence[str]:
        """The panels ``tab`` cycles through now (all of :attr:`PANELS` by default)."""
        return self.PANELS

    def action_next_panel(self) -> None:
        """Show the next side panel."""
        names = self.tabbed_panels()
        index = names.index(self.panel) if self.panel in names else 0
        self.action_panel(names[(index + 1) % len(names)])

    def action_panel(self, name: str) -> None:
        """Show the side panel ``name`` (one of :attr:`PANELS`)."""
        self.query_one("#side-tabs", Tabs).active = f"tab-{name}"

    def panel_shown(self, name: str) -> None:
        """Side panel ``name`` has just been brought to the front (nothing to do by default)."""

    @on(Tabs.TabActivated, "#side-tabs")
    def _tab_activated(self, event: Tabs.TabActivated) -> None:
        name = (event.tab.id or "tab-log").removeprefix("tab-")
        self.panel = name
        for panel in self.PANELS:
            self.query_one(f"#panel-{panel}").set_class(panel == name, "-current")
        self.panel_shown(name)


__all__ = ["MIN_SIZE", "WIDE_SIZE", "TableScreen", "too_small_text"]
