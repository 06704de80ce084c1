"""Landnám's movement, chasing and exploration (../shared/landnam-rules.md §9, §10, §14; gaps
G2, G3, G13, G16, G24, G25), on posed positions of a radius-2 board.

Positions used (axial ``(q, r)`` and number): the centre mountain (0,0) is 9; around it
(0,-1) 4, (1,-1) 5, (1,0) 10, (0,1) 14, (-1,1) 13, (-1,0) 8. Edge positions: (1,-2) 1 and
(-1,-1) 3 are non-corner (sides 1 and 2), (0,-2) 0 and (2,-2) 2 board corners.
"""

from __future__ import annotations

import pytest
from landnam_helpers import (
    GRAIN,
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
    targets,
)

from hexlan.engine import actions as A
from hexlan.engine.chance import DECK_DRAW
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.movement import modifier
from hexlan.engine.variants.landnam.phases import (
    DRAW,
    ENTRY,
    EXPLORE,
    FLEE,
    MOVE,
    SEER,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import UNEXPLORED, Fate, Land, marker_of, terrain_of
from hexlan.engine.variants.landnam.state import LandnamState

CENTRE = 9


def _ring_of_pastures(ships_two: bool = False) -> LandnamState:
    """Pastures 4, 5, 10 (numbers 4, 5, 6) around the centre; no unit on the board."""
    state = posed(landnam_ships_two=ships_two)
    clear_units(state)
    for position, number in ((4, 4), (5, 5), (10, 6)):
        put_hex(state, position, Land.PASTURE, number)
    return state


# --- steps (§9.1, G3) --------------------------------------------------------------------


def test_one_unit_two_steps_then_no_third() -> None:
    """§9.1 (a), G3: one unit moves up to two steps; no third step, for it or another unit."""
    state = _ring_of_pastures()
    a = put_unit(state, 0, 4)
    b = put_unit(state, 0, 14)
    put_hex(state, 14, Land.PASTURE, 8)
    state.play(L.Move(a, 5))
    state.play(L.Move(a, 10))
    assert state.unit(a).at == 10
    assert_refused(state, L.Move(a, 5), "§9.1")
    assert_refused(state, L.Move(b, 13), "§9.1")
    assert not [x for x in state.legal_actions() if isinstance(x, L.Move)]


def test_two_units_one_step_each() -> None:
    """§9.1 (b), G3: two units a step each; then neither steps again."""
    state = _ring_of_pastures()
    a = put_unit(state, 0, 4)
    b = put_unit(state, 0, 10)
    state.play(L.Move(a, 5))
    assert L.Move(b, 14) in state.legal_actions()  # an unexplored neighbour: exploring
    put_hex(state, 14, Land.FIELD, 9)
    state.play(L.Move(b, 14))
    assert (state.unit(a).at, state.unit(b).at) == (5, 14)
    assert_refused(state, L.Move(a, 4), "§9.1")
    assert_refused(state, L.Move(b, 10), "§9.1")


def test_ships_two_option() -> None:
    """G3 alternative (landnam_ships_two): only a ship takes two steps; two settlers may still
    take a step each."""
    state = _ring_of_pastures(ships_two=True)
    a = put_unit(state, 0, 5)
    b = put_unit(state, 0, 10)
    state.play(L.Move(a, 4))
    assert_refused(state, L.Move(a, 5), "§9.1")
    state.play(L.Move(b, 5))  # b to 5, vacated by a
    assert state.unit(b).at == 5
    ships = posed(landnam_ships_two=True)
    clear_units(ships)
    for position in (1, 2):
        put_hex(ships, position, Land.SEA)
    ship = put_unit(ships, 0, OUTER, ship=True)
    ships.play(L.Move(ship, 1))
    ships.play(L.Move(ship, 2))
    assert ships.unit(ship).at == 2


def test_outer_sea_ends_the_phase() -> None:
    """§3, §9.2: a ship moving into the outer sea hex ends the movement phase at once, even
    with a step left; the outer sea holds several units."""
    state = posed()
    clear_units(state)
    put_hex(state, 1, Land.SEA)
    ship = put_unit(state, 0, 1, ship=True)
    put_unit(state, 1, OUTER, ship=True)
    state.play(L.Move(ship, OUTER))
    assert state.phase == TRADE
    assert state.unit(ship).at == OUTER
    assert state.occupant(OUTER) == -1


def test_settler_never_enters_the_outer_sea() -> None:
    """§9.2: settlers never enter the outer sea hex."""
    state = posed()
    clear_units(state)
    put_hex(state, 1, Land.PASTURE, 3)
    settler = put_unit(state, 0, 1)
    assert_refused(state, L.Move(settler, OUTER), "§9.2")


# --- first move (§9.6, G24) ---------------------------------------------------------------

NON_CORNER_EDGE = {1, 3, 6, 12, 15, 17}


def test_first_move_only_to_a_non_corner_edge_position_of_an_unentered_side() -> None:
    """§9.6: a seat's first move goes to a non-corner edge position on a side no other seat
    has entered; a side the seat entered itself stays open to it."""
    state = posed()
    state.moved[0] = False
    state.entered[1].add(2)  # another seat entered side 1 (position 1)
    state.entered[0].add(0)  # the seat itself entered side 0 (position 6)
    moves = targets(state, 0)
    assert moves == NON_CORNER_EDGE - {1}
    assert_refused(state, L.Move(0, 1), "§9.6")
    assert_refused(state, L.Move(0, 0), "§9.6")  # a board corner
    state.play(L.Move(0, 3))
    assert state.phase == EXPLORE
    assert 0 in state.entered[2]
    assert state.moved[0]


def test_first_move_when_every_side_is_entered() -> None:
    """G24: once every side has been entered by other seats, any non-corner edge position."""
    state = posed()
    state.moved[0] = False
    for seats in state.entered:
        seats.add(1)
    moves = targets(state, 0)
    assert moves == NON_CORNER_EDGE


# --- where units go (§9.2-9.4, G2) --------------------------------------------------------


def test_ship_only_to_sea_settler_only_to_producing_land() -> None:
    """§9.2: a ship goes to vacant sea only; a settler to vacant producing land only (not sea,
    not the mountain); buildings do not block."""
    state = posed()
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 4)
    put_hex(state, 5, Land.SEA)
    put_hex(state, 1, Land.SEA)
    put_hex(state, 0, Land.FIELD, 5)
    put_hex(state, 3, Land.WOODLAND, 6)
    ship = put_unit(state, 0, 1, ship=True)
    settler = put_unit(state, 0, 3)
    put_building(state, corner_of(state, 0, 3, 4), 1)
    assert_refused(state, L.Move(ship, 4), "§9.2")
    assert_refused(state, L.Move(ship, 0), "§9.2")
    assert_refused(state, L.Move(ship, CENTRE), "§9.1")  # not adjacent
    assert L.Move(settler, 0) in state.legal_actions()
    assert L.Move(settler, 4) in state.legal_actions()
    assert L.Move(ship, 5) in state.legal_actions()
    state.play(L.Move(ship, 5))
    assert state.unit(ship).at == 5


def test_settler_refused_sea_and_mountain() -> None:
    """§9.2-9.3: a settler may not step onto sea, nor onto a mountain without Landing or
    (G2) being an outlaw."""
    state = posed()
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 4)
    put_hex(state, 5, Land.SEA)
    settler = put_unit(state, 0, 4)
    assert_refused(state, L.Move(settler, 5), "§9.2")
    assert_refused(state, L.Move(settler, CENTRE), "§9.2")


def _outlaw_beside_mountain(mountains: bool = True) -> tuple[LandnamState, int]:
    """Seat 0's settler on pasture 4 beside the centre, outlawed by seat 1's farm there."""
    state = posed(landnam_outlaw_mountains=mountains)
    clear_units(state)
    put_hex(state, 4, Land.PASTURE, 4)
    farm = corner_of(state, 0, 3, 4)
    put_building(state, farm, 1)
    return state, put_unit(state, 0, 4, tokens=[(1, farm)])


def test_outlaw_may_flee_into_the_mountains() -> None:
    """G2 (landnam_outlaw_mountains, on by default): an outlawed settler may enter a mountain;
    its red tokens are removed there (§14), so it is an outlaw no more."""
    state, outlaw = _outlaw_beside_mountain()
    state.play(L.Move(outlaw, CENTRE))
    unit = state.unit(outlaw)
    assert unit.at == CENTRE
    assert unit.tokens == [] and not unit.outlaw
    assert state.tokens[1] == [0, 0, 0]


def test_outlaw_mountains_off_needs_landing() -> None:
    """G2 alternative: with landnam_outlaw_mountains off, only a Landing card opens a mountain."""
    state, outlaw = _outlaw_beside_mountain(mountains=False)
    assert_refused(state, L.Move(outlaw, CENTRE), "§9.2")
    give_fate(state, 0, Fate.LANDING)
    state.play(L.PlayFate(0, Fate.LANDING))
    assert state.landing
    state.play(L.Move(outlaw, CENTRE))
    assert state.unit(outlaw).at == CENTRE
    assert not state.landing  # for one step only


def test_landing_lets_a_ship_ashore_which_harvests_as_a_settler() -> None:
    """§9.4, §6.3: with Landing a ship steps onto vacant producing land; there it counts as a
    settler for the harvest: its owner gets 2 and the farm at the hex's corner nothing."""
    state = posed()
    clear_units(state)
    put_hex(state, 1, Land.SEA)
    put_hex(state, 4, Land.PASTURE, 8)
    ship = put_unit(state, 0, 1, ship=True)
    farm = corner_of(state, 0, 1, 4)
    put_building(state, farm, 2)
    assert_refused(state, L.Move(ship, 4), "§9.2")
    give_fate(state, 0, Fate.LANDING)
    state.play(L.PlayFate(0, Fate.LANDING))
    state.play(L.Move(ship, 4))
    assert state.unit(ship).at == 4 and state.settler_like(state.unit(ship))
    state.play(L.EndMovement())
    state.play(A.END_TURN)
    state.active = 0
    before = [list(h) for h in state.hands]
    state.play(A.ROLL)
    state.play(A.Dice(4, 4))
    assert state.hands[0][WOOL] == before[0][WOOL] + 2
    assert state.hands[2] == before[2]
    # as a ship, it still moves only to sea (G17): to 1, or exploring 0, 3 or 8
    assert state.phase == MOVE
    put_hex(state, 5, Land.PASTURE, 3)
    assert targets(state) == {0, 1, 3, 8}


# --- chasing (§9.7, §14) -----------------------------------------------------------------


def _chase_position() -> tuple[LandnamState, int, int, int]:
    """Seat 1's settler on 5 is outlawed by seat 0 (farm on the corner of 4, 5 and 1); seat 0's
    settler on 4 may chase it. Pastures 4, 5, 10 and 6; field 1; seat 0 also farms at the corner
    of 5, 6 and 10."""
    state = _ring_of_pastures()
    put_hex(state, 1, Land.FIELD, 8)
    put_hex(state, 6, Land.PASTURE, 9)
    farm = corner_of(state, 1, 4, 5)
    put_building(state, farm, 0)
    put_building(state, corner_of(state, 5, 6, 10), 0)
    chaser = put_unit(state, 0, 4)
    outlaw = put_unit(state, 1, 5, tokens=[(0, farm)])
    return state, chaser, outlaw, farm


def test_plaintiff_chases_its_outlaw() -> None:
    """§9.7: the plaintiff's unit may step into its outlaw's hex; the outlaw's owner then moves
    it one step away by its normal rules (an outlaw may take to the mountain, G2), but not back
    to where the chaser came from, not exploring, not into an occupied hex."""
    state, chaser, outlaw, _ = _chase_position()
    blocker_at = state.unit(put_unit(state, 2, 1)).at
    assert L.Move(chaser, 5) in state.legal_actions()
    state.play(L.Move(chaser, 5))
    assert state.phase == FLEE
    assert state.current_player() == 1
    # 4 is the chaser's origin, 1 occupied, 2 unexplored; 6 and 10 pasture, 9 the mountain
    assert targets(state) == {6, 10, CENTRE}
    assert_refused(state, L.Flee(1, 4), "§9.7")
    assert_refused(state, L.Flee(1, 2), "§9.7")
    assert_refused(state, L.Flee(1, blocker_at), "§9.7")
    state.play(L.Flee(1, 10))
    assert state.unit(chaser).at == 5
    assert state.unit(outlaw).at == 10
    assert state.phase == MOVE


def test_chased_tokens_follow_or_go() -> None:
    """§14: after a chased move the red token follows to a settlement of the same plaintiff at
    a corner of the new hex (the farm on 5-6-10), else it goes back to the supply."""
    state, chaser, outlaw, _ = _chase_position()
    state.play(L.Move(chaser, 5))
    state.play(L.Flee(1, 10))
    assert state.unit(outlaw).tokens == [(0, corner_of(state, 5, 6, 10))]
    state, chaser, outlaw, _ = _chase_position()
    del state.buildings[corner_of(state, 5, 6, 10)]
    state.play(L.Move(chaser, 5))
    state.play(L.Flee(1, 6))
    assert state.unit(outlaw).tokens == []
    assert state.tokens[0] == [0, 0, 0]


def test_chased_unit_that_cannot_move_is_removed_and_its_tokens_score() -> None:
    """§9.7, §14: a chased unit with nowhere to go is taken out of play (to its reserve, G11)
    and each red token is a point (red) for the seat it points at; the chaser enters."""
    state, chaser, outlaw, _ = _chase_position()
    for position in (6, 10, CENTRE):
        put_unit(state, 3, position)
    put_unit(state, 2, 1)
    settlers = state.settlers[1]
    state.play(L.Move(chaser, 5))
    assert state.units[outlaw] is None
    assert state.settlers[1] == settlers + 1
    assert state.tokens[0] == [0, 1, 0]
    assert state.unit(chaser).at == 5
    assert state.phase == MOVE


def test_only_the_plaintiff_chases_unless_drive_off() -> None:
    """§9.7: another seat's unit may not step into an outlaw's hex (nor a law-abiding one's);
    Drive off lets it chase."""
    state, _, outlaw, _ = _chase_position()
    other = put_unit(state, 2, 10)
    assert_refused(state, L.Move(other, 5), "§9.1")  # seat 0's turn
    state.active = 2
    assert_refused(state, L.Move(other, 5), "§9.7")
    give_fate(state, 2, Fate.DRIVE_OFF)
    state.play(L.PlayFate(2, Fate.DRIVE_OFF))
    state.play(L.Move(other, 5))
    assert state.phase == FLEE and state.current_player() == 1
    assert state.chase is not None and state.chase.chased == outlaw


def test_outlaw_own_move_tokens_follow_or_go() -> None:
    """§14: when an outlaw moves itself, each red token follows to the same plaintiff's
    settlement at a corner of its new hex if there is one, else goes to the supply."""
    state, _, outlaw, _ = _chase_position()
    state.active = 1
    state.play(L.Move(outlaw, 10))
    assert state.unit(outlaw).tokens == [(0, corner_of(state, 5, 6, 10))]
    state, _, outlaw, _ = _chase_position()
    del state.buildings[corner_of(state, 5, 6, 10)]
    state.active = 1
    state.play(L.Move(outlaw, 10))
    assert state.unit(outlaw).tokens == [] and not state.unit(outlaw).outlaw


# --- exploration (§10) -------------------------------------------------------------------


def _explorer(position: int = 4, ship: bool = False) -> tuple[LandnamState, int]:
    """A settler of seat 0 on pasture 5 beside ``position`` unexplored (or a ship on sea 1)."""
    state = posed()
    clear_units(state)
    if ship:
        put_hex(state, 1, Land.SEA)
        return state, put_unit(state, 0, 1, ship=True)
    put_hex(state, 5, Land.PASTURE, 5)
    return state, put_unit(state, 0, 5)


def test_modifier() -> None:
    """§10.3: +2 per neighbouring mountain, +1 per neighbouring producing land, sea and
    unexplored nothing, at most +4."""
    state = posed()
    assert modifier(state, 4) == 2  # the centre mountain
    assert modifier(state, 0) == 0
    put_hex(state, 5, Land.SEA)
    assert modifier(state, 4) == 2
    put_hex(state, 1, Land.PASTURE, 3)
    assert modifier(state, 4) == 3
    put_hex(state, 8, Land.MOUNTAIN)
    assert modifier(state, 4) == 4
    put_hex(state, 3, Land.BOG, 4)
    assert modifier(state, 4) == 4
    assert modifier(state, 0) == 2  # 1 and 3, producing land


@pytest.mark.parametrize("green", range(1, 11))
def test_terrain_table(green: int) -> None:
    """§10.4: green die plus modifier gives the terrain (1-4 sea, 5 field, 6 woodland, 7-9
    pasture, 10 bog, 11+ mountain); here the modifier is 3 (mountain and pasture 5)."""
    state, settler = _explorer()
    state.play(L.Move(settler, 4))
    assert state.phase == EXPLORE
    node = state.chance_node()
    assert node is not None and node.sides == (10, 10)
    state.play(L.ExploreRoll((green,), (2,)))
    assert state.terrain[4] == terrain_of(green + 3)
    expected = [Land.SEA] + [Land.FIELD, Land.WOODLAND] + [Land.PASTURE] * 3 + [Land.BOG]
    assert state.terrain[4] == (expected + [Land.MOUNTAIN] * 3)[green - 1]


@pytest.mark.parametrize("red", range(1, 11))
def test_red_die_marker_table(red: int) -> None:
    """§10.5: the red die's face gives the marker: 1 is 11, 7 is 12, others as shown."""
    state, settler = _explorer()
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((5,), (red,)))  # 5 + 3: pasture
    value = {1: 11, 7: 12}.get(red, red)
    assert state.numbers[4] == value == marker_of(red)
    assert state.marker_stock[value] == (0 if value == 5 else 1)  # pasture 5 holds a 5


def test_settler_finding_producing_land_enters_and_takes_a_card() -> None:
    """§10.7-10.8, G16: a hex with a number gives one card of its resource; the settler enters
    it at once; the step is used."""
    state, settler = _explorer()
    grain, stock = state.hands[0][GRAIN], state.stock[GRAIN]
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((2,), (3,)))  # 2 + 3: field, marker 3
    assert (state.terrain[4], state.numbers[4]) == (Land.FIELD, 3)
    assert state.hands[0][GRAIN] == grain + 1 and state.stock[GRAIN] == stock - 1
    assert state.unit(settler).at == 4
    assert state.steps == [settler] and state.phase == MOVE


def test_sea_gives_nothing_and_a_settler_stays() -> None:
    """§10.7-10.8: sea gives no reward; a settler may not enter it and stays."""
    state, settler = _explorer()
    hands = [list(h) for h in state.hands]
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((1,), (3,)))
    assert state.terrain[4] == Land.SEA and state.numbers[4] == 0
    assert state.hands == hands
    assert state.unit(settler).at == 5 and state.phase == MOVE
    assert state.steps == [settler]


def test_mountain_gives_a_fate_card() -> None:
    """§10.7: a mountain gives a fate card (a face-down draw for the explorer)."""
    state, settler = _explorer()
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((9,), (3,)))
    assert state.terrain[4] == Land.MOUNTAIN and state.numbers[4] == 0
    node = state.chance_node()
    assert state.phase == DRAW and node is not None
    assert node.kind == DECK_DRAW and node.seats == (0,) and not node.public
    state.play(L.DrawFate(0, Fate.FAIR_WIND, False))
    assert state.fate[0][Fate.FAIR_WIND] == 1
    # it holds a fate card now, so it may decide on Landing (§9.5); Fair wind is no Landing
    assert state.phase == ENTRY and state.legal_actions() == [L.Stay()]
    state.play(L.Stay())
    assert state.unit(settler).at == 5 and state.phase == MOVE


def test_resource_out_of_stock_gives_a_fate_card() -> None:
    """§10.7: when no card of the hex's resource is in stock, a fate card instead."""
    state, settler = _explorer()
    for seat in range(4):
        set_hand(state, seat, (6, 2, 2, 2))
    assert state.stock[GRAIN] == 0
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((2,), (3,)))
    assert state.phase == DRAW
    state.play(L.DrawFate(0, Fate.LANDING, False))
    assert state.hands[0][GRAIN] == 6
    assert state.unit(settler).at == 4  # then it enters


def test_terrain_out_of_stock_rerolls_the_green_die_only() -> None:
    """§10.4: a terrain out of stock is rolled again, the green die alone (a chance node of one
    side), with the same modifier; the red die's face stands."""
    state, settler = _explorer()
    state.terrain_stock[Land.SEA] = 0
    state.play(L.Move(settler, 4))
    state.play(L.ExploreRoll((1,), (7,)))
    assert state.phase == EXPLORE and state.terrain[4] == UNEXPLORED
    node = state.chance_node()
    assert node is not None and node.sides == (10,)
    rolls = [o for o in node.outcomes if isinstance(o, L.ExploreRoll)]
    assert len(rolls) == 10 and all(o.red == () and len(o.green) == 1 for o in rolls)
    assert_refused(state, L.ExploreRoll((3,), (7,)), "§10.2")
    state.play(L.ExploreRoll((3,), ()))
    assert (state.terrain[4], state.numbers[4]) == (Land.WOODLAND, 12)


def test_no_face_possible_fails_the_exploration() -> None:
    """G13: when no die face gives a terrain in stock, the exploration fails at once: no dice,
    the position stays unexplored, the step is used."""
    state, settler = _explorer()
    state.terrain_stock = [0] * 6
    state.terrain[8] = state.terrain[3] = Land.PASTURE  # modifier 2 + 1 + 1 + 1, at most 4
    state.terrain_stock = [5, 0, 0, 0, 0, 0]  # sea alone, which needs 1-4: out of reach
    assert modifier(state, 4) == 4
    state.play(L.Move(settler, 4))
    assert state.phase == MOVE and state.chance_node() is None
    assert state.terrain[4] == UNEXPLORED
    assert state.steps == [settler]
    assert state.unit(settler).at == 5


def test_marker_out_of_stock_takes_the_next_in_the_cycle() -> None:
    """§10.5, §7: a number not in stock is aged until one in stock: 6 gives 8 (7 skipped),
    12 gives 2 (the cycle wraps), skipping further values out of stock."""
    for red, empty, expected in ((6, (6,), 8), (7, (12,), 2), (6, (6, 8, 9), 10)):
        state, settler = _explorer()
        for value in empty:
            state.marker_stock[value] = 0
        state.play(L.Move(settler, 4))
        state.play(L.ExploreRoll((5,), (red,)))
        assert state.numbers[4] == expected


def test_ship_finding_sea_enters() -> None:
    """§10.8, G16: a ship enters the sea it found."""
    state, ship = _explorer(ship=True)
    state.play(L.Move(ship, 2))
    state.play(L.ExploreRoll((1,), (1,)))
    assert state.terrain[2] == Land.SEA and state.unit(ship).at == 2


def test_ship_finding_land_may_land_with_a_card() -> None:
    """§9.5, §10.8: a ship that found producing land stays unless it plays Landing: the ENTRY
    decision comes when its seat holds a fate card; with none, it stays at once."""
    state, ship = _explorer(ship=True)
    state.play(L.Move(ship, 2))
    state.play(L.ExploreRoll((7,), (4,)))  # modifier 0: pasture
    assert state.terrain[2] == Land.PASTURE and state.unit(ship).at == 1
    assert state.phase == MOVE
    state, ship = _explorer(ship=True)
    give_fate(state, 0, Fate.LANDING)
    state.play(L.Move(ship, 2))
    state.play(L.ExploreRoll((7,), (4,)))
    assert state.phase == ENTRY
    assert set(state.legal_actions()) == {L.Stay(), L.PlayFate(0, Fate.LANDING)}
    state.play(L.PlayFate(0, Fate.LANDING))
    assert state.unit(ship).at == 2 and state.phase == MOVE
    assert state.fate[0][Fate.LANDING] == 0 and state.discard[Fate.LANDING] == 1


def test_ship_stays_when_it_declines_entry() -> None:
    """§10.8: at the ENTRY decision the seat may keep its unit where it is."""
    state, ship = _explorer(ship=True)
    give_fate(state, 0, Fate.GOOD_YEAR)
    state.play(L.Move(ship, 2))
    state.play(L.ExploreRoll((7,), (4,)))
    assert state.phase == ENTRY and state.legal_actions() == [L.Stay()]
    state.play(L.Stay())
    assert state.unit(ship).at == 1 and state.phase == MOVE


def test_fixed_terrain_card() -> None:
    """§16.2 Woodland ahead: no green die; the terrain is woodland; the red die as usual. The
    card is spent; with no woodland in stock, both dice are rolled normally."""
    state, settler = _explorer()
    give_fate(state, 0, Fate.WOODLAND_AHEAD)
    assert L.Move(settler, 4, Fate.WOODLAND_AHEAD) in state.legal_actions()
    state.play(L.Move(settler, 4, Fate.WOODLAND_AHEAD))
    node = state.chance_node()
    assert node is not None and node.sides == (10,)
    state.play(L.ExploreRoll((), (4,)))
    assert (state.terrain[4], state.numbers[4]) == (Land.WOODLAND, 4)
    assert state.discard[Fate.WOODLAND_AHEAD] == 1
    state, settler = _explorer()
    give_fate(state, 0, Fate.WOODLAND_AHEAD)
    state.terrain_stock[Land.WOODLAND] = 0
    state.play(L.Move(settler, 4, Fate.WOODLAND_AHEAD))
    node = state.chance_node()
    assert node is not None and node.sides == (10, 10)


def test_exploration_card_refusals() -> None:
    """§10.1, §16.1: an Exploration card goes with an exploration only, and only when held."""
    state, settler = _explorer()
    put_hex(state, 10, Land.FIELD, 2)
    assert_refused(state, L.Move(settler, 4, Fate.WOODLAND_AHEAD), "§16.1")
    give_fate(state, 0, Fate.WOODLAND_AHEAD)
    assert_refused(state, L.Move(settler, 10, Fate.WOODLAND_AHEAD), "§10.1")


def test_seers_counsel() -> None:
    """§16.2 Seer's counsel: two green and two red dice (four dice), then the seat chooses one
    of each."""
    state, settler = _explorer()
    give_fate(state, 0, Fate.SEERS_COUNSEL)
    state.play(L.Move(settler, 4, Fate.SEERS_COUNSEL))
    node = state.chance_node()
    assert node is not None and node.sides == (10, 10, 10, 10)
    state.play(L.ExploreRoll((1, 7), (2, 9)))
    assert state.phase == SEER
    assert set(state.legal_actions()) == {L.ChooseSeer(g, r) for g in (0, 1) for r in (0, 1)}
    assert_refused(state, L.ChooseSeer(2, 0), "§16.2")
    state.play(L.ChooseSeer(1, 0))
    assert (state.terrain[4], state.numbers[4]) == (terrain_of(7 + 3), 2)
    assert state.unit(settler).at == 4


def test_harvest_card_is_not_a_movement_card() -> None:
    """§16.1: a card is played only in the sub-phase its mark names."""
    state, _ = _explorer()
    give_fate(state, 0, Fate.GOOD_YEAR)
    assert_refused(state, L.PlayFate(0, Fate.GOOD_YEAR, -1, 1), "§16.1")


def test_fair_wind_gives_a_third_step_only_after_the_normal_two() -> None:
    """§9.5, §16.2 Fair wind: one extra step for any unit, playable once the normal steps are
    used up (not before)."""
    state = _ring_of_pastures()
    put_hex(state, 14, Land.PASTURE, 8)
    a = put_unit(state, 0, 4)
    b = put_unit(state, 0, 14)
    give_fate(state, 0, Fate.FAIR_WIND)
    assert_refused(state, L.PlayFate(0, Fate.FAIR_WIND), "§16.1")
    state.play(L.Move(a, 5))
    state.play(L.Move(a, 10))
    state.play(L.PlayFate(0, Fate.FAIR_WIND))
    state.play(L.Move(b, 13))
    assert state.phase == EXPLORE  # 13 is unexplored: the extra step explores it
    state.play(L.ExploreRoll((1,), (2,)))
    assert_refused(state, L.Move(a, 5), "§9.1")


def test_chased_ship_forced_into_the_outer_sea_keeps_the_phase() -> None:
    """G25: a chased ship that flees into the outer sea hex does not end the active seat's
    movement phase."""
    state = posed()
    clear_units(state)
    put_hex(state, 1, Land.SEA)
    put_hex(state, 5, Land.SEA)
    farm = corner_of(state, 1, 4, 5)
    put_building(state, farm, 0)
    chaser = put_unit(state, 0, 5, ship=True)
    outlaw = put_unit(state, 1, 1, ship=True, tokens=[(0, farm)])
    state.play(L.Move(chaser, 1))
    assert targets(state) == {OUTER}  # 0, 2 and 4 unexplored
    state.play(L.Flee(1, OUTER))
    assert state.unit(outlaw).at == OUTER and state.unit(outlaw).tokens == []
    assert state.unit(chaser).at == 1
    assert state.phase == MOVE


def test_chased_outlaw_fleeing_to_a_mountain_loses_its_tokens() -> None:
    """§14: a chased outlaw whose move ends on a mountain loses every red token."""
    state, chaser, outlaw, _ = _chase_position()
    state.play(L.Move(chaser, 5))
    state.play(L.Flee(1, CENTRE))
    assert state.unit(outlaw).at == CENTRE and not state.unit(outlaw).outlaw


def test_first_move_radius_three() -> None:
    """§9.6, G9: at radius 3 the first move may go to any of the twelve non-corner edge
    positions, two on each side."""
    state = posed(landnam_radius=3)
    state.moved[0] = False
    moves = targets(state, 0)
    board = state.board
    assert moves == {p for p in range(board.size) if board.side[p] >= 0}
    assert len(moves) == 12 and not moves & board.board_corners


def test_a_chased_unit_enters_the_side_it_flees_to() -> None:
    """§9.6: a side counts as entered once a seat's unit has entered a position on it; a chased
    unit fleeing onto an edge position enters it too."""
    state, chaser, _, _ = _chase_position()
    state.play(L.Move(chaser, 5))
    state.play(L.Flee(1, 6))  # (2,-1), side 0
    assert state.board.side[6] == 0
    assert 1 in state.entered[0]
    put_unit(state, 2, OUTER, ship=True)
    state.moved[2] = False
    state.active = 2
    # 6 is closed to seat 2's first move now; 1 is land, closed to a ship anyway
    assert targets(state) == {3, 12, 15, 17}


def test_fair_wind_once_a_lone_settler_has_taken_its_one_step() -> None:
    """§9.5, G3 alternative (landnam_ships_two): a settler takes one normal step; once the
    seat's units can take no more, its normal steps are spent and Fair wind may be played. With
    the default G3 the same settler still has its second step, so not yet."""
    for ships_two, playable in ((True, True), (False, False)):
        state = _ring_of_pastures(ships_two=ships_two)
        settler = put_unit(state, 0, 4)
        give_fate(state, 0, Fate.FAIR_WIND)
        state.play(L.Move(settler, 5))
        assert (L.PlayFate(0, Fate.FAIR_WIND) in state.legal_actions()) == playable
    state.play(L.Move(settler, 10))
    state.play(L.PlayFate(0, Fate.FAIR_WIND))
    state.play(L.Move(settler, 5))
    assert state.unit(settler).at == 5 and state.extra_steps == 0
