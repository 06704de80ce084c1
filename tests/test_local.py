"""The in-process game client (net/local.py): full games, refusals, narration per seat."""

from __future__ import annotations

import random

import pytest

from hexlan.engine import actions as A
from hexlan.engine.bots import make_bot
from hexlan.engine.core import IllegalActionError, Phase
from hexlan.net.local import GameEvent, LocalGame


def play_out(game: LocalGame, limit: int = 20_000) -> None:
    """Play the game to its end; the human seat is driven by a heuristic bot seeded as LocalGame
    seeds its own bots, so a game is the same whichever seat is "human"."""
    driver = make_bot("heuristic", random.Random(game.seed * 31 + game.human_seat))
    for _ in range(limit):
        if game.is_over:
            return
        if game.human_to_act():
            game.submit(driver.choose(game.view, game.human_seat))
        else:
            assert game.step() is not None, "step() returned None while nobody waits"
    raise AssertionError("the game did not end")


def test_full_bot_game_ends_with_a_winner() -> None:
    game = LocalGame(players=4, seed=3)
    play_out(game)
    assert game.is_over
    winner = game.winner
    assert winner is not None
    scores = game.scores()
    assert scores[winner].total >= 10
    assert scores[winner].total == max(s.total for s in scores)
    # every breakdown adds up to the engine's count (all hands revealed at the end)
    state = game._state
    for score in scores:
        assert score.total == state.victory_points(score.seat)
        assert score.total == (
            score.settlements
            + 2 * score.cities
            + 2 * (score.longest_road + score.largest_army)
            + score.vp_cards
        )
    assert [e.index for e in game.events] == list(range(len(game.events)))
    assert game.events[-1].kind == "game"
    assert "wins" in game.events[-1].text
    assert len(game.rolls) == sum(1 for e in game.events if isinstance(e.action, A.Dice))
    assert game.step() is None


def test_step_waits_for_the_human() -> None:
    game = LocalGame(players=3, seed=5)
    events = game.run_bots()
    assert events and game.human_to_act()
    assert game.step() is None
    assert game.view.phase is Phase.SETUP_SETTLEMENT
    assert game.view.active == game.human_seat


def _snapshot(game: LocalGame) -> tuple[str, str, int]:
    return game._state.full_hash(), game.view.public_hash(), len(game.events)


def test_illegal_submit_raises_and_changes_nothing() -> None:
    game = LocalGame(players=4, seed=1)
    game.run_bots()
    assert game.human_to_act()
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
    # the distance rule: a neighbour of the new settlement is refused, nothing changes
    game.submit(next(a for a in game.legal_actions() if isinstance(a, A.BuildRoad)))
    game.run_bots()
    neighbour = game.view.topology.node_nodes[node][0]
    before = _snapshot(game)
    with pytest.raises(IllegalActionError):
        game.submit(A.BuildSettlement(neighbour))
    assert _snapshot(game) == before


def _first_steal(events: list[GameEvent]) -> int:
    return next(
        e.index
        for e in events
        if isinstance(e.action, A.StealCard) and events[e.index - 1].action.victim >= 0  # type: ignore[union-attr]
    )


def test_steals_are_narrated_by_point_of_view() -> None:
    seed = 3
    reference = LocalGame(players=4, seed=seed)
    play_out(reference)
    i = _first_steal(reference.events)
    thief = reference.events[i].seat
    robbery = reference.events[i - 1].action
    assert isinstance(robbery, A.MoveRobber) and thief is not None
    victim = robbery.victim
    other = next(s for s in range(4) if s not in (thief, victim))

    def seen_by(seat: int) -> GameEvent:
        game = LocalGame(players=4, seed=seed, human_seat=seat)
        play_out(game)
        # the same game, whoever is "human"
        assert [e.kind for e in game.events] == [e.kind for e in reference.events]
        return game.events[i]

    names = reference.names
    by_thief, by_victim, by_other = seen_by(thief), seen_by(victim), seen_by(other)
    card = by_thief.action.resource  # type: ignore[union-attr]
    assert card is not None
    word = card.name.lower()
    assert by_victim.action == by_thief.action  # both see the card
    assert by_other.action == A.StealCard(None)  # a third seat does not
    assert by_thief.text == f"You stole a card from {names[victim]}: {word}"
    assert by_victim.text == f"{names[thief]} stole a card from you: {word}"
    assert by_other.text == f"{names[thief]} stole a card from {names[victim]}"
    assert word not in by_other.text


def test_narration_speaks_to_the_human() -> None:
    game = LocalGame(players=2, seed=2, names=["Ann", "Bot"])
    play_out(game)
    texts = [e.text for e in game.events]
    assert any(t.startswith("You rolled") for t in texts)
    assert any(t.startswith("Bot rolled") for t in texts)
    assert not any("Ann" in t for t in texts)  # the human is "you", never the name
    assert all(not t or t[0].isupper() for t in texts)
    discards = [e for e in game.events if isinstance(e.action, A.Discard)]
    for event in discards:
        assert event.text.startswith(("You discarded", "Bot discarded"))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        LocalGame(players=5)
    with pytest.raises(ValueError):
        LocalGame(players=3, human_seat=3)
    with pytest.raises(ValueError):
        LocalGame(players=2, names=["a"])
    with pytest.raises(ValueError):
        LocalGame(players=2, board="hexagonal")
