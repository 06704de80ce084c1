"""The sans-IO session (net/session.py) played between seats in memory (net/inproc.py).

Spec: docs/PROTOCOL.md. Every test plays seeded games between the heuristic bots over
:class:`Table`, an :class:`~hexlan.net.inproc.InProcessTable` that can also shuffle deliveries,
let seats decide while messages are still in flight, tamper with a message on its way, crash a
seat between two of its effects and restart it from its log (h11's ``ConnectionPair`` habit:
real protocol objects, no sockets). Forged messages are built with the real seats' keys through
:func:`forge`, so each one breaks exactly one rule.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import fields

import msgpack
import pytest
from weak_keys import (
    ED25519_IDENTITY,
    NON_CANONICAL_ED25519,
    NON_CANONICAL_X25519,
    SMALL_ORDER_X25519,
    unchecked,
)

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import make_bot
from hexlan.engine.core import NO_SEAT, IllegalActionError, Phase, Resource, Seat
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.net.beacon import CHAIN_LENGTH
from hexlan.net.effects import Applied, Effect, Persist, Rejected, Send, Stopped
from hexlan.net.identity import Identity
from hexlan.net.inproc import InProcessTable
from hexlan.net.session import AUTOMATIC_TIMEOUT, BROKEN_CHAIN, FALSE_HEAD, OwedStep, Session
from hexlan.net.steal import open_opening, seal_opening
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    MalformedMessage,
    Opening,
    SeatInfo,
    encode_action,
    sign_body,
)

NAMES = ("ana", "ben", "cai", "dee", "eve", "fay")

Stop = Callable[[Seat, Action], bool]
CrashPoint = Callable[[Seat, list[Effect]], int | None]


# ---------------------------------------------------------------------------- the table


class Table(InProcessTable):
    """Every seat's session wired in memory, with the bots that play them.

    Args:
        players: 2 to 6 seats.
        board: "beginner" or "random".
        seed: the seats' keys, the bots and the delivery order follow from it.
        mode: "fifo" delivers in the order sent; "shuffled" delivers the queue in a random order
            after each decision; "interleaved" also lets seats decide while messages are still
            in flight (a few random deliveries between decisions).
        game: the game's name (seeds/<game>.toml).
    """

    def __init__(
        self,
        players: int,
        *,
        board: str = "beginner",
        seed: int = 0,
        mode: str = "fifo",
        options: GameOptions | None = None,
        game: str = "base",
    ) -> None:
        super().__init__(NAMES[:players], options, board_kind=board, seed=seed, game=game)
        self.mode = mode
        self.rng = random.Random(f"delivery {seed}")
        self.bots = [make_bot("heuristic", random.Random(seed * 10 + s)) for s in range(players)]
        self.now = 0.0
        self.tamper: Callable[[Envelope], bytes | None] | None = None
        self._tampered: dict[bytes, bytes | None] = {}
        self.crash_point: CrashPoint | None = None
        self.restarts: list[tuple[Seat, list[bytes]]] = []

    # -- delivery

    def pump(self, limit: int | None = None) -> None:
        """Deliver queued messages (all, or ``limit`` of them), in order or shuffled."""
        delivered = 0
        while self._queue and (limit is None or delivered < limit):
            index = self.rng.randrange(len(self._queue)) if self.mode != "fifo" else 0
            seat, data = self._queue[index]
            del self._queue[index]
            self.deliver(seat, data)
            delivered += 1

    def deliver(self, seat: Seat, data: bytes) -> None:
        """One envelope reaches ``seat`` (through :attr:`tamper`, once per envelope)."""
        if self.tamper is not None:
            if data not in self._tampered:
                self._tampered[data] = self.tamper(Envelope.parse(data))
            replaced = self._tampered[data]
            if replaced is None:
                return  # dropped on the way
            data = replaced
        self._carry_out(seat, self.sessions[seat].receive(data, self.now))

    def inject(self, data: bytes, *, to: Sequence[Seat] | None = None) -> None:
        """Send a (forged) envelope to some seats, or all, and let the table settle."""
        for seat in range(len(self.sessions)) if to is None else to:
            self._queue.append((seat, data))
        self.pump()

    def act(self, seat: Seat, action: Action) -> None:
        """A seat's decision; the table settles unless interleaved."""
        self._carry_out(seat, self.sessions[seat].submit(action, self.now))
        if self.mode != "interleaved":
            self.pump()

    def submit(self, seat: int, action: object) -> None:
        self.act(seat, action)  # type: ignore[arg-type]
        self.pump()

    # -- crashes

    def _carry_out(self, seat: Seat, effects: list[Effect]) -> None:
        """The shell carries out the effects in order, unless the seat crashes among them."""
        keep = self.crash_point(seat, effects) if self.crash_point is not None else None
        if keep is None:
            self._handle(seat, effects)
            return
        self.crash_point = None
        self._handle(seat, effects[:keep])
        self.restart(seat)

    def restart(self, seat: Seat) -> None:
        """The seat's process died: messages on their way to it are lost; a new session
        replays its log with the same keys, then reconnects (each side resends what the other's
        heads lack, PROTOCOL.md §8)."""
        old = self.sessions[seat]
        self._queue = type(self._queue)((s, d) for s, d in self._queue if s != seat)
        log = list(self.logs[seat])
        self.restarts.append((seat, log))
        new = Session(seat, old.identity, self.opening, old.chain, old.game_keys)
        self.sessions[seat] = new
        self._handle(seat, new.replay(log))
        for other, session in enumerate(self.sessions):
            if other != seat:
                self._queue.extend((seat, data) for data in session.missing_for(new.heads()))
                self._queue.extend((other, data) for data in new.missing_for(session.heads()))

    # -- reading the outcome

    def problems(self) -> list[Effect]:
        """Every refusal and stop any seat reported."""
        return [e for effects in self.effects for e in effects if isinstance(e, Rejected | Stopped)]


def play(
    table: Table, *, stop: Stop | None = None, max_steps: int = 3000
) -> tuple[Seat, Action] | None:
    """Let the bots play until the game ends (or a seat stops it), or until ``stop(seat,
    action)`` holds for the action a bot chose: that seat and action are then returned, the
    action not submitted, the table quiet."""
    rng = table.rng
    decisions = 0
    while decisions < max_steps:
        sessions = table.sessions
        if all(s.is_over for s in sessions) or any(s.stopped for s in sessions):
            table.pump()
            return None
        due = [s.seat for s in sessions if not s.is_over and s.decision_due()]
        if table.mode == "interleaved" and table._queue and (not due or rng.random() < 0.5):
            table.pump(limit=rng.randint(1, 6))
            continue
        assert due, f"no seat may move; waiting on {[s.waiting_on() for s in sessions]}"
        seat = rng.choice(due) if table.mode != "fifo" else due[0]
        action = table.bots[seat].choose(sessions[seat].view, seat)
        if stop is not None and stop(seat, action):
            table.pump()
            return seat, action
        table.act(seat, action)
        decisions += 1
    raise AssertionError(f"no end after {max_steps} decisions")


def play_until(table: Table, stop: Stop) -> tuple[Seat, Action]:
    found = play(table, stop=stop)
    assert found is not None, "the game ended before the situation the test needs"
    return found


def first_game_reaching(
    seed: int, situation: Callable[[Table], Stop], players: int = 3, tries: int = 30
) -> tuple[Table, Seat, Action]:
    """The first seeded game from ``seed`` on that reaches ``situation``, stopped there: tests
    stay true when a change of the protocol changes which game a seed plays."""
    for attempt in range(seed, seed + tries):
        table = Table(players, seed=attempt)
        table.start()
        found = play(table, stop=situation(table))
        if found is not None:
            return table, *found
    raise AssertionError(f"no game from seed {seed} on reaches the situation the test needs")


def forge(
    table: Table,
    author: Seat,
    kind: str,
    payload: tuple[object, ...],
    *,
    seq: int | None = None,
    heads: tuple[tuple[int, bytes], ...] | None = None,
    key: Identity | None = None,
    game_id: bytes | None = None,
) -> bytes:
    """An envelope ``author`` could sign next (its next seq, prev and current heads), or at
    ``seq`` with that message's prev and heads; signed by the seat's own key unless ``key``."""
    session = table.sessions[author]
    own = session.accepted[author]
    if seq is None:
        seq, prev, current = len(own), own[-1].id if own else ZERO_ID, session.heads()
    else:
        prev, current = own[seq].body.prev, own[seq].body.heads
    heads = current if heads is None else heads
    body = Body(
        PROTOCOL_VERSION,
        table.opening.game_id if game_id is None else game_id,
        author,
        seq,
        prev,
        heads,
        kind,
        payload,
    )
    return sign_body(body, session.identity if key is None else key).to_bytes()


def resign(env: Envelope, table: Table, **changes: object) -> bytes:
    """``env``'s body with some fields changed, signed again by its author's key."""
    body = env.body
    fields = {
        name: getattr(body, name)
        for name in ("version", "game_id", "author", "seq", "prev", "heads", "kind", "payload")
    }
    fields.update(changes)
    return sign_body(Body(**fields), table.sessions[body.author].identity).to_bytes()  # type: ignore[arg-type]


def check_logs(opening: Opening, logs: Sequence[list[bytes]]) -> dict[bytes, Envelope]:
    """Every logged envelope parses and verifies under its author's key, and in each log every
    author's messages form its hash chain from ``sign_opening`` on, in order.

    Returns every distinct envelope, parsed (the logs share most of them: each is checked once).
    """
    parsed: dict[bytes, Envelope] = {}
    for data in itertools.chain.from_iterable(logs):
        if data not in parsed:
            env = parsed[data] = Envelope.parse(data)
            env.verify(opening.seats[env.body.author].public_key)
            assert env.body.game_id == opening.game_id
    for log in logs:
        _check_chains([parsed[data] for data in log])
    return parsed


def _check_chains(log: list[Envelope]) -> None:
    last: dict[Seat, Envelope] = {}
    for env in log:
        body = env.body
        before = last.get(body.author)
        if before is None:
            assert (body.seq, body.prev, body.kind) == (0, ZERO_ID, "sign_opening")
        else:
            assert (body.seq, body.prev) == (before.body.seq + 1, before.id)
        last[body.author] = env


def check_same_end(table: Table) -> None:
    sessions = table.sessions
    assert table.problems() == []
    assert all(s.is_over and s.view is not None for s in sessions)
    views = [view_of(table, seat) for seat in range(len(sessions))]
    assert len({view.public_hash() for view in views}) == 1
    assert len({view.winner for view in views}) == 1
    assert views[0].winner != NO_SEAT
    # the end-of-game audit passed, one digest signed by every seat (§14)
    assert all(s.audited is not None and s.audited.report.passed for s in sessions)
    assert len({s.audited.report.digest for s in sessions if s.audited}) == 1
    assert all(s.audited.disagreeing == () for s in sessions if s.audited)


def view_of(table: Table, seat: Seat) -> InformationState:
    """A seat's information state (the game has begun)."""
    view = table.sessions[seat].view
    assert view is not None, "the game has not begun"
    return view


def applied(effects: list[Effect], kind: type) -> list[Applied]:
    return [e for e in effects if isinstance(e, Applied) and isinstance(e.action, kind)]


def quiet(table: Table) -> list[tuple[object, ...]]:
    """What a test expects a refused message to leave unchanged, per seat."""
    return [
        (s.heads(), s.view.public_hash() if s.view else None, len(table.logs[s.seat]))
        for s in table.sessions
    ]


def main_phase(table: Table) -> Stop:
    """Stop at a seat's decision in its main phase, past the set-up."""
    return lambda seat, _: view_of(table, seat).phase is Phase.MAIN


def is_roll(_: Seat, action: Action) -> bool:
    return isinstance(action, A.RollDice)


def robbing(table: Table, *, kinds: int = 1) -> Stop:
    """Stop at a robber move that names a victim holding at least ``kinds`` resource kinds."""

    def stop(seat: Seat, action: Action) -> bool:
        if not isinstance(action, A.MoveRobber) or action.victim == NO_SEAT:
            return False
        victim = table.sessions[action.victim].view
        assert victim is not None
        held = sum(1 for n in victim.hands[action.victim] if n)
        return held >= kinds

    return stop


# ---------------------------------------------------------------------------- whole games


GAMES = [
    (2, "beginner", "fifo", 1),
    (2, "random", "shuffled", 2),
    (3, "random", "fifo", 3),
    (3, "beginner", "interleaved", 4),
    (4, "random", "interleaved", 8),
]
"""Every seat count, board and delivery mode. "interleaved" delivers in a random order too, so
the 4-seat game covers shuffled deliveries between four seats; a 4-seat game in order on the
beginner board is test_verify's (every seat's log verified: the same end, audited)."""

Finished = Callable[[int, str, str, int], Table]


@pytest.fixture(scope="module")
def finished() -> Finished:
    """``finished(players, board, mode, seed)``: a whole game of :data:`GAMES`, played once for
    the module (the observer tests replay two of them)."""
    tables: dict[tuple[int, str, str, int], Table] = {}

    def game(players: int, board: str, mode: str, seed: int) -> Table:
        key = (players, board, mode, seed)
        if key not in tables:
            table = Table(players, board=board, seed=seed, mode=mode)
            table.start()
            play(table)
            tables[key] = table
        return tables[key]

    return game


@pytest.mark.parametrize(("players", "board", "mode", "seed"), GAMES)
def test_whole_game_ends_identically_on_every_seat(
    finished: Finished, players: int, board: str, mode: str, seed: int
) -> None:
    table = finished(players, board, mode, seed)
    check_same_end(table)
    check_logs(table.opening, table.logs)
    # every seat ends holding every message of the game, each author's in its order
    assert all(sorted(log) == sorted(table.logs[0]) for log in table.logs)
    assert all(s.messages() == table.sessions[0].messages() for s in table.sessions)
    # the applied order is the same on every seat: the same messages carried the same actions
    carried = [
        [
            (type(e.action).__name__, e.author, e.message_id)
            for e in effects
            if isinstance(e, Applied)
        ]
        for effects in table.effects
    ]
    assert all(c == carried[0] for c in carried)


@pytest.mark.parametrize(
    ("option", "players", "seed"),
    [("victory_at_turn_end", 3, 1), ("victory_at_turn_end", 4, 5), ("vp_cards_next_turn", 3, 17)],
)
def test_hidden_victories_end_identically_under_seed003_readings(
    option: str, players: int, seed: int
) -> None:
    """A win by victory point cards the others cannot see: found at the turn's end
    (``victory_at_turn_end``: the others' views have moved on to the next turn), or when a card
    bought last turn starts counting (``vp_cards_next_turn``). The winner's reveals come after
    its turn or before any acknowledgement; every seat ends the same game, audited. (The first
    seeded game from ``seed`` on that is won by hidden cards with a turn's end.)"""
    for attempt in range(seed, seed + 40):
        table = Table(players, seed=attempt, options=GameOptions(**{option: True}))
        table.start()
        play(table)
        check_same_end(table)
        winner = view_of(table, 0).winner
        other = table.effects[(winner + 1) % players]
        actions = [e.action for e in other if isinstance(e, Applied)]
        reveal = next(i for i, a in enumerate(actions) if isinstance(a, A.RevealVictory))
        # a win by hidden cards, found with a turn's end
        if view_of(table, 0).revealed_vp_cards[winner] > 0 and isinstance(
            actions[reveal - 1], A.EndTurn
        ):
            return
    raise AssertionError("no seeded game was won by hidden cards at a turn's end")


# ---------------------------------------------------------------------------- tampering


@pytest.fixture
def mid_game() -> Table:
    """A 3-seat game whose active seat is about to decide in its main phase."""
    table = Table(3, seed=11)
    table.start()
    play_until(table, main_phase(table))
    return table


def test_random_bytes_are_rejected_and_change_nothing(mid_game: Table) -> None:
    table = mid_game
    before = quiet(table)
    real = table.logs[0][-1]
    junk = [random.Random(7).randbytes(n) for n in (0, 1, 40, 300)]
    junk += [real[:-1], real + b"\x00", b"\x92\xc4\x00\xc4\x40" + bytes(64)]
    for data in junk:
        effects = table.sessions[1].receive(data)
        assert len(effects) == 1 and isinstance(effects[0], Rejected), data
        assert effects[0].author is None and effects[0].envelope == data
    assert quiet(table) == before


def test_messages_held_for_their_predecessors_are_bounded(
    mid_game: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat sending far ahead of itself (validly signed messages whose predecessors never
    come) cannot grow another peer's memory without bound: past MAX_HELD_BYTES the session
    refuses what comes, naming the signer, and nothing else changes."""
    import hexlan.net.session as session_module

    table = mid_game
    author, target = 1, table.sessions[0]
    seq = len(table.sessions[author].accepted[author]) + 5  # predecessors that never come
    bodies = []
    own = table.sessions[author].accepted[author]
    for k in range(4):
        body = Body(
            PROTOCOL_VERSION,
            table.opening.game_id,
            author,
            seq + k,
            own[-1].id,
            table.sessions[author].heads(),
            "advance",
            (),
        )
        bodies.append(sign_body(body, table.sessions[author].identity).to_bytes())
    monkeypatch.setattr(session_module, "MAX_HELD_BYTES", 3 * len(bodies[0]))
    before = quiet(table)
    for data in bodies[:3]:
        assert target.receive(data) == []  # held, waiting for the messages before it
    (refused,) = target.receive(bodies[3])
    assert isinstance(refused, Rejected) and refused.author == author
    assert "wait for their predecessors" in refused.reason
    assert quiet(table) == before and target.stopped is None


@pytest.mark.parametrize("how", ["another key", "flipped signature", "flipped body"])
def test_forged_signature_is_rejected_naming_nobody(mid_game: Table, how: str) -> None:
    table = mid_game
    active = view_of(table, 0).active
    victim = (active + 1) % 3
    before = quiet(table)
    genuine = forge(table, active, "action", encode_action(A.EndTurn()))
    env = Envelope.parse(genuine)
    if how == "another key":
        data = forge(table, active, "action", encode_action(A.EndTurn()), key=Identity.generate())
    elif how == "flipped signature":
        signature = bytearray(env.signature)
        signature[10] ^= 1
        data = msgpack.packb([env.body_bytes, bytes(signature)], use_bin_type=True)
    else:  # one bit of ``prev``: the body is still well-formed, its signature no longer fits
        body = bytearray(env.body_bytes)
        body[env.body_bytes.index(env.body.prev) + 5] ^= 1
        data = msgpack.packb([bytes(body), env.signature], use_bin_type=True)
    effects = table.sessions[victim].receive(data)
    assert [type(e) for e in effects] == [Rejected]
    assert effects[0].author is None  # a forgery proves nothing about the seat it claims
    assert "does not verify" in effects[0].reason
    assert quiet(table) == before
    # the genuine message is still welcome afterwards
    assert any(isinstance(e, Persist) for e in table.sessions[victim].receive(genuine))


def test_message_for_another_game_is_rejected(mid_game: Table) -> None:
    table = mid_game
    active = view_of(table, 0).active
    before = quiet(table)
    data = forge(table, active, "action", encode_action(A.EndTurn()), game_id=b"\x07" * 32)
    for seat in range(3):
        if seat != active:
            effects = table.sessions[seat].receive(data)
            assert [type(e) for e in effects] == [Rejected]
            assert "another game" in effects[0].reason and effects[0].author is None
    assert quiet(table) == before


def test_replayed_envelope_is_ignored(mid_game: Table) -> None:
    table = mid_game
    before = quiet(table)
    for seat, session in enumerate(table.sessions):
        for data in table.logs[(seat + 1) % 3][-5:] + table.logs[seat][-5:]:
            assert session.receive(data) == []
    assert quiet(table) == before


def test_equivocation_stops_the_game_naming_the_author(mid_game: Table) -> None:
    table = mid_game
    author = 1
    own = table.sessions[author].accepted[author]
    seq = len(own) - 1
    original = own[seq].to_bytes()
    other = forge(table, author, "present", (bytes(32),), seq=seq)  # harmless if applied
    # the second body arrives after the first (seat 0), or before it (seat 2, restarted from
    # its log as it was before the first arrived)
    effects = table.sessions[0].receive(other)
    assert [type(e) for e in effects] == [Stopped, Send, Send]  # both bodies go to every seat
    stop = effects[0]
    assert stop.author == author and f"seat {author}" in stop.reason
    assert stop.evidence == (original, other)
    assert [e.envelope for e in effects[1:]] == [original, other]
    assert table.sessions[0].stopped == stop
    assert table.sessions[0].receive(table.logs[2][-1]) == []  # a stopped session takes nothing

    seat2 = table.sessions[2]
    fresh = Session(2, seat2.identity, table.opening, seat2.chain, seat2.game_keys)
    fresh.replay(table.logs[2][: table.logs[2].index(original)])
    effects = fresh.receive(other) + fresh.receive(original)
    stops = [e for e in effects if isinstance(e, Stopped)]
    assert len(stops) == 1 and stops[0].author == author
    assert set(stops[0].evidence) == {original, other}


def test_a_false_head_of_another_seat_is_refused_and_the_game_waits_on_its_author(
    mid_game: Table,
) -> None:
    """Seat 1's message lists, as seat 2's latest, a body seat 0 never saw: seat 2 forked its
    chain or seat 1 lied. Seat 0 refuses the message, shows every seat the body it holds, and
    goes on waiting on seat 1 for a valid message of that number (§11): nobody holds another
    body (seat 1 lied), so no fork is ever proven, no seat stops, and the stall names seat 1
    alone, never seat 2; a valid message of that number ends the wait."""
    table = mid_game
    liar, framed = 1, 2
    heads = list(table.sessions[liar].heads())
    held = table.sessions[0].accepted[framed][heads[framed][0]].to_bytes()
    heads[framed] = (heads[framed][0], b"\x55" * 32)
    seq = len(table.sessions[0].accepted[liar])
    data = forge(table, liar, "present", (b"\x01" * 32,), heads=tuple(heads))
    effects = table.sessions[0].receive(data)
    assert not [e for e in effects if isinstance(e, Stopped)]
    (refused,) = [e for e in effects if isinstance(e, Rejected)]
    assert refused.envelope == data and refused.author == liar
    assert f"seat {liar} lied" in refused.reason and f"seat {framed}" in refused.reason
    assert [e.envelope for e in effects if isinstance(e, Send)] == [held]
    assert table.sessions[0].receive(data) == [refused]  # again: refused, shown once
    table._handle(0, effects)  # the body held goes to every seat: a duplicate everywhere
    table.pump()
    assert [s.stopped for s in table.sessions] == [None, None, None]
    owed = table.sessions[0].owed_steps()[0]
    assert owed == OwedStep(liar, FALSE_HEAD, seq)
    assert "lists another seat's message that no seat has shown" in owed.describe()
    assert liar in table.sessions[0].waiting_on() and framed not in table.sessions[0].waiting_on()
    true = forge(table, liar, "present", (b"\x01" * 32,))
    assert not [e for e in table.sessions[0].receive(true) if isinstance(e, Rejected)]
    assert all(o.step != FALSE_HEAD for o in table.sessions[0].owed_steps())


def _fork(table: Table, author: Seat, seq: int | None = None) -> tuple[bytes, bytes]:
    """Two harmless bodies ``author`` signs as one message number (its next, or ``seq``)."""
    return (
        forge(table, author, "present", (b"\x01" * 32,), seq=seq),
        forge(table, author, "present", (b"\x02" * 32,), seq=seq),
    )


def _named(table: Table, seat: Seat) -> Stopped:
    """The seat's stop, which must name the seat that signed two bodies for one number."""
    stopped = table.sessions[seat].stopped
    assert stopped is not None, f"seat {seat} did not stop"
    return stopped


def test_a_fork_seen_only_through_another_seats_heads_is_proven_to_every_seat(
    mid_game: Table,
) -> None:
    """Seat ``forker`` signs two bodies as one number, one for the active seat, the other for
    the third seat. The active seat orders its body (an ``advance`` listing it); the third seat
    holds the other, so it sees only conflicting heads. It shows its body to every seat; the
    active seat, now holding both, names the forker and relays both; the third seat then holds
    both too and names the forker: every honest seat keeps both signed bodies."""
    table = mid_game
    active = view_of(table, 0).active
    forker, third = (s for s in range(3) if s != active)
    first, second = _fork(table, forker)
    table._queue.extend([(active, first), (third, second)])
    table.pump()
    for seat in (active, third):
        stopped = _named(table, seat)
        assert stopped.author == forker, (seat, stopped.reason)
        assert set(stopped.evidence) == {first, second}
        assert f"seat {forker} signed two different messages" in stopped.reason
    # the third seat refused the active seat's message (heads it could not check) and stopped
    # once, naming the forker
    stops = [e for e in table.effects[third] if isinstance(e, Stopped)]
    assert [s.author for s in stops] == [forker]
    refused = [e for e in table.effects[third] if isinstance(e, Rejected)]
    assert refused and refused[0].author == active and "never saw" in refused[0].reason


def test_a_message_built_on_the_other_body_of_a_fork_is_proven_too(mid_game: Table) -> None:
    """The forker's next message, built on the body the active seat never saw, reaches the
    active seat with the other body: there it breaks the chain. The active seat shows every
    seat the body it holds (before its ``advance``); the third seat, holding the other, proves
    the fork to every seat, and every honest seat names the forker."""
    table = mid_game
    active = view_of(table, 0).active
    forker, third = (s for s in range(3) if s != active)
    first, second = _fork(table, forker)
    after = resign(
        Envelope.parse(forge(table, forker, "present", (b"\x03" * 32,))),
        table,
        seq=Envelope.parse(second).body.seq + 1,
        prev=Envelope.parse(second).id,
    )
    table.inject(second, to=[third])
    table.inject(after, to=[active])  # waits there for its number's predecessor
    table.inject(first, to=[active])
    refused = [e for e in table.effects[active] if isinstance(e, Rejected)]
    assert [e.envelope for e in refused] == [after] and "breaks the chain" in refused[0].reason
    for seat in (active, third):
        stopped = _named(table, seat)
        assert stopped.author == forker and set(stopped.evidence) == {first, second}
    assert [e.author for e in table.effects[third] if isinstance(e, Stopped)] == [forker]


def test_a_message_that_breaks_its_chain_makes_the_game_wait_on_its_author(
    mid_game: Table,
) -> None:
    """The active seat's decision arrives with a ``prev`` that is not its last message's id: it
    is refused, and instead of waiting silently for a decision, every other seat names the
    active seat as the one the game waits on, with the message that broke the chain; a valid
    message of that number ends the stall."""
    table = mid_game
    active = view_of(table, 0).active
    others = [s for s in range(3) if s != active]
    seq = len(table.sessions[active].accepted[active])
    genuine = Envelope.parse(forge(table, active, "action", encode_action(A.EndTurn())))
    broken = resign(genuine, table, prev=b"\x33" * 32)
    for seat in others:
        assert table.sessions[seat].waiting_on() == []  # a decision: it never times out
    table.now = 50.0
    table.inject(broken, to=others)
    for seat in others:
        session = table.sessions[seat]
        refused = [e for e in table.effects[seat] if isinstance(e, Rejected)]
        assert refused[-1].author == active and "breaks the chain" in refused[-1].reason
        assert session.waiting_on() == [active]
        assert session.owed_steps()[0] == OwedStep(active, BROKEN_CHAIN, seq)
        assert "breaks its hash chain" in session.owed_steps()[0].describe()
        since = session.last_progress  # a refusal is no progress
        assert since < table.now
        assert session.tick(since + AUTOMATIC_TIMEOUT - 0.1) == []
        assert session.tick(since + AUTOMATIC_TIMEOUT + 0.1) == [active]
    turn = view_of(table, others[0]).turn
    table.inject(genuine.to_bytes(), to=others)
    for seat in others:
        assert all(o.step != BROKEN_CHAIN for o in table.sessions[seat].owed_steps())
        assert table.sessions[seat].stopped is None and view_of(table, seat).turn == turn + 1


def test_illegal_move_from_the_active_seat_stops_the_game_naming_it(mid_game: Table) -> None:
    table = mid_game
    view = table.sessions[0].view
    assert view is not None
    active = view.active
    node = next(n for n in range(54) if n not in view.settlements[active])
    data = forge(table, active, "action", encode_action(A.BuildCity(node)))
    table.inject(data, to=[s for s in range(3) if s != active])
    for seat in range(3):
        if seat != active:
            stop = table.sessions[seat].stopped
            assert stop is not None and stop.author == active, stop
            assert f"seat {active}" in stop.reason and data in stop.evidence


def test_action_out_of_turn_stops_the_game_naming_its_author(mid_game: Table) -> None:
    table = mid_game
    active = view_of(table, 0).active
    intruder = (active + 1) % 3
    data = forge(table, intruder, "action", encode_action(A.BuildRoad(0)))
    # pending until the active seat orders it; its advance makes every other seat apply it
    table.inject(data, to=[s for s in range(3) if s != intruder])
    for seat in range(3):
        if seat != intruder:
            stop = table.sessions[seat].stopped
            assert stop is not None and stop.author == intruder, stop
            assert f"seat {intruder}" in stop.reason and "BuildRoad" in stop.reason


def test_a_false_accusation_names_the_accuser(mid_game: Table) -> None:
    """§11.1: an accusation is never a free abort. A seat accuses another seat's message that
    the true state allows; every seat publishes its secrets, and the audit of the game so far
    names the accuser, with its accusation, in every session; `abandon` votes against the
    accuser for a decision never stand while the accusation is open."""
    table = mid_game
    accuser, accused = 0, 1
    session = table.sessions[accuser]
    contested = session.accepted[accused][session.applied[accused]]
    effects: list[Effect] = []
    session.sign("accuse", (contested.id, "seat 1 cannot hold that"), effects)
    accusation = session.accepted[accuser][-1]
    assert session.is_over and not session.decision_due()
    with pytest.raises(IllegalActionError):
        session.submit(A.EndTurn())
    table._carry_out(accuser, effects)
    table.pump()
    for seat, other in enumerate(table.sessions):
        assert other.accusations == {accuser: (contested.id, accusation.id)}, seat
        stop = other.stopped
        assert stop is not None and stop.author == accuser, (seat, stop)
        assert "a message the true state allows" in stop.reason
        assert other.audit is not None
        assert other.audit.deviations[0].message_id == accusation.id
    assert len({s.audit.digest for s in table.sessions if s.audit is not None}) == 1


def _falsify(kind: str, author: Seat, table: Table, change: Callable[[Envelope], bytes]) -> None:
    """From now on, ``author``'s next message of ``kind`` reaches the others changed."""
    done: list[bytes] = []

    def tamper(env: Envelope) -> bytes | None:
        if env.body.kind == kind and env.body.author == author and not done:
            done.append(env.to_bytes())
            return change(env)
        return env.to_bytes()

    table.tamper = tamper


def test_false_reveal_stops_the_game_naming_the_seat() -> None:
    table = Table(3, seed=12)
    table.start()
    roller, roll = play_until(table, is_roll)
    liar = (roller + 1) % 3
    _falsify(
        "reveal",
        liar,
        table,
        lambda env: resign(env, table, payload=(env.body.payload[0], b"\x66" * 32)),
    )
    table.act(roller, roll)
    for seat in range(3):
        if seat != liar:
            stop = table.sessions[seat].stopped
            assert stop is not None and stop.author == liar, stop
            assert "does not hash to its chain" in stop.reason


@pytest.mark.parametrize("delta", [1, -1])
def test_victim_committing_the_wrong_number_of_cards_stops_the_game(delta: int) -> None:
    table = Table(3, seed=13)
    table.start()
    thief, move = play_until(table, robbing(table))
    victim = move.victim

    def change(env: Envelope) -> bytes:
        event, commitments = env.body.payload
        commitments = (*commitments, b"\x01" * 32) if delta > 0 else commitments[:-1]
        return resign(env, table, payload=(event, commitments))

    _falsify("steal_commit", victim, table, change)
    table.act(thief, move)
    for seat in range(3):
        if seat != victim:
            stop = table.sessions[seat].stopped
            assert stop is not None and stop.author == victim, stop
            assert "committed" in stop.reason


def test_impossible_monopoly_count_is_accused_and_the_counter_owes_its_secrets() -> None:
    table, player, card = first_game_reaching(
        60, lambda _: lambda _, action: isinstance(action, A.PlayMonopoly)
    )
    assert isinstance(card, A.PlayMonopoly)
    liar = min(s for s in range(3) if s != player)  # its count is ordered first: an honest one
    claim = max(view_of(table, s).hands[liar][card.resource] for s in range(3)) + 1
    _falsify(
        "count", liar, table, lambda env: resign(env, table, payload=(env.body.payload[0], claim))
    )
    table.act(player, card)
    for seat in range(3):
        if seat != liar:
            # a count refuted by what a seat knows of hidden hands is accused (§11.1): the game
            # freezes and waits for every seat's secrets; the liar (stopped by its own forgery
            # here) owes them, and withholding them names it
            session = table.sessions[seat]
            contested, accusation = session.accusations[seat]
            (count,) = [e for e in session.accepted[liar] if e.id == contested]
            assert count.body.kind == "count" and count.body.payload[1] == claim
            (accuse,) = [e for e in session.accepted[seat] if e.id == accusation]
            assert f"seat {liar} counted {claim}" in accuse.body.payload[1]
            assert session.owed_steps() == [OwedStep(liar, "audit_secrets")]
            assert session.stopped is None and session.is_over


# ---------------------------------------------------------------------------- private steals


def test_stolen_card_is_seen_by_thief_and_victim_only() -> None:
    table = Table(4, seed=21)
    table.start()
    thief, move = play_until(table, robbing(table, kinds=2))
    victim = move.victim
    third = next(s for s in range(4) if s not in (thief, victim))
    victim_hand = list(view_of(table, victim).hands[victim])
    thief_hand = list(view_of(table, thief).hands[thief])
    marks = [len(e) for e in table.effects]
    table.act(thief, move)
    assert table.problems() == []

    steals = [applied(table.effects[s][marks[s] :], A.StealCard) for s in range(4)]
    assert all(len(found) == 1 for found in steals), steals
    taken = steals[thief][0].action.resource
    assert taken is not None and victim_hand[taken] > 0
    assert steals[victim][0].action.resource == taken
    assert all(steals[s][0].action.resource is None for s in range(4) if s not in (thief, victim))

    thief_view = table.sessions[thief].view
    victim_view = table.sessions[victim].view
    third_view = table.sessions[third].view
    assert thief_view is not None and victim_view is not None and third_view is not None
    assert thief_view.hands[thief][taken] == thief_hand[taken] + 1
    assert victim_view.hands[victim][taken] == victim_hand[taken] - 1
    assert len(third_view.hidden_kinds(thief)) >= 2
    assert Resource(taken) in third_view.hidden_kinds(thief)

    # what crossed the wire: commitments and a ciphertext, never the plaintext
    opening = _last_of(table.logs[third], "steal_open", victim)
    commit = _last_of(table.logs[third], "steal_commit", victim)
    ciphertext = opening.body.payload[2]
    _, salt, resource = _open(table, opening)
    assert resource == taken
    plaintext = salt + bytes((resource,))
    for log in table.logs:
        assert plaintext not in b"".join(log)
        assert salt not in b"".join(log)
    assert ciphertext in b"".join(table.logs[third])
    assert len(ciphertext) == 17 + 16 and len(commit.body.payload[1]) == sum(victim_hand)


def _last_of(log: list[bytes], kind: str, author: Seat) -> Envelope:
    envs = [Envelope.parse(d) for d in log]
    return [e for e in envs if e.body.kind == kind and e.body.author == author][-1]


def _open(table: Table, opening: Envelope) -> tuple[int, bytes, int]:
    """The thief's decryption of a ``steal_open``: ``(index, salt, resource)``, trying each
    index of the victim's commitments (the test does not ask the beacon which it picked)."""
    victim = opening.body.author
    thief = view_of(table, victim).active
    event, nonce, ciphertext = opening.body.payload
    cards = len(_last_of(table.logs[thief], "steal_commit", victim).body.payload[1])
    for index in range(cards):
        try:
            salt, resource = open_opening(
                table.sessions[thief].game_keys.private_key,
                table.opening.seats[victim].x25519_public,
                table.opening.game_id,
                event,
                index,
                nonce,
                ciphertext,
            )
        except ValueError:
            continue
        return index, salt, resource
    raise AssertionError("the opening opens for no index")


@pytest.mark.parametrize("wrong", ["card", "index"])
def test_false_steal_opening_stops_the_thief_naming_the_victim(wrong: str) -> None:
    table = Table(3, seed=22)
    table.start()
    thief, move = play_until(table, robbing(table, kinds=1))
    victim = move.victim
    game_id = table.opening.game_id
    keys = table.sessions[victim].game_keys
    thief_public = table.opening.seats[thief].x25519_public

    def change(env: Envelope) -> bytes:
        index, salt, resource = _open(table, env)
        if wrong == "card":  # the right box, another card in it
            resource = (resource + 1) % 5
        else:  # the right card, sealed for another position
            index = (index + 1) % 256
        event = env.body.payload[0]
        box = seal_opening(keys.private_key, thief_public, game_id, event, index, salt, resource)
        return resign(env, table, payload=(event, *box))

    _falsify("steal_open", victim, table, change)
    table.act(thief, move)
    # the thief shows its X25519 key (steal_dispute), so every seat reads the box and names
    # the victim (review finding: third parties could not check the thief's word)
    (dispute,) = [
        Envelope.parse(d)
        for d in table.logs[thief]
        if Envelope.parse(d).body.kind == "steal_dispute"
    ]
    assert dispute.body.author == thief
    # (the victim itself holds the body it really signed, not the one changed on its way)
    for seat in (s for s in range(3) if s != victim):
        stop = table.sessions[seat].stopped
        assert stop is not None and stop.author == victim, (seat, stop)
        assert f"seat {victim}" in stop.reason


def test_a_thief_disputing_a_true_steal_opening_is_named() -> None:
    """§7: a dispute shows the thief's X25519 key; when the opening it disputes is true, every
    seat names the thief."""
    table = Table(3, seed=22)
    table.start()
    thief, move = play_until(table, robbing(table, kinds=1))
    table.act(thief, move)
    keys = table.sessions[thief].game_keys
    number = table.sessions[thief].openings.steals
    table.inject(forge(table, thief, "steal_dispute", (number, keys.private_bytes)))
    for seat in range(3):
        stop = table.sessions[seat].stopped
        assert stop is not None and stop.author == thief, (seat, stop)
        assert "disputed a true opening" in stop.reason


# ---------------------------------------------------------------------------- weak keys


def _with_seat_key(opening: Opening, seat: Seat, **changes: bytes) -> Opening:
    """``opening`` with seat ``seat``'s keys changed, built around every check (Opening and
    SeatInfo refuse weak keys): what a bug or a careless caller could hand a session."""
    seats = list(opening.seats)
    old = seats[seat]
    seats[seat] = unchecked(
        SeatInfo, **{f.name: changes.get(f.name, getattr(old, f.name)) for f in fields(SeatInfo)}
    )
    return unchecked(
        Opening,
        **{f.name: getattr(opening, f.name) for f in fields(Opening)} | {"seats": tuple(seats)},
    )


@pytest.mark.parametrize(
    ("field", "key", "words"),
    [
        ("public_key", ED25519_IDENTITY, "Ed25519 public key 0100000000000000… is weak"),
        ("public_key", NON_CANONICAL_ED25519["y = p (0 + p)"], "is not canonical"),
        ("x25519_public", SMALL_ORDER_X25519["u = 0 (all zero)"], "has small order"),
        ("x25519_public", SMALL_ORDER_X25519["order 8"], "has small order"),
        ("x25519_public", NON_CANONICAL_X25519["u = p + 1"], "is not canonical"),
    ],
    ids=["identity", "ed25519 y=p", "x25519 u=0", "x25519 order 8", "x25519 u=p+1"],
)
def test_a_session_refuses_an_opening_holding_a_weak_key(
    field: str, key: bytes, words: str
) -> None:
    table = Table(3, seed=5)
    bad = _with_seat_key(table.opening, 2, **{field: key})
    for seat in (0, None):  # a seat, and an observer (`hexlan verify`)
        own = table.sessions[0]
        with pytest.raises(ValueError, match=rf"the opening's seat 2 is refused: .*{words}"):
            if seat is None:
                Session(None, None, bad, None, None)
            else:
                Session(seat, own.identity, bad, own.chain, own.game_keys)
    # Its payload, as a peer's sign_opening or a log would carry it, does not even parse.
    with pytest.raises(MalformedMessage, match=rf"opening\.seats\[2\]\.{field}: .*{words}"):
        Opening.from_payload(bad.to_payload())


def test_an_unusable_thief_key_stops_the_victim_naming_the_thief() -> None:
    """Were the victim's session ever given a small-order X25519 key for the thief, sealing
    the steal opening fails: the session stops naming the thief (the key's owner) instead of
    raising out of ``receive`` and leaving the table waiting on the honest victim."""
    table = Table(3, seed=22)
    table.start()
    thief, move = play_until(table, robbing(table, kinds=1))
    victim = move.victim
    victim_session = table.sessions[victim]
    zero = SMALL_ORDER_X25519["u = 0 (all zero)"]
    victim_session.opening = _with_seat_key(table.opening, thief, x25519_public=zero)
    table.act(thief, move)  # the victim commits, the beacon picks, then it must seal
    stop = victim_session.stopped
    assert stop is not None and stop.author == thief, stop
    assert stop.reason.startswith(f"cannot seal the steal opening for seat {thief}: ")
    assert "has small order" in stop.reason
    assert _last_of(table.logs[victim], "steal_commit", victim)  # it got as far as committing
    assert not [d for d in table.logs[victim] if Envelope.parse(d).body.kind == "steal_open"]


def test_an_unusable_victim_key_stops_the_thief_naming_the_victim() -> None:
    """The thief's side: a victim key that gives no shared secret names the victim."""
    table = Table(3, seed=22)
    table.start()
    thief, move = play_until(table, robbing(table, kinds=1))
    victim = move.victim
    thief_session = table.sessions[thief]
    zero = SMALL_ORDER_X25519["order 8"]
    thief_session.opening = _with_seat_key(table.opening, victim, x25519_public=zero)
    table.act(thief, move)
    stop = thief_session.stopped
    assert stop is not None and stop.author == victim, stop
    assert f"seat {victim}'s steal opening is false" in stop.reason
    assert "has small order" in stop.reason


# ---------------------------------------------------------------------------- resume


def _crash_at_random(rng: random.Random, seat: Seat, after: int) -> CrashPoint:
    """Crash ``seat`` among the effects of one of its calls, the first after ``after`` calls
    that has any."""
    calls = [0]

    def point(target: Seat, effects: list[Effect]) -> int | None:
        if target != seat or not effects:
            return None
        calls[0] += 1
        return rng.randrange(len(effects) + 1) if calls[0] > after else None

    return point


def _crash_after_roll_before_reveal(seat: Seat, seen: list[int]) -> CrashPoint:
    """Crash ``seat`` once it has persisted a roll it received, before it signs its reveal."""

    def point(target: Seat, effects: list[Effect]) -> int | None:
        if target != seat:
            return None
        for i, effect in enumerate(effects):
            if isinstance(effect, Persist):
                env = Envelope.parse(effect.envelope)
                body = env.body
                if (
                    body.author != seat
                    and body.kind == "action"
                    and body.payload[0][0] == "RollDice"
                ):
                    later = [Envelope.parse(e.envelope) for e in effects[i:] if isinstance(e, Send)]
                    if any(e.body.kind == "reveal" for e in later):
                        seen.append(env.body.seq)
                        return i + 1
        return None

    return point


def _crash_after_signing_before_sending(seat: Seat) -> CrashPoint:
    """Crash ``seat`` after persisting an action it signed, before sending it."""

    def point(target: Seat, effects: list[Effect]) -> int | None:
        if target == seat and effects and isinstance(effects[0], Persist):
            env = Envelope.parse(effects[0].envelope)
            if env.body.author == seat and env.body.kind == "action" and env.body.seq > 40:
                return 1
        return None

    return point


def _crash_after_signing(seat: Seat, kind: str) -> CrashPoint:
    """Crash ``seat`` right after persisting its first own message of ``kind``, unsent."""

    def point(target: Seat, effects: list[Effect]) -> int | None:
        for i, effect in enumerate(effects):
            if target == seat and isinstance(effect, Persist):
                body = Envelope.parse(effect.envelope).body
                if body.author == seat and body.kind == kind:
                    return i + 1
        return None

    return point


RESUMES = [
    ("random", 3, 31, 0, 150),
    ("random", 2, 32, 1, 40),
    ("random", 4, 33, 2, 400),
    ("random", 4, 37, 3, 2),  # in the deck's set-up
    ("after roll, before reveal", 3, 34, 1, 0),
    ("signed, not sent", 2, 35, 0, 0),
    ("shuffle", 3, 36, 1, 0),  # resumed, it must make the same shuffle again for its proof
    ("shuffle_proof", 4, 38, 2, 0),
    ("draw_share", 3, 39, 0, 0),
    ("audit_secrets", 2, 40, 1, 0),
]


@pytest.mark.parametrize(("cut", "players", "seed", "seat", "after"), RESUMES)
def test_seat_resumes_from_its_log(
    cut: str, players: int, seed: int, seat: Seat, after: int
) -> None:
    table = Table(players, seed=seed, mode="shuffled" if cut == "random" else "fifo")
    seen: list[int] = []
    if cut == "random":
        table.crash_point = _crash_at_random(random.Random(seed), seat, after)
    elif cut == "after roll, before reveal":
        table.crash_point = _crash_after_roll_before_reveal(seat, seen)
    elif cut == "signed, not sent":
        table.crash_point = _crash_after_signing_before_sending(seat)
    else:
        table.crash_point = _crash_after_signing(seat, cut)
    table.start()
    play(table)
    assert len(table.restarts) == 1, "the crash never happened"
    check_same_end(table)
    parsed = check_logs(table.opening, table.logs)
    # never two bodies for one (author, seq), in any log
    signed: dict[tuple[int, int], bytes] = {}
    for env in parsed.values():
        assert signed.setdefault((env.body.author, env.body.seq), env.id) == env.id
    # the first message signed after the restart continues the seat's chain
    _, log = table.restarts[0]
    own = [parsed[d] for d in log if parsed[d].body.author == seat]
    after_restart = [
        parsed[d] for d in table.logs[seat][len(log) :] if parsed[d].body.author == seat
    ]
    assert after_restart, "the seat signed nothing after its restart"
    assert after_restart[0].body.seq == len(own)
    assert after_restart[0].body.prev == own[-1].id
    if cut == "after roll, before reveal":
        assert seen and after_restart[0].body.kind == "reveal"


# ---------------------------------------------------------------------------- stalls


def _discarding(table: Table) -> Stop:
    """Stop at a discard by a seat other than the active one, the only seat to discard."""
    return lambda seat, action: (
        isinstance(action, A.Discard)
        and seat != view_of(table, seat).active
        and sum(1 for n in view_of(table, seat).discards if n) == 1
    )


def _rolling(table: Table) -> Stop:
    """Stop at a roll."""
    return is_roll


Who = Callable[[Table, Seat, Action], Seat]
STALLS: dict[str, tuple[int, Callable[[Table], Stop], Who]] = {
    # what is withheld: (seed, where to stop, who withholds it, from the stopped seat and action)
    "reveal": (41, _rolling, lambda table, actor, action: (actor + 2) % 3),
    "advance": (41, _rolling, lambda table, actor, action: actor),
    "steal_commit": (13, robbing, lambda table, actor, action: action.victim),  # type: ignore[attr-defined]
    "discard": (50, _discarding, lambda table, actor, action: view_of(table, actor).active),
}


@pytest.mark.parametrize("silent", list(STALLS))
def test_tick_names_the_stalling_seat(silent: str) -> None:
    """A seat withholds an automatic step: its reveal of a roll; as the active seat, the
    ``advance`` that orders the reveals it holds; as a robber's victim, its commitment; as the
    active seat again, the ``advance`` that orders another seat's discard (a person's decision,
    which itself never times out)."""
    seed, situation, who = STALLS[silent]
    table, actor, action = first_game_reaching(seed, situation)
    staller = who(table, actor, action)
    withheld = "advance" if silent == "discard" else silent

    def drop(env: Envelope) -> bytes | None:
        dropped = env.body.author == staller and env.body.kind == withheld
        return None if dropped else env.to_bytes()

    table.tamper = drop
    table.now = 100.0
    table.act(actor, action)
    for session in table.sessions:
        if session.seat == staller:
            continue
        assert session.waiting_on() == [staller]
        assert session.tick(100.0 + AUTOMATIC_TIMEOUT - 0.1) == []
        assert session.tick(100.0 + AUTOMATIC_TIMEOUT + 0.1) == [staller]
        assert not session.decision_due()
    assert table.problems() == []


def test_tick_names_the_seat_that_never_signs_the_opening() -> None:
    table = Table(3, seed=42)
    table.tamper = lambda env: None if env.body.author == 2 else env.to_bytes()
    table.now = 100.0
    table.start()
    for session in table.sessions[:2]:
        assert session.view is None and session.waiting_on() == [2]
        assert session.tick(100.0 + AUTOMATIC_TIMEOUT + 0.1) == [2]
    table.tamper = None
    for data in table.logs[2]:  # its opening signature and deck key share
        table.inject(data, to=[0, 1])
    assert all(s.view is not None and s.waiting_on() == [] for s in table.sessions)


# ---------------------------------------------------------------------------- observer


@pytest.mark.parametrize(("players", "board", "mode", "seed"), [GAMES[1], GAMES[2]])
def test_observer_reaches_the_same_end(
    finished: Finished, players: int, board: str, mode: str, seed: int
) -> None:
    table = finished(players, board, mode, seed)
    # the observer's engine view: a pure third party (seat -1), who holds no cards
    InformationState(view_of(table, 0).board, players, NO_SEAT)
    seat = seed % players
    for order in ("log", "by author"):
        observer = Session(None, None, table.opening, None, None)
        envelopes = table.logs[seat] if order == "log" else table.sessions[seat].messages()
        effects = observer.replay(envelopes)
        assert not [e for e in effects if isinstance(e, Rejected | Stopped | Persist | Send)]
        assert observer.is_over and observer.view is not None
        assert observer.view.public_hash() == view_of(table, 0).public_hash()
        assert observer.view.winner == view_of(table, 0).winner
        assert all(a.action.resource is None for a in applied(effects, A.StealCard))
        assert all(a.action.card is None for a in applied(effects, A.DrawCard))


def play_around(table: Table, gone: Seat) -> None:
    """Let every seat but ``gone`` decide until the game waits for ``gone`` alone."""
    while True:
        due = [s.seat for s in table.sessions if s.seat != gone and s.decision_due()]
        if not due or any(s.is_over for s in table.sessions):
            return
        seat = due[0]
        table.act(seat, table.bots[seat].choose(view_of(table, seat), seat))


def test_remaining_seats_end_a_stalled_game_as_abandoned() -> None:
    """§11: a seat that stops answering can be left behind when every other seat signs, each
    naming the step it owes, once it has owed it for the stall timeout."""
    table = Table(3, seed=3)
    table.start()
    play_until(table, main_phase(table))
    gone = 2
    table.tamper = lambda env: None if env.body.author == gone else env.to_bytes()
    play_around(table, gone)
    owed = [o for o in table.sessions[0].owed_steps() if o.seat == gone]
    assert owed, "the game does not wait for the silent seat"
    automatic = owed[0].step != "decision"
    if automatic:
        with pytest.raises(IllegalActionError, match="can be left behind after"):
            table.sessions[0].abandon([gone], table.sessions[0].last_progress + 1.0)
    table._carry_out(0, table.sessions[0].abandon([gone], 60.0))
    table.pump()
    assert table.sessions[0].abandoned is None  # seat 1 has not agreed yet
    assert table.sessions[1].abandon_votes == {0: (gone,)}  # seat 0's vote stands there
    with pytest.raises(IllegalActionError):
        table.sessions[1].abandon([1], 60.0)  # a seat cannot sign itself out
    with pytest.raises(IllegalActionError, match="owes the game nothing"):
        table.sessions[1].abandon([0], 60.0)  # seat 0 owes nothing
    table._carry_out(1, table.sessions[1].abandon([gone], 60.0))
    table.pump()
    for seat in (0, 1):
        session = table.sessions[seat]
        assert session.abandoned == (gone,) and session.is_over
        assert session.stopped is None
        assert [o.seat for o in session.abandon_owed] == [gone]
    assert table.sessions[gone].abandoned is None  # it never heard; it never counts itself out


def test_an_abandon_against_a_seat_that_answers_is_void() -> None:
    """Review finding: in a 2-seat game one seat's signature was every remaining one, so it
    could end the game against a responsive opponent and escape the audit. A vote now stands
    only while the seat it names owes the step it names and has signed nothing its signer had
    not seen; a seat that is still there answers any vote against it (``present``). The
    honest seat goes on, and once the cheater has
    stalled it leaves the cheater behind, naming the step the cheater owes. (Not even the
    cheater's own session, nor a verifier of its log, counts the false vote.)"""
    table = Table(2, seed=4)
    table.start()
    cheat, _ = play_until(table, main_phase(table))
    honest = 1 - cheat
    session = table.sessions[cheat]
    with pytest.raises(IllegalActionError, match="owes the game nothing"):
        session.abandon([honest], 60.0)  # an honest session refuses to sign it
    effects: list[Effect] = []
    session.sign("abandon", ((honest,), session.heads(), (("decision", -1),)), effects)
    table._carry_out(cheat, effects)
    assert session.abandoned is None  # not even the cheater's own session counts it
    table.pump()
    victim = table.sessions[honest]
    assert victim.abandoned is None and victim.abandon_votes == {} and victim.stopped is None
    (present,) = [
        Envelope.parse(d) for d in table.logs[honest] if Envelope.parse(d).body.kind == "present"
    ]
    assert present.body.author == honest
    owed = [o for o in victim.owed_steps() if o.seat == cheat]
    assert owed, "the honest seat does not wait for the cheater"
    table._carry_out(honest, victim.abandon([cheat], 60.0))
    assert victim.abandoned == (cheat,)
    assert victim.abandon_owed == (owed[0],)


def test_a_game_that_spends_its_hash_chains_ends_blaming_nobody() -> None:
    """§6: the chains commit to ``L`` chance events; one more ends the game cleanly, with no
    seat named (never a crash asking a chain for a preimage it does not have)."""
    table = Table(2, seed=2)
    table.start()
    seat, roll = play_until(table, is_roll)
    for session in table.sessions:
        session.beacon.next_event = CHAIN_LENGTH + 1
    table.act(seat, roll)
    for session in table.sessions:
        assert session.stopped is not None and session.stopped.author is None
        assert f"all {CHAIN_LENGTH} chance events" in session.stopped.reason


def test_a_divergence_names_the_message_where_it_began() -> None:
    """§11: each turn ends with every seat's hash of the public state and the trail of hashes
    after each message of the turn; a mismatch names the first message where they part."""
    table, ender, end = first_game_reaching(
        8, lambda _: lambda _, action: isinstance(action, A.EndTurn)
    )
    other = (ender + 1) % 3
    part_at = 2

    def diverge(env: Envelope) -> bytes:
        turn, _, trail = env.body.payload
        forked = (*trail[:part_at], b"\x00" * 8, *trail[part_at + 1 :])
        return resign(env, table, payload=(turn, b"\x00" * 32, forked))

    _falsify("turn_ack", other, table, diverge)
    table.act(ender, end)
    witness = table.sessions[ender]
    began = witness.acks.closed_trail[part_at][0].body
    # either side may be wrong: the witness accuses the acknowledgement (§11.1), in words
    # that say where the trails part, and the audit of the game so far will judge it
    contested, accusation = witness.accusations[ender]
    (ack,) = [e for e in witness.accepted[other] if e.id == contested]
    assert ack.body.kind == "turn_ack"
    (accuse,) = [e for e in witness.accepted[ender] if e.id == accusation]
    reason = accuse.body.payload[1]
    assert f"seat {other}'s public state after turn" in reason
    assert f"began at seat {began.author}'s message #{began.seq} ({began.kind})" in reason
