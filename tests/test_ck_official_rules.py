"""Two Cities & Knights readings made official by default (an outside rules audit): any number
of monopolies a turn (official; seed 002 «За один ход можно играть сколько угодно карточек»),
and a Printer or Constitution shown at once when drawn, never held (official: «must be played
immediately», even out of turn); each old reading is a named option
(docs/rules/cities-and-knights.md, "Options")."""

from __future__ import annotations

import pytest
from test_cities_knights import give, progress, rejected, step, with_views
from test_progress_cards import card, holding

from hexlan.engine import actions as A
from hexlan.engine.core import IllegalActionError, Phase, Resource
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.shown import DeckShown
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights.actions import (
    SCIENCE,
    EventDie,
    KnightsPhase,
    PlayProgress,
    PointShown,
    ProgressDrawn,
)
from hexlan.net.wire import ProtocolError, validate_payload

ONE_MONOPOLY = GameOptions.of(ck_one_monopoly_per_turn=True)
IN_HAND = GameOptions.of(ck_point_cards_in_hand=True)
SCIENCE_GATE = 6
"""The event die's face of the science gate."""


def _with_two_monopolies(options: GameOptions | None = None) -> tuple[GameState, PlayProgress]:
    state, _ = holding("resource_monopoly", options=options)
    trade = card("trade_monopoly")
    progress(state).cards[0].append(trade)
    progress(state).pool[trade[0]][trade[1]] -= 1
    give(state, 1, ore=3, coin=2)
    give(state, 2, ore=1, coin=1)
    return state, PlayProgress(trade[0], trade[1], Resource.COIN)


def test_two_monopolies_in_one_turn_each_take_their_cards() -> None:
    """Official: no limit on the progress cards played a turn, monopolies included."""
    state, trade = _with_two_monopolies()
    track, face = card("resource_monopoly")
    state.play(PlayProgress(track, face, Resource.ORE))
    state.play(state.chance_outcomes()[0][0])
    assert state.hands[0][Resource.ORE] == 3 and state.phase is Phase.MAIN
    assert trade in state.legal_actions()
    state.play(trade)
    assert state.phase is Phase.MONOPOLY and state.monopoly_cap == 1
    assert state.chance_outcomes() == [(A.MonopolyTake((0, 1, 1, 0)), 1.0)]
    state.play(A.MonopolyTake((0, 1, 1, 0)))
    assert state.hands[0][Resource.COIN] == 2
    assert state.hands[1][Resource.COIN] == 1 and state.hands[2][Resource.COIN] == 0


def test_the_option_allows_one_monopoly_a_turn() -> None:
    state, trade = _with_two_monopolies(ONE_MONOPOLY)
    track, face = card("resource_monopoly")
    state.play(PlayProgress(track, face, Resource.ORE))
    state.play(state.chance_outcomes()[0][0])
    assert trade not in state.legal_actions()
    rejected(state, trade, "one monopoly a turn")


def _draw_science(
    options: GameOptions | None, held: tuple[str, ...] = ()
) -> tuple[GameState, list[InformationState]]:
    """Seat 1 (science 5: every red die) holds ``held`` (seen by itself) and draws the next
    science card on seat 0's roll: the state just before the draw's outcome."""
    state, views = with_views(options=options)
    for game in (state, *views):
        progress(game).levels[1][SCIENCE] = 5
    for name in held:
        track, face = card(name)
        for game in (state, views[1]):
            progress(game).cards[1].append((track, face))
            progress(game).pool[track][face] -= 1
        for view in (views[0], views[2], views[3]):
            progress(view).unknown[1][track] += 1
    step(state, views, A.ROLL)
    step(state, views, A.Dice(1, 2))
    step(state, views, EventDie(SCIENCE_GATE))
    assert state.phase is KnightsPhase.PROGRESS
    return state, views


def test_a_drawn_printer_is_shown_at_once_and_never_held() -> None:
    """Official: played immediately when drawn, even out of turn (seat 1 draws on seat 0's
    roll); it never counts toward the limit of 4, and the Spy never finds it."""
    held = ("crane", "smith", "mining", "medicine")
    state, views = _draw_science(None, held)
    printer = card("printer")
    vp = state.victory_points(1)
    step(state, views, ProgressDrawn(printer[1]))
    assert state.phase is KnightsPhase.POINT_SHOW
    node = state.chance_node()
    assert node is not None and (node.kind, node.event, node.seats) == ("reveal", "point", (1,))
    shown = PointShown(1, SCIENCE, printer[1], 1)
    assert state.chance_outcomes() == [(shown, 1.0)]
    assert views[1].chance_outcomes() == [(shown, 1.0)]  # the drawer knows its card
    others = [o for o, _ in views[0].chance_outcomes()]  # the others do not
    assert others == [shown, PointShown(1, SCIENCE, -1, 1)]
    with pytest.raises(IllegalActionError, match="not a possible outcome"):  # the audit's check
        state.check(PointShown(1, SCIENCE, -1, 1))  # a drawer withholding it is refused
    step(state, views, shown)
    assert state.victory_points(1) == vp + 1 and views[0].victory_points(1) == vp + 1
    assert progress(state).held(1) == 4  # five drawn, four held: no discard
    assert state.phase is not KnightsPhase.PROGRESS_DISCARD
    assert printer not in progress(state).cards[1]
    assert all(
        f != printer[1] for t, f in DeckShown(1, tuple(progress(state).cards[1])).cards or ()
    )
    rejected(state, PlayProgress(*printer), "holds no printer")


def test_a_drawn_card_that_is_no_point_card_is_shown_as_none() -> None:
    state, views = _draw_science(None)
    step(state, views, ProgressDrawn(card("crane")[1]))
    assert state.chance_outcomes() == [(PointShown(1, SCIENCE, -1, 1), 1.0)]
    step(state, views, PointShown(1, SCIENCE, -1, 1))
    assert progress(state).cards[1] == [card("crane")]
    assert progress(views[0]).unknown[1][SCIENCE] == 1


def test_the_option_holds_a_drawn_printer_in_the_hand() -> None:
    """``ck_point_cards_in_hand``: no show; the printer is held, counts toward the limit and is
    played in the holder's main phase."""
    held = ("crane", "smith", "mining", "medicine")
    state, views = _draw_science(IN_HAND, held)
    printer = card("printer")
    step(state, views, ProgressDrawn(printer[1]))
    assert state.phase is KnightsPhase.PROGRESS_DISCARD and state.current_player() == 1
    assert printer in progress(state).cards[1]


def test_a_count_names_its_monopoly_within_the_turn_on_the_wire() -> None:
    """PROTOCOL.md §5: ``[turn, n]`` for a turn's first Monopoly (the base game's bytes),
    ``[turn, n, k]`` for the k-th further one; 0 is never written."""
    validate_payload("count", (3, 2))
    validate_payload("count", (3, 2, 1))
    with pytest.raises(ProtocolError):
        validate_payload("count", (3, 2, 0))
