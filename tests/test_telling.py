"""The narrator's open set (net/telling.py, net/tellers/): every action of every game has a
teller, a game's teller is found by its class, registrations are refused twice, and what the
narration says of chance outcomes names the right seat in every game."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.bots import make_bot
from hexlan.engine.maps import load_map
from hexlan.engine.registry import ACTION_TYPES
from hexlan.engine.ruleset import load_ruleset
from hexlan.engine.state import CHANCE, GameState
from hexlan.engine.variants.jungle import BuyWithDiscoveries
from hexlan.engine.variants.seafarers import BuildShip
from hexlan.net.narrate import DEFAULT_NAMES, GameEvent, Narrator
from hexlan.net.telling import Telling, Told, teller_for, tells, tells_event

DISCOVERY_BUY_SEED = 1
"""A seed of the Jungle for three heuristic bots where seats buy cards with discoveries after
another seat bought one with resources."""

SHIP_LAST_SEED = 0
"""A seed of The Fog Island for five random bots whose set-up ends with a ship."""

SILENT = {A.RollDice}
"""Actions that say nothing by themselves (the dice that follow say it)."""


def test_every_action_of_every_game_has_its_own_teller() -> None:
    for cls in ACTION_TYPES:
        teller = teller_for(cls)
        assert teller.__module__.startswith("hexlan.net.tellers."), cls.__name__
        if cls not in SILENT:
            assert teller.__name__ != "asked_to_roll", cls.__name__


def test_a_game_module_registers_its_tellers_beside_the_base_games() -> None:
    assert teller_for(BuildShip).__module__ == "hexlan.net.tellers.seafarers"
    assert teller_for(BuyWithDiscoveries).__module__ == "hexlan.net.tellers.jungle"
    assert teller_for(A.BuildRoad).__module__ == "hexlan.net.tellers.base"


def test_an_action_or_event_is_told_by_one_teller_only() -> None:
    with pytest.raises(ValueError, match="BuildCity already has a teller"):
        tells(A.BuildCity)(lambda t: Told(""))
    with pytest.raises(ValueError, match="AwardMoved already has a clause at 'end'"):
        tells_event(E.AwardMoved, "end")(lambda t, ev: "")


def test_an_unregistered_action_says_nothing() -> None:
    class Unknown(A.VariantAction):
        pass

    teller = teller_for(Unknown)
    told = teller(Telling.__new__(Telling))
    assert told == Told("")


def narrated(
    game: str, players: int, seed: int, bot: str = "heuristic"
) -> Iterator[tuple[A.Action, list[GameEvent]]]:
    """Each action of a seeded game of ``bot`` bots with what every seat's narrator made of
    it."""
    rules = load_ruleset(game)
    chance = SeededChance(seed)
    state = GameState(chance.board("random", board_map=load_map(rules.board)), players, rules=rules)
    bots = [
        make_bot(bot, random.Random(seed * 31 + i), 1.0, time.perf_counter) for i in range(players)
    ]
    narrators = [
        Narrator(state.board, ("You", *DEFAULT_NAMES[1:players]), s, rules=rules)
        for s in range(players)
    ]
    # each narrator names its own seat "You" and the others by their colour
    for s, narrator in enumerate(narrators):
        narrator.names = tuple(
            "You" if i == s else DEFAULT_NAMES[i] if i else "Orange" for i in range(players)
        )
    while not state.is_over and state.turn <= 300:
        seat = state.current_player()
        action = chance.outcome(state) if seat == CHANCE else bots[seat].choose(state, seat)
        told = [n.narrate(state.observation(action, n.seat)) for n in narrators]
        state.apply(action)
        yield action, told


def test_a_card_bought_with_discoveries_is_drawn_by_its_buyer() -> None:
    """The card a Jungle buy deals is told as the buyer's: "You drew ..." to the buyer only, and
    every seat attributes it to the buyer (it once named the last seat that bought with
    resources, which in this game is another seat)."""
    buyer = None
    checked = 0
    for action, told in narrated("jungle", 3, DISCOVERY_BUY_SEED):
        if isinstance(action, BuyWithDiscoveries):
            buyer = told[0].seat
        elif isinstance(action, A.DrawCard) and buyer is not None:
            assert {event.seat for event in told} == {buyer}
            assert told[buyer].text.startswith("You drew ")
            assert all(event.text == "" for s, event in enumerate(told) if s != buyer)
            buyer = None
            checked += 1
    assert checked == 2  # both of this game's buys with discoveries


def test_the_last_set_up_piece_says_the_set_up_is_done_even_a_ship() -> None:
    """In Seafarers the last set-up piece may be a ship; it ends the set-up in words like a
    road (it once said nothing of it)."""
    for action, told in narrated("seafarers-fog-island-6", 5, SHIP_LAST_SEED, "random"):
        if told[0].turn == 1:  # the action that ended the set-up
            assert isinstance(action, BuildShip)
            assert all("placed a ship. Set-up done: Turn 1, " in event.text for event in told)
            return
    raise AssertionError("the set-up never ended")
