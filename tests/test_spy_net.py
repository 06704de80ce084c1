"""The Cities & Knights Spy over in-process sessions (PROTOCOL.md §7.3): the victim's progress
cards re-encrypted to the player alone, one taken by position and moved to the player inside
its deck; a forged re-encryption names the victim at once; a take of a spent card is disputed
by the victim and names the player; a false dispute names the victim; a stalled victim is
named; the audit passes an honest game and re-checks the take."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from hexlan.engine.bots import make_bot
from hexlan.engine.core import IllegalActionError
from hexlan.engine.info import InformationState
from hexlan.engine.shown import (
    NO_TAKE,
    DeckShown,
    DeckTake,
)
from hexlan.engine.variants.cities_knights.actions import (
    TRACKS,
    KnightsPhase,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.net.audit import SpyRecord, run_audit
from hexlan.net.effects import Effect
from hexlan.net.group import add, sub
from hexlan.net.inproc import InProcessTable
from hexlan.net.session import OwedStep
from hexlan.net.shuffle import card_point
from hexlan.net.wire import (
    Envelope,
    MalformedMessage,
    encode_action,
    sign_body,
    validate_payload,
)

GAME = "cities-and-knights"
SEATS = 3
SEED = 4
"""A table whose heuristic bots reach a Spy in seat 2's hand by turn 36 (about 3 s)."""


def at_a_spy(seed: int = SEED) -> tuple[InProcessTable, int, list[PlayProgress]]:
    """Heuristic bots play a 3-seat game until a seat may play the Spy: the table, the seat and
    its Spy plays (one per victim; none made)."""
    table = InProcessTable(["a", "b", "c"], seed=seed, game=GAME)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    table.start()
    while True:
        seat = next(s.seat for s in table.sessions if s.decision_due())
        view = table.sessions[seat].view
        assert view is not None and not view.is_over, "no Spy was played"
        names = view.variant.card_names  # type: ignore[union-attr]
        plays = [
            a
            for a in view.legal_actions()
            if isinstance(a, PlayProgress) and names[a.track][a.face] == "spy"
        ]
        if plays:
            return table, seat, plays
        table.submit(seat, bots[seat].choose(view, seat))


def views(table: InProcessTable) -> list[InformationState]:
    result = [s.view for s in table.sessions]
    assert all(v is not None for v in result)
    return result  # type: ignore[return-value]


def in_step(table: InProcessTable) -> None:
    assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
    seen = views(table)
    assert len({v.public_hash() for v in seen}) == 1


def pump_with(table: InProcessTable, change: Callable[[Envelope], bytes | None]) -> None:
    while table._queue:
        seat, data = table._queue.popleft()
        data = change(Envelope.parse(data)) or data
        table._handle(seat, table.sessions[seat].receive(data))


def kinds(table: InProcessTable, seat: int, kind: str) -> list[Envelope]:
    envs = [Envelope.parse(d) for d in table.logs[seat]]
    return [e for e in envs if e.body.kind == kind]


def spy_on(victim_index: int = 0) -> tuple[InProcessTable, int, int, int, PlayProgress]:
    """At a Spy: the table, the player, the victim, the third seat and the play (not made)."""
    table, player, plays = at_a_spy()
    play = plays[victim_index]
    victim = play.choice
    third = next(s for s in range(SEATS) if s not in (player, victim))
    return table, player, victim, third, play


def sign_as(table: InProcessTable, seat: int, kind: str, payload: tuple[object, ...]) -> None:
    """``seat``'s own session signs ``kind`` with ``payload`` (a deviation); messages flow."""
    effects: list[Effect] = []
    table.sessions[seat].sign(kind, payload, effects)
    table._handle(seat, effects)
    table.pump()


def stopped_naming(table: InProcessTable, seats: list[int], author: int, words: str) -> None:
    for seat in seats:
        stop = table.sessions[seat].stopped
        assert stop is not None, f"seat {seat} did not stop"
        assert stop.author == author, stop
        assert words in stop.reason, stop.reason


def true_hand(table: InProcessTable, seat: int) -> tuple[tuple[int, int], ...]:
    """``seat``'s progress cards as its own view holds them."""
    progress = views(table)[seat].variant_state
    assert isinstance(progress, Progress)
    return tuple(sorted(progress.cards[seat]))


def test_the_spy_sees_the_cards_alone_and_takes_one_by_position() -> None:
    table, player, victim, third, play = spy_on()
    hand = true_hand(table, victim)
    table.submit(player, play)
    in_step(table)
    seen = views(table)
    assert seen[player].phase is KnightsPhase.SPY
    (opened,) = kinds(table, victim, "spy_open")
    number, items = opened.body.payload
    labels = [item[0] for item in items]
    assert labels == sorted(labels) and set(labels) <= set(TRACKS)
    assert all(len(item[4]) == 96 for item in items)
    shown = {
        seat: [e.action for e in table.sessions[seat].journal if isinstance(e.action, DeckShown)]
        for seat in range(SEATS)
    }
    assert shown[third] == [DeckShown(victim, None)]
    assert shown[player] == shown[victim] == [DeckShown(victim, hand)]
    assert true_hand(table, victim) == hand  # the player's view knows them now
    progress = seen[player].variant_state
    assert isinstance(progress, Progress) and tuple(sorted(progress.cards[victim])) == hand

    take = next(a for a in seen[player].legal_actions() if isinstance(a, DeckTake) and a.face)
    assert take.face is not None
    table.submit(player, take)
    in_step(table)
    (sent,) = kinds(table, player, "spy_take")
    assert sent.body.payload[0] == number
    label, position = sent.body.payload[1:]
    assert label == TRACKS[take.deck]  # the deck and a position on the wire, never the face
    for session in table.sessions:
        dealer = session.decks[label]
        assert dealer.deck.owner(position) == player
        assert dealer.deck.dealt_to(position) != player
        assert position in dealer.eligible(player) and position not in dealer.eligible(victim)
    assert table.sessions[player].decks[label].own_cards[position] == take.face
    assert position not in table.sessions[victim].decks[label].own_cards
    taken = {
        seat: [e.action for e in table.sessions[seat].journal if isinstance(e.action, DeckTake)]
        for seat in range(SEATS)
    }
    assert taken[player] == taken[victim] == [take]
    assert taken[third] == [DeckTake(take.deck, None)]
    assert (take.deck, take.face) in true_hand(table, player)
    assert (take.deck, take.face) not in true_hand(table, victim) or hand.count(
        (take.deck, take.face)
    ) > 1


@pytest.mark.slow
def test_after_a_spy_the_game_plays_on_and_the_audit_passes() -> None:
    """The card taken is the player's from then on (it shows and plays it as its own), and the
    end-of-game audit, with every secret, finds the re-encryptions and the take true."""
    table, player, victim, _, play = spy_on()
    table.submit(player, play)
    take = next(
        a for a in views(table)[player].legal_actions() if isinstance(a, DeckTake) and a.face
    )
    table.submit(player, take)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    for _ in range(20_000):
        seat = next((s.seat for s in table.sessions if s.decision_due()), None)
        if seat is None:
            break
        table.submit(seat, bots[seat].choose(views(table)[seat], seat))
    assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
    for session in table.sessions:
        assert session.audit is not None and session.audit.passed, session.audit
    session = table.sessions[0]
    spies = [(i, e) for i, e in enumerate(session.journal) if e.spy is not None]
    assert len(spies) >= 2
    (show_at, show), (take_at, take_entry) = spies[:2]
    assert show.spy is not None and take_entry.spy is not None and take_entry.spy.deck

    def audited(at: int, record: SpyRecord) -> list[tuple[int | None, bytes]]:
        inputs = session.audit_inputs()
        journal = list(inputs.journal)
        journal[at] = replace(journal[at], spy=record)
        report = run_audit(replace(inputs, journal=tuple(journal)))
        return [(d.seat, d.message_id) for d in report.deviations]

    # had the card taken been shown before the take, the audit names the player and its take
    size = session.decks[take_entry.spy.deck].deck.size
    spent = replace(take_entry.spy, shown=tuple(range(size)))
    assert audited(take_at, spent) == [(player, take_entry.spy.take_id)]
    # had the victim re-encrypted another card, the audit names it and its spy_open
    items = list(show.spy.items)
    a, b = next(
        (a, b)
        for a in range(len(items))
        for b in range(a + 1, len(items))
        if items[a][0] == items[b][0]
    )  # two cards of one deck: the first given the other's re-encryption
    items[a] = (items[a][0], items[a][1], items[b][2], items[a][3])
    forged = replace(show.spy, items=tuple(items))
    assert audited(show_at, forged) == [(victim, show.spy.open_id)]


def test_taking_nothing_moves_nothing() -> None:
    table, player, _victim, _, play = spy_on()
    table.submit(player, play)
    table.submit(player, DeckTake(NO_TAKE, None))
    in_step(table)
    (sent,) = kinds(table, player, "spy_take")
    assert sent.body.payload[1:] == ("", -1)
    for session in table.sessions:
        assert all(
            d.deck.moves(p) == 0 for d in session.decks.values() for p in range(d.deck.dealt)
        )
    assert views(table)[player].phase is not KnightsPhase.SPY


def test_a_forged_reencryption_stops_the_game_naming_the_victim() -> None:
    """The victim re-encrypts another card than the one at its first position (the proof of
    the true one kept): every other seat names it at once."""
    table, player, victim, third, play = spy_on()
    forged: list[bytes] = []

    def other_card(env: Envelope) -> bytes | None:
        body = env.body
        if body.kind != "spy_open" or body.author != victim:
            return None
        if not forged:
            number, items = body.payload
            label, position, a, b, proof = items[0]
            dealer = table.sessions[victim].decks[label]
            index = dealer.own_index[position]
            this = card_point(label.encode(), index)
            other = card_point(label.encode(), (index + 1) % dealer.deck.size)
            lie = (label, position, a, add(sub(b, this), other), proof)
            changed = replace(body, payload=(number, (lie, *items[1:])))
            forged.append(sign_body(changed, table.sessions[victim].identity).to_bytes())
        return forged[0]

    table._handle(player, table.sessions[player].submit(play))
    pump_with(table, other_card)
    assert forged, "the victim never opened its cards"
    stopped_naming(table, [player, third], victim, "does not verify")
    stopped_naming(table, [player, third], victim, f"seat {victim}'s spy_open")


def test_a_list_that_leaves_a_card_out_names_the_victim() -> None:
    table, player, victim, third, play = spy_on()

    def fewer(env: Envelope) -> bytes | None:
        body = env.body
        if body.kind != "spy_open" or body.author != victim:
            return None
        number, items = body.payload
        changed = replace(body, payload=(number, items[1:]))
        return sign_body(changed, table.sessions[victim].identity).to_bytes()

    table._handle(player, table.sessions[player].submit(play))
    pump_with(table, fewer)
    stopped_naming(table, [player, third], victim, "not the ones it holds")


def test_a_take_of_a_spent_card_is_disputed_and_names_the_player() -> None:
    """The player names a position of the victim whose card was played before: the victim
    opens it to everyone with its share, and every seat names the player."""
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    spy = table.sessions[player].spy.open
    assert spy is not None and spy.indices is not None
    spent = [
        (label, item.position)
        for (label, item), index in zip(spy.items, spy.indices, strict=True)
        if table.sessions[player].decks[label].deck.shown_by(index) is not None
    ]
    assert spent, "the victim has played no progress card yet"
    label, position = spent[0]
    sign_as(table, player, "spy_take", (spy.record.spy, label, position))
    (dispute,) = kinds(table, victim, "spy_dispute")
    assert dispute.body.payload[1:3] == (label, position)
    stopped_naming(table, [victim, third], player, "took a card already played")


def test_a_false_dispute_names_the_victim() -> None:
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    take = next(
        a for a in views(table)[player].legal_actions() if isinstance(a, DeckTake) and a.face
    )
    table.submit(player, take)
    (sent,) = kinds(table, player, "spy_take")
    number, label, position = sent.body.payload
    dealer = table.sessions[victim].decks[label]
    share, proof = dealer.deck.holder_share(
        position, dealer._secret, victim, at=dealer.deck.moves(position) - 1
    )
    sign_as(table, victim, "spy_dispute", (number, label, position, share, proof))
    stopped_naming(table, [player, third], victim, "disputed a card it held")


def test_a_dispute_with_a_false_share_names_the_victim() -> None:
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    take = next(
        a for a in views(table)[player].legal_actions() if isinstance(a, DeckTake) and a.face
    )
    table.submit(player, take)
    number, label, position = kinds(table, player, "spy_take")[0].body.payload
    dealer = table.sessions[victim].decks[label]
    share, proof = dealer.deck.holder_share(position, dealer._secret, victim, at=0)
    bad = add(share, card_point(b"x", 0))
    sign_as(table, victim, "spy_dispute", (number, label, position, bad, proof))
    stopped_naming(table, [player, third], victim, "spy_dispute")


def test_a_stalled_victim_is_named() -> None:
    table, player, victim, third, play = spy_on()
    table._handle(player, table.sessions[player].submit(play))
    while table._queue:  # every message flows but the victim's spy_open, which is lost
        seat, data = table._queue.popleft()
        if Envelope.parse(data).body.kind != "spy_open":
            table._handle(seat, table.sessions[seat].receive(data))
    for seat in (player, third):
        session = table.sessions[seat]
        assert session.stopped is None
        assert OwedStep(victim, "spy_open") in session.owed_steps()
        assert session.waiting_on() == [victim]


def test_a_player_that_does_not_take_is_waited_for() -> None:
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    for seat in (victim, third):
        assert table.sessions[seat].owed_steps() == [OwedStep(player, "decision")]


def test_out_of_place_and_malformed_spy_messages_name_their_author() -> None:
    table, player, victim, third, _play = spy_on()
    for payload in [(1, "", 3), (1, "politics", -1), (0, "trade", 1)]:
        with pytest.raises(MalformedMessage):
            validate_payload("spy_take", payload)
    with pytest.raises(MalformedMessage):
        validate_payload("spy_open", (1, (("politics", 0, bytes(32), bytes(32), bytes(64)),)))
    with pytest.raises(MalformedMessage):
        validate_payload("spy_open", (1, ()))
    # a take before any Spy: out of turn, naming its author
    sign_as(table, third, "spy_take", (1, "politics", 0))
    stopped_naming(table, [player, victim], third, f"seat {third} has no Spy's take to make")


def test_the_take_must_name_one_of_the_victims_positions() -> None:
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    spy = table.sessions[player].spy.open
    assert spy is not None
    mine = table.sessions[player].decks["science"].eligible(player)
    listed = {(label, item.position) for label, item in spy.items}
    position = next(p for p in range(96) if ("science", p) not in listed)
    sign_as(table, player, "spy_take", (spy.record.spy, "science", position))
    stopped_naming(table, [victim, third], player, "not one of")
    assert mine is not None


def test_a_spy_take_sent_as_an_action_is_refused() -> None:
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    take = next(
        a for a in views(table)[player].legal_actions() if isinstance(a, DeckTake) and a.face
    )
    sign_as(table, player, "action", encode_action(take))
    stopped_naming(table, [victim, third], player, "not by position")


def unspent_card(table: InProcessTable, seat: int) -> tuple[str, int, int]:
    """A progress card ``seat`` holds and has not shown: its deck's label, position and face."""
    session = table.sessions[seat]
    for label in TRACKS:
        dealer = session.decks[label]
        for position, face in sorted(dealer.own_cards.items()):
            if dealer.deck.shown_by(dealer.own_index[position]) is None:
                return label, position, face
    raise AssertionError(f"seat {seat} holds no unshown progress card")


def test_a_show_by_the_victim_while_its_spy_is_open_names_the_victim() -> None:
    """The victim shows one of its opened cards right after its ``spy_open`` (the show race):
    every session, the victim's own too, stops naming the victim; the Spy player's session
    never offers a take it then cannot sign (it refuses with IllegalActionError, not
    ValueError)."""
    table, player, victim, third, play = spy_on()
    table.submit(player, play)
    in_step(table)
    assert table.sessions[player].spy.open is not None  # opened, not yet taken from
    label, position, face = unspent_card(table, victim)
    take = DeckTake(TRACKS.index(label), face)
    assert take in views(table)[player].legal_actions()
    dealer = table.sessions[victim].decks[label]
    sign_as(table, victim, "card_reveal", dealer.show_payload(position, None))
    stopped_naming(table, [player, third, victim], victim, "while its Spy was open")
    bot = make_bot("heuristic", random.Random(player))
    assert not table.sessions[player].decision_due()
    with pytest.raises(IllegalActionError):
        table.sessions[player].submit(take)
    with pytest.raises(IllegalActionError):
        table.sessions[player].submit(bot.choose(views(table)[player], player))


def test_a_take_of_a_card_spent_since_the_open_is_refused_as_illegal() -> None:
    """Had the opened cards of a face been spent after the ``spy_open`` (here: their shows
    applied to the player's deck alone, past the session's check), the player's engine would
    still offer the take; its submit raises IllegalActionError and signs nothing."""
    table, player, victim, _, play = spy_on()
    table.submit(player, play)
    label, _, face = unspent_card(table, victim)
    mine = table.sessions[victim].decks[label]
    dealer = table.sessions[player].decks[label]
    for position, held in sorted(mine.own_cards.items()):
        if held == face and mine.deck.shown_by(mine.own_index[position]) is None:
            _, index, positions, proof = mine.show_payload(position, None)
            assert isinstance(index, int) and isinstance(positions, tuple)
            assert isinstance(proof, tuple)
            dealer.show(victim, index, positions, proof)
    session = table.sessions[player]
    take = DeckTake(TRACKS.index(label), face)
    assert take in views(table)[player].legal_actions()
    sent = len(session.accepted[player])
    with pytest.raises(IllegalActionError, match="no unspent card"):
        session.submit(take)
    assert len(session.accepted[player]) == sent
