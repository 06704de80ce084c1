"""Cities & Knights' progress in a position (docs/POSITION.md): the ``variant.NAME`` fields of
:class:`~.progress.Progress` (``board.NAME``: its :class:`~.board_state.BoardCards`), the
progress cards as ``hidden.variant.NAME`` in a full position, and in a public or seat position
what a spectator or the seat knows of them (``variant.held``, ``unseen.progress``,
``own.progress_cards``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hexlan.engine import position_fields as F
from hexlan.engine.core import NO_SEAT, Seat, Terrain
from hexlan.engine.variants.cities_knights.actions import TRACKS
from hexlan.engine.variants.cities_knights.progress import Knight, Progress, Retreat


def _knight_write(k: Knight) -> F.Json:
    return [k.seat, k.level, k.active]


def _knight_read(v: F.Json, s: F.Shape) -> Knight:
    seat, level, active = F.read_list(v, 3, "knight fields (seat, level, active)")
    return Knight(F.read_seat(s, seat, False), F.read_count(level), F.read_bool(active))


def _knights_read(v: F.Json, s: F.Shape) -> dict[int, Knight]:
    knights = {}
    for item in F.read_list(v):
        node, *knight = F.read_list(item, 4, "knight fields (intersection, seat, level, active)")
        knights[F.read_below(node, s.nodes, "intersection")] = _knight_read(knight, s)
    return knights


def _retreat_read(v: F.Json, s: F.Shape) -> Retreat:
    *knight, node = F.read_list(v, 4, "retreat fields (seat, level, active, intersection)")
    return Retreat(_knight_read(knight, s), F.read_below(node, s.nodes, "intersection"))


def _fixed(length: int) -> F.Codec:
    """A tuple of ``length`` whole numbers, written as a list."""
    return F.Codec(list, lambda v, s: tuple(F.read_int(x) for x in F.read_list(v, length, "items")))


PROGRESS_FIELDS: Final[Mapping[str, F.Codec]] = {
    "levels": F.SEAT_LISTS,
    "walls": F.SEAT_LISTS,
    "defenders": F.SEAT_INTS,
    "points": F.SEAT_INTS,
    "drawn": F.INTS,
    "choosing": F.SEAT_LIST,
    "draws": F.TUPLES,
    "over_limit": F.SEAT,
    "free_promotions": F.COUNT,
    "crane": F.BOOL,
    "fleet": F.optional(_fixed(2)),
    "wedding": F.SEAT_LIST,
    "harbor": F.SEAT_LIST,
    "harbor_offer": F.INT,
    "monopolised": F.BOOL,
    "showing": F.optional(_fixed(3)),
    "unheld": F.Codec(
        lambda rows: [sorted(row) for row in rows],
        lambda v, s: tuple(
            frozenset(F.read_count(x) for x in F.read_list(row)) for row in F.read_list(v)
        ),
    ),
    "merchant": F.SEAT,
    "spy": F.SEAT,
    "metropolis": F.INTS,
    "metropolis_seat": F.Codec(list, lambda v, s: [F.read_seat(s, x) for x in F.read_list(v)]),
    "knights": F.Codec(
        lambda d: [[n, *_knight_write(k)] for n, k in sorted(d.items())], _knights_read
    ),
    "fresh": F.SET,
    "promoted": F.SET,
    "barbarians": F.COUNT,
    "arrived": F.BOOL,
    "pillage": F.SEAT_LIST,
    "retreat": F.optional(F.Codec(lambda r: [*_knight_write(r.knight), r.node], _retreat_read)),
    "aqueduct": F.SEAT_LIST,
    "hands_before": F.INTS,
    "board.merchant": F.HEX,
    "board.merchant_seat": F.SEAT,
    "board.bishop": F.SEAT_LIST,
    "board.deserter": F.SEAT,
    "board.deserted": F.optional(F.Codec(_knight_write, _knight_read)),
    "board.swaps": F.TUPLES,
}
"""The public progress, ``variant.NAME`` in every form."""

_POOL: Final = F.Codec(
    F.lists, lambda v, s: [[F.read_count(x) for x in F.read_list(row)] for row in F.read_list(v)]
)
"""Per track, a count per face (the progress cards not seen)."""

PROGRESS_HIDDEN: Final[Mapping[str, F.Codec]] = {
    "cards": F.Codec(
        lambda rows: [[list(c) for c in row] for row in rows], F.per_seat(F.read_tuples)
    ),
    "unknown": F.SEAT_LISTS,
    "pool": _POOL,
}
"""The progress cards, ``hidden.variant.NAME`` in a full position: each seat's as ``[track,
face]``, each seat's unseen ones per track (0s: the full state sees every card), each track's
deck per face."""

_HELD: Final = F.Codec(
    F.lists,
    lambda v, s: [
        [F.read_count(x) for x in F.read_list(r, len(TRACKS), "tracks")]
        for r in F.read_list(v, s.players, "seats")
    ],
)
"""Per seat, its progress cards held per track (public counts)."""


def _unseen(progress: Progress) -> list[list[int]]:
    """The progress cards a spectator has not seen, per track and face."""
    pool = [row[:] for row in progress.pool]
    for row in progress.cards:
        for track, face in row:
            pool[track][face] += 1
    return pool


class ProgressPosition(F.ProgressFields[Progress]):
    """How a position writes Cities & Knights' progress: a spectator knows each seat's
    progress cards held per track, a seat its own cards too; the board in play has the
    Inventor's swaps."""

    def write_view(self, progress: Progress, seat: Seat | None, lines: dict[str, F.Json]) -> None:
        """``variant.held``, ``unseen.progress`` (the cards the spectator or the seat has not
        seen) and, for a seat, ``own.progress_cards`` (sorted)."""
        lines["variant.held"] = [
            [progress.held(s, t) for t in range(len(TRACKS))] for s in range(len(progress.cards))
        ]
        cards = _unseen(progress)
        if seat is not None:
            own = sorted(progress.cards[seat])
            lines["own.progress_cards"] = [list(c) for c in own]
            for track, face in own:
                cards[track][face] -= 1
        lines["unseen.progress"] = cards

    def read_view(self, progress: Progress, seat: Seat, players: int, take: F.Take) -> None:
        """What :meth:`write_view` wrote: the others' cards all unseen (counts per track), the
        seat's own known."""
        held = take("variant.held", _HELD)
        progress.pool = take("unseen.progress", _POOL)
        if seat != NO_SEAT:
            progress.cards[seat] = take("own.progress_cards", F.TUPLES)
        for s in range(players):
            if s != seat:
                progress.unknown[s] = held[s]
                progress.cards[s] = []
            else:
                progress.unknown[s] = [0] * len(TRACKS)

    def board_in_play(self, progress: Progress, terrains: list[Terrain], tokens: list[int]) -> None:
        """The number tokens the Inventor swapped, in order."""
        for first, second in progress.board.swaps:
            tokens[first], tokens[second] = tokens[second], tokens[first]


POSITION: Final = ProgressPosition(PROGRESS_FIELDS, PROGRESS_HIDDEN)
"""Cities & Knights' :attr:`~hexlan.engine.variants.base.Variant.position_fields`."""
