"""Cities & Knights' progress cards over the network (issue 13, PROTOCOL.md §13.8): a card
played is first shown from its mental-poker deck; a play the seat did not show (a card it was
not dealt) stops the game naming the seat."""

from __future__ import annotations

import random

import pytest
from test_fairness import forge_chain

from hexlan.engine.bots import make_bot
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import Envelope, encode_action

GAME = "cities-and-knights"


def at_a_card_play(seed: int) -> tuple[InProcessTable, int, PlayProgress]:
    """Heuristic bots play until one chooses to play a progress card (not made)."""
    table = InProcessTable(["a", "b", "c", "d"], seed=seed, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    table.start()
    while True:
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = table.sessions[seat].view
        assert view is not None and not view.is_over, "no progress card was played"
        action = bots[seat].choose(view, seat)
        if isinstance(action, PlayProgress):
            return table, seat, action
        table.submit(seat, action)


@pytest.mark.slow
def test_a_progress_card_is_shown_then_played_and_an_unshown_play_stops_the_game() -> None:
    table, seat, play = at_a_card_play(5)
    forged = forge_chain(table, seat, [("action", encode_action(play))])  # type: ignore[arg-type]
    others = [s for s in range(4) if s != seat]
    for other in others:
        table._handle(other, table.sessions[other].receive(forged[0]))
    for other in others:
        stop = table.sessions[other].stopped
        assert stop is not None and stop.author == seat, stop
        assert f"seat {seat} played " in stop.reason and "without revealing" in stop.reason
    honest, seat, play = at_a_card_play(5)
    signed = len(honest.logs[seat])
    watcher = honest.sessions[(seat + 1) % 4]
    held = progress_of(watcher.view).held(seat)
    honest.submit(seat, play)
    assert all(s.stopped is None for s in honest.sessions)
    mine = [Envelope.parse(d).body for d in honest.logs[seat][signed:]]
    kinds = [b.kind for b in mine if b.author == seat]
    assert kinds[:2] == ["card_reveal", "action"]  # the card's show comes first, then the play
    assert progress_of(watcher.view).held(seat) == held - 1
