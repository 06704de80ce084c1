"""The hooks a variant's rules module supplies (see :mod:`hexlan.engine.variants`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar

from hexlan.engine.core import NodeId, Seat

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.board import Board
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology


class Variant:
    """The hooks of one game's own rules; this base class's hooks change nothing.

    Args:
        rules: the game's rule set (its ``raw`` tables carry the variant's numbers).
        options: the game options (the variant's own readings are options too).
        topology: the map's graph.
    """

    name: ClassVar[str] = ""

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        self.rules = rules
        self.options = options
        self.topology = topology

    def prepare_board(self, board: Board) -> Board:
        """The board the game is played on, from the one it was given (checked here)."""
        return board

    def setup_closed(self, state: GameState) -> Collection[NodeId]:
        """Intersections closed to set-up settlements (beyond the distance rule)."""
        return ()

    def after_roll(self, state: GameState, total: int) -> None:
        """A roll of ``total`` (not 7) is about to produce resources."""

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Append the variant's legal actions of ``seat`` in the main phase to ``result``."""

    def after_build(self, state: GameState, seat: Seat, node: NodeId) -> None:
        """``seat`` has placed a piece (``node`` is the building's intersection, -1 for a
        road)."""

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """The variant's part of :meth:`GameState.public_dict`."""
        return {}
