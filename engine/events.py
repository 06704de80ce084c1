"""What an action did, as the rules report it: the events of one :meth:`GameState.apply`.

A state that records events (``state.record_events = True``; off by default so that bots and
simulations pay one attribute test per rule, nothing more) keeps in ``state.last_events`` the
events of the last action applied, in the order the rules acted. Each comes from the rules code at
the point where the rule acts: production from ``GameState._produce``, an award from where it
moves, a discovery from the Jungle's hook (:mod:`hexlan.engine.variants`), so the narrator, the
log and the UI read what happened instead of re-deriving it from states before and after.

An :class:`~hexlan.engine.info.InformationState` records what its seat may know: a stolen card
between two other seats is ``None`` in :class:`Stole`, as in the observed action.

Hands have one count per card kind of the game, in :class:`~hexlan.engine.core.Resource` order; seats are ints (-1: none).

>>> from hexlan.engine import actions as A
>>> from hexlan.engine.board import beginner_board
>>> from hexlan.engine.state import GameState
>>> state = GameState(beginner_board(), 3)
>>> state.record_events = True
>>> state.apply(A.StartPlayer(1))
>>> state.last_events
[StartPlayerDrawn(seat=1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hexlan.engine.core import DevelopmentCard, Hand, Resource, Seat

Piece = Literal["road", "settlement", "city", "ship"]
"""A piece a seat builds."""

Award = Literal["longest_road", "largest_army"]
"""An award that moves between seats."""


@dataclass(frozen=True, slots=True)
class StartPlayerDrawn:
    """The start player was drawn (``GameState._on_start_player``)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Built:
    """A piece was placed (``GameState._on_build_*``): ``where`` is an intersection for a
    settlement or city, a path for a road; ``setup`` during set-up; ``free`` a Road Building road."""

    seat: Seat
    piece: Piece
    where: int
    setup: bool = False
    free: bool = False


@dataclass(frozen=True, slots=True)
class StartingResources:
    """A second set-up settlement yielded ``cards`` (``GameState._on_build_settlement``)."""

    seat: Seat
    cards: Hand


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice fell (``GameState._on_dice``); ``seat`` rolled them."""

    seat: Seat
    first: int
    second: int

    @property
    def total(self) -> int:
        """The sum of both dice."""
        return self.first + self.second


@dataclass(frozen=True, slots=True)
class Produced:
    """A roll paid resources (``GameState._produce``, after the bank-shortage rule): ``gains``
    has one hand per seat (all zero for a seat that got nothing)."""

    total: int
    gains: tuple[Hand, ...]


@dataclass(frozen=True, slots=True)
class Discovered:
    """Jungle: a roll gave discoveries, ``found`` per seat (``Jungle.after_roll``)."""

    total: int
    found: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiscardsDue:
    """A 7 with large hands: ``counts`` per seat must be discarded (``GameState._on_dice`` or,
    with ``robber_before_discard``, after the robber)."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    """A seat discarded ``cards`` (``GameState._on_discard``)."""

    seat: Seat
    cards: Hand

    @property
    def count(self) -> int:
        """How many cards."""
        return sum(self.cards)


@dataclass(frozen=True, slots=True)
class RobberMoved:
    """The robber moved to ``hex``; ``victim`` is the seat named to be robbed (-1: none)."""

    seat: Seat
    hex: int
    victim: Seat


@dataclass(frozen=True, slots=True)
class PirateMoved:
    """Seafarers: the pirate moved to sea hex ``hex``; ``victim`` is the seat named (-1: none)."""

    seat: Seat
    hex: int
    victim: Seat


@dataclass(frozen=True, slots=True)
class FleetSailed:
    """Pirate Islands: the pirate fleet sailed to sea hex ``hex`` (seed 004); ``victim`` is the
    seat it attacks (-1: none), with the fleet's ``strength`` (the lower die) against its
    ``warships``."""

    hex: int
    victim: Seat
    strength: int
    warships: int


@dataclass(frozen=True, slots=True)
class FleetLooted:
    """Pirate Islands: the pirate fleet took ``cards`` from ``seat``'s hand, drawn blind, to the
    bank (seed 004 «Нападение пиратов»)."""

    seat: Seat
    cards: Hand


@dataclass(frozen=True, slots=True)
class FortressAttacked:
    """Pirate Islands: ``seat`` attacked its fortress; the die showed ``roll`` against its
    ``warships``; ``chits`` are left under it (0: captured) and ``ships_lost`` of its line were
    lost (seed 004)."""

    seat: Seat
    roll: int
    warships: int
    chits: int
    ships_lost: int


@dataclass(frozen=True, slots=True)
class ShipMoved:
    """Seafarers: ``seat`` moved its ship from path ``source`` to path ``target``."""

    seat: Seat
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class GoldOwed:
    """Seafarers: gold fields owe each seat ``owed`` resources of its choice, chosen next."""

    owed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stole:
    """``thief`` took a card from ``victim`` (``GameState._on_steal``); ``resource`` is None
    where the state recording the event may not know it."""

    thief: Seat
    victim: Seat
    resource: Resource | None


@dataclass(frozen=True, slots=True)
class CardBought:
    """A seat bought a development card (``discoveries`` of the cost replaced, Jungle)."""

    seat: Seat
    discoveries: int = 0


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The bought card was dealt; ``card`` is None where hidden from the recording state."""

    seat: Seat
    card: DevelopmentCard | None


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a development card (``GameState._start_card``)."""

    seat: Seat
    card: DevelopmentCard


@dataclass(frozen=True, slots=True)
class MonopolyTaken:
    """Monopoly: ``seat`` took ``amounts[s]`` of ``resource`` from each other seat ``s``."""

    seat: Seat
    resource: Resource
    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BankTaken:
    """Year of Plenty: ``seat`` took ``cards`` from the bank."""

    seat: Seat
    cards: Hand


@dataclass(frozen=True, slots=True)
class Traded:
    """``seat`` gave ``give`` and got ``get``; ``partner`` is the other seat, or -1 for the bank
    or a harbour at ``ratio`` (``GameState._on_maritime`` / ``_on_confirm``)."""

    seat: Seat
    partner: Seat
    give: Hand
    get: Hand
    ratio: int = 0


@dataclass(frozen=True, slots=True)
class TradeClosed:
    """An open offer closed without a trade: ``withdrawn`` by its maker, else nobody accepted."""

    seat: Seat
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class FogRevealed:
    """A fog hex was revealed (Seafarers' fog): ``terrain`` (a
    :class:`~hexlan.engine.core.Terrain` value) and ``token`` (0: none) laid on ``hex``; the
    discoverer ``seat`` took ``cards`` (None: nothing, or a gold pick owed)."""

    seat: Seat
    hex: int
    terrain: int
    token: int
    cards: Hand | None


@dataclass(frozen=True, slots=True)
class AwardMoved:
    """An award changed hands (``GameState.award_longest_road``, ``_on_knight``): ``to_seat``
    is -1 when set aside (a Longest Road tie); ``size`` is the new holder's road length or
    knights (0 when set aside)."""

    award: Award
    from_seat: Seat
    to_seat: Seat
    size: int


@dataclass(frozen=True, slots=True)
class VariantPointsChanged:
    """Big River: ``seat``'s gold points changed (``BigRiver.after_build``), and with them
    perhaps the victory points they make (``victory_points``, ``previous_vp`` before).
    Seafarers: ``seat`` earned an island bonus (``gold_points`` is then its islands settled)."""

    seat: Seat
    gold_points: int
    victory_points: int
    previous_vp: int


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """``seat``'s turn ``turn`` began (after set-up, or at a turn's end)."""

    seat: Seat
    turn: int


@dataclass(frozen=True, slots=True)
class SpecialBuildingStarted:
    """5-6 players: ``seat`` may build in the special building phase."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """``seat`` ended its turn with enough points to win at its end (``victory_at_turn_end``;
    :class:`Won` follows). A view that cannot see the winning cards reports the next turn's
    :class:`TurnStarted` instead, taken back by the reveal (``InformationState.apply``)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Won:
    """``seat`` won with ``points``, showing ``vp_cards`` victory point cards."""

    seat: Seat
    points: int
    vp_cards: int


@dataclass(frozen=True, slots=True)
class BarbariansLanded:
    """Cities & Knights: the barbarians attacked with ``strength`` (the cities) against
    ``knights`` (the active knights' levels): ``defender`` took a Defender of Catan point (-1:
    none), ``tied`` choose a progress card, ``losers`` each lose a city (seed 002)."""

    strength: int
    knights: int
    defender: Seat
    tied: tuple[Seat, ...]
    losers: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class KnightDisplaced:
    """Cities & Knights: ``seat``'s knight of ``level`` was displaced by a stronger one."""

    seat: Seat
    level: int


@dataclass(frozen=True, slots=True)
class MetropolisMoved:
    """Cities & Knights: the metropolis of ``track`` (0 trade, 1 politics, 2 science) went from
    ``previous`` (-1: nobody) to ``seat``."""

    track: int
    previous: Seat
    seat: Seat


@dataclass(frozen=True, slots=True)
class ProgressCardDrawn:
    """Cities & Knights: ``seat`` drew a progress card of ``track``'s deck."""

    seat: Seat
    track: int


@dataclass(frozen=True, slots=True)
class ProgressCardPlayed:
    """Cities & Knights: ``seat`` played the progress card ``name`` of ``track``'s deck
    (``choice``: its intersection, or -1)."""

    seat: Seat
    track: int
    name: str
    choice: int


Event = (
    StartPlayerDrawn
    | Built
    | StartingResources
    | DiceRolled
    | Produced
    | Discovered
    | DiscardsDue
    | Discarded
    | RobberMoved
    | Stole
    | CardBought
    | CardDrawn
    | CardPlayed
    | MonopolyTaken
    | BankTaken
    | Traded
    | TradeClosed
    | AwardMoved
    | VariantPointsChanged
    | TurnStarted
    | SpecialBuildingStarted
    | TurnEnded
    | Won
    | PirateMoved
    | ShipMoved
    | GoldOwed
    | FogRevealed
    | FleetSailed
    | FleetLooted
    | FortressAttacked
    | BarbariansLanded
    | KnightDisplaced
    | MetropolisMoved
    | ProgressCardDrawn
    | ProgressCardPlayed
)
"""Any event."""

__all__ = [
    "Award",
    "AwardMoved",
    "BankTaken",
    "BarbariansLanded",
    "Built",
    "CardBought",
    "CardDrawn",
    "CardPlayed",
    "DiceRolled",
    "Discarded",
    "DiscardsDue",
    "Discovered",
    "Event",
    "FleetLooted",
    "FleetSailed",
    "FogRevealed",
    "FortressAttacked",
    "GoldOwed",
    "KnightDisplaced",
    "MetropolisMoved",
    "MonopolyTaken",
    "Piece",
    "PirateMoved",
    "Produced",
    "ProgressCardDrawn",
    "ProgressCardPlayed",
    "RobberMoved",
    "ShipMoved",
    "SpecialBuildingStarted",
    "StartPlayerDrawn",
    "StartingResources",
    "Stole",
    "TradeClosed",
    "Traded",
    "TurnEnded",
    "TurnStarted",
    "VariantPointsChanged",
    "Won",
]
