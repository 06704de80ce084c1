"""Cities & Knights at the table (seed 002 «Города и рыцари»; tui/screens/knights.py), driven as a
person would at 80x24 and at 120x40: a knight built, activated and promoted with ``k``, a city
improvement with ``i``, a wall with ``w``, each checked against the engine's state and the
board; the status line follows the barbarians' ship; and a whole bot game of Cities & Knights
runs on the game screen to the game-over screen.

The games are real in-process sessions of `hexlan play --game cities-and-knights` (seeded),
the person's seat played by a heuristic bot up to the position wanted, then by keys
(:mod:`tui_play`).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from tui_play import Step, legal, pick_card, play_by_keys, type_label

from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import (
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DiscardProgress,
    ImproveCity,
    MoveKnight,
    PillageCity,
    PlayProgress,
    PromoteKnight,
)
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.net.client import SessionGame
from hexlan.tui.app import make_app
from hexlan.tui.board import COMPACT, ROOMY, geometry
from hexlan.tui.board_knights import KNIGHT_GLYPHS, WALL_GLYPH
from hexlan.tui.board_render import render_canvas
from hexlan.tui.screens import knights as ck
from hexlan.tui.screens.dialogs import ChoiceDialog
from hexlan.tui.screens.game import GameScreen
from hexlan.tui.screens.info import GameOverScreen, score_table
from hexlan.tui.screens.knights import MOVE
from hexlan.tui.widgets.status import StatusBar

GAME = "cities-and-knights"
SIZES = [
    pytest.param((80, 24), COMPACT, id="80x24"),
    pytest.param((120, 40), ROOMY, id="120x40", marks=pytest.mark.slow),
]
"""The smallest and a roomy terminal (the quick run, ``-m 'not slow'``, keeps the smallest)."""
SEED = 3
"""A seed whose game brings the person each step within its first turns."""
CARD_SEED = 8
"""A seed whose game first lets the person play a card that asks for a place or a kind, or
nothing (seed 8: the Printer, since the bots keep the Spy; the board cards' own ways are
tests/test_tui_board_cards.py's)."""
READY = {
    "knight": legal(BuildKnight),
    "activate": legal(ActivateKnight),
    "promote": legal(PromoteKnight),
    "improve": legal(ImproveCity),
    "wall": legal(BuildWall),
}
"""When each step may be played."""

pytestmark = pytest.mark.usefixtures("data_dir")  # logs go to a temporary directory


def status_text(screen: GameScreen) -> str:
    return str(screen.query_one(StatusBar).render())


def assert_lines_fit(screen: GameScreen) -> None:
    """The status line and the prompt are told whole in their width (at 80 columns the status
    line turns compact; no part, your points last, is cut off)."""
    status = screen.query_one(StatusBar)
    line = status_text(screen)
    assert line.endswith(f"/{screen.game.view.target} VP"), line
    assert len(line) <= status.content_size.width, line
    prompt = screen.query_one("#prompt", Static)
    words = str(prompt.render())
    assert len(words) <= prompt.content_size.width, words


def ship_shown(screen: GameScreen) -> int:
    """Where the status line shows the barbarians' ship: where the engine has it."""
    progress = progress_of(screen.game.view)
    assert f"ship {progress.barbarians}/7" in status_text(screen)
    return progress.barbarians


async def knight_choice(pilot: Pilot[int], screen: GameScreen, kind: type) -> int:
    """``k`` lights the knights that may act; typing the label of one that may do ``kind``
    offers its actions; the one of ``kind`` is chosen. The knight's intersection."""
    node = next(a.node for a in screen.game.legal_actions() if isinstance(a, kind))
    assert "k" in pilot.app.active_bindings
    await pilot.press("k")
    await pilot.pause()
    assert screen.pick is not None and screen.pick.what == "knight"
    assert_lines_fit(screen)
    assert node in screen.pick.labels
    await type_label(pilot, screen, node)
    dialog = pilot.app.screen
    if isinstance(dialog, ChoiceDialog):  # several things this knight may do
        index = next(i for i, (_, value) in enumerate(dialog.choices) if isinstance(value, kind))
        await pilot.press(str(index + 1))
        await pilot.pause()
    return node


def knight_cell(screen: GameScreen, node: int) -> str:
    cell = screen.board.cell_of("node", node)
    assert cell is not None
    return screen.board.rendered_lines()[cell.y][cell.x]


async def build_a_knight(pilot: Pilot[int], screen: GameScreen) -> None:
    """``k`` then a lit empty intersection: a basic knight, inactive, drawn ``1``; its cost
    paid."""
    hand = sum(screen.game.view.hands[0])
    node = await knight_choice(pilot, screen, BuildKnight)
    knight = progress_of(screen.game.view).knights[node]
    assert (knight.seat, knight.level, knight.active) == (0, 1, False)
    assert sum(screen.game.view.hands[0]) == hand - 2
    assert knight_cell(screen, node) == KNIGHT_GLYPHS[1]
    assert any(e.text.startswith("You built a knight at ") for e in screen.game.events)


async def activate_a_knight(pilot: Pilot[int], screen: GameScreen) -> None:
    """``k``, the knight, "activate": it is active (and the players table counts its
    strength)."""
    node = await knight_choice(pilot, screen, ActivateKnight)
    knight = progress_of(screen.game.view).knights[node]
    assert knight.active
    assert any(e.text.startswith("You activated a ") for e in screen.game.events)


async def promote_a_knight(pilot: Pilot[int], screen: GameScreen) -> None:
    """``k``, the knight, "promote": one level up, drawn with its new digit."""
    node = next(a.node for a in screen.game.legal_actions() if isinstance(a, PromoteKnight))
    level = progress_of(screen.game.view).knights[node].level
    assert await knight_choice(pilot, screen, PromoteKnight) == node
    knight = progress_of(screen.game.view).knights[node]
    assert knight.level == level + 1
    assert knight_cell(screen, node) == KNIGHT_GLYPHS[level + 1]


async def improve_a_city(pilot: Pilot[int], screen: GameScreen) -> None:
    """``i`` offers the tracks that can be improved with their cost; the first chosen goes up
    a level (a metropolis level asks for the city, which is picked too)."""
    view = screen.game.view
    levels = list(progress_of(view).levels[0])
    await pilot.press("i")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog)
    track = dialog.choices[0][1]
    assert isinstance(track, int)
    assert str(dialog.choices[0][0]).startswith(("trade", "politics", "science"))
    await pilot.press("1")
    await pilot.pause()
    if screen.pick is not None and screen.pick.what == "metropolis":
        await type_label(pilot, screen, next(iter(screen.pick.labels)))
    assert progress_of(screen.game.view).levels[0][track] == levels[track] + 1


async def build_a_wall(pilot: Pilot[int], screen: GameScreen) -> None:
    """``w`` lights the cities that may take a wall; the one typed gets it."""
    assert "w" in pilot.app.active_bindings
    await pilot.press("w")
    await pilot.pause()
    assert screen.pick is not None and screen.pick.what == "wall"
    assert_lines_fit(screen)
    node = next(iter(screen.pick.labels))
    await type_label(pilot, screen, node)
    view = screen.game.view
    assert node in progress_of(view).walls[0]
    layout = screen.board.board_layout
    assert layout is not None
    canvas = render_canvas(view, layout)
    col, row = geometry(layout, view.board.topology).nodes[node]
    style = canvas.styles[row][col]
    walled = canvas.chars[row][col - 1] == WALL_GLYPH or (style is not None and style.underline)
    assert walled  # a "#" beside the city, or the city underlined where no cell is free


def test_every_knights_pick_prompt_fits_80_columns() -> None:
    """Each pick's head leaves room at 80 columns for the longest tail the prompt adds (labels
    ``aa-bx``, the keys, ``Esc cancels`` but where the pick is mandatory), so no prompt of a
    knight's action is cut."""
    tail, cancel = ": type aa-bx, or arrows+Enter, or click", " · Esc cancels"
    assert ck.PROMPT_HEAD_ROOM + len(tail + cancel) + 2 <= 80
    mandatory = set(ck.PICK_PHASES.values())  # picked at once: no Esc
    for what, head in ck.PICK_PURPOSE.items():
        room = ck.PROMPT_HEAD_ROOM + (len(cancel) if what in mandatory else 0)
        assert len(head) <= room, (what, head)


@pytest.mark.parametrize(("size", "layout"), SIZES)
async def test_knights_an_improvement_and_a_wall_by_keys(
    size: tuple[int, int], layout: object
) -> None:
    """Each step by keys; before each, the status line shows the ship where the engine has it,
    and between the steps it moves."""
    ships: list[int] = []

    def watched(step: Step) -> Step:
        async def run(pilot: Pilot[int], screen: GameScreen) -> None:
            ships.append(ship_shown(screen))
            assert_lines_fit(screen)
            await step(pilot, screen)
            assert_lines_fit(screen)

        return run

    steps = {
        "knight": build_a_knight,
        "activate": activate_a_knight,
        "promote": promote_a_knight,
        "improve": improve_a_city,
        "wall": build_a_wall,
    }
    await play_by_keys(size, layout, {k: watched(v) for k, v in steps.items()}, READY, GAME, SEED)
    assert len(set(ships)) > 1, ships


HAND_SEEDS = (2, 1)
"""Seeds whose games bring the person a hand-taking progress card it may play."""
DECISIONS_SEED = (9, 12, 5)
"""Seeds whose games ask the person for a city to lose, a deck to draw from as a tied strongest
defender and a progress card to discard, and whose knights may move and chase the robber (seed
9 brings all five as the bots play it, since the bots keep the Spy; the steps by keys change it
a little, and each later game is played only for what the ones before did not bring: since the
bots play the Spy between sessions, seed 5 brings the discard)."""
DECISIONS = {
    "move": legal(MoveKnight),
    "chase": legal(ChaseRobber),
    "pillage": legal(PillageCity),
    "discard": legal(DiscardProgress),
    "deck": legal(ChooseProgress),
}


async def move_a_knight(pilot: Pilot[int], screen: GameScreen) -> None:
    """``k``, an active knight, "move": its targets light up (Esc would cancel); the one typed
    is where it goes, inactive now."""
    move = next(a for a in screen.game.legal_actions() if isinstance(a, MoveKnight))
    level = progress_of(screen.game.view).knights[move.node].level
    await pilot.press("k")
    await pilot.pause()
    await type_label(pilot, screen, move.node)
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog)
    index = next(i for i, (_, value) in enumerate(dialog.choices) if value == MOVE)
    await pilot.press(str(index + 1))
    await pilot.pause()
    assert screen.pick is not None and screen.pick.what == "knight target"
    assert move.target in screen.pick.labels and "escape" in pilot.app.active_bindings
    await type_label(pilot, screen, move.target)
    knights = progress_of(screen.game.view).knights
    assert move.node not in knights or knights[move.node].seat != 0
    assert knights[move.target] == Knight(0, level, active=False)
    assert knight_cell(screen, move.target) == KNIGHT_GLYPHS[level]


async def chase_the_robber(pilot: Pilot[int], screen: GameScreen) -> None:
    """``k``, a knight beside the robber, "chase": the robber's hexes light up at once and the
    robber goes where typed."""
    chase = next(a for a in screen.game.legal_actions() if isinstance(a, ChaseRobber))
    robber = screen.game.view.robber
    await knight_choice(pilot, screen, ChaseRobber)
    assert screen.pick is not None and screen.pick.what == "robber" and screen.pick.mandatory
    await type_label(pilot, screen, next(iter(screen.pick.labels)))
    if isinstance(pilot.app.screen, ChoiceDialog):  # whom to rob
        await pilot.press("1")
        await pilot.pause()
    view = screen.game.view
    assert view.robber != robber and not progress_of(view).knights[chase.node].active


async def lose_a_city(pilot: Pilot[int], screen: GameScreen) -> None:
    """The barbarians won: your cities light up at once (no Esc); the one typed becomes a
    settlement."""
    assert screen.pick is not None and screen.pick.what == "pillage" and screen.pick.mandatory
    assert_lines_fit(screen)
    assert "escape" not in pilot.app.active_bindings
    view = screen.game.view
    cities = len(view.cities[0])
    node = next(iter(screen.pick.labels))
    await type_label(pilot, screen, node)
    view = screen.game.view
    assert len(view.cities[0]) == cities - 1 and node in view.settlements[0]


async def discard_a_progress_card(pilot: Pilot[int], screen: GameScreen) -> None:
    """A fifth progress card: the dialog opens by itself with the cards by name and text; Esc
    closes it, ``y`` opens it again, and the first is discarded."""
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("Too many")
    assert all(": " in str(label) for label, _ in dialog.choices)  # name (deck): its text
    await pilot.press("escape")
    await pilot.pause()
    assert pilot.app.screen is screen and "y" in pilot.app.active_bindings
    await pilot.press("y")
    await pilot.pause()
    assert isinstance(pilot.app.screen, ChoiceDialog)
    await pilot.press("1")
    await pilot.pause()
    assert progress_of(screen.game.view).held(0) == 4


async def choose_a_deck(pilot: Pilot[int], screen: GameScreen) -> None:
    """Tied strongest against the barbarians: a dialog offers the decks; the one chosen is
    drawn from (the card then named in the log)."""
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog) and dialog.title_text.startswith("Defender")
    game = screen.game

    def drawn() -> int:
        return sum(e.text.startswith("You drew a ") for e in game.events)

    before = drawn()
    await pilot.press("1")
    for _ in range(200):
        await pilot.pause()
        if drawn() > before:
            break
    while game.working:  # the deck's proofs the draw started
        game.wait()
    game.step()
    assert drawn() > before


@pytest.mark.slow
async def test_knights_moves_and_the_barbarians_decisions_by_keys() -> None:
    """At 80x24: a knight chases the robber and moves; a city lost to the barbarians, a progress
    card discarded over the limit and a defender's deck chosen, each by keys when it falls due."""
    steps = {
        "move": move_a_knight,
        "chase": chase_the_robber,
        "pillage": lose_a_city,
        "discard": discard_a_progress_card,
        "deck": choose_a_deck,
    }
    await play_by_keys((80, 24), COMPACT, steps, DECISIONS, GAME, DECISIONS_SEED)


@pytest.mark.slow
async def test_a_bot_game_of_cities_and_knights_runs_to_the_game_over_screen() -> None:
    """Bots in every seat on the game screen from start to end: the barbarians land, and the
    game ends at 13 points; the final scores show metropolises, Defender points and
    progress-card points, adding up to each total."""
    app = make_app(4, SEED, "beginner", "You", 0, autoplay=True, game=GAME)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(20_000):
            await pilot.pause()
            if isinstance(app.screen, GameOverScreen) and app.screen.query("#log-path"):
                break
        assert isinstance(app.screen, GameOverScreen)
        game = app.game
        assert game.winner is not None and game.scores()[game.winner].total >= 13
        assert ship_shown(app.game_screen) >= 0
        heads = [str(column.header) for column in score_table(game).columns]
        assert "metro" in heads and "defender" in heads and "cards" in heads
        assert "army" not in heads
        progress = progress_of(game.view)
        for score in game.scores():  # the final table's columns add up to each total
            metros = 2 * progress.metropolis_seat.count(score.seat)
            parts = score.settlements + 2 * score.cities + 2 * score.longest_road
            # Printer, Constitution, the merchant held
            cards = progress.points[score.seat] + (progress.board.merchant_seat == score.seat)
            assert parts + metros + progress.defenders[score.seat] + cards == score.total
        assert any(e.text.startswith("The barbarians land") for e in game.events)
        await pilot.press("q")
    assert app.return_code == 0


async def play_a_progress_card(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l`` lists the cards with their text, "(not now)" on those that cannot be played; the
    first playable one picked is played (its place typed on the board, or its kind chosen,
    when it asks), face up: one card fewer, told in the log."""
    play = next(a for a in screen.game.legal_actions() if isinstance(a, PlayProgress))
    held = progress_of(screen.game.view).held(0)
    await pick_card(pilot, play)
    if screen.pick is not None:  # Engineer, Medicine: the place; the Diplomat: the road;
        # the Merchant: its hex
        assert screen.pick.what in ("progress card", "progress road", "merchant hex")
        await type_label(pilot, screen, next(iter(screen.pick.labels)))
    elif isinstance(pilot.app.screen, ChoiceDialog):  # the Merchant Fleet: the kind
        await pilot.press("1")
        await pilot.pause()
    assert progress_of(screen.game.view).held(0) == held - 1
    assert any(e.text.startswith("You played the progress card ") for e in screen.game.events)


async def test_a_progress_card_played_by_keys() -> None:
    """At 80x24: a progress card played from ``l``'s list."""
    steps = {"card": play_a_progress_card}
    await play_by_keys((80, 24), COMPACT, steps, {"card": legal(PlayProgress)}, GAME, CARD_SEED)


HAND_CARDS = frozenset(
    {"resource_monopoly", "trade_monopoly", "commercial_harbor", "master_merchant"}
)
"""The progress cards that take from the others' hands (engine/.../progress_hands.py)."""


def hand_card_play(game: SessionGame) -> PlayProgress | None:
    """A play of a hand-taking progress card open to the person now, if any."""
    if not game.human_to_act():
        return None
    names = game.view.variant.card_names  # type: ignore[union-attr]
    return next(
        (
            a
            for a in game.legal_actions()
            if isinstance(a, PlayProgress) and names[a.track][a.face] in HAND_CARDS
        ),
        None,
    )


async def play_a_hand_card(pilot: Pilot[int], screen: GameScreen) -> None:
    """``l``, the card, then its dialogs (the kind of a monopoly, the Master Merchant's seat
    and then its two cards, the Commercial Harbor's first offer), each fitting 80 columns."""
    play = hand_card_play(screen.game)
    assert play is not None
    held = progress_of(screen.game.view).held(0)
    await pick_card(pilot, play)
    titles = []
    for _ in range(3):  # the card's own dialog, then the decisions it brings to the person
        await pilot.pause()
        if not isinstance(pilot.app.screen, ChoiceDialog):
            break
        titles.append(pilot.app.screen.title_text)
        assert len(pilot.app.screen.title_text) <= 76
        await pilot.press("1")
        await pilot.pause()
    assert progress_of(screen.game.view).held(0) == held - 1
    assert any(e.text.startswith("You played the progress card ") for e in screen.game.events)
    assert titles and all(
        t.split(":")[0]
        in ("Resource Monopoly", "Trade Monopoly", "Master Merchant", "Commercial Harbor")
        for t in titles
    ), titles


async def test_a_hand_taking_progress_card_played_by_keys() -> None:
    """At 80x24: a Resource or Trade Monopoly, the Master Merchant or the Commercial Harbor
    played from ``l``'s list and its choices made in dialogs."""
    steps = {"hand card": play_a_hand_card}
    ready = {"hand card": lambda game: hand_card_play(game) is not None}
    await play_by_keys((80, 24), COMPACT, steps, ready, GAME, HAND_SEEDS)
