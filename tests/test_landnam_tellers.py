"""Landnám's narration (net/tellers/landnam.py): what each seat is told, from its own view; a
face-down draw of another seat is never named, the stock's size never said (§17)."""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.rules import Fate
from hexlan.engine.variants.landnam.state import LandnamState, new_game
from hexlan.net.tellers.landnam import tell

NAMES = ("You", "Blue", "Green")


def _started() -> LandnamState:
    state = new_game("landnam", 3).view(0)
    state.apply(A.StartPlayer(0))
    return state


def test_a_face_down_draw_is_named_to_its_drawer_alone() -> None:
    """§16.1: another seat's draw is "a fate card"; the person's own names its face."""
    state = _started()
    hidden = L.DrawFate(1, L.NO_CARD, False)
    assert tell(state, hidden, state, NAMES) == "Blue drew a fate card"
    own = L.DrawFate(0, Fate.LANDING, False)
    assert tell(state, own, state, NAMES) == "You drew a fate card: Landing"


def test_a_harvest_says_whom_it_paid_and_a_famine_what_returned() -> None:
    """§6.3-6.4: the payments by seat and kind; a famine's returned cards."""
    before = _started()
    paid = before.copy()
    paid.hands[1][0] += 2
    paid.hands[0][2] += 1
    words = tell(before, L.Harvest(), paid, NAMES)
    assert words == "You took the harvest: the harvest paid you 1 wool; Blue 2 grain"
    famine = before.copy()
    famine.hands[2][1] = 0
    words = tell(before, L.Harvest(), famine, NAMES)
    assert "famine" in words and "Green 2 timber" in words
    assert "stock" not in words.replace("the stock is short", "")


def test_tokens_and_the_end_of_the_game_are_told_after_the_action() -> None:
    """§8.5.5, §15: a token won and the winner follow the action's own words."""
    before = _started()
    after = before.copy()
    after.tokens[1][1] += 1
    assert tell(before, L.Bid(0, 0), after, NAMES) == "You passed; Blue won 1 red token"
