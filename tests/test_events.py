"""Engine events (hexlan.engine.events): each rule reports what it did when it acts, every seat's
information state reports what that seat may know, and the narrator tells the events.

Beginner board: hex 4 is hills 6 (nodes 8, 13, 18, 23, 17, 12), hex 17 fields 6 (nodes 40, 45,
49, 52, 48, 44); see tests/test_rules_production.py.
"""

from __future__ import annotations

import random
from collections import Counter

from random_play import OPTIONS, STEP_CAP, random_step
from variant_play import board_of

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.board import beginner_board, random_board
from hexlan.engine.core import NO_SEAT, DevCard, Resource
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.net.narrate import Narrator, describe_cards, scores

LONG = (3, 0, 4, 8, 13, 18, 23, 28)  # a trail from node 3 (the longest-road tests' LONG)


def _recording(t) -> GameState:  # type: ignore[no-untyped-def]
    state: GameState = t.state
    state.record_events = True
    return state


def test_events_are_off_by_default(table) -> None:
    """A state records nothing unless asked (bots and simulations pay nothing)."""
    t = table(players=3)
    t.build(0, settlements=[12])
    assert t.state.record_events is False and t.state.last_events == []


def test_build_events_name_piece_and_place(table) -> None:
    t = table(players=3)
    s = _recording(t)
    t.build(0, roads=[t.path(12, 17)])
    t.give(0, s.rules.settlement_cost)
    s.apply(A.BuildSettlement(17))
    assert s.last_events == [E.Built(0, "settlement", 17)]
    t.give(0, s.rules.city_cost)
    s.apply(A.BuildCity(17))
    assert s.last_events == [E.Built(0, "city", 17)]


def test_a_production_roll_lists_each_seats_gains(table) -> None:
    """The same position as test_rules_production's: settlement 1, city 2; the dice come first."""
    t = table(players=3)
    t.build(0, settlements=[12])
    t.build(1, cities=[13])
    t.build(2, settlements=[44])
    t.at_roll(0)
    s = _recording(t)
    t.roll(3, 3)
    assert s.last_events == [
        E.DiceRolled(0, 3, 3),
        E.Produced(6, ((0, 1, 0, 0, 0), (0, 2, 0, 0, 0), (0, 0, 0, 1, 0))),
    ]


def test_a_seven_lists_the_discards_due_and_each_discard(table) -> None:
    t = table(players=4)
    t.build(0, settlements=[12])
    t.give(0, t.hand(lumber=5, brick=4))
    t.give(1, t.hand(wool=3, grain=3, ore=2))
    t.at_roll(0)
    s = _recording(t)
    t.roll(3, 4)
    assert s.last_events == [E.DiceRolled(0, 3, 4), E.DiscardsDue((4, 4, 0, 0))]
    t.play(A.Discard(1, t.hand(wool=2, ore=2)))
    assert s.last_events == [E.Discarded(1, t.hand(wool=2, ore=2))]
    assert s.last_events[0].count == 4  # type: ignore[union-attr]


def test_robber_and_steal(table) -> None:
    t = table(players=4)
    t.build(0, settlements=[12])
    t.build(1, settlements=[13])
    t.give(1, t.hand(grain=1, ore=2))
    t.at_roll(0)
    s = _recording(t)
    t.roll(3, 4)
    t.play(A.MoveRobber(4, 1))
    assert s.last_events == [E.RobberMoved(0, 4, 1)]
    t.play(A.StealCard(Resource.ORE))
    assert s.last_events == [E.Stole(0, 1, Resource.ORE)]


def test_longest_road_moving_names_from_and_to(table) -> None:
    """The award goes to the first 5-segment road; its event names from (-1: nobody) and to."""
    t = table(players=3)
    t.build(0, settlements=[3])
    s = t.state
    t.build(0, roads=t.trail(*LONG[:5]))  # 4 segments
    s.record_events = True
    t.give(0, s.rules.road_cost)
    s.active = 0
    s.apply(A.BuildRoad(t.path(LONG[4], LONG[5])))
    assert E.AwardMoved("longest_road", NO_SEAT, 0, 5) in s.last_events
    assert s.last_events[0] == E.Built(0, "road", t.path(LONG[4], LONG[5]))


def test_largest_army_moving(table) -> None:
    t = table(players=3)
    s = _recording(t)
    s.knights[1] = 3
    s.largest_army_holder = 1
    s.public_vp[1] += 2
    s.knights[0] = 3
    t.give_dev(0, DevCard.KNIGHT)
    t.play(A.PlayKnight())
    assert s.last_events == [
        E.CardPlayed(0, DevCard.KNIGHT),
        E.AwardMoved("largest_army", 1, 0, 4),
    ]


def test_cards_trades_turns(table) -> None:
    t = table(players=3)
    s = _recording(t)
    t.give(0, s.rules.development_card_cost)
    t.play(A.BuyDevelopmentCard())
    assert s.last_events == [E.CardBought(0)]
    t.play(A.DrawCard(DevCard.MONOPOLY))
    assert s.last_events == [E.CardDrawn(0, DevCard.MONOPOLY)]
    t.give(0, t.hand(lumber=4))
    t.play(A.MaritimeTrade(t.hand(lumber=4), Resource.ORE))
    assert s.last_events == [E.Traded(0, NO_SEAT, t.hand(lumber=4), t.hand(ore=1), 4)]
    t.play(A.EndTurn())
    assert s.last_events == [E.TurnStarted(1, 2)]


def _random_game_with_views(seed: int) -> tuple[Counter[str], list[tuple[int, str]]]:
    """A random game, every seat's view and the full state recording events; checks that each
    view's events are the full state's with only hidden cards left out. Returns counts of the
    event kinds seen and seat 0's narration of each roll."""
    rng = random.Random(seed)
    board = random_board(rng)
    options = OPTIONS[seed % len(OPTIONS)]
    state = GameState(board, 3, options)
    views = [InformationState(board, 3, s, options) for s in range(3)]
    narrator = Narrator(board, ("You", "Blue", "Green"), 0, options)
    for x in (state, *views):
        x.record_events = True
    seen: Counter[str] = Counter()
    rolls: list[tuple[int, str]] = []
    for _ in range(STEP_CAP):
        if state.is_over:
            break
        action = random_step(state, rng)
        observed = state.observation(action, 0)
        advance_views(state, views, action)
        told = narrator.narrate(observed)
        assert narrator.state.last_events == views[0].last_events
        full = state.last_events
        for view in views:
            if any(isinstance(e, E.TurnEnded) for e in full) and view.seat != state.active:
                continue  # a win at the turn's end may rest on cards this seat cannot see
            assert [type(e) for e in view.last_events] == [type(e) for e in full]
            for mine, truth in zip(view.last_events, full, strict=True):
                if isinstance(truth, E.Stole):
                    assert isinstance(mine, E.Stole)
                    knows = view.seat in (truth.thief, truth.victim)
                    assert mine == (truth if knows else E.Stole(truth.thief, truth.victim, None))
                elif isinstance(truth, E.CardDrawn):
                    assert mine in (truth, E.CardDrawn(truth.seat, None))
                    if view.seat != truth.seat:
                        assert mine == E.CardDrawn(truth.seat, None)
                else:
                    assert mine == truth
        for ev in full:
            seen[type(ev).__name__] += 1
            if isinstance(ev, E.Stole) and 0 not in (ev.thief, ev.victim):
                assert ":" not in told.text  # a card between two others is never named
            if isinstance(ev, E.AwardMoved) and ev.to_seat >= 0:
                award = "Longest Road" if ev.award == "longest_road" else "Largest Army"
                assert f"{narrator.who(ev.to_seat)} take" in told.text and award in told.text
        if isinstance(action, A.Dice) and action.total != 7:
            rolls.append((action.total, told.text))
            produced = [ev for ev in full if isinstance(ev, E.Produced)]
            if produced:
                for s, gain in enumerate(produced[0].gains):
                    if any(gain):
                        name = narrator.whom(s)
                        verb = "get" if s == 0 else "gets"
                        assert f"{name} {verb} {describe_cards(gain)}" in told.text
            else:
                assert "nobody gets anything" in told.text
    return seen, rolls


def test_views_see_the_full_states_events_less_hidden_cards() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        counts, rolls = _random_game_with_views(seed)
        seen += counts
        assert rolls
    for kind in ("Built", "Produced", "DiceRolled", "Stole", "Discarded", "TurnStarted"):
        assert seen[kind], kind


def test_narrator_scores_are_the_engines() -> None:
    """scores() totals are the engine's own count (GameState.victory_points / public_vp)."""
    view = InformationState(beginner_board(), 3, 0)
    view.apply(A.StartPlayer(0))
    for node in (12, 44):  # seat 0's then seat 1's first settlement and road
        view.apply(A.BuildSettlement(node))
        view.apply(A.BuildRoad(view.topology.node_paths[node][0]))
    totals = [sc.total for sc in scores(view, ("You", "Blue", "Green"), 0)]
    assert totals == [view.victory_points(0), view.public_vp[1], view.public_vp[2]]


def test_jungle_discoveries_come_from_the_variants_hook(table) -> None:
    """The Jungle's hook reports its discoveries, before the roll's production (as
    test_rules_jungle's first position)."""
    rules = load_ruleset("jungle")
    t = table(
        players=3,
        options=GameOptions.of(jungle_robber_blocks=False),
        board=board_of(rules),
        rules=rules,
    )
    t.build(0, settlements=[18])
    t.build(1, cities=[30])
    t.build(2, settlements=[3])
    t.at_roll(0)
    s = _recording(t)
    t.roll(4, 6)
    assert s.last_events == [
        E.DiceRolled(0, 4, 6),
        E.Discovered(10, (1, 2, 0)),
        E.Produced(10, ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (0, 0, 0, 0, 1))),
    ]
