"""The end-of-game audit (PROTOCOL.md §14): replay the whole game with every secret revealed.

When a game ends every seat reveals its audit secrets: its 32-byte per-game seed (the secret of
its hash chain, from which its ElGamal secret, its shuffle and its steal salts and orders are
derived) and its X25519 private key. :func:`run_audit` then checks, as any third party can:

- each seat's secrets against what it published: the seed hashes down to its chain commitment,
  the X25519 key is the opening's, the ElGamal secret is the key share it proved;
- each seat's shuffle of each deck a card was drawn from is the one its seed gives (its proof
  of a shuffle already showed the output to be a shuffle of the input; this shows it is the
  seed's own, as committed);
- every card of every deck drawn from (development cards, fog tiles, fate cards), decrypted
  with every seat's secret: each draw's card, and each public draw's face as the game showed it;
- every steal: the victim's commitments are those of the hand it really held, in the order and
  with the salts its seed gives, and the opening decrypts to the committed card; every fleet's
  loot (Pirate Islands, §7.1): the commitments likewise (its openings were public and checked);
- every Spy (Cities & Knights, §7.3): each card re-encrypted to the player is the card at its
  position (its proof was checked by every peer), and the card taken had not been shown before
  the take (else the player is named);
- the full-information game, replayed action by action on a
  :class:`~hexlan.engine.state.GameState`: every action legal with the true hands (a discard,
  an offer, a Monopoly count, a victory claim), every chance outcome one the true state allows.

Each broken check is a :class:`Deviation` naming the seat and the message. Pure and
deterministic: a peer runs it in a worker thread, `hexlan verify` runs it inline, and every honest
party gets the same :class:`AuditReport` (whose digest every seat signs).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from hexlan.engine import actions as A
from hexlan.engine.actions import (
    Action,
    action_to_list,
)
from hexlan.engine.board import Board
from hexlan.engine.chance import Count
from hexlan.engine.core import (
    NO_SEAT,
    DevelopmentCard,
    EngineError,
    IllegalActionError,
    Resource,
    Seat,
    as_hand,
)
from hexlan.engine.game import TableGame
from hexlan.engine.registry import dev_card
from hexlan.engine.ruleset import DEVELOPMENT_DECK, state_spec
from hexlan.engine.shown import (
    DeckShown,
    DeckTake,
    HandShown,
    HandTake,
)
from hexlan.engine.state import GameState
from hexlan.net.beacon import chain_commitment
from hexlan.net.deck import Deck, DeckError, derive_deck_secret
from hexlan.net.group import GroupError, base_mul
from hexlan.net.identity import GameKeys, IdentityError
from hexlan.net.steal import (
    StealOpeningError,
    check_opening,
    commit_hand,
    derive_steal_secrets,
    open_hand,
    open_opening,
)
from hexlan.net.wire import Opening, pack

AUDIT_PREFIX: Final = b"hexlan/v1/audit\0"


@dataclass(frozen=True, slots=True)
class Deviation:
    """One departure from the protocol, attributed.

    Attributes:
        seat: the seat to blame, or None when the evidence cannot single one out.
        message_id: the id of the message that shows it (32 bytes), or b"" when no one message
            does.
        reason: what is wrong, in words.
    """

    seat: Seat | None
    message_id: bytes
    reason: str

    def to_payload(self) -> tuple[int, bytes, str]:
        """The wire form ``[seat or -1, message_id, reason]`` (``audit_result``, §14)."""
        return (-1 if self.seat is None else self.seat, self.message_id, self.reason[:500])


@dataclass(frozen=True, slots=True)
class StealRecord:
    """What the log shows of one private steal (PROTOCOL.md §7), for the audit.

    Attributes:
        steal: the steal's number (1 for the game's first steal, §7).
        thief, victim: seats.
        commitments: the victim's card commitments (32 bytes each), in its order.
        index: the beacon-chosen index among them.
        nonce, ciphertext: the opening sealed to the thief.
        commit_id, open_id: the ids of the ``steal_commit`` and ``steal_open`` messages.
    """

    steal: int
    thief: Seat
    victim: Seat
    commitments: tuple[bytes, ...]
    index: int
    nonce: bytes
    ciphertext: bytes
    commit_id: bytes
    open_id: bytes


@dataclass(frozen=True, slots=True)
class LootRecord:
    """What the log shows of one fleet's loot (Pirate Islands, PROTOCOL.md §7.1), for the audit:
    the openings were public and checked when applied; the audit checks the commitments.

    Attributes:
        steal: its number, in the one sequence of steals and loots (§7).
        victim: the seat the fleet beat.
        commitments: the victim's card commitments (32 bytes each), in its order.
        commit_id: the id of its ``steal_commit`` message.
    """

    steal: int
    victim: Seat
    commitments: tuple[bytes, ...]
    commit_id: bytes


@dataclass(frozen=True, slots=True)
class HandRecord:
    """What the log shows of a hand opened to one seat (the Master Merchant, PROTOCOL.md §7.2),
    for the audit.

    Attributes:
        steal: its number, in the one sequence of steals and loots (§7).
        player, victim: the seat the hand is opened to, and the seat whose hand it is.
        commitments: the victim's card commitments (32 bytes each), in its order.
        nonce, ciphertext: every opening, sealed to the player.
        commit_id, open_id: the ids of the ``steal_commit`` and ``hand_open`` messages.
        takes: how many cards the player takes (the chance node's ``cards``; all if the hand
            holds fewer).
        positions: for the take, the positions the player named (empty for the show).
    """

    steal: int
    player: Seat
    victim: Seat
    commitments: tuple[bytes, ...]
    nonce: bytes
    ciphertext: bytes
    commit_id: bytes
    open_id: bytes
    takes: int
    positions: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SpyRecord:
    """What the log shows of cards of some decks shown to one seat (a ``deck_show`` chance node:
    the Cities & Knights Spy, PROTOCOL.md §7.3), for the audit.

    Attributes:
        spy: its number, in the one sequence of steals and hands shown (§7).
        player, victim: the seat the cards are opened to, and the seat whose cards they are.
        items: the ``spy_open`` items, ``(label, position, A' || B', proof)`` each.
        open_id: the id of the ``spy_open`` message.
        deck, position: for the take, the position taken ("" and -1: nothing; for the show,
            "" and -1).
        moves: for the take, how many times the position had moved before it.
        shown: for the take, every card index of its deck shown before it.
        take_id: for the take, the id of the ``spy_take`` message (b"" for the show).
    """

    spy: int
    player: Seat
    victim: Seat
    items: tuple[tuple[str, int, bytes, bytes], ...]
    open_id: bytes
    deck: str = ""
    position: int = -1
    moves: int = 0
    shown: tuple[int, ...] = ()
    take_id: bytes = b""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One engine action as the live game applied it, hidden parts left out.

    Attributes:
        action: the action (a ``DrawCard``'s card and a ``StealCard``'s resource may be None).
        author: the seat whose message carried it, None for a chance outcome.
        message_id: the message that made it happen.
        position: for a deck draw (``DrawCard``, or a game's own such as Seafarers'
            ``ExploreFog``), the deck position dealt.
        steal: for a ``StealCard``, the steal's record.
        counts: for a ``MonopolyTake``, each seat's ``count`` message id (b"" for the player).
        deck: for a deck draw, the deck's label (``"development"``, ``"fog"``, ...).
        loot: for the fleet's loot (Pirate Islands), its record.
        hand: for a hand opened to one seat and the cards then taken (the Master Merchant),
            its record.
        spy: for a Spy's show and take, its record.
    """

    action: Action
    author: Seat | None
    message_id: bytes
    position: int | None = None
    steal: StealRecord | None = None
    counts: tuple[bytes, ...] = ()
    deck: str = ""
    loot: LootRecord | None = None
    hand: HandRecord | None = None
    spy: SpyRecord | None = None


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit's result.

    Attributes:
        deviations: every departure found, in the game's order (empty: the audit passed).
        draws: the development card dealt at each position, in dealing order (as far as the
            audit got).
        digest: 32 bytes every seat signs in ``audit_result``: the hash of the resolved
            full-information transcript and the deviations.
        dealt: every deck's faces at its dealt positions, in dealing order, by label in the
            rule set's order (``("development", (0, 4, ...)), ("fog", (...)), ...``).
    """

    deviations: tuple[Deviation, ...]
    draws: tuple[DevelopmentCard, ...]
    digest: bytes
    dealt: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def passed(self) -> bool:
        return not self.deviations


def report_digest(transcript: Sequence[bytes], deviations: Sequence[Deviation]) -> bytes:
    """``H(AUDIT_PREFIX || H(action_0) || ... || H(deviation_0) || ...)`` over the resolved
    actions (each the msgpack of its ``action_to_list`` form) and the deviations, each the
    msgpack of ``[seat or -1, message_id]``: who and where, not the words of the reason, so that
    independent auditors agree on the digest whenever they agree on the findings."""
    h = hashlib.sha256(AUDIT_PREFIX)
    for item in transcript:
        h.update(hashlib.sha256(item).digest())
    for deviation in deviations:
        seat = -1 if deviation.seat is None else deviation.seat
        h.update(hashlib.sha256(pack([seat, deviation.message_id])).digest())
    return h.digest()


@dataclass(frozen=True, slots=True)
class Contest:
    """The message an accusation contests (PROTOCOL.md §11.1), for an audit of the game so far.

    Attributes:
        accuser: the seat that signed the ``accuse``.
        accusation_id: the id of its ``accuse`` message.
        author: the contested message's author.
        message_id: the contested message's id.
        kind, payload: the contested message's kind and payload, as signed.
        entry: the engine action the contested message made (or, at its accuser, would have
            made) as the live game journals it; None when it made none (a ``count`` before
            the last, a ``turn_ack``).
        applied: False when the contested message was never applied here (only a false
            accusation names such a message: its accuser is named).
    """

    accuser: Seat
    accusation_id: bytes
    author: Seat
    message_id: bytes
    kind: str
    payload: tuple[object, ...]
    entry: JournalEntry | None
    applied: bool = True


@dataclass(frozen=True, slots=True)
class AuditInputs:
    """Everything the audit reads: public records of the live game plus every seat's secrets.

    Attributes:
        opening: the game's opening (chain commitments, X25519 public keys; the game, whose rule
            set the replay plays by).
        board: the board the game was played on; None for a game with a state of its own
            (Landnám), which its spec's state factory makes (:func:`new_state`).
        journal: every engine action in the order applied (:class:`JournalEntry`).
        secrets: per seat, ``(seed, x25519_private, audit_secrets message id)``.
        decks: every deck of the game as dealt (key shares, shuffles, final order, dealt
            count), in the rule set's order: the development deck first (PROTOCOL.md §13.10);
            none in a game without hidden stacks (Cities & Knights without progress cards).
        shuffle_ids: per deck (as ``decks``), per seat, the id of its ``shuffle`` message.
        contest: for an accused game (§11.1), the earliest contested message; the journal
            then holds the actions applied before it.
    """

    opening: Opening
    board: Board | None
    journal: tuple[JournalEntry, ...]
    secrets: tuple[tuple[bytes, bytes, bytes], ...]
    decks: tuple[Deck, ...]
    shuffle_ids: tuple[tuple[bytes, ...], ...]
    contest: Contest | None = None


class DeviationFound(Exception):
    """Stops the replay of the game at a deviation: what follows a broken rule is not the
    game's true course (:attr:`deviation` says which)."""

    def __init__(self, deviation: Deviation) -> None:
        super().__init__(deviation.reason)
        self.deviation = deviation


def run_audit(inputs: AuditInputs) -> AuditReport:
    """Audit a finished game (PROTOCOL.md §14); see the module docstring for what is checked.

    Every check that fails gives a :class:`Deviation`; the replay of the game stops at the first
    deviation in it (later states would rest on a false one). Never raises for bad data: bad
    secrets, shuffles, shares or actions are deviations.
    """
    deviations = _check_secrets(inputs)
    if deviations:
        return AuditReport(tuple(deviations), (), report_digest((), deviations))
    deviations = _check_shuffles(inputs)
    secrets = [derive_deck_secret(seed) for seed, _, _ in inputs.secrets]
    dealt: dict[str, tuple[int, ...]] = {}
    for deck in inputs.decks:
        if not deck.dealt:  # a generation nothing was drawn from (_check_shuffles)
            dealt[deck.label] = ()
            continue
        try:
            order = deck.open_all(secrets)
        except DeckError as exc:
            reason = f"the {deck.label} deck does not decrypt: {exc.reason}"
            deviations.append(Deviation(exc.seat, b"", reason))
            return AuditReport(tuple(deviations), (), report_digest((), deviations))
        dealt[deck.label] = tuple(deck.face(order[p]) for p in range(deck.dealt))
    draws = tuple(dev_card(face) for face in dealt.get(DEVELOPMENT_DECK, ()))
    transcript: list[bytes] = []
    state = new_state(inputs)
    try:
        _replay(inputs, draws, dealt, transcript, state)
        if inputs.contest is not None:
            _judge(inputs, draws, dealt, inputs.contest, state)
    except DeviationFound as exc:
        deviations.append(exc.deviation)
    if inputs.contest is not None:
        # Seats that froze at different points of the game agree on the verdict, not on how far
        # their journals reach: an accused game's digest covers the findings alone (§11.1).
        transcript = []
    return AuditReport(
        tuple(deviations), draws, report_digest(transcript, deviations), tuple(dealt.items())
    )


def new_state(inputs: AuditInputs) -> TableGame:
    """The full-information state a replay starts from: a fresh :class:`GameState` on the
    board as laid, or a game with a state of its own as its spec's state factory makes it
    (the seats, the options and the game all from the opening)."""
    opening = inputs.opening
    spec = state_spec(opening.game)
    if spec is not None and spec.state is not None:
        return spec.state(opening.game, len(opening.seats), opening.game_options())
    assert inputs.board is not None
    return GameState(inputs.board, len(opening.seats), opening.game_options(), opening.rules())


def _judge(
    inputs: AuditInputs,
    draws: Sequence[DevelopmentCard],
    dealt: Mapping[str, Sequence[int]],
    contest: Contest,
    state: TableGame,
) -> None:
    """Judge the contested message in ``state``, the true state after the journal (PROTOCOL.md
    §11.1): raise :class:`DeviationFound` naming its author when the true state refutes it,
    else naming the accuser (nothing before the message deviated, and the message is true)."""
    author = contest.author
    node = state.chance_node()
    if (
        contest.applied
        and contest.kind == "count"
        and node is not None
        and node.count
        and isinstance(state, GameState)
    ):
        count = contest.payload[1]  # (turn, count) or (turn, count, index): checked on the wire
        if isinstance(count, int) and count != node.count.of(state.hands[author]):
            raise DeviationFound(_miscount(author, contest.message_id, count, node.count, state))
    if contest.applied and contest.kind == "turn_ack":
        _, digest, _ = contest.payload
        if digest != bytes.fromhex(state.public_hash()):
            raise DeviationFound(
                Deviation(
                    author,
                    contest.message_id,
                    f"seat {author} acknowledged a public state the game never reached",
                )
            )
    if contest.applied and contest.entry is not None:
        for _ in resolved_actions(_with_journal(inputs, (contest.entry,)), draws, dealt, state):
            pass
    accuser = contest.accuser
    what = (
        "a message it never applied" if not contest.applied else "a message the true state allows"
    )
    raise DeviationFound(
        Deviation(
            accuser,
            contest.accusation_id,
            f"seat {accuser} accused seat {author}'s {contest.kind}, {what}",
        )
    )


def _with_journal(inputs: AuditInputs, journal: tuple[JournalEntry, ...]) -> AuditInputs:
    return AuditInputs(
        inputs.opening, inputs.board, journal, inputs.secrets, inputs.decks, inputs.shuffle_ids
    )


def _check_secrets(inputs: AuditInputs) -> list[Deviation]:
    """Each seat's revealed secrets against its commitments in the opening and its key share."""
    found: list[Deviation] = []
    for seat, (seed, x25519_private, message_id) in enumerate(inputs.secrets):
        info = inputs.opening.seats[seat]
        if chain_commitment(seed) != info.chain_commitment:
            found.append(
                Deviation(seat, message_id, f"seat {seat}'s seed does not hash to its chain")
            )
            continue
        try:
            public = GameKeys.from_private_bytes(x25519_private).public_bytes
        except (IdentityError, ValueError):
            public = b""
        if public != info.x25519_public:
            found.append(
                Deviation(seat, message_id, f"seat {seat}'s X25519 key is not the opening's")
            )
        try:
            share = base_mul(derive_deck_secret(seed))
        except GroupError:
            share = b""
        if inputs.decks and share != inputs.decks[0].key.share(seat):  # one key: every deck's
            found.append(
                Deviation(seat, message_id, f"seat {seat}'s deck key share is not its seed's")
            )
    return found


def _check_shuffles(inputs: AuditInputs) -> list[Deviation]:
    """Each seat's published shuffle of every deck a card was drawn from against the one its
    seed gives (its output deck).

    A deck nothing was drawn from played no part in the game and is skipped: a game with a
    state of its own may begin a new generation (§13.11) just before it is won, and its
    shuffles are still arriving when the audit runs, at a different point on every peer; which
    decks were drawn from is fixed by the game's own order, the same on every peer."""
    found: list[Deviation] = []
    for deck, ids in zip(inputs.decks, inputs.shuffle_ids, strict=True):
        if not deck.dealt:
            continue
        for seat, (seed, _, _) in enumerate(inputs.secrets):
            commitment, _ = deck.shuffle(seed, deck.shuffle_input(seat))
            if list(commitment.output) != list(deck.shuffle_output(seat)):
                found.append(
                    Deviation(
                        seat,
                        ids[seat],
                        f"seat {seat}'s shuffle of the {deck.label} deck is not its seed's",
                    )
                )
    return found


def _replay(
    inputs: AuditInputs,
    draws: Sequence[DevelopmentCard],
    dealt: Mapping[str, Sequence[int]],
    transcript: list[bytes],
    state: TableGame,
) -> None:
    """Replay the journal on ``state``, a full-information state, with every hidden
    part resolved; raise :class:`DeviationFound` at the first action the true state refuses."""
    for action in resolved_actions(inputs, draws, dealt, state):
        transcript.append(pack(action_to_list(action)))


def resolved_actions(
    inputs: AuditInputs,
    draws: Sequence[DevelopmentCard],
    dealt: Mapping[str, Sequence[int]] | None = None,
    state: TableGame | None = None,
) -> Iterator[Action]:
    """The journal's actions with every hidden part resolved (each drawn card from ``draws``,
    each stolen card from the victim's opened commitment), each yielded once the
    full-information :class:`GameState` has checked and applied it: the whole game as it truly
    went (`hexlan replay` shows every hand from it).

    Args:
        inputs: the audit's inputs (:meth:`hexlan.net.session.Session.audit_inputs`).
        draws: the development card dealt at each deck position (:attr:`AuditReport.draws`).
        dealt: every deck's faces by position (:attr:`AuditReport.dealt`); when given, each
            public draw (a fog tile) must show the face at its position.
        state: the full-information state to replay on (it advances); a new game by default.

    Raises:
        DeviationFound: at the first action the true hands refuse (a game whose audit fails).
    """
    if state is None:
        state = new_state(inputs)
    for entry in inputs.journal:
        action = entry.action
        if isinstance(action, A.DrawCard):
            assert entry.position is not None
            action = A.DrawCard(draws[entry.position])
        elif entry.deck and dealt is not None:  # a draw from a deck the game's rules name
            # a fog tile every seat opened, or a progress card its drawer alone saw
            assert entry.position is not None
            face = dealt[entry.deck][entry.position]
            true = state.draw_outcome(face)  # the outcome the game's rules give the face
            if action not in (true, state.observation(true, NO_SEAT)):
                raise DeviationFound(
                    Deviation(
                        None,
                        entry.message_id,
                        f"position {entry.position} of the {entry.deck} deck holds face {face},"
                        f" not the one {action} shows",
                    )
                )
            action = true
        elif isinstance(state, GameState):
            action = _opened(inputs, state, entry, action)
        try:
            state.check(action)
            state.apply(action)
        except (IllegalActionError, EngineError) as exc:
            raise DeviationFound(
                Deviation(entry.author, entry.message_id, f"with the true hands, {action}: {exc}")
            ) from exc
        yield action


def _opened(inputs: AuditInputs, state: GameState, entry: JournalEntry, action: Action) -> Action:
    """A Catan journal entry's action with what a hand's opening proves resolved: a steal's
    card, a Monopoly's counts checked, a hand or the Spy's cards opened, the fleet's loot."""
    if isinstance(action, A.StealCard):
        assert entry.steal is not None
        return A.StealCard(_stolen(inputs, state, entry.steal))
    if isinstance(action, A.MonopolyTake):
        _check_counts(state, action, entry)
    elif entry.hand is not None:
        return _opened_hand(inputs, state, entry.hand)
    elif entry.spy is not None:
        return _spied(inputs, state, entry.spy, action)
    elif entry.loot is not None:
        loot = entry.loot
        _check_committed(inputs, state, loot.victim, loot.steal, loot.commitments, loot.commit_id)
    return action


def _stolen(inputs: AuditInputs, state: GameState, steal: StealRecord) -> Resource:
    """The resource a steal really moved; the victim's commitments must be those of the hand
    it held, in its seed's order with its seed's salts, and the opening must match."""
    victim, game_id = steal.victim, inputs.opening.game_id
    _check_committed(inputs, state, victim, steal.steal, steal.commitments, steal.commit_id)
    x25519_private = inputs.secrets[victim][1]
    victim_key = GameKeys.from_private_bytes(x25519_private).private_key
    thief_public = inputs.opening.seats[steal.thief].x25519_public
    try:
        salt, kind = open_opening(
            victim_key,
            thief_public,
            game_id,
            steal.steal,
            steal.index,
            steal.nonce,
            steal.ciphertext,
        )
    except (StealOpeningError, ValueError) as exc:
        raise DeviationFound(
            Deviation(victim, steal.open_id, f"seat {victim}'s steal opening is false: {exc}")
        ) from exc
    if not check_opening(steal.commitments[steal.index], game_id, steal.steal, salt, kind):
        raise DeviationFound(
            Deviation(victim, steal.open_id, f"seat {victim} opened a card it had not committed")
        )
    if kind >= len(state.rules.cards):  # a kind 0..7 of no hand of this game
        raise DeviationFound(
            Deviation(victim, steal.open_id, f"seat {victim} opened a card kind the game has not")
        )
    return state.rules.cards[kind]


def _opened_hand(inputs: AuditInputs, state: GameState, hand: HandRecord) -> Action:
    """The true outcome of a hand opened to one seat: at the show, the victim's commitments
    must be its true hand in its seed's order and salts, and every sealed opening must match
    (else the victim and its message); at the take, the cards at the named positions."""
    victim, game_id = hand.victim, inputs.opening.game_id
    cards = [r for r, n in enumerate(state.hands[victim]) for _ in range(n)]
    if not hand.positions:
        _check_committed(inputs, state, victim, hand.steal, hand.commitments, hand.commit_id)
        victim_key = GameKeys.from_private_bytes(inputs.secrets[victim][1]).private_key
        try:
            open_hand(
                victim_key,
                inputs.opening.seats[hand.player].x25519_public,
                game_id,
                hand.steal,
                hand.nonce,
                hand.ciphertext,
                hand.commitments,
            )
        except (StealOpeningError, ValueError) as exc:
            raise DeviationFound(
                Deviation(victim, hand.open_id, f"seat {victim}'s hand opening is false: {exc}")
            ) from exc
        return HandShown(victim, as_hand(state.hands[victim]))
    order, salts, _ = derive_steal_secrets(inputs.secrets[victim][0], hand.steal, len(cards))
    openings = commit_hand(game_id, hand.steal, cards, order=order, salts=salts).openings
    taken = [0] * state.kinds
    for position in hand.positions:
        taken[openings[position][1]] += 1
    return HandTake(as_hand(taken))


def _spied(inputs: AuditInputs, state: GameState, spy: SpyRecord, action: Action) -> Action:
    """The true outcome of a Spy's show or take: every card re-encrypted to the player, read
    with its secret, must be the card at its position (else the victim and its ``spy_open``);
    the card taken must not have been shown before the take (else the player and its
    ``spy_take``)."""
    decks = {deck.label: deck for deck in inputs.decks}
    secret = derive_deck_secret(inputs.secrets[spy.player][0])

    def read(label: str, moved: bytes) -> int:
        try:
            return decks[label].open_moved(moved, secret, spy.player)
        except DeckError as exc:  # a proven re-encryption is a card: never, in practice
            reason = f"seat {spy.victim}'s re-encryption of a {label} card is no card"
            raise DeviationFound(Deviation(spy.victim, spy.open_id, reason)) from exc

    if isinstance(action, DeckShown):
        secrets = [derive_deck_secret(seed) for seed, _, _ in inputs.secrets]
        orders = {label: decks[label].open_all(secrets) for label in {i[0] for i in spy.items}}
        for label, position, moved, _ in spy.items:
            if read(label, moved) != orders[label][position]:
                raise DeviationFound(
                    Deviation(
                        spy.victim,
                        spy.open_id,
                        f"seat {spy.victim}'s re-encryption of position {position} of the "
                        f"{label} deck is not its card",
                    )
                )
        outcomes = state.chance_outcomes()  # the full state: the one true hand
        if len(outcomes) != 1:
            reason = f"the true state shows seat {spy.victim}'s progress cards in no one way"
            raise DeviationFound(Deviation(None, spy.open_id, reason))
        return outcomes[0][0]
    if not spy.deck:
        return action
    moved = next(m for label, p, m, _ in spy.items if (label, p) == (spy.deck, spy.position))
    index = read(spy.deck, moved)
    if index in spy.shown:
        raise DeviationFound(
            Deviation(
                spy.player,
                spy.take_id,
                f"seat {spy.player} took card {index} of the {spy.deck} deck, already played",
            )
        )
    assert isinstance(action, DeckTake)  # the journal's take names its deck by index
    return DeckTake(action.deck, decks[spy.deck].face(index))


def _check_committed(
    inputs: AuditInputs,
    state: GameState,
    victim: Seat,
    number: int,
    commitments: tuple[bytes, ...],
    commit_id: bytes,
) -> None:
    """A steal's or a loot's commitments (number ``number``) must be those of the hand
    ``victim`` held, in its seed's order with its seed's salts (PROTOCOL.md §7)."""
    seed = inputs.secrets[victim][0]
    cards = [r for r, n in enumerate(state.hands[victim]) for _ in range(n)]
    order, salts, _ = derive_steal_secrets(seed, number, len(cards))
    if len(cards) != len(commitments) or (
        commit_hand(inputs.opening.game_id, number, cards, order=order, salts=salts).commitments
        != commitments
    ):
        raise DeviationFound(
            Deviation(
                victim,
                commit_id,
                f"seat {victim} committed to a hand it did not hold (steal {number})",
            )
        )


def _check_counts(state: GameState, take: A.MonopolyTake, entry: JournalEntry) -> None:
    """Each counting seat's count against the cards it really held, by the count node's rule
    (a Monopoly's resource, at most the cap of a Cities & Knights Resource or Trade
    Monopoly)."""
    node = state.chance_node()
    assert node is not None and node.count is not None
    for seat in node.seats:
        amount = take.amounts[seat]
        if amount != node.count.of(state.hands[seat]):
            message_id = entry.counts[seat] if seat < len(entry.counts) else entry.message_id
            raise DeviationFound(_miscount(seat, message_id, amount, node.count, state))


def _miscount(
    seat: Seat, message_id: bytes, count: int, rule: Count, state: GameState
) -> Deviation:
    """The deviation of ``seat``'s ``count`` (message ``message_id``), untrue by ``rule`` of
    the hand ``state`` gives it."""
    held = state.hands[seat][rule.kind]
    return Deviation(
        seat,
        message_id,
        f"seat {seat} counted {count} {rule.kind.name.lower()} but held {held}",
    )
