"""An abandonment ends when a seat dies after a torn last message (docs/PROTOCOL.md §11).

The dead seat's last message reached one live seat only (it died while sending it). The live
seats' stalls then differ until they resend each other what they lack (§8, anti-entropy): a
vote signed before that names a step, or heads, that the seats holding the message have since
passed, and it is void there, and at its own signer once the message reaches it. Every vote
signed by a seat whose view was behind is void; a shell that signed again only when its set of
stalled seats changed would wait forever with every live seat. The rule (§11,
:meth:`~hexlan.net.session.Session.vote_void`): a seat whose own vote no longer stands signs a
new one for the seats still stalled.

The live seats here behave as ``Peer._tick`` does with ``abandon_after`` set (a bot left alone
at the table): each names the seats it stalls on (the automatic steps, and the dead seat's
decision, since it is not connected) and signs when that set changes or its vote is void, and
only on a stall it reported a round before (each report resends everything the others lack:
the torn message reaches every live seat before any votes, §11).
"""

from __future__ import annotations

import pytest
from test_stall_blame import PLAY_POINTS, SETUP_POINTS, DyingTable, Point

from hexlan.engine.core import IllegalActionError, Seat
from hexlan.net.session import AUTOMATIC_TIMEOUT

ROUNDS = 4
"""Rounds of votes, deliveries and resends within which the game must end."""


class Shells:
    """The abandonment part of each live seat's shell (``Peer._stalled`` and ``Peer._tick``).

    Args:
        table: the table.
        revote: whether a seat signs again when its own vote is void (the §11 rule); without
            it, only when its stalled seats change (the rule before).
        report_first: whether a seat votes only on a stall it reported (and resent
            everything for) a round before (the §11 rule); without it, at once (the rule
            before).
    """

    def __init__(
        self, table: DyingTable, *, revote: bool = True, report_first: bool = True
    ) -> None:
        self.table, self.revote, self.report_first = table, revote, report_first
        self.voted_for: dict[Seat, tuple[Seat, ...]] = {}
        self.reported: dict[Seat, tuple[Seat, ...]] = {}
        self.signed = 0

    def stalled(self, seat: Seat) -> tuple[Seat, ...]:
        session = self.table.sessions[seat]
        seats = set(session.tick(self.table.now))
        view = session.view
        if view is not None and not session.done:  # the dead seat is the one not connected
            seats.update(s for s in view.acting_seats() if s == self.table.dead)
        return tuple(sorted(seats))

    def vote(self) -> None:
        """Time passes beyond the stall timeout; each live seat signs as its shell would."""
        table = self.table
        table.now += 2 * AUTOMATIC_TIMEOUT
        for seat in table.live():
            session = table.sessions[seat]
            stalled = self.stalled(seat)
            again = self.revote and session.vote_void()
            if not stalled or (stalled == self.voted_for.get(seat) and not again):
                continue
            if self.report_first and self.reported.get(seat) != stalled:
                self.reported[seat] = stalled  # the report: the resends follow (settle)
                continue
            self.voted_for[seat] = stalled
            try:
                table._carry_out(seat, session.abandon(stalled, table.now))
            except IllegalActionError:
                continue
            self.signed += 1


def play_out(table: DyingTable, shells: Shells, *, votes_first: bool) -> int:
    """Run the table until the dead seat has died and nothing moves (with resends unless
    ``votes_first``), then rounds: votes, then deliveries, resends and the live seats' play
    until nothing moves. Returns the rounds it took every live seat to end the game (or
    ``ROUNDS + 1``)."""
    table.start()
    table.settle(resend=not votes_first)
    assert table.died(), f"seat {table.dead} never reached {table.point}"
    assert table.problems() == []
    for done in range(1, ROUNDS + 1):
        shells.vote()
        table.settle()  # the votes, the resends, and the play the resent message lets go on
        if all(table.sessions[s].abandoned is not None for s in table.live()):
            return done
    return ROUNDS + 1


def check_abandoned(table: DyingTable) -> None:
    assert table.problems() == []
    for seat in table.live():
        session = table.sessions[seat]
        assert session.stopped is None, session.stopped
        assert session.abandoned == (table.dead,), (seat, session.owed_steps())


TORN: list[tuple[int, Seat, Point, Seat]] = [
    *[
        (3, dead, PLAY_POINTS[p], witness)
        for p in PLAY_POINTS
        for dead, witness in [(0, 2), (2, 0)]
    ],
    *[
        (3, 1, SETUP_POINTS[p], witness)
        for p in ("after its deck_key", "after its shuffle", "after its shuffle_proof")
        for witness in (0, 2)
    ],
    *[(4, dead, PLAY_POINTS[p], 3 - dead) for p in PLAY_POINTS for dead in (0, 2)],
]
NAMES_A_LIVE_SEAT: set[tuple[int, Seat, str, Seat]] = {
    (3, 0, "reveal", 2),
    (3, 2, "reveal", 0),
    (3, 0, "steal_commit", 2),
    (3, 2, "steal_commit", 0),
    (3, 0, "steal_open", 2),
    (3, 1, "deck_key", 0),
    (3, 1, "deck_key", 2),
    (4, 0, "reveal", 3),
    (4, 2, "turn_ack", 1),
    (4, 2, "steal_commit", 1),
    (4, 0, "steal_open", 3),
    (4, 2, "draw_share", 1),
}
"""Cases where a vote signed at the first stall, before the resends, names a live seat too: the
witness owes, in the state of the live seat that lacks the torn message, a step it took in
messages that wait there, unaccepted, for the torn one; or the seat behind owes, in the
witness's state, a step that the torn message made due and that it cannot see. Either live seat
may then name the other. With 3 seats such a vote alone ends the game at its signer (the only
other remaining seat is the dead one), while the seat it names, which never counts a vote
naming itself, waits on: the live seats disagree. Hence the rule (§11): a seat votes only on a
stall it reported, with its resends, a while before."""


def _cases() -> list[object]:
    return [
        pytest.param(
            players,
            dead,
            point,
            witness,
            id=f"{players}-seats-dead{dead}-{point[0]}{point[1]}+{point[2]}-witness{witness}",
        )
        for players, dead, point, witness in TORN
    ]


@pytest.mark.parametrize(("players", "dead", "point", "witness"), _cases())
def test_the_live_seats_abandon_the_game_after_a_torn_last_message(
    players: int, dead: Seat, point: Point, witness: Seat
) -> None:
    """The torn message still lost at the first stall (the order that parted the seats; with
    the resends first every case ended under every rule): every live seat ends the game as
    abandoned by the dead seat within a few rounds, and no live seat is named."""
    table = DyingTable(players, dead, point, witness)
    rounds = play_out(table, Shells(table), votes_first=True)
    assert rounds <= ROUNDS, "the abandonment hangs"
    check_abandoned(table)


@pytest.mark.parametrize("kind", ["turn_ack", "draw_share"])
@pytest.mark.parametrize(("dead", "witness"), [(0, 2), (2, 0)])
def test_a_vote_made_void_by_the_torn_message_is_signed_again(
    kind: str, dead: Seat, witness: Seat
) -> None:
    """The dead seat's first ``turn_ack`` (or ``draw_share``) reached the witness only; the
    other live seat votes before it is resent, naming a step or heads the witness has passed,
    so its vote is void at the witness and, once the message is resent, at its signer too.
    Signing again only on a new set of stalled seats (the rule before) leaves every live seat
    waiting for ever; signing again on a void vote ends the game."""
    point = PLAY_POINTS[f"before its {'first ' if kind == 'turn_ack' else ''}{kind}"]
    stuck = DyingTable(3, dead, point, witness)
    old_rule = Shells(stuck, revote=False, report_first=False)
    assert play_out(stuck, old_rule, votes_first=True) > ROUNDS
    assert all(stuck.sessions[s].abandoned is None for s in stuck.live())
    assert any(stuck.sessions[s].vote_void() for s in stuck.live()), "no vote is void"

    table = DyingTable(3, dead, point, witness)
    shells = Shells(table, report_first=False)
    assert play_out(table, shells, votes_first=True) <= ROUNDS
    check_abandoned(table)
    assert shells.signed > len(table.live()), "no seat signed a second vote"


@pytest.mark.parametrize(
    ("players", "dead", "point", "witness"),
    [
        pytest.param(p, d, point, w, id=f"{p}-seats-dead{d}-{point[0]}{point[1]}+{point[2]}-w{w}")
        for p, d, point, w in TORN
        if (p, d, point[0], w) in NAMES_A_LIVE_SEAT
    ],
)
def test_a_vote_at_the_first_stall_can_name_a_live_seat(
    players: int, dead: Seat, point: Point, witness: Seat
) -> None:
    """Why a seat votes only on a stall it reported before (§11): voting at the first stall,
    before the resends, a live seat names the other, and the live seats part."""
    table = DyingTable(players, dead, point, witness)
    play_out(table, Shells(table, report_first=False), votes_first=True)
    live = set(table.live())
    named = [
        s
        for s in live
        if (table.sessions[s].abandoned or ()) != (table.dead,)
        or table.sessions[s].stopped is not None
    ]
    assert named, "every live seat ended the game against the dead seat alone"
