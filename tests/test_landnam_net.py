"""Landnám over the network (issue 25): a game with a state of its own played by sessions with
no trusted server, in one process and between real `hexlan bot` processes over TCP on
127.0.0.1. Its chance comes from the beacon (start player, harvest dice, exploration dice), its
fate deck is a mental-poker deck dealt in generations (the set-up's put-back cards and the
discards reshuffled in: a new deck, shuffled and proved by every seat, PROTOCOL.md §13.11),
and the end-of-game audit replays the full game; `hexlan verify` accepts the logs and `--stats`
counts the exploration dice. A fate card played without being shown first stops every peer,
naming the seat."""

from __future__ import annotations

import random
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from test_peer import (
    HEXLAN,
    assert_agreement,
    assert_no_equivocation,
    finish,
    free_port,
    last_json,
    start_bot,
    verify_cli,
    wait_until_listening,
)

from hexlan.engine.bots.own import own_bot
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import state_spec
from hexlan.net.effects import Stopped
from hexlan.net.inproc import InProcessTable
from hexlan.net.log import read_log
from hexlan.net.redteam import Cheat
from hexlan.net.wire import Envelope

GAME = "landnam"
SHORT = ("--option", "victory_points=1")
"""The first farm wins: a game of heuristic bots ends within a few turns
(GameOptions.victory_points, which Landnám's end of turn honours)."""
TRIES = 3
"""Tables started, one after another, until one finishes in time (the beacon's chance is fresh
in every game, and a loaded machine may be slow)."""
GAME_SECONDS = 60.0
"""Seconds one table of bot processes may take before the next is tried."""


def _options(points: int = 1) -> GameOptions:
    return GameOptions.parse((f"victory_points={points}",), spec=state_spec(GAME))


def _play(table: InProcessTable, seed: int, limit: int = 20_000) -> None:
    """Random bots (:func:`hexlan.engine.bots.own.own_bot`) decide from each seat's own view
    (``Session.game``) until no seat has a decision due."""
    spec = state_spec(GAME)
    assert spec is not None and spec.state is not None
    game = spec.state(GAME, len(table.sessions), None)
    bots = [
        own_bot("random", game, random.Random(seed * 10 + s)) for s in range(len(table.sessions))
    ]
    table.start()
    for _ in range(limit):
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            return
        view = table.sessions[seat].game
        assert view is not None
        table.submit(seat, bots[seat].choose(view, seat))


@pytest.mark.parametrize(("points", "generations"), [(1, 2), (2, 3)])
def test_in_process_sessions_play_landnam_to_an_audited_end(points: int, generations: int) -> None:
    """Three sessions wired in memory finish a seeded game: every seat's view agrees, the fate
    deck was dealt in ``generations`` generations at least (the set-up's reshuffle; then the
    discards' once the deck ran out, in a longer game: seed 25 is the first from 13 whose game
    does, and the search starts there),
    and every seat's audit passed with one digest, each generation's cards known."""
    for seed in range(1 if generations == 2 else 25, 40):
        table = InProcessTable(["a", "b", "c"], options=_options(points), game=GAME, seed=seed)
        _play(table, seed, 4000)
        first = table.sessions[0]
        if first.won() and len(first.generations["fate"]) >= generations:
            break
    else:
        raise AssertionError(f"no seeded game dealt {generations} generations of the fate deck")
    sessions = table.sessions
    assert all(s.won() and s.stopped is None for s in sessions)
    assert len({s.game.public_hash() for s in sessions if s.game is not None}) == 1
    audits = [s.audited for s in sessions]
    assert all(a is not None and a.report.passed and not a.disagreeing for a in audits)
    assert len({a.report.digest for a in audits if a is not None}) == 1
    labels = sessions[0].generations["fate"]
    assert labels[:2] == ["fate", "fate#1"]
    dealt = dict(audits[0].report.dealt) if audits[0] is not None else {}
    assert set(labels) <= set(dealt)
    shuffles = Counter(
        Envelope.parse(m).body.payload[0]
        for m in table.logs[0]
        if Envelope.parse(m).body.kind == "shuffle"
    )
    assert shuffles == dict.fromkeys(labels, 3)  # every generation shuffled by every seat


def test_the_audit_skips_a_generation_begun_before_the_win_and_still_shuffling() -> None:
    """A generation of the fate deck begun just before the game is won may still be shuffling
    when a peer's audit runs (its shuffles arrive at a different point on every peer, as in a
    game of four processes whose logs `hexlan verify` once refused, "seat 3 has not shuffled
    the fate#1 deck"): nothing was drawn from it, so the audit skips it and passes with the
    same digest (PROTOCOL.md §14, 2 and 3)."""
    from dataclasses import replace

    from hexlan.net.audit import run_audit
    from hexlan.net.deck import Deck

    table = InProcessTable(["a", "b", "c"], options=_options(), game=GAME, seed=1)
    _play(table, 1, 4000)
    session = table.sessions[0]
    assert session.won() and session.audited is not None
    inputs = session.audit_inputs()
    faces = [0] * 5
    late = Deck("fate#9", faces, inputs.decks[0].key, session.game_id)  # no shuffle in yet
    report = run_audit(
        replace(
            inputs,
            decks=(*inputs.decks, late),
            shuffle_ids=(*inputs.shuffle_ids, (b"",) * 3),
        )
    )
    assert report.passed and report.digest == session.audited.report.digest
    assert dict(report.dealt)["fate#9"] == ()


def test_a_fate_card_played_unshown_stops_every_peer_naming_the_seat() -> None:
    """A seat that plays a face-down fate card without its ``card_reveal`` (the red team's
    ``undealt-card``) is stopped by every honest peer, naming it (§13.8)."""
    for seed in range(1, 40):
        table = InProcessTable(["a", "b", "c"], options=_options(), game=GAME, seed=seed)
        cheat = Cheat("undealt-card", 1)
        cheat.install(table.sessions[1])
        _play(table, seed)
        if cheat.done:
            break
    else:
        raise AssertionError("no seeded game gave seat 1 a hidden fate card to play")
    for seat in (0, 2):
        stops = [e for e in table.effects[seat] if isinstance(e, Stopped)]
        assert stops and stops[0].author == 1, stops
        assert "seat 1 played" in stops[0].reason and "without revealing" in stops[0].reason


def _table(
    tmp_path: Path, seats: int, try_number: int
) -> tuple[list[Path], list[dict[str, object]]]:
    """One `hexlan bot --host --game landnam` table of ``seats`` heuristic bots, played to its
    end within :data:`GAME_SECONDS` (an empty result when it does not end in time)."""
    port = free_port()
    logs = [tmp_path / f"try{try_number}-peer{i}.log" for i in range(seats)]
    host = ["--host", "--seats", str(seats), "--game", GAME, "--port", str(port), *SHORT]
    procs = [start_bot(*host, "--strategy", "heuristic", "--log", str(logs[0]), "--quiet")]
    wait_until_listening(port, procs[0])
    for i in range(1, seats):
        join = ["--join", f"127.0.0.1:{port}", "--strategy", "heuristic", "--log", str(logs[i])]
        procs.append(start_bot(*join, "--quiet"))
    results = _within(procs)
    return logs, [] if results is None else assert_agreement(results)


def _within(procs: list[subprocess.Popen[str]]) -> list[tuple[int, str, str]] | None:
    """Each process's exit code, stdout and stderr once all have ended, or None (every one
    killed) when some still runs after :data:`GAME_SECONDS`."""
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline and any(p.poll() is None for p in procs):
        time.sleep(0.1)
    if all(p.poll() is not None for p in procs):
        return finish(procs)
    for proc in procs:
        proc.kill()
        proc.communicate()
    return None


def test_four_bot_processes_play_landnam_over_tcp_and_verify(tmp_path: Path) -> None:
    """A host and three joiners, each a `hexlan bot --strategy heuristic` process, finish one
    game of Landnám over TCP: one game id, winner and state hash, the audit passed on every
    peer, the fate deck shuffled by all four; `hexlan verify` exits 0 on
    the four logs, and `--stats` counts the harvest dice and both exploration dice."""
    for attempt in range(TRIES):
        logs, finals = _table(tmp_path, 4, attempt)
        if finals:
            break
    else:
        raise AssertionError(f"no table of {TRIES} finished within {GAME_SECONDS} s")
    assert [f["audit"] for f in finals] == ["passed"] * 4
    assert_no_equivocation(logs)
    for path in logs:
        contents = read_log(path)
        assert contents.opening[6] == GAME
        bodies = [Envelope.parse(m).body for m in contents.messages]
        shuffled = Counter(b.payload[0] for b in bodies if b.kind == "shuffle")
        # the first generation shuffled by all four; a later one (fate#1 once a seat's set-up
        # search put cards back) may still have been shuffling when the game was won
        assert shuffled["fate"] == 4 and max(shuffled.values()) == 4
    run = verify_cli(logs, "--stats")
    assert run.stdout.count(f"audit passed and signed by every seat, {GAME} game") == 4
    for table in ("dice totals", "green exploration die", "red exploration die"):
        assert table in run.stdout, run.stdout


def test_a_bot_process_playing_a_fate_card_unshown_is_named_by_every_peer(
    tmp_path: Path,
) -> None:
    """A joiner with ``--cheat undealt-card`` plays a face-down fate card without showing it:
    every peer stops naming its seat, and `hexlan verify` refuses the log (exit 1)."""
    for attempt in range(TRIES):
        port = free_port()
        logs = [tmp_path / f"try{attempt}-peer{i}.log" for i in range(3)]
        # heuristic bots to 3 points: long enough for a 7 to deal the cheat a face-down card
        host = ["--host", "--seats", "3", "--game", GAME, "--port", str(port)]
        host += ["--option", "victory_points=3", "--strategy", "heuristic"]
        procs = [start_bot(*host, "--log", str(logs[0]), "--quiet")]
        wait_until_listening(port, procs[0])
        join = ["--join", f"127.0.0.1:{port}", "--strategy", "heuristic", "--quiet"]
        procs.append(start_bot(*join, "--log", str(logs[1]), "--cheat", "undealt-card"))
        procs.append(start_bot(*join, "--log", str(logs[2])))
        results = _within(procs) or []
        finals = [last_json(out) for _, out, _ in results]
        cheater = next((f for f in finals if "cheat" in f), None)
        if len(finals) == 3 and cheater is not None and cheater["cheat"]["done"]:  # type: ignore[index]
            break
    else:
        raise AssertionError(f"no table of {TRIES} gave the cheat a hidden fate card to play")
    seat = cheater["seat"]
    for final in finals:
        assert final["stopped"] is not None
        assert str(final["stopped"]).startswith(f"seat {seat} played"), final
    run = subprocess.run(
        [*HEXLAN, "verify", str(logs[0])], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"seat {seat} played" in run.stdout, run.stdout


def test_deck_faces_give_each_generation_of_the_fate_deck() -> None:
    """What a network table deals as the fate deck's generations (SeatViews.deck_faces): the
    whole deck before any draw, and at a reshuffle node of the emptied deck its discards alone
    (gap G18); a deck holding cards some seat has not seen is no generation."""
    from hexlan.engine.chance import RESHUFFLE
    from hexlan.engine.variants.landnam.state import new_game

    state = new_game(GAME, 3, _options())
    assert state.deck_faces("fate") == tuple(state.rules.fate_deck)
    state.deck_size, state.unseen = 0, [0] * len(state.unseen)
    state.discard = [2, 0, 1] + [0] * (len(state.unseen) - 3)
    state.draws, state.phase = [(0, False)], "draw"
    node = state.chance_node()
    assert node is not None and node.kind == RESHUFFLE
    assert state.deck_faces("fate") == tuple(state.discard)
    state.deck_size = 1  # a card left that no seat has seen, and no reshuffle
    state.discard = [0] * len(state.unseen)
    with pytest.raises(ValueError, match="not seen"):
        state.deck_faces("fate")


def test_a_landnam_table_of_bots_takes_its_seat_range() -> None:
    """`hexlan bot --host --game landnam` takes the game's own seats (3 to 5), refused before
    any table opens."""
    run = subprocess.run(
        [*HEXLAN, "bot", "--host", "--game", GAME, "--seats", "6", "--strategy", "random"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert "landnam takes 3 to 5 seats, not 6" in run.stderr


def test_landnams_trade_actions_keep_their_own_names_on_the_wire() -> None:
    """Landnám's offer and answer share class names with the base game's: on the wire they are
    ``LandnamOfferTrade`` and ``LandnamAnswerTrade``, and each decodes to its own game's class."""
    from hexlan.engine import actions as A
    from hexlan.engine.variants.landnam import actions as L
    from hexlan.net.wire import decode_action, encode_action

    offer = L.OfferTrade(1, (1, 0, 0, 0), (0, 1, 0, 0))
    answer = L.AnswerTrade(1, True)
    assert A.action_to_list(offer)[0] == "LandnamOfferTrade"
    assert decode_action(encode_action(offer)) == offer
    assert decode_action(encode_action(answer)) == answer
    base = A.AnswerTrade(1, True)
    assert type(decode_action(encode_action(base))) is A.AnswerTrade
