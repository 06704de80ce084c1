"""The test vectors of docs/PROTOCOL.md stay true, and the documented formulas give them.

Spec: docs/PROTOCOL.md ("Test vectors"), docs/protocol-vectors.json, scripts/protocol_vectors.py.

First the vectors are regenerated in memory and compared with the file, so neither the spec's
numbers nor the code can drift alone. Then a few of them are re-derived from the JSON with only
the formulas the spec states and bare primitives (hashlib, HKDF and Ed25519 from
``cryptography``, ``nacl.bindings`` for ed25519 group arithmetic, X25519 and ChaCha20-Poly1305,
``msgpack``), never through hexlan's helpers: an independent verifier's first steps.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl import bindings as nb
from scripts_import import load_script

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "docs" / "protocol-vectors.json"
SPEC = ROOT / "docs" / "PROTOCOL.md"

L = 2**252 + 27742317777372353535851937790883648493
G = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    """scripts/protocol_vectors.py, imported."""
    return load_script("protocol_vectors")


@pytest.fixture(scope="module")
def generated(generator: ModuleType) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What the generator builds now (its JSON data and its whole games' logs): both games
    played once for the module."""
    built: tuple[dict[str, Any], dict[str, bytes]] = generator.build()
    return built


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def x(text: str) -> bytes:
    return bytes.fromhex(text)


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


# ---------------------------------------------------------------------------- the file is true


def test_the_file_is_what_the_code_generates_now(
    vectors: dict[str, Any],
    generator: ModuleType,
    generated: tuple[dict[str, Any], dict[str, bytes]],
) -> None:
    data, logs = generated
    text = generator.render(data)
    assert json.loads(text) == vectors, (
        "docs/protocol-vectors.json is stale: run `python scripts/protocol_vectors.py` and update "
        "the inline values of docs/PROTOCOL.md's 'Test vectors' section"
    )
    assert text == VECTORS.read_text(encoding="utf-8")
    assert len(text.encode()) < 300_000
    assert set(logs) == {generator.GAME_LOG, generator.ACCUSED_LOG}
    for name, log in logs.items():
        assert log == (VECTORS.parent / name).read_bytes(), f"the vector log {name} is stale"
    schema = generator.render(generator.action_schema())
    assert schema == (VECTORS.parent / generator.ACTION_SCHEMA).read_text(encoding="utf-8")


def test_check_compares_every_file_the_accused_log_included(
    generator: ModuleType,
    generated: tuple[dict[str, Any], dict[str, bytes]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`protocol_vectors.py --check` on a copy of docs/: up to date as committed; a changed or
    a missing accused.hexlan is reported (and only it) and exits 1; a plain run writes it back.
    The build is the module's (the same code's output), so the games are not played again."""
    monkeypatch.setattr(generator, "build", lambda: generated)
    out = tmp_path / VECTORS.name
    names = (generator.GAME_LOG, generator.ACCUSED_LOG, generator.ACTION_SCHEMA)
    for name in (VECTORS.name, *names):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(VECTORS.parent / name, tmp_path / name)
    accused = tmp_path / generator.ACCUSED_LOG

    def check() -> tuple[int, dict[str, str]]:
        code = generator.main(["--check", "--out", str(out)])
        lines = capsys.readouterr().out.splitlines()
        return code, dict(line.rsplit(": ", 1) for line in lines)

    code, states = check()
    assert code == 0 and states[str(accused)] == "up to date"
    assert set(states) == {str(out), *(str(tmp_path / name) for name in names)}
    data = accused.read_bytes()
    accused.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    code, states = check()
    assert code == 1 and [p for p, state in states.items() if state == "DIFFERS"] == [str(accused)]
    accused.unlink()
    assert check() == (1, states)
    assert generator.main(["--out", str(out)]) == 0
    assert f"wrote {accused} ({len(data)} bytes)" in capsys.readouterr().out.splitlines()
    assert accused.read_bytes() == data and check()[0] == 0


def test_verify_passes_the_whole_vector_game_and_its_audit(vectors: dict[str, Any]) -> None:
    """The complete signed log of the vector game: `hexlan verify` replays every message as a
    third party, runs the end-of-game audit from the secrets the log holds, and finds the
    transcript's digest that every seat signed."""
    from hexlan.net.verify import verify_logs

    whole = vectors["whole_game"]
    path = VECTORS.parent / whole["log"]
    assert h(path.read_bytes()).hex() == whole["log_sha256"]
    report = verify_logs([path])
    (log,) = report.logs
    assert report.exit_code == whole["expected"]["verify_exit_code"] == 0
    assert log.status == whole["expected"]["status"] and log.audit == "passed"
    assert log.winner == whole["expected"]["winner"] == vectors["audit"]["winner"]
    assert log.messages == whole["messages"]


def test_verify_names_the_liar_of_the_accused_vector_game(vectors: dict[str, Any]) -> None:
    """The accused vector game (§11.1): seat 1 acknowledges a false state hash, both seats
    accuse that one message, publish their secrets and sign their audit results; `hexlan
    verify` (its command's code, with ``--json``), from the messages alone, exits
    ``EXIT_INVALID`` and its first violation names seat 1 at the contested message with the
    verdict every seat reached."""
    from hexlan.net.verify import EXIT_INVALID
    from hexlan.net.verify import main as verify

    accused = vectors["accused_game"]
    path = VECTORS.parent / accused["log"]
    assert h(path.read_bytes()).hex() == accused["log_sha256"]
    assert accused["log_sha256"] in SPEC.read_text(encoding="utf-8")  # §15 quotes it
    expected = accused["expected"]
    out = io.StringIO()
    assert verify([path], as_json=True, out=out) == expected["verify_exit_code"] == EXIT_INVALID
    (log,) = json.loads(out.getvalue())["logs"]
    assert log["status"] == expected["status"] == "invalid"
    assert not log["finished"] and log["winner"] is None
    assert log["messages"] == accused["messages"]
    first = log["violations"][0]
    assert first["author"] == expected["named"] == 1
    assert first["reason"] == expected["verdict"]
    assert (
        expected["verdict"] == "accused: seat 1 acknowledged a public state the game never reached"
    )
    contested = accused["contested"]
    assert (first["message_id"], first["kind"]) == (contested["id"], contested["kind"])
    assert (first["author"], first["seq"]) == (contested["author"], contested["seq"])


def test_the_accused_game_s_messages_are_the_log_s(vectors: dict[str, Any]) -> None:
    """Each message the accused_game section names is in the log as stated, read with msgpack
    alone (§2's body ``[version, game_id, author, seq, prev, heads, kind, payload]``): the
    contested message is seat 1's first ``turn_ack``, signed under its identity key; each seat
    accuses it once (its heads covering it, its reason as stated), then publishes its
    ``audit_secrets`` once and signs one ``audit_result``, the same for every seat: the digest
    of the deviations alone by §14's formula, the first naming seat 1 at the contested message
    with the verdict's words."""
    from hexlan.net.log import read_log

    accused = vectors["accused_game"]
    envelopes = read_log(VECTORS.parent / accused["log"]).messages
    bodies: dict[str, list[Any]] = {}
    for data in envelopes:
        body = envelope_body(data)
        bodies[h(b"hexlan/v1/id\0" + body).hex()] = msgpack.unpackb(body)
    assert len(bodies) == len(envelopes) == accused["messages"]

    def at(entry: dict[str, Any]) -> list[Any]:
        """The decoded body of the message ``entry`` names, after checking who signed it."""
        body: list[Any] = bodies[entry["id"]]
        assert (body[2], body[3], body[6]) == (entry["author"], entry["seq"], entry["kind"])
        return body

    contested = accused["contested"]
    assert x(contested["envelope"]) in envelopes
    assert envelope_body(x(contested["envelope"])) == x(contested["body"])
    key = Ed25519PublicKey.from_public_bytes(x(vectors["seats"][1]["identity_public"]))
    key.verify(x(contested["signature"]), b"hexlan/v1/message\0" + x(contested["body"]))
    acks = [i for i, body in bodies.items() if (body[2], body[6]) == (1, "turn_ack")]
    assert acks[0] == contested["id"] and at(contested)[6] == "turn_ack"
    accusations = accused["accusations"]
    assert sorted(a["author"] for a in accusations) == [0, 1]
    for accusation in accusations:
        signed = at(accusation)
        assert accusation["contested_id"] == contested["id"]
        assert signed[7] == [x(contested["id"]), accusation["reason"]]
        assert 1 <= len(accusation["reason"]) <= 500
        assert signed[5][contested["author"]][0] >= contested["seq"]  # its heads cover it
    audit = accused["audit"]
    deviations = [[d["seat"], x(d["message_id"]), d["reason"]] for d in audit["deviations"]]
    assert deviations[0][:2] == [1, x(contested["id"])]
    assert "accused: " + deviations[0][2] == accused["expected"]["verdict"]
    findings = b"".join(h(msgpack.packb(d[:2])) for d in deviations)
    assert h(b"hexlan/v1/audit\0" + findings).hex() == audit["digest"]
    for kind in ("secrets", "result"):
        assert [m["author"] for m in audit[f"{kind}_messages"]] == [0, 1]
        assert sorted(b[2] for b in bodies.values() if b[6] == f"audit_{kind}") == [0, 1]
    for accusation, secrets in zip(
        sorted(accusations, key=lambda a: a["author"]), audit["secrets_messages"], strict=True
    ):
        assert at(secrets)[3] > accusation["seq"]  # the secrets answer the accusation
    for result in audit["result_messages"]:
        assert at(result)[7] == [x(audit["digest"]), deviations]


def envelope_body(data: bytes) -> bytes:
    """An envelope's body bytes, by §2's framing with msgpack alone: ``[body, signature]``."""
    body, _ = msgpack.unpackb(data)
    assert isinstance(body, bytes)
    return body


def test_the_audit_digest_follows_from_the_transcript(vectors: dict[str, Any]) -> None:
    """The digest over the transcript, by §14's formula with hashlib alone."""
    audit = vectors["audit"]
    items = b"".join(h(x(t)) for t in audit["transcript"])
    assert h(b"hexlan/v1/audit\0" + items).hex() == audit["digest"]
    names = {
        a["name"]
        for a in json.loads((VECTORS.parent / "action-schema.json").read_text())["actions"]
    }
    for item in audit["transcript"]:  # every item is an action the schema names
        assert msgpack.unpackb(x(item))[0] in names


def test_the_spec_quotes_the_file(vectors: dict[str, Any]) -> None:
    spec = SPEC.read_text(encoding="utf-8")
    assert "# hexlan wire protocol, version 4" in spec
    quoted = [
        vectors["opening"]["game_id"],
        vectors["first_messages"][0]["id"],
        vectors["beacon"][0]["output"],
        vectors["beacon"][2]["output"],
        vectors["seats"][0]["deck_key_share"],
        vectors["seats"][0]["deck_key_proof"],
        vectors["draw"]["card_point"],
        vectors["show"]["context"],
        vectors["show"]["proof"][0],
        vectors["audit"]["digest"],
        vectors["accused_game"]["contested"]["id"],
        vectors["accused_game"]["audit"]["digest"],
    ]
    for value in quoted:
        assert value in spec, f"PROTOCOL.md's test vectors lack {value}"
    words = " ".join(spec.split())  # the words §15 quotes, across its line breaks
    accused = vectors["accused_game"]
    (seat_0s,) = (a for a in accused["accusations"] if a["author"] == 0)
    for said in (
        seat_0s["reason"],
        accused["audit"]["deviations"][0]["reason"],
        accused["expected"]["verdict"],
    ):
        assert f'"{said}"' in words, f"PROTOCOL.md's accused game lacks {said!r}"
    assert f"table ({accused['messages']} messages)" in words


# ---------------------------------------------------------------------------- primitives, by hand


class ByteStream:
    """A byte stream of blocks ``block(0) || block(1) || ...``, consumed in order (§6, §13)."""

    def __init__(self, block: Any) -> None:
        self._block = block
        self._next = 0
        self._buffer = b""

    def take(self, size: int) -> bytes:
        while len(self._buffer) < size:
            self._buffer += self._block(self._next)
            self._next += 1
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken

    def randbelow(self, k: int) -> int:
        limit = k * (2**32 // k)
        while True:
            v = int.from_bytes(self.take(4), "big")
            if v < limit:
                return v % k

    def scalar(self) -> bytes:
        while True:
            k = int.from_bytes(self.take(64), "little") % L
            if k:
                return k.to_bytes(32, "little")


def beacon_stream(output: bytes) -> ByteStream:
    return ByteStream(lambda i: h(output + u64(i)))


def scalar_stream(seed: bytes, label: bytes) -> ByteStream:
    prefix = b"hexlan/v1/stream\0" + seed + len(label).to_bytes(4, "big") + label
    return ByteStream(lambda i: hashlib.sha512(prefix + u64(i)).digest())


def fisher_yates(stream: ByteStream, n: int) -> list[int]:
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def hkdf(ikm: bytes, length: int, info: bytes, salt: bytes | None = None) -> bytes:
    return HKDF(algorithm=SHA256(), length=length, salt=salt, info=info).derive(ikm)


def hash_to_scalar(domain: bytes, *parts: bytes) -> bytes:
    data = domain + b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return (int.from_bytes(hashlib.sha512(data).digest(), "little") % L).to_bytes(32, "little")


def canonical_scalar(s: bytes) -> bool:
    return len(s) == 32 and 0 < int.from_bytes(s, "little") < L


def point(data: bytes) -> bytes:
    assert len(data) == 32 and nb.crypto_core_ed25519_is_valid_point(data), "not a group point"
    return data


def base(k: bytes) -> bytes:
    return nb.crypto_scalarmult_ed25519_base_noclamp(k)


def mul(k: bytes, p: bytes) -> bytes:
    return nb.crypto_scalarmult_ed25519_noclamp(k, p)


def add(p: bytes, q: bytes) -> bytes:
    return nb.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return nb.crypto_core_ed25519_sub(p, q)


def cards(packed: bytes) -> list[tuple[bytes, bytes]]:
    assert len(packed) % 64 == 0
    return [(packed[i : i + 32], packed[i + 32 : i + 64]) for i in range(0, len(packed), 64)]


def card_point(label: str, index: int) -> bytes:
    data = b"hexlan/v1/card-point\0" + label.encode() + b"\0" + index.to_bytes(4, "big")
    return nb.crypto_core_ed25519_from_uniform(h(data))


# ---------------------------------------------------------------------------- identity, messages


def test_keys_fingerprints_and_game_id(vectors: dict[str, Any]) -> None:
    seats = vectors["seats"]
    for seat in seats:
        public, _ = nb.crypto_sign_seed_keypair(x(seat["identity_private"]))
        assert public.hex() == seat["identity_public"]
        digest = hashlib.sha256(public).hexdigest()[:16]
        assert seat["fingerprint"] == "-".join(digest[i : i + 4] for i in range(0, 16, 4))
        assert nb.crypto_scalarmult_base(x(seat["x25519_private"])).hex() == seat["x25519_public"]
    opening = vectors["opening"]
    payload = x(opening["payload"])
    assert h(b"hexlan/v1/game\0" + payload).hex() == opening["game_id"]
    version, engine, entries, options, board_kind, created = msgpack.unpackb(payload)
    assert (version, engine, board_kind, created) == (
        vectors["protocol_version"],
        opening["engine_version"],
        opening["board_kind"],
        0,
    )
    assert options == opening["options"] == sorted(options)
    for seat, (name, key, x25519, commitment, host, port) in zip(seats, entries, strict=True):
        assert (name, host, port) == (seat["name"], "", 0)
        assert (key.hex(), x25519.hex()) == (seat["identity_public"], seat["x25519_public"])
        assert commitment.hex() == seat["chain_commitment"]


def test_first_messages_ids_signatures_and_chains(vectors: dict[str, Any]) -> None:
    game_id = x(vectors["opening"]["game_id"])
    keys = [Ed25519PublicKey.from_public_bytes(x(s["identity_public"])) for s in vectors["seats"]]
    last: dict[int, bytes] = {}
    for message in vectors["first_messages"]:
        body, signature = x(message["body"]), x(message["signature"])
        assert h(b"hexlan/v1/id\0" + body).hex() == message["id"]
        keys[message["author"]].verify(signature, b"hexlan/v1/message\0" + body)
        assert msgpack.packb([body, signature], use_bin_type=True).hex() == message["envelope"]
        fields = msgpack.unpackb(body)
        version, gid, author, seq, prev, heads, kind, payload = fields
        assert (version, gid, author, seq, kind) == (
            vectors["protocol_version"],
            game_id,
            message["author"],
            message["seq"],
            message["kind"],
        )
        assert prev == last.get(author, bytes(32))
        if seq:
            assert heads[author] == [seq - 1, last[author]]
        else:
            assert heads[author] == [-1, bytes(32)]
        if kind == "sign_opening":
            assert (
                msgpack.packb(payload[0], use_bin_type=True).hex() == vectors["opening"]["payload"]
            )
        last[author] = x(message["id"])


# ---------------------------------------------------------------------------- the beacon


def test_chains_beacon_outputs_and_outcomes(vectors: dict[str, Any]) -> None:
    game_id = x(vectors["opening"]["game_id"])
    for seat in vectors["seats"]:
        value = h(b"hexlan/v1/chain-top\0" + x(seat["chain_secret"]))  # x[L], from the seed
        for _ in range(vectors["constants"]["chain_length"]):
            value = h(b"hexlan/v1/chain\0" + value)
        assert value.hex() == seat["chain_commitment"]
    for event in vectors["beacon"]:
        preimages = [x(p) for p in event["preimages"]]
        for preimage, previous in zip(preimages, event["previous"], strict=True):
            assert h(b"hexlan/v1/chain\0" + preimage).hex() == previous
        n, trigger = event["event"], x(event["trigger"]["id"])
        output = h(b"hexlan/v1/beacon\0" + game_id + u64(n) + trigger + b"".join(preimages))
        assert output.hex() == event["output"]
        stream = beacon_stream(output)
        outcome = event["outcome"]
        if event["purpose"] == "start":
            assert stream.randbelow(len(preimages)) == outcome["start_player"]
        elif event["purpose"] == "dice":
            assert [stream.randbelow(6) + 1, stream.randbelow(6) + 1] == outcome["dice"]
        else:  # the challenge event: its output ends every shuffle proof's context
            label = vectors["development_deck"]["label"].encode()
            contexts = vectors["development_deck"]["proof_contexts"]
            for seat, context in enumerate(contexts):
                assert context == (game_id + label + b"\0" + bytes([seat]) + output).hex()
            assert outcome["proof_context_seat_0"] == contexts[0]
    assert [e["purpose"] for e in vectors["beacon"]] == ["start", "challenge", "dice"]


# ---------------------------------------------------------------------------- the deck


def test_deck_secrets_and_key_proofs(vectors: dict[str, Any]) -> None:
    game_id = x(vectors["opening"]["game_id"])
    joint = None
    for seat in vectors["seats"]:
        seed = x(seat["chain_secret"])
        secret = int.from_bytes(hkdf(seed, 64, b"hexlan/v1/deck-key\0"), "little") % L
        assert secret.to_bytes(32, "little").hex() == seat["deck_secret"]
        share = point(x(seat["deck_key_share"]))
        assert base(secret.to_bytes(32, "little")) == share
        context = game_id + bytes([seat["seat"]])
        assert context.hex() == seat["deck_key_context"]
        proof = x(seat["deck_key_proof"])
        c, z = proof[:32], proof[32:]
        assert canonical_scalar(c) and canonical_scalar(z)
        r = sub(base(z), mul(c, share))
        assert hash_to_scalar(b"hexlan/v1/key-proof\0", context, share, r) == c
        assert hash_to_scalar(b"hexlan/v1/key-proof\0", context + b"x", share, r) != c
        shuffle_seed = hkdf(seed, 32, b"hexlan/v1/shuffle\0" + b"development")
        assert shuffle_seed.hex() == seat["shuffle_seed"]
        joint = share if joint is None else add(joint, share)
    assert joint is not None and joint.hex() == vectors["development_deck"]["joint_key"]


def test_card_points_faces_and_initial_deck(vectors: dict[str, Any]) -> None:
    deck = vectors["development_deck"]
    counts = tomllib.loads((ROOT / "seeds" / "base.toml").read_text())["development_deck"]
    order = ["knight", "victory_point", "road_building", "year_of_plenty", "monopoly"]
    assert deck["faces"] == [face for face, name in enumerate(order) for _ in range(counts[name])]
    joint = x(deck["joint_key"])
    initial = cards(x(deck["initial"]))
    assert len(initial) == len(deck["faces"]) == len(deck["card_points"])
    for i, (a, b) in enumerate(initial):
        m = point(card_point(deck["label"], i))
        assert m.hex() == deck["card_points"][i]
        assert a == G == base((1).to_bytes(32, "little"))
        assert b == add(m, joint)


def test_first_draw_shares_proofs_and_card(vectors: dict[str, Any]) -> None:
    game_id = x(vectors["opening"]["game_id"])
    deck, draw = vectors["development_deck"], vectors["draw"]
    position, label = draw["position"], deck["label"]
    final = cards(x(deck["shuffles"][-1]["output"]))
    a, b = final[position]
    assert (a + b).hex() == draw["ciphertext"]
    m = point(b)
    for entry in draw["shares"]:
        seat = entry["seat"]
        public = x(vectors["seats"][seat]["deck_key_share"])
        share, proof = point(x(entry["share"])), x(entry["proof"])
        context = game_id + label.encode() + bytes([seat]) + position.to_bytes(2, "big")
        assert context.hex() == entry["context"]
        c, z = proof[:32], proof[32:]
        assert canonical_scalar(c) and canonical_scalar(z)
        r1 = sub(base(z), mul(c, public))
        r2 = sub(mul(z, point(a)), mul(c, share))
        domain = b"hexlan/v1/dleq\0"
        assert hash_to_scalar(domain, context, public, a, share, r1, r2) == c
        if seat == draw["owner"]:  # its own share is never published (§13.8)
            assert entry["message"] is None
        else:
            message = msgpack.unpackb(x(entry["message"]["body"]))
            assert message[6] == "draw_share" and message[7] == [label, position, share, proof]
        m = sub(m, share)
    assert m.hex() == draw["card_point"] == deck["card_points"][draw["card_index"]]
    assert deck["faces"][draw["card_index"]] == draw["face"]


def check_show(
    vectors: dict[str, Any], label: str, final: list[tuple[bytes, bytes]], show: dict[str, Any]
) -> tuple[list[int], list[bytes]]:
    """§13.8 by hand: the context, each listed position's statement from the final deck
    ``final``, the others' shares and the card's point, and the disjunctive DLEQ proof's one
    equation under the seat's deck key share. The listed positions and the proof entries."""
    game_id = x(vectors["opening"]["game_id"])
    seat, index = show["seat"], show["card_index"]
    public = x(vectors["seats"][seat]["deck_key_share"])
    m_i = card_point(label, index)
    positions = [entry["position"] for entry in show["positions"]]
    assert positions == sorted(set(positions)) and positions
    context = (
        game_id
        + label.encode()
        + b"\0"
        + bytes([seat])
        + index.to_bytes(2, "big")
        + b"".join(p.to_bytes(2, "big") for p in positions)
    )
    assert context.hex() == show["context"]
    statements = []
    for entry in show["positions"]:
        a, b = final[entry["position"]]
        assert (a + b).hex() == entry["ciphertext"]
        target = point(b)
        for share in entry["other_shares"]:
            target = sub(target, point(x(share)))
        target = sub(target, m_i)
        assert (a.hex(), target.hex()) == (entry["A"], entry["T"])
        statements.append((point(a), target))
    proof = [x(entry) for entry in show["proof"]]
    assert len(proof) == len(statements)
    total, commitments = 0, []
    for (a, t), entry in zip(statements, proof, strict=True):
        c, z = entry[:32], entry[32:]
        assert canonical_scalar(c) and canonical_scalar(z)
        commitments += [sub(base(z), mul(c, public)), sub(mul(z, a), mul(c, t))]
        total += int.from_bytes(c, "little")
    flat = [p for statement in statements for p in statement]
    challenge = hash_to_scalar(b"hexlan/v1/show\0", context, public, *flat, *commitments)
    assert int.from_bytes(challenge, "little") == total % L
    return positions, proof


def test_a_card_shown_among_positions_with_its_or_proof(vectors: dict[str, Any]) -> None:
    """§13.8 in the vector game (:func:`check_show`); the message carries no position of the
    card beyond the listed ones."""
    deck, show = vectors["development_deck"], vectors["show"]
    label, seat, index = deck["label"], show["seat"], show["card_index"]
    assert card_point(label, index).hex() == deck["card_points"][index]
    final = cards(x(deck["shuffles"][-1]["output"]))
    positions, proof = check_show(vectors, label, final, show)
    assert all(deck["owners"][p] == seat for p in positions)
    message = msgpack.unpackb(x(show["message"]["body"]))
    assert message[6] == "card_reveal" and message[7] == [label, index, positions, proof]
    assert deck["faces"][index] == show["face"]


def test_a_card_shown_among_three_positions(vectors: dict[str, Any]) -> None:
    """§13.8 among three positions, on the 3-card vector deck (its final order from the small
    shuffle's seeds): every card dealt to seat 1, seat 0's shares of them ``A·x_0`` from its
    deck secret, seat 1's card at position 1 opened with its own secret, and the show of it
    among all three (:func:`check_show`)."""
    small, show = vectors["shuffle_vector"], vectors["show_vector"]
    label, seat, index = show["label"], show["seat"], show["card_index"]
    assert label == small["label"] and seat == 1
    final = cards(x(small["seats"][-1]["output"]))
    seats = vectors["seats"]
    x_other, x_seat = x(seats[0]["deck_secret"]), x(seats[seat]["deck_secret"])
    for entry, (a, _) in zip(show["positions"], final, strict=True):
        assert entry["other_shares"] == [mul(x_other, a).hex()]
    m_i = card_point(label, index)
    assert m_i.hex() == small["card_points"][index]
    a, b = final[1]
    assert sub(sub(point(b), mul(x_other, a)), mul(x_seat, a)) == m_i
    positions, _ = check_show(vectors, label, final, show)
    assert positions == [0, 1, 2]
    assert small["faces"][index] == show["face"]


def hash_to_point(domain: bytes, data: bytes) -> bytes:
    return nb.crypto_core_ed25519_from_uniform(h(domain + data))


def total(points: list[bytes]) -> bytes:
    result = points[0]
    for p in points[1:]:
        result = add(result, p)
    return result


def scalars_of(data: bytes) -> list[bytes]:
    return [data[i : i + 32] for i in range(0, len(data), 32)]


def check_shuffle_proof(
    deck_in: list[tuple[bytes, bytes]],
    deck_out: list[tuple[bytes, bytes]],
    proof: dict[str, str],
    joint: bytes,
    context: bytes,
) -> None:
    """§13.6's verification, written again from the spec with bare libsodium calls."""
    n = len(deck_in)
    domain = b"hexlan/v1/shuffle-generator\0"
    gen_h = hash_to_point(domain, b"chain")
    gens = [hash_to_point(domain, j.to_bytes(4, "big")) for j in range(n)]
    permutation = [point(c) for c in scalars_of(x(proof["permutation"]))]
    chain = [point(c) for c in scalars_of(x(proof["chain"]))]
    c = x(proof["challenge"])
    responses = scalars_of(x(proof["responses"]))
    assert len(permutation) == len(chain) == n and len(responses) == 2 * n + 4
    assert all(canonical_scalar(k) for k in (c, *responses))
    s1, s2, s3, s4 = responses[:4]
    s_hat, s_out = responses[4 : 4 + n], responses[4 + n :]
    packed_in = b"".join(a + b for a, b in deck_in)
    packed_out = b"".join(a + b for a, b in deck_out)
    digest = hash_to_scalar(
        b"hexlan/v1/shuffle-statement\0",
        context,
        joint,
        packed_in,
        packed_out,
        x(proof["permutation"]),
    )
    u = [hash_to_scalar(b"hexlan/v1/shuffle-u\0", digest, i.to_bytes(4, "big")) for i in range(n)]
    u_product = 1
    for k in u:
        u_product = u_product * int.from_bytes(k, "little") % L
    c_bar = sub(total(permutation), total(gens))
    c_hat = sub(chain[-1], mul(u_product.to_bytes(32, "little"), gen_h))
    c_tilde = total([mul(k, p) for k, p in zip(u, permutation, strict=True)])
    e_a = total([mul(k, a) for k, (a, _) in zip(u, deck_in, strict=True)])
    e_b = total([mul(k, b) for k, (_, b) in zip(u, deck_in, strict=True)])
    t1 = sub(base(s1), mul(c, c_bar))
    t2 = sub(base(s2), mul(c, c_hat))
    t3 = sub(
        add(base(s3), total([mul(k, p) for k, p in zip(s_out, gens, strict=True)])), mul(c, c_tilde)
    )
    out_a = total([mul(k, a) for k, (a, _) in zip(s_out, deck_out, strict=True)])
    out_b = total([mul(k, b) for k, (_, b) in zip(s_out, deck_out, strict=True)])
    t4_a = sub(sub(out_a, base(s4)), mul(c, e_a))
    t4_b = sub(sub(out_b, mul(s4, joint)), mul(c, e_b))
    previous = [gen_h, *chain[:-1]]
    t_hat = [
        sub(add(base(s_hat[j]), mul(s_out[j], previous[j])), mul(c, chain[j])) for j in range(n)
    ]
    again = hash_to_scalar(
        b"hexlan/v1/shuffle-challenge\0",
        digest,
        x(proof["chain"]),
        t1,
        t2,
        t3,
        t4_a,
        t4_b,
        b"".join(t_hat),
    )
    assert again == c


def test_small_shuffle_from_its_seeds_and_its_proof(vectors: dict[str, Any]) -> None:
    vector = vectors["shuffle_vector"]
    label = vector["label"]
    joint = point(x(vector["joint_key"]))
    n = len(vector["faces"])
    initial = x(vector["initial"])
    assert initial == b"".join(G + add(card_point(label, i), joint) for i in range(n))
    domain = b"hexlan/v1/shuffle-generator\0"
    gens = [hash_to_point(domain, b"chain")]
    gens += [hash_to_point(domain, j.to_bytes(4, "big")) for j in range(n)]
    assert [p.hex() for p in gens] == vector["generators"]
    beacon = h(vector["beacon_output_preimage"].encode())
    assert beacon.hex() == vector["beacon_output"]
    game_id = x(vector["game_id"])
    deck_in = initial
    for seat in vector["seats"]:
        assert x(seat["input"]) == deck_in
        seed = hkdf(
            x(vectors["seats"][seat["seat"]]["chain_secret"]),
            32,
            b"hexlan/v1/shuffle\0" + label.encode(),
        )
        assert seed.hex() == seat["shuffle_seed"]
        scalars = scalar_stream(seed, label.encode())
        perm = fisher_yates(scalars, n)
        rands = [scalars.scalar() for _ in range(n)]
        commit_rands = [scalars.scalar() for _ in range(n)]
        chain_rands = [scalars.scalar() for _ in range(n)]
        assert perm == seat["permutation"] and [r.hex() for r in rands] == seat["rands"]
        assert [r.hex() for r in commit_rands] == seat["commit_rands"]
        assert [r.hex() for r in chain_rands] == seat["chain_rands"]
        source, output = cards(deck_in), cards(x(seat["output"]))
        for j in range(n):
            a, b = source[perm[j]]
            assert output[j] == (add(a, base(rands[j])), add(b, mul(rands[j], joint)))
        # c_i = G·ρ_i + h_{perm⁻¹[i]}
        permutation = scalars_of(x(seat["proof"]["permutation"]))
        for j, i in enumerate(perm):
            assert permutation[i] == add(base(commit_rands[i]), gens[1 + j])
        context = game_id + label.encode() + b"\0" + bytes([seat["seat"]]) + beacon
        assert seat["context"] == context.hex()
        check_shuffle_proof(source, output, seat["proof"], joint, context)
        deck_in = x(seat["output"])
    secret_sum = 0
    for seat in vectors["seats"]:
        secret_sum = (secret_sum + int.from_bytes(x(seat["deck_secret"]), "little")) % L
    for position, (a, b) in enumerate(cards(deck_in)):
        m = sub(b, mul(secret_sum.to_bytes(32, "little"), a))
        assert m == card_point(label, vector["final_order"][position])


def test_the_game_shuffle_proofs_verify_from_the_spec(vectors: dict[str, Any]) -> None:
    """Each seat's development-deck proof in the vector game's messages, checked by hand."""
    deck = vectors["development_deck"]
    joint = point(x(deck["joint_key"]))
    deck_in = cards(x(deck["initial"]))
    for seat, shuffle in enumerate(deck["shuffles"]):
        assert shuffle["proof_message"]["kind"] == "shuffle_proof"
        output = cards(x(shuffle["output"]))
        context = x(deck["proof_contexts"][seat])
        check_shuffle_proof(deck_in, output, shuffle["proof"], joint, context)
        deck_in = output


# ---------------------------------------------------------------------------- steal, audit


def test_steal_secrets_commitments_and_opening(vectors: dict[str, Any]) -> None:
    game_id = x(vectors["opening"]["game_id"])
    steal = vectors["steal"]
    victim, thief = vectors["seats"][steal["victim"]], vectors["seats"][steal["thief"]]
    k, event = steal["cards"], steal["event"]
    info = b"hexlan/v1/steal-secrets\0" + u64(event)
    okm = hkdf(x(victim["chain_secret"]), 20 * k + 12, info)
    assert okm.hex() == steal["hkdf_output"]
    salts = [okm[16 * j : 16 * j + 16] for j in range(k)]
    keys = [okm[16 * k + 4 * j : 16 * k + 4 * j + 4] for j in range(k)]
    assert [s.hex() for s in salts] == steal["salts"]
    assert sorted(range(k), key=lambda j: keys[j]) == steal["order"]
    assert okm[20 * k :].hex() == steal["nonce"]
    for salt, resource, commitment in zip(
        salts, steal["resources"], steal["commitments"], strict=True
    ):
        c = h(b"hexlan/v1/card\0" + game_id + u64(event) + salt + bytes([resource]))
        assert c.hex() == commitment
    shared = nb.crypto_scalarmult(x(thief["x25519_private"]), x(victim["x25519_public"]))
    key = hkdf(shared, 32, b"hexlan/v1/steal\0" + u64(event), salt=game_id)
    assert key.hex() == steal["aead_key"]
    aad = game_id + u64(event) + bytes([steal["index"]])
    plaintext = nb.crypto_aead_chacha20poly1305_ietf_decrypt(
        x(steal["ciphertext"]), aad, x(steal["nonce"]), key
    )
    index = steal["index"]
    assert plaintext == salts[index] + bytes([steal["resources"][index]])
    assert plaintext[16] == steal["stolen"]


def _items(transcript: list[str]) -> Iterator[list[Any]]:
    for item in transcript:
        yield msgpack.unpackb(x(item))


def test_audit_digest_from_the_transcript(vectors: dict[str, Any]) -> None:
    audit = vectors["audit"]
    digest = hashlib.sha256(b"hexlan/v1/audit\0")
    for item in audit["transcript"]:
        digest.update(h(x(item)))
    assert audit["deviations"] == []
    assert digest.hexdigest() == audit["digest"]
    actions = list(_items(audit["transcript"]))
    assert actions[0] == ["StartPlayer", vectors["beacon"][0]["outcome"]["start_player"]]
    draws = [a for a in actions if a[0] == "DrawCard"]
    assert [a[1] for a in draws] == audit["draws"]
    assert draws[vectors["draw"]["position"]][1] == vectors["draw"]["face"]
    assert actions[-1][0] == "RevealVictory" and actions[-1][1] == audit["winner"]


def test_a_card_reencrypted_to_another_seat_with_its_proof(vectors: dict[str, Any]) -> None:
    """The Spy's re-encryption (§7.3) by hand: the holder's reduced ciphertext from the deck
    and the other seat's share, ``r`` from the holder's seed, ``A' = G·r``, the new holder opens
    the card, and the proof's three commitments and challenge."""
    v = vectors["reencryption"]
    game_id = x(vectors["opening"]["game_id"])
    holder, to, position = v["holder"], v["to"], v["position"]
    seats = vectors["seats"]
    x_holder, x_to = x(seats[holder]["deck_secret"]), x(seats[to]["deck_secret"])
    y_holder, y_to = base(x_holder), base(x_to)
    assert y_holder.hex() == seats[holder]["deck_key_share"]
    a, b = cards(x(v["ciphertext"]))[0]
    reduced = a + sub(b, mul(x_to, a))  # the other seat's share taken off
    assert reduced.hex() == v["reduced"]
    label = v["label"].encode()
    context = (
        game_id
        + label
        + b"\x02"
        + bytes([holder, to])
        + position.to_bytes(2, "big")
        + (0).to_bytes(2, "big")
        + u64(v["spy"])
    )
    assert context.hex() == v["context"]
    info = b"hexlan/v1/reencrypt-r\0" + context
    r = (int.from_bytes(hkdf(x(seats[holder]["chain_secret"]), 64, info), "little") % L).to_bytes(
        32, "little"
    )
    assert r.hex() == v["r"]
    moved = x(v["moved"])
    a2, b2 = point(moved[:32]), point(moved[32:])
    assert a2 == base(r)
    assert (
        sub(b2, mul(x_to, a2)).hex()
        == v["card_point"]
        == card_point(v["label"], v["card_index"]).hex()
    )
    assert sub(b2, mul(x_holder, a2)).hex() != v["card_point"]  # the holder no longer opens it
    proof = x(v["proof"])
    c, z1, z2 = proof[:32], proof[32:64], proof[64:]
    assert all(canonical_scalar(s) for s in (c, z1, z2))
    a, b_star = reduced[:32], reduced[32:]
    r1 = sub(base(z1), mul(c, y_holder))
    r2 = sub(base(z2), mul(c, a2))
    r3 = add(sub(sub(mul(z2, y_to), mul(z1, a)), mul(c, b2)), mul(c, b_star))
    domain = b"hexlan/v1/reencrypt\0"
    assert hash_to_scalar(domain, context, y_holder, a, b_star, y_to, a2, b2, r1, r2, r3) == c
