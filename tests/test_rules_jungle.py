"""The Jungle: the desert becomes a jungle whose number brings discoveries, which help to buy
development cards and do nothing else.

Rule sources: seed 002 «Джунгли»; the official variant (Klaus Teuber, published by Mayfair
Games) where the seed is silent; docs/rules/jungle.md records every reading.

Jungle beginner board (the base beginner layout with the jungle, token 10, in the desert's place):
hex 9 is the jungle, its corners are intersections 18, 24, 30, 35, 29, 23; hex 0 (mountains 10)
and hex 6 (hills 10) share its number; hex 4 (hills 6) has corners 8, 13, 18, 23, 17, 12.
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import SimpleNamespace

import pytest
from variant_play import board_of, play_bot_game, play_random_game

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.core import (
    DevCard,
    EngineError,
    Phase,
    Resource,
    Terrain,
)
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.jungle import (
    BuyWithDiscoveries,
    replacements,
)

JUNGLE = load_ruleset("jungle")
BOARD = board_of(JUNGLE)
JUNGLE_HEX = 9
JUNGLE_NODES = (18, 24, 30, 35, 29, 23)
NO_BLOCK = GameOptions.of(jungle_robber_blocks=False)


@pytest.fixture
def jungle(table):
    """A Jungle table on the jungle beginner board: ``jungle(players=3, options=...)``."""

    def make(players: int = 4, options: GameOptions | None = None):
        return table(players=players, options=options, board=BOARD, rules=JUNGLE)

    return make


def buy(wool: int = 0, grain: int = 0, ore: int = 0) -> BuyWithDiscoveries:
    """A purchase whose discoveries stand for these resources of the card's cost."""
    return BuyWithDiscoveries((0, 0, wool, grain, ore))


# ---------------------------------------------------------------------- the board


def test_the_jungle_takes_the_deserts_place_with_a_token_and_the_robber() -> None:
    """Official variant: the board is laid as usual, the jungle replaces the desert and takes a
    number token in addition to the 18 laid; the robber starts on the jungle."""
    assert BOARD.terrains[JUNGLE_HEX] is Terrain.JUNGLE and BOARD.tokens[JUNGLE_HEX] == 10
    assert Terrain.DESERT not in BOARD.terrains
    state = GameState(BOARD, 4, rules=JUNGLE)
    assert state.robber == JUNGLE_HEX
    base_tokens = sorted(load_map("base").tokens)
    for seed in range(6):
        board = random_board(random.Random(seed), "spiral", load_map("jungle"))
        (jungle,) = [h for h, t in enumerate(board.terrains) if t is Terrain.JUNGLE]
        assert board.tokens[jungle] == 10
        assert sorted(t for h, t in enumerate(board.tokens) if h != jungle) == base_tokens
        assert GameState(board, 3, rules=JUNGLE).robber == jungle


def test_the_jungle_number_is_an_option_among_the_official_six() -> None:
    """Official variant: 3, 4, 5, 9, 10 or 11, as the players agree (option ``jungle_number``;
    it is recorded only when set)."""
    state = GameState(BOARD, 3, GameOptions.of(jungle_number=4), JUNGLE)
    assert state.board.tokens[JUNGLE_HEX] == 4
    assert state.public_dict()["board"]["tokens"][JUNGLE_HEX] == 4
    with pytest.raises(EngineError, match="3, 4, 5, 9, 10, 11"):
        GameState(BOARD, 3, GameOptions.of(jungle_number=6), JUNGLE)
    assert "jungle_number" not in GameOptions().to_dict()
    assert GameOptions.of(jungle_number=4).to_dict()["jungle_number"] == 4


def test_a_jungle_game_needs_a_jungle() -> None:
    terrains = tuple(Terrain.FOREST if t is Terrain.JUNGLE else t for t in BOARD.terrains)
    with pytest.raises(EngineError, match="needs a jungle"):
        GameState(replace(BOARD, terrains=terrains), 3, rules=JUNGLE)


# ---------------------------------------------------------------------- discoveries


def test_the_jungles_number_brings_one_discovery_a_settlement_and_two_a_city(jungle) -> None:
    """seed 002 «Джунгли»: settlements on the jungle's corners make one discovery, cities two;
    no resource card comes from the jungle, while the other 10s produce as usual."""
    t = jungle(players=3, options=NO_BLOCK)
    t.build(0, settlements=[18])
    t.build(1, cities=[30])
    t.build(2, settlements=[3])  # on hex 0, mountains 10
    t.at_roll(0)
    t.roll(4, 6)
    s = t.state
    assert s.discoveries == [1, 2, 0]
    assert s.hands[0] == [0, 0, 0, 0, 0] and s.hands[1] == [0, 0, 0, 0, 0]
    assert s.hands[2] == [0, 0, 0, 0, 1]
    t.play(A.EndTurn())
    t.roll(5, 5)
    assert s.discoveries == [2, 4, 0]
    t.play(A.EndTurn())
    t.roll(3, 3)  # another number: nothing from the jungle
    assert s.discoveries == [2, 4, 0]


def test_the_robber_on_the_jungle_blocks_discoveries(jungle) -> None:
    """Official variant: only an unblocked jungle yields (the default, ``jungle_robber_blocks``);
    the robber starts there, so the jungle yields only once it has moved away."""
    t = jungle(players=3)
    t.build(0, settlements=[18])
    t.at_roll(0)
    assert t.state.robber == JUNGLE_HEX
    t.roll(4, 6)
    assert t.state.discoveries == [0, 0, 0]
    t.state.robber = 4  # direct: moved away
    t.play(A.EndTurn())
    t.roll(4, 6)
    assert t.state.discoveries == [1, 0, 0]


def test_the_robber_may_go_back_to_the_jungle_and_rob_there(jungle) -> None:
    """Official variant: the robber may be played on the jungle; it robs a resource card there,
    never a discovery (seed 002 «Джунгли»: discoveries cannot be stolen)."""
    t = jungle(players=3)
    t.build(1, settlements=[18])
    t.build(2, settlements=[30])
    s = t.state
    s.robber = 4
    s.discoveries = [0, 3, 3]
    t.give(2, t.hand(wool=1))
    s.phase = Phase.MOVE_ROBBER
    legal = t.legal()
    assert A.MoveRobber(JUNGLE_HEX, 2) in legal
    assert A.MoveRobber(JUNGLE_HEX, 1) not in legal  # discoveries only: nothing to steal
    t.play(A.MoveRobber(JUNGLE_HEX, 2))
    assert s.chance_outcomes() == [(A.StealCard(Resource.WOOL), 1.0)]
    t.play(A.StealCard(Resource.WOOL))
    assert s.discoveries == [0, 3, 3] and s.hands[0] == [0, 0, 1, 0, 0]


def test_discoveries_do_not_count_toward_the_discard(jungle) -> None:
    """seed 002 «Джунгли»: discoveries are not cards, so a 7 counts the resource cards alone."""
    t = jungle(players=3)
    s = t.state
    t.give(1, t.hand(lumber=4, brick=3))  # 7 cards: safe
    t.give(2, t.hand(wool=4, grain=4))  # 8 cards: discards 4
    s.discoveries = [0, 9, 9]
    t.at_roll(0)
    t.roll(3, 4)
    assert s.discards == [0, 0, 4]
    t.play(A.Discard(2, t.hand(wool=2, grain=2)))
    assert s.discoveries == [0, 9, 9]


def test_monopoly_year_of_plenty_and_trades_leave_discoveries_alone(jungle) -> None:
    """seed 002 «Джунгли»: Monopoly takes no discoveries, Year of Plenty gives none, and no trade
    moves them (trade terms are resource hands)."""
    t = jungle(players=3)
    s = t.state
    s.discoveries = [1, 2, 3]
    t.give(1, t.hand(ore=2))
    t.give_dev(0, DevCard.MONOPOLY)
    t.give_dev(0, DevCard.YEAR_OF_PLENTY)
    t.play(A.PlayMonopoly(Resource.ORE), A.MonopolyTake((0, 2, 0)))
    assert s.hands[0] == [0, 0, 0, 0, 2] and s.discoveries == [1, 2, 3]
    s.dev_played_this_turn = False  # direct: the next turn's card
    years = [a for a in t.legal() if isinstance(a, A.PlayYearOfPlenty)]
    assert years and all(len(a.resources) == 2 for a in years)
    t.play(A.PlayYearOfPlenty((Resource.WOOL, Resource.GRAIN)))
    assert s.discoveries == [1, 2, 3]
    t.give(2, t.hand(lumber=1))
    t.play(A.OfferTrade(t.hand(ore=1), t.hand(lumber=1), 2), A.AnswerTrade(2, True))
    t.play(A.ConfirmTrade(2))
    assert s.hands[0] == [1, 0, 1, 1, 1] and s.discoveries == [1, 2, 3]


# ---------------------------------------------------------------------- buying with discoveries


def test_the_purchases_with_discoveries_are_every_way_to_replace_one_to_three() -> None:
    """seed 002 «Джунгли»: each discovery replaces any one resource of the cost, 1 to 3 of them:
    for wool + grain + ore, 3 + 3 + 1 ways."""
    cost = JUNGLE.development_card_cost
    ways = [a.replaced for a in replacements(cost, 3)]
    assert len(ways) == 7 and len(set(ways)) == 7
    assert [sum(w) for w in ways] == [1, 1, 1, 2, 2, 2, 3]
    assert all(w[0] == w[1] == 0 and max(w) == 1 for w in ways)


def test_one_discovery_buys_with_wool_and_grain(jungle) -> None:
    """seed 002 «Джунгли», the example: one wool, one grain and one discovery buy a card."""
    t = jungle(players=3)
    s = t.state
    t.give(0, t.hand(wool=1, grain=1))
    assert A.BUY_DEVELOPMENT_CARD not in t.legal()
    assert not [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]
    s.discoveries[0] = 1
    legal = [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]
    assert legal == [buy(ore=1)]
    t.play(buy(ore=1))
    assert s.phase is Phase.DRAW
    assert s.discoveries[0] == 0 and s.hands[0] == [0, 0, 0, 0, 0]
    assert s.bank == [19, 19, 19, 19, 19]
    t.play(A.DrawCard(DevCard.KNIGHT))
    assert s.dev_cards[0] == [1, 0, 0, 0, 0] and s.phase is Phase.MAIN
    assert s.observation(A.DrawCard(DevCard.KNIGHT), 1) == A.DrawCard(None)


def test_two_discoveries_and_an_ore_buy_a_card(jungle) -> None:
    """seed 002 «Джунгли», the example: one ore and two discoveries."""
    t = jungle(players=3)
    s = t.state
    t.give(0, t.hand(ore=1))
    s.discoveries[0] = 2
    legal = [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]
    assert legal == [buy(wool=1, grain=1)]
    t.play(buy(wool=1, grain=1), A.DrawCard(DevCard.MONOPOLY))
    assert s.discoveries[0] == 0 and s.hand_size[0] == 0 and s.bank[Resource.ORE] == 19


def test_three_discoveries_buy_a_card_alone_and_never_more(jungle) -> None:
    """seed 002 «Джунгли»: at most 3 discoveries a card; with the cost covered too, paying in
    full and every mix are open."""
    t = jungle(players=3)
    s = t.state
    s.discoveries[0] = 5
    legal = [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]
    assert legal == [buy(wool=1, grain=1, ore=1)]
    t.give(0, t.hand(wool=1, grain=1, ore=1))
    legal = t.legal()
    assert A.BUY_DEVELOPMENT_CARD in legal
    assert [a for a in legal if isinstance(a, BuyWithDiscoveries)] == list(
        replacements(JUNGLE.development_card_cost, 3)
    )
    t.play(buy(wool=1, grain=1, ore=1), A.DrawCard(DevCard.VICTORY_POINT))
    assert s.discoveries[0] == 2 and s.hands[0] == [0, 0, 1, 1, 1]


@pytest.mark.parametrize(
    ("replaced", "words"),
    [
        ((1, 0, 0, 0, 0), "not legal"),  # lumber is not in the cost
        ((0, 0, 2, 0, 0), "not legal"),  # more wool than the cost
        ((0, 0, 0, 0, 0), "not legal"),  # no discovery at all
        ((0, 0, 1, 1, 0), "not legal"),  # two discoveries, one held
    ],
)
def test_a_purchase_with_discoveries_outside_the_rule_is_refused(
    jungle, rejected, replaced, words
) -> None:
    t = jungle(players=3)
    t.give(0, t.hand(wool=2, grain=1, ore=1))
    t.state.discoveries[0] = 1
    rejected(t.state, BuyWithDiscoveries(replaced), words)


def test_no_purchase_when_the_deck_is_empty_or_out_of_turn(jungle) -> None:
    t = jungle(players=3)
    s = t.state
    s.discoveries = [3, 3, 3]
    s.deck = [0, 0, 0, 0, 0]  # direct: every card bought
    assert not [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]
    s.deck = [14, 5, 2, 2, 2]
    assert not [a for a in t.legal(1) if isinstance(a, BuyWithDiscoveries)]
    t.at_roll(0)
    assert not [a for a in t.legal() if isinstance(a, BuyWithDiscoveries)]


# ---------------------------------------------------------------------- the wire and the base game


def test_the_action_round_trips_and_the_base_games_forms_are_unchanged() -> None:
    """A new action comes last, so the base game's actions, their order and their bytes stay."""
    action = buy(grain=1, ore=1)
    assert A.action_to_list(action) == ["BuyWithDiscoveries", [0, 0, 0, 1, 1]]
    assert R.action_from_list(["BuyWithDiscoveries", [0, 0, 0, 1, 1]]) == action
    with pytest.raises(EngineError):  # the Jungle's hands have five counts
        R.action_from_list(["BuyWithDiscoveries", [0, 1, 1]], load_ruleset("jungle").cards)
    assert R.ACTION_TYPES[24] is BuyWithDiscoveries  # after the base game's 24 (Seafarers' next)
    assert [c.__name__ for c in R.ACTION_TYPES[:24]][:4] == [
        "BuildRoad",
        "BuildSettlement",
        "BuildCity",
        "BuyDevelopmentCard",
    ]
    assert A.action_to_list(A.BUY_DEVELOPMENT_CARD) == ["BuyDevelopmentCard"]
    from hexlan.net.wire import decode_action, encode_action

    assert decode_action(encode_action(action)) == action


def test_the_base_games_public_state_has_no_variant_fields() -> None:
    state = GameState(beginner_board(), 3)
    assert state.variant is None
    public = state.public_dict()
    assert "discoveries" not in public and "gold_points" not in public
    assert "discoveries" in GameState(BOARD, 3, rules=JUNGLE).public_dict()


# ---------------------------------------------------------------------- information states, bots


@pytest.mark.parametrize(("seed", "players"), [(5, 2), (6, 3), (4, 4)])
def test_views_agree_with_the_full_state_along_random_jungle_games(seed, players) -> None:
    """Principle 2: discoveries are public, so every view follows them exactly, accepts every
    purchase with discoveries the full state accepts and lists the same own actions."""
    state, seen = play_random_game("jungle", seed, players)
    assert state.is_over
    assert seen["BuyWithDiscoveries"] and seen["BuyDevelopmentCard"]


@pytest.mark.parametrize("seed", [0, 1])
def test_heuristic_bots_finish_jungle_games_and_use_discoveries(seed) -> None:
    state, seen = play_bot_game("jungle", seed)
    assert state.is_over and state.victory_points(state.winner) >= state.target == 10
    assert seen["BuyWithDiscoveries"]


# ---------------------------------------------------------------------- words and screens


def test_the_narrator_tells_discoveries_found_and_spent() -> None:
    from hexlan.net.narrate import Narrator

    narrator = Narrator(BOARD, ("You", "Blue"), seat=0, options=NO_BLOCK, rules=JUNGLE)
    state = narrator.state
    narrator.narrate(A.StartPlayer(0))
    for node, road in ((18, (18, 24)), (0, (0, 3)), (11, (11, 16)), (45, (45, 40))):
        narrator.narrate(A.BuildSettlement(node))
        narrator.narrate(A.BuildRoad(state.topology.path_of[frozenset(road)]))
    assert state.phase is Phase.ROLL and state.active == 0
    narrator.narrate(A.RollDice())
    event = narrator.narrate(A.Dice(4, 6))
    assert "you get 1 discovery" in event.text
    assert state.hands[0] == [0, 0, 1, 2, 0]  # the second settlement's wool and grain
    text = narrator.narrate(buy(ore=1)).text
    assert text == "You bought a development card with 1 discovery standing for 1 ore"


def test_the_hand_panel_shows_the_discoveries() -> None:
    from hexlan.tui.widgets.hand import HandPanel

    state = GameState(BOARD, 3, rules=JUNGLE)
    state.discoveries[0] = 2
    panel = HandPanel(SimpleNamespace(view=state, human_seat=0))  # type: ignore[arg-type]
    assert "Discoveries 2" in panel.render().plain  # type: ignore[union-attr]
    base = GameState(beginner_board(), 3)
    panel = HandPanel(SimpleNamespace(view=base, human_seat=0))  # type: ignore[arg-type]
    assert "Discoveries" not in panel.render().plain  # type: ignore[union-attr]


def test_the_board_draws_the_jungle() -> None:
    from hexlan.tui.board_render import COMPACT, ROOMY, board_lines, render_board

    state = GameState(BOARD, 3, rules=JUNGLE)
    for layout in (COMPACT, ROOMY):
        lines = board_lines(render_board(state, layout))
        assert any("J" in line for line in lines)
    assert any("jungle" in line for line in board_lines(render_board(state, ROOMY)))


def test_docstring_examples_of_the_jungles_modules() -> None:
    """The examples in engine/variants/jungle.py and engine/options.py hold (main's doctest
    collector finds them too)."""
    import doctest

    from hexlan.engine import options
    from hexlan.engine.variants import jungle

    for module in (jungle, options):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed
