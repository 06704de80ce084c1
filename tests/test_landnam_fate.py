"""Landnám's fate deck: the set-up's search for an Exploration card, the draws on a 7, the deck
running out, and which seat draws a card face up or face down (../shared/landnam-rules.md §4.4-4.5,
§8.1, §16; gaps G18, G23).

Every test drives the engine through ``play`` from a new game (the start player and the draws
are chance outcomes given as data), or from the first roll after a set-up played out.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from hexlan.engine import actions as A
from hexlan.engine.chance import DECK_DRAW, RESHUFFLE
from hexlan.engine.core import IllegalActionError, Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.phases import (
    ALTHING_OPEN,
    CHANCE,
    DRAW,
    HARVEST_CARD,
    MOVE,
    ROLL,
    SETUP,
)
from hexlan.engine.variants.landnam.rules import Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState, new_game

DECK = 30
"""Cards in the proposed fate deck (§16.2)."""
GRAIN = 0
EXPLORATION = (Fate.WOODLAND_AHEAD, Fate.GOOD_GRAZING, Fate.FERTILE_SOIL, Fate.BOG_IRON)


def draw(state: LandnamState, face: int) -> L.DrawFate:
    """Play the fate draw due with ``face``, as the node says (its seat, face up or down)."""
    node = state.chance_node()
    assert node is not None and node.kind == DECK_DRAW
    action = L.DrawFate(node.seats[0], face, node.public)
    state.play(action)
    return action


def set_up(players: int, start: Seat, searches: Iterable[Iterable[int]]) -> LandnamState:
    """A new game whose start player is ``start``, each seat in turn drawing the faces of one
    of ``searches`` (the last its Exploration card); the reshuffle, if due, is left due."""
    state = new_game("landnam", players)
    state.play(A.StartPlayer(start))
    for faces in searches:
        for face in faces:
            draw(state, face)
    return state


def started(players: int = 4, start: Seat = 0) -> LandnamState:
    """A game at its first roll, every seat having found an Exploration card at its first draw."""
    faces = [[EXPLORATION[k % 4]] for k in range(players)]
    return set_up(players, start, faces)


def empty_seat(state: LandnamState, seat: Seat) -> None:
    """``seat`` discards its fate cards (as if it had played them)."""
    for face, count in enumerate(state.fate[seat]):
        state.discard[face] += count
        state.fate[seat][face] = 0
        state.shown[seat][face] = 0


def roll_seven(state: LandnamState) -> None:
    """The active seat rolls a 7 (its draws left due)."""
    state.play(A.ROLL)
    state.play(A.Dice(3, 4))


# --- the set-up (§4.4-4.5, gap G23) -------------------------------------------------------


def test_the_search_starts_with_the_start_player_and_keeps_each_exploration_card() -> None:
    """§4.4, G23: from the start player clockwise, each seat turns cards over until one marked
    Exploration appears; it keeps that card, shown to all; the other cards are put back."""
    state = new_game("landnam", 4)
    state.play(A.StartPlayer(2))
    assert state.phase == SETUP and state.active == 2
    order = []
    for faces in (
        [Fate.LANDING, Fate.ATONEMENT, Fate.BOG_IRON],
        [Fate.SEERS_COUNSEL],
        [Fate.GOOD_YEAR, Fate.WOODLAND_AHEAD],
        [Fate.FERTILE_SOIL],
    ):
        for face in faces:
            order.append(draw(state, face).seat)
    assert order == [2, 2, 2, 3, 0, 0, 1]
    assert state.fate[2][Fate.BOG_IRON] == state.shown[2][Fate.BOG_IRON] == 1
    assert state.fate[3][Fate.SEERS_COUNSEL] == state.shown[3][Fate.SEERS_COUNSEL] == 1
    assert state.fate[0][Fate.WOODLAND_AHEAD] == state.shown[0][Fate.WOODLAND_AHEAD] == 1
    assert [state.fate_count(s) for s in range(4)] == [1, 1, 1, 1]
    assert state.fate[2][Fate.LANDING] == state.fate[2][Fate.ATONEMENT] == 0
    put_back = {Fate.LANDING: 1, Fate.ATONEMENT: 1, Fate.GOOD_YEAR: 1}
    assert {Fate(f): n for f, n in enumerate(state.put_back) if n} == put_back
    assert state.deck_size == DECK - 7


def test_the_put_back_cards_are_reshuffled_before_the_first_roll() -> None:
    """§4.5: once every seat has its card, the put-back cards are shuffled into the deck (a
    :data:`RESHUFFLE` chance node) before the start player's first roll."""
    state = set_up(3, 1, [[Fate.LANDING, Fate.BOG_IRON], [Fate.GOOD_GRAZING], [Fate.BOG_IRON]])
    node = state.chance_node()
    assert node is not None and node.kind == RESHUFFLE == "reshuffle"
    assert state.current_player() == CHANCE and state.legal_actions() == []
    assert state.chance_outcomes() == [(L.Reshuffle(), 1.0)]
    assert state.deck_size == DECK - 4
    state.play(L.Reshuffle())
    assert state.deck_size == DECK - 3 and not any(state.put_back)
    assert state.unseen[Fate.LANDING] == 4 and state.unseen[Fate.BOG_IRON] == 0
    assert state.phase == ROLL and state.active == 1 and state.turn == 1


def test_no_reshuffle_when_nothing_was_put_back() -> None:
    """§4.5: with every first card an Exploration card, nothing waits to be shuffled in and the
    start player rolls at once; a reshuffle then is refused."""
    state = started(5, start=3)
    assert state.phase == ROLL and state.current_player() == 3
    assert state.deck_size == DECK - 5
    with pytest.raises(IllegalActionError) as caught:
        state.play(L.Reshuffle())
    assert "§5" in caught.value.rule


def test_the_set_up_draws_are_public_and_checked() -> None:
    """G23, §16: a set-up draw is face up for the seat due; a face-down draw, a draw for
    another seat, a face no longer in the deck, or a reshuffle while a draw is due is refused."""
    state = set_up(3, 0, [[Fate.BOG_IRON], [Fate.BOG_IRON]])
    node = state.chance_node()
    assert node is not None and node.public and node.seats == (2,) and node.deck == "fate"
    for action, rule in (
        (L.DrawFate(2, Fate.LANDING, False), "§16"),
        (L.DrawFate(1, Fate.LANDING, True), "§16"),
        (L.DrawFate(2, Fate.BOG_IRON, True), "§16"),
        (L.Reshuffle(), "G18"),
        (A.ROLL, "§5"),
    ):
        before = state.full_hash()
        with pytest.raises(IllegalActionError) as caught:
            state.play(action)
        assert rule in caught.value.rule, action
        assert state.full_hash() == before
    assert state.observation(L.DrawFate(2, Fate.LANDING, True), 0) == L.DrawFate(
        2, Fate.LANDING, True
    )


def test_the_set_up_chance_outcomes_follow_the_deck() -> None:
    """§16: a draw's outcomes are the faces left in the deck, each by its count."""
    state = set_up(3, 0, [[Fate.LANDING, Fate.WOODLAND_AHEAD]])
    outcomes = dict(state.chance_outcomes())
    assert L.DrawFate(1, Fate.WOODLAND_AHEAD, True) in outcomes
    assert outcomes[L.DrawFate(1, Fate.LANDING, True)] == pytest.approx(3 / 28)
    assert outcomes[L.DrawFate(1, Fate.WOODLAND_AHEAD, True)] == pytest.approx(1 / 28)
    assert sum(outcomes.values()) == pytest.approx(1)


# --- the draws on a 7 (§8.1) --------------------------------------------------------------


def test_on_a_seven_the_active_seat_and_every_seat_holding_none_draw_in_order() -> None:
    """§8.1: the active seat draws, then every other seat holding no fate card, clockwise; a
    seat holding one draws none; the draws are face down; the Althing opens after."""
    state = started(5, start=3)
    for seat in (0, 2):
        empty_seat(state, seat)
    roll_seven(state)
    drawers = []
    while state.phase == DRAW:
        node = state.chance_node()
        assert node is not None and node.kind == DECK_DRAW and not node.public
        drawers.append(draw(state, Fate.LANDING).seat)
    assert drawers == [3, 0, 2]
    assert [state.fate_count(s) for s in range(5)] == [1, 1, 1, 2, 1]
    assert state.phase == ALTHING_OPEN


def test_a_seven_neither_harvests_nor_ages_nor_offers_a_harvest_card() -> None:
    """§6.1, §8.7: on a 7 the Althing is held instead of the harvest: no Harvest card may be
    played (the active seat holds Good year), no card is paid, no marker ages."""
    state = started(3, start=0)
    state.unseen[Fate.GOOD_YEAR] -= 1
    state.deck_size -= 1
    state.fate[0][Fate.GOOD_YEAR] += 1
    hands, markers = [list(h) for h in state.hands], list(state.marker_stock)
    roll_seven(state)
    assert state.phase == DRAW
    draw(state, Fate.LANDING)
    assert state.phase == ALTHING_OPEN
    assert not any(isinstance(a, L.PlayFate) for a in state.legal_actions())
    with pytest.raises(IllegalActionError) as caught:
        state.play(L.PlayFate(0, Fate.GOOD_YEAR, -1, 1))
    assert "§16.1" in caught.value.rule
    assert state.hands == hands and state.marker_stock == markers and state.roll == 7


def test_another_roll_goes_to_the_harvest_card_choice_for_a_seat_holding_a_card() -> None:
    """§6.2: a roll that is not 7 draws no card; a seat holding a fate card may then play a
    Harvest card (and only Harvest cards), Good year never making the total 7."""
    state = started(3, start=0)
    state.unseen[Fate.GOOD_YEAR] -= 1
    state.deck_size -= 1
    state.fate[0][Fate.GOOD_YEAR] += 1
    deck = state.deck_size
    state.play(A.ROLL)
    state.play(A.Dice(2, 4))
    assert state.phase == HARVEST_CARD and state.deck_size == deck
    plays = {(a.face, a.choice) for a in state.legal_actions() if isinstance(a, L.PlayFate)}
    assert plays == {(Fate.GOOD_YEAR, -1)}


# --- the deck running out (gap G18) -------------------------------------------------------


def test_an_empty_deck_reshuffles_the_discards_before_the_draw() -> None:
    """G18: a draw from an empty deck first shuffles the discards in (a reshuffle node), then
    draws; the discard pile is empty afterwards."""
    state = started(3, start=0)
    state.discard = list(state.unseen)
    state.unseen = [0] * len(state.unseen)
    cards, state.deck_size = state.deck_size, 0
    roll_seven(state)
    node = state.chance_node()
    assert node is not None and node.kind == RESHUFFLE
    state.play(L.Reshuffle())
    assert state.deck_size == cards and not any(state.discard)
    assert draw(state, Fate.FAIR_WIND).seat == 0
    assert state.phase == ALTHING_OPEN and state.deck_size == cards - 1


def test_the_deck_running_out_between_two_draws_reshuffles_in_between() -> None:
    """G18: when the deck runs out part way through the 7's draws, the discards are shuffled in
    before the next seat draws."""
    state = started(3, start=0)
    empty_seat(state, 1)
    state.fate[2] = [a + b for a, b in zip(state.fate[2], state.unseen, strict=True)]
    state.fate[2][Fate.LANDING] -= 1
    state.unseen = [0] * len(state.unseen)
    state.unseen[Fate.LANDING] = 1
    state.deck_size = 1
    roll_seven(state)
    assert draw(state, Fate.LANDING).seat == 0
    node = state.chance_node()
    assert node is not None and node.kind == RESHUFFLE
    state.play(L.Reshuffle())
    assert state.unseen[Fate.GOOD_GRAZING] == 1 == state.deck_size  # seat 1's discarded card
    assert draw(state, Fate.GOOD_GRAZING).seat == 1
    assert state.phase == ALTHING_OPEN


def test_no_card_is_drawn_when_the_deck_and_the_discards_are_both_empty() -> None:
    """G18: with no card in the deck nor the discards, the 7 draws nothing and the Althing
    opens at once."""
    state = started(3, start=0)
    empty_seat(state, 0)
    for pile in (state.unseen, state.discard):
        state.fate[1] = [a + b for a, b in zip(state.fate[1], pile, strict=True)]
    state.unseen = [0] * len(state.unseen)
    state.discard = [0] * len(state.discard)
    state.deck_size = 0
    roll_seven(state)
    assert state.phase == ALTHING_OPEN and state.chance_node() is None
    assert [state.fate_count(s) for s in range(3)] == [0, DECK - 1, 1]
    assert state.current_player() == 1  # seat 0, holding none, is not asked (§8.2)


# --- face down, in the views (§16.1) ------------------------------------------------------


def test_a_face_down_draw_is_seen_by_its_drawer_alone() -> None:
    """§16.1: a card drawn on a 7 is hidden: the other seats' views see NO_CARD and count it,
    the drawer's view knows it; the public state stays the same in every view."""
    state = new_game("landnam", 3)
    views = [state.view(s) for s in range(3)]

    def both(action: A.StartPlayer | L.DrawFate | A.RollDice | A.Dice) -> None:
        for seat, view in enumerate(views):
            view.play(state.observation(action, seat))
        state.play(action)

    both(A.StartPlayer(0))
    for face in (Fate.WOODLAND_AHEAD, Fate.BOG_IRON, Fate.FERTILE_SOIL):
        both(L.DrawFate(state.setup_seat, face, True))
    both(A.ROLL)
    both(A.Dice(3, 4))
    drawn = L.DrawFate(0, Fate.ATONEMENT, False)
    withheld = L.DrawFate(0, L.NO_CARD, False)
    assert state.observation(drawn, 1) == withheld
    assert state.observation(drawn, 0) == drawn
    with pytest.raises(IllegalActionError) as caught:
        views[0].check(withheld)  # the drawer sees its own card
    assert "§16" in caught.value.rule
    views[1].check(withheld)
    both(drawn)
    assert views[0].fate[0][Fate.ATONEMENT] == 1 and views[0].hidden[0] == 0
    assert views[1].fate[0][Fate.ATONEMENT] == 0 and views[1].hidden[0] == 1
    assert views[1].unseen[Fate.ATONEMENT] == state.unseen[Fate.ATONEMENT] + 1
    assert views[1].fate[0][Fate.WOODLAND_AHEAD] == 1  # the set-up card was shown
    assert len({v.public_hash() for v in views} | {state.public_hash()}) == 1


# --- Harvest cards (§6.2, §16.2, gap G22) --------------------------------------------------

FIELD = 4
"""Position ``(0,-1)``, posed as a field (grain) numbered 5; corner 2 lies on it (seat 0's
farm) and corner 3 (seat 1's)."""


def harvest_table(card: Fate) -> LandnamState:
    """Seat 0's first turn after the set-up, holding ``card``; the field numbered 5 with a farm
    of seat 0 and one of seat 1 at its corners."""
    state = started(3, start=0)
    state.unseen[card] -= 1
    state.deck_size -= 1
    state.fate[0][card] += 1
    state.terrain_stock[Land.FIELD] -= 1
    state.terrain[FIELD] = Land.FIELD
    state.marker_stock[5] -= 1
    state.numbers[FIELD] = 5
    for seat, corner in ((0, 2), (1, 3)):
        state.buildings[corner] = (seat, False)
        state.houses[seat] -= 1
    return state


def roll(state: LandnamState, first: int, second: int) -> None:
    """The active seat rolls ``first`` and ``second``."""
    state.play(A.ROLL)
    state.play(A.Dice(first, second))


def test_good_year_moves_the_roll_by_one() -> None:
    """§16.2 Good year, G22: played after the roll and before payment, it turns a 6 into a 5:
    the field numbered 5 pays its farms and, the only hex that paid, ages (§6.5)."""
    state = harvest_table(Fate.GOOD_YEAR)
    roll(state, 2, 4)
    assert state.phase == HARVEST_CARD
    state.play(L.PlayFate(0, Fate.GOOD_YEAR, -1, -1))
    assert [h[GRAIN] for h in state.hands] == [3, 3, 2]
    assert state.numbers[FIELD] == 6
    assert state.discard[Fate.GOOD_YEAR] == 1 and state.phase == MOVE


def test_full_barns_adds_a_card_a_hex_and_counts_towards_a_famine() -> None:
    """§16.2 Full barns: one more card from each hex paying the active seat; the extra card is
    owed like the others, so a stock that could pay the harvest without it makes a famine with
    it (§6.4): nobody is paid and every seat returns its grain."""
    state = harvest_table(Fate.FULL_BARNS)
    roll(state, 2, 3)
    state.play(L.PlayFate(0, Fate.FULL_BARNS))
    assert [h[GRAIN] for h in state.hands] == [4, 3, 2]
    short = harvest_table(Fate.FULL_BARNS)
    short.hands[2][GRAIN] += short.stock[GRAIN] - 2
    short.stock[GRAIN] = 2  # enough for the two farms, not for the barns' extra card
    roll(short, 2, 3)
    short.play(L.PlayFate(0, Fate.FULL_BARNS))
    assert [h[GRAIN] for h in short.hands] == [0, 0, 0]
    assert short.stock[GRAIN] == 24 and short.numbers[FIELD] == 5


def test_steady_seasons_stops_the_ageing() -> None:
    """§16.2 Steady seasons: the harvest pays as usual and no hex ages after it."""
    state = harvest_table(Fate.STEADY_SEASONS)
    roll(state, 2, 3)
    state.play(L.PlayFate(0, Fate.STEADY_SEASONS))
    assert [h[GRAIN] for h in state.hands] == [3, 3, 2]
    assert state.numbers[FIELD] == 5 and state.phase == MOVE
