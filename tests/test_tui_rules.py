"""The rules in the app (tui/screens/rules.py): from the help screen, ``r`` opens the current
game's rules page, installed with the package, with the options in force at the table marked."""

from __future__ import annotations

from importlib import resources

import pytest
from test_tui import SMALL, WIDE, settle
from textual.widgets import Markdown, MarkdownViewer

from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import CATAN_GAMES, GAMES, load_ruleset
from hexlan.tui.app import make_app
from hexlan.tui.screens.info import HelpScreen
from hexlan.tui.screens.rules import RulesScreen, marked_rules, rules_page_name


@pytest.mark.parametrize(
    ("game", "page"),
    [
        ("base", "base.md"),
        ("five-six", "five-six.md"),
        ("seafarers-fog-island-3", "seafarers.md"),
        ("seafarers-pirate-islands-6", "pirate-islands.md"),
        ("cities-and-knights", "cities-and-knights.md"),
    ],
)
def test_each_game_finds_its_page(game: str, page: str) -> None:
    assert rules_page_name(load_ruleset(game)) == page


def test_every_game_has_a_page_of_its_own_rules() -> None:
    """No game falls back to the base game's page unless it is the base game's family."""
    for game in CATAN_GAMES:
        rules = load_ruleset(game)
        page = rules_page_name(rules)
        assert page != "base.md" or rules.name == "base", game


def test_the_options_in_force_are_marked() -> None:
    rules = load_ruleset("base")
    official = marked_rules(rules, GameOptions())
    assert official.startswith("**At this table:** the official rules")
    assert "in force here" not in official
    changed = marked_rules(rules, GameOptions(robber_to_desert=False, victory_points=8))
    assert "8 victory points to win" in changed.split("---")[0]
    assert "`robber_to_desert` *(in force here)*" in changed
    assert "`largest_army` *(in force" not in changed  # not changed: not marked


async def test_help_opens_the_games_rules_and_escape_comes_back() -> None:
    for size in (SMALL, WIDE):
        app = make_app(3, 1, "beginner", "You", 0, game="jungle")
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("r")
            await pilot.pause(0.3)
            rules = app.screen
            assert isinstance(rules, RulesScreen)
            text = rules.query_one(MarkdownViewer).query_one(Markdown).source
            assert "Jungle" in text and text.startswith("**At this table:**")
            assert rules.query_one(MarkdownViewer).region.height >= size[1] - 6  # fills the screen
            await pilot.press("t")  # the contents open beside the page
            await pilot.pause()
            assert rules.query_one(MarkdownViewer).show_table_of_contents
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen


def test_every_game_with_a_state_of_its_own_has_its_page() -> None:
    """A game that is not a Catan rule set (Landnám) ships a page named after it."""
    pages = {page.name for page in resources.files("hexlan.rules").iterdir()}
    own = [game for game in GAMES if game not in CATAN_GAMES]
    assert own
    for game in own:
        assert f"{game}.md" in pages, game
