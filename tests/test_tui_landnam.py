"""Landnám's table under ``App.run_test`` (tui/games/landnam.py; /work/shared/UI.md): the board,
the stocks and the players at 80x24 and 120x40; a short game played by keys alone against bots
to the game-over screen; the Althing's screen on a 7 with a bid made by keys; and board picks
that offer exactly the legal places.

Every wait is on a condition (the screen settled, a dialog open), never a fixed sleep.
"""

from __future__ import annotations

import functools
import html
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots.own import own_bot
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.game import sample_outcome
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import state_spec
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import phases as P
from hexlan.engine.variants.landnam.parts import Unit
from hexlan.engine.variants.landnam.rules import UNEXPLORED, Land
from hexlan.engine.variants.landnam.state import LandnamState, new_game
from hexlan.net.log import read_log
from hexlan.net.verify import verify_logs
from hexlan.tui.app import OwnGameApp
from hexlan.tui.board_render import geometry
from hexlan.tui.games.landnam import LandnamScreen
from hexlan.tui.games.landnam_board import FieldView, field_map
from hexlan.tui.games.landnam_client import LocalLandnam
from hexlan.tui.games.landnam_dialogs import (
    AlthingScreen,
    ChoiceDialog,
    GameOverScreen,
    LandnamHelp,
    LandnamRules,
)
from hexlan.tui.slots import OwnTable

NAMES = ("You", "Blue", "Green")


class _App(OwnGameApp):
    """The own-game app around a given client (the test's), at no bot delay."""

    def __init__(self, client: LocalLandnam) -> None:
        super().__init__(OwnTable("landnam", NAMES, 0, None, RandomBot, 0))
        self.table_screen = LandnamScreen(client, bot_delay=0)


async def _until(pilot: object, condition: Callable[[], bool], limit: int = 4000) -> None:
    """Let the app run until ``condition`` holds (a bounded number of event-loop turns)."""
    for _ in range(limit):
        if condition():
            return
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError("the condition never held")


def _screen(app: App[int]) -> LandnamScreen:
    """The app's Landnám table (under any dialog open over it)."""
    screen = next(s for s in app.screen_stack if isinstance(s, LandnamScreen))
    assert isinstance(screen, LandnamScreen)
    return screen


def _ready(app: App[int]) -> bool:
    """The table waits for the person (a dialog or a pick may be open) or the game is over."""
    screen = _screen(app)
    return screen.settled and (
        screen.client.is_over
        or screen.client.human_to_act()
        or isinstance(app.screen, GameOverScreen)
    )


async def _at_the_table(pilot: object, app: App[int]) -> None:
    """Wait until the person is due, with the table in front (a forced decision's dialog set
    aside by Esc)."""
    await _until(pilot, lambda: _ready(app))
    if isinstance(app.screen, ChoiceDialog):
        await pilot.press("escape")  # type: ignore[attr-defined]
        await _until(pilot, lambda: isinstance(app.screen, LandnamScreen))


def _screen_text(app: App[int]) -> str:
    """The screen's characters, as shown (from the screenshot, tags stripped)."""
    shown = html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot()))
    return shown.replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_table_shows_board_stocks_and_players(size: tuple[int, int]) -> None:
    """At both sizes the board (the centre mountain, unexplored '?', the outer sea with its
    ships), the stocks (never the resource stock) and every player are on screen."""
    app = OwnGameApp(OwnTable("landnam", NAMES, 3, None, RandomBot, 0, save_log=False))
    async with app.run_test(size=size) as pilot:
        await _at_the_table(pilot, app)
        board = _screen(app).query_one(FieldView)
        layout = board.layout_now
        assert layout is not None and layout.name == ("compact" if size[0] == 80 else "roomy")
        drawn = board.render()
        assert isinstance(drawn, Text)
        lines = drawn.plain.split("\n")
        assert len(lines) == geometry(layout, field_map(board.state.board).topology).height + 1
        unknown = board.state.terrain.count(UNEXPLORED)  # 18 but for the bots' explorations
        assert "M" in drawn.plain and drawn.plain.count("?") == unknown
        assert lines[-1].startswith("Outer sea: ≈")
        shown = _screen_text(app)
        for words in ("Hexes", "Markers", "Harbours", "deck", *NAMES):
            assert words in shown, words
        assert "not fair" in shown
        assert "stock 2" not in shown  # no count of the resource stock anywhere


def _board_values(screen: LandnamScreen, legal: list[Action]) -> None:
    """The board pick open now offers only places some legal action names."""
    board = screen.query_one(FieldView)
    places = set(board.places)
    named: set[int] = set()
    for a in legal:
        for name in ("to", "corner", "position"):
            named.add(getattr(a, name, -99))
        unit = getattr(a, "unit", -1)
        if unit >= 0 and screen.view.units[unit] is not None:
            named.add(screen.view.units[unit].at)  # type: ignore[union-attr]
    assert places <= named, (places, named)
    assert len(board.targets) == len(board.places)  # every offered place is drawn


async def _decide(pilot: object, app: App[int], legal: list[Action]) -> str:
    """Press the keys of one decision of the person's; the key pressed."""
    screen = _screen(app)
    view = screen.view
    builds = [a for a in legal if isinstance(a, L.BuildFarm | L.BuildUnit | L.BuildTown)]
    moves = [a for a in legal if isinstance(a, L.Move)]
    if A.ROLL in legal:
        key = "d"
    elif view.phase == P.MOVE and moves and not screen.view.steps:
        key = "m"
    elif view.phase == P.MOVE:
        key = "e"
    elif view.phase == P.TRADE and builds:
        key = {L.BuildFarm: "f", L.BuildUnit: "u", L.BuildTown: "c"}[type(builds[0])]
    elif view.phase == P.TRADE:
        key = "t"
    else:
        key = "space"
    await pilot.press(key)  # type: ignore[attr-defined]
    return key


async def _play(pilot: object, app: App[int], decisions: int) -> list[str]:
    """Play the person's seat by keys alone until the game-over screen; the keys pressed.
    Each open dialog is answered with its first option, each board pick with label 1 (after
    checking it offers only legal places)."""
    screen = _screen(app)
    pressed: list[str] = []
    for _ in range(decisions):
        await _until(pilot, lambda: _ready(app) or screen.picking)
        if isinstance(app.screen, GameOverScreen):
            return pressed
        if screen.picking:
            board = screen.query_one(FieldView)
            await _until(
                pilot,
                lambda b=board: (  # type: ignore[misc]
                    isinstance(app.screen, ChoiceDialog) or bool(b.places) or not screen.picking
                ),
            )
            if board.places:
                _board_values(screen, screen.legal())
            if screen.picking:
                await pilot.press("1")  # type: ignore[attr-defined]
                pressed.append("1")
            continue
        if screen.client.is_over:
            await _until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            return pressed
        pressed.append(await _decide(pilot, app, screen.legal()))
    raise AssertionError(f"no game over after {decisions} decisions")


async def test_a_short_hexlan_play_table_is_played_by_keys_and_its_log_verifies(
    tmp_path: Path,
) -> None:
    """`hexlan play --game landnam`'s table (every seat a session in this process, unseeded so
    fair, heuristic bots), to 2 points: every decision of the person's by keys (rolls, moves
    and explorations, builds, forced decisions, the Althing), ending on the scores; the log,
    written once the app closes, verifies with its audit."""
    options = GameOptions.parse(("victory_points=2",), spec=state_spec("landnam"))
    sample = new_game("landnam", 3)
    bot = functools.partial(own_bot, "heuristic", sample)
    app = OwnGameApp(OwnTable("landnam", NAMES, None, options, bot, 0, log_dir=tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        client = _screen(app).client
        assert client.fair
        pressed = await _play(pilot, app, 3000)
        assert isinstance(app.screen, GameOverScreen)
        shown = _screen_text(app)
        assert "Game over" in shown and "won" in shown
        assert client.is_over and client.view.winners()
        assert {"d", "m", "1"} <= set(pressed)
    (log,) = tmp_path.glob("*-play-*.hexlan")
    report = verify_logs([log])
    assert report.exit_code == 0, report.lines()
    notes = [n for n in read_log(log).notes if n.startswith("audit: ")]
    assert notes and "Audit passed" in notes[0], notes


def _seven_first(state: LandnamState, rng: random.Random) -> Action:
    """Chance as usual, but the person's first harvest roll is a 7."""
    if state.phase == P.DICE and state.active == 0 and not state.turn > 3:
        return A.Dice(3, 4)
    return sample_outcome(state, rng)


def _lawsuit_ready(state: LandnamState) -> None:
    """The person's settler stands on a field (5) beside Blue's farm; both hold grain: Blue
    may sue it at the Althing (§8.3)."""
    board = state.board
    hex_ = board.neighbours[board.centre][0]
    state.terrain[hex_], state.numbers[hex_] = Land.FIELD, 5
    state.units.append(Unit(0, False, hex_))
    state.settlers[0] -= 1
    state.buildings[board.corners[hex_][0]] = (1, False)
    state.houses[1] -= 1
    state.hands[0][0] = 12
    state.hands[1][0] = 4


ALTHING_SEED = 1


async def test_the_althing_screen_opens_on_a_seven_and_a_bid_is_made_by_keys() -> None:
    """A 7 calls the Althing: its screen shows the case (the unit, its hex, the resource, both
    sides and their totals) and the person's choices; pressing a "Raise by" option's number
    bids (§8.5)."""
    client = LocalLandnam(3, NAMES, seed=ALTHING_SEED, chance=_seven_first)
    app = _App(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = _screen(app)
        while screen.view.phase != P.ROLL or not client.human_to_act():  # answer any offers
            await _until(pilot, lambda: isinstance(app.screen, ChoiceDialog) or _ready(app))
            if isinstance(app.screen, ChoiceDialog):
                await pilot.press("1")
        client.arrange(_lawsuit_ready)
        await pilot.press("d")
        await _until(pilot, lambda: isinstance(app.screen, AlthingScreen))
        raised = False
        for _ in range(30):
            await _until(
                pilot,
                lambda: isinstance(app.screen, AlthingScreen) or client.view.phase not in ALTHING,
            )
            if client.view.phase not in ALTHING:
                break
            dialog = app.screen
            assert isinstance(dialog, AlthingScreen)
            options = dialog.options
            pick = 0
            if client.view.phase == P.APPOINT:
                pick = options.index("Appoint Blue to open the lawsuit round")
            bids = [i for i, words in enumerate(options) if words.startswith("Raise by")]
            if bids:
                shown = _screen_text(app)
                assert "Case against" in shown and "grain" in shown and "Defence" in shown
                pick = bids[0]
                raised = True
            await pilot.press(str(pick + 1))
            await _until(pilot, lambda d=dialog: app.screen is not d)  # type: ignore[misc]
            if raised:
                break
        assert raised, "Blue brought no case"
        said = [e.text for e in client.events if isinstance(e.action, L.Bid) and e.seat == 0]
        assert said and said[-1].startswith("You raised by")


ALTHING = frozenset({P.ALTHING_OPEN, P.APPOINT, P.SUING, P.CASE, P.INVITED, P.DRAW})


async def test_a_move_offers_exactly_the_legal_places_and_esc_cancels() -> None:
    """``m`` lights up exactly the positions the unit may step to (the first move: a side's
    non-corner edge hexes, §9.6), each labelled; a label that is not offered does nothing; Esc
    ends the pick without a move."""
    client = LocalLandnam(3, NAMES, seed=4)
    app = _App(client)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = _screen(app)
        while screen.view.phase != P.MOVE or not client.human_to_act():
            await _until(pilot, lambda: isinstance(app.screen, ChoiceDialog) or _ready(app))
            await pilot.press("1" if isinstance(app.screen, ChoiceDialog) else "d")
        legal = {a.to for a in screen.legal() if isinstance(a, L.Move)}
        await pilot.press("m")
        board = screen.query_one(FieldView)
        await _until(pilot, lambda: bool(board.places))
        assert set(board.places) == legal and len(board.targets) == len(legal)
        assert not set(board.places) & set(client.view.board.board_corners)
        events = len(client.events)
        await pilot.press("z")
        await pilot.pause()
        assert len(client.events) == events and screen.picking
        await pilot.press("escape")
        await _until(pilot, lambda: not screen.picking)
        assert not board.places and len(client.events) == events


async def test_help_lists_the_keys_and_opens_the_rules_page() -> None:
    """``?`` shows the key map and the rules summary; ``r`` on it opens the rules page."""
    app = OwnGameApp(OwnTable("landnam", NAMES, 3, None, RandomBot, 0, save_log=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_the_table(pilot, app)
        await pilot.press("question_mark")
        await _until(pilot, lambda: isinstance(app.screen, LandnamHelp))
        shown = _screen_text(app)
        assert "roll the harvest dice" in shown and "Althing" in shown
        await pilot.press("r")
        await _until(pilot, lambda: isinstance(app.screen, LandnamRules))
        assert "At this table" in _screen_text(app)
