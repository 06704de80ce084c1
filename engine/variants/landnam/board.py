"""Landnám's board geometry: the positions inside the rim, their corners and sides, and the outer
sea hex (../shared/landnam-rules.md §3; seed 001 "The board").

The interior is a hex field of radius ``radius`` (2 by default: 19 positions, as inside the
standard six-piece Catan frame; gap G9 lets it be 3) in axial coordinates ``(q, r)``. Positions
are numbered from 0 in a fixed order (rows by ``r``, then ``q``); :data:`OUTER` names the outer
sea hex, which lies outside the rim, neighbours every edge position (ring ``radius``) and holds
any number of units. Corners are the hexes' vertices, numbered from 0 as well; a corner on the
outer boundary touches the rim, which counts as sea (gap G12). The board compiles once into
integer-indexed tuples, as every hexlan board does (ARCHITECTURE principle 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

OUTER: Final = -1
"""The outer sea hex: adjacent to every edge position, always vacant, holding any number of
units; a unit moving into it ends the movement phase (seed 001 "The board")."""

_DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# A pointy-top hex's corners in doubled coordinates (x = 2q + r, y = 3r), clockwise from the top.
_CORNER_OFFSETS: Final = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


@dataclass(frozen=True, slots=True)
class LandnamBoard:
    """The compiled geometry of one board size.

    Attributes:
        radius: the interior's radius (2: 19 positions).
        coords: each position's axial ``(q, r)``, by position number.
        neighbours: each position's adjacent positions inside the rim, by position number
            (the outer sea hex is not listed: see :attr:`edge`).
        edge: whether each position is an edge position (ring ``radius``), adjacent to the
            outer sea hex.
        board_corners: the six edge positions on the board's corners (seed 001: the first move
            goes to a *non-corner* edge hex).
        side: each edge position's side of the board (0-5) if it is not a board corner, else -1
            (seed 001 "first move": a side no other player has entered).
        corners: each position's six corners (vertex numbers), clockwise from the top.
        corner_hexes: each corner's positions inside the rim (one to three).
        corner_rim: whether each corner touches the rim (fewer than three positions).
        corner_neighbours: each corner's adjacent corners (two or three).
        centre: the centre position, where the mountain stands from the start.
    """

    radius: int
    coords: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    edge: tuple[bool, ...]
    board_corners: frozenset[int]
    side: tuple[int, ...]
    corners: tuple[tuple[int, ...], ...]
    corner_hexes: tuple[tuple[int, ...], ...]
    corner_rim: tuple[bool, ...]
    corner_neighbours: tuple[tuple[int, ...], ...]
    centre: int

    @property
    def size(self) -> int:
        """The number of positions inside the rim (19 at radius 2)."""
        return len(self.coords)

    def adjacent(self, a: int, b: int) -> bool:
        """Whether positions ``a`` and ``b`` (either may be :data:`OUTER`) are adjacent."""
        if a == OUTER:
            return b != OUTER and self.edge[b]
        if b == OUTER:
            return self.edge[a]
        return b in self.neighbours[a]

    def moves_from(self, position: int) -> tuple[int, ...]:
        """Every position adjacent to ``position``: its neighbours, then :data:`OUTER` for an edge
        position; from the outer sea hex, every edge position."""
        if position == OUTER:
            return tuple(p for p in range(self.size) if self.edge[p])
        extra = (OUTER,) if self.edge[position] else ()
        return self.neighbours[position] + extra

    def edge_hexes(self, a: int, b: int) -> tuple[int, ...]:
        """The positions along the side shared by adjacent corners ``a`` and ``b``: two inside
        the field, or one where the side lies on the rim."""
        return tuple(h for h in self.corner_hexes[a] if h in self.corner_hexes[b])

    def label(self, position: int) -> str:
        """A position in words for refusals and narration: ``"outer sea"`` or ``"(q,r)"``."""
        if position == OUTER:
            return "the outer sea"
        q, r = self.coords[position]
        return f"({q},{r})"


def _ring(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


@cache
def landnam_board(radius: int = 2) -> LandnamBoard:
    """The compiled board of ``radius`` (2 or 3; gap G9), built once per size.

    >>> board = landnam_board()
    >>> board.size, len(board.corner_hexes), sum(board.edge), len(board.board_corners)
    (19, 54, 12, 6)

    Raises:
        ValueError: a radius below 2.
    """
    if radius < 2:
        raise ValueError(f"a Landnám board has a radius of at least 2, not {radius}")
    coords = tuple(
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if _ring(q, r) <= radius
    )
    index = {c: i for i, c in enumerate(coords)}
    neighbours = tuple(
        tuple(index[(q + dq, r + dr)] for dq, dr in _DIRECTIONS if (q + dq, r + dr) in index)
        for q, r in coords
    )
    edge = tuple(_ring(q, r) == radius for q, r in coords)
    board_corners = frozenset(index[(radius * dq, radius * dr)] for dq, dr in _DIRECTIONS)
    side = tuple(_side(q, r, radius) if e else -1 for (q, r), e in zip(coords, edge, strict=True))
    side = tuple(-1 if i in board_corners else s for i, s in enumerate(side))
    points: dict[tuple[int, int], int] = {}
    corners: list[tuple[int, ...]] = []
    for q, r in coords:
        x, y = 2 * q + r, 3 * r
        corners.append(
            tuple(points.setdefault((x + dx, y + dy), len(points)) for dx, dy in _CORNER_OFFSETS)
        )
    hexes: list[list[int]] = [[] for _ in points]
    linked: list[set[int]] = [set() for _ in points]
    for position, own in enumerate(corners):
        for k, corner in enumerate(own):
            hexes[corner].append(position)
            linked[corner].update((own[k - 1], own[(k + 1) % 6]))
    return LandnamBoard(
        radius=radius,
        coords=coords,
        neighbours=neighbours,
        edge=edge,
        board_corners=board_corners,
        side=side,
        corners=tuple(corners),
        corner_hexes=tuple(tuple(h) for h in hexes),
        corner_rim=tuple(len(h) < 3 for h in hexes),
        corner_neighbours=tuple(tuple(sorted(n)) for n in linked),
        centre=index[(0, 0)],
    )


def _side(q: int, r: int, radius: int) -> int:
    """The side (0-5) of the board an edge position ``(q, r)`` lies on: the sides run between
    consecutive board corners, in :data:`_DIRECTIONS` order."""
    for k, (dq, dr) in enumerate(_DIRECTIONS):
        nq, nr = _DIRECTIONS[(k + 2) % 6]
        for step in range(radius + 1):
            if (radius * dq + step * nq, radius * dr + step * nr) == (q, r):
                return k
    raise AssertionError(f"({q},{r}) is not on ring {radius}")


__all__ = ["OUTER", "LandnamBoard", "landnam_board"]
