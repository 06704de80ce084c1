"""Landnám's game state on the :class:`~hexlan.engine.game.Game` protocol: a game unlike Catan,
with a state of its own that shares no code with :class:`~hexlan.engine.state.GameState`
(../shared/ARCHITECTURE.md "Many games on one engine"; ../shared/landnam-rules.md).

The state holds the board as explored so far, the public stocks, the units on hexes, the houses,
the hands, the fate cards and the tokens, and which decision or chance is due (:attr:`phase`).
The rules live in the modules beside it, each owning its phases' legal actions and effects:
:mod:`.movement` (movement, exploration, chasing), :mod:`.economy` (harvest, ageing, trade,
building, the end of a turn), :mod:`.althing` (the Althing on a 7) and :mod:`.fate` (fate cards).

A state is the full state (``viewer`` None) or one seat's view: in a view, the other seats'
fate cards drawn face down are counted (``hidden``), not known. Resource cards are never hidden
in Landnám (every gain and payment is public), so views differ only in fate cards;
:meth:`observation` withholds a drawn card's face from the seats that may not see it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, Self

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.chance import RESHUFFLE, UNIFORM, ChanceNode
from hexlan.engine.core import EngineError, IllegalActionError, Seat
from hexlan.engine.options import GameOptions
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import althing, cards, economy, fate, movement, refusals
from hexlan.engine.variants.landnam.board import OUTER, LandnamBoard, landnam_board
from hexlan.engine.variants.landnam.parts import Althing, Chase, Exploration, Queued, Unit
from hexlan.engine.variants.landnam.phases import (
    AGE_PICK,
    ALTHING_OPEN,
    ANSWER,
    APPOINT,
    CASE,
    CHANCE,
    CHANCE_PHASES,
    DICE,
    DRAW,
    ENTRY,
    EXPLORE,
    EXPLORED,
    FATE_DECK,
    FLEE,
    HARVEST_CARD,
    INVITED,
    MOVE,
    OVER,
    ROLL,
    SEER,
    SETUP,
    START,
    SUING,
    TRADE,
)
from hexlan.engine.variants.landnam.rules import (
    CYCLE,
    UNEXPLORED,
    Fate,
    Land,
    LandnamRules,
    load_rules,
)

if TYPE_CHECKING:  # the engine draws no randomness itself: a search gives its seeded rng
    import random


class LandnamState:
    """A Landnám game (3 to 5 seats), or one seat's view of it, on the ``Game`` protocol.

    Build one with :func:`new_game`; every attribute is the engine's, read by its rules modules
    and, read only, by the bots and the UI.

    Attributes:
        rules: the rule set (:class:`~.rules.LandnamRules`); options: the game options.
        players: the number of seats; viewer: the seat whose view this is, or None.
        board: the compiled geometry.
        phase: the decision or chance due (the module's phase names).
        active: the active seat (-1 before the start player is known); turn: turns begun.
        terrain: each position's :class:`~.rules.Land` or :data:`~.rules.UNEXPLORED`.
        numbers: each position's number marker, 0 for none.
        harbours: each position's harbour resource, -1 for none.
        terrain_stock, marker_stock (by value, 0-12), harbour_stock, stock: the public stocks
            and the resource stock (not shown to people: the seed forbids counting it, §17).
        hands: each seat's resource cards; tokens: each seat's white, red, black tokens.
        fate: each seat's known fate cards by face; shown: those shown face up (§4.4);
            hidden: cards of another seat this view has not seen.
        unseen: by face, the fate cards no seat of this view has seen (the deck, and the
            other seats' hidden cards); deck_size: cards in the deck; discard, put_back: the
            faces discarded and put back at the set-up.
        units: the units by number (None once one has left the board).
        ships, settlers, houses: each seat's pieces in reserve.
        buildings: settlements by corner: ``(owner, town)``.
        won: the seats that won, once the game is over (:meth:`winners`).
    """

    def __init__(
        self,
        rules: LandnamRules,
        players: int,
        options: GameOptions | None = None,
        viewer: Seat | None = None,
    ) -> None:
        """A new game before the start player is chosen (:func:`new_game` checks the seats).

        Args:
            rules: the rule set; players: 3 to 5 seats; options: the game options.
            viewer: the seat whose view this is (None: the full state).
        """
        self.rules = rules
        self.options = options or GameOptions()
        self.players = players
        self.viewer = viewer
        radius = self.options.number("landnam_radius") or rules.radius
        self.board: LandnamBoard = landnam_board(radius)
        # §2.3: stocks scale by the open positions (all but the centre) over radius 2's 18
        scale = (self.board.size - 1) / 18
        size = self.board.size
        self.phase = START
        self.active: Seat = -1
        self.start: Seat = -1
        self.turn = 0
        self.terrain = [UNEXPLORED] * size
        self.terrain[self.board.centre] = Land.MOUNTAIN
        self.numbers = [0] * size
        self.harbours = [-1] * size
        self.terrain_stock = [round(n * scale) for n in rules.terrain_stock]
        self.marker_stock = [0] * 13
        for value in CYCLE:
            self.marker_stock[value] = round(rules.markers_per_value * scale)
        per_kind = self.options.number("landnam_harbours") or rules.harbours_per_kind
        self.harbour_stock = [round(per_kind * scale)] * 4
        self.stock = [rules.bank - players * n for n in rules.start_hand]
        self.hands = [list(rules.start_hand) for _ in range(players)]
        self.tokens = [[0, 0, 0] for _ in range(players)]
        faces = len(rules.fate_deck)
        self.fate = [[0] * faces for _ in range(players)]
        self.shown = [[0] * faces for _ in range(players)]
        self.hidden = [0] * players
        self.unseen = list(rules.fate_deck)
        self.deck_size = sum(rules.fate_deck)
        self.discard = [0] * faces
        self.put_back = [0] * faces
        self.units: list[Unit | None] = [Unit(s, True, OUTER) for s in range(players)]
        self.ships = [rules.ships - 1] * players
        self.settlers = [rules.settlers] * players
        self.houses = [rules.houses] * players
        self.buildings: dict[int, tuple[Seat, bool]] = {}
        self.moved = [False] * players  # a seat's first move of the game is made (§9.6)
        self.entered: list[set[Seat]] = [set() for _ in range(6)]  # seats per board side
        self.setup_seat: Seat = -1
        self.draws: list[tuple[Seat, bool]] = []
        self.shuffle_due = False  # the set-up's put-back cards wait to be shuffled in
        self.after_draws = MOVE
        self.roll = 0
        self.barns = False  # Full barns played this harvest
        self.steady = False  # Steady seasons played this harvest
        self.paid: list[int] = []  # the hexes that paid this harvest
        self.steps: list[int] = []  # units moved this movement phase, a step each
        self.extra_steps = 0  # Fair wind
        self.landing = False  # a Landing card in force for the next step
        self.drive_off = False  # a Drive off card in force for the next step
        self.exploration: Exploration | None = None
        self.chase: Chase | None = None
        self.althing: Althing | None = None
        self.queue: list[Queued] = []
        self.used: dict[int, int] = {}  # units built this turn, by settlement corner
        self.offers = 0
        self.offer: L.OfferTrade | None = None
        self.won: tuple[Seat, ...] = ()

    # --- the Game protocol ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (§15)."""
        return self.phase == OVER

    def current_player(self) -> Seat:
        """The seat whose decision is due, :data:`CHANCE` at a chance node, -1 once over."""
        if self.phase == OVER:
            return -1
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.acting_seats()[0]

    def acting_seats(self) -> tuple[Seat, ...]:
        """The seat that may act now (one at a time in Landnám); empty at a chance node."""
        if self.phase == OVER or self.phase in CHANCE_PHASES:
            return ()
        return (_ACTING[self.phase](self),)

    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """The actions ``seat`` (by default the current player) may take now. Trade offers are
        listed one card for one; bids and openings at every amount the seat can pay."""
        if self.phase == OVER or self.phase in CHANCE_PHASES:
            return []
        actor = self.acting_seats()[0]
        if seat is not None and seat != actor:
            return []
        return _LEGAL[self.phase](self, actor)

    def check(self, action: Action) -> None:
        """Refuse an action that is not legal now, changing nothing.

        Raises:
            IllegalActionError: the action is not legal; its reason and rule name the rule.
        """
        found = refusals.refusal(self, action)
        if found is not None:
            raise IllegalActionError(*found)

    def play(self, action: Action) -> None:
        """:meth:`check` ``action``, then apply it.

        Raises:
            IllegalActionError: as :meth:`check`; the state is unchanged.
        """
        self.check(action)
        self.apply(action)

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it."""
        _APPLY[type(action)](self, action)

    def chance_node(self) -> ChanceNode | None:
        """The chance due now as data: the start player, the dice, the exploration dice, a fate
        draw, or a reshuffle of the fate deck; None at a seat's decision."""
        if self.phase == START:
            return ChanceNode(
                UNIFORM,
                "start",
                tuple(A.StartPlayer(s) for s in range(self.players)),
                (self.players,),
            )
        if self.phase == DICE:
            return ChanceNode(UNIFORM, "dice", A.ALL_DICE, (6, 6))
        if self.phase == EXPLORE:
            return movement.explore_node(self)
        if self.phase in (SETUP, DRAW):
            return fate.draw_node(self)
        return None

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance outcomes due now with their probabilities (a fate draw's by the faces
        this state knows to be in the deck: exact in the full state)."""
        node = self.chance_node()
        if node is None:
            return []
        if node.kind == UNIFORM:
            share = 1 / len(node.outcomes)
            return [(o, share) for o in node.outcomes]
        if node.kind == RESHUFFLE:
            return [(L.Reshuffle(), 1.0)]
        seat = node.seats[0]
        known = sum(self.unseen)
        return [
            (L.DrawFate(seat, face, node.public), count / known)
            for face, count in enumerate(self.unseen)
            if count
        ]

    def observation(self, action: Action, seat: Seat) -> Action:
        """What ``seat`` observes of ``action``: a fate card drawn face down is seen by its
        drawer alone; everything else is public."""
        if isinstance(action, L.DrawFate) and not action.public and action.seat != seat:
            return L.DrawFate(action.seat, L.NO_CARD, False)
        return action

    # --- what a networked table needs (TableGame, SeatViews) -------------------------------

    def deciding_seat(self) -> Seat:
        """The seat that moves the game on over the network: the active seat (-1 before the
        start player); another seat's decision (a flight, an answer, the Althing's bids)
        takes effect when the active seat's next message lists it."""
        return self.active

    def actor(self, action: Action) -> Seat:
        """The seat that makes ``action``: :data:`CHANCE` for a chance outcome, the seat an
        action names, else the active seat."""
        if getattr(type(action), "chance", False) or isinstance(action, A.StartPlayer | A.Dice):
            return CHANCE
        if isinstance(action, A.VariantAction):
            return action.actor(self.active)
        return self.active

    def moot(self, action: Action, seat: Seat) -> bool:
        """Never: one seat acts at a time in Landnám, so nothing it answers is withdrawn."""
        return False

    def ended_turn(self, action: Action, turn: int) -> bool:
        """Whether ``action``, applied in turn ``turn``, handed the dice on (§5); the turn that
        ends the game is not one (the audit follows)."""
        return isinstance(action, A.EndTurn) and self.turn != turn and not self.is_over

    def hidden_card(self, action: Action) -> tuple[str, int, str, bool] | None:
        """The face-down fate card ``action`` plays (a fate card, or an Exploration card with
        a move, §16.1), as ``(deck, face, name, this_turn)``: None when the seat plays a card
        it showed (the set-up's, §4.4) or none. A card may be played in the turn it is drawn."""
        face = refusals.card_of(action)
        if face is None or not 0 <= face < len(self.rules.fate_deck):
            return None
        seat = self.actor(action)
        if not 0 <= seat < self.players or self.shown[seat][face]:
            return None
        return FATE_DECK, face, Fate(face).words, True

    def draw_outcome(self, face: int | None) -> Action:
        """The fate draw due, of the dealt card's ``face`` (None: a card this view may not
        see)."""
        node = self.chance_node()
        assert node is not None and node.seats
        return L.DrawFate(node.seats[0], L.NO_CARD if face is None else face, node.public)

    def deck_faces(self, deck: str) -> tuple[int, ...]:
        """The fate deck's cards by face before its first draw, or at a reshuffle (the
        set-up's put-back cards with the deck's rest, all seen; or the discards, gap G18).

        Raises:
            ValueError: another deck, or the deck holds cards some seat has not seen.
        """
        if deck != FATE_DECK:
            raise ValueError(f"Landnám has no {deck!r} deck")
        node = self.chance_node()
        counts = list(self.unseen) if self.deck_size else [0] * len(self.unseen)
        size = self.deck_size
        if node is not None and node.kind == RESHUFFLE:
            pile = self.put_back if self.shuffle_due else self.discard
            counts = [c + p for c, p in zip(counts, pile, strict=True)]
            size += sum(pile)
        if sum(counts) != size:
            raise ValueError("the fate deck holds cards some seat has not seen")
        return tuple(counts)

    def public_dict(self) -> dict[str, Any]:
        """The public state as plain data: equal in every seat's view of one game."""
        return {
            "phase": self.phase,
            "active": self.active,
            "turn": self.turn,
            "terrain": self.terrain,
            "numbers": self.numbers,
            "harbours": self.harbours,
            "stocks": [self.terrain_stock, self.marker_stock, self.harbour_stock, self.stock],
            "hands": self.hands,
            "tokens": self.tokens,
            "fate_held": [self.fate_count(s) for s in range(self.players)],
            "shown": self.shown,
            "deck": [self.deck_size, self.discard, self.put_back],
            "units": [
                None if u is None else [u.owner, u.ship, u.at, u.tokens, u.acted]
                for u in self.units
            ],
            "reserve": [self.ships, self.settlers, self.houses],
            "buildings": sorted([c, o, t] for c, (o, t) in self.buildings.items()),
            "queue": [[q.what, q.seat, q.place, q.unit, q.kind] for q in self.queue],
            "winners": list(self.won),
            "progress": self._progress(),
        }

    def _progress(self) -> list[Any]:
        """The turn's progress as plain data: everything beyond the board, the stocks and the
        hands that decides the legal actions (the steps taken and the cards in force, an
        exploration or a chase under way, the Althing, the builds and offers used, the draws
        due), so two states that play differently never hash alike."""
        ex, chase = self.exploration, self.chase
        return [
            [self.start, self.setup_seat, self.draws, self.after_draws, self.shuffle_due],
            [self.roll, self.barns, self.steady, self.paid],
            [self.steps, self.extra_steps, self.landing, self.drive_off, self.moved],
            [sorted(seats) for seats in self.entered],
            None if ex is None else [ex.unit, ex.to, ex.card, ex.roll, ex.green, ex.red],
            None if chase is None else [chase.chaser, chase.origin, chase.chased],
            None if self.althing is None else _althing_data(self.althing),
            [sorted(self.used.items()), self.offers],
            None if self.offer is None else A.action_to_list(self.offer),
        ]

    def public_hash(self) -> str:
        """SHA-256 (hex) of :meth:`public_dict` in canonical JSON."""
        return _digest(self.public_dict())

    def full_hash(self) -> str:
        """SHA-256 (hex) of the whole state: the public part, every seat's fate cards and the
        deck's faces."""
        return _digest([self.public_dict(), self.fate, self.hidden, self.unseen])

    def winners(self) -> tuple[Seat, ...]:
        """The seats that won (several for a shared win, gap G21); empty while the game goes on."""
        return self.won

    def view(self, seat: Seat) -> Self:
        """Seat ``seat``'s view of this new game, before any fate card is drawn: a copy that sees
        as the seat does; advance it by applying :meth:`observation` of every action.

        Raises:
            ValueError: this is a view already, or fate cards were drawn.
        """
        if self.viewer is not None or self.deck_size != sum(self.rules.fate_deck):
            raise ValueError("a view starts from the full state before any fate card is drawn")
        view = self.copy()
        view.viewer = seat
        return view

    def determinized(self, rng: random.Random) -> Self:
        """A full state this view may be: every fate card it has not seen dealt from its unseen
        pool, using ``rng`` (for search; the engine's own play draws nothing).

        Each other seat's ``hidden`` cards are drawn without replacement from :attr:`unseen`
        (every face as likely as its count there); what remains is the deck. The result has no
        viewer and hides nothing, and its public part is the view's (:meth:`public_hash`). Of
        the full state, a copy.
        """
        full = self.copy()
        if self.viewer is None:
            return full
        pool = [face for face, count in enumerate(self.unseen) for _ in range(count)]
        rng.shuffle(pool)
        for seat, count in enumerate(self.hidden):
            for face in pool[:count]:
                full.fate[seat][face] += 1
                full.unseen[face] -= 1
            del pool[:count]
            full.hidden[seat] = 0
        full.viewer = None
        return full

    def copy(self) -> Self:
        """An independent copy."""
        other = object.__new__(type(self))
        for name, value in vars(self).items():
            setattr(other, name, _copied(name, value))
        return other

    # --- what the rules modules and the bots read -----------------------------------------

    def enter(self, phase: str) -> None:
        """Enter ``phase``, doing what it does by itself (the rules modules move the game on
        through this, so none imports another's successor): a new turn counts, the Althing
        opens (:func:`~.althing.open_window`), and :data:`~.phases.EXPLORED` settles an
        exploration once its fate card is drawn (:func:`~.movement.settle_exploration`)."""
        if phase == EXPLORED:
            movement.settle_exploration(self)
            return
        self.phase = phase
        if phase == ROLL:
            self.turn += 1
        elif phase == ALTHING_OPEN:
            althing.open_window(self)

    def fate_count(self, seat: Seat) -> int:
        """The fate cards ``seat`` holds (public, §16.1)."""
        return sum(self.fate[seat]) + self.hidden[seat]

    def may_hold(self, seat: Seat, face: int) -> bool:
        """Whether ``seat`` may hold a fate card of ``face`` as far as this state knows."""
        if self.fate[seat][face]:
            return True
        return self.hidden[seat] > 0 and self.unseen[face] > 0

    def holds(self, seat: Seat, mark: str) -> list[int]:
        """The faces of ``mark`` this state knows ``seat`` to hold."""
        marks = self.rules.fate_marks
        return [f for f, n in enumerate(self.fate[seat]) if n and marks[f] == mark]

    def unit(self, number: int) -> Unit:
        """The unit numbered ``number``.

        Raises:
            IllegalActionError: no unit of that number is on the board.
        """
        found = self.units[number] if 0 <= number < len(self.units) else None
        if found is None:
            raise IllegalActionError(f"there is no unit {number} on the board", "landnam §2.1")
        return found

    def occupant(self, position: int) -> int:
        """The unit on ``position`` inside the rim, or -1 (the outer sea hex is always vacant)."""
        if position == OUTER:
            return -1
        for number, unit in enumerate(self.units):
            if unit is not None and unit.at == position:
                return number
        return -1

    def settler_like(self, unit: Unit) -> bool:
        """A settler, or a ship ashore (§9.4: a settler for every purpose but moving)."""
        return not unit.ship or (unit.at != OUTER and self.terrain[unit.at] != Land.SEA)

    def victory_points(self, seat: Seat) -> int:
        """Farms 1, towns 2, and 1 a white, red or black token (§15)."""
        houses = sum(2 if town else 1 for owner, town in self.buildings.values() if owner == seat)
        return houses + sum(self.tokens[seat])

    def house_points(self, seat: Seat) -> int:
        """The points from ``seat``'s farms and towns (the fourth tie-break, §15)."""
        return self.victory_points(seat) - sum(self.tokens[seat])

    def settlements(self, seat: Seat) -> list[int]:
        """The corners of ``seat``'s farms and towns."""
        return [c for c, (owner, _) in self.buildings.items() if owner == seat]

    def next_seat(self, seat: Seat) -> Seat:
        """The seat after ``seat``, clockwise."""
        return (seat + 1) % self.players


def _althing_data(althing: Althing) -> list[Any]:
    """The Althing in progress as plain data (sets sorted)."""
    case = althing.case
    return [
        althing.window,
        althing.order,
        sorted([seat, sorted(pairs)] for seat, pairs in althing.possible.items()),
        sorted(althing.tried),
        None
        if case is None
        else [
            [case.unit, case.kind, case.corner, case.sides, case.totals],
            [case.turn, case.member, case.guest, sorted(case.declined)],
        ],
    ]


def _digest(data: Any) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


_SHARED: Final = frozenset({"rules", "options", "board", "players", "viewer"})


def _copied(name: str, value: Any) -> Any:
    """A copy of one attribute of a state (nested lists, sets and units copied)."""
    if (
        name in _SHARED
        or value is None
        or isinstance(value, int | str | bool | tuple | L.OfferTrade)
    ):
        return value
    if name == "units":
        return [
            None if u is None else Unit(u.owner, u.ship, u.at, list(u.tokens), u.acted)
            for u in value
        ]
    if isinstance(value, Althing | Exploration | Chase):
        return value.copy() if isinstance(value, Althing) else _replace(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return [
            list(v) if isinstance(v, list) else set(v) if isinstance(v, set) else v for v in value
        ]
    raise TypeError(f"cannot copy the state's {name}")


def _replace(value: Exploration | Chase) -> Exploration | Chase:
    return replace(value)


def new_game(name: str, players: int, options: GameOptions | None = None) -> LandnamState:
    """A new Landnám game of ``players`` seats (the state factory of its
    :class:`~hexlan.engine.gamespec.GameSpec`), waiting for the start player (§4.6).

    Raises:
        EngineError: an unknown rule set, seats outside its range (3 to 5), or a board radius
            option other than 2 or 3.
    """
    rules = load_rules(name)
    if not rules.min_players <= players <= rules.max_players:
        raise EngineError(f"{name} takes {rules.seat_range()} players, not {players}")
    radius = (options or GameOptions()).number("landnam_radius")
    if radius is not None and radius not in (2, 3):
        raise EngineError(f"landnam_radius is 2 or 3, not {radius} (landnam gap G9)")
    return LandnamState(rules, players, options)


def _acting_table() -> dict[str, Callable[[LandnamState], Seat]]:
    return {
        ROLL: lambda s: s.active,
        HARVEST_CARD: lambda s: s.active,
        AGE_PICK: lambda s: s.active,
        APPOINT: lambda s: s.active,
        MOVE: lambda s: s.active,
        SEER: lambda s: s.active,
        ENTRY: lambda s: s.active,
        TRADE: lambda s: s.active,
        ALTHING_OPEN: althing.window_seat,
        SUING: althing.suing_seat,
        CASE: althing.case_seat,
        INVITED: althing.case_seat,
        FLEE: movement.fleeing_seat,
        ANSWER: economy.answering_seat,
    }


_ACTING: Final = _acting_table()


def _legal_table() -> dict[str, Callable[[LandnamState, Seat], list[Action]]]:
    return {
        ROLL: lambda s, seat: [A.ROLL],
        HARVEST_CARD: economy.harvest_choices,
        AGE_PICK: economy.age_choices,
        ALTHING_OPEN: althing.window_choices,
        APPOINT: althing.appoint_choices,
        SUING: althing.suing_choices,
        CASE: althing.case_choices,
        INVITED: althing.guest_choices,
        MOVE: movement.move_choices,
        SEER: movement.seer_choices,
        ENTRY: movement.entry_choices,
        FLEE: movement.flee_choices,
        TRADE: economy.trade_choices,
        ANSWER: economy.answer_choices,
    }


_LEGAL: Final = _legal_table()


def _apply_table() -> dict[type, Callable[[LandnamState, Any], None]]:
    return {
        A.StartPlayer: fate.start_player,
        L.DrawFate: fate.drawn,
        L.Reshuffle: fate.reshuffled,
        A.RollDice: economy.rolled,
        A.Dice: economy.dice,
        L.PlayFate: cards.played,
        L.Harvest: economy.harvest,
        L.AgeHex: economy.age_picked,
        L.Move: movement.moved,
        L.ExploreRoll: movement.explore_rolled,
        L.ChooseSeer: movement.seer_chosen,
        L.Stay: movement.stayed,
        L.Flee: movement.fled,
        L.EndMovement: movement.end_movement,
        L.BankTrade: economy.bank_trade,
        L.HarbourTrade: economy.harbour_trade,
        L.OfferTrade: economy.offered,
        L.AnswerTrade: economy.answered,
        L.BuildFarm: economy.build,
        L.BuildTown: economy.build,
        L.BuildUnit: economy.build,
        L.BuildHarbour: economy.build,
        L.AgeNumber: economy.build,
        A.EndTurn: economy.end_turn,
        L.Pass: althing.passed,
        L.Appoint: althing.appointed,
        L.Sue: althing.sued,
        L.Bid: althing.bid,
        L.Invite: althing.invited,
        L.Join: althing.joined,
    }


_APPLY: Final = _apply_table()

if TYPE_CHECKING:  # mypy --strict checks that the class satisfies the one game interface
    from hexlan.engine.game import SeatViews

    _GAME: type[SeatViews] = LandnamState
