"""A hand opened to one seat, and cards taken from it by position (the Cities & Knights Master
Merchant; PROTOCOL.md §7.2): the pure steps the session takes.

The victim commits to its hand as for a steal (``steal_commit``, §7: seed-derived order and
salts, so a position tells nobody which kind it holds), then seals every opening to the player
(``hand_open``, :func:`~hexlan.net.steal.seal_hand`). The player reads and checks them
(:func:`~hexlan.net.steal.open_hand`) and names the positions of the cards it takes
(``merchant_take``): public positions, private kinds.
"""

from __future__ import annotations

from collections.abc import Sequence

from hexlan.engine.core import Hand, as_hand

Openings = Sequence[tuple[bytes, int]]
"""A committed hand's openings, ``(salt, card kind)`` per position."""


def positions_for(openings: Openings, taken: Hand) -> tuple[int, ...]:
    """The first positions, in order, that hold the cards ``taken`` (a hand by kind).

    Raises:
        ValueError: the openings do not hold those cards.

    >>> positions_for([(b"", 3), (b"", 0), (b"", 3)], (1, 0, 0, 1, 0))
    (0, 1)
    """
    left = list(taken)
    result = []
    for position, (_, kind) in enumerate(openings):
        if kind < len(left) and left[kind]:
            left[kind] -= 1
            result.append(position)
    if any(left):
        raise ValueError(f"the hand opened does not hold {tuple(taken)}")
    return tuple(result)


def taken_at(openings: Openings, positions: Sequence[int], kinds: int) -> Hand:
    """The cards at ``positions``, as a hand of ``kinds`` counts.

    >>> taken_at([(b"", 3), (b"", 0), (b"", 3)], (2, 1), 5)
    (1, 0, 0, 1, 0)
    """
    hand = [0] * kinds
    for position in positions:
        hand[openings[position][1]] += 1
    return as_hand(hand)


def why_bad_positions(positions: Sequence[int], size: int, count: int) -> str | None:
    """Why the positions named for a take are refused (None: they are ``count`` distinct
    positions of a hand of ``size`` cards)."""
    if len(positions) != count:
        return f"names {len(positions)} positions, not {count}"
    if len(set(positions)) != len(positions) or not all(0 <= p < size for p in positions):
        return f"names positions {list(positions)} that are not distinct positions of {size}"
    return None
