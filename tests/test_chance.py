"""Chance nodes as data (engine/chance.py) and decks named by the rule set.

A state describes the chance it waits for as a :class:`ChanceNode` exactly when a chance outcome
is due; a uniform node lists the same outcomes as ``chance_outcomes``, and a chance source that
draws by its ``sides`` (the network beacon) gets the same dice as two ``randbelow(6)`` draws.
"""

from __future__ import annotations

import math
import random

import pytest
from random_play import OPTIONS, choose, offer_for_one

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board
from hexlan.engine.chance import (
    COUNT,
    DECK_DRAW,
    MONOPOLY_COUNTS,
    REVEAL,
    STEAL,
    UNIFORM,
    ChanceNode,
    Count,
)
from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset
from hexlan.engine.state import CHANCE, GameState


@pytest.mark.parametrize("game", CATAN_GAMES)
def test_the_development_deck_is_named(game: str) -> None:
    rules = load_ruleset(game)
    if game == "cities-and-knights":  # no development cards: the three progress decks only
        assert not any(rules.development_deck)
        assert list(rules.decks) == ["trade", "politics", "science"]
        return
    assert rules.decks["development"] == rules.development_deck
    # the development deck first; The Fog Island adds its fog stacks after it (PROTOCOL.md §13.10)
    fog = ["fog", "fog_tokens"] if game.startswith("seafarers-fog-island") else []
    assert list(rules.decks) == ["development", *fog]


def test_a_uniform_node_picks_by_its_draws() -> None:
    start = GameState(beginner_board(), 4).chance_node()
    assert start is not None and (start.kind, start.event, start.sides) == (UNIFORM, "start", (4,))
    draws = iter([4, 0, 5])  # first draw most significant: the mixed-radix index
    node = ChanceNode(UNIFORM, "dice", A.ALL_DICE, (6, 6))
    assert node.pick(lambda size: next(draws)) == A.Dice(5, 1)
    assert [node.pick(lambda size, d=d: d % size) for d in (0, 5)] == [A.Dice(1, 1), A.Dice(6, 6)]


def _play_checking_nodes(seed: int) -> set[str]:
    """A seeded random game checking every chance node against its outcomes; the node kinds
    met."""
    rng = random.Random(seed)
    state = GameState(beginner_board(), 3 + seed % 2, OPTIONS[seed])
    kinds: set[str] = set()
    for _ in range(4000):
        if state.is_over:
            break
        node = state.chance_node()
        assert (node is not None) == (state.current_player() == CHANCE)
        if node is None:
            state.apply(choose(state, rng, offer_for_one))
            continue
        kinds.add(node.kind)
        outcomes = state.chance_outcomes()
        if node.kind == UNIFORM:
            assert set(node.outcomes) == {action for action, _ in outcomes}
            assert len(node.outcomes) == math.prod(node.sides)
        elif node.kind == DECK_DRAW:
            assert (node.deck, node.seats) == ("development", (state.active,))
        elif node.kind == STEAL:
            assert node.seats == (state.active, state.victim)
        elif node.kind == COUNT:
            others = tuple(s for s in range(state.players) if s != state.active)
            assert (node.event, node.seats) == (MONOPOLY_COUNTS, others)
            assert node.count == Count(state.monopoly, None)
            ((take, _),) = outcomes
            assert take == state.count_outcome(
                [
                    0 if s == state.active else node.count.of(state.hands[s])
                    for s in range(state.players)
                ]
            )
        else:
            assert (node.kind, node.seats) == (REVEAL, (state.active,))
        actions, weights = zip(*outcomes, strict=True)
        state.apply(rng.choices(actions, weights)[0])
    return kinds


@pytest.mark.parametrize("seed", range(4))
def test_a_node_describes_every_chance_outcome(seed: int) -> None:
    # every game rolls, robs, draws and claims; a Monopoly's count comes in some games
    assert _play_checking_nodes(seed) - {COUNT} == {UNIFORM, STEAL, DECK_DRAW, REVEAL}


def test_the_games_above_count_for_a_monopoly() -> None:
    """One of the seeded games plays a Monopoly, so the count node's checks run."""
    assert COUNT in set().union(*(_play_checking_nodes(seed) for seed in range(4)))
