"""A seat flooding its peers with valid messages far ahead of itself (PROTOCOL.md §8, §12).

Messages that wait for their predecessors are held within a window of their author's next
number (``MAX_AHEAD``) and a budget of that author's own (``MAX_HELD_BYTES``,
``MAX_HELD_MESSAGES``): a flood is refused naming the flooder, never an honest seat, and the
game goes on to its audited end among every seat. Real in-memory sessions (tests/test_session.py's
:class:`Table`), the flood signed with the flooding seat's own identity.
"""

from __future__ import annotations

from test_session import Table, check_same_end, main_phase, play, play_until

from hexlan.engine.core import Seat
from hexlan.net.effects import Rejected
from hexlan.net.session import MAX_AHEAD, MAX_HELD_BYTES
from hexlan.net.wire import Body, sign_body

FLOODER: Seat = 1
TRAIL: tuple[bytes, ...] = (bytes(8),) * 4000
"""A long trail (about 40 KB a message): a few hundred of them fill an author's budget."""
SHORT: tuple[bytes, ...] = (bytes(8),)
"""A trail of one entry: a message refused for how far ahead it is, whatever its size."""


def flood(table: Table, ahead: int, count: int, trail: tuple[bytes, ...] = TRAIL) -> list[bytes]:
    """``count`` valid ``turn_ack`` envelopes the flooding seat signs, numbered from ``ahead``
    past its next number on, with its current heads (§11's message, its chain left out)."""
    session = table.sessions[FLOODER]
    out = []
    for k in range(count):
        body = session.next_body("turn_ack", (1, bytes(32), trail))
        far = Body(
            body.version,
            body.game_id,
            FLOODER,
            body.seq + ahead + k,
            body.prev,
            body.heads,
            "turn_ack",
            body.payload,
        )
        out.append(sign_body(far, session.identity).to_bytes())
    return out


def flooded_table(
    ahead: int, count: int, trail: tuple[bytes, ...] = TRAIL
) -> tuple[Table, list[bytes]]:
    """A 3-seat game in its main phase, the flood delivered to both honest seats."""
    table = Table(3, seed=11)
    table.start()
    play_until(table, main_phase(table))
    sent = flood(table, ahead, count, trail)
    for data in sent:
        for seat in (0, 2):
            table.deliver(seat, data)
    table.pump()
    return table, sent


def refusals(table: Table) -> list[Rejected]:
    return [e for effects in table.effects for e in effects if isinstance(e, Rejected)]


def test_a_flood_beyond_the_window_is_refused_naming_the_flooder_and_the_game_ends() -> None:
    """Every message more than MAX_AHEAD ahead of its author is refused at once, naming the
    author, and not held; no refusal ever names an honest seat, and the game is played to
    its audited end by every seat, the flooder included."""
    table, sent = flooded_table(MAX_AHEAD + 1, 900, SHORT)
    refused = refusals(table)
    assert len(refused) == 2 * len(sent)  # each one, at each honest seat
    assert {r.author for r in refused} == {FLOODER}
    assert {r.envelope for r in refused} == set(sent)
    assert all("ahead of the next one" in r.reason for r in refused)
    assert all(not s._waiting for s in table.sessions)  # nothing of it is held
    play(table)
    assert {r.author for r in refusals(table)} == {FLOODER}
    for effects in table.effects:  # the flood's refusals set aside, the game is clean
        effects[:] = [e for e in effects if not isinstance(e, Rejected)]
    check_same_end(table)


def test_a_flood_within_the_window_fills_the_flooders_budget_only() -> None:
    """Messages within the window are held until the flooder's own budget is full, then
    refused naming it; the honest seats' messages are never refused, and the game ends."""
    table, sent = flooded_table(MAX_AHEAD // 2, 260)
    assert sum(len(d) for d in sent) > MAX_HELD_BYTES + 1024 * 1024  # past the budget
    refused = refusals(table)
    assert refused and {r.author for r in refused} == {FLOODER}
    assert all("fill its budget" in r.reason for r in refused)
    for seat in (0, 2):
        held = table.sessions[seat]._waiting.values()
        assert held and {env.body.author for env in held} == {FLOODER}
        assert sum(len(e.body_bytes) + len(e.signature) for e in held) <= MAX_HELD_BYTES
    play(table)
    assert {r.author for r in refusals(table)} == {FLOODER}
    for effects in table.effects:
        effects[:] = [e for e in effects if not isinstance(e, Rejected)]
    check_same_end(table)
