"""The pieces and queues the board progress cards (:mod:`.progress_board`) leave on the table:
the merchant, the Bishop's victims, the Deserter's knight, the Inventor's swaps. One object in
:attr:`~.progress.Progress.board`, public and in every hash."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexlan.engine.core import NO_SEAT, HexId, Seat

if TYPE_CHECKING:
    from hexlan.engine.variants.cities_knights.progress import Knight


@dataclass(slots=True)
class BoardCards:
    """What these cards leave on the table (all public), kept in
    :attr:`~.progress.Progress.board`.

    Attributes:
        merchant: the hex the merchant stands on (-1: not on the board yet).
        merchant_seat: its holder (-1: nobody).
        bishop: seats the Bishop's player still robs, in turn order.
        deserter: the seat that must remove a knight for a Deserter (-1: none).
        deserted: the knight the Deserter's player may place (its seat, level and active
            state), or None.
        swaps: the pairs of hexes whose number tokens the Inventor swapped, in order (the
            board's tokens are the state's board; these put them in the public hash).
    """

    merchant: HexId = -1
    merchant_seat: Seat = NO_SEAT
    bishop: list[Seat] = field(default_factory=list)
    deserter: Seat = NO_SEAT
    deserted: Knight | None = None
    swaps: list[tuple[HexId, HexId]] = field(default_factory=list)

    def copy(self) -> BoardCards:
        """An independent copy."""
        return BoardCards(
            self.merchant,
            self.merchant_seat,
            self.bishop[:],
            self.deserter,
            self.deserted,
            self.swaps[:],
        )

    def public_dict(self) -> dict[str, Any]:
        """As plain data."""
        deserted = self.deserted
        return {
            "merchant": [self.merchant, self.merchant_seat],
            "bishop": self.bishop[:],
            "deserter": self.deserter,
            "deserted": None
            if deserted is None
            else [deserted.seat, deserted.level, deserted.active],
            "swaps": [list(pair) for pair in self.swaps],
        }
