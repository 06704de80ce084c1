"""Cities & Knights between peers (issue 13). Three `hexlan bot` processes over the TCP mesh on
127.0.0.1 finish a game, agree, shuffle and audit the three progress decks, and `hexlan verify
--stats` counts the event die from every log (three seats: the game allows three, and they finish
sooner than four; tests/test_peer.py's pattern). Bad input: a knight moved past another seat's
piece is refused by every other seat's session, naming the seat (a commodity spent that the hand
lacks is the red team's ``missing-commodity``, tests/test_redteam.py)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from test_peer import (
    assert_agreement,
    assert_no_equivocation,
    finish,
    free_port,
    start_bot,
    verify_cli,
    wait_until_listening,
)

from hexlan.engine.bots import make_bot
from hexlan.engine.core import NO_SEAT, IllegalActionError, Phase
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.variants.cities_knights import knights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    MoveKnight,
    PlayProgress,
)
from hexlan.net.effects import Effect
from hexlan.net.inproc import InProcessTable
from hexlan.net.log import read_log
from hexlan.net.wire import Envelope, decode_action, encode_action

GAME = "cities-and-knights"
SEATS = 3
PROCESS_TIMEOUT = 600.0
"""Seconds a bot process may take (a four-seat game took 26 s on two busy cores)."""
EVENT_ROWS = ("ship", "trade gate", "politics gate", "science gate")


@pytest.mark.slow
def test_three_bot_processes_finish_cities_and_knights_over_tcp(tmp_path: Path) -> None:
    """One `hexlan bot --host --seats 3 --game cities-and-knights` and two joiners finish one
    game: the same game id, winner and state hash, the three progress decks each shuffled by
    every seat and the audit passed on every peer; `hexlan verify --stats` exits 0 on the
    three logs and counts the event die once a roll."""
    port = free_port()
    logs = [tmp_path / f"peer{i}.log" for i in range(SEATS)]
    host = ["--host", "--seats", str(SEATS), "--game", GAME, "--port", str(port)]
    procs = [start_bot(*host, "--seed", "0", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    for i in range(1, SEATS):
        join = ["--join", f"127.0.0.1:{port}", "--seed", str(i), "--log", str(logs[i])]
        procs.append(start_bot(*join, "--quiet"))
    finals = assert_agreement(finish(procs, PROCESS_TIMEOUT))
    assert [f["audit"] for f in finals] == ["passed"] * SEATS
    assert_no_equivocation(logs)
    rules = load_ruleset(GAME)
    decks = list(rules.decks)
    assert sorted(decks) == ["politics", "science", "trade"]  # no development deck
    names = [tuple(rules.raw["decks"][d]) for d in ("trade", "politics", "science")]
    alchemists = 0  # an Alchemist's chosen dice are no roll of the dice; its event die is one
    for body in (Envelope.parse(m).body for m in read_log(logs[0]).messages):
        play = decode_action(body.payload) if body.kind == "action" else None
        if isinstance(play, PlayProgress) and names[play.track][play.face] == "alchemist":
            alchemists += 1
    for path in logs:
        contents = read_log(path)
        assert contents.opening[6] == GAME
        bodies = [Envelope.parse(m).body for m in contents.messages]
        shuffled = Counter(b.payload[0] for b in bodies if b.kind == "shuffle")
        assert shuffled == dict.fromkeys(decks, SEATS)
        assert Counter(b.author for b in bodies if b.kind == "audit_secrets") == dict.fromkeys(
            range(SEATS), 1
        )
    run = verify_cli(logs, "--stats", timeout=PROCESS_TIMEOUT)
    assert run.stdout.count(f"audit passed and signed by every seat, {GAME} game") == SEATS
    assert "fairness over 1 game:" in run.stdout  # the three logs are one game, counted once
    rolls = re.search(r"dice totals \(n = (\d+)\)", run.stdout)
    events = re.search(
        r"event die \(n = (\d+)\):\n.*\n((?:\s+\w[\w ]*\s+\d+\s+[\d.]+\n){4})", run.stdout
    )
    assert rolls is not None and events is not None, run.stdout
    assert int(events[1]) == int(rolls[1]) + alchemists  # one with every roll, and Alchemist
    assert int(rolls[1]) > 0
    rows = [re.match(r"\s+(\D+?)\s+(\d+)\s", line) for line in events[2].splitlines()]
    assert [r[1] for r in rows if r] == list(EVENT_ROWS)
    assert sum(int(r[2]) for r in rows if r) == int(events[1])


# ---------------------------------------------------------------------------- bad input


def a_knights_unreachable_target(table: InProcessTable, seat: int) -> tuple[int, int] | None:
    """An active knight of ``seat`` that may act, and an empty land intersection its seat's
    roads do not lead it to: ``(node, target)``; None when there is no such pair now. The move
    is refused by every seat's view alike, and by a view rebuilt from the journal's public face
    (no hidden card is involved): it stops the game at once, no accusation needed (§11.1)."""
    view = table.sessions[seat].view
    assert view is not None
    mine = progress_of(view)
    land = view.topology.land_node_count
    for node, knight in sorted(mine.knights.items()):
        if knight.seat != seat or not knight.active or node in mine.fresh:
            continue
        empty, _ = knights.reachable(view, seat, node)
        for target in range(land):
            if target != node and view.node_owner[target] == NO_SEAT and target not in empty:
                return node, target
    return None


def test_a_knight_moved_off_its_seats_roads_is_refused_naming_the_seat() -> None:
    """Heuristic bots play a seeded three-seat table in memory until a seat, at its own
    main-phase decision, has an active knight (:func:`a_knights_unreachable_target`); the
    seat's honest session refuses a move to an intersection its roads do not reach, and
    signed anyway (its own check bypassed, as a modified client could), every other seat stops
    naming the seat and the rule."""
    table = InProcessTable(["a", "b", "c"], seed=0, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(3)]
    table.start()
    for _ in range(20_000):
        due = next(s for s in table.sessions if s.decision_due())
        view, seat = due.view, due.seat
        assert view is not None and not view.is_over, "no knight ever came to act"
        found = (
            a_knights_unreachable_target(table, seat)
            if view.active == seat and view.phase is Phase.MAIN
            else None
        )
        if found is not None:
            break
        table.submit(seat, bots[seat].choose(view, seat))
    assert found is not None
    move = MoveKnight(*found)
    with pytest.raises(IllegalActionError, match="past none of another player's pieces"):
        due.submit(move)
    effects: list[Effect] = []
    due.sign("action", encode_action(move), effects)
    due._fulfil(effects)
    table._handle(seat, effects)
    table.pump()
    words = f"seat {seat}: a knight moves along the seat's own roads, past none of another"
    for other in table.sessions:
        if other.seat != seat:
            stop = other.stopped
            assert stop is not None and stop.author == seat, stop
            assert stop.reason.startswith(words), stop.reason
            assert not other.accusations  # a refusal every seat shares needs none


@pytest.mark.slow
async def test_the_tui_joins_a_cities_and_knights_table_and_plays(data_dir: Path) -> None:
    """`hexlan join HOST:PORT` to a bot-hosted Cities & Knights table (a second bot joins too):
    the lobby leads into the game, not a hang; a bot plays the person's seat for some turns with
    no stop."""
    from tui_join import autoplayed_join, joined_game

    port = free_port()
    host = ["--host", "--seats", "3", "--game", GAME, "--port", str(port), "--quiet"]
    procs = [start_bot(*host, "--log", str(data_dir / "host.log"))]
    try:
        wait_until_listening(port, procs[0])
        join = ["--join", f"127.0.0.1:{port}", "--quiet", "--log", str(data_dir / "bot.log")]
        procs.append(start_bot(*join))
        app = autoplayed_join(data_dir, port)
        async with app.run_test(size=(80, 24)) as pilot:
            game = await joined_game(app, pilot)
            assert game.view.rules.name == GAME
            for _ in range(600):
                if game.view.turn >= 6 or game.is_over:
                    break
                await pilot.pause(0.05)
            assert game.view.turn >= 6 or game.is_over, game.status
            assert game.stopped is None
            await pilot.press("ctrl+q")
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
