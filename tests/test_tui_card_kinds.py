"""The hand panel and the discard dialog with eight card kinds (issue 8), at 80x24.

No registered game has commodities yet, so no session can play one; the widgets read a seat's
real information state of an engine game under the test rule set of ``test_card_kinds`` (the
base game plus paper, cloth and coin) through :class:`EngineReader`, the
:class:`~hexlan.net.client.GameReader` shape every panel reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from test_card_kinds import RULES, cards, give, main_phase
from test_declared_kinds import RULES as FOUR
from textual.app import App, ComposeResult
from textual.containers import Vertical

from hexlan.engine import actions as A
from hexlan.engine.core import Phase, Resource
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.state import GameState
from hexlan.net.narrate import GameEvent
from hexlan.tui.screens.dialogs import DiscardDialog, TradeDialog
from hexlan.tui.widgets.controls import Counter
from hexlan.tui.widgets.hand import HandPanel

SMALL = (80, 24)


@dataclass
class EngineReader:
    """Seat 0's view of a local engine game, read as the panels read a game client."""

    view: InformationState
    names: tuple[str, ...] = ("You", "Blue", "Orange")
    human_seat: int = 0
    events: list[GameEvent] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.names)

    def watching(self) -> tuple[str, ...]:
        return ()

    def legal_actions(self) -> list[A.Action]:
        return self.view.legal_actions(self.human_seat)


def _game_with_commodities() -> tuple[GameState, list[InformationState]]:
    """Three seats, seat 0 holding 2 lumber, 1 paper, 3 cloth and 2 coin (seen by all)."""
    state = main_phase()
    views = [InformationState(state.board, 3, s, rules=RULES) for s in range(3)]
    for view in views:
        view.play(A.StartPlayer(0))
        view.setup_step, view.turn, view.phase = len(view.setup_order), 1, Phase.MAIN
    for target in (state, *views):
        give(target, 0, cards(lumber=2, paper=1, cloth=3, coin=2))
    return state, views


class HandApp(App[None]):
    """The hand panel in a side column as narrow as the game screen's at 80x24."""

    def __init__(self, reader: EngineReader) -> None:
        super().__init__()
        self.reader = reader

    def compose(self) -> ComposeResult:
        with Vertical(id="side"):
            yield HandPanel(self.reader, id="hand")  # type: ignore[arg-type]

    CSS = "#side { width: 30; height: 1fr; }"


async def test_the_hand_panel_shows_the_commodities_at_80x24() -> None:
    _, views = _game_with_commodities()
    app = HandApp(EngineReader(views[0]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        panel = app.query_one(HandPanel)
        text = panel.render().plain  # type: ignore[union-attr]
        assert "Resources 8" in text
        for line in ("P paper", "C cloth", "M coin"):
            assert line in text
        rows = {row.split()[1]: row.split()[2] for row in text.splitlines()[1:9]}
        assert (rows["lumber"], rows["paper"], rows["cloth"], rows["coin"]) == ("2", "1", "3", "2")
        assert panel.region.bottom <= SMALL[1]  # every row on screen at the smallest size


async def test_the_discard_dialog_discards_commodities() -> None:
    """A 7 with eight cards in hand: the dialog has a counter per kind and plays an
    eight-count discard the engine accepts."""
    state, views = _game_with_commodities()
    for target in (state, *views):
        target.phase = Phase.ROLL
    advance_views(state, views, A.RollDice(), check=True)
    advance_views(state, views, A.Dice(3, 4), check=True)
    assert views[0].discards[0] == 4
    app = HandApp(EngineReader(views[0]))
    chosen: list[A.Action | None] = []
    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(DiscardDialog(EngineReader(views[0])), chosen.append)  # type: ignore[arg-type]
        await pilot.pause()
        ids = [c.id for c in app.screen.query(Counter)]
        assert ids[5:] == ["discard-paper", "discard-cloth", "discard-coin"]
        app.screen.query_one("#discard-cloth", Counter).focus()
        await pilot.press("right", "right", "right")
        app.screen.query_one("#discard-coin", Counter).focus()
        await pilot.press("right", "enter")
        await pilot.pause()
    assert chosen == [A.Discard(0, cards(cloth=3, coin=1))]
    advance_views(state, views, chosen[0], check=True)
    assert state.hands[0] == list(cards(lumber=2, paper=1, coin=1))


async def test_the_bank_trade_dialog_trades_commodities_at_80x24() -> None:
    """Every kind has its give and get counters on screen at 80x24; four paper buy a coin."""
    state, views = _game_with_commodities()
    give(state, 0, cards(paper=3))
    for view in views:
        give(view, 0, cards(paper=3))

    def submit(action: A.Action) -> bool:
        advance_views(state, views, action, check=True)
        return True

    app = HandApp(EngineReader(views[0]))
    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(TradeDialog(EngineReader(views[0]), submit, bank=True))  # type: ignore[arg-type]
        await pilot.pause()
        counters = list(app.screen.query(Counter))
        assert [c.id for c in counters][-6:] == [
            "give-paper", "get-paper", "give-cloth", "get-cloth", "give-coin", "get-coin"
        ]  # fmt: skip
        assert all(c.region.y >= 0 and c.region.bottom <= SMALL[1] for c in counters)
        app.screen.query_one("#give-paper", Counter).focus()
        await pilot.press("right")  # one step: the 4:1 ratio
        app.screen.query_one("#get-coin", Counter).focus()
        await pilot.press("right", "enter")
        await pilot.pause()
    assert state.hands[0] == list(cards(lumber=2, cloth=3, coin=3))
    assert state.bank[Resource.PAPER] == RULES.bank[Resource.PAPER]


async def test_the_hand_panel_shows_declared_kinds_in_colours_of_their_own() -> None:
    """The four-kinds game (tests/data/four-kinds.toml): timber and iron, which the Catan
    catalogue does not name, show with their own letters and colours; grain keeps its yellow."""
    state = main_phase(rules=FOUR)
    view = InformationState(state.board, 3, 0, rules=FOUR)
    view.play(A.StartPlayer(0))
    view.setup_step, view.turn, view.phase = len(view.setup_order), 1, Phase.MAIN
    for target in (state, view):
        give(target, 0, (1, 2, 0, 3))
    app = HandApp(EngineReader(view))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = app.query_one(HandPanel).render()
        assert isinstance(text, Text)
        rows = text.plain.splitlines()[1:5]
        assert [r.split()[:3] for r in rows] == [
            ["G", "grain", "1"], ["T", "timber", "2"], ["W", "wool", "0"], ["I", "iron", "3"]
        ]  # fmt: skip
        start = len(text.plain.splitlines()[0]) + 1
        styles = {
            text.plain[s.start : s.end].strip(): str(s.style)
            for s in text.spans
            if s.start >= start and s.end <= start + sum(len(r) + 1 for r in rows)
        }
        assert styles["grain"] == "yellow" and styles["timber"] == "bright_magenta"
        assert styles["iron"] == "blue" and styles["T"] == "bold bright_magenta"
