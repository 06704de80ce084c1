"""Cities & Knights' game progress: the one object the variant keeps in the state's generic slot
(:attr:`~hexlan.engine.state.GameState.variant_state`), copied with the state. Every piece and
track is on the table (seed 002 «Города и рыцари»); the progress cards in hand are hidden but
for their number, as development cards are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from hexlan.engine.core import NO_SEAT, NodeId, Seat
from hexlan.engine.knowledge import DeckKnowledge
from hexlan.engine.variants.cities_knights.board_state import BoardCards


@dataclass(frozen=True, slots=True)
class Knight:
    """A knight on the board.

    Attributes:
        seat: its owner.
        level: 1 basic, 2 strong, 3 mighty (its strength against the barbarians when active).
        active: whether it is active (fed a grain).
    """

    seat: Seat
    level: int
    active: bool = False


@dataclass(slots=True)
class Retreat:
    """A displaced knight waiting for its owner to move it (from ``node``, where it stood)."""

    knight: Knight
    node: NodeId


@dataclass(slots=True)
class Progress:
    """Everything Cities & Knights adds to a game's state, all public.

    Attributes:
        levels: per seat, its improvement level on each track (0 .. 5; trade, politics, science).
        metropolis: per track, the city holding its metropolis (-1: not yet won).
        metropolis_seat: per track, the seat holding its metropolis (-1).
        walls: per seat, its cities with a wall.
        knights: the knights on the board by intersection.
        fresh: intersections of knights activated this turn (they may not act this turn).
        promoted: intersections of knights promoted this turn (once a turn each).
        barbarians: steps the barbarian ship has sailed toward Catan (it arrives on the last).
        arrived: whether the barbarians have attacked once (the robber is locked until then).
        defenders: per seat, its Defender of Catan points.
        points: per seat, its victory points from progress cards shown (Printer,
            Constitution).
        pillage: seats still to pick the city they lose, in turn order.
        retreat: a displaced knight waiting to be moved, or None.
        aqueduct: seats still to take the aqueduct's resource, in turn order.
        hands_before: hand sizes before the roll's production (to see who it gave nothing).
        board: what the board progress cards leave on the table (the merchant, the Bishop's
            victims, the Deserter's knight, the Inventor's swaps; :mod:`.progress_board`).
        cards: per seat, the progress cards this state knows it holds, as ``(track, face)``.
        unknown: per seat, per track, the progress cards of that track's deck it holds that this
            state may not see (always 0 in the full state; which deck a card came from is
            public).
        pool: per track, the count of each face this state has not seen: the deck itself in
            the full state, the deck and the others' unseen cards in an information state (the
            deck's unseen pool, read and changed through :meth:`deck`).
        drawn: per track, cards drawn from its deck so far (public: the deck's size).
        choosing: seats still to choose the deck of a defender's progress card, in turn order.
        draws: progress cards due, as ``(seat, track)``, in order.
        over_limit: the seat that must discard a progress card now (-1: none).
        free_promotions: knight promotions left free this turn (the Smith).
        crane: whether the active seat's next improvement this turn costs one commodity less.
        wedding: seats still to give the Wedding's player two cards, in turn order.
        fleet: ``(seat, kind)``: the kind the seat trades 2:1 at the bank this turn (the
            Merchant Fleet), or None.
        harbor: seats the Commercial Harbor's player still trades with, in turn order.
        harbor_offer: the resource it offers ``harbor[0]`` (-1: not offered yet).
        merchant: the seat whose hand the Master Merchant opened this turn (-1: none).
        spy: the seat whose progress cards the Spy looked at last this turn (-1: none).
        showing: ``(seat, track, number)``: the seat that just drew from ``track``'s deck the
            game's ``number``-th progress card and shows next whether it is a point card (None:
            no show due).
        unheld: per track, the faces never held in a hand (the Printer and Constitution,
            shown when drawn: official), fixed for the game; empty with the option
            ``ck_point_cards_in_hand``.
        monopolised: whether a Resource or Trade Monopoly was played this turn (one a turn
            with the option ``ck_one_monopoly_per_turn``: docs/rules/cities-and-knights.md).
    """

    levels: list[list[int]]
    walls: list[list[NodeId]]
    defenders: list[int]
    points: list[int]
    cards: list[list[tuple[int, int]]]
    unknown: list[list[int]]
    pool: list[list[int]]
    drawn: list[int] = field(default_factory=lambda: [0, 0, 0])
    choosing: list[Seat] = field(default_factory=list)
    draws: list[tuple[Seat, int]] = field(default_factory=list)
    over_limit: Seat = NO_SEAT
    free_promotions: int = 0
    crane: bool = False
    fleet: tuple[Seat, int] | None = None
    wedding: list[Seat] = field(default_factory=list)
    harbor: list[Seat] = field(default_factory=list)
    harbor_offer: int = -1
    monopolised: bool = False
    showing: tuple[Seat, int, int] | None = None
    unheld: tuple[frozenset[int], ...] = ()
    merchant: Seat = NO_SEAT
    spy: Seat = NO_SEAT
    metropolis: list[NodeId] = field(default_factory=lambda: [-1, -1, -1])
    metropolis_seat: list[Seat] = field(default_factory=lambda: [NO_SEAT] * 3)
    knights: dict[NodeId, Knight] = field(default_factory=dict)
    fresh: set[NodeId] = field(default_factory=set)
    promoted: set[NodeId] = field(default_factory=set)
    barbarians: int = 0
    arrived: bool = False
    pillage: list[Seat] = field(default_factory=list)
    retreat: Retreat | None = None
    aqueduct: list[Seat] = field(default_factory=list)
    hands_before: list[int] = field(default_factory=list)
    board: BoardCards = field(default_factory=BoardCards)

    @classmethod
    def start(cls, players: int, decks: list[tuple[int, ...]]) -> Progress:
        """The progress of a new game of ``players`` seats: nothing built, the ship at sea,
        ``decks`` (each track's count of each face) full."""
        return cls(
            levels=[[0, 0, 0] for _ in range(players)],
            walls=[[] for _ in range(players)],
            defenders=[0] * players,
            points=[0] * players,
            cards=[[] for _ in range(players)],
            unknown=[[0, 0, 0] for _ in range(players)],
            pool=[list(deck) for deck in decks],
        )

    def copy(self) -> Self:
        """An independent copy (knights are immutable records, shared)."""
        return type(self)(
            levels=[row[:] for row in self.levels],
            walls=[row[:] for row in self.walls],
            defenders=self.defenders[:],
            points=self.points[:],
            cards=[row[:] for row in self.cards],
            unknown=[row[:] for row in self.unknown],
            pool=[row[:] for row in self.pool],
            drawn=self.drawn[:],
            choosing=self.choosing[:],
            draws=self.draws[:],
            over_limit=self.over_limit,
            free_promotions=self.free_promotions,
            crane=self.crane,
            fleet=self.fleet,
            wedding=self.wedding[:],
            harbor=self.harbor[:],
            harbor_offer=self.harbor_offer,
            monopolised=self.monopolised,
            showing=self.showing,
            unheld=self.unheld,
            merchant=self.merchant,
            spy=self.spy,
            metropolis=self.metropolis[:],
            metropolis_seat=self.metropolis_seat[:],
            knights=dict(self.knights),
            fresh=set(self.fresh),
            promoted=set(self.promoted),
            barbarians=self.barbarians,
            arrived=self.arrived,
            pillage=self.pillage[:],
            retreat=None
            if self.retreat is None
            else Retreat(self.retreat.knight, self.retreat.node),
            aqueduct=self.aqueduct[:],
            hands_before=self.hands_before[:],
            board=self.board.copy(),
        )

    def knights_of(self, seat: Seat) -> list[tuple[NodeId, Knight]]:
        """The seat's knights on the board, by intersection."""
        return sorted((n, k) for n, k in self.knights.items() if k.seat == seat)

    def strength(self, seat: Seat) -> int:
        """The seat's active knights' levels added up: its part of Catan's defence."""
        return sum(k.level for k in self.knights.values() if k.seat == seat and k.active)

    def held(self, seat: Seat, track: int | None = None) -> int:
        """How many progress cards the seat holds (of ``track``'s deck; public)."""
        if track is None:
            return len(self.cards[seat]) + sum(self.unknown[seat])
        return sum(t == track for t, _ in self.cards[seat]) + self.unknown[seat][track]

    def deck(self, track: int) -> DeckKnowledge:
        """What this state knows of ``track``'s deck: its unseen pool, ``pool[track]``."""
        return DeckKnowledge(self.pool[track])

    def never(self, track: int) -> frozenset[int]:
        """The faces of ``track``'s deck never held in a hand (:attr:`unheld`; none with the
        option ``ck_point_cards_in_hand``)."""
        return self.unheld[track] if self.unheld else frozenset()

    def lose(self, seat: Seat, track: int, face: int) -> None:
        """``(track, face)`` leaves the seat's progress cards: its known card, or else one of
        its unseen cards of ``track``'s deck, now seen (its face leaves ``pool``)."""
        if (track, face) in self.cards[seat]:
            self.cards[seat].remove((track, face))
        else:
            self.unknown[seat][track] -= 1
            self.deck(track).seen(face)

    def held_pool(self, track: int) -> list[int]:
        """The faces of ``track``'s deck an unseen card in a hand may have, by count: those of
        :attr:`pool` but the faces never held (:attr:`unheld`)."""
        return self.deck(track).faces(self.never(track))

    def hidden_dict(self) -> dict[str, Any]:
        """The progress cards as this state knows them: each seat's known cards, its unseen
        ones' count, and the faces not seen."""
        return {
            "cards": [sorted(list(c) for c in row) for row in self.cards],
            "unknown": [row[:] for row in self.unknown],
            "pool": [row[:] for row in self.pool],
        }

    def public_dict(self) -> dict[str, Any]:
        """The public progress as plain data: all but the progress cards' faces."""
        retreat = self.retreat
        return {
            "levels": [row[:] for row in self.levels],
            "metropolis": self.metropolis[:],
            "metropolis_seat": self.metropolis_seat[:],
            "walls": [sorted(row) for row in self.walls],
            "knights": [[n, k.seat, k.level, k.active] for n, k in sorted(self.knights.items())],
            "fresh": sorted(self.fresh),
            "promoted": sorted(self.promoted),
            "barbarians": self.barbarians,
            "arrived": self.arrived,
            "defenders": self.defenders[:],
            "card_points": self.points[:],
            "progress_cards": [[self.held(s, t) for t in range(3)] for s in range(len(self.cards))],
            "decks_drawn": self.drawn[:],
            "choosing": self.choosing[:],
            "draws": [list(d) for d in self.draws],
            "over_limit": self.over_limit,
            "free_promotions": self.free_promotions,
            "crane": self.crane,
            "fleet": None if self.fleet is None else list(self.fleet),
            "wedding": self.wedding[:],
            "harbor": self.harbor[:],
            "harbor_offer": self.harbor_offer,
            "monopolised": self.monopolised,
            "showing": None if self.showing is None else list(self.showing),
            "merchant": self.merchant,
            "spy": self.spy,
            "pillage": self.pillage[:],
            "retreat": None
            if retreat is None
            else [retreat.node, retreat.knight.seat, retreat.knight.level, retreat.knight.active],
            "aqueduct": self.aqueduct[:],
            "board_cards": self.board.public_dict(),
        }
