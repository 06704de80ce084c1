"""One seat's information state: the public game plus what that seat knows of the hidden cards.

An :class:`InformationState` runs the very rules of :class:`~hexlan.engine.state.GameState`, fed
with what its seat observes of each action (:meth:`GameState.observation`), and overrides only the
hooks through which the rules read and write hidden quantities (../shared/ARCHITECTURE.md
principle 2). Bots, the UI and the network game read nothing else; :func:`advance_views` moves a
full state and any number of views on together.

What is hidden in the base game (seed 002 «Разбойник», «Карточки развития»): the card a robber
steals, seen by thief and victim only, and every development card until it is played (or, for
victory point cards, revealed at victory). Production, discards, trades, building costs, Year of
Plenty and the counts a Monopoly takes are public.

Resource hands are known through a :class:`~hexlan.engine.knowledge.HandKnowledge`
(``hand_knowledge``; engine/knowledge.py says how): the own hand exact (``hands[seat]``), the
opponents' as groups of possible joint hands, which an unseen steal links and a payment, a shown
hand or a Monopoly's revealed count narrows; over :data:`MAX_WORLDS` worlds a group is split seat
by seat, a sound over-approximation (no possible hand is ever ruled out).

For opponents ``hands[s]`` holds the most of each resource ``s`` may hold (the per-resource
maximum over its possible hands) and ``dev_cards[s]``, ``new_dev_cards[s]`` stay zero (unknown);
:meth:`InformationState.possible_hands`, :meth:`~InformationState.known_cards` and
:meth:`~InformationState.joint_hands` say what is known.

Development cards. Only counts are public (``dev_count``, ``new_dev_count``, ``deck_size()``). In a
view ``deck`` is the *unseen pool* (read through a :class:`~hexlan.engine.knowledge.DeckKnowledge`,
:attr:`InformationState.dev_deck`): the starting deck minus the seat's own draws minus every card
another seat has played, i.e. the deck plus the opponents' unplayed cards. An opponent may play a
card type if it holds a card bought before this turn and the pool still has one of that type.
Another seat's draw is taken only as ``DrawCard(None)``, the way this seat observes it.
Known limit: a view does not infer anything from an opponent *not* winning (that its hidden cards
are not enough victory point cards), so it may accept a reveal or a card play that finer reasoning
would exclude; it never rejects a legal one.

A view of :data:`~hexlan.engine.core.NO_SEAT` is a pure third party (``hexlan verify`` replays
a log through one): it has no hand or cards of its own, every seat is an opponent, and it takes
every steal and draw as ``StealCard(None)`` / ``DrawCard(None)``.

Victory. The full state enters :attr:`Phase.VICTORY` when the active seat's public and hidden
points reach the target, and a :class:`~hexlan.engine.actions.RevealVictory` follows. A view of an
opponent cannot know that moment: it stays where the public rules put it (with
``victory_at_turn_end``, even on to the next turn or its special building phase) and accepts the
reveal there when the revealed cards are possible and enough, then ends the game exactly as the
full state does. A special builder never wins while building (docs/rules/five-six.md), so no view
accepts its reveal then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Self

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import Board
from hexlan.engine.core import (
    NO_SEAT,
    BuildPhase,
    DevCard,
    DevelopmentCard,
    EngineError,
    Hand,
    IllegalActionError,
    Phase,
    Resource,
    Seat,
    hand_covers,
    one_kind,
)
from hexlan.engine.knowledge import (
    MAX_WORLDS,
    DeckKnowledge,
    HandGroup,
    HandKnowledge,
    World,
    units,
)
from hexlan.engine.options import GameOptions
from hexlan.engine.registry import CHANCE_PHASES
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.state import GameState

_HIDDEN_STEAL: Final = A.StealCard(None)
_HIDDEN_DRAW: Final = A.DrawCard(None)
_OWN_ATTRIBUTES: Final = frozenset({"seat", "hand_knowledge", "_turn_end", "_one"})
"""What an information state holds beyond a :class:`GameState`'s attributes."""

_Group = HandGroup
"""The former private name of :class:`~hexlan.engine.knowledge.HandGroup` (tests set up a view's
knowledge with it)."""


@dataclass(frozen=True, slots=True)
class _TurnEnd:
    """What an opponent's EndTurn changed, kept in case it was in fact a victory (seed 003)."""

    seat: Seat
    turn: int
    dice: A.Dice | None
    new_dev_count: int
    dev_played_this_turn: bool


class InformationState(GameState):
    """What ``seat`` knows of a game: the public state, its own cards, and what is known of the
    others' hidden cards (../shared/ARCHITECTURE.md principle 2).

    Feed it, in order, what the seat observes of every action (:meth:`GameState.observation` on
    the full state, or :func:`advance_views`). :meth:`check` accepts every action the full game
    accepts and rejects actions no possible hidden card would allow ("could this opponent legally
    do this?"); :meth:`legal_actions` of the own seat equals the full state's. Where this seat
    cannot know a chance outcome (the card it steals, its own draw while opponents hold unseen
    cards, a Monopoly take of unknown counts, an opponent's victory point cards),
    :meth:`chance_outcomes` returns nothing rather than guess; a third party's observation of a
    steal or a draw is the single outcome ``StealCard(None)`` / ``DrawCard(None)``.

    Args:
        board, players, options, rules: as for :class:`GameState`.
        seat: the seat whose knowledge this is, 0 .. players-1, or :data:`NO_SEAT` for a pure
            third party (an observer such as ``hexlan verify``): every seat is then an
            opponent, every steal and draw it sees is hidden, and it accepts every victory
            reveal that is possible.
        max_worlds: the cap on a group of linked opponents (see the module docstring).

    Raises:
        EngineError: a seat outside the game (other than :data:`NO_SEAT`), a cap below 1, or
            what :class:`GameState` raises.

    >>> from hexlan.engine.board import beginner_board
    >>> view = InformationState(beginner_board(), 3, seat=0)
    >>> view.possible_hands(1)
    frozenset({(0, 0, 0, 0, 0)})
    >>> view.unseen_cards()  # the whole deck: 14 knights, 5 victory points, 2, 2, 2
    (14, 5, 2, 2, 2)
    """

    seat: Seat
    hand_knowledge: HandKnowledge
    """What the seat knows of every seat's resource hand (its ``bounds`` are :attr:`hands`)."""

    def __init__(
        self,
        board: Board,
        players: int,
        seat: Seat,
        options: GameOptions | None = None,
        rules: RuleSet | None = None,
        *,
        max_worlds: int = MAX_WORLDS,
    ) -> None:
        super().__init__(board, players, options, rules)
        self.hand_knowledge = HandKnowledge(
            players, seat, self.kinds, self.hands, max_worlds=max_worlds
        )
        self.seat = seat
        self._one = units(self.kinds)
        self._turn_end: _TurnEnd | None = None

    def copy(self) -> Self:
        """An independent copy (:meth:`GameState.copy`), the seat's knowledge included: linked
        opponents stay linked to one shared copy of their group."""
        new = super().copy()
        new.hand_knowledge = self.hand_knowledge.copy(new.hands)
        return new

    @property
    def max_worlds(self) -> int:
        """The cap on a group of linked opponents (see the module docstring)."""
        return self.hand_knowledge.max_worlds

    @property
    def _groups(self) -> list[HandGroup | None]:
        """Per seat, its group of linked opponents (:attr:`HandKnowledge.groups`, changed in
        place where a position is loaded)."""
        return self.hand_knowledge.groups

    @property
    def _possible(self) -> list[frozenset[Hand]]:
        """Per opponent, its possible hands (:attr:`HandKnowledge.possible`)."""
        return self.hand_knowledge.possible

    def _refresh(self, seat: Seat) -> None:
        """Recompute an opponent's possible hands and bound ``hands[seat]`` from its group."""
        self.hand_knowledge.refresh(seat)

    @property
    def dev_deck(self) -> DeckKnowledge:
        """What the seat knows of the development deck: its unseen pool is :attr:`deck`."""
        return DeckKnowledge(self.deck)

    def full_state(
        self,
        hands: Sequence[Sequence[int]],
        dev_cards: Sequence[Sequence[int]],
        new_dev_cards: Sequence[Sequence[int]],
        deck: Sequence[int],
    ) -> GameState:
        """A full :class:`GameState` with this view's public state and the given hidden cards
        (a determinisation, :mod:`hexlan.engine.determinize`): every seat's resource hand and
        unplayed and new development cards (5-lists by seat) and the deck's counts; hands have
        one count per card kind of the game.

        The caller makes them consistent with this view; nothing is checked here.
        """
        attributes = {k: v for k, v in self.__dict__.items() if k not in _OWN_ATTRIBUTES}
        state: GameState = self._copy_as(GameState, attributes)
        state.hands = [list(h) for h in hands]
        state.dev_cards = [list(c) for c in dev_cards]
        state.new_dev_cards = [list(c) for c in new_dev_cards]
        state.deck = list(deck)
        return state

    # ------------------------------------------------------------------ what the seat knows
    # (the hand knowledge's answers: engine/knowledge.py)

    def possible_hands(self, seat: Seat) -> frozenset[Hand]:
        """Every resource hand ``seat`` may hold, as far as this seat knows (one for itself)."""
        return self.hand_knowledge.possible_hands(seat)

    def known_cards(self, seat: Seat) -> Hand:
        """The cards surely in ``seat``'s hand: per resource, the least over its possible hands.

        The rest of its ``hand_size[seat]`` cards are hidden; :meth:`possible_hands` says what
        they may be.
        """
        return self.hand_knowledge.known_cards(seat)

    def hidden_kinds(self, seat: Seat) -> frozenset[Resource]:
        """The card kinds each of ``seat``'s hidden cards (those beyond :meth:`known_cards`) may
        be; empty when its hand is known exactly."""
        cards = self.rules.cards  # the game's kinds, by their index in a hand
        return frozenset(cards[r] for r in self.hand_knowledge.hidden_kinds(seat))

    def could_hold(self, seat: Seat, cards: Hand) -> bool:
        """Whether ``seat`` may hold at least ``cards`` (a hand of the game's card kinds)."""
        return self.hand_knowledge.covers(seat, cards)

    def joint_hands(self) -> list[tuple[tuple[Seat, ...], frozenset[World]]]:
        """The opponents' possible hands as independent groups, in seat order.

        Each item is ``(seats, worlds)``: every world gives one hand per seat of ``seats``, and
        the opponents' hands together are one world of each group (a determinisation draws one
        world per group). The own seat is in no group.
        """
        return self.hand_knowledge.joint_hands()

    def is_consistent(self, hands: Sequence[Sequence[int]]) -> bool:
        """Whether these resource hands of every seat (the true ones, say) fit this seat's
        knowledge: its own hand exactly, the opponents' as one world of each group."""
        return self.hand_knowledge.is_consistent(hands)

    def unseen_cards(self) -> tuple[int, ...]:
        """Development cards this seat has not seen, per face (``rules.dev_faces``): the deck and the
        opponents' unplayed cards together."""
        return tuple(self.deck)

    # ------------------------------------------------------------------ resource-hand hooks
    # (overrides of the rules kit's hand moves on GameState, whose docstrings say what each
    # does, handed to the hand knowledge; hand sizes are public and kept here)

    def hand_gain(self, seat: Seat, cards: Hand) -> None:
        self.hand_knowledge.gain(seat, cards)
        self.hand_size[seat] += sum(cards)

    def hand_pay(self, seat: Seat, cards: Hand) -> None:
        self.hand_knowledge.pay(seat, cards)
        self.hand_size[seat] -= sum(cards)

    def hand_covers(self, seat: Seat, cards: Hand) -> bool:
        return self.hand_knowledge.covers(seat, cards)

    def _hand_count(self, seat: Seat, resource: Resource) -> int | None:
        return self.hand_knowledge.count(seat, resource)

    def hand_could(self, seat: Seat, test: Callable[[Hand], bool]) -> bool:
        return self.hand_knowledge.could(seat, test)

    def hand_narrow(self, seat: Seat, test: Callable[[Hand], bool], why: str) -> None:
        self.hand_knowledge.narrow(seat, test, why)

    def hand_steal(self, thief: Seat, victim: Seat, resource: Resource | None) -> None:
        self.hand_knowledge.steal(thief, victim, resource)
        self.hand_size[victim] -= 1
        self.hand_size[thief] += 1

    def _hand_take_all(self, thief: Seat, victim: Seat, resource: Resource, amount: int) -> None:
        self.hand_knowledge.take_all(
            thief,
            victim,
            one_kind(resource, amount, self.kinds),
            lambda h: self.monopoly_amount(h[resource]) == amount,
            f"did not hold exactly {amount} {resource.name.lower()}",
        )
        self.hand_size[victim] -= amount
        self.hand_size[thief] += amount

    # ------------------------------------------------------------------ development-card hooks
    # (the own seat's cards are exact, GameState's; the others' are counts, their faces the
    # unseen pool's: dev_deck)

    def _dev_draw(self, seat: Seat, card: DevelopmentCard | None) -> None:
        if seat == self.seat:
            super()._dev_draw(seat, card)
        elif card is not None:
            raise EngineError(f"seat {self.seat} cannot see the card seat {seat} draws")

    def _dev_can_play(self, seat: Seat, card: DevelopmentCard) -> bool:
        if seat == self.seat:
            return super()._dev_can_play(seat, card)
        return self.dev_count[seat] > self.new_dev_count[seat] and self.dev_deck.may_be(card)

    def _dev_play(self, seat: Seat, card: DevelopmentCard) -> None:
        if seat == self.seat:
            super()._dev_play(seat, card)
        else:
            self.dev_deck.seen(card)

    def sees(self, seat: Seat) -> bool:
        """Only the own seat's hidden cards are known (none for a third party)."""
        return seat == self.seat

    def hidden_victory_points(self, seat: Seat) -> int:
        """The own seat's counting victory point cards; 0 for opponents (unknown)."""
        return super().hidden_victory_points(seat) if seat == self.seat else 0

    def deck_size(self) -> int:
        """Development cards left in the deck: the unseen pool less the opponents' cards."""
        return self.dev_deck.left(sum(n for s, n in enumerate(self.dev_count) if s != self.seat))

    def _most_vp_cards(self, seat: Seat, new_cards: int) -> int:
        """The most victory point cards an opponent may hold that count now."""
        held = self.dev_count[seat] - (new_cards if self.options.vp_cards_next_turn else 0)
        return self.dev_deck.most(DevCard.VICTORY_POINT, held)

    # ------------------------------------------------------------------ chance and checks

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance outcomes due, as this seat will observe them, where it can know them.

        Empty where it cannot: a steal by this seat from a hand it does not know exactly, its own
        draw while opponents hold unseen cards, a Monopoly take of unknown counts, or an
        opponent's victory reveal of an unknown count.
        """
        phase = self.phase
        if phase is Phase.STEAL:
            if self.seat not in (self.active, self.victim):
                return [(_HIDDEN_STEAL, 1.0)]
            known = self.hand_knowledge.exact_hand(self.victim) is not None
            return super().chance_outcomes() if known else []
        if phase is Phase.DRAW:
            if self.seat != self.active:
                return [(_HIDDEN_DRAW, 1.0)]
            return super().chance_outcomes() if self.deck_size() == sum(self.deck) else []
        if phase is Phase.MONOPOLY:
            resource = self.monopoly
            assert resource is not None
            amounts = [
                {0}
                if s == self.active
                else {self.monopoly_amount(h[resource]) for h in self.possible_hands(s)}
                for s in range(self.players)
            ]
            if any(len(a) != 1 for a in amounts):
                return []
            return [(A.MonopolyTake(tuple(a.pop() for a in amounts)), 1.0)]
        if phase is Phase.VICTORY and self.active != self.seat:
            if self._most_vp_cards(self.active, self.new_dev_count[self.active]):
                return []
            return [(A.RevealVictory(self.active, 0), 1.0)]
        return super().chance_outcomes()

    def steal_outcome(self, index: int) -> A.StealCard:
        """As :meth:`GameState.steal_outcome`, where this seat knows the victim's hand.

        Raises:
            EngineError: no steal is due, the index is outside the hand, or the hand is unknown.
        """
        if self.phase is Phase.STEAL and self.hand_knowledge.exact_hand(self.victim) is None:
            raise EngineError(f"seat {self.seat} does not know seat {self.victim}'s hand")
        return super().steal_outcome(index)

    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """As :meth:`GameState.legal_actions`; for an opponent, every action it may have (legal
        in at least one of its possible hands)."""
        actions = super().legal_actions(seat)
        if seat is None:
            seat = self.current_player()
        if seat < 0 or self.hand_knowledge.knows(seat):
            return actions
        # Discards and maritime trades were listed from the per-resource bound hands[seat].
        covers = self.hand_covers
        return [
            a
            for a in actions
            if not (
                (type(a) is A.Discard and not covers(seat, a.cards))
                or (type(a) is A.MaritimeTrade and not covers(seat, a.give))
            )
        ]

    def check(self, action: Action) -> None:
        """Raise unless ``action`` (as this seat observes it) may be legal now.

        Raises:
            IllegalActionError: no hidden cards this seat deems possible allow it, with the reason
                and the rule's source.
        """
        super().check(action)
        if type(action) is A.ConfirmTrade:  # both sides pay: one world must cover both
            answer = self.trade_answers[action.seat]
            terms = answer if isinstance(answer, A.CounterOffer) else self.trade
            assert terms is not None
            give, get = terms.give, terms.get
            if not self.hand_knowledge.could_all(
                {
                    self.active: lambda h: hand_covers(h, give),
                    action.seat: lambda h: hand_covers(h, get),
                }
            ):
                raise IllegalActionError(
                    f"seats {self.active} and {action.seat} cannot both hold their side of the "
                    "trade",
                    "seed 002 «Торговля»",
                )

    def _check_chance(self, action: Action) -> None:
        phase = self.phase
        if isinstance(action, A.StealCard) and phase is Phase.STEAL:
            self._check_steal(action)
        elif isinstance(action, A.DrawCard) and phase is Phase.DRAW:
            self._check_draw(action)
        elif isinstance(action, A.MonopolyTake) and phase is Phase.MONOPOLY:
            self._check_monopoly(action)
        elif isinstance(action, A.RevealVictory):
            self._check_reveal(action)
        else:
            super()._check_chance(action)

    def _check_steal(self, action: A.StealCard) -> None:
        thief, victim = self.active, self.victim
        if action.resource is None:
            if self.seat in (thief, victim):
                raise IllegalActionError(f"seat {self.seat} sees the card of its own steal")
        elif action.resource >= self.kinds or not self.hand_covers(
            victim, self._one[action.resource]
        ):
            raise IllegalActionError(
                f"seat {victim} cannot hold {action.resource.name.lower()} to be stolen",
                "seed 002 «Разбойник»",
            )

    def _check_draw(self, action: A.DrawCard) -> None:
        if action.card is None:
            if self.seat == self.active:
                raise IllegalActionError(f"seat {self.seat} sees the card it draws")
        elif self.seat != self.active:
            raise IllegalActionError(
                f"seat {self.seat} cannot see the card seat {self.active} draws",
                "seed 002 «Карточки развития»",
            )
        elif not self.dev_deck.may_be(action.card):
            raise IllegalActionError(f"no {action.card.title} card is left unseen")

    def _check_monopoly(self, action: A.MonopolyTake) -> None:
        resource, amounts = self.monopoly, action.amounts
        assert resource is not None
        if len(amounts) != self.players or amounts[self.active] or min(amounts) < 0:
            raise IllegalActionError(f"{action!r} does not give a count per opponent")

        def exactly(n: int) -> Callable[[Hand], bool]:
            return lambda h: self.monopoly_amount(h[resource]) == n

        if not self.hand_knowledge.could_all(
            {s: exactly(n) for s, n in enumerate(amounts) if s != self.active}
        ):
            raise IllegalActionError(
                f"{action!r}: the opponents cannot hold these {resource.name.lower()} counts",
                "seed 002 «Карточки развития»",
            )

    def _check_reveal(self, action: A.RevealVictory) -> None:
        seat, cards = action.seat, action.victory_point_cards
        if self.phase is Phase.VICTORY and self.active == self.seat:
            super()._check_chance(action)
            return
        end = self._turn_end
        if seat == self.seat:
            possible = False  # the own seat's points are known: it would be in Phase.VICTORY
        elif self.phase is Phase.VICTORY:  # the public points alone reach the target
            possible = seat == self.active and 0 <= cards <= self._most_vp_cards(
                seat, self.new_dev_count[seat]
            )
        elif self.options.victory_at_turn_end:  # just after that seat's EndTurn
            possible = (
                end is not None
                and end.seat == seat
                and self.target - self.public_vp[seat]
                <= cards
                <= self._most_vp_cards(seat, end.new_dev_count)
            )
        else:  # at any point of that seat's own turn (a special builder's is not its own)
            possible = (
                seat == self.active
                and self.turn > 0
                and self.phase not in CHANCE_PHASES
                and self.phase is not BuildPhase.SPECIAL_BUILD
                and self.target - self.public_vp[seat]
                <= cards
                <= self._most_vp_cards(seat, self.new_dev_count[seat])
            )
        if not possible:
            raise IllegalActionError(
                f"{action!r}: seat {seat} cannot have won now", "seed 002 «Конец игры»"
            )

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """As :meth:`GameState.apply`, for an action as this seat observes it (unchecked)."""
        kind = type(action)
        turn_end = None
        if (
            kind is A.EndTurn
            and self.options.victory_at_turn_end
            and self.active != self.seat
            and self.phase is not BuildPhase.SPECIAL_BUILD  # a special builder's is no turn's end
        ):
            seat = self.active
            turn_end = _TurnEnd(
                seat, self.turn, self.dice, self.new_dev_count[seat], self.dev_played_this_turn
            )
        elif kind is A.RevealVictory and self._turn_end is not None:
            end = self._turn_end  # the EndTurn was a victory: take the turn back
            self.active, self.turn, self.dice = end.seat, end.turn, end.dice
            self.special_from = NO_SEAT  # no special building phase follows a winning turn
            self.new_dev_count[end.seat] = end.new_dev_count
            self.dev_played_this_turn = end.dev_played_this_turn
        super().apply(action)
        self._turn_end = turn_end if self.phase is not Phase.VICTORY else None


def advance_views(
    state: GameState,
    views: Sequence[InformationState],
    action: Action,
    *,
    check: bool = False,
) -> None:
    """Apply ``action`` to the full state and what each seat observes of it to that seat's view.

    Args:
        state: the full game.
        views: information states of some or all seats, in step with ``state``.
        action: a player or chance action for ``state``.
        check: first check the action on ``state`` and every observation on its view, so that
            nothing is applied if one of them refuses.

    Raises:
        IllegalActionError: with ``check``, the state or a view refuses; nothing has changed.
    """
    seen = [state.observation(action, view.seat) for view in views]
    if check:
        state.check(action)
        for view, observed in zip(views, seen, strict=True):
            view.check(observed)
    state.apply(action)
    for view, observed in zip(views, seen, strict=True):
        view.apply(observed)


if TYPE_CHECKING:  # mypy --strict checks that the class satisfies the one game interface
    from hexlan.engine.game import Game

    _GAME: type[Game] = InformationState
