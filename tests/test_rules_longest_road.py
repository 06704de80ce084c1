"""Longest Road: length of a network, taking the card, ties, breaks, and longest_road_min.

Rule sources: docs/rules/base.md «Longest Road and Largest Army» (seed 002 «Конец игры»,
«Правила строительства дорог»; official break rule as JSettlers implements it; seed 003
«НАЧИСЛЕНИЕ БАЛЛОВ» for the option).

Beginner board trails used (each step is a path):
- LONG: 3-7-12-17-22-28-34-39-44 down the left side; 17 touches 23, so a settlement at 17 breaks it.
- RIGHT: 6-10-15-20-26-32-37 down the right coast.
- BOTTOM: 38-43-47-51-48-52-49-53-50 along the bottom coast.
- RING: 12-8-13-18-23-17-12 around hex 4.
"""

from __future__ import annotations

import itertools
import random

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import NO_SEAT
from hexlan.engine.longest_road import longest_road
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions

T = load_map().topology

LONG = (3, 7, 12, 17, 22, 28, 34, 39, 44)
RIGHT = (6, 10, 15, 20, 26, 32, 37)
BOTTOM = (38, 43, 47, 51, 48, 52, 49, 53, 50)
RING = (12, 8, 13, 18, 23, 17, 12)
ROAD = (1, 1, 0, 0, 0)


def _paths(nodes: tuple[int, ...]) -> list[int]:
    return [T.path_of[frozenset(pair)] for pair in itertools.pairwise(nodes)]


def _reference_length(roads: list[int], seat: int, owner: list[int]) -> int:
    """Brute force: the longest trail from every intersection of the network, no segment twice,
    never continuing through another seat's building."""
    best = 0

    def walk(node: int, used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if used and owner[node] not in (NO_SEAT, seat):
            return
        for p in T.node_paths[node]:
            if p in roads and p not in used:
                a, b = T.path_nodes[p]
                walk(b if a == node else a, used | {p})

    for node in {n for p in roads for n in T.path_nodes[p]}:
        walk(node, frozenset())
    return best


def _build_roads(t, seat: int, nodes: tuple[int, ...], count: int | None = None) -> None:
    """Build ``count`` roads along ``nodes`` for ``seat`` through checked play, paying for each."""
    paths = t.trail(*nodes)[:count]
    t.main(seat)
    for p in paths:
        t.give(seat, ROAD)
        t.play(A.BuildRoad(p))


def _seat_with_break_point(t) -> None:
    """Seat 1 gets a settlement at 18 and a road 18-23-17, ready to settle on 17."""
    t.build(1, roads=t.trail(18, 23, 17), settlements=[18])


def _settle(t, seat: int, node: int) -> None:
    t.main(seat)
    t.give(seat, (1, 1, 1, 1, 0))
    t.play(A.BuildSettlement(node))


# ---------------------------------------------------------------------------- length


@pytest.mark.parametrize(
    ("trails", "length"),
    [
        ([LONG[:5]], 4),
        ([(3, 0, 4, 1, 5), (4, 8, 12)], 4),  # a fork counts one branch only
        ([RING], 6),
        ([RING, (12, 7, 3)], 8),  # round the loop and out along the tail
        ([RING, (49, 53, 50)], 6),  # a separate network does not hide the loop
        ([RIGHT, (49, 53, 50)], 6),
        ([(3, 0, 4, 1, 5, 9, 13, 8, 4)], 8),  # a trail may revisit an intersection
    ],
)
def test_length_is_the_longest_single_trail(trails, length: int) -> None:
    """docs/rules/base.md «Longest Road»: the longest trail of connected segments, revisiting
    intersections but never reusing a segment; branches do not add up."""
    roads = sorted({p for nodes in trails for p in _paths(nodes)})
    assert longest_road(T, roads, 0, [NO_SEAT] * 54) == length


def test_length_broken_only_by_an_opponents_building() -> None:
    """Official: a trail cannot continue through an intersection holding another seat's
    settlement or city; its owner's own buildings do not break it; a ring broken at one
    intersection is still one road of six segments."""
    roads = _paths(LONG)
    owner = [NO_SEAT] * 54
    assert longest_road(T, roads, 0, owner) == 8
    owner[17] = 0
    assert longest_road(T, roads, 0, owner) == 8
    owner[17] = 1
    assert longest_road(T, roads, 0, owner) == 5  # 17-22-28-34-39-44
    owner = [NO_SEAT] * 54
    owner[18] = 1
    assert longest_road(T, _paths(RING), 0, owner) == 6
    # a tail on the broken ring adds to it, never subtracts (regression: 5)
    assert longest_road(T, _paths(RING) + _paths((12, 7, 3)), 0, owner) == 6


def test_length_matches_brute_force_on_random_networks() -> None:
    """The engine's longest trail equals an exhaustive search on random networks (roads round
    two or three neighbouring hexes, so loops, forks and separate pieces are common) with random
    buildings of the seat and of another seat; adding a road never shortens the road."""
    rng = random.Random(2024)
    for _ in range(600):
        h = rng.randrange(19)
        area = [h, *rng.sample(T.hex_hexes[h], 2)]
        pool = sorted({p for g in area for p in _paths((*T.hex_nodes[g], T.hex_nodes[g][0]))})
        roads = rng.sample(pool, rng.randrange(3, min(15, len(pool)) + 1))
        owner = [NO_SEAT] * 54
        nodes = sorted({n for g in area for n in T.hex_nodes[g]})
        for node in rng.sample(nodes, rng.randrange(0, 3)):
            owner[node] = rng.choice((0, 1))
        previous = 0
        for k in range(1, len(roads) + 1):
            got = longest_road(T, roads[:k], 0, owner)
            assert got == _reference_length(roads[:k], 0, owner), (roads[:k], owner)
            assert got >= previous
            previous = got


# ---------------------------------------------------------------------------- the award


def test_five_segments_take_the_card(table) -> None:
    """seed 002 «Конец игры»: the first to build a road of at least 5 segments takes Longest
    Road, worth 2 VP."""
    t = table(players=3)
    t.build(0, settlements=[3])
    _build_roads(t, 0, LONG, 4)
    s = t.state
    assert s.road_length[0] == 4 and s.longest_road_holder == NO_SEAT
    _build_roads(t, 0, LONG[4:6])
    assert s.road_length[0] == 5 and s.longest_road_holder == 0
    assert s.public_vp[0] == 3


def test_tie_keeps_the_card_strictly_longer_takes_it(table) -> None:
    """seed 002 «Конец игры»: another player takes the card only by being strictly longer; on a
    tie it stays with the player who built first."""
    t = table(players=3)
    t.build(0, settlements=[3])
    t.build(1, settlements=[6])
    _build_roads(t, 0, LONG, 5)
    _build_roads(t, 1, RIGHT, 5)
    s = t.state
    assert s.road_length[:2] == [5, 5] and s.longest_road_holder == 0
    _build_roads(t, 1, RIGHT[5:])
    assert s.longest_road_holder == 1
    assert s.public_vp[:2] == [1, 3]
    _build_roads(t, 0, LONG[5:7])
    assert s.road_length[:2] == [6, 6] and s.longest_road_holder == 1


def test_branches_do_not_count_toward_the_card(table) -> None:
    """docs/rules/base.md «Longest Road»: six roads in a fork of three arms of two is a road of
    four, not enough for the card."""
    t = table(players=2)
    t.build(0, settlements=[4])
    t.main(0)
    for p in t.trail(4, 0, 3) + t.trail(4, 1, 5) + t.trail(4, 8, 12):
        t.give(0, ROAD)
        t.play(A.BuildRoad(p))
    assert len(t.state.roads[0]) == 6
    assert t.state.road_length[0] == 4 and t.state.longest_road_holder == NO_SEAT


def test_a_loop_counts_every_segment(table) -> None:
    """docs/rules/base.md «Longest Road»: a loop of six is a road of six."""
    t = table(players=2)
    t.build(0, settlements=[12])
    _build_roads(t, 0, RING)
    assert t.state.road_length[0] == 6 and t.state.longest_road_holder == 0


def test_a_separate_short_road_does_not_hide_a_loop(table) -> None:
    """docs/rules/base.md «Longest Road»: the longest trail anywhere in the seat's roads counts
    (regression: a loop was missed when another piece of road had dead ends)."""
    t = table(players=2)
    t.build(0, settlements=[12, 49])
    _build_roads(t, 0, (49, 53, 50))
    _build_roads(t, 0, RING)
    assert t.state.road_length[0] == 6 and t.state.longest_road_holder == 0


def test_break_holder_falls_short_nobody_else_card_set_aside(table) -> None:
    """Official break rule: a break that leaves nobody at 5 sets the card aside."""
    t = table(players=3)
    t.build(0, roads=t.trail(*LONG[:7]), settlements=[3])  # 6 segments, up to 34
    _seat_with_break_point(t)
    s = t.state
    assert s.longest_road_holder == 0 and s.public_vp[0] == 3
    _settle(t, 1, 17)
    assert s.road_length[0] == 3  # 17-22-28-34
    assert s.longest_road_holder == NO_SEAT and s.public_vp[0] == 1


def test_break_holder_still_tied_keeps_the_card(table) -> None:
    """Official break rule: after a break the holder keeps the card while longest or tied."""
    t = table(players=3)
    t.build(0, roads=t.trail(*LONG), settlements=[3])  # 8 segments
    t.build(2, roads=t.trail(*RIGHT[:6]), settlements=[6])  # 5 segments
    _seat_with_break_point(t)
    _settle(t, 1, 17)
    s = t.state
    assert s.road_length == [5, 2, 5]
    assert s.longest_road_holder == 0


def test_break_one_player_alone_longest_takes_the_card(table) -> None:
    """Official break rule: otherwise the one player alone longest (at least 5) takes it."""
    t = table(players=3)
    t.build(0, roads=t.trail(*LONG[:8]), settlements=[3])  # 7 segments
    t.build(2, roads=t.trail(*RIGHT[:6]), settlements=[6])  # 5 segments
    _seat_with_break_point(t)
    _settle(t, 1, 17)
    s = t.state
    assert s.road_length[0] == 4
    assert s.longest_road_holder == 2 and s.public_vp == [1, 2, 3]


def test_break_tie_among_others_sets_the_card_aside_until_one_is_alone(table) -> None:
    """Official break rule: if two or more tie for longest, the card is set aside until one
    player alone is longest."""
    t = table(players=4)
    t.build(0, roads=t.trail(*LONG[:8]), settlements=[3])  # 7 segments
    t.build(2, roads=t.trail(*RIGHT[:6]), settlements=[6])  # 5
    t.build(3, roads=t.trail(*BOTTOM[:6]), settlements=[38])  # 5
    _seat_with_break_point(t)
    _settle(t, 1, 17)
    s = t.state
    assert s.road_length == [4, 2, 5, 5]
    assert s.longest_road_holder == NO_SEAT
    assert s.public_vp == [1, 2, 1, 1]
    _build_roads(t, 2, RIGHT[5:])  # seat 2 alone longest at 6
    assert s.longest_road_holder == 2 and s.public_vp[2] == 3


def test_set_aside_card_goes_to_the_first_alone_at_the_minimum(table) -> None:
    """Official break rule: a set-aside card waits for one player alone longest at 5 or more."""
    t = table(players=3)
    t.build(0, roads=t.trail(*LONG[:7]), settlements=[3])  # 6
    _seat_with_break_point(t)
    _settle(t, 1, 17)
    s = t.state
    assert s.longest_road_holder == NO_SEAT
    t.build(2, settlements=[6])
    _build_roads(t, 2, RIGHT, 4)
    assert s.longest_road_holder == NO_SEAT
    _build_roads(t, 2, RIGHT[4:6])
    assert s.longest_road_holder == 2


def test_longest_road_min_option(table) -> None:
    """seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ» (option longest_road_min=6): "more than 5 segments"."""
    t = table(players=2, options=GameOptions(longest_road_min=6))
    t.build(0, settlements=[3])
    _build_roads(t, 0, LONG, 5)
    assert t.state.longest_road_holder == NO_SEAT
    _build_roads(t, 0, LONG[5:7])
    assert t.state.longest_road_holder == 0
