"""Landnám on the :class:`~hexlan.engine.game.Game` protocol: seeded random games checked step by
step (legal actions, chance outcomes, the acting seats, copies, every seat's view), fate cards
checked in a view that has not seen them, refusals naming their rule and changing nothing, and the
end of the game with its tie-breaks (../shared/ARCHITECTURE.md "Many games on one engine";
../shared/landnam-rules.md §5, §15, §16.1; gap G21).
"""

from __future__ import annotations

import math
import random

import pytest
from landnam_helpers import refused, snapshot

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.engine.game import sample_outcome
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.phases import (
    ALTHING_OPEN,
    APPOINT,
    CASE,
    CHANCE,
    DRAW,
    EXPLORE,
    HARVEST_CARD,
    INVITED,
    MOVE,
    OVER,
    ROLL,
    SUING,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import Fate
from hexlan.engine.variants.landnam.state import LandnamState, new_game

DECK = 30
"""Cards in the proposed fate deck (§16.2)."""
STEPS = 900
"""Steps (decisions and chance outcomes) of each random game: some 70 turns, in which the
seeds below bring cases with invitations, explorations and harvest cards."""


# --- random games -------------------------------------------------------------------------


def check_protocol(state: LandnamState) -> None:
    """What the protocol promises of one state: the acting seats agree with the current player,
    chance nodes offer outcomes summing to 1 and no decision, decisions offer legal actions to
    the acting seat alone, every one of them passing ``check``."""
    seat = state.current_player()
    if seat == CHANCE:
        assert state.acting_seats() == () and state.legal_actions() == []
        assert state.chance_node() is not None
        outcomes = state.chance_outcomes()
        assert outcomes and all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        return
    assert state.acting_seats() == (seat,)
    assert state.chance_node() is None and state.chance_outcomes() == []
    legal = state.legal_actions()
    assert legal and legal == state.legal_actions(seat)
    assert all(not state.legal_actions(s) for s in range(state.players) if s != seat)
    for action in legal:
        state.check(action)


def check_fate_totals(state: LandnamState) -> None:
    """No fate card is made or lost (§16.2): in the full state the deck's faces are known
    exactly; in a view the other seats' unseen cards count among the faces not seen."""
    held = sum(state.fate_count(s) for s in range(state.players))
    assert state.deck_size + sum(state.discard) + sum(state.put_back) + held == DECK
    assert sum(state.unseen) == state.deck_size + sum(state.hidden)
    if state.viewer is None:
        assert not any(state.hidden)


def check_copy(state: LandnamState, rng: random.Random) -> None:
    """A copy is independent: playing on it, even a whole turn, leaves the original as it was;
    every legal action (or chance outcome) applies to a copy without raising."""
    before, words = state.full_hash(), snapshot(state)
    other = state.copy()
    assert other.full_hash() == before
    for _ in range(40):
        if other.is_over:
            break
        if other.current_player() == CHANCE:
            other.apply(sample_outcome(other, rng))
        else:
            other.apply(rng.choice(other.legal_actions()))
    choices = (
        [a for a, _ in state.chance_outcomes()][:50]
        if state.current_player() == CHANCE
        else state.legal_actions()
    )
    for action in choices:
        state.copy().apply(action)
    assert state.full_hash() == before and snapshot(state) == words


@pytest.mark.parametrize(("players", "seed"), [(3, 9), (4, 1), (5, 11)])
def test_random_games_keep_the_protocol_and_every_view(players: int, seed: int) -> None:
    """The Game protocol through a seeded random game, and each seat's view (built by ``view``
    before any card is drawn, advanced by ``observation``): the same public hash as the full
    state at every step, the same seat to act, and in the acting seat's own view the same legal
    actions; every observation passes the view's ``check``, another seat's hidden fate card
    included (§16.1: it may hold it); a face-down draw is NO_CARD to the others."""
    rng = random.Random(seed)
    state = new_game("landnam", players)
    views = [state.view(s) for s in range(players)]
    hidden_plays = face_down = 0
    visited = set()
    for step in range(STEPS):
        if state.is_over:
            break
        visited.add(state.phase)
        check_protocol(state)
        if step % 97 == 0:
            check_copy(state, random.Random(step))
        seat = state.current_player()
        assert all(v.current_player() == seat for v in views)
        if seat != CHANCE:  # the acting seat's view knows all it may do
            assert views[seat].legal_actions(seat) == state.legal_actions(seat)
        action = sample_outcome(state, rng) if seat == CHANCE else rng.choice(state.legal_actions())
        for viewer, view in enumerate(views):
            seen = state.observation(action, viewer)
            if isinstance(action, L.DrawFate) and not action.public and viewer != action.seat:
                assert seen == L.DrawFate(action.seat, L.NO_CARD, False)
                face_down += 1
            else:
                assert seen == action
            if isinstance(action, L.PlayFate) and not view.fate[action.seat][action.face]:
                hidden_plays += 1
            view.play(seen)
        state.apply(action)
        check_fate_totals(state)
        for view in views:
            assert view.public_hash() == state.public_hash(), (step, action)
            check_fate_totals(view)
    assert hidden_plays and face_down
    assert {CASE, EXPLORE, HARVEST_CARD, INVITED, SUING, TRADE} <= visited


# --- a fate card another seat has not seen (§16.1) ----------------------------------------


class Table:
    """A scripted game and every seat's view, each action played (checked) on both."""

    def __init__(self, players: int) -> None:
        self.state = new_game("landnam", players)
        self.views = [self.state.view(s) for s in range(players)]

    def act(self, action: Action) -> None:
        """Play ``action`` in every view (as observed) and in the full state."""
        for seat, view in enumerate(self.views):
            view.play(self.state.observation(action, seat))
        self.state.play(action)

    def set_up(self, faces: list[Fate]) -> None:
        """Seat 0 starts; each seat finds its Exploration card, ``faces`` in seat order."""
        self.act(A.StartPlayer(0))
        for face in faces:
            self.act(L.DrawFate(self.state.setup_seat, face, True))

    def seven(self, face: Fate) -> None:
        """The active seat rolls a 7, draws ``face`` (the only draw due), and the Althing passes
        with no card played and no case brought; the turn ends."""
        self.act(A.ROLL)
        self.act(A.Dice(3, 4))
        assert self.state.phase == DRAW
        self.act(L.DrawFate(self.state.active, face, False))
        while self.state.phase in (ALTHING_OPEN, SUING):
            self.act(L.Pass(self.state.current_player()))
            if self.state.phase == APPOINT:
                self.act(L.Appoint(self.state.active))
        self.finish()

    def finish(self) -> None:
        """End the movement phase and the turn."""
        assert self.state.phase == MOVE
        self.act(L.EndMovement())
        self.act(A.END_TURN)


def test_another_seats_hidden_fate_card_is_checked_as_far_as_the_view_knows() -> None:
    """§16.1, ARCHITECTURE principle 2: a view lets another seat play a card it may hold (a
    hidden card of a face the view has not seen all of), and refuses it with its rule when the
    seat holds no hidden card or the view has seen every card of that face."""
    table = Table(3)
    table.set_up([Fate.WOODLAND_AHEAD, Fate.GOOD_GRAZING, Fate.FERTILE_SOIL])
    state, views = table.state, table.views
    table.act(A.ROLL)
    table.act(A.Dice(2, 4))
    assert state.phase == HARVEST_CARD and state.active == 0
    forged = L.PlayFate(0, Fate.GOOD_YEAR, -1, 1)
    error = refused(views[1], forged, "§16.1")  # seat 0 holds only its shown card
    assert "no such fate card" in error.reason
    table.act(L.Harvest())
    table.finish()
    table.seven(Fate.GOOD_YEAR)  # seat 1
    table.seven(Fate.STEADY_SEASONS)  # seat 2, the deck's only one
    table.seven(Fate.GOOD_YEAR)  # seat 0
    table.act(A.ROLL)
    table.act(A.Dice(2, 4))
    assert state.phase == HARVEST_CARD and state.active == 1
    steady = L.PlayFate(1, Fate.STEADY_SEASONS)
    views[0].check(steady)  # seat 1's hidden card may be it
    refused(views[2], steady, "§16.1")  # seat 2 holds it
    refused(state, steady, "§16.1")
    good_year = L.PlayFate(1, Fate.GOOD_YEAR, -1, -1)
    views[2].check(good_year)
    views[0].check(good_year)  # seat 0 holds one Good year; the other is unseen
    refused(views[0], L.PlayFate(1, Fate.GOOD_YEAR, -1, 1), "§16.1")  # 6 + 1 is 7
    table.act(good_year)
    assert views[0].hidden[1] == views[2].hidden[1] == 0
    assert views[0].unseen[Fate.GOOD_YEAR] == 0 and state.discard[Fate.GOOD_YEAR] == 1
    assert len({v.public_hash() for v in views} | {state.public_hash()}) == 1


# --- refusals (§5, §16.1) -----------------------------------------------------------------


def dealt(players: int = 3) -> LandnamState:
    """A game past its set-up (no card put back), at seat 0's first roll."""
    table = Table(players)
    table.set_up(
        [Fate.WOODLAND_AHEAD, Fate.GOOD_GRAZING, Fate.FERTILE_SOIL, Fate.BOG_IRON][:players]
    )
    return table.state


def test_a_decision_is_refused_during_a_chance_node_and_a_chance_outcome_at_a_decision() -> None:
    """§5: at a chance node no seat acts; at a seat's decision no chance outcome is taken."""
    state = dealt()
    refused(state, L.Reshuffle(), "§5")
    refused(state, A.Dice(3, 4), "§5")
    state.play(A.ROLL)
    refused(state, A.ROLL, "§5")
    refused(state, L.EndMovement(), "§5")
    refused(state, L.PlayFate(0, Fate.WOODLAND_AHEAD), "§5")
    state.play(A.Dice(3, 4))
    assert state.phase == DRAW
    refused(state, L.Pass(0), "§5")
    refused(state, A.Dice(3, 4), "§16")


def test_an_action_by_a_seat_whose_decision_it_is_not_is_refused() -> None:
    """§5: in the Althing's window only the seat asked decides."""
    state = dealt()
    state.play(A.ROLL)
    state.play(A.Dice(3, 4))
    state.play(L.DrawFate(0, Fate.ATONEMENT, False))
    assert state.phase == ALTHING_OPEN and state.current_player() == 0
    error = refused(state, L.Pass(2), "landnam §5")
    assert "seat 0" in error.reason


def test_a_fate_card_outside_its_sub_phase_or_not_held_is_refused() -> None:
    """§16.1: a card is played only in the sub-phase its mark names (Atonement and Good year
    not in the movement phase, an Exploration card not on its own), and only if held."""
    state = dealt()
    state.play(A.ROLL)
    state.play(A.Dice(3, 4))
    state.play(L.DrawFate(0, Fate.ATONEMENT, False))
    while state.phase != MOVE:
        if state.phase == APPOINT:
            state.play(L.Appoint(0))
        else:
            state.play(L.Pass(state.current_player()))
    for card in (L.PlayFate(0, Fate.ATONEMENT), L.PlayFate(0, Fate.WOODLAND_AHEAD)):
        error = refused(state, card, "§16.1")
        assert "played only then" in error.reason
    for card in (L.PlayFate(0, Fate.LANDING), L.PlayFate(0, 99), L.PlayFate(0, -3)):
        error = refused(state, card, "§16.1")
        assert "holds no such fate card" in error.reason
    assert L.PlayFate(0, Fate.ATONEMENT) not in state.legal_actions()


def test_nothing_is_legal_once_the_game_is_over() -> None:
    """§15: after the end no seat acts and every action is refused."""
    state = trading(players=3)
    state.tokens[1] = [12, 0, 0]
    state.play(A.END_TURN)
    assert state.is_over and state.phase == OVER and state.current_player() == -1
    assert state.legal_actions() == [] and state.acting_seats() == ()
    assert state.chance_node() is None
    refused(state, A.END_TURN, "§15")
    refused(state, A.ROLL, "§15")


# --- victory (§15, gap G21) ---------------------------------------------------------------


def trading(players: int = 3, active: Seat = 0) -> LandnamState:
    """``active``'s turn in trade and building, the set-up skipped."""
    state = new_game("landnam", players)
    state.active = state.start = active
    state.turn = 1
    state.moved = [True] * players
    state.phase = TRADE
    return state


def houses(state: LandnamState, seat: Seat, towns: int, farms: int) -> None:
    """``seat``'s ``towns`` towns and ``farms`` farms, on corners of its own (points only: a
    tie-break test needs no geometry), out of its reserve of houses."""
    first = 20 * seat
    for k in range(towns + farms):
        state.buildings[first + k] = (seat, k < towns)
    state.houses[seat] -= 2 * towns + farms


def test_the_game_ends_at_the_end_of_the_turn_once_the_queued_builds_count() -> None:
    """§15, §12.4: a town queued to bring a seat from 11 to 12 points counts only when the turn
    ends; then the game ends with that seat the winner."""
    state = trading()
    houses(state, 0, 3, 0)
    corner = next(
        c for c, rim in enumerate(state.board.corner_rim) if rim and c not in state.buildings
    )
    state.buildings[corner] = (0, False)
    state.houses[0] -= 1
    state.tokens[0] = [4, 0, 0]
    assert state.victory_points(0) == 11
    state.play(L.BuildTown(corner))
    assert state.victory_points(0) == 11 and not state.is_over
    state.play(A.END_TURN)
    assert state.is_over and state.victory_points(0) == 12 and state.winners() == (0,)


def test_eleven_points_do_not_end_the_game() -> None:
    """§1, §15: the target is 12 points; with 11 the next seat's turn begins."""
    state = trading()
    houses(state, 1, 4, 1)
    state.tokens[1] = [2, 0, 0]
    assert state.victory_points(1) == 11
    state.play(A.END_TURN)
    assert not state.is_over and state.winners() == ()
    assert state.phase == ROLL and state.active == 1


def test_points_reached_during_a_turn_end_the_game_only_when_it_ends() -> None:
    """§15: the check is made at the end of any seat's turn, for every seat: a seat at 12
    points in another's turn waits for that turn to end, and then wins."""
    state = trading(active=2)
    houses(state, 1, 4, 1)
    state.tokens[1] = [2, 1, 0]
    assert state.victory_points(1) == 12
    assert not state.is_over and A.END_TURN in state.legal_actions()
    state.play(A.END_TURN)
    assert state.is_over and state.winners() == (1,)


@pytest.mark.parametrize(
    ("first", "second", "winners"),
    [
        # (towns, farms, white, red, black, resource cards)
        ((4, 1, 2, 0, 1, 0), (4, 1, 3, 0, 0, 9), (0,)),  # black before red and white
        ((4, 1, 2, 1, 0, 0), (4, 1, 3, 0, 0, 9), (0,)),  # red before white
        ((4, 1, 3, 0, 0, 9), (4, 0, 4, 0, 0, 0), (1,)),  # white before house points
        ((4, 1, 3, 0, 0, 9), (4, 1, 3, 0, 0, 8), (0,)),  # resource cards last
        ((4, 1, 3, 0, 0, 5), (4, 1, 3, 0, 0, 5), (0, 1)),  # tied throughout: a shared win
    ],
)
def test_tie_breaks(
    first: tuple[int, ...], second: tuple[int, ...], winners: tuple[Seat, ...]
) -> None:
    """§15, G21: among seats tied on points, more black tokens win, then red, then white, then
    house points, then resource cards (fate cards never count); a tie after all is shared.
    House points never decide alone: equal points and equal tokens make them equal."""
    state = trading(active=2)
    for seat, (towns, farms, white, red, black, held) in enumerate((first, second)):
        houses(state, seat, towns, farms)
        state.tokens[seat] = [white, red, black]
        for kind in range(4):
            state.stock[kind] += state.hands[seat][kind]
            state.hands[seat][kind] = 0
        state.hands[seat][0] = held
        state.stock[0] -= held
        assert state.victory_points(seat) >= 12
    state.unseen[Fate.LANDING] -= 3
    state.deck_size -= 3
    state.fate[1][Fate.LANDING] = 3  # fate cards never count
    state.play(A.END_TURN)
    assert state.is_over and state.winners() == winners
