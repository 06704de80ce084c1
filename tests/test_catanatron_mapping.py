"""scripts/catanatron_mapping.py against hexlan's own topology, and one bridged game when the
throwaway Catanatron venv of scripts/bench_engine.py is already on this machine.

Catanatron facts used here (its 3.2.1 sources, ``catanatron/models/map.py``): a tile names its
corners NORTH .. NORTHWEST clockwise; the base map's nine ports sit on the sea ring at the cube
coordinates and directions of ``BASE_MAP_TEMPLATE`` listed in :data:`CATANATRON_PORTS`.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from scripts_import import load_script

from hexlan.engine import actions as A
from hexlan.engine.core import NO_SEAT, Resource
from hexlan.engine.maps import load_map

ROOT = Path(__file__).resolve().parent.parent

CATANATRON_PORTS = (
    ((3, -3, 0), "WEST"),
    ((1, -3, 2), "NORTHWEST"),
    ((-1, -2, 3), "NORTHWEST"),
    ((-3, 0, 3), "NORTHEAST"),
    ((-3, 2, 1), "EAST"),
    ((-2, 3, -1), "EAST"),
    ((0, 3, -3), "SOUTHEAST"),
    ((2, 1, -3), "SOUTHWEST"),
    ((3, -1, -2), "SOUTHWEST"),
)
"""Where Catanatron's base map puts its ports: sea tile and the direction it points in."""


@pytest.fixture(scope="module")
def scripts() -> dict[str, ModuleType]:
    """The bridge's modules, imported from scripts/."""
    return {"mapping": load_script("catanatron_mapping")}


def numbered_like_catanatron(mapping: ModuleType, seed: int) -> tuple[list, list, list[int]]:
    """The base map as Catanatron data, its node ids an arbitrary permutation of hexlan's: the
    tiles, the ports, and the Catanatron id of each hexlan intersection."""
    topology = load_map().topology
    ids = list(range(topology.node_count))
    random.Random(seed).shuffle(ids)
    names = [*mapping.RESOURCE_NAMES, None]
    tiles = [
        mapping.TileData(
            mapping.axial_to_cube(topology.axial[h]),
            names[h % 6],
            None if h % 6 == 5 else 2 + h % 5,
            {ref: ids[n] for ref, n in zip(mapping.NODE_REFS, topology.hex_nodes[h], strict=True)},
        )
        for h in range(topology.hex_count)
    ]
    ports = [mapping.PortData(cube, d, None) for cube, d in CATANATRON_PORTS]
    return tiles, ports, ids


def test_corners_and_sides_follow_hexlan_topology(scripts: dict[str, ModuleType]) -> None:
    """Whatever Catanatron's node numbering, the mapping finds each intersection, each path
    and each hex again, and both directions agree."""
    mapping = scripts["mapping"]
    topology = load_map().topology
    for seed in range(3):
        tiles, ports, ids = numbered_like_catanatron(mapping, seed)
        board = mapping.BoardMapping(tiles, ports)
        assert [board.node_of[ids[n]] for n in range(topology.node_count)] == list(
            range(topology.node_count)
        )
        for h in range(topology.hex_count):
            assert board.hex_of[mapping.axial_to_cube(topology.axial[h])] == h
            nodes = topology.hex_nodes[h]
            for k, path in enumerate(topology.hex_paths[h]):
                edge = (ids[nodes[k]], ids[nodes[(k + 1) % 6]])
                assert board.path_of(edge) == path
                assert board.path_of(edge[::-1]) == path
                assert board.path_of(board.edge_of(path)) == path


def test_catanatron_ports_are_hexlan_harbour_positions(scripts: dict[str, ModuleType]) -> None:
    """Catanatron's nine port sites are exactly the nine harbour positions of hexlan's base map
    (seeds/boards/base.toml), so both games have the same frame."""
    mapping = scripts["mapping"]
    tiles, ports, _ = numbered_like_catanatron(mapping, 0)
    board = mapping.BoardMapping(tiles, ports).board
    assert sorted(h.path for h in board.harbours) == sorted(load_map().harbour_paths)
    assert board.terrains[board.desert].resource is None


def test_inconsistent_numbering_is_refused(scripts: dict[str, ModuleType]) -> None:
    """A Catanatron node that would be two hexlan intersections, or a tile off the map, is a
    MappingError naming it."""
    mapping = scripts["mapping"]
    tiles, ports, _ = numbered_like_catanatron(mapping, 1)
    first = tiles[0]
    nodes = dict(first.nodes)
    nodes["SOUTH"] = nodes["NORTH"]
    broken = [mapping.TileData(first.cube, first.resource, first.number, nodes), *tiles[1:]]
    with pytest.raises(mapping.MappingError, match="two hexlan intersections"):
        mapping.BoardMapping(broken, ports)
    off = [mapping.TileData((5, -5, 0), first.resource, first.number, first.nodes), *tiles[1:]]
    with pytest.raises(mapping.MappingError, match="off hexlan's map"):
        mapping.BoardMapping(off, ports)


def test_decisions_round_trip(scripts: dict[str, ModuleType]) -> None:
    """Every hexlan decision Catanatron has maps to a Catanatron action that maps back to it;
    domestic trade maps to nothing (Catanatron 3.2.1 has none)."""
    mapping = scripts["mapping"]
    tiles, ports, _ = numbered_like_catanatron(mapping, 2)
    board = mapping.BoardMapping(tiles, ports)
    colors = ["RED", "BLUE", "ORANGE"]
    seat_of = {c: s for s, c in enumerate(colors)}
    decisions = [
        A.BuildRoad(17),
        A.BuildSettlement(30),
        A.BuildCity(5),
        A.MoveRobber(4, 2),
        A.MoveRobber(9, NO_SEAT),
        A.Discard(1, (2, 0, 1, 0, 1)),
        A.PlayYearOfPlenty((Resource.BRICK, Resource.ORE)),
        A.PlayYearOfPlenty((Resource.WOOL,)),
        A.PlayMonopoly(Resource.GRAIN),
        A.MaritimeTrade((0, 0, 0, 2, 0), Resource.LUMBER),
        A.MaritimeTrade((0, 3, 0, 0, 0), Resource.WOOL),
        A.MaritimeTrade((4, 0, 0, 0, 0), Resource.ORE),
        A.PLAY_KNIGHT,
        A.PLAY_ROAD_BUILDING,
        A.END_TURN,
    ]
    for action in decisions:
        kind, value = mapping.to_catanatron(action, board, colors)
        seat = action.seat if isinstance(action, A.Discard) else 0
        assert mapping.to_hexlan(kind, value, seat, board, seat_of) == [action]
    assert mapping.to_catanatron(A.ROLL, board, colors) == ("ROLL", None)
    assert mapping.to_hexlan("ROLL", (3, 4), 0, board, seat_of) == [A.ROLL, A.Dice(3, 4)]
    assert mapping.to_hexlan("MOVE_ROBBER", ((0, 0, 0), "BLUE", "ORE"), 0, board, seat_of)[
        1
    ] == A.StealCard(Resource.ORE)
    offer = A.OfferTrade((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), NO_SEAT)
    assert mapping.to_catanatron(offer, board, colors) is None


def _catanatron_venv() -> Path | None:
    """The interpreter of the Catanatron venv if it is already made and works, else None."""
    bench_engine = load_script("bench_engine")
    python = bench_engine.venv_python(bench_engine.cache_dir() / "catanatron-venv")
    if not python.exists():
        return None
    probe = subprocess.run(
        [str(python), "-c", "import catanatron"], check=False, capture_output=True
    )
    return python if probe.returncode == 0 else None


@pytest.mark.skipif(_catanatron_venv() is None, reason="no Catanatron venv on this machine")
def test_a_bridged_game_has_no_unexplained_disagreement() -> None:
    """Two seeded two-player games against Catanatron's weighted random player run in lockstep
    to their end: every difference between the engines is a known, classified one."""
    bridge = load_script("catanatron_bridge")
    bridge.load_catanatron()
    for seed in (1, 2):
        result = bridge.Lockstep(seed, 2, seed % 2, "weighted", "heuristic").play()
        assert not result.aborted, [d.line() for d in result.disagreements]
        assert result.winner is not None
        assert all(d.kind != bridge.UNEXPLAINED for d in result.disagreements)


def test_wilson_interval_and_refused_opponents() -> None:
    """The win rate's 95% Wilson interval (5 of 10: 0.237-0.763, the textbook figure), and an
    opponent no Catanatron release ships is refused in one line, before any venv is made."""
    bridge = load_script("catanatron_bridge")
    low, high = bridge.wilson(5, 10)
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)
    assert bridge.wilson(0, 0) == (0.0, 1.0)
    assert bridge.wilson(20, 20)[1] == 1.0
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "catanatron_bridge.py"), "--opponent", "alphabeta"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "AlphaBetaPlayer" in done.stderr and "Traceback" not in done.stderr
