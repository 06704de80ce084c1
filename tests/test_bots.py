"""Bots: every action they choose is legal, and the heuristic bot follows its strategy.

The heuristic bot's strategy is seed 002's advice («Стратегия»): settle on high numbers with
variety, aim every trade at the next build, never help a player close to winning. Its strength
against random bots is measured by scripts/bench_bots.py, never asserted here.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any

import pytest
from five_six import RULES as FIVE_SIX
from five_six import five_six, give, outpost

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine.board import PIPS, beginner_board
from hexlan.engine.bots import BOTS, Bot, HeuristicBot, RandomBot, make_bot
from hexlan.engine.core import BuildPhase, DevCard, Phase
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import CHANCE, GameState


def _info_api() -> Any:
    """``(InformationState, advance_views)`` once hexlan.engine.info exists, else None."""
    try:
        from hexlan.engine.info import InformationState, advance_views
    except ImportError:
        return None
    return InformationState, advance_views


class _SeatGuard(list):  # type: ignore[type-arg]
    """A per-seat table (hands, development cards) that lets bot code read only one seat's row.

    The engine itself may read every row (it is the full state); a read from a module under
    ``hexlan.engine.bots`` of another seat's row fails the test (ARCHITECTURE.md principle 2).
    """

    seat = -1

    def __getitem__(self, index: Any) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("hexlan.engine.bots") and index != _SeatGuard.seat:
            raise AssertionError(f"{caller} read seat {index}'s hidden cards as seat {self.seat}")
        return super().__getitem__(index)

    def __iter__(self) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("hexlan.engine.bots"):
            raise AssertionError(f"{caller} iterated over every seat's hidden cards")
        return super().__iter__()


def _guard(state: GameState) -> None:
    state.hands = _SeatGuard(state.hands)
    state.dev_cards = _SeatGuard(state.dev_cards)
    state.new_dev_cards = _SeatGuard(state.new_dev_cards)


def play_checked(
    names: list[str],
    seed: int,
    board: str,
    turn_cap: int = 400,
    views: bool = False,
    options: GameOptions | None = None,
    game: str = "base",
    seen: Counter[str] | None = None,
) -> GameState:
    """Play a seeded game between the named bots, checking every action a bot returns.

    With ``views`` each bot reads its own information state (when hexlan.engine.info exists);
    otherwise bots read the full state, guarded so that they see only their own hidden cards.
    ``game`` names the rule set; ``seen`` counts the bots' actions as "phase: Action".
    """
    chance = SeededChance(seed)
    players = len(names)
    rules = load_ruleset(game)
    board_map = load_map(rules.board)
    state = GameState(chance.board(board, board_map=board_map), players, options, rules)
    bots = [make_bot(name, random.Random(seed * 31 + s)) for s, name in enumerate(names)]
    api = _info_api() if views else None
    infos: list[Any] = []
    seat_views: list[GameState] = [state] * players
    if api is not None:
        infos = [api[0](state.board, players, s, options, rules) for s in range(players)]
        seat_views = list(infos)
    else:
        _guard(state)
    while not state.is_over and state.turn <= turn_cap:
        if state.current_player() == CHANCE:
            action = chance.outcome(state)
        else:
            acting = state.acting_seats()
            seat = acting[(state.turn + len(acting)) % len(acting)]  # vary who answers first
            _SeatGuard.seat = seat
            action = bots[seat].choose(seat_views[seat], seat)
            state.check(action)
            assert state.actor(action) == seat, f"{action!r} is not seat {seat}'s to make"
            if seen is not None:
                seen[f"{state.phase.title}: {type(action).__name__}"] += 1
        if api is None:
            state.apply(action)
        else:
            api[1](state, infos, action)
    return state


GAMES = [
    (["heuristic", "random"], 0, "beginner"),
    (["random", "heuristic"], 1, "random"),
    (["heuristic", "heuristic"], 2, "random"),
    (["heuristic", "random", "heuristic"], 3, "beginner"),
    (["random", "random", "heuristic"], 4, "random"),
    (["heuristic", "random", "random", "random"], 5, "beginner"),
    (["random", "heuristic", "random", "random"], 6, "random"),
    (["heuristic", "heuristic", "heuristic", "heuristic"], 7, "beginner"),
    (["heuristic", "heuristic", "heuristic", "heuristic"], 8, "random"),
    (["random", "random", "random", "random"], 9, "beginner"),
    (["random", "random", "random"], 10, "random"),
]


@pytest.mark.parametrize(("names", "seed", "board"), GAMES)
def test_bots_only_choose_legal_actions(names: list[str], seed: int, board: str) -> None:
    state = play_checked(names, seed, board)
    if "heuristic" in names:
        assert state.is_over, "a game with a heuristic bot ends well before the cap"


@pytest.mark.parametrize(
    ("names", "seed", "options"),
    [
        (["heuristic", "heuristic"], 12, GameOptions.seed003()),
        (["heuristic", "random", "heuristic"], 13, GameOptions.seed003()),
        (
            ["heuristic", "random", "heuristic", "random"],
            14,
            GameOptions(knight_only_before_roll=True),
        ),
        (["heuristic"] * 4, 15, GameOptions(robber_to_desert=False, mixed_three_to_one=True)),
    ],
)
def test_bots_follow_game_options(names: list[str], seed: int, options: GameOptions) -> None:
    state = play_checked(names, seed, "random", options=options, views=_info_api() is not None)
    assert state.is_over


@pytest.mark.parametrize(
    ("names", "seed", "views"),
    [
        (["heuristic"] * 6, 20, True),
        (["heuristic", "random", "heuristic", "random", "heuristic"], 21, False),
        (["random", "heuristic", "heuristic", "heuristic", "heuristic", "random"], 22, True),
        (["heuristic"] * 5, 23, False),
    ],
)
def test_bots_finish_five_and_six_player_games(names: list[str], seed: int, views: bool) -> None:
    """Seed 002 «Расширение на 5-6 игроков»: bots take their special building turns (building
    there, not only ending them) and the games end with a winner at the target."""
    seen: Counter[str] = Counter()
    state = play_checked(names, seed, "random", views=views, game="five-six", seen=seen)
    assert state.is_over and state.victory_points(state.winner) >= state.target
    special = {key: n for key, n in seen.items() if key.startswith("special build")}
    assert special["special build: EndTurn"] > 0
    assert sum(special.values()) > special["special build: EndTurn"], special
    assert set(special) <= {
        f"special build: {kind}"
        for kind in ("EndTurn", "BuildRoad", "BuildSettlement", "BuildCity", "BuyDevelopmentCard")
    }


def test_heuristic_builds_in_another_seats_special_phase() -> None:
    state = five_six(5, active=0)
    home, _, _ = outpost(state, 1)
    give(state, 1, FIVE_SIX.city_cost)
    state.play(A.END_TURN)
    assert (state.phase, state.active) == (BuildPhase.SPECIAL_BUILD, 1)
    bot = HeuristicBot(random.Random(0))
    assert bot.choose(state, 1) == A.BuildCity(home)
    state.play(A.BuildCity(home))
    assert bot.choose(state, 1) == A.END_TURN


@pytest.mark.skipif(_info_api() is None, reason="hexlan.engine.info has not landed yet")
@pytest.mark.parametrize(("names", "seed", "board"), GAMES[::3])
def test_bots_play_from_information_states(names: list[str], seed: int, board: str) -> None:
    state = play_checked(names, seed, board, views=True)
    if "heuristic" in names:
        assert state.is_over


@pytest.mark.skipif(_info_api() is None, reason="hexlan.engine.info has not landed yet")
@pytest.mark.parametrize(("names", "seed", "board"), [GAMES[3], GAMES[7]])
def test_bots_play_the_same_from_a_view_as_from_the_full_state(
    names: list[str], seed: int, board: str
) -> None:
    # A bot that reads only what its seat may see cannot tell its view from the full state.
    from_views = play_checked(names, seed, board, views=True)
    from_state = play_checked(names, seed, board, views=False)
    assert from_views.full_hash() == from_state.full_hash()


def test_heuristic_bot_is_deterministic_for_a_seed() -> None:
    first = play_checked(["heuristic"] * 3, 11, "random")
    second = play_checked(["heuristic"] * 3, 11, "random")
    assert first.full_hash() == second.full_hash()


# ---------------------------------------------------------------------- registry


def test_make_bot_builds_each_named_bot() -> None:
    assert isinstance(make_bot("random", random.Random(0)), RandomBot)
    assert isinstance(make_bot("heuristic", random.Random(0)), HeuristicBot)
    for name in BOTS:
        assert isinstance(make_bot(name, random.Random(0)), Bot)


def test_make_bot_rejects_an_unknown_name_listing_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="alphazero") as info:
        make_bot("alphazero", random.Random(0))
    assert "heuristic" in str(info.value)
    assert "random" in str(info.value)


def test_random_bot_answers_offers_from_the_listed_answers(table: Any) -> None:
    t = table(players=2)
    t.give(0, t.hand(lumber=1))
    t.give(1, t.hand(ore=1))
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1))
    bot = RandomBot(random.Random(0))
    answers = {bot.choose(t.state, 1) for _ in range(40)}
    assert answers == {A.AnswerTrade(1, True), A.AnswerTrade(1, False)}


# ---------------------------------------------------------------------- heuristic: set-up


def _pips(state: GameState, node: int) -> int:
    return sum(PIPS[state.board.tokens[h]] for h in state.topology.node_hexes[node])


def test_heuristic_first_settlement_takes_a_high_pip_spot_on_the_beginner_board() -> None:
    # Seed 002 «Стратегия»: a good spot has 6 or 8, 5 or 9 and 4 or 10 around it.
    state = GameState(beginner_board(), 4)
    state.play(A.StartPlayer(0))
    action = HeuristicBot(random.Random(0)).choose(state, 0)
    assert isinstance(action, A.BuildSettlement)
    best = max(_pips(state, n) for n in range(state.topology.node_count))
    assert _pips(state, action.node) >= best - 1
    hexes = state.topology.node_hexes[action.node]
    assert len(hexes) == 3
    assert len({state.board.terrains[h] for h in hexes}) == 3  # three different resources


def test_heuristic_set_up_road_leaves_from_its_new_settlement() -> None:
    state = GameState(beginner_board(), 4)
    state.play(A.StartPlayer(0))
    bot = HeuristicBot(random.Random(0))
    settlement = bot.choose(state, 0)
    state.play(settlement)
    road = bot.choose(state, 0)
    assert isinstance(road, A.BuildRoad)
    assert settlement.node in state.topology.path_nodes[road.path]  # type: ignore[union-attr]


# ---------------------------------------------------------------------- heuristic: trade


def _ore_spot(state: GameState) -> int:
    """An intersection on the beginner board's mountains 8 with no pasture around it."""
    topo, terrains = state.topology, state.board.terrains
    mountains8 = next(
        h
        for h in range(topo.hex_count)
        if terrains[h].name == "MOUNTAINS" and state.board.tokens[h] == 8
    )
    return next(
        n
        for n in topo.hex_nodes[mountains8]
        if all(terrains[h].name != "PASTURE" for h in topo.node_hexes[n])
    )


def _one_ore_short_of_a_city(table: Any) -> Any:
    """Seat 1 (the heuristic bot) holds 2 grain and 2 ore next to a mountain: a city lacks one
    ore. It also holds 3 lumber it can spare. Seat 0 is active and can pay ore or lumber."""
    t = table(players=2)
    spot = _ore_spot(t.state)
    t.build(1, settlements=[spot])
    t.give(1, t.hand(lumber=3, grain=2, ore=2))
    t.give(0, t.hand(lumber=1, brick=1, ore=1))
    return t


def test_heuristic_accepts_an_offer_that_completes_its_city(table: Any) -> None:
    t = _one_ore_short_of_a_city(table)
    t.play(A.OfferTrade(t.hand(ore=1), t.hand(lumber=1), 1))
    assert HeuristicBot(random.Random(0)).choose(t.state, 1) == A.AnswerTrade(1, True)


def test_heuristic_rejects_an_offer_that_gives_nothing_it_needs(table: Any) -> None:
    t = _one_ore_short_of_a_city(table)
    t.play(A.OfferTrade(t.hand(brick=1), t.hand(grain=1), 1))
    assert HeuristicBot(random.Random(0)).choose(t.state, 1) == A.AnswerTrade(1, False)


def test_heuristic_never_trades_with_a_seat_close_to_winning(table: Any) -> None:
    t = _one_ore_short_of_a_city(table)
    t.build(0, cities=[0, 2, 9, 11])  # 8 victory points
    assert t.state.public_vp[0] >= 8
    t.play(A.OfferTrade(t.hand(ore=1), t.hand(lumber=1), 1))
    assert HeuristicBot(random.Random(0)).choose(t.state, 1) == A.AnswerTrade(1, False)


def test_heuristic_offers_at_most_two_trades_a_turn(table: Any) -> None:
    # Seat 0 is the bot, one ore short of a city with lumber to spare; seat 1 refuses every offer.
    t = table(players=2)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    t.give(0, t.hand(lumber=3, grain=2, ore=2))
    t.give(1, t.hand(ore=1))
    bot = HeuristicBot(random.Random(0))
    offers = 0
    for _ in range(20):
        action = bot.choose(t.state, 0)
        t.play(action)
        if isinstance(action, A.OfferTrade):
            offers += 1
            assert action.get == t.hand(ore=1)
            t.play(A.AnswerTrade(1, False))
        if isinstance(action, A.EndTurn):
            break
    assert 1 <= offers <= 2
    assert t.state.phase is Phase.ROLL or t.state.cities[0]  # it ended its turn or built


def test_heuristic_confirms_a_helpful_acceptance(table: Any) -> None:
    t = table(players=3)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    t.give(0, t.hand(lumber=3, grain=2, ore=2))
    t.give(2, t.hand(ore=2))
    bot = HeuristicBot(random.Random(0))
    offer = bot.choose(t.state, 0)
    assert isinstance(offer, A.OfferTrade)
    t.play(offer)
    t.play(A.AnswerTrade(1, False), A.AnswerTrade(2, True))
    assert bot.choose(t.state, 0) == A.ConfirmTrade(2)


# ---------------------------------------------------------------------- heuristic: turn


def test_heuristic_builds_a_city_when_it_can(table: Any) -> None:
    t = table(players=3)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    t.give(0, t.hand(grain=2, ore=3))
    assert HeuristicBot(random.Random(0)).choose(t.state, 0) == A.BuildCity(spot)


def test_heuristic_robber_spares_its_own_hexes_and_robs_the_leader(table: Any) -> None:
    t = table(players=3)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    t.build(1, settlements=[0])
    t.build(2, settlements=[39, 19], cities=[44])
    t.give(1, t.hand(wool=2))
    t.give(2, t.hand(wool=2))
    t.state.phase = Phase.MOVE_ROBBER  # direct: as after a 7
    action = HeuristicBot(random.Random(0)).choose(t.state, 0)
    assert isinstance(action, A.MoveRobber)
    assert 0 not in {t.state.node_owner[n] for n in t.state.topology.hex_nodes[action.hex]}
    assert action.victim == 2


def test_heuristic_discards_what_its_goal_does_not_need(table: Any) -> None:
    t = table(players=3)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    t.give(0, t.hand(lumber=4, wool=2, grain=2, ore=2))
    t.state.discards = [5, 0, 0]  # direct: as after a 7
    t.state.phase = Phase.DISCARD
    action = HeuristicBot(random.Random(0)).choose(t.state, 0)
    assert isinstance(action, A.Discard)
    t.state.check(action)
    assert action.cards[3] == 0  # keeps the grain and ore a city needs
    assert action.cards[4] == 0


def test_heuristic_plays_a_knight_before_rolling_when_the_robber_blocks_it(table: Any) -> None:
    t = table(players=3)
    spot = _ore_spot(t.state)
    t.build(0, settlements=[spot])
    hex_id = next(h for h in t.state.topology.node_hexes[spot] if t.state.board.tokens[h] == 8)
    t.state.robber = hex_id
    t.give_dev(0, DevCard.KNIGHT)
    t.at_roll(0)
    bot = HeuristicBot(random.Random(0))
    assert bot.choose(t.state, 0) == A.PLAY_KNIGHT
    t.play(A.PLAY_KNIGHT)
    move = bot.choose(t.state, 0)
    assert isinstance(move, A.MoveRobber)
    assert move.hex != hex_id
