"""The hooks a variant's rules module supplies (see :mod:`hexlan.engine.variants`), and what it
adds to the engine's open sets: its actions with their handlers and its phases
(:mod:`hexlan.engine.registry` merges them)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypeAlias

from hexlan.engine.core import (
    DevelopmentCard,
    EngineError,
    GamePhase,
    Hand,
    NodeId,
    PathId,
    Seat,
)
from hexlan.engine.longest_road import longest_road

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.board import Board
    from hexlan.engine.chance import ChanceNode
    from hexlan.engine.options import GameOptions
    from hexlan.engine.position_fields import ProgressFields
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology


VariantHandler: TypeAlias = "Callable[[Any, GameState, Any], None]"
"""A handler of an action a game adds: an unbound method of its :class:`Variant` class, called
as ``handler(variant, state, action)`` to apply the action (unchecked)."""


class VariantState(Protocol):
    """A game's own progress, held in the state's one generic slot
    (:attr:`~hexlan.engine.state.GameState.variant_state`) rather than in fields of
    :class:`~hexlan.engine.state.GameState` (Cities & Knights: improvements, knights, walls, the
    barbarians). Its rules module makes it in :meth:`Variant.prepare_state` and puts
    :meth:`public_dict` into its own :meth:`Variant.public_dict`, so it is in every hash."""

    def copy(self) -> Self:
        """An independent copy (:meth:`GameState.copy` calls it)."""
        ...

    def public_dict(self) -> dict[str, Any]:
        """The public part of the progress as plain data (JSON types): equal in the full state
        and every information state."""
        ...

    def hidden_dict(self) -> dict[str, Any]:
        """The hidden part, as the state holding it knows it (in
        :meth:`GameState.hidden_dict`)."""
        ...


class Variant:
    """The hooks of one game's own rules; this base class's hooks change nothing.

    A subclass registers what it adds to the engine's open sets in class attributes, merged once
    at import by :mod:`hexlan.engine.registry` in :data:`~hexlan.engine.variants.HOOKS` order:

    - ``actions``: its action classes (:class:`~hexlan.engine.actions.VariantAction`), in the
      order their wire type codes take after the base game's and earlier games';
    - ``handlers``: each of those classes' :data:`VariantHandler`;
    - ``phases``: its own phases (members of its :class:`~hexlan.engine.core.GamePhase`
      subclass, codes after the engine's), and ``chance_phases``: those where a chance outcome is
      due (:meth:`chance_node`), the others being decisions of :meth:`phase_seat`;
    - ``dev_cards``: development card faces of its own (members of its
      :class:`~hexlan.engine.core.DevelopmentCard` subclass, codes after the base game's and
      earlier games'), which a rule set's ``[development_deck]`` may then name.
    - ``position_fields``: how a position (:mod:`hexlan.engine.position`, docs/POSITION.md)
      writes and reads its progress object (:class:`VariantState`), if it keeps one.

    Args:
        rules: the game's rule set (its ``raw`` tables carry the variant's numbers).
        options: the game options (the variant's own readings are options too).
        topology: the map's graph.
    """

    name: ClassVar[str] = ""
    actions: ClassVar[tuple[type[A.VariantAction], ...]] = ()
    handlers: ClassVar[Mapping[type[A.VariantAction], VariantHandler]] = {}
    phases: ClassVar[tuple[GamePhase, ...]] = ()
    chance_phases: ClassVar[frozenset[GamePhase]] = frozenset()
    dev_cards: ClassVar[tuple[DevelopmentCard, ...]] = ()
    has_robber: ClassVar[bool] = True
    """Whether the game has a robber (Pirate Islands has none: a 7 robs without it)."""
    city_commodities: ClassVar[tuple[int, ...] | None] = None
    """Per resource, the card kind a city yields instead of its second card of it (-1: a
    second card of the resource); None where a city yields two of its resource (Cities &
    Knights: paper, cloth and coin beside forest, pasture and mountains)."""
    position_fields: ClassVar[ProgressFields[Any] | None] = None
    """The position's fields of the progress the game keeps in ``state.variant_state``, as
    :class:`~hexlan.engine.position_fields.ProgressFields`; None for a game that keeps none."""

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

    def setup_city(self, state: GameState) -> bool:
        """Whether the set-up building due now is a city (Cities & Knights' second one)."""
        return False

    def robber_locked(self, state: GameState) -> bool:
        """Whether a 7 leaves the robber where it is (after the discards)."""
        return False

    def hand_limit_bonus(self, state: GameState, seat: Seat) -> int:
        """Cards ``seat`` may hold beyond the rule set's discard limit on a 7."""
        return 0

    def after_roll(self, state: GameState, total: int) -> None:
        """A roll of ``total`` (not 7) is about to produce resources."""

    def turn_must_end(self, state: GameState) -> bool:
        """Whether the active seat's main phase offers only ending the turn (Pirate Islands:
        after a fortress attack)."""
        return False

    def settlement_reach(self, state: GameState, seat: Seat, spots: set[NodeId]) -> None:
        """Add to ``spots`` the open intersections the seat's own pieces other than roads reach
        (Seafarers: a ship's ends), where a settlement may be built."""

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Append the variant's legal actions of ``seat`` in the main phase to ``result``."""

    def roll_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Append the variant's legal actions of ``seat`` before its roll to ``result`` (Cities
        & Knights' Alchemist)."""

    def next_victim(self, state: GameState) -> Seat:
        """After a steal (or a robbery with none): the next seat the active seat robs now, or
        -1 (Cities & Knights' Bishop robs every seat beside the robber)."""
        return -1

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

    def phase_seat(self, state: GameState) -> Seat:
        """The seat whose decision is due in a phase the variant adds (the active seat)."""
        return state.active

    def phase_actions(self, state: GameState, seat: Seat) -> list[A.Action]:
        """The legal actions of ``seat`` in a phase the variant adds, ``seat`` being the one
        :meth:`phase_seat` names."""
        return []

    def action_applied(self, state: GameState) -> None:
        """An action the variant asked to follow (by setting ``state.variant_due`` while it
        was applied) is applied: Seafarers draws the tiles of the face-down hexes a road or ship
        reached. Only a variant that sets the flag is called.

        Raises:
            EngineError: the variant never sets the flag.
        """
        raise EngineError(f"the {self.name} rules follow no action")

    def chance_node(self, state: GameState) -> ChanceNode | None:
        """The chance due in a chance phase the variant adds (Seafarers' fog), as data."""
        return None

    def observation(self, state: GameState, action: A.VariantAction, seat: Seat) -> A.Action:
        """What ``seat`` sees of one of the variant's actions (before it is applied): all of it
        unless the variant hides a card in it."""
        return action

    def deck_outcome(self, state: GameState, face: int | None) -> A.Action:
        """The outcome of ``face`` drawn from the deck of a chance phase the variant adds (None:
        a card this state may not see).

        Raises:
            EngineError: the variant draws from no deck of its own.
        """
        raise EngineError(f"the {self.name} rules draw from no deck of their own")

    def hand_draw_outcome(self, state: GameState, cards: Hand) -> A.Action:
        """The outcome of a :data:`~hexlan.engine.chance.HAND_DRAW` the variant adds, from the
        cards drawn (a hand in card-kind order): a chance source that draws the cards itself
        (the network's committed hand) turns them into the outcome here.

        Raises:
            EngineError: the variant draws from no hand.
        """
        raise EngineError(f"the {self.name} rules draw from no hand")

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

    def hidden_card(self, action: A.VariantAction) -> tuple[str, int, str] | None:
        """The hidden card ``action`` plays or discards, as ``(deck, face, name)``: the deck's
        name among the rule set's decks, the card's face in it and its name in words; None for
        an action that spends no hidden card. A network game shows the card before the action
        (it may be one drawn in this same turn)."""
        return None
