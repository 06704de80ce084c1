"""Cities & Knights' board progress cards at the table (issue 13; docs/rules/cities-and-knights.md
"At the table"): at 80x24, by keys, the Alchemist offered before the roll and its dice chosen in
two dialogs, the Merchant's and the Bishop's hex and the Inventor's two hexes picked on the
board, the Deserter's opponent chosen in a dialog, its knight placed on the board, and a knight
removed for another seat's Deserter; the merchant drawn on its hex and its point on the players
panel. Each test plays a whole in-process game (slow)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from tui_play import Ready, Step, pick_card, play_by_keys, type_label

from hexlan.engine.bots.board_cards import board_card_choice
from hexlan.engine.core import Phase
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import (
    DesertKnight,
    KnightsPhase,
    PlaceDeserter,
    PlayProgress,
)
from hexlan.net.client import GameClient
from hexlan.tui.board import COMPACT
from hexlan.tui.board_knights import MERCHANT_GLYPH
from hexlan.tui.games.cities_knights_panel import tracks_lines
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen

GAME = "cities-and-knights"
SEED = (11, 10, 16)
"""Seeds whose games bring the person each of these cards and the Deserter's placement (each
game after the first is played only for what the ones before did not bring; the bots' keeping
the Spy changed the games of the earlier (10, 5), and their playing it between sessions those of
(5, 1, 11, 3, 10)). 11 brings the Merchant and the Alchemist, 10 the Bishop, the Deserter and
its placement, 16 the Inventor; 1, 3 and 5 were dropped (whole games played for nothing: 1 and 3
no longer brought any, 5 only the Deserter, which 10 brings too)."""
DESERTED_SEED = (5, 8)
"""Seeds whose games have another seat play a Deserter on the person (the second only if the
first no longer does, as bots change)."""

pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


def plays_of(game: GameClient, name: str) -> list[PlayProgress]:
    """The person's legal plays of the card ``name``."""
    variant = game.view.variant
    names = getattr(variant, "card_names")  # noqa: B009 (a Cities & Knights game)
    return [
        a
        for a in game.legal_actions()
        if isinstance(a, PlayProgress) and names[a.track][a.face] == name
    ]


def card_ready(name: str) -> Ready:
    """The person may play the card ``name`` now."""
    return lambda game: game.human_to_act() and bool(plays_of(game, name))


async def open_card(pilot: Pilot[int], screen: GameScreen, name: str) -> PlayProgress:
    """``l`` lists the cards; the one of ``name`` is picked (it may be played now). What the
    bot would play with it (the choice the keys then make), else its first play."""
    plays = plays_of(screen.game, name)
    wanted = board_card_choice(screen.game.view, 0, list(plays))
    play = wanted if isinstance(wanted, PlayProgress) else plays[0]
    await pick_card(pilot, play)
    return play


def told(screen: GameScreen, words: str) -> bool:
    return any(words in e.text for e in screen.game.events)


async def alchemist(pilot: Pilot[int], screen: GameScreen) -> None:
    """Before the roll the prompt offers the Alchemist beside the roll; ``l``, the card, the red
    die, the yellow die: the dice are those, the event die follows."""
    assert screen.game.view.phase.name == "ROLL"
    prompt = str(screen.query_one("#prompt").render())
    assert "roll the dice (r)" in prompt and "Alchemist first (l)" in prompt
    assert "r" in pilot.app.active_bindings
    await open_card(pilot, screen, "alchemist")
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text == "Alchemist: the red die?"
    await pilot.press("3")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and "yellow" in dialog.title_text
    await pilot.press("5")
    await pilot.pause()
    assert told(screen, "alchemist: red 3 and yellow 5 chosen")
    assert screen.game.view.dice is not None and screen.game.view.dice.total == 8


async def pick_hex(pilot: Pilot[int], screen: GameScreen, what: str, target: int) -> None:
    """The pick lit is ``what``; ``target``'s label typed."""
    assert screen.pick is not None and screen.pick.what == what, screen.pick
    assert target in screen.pick.labels
    await type_label(pilot, screen, target)


async def merchant(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the Merchant, a hex picked on the board: the merchant stands there, drawn as a
    reverse ``M``; the players panel marks its holder."""
    before = sum(line.count(MERCHANT_GLYPH) for line in screen.board.rendered_lines())
    play = await open_card(pilot, screen, "merchant")
    await pick_hex(pilot, screen, "merchant hex", play.choice)
    board = progress_of(screen.game.view).board
    assert (board.merchant, board.merchant_seat) == (play.choice, 0)
    after = sum(line.count(MERCHANT_GLYPH) for line in screen.board.rendered_lines())
    assert after == before + (before == 0)  # drawn once (it may have stood there before)
    assert str(tracks_lines(screen.game, progress_of(screen.game.view), False)[0]).endswith(" M")
    assert told(screen, "merchant: the merchant on ")


async def inventor(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the Inventor, two hexes picked one after the other (the first typed, the second
    clicked): their tokens swap."""
    play = await open_card(pilot, screen, "inventor")
    first, second = divmod(play.choice, 100)
    tokens = screen.game.view.board.tokens
    await pick_hex(pilot, screen, "inventor first", second)  # either may come first
    assert screen.pick is not None and screen.pick.what == "inventor second"
    cell = screen.board.cell_of("hex", first)  # the second by mouse: a click on the hex
    assert cell is not None
    await pilot.click("#board", offset=(cell.x, cell.y))
    await pilot.pause()
    swapped = screen.game.view.board.tokens
    assert (swapped[first], swapped[second]) == (tokens[second], tokens[first])


async def bishop(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the Bishop, a hex: the robber goes there."""
    play = await open_card(pilot, screen, "bishop")
    await pick_hex(pilot, screen, "bishop hex", play.choice)
    assert screen.game.view.robber == play.choice
    assert told(screen, "bishop: the robber to ")


async def deserter(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the Deserter, an opponent in a dialog: that seat is to remove a knight."""
    play = await open_card(pilot, screen, "deserter")
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("Deserter")
    index = next(i for i, (_, a) in enumerate(dialog.choices) if a == play)
    await pilot.press(str(index + 1))
    await pilot.pause()
    # the seat named removes a knight (a bot may have done so already, and the person may have
    # no place for the knight it gains: then the turn goes on)
    phases = (KnightsPhase.DESERTER, KnightsPhase.DESERTER_PLACE, Phase.MAIN)
    assert screen.game.view.phase in phases
    assert told(screen, f"deserter: {screen.game.names[play.choice]} must remove a knight")


async def place_deserter(pilot: Pilot[int], screen: GameScreen) -> None:
    """The placement dialog opens by itself; "yes", then the place typed on the board."""
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("The Deserter")
    await pilot.press("1")
    await pilot.pause()
    spot = next(
        a.node for a in screen.game.legal_actions() if isinstance(a, PlaceDeserter) and a.node >= 0
    )
    await pick_hex(pilot, screen, "deserter place", spot)
    assert progress_of(screen.game.view).knights[spot].seat == 0


async def deserted(pilot: Pilot[int], screen: GameScreen) -> None:
    """Another seat's Deserter names the person: its knights light up at once; one typed goes."""
    node = next(a.node for a in screen.game.legal_actions() if isinstance(a, DesertKnight))
    await pick_hex(pilot, screen, "deserter", node)
    assert node not in progress_of(screen.game.view).knights


@pytest.mark.slow
async def test_the_board_cards_by_keys_at_80x24() -> None:
    steps: dict[str, Step] = {
        "merchant": merchant,
        "alchemist": alchemist,
        "inventor": inventor,
        "bishop": bishop,
        "deserter": deserter,
        "deserter place": place_deserter,
    }
    ready = {name: card_ready(name) for name in ("merchant", "alchemist", "inventor", "bishop")}
    ready["deserter"] = card_ready("deserter")
    ready["deserter place"] = lambda game: (
        game.human_to_act() and game.view.phase is KnightsPhase.DESERTER_PLACE
    )
    await play_by_keys((80, 24), COMPACT, steps, ready, GAME, SEED)


@pytest.mark.slow
async def test_a_knight_removed_for_another_seats_deserter_by_keys() -> None:
    ready: dict[str, Ready] = {
        "deserted": lambda game: game.human_to_act() and game.view.phase is KnightsPhase.DESERTER
    }
    await play_by_keys((80, 24), COMPACT, {"deserted": deserted}, ready, GAME, DESERTED_SEED)
