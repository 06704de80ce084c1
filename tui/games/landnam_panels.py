"""Landnám's panels as rich text (../shared/landnam-rules.md §15, §17; /work/shared/UI.md): whose
turn and the phase, the last rolls, the players, and the public stocks.

The stocks show what §17 makes public: the terrain hexes by kind, the number markers by value
and the harbour markers by resource still to come; never the resource stock's size, which may
not be counted. A player's line shows points, tokens, resource cards (the person's own by kind,
the others' as a count), fate cards (the person's by name), and the units and houses in reserve.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.style import Style
from rich.text import Text

from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import phases as P
from hexlan.engine.variants.landnam.althing import need
from hexlan.engine.variants.landnam.rules import CYCLE, KIND_NAMES, Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState
from hexlan.net.tellers.landnam import TERRAIN_LETTERS
from hexlan.tui.games.landnam_board import marker_style, unit_text
from hexlan.tui.palette import seat_mark, seat_style

PHASE_WORDS: Final = {
    P.START: "choosing the start player",
    P.SETUP: "the set-up's fate cards",
    P.DRAW: "drawing fate cards",
    P.ROLL: "roll the harvest dice",
    P.DICE: "rolling",
    P.HARVEST_CARD: "harvest: take it or play a Harvest card",
    P.AGE_PICK: "harvest: pick the hex to age",
    P.ALTHING_OPEN: "the Althing: Althing cards",
    P.APPOINT: "the Althing: appoint the first seat",
    P.SUING: "the Althing: lawsuits",
    P.CASE: "the Althing: a case",
    P.INVITED: "the Althing: an invitation",
    P.MOVE: "movement",
    P.EXPLORE: "exploring",
    P.SEER: "exploring: Seer's counsel",
    P.ENTRY: "exploring: Landing or stay",
    P.FLEE: "a chase: flee",
    P.TRADE: "trade and build",
    P.ANSWER: "an offer awaits an answer",
    P.OVER: "game over",
}
"""Each phase in words, for the status line."""

ALTHING_PHASES: Final = frozenset({P.ALTHING_OPEN, P.APPOINT, P.SUING, P.CASE, P.INVITED})
"""The phases of the Althing (§8), when its screen shows."""
KIND_LETTERS: Final = ("G", "T", "W", "I")
"""The resources' letters, as their terrains show them."""
TOKEN_LETTERS: Final = (("○", "white"), ("●", "red"), ("◆", "black"))
_BOLD: Final = Style(bold=True)
_DIM: Final = Style(dim=True)


def who(names: Sequence[str], seat: Seat) -> Text:
    """A seat's mark and name in its colour: ``"a You"``."""
    return Text(f"{seat_mark(seat)} {names[seat]}", seat_style(seat) + _BOLD)


def status_text(
    view: LandnamState, names: Sequence[str], fair: bool, last_roll: int, explored: str
) -> Text:
    """Whose turn, the phase, the last harvest roll and the last exploration, and the fairness
    note (a local game's chance is not fair)."""
    text = Text()
    if view.active >= 0:
        text += Text(f"Turn {view.turn} · ") + who(names, view.active)
    text += Text(f"\n{PHASE_WORDS.get(view.phase, view.phase)}", _BOLD)
    actors = view.acting_seats()
    if actors and actors[0] != view.active:
        text += Text(" · ") + who(names, actors[0]) + Text(" to act")
    roll = f"roll {last_roll}" if last_roll else "no roll yet"
    text += Text(f"\nLast {roll}", _BOLD)
    if explored:
        text += Text(f" · {explored}")
    target = view.options.victory_points or view.rules.victory_points
    text += Text(f"\n{target} VP win", _DIM)
    if not fair:
        text += Text(" · not fair: local chance", Style(color="#D55E00"))
    return text


def _fate_names(view: LandnamState, seat: Seat) -> str:
    names = [Fate(f).words for f, n in enumerate(view.fate[seat]) for _ in range(n)]
    return ", ".join(names)


def player_text(view: LandnamState, names: Sequence[str], seat: Seat, me: Seat) -> Text:
    """One player's two lines: points, tokens (white ○, red ●, black ◆) and the reserve
    (ships ≈, settlers ♟, houses ⌂); resource cards and fate cards."""
    text = who(names, seat) + Text(f" {view.victory_points(seat)}VP ", _BOLD)
    text += Text(
        "".join(f"{g}{n}" for (g, _), n in zip(TOKEN_LETTERS, view.tokens[seat], strict=True))
    )
    text += Text(f" ≈{view.ships[seat]}♟{view.settlers[seat]}⌂{view.houses[seat]}", _DIM)
    if seat == view.active:
        text += Text(" ◀", seat_style(seat))
    hand = view.hands[seat]
    text += Text(f"\n  cards {sum(hand)}")
    if seat == me:
        text += Text(" " + "".join(f"{KIND_LETTERS[k]}{n}" for k, n in enumerate(hand)))
    fate = view.fate_count(seat)
    text += Text(f" · fate {fate}")
    if seat == me and fate:
        text += Text(f": {_fate_names(view, seat)}")
    elif any(view.shown[seat]):
        shown = [Fate(f).words for f, n in enumerate(view.shown[seat]) for _ in range(n)]
        text += Text(f" (up: {', '.join(shown)})")
    return text


def players_text(view: LandnamState, names: Sequence[str], me: Seat) -> Text:
    """Every player's lines, the person's first."""
    order = [me] + [s for s in range(view.players) if s != me]
    return Text("\n").join(player_text(view, names, s, me) for s in order)


def stocks_text(view: LandnamState) -> Text:
    """The public stocks: terrain hexes by kind, markers by value, harbours by resource (never
    the resource stock, §17)."""
    text = Text("Hexes ", _BOLD)
    for land in Land:
        text += Text(f"{TERRAIN_LETTERS[land]}{view.terrain_stock[land]} ")
    text += Text("\nMarkers ", _BOLD)
    for value in CYCLE:
        text += Text(str(value), marker_style(value)) + Text(f"×{view.marker_stock[value]} ")
    text += Text("\nHarbours ", _BOLD)
    for kind, count in enumerate(view.harbour_stock):
        text += Text(f"{KIND_LETTERS[kind]}{count} ")
    text += Text(f"· fate deck {view.deck_size}")
    return text


def case_text(view: LandnamState, names: Sequence[str]) -> Text:
    """The Althing's state: the case in progress (its unit, hex and resource, both sides with
    their members and totals, whose bid), or the round's order."""
    althing = view.althing
    if althing is None:
        return Text("The Althing is not sitting")
    case = althing.case
    if case is None:
        order = ", ".join(names[s] for s in althing.order) or "not begun"
        return Text(f"No case in progress · lawsuit round: {order}")
    unit = view.units[case.unit]
    text = Text("Case against ", _BOLD)
    if unit is not None:
        text += unit_text(unit.owner, unit.ship, len(unit.tokens))
        text += Text(f" on {view.board.label(unit.at)}")
    text += Text(f" · resource {KIND_NAMES[case.kind]}")
    for side, title in enumerate(("Plaintiff", "Defence")):
        members = Text(", ").join(who(names, s) for s in case.sides[side])
        marker = " ◀ to bid" if case.turn == side and case.guest < 0 else ""
        text += Text(f"\n{title}: ") + members + Text(f" · total {case.totals[side]}{marker}")
    if case.guest >= 0:
        text += Text("\nInvited: ") + who(names, case.guest)
    elif view.phase == P.CASE:
        text += Text(f"\nTo lead, the side must raise by {max(1, need(view))}")
    return text


__all__ = [
    "ALTHING_PHASES",
    "KIND_LETTERS",
    "PHASE_WORDS",
    "case_text",
    "player_text",
    "players_text",
    "status_text",
    "stocks_text",
    "who",
]
