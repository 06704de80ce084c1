"""Every game is played through the :class:`~hexlan.engine.game.Game` interface alone.

OpenSpiel's ``random_sim_test`` in hexlan's terms: for every game of the seeds, a seeded game of
random legal moves and sampled chance, using nothing but the interface's members, checks what
the interface promises: the seats that act, their legal actions passing ``check``, chance
outcomes summing to 1, ``play`` refusing nothing it offered, ``copy`` independent, a third
party's view (advanced by ``observation``) holding the same public state, and the winners.
``mypy --strict`` checks that both state classes satisfy the protocol (the ``_GAME`` assignments
at the end of engine/state.py and engine/info.py).
"""

from __future__ import annotations

import math
import random

import pytest

from hexlan.chance import SeededChance
from hexlan.engine.actions import Action
from hexlan.engine.bots.random_bot import RandomBot
from hexlan.engine.core import NO_SEAT, IllegalActionError
from hexlan.engine.game import CHANCE_SEAT, Game, sample_outcome
from hexlan.engine.info import InformationState
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import GAMES, load_ruleset, seat_range, state_spec
from hexlan.engine.state import CHANCE, GameState

STEPS = 500
"""Steps (decisions and chance outcomes) of each game's random play."""
COPY_EVERY = 37
"""Steps between two checks of ``copy``."""


def new_game(name: str, seed: int) -> tuple[Game, Game]:
    """A random board of the game ``name`` with its fewest seats, and a third party's view (a
    game with a state of its own: its state factory's new game, and its view)."""
    spec = state_spec(name)
    if spec is not None and spec.state is not None:
        own = spec.state(name, seat_range(name)[0], None)
        return own, own.view(NO_SEAT)
    rules = load_ruleset(name)
    board = SeededChance(seed).board("random", board_map=load_map(rules.board))
    players = rules.min_players
    return (
        GameState(board, players, rules=rules),
        InformationState(board, players, NO_SEAT, rules=rules),
    )


def step(game: Game, rng: random.Random) -> Action:
    """One checked step of ``game``: a sampled chance outcome, or a random seat's random legal
    action; what a third party observes of it (asked before it is played)."""
    if game.current_player() == CHANCE_SEAT:
        assert game.acting_seats() == () and game.legal_actions() == []
        outcomes = game.chance_outcomes()
        assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0)
        action = sample_outcome(game, rng)
        assert action in [a for a, _ in outcomes]
    else:
        seats = game.acting_seats()
        assert seats and game.current_player() == seats[0]
        seat = rng.choice(seats)
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} may act but has no legal action"
        action = RandomBot(rng).choose(game, seat)  # the random bot needs only the interface
        assert action in legal
        game.check(action)
    seen = game.observation(action, NO_SEAT)
    game.play(action)
    return seen


def test_the_chance_seat_is_the_engines() -> None:
    assert CHANCE_SEAT == CHANCE


@pytest.mark.parametrize("name", GAMES)
def test_every_game_plays_through_the_interface(name: str) -> None:
    game, third = new_game(name, seed=7)
    rng = random.Random(f"interface {name}")
    for count in range(STEPS):
        if game.is_over:
            break
        assert game.winners() == ()
        if count % COPY_EVERY == 0:
            copied = game.copy()
            before = game.full_hash()
            step(copied, random.Random(count))
            assert game.full_hash() == before  # the copy's step left this state alone
        seen = step(game, rng)
        third.play(seen)
        assert third.public_hash() == game.public_hash(), (name, count, seen)
    if game.is_over:
        assert game.acting_seats() == () and len(game.winners()) >= 1  # Landnám's may share
        assert game.current_player() < 0 and game.chance_outcomes() == []
    with pytest.raises(IllegalActionError):  # what is no action is refused, never crashed on
        game.check(object())  # type: ignore[arg-type]
