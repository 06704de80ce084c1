"""Cities & Knights' board progress cards over the network (issue 13; PROTOCOL.md §6, §7,
§13.8): four in-process sessions of heuristic bots play a whole game in which the Alchemist's
chosen dice stand in for the beacon's (the event die is still the beacon's), the Bishop's steals
run one after another, each numbered after the steals before it (§7), and the Deserter's two
steps are taken by the seat that loses a knight and then by the player; every seat agrees, the
audit passes and every log verifies."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bot_games import assert_logs_verify

from hexlan.engine import actions as A
from hexlan.engine.bots import make_bot
from hexlan.engine.variants.cities_knights import CitiesKnights
from hexlan.engine.variants.cities_knights.actions import (
    DesertKnight,
    EventDie,
    PlaceDeserter,
    PlayProgress,
)
from hexlan.net.inproc import InProcessTable

GAME = "cities-and-knights"
SEED = 1
"""A seeded table whose bots play the Alchemist, the Bishop (robbing two seats) and the
Deserter."""


def card_name(table: InProcessTable, play: PlayProgress) -> str:
    """The name of the progress card ``play`` plays."""
    view = table.sessions[0].view
    assert view is not None and isinstance(view.variant, CitiesKnights)
    return view.variant.card_names[play.track][play.face]


def checked_plays(table: InProcessTable) -> dict[str, int]:
    """Check each Alchemist, Bishop and Deserter played in seat 0's journal of the finished
    game; how many of each (for the Bishop: the most seats one robbed)."""
    journal = table.sessions[0].journal
    seen: dict[str, int] = {}
    for i, entry in enumerate(journal):
        play, player = entry.action, entry.author
        if not isinstance(play, PlayProgress) or player is None:
            continue
        name = card_name(table, play)
        later = journal[i + 1 :]
        if name == "alchemist":  # no beacon dice: the event die, the beacon's, comes next
            assert isinstance(later[0].action, EventDie) and later[0].author is None
            seen[name] = seen.get(name, 0) + 1
        elif name == "bishop":  # a steal per victim, numbered after every steal before (§7)
            steals = []
            for e in later:
                if not isinstance(e.action, A.StealCard):
                    break
                steals.append(e.steal)
            before = len(  # steals, loots, hands and Spies' cards shown share one sequence (§7)
                {r.steal for e in journal[:i] for r in (e.steal, e.loot, e.hand) if r is not None}
                | {e.spy.spy for e in journal[:i] if e.spy is not None}
            )
            numbers = [r.steal for r in steals if r is not None]
            assert numbers == list(range(before + 1, before + 1 + len(steals)))
            assert all(r is not None and r.thief == player for r in steals)
            assert len({r.victim for r in steals if r is not None}) == len(steals)
            seen[name] = max(seen.get(name, 0), len(steals))
        elif name == "deserter":  # the named seat removes a knight, then the player places
            removal = later[0]
            assert isinstance(removal.action, DesertKnight)
            assert removal.author == removal.action.seat == play.choice != player
            if isinstance(later[1].action, PlaceDeserter):
                assert later[1].author == player
            seen[name] = seen.get(name, 0) + 1
    return seen


@pytest.mark.slow
def test_the_board_cards_over_the_network(tmp_path: Path) -> None:
    table = InProcessTable(["a", "b", "c", "d"], seed=SEED, game=GAME)
    table.play_bots([make_bot("heuristic", random.Random(s)) for s in range(4)])
    assert all(s.stopped is None and s.audited is not None for s in table.sessions)
    assert len({s.view.public_hash() for s in table.sessions if s.view is not None}) == 1
    seen = checked_plays(table)
    assert seen.get("alchemist") and seen.get("deserter") and seen.get("bishop", 0) >= 2, seen
    assert_logs_verify(table, tmp_path, GAME)
