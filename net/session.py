"""One seat's peer in a serverless game: signed messages in, effects out (sans-IO).

A :class:`Session` holds the seat's view of the game (:attr:`Session.game`, read through the
:class:`~hexlan.engine.game.TableGame` interface: a Catan game's
:class:`~hexlan.engine.info.InformationState`, or the view of a game with a state of its own,
made by its spec's state factory, whose decks are dealt in generations, §13.11) and the
protocol state of docs/PROTOCOL.md: every author's hash-chained messages, the order rule (§4),
the random beacon (§6), private steals (§7), turn acknowledgements (§11), the mental-poker
development deck (§13, through :class:`~hexlan.net.dealing.Dealer`) and the end-of-game audit
(§14, :mod:`hexlan.net.audit`). It performs no I/O: :meth:`Session.receive` and
:meth:`Session.submit` return effect lists (:mod:`hexlan.net.effects`) that the shell carries out
in order (persist, then send, then show), with the clock passed in; proof work comes out as a
:class:`~hexlan.net.effects.Compute` for the shell to run off its event loop.

Automatic protocol steps are *obligations* derived from the state (a reveal owed for an open
chance event, an acknowledgement owed for a finished turn...), fulfilled once each; after a
restart the same derivation resumes exactly where the log stopped, so a sequence number is never
signed twice. The session is a loop over sub-protocols (:mod:`hexlan.net.subprotocols`): each
owns its messages' handlers and state and yields the :class:`~hexlan.net.subprotocols.base.Step`
values every seat owes it, in signing order (:meth:`Session._steps`); the stall report
(:meth:`Session.owed_steps`, every seat) and this seat's next message (its first step not taken)
both come from that one description.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.actions import Action
from hexlan.engine.board import Board, beginner_board, random_board
from hexlan.engine.chance import (
    COUNT,
    DECK_DRAW,
    POINT_REVEAL,
    RESHUFFLE,
    REVEAL,
    UNIFORM,
    ChanceNode,
)
from hexlan.engine.core import (
    NO_SEAT,
    EngineError,
    IllegalActionError,
    Seat,
)
from hexlan.engine.game import SeatViews, TableGame
from hexlan.engine.info import InformationState
from hexlan.engine.maps import load_map
from hexlan.engine.ruleset import DEVELOPMENT_DECK as RULESET_DEVELOPMENT_DECK
from hexlan.engine.ruleset import RuleSet, state_spec
from hexlan.engine.shown import (
    DeckTake,
    HandTake,
)
from hexlan.net.audit import (
    AuditInputs,
    AuditReport,
    HandRecord,
    JournalEntry,
    LootRecord,
    SpyRecord,
    StealRecord,
)
from hexlan.net.beacon import (
    BeaconStream,
    HashChain,
)
from hexlan.net.dealing import Dealer, new_dealer
from hexlan.net.deck import JointKey
from hexlan.net.effects import (
    Applied,
    Audited,
    Compute,
    Effect,
    Persist,
    Rejected,
    Send,
    Stopped,
)
from hexlan.net.identity import (
    GameKeys,
    Identity,
    WeakKeyError,
    check_ed25519_public,
    check_x25519_public,
)
from hexlan.net.merchant import positions_for
from hexlan.net.subprotocols.acks import TurnAcks
from hexlan.net.subprotocols.audits import Audits
from hexlan.net.subprotocols.base import (
    AUTOMATIC_TIMEOUT,
    BROKEN_CHAIN,
    FALSE_HEAD,
    Build,
    Contested,
    Handler,
    OwedStep,
    Signable,
    Step,
)
from hexlan.net.subprotocols.beacon_events import BeaconEvent, BeaconEvents
from hexlan.net.subprotocols.decks import Dealing
from hexlan.net.subprotocols.openings import Openings
from hexlan.net.subprotocols.reveals import Reveals, count_key
from hexlan.net.subprotocols.spy import Spy
from hexlan.net.subprotocols.votes import AbandonVotes
from hexlan.net.wire import (
    PROTOCOL_VERSION,
    ZERO_ID,
    Body,
    Envelope,
    Equivocation,
    IllegalMove,
    MalformedMessage,
    Opening,
    OutOfTurn,
    RemoteProtocolError,
    WrongGame,
    decode_action,
    encode_action,
    sign_body,
)

NO_HEAD: Final = (-1, ZERO_ID)
"""Bytes of each public-state hash in a turn acknowledgement's trail (§11)."""
MAX_AHEAD: Final = 8192
"""How far ahead of its author's next number a message may be and still be held for its
predecessors (§8). A link's catch-up resends author by author (§8), so a peer that lacks much
(a spectator joining late) is sent one seat's whole game before the messages it builds on: the
window must hold a whole game of one seat. A 3-seat Cities & Knights game of 85 turns is about
900 messages a seat; 8192 is far above any game. A message further ahead is refused, naming its
author, and not held; it comes again (a resend) once its predecessors are in."""
MAX_HELD_BYTES: Final = 8 * 1024 * 1024
"""Bytes of one author's signed messages a session holds while they wait for their predecessors
(§8). A seat's messages in a whole game are under 0.5 MB (messages of about 400 bytes, the
largest a 4.5 KB shuffle proof), so only a seat flooding ahead of itself reaches it. The budget
is the author's own: a flood refuses the flooder's messages only, and a message that can be
accepted at once is never refused for space (it is not held)."""
MAX_HELD_MESSAGES: Final = MAX_AHEAD
"""Messages of one author a session holds while they wait (§8): one body per number within
:data:`MAX_AHEAD` for an honest seat. It bounds a flood of small bodies too."""
DEVELOPMENT_DECK: Final = RULESET_DEVELOPMENT_DECK
"""The label of the development-card deck (PROTOCOL.md §13): its name in the rule set's
``decks`` (a game without development cards, Cities & Knights, has none)."""


# ---------------------------------------------------------------------------- state


AUDIT_KINDS: Final = frozenset({"accuse", "audit_secrets", "audit_result", "abandon", "present"})
"""The kinds that still take effect once an accusation froze the game (§11.1)."""


def engine_version() -> str:
    """The installed hexlan version (part of the opening; peers must agree)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("hexlan")
    except PackageNotFoundError:
        return "0+unknown"


class Session:
    """The protocol state of one seat.

    Args:
        seat: this peer's seat in the opening, or None for an observer (`hexlan verify`),
            which checks and applies every message as a third party and never signs.
        identity: this peer's signing key (must be the seat's key in the opening).
        opening: the opening every seat signs (§3).
        chain: this seat's hash chain (its commitment is in the opening); its secret is the
            seat's per-game seed, from which its deck secret, shuffle and steal salts follow.
        game_keys: this seat's per-game X25519 keys (the public key is in the opening).
        inline_work: run proof work where it arises (tests, in-process tables, `hexlan
            verify`); False makes the session emit :class:`Compute` effects instead, for a
            shell that runs them off its event loop (a seat's peer, a spectator).

    Raises:
        ValueError: the identity, chain or keys do not match the opening's seat, or a seat of
            the opening holds a weak or non-canonical key (``check_ed25519_public``,
            ``check_x25519_public``; :class:`Opening` itself refuses one, so only an opening
            built around its checks can).
    """

    def __init__(
        self,
        seat: Seat | None,
        identity: Identity | None,
        opening: Opening,
        chain: HashChain | None,
        game_keys: GameKeys | None,
        *,
        inline_work: bool = True,
    ) -> None:
        seats = opening.seats
        for number, info in enumerate(seats):
            try:
                check_ed25519_public(info.public_key)
                check_x25519_public(info.x25519_public)
            except WeakKeyError as exc:
                raise ValueError(f"the opening's seat {number} is refused: {exc.reason}") from None
        self.observer = seat is None
        if seat is None or identity is None or chain is None or game_keys is None:
            if not self.observer:
                raise ValueError("a seat needs its identity, hash chain and game keys")
            seat = NO_SEAT
            identity = Identity.generate()  # never used: an observer signs nothing
            chain, game_keys = HashChain(bytes(32), 1), GameKeys.generate()
        elif not 0 <= seat < len(seats):
            raise ValueError(f"seat {seat} is not at this table")
        elif seats[seat].public_key != identity.public_bytes:
            raise ValueError("this identity is not the key the opening gives this seat")
        elif seats[seat].chain_commitment != chain.commitment:
            raise ValueError("this hash chain is not the one committed in the opening")
        elif seats[seat].x25519_public != game_keys.public_bytes:
            raise ValueError("these X25519 keys are not the ones in the opening")
        self.seat = seat
        self.identity = identity
        self.opening = opening
        self.game_id = opening.game_id
        self.players = len(seats)
        self.chain = chain
        self.game_keys = game_keys
        self.options = opening.game_options()
        self.rules: RuleSet | None = None if opening.own_state else opening.rules()
        """The game's rule set (the opening names the game, §3): its map, bank and deck; None
        for a game with a state of its own (:attr:`new_game`)."""
        self.new_game: SeatViews | None = None
        """A game with a state of its own (Landnám): the new game its spec's state factory
        makes, before the start player; this seat's view is made from it at the start."""
        spec = state_spec(opening.game)
        if spec is not None and spec.state is not None:
            self.new_game = spec.state(opening.game, self.players, self.options)
        self.view: InformationState | None = None
        """A Catan game's view (an :class:`InformationState`), once the board is laid."""
        self.game: TableGame | None = None
        """This seat's view of the game once it has begun, as the protocol reads it: the Catan
        :attr:`view`, or the view of a game with a state of its own."""
        self._own: SeatViews | None = None  # the view of a game with a state of its own
        self.start_board: Board | None = None
        """The board as the start event laid it (the view's board changes as fog is revealed)."""

        self.accepted: list[list[Envelope]] = [[] for _ in range(self.players)]
        self.applied = [-1] * self.players
        self._waiting: dict[bytes, Envelope] = {}
        self._held_bytes = [0] * self.players  # per author: the size of its held envelopes
        self._held_count = [0] * self.players  # per author: how many are held
        self._active = 0  # the sequencer (§4), seat 0 before the start player is known
        self._activation = (0, -1)  # (author, seq) of the sequencing message that made it so
        self._openings_applied = 0
        self.inline_work = inline_work
        self.key = JointKey(self.players, self.game_id)
        self.decks: dict[str, Dealer] = {
            name: new_dealer(
                name,
                _faces(counts),
                self.key,
                self.game_id,
                None if self.observer else seat,
                None if self.observer else chain.secret,
            )
            for name, counts in (self.rules.decks.items() if self.rules is not None else ())
        }
        """The game's hidden stacks by the names its rule set gives them (§13), each dealt by
        its own :class:`Dealer` under the one joint key: ``"development"`` in the base game.
        A game with a state of its own adds its decks' generations as they begin (§13.11),
        by their labels (:attr:`generations`)."""
        self.generations: dict[str, list[str]] = {}
        """A game with a state of its own: per deck (its name in the chance nodes), the labels
        of its generations in :attr:`decks`, the first first (§13.11)."""
        self._requested: set[str] = set()
        self._continuations: dict[str, Callable[[object, list[Effect]], None]] = {}
        self.journal: list[JournalEntry] = []
        self.through: tuple[Seat, int] = (0, -1)
        """``(author, seq)`` of the message being ordered (§4)."""
        self._fulfilled: list[set[tuple[str, int]]] = [set() for _ in range(self.players)]
        """Per seat: the obligation key (:meth:`_obligation_key`) of every message accepted
        from it: a step whose key is here is taken (a held one is the sequencer's to order)."""
        self.sent = set() if self.observer else self._fulfilled[seat]
        """This seat's own share of :attr:`_fulfilled`: the steps it signed."""
        self._replaying = False
        self.stopped: Stopped | None = None
        self.last_progress = 0.0
        # seat -> (seq, BROKEN_CHAIN or FALSE_HEAD) of its last message refused as invalid
        self._invalid: dict[Seat, tuple[int, str]] = {}
        self.applied_at: dict[bytes, tuple[int, int]] = {}
        """message id -> (its place in the order applied, the journal's length before it)."""
        self.beacon = BeaconEvents(self)
        """The random beacon's events (§6)."""
        self.acks = TurnAcks(self)
        """Turn acknowledgements (§11)."""
        self.reveals = Reveals(self)
        """Monopoly counts, a drawn card's show, a claim of victory (§5, §13.8)."""
        self.openings = Openings(self)
        """Openings of committed hands: steals, the fleet's loot, the Master Merchant (§7)."""
        self.spy = Spy(self)
        """The Spy's openings and takes (§7.3)."""
        self.audits = Audits(self)
        """Accusations and the audit (§11.1, §14)."""
        self.votes = AbandonVotes(self)
        """Abandon votes (§11)."""
        self.dealing = Dealing(self)
        """Dealing the decks (§13)."""
        self._handlers: dict[str, Handler] = {
            kind: functools.partial(handler, self) for kind, handler in _HANDLERS.items()
        }
        for part in (
            self.beacon,
            self.openings,
            self.spy,
            self.reveals,
            self.acks,
            self.audits,
            self.votes,
            self.dealing,
        ):
            self._handlers.update(part.handlers())

    # ------------------------------------------------------------------ queries

    @property
    def dealer(self) -> Dealer:
        """The development deck's dealer (:data:`DEVELOPMENT_DECK`), which the development
        card rules read: card plays, victory point reveals."""
        return self.decks[DEVELOPMENT_DECK]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (won, stopped, abandoned, or frozen by an accusation)."""
        return self.stopped is not None or self.abandoned is not None or self.won() or self.frozen()

    @property
    def done(self) -> bool:
        """Whether nothing more will happen: stopped, abandoned, or won and audited (§14)."""
        return (
            self.stopped is not None
            or self.abandoned is not None
            or self.audits.audited is not None
        )

    def won(self) -> bool:
        """Whether the game is won (the engine says so; its audit may still run)."""
        return self.game is not None and self.game.is_over

    def frozen(self) -> bool:
        """Whether an accusation froze the game: one counted, or this seat's own to sign."""
        return self.audits.frozen

    @property
    def audit(self) -> AuditReport | None:
        """The audit this seat ran, once every seat's secrets are in (§14)."""
        return self.audits.audit

    @property
    def audited(self) -> Audited | None:
        """The audit's outcome, once every seat's result is in (§14)."""
        return self.audits.audited

    @property
    def accusations(self) -> dict[Seat, tuple[bytes, bytes]]:
        """Every counted accusation (§11.1): accuser -> (contested message id, its id)."""
        return self.audits.accusations

    @property
    def contested_by_me(self) -> tuple[bytes, str, Seat | None] | None:
        """The message this session's own checks refused where it accuses (§11.1): its id,
        the reason and the seat the check suspects."""
        return self.audits.contested_by_me

    @property
    def abandoned(self) -> tuple[Seat, ...] | None:
        """The seats the game ended as abandoned by, once every remaining seat agreed (§11)."""
        return self.votes.abandoned

    @property
    def abandon_votes(self) -> dict[Seat, tuple[Seat, ...]]:
        """The ``abandon`` votes that stand now: signer -> the seats it says are gone."""
        return self.votes.abandon_votes

    @property
    def abandon_owed(self) -> tuple[OwedStep, ...]:
        """What each missing seat owed, by the vote that ended the game as abandoned."""
        return self.votes.abandon_owed

    def abandon(self, missing: Sequence[Seat], now: float = 0.0) -> list[Effect]:
        """Sign that the game ends as abandoned by ``missing`` (:meth:`AbandonVotes.abandon`)."""
        return self.votes.abandon(missing, now)

    def vote_void(self) -> bool:
        """Whether this seat's latest vote no longer stands (:meth:`AbandonVotes.vote_void`)."""
        return self.votes.vote_void()

    def audit_inputs(self) -> AuditInputs:
        """What the audit reads (:meth:`Audits.audit_inputs`)."""
        return self.audits.audit_inputs()

    def heads(self) -> tuple[tuple[int, bytes], ...]:
        """The latest accepted message of every seat, as ``(seq, id)``."""
        return tuple((len(msgs) - 1, msgs[-1].id) if msgs else NO_HEAD for msgs in self.accepted)

    def messages(self) -> list[bytes]:
        """Every accepted envelope, author by author, in sequence order."""
        return [env.to_bytes() for msgs in self.accepted for env in msgs]

    def missing_for(self, heads: Sequence[Sequence[object]]) -> list[bytes]:
        """Envelopes a peer whose heads are ``heads`` lacks (§8 resend), oldest first per author.

        Malformed heads give every message: resending is always safe (duplicates are ignored).
        """
        result: list[bytes] = []
        for author, msgs in enumerate(self.accepted):
            have = -1
            if len(heads) == self.players:
                head = heads[author]
                if isinstance(head, list | tuple) and head and isinstance(head[0], int):
                    have = head[0]
            result.extend(env.to_bytes() for env in msgs[have + 1 :])
        return result

    def decision_due(self) -> bool:
        """Whether this seat has a decision to make now (a person's or a bot's).

        Never while the game waits for a protocol step, for this seat's own message to be
        ordered, or for the acknowledgements of the last turn.
        """
        return not self._blocked() and self.seat in self.game.acting_seats()  # type: ignore[union-attr]

    def _blocked(self) -> bool:
        """Whether the game waits for the protocol rather than for a decision."""
        view = self.game
        return (
            view is None
            or self.is_over
            or view.chance_node() is not None
            or self._needs_advance()
            or bool(self.acks.missing())
            or self._own_pending()
        )

    def waiting_on(self) -> list[Seat]:
        """Seats whose automatic step the game waits for (for stall messages, §11)."""
        return sorted({o.seat for o in self.owed_steps() if o.step != "decision"})

    def owed_steps(self) -> list[OwedStep]:
        """The steps the game waits for now, seat by seat (§11): the automatic ones, in the
        order a seat signs them, then the decisions it waits for when it waits for no automatic
        step. Derived from the one description this seat's own next message comes from
        (:meth:`_steps`), leaving out each seat's initiatives (a dispute, a ``present``).

        A step this seat already holds but the active seat has not ordered yet is the active
        seat's to take (an ``advance``, §4), not its author's; so is any other held message.
        A seat whose last message here broke its hash chain comes first, owing
        :data:`BROKEN_CHAIN` (a valid message of that number), besides whatever else it owes.
        Once an accusation froze the game, only the audit of the game so far is owed.
        """
        frozen = self.frozen()
        owed: dict[tuple[Seat, str, int], None] = {}
        if not frozen and any(
            self.applied[s] < len(self.accepted[s]) - 1 for s in range(self.players)
        ):
            owed[self._active, "advance", -1] = None
        for step in self._steps(range(self.players)):
            if step.awaited and self._unfulfilled(step):
                owed[step.seat, step.kind, step.number] = None
        if frozen:
            return [OwedStep(*key) for key in owed]
        view = self.game
        automatic = any(kind != "advance" for _, kind, _ in owed)
        if view is not None and not automatic and not self.is_over and view.chance_node() is None:
            for s in view.acting_seats():
                owed[s, "decision", -1] = None
        return self._broken_chains() + [OwedStep(*key) for key in owed]

    def _steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """What ``seats`` owe now, sub-protocol by sub-protocol in the order a seat signs its
        steps (the order is part of the signed log's bytes): its opening, its reveals, its
        accusation; once frozen, the audit only; else its disputes and ``present``, the decks'
        dealing, the audit, the openings of hands and cards, its reveals (Monopoly counts, a
        drawn card's show), its turn acknowledgement and its claim of victory."""
        schedule = (
            (
                self._opening_steps,
                self.beacon.reveal_steps,
                self.audits.accuse_steps,
                self.audits.audit_steps,
            )
            if self.frozen()
            else (
                self._opening_steps,
                self.beacon.reveal_steps,
                self.audits.accuse_steps,
                self.openings.dispute_steps,
                self.spy.dispute_steps,
                self.votes.present_steps,
                self.dealing.dealing_steps,
                self.audits.audit_steps,
                self.openings.opening_steps,
                self.spy.open_steps,
                self.reveals.reveal_steps,
                self.acks.ack_steps,
                self.reveals.victory_steps,
            )
        )
        for steps in schedule:
            yield from steps(seats)

    def _unfulfilled(self, step: Step) -> bool:
        """Whether no message accepted from ``step``'s seat takes it."""
        return step.key is None or step.key not in self._fulfilled[step.seat]

    def own(self, seat: Seat, build: Build) -> Build | None:
        """``build`` for this seat's own step, None for another seat's."""
        return build if seat == self.seat else None

    def _opening_steps(self, seats: Sequence[Seat]) -> Iterator[Step]:
        """Each seat's signed opening (§3), its first message."""
        for s in seats:
            if not self.accepted[s]:
                build = self.own(s, lambda _: ("sign_opening", (self.opening.to_payload(),)))
                yield Step(s, "sign_opening", key=("sign_opening", 0), build=build)

    def _broken_chains(self) -> list[OwedStep]:
        """Seats whose message broke its hash chain here and that have sent no valid message
        of that number since (§11), as :data:`BROKEN_CHAIN` steps."""
        return [
            OwedStep(seat, step, seq)
            for seat, (seq, step) in sorted(self._invalid.items())
            if seq >= len(self.accepted[seat])
        ]

    # ------------------------------------------------------------------ entry points

    def start(self, now: float = 0.0) -> list[Effect]:
        """Sign this seat's opening (§3) and any other step already owed."""
        self.last_progress = now
        effects: list[Effect] = []
        self._fulfil(effects)
        return effects

    def receive(self, data: bytes, now: float = 0.0) -> list[Effect]:
        """Take one envelope from the network.

        Returns the effects: evidence of a refusal, or the message's persistence, what it
        applied, and the steps it made this seat owe.
        """
        effects: list[Effect] = []
        if self.stopped is not None:
            return effects
        try:
            env = Envelope.parse(data)
        except RemoteProtocolError as exc:
            effects.append(Rejected(exc.reason, data))
            return effects
        try:
            self._check_envelope(env)
        except RemoteProtocolError as exc:
            effects.append(Rejected(exc.reason, data, exc.author))  # unproven: no author
            return effects
        body = env.body
        msgs = self.accepted[body.author]
        if body.seq < len(msgs):
            if msgs[body.seq].id == env.id:
                return effects  # a duplicate: already have it
            self._equivocation(msgs[body.seq], data, effects)
            return effects
        if env.id not in self._waiting:
            ready = self._ready(env, effects)  # accepted at once: never refused for space
            if ready:
                self._accept(env, effects)
            elif ready is False:
                refusal = self._hold_refusal(env)
                if refusal is not None:
                    effects.append(Rejected(refusal, data, body.author))
                    return effects
                self._hold(env)
        self._drain_waiting(effects)
        if any(not isinstance(e, Rejected | Send) for e in effects):  # a refusal is no progress
            self.last_progress = now
        self._fulfil(effects)
        return effects

    def submit(self, action: Action, now: float = 0.0) -> list[Effect]:
        """Sign and apply this seat's own decision (a development card play is preceded by the
        card's reveal, §13).

        Raises:
            IllegalActionError: the action is not legal for this seat now (a ``DeckTake`` of a
                card the victim's opened cards no longer hold unspent, say); nothing changed.
        """
        view = self.game
        if view is None or self.is_over or self.observer:
            raise IllegalActionError("the game is not running for this seat")
        if isinstance(action, R.CHANCE_ACTIONS):
            raise IllegalActionError("chance outcomes come from the beacon, not from a seat")
        if view.actor(action) != self.seat:
            raise IllegalActionError(f"{type(action).__name__} is not this seat's to make")
        if self._blocked():
            raise IllegalActionError("the game is waiting for the protocol, not for this seat")
        view.check(action)
        effects: list[Effect] = []
        # a take is put on the wire before anything is signed: one it cannot name signs nothing
        take = self.spy.take_payload(action) if isinstance(action, DeckTake) else None
        played = self.card_played(action)
        if played is not None:
            if self.spy.open_for(self.seat):
                raise IllegalActionError("this seat shows no card while its Spy is open (§7.3)")
            dealers, face, before, title = played
            # the card may have been dealt in any generation of its deck (§13.11)
            found = [(d, p) for d in dealers if (p := d.unshown_own(face, before)) is not None]
            if not found:
                raise IllegalActionError(f"this seat holds no {title} it can show")
            dealer, position = found[0]
            # among every card dealt to it before this turn: which one it is stays hidden
            self.sign("card_reveal", dealer.show_payload(position, before), effects)
        if isinstance(action, HandTake):  # positions on the wire, never the kinds (§7.2)
            assert self.openings.hand is not None and action.taken is not None
            taken = positions_for(self.openings.hand_openings, action.taken)
            self.sign("merchant_take", (self.openings.hand.steal, taken), effects)
        elif take is not None:  # a position on the wire, never the face (§7.3)
            self.sign("spy_take", take, effects)
        else:
            self.sign("action", encode_action(action), effects)
        self.last_progress = now
        self._fulfil(effects)
        return effects

    def tick(self, now: float) -> list[Seat]:
        """Seats stalling an automatic step for longer than :data:`AUTOMATIC_TIMEOUT` (§11)."""
        if self.done or now - self.last_progress < AUTOMATIC_TIMEOUT:
            return []
        return [s for s in self.waiting_on() if s != self.seat]

    def computed(self, key: str, result: object, now: float = 0.0) -> list[Effect]:
        """Take the result of a :class:`Compute` job and go on (sign what it made due).

        Raises:
            KeyError: no job with this key is outstanding.
        """
        effects: list[Effect] = []
        continuation = self._continuations.pop(key)
        if self.stopped is None:
            continuation(result, effects)
            self.last_progress = now
            self._drain_waiting(effects)  # a deck now ready lets its waiting shares in (§13.7)
            self._fulfil(effects)
            self.votes.count(effects)  # the owed steps may have changed (§11)
        return effects

    def replay(self, envelopes: Sequence[bytes]) -> list[Effect]:
        """Restore from a log: take every logged envelope again (own ones included) without
        signing anything, then fulfil what is still owed (§9 resume).

        Raises:
            ValueError: a logged envelope of this seat is not valid (the log is not this seat's).
        """
        self._replaying = True
        effects: list[Effect] = []
        try:
            for data in envelopes:
                for effect in self.receive(data):
                    if isinstance(effect, Applied | Stopped):
                        effects.append(effect)
                    elif (
                        isinstance(effect, Rejected)
                        and not self.observer
                        and _claimed_author(effect.envelope) == self.seat
                    ):
                        raise ValueError(f"own logged message refused: {effect.reason}")
        finally:
            self._replaying = False
        self._fulfil(effects)
        return effects

    # ------------------------------------------------------------------ acceptance

    def _check_envelope(self, env: Envelope) -> None:
        body = env.body
        if body.game_id != self.game_id:
            raise WrongGame(
                other_game_words(self.opening, body) or "the message belongs to another game"
            )
        if not 0 <= body.author < self.players:
            raise MalformedMessage(f"no seat {body.author} at this table")
        if len(body.heads) != self.players:
            raise MalformedMessage("heads must list every seat")
        env.verify(self.opening.seats[body.author].public_key)

    def _drain_waiting(self, effects: list[Effect]) -> None:
        """Accept every waiting envelope whose predecessors are all accepted (causal order)."""
        progress = True
        while progress and self.stopped is None:
            progress = False
            for env_id, env in list(self._waiting.items()):
                if env_id not in self._waiting:
                    continue
                ready = self._ready(env, effects)
                if ready is None:
                    self._unhold(env_id)
                    continue
                if ready:
                    self._unhold(env_id)
                    self._accept(env, effects)
                    progress = True
                    if self.stopped is not None:
                        return

    def _hold_refusal(self, env: Envelope) -> str | None:
        """Why a message that must wait for its predecessors is not held, or None (§8): it is
        more than :data:`MAX_AHEAD` ahead of its author's next number, or its author's held
        messages fill that author's own budget (:data:`MAX_HELD_BYTES`,
        :data:`MAX_HELD_MESSAGES`). Another seat's messages never count against it."""
        body = env.body
        author = body.author
        ahead = body.seq - len(self.accepted[author])
        if ahead > MAX_AHEAD:
            return (
                f"seat {author}'s message number {body.seq} is {ahead} ahead of the next one "
                f"this peer expects from it (at most {MAX_AHEAD} wait for their predecessors): "
                "refused until they arrive"
            )
        if self._held_count[author] >= MAX_HELD_MESSAGES or (
            self._held_bytes[author] + _held_size(env) > MAX_HELD_BYTES
        ):
            return (
                f"seat {author}'s messages that wait for their predecessors fill its budget "
                f"({MAX_HELD_MESSAGES} messages, {MAX_HELD_BYTES} bytes): this one is refused "
                "until they arrive"
            )
        return None

    def _hold(self, env: Envelope) -> None:
        """Keep ``env`` until its predecessors are accepted, charged to its author (§8)."""
        author = env.body.author
        self._waiting[env.id] = env
        self._held_bytes[author] += _held_size(env)
        self._held_count[author] += 1

    def _unhold(self, env_id: bytes) -> None:
        env = self._waiting.pop(env_id)
        self._held_bytes[env.body.author] -= _held_size(env)
        self._held_count[env.body.author] -= 1

    def _wait_for_valid(
        self, env: Envelope, step: str, ours: Envelope, effects: list[Effect]
    ) -> None:
        """The game now waits on ``env``'s author for a valid message of its number (§11,
        ``step``: :data:`BROKEN_CHAIN` or :data:`FALSE_HEAD`). The message may build on another
        body than ``ours`` of that seat's number (a fork): show every seat ours, once, so a seat
        holding the other body proves the fork (its equivocation check relays both bodies)."""
        body = env.body
        if self._invalid.get(body.author) != (body.seq, step):
            self._invalid[body.author] = (body.seq, step)
            self._relay(effects, ours.to_bytes())

    def _ready(self, env: Envelope, effects: list[Effect]) -> bool | None:
        """True: acceptable now; False: wait for predecessors; None: refused (effect added)."""
        body = env.body
        msgs = self.accepted[body.author]
        if body.seq < len(msgs):
            if msgs[body.seq].id != env.id:
                self._equivocation(msgs[body.seq], env.to_bytes(), effects)
            return None
        if body.seq > len(msgs):
            return False
        expected_prev = msgs[-1].id if msgs else ZERO_ID
        if body.prev != expected_prev:
            effects.append(
                Rejected("its previous-message hash breaks the chain", env.to_bytes(), body.author)
            )
            if msgs:
                # Its message may build on another body of its previous number (§11).
                self._wait_for_valid(env, BROKEN_CHAIN, msgs[-1], effects)
            return None
        for seat, (seq, head_id) in enumerate(body.heads):
            if seq < 0:
                continue
            have = self.accepted[seat]
            if seq >= len(have):
                return False
            if have[seq].id == head_id:
                continue
            if seat == body.author:  # its own head against its own signed body: proof
                self.stop(
                    Equivocation(
                        f"seat {seat} lists its own message number {seq} as one this seat "
                        f"never saw: seat {seat} signed two messages as number {seq}",
                        author=seat,
                    ),
                    effects,
                    (have[seq].to_bytes(), env.to_bytes()),
                )
                return None
            # Another seat's head is the author's word against that seat's, and either may be
            # the liar (§11): refuse the message, and wait on its author for a valid one.
            effects.append(
                Rejected(
                    f"seat {body.author} lists seat {seat}'s message number {seq} as one this "
                    f"seat never saw: seat {seat} signed two messages as number {seq}, or "
                    f"seat {body.author} lied",
                    env.to_bytes(),
                    body.author,
                )
            )
            self._wait_for_valid(env, FALSE_HEAD, have[seq], effects)
            return None
        # a share of a deck whose proofs this seat still checks waits, like a successor (§13.7)
        return not (body.kind == "draw_share" and self.dealing.share_waits(body))

    def _accept(self, env: Envelope, effects: list[Effect]) -> None:
        body = env.body
        self.accepted[body.author].append(env)
        self._fulfilled[body.author].add(self.obligation_key(env))
        if not self._replaying:
            effects.append(Persist(env.to_bytes()))
        if body.kind == "abandon":  # agreement, not a move: it counts when accepted (§11)
            self.votes.take_vote(env, effects)
        if self.audits.accusations or body.kind == "accuse":  # counts when accepted (§11.1)
            self._apply(env, effects, ordered=False)
        elif self._sequences(body) or self.won():  # after the game, order is moot (§14)
            self._apply_through(env, effects)
        elif body.kind == "spy_dispute":  # it stops the game either way: counts when accepted
            self._apply(env, effects, ordered=False)
        self.votes.count(effects)

    # ------------------------------------------------------------------ ordering (§4)

    def _apply_through(self, env: Envelope, effects: list[Effect]) -> None:
        """Apply the pending messages ``env`` covers (causal, then seat order), then ``env``."""
        covered = env.body.heads
        self.through = (env.body.author, env.body.seq)
        while self.stopped is None:
            candidate = None
            for seat in range(self.players):
                nxt = self.applied[seat] + 1
                limit = env.body.seq - 1 if seat == env.body.author else covered[seat][0]
                if nxt > limit or nxt >= len(self.accepted[seat]):
                    continue
                pending = self.accepted[seat][nxt]
                if all(seq <= self.applied[s] for s, (seq, _) in enumerate(pending.body.heads)):
                    candidate = pending
                    break
            if candidate is None:
                break
            self._apply(candidate, effects, ordered=True)
        if self.stopped is None:
            self._apply(env, effects, ordered=False)

    def _apply(self, env: Envelope, effects: list[Effect], *, ordered: bool) -> None:
        """Apply one message; ``ordered`` when another seat's message covered it (§4)."""
        body = env.body
        self.applied[body.author] = body.seq
        if self.frozen() and body.kind not in AUDIT_KINDS:
            return  # frozen by an accusation: the audit of the game so far decides (§11.1)
        self.applied_at[env.id] = (
            len(self.applied_at),
            self.acks.journal_at_end if body.kind == "turn_ack" else len(self.journal),
        )
        if ordered and body.kind == "advance":
            self.stop(
                OutOfTurn(
                    f"seat {body.author} sent advance while not the active seat", author=body.author
                ),
                effects,
                (env.to_bytes(),),
            )
            return
        try:
            handler = self._handlers[body.kind]
        except KeyError:
            self.stop(
                MalformedMessage(
                    f"a {body.kind} message has no place in a game", author=body.author
                ),
                effects,
                (env.to_bytes(),),
            )
            return
        before = self._active
        try:
            handler(env, effects)
        except Contested as exc:
            own = body.author == self.seat and body.kind != "turn_ack"
            if self.audits.to_accuse is not None or own:
                self.stop(exc, effects, (env.to_bytes(),))
                return
            # This seat alone can see it: accuse, and let the audit of the game so far name
            # the first real deviation, whoever made it (§11.1). A seat's own acknowledgement
            # that its own checks refuse (a red-team lie) is accused too: the audit names it; any
            # other own message its checks refuse stops it naming itself.
            # An observer (`hexlan verify`) signs nothing: it freezes likewise and waits for the
            # log's accusation and secrets.
            self.audits.accuse(env, exc)
            return
        except (RemoteProtocolError, IllegalActionError, EngineError) as exc:
            reason = exc.reason if hasattr(exc, "reason") else str(exc)
            self.stop(
                exc
                if isinstance(exc, RemoteProtocolError)
                else IllegalMove(f"seat {body.author}: {reason}", author=body.author),
                effects,
                (env.to_bytes(),),
            )
            return
        if self._active != before:
            # the sequencing message being applied, not a pending one it covers (§4): only a
            # seat that has seen that message has seen the change
            self._activation = self.through
        if self.game is not None:
            self.acks.record_trail(env, self.game)

    def _equivocation(self, first: Envelope, second: bytes, effects: list[Effect]) -> None:
        """Stop: ``first``'s author signed ``second`` with the same sequence number (§11); both
        bodies go to every seat, so each holds the proof (a seat that saw only one of them
        names the author too)."""
        body = first.body
        self.stop(
            Equivocation(
                f"seat {body.author} signed two different messages as number {body.seq}",
                author=body.author,
            ),
            effects,
            (first.to_bytes(), second),
        )
        self._relay(effects, first.to_bytes(), second)

    def _relay(self, effects: list[Effect], *envelopes: bytes) -> None:
        """Send other seats' envelopes on to every seat (fork proofs, §11); never while
        replaying a log, never from an observer."""
        if not (self._replaying or self.observer):
            effects.extend(Send(data) for data in envelopes)

    def stop(
        self, error: RemoteProtocolError, effects: list[Effect], evidence: tuple[bytes, ...]
    ) -> None:
        """Stop the game: ``error`` names the reason and the seat at fault, ``evidence`` the
        envelopes that prove it."""
        self.stopped = Stopped(error.reason, error.author, evidence)
        effects.append(self.stopped)

    # ------------------------------------------------------------------ handlers

    def _on_sign_opening(self, env: Envelope, effects: list[Effect]) -> None:
        (payload,) = env.body.payload
        if Opening.from_payload(payload).game_id != self.game_id:
            raise OutOfTurn(
                f"seat {env.body.author} signed another opening", author=env.body.author
            )
        if env.body.seq != 0:
            raise OutOfTurn("an opening is signed only as message 0", author=env.body.author)
        self._openings_applied += 1
        if self._openings_applied == self.players:
            self.beacon.open_event("start", env.id)

    def _on_action(self, env: Envelope, effects: list[Effect]) -> None:
        view = self.require_game(env)
        action = decode_action(env.body.payload, None if self.rules is None else self.rules.cards)
        author = env.body.author
        if view.moot(action, author):
            return  # the offer was withdrawn before this answer was ordered: it is moot
        own_reveal = _is_own_reveal(view.chance_node(), action, author)
        if isinstance(action, R.CHANCE_ACTIONS) and not (
            isinstance(action, A.RevealVictory) or own_reveal
        ):
            raise OutOfTurn(f"seat {author} sent a chance outcome", author=author)
        if isinstance(action, HandTake):
            raise OutOfTurn(
                f"seat {author} named the Master Merchant's cards in the open, not by position",
                author=author,
            )
        if isinstance(action, DeckTake):
            raise OutOfTurn(
                f"seat {author} named the Spy's card in the open, not by position", author=author
            )
        if view.actor(action) != author and not (
            # the engine decides when a claim can be true (also just after the claimer's turn)
            (isinstance(action, A.RevealVictory) and action.seat == author) or own_reveal
        ):
            raise OutOfTurn(
                f"seat {author} may not make {type(action).__name__} now", author=author
            )
        try:
            view.check(action)
        except IllegalActionError as exc:
            if self._public_refuses(action):  # every seat sees it: stop naming the author
                raise
            # it rests on what this seat knows of hidden cards: accuse it (§11.1)
            entry = JournalEntry(action, author, env.id)
            raise Contested(f"seat {author}: {exc}", author, entry) from exc
        self._check_cards(action, author)
        turn = view.turn
        self.engine_apply(action, author, env.id, effects)
        node = view.chance_node()
        if node is not None and node.kind == UNIFORM:  # a beacon event: the dice (§6)
            self.beacon.open_event(node.event, env.id)
        elif node is not None and node.kind == COUNT:  # a Monopoly, capped or not
            self.reveals.count_opened(view.turn)
        elif view.ended_turn(action, turn):
            self.acks.turn_ended(turn, view)

    def public_view(self) -> TableGame | None:
        """A third party's view of the game so far: rebuilt from the journal's public face
        (every applied action as an observer sees it, §11.1), knowing no hidden card; None
        before the board is laid, or when the journal cannot be replayed so (an
        :class:`EngineError`). Its public state is this seat's view's
        (``public_hash()`` equal)."""
        public: TableGame
        if self.new_game is not None and self.game is not None:
            public = self.new_game.view(NO_SEAT)
        elif self.start_board is None or self.rules is None:
            return None
        else:
            public = InformationState(
                self.start_board, self.players, NO_SEAT, self.options, self.rules
            )
        try:
            for entry in self.journal:
                public.apply(public.observation(entry.action, NO_SEAT))
        except EngineError:
            return None
        return public

    def _public_refuses(self, action: Action) -> bool:
        """Whether a third party, knowing no hidden card, refuses ``action`` too (its view
        rebuilt from the journal's public face): then every seat refuses it and the refusal
        needs no accusation (§11.1). True for an observer (it signs nothing, so it cannot
        accuse) and when the public view cannot be rebuilt (a journal a third party cannot
        replay step by step): the refusal then stops at once. Every game is rebuilt so, its
        own rules modules' state included (tests/test_accuse_games.py)."""
        if self.observer:
            return True
        public = self.public_view()
        if public is None:
            return True  # no public view to tell by: stop naming the author, as before §11.1
        try:
            public.check(action)
        except IllegalActionError:
            return True
        return False

    def _check_cards(self, action: Action, author: Seat) -> None:
        """A development card played (a progress card played or discarded) must spend one of
        its type its seat showed, dealt before this turn (a progress card: up to this turn), and a victory claim may count no more victory point cards than the seat
        showed (with ``vp_cards_next_turn``: shown among cards dealt before the winning turn)
        (§13.8)."""
        played = self.card_played(action)
        turn = self.require_game(None).turn
        if played is not None and not any(d.spend(author, played[1], played[2]) for d in played[0]):
            verb = action.spends if isinstance(action, A.VariantAction) else "played"
            raise IllegalMove(
                f"seat {author} {verb} {played[3]} without revealing one it drew"
                + (" before this turn" if played[2] == turn else ""),
                author=author,
            )
        if isinstance(action, A.RevealVictory):
            # It shows every victory point card it holds; with ``vp_cards_next_turn`` only
            # those shown among cards dealt before the winning turn count. That turn is the
            # current one, or the one just ended (``victory_at_turn_end``: the engine's check
            # passed, so a claimer that is not active has just ended its turn).
            view = self.require_view(None)
            won_in = turn if view.active == author else turn - 1
            before = won_in if self.options.vp_cards_next_turn else None
            point = view.point_card()
            shown = (
                0  # a game without point cards
                if point is None
                else self.dealer_of(point[0]).shown_count(author, point[1], before)
            )
            if action.victory_point_cards > shown:
                raise IllegalMove(
                    f"seat {author} claimed {action.victory_point_cards} victory point cards "
                    f"but revealed {shown}",
                    author=author,
                )

    def card_played(self, action: Action) -> tuple[list[Dealer], int, int, str] | None:
        """The hidden card ``action`` plays, as ``(dealers, face, before, title)``: a card of
        ``face`` dealt before turn ``before`` by one of ``dealers`` (its deck's generations,
        §13.11; a Catan deck has one) is shown for it (§13.8); a development card is never
        played in the turn it was bought, a variant's card (a Cities & Knights progress card)
        may be (the engine's :meth:`~hexlan.engine.state.GameState.hidden_card`)."""
        view = self.require_game(None)
        hidden = view.hidden_card(action)
        if hidden is None:
            return None
        deck, face, name, this_turn = hidden
        labels = self.generations.get(deck, [deck])
        dealers = [self.decks[label] for label in labels if label in self.decks]
        return dealers, face, view.turn + 1 if this_turn else view.turn, name

    def _on_advance(self, env: Envelope, effects: list[Effect]) -> None:
        """Nothing beyond ordering what it covers (done before it is applied)."""

    # ------------------------------------------------------------------ the deck (§13)

    # ------------------------------------------------------------------ the audit (§14)

    # ------------------------------------------------------------------ chance (§6, §7)

    def resolve(
        self, event: BeaconEvent, stream: BeaconStream, message_id: bytes, effects: list[Effect]
    ) -> None:
        """Resolve ``event`` from its beacon ``stream`` (§6): a deck's shuffle challenges, else
        the chance node the game waits for (the ``start`` event first lays the board and begins
        the game): a uniform node's outcome, or the index of a stolen card."""
        if event.deck:
            self.decks[event.deck].deck.set_challenges(stream.output)
            return
        if event.purpose == "start" and self.new_game is not None:
            self._own = self.new_game.view(self.seat)
            self.game = self._own
        elif event.purpose == "start":
            assert self.rules is not None
            board_map = load_map(self.rules.board, self.rules.terrains)
            board = (
                random_board(stream, "spiral", board_map)
                if self.opening.board_kind == "random"
                else beginner_board(board_map)
            )
            self.start_board = board
            self.view = InformationState(board, self.players, self.seat, self.options, self.rules)
            self.game = self.view
        view = self.require_game(None)
        node = view.chance_node()
        if node is not None and node.kind == UNIFORM:
            self.engine_apply(node.pick(stream.randbelow), None, message_id, effects)
            after = view.chance_node()
            if after is not None and after.kind == UNIFORM:  # Cities & Knights: the event die
                self.beacon.open_event(after.event, message_id)  # follows the dice as its own event
        elif node is not None:
            self.openings.resolve(node, stream)

    # ------------------------------------------------------------------ engine

    def require_game(self, env: Envelope | None) -> TableGame:
        """This seat's view of the game once it has begun (:attr:`game`: a Catan view or the
        view of a game with a state of its own).

        Raises:
            OutOfTurn: the game has not begun (naming ``env``'s author, if any)."""
        if self.game is None:
            author = None if env is None else env.body.author
            raise OutOfTurn("the game has not begun", author=author)
        return self.game

    def dealer_of(self, deck: str) -> Dealer:
        """The dealer of ``deck``'s current generation (a Catan deck has one, §13.11); a game
        with a state of its own begins its deck's first generation at its first draw.

        Raises:
            KeyError: the game has no such deck.
        """
        labels = self.generations.get(deck)
        if labels is None and self.new_game is not None:
            return self._new_generation(deck)
        return self.decks[deck if labels is None else labels[-1]]

    def _new_generation(self, deck: str) -> Dealer:
        """Begin a new generation of ``deck`` (§13.11): a fresh deck of the cards every seat
        knows it holds now (:meth:`~hexlan.engine.game.SeatViews.deck_faces`), labelled
        ``deck`` for the first, ``deck#1``, ``deck#2``... after, shuffled by every seat."""
        assert self._own is not None
        faces = self._own.deck_faces(deck)
        labels = self.generations.setdefault(deck, [])
        label = f"{deck}#{len(labels)}" if labels else deck
        labels.append(label)
        dealer = new_dealer(
            label,
            _faces(faces),
            self.key,
            self.game_id,
            None if self.observer else self.seat,
            None if self.observer else self.chain.secret,
        )
        self.decks[label] = dealer
        return dealer

    def require_view(self, env: Envelope | None) -> InformationState:
        """The game's view once the board is laid.

        Raises:
            OutOfTurn: the game has not begun (naming ``env``'s author, if any)."""
        if self.view is None:
            author = None if env is None else env.body.author
            raise OutOfTurn("the game has not begun", author=author)
        return self.view

    def engine_apply(
        self,
        action: Action,
        author: Seat | None,
        message_id: bytes,
        effects: list[Effect],
        *,
        position: int | None = None,
        steal: StealRecord | None = None,
        counts: tuple[bytes, ...] = (),
        deck: str = "",
        loot: LootRecord | None = None,
        hand: HandRecord | None = None,
        spy: SpyRecord | None = None,
    ) -> None:
        """Apply ``action`` to the view and journal it with what proves it (its deck position,
        steal, counts...), dealing the next card a deck draw waits for."""
        view = self.require_game(None)
        view.apply(action)
        self.journal.append(
            JournalEntry(action, author, message_id, position, steal, counts, deck, loot, hand, spy)
        )
        node = view.chance_node()
        if node is not None and node.kind == DECK_DRAW:  # a card to deal (§13.7)
            dealer = self.dealer_of(node.deck)
            if dealer.drawing is None:
                dealer.deal(node.seats[0], view.turn, public=node.public)
        self.acks.state_changed = True
        self._active = sequencer(view)
        effects.append(Applied(action, author, message_id))
        if node is not None and node.kind == RESHUFFLE:  # a new generation of the deck (§13.11)
            self._new_generation(node.deck)
            ((outcome, _),) = view.chance_outcomes()
            self.engine_apply(outcome, None, message_id, effects)

    # ------------------------------------------------------------------ work

    def request(
        self,
        key: str,
        job: Callable[[], object],
        then: Callable[[object, list[Effect]], None],
        effects: list[Effect],
    ) -> None:
        """Run ``job`` once per ``key``: here (inline work, a replay) or as a
        :class:`Compute` effect whose result :meth:`computed` hands to ``then``."""
        if key in self._requested:
            return
        self._requested.add(key)
        if self.inline_work or self._replaying:
            then(job(), effects)
        else:
            self._continuations[key] = then
            effects.append(Compute(key, job))

    # ------------------------------------------------------------------ obligations

    def _fulfil(self, effects: list[Effect]) -> None:
        """Sign every automatic step this seat owes now, each once (see module docstring)."""
        if self._replaying or self.observer:
            return
        while self.stopped is None:
            step = self._next_obligation(effects)
            if step is None:
                return
            kind, payload = step
            self.sign(kind, payload, effects)

    def _next_obligation(self, effects: list[Effect]) -> Signable | None:
        """This seat's next automatic message: its first step of :meth:`_steps` not taken yet
        that can be signed now, else an ``advance`` when it holds others' messages to order."""
        me = self.seat
        for step in self._steps((me,)):
            if step.seat != me or step.build is None or not self._unfulfilled(step):
                continue
            signable = step.build(effects)
            if signable is not None:
                return signable
            if self.stopped is not None:
                return None
        return self._advance_if_needed()

    def _advance_if_needed(self) -> tuple[str, tuple[object, ...]] | None:
        return ("advance", ()) if self._needs_advance() else None

    def _needs_advance(self) -> bool:
        """Whether this seat is the sequencer and holds others' messages not yet applied."""
        if self._active != self.seat or self.won() or self.frozen():
            return False
        return any(self.applied[s] < len(self.accepted[s]) - 1 for s in range(self.players))

    def _sequences(self, body: Body) -> bool:
        """Whether a message moves the game on (§4): its author is the active seat and it was
        signed after the activation, the sequencing message whose application made it so (its
        heads cover that message). A message the seat signed before it became active waits,
        like any other seat's, for its next one, at every peer.

        Covering only the pending message whose application changed the active seat (the start
        event's last ``reveal``, say) is not enough: its author may have signed while that
        message was still pending there, not yet active; a peer that held the sequencing
        message first would apply such a message at once, a peer that got it first would hold
        it, and the two would wait on different seats (seen as a stall that named a live seat).
        """
        author, seq = self._activation
        return body.author == self._active and body.heads[author][0] >= seq

    def obligation_key(self, env: Envelope) -> tuple[str, int]:
        """The obligation ``env`` fulfils (:meth:`obligation_key_of`)."""
        return self.obligation_key_of(env.body.kind, env.body.payload, env.body.seq)

    def obligation_key_of(
        self, kind: str, payload: Sequence[Any], seq: int = -1
    ) -> tuple[str, int]:
        """The obligation a message of ``kind`` with ``payload`` fulfils (its ``seq`` where it
        fulfils none but itself)."""
        if kind in (
            "reveal",
            "steal_commit",
            "steal_open",
            "loot_open",
            "hand_open",
            "merchant_take",
            "steal_dispute",
            "spy_open",
            "spy_take",
            "spy_dispute",
            "turn_ack",
        ):
            return kind, int(payload[0])
        if kind == "count":
            return count_key(int(payload[0]), int(payload[2]) if len(payload) > 2 else 0)
        if kind == "action" and payload[0][0] in _REVEAL_NAMES:  # numbered by its last field
            return "card_show", int(payload[0][-1])
        if kind == "action" and payload[0][0] == "RevealVictory":
            return "victory", 0
        if kind in ("deck_key", "audit_secrets", "audit_result", "accuse"):
            return kind, 0
        if kind in ("shuffle", "shuffle_proof"):
            return f"{kind}:{payload[0]}", 0
        if kind in ("draw_share", "card_reveal"):
            return f"{kind}:{payload[0]}", int(payload[1])
        return kind, seq

    def next_body(self, kind: str, payload: tuple[object, ...]) -> Body:
        """The body this seat's next message of ``kind`` would have: its next ``seq``, the
        ``prev`` of its chain and its current heads (§2). Nothing is signed or changed."""
        msgs = self.accepted[self.seat]
        return Body(
            version=PROTOCOL_VERSION,
            game_id=self.game_id,
            author=self.seat,
            seq=len(msgs),
            prev=msgs[-1].id if msgs else ZERO_ID,
            heads=self.heads(),
            kind=kind,
            payload=payload,
        )

    def sign(self, kind: str, payload: tuple[object, ...], effects: list[Effect]) -> None:
        """Sign this seat's next message of ``kind`` with ``payload``: persist it, send it, and
        apply it when this seat orders (or it counts when accepted)."""
        env = sign_body(self.next_body(kind, payload), self.identity.private_key)
        data = env.to_bytes()
        self.sent.add(self.obligation_key(env))
        effects.append(Persist(data))
        effects.append(Send(data))
        self.accepted[self.seat].append(env)
        if kind == "abandon":
            self.votes.take_vote(env, effects)
        if self.frozen() or kind == "accuse":  # applied when signed (§11.1)
            self._apply(env, effects, ordered=False)
        elif self.seat == self._active or self.won():
            self._apply_through(env, effects)
        elif kind == "spy_dispute":  # it stops the game either way (§7.3)
            self._apply(env, effects, ordered=False)
        self.votes.count(effects)

    # ------------------------------------------------------------------ helpers

    def _own_pending(self) -> bool:
        """Whether a message of this seat awaits ordering by the active seat."""
        return not self.observer and self.applied[self.seat] < len(self.accepted[self.seat]) - 1


def _held_size(env: Envelope) -> int:
    """The bytes a held envelope occupies (body and signature; counted without packing it)."""
    return len(env.body_bytes) + len(env.signature)


def other_game_words(opening: Opening, body: Body) -> str | None:
    """When ``body`` is a seat's signed opening of another game than ``opening``'s, the refusal
    in words, naming both games (§3: a seat told another game than the table's, or a log of one
    game replayed or resumed as another); else None (another game id, for another reason)."""
    if body.kind != "sign_opening":
        return None
    try:
        other = Opening.from_payload(body.payload[0])
    except RemoteProtocolError:
        return None
    if other.game == opening.game:
        return None
    return (
        f"seat {body.author} signed an opening of the {other.game} game; this peer was told "
        f"the game is {opening.game}"
    )


_REVEAL_NAMES: Final = frozenset(
    cls.__name__ for cls in R.CHANCE_ACTIONS if getattr(cls, "revealed", False)
)
"""Chance outcomes a seat sends itself as an ``action`` (besides ``RevealVictory``): a reveal
of what it alone saw, numbered by its last field (a Cities & Knights point card's show)."""


def _is_own_reveal(node: ChanceNode | None, action: Action, author: Seat) -> bool:
    """Whether ``action`` is ``author``'s own reveal of the card it just drew (a
    :data:`POINT_REVEAL`, sent as an ``action``): the engine checks what it shows."""
    return (
        node is not None
        and node.kind == REVEAL
        and node.event == POINT_REVEAL
        and node.seats == (author,)
        and type(action).__name__ in _REVEAL_NAMES
        and getattr(action, "seat", None) == author
    )


def _faces(counts: Sequence[int]) -> list[int]:
    """A deck before shuffling, from its rule set's counts: each card's face (its index in
    ``counts``: the :class:`DevCard` type in the development deck), as many of each as counted
    (25 development cards in the base game, 34 in the 5-6 player game)."""
    return [face for face, count in enumerate(counts) for _ in range(count)]


def sequencer(view: TableGame) -> Seat:
    """The seat that moves the game on (§4): the engine's
    :meth:`~hexlan.engine.state.GameState.deciding_seat` (the active seat; the builder in the
    5-6 player special building phase). Before the start player is drawn it is -1: the session
    keeps seat 0 then (it never asks before the view exists)."""
    return view.deciding_seat()


def _claimed_author(data: bytes) -> Seat | None:
    """The author an envelope claims, proven or not (None if it does not parse)."""
    try:
        return Envelope.parse(data).body.author
    except RemoteProtocolError:
        return None


_HANDLERS = {
    "sign_opening": Session._on_sign_opening,
    "action": Session._on_action,
    "advance": Session._on_advance,
}

__all__ = [
    "AUTOMATIC_TIMEOUT",
    "BROKEN_CHAIN",
    "DEVELOPMENT_DECK",
    "FALSE_HEAD",
    "OwedStep",
    "Session",
    "engine_version",
    "other_game_words",
    "sequencer",
]
