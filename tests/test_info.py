"""Information states: one seat's knowledge, advanced action by action (ARCHITECTURE.md, 2).

Along random games every seat's view must agree with the full state on everything public, hold the
true hands among the possible ones, accept every action the full engine accepts (as the seat
observes it) and list the same legal actions for its own seat. Scripted positions show what a view
narrows and what it rejects.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import OPTIONS, STEP_CAP, choose, offer_for_one_or_two

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.chance import draw_outcome
from hexlan.engine.core import (
    NO_SEAT,
    DevCard,
    EngineError,
    IllegalActionError,
    Phase,
    Resource,
)
from hexlan.engine.info import MAX_WORLDS, InformationState, advance_views
from hexlan.engine.options import GameOptions
from hexlan.engine.state import CHANCE, GameState

# ---------------------------------------------------------------------- a random driver


def _assert_agree(state: GameState, public_hash: str, view: InformationState) -> None:
    """Everything ``view`` may know agrees with the full state (whose public hash is given)."""
    seat = view.seat
    # Between an opponent's winning action and its reveal the view cannot know the game is won.
    if not (state.phase is Phase.VICTORY and view.phase is not Phase.VICTORY):
        assert view.public_hash() == public_hash
        assert view.legal_actions(seat) == state.legal_actions(seat)
    else:
        assert state.active != seat
    assert view.hands[seat] == state.hands[seat]
    assert view.dev_cards[seat] == state.dev_cards[seat]
    assert view.new_dev_cards[seat] == state.new_dev_cards[seat]
    assert view.is_consistent(state.hands)
    for other in range(state.players):
        assert tuple(state.hands[other]) in view.possible_hands(other)
    unseen = [
        state.deck[c] + sum(state.dev_cards[o][c] for o in range(state.players) if o != seat)
        for c in range(5)
    ]
    assert list(view.unseen_cards()) == unseen


def play_random_game(
    seed: int, players: int, options: GameOptions, max_worlds: int = MAX_WORLDS
) -> Counter[str]:
    """One random game with a view per seat, every view checked at every step.

    Returns counts of what happened, for the coverage test.
    """
    rng = random.Random(seed)
    board = random_board(rng)
    state = GameState(board, players, options)
    views = [
        InformationState(board, players, s, options, max_worlds=max_worlds) for s in range(players)
    ]
    seen: Counter[str] = Counter()
    for _ in range(STEP_CAP):
        if state.is_over:
            break
        if state.current_player() == CHANCE:
            action = draw_outcome(rng, state.chance_outcomes())
            for view in views:
                observed = state.observation(action, view.seat)
                outcomes = view.chance_outcomes()
                assert not outcomes or observed in [o for o, _ in outcomes]
                if observed != action:
                    seen[f"hidden {type(action).__name__}"] += 1
                if isinstance(action, A.RevealVictory) and view.phase is not Phase.VICTORY:
                    seen["surprise victory reveal"] += action.victory_point_cards > 0
        else:
            action = choose(state, rng, offer_for_one_or_two)
        seen[type(action).__name__] += 1
        advance_views(state, views, action, check=True)
        public_hash = state.public_hash()
        for view in views:
            _assert_agree(state, public_hash, view)
            seen["linked opponents"] += any(len(seats) > 1 for seats, _ in view.joint_hands())
    return seen


@settings(max_examples=5, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    max_worlds=st.sampled_from([1, 16, MAX_WORLDS]),
)
def test_views_agree_with_the_full_state_along_random_games(
    seed: int, players: int, options: GameOptions, max_worlds: int
) -> None:
    """Property (principle 2): every view agrees with the full state and accepts every action
    the full engine accepts, at every step, whatever the cap on linked worlds."""
    play_random_game(seed, players, options, max_worlds)


def test_random_games_reach_every_hidden_path() -> None:
    """Two seeded random games cover hidden steals and draws, every card, Monopoly, trades,
    linked opponents and victories revealed by surprise, on the turn and at its end (so the
    property is not vacuous; if a rules change moves these games elsewhere, pick other seeds)."""
    for options in (OPTIONS[0], OPTIONS[2]):
        seen = play_random_game(16, 3, options)
        for key in (
            "hidden StealCard",
            "hidden DrawCard",
            "PlayKnight",
            "PlayRoadBuilding",
            "PlayYearOfPlenty",
            "MonopolyTake",
            "CounterOffer",
            "ConfirmTrade",
            "Discard",
            "MaritimeTrade",
            "linked opponents",
            "surprise victory reveal",
        ):
            assert seen[key], key


# ---------------------------------------------------------------------- scripted positions


def _set_up(placements: Sequence[tuple[int, int]]) -> tuple[GameState, list[InformationState]]:
    """Three seats on the beginner board, seat 1 starting; ``placements`` gives the settlement
    node and the index of its road among the legal ones, in set-up order (1, 2, 0, 0, 2, 1)."""
    board = beginner_board()
    state = GameState(board, 3)
    views = [InformationState(board, 3, s) for s in range(3)]
    advance_views(state, views, A.StartPlayer(1), check=True)
    for node, road in placements:
        advance_views(state, views, A.BuildSettlement(node), check=True)
        advance_views(state, views, state.legal_actions()[road], check=True)
    assert state.phase is Phase.ROLL and state.active == 1
    return state, views


def _robbed_position() -> tuple[GameState, list[InformationState]]:
    """Seat 1 rolls a 7 and robs seat 2; seat 0 does not see the card (a brick).

    After the set-up: seat 0 holds 2 grain; seat 1 holds 2 wool; seat 2 one lumber, one brick,
    one wool (second settlements on intersections 16, 46 and 14 of the beginner board).
    """
    state, views = _set_up([(0, 0), (2, 0), (32, 0), (16, 0), (14, 0), (46, 0)])
    assert state.hands == [[0, 0, 0, 2, 0], [0, 0, 2, 0, 0], [1, 1, 1, 0, 0]]
    for action in (A.ROLL, A.Dice(3, 4)):
        advance_views(state, views, action, check=True)
    rob = next(a for a in state.legal_actions() if isinstance(a, A.MoveRobber) and a.victim == 2)
    advance_views(state, views, rob, check=True)
    brick = A.StealCard(Resource.BRICK)
    assert state.observation(brick, 0) == A.StealCard(None)
    advance_views(state, views, brick, check=True)
    return state, views


def test_a_hidden_steal_links_thief_and_victim() -> None:
    """Seed 002 «Разбойник»: the stolen card is one the victim held, unseen by others."""
    state, views = _robbed_position()
    view = views[0]
    assert view.possible_hands(2) == {(0, 1, 1, 0, 0), (1, 0, 1, 0, 0), (1, 1, 0, 0, 0)}
    assert view.possible_hands(1) == {(1, 0, 2, 0, 0), (0, 1, 2, 0, 0), (0, 0, 3, 0, 0)}
    assert view.known_cards(1) == (0, 0, 2, 0, 0)
    assert view.known_cards(2) == (0, 0, 0, 0, 0)
    assert view.hidden_kinds(1) == {Resource.LUMBER, Resource.BRICK, Resource.WOOL}
    assert view.hidden_kinds(0) == frozenset()
    assert view.joint_hands() == [
        (
            (1, 2),
            frozenset(
                {
                    ((1, 0, 2, 0, 0), (0, 1, 1, 0, 0)),
                    ((0, 1, 2, 0, 0), (1, 0, 1, 0, 0)),
                    ((0, 0, 3, 0, 0), (1, 1, 0, 0, 0)),
                }
            ),
        )
    ]
    # Thief and victim saw the card: their views are exact.
    assert views[1].possible_hands(2) == {(1, 0, 1, 0, 0)}
    assert views[2].possible_hands(1) == {(0, 1, 2, 0, 0)}
    assert view.hand_size == state.hand_size == [2, 3, 2]


def test_spending_the_stolen_kind_narrows_the_victims_hand() -> None:
    """Seat 1 held no brick before the steal, so when it pays a brick seat 0 learns that seat 2
    lost its brick: both hands become exact."""
    state, views = _robbed_position()
    for action in (
        A.OfferTrade((0, 1, 0, 0, 0), (0, 0, 0, 1, 0), 0),
        A.AnswerTrade(0, True),
        A.ConfirmTrade(0),
    ):
        advance_views(state, views, action, check=True)
    view = views[0]
    assert view.possible_hands(2) == {(1, 0, 1, 0, 0)}
    assert view.possible_hands(1) == {(0, 0, 2, 1, 0)}
    assert view.hidden_kinds(2) == frozenset()
    assert view.joint_hands() == [
        ((1,), frozenset({((0, 0, 2, 1, 0),)})),
        ((2,), frozenset({((1, 0, 1, 0, 0),)})),
    ]


def test_a_view_rejects_what_no_possible_hand_allows() -> None:
    """Once seat 0 knows seat 2 has no brick, seat 2 cannot accept a trade asking for one."""
    state, views = _robbed_position()
    for action in (
        A.OfferTrade((0, 1, 0, 0, 0), (0, 0, 0, 1, 0), 0),
        A.AnswerTrade(0, True),
        A.ConfirmTrade(0),
        A.OfferTrade((0, 0, 0, 1, 0), (0, 1, 0, 0, 0), 2),
    ):
        advance_views(state, views, action, check=True)
    impossible = A.AnswerTrade(2, True)
    with pytest.raises(IllegalActionError, match="not in hand"):
        views[0].check(impossible)
    with pytest.raises(IllegalActionError):
        state.check(impossible)
    assert not views[0].could_hold(2, (0, 1, 0, 0, 0))
    views[0].check(A.AnswerTrade(2, False))


def test_a_view_rejects_an_opponent_paying_a_card_it_cannot_have() -> None:
    """Right after the steal seat 1 may hold a lumber, a brick or a third wool, never an ore; and
    it cannot hold both a lumber and a brick, so a road is out of its reach."""
    state, views = _robbed_position()
    view = views[0]
    view.check(A.OfferTrade((1, 0, 0, 0, 0), (0, 0, 0, 1, 0), 0))
    view.check(A.OfferTrade((0, 0, 3, 0, 0), (0, 0, 0, 1, 0), 0))
    with pytest.raises(IllegalActionError, match="does not hold"):
        view.check(A.OfferTrade((0, 0, 0, 0, 1), (0, 0, 0, 1, 0), 0))
    with pytest.raises(IllegalActionError, match="does not hold"):
        view.check(A.OfferTrade((1, 1, 0, 0, 0), (0, 0, 0, 1, 0), 0))
    road = next(p for p in state.topology.node_paths[46] if state.path_owner[p] == NO_SEAT)
    with pytest.raises(IllegalActionError, match="BuildRoad is not legal"):
        view.check(A.BuildRoad(road))
    # Applied unchecked, an impossible payment fails too, and leaves the view unchanged.
    before = view.public_hash()
    with pytest.raises(IllegalActionError, match="seat 1 cannot pay"):
        view.apply(A.MaritimeTrade((0, 0, 0, 0, 4), Resource.LUMBER))
    assert view.public_hash() == before
    assert view.possible_hands(1) == {(1, 0, 2, 0, 0), (0, 1, 2, 0, 0), (0, 0, 3, 0, 0)}


def test_chance_outcomes_a_view_cannot_know_are_not_guessed() -> None:
    """The thief's view cannot tell which card it will steal unless it knows the hand; a third
    party will only see that a card moved."""
    state, views = _set_up([(0, 0), (2, 0), (32, 0), (16, 0), (14, 0), (46, 0)])
    for action in (A.ROLL, A.Dice(3, 4)):
        advance_views(state, views, action, check=True)
    rob = next(a for a in state.legal_actions() if isinstance(a, A.MoveRobber) and a.victim == 2)
    advance_views(state, views, rob, check=True)
    assert views[0].chance_outcomes() == [(A.StealCard(None), 1.0)]
    # Seat 2's hand is public so far (production only): the thief knows the odds exactly.
    assert views[1].chance_outcomes() == state.chance_outcomes()
    assert views[2].chance_outcomes() == state.chance_outcomes()
    with pytest.raises(IllegalActionError, match="sees the card"):
        views[1].check(A.StealCard(None))
    with pytest.raises(IllegalActionError, match="cannot hold ore"):
        views[1].check(A.StealCard(Resource.ORE))


def test_opponents_development_cards_are_counted_not_seen() -> None:
    """Seed 002 «Карточки развития»: a bought card stays hidden, only the count is public, and
    it cannot be played in the turn it was bought."""
    state, views = _set_up([(0, 0), (2, 0), (32, 0), (16, 0), (14, 0), (40, 0)])
    assert state.hands[1] == [0, 0, 0, 2, 1]
    for action in (
        A.ROLL,
        A.Dice(6, 6),
        A.OfferTrade((0, 0, 0, 1, 0), (0, 0, 1, 0, 0), 2),
        A.AnswerTrade(2, True),
        A.ConfirmTrade(2),
        A.BUY_DEVELOPMENT_CARD,
    ):
        advance_views(state, views, action, check=True)
    knight = A.DrawCard(DevCard.KNIGHT)
    assert views[0].chance_outcomes() == [(A.DrawCard(None), 1.0)]
    assert views[1].chance_outcomes() == state.chance_outcomes()  # nobody else holds a card
    with pytest.raises(IllegalActionError, match="cannot see the card seat 1 draws"):
        views[0].check(knight)
    advance_views(state, views, knight, check=True)
    assert views[0].dev_count == state.dev_count == [0, 1, 0]
    assert views[0].deck_size() == state.deck_size() == 24
    assert views[0].unseen_cards() == (14, 5, 2, 2, 2)
    assert views[1].unseen_cards() == (13, 5, 2, 2, 2)
    assert views[1].dev_cards[1] == [1, 0, 0, 0, 0]
    with pytest.raises(IllegalActionError):
        views[0].check(A.PLAY_KNIGHT)  # bought this turn
    # On its next turn seat 1 may play its card: seat 0 cannot tell its kind, so it accepts any
    # kind; seat 1's own view knows it is a knight.
    for action in (A.END_TURN, A.ROLL, A.Dice(6, 6), A.END_TURN, A.ROLL, A.Dice(6, 6)):
        advance_views(state, views, action, check=True)
    advance_views(state, views, A.END_TURN, check=True)
    assert state.active == 1
    views[0].check(A.PLAY_KNIGHT)
    views[0].check(A.PlayMonopoly(Resource.ORE))
    assert A.PlayMonopoly(Resource.ORE) not in views[1].legal_actions(1)
    advance_views(state, views, A.PLAY_KNIGHT, check=True)
    assert views[0].unseen_cards() == (13, 5, 2, 2, 2)


def test_an_information_state_needs_a_seat_of_the_game() -> None:
    with pytest.raises(EngineError, match="seat 3"):
        InformationState(beginner_board(), 3, 3)
