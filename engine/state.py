"""The full game state of the base game and its rules: ``state + action -> state``.

:class:`GameState` is deterministic and owns no randomness: dice, drawn cards, stolen cards and the
start player are chance actions supplied from outside (:meth:`GameState.chance_outcomes` lists them
with their probabilities). ``apply`` is unchecked and fast; ``play`` checks legality first and
raises :class:`IllegalActionError` with the reason and the rule's source.

Every read or write of a hidden quantity (a hand's composition, a development card) goes through
the small ``_hand_*`` / ``_dev_*`` hooks, so :class:`hexlan.engine.info.InformationState` runs the
very same rules on one seat's knowledge by overriding only those hooks
(../shared/ARCHITECTURE.md principle 2).

Rule sources are cited as "seed 002 «section»" (the official rules, with the corrections recorded
in docs/rules/base.md) or "official" where the seed is silent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.actions import Action
from hexlan.engine.board import Board, Harbour
from hexlan.engine.chance import (
    COUNT,
    DECK_DRAW,
    MONOPOLY_COUNTS,
    REVEAL,
    STEAL,
    UNIFORM,
    VICTORY_REVEAL,
    ChanceNode,
    Count,
)
from hexlan.engine.core import (
    NO_LIMIT,
    NO_SEAT,
    BuildPhase,
    DevCard,
    DevelopmentCard,
    EngineError,
    GamePhase,
    Hand,
    HexId,
    IllegalActionError,
    Kinds,
    NodeId,
    PathId,
    Phase,
    Resource,
    Seat,
    as_hand,
    hand_covers,
    one_kind,
)
from hexlan.engine.longest_road import longest_road
from hexlan.engine.options import GameOptions
from hexlan.engine.registry import CHANCE_ACTIONS, CHANCE_PHASES, VARIANT_HANDLERS
from hexlan.engine.ruleset import DEVELOPMENT_DECK, RuleSet, load_ruleset
from hexlan.engine.variants import Variant, VariantState, make_variant

CHANCE: Final = -2
"""What :meth:`GameState.current_player` returns when a chance outcome is due."""

# perf: cached action objects, so legal-move generation allocates nothing per call.


@cache
def _build_actions(
    paths: int, nodes: int
) -> tuple[tuple[A.BuildRoad, ...], tuple[A.BuildSettlement, ...], tuple[A.BuildCity, ...]]:
    """perf: the build actions of a map's every path and intersection, made once per map size."""
    return (
        tuple(A.BuildRoad(p) for p in range(paths)),
        tuple(A.BuildSettlement(n) for n in range(nodes)),
        tuple(A.BuildCity(n) for n in range(nodes)),
    )


_DICE_OUTCOMES: Final = tuple((d, 1 / 36) for d in A.ALL_DICE)
_DICE_NODE: Final = ChanceNode(UNIFORM, "dice", A.ALL_DICE, (6, 6))
_HIDDEN_STEAL: Final = A.StealCard(None)
_HIDDEN_DRAW: Final = A.DrawCard(None)
_SPECIAL_BUILD_ACTIONS: Final = (
    A.BuildRoad,
    A.BuildSettlement,
    A.BuildCity,
    A.BuyDevelopmentCard,
    A.EndTurn,
)


@cache
@cache
def _start_node(players: int) -> ChanceNode:
    """The start player's chance node for ``players`` seats, made once per table size."""
    return ChanceNode(UNIFORM, "start", tuple(A.StartPlayer(s) for s in range(players)), (players,))


def _robber_move(hex_id: HexId, victim: Seat) -> A.MoveRobber:
    return A.MoveRobber(hex_id, victim)


@lru_cache(maxsize=4096)
def _maritime(give: Hand, get: int, kinds: Kinds) -> A.MaritimeTrade:
    """perf: the trade of ``give`` for one card of kind number ``get`` of ``kinds``."""
    return A.MaritimeTrade(give, kinds[get])


@cache
def _one_kind_trades(kinds: Kinds) -> tuple[dict[int, tuple[A.MaritimeTrade, ...]], ...]:
    """perf: ``[r][ratio]``: the trades of ``ratio`` cards of kind ``r`` for one card of each
    other kind, in a game of card kinds ``kinds``; made once per game's kinds."""
    count = len(kinds)
    return tuple(
        {
            ratio: tuple(
                _maritime(one_kind(r, ratio, count), g, kinds) for g in range(count) if g != r
            )
            for ratio in (2, 3, 4)
        }
        for r in range(count)
    )


@cache
def _steals(kinds: Kinds) -> tuple[A.StealCard, ...]:
    """perf: the steal outcome of each card kind of a game (``rules.cards``)."""
    return tuple(A.StealCard(k) for k in kinds)


@cache
def _monopolies(kinds: Kinds) -> tuple[A.PlayMonopoly, ...]:
    """perf: the Monopoly plays naming each of ``kinds`` (the rule set's ``plenty_kinds``)."""
    return tuple(A.PlayMonopoly(r) for r in kinds)


@cache
def _draws(faces: tuple[DevelopmentCard, ...]) -> tuple[A.DrawCard, ...]:
    """perf: the draw outcome of each face of a rule set's deck (``rules.dev_faces``)."""
    return tuple(A.DrawCard(c) for c in faces)


@lru_cache(maxsize=4096)  # bounded: hands vary without end over long simulations
def _discard_choices(hand: Hand, count: int) -> tuple[Hand, ...]:
    """Every hand ``c`` as long as ``hand`` with ``0 <= c[r] <= hand[r]`` and
    ``sum(c) == count``."""
    results: list[Hand] = []
    last = len(hand) - 1

    def build(prefix: tuple[int, ...], left: int) -> None:
        r = len(prefix)
        if r == last:
            if left <= hand[last]:
                results.append((*prefix, left))
            return
        rest = sum(hand[r + 1 :])
        for n in range(max(0, left - rest), min(hand[r], left) + 1):
            build((*prefix, n), left - n)

    build((), count)
    return tuple(results)


@lru_cache(maxsize=1024)
def _year_of_plenty_choices(bank: Hand, kinds: Kinds) -> tuple[A.PlayYearOfPlenty, ...]:
    """The Year of Plenty plays the bank allows, naming two cards of ``kinds`` (the rule set's
    ``plenty_kinds``), one where the bank holds a single card of them."""
    available = [r for r in kinds if bank[r] > 0]
    if sum(bank[r] for r in kinds) <= 1:
        return (A.PlayYearOfPlenty(tuple(available)),)
    return tuple(
        A.PlayYearOfPlenty((a, b))
        for a, b in combinations_with_replacement(available, 2)
        if a != b or bank[a] >= 2
    )


def game_harbours(harbours: dict[NodeId, Harbour], kinds: Kinds) -> dict[NodeId, Harbour]:
    """``harbours`` (a board's, by intersection) as the game with card kinds ``kinds`` trades at
    them: a 2:1 harbour names its kind by the map's Catan name, so it trades that kind of the
    game, wherever the game holds it, and is no harbour in a game without that kind (a map's
    brick harbour where Landnám is played); 3:1 harbours stay.
    """
    if all(k.is_catalogue for k in kinds):  # a Catan game: the map's own kinds
        return harbours
    names = {k.name: k for k in kinds}
    return {
        node: harbour
        if harbour.resource is None
        else Harbour(names[harbour.resource.name], harbour.path)
        for node, harbour in harbours.items()
        if harbour.resource is None or harbour.resource.name in names
    }


class GameState:
    """One game of the base game, every hidden card included.

    Args:
        board: the board (:func:`hexlan.engine.board.beginner_board` or ``random_board``).
        players: number of seats, within the rule set's range (2 .. 4 in the base game).
        options: the game options (official rules by default).
        rules: counts and costs (the game); seeds/base.toml by default.

    Raises:
        EngineError: a player count outside the rule set's range, or a board on another map.

    The game begins in :attr:`Phase.START_PLAYER`, a chance node.

    The attributes below are public: bots, the UI and the network read them; only actions change
    them. Per-seat lists are indexed by seat; hands, the bank and ratios have one count per card
    kind of the rule set (``kinds``: 5, the resources, in the base game) in :class:`Resource`
    order; development card lists have one count per face of the rule set (``rules.dev_faces``,
    :class:`DevCard` order in the base game).

    Attributes:
        target, longest_road_min, road_limit, settlement_limit, city_limit: the numbers in force
            (rule set plus options).
        phase, active, turn: where the game stands, whose turn (-1 before the start player is
            drawn) and the turn counter (0 in set-up, 1 from the first roll).
        start_seat, setup_order, setup_step, last_settlement: the set-up's snake order and
            progress, and the settlement a set-up road must touch.
        kinds: the number of card kinds (``rules.kinds``), the length of every hand.
        bank: cards in the bank; hands, hand_size: each seat's cards and their count.
        deck: development cards left; dev_cards, new_dev_cards: each seat's unplayed cards and those
            bought this turn; dev_count, new_dev_count: their counts (public).
        dev_played_this_turn, knights, revealed_vp_cards: whether the active seat has played its
            one card this turn; knights played; victory point cards shown at victory.
        node_owner, node_level, path_owner: per intersection the owner (-1 none) and 1 settlement /
            2 city; per path the road's owner; blocked: intersections the distance rule closes.
        roads, settlements, cities: each seat's pieces (path and intersection ids).
        ratios, generic_harbour: each seat's bank ratio per resource; whether it has a 3:1 harbour.
        road_length, longest_road_holder, largest_army_holder, public_vp, winner: the scores;
            -1 where nobody holds an award or has won.
        robber, dice, discards, victim, robber_resume, discard_after_robber: the robber's hex,
            this turn's roll (None before it), the cards each seat must still discard, the seat
            being robbed, and where play resumes after the robber.
        free_roads, road_building_resume: Road Building's roads left and where play resumes.
        trade, trade_answers, trade_pending, monopoly: the open offer, the answers in, the seats
            still to answer; the resource of a Monopoly being revealed.
        monopoly_cap: the most each seat hands over to that Monopoly (None: all it holds; a
            Cities & Knights Resource or Trade Monopoly takes 2 or 1, :meth:`monopoly_amount`).
        special_from: in :attr:`BuildPhase.SPECIAL_BUILD` (and a draw within it), the seat whose
            turn it follows; -1 otherwise. ``active`` is then the builder, and ``turn`` still counts
            the turn just ended (docs/rules/five-six.md).
        hex_seats: per hex, a bitmask of the seats with a building on it.
        variant: the rule set's own rules module (:mod:`hexlan.engine.variants`), None in games
            without one (the base game); it is called at named points.
        discoveries: Jungle: each seat's discoveries (public counters, not cards; seed 002
            «Джунгли»); zero in other games.
        gold_points, variant_vp: Big River: each seat's gold points and the victory points they
            make (already in ``public_vp``; seed 002 «Большая река»); zero in other games.
            Seafarers: ``variant_vp`` holds each seat's island bonus points.
        roll_pending: whether a variant holds up the roll's production or 7 (Pirate Islands'
            fleet attack, whose loot or pick comes first; Cities & Knights' event die).
        variant_due: set while an action is applied by a variant that follows it
            (:meth:`Variant.action_applied`, Seafarers' fog); cleared once it is called.
        variant_state: a game's own progress that no field above holds, as one object its
            rules module makes in ``prepare_state`` (Seafarers' ships, pirate, gold and fog,
            :class:`~hexlan.engine.variants.seafarers.SeaState`, with Pirate Islands' fleet;
            Cities & Knights: improvements, knights, walls, the barbarians;
            :class:`~hexlan.engine.variants.VariantState`): copied by
            :meth:`copy`, and in :meth:`public_dict` (so in every hash) through the rules
            module's ``public_dict``; None in games without.
        record_events, last_events: whether :meth:`apply` records what the rules did, and the
            events (:mod:`hexlan.engine.events`) of the last action applied, in order; off by
            default (bots and simulations pay one test per rule), set by whoever reads them.
    """

    players: int
    board: Board
    options: GameOptions
    rules: RuleSet
    phase: GamePhase
    active: Seat
    turn: int

    _HANDLERS: ClassVar[dict[type, Callable[[GameState, Any], None]]] = {}

    def __init__(
        self,
        board: Board,
        players: int = 4,
        options: GameOptions | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        self.options = options or GameOptions()
        self.rules = rules or load_ruleset()
        opts, rules = self.options, self.rules
        self.variant: Variant | None = make_variant(rules, opts, board.topology)
        rules.seat_count(players)
        if board.topology.name != rules.board:
            raise EngineError(
                f"the {rules.name} game is played on the {rules.board} map,"
                f" not {board.topology.name}"
            )
        if self.variant is not None:
            board = self.variant.prepare_board(board)
        self.board = board
        self.players = players
        self.target = rules.victory_points if opts.victory_points is None else opts.victory_points
        self.longest_road_min = (
            rules.longest_road_min if opts.longest_road_min is None else opts.longest_road_min
        )
        limits = opts.piece_limits
        self.road_limit = rules.road_limit if limits else NO_LIMIT
        self.settlement_limit = rules.settlement_limit if limits else NO_LIMIT
        self.city_limit = rules.city_limit if limits else NO_LIMIT

        topo = board.topology
        self.topology = topo
        self.phase = Phase.START_PLAYER
        self.active = NO_SEAT
        self.start_seat = NO_SEAT
        self.turn = 0
        self.setup_order: list[Seat] = []
        self.setup_step = 0
        self.last_settlement = -1

        self.kinds = kinds = rules.kinds
        self._plenty_kinds = rules.plenty_kinds
        self._monopolies = _monopolies(rules.plenty_kinds)
        self.bank = list(rules.bank)
        self.hands = [[0] * kinds for _ in range(players)]
        self.hand_size = [0] * players
        self.deck = list(rules.development_deck)
        faces = len(rules.development_deck)  # the base game's five, or more a game registers
        self.dev_cards = [[0] * faces for _ in range(players)]
        self.new_dev_cards = [[0] * faces for _ in range(players)]
        self._draws = _draws(rules.dev_faces)
        self.dev_count = [0] * players
        self.new_dev_count = [0] * players
        self.dev_played_this_turn = False
        self.knights = [0] * players
        self.revealed_vp_cards = [0] * players

        self.node_owner = [NO_SEAT] * topo.node_count
        self.node_level = [0] * topo.node_count
        self.blocked = [False] * topo.node_count
        for n in range(topo.land_node_count, topo.node_count):
            self.blocked[n] = True  # a corner on the sea alone takes no settlement
        self.path_owner = [NO_SEAT] * topo.path_count
        self.roads: list[list[PathId]] = [[] for _ in range(players)]
        self.settlements: list[list[NodeId]] = [[] for _ in range(players)]
        self.cities: list[list[NodeId]] = [[] for _ in range(players)]
        self.ratios = [[4] * kinds for _ in range(players)]
        self.generic_harbour = [False] * players
        self.road_length = [0] * players
        self.longest_road_holder = NO_SEAT
        self.largest_army_holder = NO_SEAT
        self.public_vp = [0] * players
        self.discoveries = [0] * players
        self.gold_points = [0] * players
        self.variant_vp = [0] * players
        self.roll_pending = False
        self.variant_due = False
        self.variant_state: VariantState | None = None

        self.robber = board.desert
        self.dice: A.Dice | None = None
        self.discards = [0] * players
        self.robber_resume: GamePhase = Phase.MAIN
        self.discard_after_robber = False
        self.victim = NO_SEAT
        self.free_roads = 0
        self.road_building_resume: GamePhase = Phase.MAIN
        self.trade: A.OfferTrade | None = None
        self.trade_answers: dict[Seat, A.AnswerTrade | A.CounterOffer] = {}
        self.trade_pending: list[Seat] = []
        self.monopoly: Resource | None = None
        self.monopoly_cap: int | None = None
        self.winner = NO_SEAT
        self.special_building = rules.special_building
        self.special_from = NO_SEAT

        # the harbour at each coastal intersection (the rules kit's maritime trade reads it)
        self.harbour_nodes = game_harbours(board.harbour_nodes(), rules.cards)
        # perf: for each dice total, (hex, node, seat, resource) of every building that can
        # produce on it, appended as settlements are built (a city doubles via node_level).
        self.income: list[list[tuple[HexId, NodeId, Seat, int]]] = [[] for _ in range(13)]
        # perf: bit s of hex_seats[h] is set when seat s has a building on hex h.
        self.hex_seats = [0] * topo.hex_count
        self._roads, self._settlements, self._cities = _build_actions(
            topo.path_count, topo.node_count
        )
        self._road_cache: list[list[PathId] | None] = [None] * players
        # Paths no road may take (Pirate Islands: the sides of the ship lines); empty elsewhere.
        self.closed_paths: frozenset[PathId] = (
            frozenset() if self.variant is None else self.variant.closed_paths(players)
        )
        self._static_public = {"board": board.to_dict(), "options": self.options.to_dict()}
        self.record_events = False
        self.last_events: list[E.Event] = []
        if self.variant is not None:
            self.variant.prepare_state(self)

    # ------------------------------------------------------------------ copying

    _FLAT_LISTS: ClassVar[tuple[str, ...]] = (
        "setup_order", "bank", "hand_size", "deck", "dev_count", "new_dev_count", "knights",
        "revealed_vp_cards", "node_owner", "node_level", "blocked", "path_owner",
        "generic_harbour", "road_length", "public_vp", "discoveries", "gold_points",
        "variant_vp", "discards", "hex_seats", "trade_pending", "_road_cache",
    )  # fmt: skip
    """perf: the per-seat, per-intersection and per-path lists of scalars :meth:`copy` copies
    (``_road_cache`` holds lists that are replaced, never changed in place)."""
    _NESTED_LISTS: ClassVar[tuple[str, ...]] = (
        "hands", "dev_cards", "new_dev_cards", "roads", "settlements", "cities", "ratios",
        "income",
    )  # fmt: skip
    """perf: the lists of lists :meth:`copy` copies two levels deep."""

    def copy(self) -> Self:
        """An independent copy of this state: applying actions to one leaves the other as it
        was (what a search does from a position, ../shared/STYLE.md "Undo by snapshot").

        The board, topology, rule set, options, variant module and action tables are immutable
        and shared; every list, dict and mutable record is copied. About 20 us on the base
        board (scripts/bench_mcts.py ``copy``).

        >>> from hexlan.engine.board import beginner_board
        >>> state = GameState(beginner_board(), 3)
        >>> twin = state.copy()
        >>> twin.apply(A.StartPlayer(1))
        >>> state.phase.title, twin.phase.title
        ('start player', 'setup settlement')
        """
        twin: Self = self._copy_as(type(self), self.__dict__)
        return twin

    def _copy_as(self, cls: type[Any], attributes: dict[str, Any]) -> Any:
        """A new ``cls`` object holding ``attributes`` (this state's), the mutable ones
        copied."""
        new = object.__new__(cls)
        fields = attributes.copy()
        for name in self._FLAT_LISTS:
            fields[name] = fields[name][:]
        for name in self._NESTED_LISTS:
            fields[name] = [inner[:] for inner in fields[name]]
        fields["trade_answers"] = dict(self.trade_answers)
        fields["last_events"] = []
        if self.variant_state is not None:
            fields["variant_state"] = self.variant_state.copy()
        new.__dict__ = fields
        return new

    # ------------------------------------------------------------------ hidden-card hooks
    # The rules kit's hand moves: the full state knows every card; InformationState overrides
    # these for the seats whose hands it does not see (engine/info.py).

    def hand_gain(self, seat: Seat, cards: Hand) -> None:
        """The seat takes ``cards`` (one count per card kind) from outside the bank's count."""
        hand = self.hands[seat]
        for r in range(self.kinds):
            hand[r] += cards[r]
        self.hand_size[seat] += sum(cards)

    def hand_pay(self, seat: Seat, cards: Hand) -> None:
        """The seat gives up ``cards`` (it holds them: the caller checked), to no one."""
        hand = self.hands[seat]
        for r in range(self.kinds):
            hand[r] -= cards[r]
        self.hand_size[seat] -= sum(cards)

    def hand_covers(self, seat: Seat, cards: Hand) -> bool:
        """Whether the seat holds at least ``cards`` (in a view: surely, whatever it holds)."""
        return hand_covers(self.hands[seat], cards)

    def _hand_count(self, seat: Seat, resource: Resource) -> int | None:
        """How many of a resource the seat holds; None where unknown."""
        return self.hands[seat][resource]

    def possible_hands(self, seat: Seat) -> frozenset[Hand]:
        """Every resource hand ``seat`` may hold, as far as this state knows: its one true hand
        (an :class:`~hexlan.engine.info.InformationState` knows less of the others')."""
        return frozenset({as_hand(self.hands[seat])})

    def hand_could(self, seat: Seat, test: Callable[[Hand], bool]) -> bool:
        """Whether ``test`` may hold of the seat's hand (of one hand it may hold, in a view)."""
        return test(as_hand(self.hands[seat]))

    def hand_narrow(self, seat: Seat, test: Callable[[Hand], bool], why: str) -> None:
        """The seat has shown that ``test`` holds of its hand (``why``: what it did, for the
        error): a view keeps only the hands it may hold that pass; the full state, which
        checked the action, keeps its hand."""

    def monopoly_amount(self, held: int) -> int:
        """What a seat holding ``held`` of the monopolised kind hands over: all of it, or at
        most :attr:`monopoly_cap`.

        >>> from hexlan.engine.board import beginner_board
        >>> state = GameState(beginner_board(), 3)
        >>> state.monopoly_amount(5), state.monopoly_cap
        (5, None)
        """
        cap = self.monopoly_cap
        return held if cap is None else min(held, cap)

    def hand_steal(self, thief: Seat, victim: Seat, resource: Resource | None) -> None:
        """One card of ``resource`` goes from ``victim`` to ``thief`` (None: a card this state
        does not see, in a view of neither seat)."""
        assert resource is not None
        self.hands[victim][resource] -= 1
        self.hands[thief][resource] += 1
        self.hand_size[victim] -= 1
        self.hand_size[thief] += 1

    def _hand_take_all(self, thief: Seat, victim: Seat, resource: Resource, amount: int) -> None:
        self.hands[victim][resource] -= amount
        self.hands[thief][resource] += amount
        self.hand_size[victim] -= amount
        self.hand_size[thief] += amount

    def _dev_draw(self, seat: Seat, card: DevelopmentCard | None) -> None:
        assert card is not None
        self.deck[card] -= 1
        self.dev_cards[seat][card] += 1
        self.new_dev_cards[seat][card] += 1

    def _dev_can_play(self, seat: Seat, card: DevelopmentCard) -> bool:
        return self.dev_cards[seat][card] > self.new_dev_cards[seat][card]

    def _dev_play(self, seat: Seat, card: DevelopmentCard) -> None:
        self.dev_cards[seat][card] -= 1

    def _dev_end_turn(self, seat: Seat) -> None:
        self.new_dev_cards[seat] = [0] * len(self.deck)

    def deck_size(self) -> int:
        """Development cards left in the deck (public, whoever holds the unseen cards)."""
        return sum(self.deck)

    def hidden_victory_points(self, seat: Seat) -> int:
        """Victory point cards the seat holds, that count now and are not yet revealed (0 where
        unknown); revealed ones are in ``public_vp``.

        A card counts at once (seed 002 «Конец игры»), or from the turn after its purchase with
        ``vp_cards_next_turn`` (seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ ИГРОКАМ»).
        """
        cards = self.dev_cards[seat][DevCard.VICTORY_POINT] - self.revealed_vp_cards[seat]
        if self.options.vp_cards_next_turn:
            cards -= self.new_dev_cards[seat][DevCard.VICTORY_POINT]
        return cards

    # ------------------------------------------------------------------ queries

    def current_player(self) -> Seat:
        """The seat whose decision is due, or :data:`CHANCE` for a chance outcome.

        In a discard or while a trade offer awaits answers, several seats may act in any order;
        this returns the lowest such seat (see :meth:`acting_seats`).
        """
        phase = self.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase is Phase.DISCARD:
            return next(s for s in range(self.players) if self.discards[s])
        if phase is Phase.TRADE_RESPONSES and self.trade_pending:
            return self.trade_pending[0]
        if (
            type(phase) is not Phase
            and phase is not BuildPhase.SPECIAL_BUILD
            and self.variant is not None
        ):  # a phase a game adds
            return self.variant.phase_seat(self)
        if phase is Phase.GAME_OVER:
            return NO_SEAT
        return self.active

    def acting_seats(self) -> tuple[Seat, ...]:
        """Every seat that may act now (several in a discard or while answering a trade)."""
        if self.phase is Phase.DISCARD:
            return tuple(s for s in range(self.players) if self.discards[s])
        if self.phase is Phase.TRADE_RESPONSES and self.trade_pending:
            return tuple(self.trade_pending)
        seat = self.current_player()
        return () if seat < 0 else (seat,)

    def deciding_seat(self) -> Seat:
        """The seat that moves the game on: the active seat, and in a phase that passes the
        decision round the table within one turn (the 5-6 player special building phase, seed
        002 «Фаза строительства» for 5-6) the seat whose decision is due, the builder. -1
        before the start player is drawn."""
        if self.phase is BuildPhase.SPECIAL_BUILD:
            seat = self.current_player()
            if seat >= 0:
                return seat
        return self.active

    def moot(self, action: Action, seat: Seat) -> bool:
        """Whether ``seat``'s ``action`` answers what the game no longer waits for, and is
        dropped rather than refused: an answer to a trade offer withdrawn (or closed) before
        the answer was ordered (a network game orders messages, and a withdrawal may come
        first; seed 002 «Торговля»: the offer is the active seat's to withdraw)."""
        return isinstance(action, A.AnswerTrade | A.CounterOffer) and (
            self.phase is not Phase.TRADE_RESPONSES or seat not in self.trade_pending
        )

    def ended_turn(self, action: Action, turn: int) -> bool:
        """Whether ``action``, just applied in turn ``turn``, ended that turn: the ``EndTurn``
        that starts the next turn, after the special building phase where the game has one,
        or decides the game at the turn's end (``victory_at_turn_end``); a special builder's
        ``EndTurn`` only passes the building on (seed 002 «Фаза строительства» for 5-6)."""
        return isinstance(action, A.EndTurn) and (self.turn != turn or self.phase is Phase.VICTORY)

    def hidden_card(self, action: Action) -> tuple[str, int, str, bool] | None:
        """The hidden card ``action`` plays or spends, as ``(deck, face, name, this_turn)``: the
        deck's name among the rule set's decks, the card's face in it, its name in words, and
        whether a card drawn in this same turn may be the one (a development card may not, seed
        002 «Карточки развития»; a Cities & Knights progress card may,
        :meth:`~hexlan.engine.variants.base.Variant.hidden_card`). None for an action that
        spends no hidden card, and for a deck the game does not have."""
        card = _CARD_PLAYED.get(type(action))
        if card is not None:
            found: tuple[str, int, str, bool] | None = (DEVELOPMENT_DECK, card, card.title, False)
        elif self.variant is not None and isinstance(action, A.VariantAction):
            hidden = self.variant.hidden_card(action)
            found = None if hidden is None else (*hidden, True)
        else:
            found = None
        return found if found is not None and found[0] in self.rules.decks else None

    def point_card(self) -> tuple[str, int] | None:
        """The hidden card that counts a victory point while held, as ``(deck, face)``: the
        development deck's victory point card (seed 002 «Карточки развития»); None in a game
        without one."""
        if DEVELOPMENT_DECK not in self.rules.decks:
            return None
        return DEVELOPMENT_DECK, DevCard.VICTORY_POINT

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    def winners(self) -> tuple[Seat, ...]:
        """The seat that won, alone (a Catan game has one winner: seed 002 «Конец игры»); empty
        while the game goes on (the :class:`~hexlan.engine.game.Game` interface)."""
        return (self.winner,) if self.winner >= 0 else ()

    def victory_points(self, seat: Seat) -> int:
        """Public victory points plus the hidden victory point cards this state knows of
        (settlement 1, city 2, each award ``rules.award_points``, VP card 1; seed 002 «Конец
        игры»)."""
        return self.public_vp[seat] + self.hidden_victory_points(seat)

    def pieces_left(self, seat: Seat) -> tuple[int, int, int]:
        """Roads, settlements and cities the seat can still build: 15, 5 and 4 in all (seed 002
        «Фаза строительства»), about :data:`NO_LIMIT` with ``piece_limits`` off."""
        return (
            self.road_limit - len(self.roads[seat]),
            self.settlement_limit - len(self.settlements[seat]),
            self.city_limit - len(self.cities[seat]),
        )

    def ratio(self, seat: Seat, resource: Resource) -> int:
        """Cards of ``resource`` the seat gives the bank for one card: 4, 3 with a 3:1 harbour,
        2 with that resource's harbour (seed 002 «Фаза строительства», «Торговля»)."""
        return self.ratios[seat][resource]

    def victims_at(self, hex_id: HexId, thief: Seat) -> list[Seat]:
        """Opponents with a building on the hex and at least one resource card, in seat order:
        those the robber may rob there (seed 002 «Разбойник» 3; docs/rules/base.md "Rolling a
        7")."""
        seats = self.hex_seats[hex_id] & ~(1 << thief)
        if not seats:
            return []
        return [s for s in range(self.players) if seats >> s & 1 and self.hand_size[s]]

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance actions due now as ``(action, probability)`` pairs whose probabilities sum
        to 1 (empty if none is due).

        Dice: 36 outcomes of 1/36; the start player: uniform (seed 002 «Начало игры» 2); a steal:
        one card of the victim's hand at random (seed 002 «Разбойник» 3); a draw: by the deck's
        counts. The reveal phases (Monopoly, victory) have exactly one outcome.
        """
        phase = self.phase
        if phase is Phase.DICE:
            return list(_DICE_OUTCOMES)
        if phase is Phase.START_PLAYER:
            return [(A.StartPlayer(s), 1 / self.players) for s in range(self.players)]
        if phase is Phase.STEAL:
            hand, total = self.hands[self.victim], self.hand_size[self.victim]
            steals = _steals(self.rules.cards)
            return [(steals[r], hand[r] / total) for r in range(self.kinds) if hand[r]]
        if phase is Phase.DRAW:
            total = sum(self.deck)
            draws, deck = self._draws, self.deck
            return [(draws[c], deck[c] / total) for c in range(len(deck)) if deck[c]]
        if phase is Phase.MONOPOLY:
            assert self.monopoly is not None
            amounts = tuple(
                0 if s == self.active else self.monopoly_amount(self.hands[s][self.monopoly])
                for s in range(self.players)
            )
            return [(A.MonopolyTake(amounts), 1.0)]
        if phase is Phase.VICTORY:
            return [(A.RevealVictory(self.active, self.hidden_victory_points(self.active)), 1.0)]
        if phase in CHANCE_PHASES and self.variant is not None:  # a chance phase a game adds
            return self.variant.chance_outcomes(self)
        return []

    def chance_node(self) -> ChanceNode | None:
        """What chance is due now, as data for a chance source (None at a seat's decision).

        The dice: :data:`~hexlan.engine.chance.UNIFORM` over the 36 rolls, two draws below 6;
        the start player: uniform over the seats (seed 002 «Начало игры» 2); a purchase's card:
        a :data:`~hexlan.engine.chance.DECK_DRAW` from deck ``"development"`` by the active
        seat; a robbery: a :data:`~hexlan.engine.chance.STEAL` by the active seat from the
        victim (seed 002 «Разбойник» 3); Monopoly: a :data:`~hexlan.engine.chance.COUNT` by
        every opponent (:attr:`~hexlan.engine.chance.ChanceNode.count`: the named kind, capped
        or not); a victory: the active seat's reveal of its victory point cards.

        >>> from hexlan.engine.board import beginner_board
        >>> state = GameState(beginner_board(), 3)
        >>> node = state.chance_node()
        >>> node.kind, node.event, node.outcomes[2], node.sides
        ('uniform', 'start', StartPlayer(seat=2), (3,))
        """
        phase = self.phase
        if phase is Phase.DICE:
            return _DICE_NODE
        if phase is Phase.START_PLAYER:
            return _start_node(self.players)
        if phase is Phase.DRAW:
            return ChanceNode(DECK_DRAW, "draw", deck="development", seats=(self.active,))
        if phase is Phase.STEAL:
            return ChanceNode(STEAL, "steal", seats=(self.active, self.victim))
        if phase is Phase.MONOPOLY:
            others = tuple(s for s in range(self.players) if s != self.active)
            count = Count(self.monopoly, self.monopoly_cap) if self.monopoly is not None else None
            return ChanceNode(COUNT, MONOPOLY_COUNTS, seats=others, count=count)
        if phase is Phase.VICTORY:
            return ChanceNode(REVEAL, VICTORY_REVEAL, seats=(self.active,))
        if phase in CHANCE_PHASES and self.variant is not None:  # a chance phase a game adds
            return self.variant.chance_node(self)
        return None

    def count_outcome(self, counts: Sequence[int]) -> Action:
        """The outcome of the count due now (a :data:`~hexlan.engine.chance.COUNT` node), from
        every seat's count in seat order (0 for a seat that does not count: the Monopoly's
        player); :meth:`check` refuses counts the hands cannot give.

        >>> from hexlan.engine.board import beginner_board
        >>> GameState(beginner_board(), 3).count_outcome([0, 2, 1])
        MonopolyTake(amounts=(0, 2, 1))
        """
        return A.MonopolyTake(tuple(counts))

    def draw_outcome(self, face: int | None) -> Action:
        """The outcome of the deck draw due now (:meth:`chance_node`), from the drawn card's face
        as the deck numbers it (None: a card this state may not see). A chance source that deals
        by faces (the network's mental-poker deck) turns the card into the outcome here.

        >>> from hexlan.engine.board import beginner_board
        >>> GameState(beginner_board(), 3).draw_outcome(4)
        DrawCard(card=<DevCard.MONOPOLY: 4>)

        In a chance phase a game adds, its rules module names the outcome
        (:meth:`~hexlan.engine.variants.base.Variant.deck_outcome`: Seafarers' fog tile, a
        Cities & Knights progress card).
        """
        if self.phase is not Phase.DRAW and self.variant is not None:
            return self.variant.deck_outcome(self, face)
        return _HIDDEN_DRAW if face is None else self._draws[face]

    def observation(self, action: Action, seat: Seat) -> Action:
        """What ``seat`` sees of ``action`` when it is applied to this state (call before apply).

        A stolen card is seen by thief and victim only; a drawn development card by its buyer
        only (seed 002: both are hidden cards); a game's own hidden cards as its rules module
        says (:meth:`~hexlan.engine.variants.base.Variant.observation`: a Cities & Knights
        progress card, by its drawer only). Everything else is public.
        """
        if type(action) is A.StealCard and seat not in (self.active, self.victim):
            return _HIDDEN_STEAL
        if type(action) is A.DrawCard and seat != self.active:
            return _HIDDEN_DRAW
        if self.variant is not None and isinstance(action, A.VariantAction):
            return self.variant.observation(self, action, seat)
        return action

    def sees(self, seat: Seat) -> bool:
        """Whether this state knows ``seat``'s hidden cards: the full state knows every seat's
        (an :class:`~hexlan.engine.info.InformationState` only its own). A game's rules module
        asks it of the hidden cards it keeps itself (Cities & Knights' progress cards)."""
        return True

    def steal_outcome(self, index: int) -> A.StealCard:
        """The card at ``index`` of the victim's hand in resource order (lumber first).

        A chance source that draws an index (the network beacon) turns it into the outcome here.

        Raises:
            EngineError: no steal is due, or the index is outside the victim's hand.
        """
        if self.phase is not Phase.STEAL or not 0 <= index < self.hand_size[self.victim]:
            raise EngineError(f"no stolen card at index {index}")
        for r, count in enumerate(self.hands[self.victim]):
            if index < count:
                return _steals(self.rules.cards)[r]
            index -= count
        raise AssertionError("unreachable: hand size and counts disagree")

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: :meth:`current_player`), domestic offers and
        counter-offers excepted (their terms are open; :meth:`check` judges them).

        Chance nodes have no player actions: see :meth:`chance_outcomes`. The rules and their
        sources are in docs/rules/base.md; while an offer is out the active seat may always
        withdraw it (:class:`~hexlan.engine.actions.CancelTrade`).
        """
        if seat is None:
            seat = self.current_player()
        phase = self.phase
        if seat < 0 or phase in CHANCE_PHASES or phase is Phase.GAME_OVER:
            return []
        if phase is Phase.DISCARD:
            need = self.discards[seat]
            if not need:
                return []
            return [A.Discard(seat, c) for c in _discard_choices(as_hand(self.hands[seat]), need)]
        if phase is Phase.TRADE_RESPONSES:
            return self._trade_actions(seat)
        if phase is BuildPhase.SPECIAL_BUILD:  # the special_building flag's phase
            return self._build_actions(seat) if seat == self.active else []
        if type(phase) is not Phase:  # a phase a game adds: its rules module's decision
            if self.variant is None or seat != self.current_player():
                return []
            return self.variant.phase_actions(self, seat)
        if seat != self.active:
            return []
        if phase is Phase.MAIN:
            return self._main_actions(seat)
        return self._turn_phase_actions(seat, phase)

    def _turn_phase_actions(self, seat: Seat, phase: GamePhase) -> list[Action]:
        """The active seat's actions in a phase of its turn but the main one: its roll (and
        what may come before it), the robber's move, the free roads of Road Building, its
        set-up settlement and road."""
        if phase is Phase.ROLL:
            result: list[Action] = [A.ROLL]
            self._dev_actions(seat, result, before_roll=True)
            if self.variant is not None:
                self.variant.roll_actions(self, seat, result)
            return result
        if phase is Phase.MOVE_ROBBER:
            return self.robber_actions(seat)
        if phase is Phase.ROAD_BUILDING:
            result = []
            if self.pieces_left(seat)[0] > 0:
                result = [self._roads[p] for p in self._road_spots(seat)]
            if self.variant is not None:
                self.variant.free_builds(self, seat, result)
            return result
        if phase is Phase.SETUP_SETTLEMENT:
            blocked = self.blocked
            variant = self.variant
            closed = variant.setup_closed(self) if variant is not None else ()
            # Cities & Knights: the second set-up building is a city (seed 002 «Города и рыцари»)
            pieces = self._cities if variant is not None and variant.setup_city(self) else None
            return [
                (self._settlements if pieces is None else pieces)[n]
                for n in range(self.topology.node_count)
                if not blocked[n] and n not in closed
            ]
        if phase is Phase.SETUP_ROAD:
            owner = self.path_owner
            closed = self.closed_paths
            result = [
                self._roads[p]
                for p in self.topology.node_paths[self.last_settlement]
                if owner[p] < 0 and p not in closed
            ]
            if self.variant is not None:
                self.variant.free_builds(self, seat, result)
            return result
        return []

    def _main_actions(self, seat: Seat) -> list[Action]:
        variant = self.variant
        if variant is not None and variant.turn_must_end(self):  # Pirate Islands' fortress
            return [A.END_TURN]
        result = self._build_actions(seat)
        self._dev_actions(seat, result, before_roll=False)
        self._maritime_actions(seat, result)
        return result

    def _build_actions(self, seat: Seat) -> list[Action]:
        """Ending the turn, then every road, settlement, city and card purchase the seat can pay
        for: all a special builder may do (seed 002 «Расширение на 5-6 игроков»)."""
        rules = self.rules
        result: list[Action] = [A.END_TURN]
        covers = self.hand_covers
        roads_left, settlements_left, cities_left = self.pieces_left(seat)
        if roads_left > 0 and covers(seat, rules.road_cost):
            result.extend(self._roads[p] for p in self._road_spots(seat))
        if settlements_left > 0 and covers(seat, rules.settlement_cost):
            result.extend(self._settlements[n] for n in self._settlement_spots(seat))
        if cities_left > 0 and covers(seat, rules.city_cost):
            result.extend(self._cities[n] for n in self.settlements[seat])
        if self.deck_size() and covers(seat, rules.development_card_cost):
            result.append(A.BUY_DEVELOPMENT_CARD)
        if self.variant is not None:
            self.variant.main_actions(self, seat, result)
        return result

    def _dev_actions(self, seat: Seat, result: list[Action], before_roll: bool) -> None:
        if self.dev_played_this_turn or self.dev_count[seat] == 0:
            return
        can_play = self._dev_can_play
        if can_play(seat, DevCard.KNIGHT) and (
            self.variant is None or self.variant.can_play_knight(self, seat)
        ):
            result.append(A.PLAY_KNIGHT)
        if before_roll and self.options.knight_only_before_roll:
            return
        if can_play(seat, DevCard.ROAD_BUILDING) and self.can_build_free(seat):
            result.append(A.PLAY_ROAD_BUILDING)
        if can_play(seat, DevCard.YEAR_OF_PLENTY) and any(self.bank):
            result.extend(_year_of_plenty_choices(as_hand(self.bank), self._plenty_kinds))
        if can_play(seat, DevCard.MONOPOLY):
            result.extend(self._monopolies)

    def _maritime_actions(self, seat: Seat, result: list[Action]) -> None:
        hand, ratios, bank = self.hands[seat], self.ratios[seat], self.bank
        trades = _one_kind_trades(self.rules.cards)
        for r in range(self.kinds):
            ratio = ratios[r]
            if hand[r] >= ratio:
                result.extend(a for a in trades[r][ratio] if bank[a.get])
        if (
            self.options.mixed_three_to_one
            and self.generic_harbour[seat]
            and self.hand_size[seat] >= 3
        ):
            kinds = self.rules.cards
            gets = [g for g in range(self.kinds) if bank[g]]
            for give_t in _discard_choices(as_hand(hand), 3):
                if max(give_t) < 3:  # three of one kind is already listed above
                    result.extend(_maritime(give_t, g, kinds) for g in gets if not give_t[g])

    def robber_actions(self, seat: Seat) -> list[Action]:
        """The robber's legal moves for ``seat`` (every land hex but its own, the desert as the
        options allow), then what the game's rules add (Seafarers: the pirate's)."""
        result: list[Action] = []
        desert_ok = self.options.robber_to_desert
        variant = self.variant
        robber = variant is None or variant.has_robber  # Pirate Islands: no robber
        land = self.topology.hex_count if robber else 0
        for h in range(land):
            if h == self.robber or (not desert_ok and self.board.tokens[h] == 0):
                continue
            victims = self.victims_at(h, seat)
            if victims:
                result.extend(_robber_move(h, v) for v in victims)
            else:
                result.append(_robber_move(h, NO_SEAT))
        if self.variant is not None:
            self.variant.robber_actions(self, seat, result)
        return result

    def _trade_actions(self, seat: Seat) -> list[Action]:
        trade = self.trade
        assert trade is not None
        if seat in self.trade_pending:
            result: list[Action] = [A.AnswerTrade(seat, False)]
            if self.hand_covers(seat, trade.get):
                result.insert(0, A.AnswerTrade(seat, True))
            return result
        if seat != self.active:
            return []
        result = [A.CANCEL_TRADE]  # the offer may be withdrawn before every answer is in
        if self.trade_pending:
            return result
        for other, answer in self.trade_answers.items():
            if isinstance(answer, A.CounterOffer):
                if self.hand_covers(seat, answer.give):
                    result.append(A.ConfirmTrade(other))
            elif answer.accept:
                result.append(A.ConfirmTrade(other))
        return result

    def can_build_free(self, seat: Seat) -> bool:
        """Whether the seat has a free road (or, in Seafarers, ship) to place somewhere: what
        playing Road Building and going on with it need."""
        if self.pieces_left(seat)[0] > 0 and self._road_spots(seat):
            return True
        return self.variant is not None and self.variant.has_free_builds(self, seat)

    def route_length(self, seat: Seat) -> int:
        """The seat's length toward Longest Road (Longest Trade Route in Seafarers)."""
        if self.variant is not None:
            return self.variant.route_length(self, seat)
        return longest_road(self.topology, self.roads[seat], seat, self.node_owner)

    def paths_changed(self) -> None:
        """Forget every seat's open road spots: a rules module that takes or frees a path
        (a ship built, moved or sunk; a knight displaced) calls it, as placing a road does."""
        self._road_cache = [None] * self.players

    def _road_spots(self, seat: Seat) -> list[PathId]:
        """Empty paths touching the seat's network (not through another seat's building)."""
        cached = self._road_cache[seat]
        if cached is not None:
            return cached
        topo, owner, path_owner = self.topology, self.node_owner, self.path_owner
        nodes = set(self.settlements[seat]) | set(self.cities[seat])
        path_nodes = topo.path_nodes
        for p in self.roads[seat]:
            a, b = path_nodes[p]
            if owner[a] < 0 or owner[a] == seat:
                nodes.add(a)
            if owner[b] < 0 or owner[b] == seat:
                nodes.add(b)
        node_paths, closed = topo.node_paths, self.closed_paths
        spots = sorted(
            {p for n in nodes for p in node_paths[n] if path_owner[p] < 0 and p not in closed}
        )
        self._road_cache[seat] = spots
        return spots

    def _settlement_spots(self, seat: Seat) -> list[NodeId]:
        blocked = self.blocked
        if not self.options.settlements_need_road:
            return [n for n in range(self.topology.node_count) if not blocked[n]]
        path_nodes = self.topology.path_nodes
        spots = {n for p in self.roads[seat] for n in path_nodes[p] if not blocked[n]}
        if self.variant is not None:  # Seafarers: a settlement may stand at a ship's end too
            self.variant.settlement_reach(self, seat, spots)
        return sorted(spots)

    # ------------------------------------------------------------------ checked play

    def actor(self, action: Action) -> Seat:
        """The seat that makes ``action`` (:data:`CHANCE` for chance actions)."""
        if isinstance(action, CHANCE_ACTIONS):
            return CHANCE
        if isinstance(action, A.Discard | A.AnswerTrade | A.CounterOffer):
            return action.seat
        if isinstance(action, A.VariantAction):
            return action.actor(self.active)
        return self.active

    def check(self, action: Action) -> None:
        """Raise unless ``action`` is legal now.

        Raises:
            IllegalActionError: with the reason and the rule's source.
        """
        phase = self.phase
        if phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over")
        if isinstance(action, CHANCE_ACTIONS):
            self._check_chance(action)
            return
        if phase in CHANCE_PHASES:
            raise IllegalActionError(f"a chance outcome is due in phase {phase.title}")
        if isinstance(action, A.OfferTrade):
            self._check_offer(action)
        elif isinstance(action, A.CounterOffer):
            self._check_counter(action)
        elif isinstance(action, A.Discard):
            self._check_discard(action)
        elif isinstance(action, A.AnswerTrade) and action.accept:
            if phase is not Phase.TRADE_RESPONSES or action.seat not in self.trade_pending:
                raise IllegalActionError(f"seat {action.seat} has no offer to answer")
            assert self.trade is not None
            if not self.hand_covers(action.seat, self.trade.get):
                raise IllegalActionError(
                    "cannot accept: the cards asked for are not in hand", "seed 002 «Торговля»"
                )
        elif action not in self.legal_actions(self.actor(action)):
            if self.variant is not None:
                why = self.variant.why_illegal(self, action)
                if why is not None:
                    raise IllegalActionError(*why)
            raise IllegalActionError(self._why_illegal(action))

    def play(self, action: Action) -> None:
        """:meth:`check` then :meth:`apply`.

        Raises:
            IllegalActionError: the action is not legal; the state is unchanged.
        """
        self.check(action)
        self.apply(action)

    def _why_illegal(self, action: Action) -> str:
        seat = self.actor(action)
        name = type(action).__name__
        if seat not in self.acting_seats():
            return f"{name}: seat {seat} may not act in phase {self.phase.title}"
        if self.phase is BuildPhase.SPECIAL_BUILD and not isinstance(
            action, _SPECIAL_BUILD_ACTIONS
        ):
            return (
                f"{name}: the special building phase allows building, buying a development card"
                " and ending the special turn only (seed 002 «Расширение на 5-6 игроков»)"
            )
        return f"{name} is not legal for seat {seat} in phase {self.phase.title}: {action!r}"

    def _check_chance(self, action: Action) -> None:
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError(f"no chance outcome is due in phase {self.phase.title}")
        if not any(action == outcome for outcome, _ in outcomes):
            raise IllegalActionError(f"{action!r} is not a possible outcome now")

    def _check_discard(self, action: A.Discard) -> None:
        seat, cards = action.seat, action.cards
        if (
            self.phase is not Phase.DISCARD
            or not 0 <= seat < self.players
            or not self.discards[seat]
        ):
            raise IllegalActionError(f"seat {seat} has nothing to discard now")
        self._check_length(cards)
        if min(cards) < 0 or sum(cards) != self.discards[seat]:
            raise IllegalActionError(
                f"seat {seat} must discard exactly {self.discards[seat]} cards",
                "seed 002 «Разбойник»",
            )
        if not self.hand_covers(seat, cards):
            raise IllegalActionError(f"seat {seat} does not hold {cards}")

    def _check_length(self, cards: Hand) -> None:
        if len(cards) != self.kinds:
            raise IllegalActionError(
                f"a hand lists {self.kinds} counts in the {self.rules.name} game, not"
                f" {len(cards)}: {cards}"
            )

    def _check_terms(self, seat: Seat, give: Hand, get: Hand) -> None:
        self._check_length(give)
        self._check_length(get)
        if min(give) < 0 or min(get) < 0 or not sum(give) or not sum(get):
            raise IllegalActionError(
                "both sides of a trade give at least one card: no gifts", "seed 002 «Торговля»"
            )
        if any(g and t for g, t in zip(give, get, strict=True)):
            raise IllegalActionError("a trade cannot swap a resource for the same resource")
        if not self.hand_covers(seat, give):
            raise IllegalActionError(f"seat {seat} does not hold the cards it offers")

    def _check_offer(self, action: A.OfferTrade) -> None:
        if self.phase is BuildPhase.SPECIAL_BUILD:
            raise IllegalActionError(
                "no trade in the special building phase", "seed 002 «Расширение на 5-6 игроков»"
            )
        if self.phase is not Phase.MAIN:
            raise IllegalActionError(
                "domestic trade happens after the roll, in the active turn", "seed 002 «Торговля»"
            )
        if action.to != NO_SEAT and not (
            0 <= action.to < self.players and action.to != self.active
        ):
            raise IllegalActionError(f"cannot offer a trade to seat {action.to}")
        self._check_terms(self.active, action.give, action.get)

    def _check_counter(self, action: A.CounterOffer) -> None:
        if self.phase is not Phase.TRADE_RESPONSES or action.seat not in self.trade_pending:
            raise IllegalActionError(f"seat {action.seat} has no offer to answer")
        self._check_terms(self.active, action.give, action.get)
        if not self.hand_covers(action.seat, action.get):
            raise IllegalActionError(f"seat {action.seat} does not hold the cards it offers")

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Apply an action without checking it (the caller took it from :meth:`legal_actions`
        or :meth:`chance_outcomes`, or checked it with :meth:`check`).

        Afterwards, an active seat whose public and hidden points reach the target on its own
        turn moves the game to :attr:`Phase.VICTORY` (seed 002 «Цель участников»; official);
        :class:`~hexlan.engine.actions.RevealVictory` then ends it. A special builder is active
        but not on its own turn: it wins when its next turn starts (official 5-6 rules;
        docs/rules/five-six.md).

        With :attr:`record_events`, :attr:`last_events` lists afterwards what the action did.
        """
        if self.record_events:
            self.last_events = []
        self._HANDLERS[type(action)](self, action)
        if self.variant_due:  # the game's rules follow this action (Seafarers' fog)
            assert self.variant is not None
            self.variant_due = False
            self.variant.action_applied(self)
        active = self.active
        # perf: unplayed cards bound the hidden victory points, so most calls stop at the first test.
        if (
            self.public_vp[active] + self.dev_count[active] >= self.target
            and self.turn
            and self.phase not in CHANCE_PHASES
            and self.phase is not Phase.GAME_OVER
            and self.phase is not BuildPhase.SPECIAL_BUILD
            and not self.options.victory_at_turn_end
            and self.public_vp[active] + self.hidden_victory_points(active) >= self.target
            and (self.variant is None or self.variant.can_win(self, active))
        ):
            self.phase = Phase.VICTORY  # seed 002 «Цель участников»: 10 points on one's turn

    def _on_start_player(self, action: A.StartPlayer) -> None:
        n = self.players
        first = [(action.seat + i) % n for i in range(n)]
        self.start_seat = action.seat
        self.setup_order = first + first[::-1]
        self.setup_step = 0
        self.active = action.seat
        self.phase = Phase.SETUP_SETTLEMENT
        if self.record_events:
            self.last_events.append(E.StartPlayerDrawn(action.seat))

    def _on_build_settlement(self, action: A.BuildSettlement) -> None:
        seat, node = self.active, action.node
        if self.record_events:
            self.last_events.append(
                E.Built(seat, "settlement", node, setup=self.phase is Phase.SETUP_SETTLEMENT)
            )
        if self.phase is Phase.SETUP_SETTLEMENT:
            self._setup_building(seat, node)
        else:
            self.pay_bank(seat, self.rules.settlement_cost)
        self.place_settlement(seat, node)
        if self.variant is not None:
            self.variant.after_build(self, seat, node)

    def _setup_building(self, seat: Seat, node: NodeId) -> None:
        """A set-up building on ``node``: its road is next, and the second one yields one
        resource per terrain beside it (seed 002 «Начало игры»; a Cities & Knights set-up city
        too, official)."""
        self.last_settlement = node
        self.phase = Phase.SETUP_ROAD
        if self.setup_step >= self.players:  # the second settlement yields (seed 002)
            gain = [0] * self.kinds
            for h in self.topology.node_hexes[node]:
                resource = self.rules.produce[self.board.terrains[h]]
                if resource is not None:
                    gain[resource] += 1
            self.take_from_bank(seat, as_hand(gain))
            if self.record_events:
                self.last_events.append(E.StartingResources(seat, as_hand(gain)))

    def place_settlement(self, seat: Seat, node: NodeId) -> None:
        """Stand a settlement of ``seat`` on ``node``: its production, the distance rule, its
        point and harbour, and any road it cuts (what building one does once it is paid for;
        Pirate Islands also sets up and captures settlements with it)."""
        self.node_owner[node] = seat
        self.node_level[node] = 1
        board = self.board
        for h in self.topology.node_hexes[node]:
            self.hex_seats[h] |= 1 << seat
            resource = self.rules.produce[board.terrains[h]]
            if resource is not None:
                self.income[board.tokens[h]].append((h, node, seat, int(resource)))
        self.blocked[node] = True
        for m in self.topology.node_nodes[node]:
            self.blocked[m] = True
        self.settlements[seat].append(node)
        self.public_vp[seat] += 1
        harbour = self.harbour_nodes.get(node)
        if harbour is not None:
            ratios = self.ratios[seat]
            if harbour.resource is None:
                self.generic_harbour[seat] = True
                for r in range(self.kinds):
                    ratios[r] = min(ratios[r], 3)
            else:
                ratios[harbour.resource] = 2
        self._road_cache = [None] * self.players
        # A settlement may break another seat's road (official Longest Road rule).
        touched = {self.path_owner[p] for p in self.topology.node_paths[node]} - {NO_SEAT, seat}
        if touched:
            for other in touched:
                self.road_length[other] = self.route_length(other)
            self.award_longest_road()

    def _on_build_road(self, action: A.BuildRoad) -> None:
        seat, phase = self.active, self.phase
        if self.record_events:
            self.last_events.append(
                E.Built(
                    seat,
                    "road",
                    action.path,
                    setup=phase is Phase.SETUP_ROAD,
                    free=phase is Phase.ROAD_BUILDING,
                )
            )
        if phase is Phase.MAIN or phase is BuildPhase.SPECIAL_BUILD:
            self.pay_bank(seat, self.rules.road_cost)
        self.path_owner[action.path] = seat
        self.roads[seat].append(action.path)
        self._road_cache = [None] * self.players  # the path is gone from every seat's spots
        length = self.route_length(seat)
        self.road_length[seat] = length  # set-up roads count too (public road length)
        if self.variant is not None:
            self.variant.after_build(self, seat, -1)
        if phase is Phase.SETUP_ROAD:
            self.setup_next()
            return
        if length >= self.longest_road_min:
            self.award_longest_road()
        if phase is Phase.ROAD_BUILDING:
            self.free_build_placed(seat)

    def setup_next(self) -> None:
        """The set-up road (or ship) is placed: the next seat's settlement, or the first turn."""
        self.setup_step += 1
        if self.setup_step == len(self.setup_order):
            self.active = self.start_seat
            self.turn = 1
            self.phase = Phase.ROLL
            if self.record_events:
                self.last_events.append(E.TurnStarted(self.active, 1))
        else:
            self.active = self.setup_order[self.setup_step]
            self.phase = Phase.SETUP_SETTLEMENT

    def free_build_placed(self, seat: Seat) -> None:
        """One of Road Building's pieces is placed: play resumes after the last one, or when
        none can be placed any more."""
        self.free_roads -= 1
        if self.free_roads == 0 or not self.can_build_free(seat):
            self.phase = self.road_building_resume

    def _on_build_city(self, action: A.BuildCity) -> None:
        seat = self.active
        setup = self.phase is Phase.SETUP_SETTLEMENT  # Cities & Knights: a set-up city
        if self.record_events:
            self.last_events.append(E.Built(seat, "city", action.node, setup=setup))
        if setup:
            self._setup_building(seat, action.node)
            self.place_settlement(seat, action.node)
        else:
            self.pay_bank(seat, self.rules.city_cost)
        self.upgrade_city(seat, action.node)

    def upgrade_city(self, seat: Seat, node: NodeId) -> None:
        """The seat's settlement at ``node`` becomes a city (paid for already)."""
        self.settlements[seat].remove(node)
        self.cities[seat].append(node)
        self.node_level[node] = 2
        self.public_vp[seat] += 1
        if self.variant is not None:
            self.variant.after_build(self, seat, node)

    def _on_buy(self, action: A.BuyDevelopmentCard) -> None:
        self.pay_bank(self.active, self.rules.development_card_cost)
        self.phase = Phase.DRAW
        if self.record_events:
            self.last_events.append(E.CardBought(self.active))

    def _on_draw(self, action: A.DrawCard) -> None:
        seat = self.active
        self._dev_draw(seat, action.card)
        if self.record_events:
            self.last_events.append(E.CardDrawn(seat, action.card))
        self.dev_count[seat] += 1
        self.new_dev_count[seat] += 1
        self.phase = Phase.MAIN if self.special_from < 0 else BuildPhase.SPECIAL_BUILD

    def _on_roll(self, action: A.RollDice) -> None:
        self.phase = Phase.DICE

    def roll(self, action: A.Dice) -> None:
        """The dice fell as ``action`` says: production, or a 7 (through the game's
        ``dice_rolled`` hook first). The handler of :class:`~hexlan.engine.actions.Dice`; a rules
        module calls it for dice that stand for a roll (Cities & Knights' Alchemist)."""
        self._on_dice(action)

    def _on_dice(self, action: A.Dice) -> None:
        self.dice = action
        total = action.first + action.second
        if self.record_events:
            self.last_events.append(E.DiceRolled(self.active, action.first, action.second))
        if self.variant is not None and self.variant.dice_rolled(self, action):
            self.roll_pending = True  # Pirate Islands: a fleet attack is settled first
            return
        self.finish_roll(total)

    def finish_roll(self, total: int) -> None:
        """The roll of ``total`` produces, or its 7 begins (discards, then the robber)."""
        if total != 7:
            variant = self.variant
            if variant is not None:
                variant.after_roll(self, total)
            self._produce(total)
            self.phase = Phase.MAIN
            if variant is not None:
                variant.after_production(self, total)
            return
        self.robber_resume = Phase.MAIN
        locked = self.variant is not None and self.variant.robber_locked(self)
        if self.options.robber_before_discard and not locked:  # seed 003 «ХОД ИГРОКА»
            self.discard_after_robber = True  # hands are counted after the steal
            self.phase = Phase.MOVE_ROBBER
            return
        if not self._call_discards():
            self._robber_phase()

    def _call_discards(self) -> bool:
        """Seats over their hand limit owe half their cards, rounded down (seed 002
        «Разбойник»; a Cities & Knights wall raises a seat's limit by 2): True when some do
        (play goes to :attr:`Phase.DISCARD`)."""
        limit, variant = self.rules.discard_limit, self.variant
        if variant is None:
            self.discards = [n // 2 if n > limit else 0 for n in self.hand_size]
        else:
            self.discards = [
                n // 2 if n > limit + variant.hand_limit_bonus(self, s) else 0
                for s, n in enumerate(self.hand_size)
            ]
        if not any(self.discards):
            return False
        self.phase = Phase.DISCARD
        if self.record_events:
            self.last_events.append(E.DiscardsDue(tuple(self.discards)))
        return True

    def _robber_phase(self) -> None:
        """After a 7's discards: the robber moves, unless the game keeps it still (Cities &
        Knights before the barbarians' first attack); then play resumes."""
        if self.variant is not None and self.variant.robber_locked(self):
            self.phase = self.robber_resume
        else:
            self.phase = Phase.MOVE_ROBBER

    def _produce(self, total: int) -> None:
        """Pay production for a roll, with the bank-shortage rule (official)."""
        income = self.income[total]
        if not income:
            return
        owed = [[0] * self.kinds for _ in range(self.players)]
        node_level, robber = self.node_level, self.robber
        # Cities & Knights: per resource, the commodity a city takes instead of its second card
        split = None if self.variant is None else self.variant.city_commodities
        any_owed = False
        for h, node, seat, resource in income:
            if h != robber:
                level = node_level[node]
                if level == 2 and split is not None and split[resource] >= 0:
                    owed[seat][resource] += 1
                    owed[seat][split[resource]] += 1
                else:
                    owed[seat][resource] += level
                any_owed = True
        if not any_owed:
            return
        bank = self.bank
        for r in range(self.kinds):
            total_owed = 0
            owed_seats = 0
            for seat in range(self.players):
                if owed[seat][r]:
                    total_owed += owed[seat][r]
                    owed_seats += 1
            if total_owed <= bank[r]:
                continue
            if owed_seats == 1:  # the only player owed takes what is left
                for seat in range(self.players):
                    if owed[seat][r]:
                        owed[seat][r] = bank[r]
            else:  # nobody gets it
                for seat in range(self.players):
                    owed[seat][r] = 0
        for seat in range(self.players):
            row = owed[seat]
            if any(row):
                self.take_from_bank(seat, as_hand(row))
        if self.record_events:
            gains = tuple(as_hand(row) for row in owed)
            if any(any(g) for g in gains):
                self.last_events.append(E.Produced(total, gains))

    def _on_discard(self, action: A.Discard) -> None:
        if self.record_events:
            self.last_events.append(E.Discarded(action.seat, action.cards))
        self.pay_bank(action.seat, action.cards)
        self.discards[action.seat] = 0
        if not any(self.discards):
            if self.discard_after_robber:
                self.discard_after_robber = False
                self.phase = self.robber_resume
            else:
                self._robber_phase()

    def _on_move_robber(self, action: A.MoveRobber) -> None:
        self.robber = action.hex
        if self.record_events:
            self.last_events.append(E.RobberMoved(self.active, action.hex, action.victim))
        self.rob(action.victim)

    def rob(self, victim: Seat) -> None:
        """After the robber's (or the pirate's) move: steal from ``victim`` if it holds a card
        (-1: nobody to rob), else go on."""
        if victim >= 0 and self.hand_size[victim]:
            self.victim = victim
            self.phase = Phase.STEAL
        else:
            self._after_robber()

    def _after_robber(self) -> None:
        if self.variant is not None:
            victim = self.variant.next_victim(self)
            if victim >= 0:  # Cities & Knights' Bishop: the next seat beside the robber
                self.rob(victim)
                return
        if self.discard_after_robber:
            # The steal moved a card between two hands, so who discards is decided only now.
            if self._call_discards():
                return
            self.discard_after_robber = False
        self.phase = self.robber_resume

    def _on_steal(self, action: A.StealCard) -> None:
        self.hand_steal(self.active, self.victim, action.resource)
        if self.record_events:
            self.last_events.append(E.Stole(self.active, self.victim, action.resource))
        self.victim = NO_SEAT
        self._after_robber()

    def _start_card(self, card: DevCard) -> None:
        seat = self.active
        self._dev_play(seat, card)
        self.dev_count[seat] -= 1
        self.dev_played_this_turn = True
        if self.record_events:
            self.last_events.append(E.CardPlayed(seat, card))

    def _on_knight(self, action: A.PlayKnight) -> None:
        seat = self.active
        self._start_card(DevCard.KNIGHT)
        self.knights[seat] += 1
        if self.variant is not None and self.variant.knight_played(self, seat):
            return  # Pirate Islands: a warship, not the robber (seed 004)
        self.robber_resume = self.phase
        self.phase = Phase.MOVE_ROBBER
        if self.options.largest_army:
            holder = self.largest_army_holder
            count = self.knights[seat]
            if (
                holder != seat
                and count >= self.rules.largest_army_min
                and (holder < 0 or count > self.knights[holder])
            ):
                points = self.rules.award_points
                if holder >= 0:
                    self.public_vp[holder] -= points
                self.public_vp[seat] += points
                self.largest_army_holder = seat
                if self.record_events:
                    self.last_events.append(E.AwardMoved("largest_army", holder, seat, count))

    def _on_road_building(self, action: A.PlayRoadBuilding) -> None:
        self._start_card(DevCard.ROAD_BUILDING)
        self.road_building_resume = self.phase
        pieces = self.pieces_left(self.active)[0]
        if self.variant is not None:
            pieces += self.variant.free_pieces(self, self.active)
        self.free_roads = min(2, pieces)
        self.phase = Phase.ROAD_BUILDING

    def _on_year_of_plenty(self, action: A.PlayYearOfPlenty) -> None:
        self._start_card(DevCard.YEAR_OF_PLENTY)
        gain = [0] * self.kinds
        for r in action.resources:
            gain[r] += 1
        self.take_from_bank(self.active, as_hand(gain))
        if self.record_events:
            self.last_events.append(E.BankTaken(self.active, as_hand(gain)))

    def _on_monopoly(self, action: A.PlayMonopoly) -> None:
        self._start_card(DevCard.MONOPOLY)
        self.monopoly = action.resource
        self.robber_resume = self.phase
        self.phase = Phase.MONOPOLY

    def _on_monopoly_take(self, action: A.MonopolyTake) -> None:
        resource = self.monopoly
        assert resource is not None
        for seat, amount in enumerate(action.amounts):
            if seat != self.active:
                self._hand_take_all(self.active, seat, resource, amount)
        self.monopoly = None
        self.monopoly_cap = None
        self.phase = self.robber_resume
        if self.record_events:
            self.last_events.append(E.MonopolyTaken(self.active, resource, action.amounts))

    def _on_maritime(self, action: A.MaritimeTrade) -> None:
        seat = self.active
        self.pay_bank(seat, action.give)
        got = one_kind(action.get, 1, self.kinds)
        self.take_from_bank(seat, got)
        if self.record_events:
            ratio = max(action.give)
            self.last_events.append(E.Traded(seat, NO_SEAT, action.give, got, ratio))

    def _on_offer(self, action: A.OfferTrade) -> None:
        self.trade = action
        self.trade_answers = {}
        if action.to == NO_SEAT:
            self.trade_pending = [s for s in range(self.players) if s != self.active]
        else:
            self.trade_pending = [action.to]
        self.phase = Phase.TRADE_RESPONSES

    def _answered(self, seat: Seat, answer: A.AnswerTrade | A.CounterOffer) -> None:
        self.trade_answers[seat] = answer
        self.trade_pending.remove(seat)
        if not self.trade_pending and not any(
            isinstance(a, A.CounterOffer) or a.accept for a in self.trade_answers.values()
        ):
            if self.record_events:
                self.last_events.append(E.TradeClosed(self.active, withdrawn=False))
            self._close_trade()

    def _on_answer(self, action: A.AnswerTrade) -> None:
        self._answered(action.seat, action)

    def _on_counter(self, action: A.CounterOffer) -> None:
        self._answered(action.seat, action)

    def _on_confirm(self, action: A.ConfirmTrade) -> None:
        answer = self.trade_answers[action.seat]
        terms = answer if isinstance(answer, A.CounterOffer) else self.trade
        assert terms is not None
        self.hand_pay(self.active, terms.give)
        self.hand_gain(action.seat, terms.give)
        self.hand_pay(action.seat, terms.get)
        self.hand_gain(self.active, terms.get)
        if self.record_events:
            self.last_events.append(E.Traded(self.active, action.seat, terms.give, terms.get))
        self._close_trade()

    def _on_cancel(self, action: A.CancelTrade) -> None:
        if self.record_events:
            self.last_events.append(E.TradeClosed(self.active, withdrawn=True))
        self._close_trade()

    def _close_trade(self) -> None:
        self.trade = None
        self.trade_answers = {}
        self.trade_pending = []
        self.phase = Phase.MAIN

    def _on_end_turn(self, action: A.EndTurn) -> None:
        seat = self.active
        if self.phase is BuildPhase.SPECIAL_BUILD:
            self._end_special_turn(seat)
            return
        if (
            self.options.victory_at_turn_end
            and self.public_vp[seat] + self.hidden_victory_points(seat) >= self.target
        ):
            self.phase = Phase.VICTORY  # seed 003 «НАЧИСЛЕНИЕ БАЛЛОВ»: checked at the turn's end
            if self.record_events:
                self.last_events.append(E.TurnEnded(seat))
            return
        self._dev_end_turn(seat)
        self.new_dev_count[seat] = 0
        self.dev_played_this_turn = False
        if self.special_building:  # seed 002 «Расширение на 5-6 игроков»
            self.special_from = seat
            self.active = (seat + 1) % self.players
            self.phase = BuildPhase.SPECIAL_BUILD
            if self.record_events:
                self.last_events.append(E.SpecialBuildingStarted(self.active))
            return
        self._next_turn((seat + 1) % self.players)

    def _end_special_turn(self, builder: Seat) -> None:
        """The builder is done: the next seat builds, or after the last one the next turn
        starts. Cards bought now may be played from the buyer's own next turn."""
        self._dev_end_turn(builder)
        self.new_dev_count[builder] = 0
        after = (builder + 1) % self.players
        if after != self.special_from:
            self.active = after
            if self.record_events:
                self.last_events.append(E.SpecialBuildingStarted(after))
            return
        self.special_from = NO_SEAT
        self._next_turn((after + 1) % self.players)

    def _next_turn(self, seat: Seat) -> None:
        self.active = seat
        self.turn += 1
        self.dice = None
        self.phase = Phase.ROLL
        if self.variant is not None:
            self.variant.turn_started(self)
        if self.record_events:
            self.last_events.append(E.TurnStarted(seat, self.turn))

    def _on_reveal_victory(self, action: A.RevealVictory) -> None:
        self.revealed_vp_cards[action.seat] = action.victory_point_cards
        self.public_vp[action.seat] += action.victory_point_cards
        self.winner = action.seat
        self.phase = Phase.GAME_OVER
        if self.record_events:
            self.last_events.append(
                E.Won(action.seat, self.public_vp[action.seat], action.victory_point_cards)
            )

    # ------------------------------------------------------------------ helpers

    def pay_bank(self, seat: Seat, cards: Hand) -> None:
        """The seat pays ``cards`` (it holds them) into the bank: a build, a purchase, a trade's
        given side, a discard."""
        self.hand_pay(seat, cards)
        bank = self.bank
        for r in range(self.kinds):
            bank[r] += cards[r]

    def take_from_bank(self, seat: Seat, cards: Hand) -> None:
        """The seat takes ``cards`` from the bank (the bank holds them: the caller checked the
        shortage rule, seed 002 «Ресурсы и постройки»)."""
        self.hand_gain(seat, cards)
        bank = self.bank
        for r in range(self.kinds):
            bank[r] -= cards[r]

    def award_longest_road(self) -> None:
        """Give, keep or set aside Longest Road (official rule; docs/rules/base.md).

        The holder keeps it while longest or tied for longest (and at the minimum); otherwise the
        one seat alone longest at the minimum takes it; a tie at the top sets it aside.
        """
        lengths, holder, minimum = self.road_length, self.longest_road_holder, self.longest_road_min
        best = max(lengths)
        if holder >= 0 and lengths[holder] >= minimum and lengths[holder] == best:
            return
        leaders = [s for s in range(self.players) if lengths[s] == best]
        new = leaders[0] if best >= minimum and len(leaders) == 1 else NO_SEAT
        if new == holder:
            return
        points = self.rules.award_points
        if holder >= 0:
            self.public_vp[holder] -= points
        if new >= 0:
            self.public_vp[new] += points
        self.longest_road_holder = new
        if self.record_events:
            size = lengths[new] if new >= 0 else 0
            self.last_events.append(E.AwardMoved("longest_road", holder, new, size))

    # ------------------------------------------------------------------ serialisation

    def public_dict(self) -> dict[str, Any]:
        """Everything every seat knows, as plain data (no hand compositions, no hidden cards).

        A game with a special building phase adds ``special_from``, and a variant its own public
        state (:meth:`Variant.public_dict`); the base game's keys are only those below.
        """
        public: dict[str, Any] = {
            "players": self.players,
            "board": self._static_public["board"],
            "options": self._static_public["options"],
            "phase": int(self.phase),
            "active": self.active,
            "turn": self.turn,
            "setup_step": self.setup_step,
            "bank": list(self.bank),
            "hand_size": list(self.hand_size),
            "deck_size": self.deck_size(),
            "dev_count": list(self.dev_count),
            "new_dev_count": list(self.new_dev_count),
            "dev_played_this_turn": self.dev_played_this_turn,
            "knights": list(self.knights),
            "revealed_vp_cards": list(self.revealed_vp_cards),
            "node_owner": list(self.node_owner),
            "node_level": list(self.node_level),
            "path_owner": list(self.path_owner),
            "robber": self.robber,
            "victim": self.victim,
            "robber_resume": int(self.robber_resume),
            "discard_after_robber": self.discard_after_robber,
            "road_building_resume": int(self.road_building_resume),
            "dice": None if self.dice is None else [self.dice.first, self.dice.second],
            "discards": list(self.discards),
            "free_roads": self.free_roads,
            "trade": None if self.trade is None else A.action_to_list(self.trade),
            "trade_answers": {
                str(s): A.action_to_list(a) for s, a in sorted(self.trade_answers.items())
            },
            "trade_pending": list(self.trade_pending),
            "monopoly": None if self.monopoly is None else int(self.monopoly),
            "road_length": list(self.road_length),
            "longest_road_holder": self.longest_road_holder,
            "largest_army_holder": self.largest_army_holder,
            "public_vp": list(self.public_vp),
            "winner": self.winner,
        }
        if self.special_building:
            public["special_from"] = self.special_from
        if self.monopoly_cap is not None:  # a capped Monopoly being revealed (Cities & Knights)
            public["monopoly_cap"] = self.monopoly_cap
        if self.variant is not None:
            public.update(self.variant.public_dict(self))
        return public

    def public_hash(self) -> str:
        """SHA-256 (hex) of :meth:`public_dict` in canonical JSON: equal for every seat's view."""
        blob = json.dumps(self.public_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def hidden_dict(self) -> dict[str, Any]:
        """What only the full state knows: hand compositions, development cards, the deck (and
        a game's own hidden cards, under ``"variant"``: Cities & Knights' progress cards)."""
        hidden: dict[str, Any] = {
            "hands": [list(h) for h in self.hands],
            "dev_cards": [list(c) for c in self.dev_cards],
            "new_dev_cards": [list(c) for c in self.new_dev_cards],
            "deck": list(self.deck),
        }
        if self.variant_state is not None:
            hidden["variant"] = self.variant_state.hidden_dict()
        return hidden

    def full_hash(self) -> str:
        """SHA-256 (hex) of the public and hidden state together (for replay tests and audits)."""
        blob = json.dumps(
            [self.public_dict(), self.hidden_dict()], sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    def to_dict(self) -> dict[str, Any]:
        """Serialisable snapshot of the full state (:meth:`replay` rebuilds a state from actions;
        this is for inspection, saving and hashing)."""
        return {"public": self.public_dict(), "hidden": self.hidden_dict()}

    @staticmethod
    def replay(
        board: Board,
        players: int,
        actions: Iterator[Action] | list[Action],
        options: GameOptions | None = None,
        rules: RuleSet | None = None,
    ) -> GameState:
        """A new full game with every action played (checked) in order (``rules``: the base
        game's by default).

        Raises:
            IllegalActionError: the first action that is not legal, with its index in the reason.
        """
        state = GameState(board, players, options, rules)
        for i, action in enumerate(actions):
            try:
                state.play(action)
            except IllegalActionError as exc:
                raise IllegalActionError(f"action {i}: {exc.reason}", exc.rule) from exc
        return state


GameState._HANDLERS = {
    A.StartPlayer: GameState._on_start_player,
    A.BuildSettlement: GameState._on_build_settlement,
    A.BuildRoad: GameState._on_build_road,
    A.BuildCity: GameState._on_build_city,
    A.BuyDevelopmentCard: GameState._on_buy,
    A.DrawCard: GameState._on_draw,
    A.RollDice: GameState._on_roll,
    A.Dice: GameState._on_dice,
    A.Discard: GameState._on_discard,
    A.MoveRobber: GameState._on_move_robber,
    A.StealCard: GameState._on_steal,
    A.PlayKnight: GameState._on_knight,
    A.PlayRoadBuilding: GameState._on_road_building,
    A.PlayYearOfPlenty: GameState._on_year_of_plenty,
    A.PlayMonopoly: GameState._on_monopoly,
    A.MonopolyTake: GameState._on_monopoly_take,
    A.MaritimeTrade: GameState._on_maritime,
    A.OfferTrade: GameState._on_offer,
    A.AnswerTrade: GameState._on_answer,
    A.CounterOffer: GameState._on_counter,
    A.ConfirmTrade: GameState._on_confirm,
    A.CancelTrade: GameState._on_cancel,
    A.EndTurn: GameState._on_end_turn,
    A.RevealVictory: GameState._on_reveal_victory,
}
if set(GameState._HANDLERS) != set(A.BASE_ACTION_TYPES):
    raise EngineError("every base action needs its handler in GameState._HANDLERS")
GameState._HANDLERS.update(VARIANT_HANDLERS)  # what each registered game adds


if TYPE_CHECKING:  # mypy --strict checks that the class satisfies the one game interface
    from hexlan.engine.game import Game

    _GAME: type[Game] = GameState


_CARD_PLAYED: Final = {
    A.PlayKnight: DevCard.KNIGHT,
    A.PlayRoadBuilding: DevCard.ROAD_BUILDING,
    A.PlayYearOfPlenty: DevCard.YEAR_OF_PLENTY,
    A.PlayMonopoly: DevCard.MONOPOLY,
}
"""The development card each play spends."""
