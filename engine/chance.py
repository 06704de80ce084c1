"""Chance nodes as data: what kind of chance a state waits for, so a chance source resolves it
without naming phases (../shared/ARCHITECTURE.md, "Open sets, not fixed tuples").

:meth:`hexlan.engine.state.GameState.chance_node` describes the chance due now as a
:class:`ChanceNode`; a chance source (the network session's beacon and decks, a seeded local
source) reads its :attr:`~ChanceNode.kind`:

- :data:`UNIFORM`: equally likely outcomes, drawn as a tuple of uniform integers (the dice: two
  draws below 6; the start player: one draw below the number of seats), see
  :meth:`ChanceNode.pick`;
- :data:`DECK_DRAW`: the top card of the deck :attr:`~ChanceNode.deck` goes to the drawing seat
  (with :attr:`~ChanceNode.public`, it is shown to every seat: a fog tile);
- :data:`STEAL`: one card of the victim's hand at random goes to the thief;
- :data:`REVEAL`: seats show what they hold (Monopoly counts, a winner's victory point cards);
- :data:`HAND_DRAW`: cards of a seat's hand drawn blind and shown to every seat (the Pirate
  Islands fleet's loot);
- :data:`HAND_SHOW`: a seat's hand shown to one seat, which then takes cards of it;
- :data:`DECK_SHOW`: a seat's cards of some decks shown to one seat, which then takes one
  (:mod:`hexlan.engine.shown` holds the actions of these two);
- :data:`RESHUFFLE`: a deck rebuilt from cards every seat knows (its discards, cards put back)
  and shuffled (a network game deals it as a new deck generation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from hexlan.engine.actions import Action
from hexlan.engine.core import Resource, Seat

UNIFORM: Final = "uniform"
"""Kind: equally likely outcomes (:attr:`ChanceNode.outcomes`, drawn by :meth:`ChanceNode.pick`)."""
DECK_DRAW: Final = "deck_draw"
"""Kind: a card drawn from the named deck by ``seats[0]``."""
STEAL: Final = "steal"
"""Kind: a random card of ``seats[1]``'s hand taken by ``seats[0]``."""
REVEAL: Final = "reveal"
"""Kind: ``seats`` show cards they hold; the outcome is what they show."""
HAND_DRAW: Final = "hand_draw"
"""Kind: :attr:`ChanceNode.cards` cards of ``seats[0]``'s hand drawn at random, each card as
likely as any other, and shown to every seat (seed 004 «Нападение пиратов»: an opponent draws
them blind)."""
HAND_SHOW: Final = "hand_show"
"""Kind: ``seats[1]``'s hand shown to ``seats[0]`` alone, which then takes :attr:`ChanceNode.cards`
of its cards (outcome :class:`~hexlan.engine.shown.HandShown`; a network game opens the hand by
encryption to that seat, PROTOCOL.md §7.2)."""
COUNT: Final = "count"
"""Kind: each of ``seats`` shows a number it reads off its hidden hand (:attr:`ChanceNode.count`
says which); the outcome (:meth:`~hexlan.engine.state.GameState.count_outcome`) takes every
seat's number at once (a Monopoly, seed 002 «Монополия»)."""
DECK_SHOW: Final = "deck_show"
"""Kind: ``seats[1]``'s cards of the decks :attr:`ChanceNode.decks` shown to ``seats[0]`` alone,
which then takes one or none (outcome :class:`~hexlan.engine.shown.DeckShown`; a network game
re-encrypts the cards to that seat, PROTOCOL.md §7.3)."""

RESHUFFLE: Final = "reshuffle"
"""Kind: the deck :attr:`ChanceNode.deck` is rebuilt from cards every seat knows of (its
discards, the cards put back at a set-up) and shuffled; its one outcome is the state's
:meth:`~hexlan.engine.game.Game.chance_outcomes`, and the deck's cards after it are
:meth:`~hexlan.engine.game.SeatViews.deck_faces` (a network game shuffles them as a new deck
generation, every seat taking part: PROTOCOL.md §13.11)."""

MONOPOLY_COUNTS: Final = "monopoly"
"""Event of a :data:`COUNT`: each opponent of a Monopoly's player shows how many cards of the
named resource it holds (seed 002 «Монополия»)."""
VICTORY_REVEAL: Final = "victory"
"""Event of a :data:`REVEAL`: a winner shows its victory point cards (seed 002 «Конец игры»)."""
POINT_REVEAL: Final = "point"
"""Event of a :data:`REVEAL`: ``seats[0]``, which just drew a card of the deck
:attr:`ChanceNode.deck`, shows it if it is a card played the moment it is drawn (a Cities &
Knights Printer or Constitution), else shows that it is none; the reveal is that seat's signed
action in a network game."""


@dataclass(frozen=True, slots=True)
class Count:
    """What each seat of a :data:`COUNT` node shows of its hand: how many cards of one kind it
    holds, at most a cap (a Monopoly takes them all; a Cities & Knights Resource or Trade
    Monopoly at most 2 or 1 of each seat).

    Attributes:
        kind: the counted card kind (its index into a hand).
        cap: the most any seat counts; None: no cap.

    >>> from hexlan.engine.core import Resource
    >>> Count(Resource.ORE, 2).of((0, 0, 0, 0, 5)), Count(Resource.ORE, None).bound(3)
    (2, 3)
    """

    kind: Resource
    cap: int | None

    def of(self, hand: Sequence[int]) -> int:
        """What a seat holding ``hand`` (one count per card kind) counts."""
        return self.bound(hand[self.kind])

    def bound(self, cards: int) -> int:
        """The most a seat holding ``cards`` cards in all (of any kinds) may count."""
        return cards if self.cap is None else min(cards, self.cap)


@dataclass(frozen=True, slots=True)
class ChanceNode:
    """The chance a state waits for.

    Attributes:
        kind: :data:`UNIFORM`, :data:`DECK_DRAW`, :data:`STEAL`, :data:`REVEAL`,
            :data:`COUNT`, :data:`HAND_DRAW`, :data:`HAND_SHOW`, :data:`DECK_SHOW` or
            :data:`RESHUFFLE` (a rules module may add its own).
        event: the chance event's name: ``"start"``, ``"dice"``, ``"steal"``, ``"draw"``,
            ``"monopoly"``, ``"victory"``, ``"loot"``, ``"merchant"``, ``"spy"``.
        outcomes: a uniform node's outcomes, in the order of :meth:`pick`'s mixed-radix index.
        sides: a uniform node's draws: the size of each uniform integer drawn, in order
            (``(6, 6)`` for the dice, ``(players,)`` for the start player); their product is
            ``len(outcomes)``.
        deck: a deck draw's deck, by the name its rule set gives it (``"development"``,
            ``"fog"``, ``"fog_tokens"``).
        seats: the seats concerned: the drawing seat; thief then victim; the revealing seats;
            the seat whose hand is drawn from; the seat shown to, then the seat showing.
        public: a deck draw every seat sees (a fog tile): every seat opens it, where a
            development card is opened by its buyer alone.
        cards: a hand draw's number of cards (at least 1, at most the hand); a hand show's
            number of cards taken after it (all, if the hand holds fewer).
        decks: a deck show's decks, by label; a :class:`~hexlan.engine.shown.DeckShown` or
            :class:`~hexlan.engine.shown.DeckTake` names a deck by its index here.
        count: a count's rule (:class:`Count`): what each seat counts of its hand.
    """

    kind: str
    event: str
    outcomes: tuple[Action, ...] = ()
    sides: tuple[int, ...] = ()
    deck: str = ""
    seats: tuple[Seat, ...] = ()
    public: bool = False
    cards: int = 0
    decks: tuple[str, ...] = ()
    count: Count | None = None

    def pick(self, randbelow: Callable[[int], int]) -> Action:
        """A uniform node's outcome from one ``randbelow(n)`` draw per entry of :attr:`sides`,
        first draw most significant.

        >>> from hexlan.engine.actions import ALL_DICE
        >>> dice = ChanceNode(UNIFORM, "dice", ALL_DICE, (6, 6))
        >>> draws = iter([2, 5])
        >>> dice.pick(lambda size: next(draws))
        Dice(first=3, second=6)
        """
        index = 0
        for size in self.sides:
            index = index * size + randbelow(size)
        return self.outcomes[index]


__all__ = [
    "COUNT",
    "DECK_DRAW",
    "DECK_SHOW",
    "HAND_DRAW",
    "HAND_SHOW",
    "MONOPOLY_COUNTS",
    "POINT_REVEAL",
    "RESHUFFLE",
    "REVEAL",
    "STEAL",
    "UNIFORM",
    "VICTORY_REVEAL",
    "ChanceNode",
    "Count",
    "UnitSource",
    "draw_outcome",
]


class UnitSource(Protocol):
    """What :func:`draw_outcome` draws with: ``random.Random`` or any source of uniform floats."""

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        ...


def draw_outcome(rng: UnitSource, outcomes: Sequence[tuple[Action, float]]) -> Action:
    """One of ``outcomes`` (``(action, probability)`` pairs, as
    :meth:`~hexlan.engine.state.GameState.chance_outcomes` gives them) drawn by its probability
    with one ``rng.random()``; rounding left over picks the last.

    Raises:
        ValueError: ``outcomes`` is empty.
    """
    if not outcomes:
        raise ValueError("no chance outcome to draw from")
    pick = rng.random()
    for action, probability in outcomes:
        pick -= probability
        if pick < 0:
            return action
    return outcomes[-1][0]
