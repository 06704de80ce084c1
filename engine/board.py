"""Boards: terrain and number token per hex, and the harbours on the coast.

A board is an explicit input of a game (../shared/ARCHITECTURE.md principle 1): the beginner board
is data (seeds/base.toml), and a random board is built from a shuffle supplied by a chance source,
so the engine holds no randomness of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, Protocol

from hexlan.engine.core import EngineError, HexId, NodeId, PathId, Resource, Terrain
from hexlan.engine.ruleset import RuleSet, load_ruleset
from hexlan.engine.topology import BASE_TOPOLOGY, Topology

TERRAIN_CODES: Final[Mapping[str, Terrain]] = MappingProxyType(
    {
        "F": Terrain.FOREST,
        "H": Terrain.HILLS,
        "P": Terrain.PASTURE,
        "C": Terrain.FIELDS,
        "M": Terrain.MOUNTAINS,
        "D": Terrain.DESERT,
    }
)
"""The terrain of each letter code in seeds/*.toml (read only)."""
RED_NUMBERS: Final = frozenset({6, 8})
"""The most likely tokens, printed red: no two may touch on a random board (official)."""
PIPS: Final = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)
"""Dots on a number token, indexed by the token: the ways out of 36 that two dice roll it (0 for
the desert's token 0 and for 7, which no token carries)."""
TokenMode = Literal["spiral", "random"]
"""How :func:`random_board` lays the number tokens."""


class Shuffler(Protocol):
    """What a chance source offers for building a random board (``random.Random`` fits)."""

    def shuffle(self, x: list[Any], /) -> None:
        """Permute ``x`` in place."""

    def randrange(self, stop: int, /) -> int:
        """A uniform integer in ``[0, stop)``."""


@dataclass(frozen=True, slots=True)
class Harbour:
    """A harbour on a coastal path.

    Attributes:
        resource: the resource of a 2:1 harbour, or None for a 3:1 harbour.
        path: the coastal path it faces; its two intersections may use it.
    """

    resource: Resource | None
    path: PathId

    @property
    def ratio(self) -> int:
        """Cards given for one: 2 or 3."""
        return 3 if self.resource is None else 2

    @property
    def label(self) -> str:
        """Short label, e.g. "3:1" or "2:1 W"."""
        return "3:1" if self.resource is None else f"2:1 {self.resource.letter}"


@dataclass(frozen=True, slots=True)
class Board:
    """Terrains, tokens and harbours on a topology.

    Attributes:
        terrains: terrain of each hex.
        tokens: number token of each hex, 0 on the desert.
        harbours: the harbours.
        topology: the graph (shared, computed once).
    """

    terrains: tuple[Terrain, ...]
    tokens: tuple[int, ...]
    harbours: tuple[Harbour, ...]
    topology: Topology = BASE_TOPOLOGY

    @property
    def desert(self) -> HexId:
        """The first desert hex (where the robber starts)."""
        return self.terrains.index(Terrain.DESERT)

    def harbour_nodes(self) -> dict[NodeId, Harbour]:
        """Each intersection that may use a harbour, with that harbour."""
        nodes: dict[NodeId, Harbour] = {}
        for harbour in self.harbours:
            for node in self.topology.path_nodes[harbour.path]:
                nodes[node] = harbour
        return nodes

    def to_dict(self) -> dict[str, Any]:
        """A plain serialisable form (terrain letters, tokens, harbours as [resource|None, path])."""
        return {
            "terrains": "".join(code_of(t) for t in self.terrains),
            "tokens": list(self.tokens),
            "harbours": [
                [None if h.resource is None else int(h.resource), h.path] for h in self.harbours
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        """Inverse of :meth:`to_dict`.

        Raises:
            EngineError: a malformed or inconsistent board.
        """
        try:
            terrains = tuple(TERRAIN_CODES[c] for c in str(data["terrains"]))
            tokens = tuple(int(t) for t in data["tokens"])
            harbours = tuple(
                Harbour(None if r is None else Resource(r), int(p)) for r, p in data["harbours"]
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError(f"malformed board: {exc}") from exc
        board = cls(terrains, tokens, harbours)
        validate_board(board)
        return board


def code_of(terrain: Terrain) -> str:
    """The one-letter data code of a terrain in seeds/*.toml (F, H, P, C, M, D)."""
    return next(code for code, t in TERRAIN_CODES.items() if t is terrain)


def validate_board(board: Board) -> None:
    """Check a board's shape: one terrain and token per hex, tokens only off the desert.

    Raises:
        EngineError: what is inconsistent.
    """
    topology = board.topology
    if len(board.terrains) != topology.hex_count or len(board.tokens) != topology.hex_count:
        raise EngineError("a board needs one terrain and one token per hex")
    for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True)):
        if (terrain is Terrain.DESERT) != (token == 0) or token not in (
            0,
            2,
            3,
            4,
            5,
            6,
            8,
            9,
            10,
            11,
            12,
        ):
            raise EngineError(f"hex {h}: token {token} does not fit terrain {terrain.name}")
    coast = set(topology.coast)
    if any(h.path not in coast for h in board.harbours):
        raise EngineError("a harbour must face a coastal path")


def _harbour_kind(name: str) -> Resource | None:
    return None if name == "3:1" else Resource[name.upper()]


def _harbours(rules: RuleSet, kinds: list[str]) -> tuple[Harbour, ...]:
    positions = rules.raw["board"]["harbour_positions"]
    coast = BASE_TOPOLOGY.coast
    return tuple(Harbour(_harbour_kind(k), coast[i]) for k, i in zip(kinds, positions, strict=True))


def beginner_board(rules: RuleSet | None = None) -> Board:
    """The official beginner layout (seeds/base.toml ``[beginner]``)."""
    rules = rules or load_ruleset()
    terrains: list[Terrain] = []
    tokens: list[int] = []
    for row in rules.raw["beginner"]["rows"]:
        for cell in row:
            terrains.append(TERRAIN_CODES[cell[0]])
            tokens.append(int(cell[1:] or 0))
    board = Board(
        tuple(terrains), tuple(tokens), _harbours(rules, rules.raw["beginner"]["harbours"])
    )
    validate_board(board)
    return board


def spiral_order(start_corner: int, topology: Topology = BASE_TOPOLOGY) -> tuple[HexId, ...]:
    """Hexes in the official token spiral: from a corner hex counter-clockwise, ring by ring inwards.

    Args:
        start_corner: which of the six corner hexes starts, 0 .. 5 (0 is the top-left hex).

    Raises:
        EngineError: start_corner out of range.
    """
    if not 0 <= start_corner < 6:
        raise EngineError(f"start corner must be 0..5, not {start_corner}")

    def ccw_angle(h: HexId) -> float:
        x, y = topology.hex_centres[h]
        # Counter-clockwise on screen (y grows downwards) means a falling atan2 angle.
        return -math.atan2(y / 2, x * math.sqrt(3) / 2) % (2 * math.pi)

    centre = next(h for h, (x, y) in enumerate(topology.hex_centres) if x == 0 and y == 0)
    outer = [h for h in range(topology.hex_count) if len(topology.hex_hexes[h]) < 6]
    inner = [
        h for h in range(topology.hex_count) if len(topology.hex_hexes[h]) == 6 and h != centre
    ]
    outer.sort(key=ccw_angle)
    inner.sort(key=ccw_angle)
    corners = [h for h in outer if len(topology.hex_hexes[h]) == 3]
    first_corner = min(corners, key=lambda h: topology.hex_centres[h][::-1])
    corners = corners[corners.index(first_corner) :] + corners[: corners.index(first_corner)]
    start = corners[start_corner]
    outer = outer[outer.index(start) :] + outer[: outer.index(start)]
    inner_start = next(h for h in inner if h in topology.hex_hexes[start])
    inner = inner[inner.index(inner_start) :] + inner[: inner.index(inner_start)]
    return (*outer, *inner, centre)


def has_adjacent_red_numbers(tokens: tuple[int, ...], topology: Topology = BASE_TOPOLOGY) -> bool:
    """Whether two hexes with a 6 or an 8 share an edge (forbidden for random token placement)."""
    return any(
        tokens[h] in RED_NUMBERS and tokens[n] in RED_NUMBERS
        for h in range(topology.hex_count)
        for n in topology.hex_hexes[h]
    )


def random_board(
    shuffler: Shuffler, tokens: TokenMode = "spiral", rules: RuleSet | None = None
) -> Board:
    """A random board drawn from a chance source.

    Terrains and harbour kinds are shuffled; number tokens follow the official A-R spiral from a
    random corner (``tokens="spiral"``, seed 002 «Подготовка к началу игры») or are shuffled until
    no two 6/8 hexes touch (``tokens="random"``).

    Args:
        shuffler: the chance source (``random.Random`` in simulations; the beacon in net games).
        tokens: token placement, "spiral" or "random".

    Raises:
        EngineError: an unknown token mode.
    """
    rules = rules or load_ruleset()
    board_data = rules.raw["board"]
    terrains: list[Terrain] = [
        TERRAIN_CODES[code] for code, n in board_data["terrains"].items() for _ in range(n)
    ]
    shuffler.shuffle(terrains)
    kinds: list[str] = list(board_data["harbours"])
    shuffler.shuffle(kinds)
    laid = [0] * BASE_TOPOLOGY.hex_count
    if tokens == "spiral":
        sequence = iter(board_data["tokens"])
        for h in spiral_order(shuffler.randrange(6)):
            if terrains[h] is not Terrain.DESERT:
                laid[h] = next(sequence)
    elif tokens == "random":
        land = [h for h, t in enumerate(terrains) if t is not Terrain.DESERT]
        while True:
            numbers: list[int] = list(board_data["tokens"])
            shuffler.shuffle(numbers)
            laid = [0] * BASE_TOPOLOGY.hex_count
            for h, n in zip(land, numbers, strict=True):
                laid[h] = int(n)
            if not has_adjacent_red_numbers(tuple(laid)):
                break
    else:
        raise EngineError(f"token placement must be 'spiral' or 'random', not {tokens!r}")
    board = Board(
        tuple(terrains),
        tuple(laid),
        _harbours(rules, kinds),
    )
    validate_board(board)
    return board
