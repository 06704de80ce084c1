"""Pirate Islands (seed 004 «Пиратские острова»): the map's slots and fleet path, the pre-placed
pieces, the one ship line, warships, the pirate fleet's attacks, the 7 without a robber, the
fortress attack and the win with one's own fortress.

Rule sources: seed 004; ../shared/expansions-reference.md §1 for the map; docs/rules/
pirate-islands.md records every reading. Positions are set up through the engine (set-up actions,
ships paid for and built); a test only sets a seat's hand, or its warships where the knights that
made them are not what it checks.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bot_games import assert_logs_verify
from variant_play import play_random_game, play_told_bot_game

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine import registry as R
from hexlan.engine.board import random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.chance import HAND_DRAW, UNIFORM
from hexlan.engine.core import (
    DevCard,
    IllegalActionError,
    Phase,
)
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.position import from_position, replace_fields, to_position
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import CHANCE, GameState
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    FleetLoot,
    FortressDie,
    PirateIslands,
    PiratePhase,
    RobSeat,
    fleet,
)
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MoveShip,
    SeaPhase,
    sea,
)
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import MalformedMessage, decode_action, encode_action
from hexlan.simulate import simulate

GAME = "seafarers-pirate-islands"
RULES4 = load_ruleset(GAME)
RULES3 = load_ruleset(GAME + "-3")
MAP = load_map(RULES4.board)
TOPO = MAP.topology
SHIP = (1, 0, 1, 0, 0)
PROCESS_TIMEOUT = 600.0
"""Seconds a bot process may take (a game takes about one minute on two busy cores)."""


def new_state(players: int = 4, options: GameOptions | None = None, seed: int = 1) -> GameState:
    """A game after set-up: start player 0, each set-up settlement the first legal one away from
    the fleet's path, each set-up road the first legal one."""
    rules = RULES4 if players == 4 else RULES3
    state = GameState(random_board(random.Random(seed), "spiral", MAP), players, options, rules)
    variant = pirates(state)
    near_fleet = {n for h in variant.fleet_path for n in variant._fleet_nodes[h]}
    state.play(A.StartPlayer(0))
    while state.phase is not Phase.ROLL:
        legal = state.legal_actions()
        if state.phase is Phase.SETUP_SETTLEMENT:
            state.play(next(a for a in legal if a.node not in near_fleet))  # type: ignore[union-attr]
        else:
            state.play(legal[0])
    # the set-up's yields set aside (hands are set per test): empty hands, a full bank
    empty = {
        "hidden.hands": [[0] * 5] * players,
        "hand_size": [0] * players,
        "bank": [RULES4.bank_per_resource] * 5,
    }
    return from_position(replace_fields(to_position(state), empty))


def pirates(state: GameState) -> PirateIslands:
    assert isinstance(state.variant, PirateIslands)
    return state.variant


def give(state: GameState, seat: int, cards: tuple[int, int, int, int, int]) -> None:
    state.take_from_bank(seat, cards)


def roll(state: GameState, first: int, second: int) -> None:
    state.play(A.ROLL)
    state.play(A.Dice(first, second))


def sail_line(state: GameState, seat: int) -> None:
    """Build the seat's whole line (paid), the first legal ship each time; its turn, MAIN."""
    while pirates(state).ship_spots(state, seat):
        give(state, seat, SHIP)
        state.play(next(a for a in state.legal_actions() if isinstance(a, BuildShip)))


def to_own_main(state: GameState, seat: int) -> None:
    """End turns until ``seat`` has rolled (a 1 and a 2: the fleet sails 1 hex), settling any
    fleet attack's loot with its first outcome and any pick with the first legal choice."""
    while not (state.active == seat and state.phase is Phase.MAIN):
        phase = state.phase
        if phase is Phase.ROLL:
            roll(state, 1, 2)
        elif phase is PiratePhase.LOOT:
            state.play(state.chance_outcomes()[0][0])
        elif phase is SeaPhase.GOLD:
            state.play(state.legal_actions()[0])
        else:
            state.play(A.END_TURN)


# ------------------------------------------------------------------ the map and the set-up


def test_the_map_has_the_printed_hexes_and_the_fleet_circles_on_adjacent_sea_hexes() -> None:
    """Reference §1.1-1.3: 30 land hexes and 19 sea (plus 4 frame hexes), 24 numbers; the fleet's
    14 hexes follow each other round a closed loop, starting on the 'x' (seed 004)."""
    board = random_board(random.Random(0), "spiral", MAP)
    assert TOPO.hex_count == 30 and len(TOPO.sea_axial) == 23
    assert sorted(n for n in board.tokens if n) == sorted(
        [2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 12]
    )
    state = GameState(board, 4, rules=RULES4)
    path = pirates(state).fleet_path
    assert len(path) == 14 and len(set(path)) == 14 and sea(state).pirate == path[0]
    axial = [TOPO.sea_axial[h - TOPO.hex_count] for h in path]
    for (q1, r1), (q2, r2) in zip(axial, axial[1:] + axial[:1], strict=True):
        assert (q2 - q1, r2 - r1) in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


def test_each_slot_allows_the_sides_of_its_shortest_routes_only() -> None:
    """Reference §1.5: 15, 15, 12 and 12 legal sides; every route is 9 sides from settlement to
    fortress through the colour intersection."""
    variant = pirates(GameState(random_board(random.Random(0), "spiral", MAP), 4, rules=RULES4))
    assert [len(slot.legal) for slot in variant.slots] == [15, 15, 12, 12]
    for slot in variant.slots:
        assert slot.ship in slot.legal and slot.settlement != slot.fortress


def test_each_seat_starts_with_its_settlement_ship_and_fortress_and_no_robber() -> None:
    """Seed 004: one settlement and one ship on the east coast each, a fortress of 3 chits each;
    no robber; with 3 players white's (slot 3's) pieces are not set up."""
    for players, rules in ((4, RULES4), (3, RULES3)):
        state = GameState(random_board(random.Random(0), "spiral", MAP), players, rules=rules)
        slots = pirates(state).slots
        assert state.robber == -1
        assert fleet(state).fortress_chits == [3] * players
        for seat in range(players):
            assert state.settlements[seat] == [slots[seat].settlement]
            assert sea(state).ships[seat] == [slots[seat].ship]
            assert state.public_vp[seat] == 1
        if players == 3:
            assert state.node_owner[slots[3].settlement] == -1


def test_the_deck_has_no_victory_point_cards_and_four_players_get_them_as_knights() -> None:
    """Seed 004: with 3 players the VP cards leave the deck; with 4 they count as knights."""
    assert RULES4.development_deck[DevCard.KNIGHT] == 19
    assert RULES3.development_deck[DevCard.KNIGHT] == 14
    assert RULES4.development_deck[DevCard.VICTORY_POINT] == 0
    assert RULES3.development_deck[DevCard.VICTORY_POINT] == 0


def test_set_up_is_on_the_start_island_with_roads_only() -> None:
    """Seed 004 «Фаза основания»: set-up settlements on the east island; the set-up's piece
    beside it is a road (the ship line starts with the pre-placed ship)."""
    state = GameState(random_board(random.Random(0), "spiral", MAP), 4, rules=RULES4)
    state.play(A.StartPlayer(0))
    home = pirates(state).home
    assert all(
        TOPO.node_island[a.node] == home  # type: ignore[union-attr]
        for a in state.legal_actions()
    )
    state.play(state.legal_actions()[0])
    assert all(isinstance(a, A.BuildRoad) for a in state.legal_actions())


# ------------------------------------------------------------------ the ship line and warships


def test_a_ship_only_extends_the_line_and_a_side_off_it_is_rejected_by_rule() -> None:
    state = new_state()
    roll(state, 2, 3)
    slot = pirates(state).slots[0]
    give(state, 0, SHIP)
    builds = [a for a in state.legal_actions() if isinstance(a, BuildShip)]
    assert builds and all(a.path in slot.legal for a in builds)
    off_line = next(p for p in TOPO.node_ship_paths[slot.settlement] if p not in slot.legal)
    with pytest.raises(IllegalActionError, match="one line") as err:
        state.play(BuildShip(off_line))
    assert err.value.rule.startswith("seed 004")
    sail_line(state, 0)
    assert len(sea(state).ships[0]) == 9
    assert pirates(state).line_end(state, 0) == slot.fortress
    give(state, 0, SHIP)
    assert not any(isinstance(a, BuildShip) for a in state.legal_actions())  # not past it


def test_no_road_takes_a_side_of_a_ship_line() -> None:
    """Seed 004: «Нельзя блокировать строй другого игрока»: a coastal side of a line (the start
    island has two beside the lines of slots 0 and 1) takes no road, in set-up or later."""
    state = new_state()
    variant = pirates(state)
    closed = state.closed_paths
    assert closed == frozenset().union(*(slot.legal for slot in variant.slots))
    home_coast = [
        p
        for p in closed
        if p < TOPO.land_path_count
        and any(TOPO.node_island[n] == variant.home for n in TOPO.path_nodes[p])
        and p not in {slot.ship for slot in variant.slots}
    ]
    assert len(home_coast) == 2
    roll(state, 2, 3)
    give(state, 0, (1, 1, 0, 0, 0))
    with pytest.raises(IllegalActionError, match="side of a ship line"):
        state.play(A.BuildRoad(home_coast[0]))


def test_only_the_end_ship_moves_and_only_onto_the_other_shortest_way() -> None:
    """Seafarers moves the end ship of an open route, once a turn, not one built this turn; in
    this scenario the line stays one shortest line, so the end ship may only take the other
    shortest way from the ship before it (JSettlers2 ``isPotentialShipMoveTo`` for SC_PIRI; seed
    004 is silent, docs/rules/pirate-islands.md L2). A line at its fortress is closed."""
    state = new_state()
    roll(state, 2, 3)
    variant = pirates(state)
    give(state, 0, SHIP)
    state.play(next(a for a in state.legal_actions() if isinstance(a, BuildShip)))
    end = sea(state).ships[0][-1]
    assert not any(isinstance(a, MoveShip) for a in state.legal_actions())  # built this turn
    with pytest.raises(IllegalActionError, match="built this turn"):
        state.play(MoveShip(end, variant.ship_spots(state, 0, lifted=end)[-1]))
    state.play(A.END_TURN)
    to_own_main(state, 0)
    moves = [a for a in state.legal_actions() if isinstance(a, MoveShip)]
    assert len(moves) == 1 and moves[0].source == end  # slot 0 forks after its first side
    other = moves[0].target
    assert other in variant.slots[0].legal and other != end
    off_line = next(
        p
        for p in range(TOPO.path_count)
        if TOPO.path_sea[p] and state.path_owner[p] < 0 and p not in variant.slots[0].legal
    )
    with pytest.raises(IllegalActionError, match="one line") as err:
        state.play(MoveShip(end, off_line))
    assert err.value.rule.startswith("seed 004")
    with pytest.raises(IllegalActionError, match="end ship"):
        state.play(MoveShip(sea(state).ships[0][0], other))  # the first ship is not at an open end
    state.play(moves[0])
    assert sea(state).ships[0][-1] == other and len(sea(state).ships[0]) == 2
    with pytest.raises(IllegalActionError, match="one ship moves a turn"):
        state.play(MoveShip(other, end))
    sail_line(state, 0)  # the line reaches its fortress: closed, nothing moves
    state.play(A.END_TURN)
    to_own_main(state, 0)
    assert variant.movable_ships(state, 0) == []
    assert not any(isinstance(a, MoveShip) for a in state.legal_actions())


def test_a_knight_turns_the_first_plain_ship_into_a_warship_and_moves_no_robber() -> None:
    """Seed 004 «Боевые корабли»; no Largest Army."""
    knights = new_state()
    deck, cards = list(knights.deck), [[0] * len(knights.deck) for _ in range(knights.players)]
    deck[DevCard.KNIGHT] -= 4  # seat 0 holds four knights, bought before this turn
    cards[0][DevCard.KNIGHT] = 4
    held = {"hidden.deck": deck, "hidden.dev_cards": cards, "dev_count": [4, 0, 0, 0]}
    state = from_position(replace_fields(to_position(knights), held))
    roll(state, 2, 3)
    give(state, 0, SHIP)
    state.play(next(a for a in state.legal_actions() if isinstance(a, BuildShip)))
    state.play(A.PLAY_KNIGHT)
    assert fleet(state).warships[0] == 1 and state.phase is Phase.MAIN and state.robber == -1
    state.play(A.END_TURN)
    to_own_main(state, 0)
    state.play(A.PLAY_KNIGHT)
    assert fleet(state).warships[0] == 2 and state.largest_army_holder == -1
    state.play(A.END_TURN)
    to_own_main(state, 0)
    assert A.PLAY_KNIGHT not in state.legal_actions()  # both ships are warships
    with pytest.raises(IllegalActionError, match="warship"):
        state.play(A.PLAY_KNIGHT)


# ------------------------------------------------------------------ the fleet


def fleet_before(state: GameState, seat: int) -> None:
    """Put the fleet one hex before the path hex beside ``seat``'s pre-placed settlement."""
    variant = pirates(state)
    path = variant.fleet_path
    target = next(
        i for i, h in enumerate(path) if variant.slots[seat].settlement in variant._fleet_nodes[h]
    )
    sea(state).pirate = path[target - 1]


def test_the_fleet_sails_the_lower_die_before_production() -> None:
    """Seed 004 «Пиратский флот»: as many hexes as the lower die shows."""
    state = new_state()
    path = pirates(state).fleet_path
    roll(state, 5, 3)
    assert sea(state).pirate == path[3]
    state.play(A.END_TURN)
    roll(state, 6, 6)
    assert sea(state).pirate == path[9]


def test_stronger_pirates_take_one_card_plus_one_per_city() -> None:
    """Seed 004 «Нападение пиратов»: the lower die beats the warships: 1 card + 1 per city, to
    the bank, before production; the cards are drawn blind (a chance event, «Карты сырья
    вытаскивает из руки игрока любой его соперник»), never chosen by the attacked seat."""
    state = new_state()
    give(state, 0, (2, 2, 1, 1, 0))
    fleet_before(state, 0)
    roll(state, 1, 4)  # strength 1 against no warship
    assert state.phase is PiratePhase.LOOT and fleet(state).loot == 1 and state.victim == 0
    assert state.legal_actions(0) == []  # the attacked seat has no choice to make
    node = state.chance_node()
    assert node is not None and (node.kind, node.event, node.seats, node.cards) == (
        HAND_DRAW,
        "loot",
        (0,),
        1,
    )
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {
        FleetLoot((1, 0, 0, 0, 0)): 2 / 6,
        FleetLoot((0, 1, 0, 0, 0)): 2 / 6,
        FleetLoot((0, 0, 1, 0, 0)): 1 / 6,
        FleetLoot((0, 0, 0, 1, 0)): 1 / 6,
    }
    with pytest.raises(IllegalActionError):
        state.play(A.Discard(0, (1, 0, 0, 0, 0)))
    with pytest.raises(IllegalActionError):
        state.play(FleetLoot((0, 0, 0, 0, 1)))  # no ore in the hand
    with pytest.raises(IllegalActionError):
        state.play(FleetLoot((2, 0, 0, 0, 0)))  # two cards where one is owed
    bank = list(state.bank)
    state.record_events = True
    state.play(FleetLoot((0, 0, 1, 0, 0)))
    assert state.last_events[0] == E.FleetLooted(0, (0, 0, 1, 0, 0))
    produced = next(ev.gains for ev in state.last_events if isinstance(ev, E.Produced))
    assert state.bank[2] == bank[2] + 1 - sum(g[2] for g in produced)  # to the bank, then the roll
    assert fleet(state).loot == 0 and state.victim == -1
    assert state.hand_size[0] >= 5 and state.phase is Phase.MAIN  # production followed


def test_on_a_seven_the_loot_is_taken_before_the_hands_are_counted() -> None:
    """Seed 004 «Нападение пиратов»: the attack comes «до разбора выпавшей "7"»: a seat holding 8
    cards that loses one to the fleet holds 7 and discards nothing."""
    state = new_state()
    give(state, 0, (2, 2, 2, 1, 1))
    fleet_before(state, 0)
    roll(state, 1, 6)  # a 7; the fleet sails 1 and beats seat 0 (no warship)
    assert state.phase is PiratePhase.LOOT and fleet(state).loot == 1
    state.play(FleetLoot((1, 0, 0, 0, 0)))
    assert state.hand_size[0] == 7 and not any(state.discards)
    assert state.phase is Phase.MOVE_ROBBER  # the roller robs anyone next


def test_the_loot_is_drawn_without_replacement_by_each_cards_chance() -> None:
    """Two cards from (lumber 3, ore 1): hypergeometric, each card as likely as any other."""
    state = new_state()
    give(state, 0, (3, 0, 0, 0, 1))
    state.victim, fleet(state).loot, state.phase = 0, 2, PiratePhase.LOOT
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {FleetLoot((2, 0, 0, 0, 0)): 3 / 6, FleetLoot((1, 0, 0, 0, 1)): 3 / 6}


def test_every_seat_sees_the_loot_and_checks_the_victim_could_hold_it() -> None:
    """The loot is public: every seat's information state applies it; an opponent that does not
    know the victim's hand refuses cards the victim cannot hold (seed 004: the cards are shown as
    they go to the bank)."""
    chance = SeededChance(7)
    board = random_board(chance.rng, "spiral", MAP)
    state = GameState(board, 4, rules=RULES4)
    views = [InformationState(board, 4, s, rules=RULES4) for s in range(4)]
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    refused = looted = 0
    while not state.is_over and not refused:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(views[seat], seat)
        if state.phase is PiratePhase.LOOT:
            assert isinstance(action, FleetLoot)
            victim, loot = state.victim, fleet(state).loot
            for view in views:
                assert view.observation(action, view.seat) == action  # shown to all
                impossible = [
                    r for r in range(5) if view._hand_count(victim, r) == 0 and view.seat != victim
                ]
                for r in impossible:
                    cards = tuple(loot if k == r else 0 for k in range(5))
                    with pytest.raises(IllegalActionError):
                        view.check(FleetLoot(cards))
                    refused += 1
            looted += 1
        advance_views(state, views, action, check=True)
    assert looted and refused


def test_a_city_makes_the_loss_bigger() -> None:
    state = new_state()
    give(state, 0, (0, 0, 0, 2, 3))
    roll(state, 2, 3)
    state.play(A.BuildCity(pirates(state).slots[0].settlement))
    state.play(A.END_TURN)
    to_own_main(state, 0)
    give(state, 0, (3, 0, 0, 0, 0))
    state.play(A.END_TURN)
    fleet_before(state, 0)
    roll(state, 1, 6)
    assert state.phase is PiratePhase.LOOT and fleet(state).loot == 2


def test_a_stronger_player_takes_a_resource_of_choice() -> None:
    state = new_state()
    fleet(state).warships[0] = 2  # as if two knights were played
    give(state, 0, SHIP)
    fleet_before(state, 0)
    roll(state, 1, 5)
    assert state.phase is SeaPhase.GOLD and sea(state).gold_owed == [1, 0, 0, 0]
    state.play(ChooseGold(0, (0, 0, 0, 0, 1)))
    assert state.hands[0][4] >= 1 and state.phase is Phase.MAIN


def test_a_tie_does_nothing() -> None:
    state = new_state()
    fleet(state).warships[0] = 1
    give(state, 0, SHIP)
    fleet_before(state, 0)
    roll(state, 1, 5)
    assert state.phase is Phase.MAIN and state.hand_size[0] >= 2


def test_a_seven_has_no_robber_the_roller_robs_anyone() -> None:
    """Seed 004 «"7" на кубиках»: discards, then the roller takes a card from any player."""
    state = new_state()
    give(state, 2, (1, 0, 0, 0, 0))
    sea(state).pirate = pirates(state).fleet_path[0]
    roll(state, 6, 1)
    assert state.phase is Phase.MOVE_ROBBER
    assert state.legal_actions() == [RobSeat(2)]
    with pytest.raises(IllegalActionError, match="no robber"):
        state.play(A.MoveRobber(0, 2))
    state.play(RobSeat(2))
    assert state.phase is Phase.STEAL
    state.play(A.StealCard(state.chance_outcomes()[0][0].resource))  # type: ignore[union-attr]
    assert state.hands[0][0] == 1


# ------------------------------------------------------------------ the fortress


def ready_to_attack(warships: int, options: GameOptions | None = None) -> GameState:
    state = new_state(options=options)
    roll(state, 2, 3)
    sail_line(state, 0)
    fleet(state).warships[0] = warships
    return state


def test_a_fortress_falls_in_three_won_attacks_and_becomes_a_settlement() -> None:
    """Seed 004 «Захват пиратской крепости»: warships above the die take a chit; the third
    makes the fortress the player's settlement; each attack ends the turn."""
    state = ready_to_attack(6)
    fortress = pirates(state).slots[0].fortress
    points = state.public_vp[0]
    for left in (2, 1, 0):
        state.play(AttackFortress())
        node = state.chance_node()
        assert node is not None and node.kind == UNIFORM and node.event == "fortress"
        state.play(FortressDie(5))
        assert fleet(state).fortress_chits[0] == left
        assert state.legal_actions() == [A.END_TURN]
        with pytest.raises(IllegalActionError, match="ends the turn"):
            state.play(BuildShip(0))
        if left:
            state.play(A.END_TURN)
            to_own_main(state, 0)
    assert state.node_owner[fortress] == 0 and fortress in state.settlements[0]
    assert state.public_vp[0] == points + 1


def test_a_lost_attack_costs_two_front_ships_and_a_tie_one() -> None:
    state = ready_to_attack(3)
    line = list(sea(state).ships[0])
    state.play(AttackFortress())
    state.play(FortressDie(4))
    assert sea(state).ships[0] == line[:-2] and fleet(state).warships[0] == 3
    assert fleet(state).fortress_chits[0] == 3
    state.play(A.END_TURN)
    to_own_main(state, 0)
    assert AttackFortress() not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="line reaches it"):
        state.play(AttackFortress())
    sail_line(state, 0)
    state.play(AttackFortress())
    state.play(FortressDie(3))
    assert sea(state).ships[0] == line[:-1]


def test_ten_points_win_only_with_the_own_fortress_captured() -> None:
    """Seed 004 «Конец игры» (a low target stands in for 10 points)."""
    state = ready_to_attack(6, GameOptions(victory_points=4))
    give(state, 0, (0, 0, 0, 2, 3))
    state.play(A.BuildCity(pirates(state).slots[0].settlement))
    assert state.public_vp[0] == 4 and state.phase is Phase.MAIN  # no fortress: no win
    for _ in range(3):
        to_own_main(state, 0)
        state.play(AttackFortress())
        state.play(FortressDie(1))
        if state.phase is not Phase.VICTORY:
            state.play(A.END_TURN)
    assert state.phase is Phase.VICTORY
    state.play(state.chance_outcomes()[0][0])
    assert state.winner == 0 and state.is_over


def test_a_settlement_on_a_pirate_island_only_on_the_colour_intersection() -> None:
    state = ready_to_attack(0)
    variant = pirates(state)
    other = next(
        n
        for n in range(TOPO.land_node_count)
        if TOPO.node_island[n] != variant.home and n != variant.slots[0].colour
    )
    give(state, 0, (1, 1, 1, 1, 0))
    assert A.BuildSettlement(variant.slots[0].colour) in state.legal_actions()
    with pytest.raises(IllegalActionError, match="colour intersection"):
        state.play(A.BuildSettlement(other))
    state.play(A.BuildSettlement(variant.slots[0].colour))


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(("game", "players"), [(GAME, 4), (GAME + "-3", 3)])
def test_random_games_keep_every_view_in_step(game: str, players: int) -> None:
    """Random play with every seat's information state checked at every step."""
    state, seen = play_random_game(game, 7, players, GameOptions(victory_points=5))
    assert seen["Dice"] > 20 and seen["RobSeat"] and seen["BuildShip"]
    if state.winner >= 0:  # a winner holds its own fortress
        assert state.node_owner[pirates(state).slots[state.winner].fortress] == state.winner


def test_the_new_actions_come_last_and_cross_the_wire() -> None:
    """Appended after every earlier action (earlier games' bytes stay); a seat's actions
    round-trip, and the fortress's die and the fleet's loot, chance outcomes, are refused from a
    seat."""
    assert [c.__name__ for c in R.ACTION_TYPES[30:34]] == [
        "AttackFortress",
        "RobSeat",
        "FortressDie",
        "FleetLoot",
    ]
    for action in (AttackFortress(), RobSeat(2), RobSeat(-1)):
        assert decode_action(encode_action(action)) == action
    for chance in (FortressDie(4), FleetLoot((1, 0, 0, 0, 1))):
        with pytest.raises(MalformedMessage, match="chance outcome"):
            decode_action(encode_action(chance))


# ------------------------------------------------------------------ the network and simulations


@pytest.mark.slow
def test_a_networked_three_seat_game_finishes_audits_and_verifies(tmp_path: Path) -> None:
    """Three seats' sessions in memory (the smallest Pirate Islands table: seed 004 plays with 3
    or 4) play between heuristic bots: every fortress attack's die is a beacon event like the
    dice; the winner holds 10 points and its own fortress; the audit passes and `hexlan verify`
    accepts every log."""
    table = InProcessTable(["a", "b", "c"], seed=5, game=GAME + "-3")
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(3)])
    views = [s.view for s in table.sessions]
    assert all(v is not None and v.is_over for v in views)
    state = views[0]
    assert state is not None and state.public_vp[state.winner] >= 10
    assert state.node_owner[pirates(state).slots[state.winner].fortress] == state.winner
    assert all(s.stopped is None and s.audited is not None for s in table.sessions)
    attacks = [e.action for e in table.sessions[0].journal if isinstance(e.action, FortressDie)]
    assert len(attacks) >= 3
    loots = [e for e in table.sessions[0].journal if isinstance(e.action, FleetLoot)]
    assert loots and all(e.loot is not None for e in loots)  # drawn blind, audited below
    assert_logs_verify(table, tmp_path, GAME + "-3")


@pytest.mark.parametrize(("game", "players"), [(GAME, 4), (GAME + "-3", 3)])
def test_simulated_games_end_with_a_winner_holding_its_fortress(game: str, players: int) -> None:
    """`hexlan simulate`'s games between heuristic bots all end with a winner at 10 points."""
    report = simulate(6, players, ["heuristic"] * players, seed=0, board="random", game=game)
    assert all(g.winner is not None for g in report.games)
    assert all(g.victory_points[g.winner] >= 10 for g in report.games if g.winner is not None)


def test_a_bots_game_is_told_in_words_fleet_warships_and_fortress_included() -> None:
    """Four heuristic bots with a view each play a whole game (every action checked by every
    view), told by seat 0's narrator: the fleet's attacks, the warships, the fortress attacks and
    a 7 without a robber read as such."""
    chance = SeededChance(4)
    board = random_board(chance.rng, "spiral", MAP)
    told = play_told_bot_game(RULES4, board, chance, check=True).told
    assert any("the pirate fleet (" in t and "attacks" in t for t in told)
    assert any("made a warship" in t for t in told)
    assert any(t.startswith("The fortress rolled") for t in told)
    assert any("captures it!" in t for t in told)
    assert any(": a 7!" in t for t in told) and not any("the robber" in t for t in told)
    assert any("the roll gives:" in t for t in told)  # production after the fleet's loot
    assert any(t.startswith("The pirate fleet takes") and "drawn blind" in t for t in told)


def test_a_robber_off_the_board_still_moves_onto_the_land() -> None:
    """Regression: only Pirate Islands has no robber. On The Fog Island (no desert: the robber
    starts off the board, -1) a 7 still offers every land hex."""
    rules = load_ruleset("seafarers-fog-island")
    board = random_board(random.Random(0), "spiral", load_map(rules.board))
    state = GameState(board, 4, rules=rules)
    assert state.robber == -1
    moves = [a for a in state.robber_actions(0) if isinstance(a, A.MoveRobber)]
    assert {a.hex for a in moves} == set(range(board.topology.hex_count))
