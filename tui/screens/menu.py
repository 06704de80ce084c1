"""The start menu (`hexlan` with no command; issue 26): play against bots, host a table, join
one, watch, replay a log, settings, quit, by keys or mouse at 80x24 and up.

The menu only chooses: :class:`StartApp` exits with the `hexlan` command line of the choice
(``("play", "--game", "jungle", "--players", "3")``), which the CLI then runs as if typed, so
each command keeps one way in. Enter on the first entry starts the base game against bots, as
`hexlan play` does. Playing or hosting another game opens the game picker: every game with its
one line (its rule set's ``description``) and seat range, then the seats and the bots'
strength, then the board and the game's options as a form (:class:`OptionsForm`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from hexlan.engine.gamespec import OptionValue
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset
from hexlan.i18n import N_, _, ngettext, pgettext, set_language
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.terms import value_words

Command = tuple[str, ...]
"""A `hexlan` command line without the program name."""

ENTRIES: Final = (
    ("play", N_("Play the base game against bots")),
    ("pick-play", N_("Play another game against bots…")),
    ("pick-host", N_("Host a table on this network…")),
    ("join", N_("Join a table (the tables on this network)")),
    ("watch", N_("Watch a table")),
    ("replay", N_("Replay a game log…")),
    ("settings", N_("Settings: your name, the bots' delay, the bell…")),
    ("quit", N_("Quit")),
)
"""The menu's entries: an id and its words (English; shown translated), in order."""
STRATEGIES: Final = (
    ("heuristic", N_("heuristic bots (quick)")),
    ("mcts", N_("search bots (strongest, think a second a move)")),
    ("random", N_("random bots (for a first game)")),
)
"""The bots' strengths: a ``--strategy`` value and its words (English; shown translated)."""


def _catalog_words(text: str) -> str:
    """A game's name or one line, or an option's words, from the engine's data (English: the
    engine cannot mark them), in the language in force when the catalog has them."""
    return _(text)


def _yes_no(value: bool) -> str:
    """A yes/no setting's value in words, as the settings form shows and reads it."""
    return _("yes") if value else _("no")


def _nearest_four(low: int, high: int) -> int:
    """The table size a game defaults to: 4, or the nearest its range allows."""
    return min(max(4, low), high)


class MenuScreen(Screen[None]):
    """The menu's entries in a list; Enter or a click chooses, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,escape", "app.exit", N_("Quit"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """The title, the entries, a hint and the footer."""
        with Vertical(classes="dialog menu-dialog"):
            yield Label("hexlan", classes="dialog-title")
            yield Static(
                _("Settlers of Catan-style games in the terminal, with no trusted server."),
                classes="hint",
            )
            yield OptionList(*(Option(_(words), id=key) for key, words in ENTRIES), id="menu")
            yield Static(_("↑/↓ and Enter, or click · q quits"), classes="hint")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Run the chosen entry: a command at once, or the picker or prompt it needs."""
        app = self.app
        assert isinstance(app, StartApp)
        choice = event.option.id
        if choice == "quit":
            app.exit(None)
        elif choice in ("play", "join", "watch"):
            app.exit((choice,))
        elif choice == "settings":
            app.push_screen(SettingsForm())
        elif choice == "replay":
            app.push_screen(LogPicker(app.log_dir))
        else:  # pick-play, pick-host
            app.push_screen(GamePicker("play" if choice == "pick-play" else "host"))


class GamePicker(ModalScreen[None]):
    """Every game with its one line and seats; then :class:`TablePicker` for the table.

    Args:
        command: "play" or "host".
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self, command: str) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.command = command

    def compose(self) -> ComposeResult:
        """The games, one option each: name and seats, then its line."""
        options = []
        for name in CATAN_GAMES:
            rules = load_ruleset(name)
            head = ngettext(
                "{game}  ({seats} player)", "{game}  ({seats} players)", rules.max_players
            ).format(game=_catalog_words(name), seats=rules.seat_range("-"))
            line = _catalog_words(rules.description) if rules.description else ""
            options.append(Option(f"{head}\n  {line}", id=name))
        title = _("Play: which game?") if self.command == "play" else _("Host: which game?")
        with Vertical(classes="dialog wide-dialog picker-dialog"):
            yield Label(title, classes="dialog-title")
            yield OptionList(*options, id="games")
            yield Static(_("Enter picks · Esc back · docs/rules/ explains each"), classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """The game is chosen: the table's seats and bots next."""
        event.stop()
        assert event.option.id is not None
        self.app.push_screen(TablePicker(self.command, event.option.id))


class TablePicker(ModalScreen[None]):
    """The seats (within the game's range) and, to play, the bots' strength; then
    :class:`OptionsForm` for the board and the options.

    Args:
        command: "play" or "host".
        game: the chosen game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self, command: str, game: str) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.command = command
        self.game = game

    def compose(self) -> ComposeResult:
        """Seat counts, then (to play) the bots, as one list of choices."""
        rules = load_ruleset(self.game)
        low, high = rules.min_players, rules.max_players
        default = _nearest_four(low, high)
        seats = [
            Option(
                (
                    ngettext("{n} player  (default)", "{n} players  (default)", n)
                    if n == default
                    else ngettext("{n} player", "{n} players", n)
                ).format(n=n),
                f"{n}",
            )
            for n in range(low, high + 1)
        ]
        with Vertical(classes="dialog picker-dialog"):
            yield Label(
                _("{game}: how many players?").format(game=_catalog_words(self.game)),
                classes="dialog-title",
            )
            yield OptionList(*seats, id="seats")
            if self.command == "play":
                yield Label(_("and against which bots?"))
                yield OptionList(*(Option(_(w), id=k) for k, w in STRATEGIES), id="bots")
            yield Static(_("Enter picks (then the bots, to play) · Esc back"), classes="hint")

    def on_mount(self) -> None:
        """Start on the default table size."""
        rules = load_ruleset(self.game)
        seats = self.query_one("#seats", OptionList)
        seats.highlighted = _nearest_four(rules.min_players, rules.max_players) - rules.min_players
        seats.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Seats chosen: to host, the options next; to play, the bots, then the options."""
        event.stop()
        seats = self.query_one("#seats", OptionList)
        if event.option_list is seats and self.command == "play":
            self.query_one("#bots", OptionList).focus()
            return
        highlighted = seats.highlighted or 0
        players = str(
            int(self.query_one("#seats", OptionList).get_option_at_index(highlighted).id or 4)
        )
        flag = "--players" if self.command == "play" else "--seats"
        line: Command = (self.command, "--game", self.game, flag, players)
        if self.command == "play":
            strategy = event.option.id
            assert strategy is not None
            line = (*line, "--strategy", strategy)
        self.app.push_screen(OptionsForm(self.game, line))


def _item_value(value: OptionValue) -> str:
    """An option's value as `--option NAME=VALUE` writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _number_text(value: OptionValue) -> str:
    """A number option's value as its line in the form shows it (empty: the rule set's)."""
    return "" if value is None else str(value)


class RuleToggle(Checkbox):
    """A line of the options form that is ticked when it differs from the official rules;
    its label reads the rule in force, and its box is empty when unticked, so it reads in
    monochrome too."""

    BUTTON_INNER = " "

    def watch_value(self) -> None:
        """Tick or clear the box, then as :class:`Checkbox` (the ``-on`` class, Changed)."""
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()


class OptionsForm(ModalScreen[None]):
    """The board and every option of the game as a form; Start exits with the command line,
    which carries only what differs from the defaults (``--board random``, ``--option
    NAME=VALUE``).

    A yes/no option is a :class:`RuleToggle` reading its current value in words, ticked when
    that is not the official rule (Enter, space or a click toggles); the board is one too
    (ticked: a random board) where the map has a beginner board. A number option is a line to
    type in, empty for the rule set's number. Start checks the options as the command line
    does (:attr:`MenuServices.check_options`: :meth:`GameOptions.parse`, then the game's rules);
    a refused value shows its one-line reason and nothing is chosen.

    Args:
        game: the chosen game.
        line: the command line chosen so far (command, game, seats, bots).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("up", "app.focus_previous", N_("Previous"), show=False, priority=True),
        Binding("down", "app.focus_next", N_("Next"), show=False, priority=True),
        Binding("ctrl+s", "start", N_("Start")),
    ]

    def __init__(self, game: str, line: Command) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.game = game
        self.line = line
        rules = load_ruleset(game)
        self.rules = rules
        shared = GameOptions.names()
        defaults = GameOptions()
        self.defaults: dict[str, OptionValue] = {
            name: getattr(defaults, name) if name in shared else defaults.value(name)
            for name in GameOptions.names(rules)
        }

    def _has_beginner(self) -> bool:
        """Whether the game's map has a beginner board (the CLI's default where it has)."""
        return _services(self.app).default_board(self.game) == "beginner"

    def _number_words(self, name: str, text: str) -> str:
        """A number option's line: its words at the typed number, or at the rule set's
        (RuleSet has a field of the option's name for the shared numbers) when empty."""
        text = text.strip()
        if text.isdigit() and int(text) >= 1:
            return _catalog_words(value_words(name, int(text)))
        ruleset_number = getattr(self.rules, name, None)
        if not text and isinstance(ruleset_number, int):
            return _("{words} (the game's)").format(
                words=_catalog_words(value_words(name, ruleset_number))
            )
        return _("{name}: a whole number from 1, empty for the game's").format(name=name)

    def _number_placeholder(self, name: str) -> str:
        """What an empty number line shows: the rule set's number, or "none" (the map's)."""
        ruleset_number = getattr(self.rules, name, None)
        if isinstance(ruleset_number, int):
            return str(ruleset_number)
        return pgettext("number option", "none")

    def compose(self) -> ComposeResult:
        """The board, then a line per option (shared first, then the game's own), the reason
        line and Start."""
        with Vertical(classes="dialog wide-dialog picker-dialog options-dialog"):
            yield Label(
                _("{game}: board and options").format(game=_catalog_words(self.game)),
                classes="dialog-title",
            )
            with VerticalScroll(id="options", can_focus=False):
                if self._has_beginner():
                    yield RuleToggle(_("the beginner board"), id="board", compact=True)
                else:
                    yield Static(_("a random board (the map has no beginner board)"))
                for name, default in self.defaults.items():
                    if isinstance(default, bool):
                        words = _catalog_words(value_words(name, default))
                        yield RuleToggle(words, id=f"opt-{name}", tooltip=name, compact=True)
                        continue
                    with Horizontal(classes="option-row"):
                        yield Input(
                            _number_text(default),
                            placeholder=self._number_placeholder(name),
                            id=f"opt-{name}",
                            tooltip=name,
                            compact=True,
                        )
                        yield Label(self._number_words(name, ""), id=f"words-{name}")
            yield Static("", id="options-status")
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Static(
                _("X marks a change from the official rules · Enter toggles · Esc back"),
                classes="hint",
            )

    def on_mount(self) -> None:
        """Start on Start: Enter plays the official rules at once."""
        self.query_one("#start", Button).focus()

    def _flag(self, name: str) -> bool:
        """The yes/no option ``name`` as the form has it: its default, or not when ticked."""
        default = self.defaults[name]
        return self.query_one(f"#opt-{name}", RuleToggle).value != default

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """A toggled line reads its new value."""
        box = event.checkbox
        if box.id == "board":
            box.label = _("a random board") if box.value else _("the beginner board")
        elif box.id is not None:
            name = box.id.removeprefix("opt-")
            box.label = _catalog_words(value_words(name, self._flag(name)))

    def on_input_changed(self, event: Input.Changed) -> None:
        """A typed number reads in words beside it."""
        name = (event.input.id or "").removeprefix("opt-")
        self.query_one(f"#words-{name}", Label).update(self._number_words(name, event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter on a number moves on."""
        event.stop()
        self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start (Enter on it, or a click)."""
        event.stop()
        self.action_start()

    def items(self) -> list[str]:
        """The form's options that differ from their defaults, as `--option` items."""
        items = []
        for name, default in self.defaults.items():
            if isinstance(default, bool):
                if self._flag(name) != default:
                    items.append(f"{name}={_item_value(self._flag(name))}")
            else:
                text = self.query_one(f"#opt-{name}", Input).value.strip()
                if text != _number_text(default):
                    items.append(f"{name}={text or 'none'}")
        return items

    def action_start(self) -> None:
        """Check the options as the command line does; exit with the command line, or show
        the one-line reason a value is refused and stay."""
        try:
            options = _services(self.app).check_options(self.game, tuple(self.items()))
        except ValueError as exc:
            self.query_one("#options-status", Static).update(str(exc))
            return
        line = self.line
        boards = self.query("#board").results(RuleToggle)
        if any(box.value for box in boards):
            line = (*line, "--board", "random")
        for name, value in options.changed().items():
            line = (*line, "--option", f"{name}={_item_value(value)}")
        self.app.exit(line)


class LogPicker(ModalScreen[None]):
    """A game log to replay: the newest in the logs folder, or any path typed.

    Args:
        folder: where the games' logs are.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", N_("Back"))]
    SHOWN: ClassVar[int] = 8

    def __init__(self, folder: Path) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)
        self.folder = folder

    def recent(self) -> list[Path]:
        """The newest logs in :attr:`folder`, newest first (none when it cannot be read)."""
        try:
            logs = [p for p in self.folder.iterdir() if p.is_file() and ".secrets" not in p.name]
        except OSError:
            return []
        return sorted(logs, key=lambda p: p.stat().st_mtime, reverse=True)[: self.SHOWN]

    def compose(self) -> ComposeResult:
        """The recent logs, a path line and a hint."""
        recent = self.recent()
        with Vertical(classes="dialog wide-dialog picker-dialog"):
            yield Label(_("Replay which game?"), classes="dialog-title")
            if recent:
                yield OptionList(*(Option(p.name, id=str(p)) for p in recent), id="logs")
            else:
                yield Static(
                    _("No logs in {folder} yet.").format(folder=self.folder), classes="hint"
                )
            yield Input(placeholder=_("or type a log's path and Enter"), id="path")
            yield Static(_("Enter replays · Esc back"), classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A recent log is chosen."""
        event.stop()
        assert event.option.id is not None
        self.app.exit(("replay", event.option.id))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed path: replay it (the command says clearly if it is no log)."""
        path = event.value.strip()
        if path:
            self.app.exit(("replay", str(Path(path).expanduser())))


class SettingsForm(ModalScreen[None]):
    """The saved settings as a form (hexlan/settings.py): each line is checked as the command
    line checks its option; Enter on the last line, or ctrl+s, saves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("ctrl+s", "save", N_("Save")),
    ]
    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("name", N_("your name at a table")),
        ("bot_delay", N_("seconds between bot moves, 0 to 10")),
        ("strategy", N_("the bots: random, heuristic or mcts")),
        ("bell", N_("ring when the game waits for you: yes or no")),
        ("title", N_("say so in the terminal's title: yes or no")),
        ("lang", N_("the language: en (English) or ru (Russian)")),
    )
    """Each setting's key and its words (English; shown translated)."""

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        """A labelled line per setting, filled with its saved value."""
        saved = _services(self.app).read_settings()
        with Vertical(classes="dialog wide-dialog picker-dialog"):
            yield Label(_("Settings"), classes="dialog-title")
            for key, words in self.FIELDS:
                value = saved.get(key)
                text = _yes_no(value) if isinstance(value, bool) else value
                yield Input(
                    "" if text is None else str(text),
                    placeholder=_("{key}: {words} (empty: the built-in default)").format(
                        key=key, words=_(words)
                    ),
                    id=f"setting-{key}",
                    compact=True,
                )
            yield Static("", id="settings-status")
            yield Static(_("Enter on the last line or ctrl+s saves · Esc back"), classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves on; on the last line it saves."""
        if event.input.id == f"setting-{self.FIELDS[-1][0]}":
            self.action_save()
        else:
            self.focus_next()

    def action_save(self) -> None:
        """Check every line and save them all, or say which one is refused and save none."""
        services = _services(self.app)
        status = self.query_one("#settings-status", Static)
        values: dict[str, object] = {}
        for key, _words in self.FIELDS:
            text = self.query_one(f"#setting-{key}", Input).value.strip()
            if not text:
                continue
            text = {_yes_no(True): "yes", _yes_no(False): "no"}.get(text.lower(), text)
            try:
                checked = services.check_setting(key, text)
            except ValueError as exc:
                status.update(f"{key}: {exc}")
                return
            # an option that acts at once (--lang sets the language) gives no value: the text
            # it accepted is the setting
            values[key] = text if checked is None else checked
        try:
            where = services.save_settings(values)
        except OSError as exc:
            status.update(_("cannot save the settings: {error}").format(error=exc))
            return
        language = values.get("lang")
        if isinstance(language, str):
            set_language(language)  # the command the menu runs next speaks it
        status.update(_("saved to {path}").format(path=where))


@dataclass(frozen=True, slots=True)
class MenuServices:
    """What the menu asks of the command line, which gives it (the TUI imports no module of
    the command line's layer: tests/test_layers.py), so that the menu checks every value
    exactly as the command line would.

    Attributes:
        check_options: ``check_options(game, items)``: the ``--option NAME=VALUE`` items as the
            game's options; raises ``ValueError`` with the one-line reason a value is refused.
        default_board: ``default_board(game)``: the board a game gets when none is named,
            "beginner" (its map has one) or "random".
        read_settings: the saved settings by key (hexlan/settings.py).
        check_setting: ``check_setting(key, text)``: the typed value of a setting, as its
            option takes it; raises ``ValueError`` with the reason.
        save_settings: ``save_settings(values)`` saves every setting (replacing the file) and
            says where; raises ``OSError``.
    """

    check_options: Callable[[str, tuple[str, ...]], GameOptions]
    default_board: Callable[[str], str]
    read_settings: Callable[[], Mapping[str, object]]
    check_setting: Callable[[str, str], object]
    save_settings: Callable[[Mapping[str, object]], str]


def _services(app: App[object]) -> MenuServices:
    """The services of the menu's app."""
    assert isinstance(app, StartApp)
    return app.services


class StartApp(App[Command | None]):
    """The start menu; exits with the command line of the choice, or None to quit.

    Args:
        log_dir: where the games' logs are (the replay entry lists the newest).
        services: what the menu asks of the command line.
    """

    CSS_PATH = Path(__file__).parent.parent / "app.tcss"
    TITLE = "hexlan"

    def __init__(self, log_dir: Path, services: MenuServices) -> None:
        super().__init__()
        translate_bindings(self)
        self.log_dir = log_dir
        self.services = services

    def on_mount(self) -> None:
        """Show the menu."""
        self.push_screen(MenuScreen())


def run_menu(log_dir: Path, services: MenuServices) -> Command | None:
    """Run the start menu; the command line chosen, or None (quit)."""
    return StartApp(log_dir, services).run()


__all__: Sequence[str] = ("ENTRIES", "Command", "MenuServices", "StartApp", "run_menu")
