"""The rules in the app: the current game's rules page (docs/rules/, installed as
``hexlan.rules``) in a Markdown viewer, opened from the help screen, with the options in force
at this table marked (issue 26 "The rules in the app").

The page of a game is found without a list of games: the page named after the game
(``five-six.md``), else the page of the rules its spec names (``seafarers.md`` for every
Seafarers scenario, ``pirate-islands.md``), else the base game's.

A page may have translations beside it, one folder per language (``docs/rules/ru/base.md``,
issue 27): the page is shown in the language in force when it has one, else in English under a
line, in the language in force, saying so.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, MarkdownViewer, Static

from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.variants import spec_for
from hexlan.i18n import N_, SOURCE_LANGUAGE, _, current_language
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.terms import option_words


def rules_page_name(rules: RuleSet) -> str:
    """The file name of the rules page of ``rules``' game (``"seafarers.md"``)."""
    pages = {page.name for page in resources.files("hexlan.rules").iterdir()}
    for stem in (rules.name, spec_for(rules).name.replace("_", "-")):
        if f"{stem}.md" in pages:
            return f"{stem}.md"
    return "base.md"


def rules_page(name: str) -> str | None:
    """The rules page ``name`` (``"base.md"``) as Markdown in the language in force: its
    translation (``hexlan.rules/<lang>/<name>``) when there is one, else the English page under
    a line saying it has no translation yet; None when there is no such page."""
    pages = resources.files("hexlan.rules")
    language = current_language()
    if language != SOURCE_LANGUAGE:
        translated = pages.joinpath(language).joinpath(name)
        if translated.is_file():
            return translated.read_text("utf-8")
    english = pages.joinpath(name)
    if not english.is_file():
        return None
    page = english.read_text("utf-8")
    if language == SOURCE_LANGUAGE:
        return page
    note = _("This page is not translated yet: the rules below are in English.")
    return f"*{note}*\n\n{page}"


def marked_rules(rules: RuleSet, options: GameOptions) -> str:
    """The rules page of ``rules``' game as Markdown (:func:`rules_page`), headed by the
    options in force at this table in words (or that it plays the official rules), and with
    each mention of an option in force (its name in backquotes, as the pages write it) marked
    "in force here"."""
    page = rules_page(rules_page_name(rules))
    assert page is not None  # rules_page_name names a page that is there
    return marked_page(page, options)


def marked_page(page: str, options: GameOptions) -> str:
    """A rules page (Markdown) headed by the options in force at this table in words (or that
    it plays the official rules), each mention of an option in force (its name in backquotes)
    marked "in force here"."""
    changed = options.changed()
    words = option_words(options)
    heading = (
        _("**At this table:** {options}").format(options=" · ".join(words))
        if words
        else _("**At this table:** the official rules, no option changed")
    )
    marker = _("in force here")
    for name in changed:
        page = re.sub(
            rf"`{re.escape(name)}`(?!\s\*\({re.escape(marker)})", f"`{name}` *({marker})*", page
        )
    return f"{heading}\n\n---\n\n{page}"


class RulesScreen(ModalScreen[None]):
    """The current game's rules page, scrolling, with its table of contents a key away.

    Args:
        rules: the game's rule set.
        options: the options in force at the table.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Close")),
        Binding("t", "contents", N_("Contents")),
    ]

    def __init__(self, rules: RuleSet, options: GameOptions) -> None:
        super().__init__()
        translate_bindings(self)
        self.rules = rules
        self.options = options

    def compose(self) -> ComposeResult:
        """The title, the page in a viewer (contents hidden: 80 columns are few) and a hint."""
        with Vertical(classes="dialog wide-dialog rules-dialog"):
            yield Label(_("Rules: {game}").format(game=self.rules.name), classes="dialog-title")
            yield MarkdownViewer(
                marked_rules(self.rules, self.options), show_table_of_contents=False
            )
            yield Static(_("Esc closes · t contents · ↑/↓ PgUp/PgDn scroll"), classes="hint")

    def on_mount(self) -> None:
        """Focus the page (arrows scroll)."""
        self.query_one(MarkdownViewer).focus()

    def action_contents(self) -> None:
        """Show or hide the page's table of contents."""
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_close(self) -> None:
        """Close the rules."""
        self.dismiss(None)
