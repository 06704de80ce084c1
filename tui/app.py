"""The hexlan Textual apps: `hexlan play` (one person against bots, every seat a session in
this process) and `hexlan host` / `hexlan join` (a lobby, then the same game screens over the
network).

:func:`make_app` and :func:`make_net_app` build the apps from plain arguments (tests reuse them);
:func:`run_play`, :func:`run_host` and :func:`run_join` run them. The CLI imports this module
lazily, so `hexlan --help` never imports Textual.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

from hexlan.engine.bots import DEFAULT_THINK, Bot, make_bot
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.core import Seat
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import state_spec
from hexlan.i18n import _
from hexlan.net.client import GameClient, SessionGame, WatchGame
from hexlan.tui.palette import SEAT_NAMES
from hexlan.tui.screens.game import GameScreen
from hexlan.tui.screens.lobby import HostScreen, JoinScreen, NetOptions, NetScreen, stop_processes
from hexlan.tui.screens.watch import WatchLobbyScreen, WatchScreen
from hexlan.tui.slots import OWN_TABLES, OwnTable
from hexlan.tui.turn_notice import TurnNotice

if TYPE_CHECKING:
    from hexlan.net.peer import Peer
    from hexlan.net.replay import Replayer
    from hexlan.net.watch import Spectator, WatchEvent
    from hexlan.net.wire import Opening


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


class TableApp(App[int]):
    """What every hexlan app shares: the styles, the command palette, the game screen.

    Attributes:
        game: the game client, once the game has begun.
        game_screen: the table (dialogs and help open over it), once the game has begun.
    """

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "hexlan"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {GameCommands}
    """Only the game's commands: the palette is the list of what is legal now."""
    COMMAND_PALETTE_BINDING = "ctrl+p"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    game: GameClient
    game_screen: GameScreen

    def __init__(
        self, bot_delay: float = 0.5, autoplay: bool = False, notice: TurnNotice | None = None
    ) -> None:
        super().__init__()
        self.bot_delay = bot_delay
        self.autoplay = autoplay
        self.notice = TurnNotice() if notice is None else notice
        """The bell and the terminal title when the game comes to wait for the person."""

    def _table_for(self, game: GameClient) -> GameScreen:
        self.game = game
        autoplayer: Bot | None = None
        if self.autoplay:
            seed = game.seed
            rng = random.Random(seed * 31 + game.human_seat if seed is not None else None)
            autoplayer = make_bot("heuristic", rng)
        self.game_screen = GameScreen(game, self.bot_delay, autoplayer, self.notice)
        return self.game_screen

    def start_game(self, game: GameClient) -> None:
        """Show the table for ``game`` (in place of a lobby screen)."""
        self.show_table(self._table_for(game))

    def show_table(self, screen: Screen[Any]) -> None:
        """Show the game's table ``screen`` in place of a lobby screen (the screen of a game
        with a state of its own comes from its TUI modules)."""
        if isinstance(self.screen, NetScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def on_unmount(self) -> None:
        """Close the game's log."""
        game = getattr(self, "game", None)
        if game is not None:
            game.close()


@dataclass(frozen=True, slots=True)
class PlayTable:
    """What a `hexlan play` table is made of, to make it again for a rematch: the
    :class:`~hexlan.net.client.SessionGame` arguments.

    Attributes:
        names, bots: one per seat, in seat order (the person's bot name is never played).
        human_seat: the person's seat.
        seed: the game's seed, or None for a fair game.
        board, game, options, think, log_dir, save_log: as :func:`make_app` takes them.
    """

    names: tuple[str, ...]
    bots: tuple[str, ...]
    human_seat: Seat
    seed: int | None
    board: str
    game: str
    options: GameOptions | None
    think: float
    log_dir: str | Path | None
    save_log: bool

    def session_game(self) -> SessionGame:
        """A new game at this table (fresh keys, so a new game id).

        Raises:
            ValueError: as :class:`~hexlan.net.client.SessionGame`.
        """
        return SessionGame(
            players=len(self.names),
            seed=self.seed,
            board=self.board,
            names=self.names,
            bots=self.bots,
            options=self.options,
            human_seat=self.human_seat,
            log_dir=self.log_dir,
            save_log=self.save_log,
            game=self.game,
            think=self.think,
            farewell=_("good game"),
        )

    def rematch(self) -> PlayTable:
        """The same table for the next game, every seat moved on one place (the last seat
        becomes the first), and the next seed of a seeded game."""
        return replace(
            self,
            names=(self.names[-1], *self.names[:-1]),
            bots=(self.bots[-1], *self.bots[:-1]),
            human_seat=(self.human_seat + 1) % len(self.names),
            seed=None if self.seed is None else self.seed + 1,
        )


class HexlanApp(TableApp):
    """`hexlan play`: the person against bots, every seat a session in this process.

    Args:
        game: the game.
        table: what the table is made of, for a rematch (None: no rematch is offered).
    """

    def __init__(
        self,
        game: GameClient,
        bot_delay: float = 0.5,
        autoplay: bool = False,
        notice: TurnNotice | None = None,
        table: PlayTable | None = None,
    ) -> None:
        super().__init__(bot_delay, autoplay, notice)
        self.table = table
        self._table_for(game)

    def on_mount(self) -> None:
        """Show the game screen."""
        self.push_screen(self.game_screen)

    @property
    def can_rematch(self) -> bool:
        """Whether the game-over screen offers to play again."""
        return self.table is not None

    def action_rematch(self) -> None:
        """Play again at the same table (:meth:`PlayTable.rematch`): the old game's log is
        closed, the new game's table replaces the old one."""
        if self.table is None:
            return
        self.table = self.table.rematch()
        old = self.game
        game = self.table.session_game()
        old.close()
        self.switch_screen(self._table_for(game))


class NetApp(TableApp):
    """`hexlan host` / `hexlan join`: the lobby, then the game.

    Args:
        options: what the command was given.
        host: True to host a table, False to join one.
        bot_delay: seconds between moves when ``autoplay`` plays the person's seat.
        autoplay: a bot plays the person's seat too (demos and tests).
    """

    def __init__(
        self,
        options: NetOptions,
        host: bool,
        bot_delay: float = 0.5,
        autoplay: bool = False,
        notice: TurnNotice | None = None,
    ) -> None:
        super().__init__(bot_delay, autoplay, notice)
        self.options = options
        self.hosting = host
        self.bot_processes: list[subprocess.Popen[bytes]] = []
        """`hexlan bot` processes the host started (ended when the app exits)."""
        self.last_table: tuple[Opening, int, str | None] | None = None
        """The game being played: its opening, the person's seat and, for a joiner, the
        table's ``HOST:PORT`` (set when its peer starts), for a rematch."""
        self.games = 1
        """Games played at this table, this one included (a rematch's log is ``LOG-N``)."""

    @property
    def can_rematch(self) -> bool:
        """Whether the game-over screen offers to play again: the game was won (PROTOCOL.md
        §3, Rematch: the table plays again once it is audited)."""
        game = getattr(self, "game", None)
        return self.last_table is not None and game is not None and game.winner is not None

    def action_rematch(self) -> None:
        """Play again at the same table (PROTOCOL.md §3, Rematch): the host reopens its table
        for the last game's seats; a joiner votes to play again and takes its place. The
        lobby screen replaces the table and waits for the last game's peer to finish."""
        if not self.can_rematch or self.last_table is None:
            return
        from hexlan.net.client import rematch_log_path  # noqa: PLC0415

        opening, seat, address = self.last_table
        self.games += 1
        options = self.options
        if options.log_path is not None:
            options = replace(options, log_path=rematch_log_path(options.log_path, self.games))
        last = (opening, seat)
        if self.hosting:
            self.switch_screen(HostScreen(options, rematch_of=last))
        else:
            self.switch_screen(JoinScreen(replace(options, address=address), rematch_of=last))

    def on_mount(self) -> None:
        """Show the lobby."""
        self.push_screen(HostScreen(self.options) if self.hosting else JoinScreen(self.options))

    def on_unmount(self) -> None:
        """End the bots this app started (after a short wait when the game is over, so their
        last messages are out)."""
        super().on_unmount()
        game = getattr(self, "game", None)
        over = game is not None and game.is_over
        stop_processes(self.bot_processes, grace=3.0 if over else 0.0)


class ResumeApp(TableApp):
    """`hexlan resume LOG` for a person's seat: the peer rebuilt from its log, back at the
    table; it reconnects and catches up from the other seats.

    Args:
        peer: the resumed peer (:meth:`hexlan.net.peer.Peer.resume`).
    """

    def __init__(self, peer: Peer, bot_delay: float = 0.5) -> None:
        super().__init__(bot_delay)
        self.peer = peer

    def on_mount(self) -> None:
        """Show the table and run the peer on the app's loop."""
        from hexlan.net.client import NetworkGame  # noqa: PLC0415
        from hexlan.net.peer import PeerError  # noqa: PLC0415

        game = NetworkGame(self.peer)
        self.push_screen(self._table_for(game))

        async def run() -> None:
            try:
                await self.peer.run()
            except PeerError as exc:
                self.notify(exc.reason, title="The game cannot run", severity="error", timeout=30)

        self.run_worker(run(), name="peer", group="peer", exit_on_error=False)


class WatchApp(App[int]):
    """`hexlan watch`: find a table, then follow its game as a spectator, read-only
    (docs/PROTOCOL.md §17).

    Args:
        options: the spectator's name and identity file, and ``address`` (``HOST:PORT``;
            None lists the tables on the LAN).
    """

    CSS_PATH = TableApp.CSS_PATH
    TITLE = "hexlan watch"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = set()
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, options: NetOptions) -> None:
        super().__init__()
        self.options = options
        self.spectator: Spectator | None = None
        self.game: GameClient | None = None
        self.lobby: WatchLobbyScreen | None = None

    def on_mount(self) -> None:
        """Show the table finder (or dial the address given)."""
        self.lobby = WatchLobbyScreen(self.options)
        self.push_screen(self.lobby)

    def watch_table(self, host: str, port: int, fingerprint: str | None) -> None:
        """Run a spectator of the table at ``host:port`` on the app's loop."""
        from hexlan.net.identity import (  # noqa: PLC0415
            Identity,
            IdentityError,
            default_identity_path,
        )
        from hexlan.net.watch import Spectator, WatchError  # noqa: PLC0415

        lobby = self.lobby
        try:
            identity = Identity.load_or_create(
                Path(self.options.identity_path or default_identity_path())
            )
        except (IdentityError, OSError) as exc:
            if lobby is not None:
                lobby.say(f"Cannot load your identity: {exc}", error=True)
            return
        spectator = Spectator(
            identity,
            self.options.name,
            host,
            port,
            host_fingerprint=fingerprint,
            on_event=self._hear,
        )
        self.spectator = spectator

        async def run() -> None:
            try:
                await spectator.run()
            except WatchError as exc:
                if self.game is None and lobby is not None and lobby.is_attached:
                    lobby.watch_failed(exc.reason)
                else:
                    self.notify(exc.reason, title="Watching stopped", severity="error", timeout=30)

        self.run_worker(run(), name="spectator", group="spectator", exit_on_error=False)

    def _hear(self, event: WatchEvent) -> None:
        """The spectator's news: the lobby until the opening, then the game."""
        spectator = self.spectator
        if spectator is None:
            return
        game = self.game
        lobby = self.lobby
        if isinstance(game, WatchGame):
            game.hear(event)
            if game.is_started and lobby is not None:  # every seat signed: the board is known
                self.lobby = None
                self.switch_screen(WatchScreen(game))
            return
        if event.kind == "opening":
            self.game = WatchGame(spectator)
            if lobby is not None and lobby.is_attached:
                lobby.say("The game starts: every seat signs the opening…")
        elif lobby is None or not lobby.is_attached:
            return
        elif event.kind in ("table", "spectators") and spectator.table is not None:
            lobby.show_table(replace(spectator.table, spectators=spectator.spectators))
        elif event.kind == "link":
            lobby.say(event.text[:1].upper() + event.text[1:])


def run_watch(options: NetOptions) -> int:
    """Run `hexlan watch` until the person quits; the process exit code (0)."""
    app = WatchApp(options)
    app.run()
    return app.return_code or 0


def run_resume(log: Path, identity: Path | None) -> int:
    """Run `hexlan resume LOG` for a person's seat until they quit; the exit code (2 when the
    log cannot be resumed, with the reason on stderr)."""
    from hexlan.net.peer import Peer, PeerError  # noqa: PLC0415

    try:
        peer = Peer.resume(log, identity)
    except PeerError as exc:
        print(f"hexlan resume: {exc.reason}", file=sys.stderr)
        return 2
    app = ResumeApp(peer)
    app.run()
    return app.return_code or 0


class ReplayApp(App[int]):
    """`hexlan replay LOG`: the replay screen over a log's timeline.

    Args:
        replay: the cursor on the log (:class:`hexlan.net.replay.Replayer`).
    """

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "hexlan replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False)
    ]

    def __init__(self, replay: Replayer) -> None:
        super().__init__()
        self.replay = replay

    def on_mount(self) -> None:
        """Show the replay."""
        from hexlan.tui.screens.replay import ReplayScreen  # noqa: PLC0415

        self.push_screen(ReplayScreen(self.replay))


def run_replay(replay: Replayer) -> int:
    """Run `hexlan replay LOG` until the person quits; the process exit code (0)."""
    app = ReplayApp(replay)
    app.run()
    return app.return_code or 0


def _seat_names(name: str, players: int) -> list[str]:
    """The person's name (cut to 16 characters; "You" when blank), then each bot's colour
    (``"Blue bot"`` where the person took that colour's name)."""
    name = (name or "You").strip()[:16] or "You"
    names = [name]
    for colour in SEAT_NAMES[1:players]:
        names.append(f"{colour} bot" if colour.lower() == name.lower() else colour)
    return names


def make_app(
    players: int = 4,
    seed: int | None = 0,
    board: str = "beginner",
    name: str = "You",
    bot_delay: float = 0.5,
    *,
    autoplay: bool = False,
    log_dir: str | Path | None = None,
    save_log: bool = True,
    game: str = "base",
    strategy: str = "heuristic",
    think: float = DEFAULT_THINK,
    options: GameOptions | None = None,
    bell: bool = True,
    title: bool = True,
) -> HexlanApp:
    """The app for `hexlan play`.

    Args:
        players: seats, within the game's range; the person takes seat 0, heuristic bots the
            others.
        seed: fixes the board (for "random"), the dice, the cards and the bots (a game that
            is not fair, and its log says so); None plays a fair game with fresh keys.
        board: "beginner" or "random".
        name: the person's name in the players panel.
        bot_delay: seconds between bot moves (0: as fast as possible, for tests).
        autoplay: a bot plays the person's seat too (demos and tests).
        log_dir: where the game's log is written (default: the user's log directory).
        save_log: False keeps no log.
        game: the game's name (seeds/<game>.toml).
        strategy: the bots' kind (a name of :data:`hexlan.engine.bots.BOTS`).
        think: seconds a searching bot may take per decision (it thinks off the UI's loop).
        options: the game options (default: the official rules).
        bell, title: the turn notice's bell and terminal title
            (:class:`~hexlan.tui.turn_notice.TurnNotice`).

    Raises:
        ValueError: an unknown game, a bad player count or board kind, an unknown bot.
    """
    table = PlayTable(
        names=tuple(_seat_names(name, players)),
        bots=(strategy,) * players,
        human_seat=0,
        seed=seed,
        board=board,
        game=game,
        options=options,
        think=think,
        log_dir=log_dir,
        save_log=save_log,
    )
    return HexlanApp(
        table.session_game(),
        bot_delay=bot_delay,
        autoplay=autoplay,
        notice=TurnNotice(bell=bell, title=title),
        table=table,
    )


class OwnGameApp(App[int]):
    """`hexlan play` of a game with a state of its own: the table its TUI modules register
    (:data:`~hexlan.tui.slots.OWN_TABLES`), with the app's styles.

    Args:
        table: what the table is made of.

    Raises:
        ValueError: no TUI module of the game registers a table.
    """

    CSS_PATH = TableApp.CSS_PATH
    TITLE = "hexlan"

    def __init__(self, table: OwnTable) -> None:
        super().__init__()
        spec = state_spec(table.game)
        factory = None if spec is None else OWN_TABLES.of(spec.name)
        if factory is None:
            raise ValueError(f"the {table.game} game has no table to play at")
        self.table_screen = factory(table)

    def on_mount(self) -> None:
        """Show the table."""
        self.push_screen(self.table_screen)


def run_play(
    players: int = 4,
    seed: int | None = None,
    board: str = "beginner",
    name: str = "You",
    bot_delay: float = 0.5,
    game: str = "base",
    strategy: str = "heuristic",
    think: float = DEFAULT_THINK,
    options: GameOptions | None = None,
    bell: bool = True,
    title: bool = True,
    own_bot: Callable[[random.Random], object] | None = None,
) -> int:
    """Run `hexlan play` until the person quits; the process exit code (0).

    A game with a state of its own plays at its own table (:class:`OwnGameApp`), its bots
    made by ``own_bot`` (the random bot when None).
    """
    if state_spec(game) is not None:
        names = tuple(_seat_names(name, players))
        bot = RandomBot if own_bot is None else own_bot
        own = OwnGameApp(OwnTable(game, names, seed, options, bot, bot_delay))
        own.run()
        return own.return_code or 0
    app = make_app(
        players,
        seed,
        board,
        name,
        bot_delay,
        game=game,
        strategy=strategy,
        think=think,
        options=options,
        bell=bell,
        title=title,
    )
    app.run()
    return app.return_code or 0


def make_net_app(
    options: NetOptions, host: bool, *, bot_delay: float = 0.5, autoplay: bool = False
) -> NetApp:
    """The app for `hexlan host` (``host`` True) or `hexlan join`."""
    notice = TurnNotice(bell=options.bell, title=options.title)
    return NetApp(options, host, bot_delay=bot_delay, autoplay=autoplay, notice=notice)


def run_host(options: NetOptions) -> int:
    """Run `hexlan host` until the person quits; the process exit code (0)."""
    app = make_net_app(options, host=True)
    app.run()
    return app.return_code or 0


def run_join(options: NetOptions) -> int:
    """Run `hexlan join` until the person quits; the process exit code (0)."""
    app = make_net_app(options, host=False)
    app.run()
    return app.return_code or 0
