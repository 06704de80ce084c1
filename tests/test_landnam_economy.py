"""Landnám's harvest, famine and ageing, trade and building (../shared/landnam-rules.md §6, §7,
§11, §12, §13; gaps G10, G12, G20, G22), on posed positions of a radius-2 board.

Positions used: the centre mountain 9; 4 (0,-1), 5 (1,-1), 10 (1,0) around it; 0 (0,-2) and
1 (1,-2) on the edge. Corners are named by the positions they touch (``corner_of``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from landnam_helpers import (
    GRAIN,
    IRON,
    TIMBER,
    WOOL,
    assert_refused,
    clear_units,
    corner_of,
    give_fate,
    posed,
    put_building,
    put_hex,
    put_unit,
    set_hand,
)

from hexlan.engine import actions as A
from hexlan.engine.core import Seat
from hexlan.engine.game import sample_outcome
from hexlan.engine.gamespec import OptionValue
from hexlan.engine.options import GameOptions
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.economy import age
from hexlan.engine.variants.landnam.phases import (
    AGE_PICK,
    ANSWER,
    CHANCE,
    HARVEST_CARD,
    MOVE,
    ROLL,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState, new_game

CENTRE = 9


def _harvest_board() -> LandnamState:
    """Pasture 4 (8), field 5 (6), woodland 10 (8) around the centre; seat 0's turn, before
    its roll; no unit on the board."""
    state = posed(phase=ROLL)
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 8)
    put_hex(state, 5, Land.FIELD, 6)
    put_hex(state, 10, Land.WOODLAND, 8)
    return state


def _roll(state: LandnamState, first: int, second: int) -> None:
    state.play(A.ROLL)
    state.play(A.Dice(first, second))


# --- harvest (§6) ------------------------------------------------------------------------


def test_settler_takes_two_and_buildings_there_nothing() -> None:
    """§6.3: a settler on a producing hex gives its owner 2 cards; no building at that hex's
    corners gets anything, the settler owner's own included."""
    state = _harvest_board()
    put_unit(state, 1, 4)
    put_building(state, corner_of(state, 0, 1, 4), 1)
    put_building(state, corner_of(state, 4, 8, 9), 2, town=True)
    hands = [list(h) for h in state.hands]
    _roll(state, 6, 2)
    assert state.hands[1][WOOL] == hands[1][WOOL] + 2
    assert state.hands[2] == hands[2]


def test_farms_one_towns_two_then_the_only_paying_hex_ages() -> None:
    """§6.3, §6.5: 1 card per farm, 2 per town at a matching hex's corners; one hex paid, so it
    ages by itself (8 to 9); a matching hex beside no settlement pays no one and does not age."""
    state = _harvest_board()
    put_building(state, corner_of(state, 0, 1, 4), 1)
    put_building(state, corner_of(state, 4, 8, 9), 2, town=True)
    hands = [list(h) for h in state.hands]
    _roll(state, 5, 3)
    assert state.hands[1][WOOL] == hands[1][WOOL] + 1
    assert state.hands[2][WOOL] == hands[2][WOOL] + 2
    assert state.hands[1][TIMBER] == hands[1][TIMBER]  # woodland 10 has no settlement
    assert state.numbers[4] == 9 and state.numbers[10] == 8
    assert state.phase == MOVE


def test_several_paying_hexes_the_active_seat_picks_one_to_age() -> None:
    """§6.5, G10: with several hexes paid, the active seat picks the one that ages."""
    state = _harvest_board()
    put_building(state, corner_of(state, 4, 5, 9), 1)  # beside 4 and 5
    put_building(state, corner_of(state, 5, 6, 10), 2)  # beside 10
    _roll(state, 4, 4)
    assert state.phase == AGE_PICK
    assert set(state.legal_actions()) == {L.AgeHex(4), L.AgeHex(10)}
    assert_refused(state, L.AgeHex(5), "§6.5")
    state.play(L.AgeHex(10))
    assert state.numbers[10] == 9 and state.numbers[4] == 8
    assert state.phase == MOVE


def test_famine() -> None:
    """§6.4: when a kind owed is short in the stock, nobody is paid anything, of any kind; every
    seat returns all its cards of each short kind; nothing ages."""
    state = _harvest_board()
    put_building(state, corner_of(state, 4, 5, 9), 1, town=True)  # owed 2 wool
    put_building(state, corner_of(state, 5, 6, 10), 2, town=True)  # owed 2 timber
    for seat in range(4):
        set_hand(state, seat, (2, 2, 7, 2) if seat < 3 else (2, 2, 2, 2))
    assert state.stock[WOOL] == 1
    _roll(state, 4, 4)
    assert [h[WOOL] for h in state.hands] == [0, 0, 0, 0]
    assert state.stock[WOOL] == 24
    assert [h[TIMBER] for h in state.hands] == [2, 2, 2, 2]  # not short, not paid either
    assert state.numbers[4] == 8 and state.numbers[10] == 8
    assert state.phase == MOVE


def test_ageing_cycle() -> None:
    """§7: 2-3-4-5-6-8-9-10-11-12-2: 6 ages to 8, 12 to 2, values out of stock are skipped,
    and with none in stock all the way round the marker stays; the old marker goes back."""
    state = _harvest_board()
    state.marker_stock[8] = 1  # one 8 left of the two beside pasture 4 and woodland 10
    age(state, 5)
    assert state.numbers[5] == 8 and state.marker_stock[6] == 2 and state.marker_stock[8] == 0
    state.numbers[4] = 12
    state.marker_stock[12] -= 1
    age(state, 4)
    assert state.numbers[4] == 2
    state.marker_stock[3] = state.marker_stock[4] = 0
    age(state, 4)
    assert state.numbers[4] == 5
    state.marker_stock = [0] * 13
    age(state, 4)
    assert state.numbers[4] == 5


def _harvest_card(face: Fate) -> LandnamState:
    state = _harvest_board()
    put_building(state, corner_of(state, 4, 5, 9), 0)
    give_fate(state, 0, face)
    return state


def test_good_year() -> None:
    """§16.2 Good year, G22: after a roll that is not 7 the total goes one up or down, never to
    7 and within 2-12; the harvest is that of the new total."""
    state = _harvest_card(Fate.GOOD_YEAR)
    wool = state.hands[0][WOOL]
    _roll(state, 4, 5)
    assert state.phase == HARVEST_CARD
    assert set(state.legal_actions()) == {
        L.Harvest(),
        L.PlayFate(0, Fate.GOOD_YEAR, -1, -1),
        L.PlayFate(0, Fate.GOOD_YEAR, -1, 1),
    }
    state.play(L.PlayFate(0, Fate.GOOD_YEAR, -1, -1))
    assert state.hands[0][WOOL] == wool + 1
    for first, second, only in ((3, 3, -1), (4, 4, 1), (6, 6, -1), (1, 1, 1)):
        state = _harvest_card(Fate.GOOD_YEAR)
        _roll(state, first, second)
        assert L.PlayFate(0, Fate.GOOD_YEAR, -1, only) in state.legal_actions()
        assert_refused(state, L.PlayFate(0, Fate.GOOD_YEAR, -1, -only), "§16.1")


def test_full_barns() -> None:
    """§16.2 Full barns: one more card from each hex paying the active seat (counted for
    famine); the others get their due only."""
    state = _harvest_card(Fate.FULL_BARNS)
    put_building(state, corner_of(state, 0, 1, 4), 1)
    hands = [list(h) for h in state.hands]
    _roll(state, 4, 4)
    state.play(L.PlayFate(0, Fate.FULL_BARNS))
    assert state.hands[0][WOOL] == hands[0][WOOL] + 2
    assert state.hands[1][WOOL] == hands[1][WOOL] + 1
    state = _harvest_card(Fate.FULL_BARNS)
    set_hand(state, 1, (2, 2, 17, 2))
    assert state.stock[WOOL] == 1  # one is owed, two with the card: a famine
    _roll(state, 4, 4)
    state.play(L.PlayFate(0, Fate.FULL_BARNS))
    assert state.hands[0][WOOL] == 0 and state.hands[1][WOOL] == 0


def test_steady_seasons() -> None:
    """§16.2 Steady seasons: no hex ages after this harvest."""
    state = _harvest_card(Fate.STEADY_SEASONS)
    _roll(state, 4, 4)
    state.play(L.PlayFate(0, Fate.STEADY_SEASONS))
    assert state.numbers[4] == 8 and state.phase == MOVE
    assert state.discard[Fate.STEADY_SEASONS] == 1


# --- building (§12, §13, G20) -------------------------------------------------------------

RICH = (5, 5, 5, 5)


def _builder() -> tuple[LandnamState, int]:
    """Pasture 4 (8), field 5 (6), woodland 10 (9), sea 1 and 0; seat 0's settler on 4, with
    five cards of each kind, in trade and building."""
    state = posed(phase=TRADE)
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 8)
    put_hex(state, 5, Land.FIELD, 6)
    put_hex(state, 10, Land.WOODLAND, 9)
    put_hex(state, 1, Land.SEA)
    put_hex(state, 0, Land.SEA)
    set_hand(state, 0, RICH)
    return state, put_unit(state, 0, 4)


def test_farm_takes_effect_at_the_end_of_the_turn() -> None:
    """§12.1-12.2, §12.4, G20: a settler turns into a farm on a corner of its hex: paid when
    queued (grain, timber, wool), the unit leaving the board and the house used only when the
    turn ends; a farm is 1 VP."""
    state, settler = _builder()
    corner = corner_of(state, 4, 5, 9)
    houses, settlers = state.houses[0], state.settlers[0]
    state.play(L.BuildFarm(settler, corner))
    assert state.hands[0] == [4, 4, 4, 5]
    assert corner not in state.buildings and state.units[settler] is not None
    assert_refused(state, L.AgeNumber(settler), "§12.4")  # one build per unit per turn
    state.play(A.END_TURN)
    assert state.buildings[corner] == (0, False)
    assert state.units[settler] is None
    assert (state.houses[0], state.settlers[0]) == (houses - 1, settlers + 1)
    assert state.victory_points(0) == 1


def test_farm_refusals() -> None:
    """§12.2: the farm goes on a corner of the unit's hex, touching producing land; an outlaw
    builds none; a house and the cost are needed (§2.1, §12.1)."""
    state, settler = _builder()
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 5, 6, 10)), "§12.2")
    ship = put_unit(state, 0, 0, ship=True)
    assert_refused(state, L.BuildFarm(ship, corner_of(state, 0, 1)), "§12.2")  # all sea
    state.units[settler].tokens.append((1, corner_of(state, 0, 1)))  # type: ignore[union-attr]
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 4, 5, 9)), "§12.2")
    state.units[settler].tokens.clear()  # type: ignore[union-attr]
    state.houses[0] = 0
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 4, 5, 9)), "§2.1")
    state.houses[0] = 9
    set_hand(state, 0, (1, 0, 1, 5))
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 4, 5, 9)), "§12.1")
    assert L.BuildFarm(ship, corner_of(state, 0, 1, 4)) not in state.legal_actions()


def test_farm_spacing_and_its_exception() -> None:
    """§12.2: no farm next to a settlement (anyone's, a queued farm too) unless both hexes
    along the side they share are sea or mountain."""
    state, settler = _builder()
    other = put_unit(state, 0, 10)
    put_building(state, corner_of(state, 4, 5, 9), 1)
    # 5-9-10 neighbours 4-5-9 across the side of 5 (field) and 9 (mountain)
    assert_refused(state, L.BuildFarm(other, corner_of(state, 5, 9, 10)), "§12.2")
    state.terrain[5] = Land.SEA
    state.terrain_stock[Land.FIELD] += 1
    state.terrain_stock[Land.SEA] -= 1
    state.play(L.BuildFarm(other, corner_of(state, 5, 9, 10)))
    # a farm queued this turn spaces the next one as a standing one does (G20)
    state, settler = _builder()
    other = put_unit(state, 0, 10)
    state.play(L.BuildFarm(settler, corner_of(state, 4, 5, 9)))
    assert_refused(state, L.BuildFarm(other, corner_of(state, 5, 9, 10)), "§12.2")


def _beside_a_rim_settlement(**options: OptionValue) -> tuple[LandnamState, int, int]:
    """Seat 0's ship on sea hex 0 beside pasture 1, with the means to build a farm on their
    shared corner, whose neighbour corner on the rim holds seat 1's farm: the state, the ship
    and the corner."""
    state = posed(phase=TRADE, **options)
    clear_units(state)
    set_hand(state, 0, RICH)
    put_hex(state, 0, Land.SEA)
    put_hex(state, 1, Land.PASTURE, 4)
    ship = put_unit(state, 0, 0, ship=True)
    target = corner_of(state, 0, 1)
    top = next(
        c for c in state.board.corner_neighbours[target] if state.board.corner_hexes[c] == (0,)
    )
    assert state.board.edge_hexes(target, top) == (0,)
    put_building(state, top, 1)
    return state, ship, target


def test_farm_spacing_rim_counts_as_sea() -> None:
    """G12: where the side two corners share lies on the rim, its one hex alone decides: a
    farm beside a settlement is allowed when that hex is sea or mountain."""
    state, ship, target = _beside_a_rim_settlement()
    assert L.BuildFarm(ship, target) in state.legal_actions()
    state.terrain[0] = Land.FIELD
    assert_refused(state, L.BuildFarm(ship, target), "§12.2")


def _farmer(corner_hexes: tuple[int, ...] = (4, 5, 9), town: bool = False) -> LandnamState:
    state, settler = _builder()
    state.units[settler] = None
    state.settlers[0] += 1
    put_building(state, corner_of(state, *corner_hexes), 0, town)
    return state


def test_town_on_a_farm_bordering_sea_or_the_rim() -> None:
    """§12.1, §12.3, G12: a farm bordering a sea hex becomes a town (iron, grain, timber, two
    wool; a second house; 2 VP in all); the rim counts as sea; a farm inland may not."""
    state = _farmer((0, 1, 4))  # beside sea 0 and 1
    state.play(L.BuildTown(corner_of(state, 0, 1, 4)))
    assert state.hands[0] == [4, 4, 3, 4]
    assert state.buildings[corner_of(state, 0, 1, 4)] == (0, False)
    state.play(A.END_TURN)
    assert state.buildings[corner_of(state, 0, 1, 4)] == (0, True)
    assert state.victory_points(0) == 2 and state.houses[0] == 7
    state = _farmer()
    assert_refused(state, L.BuildTown(corner_of(state, 4, 5, 9)), "§12.1")
    rim = _farmer((0, 3))
    rim.terrain[0] = Land.PASTURE  # no sea hex beside the farm: the rim is sea
    assert L.BuildTown(corner_of(rim, 0, 3)) in rim.legal_actions()


def test_rim_is_land_option() -> None:
    """G12 alternative (landnam_rim_is_land): the rim is no sea for towns."""
    state = posed(phase=TRADE, landnam_rim_is_land=True)
    clear_units(state)
    set_hand(state, 0, RICH)
    put_hex(state, 0, Land.PASTURE, 8)
    put_hex(state, 3, Land.PASTURE, 9)
    put_building(state, corner_of(state, 0, 3), 0)
    assert_refused(state, L.BuildTown(corner_of(state, 0, 3)), "§12.1")


def test_town_refusals() -> None:
    """§12.3-12.4: a town only on the seat's own farm standing before this turn; not in the
    turn the farm built a unit; a house must be left."""
    state, settler = _builder()
    state.play(L.BuildFarm(settler, corner_of(state, 0, 1, 4)))
    assert_refused(state, L.BuildTown(corner_of(state, 0, 1, 4)), "§12.3")
    state = _farmer((0, 1, 4))
    state.play(L.BuildUnit(corner_of(state, 0, 1, 4), True, 1))
    assert_refused(state, L.BuildTown(corner_of(state, 0, 1, 4)), "§12.4")
    state = _farmer((0, 1, 4))
    state.play(L.BuildTown(corner_of(state, 0, 1, 4)))
    assert_refused(state, L.BuildUnit(corner_of(state, 0, 1, 4), True, 1), "§12.4")
    state = _farmer((0, 1, 4))
    state.houses[0] = 0
    assert_refused(state, L.BuildTown(corner_of(state, 0, 1, 4)), "§2.1")


def test_farm_builds_one_unit_town_three_into_distinct_hexes() -> None:
    """§12.1, §12.4: a farm builds one unit a turn; a town up to three, one into each of its
    hexes with room: a ship onto sea, a settler onto producing land, never onto the mountain;
    the units come on the board when the turn ends; a claimed hex takes no second unit."""
    state = _farmer((0, 1, 4))
    farm = corner_of(state, 0, 1, 4)
    state.play(L.BuildUnit(farm, False, 4))
    assert state.hands[0] == [4, 5, 5, 4]
    assert_refused(state, L.BuildUnit(farm, True, 1), "§12.4")
    town = _farmer((4, 5, 9), town=True)
    corner = corner_of(town, 4, 5, 9)
    assert_refused(town, L.BuildUnit(corner, False, CENTRE), "§12.1")
    assert_refused(town, L.BuildUnit(corner, True, 4), "§12.1")
    town.play(L.BuildUnit(corner, False, 4))
    assert_refused(town, L.BuildUnit(corner, False, 4), "§12.1")  # claimed
    town.play(L.BuildUnit(corner, False, 5))
    assert town.occupant(4) == -1
    units = len(town.units)
    town.play(A.END_TURN)
    assert len(town.units) == units + 2
    assert {town.occupant(4), town.occupant(5)} == {units, units + 1}
    town2 = _farmer((0, 1, 4), town=True)
    corner = corner_of(town2, 0, 1, 4)
    for ship, to in ((True, 0), (True, 1), (False, 4)):
        town2.play(L.BuildUnit(corner, ship, to))
    assert town2.used[corner] == 3


def test_ship_on_the_outer_sea_from_no_settlement() -> None:
    """§12.1: a ship may be built on the outer sea hex with no settlement (several there at
    once); a settler may not; the reserve must hold the piece (§2.1)."""
    state = posed(phase=TRADE)
    set_hand(state, 0, RICH)
    assert L.BuildUnit(-1, True, OUTER) in state.legal_actions()
    assert_refused(state, L.BuildUnit(-1, False, OUTER), "§12.1")
    state.play(L.BuildUnit(-1, True, OUTER))
    state.play(L.BuildUnit(-1, True, OUTER))
    ships = state.ships[0]
    state.ships[0] = 2
    assert_refused(state, L.BuildUnit(-1, True, OUTER), "§2.1")
    state.ships[0] = ships
    state.play(A.END_TURN)
    assert sum(1 for u in state.units if u is not None and u.owner == 0 and u.at == OUTER) == 3


def _harbour_ship() -> tuple[LandnamState, int]:
    """Seat 0's ship on sea 1, which borders pasture 4."""
    state, _ = _builder()
    return state, put_unit(state, 0, 1, ship=True)


def test_harbour() -> None:
    """§12.1, §13: a ship on a sea hex inside the rim bordering producing land buys a harbour
    marker in stock for two cards of its kind; it is placed when the turn ends."""
    state, ship = _harbour_ship()
    state.play(L.BuildHarbour(ship, IRON))
    assert state.hands[0][IRON] == 3 and state.harbours[1] == -1
    state.play(A.END_TURN)
    assert state.harbours[1] == IRON and state.harbour_stock[IRON] == 1


def test_harbour_refusals() -> None:
    """§12.1, §13, §2.3: not by a settler, not on sea bordering no producing land, not with no
    marker of the kind in stock, not without two cards, one harbour per hex."""
    state, ship = _harbour_ship()
    settler = next(n for n, u in enumerate(state.units) if u is not None and not u.ship)
    assert_refused(state, L.BuildHarbour(settler, IRON), "§13")
    state.harbour_stock[IRON] = 0
    assert_refused(state, L.BuildHarbour(ship, IRON), "§2.3")
    set_hand(state, 0, (5, 5, 5, 1))
    state.harbour_stock[IRON] = 2
    assert_refused(state, L.BuildHarbour(ship, IRON), "§12.1")
    state.harbours[1] = GRAIN
    assert_refused(state, L.BuildHarbour(ship, WOOL), "§13")
    lonely, _ = _builder()
    out = put_unit(lonely, 0, 0, ship=True)
    lonely.terrain[4] = Land.MOUNTAIN  # 0 borders 1 (sea), 3 (unexplored), 4
    assert_refused(lonely, L.BuildHarbour(out, WOOL), "§12.1")


def test_age_action() -> None:
    """§12.1: a settler on producing land pays one card of the hex's resource to age its marker
    when the turn ends; an outlaw may; a ship at sea may not."""
    state, settler = _builder()
    state.units[settler].tokens.append((1, 0))  # type: ignore[union-attr]
    state.play(L.AgeNumber(settler))
    assert state.hands[0][WOOL] == 4 and state.numbers[4] == 8
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 4, 5, 9)), "§12.4")
    state.play(A.END_TURN)
    assert state.numbers[4] == 9
    state, ship = _harbour_ship()
    assert_refused(state, L.AgeNumber(ship), "§12.1")


# --- trade (§11) -------------------------------------------------------------------------


def test_bank_trade() -> None:
    """§11.1: four identical cards for one of another kind, if the stock has one."""
    state, _ = _builder()
    state.play(L.BankTrade(GRAIN, IRON))
    assert state.hands[0] == [1, 5, 5, 6]
    assert_refused(state, L.BankTrade(GRAIN, IRON), "§11.1")
    set_hand(state, 0, (4, 0, 0, 0))
    for seat in range(1, 4):
        set_hand(state, seat, (2, 2, 2, 8))
    assert state.stock[IRON] == 0
    assert_refused(state, L.BankTrade(GRAIN, IRON), "§11.1")


def test_harbour_trade() -> None:
    """§11.2: two of the harbour's kind for one of another, with the seat's own ship on the
    harbour hex, or its settlement at a corner and no ship of anyone there."""
    state, ship = _harbour_ship()
    state.harbours[1] = WOOL
    state.play(L.HarbourTrade(1, IRON))
    assert state.hands[0] == [5, 5, 3, 6]
    state.unit(ship).owner = 1
    put_building(state, corner_of(state, 1, 4, 5), 0)
    assert_refused(state, L.HarbourTrade(1, IRON), "§11.2")
    state.units[ship] = None
    state.play(L.HarbourTrade(1, IRON))
    del state.buildings[corner_of(state, 1, 4, 5)]
    assert_refused(state, L.HarbourTrade(1, IRON), "§11.2")


def test_harbour_built_this_turn_is_no_use_this_turn() -> None:
    """§11.2, §12.4: a harbour bought this turn cannot be traded at until it is placed."""
    state, ship = _harbour_ship()
    state.play(L.BuildHarbour(ship, WOOL))
    assert_refused(state, L.HarbourTrade(1, IRON), "§11.2")


def test_domestic_offers() -> None:
    """§11.3: the active seat offers another seat a trade (each side at least one card, the
    offer's cards held); accepted, it binds at once; declined, nothing moves; at most
    offers_per_turn offers a turn."""
    state, _ = _builder()
    offer = L.OfferTrade(1, (2, 0, 0, 0), (0, 0, 0, 1))
    state.play(offer)
    assert state.phase == ANSWER and state.current_player() == 1
    state.play(L.AnswerTrade(1, True))
    assert state.hands[0] == [3, 5, 5, 6] and state.hands[1] == [4, 2, 2, 1]
    assert state.phase == TRADE
    state.play(L.OfferTrade(2, (1, 0, 0, 0), (0, 3, 0, 0)))
    assert_refused(state, L.AnswerTrade(2, True), "§11.3")  # holds only two timber
    state.play(L.AnswerTrade(2, False))
    assert state.hands[2] == [2, 2, 2, 2]
    assert_refused(state, L.OfferTrade(0, (1, 0, 0, 0), (0, 1, 0, 0)), "§11.3")
    assert_refused(state, L.OfferTrade(3, (0, 0, 0, 0), (0, 1, 0, 0)), "§11.3")
    assert_refused(state, L.OfferTrade(3, (9, 0, 0, 0), (0, 1, 0, 0)), "§11.3")
    state.play(L.OfferTrade(3, (1, 0, 0, 0), (0, 1, 0, 0)))
    state.play(L.AnswerTrade(3, False))
    assert_refused(state, L.OfferTrade(3, (1, 0, 0, 0), (0, 1, 0, 0)), "§11.3")
    assert not [a for a in state.legal_actions() if isinstance(a, L.OfferTrade)]


@pytest.mark.parametrize("phase", [MOVE, ROLL])
def test_no_build_or_trade_outside_trade_and_building(phase: str) -> None:
    """§5: trade and building happen in phase 3 only."""
    state, settler = _builder()
    state.phase = phase
    assert_refused(state, L.BuildFarm(settler, corner_of(state, 4, 5, 9)), "§5")
    assert_refused(state, L.BankTrade(GRAIN, IRON), "§5")


# --- invariants of random legal play ------------------------------------------------------


def _check_invariants(state: LandnamState) -> None:
    """Resource cards are conserved (24 of each kind between hands and stock, §2.3); a seat's
    pieces on the board and in reserve never exceed its counts, and its queued builds fit its
    reserve (§2.1, §12.4)."""
    rules = state.rules
    for kind in range(4):
        assert sum(h[kind] for h in state.hands) + state.stock[kind] == rules.bank
        assert min(h[kind] for h in state.hands) >= 0 and state.stock[kind] >= 0
    for seat in range(state.players):
        mine = [u for u in state.units if u is not None and u.owner == seat]
        queued = [q.what for q in state.queue if q.seat == seat]
        for ship, count, reserve in (
            (True, rules.ships, state.ships[seat]),
            (False, rules.settlers, state.settlers[seat]),
        ):
            assert sum(1 for u in mine if u.ship == ship) + reserve <= count
            assert queued.count("ship" if ship else "settler") <= reserve
        houses = sum(2 if town else 1 for o, town in state.buildings.values() if o == seat)
        assert houses + state.houses[seat] == rules.houses
        assert queued.count("farm") + queued.count("town") <= state.houses[seat]


def _random_play(seed: int, actions: int, options: GameOptions | None = None) -> None:
    """Random legal play from a new game: every legal action (and the chance outcome drawn)
    passes ``check``; a copy is independent of its original; every seat's view, advanced by
    its observations, hashes as the public state does; the invariants hold throughout."""
    rng = random.Random(seed)
    state = new_game("landnam", 3 + seed % 3, options)
    views = [state.view(seat) for seat in range(state.players)]
    for step in range(actions):
        if state.is_over:
            break
        if state.current_player() == CHANCE:
            action = sample_outcome(state, rng)
            state.check(action)
        else:
            legal = state.legal_actions()
            for candidate in legal if step % 4 == 0 else rng.sample(legal, min(3, len(legal))):
                state.check(candidate)
            action = rng.choice(legal)
        if step % 25 == 0:
            before = state.full_hash()
            other = state.copy()
            other.apply(action)
            assert state.full_hash() == before
            state.apply(action)
            assert state.full_hash() == other.full_hash()
        else:
            state.apply(action)
        for seat, view in enumerate(views):
            view.apply(state.observation(action, seat))
        if step % 25 == 0:
            assert {v.public_hash() for v in views} == {state.public_hash()}
        _check_invariants(state)


@settings(max_examples=6, deadline=None)
@given(
    st.integers(min_value=0, max_value=10_000),
    st.sampled_from([2, 3]),
    st.booleans(),
    st.booleans(),
)
def test_random_play_keeps_invariants(
    seed: int, radius: int, ships_two: bool, units_lost: bool
) -> None:
    """§2.1, §2.3, §12.4 and the Game protocol: random legal play, on either board and with
    the movement and unit options of gaps G3 and G11, keeps the cards and pieces conserved,
    every legal action checks, copies are independent, views agree."""
    options = GameOptions.of(
        landnam_radius=radius, landnam_ships_two=ships_two, landnam_units_lost=units_lost
    )
    _random_play(seed, 1200, options)


def test_units_lost_option() -> None:
    """G11 alternative (landnam_units_lost): a unit turned into a farm is lost for good, not
    back in the reserve."""
    state = posed(phase=TRADE, landnam_units_lost=True)
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 8)
    set_hand(state, 0, RICH)
    settler = put_unit(state, 0, 4)
    settlers = state.settlers[0]
    state.play(L.BuildFarm(settler, corner_of(state, 4, 5, 9)))
    state.play(A.END_TURN)
    assert state.units[settler] is None and state.settlers[0] == settlers


# --- the end of a turn (§15, G21) --------------------------------------------------------


def _settled(state: LandnamState, seat: Seat, first_corner: int, farm: bool = True) -> None:
    """Four towns of ``seat`` (and a farm) on corners from ``first_corner`` on: 8 (9) VP."""
    for k in range(4):
        put_building(state, first_corner + k, seat, town=True)
    if farm:
        put_building(state, first_corner + 4, seat)


def test_victory_after_the_turns_builds() -> None:
    """§15: at the end of a turn, after its builds take effect, a seat with 12 VP or more ends
    the game; more black tokens break a tie on points."""
    state, settler = _builder()
    _settled(state, 0, 30, farm=False)
    state.tokens[0] = [0, 0, 3]
    _settled(state, 1, 40)
    state.tokens[1] = [3, 0, 0]
    assert state.victory_points(0) == 11 and state.victory_points(1) == 12
    state.play(L.BuildFarm(settler, corner_of(state, 4, 5, 9)))
    assert state.victory_points(0) == 11  # not before the turn ends
    state.play(A.END_TURN)
    assert state.is_over and state.winners() == (0,)


def test_no_victory_below_the_target_and_a_full_tie_is_shared() -> None:
    """§15, G21: below 12 VP the next seat's turn begins; seats tied after every tie-break
    (tokens, house points, resource cards) share the win."""
    state = posed(phase=TRADE)
    _settled(state, 0, 30)
    state.play(A.END_TURN)
    assert not state.is_over and state.active == 1 and state.phase == ROLL
    state = posed(phase=TRADE)
    for seat, corner in ((0, 30), (1, 40)):
        _settled(state, seat, corner)
        state.tokens[seat] = [1, 1, 1]
    state.play(A.END_TURN)
    assert state.winners() == (0, 1)
    state = posed(phase=TRADE)
    for seat, corner in ((0, 30), (1, 40)):
        _settled(state, seat, corner)
        state.tokens[seat] = [1, 1, 1]
    set_hand(state, 1, (3, 2, 2, 2))  # the last tie-break: resource cards in hand
    state.play(A.END_TURN)
    assert state.winners() == (1,)


def test_rim_is_land_option_reaches_the_spacing_rule() -> None:
    """G12 alternative (landnam_rim_is_land): where the side two corners share lies on the rim,
    the rim is no sea, so a farm beside a settlement there is refused even by a sea hex."""
    state, ship, target = _beside_a_rim_settlement(landnam_rim_is_land=True)
    assert_refused(state, L.BuildFarm(ship, target), "§12.2")
