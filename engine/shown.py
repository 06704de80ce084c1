"""Cards shown to one seat, then taken by it: the actions of two generic chance steps
(docs/PROTOCOL.md §7.2 and §7.3). The engine owns them (:data:`SHARED_ACTIONS`): any game may
list them among its actions, with its own handlers, and play them with its own rules (Cities &
Knights: the Master Merchant and the Spy, engine/variants/cities_knights/);
:func:`~hexlan.engine.registry.merge_actions` gives each one type code, where the first game
listing it puts it, and calls the handler of the game being played.

- A :data:`~hexlan.engine.chance.HAND_SHOW` node (seats ``(player, victim)``): the victim's hand
  is shown to the player alone (:class:`HandShown`), then the player takes
  :attr:`~hexlan.engine.chance.ChanceNode.cards` cards of it, of its choice (:class:`HandTake`).
  A network game opens the hand by encryption to the player and names the cards taken by
  position (``hand_open``, ``merchant_take``).
- A :data:`~hexlan.engine.chance.DECK_SHOW` node (seats ``(player, victim)``): the victim's
  cards of the decks :attr:`~hexlan.engine.chance.ChanceNode.decks` are shown to the player
  alone (:class:`DeckShown`), then the player takes one of them, or none (:class:`DeckTake`).
  A deck is named by its index in those labels. A network game re-encrypts the cards to the
  player and names the card taken by position (``spy_open``, ``spy_take``).

A seat that is neither the player nor the victim sees the show without its cards, and the take
without them (a hand take moves hidden cards; a deck take shows its deck only: the backs of
the decks differ).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from hexlan.engine import actions as A
from hexlan.engine.core import Hand, Seat

NO_TAKE: Final = -1
"""The deck of a :class:`DeckTake` that takes nothing."""
OptionalDeck: TypeAlias = int
"""A deck, by its index in a deck show's labels, or :data:`NO_TAKE` for none."""


@dataclass(frozen=True, slots=True)
class HandShown(A.VariantAction):
    """Chance: the victim ``seat`` shows its ``hand`` (in card-kind order) to the player; None
    where this state may not see it (a :data:`~hexlan.engine.chance.HAND_SHOW` node's outcome;
    Cities & Knights, official: the Master Merchant's player looks at the hand)."""

    seat: Seat
    hand: Hand | None

    chance: ClassVar[bool] = True
    hand_fields: ClassVar[frozenset[str]] = frozenset({"hand"})


@dataclass(frozen=True, slots=True)
class HandTake(A.VariantAction):
    """The player takes ``taken`` (the show's node's ``cards`` cards, or all if fewer; a hand
    in card-kind order) from the hand it saw; None where this state may not see them (the
    cards are seen by the two seats alone; Cities & Knights, official: the Master Merchant's
    «take 2 cards of your choice»)."""

    taken: Hand | None

    hand_fields: ClassVar[frozenset[str]] = frozenset({"taken"})


@dataclass(frozen=True, slots=True)
class DeckShown(A.VariantAction):
    """Chance: the victim ``seat`` shows its cards of the node's decks (as ``(deck, face)``,
    ``deck`` an index in :attr:`~hexlan.engine.chance.ChanceNode.decks`, sorted) to the player;
    None where this state may not see them (a :data:`~hexlan.engine.chance.DECK_SHOW` node's
    outcome; Cities & Knights, official: the Spy's «Look at another player's hand of progress
    cards»)."""

    seat: Seat
    cards: tuple[tuple[int, int], ...] | None

    chance: ClassVar[bool] = True
    pair_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


@dataclass(frozen=True, slots=True)
class DeckTake(A.VariantAction):
    """The player takes the victim's card ``face`` of deck ``deck`` (an index in the show's
    node's decks), or nothing (``deck`` :data:`NO_TAKE`); ``face`` None where this state may not
    see it (the deck is public: the backs differ; Cities & Knights, official: the Spy's «You may
    choose 1 card»)."""

    deck: OptionalDeck
    face: int | None


SHARED_ACTIONS: Final[frozenset[type[A.VariantAction]]] = frozenset(
    {HandShown, HandTake, DeckShown, DeckTake}
)
"""The engine's actions that several games may register (each with its own handler); every
other action has one game."""

__all__ = [
    "NO_TAKE",
    "SHARED_ACTIONS",
    "DeckShown",
    "DeckTake",
    "HandShown",
    "HandTake",
    "OptionalDeck",
]
