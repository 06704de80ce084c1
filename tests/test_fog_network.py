"""The fog stack over the network (issue 9, and issue 8's decks by name): The Fog Island played
by four in-memory sessions.

The game's three decks (development cards, fog tiles, fog tokens) share one joint key and are set
up in the rule set's order, each shuffled by every seat with its proof of a shuffle
(PROTOCOL.md §13.10); a fog tile is dealt public, opened by every seat's decryption share, the
discoverer's included (§13.7); the end-of-game audit and `hexlan verify` cover every deck (§14).
No seat can read a face-down tile before its reveal: nothing it holds opens the stack. A seat
that cheats in its fog shuffle is caught by its proof and named.
"""

from __future__ import annotations

import gc
import random
import types
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from bot_games import assert_logs_verify

from hexlan.engine.bots import make_bot
from hexlan.engine.variants.seafarers import SeaPhase, sea
from hexlan.net.audit import DeviationFound, resolved_actions
from hexlan.net.deck import derive_deck_secret
from hexlan.net.group import mul
from hexlan.net.inproc import InProcessTable
from hexlan.net.redteam import swap_in_another_card
from hexlan.net.shuffle import card_point, decrypt, decryption_base
from hexlan.net.wire import Envelope

NAMES = ("Ann", "Bob", "Cy", "Di")
GAME = "seafarers-fog-island"
DECKS = ("development", "fog", "fog_tokens")


def payloads(log: list[bytes], kind: str) -> list[tuple[object, ...]]:
    """The payloads of every message of ``kind`` in a log, with their authors first."""
    found = []
    for data in log:
        body = Envelope.parse(data).body
        if body.kind == kind:
            found.append((body.author, *body.payload))
    return found


@dataclass(frozen=True)
class FaceDown:
    """What each seat's memory held mid-game, at the first fog tile shown (see
    :func:`face_down_scan`)."""

    dealt: tuple[int, ...]  # each seat's count of fog tiles dealt
    size: int
    ready: bool
    scan_reaches_deck: tuple[bool, ...]  # per seat: the scan found the deck's last card
    shares_held: tuple[tuple[int, ...], ...]  # per seat: face-down positions it holds a share of
    opened_alone: tuple[tuple[int, ...], ...]  # per seat: positions its own secret opens
    revealed: int  # distinct fog_revealed lists among the seats' views


def face_down_scan(table: InProcessTable) -> FaceDown:
    """For every fog tile not yet drawn: which seat's memory holds another seat's decryption
    share of it, and which seat's own secret alone opens it to a card."""
    sessions = table.sessions
    decks = [s.decks["fog"].deck for s in sessions]
    deck = decks[0]
    secrets = [derive_deck_secret(s.chain.secret) for s in sessions]
    final = deck.current
    cards = {card_point(b"fog", i) for i in range(deck.size)}
    reaches, held_shares, opened = [], [], []
    for session, secret in zip(sessions, secrets, strict=True):
        held = _reachable_bytes(session)
        reaches.append(final[-1] in held)
        shares, alone_opens = [], []
        for position in range(deck.dealt, deck.size):
            base = decryption_base(final[position])
            others = {mul(x, base) for t, x in enumerate(secrets) if t != session.seat}
            if others & held:
                shares.append(position)
            if decrypt(final[position], [mul(secret, base)]) in cards:
                alone_opens.append(position)
        held_shares.append(tuple(shares))
        opened.append(tuple(alone_opens))
    return FaceDown(
        dealt=tuple(d.dealt for d in decks),
        size=deck.size,
        ready=deck.ready,
        scan_reaches_deck=tuple(reaches),
        shares_held=tuple(held_shares),
        opened_alone=tuple(opened),
        revealed=len({tuple(sea(s.view).fog_revealed) for s in sessions}),  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class FogGame:
    """The module's game: the table, won and audited, and the seats' memory mid-game."""

    table: InProcessTable
    face_down: FaceDown


@pytest.fixture(scope="module")
def fog_game_scanned() -> FogGame:
    """A seeded Fog Island game between four heuristic bots, won and audited; on the way, at
    the first fog tile shown (out of the fog phase), every seat's memory is scanned."""
    table = InProcessTable(list(NAMES), seed=1, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    table.start()
    face_down = None
    for _ in range(40_000):  # as table.play_bots, with the scan on the way
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            break
        view = table.sessions[0].view
        shown = view is not None and bool(sea(view).fog_revealed) and view.phase is not SeaPhase.FOG
        if face_down is None and shown:
            face_down = face_down_scan(table)
        table.submit(seat, bots[seat].choose(table.sessions[seat].view, seat))  # type: ignore[arg-type]
    assert face_down is not None, "the bots explored no fog"
    return FogGame(table, face_down)


@pytest.fixture
def fog_game(fog_game_scanned: FogGame) -> InProcessTable:
    """The module's Fog Island table, won and audited."""
    return fog_game_scanned.table


@pytest.mark.slow
def test_the_fog_island_is_played_to_an_audit_that_covers_every_deck(
    fog_game: InProcessTable,
) -> None:
    sessions = fog_game.sessions
    assert all(s.stopped is None and s.audited is not None for s in sessions)
    reports = [s.audited.report for s in sessions]  # type: ignore[union-attr]
    assert all(r.passed for r in reports) and len({r.digest for r in reports}) == 1
    view = sessions[0].view
    assert view is not None and view.winner >= 0 and view.rules.name == GAME
    assert sea(view).fog_revealed, "the bots explored no fog"
    # every deck of the rule set, in its order, set up by every seat
    assert list(sessions[0].decks) == list(DECKS)
    shuffles = payloads(fog_game.logs[0], "shuffle")
    assert Counter(label for _, label, *_ in shuffles) == dict.fromkeys(DECKS, 4)
    assert Counter(p[1] for p in payloads(fog_game.logs[0], "shuffle_proof")) == dict.fromkeys(
        DECKS, 4
    )
    dealt = dict(reports[0].dealt)
    assert list(dealt) == list(DECKS)
    # the audit's faces are the tiles and tokens the game showed, in order
    faces = sessions[0].decks["fog"].deck.faces
    shown = [(h, t) for h, t, _ in sea(view).fog_revealed]
    assert len(dealt["fog"]) == 12 - sum(sea(view).fog_tiles)
    terrains = [sessions[0].view.variant.fog_faces[f] for f in dealt["fog"]]  # type: ignore[union-attr]
    assert [int(t) for t in terrains] == [t for _, t in shown][: len(terrains)]
    assert len(dealt["fog_tokens"]) == sum(1 for *_, token in sea(view).fog_revealed if token)
    assert sorted(faces) == sorted(
        f for f, n in enumerate(view.rules.decks["fog"]) for _ in range(n)
    )
    # a fog tile is opened by every seat, its discoverer too; a development card by the others
    shares = Counter((p[1], p[2]) for p in payloads(fog_game.logs[0], "draw_share"))
    assert all(shares["fog", pos] == 4 for pos in range(len(dealt["fog"])))
    assert all(shares["development", pos] == 3 for pos in range(len(dealt["development"])))
    # every seat's view agrees on the board as revealed
    assert len({tuple(s.view.board.terrains) for s in sessions}) == 1  # type: ignore[union-attr]


@pytest.mark.slow
def test_the_audit_refuses_a_fog_tile_other_than_the_face_dealt(fog_game: InProcessTable) -> None:
    """The audit checks each public draw against the face the deck dealt at its position, as
    the game's rules turn that face into an outcome (Seafarers: the fog tile shown)."""
    session = fog_game.sessions[0]
    assert session.audited is not None
    report, inputs = session.audited.report, session.audit_inputs()
    dealt = {label: list(faces) for label, faces in report.dealt}
    assert len(list(resolved_actions(inputs, report.draws, dealt))) == len(inputs.journal)
    dealt["fog"][0] = (dealt["fog"][0] + 1) % len(inputs.opening.rules().decks["fog"])
    with pytest.raises(DeviationFound, match="position 0 of the fog deck holds face"):
        list(resolved_actions(inputs, report.draws, dealt))


@pytest.mark.slow
def test_verify_replays_the_fog_island_and_its_audit(
    fog_game: InProcessTable, tmp_path: Path
) -> None:
    assert_logs_verify(fog_game, tmp_path, GAME, seats=2)


def _reachable_bytes(root: object) -> set[bytes]:
    """Every bytes value reachable from ``root`` through containers, instances and closures
    (not through classes, modules or functions' globals)."""
    seen: set[int] = set()
    found: set[bytes] = set()
    stack = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, str, int)
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, bytes | bytearray):
            found.add(bytes(item))
        elif isinstance(item, types.MethodType):
            stack.append(item.__self__)
        elif not isinstance(item, skip):
            stack.extend(gc.get_referents(item))
    return found


@pytest.mark.slow
def test_no_seat_can_read_a_face_down_tile_before_its_reveal(fog_game_scanned: FogGame) -> None:
    """Mid-game, with fog still face down: for every tile not yet drawn, no seat's memory holds
    another seat's decryption share of it, and a seat's own secret alone opens no card; the
    tiles drawn are known alike to all (the module's game, scanned at its first fog tile)."""
    seen = fog_game_scanned.face_down
    assert 0 < seen.dealt[0] < seen.size and seen.ready
    assert all(seen.scan_reaches_deck)  # the scan reaches the deck itself
    assert seen.shares_held == ((),) * 4, "a seat holds a share of a face-down tile"
    assert seen.opened_alone == ((),) * 4  # its own secret alone opens no card
    assert len(set(seen.dealt)) == 1  # no share of a face-down tile was published
    assert seen.revealed == 1


def test_a_false_fog_shuffle_is_caught_by_its_proof_and_named() -> None:
    table = InProcessTable(list(NAMES), seed=3, game=GAME)
    swap_in_another_card(table.sessions[2].decks["fog"], target=0, source=1)
    table.start()
    for _ in range(200):
        if any(s.stopped for s in table.sessions):
            break
        due = [s.seat for s in table.sessions if s.decision_due()]
        if not due:
            break
        seat = due[0]
        view = table.sessions[seat].view
        assert view is not None
        table.submit(seat, make_bot("heuristic", random.Random(seat)).choose(view, seat))
    stopped = [s.stopped for s in table.sessions if s.seat != 2]
    assert all(stop is not None for stop in stopped)
    assert all(stop.author == 2 and "shuffle proof" in stop.reason for stop in stopped)  # type: ignore[union-attr]
