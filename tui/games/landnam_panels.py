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
from hexlan.engine.variants.landnam.rules import CYCLE, Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState
from hexlan.i18n import N_, _
from hexlan.net.tellers.landnam import TERRAIN_LETTERS
from hexlan.tui.games.landnam_board import kind_words, marker_style, unit_text
from hexlan.tui.games.landnam_client import NOT_FAIR
from hexlan.tui.palette import seat_mark, seat_style

PHASE_WORDS: Final = {
    P.START: N_("choosing the start player"),
    P.SETUP: N_("the set-up's fate cards"),
    P.DRAW: N_("drawing fate cards"),
    P.ROLL: N_("roll the harvest dice"),
    P.DICE: N_("rolling"),
    P.HARVEST_CARD: N_("harvest: take it or play a Harvest card"),
    P.AGE_PICK: N_("harvest: pick the hex to age"),
    P.ALTHING_OPEN: N_("the Althing: Althing cards"),
    P.APPOINT: N_("the Althing: appoint the first seat"),
    P.SUING: N_("the Althing: lawsuits"),
    P.CASE: N_("the Althing: a case"),
    P.INVITED: N_("the Althing: an invitation"),
    P.MOVE: N_("movement"),
    P.EXPLORE: N_("exploring"),
    P.SEER: N_("exploring: Seer's counsel"),
    P.ENTRY: N_("exploring: Landing or stay"),
    P.FLEE: N_("a chase: flee"),
    P.TRADE: N_("trade and build"),
    P.ANSWER: N_("an offer awaits an answer"),
    P.OVER: N_("game over"),
}
"""Each phase in words, for the status line (English; shown translated)."""
FATE_NAMES: Final = {
    Fate.WOODLAND_AHEAD: N_("Woodland ahead"),
    Fate.GOOD_GRAZING: N_("Good grazing"),
    Fate.FERTILE_SOIL: N_("Fertile soil"),
    Fate.BOG_IRON: N_("Bog iron"),
    Fate.SEERS_COUNSEL: N_("Seer's counsel"),
    Fate.LANDING: N_("Landing"),
    Fate.FAIR_WIND: N_("Fair wind"),
    Fate.DRIVE_OFF: N_("Drive off"),
    Fate.GOOD_YEAR: N_("Good year"),
    Fate.FULL_BARNS: N_("Full barns"),
    Fate.STEADY_SEASONS: N_("Steady seasons"),
    Fate.ATONEMENT: N_("Atonement"),
    Fate.FLAWED_PLEADING: N_("Flawed pleading"),
    Fate.THING_BROKEN_UP: N_("Thing broken up"),
}
"""Each fate card's name, as the engine's :attr:`Fate.words` (English; shown translated by
:func:`fate_words`)."""

ALTHING_PHASES: Final = frozenset({P.ALTHING_OPEN, P.APPOINT, P.SUING, P.CASE, P.INVITED})
"""The phases of the Althing (§8), when its screen shows."""
KIND_LETTERS: Final = ("G", "T", "W", "I")
"""The resources' letters, as their terrains show them."""
TOKEN_LETTERS: Final = (("○", "white"), ("●", "red"), ("◆", "black"))
_BOLD: Final = Style(bold=True)
_DIM: Final = Style(dim=True)


def fate_words(face: int) -> str:
    """Fate card ``face``'s name in the language in force."""
    return _(FATE_NAMES[Fate(face)])


def phase_words(phase: str) -> str:
    """Phase ``phase`` in words, in the language in force (the phase's name when unknown)."""
    words = PHASE_WORDS.get(phase)
    return phase if words is None else _(words)


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
        text += Text(_("Turn {turn} · ").format(turn=view.turn)) + who(names, view.active)
    text += Text("\n" + phase_words(view.phase), _BOLD)
    actors = view.acting_seats()
    if actors and actors[0] != view.active:
        text += Text(" · ") + who(names, actors[0]) + Text(" " + _("to act"))
    roll = _("Last roll {roll}").format(roll=last_roll) if last_roll else _("No roll yet")
    text += Text("\n" + roll, _BOLD)
    if explored:
        text += Text(f" · {explored}")
    target = view.options.victory_points or view.rules.victory_points
    text += Text("\n" + _("{points} VP win").format(points=target), _DIM)
    if not fair:
        text += Text(" · " + _(NOT_FAIR), Style(color="#D55E00"))
    return text


def _fate_names(counts: Sequence[int]) -> str:
    """The fate cards of ``counts`` (how many of each face), by name, one per card."""
    return ", ".join(fate_words(f) for f, n in enumerate(counts) for _i in range(n))


def player_text(view: LandnamState, names: Sequence[str], seat: Seat, me: Seat) -> Text:
    """One player's two lines: points, tokens (white ○, red ●, black ◆) and the reserve
    (ships ≈, settlers ♟, houses ⌂); resource cards and fate cards."""
    text = who(names, seat) + Text(
        " " + _("{points}VP").format(points=view.victory_points(seat)) + " ", _BOLD
    )
    text += Text(
        "".join(f"{g}{n}" for (g, _), n in zip(TOKEN_LETTERS, view.tokens[seat], strict=True))
    )
    text += Text(f" ≈{view.ships[seat]}♟{view.settlers[seat]}⌂{view.houses[seat]}", _DIM)
    if seat == view.active:
        text += Text(" ◀", seat_style(seat))
    hand = view.hands[seat]
    text += Text("\n  " + _("cards {n}").format(n=sum(hand)))
    if seat == me:
        text += Text(" " + "".join(f"{KIND_LETTERS[k]}{n}" for k, n in enumerate(hand)))
    fate = view.fate_count(seat)
    text += Text(" · " + _("fate {n}").format(n=fate))
    if seat == me and fate:
        text += Text(f": {_fate_names(view.fate[seat])}")
    elif any(view.shown[seat]):
        text += Text(" " + _("(up: {cards})").format(cards=_fate_names(view.shown[seat])))
    return text


def players_text(view: LandnamState, names: Sequence[str], me: Seat) -> Text:
    """Every player's lines, the person's first."""
    order = [me] + [s for s in range(view.players) if s != me]
    return Text("\n").join(player_text(view, names, s, me) for s in order)


def stocks_text(view: LandnamState) -> Text:
    """The public stocks: terrain hexes by kind, markers by value, harbours by resource (never
    the resource stock, §17)."""
    text = Text(_("Hexes") + " ", _BOLD)
    for land in Land:
        text += Text(f"{TERRAIN_LETTERS[land]}{view.terrain_stock[land]} ")
    text += Text("\n" + _("Markers") + " ", _BOLD)
    for value in CYCLE:
        text += Text(str(value), marker_style(value)) + Text(f"×{view.marker_stock[value]} ")
    text += Text("\n" + _("Harbours") + " ", _BOLD)
    for kind, count in enumerate(view.harbour_stock):
        text += Text(f"{KIND_LETTERS[kind]}{count} ")
    text += Text("· " + _("fate deck {n}").format(n=view.deck_size))
    return text


def case_text(view: LandnamState, names: Sequence[str]) -> Text:
    """The Althing's state: the case in progress (its unit, hex and resource, both sides with
    their members and totals, whose bid), or the round's order."""
    althing = view.althing
    if althing is None:
        return Text(_("The Althing is not sitting"))
    case = althing.case
    if case is None:
        order = ", ".join(names[s] for s in althing.order) or _("not begun")
        return Text(_("No case in progress · lawsuit round: {order}").format(order=order))
    unit = view.units[case.unit]
    text = Text(_("Case against") + " ", _BOLD)
    if unit is not None:
        text += unit_text(unit.owner, unit.ship, len(unit.tokens))
        text += Text(" " + _("on {place}").format(place=view.board.label(unit.at)))
    text += Text(" · " + _("resource {kind}").format(kind=kind_words(case.kind)))
    for side, title in enumerate((_("Plaintiff"), _("Defence"))):
        members = Text(", ").join(who(names, s) for s in case.sides[side])
        total = _("total {n}").format(n=case.totals[side])
        if case.turn == side and case.guest < 0:
            total += " " + _("◀ to bid")
        text += Text(f"\n{title}: ") + members + Text(f" · {total}")
    if case.guest >= 0:
        text += Text("\n" + _("Invited:") + " ") + who(names, case.guest)
    elif view.phase == P.CASE:
        raise_by = _("To lead, the side must raise by {n}").format(n=max(1, need(view)))
        text += Text("\n" + raise_by)
    return text


__all__ = [
    "ALTHING_PHASES",
    "FATE_NAMES",
    "KIND_LETTERS",
    "PHASE_WORDS",
    "case_text",
    "fate_words",
    "phase_words",
    "player_text",
    "players_text",
    "status_text",
    "stocks_text",
    "who",
]
