"""The Big River (seed 002 «Большая река»; docs/rules/big-river.md): a three-hex river tile
(mountains, forest, gold mine in a line) in place of one mountains, one forest and the desert.

- The tile lies where the map fixes it (seeds/boards/big-river.toml); the rule set names its hexes
  (``[river] hexes``, up-river first). Its mountains and forest produce as usual; the gold mine, at
  the river's mouth on the coast, has no token and produces nothing, and the robber starts there
  (as the swamp of the published variant, Mayfair's "The Great River").
- Set-up: no settlement on the river bank (seed 002). Read as the published variant: not on a
  corner of the gold mine; with ``river_setup_ban_whole_river``, not on a corner of any river hex.
- Points (seed 002: "строительство поселений на золотом прииске приносит дополнительные очки"),
  read as the published variant: gold points, 1 for each road on a side of a river hex, 1 for each
  settlement or city on a corner of a river hex (no more for the upgrade), 2 for the one on the
  delta's tip (the gold mine's corner between its two sea sides); every 3 gold points are a
  victory point, and the game goes to 12. With ``river_gold_points`` off, seed 002's short reading:
  each settlement or city on a corner of the gold mine is worth one victory point more.

These points are public: ``GameState.gold_points`` per seat, and the victory points they make in
``variant_vp`` and inside ``public_vp``, so every score counts them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from hexlan.engine import events as E
from hexlan.engine.core import EngineError, HexId, NodeId, PathId, Seat, Terrain
from hexlan.engine.gamespec import GameOption, GameSpec
from hexlan.engine.variants.base import Variant

if TYPE_CHECKING:
    from hexlan.engine.board import Board
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology


class BigRiver(Variant):
    """The Big River's hooks (see the module docstring).

    Attributes:
        river: the river's hexes, up-river first (the gold mine last).
        gold_mine: the gold mine's hex.
        tip: the delta's tip: the gold mine's one corner that touches no other land hex.
        river_nodes, river_paths: every corner and side of a river hex.
        mine_nodes: the gold mine's corners.
        banned: the intersections closed to set-up settlements.

    Raises:
        EngineError: the rule set's river is not on the map, or its last hex is not a coastal hex
            with exactly one corner on the sea alone (constructing); a board whose river hexes do
            not hold the gold mine last (:meth:`prepare_board`).
    """

    name: ClassVar[str] = "big-river"

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        super().__init__(rules, options, topology)
        table = rules.raw["river"]
        self.river: tuple[HexId, ...] = tuple(
            topology.hex_at((int(q), int(r))) for q, r in table["hexes"]
        )
        self.gold_mine = self.river[-1]
        alone = [n for n in topology.hex_nodes[self.gold_mine] if len(topology.node_hexes[n]) == 1]
        if len(alone) != 1:
            raise EngineError(
                "the gold mine must be a coastal hex with exactly one corner on the sea alone"
                " (the delta's tip)"
            )
        self.tip: NodeId = alone[0]
        self.river_nodes = frozenset(n for h in self.river for n in topology.hex_nodes[h])
        self.river_paths: frozenset[PathId] = frozenset(
            p for h in self.river for p in topology.hex_paths[h]
        )
        self.mine_nodes = frozenset(topology.hex_nodes[self.gold_mine])
        self.banned = (
            self.river_nodes if options.flag("river_setup_ban_whole_river") else self.mine_nodes
        )
        self.gold = options.flag("river_gold_points")
        self.per_vp = int(table["gold_points_per_vp"])
        self.tip_points = int(table["tip_gold_points"])
        self.mine_points = int(table["mine_points"])

    def prepare_board(self, board: Board) -> Board:
        """The board as given, checked: the gold mine at the river's mouth, producing hexes
        up-river.

        Raises:
            EngineError: a board that does not fit the rule set's river.
        """
        terrains = board.terrains
        if terrains[self.gold_mine] is not Terrain.GOLD_MINE or any(
            terrains[h].resource is None for h in self.river[:-1]
        ):
            raise EngineError(
                "the Big River's hexes must hold the river tile: producing hexes up-river, the"
                " gold mine at the mouth (seed 002 «Большая река»)"
            )
        return board

    def setup_closed(self, state: GameState) -> frozenset[NodeId]:
        """The river bank, closed to set-up settlements (seed 002 «Большая река»)."""
        return self.banned

    def points(self, state: GameState, seat: Seat) -> int:
        """The seat's gold points (or, with ``river_gold_points`` off, its buildings on the gold
        mine), counted afresh from the board."""
        owner = state.node_owner
        if not self.gold:
            return sum(owner[n] == seat for n in self.mine_nodes)
        path_owner = state.path_owner
        points = sum(path_owner[p] == seat for p in self.river_paths)
        points += sum(owner[n] == seat for n in self.river_nodes)
        if owner[self.tip] == seat:
            points += self.tip_points - 1
        return points

    def victory_points(self, points: int) -> int:
        """The victory points ``points`` (from :meth:`points`) are worth."""
        return points // self.per_vp if self.gold else points * self.mine_points

    def after_build(self, state: GameState, seat: Seat, node: NodeId) -> None:
        """Recount the builder's points; a change in the victory points they make moves
        ``public_vp`` (pieces are never removed, so points only grow)."""
        points = self.points(state, seat)
        if points == state.gold_points[seat]:
            return
        state.gold_points[seat] = points
        vp = self.victory_points(points)
        previous = state.variant_vp[seat]
        state.public_vp[seat] += vp - previous
        state.variant_vp[seat] = vp
        if state.record_events:
            state.last_events.append(E.VariantPointsChanged(seat, points, vp, previous))

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """Each seat's gold points and the victory points they make."""
        return {"gold_points": list(state.gold_points), "variant_vp": list(state.variant_vp)}


SPEC: Final = GameSpec(
    name=BigRiver.name,
    rules=BigRiver,
    place=2,
    options=(
        GameOption(
            "river_gold_points",
            True,
            lambda on: (
                "gold points from the river"
                if on
                else "no gold points: a building on the gold mine is worth a point more"
            ),
        ),
        GameOption(
            "river_setup_ban_whole_river",
            False,
            lambda on: (
                "no set-up settlement on any river corner"
                if on
                else "no set-up settlement on the gold mine's corners"
            ),
        ),
    ),
    keys=("hexlan.tui.games.big_river",),
    bots=("hexlan.engine.bots.big_river",),
)
"""The Big River variant (seed 002 «Большая река»; docs/rules/big-river.md). Its options:
``river_gold_points``, points come from gold points as in the published variant (a road on a
river hex side 1, a settlement or city on a river hex corner 1, on the delta's tip 2; each 3
make a victory point), off: seed 002's short reading, each settlement or city on the gold mine
worth one point more; ``river_setup_ban_whole_river``, no set-up settlement on any corner of the
three river hexes (seed 002 "на берегу реки" read widely), by default only the gold mine's."""


__all__ = ["SPEC", "BigRiver"]
