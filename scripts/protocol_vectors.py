"""Generate docs/protocol-vectors.json: deterministic test vectors for docs/PROTOCOL.md.

Usage: python scripts/protocol_vectors.py [--out docs/protocol-vectors.json] [--check]

Beside the JSON it writes ``vectors/game.hexlan``, seat 0's complete signed log of the vector
game (``hexlan verify`` must pass it and its audit), ``vectors/accused.hexlan``, seat 0's log of
the same table where seat 1 acknowledges a false state hash, is accused and named by the audit
of the game so far (PROTOCOL.md §11.1: ``hexlan verify`` must name seat 1), and
``action-schema.json``, the machine-readable schema of every engine action.

Everything comes from hexlan's own functions fed fixed inputs, so the same code always writes
the same file (tests/test_protocol_vectors.py regenerates it in memory and compares, then
re-checks a few values with bare library primitives):

- a 2-seat table with the seeded seat keys of ``SeatKeys.seeded(0, seat)`` and the opening of
  ``make_opening(..., created=0)`` (default options, the beginner board), exactly what
  ``InProcessTable(("ana", "ben"), seed=0)`` builds;
- a whole game played on that table through the in-process transport by two heuristic bots
  (``make_bot("heuristic", random.Random(seat))``; seat 0 moves first whenever both may), from
  which come the first messages, the first beacon events, the development deck's key shares and
  shuffles and their proofs, the first draw, the first card shown among the most positions, the
  first steal and the end-of-game audit;
- a separate small deck for the shuffle proof: label "vector", 3 cards, the same two seats'
  seeds and key shares, the proofs' contexts ending in a stated challenge-event output; the
  same deck, unproven, for a card re-encrypted to another seat and for a show among three
  positions (the vector game has none among more than one).

Bytes are lowercase hex. The game id depends on the engine version (part of the opening), so a
new hexlan version regenerates the file; ``--check`` exits 1 when the file on disk differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.actions import (
    MAX_KINDS,
    Action,
    action_to_list,
)
from hexlan.engine.bots import make_bot
from hexlan.engine.core import (
    RESOURCES,
    Resource,
)
from hexlan.engine.options import GameOptions
from hexlan.net.audit import AuditReport, report_digest
from hexlan.net.beacon import CHAIN_LENGTH, BeaconStream, beacon_output
from hexlan.net.deck import (
    REENCRYPT_INFO,
    Deck,
    JointKey,
    derive_deck_secret,
    derive_reencryption_scalar,
    derive_shuffle_seed,
)
from hexlan.net.group import GROUP_ORDER, ScalarStream
from hexlan.net.inproc import InProcessTable, SeatKeys, make_opening
from hexlan.net.log import GameLog
from hexlan.net.redteam import Cheat
from hexlan.net.session import DEVELOPMENT_DECK, Session
from hexlan.net.shuffle import card_point, commitment_generators, pack_deck, sample_permutation
from hexlan.net.steal import STEAL_PREFIX, card_commitment, derive_steal_secrets, open_opening
from hexlan.net.verify import EXIT_INVALID
from hexlan.net.wire import BASE_GAME, Envelope, pack

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "protocol-vectors.json"
GAME_LOG = "vectors/game.hexlan"
"""Seat 0's complete signed log of the vector game, beside the JSON (a path relative to it)."""
ACCUSED_LOG = "vectors/accused.hexlan"
"""Seat 0's complete signed log of the accused vector game, beside the JSON."""
ACCUSED_KIND = "false-hash"
"""The accused game's deviation: seat 1's first turn acknowledgement has a false state hash."""
ACCUSED_SEAT = 1
ACTION_SCHEMA = "action-schema.json"
"""The machine-readable action schema, beside the JSON."""

SEED = 0
NAMES = ("ana", "ben")
FIRST_MESSAGES = 7
"""How many of the game's first messages (in seat 0's log order) to give whole."""
MAX_DECISIONS = 3000

VECTOR_LABEL = "vector"
VECTOR_FACES = (0, 1, 2)
VECTOR_BEACON_TEXT = b"hexlan protocol vectors: shuffle challenge beacon"
"""The stated beacon output of the small deck's challenges is SHA-256 of these bytes."""


def _hex(data: bytes) -> str:
    return data.hex()


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


# ---------------------------------------------------------------------------- the game


class _Game:
    """The seeded 2-seat game, played to its end and audited, with its beacon events recorded.

    The vectors use the defaults; tests/test_golden.py plays other seeded tables the same way
    (more seats, another board, other options, another game) to pin their logs' bytes. With ``cheat`` (a red
    team kind, :mod:`hexlan.net.redteam`), seat 1 deviates at its first opportunity and the
    game is played until every session has stopped (the accused vector game).
    """

    def __init__(
        self,
        names: tuple[str, ...] = NAMES,
        seed: int = SEED,
        options: GameOptions | None = None,
        board_kind: str = "beginner",
        cheat: str | None = None,
        game: str = BASE_GAME,
    ) -> None:
        self.names = names
        self.cheat = None if cheat is None else Cheat(cheat)
        self.keys = [SeatKeys.seeded(seed, seat) for seat in range(len(names))]
        self.opening = make_opening(names, self.keys, options, board_kind, created=0, game=game)
        self.table = InProcessTable(names, options, board_kind, seed=seed, game=game)
        if self.table.opening != self.opening:
            raise AssertionError(
                f"InProcessTable(seed={seed}) no longer builds make_opening(created=0)"
            )
        self.events: list[tuple[int, str, bytes]] = []
        self._record_events(self.table.sessions[0])
        if self.cheat is not None:
            self.cheat.install(self.table.sessions[ACCUSED_SEAT])
        self.table.start()
        self._play()
        self.sessions = self.table.sessions
        self.log = [Envelope.parse(data) for data in self.table.logs[0]]
        self.by_id = {env.id: env for env in self.log}

    def _record_events(self, session: Session) -> None:
        """Note every chance event seat 0 opens: ``(number, purpose, trigger id)``.

        This wraps the beacon sub-protocol's ``open_event`` (the only place the trigger of an
        event is known); the recorded events are then checked against the outcomes the game
        applied.
        """
        beacon = session.beacon
        opened = beacon.open_event

        def record(purpose: str, trigger_id: bytes, deck: str = "") -> None:
            self.events.append((beacon.next_event, purpose, trigger_id))
            opened(purpose, trigger_id, deck)

        beacon.open_event = record  # type: ignore[method-assign]

    def _play(self) -> None:
        bots = [make_bot("heuristic", random.Random(seat)) for seat in range(len(self.names))]
        for _ in range(MAX_DECISIONS):
            sessions = self.table.sessions
            if self.cheat is not None and all(s.stopped for s in sessions):
                return
            if self.cheat is None and any(s.stopped for s in sessions):
                raise AssertionError(f"the vector game stopped: {sessions[0].stopped}")
            if all(s.done for s in sessions):
                return
            due = [s.seat for s in sessions if not s.is_over and s.decision_due()]
            if not due:
                raise AssertionError(f"no seat may move; waiting on {sessions[0].waiting_on()}")
            seat = due[0]
            view = sessions[seat].view
            assert view is not None  # a seat whose decision is due has its view
            self.table.submit(seat, bots[seat].choose(view, seat))
        raise AssertionError(f"the vector game did not end in {MAX_DECISIONS} decisions")

    def messages(self, kind: str) -> list[Envelope]:
        """Every message of ``kind`` in seat 0's log, in log order."""
        return [env for env in self.log if env.body.kind == kind]

    def by_seat(self, kind: str) -> list[Envelope]:
        """Each seat's one message of ``kind``, in seat order (a key share, a shuffle, an audit
        step: what every seat owes once); an error when a seat signed none or more than one."""
        found: dict[int, list[Envelope]] = {}
        for env in self.messages(kind):
            found.setdefault(env.body.author, []).append(env)
        seats = range(len(self.names))
        if sorted(found) != list(seats) or any(len(envs) != 1 for envs in found.values()):
            counts = {seat: len(envs) for seat, envs in sorted(found.items())}
            raise AssertionError(f"not one {kind} per seat: {counts}")
        return [found[seat][0] for seat in seats]


def _message(env: Envelope, *, whole: bool = True) -> dict[str, Any]:
    body = env.body
    entry: dict[str, Any] = {
        "author": body.author,
        "seq": body.seq,
        "kind": body.kind,
        "id": _hex(env.id),
    }
    if whole:
        entry["body"] = _hex(env.body_bytes)
        entry["signature"] = _hex(env.signature)
        entry["envelope"] = _hex(env.to_bytes())
    return entry


def _seats(game: _Game) -> list[dict[str, Any]]:
    seats = []
    deck_keys = game.by_seat("deck_key")
    for seat, keys in enumerate(game.keys):
        session = game.sessions[seat]
        if session.chain.secret != keys.chain.secret:
            raise AssertionError("the table's seat keys are not SeatKeys.seeded")
        private = keys.identity.private_key.private_bytes(
            Encoding.Raw, PrivateFormat.Raw, NoEncryption()
        )
        secret = derive_deck_secret(keys.chain.secret)
        context = game.opening.game_id + bytes([seat])
        share, proof = deck_keys[seat].body.payload
        if (share, proof) != session.key.prove(seat, secret):
            raise AssertionError("the deck_key message is not the seat's own proof")
        seats.append(
            {
                "seat": seat,
                "name": NAMES[seat],
                "identity_private": _hex(private),
                "identity_public": _hex(keys.identity.public_bytes),
                "fingerprint": keys.identity.fingerprint,
                "chain_secret": _hex(keys.chain.secret),
                "chain_commitment": _hex(keys.chain.commitment),
                "x25519_private": _hex(keys.game_keys.private_bytes),
                "x25519_public": _hex(keys.game_keys.public_bytes),
                "deck_secret": _hex(secret),
                "deck_key_context": _hex(context),
                "deck_key_share": _hex(share),
                "deck_key_proof": _hex(proof),
                "deck_key_message": _message(deck_keys[seat], whole=False),
                "shuffle_seed": _hex(derive_shuffle_seed(keys.chain.secret, DEVELOPMENT_DECK)),
            }
        )
    return seats


def _opening(game: _Game) -> dict[str, Any]:
    opening = game.opening
    return {
        "protocol_version": opening.protocol_version,
        "engine_version": opening.engine_version,
        "board_kind": opening.board_kind,
        "created": opening.created,
        "options": [list(entry) for entry in opening.options],
        "payload": _hex(pack(opening.to_payload())),
        "game_id": _hex(opening.game_id),
    }


# ---------------------------------------------------------------------------- beacon


def _beacon(game: _Game) -> list[dict[str, Any]]:
    """The first three chance events: the start player, the challenge event, the first dice."""
    game_id, players = game.opening.game_id, len(NAMES)
    journal = game.sessions[0].journal
    first_dice = next(e.action for e in journal if isinstance(e.action, A.Dice))
    start = journal[0].action
    assert isinstance(start, A.StartPlayer)
    deck = game.sessions[0].dealer.deck
    events = []
    for number, purpose, trigger_id in game.events[:3]:
        chains = [keys.chain for keys in game.keys]
        preimages = [chain.preimage(number) for chain in chains]
        previous = [
            chain.commitment if number == 1 else chain.preimage(number - 1) for chain in chains
        ]
        reveals = [env for env in game.messages("reveal") if env.body.payload[0] == number]
        if sorted(env.body.payload[1] for env in reveals) != sorted(preimages):
            raise AssertionError(f"event {number}'s reveals are not the chains' preimages")
        output = beacon_output(game_id, number, trigger_id, preimages)
        stream = BeaconStream(output)
        outcome: dict[str, Any]
        if purpose == "start":
            outcome = {"start_player": stream.randbelow(players)}
            if outcome["start_player"] != start.seat:
                raise AssertionError("the start player is not the beacon's")
        elif purpose == "challenge":
            context = deck.proof_context(0)
            if context[-len(output) :] != output:
                raise AssertionError("the proofs' context does not end in the beacon's output")
            outcome = {"proof_context_seat_0": _hex(context)}
        elif purpose == "dice":
            first, second = stream.dice()
            if (first, second) != (first_dice.first, first_dice.second):
                raise AssertionError("the first dice are not the beacon's")
            outcome = {"dice": [first, second]}
        else:
            raise AssertionError(f"unexpected early event {purpose}")
        trigger = game.by_id[trigger_id]
        events.append(
            {
                "event": number,
                "purpose": purpose,
                "trigger": _message(trigger, whole=False),
                "previous": [_hex(x) for x in previous],
                "preimages": [_hex(x) for x in preimages],
                "reveal_messages": [_message(env, whole=False) for env in reveals],
                "output": _hex(output),
                "stream_block_0": _hex(hashlib.sha256(output + _u64(0)).digest()),
                "words_read": stream.words_read,
                "outcome": outcome,
            }
        )
    return events


# ---------------------------------------------------------------------------- the deck


def _development_deck(game: _Game) -> dict[str, Any]:
    deck = game.sessions[0].dealer.deck
    players = len(NAMES)
    shuffles, proofs = game.by_seat("shuffle"), game.by_seat("shuffle_proof")
    return {
        "label": deck.label,
        "faces": list(deck.faces),
        "card_points": [_hex(card_point(deck.label.encode(), i)) for i in range(deck.size)],
        "joint_key": _hex(deck.key.joint),
        "initial": _hex(pack_deck(deck.initial)),
        "shuffles": [
            {
                "seat": seat,
                "message": _message(shuffles[seat], whole=False),
                "proof_message": _message(proofs[seat], whole=False),
                "output": _hex(pack_deck(deck.shuffle_output(seat))),
                "proof": dict(
                    zip(
                        ("permutation", "chain", "challenge", "responses"),
                        map(_hex, proofs[seat].body.payload[1:]),
                        strict=True,
                    )
                ),
            }
            for seat in range(players)
        ],
        "proof_contexts": [_hex(deck.proof_context(seat)) for seat in range(players)],
        "dealt": deck.dealt,
        "owners": [deck.owner(p) for p in range(deck.dealt)],
    }


def _share_context(game_id: bytes, label: str, seat: int, position: int) -> bytes:
    return game_id + label.encode() + bytes([seat]) + position.to_bytes(2, "big")


def _draw(game: _Game) -> dict[str, Any]:
    """Position 0 of the development deck: its shares, proofs and card."""
    deck = game.sessions[0].dealer.deck
    position, owner = 0, deck.owner(0)
    buy = next(
        game.by_id[e.message_id]
        for e in game.sessions[0].journal
        if isinstance(e.action, A.BuyDevelopmentCard)
    )
    ct = deck.shuffle_output(len(NAMES) - 1)[position]
    secrets = [derive_deck_secret(k.chain.secret) for k in game.keys]
    shares = []
    for seat in range(len(NAMES)):
        if seat == owner:  # never published: the owner's own share, from its deck secret
            share, proof = deck.own_share(position, secrets[seat], seat)
            message = None
        else:
            found = [
                env
                for env in game.messages("draw_share")
                if env.body.author == seat and env.body.payload[1] == position
            ]
            if not found:
                raise AssertionError(f"no draw_share of position {position} by seat {seat}")
            _, _, share, proof = found[0].body.payload
            message = _message(found[0])
        shares.append(
            {
                "seat": seat,
                "context": _hex(_share_context(game.opening.game_id, deck.label, seat, position)),
                "share": _hex(share),
                "proof": _hex(proof),
                "message": message,
            }
        )
    index = deck.open_all(secrets)[position]
    if game.sessions[owner].dealer.own_cards[position] != deck.face(index):
        raise AssertionError("the owner's card is not the audit's")
    return {
        "position": position,
        "owner": owner,
        "buy_message": _message(buy, whole=False),
        "ciphertext": _hex(ct),
        "shares": shares,
        "card_index": index,
        "card_point": _hex(card_point(deck.label.encode(), index)),
        "face": deck.face(index),
        "face_name": R.dev_card(deck.face(index)).name,
    }


# ---------------------------------------------------------------------------- the steal


def _show(game: _Game) -> dict[str, Any]:
    """The game's first ``card_reveal`` among those listing the most positions: the card shown,
    the listed positions with their ciphertexts and the other seats' shares, the context, the
    statements and the proof."""
    deck = game.sessions[0].dealer.deck
    shows = game.messages("card_reveal")
    env = max(shows, key=lambda env: len(env.body.payload[2]))  # the first of the longest
    _, index, positions, proof = env.body.payload
    return {**_shown(deck, env.body.author, index, positions, proof), "message": _message(env)}


def _shown(
    deck: Deck, seat: int, index: int, positions: list[int], proof: list[bytes]
) -> dict[str, Any]:
    """A show (§13.8) by ``seat`` of card ``index`` among ``positions`` of ``deck``: each listed
    position's ciphertext, the other seats' shares and its statement, the context, the proof."""
    listed = []
    for position, (base, target) in zip(
        positions, deck.show_statements(seat, index, positions), strict=True
    ):
        shares = deck.shares(position)
        listed.append(
            {
                "position": position,
                "ciphertext": _hex(deck.shuffle_output(len(NAMES) - 1)[position]),
                "other_shares": [_hex(shares[s]) for s in sorted(shares) if s != seat],
                "A": _hex(base),
                "T": _hex(target),
            }
        )
    return {
        "seat": seat,
        "card_index": index,
        "face": deck.face(index),
        "positions": listed,
        "context": _hex(deck.show_context(seat, index, positions)),
        "proof": [_hex(entry) for entry in proof],
    }


def _steal(game: _Game) -> dict[str, Any]:
    """The first steal: the victim's derived order, salts and nonce, and the sealed opening."""
    entry = next(e for e in game.sessions[0].journal if e.steal is not None)
    steal = entry.steal
    assert steal is not None
    game_id, event, victim, thief = game.opening.game_id, steal.steal, steal.victim, steal.thief
    victim_keys, thief_keys = game.keys[victim], game.keys[thief]
    k = len(steal.commitments)
    info = b"hexlan/v1/steal-secrets\0" + _u64(event)
    okm = HKDF(algorithm=SHA256(), length=20 * k + 12, salt=None, info=info).derive(
        victim_keys.chain.secret
    )
    order, salts, nonce = derive_steal_secrets(victim_keys.chain.secret, event, k)
    resources = []
    for j, (salt, commitment) in enumerate(zip(salts, steal.commitments, strict=True)):
        match = [r for r in Resource if card_commitment(game_id, event, salt, r) == commitment]
        if len(match) != 1:
            raise AssertionError(f"commitment {j} opens to no single resource with its salt")
        resources.append(int(match[0]))
    if nonce != steal.nonce:
        raise AssertionError("the steal nonce is not the derived one")
    victim_private = X25519PrivateKey.from_private_bytes(victim_keys.game_keys.private_bytes)
    shared = victim_private.exchange(
        X25519PublicKey.from_public_bytes(thief_keys.game_keys.public_bytes)
    )
    key = HKDF(algorithm=SHA256(), length=32, salt=game_id, info=STEAL_PREFIX + _u64(event)).derive(
        shared
    )
    aad = game_id + _u64(event) + bytes([steal.index])
    plaintext = ChaCha20Poly1305(key).decrypt(steal.nonce, steal.ciphertext, aad)
    opened = open_opening(
        thief_keys.game_keys.private_key,
        victim_keys.game_keys.public_bytes,
        game_id,
        event,
        steal.index,
        steal.nonce,
        steal.ciphertext,
    )
    if plaintext != opened[0] + bytes([opened[1]]):
        raise AssertionError("the steal opening does not decrypt as documented")
    return {
        "event": event,
        "thief": thief,
        "victim": victim,
        "commit_message": _message(game.by_id[steal.commit_id], whole=False),
        "open_message": _message(game.by_id[steal.open_id], whole=False),
        "cards": k,
        "hkdf_info": _hex(info),
        "hkdf_output": _hex(okm),
        "salts": [_hex(s) for s in salts],
        "order": order,
        "resources": resources,
        "commitments": [_hex(c) for c in steal.commitments],
        "index": steal.index,
        "nonce": _hex(steal.nonce),
        "aead_key": _hex(key),
        "aad": _hex(aad),
        "ciphertext": _hex(steal.ciphertext),
        "plaintext": _hex(plaintext),
        "stolen": resources[steal.index],
    }


# ---------------------------------------------------------------------------- small shuffle


def _vector_shuffle(game: _Game) -> dict[str, Any]:
    """The proof of a shuffle on a 3-card deck, with everything a verifier needs."""
    game_id, players = game.opening.game_id, len(NAMES)
    seeds = [k.chain.secret for k in game.keys]
    key = JointKey(players, game_id)
    for seat, seed in enumerate(seeds):
        key.add(seat, *key.prove(seat, derive_deck_secret(seed)))
    deck = Deck(VECTOR_LABEL, VECTOR_FACES, key, game_id)
    seats: list[dict[str, Any]] = []
    kept = []
    for seat, seed in enumerate(seeds):
        deck_in = list(deck.current)
        commitment, secret = deck.shuffle(seed)
        stream_seed = derive_shuffle_seed(seed, VECTOR_LABEL)
        again = ScalarStream(stream_seed, VECTOR_LABEL.encode())
        if sample_permutation(again, deck.size) != secret.perm:
            raise AssertionError("the shuffle's permutation is not its stream's")
        deck.add_shuffle(seat, pack_deck(commitment.output))
        kept.append((commitment, secret))
        seats.append(
            {
                "seat": seat,
                "shuffle_seed": _hex(stream_seed),
                "input": _hex(pack_deck(deck_in)),
                "permutation": secret.perm,
                "rands": [_hex(r) for r in secret.rands],
                "commit_rands": [_hex(r) for r in secret.commit_rands],
                "chain_rands": [_hex(r) for r in secret.chain_rands],
                "output": _hex(pack_deck(commitment.output)),
            }
        )
    beacon = hashlib.sha256(VECTOR_BEACON_TEXT).digest()
    deck.set_challenges(beacon)
    for seat, (commitment, secret) in enumerate(kept):
        proof = deck.prove(seat, commitment, secret)
        deck.check_proof(seat, proof.pack())
        permutation, chain, challenge, responses = proof.pack()
        seats[seat]["context"] = _hex(deck.proof_context(seat))
        seats[seat]["proof"] = {
            "permutation": _hex(permutation),
            "chain": _hex(chain),
            "challenge": _hex(challenge),
            "responses": _hex(responses),
        }
    order = deck.open_all([derive_deck_secret(seed) for seed in seeds])
    h, generators = commitment_generators(deck.size)
    return {
        "label": VECTOR_LABEL,
        "faces": list(VECTOR_FACES),
        "game_id": _hex(game_id),
        "joint_key": _hex(key.joint),
        "card_points": [_hex(card_point(VECTOR_LABEL.encode(), i)) for i in range(deck.size)],
        "initial": _hex(pack_deck(deck.initial)),
        "generators": [_hex(p) for p in (h, *generators)],
        "beacon_output_preimage": VECTOR_BEACON_TEXT.decode(),
        "beacon_output": _hex(beacon),
        "seats": seats,
        "final_order": order,
    }


def _shuffled_vector_deck(game: _Game) -> tuple[Deck, list[bytes], list[bytes]]:
    """The 3-card vector deck shuffled by both seats (the shuffles of :func:`_vector_shuffle`,
    unproven): the deck, the seats' seeds and their deck secrets."""
    game_id, players = game.opening.game_id, len(NAMES)
    seeds = [k.chain.secret for k in game.keys]
    secrets = [derive_deck_secret(seed) for seed in seeds]
    key = JointKey(players, game_id)
    for seat in range(players):
        key.add(seat, *key.prove(seat, secrets[seat]))
    deck = Deck(VECTOR_LABEL, VECTOR_FACES, key, game_id)
    for seat, seed in enumerate(seeds):
        deck.add_shuffle(seat, pack_deck(deck.shuffle(seed)[0].output))
    return deck, seeds, secrets


def _reencryption(game: _Game) -> dict[str, Any]:
    """A card of the 3-card vector deck dealt to seat 1, re-encrypted to seat 0 with its proof
    (the Spy, PROTOCOL.md §7.3), as Spy number 1."""
    deck, seeds, secrets = _shuffled_vector_deck(game)
    holder, to, spy = 1, 0, (1).to_bytes(8, "big")
    position = deck.deal(holder)
    deck.add_share(position, to, *deck.own_share(position, secrets[to], to))
    reduced = deck.reduced(position)
    context = deck.transfer_context(holder, to, position, spy)
    r = derive_reencryption_scalar(seeds[holder], context)
    moved, proof = deck.reencrypt_to(position, secrets[holder], holder, to, r, spy)
    deck.accept_transfer(position, holder, to, moved, proof, spy)
    index = deck.open(position, secrets[to])
    return {
        "label": VECTOR_LABEL,
        "position": position,
        "holder": holder,
        "to": to,
        "spy": 1,
        "ciphertext": _hex(deck.current[position]),
        "reduced": _hex(reduced),
        "context": _hex(context),
        "r_info": _hex(REENCRYPT_INFO + context),
        "r": _hex(r),
        "moved": _hex(moved),
        "proof": _hex(proof),
        "card_index": index,
        "card_point": _hex(card_point(VECTOR_LABEL.encode(), index)),
    }


def _show_vector(game: _Game) -> dict[str, Any]:
    """A show (§13.8) among three positions: every card of the 3-card vector deck dealt to
    seat 1 (seat 0's shares given), seat 1 showing the card at position 1 among all three."""
    deck, _, secrets = _shuffled_vector_deck(game)
    seat, other = 1, 0
    for _ in range(deck.size):
        position = deck.deal(seat)
        deck.add_share(position, other, *deck.own_share(position, secrets[other], other))
    positions = list(range(deck.size))
    index = deck.open(1, secrets[seat])
    proof = deck.prove_show(index, positions, secrets[seat], seat)
    deck.show(seat, index, positions, proof)
    return {"label": VECTOR_LABEL, **_shown(deck, seat, index, positions, proof)}


# ---------------------------------------------------------------------------- the audit


def _resolved(entries: list[Action]) -> Action:
    """One journal entry as every seat saw it: the version with its hidden part known."""
    for action in entries:
        if isinstance(action, A.DrawCard) and action.card is None:
            continue
        if isinstance(action, A.StealCard) and action.resource is None:
            continue
        return action
    raise AssertionError(f"no seat knows the hidden part of {entries[0]}")


def _audit_messages(game: _Game, report: AuditReport) -> dict[str, Any]:
    """Every seat's ``audit_secrets`` and ``audit_result`` (§14), once each, after checking that
    every seat signed ``report``'s result: its digest and its deviations in their wire form."""
    signed = (report.digest, tuple(d.to_payload() for d in report.deviations))
    results = game.by_seat("audit_result")
    if any(env.body.payload != signed for env in results):
        raise AssertionError("a seat signed another audit result")
    return {
        "secrets_messages": [_message(env, whole=False) for env in game.by_seat("audit_secrets")],
        "result_messages": [_message(env, whole=False) for env in results],
    }


def _audit(game: _Game) -> dict[str, Any]:
    """The audit digest, recomputed from the seats' own journals (each hidden part is known to
    one of two seats) and compared with the digest every seat signed."""
    journals = [s.journal for s in game.sessions]
    if len({len(j) for j in journals}) != 1:
        raise AssertionError("the seats' journals differ in length")
    transcript = [
        pack(action_to_list(_resolved([j[i].action for j in journals])))
        for i in range(len(journals[0]))
    ]
    digest = report_digest(transcript, ())
    report = game.sessions[0].audit
    if report is None or report.deviations or report.digest != digest:
        raise AssertionError("the audit digest is not the transcript's")
    winner = game.sessions[0].view.winner  # type: ignore[union-attr]
    return {
        "winner": winner,
        **_audit_messages(game, report),
        "draws": [int(card) for card in report.draws],
        "transcript": [_hex(item) for item in transcript],
        "deviations": [],
        "digest": _hex(digest),
    }


# ---------------------------------------------------------------------------- the whole game


def game_log_bytes(game: _Game) -> bytes:
    """Seat 0's log of the whole game, byte for byte as a peer writes it (PROTOCOL.md §9): the
    opening, then every message it accepted or signed, in order (no notes, no evidence: an
    accused game's verdict follows from its messages alone)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.hexlan"
        with GameLog.create(path, game.opening.to_payload()) as log:
            for env in game.log:
                log.append_message(env.to_bytes(), sync=False)
        return path.read_bytes()


def _whole_game(game: _Game, log: bytes) -> dict[str, Any]:
    """Where the complete log is and what a verifier must find in it."""
    kinds: dict[str, int] = {}
    for env in game.log:
        kinds[env.body.kind] = kinds.get(env.body.kind, 0) + 1
    return {
        "log": GAME_LOG,
        "log_sha256": _hex(hashlib.sha256(log).digest()),
        "messages": len(game.log),
        "kinds": dict(sorted(kinds.items())),
        "action_schema": ACTION_SCHEMA,
        "expected": {
            "verify_exit_code": 0,
            "status": "valid",
            "winner": game.sessions[0].view.winner,  # type: ignore[union-attr]
            "audit": "passed",
            "audit_digest": "the audit section's digest, over its transcript",
        },
    }


def _accused_game(game: _Game, log: bytes) -> dict[str, Any]:
    """The accused game (§11.1): the message accused, the accusations of it, every seat's audit
    secrets and result, and the verdict a verifier must reach from the log.

    What the JSON states is checked here first, so a change in the red team or the sessions
    cannot silently turn the vector into another story: one message is contested, and it is
    the liar's first ``turn_ack`` (its first opportunity); every seat signed the same audit
    result, whose digest covers the deviations alone (§11.1) and whose first deviation names
    the liar at that message; and every session stopped with that verdict ("accused: ...").
    """
    accusations = game.messages("accuse")
    contested_ids = {bytes(env.body.payload[0]) for env in accusations}
    if len(contested_ids) != 1:
        raise AssertionError(f"the accused vector game contests {len(contested_ids)} messages")
    contested = game.by_id[contested_ids.pop()]
    first_ack = next(
        env for env in game.log if (env.body.author, env.body.kind) == (ACCUSED_SEAT, "turn_ack")
    )
    if contested is not first_ack:
        raise AssertionError(f"the accusation contests {contested.body.kind}, not the first lie")
    report = game.sessions[0].audit
    if report is None or not report.deviations:
        raise AssertionError("the accused game's audit found no deviation")
    if report.digest != report_digest((), report.deviations):
        raise AssertionError("the accused game's audit digest is not its deviations'")
    first = report.deviations[0]
    if (first.seat, first.message_id) != (ACCUSED_SEAT, contested.id):
        raise AssertionError(f"the audit's first deviation is {first}")
    verdict = f"accused: {first.reason}"
    stops = [session.stopped for session in game.sessions]
    if any(stop is None or (stop.author, stop.reason) != (ACCUSED_SEAT, verdict) for stop in stops):
        raise AssertionError(f"the sessions did not all stop naming seat {ACCUSED_SEAT}: {stops}")
    return {
        "log": ACCUSED_LOG,
        "log_sha256": _hex(hashlib.sha256(log).digest()),
        "messages": len(game.log),
        "deviation": f"{ACCUSED_KIND} by seat {ACCUSED_SEAT} at its first opportunity "
        "(hexlan bot --cheat false-hash): its turn_ack's hash is SHA-256(utf8('hexlan red team') "
        "|| 0x00 || the true hash), its trail's last entry zeroed",
        "contested": _message(contested),
        "accusations": [  # the honest seat's, and the liar's own: its check refuses it too
            {
                **_message(env, whole=False),
                "contested_id": _hex(env.body.payload[0]),
                "reason": env.body.payload[1],
            }
            for env in accusations
        ],
        "audit": {
            **_audit_messages(game, report),
            "deviations": [
                {"seat": d.seat, "message_id": _hex(d.message_id), "reason": d.reason}
                for d in report.deviations
            ],
            "digest": _hex(report.digest),
        },
        "expected": {
            "verify_exit_code": EXIT_INVALID,
            "status": "invalid",
            "named": ACCUSED_SEAT,
            "verdict": verdict,
        },
    }


_FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "PathId": {"type": "int", "min": 0, "meaning": "a path id of the board (§ topology order)"},
    "NodeId": {"type": "int", "min": 0, "meaning": "an intersection id of the board"},
    "HexId": {"type": "int", "min": 0, "meaning": "a hex id of the board"},
    "Seat": {"type": "int", "min": -1, "max": 5, "meaning": "a seat; -1 for none"},
    "Hand": {
        "type": "array",
        "min_length": len(RESOURCES),
        "max_length": MAX_KINDS,
        "items": {"type": "int", "min": 0},
        "meaning": "one count per card kind of the game: lumber, brick, wool, grain, ore (the"
        " base game), then paper, cloth, coin where the rule set adds the commodities",
    },
    "Hand | None": {
        "type": "array or nil",
        "min_length": len(RESOURCES),
        "max_length": MAX_KINDS,
        "items": {"type": "int", "min": 0},
        "meaning": "a hand as above; nil where the seat may not see it",
    },
    "Resource": {
        "type": "int",
        "min": 0,
        "max": MAX_KINDS - 1,
        "meaning": "a card kind: lumber, brick, wool, grain, ore, paper, cloth, coin (one the"
        " game has)",
    },
    "Resource | None": {
        "type": "int or nil",
        "min": 0,
        "max": MAX_KINDS - 1,
        "meaning": "a card kind; nil where the seat may not know it",
    },
    "DevelopmentCard | None": {
        "type": "int or nil",
        "min": 0,
        "max": len(R.DEV_CARDS) - 1,
        "meaning": "knight, road building, year of plenty, monopoly, victory point; nil when hidden",
    },
    "tuple[Resource, ...]": {
        "type": "array",
        "items": {"type": "int", "min": 0, "max": MAX_KINDS - 1},
        "meaning": "resources (the rule set's plenty_kinds)",
    },
    "tuple[int, ...]": {"type": "array", "items": {"type": "int", "min": 0}},
    "bool": {"type": "bool"},
    "int": {"type": "int", "min": 0},
    "int | None": {
        "type": "int or nil",
        "min": 0,
        "meaning": "a card's face in its deck (Cities & Knights' progress cards); nil where the"
        " seat may not see it",
    },
    "OptionalNode": {"type": "int", "min": -1, "meaning": "an intersection id; -1 for none"},
    "OptionalDeck": {
        "type": "int",
        "min": -1,
        "meaning": "a deck, by its index in the deck show's labels (Cities & Knights: 0 trade,"
        " 1 politics, 2 science); -1 for none",
    },
    "tuple[tuple[int, int], ...] | None": {
        "type": "array or nil",
        "items": {
            "type": "array",
            "min_length": 2,
            "max_length": 2,
            "items": {"type": "int", "min": 0},
        },
        "meaning": "progress cards as [track, face] pairs, sorted; nil where the seat may not"
        " see them",
    },
}


def action_schema() -> dict[str, Any]:
    """Every engine action as ``[name, field, ...]`` (``action_to_list``), with its fields'
    types, whether it is a chance outcome, and its rule in words: what an independent verifier
    needs to decode a log's ``action`` payloads and the audit transcript."""
    actions = []
    for cls in R.ACTION_TYPES:
        doc = " ".join((cls.__doc__ or "").split("\n\n")[0].split())
        actions.append(
            {
                "name": cls.__name__,
                "chance": cls in R.CHANCE_ACTIONS,
                "fields": [
                    {"name": f.name, **_FIELD_SCHEMAS[str(f.type)]} for f in dataclass_fields(cls)
                ],
                "doc": doc,
            }
        )
    return {
        "about": (
            "The actions of hexlan's engine in the wire form [name, field, ...] of "
            "hexlan.engine.actions.action_to_list (docs/PROTOCOL.md §5), written by "
            "scripts/protocol_vectors.py. A seat's action payload is never a chance outcome, "
            "except RevealVictory from the winner; encodings are canonical (a field given "
            "in another form is refused)."
        ),
        "actions": actions,
    }


# ---------------------------------------------------------------------------- all of it


def build() -> tuple[dict[str, Any], dict[str, bytes]]:
    """Every vector, as plain JSON data, and the whole games' logs (by their paths beside the
    JSON: :data:`GAME_LOG`, :data:`ACCUSED_LOG`)."""
    game = _Game()
    log = game_log_bytes(game)
    accused = _Game(cheat=ACCUSED_KIND)
    accused_log = game_log_bytes(accused)
    return {
        "about": (
            "Test vectors for docs/PROTOCOL.md (hexlan wire protocol version 4), written by "
            "scripts/protocol_vectors.py and checked by tests/test_protocol_vectors.py. Bytes are "
            "lowercase hex; decks are 64-byte ciphertexts A||B concatenated, as on the wire."
        ),
        "protocol_version": game.opening.protocol_version,
        "constants": {
            "chain_length": CHAIN_LENGTH,
            "group_order": str(GROUP_ORDER),
        },
        "table": {
            "seed": SEED,
            "names": list(NAMES),
            "seat_keys": (
                "SeatKeys.seeded(0, seat): identity = Ed25519 private key "
                "SHA-256(utf8('hexlan/v1/seeded/identity/0/' + seat)), chain secret "
                "SHA-256(utf8('hexlan/v1/seeded/chain/0/' + seat)), X25519 private key "
                "SHA-256(utf8('hexlan/v1/seeded/x25519/0/' + seat))"
            ),
            "bots": "make_bot('heuristic', random.Random(seat)); seat 0 moves first when both may",
            "messages_in_log": len(game.log),
        },
        "seats": _seats(game),
        "opening": _opening(game),
        "first_messages": [_message(env) for env in game.log[:FIRST_MESSAGES]],
        "beacon": _beacon(game),
        "development_deck": _development_deck(game),
        "draw": _draw(game),
        "show": _show(game),
        "steal": _steal(game),
        "shuffle_vector": _vector_shuffle(game),
        "reencryption": _reencryption(game),
        "show_vector": _show_vector(game),
        "audit": _audit(game),
        "whole_game": _whole_game(game, log),
        "accused_game": _accused_game(accused, accused_log),
    }, {GAME_LOG: log, ACCUSED_LOG: accused_log}


def render(data: dict[str, Any]) -> str:
    """The file's text: JSON indented by one space, with a final newline."""
    return json.dumps(data, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON")
    parser.add_argument(
        "--check", action="store_true", help="compare with the file instead of writing it"
    )
    args = parser.parse_args(argv)
    data, logs = build()
    folder = args.out.parent
    files = {
        args.out: render(data).encode(),
        **{folder / name: log for name, log in logs.items()},
        folder / ACTION_SCHEMA: render(action_schema()).encode(),
    }
    if args.check:
        stale = [
            path
            for path, content in files.items()
            if not path.exists() or path.read_bytes() != content
        ]
        for path in files:
            print(f"{path}: {'DIFFERS' if path in stale else 'up to date'}")
        return 1 if stale else 0
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(f"wrote {path} ({len(content)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
