"""Cities & Knights' actions in words (seed 002 «Города и рыцари»; docs/rules/cities-and-knights.md):
knights built, activated, promoted, moved, displaced and sent after the robber; walls, city
improvements and metropolises; the event die, the barbarians' voyage and attack; progress cards
drawn (named to the drawer only), chosen and discarded.

The variant reports no events of its own, so what an action changed and the view after it no
longer shows (the knights' strength before an attack, a displaced knight) is noted before it
(:func:`~hexlan.net.telling.tells`' ``before`` hook).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.info import InformationState
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    SHIP,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DiscardProgress,
    EventDie,
    ImproveCity,
    MoveKnight,
    PillageCity,
    ProgressDrawn,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.net.telling import Telling, Told, tells

KNIGHT_LEVELS: Final = ("", "basic", "strong", "mighty")
"""A knight's level in words, by level 1 .. 3."""

IMPROVEMENTS: Final = (
    ("market", "trading house", "merchant guild", "bank", "great exchange"),
    ("town hall", "church", "fortress", "cathedral", "high assembly"),
    ("abbey", "library", "aqueduct", "theater", "university"),
)
"""Each track's five city improvements, by level 1 .. 5 (the official rules' names)."""


def progress_card_name(rules: RuleSet, track: int, face: int) -> str:
    """The name of the progress card ``face`` of ``track``'s deck, as the rule set's
    ``[decks.trade|politics|science]`` table lists it: e.g. "Commercial Harbor".

    Raises:
        IndexError: no such face in that deck.
    """
    names = [str(name) for name in rules.raw["decks"][TRACKS[track]]]
    return names[face].replace("_", " ").title()


def _knight(t: Telling, knight: Knight) -> str:
    """ "Red's strong knight" / "your strong knight"."""
    return f"{t.narrator.whose(knight.seat)} {KNIGHT_LEVELS[knight.level]} knight"


def _seats(t: Telling, seats: list[int], plain: str, third: str) -> str:
    """Seats as the subject of a verb within a sentence: "you choose", "Blue chooses", "Blue,
    you choose"."""
    n = t.narrator
    names = ", ".join(n.whom(s) for s in seats)
    one = len(seats) == 1 and seats[0] != n.seat
    return f"{names} {third if one else plain}"


def _then(t: Telling) -> str:
    """What the roll did once the event die (or a choice it caused) was settled: production,
    or a 7's discards."""
    n = t.narrator
    said = n.roll_went_on(t.news)
    due = next((ev.counts for ev in t.news if isinstance(ev, E.DiscardsDue)), ())
    need = [s for s, count in enumerate(due) if count]
    if need:
        said += "; " + ", ".join(
            f"{n.whom(s)} {n.verb(s, 'discard', 'discards')} {due[s]}" for s in need
        )
    return said


@tells(BuildKnight)
def built_knight(t: Telling) -> Told:
    """A basic knight placed (inactive)."""
    action = t.of(BuildKnight)
    text = f"{t.who} built a basic knight at {t.narrator.node_place(action.node)}"
    return Told(text, "build", ("node", (action.node,)))


@tells(ActivateKnight)
def activated_knight(t: Telling) -> Told:
    """A knight fed a grain."""
    action = t.of(ActivateKnight)
    knight = progress_of(t.state).knights[action.node]
    text = (
        f"{t.who} activated a {KNIGHT_LEVELS[knight.level]}"
        f" knight at {t.narrator.node_place(action.node)}"
    )
    return Told(text, "build", ("node", (action.node,)))


@tells(PromoteKnight)
def promoted_knight(t: Telling) -> Told:
    """A knight raised a level."""
    action = t.of(PromoteKnight)
    knight = progress_of(t.state).knights[action.node]
    text = (
        f"{t.who} promoted a knight to {KNIGHT_LEVELS[knight.level]}"
        f" at {t.narrator.node_place(action.node)}"
    )
    return Told(text, "build", ("node", (action.node,)))


def _displaced(view: InformationState, action: Action) -> Knight | None:
    """The knight a move will displace, if any."""
    assert isinstance(action, MoveKnight)
    return progress_of(view).knights.get(action.target)


@tells(MoveKnight, before=_displaced)
def moved_knight(t: Telling) -> Told:
    """A knight's walk, and the weaker knight it displaced: its owner moves it, or it leaves
    the board when its roads lead nowhere empty."""
    action = t.of(MoveKnight)
    n = t.narrator
    text = f"{t.who} moved a knight to {n.node_place(action.target)}"
    displaced = t.before
    if isinstance(displaced, Knight):
        text += f", displacing {_knight(t, displaced)}"
        if progress_of(t.state).retreat is not None:
            text += f": {n.who(displaced.seat)} {n.verb(displaced.seat, 'move', 'moves')} it"
        else:
            text += ", which has nowhere to go and leaves the board"
    return Told(text, "build", ("node", (action.node, action.target)))


@tells(RetreatKnight)
def retreated(t: Telling) -> Told:
    """A displaced knight put back on its owner's roads."""
    action = t.of(RetreatKnight)
    n = t.narrator
    text = f"{n.who(action.seat)} moved {n.whose(action.seat)} displaced knight to"
    return Told(
        f"{text} {n.node_place(action.node)}", "build", ("node", (action.node,)), action.seat
    )


@tells(ChaseRobber)
def chased_robber(t: Telling) -> Told:
    """A knight chases the robber (its move follows)."""
    action = t.of(ChaseRobber)
    n = t.narrator
    text = (
        f"{n.whose(t.actor, capital=True)} knight at {n.node_place(action.node)} chases the robber"
    )
    return Told(text, "robber", ("node", (action.node,)))


@tells(BuildWall)
def built_wall(t: Telling) -> Told:
    """A city wall."""
    action = t.of(BuildWall)
    text = f"{t.who} built a city wall at {t.narrator.node_place(action.node)}"
    return Told(text, "build", ("node", (action.node,)))


def _metropolis_holder(view: InformationState, action: Action) -> int:
    """The seat holding the improved track's metropolis before (-1: none)."""
    assert isinstance(action, ImproveCity)
    return progress_of(view).metropolis_seat[action.track]


@tells(ImproveCity, before=_metropolis_holder)
def improved_city(t: Telling) -> Told:
    """A city improvement, by name and level; the metropolis it wins, and from whom."""
    action = t.of(ImproveCity)
    n = t.narrator
    level = progress_of(t.state).levels[t.actor][action.track]
    track = TRACKS[action.track]
    text = f"{t.who} built the {IMPROVEMENTS[action.track][level - 1]} ({track} {level})"
    target = None
    if action.metropolis >= 0:
        text += f" and {n.verb(t.actor, 'take', 'takes')} the {track} metropolis"
        text += f" at {n.node_place(action.metropolis)}"
        held = t.before
        if isinstance(held, int) and held >= 0 and held != t.actor:
            text += f" from {n.whom(held)}"
        target = ("node", (action.metropolis,))
    return Told(text, "build", target)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class _Defence:
    """The island before an event die: each seat's active knights' strength and Defender of
    Catan points."""

    strengths: tuple[int, ...]
    defenders: tuple[int, ...]


def _defence(view: InformationState, action: Action) -> _Defence:
    progress = progress_of(view)
    seats = range(view.players)
    return _Defence(tuple(progress.strength(s) for s in seats), tuple(progress.defenders))


@tells(EventDie, before=_defence)
def event_rolled(t: Telling) -> Told:
    """The event die: the barbarians sail a step, or land and fight; or a gate names the seats
    drawing progress cards. Then what the roll gave."""
    action = t.of(EventDie)
    progress = progress_of(t.state)
    variant = t.state.variant
    assert isinstance(variant, CitiesKnights)
    symbol = action.symbol
    if symbol != SHIP:
        track = TRACKS[symbol - 1]
        seats = [s for s, k in progress.draws if k == symbol - 1]
        text = f"Event die: the {track} gate"
        if not seats:
            text += ": nobody draws"
        else:
            text += f"; {_seats(t, seats, 'draw', 'draws')} a {track} progress card"
        return Told(text + _then(t), "roll")
    if progress.barbarians:
        text = f"Event die: the barbarians sail on ({progress.barbarians} of {variant.config.barbarian_track})"
        return Told(text + _then(t), "roll")
    return Told(_attack(t) + _then(t), "robber")


def _attack(t: Telling) -> str:
    """The barbarians' attack in words (from the strengths noted before it)."""
    n = t.narrator
    state = t.state
    progress = progress_of(state)
    before = t.before
    assert isinstance(before, _Defence)
    cities = sum(len(c) for c in state.cities) + len(progress.pillage)  # pillage comes next
    knights = sum(before.strengths)
    text = f"The barbarians land! {cities} cities against knights of strength {knights}: "
    if knights >= cities:
        gained = [s for s in range(state.players) if progress.defenders[s] > before.defenders[s]]
        if gained:
            s = gained[0]
            text += f"Catan holds; {n.who(s)} {n.verb(s, 'are', 'is')} Defender of Catan (+1 point)"
        elif progress.choosing:
            tied = _seats(t, progress.choosing, "choose", "chooses")
            text += f"Catan holds; tied strongest, {tied} a progress card"
        else:
            text += "Catan holds"
    elif progress.pillage:
        text += f"the barbarians win; the weakest, {_seats(t, progress.pillage, 'lose', 'loses')}"
        text += " a city"
    else:
        text += "the barbarians win, but every city is a metropolis"
    return text + ". Every knight goes inactive"


@tells(PillageCity)
def pillaged(t: Telling) -> Told:
    """A city the barbarians took, now a settlement."""
    action = t.of(PillageCity)
    n = t.narrator
    text = (
        f"The barbarians pillage {n.whose(action.seat)} city at {n.node_place(action.node)}:"
        " a settlement now"
    )
    return Told(text + _then(t), "robber", ("node", (action.node,)), action.seat)


@tells(AqueductPick)
def aqueduct_took(t: Telling) -> Told:
    """The aqueduct's resource for a seat the roll gave nothing."""
    action = t.of(AqueductPick)
    n = t.narrator
    text = (
        f"{n.who(action.seat)} {n.verb(action.seat, 'take', 'takes')} 1"
        f" {action.resource.name.lower()} by the aqueduct"
    )
    return Told(text, "build", seat=action.seat)


def _drawer(view: InformationState) -> int:
    return progress_of(view).draws[0][0]


def _drawn_track(view: InformationState, action: Action) -> int:
    return progress_of(view).draws[0][1]


@tells(ProgressDrawn, actor=_drawer, before=_drawn_track)
def drew_progress(t: Telling) -> Told:
    """A progress card drawn: named to its drawer only."""
    action = t.of(ProgressDrawn)
    track = t.before
    assert isinstance(track, int)
    name = TRACKS[track]
    if action.face is None:
        text = f"{t.who} drew a {name} progress card"
    else:
        card = progress_card_name(t.state.rules, track, action.face)
        text = f"{t.who} drew a {name} progress card: {card}"
    return Told(text + _then(t), "dev")


@tells(ChooseProgress)
def chose_progress(t: Telling) -> Told:
    """A tied defender's choice of deck."""
    action = t.of(ChooseProgress)
    n = t.narrator
    text = (
        f"{n.who(action.seat)} {n.verb(action.seat, 'choose', 'chooses')} a"
        f" {TRACKS[action.track]} progress card"
    )
    return Told(text + _then(t), "dev", seat=action.seat)


@tells(DiscardProgress)
def discarded_progress(t: Telling) -> Told:
    """A progress card discarded face up, over the limit."""
    action = t.of(DiscardProgress)
    n = t.narrator
    card = progress_card_name(t.state.rules, action.track, action.face)
    text = (
        f"{n.who(action.seat)} discarded {card} ({TRACKS[action.track]}),"
        " holding more progress cards than allowed"
    )
    return Told(text + _then(t), "discard", seat=action.seat)
