"""Two monopolies in one turn through the real sessions (seed 002: «За один ход можно играть
сколько угодно карточек»; official): each monopoly's counts name it within the turn (PROTOCOL.md
§5: from the second on, the count's third field says how many came before it), every seat agrees on every state, and
the end-of-game audit, with every secret, finds each count true; and a drawn point card hidden
(official: shown at once) is named by that audit."""

from __future__ import annotations

import random
from dataclasses import replace

from hexlan.engine.bots import make_bot
from hexlan.engine.info import InformationState
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import PlayProgress, PointShown
from hexlan.net.audit import run_audit
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import Envelope

GAME = "cities-and-knights"
SEATS = 3
SEED = 1
"""A table whose heuristic bots give seat 2 both trade-deck monopolies by turn 32."""
MONOPOLIES = frozenset({"resource_monopoly", "trade_monopoly"})


def _monopolies(view: InformationState, seat: int) -> tuple[list[PlayProgress], int]:
    """The seat's legal monopoly plays, and how many monopoly cards it holds."""
    names = view.variant.card_names  # type: ignore[union-attr]
    held = [c for c in progress_of(view).cards[seat] if names[c[0]][c[1]] in MONOPOLIES]
    plays = [
        a
        for a in view.legal_actions()
        if isinstance(a, PlayProgress) and names[a.track][a.face] in MONOPOLIES
    ]
    return plays, len(held)


def _views(table: InProcessTable) -> list[InformationState]:
    views = [s.view for s in table.sessions]
    assert all(v is not None for v in views)
    return views  # type: ignore[return-value]


def _to_two_monopolies(table: InProcessTable) -> int:
    """Play the bots until a seat holding two monopoly cards may play one; that seat."""
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    for _ in range(20_000):
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = _views(table)[seat]
        assert not view.is_over, "no seat came to hold two monopolies"
        plays, held = _monopolies(view, seat)
        if plays and held >= 2:
            return seat
        table.submit(seat, bots[seat].choose(view, seat))
    raise AssertionError("the game did not end")


def test_two_monopolies_in_one_turn_and_the_audit_passes() -> None:
    table = InProcessTable(["a", "b", "c"], seed=SEED, game=GAME)
    table.start()
    seat = _to_two_monopolies(table)
    turn = _views(table)[seat].turn
    for _ in range(2):
        plays, _ = _monopolies(_views(table)[seat], seat)
        assert plays, "the second monopoly of the turn is legal"
        table.submit(seat, plays[0])
        assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
        views = _views(table)
        assert len({v.public_hash() for v in views}) == 1
        assert views[seat].turn == turn and views[seat].active == seat
    for other in (s for s in range(SEATS) if s != seat):
        counts = [
            env.body.payload
            for env in map(Envelope.parse, table.logs[other])
            if env.body.kind == "count" and env.body.author == other and env.body.payload[0] == turn
        ]
        assert len(counts) == 2, counts
        assert len(counts[0]) == 2 and tuple(counts[1][2:]) == (1,), counts  # one before it
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(SEATS)])
    assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
    for session in table.sessions:
        assert session.is_over and session.audit is not None and session.audit.passed


POINT_SEED = 1
"""A table whose seat 0 draws the Printer (shown at once) in its game's first 400 actions."""


def test_a_drawn_point_card_hidden_is_named_by_the_audit() -> None:
    """A drawer that says its drawn Printer is no point card (``PointShown`` with face -1)
    cannot be caught by the other seats, which do not see the card; the end-of-game audit, with
    every secret, replays the true state and names the drawer and its message."""
    table = InProcessTable(["a", "b", "c"], seed=POINT_SEED, game=GAME)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(SEATS)])
    session = table.sessions[1]
    assert session.is_over and session.audit is not None and session.audit.passed
    inputs = session.audit_inputs()
    journal = list(inputs.journal)
    at, shown = next(
        (i, e.action)
        for i, e in enumerate(journal)
        if isinstance(e.action, PointShown) and e.action.face >= 0
    )
    journal[at] = replace(journal[at], action=replace(shown, face=-1))
    report = run_audit(replace(inputs, journal=tuple(journal)))
    assert [(d.seat, d.message_id) for d in report.deviations][:1] == [
        (shown.seat, journal[at].message_id)
    ], report.deviations
