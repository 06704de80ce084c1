"""The in-process game client: one human seat against bots, all in this process (`hexlan play`).

:class:`LocalGame` holds the full :class:`~hexlan.engine.state.GameState` privately, one
:class:`~hexlan.engine.info.InformationState` per seat, the bots and a seeded chance source. The
TUI reads only the human seat's view (:attr:`LocalGame.view`), moves with :meth:`LocalGame.submit`
and lets the others move with :meth:`LocalGame.step`, one decision or chance outcome at a time, so
it can pace the bots. Every action becomes a :class:`GameEvent` narrated in words from the human
seat's point of view: hidden cards of others are never named (../shared/ARCHITECTURE.md
principle 2).

>>> game = LocalGame(players=3, seed=1)
>>> while game.step() is not None:
...     pass
>>> game.human_to_act() and game.view.phase.title
'setup settlement'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import Bot, make_bot
from hexlan.engine.core import (
    CHANCE_PHASES,
    NO_SEAT,
    DevCard,
    IllegalActionError,
    Phase,
    Resource,
    Seat,
    hand_minus,
)
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.options import GameOptions
from hexlan.engine.state import GameState

DEFAULT_NAMES: Final = ("You", "Blue", "Green", "Purple")
"""Seat names when none are given: the human first, then bots named after their colours."""

EventKind = Literal[
    "start", "setup", "build", "roll", "robber", "steal", "discard", "dev", "trade", "turn", "game"
]
TargetKind = Literal["node", "path", "hex"]


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One action of the game, as the human seat saw it.

    Attributes:
        index: position in :attr:`LocalGame.events`, from 0.
        seat: the seat that acted (for dice and other chance outcomes, the seat they concern:
            the roller, the thief, the buyer); None for the start-player draw.
        text: the event in words ("Blue built a settlement"); empty for actions that say nothing
            by themselves (the roll request before its dice, an opponent's hidden card draw).
        action: the action as the human seat observed it (hidden cards of others are None).
        kind: what sort of event, for styling.
        target: what to highlight on the board: ("node" | "path" | "hex", ids), or None.
        turn: the turn counter after the action (0 during set-up).
    """

    index: int
    seat: Seat | None
    text: str
    action: Action
    kind: EventKind
    target: tuple[TargetKind, tuple[int, ...]] | None = None
    turn: int = 0


@dataclass(frozen=True, slots=True)
class Score:
    """How one seat got its victory points.

    Attributes:
        seat, name: who.
        settlements, cities: pieces on the board (1 and 2 points each).
        longest_road, largest_army: whether the seat holds the award (2 points each).
        vp_cards: victory point cards counted (only the seat's own, or everyone's once the game
            is over and every hand is revealed).
        total: the sum.
        road_length, knights: for the table.
    """

    seat: Seat
    name: str
    settlements: int
    cities: int
    longest_road: bool
    largest_army: bool
    vp_cards: int
    total: int
    road_length: int
    knights: int


def describe_cards(cards: Sequence[int]) -> str:
    """A hand in words: ``(2, 0, 0, 1, 0)`` -> "2 lumber, 1 grain"; "nothing" when empty.

    >>> describe_cards((2, 0, 0, 1, 0))
    '2 lumber, 1 grain'
    """
    parts = [f"{n} {Resource(r).name.lower()}" for r, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else "nothing"


class LocalGame:
    """A game of one human seat against bots, run in this process.

    Args:
        players: seats, 2 .. 4.
        human_seat: the seat the person plays.
        seed: seeds the board (for "random"), the chance source and the bots.
        board: "beginner" or "random".
        names: one name per seat (default :data:`DEFAULT_NAMES`).
        bots: one bot name per seat ("random" or "heuristic"); the human seat's entry is ignored.
            Default: "heuristic" everywhere.
        options: game options (official rules by default).

    Raises:
        ValueError: bad counts, names or seats.
    """

    def __init__(
        self,
        players: int = 4,
        human_seat: Seat = 0,
        seed: int = 0,
        board: str = "beginner",
        names: Sequence[str] | None = None,
        bots: Sequence[str] | None = None,
        options: GameOptions | None = None,
    ) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"a game takes 2 to 4 players, not {players}")
        if not 0 <= human_seat < players:
            raise ValueError(f"human seat {human_seat} is not one of the {players} seats")
        names = list(names) if names is not None else list(DEFAULT_NAMES[:players])
        if len(names) != players:
            raise ValueError(f"{players} players need {players} names, got {len(names)}")
        bot_names = list(bots) if bots is not None else ["heuristic"] * players
        if len(bot_names) != players:
            raise ValueError(f"{players} players need {players} bot names, got {len(bot_names)}")
        self.players = players
        self.human_seat = human_seat
        self.seed = seed
        self.names: tuple[str, ...] = tuple(names)
        self._chance = SeededChance(seed)
        board_obj = self._chance.board(board)
        self._state = GameState(board_obj, players, options)
        self._views = [InformationState(board_obj, players, s, options) for s in range(players)]
        self._bots: dict[Seat, Bot] = {
            s: make_bot(bot_names[s], random.Random(seed * 31 + s))
            for s in range(players)
            if s != human_seat
        }
        self.events: list[GameEvent] = []
        self.rolls: list[int] = []
        """Every dice total so far, in order."""

    # ------------------------------------------------------------------ reading

    @property
    def view(self) -> InformationState:
        """What the human seat knows: all the UI may read."""
        return self._views[self.human_seat]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._state.is_over

    @property
    def winner(self) -> Seat | None:
        """The winning seat once the game is over, else None."""
        return self._state.winner if self._state.is_over else None

    def human_to_act(self) -> bool:
        """Whether the game waits for the human seat (a decision of theirs is due)."""
        # The full state decides whose move it is: a view cannot know the moment an opponent's
        # hidden cards win the game (engine/info.py), and a chance outcome may be due.
        state = self._state
        return (
            not state.is_over
            and state.phase not in CHANCE_PHASES
            and self.human_seat in state.acting_seats()
        )

    def legal_actions(self) -> list[Action]:
        """The human seat's legal actions now (domestic offers excepted: their terms are open)."""
        if not self.human_to_act():
            return []
        return self.view.legal_actions(self.human_seat)

    def name(self, seat: Seat) -> str:
        """A seat's name."""
        return self.names[seat]

    def scores(self) -> list[Score]:
        """Victory points per seat and how they were earned.

        While the game runs, other seats' victory point cards are hidden (0 here); once it is
        over every hand is revealed and the breakdown is exact.
        """
        state: GameState = self._state if self.is_over else self.view
        award = state.rules.award_points
        result = []
        for s in range(self.players):
            if self.is_over or s == self.human_seat:
                vp_cards = state.hidden_victory_points(s)
                if self.is_over:
                    vp_cards = max(vp_cards, state.revealed_vp_cards[s])
            else:
                vp_cards = state.revealed_vp_cards[s]
            settlements, cities = len(state.settlements[s]), len(state.cities[s])
            lr = state.longest_road_holder == s
            la = state.largest_army_holder == s
            total = settlements + 2 * cities + award * (lr + la) + vp_cards
            result.append(
                Score(
                    seat=s,
                    name=self.names[s],
                    settlements=settlements,
                    cities=cities,
                    longest_road=lr,
                    largest_army=la,
                    vp_cards=vp_cards,
                    total=total,
                    road_length=state.road_length[s],
                    knights=state.knights[s],
                )
            )
        return result

    # ------------------------------------------------------------------ moving

    def submit(self, action: Action) -> GameEvent:
        """Play the human seat's ``action``.

        Raises:
            IllegalActionError: not the human's move, or not legal now; nothing changes.
        """
        state = self._state
        if state.is_over:
            raise IllegalActionError("the game is over")
        if isinstance(action, A.CHANCE_ACTIONS):
            raise IllegalActionError(f"{type(action).__name__} is a chance outcome, not a move")
        actor = state.actor(action)
        if actor != self.human_seat or actor not in state.acting_seats():
            raise IllegalActionError(
                f"{type(action).__name__}: it is not your move in phase {state.phase.title}"
            )
        state.check(action)
        return self._advance(action)

    def step(self) -> GameEvent | None:
        """Perform one pending move that is not the human's: a chance outcome or one bot decision.

        Returns:
            The move's event, or None when the game waits for the human or is over.

        Raises:
            IllegalActionError: a bot chose an illegal action (a bug; the game is unchanged).
        """
        state = self._state
        if state.is_over:
            return None
        if state.phase in CHANCE_PHASES:
            return self._advance(self._chance.outcome(state))
        for seat in state.acting_seats():
            bot = self._bots.get(seat)
            if bot is not None:
                action = bot.choose(self._views[seat], seat)
                state.check(action)  # a bot's mistake must not corrupt the game
                return self._advance(action)
        return None

    def run_bots(self, limit: int = 100_000) -> list[GameEvent]:
        """:meth:`step` until the human is due or the game is over; the events, in order."""
        events = []
        for _ in range(limit):
            event = self.step()
            if event is None:
                break
            events.append(event)
        return events

    # ------------------------------------------------------------------ narration

    def _advance(self, action: Action) -> GameEvent:
        state = self._state
        seen = state.observation(action, self.human_seat)
        active = state.active
        phase = state.phase
        before_hands = [tuple(h) for h in state.hands]  # production is public
        before_lr, before_la = state.longest_road_holder, state.largest_army_holder
        before_trade = state.trade
        before_answers = dict(state.trade_answers)
        victim = state.victim
        monopoly = state.monopoly
        discard_need = list(state.discards)

        advance_views(state, self._views, action)

        seat: Seat | None = active
        kind: EventKind = "build"
        target: tuple[TargetKind, tuple[int, ...]] | None = None
        text = ""
        who = self._who(active)
        setup = phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD)
        if isinstance(action, A.StartPlayer):
            seat, kind = None, "start"
            text = f"{self._who(action.seat)} {self._verb(action.seat, 'start', 'starts')}"
            text += " the set-up"
        elif isinstance(action, A.BuildSettlement):
            kind = "setup" if setup else "build"
            verb = "placed" if setup else "built"
            text = f"{who} {verb} a settlement at {self._node_place(action.node)}"
            target = ("node", (action.node,))
            if setup and phase is Phase.SETUP_SETTLEMENT and state.setup_step >= self.players:
                got = hand_minus(state.hands[active], before_hands[active])
                if any(got):
                    text += f" and {self._verb(active, 'take', 'takes')} {describe_cards(got)}"
        elif isinstance(action, A.BuildRoad):
            kind = "setup" if setup else "build"
            verb = "placed" if setup else "built"
            free = " free" if phase is Phase.ROAD_BUILDING else ""
            text = f"{who} {verb} a{free} road"
            target = ("path", (action.path,))
        elif isinstance(action, A.BuildCity):
            text = f"{who} built a city at {self._node_place(action.node)}"
            target = ("node", (action.node,))
        elif isinstance(action, A.BuyDevelopmentCard):
            kind = "dev"
            text = f"{who} bought a development card"
        elif isinstance(action, A.DrawCard):
            kind = "dev"
            assert isinstance(seen, A.DrawCard)
            if seen.card is not None:
                text = f"{who} drew {_card_name(seen.card)}"
        elif isinstance(action, A.RollDice):
            kind = "roll"
        elif isinstance(action, A.Dice):
            kind = "roll"
            total = action.total
            self.rolls.append(total)
            text = f"{who} rolled {total} ({action.first}+{action.second})"
            if total == 7:
                text += ": the robber!"
                need = [s for s in range(self.players) if state.discards[s]]
                if need:
                    listing = ", ".join(
                        f"{self._whom(s)} {self._verb(s, 'discard', 'discards')} {state.discards[s]}"
                        for s in need
                    )
                    text += " " + listing[0].upper() + listing[1:]
            else:
                gains = [
                    (s, hand_minus(state.hands[s], before_hands[s])) for s in range(self.players)
                ]
                parts = [
                    f"{self._whom(s)} {self._verb(s, 'get', 'gets')} {describe_cards(g)}"
                    for s, g in gains
                    if any(g)
                ]
                text += ": " + ("; ".join(parts) if parts else "nobody gets anything")
                hexes = tuple(
                    h
                    for h, token in enumerate(state.board.tokens)
                    if token == total and h != state.robber
                )
                target = ("hex", hexes) if hexes else None
        elif isinstance(action, A.Discard):
            kind, seat = "discard", action.seat
            n = discard_need[action.seat]
            plural = "card" if n == 1 else "cards"
            text = (
                f"{self._who(action.seat)} discarded {n} {plural}: {describe_cards(action.cards)}"
            )
        elif isinstance(action, A.MoveRobber):
            kind = "robber"
            text = f"{who} moved the robber to {self._hex_place(action.hex)}"
            if action.victim >= 0:
                text += f" and {self._verb(active, 'rob', 'robs')} {self._whom(action.victim)}"
            target = ("hex", (action.hex,))
        elif isinstance(action, A.StealCard):
            kind = "steal"
            assert isinstance(seen, A.StealCard)
            card = "" if seen.resource is None else f": {seen.resource.name.lower()}"
            if victim == self.human_seat:
                text = f"{who} stole a card from you{card}"
            else:
                text = f"{who} stole a card from {self._whom(victim)}{card}"
        elif isinstance(action, A.PlayKnight):
            kind = "dev"
            text = f"{who} played a Knight"
        elif isinstance(action, A.PlayRoadBuilding):
            kind = "dev"
            text = f"{who} played Road Building"
        elif isinstance(action, A.PlayYearOfPlenty):
            kind = "dev"
            took = " and ".join(r.name.lower() for r in action.resources) or "nothing"
            text = f"{who} played Year of Plenty and took {took}"
        elif isinstance(action, A.PlayMonopoly):
            kind = "dev"
            text = f"{who} played Monopoly on {action.resource.name.lower()}"
        elif isinstance(action, A.MonopolyTake):
            kind = "dev"
            resource = (monopoly or Resource.LUMBER).name.lower()
            total = sum(action.amounts)
            parts = [
                f"{n} from {self._whom(s)}"
                for s, n in enumerate(action.amounts)
                if n and s != active
            ]
            text = f"{who} took {total} {resource}"
            if parts:
                text += " (" + ", ".join(parts) + ")"
        elif isinstance(action, A.MaritimeTrade):
            kind = "trade"
            ratio = max(action.give)
            where = "the bank" if ratio == 4 else f"a {ratio}:1 harbour"
            text = (
                f"{who} traded {describe_cards(action.give)} with {where} "
                f"for 1 {action.get.name.lower()}"
            )
        elif isinstance(action, A.OfferTrade):
            kind = "trade"
            to = "everyone" if action.to == NO_SEAT else self._whom(action.to)
            text = (
                f"{who} {self._verb(active, 'offer', 'offers')} {describe_cards(action.give)} "
                f"for {describe_cards(action.get)} to {to}"
            )
        elif isinstance(action, A.AnswerTrade):
            kind, seat = "trade", action.seat
            verbs = ("accept", "accepts") if action.accept else ("decline", "declines")
            text = f"{self._who(action.seat)} {self._verb(action.seat, *verbs)}"
            if state.phase is Phase.MAIN and before_trade is not None and state.trade is None:
                text += ": nobody accepted"
        elif isinstance(action, A.CounterOffer):
            kind, seat = "trade", action.seat
            text = (
                f"{self._who(action.seat)} {self._verb(action.seat, 'counter', 'counters')}: "
                f"{describe_cards(action.get)} for {self._whose(active)} "
                f"{describe_cards(action.give)}"
            )
        elif isinstance(action, A.ConfirmTrade):
            kind = "trade"
            answer = before_answers.get(action.seat)
            terms = answer if isinstance(answer, A.CounterOffer) else before_trade
            if terms is not None:
                text = (
                    f"{who} traded {describe_cards(terms.give)} with {self._whom(action.seat)} "
                    f"for {describe_cards(terms.get)}"
                )
        elif isinstance(action, A.CancelTrade):
            kind = "trade"
            text = f"{who} withdrew the offer"
        elif isinstance(action, A.EndTurn):
            kind = "turn"
            if state.phase is Phase.ROLL:
                nxt = state.active
                text = f"Turn {state.turn}: {self._whose(nxt, capital=True)} turn"
            else:
                text = f"{who} ended the turn"
        elif isinstance(action, A.RevealVictory):
            kind = "game"
            cards = action.victory_point_cards
            shown = (
                f", showing {cards} victory point card{'s' if cards != 1 else ''}" if cards else ""
            )
            text = (
                f"{self._who(action.seat)} {self._verb(action.seat, 'win', 'wins')} with "
                f"{state.public_vp[action.seat]} points{shown}"
            )
        if setup and isinstance(action, A.BuildRoad) and state.phase is Phase.ROLL:
            text += f". Set-up done: Turn 1, {self._whose(state.active, capital=False)} turn"
        text += self._award_news(before_lr, before_la)

        event = GameEvent(
            index=len(self.events),
            seat=seat,
            text=text,
            action=seen,
            kind=kind,
            target=target,
            turn=state.turn,
        )
        self.events.append(event)
        return event

    def _award_news(self, before_lr: Seat, before_la: Seat) -> str:
        state = self._state
        news = ""
        if state.longest_road_holder != before_lr:
            holder = state.longest_road_holder
            if holder >= 0:
                news += (
                    f". {self._who(holder)} {self._verb(holder, 'take', 'takes')} Longest Road "
                    f"({state.road_length[holder]})"
                )
            else:
                news += ". Longest Road is set aside (a tie)"
        if state.largest_army_holder != before_la and state.largest_army_holder >= 0:
            holder = state.largest_army_holder
            news += (
                f". {self._who(holder)} {self._verb(holder, 'take', 'takes')} Largest Army "
                f"({state.knights[holder]} knights)"
            )
        return news

    def _who(self, seat: Seat) -> str:
        """A seat as a subject: "You" for the human, else its name."""
        return "You" if seat == self.human_seat else self.names[seat]

    def _whom(self, seat: Seat) -> str:
        """A seat as an object: "you" for the human, else its name."""
        return "you" if seat == self.human_seat else self.names[seat]

    def _whose(self, seat: Seat, capital: bool = False) -> str:
        """A seat as a possessive: "your" / "Your" for the human, else "Name's"."""
        if seat == self.human_seat:
            return "Your" if capital else "your"
        return f"{self.names[seat]}'s"

    def _verb(self, seat: Seat, plain: str, third: str) -> str:
        """The verb form for the seat as subject: ``plain`` for "You", ``third`` for a name."""
        return plain if seat == self.human_seat else third

    def _hex_label(self, hex_id: int) -> str:
        """A hex by terrain letter and token, e.g. "O10"; "D" for the desert."""
        board = self._state.board
        token = board.tokens[hex_id]
        return "D" if token == 0 else f"{board.terrains[hex_id].letter}{token}"

    def _hex_place(self, hex_id: int) -> str:
        """A hex as the robber's destination: "O10", or "the desert"."""
        return "the desert" if self._state.board.tokens[hex_id] == 0 else self._hex_label(hex_id)

    def _node_place(self, node: int) -> str:
        """An intersection by its hexes, e.g. "O10·W2" (coast where it has fewer than three)."""
        return "·".join(self._hex_label(h) for h in self._state.topology.node_hexes[node])


def _card_name(card: DevCard) -> str:
    title = card.title
    if card is DevCard.KNIGHT:
        return "a Knight"
    if card is DevCard.VICTORY_POINT:
        return "a Victory Point card"
    return title
