"""The game clients (net/client.py): `hexlan play` through seat sessions, narration per seat,
refusals, the log, and what a networked client makes of its peer's news."""

from __future__ import annotations

import importlib.util
import io
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexlan.engine import actions as A
from hexlan.engine.bots import make_bot
from hexlan.engine.core import IllegalActionError, Phase, Resource
from hexlan.net.client import NOT_FAIR_NOTE, NetworkGame, SessionGame
from hexlan.net.effects import Applied
from hexlan.net.inproc import SeatKeys, make_opening
from hexlan.net.log import read_log
from hexlan.net.narrate import GameEvent
from hexlan.net.wire import Opening


@pytest.fixture
def log_dir() -> Iterator[Path]:
    """A directory for game logs, on tmpfs when there is one (every message is fsynced)."""
    shm = Path("/dev/shm")
    path = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else None, prefix="hexlan-test-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def driver(game: SessionGame) -> random.Random:
    """The rng a heuristic bot playing the person's seat gets: seeded as the game seeds its
    bots, so a game is the same whichever seat is the person's."""
    assert game.seed is not None
    return random.Random(game.seed * 31 + game.human_seat)


def person_first(game: SessionGame) -> bool:
    """Whether the person's decision comes next when decisions are taken in seat order (the
    order SessionGame.step() takes the bots'), so the messages, hence the beacon's dice, are
    the same whichever seat is the person's."""
    due = [s.seat for s in game.table.sessions if s.decision_due()]
    return bool(due) and due[0] == game.human_seat


def play_out(game: SessionGame, until: int | None = None, limit: int = 20_000) -> None:
    """Play on (the person's seat by a heuristic bot) to the end, or until ``until`` events."""
    bot = make_bot("heuristic", driver(game))
    for _ in range(limit):
        if game.is_over or (until is not None and len(game.events) >= until):
            return
        if person_first(game):
            game.submit(bot.choose(game.view, game.human_seat))
        else:
            assert game.step() is not None, "step() returned None while nobody waits"
    raise AssertionError("the game did not end")


def test_full_game_ends_as_every_session_sees_it(log_dir: Path) -> None:
    game = SessionGame(players=4, seed=3, log_dir=log_dir)
    play_out(game)
    assert game.is_over and game.stopped is None
    winner = game.winner
    assert winner is not None
    # every seat's session ended in the same game
    sessions = game.table.sessions
    assert all(s.view is not None and s.view.winner == winner for s in sessions)
    assert len({s.view.public_hash() for s in sessions if s.view is not None}) == 1
    scores = game.scores()
    assert scores[winner].total >= 10
    assert scores[winner].total == game.view.victory_points(winner)
    mine = scores[game.human_seat]
    assert mine.total == game.view.victory_points(game.human_seat) and mine.hidden_cards == 0
    for score in scores:  # the breakdown adds up
        assert score.total == (
            score.settlements
            + 2 * score.cities
            + 2 * (score.longest_road + score.largest_army)
            + score.vp_cards
        )
    assert [e.index for e in game.events] == list(range(len(game.events)))
    assert game.events[-1].kind == "game" and "win" in game.events[-1].text
    assert len(game.rolls) == sum(1 for e in game.events if isinstance(e.action, A.Dice))
    assert game.step() is None
    with pytest.raises(IllegalActionError):
        game.submit(A.END_TURN)

    # the person's log: every message its session accepted or signed, marked not fair
    assert game.log_path is not None and game.log_path.parent == log_dir
    contents = read_log(game.log_path)
    assert Opening.from_payload(contents.opening) == game.table.opening
    assert contents.messages == game.table.logs[game.human_seat]
    assert NOT_FAIR_NOTE in contents.notes
    from hexlan.net.verify import main as verify

    report = io.StringIO()
    assert verify([str(game.log_path)], as_json=False, out=report) == 0, report.getvalue()
    assert "not fair" in report.getvalue()


def test_a_fair_game_sets_its_deck_up_in_the_background_and_its_log_verifies(
    log_dir: Path,
) -> None:
    """Unseeded, the deck's proofs and the audit run in worker threads (the screen stays live);
    played to the end and closed, the person's log holds the whole game and its audit."""
    game = SessionGame(players=3, log_dir=log_dir)
    assert game.working  # the first shuffle is being proved while the set-up begins
    person = make_bot("heuristic", random.Random(2))
    for _ in range(20_000):
        if game.is_over:
            break
        if game.human_to_act():
            game.submit(person.choose(game.view, game.human_seat))
        elif game.step() == []:
            game.wait()
    assert game.is_over and game.winner is not None
    while not game.session.done:
        assert game.step() == [] and game.working  # only the audit's work is left
        game.wait()
    assert game.step() is None
    assert "Audit passed" in game.audit_words() and "signed by every seat" in game.audit_words()
    game.close()
    assert game.log_path is not None
    contents = read_log(game.log_path)
    assert contents.messages == game.table.logs[game.human_seat]
    assert any(n.startswith("audit: Audit passed") for n in contents.notes)
    from hexlan.net.verify import main as verify

    report = io.StringIO()
    assert verify([str(game.log_path)], as_json=False, out=report) == 0, report.getvalue()
    assert "audit passed and signed by every seat" in report.getvalue()


def test_same_seed_same_game_and_no_seed_is_fair() -> None:
    first = SessionGame(players=3, seed=7, save_log=False)
    second = SessionGame(players=3, seed=7, save_log=False)
    play_out(first, until=120)
    play_out(second, until=120)
    assert [e.text for e in first.events] == [e.text for e in second.events]
    assert first.table.logs[0] == second.table.logs[0]  # byte for byte: keys follow the seed
    assert not first.fair
    other = SessionGame(players=3, seed=8, save_log=False)
    play_out(other, until=120)
    assert [e.text for e in other.events] != [e.text for e in first.events]
    fair = SessionGame(players=3, save_log=False)
    assert fair.fair and fair.seed is None and fair.table.opening.created > 0


def test_step_waits_for_the_person() -> None:
    game = SessionGame(players=3, seed=5, save_log=False)
    events = game.run_bots()
    assert game.human_to_act() and game.step() is None
    assert game.view.phase is Phase.SETUP_SETTLEMENT and game.view.active == game.human_seat
    assert events == game.events[1:] or events == game.events  # the start may precede
    assert game.waiting_on() == []


def _snapshot(game: SessionGame) -> tuple[object, ...]:
    return (
        game.view.public_hash(),
        tuple(game.view.hands[game.human_seat]),
        len(game.events),
        [len(log) for log in game.table.logs],
        game.session.heads(),
    )


def test_illegal_submit_raises_and_changes_nothing() -> None:
    game = SessionGame(players=4, seed=1, save_log=False)
    game.run_bots()
    assert game.human_to_act() and game.view.phase is Phase.SETUP_SETTLEMENT
    before = _snapshot(game)
    node = next(a for a in game.legal_actions() if isinstance(a, A.BuildSettlement)).node
    for bad in (
        A.ROLL,  # not in set-up
        A.END_TURN,
        A.BuildRoad(0),  # a road before the settlement
        A.Dice(3, 4),  # chance outcomes are not moves
        A.Discard(1, (1, 0, 0, 0, 0)),  # another seat's move
    ):
        with pytest.raises(IllegalActionError):
            game.submit(bad)
        assert _snapshot(game) == before
    game.submit(A.BuildSettlement(node))
    game.submit(next(a for a in game.legal_actions() if isinstance(a, A.BuildRoad)))
    game.run_bots()
    neighbour = game.view.topology.node_nodes[node][0]
    before = _snapshot(game)
    with pytest.raises(IllegalActionError):
        game.submit(A.BuildSettlement(neighbour))  # the distance rule
    assert _snapshot(game) == before


def _steal(
    game: SessionGame, third_party: bool, kinds: int = 1
) -> tuple[GameEvent, int, int, Resource]:
    """Play on until the next steal whose victim held at least ``kinds`` kinds of card, by
    seats other than the person's (``third_party``) or with the person as thief or victim;
    (event, thief, victim, the card)."""
    bot = make_bot("heuristic", driver(game))
    sessions = game.table.sessions
    while not game.is_over:
        hands = [tuple(s.view.hands[s.seat]) for s in sessions if s.view is not None]
        seen = len(game.events)
        if person_first(game):
            game.submit(bot.choose(game.view, game.human_seat))
        else:
            game.step()
        for event in game.events[seen:]:
            if not isinstance(event.action, A.StealCard):
                continue
            robbery = game.events[event.index - 1].action
            thief = event.seat
            assert isinstance(robbery, A.MoveRobber) and thief is not None
            victim = robbery.victim
            took = [
                e.action.resource
                for e in game.table.effects[thief]
                if isinstance(e, Applied) and isinstance(e.action, A.StealCard)
            ][-1]
            assert took is not None
            outside = game.human_seat not in (thief, victim)
            if outside == third_party and sum(1 for n in hands[victim] if n) >= kinds:
                return event, thief, victim, took
    raise AssertionError("the game ended before such a steal")


def test_a_card_stolen_between_two_others_is_never_named() -> None:
    game = SessionGame(players=4, seed=3, save_log=False)
    event, thief, victim, card = _steal(game, third_party=True, kinds=2)
    names = game.names
    assert event.action == A.StealCard(None)
    assert event.text == f"{names[thief]} stole a card from {names[victim]}"
    # what the person's session applied: that one card moved, not which
    steals = [
        e.action
        for e in game.table.effects[game.human_seat]
        if isinstance(e, Applied) and isinstance(e.action, A.StealCard)
    ]
    assert steals[-1] == A.StealCard(None) and A.StealCard(card) not in steals
    # the person's view holds the thief's hand as several possibilities, the true one among them
    view = game.view
    assert len(view.possible_hands(thief)) >= 2
    assert view.is_consistent([s.view.hands[s.seat] for s in game.table.sessions])  # type: ignore[union-attr]
    # and nothing said later names it in a steal
    word = card.name.lower()
    play_out(game, until=event.index + 40)
    assert all(
        word not in e.text for e in game.events[event.index :] if e.kind in ("steal", "robber")
    )


def test_steals_are_narrated_by_point_of_view() -> None:
    seed = 3
    reference = SessionGame(players=4, seed=seed, save_log=False)
    event, thief, victim, card = _steal(reference, third_party=True)
    word = card.name.lower()
    names = reference.names

    def seen_by(seat: int) -> GameEvent:
        game = SessionGame(players=4, seed=seed, human_seat=seat, save_log=False)
        play_out(game, until=event.index + 1)
        # the same game, whoever is the person
        assert [e.kind for e in game.events] == [
            e.kind for e in reference.events[: len(game.events)]
        ]
        return game.events[event.index]

    by_thief, by_victim = seen_by(thief), seen_by(victim)
    assert by_thief.action == by_victim.action == A.StealCard(card)
    assert by_thief.text == f"You stole a card from {names[victim]}: {word}"
    assert by_victim.text == f"{names[thief]} stole a card from you: {word}"
    assert event.text == f"{names[thief]} stole a card from {names[victim]}"


def test_narration_speaks_to_the_person() -> None:
    game = SessionGame(players=2, seed=2, names=["Ann", "Bot"], save_log=False)
    play_out(game, until=250)
    texts = [e.text for e in game.events]
    assert any(t.startswith("You rolled") for t in texts)
    assert any(t.startswith("Bot rolled") for t in texts)
    assert not any("Ann" in t for t in texts)  # the person is "you", never the name
    assert all(not t or t[0].isupper() for t in texts)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        SessionGame(players=5, save_log=False)
    with pytest.raises(ValueError):
        SessionGame(players=3, human_seat=3, save_log=False)
    with pytest.raises(ValueError):
        SessionGame(players=2, names=["a"], save_log=False)
    with pytest.raises(ValueError):
        SessionGame(players=2, board="hexagonal", save_log=False)


@pytest.mark.skipif(
    importlib.util.find_spec("hexlan.net.peer") is None, reason="net/peer.py is not there yet"
)
def test_network_client_words_stalls_and_stops(log_dir: Path) -> None:
    from hexlan.net.peer import Peer, PeerEvent

    keys = [SeatKeys.seeded(9, s) for s in range(3)]
    opening = make_opening(["Ann", "Bob", "Cy"], keys)
    k = keys[1]
    peer = Peer(1, k.identity, opening, k.chain, k.game_keys, log_dir / "bob.hexlan")
    game = NetworkGame(peer)
    changes: list[int] = []
    game.on_change = lambda: changes.append(1)
    try:
        assert not game.is_started and game.events == [] and game.human_seat == 1
        assert not game.human_to_act()
        peer.on_event(
            PeerEvent("stall", "waiting for seat 2 (Cy): no reveal for 5 s", 0.0, author=2)
        )  # type: ignore[misc]
        assert game.status == "waiting for Cy: no reveal for 5 s" and changes
        peer.on_event(PeerEvent("stall", "the game moves on again", 1.0))  # type: ignore[misc]
        assert game.status == ""
        peer.on_event(PeerEvent("link", "seat 0 (Ann): link open", 1.0, author=0))  # type: ignore[misc]
        assert game.links == {0: "link open"}
        assert game.seat_words("seat 1's public state differs from seat 0's") == (
            "your public state differs from Ann's"
        )
    finally:
        peer.close()
