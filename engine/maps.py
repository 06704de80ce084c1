"""Maps as data: seeds/boards/*.toml compiled once into a topology and the pools a board is laid from.

A map file names its land and sea hexes (axial positions, see :mod:`hexlan.engine.topology`), the
terrain and number-token pools a random board is laid from, how tokens are laid (the spirals a
random board chooses from), the harbour positions as land hex sides facing the sea with the pool of
harbour kinds, and optionally a fixed beginner layout. A map may also fix some hexes' terrains (they
are not shuffled: the Big River tile) and give a terrain a number token of its own instead of one
from the pool (the Jungle's token, laid after the others). :func:`load_map` reads and checks one file
and caches it per process, so every board of a map shares one :class:`Topology`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from hexlan.engine.core import EngineError, HexId, PathId, Resource, Terrain
from hexlan.engine.seedfile import read_seed
from hexlan.engine.topology import Axial, Topology, build_topology, with_regions

TERRAIN_CODES: Final[Mapping[str, Terrain]] = MappingProxyType({t.code: t for t in Terrain})
"""The catalogue terrain of each letter code in seeds/boards/*.toml (read only;
:func:`terrain_codes` adds a rule set's own)."""
TOKENS: Final = frozenset({2, 3, 4, 5, 6, 8, 9, 10, 11, 12})
"""The numbers a number token may carry."""


@dataclass(frozen=True, slots=True)
class Layout:
    """A fixed board on a map: a terrain, a token (0 for none) per land hex, a harbour kind per
    harbour position (None for 3:1)."""

    terrains: tuple[Terrain, ...]
    tokens: tuple[int, ...]
    harbour_kinds: tuple[Resource | None, ...]


@dataclass(frozen=True, slots=True)
class Area:
    """Land hexes laid from pools of their own on a random board (a Seafarers scenario's small
    islands): their terrains shuffled onto them, then their tokens shuffled onto those that take
    one, in hex id order.

    Attributes:
        hexes: the area's hexes, in id order.
        terrains: the terrain pool, one per hex.
        tokens: the number tokens, one per hex whose terrain takes one.
        only: ``(terrain, hexes)`` pairs: every tile of that terrain must lie on one of those
            hexes (the terrains are shuffled again until they do: Through the Desert's gold
            field past the desert); empty on most maps.
    """

    hexes: tuple[HexId, ...]
    terrains: tuple[Terrain, ...]
    tokens: tuple[int, ...]
    only: tuple[tuple[Terrain, frozenset[HexId]], ...] = ()

    def is_allowed(self, laid: Sequence[Terrain]) -> bool:
        """Whether ``laid`` (one terrain per hex of the area, in id order) keeps every
        terrain of ``only`` on its hexes."""
        return all(
            h in hexes
            for terrain, hexes in self.only
            for h, t in zip(self.hexes, laid, strict=True)
            if t is terrain
        )


@dataclass(frozen=True, slots=True)
class BoardMap:
    """One map file, compiled.

    Attributes:
        name: the file's name without ``.toml``.
        topology: the graph of its hexes (built once per process).
        terrains: the terrain pool, one entry per land hex, in file order (a random board shuffles
            it).
        tokens: the number tokens in their official letter order.
        spirals: the hex orders a random board may lay tokens along, one per spiral in the file.
        harbour_paths: the path of each harbour position, in file order.
        harbour_kinds: the pool of harbour kinds (None for 3:1), in file order.
        beginner: the fixed beginner layout, if the map has one.
        fixed: ``(hex, terrain)`` of each hex whose terrain is fixed (not in ``terrains``, never
            shuffled), in hex id order; empty on most maps.
        terrain_tokens: ``(terrain, token)`` pairs: every hex of that terrain takes that token,
            laid after the pool's (the Jungle's, seed 002 «Джунгли»); empty on most maps.
        areas: hexes laid from pools of their own (:class:`Area`), outside ``terrains``,
            ``tokens`` and the spirals; empty on most maps.
        fixed_tokens: ``(hex, token)`` of each fixed hex that also fixes its number token (0:
            none, a producing terrain left without a number: Pirate Islands' numberless hills
            and pasture, seed 004), in hex id order; it takes none from the pool.
    """

    name: str
    topology: Topology
    terrains: tuple[Terrain, ...]
    tokens: tuple[int, ...]
    spirals: tuple[tuple[HexId, ...], ...]
    harbour_paths: tuple[PathId, ...]
    harbour_kinds: tuple[Resource | None, ...]
    beginner: Layout | None
    fixed: tuple[tuple[HexId, Terrain], ...] = ()
    terrain_tokens: tuple[tuple[Terrain, int], ...] = ()
    areas: tuple[Area, ...] = ()
    fixed_tokens: tuple[tuple[HexId, int], ...] = ()

    def token_of(self, terrain: Terrain) -> int | None:
        """The token every hex of ``terrain`` takes on this map, or None: it takes one from the
        pool (or none at all, for a terrain without tokens)."""
        for t, token in self.terrain_tokens:
            if t is terrain:
                return token
        return None

    def needs_pool_token(self, terrain: Terrain) -> bool:
        """Whether a hex of ``terrain`` takes its number token from the pool (every producing
        terrain; not the desert or gold mine, nor a terrain with a token of its own)."""
        return terrain.takes_token and self.token_of(terrain) is None


def harbour_kind(name: str) -> Resource | None:
    """A harbour kind from its data name: "3:1" or a resource name ("lumber" .. "ore").

    Raises:
        EngineError: an unknown name.
    """
    if name == "3:1":
        return None
    try:
        return Resource[name.upper()]
    except KeyError:
        raise EngineError(f"a harbour is '3:1' or a resource name, not {name!r}") from None


def spiral(
    topology: Topology, start: Axial, turn: str, hexes: Collection[HexId] | None = None
) -> tuple[HexId, ...]:
    """Land hexes in a token spiral: ring by ring inwards, each ring walked one way round.

    The outer ring is every land hex with fewer than six land neighbours; each next ring is the
    same of what is left. The first ring starts at ``start``; each inner ring starts at its hex
    next to the previous ring's start (the first such hex met walking from that start's angle).

    Args:
        topology: the map.
        start: axial position of the first hex; it must be on the outer ring.
        turn: "ccw" (counter-clockwise on screen, the base game's official spiral) or "cw".
        hexes: the hexes to walk (default: every land hex; a map with areas walks the rest).

    Raises:
        EngineError: an unknown turn, or a start off the outer ring.
    """
    if turn not in ("ccw", "cw"):
        raise EngineError(f"a spiral turns 'ccw' or 'cw', not {turn!r}")
    sign = 1.0 if turn == "ccw" else -1.0
    first = topology.hex_at(start)
    remaining = set(range(topology.hex_count) if hexes is None else hexes)
    order: list[HexId] = []
    previous: HexId | None = None
    while remaining:
        ring = [
            h for h in remaining if sum(n in remaining for n in topology.hex_hexes[h]) < 6
        ] or sorted(remaining)
        cx = sum(topology.hex_centres[h][0] for h in ring) / len(ring)
        cy = sum(topology.hex_centres[h][1] for h in ring) / len(ring)

        def angle(h: HexId, cx: float = cx, cy: float = cy) -> float:
            x, y = topology.hex_centres[h]
            # Counter-clockwise on screen (y grows downwards) is a falling atan2 angle.
            return sign * -math.atan2((y - cy) / 2, (x - cx) * math.sqrt(3) / 2) % (2 * math.pi)

        if previous is None:
            if first not in ring:
                raise EngineError(f"spiral start {list(start)} is not on the map's outer ring")
            begin = first
        else:
            base = angle(previous)
            walk = sorted(ring, key=lambda h: (angle(h) - base) % (2 * math.pi))
            near = [h for h in walk if h in topology.hex_hexes[previous]]
            begin = near[0] if near else walk[0]
        ring.sort(key=angle)
        at = ring.index(begin)
        ring = ring[at:] + ring[:at]
        order.extend(ring)
        remaining.difference_update(ring)
        previous = begin
    return tuple(order)


def _axial(value: Any, what: str) -> Axial:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise EngineError(f"{what} must be an axial position [q, r], not {value!r}")
    return (value[0], value[1])


def terrain_codes(terrains: Iterable[Terrain] = ()) -> Mapping[str, Terrain]:
    """The terrain of each letter code: the catalogue's (:data:`TERRAIN_CODES`) and those of
    ``terrains`` (a rule set's, :attr:`~hexlan.engine.ruleset.RuleSet.terrains`) it does not
    hold."""
    return MappingProxyType({**TERRAIN_CODES, **{t.code: t for t in terrains}})


def _terrain(code: Any, codes: Mapping[str, Terrain]) -> Terrain:
    try:
        return codes[code]
    except (KeyError, TypeError):
        raise EngineError(f"unknown terrain code {code!r}") from None


def _tokens(values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or any(v not in TOKENS for v in values):
        raise EngineError(f"{what} must be a list of numbers 2-6 and 8-12, not {values!r}")
    return tuple(int(v) for v in values)


def _beginner(raw: Any, topology: Topology, harbours: int, codes: Mapping[str, Terrain]) -> Layout:
    rows = raw["rows"]
    cells = [str(cell) for row in rows for cell in row]
    if len(rows) != len(topology.hex_rows) or len(cells) != topology.hex_count:
        raise EngineError("the beginner layout needs one cell per land hex, row by row")
    terrains = tuple(_terrain(cell[:1], codes) for cell in cells)
    tokens = tuple(int(cell[1:] or 0) for cell in cells)
    _tokens([t for t in tokens if t], "beginner tokens")
    kinds = tuple(harbour_kind(str(k)) for k in raw["harbours"])
    if len(kinds) != harbours:
        raise EngineError("the beginner layout needs one harbour kind per harbour position")
    return Layout(terrains, tokens, kinds)


def compile_map(
    raw: Mapping[str, Any], name: str, codes: Mapping[str, Terrain] = TERRAIN_CODES
) -> BoardMap:
    """Check and compile a parsed map file.

    Args:
        raw: the parsed TOML (see seeds/boards/base.toml for the fields).
        name: the map's name.
        codes: the terrain of each letter the file may use (:func:`terrain_codes`: the
            catalogue's and a rule set's own).

    Raises:
        EngineError: a malformed or inconsistent map (a harbour on a side that is not coast, a
            hex off the map, token and terrain pools that do not fit the land), with the reason.
    """
    try:
        topology = _map_topology(raw, name)
        areas = tuple(_area(a, topology, codes) for a in raw.get("areas", []))
        in_areas = {h for a in areas for h in a.hexes}
        if len(in_areas) != sum(len(a.hexes) for a in areas):
            raise EngineError("a hex is in two areas")
        terrains = _terrain_pool(raw, codes)
        fixed, fixed_tokens = _fixed_hexes(raw, topology, codes)
        own_tokens = tuple(
            (_terrain(code, codes), _tokens([token], "a terrain's own token")[0])
            for code, token in dict(raw.get("terrain_tokens", {})).items()
        )
        if any(not t.takes_token for t, _ in own_tokens):
            raise EngineError("a terrain without number tokens cannot have a token of its own")
        tokens = _tokens(raw["tokens"], "tokens")
        _check_counts(topology, in_areas, terrains, fixed, fixed_tokens, own_tokens, tokens)
        spirals = tuple(
            spiral(
                topology,
                _axial(s["start"], "a spiral start"),
                str(s["turn"]),
                set(range(topology.hex_count)) - in_areas,
            )
            for s in raw["spirals"]
        )
        paths, kinds = _harbours(raw, topology)
        beginner = (
            _beginner(raw["beginner"], topology, len(paths), codes) if "beginner" in raw else None
        )
        if beginner is not None:
            _check_beginner(beginner, fixed, own_tokens)
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"map {name!r} is malformed: {exc!r}") from exc
    except EngineError as exc:
        raise EngineError(f"map {name!r}: {exc}") from exc
    return BoardMap(
        name,
        topology,
        terrains,
        tokens,
        spirals,
        paths,
        kinds,
        beginner,
        fixed,
        own_tokens,
        areas,
        fixed_tokens,
    )


def _map_topology(raw: Mapping[str, Any], name: str) -> Topology:
    """The map's hexes (land, sea, regions) compiled into its topology."""
    land = [_axial(a, "a land hex") for a in raw["land"]]
    sea = [_axial(a, "a sea hex") for a in raw.get("sea", [])]
    if len(set(land)) != len(land) or len(set(sea)) != len(sea):
        raise EngineError("a hex is listed twice")
    ships = raw.get("ships", False)
    if not isinstance(ships, bool):
        raise EngineError(f"ships must be true or false, not {ships!r}")
    topology = build_topology(land, sea, name, sea_paths=ships)
    if "regions" in raw:
        groups = [
            [topology.hex_at(_axial(a, "a region hex")) for a in group] for group in raw["regions"]
        ]
        topology = with_regions(topology, groups)
    return topology


def _terrain_pool(raw: Mapping[str, Any], codes: Mapping[str, Terrain]) -> tuple[Terrain, ...]:
    """The terrains dealt to the hexes outside areas and fixed hexes, one per tile."""
    pool = dict(raw["terrains"])
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in pool.values()):
        raise EngineError(f"terrain counts must be whole numbers >= 0, not {pool!r}")
    return tuple(_terrain(code, codes) for code, n in pool.items() for _ in range(n))


def _fixed_hexes(
    raw: Mapping[str, Any], topology: Topology, codes: Mapping[str, Terrain]
) -> tuple[tuple[tuple[HexId, Terrain], ...], tuple[tuple[HexId, int], ...]]:
    """The hexes whose terrain the map fixes, and those of them whose token it fixes too (0:
    none), each sorted by hex."""
    fixed = tuple(
        sorted(
            (topology.hex_at(_axial(f["hex"], "a fixed hex")), _terrain(f["terrain"], codes))
            for f in raw.get("fixed", [])
        )
    )
    if len({h for h, _ in fixed}) != len(fixed):
        raise EngineError("a fixed hex is listed twice")
    fixed_tokens = tuple(
        sorted(
            (
                topology.hex_at(_axial(f["hex"], "a fixed hex")),
                _tokens([f["token"]], "a fixed hex's token")[0] if f["token"] else 0,
            )
            for f in raw.get("fixed", [])
            if "token" in f
        )
    )
    return fixed, fixed_tokens


def _check_counts(
    topology: Topology,
    in_areas: set[HexId],
    terrains: tuple[Terrain, ...],
    fixed: tuple[tuple[HexId, Terrain], ...],
    fixed_tokens: tuple[tuple[HexId, int], ...],
    own_tokens: tuple[tuple[Terrain, int], ...],
    tokens: tuple[int, ...],
) -> None:
    """The terrain pool and the fixed hexes fill the land outside areas, and there is one
    number token for each hex that needs one."""
    if in_areas & {h for h, _ in fixed}:
        raise EngineError("a fixed hex is in an area")
    if len(terrains) + len(fixed) != topology.hex_count - len(in_areas):
        raise EngineError(
            f"{len(terrains)} terrains in the pool and {len(fixed)} fixed for"
            f" {topology.hex_count - len(in_areas)} land hexes outside areas"
        )
    own = {t for t, _ in own_tokens}
    numbered = {h for h, _ in fixed_tokens}
    producing = sum(t.takes_token and t not in own for t in terrains) + sum(
        t.takes_token and t not in own and h not in numbered for h, t in fixed
    )
    if len(tokens) != producing:
        raise EngineError(f"{len(tokens)} number tokens for {producing} hexes that need one")


def _harbours(
    raw: Mapping[str, Any], topology: Topology
) -> tuple[tuple[PathId, ...], tuple[Resource | None, ...]]:
    """The harbour positions (coastal paths) and the harbour kinds dealt to them."""
    coast = set(topology.coast)
    paths: list[PathId] = []
    for harbour in raw.get("harbours", []):
        path = topology.side_path(
            topology.hex_at(_axial(harbour["hex"], "a harbour hex")), str(harbour["side"])
        )
        if path not in coast:
            raise EngineError(f"harbour {harbour} does not face the sea")
        paths.append(path)
    kinds = tuple(harbour_kind(str(k)) for k in raw.get("harbour_kinds", []))
    if len(kinds) != len(paths):
        raise EngineError(f"{len(kinds)} harbour kinds for {len(paths)} harbour positions")
    return tuple(paths), kinds


def _check_beginner(
    beginner: Layout,
    fixed: tuple[tuple[HexId, Terrain], ...],
    own_tokens: tuple[tuple[Terrain, int], ...],
) -> None:
    """The beginner layout keeps the fixed terrains and every terrain's own token."""
    if any(beginner.terrains[h] is not t for h, t in fixed):
        raise EngineError("the beginner layout moves a fixed terrain")
    if any(
        beginner.tokens[h] != n
        for t, n in own_tokens
        for h, bt in enumerate(beginner.terrains)
        if bt is t
    ):
        raise EngineError("the beginner layout gives a terrain another token than its own")


def _area(raw: Mapping[str, Any], topology: Topology, codes: Mapping[str, Terrain]) -> Area:
    hexes = tuple(sorted(topology.hex_at(_axial(a, "an area hex")) for a in raw["hexes"]))
    pool = dict(raw["terrains"])
    terrains = tuple(_terrain(code, codes) for code, n in pool.items() for _ in range(int(n)))
    tokens = _tokens(raw["tokens"], "an area's tokens")
    if len(terrains) != len(hexes) or len(set(hexes)) != len(hexes):
        raise EngineError(f"an area has {len(terrains)} terrains for {len(hexes)} distinct hexes")
    if len(tokens) != sum(t.takes_token for t in terrains):
        raise EngineError(f"an area has {len(tokens)} tokens for its terrains that take one")
    only = tuple(
        (_terrain(code, codes), frozenset(topology.hex_at(_axial(a, "an area hex")) for a in where))
        for code, where in dict(raw.get("only", {})).items()
    )
    for terrain, where in only:
        if not where <= set(hexes) or sum(t is terrain for t in terrains) > len(where):
            raise EngineError(f"an area's {terrain.name} tiles do not fit the hexes kept for them")
    return Area(hexes, terrains, tokens, only)


def load_map(name: str = "base", terrains: Iterable[Terrain] = ()) -> BoardMap:
    """Load ``seeds/boards/<name>.toml`` (packaged as ``hexlan.seeds``), once per process and set
    of terrains; a map file may extend another (:func:`hexlan.engine.seedfile.read_seed`).

    Args:
        name: the map's name.
        terrains: the game's terrains (:attr:`~hexlan.engine.ruleset.RuleSet.terrains`): the
            file may use the letters of those the catalogue does not hold.

    Raises:
        EngineError: no such map, or a malformed one.
    """
    own = tuple((t, t.name, t.code, t.takes_token) for t in terrains if not t.is_catalogue)
    return _load_map(name, own)


@cache
def _load_map(name: str, own: tuple[tuple[Terrain, str, str, bool], ...]) -> BoardMap:
    """:func:`load_map`, cached by the declared terrains with their names and letters (two
    games' declared terrains may share a code); every load of one map shares one topology."""
    compiled = compile_map(_read_map(name), name, terrain_codes(t for t, *_ in own))
    return replace(compiled, topology=_topology(name))


@cache
def _topology(name: str) -> Topology:
    """The topology of map ``name``, once per process (whatever terrains it is laid with)."""
    return _map_topology(_read_map(name), name)


def _read_map(name: str) -> dict[str, Any]:
    if not name or not all(c.isalnum() or c == "-" for c in name):
        raise EngineError(f"a map name is letters, digits and '-', not {name!r}")
    try:
        return read_seed("boards", name)
    except FileNotFoundError:
        raise EngineError(f"no map named {name!r}") from None


def map_names() -> Sequence[str]:
    """The names of the packaged maps, sorted."""
    folder = resources.files("hexlan.seeds").joinpath("boards")
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )
