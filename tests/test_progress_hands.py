"""Cities & Knights' progress cards that take from hidden hands (official card list;
docs/rules/cities-and-knights.md): the Resource and Trade Monopolies (the base Monopoly with a
cap per seat) and the Commercial Harbor (a public offer and answer per seat, in turn); what each
seat's view learns of the others' hands, and the rejections."""

from __future__ import annotations

import pytest
from test_cities_knights import TRADE_GATE, give, progress, rejected, step, with_views
from test_progress_cards import card, holding

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.core import Hand, IllegalActionError, Phase, Resource, as_hand
from hexlan.engine.info import InformationState, _Group
from hexlan.engine.options import GameOptions
from hexlan.engine.shown import (
    HandShown,
    HandTake,
)
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights.actions import (
    EventDie,
    HarborAnswer,
    HarborOffer,
    KnightsPhase,
    PlayProgress,
)


def hand(**cards: int) -> Hand:
    """A hand of the eight kinds, by kind name."""
    counts = [0] * len(Resource)
    for name, count in cards.items():
        counts[Resource[name.upper()]] = count
    return as_hand(counts)


def unsure(view: InformationState, seat: int, *hands: Hand) -> None:
    """Make ``view`` know only that ``seat`` holds one of ``hands`` (as after hidden steals)."""
    view._groups[seat] = _Group((seat,), {(h,) for h in hands})
    view._refresh(seat)


def test_resource_monopoly_takes_up_to_two_of_the_resource_from_each_other_seat() -> None:
    state, play = holding("resource_monopoly")
    give(state, 1, ore=3)
    give(state, 2, ore=1, wool=2)
    monopoly = PlayProgress(play.track, play.face, Resource.ORE)
    assert monopoly in state.legal_actions()
    rejected(state, PlayProgress(play.track, play.face, Resource.PAPER), "cannot be played")
    state.play(monopoly)
    assert state.phase is Phase.MONOPOLY and state.monopoly_cap == 2
    assert state.public_dict()["monopoly_cap"] == 2
    assert state.chance_node() is not None and state.chance_node().seats == (1, 2, 3)  # type: ignore[union-attr]
    assert state.chance_outcomes() == [(A.MonopolyTake((0, 2, 1, 0)), 1.0)]
    rejected(state, A.MonopolyTake((0, 3, 1, 0)), "not")
    state.play(A.MonopolyTake((0, 2, 1, 0)))
    assert state.phase is Phase.MAIN and state.monopoly_cap is None
    assert state.hands[0][Resource.ORE] == 3 and state.hands[1][Resource.ORE] == 1
    assert "monopoly_cap" not in state.public_dict()
    trade = card("trade_monopoly")  # officially any number of monopolies a turn
    progress(state).cards[0].append(trade)
    progress(state).pool[trade[0]][trade[1]] -= 1
    assert PlayProgress(*trade, Resource.COIN) in state.legal_actions()


def test_trade_monopoly_takes_one_of_the_commodity_from_each_other_seat() -> None:
    state, play = holding("trade_monopoly")
    give(state, 1, coin=3)
    give(state, 3, coin=1, paper=1)
    rejected(state, PlayProgress(play.track, play.face, Resource.ORE), "cannot be played")
    state.play(PlayProgress(play.track, play.face, Resource.COIN))
    (take, _), *_ = state.chance_outcomes()
    assert take == A.MonopolyTake((0, 1, 0, 1))
    state.play(take)
    assert state.hands[0][Resource.COIN] == 2 and state.hands[1][Resource.COIN] == 2


def at_main(
    name: str, options: GameOptions | None = None
) -> tuple[GameState, list[InformationState], tuple[int, int]]:
    """Seat 0 in its main phase with every view, holding ``name`` (seen by itself only)."""
    state, views = with_views(options=options)
    track, face = card(name)
    step(state, views, A.ROLL)
    step(state, views, A.Dice(1, 2))
    step(state, views, EventDie(TRADE_GATE))
    assert state.active == 0 and state.phase is Phase.MAIN
    for game in (state, views[0]):
        progress(game).cards[0].append((track, face))
        progress(game).pool[track][face] -= 1
    for view in views[1:]:
        progress(view).unknown[0][track] += 1
    hands = [as_hand(h) for h in state.hands]
    for game in (state, *views):
        for seat in range(4):
            game.hand_pay(seat, hands[seat])  # empty hands, publicly
    return state, views, (track, face)


def public_gift(state: GameState, views: list[InformationState], seat: int, cards: Hand) -> None:
    """Every game gives ``seat`` ``cards`` (a public gain)."""
    for game in (state, *views):
        game.hand_gain(seat, cards)


def test_a_capped_count_tells_a_view_only_at_least_the_cap() -> None:
    state, views, (track, face) = at_main("resource_monopoly")
    public_gift(state, views, 2, hand(ore=3))
    unsure(views[1], 2, hand(ore=3), hand(ore=2, wool=1), hand(ore=1, wool=2))
    step(state, views, PlayProgress(track, face, Resource.ORE))
    assert views[1].chance_outcomes() == []  # seat 2 may hand over 1 or 2
    unsure(views[1], 2, hand(ore=3), hand(ore=2, wool=1))
    assert views[1].chance_outcomes() == [(A.MonopolyTake((0, 0, 2, 0)), 1.0)]
    with pytest.raises(IllegalActionError, match="cannot hold these ore counts"):
        views[1].check(A.MonopolyTake((0, 0, 1, 0)))
    step(state, views, A.MonopolyTake((0, 0, 2, 0)))
    assert views[1].possible_hands(2) == {hand(ore=1), hand(wool=1)}  # at least two: unknown
    assert views[1].is_consistent(state.hands)


def test_the_commercial_harbor_swaps_an_offered_resource_for_a_commodity_of_the_seats_choice() -> (
    None
):
    state, views, (track, face) = at_main("commercial_harbor")
    public_gift(state, views, 0, hand(lumber=1, brick=1))
    public_gift(state, views, 1, hand(coin=1, paper=1))
    public_gift(state, views, 2, hand(wool=1))
    play = PlayProgress(track, face)
    assert play in state.legal_actions()
    step(state, views, play)
    assert state.phase is KnightsPhase.HARBOR and state.current_player() == 0
    assert state.legal_actions() == [
        HarborOffer(Resource.LUMBER),
        HarborOffer(Resource.BRICK),
        HarborOffer(-1),
    ]
    rejected(state, HarborOffer(Resource.ORE), "seat 0 holds no ore")
    step(state, views, HarborOffer(Resource.BRICK))
    assert state.current_player() == 1
    rejected(state, HarborAnswer(1, -1), "seat 1 holds a commodity: it must give one")
    rejected(state, HarborAnswer(1, Resource.CLOTH), "seat 1 holds no cloth")
    rejected(state, HarborAnswer(2, -1), "it is seat 1's move")
    step(state, views, HarborAnswer(1, Resource.COIN))
    assert state.hands[0][Resource.COIN] == 1 and state.hands[1][Resource.BRICK] == 1
    step(state, views, HarborOffer(Resource.LUMBER))  # to seat 2 (seat 3 holds nothing)
    assert state.legal_actions(2) == [HarborAnswer(2, -1)]
    step(state, views, HarborAnswer(2, -1))
    assert state.phase is Phase.MAIN and state.hands[0][Resource.LUMBER] == 1


def test_a_harbor_answer_of_no_commodity_narrows_what_the_views_hold_possible() -> None:
    state, views, (track, face) = at_main("commercial_harbor")
    public_gift(state, views, 0, hand(ore=1))
    public_gift(state, views, 1, hand(wool=1))
    for view in views[2:]:
        unsure(view, 1, hand(wool=1), hand(paper=1))
        unsure(view, 0, hand(ore=1), hand(brick=1))
    step(state, views, PlayProgress(track, face))
    step(state, views, HarborOffer(Resource.ORE))
    assert views[2].possible_hands(0) == {hand(ore=1)}  # the offer shows the ore
    assert HarborAnswer(1, Resource.PAPER) in views[2].legal_actions(1)
    step(state, views, HarborAnswer(1, -1))
    assert views[2].possible_hands(1) == {hand(wool=1)}
    # A seat that surely holds a commodity cannot claim none, in any view.
    state, views, (track, face) = at_main("commercial_harbor")
    public_gift(state, views, 0, hand(ore=1))
    public_gift(state, views, 1, hand(paper=1))
    unsure(views[2], 1, hand(paper=1), hand(cloth=1))
    step(state, views, PlayProgress(track, face))
    step(state, views, HarborOffer(Resource.ORE))
    with pytest.raises(IllegalActionError, match="must give one"):
        views[2].check(HarborAnswer(1, -1))


def test_the_harbor_player_may_pass_a_seat_by_and_needs_a_resource_to_play() -> None:
    state, views, (track, face) = at_main("commercial_harbor")
    public_gift(state, views, 1, hand(coin=1))
    assert PlayProgress(track, face) not in state.legal_actions()  # no resource to offer
    rejected(state, PlayProgress(track, face), "commercial_harbor cannot be played")
    public_gift(state, views, 0, hand(grain=1))
    step(state, views, PlayProgress(track, face))
    step(state, views, HarborOffer(-1))
    assert state.phase is Phase.MAIN and state.hands[1][Resource.COIN] == 1


def test_the_master_merchant_sees_a_richer_hand_and_takes_two_cards_seen_by_the_two_alone() -> None:
    state, views, (track, face) = at_main("master_merchant")
    public_gift(state, views, 1, hand(ore=2, coin=1))
    public_gift(state, views, 2, hand(wool=1))
    for view in (views[0], views[3]):
        unsure(view, 1, hand(ore=2, coin=1), hand(ore=1, wool=1, coin=1))
    for game in (state, *views):
        game.public_vp[1] += 1  # seat 1 is richer; seat 2 is not
    assert [a for a in state.legal_actions() if isinstance(a, PlayProgress)] == [
        PlayProgress(track, face, 1)
    ]
    rejected(state, PlayProgress(track, face, 2), "master_merchant cannot be played")
    step(state, views, PlayProgress(track, face, 1))
    assert state.phase is KnightsPhase.MERCHANT_SHOW
    shown = HandShown(1, hand(ore=2, coin=1))
    assert state.chance_outcomes() == [(shown, 1.0)]
    assert views[3].chance_outcomes() == [(HandShown(1, None), 1.0)]
    assert len(views[0].chance_outcomes()) == 2  # either hand, until it is shown
    with pytest.raises(IllegalActionError):
        views[0].check(HandShown(1, hand(brick=3)))  # a hand seat 1 cannot hold
    step(state, views, shown)
    assert views[0].possible_hands(1) == {hand(ore=2, coin=1)}
    assert len(views[3].possible_hands(1)) == 2  # the third party saw nothing
    take = HandTake(hand(ore=1, coin=1))
    assert take in state.legal_actions() and HandTake(hand(ore=2)) in state.legal_actions()
    rejected(state, HandTake(hand(wool=2)), "not legal")
    assert views[3].legal_actions() == [HandTake(None)]
    assert state.observation(take, 3) == HandTake(None) and state.observation(take, 1) == take
    step(state, views, take)
    assert state.phase is Phase.MAIN and state.hands[1][Resource.ORE] == 1
    assert views[3].hand_size[0] == 2 and take.taken in views[3].possible_hands(0)
    hands = [as_hand(h) for h in state.hands]
    assert all(v.is_consistent(hands) for v in views)


def test_the_new_actions_cross_the_wire_form_a_pass_and_unseen_cards_too() -> None:
    for action in (
        HarborOffer(-1),
        HarborOffer(Resource.ORE),
        HarborAnswer(2, -1),
        HarborAnswer(2, Resource.COIN),
        HandShown(1, None),
        HandShown(1, hand(ore=2)),
        HandTake(None),
        HandTake(hand(ore=1, coin=1)),
    ):
        assert R.action_from_list(A.action_to_list(action)) == action
