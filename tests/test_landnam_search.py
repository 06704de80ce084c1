"""The search bot plays Landnám through the same Game protocol, its hidden fate cards
determinised (issue 25): :meth:`LandnamState.determinized` deals a view's unseen cards into a
full state the view may be, and :class:`~hexlan.engine.bots.own_search.OwnSearchBot` (Landnám's
``mcts``) plays every decision legally, reproducibly by seed without a clock, and from
`hexlan simulate`."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from hexlan.cli import main
from hexlan.engine.actions import Action
from hexlan.engine.bots.landnam import LandnamBot, position_value
from hexlan.engine.bots.own import OwnPolicy, own_bot
from hexlan.engine.bots.own_search import NOMINAL_RATE, OwnSearchBot, share
from hexlan.engine.game import CHANCE_SEAT, sample_outcome
from hexlan.engine.variants.landnam.phases import OVER
from hexlan.engine.variants.landnam.state import LandnamState, new_game


def _play(
    seed: int,
    bots: list[OwnPolicy],
    turns: int,
    seen: Callable[[LandnamState, int, Action], None] | None = None,
) -> tuple[LandnamState, list[LandnamState]]:
    """Play a seeded game of ``len(bots)`` seats until turn ``turns`` begins (or the end), as
    :func:`hexlan.simulate.play_own_game` does, each bot reading its own view; ``seen`` is
    given each decision with the full state. The full state and the views at the end."""
    state = new_game("landnam", len(bots))
    rng = random.Random(seed)
    views = [state.view(s) for s in range(state.players)]
    while not state.is_over and state.turn < turns:
        seat = state.current_player()
        if seat == CHANCE_SEAT:
            action = sample_outcome(state, rng)
        else:
            action = bots[seat].choose(views[seat], seat)
            if seen is not None:
                seen(state, seat, action)
        for viewer, view in enumerate(views):
            view.apply(state.observation(action, viewer))
        state.apply(action)
    return state, views


def _heuristics(seed: int, players: int) -> list[OwnPolicy]:
    return [LandnamBot(random.Random(seed * 31 + s)) for s in range(players)]


@pytest.mark.parametrize("seed", [3, 8])
def test_a_determinised_view_is_a_full_state_the_view_may_be(seed: int) -> None:
    """Mid-game, each seat's view determinised: the public state is the view's, every seat
    holds as many fate cards as the view counts (its own exactly the view's), no other seat
    a face the view has seen every card of, the deck is what is left; and it plays on
    legally with the heuristic for every seat, six turns."""
    state, views = _play(seed, _heuristics(seed, 4), 40)
    assert any(any(v.hidden) for v in views), "no hidden fate card to determinise"
    for seat, view in enumerate(views):
        world = view.determinized(random.Random(seed))
        assert world.viewer is None and not any(world.hidden)
        assert world.public_hash() == view.public_hash() == state.public_hash()
        for other in range(view.players):
            assert world.fate_count(other) == view.fate_count(other)
            if other == seat:
                assert world.fate[other] == view.fate[other]
            for face, count in enumerate(world.fate[other]):
                assert count <= view.fate[other][face] + view.unseen[face]
        assert sum(world.unseen) == world.deck_size
        assert [sum(col) for col in zip(*world.fate, world.unseen, strict=True)] == [
            sum(col) for col in zip(*state.fate, state.unseen, strict=True)
        ]
        _play_on(world, seed, world.turn + 6)
        assert world.turn == view.turn + 6 or world.is_over


def _play_on(state: LandnamState, seed: int, turns: int) -> None:
    """Play a full state on with heuristic bots until turn ``turns`` begins, every decision
    checked."""
    bots = _heuristics(seed, state.players)
    rng = random.Random(seed)
    while not state.is_over and state.turn < turns:
        actor = state.current_player()
        if actor == CHANCE_SEAT:
            action = sample_outcome(state, rng)
        else:
            action = bots[actor].choose(state, actor)
            state.check(action)
        state.apply(action)


def test_determinising_draws_from_the_rng_and_leaves_the_full_state_as_it_is() -> None:
    """Two seeds deal a view's hidden cards differently (some seeds, at least); the full state
    determinises to a copy of itself."""
    state, views = _play(5, _heuristics(5, 4), 40)
    view = next(v for v in views if sum(v.hidden) >= 3)
    deals = {json.dumps(view.determinized(random.Random(k)).fate, sort_keys=True) for k in range(8)}
    assert len(deals) > 1
    copy = state.determinized(random.Random(0))
    assert copy is not state and copy.full_hash() == state.full_hash()


def _search(seed: int, playouts: int) -> OwnSearchBot:
    """Landnám's search bot without a clock, ``playouts`` a decision."""
    bot = own_bot("mcts", new_game("landnam", 3), random.Random(seed), playouts / NOMINAL_RATE)
    assert isinstance(bot, OwnSearchBot) and bot.clock is None
    return bot


def test_every_decision_of_the_search_bot_is_legal() -> None:
    """A short seeded game, the search bot in one seat with a tiny budget of playouts: each of
    its actions is among the legal actions and passes the full state's check, and it searched
    (playouts ran)."""
    search = _search(2, 4)
    bots: list[OwnPolicy] = [*_heuristics(2, 3)]
    bots[1] = search
    searched: list[int] = []

    def seen(state: LandnamState, seat: int, action: Action) -> None:
        if seat == 1:
            assert action in state.legal_actions(seat), (state.phase, action)
            state.check(action)
            searched.append(search.last_playouts)

    _play(2, bots, 25, seen)
    assert len(searched) > 20 and sum(searched) > 0


def test_the_search_bot_without_a_clock_is_reproducible_by_seed() -> None:
    """Two runs of one seeded game, the search bot without a clock in seat 0: the same
    actions, decision for decision."""

    def run() -> list[Action]:
        chosen: list[Action] = []
        bots: list[OwnPolicy] = [_search(7, 3), *_heuristics(7, 3)[1:]]
        _play(7, bots, 12, lambda _s, seat, a: chosen.append(a) if seat == 0 else None)
        return chosen

    first = run()
    assert len(first) > 10 and first == run()


def test_a_finished_playout_scores_the_win_and_an_unfinished_one_the_values() -> None:
    """:func:`share`: the winner's 1 and the loser's 0 once over; else a softmax share of the
    evaluation, highest for the seat ahead."""
    state, _ = _play(1, _heuristics(1, 3), 30)
    values = [position_value(state, s) for s in range(3)]
    shares = [share(state, s, position_value) for s in range(3)]
    assert sum(shares) == pytest.approx(1.0)
    assert shares.index(max(shares)) == values.index(max(values))
    state.won = (2,)
    state.phase = OVER
    assert [share(state, s) for s in range(3)] == [0.0, 0.0, 1.0]
    with pytest.raises(TypeError, match="SeatViews"):
        OwnSearchBot(random.Random(0)).choose(object(), 0)  # type: ignore[arg-type]


def test_hexlan_simulate_seats_the_search_bot() -> None:
    """`hexlan simulate --game landnam --bots mcts,heuristic,heuristic --games 1 --think 0.05`
    plays a game to its winner (to 5 points, to keep it short)."""
    run = CliRunner().invoke(
        main,
        [
            "simulate",
            *("--game", "landnam", "--players", "3", "--bots", "mcts,heuristic,heuristic"),
            *("--games", "1", "--think", "0.05", "--option", "victory_points=5", "--json"),
        ],
    )
    assert run.exit_code == 0, run.output
    report = json.loads(run.output.strip().splitlines()[-1])
    assert report["bots"] == ["mcts", "heuristic", "heuristic"]
    game = report["games"][0]
    assert game["winner"] is not None and max(game["victory_points"]) >= 5
