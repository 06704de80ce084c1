"""Landnám's movement phase: steps, exploration of unknown positions, and chasing
(../shared/landnam-rules.md §9, §10, §14; gaps G2, G3, G13, G16, G17, G24, G25).

A step moves one unit into an adjacent position. The active seat moves one unit up to two steps
or two units a step each (gap G3; option ``landnam_ships_two``: only a ship may take two), plus a
step for each Fair wind. A step into an unexplored position inside the rim explores it (§10):
the exploration dice decide its terrain and number marker from the public stocks, and the unit
enters the new hex when it may (gap G16). A step into an occupied hex chases the unit there
(§9.7), which its owner moves one step away. A step into the outer sea hex ends the phase.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from hexlan.engine.actions import Action
from hexlan.engine.chance import UNIFORM, ChanceNode
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import fate
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.parts import Chase, Exploration, Unit
from hexlan.engine.variants.landnam.phases import ENTRY, EXPLORE, EXPLORED, FLEE, MOVE, SEER, TRADE
from hexlan.engine.variants.landnam.rules import (
    CYCLE,
    FIXED_TERRAIN,
    UNEXPLORED,
    Fate,
    Land,
    marker_of,
    next_number,
    terrain_of,
)

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState


def normal_steps_spent(state: LandnamState, seat: Seat) -> bool:
    """Whether ``seat``'s normal steps of the movement phase are spent (§9.5: Fair wind is
    played after them): two taken, or one taken and none of its units may take a second (a
    settler's, with ``landnam_ships_two``)."""
    if not state.steps:
        return False
    return not any(
        unit is not None and unit.owner == seat and may_step_normally(state, number)
        for number, unit in enumerate(state.units)
    )


def movement_cards(state: LandnamState, seat: Seat) -> list[Action]:
    """The Movement cards the active seat may play in the movement phase (§9.5, §16.2):
    Landing and Drive off for the next step (one of each in force at a time), Fair wind for an
    extra step once the normal steps are spent."""
    choices: list[Action] = []
    for face in state.holds(seat, "movement"):
        if (
            (face == Fate.LANDING and not state.landing)
            or (face == Fate.DRIVE_OFF and not state.drive_off)
            or (face == Fate.FAIR_WIND and normal_steps_spent(state, seat))
        ):
            choices.append(L.PlayFate(seat, face))
    return choices


def may_step(state: LandnamState, number: int) -> bool:
    """Whether unit ``number`` may take a step now (gap G3): any unit for the first step; the
    same unit or another for the second (only a ship twice with ``landnam_ships_two``); any
    unit with a Fair wind step left."""
    if state.extra_steps:
        return True
    if not state.steps:
        return True
    if len(state.steps) >= 2:
        return False
    if state.steps[0] != number:
        return True
    unit = state.units[number]
    return unit is not None and (unit.ship or not state.options.flag("landnam_ships_two"))


def may_enter(state: LandnamState, unit: Unit, to: int, landing: bool) -> bool:
    """Whether ``unit`` may enter explored position ``to`` if it were vacant (§9.2-9.4): a ship
    the sea (a ship ashore too, gap G17), producing land with a Landing card; a settler
    producing land, a mountain with a Landing card or as an outlaw (gap G2, option
    ``landnam_outlaw_mountains``)."""
    terrain = Land.SEA if to == OUTER else Land(state.terrain[to])
    if unit.ship:
        return terrain == Land.SEA or (landing and terrain.produces)
    if terrain.produces:
        return True
    if terrain == Land.MOUNTAIN:
        outlaw_may = unit.outlaw and state.options.flag("landnam_outlaw_mountains")
        return landing or outlaw_may
    return False


def first_positions(state: LandnamState, seat: Seat) -> frozenset[int]:
    """Where a seat's first move of the game may go (§9.6, gap G24): a non-corner edge position
    on a side no other seat has entered; any non-corner edge position once every side has been."""
    board = state.board
    free = {k for k, seats in enumerate(state.entered) if not seats - {seat}}
    open_sides = [p for p in range(board.size) if board.side[p] in free]
    if open_sides:
        return frozenset(open_sides)
    return frozenset(p for p in range(board.size) if board.side[p] >= 0)


def _may_chase(state: LandnamState, seat: Seat, defender: Unit) -> bool:
    """Whether ``seat``'s unit may chase ``defender`` (§9.7): an outlaw whose red token points
    at the seat's settlement, or any other seat's unit with Drive off in force."""
    if defender.owner == seat:
        return False
    return state.drive_off or any(p == seat for p, _ in defender.tokens)


def move_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """The active seat's movement choices: every legal step (with each Exploration card it
    holds, into an unexplored position), its Movement cards, and ending the phase."""
    choices: list[Action] = []
    cards = state.holds(seat, "exploration")
    for number, unit in enumerate(state.units):
        if unit is None or unit.owner != seat or not may_step(state, number):
            continue
        for to in destinations(state, number, unit):
            choices.append(L.Move(number, to))
            if to != OUTER and state.terrain[to] == UNEXPLORED:
                choices.extend(L.Move(number, to, card) for card in cards)
    choices.extend(movement_cards(state, seat))
    choices.append(L.EndMovement())
    return choices


def destinations(state: LandnamState, number: int, unit: Unit) -> list[int]:
    """Where unit ``number`` may step: vacant positions it may enter, unexplored positions,
    and hexes whose unit it may chase; only the seat's first-move positions for its first."""
    seat = unit.owner
    allowed = None if state.moved[seat] else first_positions(state, seat)
    found = []
    for to in state.board.moves_from(unit.at):
        if allowed is not None and to not in allowed:
            continue
        if to != OUTER and state.terrain[to] == UNEXPLORED:
            found.append(to)
            continue
        if not may_enter(state, unit, to, state.landing):
            continue
        occupant = state.occupant(to)
        if occupant < 0:
            found.append(to)
        elif allowed is None:
            defender = state.units[occupant]
            if defender is not None and _may_chase(state, seat, defender):
                found.append(to)
    return found


def move_refusal(state: LandnamState, seat: Seat, action: L.Move) -> tuple[str, str]:
    """Why ``seat``'s step ``action``, not among its legal steps in the movement phase, is
    refused: its reason and rule (§9.1-9.7, §10.1; gaps G2, G3, G24)."""
    number, to = action.unit, action.to
    unit = state.units[number] if 0 <= number < len(state.units) else None
    if unit is None or unit.owner != seat:
        return "a seat moves its own units on the board", "landnam §9.1"
    if not may_step(state, number):
        return (
            "one unit moves up to two steps or two units a step each, and a Fair wind gives one more",
            "landnam §9.1, G3",
        )
    if not (to == OUTER or 0 <= to < state.board.size) or not state.board.adjacent(unit.at, to):
        return "a step goes into an adjacent position", "landnam §9.1"
    if not state.moved[seat] and to not in first_positions(state, seat):
        return (
            "the first move goes to a non-corner edge position on a side no other seat has entered",
            "landnam §9.6, G24",
        )
    unexplored = to != OUTER and state.terrain[to] == UNEXPLORED
    if action.fate != L.NO_CARD and (
        not unexplored or state.rules.fate_marks[action.fate] != "exploration"
    ):
        return "an Exploration card is played with an exploration, before its dice", "landnam §10.1"
    if not unexplored and state.occupant(to) >= 0 and may_enter(state, unit, to, state.landing):
        return (
            "a unit chases only an outlaw whose red token points at its seat, or with Drive off",
            "landnam §9.7",
        )
    return (
        "a ship goes to vacant sea, a settler to vacant producing land (a mountain with Landing,"
        " or as an outlaw)",
        "landnam §9.2-9.4, G2",
    )


def moved(state: LandnamState, action: L.Move) -> None:
    """One step (§9.1): an exploration, a chase or a plain move."""
    unit = state.unit(action.unit)
    if may_step_normally(state, action.unit):
        state.steps.append(action.unit)
    else:
        state.extra_steps -= 1
    state.moved[unit.owner] = True
    to = action.to
    _mark_side(state, unit.owner, to)
    if to != OUTER and state.terrain[to] == UNEXPLORED:
        _explore(state, action, unit)
        return
    occupant = state.occupant(to)
    if occupant >= 0:
        state.chase = Chase(action.unit, unit.at, occupant)
        if not flee_choices(state, state.units[occupant].owner):  # type: ignore[union-attr]
            remove_unit(state, occupant, award=True)
            _arrive(state, action.unit, to)
            return
        state.phase = FLEE
        return
    _arrive(state, action.unit, to)


def may_step_normally(state: LandnamState, number: int) -> bool:
    """Whether unit ``number``'s next step is one of the normal two (else a Fair wind step)."""
    if len(state.steps) >= 2:
        return False
    saved, state.extra_steps = state.extra_steps, 0
    try:
        return may_step(state, number)
    finally:
        state.extra_steps = saved


def _mark_side(state: LandnamState, seat: Seat, to: int) -> None:
    """A seat enters or explores an edge position: its side counts as entered (§9.6)."""
    if to != OUTER and state.board.side[to] >= 0:
        state.entered[state.board.side[to]].add(seat)


def _arrive(state: LandnamState, number: int, to: int) -> None:
    """Unit ``number`` moves into ``to`` and its step ends."""
    unit = state.unit(number)
    unit.at = to
    follow_tokens(state, unit)
    state.landing = state.drive_off = False
    state.chase = None
    state.exploration = None
    state.phase = TRADE if to == OUTER else MOVE


def follow_tokens(state: LandnamState, unit: Unit) -> None:
    """After an outlaw's move (§14): on a mountain (or the outer sea, which has no corners) its
    red tokens go; elsewhere each follows to a settlement of the same seat at a corner of the
    new hex, or goes back to the supply."""
    if not unit.tokens:
        return
    if unit.at == OUTER or state.terrain[unit.at] == Land.MOUNTAIN:
        unit.tokens = []
        return
    corners = state.board.corners[unit.at]
    kept = []
    for plaintiff, corner in unit.tokens:
        if corner in corners and state.buildings.get(corner, (-1, False))[0] == plaintiff:
            kept.append((plaintiff, corner))
            continue
        found = [c for c in corners if state.buildings.get(c, (-1, False))[0] == plaintiff]
        if found:
            kept.append((plaintiff, found[0]))
    unit.tokens = kept


def remove_unit(state: LandnamState, number: int, award: bool) -> None:
    """Unit ``number`` leaves the board: to its owner's reserve (gap G11; lost for good with
    ``landnam_units_lost``); with ``award``, each red token is a point for the seat it points
    at (§14)."""
    unit = state.unit(number)
    if award:
        for plaintiff, _ in unit.tokens:
            state.tokens[plaintiff][1] += 1
    state.units[number] = None
    if not state.options.flag("landnam_units_lost"):
        if unit.ship:
            state.ships[unit.owner] += 1
        else:
            state.settlers[unit.owner] += 1


def modifier(state: LandnamState, position: int) -> int:
    """The exploration modifier (§10.3): +2 a neighbouring mountain, +1 other explored land,
    at most +4."""
    total = 0
    for n in state.board.neighbours[position]:
        terrain = state.terrain[n]
        if terrain == Land.MOUNTAIN:
            total += 2
        elif terrain != UNEXPLORED and Land(terrain).produces:
            total += 1
    return min(4, total)


def _explore(state: LandnamState, action: L.Move, unit: Unit) -> None:
    """Begin exploring ``action.to`` (§10.1-10.2): the card is spent, then the dice are due;
    an exploration that can place nothing fails at once, its step used (gap G13)."""
    card = action.fate
    if card != L.NO_CARD:
        fate.spend(state, unit.owner, card)
    fixed = FIXED_TERRAIN.get(Fate(card)) if card != L.NO_CARD else None
    if fixed is not None and state.terrain_stock[fixed]:
        roll = "red"
    else:
        m = modifier(state, action.to)
        if not any(state.terrain_stock[terrain_of(d + m)] for d in range(1, 11)):
            state.landing = state.drive_off = False
            state.phase = MOVE
            return
        roll = "seer" if card == Fate.SEERS_COUNSEL else "both"
    state.exploration = Exploration(action.unit, action.to, card, roll)
    state.phase = EXPLORE


@cache
def _outcomes(roll: str) -> tuple[tuple[L.ExploreRoll, ...], tuple[int, ...]]:
    faces = range(1, 11)
    if roll == "both":
        return tuple(L.ExploreRoll((g,), (r,)) for g in faces for r in faces), (10, 10)
    if roll == "red":
        return tuple(L.ExploreRoll((), (r,)) for r in faces), (10,)
    if roll == "green":
        return tuple(L.ExploreRoll((g,), ()) for g in faces), (10,)
    return (
        tuple(
            L.ExploreRoll((g1, g2), (r1, r2))
            for g1 in faces
            for g2 in faces
            for r1 in faces
            for r2 in faces
        ),
        (10, 10, 10, 10),
    )


def explore_node(state: LandnamState) -> ChanceNode:
    """The exploration dice due (§10.2): a uniform node of sides 10 and 10 (green, then red),
    one side after an Exploration card fixed the terrain (red) or on a re-roll (green), four
    with Seer's counsel."""
    assert state.exploration is not None
    outcomes, sides = _outcomes(state.exploration.roll)
    return ChanceNode(UNIFORM, "explore", outcomes, sides)


def explore_rolled(state: LandnamState, action: L.ExploreRoll) -> None:
    """The exploration dice are rolled: Seer's counsel's faces are chosen next; else the hex is
    found (§10.4-10.7)."""
    ex = state.exploration
    assert ex is not None
    if ex.roll == "seer":
        ex.green, ex.red = action.green, action.red
        state.phase = SEER
        return
    if action.green:
        ex.green = action.green
    if action.red:
        ex.red = action.red
    _found(state, ex)


def seer_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Seer's counsel: each pair of one green and one red face rolled."""
    ex = state.exploration
    assert ex is not None
    pairs = {(ex.green[g], ex.red[r]): (g, r) for g in range(2) for r in range(2)}
    return [L.ChooseSeer(g, r) for g, r in sorted(pairs.values())]


def seer_chosen(state: LandnamState, action: L.ChooseSeer) -> None:
    """The chosen faces count as the exploration's roll."""
    ex = state.exploration
    assert ex is not None
    ex.green, ex.red = (ex.green[action.green],), (ex.red[action.red],)
    ex.roll = "both"
    _found(state, ex)


def _found(state: LandnamState, ex: Exploration) -> None:
    """Place the hex the roll found (§10.4-10.7), or re-roll the green die when its terrain is
    out of stock; the reward follows, then the unit enters if it may."""
    fixed = FIXED_TERRAIN.get(Fate(ex.card)) if ex.card != L.NO_CARD else None
    if fixed is not None and state.terrain_stock[fixed]:
        terrain = fixed
    else:
        terrain = terrain_of(ex.green[0] + modifier(state, ex.to))
        if not state.terrain_stock[terrain]:
            ex.roll = "green"
            state.phase = EXPLORE
            return
    state.terrain_stock[terrain] -= 1
    state.terrain[ex.to] = terrain
    seat = state.unit(ex.unit).owner
    draw = terrain == Land.MOUNTAIN
    if terrain.produces:
        value = first_available(state, marker_of(ex.red[0]))
        if value:
            state.numbers[ex.to] = value
            state.marker_stock[value] -= 1
        kind = terrain.kind
        if value and state.stock[kind]:
            state.stock[kind] -= 1
            state.hands[seat][kind] += 1
        else:
            draw = True
    if draw:
        fate.queue_draws(state, [seat], EXPLORED)
    else:
        settle_exploration(state)


def first_available(state: LandnamState, value: int) -> int:
    """``value``, or the first value after it in the ageing cycle that is in stock (§10.5);
    0 when none is."""
    for _ in CYCLE:
        if state.marker_stock[value]:
            return value
        value = next_number(value)
    return 0


def settle_exploration(state: LandnamState) -> None:
    """After the hex is placed (§10.8, gap G16): the unit enters if it may; a ship facing land
    or a settler facing a mountain may play a Landing card (:data:`~.phases.ENTRY`) when its
    seat holds a fate card; else it stays."""
    ex = state.exploration
    assert ex is not None
    unit = state.unit(ex.unit)
    if may_enter(state, unit, ex.to, state.landing):
        _arrive(state, ex.unit, ex.to)
        return
    if may_enter(state, unit, ex.to, True) and state.fate_count(unit.owner):
        state.phase = ENTRY
        return
    stayed(state, L.Stay())


def entry_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Stay, or play a Landing card to enter the hex just found (§9.5)."""
    choices: list[Action] = [L.Stay()]
    if state.fate[seat][Fate.LANDING]:
        choices.append(L.PlayFate(seat, Fate.LANDING))
    return choices


def land_after_exploration(state: LandnamState) -> None:
    """A Landing card played after an exploration: the unit enters at once (§9.5)."""
    ex = state.exploration
    assert ex is not None
    _arrive(state, ex.unit, ex.to)


def stayed(state: LandnamState, action: L.Stay) -> None:
    """The unit stays where it was; its step is used (§10 "Trigger")."""
    state.exploration = None
    state.landing = state.drive_off = False
    state.phase = MOVE


def fleeing_seat(state: LandnamState) -> Seat:
    """The owner of the chased unit."""
    assert state.chase is not None
    return state.unit(state.chase.chased).owner


def flee_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Where the chased unit may go (§9.7): one step by its normal rules, not exploring, not
    back where the chaser came from, into no occupied hex, with no card."""
    chase = state.chase
    assert chase is not None
    unit = state.unit(chase.chased)
    return [
        L.Flee(seat, to)
        for to in state.board.moves_from(unit.at)
        if to != chase.origin
        and (to == OUTER or state.terrain[to] != UNEXPLORED)
        and state.occupant(to) < 0
        and may_enter(state, unit, to, False)
    ]


def fled(state: LandnamState, action: L.Flee) -> None:
    """The chased unit moves away (its tokens follow, §14; an edge position's side counts as
    entered by its seat, §9.6); the chaser enters its hex. A chased ship forced into the outer
    sea does not end the phase (gap G25)."""
    chase = state.chase
    assert chase is not None
    chased = state.unit(chase.chased)
    target = chased.at
    chased.at = action.to
    _mark_side(state, chased.owner, action.to)
    follow_tokens(state, chased)
    _arrive(state, chase.chaser, target)


def end_movement(state: LandnamState, action: L.EndMovement) -> None:
    """The movement phase ends; trade and building follow (§5)."""
    state.landing = state.drive_off = False
    state.phase = TRADE


__all__ = [
    "destinations",
    "end_movement",
    "entry_choices",
    "explore_node",
    "explore_rolled",
    "first_available",
    "fled",
    "flee_choices",
    "fleeing_seat",
    "follow_tokens",
    "land_after_exploration",
    "may_enter",
    "may_step",
    "modifier",
    "move_choices",
    "move_refusal",
    "moved",
    "movement_cards",
    "normal_steps_spent",
    "remove_unit",
    "seer_choices",
    "seer_chosen",
    "settle_exploration",
    "stayed",
]
