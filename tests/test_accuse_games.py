"""A third party's view rebuilt from the journal is every seat's public view, in every game
(PROTOCOL.md §11.1).

A seat whose check of another seat's action fails accuses it instead of stopping only when
that refusal rests on what the others cannot see: :meth:`Session._public_refuses` asks a view
rebuilt from the journal's public face (:meth:`Session.public_view`). That is sound only if the
rebuilt view holds the same public state as the seat's own, in every game, its own rules
modules' state included (Seafarers' ships and fog, Pirate Islands' fleet and fortresses,
Cities & Knights' knights, barbarians and progress cards): else a public refusal would be
accused, and the audit would name the honest accuser. Seeded games of heuristic bots, in
memory, checked every few decisions at every seat.
"""

from __future__ import annotations

import pytest
from test_session import Table, play

from hexlan.engine.core import Seat

GAMES = [
    ("base", 3, "beginner"),
    ("five-six", 5, "random"),
    ("jungle", 3, "beginner"),
    ("big-river", 3, "beginner"),
    ("seafarers-new-shores", 4, "random"),
    ("seafarers-fog-island-3", 3, "random"),
    ("seafarers-pirate-islands", 4, "random"),
    ("cities-and-knights", 3, "beginner"),
]
"""(game, seats, board): one of each rules module, and a fog map (hidden tiles dealt)."""
EVERY = 9
"""Decisions between two checks."""
DECISIONS = 300
"""Decisions a game is checked through (most of a game; the rest adds no new kind of step)."""


def check_every_seat(table: Table) -> int:
    """Assert every seat's rebuilt public view has its view's public hash; the seats checked."""
    checked = 0
    for session in table.sessions:
        view = session.view
        if view is None:
            continue
        public = session.public_view()
        assert public is not None, f"seat {session.seat}: the journal did not replay"
        assert public.public_hash() == view.public_hash(), (session.seat, len(session.journal))
        checked += 1
    return checked


@pytest.mark.parametrize(("game", "players", "board"), GAMES)
def test_the_journal_rebuilds_every_seats_public_view(game: str, players: int, board: str) -> None:
    table = Table(players, seed=3, game=game, board=board)
    table.start()
    decisions = checked = 0

    def stop(seat: Seat, action: object) -> bool:
        nonlocal decisions, checked
        decisions += 1
        if decisions % EVERY == 0:
            table.pump()
            checked += check_every_seat(table)
        return decisions >= DECISIONS

    play(table, stop=stop)
    checked += check_every_seat(table)
    assert checked >= players * 10, checked
    assert not any(s.stopped for s in table.sessions)
