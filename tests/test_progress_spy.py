"""Cities & Knights' Spy (official card list, politics deck: «Look at another player's hand of
progress cards. You may choose 1 card and take it into your hand»;
docs/rules/cities-and-knights.md): whom it may look at, what each seat's view learns of the cards
shown and taken, the refusals, determinisation and the wire form."""

from __future__ import annotations

import random

import pytest
from test_cities_knights import BOARD, RULES, progress, rejected, step
from test_progress_cards import card
from test_progress_hands import at_main

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.bots import make_bot
from hexlan.engine.chance import (
    DECK_SHOW,
)
from hexlan.engine.core import IllegalActionError, Phase
from hexlan.engine.determinize import Determinizer
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.shown import (
    NO_TAKE,
    DeckShown,
    DeckTake,
)
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights.actions import (
    KnightsPhase,
    PlayProgress,
)
from hexlan.net.narrate import Narrator
from hexlan.simulate import play_game

Views = list[InformationState]


def deal(state: GameState, views: Views, seat: int, name: str) -> tuple[int, int]:
    """``seat`` holds the card ``name``, seen by itself (and the full state) alone."""
    track, face = card(name)
    for game in (state, views[seat]):
        progress(game).cards[seat].append((track, face))
        progress(game).pool[track][face] -= 1
    for view in views:
        if view.seat != seat:
            progress(view).unknown[seat][track] += 1
    return track, face


def spied(
    victim_cards: tuple[str, ...] = ("printer", "crane", "bishop"),
) -> tuple[GameState, Views, tuple[int, int], tuple[tuple[int, int], ...]]:
    """Seat 0 holds the Spy in its main phase; seat 1 holds ``victim_cards``, seat 3 a
    warlord, seat 2 none. Returns the game, the views, the Spy and seat 1's cards, sorted.
    A printer in a hand is the option ``ck_point_cards_in_hand``'s reading (officially it is
    shown when drawn: tests/test_progress_cards.py)."""
    state, views, spy = at_main("spy", GameOptions.of(ck_point_cards_in_hand=True))
    cards = tuple(sorted(deal(state, views, 1, name) for name in victim_cards))
    deal(state, views, 3, "warlord")
    return state, views, spy, cards


def test_the_spy_looks_at_any_other_seat_holding_a_progress_card() -> None:
    state, views, (track, face), _ = spied()
    plays = [a for a in state.legal_actions() if isinstance(a, PlayProgress)]
    assert plays == [PlayProgress(track, face, 1), PlayProgress(track, face, 3)]
    assert [a for a in views[0].legal_actions() if isinstance(a, PlayProgress)] == plays
    rejected(state, PlayProgress(track, face, 2), "seat 2 holds no progress card to look at")
    rejected(state, PlayProgress(track, face, 0), "not its player's")
    rejected(state, PlayProgress(track, face, 7), "names a seat")


def test_no_one_to_look_at_makes_the_spy_unplayable() -> None:
    state, _, (track, face) = at_main("spy")
    assert not [a for a in state.legal_actions() if isinstance(a, PlayProgress)]
    rejected(state, PlayProgress(track, face, 1), "seat 1 holds no progress card")


def test_the_victims_cards_are_shown_to_the_player_alone() -> None:
    state, views, (track, face), cards = spied()
    step(state, views, PlayProgress(track, face, 1))
    assert state.phase is KnightsPhase.SPY_SHOW
    node = state.chance_node()
    assert node is not None and node.kind == DECK_SHOW and node.seats == (0, 1)
    shown = DeckShown(1, cards)
    assert state.chance_outcomes() == [(shown, 1.0)]
    assert views[1].chance_outcomes() == [(shown, 1.0)]  # its own cards
    assert views[2].chance_outcomes() == [(DeckShown(1, None), 1.0)]
    guesses = views[0].chance_outcomes()  # every hand seat 1 may hold, until it is shown
    assert len(guesses) > 1 and (shown, pytest.approx(dict(guesses)[shown])) in guesses
    assert sum(p for _, p in guesses) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError):
        views[0].check(DeckShown(1, ((0, 0),)))  # one card: seat 1 holds three
    assert state.observation(shown, 2) == DeckShown(1, None)
    assert state.observation(shown, 0) == shown == state.observation(shown, 1)
    step(state, views, shown)
    assert state.phase is KnightsPhase.SPY
    assert sorted(progress(views[0]).cards[1]) == list(cards)
    assert progress(views[0]).unknown[1] == [0, 0, 0]
    for third in (views[2], views[3]):  # nothing leaks to a third party
        assert progress(third).cards[1] == [] and sum(progress(third).unknown[1]) == 3
        assert third.hidden_dict() != views[0].hidden_dict()


def test_the_player_takes_one_card_whose_deck_alone_the_others_learn() -> None:
    state, views, (track, face), cards = spied()
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    takes = [DeckTake(t, f) for t, f in cards] + [DeckTake(NO_TAKE, None)]
    assert state.legal_actions() == takes
    assert views[0].legal_actions() == takes
    tracks = sorted({t for t, _ in cards})
    assert views[2].legal_actions() == [DeckTake(t, None) for t in tracks] + [DeckTake(-1, None)]
    taken = cards[0]
    take = DeckTake(*taken)
    assert state.observation(take, 2) == DeckTake(taken[0], None)
    assert state.observation(take, 1) == take
    before = {s: progress(state).held(s) for s in range(4)}
    step(state, views, take)
    assert state.phase is Phase.MAIN
    for game in (state, views[0], views[1]):  # the two seats know where it went
        assert taken in progress(game).cards[0] and taken not in progress(game).cards[1]
    assert progress(views[2]).unknown[0][taken[0]] == 1  # the deck only
    assert progress(views[2]).cards[0] == []
    after = {s: progress(state).held(s) for s in range(4)}
    assert after == {**before, 0: before[0] + 1, 1: before[1] - 1}
    for view in views:  # every view agrees on the counts and holds nothing false
        assert all(progress(view).held(s) == after[s] for s in range(4))
        for s in range(4):
            assert set(progress(view).cards[s]) <= set(progress(state).cards[s])


def test_taking_nothing_moves_nothing() -> None:
    state, views, (track, face), cards = spied()
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    step(state, views, DeckTake(NO_TAKE, None))
    assert state.phase is Phase.MAIN and progress(state).held(1) == 3
    assert progress(state).cards[0] == [] and progress(state).spy == 1


def test_a_take_of_a_card_the_victim_does_not_hold_is_refused() -> None:
    state, views, (track, face), cards = spied()
    rejected(state, DeckTake(*cards[0]), "no Spy is being played")
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    wedding = card("wedding")
    rejected(state, DeckTake(*wedding), "seat 1 holds no wedding progress card to take")
    rejected(state, DeckTake(cards[0][0], None), "name the face")
    rejected(state, DeckTake(5, 0), "deck 0 .. 2")
    rejected(state, DeckTake(0, 99), "no progress card 99 in deck 0")
    rejected(state, DeckTake(NO_TAKE, 0), "names no card")
    trade_held = any(t == 0 for t, _ in cards)
    assert not trade_held
    with pytest.raises(IllegalActionError, match="seat 1 holds no trade progress card"):
        views[2].check(DeckTake(0, None))


def test_a_third_party_forgets_which_card_of_a_deck_it_knew_when_one_is_taken_unseen() -> None:
    state, views, (track, face), cards = spied(("printer", "crane"))
    known = progress(views[2])  # as if seat 2 had seen seat 1 take its printer from it
    printer = card("printer")
    known.unknown[1][printer[0]] -= 1
    known.cards[1].append(printer)
    known.pool[printer[0]][printer[1]] -= 1
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    step(state, views, DeckTake(*card("printer")))
    assert known.cards[1] == [] and known.unknown[1][printer[0]] == 1
    assert known.pool[printer[0]][printer[1]] == progress(views[3]).pool[printer[0]][printer[1]]


def test_determinisations_of_every_view_agree_on_the_takes() -> None:
    state, views, (track, face), cards = spied()
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    player = Determinizer(views[0]).sample(random.Random(1))
    assert player.legal_actions() == state.legal_actions()
    third = Determinizer(views[2]).sample(random.Random(1))  # seat 1's cards still unseen
    options = third.legal_actions()
    assert set(state.legal_actions()) <= set(options)
    for take in options:  # each take leaves a consistent sampled state
        sample = third.copy()
        sample.play(take)
        assert sample.phase is Phase.MAIN
        assert progress(sample).held(1) == 3 - (take.deck != NO_TAKE)  # type: ignore[attr-defined]


def test_a_determinised_third_party_resolves_the_show_by_its_odds() -> None:
    state, views, (track, face), _ = spied()
    step(state, views, PlayProgress(track, face, 1))
    sample = Determinizer(views[2]).sample(random.Random(3))
    outcomes = sample.chance_outcomes()
    assert len(outcomes) > 1 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    sample.play(outcomes[0][0])
    assert sample.phase is KnightsPhase.SPY and progress(sample).unknown[1] == [0, 0, 0]


def test_the_spy_actions_cross_the_wire_form() -> None:
    for action in (
        DeckShown(1, None),
        DeckShown(2, ((0, 3), (1, 4))),
        DeckShown(2, ()),
        DeckTake(NO_TAKE, None),
        DeckTake(1, None),
        DeckTake(1, 4),
    ):
        assert R.action_from_list(A.action_to_list(action)) == action
    with pytest.raises(Exception, match="pair"):
        R.action_from_list(["DeckShown", 1, [[1, 2, 3]]])


def test_the_heuristic_bot_spies_on_the_seat_with_most_cards_and_takes_its_best() -> None:
    state, views, (track, face), cards = spied()
    bot = make_bot("heuristic", random.Random(0))
    assert bot.choose(views[0], 0) == PlayProgress(track, face, 1)  # three cards, not one
    step(state, views, PlayProgress(track, face, 1))
    step(state, views, DeckShown(1, cards))
    assert bot.choose(views[0], 0) == DeckTake(*card("printer"))  # a point card ranks first
    for seed in range(3):
        assert (
            make_bot("random", random.Random(seed)).choose(views[0], 0) in views[0].legal_actions()
        )


def narrators(views: Views) -> list[Narrator]:
    """A narrator per seat, its copy of the game taken from that seat's view."""
    result = []
    for view in views:
        narrator = Narrator(BOARD, ["Ann", "Bob", "Cid", "Dee"], view.seat, rules=RULES)
        narrator.state = view.copy()
        narrator.state.record_events = True
        result.append(narrator)
    return result


def test_the_spy_is_told_with_the_faces_to_the_two_seats_alone() -> None:
    state, views, (track, face), cards = spied(("printer", "crane"))
    tellers = narrators(views)

    def tell(action: A.Action) -> list[str]:
        told = [n.narrate(state.observation(action, n.seat)).text for n in tellers]
        step(state, views, action)
        return told

    played = tell(PlayProgress(track, face, 1))
    assert (
        played[2] == "Ann played the progress card spy: Bob's progress cards to look at, 1 to take"
    )
    assert played[1].endswith("your progress cards to look at, 1 to take")
    shown = tell(DeckShown(1, cards))
    assert shown[0] == "Bob showed you their progress cards: crane, printer (the Spy)"
    assert shown[1] == "You showed Ann your progress cards: crane, printer (the Spy)"
    assert shown[2] == "Bob showed Ann their progress cards (the Spy)"
    took = tell(DeckTake(*card("printer")))
    assert took[0] == "You took the progress card printer from Bob (the Spy)"
    assert took[1] == "Ann took the progress card printer from you (the Spy)"
    assert took[3] == "Ann took a science progress card from Bob (the Spy)"
    assert "printer" not in " ".join(shown[2:] + took[2:])  # never to a third party


def test_bots_play_the_spy_and_a_take_never_goes_over_the_progress_card_limit() -> None:
    """Seeded games of four heuristic bots (``hexlan simulate``'s): the Spy is played, and the
    player holds at most the limit less one before each take (the Spy itself left its hand), so
    no discard is ever due after one."""
    takes = 0

    def observe(state: GameState, action: A.Action) -> None:
        nonlocal takes
        if isinstance(action, DeckTake) and action.deck != NO_TAKE:
            takes += 1
            limit = state.variant.config.progress_hand  # type: ignore[union-attr]
            assert progress(state).held(state.active) <= limit - 1

    for seed in range(3):
        result = play_game(seed, ["heuristic"] * 4, game="cities-and-knights", observe=observe)
        assert result.winner is not None and max(result.victory_points) >= 13
    assert takes > 0
