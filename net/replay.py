"""`hexlan replay LOG`: a game log as a timeline of engine actions, and a cursor that steps
through it (sans-IO: no Textual, no clock; the screen is :mod:`hexlan.tui.screens.replay`).

:func:`read_timeline` replays the log's messages through an observer
:class:`~hexlan.net.session.Session` (as `hexlan verify` does: every signature, chain, beacon
output and move checked) and keeps every engine action it applied, in order, as a
:class:`Step`: the turn, the seat it concerns, the action as a third party saw it (a stolen card
and another seat's drawn card are None), the dice total of a roll, and the public-state hash after
it. A log that breaks a rule or stops early (abandoned, cut short, a torn last record) gives the
timeline up to that point and says why it ends there. When the log holds a passed end-of-game
audit (PROTOCOL.md §14), every hidden card is known: :func:`hexlan.net.audit.resolved_actions`
resolves each action, so the timeline can also show each seat's own view and every hand.

:class:`Replayer` is the cursor: :meth:`~Replayer.seek` to a step, to a turn, forward or back; it
holds one seat's :class:`~hexlan.engine.info.InformationState` (what that seat saw: the log's own
seat by default) and, once the audit opened every hand, the full
:class:`~hexlan.engine.state.GameState`. It reads like a game client (``view``, ``names``,
``events``, ``rolls``, ``human_seat``: :class:`~hexlan.net.client.GameReader`), so the
table's panels draw it unchanged.

>>> read_timeline("/nonexistent.hexlan")
Traceback (most recent call last):
...
hexlan.net.replay.ReplayError: cannot read the file: No such file or directory
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action, action_to_list
from hexlan.engine.board import Board
from hexlan.engine.core import NO_SEAT, Seat
from hexlan.engine.info import InformationState
from hexlan.engine.state import GameState
from hexlan.net.audit import resolved_actions
from hexlan.net.chat import ChatBook, ChatLine, safe_text
from hexlan.net.effects import Applied, Rejected, Stopped
from hexlan.net.identity import fingerprint
from hexlan.net.log import LogContents, LogFormatError, load_secrets, read_log, secrets_path
from hexlan.net.narrate import GameEvent, Narrator
from hexlan.net.session import Session
from hexlan.net.wire import PROTOCOL_VERSION, Envelope, Opening, ProtocolError

PLAY_NOTE: Final = "peer: human (hexlan play"
"""The start of the note a `hexlan play` log carries: its seat is the person's, seat 0."""


class ReplayError(ValueError):
    """A file that cannot be replayed: not a readable log, or a game that never began. The
    message is one line."""


@dataclass(frozen=True, slots=True)
class Step:
    """One engine action of the game, as the log shows it to a third party.

    Attributes:
        number: the step's position in the timeline, from 1.
        message: the position among the log's message records (from 1) of the message that
            made it happen.
        seat: the seat the action concerns: its maker, or for a chance outcome the active seat
            (the roller, the buyer of a drawn card, the thief); None for the start-player draw.
        action: the action with hidden parts as a third party sees them (None).
        turn: the turn counter after the action (0 in the set-up).
        dice: the total, when the action is a dice roll; else None.
        state_hash: :meth:`~hexlan.engine.state.GameState.public_hash` after the action: equal
            for every seat's view of the game at that point.
    """

    number: int
    message: int
    seat: Seat | None
    action: Action
    turn: int
    dice: int | None
    state_hash: str

    def to_json(self) -> dict[str, Any]:
        """The step as plain data: ``{"step", "message", "turn", "seat", "action", "dice",
        "state_hash"}``, the action as :func:`~hexlan.engine.actions.action_to_list` gives it."""
        return {
            "step": self.number,
            "message": self.message,
            "turn": self.turn,
            "seat": self.seat,
            "action": action_to_list(self.action),
            "dice": self.dice,
            "state_hash": self.state_hash,
        }


@dataclass(frozen=True, slots=True)
class Timeline:
    """A log's game, action by action.

    Attributes:
        path: the log file.
        opening: the game's opening.
        board: the board the game began on (before play revealed fog or swapped tokens).
        names: the seats' names, in seat order.
        steps: every engine action applied, in order.
        ending: why the timeline ends where it does, in words ("won by Di (seat 3)",
            "abandoned", "stops at message 12: ...", "unfinished").
        seat: the log's own seat when known (from its secrets file, or seat 0 of a `hexlan play`
            log), else None.
        resolved: when the log holds a passed audit, every step's action with its hidden parts
            resolved (the true card drawn, the true card stolen); else None.
        chat: the table chat lines the log holds (PROTOCOL.md §18), in log order, each checked
            against its author's key (a line that does not check is left out).
    """

    path: Path
    opening: Opening
    board: Board
    names: tuple[str, ...]
    steps: tuple[Step, ...]
    ending: str
    seat: Seat | None
    resolved: tuple[Action, ...] | None
    chat: tuple[ChatLine, ...] = ()

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def last_turn(self) -> int:
        """The turn counter at the end of the timeline (0: it ends in the set-up)."""
        return self.steps[-1].turn if self.steps else 0

    def turn_start(self, turn: int) -> int:
        """The cursor position (steps applied) at which ``turn`` has begun: just after the
        step that made the turn counter reach it (0 for the set-up); past the last turn, the
        end of the timeline.

        >>> from hexlan.engine.actions import EndTurn
        >>> steps = tuple(Step(n, n, 0, EndTurn(), t, None, "") for n, t in [(1, 0), (2, 1), (3, 1)])
        >>> line = Timeline(Path("x"), None, None, ("A",), steps, "", None, None)  # type: ignore[arg-type]
        >>> line.turn_start(0), line.turn_start(1), line.turn_start(5)
        (0, 2, 3)
        """
        if turn <= 0:
            return 0
        for step in self.steps:
            if step.turn >= turn:
                return step.number
        return len(self.steps)

    def chat_lines(self) -> Iterator[str]:
        """The chat as text a terminal may print: ``NAME (seat S): TEXT`` (a spectator's line
        ``NAME (spectator FINGERPRINT): TEXT``), the text through
        :func:`~hexlan.net.chat.safe_text` (no control sequence, no bidi override)."""
        for line in self.chat:
            if line.spectator is None:
                who = f"{self.names[line.author]} (seat {line.author})"
            else:  # relayed by the host seat (§18)
                who = f"{line.spectator[0]} (spectator {fingerprint(line.spectator[1])})"
            yield safe_text(f"{who}: {line.text}")

    def json_lines(self) -> Iterator[str]:
        """The timeline for tools: one JSON object per step (:meth:`Step.to_json`)."""
        for step in self.steps:
            yield json.dumps(step.to_json(), separators=(",", ":"))


def _log_seat(path: Path, contents: LogContents, opening: Opening) -> Seat | None:
    """The seat whose log this is: its secrets file names it; a `hexlan play` log's note does
    (seat 0 unless a rematch moved the person on)."""
    try:
        secrets = load_secrets(secrets_path(path))
    except (OSError, LogFormatError):
        secrets = None
    if secrets is not None and secrets.game_id == opening.game_id:
        return secrets.seat if 0 <= secrets.seat < len(opening.seats) else None
    for note in contents.notes:
        if note.startswith(PLAY_NOTE):  # seat 0, or the seat a rematch moved the person to
            seat = note.rstrip(")").rpartition("the person's seat ")[2]
            return int(seat) if seat.isdigit() and int(seat) < len(opening.seats) else 0
    return None


def read_timeline(path: str | os.PathLike[str]) -> Timeline:
    """Read a log and replay it into a :class:`Timeline` (see the module docstring).

    Raises:
        ReplayError: the file cannot be read, is not a log, its opening is not one, it was
            played in another protocol version, or the game never began (no board to show).
    """
    path = Path(path)
    try:
        contents = read_log(path)
    except OSError as exc:
        raise ReplayError(f"cannot read the file: {exc.strerror or exc}") from None
    except LogFormatError as exc:
        raise ReplayError(str(exc)) from None
    try:
        opening = Opening.from_payload(contents.opening)
    except ProtocolError as exc:
        raise ReplayError(f"the opening record is not an opening: {exc.reason}") from None
    except Exception as exc:  # a payload no parser foresaw: still one line
        raise ReplayError(f"the opening record is not an opening: {exc}") from None
    if opening.protocol_version != PROTOCOL_VERSION:
        raise ReplayError(
            f"the game was played in hexlan protocol {opening.protocol_version}; "
            f"this replay speaks {PROTOCOL_VERSION}"
        )
    try:
        observer = Session(None, None, opening, None, None)
    except Exception as exc:
        raise ReplayError(f"cannot replay this opening: {exc}") from None
    applied, stop = _feed(observer, contents.messages)
    view = observer.view
    if view is None:
        raise ReplayError("the game never began in this log: there is no board to show")
    names = tuple(s.name for s in opening.seats)
    # The board the game began on: the view's own has fog revealed and tokens swapped by play.
    board = Board.from_dict(view.public_dict()["board"], view.rules.terrains)
    steps = _steps(board, opening, names, applied)
    resolved = None
    report = observer.audit
    if not stop and report is not None and report.passed:
        resolved = tuple(resolved_actions(observer.audit_inputs(), report.draws))
    return Timeline(
        path,
        opening,
        board,
        names,
        steps,
        _ending(observer, names, stop),
        _log_seat(path, contents, opening),
        resolved,
        tuple(ChatBook.of(opening).remember(contents.chats)),
    )


def _feed(observer: Session, messages: Sequence[bytes]) -> tuple[list[tuple[int, Action]], str]:
    """Give every message to the observer until the first refusal; the actions it applied with
    their messages' positions (from 1), and why it stopped early ("" when it did not)."""
    position: dict[bytes, int] = {}
    applied: list[tuple[int, Action]] = []
    for index, data in enumerate(messages, 1):
        try:
            position.setdefault(Envelope.parse(data).id, index)
        except ProtocolError as exc:
            return applied, f"stops at message {index}: {exc.reason}"
        try:
            effects = observer.receive(data)
        except Exception as exc:  # a session bug or an input nothing foresaw: no traceback
            return applied, f"stops at message {index}: {type(exc).__name__}: {exc}"
        for effect in effects:
            if isinstance(effect, Applied):
                applied.append((position.get(effect.message_id, index), effect.action))
            elif isinstance(effect, Rejected | Stopped):
                return applied, f"stops at message {index}: {effect.reason}"
    return applied, ""


def _steps(
    board: Board, opening: Opening, names: Sequence[str], applied: Sequence[tuple[int, Action]]
) -> tuple[Step, ...]:
    """The steps of the applied actions, replayed on a third party's view for their hashes."""
    public = InformationState(board, len(names), NO_SEAT, opening.game_options(), opening.rules())
    steps = []
    for number, (message, action) in enumerate(applied, 1):
        seat: Seat | None = public.actor(action)
        if seat is None or seat < 0:
            seat = None if isinstance(action, A.StartPlayer) else public.active
        public.apply(action)
        dice = action.total if isinstance(action, A.Dice) else None
        steps.append(Step(number, message, seat, action, public.turn, dice, public.public_hash()))
    return tuple(steps)


def _ending(observer: Session, names: Sequence[str], stop: str) -> str:
    if stop:
        return stop
    view = observer.view
    if view is not None and view.is_over and 0 <= view.winner < len(names):
        audit = (
            ""
            if observer.audit is None
            else (", audit passed" if observer.audit.passed else ", audit FAILED")
        )
        return f"won by {names[view.winner]} (seat {view.winner}){audit}"
    if observer.abandoned is not None:
        return "abandoned"
    return "unfinished"


class Replayer:
    """A cursor on a :class:`Timeline`: the game after :attr:`position` steps, as one seat saw
    it, and (once the audit opened every hand) as it truly was.

    It has what the table's panels read of a game client: :attr:`view`, :attr:`names`,
    :attr:`players`, :attr:`human_seat`, :attr:`events`, :attr:`rolls`
    (:class:`hexlan.net.client.GameReader`).

    Args:
        timeline: the game.
        seat: whose view to show. Default: the log's own seat when the audit opened every
            hand (its view can then be rebuilt exactly), else the third party's view
            (:data:`~hexlan.engine.core.NO_SEAT`): without the audit, no seat's hidden cards
            are known to a reader of the log.

    Raises:
        ValueError: a seat not at the table, or a seat's view of a log whose hidden cards were
            never opened.
    """

    def __init__(self, timeline: Timeline, seat: Seat | None = None) -> None:
        if seat is None:
            seat = NO_SEAT if timeline.resolved is None else (timeline.seat or 0)
        if seat != NO_SEAT and not 0 <= seat < timeline.players:
            raise ValueError(f"seat {seat} is not at this table of {timeline.players}")
        if seat != NO_SEAT and timeline.resolved is None:
            raise ValueError(
                "this log holds no passed audit, so no seat's hidden cards are known: "
                "only the public view can be shown"
            )
        self.timeline = timeline
        self.names = timeline.names
        self.players = timeline.players
        self.human_seat: Seat = seat
        self.reveal = False
        """Show the full game (every hand) instead of the seat's view; only when
        :attr:`can_reveal`."""
        self._rewind()

    def _rewind(self) -> None:
        timeline = self.timeline
        options, rules = timeline.opening.game_options(), timeline.opening.rules()
        self._narrator = Narrator(timeline.board, self.names, self.human_seat, options, rules)
        self._full = (
            None
            if timeline.resolved is None
            else GameState(timeline.board, self.players, options, rules)
        )
        self.position = 0

    # ------------------------------------------------------------------ reading

    @property
    def can_reveal(self) -> bool:
        """Whether every hand is known (the log holds a passed audit)."""
        return self._full is not None

    @property
    def seat_view(self) -> InformationState:
        """What :attr:`human_seat` knew at this point (a third party's view for NO_SEAT)."""
        return self._narrator.state

    @property
    def full(self) -> GameState | None:
        """The whole game at this point, every hand included; None without a passed audit."""
        return self._full

    @property
    def view(self) -> GameState:
        """What the screen shows: the full game when :attr:`reveal` is on, else
        :attr:`seat_view`."""
        if self.reveal and self._full is not None:
            return self._full
        return self._narrator.state

    @property
    def events(self) -> list[GameEvent]:
        """The steps so far in words, as :attr:`human_seat` saw them."""
        return self._narrator.events

    @property
    def rolls(self) -> list[int]:
        """The dice totals so far."""
        return self._narrator.rolls

    def watching(self) -> tuple[str, ...]:
        """Nobody: a log does not record who watched the game."""
        return ()

    @property
    def turn(self) -> int:
        """The turn counter at this point."""
        return self._narrator.state.turn

    @property
    def last_step(self) -> Step | None:
        """The step applied last, None at the start."""
        return self.timeline.steps[self.position - 1] if self.position else None

    @property
    def at_end(self) -> bool:
        return self.position >= len(self.timeline.steps)

    # ------------------------------------------------------------------ moving

    def seek(self, position: int) -> None:
        """Move to just after ``position`` steps (clamped to the timeline); going back replays
        from the start (a whole game takes a few tenths of a second)."""
        position = max(0, min(len(self.timeline.steps), position))
        if position < self.position:
            self._rewind()
        while self.position < position:
            self._forward()

    def _forward(self) -> None:
        index = self.position
        action = self.timeline.steps[index].action
        full = self._full
        if full is not None:
            assert self.timeline.resolved is not None
            true = self.timeline.resolved[index]
            action = full.observation(true, self.human_seat)
            full.apply(true)
        self._narrator.narrate(action)
        self.position += 1

    def step(self, count: int = 1) -> None:
        """Move ``count`` steps on (negative: back)."""
        self.seek(self.position + count)

    def goto_turn(self, turn: int) -> None:
        """Move to the start of ``turn`` (0: the start of the set-up)."""
        self.seek(self.timeline.turn_start(turn))

    def next_turn(self) -> None:
        """Move to the start of the next turn (or the end)."""
        self.goto_turn(self.turn + 1)

    def previous_turn(self) -> None:
        """Move to the start of this turn, or of the one before when already there."""
        start = self.timeline.turn_start(self.turn)
        self.seek(start if start < self.position else self.timeline.turn_start(self.turn - 1))


__all__ = ["ReplayError", "Replayer", "Step", "Timeline", "read_timeline"]
