"""The Pirate Islands fleet's loot over the protocol (PROTOCOL.md §7.1; seed 004 «Нападение
пиратов»: «Карты сырья вытаскивает из руки игрока любой его соперник»): the attacked seat commits
to its hand, the beacon draws the positions, and it opens them to everyone.

Real sessions of a 3-seat table wired in memory (:class:`~hexlan.net.inproc.InProcessTable`),
heuristic bots deciding, until the fleet's first loot: every seat applies the same cards; a seat
whose opening does not match its commitment is named by every peer. The whole game, audited and
verified, is tests/test_rules_pirate_islands.py's networked test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from hexlan.engine.bots import make_bot
from hexlan.engine.chance import HAND_DRAW
from hexlan.engine.variants.pirate_islands import FleetLoot
from hexlan.net.audit import JournalEntry
from hexlan.net.effects import Effect
from hexlan.net.inproc import InProcessTable
from hexlan.net.session import Session
from hexlan.net.steal import (
    CommittedHand,
    check_opening,
    commit_hand,
    draw_positions,
)

GAME = "seafarers-pirate-islands-3"
SEED = 3
LIMIT = 3000
"""Decisions at most before the first loot (it comes within a few dozen at this seed)."""


def loot_entries(session: Session) -> list[JournalEntry]:
    return [e for e in session.journal if isinstance(e.action, FleetLoot)]


def play_until_loot(table: InProcessTable) -> None:
    """Let heuristic bots decide until a seat's session has applied a fleet's loot or stopped,
    or until the fleet's loot is due (a hand draw waits) and nothing moves."""
    bots = [make_bot("heuristic", random.Random(s)) for s in range(len(table.sessions))]
    table.start()
    for _ in range(LIMIT):
        sessions = table.sessions
        if any(loot_entries(s) or s.stopped is not None for s in sessions):
            return
        seat = next((s.seat for s in sessions if s.decision_due()), None)
        assert seat is not None, "the table waits for nobody before the loot"
        view = sessions[seat].view
        assert view is not None
        table.submit(seat, bots[seat].choose(view, seat))
    raise AssertionError(f"no fleet's loot in {LIMIT} decisions")


def sign_wrapper(
    session: Session, change: Callable[[tuple[object, ...]], tuple[object, ...]]
) -> None:
    """Make ``session`` sign its first ``loot_open`` with ``change`` applied to the payload (an
    instance attribute over the method, as net/redteam.py does)."""
    honest = session.sign
    done = False

    def sign(kind: str, payload: tuple[object, ...], effects: list[Effect]) -> None:
        nonlocal done
        if kind == "loot_open" and not done:
            done = True
            payload = change(payload)
        honest(kind, payload, effects)

    session.sign = sign  # type: ignore[method-assign]


def test_the_fleets_loot_is_drawn_from_the_commitment_and_every_seat_agrees() -> None:
    """The victim's commitment, the beacon's positions and its public openings give one loot:
    every seat's journal holds the same ``FleetLoot`` from the same message, the cards are the
    openings of the committed positions, and every view's public state agrees."""
    table = InProcessTable(["a", "b", "c"], seed=SEED, game=GAME)
    seen: list[tuple[int, tuple[object, ...]]] = []
    held: list[int] = []  # the victim's hand when it opens, before the loot leaves it
    for session in table.sessions:

        def record(payload: tuple[object, ...], seat: int = session.seat) -> tuple[object, ...]:
            seen.append((seat, payload))
            view = table.sessions[seat].view
            assert view is not None
            held.append(view.hand_size[seat])
            return payload

        sign_wrapper(session, record)
    play_until_loot(table)
    table.pump()
    assert all(s.stopped is None for s in table.sessions)
    entries = [loot_entries(s) for s in table.sessions]
    assert all(len(e) == 1 for e in entries)
    first = entries[0][0]
    assert all(e[0] == first for e in entries)  # the same action, message and record everywhere
    assert first.author is None and first.loot is not None  # a chance outcome, not a decision
    record = first.loot
    assert isinstance(first.action, FleetLoot) and 1 <= sum(first.action.cards) <= 3
    [(victim, (number, openings))] = seen  # only the attacked seat opened
    assert victim == record.victim and number == record.steal
    assert len(openings) == sum(first.action.cards)  # type: ignore[arg-type]
    cards = [0] * 5
    for salt, card in openings:  # type: ignore[attr-defined]
        assert any(
            check_opening(c, table.opening.game_id, number, salt, card) for c in record.commitments
        )  # type: ignore[arg-type]
        cards[card] += 1
    assert tuple(cards) == first.action.cards
    views = [s.view for s in table.sessions]
    assert all(v is not None for v in views)
    hashes = {v.public_hash() for v in views if v is not None}
    assert len(hashes) == 1
    assert held == [len(record.commitments)]  # the commitment covered the whole hand


def test_a_forged_loot_opening_names_the_seat_that_sent_it() -> None:
    """The attacked seat opens a committed position with another card than it committed to
    (the salt kept): every other seat stops the game naming it."""
    table = InProcessTable(["a", "b", "c"], seed=SEED, game=GAME)

    def forge(payload: tuple[object, ...]) -> tuple[object, ...]:
        number, openings = payload
        (salt, card), *rest = openings  # type: ignore[misc]
        return number, ((salt, (card + 1) % 5), *rest)

    for session in table.sessions:
        sign_wrapper(session, forge)
    play_until_loot(table)
    table.pump()
    views = [s.view for s in table.sessions]
    assert views[0] is not None
    node = views[0].chance_node()
    assert node is not None and node.kind == HAND_DRAW  # the loot never applied
    victim = node.seats[0]
    assert not any(loot_entries(s) for s in table.sessions)
    for session in table.sessions:
        stopped = session.stopped
        assert stopped is not None and stopped.author == victim
        assert "does not match its commitment" in stopped.reason


def test_draw_positions_draws_distinct_positions_without_replacement() -> None:
    """PROTOCOL.md §7.1: ``n`` distinct positions; each ``u`` picks among those left, so every
    position can come out, and a count outside 1..size is refused."""
    rng = random.Random(0)
    seen = set()
    for _ in range(200):
        drawn = draw_positions(rng.randrange, 6, 3)
        assert len(set(drawn)) == 3 and all(0 <= p < 6 for p in drawn)
        seen.update(drawn)
    assert seen == set(range(6))
    assert draw_positions(lambda k: k - 1, 4, 4) == (3, 2, 1, 0)  # the last left each time
    for size, count in ((3, 0), (3, 4), (0, 0)):
        with pytest.raises(ValueError, match="cannot draw"):
            draw_positions(rng.randrange, size, count)


@pytest.mark.slow
def test_a_loot_commitment_to_a_hand_not_held_is_named_by_the_audit() -> None:
    """The attacked seat commits its hand with salts and an order of its choosing (not those its
    seed gives: the order could tell the kinds apart) and opens consistently: the game goes on
    (the openings match what it committed), and the end-of-game audit names it at its
    commitment (PROTOCOL.md §7.1, §14)."""
    table = InProcessTable(["a", "b", "c"], seed=SEED, game=GAME)
    faked: list[tuple[int, int]] = []
    for session in table.sessions:
        honest = session.openings.own_committed_hand

        def own_hand(
            number: int,
            session: Session = session,
            honest: Callable[[int], CommittedHand] = honest,
        ) -> CommittedHand:
            view = session.view
            assert view is not None
            node = view.chance_node()
            key = (session.seat, number)
            if key in faked or (not faked and node is not None and node.kind == HAND_DRAW):
                if key not in faked:
                    faked.append(key)
                cards = [r for r, n in enumerate(view.hands[session.seat]) for _ in range(n)]
                salts = [bytes(15) + bytes((i,)) for i in range(len(cards))]  # not its seed's
                order = list(range(len(cards)))
                return commit_hand(table.opening.game_id, number, cards, order, salts)
            return honest(number)

        session.openings.own_committed_hand = own_hand  # type: ignore[method-assign]
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(3)])
    [(cheat, number)] = faked
    for session in table.sessions:
        assert session.stopped is None and session.audit is not None
        deviation = session.audit.deviations[0]
        assert deviation.seat == cheat
        assert f"committed to a hand it did not hold (steal {number})" in deviation.reason
