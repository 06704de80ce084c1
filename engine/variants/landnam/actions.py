"""Landnám's actions: every decision a seat makes and every chance outcome of the game, as frozen
dataclasses that round-trip through :func:`hexlan.engine.actions.action_to_list` like every
hexlan action (../shared/landnam-rules.md; seeds 000 and 001).

Landnám also uses three of the engine's own actions: :class:`~hexlan.engine.actions.StartPlayer`
(the start player, chosen at random, §4.6), :class:`~hexlan.engine.actions.RollDice` and its
:class:`~hexlan.engine.actions.Dice` outcome (the harvest roll, §6.1), and
:class:`~hexlan.engine.actions.EndTurn` (handing the dice on, §5).

Units are named by their number in the state (:attr:`LandnamState.units`); positions by their
number on the board (:mod:`hexlan.engine.variants.landnam.board`, -1 the outer sea hex); corners
by their vertex number; resources by their index into a hand (grain, timber, wool, iron); fate
cards by their :class:`~hexlan.engine.variants.landnam.rules.Fate` face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hexlan.engine.actions import VariantAction
from hexlan.engine.core import Hand, Seat

NO_CARD = -1
"""A :class:`Move`'s ``fate`` when no Exploration card is played with it; a withheld face."""


class _BySeat(VariantAction):
    """An action that names the seat making it (several seats act in the Althing)."""

    __slots__ = ()
    seat: Seat

    def actor(self, active: Seat) -> Seat:
        """The seat the action names."""
        return self.seat


@dataclass(frozen=True, slots=True)
class DrawFate(VariantAction):
    """Chance: the top fate card goes to ``seat`` (§8.1, §10.7, §4.4). ``face`` is
    :data:`NO_CARD` in the view of a seat that may not see it; ``public`` for the set-up's
    cards, which every seat sees (§4.4, gap G23)."""

    seat: Seat
    face: int
    public: bool

    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Reshuffle(VariantAction):
    """Chance: the fate cards put back (set-up, §4.5) or discarded (gap G18) are shuffled into
    the deck: over the network, a new deck generation shuffled by every seat."""

    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ExploreRoll(VariantAction):
    """Chance: the exploration dice (§10.2): the green d10's faces (terrain) and the red d10's
    (number marker), 1-10 each. Usually one of each; the red alone after an Exploration card
    fixed the terrain; the green alone on a re-roll (its terrain was out of stock); two of each
    with Seer's counsel (§16.2)."""

    green: tuple[int, ...]
    red: tuple[int, ...]

    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PlayFate(_BySeat):
    """Play a fate card in the sub-phase its mark names (§16.1): only the active seat, except
    Althing cards, which any seat may play in the Althing.

    Attributes:
        seat: the seat playing it.
        face: the card's :class:`~hexlan.engine.variants.landnam.rules.Fate` face.
        target: the unit it acts on (Atonement: the unit whose red token goes), else -1.
        choice: Good year's change of the roll, +1 or -1; Atonement's token index; else 0.
    """

    seat: Seat
    face: int
    target: int = -1
    choice: int = 0


@dataclass(frozen=True, slots=True)
class Harvest(VariantAction):
    """Take the harvest of the roll as it stands, playing no Harvest card (§6.2)."""


@dataclass(frozen=True, slots=True)
class AgeHex(VariantAction):
    """After a harvest, age one of the hexes that paid (§6.5, gap G10: the active seat picks)."""

    position: int


@dataclass(frozen=True, slots=True)
class Move(VariantAction):
    """A movement step (§9): the unit moves into an adjacent position, explores it if it is
    unexplored (§10), or chases the unit there (§9.7). ``fate`` is the Exploration card played
    before the exploration dice (§10.1), or :data:`NO_CARD`."""

    unit: int
    to: int
    fate: int = NO_CARD


@dataclass(frozen=True, slots=True)
class ChooseSeer(VariantAction):
    """Seer's counsel: which of the two green and the two red faces rolled count (§16.2)."""

    green: int
    red: int


@dataclass(frozen=True, slots=True)
class Stay(VariantAction):
    """After an exploration found a hex the unit may not enter, keep it where it is rather
    than play a Landing card (§9.5, §10.8)."""


@dataclass(frozen=True, slots=True)
class Flee(_BySeat):
    """The owner of a chased unit moves it one step away (§9.7): ``to`` is its new position."""

    seat: Seat
    to: int


@dataclass(frozen=True, slots=True)
class EndMovement(VariantAction):
    """End the movement phase; trade and building follow (§5)."""


@dataclass(frozen=True, slots=True)
class BankTrade(VariantAction):
    """Give four cards of ``give`` to the stock for one of ``get`` (§11.1)."""

    give: int
    get: int


@dataclass(frozen=True, slots=True)
class HarbourTrade(VariantAction):
    """Give two cards of the harbour's resource for one of ``get`` at the harbour on sea hex
    ``position`` (§11.2)."""

    position: int
    get: int


@dataclass(frozen=True, slots=True)
class OfferTrade(VariantAction):
    """The active seat offers ``to`` a trade: it gives ``give`` and gets ``get`` (hands, each
    at least one card; §11.3)."""

    to: Seat
    give: Hand
    get: Hand

    hand_fields: ClassVar[frozenset[str]] = frozenset({"give", "get"})
    wire_name: ClassVar[str] = "LandnamOfferTrade"  # the base game has an OfferTrade


@dataclass(frozen=True, slots=True)
class AnswerTrade(_BySeat):
    """The offered seat accepts (binding, §11.3) or declines the offer."""

    seat: Seat
    accept: bool

    wire_name: ClassVar[str] = "LandnamAnswerTrade"  # the base game has an AnswerTrade


@dataclass(frozen=True, slots=True)
class BuildFarm(VariantAction):
    """The seat's unit turns into a farm on a corner of its hex (§12.2)."""

    unit: int
    corner: int


@dataclass(frozen=True, slots=True)
class BuildTown(VariantAction):
    """The seat's farm on ``corner`` becomes a town (§12.3)."""

    corner: int


@dataclass(frozen=True, slots=True)
class BuildUnit(VariantAction):
    """The seat's farm or town on ``corner`` builds a ship or a settler onto ``to``, one of the
    corner's hexes; a ship may be built on the outer sea hex from no settlement (corner -1;
    §12.1)."""

    corner: int
    ship: bool
    to: int


@dataclass(frozen=True, slots=True)
class BuildHarbour(VariantAction):
    """The seat's ship builds a harbour of resource ``kind`` on its sea hex (§13)."""

    unit: int
    kind: int


@dataclass(frozen=True, slots=True)
class AgeNumber(VariantAction):
    """The seat's settler pays one card of its hex's resource to age the hex's marker (§12.1)."""

    unit: int


@dataclass(frozen=True, slots=True)
class Pass(_BySeat):
    """Play no Althing card when the Althing opens (§8.2), or bring no more suits (§8.4)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Appoint(VariantAction):
    """The active seat names the seat that starts the lawsuit round (§8.4)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Sue(_BySeat):
    """Bring a case against ``unit`` (§8.3), opening with ``cards`` cards of the case's
    resource (at least 1, §8.5.1); if the defence loses, the red token points at the seat's
    settlement on ``corner``."""

    seat: Seat
    unit: int
    corner: int
    cards: int


@dataclass(frozen=True, slots=True)
class Bid(_BySeat):
    """A side's member pays ``cards`` more cards of the case's resource; 0 passes to the
    side's next member, and a side whose members all pass below the other's total loses
    (§8.5.2-3)."""

    seat: Seat
    cards: int


@dataclass(frozen=True, slots=True)
class Invite(_BySeat):
    """The side's last joiner asks an uninvolved seat to join its side (§8.5.4)."""

    seat: Seat
    guest: Seat


@dataclass(frozen=True, slots=True)
class Join(_BySeat):
    """The invited seat joins the side with ``cards`` cards of the case's resource (at least
    1), or declines with 0 (§8.5.4)."""

    seat: Seat
    cards: int


ACTIONS: tuple[type[VariantAction], ...] = (
    AgeHex,
    AgeNumber,
    AnswerTrade,
    Appoint,
    BankTrade,
    Bid,
    BuildFarm,
    BuildHarbour,
    BuildTown,
    BuildUnit,
    ChooseSeer,
    DrawFate,
    EndMovement,
    ExploreRoll,
    Flee,
    HarbourTrade,
    Harvest,
    Invite,
    Join,
    Move,
    OfferTrade,
    Pass,
    PlayFate,
    Reshuffle,
    Stay,
    Sue,
)
"""Every Landnám action class (its spec's :attr:`~hexlan.engine.gamespec.GameSpec.actions`:
the wire decodes them by name)."""


__all__ = [
    "ACTIONS",
    "NO_CARD",
    "AgeHex",
    "AgeNumber",
    "AnswerTrade",
    "Appoint",
    "BankTrade",
    "Bid",
    "BuildFarm",
    "BuildHarbour",
    "BuildTown",
    "BuildUnit",
    "ChooseSeer",
    "DrawFate",
    "EndMovement",
    "ExploreRoll",
    "Flee",
    "HarbourTrade",
    "Harvest",
    "Invite",
    "Join",
    "Move",
    "OfferTrade",
    "Pass",
    "PlayFate",
    "Reshuffle",
    "Stay",
    "Sue",
]
