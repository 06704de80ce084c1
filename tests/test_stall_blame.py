"""Whom a stall names when a seat dies (docs/PROTOCOL.md §11, §13): only the dead seat.

A seat's process dies at some point of the decks' set-up (§13: ``deck_key``, ``shuffle``, the
challenge's ``reveal``, ``shuffle_proof``) or of play (a placement, a dice ``reveal``, a
``turn_ack``, a ``steal_commit``, a ``draw_share``): nothing it signs from there on leaves it.
The other seats go on as far as they can; then every one of them must wait on the dead seat
alone (:meth:`~hexlan.net.session.Session.owed_steps`, ``waiting_on``), and their abandonment
votes (§11) must end the game naming it. A stall that also named a live, honest seat (a seat
after the dead one in the shuffle order, say, whose step waits on the dead seat's) would let
the vote name that seat too.

The table is :class:`test_session.Table` with every seat's proof work held as
:class:`~hexlan.net.effects.Compute` jobs, run at seeded moments among the deliveries and the
decisions (as a networked peer runs them in worker threads, while set-up placement goes on). In
the ``torn`` cases the dead seat's last message reached one live seat only (it died while
sending); the live seats then resend each other what the other's heads lack, as a peer's
anti-entropy does (§8, ``Peer._anti_entropy``).

:class:`ActivationRace` is the one ordering of deliveries, among these, that made a stall name
a live seat (seen between real processes in test_tui_net): a message of the seat just made
active that covered the pending message which made it so, but not the ``advance`` that applied
it (§4's activation).
"""

from __future__ import annotations

import random

import pytest
from test_session import Table

from hexlan.engine.core import Seat
from hexlan.net.effects import Compute, Effect
from hexlan.net.session import OwedStep
from hexlan.net.wire import Body, Envelope

# (kind, n, offset): the dead seat's messages are lost from its n-th message of ``kind`` on
# (offset 0), or from the one after it (offset 1). Its first reveal is the start's (§6), its
# second and third the deck's challenge (§13.6) and the first roll, in the order they came (here
# the challenge first with 3 seats; with 4 the placements end before the last shuffle).
Point = tuple[str, int, int]
SETUP_POINTS: dict[str, Point] = {
    "before its deck_key": ("deck_key", 1, 0),
    "after its deck_key": ("deck_key", 1, 1),
    "before its shuffle": ("shuffle", 1, 0),
    "after its shuffle": ("shuffle", 1, 1),
    "before its second reveal": ("reveal", 2, 0),
    "before its third reveal": ("reveal", 3, 0),
    "before its shuffle_proof": ("shuffle_proof", 1, 0),
    "after its shuffle_proof": ("shuffle_proof", 1, 1),
}
PLAY_POINTS: dict[str, Point] = {
    "before its first placement": ("action", 1, 0),
    "before its third reveal": ("reveal", 3, 0),
    "before its first turn_ack": ("turn_ack", 1, 0),
    "before its steal_commit": ("steal_commit", 1, 0),
    "before its steal_open": ("steal_open", 1, 0),
    "before its draw_share": ("draw_share", 1, 0),
}
SEED = 1


class DyingTable(Table):
    """A table where seat ``dead`` dies at a drop point, and proof work runs late.

    Args:
        players: seats at the table.
        dead: the seat that dies.
        point: ``(kind, n, offset)``, where it dies (see ``SETUP_POINTS``).
        witness: a live seat that still receives the dead seat's first lost message (a torn
            send), or None.
    """

    def __init__(
        self, players: int, dead: Seat, point: Point, witness: Seat | None, seed: int = SEED
    ) -> None:
        super().__init__(players, seed=seed, mode="interleaved")
        for session in self.sessions:
            session.inline_work = False
        self.dead, self.point, self.witness = dead, point, witness
        self.jobs: list[tuple[Seat, Compute]] = []
        self.work = random.Random(f"work {players} {dead} {point} {witness}")

    def cut(self) -> int | None:
        """The dead seat's first lost message (its ``seq``), once it has signed it."""
        kind, n, offset = self.point
        own = self.sessions[self.dead].accepted[self.dead]
        found = [i for i, env in enumerate(own) if env.body.kind == kind]
        return found[n - 1] + offset if len(found) >= n else None

    def died(self) -> bool:
        """Whether the dead seat has died: it signed its first lost message (it dies right
        after, in the middle of sending it when there is a witness)."""
        cut = self.cut()
        return cut is not None and len(self.sessions[self.dead].accepted[self.dead]) > cut

    def deliver(self, seat: Seat, data: bytes) -> None:
        body = Envelope.parse(data).body
        cut = self.cut()
        lost = body.author == self.dead and cut is not None and body.seq >= cut
        if lost and not (body.seq == cut and seat == self.witness):
            return  # it never left the dead seat
        if seat == self.dead and self.died():
            return  # nothing reaches a dead process
        self._carry_out(seat, self.sessions[seat].receive(data, self.now))

    def _handle(self, seat: int, effects: list[Effect]) -> None:
        self.jobs += [(seat, e) for e in effects if isinstance(e, Compute)]
        super()._handle(seat, [e for e in effects if not isinstance(e, Compute)])

    def live(self) -> list[Seat]:
        """The seats that never die."""
        return [s for s in range(len(self.sessions)) if s != self.dead]

    def running(self) -> list[Seat]:
        """The seats that still decide and work: the dead one until it dies."""
        return self.live() if self.died() else list(range(len(self.sessions)))

    def settle(self, *, resend: bool = True) -> None:
        """Deliveries, late proof work and the live seats' decisions, in a seeded order, until
        none is left (or a seat stopped, or every live seat's game is over); then (with ``resend``) the live seats resend each other what they lack,
        and again."""
        rng = self.work
        while True:
            for _ in range(5000):
                if any(s.stopped for s in self.sessions) or all(
                    self.sessions[s].is_over for s in self.live()
                ):
                    return
                running = self.running()
                due = [s for s in running if self.sessions[s].decision_due()]
                jobs = [i for i, (s, _) in enumerate(self.jobs) if s in running]
                choices = [c for c, ok in (("msg", self._queue), ("job", jobs), ("act", due)) if ok]
                if not choices:
                    break
                choice = rng.choice(choices)
                if choice == "msg":
                    self.pump(limit=rng.randint(1, 6))
                elif choice == "job":
                    seat, job = self.jobs.pop(rng.choice(jobs))
                    self._carry_out(seat, self.sessions[seat].computed(job.key, job.job()))
                else:
                    seat = rng.choice(due)
                    self.act(seat, self.bots[seat].choose(self.sessions[seat].view, seat))
            if not resend or not self.resend():
                return

    def resend(self) -> bool:
        """Each live seat sends every other one what that seat's heads show it lacks (§8, as
        ``Peer._anti_entropy`` does); whether anything was sent."""
        resent = [
            (a, data)
            for a in self.live()
            for b in self.live()
            if a != b
            for data in self.sessions[b].missing_for(self.sessions[a].heads())
        ]
        for seat, data in resent:
            self._carry_out(seat, self.sessions[seat].receive(data, self.now))
        return bool(resent)


def check_only_the_dead_seat_is_named(table: DyingTable) -> None:
    """Every live seat waits on the dead seat alone, and their votes end the game naming it."""
    dead = table.dead
    assert table.died(), f"seat {dead} never reached {table.point}: it did not die"
    assert table.problems() == []
    for seat in table.live():
        session = table.sessions[seat]
        owed = session.owed_steps()
        assert owed, f"seat {seat} waits for nothing, yet the game is stuck"
        assert {o.seat for o in owed} == {dead}, f"seat {seat}'s stall names {owed}"
        assert set(session.waiting_on()) <= {dead}
    later = 1000.0
    for seat in table.live():
        table._carry_out(seat, table.sessions[seat].abandon([dead], later))
    table.pump()
    for seat in table.live():
        assert table.sessions[seat].abandoned == (dead,)


@pytest.mark.parametrize(
    ("players", "dead"), [(players, dead) for players in (3, 4) for dead in range(players)]
)
@pytest.mark.parametrize("point", list(SETUP_POINTS))
def test_a_seat_dying_in_the_deck_set_up_is_the_only_one_named(
    players: int, dead: Seat, point: str
) -> None:
    """Any seat dies during the set-up: the first shuffler (seat 0, whose shuffle every later
    one waits on), one in the middle, or the last (whose shuffle_proof is the last set-up
    step); the live seats that wait on its step are never named, only the dead seat."""
    table = DyingTable(players, dead, SETUP_POINTS[point], None)
    table.start()
    table.settle()
    check_only_the_dead_seat_is_named(table)


@pytest.mark.parametrize(
    "point", ["after its deck_key", "after its shuffle", "after its shuffle_proof"]
)
@pytest.mark.parametrize(
    ("dead", "witness"),
    [(dead, witness) for dead in range(3) for witness in range(3) if witness != dead],
)
def test_a_torn_last_message_in_the_set_up_names_only_the_dead_seat(
    point: str, dead: Seat, witness: Seat
) -> None:
    """The dead seat's last message reached one live seat only; once the live seats have resent
    each other what they lack (§8), they name the dead seat alone."""
    table = DyingTable(3, dead, SETUP_POINTS[point], witness)
    table.start()
    table.settle()
    check_only_the_dead_seat_is_named(table)


@pytest.mark.parametrize(("point", "dead"), [(p, d) for p in PLAY_POINTS for d in (0, 2)])
def test_a_seat_dying_in_play_is_the_only_one_named(point: str, dead: Seat) -> None:
    table = DyingTable(3, dead, PLAY_POINTS[point], None)
    table.start()
    table.settle()
    check_only_the_dead_seat_is_named(table)


class ActivationRace(Table):
    """The race seen between real processes (test_tui_net, once in six CI runs), made exact.

    Seed 6 makes seat 1 the first to place. Seat 0 orders the start event's reveals (it is the
    sequencer until the board is laid); seat 2's reveal is the last, so the ``advance`` of seat
    0 that applies it makes seat 1 active. Seat 1 signs its shuffle after seat 2's reveal but
    before that ``advance`` reaches it, and dies at once; the shuffle reaches seat 2 before
    the ``advance`` does (seat 0's messages are slow to go out). Seat 0 held the ``advance``
    first: under the old rule it took seat 1's shuffle as sequencing (its heads cover the
    activating reveal) and applied it at once, while seat 2 held it pending, so seat 0 waited
    on seat 2's shuffle alone, a step seat 2 could not take (§4).
    """

    def __init__(self) -> None:
        super().__init__(3, seed=6)
        self.held: list[tuple[Seat, bytes]] = []

    def _has(self, seat: Seat, author: Seat, kind: str) -> bool:
        return any(env.body.kind == kind for env in self.sessions[seat].accepted[author])

    def _holds(self, seat: Seat, body: Body) -> bool:
        if body.author != 0 or seat == 0:
            return False
        if body.kind == "shuffle":  # seat 1 shuffles once seat 2's reveal is in
            return seat == 1 and not self._has(1, 2, "reveal")
        reveal = next(
            (e.body.seq for e in self.sessions[0].accepted[2] if e.body.kind == "reveal"), None
        )
        ordering = reveal is not None and body.heads[2][0] >= reveal
        return ordering and not self._has(2, 1, "shuffle")

    def pump(self, limit: int | None = None) -> None:
        while self._queue:
            seat, data = self._queue.popleft()
            body = Envelope.parse(data).body
            last = body.author == 1 and body.kind == "shuffle"
            if self._has(1, 1, "shuffle") and 1 in (seat, body.author) and not last:
                continue  # seat 1 is dead: nothing more leaves or reaches it
            if self._holds(seat, body):
                self.held.append((seat, data))
                continue
            self.deliver(seat, data)
            self._queue.extend(self.held)
            self.held = []


def test_a_shuffle_signed_before_its_author_saw_its_activation_waits_everywhere() -> None:
    """§4: the activation is the sequencing message whose application changed the active seat,
    not the pending message inside it; a message of the new active seat that does not cover
    it is pending at every peer, so the two live seats both wait on the dead seat (its
    ``advance``), and neither names the other."""
    table = ActivationRace()
    table.start()
    table.pump()
    dead = table.sessions[1].accepted[1]
    assert [env.body.kind for env in dead][-1] == "shuffle"
    assert table._has(0, 1, "shuffle") and table._has(2, 1, "shuffle")
    for seat in (0, 2):
        session = table.sessions[seat]
        assert session.applied[1] == len(dead) - 2, "the shuffle must wait, pending, everywhere"
        assert {o.seat for o in session.owed_steps()} == {1}, session.owed_steps()
        assert session.waiting_on() == [1]
    for seat in (0, 2):
        table._carry_out(seat, table.sessions[seat].abandon([1], 1000.0))
    table.pump()
    assert [table.sessions[s].abandoned for s in (0, 2)] == [(1,), (1,)]


class VictoryDeath(DyingTable):
    """A table whose dead seat dies as it claims a victory every seat can see (its points are
    public): it signs ``RevealVictory`` and nothing leaves it."""

    def cut(self) -> int | None:
        own = self.sessions[self.dead].accepted[self.dead]
        claims = (
            i
            for i, env in enumerate(own)
            if env.body.kind == "action" and env.body.payload[0][0] == "RevealVictory"
        )
        return next(claims, None)


def test_a_winner_dying_before_its_claim_is_named_for_the_victory() -> None:
    """The engine waits for the winner's claim (a ``victory`` reveal, §5): a winner that stops
    there is the seat every other one names, for its ``victory`` step, and their votes end the
    game as abandoned by it (a claim no description listed would leave a stall naming nobody).
    Seed 13 is one whose winner, seat 0, wins on public points."""
    table = VictoryDeath(3, 0, ("victory", 1, 0), None, seed=13)
    table.start()
    table.settle()
    for seat in table.live():
        assert table.sessions[seat].owed_steps() == [OwedStep(0, "victory")]
    check_only_the_dead_seat_is_named(table)
