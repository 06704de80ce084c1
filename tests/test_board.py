"""Board and topology: components, the beginner layout, random boards, serialisation.

Rule sources: docs/rules/base.md «Components» and «Board» (seed 002 «Содержимое фирменной коробки»,
«Подготовка к началу игры», «Создание игрового поля»; the official beginner layout).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from hexlan.engine.board import (
    Board,
    Harbour,
    beginner_board,
    has_adjacent_red_numbers,
    random_board,
)
from hexlan.engine.core import RESOURCES, EngineError, Resource, Terrain
from hexlan.engine.maps import load_map

T = load_map().topology

TERRAIN_COUNTS = {
    Terrain.FOREST: 4,
    Terrain.HILLS: 3,
    Terrain.PASTURE: 4,
    Terrain.FIELDS: 4,
    Terrain.MOUNTAINS: 3,
    Terrain.DESERT: 1,
}
TOKEN_COUNTS = Counter({2: 1, 12: 1, **dict.fromkeys((3, 4, 5, 6, 8, 9, 10, 11), 2)})


def _boards() -> list[Board]:
    boards = [beginner_board()]
    for seed in range(12):
        boards.append(random_board(random.Random(seed), "spiral"))
        boards.append(random_board(random.Random(seed), "random"))
    return boards


# ---------------------------------------------------------------------------- topology


def test_topology_counts() -> None:
    """seed 002 «Создание игрового поля»: 19 land hexes; the graph has 54 intersections, 72 paths
    and a coast of 30 paths (those on one land hex only)."""
    assert (T.hex_count, T.node_count, T.path_count, len(T.coast)) == (19, 54, 72, 30)
    assert [len(r) for r in T.hex_rows] == [3, 4, 5, 4, 3]
    assert all(len(set(nodes)) == 6 for nodes in T.hex_nodes)
    hexes_per_path = Counter()
    for nodes in T.hex_nodes:
        for k in range(6):
            hexes_per_path[T.path_of[frozenset((nodes[k], nodes[(k + 1) % 6]))]] += 1
    assert {p for p, n in hexes_per_path.items() if n == 1} == set(T.coast)
    assert len(set(T.coast)) == 30


def test_adjacency_is_symmetric_and_consistent() -> None:
    """Intersection, path and hex adjacency agree with each other (the graph rules rely on)."""
    for n in range(T.node_count):
        assert 2 <= len(T.node_nodes[n]) <= 3
        assert 1 <= len(T.node_hexes[n]) <= 3
        for m, p in zip(T.node_nodes[n], T.node_paths[n], strict=True):
            assert n in T.node_nodes[m]
            assert set(T.path_nodes[p]) == {n, m}
            assert T.path_of[frozenset((n, m))] == p
        for h in T.node_hexes[n]:
            assert n in T.hex_nodes[h]
    for p, (a, b) in enumerate(T.path_nodes):
        assert a < b and p in T.node_paths[a] and p in T.node_paths[b]
    for h in range(T.hex_count):
        assert 3 <= len(T.hex_hexes[h]) <= 6
        for g in T.hex_hexes[h]:
            assert h in T.hex_hexes[g]
            assert len(set(T.hex_nodes[h]) & set(T.hex_nodes[g])) == 2
    assert sum(len(n) for n in T.node_nodes) == 2 * T.path_count


def test_coast_is_a_clockwise_ring_from_the_top_left() -> None:
    """seeds/base.toml: harbour positions index a ring of the 30 coastal paths, clockwise from
    the top-left hex's upper-left edge."""
    ring = T.coast
    for p, q in zip(ring, ring[1:] + ring[:1], strict=True):
        assert set(T.path_nodes[p]) & set(T.path_nodes[q]), "consecutive coast paths touch"
    first = set(T.path_nodes[ring[0]])
    assert first <= set(T.hex_nodes[0])
    assert first == {0, 3}  # the top-left hex's upper-left edge
    assert set(T.path_nodes[ring[1]]) == {0, 4}  # clockwise: along the top next


# ---------------------------------------------------------------------------- components


@pytest.mark.parametrize("board", _boards(), ids=lambda b: "".join(map(str, b.tokens[:4])))
def test_every_board_has_the_official_components(board: Board) -> None:
    """seed 002 «Содержимое фирменной коробки»: 4 forest, 3 hills, 4 pasture, 4 fields,
    3 mountains, 1 desert; 18 tokens (2 and 12 once, the rest twice), none on the desert;
    9 harbours: four 3:1 and one 2:1 per resource, each on its own coastal path."""
    assert Counter(board.terrains) == TERRAIN_COUNTS
    assert Counter(t for t in board.tokens if t) == TOKEN_COUNTS
    assert board.tokens[board.desert] == 0
    kinds = Counter(h.resource for h in board.harbours)
    assert kinds == Counter({None: 4, **dict.fromkeys(RESOURCES, 1)})
    assert len({h.path for h in board.harbours}) == 9
    assert all(h.path in T.coast for h in board.harbours)
    assert sorted(h.path for h in board.harbours) == sorted(load_map().harbour_paths)


def test_beginner_board_matches_the_rulebook_rows() -> None:
    """Official beginner layout (docs/rules/base.md «Board»): mountains 10, pasture 2, forest 9 /
    fields 12, hills 6, pasture 4, hills 10 / fields 9, forest 11, desert, forest 3, mountains 8 /
    forest 8, mountains 3, fields 4, pasture 5 / hills 5, fields 6, pasture 11."""
    board = beginner_board()
    M, P, F, C, H, D = (
        Terrain.MOUNTAINS,
        Terrain.PASTURE,
        Terrain.FOREST,
        Terrain.FIELDS,
        Terrain.HILLS,
        Terrain.DESERT,
    )
    expected = [
        [(M, 10), (P, 2), (F, 9)],
        [(C, 12), (H, 6), (P, 4), (H, 10)],
        [(C, 9), (F, 11), (D, 0), (F, 3), (M, 8)],
        [(F, 8), (M, 3), (C, 4), (P, 5)],
        [(H, 5), (C, 6), (P, 11)],
    ]
    rows = [[(board.terrains[h], board.tokens[h]) for h in row] for row in T.hex_rows]
    assert rows == expected
    assert board.desert == 9  # the centre; the robber starts here
    kinds = [h.label for h in board.harbours]
    assert kinds == ["3:1", "2:1 W", "3:1", "3:1", "2:1 B", "2:1 L", "3:1", "2:1 G", "2:1 O"]


def test_harbour_ratios() -> None:
    """seed 002 «Торговля»: a 3:1 harbour trades three for one, a resource harbour two for one."""
    assert Harbour(None, 0).ratio == 3
    assert Harbour(Resource.ORE, 0).ratio == 2
    nodes = beginner_board().harbour_nodes()
    assert len(nodes) == 18  # two intersections per harbour, none shared
    assert nodes[0].resource is None and nodes[3].resource is None


# ---------------------------------------------------------------------------- random boards


def test_random_boards_are_reproducible_from_the_seed() -> None:
    """ARCHITECTURE.md principle 1: the same chance source gives the same board."""
    for tokens in ("spiral", "random"):
        a = random_board(random.Random(42), tokens)
        b = random_board(random.Random(42), tokens)
        assert a == b
        assert a.to_dict() == b.to_dict()
        others = {random_board(random.Random(s), tokens).to_dict()["terrains"] for s in range(8)}
        assert len(others) > 1


def test_random_boards_place_the_desert_anywhere() -> None:
    """docs/rules/base.md «Board»: on a random board the desert may land on any hex."""
    deserts = {random_board(random.Random(s)).desert for s in range(300)}
    assert deserts == set(range(19))


def test_spiral_order_from_the_top_left_corner() -> None:
    """seed 002 «Подготовка к началу игры»: tokens go from a corner counter-clockwise, spiralling
    inwards: outer ring, inner ring, centre."""
    spirals = load_map().spirals
    assert spirals[0] == (0, 3, 7, 12, 16, 17, 18, 15, 11, 6, 2, 1, 4, 8, 13, 14, 10, 5, 9)
    corners = {h for h in range(19) if len(T.hex_hexes[h]) == 3}
    assert len(spirals) == 6
    for order in spirals:
        assert sorted(order) == list(range(19))
        assert order[0] in corners and order[-1] == 9
        for a, b in itertools.pairwise(order):
            assert b in T.hex_hexes[a], "each next hex shares an edge with the last"
    assert {order[0] for order in spirals} == corners


def test_spiral_tokens_follow_the_official_order_and_skip_the_desert() -> None:
    """seed 002 «Создание игрового поля»: the A-R tokens in spiral order, the desert skipped."""
    official = list(load_map().tokens)
    for seed in range(20):
        board = random_board(random.Random(seed), "spiral")
        # some corner's spiral reads the official order exactly
        assert any(
            [board.tokens[h] for h in order if board.tokens[h]] == official
            for order in load_map().spirals
        )


def test_no_two_red_numbers_touch() -> None:
    """Official variable set-up: "random" tokens are re-laid until no 6 and 8 (or two 6s, two 8s)
    share an edge; the spiral never makes them touch (seed 002 «Подготовка к началу игры»)."""
    for seed in range(60):
        for mode in ("random", "spiral"):
            board = random_board(random.Random(seed), mode)
            assert not has_adjacent_red_numbers(board.tokens), (seed, mode)
    assert not has_adjacent_red_numbers(beginner_board().tokens)
    tokens = [0] * 19
    tokens[4], tokens[5] = 6, 8  # hexes 4 and 5 share an edge
    assert has_adjacent_red_numbers(tuple(tokens))


def test_unknown_token_mode_raises() -> None:
    """Only "spiral" and "random" are board token modes."""
    with pytest.raises(EngineError):
        random_board(random.Random(0), "sorted")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- serialisation


def test_board_round_trips_through_dict() -> None:
    """Board.to_dict / from_dict are inverse (boards are logged as plain data)."""
    for board in _boards()[:9]:
        assert Board.from_dict(board.to_dict()) == board


def _malformed() -> list[object]:
    good = beginner_board().to_dict()
    bad_terrain = dict(good, terrains="X" + str(good["terrains"])[1:])
    short = dict(good, terrains=str(good["terrains"])[:-1])
    token_on_desert = dict(good, tokens=[5 if t == 0 else t for t in good["tokens"]])  # type: ignore[attr-defined]
    token_seven = dict(good, tokens=[7 if t == 5 else t for t in good["tokens"]])  # type: ignore[attr-defined]
    inland_harbour = dict(good, harbours=[[None, 12]])
    bad_resource = dict(good, harbours=[[9, 0]])
    bad_shape = dict(good, harbours=[[None, 0, 1]])
    no_tokens = {k: v for k, v in good.items() if k != "tokens"}
    text_tokens = dict(good, tokens="five")
    return [
        bad_terrain,
        short,
        token_on_desert,
        token_seven,
        inland_harbour,
        bad_resource,
        bad_shape,
        no_tokens,
        text_tokens,
        {},
        [],
        None,
        "board",
    ]


@pytest.mark.parametrize("data", _malformed())
def test_malformed_board_dicts_raise(data: dict[str, object]) -> None:
    """Board.from_dict raises EngineError (never anything else) on malformed input."""
    with pytest.raises(EngineError):
        Board.from_dict(data)
