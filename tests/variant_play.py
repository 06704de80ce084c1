"""Whole games of a variant for its tests: random play with every seat's information state
checked at every step, and games between heuristic bots (``test_rules_jungle``,
``test_rules_big_river``).

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

import random
from collections import Counter

from random_play import STEP_CAP, choose, offer_for_one_or_two

from hexlan.chance import SeededChance
from hexlan.engine.board import Board, beginner_board, random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.chance import draw_outcome
from hexlan.engine.core import Phase
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet, load_ruleset
from hexlan.engine.state import CHANCE, GameState


def board_of(rules: RuleSet, rng: random.Random | None = None) -> Board:
    """The rule set's map, laid at random from ``rng`` or (without one) its beginner layout."""
    board_map = load_map(rules.board)
    return beginner_board(board_map) if rng is None else random_board(rng, "spiral", board_map)


def assert_views_agree(state: GameState, views: list[InformationState]) -> None:
    """Every view agrees with the full state on the public state (the variant's public lists
    included), its own hand and its own legal actions."""
    public = state.public_hash()
    for view in views:
        seat = view.seat
        if not (state.phase is Phase.VICTORY and view.phase is not Phase.VICTORY):
            assert view.public_hash() == public
            assert view.legal_actions(seat) == state.legal_actions(seat)
            assert view.discoveries == state.discoveries
            assert view.gold_points == state.gold_points
            assert view.variant_vp == state.variant_vp
        assert view.hands[seat] == state.hands[seat]
        assert view.is_consistent(state.hands)


def play_random_game(
    game: str, seed: int, players: int, options: GameOptions | None = None
) -> tuple[GameState, Counter[str]]:
    """A random game of ``game`` with a view per seat, every action checked by the state and
    every view and the views compared with the state after each one.

    Returns the final state and counts of the actions played, by type name.
    """
    rules = load_ruleset(game)
    options = options or GameOptions(victory_points=7)
    rng = random.Random(seed)
    board = board_of(rules, rng)
    state = GameState(board, players, options, rules)
    views = [InformationState(board, players, s, options, rules) for s in range(players)]
    seen: Counter[str] = Counter()
    for _ in range(STEP_CAP):
        if state.is_over:
            break
        if state.current_player() == CHANCE:
            action = draw_outcome(rng, state.chance_outcomes())
        else:
            action = choose(state, rng, offer_for_one_or_two)
        seen[type(action).__name__] += 1
        advance_views(state, views, action, check=True)
        assert_views_agree(state, views)
    return state, seen


def play_bot_game(
    game: str,
    seed: int,
    players: int = 4,
    options: GameOptions | None = None,
    turn_cap: int = 1500,
) -> tuple[GameState, Counter[str]]:
    """A game between heuristic bots, each reading its own information state (as
    ``hexlan simulate`` plays), on a random board of the game's map from ``seed``."""
    rules = load_ruleset(game)
    chance = SeededChance(seed)
    board = board_of(rules, chance.rng)
    state = GameState(board, players, options, rules)
    views = [InformationState(board, players, s, options, rules) for s in range(players)]
    bots = [make_bot("heuristic", random.Random(seed * 31 + i)) for i in range(players)]
    seen: Counter[str] = Counter()
    while not state.is_over and state.turn <= turn_cap:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        seen[type(action).__name__] += 1
        advance_views(state, views, action)
    assert_views_agree(state, views)
    return state, seen
