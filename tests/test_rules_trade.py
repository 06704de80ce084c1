"""Trade: maritime (4:1, 3:1 and 2:1 harbours, mixed_three_to_one) and domestic offers.

Rule sources: docs/rules/base.md «Trade» (seed 002 «Фаза строительства», «Торговля», «Правила
расстояния…»; seed 003 «ОБМЕН РЕСУРСОВ В БАНКЕ», «ХОД ИГРОКА» 3; official: like-for-like).

Beginner harbours: 3:1 on path 0-3, 2:1 wool on path 1-5.
"""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.core import RESOURCES, Phase, Resource
from hexlan.engine.options import GameOptions

L, B, W, G, ORE = RESOURCES


def _maritime(actions: list[A.Action]) -> set[tuple[tuple[int, ...], Resource]]:
    return {(a.give, a.get) for a in actions if isinstance(a, A.MaritimeTrade)}


# ---------------------------------------------------------------------------- maritime


def test_four_to_one_with_the_bank(table) -> None:
    """seed 002 «Фаза строительства»: four identical cards for one card of another resource."""
    t = table(players=2)
    t.give(0, t.hand(lumber=4, brick=3))
    four = t.hand(lumber=4)
    assert _maritime(t.legal()) == {(four, r) for r in (B, W, G, ORE)}
    t.rejected(A.MaritimeTrade(four, L), "not legal")  # the same resource back
    t.rejected(A.MaritimeTrade(t.hand(brick=3), ORE), "not legal")  # no harbour
    t.rejected(A.MaritimeTrade(t.hand(lumber=2, brick=2), ORE), "not legal")
    t.play(A.MaritimeTrade(four, ORE))
    assert t.state.hands[0] == [0, 3, 0, 0, 1]
    assert t.state.bank == [19, 16, 19, 19, 18]


def test_three_to_one_harbour_needs_a_building_on_it(table) -> None:
    """seed 002 «Торговля»: a 3:1 harbour serves a player with a settlement or city on one of its
    two intersections; a building next to it does not count."""
    t = table(players=2)
    t.give(0, t.hand(grain=3))
    t.build(0, settlements=[4])  # next to the harbour path 0-3, not on it
    assert _maritime(t.legal()) == set()
    assert t.state.ratio(0, G) == 4
    t.build(0, settlements=[3])
    assert [t.state.ratio(0, r) for r in RESOURCES] == [3] * 5
    assert _maritime(t.legal()) == {(t.hand(grain=3), r) for r in (L, B, W, ORE)}
    t.play(A.MaritimeTrade(t.hand(grain=3), B))
    assert t.state.hands[0] == [0, 1, 0, 0, 0]


def test_two_to_one_harbour_only_for_its_resource(table) -> None:
    """seed 002 «Торговля»: a 2:1 harbour trades two cards of its resource for one."""
    t = table(players=2)
    t.give(0, t.hand(wool=2, ore=3))
    t.build(0, settlements=[5])  # on the wool harbour (path 1-5)
    assert [t.state.ratio(0, r) for r in RESOURCES] == [4, 4, 2, 4, 4]
    assert _maritime(t.legal()) == {(t.hand(wool=2), r) for r in (L, B, G, ORE)}
    t.rejected(A.MaritimeTrade(t.hand(ore=2), L), "not legal")
    t.play(A.MaritimeTrade(t.hand(wool=2), G))
    assert t.state.hands[0] == [0, 0, 0, 1, 3]


def test_mixed_three_to_one_option(table) -> None:
    """seed 003 «ОБМЕН РЕСУРСОВ В БАНКЕ» (option mixed_three_to_one): a 3:1 harbour takes any
    three cards; the card taken must still be of another resource. Off by default."""
    mixed = (1, 1, 1, 0, 0)
    t = table(players=2, options=GameOptions(mixed_three_to_one=True))
    t.give(0, mixed)
    assert _maritime(t.legal()) == set()  # no harbour
    t.build(0, settlements=[0])
    assert _maritime(t.legal()) == {(mixed, G), (mixed, ORE)}
    t.rejected(A.MaritimeTrade(mixed, L), "not legal")
    t.play(A.MaritimeTrade(mixed, ORE))
    assert t.state.hands[0] == [0, 0, 0, 0, 1]

    official = table(players=2)
    official.give(0, mixed)
    official.build(0, settlements=[0])
    assert _maritime(official.legal()) == set()
    official.rejected(A.MaritimeTrade(mixed, ORE), "not legal")


def test_no_trade_before_the_roll(table) -> None:
    """seed 002 «Торговля» ("Собрав сырье…"); seed 003 «ХОД ИГРОКА» 3: trade needs the roll."""
    t = table(players=2)
    t.give(0, t.hand(lumber=4))
    t.give(1, t.hand(ore=1))
    t.at_roll(0)
    t.rejected(A.MaritimeTrade(t.hand(lumber=4), ORE), "not legal")
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1), "after the roll")


# ---------------------------------------------------------------------------- domestic


def test_offer_to_one_accept_and_confirm(table) -> None:
    """seed 002 «Торговля»: the active player offers to a player, who accepts; the active player
    completes the trade."""
    t = table(players=3)
    t.give(0, t.hand(lumber=2))
    t.give(1, t.hand(ore=1))
    t.give(2, t.hand(ore=1))
    t.play(A.OfferTrade(t.hand(lumber=2), t.hand(ore=1), 1))
    s = t.state
    assert s.phase is Phase.TRADE_RESPONSES and s.acting_seats() == (1,)
    assert t.legal(1) == [A.AnswerTrade(1, True), A.AnswerTrade(1, False)]
    # The offering seat may withdraw before every answer is in; others have nothing to do.
    assert t.legal(0) == [A.CANCEL_TRADE] and t.legal(2) == []
    t.rejected(A.AnswerTrade(2, True), "no offer")  # not offered to seat 2
    t.rejected(A.EndTurn(), "may not act")
    t.rejected(A.BuildRoad(0), "may not act")
    t.play(A.AnswerTrade(1, True))
    assert t.legal(0) == [A.CancelTrade(), A.ConfirmTrade(1)]
    t.play(A.ConfirmTrade(1))
    assert s.hands[0] == [0, 0, 0, 0, 1] and s.hands[1] == [2, 0, 0, 0, 0]
    assert s.phase is Phase.MAIN and s.trade is None


def test_offer_to_all_and_every_rejection_closes_it(table) -> None:
    """seed 002 «Торговля»: an offer to all (to=-1) awaits every other seat; when all reject it,
    the turn goes on."""
    t = table(players=4)
    t.give(0, t.hand(grain=1))
    t.give(2, t.hand(brick=1))
    t.play(A.OfferTrade(t.hand(grain=1), t.hand(brick=1), -1))
    s = t.state
    assert s.acting_seats() == (1, 2, 3)
    assert t.legal(1) == [A.AnswerTrade(1, False)]  # seat 1 holds no brick
    t.rejected(A.AnswerTrade(1, True), "not in hand")
    for seat in (3, 1, 2):
        t.play(A.AnswerTrade(seat, False))
    assert s.phase is Phase.MAIN and s.hands[0] == [0, 0, 0, 1, 0]


def test_counter_offer_then_confirm(table) -> None:
    """seed 002 «Торговля» ("Они могут выступить со своими предложениями"): a seat answers with
    other terms, and the active player may complete the trade on those terms."""
    t = table(players=3)
    t.give(0, t.hand(lumber=3))
    t.give(1, t.hand(ore=2))
    t.give(2, t.hand(ore=2))
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), -1))
    t.rejected(A.CounterOffer(1, t.hand(lumber=1), t.hand(ore=3)), "does not hold")
    t.rejected(A.CounterOffer(1, t.hand(lumber=4), t.hand(ore=1)), "does not hold")
    t.play(A.CounterOffer(1, t.hand(lumber=2), t.hand(ore=1)))
    t.play(A.AnswerTrade(2, True))
    assert set(t.legal(0)) == {A.CancelTrade(), A.ConfirmTrade(1), A.ConfirmTrade(2)}
    t.play(A.ConfirmTrade(1))
    s = t.state
    assert s.hands[0] == [1, 0, 0, 0, 1]
    assert s.hands[1] == [2, 0, 0, 0, 1] and s.hands[2] == [0, 0, 0, 0, 2]
    assert s.phase is Phase.MAIN


def test_cancel_trade(table) -> None:
    """docs/rules/base.md «Trade»: the active player may withdraw the offer; nothing moves."""
    t = table(players=2)
    t.give(0, t.hand(lumber=1))
    t.give(1, t.hand(ore=1))
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1), A.AnswerTrade(1, True))
    t.play(A.CancelTrade())
    assert t.state.phase is Phase.MAIN
    assert t.state.hands == [[1, 0, 0, 0, 0], [0, 0, 0, 0, 1]]
    t.rejected(A.ConfirmTrade(1), "not legal")


def test_an_answer_after_the_offer_is_withdrawn_is_moot(table) -> None:
    """A network game orders an answer after the withdrawal it crossed: the game no longer
    waits for it, so it is dropped (moot), while an answer still awaited is not, nor one
    from a seat the offer did not ask."""
    t = table(players=3)
    t.give(0, t.hand(lumber=1))
    t.give(1, t.hand(ore=1))
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1))
    assert not t.state.moot(A.AnswerTrade(1, True), 1)
    assert t.state.moot(A.CounterOffer(2, t.hand(lumber=1), t.hand(ore=1)), 2)  # not asked
    assert not t.state.moot(A.CancelTrade(), 0)  # only answers are ever moot
    t.play(A.CancelTrade())
    assert t.state.moot(A.AnswerTrade(1, True), 1)
    assert t.state.moot(A.CounterOffer(1, t.hand(lumber=1), t.hand(ore=1)), 1)


def test_confirm_only_with_a_seat_that_accepted(table) -> None:
    """seed 002 «Торговля»: the trade is made only with a seat that agreed."""
    t = table(players=3)
    t.give(0, t.hand(lumber=1))
    t.give(1, t.hand(ore=1))
    t.give(2, t.hand(ore=1))
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), -1))
    t.play(A.AnswerTrade(1, False), A.AnswerTrade(2, True))
    t.rejected(A.ConfirmTrade(1), "not legal")
    t.play(A.ConfirmTrade(2))
    assert t.state.hands[2] == [1, 0, 0, 0, 0]


def test_no_gifts_and_no_like_for_like(table) -> None:
    """seed 002 «Правила расстояния…»: no gifts, both sides give at least one card; official: no
    trading a resource for the same resource."""
    t = table(players=2)
    t.give(0, t.hand(lumber=2, wool=1))
    t.give(1, t.hand(lumber=1, ore=1))
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(), 1), "no gifts")
    t.rejected(A.OfferTrade(t.hand(), t.hand(ore=1), 1), "no gifts")
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(lumber=1), 1), "same resource")
    t.rejected(A.OfferTrade(t.hand(lumber=1, wool=1), t.hand(lumber=1, ore=1), 1), "same resource")
    t.rejected(A.OfferTrade((2, -1, 0, 0, 0), t.hand(ore=1), 1), "no gifts")
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1))
    t.rejected(A.CounterOffer(1, t.hand(wool=1), t.hand()), "no gifts")
    t.rejected(A.CounterOffer(1, t.hand(lumber=1), t.hand(lumber=1)), "same resource")


def test_offers_only_from_the_active_seat_in_its_main_phase(table) -> None:
    """seed 002 «Фаза строительства» ("только с игроком, чей сейчас ход"): the active player
    trades, with another seat, with cards it holds."""
    t = table(players=3)
    t.give(0, t.hand(lumber=1))
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 0), "seat 0")  # itself
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 3), "seat 3")  # no such seat
    t.rejected(A.OfferTrade(t.hand(brick=1), t.hand(ore=1), 1), "does not hold")
    t.play(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 1))
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(wool=1), 2), "after the roll")  # one at once
    t.play(A.AnswerTrade(1, False))
    t.play(A.EndTurn())
    t.rejected(A.OfferTrade(t.hand(lumber=1), t.hand(ore=1), 0), "after the roll")  # seat 1 to roll
