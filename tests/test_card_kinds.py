"""Card kinds as an open set (issue 8): a rule set names its kinds and every hand has one count
per kind.

The test game is the base game with the three Cities & Knights commodities added to the hand
(``cards`` lists eight kinds). Nothing produces a commodity in it, so the tests give them (from
the bank, directly, as ``Table.give`` does): then they are traded with the bank and between
seats, stolen, discarded, counted toward the discard limit, seen and inferred by information
states and carried by the wire, like any card. Year of Plenty and Monopoly name resources only
(official; the rule set's ``plenty_kinds``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from random_play import STEP_CAP, random_step

from hexlan.engine import actions as A
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.chance import draw_outcome
from hexlan.engine.core import (
    COMMODITIES,
    RESOURCES,
    DevCard,
    EngineError,
    Hand,
    IllegalActionError,
    Phase,
    Resource,
)
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import CATAN_GAMES, RuleSet, load_ruleset, ruleset_from
from hexlan.engine.state import CHANCE, GameState
from hexlan.net.narrate import describe_cards
from hexlan.net.steal import CARD_KINDS, commit_hand, open_opening, public_bytes, seal_opening
from hexlan.net.wire import MalformedMessage, decode_action, encode_action

L, PAPER, CLOTH, COIN = Resource.LUMBER, Resource.PAPER, Resource.CLOTH, Resource.COIN
KINDS = [r.name.lower() for r in Resource]


def commodity_rules(**extra: object) -> RuleSet:
    """The base game whose hands also hold paper, cloth and coin (12 of each in the bank)."""
    raw = dict(load_ruleset("base").raw) | {"cards": KINDS, "bank_per_commodity": 12} | extra
    return ruleset_from("commodities-test", raw)


RULES = commodity_rules()


def cards(**counts: int) -> Hand:
    """An eight-kind hand by kind name: ``cards(paper=2, ore=1)``."""
    return tuple(counts.get(name, 0) for name in KINDS)


def give(state: GameState, seat: int, hand: Hand) -> None:
    """Move ``hand`` from the bank to the seat, seen by all (direct: nothing yields a commodity
    in this game)."""
    state.take_from_bank(seat, hand)


def main_phase(players: int = 3, rules: RuleSet = RULES) -> GameState:
    """A game past set-up with an empty board: seat 0 in the main phase of turn 1 (direct)."""
    state = GameState(beginner_board(), players, rules=rules)
    state.play(A.StartPlayer(0))
    state.setup_step = len(state.setup_order)
    state.turn, state.phase = 1, Phase.MAIN
    return state


def conserved(state: GameState) -> bool:
    """Bank plus hands hold the rule set's count of every kind."""
    return all(
        state.bank[r] + sum(h[r] for h in state.hands) == state.rules.bank[r]
        for r in range(state.kinds)
    )


# ---------------------------------------------------------------------------- rule sets


def test_every_registered_game_keeps_the_five_resources() -> None:
    """Existing games are unchanged: five kinds, the resources in their order (Cities & Knights
    alone adds the commodities)."""
    for game in CATAN_GAMES:
        if game == "cities-and-knights":
            continue
        rules = load_ruleset(game)
        assert rules.cards == RESOURCES and rules.kinds == 5
        assert rules.bank == (rules.bank_per_resource,) * 5
        assert rules.plenty_kinds == RESOURCES
    state = GameState(beginner_board(), 4)
    assert state.hands == [[0] * 5] * 4 and len(state.ratios[0]) == 5


def test_a_rule_set_with_commodities_has_eight_count_hands() -> None:
    assert RULES.kinds == 8 and RULES.cards[5:] == COMMODITIES
    assert RULES.bank == (19, 19, 19, 19, 19, 12, 12, 12)
    assert RULES.road_cost == (1, 1, 0, 0, 0, 0, 0, 0)  # five-count costs: commodities cost 0
    state = main_phase()
    assert state.hands == [[0] * 8] * 3 and state.bank == list(RULES.bank)
    assert state.ratios[0] == [4] * 8


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"cards": [*KINDS, "lumber"]}, "1 to 8 different card kinds"),
        ({"cards": [*KINDS[:5], "ore"]}, "different card kinds"),
        ({"cards": [*KINDS[:5], "silk"]}, "card kinds"),
        ({"costs": {**load_ruleset().raw["costs"], "road": [1, 1, 0, 0, 0, 1]}}, "cost"),
        ({"cards": KINDS[:5], "plenty_kinds": ["paper"]}, "plenty_kinds"),
    ],
)
def test_malformed_card_kinds_are_one_line_errors(extra: dict[str, object], words: str) -> None:
    with pytest.raises(EngineError) as info:
        commodity_rules(**extra)
    assert words in str(info.value) and "\n" not in str(info.value)


# ---------------------------------------------------------------------------- engine


def test_production_never_yields_a_commodity() -> None:
    """Whole games of heuristic bots under the eight-kind rule set: commodities stay in the
    bank (no terrain produces one), every kind is conserved, and the games end."""
    for seed in range(3):
        rng = random.Random(seed)
        state = GameState(random_board(rng), 3, rules=RULES)
        views = [InformationState(state.board, 3, s, rules=RULES) for s in range(3)]
        bots = [make_bot("heuristic", random.Random(seed * 7 + s)) for s in range(3)]
        while not state.is_over and state.turn < 400:
            seat = state.current_player()
            if seat == CHANCE:
                action = draw_outcome(rng, state.chance_outcomes())
            else:
                action = bots[seat].choose(views[seat], seat)
            advance_views(state, views, action)
            assert all(len(h) == 8 and not any(h[5:]) for h in state.hands)
        assert state.is_over and conserved(state)


def test_commodities_trade_with_the_bank_at_the_generic_ratios() -> None:
    """Four of a kind, or three at a 3:1 harbour, for one card of any other kind (seed 002
    «Торговля»; commodities trade like resources, seed 002 «Города и рыцари»)."""
    state = main_phase()
    give(state, 0, cards(paper=4, grain=1))
    trades = {(a.give, a.get) for a in state.legal_actions() if isinstance(a, A.MaritimeTrade)}
    assert trades == {(cards(paper=4), r) for r in Resource if r is not PAPER}
    state.play(A.MaritimeTrade(cards(paper=4), COIN))
    assert state.hands[0] == list(cards(grain=1, coin=1))
    assert state.bank[5:] == [12, 12, 11] and conserved(state)
    state.apply(A.BuildSettlement(3))  # on the beginner board's 3:1 harbour (path 0-3)
    assert state.ratios[0] == [3] * 8


def test_commodities_trade_between_seats() -> None:
    state = main_phase()
    give(state, 0, cards(cloth=2))
    give(state, 1, cards(ore=1, coin=1))
    state.play(A.OfferTrade(cards(cloth=1), cards(coin=1), 1))
    state.play(A.AnswerTrade(1, True))
    state.play(A.ConfirmTrade(1))
    assert state.hands[0] == list(cards(cloth=1, coin=1))
    assert state.hands[1] == list(cards(ore=1, cloth=1))
    with pytest.raises(IllegalActionError, match="lists 8 counts"):
        state.play(A.OfferTrade((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), 1))


def test_commodities_count_toward_the_discard_limit() -> None:
    """seed 002 «Разбойник»: more than seven cards on a 7, commodities included, discards half;
    they may be among the cards discarded."""
    state = main_phase()
    state.phase = Phase.ROLL
    give(state, 1, cards(lumber=5, coin=4))
    state.play(A.RollDice())
    state.play(A.Dice(3, 4))
    assert state.phase is Phase.DISCARD and state.discards == [0, 4, 0]
    choices = [a.cards for a in state.legal_actions(1)]
    assert cards(coin=4) in choices and cards(lumber=4) in choices
    assert all(len(c) == 8 and sum(c) == 4 for c in choices)
    with pytest.raises(IllegalActionError, match="lists 8 counts"):
        state.play(A.Discard(1, (2, 0, 0, 0, 2)))
    state.play(A.Discard(1, cards(lumber=1, coin=3)))
    assert state.hands[1] == list(cards(lumber=4, coin=1)) and state.bank[7] == 11
    assert state.phase is Phase.MOVE_ROBBER and conserved(state)


def test_the_robber_steals_a_commodity() -> None:
    """seed 002 «Разбойник» 3: one card at random from the victim's hand, whatever its kind;
    the thief's and a third party's views follow the steal."""
    state = main_phase()
    views = [InformationState(state.board, 3, s, rules=RULES) for s in range(3)]
    for view in views:
        view.play(A.StartPlayer(0))
        view.setup_step, view.turn, view.phase = len(view.setup_order), 1, Phase.MAIN
    for target in (state, *views):
        target.active = 1
        give(target, 1, RULES.settlement_cost)
        target.apply(A.BuildSettlement(0))  # seat 1 on the top-left hex
        target.active, target.phase = 0, Phase.MOVE_ROBBER
        give(target, 1, cards(cloth=1, paper=2))
    victim_hex = next(h for h in range(19) if 0 in state.topology.hex_nodes[h] and h != 9)
    advance_views(state, views, A.MoveRobber(victim_hex, 1), check=True)
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {A.StealCard(CLOTH): 1 / 3, A.StealCard(PAPER): 2 / 3}
    assert views[2].chance_outcomes() == [(A.StealCard(None), 1.0)]  # a third party: hidden
    advance_views(state, views, A.StealCard(CLOTH), check=True)
    assert state.hands[0][CLOTH] == 1 and state.hands[1] == list(cards(paper=2))
    assert views[0].hands[0] == state.hands[0]
    assert views[2].possible_hands(0) == {cards(cloth=1), cards(paper=1)}
    assert views[2].hidden_kinds(1) == {CLOTH, PAPER}


def test_year_of_plenty_and_monopoly_name_resources_only() -> None:
    """Official: Year of Plenty takes "any two resources", Monopoly names "one resource"; the
    commodities in the bank or in hands are not theirs to name (``plenty_kinds``)."""
    state = main_phase()
    state.dev_cards[0][DevCard.YEAR_OF_PLENTY] = state.dev_cards[0][DevCard.MONOPOLY] = 1
    state.dev_count[0] = 2
    legal = state.legal_actions()
    named = {r for a in legal if isinstance(a, A.PlayYearOfPlenty) for r in a.resources}
    assert named == set(RESOURCES)
    assert {a.resource for a in legal if isinstance(a, A.PlayMonopoly)} == set(RESOURCES)
    with pytest.raises(IllegalActionError):
        state.play(A.PlayMonopoly(COIN))


def test_views_agree_with_the_full_state_in_games_with_commodities() -> None:
    """Principle 2 with eight kinds: random games where every seat starts with commodities;
    every view agrees with the full state at every step (steals, discards, offers and bank
    trades of commodities among the moves)."""
    seen: Counter[str] = Counter()
    for seed in range(4):
        rng = random.Random(seed)
        options = GameOptions(victory_points=6)
        state = GameState(random_board(rng), 3, options, RULES)
        views = [InformationState(state.board, 3, s, options, RULES) for s in range(3)]
        for target in (state, *views):
            for seat in range(3):
                give(target, seat, cards(paper=2, cloth=2, coin=1))
        for _ in range(STEP_CAP):
            if state.is_over:
                break
            action = random_step(state, rng)
            moved = getattr(action, "give", None) or getattr(action, "cards", None) or ()
            if isinstance(action, A.StealCard) and action.resource in COMMODITIES:
                seen["stolen commodity"] += 1
            elif isinstance(moved, tuple) and any(moved[5:]):
                seen[f"{type(action).__name__} of commodities"] += 1
            advance_views(state, views, action, check=True)
            public = state.public_hash()
            for view in views:
                assert view.public_hash() == public or state.phase is Phase.VICTORY
                assert view.hands[view.seat] == state.hands[view.seat]
                assert view.is_consistent(state.hands)
        assert conserved(state)
    assert {"stolen commodity", "Discard of commodities", "MaritimeTrade of commodities"} <= set(
        seen
    ), seen
    assert "OfferTrade of commodities" in seen, seen


# ---------------------------------------------------------------------------- wire


def test_eight_kind_hands_cross_the_wire() -> None:
    """The ``action`` schema carries hands of one to eight counts, and decoding for a game
    exactly its count; the game's own length is also the engine's check, so a hand of the
    wrong length is refused with a reason on either side."""
    for action in (
        A.OfferTrade(cards(paper=1), cards(ore=1, coin=2), 1),
        A.Discard(2, cards(cloth=3, grain=1)),
        A.MaritimeTrade(cards(coin=4), Resource.PAPER),
        A.CounterOffer(1, cards(lumber=1), cards(cloth=1)),
    ):
        assert decode_action(encode_action(action)) == action
        assert decode_action(encode_action(action), RULES.cards) == action
    for wrong in ([], [0] * 9):
        with pytest.raises(MalformedMessage, match="1 to 8 counts"):
            decode_action((("Discard", 0, wrong),))
    with pytest.raises(MalformedMessage, match="must list 8 counts, not 5"):
        decode_action((("Discard", 0, [1, 0, 0, 0, 0]),), RULES.cards)
    base = main_phase(rules=load_ruleset())
    base.hands[0][0] = 1
    with pytest.raises(IllegalActionError, match="lists 5 counts in the base game, not 8"):
        base.check(decode_action(encode_action(A.OfferTrade(cards(lumber=1), cards(coin=1), 1))))
    with pytest.raises(IllegalActionError):
        base.check(A.MaritimeTrade((4, 0, 0, 0, 0), Resource.COIN))


def test_a_steal_commits_to_and_opens_a_commodity() -> None:
    """PROTOCOL.md §7 with card kinds 0..7: the victim commits to every card, commodities
    included, and the opening sealed for the thief names the commodity."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    victim, thief = X25519PrivateKey.generate(), X25519PrivateKey.generate()
    game_id, number = bytes(32), 3
    assert CARD_KINDS == 8
    hand = commit_hand(game_id, number, [int(L), int(PAPER), int(COIN), int(COIN)])
    index = next(i for i, (_, kind) in enumerate(hand.openings) if kind == COIN)
    salt, kind = hand.openings[index]
    sealed = seal_opening(victim, public_bytes(thief), game_id, number, index, salt, kind)
    opened = open_opening(thief, public_bytes(victim), game_id, number, index, *sealed)
    assert opened == (salt, int(COIN))


def test_narration_names_commodities() -> None:
    assert describe_cards(cards(ore=1, paper=2, coin=1)) == "1 ore, 2 paper, 1 coin"
