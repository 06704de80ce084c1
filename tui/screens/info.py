"""Screens that only show things: help, dice statistics, the final scores, a stopped game."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from hexlan.engine.state import GameState
from hexlan.net.client import GameClient
from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.panel_lines import SCORES
from hexlan.tui.screen_keys import explained
from hexlan.tui.widgets.dice import histogram

KEYS: Final = (
    ("r", "roll the dice"),
    ("s / c / d", "build a settlement / city / road (the legal places light up)"),
    ("v", "buy a development card"),
    ("p", "play a development card"),
    ("t", "trade with players (offer to one or to everyone)"),
    ("m", "trade with the bank or your harbours"),
    ("e", "end your turn"),
    ("x / o", "reopen the discard dialog / the offer made to you"),
)
"""The help screen's key map of moves: (keys, what they do); then every game's own
(:func:`~hexlan.tui.screen_keys.explains`), then :data:`SCREEN_KEYS`."""

SCREEN_KEYS: Final = (
    ("A", "end a networked game as abandoned when a seat has stopped answering"),
    ("h", "dice statistics"),
    ("tab / 1 / 2", "hand / log panel (small terminals)"),
    ("? or F1", "this help"),
    ("ctrl+p", "command palette: the actions legal now"),
    ("ctrl+q", "quit"),
)
"""The help screen's key map of the screen's own keys: (keys, what they do)."""

PICKING: Final = (
    ("a, b, c…", "type the label of a highlighted place"),
    ("arrows + Enter", "move among the highlighted places and pick one"),
    ("click", "pick a highlighted place with the mouse"),
    ("Esc", "cancel (when the choice is optional)"),
)
"""How to pick a place on the board: (keys, what they do)."""

RULES: Final = """\
Goal: 10 victory points on your turn. Settlement 1, city 2, Longest Road 2 (5+ roads in a row),
Largest Army 2 (3+ knights played), victory point cards 1 each.

Set-up: everyone places a settlement and a road, then again in reverse order; the second
settlement pays one card from each hex around it.

Your turn: roll; every hex showing the total pays 1 card per settlement and 2 per city next to it
(not the robber's hex). Then trade and build in any order, play at most one development card
(not one bought this turn; one may be played before the roll), and end the turn.

A 7: whoever holds more than 7 cards discards half; the roller moves the robber and steals one
random card from a player next to its new hex.

Costs: road lumber+brick; settlement lumber+brick+wool+grain; city 2 grain+3 ore;
development card wool+grain+ore. Settlements need two free intersections between them and
(after set-up) one of your roads. The bank trades 4:1, harbours 3:1 or 2:1."""
"""The base game's rules in short; every game's own follow
(:func:`~hexlan.tui.screen_keys.explains`)."""


class HelpScreen(ModalScreen[None]):
    """The key map and a short rules summary; ``r`` opens the game's whole rules page.

    Args:
        view: the game shown (its rule set and options name the page and what is in force);
            None: no game, no rules page.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "close", "Close"),
        Binding("r", "rules", "Rules"),
    ]

    def __init__(self, view: GameState | None = None) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        """The key map, how to pick a place and the rules in short, in a scrolling box (the
        base game's, then every game's own)."""
        game_keys, game_rules = explained()
        keys = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for key, what in (*KEYS, *game_keys, *SCREEN_KEYS):
            keys.add_row(key, what)
        picks = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        picks.add_column(style="bold", no_wrap=True)
        picks.add_column()
        for key, what in PICKING:
            picks.add_row(key, what)
        with Vertical(classes="dialog wide-dialog"):
            yield Label("hexlan: help", classes="dialog-title")
            with VerticalScroll(classes="help-body"):
                yield Static(Text("Keys", style="bold underline"))
                yield Static(keys)
                yield Static(Text("\nPicking a place", style="bold underline"))
                yield Static(picks)
                yield Static(Text("\nRules in short", style="bold underline"))
                yield Static("\n\n".join((RULES, *game_rules)))
            rules = " · r the game's rules" if self.view is not None else ""
            yield Static(f"Esc or ? closes · ↑/↓ scroll{rules}", classes="hint")

    def on_mount(self) -> None:
        """Focus the scrolling body (arrows scroll)."""
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)

    def action_rules(self) -> None:
        """Open the game's rules page, with the options in force marked."""
        if self.view is not None:
            from hexlan.tui.screens.rules import RulesScreen  # noqa: PLC0415 - on first use

            self.app.push_screen(RulesScreen(self.view.rules, self.view.options))


class DiceScreen(ModalScreen[None]):
    """The rolls so far against the distribution of two fair dice."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h,q", "close", "Close")]

    def __init__(self, game: GameClient) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        """The title, the histogram and a hint."""
        with Vertical(classes="dialog wide-dialog"):
            yield Label("Dice: rolls so far", classes="dialog-title")
            yield Static(id="histogram")
            yield Static("Esc closes", classes="hint")

    def on_mount(self) -> None:
        """Draw the histogram."""
        self._draw()

    def on_resize(self) -> None:
        """Redraw the histogram for the new width."""
        self._draw()

    def _draw(self) -> None:
        width = max(10, min(50, self.size.width - 30))
        self.query_one("#histogram", Static).update(histogram(self.game.rolls, width))

    def action_close(self) -> None:
        """Close the statistics."""
        self.dismiss(None)


def score_table(game: GameClient) -> Table:
    """Final scores, with how each seat got its points."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("player", no_wrap=True)
    scores = sorted(game.scores(), key=lambda s: -s.total)
    river = any(s.gold_points for s in scores)  # the Big River's gold points
    columns = SCORES.of(game.view.variant)  # a game's own (Cities & Knights' metropolises)
    middle = ("army", "VP cards") if columns is None else columns.titles
    titles = ("settl.", "cities", "road", *middle, *(("gold",) if river else ()))
    for title in (*titles, "total"):
        table.add_column(title, justify="right", no_wrap=True)
    for score in scores:
        name = Text(
            f"{seat_mark(score.seat)} {score.name}", style=seat_style(score.seat) + Style(bold=True)
        )
        if score.seat == game.winner:
            name.append("  winner", style="bold reverse")
        table.add_row(
            name,
            f"{score.settlements}",
            f"{score.cities}×2",
            f"2 ({score.road_length})" if score.longest_road else f"- ({score.road_length})",
            *(
                (
                    f"2 ({score.knights})" if score.largest_army else f"- ({score.knights})",
                    f"{score.vp_cards}"
                    + (f" +{score.hidden_cards}?" if score.hidden_cards else ""),
                )
                if columns is None
                else columns.cells(game.view, score.seat)
            ),
            *((f"{score.variant_points} ({score.gold_points})",) if river else ()),
            Text(str(score.total), style="bold"),
        )
    return table


def log_words(game: GameClient) -> str:
    """Where the game's log was saved, and how to check it."""
    if game.log_path is None:
        return "Log: not saved"
    fair = "" if game.fair else " (seeded: not fair)"
    return f"Log{fair}: {game.log_path}  ·  check it with: hexlan verify LOG"


class EndScreen(ModalScreen[str]):
    """A screen at the end of a game: q (or the Quit button) quits, l returns to the board.

    Subclasses compose a ``#quit`` button and a second one; the screen closes with "quit" or
    "look".
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,ctrl+q", "finish('quit')", "Quit"),
        Binding("escape,l", "finish('look')", "Look at the board"),
    ]

    def __init__(self, game: GameClient) -> None:
        super().__init__(classes="dialog-screen")
        self.game = game

    def on_mount(self) -> None:
        """Focus Quit."""
        self.query_one("#quit", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Quit or Look: close with "quit" or "look"."""
        if event.button.id in ("quit", "look"):
            self.dismiss(event.button.id)

    def action_finish(self, what: str) -> None:
        """Close with ``what``: "quit" ends the app, "look" returns to the board."""
        self.dismiss(what)


class GameOverScreen(EndScreen):
    """The final scores; q quits, l returns to the board and its log, s shows the game's
    statistics, and where the table can play again (`hexlan play`), r closes with "again".

    Args:
        game: the game.
        rematch: whether to offer to play again.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stats", "Statistics"),
        Binding("r", "again", "Play again"),
    ]

    def __init__(self, game: GameClient, rematch: bool = False) -> None:
        super().__init__(game)
        self.rematch = rematch

    def action_again(self) -> None:
        """Play again at this table (when offered): close with "again"."""
        if self.rematch:
            self.dismiss("again")

    def ending(self) -> str:
        """How the game ended, in words: "You win!", "Bo wins", "abandoned (Cy left)"."""
        game = self.game
        winner = game.winner
        if winner is not None:
            return "You win!" if winner == game.human_seat else f"{game.names[winner]} wins"
        if game.abandoned:
            gone = ", ".join(game.names[s] for s in game.abandoned)
            return f"abandoned ({gone} left)"
        return "no winner"

    def compose(self) -> ComposeResult:
        """The winner, the score table and the buttons."""
        game = self.game
        title = self.ending()
        with Vertical(classes="dialog wide-dialog", id="game-over"):
            yield Label(f"Game over: {title}", classes="dialog-title")
            yield Static(score_table(game))
            yield Static(f"Turns: {game.view.turn} · events: {len(game.events)}", classes="hint")
            yield Static(game.audit_words(), id="audit")
            yield Static(log_words(game), classes="hint", id="log-path")
            columns = SCORES.of(game.view.variant)
            yield Static(
                (
                    "road and army show the award's 2 points and (length or knights)"
                    if columns is None
                    else columns.hint
                )
                + (
                    "; +n? counts development cards never shown (victory points among them "
                    "are not known)"
                    if any(s.hidden_cards for s in game.scores())
                    else ""
                ),
                classes="hint",
            )
            with Horizontal(classes="buttons"):
                yield Button("Quit (q)", id="quit", variant="primary", compact=True)
                yield Button("Look at the board (l)", id="look", compact=True)
                yield Button("Statistics (s)", id="stats", compact=True)
                if self.rematch:
                    yield Button("Play again (r)", id="again", compact=True)

    def action_stats(self) -> None:
        """The game's statistics: points by turn, cards received and lost, awards, dice
        (through every hidden card once the audit passed)."""
        from hexlan.net.summary import summarize_session  # noqa: PLC0415 - on first use
        from hexlan.tui.screens.stats import StatsScreen  # noqa: PLC0415

        summary = summarize_session(self.game.session, self.game.names, self.ending())
        self.app.push_screen(StatsScreen(summary))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Statistics, or as every end screen: Quit or Look."""
        if event.button.id == "stats":
            self.action_stats()
        elif event.button.id == "again":
            self.action_again()
        else:
            super().on_button_pressed(event)

    def on_mount(self) -> None:
        """Focus Quit; follow the audit until every seat has signed its result."""
        super().on_mount()
        if self.game.winner is not None and self.game.session.audited is None:
            self._audit_timer = self.set_interval(0.5, self._refresh_audit)

    def _refresh_audit(self) -> None:
        self.game.poll()
        self.query_one("#audit", Static).update(self.game.audit_words())
        if self.game.session.done:
            self._audit_timer.stop()


class StoppedScreen(EndScreen):
    """The game stopped because a seat broke the protocol: who, why, and where the evidence
    is; q quits, l returns to the board."""

    def compose(self) -> ComposeResult:
        """Who stopped the game and why, the log, the buttons."""
        game = self.game
        stopped = game.stopped
        reason = stopped.reason if stopped is not None else "unknown"
        author = stopped.author if stopped is not None else None
        if author is None:
            title = "The game stopped"
            who = Text("A message broke the protocol; no seat is proven to blame.")
        else:
            name = "You" if author == game.human_seat else game.names[author]
            title = f"The game stopped: {name} broke the rules"
            who = Text.assemble(
                (f"{seat_mark(author)} {name}", seat_style(author) + Style(bold=True)),
                f" (seat {author}) broke the protocol.",
            )
        with Vertical(classes="dialog wide-dialog", id="stopped"):
            yield Label(title, classes="dialog-title")
            yield Static(who)
            yield Static(Text(f"Why: {game.seat_words(reason)}"))
            yield Static(
                "Your game cannot go on: every honest seat stops here. The signed evidence is "
                "kept in your log.",
                classes="hint",
            )
            yield Static(log_words(game), classes="hint")
            with Horizontal(classes="buttons"):
                yield Button("Quit (q)", id="quit", variant="error", compact=True)
                yield Button("Look at the board (l)", id="look", compact=True)
