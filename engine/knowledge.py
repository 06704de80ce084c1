"""Knowledge of hidden cards, as objects a game's information state is made of: what one seat
knows of every seat's hand (:class:`HandKnowledge`) and of a hidden deck (:class:`DeckKnowledge`).

Neither knows a game's rules: the game's state calls them with what its seat observes (a gain, a
payment, a steal it does or does not see, a card drawn or shown) and asks them what may be
(../shared/ARCHITECTURE.md principle 2). :class:`~hexlan.engine.info.InformationState` keeps
resource hands in a :class:`HandKnowledge` and the development deck's unseen pool as a
:class:`DeckKnowledge`; Cities & Knights reads each progress deck's unseen pool through one
(:meth:`~hexlan.engine.variants.cities_knights.progress.Progress.deck`).

Hands. The seat's own hand is exact: ``bounds[seat]``. Other seats' hands are kept as
*groups* (:class:`HandGroup`): a tuple of seats and the set of their joint hands ("worlds")
still possible. Every other seat starts alone in a group whose one world is the empty hand. A
gain adds to every world; a payment keeps the worlds that cover it and subtracts it (no world
left: the seat could not have paid, :class:`IllegalActionError`); a narrowing keeps the worlds
where a shown property holds. A steal between two other seats, which this seat does not see,
joins the thief's and the victim's groups (a stolen card is one the victim held, so their hands
are linked) and moves, in every world, one card of each kind the victim may hold. A group whose
seats have become independent splits up again, exactly. A group over ``max_worlds`` worlds
(:data:`MAX_WORLDS` by default) is split into one group per seat: their product holds every
world still possible and more, a sound over-approximation (knowledge is lost, no possible hand
is ever ruled out). For other seats ``bounds[s]`` holds the most of each kind ``s`` may hold.

Decks. A hidden deck's *unseen pool* is, per face, the cards this seat has not seen: the
starting deck minus its own draws minus every card it has seen leave a hand (played, shown,
discarded face up), i.e. the deck plus the other seats' unseen cards. Another seat's unseen
card may be any face the pool still holds.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Final, Self, TypeAlias

from hexlan.engine.core import (
    NO_SEAT,
    EngineError,
    Hand,
    IllegalActionError,
    Seat,
    as_hand,
    hand_covers,
    hand_minus,
    hand_plus,
    no_cards,
    one_kind,
)

MAX_WORLDS: Final = 4096
"""Joint worlds a group of linked seats may hold before it is split seat by seat."""

World: TypeAlias = tuple[Hand, ...]
"""One joint possibility for a group: a hand per seat of the group, in the group's seat order."""

HandTest: TypeAlias = Callable[[Hand], bool]
"""A property of one hand (it covers a payment, it holds no commodity, ...)."""


@cache
def units(kinds: int) -> tuple[Hand, ...]:
    """One card of each kind, as hands of ``kinds`` counts (made once per number of kinds).

    >>> units(3)
    ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    """
    return tuple(one_kind(r, 1, kinds) for r in range(kinds))


def _put(world: World, index: int, hand: Hand) -> World:
    return (*world[:index], hand, *world[index + 1 :])


@dataclass(slots=True, eq=False)
class HandGroup:
    """Seats whose hands are linked, and their joint hands still possible.

    Attributes:
        seats: the group's seats, in the order of each world's hands.
        worlds: every joint hand still possible, one hand per seat of ``seats``.
    """

    seats: tuple[Seat, ...]
    worlds: set[World]


class HandKnowledge:
    """What ``seat`` knows of every seat's hand of ``kinds`` card kinds (see the module
    docstring): its own exactly, the others' as groups of possible joint hands.

    Args:
        players: the number of seats.
        seat: the seat whose knowledge this is, 0 .. players-1, or :data:`NO_SEAT` for a pure
            third party (every seat's hand is then unknown).
        kinds: the number of card kinds of a hand.
        bounds: per seat, a list of ``kinds`` counts this object keeps, changed in place: the
            own seat's exact hand, and for other seats the most of each kind they may hold (a
            game state passes its own hands' lists; by default new lists of zeros). Every seat
            starts with an empty hand.
        max_worlds: the cap on a group of linked seats.

    Raises:
        EngineError: a seat outside the game (other than :data:`NO_SEAT`) or a cap below 1.

    >>> k = HandKnowledge(3, 0, 2)
    >>> k.gain(1, (2, 0)); k.gain(2, (0, 1))
    >>> k.steal(1, 2, None)  # seat 1 takes seat 2's one card, unseen by seat 0
    >>> k.possible_hands(1), k.possible_hands(2)
    (frozenset({(2, 1)}), frozenset({(0, 0)}))
    """

    __slots__ = ("_one", "bounds", "groups", "kinds", "max_worlds", "possible", "seat")

    seat: Seat
    kinds: int
    max_worlds: int
    groups: list[HandGroup | None]
    """Per seat, its group (the same object for linked seats); None for the own seat."""
    possible: list[frozenset[Hand]]
    """Per other seat, the hands it may hold (its group's worlds, projected)."""
    bounds: list[list[int]]

    def __init__(
        self,
        players: int,
        seat: Seat,
        kinds: int,
        bounds: list[list[int]] | None = None,
        *,
        max_worlds: int = MAX_WORLDS,
    ) -> None:
        if not (0 <= seat < players or seat == NO_SEAT):
            raise EngineError(f"seat {seat} is not one of the {players} seats")
        if max_worlds < 1:
            raise EngineError(f"max_worlds must be at least 1, not {max_worlds}")
        self.seat, self.kinds, self.max_worlds = seat, kinds, max_worlds
        self.bounds = [[0] * kinds for _ in range(players)] if bounds is None else bounds
        self._one = units(kinds)
        empty = no_cards(kinds)
        self.groups = [None if s == seat else HandGroup((s,), {(empty,)}) for s in range(players)]
        self.possible = [frozenset({empty})] * players

    def copy(self, bounds: list[list[int]] | None = None) -> Self:
        """An independent copy, keeping ``bounds`` (a copy of this one's, e.g. the copied
        state's hands; by default copied here): linked seats stay linked to one shared copy of
        their group."""
        new = object.__new__(type(self))
        new.seat, new.kinds, new.max_worlds, new._one = (
            self.seat,
            self.kinds,
            self.max_worlds,
            self._one,
        )
        new.bounds = [b[:] for b in self.bounds] if bounds is None else bounds
        twins: dict[int, HandGroup] = {}
        copied: list[HandGroup | None] = []
        for group in self.groups:
            if group is None:
                copied.append(None)
                continue
            twin = twins.get(id(group))
            if twin is None:
                twin = twins[id(group)] = HandGroup(group.seats, set(group.worlds))
            copied.append(twin)
        new.groups = copied
        new.possible = self.possible[:]
        return new

    # ------------------------------------------------------------------ what is known

    def knows(self, seat: Seat) -> bool:
        """Whether ``seat``'s hand is known exactly by its very nature (the own seat's)."""
        return self.groups[seat] is None

    def possible_hands(self, seat: Seat) -> frozenset[Hand]:
        """Every hand ``seat`` may hold (one for the own seat)."""
        if self.groups[seat] is None:
            return frozenset({as_hand(self.bounds[seat])})
        return self.possible[seat]

    def exact_hand(self, seat: Seat) -> Hand | None:
        """``seat``'s hand where only one is possible; None where more are."""
        hands = self.possible_hands(seat)
        return next(iter(hands)) if len(hands) == 1 else None

    def known_cards(self, seat: Seat) -> Hand:
        """The cards surely in ``seat``'s hand: per kind, the least over its possible hands."""
        hands = self.possible_hands(seat)
        return as_hand([min(h[r] for h in hands) for r in range(self.kinds)])

    def hidden_kinds(self, seat: Seat) -> frozenset[int]:
        """The kinds each of ``seat``'s cards beyond :meth:`known_cards` may be; empty when its
        hand is known exactly."""
        known = self.known_cards(seat)
        possible = self.possible_hands(seat)
        return frozenset(r for r in range(self.kinds) if any(h[r] > known[r] for h in possible))

    def joint_hands(self) -> list[tuple[tuple[Seat, ...], frozenset[World]]]:
        """The other seats' possible hands as independent groups, in seat order.

        Each item is ``(seats, worlds)``: every world gives one hand per seat of ``seats``, and
        the other seats' hands together are one world of each group. The own seat is in none.
        """
        seen: set[int] = set()
        result: list[tuple[tuple[Seat, ...], frozenset[World]]] = []
        for group in self.groups:
            if group is not None and id(group) not in seen:
                seen.add(id(group))
                result.append((group.seats, frozenset(group.worlds)))
        return result

    def is_consistent(self, hands: Sequence[Sequence[int]]) -> bool:
        """Whether these hands of every seat (the true ones, say) fit this knowledge: the own
        hand exactly, the others' as one world of each group."""
        own = self.seat
        if own != NO_SEAT and as_hand(hands[own]) != as_hand(self.bounds[own]):
            return False
        return all(
            group is None or tuple(as_hand(hands[s]) for s in group.seats) in group.worlds
            for group in self.groups
        )

    def covers(self, seat: Seat, cards: Hand) -> bool:
        """Whether ``seat`` may hold at least ``cards``."""
        if self.groups[seat] is None:
            return hand_covers(self.bounds[seat], cards)
        return any(hand_covers(h, cards) for h in self.possible[seat])

    def count(self, seat: Seat, kind: int) -> int | None:
        """How many cards of ``kind`` ``seat`` holds; None where that is unknown."""
        if self.groups[seat] is None:
            return self.bounds[seat][kind]
        counts = {h[kind] for h in self.possible[seat]}
        return counts.pop() if len(counts) == 1 else None

    def could(self, seat: Seat, test: HandTest) -> bool:
        """Whether ``test`` holds of one hand ``seat`` may hold."""
        if self.groups[seat] is None:
            return test(as_hand(self.bounds[seat]))
        return any(test(h) for h in self.possible[seat])

    def could_all(self, conditions: Mapping[Seat, HandTest]) -> bool:
        """Whether one possible world meets every seat's condition at once (linked seats in the
        same world)."""
        by_group: dict[int, tuple[HandGroup, list[tuple[int, HandTest]]]] = {}
        for seat, condition in conditions.items():
            group = self.groups[seat]
            if group is None:
                if not condition(as_hand(self.bounds[seat])):
                    return False
                continue
            by_group.setdefault(id(group), (group, []))[1].append(
                (group.seats.index(seat), condition)
            )
        return all(
            any(all(condition(w[i]) for i, condition in tests) for w in group.worlds)
            for group, tests in by_group.values()
        )

    # ------------------------------------------------------------------ what happens

    def gain(self, seat: Seat, cards: Hand) -> None:
        """``seat`` takes ``cards`` (one count per kind), seen by this seat."""
        bound = self.bounds[seat]
        for r in range(self.kinds):
            bound[r] += cards[r]
        group = self.groups[seat]
        if group is None:
            return
        i = group.seats.index(seat)
        group.worlds = {_put(w, i, hand_plus(w[i], cards)) for w in group.worlds}
        self.possible[seat] = frozenset(hand_plus(h, cards) for h in self.possible[seat])

    def pay(self, seat: Seat, cards: Hand) -> None:
        """``seat`` gives up ``cards``, seen by this seat (the own seat's payment is not
        checked).

        Raises:
            IllegalActionError: no hand ``seat`` may hold covers them; nothing has changed.
        """
        self.pay_where(seat, cards, lambda h: hand_covers(h, cards), f"cannot pay {cards}")

    def pay_where(self, seat: Seat, cards: Hand, keep: HandTest, why: str) -> None:
        """``seat`` gives up ``cards``, having shown that ``keep`` holds of its hand (``keep``
        must imply that the hand covers ``cards``); for the own seat, simply gives them up.

        Raises:
            IllegalActionError: no hand ``seat`` may hold passes ``keep`` (``why``: what it
                could not do); nothing has changed.
        """
        if self.groups[seat] is None:
            bound = self.bounds[seat]
            for r in range(self.kinds):
                bound[r] -= cards[r]
            return
        self._narrow(seat, keep, lambda h: hand_minus(h, cards), why)

    def narrow(self, seat: Seat, keep: HandTest, why: str) -> None:
        """``seat`` has shown that ``keep`` holds of its hand: keep only the hands that pass (the
        own seat's hand is known already).

        Raises:
            IllegalActionError: none passes (``why``: what ``seat`` did); nothing has changed.
        """
        if self.groups[seat] is not None:
            self._narrow(seat, keep, lambda h: h, why)

    def take_all(self, thief: Seat, victim: Seat, cards: Hand, keep: HandTest, why: str) -> None:
        """``cards`` go from ``victim`` to ``thief``, the victim having shown that ``keep``
        holds of its hand (a Monopoly: it held exactly the count taken).

        Raises:
            IllegalActionError: as :meth:`pay_where`; nothing has changed.
        """
        self.pay_where(victim, cards, keep, why)
        self.gain(thief, cards)

    def steal(self, thief: Seat, victim: Seat, kind: int | None) -> None:
        """One card of ``kind`` goes from ``victim`` to ``thief``; None: a card this seat does
        not see, between two other seats (their groups are joined, see the module docstring).

        Raises:
            IllegalActionError: a seen card the victim cannot hold; nothing has changed.
            EngineError: an unseen card taken by or from the own seat.
        """
        one = self._one
        if kind is not None:
            self.pay(victim, one[kind])
            self.gain(thief, one[kind])
            return
        thief_group, victim_group = self.groups[thief], self.groups[victim]
        if thief_group is None or victim_group is None:
            raise EngineError(f"seat {self.seat} sees the card of a steal it takes part in")
        if thief_group is victim_group:
            group = thief_group
        elif len(thief_group.worlds) * len(victim_group.worlds) <= self.max_worlds:
            group = HandGroup(
                thief_group.seats + victim_group.seats,
                {a + b for a in thief_group.worlds for b in victim_group.worlds},
            )
            for s in group.seats:
                self.groups[s] = group
        else:
            self._steal_unlinked(thief, victim)
            return
        t, v = group.seats.index(thief), group.seats.index(victim)
        worlds: set[World] = set()
        for w in group.worlds:
            held = w[v]
            for r in range(self.kinds):
                if held[r]:
                    moved = list(w)
                    moved[v] = hand_minus(held, one[r])
                    moved[t] = hand_plus(w[t], one[r])
                    worlds.add(tuple(moved))
        group.worlds = worlds
        self._settle(group)

    def set_possible(self, seat: Seat, hands: frozenset[Hand]) -> None:
        """Know only that ``seat`` (another seat) holds one of ``hands`` (not empty), unlinked
        from every other seat: what a position loaded mid-game knows of a hand."""
        self.groups[seat] = HandGroup((seat,), {(h,) for h in hands})
        self.refresh(seat)

    def refresh(self, seat: Seat) -> None:
        """Recompute another seat's possible hands and bound from its group."""
        group = self.groups[seat]
        assert group is not None
        i = group.seats.index(seat)
        hands = frozenset(w[i] for w in group.worlds)
        self.possible[seat] = hands
        self.bounds[seat] = [max(h[r] for h in hands) for r in range(self.kinds)]

    # ------------------------------------------------------------------ groups

    def _steal_unlinked(self, thief: Seat, victim: Seat) -> None:
        """A hidden steal whose joint worlds would pass the cap: thief and victim each keep their
        own possible hands (the over-approximation of the module docstring)."""
        for s in (thief, victim):
            group = self.groups[s]
            assert group is not None
            self._break_up(group)
        held, one, kinds = self.possible[victim], self._one, range(self.kinds)
        taken = {r for h in held for r in kinds if h[r]}
        victim_hands: set[World] = {(hand_minus(h, one[r]),) for h in held for r in kinds if h[r]}
        thief_hands: set[World] = {
            (hand_plus(h, one[r]),) for h in self.possible[thief] for r in taken
        }
        self.groups[victim] = HandGroup((victim,), victim_hands)
        self.groups[thief] = HandGroup((thief,), thief_hands)
        self.refresh(victim)
        self.refresh(thief)

    def _narrow(self, seat: Seat, keep: HandTest, change: Callable[[Hand], Hand], why: str) -> None:
        """Keep the worlds where ``keep`` holds of ``seat``'s hand, changing that hand.

        Raises:
            IllegalActionError: no world is left (``why`` says what ``seat`` could not do);
                nothing has changed.
        """
        group = self.groups[seat]
        assert group is not None
        i = group.seats.index(seat)
        worlds = {_put(w, i, change(w[i])) for w in group.worlds if keep(w[i])}
        if not worlds:
            raise IllegalActionError(f"seat {seat} {why}: no hand it may hold allows it")
        group.worlds = worlds
        self._settle(group)

    def _settle(self, group: HandGroup) -> None:
        """Split ``group`` after a change: exactly where seats became independent, or seat by
        seat (over-approximating) where it holds more than ``max_worlds`` worlds."""
        seats, worlds = group.seats, group.worlds
        if len(seats) > 1 and len(worlds) > self.max_worlds:
            self._break_up(group)
            return
        i = 0
        while len(seats) > 1 and i < len(seats):
            alone = {w[i] for w in worlds}
            rest = {(*w[:i], *w[i + 1 :]) for w in worlds}
            if len(alone) * len(rest) == len(worlds):  # worlds == alone x rest
                self.groups[seats[i]] = HandGroup((seats[i],), {(h,) for h in alone})
                self.refresh(seats[i])
                seats, worlds = seats[:i] + seats[i + 1 :], rest
            else:
                i += 1
        group.seats, group.worlds = seats, worlds
        for s in seats:
            self.refresh(s)

    def _break_up(self, group: HandGroup) -> None:
        """Replace ``group`` by one group per seat holding that seat's possible hands."""
        for i, s in enumerate(group.seats):
            self.groups[s] = HandGroup((s,), {(w[i],) for w in group.worlds})
            self.refresh(s)


@dataclass(slots=True)
class DeckKnowledge:
    """What one seat knows of a hidden deck: its unseen pool (see the module docstring).

    Attributes:
        pool: per face, the cards this seat has not seen; the list belongs to the game's state
            (which copies it with the state) and is read and changed here in place, so this
            object is made at no cost wherever it is needed and never goes stale.

    >>> deck = DeckKnowledge([3, 1])  # a deck of three of face 0, one of face 1
    >>> deck.seen(1)  # this seat draws, or sees played, the one card of face 1
    >>> deck.may_be(1), deck.left(2)  # another seat holds two unseen cards
    (False, 1)
    """

    pool: list[int]

    def seen(self, face: int) -> None:
        """A card of ``face`` has been seen (drawn by this seat, or shown, played or discarded
        face up by another): it leaves the pool. The caller checked :meth:`may_be`."""
        self.pool[face] -= 1

    def unseen(self, face: int) -> None:
        """A card of ``face`` seen before is hidden again (shuffled back into the deck, or taken
        unseen into a hand that may hold it): it is back in the pool."""
        self.pool[face] += 1

    def may_be(self, face: int) -> bool:
        """Whether an unseen card (the deck's next, or one another seat holds) may be of
        ``face``."""
        return self.pool[face] > 0

    def most(self, face: int, held: int) -> int:
        """The most cards of ``face`` among ``held`` unseen cards of one seat."""
        return min(held, self.pool[face])

    def left(self, held: int) -> int:
        """Cards still in the deck, where other seats hold ``held`` unseen cards in all."""
        return sum(self.pool) - held

    def faces(self, never: frozenset[int] = frozenset()) -> list[int]:
        """The pool, counting no card of the faces ``never`` held in a hand (a new list): the
        faces an unseen card in a hand may have."""
        return [0 if f in never else n for f, n in enumerate(self.pool)]

    def chances(self, faces: Sequence[int] | None = None) -> list[tuple[int, float]]:
        """Each face the deck's next card may have, with its chance, in face order (``faces``:
        only these, their chances still out of the whole pool)."""
        pool = self.pool
        total = sum(pool)
        wanted = range(len(pool)) if faces is None else faces
        return [(f, pool[f] / total) for f in wanted if pool[f]]

    def chance_of_none(self, faces: Collection[int]) -> float:
        """The chance that the deck's next card has none of these ``faces``."""
        pool = self.pool
        total = sum(pool)
        return (total - sum(pool[f] for f in faces)) / total

    def fits(self, faces: Sequence[int], never: frozenset[int] = frozenset()) -> bool:
        """Whether unseen cards of these ``faces`` (a multiset; none of the faces ``never``
        held in a hand) may all be held at once."""
        pool = self.faces(never)
        return all(0 <= f < len(pool) and faces.count(f) <= pool[f] for f in faces)

    def hands(
        self, count: int, never: frozenset[int] = frozenset()
    ) -> Iterator[tuple[tuple[int, ...], float]]:
        """Every multiset of ``count`` unseen cards a hand may hold (none of the faces
        ``never`` held), as sorted faces, with its chance: drawn without replacement from the
        pool (multivariate hypergeometric). Nothing when the pool holds fewer."""
        pool = self.faces(never)
        total = comb(sum(pool), count)
        if total == 0:
            return

        def rec(face: int, left: int) -> Iterator[tuple[tuple[int, ...], int]]:
            if left == 0:
                yield (), 1
                return
            if face == len(pool):
                return
            for n in range(min(left, pool[face]), -1, -1):
                for rest, ways in rec(face + 1, left - n):
                    yield (face,) * n + rest, comb(pool[face], n) * ways

        for faces, ways in rec(0, count):
            yield faces, ways / total
