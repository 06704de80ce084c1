"""Game clients: what the screens talk to. Every game runs through seat sessions.

The TUI reads one seat's view and moves through a :class:`GameClient`, never through sockets or
the engine's full state (../shared/ARCHITECTURE.md: tui talks to a game *client*):

- :class:`SessionGame` is `hexlan play`: every seat's :class:`~hexlan.net.session.Session` in this
  process on an :class:`~hexlan.net.inproc.InProcessTable`, the person at one seat and bots at
  the others. Dice, steals and card draws come from the same commit-reveal beacon and private
  steals as a networked game, so the networked path is the one every game takes. ``seed`` makes
  the seats' keys and chains follow from it (the same seed gives the same game; such a log is
  marked "not fair: seeded local chance").
- :class:`NetworkGame` is `hexlan host` / `hexlan join`: the person's seat is a
  :class:`~hexlan.net.peer.Peer` on the TCP mesh, run on the app's event loop; the others are
  people or `hexlan bot` processes elsewhere.
- :class:`WatchGame` is `hexlan watch`: no seat, a :class:`~hexlan.net.watch.Spectator`'s
  observer session, which holds only public information (PROTOCOL.md §17).

Both narrate the person's session's :class:`~hexlan.net.session.Applied` effects in words from
that seat's view (:class:`~hexlan.net.narrate.Narrator`), so a card stolen between two other
seats is never named.

>>> game = SessionGame(players=3, seed=1, save_log=False)
>>> while game.step() is not None:
...     pass
>>> game.human_to_act() and game.view.phase.title
'setup settlement'
>>> game.events[0].text
'You start the set-up'
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from hexlan.engine.actions import Action
from hexlan.engine.bots import DEFAULT_THINK, Bot, make_bot
from hexlan.engine.core import NO_SEAT, EngineError, IllegalActionError, Seat
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.net.chat import GOOD_GAME, TableChat
from hexlan.net.effects import Applied, Stopped
from hexlan.net.inproc import InProcessTable
from hexlan.net.log import GameLog
from hexlan.net.narrate import DEFAULT_NAMES, GameEvent, Narrator, Score, scores
from hexlan.net.session import Session
from hexlan.net.wire import board_kinds

if TYPE_CHECKING:
    from hexlan.net.peer import Peer, PeerEvent
    from hexlan.net.watch import Spectator, WatchEvent

__all__ = [
    "NOT_FAIR_NOTE",
    "BotTurn",
    "GameClient",
    "GameReader",
    "NetworkGame",
    "PlayLog",
    "SessionGame",
    "WatchGame",
    "default_log_dir",
    "new_log_path",
    "rematch_log_path",
]

_SEAT_WORDS: Final = re.compile(r"\bseat (\d+)( \([^)]*\))?('s)?")

NOT_FAIR_NOTE: Final = "not fair: seeded local chance"
"""The log note of a game whose chance follows from a seed (docs/PROTOCOL.md §9)."""


def default_log_dir() -> Path:
    """Where game logs go: ``user_data_dir("hexlan")/logs``."""
    import platformdirs  # noqa: PLC0415

    return Path(platformdirs.user_data_dir("hexlan")) / "logs"


def rematch_log_path(path: Path, number: int) -> Path:
    """The log of a table's game ``number`` (from 1) when the first is ``path``: the same
    name with ``-NUMBER`` before its suffix from the second game on.

    >>> rematch_log_path(Path("a/ann.log"), 1), rematch_log_path(Path("a/ann.log"), 2)
    (PosixPath('a/ann.log'), PosixPath('a/ann-2.log'))
    """
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def new_log_path(directory: Path, game_id: bytes, what: str = "game") -> Path:
    """A fresh log file name in ``directory`` (created): the time, ``what`` and the game id's
    first bytes, e.g. ``20250101-120000-play-3f9a01c2.hexlan``; never an existing file."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{what}-{game_id[:4].hex()}"
    path = directory / f"{stem}.hexlan"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{stem}-{n}.hexlan"
    return path


class PlayLog:
    """The log of the person's seat at a `hexlan play` table (every seat in this process): the
    opening, the seat's messages as they come, and at the end the stop's reason and the audit.

    Args:
        table: the table; seat: the person's seat; seed: the table's seed (None: fair; a seeded
            game's log says it is not fair, PROTOCOL.md §9); log_dir: where it goes (default
            :func:`default_log_dir`).

    Raises:
        OSError: the log cannot be created.
    """

    def __init__(
        self, table: InProcessTable, seat: Seat, seed: int | None, log_dir: str | Path | None
    ) -> None:
        directory = Path(log_dir) if log_dir is not None else default_log_dir()
        self.table = table
        self.seat = seat
        self.path = new_log_path(directory, table.opening.game_id, "play")
        self.log = GameLog.create(self.path, table.opening.to_payload())
        where = "" if seat == 0 else f"; the person's seat {seat}"
        self.log.append_note(f"peer: human (hexlan play: every seat in one process{where})")
        if seed is not None:
            self.log.append_note(NOT_FAIR_NOTE)
        self._logged = 0

    def catch_up(self, audit_words: Callable[[], str]) -> None:
        """Log the seat's new messages; once its session is done, the stop's reason and the
        audit (``audit_words()``), then close the log."""
        if self.log.closed:
            return
        messages = self.table.logs[self.seat]
        for data in messages[self._logged :]:
            self.log.append_message(data)
        self._logged = len(messages)
        session = self.table.sessions[self.seat]
        if not session.done:
            return
        if session.stopped is not None:
            self.log.append_note(f"stopped: {session.stopped.reason}")
        if session.audited is not None:
            self.log.append_note(f"audit: {audit_words()}")
        self.log.close()


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A decision a bot of this process owes (:meth:`GameClient.bot_due`).

    Attributes:
        seat: the bot's seat.
        bot: the bot.
        view: a copy of the seat's information state: the bot may think on it on any thread.
        marker: the seat's progress when the copy was taken (a later move is stale).
    """

    seat: Seat
    bot: Bot
    view: InformationState
    marker: tuple[int, ...]


class GameReader(Protocol):
    """What the table's panels read of a game: a :class:`GameClient`, or a replay's cursor
    (:class:`hexlan.net.replay.Replayer`), which moves through a log instead of playing."""

    @property
    def names(self) -> tuple[str, ...]:
        """One name per seat."""

    @property
    def players(self) -> int:
        """The number of seats."""

    @property
    def human_seat(self) -> Seat:
        """The seat whose view is shown (:data:`~hexlan.engine.core.NO_SEAT`: a third party)."""

    @property
    def view(self) -> GameState:
        """The state the panels draw: the seat's information state (or a replay's full game)."""

    @property
    def events(self) -> list[GameEvent]:
        """Every action so far, in words."""

    @property
    def rolls(self) -> list[int]:
        """Every dice total so far, in order."""

    def watching(self) -> tuple[str, ...]:
        """The names of the spectators at the table, as far as known."""


class GameClient:
    """One person's seat in a game, as the screens see it.

    Attributes:
        names: one name per seat.
        players: the number of seats.
        human_seat: the person's seat.
        seed: the seed of a reproducible game (bots and chance), or None.
        log_path: where this seat's game log is written, or None when it is not saved.
        status: what the game waits for when it is stuck on another seat ("waiting for Blue:
            no reveal for 5 s"), else "".
        on_change: called (no arguments) whenever events arrive or the status changes without
            a call of this client's (a networked game's messages); the screen redraws.
    """

    names: tuple[str, ...]
    players: int
    human_seat: Seat
    seed: int | None = None
    log_path: Path | None = None
    fair = True
    status = ""
    on_change: Callable[[], None] | None = None

    def __init__(self, session: Session, names: Sequence[str]) -> None:
        self.session = session
        self.names = tuple(names)
        self.players = len(self.names)
        self.human_seat = session.seat
        self._narrator: Narrator | None = None

    # ------------------------------------------------------------------ reading

    @property
    def view(self) -> InformationState:
        """What the person's seat knows: all the screens may read.

        Raises:
            RuntimeError: the game has not begun (not every seat has signed the opening).
        """
        view = self.session.view
        if view is None:
            raise RuntimeError("the game has not begun: no view yet")
        return view

    @property
    def is_started(self) -> bool:
        """Whether the game has begun (every seat signed the opening, the board is known)."""
        return self.session.view is not None

    @property
    def events(self) -> list[GameEvent]:
        """Every action so far, in words, in the order it took effect."""
        return [] if self._narrator is None else self._narrator.events

    @property
    def rolls(self) -> list[int]:
        """Every dice total so far, in order."""
        return [] if self._narrator is None else self._narrator.rolls

    @property
    def stopped(self) -> Stopped | None:
        """Why the game stopped (a seat broke the protocol), or None."""
        return self.session.stopped

    @property
    def abandoned(self) -> tuple[Seat, ...] | None:
        """The seats the game was abandoned by (every other seat signed that they left), or
        None."""
        return self.session.abandoned

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (won, stopped or abandoned)."""
        return self.session.is_over

    @property
    def winner(self) -> Seat | None:
        """The winning seat once the game is won, else None."""
        view = self.session.view
        if view is None or not view.is_over or view.winner == NO_SEAT:
            return None
        return view.winner

    def audit_words(self) -> str:
        """The end-of-game audit in words (PROTOCOL.md §14), for the game-over screen; empty
        before the game is won.

        >>> game = SessionGame(players=2, names=["Ann", "Bob"], seed=0, save_log=False)
        >>> game.audit_words()
        ''
        """
        session = self.session
        if self.winner is None:
            return ""
        audited = session.audited
        if audited is None:
            if session.abandoned is not None:
                return "Audit: not done (the game was abandoned before every secret was shown)"
            owing = [s for s in session.waiting_on() if s != self.human_seat]
            who = ", ".join(self.names[s] for s in owing)
            return "Audit: checking every shuffle, share and steal" + (
                f" (waiting for {who})" if who else ""
            )
        found = audited.report.deviations
        if not found:
            text = (
                "Audit passed: every shuffle, decryption share, steal and hand checks out, "
                f"{len(audited.report.draws)} development cards drawn"
            )
        else:
            text = "Audit FOUND: " + "; ".join(self.seat_words(d.reason) for d in found)
        if audited.disagreeing:
            others = ", ".join(self.names[s] for s in audited.disagreeing)
            return f"{text} ({others} signed a different result)"
        return f"{text}; signed by every seat"

    def name(self, seat: Seat) -> str:
        """A seat's name."""
        return self.names[seat]

    def human_to_act(self) -> bool:
        """Whether the game waits for the person (a decision of theirs is due)."""
        return self.session.decision_due()

    def legal_actions(self) -> list[Action]:
        """The person's legal actions now (domestic offers excepted: their terms are open)."""
        if not self.human_to_act():
            return []
        return self.view.legal_actions(self.human_seat)

    def waiting_on(self) -> list[Seat]:
        """Other seats whose automatic protocol step (a reveal, an acknowledgement...) the game
        waits for now; empty while it waits for a decision."""
        return [s for s in self.session.waiting_on() if s != self.human_seat]

    def is_connected(self, seat: Seat) -> bool:
        """Whether ``seat`` can be heard from now (always, in this process)."""
        return True

    def watching(self) -> tuple[str, ...]:
        """The names of the spectators at the table (PROTOCOL.md §17), as far as known."""
        return ()

    def stalled(self) -> tuple[Seat, ...]:
        """Seats that have stopped answering (a networked game's stall), for :meth:`abandon`."""
        return ()

    def abandon(self) -> None:
        """Sign that the game ends as abandoned by the :meth:`stalled` seats; it ends once every
        other seat has signed the same.

        Raises:
            IllegalActionError: nobody stalls, or the game is over.
        """
        raise IllegalActionError("no seat has stopped answering")

    def scores(self) -> list[Score]:
        """Victory points per seat and how they were earned, as far as the person knows
        (others' victory point cards only once revealed)."""
        return scores(self.view, self.names, self.human_seat)

    def seat_words(self, text: str) -> str:
        """Protocol wording ("seat 2 (Cy)", "seat 2's") as the screen says it ("Cy", "Cy's";
        "you", "your" for the person's seat).

        >>> game = SessionGame(players=2, names=["Ann", "Bob"], seed=0, save_log=False)
        >>> game.seat_words("waiting for seat 1 (Bob): no reveal for 5 s; seat 0's turn")
        'waiting for Bob: no reveal for 5 s; your turn'
        """

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            possessive = bool(match.group(3))
            if seat == self.human_seat:
                return "your" if possessive else "you"
            if not 0 <= seat < self.players:
                return match.group(0)
            return self.names[seat] + ("'s" if possessive else "")

        return _SEAT_WORDS.sub(name, text)

    # ------------------------------------------------------------------ moving

    def submit(self, action: Action) -> list[GameEvent]:
        """Play the person's ``action``; the events it led to so far.

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """
        raise NotImplementedError

    def step(self) -> list[GameEvent] | None:
        """Let one other seat decide, when this process runs one; its events (perhaps none),
        or None when nothing here can move (the person is due, the game is over, or the others
        play elsewhere)."""
        return None

    def bot_due(self) -> BotTurn | None:
        """The decision a bot of this process owes now, to be thought over on another thread
        (:meth:`bot_move` plays it); None when no bot here is due."""
        return None

    def bot_move(self, turn: BotTurn, action: Action) -> list[GameEvent] | None:
        """Play the action a bot chose for ``turn`` (from :meth:`bot_due`): its events, or None
        when the game moved on meanwhile and the decision no longer stands (ask again).

        Raises:
            IllegalActionError: the bot chose an illegal action (a bug; the game is unchanged).
        """
        return None

    def run_bots(self, limit: int = 100_000) -> list[GameEvent]:
        """:meth:`step` until the person is due or the game is over; the events, in order."""
        events: list[GameEvent] = []
        for _ in range(limit):
            found = self.step()
            if found is None:
                break
            events += found
            if not found:
                self.wait()
        return events

    @property
    def working(self) -> bool:
        """Whether proof work in the background (the deck, the audit) will move the game on."""
        return False

    def poll(self) -> list[GameEvent]:
        """Bring in finished background work; the events it led to."""
        return []

    def wait(self) -> None:
        """Block until some background work finishes (none here)."""

    def close(self) -> None:
        """Release files (the log). Closing twice is harmless."""

    def _tell(self) -> None:
        """Call :attr:`on_change`, when a screen listens."""
        callback = self.on_change
        if callback is not None:
            callback()

    # ------------------------------------------------------------------ narration

    def _narrate(self, effects: Sequence[object]) -> list[GameEvent]:
        """Narrate the person's session's :class:`Applied` effects, in order."""
        found = []
        for effect in effects:
            if isinstance(effect, Applied):
                found.append(self._narrate_action(effect.action))
        return found

    def _narrate_action(self, action: Action) -> GameEvent:
        if self._narrator is None:
            view = self.view
            self._narrator = Narrator(
                view.board, self.names, self.human_seat, view.options, view.rules
            )
        return self._narrator.narrate(action)


def bot_rngs(seed: int | None, players: int, human_seat: Seat) -> dict[Seat, random.Random]:
    """Each bot seat's own ``random.Random`` at a `hexlan play` table (every seat but the
    person's): from ``seed`` (``seed * 31 + seat``) in a seeded game, else fresh."""
    fresh = random.SystemRandom()
    return {
        s: random.Random(seed * 31 + s if seed is not None else fresh.getrandbits(64))
        for s in range(players)
        if s != human_seat
    }


class SessionGame(GameClient):
    """`hexlan play`: one person against bots, every seat a session in this process.

    Args:
        players: seats, within the game's range (2 .. 4 in the base game, 5 .. 6 in five-six).
        seed: makes the game reproducible: the seats' keys and hash chains (so the board, dice
            and steals) and the bots follow from it; the log says "not fair". None: fresh keys
            and chains from the operating system, bots seeded at random.
        board: "beginner" or "random" (a random board is drawn by the beacon); a map without a
            beginner layout (five-six) takes "random" only.
        names: one name per seat (default :data:`~hexlan.net.narrate.DEFAULT_NAMES`).
        bots: one bot name per seat (a name of :data:`hexlan.engine.bots.BOTS`); the person's
            entry is ignored. Default: "heuristic" everywhere.
        think: seconds a searching bot may take per decision.
        options: game options (official rules by default).
        human_seat: the person's seat (0).
        log_dir: where the log is written (default :func:`default_log_dir`).
        save_log: False keeps no log on disk (tests, doctests).
        game: the game (seeds/<game>.toml); the opening names it (PROTOCOL.md §3).
        farewell: what each bot says in the table chat once the game is won (the screen's
            language; default :data:`~hexlan.net.chat.GOOD_GAME`).

    Raises:
        ValueError: an unknown game, bad counts, names, seats or board.
    """

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        board: str = "beginner",
        names: Sequence[str] | None = None,
        bots: Sequence[str] | None = None,
        options: GameOptions | None = None,
        human_seat: Seat = 0,
        *,
        log_dir: str | Path | None = None,
        save_log: bool = True,
        game: str = "base",
        think: float = DEFAULT_THINK,
        farewell: str = GOOD_GAME,
    ) -> None:
        try:
            load_ruleset(game).seat_count(players)
            kinds = board_kinds(game)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        if not 0 <= human_seat < players:
            raise ValueError(f"seat {human_seat} is not one of the {players} seats")
        if board not in kinds:
            raise ValueError(f"board must be {' or '.join(map(repr, kinds))}, not {board!r}")
        names = list(names) if names is not None else list(DEFAULT_NAMES[:players])
        if len(names) != players:
            raise ValueError(f"{players} players need {players} names, got {len(names)}")
        bot_names = list(bots) if bots is not None else ["heuristic"] * players
        if len(bot_names) != players:
            raise ValueError(f"{players} players need {players} bot names, got {len(bot_names)}")
        # An unseeded game sets its deck up in worker threads, so the board shows at once; a
        # seeded one runs its proof work inline, so it replays bit for bit.
        self.table = InProcessTable(
            names, options, board, seed=seed, background=seed is None, game=game
        )
        super().__init__(self.table.sessions[human_seat], names)
        self.seed = seed
        self.fair = seed is None
        self.bots: dict[Seat, Bot] = {
            s: make_bot(bot_names[s], rng, think, time.perf_counter)
            for s, rng in bot_rngs(seed, players, human_seat).items()
        }
        self._log = PlayLog(self.table, human_seat, seed, log_dir) if save_log else None
        self.log_path = None if self._log is None else self._log.path
        self._effects_seen = 0
        self.chat = TableChat(self._say)
        """A local table's chat (PROTOCOL.md §18 on one machine): the person's lines and the
        bots' farewell; nothing is signed, sent or logged."""
        self.farewell: str | None = farewell
        """What the bots say once the game is won (None once said)."""
        self.table.start()
        self._catch_up()

    def _say(self, text: str) -> None:
        self.chat.hear("chat", f"{self.names[self.human_seat]}: {text}", self.human_seat)
        self._tell()

    def submit(self, action: Action) -> list[GameEvent]:
        """Play the person's ``action``; the events up to the next decision anyone owes.

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """
        if self.is_over:
            raise IllegalActionError("the game is over")
        self.table.submit(self.human_seat, action)
        return self._catch_up()

    def step(self) -> list[GameEvent] | None:
        """Let one bot whose decision is due make it (the lowest such seat); the events that
        followed, up to the next decision anyone owes (a bot's move that the person does not
        see, such as an answer still waiting to be ordered, gives none).

        Returns:
            The events (none while background proof work is all that can move the game), or
            None when nothing here can move (the person is due, or the game is done).

        Raises:
            IllegalActionError: a bot chose an illegal action (a bug; the game is unchanged).
        """
        turn = self.bot_due()
        if turn is not None:
            return self.bot_move(turn, turn.bot.choose(turn.view, turn.seat))
        if self.table.working and not self.human_to_act():
            return self._catch_up()  # background work will move the game on
        if len(self.table.effects[self.human_seat]) > self._effects_seen:
            return self._catch_up()  # background work just moved it on: tell before stopping
        return None

    def bot_due(self) -> BotTurn | None:
        """The lowest bot seat whose decision is due, with a copy of its view that another
        thread may think on while this one goes on."""
        self.table.poll()
        if self.is_over:
            return None
        for seat, bot in self.bots.items():
            session = self.table.sessions[seat]
            if session.decision_due():
                assert session.view is not None
                return BotTurn(seat, bot, session.view.copy(), self._marker(seat))
        return None

    def bot_move(self, turn: BotTurn, action: Action) -> list[GameEvent] | None:
        """Play ``action`` for ``turn``'s seat unless a message was applied since; its events."""
        session = self.table.sessions[turn.seat]
        if self._marker(turn.seat) != turn.marker or not session.decision_due():
            return None
        self.table.submit(turn.seat, action)
        return self._catch_up()

    def _marker(self, seat: Seat) -> tuple[int, ...]:
        """What changes whenever the seat's session applies a message."""
        session = self.table.sessions[seat]
        return (id(session.view), *session.applied)

    @property
    def working(self) -> bool:
        return self.table.working

    def poll(self) -> list[GameEvent]:
        """Bring in finished background work (the deck's proofs, the audit); the events."""
        self.table.poll()
        return self._catch_up()

    def wait(self) -> None:
        """Block until some background work finishes; log what it led to."""
        self.table.poll(block=True)
        self._catch_up()

    def close(self) -> None:
        """Log what the person's seat has not logged yet, close the log and stop background
        work."""
        self._catch_up()
        self.table.close()
        if self._log is not None:
            self._log.log.close()

    def _catch_up(self) -> list[GameEvent]:
        """Log the person's seat's new messages and narrate what it applied."""
        effects = self.table.effects[self.human_seat]
        new = effects[self._effects_seen :]
        self._effects_seen = len(effects)
        events = self._narrate(new)
        if self._log is not None:
            self._log.catch_up(self.audit_words)
        if self.farewell is not None and self.winner is not None:
            for seat in self.bots:
                self.chat.hear("chat", f"{self.names[seat]}: {self.farewell}", seat)
            self.farewell = None
        return events


class NetworkGame(GameClient):
    """The person's seat in a networked game: a :class:`~hexlan.net.peer.Peer` run on the app's
    event loop (``await game.peer.run()`` in a worker).

    The peer's events arrive on the loop; this client narrates the actions, keeps stalls and a
    stop in :attr:`status`, and calls :attr:`on_change` so the screen redraws. The game has
    begun (:attr:`is_started`) once every seat has signed the opening and the start player is
    drawn.
    """

    def __init__(self, peer: Peer) -> None:
        super().__init__(peer.session, [s.name for s in peer.opening.seats])
        self.peer = peer
        self.log_path = Path(peer.log_path)
        self.links: dict[int, str] = {}
        """The last link news per seat ("link open", "closed: ..."), for the start screen."""
        self.notes: list[str] = []
        """Refused messages and other news, in words, newest last."""
        self._stalls: dict[int, str] = {}
        self._stall_time = 0.0
        self.abandon_signed = False
        """Whether the person has signed that the game ends as abandoned."""
        self.chat = TableChat(peer.say)
        """The table chat (PROTOCOL.md §18)."""
        peer.on_event = self._on_peer_event
        for action in peer.replayed:  # a resumed seat: the game so far, as this seat saw it
            self._narrate_action(action)
        # Every message the mesh delivers may move the game on without an action to narrate
        # (an acknowledgement, an `advance`, a reveal): the screen must look again after each.
        deliver = peer.deliver

        def deliver_and_tell(envelope_bytes: bytes, from_seat: int) -> None:
            votes = len(self.session.abandon_votes)
            deliver(envelope_bytes, from_seat)
            if len(self.session.abandon_votes) != votes and not self.is_over:
                self._update_status()
            self._tell()

        peer.deliver = deliver_and_tell  # type: ignore[method-assign]

    def stalled(self) -> tuple[Seat, ...]:
        """Seats the peer reports as stalling now (no automatic step for 5 s, or gone while
        owing a decision), and seats another seat has signed that they left (their signature
        is progress, which ends the stall report, but not the stall)."""
        if self.is_over:
            return ()
        seats = set(self._stalls)
        for author, missing in self.session.abandon_votes.items():
            if author != self.human_seat:
                seats.update(missing)
        seats.discard(self.human_seat)
        return tuple(sorted(seats))

    def abandon_votes(self) -> dict[Seat, tuple[Seat, ...]]:
        """Who has signed that the game ends as abandoned, and by which seats."""
        return dict(self.session.abandon_votes)

    def abandon(self) -> None:
        """Sign that the game ends as abandoned by the stalled seats (§11).

        Raises:
            IllegalActionError: nobody stalls, or the game is over.
        """
        seats = self.stalled()
        if not seats:
            raise IllegalActionError("no seat has stopped answering")
        self.peer.abandon(seats)
        self.abandon_signed = True
        self._update_status()

    def is_connected(self, seat: Seat) -> bool:
        """Whether this seat's mesh has an open link to ``seat`` (the person's own: True)."""
        mesh = self.peer.mesh
        return seat == self.human_seat or mesh is None or seat in mesh.connected_seats()

    def human_to_act(self) -> bool:
        """Whether the game waits for the person (never once the peer has stopped)."""
        return not self.peer.is_over and self.session.decision_due()

    def watching(self) -> tuple[str, ...]:
        """The spectators, as the seat that serves them (the host's) lists them."""
        return tuple(
            name for seat in sorted(self.peer.spectators) for name, _ in self.peer.spectators[seat]
        )

    def submit(self, action: Action) -> list[GameEvent]:
        """Sign, log and send the person's ``action``; the events it applied here at once
        (none when another seat orders it, e.g. a discard or a trade answer).

        Raises:
            IllegalActionError: not the person's move, or not legal now; nothing changes.
        """
        if self.is_over:
            raise IllegalActionError("the game is over")
        before = len(self.events)
        self.peer.submit(action)
        return self.events[before:]

    def _on_peer_event(self, event: PeerEvent) -> None:
        kind = event.kind
        if self.chat.hear(kind, event.text, event.author):
            self._tell()
        elif kind == "applied" and event.action is not None:
            self._narrate_action(event.action)
            if self.stopped is None and self._stalls:
                self._stalls.clear()  # progress: whatever stalled has moved on
                self._update_status()
        elif kind == "stall":
            if event.author is None:  # "the game moves on again"
                self._stalls.clear()
            elif event.text.startswith("waiting for"):
                if event.time - self._stall_time > 1.0:  # a new report: forget the last one
                    self._stalls.clear()
                self._stall_time = event.time
                self._stalls[event.author] = self.seat_words(event.text)
            else:  # giving up, or cannot
                self.notes.append(self.seat_words(event.text))
            self._update_status()
        elif kind == "abandoned":
            self._stalls.clear()
            self.status = self.seat_words(event.text)
        elif kind == "stopped":
            self.status = self.seat_words(event.text)
        elif kind == "link" and event.author is not None:
            self.links[event.author] = event.text.split(": ", 1)[-1]
        elif kind in ("rejected", "note", "error"):
            self.notes.append(self.seat_words(event.text))
        elif kind == "over":
            self.status = ""
        elif kind not in (
            "signed",
            "spectators",
        ):  # this seat's own automatic steps can make a decision due
            return
        self._tell()

    def _update_status(self) -> None:
        """The stall reports, then who has signed that the game is abandoned."""
        parts = [self._stalls[s] for s in sorted(self._stalls)]
        for author, missing in sorted(self.session.abandon_votes.items()):
            who = "you" if author == self.human_seat else self.names[author]
            gone = ", ".join(self.names[s] for s in missing)
            parts.append(f"{who} signed that {gone} left")
        if parts and not self.abandon_signed and self.session.abandon_votes:
            parts[-1] += " (A to agree)"
        self.status = "; ".join(parts)


class WatchGame(GameClient):
    """A spectator's game (`hexlan watch`): the observer session of a
    :class:`~hexlan.net.watch.Spectator` that has the opening, read-only.

    Its view is a third party's (``human_seat`` is :data:`NO_SEAT`): every hand is hidden, a
    steal or a draw between seats is never named. Nothing can be submitted. The spectator's
    news arrives through :meth:`hear` (the shell's ``on_event``); :attr:`status` says when the
    connection to the table is lost and being redialled.

    Raises:
        ValueError: the spectator has no opening yet.
    """

    def __init__(self, spectator: Spectator) -> None:
        session = spectator.session
        if session is None:
            raise ValueError("the spectator has no opening yet")
        super().__init__(session, [s.name for s in session.opening.seats])
        self.spectator = spectator
        self.chat = TableChat(spectator.say)
        """The table chat (PROTOCOL.md §18: spectators read it, and write where the host lets
        them: a refusal comes back as a system line)."""

    def human_to_act(self) -> bool:
        """Never: a spectator has no seat."""
        return False

    def is_connected(self, seat: Seat) -> bool:
        """Whether the spectator hears the table now (it hears every seat through the host)."""
        return self.spectator.connected

    def watching(self) -> tuple[str, ...]:
        """The spectators as the host lists them (this one included)."""
        return tuple(s.name for s in self.spectator.spectators)

    def submit(self, action: Action) -> list[GameEvent]:
        """Refused: a spectator has no seat.

        Raises:
            IllegalActionError: always.
        """
        raise IllegalActionError("a spectator has no seat: it cannot move")

    def hear(self, event: WatchEvent) -> None:
        """Take one of the spectator's events: narrate an action, keep link news and a stop
        in :attr:`status`, and call :attr:`on_change`."""
        if self.chat.hear(event.kind, event.text, event.author):
            self._tell()
            return
        if event.kind == "applied" and event.action is not None:
            self._narrate_action(event.action)
        elif event.kind == "link":
            self.status = "" if self.spectator.connected else self.seat_words(event.text)
        elif event.kind in ("stopped", "abandoned"):
            self.status = self.seat_words(event.text)
        self._tell()
