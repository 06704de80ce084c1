"""The narrator's open set: how each kind of action, and some events, are told in words.

A game's actions are an open set (:mod:`hexlan.engine.registry`), and so is their narration: a
*teller* turns one action into words, and the modules of :mod:`hexlan.net.tellers` register
theirs with :func:`tells`, one module per game, so a game that adds actions adds its tellers
beside them and edits no other game's code. A teller reads a :class:`Telling` (the action as the
seat observed it, what the rules report it did, the narrator's phrases) and returns a
:class:`Told`.

Some events are told wherever they happen: an award moving, a variant's points changing, the
Pirate Islands fleet sailing with a roll. Their *clauses* register with :func:`tells_event` under
a place in the sentence ("roll": after the dice; "end": after every action's own words), so the
base game's dice teller says "rolled 9 (4+5)" and the fleet's clause follows it without the base
game naming the fleet.

>>> import hexlan.net.tellers  # every game's tellers register on import
>>> from hexlan.engine import actions as A
>>> teller_for(A.BuildCity).__name__
'built'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, TypeVar

from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.core import GamePhase, Phase, Resource, Seat

_A = TypeVar("_A", bound=Action)

if TYPE_CHECKING:
    from hexlan.engine.info import InformationState
    from hexlan.net.narrate import Narrator

EventKind = Literal[
    "start", "setup", "build", "roll", "robber", "steal", "discard", "dev", "trade", "turn", "game"
]
"""What sort of event a :class:`~hexlan.net.narrate.GameEvent` is, for styling."""

TargetKind = Literal["node", "path", "hex"]
"""What a :class:`~hexlan.net.narrate.GameEvent` highlights on the board."""

Target: TypeAlias = "tuple[TargetKind, tuple[int, ...]] | None"
"""A board highlight: ("node" | "path" | "hex", ids), or None."""

ClausePlace = Literal["roll", "end"]
"""Where an event's clause goes: "roll" right after the dice of a roll, "end" after the words of
any action."""

ACTOR: Final = -2
""":attr:`Told.seat`'s default: the seat that made the action (:attr:`Telling.actor`)."""


def describe_cards(cards: Sequence[int], kinds: Sequence[Resource] | None = None) -> str:
    """A hand in words: ``(2, 0, 0, 1, 0)`` -> "2 lumber, 1 grain"; "nothing" when empty. A
    hand of any game's length, its counts in the order of ``kinds`` (the game's card kinds,
    ``state.kinds``; by default the Catan kinds, commodities named too).

    >>> describe_cards((2, 0, 0, 1, 0))
    '2 lumber, 1 grain'
    >>> describe_cards((0, 0, 0, 0, 1, 2, 0, 1))
    '1 ore, 2 paper, 1 coin'
    >>> describe_cards((1, 0, 2), (Resource(0, "grain", "G"), Resource(1, "timber", "T"),
    ...                            Resource(2, "iron", "I")))
    '1 grain, 2 iron'
    """
    named = kinds if kinds is not None else tuple(Resource)
    parts = [f"{n} {named[r].name.lower()}" for r, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else "nothing"


def discoveries(count: int) -> str:
    """A count of Jungle discoveries in words: "1 discovery", "2 discoveries"."""
    return f"{count} discover{'y' if count == 1 else 'ies'}"


@dataclass(frozen=True, slots=True)
class Told:
    """An action in words.

    Attributes:
        text: the words; empty for an action that says nothing by itself (a roll request, an
            opponent's hidden card draw).
        kind: what sort of event, for styling.
        target: what to highlight on the board.
        seat: the seat the event is about: :data:`ACTOR` (the default) for the seat that acted,
            None for none (the start-player draw), or another seat (a discard's).
    """

    text: str
    kind: EventKind = "build"
    target: Target = None
    seat: Seat | None = ACTOR


@dataclass(frozen=True, slots=True)
class Telling:
    """One action being told: what a teller reads.

    Attributes:
        narrator: the narrator (its phrases: ``who``, ``whom``, ``verb``, ``node_place``...;
            its ``state`` is the seat's view *after* the action).
        action: the action as the narrator's seat observed it (others' hidden cards None).
        actor: the seat that made it (for a chance outcome, the seat it concerns).
        active: the active seat before the action.
        phase: the phase before the action.
        news: the events of the action, as the rules reported them (:mod:`hexlan.engine.events`).
    """

    narrator: Narrator
    action: Action
    actor: Seat
    active: Seat
    phase: GamePhase
    news: Sequence[E.Event]

    def of(self, kind: type[_A]) -> _A:
        """The action, as the class ``kind`` its teller was registered for."""
        assert isinstance(self.action, kind)
        return self.action

    @property
    def who(self) -> str:
        """The actor as a subject ("You", "Blue")."""
        return self.narrator.who(self.actor)

    @property
    def state(self) -> InformationState:
        """The narrator's view of the game after the action."""
        return self.narrator.state

    @property
    def setup(self) -> bool:
        """Whether the action was made in the set-up (its buildings are "placed")."""
        return self.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD)

    def clauses(self, place: ClausePlace) -> str:
        """The clauses of this action's events registered for ``place`` (:func:`tells_event`):
        by event class in the order the classes registered, then in the order the events
        happened."""
        said = ""
        for kind, clause in _CLAUSES[place]:
            for ev in self.news:
                if type(ev) is kind:
                    said += clause(self, ev)
        return said


Teller: TypeAlias = Callable[[Telling], Told]
"""Tells one action: ``teller(telling) -> Told``."""

Clause: TypeAlias = "Callable[[Telling, E.Event], str]"
"""Tells one event as a clause of the sentence: ``clause(telling, event) -> str`` ("" when it
adds nothing)."""

ActorOf: TypeAlias = "Callable[[InformationState], Seat]"
"""The seat a chance outcome concerns, read from the view before it (a fog tile: its
discoverer)."""

_TELLERS: dict[type[Action], Teller] = {}
_ACTORS: dict[type[Action], ActorOf] = {}
_CLAUSES: dict[ClausePlace, list[tuple[type[E.Event], Clause]]] = {"roll": [], "end": []}

_T = TypeVar("_T", bound=Callable[..., object])


def tells(*kinds: type[Action], actor: ActorOf | None = None) -> Callable[[_T], _T]:
    """Register the decorated function as the teller of the action classes ``kinds``.

    Args:
        kinds: action classes (the base game's or a game's
            :class:`~hexlan.engine.actions.VariantAction`).
        actor: for a chance outcome, the seat it concerns, when not the buyer or the active seat.

    Raises:
        ValueError: an action class that already has a teller.
    """

    def register(teller: _T) -> _T:
        for kind in kinds:
            if kind in _TELLERS:
                raise ValueError(f"{kind.__name__} already has a teller")
            _TELLERS[kind] = teller  # type: ignore[assignment]
            if actor is not None:
                _ACTORS[kind] = actor
        return teller

    return register


def tells_event(kind: type[E.Event], place: ClausePlace) -> Callable[[_T], _T]:
    """Register the decorated function as the clause of event class ``kind`` at ``place``.

    Raises:
        ValueError: the event already has a clause at that place.
    """

    def register(clause: _T) -> _T:
        if any(known is kind for known, _ in _CLAUSES[place]):
            raise ValueError(f"{kind.__name__} already has a clause at {place!r}")
        _CLAUSES[place].append((kind, clause))  # type: ignore[arg-type]
        return clause

    return register


def _silent(telling: Telling) -> Told:
    """An action with no teller says nothing by itself."""
    return Told("")


def teller_for(kind: type[Action]) -> Teller:
    """The teller registered for action class ``kind`` (one that says nothing if none is)."""
    return _TELLERS.get(kind, _silent)


def chance_actor(kind: type[Action]) -> ActorOf | None:
    """How to find the seat a chance outcome of class ``kind`` concerns, if registered."""
    return _ACTORS.get(kind)


__all__ = [
    "ACTOR",
    "ActorOf",
    "Clause",
    "ClausePlace",
    "EventKind",
    "Target",
    "TargetKind",
    "Teller",
    "Telling",
    "Told",
    "chance_actor",
    "describe_cards",
    "discoveries",
    "teller_for",
    "tells",
    "tells_event",
]
