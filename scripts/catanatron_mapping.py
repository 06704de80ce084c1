"""The same board in Catanatron and hexlan: coordinates, names and actions, both ways.

This module never imports Catanatron (it is no dependency of hexlan): it reads Catanatron's board
as plain data (what :func:`tiles_of` extracts) and Catanatron's actions as ``(type name, value)``
pairs, so it can be tested against hexlan's own topology alone (tests/test_catanatron_mapping.py).
It is used by scripts/catanatron_bridge.py.

Coordinates (Catanatron 3.2.1, ``catanatron/models/coordinate_system.py`` and ``map.py``):

- A hex is a cube coordinate ``(x, y, z)``; its east neighbour is ``(x+1, y-1, z)``, its
  south-east one ``(x, y-1, z+1)``, so hexlan's axial ``(q, r)`` (engine/topology.py: E is
  ``(q+1, r)``, SE ``(q, r+1)``) is ``(x, z)``. Both maps are pointy-top and centred on the
  origin.
- A tile names its six corners NORTH, NORTHEAST, SOUTHEAST, SOUTH, SOUTHWEST, NORTHWEST: the order
  of hexlan's ``Topology.hex_nodes`` (clockwise from the top). Node ids are Catanatron's own
  integers, numbered as its tiles are laid; the mapping is found by walking the tiles.
- An edge is a pair of node ids (in either order); a hexlan path is the pair of its intersections.
- A port is a sea tile with a direction pointing at the land hex it serves; the harbour is that
  land hex's side facing back.
- Resources WOOD, BRICK, SHEEP, WHEAT, ORE are hexlan's lumber, brick, wool, grain, ore (the same
  order); development cards are named as hexlan's :class:`~hexlan.engine.core.DevCard` members.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import Board, Harbour
from hexlan.engine.core import (
    NO_SEAT,
    DevCard,
    EngineError,
    Hand,
    HexId,
    NodeId,
    PathId,
    Resource,
    Seat,
    Terrain,
)
from hexlan.engine.maps import load_map
from hexlan.engine.topology import Axial, Topology

Cube = tuple[int, int, int]
"""A Catanatron hex coordinate ``(x, y, z)``, ``x + y + z == 0``."""

RESOURCE_NAMES: Final = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")
"""Catanatron's name of each hexlan :class:`Resource`, by its value."""
DEV_CARD_NAMES: Final = tuple(card.name for card in DevCard)
"""Catanatron's name of each hexlan :class:`DevCard`, by its value (the same words)."""
NODE_REFS: Final = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")
"""A Catanatron tile's corner names in the order of hexlan's ``Topology.hex_nodes``."""
DIRECTION_CUBE: Final[Mapping[str, Cube]] = {
    "EAST": (1, -1, 0),
    "SOUTHEAST": (0, -1, 1),
    "SOUTHWEST": (-1, 0, 1),
    "WEST": (-1, 1, 0),
    "NORTHWEST": (0, 1, -1),
    "NORTHEAST": (1, 0, -1),
}
"""The cube step to the neighbour in each of Catanatron's directions."""
FACING_SIDE: Final[Mapping[str, str]] = {
    "EAST": "W",
    "SOUTHEAST": "NW",
    "SOUTHWEST": "NE",
    "WEST": "E",
    "NORTHWEST": "SE",
    "NORTHEAST": "SW",
}
"""For a port pointing in a direction: the side (engine/topology.py ``SIDES``) of the land hex
it serves that faces the port."""
TERRAIN_OF: Final[Mapping[str | None, Terrain]] = {
    "WOOD": Terrain.FOREST,
    "BRICK": Terrain.HILLS,
    "SHEEP": Terrain.PASTURE,
    "WHEAT": Terrain.FIELDS,
    "ORE": Terrain.MOUNTAINS,
    None: Terrain.DESERT,
}
"""The terrain of a Catanatron land tile by the resource it yields (None: the desert)."""


class MappingError(EngineError):
    """Catanatron's board or an action has no counterpart in hexlan (the message says which)."""


def cube_to_axial(cube: Cube) -> Axial:
    """hexlan's axial position of a Catanatron cube coordinate.

    >>> cube_to_axial((1, -1, 0)), cube_to_axial((0, -1, 1))
    ((1, 0), (0, 1))
    """
    return (cube[0], cube[2])


def axial_to_cube(axial: Axial) -> Cube:
    """The Catanatron cube coordinate of a hexlan axial position.

    >>> axial_to_cube((2, -1))
    (2, -1, -1)
    """
    q, r = axial
    return (q, -q - r, r)


@dataclass(frozen=True, slots=True)
class TileData:
    """One Catanatron land tile as plain data.

    Attributes:
        cube: its coordinate.
        resource: the resource name it yields, None for the desert.
        number: its number token, None for the desert.
        nodes: its corner node ids by corner name (:data:`NODE_REFS`).
    """

    cube: Cube
    resource: str | None
    number: int | None
    nodes: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class PortData:
    """One Catanatron port as plain data: its sea tile's coordinate, the direction it points in
    and its resource name (None for 3:1)."""

    cube: Cube
    direction: str
    resource: str | None


def tiles_of(catan_map: Any) -> tuple[list[TileData], list[PortData]]:
    """Read a Catanatron ``CatanMap`` (duck-typed: ``.land_tiles``, ``.tiles``) as plain data."""
    tiles = [
        TileData(
            tuple(cube),
            tile.resource,
            tile.number,
            {ref.value: node for ref, node in tile.nodes.items()},
        )
        for cube, tile in catan_map.land_tiles.items()
    ]
    ports = [
        PortData(tuple(cube), tile.direction.value, tile.resource)
        for cube, tile in catan_map.tiles.items()
        if type(tile).__name__ == "Port"
    ]
    return tiles, ports


class BoardMapping:
    """The correspondence of one Catanatron board with a hexlan :class:`Board`.

    Args:
        tiles: Catanatron's land tiles (:func:`tiles_of`).
        ports: its ports.
        topology: hexlan's map (the base map by default).

    Raises:
        MappingError: a tile off hexlan's map, a corner numbered twice, or a port that serves no
            coastal side.

    Attributes:
        board: the hexlan board (terrains, tokens, harbours as Catanatron laid them).
        node_of: hexlan intersection of each Catanatron node id; ``cat_node``: the inverse.
        hex_of: hexlan hex of each Catanatron cube coordinate; ``cube_of``: the inverse.
    """

    def __init__(
        self,
        tiles: Sequence[TileData],
        ports: Sequence[PortData],
        topology: Topology | None = None,
    ) -> None:
        topo = topology or load_map().topology
        self.topology = topo
        if len(tiles) != topo.hex_count:
            raise MappingError(f"{len(tiles)} Catanatron land tiles for {topo.hex_count} hexes")
        terrains: list[Terrain | None] = [None] * topo.hex_count
        tokens = [0] * topo.hex_count
        self.hex_of: dict[Cube, HexId] = {}
        self.node_of: dict[int, NodeId] = {}
        for tile in tiles:
            try:
                hex_id = topo.hex_at(cube_to_axial(tile.cube))
            except EngineError:
                raise MappingError(f"Catanatron tile {tile.cube} is off hexlan's map") from None
            self.hex_of[tile.cube] = hex_id
            terrains[hex_id] = TERRAIN_OF[tile.resource]
            tokens[hex_id] = tile.number or 0
            for corner, ref in enumerate(NODE_REFS):
                cat, ours = tile.nodes[ref], topo.hex_nodes[hex_id][corner]
                if self.node_of.setdefault(cat, ours) != ours:
                    raise MappingError(f"Catanatron node {cat} is two hexlan intersections")
        if len(set(self.node_of.values())) != topo.node_count:
            raise MappingError("Catanatron's nodes do not cover hexlan's intersections once each")
        self.cube_of = {h: c for c, h in self.hex_of.items()}
        self.cat_node = {n: c for c, n in self.node_of.items()}
        harbours = []
        for port in ports:
            step = DIRECTION_CUBE[port.direction]
            x, y, z = (a + b for a, b in zip(port.cube, step, strict=True))
            land = self.hex_of.get((x, y, z))
            if land is None:
                raise MappingError(f"port at {port.cube} points {port.direction} at the sea")
            path = topo.side_path(land, FACING_SIDE[port.direction])
            resource = None if port.resource is None else resource_of(port.resource)
            harbours.append(Harbour(resource, path))
        laid = tuple(t for t in terrains if t is not None)
        self.board = Board(laid, tuple(tokens), tuple(harbours), topo)

    def path_of(self, edge: Sequence[int]) -> PathId:
        """The hexlan path of a Catanatron edge (a pair of node ids, either order).

        Raises:
            MappingError: the two nodes are not adjacent.
        """
        pair = frozenset(self.node_of[n] for n in edge)
        try:
            return self.topology.path_of[pair]
        except KeyError:
            raise MappingError(f"Catanatron edge {tuple(edge)} is no hexlan path") from None

    def edge_of(self, path: PathId) -> tuple[int, int]:
        """The Catanatron edge of a hexlan path, as Catanatron lists buildable edges (sorted)."""
        a, b = self.topology.path_nodes[path]
        x, y = self.cat_node[a], self.cat_node[b]
        return (x, y) if x < y else (y, x)


def resource_of(name: str) -> Resource:
    """hexlan's resource of a Catanatron resource name.

    Raises:
        MappingError: an unknown name.
    """
    try:
        return Resource(RESOURCE_NAMES.index(name))
    except ValueError:
        raise MappingError(f"unknown Catanatron resource {name!r}") from None


def dev_card_of(name: str) -> DevCard:
    """hexlan's development card of a Catanatron card name.

    Raises:
        MappingError: an unknown name.
    """
    try:
        return DevCard[name]
    except KeyError:
        raise MappingError(f"unknown Catanatron development card {name!r}") from None


def hand_of(names: Sequence[str | None]) -> Hand:
    """The 5-tuple of counts of a list of Catanatron resource names (None entries skipped)."""
    counts = [0, 0, 0, 0, 0]
    for name in names:
        if name is not None:
            counts[resource_of(name)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def names_of(hand: Hand) -> list[str]:
    """A hand as a list of Catanatron resource names, in resource order."""
    return [RESOURCE_NAMES[r] for r in range(5) for _ in range(hand[r])]


def to_hexlan(
    kind: str, value: Any, seat: Seat, mapping: BoardMapping, seat_of: Mapping[Any, Seat]
) -> list[Action]:
    """The hexlan actions, chance outcomes included, of one logged Catanatron action.

    Args:
        kind: the action type's name (``ActionType.X.value``).
        value: the logged, fully specified value (dice rolled, card drawn, card stolen,
            cards discarded).
        seat: the acting seat.
        mapping: the board correspondence.
        seat_of: hexlan seat of each Catanatron colour.

    Raises:
        MappingError: an action type or value with no hexlan counterpart.

    Catanatron logs a roll with its dice, a purchase with the card drawn and a robber move with
    the card stolen; hexlan takes each as a decision followed by a chance outcome. A Monopoly's
    counts and a winner's reveal are outcomes the caller adds from hexlan's own state.
    """
    if kind == "ROLL":
        return [A.ROLL, A.Dice(int(value[0]), int(value[1]))]
    if kind == "DISCARD":
        return [A.Discard(seat, hand_of(value))]
    if kind == "MOVE_ROBBER":
        cube, color, stolen = value
        victim = NO_SEAT if color is None else seat_of[color]
        moves: list[Action] = [A.MoveRobber(mapping.hex_of[tuple(cube)], victim)]
        if stolen is not None:
            moves.append(A.StealCard(resource_of(stolen)))
        return moves
    if kind == "BUILD_ROAD":
        return [A.BuildRoad(mapping.path_of(value))]
    if kind == "BUILD_SETTLEMENT":
        return [A.BuildSettlement(mapping.node_of[value])]
    if kind == "BUILD_CITY":
        return [A.BuildCity(mapping.node_of[value])]
    if kind == "BUY_DEVELOPMENT_CARD":
        return [A.BUY_DEVELOPMENT_CARD, A.DrawCard(dev_card_of(value))]
    if kind == "PLAY_KNIGHT_CARD":
        return [A.PLAY_KNIGHT]
    if kind == "PLAY_ROAD_BUILDING":
        return [A.PLAY_ROAD_BUILDING]
    if kind == "PLAY_YEAR_OF_PLENTY":
        return [A.PlayYearOfPlenty(tuple(resource_of(r) for r in value))]
    if kind == "PLAY_MONOPOLY":
        return [A.PlayMonopoly(resource_of(value))]
    if kind == "MARITIME_TRADE":
        return [A.MaritimeTrade(hand_of(value[:-1]), resource_of(value[-1]))]
    if kind == "END_TURN":
        return [A.END_TURN]
    raise MappingError(f"Catanatron action {kind} has no hexlan counterpart")


def to_catanatron(
    action: Action, mapping: BoardMapping, color_of: Sequence[Any]
) -> tuple[str, Any] | None:
    """The Catanatron ``(type name, value)`` a hexlan decision maps to, its chance parts left
    as None for Catanatron to draw; None for a decision Catanatron 3.2.1 has no action for
    (domestic trade: offers, answers, confirmations, withdrawals).

    Args:
        action: a hexlan player action (not a chance outcome).
        mapping: the board correspondence.
        color_of: Catanatron colour of each hexlan seat.

    Raises:
        MappingError: a chance outcome or an action of a variant.
    """
    if isinstance(action, A.RollDice):
        return ("ROLL", None)
    if isinstance(action, A.Discard):
        return ("DISCARD", names_of(action.cards))
    if isinstance(action, A.MoveRobber):
        victim = None if action.victim == NO_SEAT else color_of[action.victim]
        return ("MOVE_ROBBER", (mapping.cube_of[action.hex], victim, None))
    if isinstance(action, A.BuildRoad):
        return ("BUILD_ROAD", mapping.edge_of(action.path))
    if isinstance(action, A.BuildSettlement):
        return ("BUILD_SETTLEMENT", mapping.cat_node[action.node])
    if isinstance(action, A.BuildCity):
        return ("BUILD_CITY", mapping.cat_node[action.node])
    if isinstance(action, A.BuyDevelopmentCard):
        return ("BUY_DEVELOPMENT_CARD", None)
    if isinstance(action, A.PlayKnight):
        return ("PLAY_KNIGHT_CARD", None)
    if isinstance(action, A.PlayRoadBuilding):
        return ("PLAY_ROAD_BUILDING", None)
    if isinstance(action, A.PlayYearOfPlenty):
        return ("PLAY_YEAR_OF_PLENTY", tuple(RESOURCE_NAMES[r] for r in action.resources))
    if isinstance(action, A.PlayMonopoly):
        return ("PLAY_MONOPOLY", RESOURCE_NAMES[action.resource])
    if isinstance(action, A.MaritimeTrade):
        ratio = sum(action.give)
        give = names_of(action.give)
        return ("MARITIME_TRADE", (*give, *([None] * (4 - ratio)), RESOURCE_NAMES[action.get]))
    if isinstance(action, A.EndTurn):
        return ("END_TURN", None)
    if isinstance(
        action, (A.OfferTrade, A.AnswerTrade, A.CounterOffer, A.ConfirmTrade, A.CancelTrade)
    ):
        return None
    raise MappingError(f"{action!r} has no Catanatron counterpart")


__all__ = [
    "DEV_CARD_NAMES",
    "NODE_REFS",
    "RESOURCE_NAMES",
    "BoardMapping",
    "Cube",
    "MappingError",
    "PortData",
    "TileData",
    "axial_to_cube",
    "cube_to_axial",
    "dev_card_of",
    "hand_of",
    "names_of",
    "resource_of",
    "tiles_of",
    "to_catanatron",
    "to_hexlan",
]
