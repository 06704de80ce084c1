"""`hexlan verify LOG... [--json]`: re-check signed game logs as a third party (PROTOCOL.md §9).

Each log is replayed through an *observer* :class:`~hexlan.net.session.Session` (one that belongs
to no seat, checks and applies every message as a third party and never signs): every
signature, every author's hash chain, the order rule, every beacon preimage against its chain and
every beacon output the session derives (dice, start player, random board, steal index, the
shuffle proofs' challenge event), the mental-poker deck (every key proof, shuffle proof, decryption share and card
reveal), every action through the engine (the observer's
:class:`~hexlan.engine.info.InformationState`, seat :data:`~hexlan.engine.core.NO_SEAT`), every
Monopoly count and every turn acknowledgement's public-state hash. Once every seat's audit
secrets are in, the observer runs the end-of-game audit itself (PROTOCOL.md §14: the whole
full-information game, every steal, every shuffle recomputed) and compares each seat's signed
result with its own. On top of the session this module checks that every message is for the
log's opening, that every seat signed that very opening, the log's equivocation records, and,
across the logs given together, that no author signed two different messages with one sequence
number.

The replay of a log stops at its first violation; each audit deviation is a violation naming
the seat and the message.

Exit codes (:data:`EXIT_VALID` ...): 0 when every log is valid, finished and audited, 1 when any
breaks a rule (the audit's deviations included), 2 when a file cannot be read as a log, 3 when
valid so far but unfinished, abandoned or unaudited; with several logs the most serious wins,
in the order 2, 1, 3, 0.

With ``--stats`` the report ends with fairness statistics over the games of the logs given
(:func:`stats_report`): the dice totals and development-card draws against the expected ones, with
chi-square p-values. They are information, not a verdict: the exit code does not depend on them.

>>> import io
>>> out = io.StringIO()
>>> main(["/nonexistent.hexlan"], as_json=False, out=out)
2
>>> print(out.getvalue().strip())
/nonexistent.hexlan: unreadable: cannot read the file: No such file or directory
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, TextIO

from hexlan.engine.actions import Dice
from hexlan.engine.ruleset import DEVELOPMENT_DECK, load_ruleset, state_spec
from hexlan.engine.variants import game_dice
from hexlan.net.effects import Applied, Rejected, Stopped
from hexlan.net.log import LogContents, LogFormatError, read_log
from hexlan.net.session import Session, engine_version, other_game_words
from hexlan.net.stats import (
    Distribution,
    combined,
    dice_distribution,
    die_distribution,
    draw_distribution,
)
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    Envelope,
    Opening,
    ProtocolError,
)

EXIT_VALID: Final = 0
"""Every log is valid and its game finished."""
EXIT_INVALID: Final = 1
"""A log breaks a rule (a forged, tampered, illegal or equivocating message)."""
EXIT_UNREADABLE: Final = 2
"""A file cannot be read as a log (or could not be checked at all)."""
EXIT_UNFINISHED: Final = 3
"""Every log is valid so far, but a game is unfinished or abandoned."""

_SEVERITY: Final = {EXIT_VALID: 0, EXIT_UNFINISHED: 1, EXIT_INVALID: 2, EXIT_UNREADABLE: 3}

StrPath = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule in a log.

    Attributes:
        reason: what is wrong, in words.
        message: the message's position among the log's message records (1 = the first), or
            None when the violation is not one message's (e.g. an equivocation record).
        message_id: the message's id (PROTOCOL.md §2), when its envelope could be read.
        author: the seat the violation is attributed to (a message's author; for an
            equivocation, the seat that signed twice), when known.
        seq: the message's sequence number, when its envelope could be read.
        kind: the message's kind, when its envelope could be read.
    """

    reason: str
    message: int | None = None
    message_id: bytes | None = None
    author: int | None = None
    seq: int | None = None
    kind: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The violation as plain data (ids in hex)."""
        return {
            "message": self.message,
            "message_id": None if self.message_id is None else self.message_id.hex(),
            "author": self.author,
            "seq": self.seq,
            "kind": self.kind,
            "reason": self.reason,
        }

    def describe(self) -> str:
        """One line: where, then why."""
        if self.message is None:
            where = "log" if self.author is None else f"seat {self.author}"
            return f"{where}: {self.reason}"
        parts = []
        if self.author is not None:
            parts.append(f"seat {self.author}")
        if self.seq is not None:
            parts.append(f"#{self.seq}" if self.kind is None else f"#{self.seq} {self.kind}")
        if self.message_id is not None:
            parts.append(f"id {self.message_id.hex()[:16]}…")
        detail = f" ({', '.join(parts)})" if parts else ""
        return f"message {self.message}{detail}: {self.reason}"


@dataclass(frozen=True, slots=True)
class LogReport:
    """What the replay of one log found.

    Attributes:
        path: the log file.
        error: why the file could not be read or checked (None when it could).
        game_id: the opening's game id (None when the opening could not be read).
        game: the game the opening names ("base", "five-six", ...; PROTOCOL.md §3).
        names: the seats' names, in seat order.
        messages: how many message records the log holds.
        finished: whether the game ended with a winner.
        winner: the winning seat, when finished.
        turn: the turn the replay reached (None before the game began).
        abandoned_by: seats whose signed ``abandon`` the log holds (an abandoned game).
        left_owing: for an abandoned game, each missing seat and the step it owed when the
            others left it behind (``"reveal 7"``, ``"decision"``, ...), PROTOCOL.md §11.
        violations: the broken rules (the replay stops at the first one in the game's order;
            cross-log equivocations may add more).
        warnings: things worth knowing that break no rule (a torn last record, another engine
            version, a game with seeded local chance...).
        audit: the end-of-game audit (PROTOCOL.md §14): "passed" (this replay's own audit found
            nothing and every seat signed the same result), "failed" (deviations, listed among
            the violations), "unaudited" (the game was won but the audit is incomplete), or
            None (no game was won).
        unaudited_by: seats that owe their audit secrets or result, when unaudited.
        dice: every dice total the replay applied (2 .. 12), in game order.
        rolls: every roll of a game's own die the replay applied (Cities & Knights' event
            die: :attr:`GameSpec.dice <hexlan.engine.gamespec.GameSpec.dice>`), as ``(die name,
            outcome index)``, in game order.
        draws: the development card drawn at each draw (:class:`~hexlan.engine.core.DevCard`
            values), in game order, when the log lets a third party know them.
    """

    path: Path
    error: str | None = None
    game_id: bytes | None = None
    game: str = "base"
    names: tuple[str, ...] = ()
    messages: int = 0
    finished: bool = False
    winner: int | None = None
    turn: int | None = None
    abandoned_by: tuple[int, ...] = ()
    left_owing: tuple[tuple[int, str], ...] = ()
    violations: tuple[Violation, ...] = ()
    warnings: tuple[str, ...] = ()
    audit: str | None = None
    unaudited_by: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    rolls: tuple[tuple[str, int], ...] = ()
    draws: tuple[int, ...] = ()

    @property
    def readable(self) -> bool:
        return self.error is None

    @property
    def valid(self) -> bool:
        """Read, checked, and no rule broken (the game may still be unfinished)."""
        return self.error is None and not self.violations

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_UNREADABLE
        if self.violations:
            return EXIT_INVALID
        return EXIT_VALID if self.finished and self.audit == "passed" else EXIT_UNFINISHED

    @property
    def status(self) -> str:
        """One word: "valid", "invalid", "unreadable", "unfinished", "unaudited" or
        "abandoned"."""
        code = self.exit_code
        if code == EXIT_UNFINISHED:
            if self.abandoned_by:
                return "abandoned"
            return "unaudited" if self.finished else "unfinished"
        return {EXIT_VALID: "valid", EXIT_INVALID: "invalid", EXIT_UNREADABLE: "unreadable"}[code]

    def winner_name(self) -> str | None:
        if self.winner is None or not 0 <= self.winner < len(self.names):
            return None
        return self.names[self.winner]

    def to_json(self) -> dict[str, Any]:
        """The report as plain data (the ``--json`` shape; ids in hex)."""
        return {
            "path": str(self.path),
            "game_id": None if self.game_id is None else self.game_id.hex(),
            "game": self.game,
            "valid": self.valid,
            "finished": self.finished,
            "winner": self.winner,
            "winner_name": self.winner_name(),
            "status": self.status,
            "error": self.error,
            "messages": self.messages,
            "turn": self.turn,
            "abandoned_by": list(self.abandoned_by),
            "left_owing": {str(seat): step for seat, step in self.left_owing},
            "audit": self.audit,
            "unaudited_by": list(self.unaudited_by),
            "violations": [v.to_json() for v in self.violations],
            "warnings": list(self.warnings),
        }

    def _audit_words(self) -> str:
        if self.audit == "passed":
            return "audit passed and signed by every seat"
        if self.audit == "failed":
            return "audit FAILED"
        seats = ", ".join(str(s) for s in self.unaudited_by)
        plural = "s" if len(self.unaudited_by) > 1 else ""
        owing = f" (waiting for seat{plural} {seats})" if seats else ""
        return f"UNAUDITED{owing}"

    def lines(self) -> list[str]:
        """The human report: a line for the log, then its violations and warnings indented."""
        if self.error is not None:
            head = f"{self.path}: unreadable: {self.error}"
        else:
            words = ["valid" if self.valid else "INVALID"]
            if self.finished:
                words.append("finished")
                words.append(f"winner seat {self.winner} ({self.winner_name()})")
                words.append(self._audit_words())
            elif self.abandoned_by:
                seats = ", ".join(str(s) for s in self.abandoned_by)
                owing = "; ".join(f"seat {seat} owed its {step}" for seat, step in self.left_owing)
                words.append(
                    f"abandoned (signed by seat{'s' if len(self.abandoned_by) > 1 else ''} {seats}"
                    f"{': ' + owing if owing else ''})"
                )
            elif self.turn is None:
                words.append("unfinished (before the first turn)")
            else:
                words.append(f"unfinished (turn {self.turn})")
            if self.valid and self.exit_code == EXIT_UNFINISHED:
                words[0] = "valid so far"
            assert self.game_id is not None
            game = "game" if self.game == "base" else f"{self.game} game"
            words.append(f"{game} {self.game_id.hex()[:8]}…")
            head = f"{self.path}: {', '.join(words)}"
        lines = [head]
        lines.extend(f"    {v.describe()}" for v in self.violations)
        lines.extend(f"    note: {w}" for w in self.warnings)
        return lines


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The reports of every log, in the order given."""

    logs: tuple[LogReport, ...]

    @property
    def exit_code(self) -> int:
        """The most serious log's code (2, then 1, then 3, then 0); 2 for no log at all."""
        if not self.logs:
            return EXIT_UNREADABLE
        return max((log.exit_code for log in self.logs), key=_SEVERITY.__getitem__)

    def to_json(self) -> dict[str, Any]:
        return {"logs": [log.to_json() for log in self.logs]}

    def lines(self) -> list[str]:
        return [line for log in self.logs for line in log.lines()]


# ---------------------------------------------------------------------------- one log


@dataclass(slots=True)
class _Replay:
    """The state of one log's replay."""

    path: Path
    contents: LogContents
    opening: Opening
    observer: Session
    violations: list[Violation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    abandoned_by: set[int] = field(default_factory=set)
    envelopes: dict[int, Envelope] = field(default_factory=dict)  # by message position (0-based)
    index_of: dict[bytes, int] = field(default_factory=dict)  # message id -> first position
    dice: list[int] = field(default_factory=list)  # totals applied, in order
    rolls: list[tuple[str, int]] = field(default_factory=list)  # own dice's rolls, in order

    def violation(self, reason: str, index: int | None, author: int | None = None) -> None:
        env = None if index is None else self.envelopes.get(index)
        if env is None:
            self.violations.append(
                Violation(reason, None if index is None else index + 1, author=author)
            )
            return
        body = env.body
        self.violations.append(
            Violation(
                reason,
                index + 1 if index is not None else None,
                env.id,
                body.author if author is None else author,
                body.seq,
                body.kind,
            )
        )

    def index_of_envelope(self, data: bytes) -> int | None:
        try:
            return self.index_of.get(Envelope.parse(data).id)
        except (ProtocolError, ValueError):
            return None


def _unreadable(path: Path, reason: str, **known: Any) -> tuple[LogReport, dict[Any, Any]]:
    return LogReport(path, error=reason, **known), {}


def _check_log(path: Path) -> tuple[LogReport, dict[tuple[int, int], tuple[bytes, int]]]:
    """Replay one log; also return its accepted messages as ``(author, seq) -> (id, index)``
    for the cross-log equivocation check."""
    try:
        contents = read_log(path)
    except OSError as exc:
        return _unreadable(path, f"cannot read the file: {exc.strerror or exc}")
    except LogFormatError as exc:
        return _unreadable(path, str(exc))
    except Exception as exc:  # a file no reader foresaw: still no traceback
        return _unreadable(path, f"cannot read the log: {type(exc).__name__}: {exc}")
    try:
        opening = Opening.from_payload(contents.opening)
    except ProtocolError as exc:
        return _unreadable(path, f"the opening record is not an opening: {exc.reason}")
    except Exception as exc:
        return _unreadable(path, f"the opening record is not an opening: {exc}")
    known: dict[str, Any] = {
        "game_id": opening.game_id,
        "game": opening.game,
        "names": tuple(s.name for s in opening.seats),
        "messages": len(contents.messages),
    }
    if opening.protocol_version != PROTOCOL_VERSION:
        return _unreadable(
            path,
            f"the game was played in hexlan protocol {opening.protocol_version}; "
            f"this verifier speaks {PROTOCOL_VERSION}",
            **known,
        )
    try:
        observer = Session(None, None, opening, None, None)
    except Exception as exc:
        return _unreadable(path, f"cannot replay this opening: {exc}", **known)
    replay = _Replay(path, contents, opening, observer)
    ours = engine_version()
    if opening.engine_version != ours:
        replay.warnings.append(
            f"the game was played with engine {opening.engine_version}; replayed with {ours}"
        )
    if contents.torn_tail:
        replay.warnings.append(
            "the file ends inside a record (a crash while writing); that record is ignored"
        )
    if any(note.startswith("not fair") for note in contents.notes):
        replay.warnings.append("the game was played with seeded local chance: not fair")
    if contents.evidence:
        replay.warnings.append(
            f"the log keeps {len(contents.evidence)} refused message(s) as evidence; "
            "they are not part of the game"
        )
    try:
        _replay_messages(replay)
    except Exception as exc:  # a session bug or an input nothing foresaw: no traceback
        return _unreadable(
            path,
            f"could not be checked past message {len(replay.envelopes)}: "
            f"{type(exc).__name__}: {exc}",
            **known,
        )
    _check_equivocation_records(replay)
    audit, unaudited_by = _check_audit(replay)
    view = observer.game
    winners = () if view is None else view.winners()
    finished = view is not None and view.is_over
    report = LogReport(
        path,
        finished=finished,
        winner=winners[0] if finished and winners else None,
        turn=None if view is None or view.turn == 0 else view.turn,
        abandoned_by=tuple(sorted(replay.abandoned_by)) if not finished else (),
        left_owing=()
        if finished or observer.abandoned is None
        else tuple((o.seat, o.describe()) for o in observer.abandon_owed),
        violations=tuple(replay.violations),
        warnings=tuple(replay.warnings),
        audit=audit,
        unaudited_by=unaudited_by,
        dice=tuple(replay.dice),
        rolls=tuple(replay.rolls),
        draws=() if observer.audit is None else tuple(observer.audit.draws),
        **known,
    )
    accepted = {
        (author, seq): (env.id, replay.index_of.get(env.id, -1))
        for author, msgs in enumerate(observer.accepted)
        for seq, env in enumerate(msgs)
    }
    return report, accepted


def _replay_messages(replay: _Replay) -> None:
    """Feed every logged message to the observer, in log order, until the first violation."""
    observer, game_id = replay.observer, replay.opening.game_id
    players = len(replay.opening.seats)
    own_dice = game_dice()
    for index, data in enumerate(replay.contents.messages):
        try:
            env = Envelope.parse(data)
        except ProtocolError as exc:
            replay.violation(f"not a well-formed message: {exc.reason}", index)
            return
        replay.envelopes[index] = env
        replay.index_of.setdefault(env.id, index)
        body = env.body
        if body.game_id != game_id:
            if 0 <= body.author < players:  # a changed byte, rather than another game?
                try:
                    env.verify(replay.opening.seats[body.author].public_key)
                except ProtocolError as exc:
                    replay.violation(exc.reason, index)
                    return
            replay.violation(
                other_game_words(replay.opening, body)
                or f"the message belongs to game {body.game_id.hex()}, not to this log's opening "
                f"(game {game_id.hex()})",
                index,
            )
            return
        for effect in observer.receive(data):
            if isinstance(effect, Rejected):
                culprit = replay.index_of_envelope(effect.envelope)
                replay.violation(
                    effect.reason, index if culprit is None else culprit, effect.author
                )
                return
            if isinstance(effect, Stopped):
                culprit = replay.index_of_envelope(effect.evidence[-1]) if effect.evidence else None
                replay.violation(
                    effect.reason, index if culprit is None else culprit, effect.author
                )
                return
            if isinstance(effect, Applied) and isinstance(effect.action, Dice):
                replay.dice.append(effect.action.total)
            elif isinstance(effect, Applied) and type(effect.action) in own_dice:
                for die in own_dice[type(effect.action)]:
                    replay.rolls.extend((die.name, o) for o in die.rolled(effect.action))
        if body.kind == "sign_opening" and _was_accepted(observer, env):
            signed = body.payload[0]
            try:
                same = Opening.from_payload(signed).game_id == game_id
            except ProtocolError:
                same = False
            if not same:
                replay.violation(
                    f"seat {body.author} signed another opening than this log's", index
                )
                return
    contested = observer.contested_by_me
    if contested is not None and not observer.accusations:
        # a check only an accusation could settle, and the log holds none (§11.1)
        message_id, reason, author = contested
        replay.violation(reason, replay.index_of.get(message_id), author)
        return
    if observer.abandoned is not None:
        replay.abandoned_by.update(observer.abandon_votes)
        if observer.accusations:  # the audit of an accused game was withheld (§11.1)
            for seat in observer.abandoned:
                replay.violation(
                    f"seat {seat} withheld its audit secrets after an accusation", None, seat
                )
            return
    for index, env in replay.envelopes.items():
        if not _was_accepted(observer, env):
            replay.violation(
                "never accepted: a message it follows or lists in its heads is not in the log "
                "before it",
                index,
            )
            return


def _check_audit(replay: _Replay) -> tuple[str | None, tuple[int, ...]]:
    """The end-of-game audit as this replay found it (PROTOCOL.md §14): the observer ran its
    own audit once every seat's secrets were in; each deviation it found is a violation naming
    the seat and the message, and so is every seat's signed result that differs from it.

    Returns:
        ``(audit, unaudited_by)`` for :class:`LogReport`.
    """
    observer = replay.observer
    if replay.violations or observer.game is None or not observer.game.is_over:
        return None, ()
    report = observer.audit
    if report is None or observer.audited is None:
        return "unaudited", tuple(observer.waiting_on())
    for deviation in report.deviations:
        index = replay.index_of.get(deviation.message_id) if deviation.message_id else None
        replay.violation(f"audit: {deviation.reason}", index, deviation.seat)
    for seat in observer.audited.disagreeing:
        env = observer.accepted[seat][-1]
        replay.violation(
            f"seat {seat} signed an audit result that differs from this replay's audit",
            replay.index_of.get(env.id),
            seat,
        )
    return ("failed" if replay.violations else "passed"), ()


def _was_accepted(observer: Session, env: Envelope) -> bool:
    body = env.body
    if not 0 <= body.author < observer.players:
        return False
    msgs = observer.accepted[body.author]
    return body.seq < len(msgs) and msgs[body.seq].id == env.id


def _check_equivocation_records(replay: _Replay) -> None:
    """An equivocation record proves its author signed twice when both envelopes are this
    game's, have one author and ``seq``, differ, and carry that author's valid signatures."""
    seats = replay.opening.seats
    for number, record in enumerate(replay.contents.equivocations, 1):
        try:
            a, b = (Envelope.parse(e) for e in record.envelopes())
            author = a.body.author
            if not (
                a.body.game_id == b.body.game_id == replay.opening.game_id
                and author == b.body.author
                and 0 <= author < len(seats)
                and a.body.seq == b.body.seq
                and a.id != b.id
            ):
                raise ValueError("the two messages are not one author's two versions of one")
            a.verify(seats[author].public_key)
            b.verify(seats[author].public_key)
        except (ProtocolError, ValueError) as exc:
            reason = exc.reason if isinstance(exc, ProtocolError) else str(exc)
            replay.warnings.append(f"equivocation record {number} proves nothing: {reason}")
            continue
        replay.violations.append(
            Violation(
                f"seat {author} signed two different messages as number {a.body.seq} "
                f"(equivocation record {number}: ids {a.id.hex()[:16]}…, {b.id.hex()[:16]}…)",
                None,
                b.id,
                author,
                a.body.seq,
                b.body.kind,
            )
        )


# ---------------------------------------------------------------------------- entry points


def verify_logs(paths: Sequence[StrPath]) -> VerifyReport:
    """Replay and check every log (see the module docstring); never raises for a bad file.

    Logs of one game are also compared: a seat whose message number ``n`` differs between two
    logs signed two messages as ``n`` (an equivocation), reported on the later log.
    """
    reports: list[LogReport] = []
    seen: dict[bytes, dict[tuple[int, int], tuple[bytes, Path]]] = {}
    for raw in paths:
        path = Path(raw)
        report, accepted = _check_log(path)
        if report.game_id is not None and accepted:
            known = seen.setdefault(report.game_id, {})
            extra: list[Violation] = []
            for (author, seq), (msg_id, index) in sorted(accepted.items()):
                other = known.get((author, seq))
                if other is None:
                    known[(author, seq)] = (msg_id, path)
                elif other[0] != msg_id:
                    extra.append(
                        Violation(
                            f"seat {author} signed two different messages as number {seq}: "
                            f"{other[1]} holds another one (id {other[0].hex()[:16]}…)",
                            index + 1 if index >= 0 else None,
                            msg_id,
                            author,
                            seq,
                        )
                    )
            if extra:
                report = _with_violations(report, extra)
        reports.append(report)
    return VerifyReport(tuple(reports))


def _with_violations(report: LogReport, extra: list[Violation]) -> LogReport:
    return replace(report, violations=report.violations + tuple(extra))


def _games(report: VerifyReport) -> list[list[LogReport]]:
    """The replayed logs (read and checked, valid or not), one list per game id, in the order
    given."""
    games: dict[bytes | None, list[LogReport]] = {}
    for log in report.logs:
        if log.error is None:
            games.setdefault(log.game_id, []).append(log)
    return list(games.values())


def stats_report(report: VerifyReport) -> list[Distribution]:
    """The dice totals, each game's own die where a game rolls it (Cities & Knights' event die)
    and,
    when some log makes them known, the development cards drawn, over the games of the replayed
    logs, each against what fair chance expects (:mod:`hexlan.net.stats`).

    Each game counts once: its seats' logs share its game id, and its dice come from its log with
    the most dice, its draws from its log with the most draws, each against its own game's deck
    (:func:`~hexlan.net.stats.combined`: a 5-6 player game deals from 34 cards, a base game from
    25). A file that could not be read or checked counts nothing; a log that breaks a rule counts
    what its replay applied before the violation.

    Returns:
        ``[dice]``, then each own die's when some game rolled it, then the draws when some
        log holds them.
    """
    games = _games(report)
    dice = dice_distribution(
        total for logs in games for total in max(logs, key=lambda log: len(log.dice)).dice
    )
    rolls = [roll for logs in games for roll in max(logs, key=lambda log: len(log.rolls)).rolls]
    found = [dice]
    for die in (die for dice in game_dice().values() for die in dice):
        outcomes = [outcome for name, outcome in rolls if name == die.name]
        if outcomes:
            found.append(die_distribution(die, outcomes))
    parts = []
    for logs in games:
        drawn = max(logs, key=lambda log: len(log.draws))
        if drawn.draws:
            deck = load_ruleset(drawn.game).development_deck
            parts.append(draw_distribution(drawn.draws, deck))
    if not parts:
        return found
    return [*found, combined(parts)]


def main(
    paths: Sequence[StrPath],
    as_json: bool = False,
    out: TextIO | None = None,
    stats: bool = False,
) -> int:
    """`hexlan verify LOG... [--json] [--stats]`: print the report and return the exit code.

    Human output: one line per log (``path: valid, finished, winner seat 2 (Name), game
    3f9a01c2…``), then its violations and notes indented; with ``stats``, then ``fairness over N
    games:`` and the tables of :func:`stats_report`, each with its bar chart. ``--json``
    prints ``{"logs": [{"path",
    "game_id", "valid", "finished", "winner", "violations": [...], ...}]}``, with ``stats`` also
    ``"stats": {"games": N, "distributions": [...]}`` (see
    :meth:`~hexlan.net.stats.Distribution.to_json`). ``stats`` leaves the exit code unchanged.
    """
    out = sys.stdout if out is None else out
    if not paths:
        print("hexlan verify: no log given", file=out)
        return EXIT_UNREADABLE
    report = verify_logs(paths)
    data, lines = report.to_json(), report.lines()
    if stats:
        games, distributions = len(_games(report)), stats_report(report)
        data["stats"] = {"games": games, "distributions": [d.to_json() for d in distributions]}
        lines.append(f"fairness over {games} game{'' if games == 1 else 's'}:")
        for d in distributions:
            lines.extend(f"  {line}" for line in (*d.lines(), *d.chart_lines()))
        readable = [log for log in report.logs if log.readable]
        if not any(log.draws for log in report.logs) and (
            not readable  # (a game without development cards has none to tell of)
            or any(
                state_spec(log.game) is None and DEVELOPMENT_DECK in load_ruleset(log.game).decks
                for log in readable
            )
        ):
            lines.append("  development-card draws: known only from audited logs")
    if as_json:
        print(json.dumps(data, ensure_ascii=False), file=out)
    else:
        for line in lines:
            print(line, file=out)
    return report.exit_code


__all__ = [
    "EXIT_INVALID",
    "EXIT_UNFINISHED",
    "EXIT_UNREADABLE",
    "EXIT_VALID",
    "LogReport",
    "VerifyReport",
    "Violation",
    "main",
    "stats_report",
    "verify_logs",
]
