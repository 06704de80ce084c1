"""The observer's information state: ``InformationState(board, players, NO_SEAT)``.

``hexlan verify`` replays a signed log through a session that belongs to no seat. Its view must
be a pure third party: every seat an opponent, every steal and draw hidden, every possible victory
reveal accepted, and its public hash equal to the full state's after every action, so that it can
check every turn acknowledgement of the log (docs/PROTOCOL.md §11).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import OPTIONS, STEP_CAP, choose, offer_for_one

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


def _assert_agree(state: GameState, observer: InformationState) -> None:
    """What the observer knows agrees with the full state; it knows no hand or card exactly
    unless the public record fixes it."""
    # Between a winning action and its reveal the observer cannot know the game is won.
    if not (state.phase is Phase.VICTORY and observer.phase is not Phase.VICTORY):
        assert observer.public_hash() == state.public_hash()
    assert observer.is_consistent(state.hands)
    for seat in range(state.players):
        assert tuple(state.hands[seat]) in observer.possible_hands(seat)
        assert observer.dev_cards[seat] == [0, 0, 0, 0, 0]
        assert observer.hidden_victory_points(seat) == 0
        if state.phase is observer.phase and state.phase not in (Phase.VICTORY, Phase.GAME_OVER):
            # an observer's list for a seat holds every action that seat may have
            assert set(state.legal_actions(seat)) <= set(observer.legal_actions(seat))
    unseen = [
        state.deck[c] + sum(state.dev_cards[s][c] for s in range(state.players)) for c in DevCard
    ]
    assert list(observer.unseen_cards()) == unseen
    assert observer.deck_size() == state.deck_size()


def play_observed_game(
    seed: int,
    players: int,
    options: GameOptions,
    max_worlds: int = MAX_WORLDS,
    until: Callable[[GameState], bool] | None = None,
) -> tuple[GameState, InformationState, Counter[str]]:
    """One random game watched by an observer, checked after every action; played to its end,
    or until ``until(state)`` holds (then the state and the observer are returned there)."""
    rng = random.Random(seed)
    board = random_board(rng)
    state = GameState(board, players, options)
    observer = InformationState(board, players, NO_SEAT, options, max_worlds=max_worlds)
    seen: Counter[str] = Counter()
    for _ in range(STEP_CAP):
        if state.is_over or (until is not None and until(state)):
            break
        if state.current_player() == CHANCE:
            action = draw_outcome(rng, state.chance_outcomes())
            observed = state.observation(action, NO_SEAT)
            if isinstance(action, A.StealCard | A.DrawCard):
                assert observed in (A.StealCard(None), A.DrawCard(None))
                seen[f"hidden {type(action).__name__}"] += 1
            else:
                assert observed == action
            outcomes = observer.chance_outcomes()
            assert not outcomes or observed in [o for o, _ in outcomes]
            if isinstance(action, A.RevealVictory):
                seen["surprise victory reveal"] += observer.phase is not Phase.VICTORY
        else:
            action = choose(state, rng, offer_for_one)
        seen[type(action).__name__] += 1
        advance_views(state, [observer], action, check=True)  # the observer accepts it
        _assert_agree(state, observer)
        seen["linked seats"] += any(len(seats) > 1 for seats, _ in observer.joint_hands())
    if until is None:
        assert state.is_over, "the random game did not end"
        assert observer.is_over and observer.winner == state.winner
        assert observer.public_hash() == state.public_hash()
    else:
        assert until(state), "the random game never got there"
    return state, observer, seen


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    max_worlds=st.sampled_from([1, 16, MAX_WORLDS]),
)
def test_an_observer_agrees_with_the_full_state_along_random_games(
    seed: int, players: int, options: GameOptions, max_worlds: int
) -> None:
    """Every action of a random game passes the observer's check, and its public hash is the
    full state's after every one."""
    play_observed_game(seed, players, options, max_worlds)


def test_observed_games_reach_every_hidden_path() -> None:
    """Seeded games cover hidden steals and draws, Monopoly, trades, linked seats and victories
    the observer learns only from the reveal (so the property is not vacuous; if a rules change
    moves these games elsewhere, pick other seeds)."""
    seen: Counter[str] = Counter()
    for options in (OPTIONS[0], OPTIONS[2]):
        seen += play_observed_game(16, 3, options)[2]
    for key in (
        "hidden StealCard",
        "hidden DrawCard",
        "PlayKnight",
        "MonopolyTake",
        "ConfirmTrade",
        "Discard",
        "linked seats",
        "surprise victory reveal",
    ):
        assert seen[key], key


# ---------------------------------------------------------------------- scripted positions


def _observed_robbery() -> tuple[GameState, InformationState]:
    """Three seats on the beginner board; seat 1 rolls a 7 and robs seat 2 (of one lumber, one
    brick, one wool), watched by an observer."""
    board = beginner_board()
    state = GameState(board, 3)
    observer = InformationState(board, 3, NO_SEAT)
    advance_views(state, [observer], A.StartPlayer(1), check=True)
    for node in (0, 2, 32, 16, 14, 46):
        advance_views(state, [observer], A.BuildSettlement(node), check=True)
        advance_views(state, [observer], state.legal_actions()[0], check=True)
    for action in (A.ROLL, A.Dice(3, 4)):
        advance_views(state, [observer], action, check=True)
    rob = next(a for a in state.legal_actions() if isinstance(a, A.MoveRobber) and a.victim == 2)
    advance_views(state, [observer], rob, check=True)
    return state, observer


def test_an_observer_has_no_seat_of_its_own() -> None:
    observer = InformationState(beginner_board(), 3, NO_SEAT)
    assert observer.seat == NO_SEAT
    assert all(observer.possible_hands(s) == {(0, 0, 0, 0, 0)} for s in range(3))
    assert [seats for seats, _ in observer.joint_hands()] == [(0,), (1,), (2,)]
    assert observer.is_consistent([[0] * 5] * 3)
    with pytest.raises(EngineError, match="seat -2"):
        InformationState(beginner_board(), 3, -2)


def test_an_observer_sees_every_steal_hidden() -> None:
    state, observer = _observed_robbery()
    assert observer.chance_outcomes() == [(A.StealCard(None), 1.0)]
    with pytest.raises(IllegalActionError, match="cannot hold ore"):
        observer.check(A.StealCard(Resource.ORE))
    steal = A.StealCard(Resource.BRICK)
    assert state.observation(steal, NO_SEAT) == A.StealCard(None)
    advance_views(state, [observer], steal, check=True)
    assert observer.possible_hands(2) == {(0, 1, 1, 0, 0), (1, 0, 1, 0, 0), (1, 1, 0, 0, 0)}
    assert observer.possible_hands(1) == {(1, 0, 2, 0, 0), (0, 1, 2, 0, 0), (0, 0, 3, 0, 0)}
    assert observer.public_hash() == state.public_hash()


def test_an_observer_sees_every_draw_hidden() -> None:
    state, observer, _ = play_observed_game(
        16, 3, OPTIONS[0], until=lambda s: s.phase is Phase.DRAW
    )
    assert observer.chance_outcomes() == [(A.DrawCard(None), 1.0)]
    card = draw_outcome(random.Random(0), state.chance_outcomes())
    assert state.observation(card, NO_SEAT) == A.DrawCard(None)
    with pytest.raises(IllegalActionError, match="cannot see the card"):
        observer.check(card)
    observer.check(A.DrawCard(None))


@pytest.mark.parametrize("options", [OPTIONS[0], OPTIONS[2]], ids=["on the turn", "turn end"])
def test_an_observer_accepts_the_reveal_that_is_possible_and_no_other(
    options: GameOptions,
) -> None:
    state, observer, _ = play_observed_game(
        16, 3, options, until=lambda s: s.phase is Phase.VICTORY
    )
    ((reveal, _),) = state.chance_outcomes()
    assert isinstance(reveal, A.RevealVictory)
    observer.check(reveal)
    for wrong in (
        A.RevealVictory((reveal.seat + 1) % 3, reveal.victory_point_cards),
        A.RevealVictory(NO_SEAT, reveal.victory_point_cards),
        A.RevealVictory(reveal.seat, 6),  # more victory point cards than the seat holds
    ):
        with pytest.raises(IllegalActionError):
            observer.check(wrong)
    advance_views(state, [observer], reveal, check=True)
    assert observer.is_over and observer.winner == state.winner == reveal.seat
    assert observer.public_hash() == state.public_hash()
