"""Boards: terrain and number token per hex, and the harbours on the coast.

A board is an explicit input of a game (../shared/ARCHITECTURE.md principle 1): the beginner board
is data (seeds/boards/base.toml), and a random board is built from a shuffle supplied by a chance source,
so the engine holds no randomness of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from hexlan.engine.core import EngineError, HexId, NodeId, PathId, Resource, Terrain
from hexlan.engine.maps import TOKENS, BoardMap, load_map, terrain_codes
from hexlan.engine.topology import Topology

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


def _base_topology() -> Topology:
    return load_map().topology


_NOT_DESERT: Final = frozenset({Terrain.GOLD_FIELD, Terrain.FOG, Terrain.SEA})


def _is_desert(terrain: Terrain) -> bool:
    if not terrain.is_catalogue:
        return not terrain.takes_token
    return terrain.resource is None and terrain not in _NOT_DESERT


@dataclass(frozen=True, slots=True)
class Board:
    """Terrains, tokens and harbours laid on a map.

    Attributes:
        terrains: terrain of each land hex.
        tokens: number token of each land hex, 0 where there is none (the desert, a gold mine).
        harbours: the harbours.
        topology: the map's graph (shared, computed once per map); the base map by default.
    """

    terrains: tuple[Terrain, ...]
    tokens: tuple[int, ...]
    harbours: tuple[Harbour, ...]
    topology: Topology = field(default_factory=_base_topology)

    @property
    def desert(self) -> HexId:
        """The first hex that produces no resource and is no gold field (where the robber
        starts: the desert, or the jungle or gold mine of those variants; of a rule set's own
        terrains, one without a number token); -1 on a board without one (a Seafarers
        scenario's rule set then places the robber)."""
        return next((h for h, t in enumerate(self.terrains) if _is_desert(t)), -1)

    def harbour_nodes(self) -> dict[NodeId, Harbour]:
        """Each intersection that may use a harbour, with that harbour."""
        nodes: dict[NodeId, Harbour] = {}
        for harbour in self.harbours:
            for node in self.topology.path_nodes[harbour.path]:
                nodes[node] = harbour
        return nodes

    def to_dict(self) -> dict[str, Any]:
        """A plain serialisable form: terrain letters, tokens, harbours as ``[resource|None,
        path]``, and ``map`` (the map's name) unless it is the base map."""
        data: dict[str, Any] = {
            "terrains": "".join(t.code for t in self.terrains),
            "tokens": list(self.tokens),
            "harbours": [
                [None if h.resource is None else int(h.resource), h.path] for h in self.harbours
            ],
        }
        if self.topology.name != "base":
            data["map"] = self.topology.name
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], terrains: Iterable[Terrain] = ()) -> Board:
        """Inverse of :meth:`to_dict`: the board on the map it names, its terrain letters those
        of the catalogue and of ``terrains`` (the game's,
        :attr:`~hexlan.engine.ruleset.RuleSet.terrains`).

        Raises:
            EngineError: a malformed or inconsistent board, or an unknown map.
        """
        try:
            own = tuple(terrains)
            topology = load_map(str(data.get("map", "base")), own).topology
            codes = terrain_codes(own)
            laid = tuple(codes[c] for c in str(data["terrains"]))
            tokens = tuple(int(t) for t in data["tokens"])
            harbours = tuple(
                Harbour(None if r is None else Resource(r), int(p)) for r, p in data["harbours"]
            )
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise EngineError(f"malformed board: {exc!r}") from exc
        board = cls(laid, tokens, harbours, topology)
        validate_board(board)
        return board


def validate_board(board: Board) -> None:
    """Check a board's shape: one terrain and token per land hex, a token only on hexes whose
    terrain takes one (not the desert or a gold mine), harbours on the coast. A producing hex may
    lack a token (it never produces): Pirate Islands' numberless hills and pasture (seed 004).

    Raises:
        EngineError: what is inconsistent.
    """
    topology = board.topology
    if len(board.terrains) != topology.hex_count or len(board.tokens) != topology.hex_count:
        raise EngineError("a board needs one terrain and one token per hex")
    for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True)):
        if token and (not terrain.takes_token or token not in TOKENS):
            raise EngineError(f"hex {h}: token {token} does not fit terrain {terrain.name}")
    coast = set(topology.coast)
    if any(not 0 <= h.path < topology.path_count or h.path not in coast for h in board.harbours):
        raise EngineError("a harbour must face a coastal path")


def _laid_harbours(board_map: BoardMap, kinds: Sequence[Resource | None]) -> tuple[Harbour, ...]:
    return tuple(Harbour(k, p) for k, p in zip(kinds, board_map.harbour_paths, strict=True))


def beginner_board(board_map: BoardMap | None = None) -> Board:
    """The map's fixed beginner layout (seeds/boards/base.toml ``[beginner]`` by default).

    Raises:
        EngineError: the map has no beginner layout.
    """
    board_map = board_map or load_map()
    layout = board_map.beginner
    if layout is None:
        raise EngineError(f"map {board_map.name!r} has no beginner layout")
    board = Board(
        layout.terrains,
        layout.tokens,
        _laid_harbours(board_map, layout.harbour_kinds),
        board_map.topology,
    )
    validate_board(board)
    return board


def has_adjacent_red_numbers(tokens: Sequence[int], topology: Topology | None = None) -> bool:
    """Whether two hexes with a 6 or an 8 share an edge (forbidden for random token placement)."""
    topology = topology or load_map().topology
    return any(
        tokens[h] in RED_NUMBERS and tokens[n] in RED_NUMBERS
        for h in range(topology.hex_count)
        for n in topology.hex_hexes[h]
    )


def _set_aside(board_map: BoardMap) -> list[tuple[HexId, Terrain]]:
    """The hexes the main pool skips, in id order: fixed ones with their terrain, and area hexes
    with a placeholder terrain that :func:`_lay_areas` replaces."""
    aside = dict(board_map.fixed)
    for area in board_map.areas:
        aside.update((h, Terrain.DESERT) for h in area.hexes)
    return sorted(aside.items())


def _lay_areas(
    shuffler: Shuffler, board_map: BoardMap, terrains: list[Terrain], laid: list[int]
) -> None:
    """Shuffle each area's terrains onto its hexes (again until its ``only`` terrains lie where
    the map keeps them), then its tokens onto those that take one, again until no two 6/8 hexes
    touch (Seafarers scenarios; docs/rules/seafarers.md)."""
    for area in board_map.areas:
        pool = list(area.terrains)
        shuffler.shuffle(pool)
        while not area.is_allowed(pool):
            shuffler.shuffle(pool)
        for h, terrain in zip(area.hexes, pool, strict=True):
            terrains[h] = terrain
    while True:
        for area in board_map.areas:
            numbers = list(area.tokens)
            shuffler.shuffle(numbers)
            takers = [h for h in area.hexes if terrains[h].takes_token]
            for h in area.hexes:
                laid[h] = 0
            for h, n in zip(takers, numbers, strict=True):
                laid[h] = n
        if not has_adjacent_red_numbers(laid, board_map.topology):
            return


def random_board(
    shuffler: Shuffler, tokens: TokenMode = "spiral", board_map: BoardMap | None = None
) -> Board:
    """A random board of a map, drawn from a chance source.

    Terrains and harbour kinds are shuffled (a map's fixed hexes keep their terrain); number
    tokens follow the official spiral (a random one of the map's spirals, seed 002 «Подготовка к
    началу игры»; the base map's six start at its corners) or are shuffled until no two 6/8 hexes
    touch (``tokens="random"``). A terrain with a token of its own on the map (the jungle) is
    passed over like the desert and takes that token afterwards (official Jungle variant: "in
    addition to the number tokens already placed").

    Args:
        shuffler: the chance source (``random.Random`` in simulations; the beacon in net games).
        tokens: token placement, "spiral" or "random".
        board_map: the map (the base map by default).

    Raises:
        EngineError: an unknown token mode.
    """
    board_map = board_map or load_map()
    topology = board_map.topology
    terrains = list(board_map.terrains)
    shuffler.shuffle(terrains)
    for h, terrain in _set_aside(board_map):  # in id order, so this keeps the rest's order
        terrains.insert(h, terrain)
    kinds = list(board_map.harbour_kinds)
    shuffler.shuffle(kinds)
    laid = [0] * topology.hex_count
    pool = board_map.needs_pool_token
    if tokens == "spiral":
        sequence = iter(board_map.tokens)
        spirals = board_map.spirals
        for h in spirals[shuffler.randrange(len(spirals))] if spirals else ():
            if pool(terrains[h]):
                laid[h] = next(sequence)
    elif tokens == "random":
        land = [h for h, t in enumerate(terrains) if pool(t)]
        while True:
            numbers = list(board_map.tokens)
            shuffler.shuffle(numbers)
            laid = [0] * topology.hex_count
            for h, n in zip(land, numbers, strict=True):
                laid[h] = n
            if not has_adjacent_red_numbers(laid, topology):
                break
    else:
        raise EngineError(f"token placement must be 'spiral' or 'random', not {tokens!r}")
    for h, terrain in enumerate(terrains):
        own = board_map.token_of(terrain)
        if own is not None:
            laid[h] = own
    if board_map.areas:
        _lay_areas(shuffler, board_map, terrains, laid)
    for h, number in board_map.fixed_tokens:
        laid[h] = number
    board = Board(tuple(terrains), tuple(laid), _laid_harbours(board_map, kinds), topology)
    validate_board(board)
    return board
