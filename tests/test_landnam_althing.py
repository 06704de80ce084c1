"""The Althing on a 7 (../shared/landnam-rules.md §8, §14; gaps G14, G19): the opening window for
Althing cards, the outlaws' removal, the appointment, the lawsuit round, which suits may be
brought, the card auction with its invites, the tokens, and the Althing cards.

Each test poses a small board through the state's fields (hexes and markers out of their stocks,
units out of the reserves, cards out of the stock and the fate deck), then reaches the Althing by
the real roll of a 7 (:func:`seven`) and plays it through ``play``, so every action is checked.

The board used throughout (positions by number, radius 2):

- 4 ``(0,-1)`` field (grain) 8, corners 2, 9, 18, 19, 14, 3;
- 8 ``(-1,0)`` sea with a wool harbour, corners 14, 19, 29, 30, 25, 15;
- 9 the centre mountain, corners 18, 21, 31, 32, 29, 19;
- 10 ``(1,0)`` woodland (timber) 5, corners 20, 24, 33, 34, 31, 21;
- 14 ``(0,1)`` pasture (wool) 6, corners 31, 34, 43, 44, 41, 32.

Corner 19 touches 4, 8 and 9; corner 31 touches 9, 10 and 14; corner 2 touches 4 alone of these.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from landnam_helpers import refused

from hexlan.engine import actions as A
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.althing import suits
from hexlan.engine.variants.landnam.parts import Unit
from hexlan.engine.variants.landnam.phases import (
    ALTHING_OPEN,
    APPOINT,
    CASE,
    DRAW,
    INVITED,
    MOVE,
    ROLL,
    SUING,
)
from hexlan.engine.variants.landnam.rules import Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState, new_game

GRAIN, TIMBER, WOOL, IRON = range(4)
FIELD, SEA, MOUNTAIN, WOOD, PASTURE = 4, 8, 9, 10, 14
FILLER = (Fate.LANDING, Fate.FAIR_WIND, Fate.LANDING, Fate.FAIR_WIND, Fate.LANDING)
"""Faces the 7's draws hand out unless a test says otherwise: Movement cards, no Althing card."""


def table(players: int = 4, active: Seat = 0) -> LandnamState:
    """``players`` seats about to roll in ``active``'s turn, the set-up done with no fate card
    dealt, and the board of the module's docstring explored (no unit or building on it)."""
    state = new_game("landnam", players)
    state.active = state.start = active
    state.turn = 1
    state.moved = [True] * players
    state.phase = ROLL
    for position, terrain, number in (
        (FIELD, Land.FIELD, 8),
        (SEA, Land.SEA, 0),
        (WOOD, Land.WOODLAND, 5),
        (PASTURE, Land.PASTURE, 6),
    ):
        state.terrain_stock[terrain] -= 1
        state.terrain[position] = terrain
        if number:
            state.marker_stock[number] -= 1
            state.numbers[position] = number
    state.harbour_stock[WOOL] -= 1
    state.harbours[SEA] = WOOL
    return state


def unit(
    state: LandnamState,
    seat: Seat,
    at: int,
    ship: bool = False,
    tokens: Iterable[tuple[Seat, int]] = (),
) -> int:
    """A unit of ``seat`` out of its reserve onto ``at``; its number."""
    if ship:
        state.ships[seat] -= 1
    else:
        state.settlers[seat] -= 1
    state.units.append(Unit(seat, ship, at, list(tokens)))
    return len(state.units) - 1


def farm(state: LandnamState, seat: Seat, *corners: int) -> None:
    """Farms of ``seat`` on ``corners``, out of its reserve of houses."""
    for corner in corners:
        state.buildings[corner] = (seat, False)
        state.houses[seat] -= 1


def cards(state: LandnamState, seat: Seat, kind: int, count: int) -> None:
    """``seat`` holds ``count`` cards of ``kind``, the difference taken from or given to the stock."""
    state.stock[kind] -= count - state.hands[seat][kind]
    state.hands[seat][kind] = count


def deal(state: LandnamState, seat: Seat, face: Fate) -> None:
    """``seat`` holds one more fate card of ``face``, out of the deck."""
    state.unseen[face] -= 1
    state.deck_size -= 1
    state.fate[seat][face] += 1


def seven(state: LandnamState, faces: Iterable[Fate] = FILLER) -> None:
    """The active seat rolls a 7 and the 7's fate draws are resolved with ``faces`` in order."""
    state.play(A.ROLL)
    state.play(A.Dice(3, 4))
    drawn = iter(faces)
    while state.phase == DRAW:
        node = state.chance_node()
        assert node is not None
        state.play(L.DrawFate(node.seats[0], next(drawn), False))


def pass_window(state: LandnamState) -> None:
    """Every seat of the opening window plays no card."""
    while state.phase == ALTHING_OPEN:
        state.play(L.Pass(state.current_player()))


def to_round(state: LandnamState, first: Seat | None = None) -> None:
    """Roll a 7, pass the window, and appoint ``first`` (the next seat by default)."""
    seven(state)
    pass_window(state)
    state.play(L.Appoint(state.next_seat(state.active) if first is None else first))


def seats_in_turn(state: LandnamState) -> list[Seat]:
    """The seats that bring their cases, in order, each bringing none."""
    order = []
    while state.phase == SUING:
        seat = state.current_player()
        order.append(seat)
        state.play(L.Pass(seat))
    return order


# --- the fate draws, the opening window and the outlaws (§8.1-8.2) -------------------------


def test_the_window_asks_every_seat_holding_a_fate_card_from_the_active_seat() -> None:
    """§8.2, §8.7: after the 7's draws (§8.1) every seat holds a card, and the window asks them
    from the active seat clockwise; a seat passing leaves it."""
    state = table(4, active=2)
    deal(state, 0, Fate.LANDING)
    seven(state)
    assert state.phase == ALTHING_OPEN
    asked = []
    while state.phase == ALTHING_OPEN:
        seat = state.current_player()
        asked.append(seat)
        assert state.acting_seats() == (seat,)
        assert state.legal_actions() == [L.Pass(seat)]
        state.play(L.Pass(seat))
    assert asked == [2, 3, 0, 1]
    assert state.phase == APPOINT


def test_the_window_skips_seats_holding_no_fate_card() -> None:
    """§8.2: with the deck and the discards empty (gap G18: no draw), only the seats that hold a
    fate card are asked."""
    state = table(4, active=0)
    deal(state, 2, Fate.ATONEMENT)
    state.discard = [0] * len(state.unseen)
    state.fate[3] = list(state.unseen)  # every other card sits in seat 3's hand
    state.unseen = [0] * len(state.unseen)
    state.deck_size = 0
    seven(state, ())
    assert state.fate_count(0) == state.fate_count(1) == 0
    asked = []
    while state.phase == ALTHING_OPEN:
        asked.append(state.current_player())
        state.play(L.Pass(asked[-1]))
    assert asked == [2, 3]


def test_outlaws_leave_the_board_and_their_red_tokens_score() -> None:
    """§8.2, §14: every outlaw is removed when the Althing opens (its unit back to the reserve,
    gap G11), each red token a point to the seat it points at; units without a token stay."""
    state = table(4)
    farm(state, 0, 19)
    farm(state, 2, 2)
    outlaw = unit(state, 1, FIELD, tokens=[(0, 19), (2, 2)])
    honest = unit(state, 3, WOOD)
    reserve = state.settlers[1]
    seven(state)
    pass_window(state)
    assert state.units[outlaw] is None
    assert state.units[honest] is not None
    assert state.settlers[1] == reserve + 1
    assert [t[1] for t in state.tokens] == [1, 0, 1, 0]
    assert state.victory_points(0) == 2  # the farm and the red token


def test_atonement_in_the_window_saves_an_outlaw() -> None:
    """§8.2, §16.2 Atonement: a seat removes a red token before the outlaws go; the unit, left
    with none, is no longer outlawed and stays; the token goes to the supply, to nobody."""
    state = table(4)
    farm(state, 0, 19)
    outlaw = unit(state, 1, FIELD, tokens=[(0, 19)])
    deal(state, 3, Fate.ATONEMENT)
    seven(state)
    while state.current_player() != 3:
        state.play(L.Pass(state.current_player()))
    atonement = L.PlayFate(3, Fate.ATONEMENT, outlaw, 0)
    assert atonement in state.legal_actions()
    state.play(atonement)
    assert state.units[outlaw] is not None and not state.unit(outlaw).outlaw
    assert state.discard[Fate.ATONEMENT] == 1 and state.fate[3][Fate.ATONEMENT] == 0
    pass_window(state)
    assert state.units[outlaw] is not None
    assert state.tokens[0] == [0, 0, 0]


def test_only_cards_that_remove_red_tokens_are_played_before_the_outlaws_go() -> None:
    """§8.2: "Althing fate cards that remove red tokens may be played before this happens": in
    the window Thing broken up (which would save every outlaw without removing a token) and
    Flawed pleading (no case is in progress) are refused; Thing broken up is played later."""
    state = table(4)
    farm(state, 0, 19)
    outlaw = unit(state, 1, FIELD, tokens=[(0, 19)])
    deal(state, 0, Fate.THING_BROKEN_UP)
    deal(state, 0, Fate.FLAWED_PLEADING)
    seven(state)
    assert state.current_player() == 0
    refused(state, L.PlayFate(0, Fate.THING_BROKEN_UP), "§16.1")
    refused(state, L.PlayFate(0, Fate.FLAWED_PLEADING), "§16.1")
    pass_window(state)
    assert state.units[outlaw] is None and state.tokens[0][1] == 1
    state.play(L.Appoint(0))
    assert L.PlayFate(0, Fate.THING_BROKEN_UP) in state.legal_actions()
    assert L.PlayFate(0, Fate.FLAWED_PLEADING) not in state.legal_actions()


# --- the appointment and the lawsuit round (§8.4) -----------------------------------------


@pytest.mark.parametrize(
    ("active", "first", "order"), [(0, 1, [1, 2, 3, 0]), (1, 1, [1, 2, 3, 0]), (2, 0, [0, 1, 2, 3])]
)
def test_the_lawsuit_round_goes_once_clockwise_from_the_appointed_seat(
    active: Seat, first: Seat, order: list[Seat]
) -> None:
    """§8.4: the active seat names any seat to start; the round then goes once clockwise and
    the movement phase follows (§8.7)."""
    state = table(4, active=active)
    seven(state)
    pass_window(state)
    assert state.current_player() == active
    assert state.legal_actions() == [L.Appoint(s) for s in range(4)]
    state.play(L.Appoint(first))
    assert seats_in_turn(state) == order
    assert state.phase == MOVE and state.althing is None


# --- which suits may be brought (§8.3, gap G19) ------------------------------------------


def test_suits_against_settlers_on_numbered_land_and_ships_on_harbours() -> None:
    """§8.3: a settler on numbered producing land, or a ship on a harbour hex, beside the
    plaintiff's settlement may be sued, for that land's or harbour's resource; a settler on a
    mountain, a ship on a sea hex without a harbour, the plaintiff's own unit, a unit far from
    its settlements, and a unit whose red token points at the plaintiff may not."""
    state = table(4)
    farm(state, 0, 19, 31)
    on_field = unit(state, 1, FIELD)
    unit(state, 1, MOUNTAIN)
    on_harbour = unit(state, 2, SEA, ship=True)
    unit(state, 0, WOOD)
    unit(state, 3, PASTURE, tokens=[(0, 31)])
    state.terrain_stock[Land.FIELD] -= 1
    state.terrain[0], state.numbers[0] = Land.FIELD, 9  # (0,-2): no settlement of seat 0 there
    state.marker_stock[9] -= 1
    unit(state, 3, 0)
    to_round(state, first=0)
    found = {number: (kind, corners) for number, kind, corners in suits(state, 0)}
    assert found == {on_field: (GRAIN, [19]), on_harbour: (WOOL, [19])}
    sues = {(a.unit, a.corner) for a in state.legal_actions() if isinstance(a, L.Sue)}
    assert sues == {(on_field, 19), (on_harbour, 19)}


def test_a_ship_ashore_is_sued_as_a_settler() -> None:
    """§9.4, §8.3: a ship come ashore is a settler for every purpose but moving: it is sued for
    the resource of the land it stands on."""
    state = table(4)
    farm(state, 0, 19)
    ashore = unit(state, 1, FIELD, ship=True)
    to_round(state, first=0)
    assert suits(state, 0) == [(ashore, GRAIN, [19])]


def test_sue_offers_every_corner_and_opening_the_plaintiff_can_pay() -> None:
    """§8.3, §8.5.1, §8.5.5: the plaintiff opens with at least one card of the case's resource,
    as many as it holds, naming one of its settlements at the unit's hex; an opening of none or
    of more than it holds, or for another resource's hex, is refused."""
    state = table(4)
    farm(state, 0, 19, 2)
    target = unit(state, 1, FIELD)
    cards(state, 0, GRAIN, 3)
    to_round(state, first=0)
    sues = {(a.corner, a.cards) for a in state.legal_actions() if isinstance(a, L.Sue)}
    assert sues == {(c, n) for c in (2, 19) for n in (1, 2, 3)}
    refused(state, L.Sue(0, target, 19, 0), "§8.5.1")
    refused(state, L.Sue(0, target, 19, 4), "§8.5.1")
    refused(state, L.Sue(0, target, 31, 1), "§8.3")


def test_one_case_per_plaintiff_and_unit_but_several_plaintiffs_may_sue_it() -> None:
    """§8.3, gap G19: a plaintiff brings one case against a unit in an Althing; another
    plaintiff with a settlement at the hex may sue it too, so the unit collects two red
    tokens, each pointing at its own plaintiff's settlement."""
    state = table(4)
    farm(state, 0, 19)
    farm(state, 2, 2)
    target = unit(state, 1, FIELD)
    cards(state, 0, GRAIN, 2)
    cards(state, 2, GRAIN, 2)
    cards(state, 1, GRAIN, 0)
    to_round(state, first=0)
    state.play(L.Sue(0, target, 19, 1))
    state.play(L.Bid(1, 0))  # the defence holds no grain and loses
    assert state.phase == SUING and state.current_player() == 0
    assert suits(state, 0) == []
    refused(state, L.Sue(0, target, 19, 1), "§8.3")
    state.play(L.Pass(0))
    assert state.current_player() == 1
    state.play(L.Pass(1))
    assert suits(state, 2) == [(target, GRAIN, [2])]
    state.play(L.Sue(2, target, 2, 1))
    state.play(L.Bid(1, 0))
    assert state.unit(target).tokens == [(0, 19), (2, 2)]
    assert [t[0] for t in state.tokens] == [1, 0, 1, 0]


# --- the auction (§8.5) -------------------------------------------------------------------


def sued(players: int = 4, opening: int = 2) -> tuple[LandnamState, int]:
    """Seat 0 (farms on corners 19 and 2) has sued seat 1's settler on the grain field 4 with
    ``opening`` grain, naming corner 2; seat 0 holds 3 grain more, seat 1 four, seat 2 three,
    seat 3 none (seats past 3 two); the defence acts."""
    state = table(players)
    farm(state, 0, 19, 2)
    target = unit(state, 1, FIELD)
    for seat, count in enumerate((opening + 3, 4, 3, 0, 2)[:players]):
        cards(state, seat, GRAIN, count)
    to_round(state, first=0)
    state.play(L.Sue(0, target, 2, opening))
    return state, target


def test_each_raise_must_bring_the_side_above_the_other() -> None:
    """§8.5.2: the defence must pay more than the plaintiff's total; a bid that only ties, or
    of cards it does not hold, is refused; a raise passes the turn to the other side, which
    must exceed again."""
    state, _ = sued(opening=2)
    assert state.phase == CASE and state.current_player() == 1
    bids = sorted(a.cards for a in state.legal_actions() if isinstance(a, L.Bid))
    assert bids == [0, 3, 4]
    error = refused(state, L.Bid(1, 2), "§8.5.2")
    assert "at least 3" in error.reason
    refused(state, L.Bid(1, 5), "§8.5")
    state.play(L.Bid(1, 3))
    assert state.current_player() == 0
    assert sorted(a.cards for a in state.legal_actions() if isinstance(a, L.Bid)) == [0, 2, 3]
    refused(state, L.Bid(0, 1), "§8.5.2")


def test_a_losing_defence_is_outlawed_and_every_card_paid_goes_to_the_stock() -> None:
    """§8.5.3, §8.5.5-6: the side that will not raise loses; the plaintiff (the winning side's
    last joiner) takes the white token, the unit a red token pointing at the corner the
    plaintiff named; both sides' cards go to the stock."""
    state, target = sued(opening=2)
    stock = state.stock[GRAIN]
    state.play(L.Bid(1, 3))
    state.play(L.Bid(0, 2))
    state.play(L.Bid(1, 0))
    assert state.phase == SUING
    assert state.tokens[0] == [1, 0, 0] and state.tokens[1] == [0, 0, 0]
    assert state.unit(target).tokens == [(0, 2)]
    assert state.hands[0][GRAIN] == 1 and state.hands[1][GRAIN] == 1
    assert state.stock[GRAIN] == stock + 5


def test_a_winning_defence_takes_the_white_token_and_stays_free() -> None:
    """§8.5.3: the plaintiff's side not raising loses: the defendant takes the white token and
    no red token is placed; the opening stays spent (§8.5.6)."""
    state, target = sued(opening=2)
    state.play(L.Bid(1, 3))
    state.play(L.Bid(0, 0))
    assert state.tokens[1] == [1, 0, 0] and state.tokens[0] == [0, 0, 0]
    assert not state.unit(target).outlaw
    assert state.hands[0][GRAIN] == 3


def test_invites_go_to_uninvolved_seats_holding_the_resource() -> None:
    """§8.5.4: the acting side's last joiner may invite a seat on neither side that holds a
    card of the case's resource; an involved seat or one holding none is refused."""
    state, _ = sued()
    invites = {a.guest for a in state.legal_actions() if isinstance(a, L.Invite)}
    assert invites == {2}
    refused(state, L.Invite(1, 0), "§8.5.4")
    refused(state, L.Invite(1, 3), "§8.5.4")
    refused(state, L.Invite(1, 1), "§8.5.4")


def test_a_side_acts_from_its_last_joiner_back_and_only_the_last_joiner_invites() -> None:
    """§8.5.4: the guest joins with at least one card; below the other side it acts first for
    its side, as the last joiner; a member passing hands the turn to the one who joined before,
    who may raise but not invite; the last member passing loses the case."""
    state, target = sued(players=5, opening=3)
    state.play(L.Invite(1, 2))
    assert state.phase == INVITED and state.current_player() == 2
    assert state.legal_actions() == [L.Join(2, n) for n in range(4)]
    state.play(L.Join(2, 1))  # defence 1 against 3: the defence still acts, its guest first
    assert state.phase == CASE and state.current_player() == 2
    assert L.Invite(2, 4) in state.legal_actions()
    state.play(L.Bid(2, 0))
    assert state.current_player() == 1
    assert not any(isinstance(a, L.Invite) for a in state.legal_actions())
    refused(state, L.Invite(1, 4), "§8.5.4")
    refused(state, L.Bid(1, 2), "§8.5.2")  # 1 + 2 only ties the plaintiff's 3
    state.play(L.Bid(1, 0))
    assert state.phase == SUING
    assert state.tokens[0][0] == 1 and state.unit(target).tokens == [(0, 2)]
    assert state.hands[2][GRAIN] == 2


def test_the_winning_sides_last_joiner_takes_the_white_token() -> None:
    """§8.5.4: a guest who joins the winning defence, as its last joiner, takes the white token;
    the defendant takes none and no red token is placed."""
    state, target = sued(opening=2)
    state.play(L.Invite(1, 2))
    state.play(L.Join(2, 3))  # defence 3 against 2: the plaintiff's turn
    assert state.current_player() == 0
    state.play(L.Bid(0, 0))
    assert [t[0] for t in state.tokens] == [0, 0, 1, 0]
    assert not state.unit(target).outlaw


def test_a_helper_of_the_plaintiff_takes_the_white_token_the_plaintiff_the_red() -> None:
    """§8.5.4-5: when the plaintiff's side wins with a helper, the helper (the last joiner) takes
    the white token, and the red token still points at the plaintiff's named settlement."""
    state, target = sued(players=5, opening=1)
    state.play(L.Bid(1, 2))
    assert state.current_player() == 0
    state.play(L.Invite(0, 4))
    state.play(L.Join(4, 2))  # plaintiff's side 3 against 2: the defence's turn
    assert state.current_player() == 1
    state.play(L.Bid(1, 0))
    assert [t[0] for t in state.tokens] == [0, 0, 0, 0, 1]
    assert state.unit(target).tokens == [(0, 2)]


def test_a_declining_guest_is_not_asked_again_in_the_case() -> None:
    """§8.5.4: an invited seat joins with at least one card or declines; once declined it is no
    longer among the seats the side may invite, and a join by a seat not invited is refused."""
    state, _ = sued()
    state.play(L.Invite(1, 2))
    refused(state, L.Join(0, 1), "landnam §5")  # only the invited seat answers
    state.play(L.Join(2, 0))
    assert state.phase == CASE and state.current_player() == 1
    assert not any(isinstance(a, L.Invite) for a in state.legal_actions())
    refused(state, L.Join(1, 1), "§8.5.4")  # the defendant is involved, not invited
    assert state.hands[2][GRAIN] == 3


# --- Althing cards in the round (§8.7, §16.2) ----------------------------------------------


def test_flawed_pleading_voids_the_case_in_progress() -> None:
    """§8.7, §16.2 Flawed pleading: the case ends with no token, the cards paid stay spent, and
    the plaintiff may not bring it again in this Althing."""
    state, target = sued(opening=2)
    deal(state, 1, Fate.FLAWED_PLEADING)
    stock = state.stock[GRAIN]
    state.play(L.Bid(1, 3))
    refused(state, L.PlayFate(1, Fate.FLAWED_PLEADING), "landnam §5")  # not seat 1's decision
    state.play(L.Bid(0, 2))
    state.play(L.PlayFate(1, Fate.FLAWED_PLEADING))
    assert state.phase == SUING and state.current_player() == 0
    assert all(t == [0, 0, 0] for t in state.tokens)
    assert not state.unit(target).outlaw
    assert state.stock[GRAIN] == stock + 5 and state.hands[1][GRAIN] == 1
    assert suits(state, 0) == []


def test_thing_broken_up_ends_the_althing_keeping_tokens_won() -> None:
    """§8.7, §16.2 Thing broken up: the case in progress ends with no token, tokens of finished
    cases are kept, and no black token is given though seat 1 had three suits untried."""
    state = table(4)
    farm(state, 0, 19, 31)
    farm(state, 2, 2)
    first = unit(state, 3, FIELD)
    for at in (WOOD, PASTURE):
        unit(state, 1, at)
    unit(state, 1, SEA, ship=True)
    cards(state, 0, GRAIN, 2)
    cards(state, 3, GRAIN, 0)
    cards(state, 2, GRAIN, 1)
    cards(state, 1, GRAIN, 0)
    deal(state, 3, Fate.THING_BROKEN_UP)
    to_round(state, first=0)
    assert state.althing is not None and len(state.althing.possible[1]) == 3
    state.play(L.Sue(0, first, 19, 1))
    state.play(L.Bid(3, 0))
    state.play(L.Pass(0))
    state.play(L.Pass(1))
    state.play(L.Sue(2, first, 2, 1))
    assert state.current_player() == 3
    state.play(L.PlayFate(3, Fate.THING_BROKEN_UP))
    assert state.phase == MOVE and state.althing is None
    assert state.unit(first).tokens == [(0, 19)]
    assert state.tokens == [[1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert state.hands[2][GRAIN] == 0


# --- black tokens (§8.6, gap G14) ---------------------------------------------------------


def black_table(settlers: int, outlaw: bool = False) -> tuple[LandnamState, int]:
    """Seat 1 has units that seat 0 (farms on 19 and 31) and seat 2 (a farm on 2) could sue:
    a settler on the field (two plaintiffs), then ``settlers - 1`` more on the woodland and
    the pasture; with ``outlaw``, a ship on the wool harbour, outlawed by seat 3, that seat 0
    could sue. Returns the state and the settler on the field."""
    state = table(4)
    farm(state, 0, 19, 31)
    farm(state, 2, 2)
    farm(state, 3, 25)
    field = unit(state, 1, FIELD)
    for at in (WOOD, PASTURE)[: settlers - 1]:
        unit(state, 1, at)
    if outlaw:
        unit(state, 1, SEA, ship=True, tokens=[(3, 25)])
    return state, field


@pytest.mark.parametrize(
    ("settlers", "outlaw", "sue", "black"),
    [
        (2, False, False, True),  # three pairs on two units: the pairs count (G14)
        (1, False, False, False),  # two pairs
        (2, False, True, False),  # three pairs, one tried
        (1, True, False, False),  # the outlaw's suit went with it before the round began
    ],
)
def test_black_tokens_for_three_possible_suits_none_tried(
    settlers: int, outlaw: bool, sue: bool, black: bool
) -> None:
    """§8.6, gap G14: a seat takes a black token when at least three (plaintiff, unit) pairs
    could be sued when the lawsuit round began (after the outlaws went) and none was."""
    state, field = black_table(settlers, outlaw)
    cards(state, 2, GRAIN, 1)
    cards(state, 1, GRAIN, 0)
    to_round(state, first=2)
    if sue:
        state.play(L.Sue(2, field, 2, 1))
        state.play(L.Bid(1, 0))
    while state.phase == SUING:
        state.play(L.Pass(state.current_player()))
    assert state.phase == MOVE
    assert state.tokens[1][2] == (1 if black else 0)
    assert all(state.tokens[s][2] == 0 for s in (0, 2, 3))
