"""The game screen's open set: which key each kind of action answers to, where a pick finds an
action on the board, and which development card a play action plays.

A game's actions are an open set (:mod:`hexlan.engine.registry`), and so is what the game screen
does with them: the modules of :mod:`hexlan.tui.games` register their actions here, one module
per game (as :mod:`hexlan.net.tellers` registers narration with
:func:`~hexlan.net.telling.tells`), so a game that adds an action adds its keys beside it and
edits neither the game screen nor another game's module. The screen asks by key and by class,
never with ``isinstance``:

- :func:`answers` registers action classes under a key's name (``"build:road"``, ``"buy"``,
  ``"gold"``, ...), and :func:`keyed` picks the legal actions that answer a key (a key is shown
  and allowed only when one does);
- :func:`places` registers the function that says where an action of a class lies in a pick of
  places (a road's path in a pick of ``"road"``), and :func:`place_of` asks it;
- :func:`plays` registers the development card a play action plays (:func:`card_of`);
- :func:`waits` registers what the others are doing in a phase, in words, while the person
  waits (:func:`waiting_words`, with a headline for a phase that has one:
  :func:`waiting_head`), :func:`prompts` a phase whose choice the screen opens by itself with
  a key's action, and the words that ask for it (:func:`prompt_of`), :func:`asks` a phase
  whose choice a dialog answers (:func:`dialog_of`), :func:`builds_in` the phases where
  the build keys build (:func:`builds_by_key`), and :func:`labels` the status line's name of
  a phase (:func:`phase_label`), so the screen names no game's phase;
- :func:`card_helps` registers what a development card does in a game's rules, for the card
  dialog (:func:`card_helps_of`).

>>> import hexlan.tui.games  # every game's keys register on import
>>> from hexlan.engine import actions as A
>>> keyed("build:road", [A.BuildRoad(3), A.END_TURN, A.BuildCity(7)])
[BuildRoad(path=3)]
>>> place_of("city", A.BuildCity(7), -1), place_of("road", A.BuildCity(7), -1)
((7,), ())
>>> from hexlan.engine.core import Phase
>>> waiting_words(Phase.DISCARD), waiting_words(Phase.GAME_OVER)
('to discard', None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias, TypeVar

from hexlan.engine.actions import Action
from hexlan.engine.core import DevelopmentCard, GamePhase
from hexlan.engine.info import InformationState

Place: TypeAlias = "int | tuple[int, ...] | None"
"""Where an action lies in a pick: the id of the node, path or hex it puts the pick on, every
place that lights it (an Inventor's swap: both its hexes), or None (or ``()``) for none."""
PlaceOf: TypeAlias = Callable[[str, Action, int], Place]
"""Where an action lies in a pick: ``place_of(what, action, source)`` is the :data:`Place` it
puts a pick of ``what`` on (``source``: the piece being moved, for a pick of its new place)."""
Choices: TypeAlias = "tuple[str, list[tuple[str, Action | str]]]"
"""A dialog: its title and its choices, each a label and an action to play or the name of the
pick on the board that finds the action (none: no dialog to open)."""
Dialog: TypeAlias = Callable[[InformationState, Sequence[Action], Sequence[str]], Choices]
"""A phase's dialog: ``dialog(view, legal, names)`` is its :data:`Choices` for the person's
``view`` and ``legal`` actions, with the seats' ``names``."""
DECIDE: Final = "decide"
"""The key (``y``) that opens the dialog of the choice due (:func:`asks`)."""

_A = TypeVar("_A", bound=Action)

_KEYS: Final[dict[str, set[type]]] = {}
_PLACES: Final[dict[type, PlaceOf]] = {}
_CARDS: Final[dict[type, DevelopmentCard]] = {}
_WAITING: Final[dict[GamePhase, str]] = {}
_HEADS: Final[dict[GamePhase, str]] = {}
_BUILDING: Final[set[GamePhase]] = set()
_LABELS: Final[dict[GamePhase, str]] = {}
_CARD_HELPS: Final[dict[type, dict[DevelopmentCard, str]]] = {}


@dataclass(frozen=True, slots=True)
class Prompt:
    """A phase's choice that the screen opens by itself: the key whose action opens it (the
    screen's ``action_<key>``), ``words(legal)``, the prompt asking for it (``legal``: the
    person's legal actions), and ``due(legal)``, whether the screen opens it now (by default
    once an action answering ``key`` is legal)."""

    key: str
    words: Callable[[Sequence[Action]], str]
    due: Callable[[Sequence[Action]], bool] | None = None

    def is_due(self, legal: Sequence[Action]) -> bool:
        """Whether the screen opens the choice now, the person's legal actions being
        ``legal``."""
        return self.due(legal) if self.due is not None else bool(keyed(self.key, legal))


_PROMPTS: Final[dict[GamePhase, Prompt]] = {}
_DIALOGS: Final[dict[GamePhase, Dialog]] = {}


def answers(key: str, *kinds: type[Action]) -> None:
    """Register the action classes ``kinds`` as answering the key named ``key``.

    Raises:
        ValueError: a class already registered for that key.
    """
    known = _KEYS.setdefault(key, set())
    for kind in kinds:
        if kind in known:
            raise ValueError(f"{kind.__name__} already answers {key!r}")
        known.add(kind)


def keyed(key: str, legal: Iterable[Action]) -> list[Action]:
    """The actions of ``legal`` that answer ``key``, in order (none for a key nothing
    registered)."""
    kinds = _KEYS.get(key, ())
    return [a for a in legal if type(a) in kinds]


def is_keyed(key: str, action: Action) -> bool:
    """Whether ``action`` answers ``key``."""
    return type(action) in _KEYS.get(key, ())


def places(
    *kinds: type[_A],
) -> Callable[[Callable[[str, _A, int], Place]], Callable[[str, _A, int], Place]]:
    """Register the decorated function as the place of the action classes ``kinds`` in picks
    (a :data:`PlaceOf` taking those classes' actions).

    Raises:
        ValueError: a class that already has one.
    """

    def register(
        place: Callable[[str, _A, int], Place],
    ) -> Callable[[str, _A, int], Place]:
        for kind in kinds:
            if kind in _PLACES:
                raise ValueError(f"{kind.__name__} already has its place")
            _PLACES[kind] = place  # type: ignore[assignment]  # called with kind's actions only
        return place

    return register


def place_of(what: str, action: Action, source: int) -> tuple[int, ...]:
    """Every place ``action`` lights in a pick of ``what``: none if it is no such action (an
    action of a class without a place is in no pick)."""
    place_in = _PLACES.get(type(action))
    place = None if place_in is None else place_in(what, action, source)
    if place is None:
        return ()
    return place if isinstance(place, tuple) else (place,)


def plays(card: DevelopmentCard, *kinds: type[Action]) -> None:
    """Register the action classes ``kinds`` as plays of the development card ``card``.

    Raises:
        ValueError: a class already registered as another card's play.
    """
    for kind in kinds:
        if _CARDS.get(kind, card) is not card:
            raise ValueError(f"{kind.__name__} already plays {_CARDS[kind].title}")
        _CARDS[kind] = card
    answers("play_card", *kinds)


def card_of(action: Action) -> DevelopmentCard:
    """The development card ``action`` plays.

    Raises:
        KeyError: an action that plays no card.
    """
    return _CARDS[type(action)]


def waits(words: str, *phases: GamePhase, head: str = "") -> None:
    """Register ``words`` as what the seats due in ``phases`` are doing while the person waits
    ("to discard": the screen shows "Blue to discard…"); a ``head`` leads the line instead
    and names the active seat alone ("Special building: " with "may build": "Special
    building: Blue may build…").

    Raises:
        ValueError: a phase that already has its words.
    """
    for phase in phases:
        if phase in _WAITING:
            raise ValueError(f"{phase!r} already has its waiting words")
        _WAITING[phase] = words
        if head:
            _HEADS[phase] = head


def waiting_words(phase: GamePhase) -> str | None:
    """What the seats due in ``phase`` are doing, in words (None: no game registered any)."""
    return _WAITING.get(phase)


def waiting_head(phase: GamePhase) -> str:
    """The headline of the waiting line in ``phase`` ("": none, the seats due lead it)."""
    return _HEADS.get(phase, "")


def labels(words: str, *phases: GamePhase) -> None:
    """Register ``words`` as the status line's name of ``phases`` ("special build": the line
    shows ``[special build]``), where the phase's own title would not say it in the player's
    words.

    Raises:
        ValueError: a phase that already has its label.
    """
    for phase in phases:
        if phase in _LABELS:
            raise ValueError(f"{phase!r} already has its label")
        _LABELS[phase] = words


def phase_label(phase: GamePhase) -> str | None:
    """The status line's name of ``phase`` that a game registered (None: none)."""
    return _LABELS.get(phase)


def card_helps(game: type, helps: Mapping[DevelopmentCard, str]) -> None:
    """Register what the development cards of ``helps`` do in a game whose rules module is a
    ``game`` (Pirate Islands' knight: "turn a ship of your line into a warship"), the words
    the card dialog gives them there.

    Raises:
        ValueError: a game that already has its card words.
    """
    if game in _CARD_HELPS:
        raise ValueError(f"{game.__name__} already has its card words")
    _CARD_HELPS[game] = dict(helps)


def card_helps_of(game: type) -> dict[DevelopmentCard, str]:
    """The card words registered for ``game`` (the class of a view's rules module,
    ``type(view.variant)``) and the classes it derives from, its own first; empty for none."""
    helps: dict[DevelopmentCard, str] = {}
    for kind in reversed(game.__mro__):
        helps.update(_CARD_HELPS.get(kind, {}))
    return helps


def prompts(
    phase: GamePhase,
    key: str,
    words: Callable[[Sequence[Action]], str],
    due: Callable[[Sequence[Action]], bool] | None = None,
) -> None:
    """Register the choice of ``phase`` as one the screen opens by itself, with the action of
    the key named ``key``, once ``due`` says so of the person's legal actions (by default
    once an action answering that key is legal; see :class:`Prompt`).

    Raises:
        ValueError: a phase that already has its prompt.
    """
    if phase in _PROMPTS:
        raise ValueError(f"{phase!r} already has its prompt")
    _PROMPTS[phase] = Prompt(key, words, due)


def prompt_of(phase: GamePhase) -> Prompt | None:
    """The choice ``phase`` prompts for (None: a phase no game registered)."""
    return _PROMPTS.get(phase)


def asks(phase: GamePhase, words: str, dialog: Dialog) -> None:
    """Register the choice of ``phase`` as one a dialog answers (:data:`Dialog`): the screen
    opens it by itself once the person is due, and the key :data:`DECIDE` reopens it;
    ``words``: the prompt asking for it.

    Raises:
        ValueError: a phase that already has its prompt.
    """
    prompts(phase, DECIDE, lambda legal: words, due=bool)  # due: any legal action at all
    _DIALOGS[phase] = dialog


def dialog_of(phase: GamePhase) -> Dialog | None:
    """The dialog answering ``phase``'s choice (None: none registered, see :func:`asks`)."""
    return _DIALOGS.get(phase)


def builds_in(*phases: GamePhase) -> None:
    """Register ``phases`` as ones where the build keys build (elsewhere a legal build, as in
    set-up, is picked by itself)."""
    _BUILDING.update(phases)


def builds_by_key(phase: GamePhase) -> bool:
    """Whether the build keys build in ``phase``."""
    return phase in _BUILDING


__all__ = [
    "DECIDE",
    "Choices",
    "Dialog",
    "Place",
    "PlaceOf",
    "Prompt",
    "answers",
    "asks",
    "builds_by_key",
    "builds_in",
    "card_helps",
    "card_helps_of",
    "card_of",
    "dialog_of",
    "is_keyed",
    "keyed",
    "labels",
    "phase_label",
    "place_of",
    "places",
    "plays",
    "prompt_of",
    "prompts",
    "waiting_head",
    "waiting_words",
    "waits",
]
