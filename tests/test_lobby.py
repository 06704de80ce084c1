"""The lobby (docs/PROTOCOL.md §3, net/lobby.py): the host's and a joiner's sans-IO sides wired
together in memory (hello, refusals in words, lobby_state on every change, the opening with
the mesh addresses, one game id for all), then the asyncio shell on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import struct
from dataclasses import dataclass

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from floods import Connection, hung_up, open_many
from floods import close_all as close_connections
from weak_keys import (
    ED25519_IDENTITY,
    FORGED_SIGNATURE,
    NON_CANONICAL_ED25519,
    NON_CANONICAL_X25519,
    SMALL_ORDER_X25519,
    WEAK_ED25519,
    raw_lobby_envelope,
)

from hexlan.engine.options import GameOptions
from hexlan.net import lobby as lobby_module
from hexlan.net.beacon import HashChain
from hexlan.net.identity import GameKeys, Identity
from hexlan.net.lobby import (
    Disconnect,
    GameStarts,
    HostLobby,
    JoinLobby,
    LobbyError,
    Refused,
    SendTo,
    TableChanged,
    host_table,
    join_table,
    parse_address,
)
from hexlan.net.transport import ListenerDrops
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    LocalProtocolError,
    Opening,
    sign_body,
)

CHAIN_LENGTH = 8  # short chains: the lobby only needs their commitments


@dataclass
class Player:
    identity: Identity
    game_keys: GameKeys
    chain: HashChain

    @classmethod
    def new(cls) -> Player:
        return cls(Identity.generate(), GameKeys.generate(), HashChain.generate(CHAIN_LENGTH))

    def joiner(self, name: str, listen_port: int = 50000, **kwargs: object) -> JoinLobby:
        return JoinLobby(self.identity, name, self.game_keys, self.chain, listen_port, **kwargs)  # type: ignore[arg-type]


def make_host(seats: int = 4, **kwargs: object) -> tuple[Player, HostLobby]:
    host = Player.new()
    lobby = HostLobby(
        host.identity,
        seats,
        "Ann",
        47400,
        game_keys=host.game_keys,
        chain=host.chain,
        clock=lambda: 1_700_000_000,
        **kwargs,  # type: ignore[arg-type]
    )
    return host, lobby


def sent_to(effects: list[object], conn: int) -> list[Envelope]:
    return [Envelope.parse(e.envelope) for e in effects if isinstance(e, SendTo) and e.conn == conn]


def refusal(effects: list[object], conn: int) -> str:
    """The reason of the single refuse sent on ``conn``, which is then closed."""
    (env,) = sent_to(effects, conn)
    assert env.body.kind == "refuse"
    assert any(isinstance(e, Disconnect) and e.conn == conn for e in effects)
    return str(env.body.payload[0])


def hello_on(host: HostLobby, conn: int, address: str, join: JoinLobby) -> bytes:
    """Open connection ``conn`` from ``address`` and answer the host's challenge on it: the
    joiner's hello, carrying that connection's nonce."""
    (challenge,) = host.connect(conn, address)
    assert isinstance(challenge, SendTo) and challenge.conn == conn
    return join.hello(challenge.envelope)


def deliver(effects: list[object], conn: int, joiner: JoinLobby) -> list[TableChanged | GameStarts]:
    """Every envelope the host sent on ``conn``, fed to the joiner."""
    events: list[TableChanged | GameStarts] = []
    for e in effects:
        if isinstance(e, SendTo) and e.conn == conn:
            events += joiner.receive(e.envelope)
    return events


OTHER_VERSION = PROTOCOL_VERSION + 1
"""A protocol version this code does not speak."""


def start_after_a_switch(
    announced: dict[str, object], switched: dict[str, object], joiner: JoinLobby
) -> tuple[list[TableChanged | GameStarts], bytes]:
    """``joiner`` sits at a table of one host's with the terms ``announced`` (the events it
    reads there); then the host starts the game from a table with the terms ``switched``
    instead (the ``start`` it sends, as bytes): a host that changed the terms under its
    joiners. Each terms' dict holds ``seats`` and :class:`HostLobby`'s keyword arguments."""
    host = Player.new()

    def table(terms: dict[str, object]) -> HostLobby:
        kwargs = dict(terms)
        seats = kwargs.pop("seats")
        return HostLobby(
            host.identity,
            seats,  # type: ignore[arg-type]
            "Ann",
            47400,
            game_keys=host.game_keys,
            chain=host.chain,
            **kwargs,  # type: ignore[arg-type]
        )

    first, second = table(announced), table(switched)
    events = deliver(first.receive(1, hello_on(first, 1, "10.0.0.8", joiner)), 1, joiner)
    (challenge,) = second.connect(1, "10.0.0.8")
    nonce = Envelope.parse(challenge.envelope).body.payload[1]  # type: ignore[union-attr]
    effects = second.receive(1, joiner._hello_envelope(nonce))
    (start,) = [e for e in sent_to(effects, 1) if e.body.kind == "start"]
    return events, start.to_bytes()


def raw_hello(player: Player, version: int, payload_version: int | None = None) -> bytes:
    """A hello whose body speaks ``version`` (built by hand: Body refuses other versions)."""
    payload = [
        "Eve",
        player.identity.public_bytes,
        version if payload_version is None else payload_version,
        lobby_module.engine_version(),
        player.game_keys.public_bytes,
        player.chain.commitment,
        50000,
        bytes(16),  # a nonce: refused before it matters
    ]
    body = msgpack.packb([version, ZERO_ID, -1, 0, ZERO_ID, [], "hello", payload])
    signature = player.identity.sign(b"hexlan/v1/message\0" + body)
    return msgpack.packb([body, signature])


# ------------------------------------------------------------------------------ the host


def test_hello_takes_the_next_seat_and_every_joiner_hears_the_table() -> None:
    _, host = make_host(4)
    bob, cy = Player.new(), Player.new()
    bob_join, cy_join = bob.joiner("Bob"), cy.joiner("Cy")
    bob_hello = hello_on(host, 1, "10.0.0.8", bob_join)
    cy_hello = hello_on(host, 2, "10.0.0.9", cy_join)

    effects = host.receive(1, bob_hello)
    (state,) = deliver(effects, 1, bob_join)
    assert isinstance(state, TableChanged)
    assert [s.name for s in state.seats] == ["Ann", "Bob"]
    assert state.max_seats == 4
    assert [s.fingerprint for s in state.seats] == [
        host.identity.fingerprint,
        bob.identity.fingerprint,
    ]
    assert any(isinstance(e, TableChanged) for e in effects)  # for the host's own screen

    effects = host.receive(2, cy_hello)
    (bob_sees,) = deliver(effects, 1, bob_join)  # every seated joiner hears each change
    (cy_sees,) = deliver(effects, 2, cy_join)
    assert bob_sees == cy_sees
    assert [s.name for s in bob_join.seats] == ["Ann", "Bob", "Cy"]
    assert not host.is_started

    effects = host.disconnect(1)  # Bob leaves before the start: his seat is free again
    assert sent_to(effects, 1) == []
    (cy_sees,) = deliver(effects, 2, cy_join)
    assert [s.name for s in cy_sees.seats] == ["Ann", "Cy"]


def test_a_full_table_starts_and_every_seat_gets_one_opening() -> None:
    host_player, host = make_host(4, options=GameOptions(victory_points=12), board_kind="random")
    players = [Player.new() for _ in range(3)]
    addresses = ["10.0.0.8", "::ffff:10.0.0.9", "127.0.0.1"]
    joiners = [p.joiner(n, 50000 + i) for i, (p, n) in enumerate(zip(players, "BCD", strict=True))]
    starts: list[GameStarts] = []
    host_starts: list[GameStarts] = []
    for conn, (join, address) in enumerate(zip(joiners, addresses, strict=True), start=1):
        effects = host.receive(conn, hello_on(host, conn, address, join))
        host_starts += [e for e in effects if isinstance(e, GameStarts)]
        for c, j in enumerate(joiners[:conn], start=1):
            starts += [e for e in deliver(effects, c, j) if isinstance(e, GameStarts)]

    assert host.is_started and len(host_starts) == 1
    opening = host_starts[0].opening
    assert host_starts[0].seat == 0
    assert [(s.seat, s.opening) for s in starts] == [(1, opening), (2, opening), (3, opening)]
    assert {j.opening.game_id for j in joiners if j.opening} == {opening.game_id}

    assert [(s.name, s.host, s.port) for s in opening.seats] == [
        ("Ann", "", 47400),  # the host: "the address you reached me at", the table port
        ("B", "10.0.0.8", 50000),  # a joiner: the address it connected from, its listen port
        ("C", "10.0.0.9", 50001),  # IPv4-mapped IPv6 as the IPv4 address the mesh dials
        ("D", "", 50002),  # over loopback: on the host's machine, reached as the host is
    ]
    seat0 = opening.seats[0]
    assert seat0.public_key == host_player.identity.public_bytes
    assert seat0.x25519_public == host_player.game_keys.public_bytes
    assert seat0.chain_commitment == host_player.chain.commitment
    for player, seat in zip(players, opening.seats[1:], strict=True):
        assert seat.public_key == player.identity.public_bytes
        assert seat.x25519_public == player.game_keys.public_bytes
        assert seat.chain_commitment == player.chain.commitment
    assert opening.protocol_version == PROTOCOL_VERSION
    assert opening.board_kind == "random"
    assert opening.game_options().victory_points == 12
    assert opening.created == 1_700_000_000
    assert Opening.from_payload(opening.to_payload()).game_id == opening.game_id


def test_a_six_seat_table_announces_its_game_and_every_joiner_plays_it() -> None:
    """The host chooses the game: its ``lobby_state`` names it (a base table's leaves it out),
    and the opening every seat gets is of that game, on a random board (the 5-6 player map
    has no beginner layout)."""
    _, host = make_host(6, game="five-six")
    assert (host.game, host.min_seats, host.board_kind) == ("five-six", 5, "random")
    joiners = [Player.new().joiner(f"P{i}", 50000 + i) for i in range(5)]
    starts: list[GameStarts] = []
    for conn, join in enumerate(joiners, start=1):
        effects = host.receive(conn, hello_on(host, conn, f"10.0.0.{conn}", join))
        (state,) = [e for e in sent_to(effects, conn) if e.body.kind == "lobby_state"]
        assert state.body.payload[2] == "five-six"
        for c, j in enumerate(joiners[:conn], start=1):
            events = deliver(effects, c, j)
            starts += [e for e in events if isinstance(e, GameStarts)]
            assert all(e.game == "five-six" for e in events if isinstance(e, TableChanged))
    assert [s.seat for s in starts] == [1, 2, 3, 4, 5]
    opening = starts[0].opening
    assert (opening.game, len(opening.seats), opening.board_kind) == ("five-six", 6, "random")
    assert {j.game for j in joiners} == {"five-six"}
    assert opening.rules().development_deck == (20, 5, 3, 3, 3)
    # A base table's lobby_state keeps its two fields.
    _, base = make_host(2)
    effects = base.receive(1, hello_on(base, 1, "10.0.0.8", Player.new().joiner("Bob")))
    assert [len(e.body.payload) for e in sent_to(effects, 1) if e.body.kind == "lobby_state"] == [2]


@pytest.mark.parametrize(
    ("seats", "kwargs", "words"),
    [
        (5, {}, "a base table has 2..4 seats, not 5"),
        (4, {"game": "five-six"}, "a five-six table has 5..6 seats, not 4"),
        (6, {"game": "five-six", "board_kind": "beginner"}, "offers 'random' boards"),
        (4, {"game": "jungle-x"}, "no game named 'jungle-x'"),
    ],
)
def test_a_table_the_game_cannot_seat_is_refused(
    seats: int, kwargs: dict[str, object], words: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        make_host(seats, **kwargs)


def test_a_five_six_game_starts_early_only_with_five_seats() -> None:
    _, host = make_host(6, game="five-six")
    for conn in range(1, 4):
        host.receive(conn, hello_on(host, conn, "10.0.0.8", Player.new().joiner(f"P{conn}")))
    with pytest.raises(LocalProtocolError, match="a five-six game needs at least 5 seats"):
        host.start()
    host.receive(4, hello_on(host, 4, "10.0.0.8", Player.new().joiner("P4")))
    (start,) = [e for e in host.start() if isinstance(e, GameStarts)]
    assert len(start.opening.seats) == 5 and start.opening.game == "five-six"


def test_a_joiner_refuses_an_opening_of_another_game_than_the_table_announced() -> None:
    """A joiner plays the host's game, the one its table announced: a start for another game
    (a host that switched games under its joiners) is refused in words."""
    bob = Player.new().joiner("Bob")
    events, start = start_after_a_switch({"seats": 6, "game": "five-six"}, {"seats": 2}, bob)
    assert [e.game for e in events if isinstance(e, TableChanged)] == ["five-six"]
    with pytest.raises(
        LobbyError, match="announced a five-six table but its opening is for the base"
    ):
        bob.receive(start)


def test_the_table_announces_its_board_and_options_to_every_joiner() -> None:
    """§3: a table off its defaults names its board kind and the options that differ in
    ``lobby_state`` (a base table names its game then), so a joiner sees the terms while it
    waits; the opening must hold those terms, or the joiner refuses it."""
    options = GameOptions(victory_points=8, largest_army=False)
    _, host = make_host(3, options=options, board_kind="random")
    bob = Player.new().joiner("Bob")
    effects = host.receive(1, hello_on(host, 1, "10.0.0.8", bob))
    (state,) = [e for e in sent_to(effects, 1) if e.body.kind == "lobby_state"]
    assert state.body.payload[2:] == (
        "base",
        "random",
        (("largest_army", False), ("victory_points", 8)),
    )
    (table,) = [e for e in deliver(effects, 1, bob) if isinstance(e, TableChanged)]
    assert (table.game, table.board_kind, table.options) == ("base", "random", options)
    assert host.table() == table  # the host's screen shows the same terms
    # Only the board off its default: the options are an empty list.
    _, other = make_host(2, board_kind="random")
    effects = other.receive(1, hello_on(other, 1, "10.0.0.8", Player.new().joiner("Cy")))
    payloads = [e.body.payload for e in sent_to(effects, 1) if e.body.kind == "lobby_state"]
    assert [p[2:] for p in payloads] == [("base", "random", ())]


def test_a_joiner_refuses_an_opening_with_other_terms_than_the_table_announced() -> None:
    bob = Player.new().joiner("Bob")
    announced = {"seats": 3, "options": GameOptions(victory_points=8)}
    events, start = start_after_a_switch(announced, {"seats": 2}, bob)  # default terms
    assert [e.options.victory_points for e in events if isinstance(e, TableChanged)] == [8]
    with pytest.raises(LobbyError, match="another board or other options than its table"):
        bob.receive(start)


def test_another_protocol_version_is_refused_in_words() -> None:
    _, host = make_host(2)
    eve = Player.new()
    host.connect(1, "10.0.0.8")
    assert refusal(host.receive(1, raw_hello(eve, OTHER_VERSION)), 1) == (
        f"this table speaks hexlan protocol {PROTOCOL_VERSION}; you speak {OTHER_VERSION}"
    )
    # An envelope in our version whose hello claims another protocol is refused the same way.
    host.connect(2, "10.0.0.9")
    claimed = PROTOCOL_VERSION + 2
    effects = host.receive(2, raw_hello(eve, PROTOCOL_VERSION, payload_version=claimed))
    assert refusal(effects, 2) == (
        f"this table speaks hexlan protocol {PROTOCOL_VERSION}; you speak {claimed}"
    )
    assert len(host.seats) == 1


def test_a_joiner_hears_the_refusal_as_an_error() -> None:
    _, host = make_host(2)
    eve = Player.new()
    host.connect(1, "10.0.0.8")
    join = eve.joiner("Eve")
    effects = host.receive(1, raw_hello(eve, OTHER_VERSION))
    with pytest.raises(
        Refused, match=f"the table refused: this table speaks hexlan protocol {PROTOCOL_VERSION};"
    ):
        deliver(effects, 1, join)


def test_a_full_table_refuses() -> None:
    _, host = make_host(2)
    host.receive(1, hello_on(host, 1, "10.0.0.8", Player.new().joiner("Bob")))
    assert host.is_started
    reason = refusal(host.receive(2, hello_on(host, 2, "10.0.0.9", Player.new().joiner("Cy"))), 2)
    assert reason == "this table is full (2 of 2 seats taken)"


def test_a_game_started_early_refuses_latecomers() -> None:
    _, host = make_host(4)
    host.receive(1, hello_on(host, 1, "10.0.0.8", Player.new().joiner("Bob")))
    effects = host.start()
    assert [type(e).__name__ for e in effects] == ["SendTo", "GameStarts"]
    assert host.opening is not None and len(host.opening.seats) == 2
    reason = refusal(host.receive(2, hello_on(host, 2, "10.0.0.9", Player.new().joiner("Cy"))), 2)
    assert reason == "the game at this table has already started"


def test_a_duplicate_key_is_refused() -> None:
    host_player, host = make_host(4)
    bob = Player.new()
    host.receive(1, hello_on(host, 1, "10.0.0.8", bob.joiner("Bob")))
    # The same identity again (another connection, fresh game keys).
    again = Player(bob.identity, GameKeys.generate(), HashChain.generate(CHAIN_LENGTH))
    reason = refusal(host.receive(2, hello_on(host, 2, "10.0.0.9", again.joiner("Bob2"))), 2)
    assert reason == f"a player with key {bob.identity.fingerprint} is already at this table"
    # The host's own key.
    mimic = Player(host_player.identity, GameKeys.generate(), HashChain.generate(CHAIN_LENGTH))
    reason = refusal(host.receive(3, hello_on(host, 3, "10.0.0.10", mimic.joiner("Ann"))), 3)
    assert "is already at this table" in reason
    # Another key reusing a seat's chain commitment.
    copycat = Player(Identity.generate(), GameKeys.generate(), bob.chain)
    assert refusal(host.receive(4, hello_on(host, 4, "10.0.0.11", copycat.joiner("Cat"))), 4) == (
        "the hello repeats another seat's game keys"
    )
    assert [s.name for s in host.seats] == ["Ann", "Bob"]


def test_forged_and_malformed_hellos_are_refused() -> None:
    _, host = make_host(4)
    bob, mallory = Player.new(), Player.new()
    hello = Envelope.parse(hello_on(host, 1, "10.0.0.8", bob.joiner("Bob")))
    forged = sign_body(hello.body, mallory.identity).to_bytes()  # Bob's key, Mallory's signature
    assert refusal(host.receive(1, forged), 1) == "the hello is not signed by the key it carries"
    host.connect(2, "10.0.0.9")
    assert refusal(host.receive(2, b"\x92junk"), 2).startswith("not a hello: ")
    host.connect(3, "10.0.0.10")
    state = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "refuse", ("no",))
    assert refusal(host.receive(3, sign_body(state, bob.identity).to_bytes()), 3) == (
        "expected a hello, got refuse"
    )
    no_port = hello_on(host, 4, "10.0.0.11", bob.joiner("Bob", listen_port=0))
    assert refusal(host.receive(4, no_port), 4) == ("the hello gives no listen port for the game")
    assert len(host.seats) == 1


def test_a_second_hello_on_one_connection_gives_up_the_seat() -> None:
    _, host = make_host(4)
    bob = Player.new()
    hello = hello_on(host, 1, "10.0.0.8", bob.joiner("Bob"))
    host.receive(1, hello)
    effects = host.receive(1, hello)
    assert refusal(effects, 1) == "a joining peer sends one hello and then waits"
    assert [s.name for s in host.seats] == ["Ann"]


# ------------------------------------------------------------------------------ a joiner


def _started_pair() -> tuple[Player, HostLobby, Player, JoinLobby, list[object]]:
    host_player, host = make_host(2)
    bob = Player.new()
    join = bob.joiner("Bob", 50000)
    effects = host.receive(1, hello_on(host, 1, "10.0.0.8", join))
    return host_player, host, bob, join, effects


def test_a_joiner_checks_its_own_seat_in_the_opening() -> None:
    host_player, host, bob, _, effects = _started_pair()
    start = sent_to(effects, 1)[-1]
    assert start.body.kind == "start"
    opening = host.opening
    assert opening is not None

    def resend(**changes: object) -> bytes:
        seats = list(opening.seats)
        seats[1] = type(seats[1])(**{**_fields(seats[1]), **changes})
        payload = Opening(
            opening.protocol_version,
            opening.engine_version,
            tuple(seats),
            opening.options,
            opening.board_kind,
            opening.created,
        ).to_payload()
        body = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "start", (payload,))
        return sign_body(body, host_player.identity).to_bytes()

    cases = {
        "chain commitment": resend(chain_commitment=bytes(range(32))),
        "X25519 keys": resend(x25519_public=GameKeys.generate().public_bytes),
        "port 50001": resend(port=50001),
        "no seat": resend(public_key=Identity.generate().public_bytes),
    }
    for words, data in cases.items():
        join = bob.joiner("Bob", 50000)
        with pytest.raises(LobbyError, match=words):
            join.receive(data)
    join = bob.joiner("Bob", 50000)
    (event,) = join.receive(start.to_bytes())
    assert isinstance(event, GameStarts) and event.seat == 1 and event.opening == opening


def _fields(seat: object) -> dict[str, object]:
    names = ("name", "public_key", "x25519_public", "chain_commitment", "host", "port")
    return {n: getattr(seat, n) for n in names}


def test_a_joiner_pins_the_host_key() -> None:
    host_player, _, bob, _, effects = _started_pair()
    state, start = sent_to(effects, 1)
    # Someone else re-signs the host's messages: refused after the key is known.
    mallory = Identity.generate()
    join = bob.joiner("Bob", 50000)
    join.receive(state.to_bytes())
    with pytest.raises(LobbyError, match="not signed by its key"):
        join.receive(sign_body(start.body, mallory).to_bytes())
    # A lobby_state whose seat 0 is not the signer.
    join = bob.joiner("Bob", 50000)
    with pytest.raises(LobbyError, match="not signed by its key"):
        join.receive(sign_body(state.body, mallory).to_bytes())
    # The announced fingerprint must be the host's.
    join = bob.joiner("Bob", 50000, host_fingerprint="0000-0000-0000-0000")
    with pytest.raises(LobbyError, match="not the announced 0000-0000-0000-0000"):
        join.receive(state.to_bytes())
    join = bob.joiner("Bob", 50000, host_fingerprint=host_player.identity.fingerprint)
    assert isinstance(join.receive(state.to_bytes())[0], TableChanged)


def test_parse_address() -> None:
    assert parse_address("192.168.1.20:47400") == ("192.168.1.20", 47400)
    assert parse_address("[::1]:9") == ("::1", 9)
    assert parse_address("example.org:1") == ("example.org", 1)
    for bad in ("nonsense", "host:", ":80", "host:0", "host:65536", "host:http"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(bad)


# ------------------------------------------------------------------------------ asyncio shell


async def read_frames(reader: asyncio.StreamReader, count: int) -> list[bytes]:
    """The next ``count`` lobby frames from ``reader`` (5 s at most)."""
    decoder = lobby_module.FrameDecoder()
    frames: list[bytes] = []
    while len(frames) < count:
        data = await asyncio.wait_for(reader.read(4096), 5)
        assert data, f"the connection closed after {len(frames)} of {count} frames"
        frames += decoder.feed(data)
    return frames


async def test_host_and_joiners_over_tcp_agree_on_the_opening() -> None:
    players = [Player.new() for _ in range(3)]
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    changes: list[TableChanged] = []
    host = asyncio.create_task(
        host_table(
            players[0].identity,
            3,
            "Ann",
            0,
            game_keys=players[0].game_keys,
            chain=players[0].chain,
            listen_host="127.0.0.1",
            on_listening=bound.set_result,
            on_change=changes.append,
            announce_targets=["256.0.0.1", "127.0.0.1"],  # a failing target must not matter
        )
    )
    port = await asyncio.wait_for(bound, 5)
    joins = []
    for i, name in ((1, "Bob"), (2, "Cy")):
        joins.append(
            asyncio.create_task(
                join_table(
                    "127.0.0.1",
                    port,
                    players[i].identity,
                    name,
                    game_keys=players[i].game_keys,
                    chain=players[i].chain,
                    listen_port=50000 + i,
                    host_fingerprint=players[0].identity.fingerprint,
                )
            )
        )
        await asyncio.sleep(0.05)  # joining order is seat order
    (opening, seat0), *joined = await asyncio.wait_for(asyncio.gather(host, *joins), 10)
    assert seat0 == 0
    assert [(o.game_id, s) for o, s in joined] == [(opening.game_id, 1), (opening.game_id, 2)]
    assert [(s.name, s.host, s.port) for s in opening.seats] == [
        ("Ann", "", port),
        ("Bob", "", 50001),  # joined over loopback: at the host's address, as each reached it
        ("Cy", "", 50002),
    ]
    assert [len(c.seats) for c in changes] == [1, 2, 3]
    # The table port is closed at the start, free for the game's mesh.
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", port, reuse_address=True)
    server.close()


async def test_join_table_reports_refusals_and_unreachable_hosts() -> None:
    host_player, late = Player.new(), Player.new()
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(
        host_table(
            host_player.identity,
            2,
            "Ann",
            0,
            game_keys=host_player.game_keys,
            chain=host_player.chain,
            listen_host="127.0.0.1",
            on_listening=bound.set_result,
            announce=False,
        )
    )
    port = await asyncio.wait_for(bound, 5)
    join = late.joiner("Eve", 50000)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(lobby_module.encode_frame(raw_hello(late, OTHER_VERSION)))
    challenge, refuse = await read_frames(reader, 2)
    assert Envelope.parse(challenge).body.kind == "challenge"
    with pytest.raises(
        Refused, match=f"speaks hexlan protocol {PROTOCOL_VERSION}; you speak {OTHER_VERSION}"
    ):
        join.receive(refuse)
    assert await asyncio.wait_for(reader.read(4096), 5) == b""  # and the host hangs up
    writer.close()
    host.cancel()
    with pytest.raises(asyncio.CancelledError):
        await host
    with pytest.raises(LobbyError, match=f"cannot reach 127.0.0.1:{port}"):
        await join_table(
            "127.0.0.1",
            port,
            late.identity,
            "Eve",
            game_keys=late.game_keys,
            chain=late.chain,
            listen_port=50000,
        )


async def test_the_host_may_start_before_the_table_is_full() -> None:
    ann, bob = Player.new(), Player.new()
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    start_now = asyncio.Event()
    seated = asyncio.Event()
    host = asyncio.create_task(
        host_table(
            ann.identity,
            4,
            "Ann",
            0,
            game_keys=ann.game_keys,
            chain=ann.chain,
            listen_host="127.0.0.1",
            on_listening=bound.set_result,
            on_change=lambda table: len(table.seats) == 2 and seated.set(),
            announce=False,
            start_now=start_now,
        )
    )
    port = await asyncio.wait_for(bound, 5)
    start_now.set()  # alone at the table: nothing happens
    await asyncio.sleep(0.05)
    assert not host.done()
    join = asyncio.create_task(
        join_table(
            "127.0.0.1",
            port,
            bob.identity,
            "Bob",
            game_keys=bob.game_keys,
            chain=bob.chain,
            listen_port=50001,
        )
    )
    await asyncio.wait_for(seated.wait(), 5)
    start_now.set()
    (opening, seat0), (joined, seat1) = await asyncio.wait_for(asyncio.gather(host, join), 5)
    assert (seat0, seat1) == (0, 1)
    assert joined == opening and [s.name for s in opening.seats] == ["Ann", "Bob"]


# ------------------------------------------------------------------------------ weak keys


BAD_ED25519 = {**WEAK_ED25519, **NON_CANONICAL_ED25519}
BAD_X25519 = {**SMALL_ORDER_X25519, **NON_CANONICAL_X25519}


def challenged(host: HostLobby, conn: int, address: str = "10.0.0.66") -> bytes:
    """Open connection ``conn``; the nonce of the challenge the host sends on it."""
    (challenge,) = host.connect(conn, address)
    assert isinstance(challenge, SendTo)
    env = Envelope.parse(challenge.envelope)
    assert env.body.kind == "challenge" and env.body.payload[0] == host.identity.public_bytes
    return bytes(env.body.payload[1])


def attacker_hello(
    player: Player,
    nonce: bytes,
    *,
    name: str = "Eve",
    public_key: bytes | None = None,
    x25519_public: bytes | None = None,
    signature: bytes | None = None,
) -> bytes:
    """A hello built by hand, as an attacker would (``Body`` refuses weak keys)."""
    payload = [
        name,
        player.identity.public_bytes if public_key is None else public_key,
        PROTOCOL_VERSION,
        lobby_module.engine_version(),
        player.game_keys.public_bytes if x25519_public is None else x25519_public,
        player.chain.commitment,
        50000,
        nonce,
    ]
    if signature is not None:
        return raw_lobby_envelope("hello", payload, signature=signature)
    return raw_lobby_envelope("hello", payload, key=player.identity)


def test_the_identity_point_forgery_no_longer_takes_a_seat() -> None:
    """With the identity point as its key, one fixed signature "signs" any hello: the bare
    signature check passes for two different hellos, and the host refuses both."""
    _, host = make_host(4)
    eve = Player.new()
    for conn, name in ((1, "Eve"), (2, "Mallory")):
        hello = attacker_hello(
            eve,
            challenged(host, conn),
            name=name,
            public_key=ED25519_IDENTITY,
            signature=FORGED_SIGNATURE,
        )
        body = msgpack.unpackb(hello)[0]
        Ed25519PublicKey.from_public_bytes(ED25519_IDENTITY).verify(  # the forgery "verifies"
            FORGED_SIGNATURE, b"hexlan/v1/message\0" + body
        )
        reason = refusal(host.receive(conn, hello), conn)
        assert reason.startswith(
            "not a hello: hello payload.public_key: Ed25519 public key 0100000000000000… is weak: "
            "a small-order point"
        ), reason
    assert [s.name for s in host.seats] == ["Ann"]


@pytest.mark.parametrize("key", BAD_ED25519.values(), ids=BAD_ED25519.keys())
def test_a_hello_with_a_weak_identity_key_is_refused(key: bytes) -> None:
    _, host = make_host(4)
    hello = attacker_hello(
        Player.new(), challenged(host, 1), public_key=key, signature=FORGED_SIGNATURE
    )
    reason = refusal(host.receive(1, hello), 1)
    assert re.fullmatch(
        rf"not a hello: hello payload\.public_key: Ed25519 public key {key.hex()[:16]}… "
        r"(is weak: a small-order point.*|is not canonical \(its y is not below 2\^255-19\))",
        reason,
    ), reason
    assert len(host.seats) == 1


@pytest.mark.parametrize("key", BAD_X25519.values(), ids=BAD_X25519.keys())
def test_a_hello_with_a_weak_x25519_key_is_refused(key: bytes) -> None:
    """A small-order X25519 key would make the victim's steal opening unsealable (or readable
    by anyone); the host refuses it at the door."""
    _, host = make_host(4)
    hello = attacker_hello(Player.new(), challenged(host, 1), x25519_public=key)
    reason = refusal(host.receive(1, hello), 1)
    assert re.fullmatch(
        rf"not a hello: hello payload\.x25519_public: X25519 public key {key.hex()[:16]}… "
        r"(has small order: it gives no shared secret.*|is not canonical .*)",
        reason,
    ), reason
    assert len(host.seats) == 1


@pytest.mark.parametrize(
    ("field", "key"),
    [
        ("public_key", ED25519_IDENTITY),
        ("public_key", NON_CANONICAL_ED25519["y = p + 1 (the identity + p)"]),
        ("public_key", WEAK_ED25519["order 8"]),
        ("x25519_public", SMALL_ORDER_X25519["u = 0 (all zero)"]),
        ("x25519_public", SMALL_ORDER_X25519["order 8"]),
        ("x25519_public", NON_CANONICAL_X25519["a real key with the top bit set"]),
    ],
    ids=["identity", "ed25519 y=p+1", "ed25519 order 8", "x25519 u=0", "x25519 order 8", "top bit"],
)
def test_a_joiner_refuses_an_opening_holding_a_weak_key(field: str, key: bytes) -> None:
    """A host that puts a weak key into the opening (its own seat's here) is refused by every
    joiner before anyone signs it."""
    host_player, host, bob, _, _ = _started_pair()
    assert host.opening is not None
    payload = msgpack.unpackb(msgpack.packb(host.opening.to_payload()))
    column = {"public_key": 1, "x25519_public": 2}[field]
    payload[2][0][column] = key
    start = raw_lobby_envelope("start", [payload], key=host_player.identity)
    join = bob.joiner("Bob", 50000)
    with pytest.raises(LobbyError) as info:
        join.receive(start)
    assert info.value.reason.startswith(
        f"the host sent a malformed message: start payload.opening.seats[0].{field}: "
    ), info.value.reason
    assert re.search("is weak|has small order|is not canonical", info.value.reason)
    assert join.opening is None


# ------------------------------------------------------------------------------ replayed hellos


def test_a_hello_must_carry_its_own_connections_nonce() -> None:
    _, host = make_host(4)
    bob = Player.new()
    bob_hello = hello_on(host, 1, "10.0.0.8", bob.joiner("Bob"))
    challenged(host, 2)
    replay_words = (
        "the hello does not carry the nonce this table sent on this connection "
        "(a hello replayed from another connection?)"
    )
    assert refusal(host.receive(2, bob_hello), 2) == replay_words  # conn 1's hello, on conn 2
    # A hello signing no nonce of this table, or another one.
    for conn, nonce in ((3, bytes(16)), (4, os.urandom(16))):
        challenged(host, conn)
        assert refusal(host.receive(conn, attacker_hello(bob, nonce)), conn) == replay_words
    assert [s.name for s in host.seats] == ["Ann"]
    # The hello made for connection 1 still seats Bob there.
    effects = host.receive(1, bob_hello)
    assert [s.name for s in host.seats] == ["Ann", "Bob"] and sent_to(effects, 1)


def test_the_challenge_pins_the_host_key() -> None:
    host_player, host = make_host(4)
    (challenge,) = host.connect(1, "10.0.0.8")
    assert isinstance(challenge, SendTo)
    bob = Player.new()
    # The announced fingerprint must be the challenge's key, before any hello is made.
    with pytest.raises(LobbyError, match="not the announced 0000-0000-0000-0000"):
        bob.joiner("Bob", host_fingerprint="0000-0000-0000-0000").hello(challenge.envelope)
    # A challenge signed by another key than the one it carries.
    env = Envelope.parse(challenge.envelope)
    mallory = Identity.generate()
    with pytest.raises(LobbyError, match="challenge is not signed by its key"):
        bob.joiner("Bob").hello(sign_body(env.body, mallory).to_bytes())
    # Anything else first.
    refuse = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "refuse", ("full",))
    with pytest.raises(Refused, match="the table refused: full"):
        bob.joiner("Bob").hello(sign_body(refuse, host_player.identity).to_bytes())
    state = Body(PROTOCOL_VERSION, ZERO_ID, -1, 0, ZERO_ID, (), "lobby_state", (4, ()))
    with pytest.raises(LobbyError, match="sent lobby_state where its challenge was due"):
        bob.joiner("Bob").hello(sign_body(state, host_player.identity).to_bytes())
    # One challenge per connection.
    join = bob.joiner("Bob", host_fingerprint=host_player.identity.fingerprint)
    join.hello(challenge.envelope)
    with pytest.raises(LobbyError, match="second challenge"):
        join.receive(challenge.envelope)
    assert join.host_key == host_player.identity.public_bytes


async def test_a_hello_replayed_on_a_new_connection_is_refused() -> None:
    """Over TCP: Bob joins and leaves; Mallory, who captured Bob's hello on the wire, replays it
    byte for byte on a new connection to take a seat in Bob's name. The host refuses it."""
    ann, bob = Player.new(), Player.new()
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    changes: list[TableChanged] = []
    host = asyncio.create_task(
        host_table(
            ann.identity,
            3,
            "Ann",
            0,
            game_keys=ann.game_keys,
            chain=ann.chain,
            listen_host="127.0.0.1",
            on_listening=bound.set_result,
            on_change=changes.append,
            announce=False,
        )
    )
    try:
        port = await asyncio.wait_for(bound, 5)
        # Bob, with the real joiner's side of the lobby; his hello is captured as sent.
        join = bob.joiner("Bob", 50001, host_fingerprint=ann.identity.fingerprint)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        (challenge,) = await read_frames(reader, 1)
        captured = join.hello(challenge)
        writer.write(lobby_module.encode_frame(captured))
        (state,) = await read_frames(reader, 1)
        (seated,) = join.receive(state)
        assert isinstance(seated, TableChanged)
        assert [s.name for s in seated.seats] == ["Ann", "Bob"]
        writer.close()  # Bob leaves: his seat is free again
        for _ in range(100):
            if [len(c.seats) for c in changes][-1:] == [1]:
                break
            await asyncio.sleep(0.02)
        assert [len(c.seats) for c in changes] == [1, 2, 1]

        # Mallory replays the captured bytes on a connection of her own.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        (fresh,) = await read_frames(reader, 1)
        assert Envelope.parse(fresh).body.payload[1] != Envelope.parse(challenge).body.payload[1]
        writer.write(lobby_module.encode_frame(captured))
        (refuse,) = await read_frames(reader, 1)
        with pytest.raises(
            Refused, match=r"does not carry the nonce this table sent on this connection"
        ):
            JoinLobby(bob.identity, "Bob", bob.game_keys, bob.chain, 50001).receive(refuse)
        assert await asyncio.wait_for(reader.read(4096), 5) == b""  # and the host hangs up
        writer.close()
        assert [len(c.seats) for c in changes] == [1, 2, 1]  # nobody sits in Bob's name
    finally:
        host.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await host


# ------------------------------------------------------------------------------ listener bounds


async def open_table(
    drops: ListenerDrops, seats: int = 2, **kwargs: object
) -> tuple[Player, asyncio.Task[tuple[Opening, int]], int]:
    """A table of ``seats`` on a free port of every interface (not announced); its host, its
    task and its port."""
    ann = Player.new()
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        host_table(
            ann.identity,
            seats,
            "Ann",
            0,
            game_keys=ann.game_keys,
            chain=ann.chain,
            on_listening=bound.set_result,
            announce=False,
            drops=drops,
            **kwargs,  # type: ignore[arg-type]
        )
    )
    return ann, task, await asyncio.wait_for(bound, 5)


async def real_join(
    ann: Player, table: asyncio.Task[tuple[Opening, int]], port: int, host: str = "127.0.0.1"
) -> Opening:
    """Bob joins the 2-seat table at ``host:port``; the opening both agree on."""
    bob = Player.new()
    joined = join_table(
        host,
        port,
        bob.identity,
        "Bob",
        game_keys=bob.game_keys,
        chain=bob.chain,
        listen_port=50001,
        host_fingerprint=ann.identity.fingerprint,
    )
    (opening, seat0), (bob_opening, seat1) = await asyncio.wait_for(
        asyncio.gather(table, joined), 5
    )
    assert (seat0, seat1) == (0, 1)
    assert opening == bob_opening
    return opening


async def stop(table: asyncio.Task[tuple[Opening, int]]) -> None:
    table.cancel()
    with contextlib.suppress(asyncio.CancelledError, LobbyError):
        await table


async def test_a_huge_length_prefix_is_refused_and_the_table_still_fills() -> None:
    drops = ListenerDrops()
    ann, table, port = await open_table(drops)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(struct.pack(">I", 0xFFFFFFFF))  # no body follows, none is waited for
        challenge, refuse = await read_frames(reader, 2)
        assert Envelope.parse(challenge).body.kind == "challenge"
        assert Envelope.parse(refuse).body.payload == (
            "not a lobby frame: a frame of 4294967295 bytes (frames hold 1..16384 bytes)",
        )
        assert await hung_up(reader)
        writer.close()
        assert drops == ListenerDrops(oversized=1)
        await real_join(ann, table, port)
    finally:
        await stop(table)


async def test_a_silent_caller_is_dropped_and_the_table_still_fills() -> None:
    drops = ListenerDrops()
    ann, table, port = await open_table(drops, hello_timeout=0.3)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        (_, refuse) = await read_frames(reader, 2)
        assert Envelope.parse(refuse).body.payload == ("no hello within 0.3 s",)
        assert await hung_up(reader)
        writer.close()
        assert drops == ListenerDrops(silent=1)
        await real_join(ann, table, port)
    finally:
        await stop(table)


async def test_a_thousand_callers_at_once_are_bounded_and_a_joiner_still_joins() -> None:
    drops = ListenerDrops()
    ann, table, port = await open_table(drops, hello_timeout=1.0)
    flood: list[Connection] = []
    try:
        flood = await open_many(port, 1000)
        assert len(flood) >= 500  # the machine let most of them open
        cap = lobby_module.LOBBY_MAX_PENDING
        for _ in range(250):  # every caller over the cap is hung up on at once
            if drops.busy == len(flood) - cap:
                break
            await asyncio.sleep(0.02)
        assert (drops.busy, drops.silent) == (len(flood) - cap, 0), drops
        hung = await asyncio.gather(*(hung_up(reader, 0.5) for reader, _ in flood))
        assert hung.count(True) == len(flood) - cap  # the ones holding a slot time out...
        for _ in range(250):
            if drops.silent == cap:
                break
            await asyncio.sleep(0.02)
        assert drops.silent == cap, drops  # ...after 1 s, and their slots are free again
        await real_join(ann, table, port)
    finally:
        close_connections(flood)
        await stop(table)


async def test_one_address_cannot_keep_a_joiner_out() -> None:
    drops = ListenerDrops()
    ann, table, port = await open_table(drops)
    flood: list[Connection] = []
    try:
        flood = await open_many(port, 100, sources=("127.0.0.2",))
        per_host = lobby_module.LOBBY_MAX_PENDING_PER_HOST
        for _ in range(250):
            if drops.busy == len(flood) - per_host:
                break
            await asyncio.sleep(0.02)
        assert drops == ListenerDrops(busy=len(flood) - per_host)
        await real_join(ann, table, port)  # from 127.0.0.1, while the flood holds on
    finally:
        close_connections(flood)
        await stop(table)


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback on this machine")
async def test_port_0_on_every_interface_is_one_port_for_ipv4_and_ipv6() -> None:
    drops = ListenerDrops()
    ann, table, port = await open_table(drops)  # listen_host None: both stacks
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        (challenge,) = await read_frames(reader, 1)  # the table answers on IPv4...
        assert Envelope.parse(challenge).body.kind == "challenge"
        writer.close()
        opening = await real_join(ann, table, port, host="::1")  # ...and on IPv6, same port
        assert [(s.host, s.port) for s in opening.seats] == [("", port), ("", 50001)]
    finally:
        await stop(table)


def test_a_joiner_over_loopback_is_reached_where_the_host_is() -> None:
    """A loopback joiner's seat has an empty host: each peer dials it where it reached the host
    (a LAN peer at the host's LAN address, the host itself on 127.0.0.1)."""
    _, host = make_host(3)
    local, remote = Player.new(), Player.new()
    effects = host.receive(1, hello_on(host, 1, "::ffff:127.0.0.1", local.joiner("Lou", 50001)))
    effects += host.receive(2, hello_on(host, 2, "192.168.1.30", remote.joiner("Rae", 50002)))
    (start,) = [e for e in effects if isinstance(e, GameStarts)]
    opening = start.opening
    assert [(s.host, s.port) for s in opening.seats] == [
        ("", 47400),
        ("", 50001),
        ("192.168.1.30", 50002),
    ]
    assert lobby_module.seat_host("::1") == ""
    assert lobby_module.seat_host("fe80::1%eth0") == "fe80::1%eth0"

    from hexlan.net.peer import Peer  # the addresses each seat's mesh dials

    def dials(seat: int, host_address: str | None) -> dict[int, tuple[str, int]]:
        peer = Peer.__new__(Peer)
        peer.opening, peer.seat, peer.host_address = opening, seat, host_address
        peer.routes = {}
        return peer.addresses()

    assert dials(0, None)[1] == ("127.0.0.1", 50001)  # the host: on its own machine
    assert dials(2, "192.168.1.20")[1] == ("192.168.1.20", 50001)  # a LAN peer: the host's
    assert dials(1, "127.0.0.1")[2] == ("192.168.1.30", 50002)
