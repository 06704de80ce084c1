"""Cities & Knights in the panels (seed 002 «Города и рыцари»): the barbarians' ship and the
event die on the status line, each seat's improvement tracks, knights, walls and progress cards
in the players panel, your progress cards and the game's costs in the hand, the metropolises,
defenders and progress-card points in the final scores: the game's parts of
:mod:`hexlan.tui.panel_lines` (its spec names this module among its ``views``).

Each seat shows by its mark (``a``) in its colour, so the lines read without colour too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights, Progress, progress_of
from hexlan.engine.variants.cities_knights.actions import SHIP, TRACKS, EventDie
from hexlan.net.client import GameClient, GameReader
from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.panel_lines import (
    CARDS,
    COLUMNS,
    PRICES,
    SCORES,
    STANDING,
    STATUS,
    ScoreColumns,
    SeatColumns,
)

if TYPE_CHECKING:
    from hexlan.tui.widgets.players import PlayersPanel

KNIGHT_LEVELS: Final = ("", "basic", "strong", "mighty")
"""A knight's level in words, by level 1 .. 3."""

IMPROVEMENTS: Final = (
    ("market", "trading house", "merchant guild", "bank", "great exchange"),
    ("town hall", "church", "fortress", "cathedral", "high assembly"),
    ("abbey", "library", "aqueduct", "theater", "university"),
)
"""Each track's five city improvements, by level 1 .. 5 (the official rules' names)."""

COSTS: Final = (
    "Costs: road LB · settl LBWG · city GGOOO\n"
    "       knight WO · promote WO · wall BB\n"
    "       activate G · level n: n C/M/P"
)
"""Cities & Knights' costs (seed 002; the rule set's ``[cities_knights]``)."""


def progress_card_name(rules: RuleSet, track: int, face: int) -> str:
    """The name of the progress card ``face`` of ``track``'s deck, as the rule set's
    ``[decks.trade|politics|science]`` table lists it: e.g. "Commercial Harbor".

    Raises:
        IndexError: no such face in that deck.
    """
    names = [str(name) for name in rules.raw["decks"][TRACKS[track]]]
    return names[face].replace("_", " ").title()


EVENT_WORDS: Final = ("ship", "trade gate", "politics gate", "science gate")
"""The event die's symbol in words: :data:`SHIP`, then ``1 + track``."""
EVENT_SHORT: Final = ("ship", "T gate", "P gate", "S gate")
"""The event die's symbol on a narrow status line (the tracks' letters, as in the panels)."""
TRACK_LETTERS: Final = ("T", "P", "S")
"""The tracks' letters in the panels: trade, politics, science."""


def barbarians_text(game: GameClient, progress: Progress, compact: bool = False) -> Text:
    """The status line's part: the ship's place on its track (``ship 3/7``, ``ship 6/7!``
    one step from landing) and the last event die (``event politics gate``; ``compact``, for
    a narrow line: ``ev P gate``, one space apart)."""
    view = game.view
    variant = view.variant
    assert isinstance(variant, CitiesKnights)
    track = variant.config.barbarian_track
    gap = " " if compact else "  "
    text = Text()
    text.append(f"{gap}ship ")
    near = progress.barbarians >= track - 1
    text.append(f"{progress.barbarians}/{track}", style="bold red" if near else "bold")
    if near:
        text.append("!", style="bold red")
    last = next(
        (ev.action for ev in reversed(game.events) if isinstance(ev.action, EventDie)), None
    )
    if isinstance(last, EventDie):
        words = f"ev {EVENT_SHORT[last.symbol]}" if compact else f"event {EVENT_WORDS[last.symbol]}"
        text.append(f"{gap}{words}", style="bold" if last.symbol != SHIP else "")
    return text


def knights_score(view: GameState, progress: Progress, seat: int) -> tuple[str, str, str]:
    """A seat's Cities & Knights points for the final scores: its metropolises (``2×1``),
    Defender of Catan points and progress-card points (Printer, Constitution, the merchant
    held)."""
    variant = view.variant
    assert isinstance(variant, CitiesKnights)
    held = sum(1 for holder in progress.metropolis_seat if holder == seat)
    metro = f"{variant.config.metropolis_points}×{held}" if held else "-"
    cards = progress.points[seat] + (progress.board.merchant_seat == seat)
    return metro, str(progress.defenders[seat] or "-"), str(cards or "-")


def knights_cell(progress: Progress, seat: int) -> str:
    """A seat's knights for the players table: active strength over all its knights' levels
    (``3/5``)."""
    total = sum(knight.level for _, knight in progress.knights_of(seat))
    return f"{progress.strength(seat)}/{total}"


def tracks_lines(game: GameReader, progress: Progress, wide: bool) -> list[Text]:
    """Per seat: its three improvement levels (``T2 P3 S0``, a metropolis marked ``*``), its
    walls and Defender of Catan points, and ``M`` (``merchant``) for the merchant's holder."""
    lines = []
    for seat in range(game.players):
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{seat_mark(seat)} ", style=seat_style(seat) + Style(bold=True))
        for track, level in enumerate(progress.levels[seat]):
            metro = progress.metropolis_seat[track] == seat
            text.append(f"{TRACK_LETTERS[track]}{level}", style="bold" if metro else "")
            text.append("*" if metro else " ", style="bold")
        walls = len(progress.walls[seat])
        text.append(f"wall {walls}" if wide else f"w{walls}")
        if progress.defenders[seat]:
            text.append(
                f" def {progress.defenders[seat]}" if wide else f" d{progress.defenders[seat]}"
            )
        if progress.board.merchant_seat == seat:  # the merchant's point
            text.append(" merchant" if wide else " M", style="bold")
        lines.append(text)
    return lines


def progress_hand(view: GameState, seat: int, progress: Progress) -> Text:
    """Your progress cards by name and deck letter (``l`` shows their text)."""
    cards = sorted(progress.cards[seat])
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"Progress cards {len(cards)}", style="bold")
    text.append("  (l: their text)\n" if cards else "\n", style="dim")
    if not cards:
        text.append("  none\n", style="dim")
    for track, face in cards:
        text.append(f"  {progress_card_name(view.rules, track, face)}")
        text.append(f" ({TRACKS[track]})\n", style="dim")
    return text


@CARDS.register(CitiesKnights)
def progress_cards_lines(view: GameState, seat: Seat, wide: bool) -> Text:
    """The seat's progress cards, in place of development cards (:func:`progress_hand`)."""
    return progress_hand(view, seat, progress_of(view))


@PRICES.register(CitiesKnights)
def costs_lines(view: GameState, seat: Seat, wide: bool) -> Text:
    """The game's costs (:data:`COSTS`), in place of the base game's."""
    return Text(f"\n{COSTS}", style="dim")


def seat_cells(view: GameState, seat: Seat) -> tuple[str, str]:
    """A seat's progress cards held and its knights (:func:`knights_cell`)."""
    progress = progress_of(view)
    return str(progress.held(seat)), knights_cell(progress, seat)


COLUMNS.register(CitiesKnights)(SeatColumns(("prog", "prg"), seat_cells))


@STANDING.register(CitiesKnights)
def knights_standing(panel: PlayersPanel, wide: bool) -> list[RenderableType]:
    """Longest Road (no Largest Army), then each seat's tracks, walls and defenders
    (:func:`tracks_lines`)."""
    view = panel.game.view
    lr = view.longest_road_holder
    road = panel.award("Longest Road", lr, f"{view.road_length[lr]}" if lr >= 0 else "")
    return [road, *tracks_lines(panel.game, progress_of(view), wide)]


@STATUS.register(CitiesKnights)
def barbarians_part(game: GameClient, compact: bool) -> Text:
    """The barbarians' ship and the last event die (:func:`barbarians_text`)."""
    return barbarians_text(game, progress_of(game.view), compact)


def score_cells(view: GameState, seat: Seat) -> tuple[str, ...]:
    """A seat's metropolises, defender and progress-card points (:func:`knights_score`)."""
    return knights_score(view, progress_of(view), seat)


SCORES.register(CitiesKnights)(
    ScoreColumns(
        ("metro", "defender", "cards"),
        score_cells,
        "road shows the award's 2 points and (length); metro 2 points a metropolis; defender 1"
        " point each",
    )
)
