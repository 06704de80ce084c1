"""Landnám's heuristic bot (engine/bots/landnam.py): it plays every phase legally from its own
seat's view, beats random bots, and is the bot `hexlan simulate --game landnam --bots
heuristic` seats; bots it has not are refused by name (engine/bots/own.py)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from hexlan.cli import main
from hexlan.engine.actions import Action
from hexlan.engine.bots.landnam import LandnamBot, pips, worth
from hexlan.engine.bots.own import own_bot
from hexlan.engine.game import CHANCE_SEAT, sample_outcome
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import althing
from hexlan.engine.variants.landnam.phases import APPOINT
from hexlan.engine.variants.landnam.rules import Fate
from hexlan.engine.variants.landnam.state import LandnamState, new_game
from hexlan.simulate import play_own_game


def _check_althing_choice(view: LandnamState, seat: int, action: Action) -> None:
    """The bot's Althing play (§8): it names the next seat to start the lawsuit round, sues
    only with more cards of the case's kind than the defendant holds, and plays no Althing card
    on a rival's outlaw."""
    if view.phase == APPOINT:
        assert action == L.Appoint(view.next_seat(seat))
    if isinstance(action, L.Sue):
        kind = next(k for n, k, _ in althing.suits(view, seat) if n == action.unit)
        defendant = view.unit(action.unit).owner
        assert view.hands[seat][kind] > view.hands[defendant][kind]
    if isinstance(action, L.PlayFate) and action.face == Fate.ATONEMENT:
        assert view.unit(action.target).owner == seat


def _play_checked(seed: int, names: list[str], phases: Counter[str]) -> LandnamState:
    """One game with every decision checked: the bot's action is among its view's legal
    actions and passes the full state's check; counts the phases the bots decided in."""
    state = new_game("landnam", len(names))
    rng = random.Random(seed)
    bots = [own_bot(n, state, random.Random(seed * 31 + s)) for s, n in enumerate(names)]
    views = [state.view(s) for s in range(state.players)]
    while not state.is_over:
        assert state.turn <= 1500, f"seed {seed}: no winner by the turn cap"
        seat = state.current_player()
        if seat == CHANCE_SEAT:
            action = sample_outcome(state, rng)
        else:
            action = bots[seat].choose(views[seat], seat)
            assert action in views[seat].legal_actions(seat), (state.phase, action)
            state.check(action)
            if names[seat] == "heuristic":
                phases[state.phase] += 1
                _check_althing_choice(views[seat], seat, action)
        for viewer, view in enumerate(views):
            view.apply(state.observation(action, viewer))
        state.apply(action)
    return state


def test_the_bot_plays_every_phase_legally_and_every_game_ends_with_a_winner() -> None:
    """Heuristic against random bots at 3, 4 and 5 seats: every decision legal, every game won
    by a seat at 12 points or more (§15)."""
    phases: Counter[str] = Counter()
    for seed, names in enumerate(
        (
            ["heuristic", "random", "heuristic"],
            ["random", "heuristic", "heuristic", "random"],
            ["heuristic", "heuristic", "random", "heuristic", "random"],
            ["heuristic", "heuristic", "heuristic", "heuristic"],
        )
    ):
        state = _play_checked(seed, names, phases)
        assert state.winners()
        assert all(state.victory_points(s) >= 12 for s in state.winners())
    for phase in ("trade", "move", "harvest_card", "suing", "althing_open", "age_pick", "case"):
        assert phases[phase], f"the bot never decided in {phase}: {phases}"


def test_the_bot_beats_random_bots() -> None:
    """As one seat of four, its seat rotated, it wins at least 8 of 10 seeded games."""
    wins = 0
    for seed in range(10):
        seat = seed % 4
        names = ["heuristic" if s == seat else "random" for s in range(4)]
        result = play_own_game(seed, new_game("landnam", 4), names)
        wins += result.winner == seat
    assert wins >= 8


def test_number_worth_follows_the_dice_and_ageing() -> None:
    """6 and 8 are worth most; ageing lifts a green number and lowers a red one (§7)."""
    assert pips(6) == pips(8) == 5 and pips(2) == pips(12) == 1 and pips(7) == 0
    assert worth(5) > pips(5) and worth(9) < pips(9) and worth(6) > worth(8)


def test_the_bot_refuses_other_games_and_unknown_bots() -> None:
    """The Landnám bot reads Landnám states only; a bot Landnám has not is refused by name."""
    state = new_game("landnam", 3)
    with pytest.raises(TypeError, match="Landnám states"):
        LandnamBot(random.Random(0)).choose(object(), 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no 'genius' bot; choose one of: random, heuristic, mcts"):
        own_bot("genius", state, random.Random(0))


def test_hexlan_simulate_seats_the_heuristic_bot() -> None:
    """`hexlan simulate --game landnam --bots heuristic --games 2` plays two games to a winner."""
    run = CliRunner().invoke(
        main, ["simulate", "--game", "landnam", "--bots", "heuristic", "--games", "2", "--json"]
    )
    assert run.exit_code == 0, run.output
    report = json.loads(run.output.strip().splitlines()[-1])
    assert report["bots"] == ["heuristic"] * 4
    assert all(g["winner"] is not None and max(g["victory_points"]) >= 12 for g in report["games"])
