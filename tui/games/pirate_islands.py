"""Pirate Islands' actions on the game screen (docs/rules/pirate-islands.md): robbing any seat
on a 7 (no robber to move), attacking one's fortress, and what a knight card does there; the
players panel's fleet lines; the ``f`` key's question; the fortresses, the warships and the fleet's circle on the
board."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from rich.style import Style

from hexlan.engine.core import DevCard
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    FleetState,
    PirateIslands,
    PiratePhase,
    RobSeat,
    fleet,
)
from hexlan.tui.actionkeys import answers, card_helps, waits
from hexlan.tui.board_render import (
    FLEET_PATH_GLYPH,
    FLEET_PATH_STYLE,
    LAYERS,
    BoardLayers,
    BoardState,
    Canvas,
    Geometry,
    SeaPieces,
    is_free,
    piece_style,
)
from hexlan.tui.games.seafarers import ships_left_line
from hexlan.tui.panel_lines import STANDING
from hexlan.tui.screen_keys import ScreenKey, binds, explains, runs

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.tui.screens.game import GameScreen
    from hexlan.tui.widgets.players import PlayersPanel

answers("rob", RobSeat)
answers("attack", AttackFortress)
waits("to attack a fortress", PiratePhase.FORTRESS)
card_helps(PirateIslands, {DevCard.KNIGHT: "turn a ship of your line into a warship"})
binds(
    ScreenKey(
        "f",
        "game('attack')",
        "Attack fortress",
        "Attack your fortress",
        "key f: Pirate Islands, once your ship line reaches it",
        "buy",
    )
)
explains(
    """\
Pirate Islands: no robber. Your ships form one line from your start settlement through your
colour's intersection to your fortress (the digit: its chits left). A knight makes a ship a
warship (≈). Each roll the pirate fleet (P) sails the lower die's hexes round its circle (∘); by
one player's buildings it attacks: the lower die against that player's warships (stronger
pirates take 1 card + 1 per city, a stronger player takes a card of choice). On a 7 the roller
robs anyone. With your line at your fortress, f attacks it: a die against your warships; more
warships take a chit (three: it becomes your settlement), fewer lose ships; it ends your turn.
You win with 10 points and your own fortress taken.""",
    ("f", "Pirate Islands: attack your fortress (once your ship line reaches it)"),
)


@runs(PirateIslands, "attack")
def attack_key(screen: GameScreen) -> None:
    """Attack your fortress (a die against your warships; it ends the turn: asked first)."""
    warships = fleet(screen.game.view).warships[screen.game.human_seat]
    screen.choose(
        f"Attack your fortress with {warships} warship{'s' if warships != 1 else ''}?"
        " A die above them costs ships; the attack ends your turn.",
        [("attack", AttackFortress())],
    )


@STANDING.register(PirateIslands)
def fleet_standing(panel: PlayersPanel, wide: bool) -> list[RenderableType]:
    """No awards (seed 004): ``Ships``, ``Warships`` and ``Fortress chits`` per seat (narrow:
    ``War a2 b0 ...``, ``Fort a3 b1 ...``; a captured fortress shows ``✓``)."""
    progress = fleet(panel.game.view)
    chits = [str(n) if n else "✓" for n in progress.fortress_chits]
    return [
        ships_left_line(panel, wide),
        panel.per_seat("Warships", "War", list(progress.warships), wide),
        panel.per_seat("Fortress chits", "Fort", chits, wide),
    ]


def _fleet(state: BoardState) -> tuple[PirateIslands, FleetState]:
    """The rules and the progress of ``state``, a Pirate Islands game's."""
    game = cast("GameState", state)
    rules = game.variant
    assert isinstance(rules, PirateIslands)
    return rules, fleet(game)


def fleet_pieces(state: BoardState) -> SeaPieces:
    """Seafarers' ships and pirate (the pirate fleet), and each seat's warships: the first
    ships of its line."""
    _, progress = _fleet(state)
    lines = zip(progress.ships, progress.warships, strict=True)
    warships = frozenset(p for line, n in lines for p in line[:n])
    return SeaPieces(progress.ship_owner, progress.pirate, warships)


def draw_fortresses(canvas: Canvas, geo: Geometry, state: BoardState) -> None:
    """Each fortress still held, on its intersection, as its chits left (``3``) in reverse
    video in its seat's colour; a captured one is the seat's settlement."""
    rules, progress = _fleet(state)
    for seat, left in enumerate(progress.fortress_chits):
        if left:
            c, r = geo.nodes[rules.slots[seat].fortress]
            canvas.put(c, r, str(left), piece_style(seat) + Style(reverse=True, bold=True))


def draw_fleet_path(canvas: Canvas, geo: Geometry, state: BoardState) -> None:
    """A dim ``∘`` in the middle of each hex of the fleet's circle (where free), but the
    fleet's own."""
    rules, progress = _fleet(state)
    for h in rules.fleet_path:
        if h == progress.pirate or h >= len(geo.hexes):
            continue
        col, row = geo.hexes[h]
        if is_free(canvas, col, row):
            canvas.put(col, row, FLEET_PATH_GLYPH, FLEET_PATH_STYLE)


LAYERS.register(PirateIslands)(
    BoardLayers(sea=fleet_pieces, pieces=draw_fortresses, tops=draw_fleet_path)
)
