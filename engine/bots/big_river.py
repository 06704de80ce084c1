"""What the heuristic bot knows of the Big River (engine/variants/big_river.py; seed 002
«Большая река»): gold points are fractions of a victory point.

A spot or road on the river is worth that much more (:func:`river_gain`), a road that completes
a victory point is built at once and is a goal of its own (:func:`river_road`); the set-up ban
is the engine's legal list. Registered for the Big River rules
(:mod:`hexlan.engine.bots.knowledge`).
"""

from __future__ import annotations

from hexlan.engine.bots.goals import Goal
from hexlan.engine.bots.knowledge import KNOWLEDGE, GameKnowledge
from hexlan.engine.core import NodeId, PathId, Seat
from hexlan.engine.state import GameState
from hexlan.engine.variants.big_river import BigRiver


def river_gain(view: GameState, seat: Seat, node: NodeId = -1, path: PathId = -1) -> float:
    """The victory points (a fraction) a building on ``node`` or a road on ``path`` would
    bring the seat through its gold points (-1: none); 0 off the river."""
    river = view.variant
    assert isinstance(river, BigRiver)
    if not river.gold:
        return float(river.mine_points) if node in river.mine_nodes else 0.0
    points = 0
    if node >= 0 and node in river.river_nodes:
        points = river.tip_points if node == river.tip else 1
    if path >= 0 and path in river.river_paths:
        points = 1
    if not points:
        return 0.0
    now = view.gold_points[seat]
    whole = river.victory_points(now + points) - river.victory_points(now)
    return max(float(whole), points / river.per_vp)


def river_road(view: GameState, seat: Seat) -> list[Goal]:
    """A road on the river that completes a victory point, as a goal, if the seat may build
    one."""
    river = view.variant
    assert isinstance(river, BigRiver)
    if view.pieces_left(seat)[0] <= 0:
        return []
    paths = [p for p in view._road_spots(seat) if p in river.river_paths]
    if paths and river_gain(view, seat, path=paths[0]) >= 1:
        return [Goal("road", view.rules.road_cost, 1.0, path=paths[0], roads=1)]
    return []


KNOWLEDGE.register(BigRiver)(GameKnowledge(points=river_gain, goals=river_road))

__all__ = ["river_gain", "river_road"]
