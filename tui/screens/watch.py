"""`hexlan watch`: a spectator's screens (docs/PROTOCOL.md §17).

- :class:`WatchLobbyScreen` finds the table: the tables heard on the LAN (full ones included:
  a game under way is what there is to watch) or ``HOST:PORT``, as `hexlan join` does, then
  shows the table's seats and spectators until its game starts.
- :class:`WatchScreen` is the table on a big screen, read-only: the board as large as the
  terminal allows, every seat's public standing with who watches, the log, the status line.
  It reuses the game screen's widgets (they read the spectator's public view through a
  :class:`~hexlan.net.client.WatchGame`) and offers no move: a spectator has no seat.
  ``#panel-dice`` shows the dice chart (rolls against two fair dice) at 120x40 and up.

The spectator itself (:class:`~hexlan.net.watch.Spectator`) runs on the app's loop
(:class:`~hexlan.tui.app.WatchApp`); its news redraws the screen at most every
:data:`REDRAW_INTERVAL` seconds, so every move shows within a second of its arrival.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from hexlan.i18n import N_, _
from hexlan.net.client import WatchGame
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.board import BoardView
from hexlan.tui.screens.chat import ChatDialog
from hexlan.tui.screens.info import DiceScreen, GameOverScreen, HelpScreen, StoppedScreen
from hexlan.tui.screens.lobby import JoinScreen
from hexlan.tui.screens.table import MIN_SIZE, WIDE_SIZE, too_small_text
from hexlan.tui.widgets.dice import DiceChart
from hexlan.tui.widgets.log import GameLog
from hexlan.tui.widgets.players import PlayersPanel
from hexlan.tui.widgets.status import StatusBar

REDRAW_INTERVAL: Final = 0.1
"""Seconds between two checks for news to draw."""


class WatchLobbyScreen(JoinScreen):
    """Pick a table to watch (Enter), or watch ``HOST:PORT``; then its lobby, read-only."""

    may_take_full = True
    may_leave = False

    def on_mount(self) -> None:
        """Title the screen for watching (the join screen's own ``on_mount`` lists tables or
        dials the address given)."""
        self.query_one(".dialog-title", Label).update(_("hexlan: watch a table"))

    def _join(self, address: str, fingerprint: str | None) -> None:  # type: ignore[override]
        """Watch the table at ``address`` (the app runs the spectator)."""
        from hexlan.net.lobby import parse_address  # noqa: PLC0415
        from hexlan.tui.app import WatchApp  # noqa: PLC0415

        try:
            host, port = parse_address(address)
        except ValueError as exc:
            self.say(str(exc), error=True)
            self._back_to_list()
            return
        app = self.app
        if isinstance(app, WatchApp):
            self.say(_("Connecting to {address} to watch…").format(address=f"{host}:{port}"))
            app.watch_table(host, port, fingerprint)

    def watch_failed(self, reason: str) -> None:
        """Watching the chosen table failed (refused, unreachable, not a table): say why in
        one line and offer the tables (or the address) again."""
        self._back_to_list()
        self.say(reason[:1].upper() + reason[1:], error=True)


class WatchScreen(Screen[None]):
    """The table for spectators: board, players (and who watches), log, status."""

    DEFAULT_CSS = """
    WatchScreen {
        layout: vertical;
    }
    #watch-main {
        height: 1fr;
    }
    #watch-board {
        width: 1fr;
        height: 1fr;
    }
    #watch-side {
        width: 34;
        height: 1fr;
    }
    WatchScreen.-wide #watch-side {
        width: 42;  /* at 120x40 the board keeps 78 columns: its roomiest layout */
    }
    WatchScreen #panel-players, WatchScreen #panel-log {
        border: round $primary-darken-2;
        border-title-color: $text;
        border-title-style: bold;
    }
    WatchScreen #panel-players {
        height: auto;
    }
    WatchScreen #panel-log {
        height: 1fr;
    }
    WatchScreen #panel-dice {
        display: none;
    }
    WatchScreen.-wide #panel-dice {
        display: block;
        height: auto;
        border: round $primary-darken-2;
        border-title-color: $text;
        border-title-style: bold;
    }
    WatchScreen.-too-small #watch-main, WatchScreen.-too-small #status,
    WatchScreen.-too-small Footer {
        display: none;
    }
    #watch-too-small {
        display: none;
    }
    WatchScreen.-too-small #watch-too-small {
        display: block;
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-align: center;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "dice", N_("Dice stats")),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("q", "app.quit", N_("Quit")),
        Binding("slash", "chat", N_("Chat"), show=False),
    ]

    def __init__(self, game: WatchGame) -> None:
        super().__init__()
        translate_bindings(self)
        self.game = game
        self._dirty = True
        self._shown = 0  # events flashed on the board so far
        self._over_shown = False

    def compose(self) -> ComposeResult:
        """Status line, the board, then players, the dice chart (at 120x40 and up) and the
        log."""
        yield StatusBar(id="status")
        with Horizontal(id="watch-main"):
            yield BoardView(self.game.view, id="watch-board")
            with Vertical(id="watch-side"):
                with Vertical(id="panel-players"):
                    yield PlayersPanel(self.game, id="players")
                with Vertical(id="panel-dice"):  # at 120x40 and up; h shows it anywhere
                    yield DiceChart(self.game, id="dice")
                with Vertical(id="panel-log"):
                    yield GameLog(self.game, id="log")
        yield Footer(compact=True, show_command_palette=False)
        yield Static(id="watch-too-small")

    def action_chat(self) -> None:
        """Open the table chat: a spectator reads it, and writes where the host lets it
        (``--spectator-chat``; else the host's refusal shows as a line: PROTOCOL.md §18)."""
        if not isinstance(self.app.screen, ChatDialog):
            hint = _("Enter sends it, if the host lets spectators write · Esc closes")
            self.app.push_screen(ChatDialog(self.game.chat, hint))

    def on_mount(self) -> None:
        """Title the panels, fit the layout, hear the game and draw."""
        self.query_one("#panel-players").border_title = _("Players")
        self.query_one("#panel-log").border_title = _("Log")
        self.query_one("#panel-dice").border_title = _("Dice")
        self.sub_title = _("watching")
        self._lay_out()
        self.game.on_change = self._news
        self.set_interval(REDRAW_INTERVAL, self._redraw_if_news)
        self.sync()

    def on_unmount(self) -> None:
        """Stop hearing the game."""
        self.game.on_change = None

    def on_resize(self, event: events.Resize) -> None:
        """Re-fit the layout to the new terminal size."""
        self._lay_out()

    def _lay_out(self) -> None:
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        self.set_class(width >= WIDE_SIZE[0] and height >= WIDE_SIZE[1], "-wide")
        if small:
            self.query_one("#watch-too-small", Static).update(
                too_small_text(width, height, _("watching"))
            )

    def _news(self) -> None:
        self._dirty = True

    def _redraw_if_news(self) -> None:
        if self._dirty:
            self.sync()

    def sync(self) -> None:
        """Redraw from the spectator's public view; flash the moves not shown yet."""
        self._dirty = False
        game = self.game
        self.query_one(StatusBar).show(game)
        self.query_one(PlayersPanel).show()
        self.query_one(GameLog).catch_up()
        self.query_one(DiceChart).show()
        board = self.query_one(BoardView)
        board.update_state(game.view)
        events = game.events
        for event in events[self._shown :]:
            if event.target is not None:
                board.flash(*event.target)
        self._shown = len(events)
        if game.is_over and not self._over_shown:
            self._over_shown = True
            end = StoppedScreen(game) if game.stopped is not None else GameOverScreen(game)
            self.app.push_screen(end, self._after_game_over)

    def _after_game_over(self, what: str | None) -> None:
        if what == "quit":
            self.app.exit()

    def action_dice(self) -> None:
        """The dice rolled so far against two fair dice."""
        self.app.push_screen(DiceScreen(self.game))

    def action_help(self) -> None:
        """The help screen (keys and a rules summary)."""
        self.app.push_screen(HelpScreen(self.game.view))
