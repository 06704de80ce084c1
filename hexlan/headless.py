"""Headless networked peers played by bots (`hexlan bot`, `hexlan resume`).

A bot player is a peer like any other (../shared/ARCHITECTURE.md): it holds or joins a table
(:mod:`hexlan.net.lobby`), then plays through :class:`~hexlan.net.peer.Peer` with a bot's
``choose`` as its policy. Progress goes to stderr; the last stdout line is one JSON object
(:meth:`~hexlan.net.peer.PeerResult.to_json`).

With ``--cheat KIND`` the seat is a red-team seat (:mod:`hexlan.net.redteam`): it deviates
once, as :mod:`hexlan.net.cheats` describes, and its JSON line has a ``"cheat"`` entry saying
whether and how it did.

Exit codes: :data:`EXIT_OK` when the game ends, :data:`EXIT_STOPPED` when it stopped on a
protocol violation, :data:`EXIT_ERROR` for a problem the user can fix (a port in use, a host
that cannot be reached, a refusal, unreadable files), :data:`EXIT_INTERRUPTED` on Ctrl-C.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, TextIO

from hexlan.engine.bots import DEFAULT_THINK, make_bot
from hexlan.engine.bots.own import own_bot
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import seat_range, state_spec
from hexlan.net.beacon import HashChain
from hexlan.net.chat import GOOD_GAME
from hexlan.net.client import rematch_log_path
from hexlan.net.identity import GameKeys, Identity, IdentityError
from hexlan.net.lobby import (
    LobbyError,
    TableChanged,
    decline_rematch,
    free_port,
    host_table,
    join_table,
)
from hexlan.net.peer import Decide, Peer, PeerError, PeerEvent, PeerResult, read_peer_kind
from hexlan.net.redteam import Cheat
from hexlan.net.wire import Opening

EXIT_OK: Final = 0
EXIT_STOPPED: Final = 1
EXIT_ERROR: Final = 2
EXIT_INTERRUPTED: Final = 130
REMATCH_WAIT: Final = 60.0
"""Seconds a joining bot dials its host again for a rematch (PROTOCOL.md §3, Rematch) while the
host has not reopened its table."""
DEFAULT_TABLE_PORT: Final = 47400
"""The table port `hexlan bot --host` listens on unless given one."""
QUIET_KINDS: Final = frozenset({"applied", "signed"})
"""Peer events not shown on stderr (one per action: far too many for a terminal)."""


class BotError(Exception):
    """A problem the user can fix; the message says what (exit 2)."""


@dataclass(frozen=True, slots=True)
class BotOptions:
    """What `hexlan bot` was asked to do.

    ``join`` is ``(host, port)`` or None to host; ``port`` is the table port when hosting, or
    the port of the bot's own game mesh when joining (None: any free port). ``seats``,
    ``game`` and ``board`` are the hosted table's (a joiner plays the host's game); ``board``
    None is the game's first kind (beginner on the base map, random on the 5-6 player map).
    """

    join: tuple[str, int] | None
    seats: int = 4
    game: str = "base"
    port: int | None = None
    strategy: str = "heuristic"
    think: float = DEFAULT_THINK
    """Seconds a searching bot (``mcts``) may take per decision."""
    log: Path | None = None
    seed: int | None = None
    identity: Path | None = None
    name: str | None = None
    board: str | None = None
    quiet: bool = False
    abandon_after: float | None = None
    delay: float = 0.0
    cheat: str | None = None
    """Red team: the deviation the seat commits (a name of :data:`hexlan.net.cheats.CHEATS`)."""
    cheat_at: int = 1
    """... at this opportunity of its kind, from 1."""
    routes: tuple[tuple[int, str, int], ...] = ()
    """``(port, host, dial_port)``: dial the seat whose mesh port is ``port`` at
    ``host:dial_port`` instead (:attr:`hexlan.net.peer.Peer.routes`)."""
    spectators: bool = True
    """Whether a hosting bot takes spectators (``--no-spectators``: PROTOCOL.md §17)."""
    spectator_chat: bool = False
    """Whether a hosting bot lets spectators write in the chat (``--spectator-chat``: §18)."""
    good_game: bool = False
    """Whether the bot says :data:`~hexlan.net.chat.GOOD_GAME` once the game is won
    (``--good-game``: PROTOCOL.md §18)."""
    options: GameOptions = field(default_factory=GameOptions)
    """The hosted table's game options (``--option``; a joiner plays the host's)."""
    says: tuple[str, ...] = ()
    """Chat lines the bot says once the game has started (``--say``: PROTOCOL.md §18)."""
    rematch: int = 0
    """Further games the bot plays at the same table once a game is won and audited
    (``--rematch N``: PROTOCOL.md §3, Rematch)."""
    decline_rematch: bool = False
    """A joiner tells the host, after its last game, that it will not play again."""


def default_log_path(game_id: bytes, seat: int) -> Path:
    """``user_data_dir("hexlan")/logs/<game id prefix>-seat<k>.log``."""
    import platformdirs  # noqa: PLC0415 - only when no --log is given

    return (
        Path(platformdirs.user_data_dir("hexlan")) / "logs" / f"{game_id.hex()[:12]}-seat{seat}.log"
    )


def _printer(quiet: bool, err: TextIO) -> Callable[[str], None]:
    def say(text: str) -> None:
        if not quiet:
            print(f"hexlan: {text}", file=err, flush=True)

    return say


def _event_printer(say: Callable[[str], None]) -> Callable[[PeerEvent], None]:
    def on_event(event: PeerEvent) -> None:
        if event.kind not in QUIET_KINDS:
            say(event.text)

    return on_event


def _finish(
    result: PeerResult, out: TextIO, err: TextIO, cheat: dict[str, object] | None = None
) -> int:
    line = result.to_json()
    if cheat is not None:
        line["cheat"] = cheat
    print(json.dumps(line), file=out, flush=True)
    if result.stopped is not None:
        print(f"hexlan: the game stopped: {result.stopped}", file=err, flush=True)
        return EXIT_STOPPED
    return EXIT_OK  # won, or abandoned by every remaining seat (the JSON says which)


def _show_table(say: Callable[[str], None]) -> Callable[[TableChanged], None]:
    def on_change(table: TableChanged) -> None:
        names = ", ".join(f"{s.name} [{s.fingerprint}]" for s in table.seats)
        game = "" if table.game == "base" else f" ({table.game})"
        watching = ", ".join(s.name for s in table.spectators)
        watching = f"; watching: {watching}" if watching else ""
        say(f"table{game} {len(table.seats)}/{table.max_seats}: {names}{watching}")

    return on_change


def _cheat_reporter(peer: Peer, say: Callable[[str], None]) -> Callable[[str], None]:
    """What a red-team seat does when it deviates: say so, and note it in its own log."""

    def report(text: str) -> None:
        say(f"cheating: {text}")
        peer.log.append_note(f"red team: {text}")

    return report


def _bot_for(game: str, strategy: str, seed: int | None, think: float) -> Decide:
    """The policy of the bot playing a seat of ``game`` (its ``choose``):
    :func:`~hexlan.engine.bots.make_bot`'s for a Catan game, :func:`~hexlan.engine.bots.own.own_bot`'s
    for a game with a state of its own.

    Raises:
        BotError: a strategy the game has no bot for.
    """
    rng = random.Random(seed)
    try:
        spec = state_spec(game)
        if spec is not None and spec.state is not None:
            sample = spec.state(game, seat_range(game)[0], None)  # the registry reads its class
            return own_bot(strategy, sample, rng).choose
        return make_bot(strategy, rng, think, time.perf_counter).choose
    except ValueError as exc:
        raise BotError(str(exc)) from None


async def _take_seat(
    options: BotOptions,
    identity: Identity,
    name: str,
    keys: tuple[HashChain, GameKeys],
    last: tuple[Opening, int] | None,
    say: Callable[[str], None],
) -> tuple[Opening, int]:
    """Hold or join the table (a rematch after ``last``, the last game's opening and this
    bot's seat in it: PROTOCOL.md §3, Rematch); the opening and this bot's seat.

    Raises:
        BotError: the table cannot be held or joined (the reason in words).
    """
    chain, game_keys = keys
    try:
        if options.join is None:
            port = DEFAULT_TABLE_PORT if options.port is None else options.port
            if last is not None:
                port = last[0].seats[last[1]].port  # the table port: the host's mesh port

            def listening(bound: int) -> None:
                what = "table" if options.game == "base" else f"{options.game} table"
                again = " again" if last is not None else ""
                say(
                    f"{what} open{again} on port {bound}, waiting for {options.seats - 1} more "
                    f"(host key {identity.fingerprint})"
                )

            return await host_table(
                identity,
                options.seats,
                name,
                port,
                game_keys=game_keys,
                chain=chain,
                board_kind=options.board,
                game=options.game,
                options=options.options,
                on_change=_show_table(say),
                on_listening=listening,
                spectators=options.spectators,
                rematch_of=None if last is None else last[0],
                on_vote=lambda vote: say(vote.words()),
            )
        host_address, table_port = options.join
        listen_port = options.port or free_port()
        again = "" if last is None else " again"
        say(f"joining {host_address}:{table_port}{again} as {name} [{identity.fingerprint}]")
        return await join_table(
            host_address,
            table_port,
            identity,
            name,
            game_keys=game_keys,
            chain=chain,
            listen_port=listen_port,
            on_change=_show_table(say),
            rematch=None if last is None else last[0].game_id,
            retry_for=0.0 if last is None else REMATCH_WAIT,
        )
    except ValueError as exc:  # a name the protocol cannot carry, and the like
        raise BotError(str(exc)) from None
    except LobbyError as exc:
        raise BotError(exc.reason) from None


def _may_play_again(result: PeerResult) -> bool:
    """Whether a table plays again after this game: it was won and audited."""
    return result.stopped is None and result.abandoned is None and result.audit is not None


async def _bot_game(
    options: BotOptions,
    say: Callable[[str], None],
    on_result: Callable[[PeerResult, Cheat | None], None],
) -> tuple[PeerResult, Cheat | None]:
    """Play the table's game, then ``options.rematch`` more (each game but the last told to
    ``on_result``); the last game's result and the red-team seat, if any."""
    if options.identity is not None:
        try:
            identity = Identity.load_or_create(options.identity)
        except (IdentityError, OSError) as exc:
            raise BotError(f"cannot use the identity {options.identity}: {exc}") from None
    else:
        identity = Identity.generate()
    # a host knows its game: a strategy it has no bot for is refused before the table opens
    hosted = (
        None
        if options.join
        else _bot_for(options.game, options.strategy, options.seed, options.think)
    )
    # a bot's default name carries its key's first four hex digits, so bots at one table differ
    name = options.name or f"{options.strategy} bot {identity.fingerprint[:4]}"
    last: tuple[Opening, int] | None = None
    for number in range(1, options.rematch + 2):
        chain, game_keys = HashChain.generate(), GameKeys.generate()
        opening, seat = await _take_seat(options, identity, name, (chain, game_keys), last, say)
        first_log = options.log or default_log_path(opening.game_id, seat)
        log_path = rematch_log_path(first_log, number) if options.log else first_log
        log_path.parent.mkdir(parents=True, exist_ok=True)
        bot = hosted or _bot_for(opening.game, options.strategy, options.seed, options.think)
        asked = options if number == 1 else replace(options, cheat=None)  # deviates once
        peer, cheat = _bot_peer(asked, identity, (opening, seat, log_path), (chain, game_keys), say)
        peer.decide = bot
        game = "" if opening.game == "base" else f" of {opening.game}"
        say(f"game {opening.game_id.hex()[:12]}{game} started: seat {seat}; log {log_path}")
        result = await peer.run()
        if number == options.rematch + 1 or not _may_play_again(result):
            if options.decline_rematch and options.join is not None:
                await _decline(options.join, identity, opening, say)
            return result, cheat
        on_result(result, cheat)
        last = (opening, seat)
    raise AssertionError("unreachable")  # the loop returns at its last game


async def _decline(
    join: tuple[str, int], identity: Identity, opening: Opening, say: Callable[[str], None]
) -> None:
    """Tell the host this bot will not play again after ``opening``'s game (a joiner's
    ``--decline-rematch``)."""
    try:
        await decline_rematch(join[0], join[1], identity, opening.game_id, retry_for=REMATCH_WAIT)
    except LobbyError as exc:
        say(f"could not decline the rematch: {exc.reason}")
        return
    say("declined the rematch")


def _bot_peer(
    options: BotOptions,
    identity: Identity,
    table: tuple[Opening, int, Path],
    keys: tuple[HashChain, GameKeys],
    say: Callable[[str], None],
) -> tuple[Peer, Cheat | None]:
    """The bot's peer (its policy set by the caller) for the game of ``table`` (its opening,
    seat and log), with its red-team seat when asked for one.

    Raises:
        BotError: an unknown cheat, or a log that exists already.
    """
    opening, seat, log_path = table
    chain, game_keys = keys
    kind = f"bot {options.strategy}"
    cheat = None
    if options.cheat is not None:
        try:
            cheat = Cheat(options.cheat, options.cheat_at)
        except ValueError as exc:
            raise BotError(str(exc)) from None
        kind += f" cheat {options.cheat}@{options.cheat_at}"  # `resume` plays on honestly
    try:
        peer = Peer(
            seat,
            identity,
            opening,
            chain,
            game_keys,
            log_path,
            None,
            _event_printer(say),
            host_address=None if options.join is None else options.join[0],
            kind=kind,
            save_identity=options.identity is None,
            identity_path=options.identity,
            spectators=options.spectators,
            announce=True,
            spectator_chat=options.spectator_chat,
        )
    except FileExistsError as exc:
        raise BotError(f"will not overwrite {exc.filename}; pick another --log") from None
    peer.abandon_after = options.abandon_after
    peer.delay = options.delay
    peer.says.extend(options.says)
    peer.farewell = GOOD_GAME if options.good_game else None
    peer.routes = {port: (host, via) for port, host, via in options.routes}
    if cheat is not None:
        cheat.on_deviate = _cheat_reporter(peer, say)
        cheat.install(peer.session)
        say(f"red team: seat {seat} plays {cheat.kind.name} at opportunity {cheat.at}")
    return peer, cheat


def run_bot(options: BotOptions, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run `hexlan bot` to the end of its game; the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    say = _printer(options.quiet, err)
    codes: list[int] = []

    def on_result(result: PeerResult, cheat: Cheat | None) -> None:
        codes.append(_finish(result, out, err, None if cheat is None else cheat.summary()))

    try:
        result, cheat = asyncio.run(_bot_game(options, say, on_result))
    except (BotError, PeerError) as exc:
        print(f"hexlan bot: {exc}", file=err, flush=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("hexlan bot: interrupted", file=err, flush=True)
        return EXIT_INTERRUPTED
    return max([*codes, _finish(result, out, err, None if cheat is None else cheat.summary())])


def run_resume(
    log: Path,
    identity: Path | None = None,
    strategy: str | None = None,
    seed: int | None = None,
    quiet: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
    abandon_after: float | None = None,
    think: float = DEFAULT_THINK,
) -> int:
    """Run `hexlan resume LOG` headless to the end of the game; the exit code.

    The log's seat is played on by the bot that played it (its ``"peer: bot NAME"`` note) or
    by ``strategy``; a person's seat goes back to the table in the terminal UI.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    say = _printer(quiet, err)
    try:
        kind = read_peer_kind(log)
        if "hexlan play" in kind:
            raise BotError(
                f"{log} is a local game (hexlan play: every seat in one process, no secrets "
                "kept); only networked seats can be resumed"
            )
        if strategy is None:
            if not kind.startswith("bot "):
                from hexlan.tui.app import run_resume as run_table  # noqa: PLC0415

                return run_table(log, identity)
            strategy = kind.removeprefix("bot ").split()[0]
        peer = Peer.resume(log, identity, None, _event_printer(say))
        peer.decide = _bot_for(peer.opening.game, strategy, seed, think)
        peer.abandon_after = abandon_after
        view = peer.view
        say(
            f"resumed seat {peer.seat} of game {peer.opening.game_id.hex()[:12]} at turn "
            f"{0 if view is None else view.turn}"
        )
        result = asyncio.run(peer.run())
    except (BotError, PeerError) as exc:
        print(f"hexlan resume: {exc}", file=err, flush=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("hexlan resume: interrupted", file=err, flush=True)
        return EXIT_INTERRUPTED
    return _finish(result, out, err)


GIVE_UP_AFTER: Final = 30.0
"""Seconds `hexlan watch --json` keeps redialling a table it cannot reach before it stops."""
FIND_TABLE_SECONDS: Final = 3.0
"""Seconds `hexlan watch --json` listens for tables on the LAN when given no address."""


async def _find_table(say: Callable[[str], None]) -> tuple[str, int, str]:
    """The one table heard on the LAN: ``(host, port, fingerprint)``.

    Raises:
        BotError: no table, or several (they are listed, to pick one by address).
    """
    from hexlan.net.discovery import DISCOVERY_PORT, Listener  # noqa: PLC0415

    listener = Listener()
    try:
        await listener.start()
    except OSError as exc:
        raise BotError(f"cannot listen for tables on UDP {DISCOVERY_PORT}: {exc}") from None
    say(f"listening for tables on the LAN (UDP {DISCOVERY_PORT})")
    try:
        await listener.wait_for_table(FIND_TABLE_SECONDS)
        await asyncio.sleep(1.0)  # a second, so every table on the LAN is heard
        found = {(t.fingerprint, t.tcp_port): t for t in listener.tables()}
    finally:
        await listener.stop()
    if not found:
        raise BotError("no table heard on the LAN; give its HOST:PORT")
    if len(found) > 1:
        tables = "; ".join(f"{t.name} at {t.host}:{t.tcp_port}" for t in found.values())
        raise BotError(f"{len(found)} tables heard ({tables}); give one's HOST:PORT")
    (table,) = found.values()
    return table.host or "127.0.0.1", table.tcp_port, table.fingerprint


def run_watch(
    address: tuple[str, int] | None,
    name: str,
    identity_path: Path | None = None,
    quiet: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
    says: tuple[str, ...] = (),
) -> int:
    """Run `hexlan watch --json`: follow the table's game as a spectator (PROTOCOL.md §17)
    to its end; one JSON line (:class:`~hexlan.net.watch.WatchResult`) on ``out``, progress
    on ``err``. ``address`` None watches the one table heard on the LAN. ``says`` are chat
    lines said once the host seat serves the spectator (``--say``, §18).

    Exit codes: :data:`EXIT_OK` (the game ended), :data:`EXIT_STOPPED` (it stopped on a
    protocol violation), :data:`EXIT_ERROR` (refused, unreachable, or the table broke the
    protocol: one line on ``err``), :data:`EXIT_INTERRUPTED`.
    """
    from hexlan.net.identity import default_identity_path  # noqa: PLC0415
    from hexlan.net.watch import Spectator, WatchError, WatchEvent  # noqa: PLC0415

    out = out or sys.stdout
    err = err or sys.stderr
    say = _printer(quiet, err)

    def hear(event: WatchEvent) -> None:
        if event.kind != "applied":
            say(event.text)

    async def watch() -> int:
        fingerprint = None
        if address is None:
            host, port, fingerprint = await _find_table(say)
        else:
            host, port = address
        try:
            identity = Identity.load_or_create(identity_path or default_identity_path())
        except (IdentityError, OSError) as exc:
            raise BotError(f"cannot use the identity {identity_path}: {exc}") from None
        say(f"watching {host}:{port} as {name} [{identity.fingerprint}]")
        spectator = Spectator(
            identity,
            name,
            host,
            port,
            host_fingerprint=fingerprint,
            on_event=hear,
            give_up_after=GIVE_UP_AFTER,
        )
        spectator.says.extend(says)
        result = await spectator.run()
        print(json.dumps(result.to_json()), file=out, flush=True)
        return EXIT_OK if result.stopped is None else EXIT_STOPPED

    try:
        return asyncio.run(watch())
    except (BotError, WatchError) as exc:
        reason = exc.reason if isinstance(exc, WatchError) else str(exc)
        print(f"hexlan watch: {reason}", file=err, flush=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("hexlan watch: interrupted", file=err, flush=True)
        return EXIT_INTERRUPTED
