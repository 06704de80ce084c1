"""The Textual app, driven as a person would: keys, clicks, dialogs, sizes (bot delay 0).

The games run through seat sessions in this process (`hexlan play`); their logs go to a
temporary data directory.
"""

from __future__ import annotations

import html
import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, Static
from textual.widgets._footer import FooterKey
from textual_plotext import PlotextPlot

from hexlan.engine import actions as A
from hexlan.engine.bots import Bot, make_bot
from hexlan.engine.core import NO_SEAT, BuildPhase, DevCard, Phase
from hexlan.net.client import SessionGame
from hexlan.net.narrate import GameEvent
from hexlan.tui.app import HexlanApp, make_app
from hexlan.tui.board import MEDIUM, MINI
from hexlan.tui.palette import SEAT_NAMES
from hexlan.tui.screens.dialogs import ChoiceDialog, DiscardDialog, TradeDialog
from hexlan.tui.screens.game import GameScreen
from hexlan.tui.screens.info import GameOverScreen, HelpScreen
from hexlan.tui.screens.stats import StatsScreen, cards_table
from hexlan.tui.widgets.controls import Counter
from hexlan.tui.widgets.hand import HandPanel
from hexlan.tui.widgets.log import GameLog
from hexlan.tui.widgets.players import PlayersPanel

SEED = 1
WIDE = (120, 40)
SMALL = (80, 24)


pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


async def settle(pilot: Pilot[int]) -> GameScreen:
    """Let the bots move until the person is due (or the game is over)."""
    app = pilot.app
    assert isinstance(app, HexlanApp)
    screen = app.game_screen
    for _ in range(2000):
        await pilot.pause()
        if not screen._bots_running:
            break
    await pilot.pause()
    return screen


async def pick_first(pilot: Pilot[int], screen: GameScreen) -> int:
    """Type the label of the first highlighted place; the place's id."""
    assert screen.pick is not None
    target, label = min(screen.pick.labels.items(), key=lambda item: item[1])
    await pilot.press(*label)
    return target


async def play_setup(pilot: Pilot[int], screen: GameScreen) -> None:
    """Place both settlements and roads by typing labels."""
    game = screen.game
    for placed in (1, 2):
        await settle(pilot)
        assert game.view.phase is Phase.SETUP_SETTLEMENT and game.view.active == 0
        assert screen.pick is not None and screen.pick.kind == "node"
        node = await pick_first(pilot, screen)
        assert node in game.view.settlements[0]
        assert len(game.view.settlements[0]) == placed
        assert game.view.phase is Phase.SETUP_ROAD
        assert screen.pick is not None and screen.pick.kind == "path"
        # the set-up road may only touch the new settlement
        assert all(node in game.view.topology.path_nodes[p] for p in screen.pick.labels)
        path = await pick_first(pilot, screen)
        assert path in game.view.roads[0]
        assert len(game.view.roads[0]) == placed
    await settle(pilot)


async def handle_robber(pilot: Pilot[int], screen: GameScreen) -> None:
    """After a 7: discard if asked (first legal choice), then move the robber by label."""
    game = screen.game
    if isinstance(pilot.app.screen, DiscardDialog):
        pilot.app.screen.dismiss(game.legal_actions()[0])
        await settle(pilot)
    if game.view.phase is Phase.MOVE_ROBBER:
        assert screen.pick is not None and screen.pick.kind == "hex"
        await pick_first(pilot, screen)
        await pilot.pause()
        if isinstance(pilot.app.screen, ChoiceDialog):
            await pilot.press("1")
        await settle(pilot)


async def test_setup_and_a_turn_by_keys() -> None:
    app = make_app(4, SEED, "beginner", "You", 0)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        game = app.game
        await play_setup(pilot, screen)
        view = game.view
        assert view.turn >= 1
        assert view.phase is Phase.ROLL and view.active == 0
        assert "r" in app.active_bindings and "e" not in app.active_bindings
        turn = view.turn
        await pilot.press("r")
        await settle(pilot)
        assert len(game.rolls) >= 1
        assert any(e.text.startswith("You rolled") for e in game.events)
        await handle_robber(pilot, screen)
        assert view.phase is Phase.MAIN and view.active == 0
        roads = len(view.roads[0])
        if any(isinstance(a, A.BuildRoad) for a in game.legal_actions()):
            await pilot.press("d")
            await pick_first(pilot, screen)
            assert len(view.roads[0]) == roads + 1
        else:
            hand = tuple(view.hands[0])
            bank = any(isinstance(a, A.MaritimeTrade) for a in game.legal_actions())
            assert ("m" in app.active_bindings) == bank  # the bank key shows only when usable
            await pilot.press("m" if bank else "t")
            await pilot.pause()
            assert isinstance(app.screen, TradeDialog)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen
            assert tuple(view.hands[0]) == hand
        await pilot.press("e")
        await settle(pilot)
        assert view.turn > turn
        assert any(e.text.startswith(f"Turn {turn + 1}:") for e in game.events)


async def test_build_menu_is_cancelled_with_escape() -> None:
    """After the first roll: when the seat can build a road, ``d`` opens the road pick and
    escape cancels it without building; when it cannot, the key is hidden and does nothing
    (this seed gives the second case; both are asserted, never skipped)."""
    app = make_app(3, SEED, "beginner", "You", 0)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        await play_setup(pilot, screen)
        game = app.game
        await pilot.press("r")
        await settle(pilot)
        await handle_robber(pilot, screen)
        before = len(game.events)
        if not any(isinstance(a, A.BuildRoad) for a in game.legal_actions()):
            assert "d" not in app.active_bindings
            await pilot.press("d")
            await pilot.pause()
            assert screen.pick is None and len(game.events) == before  # the key is inert
            return
        await pilot.press("d")
        assert screen.pick is not None and not screen.pick.mandatory
        assert "r" not in app.active_bindings  # game keys are off while picking
        await pilot.press("escape")
        assert screen.pick is None and len(game.events) == before


async def test_clicking_a_highlighted_place_builds_there() -> None:
    app = make_app(4, SEED, "beginner", "You", 0)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        assert screen.pick is not None and screen.pick.kind == "node"
        board = screen.board
        target = sorted(screen.pick.labels)[len(screen.pick.labels) // 2]
        offset = board_offset(board, "node", target)
        await pilot.click("#board", offset=offset)
        await pilot.pause()
        assert target in app.game.view.settlements[0]


def board_offset(board: object, kind: str, target: int) -> tuple[int, int]:
    """Where a place is drawn inside the board widget (for a click)."""
    offset = board.cell_of(kind, target)  # type: ignore[attr-defined]
    assert offset is not None
    return (offset.x, offset.y)


def discard_game() -> SessionGame:
    """A game paused where the person must discard (played by bots up to there)."""
    for seed in range(60):
        game = SessionGame(players=4, seed=seed, save_log=False)
        driver = make_bot("heuristic", random.Random(seed * 31))
        while not game.is_over:
            if game.human_to_act():
                if game.view.phase is Phase.DISCARD:
                    return game
                game.submit(driver.choose(game.view, 0))
            else:
                game.step()
    raise AssertionError("no seed makes the person discard")


async def test_discard_dialog_confirms_only_exactly_half() -> None:
    game = discard_game()
    need = game.view.discards[0]
    held = sum(game.view.hands[0])
    assert need == held // 2
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DiscardDialog)
        ok = dialog.query_one("#discard-ok", Button)
        assert ok.disabled
        await pilot.press("enter")  # nothing chosen: refused
        await pilot.pause()
        assert app.screen is dialog and game.view.discards[0] == need

        async def choose(count: int) -> None:
            for _ in range(200):
                if sum(dialog.chosen()) == count:
                    return
                focused = app.focused
                assert isinstance(focused, Counter)
                if focused.value < focused.maximum:
                    await pilot.press("plus")
                else:
                    await pilot.press("down")
            raise AssertionError("could not choose")

        await choose(need - 1)
        assert ok.disabled
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and game.view.discards[0] == need
        if held > need:  # one too many is refused as well
            await choose(need + 1)
            assert ok.disabled
            await pilot.press("enter")
            assert app.screen is dialog
            focused = next(c for c in dialog.query(Counter) if c.value)
            focused.focus()
            await pilot.press("minus")
        assert sum(dialog.chosen()) == need and not ok.disabled
        chosen = dialog.chosen()
        before = tuple(game.view.hands[0])
        # The bots move on at once (the robber may take a card from you): look at the hand
        # right after the discard.
        after_discard: list[tuple[int, ...]] = []
        submit = game.submit

        def submit_and_look(action: A.Action) -> list[GameEvent]:
            events = submit(action)
            after_discard.append(tuple(game.view.hands[0]))
            return events

        game.submit = submit_and_look  # type: ignore[method-assign]
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, DiscardDialog)
        assert after_discard[0] == tuple(b - c for b, c in zip(before, chosen, strict=True))
        assert any(e.text.startswith(f"You discarded {need}") for e in game.events)


async def test_full_bot_game_reaches_the_game_over_screen() -> None:
    app = make_app(4, 3, "beginner", "You", 0, autoplay=True)
    async with app.run_test(size=WIDE) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if isinstance(app.screen, GameOverScreen) and app.screen.query("#log-path"):
                break  # pushed and composed
        assert isinstance(app.screen, GameOverScreen)
        await pilot.pause()
        game = app.game
        assert game.winner is not None
        assert game.scores()[game.winner].total >= 10
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert game.log_path is not None and game.log_path.exists()
        assert str(game.log_path) in text and "not fair" in text  # seeded: said so
        assert "Audit passed" in text and "signed by every seat" in text  # PROTOCOL.md §14
        over = app.screen
        await pilot.press("s")  # the statistics, through every card (the audit passed)
        await pilot.pause(0.3)
        stats = app.screen
        assert isinstance(stats, StatsScreen) and stats.summary.audited
        assert stats.summary.winner == game.winner
        final = [seat.points[-1] for seat in stats.summary.seats]
        # the person's and the winner's points are known here; the others' hidden victory
        # point cards only through the audit the statistics read
        for seat in (0, game.winner):
            assert final[seat] == game.view.victory_points(seat)
        assert all(final[s] >= game.view.public_vp[s] for s in range(4))
        chart = stats.query_one(PlotextPlot)
        assert chart.region.height >= 8 and "victory points by turn" in str(chart.render())
        table = cards_table(stats.summary)
        assert "production" in [column.header for column in table.columns]
        figures = " ".join(str(w.render()) for w in stats.query("Static"))
        assert "rolls (p = " in figures and "Longest Road to" in figures
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is over
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_fair_games_over_screen_follows_its_audit(data_dir: Path) -> None:
    """Unseeded, the audit runs in the background: the game-over screen says so, then shows it
    passed once every seat has signed (PROTOCOL.md §14)."""
    app = make_app(3, None, "beginner", "You", 0, autoplay=True)
    async with app.run_test(size=WIDE) as pilot:
        deadline = time.monotonic() + 240  # an unseeded game: its length is not known
        while time.monotonic() < deadline:
            await pilot.pause(0.02)
            if isinstance(app.screen, GameOverScreen) and app.screen.query("#audit"):
                break
        assert isinstance(app.screen, GameOverScreen)
        audit = app.screen.query_one("#audit", Static)
        deadline = time.monotonic() + 60
        while "Audit passed" not in str(audit.render()) and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert "signed by every seat" in str(audit.render())
        await pilot.press("q")
    assert app.return_code == 0
    assert app.game.session.done


def _hidden_opponent_card(game: SessionGame) -> DevCard | None:
    """A development card type some bot holds unplayed while the person holds none and nobody
    has played one yet (so no screen may name it), read from the bots' own sessions."""
    person = game.view
    played = {e.text for e in game.events}
    for seat, session in enumerate(game.table.sessions):
        if seat == game.human_seat:
            continue
        dealer = session.dealer
        for position, face in dealer.own_cards.items():
            card = DevCard(face)
            if (
                dealer.deck.shown_by(dealer.own_index[position]) is None
                and not person.dev_cards[game.human_seat][card]
                and not any(card.title in text for text in played)
            ):
                return card
    return None


async def test_no_screen_names_an_opponents_unplayed_development_card() -> None:
    """PROTOCOL.md §12, private cards: the person sees how many development cards each
    opponent holds, never which; the whole screen (board, panels, log) is searched."""
    hidden = None
    for seed in range(20):
        game = SessionGame(players=4, seed=seed, save_log=False)
        me = make_bot("heuristic", random.Random(seed))
        for _ in range(3000):
            if game.is_over:
                break
            if game.human_to_act():
                if game.view.turn > 0 and (hidden := _hidden_opponent_card(game)) is not None:
                    break
                game.submit(me.choose(game.view, game.human_seat))
            else:
                game.step()
        if hidden is not None:
            break
        game.close()
    assert hidden is not None, "no game reached a card the screen must hide"
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert game.human_to_act()  # the game waits for the person: the screen holds still
        shown = re.sub(r"<[^>]+>", " ", html.unescape(app.export_screenshot())).replace("\xa0", " ")
        assert "Development cards" in shown and "dev" in shown  # the panels are there
        assert hidden.title not in shown, hidden
    game.close()


async def test_small_terminal_tabs_and_footer() -> None:
    app = make_app(4, SEED, "beginner", "You", 0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await settle(pilot)
        assert screen.has_class("-narrow") and not screen.has_class("-wide")
        shown = [p for p in ("players", "hand", "log") if screen.query_one(f"#panel-{p}").display]
        assert shown == ["players", "log"]  # the players always, hand and log on tabs
        await pilot.press("1")
        assert screen.query_one("#panel-hand").display
        assert not screen.query_one("#panel-log").display
        await pilot.press("tab")
        assert screen.query_one("#panel-log").display
        assert not screen.query_one("#panel-hand").display
        await play_setup(pilot, screen)
        assert app.game.view.phase is Phase.ROLL
        keys = {k.key for k in screen.query(FooterKey)}
        assert "r" in keys and "e" not in keys
        titles = [title for title, _, _ in screen.legal_commands()]
        assert "Roll the dice" in titles and "End the turn" not in titles
        assert screen.board.size.width > 0 and screen.board.size.height > 0


async def test_wide_terminal_shows_every_panel() -> None:
    app = make_app(4, SEED, "beginner", "You", 0)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        assert screen.has_class("-wide")
        for panel in ("players", "hand", "log"):
            assert screen.query_one(f"#panel-{panel}").display
        assert not screen.query_one("#side-tabs").display
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_too_small_terminal_says_so() -> None:
    app = make_app(2, SEED, "beginner", "You", 0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await settle(pilot)
        assert screen.has_class("-too-small")
        message = str(screen.query_one("#too-small").render())
        assert "too small" in message.lower() and "80x24" in message


def game_at(condition: str) -> SessionGame:
    """A game paused at the person's turn where ``condition`` holds (bots played up to there)."""
    for seed in range(60):
        game = SessionGame(players=4, seed=seed, save_log=False)
        driver = make_bot("heuristic", random.Random(seed * 31))
        while not game.is_over:
            if game.human_to_act():
                view = game.view
                if condition == "trade" and view.phase is Phase.MAIN:
                    hand = view.hands[0]
                    if sum(1 for n in hand if n) >= 1 and sum(hand) >= 2:
                        return game
                game.submit(driver.choose(game.view, 0))
            else:
                game.step()
    raise AssertionError(f"no seed reaches {condition}")


async def test_offer_to_bots_gets_their_answers() -> None:
    game = game_at("trade")
    hand = tuple(game.view.hands[0])
    give_r = next(r for r, n in enumerate(hand) if n)
    get_r = (give_r + 1) % 5
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TradeDialog) and not dialog.is_bank
        for _ in range(give_r + 1):
            await pilot.press("down")
        await pilot.press("plus")
        await pilot.press("tab")  # the "you get" counter of the same row
        for _ in range(abs(get_r - give_r)):
            await pilot.press("down" if get_r > give_r else "up")
        await pilot.press("plus")
        assert dialog.counts("give")[give_r] == 1 and dialog.counts("get")[get_r] == 1
        offered = len(game.events)
        await pilot.press("enter")
        await settle(pilot)
        offer = game.events[offered].action
        assert isinstance(offer, A.OfferTrade) and offer.to == -1
        answers = [
            e.action
            for e in game.events[offered + 1 :]
            if isinstance(e.action, A.AnswerTrade | A.CounterOffer)
        ]
        assert {a.seat for a in answers} == {1, 2, 3}  # every bot answered
        assert app.screen is dialog
        confirms = [b for b in dialog.query(Button) if (b.id or "").startswith("confirm-")]
        if game.view.phase is Phase.TRADE_RESPONSES:  # someone accepted or countered
            assert confirms
            await pilot.click(f"#{confirms[0].id}")
            await settle(pilot)
            assert isinstance(game.events[-1].action, A.ConfirmTrade)
            assert tuple(game.view.hands[0]) != hand
        else:  # all declined: said so, and the counters are free again
            assert not confirms
            note = " ".join(str(s.render()) for s in dialog.query(".note"))
            assert "declines" in note
        assert screen.game is game


# ----------------------------------------------------------------- five and six seats (issue 8)

SIX_NAMES = ("You", "Blue", "Green", "Purple", "Red", "Cobalt")


def panel_lines(panel: PlayersPanel | HandPanel) -> list[str]:
    """A panel's text as drawn at its present width."""
    console = Console(width=panel.content_size.width, record=True, color_system=None)
    console.print(panel.render())
    return console.export_text().rstrip("\n").split("\n")


def six_seats_shown(screen: GameScreen) -> list[str]:
    """The players panel's seat rows, each checked to show its mark and name."""
    lines = panel_lines(screen.query_one(PlayersPanel))
    rows = lines[1:7]
    for seat, (line, name) in enumerate(zip(rows, SIX_NAMES, strict=True)):
        assert f"{'abcdef'[seat]} {name}" in line, (seat, line)
    return lines


async def test_five_six_table_at_80x24_shows_six_seats_and_the_whole_board() -> None:
    """80x24: the 30-hex board in the mini layout, six seats and the awards above the tabs, a
    hand that fits its tab; the set-up settlement typed by label, the road clicked."""
    app = make_app(6, seed=1, board="random", bot_delay=0, save_log=False, game="five-six")
    async with app.run_test(size=SMALL) as pilot:
        screen = await settle(pilot)
        game = app.game
        assert isinstance(game, SessionGame) and game.players == 6
        assert screen.has_class("-narrow")
        board = screen.board
        assert board.board_layout is MINI
        lines = board.rendered_lines()
        for h in range(game.view.topology.hex_count):  # every hex: its letter and its token
            cell = board.cell_of("hex", h)
            assert cell is not None
            assert lines[cell.y][cell.x - 2] == game.view.board.terrains[h].letter
            token = game.view.board.tokens[h]
            assert lines[cell.y][cell.x : cell.x + 2].strip() == (str(token) if token else "")
        players = six_seats_shown(screen)
        assert players[-1].strip() == "Road: nobody · Army: nobody"  # one line for both
        panel = screen.query_one("#panel-players")
        assert panel.region.bottom <= screen.query_one("#side-tabs").region.y
        await pilot.press("1")
        hand = screen.query_one(HandPanel)
        assert hand.region.height <= screen.query_one("#panel-hand").content_region.height
        assert panel_lines(hand)[-1].startswith("roads 15")  # the last line is on screen

        assert screen.pick is not None and screen.pick.kind == "node"
        node = await pick_first(pilot, screen)
        assert game.view.settlements[0] == [node]
        assert screen.pick is not None and screen.pick.kind == "path"
        road = sorted(screen.pick.labels)[-1]
        await pilot.click("#board", offset=board_offset(board, "path", road))
        await pilot.pause()
        assert game.view.roads[0] == [road]


async def test_five_six_table_at_120x40_shows_every_panel_and_picks_by_arrows() -> None:
    app = make_app(6, seed=2, board="random", bot_delay=0, save_log=False, game="five-six")
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        assert screen.has_class("-wide")
        for panel in ("players", "hand", "log"):
            assert screen.query_one(f"#panel-{panel}").display
        assert screen.board.board_layout is MEDIUM
        lines = six_seats_shown(screen)
        assert lines[-2].startswith("Longest Road:") and lines[-1].startswith("Largest Army:")
        pick = screen.pick
        assert pick is not None and pick.kind == "node"
        await pilot.press("right", "down", "enter")
        await pilot.pause()
        settlements = app.game.view.settlements[0]
        assert len(settlements) == 1 and settlements[0] in pick.labels


FiveSix = tuple[SessionGame, Bot]
"""A six-seat game and the bot that plays the person's seat (seat 0) in it."""


def five_six_until(ready: Callable[[SessionGame], bool], going: FiveSix | None = None) -> FiveSix:
    """A six-seat five-six game (real in-process sessions, seeded) played by bots for every seat
    until ``ready`` holds; ``going``: play on in that game instead of starting new ones."""
    tables = (
        [going]
        if going is not None
        else (
            (
                SessionGame(6, seed=seed, board="random", save_log=False, game="five-six"),
                make_bot("heuristic", random.Random(seed)),
            )
            for seed in range(20)
        )
    )
    for game, driver in tables:
        for _ in range(20_000):
            if game.is_over:
                break
            if ready(game):
                return game, driver
            if game.human_to_act():
                game.submit(driver.choose(game.view, 0))
            else:
                game.step()
    raise AssertionError("no seed reached the position")


async def test_special_building_prompts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another seat's special building is named on the prompt line; on yours the prompt says
    what you can do with its keys, and with nothing to build or buy you pass without a key."""
    others, driver = five_six_until(
        lambda g: g.view.phase is BuildPhase.SPECIAL_BUILD and g.view.active not in (NO_SEAT, 0)
    )
    app = HexlanApp(others, bot_delay=60)  # the builder thinks for a minute: time to look
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        screen = app.game_screen
        prompt = screen.query_one("#prompt", Static)
        status = screen.query_one("#status", Static)
        # A seat with nothing to build passes at once: the builder is whoever holds it now.
        assert others.view.phase is BuildPhase.SPECIAL_BUILD
        name = SEAT_NAMES[others.view.active]
        assert str(prompt.render()) == f"Special building: {name} may build…"
        assert f"{name} [special build]" in str(status.render())
        assert not {"d", "s", "c", "v", "e"} & set(app.active_bindings)

    # The same game played on (the app above played at most the builder's move, as a bot
    # would have): one six-seat deck set-up, not two.
    mine, _ = five_six_until(
        lambda g: (
            g.view.phase is BuildPhase.SPECIAL_BUILD and g.view.active == 0 and g.human_to_act()
        ),
        (others, driver),
    )
    submitted: list[A.Action] = []
    monkeypatch.setattr(mine, "submit", lambda action: submitted.append(action) or [])
    legal: list[A.Action] = [A.END_TURN]
    monkeypatch.setattr(mine, "legal_actions", lambda: list(legal))
    app = HexlanApp(mine, bot_delay=60)
    async with app.run_test(size=WIDE) as pilot:
        screen = await settle(pilot)
        prompt = screen.query_one("#prompt", Static)
        assert submitted == [A.END_TURN]  # nothing to build or buy: passed at once

        road = mine.view.topology.path_count - 1
        legal[:] = [A.END_TURN, A.BuildRoad(road), A.BUY_DEVELOPMENT_CARD]
        screen.sync()
        await pilot.pause()
        words = str(prompt.render())
        assert words == "Special building, your turn: build a road (d), buy a card (v), end (e)"
        keys = {k.key for k in screen.query(FooterKey)}
        assert {"d", "v", "e"} <= keys
        assert not {"r", "s", "c", "t", "m", "p"} & keys  # no roll, trade or card play
        await pilot.press("d")
        assert screen.pick is not None and list(screen.pick.labels) == [road]
        await pilot.press(screen.pick.labels[road])
        await pilot.pause()
        assert submitted[-1] == A.BuildRoad(road)


def local_game_at_open_offer() -> SessionGame:
    """A six-seat game paused where a bot's offer to everyone awaits the person, who lacks the
    cards asked for (bots play every seat up to there)."""

    def unmeetable_offer(game: SessionGame) -> bool:
        view = game.view
        return (
            game.human_to_act()
            and view.phase is Phase.TRADE_RESPONSES
            and view.trade is not None
            and view.trade.to == -1
            and A.AnswerTrade(0, True) not in game.legal_actions()
        )

    return five_six_until(unmeetable_offer)[0]


async def test_an_open_offer_you_cannot_meet_is_declined_without_a_toast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a table of six, every bot's open offer would raise a toast over the side panels:
    the decline is written to the log instead."""
    game = local_game_at_open_offer()
    toasts: list[str] = []
    monkeypatch.setattr(
        GameScreen, "notify", lambda self, message, **kwargs: toasts.append(str(message))
    )
    before = len(game.events)
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        screen = await settle(pilot)
        mine = [
            e
            for e in game.events[before:]
            if isinstance(e.action, A.AnswerTrade) and e.action.seat == screen.game.human_seat
        ]
        assert mine and not mine[0].action.accept and mine[0].text.startswith("You decline")
        assert not [t for t in toasts if "lack the cards" in t]
        log = "\n".join(strip.text for strip in screen.query_one(GameLog).lines)
        assert "You decline" in log


@pytest.mark.slow
async def test_a_seafarers_bot_game_runs_to_the_game_over_screen() -> None:
    """A New Shores game (ships, the pirate, gold) drawn on the game screen from start to end
    with bots in every seat: the screen copes with the sea map and the new actions."""
    app = make_app(4, 3, "random", "You", 0, autoplay=True, game="seafarers-new-shores")
    async with app.run_test(size=WIDE) as pilot:
        for _ in range(6000):
            await pilot.pause()
            if isinstance(app.screen, GameOverScreen):
                break
        assert isinstance(app.screen, GameOverScreen)
        game = app.game
        assert game.winner is not None and game.scores()[game.winner].total >= 14
        await pilot.press("q")
    assert app.return_code == 0


class _SlowBot:
    """A bot that thinks (as a searching bot does) until the test lets it go, then plays the
    heuristic bot's move."""

    def __init__(self, seat: int, release: threading.Event) -> None:
        self.inner = make_bot("heuristic", random.Random(seat))
        self.release = release

    def choose(self, view: object, seat: int) -> A.Action:
        self.release.wait(timeout=30.0)
        return self.inner.choose(view, seat)  # type: ignore[arg-type]


async def test_a_thinking_bot_leaves_the_screen_free_and_the_prompt_says_so() -> None:
    app = make_app(2, SEED, "beginner", "You", 0, autoplay=True, strategy="mcts", think=0.5)
    release = threading.Event()
    async with app.run_test(size=WIDE) as pilot:
        game = app.game
        assert isinstance(game, SessionGame)
        assert type(game.bots[1]).__name__ == "MctsBot"
        game.bots = {s: _SlowBot(s, release) for s in game.bots}
        screen = app.game_screen
        screen.kick()
        try:
            for _ in range(400):
                await pilot.pause(0.02)
                if screen.thinking is not None:
                    break
            assert screen.thinking == 1
            prompt = str(screen.query_one("#prompt", Static).render())
            assert "is thinking" in prompt
            # The loop runs while the bot thinks: the test's own pauses, and the screen's work.
            other = "hand" if screen.panel != "hand" else "log"
            screen.action_panel(other)
            for _ in range(400):
                await pilot.pause(0.02)
                if screen.panel == other:
                    break
            assert screen.panel == other
            assert screen.thinking == 1
        finally:
            release.set()


# ----------------------------------------------------------------- keys typed in a burst


async def burst(pilot: Pilot[int], *keys: str) -> None:
    """Post ``keys`` to the app all at once, as a terminal delivers keys typed fast (one read
    holds them all: none is handled before the last is queued), then let the app handle them.
    ``pilot.press`` waits for the app to be idle after each key, which hides a focus change
    that lands only after the keys that follow it."""
    characters = {"plus": "+", "minus": "-", "tab": "\t"}
    for key in keys:
        character = key if len(key) == 1 else characters.get(key)
        pilot.app.post_message(events.Key(key, character))
    for _ in range(len(keys) + 5):
        await pilot.pause()


async def test_a_burst_of_plus_keys_counts_every_key_in_the_trade_dialog() -> None:
    """Seen in tmux: keys typed fast after ↓ in the trade dialog (`Down +++` in one write)
    landed on the counter the focus was leaving: the dialog moved the focus with
    Widget.focus(), which takes effect through call_later, after the keys already queued."""
    game = game_at("trade")
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await burst(pilot, "t", "down", "tab", "down", *["plus"] * 10)
        dialog = app.screen
        assert isinstance(dialog, TradeDialog)
        assert dialog.counts("get") == (0, 10, 0, 0, 0)  # brick: 10, typed on its counter
        await burst(pilot, "up", *["plus"] * 3, "down", "down", *["plus"] * 4)
        assert dialog.counts("get") == (3, 10, 4, 0, 0)


async def test_a_burst_of_plus_keys_counts_every_key_in_the_discard_dialog() -> None:
    """The discard dialog, reopened (x) and typed into in one burst: every key counts, on
    the counter focused first (its focus is set at mount, before any key is handled)."""
    game = discard_game()
    hand = game.view.hands[0]
    app = HexlanApp(game, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, DiscardDialog)
        await burst(pilot, "escape", "x", *["plus"] * 10)
        dialog = app.screen
        assert isinstance(dialog, DiscardDialog)
        first = next(r for r, n in enumerate(hand) if n)
        assert dialog.chosen()[first] == hand[first]  # every key up to the cards held
        await burst(pilot, "escape", "x", "plus", "minus", "plus")
        assert app.screen is not dialog and isinstance(app.screen, DiscardDialog)
        assert app.screen.chosen()[first] == 1
