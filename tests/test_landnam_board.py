"""Landnám's board geometry (../shared/landnam-rules.md §3, gaps G9, G12): the positions inside
the rim, the edge positions and the board's corners, the outer sea hex, the hexes' corners."""

from __future__ import annotations

import itertools

import pytest
from landnam_helpers import posed

from hexlan.engine.core import EngineError
from hexlan.engine.variants.landnam.board import OUTER, LandnamBoard, landnam_board
from hexlan.engine.variants.landnam.rules import UNEXPLORED, Land

BOARD = landnam_board()
BOARD3 = landnam_board(3)


def _ring(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def test_radius_two_counts() -> None:
    """§3: 19 positions inside the six-piece rim, 54 corners, 12 edge positions of which six are
    the board's corners (2,-2), (2,0), (0,2), (-2,2), (-2,0), (0,-2)."""
    assert BOARD.size == 19
    assert len(BOARD.corner_hexes) == 54
    assert sum(BOARD.edge) == 12
    assert {BOARD.coords[p] for p in BOARD.board_corners} == {
        (2, -2),
        (2, 0),
        (0, 2),
        (-2, 2),
        (-2, 0),
        (0, -2),
    }
    assert BOARD.coords[BOARD.centre] == (0, 0)
    assert [p for p in range(19) if BOARD.edge[p]] == [
        p for p, (q, r) in enumerate(BOARD.coords) if _ring(q, r) == 2
    ]


def _sides(board: LandnamBoard) -> dict[int, list[int]]:
    sides: dict[int, list[int]] = {}
    for p in range(board.size):
        if board.side[p] >= 0:
            sides.setdefault(board.side[p], []).append(p)
    return sides


@pytest.mark.parametrize(("board", "per_side"), [(BOARD, 1), (BOARD3, 2)])
def test_one_side_between_two_board_corners(board: LandnamBoard, per_side: int) -> None:
    """§3, §9.6: each of the six sides has its non-corner edge positions (one at radius 2, two at
    radius 3), lying on the straight run between two neighbouring board corners; board corners
    and interior positions are on no side."""
    sides = _sides(board)
    assert sorted(sides) == list(range(6))
    assert all(len(ps) == per_side for ps in sides.values())
    for p in range(board.size):
        if p in board.board_corners or not board.edge[p]:
            assert board.side[p] == -1
    ends_seen = []
    for positions in sides.values():
        run = set(positions)
        ends = {c for c in board.board_corners if any(n in run for n in board.neighbours[c])}
        assert len(ends) == 2
        ends_seen.append(frozenset(ends))
        # the run and its two ends form a straight line: q, r or s is constant along it
        line = [board.coords[p] for p in run | ends]
        assert any(len({axis(q, r) for q, r in line}) == 1 for axis in _AXES)
    assert len(set(ends_seen)) == 6


def _q(q: int, r: int) -> int:
    return q


def _r(q: int, r: int) -> int:
    return r


def _s(q: int, r: int) -> int:
    return -q - r


_AXES = (_q, _r, _s)


@pytest.mark.parametrize("board", [BOARD, BOARD3])
def test_outer_sea_adjacent_to_every_edge_position_only(board: LandnamBoard) -> None:
    """§3: the outer sea hex is adjacent to every edge position and to nothing else."""
    edge = [p for p in range(board.size) if board.edge[p]]
    assert board.moves_from(OUTER) == tuple(edge)
    assert not board.adjacent(OUTER, OUTER)
    for p in range(board.size):
        assert board.adjacent(OUTER, p) == board.adjacent(p, OUTER) == board.edge[p]
        assert (OUTER in board.moves_from(p)) == board.edge[p]
        assert OUTER not in board.neighbours[p]


@pytest.mark.parametrize("board", [BOARD, BOARD3])
def test_neighbours_are_the_hex_neighbours(board: LandnamBoard) -> None:
    """§3 "Adjacency": positions are adjacent in the normal hex sense, symmetrically; an
    interior position has six neighbours, an edge position fewer."""
    for a, b in itertools.permutations(range(board.size), 2):
        (qa, ra), (qb, rb) = board.coords[a], board.coords[b]
        assert board.adjacent(a, b) == (_ring(qa - qb, ra - rb) == 1)
    for p in range(board.size):
        assert (len(board.neighbours[p]) == 6) == (not board.edge[p])


@pytest.mark.parametrize(("board", "corners", "rim"), [(BOARD, 54, 30), (BOARD3, 96, 42)])
def test_corners_and_their_hexes_agree(board: LandnamBoard, corners: int, rim: int) -> None:
    """§3 "Vertices": every hex has six distinct corners; a corner touches one to three
    positions, pairwise adjacent, and touches the rim exactly when it touches fewer than three
    (the outer boundary's 6 * (2r + 1) corners)."""
    assert len(board.corner_hexes) == len(board.corner_rim) == corners
    for p, own in enumerate(board.corners):
        assert len(set(own)) == 6
        for c in own:
            assert p in board.corner_hexes[c]
    for c, hexes in enumerate(board.corner_hexes):
        assert 1 <= len(hexes) <= 3
        assert all(c in board.corners[h] for h in hexes)
        assert all(board.adjacent(a, b) for a, b in itertools.combinations(hexes, 2))
        assert board.corner_rim[c] == (len(hexes) < 3)
    assert sum(board.corner_rim) == rim


@pytest.mark.parametrize(("board", "sides"), [(BOARD, 72), (BOARD3, 132)])
def test_corner_neighbours_and_edge_hexes(board: LandnamBoard, sides: int) -> None:
    """§3, §12.2: two corners are neighbours when they end one side of a hex (symmetric; an
    interior corner has three); the side's hexes (edge_hexes) are the two positions it divides,
    or the one position where the side lies on the rim (6 * (2r + 1) of them)."""
    pairs = set()
    for c, others in enumerate(board.corner_neighbours):
        assert 2 <= len(others) <= 3
        if not board.corner_rim[c]:
            assert len(others) == 3
        for o in others:
            assert c in board.corner_neighbours[o]
            pairs.add(frozenset((c, o)))
    assert len(pairs) == sides
    on_rim = 0
    for pair in pairs:
        a, b = sorted(pair)
        hexes = board.edge_hexes(a, b)
        assert set(hexes) == set(board.corner_hexes[a]) & set(board.corner_hexes[b])
        assert len(hexes) in (1, 2)
        for h in hexes:
            own = board.corners[h]
            assert abs(own.index(a) - own.index(b)) in (1, 5)  # consecutive corners of h
        on_rim += len(hexes) == 1
    assert on_rim == sum(board.corner_rim)


def test_radius_three_counts() -> None:
    """Gap G9: radius 3 has 37 positions, 96 corners, 18 edge positions, six board corners."""
    assert (BOARD3.size, len(BOARD3.corner_hexes), sum(BOARD3.edge)) == (37, 96, 18)
    assert {BOARD3.coords[p] for p in BOARD3.board_corners} == {
        (3, -3),
        (3, 0),
        (0, 3),
        (-3, 3),
        (-3, 0),
        (0, -3),
    }
    with pytest.raises(ValueError, match="radius"):
        landnam_board(1)


def test_new_game_board_and_stocks() -> None:
    """§3, §4.1, gap G9: a new game has the mountain in the centre without a number and every
    other position unexplored; radius 3 scales the stocks (terrains, markers, harbours, G7) by
    its open positions over radius 2's, 36/18; other radii are refused (§2.3)."""
    state = posed()
    assert state.terrain[state.board.centre] == Land.MOUNTAIN
    assert state.numbers == [0] * 19
    assert state.terrain.count(UNEXPLORED) == 18
    big = posed(landnam_radius=3)
    assert big.board.size == 37
    assert big.terrain.count(UNEXPLORED) == 36
    assert big.terrain_stock == [2 * n for n in state.terrain_stock]
    assert big.marker_stock[2] == 2 * state.marker_stock[2]
    with pytest.raises(EngineError, match="G9"):
        posed(landnam_radius=4)
    # the scale is 36 open positions over 18 exactly, not 37 positions over 19
    assert posed(landnam_radius=3, landnam_harbours=13).harbour_stock == [26] * 4
    assert posed(landnam_harbours=13).harbour_stock == [13] * 4


def test_hashes_see_the_turns_progress() -> None:
    """Architecture "one Game interface": two states that play differently hash differently;
    the steps taken this movement phase (§9.1) are part of the public state."""
    state = posed()
    other = state.copy()
    other.steps = [0]
    assert other.public_hash() != state.public_hash()
    assert other.full_hash() != state.full_hash()
