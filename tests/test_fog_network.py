"""The fog stack over the network (issue 9, and issue 8's decks by name): The Fog Island played
by four in-memory sessions.

The game's three decks (development cards, fog tiles, fog tokens) share one joint key and are set
up in the rule set's order, each shuffled by every seat with its cut-and-choose proof
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
from pathlib import Path

import pytest
from bot_games import write_log

from hexlan.engine.bots import make_bot
from hexlan.engine.variants.seafarers import SeaPhase, sea
from hexlan.net.audit import DeviationFound, resolved_actions
from hexlan.net.deck import derive_deck_secret
from hexlan.net.group import mul
from hexlan.net.inproc import InProcessTable
from hexlan.net.redteam import swap_in_another_card
from hexlan.net.shuffle import card_point, decrypt, decryption_base
from hexlan.net.verify import verify_logs
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


@pytest.fixture(scope="module")
def fog_game() -> InProcessTable:
    """A seeded Fog Island game between four heuristic bots, won and audited."""
    table = InProcessTable(list(NAMES), seed=1, game=GAME)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(4)], limit=40_000)
    return table


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
    paths = [
        write_log(tmp_path / f"seat{s}.hexlan", fog_game.opening.to_payload(), log)
        for s, log in enumerate(fog_game.logs[:2])
    ]
    report = verify_logs(paths)
    assert report.exit_code == 0, [r.violations for r in report.logs]
    assert [(r.game, r.audit) for r in report.logs] == [(GAME, "passed")] * 2


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
def test_no_seat_can_read_a_face_down_tile_before_its_reveal() -> None:
    """Mid-game, with fog still face down: for every tile not yet drawn, no seat's memory holds
    another seat's decryption share of it, and a seat's own secret alone opens no card; the
    tiles drawn are known alike to all."""
    table = InProcessTable(list(NAMES), seed=1, game=GAME)  # the fixture game, cut short
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    table.start()
    for _ in range(40_000):
        view = table.sessions[0].view
        if view is not None and sea(view).fog_revealed and view.phase is not SeaPhase.FOG:
            break
        seat = next(s.seat for s in table.sessions if s.decision_due())
        table.submit(seat, bots[seat].choose(table.sessions[seat].view, seat))  # type: ignore[arg-type]
    sessions = table.sessions
    decks = [s.decks["fog"].deck for s in sessions]
    deck = decks[0]
    assert 0 < deck.dealt < deck.size and deck.ready
    secrets = [derive_deck_secret(s.chain.secret) for s in sessions]
    final = deck.current
    cards = {card_point(b"fog", i) for i in range(deck.size)}
    for session, secret in zip(sessions, secrets, strict=True):
        held = _reachable_bytes(session)
        assert final[-1] in held  # the scan reaches the deck itself
        for position in range(deck.dealt, deck.size):
            base = decryption_base(final[position])
            others = {mul(x, base) for t, x in enumerate(secrets) if t != session.seat}
            assert not others & held, f"seat {session.seat} holds a share of a face-down tile"
            alone = decrypt(final[position], [mul(secret, base)])
            assert alone not in cards  # its own secret alone opens no card
    assert len({d.dealt for d in decks}) == 1  # no share of a face-down tile was published
    views = [s.view for s in sessions]
    assert len({tuple(sea(v).fog_revealed) for v in views}) == 1  # type: ignore[union-attr]


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
