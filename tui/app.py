"""The hexlan Textual app: `hexlan play` (one human seat against bots, in this process).

:func:`make_app` builds the app from plain arguments (tests reuse it); :func:`run_play` runs it.
The CLI imports this module lazily, so `hexlan --help` never imports Textual.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider

from hexlan.engine.bots import make_bot
from hexlan.net.local import LocalGame
from hexlan.tui.palette import SEAT_NAMES
from hexlan.tui.screens.game import GameScreen


class GameCommands(Provider):
    """The command palette's game actions: only those legal now."""

    def _commands(self) -> Iterable[tuple[str, str, str, GameScreen]]:
        screen = self.screen
        if not isinstance(screen, GameScreen):
            return []
        return [
            (title, action, help_text, screen)
            for title, action, help_text in screen.legal_commands()
        ]

    async def discover(self) -> Hits:
        """Every command legal now, for the empty palette."""
        for title, action, help_text, screen in self._commands():
            yield DiscoveryHit(title, _runner(screen, action), help=help_text)

    async def search(self, query: str) -> Hits:
        """The legal commands whose title matches ``query``, best first."""
        matcher = self.matcher(query)
        for title, action, help_text, screen in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), _runner(screen, action), help=help_text)


def _runner(screen: GameScreen, action: str) -> Callable[[], Awaitable[None]]:
    """A palette callback that runs ``action`` on the game screen."""

    async def run() -> None:
        await screen.run_action(action)

    return run


class HexlanApp(App[int]):
    """A local game: the human seat against bots."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "hexlan"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {GameCommands}
    """Only the game's commands: the palette is the list of what is legal now."""
    COMMAND_PALETTE_BINDING = "ctrl+p"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, game: LocalGame, bot_delay: float = 0.5, autoplay: bool = False) -> None:
        super().__init__()
        self.game = game
        self.bot_delay = bot_delay
        self.autoplayer = (
            make_bot("heuristic", random.Random(game.seed * 31 + game.human_seat))
            if autoplay
            else None
        )

        self.game_screen = GameScreen(game, bot_delay, self.autoplayer)
        """The table (dialogs and help open over it)."""

    def on_mount(self) -> None:
        """Show the game screen."""
        self.push_screen(self.game_screen)


def make_app(
    players: int = 4,
    seed: int = 0,
    board: str = "beginner",
    name: str = "You",
    bot_delay: float = 0.5,
    *,
    autoplay: bool = False,
) -> HexlanApp:
    """The app for `hexlan play`.

    Args:
        players: seats, 2 .. 4; the person takes seat 0, heuristic bots the others.
        seed: fixes the board (for "random"), the dice, the cards and the bots.
        board: "beginner" or "random".
        name: the person's name in the players panel.
        bot_delay: seconds between bot moves (0: as fast as possible, for tests).
        autoplay: a bot plays the person's seat too (demos and tests).

    Raises:
        ValueError: bad player count or board kind.
    """
    name = (name or "You").strip()[:16] or "You"
    names = [name]
    for colour in SEAT_NAMES[1:players]:
        names.append(f"{colour} bot" if colour.lower() == name.lower() else colour)
    game = LocalGame(players=players, human_seat=0, seed=seed, board=board, names=names)
    return HexlanApp(game, bot_delay=bot_delay, autoplay=autoplay)


def run_play(
    players: int = 4,
    seed: int = 0,
    board: str = "beginner",
    name: str = "You",
    bot_delay: float = 0.5,
) -> int:
    """Run `hexlan play` until the person quits; the process exit code (0)."""
    app = make_app(players, seed, board, name, bot_delay)
    app.run()
    return app.return_code or 0
