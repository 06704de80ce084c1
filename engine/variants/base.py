"""The hooks a variant's rules module supplies (see :mod:`hexlan.engine.variants`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar

from hexlan.engine.core import EngineError, NodeId, PathId, Seat
from hexlan.engine.longest_road import longest_road

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.board import Board
    from hexlan.engine.chance import ChanceNode
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
    has_robber: ClassVar[bool] = True
    """Whether the game has a robber (Pirate Islands has none: a 7 robs without it)."""

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

    def prepare_state(self, state: GameState) -> None:
        """The new game's state is built: set the variant's starting positions."""

    def after_production(self, state: GameState, total: int) -> None:
        """A roll of ``total`` (not 7) has produced resources; the phase is now MAIN."""

    def turn_started(self, state: GameState) -> None:
        """A new turn has started (``state.active`` is its seat)."""

    def phase_actions(self, state: GameState, seat: Seat) -> list[A.Action]:
        """The legal actions of ``seat`` in a phase the variant adds."""
        return []

    def fog_reached(self, state: GameState) -> None:
        """A piece has reached the face-down hexes in ``state.fog_pending``: start drawing
        their tiles (Seafarers' fog; only a variant that queues fog hexes is called)."""
        raise EngineError(f"the {self.name} rules have no fog")

    def chance_node(self, state: GameState) -> ChanceNode | None:
        """The chance due in a chance phase the variant adds (Seafarers' fog), as data."""
        return None

    def chance_outcomes(self, state: GameState) -> list[tuple[A.Action, float]]:
        """The outcomes of the chance due in a phase the variant adds, with probabilities."""
        return []

    def free_builds(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Append the variant's free pieces the seat may place now (set-up road, Road Building)
        to ``result``."""

    def has_free_builds(self, state: GameState, seat: Seat) -> bool:
        """Whether :meth:`free_builds` would list a piece in Road Building."""
        return False

    def free_pieces(self, state: GameState, seat: Seat) -> int:
        """Pieces beyond roads the seat has for Road Building."""
        return 0

    def robber_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Append the variant's alternatives to moving the robber to ``result``."""

    def route_length(self, state: GameState, seat: Seat) -> int:
        """The seat's length toward Longest Road: its longest road (official rule)."""
        return longest_road(state.topology, state.roads[seat], seat, state.node_owner)

    def closed_paths(self, players: int) -> frozenset[PathId]:
        """Paths no road may take in a game of ``players`` seats (none)."""
        return frozenset()

    def dice_rolled(self, state: GameState, dice: A.Dice) -> bool:
        """The dice show ``dice``, before production or the 7: True when the variant has put
        play in a phase of its own (a Pirate Islands fleet attack's discard or pick) and the roll
        goes on only after it."""
        return False

    def knight_played(self, state: GameState, seat: Seat) -> bool:
        """``seat`` has played a knight: True when the variant has done its work (a Pirate
        Islands warship) and the robber stays."""
        return False

    def can_play_knight(self, state: GameState, seat: Seat) -> bool:
        """Whether a knight has something to do for ``seat`` (beyond holding one)."""
        return True

    def can_win(self, state: GameState, seat: Seat) -> bool:
        """Whether ``seat``, having the points, meets the variant's other winning conditions."""
        return True

    def why_illegal(self, state: GameState, action: A.Action) -> tuple[str, str] | None:
        """Why an action the variant adds is not legal now, as ``(reason, rule)``; None to let
        the engine's general reason stand."""
        return None

    def apply(self, state: GameState, action: A.Action) -> None:
        """Apply an action the variant adds (unchecked).

        Raises:
            EngineError: the variant has no such action.
        """
        raise EngineError(f"the {self.name} rules have no {type(action).__name__}")
