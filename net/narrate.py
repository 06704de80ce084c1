"""The game in words, from one seat's point of view: the narration every game client shares.

A :class:`Narrator` keeps its own copy of one seat's
:class:`~hexlan.engine.info.InformationState`, recording the engine's events
(:mod:`hexlan.engine.events`), and is fed, in order, every action as that seat observed it (a
session's :class:`~hexlan.net.session.Applied` effects). It tells each action from what the rules
report it did (production per seat, an award moving, a steal, a discard...) and returns a
:class:`GameEvent`: "Blue built a settlement at O10·W2", "Red stole a card from you: wool". It
reads nothing but the seat's view, so the card a robber moves between two other seats, or an
opponent's development card, is never named (../shared/ARCHITECTURE.md principle 2).

>>> from hexlan.engine import actions as A
>>> from hexlan.engine.board import beginner_board
>>> narrator = Narrator(beginner_board(), ("You", "Blue", "Green"), seat=0)
>>> narrator.narrate(A.StartPlayer(1)).text
'Blue starts the set-up'
>>> narrator.narrate(A.BuildSettlement(12)).text
'Blue placed a settlement at O10·G12·B6'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.board import Board
from hexlan.engine.core import Seat, no_cards
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet
from hexlan.net import tellers  # noqa: F401 (every game's tellers register on import)
from hexlan.net.telling import (
    ACTOR,
    EventKind,
    TargetKind,
    Telling,
    chance_actor,
    describe_cards,
    discoveries,
    teller_for,
)

DEFAULT_NAMES: Final = ("You", "Blue", "Green", "Purple", "Red", "Cobalt")
"""Seat names when none are given: the human first, then bots named after their colours."""


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One action of the game, as the human seat saw it.

    Attributes:
        index: position in the client's ``events``, from 0.
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
    """How one seat got its victory points, as far as the human seat knows.

    Attributes:
        seat, name: who.
        settlements, cities: pieces on the board (1 and 2 points each).
        longest_road, largest_army: whether the seat holds the award (2 points each).
        vp_cards: victory point cards counted: the seat's own, and for the others those shown
            (a winner reveals its cards; the others' stay hidden).
        hidden_cards: for other seats, development cards never shown (some may be victory
            point cards, not counted); 0 for the human seat.
        total: the sum of what is known.
        road_length, knights: for the table.
        variant_points: points from the game's own rules, public (the Big River's gold points
            make them; docs/rules/big-river.md); 0 in the base game.
        gold_points: the Big River's gold points behind ``variant_points``.
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
    hidden_cards: int = 0
    variant_points: int = 0
    gold_points: int = 0


def scores(view: InformationState, names: Sequence[str], seat: Seat) -> list[Score]:
    """Victory points per seat and how they were earned, from ``seat``'s view.

    Others' victory point cards count only once shown (the winner's, by its reveal); the rest
    are reported as ``hidden_cards``. Totals are the engine's own count
    (:meth:`~hexlan.engine.state.GameState.victory_points` for ``seat``, ``public_vp`` for the
    others), one score formula for the rules and the words.
    """
    result = []
    for s in range(view.players):
        if s == seat:
            vp_cards = max(view.hidden_victory_points(s), view.revealed_vp_cards[s])
            hidden = 0
        else:
            vp_cards = view.revealed_vp_cards[s]
            hidden = 0 if vp_cards else view.dev_count[s]
        settlements, cities = len(view.settlements[s]), len(view.cities[s])
        lr = view.longest_road_holder == s
        la = view.largest_army_holder == s
        result.append(
            Score(
                seat=s,
                name=names[s],
                settlements=settlements,
                cities=cities,
                longest_road=lr,
                largest_army=la,
                vp_cards=vp_cards,
                total=view.victory_points(s) if s == seat else view.public_vp[s],
                road_length=view.road_length[s],
                knights=view.knights[s],
                hidden_cards=hidden,
                variant_points=view.variant_vp[s],
                gold_points=view.gold_points[s],
            )
        )
    return result


class Narrator:
    """Tells one seat's game in words (see the module docstring).

    Args:
        board: the game's board.
        names: one name per seat.
        seat: whose point of view ("You").
        options: the game options.
        rules: the game's rule set (the base game's by default).

    Attributes:
        state: the narrator's copy of the seat's view.
        events: every event so far.
        rolls: every dice total so far, in order.
        road_award: the road award's name ("Longest Trade Route" on a map with sea paths).
        has_robber: whether the game has a robber (Pirate Islands has none).

    Its phrases (``who``, ``whom``, ``whose``, ``verb``, ``hex_place``, ``node_place``,
    ``production``) are what the tellers of :mod:`hexlan.net.tellers` build sentences from.
    """

    def __init__(
        self,
        board: Board,
        names: Sequence[str],
        seat: Seat,
        options: GameOptions | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        self.names = tuple(names)
        self.players = len(self.names)
        self.seat = seat
        self.state = InformationState(board, self.players, seat, options, rules)
        self.road_award = (
            "Longest Trade Route" if board.topology.path_sea else "Longest Road"
        )  # Seafarers: roads and ships (docs/rules/seafarers.md rule 13)
        self.state.record_events = True
        variant = self.state.variant
        self.has_robber = variant is None or variant.has_robber
        self.events: list[GameEvent] = []
        self.rolls: list[int] = []

    def narrate(self, action: Action) -> GameEvent:
        """Apply ``action`` (as this seat observed it, already accepted by its session) and
        tell it in words, by the teller its class registered (:mod:`hexlan.net.telling`)."""
        state = self.state
        active = state.active
        # The seat making a player action: the active seat, or another (a discard, a trade
        # answer, a build in the 5-6 player special building phase). A chance outcome concerns
        # the seat its teller names (a fog tile: the discoverer), else the active seat (the
        # roller; the buyer of a card drawn, who is active even in a special building phase).
        actor = state.actor(action)
        if actor < 0:
            actor_of = chance_actor(type(action))
            actor = active if actor_of is None else actor_of(state)
        phase = state.phase
        state.apply(action)
        telling = Telling(self, action, actor, active, phase, state.last_events)
        told = teller_for(type(action))(telling)
        event = GameEvent(
            index=len(self.events),
            seat=actor if told.seat == ACTOR else told.seat,
            text=told.text + telling.clauses("end"),
            action=action,
            kind=told.kind,
            target=told.target,
            turn=state.turn,
        )
        self.events.append(event)
        return event

    def production(
        self, news: Sequence[E.Event], total: int
    ) -> tuple[str, tuple[TargetKind, tuple[int, ...]] | None]:
        """What a roll of ``total`` (not 7) produced, in words, and the hexes that produced."""
        state = self.state
        nothing = no_cards(state.kinds)
        gains = list(
            enumerate(
                next(
                    (ev.gains for ev in news if isinstance(ev, E.Produced)),
                    (nothing,) * self.players,
                )
            )
        )
        found = next(
            (ev.found for ev in news if isinstance(ev, E.Discovered)),
            (0,) * self.players,
        )
        parts = [
            f"{self.whom(s)} {self.verb(s, 'get', 'gets')} "
            + ", ".join(
                ([describe_cards(g, self.state.rules.cards)] if any(g) else [])
                + ([discoveries(found[s])] if found[s] else [])
            )
            for s, g in gains
            if any(g) or found[s]
        ]
        hexes = tuple(
            h for h, token in enumerate(state.board.tokens) if token == total and h != state.robber
        )
        return ("; ".join(parts) if parts else "nobody gets anything"), (
            ("hex", hexes) if hexes else None
        )

    def roll_went_on(self, news: Sequence[E.Event]) -> str:
        """Pirate Islands: after the fleet's loot or prize, what the roll then produced."""
        dice = self.state.dice
        if dice is None or not any(isinstance(ev, E.Produced) for ev in news):
            return ""
        return "; the roll gives: " + self.production(news, dice.total)[0]

    def who(self, seat: Seat) -> str:
        """A seat as a subject: "You" for the human, else its name."""
        return "You" if seat == self.seat else self.names[seat]

    def whom(self, seat: Seat) -> str:
        """A seat as an object: "you" for the human, else its name."""
        return "you" if seat == self.seat else self.names[seat]

    def whose(self, seat: Seat, capital: bool = False) -> str:
        """A seat as a possessive: "your" / "Your" for the human, else "Name's"."""
        if seat == self.seat:
            return "Your" if capital else "your"
        return f"{self.names[seat]}'s"

    def verb(self, seat: Seat, plain: str, third: str) -> str:
        """The verb form for the seat as subject: ``plain`` for "You", ``third`` for a name."""
        return plain if seat == self.seat else third

    def hex_label(self, hex_id: int) -> str:
        """A hex by terrain letter and token, e.g. "O10", "J10" (a jungle); "D" for the desert,
        "$" for a gold mine."""
        board = self.state.board
        token = board.tokens[hex_id]
        letter = board.terrains[hex_id].letter
        return letter if token == 0 else f"{letter}{token}"

    def hex_place(self, hex_id: int) -> str:
        """A hex as the robber's destination: "O10", "the desert", "the jungle (J10)", "the
        gold mine"."""
        terrain = self.state.board.terrains[hex_id]
        if terrain.resource is not None:
            return self.hex_label(hex_id)
        name = terrain.name.lower().replace("_", " ")
        return (
            f"the {name}"
            if not self.state.board.tokens[hex_id]
            else (f"the {name} ({self.hex_label(hex_id)})")
        )

    def node_place(self, node: int) -> str:
        """An intersection by its hexes, e.g. "O10·W2" (coast where it has fewer than three)."""
        return "·".join(self.hex_label(h) for h in self.state.topology.node_hexes[node])


__all__ = [
    "DEFAULT_NAMES",
    "EventKind",
    "GameEvent",
    "Narrator",
    "Score",
    "TargetKind",
    "describe_cards",
    "scores",
]
