"""Cities & Knights' actions and phases (seed 002 «Города и рыцари»; official rules where the
seed is silent; docs/rules/cities-and-knights.md).

Tracks are numbered :data:`TRADE`, :data:`POLITICS`, :data:`SCIENCE`; the event die's faces 1 .. 6
are three ships, then the gates of the three tracks (:data:`EVENT_FACES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hexlan.engine import actions as A
from hexlan.engine.core import GamePhase, Hand, NodeId, Resource, Seat

OptionalNode: TypeAlias = int
"""An intersection id, or -1 for none."""

TRADE: Final = 0
"""The trade track (yellow; built with cloth; its third level: the trading house)."""
POLITICS: Final = 1
"""The politics track (blue; built with coin; its third level: the fortress, mighty knights)."""
SCIENCE: Final = 2
"""The science track (green; built with paper; its third level: the aqueduct)."""
TRACKS: Final = ("trade", "politics", "science")
"""The tracks' names, by number."""
TRACK_COMMODITY: Final = (Resource.CLOTH, Resource.COIN, Resource.PAPER)
"""The commodity each track is built with (seed 002: ткань, монеты, бумага)."""

SHIP: Final = 0
"""An event die symbol: the barbarian ship (seed 002: the three black faces)."""
EVENT_FACES: Final = (SHIP, SHIP, SHIP, 1 + TRADE, 1 + POLITICS, 1 + SCIENCE)
"""The symbol of each face 1 .. 6 of the event die (index ``face - 1``): a ship on three faces,
then the yellow (trade), blue (politics) and green (science) gates (seed 002: «с тремя чёрными
гранями, одной жёлтой, одной синей и одной зелёной»)."""


class KnightsPhase(GamePhase):
    """Cities & Knights' own phases (registered as the variant's ``phases``)."""

    EVENT = 19
    """Chance: the event die, rolled with the red and yellow dice (a beacon event)."""
    PILLAGE = 20
    """The barbarians won: each of the weakest defenders in turn picks a city they reduce."""
    RETREAT = 21
    """A displaced knight's owner moves it along its own roads."""
    AQUEDUCT = 22
    """Seats with the aqueduct that the roll gave nothing each take a resource of choice."""
    PROGRESS = 23
    """Chance: a seat draws a progress card from a deck (a mental-poker deck in a network
    game); the card is seen by its drawer only."""
    PROGRESS_CHOICE = 24
    """A seat tied strongest against the barbarians chooses the deck it draws from."""
    PROGRESS_DISCARD = 25
    """A seat holding more progress cards than the limit discards one."""
    WEDDING = 26
    """The Wedding: each seat with more points than its player gives it two cards of its
    choice, in turn order."""
    HARBOR = 27
    """The Commercial Harbor: its player offers each other seat with cards a resource, in turn
    order; that seat gives a commodity of its choice for it, or shows it has none."""
    MERCHANT_SHOW = 28
    """Chance: the Master Merchant's victim shows its hand to the card's player alone (a
    hand opened by encryption to that seat in a network game)."""
    MERCHANT = 29
    """The Master Merchant's player takes two cards of its choice from the hand it saw."""
    DESERTER = 32
    """The Deserter: the opponent its player named removes one of its knights."""
    DESERTER_PLACE = 33
    """The Deserter: its player may place a knight like the one removed, free."""
    SPY_SHOW = 34
    """Chance: the Spy's victim shows its progress cards to the card's player alone (opened
    by encryption to that seat in a network game)."""
    SPY = 35
    """The Spy's player takes one of the progress cards it saw, or none."""
    POINT_SHOW = 36
    """Chance (a reveal): the seat that just drew a progress card shows it if it is a Printer
    or Constitution (official: «played immediately», even out of turn), else shows that it is
    not one (:class:`PointShown`)."""


@dataclass(frozen=True, slots=True)
class EventDie(A.VariantAction):
    """Chance, Cities & Knights: the event die's face, 1 .. 6 (:data:`EVENT_FACES`)."""

    face: int

    chance: ClassVar[bool] = True

    @property
    def symbol(self) -> int:
        """:data:`SHIP`, or ``1 + track`` for a gate."""
        return EVENT_FACES[self.face - 1]


@dataclass(frozen=True, slots=True)
class BuildKnight(A.VariantAction):
    """Place a basic knight on an empty intersection the seat's roads reach (seed 002:
    «Рыцарь ставится на угол ... к которой подходит одна из дорог игрока»)."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class ActivateKnight(A.VariantAction):
    """Turn the seat's inactive knight at ``node`` active for a grain."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class PromoteKnight(A.VariantAction):
    """Raise the seat's knight at ``node`` one level (basic to strong, strong to mighty)."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class MoveKnight(A.VariantAction):
    """An active knight at ``node`` walks the seat's roads to ``target``: an empty intersection,
    or one held by a weaker opponent knight, which it displaces (seed 002)."""

    node: NodeId
    target: NodeId


@dataclass(frozen=True, slots=True)
class ChaseRobber(A.VariantAction):
    """An active knight at ``node``, beside the robber's hex, chases it: the robber moves and
    robs as after a 7 (seed 002: «Прогнать разбойника»)."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class RetreatKnight(A.VariantAction):
    """The owner of a displaced knight puts it on ``node``, an empty intersection its roads
    reach from where it stood (seed 002: «сдвигается на любую точку своей дороги его
    хозяином»)."""

    seat: Seat
    node: NodeId

    def actor(self, active: Seat) -> Seat:
        """The displaced knight's owner."""
        return self.seat


@dataclass(frozen=True, slots=True)
class BuildWall(A.VariantAction):
    """A city wall under the seat's city at ``node`` (seed 002 «Крепостная стена»)."""

    node: NodeId


@dataclass(frozen=True, slots=True)
class ImproveCity(A.VariantAction):
    """The next city improvement of ``track`` (0 trade, 1 politics, 2 science); ``metropolis``
    is the seat's city that takes the track's metropolis when this level wins it, else -1."""

    track: int
    metropolis: OptionalNode = -1


@dataclass(frozen=True, slots=True)
class PillageCity(A.VariantAction):
    """A seat the barbarians beat reduces its city at ``node`` to a settlement (seed 002: «на
    свой выбор»)."""

    seat: Seat
    node: NodeId

    def actor(self, active: Seat) -> Seat:
        """The seat losing the city."""
        return self.seat


@dataclass(frozen=True, slots=True)
class AqueductPick(A.VariantAction):
    """A seat with the aqueduct that the roll gave nothing takes one ``resource`` of choice
    (seed 002: the third science improvement)."""

    seat: Seat
    resource: Resource

    def actor(self, active: Seat) -> Seat:
        """The picking seat."""
        return self.seat


@dataclass(frozen=True, slots=True)
class ProgressDrawn(A.VariantAction):
    """Chance, Cities & Knights: the progress card a seat draws, as its face in its deck (the
    deck's table order in the rule set), or None where this state may not see it."""

    face: int | None

    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PointShown(A.VariantAction):
    """Chance (a reveal by the drawer, :attr:`KnightsPhase.POINT_SHOW`): the progress card
    ``seat`` just drew from ``track``'s deck, the ``number``-th progress card of the game (from 1), is
    the point card ``face`` (Printer or Constitution), shown at once; or ``face`` -1: it is no
    point card (official: a point card is played immediately when drawn, even out of turn)."""

    seat: Seat
    track: int
    face: int
    number: int

    chance: ClassVar[bool] = True
    revealed: ClassVar[bool] = True
    """A reveal its seat sends itself (a network game's ``action``, numbered by ``number``)."""
    spends: ClassVar[str] = "showed"

    def actor(self, active: Seat) -> Seat:
        """The drawing seat (it sends the reveal in a network game)."""
        return self.seat


@dataclass(frozen=True, slots=True)
class ChooseProgress(A.VariantAction):
    """A seat tied strongest against the barbarians names the ``track`` (0 trade, 1 politics,
    2 science) whose deck it draws from (seed 002: «цвет карточки на выбор игрока»)."""

    seat: Seat
    track: int

    def actor(self, active: Seat) -> Seat:
        """The choosing seat."""
        return self.seat


@dataclass(frozen=True, slots=True)
class DiscardProgress(A.VariantAction):
    """A seat over the progress-card limit discards the card ``face`` of ``track``'s deck,
    face up (seed 002: «обязан сбросить одну из пяти карточек»)."""

    spends: ClassVar[str] = "discarded"
    seat: Seat
    track: int
    face: int

    def actor(self, active: Seat) -> Seat:
        """The discarding seat."""
        return self.seat


@dataclass(frozen=True, slots=True)
class PlayProgress(A.VariantAction):
    """Play the progress card ``face`` of ``track``'s deck (0 trade, 1 politics, 2 science),
    face up, in the seat's main phase; ``choice`` is what the card asks for: an intersection
    (Engineer: a city; Medicine: a settlement), a kind of card (Merchant Fleet), a path
    (Diplomat), else -1 (official Cities & Knights rules; :mod:`.progress_play`); for the
    board cards (:mod:`.progress_board`): the dice ``red * 10 + yellow`` (the Alchemist, played
    in the roll phase instead of rolling), a hex (Bishop, Merchant), a seat (Deserter), two
    hexes ``first * 100 + second`` (Inventor)."""

    track: int
    face: int
    choice: OptionalNode = -1


@dataclass(frozen=True, slots=True)
class GiveCards(A.VariantAction):
    """A seat with more points than the Wedding's player gives it ``cards`` (two, or all it
    holds if fewer; a hand in card-kind order), of its choice (official)."""

    seat: Seat
    cards: Hand

    hand_fields: ClassVar[frozenset[str]] = frozenset({"cards"})

    def actor(self, active: Seat) -> Seat:
        """The giving seat."""
        return self.seat


@dataclass(frozen=True, slots=True)
class DesertKnight(A.VariantAction):
    """The opponent a Deserter names removes its knight at ``node``, of its choice (official)."""

    seat: Seat
    node: NodeId

    def actor(self, active: Seat) -> Seat:
        """The seat losing the knight."""
        return self.seat


@dataclass(frozen=True, slots=True)
class PlaceDeserter(A.VariantAction):
    """The Deserter's player places its knight, free, at ``node`` (where it may build one), or
    none (-1; official: it "may")."""

    node: OptionalNode


@dataclass(frozen=True, slots=True)
class HarborOffer(A.VariantAction):
    """The Commercial Harbor's player offers the next seat in turn one ``resource`` of its
    hand (``offer``, a kind of card: not named ``resource``, whose wire form is a card kind),
    or -1 to pass that seat by (official: «you may offer each opponent»)."""

    offer: int


@dataclass(frozen=True, slots=True)
class HarborAnswer(A.VariantAction):
    """A seat offered a resource by the Commercial Harbor gives its player one ``commodity`` of
    its choice for it, or -1: it holds no commodity, and keeps nothing (official)."""

    seat: Seat
    commodity: int

    def actor(self, active: Seat) -> Seat:
        """The answering seat."""
        return self.seat


EVENT_DICE: Final = tuple(EventDie(face) for face in range(1, 7))
"""The six equally likely outcomes of the event die."""
