"""The barrier before a deck's first reveal (docs/PROTOCOL.md §13.6, §13.7): a seat checks the
shuffle proofs off its critical path, and no card of the deck is opened, by any seat, until
every proof of that deck has passed on that seat.

Each table here is :class:`test_session.Table` (every seat's real session, wired in memory),
with one seat whose proof checks run only when the test lets them: its session emits them as
:class:`~hexlan.net.effects.Compute` jobs, as a networked peer's does, and the test holds them
(a slow machine, made exact). Every other job (its own shuffle) runs at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from ports import free_port
from test_session import Table, play, resign, view_of

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import make_bot
from hexlan.engine.core import Seat
from hexlan.net.effects import Applied, Compute, Effect, Stopped
from hexlan.net.inproc import SeatKeys, make_opening
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.redteam import swap_in_another_card
from hexlan.net.wire import Envelope, Opening


class SlowChecks(Table):
    """A table whose seat ``slow`` checks the shuffle proofs only in :meth:`finish_checks`.

    Args:
        players: seats at the table.
        seed: as :class:`Table`'s.
        slow: the seat whose ``verify:`` jobs are held.
    """

    def __init__(self, players: int, seed: int, slow: Seat) -> None:
        super().__init__(players, seed=seed)
        self.slow = slow
        self.sessions[slow].inline_work = False
        self.held: list[Compute] = []

    def _handle(self, seat: int, effects: list[Effect]) -> None:
        jobs = [e for e in effects if isinstance(e, Compute)]
        super()._handle(seat, [e for e in effects if not isinstance(e, Compute)])
        for job in jobs:
            if job.key.startswith("verify:"):
                self.held.append(job)
            else:  # its own shuffle: no reason to wait
                self._handle(seat, self.sessions[seat].computed(job.key, job.job()))

    def finish_checks(self) -> None:
        """The slow seat's checks return, one by one, and the table settles."""
        while self.held:
            job = self.held.pop(0)
            self._carry_out(self.slow, self.sessions[self.slow].computed(job.key, job.job()))
        self.pump()


def buying(_: Seat, action: Action) -> bool:
    return isinstance(action, A.BuyDevelopmentCard)


def cheating_table(seed: int) -> SlowChecks:
    """Two seats: seat 0 shuffles falsely (``swap-shuffle``), seat 1 checks slowly."""
    table = SlowChecks(2, seed, slow=1)
    swap_in_another_card(table.sessions[0].dealer, target=3, source=7)
    return table


def first_buy(make: Callable[[int], Table], seed: int) -> tuple[Table, Seat, Action] | None:
    """The table ``make(seed)`` started and played up to its first purchase of a development
    card (not made): the table, the buyer and its action; None if nobody buys."""
    table = make(seed)
    table.start()
    found = play(table, stop=buying)
    return None if found is None else (table, *found)


def a_seed_where(make: Callable[[int], Table], buyer: Seat, *, tries: int = 40) -> int:
    """The first seed from 0 whose game on ``make(seed)`` has ``buyer`` buy the first card."""
    for seed in range(tries):
        found = first_buy(make, seed)
        if found is not None and found[1] == buyer:
            return seed
    raise AssertionError(f"no game in {tries} seeds has seat {buyer} buy the first card")


def draws_applied(table: Table, seat: Seat) -> list[Applied]:
    return [
        e
        for e in table.effects[seat]
        if isinstance(e, Applied) and isinstance(e.action, A.DrawCard)
    ]


def signed_shares(table: Table, seat: Seat) -> list[Envelope]:
    envelopes = (Envelope.parse(data) for data in table.logs[seat])
    return [e for e in envelopes if e.body.author == seat and e.body.kind == "draw_share"]


def held_shares(table: Table, seat: Seat) -> int:
    """Shares given by the others that ``seat`` has not accepted (its heads lack them)."""
    heads = table.sessions[seat].heads()
    return sum(
        1
        for other in range(len(table.sessions))
        if other != seat
        for env in signed_shares(table, other)
        if env.body.seq > heads[other][0]
    )


@pytest.fixture(scope="module")
def seed_seat1_buys() -> int:
    return a_seed_where(lambda seed: Table(3, seed=seed), buyer=1)


def test_a_buyer_still_checking_the_proofs_opens_its_card_only_after_they_pass(
    seed_seat1_buys: int,
) -> None:
    """Seat 1 buys the first card while its checks of the others' proofs still run: the
    others' shares (they checked theirs) wait at seat 1, unaccepted and unrefused, the draw
    stays open everywhere, and no stall is blamed on anyone; once its checks pass, seat 1 takes
    the shares, opens its card and the game goes on to its end with the same state everywhere."""
    table = SlowChecks(3, seed_seat1_buys, slow=1)
    table.start()
    found = play(table, stop=buying)
    assert found is not None and found[0] == 1
    seat, action = found
    deck = table.sessions[1].dealer.deck
    assert not deck.ready and table.held  # every shuffle and proof is in; its checks are not
    table.act(seat, action)

    assert len(signed_shares(table, 0)) == len(signed_shares(table, 2)) == 1
    assert held_shares(table, 1) == 2  # waiting, not refused
    assert table.problems() == []
    assert table.sessions[1].dealer.own_cards == {}
    assert all(draws_applied(table, s) == [] for s in range(3))
    assert table.sessions[1].waiting_on() == []  # its own checks hold the game, nobody else
    assert table.sessions[1].tick(1e9) == []

    table.finish_checks()
    assert deck.ready and held_shares(table, 1) == 0
    (draw,) = draws_applied(table, 1)
    assert draw.action.card is not None  # the owner sees its card
    assert table.sessions[1].dealer.own_cards == {0: draw.action.card}
    assert all(len(draws_applied(table, s)) == 1 for s in range(3))
    assert len({view_of(table, s).public_hash() for s in range(3)}) == 1
    assert play(table) is None and not table.held  # the rest of the game: no check left
    assert table.problems() == []
    assert all(s.is_over for s in table.sessions)


def test_a_seat_still_checking_gives_no_share_for_another_buyer(seed_seat1_buys: int) -> None:
    """Seat 0 (slow) owes a share of seat 1's card: it gives it only once its checks pass."""
    table = SlowChecks(3, seed_seat1_buys, slow=0)
    table.start()
    found = play(table, stop=buying)
    assert found is not None and found[0] == 1
    table.act(*found)
    assert signed_shares(table, 0) == [] and len(signed_shares(table, 2)) == 1
    assert all(draws_applied(table, s) == [] for s in range(3))
    table.finish_checks()
    assert len(signed_shares(table, 0)) == 1
    assert all(len(draws_applied(table, s)) == 1 for s in range(3))
    assert table.problems() == []


def test_a_seat_restarted_while_checking_checks_again_and_takes_the_waiting_shares(
    seed_seat1_buys: int,
) -> None:
    """Seat 1 crashes while its checks run and the others' shares wait: they were never
    accepted, so never logged; its resumed session checks every proof again as it replays
    its log, and the shares the others resend (their heads show it lacks them) come in."""
    table = SlowChecks(3, seed_seat1_buys, slow=1)
    table.start()
    found = play(table, stop=buying)
    assert found is not None
    table.act(*found)
    assert held_shares(table, 1) == 2
    logged = [Envelope.parse(d).body.kind for d in table.logs[1]]
    assert "draw_share" not in logged
    table.held.clear()  # the checks die with the process
    table.restart(1)
    table.pump()
    assert table.sessions[1].dealer.deck.ready
    (draw,) = draws_applied(table, 1)
    assert draw.action.card is not None
    assert table.problems() == []


@pytest.fixture(scope="module")
def two_seats_seat1_buys() -> int:
    return a_seed_where(cheating_table, buyer=1)


def test_a_cheating_shuffler_is_named_before_any_card_of_the_deck_is_opened(
    two_seats_seat1_buys: int,
) -> None:
    """Two seats: seat 0 publishes a shuffle that swaps a card for a copy of another
    (``swap-shuffle``); seat 1, still checking, buys the first card. Seat 0 gives its share at
    once, but seat 1 does not take it while its checks run; when they return, seat 1 stops the
    game naming seat 0's shuffle proof, its card never opened and no draw applied anywhere."""
    found = first_buy(cheating_table, two_seats_seat1_buys)
    assert found is not None
    table, seat, action = found
    assert isinstance(table, SlowChecks) and seat == 1
    table.act(seat, action)
    assert len(signed_shares(table, 0)) == 1 and held_shares(table, 1) == 1
    assert table.sessions[1].stopped is None

    table.finish_checks()
    stop = table.sessions[1].stopped
    assert isinstance(stop, Stopped) and stop.author == 0
    assert "seat 0's shuffle proof fails" in stop.reason
    assert table.sessions[1].dealer.own_cards == {}
    assert held_shares(table, 1) == 1  # never accepted
    assert signed_shares(table, 1) == []
    assert all(draws_applied(table, s) == [] for s in range(2))


def test_a_share_that_does_not_list_every_proof_is_refused_naming_its_author(
    seed_seat1_buys: int,
) -> None:
    """Seat 2's share of seat 1's card reaches the others with the heads of its own shuffle
    proof, signed again: a share given before its author had every proof of the deck. Both
    others stop naming seat 2, and seat 1 never opens its card."""
    table = Table(3, seed=seed_seat1_buys)
    table.start()
    found = play(table, stop=buying)
    assert found is not None and found[0] == 1
    (proof,) = [
        Envelope.parse(d)
        for d in table.logs[2]
        if Envelope.parse(d).body.author == 2 and Envelope.parse(d).body.kind == "shuffle_proof"
    ]

    def early(env: Envelope) -> bytes:
        if env.body.author == 2 and env.body.kind == "draw_share":
            return resign(env, table, heads=proof.body.heads)
        return env.to_bytes()

    table.tamper = early
    table.act(*found)
    for seat in (0, 1):
        stop = table.sessions[seat].stopped
        assert stop is not None and stop.author == 2, stop
        assert "before every shuffle proof of it was in" in stop.reason
    assert table.sessions[1].dealer.own_cards == {}
    assert all(draws_applied(table, s) == [] for s in range(3))


# ---------------------------------------------------------------------------- real peers


def loopback_table(seed: int, players: int) -> tuple[Opening, list[SeatKeys]]:
    """A seeded table whose seats listen on free ports of 127.0.0.1."""
    keys = [SeatKeys.seeded(seed, seat) for seat in range(players)]
    base = make_opening([f"P{s}" for s in range(players)], keys, created=0)
    seats = tuple(
        dataclasses.replace(info, host="" if i == 0 else "127.0.0.1", port=free_port("127.0.0.1"))
        for i, info in enumerate(base.seats)
    )
    return dataclasses.replace(base, seats=seats), keys


def hold_checks(peer: Peer, seat: Seat, bought: threading.Event, buyers: list[int]) -> list[float]:
    """Make ``peer``'s proof checks wait in their worker threads until a development card has
    been bought, and 2 s more at the buyer (a slow machine); the times its deck became ready."""
    dealer = peer.session.dealer
    honest, mark_verified = dealer.verification_job, dealer.deck.mark_verified
    ready: list[float] = []

    def held(author: int, responses: Any) -> Callable[[], str | None]:
        job = honest(author, responses)

        def slow_job() -> str | None:
            bought.wait(timeout=60)
            if buyers[:1] == [seat]:
                time.sleep(2.0)
            return job()

        return slow_job

    def verified(author: int) -> None:
        mark_verified(author)
        if dealer.deck.ready:
            ready.append(time.monotonic())

    dealer.verification_job = held  # type: ignore[method-assign]
    dealer.deck.mark_verified = verified  # type: ignore[method-assign]
    return ready


@pytest.mark.slow
def test_real_peers_apply_no_draw_before_their_own_checks_pass(tmp_path: Path) -> None:
    """Three peers on a 127.0.0.1 TCP mesh, heuristic bots. Every seat's proof checks wait in
    their worker threads until a development card has been bought, the buyer's 2 s more (a
    slow machine): the game goes on meanwhile; the others give their shares once their own
    checks pass, and the buyer applies the draw only after its own have passed; the game then
    plays on to its end, the same everywhere, its audit passed."""
    opening, keys = loopback_table(3, 3)
    bought = threading.Event()
    buyers: list[int] = []
    draws: list[list[float]] = [[], [], []]

    def on_event(seat: int) -> Callable[[PeerEvent], None]:
        def note(event: PeerEvent) -> None:
            if event.kind != "applied":
                return
            if isinstance(event.action, A.BuyDevelopmentCard) and event.author is not None:
                if not buyers:
                    buyers.append(event.author)
                bought.set()
            elif isinstance(event.action, A.DrawCard):
                draws[seat].append(time.monotonic())

        return note

    peers = []
    for seat in range(3):
        bot = make_bot("heuristic", random.Random(seat))
        peers.append(
            Peer(
                seat,
                keys[seat].identity,
                opening,
                keys[seat].chain,
                keys[seat].game_keys,
                tmp_path / f"seat{seat}.log",
                lambda view, s, bot=bot: bot.choose(view, s),
                on_event(seat),
                host_address="127.0.0.1",
                listen_host="127.0.0.1",
                kind="bot heuristic",
            )
        )
    ready = [hold_checks(peer, seat, bought, buyers) for seat, peer in enumerate(peers)]

    async def play() -> list[Any]:
        # Three peers share this loop's default executor (as many threads as cores + 4): their
        # six held checks would fill it on two cores, and the work the game needs meanwhile
        # (log syncs, shares) would wait for the timeout. Each real peer has its own.
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(16))
        return await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), 120)

    results = asyncio.run(play())
    assert buyers and all(draws) and all(ready)
    for seat in range(3):
        assert ready[seat][0] < draws[seat][0], f"seat {seat} applied a draw before its checks"
    buyer = buyers[0]
    others_ready = max(ready[s][0] for s in range(3) if s != buyer)
    assert others_ready < ready[buyer][0]  # the others' shares were there before its checks
    finals = {(r.winner, r.state_hash) for r in results}
    assert len(finals) == 1
    assert all(r.stopped is None and r.audit == "passed" for r in results), results
