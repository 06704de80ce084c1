"""Fairness against a cheating seat: the mental-poker development deck, private steals and the
end-of-game audit (docs/PROTOCOL.md §7, §11, §13, §14; net/dealing.py, net/deck.py,
net/shuffle.py, net/proofs.py, net/steal.py, net/audit.py and net/verify.py).

Each test lets exactly one seat deviate while every session of :class:`test_session.Table` runs
the real protocol, and checks that the deviation is caught *and* pinned on the right seat with
its evidence: ``Stopped.author`` and the offending envelope in ``Stopped.evidence`` for what is
caught at once, ``Deviation.seat`` and ``Deviation.message_id`` for what only the audit can see,
``Violation.author`` for `hexlan verify`. A seat deviates in one of three ways:

- its message is changed on its way and signed again with the seat's own key
  (:attr:`Table.tamper` and :func:`resign`), when the game stops before the seat's next message
  (whose ``prev`` would name the original) matters;
- messages are forged in its name (:func:`forge_chain`) and given to the others;
- its own session is made to cheat (a patched method on the session, its dealer or its view), so
  that it signs the lie itself and goes on consistently with it, for deviations that only the
  audit can catch.

Games are seeded; situations are found with :func:`first_game_reaching` (the first seeded game
that reaches one), and a table reached once is shared between tests through :func:`snapshot`.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType

import bot_games
import pytest
from test_session import (
    Table,
    check_same_end,
    first_game_reaching,
    play,
    play_until,
    resign,
    robbing,
    view_of,
)

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import (
    NO_SEAT,
    RESOURCES,
    DevCard,
    Hand,
    IllegalActionError,
    Phase,
    Resource,
    Seat,
    as_hand,
)
from hexlan.net.audit import AuditReport, Deviation, StealRecord
from hexlan.net.dealing import Dealer
from hexlan.net.deck import Deck, derive_deck_secret
from hexlan.net.effects import Effect, Send
from hexlan.net.group import add, base_mul
from hexlan.net.redteam import swap_in_another_card
from hexlan.net.session import AUTOMATIC_TIMEOUT, DEVELOPMENT_DECK, Session
from hexlan.net.shuffle import card_point
from hexlan.net.steal import CommittedHand, commit_hand, derive_steal_secrets
from hexlan.net.subprotocols.base import Step
from hexlan.net.verify import (
    EXIT_INVALID,
    EXIT_UNFINISHED,
    EXIT_VALID,
    LogReport,
    verify_logs,
)
from hexlan.net.wire import PROTOCOL_VERSION, ZERO_ID, Body, Envelope, encode_action, sign_body

Situation = Callable[[Table], Callable[[Seat, Action], bool]]

# ---------------------------------------------------------------------------- helpers


def snapshot(table: Table) -> Table:
    """An independent copy of a quiet table, to deviate from without touching the original.

    Everything is copied but each seat's keys and the opening, which are immutable and cannot
    be copied (the private keys live in ``cryptography``'s Rust objects): the copy's sessions,
    bots, logs and delivery order go on exactly as the original's would.
    """
    shared: dict[int, object] = {id(table.opening): table.opening}
    for session in table.sessions:
        for keys in (session.identity, session.chain, session.game_keys):
            shared[id(keys)] = keys
    return copy.deepcopy(table, shared)


def others(table: Table, *seats: Seat) -> list[Seat]:
    """Every seat of the table but ``seats``."""
    return [s for s in range(len(table.sessions)) if s not in seats]


def one(resource: Resource) -> Hand:
    """A hand of one card of ``resource``."""
    return as_hand([int(r == resource) for r in RESOURCES])


def signed(table: Table, seat: Seat, kind: str, *, since: int = 0) -> list[Envelope]:
    """The messages of ``kind`` that ``seat`` signed itself, from its log (from record
    ``since`` on), oldest first."""
    envelopes = (Envelope.parse(data) for data in table.logs[seat][since:])
    return [env for env in envelopes if env.body.author == seat and env.body.kind == kind]


def forge_chain(
    table: Table, author: Seat, steps: Sequence[tuple[str, tuple[object, ...]]]
) -> list[bytes]:
    """Consecutive envelopes ``author`` could sign next, one per ``(kind, payload)``: each
    follows the previous one in its hash chain and lists it in its heads, as a real session's
    ``card_reveal`` then ``action`` do. Signed with the seat's own key; nobody has them yet."""
    session = table.sessions[author]
    own = session.accepted[author]
    seq, prev = len(own), own[-1].id if own else ZERO_ID
    heads = list(session.heads())
    forged: list[bytes] = []
    for kind, payload in steps:
        body = Body(
            PROTOCOL_VERSION, table.opening.game_id, author, seq, prev, tuple(heads), kind, payload
        )
        env = sign_body(body, session.identity)
        forged.append(env.to_bytes())
        heads[author] = (seq, env.id)
        seq, prev = seq + 1, env.id
    return forged


def falsify(
    table: Table, kind: str, author: Seat, change: Callable[[Envelope], bytes]
) -> list[bytes]:
    """From now on, ``author``'s next message of ``kind`` reaches every other seat changed.

    Returns the changed envelope once it has been sent (a list, empty until then).
    """
    changed: list[bytes] = []

    def tamper(env: Envelope) -> bytes | None:
        if env.body.kind == kind and env.body.author == author and not changed:
            changed.append(change(env))
            return changed[0]
        return env.to_bytes()

    table.tamper = tamper
    return changed


def flip(data: bytes, at: int) -> bytes:
    """``data`` with the lowest bit of byte ``at`` flipped."""
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


def assert_stopped(
    table: Table, culprit: Seat, evidence: bytes, seats: Sequence[Seat], words: str
) -> None:
    """Each of ``seats`` stopped the game naming ``culprit``, with ``evidence`` kept."""
    for seat in seats:
        stop = table.sessions[seat].stopped
        assert stop is not None, f"seat {seat} did not stop the game"
        assert stop.author == culprit, stop.reason
        assert words in stop.reason, stop.reason
        assert evidence in stop.evidence, f"seat {seat} kept other evidence: {stop.reason}"


def write_log(path: Path, table: Table, seat: Seat) -> Path:
    """``seat``'s log as a file `hexlan verify` reads (:func:`bot_games.write_log`)."""
    return bot_games.write_log(path, table.opening.to_payload(), table.logs[seat])


def audit_of(session: Session) -> AuditReport:
    """The session's completed audit (every seat signed a result)."""
    assert session.audited is not None, f"seat {session.seat}'s audit is not complete"
    return session.audited.report


def deck_secret(session: Session) -> bytes:
    """A seat's ElGamal secret for the deck, from its per-game seed (a god's view)."""
    return derive_deck_secret(session.chain.secret)


def unplayed(dealer: Dealer) -> list[int]:
    """Positions dealt to the dealer's seat whose card it has not shown."""
    return sorted(p for p in dealer.own_cards if dealer.deck.shown_by(dealer.own_index[p]) is None)


def draws_seen(session: Session) -> dict[int, DevCard | None]:
    """The card dealt at each position as the session's engine took it (None: hidden)."""
    seen: dict[int, DevCard | None] = {}
    for entry in session.journal:
        if isinstance(entry.action, A.DrawCard):
            assert entry.position is not None
            seen[entry.position] = entry.action.card
    return seen


def last_steal(session: Session) -> tuple[StealRecord, Resource | None, bool] | None:
    """The session's last steal: its record, the card as the session saw it, and whether the
    turn it happened in is still going on; None before any steal."""
    for index in range(len(session.journal) - 1, -1, -1):
        entry = session.journal[index]
        if isinstance(entry.action, A.StealCard):
            assert entry.steal is not None
            later = session.journal[index + 1 :]
            ongoing = not any(isinstance(e.action, A.EndTurn) for e in later)
            return entry.steal, entry.action.resource, ongoing
    return None


# ---------------------------------------------------------------------------- situations


def buying(table: Table) -> Callable[[Seat, Action], bool]:
    """Stop at a seat's decision to buy a development card."""
    return lambda _, action: isinstance(action, A.BuyDevelopmentCard)


def may_play_a_card(table: Table) -> Callable[[Seat, Action], bool]:
    """Stop at a main-phase decision of the active seat when its opponents' views let it play a
    card (it holds one bought before this turn, and has played none this turn), it holds an
    unrevealed card other than a knight, and another seat holds an unrevealed card."""

    def stop(seat: Seat, _: Action) -> bool:
        session = table.sessions[seat]
        view, dealer = view_of(table, seat), session.dealer
        if view.phase is not Phase.MAIN or view.active != seat or view.dev_played_this_turn:
            return False
        return (
            view.dev_count[seat] > view.new_dev_count[seat]
            and other_seats_card(session) is not None
            and any(dealer.own_cards[p] != DevCard.KNIGHT for p in unplayed(dealer))
        )

    return stop


def other_seats_card(session: Session) -> int | None:
    """A position dealt to a seat other than ``session``'s, if any, while the other seats hold
    more cards than they have shown (so some of theirs is not shown yet)."""
    deck = session.dealer.deck
    theirs = [p for p in range(deck.dealt) if deck.owner(p) != session.seat]
    shown = sum(1 for i in range(deck.size) if deck.shown_by(i) not in (None, session.seat))
    return theirs[0] if len(theirs) > shown else None


@dataclass(frozen=True)
class Reached:
    """A table stopped at a seat's decision (not taken), to copy with :func:`snapshot`."""

    table: Table
    seat: Seat
    action: Action


@pytest.fixture(scope="module")
def at_a_purchase() -> Reached:
    """A 3-seat game at a seat's decision to buy a development card."""
    return Reached(*first_game_reaching(80, buying))


@pytest.fixture(scope="module")
def at_a_card_play() -> Reached:
    """A 3-seat game where the active seat may play a card (see :func:`may_play_a_card`)."""
    return Reached(*first_game_reaching(100, may_play_a_card))


@pytest.fixture(scope="module")
def at_a_robbery() -> Reached:
    """A 3-seat game at a robber move naming a victim that holds two kinds of resource."""
    return Reached(*first_game_reaching(130, lambda table: robbing(table, kinds=2)))


# ---------------------------------------------------------------------------- the deck: set-up


def test_a_shuffle_that_swaps_in_another_card_fails_its_proof_naming_the_shuffler() -> None:
    """The middle shuffler's output loses a card for a copy of another, its proof made from its
    honest shuffle's secret: the proof fails, and every other seat stops naming it, with its
    proof as evidence."""
    table = Table(3, seed=70)
    cheat = 1
    swap_in_another_card(table.sessions[cheat].dealer, target=3, source=7)
    table.start()

    (shuffle,) = signed(table, cheat, "shuffle")
    (proof,) = signed(table, cheat, "shuffle_proof")
    honest = others(table, cheat)
    for seat in honest:
        deck = table.sessions[seat].dealer.deck
        # the deck itself was well-formed: accepted, then refuted by the proof
        assert table.sessions[seat].accepted[cheat][shuffle.body.seq].id == shuffle.id
        assert not deck.ready and deck.dealt == 0
    assert_stopped(table, cheat, proof.to_bytes(), honest, f"seat {cheat}'s shuffle proof fails")
    stop = table.sessions[honest[0]].stopped
    assert stop is not None
    assert "the challenge is not the hash of the recomputed commitments" in stop.reason
    assert table.sessions[cheat].stopped is None  # it does not check its own shuffle


def test_an_equivocating_shuffler_is_named_with_both_bodies() -> None:
    """Two signed ``shuffle`` bodies with one sequence number reach the others during the deck's
    set-up: they stop naming the shuffler and keep both bodies."""
    table = Table(3, seed=91)
    cheat = 1
    bodies: list[bytes] = []

    def equivocate(env: Envelope) -> bytes:
        """The shuffle reaches everyone; a second body for its number follows at once."""
        data = env.to_bytes()
        if env.body.kind == "shuffle" and env.body.author == cheat and not bodies:
            label, output = env.body.payload
            swapped = output[64:128] + output[:64] + output[128:]  # another deck, same cards
            second = resign(env, table, payload=(label, swapped))
            bodies.extend((data, second))
            for seat in others(table, cheat):
                table._queue.append((seat, second))
        return data

    table.tamper = equivocate
    table.start()
    assert len(bodies) == 2
    first, second = (Envelope.parse(data) for data in bodies)
    assert (first.body.author, first.body.seq) == (second.body.author, second.body.seq)
    for seat in others(table, cheat):
        stop = table.sessions[seat].stopped
        assert stop is not None and stop.author == cheat, stop
        assert f"seat {cheat} signed two different messages as number {first.body.seq}" in (
            stop.reason
        )
        assert stop.evidence == tuple(bodies)  # both signed bodies, the first seen first
        assert not table.sessions[seat].dealer.deck.challenged  # stopped during the set-up


# ---------------------------------------------------------------------------- the deck: dealing


def test_a_false_decryption_share_stops_the_game_naming_its_author(
    at_a_purchase: Reached,
) -> None:
    """A ``draw_share`` for a bought card whose share point is not ``A·x`` (its proof, honest
    for the true point, no longer fits), signed again by its author."""
    table = snapshot(at_a_purchase.table)
    buyer = at_a_purchase.seat
    liar = (buyer + 1) % 3

    def wrong_point(env: Envelope) -> bytes:
        label, position, share, proof = env.body.payload
        wrong = add(share, base_mul((1).to_bytes(32, "little")))  # A·x + G
        return resign(env, table, payload=(label, position, wrong, proof))

    changed = falsify(table, "draw_share", liar, wrong_point)
    table.act(buyer, at_a_purchase.action)
    assert changed, "the liar never gave its share"
    assert_stopped(table, liar, changed[0], others(table, liar), f"seat {liar}'s decryption share")
    assert table.sessions[buyer].dealer.drawing is not None  # the card was never opened


@pytest.mark.parametrize("message", ["deck_key", "draw_share", "card_reveal"])
def test_a_forged_proof_stops_the_game_naming_its_author(
    message: str, request: pytest.FixtureRequest
) -> None:
    """A Schnorr key proof, or a DLEQ proof of a decryption share given for a draw or shown for
    a play, with one bit flipped and signed again by its author."""
    if message == "deck_key":
        table, liar = Table(3, seed=90), 2

        def flipped_key(env: Envelope) -> bytes:
            share, proof = env.body.payload
            return resign(env, table, payload=(share, flip(proof, 5)))

        sent = falsify(table, "deck_key", liar, flipped_key)
        table.start()
        words = f"seat {liar}'s key share"
    elif message == "draw_share":
        reached: Reached = request.getfixturevalue("at_a_purchase")
        table, liar = snapshot(reached.table), (reached.seat + 2) % 3

        def flipped_share(env: Envelope) -> bytes:
            label, position, share, proof = env.body.payload
            return resign(env, table, payload=(label, position, share, flip(proof, 40)))

        sent = falsify(table, "draw_share", liar, flipped_share)
        table.act(reached.seat, reached.action)
        words = f"seat {liar}'s decryption share"
    else:
        reached = request.getfixturevalue("at_a_card_play")
        table, liar = snapshot(reached.table), reached.seat
        dealer = table.sessions[liar].dealer
        label, index, positions, proof = dealer.show_payload(unplayed(dealer)[0], None)
        assert isinstance(proof, tuple)
        forged = (label, index, positions, (flip(proof[0], 3), *proof[1:]))
        sent = forge_chain(table, liar, [("card_reveal", forged)])
        table.inject(sent[0], to=others(table, liar))
        words = f"seat {liar}'s card reveal"
    assert len(sent) == 1, f"seat {liar} never sent its {message}"
    assert_stopped(table, liar, sent[0], others(table, liar), words)


# ---------------------------------------------------------------------------- the deck: plays


@pytest.mark.parametrize("how", ["no reveal", "another type", "another seat's card"])
def test_playing_a_card_the_seat_does_not_hold_stops_the_game(
    at_a_card_play: Reached, how: str
) -> None:
    """A knight played with no card shown, after showing one of the seat's own cards of another
    type, or after showing a card dealt to another seat (a valid share of it: every seat can
    make its own share of any position)."""
    table = snapshot(at_a_card_play.table)
    cheat = at_a_card_play.seat
    dealer = table.sessions[cheat].dealer
    for seat in others(table, cheat):
        view_of(table, seat).check(A.PlayKnight())  # possible, as far as its view knows
    knight = ("action", encode_action(A.PlayKnight()))
    words = f"seat {cheat} played Knight without revealing one it drew"
    if how == "no reveal":
        steps = [knight]
    elif how == "another type":
        own = next(p for p in unplayed(dealer) if dealer.own_cards[p] != DevCard.KNIGHT)
        steps = [("card_reveal", dealer.show_payload(own, None)), knight]
    else:
        # its own card's show, listing a position dealt to another seat instead
        theirs = other_seats_card(table.sessions[cheat])
        assert theirs is not None
        label, index, _, proof = dealer.show_payload(unplayed(dealer)[0], None)
        assert isinstance(proof, tuple)
        steps = [("card_reveal", (label, index, (theirs,), proof[:1])), knight]
        words = f"seat {cheat} listed position {theirs}, not a card it holds"
    forged = forge_chain(table, cheat, steps)
    for data in forged:
        table.inject(data, to=others(table, cheat))
    # the offending message: the reveal of another seat's card, else the play
    evidence = forged[0] if how == "another seat's card" else forged[-1]
    assert_stopped(table, cheat, evidence, others(table, cheat), words)


def bought_a_card_to_play(table: Table) -> Callable[[Seat, Action], bool]:
    """Stop at a purchase by a seat that may play a card this turn (it holds an older one) and
    has played none yet."""

    def stop(seat: Seat, action: Action) -> bool:
        view = view_of(table, seat)
        return (
            isinstance(action, A.BuyDevelopmentCard)
            and view.phase is Phase.MAIN
            and not view.dev_played_this_turn
            and view.dev_count[seat] > view.new_dev_count[seat]
        )

    return stop


PLAYS: dict[DevCard, Action] = {
    DevCard.KNIGHT: A.PlayKnight(),
    DevCard.MONOPOLY: A.PlayMonopoly(Resource.ORE),
}


def first_purchase_of_a_playable_card(seed: int, tries: int = 20) -> tuple[Table, Seat, int]:
    """The first seeded game from ``seed`` on in which a seat holding an older card buys a
    knight or a monopoly of which it holds no older one: the table just after the purchase,
    the seat and the new card's position."""
    for attempt in range(seed, seed + tries):
        table = Table(3, seed=attempt)
        table.start()
        while (found := play(table, stop=bought_a_card_to_play(table))) is not None:
            seat, buy = found
            table.act(seat, buy)
            session, view = table.sessions[seat], view_of(table, seat)
            position = max(session.dealer.own_cards)
            card = DevCard(session.dealer.own_cards[position])
            older = view.dev_cards[seat][card] - view.new_dev_cards[seat][card]
            if card in PLAYS and not older and view.phase is Phase.MAIN:
                return table, seat, position
    raise AssertionError(f"no game from seed {seed} on buys a card to play at once")


@dataclass(frozen=True)
class Purchase:
    """A table just after ``seat`` bought, at ``position``, a card it may not play this turn."""

    table: Table
    seat: Seat
    position: int

    @property
    def play(self) -> Action:
        """The play of the card bought."""
        return PLAYS[DevCard(self.table.sessions[self.seat].dealer.own_cards[self.position])]


@pytest.fixture(scope="module")
def new_card() -> Purchase:
    """See :func:`first_purchase_of_a_playable_card`."""
    return Purchase(*first_purchase_of_a_playable_card(110))


def test_playing_a_card_bought_this_turn_stops_the_game_at_once(new_card: Purchase) -> None:
    """The rules forbid playing a card the turn it was bought (seed 002); every seat knows in
    which turn each position was dealt, so a play that shows this turn's card is refutable at
    once, like the plays above."""
    table, cheat = snapshot(new_card.table), new_card.seat
    dealer = table.sessions[cheat].dealer
    with pytest.raises(IllegalActionError):
        table.sessions[cheat].submit(new_card.play)  # its own session refuses
    for seat in others(table, cheat):
        view_of(table, seat).check(new_card.play)  # its view cannot tell
    forged = forge_chain(
        table,
        cheat,
        [
            ("card_reveal", dealer.show_payload(new_card.position, None)),
            ("action", encode_action(new_card.play)),
        ],
    )
    for data in forged:
        table.inject(data, to=others(table, cheat))
    assert_stopped(table, cheat, forged[-1], others(table, cheat), f"seat {cheat}")


def playing_with_older_cards(table: Table) -> Callable[[Seat, Action], bool]:
    """Stop at a card play (knight or monopoly) by a seat whose card to show is not alone among
    the cards dealt to it before this turn."""

    def stop(seat: Seat, action: Action) -> bool:
        card = {type(play): face for face, play in PLAYS.items()}.get(type(action))
        if card is None:
            return False
        dealer, turn = table.sessions[seat].dealer, view_of(table, seat).turn
        position = dealer.unshown_own(card, turn)
        return position is not None and len(dealer.eligible(seat, turn)) >= 2

    return stop


@pytest.fixture(scope="module")
def at_a_shown_play() -> Reached:
    """A 3-seat game at a knight or monopoly play among several older cards."""
    return Reached(*first_game_reaching(140, playing_with_older_cards))


def test_a_show_names_no_position_of_the_card(at_a_shown_play: Reached) -> None:
    """The attack: showing the card at position ``p`` told every opponent that the owner's
    eligible positions below ``p`` hold no card of that type. Now the show lists every position
    dealt to the owner before this turn, as any opponent computes it from public information
    (owners and deal turns), whichever holds the card: the payload is ``[deck, card,
    positions, proof]`` with one proof entry per listed position; the opponents accept it and
    learn the card and its face, and nothing of which position it was."""
    table = snapshot(at_a_shown_play.table)
    seat, play = at_a_shown_play.seat, at_a_shown_play.action
    dealer, turn = table.sessions[seat].dealer, view_of(table, seat).turn
    face = {type(p): f for f, p in PLAYS.items()}[type(play)]
    position = dealer.unshown_own(face, turn)
    assert position is not None
    index = dealer.own_index[position]
    before = len(table.logs[seat])
    table.act(seat, play)
    (show,) = signed(table, seat, "card_reveal", since=before)
    label, card, listed, proof = show.body.payload
    assert (label, card) == (DEVELOPMENT_DECK, index)
    for other in others(table, seat):
        session = table.sessions[other]
        assert session.stopped is None
        deck, dealt_in = session.dealer.deck, session.dealer.dealt_in
        public = [p for p in range(deck.dealt) if deck.owner(p) == seat and dealt_in[p] < turn]
        assert list(listed) == public and len(proof) == len(public) >= 2
        assert deck.shown_by(index) == seat
    # the card is one of them, and the list holds others: which one it was is not said
    assert position in listed and set(listed) - {position}


def test_a_card_shown_twice_stops_the_game_naming_its_author(at_a_card_play: Reached) -> None:
    """The card point is a nullifier: a second show of one card, even with a valid proof (the
    same message content again), stops the game naming the seat."""
    table = snapshot(at_a_card_play.table)
    cheat = at_a_card_play.seat
    dealer = table.sessions[cheat].dealer
    payload = dealer.show_payload(unplayed(dealer)[0], None)
    forged = forge_chain(table, cheat, [("card_reveal", payload), ("card_reveal", payload)])
    for data in forged:
        table.inject(data, to=others(table, cheat))
    words = f"seat {cheat}'s card reveal: seat {cheat} showed card {payload[1]}, shown before"
    assert_stopped(table, cheat, forged[-1], others(table, cheat), words)


def test_a_card_not_at_the_listed_positions_stops_the_game(at_a_card_play: Reached) -> None:
    """A show of a card the seat does not hold (another seat's card, not shown yet), listing the seat's own
    positions with the proof made for one of its own cards: the proof does not verify."""
    table = snapshot(at_a_card_play.table)
    cheat = at_a_card_play.seat
    dealer = table.sessions[cheat].dealer
    unshown = [
        p
        for p in range(dealer.deck.dealt)
        if dealer.deck.owner(p) != cheat
        and dealer.deck.shown_by(table.sessions[dealer.deck.owner(p)].dealer.own_index[p]) is None
    ]
    assert unshown, "no other seat holds a card not shown yet"
    theirs = unshown[0]
    owner = table.sessions[dealer.deck.owner(theirs)]
    their_index = owner.dealer.own_index[theirs]
    label, _, positions, proof = dealer.show_payload(unplayed(dealer)[0], None)
    forged = forge_chain(table, cheat, [("card_reveal", (label, their_index, positions, proof))])
    table.inject(forged[0], to=others(table, cheat))
    words = f"seat {cheat}'s proof that it holds card {their_index} does not verify"
    assert_stopped(table, cheat, forged[0], others(table, cheat), words)


# ---------------------------------------------------------------------------- steals


def commit_to_a_hand_of(session: Session, resource: Resource) -> list[int]:
    """Make the victim of the next steal commit to a hand of as many cards as it holds, all of
    ``resource``, in the order and with the salts its seed gives, and open the chosen one
    accordingly (sealed for the thief): its own session signs the lie and goes on with it.

    Returns the steals it lied about (their numbers), filled in as it does.
    """
    honest = session.openings.own_committed_hand
    events: list[int] = []

    def committed(event: int) -> CommittedHand:
        if events and events[0] != event:
            return honest(event)
        events[:] = [event]
        view = session.view
        assert view is not None
        cards = view.hand_size[session.seat]
        order, salts, _ = derive_steal_secrets(session.chain.secret, event, cards)
        return commit_hand(
            session.game_id, event, [int(resource)] * cards, order=order, salts=salts
        )

    session.openings.own_committed_hand = committed  # type: ignore[method-assign]
    return events


def verified_invalid(table: Table, tmp_path: Path) -> list[LogReport]:
    """`hexlan verify` on every seat's log of ``table``: exit 1; the logs' reports."""
    paths = [write_log(tmp_path / f"seat{seat}.hexlan", table, seat) for seat in range(3)]
    report = verify_logs(paths)
    assert report.exit_code == EXIT_INVALID
    return list(report.logs)


def test_a_victim_committing_to_a_hand_it_does_not_hold_is_named_by_the_audit(
    at_a_robbery: Reached, tmp_path: Path
) -> None:
    """The victim commits to a hand of its size made of one resource it does hold: the thief
    receives a card the victim could give, so nobody can tell until the audit."""
    table = snapshot(at_a_robbery.table)
    thief, move = at_a_robbery.seat, at_a_robbery.action
    assert isinstance(move, A.MoveRobber)
    victim = move.victim
    hand = as_hand(view_of(table, victim).hands[victim])  # before the steal
    resource = max(RESOURCES, key=lambda r: hand[r])
    assert sum(1 for n in hand if n) >= 2  # so the all-one-kind hand is not its hand
    assert view_of(table, thief).could_hold(victim, one(resource))  # the thief cannot tell
    lied_about = commit_to_a_hand_of(table.sessions[victim], resource)
    table.act(thief, move)
    assert table.problems() == []
    (commit,) = signed(table, victim, "steal_commit")
    event, commitments = commit.body.payload
    assert event == lied_about[0]
    order, salts, _ = derive_steal_secrets(table.sessions[victim].chain.secret, event, sum(hand))
    held = [int(r) for r in RESOURCES for _ in range(hand[r])]
    honest = commit_hand(table.opening.game_id, event, held, order=order, salts=salts)
    assert len(commitments) == len(honest) and tuple(commitments) != honest.commitments
    stolen = [e.action for e in table.sessions[thief].journal if isinstance(e.action, A.StealCard)]
    assert stolen[-1] == A.StealCard(resource)

    play(table)  # the game goes on to its end and its audit
    assert table.problems() == []
    expected = Deviation(
        victim,
        commit.id,
        f"seat {victim} committed to a hand it did not hold (steal {lied_about[0]})",
    )
    for session in table.sessions:
        assert audit_of(session).deviations == (expected,)
        assert session.audited is not None and session.audited.disagreeing == ()
    assert len({audit_of(s).digest for s in table.sessions}) == 1

    for log in verified_invalid(table, tmp_path):
        assert log.finished and log.audit == "failed"
        assert [(v.author, v.message_id) for v in log.violations] == [(victim, commit.id)]
        assert "committed to a hand it did not hold" in log.violations[0].reason


def test_a_thief_accuses_a_victim_committing_to_a_card_it_cannot_hold(
    at_a_robbery: Reached, tmp_path: Path
) -> None:
    """The same lie with a resource the thief knows the victim lacks: the opening is true, the
    commitment false, and only the thief can see it. The thief accuses the opening at once
    (§11.1); every seat publishes its secrets and the audit of the game so far names the victim
    and its commitment in every seat's session, third parties' included (before the
    accusation, the thief stopped alone and the others could vote it out as gone)."""
    table = snapshot(at_a_robbery.table)
    thief, move = at_a_robbery.seat, at_a_robbery.action
    assert isinstance(move, A.MoveRobber)
    victim = move.victim
    lacking = [r for r in RESOURCES if not view_of(table, thief).could_hold(victim, one(r))]
    assert lacking, "the thief's view allows every resource"
    commit_to_a_hand_of(table.sessions[victim], lacking[0])
    table.act(thief, move)
    (opening,) = signed(table, victim, "steal_open")
    (commit,) = signed(table, victim, "steal_commit")
    play(table)
    for session in table.sessions:
        assert session.accusations[thief][0] == opening.id
        stop = session.stopped
        assert stop is not None and stop.author == victim, stop
        assert "committed to a hand it did not hold" in stop.reason, stop.reason
        assert session.audit is not None
        assert session.audit.deviations[0].message_id == commit.id
        assert session.audited is not None and session.audited.disagreeing == ()
    assert len({audit_of(s).digest for s in table.sessions}) == 1
    # `hexlan verify` reads the accusation and the secrets and names the victim in every log
    for log in verified_invalid(table, tmp_path):
        assert log.violations and log.violations[0].author == victim, log.violations
        assert "committed to a hand it did not hold" in log.violations[0].reason


def withholding_the_last_shuffle(table: Table) -> list[bool]:
    """Make the last shuffler keep its shuffle back (it signs it when the returned flag is
    cleared and it is next asked for a step): the review's timing attack on steal numbers."""
    shuffler = len(table.sessions) - 1
    session = table.sessions[shuffler]
    honest = session.dealing.dealing_steps
    holding = [True]

    def withheld(seats: Sequence[Seat]) -> Iterator[Step]:
        if holding[0] and session.dealer.deck.next_shuffler == shuffler:
            return iter(())
        return honest(seats)

    session.dealing.dealing_steps = withheld  # type: ignore[method-assign]
    return holding


def test_a_shuffle_timed_to_land_before_a_steal_frames_no_victim() -> None:
    """Review finding (high): the last shuffler withholds its shuffle, then gives it to the
    victim alone just before the robber lands. The victim's steal commitment covers the
    shuffle, so every peer applies the shuffle (and opens its challenge event) first. Steals
    are numbered by their own count, not by the beacon's next event (PROTOCOL.md §7), so the
    honest victim is never named and the game ends audited."""
    for seed in range(60, 100):
        table = Table(3, seed=seed)
        shuffler = 2
        holding = withholding_the_last_shuffle(table)
        table.start()
        robs = robbing(table)

        def stop(seat: Seat, action: Action, robs: Callable[[Seat, Action], bool] = robs) -> bool:
            return isinstance(action, A.BuyDevelopmentCard) or robs(seat, action)

        found = play(table, stop=stop)
        if found is None or not isinstance(found[1], A.MoveRobber):
            continue  # a card bought first would wait for the shuffle
        thief, move = found
        if move.victim == shuffler:
            continue
        victim = move.victim
        holding[0] = False
        effects: list[Effect] = []
        table.sessions[shuffler]._fulfil(effects)
        sent = [e.envelope for e in effects if isinstance(e, Send)]  # and maybe its reveal
        (shuffle,) = [data for data in sent if Envelope.parse(data).body.kind == "shuffle"]
        table._handle(shuffler, effects)
        table._queue.remove((victim, shuffle))
        table.deliver(victim, shuffle)  # the victim alone holds it when the robber lands
        events_before = table.sessions[victim].beacon.next_event
        table.act(thief, move)
        (commit,) = signed(table, victim, "steal_commit")[-1:]
        assert table.sessions[victim].beacon.next_event > events_before  # the challenge came first
        assert commit.body.heads[shuffler][0] >= 0
        play(table)
        check_same_end(table)
        return
    raise AssertionError("no seeded game robs a seat before a card is bought")


def claimable(table: Table, thief: Seat, victim: Seat, *, victim_knows: bool) -> list[Resource]:
    """Resources the thief does not hold that every third party thinks it may hold, and that
    the victim thinks it may hold unless ``victim_knows`` (then: that the victim knows it
    cannot)."""
    return [
        r
        for r in RESOURCES
        if not view_of(table, thief).hands[thief][r]
        and all(view_of(table, s).could_hold(thief, one(r)) for s in others(table, thief, victim))
        and view_of(table, victim).could_hold(thief, one(r)) != victim_knows
    ]


def after_a_steal(*, victim_knows: bool) -> Situation:
    """Stop at the thief's main-phase decision in the turn it stole, when it still holds the
    stolen card and some resource is :func:`claimable`."""

    def situation(table: Table) -> Callable[[Seat, Action], bool]:
        def stop(seat: Seat, _: Action) -> bool:
            view, steal = view_of(table, seat), last_steal(table.sessions[seat])
            if view.phase is not Phase.MAIN or view.active != seat or steal is None:
                return False
            record, taken, ongoing = steal
            return (
                ongoing
                and record.thief == seat
                and taken is not None
                and view.hands[seat][taken] > 0
                and bool(claimable(table, seat, record.victim, victim_knows=victim_knows))
            )

        return stop

    return situation


@pytest.mark.parametrize(("caught_by", "seed"), [("victim", 140), ("audit", 145)])
def test_a_thief_claiming_a_card_it_was_not_given_is_named(caught_by: str, seed: int) -> None:
    """After a steal the thief acts as if the card were another resource, one it does not hold
    and that no third party can rule out: it offers it in a trade. The victim, who knows which
    card it gave, accuses the offer at once if it knows the thief cannot hold the other
    resource, and every seat names the thief; otherwise the game goes on and the audit names
    the thief. (The thief lies once:
    its view is true again after the offer, so no later move of its trips on the lie.)"""
    victim_knows = caught_by == "victim"
    table, thief, _ = first_game_reaching(seed, after_a_steal(victim_knows=victim_knows))
    steal = last_steal(table.sessions[thief])
    assert steal is not None
    record, taken, _ = steal
    victim = record.victim
    assert taken is not None
    claimed = claimable(table, thief, victim, victim_knows=victim_knows)[0]
    wanted = next(r for r in RESOURCES if r != claimed)
    offer = A.OfferTrade(one(claimed), one(wanted), NO_SEAT)
    for seat in others(table, thief, victim):
        view_of(table, seat).check(offer)  # third parties cannot refute it
    if victim_knows:
        with pytest.raises(IllegalActionError):
            view_of(table, victim).check(offer)
    else:
        view_of(table, victim).check(offer)
    hand = view_of(table, thief).hands[thief]  # the thief's own view: it "got" the other card
    hand[taken] -= 1
    hand[claimed] += 1
    mark = len(table.logs[thief])
    table.act(thief, offer)
    hand[claimed] -= 1  # the lie is told; the thief's view is true again
    hand[taken] += 1
    evidence = signed(table, thief, "action", since=mark)[0]
    assert evidence.body.payload == encode_action(offer)
    if victim_knows:
        # only the victim can refute it: it accuses the offer (§11.1), and the audit of the
        # game so far names the thief in every seat's session, third parties' included
        play(table)
        for session in table.sessions:
            assert session.accusations[victim][0] == evidence.id
            stop = session.stopped
            assert stop is not None and stop.author == thief, stop
            assert stop.reason.startswith("accused: ") and "OfferTrade" in stop.reason
            assert evidence.to_bytes() in stop.evidence
        return
    assert table.problems() == []
    play(table)
    assert table.problems() == []
    for other in table.sessions:
        (deviation,) = audit_of(other).deviations
        assert (deviation.seat, deviation.message_id) == (thief, evidence.id)
        assert "does not hold the cards it offers" in deviation.reason


def test_a_lie_nobody_refutes_never_gets_an_honest_seat_named() -> None:
    """The thief offers a card it does not hold, no seat can refute it, and the thief goes on
    as if it held it. In this seeded game an honest seat's inferences rest on the lie, and a
    later move of another honest seat looks impossible to it: it accuses that move (§11.1),
    every seat publishes its secrets, and the audit of the game so far names the first real
    deviation, the thief's, in every seat's session (before the accusation, that seat stopped
    alone naming the honest mover)."""
    table, thief, _ = first_game_reaching(644, after_a_steal(victim_knows=False))
    steal = last_steal(table.sessions[thief])
    assert steal is not None
    record, taken, _ = steal
    assert taken is not None
    claimed = claimable(table, thief, record.victim, victim_knows=False)[0]
    wanted = next(r for r in RESOURCES if r != claimed)
    hand = view_of(table, thief).hands[thief]  # the lie stays in the thief's view
    hand[taken] -= 1
    hand[claimed] += 1
    table.act(thief, A.OfferTrade(one(claimed), one(wanted), NO_SEAT))
    play(table)
    honest = others(table, thief)
    assert any(table.sessions[s].accusations for s in honest), "nobody accused"
    for seat in range(len(table.sessions)):
        stop = table.sessions[seat].stopped
        assert stop is not None and stop.author == thief, (seat, stop)
        assert stop.reason.startswith("accused: "), stop.reason


# ---------------------------------------------------------------------------- the audit


def test_a_seat_withholding_its_audit_secrets_leaves_the_game_unaudited(tmp_path: Path) -> None:
    """A seat never sends its ``audit_secrets``: the game is won but never audited, the others
    name the seat as the one they wait for, and verify says so, before and after the others
    end the game as abandoned by it."""
    table = Table(3, seed=150)
    silent = 1
    table.tamper = lambda env: (
        None if (env.body.author, env.body.kind) == (silent, "audit_secrets") else env.to_bytes()
    )
    table.now = 50.0
    table.start()
    play(table)
    assert table.problems() == []
    for session in table.sessions:
        assert session.is_over and not session.done and session.audited is None
    for seat in others(table, silent):
        session = table.sessions[seat]
        assert session.audit is None  # it never had every seat's secrets
        assert session.waiting_on() == [silent]
        assert session.tick(50.0 + AUTOMATIC_TIMEOUT - 0.1) == []
        assert session.tick(50.0 + AUTOMATIC_TIMEOUT + 0.1) == [silent]

    before = write_log(tmp_path / "before.hexlan", table, 0)
    for seat in others(table, silent):
        table._carry_out(seat, table.sessions[seat].abandon([silent], 60.0))
    table.pump()
    for seat in others(table, silent):  # (a seat never counts itself out)
        session = table.sessions[seat]
        assert session.abandoned == (silent,) and session.done and session.stopped is None
        assert session.abandon_owed[0].describe() == "audit_secrets"
    after = write_log(tmp_path / "after.hexlan", table, 0)

    report = verify_logs([before, after])
    assert report.exit_code == EXIT_UNFINISHED
    for log in report.logs:
        assert log.valid and log.finished and log.exit_code == EXIT_UNFINISHED
        assert (log.status, log.audit, log.unaudited_by) == ("unaudited", "unaudited", (silent,))


# ---------------------------------------------------------------------------- honest 4-seat game


@dataclass(frozen=True)
class HonestGame:
    """An honest 4-seat game: a copy of it stopped mid-game while a seat holds unplayed cards,
    and the game played on to its end and audit."""

    middle: Table
    end: Table


def cards_in_hand(table: Table) -> Callable[[Seat, Action], bool]:
    """Stop once two seats hold unplayed development cards."""

    def stop(_: Seat, __: Action) -> bool:
        return sum(1 for s in table.sessions if unplayed(s.dealer)) >= 2

    return stop


@pytest.fixture(scope="module")
def honest_game() -> HonestGame:
    table = Table(4, seed=1)
    table.start()
    seat, action = play_until(table, cards_in_hand(table))
    middle = snapshot(table)
    table.act(seat, action)
    play(table)
    return HonestGame(middle, table)


def reachable_bytes(root: object, skip: Callable[[object, str], bool]) -> list[bytes]:
    """Every bytes object reachable from ``root``: through containers, instance dicts, slots and
    closures (never through classes, modules or functions' globals), except the attributes
    ``skip(owner, name)`` excludes."""
    found: list[bytes] = []
    seen: set[int] = set()
    stack: list[object] = [root]
    atoms = (str, int, float, complex, type(None), type, ModuleType, BuiltinFunctionType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, atoms):
            continue
        seen.add(id(obj))
        if isinstance(obj, bytes | bytearray | memoryview):
            found.append(bytes(obj))
        elif isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset | deque):
            stack.extend(obj)
        elif isinstance(obj, FunctionType):
            stack.extend(cell.cell_contents for cell in obj.__closure__ or ())
        elif isinstance(obj, MethodType):
            stack.append(obj.__self__)
        else:
            fields = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
            for klass in type(obj).__mro__:
                slots = klass.__dict__.get("__slots__", ())
                for name in (slots,) if isinstance(slots, str) else slots:
                    if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                        fields[name] = getattr(obj, name)
            stack.extend(value for name, value in fields.items() if not skip(obj, name))
    return found


def _public_card_table(owner: object, name: str) -> bool:
    """The deck's table of its card points (card ``i`` is ``card_point(label, i)``): public by
    definition, the same in every peer, and no clue to which position holds which card."""
    return isinstance(owner, Deck) and name in ("_points", "_index")


@dataclass(frozen=True)
class HiddenCard:
    """One unplayed card as a god sees it: the secrets that would tell a third party what it is."""

    owner: Seat
    position: int
    card: DevCard
    point: bytes  # the card's message point M
    owner_share: bytes  # A·x_owner: the one share a third party lacks to decrypt it


def hidden_cards(table: Table) -> list[HiddenCard]:
    """Every unplayed development card of the table, opened with its owner's secret."""
    cards: list[HiddenCard] = []
    for session in table.sessions:
        dealer, secret = session.dealer, deck_secret(session)
        for position in unplayed(dealer):
            index = dealer.deck.open(position, secret)
            assert dealer.deck.face(index) == dealer.own_cards[position]
            share, _ = dealer.deck.own_share(position, secret, session.seat)
            cards.append(
                HiddenCard(
                    session.seat,
                    position,
                    DevCard(dealer.own_cards[position]),
                    card_point(DEVELOPMENT_DECK.encode(), index),
                    share,
                )
            )
    return cards


def test_a_third_party_cannot_know_unplayed_cards_until_the_audit(
    honest_game: HonestGame,
) -> None:
    """Mid-game, no seat's log nor memory holds what would tell it another seat's unplayed card
    (the card's point outside the deck's public table of points, the owner's decryption share,
    the owner's secrets), and its view knows only the owner's card count; after the audit
    every seat knows each card as its buyer drew it."""
    table = honest_game.middle
    cards = hidden_cards(table)
    assert len({c.owner for c in cards}) >= 2
    for third in range(4):
        session = table.sessions[third]
        view, dealer = view_of(table, third), session.dealer
        memory = reachable_bytes(session, _public_card_table)
        everything = reachable_bytes(session, lambda _owner, _name: False)
        log = b"".join(table.logs[third])
        # the walk does reach the deck: the seat's own secret and the public shares are there
        assert any(deck_secret(session) in data for data in memory)
        for card in cards:
            if card.owner == third:
                continue
            for share in dealer.deck.shares(card.position).values():
                assert share in log and any(share in data for data in memory)
            owner = table.sessions[card.owner]
            secrets = {
                "the card's point": card.point,
                "the owner's decryption share": card.owner_share,
                "the owner's deck secret": deck_secret(owner),
                "the owner's seed": owner.chain.secret,
                "the owner's X25519 key": owner.game_keys.private_bytes,
            }
            # the point is in the deck's public table of all its points, and nowhere else
            assert any(card.point in data for data in everything)
            for what, secret in secrets.items():
                assert secret not in log, f"seat {third}'s log holds {what} ({card})"
                assert not any(secret in data for data in memory), (
                    f"seat {third}'s memory holds {what} ({card})"
                )
            # what it knows of the card: that it is the owner's, nothing of its type
            assert dealer.deck.owner(card.position) == card.owner
            assert card.position not in dealer.own_cards
            assert view.dev_cards[card.owner] == [0] * 5
            assert view.new_dev_cards[card.owner] == [0] * 5
            assert view.unseen_cards()[card.card] > 0
            assert sum(1 for n in view.unseen_cards() if n) >= 2
            assert draws_seen(session)[card.position] is None
    # after the audit every seat knows every card drawn, as its buyer drew it
    for card in cards:
        for session in honest_game.end.sessions:
            assert audit_of(session).draws[card.position] == card.card


def test_an_honest_game_passes_its_audit_everywhere_with_the_draws_the_buyers_saw(
    honest_game: HonestGame, tmp_path: Path
) -> None:
    """With every seat honest, every seat's audit passes with one digest, every seat signs it,
    the audit's draws are the cards each buyer drew, and verify agrees."""
    table = honest_game.end
    reports = [audit_of(session) for session in table.sessions]
    assert all(r.passed and r.deviations == () for r in reports)
    assert len({r.digest for r in reports}) == 1
    assert len({r.draws for r in reports}) == 1
    for session in table.sessions:
        assert session.done and session.audited is not None
        assert session.audited.disagreeing == ()
    draws = reports[0].draws
    assert len(draws) == table.sessions[0].dealer.deck.dealt > 0
    for session in table.sessions:
        dealer = session.dealer
        for position, face in dealer.own_cards.items():
            assert draws[position] == DevCard(face)
        seen = draws_seen(session)
        assert sorted(seen) == list(range(len(draws)))
        for position, card in seen.items():  # its own draws shown, the others' hidden
            mine = dealer.deck.owner(position) == session.seat
            assert card == (draws[position] if mine else None)
    assert sum(len(s.dealer.own_cards) for s in table.sessions) == len(draws)
    report = verify_logs([write_log(tmp_path / "seat2.hexlan", table, 2)])
    assert report.exit_code == EXIT_VALID
    assert report.logs[0].audit == "passed" and report.logs[0].draws == tuple(draws)
