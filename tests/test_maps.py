"""Maps as data: the topology of any set of hexes, the packaged map files, and bad map files.

Rule sources: ../shared/expansions-reference.md §2 (the 5-6 map: 30 hexes, 11 harbours, the token
order and spirals), seed 002 «Подготовка к началу игры» (the base spiral).
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexlan.engine.board import Board, random_board
from hexlan.engine.core import EngineError, Terrain
from hexlan.engine.maps import compile_map, load_map, map_names
from hexlan.engine.seedfile import read_seed
from hexlan.engine.topology import DIRECTIONS, SIDES, Axial, build_topology

Hexes = st.sets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(land=Hexes, sea_share=st.floats(0, 1))
def test_any_map_has_a_consistent_graph(land: set[Axial], sea_share: float) -> None:
    """Every path has two ends; a land corner touches one to three land hexes and two or three
    paths; adjacency is symmetric; each hex side is one path shared by the hexes on both sides."""
    neighbours = {(q + dq, r + dr) for q, r in land for dq, dr in DIRECTIONS.values()} - land
    sea = {a for i, a in enumerate(sorted(neighbours)) if i < sea_share * len(neighbours)}
    topo = build_topology(land, sea)
    assert topo.hex_count == len(land) and len(topo.sea_axial) == len(sea)
    assert sorted(topo.axial, key=lambda a: (a[1], a[0])) == list(topo.axial)
    for a, b in topo.path_nodes:
        assert a < b and b in topo.node_nodes[a] and a in topo.node_nodes[b]
    for n in range(topo.node_count):
        assert 1 <= len(topo.node_hexes[n]) <= 3
        assert 2 <= len(topo.node_nodes[n]) == len(topo.node_paths[n]) <= 3
        for m, p in zip(topo.node_nodes[n], topo.node_paths[n], strict=True):
            assert set(topo.path_nodes[p]) == {n, m}
    for h, (q, r) in enumerate(topo.axial):
        assert len(set(topo.hex_nodes[h])) == 6 and len(set(topo.hex_paths[h])) == 6
        for side, path in zip(SIDES, topo.hex_paths[h], strict=True):
            dq, dr = DIRECTIONS[side]
            across = (q + dq, r + dr)
            assert topo.side_path(h, side) == path
            if across in land:
                other = topo.hex_at(across)
                assert other in topo.hex_hexes[h] and path in topo.hex_paths[other]
                assert sorted(topo.path_hexes[path]) == sorted((h, other))
            else:
                assert topo.path_hexes[path] == (h,) and path in topo.coast
    assert len(topo.coast) == len(set(topo.coast))


@settings(max_examples=60, deadline=None)
@given(land=Hexes, seed=st.integers(0, 2**32))
def test_ids_are_stable_whatever_order_the_hexes_come_in(land: set[Axial], seed: int) -> None:
    """Ids follow reading order, so the same map listed in any order compiles to the same ids."""
    shuffled = sorted(land)
    random.Random(seed).shuffle(shuffled)
    assert build_topology(shuffled) == build_topology(sorted(land))


@pytest.mark.parametrize("name", map_names())
def test_every_packaged_map_reloads_identically(name: str) -> None:
    """A map file compiled twice (fresh parses, not the cache) gives equal maps."""
    assert compile_map(read_seed("boards", name), name) == load_map(name)


def test_the_five_six_map_has_the_extension_components() -> None:
    """expansions-reference.md §2: 30 land hexes in rows of 3-4-5-6-5-4-3; 6 forest, 6 pasture,
    6 fields, 5 hills, 5 mountains, 2 deserts; 28 tokens; 11 harbours (5 generic, wool twice);
    four spirals, the second counter-clockwise from the west end of the long middle row."""
    board_map = load_map("five-six")
    topo = board_map.topology
    assert [len(row) for row in topo.hex_rows] == [3, 4, 5, 6, 5, 4, 3]
    assert (topo.hex_count, topo.node_count, topo.path_count) == (30, 80, 109)
    t = Terrain
    assert Counter(board_map.terrains) == {
        t.FOREST: 6,
        t.PASTURE: 6,
        t.FIELDS: 6,
        t.HILLS: 5,
        t.MOUNTAINS: 5,
        t.DESERT: 2,
    }
    assert Counter(board_map.tokens) == {
        2: 2,
        12: 2,
        **dict.fromkeys((3, 4, 5, 6, 8, 9, 10, 11), 3),
    }
    kinds = Counter(board_map.harbour_kinds)
    assert len(board_map.harbour_paths) == 11 and kinds[None] == 5 and sum(kinds.values()) == 11
    west = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 2), (4, 1), (5, 0), (5, -1)]
    assert [topo.axial[h] for h in board_map.spirals[1][:10]] == west
    assert [topo.axial[h] for h in board_map.spirals[1][-4:]] == [(2, 0), (2, 1), (3, 0), (3, -1)]
    for order in board_map.spirals:
        assert sorted(order) == list(range(30))


def test_a_five_six_board_round_trips_through_its_dict() -> None:
    """A saved board names its map and reloads on it, not on the base map."""
    board = random_board(random.Random(5), "spiral", load_map("five-six"))
    data = board.to_dict()
    assert data["map"] == "five-six"
    again = Board.from_dict(data)
    assert again == board and again.topology.hex_count == 30
    assert "map" not in random_board(random.Random(5)).to_dict()
    with pytest.raises(EngineError, match="no map named"):
        Board.from_dict({**data, "map": "atlantis"})


def _base_raw() -> dict[str, Any]:
    text = resources.files("hexlan.seeds").joinpath("boards", "base.toml").read_text("utf-8")
    return tomllib.loads(text)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda raw: raw["harbours"].append({"hex": [9, 9], "side": "E"}), "no land hex at"),
        (lambda raw: raw["harbours"].__setitem__(0, {"hex": [0, 0], "side": "E"}), "face the sea"),
        (lambda raw: raw["harbours"].__setitem__(0, {"hex": [0, -2], "side": "N"}), "hex side"),
        (lambda raw: raw["tokens"].pop(), "17 number tokens for 18"),
        (lambda raw: raw["tokens"].__setitem__(0, 7), "numbers 2-6 and 8-12"),
        (lambda raw: raw["terrains"].__setitem__("D", 2), "20 terrains"),
        (lambda raw: raw["terrains"].__setitem__("X", 1), "unknown terrain"),
        (lambda raw: raw["terrains"].__setitem__("D", -1), "whole numbers >= 0"),
        (lambda raw: raw["land"].append([0, -2]), "listed twice"),
        (lambda raw: raw["land"].append("north"), "axial position"),
        (lambda raw: raw["sea"].append([0, 0]), "both land and sea"),
        (lambda raw: raw["spirals"].append({"start": [0, 0], "turn": "ccw"}), "outer ring"),
        (lambda raw: raw["spirals"].append({"start": [0, -2], "turn": "up"}), "turns"),
        (lambda raw: raw["beginner"]["rows"].pop(), "one cell per land hex"),
        (lambda raw: raw.pop("land"), "malformed"),
    ],
)
def test_a_bad_map_file_is_refused_with_its_reason(change: Any, reason: str) -> None:
    raw = _base_raw()
    change(raw)
    with pytest.raises(EngineError, match=reason) as caught:
        compile_map(raw, "broken")
    assert "\n" not in str(caught.value)


def test_variant_maps_state_only_what_differs_from_the_base_map() -> None:
    """seeds/boards/jungle.toml extends base.toml: the same hexes and harbours, the jungle for
    the desert; the Big River keeps the base pool less a forest, a mountains and the desert."""
    base, jungle, river = load_map("base"), load_map("jungle"), load_map("big-river")
    assert jungle.topology.axial == base.topology.axial
    assert jungle.harbour_paths == base.harbour_paths and jungle.spirals == base.spirals
    assert Counter(jungle.terrains) == {
        **{t: n for t, n in Counter(base.terrains).items() if t is not Terrain.DESERT},
        Terrain.JUNGLE: 1,
    }
    assert len(river.terrains) == 16 and Terrain.DESERT not in river.terrains


def test_unknown_map_names_are_refused() -> None:
    for name in ("atlantis", "../base", ""):
        with pytest.raises(EngineError):
            load_map(name)
