"""Landnám's harvest, ageing, trade and building, and the end of a turn
(../shared/landnam-rules.md §6, §7, §11, §12, §13, §15; gaps G10, G15, G20, G21).

Builds are queued (gap G20): each is checked against the board as it stands plus the builds
already queued, claims its hex or corner, is paid when queued and takes effect when the turn
ends, so nothing built this turn meets another build's requirement or a trade's this turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import fate, movement
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.parts import Queued, Unit
from hexlan.engine.variants.landnam.phases import (
    AGE_PICK,
    ALTHING_OPEN,
    ANSWER,
    DICE,
    HARVEST_CARD,
    MOVE,
    OVER,
    ROLL,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import UNEXPLORED, Fate, Land, next_number

if TYPE_CHECKING:
    from hexlan.engine.core import Hand
    from hexlan.engine.variants.landnam.state import LandnamState


def rolled(state: LandnamState, action: A.RollDice) -> None:
    """The active seat rolls the harvest dice (§6.1)."""
    state.phase = DICE


def dice(state: LandnamState, action: A.Dice) -> None:
    """The roll: a 7 holds the Althing, after its fate draws (§8.1: the active seat and every
    seat holding none); else the harvest, after a Harvest card if the seat holds a fate card."""
    state.roll = action.total
    if state.roll == 7:
        seats = [state.active] + [
            s
            for s in (state.next_seat(state.active + k) for k in range(state.players - 1))
            if not state.fate_count(s)
        ]
        fate.queue_draws(state, seats, ALTHING_OPEN)
        return
    if state.fate_count(state.active):
        state.phase = HARVEST_CARD
        return
    harvest(state, L.Harvest())


def harvest_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """The active seat's choices after a harvest roll: take it, or play one Harvest card
    (§6.2, gap G22): Good year up or down by one (never to 7, within 2-12), Full barns,
    Steady seasons."""
    choices: list[Action] = [L.Harvest()]
    for face in state.holds(seat, "harvest"):
        if face == Fate.GOOD_YEAR:
            for change in (-1, 1):
                total = state.roll + change
                if 2 <= total <= 12 and total != 7:
                    choices.append(L.PlayFate(seat, face, -1, change))
        else:
            choices.append(L.PlayFate(seat, face))
    return choices


def owed(state: LandnamState) -> tuple[list[list[int]], list[int]]:
    """What the roll owes each seat by kind, and the hexes that pay (§6.3): 2 to a settler's
    owner (no building there gets anything), else 1 a farm and 2 a town at the hex's corners;
    Full barns adds 1 to the active seat from each hex paying it."""
    dues = [[0] * 4 for _ in range(state.players)]
    paying = []
    board = state.board
    for h in range(board.size):
        terrain = state.terrain[h]
        if terrain == UNEXPLORED or state.numbers[h] != state.roll or not Land(terrain).produces:
            continue
        kind = Land(terrain).kind
        gains = [0] * state.players
        occupant = state.occupant(h)
        if occupant >= 0:
            gains[state.unit(occupant).owner] += 2
        else:
            for corner in board.corners[h]:
                building = state.buildings.get(corner)
                if building is not None:
                    gains[building[0]] += 2 if building[1] else 1
        if state.barns and gains[state.active]:
            gains[state.active] += 1
        if any(gains):
            paying.append(h)
            for seat, gain in enumerate(gains):
                dues[seat][kind] += gain
    return dues, paying


def harvest(state: LandnamState, action: L.Harvest) -> None:
    """Pay the harvest (§6.3), or a famine (§6.4): if the stock cannot pay a kind in full,
    nobody gets anything and every seat returns its cards of each short kind. After a harvest
    that paid, one paying hex ages (§6.5; gap G10: the active seat picks; none after a famine
    or with Steady seasons)."""
    dues, paying = owed(state)
    short = [k for k in range(4) if sum(d[k] for d in dues) > state.stock[k]]
    if short:
        for hand in state.hands:
            for kind in short:
                state.stock[kind] += hand[kind]
                hand[kind] = 0
        paying = []
    else:
        for seat, due in enumerate(dues):
            for kind, count in enumerate(due):
                state.hands[seat][kind] += count
                state.stock[kind] -= count
    steady = state.steady
    state.barns = state.steady = False
    if paying and not steady:
        if len(paying) == 1:
            age(state, paying[0])
        else:
            state.paid = paying
            state.phase = AGE_PICK
            return
    state.phase = MOVE


def age(state: LandnamState, position: int) -> None:
    """Age the hex's number marker (§7): the next value of the cycle in stock replaces it, the
    old one going back; with none in stock all the way round, it stays."""
    value = state.numbers[position]
    after = next_number(value)
    while not state.marker_stock[after] and after != value:
        after = next_number(after)
    if after != value:
        state.marker_stock[value] += 1
        state.marker_stock[after] -= 1
        state.numbers[position] = after


def age_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """The hexes that paid this harvest, one of which ages (§6.5)."""
    return [L.AgeHex(h) for h in state.paid]


def age_picked(state: LandnamState, action: L.AgeHex) -> None:
    """The picked hex ages; the movement phase follows."""
    age(state, action.position)
    state.paid = []
    state.phase = MOVE


# --- trade -------------------------------------------------------------------------------


def may_use_harbour(state: LandnamState, seat: Seat, position: int) -> bool:
    """Whether ``seat`` may trade 2:1 at the harbour on ``position`` (§11.2): its ship is there,
    or it has a settlement at a corner of the hex and no ship of anyone is there."""
    if state.harbours[position] < 0:
        return False
    occupant = state.occupant(position)
    if occupant >= 0:
        return state.unit(occupant).owner == seat
    return any(
        state.buildings.get(c, (-1, False))[0] == seat for c in state.board.corners[position]
    )


def trade_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """The active seat's choices in trade and building: trades with the stock, one-for-one
    offers to another seat, every build it can pay for and place, and ending the turn."""
    hand = state.hands[seat]
    choices: list[Action] = []
    for give in range(4):
        for get in range(4):
            if get != give and state.stock[get] and hand[give] >= state.rules.bank_rate:
                choices.append(L.BankTrade(give, get))
    for position, kind in enumerate(state.harbours):
        if (
            kind >= 0
            and hand[kind] >= state.rules.harbour_rate
            and may_use_harbour(state, seat, position)
        ):
            choices.extend(
                L.HarbourTrade(position, get)
                for get in range(4)
                if get != kind and state.stock[get]
            )
    if state.offers < state.rules.offers_per_turn:
        choices.extend(_offers(state, seat))
    choices.extend(build_choices(state, seat))
    choices.append(A.END_TURN)
    return choices


def _offers(state: LandnamState, seat: Seat) -> list[Action]:
    """One-for-one offers to every other seat that holds the card asked for."""
    found: list[Action] = []
    for other in range(state.players):
        if other == seat:
            continue
        for give in range(4):
            if not state.hands[seat][give]:
                continue
            for get in range(4):
                if get != give and state.hands[other][get]:
                    found.append(L.OfferTrade(other, _one(give), _one(get)))
    return found


def _one(kind: int) -> Hand:
    return tuple(1 if k == kind else 0 for k in range(4))


def bank_trade(state: LandnamState, action: L.BankTrade) -> None:
    """Four of a kind to the stock for one of another (§11.1)."""
    _swap(state, state.active, action.give, state.rules.bank_rate, action.get)


def harbour_trade(state: LandnamState, action: L.HarbourTrade) -> None:
    """Two of the harbour's kind to the stock for one of another (§11.2)."""
    _swap(
        state, state.active, state.harbours[action.position], state.rules.harbour_rate, action.get
    )


def _swap(state: LandnamState, seat: Seat, give: int, count: int, get: int) -> None:
    state.hands[seat][give] -= count
    state.stock[give] += count
    state.hands[seat][get] += 1
    state.stock[get] -= 1


def offered(state: LandnamState, action: L.OfferTrade) -> None:
    """The active seat offers a trade; the offered seat answers next (§11.3)."""
    state.offers += 1
    state.offer = action
    state.phase = ANSWER


def answering_seat(state: LandnamState) -> Seat:
    """The seat a trade is offered to."""
    assert state.offer is not None
    return state.offer.to


def answer_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Accept (if the seat holds what is asked) or decline."""
    assert state.offer is not None
    choices: list[Action] = [L.AnswerTrade(seat, False)]
    if all(h >= n for h, n in zip(state.hands[seat], state.offer.get, strict=True)):
        choices.append(L.AnswerTrade(seat, True))
    return choices


def answered(state: LandnamState, action: L.AnswerTrade) -> None:
    """An accepted offer is binding: the cards change hands (§11.3)."""
    offer = state.offer
    assert offer is not None
    if action.accept:
        mine, theirs = state.hands[state.active], state.hands[offer.to]
        for kind in range(4):
            mine[kind] += offer.get[kind] - offer.give[kind]
            theirs[kind] += offer.give[kind] - offer.get[kind]
    state.offer = None
    state.phase = TRADE


# --- building ----------------------------------------------------------------------------


def _queued(state: LandnamState, what: str, seat: Seat | None = None) -> list[Queued]:
    return [q for q in state.queue if q.what == what and (seat is None or q.seat == seat)]


def houses_left(state: LandnamState, seat: Seat) -> int:
    """Houses in ``seat``'s reserve, less those its queued farms and towns take."""
    return (
        state.houses[seat] - len(_queued(state, "farm", seat)) - len(_queued(state, "town", seat))
    )


def claimed(state: LandnamState, position: int) -> bool:
    """Whether a queued unit claims ``position`` (§12.4: no two units into one hex)."""
    return any(q.place == position for q in state.queue if q.what in ("ship", "settler"))


def _pays(state: LandnamState, seat: Seat, cost: Hand) -> bool:
    return all(h >= c for h, c in zip(state.hands[seat], cost, strict=True))


def _own_unit(state: LandnamState, seat: Seat, number: int) -> Unit | None:
    unit = state.units[number] if 0 <= number < len(state.units) else None
    if unit is None or unit.owner != seat or unit.acted or unit.at == OUTER:
        return None
    return unit


def sea_or_mountain(state: LandnamState, hexes: tuple[int, ...]) -> bool:
    """Whether every one of ``hexes`` (the positions along a side: two, or one where the side
    lies on the rim) is sea or mountain, the rim counting as sea (gap G12; not with option
    ``landnam_rim_is_land``; unexplored positions are neither)."""
    if len(hexes) < 2 and state.options.flag("landnam_rim_is_land"):
        return False
    return all(state.terrain[h] in (Land.SEA, Land.MOUNTAIN) for h in hexes)


def farm_refusal(state: LandnamState, seat: Seat, number: int, corner: int) -> str:
    """Why ``seat``'s unit ``number`` may not build a farm on ``corner`` (§12.2), or ""."""
    unit = _own_unit(state, seat, number)
    board = state.board
    if unit is None:
        return "the unit must be the seat's own, on a hex inside the rim, with no build this turn (§12.4)"
    if unit.outlaw:
        return "an outlaw builds no farm while it has a red token (§12.2)"
    if corner not in board.corners[unit.at]:
        return "the farm goes on a corner of the unit's hex (§12.2)"
    if corner in state.buildings or any(q.place == corner for q in _queued(state, "farm")):
        return "that corner holds a settlement already"
    if not any(
        state.terrain[h] not in (UNEXPLORED, Land.SEA, Land.MOUNTAIN)
        for h in board.corner_hexes[corner]
    ):
        return "a farm's corner must touch producing land (§12.2)"
    farms = {q.place for q in _queued(state, "farm")}
    for other in board.corner_neighbours[corner]:
        if (other in state.buildings or other in farms) and not sea_or_mountain(
            state, board.edge_hexes(corner, other)
        ):
            return "a farm may not stand next to a settlement unless both hexes between are sea or mountain (§12.2)"
    return _house_refusal(state, seat, state.rules.farm_cost, "a farm costs grain, timber and wool")


def _house_refusal(state: LandnamState, seat: Seat, cost: Hand, words: str) -> str:
    """Why ``seat`` may not place a house costing ``cost`` (``words`` says the cost), or ""."""
    if houses_left(state, seat) < 1:
        return "no house is left in the reserve (§2.1)"
    if not _pays(state, seat, cost):
        return f"{words} (§12.1)"
    return ""


def borders_sea(state: LandnamState, corner: int) -> bool:
    """Whether a corner borders a sea hex, the rim counting as sea (gap G12; option
    ``landnam_rim_is_land`` turns that off)."""
    if state.board.corner_rim[corner] and not state.options.flag("landnam_rim_is_land"):
        return True
    return any(state.terrain[h] == Land.SEA for h in state.board.corner_hexes[corner])


def town_refusal(state: LandnamState, seat: Seat, corner: int) -> str:
    """Why ``seat``'s farm on ``corner`` may not become a town (§12.3, §12.4), or ""."""
    if state.buildings.get(corner) != (seat, False):
        return "a town is built on the seat's own farm (§12.3)"
    if corner in state.used:
        return "a farm builds one unit or becomes a town in a turn, not both (§12.4)"
    if not borders_sea(state, corner):
        return "a town's farm must border a sea hex (§12.1)"
    return _house_refusal(
        state, seat, state.rules.town_cost, "a town costs iron, grain, timber and two wool"
    )


def unit_refusal(state: LandnamState, seat: Seat, corner: int, ship: bool, to: int) -> str:
    """Why ``seat`` may not build a ship or settler from ``corner`` onto ``to`` (§12.1, §12.4),
    or ""."""
    reserve = state.ships[seat] if ship else state.settlers[seat]
    reserve -= len(_queued(state, "ship" if ship else "settler", seat))
    cost = state.rules.ship_cost if ship else state.rules.settler_cost
    if reserve < 1:
        return "no such piece is left in the reserve (§2.1)"
    if not _pays(state, seat, cost):
        return "a ship costs iron and timber, a settler iron and grain (§12.1)"
    if corner == -1:
        return (
            ""
            if ship and to == OUTER
            else "only a ship is built with no settlement, on the outer sea (§12.1)"
        )
    building = state.buildings.get(corner)
    if building is None or building[0] != seat:
        return "a unit is built by the seat's own farm or town (§12.1)"
    used = state.used.get(corner, 0)
    if used >= (3 if building[1] else 1):
        return "a farm builds one unit a turn, a town up to three (§12.4)"
    if to not in state.board.corner_hexes[corner]:
        return "the unit goes onto one of the settlement's hexes (§12.1)"
    terrain = state.terrain[to]
    if terrain == UNEXPLORED or state.occupant(to) >= 0 or claimed(state, to):
        return "the hex must be explored and vacant (§12.1)"
    if (terrain == Land.SEA) != ship or terrain == Land.MOUNTAIN:
        return "a ship goes onto sea, a settler onto producing land (§12.1)"
    return ""


def harbour_refusal(state: LandnamState, seat: Seat, number: int, kind: int) -> str:
    """Why ``seat``'s ship ``number`` may not build a harbour of ``kind`` (§12.1, §13), or ""."""
    unit = _own_unit(state, seat, number)
    if unit is None or not unit.ship or state.terrain[unit.at] != Land.SEA:
        return "a harbour is built by the seat's own ship on a sea hex inside the rim, with no build this turn (§12.4, §13)"
    if state.harbours[unit.at] >= 0 or any(q.place == unit.at for q in _queued(state, "harbour")):
        return "a sea hex holds one harbour (§13)"
    if not any(
        state.terrain[n] not in (UNEXPLORED, Land.SEA, Land.MOUNTAIN)
        for n in state.board.neighbours[unit.at]
    ):
        return "a harbour's hex must border producing land (§12.1)"
    if not 0 <= kind < 4 or state.harbour_stock[kind] <= len(
        [q for q in _queued(state, "harbour") if q.kind == kind]
    ):
        return "no harbour marker of that resource is in stock (§2.3)"
    if state.hands[seat][kind] < state.rules.harbour_cost:
        return "a harbour costs two cards of its marker's resource (§12.1)"
    return ""


def age_refusal(state: LandnamState, seat: Seat, number: int) -> str:
    """Why ``seat``'s unit ``number`` may not age its hex (§12.1), or ""."""
    unit = _own_unit(state, seat, number)
    if unit is None or not state.settler_like(unit) or not state.numbers[unit.at]:
        return "a settler of the seat's own on producing land, with no build this turn, ages its hex (§12.1, §12.4)"
    if state.hands[seat][Land(state.terrain[unit.at]).kind] < state.rules.age_cost:
        return "ageing costs one card of the hex's resource (§12.1)"
    return ""


def build_refusal(state: LandnamState, seat: Seat, action: Action) -> str:
    """Why ``seat`` may not make build ``action`` now, or ""."""
    if isinstance(action, L.BuildFarm):
        return farm_refusal(state, seat, action.unit, action.corner)
    if isinstance(action, L.BuildTown):
        return town_refusal(state, seat, action.corner)
    if isinstance(action, L.BuildUnit):
        return unit_refusal(state, seat, action.corner, action.ship, action.to)
    if isinstance(action, L.BuildHarbour):
        return harbour_refusal(state, seat, action.unit, action.kind)
    if isinstance(action, L.AgeNumber):
        return age_refusal(state, seat, action.unit)
    return "not a build"


def build_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Every build ``seat`` may queue now."""
    candidates: list[Action] = []
    board = state.board
    for number, unit in enumerate(state.units):
        if unit is None or unit.owner != seat or unit.acted or unit.at == OUTER:
            continue
        candidates.extend(L.BuildFarm(number, c) for c in board.corners[unit.at])
        if unit.ship:
            candidates.extend(L.BuildHarbour(number, k) for k in range(4))
        candidates.append(L.AgeNumber(number))
    for corner in state.settlements(seat):
        candidates.append(L.BuildTown(corner))
        for to in board.corner_hexes[corner]:
            candidates.extend((L.BuildUnit(corner, True, to), L.BuildUnit(corner, False, to)))
    candidates.append(L.BuildUnit(-1, True, OUTER))
    return [a for a in candidates if not build_refusal(state, seat, a)]


def build(state: LandnamState, action: Action) -> None:
    """Pay for a build and queue it for the end of the turn (§12.4, gap G20)."""
    seat, rules = state.active, state.rules
    if isinstance(action, L.BuildFarm):
        state.unit(action.unit).acted = True
        _pay(state, seat, rules.farm_cost)
        state.queue.append(Queued("farm", seat, action.corner, action.unit))
    elif isinstance(action, L.BuildTown):
        state.used[action.corner] = 99
        _pay(state, seat, rules.town_cost)
        state.queue.append(Queued("town", seat, action.corner))
    elif isinstance(action, L.BuildUnit):
        if action.corner >= 0:
            state.used[action.corner] = state.used.get(action.corner, 0) + 1
        _pay(state, seat, rules.ship_cost if action.ship else rules.settler_cost)
        state.queue.append(Queued("ship" if action.ship else "settler", seat, action.to))
    elif isinstance(action, L.BuildHarbour):
        unit = state.unit(action.unit)
        unit.acted = True
        _pay_kind(state, seat, action.kind, rules.harbour_cost)
        state.queue.append(Queued("harbour", seat, unit.at, action.unit, action.kind))
    elif isinstance(action, L.AgeNumber):
        unit = state.unit(action.unit)
        unit.acted = True
        _pay_kind(state, seat, Land(state.terrain[unit.at]).kind, rules.age_cost)
        state.queue.append(Queued("age", seat, unit.at, action.unit))


def _pay(state: LandnamState, seat: Seat, cost: Hand) -> None:
    for kind, count in enumerate(cost):
        state.hands[seat][kind] -= count
        state.stock[kind] += count


def _pay_kind(state: LandnamState, seat: Seat, kind: int, count: int) -> None:
    state.hands[seat][kind] -= count
    state.stock[kind] += count


def _settle_queue(state: LandnamState) -> None:
    """Every queued build takes effect together (§12.4)."""
    for q in state.queue:
        if q.what == "farm":
            movement.remove_unit(state, q.unit, award=False)
            state.buildings[q.place] = (q.seat, False)
            state.houses[q.seat] -= 1
        elif q.what == "town":
            state.buildings[q.place] = (q.seat, True)
            state.houses[q.seat] -= 1
        elif q.what in ("ship", "settler"):
            ship = q.what == "ship"
            state.units.append(Unit(q.seat, ship, q.place))
            if ship:
                state.ships[q.seat] -= 1
            else:
                state.settlers[q.seat] -= 1
        elif q.what == "harbour":
            state.harbours[q.place] = q.kind
            state.harbour_stock[q.kind] -= 1
        else:
            age(state, q.place)
    state.queue = []


def standing(state: LandnamState, seat: Seat) -> tuple[int, ...]:
    """``seat``'s rank key (§15): points, then black, red and white tokens, house points, and
    resource cards (fate cards never count)."""
    white, red, black = state.tokens[seat]
    return (
        state.victory_points(seat),
        black,
        red,
        white,
        state.house_points(seat),
        sum(state.hands[seat]),
    )


def end_turn(state: LandnamState, action: A.EndTurn) -> None:
    """The turn ends (§5): the queued builds take effect, then the victory check (§15): with a
    seat at the target or more, the best standing wins, a tie after every tie-break shared
    (gap G21). Else the next seat's turn begins."""
    _settle_queue(state)
    for unit in state.units:
        if unit is not None:
            unit.acted = False
    state.used = {}
    state.offers = 0
    state.steps = []
    state.extra_steps = 0
    target = state.options.victory_points or state.rules.victory_points
    if any(state.victory_points(s) >= target for s in range(state.players)):
        best = max(standing(state, s) for s in range(state.players))
        state.won = tuple(s for s in range(state.players) if standing(state, s) == best)
        state.phase = OVER
        return
    state.active = state.next_seat(state.active)
    state.enter(ROLL)


__all__ = [
    "age",
    "age_choices",
    "age_picked",
    "answer_choices",
    "answered",
    "answering_seat",
    "bank_trade",
    "build",
    "build_choices",
    "build_refusal",
    "dice",
    "end_turn",
    "harbour_trade",
    "harvest",
    "harvest_choices",
    "may_use_harbour",
    "offered",
    "owed",
    "rolled",
    "standing",
    "trade_choices",
]
