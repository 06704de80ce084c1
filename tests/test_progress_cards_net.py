"""Cities & Knights' progress cards over the network (issue 13, PROTOCOL.md §13.8): a card
played, or discarded over the hand limit, is first shown from its mental-poker deck; a play or
discard the seat did not show (a card it was not dealt) stops the game naming the seat."""

from __future__ import annotations

import random

import pytest
from test_fairness import forge_chain

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import make_bot
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import DiscardProgress, PlayProgress
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import Envelope, encode_action

GAME = "cities-and-knights"


def at_a_decision(
    seed: int, kind: type[Action], hoard: bool = False
) -> tuple[InProcessTable, int, Action]:
    """Heuristic bots play until one chooses an action of ``kind`` (not made); with ``hoard``
    they never play a progress card (a roll or a turn's end instead), so hands fill up."""
    table = InProcessTable(["a", "b", "c", "d"], seed=seed, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    table.start()
    while True:
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = table.sessions[seat].view
        assert view is not None and not view.is_over, f"no {kind.__name__} was chosen"
        action = bots[seat].choose(view, seat)
        if isinstance(action, kind):
            return table, seat, action
        if hoard and isinstance(action, PlayProgress):
            legal = view.legal_actions(seat)
            action = A.END_TURN if A.END_TURN in legal else A.ROLL
            assert action in legal, "a card play with neither a roll nor an end open"
        table.submit(seat, action)


def at_a_card_play(seed: int) -> tuple[InProcessTable, int, Action]:
    """Heuristic bots play until one chooses to play a progress card (not made)."""
    return at_a_decision(seed, PlayProgress)


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


@pytest.mark.slow
def test_a_discarded_progress_card_is_shown_first_and_a_forged_discard_stops_the_game() -> None:
    """A seat over the limit shows the card it discards from its deck, as a card played; one
    discarding a card it does not hold (a face it was never dealt) is stopped at once, named."""
    table, seat, discard = at_a_decision(3, DiscardProgress, hoard=True)
    assert isinstance(discard, DiscardProgress)
    mine = progress_of(table.sessions[seat].view).cards[seat]
    track, face = next(
        (t, f)
        for t, pool in enumerate(progress_of(table.sessions[seat].view).pool)
        for f, n in enumerate(pool)
        if n and (t, f) not in mine
    )
    never_dealt = DiscardProgress(seat, track, face)
    forged = forge_chain(table, seat, [("action", encode_action(never_dealt))])  # type: ignore[arg-type]
    others = [s for s in range(4) if s != seat]
    for other in others:
        table._handle(other, table.sessions[other].receive(forged[0]))
    table.pump()  # the active seat orders the discard (§11): every other seat then applies it
    for other in others:
        stop = table.sessions[other].stopped
        assert stop is not None and stop.author == seat, stop
        assert f"seat {seat} discarded " in stop.reason and "without revealing" in stop.reason
    honest, seat, discard = at_a_decision(3, DiscardProgress, hoard=True)
    signed = len(honest.logs[seat])
    watcher = honest.sessions[(seat + 1) % 4]
    held = progress_of(watcher.view).held(seat)
    honest.submit(seat, discard)
    assert all(s.stopped is None for s in honest.sessions)
    bodies = [Envelope.parse(d).body for d in honest.logs[seat][signed:]]
    kinds = [b.kind for b in bodies if b.author == seat]
    assert kinds[:2] == ["card_reveal", "action"]  # the card's show comes first, then the discard
    assert progress_of(watcher.view).held(seat) == held - 1
