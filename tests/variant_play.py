"""Whole games of a variant for its tests: random play with every seat's information state
checked at every step, and games between heuristic bots (``test_rules_jungle``,
``test_rules_big_river``), told in words too (``test_cities_knights``,
``test_rules_seafarers``, ``test_rules_pirate_islands``).

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from random_play import STEP_CAP, random_step

from hexlan.chance import SeededChance
from hexlan.engine.actions import Action
from hexlan.engine.board import Board, beginner_board, random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.core import Phase
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet, load_ruleset
from hexlan.engine.state import CHANCE, GameState
from hexlan.net.narrate import Narrator


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
        action = random_step(state, rng)
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


@dataclass
class ToldGame:
    """A finished game between bots: the full state, each seat's view, seat 0's narration."""

    state: GameState
    views: list[InformationState]
    told: list[str]


def play_told_bot_game(
    rules: RuleSet,
    board: Board,
    chance: SeededChance,
    *,
    check: bool = False,
    each: Callable[[GameState, list[InformationState], Action], None] | None = None,
) -> ToldGame:
    """Four heuristic bots (each seeded by its seat), each reading its own view, play a whole
    game of ``rules`` on ``board`` (chance outcomes drawn from ``chance``): every action is
    applied to the state and every view (checked by each with ``check``), then told in words by
    seat 0's narrator (seats named a to d) and passed to ``each`` with the state and the views.
    Fails (AssertionError) if the narrator's state is out of step with the game at its end."""
    state = GameState(board, 4, rules=rules)
    views = [InformationState(board, 4, s, rules=rules) for s in range(4)]
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    narrator = Narrator(board, ["a", "b", "c", "d"], 0, rules=rules)
    told: list[str] = []
    while not state.is_over:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        observed = state.observation(action, 0)
        advance_views(state, views, action, check=check)
        told.append(narrator.narrate(observed).text)
        if each is not None:
            each(state, views, action)
    assert narrator.state.public_hash() == state.public_hash()
    return ToldGame(state, views, told)
