"""Red-team seats: a session made to commit one deviation (`hexlan bot --cheat KIND`).

:class:`Cheat` wraps one seat's :class:`~hexlan.net.session.Session` in place (instance
attributes over its methods; net/session.py is unchanged), so that the seat's own session
signs the deviation at the chosen moment and the shell that runs it (the headless bot's
:class:`~hexlan.net.peer.Peer`, or an in-process table in the tests) sends it like any other
message. The kinds and what each proves are catalogued in :mod:`hexlan.net.cheats`; here is how
each is produced, at the N-th opportunity (:attr:`Cheat.at`):

- ``equivocate``: after signing its message, the session signs a ``present`` (an ``advance``
  if the message is a ``present``) with the same sequence number, previous hash and heads, and
  sends it right after the true one (and again to any seat whose link opens later).
- ``forge``: its chance reveal is signed and logged as usual, but what leaves is the same body
  signed by a fresh key. The seat's own copy of the message (``session.accepted``) is replaced
  by the forged envelope (same body bytes, so the same id), so every path that sends the seat's
  messages carries the forgery: the Send, the catch-up of a link that opens (``missing_for``)
  and the peer's resend to a seat during a stall (``Peer._anti_entropy``).
- ``replay``: its reveal for event ``n`` carries its chain value of event ``n - 1`` (the chain
  commitment for event 1), which it already revealed.
- ``false-share``: its decryption share is ``A·x + G``, with the DLEQ proof of ``A·x``.
- ``swap-shuffle``: the deck's shuffle job is wrapped (as tests/test_fairness.py does) so the
  published output has card 0 replaced by a re-encryption of card 1; its proof is made from
  its honest shuffle's secret, as for any shuffle.
- ``false-steal``: as a victim, its opening of the chosen commitment holds the next resource
  (``(r + 1) mod 5``), sealed for the thief with the right salt and index.
- ``undealt-card``: instead of the bot's decision, it signs ``PlayKnight`` with no
  ``card_reveal`` before it; in a game with a state of its own (Landnám), the first of its
  legal actions that plays a hidden card (:meth:`~hexlan.engine.game.TableGame.hidden_card`:
  a fate card), with no ``card_reveal`` before it.
- ``missing-commodity``, ``undealt-discard``, ``spy-forge`` and ``spy-spent``: Cities & Knights'
  own, installed by the module its spec names as ``cheats`` (:func:`game_installs`; here only
  the Spy's forged ``spy_open``, which re-encrypts, at its first position, the next card of the
  deck, ``B' − M_i + M_{i+1}``, with the proof of the true re-encryption, and its ``spy_take``
  of a position whose card was already shown).
- ``withhold-reveal`` and ``withhold-audit``: the session marks the reveal (its
  ``audit_secrets``) as sent and signs nothing, so the seat never answers that step.
- ``flood-held``: after its true turn acknowledgement, it signs :data:`FLOOD_COUNT`
  acknowledgements with a trail of 1400 entries (about 11 KB each, 9.6 MB in all: more than an
  author's held budget, ``MAX_HELD_BYTES``, and less than a link buffers before it drops a peer
  that is not reading, ``MAX_UNSENT``), numbered from ``MAX_AHEAD + 1`` past its next number
  on, and sends them right after (and again to any seat whose link opens later).
- ``false-hash``: its turn acknowledgement carries a hash that is not the public state's and
  a trail whose last entry is zeroed.
- ``false-head``: its ``audit_secrets``, once the game is won, lists among its heads, as the
  first other seat's latest message, an id that seat never signed (§11: refused, and the game
  waits on the seat for a valid one).
- ``lie-offer``: instead of the bot's decision in its turn's main phase, it signs
  ``OfferTrade`` to every other seat giving one card of a resource it lacks, for one of
  another resource, at a decision where a view rebuilt from the journal's public face (a third
  party's, knowing no hidden card) allows the offer; its own view first takes one of its cards
  of another resource for the one it claims, so that its own session signs the lie and goes on.
- ``lie-commit``: as a steal's victim lacking some resource, its ``steal_commit`` commits to a
  hand of its size all of that resource (its seed's order and salts), and its ``steal_open``
  opens the chosen commitment truly for the thief; its own view goes on with its true hand.

The seat goes on honestly afterwards as far as its own session lets it; a deviation its own
session also checks (a replayed reveal, a false share, an undealt card) stops it too, naming
itself, and one its own checks refuse where it would accuse (a false hash) makes it accuse
itself (§11.1). Only the deviating envelopes the seat sent are kept in
:attr:`Cheat.evidence`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any, TypeAlias

from hexlan.engine import actions as A
from hexlan.engine.chance import STEAL
from hexlan.engine.core import NO_SEAT, RESOURCES, DevCard, Hand, Phase, Resource, as_hand
from hexlan.engine.game import TableGame
from hexlan.engine.info import InformationState
from hexlan.engine.state import GameState
from hexlan.engine.variants import game_specs
from hexlan.net.cheats import CheatKind, check_cheat
from hexlan.net.dealing import Dealer, Shuffled
from hexlan.net.effects import Effect, Send
from hexlan.net.group import add, base_mul, sub
from hexlan.net.identity import Identity
from hexlan.net.session import MAX_AHEAD, Session
from hexlan.net.shuffle import ShuffleCommitment, card_point, reencrypt
from hexlan.net.steal import CommittedHand, commit_hand, derive_steal_secrets, seal_opening
from hexlan.net.wire import Body, Envelope, encode_action, sign_body

__all__ = ["Cheat", "Installer", "game_installs"]

_ONE: bytes = (1).to_bytes(32, "little")
FLOOD_COUNT = 850
"""Far-ahead messages a ``flood-held`` seat signs (PROTOCOL.md §8)."""
FLOOD_TRAIL: tuple[bytes, ...] = (bytes(8),) * 1400
"""The trail of each (about 11 KB a message, within the decoder's 4096 entries, §2)."""
_SignFn = Callable[[str, tuple[object, ...], list[Effect]], None]
_OPPORTUNITY: dict[str, tuple[str, ...] | None] = {
    "equivocate": None,  # every message signed but its opening signature
    "forge": ("reveal",),
    "replay": ("reveal",),
    "false-share": ("draw_share",),
    "swap-shuffle": ("shuffle",),
    "false-steal": ("steal_open",),
    "lie-commit": ("steal_commit",),  # only while it lacks a resource, as a steal's victim
    "undealt-card": (),  # decisions, counted in ``submit``
    "lie-offer": (),  # decisions, counted in ``submit``
    "missing-commodity": (),  # decisions, counted in ``submit``
    "undealt-discard": (),  # decisions, counted in ``submit``
    "spy-forge": ("spy_open",),
    "spy-spent": ("spy_take",),  # only those whose victim holds a spent card
    "withhold-reveal": ("reveal",),
    "withhold-audit": ("audit_secrets",),
    "flood-held": ("turn_ack",),
    "false-hash": ("turn_ack",),
    "false-head": ("audit_secrets",),
}
"""For each kind, the message kinds whose signing is an opportunity (None: every kind)."""


Installer: TypeAlias = Callable[["Cheat", Session], None]
"""``install(cheat, session)``: what a game's own kind changes in the cheating seat's session
(its ``submit``, through :meth:`Cheat.install_forgery` or in place), at :meth:`Cheat.install`."""


@cache
def game_installs() -> Mapping[str, Installer]:
    """The installers of the kinds only a game offers, by kind (read only): the ``INSTALLS`` of
    the modules every game's spec names as its ``cheats``, so this module names no game.

    Raises:
        ValueError: two games install one kind.
    """
    found: dict[str, Installer] = {}
    for spec in game_specs():
        for name in spec.cheats:
            installs: Mapping[str, Installer] = importlib.import_module(name).INSTALLS
            if found.keys() & installs.keys():
                raise ValueError(f"two games install {sorted(found.keys() & installs.keys())}")
            found.update(installs)
    return MappingProxyType(found)


def swap_in_another_card(dealer: Dealer, target: int, source: int) -> None:
    """Make ``dealer``'s seat publish a shuffle whose card ``target`` is a re-encryption of its
    card ``source``: one card of the deck is lost, another doubled. Its proof is made from its
    honest shuffle's permutation and scalars, which do not give this output, so the proof of
    the shuffle fails (PROTOCOL.md §13.6) and the audit recomputes the true output (§14).

    Args:
        dealer: the cheating seat's dealer (its shuffle job is wrapped in place).
        target, source: card positions of its shuffle's output, 0-based.
    """
    honest = dealer.shuffle_job

    def cheating_job() -> Callable[[], Shuffled]:
        job = honest()

        def cheat() -> Shuffled:
            shuffled = job()
            output = list(shuffled.commitment.output)
            r = (5).to_bytes(32, "little")
            output[target] = reencrypt(output[source], dealer.deck.key.joint, r)
            commitment = ShuffleCommitment(output, shuffled.commitment.permutation)
            return Shuffled(commitment, shuffled.secret)

        return cheat

    dealer.shuffle_job = cheating_job  # type: ignore[method-assign]


class Cheat:
    """One seat's deviation: ``kind`` (a name of :data:`hexlan.net.cheats.CHEATS`) at the
    ``at``-th opportunity.

    Args:
        kind: the deviation.
        at: which opportunity, from 1.
        on_deviate: hears one sentence when the seat deviates (the bot prints it).

    Attributes:
        seen: opportunities so far.
        deviation: what the seat did, once it did (None before).
        evidence: the deviating envelopes the seat sent (none for the withholding kinds).

    Raises:
        ValueError: an unknown kind, or an ``at`` the kind cannot take
            (:func:`hexlan.net.cheats.check_cheat`).
    """

    def __init__(
        self, kind: str, at: int = 1, on_deviate: Callable[[str], None] | None = None
    ) -> None:
        self.kind: CheatKind = check_cheat(kind, at)
        self.at = at
        self.on_deviate = on_deviate
        self.seen = 0
        self.deviation: str | None = None
        self.evidence: list[bytes] = []
        self._forged_hands: dict[int, CommittedHand] = {}  # lie-commit: steal -> its lie
        self._session: Session | None = None
        self._extra: list[bytes] = []  # sent besides the true envelopes

    @property
    def done(self) -> bool:
        """Whether the seat has deviated."""
        return self.deviation is not None

    def summary(self) -> dict[str, Any]:
        """The cheat as plain data (the ``"cheat"`` entry of the bot's JSON line)."""
        return {
            "kind": self.kind.name,
            "at": self.at,
            "opportunities": self.seen,
            "done": self.done,
            "deviation": self.deviation,
        }

    # ------------------------------------------------------------------ installing

    def install(self, session: Session) -> None:
        """Make ``session`` (a seat's, not yet started or replayed) commit the deviation.

        Raises:
            ValueError: the session is an observer's, or already has a cheat.
        """
        if session.observer:
            raise ValueError("an observer signs nothing: it cannot cheat")
        if self._session is not None or "sign" in vars(session):
            raise ValueError("the session already cheats")
        self._session = session
        honest_sign: _SignFn = session.sign
        honest_missing = session.missing_for

        def sign(kind: str, payload: tuple[object, ...], effects: list[Effect]) -> None:
            if self.done and self.kind.name == "withhold-reveal" and kind == "reveal":
                self._withhold(session, kind, payload, quiet=True)  # silent from then on
                return
            spent_take = self.kind.name == "spy-spent" and kind == "spy_take"
            no_lie = self.kind.name == "lie-commit" and _lacking_resource(session) is None
            if (
                (spent_take and _spent_item(session) is None)
                or no_lie
                or not self._opportunity(kind)
            ):
                honest_sign(kind, payload, effects)
                return
            self._deviate_in_sign(session, honest_sign, kind, payload, effects)

        def missing_for(heads: Sequence[Sequence[object]]) -> list[bytes]:
            return honest_missing(heads) + list(self._extra)

        session.sign = sign  # type: ignore[method-assign]
        session.missing_for = missing_for  # type: ignore[method-assign]
        if self.kind.name == "swap-shuffle":
            first = next(iter(session.decks.values()))  # no development deck in every game
            swap_in_another_card(first, target=0, source=1)
        elif self.kind.name == "undealt-card":
            self._install_card_play(session)
        elif self.kind.name == "lie-offer":
            self._install_lie_offer(session)
        elif self.kind.name == "lie-commit":
            self._install_true_opening(session)
        elif self.kind.name in game_installs():  # a game's own (Cities & Knights' Spy)
            game_installs()[self.kind.name](self, session)

    def _opportunity(self, kind: str) -> bool:
        """Count an opportunity if ``kind`` is one; whether it is the one to deviate at."""
        if self.done:
            return False
        kinds = _OPPORTUNITY[self.kind.name]
        if kind not in (kinds or ()) if kinds is not None else kind == "sign_opening":
            return False
        self.seen += 1
        return self.seen == self.at

    def _did(self, text: str) -> None:
        self.deviation = text
        if self.on_deviate is not None:
            self.on_deviate(text)

    # ------------------------------------------------------------------ deviations in signing

    def _deviate_in_sign(
        self,
        session: Session,
        honest_sign: _SignFn,
        kind: str,
        payload: tuple[object, ...],
        effects: list[Effect],
    ) -> None:
        name = self.kind.name
        if name.startswith("withhold-"):
            self._withhold(session, kind, payload)
            return
        if name == "replay":
            number = int(payload[0])  # type: ignore[call-overload]
            chain = session.chain
            payload = (number, chain.preimage(number - 1) if number > 1 else chain.commitment)
        elif name == "false-share":
            label, position, share, proof = payload
            payload = (label, position, add(share, base_mul(_ONE)), proof)  # type: ignore[arg-type]
        elif name == "false-steal":
            payload = self._false_opening(session, payload)
        elif name == "spy-forge":
            payload = _forged_open(session, payload)
        elif name == "spy-spent":
            spent = _spent_item(session)
            assert spent is not None
            payload = (payload[0], *spent)
        elif name == "lie-commit":
            number = int(payload[0])  # type: ignore[call-overload]
            resource = _lacking_resource(session)
            assert resource is not None  # else no opportunity
            view = session.view
            assert view is not None
            cards = view.hand_size[session.seat]
            order, salts, _ = derive_steal_secrets(session.chain.secret, number, cards)
            lie = commit_hand(session.game_id, number, [resource] * cards, order=order, salts=salts)
            self._forged_hands[number] = lie
            payload = (number, lie.commitments)
        elif name == "false-hash":
            turn, digest, trail = payload
            false_digest = hashlib.sha256(b"hexlan red team\0" + digest).digest()  # type: ignore[operator]
            false_trail = (*trail[:-1], bytes(8)) if trail else trail  # type: ignore[index]
            payload = (turn, false_digest, false_trail)
        framed = -1  # the seat a false head frames
        if name == "false-head":
            framed = self._sign_with_a_false_head(session, honest_sign, kind, payload, effects)
        else:
            honest_sign(kind, payload, effects)
        sent = session.accepted[session.seat][-1]
        if name == "equivocate":
            twin = self._twin(session, sent)
            self._extra.append(twin)
            effects.append(Send(twin))
            self.evidence += [sent.to_bytes(), twin]
            self._did(f"signed two bodies as message #{sent.body.seq} ({kind} and a twin)")
            return
        if name == "flood-held":
            flood = self._flood(session, sent)
            self._extra += flood
            effects.extend(Send(data) for data in flood)
            self.evidence += flood
            first = Envelope.parse(flood[0]).body.seq
            self._did(
                f"sent {len(flood)} acknowledgements numbered from #{first}, "
                f"{first - sent.body.seq} ahead of its last"
            )
            return
        if name == "forge":
            # The same body bytes (so the same id: the seat's chain goes on from it) under a
            # fresh key's signature. The log keeps the true envelope (the Persist above); the
            # seat's own copy becomes the forged one, so that every path that sends its messages
            # (this Send, the catch-up of a link that opens, a peer's resend to a seat that
            # stalls) sends the forgery and never the true reveal.
            fake = sign_body(sent.body, Identity.generate())
            forged_env = dataclasses.replace(sent, signature=fake.signature)
            forged, true = forged_env.to_bytes(), sent.to_bytes()
            session.accepted[session.seat][-1] = forged_env
            effects[:] = [Send(forged) if e == Send(true) else e for e in effects]
            self.evidence.append(forged)
            self._did(f"sent its {kind} for event {payload[0]} under a forged signature")
            return
        self.evidence.append(sent.to_bytes())
        what = {
            "replay": f"replayed an old chain value as its reveal for event {payload[0]}",
            "false-share": f"gave a false decryption share for position {payload[1]}",
            "swap-shuffle": "published a shuffle that swaps card 0 for a copy of card 1",
            "false-steal": f"opened steal {payload[0]} with a card it had not committed to",
            "false-hash": f"acknowledged turn {payload[0]} with a false state hash",
            "false-head": f"listed as seat {framed}'s latest message one it never signed",
            "lie-commit": f"committed to a hand it does not hold for steal {payload[0]}",
            "spy-forge": f"re-encrypted another card for Spy {payload[0]}",
            "spy-spent": f"took a card already played from the victim of Spy {payload[0]}",
        }[name]
        self._did(what)

    def _withhold(
        self, session: Session, kind: str, payload: tuple[object, ...], *, quiet: bool = False
    ) -> None:
        """Sign nothing, and let the session believe the step is done (it never asks again).
        A seat that withholds a reveal withholds every later one too (the next would break
        its chain, a stop rather than a stall)."""
        body = session.next_body(kind, payload)
        # the session's own bookkeeping key for the step, from a body never sent nor logged
        session.sent.add(session.obligation_key(sign_body(body, session.identity)))
        if not quiet:
            event = f" for event {payload[0]}" if kind == "reveal" else ""
            self._did(f"withheld its {kind}{event}")

    def _twin(self, session: Session, sent: Envelope) -> bytes:
        """Another body with ``sent``'s number, previous hash and heads, signed by the seat."""
        body = sent.body
        kind, payload = ("advance", ()) if body.kind == "present" else ("present", (bytes(32),))
        twin = Body(
            version=body.version,
            game_id=body.game_id,
            author=body.author,
            seq=body.seq,
            prev=body.prev,
            heads=body.heads,
            kind=kind,
            payload=payload,
        )
        return sign_body(twin, session.identity).to_bytes()

    def _sign_with_a_false_head(
        self,
        session: Session,
        honest_sign: _SignFn,
        kind: str,
        payload: tuple[object, ...],
        effects: list[Effect],
    ) -> int:
        """Sign ``kind`` honestly but for its heads, which list as the first other seat's latest
        message an id that seat never signed; the seat framed."""
        true_heads = session.heads()
        framed = next(s for s, (seq, _) in enumerate(true_heads) if s != session.seat and seq >= 0)
        false_heads = list(true_heads)
        false_heads[framed] = (true_heads[framed][0], hashlib.sha256(b"hexlan red team").digest())
        session.heads = lambda: tuple(false_heads)  # type: ignore[method-assign]
        try:
            honest_sign(kind, payload, effects)
        finally:
            del session.heads
        return framed

    def _flood(self, session: Session, sent: Envelope) -> list[bytes]:
        """:data:`FLOOD_COUNT` valid ``turn_ack`` envelopes of the seat, numbered from
        :data:`~hexlan.net.session.MAX_AHEAD` + 1 past its next number on (§8: refused, not
        held), with ``sent``'s heads and turn."""
        body = sent.body
        turn = body.payload[0]
        return [
            sign_body(
                dataclasses.replace(
                    body,
                    seq=body.seq + 1 + MAX_AHEAD + 1 + k,
                    payload=(turn, bytes(32), FLOOD_TRAIL),
                ),
                session.identity,
            ).to_bytes()
            for k in range(FLOOD_COUNT)
        ]

    def _false_opening(self, session: Session, payload: tuple[object, ...]) -> tuple[object, ...]:
        """A ``steal_open`` payload opening the chosen commitment with the next resource."""
        number, nonce, _ = payload
        view = session.view
        assert view is not None
        index = session.openings.steal_index
        salt, card = session.openings.own_committed_hand(int(number)).openings[index]  # type: ignore[call-overload]
        thief_public = session.opening.seats[view.active].x25519_public
        sealed = seal_opening(
            session.game_keys.private_key,
            thief_public,
            session.game_id,
            int(number),  # type: ignore[call-overload]
            index,
            salt,
            (int(card) + 1) % view.kinds,
            nonce=nonce,  # type: ignore[arg-type]
        )
        return (number, *sealed)

    # ------------------------------------------------------------------ other hooks

    def _install_true_opening(self, session: Session) -> None:
        """Open a steal it lied about truly, to the false commitment (so only the thief can
        see the lie), while its own view goes on with its true hand."""
        honest_open = session.openings.steal_open_step

        def open_step(
            view: InformationState, effects: list[Effect]
        ) -> tuple[str, tuple[object, ...]] | None:
            forged = self._forged_hands.get(session.openings.steal_number)
            if forged is None:
                return honest_open(view, effects)
            session.openings.own_committed_hand = lambda _: forged  # type: ignore[method-assign,assignment]
            try:
                return honest_open(view, effects)
            finally:
                del session.openings.own_committed_hand

        session.openings.steal_open_step = open_step  # type: ignore[method-assign]

    def _install_card_play(self, session: Session) -> None:
        """At the N-th decision in its own turn at which the others' views allow a card play,
        sign ``PlayKnight`` with no card shown, whatever the bot chose; in a game with a state
        of its own, at the N-th decision at which it may play a hidden card, play it unshown."""
        me = session.seat
        if session.new_game is not None:

            def unshown(view: TableGame, chosen: A.Action) -> tuple[A.Action, str] | None:
                play = next(
                    (a for a in view.legal_actions(me) if session.card_played(a) is not None),
                    None,
                )
                if play is None:
                    return None
                return play, f"played a card it never showed, {play} (instead of {chosen})"

            self.install_forgery(session, unshown)
            return

        def forge(view: GameState, chosen: A.Action) -> tuple[A.Action, str] | None:
            if (
                view.active != me
                or view.phase not in (Phase.ROLL, Phase.MAIN)
                or view.dev_played_this_turn
                or view.dev_count[me] <= view.new_dev_count[me]
                or session.dealer.unshown_own(DevCard.KNIGHT, view.turn) is not None
            ):
                return None
            return A.PlayKnight(), f"played a Knight it never showed (instead of {chosen})"

        self.install_forgery(session, forge)

    def _install_lie_offer(self, session: Session) -> None:
        """At the N-th decision in its own turn's main phase at which it lacks a resource that
        the public view allows it to offer, sign that offer (one card of it for one of another
        resource, to every other seat), its own view holding the lie."""
        me = session.seat

        def forge(view: GameState, chosen: A.Action) -> tuple[A.Action, str] | None:
            if view.active != me or view.phase is not Phase.MAIN:
                return None
            lie = _lie_offer(session, view)
            if lie is None:
                return None
            offer, claimed = lie
            name = Resource(claimed).name.lower()
            return offer, f"offered {name} it does not hold (instead of {chosen})"

        def believe(view: GameState, offer: A.Action) -> None:
            assert isinstance(offer, A.OfferTrade)
            hand = view.hands[me]
            claimed = next(r for r in range(len(hand)) if offer.give[r])
            spare = next(r for r in range(len(hand)) if hand[r] and r != claimed)
            hand[spare] -= 1
            hand[claimed] += 1

        self.install_forgery(session, forge, believe)

    def install_forgery(
        self,
        session: Session,
        forge: Callable[[Any, A.Action], tuple[A.Action, str] | None],
        believe: Callable[[Any, A.Action], None] | None = None,
    ) -> None:
        """Wrap ``submit``: at the N-th decision at which ``forge`` (given the seat's view and
        the bot's choice) offers a forged action and its words, sign it instead of the bot's
        choice and keep it as evidence; ``believe``, if given, first changes the seat's own
        view so that its session takes the forged action (a lie about its hidden cards)."""
        honest_submit = session.submit
        me = session.seat

        def submit(action: A.Action, now: float = 0.0) -> list[Effect]:
            view = session.game  # a Catan game's view is its InformationState
            forged = None if self.done or view is None else forge(view, action)
            if forged is None:
                return honest_submit(action, now)
            self.seen += 1
            if self.seen != self.at:
                return honest_submit(action, now)
            effects: list[Effect] = []
            if believe is not None and view is not None:
                believe(view, forged[0])
            session.sign("action", encode_action(forged[0]), effects)
            self.evidence.append(session.accepted[me][-1].to_bytes())  # before what follows it
            session.last_progress = now
            session._fulfil(effects)
            self._did(forged[1])
            return effects

        session.submit = submit  # type: ignore[method-assign]


def _forged_open(session: Session, payload: tuple[object, ...]) -> tuple[object, ...]:
    """A ``spy_open`` payload whose first item re-encrypts the next card of its deck."""
    number, items = payload
    assert isinstance(items, tuple)
    label, position, a, b, proof = items[0]
    dealer = session.decks[label]
    index = dealer.own_index[position]
    this = card_point(label.encode(), index)
    other = card_point(label.encode(), (index + 1) % dealer.deck.size)
    return (number, ((label, position, a, add(sub(b, this), other), proof), *items[1:]))


def _lacking_resource(session: Session) -> int | None:
    """The first resource this seat holds none of, while it is a steal's victim with cards
    (lie-commit's opportunity), else None."""
    view = session.view
    node = None if view is None else view.chance_node()
    if view is None or node is None or node.kind != STEAL or node.seats[1] != session.seat:
        return None
    hand = view.hands[session.seat]
    if not sum(hand):
        return None
    return next((r for r in range(len(hand)) if not hand[r]), None)


def _lie_offer(session: Session, view: GameState) -> tuple[A.OfferTrade, int] | None:
    """The first offer to every other seat of one card of a resource this seat lacks, for one
    of another resource, that the public view allows (its hidden cards may hold it), while it
    holds a card of some other resource to pretend with; with the resource claimed. None if
    there is none."""
    hand = view.hands[session.seat]
    kinds = len(hand)
    for claimed in range(len(RESOURCES)):
        if hand[claimed] or not any(hand[r] for r in range(kinds) if r != claimed):
            continue
        wanted = (claimed + 1) % len(RESOURCES)
        offer = A.OfferTrade(_one(kinds, claimed), _one(kinds, wanted), NO_SEAT)
        if not session._public_refuses(offer):
            return offer, claimed
    return None


def _one(kinds: int, resource: int) -> Hand:
    """A hand of ``kinds`` card kinds holding one card of ``resource``."""
    return as_hand([int(r == resource) for r in range(kinds)])


def _spent_item(session: Session) -> tuple[str, int] | None:
    """The first position the open Spy's victim opened to this player whose card was already
    shown (played or discarded), as ``(label, position)``; None if there is none."""
    spy = session.spy.open
    if spy is None or spy.indices is None:
        return None
    for (label, item), index in zip(spy.items, spy.indices, strict=True):
        if session.decks[label].deck.shown_by(index) is not None:
            return label, item.position
    return None
