"""Cities & Knights' progress cards over the network (issue 13, PROTOCOL.md §13.8): a card
played, or discarded over the hand limit, is first shown from its mental-poker deck; a play or
discard the seat did not show (a card it was not dealt) stops the game naming the seat."""

from __future__ import annotations

import pytest
from knights_play import assert_others_stop, assert_shown_then_made, at_a_decision, others_receive
from test_fairness import forge_chain

from hexlan.engine.actions import Action
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import DiscardProgress, PlayProgress
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import encode_action


def at_a_card_play(seed: int) -> tuple[InProcessTable, int, Action]:
    """Heuristic bots play until one chooses to play a progress card (not made)."""
    return at_a_decision(seed, PlayProgress)


@pytest.mark.slow
def test_a_progress_card_is_shown_then_played_and_an_unshown_play_stops_the_game() -> None:
    table, seat, play = at_a_card_play(5)
    forged = forge_chain(table, seat, [("action", encode_action(play))])  # type: ignore[arg-type]
    others_receive(table, seat, forged[0])
    assert_others_stop(table, seat, f"seat {seat} played ", "without revealing")
    assert_shown_then_made(*at_a_card_play(5))


@pytest.mark.slow
def test_a_discarded_progress_card_is_shown_first_and_a_forged_discard_stops_the_game() -> None:
    """A seat over the limit shows the card it discards from its deck, as a card played; one
    discarding a card it does not hold (a face it was never dealt) is stopped at once, named."""
    table, seat, _ = at_a_decision(3, DiscardProgress, hoard=True)
    mine = progress_of(table.sessions[seat].view).cards[seat]
    track, face = next(
        (t, f)
        for t, pool in enumerate(progress_of(table.sessions[seat].view).pool)
        for f, n in enumerate(pool)
        if n and (t, f) not in mine
    )
    never_dealt = DiscardProgress(seat, track, face)
    forged = forge_chain(table, seat, [("action", encode_action(never_dealt))])  # type: ignore[arg-type]
    others_receive(table, seat, forged[0])
    table.pump()  # the active seat orders the discard (§11): every other seat then applies it
    assert_others_stop(table, seat, f"seat {seat} discarded ", "without revealing")
    assert_shown_then_made(*at_a_decision(3, DiscardProgress, hoard=True))
