"""The pieces of a Landnám state that are more than numbers: units on hexes, an Althing and its case,
an exploration or a chase under way, and the builds queued for the end of the turn
(../shared/landnam-rules.md §8, §9.7, §10, §12.4)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hexlan.engine.core import Seat


@dataclass(slots=True)
class Unit:
    """A ship or a settler on the board.

    Attributes:
        owner: its seat.
        ship: a ship (else a settler, a horse).
        at: its position (:data:`~.board.OUTER` for the outer sea hex).
        tokens: its red tokens, each ``(plaintiff, corner)``: the seat that won the case and the
            corner of that seat's settlement the token points at (§8.5.5); an outlaw has one.
        acted: it took its building action this turn (§12.4).
    """

    owner: Seat
    ship: bool
    at: int
    tokens: list[tuple[Seat, int]] = field(default_factory=list)
    acted: bool = False

    @property
    def outlaw(self) -> bool:
        """Whether a red token lies beside it (§14)."""
        return bool(self.tokens)


@dataclass(slots=True)
class Case:
    """A lawsuit in progress (§8.5).

    Attributes:
        unit: the defendant unit; kind: the case's resource; corner: the plaintiff's settlement
            a red token would point at.
        sides: the plaintiff's side then the defence's, each in join order (the first is the
            plaintiff or the defendant).
        totals: the cards each side has paid.
        turn: the side to act (0 the plaintiff's, 1 the defence's).
        member: which member of the side acts, counted from its last joiner backwards.
        guest: the seat invited and not yet answered, or -1.
        declined: the seats that declined to join in this case.
    """

    unit: int
    kind: int
    corner: int
    sides: tuple[list[Seat], list[Seat]]
    totals: list[int]
    turn: int = 1
    member: int = 0
    guest: Seat = -1
    declined: set[Seat] = field(default_factory=set)

    def acting(self) -> Seat:
        """The seat whose decision in the case is due."""
        if self.guest >= 0:
            return self.guest
        side = self.sides[self.turn]
        return side[len(side) - 1 - self.member]

    def involved(self) -> set[Seat]:
        """Every seat on either side."""
        return set(self.sides[0]) | set(self.sides[1])

    def copy(self) -> Case:
        """An independent copy."""
        return Case(
            self.unit,
            self.kind,
            self.corner,
            (list(self.sides[0]), list(self.sides[1])),
            list(self.totals),
            self.turn,
            self.member,
            self.guest,
            set(self.declined),
        )


@dataclass(slots=True)
class Althing:
    """The Althing in progress (§8).

    Attributes:
        window: the seats still to decide in the opening window for Althing cards, in order.
        order: the lawsuit round's seats still to bring cases, the current one first.
        possible: per defendant seat, the (plaintiff, unit) pairs that could be sued when the
            round began (§8.6, gap G14).
        tried: the (plaintiff, unit) pairs brought to a case.
        case: the case in progress, if any.
    """

    window: list[Seat]
    order: list[Seat] = field(default_factory=list)
    possible: dict[Seat, set[tuple[Seat, int]]] = field(default_factory=dict)
    tried: set[tuple[Seat, int]] = field(default_factory=set)
    case: Case | None = None

    def copy(self) -> Althing:
        """An independent copy."""
        return Althing(
            list(self.window),
            list(self.order),
            {k: set(v) for k, v in self.possible.items()},
            set(self.tried),
            None if self.case is None else self.case.copy(),
        )


@dataclass(slots=True)
class Exploration:
    """An exploration under way (§10): the unit, the position, the Exploration card played
    (or -1), the dice still due (``roll``: "both", "red", "green" or "seer") and what they
    showed."""

    unit: int
    to: int
    card: int
    roll: str
    green: tuple[int, ...] = ()
    red: tuple[int, ...] = ()


@dataclass(slots=True)
class Chase:
    """A chase under way (§9.7): the chasing unit, where it came from, the chased unit."""

    chaser: int
    origin: int
    chased: int


@dataclass(frozen=True, slots=True)
class Queued:
    """A build paid for and waiting for the end of the turn (§12.4, gap G20).

    Attributes:
        what: ``"farm"``, ``"town"``, ``"ship"``, ``"settler"``, ``"harbour"`` or ``"age"``.
        seat: the builder.
        place: the corner (farm, town), the position (unit, harbour, age).
        unit: the unit that builds (farm, harbour, age), else -1.
        kind: a harbour's resource, else -1.
    """

    what: str
    seat: Seat
    place: int
    unit: int = -1
    kind: int = -1
