"""Cities & Knights told in words (net/tellers/cities_knights.py): in a seeded bot game narrated
from every seat, each of the game's actions says something; a progress card is named to its
drawer only; the barbarians' voyage counts up to their landing, whose words match the engine's
outcome."""

from __future__ import annotations

from test_telling import narrated

from hexlan.engine import actions as A
from hexlan.engine.variants.cities_knights.actions import (
    SHIP,
    BuildKnight,
    EventDie,
    ImproveCity,
    ProgressDrawn,
)
from hexlan.net.tellers.cities_knights import IMPROVEMENTS

GAME = "cities-and-knights"
SEED = 2


def test_every_cities_and_knights_action_is_told() -> None:
    kinds: set[str] = set()
    drawn = landed = sailed = 0
    for action, told in narrated(GAME, 4, SEED):
        if isinstance(action, A.VariantAction) and not isinstance(action, EventDie | ProgressDrawn):
            assert all(event.text for event in told), type(action).__name__
            kinds.add(type(action).__name__)
        if isinstance(action, BuildKnight):
            assert all("built a basic knight at " in event.text for event in told)
        if isinstance(action, ImproveCity):
            assert any(name in told[0].text for names in IMPROVEMENTS for name in names)
        if isinstance(action, ProgressDrawn):
            drawer = told[0].seat
            assert all(event.seat == drawer for event in told)
            assert told[drawer].text.startswith("You drew a ")
            assert ": " in told[drawer].text.split(";")[0]  # the card's name, to the drawer
            others = [event.text for s, event in enumerate(told) if s != drawer]
            assert all(": " not in text.split(";")[0] for text in others)
            drawn += 1
        if isinstance(action, EventDie) and action.symbol == SHIP:
            if "The barbarians land!" in told[0].text:
                landed += 1
                assert all("Every knight goes inactive" in event.text for event in told)
            else:
                assert "the barbarians sail on (" in told[0].text
                sailed += 1
    assert {"BuildKnight", "ActivateKnight", "PromoteKnight", "ImproveCity"} <= kinds
    assert drawn and landed and sailed
