"""The turn notice (issue 26): the bell rings once and the terminal title says what the game
waits for when a decision of the person's becomes due, and the title goes back once it is not;
``--no-bell`` and ``--no-title`` turn either off. A real app under ``App.run_test()`` playing
the set-up by keys and a turn against bots (tests/test_tui.py's helpers)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_tui import SMALL, pick_first, settle
from textual.app import App

from hexlan.cli import main
from hexlan.engine.core import Phase
from hexlan.tui.app import make_app
from hexlan.tui.turn_notice import IDLE_TITLE, TurnNotice

pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


class RecordingNotice(TurnNotice):
    """A turn notice that keeps every title it sets, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.titles: list[str] = []

    def _set_title(self, app: App[object], text: str) -> None:
        before = self.shown
        super()._set_title(app, text)
        if self.shown != before:
            self.titles.append(self.shown)


async def test_the_bell_rings_once_per_wait_and_the_title_follows() -> None:
    app = make_app(3, 1, "beginner", "You", 0)
    notice = RecordingNotice()
    app.notice = app.game_screen.notice = notice
    async with app.run_test(size=SMALL) as pilot:
        screen = await settle(pilot)
        game = app.game
        assert game.human_to_act() and game.view.phase is Phase.SETUP_SETTLEMENT
        assert notice.rings == 1 and notice.titles == [f"{IDLE_TITLE}: your turn"]
        await pick_first(pilot, screen)  # the settlement: still the person's turn (its road)
        assert game.view.phase is Phase.SETUP_ROAD and notice.rings == 1
        await pick_first(pilot, screen)  # the road: the bots place theirs
        await settle(pilot)
        assert game.human_to_act() and game.view.phase is Phase.SETUP_SETTLEMENT
        assert notice.rings == 2
        assert notice.titles == [f"{IDLE_TITLE}: your turn", IDLE_TITLE, f"{IDLE_TITLE}: your turn"]


async def test_no_bell_and_no_title_stay_silent() -> None:
    app = make_app(3, 1, "beginner", "You", 0, bell=False, title=False)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert app.game.human_to_act()
        assert app.notice.rings == 0 and app.notice.shown == ""


class _Recorder(App[None]):
    """An app that records its bells (a headless app's bell writes nothing)."""

    bells = 0

    def bell(self) -> None:
        self.bells += 1


async def test_a_title_keeps_no_control_codes_from_the_words() -> None:
    """A title is printable text only: words with an escape or a newline (a name, say) lose
    them; the same words twice set nothing twice and ring once."""
    app = _Recorder()
    async with app.run_test():
        notice = TurnNotice()
        notice.update(app, "answer Eve\x1b]0;pwned\x07's offer\n")
        notice.update(app, "answer Eve\x1b]0;pwned\x07's offer\n")
        assert app.bells == 1
        assert notice.shown == f"{IDLE_TITLE}: answer Eve]0;pwned's offer"
        notice.update(app, None)
        assert notice.shown == IDLE_TITLE and app.bells == 1


def test_the_flags_are_on_every_command_a_person_plays_with() -> None:
    for command in ("play", "host", "join"):
        result = CliRunner().invoke(main, [command, "--help"])
        assert result.exit_code == 0
        assert "--no-bell" in result.output and "--no-title" in result.output, command
