"""Cities & Knights' progress cards played (issue 13; official card list;
docs/rules/cities-and-knights.md): each built card's effect, the card leaving the hand face up
in every seat's view, and the rejections (a card not dealt, one not built yet)."""

from __future__ import annotations

from test_cities_knights import (
    BOARD,
    RULES,
    TRADE_GATE,
    give,
    new_state,
    progress,
    rejected,
    step,
    to_main,
    with_views,
)

from hexlan.engine import actions as A
from hexlan.engine.board import Terrain
from hexlan.engine.core import Phase, Resource
from hexlan.engine.options import GameOptions
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import knights
from hexlan.engine.variants.cities_knights.actions import (
    SCIENCE,
    TRACKS,
    TRADE,
    ActivateKnight,
    EventDie,
    GiveCards,
    ImproveCity,
    KnightsPhase,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.engine.variants.cities_knights.progress_play import PLAYABLE

NAMES = [tuple(RULES.raw["decks"][t]) for t in TRACKS]


def card(name: str) -> tuple[int, int]:
    """``(track, face)`` of the card ``name``."""
    return next((t, names.index(name)) for t, names in enumerate(NAMES) if name in names)


def holding(
    name: str, seat: int = 0, options: GameOptions | None = None
) -> tuple[GameState, PlayProgress]:
    """A game in ``seat``'s main phase, the seat holding ``name``; and its play (no choice)."""
    state = new_state(options=options)
    to_main(state, seat)
    track, face = card(name)
    progress(state).cards[seat].append((track, face))
    progress(state).pool[track][face] -= 1
    return state, PlayProgress(track, face)


IN_HAND = GameOptions.of(ck_point_cards_in_hand=True)
"""The older reading: Printer and Constitution held, played in the holder's main phase."""


def test_printer_and_constitution_are_a_victory_point_each_and_leave_the_hand() -> None:
    """With the option ``ck_point_cards_in_hand`` (officially they are never held)."""
    for name in ("printer", "constitution"):
        state, play = holding(name, options=IN_HAND)
        before = state.victory_points(0)
        assert play in state.legal_actions()
        state.play(play)
        assert state.victory_points(0) == before + 1 and progress(state).points[0] == 1
        assert progress(state).held(0) == 0
        rejected(state, play, f"holds no {name} progress card")


def test_a_card_the_seat_was_not_dealt_is_rejected_and_named() -> None:
    state = new_state()
    to_main(state, 0)
    rejected(state, PlayProgress(*card("smith")), "seat 0 holds no smith progress card")
    rejected(state, PlayProgress(SCIENCE, 99), "no progress card 99")


def test_road_building_gives_two_free_roads() -> None:
    state, play = holding("road_building")
    roads = len(state.roads[0])
    state.play(play)
    assert state.phase is Phase.ROAD_BUILDING
    for _ in range(2):
        state.play(state.legal_actions()[0])
    assert len(state.roads[0]) == roads + 2 and state.phase is Phase.MAIN
    assert sum(state.hands[0]) == 0


def knight_at(state: GameState, seat: int, level: int = 1, active: bool = False) -> int:
    """Put a knight of ``seat`` on a free spot its roads reach; its intersection."""
    spot = knights.build_spots(state, seat)[0]
    knights.place(state, progress(state), spot, Knight(seat, level, active))
    return spot


def test_the_smith_promotes_two_knights_free() -> None:
    state, play = holding("smith")
    first, second = knight_at(state, 0), knight_at(state, 0)
    state.play(play)
    state.play(PromoteKnight(first))
    state.play(PromoteKnight(second))
    assert [k.level for _, k in progress(state).knights_of(0)] == [2, 2]
    assert sum(state.hands[0]) == 0 and progress(state).free_promotions == 0


def test_irrigation_and_mining_give_two_per_hex_beside_the_seat() -> None:
    for name, resource, terrain in (
        ("irrigation", Resource.GRAIN, Terrain.FIELDS),
        ("mining", Resource.ORE, Terrain.MOUNTAINS),
    ):
        state, play = holding(name)
        mine = set(state.settlements[0]) | set(state.cities[0])
        hexes = sum(
            1
            for h, t in enumerate(BOARD.terrains)
            if t is terrain and mine & set(state.topology.hex_nodes[h])
        )
        state.play(play)
        assert state.hands[0][resource] == 2 * hexes and sum(state.hands[0]) == 2 * hexes


def test_the_warlord_activates_every_knight_free() -> None:
    state, play = holding("warlord")
    spots = [knight_at(state, 0), knight_at(state, 0, level=2)]
    state.play(play)
    assert all(progress(state).knights[n].active for n in spots)
    assert not any(isinstance(a, ActivateKnight) for a in state.legal_actions())


def test_the_engineer_builds_a_free_wall_under_a_city() -> None:
    state, _ = holding("engineer")
    track, face = card("engineer")
    city = state.cities[0][0]
    assert state.legal_actions().count(PlayProgress(track, face, city)) == 1
    rejected(state, PlayProgress(track, face, state.settlements[0][0]), "engineer cannot")
    state.play(PlayProgress(track, face, city))
    assert progress(state).walls[0] == [city] and sum(state.hands[0]) == 0


def test_medicine_builds_a_city_for_two_ore_and_a_grain() -> None:
    state, _ = holding("medicine")
    track, face = card("medicine")
    town = state.settlements[0][0]
    rejected(state, PlayProgress(track, face, town), "medicine cannot")  # no ore, no grain
    give(state, 0, ore=2, grain=1)
    vp = state.victory_points(0)
    state.play(PlayProgress(track, face, town))
    assert town in state.cities[0] and state.victory_points(0) == vp + 1
    assert sum(state.hands[0]) == 0


def test_a_card_played_is_seen_by_every_view_and_leaves_the_hidden_count() -> None:
    state, views = with_views(options=IN_HAND)  # a printer held: the option's reading
    track, face = card("printer")
    for game in (state, views[1]):
        progress(game).cards[1].append((track, face))
        progress(game).pool[track][face] -= 1
    for game in (state, *views):
        if game is not views[1] and game is not state:
            progress(game).unknown[1][track] += 1
    while not (state.active == 1 and state.phase is Phase.MAIN):
        if state.phase is Phase.ROLL:
            step(state, views, A.ROLL)
            step(state, views, A.Dice(1, 2))
            step(state, views, EventDie(TRADE_GATE))
        elif state.phase is Phase.MAIN:
            step(state, views, A.END_TURN)
        else:
            step(state, views, state.legal_actions()[0])
    pool = progress(views[0]).pool[track][face]
    step(state, views, PlayProgress(track, face))
    assert progress(views[0]).unknown[1][track] == 0
    assert progress(views[0]).pool[track][face] == pool - 1
    assert views[0].victory_points(1) == state.victory_points(1)


def test_every_card_of_the_decks_is_built() -> None:
    assert {n for names in NAMES for n in names} == PLAYABLE


def test_the_crane_makes_the_next_improvement_one_commodity_cheaper_this_turn() -> None:
    state, play = holding("crane")
    progress(state).levels[0][TRADE] = 2
    give(state, 0, cloth=2)
    rejected(state, ImproveCity(TRADE), "trade level 3 costs 3 cloth")
    state.play(play)
    state.play(ImproveCity(TRADE))
    assert progress(state).levels[0][TRADE] == 3 and sum(state.hands[0]) == 0
    assert not progress(state).crane  # spent on one improvement


def test_the_merchant_fleet_trades_a_kind_two_for_one_until_the_turn_ends() -> None:
    state, _ = holding("merchant_fleet")
    track, face = card("merchant_fleet")
    ratio = state.ratios[0][Resource.WOOL]
    assert ratio > 2
    state.play(PlayProgress(track, face, Resource.WOOL))
    give(state, 0, wool=2)
    state.play(A.MaritimeTrade((0, 0, 2, 0, 0, 0, 0, 0), Resource.ORE))
    assert state.hands[0][Resource.ORE] == 1 and state.hands[0][Resource.WOOL] == 0
    state.play(A.END_TURN)
    assert state.ratios[0][Resource.WOOL] == ratio and progress(state).fleet is None


def test_the_saboteur_makes_seats_with_as_many_points_or_more_discard_half() -> None:
    state, play = holding("saboteur")
    give(state, 1, lumber=5)  # as many points: discards 2
    give(state, 2, brick=3)
    state.public_vp[2] = state.public_vp[0] - 1  # fewer points: keeps its cards
    give(state, 3, ore=1)  # one card: half of it is none
    state.play(play)
    assert state.phase is Phase.DISCARD and state.discards == [0, 2, 0, 0]
    state.play(A.Discard(1, (2, 0, 0, 0, 0, 0, 0, 0)))
    assert state.phase is Phase.MAIN and state.active == 0
    assert sum(state.hands[1]) == 3 and sum(state.hands[2]) == 3


def test_the_saboteur_is_not_played_when_it_would_touch_no_one() -> None:
    state, play = holding("saboteur")
    rejected(state, play, "saboteur cannot be played")


def test_a_point_card_played_at_twelve_points_wins() -> None:
    """With the option ``ck_point_cards_in_hand``: the point counts when played."""
    state, play = holding("constitution", options=IN_HAND)
    state.public_vp[0] = 12
    state.play(play)
    node = state.chance_node()
    assert node is not None and node.event == "victory" and node.seats == (0,)
    state.play(A.RevealVictory(0, 0))
    assert state.is_over and state.winner == 0


def test_the_diplomat_removes_an_open_road_and_its_owner_may_place_its_own_again() -> None:
    state, _ = holding("diplomat")
    track, face = card("diplomat")
    targets = [a.choice for a in state.legal_actions() if isinstance(a, PlayProgress)]
    assert set(targets) <= {p for roads in state.roads for p in roads}
    theirs = next(p for p in targets if state.path_owner[p] == 1)
    state.play(PlayProgress(track, face, theirs))
    assert theirs not in state.roads[1] and state.path_owner[theirs] < 0
    assert state.phase is Phase.MAIN
    state, _ = holding("diplomat")
    mine = state.roads[0][0]
    state.play(PlayProgress(track, face, mine))
    assert mine not in state.roads[0] and state.phase is Phase.ROAD_BUILDING
    state.play(next(a for a in state.legal_actions() if isinstance(a, A.BuildRoad)))
    assert len(state.roads[0]) == 2 and state.phase is Phase.MAIN


def test_a_road_closed_at_both_ends_is_no_diplomats_target() -> None:
    state, play = holding("diplomat")
    topology = state.topology
    road, extension = next(
        (r, p)
        for r in state.roads[0]
        for end in topology.path_nodes[r]
        if state.node_owner[end] != 0  # the road's open end
        for p in topology.node_paths[end]
        if state.path_owner[p] < 0
    )
    state.path_owner[extension] = 0
    state.roads[0].append(extension)
    state._road_cache = [None] * state.players
    targets = {x.choice for x in state.legal_actions() if isinstance(x, PlayProgress)}
    assert road not in targets and extension in targets
    rejected(state, PlayProgress(play.track, play.face, road), "diplomat cannot be played")


def test_the_wedding_makes_each_seat_with_more_points_give_two_cards_of_its_choice() -> None:
    state, play = holding("wedding")
    for seat in (1, 3):
        state.public_vp[seat] = state.public_vp[0] + 1
    give(state, 1, lumber=2, ore=1)
    give(state, 2, brick=3)  # as many points: gives nothing
    give(state, 3, wool=1)  # one card: gives it
    state.play(play)
    assert state.phase is KnightsPhase.WEDDING and state.current_player() == 1
    assert GiveCards(1, (1, 0, 0, 0, 1, 0, 0, 0)) in state.legal_actions(1)
    rejected(state, GiveCards(1, (0, 2, 0, 0, 0, 0, 0, 0)), "not legal")  # no brick
    state.play(GiveCards(1, (1, 0, 0, 0, 1, 0, 0, 0)))
    assert state.current_player() == 3 and state.legal_actions(3) == [
        GiveCards(3, (0, 0, 1, 0, 0, 0, 0, 0))
    ]
    state.play(GiveCards(3, (0, 0, 1, 0, 0, 0, 0, 0)))
    assert state.phase is Phase.MAIN and state.hands[0][:5] == [1, 0, 1, 0, 1]
    assert sum(state.hands[1]) == 1 and sum(state.hands[2]) == 3


def test_intrigue_displaces_an_opponents_knight_off_the_seats_road() -> None:
    state, play = holding("intrigue")
    assert not any(isinstance(a, PlayProgress) for a in state.legal_actions())  # no target
    topology = state.topology
    ends = sorted({n for p in state.roads[0] for n in topology.path_nodes[p]})
    empty = [n for n in ends if state.node_owner[n] < 0]

    def roads_at(node: int) -> set[int]:
        return {state.path_owner[p] for p in topology.node_paths[node]} - {-1, 0}

    lone = next(n for n in empty if 1 not in roads_at(n))  # seat 1 has no road there
    knights.place(state, progress(state), lone, Knight(1, 3, active=True))
    state.play(PlayProgress(play.track, play.face, lone))
    assert lone not in progress(state).knights and state.phase is Phase.MAIN  # no road: gone
    state, play = holding("intrigue")
    node, mine, theirs = next(
        (n, q, r)
        for q, ends_q in enumerate(topology.path_nodes)
        for n in ends_q
        for r in topology.node_paths[n]
        if r != q
        and state.path_owner[q] < 0
        and state.path_owner[r] < 0
        and all(state.node_owner[m] < 0 for m in (*ends_q, *topology.path_nodes[r]))
    )
    for path, seat in ((mine, 0), (theirs, 1)):  # seat 0's road ends where seat 1's begins
        state.path_owner[path] = seat
        state.roads[seat].append(path)
    state._road_cache = [None] * state.players
    knights.place(state, progress(state), node, Knight(1, 2, active=True))
    state.play(PlayProgress(play.track, play.face, node))
    assert state.phase is KnightsPhase.RETREAT and state.current_player() == 1
    retreat = state.legal_actions(1)
    assert retreat and all(isinstance(a, RetreatKnight) and a.node != node for a in retreat)
    state.play(retreat[0])
    assert progress(state).knights[retreat[0].node] == Knight(1, 2, active=True)
    assert state.phase is Phase.MAIN and state.active == 0


def test_a_progress_card_play_spends_a_card_that_may_be_drawn_this_turn() -> None:
    """A progress card may be played in the turn it was drawn (official Cities & Knights rules),
    unlike a development card; the game has no victory point card that counts while held."""
    state, play = holding("smith")
    track, face = card("smith")
    assert state.hidden_card(play) == (TRACKS[track], face, "smith", True)
    assert state.hidden_card(A.EndTurn()) is None
    assert state.point_card() is None
