"""Card kinds and terrains a rule set declares (issue 24): a game of four kinds, two of them new
to the engine, is data only (tests/data/four-kinds.toml: grain, timber, wool, iron, Landnám's
economy on the base board) and plays, is seen, and crosses the wire with hands of four counts.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from random_play import STEP_CAP, random_step

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.core import EngineError, Kinds, Phase, Resource, Terrain
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import GAMES, RuleSet, load_ruleset, ruleset_from
from hexlan.engine.state import GameState
from hexlan.net.wire import MalformedMessage, decode_action, encode_action

DATA = Path(__file__).resolve().parent / "data" / "four-kinds.toml"


def four_kinds(**extra: object) -> RuleSet:
    """The test rule set, with ``extra`` entries over the file's."""
    return ruleset_from("four-kinds", tomllib.loads(DATA.read_text()) | extra)


RULES = four_kinds()
GRAIN, TIMBER, WOOL, IRON = RULES.cards


def test_the_rule_set_declares_its_kinds_and_what_terrains_yield() -> None:
    assert "four-kinds" not in GAMES
    assert RULES.kinds == 4 and RULES.cards.names == ("GRAIN", "TIMBER", "WOOL", "IRON")
    assert [k.letter for k in RULES.cards] == ["G", "T", "W", "I"]
    assert list(RULES.cards) == [0, 1, 2, 3]  # a kind is its index in the game's hands
    assert GRAIN is not Resource.GRAIN and not GRAIN.is_catalogue  # grain is first here
    assert RULES.bank == (24,) * 4 and RULES.road_cost == (0, 2, 0, 0)
    assert RULES.plenty_kinds == RULES.cards
    assert RULES.produce[Terrain.FOREST] is TIMBER and RULES.produce[Terrain.MOUNTAINS] is IRON
    assert RULES.produce[Terrain.FIELDS] is GRAIN and RULES.produce[Terrain.PASTURE] is WOOL
    assert RULES.produce[Terrain.HILLS] is None and RULES.produce[Terrain.DESERT] is None


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"cards": []}, "1 to 8 different card kinds"),
        ({"cards": ["grain", "grain", "wool", "iron"]}, "different card kinds"),
        ({"cards": ["grain", "silk", "wool", "iron"]}, "card kinds"),
        ({"kinds": {"timber": {"letter": "TT"}, "iron": {"letter": "I"}}}, "one-letter"),
        ({"kinds": {"wool": {"letter": "X"}}}, "new card kind"),
        ({"kinds": {"timber": {"letter": "G"}, "iron": {"letter": "I"}}}, "one letter each"),
        ({"produce": {"forest": "lumber"}}, "produce.forest must be a card kind"),
        ({"produce": {"swamp": "iron"}}, "produce must map terrains"),
        ({"costs": {**load_ruleset().raw["costs"]}}, "cost must be 4"),  # five counts
    ],
)
def test_malformed_declarations_are_one_line_errors(extra: dict[str, object], words: str) -> None:
    with pytest.raises(EngineError) as info:
        four_kinds(**extra)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_terrains_yield_the_kinds_the_rule_set_says() -> None:
    """The second set-up settlement takes one card of what each terrain beside it yields here:
    timber from forest, iron from mountains, nothing from hills."""
    state = GameState(beginner_board(), 3, rules=RULES)
    state.play(A.StartPlayer(0))
    while state.setup_step < state.players:
        state.play(state.legal_actions(state.active)[0])
        state.play(state.legal_actions(state.active)[0])
    seat = state.active
    node = next(a for a in state.legal_actions(seat) if isinstance(a, A.BuildSettlement)).node
    gain = [0] * 4
    for h in state.topology.node_hexes[node]:
        kind = RULES.produce[state.board.terrains[h]]
        if kind is not None:
            gain[kind] += 1
    before = list(state.hands[seat])
    state.play(A.BuildSettlement(node))
    assert [a - b for a, b in zip(state.hands[seat], before, strict=True)] == gain


def test_random_games_play_to_the_end_with_four_count_hands() -> None:
    """Random games under the four-kind rule set end; every hand, the bank and every view keep
    four counts, the kinds are conserved, and every view agrees with the full state."""
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        options = GameOptions(victory_points=6)
        state = GameState(random_board(rng), 3, options, RULES)
        views = [InformationState(state.board, 3, s, options, RULES) for s in range(3)]
        for _ in range(STEP_CAP):
            if state.is_over:
                break
            action = random_step(state, rng)
            seen.add(type(action).__name__)
            advance_views(state, views, action, check=True)
            for view in views:
                assert view.public_hash() == state.public_hash() or state.phase is Phase.VICTORY
                assert view.hands[view.seat] == state.hands[view.seat]
                assert view.is_consistent(state.hands)
        assert state.is_over, seed
        assert all(len(h) == 4 for h in state.hands) and len(state.bank) == 4
        assert all(state.bank[k] + sum(h[k] for h in state.hands) == 24 for k in range(4)), (
            state.bank
        )
    assert {"MaritimeTrade", "StealCard", "Discard"} <= seen, seen


def test_harbours_trade_the_games_kind_of_their_name() -> None:
    """The map's 2:1 harbours name Catan kinds: the wool and grain ones trade this game's wool
    and grain; those of lumber, brick and ore are no harbour here; the 3:1 ones stay."""
    board = beginner_board()
    state = GameState(board, 3, rules=RULES)
    kept = {"3:1" if h.resource is None else h.resource.name for h in state.harbour_nodes.values()}
    assert kept == {"3:1", "WOOL", "GRAIN"}
    assert all(h.resource in (None, WOOL, GRAIN) for h in state.harbour_nodes.values())
    grain = next(n for n, h in state.harbour_nodes.items() if h.resource == GRAIN)
    assert state.harbour_nodes[grain].resource is GRAIN  # the game's grain, index 0
    assert len(board.harbour_nodes()) > len(state.harbour_nodes)


def test_legal_actions_name_the_games_kinds() -> None:
    """Bank trades, steals and Monopoly name this game's kinds (timber, not brick)."""
    state = GameState(beginner_board(), 3, rules=RULES)
    state.play(A.StartPlayer(0))
    state.setup_step = len(state.setup_order)
    state.turn, state.phase = 1, Phase.MAIN
    state.take_from_bank(0, (0, 4, 0, 0))
    trades = [a for a in state.legal_actions(0) if isinstance(a, A.MaritimeTrade)]
    assert {a.get.name for a in trades} == {"GRAIN", "WOOL", "IRON"}
    assert all(isinstance(a.get, Resource) and a.give == (0, 4, 0, 0) for a in trades)


def test_the_wire_round_trips_four_count_actions_and_refuses_five() -> None:
    for action in (
        A.OfferTrade((1, 0, 0, 0), (0, 0, 1, 1), 1),
        A.Discard(2, (3, 0, 1, 0)),
        A.MaritimeTrade((0, 4, 0, 0), IRON),
        A.PlayMonopoly(TIMBER),
        A.PlayYearOfPlenty((GRAIN, IRON)),
    ):
        assert decode_action(encode_action(action), RULES.cards) == action
    trade = decode_action(encode_action(A.MaritimeTrade((0, 4, 0, 0), IRON)), RULES.cards)
    assert isinstance(trade, A.MaritimeTrade) and trade.get is IRON and trade.get.letter == "I"
    with pytest.raises(MalformedMessage, match="must list 4 counts, not 5"):
        decode_action((("Discard", 0, [1, 0, 0, 0, 0]),), RULES.cards)
    with pytest.raises(MalformedMessage, match="card kind 4 is not one of the game's 4"):
        decode_action((("PlayMonopoly", 4),), RULES.cards)


def test_the_base_game_still_refuses_four_count_hands() -> None:
    base = load_ruleset()
    with pytest.raises(MalformedMessage, match="must list 5 counts, not 4"):
        decode_action((("Discard", 0, [1, 0, 0, 0]),), base.cards)
    assert decode_action((("Discard", 0, [1, 0, 0, 0, 0]),), base.cards) == A.Discard(
        0, (1, 0, 0, 0, 0)
    )
    trade = decode_action(encode_action(A.MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE)), base.cards)
    assert isinstance(trade, A.MaritimeTrade) and trade.get is Resource.ORE


def test_kinds_tell_games_apart() -> None:
    """Kinds equal as ints are other kinds in another game: the engine's caches keyed by a
    game's kinds keep them apart."""
    catan = Kinds(Resource(i) for i in range(4))
    assert RULES.cards != catan and hash(RULES.cards) != hash(catan)
    assert tuple(RULES.cards) == catan == (0, 1, 2, 3)
