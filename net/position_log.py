"""`hexlan position LOG --at N`: the position after a log's N-th action, as text
(:mod:`hexlan.engine.position`; docs/POSITION.md).

The log is read and replayed as `hexlan replay` reads it (:func:`hexlan.net.replay.read_timeline`:
every signature, chain, beacon output and move checked); the position is then written from the
state after ``N`` of its actions: the full game where the log holds a passed end-of-game audit
(every hidden card known), else only the public position (what a third party saw).
"""

from __future__ import annotations

import os

from hexlan.engine.core import NO_SEAT, Seat
from hexlan.engine.position import to_position
from hexlan.net.replay import Replayer, ReplayError, read_timeline


def log_position(
    path: str | os.PathLike[str], at: int, *, public: bool = False, seat: Seat | None = None
) -> str:
    """The position after ``at`` actions of the game in the log at ``path``.

    Args:
        path: a game log.
        at: how many of the log's applied actions to play, 0 (the opening) .. their number.
        public: the public position (a spectator's), which needs no audit.
        seat: the position seat ``seat`` knew (its cards and the public state; needs the audit,
            as a reader of the log knows no seat's cards without it).

    Raises:
        ReplayError: in one line, a file that is not a readable log (as
            :func:`~hexlan.net.replay.read_timeline`), ``at`` outside the log, a seat not at the
            table, or a full or seat position of a log without a passed audit.
    """
    timeline = read_timeline(path)
    count = len(timeline.steps)
    if not 0 <= at <= count:
        raise ReplayError(f"--at {at} is outside 0 .. {count} (the log holds {count} actions)")
    if seat is not None and not 0 <= seat < timeline.players:
        raise ReplayError(f"seat {seat} is not at this table of {timeline.players}")
    if timeline.resolved is None and (seat is not None or not public):
        what = f"seat {seat}'s" if seat is not None else "the full"
        raise ReplayError(
            f"this log holds no passed audit, so {what} position is not known: try --public"
        )
    cursor = Replayer(timeline, NO_SEAT)
    cursor.seek(at)
    full = cursor.full
    if seat is not None:
        assert full is not None
        return to_position(full, seat=seat)
    if public:
        return to_position(cursor.seat_view, public=True)
    assert full is not None
    return to_position(full)


__all__ = ["log_position"]
