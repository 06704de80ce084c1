"""Cities & Knights' hand-taking progress cards over in-process sessions (issue 13;
PROTOCOL.md §5, §14): a Resource or Trade Monopoly's counts come from every other seat, each
capped; a count above the cap (a forged count, signed by its seat) stops the game naming it;
the Commercial Harbor's offers and answers are public actions. After each, every seat's view
stays consistent with the true hands (each seat's own)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from knights_play import GAME, assert_others_stop, at_a_decision, others_receive
from test_fairness import forge_chain, write_log

from hexlan.engine.bots import make_bot
from hexlan.engine.core import Phase, as_hand
from hexlan.engine.info import InformationState
from hexlan.engine.shown import (
    HandShown,
    HandTake,
)
from hexlan.engine.variants.cities_knights.actions import (
    KnightsPhase,
    PlayProgress,
)
from hexlan.net.inproc import InProcessTable
from hexlan.net.steal import seal_hand
from hexlan.net.verify import EXIT_VALID, verify_logs
from hexlan.net.wire import Envelope, encode_action, sign_body

SEATS = 3


def at_a_play(seed: int, name: str) -> tuple[InProcessTable, int, PlayProgress]:
    """Heuristic bots play a 3-seat game until one chooses to play the card ``name`` (not
    made)."""
    return at_a_decision(seed, PlayProgress, seats=SEATS, card=name)


def views(table: InProcessTable) -> list[InformationState]:
    """Every seat's view."""
    result = [s.view for s in table.sessions]
    assert all(v is not None for v in result)
    return result  # type: ignore[return-value]


def in_step(table: InProcessTable) -> None:
    """No seat stopped; every view has the same public state and holds the true hands
    (each seat's own) possible."""
    assert all(s.stopped is None for s in table.sessions), [s.stopped for s in table.sessions]
    seen = views(table)
    assert len({v.public_hash() for v in seen}) == 1
    hands = [v.hands[v.seat] for v in seen]
    assert all(v.is_consistent(hands) for v in seen)


def pump_with(table: InProcessTable, change: Callable[[Envelope], bytes | None]) -> None:
    """Deliver queued messages as :meth:`InProcessTable.pump` does, each first passed through
    ``change`` (None: as sent)."""
    while table._queue:
        seat, data = table._queue.popleft()
        data = change(Envelope.parse(data)) or data
        table._handle(seat, table.sessions[seat].receive(data))


@pytest.mark.slow
def test_a_resource_monopoly_takes_capped_counts_and_every_view_stays_true() -> None:
    table, seat, play = at_a_play(1, "resource_monopoly")
    before = views(table)[0].hand_size[:]
    table.submit(seat, play)
    in_step(table)
    view = views(table)[(seat + 1) % SEATS]
    assert view.phase is Phase.MAIN and view.monopoly_cap is None
    taken = [before[s] - view.hand_size[s] for s in range(SEATS) if s != seat]
    assert all(0 <= n <= 2 for n in taken)
    counts = [Envelope.parse(d).body for s in range(SEATS) for d in table.logs[s] if s != seat]
    assert any(b.kind == "count" for b in counts)


@pytest.mark.slow
def test_a_count_above_the_monopolys_cap_stops_the_game_naming_its_seat() -> None:
    table, seat, play = at_a_play(1, "resource_monopoly")
    liar = (seat + 1) % SEATS
    forged: list[bytes] = []

    def over_the_cap(env: Envelope) -> bytes | None:
        body = env.body
        if body.kind != "count" or body.author != liar:
            return None
        if not forged:  # the liar counts 3: a capped Monopoly takes at most 2
            lie = replace(body, payload=(body.payload[0], 3))
            forged.append(sign_body(lie, table.sessions[liar].identity).to_bytes())
        return forged[0]

    table._handle(seat, table.sessions[seat].submit(play))
    pump_with(table, over_the_cap)
    assert forged, "the liar never counted"
    assert_others_stop(table, liar, f"seat {liar} counted 3 ", "cannot hold")


@pytest.mark.slow
def test_the_commercial_harbor_is_played_over_the_network_seat_by_seat() -> None:
    table, seat, play = at_a_play(3, "commercial_harbor")
    bots = [make_bot("heuristic", random.Random(s)) for s in range(SEATS)]
    table.submit(seat, play)
    moves = []
    while views(table)[seat].phase is not Phase.MAIN:
        actor = next(s.seat for s in table.sessions if s.decision_due())
        action = bots[actor].choose(views(table)[actor], actor)
        moves.append((actor, type(action).__name__))
        table.submit(actor, action)
        in_step(table)
    assert moves and moves[0] == (seat, "HarborOffer")
    assert {m for _, m in moves} <= {"HarborOffer", "HarborAnswer"}
    assert any(m == "HarborAnswer" and a != seat for a, m in moves)


@pytest.mark.slow
def test_the_master_merchant_sees_the_hand_alone_and_takes_by_position() -> None:
    table, seat, play = at_a_play(1, "master_merchant")
    victim, third = play.choice, next(s for s in range(SEATS) if s not in (seat, play.choice))
    table.submit(seat, play)
    in_step(table)
    player_view = views(table)[seat]
    assert player_view.phase is KnightsPhase.MERCHANT
    assert player_view.possible_hands(victim) == {as_hand(views(table)[victim].hands[victim])}
    shown = [e.action for e in table.sessions[third].journal if isinstance(e.action, HandShown)]
    assert shown == [HandShown(victim, None)]  # the third seat saw that a hand was shown
    bot = make_bot("heuristic", random.Random(seat))
    take = bot.choose(player_view, seat)
    assert isinstance(take, HandTake) and take.taken is not None
    before = views(table)[victim].hands[victim][:]
    table.submit(seat, take)
    in_step(table)
    mine = [Envelope.parse(d).body for d in table.logs[seat]]
    sent = [b for b in mine if b.author == seat and b.kind == "merchant_take"]
    assert len(sent) == 1 and len(sent[0].payload[1]) == sum(take.taken)  # positions, no kinds
    after = views(table)[victim].hands[victim]
    assert [b - a for a, b in zip(after, before, strict=True)] == list(take.taken)
    seen = [e.action for e in table.sessions[third].journal if isinstance(e.action, HandTake)]
    assert seen == [HandTake(None)]


@pytest.mark.slow
def test_a_forged_hand_opening_stops_the_game_naming_the_victim() -> None:
    """The victim seals to the player, for the right seat and under the right keys, an opening
    whose first card is not the one it committed to: the player disputes it and every seat
    names the victim."""
    table, seat, play = at_a_play(1, "master_merchant")
    victim = play.choice
    forged: list[bytes] = []

    def false_card(env: Envelope) -> bytes | None:
        body = env.body
        if body.kind != "hand_open" or body.author != victim:
            return None
        if not forged:
            number, nonce, _ = body.payload
            session = table.sessions[victim]
            openings = list(session.openings.own_committed_hand(number).openings)
            salt, card = openings[0]
            openings[0] = (salt, (card + 1) % 8)
            box = seal_hand(
                session.game_keys.private_key,
                table.opening.seats[seat].x25519_public,
                table.opening.game_id,
                number,
                openings,
                nonce,
            )
            lie = replace(body, payload=(number, nonce, box))
            forged.append(sign_body(lie, session.identity).to_bytes())
        return forged[0]

    table._handle(seat, table.sessions[seat].submit(play))
    pump_with(table, false_card)
    assert forged, "the victim never opened its hand"
    assert_others_stop(table, victim, "hand opening is false")


@pytest.mark.slow
def test_a_whole_game_with_every_hand_taking_card_audits_clean_and_verifies(
    tmp_path: Path,
) -> None:
    """Seed 0's three heuristic bots play the Harbor, the monopolies and the Master Merchant
    (seed 1's stopped bringing the Master Merchant when the bots began to keep the Spy rather
    than discard it first; seed 2's stopped bringing the Harbor and the monopolies when a
    drawn Printer or Constitution came to be shown at once, a reveal of its own: the
    official rule, docs/rules/cities-and-knights.md); the end-of-game audit replays them with the true hands (each count,
    each sealed opening, each card taken by position) and finds nothing; a third party's
    `hexlan verify` agrees."""
    table = InProcessTable(["a", "b", "c"], seed=0, game=GAME)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(SEATS)])
    played = {type(e.action).__name__ for e in table.sessions[0].journal}
    assert {"HarborAnswer", "MonopolyTake", "HandShown", "HandTake", "PointShown"} <= played
    for session in table.sessions:
        assert session.stopped is None and session.audited is not None
        assert session.audited.report.deviations == () and session.audited.disagreeing == ()
    report = verify_logs([write_log(tmp_path / "seat2.hexlan", table, 2)])
    assert report.exit_code == EXIT_VALID, [log.violations for log in report.logs]


@pytest.mark.slow
def test_a_dispute_of_a_true_hand_opening_names_the_player() -> None:
    """The Master Merchant's player claims a true opening false (its own key shown, signed by
    it): every other seat reads the opening with that key and names the player."""
    table, seat, play = at_a_play(1, "master_merchant")
    table.submit(seat, play)
    number = table.sessions[seat].openings.hand.steal  # type: ignore[union-attr]
    key = table.sessions[seat].game_keys.private_bytes
    forged = forge_chain(table, seat, [("steal_dispute", (number, key))])  # type: ignore[arg-type]
    others_receive(table, seat, forged[0])
    assert_others_stop(table, seat, f"seat {seat} disputed a true opening of steal {number}")


@pytest.mark.slow
def test_a_master_merchants_take_named_in_the_open_stops_the_game_naming_the_player() -> None:
    """The take must name positions (``merchant_take``): the same take as an ``action``, which
    would tell every seat the cards' kinds, is refused and its author named."""
    table, seat, play = at_a_play(1, "master_merchant")
    table.submit(seat, play)
    take = make_bot("heuristic", random.Random(seat)).choose(views(table)[seat], seat)
    assert isinstance(take, HandTake)
    forged = forge_chain(table, seat, [("action", encode_action(take))])  # type: ignore[arg-type]
    others_receive(table, seat, forged[0])
    assert_others_stop(table, seat, "Master Merchant's cards in the open")
