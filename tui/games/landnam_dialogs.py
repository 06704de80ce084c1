"""Landnám's dialogs (/work/shared/UI.md "Acting without friction"): a choice among listed
options (a fate card with its effect, a trade, a bid), the Althing's screen, the help screen and
the game-over screen. Every option a dialog lists comes from the seat's legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from hexlan.engine.options import GameOptions
from hexlan.engine.variants.landnam.rules import Fate
from hexlan.engine.variants.landnam.state import LandnamState
from hexlan.i18n import N_, _, ngettext
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.games.landnam_panels import case_text, who
from hexlan.tui.screens.rules import marked_page, rules_page

FATE_EFFECTS: Final = {
    Fate.WOODLAND_AHEAD: N_("explore: the terrain found is woodland (no green die)"),
    Fate.GOOD_GRAZING: N_("explore: the terrain found is pasture (no green die)"),
    Fate.FERTILE_SOIL: N_("explore: the terrain found is a field (no green die)"),
    Fate.BOG_IRON: N_("explore: the terrain found is a bog (no green die)"),
    Fate.SEERS_COUNSEL: N_("explore: roll both dice twice, choose one of each"),
    Fate.LANDING: N_("next step: a settler may enter a mountain, a ship producing land"),
    Fate.FAIR_WIND: N_("one extra step after your normal steps"),
    Fate.DRIVE_OFF: N_("next step: chase a unit not outlawed, or outlawed by another"),
    Fate.GOOD_YEAR: N_("raise or lower the harvest roll by 1 (never 7)"),
    Fate.FULL_BARNS: N_("1 extra card from each hex that pays you this harvest"),
    Fate.STEADY_SEASONS: N_("no hex ages after this harvest"),
    Fate.ATONEMENT: N_("remove a red token from beside a unit"),
    Fate.FLAWED_PLEADING: N_("stop the case in progress: no token"),
    Fate.THING_BROKEN_UP: N_("end the Althing: no more cases, no black tokens"),
}
"""What each fate card does, in a few words (../shared/landnam-rules.md §16.2; English, shown
translated by :func:`fate_effect`)."""

RULES_SUMMARY: Final = N_("""\
Explore Iceland with ships and settlers, found farms and towns, and win at the Althing.
A turn: roll the harvest dice (a 7 calls the Althing), move (one unit two steps or two units
one step; stepping into '?' explores it with the exploration dice), then trade and build.
Harvest: a settler on a hex takes 2, else each farm 1 and town 2 at its corners; if the stock
is short of a kind nobody gets it (famine). One hex that paid ages: 2-6 grow, 8-12 wane.
The Althing: outlaws leave, then each seat may sue another's unit beside its settlement;
the sides bid cards of the hex's resource. Won cases give red tokens, unsued possible cases
black ones; white tokens come from the set-up. Farms 1 point, towns 2, tokens 1 each.""")
"""Landnám in a few lines, for the help screen (English; shown translated)."""


def fate_effect(face: Fate) -> str:
    """What fate card ``face`` does, in the language in force."""
    return _(FATE_EFFECTS[face])


class ChoiceDialog(ModalScreen[int | None]):
    """A list of options; Enter, a click or the option's number picks it, Esc cancels.

    Args:
        title: what is chosen; options: each option's words; head: text above the list.

    Returns (dismissed with): the index of the option picked, or None.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, options: Sequence[str], head: Text | str = "") -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.title_words = title
        self.options = list(options)
        self.head = head

    def compose(self) -> ComposeResult:
        """The title, the head, the numbered options and a hint."""
        with Vertical(classes="dialog wide-dialog"):
            yield Label(self.title_words, classes="dialog-title")
            if self.head:
                yield Static(self.head, id="head")
            yield OptionList(
                *(
                    Option(f"{_key(i)} {words}" if _key(i) else words, id=str(i))
                    for i, words in enumerate(self.options)
                ),
                id="choices",
            )
            yield Static(_("↑/↓ and Enter, a click, or the number · Esc cancels"), classes="hint")

    def on_mount(self) -> None:
        """Focus the list."""
        self.query_one(OptionList).focus()

    def on_key(self, event: object) -> None:
        """A digit or letter picks the option it numbers."""
        char = getattr(event, "character", None)
        if char is None:
            return
        for i in range(len(self.options)):
            if _key(i) == char:
                getattr(event, "stop")()  # noqa: B009 - textual's Key.stop
                self.dismiss(i)
                return

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        """Pick nothing."""
        self.dismiss(None)


def _key(i: int) -> str:
    """The key that picks option ``i``: 1-9 then 0, none after."""
    return str((i + 1) % 10) if i < 10 else ""


class AlthingScreen(ChoiceDialog):
    """The Althing (§8): the case (unit, its hex, the resource), both sides with their members
    and totals, and the acting seat's choices (raise by N, pass, invite, join or decline, an
    Althing card, appoint, sue)."""

    def __init__(self, view: LandnamState, names: Sequence[str], options: Sequence[str]) -> None:
        seat = view.acting_seats()[0] if view.acting_seats() else view.active
        head = case_text(view, names) + Text("\n") + who(names, seat) + Text(" " + _("to act"))
        super().__init__(_("The Althing"), options, head)


class LandnamHelp(ModalScreen[None]):
    """The keys and a short rules summary; ``r`` opens the rules page.

    Args:
        keys: ``(key, words)`` pairs of the screen's keys; options: the options in force.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", N_("Close")),
        Binding("r", "rules", N_("Rules page")),
    ]

    def __init__(self, keys: Sequence[tuple[str, str]], options: GameOptions) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.keys = keys
        self.game_options = options

    def compose(self) -> ComposeResult:
        """The key map (each key's words translated), the rules summary, a hint."""
        with Vertical(classes="dialog wide-dialog"):
            yield Label(_("Landnám: keys and rules"), classes="dialog-title")
            with VerticalScroll():
                lines = [f"{_(key):>7}  {_(words)}" for key, words in self.keys]
                yield Static("\n".join(lines))
                yield Static(Text("\n" + _(RULES_SUMMARY)))
            yield Static(_("r the rules page · Esc closes"), classes="hint")

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)

    def action_rules(self) -> None:
        """Open the rules page."""
        self.app.push_screen(LandnamRules(self.game_options))


class LandnamRules(ModalScreen[None]):
    """docs/rules/landnam.md (installed as ``hexlan.rules``), with the options in force; a note
    when the page is not installed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", N_("Close"))]

    def __init__(self, options: GameOptions) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.game_options = options

    def compose(self) -> ComposeResult:
        """The page, in the language in force when it has a translation
        (:func:`~hexlan.tui.screens.rules.rules_page`)."""
        page = rules_page("landnam.md")
        text = _("The Landnám rules page is not written yet.") if page is None else page
        with Vertical(classes="dialog wide-dialog rules-dialog"):
            yield Label(_("Rules: {game}").format(game="landnam"), classes="dialog-title")
            with VerticalScroll():
                yield Markdown(marked_page(text, self.game_options))
            yield Static(_("Esc closes · ↑/↓ scroll"), classes="hint")

    def action_close(self) -> None:
        """Close the page."""
        self.dismiss(None)


class GameOverScreen(ModalScreen[None]):
    """The final scores: each seat's points from farms, towns and tokens; the winners."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "quit", N_("Quit"))]

    def __init__(self, view: LandnamState, names: Sequence[str]) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.view = view
        self.names = names

    def compose(self) -> ComposeResult:
        """The winners and each seat's points."""
        view = self.view
        won = [self.names[s] for s in view.winners()]
        if not won:
            lines = Text(_("Nobody won.") + "\n")
        else:
            winners = _(" and ").join(won)
            lines = Text(ngettext("{names} won.", "{names} won.", len(won)).format(names=winners))
            lines += Text("\n")
        for seat in range(view.players):
            white, red, black = view.tokens[seat]
            points = view.victory_points(seat)
            lines += who(self.names, seat) + Text(
                ngettext(
                    ": {n} point (houses {houses}, white {white}, red {red}, black {black})",
                    ": {n} points (houses {houses}, white {white}, red {red}, black {black})",
                    points,
                ).format(
                    n=points, houses=view.house_points(seat), white=white, red=red, black=black
                )
                + "\n"
            )
        with Vertical(classes="dialog wide-dialog"):
            yield Label(_("Game over"), classes="dialog-title")
            yield Static(lines, id="scores")
            yield Static(_("q or Esc quits"), classes="hint")

    def action_quit(self) -> None:
        """Leave the game."""
        self.app.exit(0)


__all__ = [
    "FATE_EFFECTS",
    "RULES_SUMMARY",
    "AlthingScreen",
    "ChoiceDialog",
    "GameOverScreen",
    "LandnamHelp",
    "LandnamRules",
]
