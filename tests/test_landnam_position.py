"""Landnám positions (docs/POSITION.md): every state of seeded random games round-trips as text,
and a public or seat position reads back as the very view that observations build."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from hexlan.engine.game import CHANCE_SEAT, sample_outcome
from hexlan.engine.position import PositionError
from hexlan.engine.variants.landnam.position import from_position, seen_by, to_position
from hexlan.engine.variants.landnam.state import LandnamState, new_game

Views = list[tuple[int, LandnamState]]


def _games(seed: int, players: int, steps: int) -> list[tuple[LandnamState, Views]]:
    """The full state and every seat's (and a spectator's, -1) observed view at a sample of
    steps of a random game."""
    rng = random.Random(seed)
    state = new_game("landnam", players)
    views = [(s, state.view(s)) for s in (*range(players), -1)]
    sampled = []
    for count in range(steps):
        if state.is_over:
            break
        if state.current_player() == CHANCE_SEAT:
            action = sample_outcome(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        for viewer, view in views:
            view.apply(state.observation(action, viewer))
        state.apply(action)
        if count % 25 == 0:
            sampled.append((state.copy(), [(s, v.copy()) for s, v in views]))
    return sampled


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5)])
def test_positions_round_trip_and_views_match(seed: int, players: int) -> None:
    for state, views in _games(seed, players, 2500):
        text = to_position(state)
        again = from_position(text)
        assert to_position(again) == text
        assert again.full_hash() == state.full_hash()
        for viewer, view in views:
            assert seen_by(state, viewer).full_hash() == view.full_hash(), (viewer, state.phase)
            form = (
                to_position(state, seat=viewer) if viewer >= 0 else to_position(state, public=True)
            )
            assert from_position(form).full_hash() == view.full_hash()


def test_a_read_position_plays_on_like_the_original() -> None:
    state, _ = _games(9, 4, 400)[-1]
    again = from_position(to_position(state))
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(300):
        if state.is_over:
            break
        for game, rng in ((state, rng_a), (again, rng_b)):
            if game.current_player() == CHANCE_SEAT:
                game.apply(sample_outcome(game, rng))
            else:
                game.apply(rng.choice(game.legal_actions()))
        assert again.full_hash() == state.full_hash()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace("hexlan-position 1", "hexlan-position 9"), "version"),
        (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("stock ")), "stock"),
        (lambda t: t.replace("\nturn ", "\nturnip 0\nturn "), "out of order"),
        (lambda t: t.replace("landnam full", "base full"), "no game named"),
    ],
)
def test_a_bad_position_is_refused_naming_what_is_wrong(
    change: Callable[[str], str], words: str
) -> None:
    text = to_position(new_game("landnam", 3))
    with pytest.raises(PositionError, match=words):
        from_position(change(text))
