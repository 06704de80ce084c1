"""The replay screen (`hexlan replay LOG`): a finished, abandoned or cut-short game, stepped
through by keys.

It reads a :class:`~hexlan.net.replay.Replayer` (the cursor on the log's timeline) exactly as
the game screen reads a game client, with the same board, players, hand, log and dice widgets:
what the log's seat saw at each step, or, when the log holds a passed audit, every hand (``a``).
Keys: right/left one action, ``n``/``p`` one turn, ``g`` a turn by number, home/end, space plays
at a speed that ``+``/``-`` change.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, Static

from hexlan.engine.core import NO_SEAT
from hexlan.i18n import N_, _, ngettext
from hexlan.net.replay import Replayer
from hexlan.tui import games  # noqa: F401 - every game's phase labels register on import
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.board import BoardView
from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.screens.table import TableScreen
from hexlan.tui.widgets.dice import DiceChart
from hexlan.tui.widgets.hand import RESOURCE_STYLES, HandPanel
from hexlan.tui.widgets.log import GameLog
from hexlan.tui.widgets.panel import GamePanel
from hexlan.tui.widgets.players import PlayersPanel
from hexlan.tui.widgets.status import phase_words

SPEEDS: Final = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Steps per second that ``+`` and ``-`` choose from while playing."""


class HandsPanel(GamePanel):
    """Every seat's hand and development cards (the full game a passed audit opened)."""

    def render(self) -> RenderableType:
        """One block per seat: its resources by letter, then its unplayed cards."""
        view = self.game.view
        text = Text(no_wrap=True, overflow="ellipsis")
        for seat in range(self.game.players):
            text.append(f"{seat_mark(seat)} {self.game.names[seat]}", style=seat_style(seat))
            size = view.hand_size[seat]
            text.append("  " + ngettext("{n} card", "{n} cards", size).format(n=size) + "\n", "dim")
            text.append("  ")
            for r in view.rules.cards:
                count = view.hands[seat][r]
                style = "bold " + RESOURCE_STYLES[r] if count else "dim"
                text.append(f"{r.letter}{count} ", style=style)
            cards = view.dev_cards[seat]
            held = [
                f"{_(card.title)}×{cards[card]}" for card in view.rules.dev_faces if cards[card]
            ]
            text.append("\n  " + (", ".join(held) if held else _("no development card")) + "\n")
        return text


class TurnDialog(ModalScreen[int | None]):
    """Asks for a turn number (Enter jumps, Esc cancels)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, last: int) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.last = last

    def compose(self) -> ComposeResult:
        """A title and a number field."""
        with Vertical(classes="dialog"):
            yield Label(
                _("Go to turn (0 = set-up, last {last})").format(last=self.last),
                classes="dialog-title",
            )
            yield Input(type="integer", placeholder=f"0..{self.last}", id="turn")
            yield Static(_("Enter jumps, Esc cancels"), classes="hint")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(int(value) if value.lstrip("-").isdigit() else None)

    def action_cancel(self) -> None:
        """Close without moving."""
        self.dismiss(None)


class ReplayScreen(TableScreen):
    """The table of a replayed log, moved by keys (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Next"), priority=True),
        Binding("left", "step(-1)", N_("Back"), priority=True),
        Binding("n", "turn(1)", N_("Turn+")),
        Binding("p", "turn(-1)", N_("Turn-")),
        Binding("g", "goto", N_("Turn #")),
        Binding("space", "play", N_("Play")),
        Binding("plus,equals_sign", "speed(1)", N_("Faster"), show=False),
        Binding("minus", "speed(-1)", N_("Slower"), show=False),
        Binding("home", "seek_start", N_("Start"), show=False),
        Binding("end", "seek_end", N_("End"), show=False),
        Binding("a", "reveal", N_("Hands")),
        Binding("s", "stats", N_("Stats")),
        Binding("tab", "next_panel", N_("Panel"), show=False),
        Binding("1", "panel('hand')", N_("Hand"), show=False),
        Binding("2", "panel('log')", N_("Log"), show=False),
        Binding("3", "panel('dice')", N_("Dice"), show=False),
        Binding("q", "app.quit", N_("Quit")),
    ]

    PANELS: ClassVar[tuple[str, ...]] = ("hand", "log", "dice")
    NEEDS: ClassVar[str] = N_("the replay")

    def __init__(self, replay: Replayer) -> None:
        super().__init__()
        translate_bindings(self)
        self.replay = replay
        self.speed = 2.0
        """Steps per second while playing."""
        self._timer: Timer | None = None
        self._logged = 0
        """How many of the replay's events the log widget shows."""

    # ------------------------------------------------------------------ layout

    def compose_board(self) -> BoardView:
        """The board at the cursor."""
        return BoardView(self.replay.view, id="board")

    def compose_players(self) -> PlayersPanel:
        """Every seat's points, cards and pieces at the cursor."""
        return PlayersPanel(self.replay, id="players")

    def compose_panel(self, name: str) -> ComposeResult:
        """The hand (the seat's, every hand once audited, or a note that none can be shown),
        the log, or the dice chart."""
        replay = self.replay
        if name == "hand":
            yield HandPanel(replay, id="hand")
            yield HandsPanel(replay, id="hands")
            yield Static(id="no-hand")
        elif name == "log":
            yield GameLog(replay, id="log")
        else:
            yield DiceChart(replay, id="dice")

    def on_mount(self) -> None:
        """Fit the layout and draw the start of the game."""
        self.query_one("#no-hand", Static).update(
            Text(
                _(
                    "A third party's view: this log holds no passed audit, so nobody's hidden "
                    "cards can be shown."
                ),
                style="dim",
            )
        )
        self.lay_out()
        self.sync()

    def lay_out(self) -> tuple[int, bool]:
        """Fit the table to the terminal (:meth:`TableScreen.lay_out`); wide, the hand has a
        panel of its own, so the tabs go back to the log."""
        width, wide = super().lay_out()
        if wide and self.panel == "hand":
            self.action_panel("log")
        return width, wide

    # ------------------------------------------------------------------ drawing

    def sync(self) -> None:
        """Redraw everything at the cursor."""
        replay = self.replay
        self._title_panels()
        self.query_one("#status", Static).update(self._status())
        self.query_one("#prompt", Static).update(self._prompt())
        self.query_one(PlayersPanel).show()
        seat_hand = replay.human_seat != NO_SEAT and not replay.reveal
        self.query_one(HandPanel).display = seat_hand
        self.query_one(HandsPanel).display = replay.reveal
        self.query_one("#no-hand").display = replay.human_seat == NO_SEAT and not replay.reveal
        self.query_one(HandPanel).show()
        self.query_one(HandsPanel).show()
        self._sync_log()
        self.query_one(DiceChart).show()
        self.board.update_state(replay.view)
        self.refresh_bindings()

    def _title_panels(self) -> None:
        replay = self.replay
        self.query_one("#panel-players").border_title = _("Players")
        if replay.reveal:
            title = _("Every hand (audited)")
        elif replay.human_seat == NO_SEAT:
            title = _("Hands: hidden")
        else:
            title = _("{name}'s hand").format(name=replay.names[replay.human_seat])
        self.query_one("#panel-hand").border_title = title
        self.query_one("#panel-log").border_title = _("Log")
        self.query_one("#panel-dice").border_title = _("Dice")

    def _sync_log(self) -> None:
        log = self.query_one(GameLog)
        events = self.replay.events
        if len(events) < self._logged:  # moved back: write the shorter story again
            log.clear()
            log.shown = 0
        log.catch_up()
        self._logged = len(events)

    def _status(self) -> Text:
        replay = self.replay
        view = replay.view
        text = Text(no_wrap=True, overflow="ellipsis")
        steps = len(replay.timeline.steps)
        text.append(_("Step {step}/{steps}").format(step=replay.position, steps=steps), "bold")
        last = replay.timeline.last_turn
        turn = (
            _("the set-up")
            if view.turn == 0
            else _("turn {turn}/{last}").format(turn=view.turn, last=last)
        )
        text.append(f"  {turn}  ")
        if view.active >= 0:
            seat = view.active
            style = seat_style(seat) + Style(bold=True)
            text.append(f"{seat_mark(seat)} {replay.names[seat]}", style=style)
            text.append(" ")
        text.append(f"[{phase_words(view.phase)}]", style="bold reverse")
        text.append("  " + _("dice:") + " ")
        if view.dice is not None:
            total = view.dice.first + view.dice.second
            text.append(f"{total}", style="bold red" if total == 7 else "bold")
            text.append(f" ({view.dice.first}+{view.dice.second})")
        else:
            text.append("-", style="dim")
        text.append("  ")
        text.append(
            _("▶ {speed}/s").format(speed=f"{self.speed:g}")
            if self._timer is not None
            else _("paused"),
            style="bold green" if self._timer is not None else "dim",
        )
        return text

    def _prompt(self) -> Text:
        replay = self.replay
        text = Text(no_wrap=True, overflow="ellipsis")
        if replay.reveal:
            text.append(_("every hand") + "  ", style="bold yellow")
        elif replay.human_seat == NO_SEAT:
            text.append(_("public view") + "  ", style="bold")
        else:
            seat = replay.human_seat
            as_seat = _("as {name}").format(name=replay.names[seat])
            text.append(as_seat + "  ", style=seat_style(seat) + Style(bold=True))
        step = replay.last_step
        if step is None:
            start = _("{file}: the start").format(file=replay.timeline.path.name)
            text.append(start, style="dim")
        elif replay.at_end:
            text.append(_("the end: {ending}").format(ending=replay.timeline.ending), "bold")
        else:
            event = replay.events[-1] if replay.events else None
            words = event.text if event is not None and event.text else type(step.action).__name__
            text.append(words)
        return text

    def _flash_last(self) -> None:
        events = self.replay.events
        if events and events[-1].target is not None:
            kind, ids = events[-1].target
            self.board.flash(kind, ids)

    def _moved(self, flash: bool = True) -> None:
        self.sync()
        if flash:
            self._flash_last()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer a key only when it does something (Textual's binding check)."""
        if action == "reveal":
            return self.replay.can_reveal
        if action in ("next_panel", "panel"):
            return not self.has_class("-wide") or parameters != ("hand",)
        return True

    def action_step(self, count: int) -> None:
        """Move ``count`` actions on (negative: back)."""
        self.replay.step(count)
        self._moved()

    def action_turn(self, direction: int) -> None:
        """Move to the start of the next (1) or the previous (-1) turn."""
        if direction > 0:
            self.replay.next_turn()
        else:
            self.replay.previous_turn()
        self._moved(flash=False)

    def action_seek_start(self) -> None:
        """Back to the start."""
        self.replay.seek(0)
        self._moved(flash=False)

    def action_seek_end(self) -> None:
        """On to the end."""
        self.replay.seek(len(self.replay.timeline.steps))
        self._moved(flash=False)

    def action_goto(self) -> None:
        """Ask for a turn and go there."""

        def go(turn: int | None) -> None:
            if turn is not None:
                self.replay.goto_turn(turn)
                self._moved(flash=False)

        self.app.push_screen(TurnDialog(self.replay.timeline.last_turn), go)

    def action_play(self) -> None:
        """Play on at :attr:`speed` steps a second, or pause."""
        if self._timer is not None:
            self._pause()
        elif not self.replay.at_end:
            self._timer = self.set_interval(1 / self.speed, self._tick)
        self.sync()

    def _pause(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        self.replay.step(1)
        if self.replay.at_end:
            self._pause()
        self._moved()

    def action_speed(self, direction: int) -> None:
        """Play faster (1) or slower (-1)."""
        index = SPEEDS.index(self.speed) if self.speed in SPEEDS else 2
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, index + direction))]
        if self._timer is not None:
            self._pause()
            self._timer = self.set_interval(1 / self.speed, self._tick)
        self.sync()

    def action_reveal(self) -> None:
        """Show every hand (a passed audit opened them), or the seat's view again."""
        if self.replay.can_reveal:
            self.replay.reveal = not self.replay.reveal
            if not self.has_class("-wide"):
                self.action_panel("hand")
            self.sync()

    def action_stats(self) -> None:
        """The whole game's statistics (points by turn, cards, awards, dice)."""
        from hexlan.net.summary import summarize  # noqa: PLC0415 - on first use
        from hexlan.tui.screens.stats import StatsScreen  # noqa: PLC0415

        self.app.push_screen(StatsScreen(summarize(self.replay.timeline)))

    def tabbed_panels(self) -> list[str]:
        """The panels ``tab`` cycles through: wide, the hand has a panel of its own."""
        return [p for p in self.PANELS if p != "hand" or not self.has_class("-wide")]

    def panel_shown(self, name: str) -> None:
        """The dice chart redraws when it comes to the front."""
        if name == "dice":
            self.query_one(DiceChart).show()


__all__ = ["HandsPanel", "ReplayScreen", "TurnDialog"]
