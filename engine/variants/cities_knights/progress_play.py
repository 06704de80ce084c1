"""Cities & Knights' progress cards played (issue 13; seed 002 «Города и рыцари» names the
decks; the official rules' card list gives the effects; docs/rules/cities-and-knights.md).

A card is played in its holder's turn, after the roll (:attr:`~hexlan.engine.core.Phase.MAIN`),
face up: the seat's known card, or in a state that cannot see it one of its unseen cards of that
deck, now seen. Played cards leave the game (a dealt mental-poker deck cannot take a card back;
the official rules put them under their deck). Built so far, by the card's name in the rule
set's deck table:

- ``printer``, ``constitution``: one victory point, shown at once when drawn, even out of turn
  (official: «played immediately»; :func:`.progress_cards.point_shown`); with the option
  ``ck_point_cards_in_hand`` held and played here in the holder's main phase.
- ``road_building``: two roads free (as the development card).
- ``smith``: the next two knight promotions of the turn are free.
- ``irrigation``, ``mining``: two grain (ore) from the bank for each fields (mountains) hex
  beside one of the seat's settlements or cities (as the bank holds).
- ``warlord``: every knight of the seat's is activated free.
- ``engineer``: a city wall free under the city ``choice``.
- ``medicine``: the settlement ``choice`` becomes a city for two ore and a grain.
- ``crane``: the seat's next city improvement this turn costs one commodity less.
- ``merchant_fleet``: the seat trades the kind ``choice`` (a resource or commodity) 2:1 at the
  bank for the rest of the turn.
- ``diplomat``: the open road ``choice`` (a path; one of its ends touches neither a piece nor
  another road of its owner's) leaves the board; the seat's own road it may place again free.
- ``intrigue``: the opponent's knight at ``choice``, on an end of one of the seat's roads, is
  displaced as by a stronger knight: its owner moves it along its roads, or it leaves the board.
- ``wedding``: every other seat with more points gives the seat two cards of its choice (all
  it holds if fewer), in turn order (:attr:`~.actions.KnightsPhase.WEDDING`).
- ``saboteur``: every other seat with as many points or more discards half its cards, rounded
  down, of its choice (the 7's discard phase), then the turn goes on.
- the Alchemist, Bishop, Deserter, Merchant and Inventor: :mod:`.progress_board`.
- ``resource_monopoly``, ``trade_monopoly``, ``commercial_harbor``, ``master_merchant``: they
  take from the others' hidden hands (:mod:`.progress_hands`).
- ``spy``: looks at another seat's progress cards and takes one (:mod:`.progress_spy`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Final

from hexlan.engine import events as E
from hexlan.engine.core import NO_SEAT, Hand, NodeId, PathId, Phase, Resource, Seat, one_kind
from hexlan.engine.variants.cities_knights import (
    knights,
    progress_board,
    progress_hands,
    progress_spy,
)
from hexlan.engine.variants.cities_knights.actions import KnightsPhase, PlayProgress
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.progress import Progress, Retreat

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.state import GameState

POINT_CARDS: Final = frozenset({"printer", "constitution"})
"""The cards worth a victory point when shown (official)."""
GIFT: Final = 2
"""Cards each richer seat gives at the Wedding (official)."""
FREE_PROMOTIONS: Final = 2
"""Knights the Smith promotes free (official)."""
HARVEST: Final = {"irrigation": Resource.GRAIN, "mining": Resource.ORE}
"""The resource each harvest card gives, two per hex of it beside the seat (official)."""
MEDICINE_COST: Final = {Resource.ORE: 2, Resource.GRAIN: 1}
"""What a city costs with Medicine (official: two ore and one grain)."""
PLAYABLE: Final = frozenset(
    {
        *POINT_CARDS,
        *HARVEST,
        "road_building",
        "smith",
        "warlord",
        "engineer",
        "medicine",
        "crane",
        "merchant_fleet",
        "saboteur",
        "diplomat",
        "wedding",
        "intrigue",
        *progress_board.BOARD_CARDS,
        *progress_hands.NAMES,
        *progress_spy.NAMES,
    }
)
"""The cards whose effect is built (the others are held until discarded)."""


def medicine_cost(kinds: int) -> tuple[int, ...]:
    """Medicine's price as a hand of ``kinds`` kinds."""
    hand = [0] * kinds
    for resource, count in MEDICINE_COST.items():
        hand[resource] = count
    return tuple(hand)


def harvest(state: GameState, seat: Seat, resource: Resource) -> tuple[int, ...]:
    """What Irrigation or Mining gives ``seat``: two ``resource`` per hex of it beside one of
    its buildings, capped by the bank."""
    mine = set(state.settlements[seat]) | set(state.cities[seat])
    nodes = state.topology.hex_nodes
    hexes = sum(
        1
        for h, terrain in enumerate(state.board.terrains)
        if terrain.resource is resource and mine.intersection(nodes[h])
    )
    return one_kind(resource, min(2 * hexes, state.bank[resource]), state.kinds)


def plays(
    state: GameState,
    progress: Progress,
    config: Config,
    names: list[tuple[str, ...]],
    seat: Seat,
    candidates: list[tuple[int, int]],
) -> list[A.Action]:
    """The plays open to ``seat`` in its main phase among ``candidates`` (``(track, face)``
    of cards it may hold; ``names``: each deck's card names by face)."""
    result: list[A.Action] = []
    for track, face in candidates:
        name = names[track][face]
        if name == "engineer" and len(progress.walls[seat]) < config.walls:
            walled = set(progress.walls[seat])
            result.extend(
                PlayProgress(track, face, n) for n in sorted(state.cities[seat]) if n not in walled
            )
        elif (
            name == "medicine"
            and state.pieces_left(seat)[2] > 0
            and state.hand_covers(seat, medicine_cost(state.kinds))
        ):
            result.extend(PlayProgress(track, face, n) for n in sorted(state.settlements[seat]))
        elif name == "intrigue":
            result.extend(
                PlayProgress(track, face, n) for n in intrigue_targets(state, progress, seat)
            )
        elif name == "diplomat":
            result.extend(PlayProgress(track, face, p) for p in open_roads(state))
        elif name in progress_hands.NAMES:
            result.extend(
                progress_hands.plays(state, progress, seat, track, face, name, config.one_monopoly)
            )
        elif name in progress_spy.NAMES:
            result.extend(progress_spy.plays(progress, seat, track, face))
        elif name == "merchant_fleet" and progress.fleet is None:
            ratios = state.ratios[seat]
            result.extend(PlayProgress(track, face, k) for k in range(state.kinds) if ratios[k] > 2)
        elif name in progress_board.BOARD_CARDS:
            choices = progress_board.main_plays(state, progress, seat, name)
            result.extend(PlayProgress(track, face, c) for c in choices)
        elif _open(state, progress, seat, name):
            result.append(PlayProgress(track, face))
    return result


def _open(state: GameState, progress: Progress, seat: Seat, name: str) -> bool:
    """Whether the card ``name``, which asks no choice, may be played by ``seat`` now."""
    if name == "road_building":
        return state.can_build_free(seat)
    if name == "warlord":
        return any(not k.active for _, k in progress.knights_of(seat))
    if name == "crane":
        return not progress.crane and bool(state.cities[seat])
    if name == "saboteur":
        return any(sabotaged(state, seat))
    if name == "wedding":
        return bool(guests(state, seat))
    if name in POINT_CARDS:  # officially shown when drawn, never played from the hand
        return not progress.unheld
    return name in HARVEST or name == "smith"


def sabotaged(state: GameState, seat: Seat) -> list[int]:
    """What the Saboteur played by ``seat`` makes each seat discard: half the cards of every
    other seat with as many victory points or more (public: Cities & Knights has no hidden
    points), rounded down."""
    points = state.public_vp
    return [
        n // 2 if s != seat and points[s] >= points[seat] else 0
        for s, n in enumerate(state.hand_size)
    ]


def open_roads(state: GameState) -> list[PathId]:
    """Every road with an open end: an end where its owner has no building, no knight and no
    other road (official: the Diplomat's targets)."""
    topology, owner_of = state.topology, state.path_owner
    result = []
    for path, owner in enumerate(owner_of):
        if owner < 0:
            continue
        for node in topology.path_nodes[path]:
            others = (p for p in topology.node_paths[node] if p != path)
            if state.node_owner[node] != owner and all(owner_of[p] != owner for p in others):
                result.append(path)
                break
    return result


def guests(state: GameState, seat: Seat) -> list[Seat]:
    """The seats that give the Wedding's player ``seat`` two cards: those with more points and
    a card, in turn order from it."""
    points = state.public_vp
    order = [(seat + i) % state.players for i in range(1, state.players)]
    return [s for s in order if points[s] > points[seat] and state.hand_size[s]]


def gifts(state: GameState, seat: Seat) -> list[Hand]:
    """The gifts ``seat`` may give: every two cards it may hold (all its cards if fewer)."""
    count = min(GIFT, state.hand_size[seat])
    result = []
    for kinds in combinations_with_replacement(range(state.kinds), count):
        hand = [0] * state.kinds
        for kind in kinds:
            hand[kind] += 1
        if state.hand_covers(seat, tuple(hand)):
            result.append(tuple(hand))
    return result


def intrigue_targets(state: GameState, progress: Progress, seat: Seat) -> list[NodeId]:
    """The opponents' knights on an end of one of the seat's roads (official)."""
    ends = {n for p in state.roads[seat] for n in state.topology.path_nodes[p]}
    return sorted(n for n, k in progress.knights.items() if k.seat != seat and n in ends)


def play(state: GameState, progress: Progress, name: str, choice: NodeId) -> None:
    """The effect of the card ``name`` played by the active seat (``choice``: its
    intersection, for Engineer, Medicine and Intrigue; its kind of card, for the Merchant Fleet; its
    path, for the Diplomat)."""
    seat = state.active
    if name in POINT_CARDS:
        state.public_vp[seat] += 1
        progress.points[seat] += 1
    elif name in HARVEST:
        state.take_from_bank(seat, harvest(state, seat, HARVEST[name]))
    elif name == "smith":
        progress.free_promotions = FREE_PROMOTIONS
    elif name == "road_building":
        state.road_building_resume = state.phase
        state.free_roads = min(2, state.pieces_left(seat)[0])
        state.phase = Phase.ROAD_BUILDING
    elif name == "warlord":
        for node, knight in progress.knights_of(seat):
            if not knight.active:
                progress.knights[node] = replace(knight, active=True)
                progress.fresh.add(node)
    elif name == "engineer":
        progress.walls[seat].append(choice)
    elif name == "crane":
        progress.crane = True
    elif name == "merchant_fleet":
        progress.fleet = (seat, choice)
        state.ratios[seat][choice] = 2
    elif name == "saboteur":
        state.discards = sabotaged(state, seat)
        state.robber_resume = state.phase
        state.discard_after_robber = True  # the discards' end resumes the turn
        state.phase = Phase.DISCARD
        if state.record_events:
            state.last_events.append(E.DiscardsDue(tuple(state.discards)))
    elif name == "intrigue":
        knight = knights.lift(state, progress, choice)
        if state.record_events:
            state.last_events.append(E.KnightDisplaced(knight.seat, knight.level))
        if [n for n in knights.retreat_spots(state, knight.seat, choice) if n != choice]:
            progress.retreat = Retreat(knight, choice)
            state.phase = KnightsPhase.RETREAT
    elif name == "diplomat":
        owner = state.path_owner[choice]
        state.path_owner[choice] = NO_SEAT
        state.roads[owner].remove(choice)
        knights.roads_changed(state)
        if owner == seat and state.can_build_free(seat):  # its own road, placed again
            state.road_building_resume = state.phase
            state.free_roads = 1
            state.phase = Phase.ROAD_BUILDING
    elif name == "wedding":
        progress.wedding = guests(state, seat)
        state.phase = KnightsPhase.WEDDING
    elif name == "medicine":
        state.pay_bank(seat, medicine_cost(state.kinds))
        state.upgrade_city(seat, choice)
    elif name in progress_hands.NAMES:
        progress_hands.play(state, progress, name, choice)
    elif name in progress_spy.NAMES:
        progress_spy.play(state, progress, choice)
