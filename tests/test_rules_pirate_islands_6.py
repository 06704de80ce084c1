"""Pirate Islands for 5-6 players (seeds/seafarers-pirate-islands-6.toml): the map and slots as
JSettlers2 states them (SOCBoardAtServer PIR_ISL_* at index [1]), the 5-6 player deck and bank,
the special building phase, and whole games.

The conversion from JSettlers2's coordinates is checked on both maps: the fleet's path and every
slot's pre-placed settlement, ship, fortress and colour intersection, restated below as
JSettlers2 gives them (0xRRCC), must land where the rule sets put them. docs/rules/
pirate-islands.md records the readings.
"""

from __future__ import annotations

import random

import pytest

from hexlan.engine import actions as A
from hexlan.engine.board import random_board
from hexlan.engine.core import BuildPhase, DevCard, Phase
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.topology import Topology
from hexlan.engine.variants.pirate_islands import PirateIslands, corner_node, fleet
from hexlan.engine.variants.seafarers import BuildShip, sea
from hexlan.simulate import simulate

GAME = "seafarers-pirate-islands-6"
RULES = load_ruleset(GAME)
MAP = load_map(RULES.board)
SHIP = (1, 0, 1, 0, 0)

# JSettlers2 SOCBoardAtServer, git db11afb33e4d: PIR_ISL_PPATH and PIR_ISL_INIT_PIECES (per slot:
# settlement node, ship edge, fortress node, colour node), index [0] (3-4 players), [1] (5-6).
PPATH = {
    0: (
        *(0x0D0A, 0x0D08, 0x0B07, 0x0906, 0x0707, 0x0506, 0x0307),
        *(0x0108, 0x010A, 0x030B, 0x050A, 0x0709, 0x090A, 0x0B0B),
    ),
    1: (
        *(0x0D0A, 0x0B09, 0x0908, 0x0707, 0x0508, 0x0309, 0x010A),
        *(0x010C, 0x030D, 0x050C, 0x070B, 0x090C, 0x0B0D, 0x0D0C),
    ),
}
INIT_PIECES = {
    0: (
        (0x0C0C, 0x0C0B, 0x0E04, 0x0E07),
        (0x020C, 0x020B, 0x0004, 0x0007),
        (0x080B, 0x080A, 0x0A03, 0x0805),
        (0x060B, 0x060A, 0x0403, 0x0605),
    ),
    1: (
        (0x0C0E, 0x0C0D, 0x0C04, 0x0C08),
        (0x020E, 0x020D, 0x0204, 0x0208),
        (0x080D, 0x080C, 0x0803, 0x0807),
        (0x060D, 0x060C, 0x0603, 0x0607),
        (0x000D, 0x000C, 0x0003, 0x0009),
        (0x0E0D, 0x0E0C, 0x0E03, 0x0E09),
    ),
}
SHIFT = {0: (3, 3), 1: (4, 3)}
"""What each map subtracts from the converted axial (q, r) to centre itself."""


def js_hex(code: int, index: int) -> tuple[int, int]:
    """JSettlers2 hex 0xRRCC as our axial (q, r): r = (R-1)/2, q = (2C-R+1)/4, less the shift."""
    row, col = code >> 8, code & 0xFF
    assert row % 2 == 1 and (2 * col - row + 1) % 4 == 0
    dq, dr = SHIFT[index]
    return (2 * col - row + 1) // 4 - dq, (row - 1) // 2 - dr


def js_corner(code: int, index: int) -> str:
    """JSettlers2 node 0xRRCC (R even) as "N(q,r)" / "S(q,r)": the north corner of the hex
    below it when C - R/2 is even, else the south corner of the hex above."""
    row, col = code >> 8, code & 0xFF
    if (col - row // 2) % 2 == 0:
        q, r = js_hex((row + 1) << 8 | col, index)
        return f"N({q},{r})"
    q, r = js_hex((row - 1) << 8 | col, index)
    return f"S({q},{r})"


def js_edge(code: int, index: int) -> tuple[str, str]:
    """JSettlers2 edge 0xRRCC as its two corners: R odd joins (R-1, C) and (R+1, C), R even
    joins (R, C) and (R, C+1)."""
    row, col = code >> 8, code & 0xFF
    if row % 2:
        return js_corner((row - 1) << 8 | col, index), js_corner((row + 1) << 8 | col, index)
    return js_corner(code, index), js_corner(row << 8 | (col + 1), index)


def new_state(players: int) -> GameState:
    return GameState(random_board(random.Random(0), "spiral", MAP), players, rules=RULES)


def pirates(state: GameState) -> PirateIslands:
    assert isinstance(state.variant, PirateIslands)
    return state.variant


def path_of(topology: Topology, a: str, b: str) -> int:
    ends = {corner_node(topology, a), corner_node(topology, b)}
    return next(p for p, nodes in enumerate(topology.path_nodes) if set(nodes) == ends)


@pytest.mark.parametrize(("index", "game"), [(0, "seafarers-pirate-islands"), (1, GAME)])
def test_the_conversion_from_jsettlers_puts_the_fleet_and_every_slot_where_the_rules_do(
    index: int, game: str
) -> None:
    """Index [0] converts onto the 3-4 player map exactly as it was built; index [1] by the same
    formula onto the 5-6 player map: the fleet's path in order, and each slot's settlement,
    first ship, fortress and colour intersection."""
    rules = load_ruleset(game)
    board = random_board(random.Random(0), "spiral", load_map(rules.board))
    state = GameState(board, rules.max_players, rules=rules)
    variant, topology = pirates(state), state.topology
    sea = [topology.sea_axial[h - topology.hex_count] for h in variant.fleet_path]
    assert sea == [js_hex(code, index) for code in PPATH[index]]
    assert len(variant.slots) == len(INIT_PIECES[index])
    for slot, (settlement, ship, fortress, colour) in zip(
        variant.slots, INIT_PIECES[index], strict=True
    ):
        assert slot.settlement == corner_node(topology, js_corner(settlement, index))
        assert slot.ship == path_of(topology, *js_edge(ship, index))
        assert slot.fortress == corner_node(topology, js_corner(fortress, index))
        assert slot.colour == corner_node(topology, js_corner(colour, index))


def test_the_map_has_jsettlers_hexes_and_each_line_is_one_route_of_ten_sides() -> None:
    """Reference §1.8: 37 land hexes (24 on the start island), 32 numbers; the fleet's 14 sea
    hexes follow each other round a loop; each slot's legal sides are one route of 10 sides
    (JSettlers2 PIR_ISL_SEA_EDGES[1]: a single row of edges each)."""
    state = new_state(6)
    topology = state.topology
    assert topology.hex_count == 37 and len(topology.sea_axial) == 34
    tokens = {2: 1, 3: 4, 4: 4, 5: 4, 6: 4, 8: 4, 9: 3, 10: 3, 11: 4, 12: 1}
    assert sorted(n for n in state.board.tokens if n) == [
        n for n, k in tokens.items() for _ in range(k)
    ]
    home = pirates(state).home
    assert sum(1 for h in range(37) if topology.hex_island[h] == home) == 24
    path = [topology.sea_axial[h - 37] for h in pirates(state).fleet_path]
    for (q1, r1), (q2, r2) in zip(path, path[1:] + path[:1], strict=True):
        assert (q2 - q1, r2 - r1) in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    for slot in pirates(state).slots:
        assert len(slot.legal) == 10 and all(len(sides) == 1 for sides in slot.forward.values())
        assert topology.node_island[slot.settlement] == home
        assert topology.node_island[slot.colour] != home
        assert topology.node_island[slot.fortress] != home


@pytest.mark.parametrize("players", [5, 6])
def test_seats_take_the_slots_in_order_and_a_fifth_seat_leaves_the_sixth_slot_empty(
    players: int,
) -> None:
    """Seed 004 («по 1 поселению и по одному кораблю»), slots in seat order as JSettlers2 gives
    them (startGame_putInitPieces): each seat's settlement, ship and three-chit fortress; with 5
    seats slot 5 is not set up and its line's sides stay open."""
    state = new_state(players)
    variant = pirates(state)
    for seat in range(players):
        slot = variant.slots[seat]
        assert state.node_owner[slot.settlement] == seat
        assert sea(state).ships[seat] == [slot.ship]
        assert fleet(state).fortress_chits[seat] == 3
    last = variant.slots[5]
    assert (state.node_owner[last.settlement] == 5) == (players == 6)
    assert (last.ship in state.closed_paths) == (players == 6)
    assert not state.blocked[last.colour] or players == 5


def test_the_deck_has_the_victory_point_cards_as_knights_and_the_bank_24_a_resource() -> None:
    """The 5-6 player extension's 34 cards with seed 004's reading (victory point cards count as
    knights), as JSettlers2 builds it: 25 knights, 3 of each progress card, no victory point."""
    deck = dict(zip(DevCard, RULES.development_deck, strict=True))
    assert deck[DevCard.KNIGHT] == 25 and deck[DevCard.VICTORY_POINT] == 0
    assert sum(deck.values()) == 34
    assert RULES.bank == (24,) * 5 and RULES.special_building
    assert (RULES.min_players, RULES.max_players) == (5, 6)


def test_a_ship_extends_the_line_in_the_special_building_phase() -> None:
    """Seed 002 «Расширение на 5-6 игроков»: after a turn the others build; a ship is a build,
    and it extends the builder's line like any other."""
    state = new_state(6)
    state.play(A.StartPlayer(0))
    while state.phase is not Phase.ROLL:
        state.play(state.legal_actions()[0])
    state.play(A.ROLL)
    state.play(A.Dice(1, 2))
    while state.phase is not Phase.MAIN:
        state.play(state.legal_actions()[0])
    state.take_from_bank(1, SHIP)
    state.play(A.END_TURN)
    assert state.phase is BuildPhase.SPECIAL_BUILD and state.active == 1
    spots = pirates(state).ship_spots(state, 1)
    assert len(spots) == 1 and BuildShip(spots[0]) in state.legal_actions(1)
    state.play(BuildShip(spots[0]))
    assert sea(state).ships[1] == [pirates(state).slots[1].ship, spots[0]]


@pytest.mark.parametrize("players", [5, 6])
def test_simulated_games_end_with_a_winner_holding_its_fortress(players: int) -> None:
    """`hexlan simulate --game seafarers-pirate-islands-6`: every game between heuristic bots ends
    with a winner at 10 points (the engine lets a seat win only with its own fortress)."""
    report = simulate(3, players, ["heuristic"] * players, seed=0, board="random", game=GAME)
    assert all(g.winner is not None for g in report.games)
    assert all(g.victory_points[g.winner] >= 10 for g in report.games if g.winner is not None)
