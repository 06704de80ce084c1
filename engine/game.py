"""The one interface every game's state offers (ARCHITECTURE.md "Many games on one engine").

A :class:`Game` is a game state in the shape of OpenSpiel's ``pyspiel.State``: which seats may
act now (one, or several at once), each seat's legal actions, ``play`` (checked, the rule named
on refusal) and ``apply`` (unchecked, for search), the chance node to resolve (data, never a
random number generator: the caller samples, a seeded source in simulations, the commit-reveal
beacon over the network), what a seat observes of an action, the public and full hashes, the
winners, and ``copy``.

The protocol is structural: a game's state class satisfies it by having these members, with
no base class to inherit. :class:`hexlan.engine.state.GameState` (every Catan game, its rules
modules included) and :class:`hexlan.engine.info.InformationState` (a seat's view of one)
satisfy it; tests/test_game_protocol.py plays every game through it alone. Code that needs
nothing more of a game than this takes a :class:`Game` (:func:`sample_outcome`, which the
search bot's playouts draw their chance with), so a game unlike Catan (Landnám) can be played
by it as it stands.

:class:`TableGame` adds what a networked table (:mod:`hexlan.net.session`) needs of a game:
who moves the game on, who makes an action, which hidden card an action plays, what a dealt
card is. :class:`SeatViews` is a game with a state of its own, which a table plays from its
spec's state factory: its seats' views and its decks' cards.

The clients, the TUI, replay, narration and the bots still read Catan states directly; moving
them onto this interface is the rest of issue 24.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol, Self, runtime_checkable

from hexlan.engine.actions import Action
from hexlan.engine.chance import UNIFORM, ChanceNode, draw_outcome
from hexlan.engine.core import Seat

if TYPE_CHECKING:  # the engine draws no randomness itself: the caller gives a seeded rng
    import random

CHANCE_SEAT: Final = -2
"""What :meth:`Game.current_player` returns when a chance outcome is due (OpenSpiel's
``PlayerId.CHANCE``); the same value as :data:`hexlan.engine.state.CHANCE`."""


class Game(Protocol):
    """A game state: the interface the engine's users may rely on for every game.

    Attributes:
        players: the number of seats, from 2.
        is_over: whether the game has ended (no seat acts and no chance is due).
    """

    players: int

    @property
    def is_over(self) -> bool: ...

    def current_player(self) -> Seat:
        """The seat whose decision is due; :data:`CHANCE_SEAT` when a chance outcome is due; a
        negative seat (no seat) once the game is over. When several seats may act, the lowest
        (:meth:`acting_seats` lists them all)."""
        ...

    def acting_seats(self) -> tuple[Seat, ...]:
        """Every seat that may act now, in seat order (several at once in a discard, say);
        empty at a chance node or once the game is over."""
        ...

    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """The actions ``seat`` (by default the current player) may take now; none at a chance
        node (:meth:`chance_outcomes`). Every one of them passes :meth:`check`; a game whose
        actions have open terms (a trade offer's) may leave those out."""
        ...

    def check(self, action: Action) -> None:
        """Refuse an action that is not legal now, changing nothing.

        Raises:
            IllegalActionError: the action is not legal; its reason and rule name the rule.
        """
        ...

    def play(self, action: Action) -> None:
        """Check ``action`` (:meth:`check`), then apply it.

        Raises:
            IllegalActionError: as :meth:`check`; the state is unchanged.
        """
        ...

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it (search and replay take this fast path;
        an illegal one leaves the state undefined)."""
        ...

    def chance_node(self) -> ChanceNode | None:
        """What chance is due now, as data for a chance source; None at a seat's decision."""
        ...

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance outcomes due now as ``(action, probability)`` pairs whose probabilities
        sum to 1; empty when none is due."""
        ...

    def observation(self, action: Action, seat: Seat) -> Action:
        """What ``seat`` (a negative seat: a third party) observes of ``action``, asked in the
        state ``action`` is applied to, before it is: the action itself, or it with the hidden
        part (a card's face, a stolen card) withheld. A seat's view advances by applying it."""
        ...

    def public_hash(self) -> str:
        """SHA-256 (hex) of the public state: equal in every seat's view of one game."""
        ...

    def full_hash(self) -> str:
        """SHA-256 (hex) of the whole state, hidden cards included."""
        ...

    def winners(self) -> tuple[Seat, ...]:
        """The seats that won, in seat order (several for a shared win); empty while the game
        goes on or when it ended with no winner."""
        ...

    def copy(self) -> Self:
        """An independent copy: applying to it leaves this state as it was."""
        ...


class TableGame(Game, Protocol):
    """A :class:`Game` as a networked table plays it (docs/PROTOCOL.md §4, §11, §13): a
    seat's view of it is what a peer keeps. Every Catan state
    (:class:`~hexlan.engine.info.InformationState`) and Landnám's are one."""

    @property
    def turn(self) -> int:
        """The turns begun (the first seat's first turn is 1)."""
        ...

    @property
    def active(self) -> Seat:
        """The seat whose turn it is; -1 before the start player is known."""
        ...

    @property
    def phase(self) -> object:
        """The decision or chance due, in the game's own terms (a Catan
        :class:`~hexlan.engine.core.Phase`, a Landnám phase name)."""
        ...

    def deciding_seat(self) -> Seat:
        """The seat that moves the game on (the sequencer, PROTOCOL.md §4): another seat's
        message takes effect when this seat's next one lists it. -1 before the start player."""
        ...

    def actor(self, action: Action) -> Seat:
        """The seat that makes ``action`` (:data:`CHANCE_SEAT` for a chance outcome)."""
        ...

    def moot(self, action: Action, seat: Seat) -> bool:
        """Whether ``seat``'s ``action`` answers what the game no longer waits for (an answer
        to a withdrawn offer): dropped by a table that ordered it late, not refused."""
        ...

    def ended_turn(self, action: Action, turn: int) -> bool:
        """Whether ``action``, just applied in turn ``turn``, ended that turn (every seat then
        acknowledges it, PROTOCOL.md §11)."""
        ...

    def hidden_card(self, action: Action) -> tuple[str, int, str, bool] | None:
        """The hidden card ``action`` plays, as ``(deck, face, name, this_turn)``: the deck's
        name, the card's face, its name in words, and whether a card drawn this same turn may
        be the one; None for an action that plays no hidden card. Its player shows the card
        first (PROTOCOL.md §13.8)."""
        ...

    def draw_outcome(self, face: int | None) -> Action:
        """The outcome of the deck draw due now, from the dealt card's face (None: a card this
        state may not see)."""
        ...


@runtime_checkable
class SeatViews(TableGame, Protocol):
    """A :class:`TableGame` with a state of its own (Landnám's), made by its spec's state
    factory: it gives each seat's view of a new game, each seat's points and its decks'
    cards, and samples a full state a view may be. A headless game between bots
    (:func:`hexlan.simulate.play_own_game`), their search and a networked table
    (:mod:`hexlan.net.session`) play it through this alone. Checkable at run time
    (``isinstance(view, SeatViews)``: the members are there), as the search bot checks what
    it is given."""

    def deck_faces(self, deck: str) -> tuple[int, ...]:
        """The cards in ``deck`` (its name in the chance nodes), as a count per face, when
        every seat knows them: before the deck's first draw, and at its
        :data:`~hexlan.engine.chance.RESHUFFLE` node (the deck it is rebuilt as). A network
        table deals each such deck as a new generation (PROTOCOL.md §13.11).

        Raises:
            ValueError: no such deck, or some of its cards are not known to every seat now.
        """
        ...

    def view(self, seat: Seat) -> Self:
        """Seat ``seat``'s view of this new game, advanced by applying :meth:`observation` of
        every action; raises ValueError once play has begun."""
        ...

    def victory_points(self, seat: Seat) -> int:
        """``seat``'s points, hidden cards included where this state knows them."""
        ...

    def determinized(self, rng: random.Random) -> Self:
        """A full state this view may be: every card it has not seen dealt from its unseen
        pool, using ``rng``, its public part this view's (:meth:`public_hash`); of a full
        state, a copy. What an information-set search plays its playouts in
        (:mod:`hexlan.engine.bots.own_search`)."""
        ...


def sample_outcome(game: Game, rng: random.Random) -> Action:
    """The chance outcome due in ``game``, drawn with ``rng`` by its probabilities (not
    applied): a uniform node (:data:`~hexlan.engine.chance.UNIFORM`: dice, a start player) by
    :meth:`ChanceNode.pick`, a single outcome without a draw, any other by
    :func:`~hexlan.engine.chance.draw_outcome`.

    For simulations and search, whose ``rng`` the caller seeds (the engine draws no randomness
    of its own): a game that must be fair takes its chance from the beacon, never from this.

    Raises:
        ValueError: no chance outcome is due.
    """
    node = game.chance_node()
    if node is not None and node.kind == UNIFORM:
        return node.pick(rng.randrange)
    outcomes = game.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    return draw_outcome(rng, outcomes)


__all__ = ["CHANCE_SEAT", "Game", "SeatViews", "TableGame", "sample_outcome"]
