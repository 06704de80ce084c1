"""Seafarers' actions on the game screen (docs/rules/seafarers.md): the ship keys, gold, and the
places of ships and the pirate in picks (their prompts, moving a ship in two picks, the ``P``
and ``R`` switch between the robber's and the pirate's move), the gold prompt and what the
development cards do at sea; the ships in the hand and the players panels; the ships and the
pirate on the board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from rich.text import Text

from hexlan.engine.actions import Action
from hexlan.engine.core import DevCard, Seat
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaPhase,
    sea,
)
from hexlan.tui.actionkeys import answers, card_helps, keyed, places, prompts, waits
from hexlan.tui.board_render import LAYERS, BoardLayers, BoardState, SeaPieces
from hexlan.tui.panel_lines import COSTS, PIECES, STANDING
from hexlan.tui.screen_keys import (
    ScreenKey,
    binds,
    builds_on_paths,
    explains,
    pick_heads,
    picks,
    runs,
    steps,
    switches,
)

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.tui.screens.game import GameScreen, Pick
    from hexlan.tui.widgets.players import PlayersPanel

answers("build:ship", BuildShip)
answers("move_ship", MoveShip)
answers("gold", ChooseGold)
waits("to choose gold", SeaPhase.GOLD)
builds_on_paths("ship")
pick_heads(
    "path",
    {
        "ship": "Place your ship",
        "road or ship": "Place your road or ship",
        "ship to move": "Move a ship: pick the ship",
        "ship target": "Move the ship to",
    },
)
pick_heads("hex", {"pirate": "Move the pirate (a sea hex)"})
switches("robber", "pirate", "P")
switches("pirate", "robber", "R")
card_helps(
    Seafarers,
    {
        DevCard.KNIGHT: "move the robber or the pirate and steal",
        DevCard.ROAD_BUILDING: "build two roads or ships free, in any mix",
    },
)
"""Where the sea changes what a card does (docs/rules/seafarers.md rules 7, 12)."""
binds(
    ScreenKey(
        "b",
        "build('ship')",
        "Ship",
        "Build a ship",
        "key b: pick one of the highlighted paths at sea",
        "buy",
    ),
    ScreenKey(
        "n",
        "game('move_ship')",
        "Move ship",
        "Move a ship",
        "key n: pick the ship, then its new place",
        "buy",
    ),
    ScreenKey(
        "g",
        "game('gold')",
        "Gold",
        "Choose your gold",
        "key g: the resources the gold fields owe you",
        "buy",
    ),
    ScreenKey("P", "switch_pick('pirate')", "Pirate", "Move the pirate instead", "key P", "buy"),
    ScreenKey("R", "switch_pick('robber')", "Robber", "Move the robber instead", "key R", "buy"),
)
explains(
    """\
Seafarers: a ship (lumber+wool) goes on a path beside the sea, joined to your ship, settlement
or city (a road and a ship meet only at your own building); one ship a turn may move, from the
open end of a route. A 7 or a knight moves the robber or the pirate (a sea hex: it robs a
player with a ship beside it and blocks ships there). A gold field pays 1 resource of your
choice per settlement, 2 per city; your first settlement on each new island brings 2 points.""",
    ("b / n", "Seafarers: build a ship / move a ship (pick it, then its new place)"),
    ("P / R", "Seafarers, moving the robber: move the pirate instead / the robber again"),
    ("g", "Seafarers: reopen the gold dialog (choose the resources gold owes you)"),
)


@runs(Seafarers, "move_ship")
def move_ship_key(screen: GameScreen) -> None:
    """Light up the ships that may move; the one picked then shows where it may go
    (:func:`pick_the_ship`)."""
    if not screen.start_pick("path", "ship to move", mandatory=False):
        screen.notify("No ship can move now.", severity="warning")


@steps("ship to move")
def pick_the_ship(screen: GameScreen, pick: Pick, place: int, actions: list[Action]) -> None:
    """The ship on ``place`` is the one to move: light it, and the places it may go."""
    screen.end_pick()
    screen.start_pick("path", "ship target", mandatory=False, source=place)
    screen.light("path", place)


def gold_words(legal: Sequence[Action]) -> str:
    """The prompt of the gold the fields owe the person (``legal``: the person's legal
    actions, the gold choices among them)."""
    due = keyed("gold", legal)
    count = sum(cast(ChooseGold, due[0]).cards) if due else 0
    return f"Gold: choose {count} resource{'s' if count != 1 else ''} (g)"


prompts(SeaPhase.GOLD, "gold", gold_words)


@places(BuildShip)
def ship_place(what: str, action: BuildShip, source: int) -> int | None:
    """A ship's path, in a pick of ships (or of roads or ships)."""
    return action.path if "ship" in picks(what) else None


@places(MovePirate)
def pirate_place(what: str, action: MovePirate, source: int) -> int | None:
    """The pirate's new hex, in a pick of the pirate's move."""
    return action.hex if what == "pirate" else None


@places(MoveShip)
def moved_ship_place(what: str, action: MoveShip, source: int) -> int | None:
    """In a pick of the ship to move, the ship's path; in a pick of where ship ``source`` goes,
    its new path."""
    if what == "ship to move":
        return action.source
    if what == "ship target" and action.source == source:
        return action.target
    return None


def _rules(view: GameState) -> Seafarers:
    variant = view.variant
    assert isinstance(variant, Seafarers)
    return variant


@PIECES.register(Seafarers)
def ships_piece_line(view: GameState, seat: Seat, wide: bool) -> Text:
    """The seat's ships left, beside its other pieces."""
    return Text(f"\nships {_rules(view).ships_left(view, seat)}")


@COSTS.register(Seafarers)
def ship_cost_line(view: GameState, seat: Seat, wide: bool) -> Text:
    """A ship's cost, under the others (seed 002 «Мореходы»: lumber and wool)."""
    return Text("\n       ship LW (Seafarers)", style="dim")


def ships_left_line(panel: PlayersPanel, wide: bool) -> Text:
    """``Ships left: a 13 · b 15 ...`` (narrow: ``Ships a13 b15 ...``)."""
    view = panel.game.view
    left = [_rules(view).ships_left(view, s) for s in range(panel.game.players)]
    return panel.per_seat("Ships left", "Ships", left, wide)


@STANDING.register(Seafarers)
def sea_standing(panel: PlayersPanel, wide: bool) -> list[RenderableType]:
    """Longest Trade Route (in the place of Longest Road) and Largest Army, then each seat's
    ships left and island bonus points (``Island bonus: a 0 · b 2 ...``)."""
    view = panel.game.view
    lr, la = view.longest_road_holder, view.largest_army_holder
    road_amount = f"{view.road_length[lr]}" if lr >= 0 else ""
    army_amount = f"{view.knights[la]}" if la >= 0 else ""
    return [
        panel.award("Longest Trade Route" if wide else "Trade Route", lr, road_amount),
        panel.award("Largest Army", la, army_amount),
        ships_left_line(panel, wide),
        panel.per_seat("Island bonus", "Isles", list(view.variant_vp), wide),
    ]


def sea_pieces(state: BoardState) -> SeaPieces:
    """The ships and the pirate of ``state`` (a Seafarers game's) on the board."""
    progress = sea(cast("GameState", state))
    return SeaPieces(progress.ship_owner, progress.pirate)


LAYERS.register(Seafarers)(BoardLayers(sea=sea_pieces))
