"""The search bot and what it stands on: state copies, determinisation, hidden information.

The bot's strength and decision times are measured by scripts/bench_mcts.py, never asserted here.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.chance import SeededChance
from hexlan.cli import main
from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.bots import HeuristicBot, MctsBot, make_bot, mcts
from hexlan.engine.core import DevCard, Phase
from hexlan.engine.determinize import Determinizer
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.state import CHANCE, GameState
from hexlan.net.client import SessionGame

_SHARED = frozenset({"_static_public", "harbour_nodes"})
"""Mutable-typed attributes a copy shares on purpose: built once per game, never changed."""


def _game(
    seed: int, steps: int, bots: tuple[str, ...] = ("heuristic",) * 4
) -> tuple[GameState, list[InformationState]]:
    """A seeded game between bots on their views, after ``steps`` actions (or at its end)."""
    chance = SeededChance(seed)
    players = len(bots)
    state = GameState(chance.board("random"), players)
    views = [InformationState(state.board, players, s) for s in range(players)]
    policies = [make_bot(name, random.Random(seed * 31 + s)) for s, name in enumerate(bots)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.current_player()
        if seat == CHANCE:
            action = chance.outcome(state)
        else:
            action = policies[seat].choose(views[seat], seat)
        advance_views(state, views, action)
    return state, views


def _play_on(state: GameState, seed: int, steps: int) -> None:
    chance = SeededChance(seed)
    bot = HeuristicBot(random.Random(seed))
    for _ in range(steps):
        if state.is_over:
            return
        seat = state.current_player()
        state.apply(chance.outcome(state) if seat == CHANCE else bot.choose(state, seat))


# ---------------------------------------------------------------------- copies


def test_a_copy_shares_no_mutable_part_with_its_original() -> None:
    state, views = _game(5, 300)
    for original in (state, views[1]):
        twin = original.copy()
        assert type(twin) is type(original)
        for name, value in original.__dict__.items():
            if isinstance(value, list | dict | set) and name not in _SHARED:
                assert twin.__dict__[name] is not value, name
                nested = isinstance(value, list) and value and isinstance(value[0], list)
                if nested and name != "_road_cache":  # cached lists are replaced, not changed
                    assert all(a is not b for a, b in zip(twin.__dict__[name], value, strict=True))


def test_a_copy_plays_on_while_the_original_stays_put() -> None:
    state, views = _game(8, 250)
    before = state.full_hash()
    view_before = (views[2].public_hash(), [views[2].possible_hands(s) for s in range(4)])
    twin, view_twin = state.copy(), views[2].copy()
    assert twin.full_hash() == before
    _play_on(twin, 1, 400)
    assert twin.full_hash() != before
    assert state.full_hash() == before
    # the view's copy takes the same observations as the original would, groups and all
    chance = SeededChance(3)
    bot = HeuristicBot(random.Random(3))
    probe = state.copy()
    for _ in range(200):
        if probe.is_over:
            break
        seat = probe.current_player()
        action = chance.outcome(probe) if seat == CHANCE else bot.choose(probe, seat)
        advance_views(probe, [view_twin], action)
    assert (views[2].public_hash(), [views[2].possible_hands(s) for s in range(4)]) == view_before
    assert view_twin.public_hash() == probe.public_hash()
    assert view_twin.is_consistent(probe.hands)


# ---------------------------------------------------------------------- determinisation


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 900),
    seat=st.integers(0, 3),
    mixed=st.booleans(),
)
def test_determinisations_agree_with_the_information_state(
    seed: int, steps: int, seat: int, mixed: bool
) -> None:
    bots = ("heuristic", "random", "heuristic", "random") if mixed else ("heuristic",) * 4
    state, views = _game(seed, steps, bots)
    view = views[seat]
    sampler = Determinizer(view)
    rng = random.Random(seed)
    for _ in range(3):
        sample = sampler.sample(rng)
        assert type(sample) is GameState
        assert sample.public_hash() == view.public_hash() == state.public_hash()
        assert view.is_consistent(sample.hands)
        assert sample.hands[seat] == state.hands[seat]
        assert sample.dev_cards[seat] == state.dev_cards[seat]
        assert sample.new_dev_cards[seat] == state.new_dev_cards[seat]
        others = [s for s in range(4) if s != seat]
        for s in others:
            assert sum(sample.hands[s]) == state.hand_size[s]
            assert sum(sample.dev_cards[s]) == state.dev_count[s]
            assert sum(sample.new_dev_cards[s]) == state.new_dev_count[s]
            assert all(
                n <= d for n, d in zip(sample.new_dev_cards[s], sample.dev_cards[s], strict=True)
            )
        pool = [sample.deck[c] + sum(sample.dev_cards[s][c] for s in others) for c in DevCard]
        assert tuple(pool) == view.unseen_cards()
        assert sample.legal_actions(seat) == view.legal_actions(seat)


def test_a_determinisation_never_gives_an_opponent_a_win_it_would_have_claimed() -> None:
    _, views = _game(21, 600)  # late in a game: many development cards unseen
    view = views[0]
    sampler = Determinizer(view)
    rng = random.Random(0)
    for _ in range(50):
        sample = sampler.sample(rng)
        for s in range(1, 4):
            if s != sample.active:
                assert sample.victory_points(s) < sample.target


# ---------------------------------------------------------------------- hidden information


def _searched_position() -> tuple[GameState, InformationState]:
    """A main-phase decision of seat 0 while the opponents hold cards seat 0 cannot see."""
    chance = SeededChance(13)
    state = GameState(chance.board("random"), 4)
    views = [InformationState(state.board, 4, s) for s in range(4)]
    bots = [HeuristicBot(random.Random(s)) for s in range(4)]
    while not state.is_over:
        seat = state.current_player()
        view = views[0]
        if seat == 0 and view.phase is Phase.MAIN and len(view.legal_actions(0)) > 2:
            hidden = any(len(view.possible_hands(s)) > 1 for s in range(1, 4))
            if hidden and any(state.dev_count[1:]):
                return state, view
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        advance_views(state, views, action)
    raise AssertionError("no position with hidden cards found")


def test_the_decision_does_not_depend_on_the_others_hidden_cards() -> None:
    state, view = _searched_position()
    swapped = Determinizer(view).sample(random.Random(99))
    while swapped.hidden_dict() == state.hidden_dict():
        swapped = Determinizer(view).sample(random.Random())
    # Two full games the seat cannot tell apart: the same information state fits both.
    assert view.is_consistent(state.hands) and view.is_consistent(swapped.hands)
    assert swapped.public_hash() == state.public_hash()

    def decide(game: GameState) -> tuple[A.Action, A.Action]:
        searched = MctsBot(random.Random(4), think=60.0, playouts=40)
        on_view = searched.choose(view.copy(), 0)
        assert 0 < searched.last_playouts <= 40
        on_full = MctsBot(random.Random(4), think=60.0, playouts=40).choose(game, 0)
        return on_view, on_full

    assert decide(state) == decide(swapped)


def test_the_search_is_reproducible_for_a_seed_and_a_playout_cap() -> None:
    _, view = _searched_position()
    first = MctsBot(random.Random(7), 60.0, playouts=30).choose(view, 0)
    again = MctsBot(random.Random(7), 60.0, playouts=30).choose(view.copy(), 0)
    assert first == again


def test_the_bot_rejects_bad_settings() -> None:
    with pytest.raises(ValueError, match="think"):
        MctsBot(random.Random(0), 0)
    with pytest.raises(ValueError, match="horizon"):
        MctsBot(random.Random(0), 1.0, horizon=0)
    with pytest.raises(ValueError, match="think"):
        make_bot("mcts", random.Random(0), think=-1)


# ---------------------------------------------------------------------- games and the CLI


def test_an_mcts_game_finishes_under_simulate() -> None:
    result = CliRunner().invoke(
        main,
        [
            *["simulate", "--games", "1", "--players", "3", "--strategy", "mcts"],
            *["--think", "0.02", "--json"],
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.splitlines()[-1])
    assert report["bots"] == ["mcts"] * 3
    assert report["games"][0]["winner"] is not None


def test_mcts_against_heuristic_bots_plays_only_legal_actions() -> None:
    result = CliRunner().invoke(
        main,
        [
            *["simulate", "--games", "1", "--players", "2", "--bots", "mcts,heuristic"],
            "--think",
            "0.02",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[-1])["games"][0]["winner"] is not None


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "1", "--think", "0"],
        ["simulate", "--games", "1", "--strategy", "genius"],
        ["play", "--strategy", "genius"],
        ["play", "--think", "-1"],
        ["host", "--strategy", "genius"],
        ["host", "--think", "abc"],
        ["bot", "--host", "--strategy", "genius"],
        ["bot", "--host", "--think", "0"],
    ],
)
def test_bad_strategy_and_think_get_one_line_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "Error: Invalid value" in result.output
    assert len(result.output.strip().splitlines()) == 4  # usage, hint, blank line, the error


@pytest.mark.parametrize("command", ["play", "host", "bot", "simulate", "resume"])
def test_every_bot_command_offers_mcts_and_a_thinking_budget(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    assert "--think" in result.output
    if command != "resume":
        assert "mcts" in result.output


def test_a_bot_thinks_on_a_copy_and_a_stale_decision_is_dropped() -> None:
    game = SessionGame(players=3, seed=2, bots=["mcts"] * 3, think=0.05, save_log=False)
    try:
        turn = game.bot_due()
        while turn is None:
            game.submit(HeuristicBot(random.Random(0)).choose(game.view, game.human_seat))
            turn = game.bot_due()
        session = game.table.sessions[turn.seat]
        assert turn.view is not session.view
        assert turn.view.public_hash() == session.view.public_hash()
        action = turn.bot.choose(turn.view, turn.seat)
        fresh = game.bot_due()
        assert fresh is not None
        assert game.bot_move(turn, action) is not None  # nothing moved meanwhile: it stands
        assert game.bot_move(fresh, action) is None  # a decision taken before that move: stale
    finally:
        game.close()


def test_action_numbering_is_stable_whatever_the_order_listed() -> None:
    _, view = _searched_position()
    legal = view.legal_actions(0)
    numbered = R.number_actions(legal)
    assert sorted(map(repr, numbered)) == sorted(map(repr, set(legal)))
    shuffled = legal[:]
    random.Random(1).shuffle(shuffled)
    assert R.number_actions(shuffled) == numbered
    index = {a: i for i, a in enumerate(numbered)}
    assert [numbered[index[a]] for a in legal] == legal
    sample = Determinizer(view).sample(random.Random(2))
    assert R.number_actions(sample.legal_actions(0)) == numbered  # same in a determinisation
    keys = [R.action_key(a) for a in numbered]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# ---------------------------------------------------------------------- playouts


def test_a_playout_policy_keeping_prospects_chooses_as_the_heuristic_does() -> None:
    # Along one line of play the playout policy keeps each seat's prospects between decisions
    # (engine/bots/heuristic.py, ``playout``): it must choose exactly as a fresh bot would.
    chance = SeededChance(17)
    state = GameState(chance.board("random"), 4)
    plain, kept = HeuristicBot(random.Random(5)), HeuristicBot(random.Random(5), playout=True)
    kept.forget_turn()
    decisions = 0
    while not state.is_over and state.turn < 120:
        seat = state.current_player()
        if seat == CHANCE:
            action = chance.outcome(state)
        else:
            action = plain.choose(state, seat)
            assert kept.choose(state, seat) == action, (state.turn, action)
            decisions += 1
        state.apply(action)
    assert decisions > 300


def test_a_playout_end_scores_each_seats_share_of_a_softmax_of_values() -> None:
    state, _ = _game(9, 300)
    assert not state.is_over
    shares = [mcts.score(state, s) for s in range(4)]
    assert sum(shares) == pytest.approx(1.0)
    values = [mcts.value(state, s) for s in range(4)]
    assert max(range(4), key=shares.__getitem__) == max(range(4), key=values.__getitem__)
    duel, _ = _game(9, 200, ("heuristic",) * 2)
    lead = mcts.value(duel, 0) - mcts.value(duel, 1)
    assert mcts.score(duel, 0) == pytest.approx(1 / (1 + math.exp(-lead)))  # 2 seats: the logistic


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "mcts"),  # the base game: the search bot beats the heuristic (scripts/bench_mcts.py)
        (["--game", "jungle"], "heuristic"),  # unmeasured elsewhere
        (["--strategy", "random"], "random"),
    ],
)
def test_play_seats_the_strongest_bot_measured_for_the_game(
    monkeypatch: pytest.MonkeyPatch, args: list[str], expected: str
) -> None:
    from hexlan.tui import app

    seated: dict[str, object] = {}

    def run_play(**kwargs: object) -> int:  # the screen itself is tested in tests/test_tui.py
        seated.update(kwargs)
        return 0

    monkeypatch.setattr(app, "run_play", run_play)
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exit_code == 0, result.output
    assert seated["strategy"] == expected
