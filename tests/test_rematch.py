"""Rematch over the LAN (issue 26; docs/PROTOCOL.md §3, Rematch): real `hexlan bot` processes
on 127.0.0.1 play a game, vote to play again, and play the second game to its end, every seat
one place on; a seat that declines frees its place for a newcomer; votes out of place are
refused with a reason (the sans-IO lobby, and the mesh during a game)."""

from __future__ import annotations

import json
from pathlib import Path

from ports import free_port
from test_peer import finish, start_bot, verify_cli, wait_until_listening

from hexlan.net.beacon import HashChain
from hexlan.net.identity import GameKeys, Identity
from hexlan.net.lobby import (
    Disconnect,
    GameStarts,
    HostLobby,
    JoinLobby,
    RematchVoted,
    SendTo,
)
from hexlan.net.log import read_log
from hexlan.net.transport import GAME_NOT_OVER, LinkProtocol, SendBytes, encode_frame
from hexlan.net.wire import Envelope, Opening

SHORT = ("--option", "victory_points=3")


def _games(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.strip().splitlines() if line.startswith("{")]


def _seat_keys(log: Path) -> list[bytes]:
    return [s.public_key for s in Opening.from_payload(read_log(log).opening).seats]


def test_three_bots_play_again_with_every_seat_one_place_on(tmp_path: Path) -> None:
    port = free_port()
    logs = [tmp_path / f"seat{i}.log" for i in range(3)]
    host = start_bot(
        "--host", "--seats", "3", "--port", str(port), *SHORT, "--seed", "0",
        "--log", str(logs[0]), "--rematch", "1",
    )  # fmt: skip
    wait_until_listening(port, host)
    joiners = [
        start_bot(
            *("--join", f"127.0.0.1:{port}", "--seed", str(i)),
            *("--log", str(logs[i])),
            *("--rematch", "1"),
        )
        for i in (1, 2)
    ]
    results = finish([host, *joiners])
    for code, _, err in results:
        assert code == 0, err[-3000:]
    games = [_games(out) for _, out, _ in results]
    assert all(len(g) == 2 for g in games), games
    first_ids = {g[0]["game_id"] for g in games}
    second_ids = {g[1]["game_id"] for g in games}
    assert len(first_ids) == 1 and len(second_ids) == 1 and first_ids != second_ids
    assert all(g[1]["winner"] is not None and g[1]["audit"] == "passed" for g in games)
    # each seat moved on one place: the last seat is the first now
    assert [g[1]["seat"] for g in games] == [(g[0]["seat"] + 1) % 3 for g in games]  # type: ignore[operator]
    seconds = [tmp_path / f"seat{i}-2.log" for i in range(3)]
    before, after = _seat_keys(logs[0]), _seat_keys(seconds[0])
    assert after == [before[-1], *before[:-1]]
    verify_cli(logs)
    verify_cli(seconds)
    assert "declines" not in results[0][2]


def test_a_seat_that_declines_frees_its_place_for_a_newcomer(tmp_path: Path) -> None:
    port = free_port()
    logs = [tmp_path / "host.log", tmp_path / "leaver.log", tmp_path / "newcomer.log"]
    host = start_bot(
        "--host", "--seats", "2", "--port", str(port), *SHORT, "--seed", "0",
        "--log", str(logs[0]), "--rematch", "1",
    )  # fmt: skip
    wait_until_listening(port, host)
    leaver = start_bot(
        "--join", f"127.0.0.1:{port}", "--seed", "1", "--log", str(logs[1]), "--decline-rematch"
    )
    code, _, err = finish([leaver])[0]
    assert code == 0 and "declined the rematch" in err, err[-2000:]
    newcomer = start_bot("--join", f"127.0.0.1:{port}", "--seed", "2", "--log", str(logs[2]))
    (host_code, host_out, host_err), (new_code, new_out, _) = finish([host, newcomer])
    assert host_code == 0 and new_code == 0, host_err[-3000:]
    assert "seat 1 (" in host_err and "declines the rematch; its place is free" in host_err
    games = _games(host_out)
    assert len(games) == 2 and games[1]["winner"] is not None
    assert _games(new_out)[-1]["game_id"] == games[1]["game_id"]
    verify_cli([tmp_path / "host-2.log", logs[2]])


# ------------------------------------------------------------------ votes out of place


def _keys() -> tuple[Identity, GameKeys, HashChain]:
    return Identity.generate(), GameKeys.generate(), HashChain.generate(length=8)


def _played() -> tuple[tuple[Identity, ...], Opening]:
    """A two-seat game's people and opening, through the lobby."""
    ann, ann_x, ann_chain = _keys()
    host = HostLobby(ann, 2, "Ann", 47400, game_keys=ann_x, chain=ann_chain, clock=lambda: 0)
    bob, bob_x, bob_chain = _keys()
    join = JoinLobby(bob, "Bob", bob_x, bob_chain, listen_port=47500)
    (challenge,) = host.connect(1, "10.0.0.8")
    host.receive(1, join.hello(challenge.envelope))
    assert host.opening is not None
    return (ann, bob), host.opening


def _refusal(effects: list[object]) -> str:
    sent = [e for e in effects if isinstance(e, SendTo)]
    assert sent and any(isinstance(e, Disconnect) for e in effects), effects
    body = Envelope.parse(sent[0].envelope).body
    assert body.kind == "refuse"
    return str(body.payload[0])


def _rematch_table(people: tuple[Identity, ...], last: Opening) -> HostLobby:
    ann = people[0]
    return HostLobby(
        ann, 2, "Ann", 47400, game_keys=GameKeys.generate(), chain=HashChain.generate(length=8),
        clock=lambda: 0, rematch_of=last,
    )  # fmt: skip


def _vote(table: HostLobby, conn: int, who: Identity, game_id: bytes, agree: bool) -> list[object]:
    join = JoinLobby(who, "Bob", GameKeys.generate(), HashChain.generate(length=8), 47501)
    (challenge,) = table.connect(conn, "10.0.0.8")
    join.hello(challenge.envelope)
    return list(table.receive(conn, join.vote(game_id, agree)))


def test_votes_out_of_place_are_refused_with_a_reason() -> None:
    people, last = _played()
    ann, bob = people
    fresh = HostLobby(
        ann, 2, "Ann", 47400, game_keys=GameKeys.generate(), chain=HashChain.generate(length=8)
    )
    assert "not a rematch" in _refusal(_vote(fresh, 1, bob, last.game_id, True))
    table = _rematch_table(people, last)
    assert "not " + bytes(32).hex()[:12] in _refusal(_vote(table, 1, bob, bytes(32), True))
    stranger = Identity.generate()
    assert "held no seat" in _refusal(_vote(table, 2, stranger, last.game_id, True))
    assert "held no seat" in _refusal(_vote(table, 3, ann, last.game_id, True))  # the host's
    (vote,) = _vote(table, 4, bob, last.game_id, True)
    assert vote == RematchVoted(1, "Bob", True)
    assert "already voted" in _refusal(_vote(table, 5, bob, last.game_id, False))


def test_a_hello_before_the_vote_or_into_a_held_place_is_refused() -> None:
    people, last = _played()
    table = _rematch_table(people, last)
    bob = people[1]
    join = JoinLobby(bob, "Bob", GameKeys.generate(), HashChain.generate(length=8), 47501)
    (challenge,) = table.connect(1, "10.0.0.8")
    assert "votes for the rematch before its hello" in _refusal(
        table.receive(1, join.hello(challenge.envelope))
    )
    newcomer = JoinLobby(
        Identity.generate(), "Cy", GameKeys.generate(), HashChain.generate(length=8), 47502
    )
    (challenge,) = table.connect(2, "10.0.0.9")
    assert "none is free" in _refusal(table.receive(2, newcomer.hello(challenge.envelope)))


def test_a_decline_frees_the_place_and_the_rematch_seats_move_on() -> None:
    people, last = _played()
    table = _rematch_table(people, last)
    effects = _vote(table, 1, people[1], last.game_id, False)
    vote = effects[0]
    assert isinstance(vote, RematchVoted) and not vote.agree
    assert vote.words() == "seat 1 (Bob) declines the rematch; its place is free"
    cy = Identity.generate()
    newcomer = JoinLobby(cy, "Cy", GameKeys.generate(), HashChain.generate(length=8), 47502)
    (challenge,) = table.connect(2, "10.0.0.9")
    started = [
        e for e in table.receive(2, newcomer.hello(challenge.envelope)) if isinstance(e, GameStarts)
    ]
    assert started and table.opening is not None
    # Cy takes Bob's place (seat 1), then every seat moves on: Cy first, the host second
    assert [s.name for s in table.opening.seats] == ["Cy", "Ann"]
    assert started[0].seat == 1 and table.opening.game_id != last.game_id


def test_a_vote_during_the_game_is_refused_by_the_mesh() -> None:
    people, last = _played()
    ann, bob = people
    keys = {i: s.public_key for i, s in enumerate(last.seats)}
    link = LinkProtocol(
        seat=0, identity=ann, game_id=last.game_id, seat_keys=keys, heads=(), nonce=bytes(16)
    )
    link.start()
    join = JoinLobby(bob, "Bob", GameKeys.generate(), HashChain.generate(length=8), 47501)
    challenge = HostLobby(
        ann, 2, "Ann", 1, game_keys=GameKeys.generate(), chain=HashChain.generate(length=8)
    ).connect(1, "10.0.0.8")[0]
    join.hello(challenge.envelope)
    effects = link.receive_data(encode_frame(join.vote(last.game_id, True)))
    sent = [e for e in effects if isinstance(e, SendBytes)]
    assert link.is_closed and sent
    refusal = Envelope.parse(sent[0].data[4:]).body
    assert refusal.kind == "refuse" and refusal.payload == (GAME_NOT_OVER,)
