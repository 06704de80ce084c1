"""Benchmark the mental-poker development deck and the end-of-game audit (PROTOCOL.md §13, §14).

Usage: python scripts/bench_crypto.py [--seats 2,3,4,5,6] [--games 2] [--reps 3] [--quick]
                                      [--setup-only] [--json] [--seed 0] [--log-dir DIR]

Each table size plays its game (scripts/bench_net.py ``game_for``): base for 2-4 seats (25
development cards), five-six for 5-6 (34 cards).

Targets (issues), on loopback: deck set-up <= 2 s for 4 seats and <= 3 s for six peer processes
(five-six), a draw <= 150 ms, the audit of a whole game <= 2 s. Figures are printed, never
asserted (../shared/ARCHITECTURE.md: scripts/); ``--json`` ends the output with one JSON line of
the set-up figures, ``--setup-only`` stops after section 1.
Every figure times the real code: ``Deck``/``apply_shuffle``/``Deck.prove``/``verify_shuffle`` for
the crypto alone, ``hexlan.net.peer.Peer`` on a 127.0.0.1 TCP mesh for the rest, ``run_audit``
for the audit. The peers are only observed: their log's ``append_message``, their deck's
``set_challenges``/``mark_verified`` and their dealer's ``verification_job`` are wrapped to note
the time, and bots' decisions are timed as they return (the peer signs them at once).

1. Deck set-up: the joint key, every seat's shuffle, the beacon's challenge event, every seat's
   proof of its shuffle (Terelius–Wikström) and every seat's check of every other seat's proof.

   (a) the critical path with one machine per seat, from the functions timed here:
       keys (one proof, N-1 checks) + the chain of shuffles (every seat draws its shuffle's
       masks as soon as the key is there, then in seat order shuffles once its masks and its
       input are there, and the next seat validates the deck) + the beacon round (measured in
       (b1)) + the slowest seat's proof of its shuffle + max over seats of (that seat's
       checks of the N-1 other proofs);
   (a') the same in CPU time (``time.process_time``, every thread), which other jobs on the
       machine do not inflate, beside libsodium's CPU cost per call and the model of a proof
       check they give (per card 8 P·k, a G·k and about 10 point additions), and the bytes
       a seat publishes for its shuffle and proof;
   (b) the wall time of N real peers, from the first message signed to every seat's
       ``session.dealer.deck.ready``: (b1) in one process and one event loop, as
       scripts/bench_net.py runs them (proof work goes to worker threads, libsodium releases
       the GIL); (b2) in N subprocesses, one per seat, which shows what this machine's cores
       allow when every seat has its own interpreter (started highest seat first, 0.1 s
       apart, and timed from seat 0's first message, so that no call waits out the mesh's
       0.2 s redial). Timestamps come from ``time.perf_counter`` (CLOCK_MONOTONIC, one clock
       for every process on Linux). Shown besides: when every seat has laid the board (set-up
       placement can begin: the game waits for no deck), the last shuffle, the beacon round,
       and when every seat has every shuffle proof in (the deck is *set up*: a card bought is
       dealt at once). The proofs are checked off the critical path and every seat's deck is
       *ready* (its first reveal can happen) only when its checks pass (PROTOCOL.md §13.6).
       (b2) also gives the N processes' CPU time until ready, split at the challenges: the
       keys, draws and shuffles before, the proofs and the N(N-1) checks after.

2.-5. Networked bot games (``Peer`` per seat, heuristic bots, one event loop as in
   bench_net.py), for every table size, ``--games`` each:

   2. a draw: from the buyer's bot returning BuyDevelopmentCard (the peer signs it at once) to
      the DrawCard applied on every seat (every other seat's decryption share, each ordered by
      the buyer's ``advance``); draws bought before every seat's deck was ready are shown
      apart (they wait for the set-up); with the crypto alone for comparison;
   3. a card play: from the bot returning the play to the play applied on every seat (the
      ``card_reveal`` and the action, checked by every seat);
   4. the audit: from the last ``audit_secrets`` signed to every seat's ``session.audited``
      (and from the win), then ``run_audit`` alone on a finished 4-seat game;
   5. the bytes the deck and the audit add to the log: envelope bytes per message kind over
      finished games of the largest table, and their share of all envelope bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_net import (  # scripts/ is on the path when run
    NAMES,
    STAGGER,
    game_for,
    loopback_opening,
    run_seat_processes,
)

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import make_bot
from hexlan.engine.info import InformationState
from hexlan.net.audit import run_audit
from hexlan.net.deck import Deck, JointKey, derive_deck_secret, derive_shuffle_seed
from hexlan.net.group import ScalarStream, add, base_mul, is_point, mul
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.lobby import free_port
from hexlan.net.log import read_log
from hexlan.net.peer import Peer, PeerEvent
from hexlan.net.session import DEVELOPMENT_DECK, Session
from hexlan.net.shuffle import apply_shuffle, pack_deck, shuffle_deck
from hexlan.net.wire import Envelope, Opening

STRATEGY = "heuristic"
DECK_KINDS = ("deck_key", "shuffle", "shuffle_proof", "draw_share", "card_reveal")
AUDIT_KINDS = ("audit_secrets", "audit_result")
PLAYS = (A.PlayKnight, A.PlayRoadBuilding, A.PlayYearOfPlenty, A.PlayMonopoly)
SETUP_TIMEOUT = 90.0
TARGETS = (
    "targets: deck set-up <= 2 s (4 seats), <= 3 s (6 peer processes), a draw <= 150 ms, a "
    "whole-game audit <= 2 s"
)


# ---------------------------------------------------------------------------- helpers


def _q(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.0f}"


def _p50_p95(values: Sequence[float]) -> str:
    return f"{_ms(_q(values, 0.5))} / {_ms(_q(values, 0.95))}"


def _timed(call: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Seconds taken by ``call(*args)``, and its result."""
    start = time.perf_counter()
    result = call(*args)
    return time.perf_counter() - start, result


def _cpu_timed(call: Callable[..., Any], *args: Any) -> tuple[float, float, Any]:
    """Wall seconds and CPU seconds (this process, every thread) of ``call(*args)``, and its
    result. The CPU time is what the call costs whatever else loads the machine."""
    cpu, start = time.process_time(), time.perf_counter()
    result = call(*args)
    return time.perf_counter() - start, time.process_time() - cpu, result


def _primitive_costs(reps: int = 400) -> dict[str, float]:
    """CPU microseconds of one call of each libsodium operation a shuffle proof check makes
    (through PyNaCl, as net/group.py calls it): ``G·k``, ``P·k`` (which first checks that ``P``
    is in the prime-order group: about half its cost), a point addition (which decodes both
    points and encodes the sum) and that subgroup check alone."""
    k = ScalarStream(bytes(32), b"bench-primitives").scalar()
    p = base_mul(k)
    calls: dict[str, Callable[[], object]] = {
        "base_mul": lambda: base_mul(k),
        "mul": lambda: mul(k, p),
        "add": lambda: add(p, p),
        "is_point": lambda: is_point(p),
    }
    costs = {}
    for name, call in calls.items():
        start = time.process_time()
        for _ in range(reps):
            call()
        costs[name] = (time.process_time() - start) / reps * 1e6
    return costs


def _free_ports(players: int) -> list[int]:
    return [free_port("127.0.0.1") for _ in range(players)]


# ---------------------------------------------------------------------------- observing a peer


@dataclass
class Probe:
    """What one peer did, with ``time.perf_counter`` times (observed, never changed)."""

    seat: int
    messages: list[tuple[float, bytes]] = field(default_factory=list)
    """Every envelope the peer logged (its own when signed, others' when accepted)."""
    events: list[PeerEvent] = field(default_factory=list)
    decisions: list[tuple[float, Action]] = field(default_factory=list)
    challenged: float | None = None
    challenged_cpu: float | None = None
    """``time.process_time()`` when the challenges were set: this process's CPU split between
    keys, draws and shuffles before, and proofs and checks after."""
    started: float | None = None
    """The board is laid (the start event resolved): set-up placement can begin; the game
    waits for no deck (PROTOCOL.md §13.10)."""
    usable: float | None = None
    """Every seat's shuffle proof is applied here: the deck is set up, a card bought is dealt,
    its reveal waits for :attr:`ready` (§13.6)."""
    ready: float | None = None
    """Every proof has passed this seat's checks: the deck's first reveal can happen."""

    def own(self, kind: str) -> list[float]:
        """Times this seat signed its messages of ``kind``."""
        times = []
        for t, data in self.messages:
            body = Envelope.parse(data).body
            if body.author == self.seat and body.kind == kind:
                times.append(t)
        return times

    def applied(self, kinds: type | tuple[type, ...]) -> list[float]:
        return [
            e.time
            for e in self.events
            if e.kind == "applied" and isinstance(e.action, kinds) and not e.replayed
        ]

    def failed_dials(self) -> int:
        return sum(1 for e in self.events if e.kind == "link" and "cannot reach" in e.text)


def _observe(peer: Peer, probe: Probe, on_ready: Callable[[], None] = lambda: None) -> None:
    """Note the time of every logged envelope, of the board laid (the first envelope logged
    once the session has its view), and of the deck's challenges, proofs in and readiness."""
    session = peer.session
    log, dealer = peer.log, session.dealer
    deck = dealer.deck
    append, set_challenges, mark_verified, verification_job = (
        log.append_message,
        deck.set_challenges,
        deck.mark_verified,
        dealer.verification_job,
    )

    def append_message(envelope_bytes: bytes, *, sync: bool = True) -> None:
        now = time.perf_counter()
        probe.messages.append((now, bytes(envelope_bytes)))
        if probe.started is None and session.view is not None:
            probe.started = now
        append(envelope_bytes, sync=sync)

    def proof_in(seat: int, proof: Sequence[object]) -> Callable[[], str | None]:
        job = verification_job(seat, proof)
        if len(dealer.proved) == deck.key.players and probe.usable is None:
            probe.usable = time.perf_counter()
        return job

    def challenges(beacon: bytes) -> None:
        set_challenges(beacon)
        probe.challenged = time.perf_counter()
        probe.challenged_cpu = time.process_time()

    def verified(seat: int) -> None:
        mark_verified(seat)
        if deck.ready and probe.ready is None:
            probe.ready = time.perf_counter()
            on_ready()

    log.append_message = append_message  # type: ignore[method-assign]
    deck.set_challenges = challenges  # type: ignore[method-assign]
    deck.mark_verified = verified  # type: ignore[method-assign]
    dealer.verification_job = proof_in  # type: ignore[method-assign]


def _peer(
    seat: int,
    opening: Opening,
    keys: SeatKeys,
    path: Path,
    probe: Probe,
    decide: Callable[[InformationState, int], Action] | None,
) -> Peer:
    return Peer(
        seat,
        keys.identity,
        opening,
        keys.chain,
        keys.game_keys,
        path,
        decide,
        probe.events.append,
        host_address="127.0.0.1",
        listen_host="127.0.0.1",
        kind=f"bot {STRATEGY}" if decide else "bench",
        clock=time.perf_counter,
    )


# ---------------------------------------------------------------------------- 1a: crypto alone


@dataclass
class CryptoPath:
    """One deck set-up from the functions alone, seconds."""

    players: int
    keys: float  # one proof + the N-1 checks of a seat (the slowest)
    draws: list[float]  # per seat: Deck.draw_shuffle (masks, permutation commitment)
    shuffles: list[float]  # per seat: apply_shuffle of its draw to its input deck
    validations: list[float]  # per seat: Deck.add_shuffle of its deck (card validation)
    responses: list[float]  # per seat: Deck.prove, its proof of its shuffle
    checks: list[float]  # per verifying seat: its checks of the N-1 other proofs
    published: tuple[int, int]  # bytes of a seat's shuffled deck and of its proof

    def chain(self) -> float:
        """From the joint key to the last shuffle validated: every seat draws its masks at
        once, and shuffles when both its masks and the previous seat's deck are there."""
        t = 0.0
        for draw, shuffle, validate in zip(
            self.draws, self.shuffles, self.validations, strict=True
        ):
            t = max(t, draw) + shuffle + validate
        return t

    def total(self, beacon: float) -> float:
        return self.keys + self.chain() + beacon + max(self.responses) + max(self.checks)


@dataclass
class _Times:
    """Wall and CPU seconds of calls, in call order."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def pick(self, cpu: bool) -> list[float]:
        return self.cpu if cpu else self.wall


def _timed_into(into: _Times, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, its wall and CPU seconds appended to ``into``."""
    wall, cpu, result = _cpu_timed(call, *args)
    into.wall.append(wall)
    into.cpu.append(cpu)
    return result


def _ready_deck(players: int, seed: int) -> tuple[CryptoPath, CryptoPath, Deck, list[bytes]]:
    """Build and verify a development deck for ``players`` seats, timing each step: the
    critical path in wall times and the same in CPU times (this process, every thread), the
    deck and the seats' ElGamal secrets."""
    keys = [SeatKeys.seeded(seed, seat) for seat in range(players)]
    opening = make_opening(NAMES[:players], keys, created=0, game=game_for(players))
    seeds = [k.chain.secret for k in keys]  # a seat's per-game seed, as Session uses it
    secrets = [derive_deck_secret(s) for s in seeds]
    faces = Session(
        0, keys[0].identity, opening, keys[0].chain, keys[0].game_keys
    ).dealer.deck.faces
    key_times = [_Times() for _ in range(players)]  # per seat: its proof, its N-1 checks
    draws, shuffles, validations, responses = _Times(), _Times(), _Times(), _Times()
    check_times = [_Times() for _ in range(players)]  # per verifying seat

    joint = JointKey(players, opening.game_id)
    published = [
        _timed_into(key_times[seat], joint.prove, seat, secrets[seat]) for seat in range(players)
    ]
    # every seat checks every other seat's key proof (one JointKey per verifier)
    for verifier in range(players):
        mine = JointKey(players, opening.game_id)
        for seat, (share, proof) in enumerate(published):
            if seat != verifier:
                _timed_into(key_times[verifier], mine.add, seat, share, proof)
            else:
                mine.add(seat, share, proof)
        joint_again = mine.joint
    for seat, (share, proof) in enumerate(published):
        joint.add(seat, share, proof)
    assert joint.joint == joint_again
    deck = Deck(DEVELOPMENT_DECK, faces, joint, opening.game_id)
    shuffled = []
    for seat in range(players):
        drawn = _timed_into(draws, deck.draw_shuffle, seeds[seat])
        commitment, secret = _timed_into(shuffles, apply_shuffle, deck.current, drawn)
        shuffled.append((commitment, secret))
        _timed_into(validations, deck.add_shuffle, seat, pack_deck(commitment.output))
    deck.set_challenges(random.Random(seed).randbytes(32))
    answers = [
        _timed_into(responses, deck.prove, seat, *shuffled[seat]).pack() for seat in range(players)
    ]
    sizes = (len(pack_deck(shuffled[0][0].output)), sum(map(len, answers[0])))
    for verifier in range(players):
        for seat in range(players):
            if seat != verifier:
                _timed_into(check_times[verifier], deck.verification_job(seat, answers[seat]))
    for seat in range(players):
        deck.mark_verified(seat)
    assert deck.ready
    wall_path, cpu_path = (
        CryptoPath(
            players,
            max(sum(t.pick(cpu)) for t in key_times),
            draws.pick(cpu),
            shuffles.pick(cpu),
            validations.pick(cpu),
            responses.pick(cpu),
            [sum(t.pick(cpu)) for t in check_times],
            sizes,
        )
        for cpu in (False, True)
    )
    return wall_path, cpu_path, deck, secrets


@dataclass
class DealCosts:
    """The crypto of dealing and showing cards, seconds per call (lists over cards)."""

    prove: list[float] = field(default_factory=list)  # Deck.own_share (DLEQ proof)
    check: list[float] = field(default_factory=list)  # Deck.add_share (DLEQ check)
    open: list[float] = field(default_factory=list)  # Deck.open by the owner
    show_proof: list[float] = field(default_factory=list)  # Deck.prove_show by the owner
    show_check: list[float] = field(default_factory=list)  # Deck.show by a seat (OR-proof check)
    listed: list[int] = field(default_factory=list)  # positions each show lists


def _deal_costs(deck: Deck, secrets: Sequence[bytes], cards: int) -> DealCosts:
    """Deal ``cards`` cards round the table and show each among every position its owner was
    dealt so far (as a card play lists them, PROTOCOL.md §13.8), timing every deck call."""
    players = len(secrets)
    costs = DealCosts()
    dealt: list[list[int]] = [[] for _ in range(players)]
    for k in range(min(cards, deck.remaining)):
        owner = k % players
        position = deck.deal(owner)
        dealt[owner].append(position)
        for seat in range(players):
            if seat == owner:
                continue
            t, (share, proof) = _timed(deck.own_share, position, secrets[seat], seat)
            costs.prove.append(t)
            t, _ = _timed(deck.add_share, position, seat, share, proof)
            costs.check.append(t)
        t, index = _timed(deck.open, position, secrets[owner])
        costs.open.append(t)
        t, proof = _timed(deck.prove_show, index, dealt[owner], secrets[owner], owner)
        costs.show_proof.append(t)
        t, _ = _timed(deck.show, owner, index, dealt[owner], proof)
        costs.show_check.append(t)
        costs.listed.append(len(dealt[owner]))
    return costs


# ---------------------------------------------------------------------------- 1b: real peers


@dataclass
class SetupRun:
    """One networked deck set-up, seconds from the first message signed."""

    players: int
    wall: float  # until every seat's deck is ready (every proof checked everywhere)
    started: float  # until every seat has laid the board (set-up placement can begin)
    usable: float  # until every seat has every shuffle proof in (the deck is set up)
    shuffled: float  # until the last seat signed its shuffle
    beacon: float  # from the last shuffle signed until every seat has the challenges
    failed_dials: int
    cpu: float = 0.0  # CPU seconds of every seat (all threads) until its deck was ready
    cpu_after: float = 0.0  # of which after each seat had the challenges (proofs, checks)


def _setup_run(
    players: int,
    first: Sequence[float],
    shuffles: Sequence[float],
    challenged: Sequence[float],
    times: tuple[Sequence[float], Sequence[float], Sequence[float]],
    failed_dials: int,
    *,
    from_last: bool = False,
    cpu: float = 0.0,
    cpu_after: float = 0.0,
) -> SetupRun:
    """``times``: every seat's (board laid, proofs in, deck ready)."""
    start = max(first) if from_last else min(first)
    started, usable, ready = times
    return SetupRun(
        players,
        wall=max(ready) - start,
        started=max(started) - start,
        usable=max(usable) - start,
        shuffled=max(shuffles) - start,
        beacon=max(challenged) - max(shuffles),
        failed_dials=failed_dials,
        cpu=cpu,
        cpu_after=cpu_after,
    )


async def _setup_in_loop(seed: int, players: int, log_dir: Path) -> SetupRun:
    """N peers in this event loop, until every deck is ready (the game waits for no bot)."""
    opening, keys = loopback_opening(seed, players, _free_ports(players))
    probes = [Probe(seat) for seat in range(players)]
    all_ready = asyncio.Event()

    def on_ready() -> None:
        if all(p.ready is not None for p in probes):
            all_ready.set()

    peers = []
    for seat in range(players):
        path = log_dir / f"setup-{seed}-{players}p-seat{seat}.log"
        peer = _peer(seat, opening, keys[seat], path, probes[seat], None)
        _observe(peer, probes[seat], on_ready)
        peers.append(peer)
    tasks = [asyncio.create_task(peer.run()) for peer in peers]
    waiter = asyncio.create_task(all_ready.wait())
    try:
        await asyncio.wait(
            [waiter, *tasks], timeout=SETUP_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        for task in [waiter, *tasks]:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    if not all_ready.is_set():
        errors = [repr(o) for o in outcomes if isinstance(o, BaseException)]
        raise RuntimeError(f"the {players}-seat deck set-up did not finish: {errors}")
    return _setup_run(
        players,
        [p.messages[0][0] for p in probes],
        [p.own("shuffle")[0] for p in probes],
        [p.challenged for p in probes if p.challenged is not None],
        (
            [p.started for p in probes if p.started is not None],
            [p.usable for p in probes if p.usable is not None],
            [p.ready for p in probes if p.ready is not None],
        ),
        sum(p.failed_dials() for p in probes),
    )


def _setup_subprocesses(seed: int, players: int, log_dir: Path) -> SetupRun:
    """One process per seat (this script with ``--child``), each started once all have
    imported everything and built their peer: highest seat first, :data:`STAGGER` apart, so a
    seat's calls (it dials the higher seats) find them listening rather than wait out the
    mesh's 0.2 s redial. Timed from the first message of the last seat started (seat 0): the
    earlier seats can do nothing but sign their opening and key share until it is there."""
    ports = _free_ports(players)
    specs = [
        {
            "seed": seed,
            "players": players,
            "seat": seat,
            "ports": ports,
            "log": str(log_dir / f"setup-proc-{seed}-{players}p-seat{seat}.log"),
        }
        for seat in range(players)
    ]
    reports, _ = run_seat_processes(__file__, specs, stop=True)
    return _setup_run(
        players,
        [r["first"] for r in reports],
        [r["shuffle"] for r in reports],
        [r["challenged"] for r in reports],
        (
            [r["started"] for r in reports],
            [r["usable"] for r in reports],
            [r["ready"] for r in reports],
        ),
        sum(r["failed_dials"] for r in reports),
        from_last=True,
        cpu=sum(r["cpu"] for r in reports),
        cpu_after=sum(r["cpu_after"] for r in reports),
    )


def _child(spec_text: str) -> int:
    """One seat of :func:`_setup_subprocesses`: report the times as one JSON line."""
    spec = json.loads(spec_text)
    seat, players = spec["seat"], spec["players"]
    opening, keys = loopback_opening(spec["seed"], players, spec["ports"])
    probe = Probe(seat)

    async def run() -> None:
        ready = asyncio.Event()
        cpu: list[float] = []

        def on_ready() -> None:
            cpu.append(time.process_time())
            ready.set()

        peer = _peer(seat, opening, keys[seat], Path(spec["log"]), probe, None)
        _observe(peer, probe, on_ready)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)  # "go"
        cpu.append(time.process_time())
        task = asyncio.create_task(peer.run())
        waiter = asyncio.create_task(ready.wait())
        await asyncio.wait(
            [waiter, task], timeout=SETUP_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if None in (
            probe.ready,
            probe.challenged,
            probe.challenged_cpu,
            probe.started,
            probe.usable,
        ):
            waiter.cancel()
            error = "timed out" if not task.done() else repr(task.exception())
            print(json.dumps({"error": f"seat {seat}: {error}"}), flush=True)
        else:
            assert probe.challenged_cpu is not None  # as the others, checked just above
            report = {
                "first": probe.messages[0][0],
                "shuffle": probe.own("shuffle")[0],
                "challenged": probe.challenged,
                "started": probe.started,
                "usable": probe.usable,
                "ready": probe.ready,
                "failed_dials": probe.failed_dials(),
                "cpu": cpu[-1] - cpu[0],
                "cpu_after": cpu[-1] - probe.challenged_cpu,
            }
            print(json.dumps(report), flush=True)
            await loop.run_in_executor(None, sys.stdin.readline)  # "stop": every seat is ready
        task.cancel()
        with contextlib.suppress(BaseException):
            await task

    asyncio.run(run())
    return 0


# ---------------------------------------------------------------------------- 2-5: bot games


@dataclass
class GameRun:
    """One networked bot game as observed."""

    players: int
    probes: list[Probe]
    peers: list[Peer]
    seconds: float
    agreed: bool
    audits: list[str | None]


async def _bot_game(seed: int, players: int, log_dir: Path) -> GameRun:
    opening, keys = loopback_opening(seed, players, _free_ports(players))
    probes = [Probe(seat) for seat in range(players)]
    peers = []
    for seat in range(players):
        bot = make_bot(STRATEGY, random.Random(seed * 100 + seat))
        probe = probes[seat]

        def decide(view: InformationState, s: int, bot: Any = bot, probe: Probe = probe) -> Action:
            action: Action = bot.choose(view, s)
            probe.decisions.append((time.perf_counter(), action))
            return action

        path = log_dir / f"game-{seed}-{players}p-seat{seat}.log"
        peer = _peer(seat, opening, keys[seat], path, probe, decide)
        _observe(peer, probe)
        peers.append(peer)
    start = time.perf_counter()
    results = await asyncio.gather(*(peer.run() for peer in peers))
    audited = [e.time for p in probes for e in p.events if e.kind == "audit"]
    end = max(audited) if len(audited) == players else time.perf_counter()
    return GameRun(
        players,
        probes,
        peers,
        end - start,
        agreed=len({(r.winner, r.state_hash) for r in results}) == 1,
        audits=[r.audit for r in results],
    )


def _paired(starts: list[float], ends_per_seat: Sequence[list[float]]) -> list[float]:
    """The k-th start to the k-th end on the last seat (draws and plays are one at a time)."""
    starts = sorted(starts)
    return [
        max(ends[k] for ends in ends_per_seat) - started
        for k, started in enumerate(starts)
        if all(k < len(ends) for ends in ends_per_seat)
    ]


def _decided(game: GameRun, kinds: type | tuple[type, ...]) -> list[float]:
    return [t for p in game.probes for t, action in p.decisions if isinstance(action, kinds)]


def _draw_latencies(game: GameRun) -> tuple[list[float], list[float]]:
    """Draws bought once every seat's deck was ready, and draws bought before (they wait for
    the set-up to finish)."""
    buys = sorted(_decided(game, A.BuyDevelopmentCard))
    latencies = _paired(buys, [p.applied(A.DrawCard) for p in game.probes])
    ready = max(p.ready or float("inf") for p in game.probes)
    after = [x for x, t in zip(latencies, buys, strict=False) if t >= ready]
    before = [x for x, t in zip(latencies, buys, strict=False) if t < ready]
    return after, before


def _play_latencies(game: GameRun) -> list[float]:
    return _paired(_decided(game, PLAYS), [p.applied(PLAYS) for p in game.probes])


def _other_latencies(game: GameRun) -> list[float]:
    """Every other decision, from the bot's return to its action applied on every seat."""
    applied: dict[bytes, list[float]] = defaultdict(list)
    for p in game.probes:
        for e in p.events:
            if e.kind == "applied" and not e.replayed:
                applied[e.message_id].append(e.time)
    result = []
    for p in game.probes:
        signed = [e for e in p.events if e.kind == "signed"]
        for (t, action), event in zip(p.decisions, signed, strict=False):
            if isinstance(action, (A.BuyDevelopmentCard, *PLAYS)):
                continue
            times = applied.get(event.message_id, [])
            if len(times) == game.players:
                result.append(max(times) - t)
    return result


def _audit_latency(game: GameRun) -> tuple[float, float] | None:
    """(last audit_secrets signed -> every seat audited, win -> every seat audited)."""
    secrets = [t for p in game.probes for t in p.own("audit_secrets")]
    audited = [e.time for p in game.probes for e in p.events if e.kind == "audit"]
    wins = [t for p in game.probes for t in p.applied(A.RevealVictory)]
    if len(secrets) != game.players or len(audited) != game.players or not wins:
        return None
    return max(audited) - max(secrets), max(audited) - min(wins)


def _inproc_session(seed: int, players: int) -> tuple[Session, list[bytes]]:
    """A finished in-process bot game (audit included): seat 0's session and its log."""
    table = InProcessTable(list(NAMES[:players]), seed=seed)
    bots = [make_bot(STRATEGY, random.Random(seed * 100 + seat)) for seat in range(players)]
    table.play_bots(bots)
    return table.sessions[0], table.logs[0]


def _kind_bytes(envelopes: Sequence[bytes]) -> dict[str, tuple[int, int]]:
    """Per message kind: (messages, envelope bytes)."""
    count: dict[str, int] = defaultdict(int)
    size: dict[str, int] = defaultdict(int)
    for data in envelopes:
        kind = Envelope.parse(data).body.kind
        count[kind] += 1
        size[kind] += len(data)
    return {kind: (count[kind], size[kind]) for kind in count}


# ---------------------------------------------------------------------------- report


def _load_average_text() -> str:
    """The load averages as ``"1.85 2.05 1.91"`` (``"?"`` where the system has none)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def _machine() -> str:
    cores = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    return (
        f"machine: {cores} cores ({usable} usable by this process), load average "
        f"{_load_average_text()}; shuffles and proof checks use min(4, cores) = {min(4, cores)} "
        "threads"
    )


def _median_ms(values: Iterable[float]) -> int:
    """The median of seconds, in whole milliseconds."""
    return round(statistics.median(values) * 1000)


@dataclass
class _Setups:
    """Section 1's measurements, per table size: the critical paths from the functions alone
    (wall and CPU), the networked set-ups (one event loop, one process per seat), the last
    deck built (with the seats' secrets), and libsodium's CPU µs per call."""

    sizes: list[int]
    primitives: dict[str, float]
    paths: dict[int, list[CryptoPath]] = field(default_factory=dict)
    cpu_paths: dict[int, list[CryptoPath]] = field(default_factory=dict)
    in_loop: dict[int, list[SetupRun]] = field(default_factory=dict)
    in_procs: dict[int, list[SetupRun]] = field(default_factory=dict)
    decks: dict[int, tuple[Deck, list[bytes]]] = field(default_factory=dict)

    def beacon(self, n: int) -> float:
        """The median beacon round of (b1) at ``n`` seats (the critical paths' beacon)."""
        return statistics.median(s.beacon for s in self.in_loop[n])


def _run_setups(sizes: Sequence[int], reps: int, seed: int, log_dir: Path) -> _Setups:
    """``reps`` deck set-ups per size in each mode: the functions alone, one event loop, one
    process per seat (after timing libsodium's primitives)."""
    setups = _Setups(list(sizes), _primitive_costs())
    for n in sizes:
        setups.paths[n], setups.cpu_paths[n] = [], []
        for r in range(reps):
            path, cpu_path, deck, secrets = _ready_deck(n, seed + r)
            setups.paths[n].append(path)
            setups.cpu_paths[n].append(cpu_path)
            setups.decks[n] = (deck, secrets)
        setups.in_loop[n] = [asyncio.run(_setup_in_loop(seed + r, n, log_dir)) for r in range(reps)]
        setups.in_procs[n] = [_setup_subprocesses(seed + r, n, log_dir) for r in range(reps)]
    return setups


@dataclass(frozen=True, slots=True)
class _PathMedians:
    """Medians over one table size's set-ups of their critical paths (seconds, wall or CPU):
    the keys, the chain of shuffles, the slowest proof, the slowest seat's checks, the total
    (and the best total), one seat's draw, shuffle, validation and proof check, and the table's
    N draws and N(N-1) checks."""

    keys: float
    chain: float
    prove: float
    max_check: float
    total: float
    best: float
    one_draw: float
    one_shuffle: float
    one_validation: float
    one_check: float
    table_draws: float
    table_checks: float


def _path_medians(crypto: Sequence[CryptoPath], beacon: float, n: int) -> _PathMedians:
    """The medians of ``n``-seat critical paths, with ``beacon`` seconds for the beacon round."""
    median = statistics.median
    return _PathMedians(
        keys=median(p.keys for p in crypto),
        chain=median(p.chain() for p in crypto),
        prove=median(max(p.responses) for p in crypto),
        max_check=median(max(p.checks) for p in crypto),
        total=median(p.total(beacon) for p in crypto),
        best=min(p.total(beacon) for p in crypto),
        one_draw=median(t for p in crypto for t in p.draws),
        one_shuffle=median(t for p in crypto for t in p.shuffles),
        one_validation=median(t for p in crypto for t in p.validations),
        one_check=median(t / (n - 1) for p in crypto for t in p.checks),
        table_draws=median(sum(p.draws) for p in crypto),
        table_checks=median(sum(p.checks) for p in crypto),
    )


def _size_figures(setups: _Setups, n: int) -> dict[str, Any]:
    """Section 1's JSON figures of one table size (see :func:`_setup_figures`)."""
    wall = _path_medians(setups.paths[n], setups.beacon(n), n)
    cpu = _path_medians(setups.cpu_paths[n], setups.beacon(n), n)
    in_loop, in_procs = setups.in_loop[n], setups.in_procs[n]
    loop_walls = [s.wall for s in in_loop]
    proc_walls = [s.wall for s in in_procs]
    return {
        "game": game_for(n),
        "cards": setups.decks[n][0].size,
        "critical_path_ms": round(wall.total * 1000),
        "one_loop_ms": _median_ms(loop_walls),
        "one_loop_runs_ms": [round(w * 1000) for w in loop_walls],
        "processes_ms": _median_ms(proc_walls),
        "processes_runs_ms": [round(w * 1000) for w in proc_walls],
        "processes_beacon_ms": _median_ms(s.beacon for s in in_procs),
        "processes_board_laid_ms": _median_ms(s.started for s in in_procs),
        "processes_deck_set_up_ms": _median_ms(s.usable for s in in_procs),
        "one_loop_deck_set_up_ms": _median_ms(s.usable for s in in_loop),
        "processes_last_shuffle_ms": _median_ms(s.shuffled for s in in_procs),
        # CPU seconds of all six (N) processes until ready, over the machine's cores: the
        # wall time the set-up needs at least on this machine when nothing else runs.
        "processes_cpu_ms": _median_ms(s.cpu for s in in_procs),
        "processes_cpu_per_core_ms": round(
            statistics.median(s.cpu for s in in_procs) * 1000 / (os.cpu_count() or 1)
        ),
        # of which after each seat had the challenges: its proof and its N-1 checks
        "processes_cpu_after_challenges_ms": _median_ms(s.cpu_after for s in in_procs),
        # (a'), CPU of the functions alone: the critical path on one core per seat, one
        # seat's draw, one proof check, all N(N-1) checks
        "critical_path_cpu_ms": round(cpu.total * 1000),
        "draw_cpu_ms": round(cpu.one_draw * 1000),
        "check_cpu_ms": round(cpu.one_check * 1000),
        "table_checks_cpu_ms": round(cpu.table_checks * 1000),
    }


def _setup_figures(setups: _Setups) -> dict[str, Any]:
    """Section 1's figures as JSON: per size, the game, the deck's cards and the set-up wall
    times in ms (medians, and every run) of (a) the critical path, (b1) one event loop, (b2) one
    process per seat; the CPU times of (a) and (b2); libsodium's costs per call in µs."""
    figures: dict[str, Any] = {
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else [],
        "primitives_cpu_us": {name: round(us, 1) for name, us in setups.primitives.items()},
    }
    for n in setups.sizes:
        figures[f"{n}p"] = _size_figures(setups, n)
    return figures


# ---------------------------------------------------------------------------- report: 1


def _print_critical_paths(setups: _Setups) -> None:
    """Section 1 (a): the critical path in wall time from the functions alone, per size."""
    print(
        "(a) critical path with one machine per seat, from the functions timed here "
        "(medians over the set-ups; best: the fastest one; beacon: (b1)'s median):"
    )
    print(
        f"{'seats':>5} {'keys':>6} {'chain':>6} {'beacon':>7} "
        f"{'prove':>8} {'max check':>10} {'total':>7} {'best':>6}   "
        "one draw / one shuffle from it / one validation / one proof check"
    )
    for n in setups.sizes:
        beacon = setups.beacon(n)
        m = _path_medians(setups.paths[n], beacon, n)
        print(
            f"{n:>5} {_ms(m.keys):>6} {_ms(m.chain):>6} {_ms(beacon):>7} "
            f"{_ms(m.prove):>8} {_ms(m.max_check):>10} {_ms(m.total):>7} {_ms(m.best):>6}   "
            f"{_ms(m.one_draw)} / {_ms(m.one_shuffle)} / {_ms(m.one_validation)} / "
            f"{_ms(m.one_check)}"
        )


def _print_cpu_paths(setups: _Setups) -> None:
    """Section 1 (a'): the same in CPU time, beside the model of a proof check from
    libsodium's costs per call."""
    print(
        "(a') the same in CPU time (this process, every thread: what the work costs whatever "
        "else loads the machine; total: the critical path on one core per seat):"
    )
    print(
        f"{'seats':>5} {'keys':>6} {'chain':>6} {'prove':>8} {'max check':>10} {'total':>7}   "
        "one draw / one check; the table's N draws / N(N-1) checks; model of one check"
    )
    primitives = setups.primitives
    per_card = primitives["base_mul"] + 8 * primitives["mul"] + 10 * primitives["add"]
    for n in setups.sizes:
        m = _path_medians(setups.cpu_paths[n], setups.beacon(n), n)
        model = setups.decks[n][0].size * per_card / 1e6
        print(
            f"{n:>5} {_ms(m.keys):>6} {_ms(m.chain):>6} {_ms(m.prove):>8} "
            f"{_ms(m.max_check):>10} {_ms(m.total):>7}   "
            f"{_ms(m.one_draw)} / {_ms(m.one_check)}; "
            f"{_ms(m.table_draws)} / {_ms(m.table_checks)}; {_ms(model)}"
        )
    print(
        "model: libsodium's share of one check, n cards, each 8 P·k, a G·k and about 10 "
        "point additions; CPU us per call: "
        + ", ".join(f"{name} {us:.1f}" for name, us in primitives.items())
        + " (P·k checks P's subgroup first, as is_point does: about half its cost)"
    )


def _print_published(setups: _Setups) -> None:
    """The bytes a seat publishes for its shuffle and its proof, per size."""
    for n in setups.sizes:
        shuffle_bytes, proof_bytes = setups.paths[n][0].published
        print(
            f"published per seat ({n} seats): its shuffled deck {shuffle_bytes} bytes, its proof "
            f"{proof_bytes} bytes ({shuffle_bytes + proof_bytes} bytes in all)"
        )


def _print_peer_setups(label: str, sizes: Sequence[int], table: dict[int, list[SetupRun]]) -> None:
    """Section 1 (b1) or (b2): the networked set-ups' milestones per size (medians)."""
    print(label)
    print(
        f"{'seats':>5} {'board laid':>10} {'last shuffle':>12} {'beacon':>7} "
        f"{'deck set up':>11} {'checked p50':>11} {'min':>6} {'max':>6} "
        f"{'dial retries':>12}"
    )
    for n in sizes:
        setups = table[n]
        walls = [s.wall for s in setups]
        print(
            f"{n:>5} {_ms(statistics.median(s.started for s in setups)):>10} "
            f"{_ms(statistics.median(s.shuffled for s in setups)):>12} "
            f"{_ms(statistics.median(s.beacon for s in setups)):>7} "
            f"{_ms(statistics.median(s.usable for s in setups)):>11} "
            f"{_ms(statistics.median(walls)):>11} {_ms(min(walls)):>6} {_ms(max(walls)):>6} "
            f"{sum(s.failed_dials for s in setups):>12}"
        )


def _print_processes_cpu(setups: _Setups) -> None:
    """Section 1 (b2)'s CPU time until ready, split at the challenges, per size."""
    for n in setups.sizes:
        cpu = statistics.median(s.cpu for s in setups.in_procs[n])
        after = statistics.median(s.cpu_after for s in setups.in_procs[n])
        cores = os.cpu_count() or 1
        print(
            f"(b2) CPU of the {n} processes (every thread) until ready, medians: {_ms(cpu)} ms = "
            f"{_ms(cpu - after)} before the challenges (keys, mask draws, shuffles, messages) + "
            f"{_ms(after)} after (proofs, the {n * (n - 1)} checks); {_ms(cpu / cores)} ms on "
            f"each of {cores} cores: the least wall time the set-up can take here"
        )


def _print_setup(setups: _Setups) -> None:
    """Section 1, the deck set-up: (a), (a'), the bytes published, (b1) and (b2)."""
    print()
    cards = ", ".join(f"{n} seats {setups.decks[n][0].size}" for n in setups.sizes)
    print(f"1. deck set-up (development cards: {cards}; Terelius–Wikström proofs of shuffle)")
    _print_critical_paths(setups)
    _print_cpu_paths(setups)
    _print_published(setups)
    _print_peer_setups(
        "(b1) N real peers, one process, one event loop (as bench_net.py): "
        "first message -> every seat ...",
        setups.sizes,
        setups.in_loop,
    )
    _print_peer_setups(
        f"(b2) N real peers, one process per seat, started {STAGGER:.1f} s apart from the "
        "highest seat: seat 0's first message -> every seat ...",
        setups.sizes,
        setups.in_procs,
    )
    _print_processes_cpu(setups)
    print(
        "board laid: every seat has laid the board, set-up placement can begin (the game waits "
        "for no deck); last shuffle: the last seat signed its shuffle; beacon: from it until "
        "every seat has the challenges; deck set up: every seat has every shuffle proof in (a "
        "card bought is dealt; its reveal waits for the checks); checked: every seat has "
        "checked the N-1 other proofs (its deck is ready: the first reveal can happen)"
    )


# ---------------------------------------------------------------------------- report: 2-5


def _game_row(n: int, runs: Sequence[GameRun]) -> str:
    """One table size's line of section 2.-3.: games, draws, plays, other actions, early
    draws, and whether every game agreed and passed its audit."""
    split = [_draw_latencies(g) for g in runs]
    draws = [x for after, _ in split for x in after]
    early = [x for _, before in split for x in before]
    plays = [x for g in runs for x in _play_latencies(g)]
    others = [x for g in runs for x in _other_latencies(g)]
    ok = all(g.agreed for g in runs) and all(a == "passed" for g in runs for a in g.audits)
    early_text = f"{len(early)}: " + ", ".join(_ms(x) for x in early) if early else "0"
    return (
        f"{n:>5} {len(runs):>5} {statistics.mean(g.seconds for g in runs):>6.1f} "
        f"{len(draws):>5} {_p50_p95(draws):>15} {len(plays):>5} {_p50_p95(plays):>15} "
        f"{_p50_p95(others):>15} {early_text:>16} "
        f"{'yes' if ok else 'NO: ' + repr(runs[0].audits):>15}"
    )


def _print_games(played: dict[int, list[GameRun]], game_sizes: Sequence[int]) -> None:
    """Sections 2.-3.: draw, play and other action latencies of the bot games, per size."""
    print()
    print(f"2.-3. networked {STRATEGY}-bot games, one event loop (as bench_net.py)")
    print(
        f"{'seats':>5} {'games':>5} {'s/game':>6} {'draws':>5} {'draw p50/p95':>15} "
        f"{'plays':>5} {'play p50/p95':>15} {'other actions':>15} {'early draws':>16} "
        f"{'agreed, audited':>15}"
    )
    for n in game_sizes:
        print(_game_row(n, played[n]))
    print(
        "draw: bot returns BuyDevelopmentCard -> DrawCard applied on every seat, for cards "
        "bought once every seat's deck was ready; early draws: bought before that (they wait "
        "for the set-up, which runs while the bots place their first settlements)"
    )
    print(
        "play: bot returns the play -> applied on every seat (its card_reveal first); other "
        "actions: the same for every other decision (bench_net.py's action latency); s/game: "
        "to every seat audited"
    )


def _print_deal_costs(setups: _Setups) -> None:
    """The crypto alone per card dealt and shown, per size (dealing from each size's deck)."""
    print("crypto alone per card (functions, medians, ms):")
    print(
        f"{'seats':>5} {'share proof':>11} {'share check':>11} {'open':>6} "
        f"{'show proof':>10} {'show check':>10} {'listed':>6} {'draw path':>9} {'play path':>9}"
    )
    for n in setups.sizes:
        deck, secrets = setups.decks[n]
        costs = _deal_costs(deck, secrets, deck.remaining)
        prove, check = statistics.median(costs.prove), statistics.median(costs.check)
        opened = statistics.median(costs.open)
        shown, seen = statistics.median(costs.show_proof), statistics.median(costs.show_check)
        listed = statistics.median(costs.listed)
        print(
            f"{n:>5} {prove * 1000:>11.2f} {check * 1000:>11.2f} {opened * 1000:>6.2f} "
            f"{shown * 1000:>10.2f} {seen * 1000:>10.2f} {listed:>6.1f} "
            f"{(prove + (n - 1) * check + opened) * 1000:>9.2f} {(shown + seen) * 1000:>9.2f}"
        )
    print(
        "draw path: one share proof (the others' in parallel) + N-1 share checks + open; "
        "play path: the owner's show proof (an OR-proof over the listed positions) + one show "
        "check per seat"
    )


def _print_audit_latencies(played: dict[int, list[GameRun]], game_sizes: Sequence[int]) -> None:
    """Section 4's table: from the last audit_secrets, and from the win, to every seat audited."""
    print()
    print("4. end-of-game audit")
    print(f"{'seats':>5} {'games':>5} {'last audit_secrets -> all audited':>34} {'win -> all':>12}")
    for n in game_sizes:
        lat = [x for x in (_audit_latency(g) for g in played[n]) if x is not None]
        print(
            f"{n:>5} {len(lat):>5} {_p50_p95([a for a, _ in lat]):>34} "
            f"{_p50_p95([b for _, b in lat]):>12}"
        )


def _audit_session(played: dict[int, list[GameRun]], seed: int) -> tuple[Session, str]:
    """A finished 4-seat game's seat-0 session to audit (the last networked 4-seat game, else
    an in-process one), and where it comes from in words."""
    if 4 in played:
        return played[4][-1].peers[0].session, "the last networked 4-seat game, seat 0's session"
    session, _ = _inproc_session(seed, 4)
    return session, "an in-process 4-seat bot game (net/inproc.py), seat 0's session"


def _print_run_audit(session: Session, source: str, runs: int) -> None:
    """Section 4's ``run_audit`` alone on ``session``'s inputs, ``runs`` times, with its
    re-shuffles and its ``open_all`` timed apart."""
    inputs = session.audit_inputs()
    times = []
    report = None
    for _ in range(runs):
        t, report = _timed(run_audit, inputs)
        times.append(t)
    assert report is not None
    same = session.audit is not None and report.digest == session.audit.digest
    deck = inputs.decks[0]  # the development deck (AuditInputs.decks: the rule set's order)
    reshuffle = sum(  # as the audit re-makes each seat's shuffle from its seed (no proof)
        _timed(
            shuffle_deck,
            deck.shuffle_input(seat),
            deck.key.joint,
            derive_shuffle_seed(seed, deck.label),
            deck.label.encode(),
        )[0]
        for seat, (seed, _, _) in enumerate(inputs.secrets)
    )
    open_all, _ = _timed(deck.open_all, [derive_deck_secret(s) for s, _, _ in inputs.secrets])
    print(
        f"run_audit alone, {source}: {len(inputs.journal)} actions, {deck.dealt} cards dealt, "
        f"{'passed' if report.passed else 'DEVIATIONS'}"
        f"{', same digest as the session' if same else ', a DIFFERENT digest from the session'}"
    )
    print(
        "  (in the games each seat audits in a worker thread; in one process the N audits "
        "share one interpreter, and every seat then signs its audit_result)"
    )
    print(
        f"  {_p50_p95(times).strip()} ms over {len(times)} runs "
        f"(min {_ms(min(times))}); of which 4 re-shuffles {_ms(reshuffle)} ms, "
        f"open_all {_ms(open_all)} ms, the rest is the full-information replay"
    )


def _print_log_bytes(runs: Sequence[GameRun], largest: int) -> None:
    """Section 5: the envelope bytes of the deck's and the audit's messages per game, and
    their share of all, over the games of the largest table (seat 0's logs)."""
    print()
    logs = [read_log(g.peers[0].log_path).messages for g in runs]
    sizes_on_disk = [os.path.getsize(g.peers[0].log_path) for g in runs]
    source = f"networked {largest}-seat game(s), seat 0's log"
    per_kind: dict[str, list[tuple[int, int]]] = defaultdict(list)
    totals = []
    for envelopes in logs:
        counted = _kind_bytes(envelopes)
        totals.append(sum(b for _, b in counted.values()))
        for kind in (*DECK_KINDS, *AUDIT_KINDS):
            per_kind[kind].append(counted.get(kind, (0, 0)))
    total = statistics.mean(totals)
    print(
        f"5. log bytes per game ({source}; means over {len(logs)} game(s); "
        f"envelope bytes, msgpack [body, signature])"
    )
    print(f"{'kind':>14} {'messages':>8} {'bytes':>9} {'share':>6}")
    added = 0.0
    for kind in (*DECK_KINDS, *AUDIT_KINDS):
        messages = statistics.mean(c for c, _ in per_kind[kind])
        size = statistics.mean(b for _, b in per_kind[kind])
        added += size
        print(f"{kind:>14} {messages:>8.1f} {size:>9.0f} {size / total:>6.1%}")
    deck_bytes = sum(statistics.mean(b for _, b in per_kind[k]) for k in DECK_KINDS)
    print(f"{'deck, all':>14} {'':>8} {deck_bytes:>9.0f} {deck_bytes / total:>6.1%}")
    print(f"{'deck + audit':>14} {'':>8} {added:>9.0f} {added / total:>6.1%}")
    print(f"{'all messages':>14} {statistics.mean(len(x) for x in logs):>8.1f} {total:>9.0f}")
    print(f"log file on disk: {statistics.mean(sizes_on_disk):.0f} bytes (records, notes, opening)")


def _parser() -> argparse.ArgumentParser:
    """The command line (see the module's usage)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--games", type=int, default=2, help="networked bot games per size")
    parser.add_argument("--reps", type=int, default=3, help="deck set-ups per size and mode")
    parser.add_argument(
        "--quick", action="store_true", help="one set-up per size and mode, one game (largest)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log-dir", type=Path, default=None, help="where logs go (a temp dir)")
    parser.add_argument("--setup-only", action="store_true", help="only 1. deck set-up")
    parser.add_argument("--json", action="store_true", help="end with a JSON line of set-ups")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark's sections (or, with ``--child``, one seat of a (b2) set-up)."""
    args = _parser().parse_args(argv)
    if args.child:
        return _child(args.child)
    sizes = [int(s) for s in args.seats.split(",")]
    reps = 1 if args.quick else args.reps
    game_sizes = [max(sizes)] if args.quick else sizes
    games = 1 if args.quick else args.games
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="hexlan-bench-crypto-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()

    print(_machine())
    print(f"{TARGETS}; logs in {log_dir}")
    print(
        f"times in ms, p50 / p95 where two; {reps} set-up(s) per size and mode, "
        f"{games} {STRATEGY}-bot game(s) per size {game_sizes}"
    )
    setups = _run_setups(sizes, reps, args.seed, log_dir)
    _print_setup(setups)
    figures = _setup_figures(setups) if args.setup_only or args.json else None
    if args.setup_only:
        if args.json:
            print(json.dumps(figures))
        return 0

    played = {
        n: [asyncio.run(_bot_game(args.seed + g, n, log_dir)) for g in range(games)]
        for n in game_sizes
    }
    _print_games(played, game_sizes)
    _print_deal_costs(setups)
    _print_audit_latencies(played, game_sizes)
    _print_run_audit(*_audit_session(played, args.seed), runs=3 if args.quick else 7)
    largest = max(game_sizes)
    _print_log_bytes(played[largest], largest)
    print(
        f"\nbench time {time.perf_counter() - began:.0f} s; load average now {_load_average_text()}"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
