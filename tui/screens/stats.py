"""End-of-game statistics on screen (issue 26): each seat's victory points turn by turn as a
chart (textual-plotext), then the cards received by source and lost by cause, the changes of
Longest Road and Largest Army and the dice against fair dice (:mod:`hexlan.net.summary`).

Opened from the game-over screen (``s``) and from ``hexlan replay`` (``s``)."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static
from textual_plotext import PlotextPlot

from hexlan.i18n import N_, _, ngettext
from hexlan.net.summary import CAUSES, SOURCES, AwardChange, GameSummary
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.board_render import SEAT_COLOURS
from hexlan.tui.palette import seat_mark, seat_style


def _rgb(colour: str) -> tuple[int, int, int]:
    """``"#E69F00"`` -> ``(230, 159, 0)``."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


COLUMNS: Final = {
    "setup": N_("set-up"),
    "production": N_("production"),
    "trade": N_("trade"),
    "steal": N_("steal"),
    "cards": N_("cards"),
    "other": N_("other"),
    "got": N_("got"),
    "robber": N_("robbed"),
    "discards": N_("discards"),
    "monopoly": N_("monopoly"),
    "lost": N_("lost"),
}
"""The cards table's column titles: each source and cause of :mod:`hexlan.net.summary`, and
the totals (English; shown translated, abbreviated where the language's words are long:
the table fits 80 columns)."""


def cards_table(summary: GameSummary) -> Table:
    """Per seat: cards received by source and lost by cause (the columns that are not all
    zero), and the totals."""
    sources = [s for s in SOURCES if any(seat.total_received(s) for seat in summary.seats)]
    causes = [c for c in CAUSES if any(seat.total_lost(c) for seat in summary.seats)]
    table = Table(box=None, padding=(0, 0, 0, 1), show_edge=False)
    table.add_column(_("player"), no_wrap=True)
    for title in (*sources, "got", *causes, "lost"):
        table.add_column(_(COLUMNS.get(title, title)), justify="right", no_wrap=True)
    for seat in summary.seats:
        name = Text(f"{seat_mark(seat.seat)} {seat.name}", style=seat_style(seat.seat))
        table.add_row(
            name,
            *(str(seat.total_received(s)) for s in sources),
            Text(str(seat.total_received()), style=Style(bold=True)),
            *(str(seat.total_lost(c)) for c in causes),
            Text(str(seat.total_lost()), style=Style(bold=True)),
        )
    return table


def award_line(change: AwardChange, names: dict[int, str]) -> str:
    """A change of Longest Road or Largest Army in words (as
    :func:`hexlan.net.summary.award_lines` writes it for the text report)."""
    road = change.award == "longest_road"
    name = names.get(change.to_seat)
    if name is None:
        template = (
            _("turn {turn}: Longest Road to nobody ({size})")
            if road
            else _("turn {turn}: Largest Army to nobody ({size})")
        )
    else:
        template = (
            _("turn {turn}: Longest Road to {name} ({size})")
            if road
            else _("turn {turn}: Largest Army to {name} ({size})")
        )
    return template.format(turn=change.turn, name=name, size=change.size)


def awards_and_dice(summary: GameSummary) -> Text:
    """The award changes, one a line, then the dice counts and the fairness test's p-value."""
    text = Text()
    names = {s.seat: s.name for s in summary.seats}
    for change in summary.awards:
        text.append(award_line(change, names) + "\n")
    dice = summary.dice
    counts = "  ".join(f"{t}:{n}" for t, n in zip(dice.categories, dice.observed, strict=True))
    p_value = _("n/a") if dice.p_value is None else f"{dice.p_value:.2f}"
    text.append(
        ngettext(
            "dice, {n} roll (p = {p} against fair dice): {counts}",
            "dice, {n} rolls (p = {p} against fair dice): {counts}",
            dice.total,
        ).format(n=dice.total, p=p_value, counts=counts)
    )
    if not summary.audited:
        text.append("\n" + _("no audit yet: the kinds of stolen cards are not known"), "dim")
    return text


class StatsScreen(ModalScreen[None]):
    """The statistics of one game; Esc closes.

    Args:
        summary: the game's figures.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,s,q", "close", N_("Close"))]

    def __init__(self, summary: GameSummary) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.summary = summary

    def compose(self) -> ComposeResult:
        """The title, the points chart, the cards table, the awards and dice, a hint."""
        with Vertical(classes="dialog wide-dialog stats-dialog"):
            yield Label(
                _("Statistics: {ending}").format(ending=self.summary.ending),
                classes="dialog-title",
            )
            yield PlotextPlot(id="points-chart")
            with VerticalScroll(classes="stats-body"):
                yield Static(cards_table(self.summary))
                yield Static(awards_and_dice(self.summary))
            yield Static(_("Esc closes · ↑/↓ scroll the figures"), classes="hint")

    def on_mount(self) -> None:
        """Draw the points chart: one line per seat in its colour."""
        plt = self.query_one(PlotextPlot).plt
        plt.title(_("victory points by turn"))
        for seat in self.summary.seats:
            colour = _rgb(SEAT_COLOURS[seat.seat % len(SEAT_COLOURS)])
            plt.plot(
                list(range(len(seat.points))),
                seat.points,
                label=seat.name[:12],
                color=colour,
                marker="braille",
            )
        plt.xlabel(_("turn"))

    def action_close(self) -> None:
        """Close the statistics."""
        self.dismiss(None)
