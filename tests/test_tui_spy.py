"""The Spy at the table (official card list, politics deck; docs/rules/cities-and-knights.md):
the victim picked in a dialog as for the Master Merchant, then a dialog of the victim's progress
cards with their text, a digit per card and one to take nothing, all at 80x24."""

from __future__ import annotations

from test_cities_knights import step
from test_progress_spy import spied
from textual.app import App
from textual.pilot import Pilot
from tui_play import play_by_keys

from hexlan.engine.actions import Action
from hexlan.engine.shown import (
    NO_TAKE,
    DeckShown,
    DeckTake,
)
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import (
    PlayProgress,
)
from hexlan.net.client import SessionGame
from hexlan.tui.app import HexlanApp
from hexlan.tui.board import COMPACT
from hexlan.tui.screens import knights as ck
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen

SMALL = (80, 24)
NAMES = ("You", "Blue", "Orange", "White")


class DialogApp(App[None]):
    """One choice dialog over an empty screen, with the game's styles."""

    CSS_PATH = HexlanApp.CSS_PATH

    def __init__(self, title: str, choices: list[tuple[str, Action]]) -> None:
        super().__init__()
        self.dialog = ChoiceDialog(title, choices)
        self.chosen: list[Action | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.chosen.append)


async def pick(title: str, choices: list[tuple[str, Action]], key: str) -> Action | None:
    """``key`` pressed in the dialog at 80x24, which fits the screen with every choice shown."""
    app = DialogApp(title, choices)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        region = app.dialog.query_one(".dialog").region
        assert region.right <= SMALL[0] and region.bottom <= SMALL[1]
        shown = " ".join(
            " ".join(
                str(app.dialog.query_one("#choices").render_line(y).text)
                for y in range(region.height)
            ).split()
        )
        for label, _ in choices:
            assert label.split(":")[0] in shown
        await pilot.press(key)
        await pilot.pause()
    assert len(app.chosen) == 1
    return app.chosen[0]


async def test_the_spy_picks_its_victim_then_a_card_or_nothing_by_digits_at_80x24() -> None:
    state, views, (track, face), cards = spied()
    plays = [a for a in views[0].legal_actions() if isinstance(a, PlayProgress)]
    title, victims = ck.victim_choices(views[0], "spy", plays, NAMES)
    assert title == "Spy: look at whose progress cards?"
    assert [label for label, _ in victims] == ["Blue (3 progress cards)", "White (1 progress card)"]
    assert await pick(title, victims, "1") == PlayProgress(track, face, 1)
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    assert views[0].phase in ck.DIALOG_PHASES
    title, takes = ck.dialog_choices(views[0], views[0].legal_actions(), NAMES)
    assert title == "Spy: take which of Blue's progress cards?" and len(title) <= 76
    labels = [label for label, _ in takes]
    assert labels[:3] == [ck.card_line(views[0], t, f) for t, f in cards]
    assert labels[3] == "take nothing"
    assert "Bishop (politics): move the robber" in labels[0]
    assert await pick(title, takes, "2") == DeckTake(*cards[1])
    assert await pick(title, takes, "4") == DeckTake(NO_TAKE, None)


def spy_play(game: SessionGame) -> PlayProgress | None:
    """A play of the Spy open to the person now, by the engine's rules, if any."""
    if not game.human_to_act():
        return None
    names = game.view.variant.card_names  # type: ignore[union-attr]
    return next(
        (
            a
            for a in game.view.legal_actions(game.human_seat)
            if isinstance(a, PlayProgress) and names[a.track][a.face] == "spy"
        ),
        None,
    )


async def play_the_spy(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the Spy, the victim's digit; then the dialog of its cards, and a card taken."""
    play = spy_play(screen.game)
    assert play is not None
    await pilot.press("l")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog)
    index = next(i for i, (_, card) in enumerate(dialog.choices) if card == (play.track, play.face))
    await pilot.press(str(index + 1))
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("Spy: look at")
    victim = next(i for i, (_, a) in enumerate(dialog.choices) if a == play)
    await pilot.press(str(victim + 1))
    for _ in range(50):  # the victim's cards opened to the person
        await pilot.pause()
        if isinstance(pilot.app.screen, ChoiceDialog):
            break
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("Spy: take which")
    held = progress_of(screen.game.view).held(0)
    await pilot.press("1")
    await pilot.pause()
    assert progress_of(screen.game.view).held(0) == held + 1
    assert any(e.text.startswith("You took the progress card ") for e in screen.game.events)


async def test_the_spy_played_by_keys_in_an_in_process_game() -> None:
    """At 80x24, in a game between sessions: the Spy from ``l``'s list, its victim and its
    card taken, each a digit."""
    ready = {"spy": lambda game: spy_play(game) is not None}
    await play_by_keys(
        SMALL, COMPACT, {"spy": play_the_spy}, ready, "cities-and-knights", (1, 2, 3)
    )
