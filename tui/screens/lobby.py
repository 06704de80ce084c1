"""The screens before a networked game: hosting a table, finding and joining one.

- :class:`HostScreen` (`hexlan host`): holds the table (net/lobby.py :func:`host_table`), starts
  the host's ``--bots`` as `hexlan bot --join ADDRESS:PORT` processes (this machine's LAN
  address, so players on other machines can reach them), and shows the seats
  (names, colours, fingerprints) as they fill, and the table's terms (game, board, seats,
  options). The game starts when the table is full.
- :class:`JoinScreen` (`hexlan join`): lists the tables heard on the LAN (net/discovery.py
  :class:`~hexlan.net.discovery.Listener`, refreshed every second) and joins the one chosen, or
  joins ``HOST:PORT`` directly; then shows the table as the host announces it: the seats and
  the terms it plays (game, board, seats and every option off the official rules), while it
  waits for the table to fill; Esc gives the seat up (terms not wanted) and goes back.

Both then run the person's :class:`~hexlan.net.peer.Peer` on the app's event loop and hand a
:class:`~hexlan.net.client.NetworkGame` to the app once every seat has signed the opening; the
game is played in the same screens as `hexlan play`.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Label, Static

from hexlan.engine.options import GameOptions
from hexlan.i18n import N_, _, ngettext
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.terms import table_words

if TYPE_CHECKING:
    from hexlan.net.beacon import HashChain
    from hexlan.net.client import NetworkGame
    from hexlan.net.discovery import Listener, TableAnnouncement
    from hexlan.net.identity import GameKeys, Identity
    from hexlan.net.lobby import RematchVoted, TableChanged
    from hexlan.net.own_client import OwnNetworkGame
    from hexlan.net.peer import Peer
    from hexlan.net.wire import Opening
    from hexlan.tui.slots import OwnNetTable


def _own_net_table(opening: Opening) -> OwnNetTable | None:
    """The networked table of the opening's game when it has a state of its own, else None.

    Raises:
        ValueError: such a game whose TUI modules register no networked table.
    """
    from hexlan.engine.ruleset import state_spec  # noqa: PLC0415
    from hexlan.tui.slots import OWN_NET_TABLES  # noqa: PLC0415

    spec = state_spec(opening.game)
    if spec is None:
        return None
    table = OWN_NET_TABLES.of(spec.name)
    if table is None:
        raise ValueError(f"the {opening.game} game has no networked table")
    return table


BOT_NAMES = ("Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5")
BOT_REMATCHES = 99
"""Further games the host's bots play while the table plays again (`hexlan bot --rematch`)."""
REMATCH_WAIT = 120.0
"""Seconds a joiner that votes to play again dials its host until the host reopens the table."""
"""Names the host gives the bots it starts (they take seats in the order they connect)."""


@dataclass
class NetOptions:
    """What `hexlan host` / `hexlan join` were given.

    Attributes:
        name: the person's name at the table.
        identity_path: the identity key file (default: the user's, created on first run).
        log_path: the game log (default: a new file in the user's log directory).
        port: the table port (host; 0 picks a free one).
        seats: the table's size (host).
        game: the game the table plays (host; a joiner plays the host's game).
        bots: `hexlan bot` processes the host starts (host).
        address: ``HOST:PORT`` to join directly (join; None lists the LAN's tables).
        bot_command: the command that runs a bot, before ``--join HOST:PORT`` (tests may change
            it); default ``python -m hexlan bot``.
        bot_args: more arguments for each bot (e.g. ``["--quiet"]``).
        bot_abandon_after: seconds a seat may stall (gone, or silent on an automatic step)
            before the host's bots sign that the game is abandoned; the person decides for
            themselves (key A).
        bot_delay: seconds each of the host's bots waits before a decision, so the people at
            the table can follow its moves (tests: 0).
        discovery_port: the UDP port tables are announced on (tests use another).
        announce: whether the host announces its table on the LAN.
        spectators: whether the host takes spectators (`hexlan host --no-spectators`).
        spectator_chat: whether spectators may write in the table chat (`--spectator-chat`).
        options: the game options the table plays (host, `--option`; a joiner plays the
            host's).
        bell, title: the turn notice's bell and terminal title (`--no-bell`, `--no-title`).
    """

    name: str = "You"
    identity_path: Path | None = None
    log_path: Path | None = None
    port: int = 47400
    seats: int = 4
    game: str = "base"
    bots: int = 0
    address: str | None = None
    bot_command: Sequence[str] = field(
        default_factory=lambda: [sys.executable, "-m", "hexlan", "bot"]
    )
    bot_args: Sequence[str] = ()
    bot_abandon_after: float = 20.0
    bot_delay: float = 0.6
    bell: bool = True
    title: bool = True
    discovery_port: int | None = None
    announce: bool = True
    spectators: bool = True
    spectator_chat: bool = False
    options: GameOptions = field(default_factory=GameOptions)


def lan_address() -> str:
    """This host's address on the LAN as others would dial it (127.0.0.1 when offline)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent, the route picks the address
        return str(sock.getsockname()[0])
    return "127.0.0.1"


def seats_table(
    table: DataTable[Any], max_seats: int, seats: Sequence[Any], me: bytes, bots: Sequence[str] = ()
) -> None:
    """Fill ``table`` with the seats (``LobbySeat`` values): mark, name, fingerprint, who."""
    table.clear()
    for seat in range(max_seats):
        if seat < len(seats):
            entry = seats[seat]
            name = Text(
                f"{seat_mark(seat)} {entry.name}", style=seat_style(seat) + Style(bold=True)
            )
            if entry.public_key == me:
                who = _("you")
            elif seat == 0:
                who = _("host")
            elif entry.name in bots:
                who = _("bot")
            else:
                who = _("player")
            table.add_row(name, entry.fingerprint, who, key=str(seat))
        else:
            table.add_row(
                Text(_("{mark} (open)").format(mark=seat_mark(seat)), style="dim"),
                Text("-", style="dim"),
                "",
                key=str(seat),
            )


def lobby_words(reason: str, address: str) -> str:
    """A lobby failure as a player reads it (the game's own link messages mean the table has
    already started its game: its lobby is closed and its game runs on that port)."""
    if "link_hello" in reason or "link_proof" in reason:
        return _("The table at {address} has already started its game: no seat is free.").format(
            address=address
        )
    return reason[:1].upper() + reason[1:]


def distinct_tables(tables: Sequence[TableAnnouncement]) -> list[TableAnnouncement]:
    """One entry per table (host key and port): a host on this machine is heard on every
    interface; the LAN address wins over loopback, so the address the host records for this
    peer is one the other seats can dial too."""
    best: dict[tuple[str, int], TableAnnouncement] = {}
    for table in tables:
        key = (table.fingerprint, table.tcp_port)
        held = best.get(key)
        if held is None or (_is_loopback(held.host) and not _is_loopback(table.host)):
            best[key] = table
    return sorted(best.values(), key=lambda t: (t.name.lower(), t.host or "", t.tcp_port))


def _is_loopback(host: str | None) -> bool:
    return host is None or host.startswith("127.") or host == "::1"


def styled_line(template: str, **values: str) -> Text:
    """``template`` (a translated sentence with ``{name}`` placeholders) dim, each value bold:
    the sentence stays whole for the translator, the values stand out."""
    text = Text()
    for i, part in enumerate(re.split(r"\{(\w+)\}", template)):
        if i % 2:
            text.append(values[part], "bold")
        elif part:
            text.append(part, "dim")
    return text


def table_title(name: str, game: str) -> str:
    """The lobby's title: whose table, and its game unless the base game."""
    if game == "base":
        return _("hexlan: {name}'s table").format(name=name)
    return _("hexlan: {name}'s table ({game})").format(name=name, game=game)


class NetScreen(Screen[None]):
    """What hosting and joining share: the keys, the seats table, the start of the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", N_("Quit"))]

    def __init__(self, options: NetOptions, rematch_of: tuple[Opening, int] | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.options = options
        self.identity: Identity | None = None
        self.game: NetworkGame | OwnNetworkGame[Any] | None = None
        self._seat_names: Sequence[str] = ()
        self.table_address: str | None = None
        """``HOST:PORT`` of the table a joiner dialled (where it asks for a rematch)."""
        self.rematch_of = rematch_of
        """The last game's opening and the person's seat in it, when this table plays again
        (PROTOCOL.md §3, Rematch)."""

    async def _last_game_done(self) -> None:
        """Wait until the last game's peer has left its mesh (a rematch's table reopens on
        the host's mesh port)."""
        for worker in list(self.app.workers):
            if worker.name == "peer":
                with contextlib.suppress(Exception):
                    await worker.wait()

    def _load_keys(self) -> tuple[Identity, GameKeys, HashChain]:
        """The identity (created on first run) and this game's fresh keys and hash chain.

        Raises:
            IdentityError, OSError: the identity file cannot be read or created.
        """
        from hexlan.net.beacon import HashChain  # noqa: PLC0415
        from hexlan.net.identity import GameKeys, Identity, default_identity_path  # noqa: PLC0415

        path = self.options.identity_path or default_identity_path()
        identity = Identity.load_or_create(Path(path))
        self.identity = identity
        return identity, GameKeys.generate(), HashChain.generate()

    def say(self, text: str | Text, error: bool = False) -> None:
        """Show ``text`` on the status line (red for an error)."""
        status = self.query_one("#lobby-status", Static)
        status.set_class(error, "-error")
        status.update(text)

    def show_table(self, change: TableChanged) -> None:
        """Redraw the seats as the host announced them."""
        self.query_one("#seats").display = True
        if change.seats:
            self.query_one(".dialog-title", Label).update(
                table_title(change.seats[0].name, change.game)
            )
        me = self.identity.public_bytes if self.identity is not None else b""
        seats_table(
            self.query_one("#seats", DataTable),
            change.max_seats,
            change.seats,
            me,
            self._seat_names,
        )
        terms, options = table_words(
            change.game, change.board_kind, change.max_seats, change.options
        )
        self.query_one("#lobby-terms", Static).update(Text.assemble((terms, "bold"), "\n", options))
        watching = ", ".join(s.name for s in change.spectators)
        self.query_one("#lobby-watchers", Static).update(
            Text.assemble((_("watching: "), "dim"), watching) if watching else ""
        )
        open_seats = change.max_seats - len(change.seats)
        if open_seats:
            self.say(
                ngettext(
                    "Waiting for {n} more player… the game starts when the table is full.",
                    "Waiting for {n} more players… the game starts when the table is full.",
                    open_seats,
                ).format(n=open_seats)
            )
        else:
            self.say(_("The table is full: starting…"))

    def start_peer(
        self,
        opening: Opening,
        seat: int,
        identity: Identity,
        keys: GameKeys,
        chain: HashChain,
        host_address: str | None,
    ) -> None:
        """The lobby is done: run this seat's peer on the app's loop; the app shows the game
        once every seat has signed the opening."""
        from hexlan.net.client import default_log_dir, new_log_path  # noqa: PLC0415
        from hexlan.net.peer import Peer, PeerError  # noqa: PLC0415

        if hasattr(self.app, "last_table"):  # NetApp: what a rematch needs
            self.app.last_table = (opening, seat, self.table_address)
        role = "host" if isinstance(self, HostScreen) else "join"
        path = self.options.log_path or new_log_path(default_log_dir(), opening.game_id, role)
        try:
            peer = Peer(
                seat,
                identity,
                opening,
                chain,
                keys,
                path,
                host_address=host_address,
                kind="human",
                identity_path=self.options.identity_path,
                spectators=self.options.spectators,
                announce=self.options.announce,
                spectator_chat=self.options.spectator_chat,
            )
        except (OSError, ValueError) as exc:
            self.say(_("Cannot start the game: {error}").format(error=exc), error=True)
            return
        if self.options.discovery_port is not None:
            peer.announce_targets = ["127.0.0.1"]
        game = self._client(peer)
        self.game = game
        names = ", ".join(s.name for s in opening.seats)
        self.say(
            _("Game {game}: connecting to {names}; signing the opening…").format(
                game=opening.game_id[:4].hex(), names=names
            )
        )
        game.on_change = self._game_news
        app = self.app

        async def run() -> None:
            try:
                await peer.run()
            except PeerError as exc:
                app.notify(exc.reason, title=_("The game cannot run"), severity="error", timeout=30)
                self.say(_("The game cannot run: {reason}").format(reason=exc.reason), error=True)
            if app.is_running and game.on_change is not None:
                game.on_change()

        app.run_worker(run(), name="peer", group="peer", exit_on_error=False)

    @staticmethod
    def _client(peer: Peer) -> NetworkGame | OwnNetworkGame[Any]:
        """The person's client: a Catan :class:`~hexlan.net.client.NetworkGame`, or the one a
        game with a state of its own registers (:data:`~hexlan.tui.slots.OWN_NET_TABLES`)."""
        from hexlan.net.client import NetworkGame  # noqa: PLC0415

        table = _own_net_table(peer.opening)
        return NetworkGame(peer) if table is None else table.client(peer)

    def _game_news(self) -> None:
        game = self.game
        if game is None:
            return
        if game.is_started:
            from hexlan.net.client import NetworkGame  # noqa: PLC0415
            from hexlan.tui.app import TableApp  # noqa: PLC0415

            game.on_change = None
            app = self.app
            table = _own_net_table(game.peer.opening)
            if isinstance(app, TableApp) and isinstance(game, NetworkGame):
                app.start_game(game)
            elif isinstance(app, TableApp) and table is not None:
                app.show_table(table.screen(game, app.bot_delay))
            return
        links = [f"{game.names[s]}: {text}" for s, text in sorted(game.links.items())]
        if game.status:
            links.append(game.status)
        if links:
            self.say(_("Starting… {links}").format(links=" · ".join(links)))


class HostScreen(NetScreen):
    """`hexlan host`: the table fills, then the game starts."""

    def __init__(self, options: NetOptions, rematch_of: tuple[Opening, int] | None = None) -> None:
        super().__init__(options, rematch_of)
        self.port = options.port
        self.bots: list[subprocess.Popen[bytes]] = []
        """The bot processes started (the app ends those still running when it exits)."""
        self._seat_names = BOT_NAMES[: options.bots]

    def compose(self) -> ComposeResult:
        """Title, where to join, the seats, the status line, the keys."""
        with Vertical(id="lobby"):
            yield Label(table_title(self.options.name, "base"), classes="dialog-title")
            yield Static(id="lobby-where")
            seats = DataTable[Any](id="seats", cursor_type="none", zebra_stripes=False)
            seats.add_columns(_("player"), _("fingerprint"), "")
            yield seats
            yield Static("", id="lobby-terms")
            yield Static("", id="lobby-watchers")
            yield Static(_("Opening the table…"), id="lobby-status")
            yield Static(
                _("Compare fingerprints with the players out loud: a fingerprint names a key."),
                classes="hint",
            )
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Open the table."""
        self.query_one("#lobby").border_title = _("Lobby")
        self._host()

    @work(exclusive=True, group="lobby", exit_on_error=False)
    async def _host(self) -> None:
        from hexlan.net.identity import IdentityError  # noqa: PLC0415
        from hexlan.net.lobby import LobbyError, host_table  # noqa: PLC0415

        options = self.options
        try:
            identity, keys, chain = self._load_keys()
        except (IdentityError, OSError) as exc:
            self.say(_("Cannot load your identity: {error}").format(error=exc), error=True)
            return
        extra: dict[str, Any] = {}
        if options.discovery_port is not None:
            extra["announce_targets"] = ["127.0.0.1"]
        port = options.port
        if self.rematch_of is not None:
            last, was = self.rematch_of
            port = last.seats[was].port  # the table port: the host's mesh port
            self.say(_("Waiting for the last game to close…"))
            await self._last_game_done()
            extra.update(rematch_of=last, on_vote=self._vote)
        try:
            opening, seat = await host_table(
                identity,
                options.seats,
                options.name,
                port,
                game=options.game,
                options=options.options,
                game_keys=keys,
                chain=chain,
                on_change=self.show_table,
                on_listening=self._listening,
                announce=options.announce,
                spectators=options.spectators,
                **extra,
            )
        except LobbyError as exc:
            self.say(_("Cannot host: {error}").format(error=exc.reason), error=True)
            return
        except ValueError as exc:
            self.say(_("Cannot host: {error}").format(error=exc), error=True)
            return
        self.start_peer(opening, seat, identity, keys, chain, None)

    def _vote(self, vote: RematchVoted) -> None:
        """A seat of the last game answered the rematch: say so; a declined place is given to
        a new bot when the host plays with bots (else it waits for a joiner)."""
        self.notify(vote.words()[:1].upper() + vote.words()[1:], timeout=10)
        if not vote.agree and self.options.bots:
            self._start_bots(self.port, 1)

    def _listening(self, port: int) -> None:
        self.port = port
        address = lan_address()
        self.query_one("#lobby-where", Static).update(
            styled_line(
                _("Table port {port}  ·  others join with {command} or pick it in `hexlan join`"),
                port=str(port),
                command=f"hexlan join {address}:{port}",
            )
        )
        if self.rematch_of is None:  # a rematch's bots come back by themselves
            self._start_bots(port, self.options.bots)

    def _start_bots(self, port: int, count: int) -> None:
        """Start ``count`` bots as `hexlan bot` processes joining this table (they play again
        while the table does: ``--rematch``)."""
        options = self.options
        from hexlan.net.client import default_log_dir  # noqa: PLC0415

        out_dir = options.log_path.parent if options.log_path else default_log_dir()
        out_dir.mkdir(parents=True, exist_ok=True)
        # The bots dial this machine's LAN address rather than 127.0.0.1: the host writes the
        # address it saw each seat come from into the opening, and a player on another machine
        # may have to dial a bot there.
        address = lan_address()
        started = len(self.bots)
        for i in range(started, started + count):
            name = BOT_NAMES[i % len(BOT_NAMES)]
            command = [
                *options.bot_command,
                "--join",
                f"{address}:{port}",
                "--name",
                name,
                "--abandon-after",
                f"{options.bot_abandon_after:g}",
                "--delay",
                f"{options.bot_delay:g}",
                "--rematch",
                str(BOT_REMATCHES),
                "--good-game",
                *options.bot_args,
            ]
            output = out_dir / f"bot-{port}-{i + 1}.out"
            try:
                with output.open("wb") as sink:
                    proc = subprocess.Popen(
                        command,
                        stdin=subprocess.DEVNULL,
                        stdout=sink,
                        stderr=subprocess.STDOUT,
                        env={**os.environ, "NO_COLOR": "1"},
                    )
            except OSError as exc:
                self.notify(_("Cannot start a bot: {error}").format(error=exc), severity="error")
                return
            self.bots.append(proc)
            owner = getattr(self.app, "bot_processes", None)
            if isinstance(owner, list):
                owner.append(proc)
        if count:
            self.notify(ngettext("Started {n} bot.", "Started {n} bots.", count).format(n=count))


def stop_processes(processes: Sequence[subprocess.Popen[bytes]], grace: float = 0.0) -> None:
    """End the processes still running: wait up to ``grace`` seconds for them to finish, then
    SIGTERM, then SIGKILL after 2 s."""
    deadline = time.monotonic() + grace
    for proc in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    for proc in processes:
        if proc.poll() is None:
            proc.terminate()
    for proc in processes:
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class JoinScreen(NetScreen):
    """`hexlan join`: the tables on the LAN (Enter joins), or ``HOST:PORT`` directly."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "app.quit", N_("Quit")),
        Binding("ctrl+r", "refresh", N_("Refresh"), show=False),
        Binding("escape", "leave", N_("Leave the table")),
    ]

    may_take_full = False
    """Whether a full table may be chosen (a spectator's list: `hexlan watch`)."""
    may_leave = True
    """Whether Esc gives up the seat taken before the table fills (not for a spectator)."""

    def __init__(self, options: NetOptions, rematch_of: tuple[Opening, int] | None = None) -> None:
        super().__init__(options, rematch_of)
        self.listener: Listener | None = None
        self.found: list[TableAnnouncement] = []
        self.joining = False

    def compose(self) -> ComposeResult:
        """The tables found, an address box, then the seats once joined."""
        with Vertical(id="lobby"):
            yield Label(_("hexlan: join a table"), classes="dialog-title")
            tables = DataTable[Any](id="tables", cursor_type="row")
            tables.add_columns(_("table"), _("address"), _("seats"), _("host fingerprint"))
            yield tables
            yield Input(placeholder=_("or type HOST:PORT and Enter"), id="address")
            seats = DataTable[Any](id="seats", cursor_type="none")
            seats.add_columns(_("player"), _("fingerprint"), "")
            yield seats
            yield Static("", id="lobby-terms")
            yield Static("", id="lobby-watchers")
            yield Static("", id="lobby-status")
            yield Static(
                _("↑/↓ choose a table, Enter joins · compare the host's fingerprint with theirs"),
                classes="hint",
                id="lobby-hint",
            )
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Join the address given, or listen for tables."""
        self.query_one("#lobby").border_title = _("Lobby")
        self.query_one("#seats").display = False
        if self.options.address is not None:
            self._show_joining()
            self._join(self.options.address, None)
        else:
            self._listen()
            self.set_interval(1.0, self._refresh_tables)

    @work(exclusive=True, group="listen", exit_on_error=False)
    async def _listen(self) -> None:
        from hexlan.net.discovery import DISCOVERY_PORT, Listener  # noqa: PLC0415

        port = self.options.discovery_port or DISCOVERY_PORT
        listener = Listener(port=port)
        try:
            await listener.start()
        except OSError as exc:
            self.say(
                _(
                    "Cannot listen for tables on UDP {port} ({error}); "
                    "type the host's address instead."
                ).format(port=port, error=exc.strerror or exc),
                error=True,
            )
            return
        self.listener = listener
        self.say(_("Listening for tables on the LAN (UDP {port})…").format(port=port))
        self._refresh_tables()

    def _refresh_tables(self) -> None:
        if self.listener is None or self.joining:
            return
        tables = distinct_tables(self.listener.tables())
        widget = self.query_one("#tables", DataTable)
        keys = [(t.host, t.tcp_port) for t in tables]
        if keys == [(t.host, t.tcp_port) for t in self.found] and tables == self.found:
            return
        row = widget.cursor_row
        self.found = tables
        widget.clear()
        for t in tables:
            taken = {"taken": t.seats_taken, "seats": t.seats}
            seats = (_("{taken}/{seats} full") if t.is_full else "{taken}/{seats}").format(**taken)
            if t.game != "base":
                seats += f" {t.game}"
            widget.add_row(
                Text(t.name, style="bold"), f"{t.host}:{t.tcp_port}", seats, t.fingerprint
            )
        if tables:
            widget.move_cursor(row=min(max(row, 0), len(tables) - 1))
            self.say(
                ngettext(
                    "{n} table found. Enter joins.", "{n} tables found. Enter joins.", len(tables)
                ).format(n=len(tables))
            )
        else:
            self.say(_("Listening for tables on the LAN… none heard yet. Type an address below."))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc leaves only a table whose game has not started."""
        if action == "leave":
            return self.may_leave and self.joining and self.game is None
        return True

    def action_leave(self) -> None:
        """Give up the seat before the table fills (the terms were not the ones wanted): the
        connection closes, the host frees the seat, and the list (or the address) is back."""
        if not self.check_action("leave", ()):
            return
        self.workers.cancel_group(self, "lobby")
        self.say(_("You left the table."))
        self._back_to_list()
        self.refresh_bindings()

    def action_refresh(self) -> None:
        """Redraw the list of tables now."""
        self.found = []
        self._refresh_tables()

    @on(DataTable.RowSelected, "#tables")
    def _table_chosen(self, event: DataTable.RowSelected) -> None:
        index = event.cursor_row
        if not 0 <= index < len(self.found) or self.joining:
            return
        table = self.found[index]
        if table.is_full and not self.may_take_full:
            self.say(_("{table} is full.").format(table=table.name), error=True)
            return
        self._show_joining()
        self._join(f"{table.host}:{table.tcp_port}", table.fingerprint)

    @on(Input.Submitted, "#address")
    def _address_typed(self, event: Input.Submitted) -> None:
        from hexlan.net.lobby import parse_address  # noqa: PLC0415

        text = event.value.strip()
        try:
            parse_address(text)
        except ValueError as exc:
            self.say(str(exc), error=True)
            return
        self._show_joining()
        self._join(text, None)

    def _show_joining(self) -> None:
        self.joining = True
        self.query_one("#tables").display = False
        self.query_one("#address").display = False
        self.query_one("#lobby-hint", Static).update(
            _(
                "Compare the fingerprints with the other players: a fingerprint names a key."
                " Esc leaves the table."
            )
            if self.may_leave
            else _("Compare the fingerprints with the other players: a fingerprint names a key.")
        )
        self.refresh_bindings()

    def _back_to_list(self) -> None:
        self.joining = False
        self.query_one("#lobby-terms", Static).update("")
        if self.options.address is not None:  # no list: the address again, Enter retries
            self.query_one("#seats").display = False
            address = self.query_one("#address", Input)
            address.value = self.options.address
            address.display = True
            address.focus()
            self.query_one("#lobby-hint", Static).update(_("Enter tries again · ctrl+q quits"))
            return
        self.found = []
        self.query_one("#tables").display = True
        self.query_one("#address").display = True
        self.query_one("#seats").display = False
        self._refresh_tables()

    @work(exclusive=True, group="lobby", exit_on_error=False)
    async def _join(self, address: str, fingerprint: str | None) -> None:
        from hexlan.net.identity import IdentityError  # noqa: PLC0415
        from hexlan.net.lobby import LobbyError, free_port, join_table, parse_address  # noqa: PLC0415

        try:
            host, port = parse_address(address)
        except ValueError as exc:
            self.say(str(exc), error=True)
            self._back_to_list()
            return
        try:
            identity, keys, chain = self._load_keys()
        except (IdentityError, OSError) as exc:
            self.say(_("Cannot load your identity: {error}").format(error=exc), error=True)
            return
        self.say(_("Connecting to {address}…").format(address=f"{host}:{port}"))
        self.table_address = address
        extra: dict[str, Any] = {}
        if self.rematch_of is not None:
            self.say(
                _("Asking {address} to play again… (waiting for the host)").format(
                    address=f"{host}:{port}"
                )
            )
            await self._last_game_done()
            extra.update(rematch=self.rematch_of[0].game_id, retry_for=REMATCH_WAIT)
        try:
            opening, seat = await join_table(
                host,
                port,
                identity,
                self.options.name,
                game_keys=keys,
                chain=chain,
                listen_port=free_port(),
                host_fingerprint=fingerprint,
                on_change=self.show_table,
                **extra,
            )
        except LobbyError as exc:
            self.say(lobby_words(exc.reason, f"{host}:{port}"), error=True)
            self._back_to_list()
            return
        except ValueError as exc:
            self.say(_("Cannot join: {error}").format(error=exc), error=True)
            self._back_to_list()
            return
        if self.listener is not None:
            await self.listener.stop()
            self.listener = None
        self.start_peer(opening, seat, identity, keys, chain, host)

    async def on_unmount(self) -> None:
        """Stop listening for tables."""
        if self.listener is not None:
            await self.listener.stop()
            self.listener = None
