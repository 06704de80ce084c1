"""Cities & Knights tables in memory played by heuristic bots up to a chosen decision, a forged
message given to the other seats, and the checks that follow (the others stop naming its
author; an honest card is shown before it is played), for the tests of the progress cards
between sessions (``test_progress_cards_net``, ``test_progress_hands_net``).

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

import random
from typing import TypeVar

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import make_bot
from hexlan.engine.info import InformationState
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.net.inproc import InProcessTable
from hexlan.net.wire import Envelope

GAME = "cities-and-knights"

Chosen = TypeVar("Chosen", bound=Action)


def at_a_decision(
    seed: int,
    kind: type[Chosen],
    *,
    seats: int = 4,
    card: str | None = None,
    hoard: bool = False,
) -> tuple[InProcessTable, int, Chosen]:
    """A ``seats``-seat table (2 to 4; seats named ``a``, ``b``, ...) dealt by ``seed``, whose
    heuristic bots (seeded by their seat) play until one chooses an action of ``kind``; the
    table, that seat and the action, not made.

    With ``card`` (``kind`` is :class:`PlayProgress`), only a play of the progress card so named
    in the rule set's decks counts. With ``hoard`` the bots never play a progress card (they roll
    or end the turn instead), so their hands fill up. Fails (AssertionError) if the game ends
    first."""
    table = InProcessTable(list("abcd"[:seats]), seed=seed, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(seats)]
    table.start()
    while True:
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = table.sessions[seat].view
        assert view is not None and not view.is_over, f"no {card or kind.__name__} was chosen"
        action = bots[seat].choose(view, seat)
        if isinstance(action, kind) and (card is None or _card_name(view, action) == card):
            return table, seat, action
        if hoard and isinstance(action, PlayProgress):
            legal = view.legal_actions(seat)
            action = A.END_TURN if A.END_TURN in legal else A.ROLL
            assert action in legal, "a card play with neither a roll nor an end open"
        table.submit(seat, action)


def _card_name(view: InformationState, action: Action) -> str | None:
    """The name of the progress card ``action`` plays (None: not a card play)."""
    if not isinstance(action, PlayProgress):
        return None
    names: list[tuple[str, ...]] = view.variant.card_names  # type: ignore[union-attr]
    return names[action.track][action.face]


def others_receive(table: InProcessTable, author: int, data: bytes) -> None:
    """Every seat of ``table`` but ``author`` receives the message ``data`` (signed by
    ``author``: a forged one, say) and acts on it."""
    for seat, session in enumerate(table.sessions):
        if seat != author:
            table._handle(seat, session.receive(data))


def assert_others_stop(table: InProcessTable, culprit: int, *words: str) -> None:
    """Every seat of ``table`` but ``culprit`` stopped the game naming ``culprit``, for a reason
    holding each of ``words``."""
    for seat, session in enumerate(table.sessions):
        if seat != culprit:
            stop = session.stopped
            assert stop is not None and stop.author == culprit, stop
            assert all(w in stop.reason for w in words), stop.reason


def assert_shown_then_made(table: InProcessTable, seat: int, action: Action) -> None:
    """``seat`` makes ``action`` (a progress card's play or discard) honestly: no seat stops,
    the seat's first messages after it are the card's ``card_reveal`` and then the ``action``,
    and the next seat counts one card fewer in its hand."""
    signed = len(table.logs[seat])
    watcher = table.sessions[(seat + 1) % len(table.sessions)]
    held = progress_of(watcher.view).held(seat)
    table.submit(seat, action)
    assert all(s.stopped is None for s in table.sessions)
    bodies = [Envelope.parse(d).body for d in table.logs[seat][signed:]]
    assert [b.kind for b in bodies if b.author == seat][:2] == ["card_reveal", "action"]
    assert progress_of(watcher.view).held(seat) == held - 1
