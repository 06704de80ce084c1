"""The screens around the table in Russian (issue 27): the start menu and its pickers and
forms, the lobby and the LAN lists (to join, to watch), the rules page, the replay and its statistics, and
Landnám's table, each at 80x24 and 120x40, with no English word left on screen
(tests/latin_scan.py) and nothing cut off.

Words that other parts of hexlan draw on these screens (a game's one line and an option's words
from the engine's data, the table's terms, the narration of the log, the status widgets) are
allowed only while their catalog lacks them: :func:`untranslated` gives the Latin words of such
a text as it reads in Russian now, so the allowance shrinks to nothing once those texts are
translated.
"""

from __future__ import annotations

import io
import random
import re
import socket
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from bot_games import write_log
from latin_scan import latin_on_screen, latin_words, screen_text
from rich.console import Console
from test_tui_landnam import _at_the_table, _screen
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Input, Markdown, MarkdownViewer, Static, Tab

from hexlan.cli import menu_services
from hexlan.engine.bots import make_bot
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset
from hexlan.i18n import _, set_language
from hexlan.net.inproc import InProcessTable
from hexlan.net.replay import Replayer, Timeline, read_timeline
from hexlan.net.summary import summarize
from hexlan.tui.app import OwnGameApp, ReplayApp, WatchApp, make_net_app
from hexlan.tui.screens.lobby import HostScreen, JoinScreen, NetOptions
from hexlan.tui.screens.menu import (
    ENTRIES,
    STRATEGIES,
    GamePicker,
    OptionsForm,
    SettingsForm,
    StartApp,
    TablePicker,
)
from hexlan.tui.screens.replay import ReplayScreen
from hexlan.tui.screens.rules import RulesScreen, marked_rules
from hexlan.tui.screens.stats import StatsScreen
from hexlan.tui.screens.watch import WatchLobbyScreen
from hexlan.tui.slots import OwnTable
from hexlan.tui.terms import table_words, value_words
from hexlan.tui.widgets.status import phase_words

SIZES = [(80, 24), (120, 40)]
APP_KEYS = {"Quit", "palette"}
"""The words of the keys tui/app.py's apps bind themselves (another part of issue 27's work)."""
NAMES = ("Ann", "Bob", "Cy", "Di")


@pytest.fixture(autouse=True)
def russian() -> None:
    """Every test here speaks Russian (conftest sets English again after it)."""
    set_language("ru")


def untranslated(texts: Iterable[str]) -> set[str]:
    """The Latin words of ``texts`` (drawn by other parts of hexlan, as they read now in
    Russian): allowed on a screen until their catalog entries land."""
    return {word for text in texts for word in latin_words(text)}


def clipped(words: Iterable[str]) -> set[str]:
    """``words`` and what of them shows beside a dialog drawn over them (the screen under a
    modal shows around it: each word's beginnings and ends)."""
    return {w[:i] for w in words for i in range(2, len(w) + 1)} | {
        w[i:] for w in words for i in range(len(w) - 1)
    }


def drawn(widget: Widget) -> str:
    """What ``widget`` draws (its renderable, a text, a table...), as plain text."""
    console = Console(width=200, file=io.StringIO(), color_system=None)
    console.print(widget.render())
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def shown(app: App[Any]) -> str:
    """The screen's text with its spaces as spaces (to find a whole line in it)."""
    return " ".join(screen_text(app).replace("\xa0", " ").split())


def whole(app: App[Any], *lines: str) -> None:
    """Each of ``lines`` is on the screen in full (not cut, not wrapped)."""
    text = shown(app)
    for line in lines:
        assert " ".join(line.split()) in text, line


def option_texts(game: str) -> set[str]:
    """The engine's words for ``game`` the menu shows: its name, its one line, and each
    option's words at its default (and, for a number, at the rule set's)."""
    rules = load_ruleset(game)
    texts = {game, rules.description}
    defaults = GameOptions()
    for name in GameOptions.names(rules):
        value = getattr(defaults, name) if name in GameOptions.names() else defaults.value(name)
        if isinstance(value, bool):
            texts |= {value_words(name, value), value_words(name, not value)}
        number = getattr(rules, name, None)
        if isinstance(number, int) and not isinstance(number, bool):
            texts.add(value_words(name, number))
    return texts


@pytest.mark.parametrize("size", SIZES)
async def test_the_start_menu_pickers_and_options_form_speak_russian(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert latin_on_screen(app) == []
        whole(app, *(_(words) for _key, words in ENTRIES))
        assert "Выход" in shown(app)  # the footer's key, translated
        await pilot.press("down", "enter")  # another game against bots: the game picker
        await pilot.pause()
        assert isinstance(app.screen, GamePicker)
        engine_words = untranslated(_(text) for game in CATAN_GAMES for text in option_texts(game))
        assert latin_on_screen(app, allowed={"docs", "rules", *engine_words}) == []
        whole(app, "Игра с ботами: какая игра?", "base (2-4 игрока)")
        await pilot.press("enter")  # the base game: the table picker
        await pilot.pause()
        assert isinstance(app.screen, TablePicker)
        assert latin_on_screen(app, allowed={"base", "docs", "rules", *clipped(engine_words)}) == []
        whole(app, "base: сколько игроков?", "4 игрока (по умолчанию)", "2 игрока")
        whole(app, *(_(words) for _key, words in STRATEGIES))
        await pilot.press("enter", "enter")  # 4 players, the heuristic bots: the options
        await pilot.pause()
        form = app.screen
        assert isinstance(form, OptionsForm)
        assert latin_on_screen(app, allowed={"base", *untranslated(option_texts("base"))}) == []
        whole(app, "base: поле и правила", "Начать")
        whole(app, "X — изменение официальных правил · Enter — переключить · Esc — назад")
        assert form.query_one("#start").region.bottom <= size[1]


@pytest.mark.parametrize("size", SIZES)
async def test_the_settings_form_speaks_russian_and_saves_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    saved = tmp_path / "config" / "hexlan" / "settings.toml"
    app = StartApp(tmp_path, menu_services())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press(*["down"] * 6, "enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, SettingsForm)
        keys = {"name", "bot", "delay", "strategy", "bell", "title", "lang"}
        values = {"random", "heuristic", "mcts", "en", "ru"}  # as the command line takes them
        assert latin_on_screen(app, allowed=clipped(keys | values)) == []
        whole(app, "Настройки", "Enter на последней строке или ctrl+s — сохранить · Esc — назад")
        whole(app, "lang: язык: en (английский) или ru (русский) (пусто: по умолчанию)")
        form.query_one("#setting-bell", Input).value = "нет"  # yes/no in the words shown
        form.query_one("#setting-lang", Input).value = "ru"
        await pilot.press("ctrl+s")
        await pilot.pause()
        status = str(form.query_one("#settings-status", Static).render())
        assert status.startswith("сохранено в ")
        assert form.query_one("#settings-status").region.bottom < size[1]
    assert tomllib.loads(saved.read_text()) == {"bell": False, "lang": "ru"}


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _wait(pilot: Pilot[Any], condition: Any, turns: int = 400) -> None:
    for _i in range(turns):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the condition never held")


@pytest.mark.parametrize("size", SIZES)
async def test_the_lobby_and_the_lan_lists_speak_russian(
    data_dir: Path, size: tuple[int, int]
) -> None:
    host = NetOptions(
        name="Ann",
        identity_path=data_dir / "ann.pem",
        port=0,
        seats=3,
        announce=False,
        discovery_port=_free_udp_port(),
    )
    app = make_net_app(host, host=True, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        lobby = app.screen
        assert isinstance(lobby, HostScreen)
        status = lobby.query_one("#lobby-status", Static)
        await _wait(pilot, lambda: "Ждём ещё" in str(status.render()))
        terms = untranslated(table_words("base", "beginner", 3, GameOptions()))
        fingerprint = str(lobby.query_one("#seats", DataTable).get_row_at(0)[1])
        allowed = {"Ann", "join", *terms, *latin_words(fingerprint), *APP_KEYS}
        assert latin_on_screen(app, allowed=allowed) == []
        whole(app, "hexlan: стол игрока Ann", "Ждём ещё 2 игроков")
        whole(app, "Сверьте отпечатки с игроками вслух: отпечаток однозначно указывает на ключ.")
        await pilot.press("ctrl+q")
    listing = NetOptions(name="Jo", identity_path=data_dir / "jo.pem")
    listing.discovery_port = _free_udp_port()
    app = make_net_app(listing, host=False, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        lobby = app.screen
        assert isinstance(lobby, JoinScreen)
        status = lobby.query_one("#lobby-status", Static)
        await _wait(pilot, lambda: "Ищем столы" in str(status.render()))
        assert latin_on_screen(app, allowed=APP_KEYS) == []
        whole(app, "hexlan: сесть за стол", "отпечаток хозяина", "или введите АДРЕС:ПОРТ и Enter")
        port = listing.discovery_port
        whole(app, f"Ищем столы в локальной сети (UDP {port})…")
    app = WatchApp(listing)  # `hexlan watch`: the same list, titled for watching
    async with app.run_test(size=size) as pilot:
        status = app.screen.query_one("#lobby-status", Static)
        await _wait(pilot, lambda: "Ищем столы" in str(status.render()))
        assert isinstance(app.screen, WatchLobbyScreen)
        assert latin_on_screen(app, allowed=APP_KEYS) == []
        whole(app, "hexlan: смотреть игру", "отпечаток хозяина")


def page_names(page: str) -> set[str]:
    """The Latin of a Russian rules page that is not words to translate: its code (option
    names, actions, phases, files in backquotes), the paths of files, and the names of the
    seeds and of the programs it compares."""
    code = re.findall(r"`([^`]*)`", page)
    paths = re.findall(r"[\w./-]+\.(?:md|py|txt|toml)\b|\w+/[\w./-]*", page)
    programs = {
        "seed",
        "Seed",
        "JSettlers",
        "Catanatron",
        "PyPI",
        "AlphaBetaPlayer",
        "ValueFunctionPlayer",
    }
    return {*latin_words(" ".join([*code, *paths])), *programs}


@pytest.mark.parametrize("size", SIZES)
async def test_the_rules_page_is_the_russian_one(size: tuple[int, int]) -> None:
    rules = load_ruleset("base")

    class RulesApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(RulesScreen(rules, GameOptions()))

    app = RulesApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        source = screen.query_one(MarkdownViewer).query_one(Markdown).source
        assert "# Правила базовой игры" in source and "Разбойник" in source
        assert source.startswith("**За этим столом:** официальные правила")
        assert latin_on_screen(app, allowed={"base", *page_names(source)}) == []
        whole(app, "Правила: base", "Esc — закрыть · t — оглавление · ↑/↓ PgUp/PgDn — прокрутка")


def test_the_russian_base_page_is_all_russian() -> None:
    """Beyond code, files and names, the base game's Russian page has no English left; and it
    has every section of the English page (the same headings, one for one)."""
    russian = (Path(__file__).parent.parent / "docs" / "rules" / "ru" / "base.md").read_text()
    english = (Path(__file__).parent.parent / "docs" / "rules" / "base.md").read_text()
    assert latin_words(russian, allowed=page_names(russian)) == []
    headings = [re.findall(r"^#+ ", page, re.M) for page in (russian, english)]
    assert headings[0] == headings[1]
    assert russian.count("\n|") == english.count("\n|")  # every table row


def test_a_game_without_a_russian_page_shows_the_english_one_and_says_so() -> None:
    page = marked_rules(load_ruleset("jungle"), GameOptions())
    note = "*Эта страница ещё не переведена: ниже правила на английском.*"
    assert note in page and "Jungle" in page.split(note)[1]


@pytest.fixture(scope="module")
def timeline(tmp_path_factory: pytest.TempPathFactory) -> Timeline:
    """A real log: four heuristic bots play an in-process table to the end and the audit;
    seat 0's log, read."""
    table = InProcessTable(list(NAMES), seed=5)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(len(NAMES))]
    table.start()
    for _i in range(20_000):
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            break
        view = table.sessions[seat].view
        assert view is not None
        table.submit(seat, bots[seat].choose(view, seat))
    assert all(s.done for s in table.sessions)
    log = tmp_path_factory.mktemp("russian") / "seat0.hexlan"
    return read_timeline(write_log(log, table.opening.to_payload(), table.logs[0]))


def _foreign(screen: ReplayScreen, replay: Replayer) -> set[str]:
    """The untranslated words of what the replay shows from other parts' widgets (the game
    screen's): the board, the players, the hands, the log, the dice chart, the tabs, the
    phase, and how the log ends (net's words)."""
    return untranslated(
        [
            *screen.board.rendered_lines(),
            *(drawn(screen.query_one(w)) for w in ("#players", "#hand", "#dice")),
            *(event.text for event in replay.events),
            *(tab.label.plain for tab in screen.query(Tab)),
            phase_words(replay.view.phase),
            replay.timeline.ending,
        ]
    )


@pytest.mark.parametrize("size", SIZES)
async def test_the_replay_and_its_statistics_speak_russian(
    timeline: Timeline, size: tuple[int, int]
) -> None:
    replay = Replayer(timeline)
    app = ReplayApp(replay)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for _i in range(3):
            await pilot.press("n")
        await pilot.pause()
        foreign = _foreign(screen, replay)
        assert latin_on_screen(app, allowed={*NAMES, *clipped(foreign), *APP_KEYS}) == []
        status = str(screen.query_one("#status", Static).render())
        assert status.startswith(f"Шаг {replay.position}/") and "ход 3/" in status
        assert "…" not in status  # the status line is not cut
        whole(app, "Вперёд", "К ходу", "Все карты", "Итоги", "Выход")  # the keys, none cut
        await pilot.press("end")
        foreign = _foreign(screen, replay)
        await pilot.press("s")
        await pilot.pause(0.3)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        under = clipped(foreign | untranslated([timeline.ending]))  # the replay shows around it
        assert latin_on_screen(app, allowed={*NAMES, *under, *APP_KEYS}) == []
        whole(app, "Esc — закрыть · ↑/↓ — прокрутка")
        whole(app, "игрок расст. доход", "всего", "потери")  # the cards table's head, not cut
        assert "…" not in shown(app).split("ход ")[-1]  # nor its names and figures
    summary = summarize(timeline)
    assert summary.dice.total and summary.awards  # the figures the screen words are there


@pytest.mark.parametrize("size", SIZES)
async def test_landnams_table_speaks_russian(size: tuple[int, int]) -> None:
    names = ("You", "Blue", "Green")
    app = OwnGameApp(OwnTable("landnam", names, 3, None, RandomBot, 0, save_log=False))
    async with app.run_test(size=size) as pilot:
        await _at_the_table(pilot, app)
        screen = _screen(app)
        told = untranslated(event.text for event in screen.client.events)  # net's tellers
        assert latin_on_screen(app, allowed={*names, *told, *APP_KEYS}) == []
        whole(app, "Гексы", "Метки", "Гавани", "Ваш ход: клавиши внизу (? — помощь)")
        await pilot.press("question_mark")
        await pilot.pause()
        assert latin_on_screen(app, allowed=clipped({*names, *told, *APP_KEYS})) == []
        whole(app, "Ландинам: клавиши и правила", "r — правила · Esc — закрыть")
        help_lines = str(app.screen.query_one("VerticalScroll Static", Static).render())
        assert "бросить кости урожая" in help_lines and "выбор" in help_lines
