"""Cities & Knights' hand-taking progress cards over in-process sessions (issue 13;
PROTOCOL.md §5, §14): a Resource or Trade Monopoly's counts come from every other seat, each
capped; a count above the cap (a forged count, signed by its seat) stops the game naming it;
the Commercial Harbor's offers and answers are public actions. After each, every seat's view
stays consistent with the true hands (each seat's own)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from hexlan.engine.bots import make_bot
from hexlan.engine.core import Phase
from hexlan.engine.info import InformationState
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import Envelope, sign_body

GAME = "cities-and-knights"
SEATS = 3


def at_a_play(seed: int, name: str) -> tuple[InProcessTable, int, PlayProgress]:
    """Heuristic bots play a 3-seat game until one chooses to play the card ``name`` (not
    made)."""
    table = InProcessTable(["a", "b", "c"], seed=seed, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    table.start()
    while True:
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = table.sessions[seat].view
        assert view is not None and not view.is_over, f"no {name} was played"
        action = bots[seat].choose(view, seat)
        names = view.variant.card_names  # type: ignore[union-attr]
        if isinstance(action, PlayProgress) and names[action.track][action.face] == name:
            return table, seat, action
        table.submit(seat, action)


def views(table: InProcessTable) -> list[InformationState]:
    """Every seat's view."""
    result = [s.view for s in table.sessions]
    assert all(v is not None for v in result)
    return result  # type: ignore[return-value]


def in_step(table: InProcessTable) -> None:
    """No seat stopped; every view has the same public state and holds the true hands
    (each seat's own) possible."""
    assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
    seen = views(table)
    assert len({v.public_hash() for v in seen}) == 1
    hands = [v.hands[v.seat] for v in seen]
    assert all(v.is_consistent(hands) for v in seen)


def pump_with(table: InProcessTable, change: Callable[[Envelope], bytes | None]) -> None:
    """Deliver queued messages as :meth:`InProcessTable.pump` does, each first passed through
    ``change`` (None: as sent)."""
    while table._queue:
        seat, data = table._queue.popleft()
        data = change(Envelope.parse(data)) or data
        table._handle(seat, table.sessions[seat].receive(data))


@pytest.mark.slow
def test_a_resource_monopoly_takes_capped_counts_and_every_view_stays_true() -> None:
    table, seat, play = at_a_play(1, "resource_monopoly")
    before = views(table)[0].hand_size[:]
    table.submit(seat, play)
    in_step(table)
    view = views(table)[(seat + 1) % SEATS]
    assert view.phase is Phase.MAIN and view.monopoly_cap is None
    taken = [before[s] - view.hand_size[s] for s in range(SEATS) if s != seat]
    assert all(0 <= n <= 2 for n in taken)
    counts = [Envelope.parse(d).body for s in range(SEATS) for d in table.logs[s] if s != seat]
    assert any(b.kind == "count" for b in counts)


@pytest.mark.slow
def test_a_count_above_the_monopolys_cap_stops_the_game_naming_its_seat() -> None:
    table, seat, play = at_a_play(1, "resource_monopoly")
    liar = (seat + 1) % SEATS
    forged: list[bytes] = []

    def over_the_cap(env: Envelope) -> bytes | None:
        body = env.body
        if body.kind != "count" or body.author != liar:
            return None
        if not forged:  # the liar counts 3: a capped Monopoly takes at most 2
            lie = replace(body, payload=(body.payload[0], 3))
            forged.append(sign_body(lie, table.sessions[liar].identity).to_bytes())
        return forged[0]

    table._handle(seat, table.sessions[seat].submit(play))
    pump_with(table, over_the_cap)
    assert forged, "the liar never counted"
    for other in range(SEATS):
        if other == liar:
            continue
        stop = table.sessions[other].stopped
        assert stop is not None and stop.author == liar, stop
        assert f"seat {liar} counted 3 " in stop.reason and "cannot hold" in stop.reason


@pytest.mark.slow
def test_the_commercial_harbor_is_played_over_the_network_seat_by_seat() -> None:
    table, seat, play = at_a_play(3, "commercial_harbor")
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    table.submit(seat, play)
    moves = []
    while views(table)[seat].phase is not Phase.MAIN:
        actor = next(s.seat for s in table.sessions if s.decision_due())
        action = bots[actor].choose(views(table)[actor], actor)
        moves.append((actor, type(action).__name__))
        table.submit(actor, action)
        in_step(table)
    assert moves and moves[0] == (seat, "HarborOffer")
    assert {m for _, m in moves} <= {"HarborOffer", "HarborAnswer"}
    assert any(m == "HarborAnswer" and a != seat for a, m in moves)
