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
from typing import Final, Literal

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.board import Board
from hexlan.engine.core import (
    NO_SEAT,
    DevCard,
    Phase,
    Resource,
    Seat,
    Terrain,
    no_cards,
)
from hexlan.engine.info import InformationState
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import EventDie
from hexlan.engine.variants.jungle import BuyWithDiscoveries
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    FortressDie,
    RobSeat,
)
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    ExploreFog,
    MovePirate,
    MoveShip,
)
from hexlan.net.narrate_knights import knights_text

DEFAULT_NAMES: Final = ("You", "Blue", "Green", "Purple", "Red", "Cobalt")
"""Seat names when none are given: the human first, then bots named after their colours."""

EventKind = Literal[
    "start", "setup", "build", "roll", "robber", "steal", "discard", "dev", "trade", "turn", "game"
]
TargetKind = Literal["node", "path", "hex"]


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


def describe_cards(cards: Sequence[int]) -> str:
    """A hand in words: ``(2, 0, 0, 1, 0)`` -> "2 lumber, 1 grain"; "nothing" when empty. A
    hand of any game's length: commodities are named too.

    >>> describe_cards((2, 0, 0, 1, 0))
    '2 lumber, 1 grain'
    >>> describe_cards((0, 0, 0, 0, 1, 2, 0, 1))
    '1 ore, 2 paper, 1 coin'
    """
    parts = [f"{n} {Resource(r).name.lower()}" for r, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else "nothing"


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
        self._road_award = (
            "Longest Trade Route" if board.topology.path_sea else "Longest Road"
        )  # Seafarers: roads and ships (docs/rules/seafarers.md rule 13)
        self.state.record_events = True
        variant = self.state.variant
        self._robber = variant is None or variant.has_robber
        self.events: list[GameEvent] = []
        self.rolls: list[int] = []
        self._buyer: Seat = NO_SEAT  # who bought the card a DrawCard deals

    def narrate(self, action: Action) -> GameEvent:
        """Apply ``action`` (as this seat observed it, already accepted by its session) and
        tell it in words."""
        state = self.state
        seen = action
        active = state.active
        # The seat making a player action: the active seat, or another (a discard, a trade
        # answer, a build in the 5-6 player special building phase). A draw is the buyer's.
        actor = state.actor(action)
        if actor < 0 and isinstance(action, ExploreFog):
            actor = state.fog_seat  # the discoverer
        elif actor < 0:
            actor = self._buyer if isinstance(action, A.DrawCard) else active
        if isinstance(action, A.BuyDevelopmentCard):
            self._buyer = actor
        phase = state.phase
        # Cities & Knights: the progress before the action (a drawer, a displaced knight)
        prior = progress_of(state).copy() if isinstance(state.variant, CitiesKnights) else None
        pending = state.roll_pending  # the roll waits (Pirate Islands' fleet, C&K's event die)

        state.apply(action)
        news = state.last_events  # what the rules did (hexlan.engine.events)

        seat: Seat | None = actor
        kind: EventKind = "build"
        target: tuple[TargetKind, tuple[int, ...]] | None = None
        text = ""
        who = self._who(actor)
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
            for ev in news:
                if isinstance(ev, E.StartingResources) and any(ev.cards):
                    text += (
                        f" and {self._verb(ev.seat, 'take', 'takes')} {describe_cards(ev.cards)}"
                    )
        elif isinstance(action, A.BuildRoad | BuildShip):  # ships: Seafarers
            kind = "setup" if setup else "build"
            verb = "placed" if setup else "built"
            free = " free" if phase is Phase.ROAD_BUILDING else ""
            piece = "road" if isinstance(action, A.BuildRoad) else "ship"
            text = f"{who} {verb} a{free} {piece}"
            target = ("path", (action.path,))
        elif isinstance(action, A.BuildCity):
            text = f"{who} built a city at {self._node_place(action.node)}"
            target = ("node", (action.node,))
        elif isinstance(action, MoveShip):
            text = f"{who} moved a ship"
            target = ("path", (action.target,))
        elif isinstance(action, MovePirate):
            kind = "robber"
            text = f"{who} moved the pirate"
            if action.victim >= 0:
                text += f" and {self._verb(active, 'rob', 'robs')} {self._whom(action.victim)}"
            target = ("hex", (action.hex,))  # a sea hex: the board numbers them after the land
        elif isinstance(action, ExploreFog):
            text = self._fog_news(who, news)
            revealed = tuple(ev.hex for ev in news if isinstance(ev, E.FogRevealed))
            target = ("hex", revealed) if revealed else None
        elif isinstance(action, ChooseGold):
            seat = action.seat
            text = (
                f"{self._who(action.seat)} {self._verb(action.seat, 'take', 'takes')} "
                f"{describe_cards(action.cards)} from the gold fields"
            )
            text += self._roll_went_on(news)
        elif isinstance(action, A.BuyDevelopmentCard):
            kind = "dev"
            text = f"{who} bought a development card"
        elif isinstance(action, BuyWithDiscoveries):
            kind = "dev"
            spent = sum(action.replaced)
            text = (
                f"{who} bought a development card with {_discoveries(spent)} standing for "
                f"{describe_cards(action.replaced)}"
            )
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
            text += self._fleet_news(news)
            if total == 7 and prior is None:  # (Cities & Knights: told after the event die)
                text += self._seven(news)
            elif not state.roll_pending:  # Pirate Islands: production waits for the loot
                produced, target = self._production(news, total)
                text += ": " + produced
        elif isinstance(action, A.Discard):
            kind, seat = "discard", action.seat
            n = sum(action.cards)
            plural = "card" if n == 1 else "cards"
            text = (
                f"{self._who(action.seat)} discarded {n} {plural}: {describe_cards(action.cards)}"
            )
            text += self._roll_went_on(news)
        elif isinstance(action, A.MoveRobber):
            kind = "robber"
            text = f"{who} moved the robber to {self._hex_place(action.hex)}"
            if action.victim >= 0:
                text += f" and {self._verb(active, 'rob', 'robs')} {self._whom(action.victim)}"
            target = ("hex", (action.hex,))
        elif isinstance(action, A.StealCard):
            kind = "steal"
            assert isinstance(seen, A.StealCard)
            stole = next(ev for ev in news if isinstance(ev, E.Stole))
            victim = stole.victim
            card = "" if stole.resource is None else f": {stole.resource.name.lower()}"
            if victim == self.seat:
                text = f"{who} stole a card from you{card}"
            else:
                text = f"{who} stole a card from {self._whom(victim)}{card}"
        elif isinstance(action, A.PlayKnight):
            kind = "dev"
            text = f"{who} played a Knight"
            if not self._robber:  # Pirate Islands: a warship (seed 004)
                text += " and made a warship"
        elif isinstance(action, RobSeat):
            kind = "robber"
            text = f"{who} {self._verb(active, 'rob', 'robs')} " + (
                self._whom(action.victim) if action.victim >= 0 else "nobody: no cards in hand"
            )
        elif isinstance(action, AttackFortress):
            kind = "robber"
            text = f"{who} {self._verb(active, 'attack', 'attacks')} the pirate fortress"
        elif isinstance(action, FortressDie):
            kind = "robber"
            text = self._fortress_news(who, news)
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
            taken = next(ev for ev in news if isinstance(ev, E.MonopolyTaken))
            resource = taken.resource.name.lower()
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
            if any(isinstance(ev, E.TradeClosed) for ev in news):
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
            for ev in news:
                if isinstance(ev, E.Traded):
                    text = (
                        f"{who} traded {describe_cards(ev.give)} with {self._whom(ev.partner)} "
                        f"for {describe_cards(ev.get)}"
                    )
        elif isinstance(action, A.CancelTrade):
            kind = "trade"
            text = f"{who} withdrew the offer"
        elif isinstance(action, A.EndTurn):
            kind = "turn"
            text = f"{who} ended the turn"
            for ev in news:
                if isinstance(ev, E.TurnStarted):
                    text = f"Turn {ev.turn}: {self._whose(ev.seat, capital=True)} turn"
                elif isinstance(ev, E.SpecialBuildingStarted):
                    text = f"Special building: {self._who(ev.seat)} may build"
        elif isinstance(action, A.RevealVictory):
            kind = "game"
            won = next(ev for ev in news if isinstance(ev, E.Won))
            cards = won.vp_cards
            shown = (
                f", showing {cards} victory point card{'s' if cards != 1 else ''}" if cards else ""
            )
            text = (
                f"{self._who(won.seat)} {self._verb(won.seat, 'win', 'wins')} with "
                f"{won.points} points{shown}"
            )
        elif prior is not None:  # Cities & Knights (net/narrate_knights.py)
            kind = "roll" if isinstance(action, EventDie) else "build"
            told = knights_text(state, prior, action, self._who, self._node_place)
            text = told or ""
            dice = state.dice
            if pending and not state.roll_pending and dice is not None:  # the roll went on
                text += (
                    "; the roll" + self._seven(news)
                    if dice.total == 7
                    else self._roll_went_on(news)
                )
        if setup and isinstance(action, A.BuildRoad):
            for ev in news:
                if isinstance(ev, E.TurnStarted):
                    text += f". Set-up done: Turn 1, {self._whose(ev.seat, capital=False)} turn"
        text += self._award_news(news)
        for ev in news:
            if (
                isinstance(ev, E.VariantPointsChanged)
                and ev.seat == active
                and ev.victory_points > ev.previous_vp
            ):
                what = (
                    "an island bonus"
                    if state.variant is not None and state.variant.name == "seafarers"
                    else f"{ev.gold_points} gold points"
                )
                text += (
                    f". {self._who(ev.seat)} {self._verb(ev.seat, 'reach', 'reaches')} {what}"
                    f" ({ev.victory_points} victory point"
                    f"{'s' if ev.victory_points != 1 else ''})"
                )

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

    def _production(
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
            f"{self._whom(s)} {self._verb(s, 'get', 'gets')} "
            + ", ".join(
                ([describe_cards(g)] if any(g) else [])
                + ([_discoveries(found[s])] if found[s] else [])
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

    def _seven(self, news: Sequence[E.Event]) -> str:
        """A 7 rolled, and who discards, as a clause (the robber, where it moves)."""
        variant = self.state.variant
        robber = self._robber and not (variant is not None and variant.robber_locked(self.state))
        text = ": the robber!" if robber else ": a 7!"
        due = next((ev.counts for ev in news if isinstance(ev, E.DiscardsDue)), ())
        need = [s for s, n in enumerate(due) if n]
        if need:
            listing = ", ".join(
                f"{self._whom(s)} {self._verb(s, 'discard', 'discards')} {due[s]}" for s in need
            )
            text += " " + listing[0].upper() + listing[1:]
        return text

    def _roll_went_on(self, news: Sequence[E.Event]) -> str:
        """Pirate Islands: after the fleet's loot or prize, what the roll then produced."""
        dice = self.state.dice
        if dice is None or not any(isinstance(ev, E.Produced) for ev in news):
            return ""
        return "; the roll gives: " + self._production(news, dice.total)[0]

    def _fleet_news(self, events: Sequence[E.Event]) -> str:
        """Pirate Islands: where the fleet sailed and whom it attacked, as a clause."""
        sailed = next((ev for ev in events if isinstance(ev, E.FleetSailed)), None)
        if sailed is None:
            return ""
        if sailed.victim < 0:
            return f"; the pirate fleet sails {sailed.strength}"
        who = self._whom(sailed.victim)
        if sailed.strength > sailed.warships:
            outcome = f"{who} {self._verb(sailed.victim, 'lose', 'loses')} cards"
        elif sailed.strength < sailed.warships:
            outcome = f"{who} {self._verb(sailed.victim, 'beat', 'beats')} it off and takes a card"
        else:
            outcome = f"{who} {self._verb(sailed.victim, 'hold', 'holds')} it off"
        return (
            f"; the pirate fleet ({sailed.strength}) attacks {who}"
            f" ({sailed.warships} warships): {outcome}"
        )

    def _fortress_news(self, who: str, events: Sequence[E.Event]) -> str:
        """Pirate Islands: a fortress attack's die and what came of it, in words."""
        attack = next(ev for ev in events if isinstance(ev, E.FortressAttacked))
        text = f"The fortress rolled {attack.roll} against {attack.warships} warships: "
        if attack.ships_lost:
            lost = "a ship" if attack.ships_lost == 1 else f"{attack.ships_lost} ships"
            return text + f"{who} {self._verb(attack.seat, 'lose', 'loses')} {lost}"
        if attack.chits:
            return text + f"{attack.chits} chit{'s' if attack.chits != 1 else ''} left"
        return text + f"{who} {self._verb(attack.seat, 'capture', 'captures')} it!"

    def _fog_news(self, who: str, events: Sequence[E.Event]) -> str:
        """A fog tile drawn (:class:`~hexlan.engine.events.FogRevealed`), in words."""
        found = [ev for ev in events if isinstance(ev, E.FogRevealed)]
        if not found:
            return f"{who} drew a land tile from the fog; its number comes next"
        parts = []
        for ev in found:
            terrain = Terrain(ev.terrain).name.replace("_", " ").lower()
            token = f" {ev.token}" if ev.token else ""
            took = f", taking {describe_cards(ev.cards)}" if ev.cards else ""
            parts.append(f"{who} revealed {terrain}{token} from the fog{took}")
        return "; ".join(parts)

    def _award_news(self, events: Sequence[E.Event]) -> str:
        """The awards that moved (:class:`~hexlan.engine.events.AwardMoved`), in words."""
        news = ""
        for ev in events:
            if not isinstance(ev, E.AwardMoved):
                continue
            holder = ev.to_seat
            if ev.award == "longest_road":
                if holder >= 0:
                    news += (
                        f". {self._who(holder)} {self._verb(holder, 'take', 'takes')} "
                        f"{self._road_award} ({ev.size})"
                    )
                else:
                    news += f". {self._road_award} is set aside (a tie)"
            elif holder >= 0:
                news += (
                    f". {self._who(holder)} {self._verb(holder, 'take', 'takes')} Largest Army "
                    f"({ev.size} knights)"
                )
        return news

    def _who(self, seat: Seat) -> str:
        """A seat as a subject: "You" for the human, else its name."""
        return "You" if seat == self.seat else self.names[seat]

    def _whom(self, seat: Seat) -> str:
        """A seat as an object: "you" for the human, else its name."""
        return "you" if seat == self.seat else self.names[seat]

    def _whose(self, seat: Seat, capital: bool = False) -> str:
        """A seat as a possessive: "your" / "Your" for the human, else "Name's"."""
        if seat == self.seat:
            return "Your" if capital else "your"
        return f"{self.names[seat]}'s"

    def _verb(self, seat: Seat, plain: str, third: str) -> str:
        """The verb form for the seat as subject: ``plain`` for "You", ``third`` for a name."""
        return plain if seat == self.seat else third

    def _hex_label(self, hex_id: int) -> str:
        """A hex by terrain letter and token, e.g. "O10", "J10" (a jungle); "D" for the desert,
        "$" for a gold mine."""
        board = self.state.board
        token = board.tokens[hex_id]
        letter = board.terrains[hex_id].letter
        return letter if token == 0 else f"{letter}{token}"

    def _hex_place(self, hex_id: int) -> str:
        """A hex as the robber's destination: "O10", "the desert", "the jungle (J10)", "the
        gold mine"."""
        terrain = self.state.board.terrains[hex_id]
        if terrain.resource is not None:
            return self._hex_label(hex_id)
        name = terrain.name.lower().replace("_", " ")
        return (
            f"the {name}"
            if not self.state.board.tokens[hex_id]
            else (f"the {name} ({self._hex_label(hex_id)})")
        )

    def _node_place(self, node: int) -> str:
        """An intersection by its hexes, e.g. "O10·W2" (coast where it has fewer than three)."""
        return "·".join(self._hex_label(h) for h in self.state.topology.node_hexes[node])


def _discoveries(n: int) -> str:
    """A count of Jungle discoveries in words: "1 discovery", "2 discoveries"."""
    return f"{n} discover{'y' if n == 1 else 'ies'}"


def _card_name(card: DevCard) -> str:
    if card is DevCard.KNIGHT:
        return "a Knight"
    if card is DevCard.VICTORY_POINT:
        return "a Victory Point card"
    return card.title


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
