"""End-of-game statistics from a game's timeline (issue 26): for every seat its victory points
turn by turn, the cards it received by kind and by source, the cards it lost by cause, and for
the table the dice rolled against fair dice and each change of Longest Road and Largest Army.

Sans-IO: :func:`summarize` reads a :class:`~hexlan.net.replay.Timeline` (``hexlan replay LOG
--summary`` prints it, the game-over screen charts it). The figures come from the events the
rules report (:mod:`hexlan.engine.events`) as the timeline's actions are replayed: through the
whole game when the log holds a passed audit (every stolen card known), else through a third
party's view, where a stolen card's kind is unknown (counted under ``unknown``) and victory
points are the public ones until the winner shows its cards.

Sources of cards received: ``setup`` (the second settlement's resources), ``production`` (the
dice, gold fields included), ``trade`` (with the bank, a harbour or a seat), ``steal`` (the
robber, the pirate), ``cards`` (Year of Plenty, Monopoly), ``other`` (what a game adds: a fog
tile's resource, a fleet's loot). Causes of cards lost: ``robber`` (stolen), ``discards`` (a 7),
``monopoly``, ``trade`` (given), ``other``; cards spent on building are not counted as lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.board import Board
from hexlan.engine.core import NO_SEAT, Seat
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.state import GameState
from hexlan.net.audit import resolved_actions
from hexlan.net.replay import Timeline
from hexlan.net.session import Session
from hexlan.net.stats import Distribution, dice_distribution

SOURCES: Final = ("setup", "production", "trade", "steal", "cards", "other")
"""The sources of cards received, in the order reports list them."""
CAUSES: Final = ("robber", "discards", "monopoly", "trade", "other")
"""The causes of cards lost, in the order reports list them."""
UNKNOWN: Final = "unknown"
"""The kind of a card whose kind a third party never saw (a stolen card, without the audit)."""


@dataclass(slots=True)
class SeatSummary:
    """One seat's figures.

    Attributes:
        seat, name: the seat and its name.
        points: its victory points at the end of the set-up and of each turn (index 0: the
            set-up; public points, plus hidden ones where the audit shows them).
        received: cards received by source (:data:`SOURCES`), then by kind name -> count.
        lost: cards lost by cause (:data:`CAUSES`), then by kind name -> count.
    """

    seat: Seat
    name: str
    points: list[int] = field(default_factory=list)
    received: dict[str, dict[str, int]] = field(default_factory=dict)
    lost: dict[str, dict[str, int]] = field(default_factory=dict)

    def total_received(self, source: str | None = None) -> int:
        """Cards received in all, or from ``source``."""
        tables = self.received.values() if source is None else [self.received.get(source, {})]
        return sum(sum(t.values()) for t in tables)

    def total_lost(self, cause: str | None = None) -> int:
        """Cards lost in all, or by ``cause``."""
        tables = self.lost.values() if cause is None else [self.lost.get(cause, {})]
        return sum(sum(t.values()) for t in tables)


@dataclass(frozen=True, slots=True)
class AwardChange:
    """Longest Road or Largest Army changing hands: in ``turn`` (0: the set-up), from seat
    ``from_seat`` to ``to_seat`` (-1: nobody), at ``size`` roads or knights."""

    turn: int
    award: str
    from_seat: Seat
    to_seat: Seat
    size: int


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game's figures.

    Attributes:
        game: the game's name (its rule set).
        ending: how the timeline ends, in words (``Timeline.ending``).
        winner: the winning seat, or None.
        turns: the turns played.
        audited: whether every hidden card was known (a passed audit in the log).
        seats: each seat's figures, in seat order.
        dice: the dice totals rolled against two fair dice.
        awards: every change of Longest Road and Largest Army, in order.
    """

    game: str
    ending: str
    winner: Seat | None
    turns: int
    audited: bool
    seats: tuple[SeatSummary, ...]
    dice: Distribution
    awards: tuple[AwardChange, ...]

    def to_json(self) -> dict[str, Any]:
        """The figures as plain data (``hexlan replay LOG --summary --json``)."""
        return {
            "game": self.game,
            "ending": self.ending,
            "winner": self.winner,
            "turns": self.turns,
            "audited": self.audited,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "points": s.points,
                    "received": s.received,
                    "lost": s.lost,
                }
                for s in self.seats
            ],
            "dice": {
                "totals": list(self.dice.categories),
                "observed": list(self.dice.observed),
                "expected": [round(e, 3) for e in self.dice.expected],
                "p_value": None if self.dice.p_value is None else round(self.dice.p_value, 4),
            },
            "awards": [
                {
                    "turn": a.turn,
                    "award": a.award,
                    "from": a.from_seat,
                    "to": a.to_seat,
                    "size": a.size,
                }
                for a in self.awards
            ],
        }


class _Tally:
    """The counts as the events come, for one game."""

    def __init__(self, state: GameState, names: Sequence[str]) -> None:
        self.kinds = tuple(kind.name.lower() for kind in state.rules.cards)
        self.seats = tuple(SeatSummary(s, name) for s, name in enumerate(names))
        self.awards: list[AwardChange] = []

    def add(self, table: dict[str, dict[str, int]], key: str, kind: str, count: int) -> None:
        if count > 0:
            row = table.setdefault(key, {})
            row[kind] = row.get(kind, 0) + count

    def hand(self, seat: Seat, cards: Iterable[int], source: str, *, lost: bool = False) -> None:
        if not 0 <= seat < len(self.seats):
            return  # the bank
        summary = self.seats[seat]
        for kind, count in zip(self.kinds, cards, strict=False):
            self.add(summary.lost if lost else summary.received, source, kind, count)

    def event(self, event: E.Event, turn: int) -> None:
        if isinstance(event, E.StartingResources):
            self.hand(event.seat, event.cards, "setup")
        elif isinstance(event, E.Produced):
            for seat, gains in enumerate(event.gains):
                self.hand(seat, gains, "production")
        elif isinstance(event, E.Traded):
            self.hand(event.seat, event.get, "trade")
            self.hand(event.seat, event.give, "trade", lost=True)
            self.hand(event.partner, event.give, "trade")
            self.hand(event.partner, event.get, "trade", lost=True)
        elif isinstance(event, E.Stole):
            kind = UNKNOWN if event.resource is None else self.kinds[event.resource]
            self.add(self.seats[event.thief].received, "steal", kind, 1)
            self.add(self.seats[event.victim].lost, "robber", kind, 1)
        elif isinstance(event, E.Discarded):
            self.hand(event.seat, event.cards, "discards", lost=True)
        elif isinstance(event, E.MonopolyTaken):
            kind = self.kinds[event.resource]
            self.add(self.seats[event.seat].received, "cards", kind, sum(event.amounts))
            for seat, amount in enumerate(event.amounts):
                if seat != event.seat:
                    self.add(self.seats[seat].lost, "monopoly", kind, amount)
        elif isinstance(event, E.BankTaken):
            self.hand(event.seat, event.cards, "cards")
        elif isinstance(event, E.FleetLooted):
            self.hand(event.seat, event.cards, "other", lost=True)
        elif isinstance(event, E.FogRevealed) and event.cards is not None:
            self.hand(event.seat, event.cards, "other")
        elif isinstance(event, E.AwardMoved):
            self.awards.append(
                AwardChange(turn, event.award, event.from_seat, event.to_seat, event.size)
            )


def summarize(timeline: Timeline) -> GameSummary:
    """The end-of-game figures of ``timeline``'s game (its whole timeline: a game cut short
    gives the figures so far).

    Raises:
        EngineError: the timeline's actions do not replay (a timeline :func:`read_timeline`
            built always does).
    """
    opening = timeline.opening
    resolved = timeline.resolved
    return summarize_actions(
        timeline.board,
        timeline.names,
        opening.game_options(),
        opening.rules(),
        resolved if resolved is not None else [step.action for step in timeline.steps],
        audited=resolved is not None,
        ending=timeline.ending,
    )


def summarize_session(session: Session, names: Sequence[str], ending: str) -> GameSummary:
    """The figures of the game ``session`` played so far (the game-over screen's): through
    every hidden card once its audit passed, else as a third party saw the game.

    Raises:
        ValueError: the game has not begun (no board yet), or is a game with a state of
            its own (no Catan board).
    """
    if session.start_board is None or session.rules is None:
        raise ValueError("the game has not begun (or has no Catan board)")
    report = session.audit
    audited = report is not None and report.passed
    actions = (
        list(resolved_actions(session.audit_inputs(), report.draws))
        if report is not None and audited
        else [entry.action for entry in session.journal]
    )
    return summarize_actions(
        session.start_board,
        names,
        session.options,
        session.rules,
        actions,
        audited=audited,
        ending=ending,
    )


def summarize_actions(
    board: Board,
    names: Sequence[str],
    options: GameOptions,
    rules: RuleSet,
    actions: Iterable[Action],
    *,
    audited: bool,
    ending: str,
) -> GameSummary:
    """The figures of the game of ``rules`` on ``board`` (as it began) with one seat per
    name, replaying ``actions``: every hidden part known (``audited``: the full game), or
    as a third party sees them (a stolen card None).

    Raises:
        EngineError: the actions do not replay.
    """
    players = len(names)
    state: GameState = (
        GameState(board, players, options, rules)
        if audited
        else InformationState(board, players, NO_SEAT, options, rules)
    )
    state.record_events = True
    tally = _Tally(state, names)
    turn = 0
    rolls = []
    for action in actions:
        before = state.turn
        if isinstance(action, A.Dice):
            rolls.append(action.total)
        state.apply(action)
        for event in state.last_events:
            tally.event(event, state.turn)
        if state.turn != before:  # a turn (or the set-up) has ended
            _points(tally, state, turn)
            turn = state.turn
    _points(tally, state, turn)
    winner = state.winner if state.is_over and state.winner >= 0 else None
    return GameSummary(
        game=rules.name,
        ending=ending,
        winner=winner,
        turns=state.turn,
        audited=audited,
        seats=tally.seats,
        dice=dice_distribution(rolls),
        awards=tuple(tally.awards),
    )


def _points(tally: _Tally, state: GameState, turn: int) -> None:
    """Each seat's points at the end of ``turn`` (kept once per turn: the last call wins)."""
    for seat in tally.seats:
        points = state.victory_points(seat.seat)
        if len(seat.points) > turn:
            seat.points[turn] = points
        else:
            seat.points.extend([points] * (turn + 1 - len(seat.points)))


def summary_lines(summary: GameSummary) -> list[str]:
    """The figures in words, for ``hexlan replay LOG --summary``."""
    lines = [
        f"{summary.game}: {summary.ending}, {summary.turns} turns"
        + ("" if summary.audited else " (no audit in the log: stolen cards' kinds unknown)")
    ]
    for seat in summary.seats:
        final = seat.points[-1] if seat.points else 0
        lines.append(f"{seat.name} (seat {seat.seat}): {final} points")
        received = ", ".join(
            f"{source} {seat.total_received(source)}"
            for source in SOURCES
            if seat.total_received(source)
        )
        lost = ", ".join(
            f"{cause} {seat.total_lost(cause)}" for cause in CAUSES if seat.total_lost(cause)
        )
        lines.append(f"  received {seat.total_received()}: {received or 'none'}")
        lines.append(f"  lost {seat.total_lost()}: {lost or 'none'}")
        lines.append(f"  points: {_point_changes(seat.points)}")
    lines.extend(award_lines(summary))
    dice = summary.dice
    counts = " ".join(f"{t}:{n}" for t, n in zip(dice.categories, dice.observed, strict=True))
    p_value = "n/a" if dice.p_value is None else f"{dice.p_value:.3f}"
    lines.append(f"dice ({dice.total} rolls, p = {p_value} against fair dice): {counts}")
    return lines


def award_lines(summary: GameSummary) -> list[str]:
    """Each change of Longest Road or Largest Army in words, one a line, in order."""
    names = {s.seat: s.name for s in summary.seats}
    return [
        f"turn {change.turn}: "
        + ("Longest Road" if change.award == "longest_road" else "Largest Army")
        + f" to {names.get(change.to_seat, 'nobody')} ({change.size})"
        for change in summary.awards
    ]


def _point_changes(points: Sequence[int]) -> str:
    """Points turn by turn as their changes: ``[2, 2, 3, 3, 5]`` -> "2 after the set-up, 3 in
    turn 2, 5 in turn 4"."""
    parts = []
    for turn, value in enumerate(points):
        if turn == 0:
            parts.append(f"{value} after the set-up")
        elif value != points[turn - 1]:
            parts.append(f"{value} in turn {turn}")
    return ", ".join(parts) or "none"
