"""Landnám's heuristic bot: a greedy policy for every decision of the game, reading only its
seat's view (a :class:`~hexlan.engine.variants.landnam.state.LandnamState` with ``viewer`` the
seat), registered as ``heuristic`` for Landnám's state class in
:data:`~hexlan.engine.bots.own.OWN_BOTS` (Landnám's spec names this module as its ``bots``).

What it weighs (../shared/landnam-rules.md): a number's worth is its 2d6 odds in pips (6 and 8
five, 2 and 12 one) nudged by where ageing takes it (§7: green 2-6 improve, red 8-12 worsen);
a resource's worth rises when the seat produces little of it. It explores early (§10: a card
and new land), preferring positions whose neighbours make land likely; parks settlers on good
producing land and ships beside good farm corners and on harbours; builds towns, then farms on
corners that touch good numbers and border the sea, then units (§12); trades with the stock
and offers one-for-one trades to complete its next build (§11); sues settlers that block its
harvest and ships that block its harbours when its cards of the case's kind beat the
defendant's public hand, bidding the least raise while the case is worth it (§8.5); saves its
outlaws with Atonement (§8.2); plays Harvest, Movement and Exploration cards when a look
ahead on a copy of its view says they pay (§16.2).

The module also registers Landnám's search bot as ``mcts``: the generic
:class:`~hexlan.engine.bots.own_search.OwnSearchBot` with this bot playing every seat of its
playouts and :func:`position_value` scoring where they end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import Clock
from hexlan.engine.bots.own import OWN_BOTS
from hexlan.engine.bots.own_search import search_bot
from hexlan.engine.core import Seat
from hexlan.engine.game import Game
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import althing, economy, movement
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.parts import Unit
from hexlan.engine.variants.landnam.phases import (
    AGE_PICK,
    ALTHING_OPEN,
    ANSWER,
    APPOINT,
    CASE,
    ENTRY,
    FLEE,
    HARVEST_CARD,
    INVITED,
    MOVE,
    SEER,
    SUING,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import (
    FIXED_TERRAIN,
    UNEXPLORED,
    Fate,
    Land,
    marker_of,
    next_number,
    terrain_of,
)
from hexlan.engine.variants.landnam.state import LandnamState

if TYPE_CHECKING:  # the engine draws no randomness itself: bots get a seeded rng
    import random

AGEING: Final = 0.25
"""How much of the pips a number gains or loses at its next ageing counts now (§7)."""
BASE_NEED: Final = (1.0, 1.0, 1.2, 0.8)
"""What a card of each kind (grain, timber, wool, iron) is worth before scarcity: wool is in
both the farm and twice in the town (§12.1)."""
UNKNOWN_HEX: Final = 1.2
"""What an unexplored position beside a corner is worth (60% producing land, 3 pips on
average, discounted for the wait)."""
TOWN_HOPE: Final = 1.0
"""A farm corner that borders the sea (it may become a town, §12.3)."""
FARM_HOPE: Final = 0.5
"""The share of the best farm corner a unit's hex offers that counts towards the hex."""
EXPLORE: Final = 2.5
"""An exploration's worth beyond the hex found: its card (§10.7) and the new land's corners."""
CASE_CAP: Final = 6
"""The most cards of a case's kind the bot pays into one case: a case won is a white token,
and for a plaintiff a red token, each a point (§8.5, §15)."""
SAFE_SUIT: Final = 1.5
"""A rival that could sue the seat's settler and would lose, once the seat has no house left
to build: three such suits not brought earn a black token (§8.6)."""
HOUSED_OUT: Final = 0.25
"""What cards are worth, against before, to a seat with no house left: its last points come
from the Althing (§1: at most 9 from houses), which its units' places decide."""
VOIDING: Final = (Fate.FLAWED_PLEADING, Fate.THING_BROKEN_UP)
"""The Althing cards that end a case with no token (§16.2), the first ending the case only."""
MOVE_FLOOR: Final = 0.3
"""A step must gain at least this much, else the movement phase ends."""
INCOME: Final = 1.0
CARD: Final = 0.25
CARD_CAP: Final = 12
FATE_CARD: Final = 0.3
UNIT: Final = 0.3
"""The worths :func:`position_value` weighs a position's income, cards, fate cards and units
by, in points."""


def pips(number: int) -> int:
    """The ways two dice make ``number`` (0 for none).

    >>> [pips(n) for n in (0, 2, 6, 8, 12)]
    [0, 1, 5, 5, 1]
    """
    return 6 - abs(7 - number) if 2 <= number <= 12 and number != 7 else 0


def worth(number: int) -> float:
    """A number marker's worth in pips, nudged by ageing (§7): 5 ages to 6, 9 to 10.

    >>> worth(5) > pips(5), worth(9) < pips(9)
    (True, True)
    """
    if not number:
        return 0.0
    return pips(number) + AGEING * (pips(next_number(number)) - pips(number))


class LandnamBot:
    """The heuristic policy for one or more seats of Landnám.

    Args:
        rng: breaks ties between equally good actions.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Game, seat: Seat) -> Action:
        """The action ``seat`` takes now: one of ``view.legal_actions(seat)``.

        Raises:
            TypeError: ``view`` is not a Landnám state.
            ValueError: ``seat`` has no legal action now.
        """
        if not isinstance(view, LandnamState):
            raise TypeError(f"the Landnám bot plays Landnám states, not {type(view).__name__}")
        legal = view.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action in phase {view.phase}")
        if len(legal) == 1:
            return legal[0]
        return _PHASES.get(view.phase, _first)(self, view, seat, legal)

    def best(self, legal: list[Action], score: dict[Action, float]) -> Action:
        """The action of highest ``score`` (missing: 0), ties broken by the rng."""
        top = max(score.get(a, 0.0) for a in legal)
        tied = [a for a in legal if score.get(a, 0.0) >= top - 1e-9]
        return tied[self.rng.randrange(len(tied))]


def _first(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    return legal[0]


# --- what things are worth to the seat ----------------------------------------------------


def rates(view: LandnamState, seat: Seat) -> list[float]:
    """The seat's expected cards of each kind per roll, in pips (a settler on a hex takes its
    2 cards, and no building beside it gets any, §6.3)."""
    found = [0.0] * 4
    on = {u.at: u for u in view.units if u is not None and u.at != OUTER}
    for h in range(view.board.size):
        number = view.numbers[h]
        if not number or view.terrain[h] == UNEXPLORED:
            continue
        kind = Land(view.terrain[h]).kind
        unit = on.get(h)
        if unit is not None:
            if unit.owner == seat and view.settler_like(unit):
                found[kind] += 2 * pips(number)
            if view.settler_like(unit):
                continue
        for corner in view.board.corners[h]:
            building = view.buildings.get(corner)
            if building is not None and building[0] == seat:
                found[kind] += (2 if building[1] else 1) * pips(number)
    return found


def needs(view: LandnamState, seat: Seat) -> list[float]:
    """What a card of each kind is worth to the seat: :data:`BASE_NEED`, doubled for a kind it
    does not produce at all; times :data:`HOUSED_OUT` once it has no house left to build."""
    own = rates(view, seat)
    scale = 1.0 if economy.houses_left(view, seat) > 0 else HOUSED_OUT
    return [scale * base * (1 + 2 / (2 + r)) for base, r in zip(BASE_NEED, own, strict=True)]


def hex_worth(view: LandnamState, h: int, need: list[float]) -> float:
    """What one house beside position ``h`` earns: its number's worth for its kind, or
    :data:`UNKNOWN_HEX` while it is unexplored."""
    terrain = view.terrain[h]
    if terrain == UNEXPLORED:
        return UNKNOWN_HEX
    land = Land(terrain)
    if not land.produces:
        return 0.0
    return worth(view.numbers[h]) * need[land.kind]


def site_ok(view: LandnamState, corner: int) -> bool:
    """Whether a farm may stand on ``corner`` as far as the board goes (§12.2): free, touching
    producing land, and not next to a settlement unless both hexes between are sea or mountain
    (queued farms count)."""
    board = view.board
    farms = {q.place for q in view.queue if q.what == "farm"}
    if corner in view.buildings or corner in farms:
        return False
    if not any(
        view.terrain[h] != UNEXPLORED and Land(view.terrain[h]).produces
        for h in board.corner_hexes[corner]
    ):
        return False
    return all(
        not (other in view.buildings or other in farms)
        or economy.sea_or_mountain(view, board.edge_hexes(corner, other))
        for other in board.corner_neighbours[corner]
    )


def corner_worth(view: LandnamState, corner: int, need: list[float]) -> float:
    """What a farm on ``corner`` earns, plus :data:`TOWN_HOPE` if it may become a town."""
    total = sum(hex_worth(view, h, need) for h in view.board.corner_hexes[corner])
    return total + (TOWN_HOPE if economy.borders_sea(view, corner) else 0.0)


def farm_hope(view: LandnamState, position: int, need: list[float]) -> float:
    """The best farm corner of ``position`` (0 if none is free)."""
    if position == OUTER:
        return 0.0
    sites = [c for c in view.board.corners[position] if site_ok(view, c)]
    return max((corner_worth(view, c, need) for c in sites), default=0.0)


def _settler_income(
    view: LandnamState, seat: Seat, position: int, need: list[float], outlaw: bool
) -> float:
    """What a settler-like unit of ``seat`` on numbered producing ``position`` adds: its 2
    cards, less its own buildings' cards there, plus a little for the rivals' it blocks, less
    the risk of a suit by a rival with more cards of the kind (§8.3); with no house left, plus
    :data:`SAFE_SUIT` for each rival that could sue and would lose."""
    land = Land(view.terrain[position])
    kind, value = land.kind, worth(view.numbers[position])
    total = 2 * value * need[kind]
    rivals: set[Seat] = set()
    for corner in view.board.corners[position]:
        building = view.buildings.get(corner)
        if building is None:
            continue
        houses = 2 if building[1] else 1
        if building[0] == seat:
            total -= houses * value * need[kind]
        else:
            total += 0.3 * houses * value
            rivals.add(building[0])
    mine = view.hands[seat][kind]
    housed = economy.houses_left(view, seat) > 0
    for rival in rivals:
        if view.hands[rival][kind] >= mine or outlaw:
            total -= 2.0
        elif not housed:
            total += SAFE_SUIT
    return total


def unit_worth(
    view: LandnamState, seat: Seat, unit: Unit, position: int, need: list[float]
) -> float:
    """What ``seat``'s ``unit`` is worth standing on ``position``: its harvest as a settler,
    the farm corners beside it, a harbour to trade at, unexplored neighbours to explore; an
    outlaw is safe on a mountain (§14)."""
    if position == OUTER:
        return 0.3 if unit.ship else 0.0
    terrain = view.terrain[position]
    may_farm = not unit.outlaw and economy.houses_left(view, seat) > 0
    total = FARM_HOPE * farm_hope(view, position, need) if may_farm else 0.0
    ashore = not unit.ship or terrain != Land.SEA
    if ashore and view.numbers[position]:
        total += _settler_income(view, seat, position, need, unit.outlaw)
    if terrain == Land.MOUNTAIN and unit.outlaw:
        total += 3.0
    if terrain == Land.SEA:
        unexplored = sum(1 for n in view.board.neighbours[position] if view.terrain[n] < 0)
        total += 0.4 * unexplored
        if view.harbours[position] >= 0:
            total += 0.5
    return total


# --- harvest, ageing ----------------------------------------------------------------------


def _hand_gain(view: LandnamState, after: LandnamState, seat: Seat) -> float:
    """The seat's cards gained from ``view`` to ``after`` by worth, less a third of the best
    rival's gain."""
    need = needs(view, seat)
    mine = sum(
        n * (a - b) for n, a, b in zip(need, after.hands[seat], view.hands[seat], strict=True)
    )
    rivals = [sum(after.hands[s]) - sum(view.hands[s]) for s in range(view.players) if s != seat]
    return mine - max(rivals, default=0) / 3


def _harvest(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Take the harvest, or play the Harvest card that gains most (Good year to hit a paying
    number, Full barns on a good roll), looked at on a copy of the view (§6.2)."""
    score: dict[Action, float] = {}
    for action in legal:
        after = view.copy()
        after.apply(action)
        cost = 0.0 if isinstance(action, L.Harvest) else 0.8
        score[action] = _hand_gain(view, after, seat) - cost
    return bot.best(legal, score)


def _share(view: LandnamState, seat: Seat, h: int) -> float:
    """The seat's cards from hex ``h`` when it pays, less half the rivals'."""
    occupant = view.occupant(h)
    if occupant >= 0 and view.settler_like(view.unit(occupant)):
        return 2.0 if view.unit(occupant).owner == seat else -1.0
    total = 0.0
    for corner in view.board.corners[h]:
        building = view.buildings.get(corner)
        if building is not None:
            houses = 2 if building[1] else 1
            total += houses if building[0] == seat else -houses / 2
    return total


def age_gain(view: LandnamState, seat: Seat, h: int) -> float:
    """What ageing hex ``h``'s number once more is worth to the seat (§7)."""
    number = view.numbers[h]
    after = next_number(number)
    while not view.marker_stock[after] and after != number:
        after = next_number(after)
    return (worth(after) - worth(number)) * _share(view, seat, h)


def _age_pick(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Age the paying hex whose next number helps the seat most, or hurts its rivals most."""
    score: dict[Action, float] = {
        a: age_gain(view, seat, a.position) for a in legal if isinstance(a, L.AgeHex)
    }
    return bot.best(legal, score)


# --- movement and exploration -------------------------------------------------------------


def land_odds(view: LandnamState, position: int) -> tuple[float, float, float]:
    """The chances that exploring ``position`` finds producing land, a mountain, sea (§10:
    the green die plus the neighbours' modifier, faces out of stock re-rolled)."""
    m = movement.modifier(view, position)
    found = [terrain_of(d + m) for d in range(1, 11)]
    found = [t for t in found if view.terrain_stock[t]]
    if not found:
        return 0.0, 0.0, 0.0
    count = len(found)
    land = sum(1 for t in found if t.produces) / count
    mountain = sum(1 for t in found if t == Land.MOUNTAIN) / count
    return land, mountain, 1 - land - mountain


def explore_worth(
    view: LandnamState, seat: Seat, unit: Unit, move: L.Move, need: list[float]
) -> float:
    """What a step exploring ``move.to`` is worth: :data:`EXPLORE`, plus the land found (a
    settler enters land, a ship sea; §10.8), more with an Exploration card that fixes the
    terrain (§16.2), a little more with Seer's counsel."""
    land, mountain, sea = land_odds(view, move.to)
    if not land + mountain + sea and move.fate not in FIXED_TERRAIN:
        return -1.0
    total = EXPLORE + mountain * 0.5
    settle = 2 * 3 * max(need) if not unit.ship else 0.0
    here = unit_worth(view, seat, unit, unit.at, need)
    if move.fate in FIXED_TERRAIN:
        kind = Land(FIXED_TERRAIN[Fate(move.fate)]).kind
        total += 1.0 + 0.5 * need[kind]
        land, sea = 1.0, 0.0
    elif move.fate == Fate.SEERS_COUNSEL:
        total += 0.8
    if unit.ship:
        total += sea * (0.5 - 0.2 * here) + land * 0.5
    else:
        total += land * (settle - here) / 2
    return total


def step_worth(view: LandnamState, seat: Seat, move: L.Move, need: list[float]) -> float:
    """What a step is worth: an exploration's worth, or the unit's worth where it goes less
    where it stands (a chase adds the outlaw's red token, §9.7)."""
    unit = view.unit(move.unit)
    if move.to != OUTER and view.terrain[move.to] == UNEXPLORED:
        return explore_worth(view, seat, unit, move, need)
    gain = unit_worth(view, seat, unit, move.to, need) - unit_worth(view, seat, unit, unit.at, need)
    occupant = view.occupant(move.to)
    if occupant >= 0:
        chased = view.unit(occupant)
        gain += 1.5 if any(p == seat for p, _ in chased.tokens) else 0.5
    return gain


def _best_step(view: LandnamState, seat: Seat, legal: list[Action]) -> tuple[float, Action]:
    """The best step among ``legal`` and its worth (ending the phase: 0)."""
    best: tuple[float, Action] = (0.0, L.EndMovement())
    need = needs(view, seat)
    for action in legal:
        if isinstance(action, L.Move):
            value = step_worth(view, seat, action, need)
            if value > best[0]:
                best = (value, action)
    return best


def _move(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """The best step if it gains :data:`MOVE_FLOOR`; before it, a Movement card whose step
    (looked at on a copy) gains a point more (§9.5); else end the phase."""
    value, step = _best_step(view, seat, legal)
    for action in legal:
        if isinstance(action, L.PlayFate):
            after = view.copy()
            after.apply(action)
            gained, _ = _best_step(after, seat, after.legal_actions(seat))
            if gained > max(value, MOVE_FLOOR) + 1.0:
                return action
    if value >= MOVE_FLOOR:
        return step
    return L.EndMovement()


def _seer(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Seer's counsel: the faces that find the best hex for the exploring unit."""
    ex = view.exploration
    assert ex is not None
    unit = view.unit(ex.unit)
    need = needs(view, seat)
    m = movement.modifier(view, ex.to)
    score: dict[Action, float] = {}
    for action in legal:
        if not isinstance(action, L.ChooseSeer):
            continue
        terrain = terrain_of(ex.green[action.green] + m)
        number = movement.first_available(view, marker_of(ex.red[action.red]))
        if not view.terrain_stock[terrain]:
            score[action] = 0.0
        elif terrain.produces:
            score[action] = 1.0 + worth(number) * need[terrain.kind] * (1 if unit.ship else 2)
        elif terrain == Land.MOUNTAIN:
            score[action] = 1.0
        else:
            score[action] = 0.8 if unit.ship else 0.2
    return bot.best(legal, score)


def _entry(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Play Landing when the hex found is good producing land for a ship to harvest (§9.4)."""
    ex = view.exploration
    assert ex is not None
    landing = next((a for a in legal if isinstance(a, L.PlayFate)), None)
    if landing is not None and view.unit(ex.unit).ship and worth(view.numbers[ex.to]) >= 2.5:
        return landing
    return L.Stay()


def _flee(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Flee to where the chased unit is worth most (a mountain saves an outlaw, §14)."""
    chase = view.chase
    assert chase is not None
    unit = view.unit(chase.chased)
    need = needs(view, seat)
    score: dict[Action, float] = {
        a: unit_worth(view, seat, unit, a.to, need) for a in legal if isinstance(a, L.Flee)
    }
    return bot.best(legal, score)


# --- trade and building -------------------------------------------------------------------


def cost_of(view: LandnamState, action: Action) -> list[int]:
    """What a build costs, by kind (§12.1)."""
    rules = view.rules
    if isinstance(action, L.BuildFarm):
        return list(rules.farm_cost)
    if isinstance(action, L.BuildTown):
        return list(rules.town_cost)
    if isinstance(action, L.BuildUnit):
        return list(rules.ship_cost if action.ship else rules.settler_cost)
    found = [0] * 4
    if isinstance(action, L.BuildHarbour):
        found[action.kind] = rules.harbour_cost
    elif isinstance(action, L.AgeNumber):
        found[Land(view.terrain[view.unit(action.unit).at]).kind] = rules.age_cost
    return found


def _units(view: LandnamState, seat: Seat, ship: bool) -> int:
    on_board = sum(1 for u in view.units if u is not None and u.owner == seat and u.ship == ship)
    queued = sum(
        1 for q in view.queue if q.seat == seat and q.what == ("ship" if ship else "settler")
    )
    return on_board + queued


def _unit_build_worth(
    view: LandnamState, seat: Seat, action: L.BuildUnit, need: list[float]
) -> float:
    """A new ship or settler: worth its place, while the seat has few of them on the board."""
    if action.ship:
        ships = _units(view, seat, True)
        unexplored = sum(1 for t in view.terrain if t == UNEXPLORED)
        ship = Unit(seat, True, action.to)
        place = unit_worth(view, seat, ship, action.to, need)
        return (2.5 if ships == 0 else 1.0 if ships == 1 and unexplored else -1.0) + place / 2
    settlers = _units(view, seat, False)
    if settlers >= 3:
        return -1.0
    place = unit_worth(view, seat, Unit(seat, False, action.to), action.to, need)
    return 1.5 + place / 2 if place > 2.0 else -1.0


def build_worth(view: LandnamState, seat: Seat, action: Action, need: list[float]) -> float:
    """What a build is worth to the seat (a point is worth about 8): a town, a farm by its
    corner, a unit by its place, a harbour for spare cards, an ageing that helps (§12);
    ``need`` as :func:`needs` gives."""
    if isinstance(action, L.BuildTown):
        return 10.0 + corner_worth(view, action.corner, need) / 2
    if isinstance(action, L.BuildFarm):
        unit = view.unit(action.unit)
        value = corner_worth(view, action.corner, need)
        return 6.0 + value - 0.3 * unit_worth(view, seat, unit, unit.at, need)
    if isinstance(action, L.BuildUnit):
        return _unit_build_worth(view, seat, action, need)
    if isinstance(action, L.BuildHarbour):
        spare = view.hands[seat][action.kind] - 2
        return 1.0 + 0.3 * spare if spare >= 2 else -1.0
    if isinstance(action, L.AgeNumber):
        unit = view.unit(action.unit)
        return 4 * age_gain(view, seat, unit.at) - 1.0
    return -1.0


def _all_builds(view: LandnamState, seat: Seat) -> list[Action]:
    """Every build the seat could queue now if it had the cards (a copy with a full hand)."""
    rich = view.copy()
    rich.hands[seat] = [99] * 4
    return economy.build_choices(rich, seat)


def goal_of(view: LandnamState, seat: Seat, need: list[float]) -> tuple[Action | None, float]:
    """The build the seat saves for: the best worth over every placement, paid or not."""
    best: tuple[Action | None, float] = (None, 0.0)
    for action in _all_builds(view, seat):
        value = build_worth(view, seat, action, need)
        if value > best[1]:
            best = (action, value)
    return best


def near_winning(view: LandnamState, seat: Seat) -> bool:
    """Whether ``seat`` is within 3 points of the points to win (§15): no trade helps it."""
    target = view.options.victory_points or view.rules.victory_points
    return view.victory_points(seat) >= target - 3


def _missing(hand: list[int], cost: list[int]) -> list[int]:
    return [max(0, c - h) for h, c in zip(hand, cost, strict=True)]


def _trade_toward(
    view: LandnamState, seat: Seat, legal: list[Action], cost: list[int]
) -> Action | None:
    """A trade with the stock (a harbour's 2:1 first, §11.2) or a one-for-one offer (§11.3)
    that gives a card ``cost`` does not need for one it lacks."""
    hand = view.hands[seat]
    lacking = _missing(hand, cost)
    if not any(lacking):
        return None
    spare = [h - c for h, c in zip(hand, cost, strict=True)]
    rules = view.rules
    for action in legal:
        if (
            isinstance(action, L.HarbourTrade)
            and lacking[action.get]
            and spare[view.harbours[action.position]] >= rules.harbour_rate
        ):
            return action
    for action in legal:
        if (
            isinstance(action, L.BankTrade)
            and lacking[action.get]
            and spare[action.give] >= rules.bank_rate
        ):
            return action
    for action in legal:
        if isinstance(action, L.OfferTrade) and not near_winning(view, action.to):
            give, get = action.give.index(1), action.get.index(1)
            if lacking[get] and spare[give] >= 1 and view.hands[action.to][get] > 1:
                return action
    return None


def _trade(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Build the goal if it can be paid, else trade toward it; then the builds its spare
    cards pay for; else end the turn."""
    need = needs(view, seat)
    goal, goal_value = goal_of(view, seat, need)
    if goal is not None and goal in legal:
        return goal
    cost = cost_of(view, goal) if goal is not None else [0] * 4
    trade = _trade_toward(view, seat, legal, cost)
    if trade is not None:
        return trade
    hand = view.hands[seat]
    spare = [h - c for h, c in zip(hand, cost, strict=True)]
    best: tuple[float, Action] = (0.5, A.END_TURN)
    for action in legal:
        if isinstance(action, L.BankTrade | L.HarbourTrade | L.OfferTrade | A.EndTurn):
            continue
        price = cost_of(view, action)
        fits = all(p <= max(0, s) for p, s in zip(price, spare, strict=True))
        value = build_worth(view, seat, action, need)
        if (fits or value >= goal_value) and value > best[0]:
            best = (value, action)
    return best[1]


def _answer(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Accept an offer that gives a card the seat's goal lacks for one it can spare, from a
    seat not near winning (§11.3)."""
    offer = view.offer
    assert offer is not None
    accept = L.AnswerTrade(seat, True)
    if accept not in legal:
        return L.AnswerTrade(seat, False)
    goal, _ = goal_of(view, seat, needs(view, seat))
    cost = cost_of(view, goal) if goal is not None else [1] * 4
    hand = view.hands[seat]
    lacking = _missing(hand, cost)
    gets = sum(n for k, n in enumerate(offer.give) if lacking[k])
    gives_spare = all(hand[k] - n >= cost[k] for k, n in enumerate(offer.get))
    if gets and gives_spare and not near_winning(view, view.active):
        return accept
    return L.AnswerTrade(seat, False)


# --- the Althing --------------------------------------------------------------------------


def _save_outlaw(view: LandnamState, seat: Seat, legal: list[Action]) -> Action | None:
    """Atonement on a red token beside one of the seat's units (§8.2)."""
    for action in legal:
        if (
            isinstance(action, L.PlayFate)
            and action.face == Fate.ATONEMENT
            and view.unit(action.target).owner == seat
        ):
            return action
    return None


def _window(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Save an outlaw with Atonement before the outlaws go, else pass."""
    return _save_outlaw(view, seat, legal) or L.Pass(seat)


def _appoint(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Name the next seat, so the seat brings its cases last (§8.4)."""
    return L.Appoint(view.next_seat(seat))


def suit_worth(view: LandnamState, seat: Seat, unit: int, kind: int) -> float:
    """What suing unit ``unit`` is worth: the cards it keeps from the seat's settlements, when
    the seat's cards of the case's kind beat the defendant's (else nothing)."""
    defendant = view.unit(unit)
    theirs = view.hands[defendant.owner][kind]
    mine = view.hands[seat][kind]
    if mine <= theirs or theirs + 1 > CASE_CAP:
        return -1.0
    at = defendant.at
    blocked = -_share(view, defendant.owner, at) if view.settler_like(defendant) else 1.0
    return 2.0 + blocked + (mine - theirs) * 0.1


def _suing(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Bring the best case the seat can win, opening with one card, or pass."""
    saved = _save_outlaw(view, seat, legal)
    if saved is not None:
        return saved
    kinds = {number: kind for number, kind, _ in althing.suits(view, seat)}
    score: dict[Action, float] = {}
    for action in legal:
        if isinstance(action, L.Sue) and action.cards == 1:
            score[action] = suit_worth(view, seat, action.unit, kinds[action.unit])
    if not score or max(score.values()) <= 0:
        return L.Pass(seat)
    return bot.best([a for a in legal if a in score], score)


def _case(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Raise by the least while the side's total stays within :data:`CASE_CAP`; as the
    defendant unable to raise, invite the seat with most cards of the kind, or void the case
    with Flawed pleading or Thing broken up (§8.7); else pass (§8.5)."""
    case = view.althing.case if view.althing is not None else None
    assert case is not None
    need = althing.need(view)
    have = view.hands[seat][case.kind]
    side = case.turn
    if need <= have and case.totals[side] + need <= CASE_CAP:
        return L.Bid(seat, need)
    defending = side == 1 and view.unit(case.unit).owner == seat
    if defending:
        invites = [a for a in legal if isinstance(a, L.Invite)]
        if invites:
            return max(invites, key=lambda a: view.hands[a.guest][case.kind])
        for action in legal:
            if isinstance(action, L.PlayFate) and action.face in VOIDING:
                return action
    return L.Bid(seat, 0)


def _invited(bot: LandnamBot, view: LandnamState, seat: Seat, legal: list[Action]) -> Action:
    """Join with the least that puts the side ahead, when that is at most 3 cards: the side's
    last joiner takes its white token (§8.5.4)."""
    case = view.althing.case if view.althing is not None else None
    assert case is not None
    need = case.totals[1 - case.turn] - case.totals[case.turn] + 1
    have = view.hands[seat][case.kind]
    if 1 <= need <= min(3, have):
        return L.Join(seat, need)
    return L.Join(seat, 0)


_PHASES: Final = {
    HARVEST_CARD: _harvest,
    AGE_PICK: _age_pick,
    ALTHING_OPEN: _window,
    APPOINT: _appoint,
    SUING: _suing,
    CASE: _case,
    INVITED: _invited,
    MOVE: _move,
    SEER: _seer,
    ENTRY: _entry,
    FLEE: _flee,
    TRADE: _trade,
    ANSWER: _answer,
}
"""The bot's choice by phase (the roll has one action; any other phase: the first)."""


# --- the search bot's evaluation -----------------------------------------------------------


def position_value(state: Game, seat: Seat) -> float:
    """A Landnám position's worth to ``seat`` in rough points, for the search bot's playouts
    (:mod:`hexlan.engine.bots.own_search`): its points (§15), plus :data:`INCOME` a card its
    farms, towns and settlers bring in a round of rolls (:func:`rates`), :data:`CARD` a card
    in hand (up to :data:`CARD_CAP`), :data:`FATE_CARD` a fate card and :data:`UNIT` a unit on
    the board (a farm costs three cards, §12.1, and a unit to stand on).

    Raises:
        TypeError: ``state`` is not a Landnám state.
    """
    if not isinstance(state, LandnamState):
        raise TypeError(f"Landnám's evaluation reads Landnám states, not {type(state).__name__}")
    income = sum(rates(state, seat)) * state.players / 36
    cards = min(sum(state.hands[seat]), CARD_CAP)
    units = sum(1 for u in state.units if u is not None and u.owner == seat)
    return (
        state.victory_points(seat)
        + INCOME * income
        + CARD * cards
        + FATE_CARD * state.fate_count(seat)
        + UNIT * units
    )


@OWN_BOTS.register(LandnamState, "heuristic")
def heuristic_bot(rng: random.Random, think: float, clock: Clock | None) -> LandnamBot:
    """Landnám's heuristic bot (:class:`LandnamBot`); it thinks no longer than it takes, so
    ``think`` and ``clock`` are unused."""
    return LandnamBot(rng)


OWN_BOTS.register(LandnamState, "mcts")(search_bot(LandnamBot, position_value))
"""Landnám's search bot: :class:`~hexlan.engine.bots.own_search.OwnSearchBot` with the
heuristic playing every seat of its playouts and :func:`position_value` scoring their ends."""


__all__ = [
    "LandnamBot",
    "age_gain",
    "build_worth",
    "corner_worth",
    "explore_worth",
    "goal_of",
    "heuristic_bot",
    "land_odds",
    "needs",
    "pips",
    "position_value",
    "rates",
    "site_ok",
    "step_worth",
    "unit_worth",
    "worth",
]
