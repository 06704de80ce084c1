"""The Cities & Knights Spy (PROTOCOL.md §7.3) across a seat's restart from its log (§9 resume):
the victim that dies around its ``spy_open`` signs the same bytes again (never an equivocation)
and still knows it lost the card taken; the player that dies between the open and its take
still sees the cards and takes one; the player that dies after its take still holds the card
and shows and plays it; a finished game with a Spy replays to the same states, its
logs pass `hexlan verify`, and the replayed audit re-checks the Spy.

Each test plays one seeded table twice in lockstep (:class:`Twins`): the same decisions, one
copy's seat restarted (:class:`~test_session.Table`'s crash and restart), the other never; the
restarted seat must end where the uncrashed one does (the replay test plays one copy)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from bot_games import assert_logs_verify
from test_session import CrashPoint, Table, check_logs

from hexlan.engine.actions import Action
from hexlan.engine.info import InformationState
from hexlan.engine.shown import DeckShown, DeckTake
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.net.audit import run_audit
from hexlan.net.dealing import Dealer
from hexlan.net.effects import Effect, Persist
from hexlan.net.session import Session
from hexlan.net.wire import Envelope

GAME = "cities-and-knights"
SEATS = 3
SEED = 0
"""A table (:class:`~test_session.Table`, fifo) whose bots reach seat 2's Spy in turn 19."""


def is_spy(view: InformationState, action: Action) -> bool:
    names = view.variant.card_names  # type: ignore[union-attr]
    return isinstance(action, PlayProgress) and names[action.track][action.face] == "spy"


class Twins:
    """Two copies of one seeded table, fed the same decisions: ``live`` (whose seats may crash
    and restart) and ``twin`` (whose never do); with ``alone``, one table that is both."""

    def __init__(self, *, alone: bool = False) -> None:
        self.twin = Table(SEATS, seed=SEED, game=GAME)
        self.live = self.twin if alone else Table(SEATS, seed=SEED, game=GAME)
        self.tables = [self.twin] if alone else [self.live, self.twin]
        for table in self.tables:
            table.start()

    def act(self, seat: int, action: Action) -> None:
        for table in self.tables:
            table.act(seat, action)

    def bot_step(self) -> bool:
        """The first seat due decides (its bot, on the twin's view); False once none is due."""
        due = [s.seat for s in self.twin.sessions if s.decision_due()]
        if not due:
            return False
        self.act(due[0], self.twin.bots[due[0]].choose(view(self.twin, due[0]), due[0]))
        return True

    def to_a_spy(self) -> tuple[int, int, PlayProgress]:
        """Play until a seat may play the Spy: the player, the victim and the play (not made)."""
        while True:
            seat = next(s.seat for s in self.twin.sessions if s.decision_due())
            seen = view(self.twin, seat)
            plays = [a for a in seen.legal_actions() if is_spy(seen, a)]
            if plays:
                play = plays[0]
                assert isinstance(play, PlayProgress)
                return seat, play.choice, play
            assert self.bot_step()

    def same(self) -> None:
        """Both copies agree: no refusal or stop, the same journal, views and every Dealer
        (holders, own cards) at every seat."""
        for table in self.tables:
            assert table.problems() == []
            assert all(s.stopped is None for s in table.sessions)
        for live, twin in zip(self.live.sessions, self.twin.sessions, strict=True):
            assert [e.action for e in live.journal] == [e.action for e in twin.journal]
            assert [e.spy for e in live.journal] == [e.spy for e in twin.journal]
            assert (
                view(self.live, live.seat).public_hash() == view(self.twin, twin.seat).public_hash()
            )
            assert progress(self.live, live.seat) == progress(self.twin, twin.seat)
            assert live.decks.keys() == twin.decks.keys()
            for label, dealer in live.decks.items():
                assert dealer_state(dealer) == dealer_state(twin.decks[label]), label


def view(table: Table, seat: int) -> InformationState:
    result = table.sessions[seat].view
    assert result is not None
    return result


def progress(table: Table, seat: int) -> Progress:
    state = view(table, seat).variant_state
    assert isinstance(state, Progress)
    return state


def dealer_state(dealer: Dealer) -> tuple[object, ...]:
    """What a seat knows of one deck: every position's holder and moves, what it holds."""
    deck = dealer.deck
    holders = tuple((deck.owner(p), deck.moves(p)) for p in range(deck.dealt))
    return holders, dict(dealer.own_cards), dict(dealer.own_index), tuple(dealer.dealt_in)


def own_kind(table: Table, seat: int, kind: str) -> list[bytes]:
    """``seat``'s own messages of ``kind`` in its log."""
    return [
        d
        for d in table.logs[seat]
        if (b := Envelope.parse(d).body).author == seat and b.kind == kind
    ]


def crash_at(seat: int, kind: str, cut: str, author: int | None = None) -> CrashPoint:
    """Crash ``seat`` around the first ``kind`` of ``author`` (default: its own) it logs:
    before the log write ("unpersisted"), after it, before what follows in the same call
    ("unsent": its own message is not sent), or after every effect of that call ("sent")."""
    author = seat if author is None else author

    def point(target: int, effects: list[Effect]) -> int | None:
        if target != seat:
            return None
        for i, effect in enumerate(effects):
            if isinstance(effect, Persist):
                body = Envelope.parse(effect.envelope).body
                if body.author == author and body.kind == kind:
                    return {"unpersisted": i, "unsent": i + 1, "sent": len(effects)}[cut]
        return None

    return point


def the_take(twins: Twins, player: int, victim: int) -> DeckTake:
    """The take of the last card offered of a face the player does not hold already (so the
    card it later plays is the one it took),
    else of the last card offered."""
    seen = view(twins.twin, player)
    takes = [a for a in seen.legal_actions() if isinstance(a, DeckTake) and a.face is not None]
    assert takes, f"seat {victim} holds no card to take"
    held = progress(twins.twin, player).cards[player]
    return next((t for t in reversed(takes) if (t.deck, t.face) not in held), takes[-1])


def one_body_per_step(tables: list[Table]) -> None:
    """Never two bodies for one (author, seq), in any log of any copy (no equivocation)."""
    signed: dict[tuple[int, int], bytes] = {}
    for table in tables:
        for env in check_logs(table.opening, table.logs).values():
            assert signed.setdefault((env.body.author, env.body.seq), env.id) == env.id


@pytest.mark.parametrize("cut", ["unpersisted", "unsent", "sent"])
def test_a_victim_restarted_around_its_spy_open_signs_it_again_and_loses_the_card(
    cut: str,
) -> None:
    """The victim dies as it opens its cards (before its log write, before the send, or after
    it): restarted, it signs the very bytes its uncrashed twin signs, the player sees its hand,
    and after the take it knows the card is gone, as do its Dealers."""
    twins = Twins()
    player, victim, play = twins.to_a_spy()
    hand = tuple(sorted(progress(twins.twin, victim).cards[victim]))
    twins.live.crash_point = crash_at(victim, "spy_open", cut)
    twins.act(player, play)
    assert [seat for seat, _ in twins.live.restarts] == [victim]
    twins.live.pump()
    (opened,) = own_kind(twins.twin, victim, "spy_open")
    for seat in range(SEATS):
        assert own_kind(twins.live, seat, "spy_open") == own_kind(twins.twin, seat, "spy_open")
    assert own_kind(twins.live, victim, "spy_open") == [opened]
    twins.same()
    shown = [
        e.action for e in twins.live.sessions[player].journal if isinstance(e.action, DeckShown)
    ]
    assert shown == [DeckShown(victim, hand)]

    take = the_take(twins, player, victim)
    twins.act(player, take)
    twins.same()
    (sent,) = own_kind(twins.live, player, "spy_take")
    _, label, position = Envelope.parse(sent).body.payload
    assert isinstance(label, str) and isinstance(position, int)
    restarted = twins.live.sessions[victim]
    assert restarted.decks[label].deck.owner(position) == player
    assert position not in restarted.decks[label].own_cards
    assert twins.live.sessions[player].decks[label].own_cards[position] == take.face
    left = list(hand)
    left.remove((take.deck, take.face))  # type: ignore[arg-type]
    assert tuple(sorted(progress(twins.live, victim).cards[victim])) == tuple(left)
    one_body_per_step([twins.live, twins.twin])


def test_a_player_restarted_between_the_open_and_its_take_still_sees_and_takes() -> None:
    """The player dies once it has logged the victim's ``spy_open``: restarted, it reads the
    victim's cards again from its log, may take one, and the take moves the card as in its
    uncrashed twin."""
    twins = Twins()
    player, victim, play = twins.to_a_spy()
    hand = tuple(sorted(progress(twins.twin, victim).cards[victim]))
    twins.live.crash_point = crash_at(player, "spy_open", "sent", author=victim)
    twins.act(player, play)
    assert [seat for seat, _ in twins.live.restarts] == [player]
    twins.live.pump()
    twins.same()
    restarted = twins.live.sessions[player]
    assert [e.action for e in restarted.journal if isinstance(e.action, DeckShown)] == [
        DeckShown(victim, hand)
    ]
    assert restarted.decision_due()
    take = the_take(twins, player, victim)
    assert take in view(twins.live, player).legal_actions()
    twins.act(player, take)
    twins.same()
    assert (take.deck, take.face) in progress(twins.live, player).cards[player]
    one_body_per_step([twins.live, twins.twin])


@pytest.mark.slow
def test_a_player_restarted_after_its_take_shows_and_plays_the_card_taken() -> None:
    """The player dies right after its take: restarted, it knows the cards it saw and holds
    the one it took; when it plays that card, its ``card_reveal`` verifies at every peer (the
    card shown is the one taken) and the game plays on to an audit that passes."""
    twins = Twins()
    player, victim, play = twins.to_a_spy()
    twins.act(player, play)
    take = the_take(twins, player, victim)
    twins.live.crash_point = crash_at(player, "spy_take", "sent")
    twins.act(player, take)
    assert [seat for seat, _ in twins.live.restarts] == [player]
    twins.live.pump()
    twins.same()
    (sent,) = own_kind(twins.live, player, "spy_take")
    _, label, position = Envelope.parse(sent).body.payload
    assert isinstance(label, str) and isinstance(position, int)
    restarted = twins.live.sessions[player]
    index = restarted.decks[label].own_index[position]
    assert restarted.decks[label].own_cards[position] == take.face
    spied = [e.action for e in restarted.journal if isinstance(e.action, DeckShown)]
    assert len(spied) == 1 and spied[0].cards is not None
    assert (take.deck, take.face) in spied[0].cards

    played = False
    for _ in range(20_000):
        plays = [
            a
            for a in view(twins.twin, player).legal_actions()
            if isinstance(a, PlayProgress) and (a.track, a.face) == (take.deck, take.face)
        ]
        if not played and plays and twins.twin.sessions[player].decision_due():
            twins.act(player, plays[0])
            played = True
            for table in (twins.live, twins.twin):
                for session in table.sessions:  # the show verified; the card is the one taken
                    assert session.stopped is None
                    assert session.decks[label].deck.shown_by(index) == player
            continue
        if not twins.bot_step():
            break
    assert played, "the player never played the card it took"
    twins.same()
    for table in (twins.live, twins.twin):
        assert all(s.audited is not None and s.audited.report.passed for s in table.sessions)
    one_body_per_step([twins.live, twins.twin])


@pytest.mark.slow
def test_a_finished_game_with_a_spy_replays_to_the_same_states_and_verifies(
    tmp_path: Path,
) -> None:
    """Every seat's log of a finished game with a Spy and its take replays (a fresh session,
    as a restart does) to the same journal, Spy records, views and Dealers; the logs pass
    `hexlan verify` with the audit passed; the replayed audit re-checks the Spy: a take of a
    card played before would name the player's ``spy_take``."""
    twins = Twins(alone=True)
    player, victim, play = twins.to_a_spy()
    twins.act(player, play)
    twins.act(player, the_take(twins, player, victim))
    while twins.bot_step():
        pass
    table = twins.twin
    for seat, session in enumerate(table.sessions):
        fresh = Session(seat, session.identity, table.opening, session.chain, session.game_keys)
        fresh.replay(table.logs[seat])
        assert fresh.audited is not None and fresh.audited.report.passed
        assert [e.action for e in fresh.journal] == [e.action for e in session.journal]
        assert [e.spy for e in fresh.journal] == [e.spy for e in session.journal]
        assert fresh.view is not None and session.view is not None
        assert fresh.view.public_hash() == session.view.public_hash()
        assert fresh.view.variant_state == session.view.variant_state
        for label, dealer in session.decks.items():
            assert dealer_state(fresh.decks[label]) == dealer_state(dealer), label
        assert fresh.audited.report.digest == session.audited.report.digest  # type: ignore[union-attr]

        inputs = fresh.audit_inputs()
        spies = [(i, e.spy) for i, e in enumerate(inputs.journal) if e.spy is not None]
        takes = [(i, s) for i, s in spies if s.deck]
        assert len(takes) >= 1 and len(spies) >= 2 * len(takes)
        for at, record in takes:
            size = fresh.decks[record.deck].deck.size
            journal = list(inputs.journal)
            journal[at] = replace(journal[at], spy=replace(record, shown=tuple(range(size))))
            report = run_audit(replace(inputs, journal=tuple(journal)))
            named = [(d.seat, d.message_id) for d in report.deviations]
            assert named == [(record.player, record.take_id)]
    assert_logs_verify(table, tmp_path, GAME)
