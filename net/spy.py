"""A seat's hidden cards of some decks re-encrypted to another seat, and one taken (a
:data:`~hexlan.engine.chance.DECK_SHOW` chance node: the Cities & Knights Spy; PROTOCOL.md §7.3):
the pure steps the session takes.

The decks are the node's :attr:`~hexlan.engine.chance.ChanceNode.decks` labels (the Spy's: the
progress decks); the engine names a deck by its index there. The victim re-encrypts every
position it holds in each of those decks to the player
(``spy_open``, :meth:`~hexlan.net.dealing.Dealer.reencryption_items`), every peer checks the
list and the proofs (:func:`check_open`), the player reads them; the cards not yet shown are the
victim's hand (:func:`hand_of`). The player names the position it takes (``spy_take``); that
position's re-encryption becomes the card, held by the player
(:meth:`~hexlan.net.dealing.Dealer.accept_transfer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from hexlan.net.audit import SpyRecord
from hexlan.net.dealing import Dealer, MovedItem
from hexlan.net.deck import DeckError

NO_DECK: Final = ""
"""The deck of a ``spy_take`` that takes nothing (its position is :data:`NO_POSITION`)."""
NO_POSITION: Final = -1

Item = tuple[str, MovedItem]
"""A re-encrypted card: its deck's label and the item."""


def context(number: int) -> bytes:
    """The caller's context of a Spy's re-encryptions: ``u64(number)``, its number in the one
    sequence of steals and hands shown (§7)."""
    return number.to_bytes(8, "big")


def open_payload(
    decks: Mapping[str, Dealer], labels: Iterable[str], player: int, number: int
) -> tuple[object, ...]:
    """``spy_open [number, items]``: every position this seat holds in each deck of ``labels``
    (the node's) re-encrypted to ``player``, as ``[label, position, A', B', proof]``, by
    ascending label then position.

    Raises:
        DeckError: (seat ``None``) a share of a held card is missing.
    """
    items = [
        (label, item.position, item.moved[:32], item.moved[32:], item.proof)
        for label in sorted(labels)
        for item in decks[label].reencryption_items(player, context(number))
    ]
    return (number, tuple(items))


def parse_items(items: Sequence[Sequence[object]]) -> list[Item]:
    """The items of a ``spy_open`` payload (its schema checked) as :data:`Item`."""
    result = []
    for label, position, a, b, proof in items:
        assert isinstance(label, str) and isinstance(position, int)
        assert isinstance(a, bytes) and isinstance(b, bytes) and isinstance(proof, bytes)
        result.append((label, MovedItem(position, a + b, proof)))
    return result


def check_open(
    decks: Mapping[str, Dealer],
    labels: Iterable[str],
    victim: int,
    player: int,
    items: Sequence[Item],
    number: int,
) -> None:
    """Check a ``spy_open``: the items are exactly the positions ``victim`` holds in every deck
    of ``labels`` (the node's), by ascending label then position, each re-encryption to
    ``player`` proven.

    Raises:
        DeckError: naming ``victim``.
    """
    shown = sorted(labels)
    listed = [label for label, _ in items]
    if any(label not in shown for label in listed) or listed != sorted(listed):
        raise DeckError(victim, f"seat {victim} listed decks {listed}, not {shown} in order")
    for label in shown:
        mine = [item for name, item in items if name == label]
        decks[label].check_items(victim, player, mine, context(number))


def read(decks: Mapping[str, Dealer], items: Sequence[Item]) -> tuple[int, ...]:
    """The card index of each item, read by the seat they are re-encrypted to.

    Raises:
        DeckError: see :meth:`~hexlan.net.dealing.Dealer.read_items`.
    """
    return tuple(decks[label].read_items([item])[0] for label, item in items)


def own_indices(decks: Mapping[str, Dealer], items: Sequence[Item]) -> tuple[int, ...]:
    """The card index of each item, as its holder (the victim) knows it."""
    return tuple(decks[label].own_index[item.position] for label, item in items)


def is_spent(dealer: Dealer, index: int) -> bool:
    """Whether card ``index`` of the dealer's deck was shown (played or discarded)."""
    return dealer.deck.shown_by(index) is not None


def hand_of(
    decks: Mapping[str, Dealer],
    labels: Sequence[str],
    items: Sequence[Item],
    indices: Sequence[int],
) -> tuple[tuple[int, int], ...]:
    """The victim's cards, ``(deck, face)`` sorted (``deck``: the label's index in ``labels``,
    the node's): the items' cards not yet shown."""
    cards = [
        (labels.index(label), decks[label].deck.face(index))
        for (label, _), index in zip(items, indices, strict=True)
        if not is_spent(decks[label], index)
    ]
    return tuple(sorted(cards))


def position_for(
    decks: Mapping[str, Dealer],
    items: Sequence[Item],
    indices: Sequence[int],
    label: str,
    face: int,
) -> tuple[str, int]:
    """The first item, in order, holding an unspent card ``face`` of deck ``label``: its label
    and position (what a ``spy_take`` names).

    Raises:
        ValueError: no item holds such a card.
    """
    for (name, item), index in zip(items, indices, strict=True):
        dealer = decks[name]
        if name == label and dealer.deck.face(index) == face and not is_spent(dealer, index):
            return name, item.position
    raise ValueError(f"the cards opened hold no unspent card {face} of the {label} deck")


def find(items: Sequence[Item], label: str, position: int) -> int | None:
    """The index in ``items`` of position ``position`` of deck ``label``, None if not there."""
    for j, (name, item) in enumerate(items):
        if name == label and item.position == position:
            return j
    return None


@dataclass(slots=True)
class OpenSpy:
    """A Spy whose cards are opened and not yet taken from, as one peer sees it.

    Attributes:
        record: its record for the audit (the show's).
        labels: the decks shown (the chance node's), by label: a take's deck is an index here.
        items: the cards re-encrypted to the player.
        indices: each item's card index where this peer knows it (the player, the victim),
            else None.
    """

    record: SpyRecord
    labels: tuple[str, ...]
    items: list[Item]
    indices: tuple[int, ...] | None
