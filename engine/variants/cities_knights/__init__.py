"""Cities & Knights (seed 002 «Города и рыцари»; the official rules where the seed is silent;
docs/rules/cities-and-knights.md): the base board with commodities, city improvements and
metropolises, knights, city walls, the event die and the barbarians; 13 points to win.

One module per job: :mod:`.actions` (actions, phases, the event die),
:mod:`.progress` (the game's own state, kept in ``GameState.variant_state``),
:mod:`.improvements` (tracks, metropolises, walls), :mod:`.knights` (where knights stand and go),
:mod:`.barbarians` (the event die's ship and the attack), :mod:`.config` (the rule set's
numbers). This module wires them into the engine's hooks.

- **Set-up:** a settlement, then a city (seed 002); the city yields one resource per terrain
  beside it (official).
- **Production:** a city beside forest, pasture or mountains yields one resource and one paper,
  cloth or coin (seed 002); the commodities are cards of the hand (stolen, traded, discarded).
- **The roll:** red die (``Dice.first``), yellow die, then the event die (a beacon event of its
  own, :attr:`KnightsPhase.EVENT`), settled before production.
- **A 7** only makes discards until the barbarians first attack; then the robber moves as usual.

- **Progress cards** (:mod:`.progress_cards`): three decks of 18 in the rule set, drawn on a
  gate face and by tied defenders, at most four held; played by :mod:`.progress_play` (the
  cards it names: all 25 of the official list).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Final

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.chance import DECK_DRAW, POINT_REVEAL, REVEAL, UNIFORM, ChanceNode
from hexlan.engine.core import (
    NO_SEAT,
    RESOURCES,
    EngineError,
    GamePhase,
    Phase,
    Resource,
    Seat,
    one_kind,
)
from hexlan.engine.gamespec import DieSpec, GameOption, GameSpec
from hexlan.engine.shown import (
    DeckShown,
    DeckTake,
    HandShown,
    HandTake,
)
from hexlan.engine.variants.base import Variant, VariantHandler
from hexlan.engine.variants.cities_knights import (
    barbarians,
    improvements,
    knights,
    progress_board,
    progress_cards,
    progress_hands,
    progress_play,
    progress_spy,
    rejections,
)
from hexlan.engine.variants.cities_knights.actions import (
    EVENT_DICE,
    EVENT_FACES,
    POLITICS,
    SCIENCE,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DesertKnight,
    DiscardProgress,
    EventDie,
    GiveCards,
    HarborAnswer,
    HarborOffer,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PointShown,
    ProgressDrawn,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.position import POSITION
from hexlan.engine.variants.cities_knights.progress import Knight, Progress, Retreat

if TYPE_CHECKING:
    from hexlan.engine.options import GameOptions
    from hexlan.engine.position_fields import ProgressFields
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology

_EVENT_NODE: Final = ChanceNode(UNIFORM, "event", EVENT_DICE, (6,))
_EVENT_OUTCOMES: Final = [(die, 1 / 6) for die in EVENT_DICE]
_COMMODITY_OF: Final = (
    int(Resource.PAPER),  # lumber (forest)
    -1,  # brick
    int(Resource.CLOTH),  # wool (pasture)
    -1,  # grain
    int(Resource.COIN),  # ore (mountains)
)


def progress_of(state: GameState) -> Progress:
    """The Cities & Knights progress of ``state``.

    Raises:
        EngineError: ``state`` is not a Cities & Knights game.
    """
    progress = state.variant_state
    if not isinstance(progress, Progress):
        raise EngineError("this is not a Cities & Knights game")
    return progress


class CitiesKnights(Variant):
    """Cities & Knights' hooks (see the module docstring).

    Raises:
        EngineError: the rule set lacks the commodities or a ``[cities_knights]`` number.
    """

    name: ClassVar[str] = "cities-and-knights"
    city_commodities: ClassVar[tuple[int, ...] | None] = _COMMODITY_OF
    position_fields: ClassVar[ProgressFields[Any] | None] = POSITION

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        super().__init__(rules, options, topology)
        if rules.kinds != len(Resource):
            raise EngineError("Cities & Knights needs the five resources and three commodities")
        if not set(TRACKS) <= set(rules.decks):
            raise EngineError(f"Cities & Knights needs the progress decks {', '.join(TRACKS)}")
        self.decks = [rules.decks[track] for track in TRACKS]
        self.deck_sizes = tuple(sum(deck) for deck in self.decks)
        self.card_names = [tuple(rules.raw["decks"][track]) for track in TRACKS]
        try:
            self.config = Config(rules.raw["cities_knights"], rules.kinds, options)
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError(f"the [cities_knights] table of {rules.name!r}: {exc}") from exc
        self._picks = {r: one_kind(r, 1, rules.kinds) for r in RESOURCES}

    # ------------------------------------------------------------------ hooks

    def prepare_state(self, state: GameState) -> None:
        """The game's progress: nothing built, the barbarians at the far end of their track."""
        progress = Progress.start(state.players, self.decks)
        if self.config.points_at_once:  # never held (official): shown when drawn
            progress.unheld = tuple(
                frozenset(f for f, n in enumerate(names) if n in progress_play.POINT_CARDS)
                for names in self.card_names
            )
        state.variant_state = progress

    def setup_city(self, state: GameState) -> bool:
        """The second set-up building is a city (seed 002: «не два поселения, а поселение, а
        затем город»)."""
        return state.setup_step >= state.players

    def robber_locked(self, state: GameState) -> bool:
        """Until the barbarians first attack, a 7 moves no robber (official)."""
        return not progress_of(state).arrived

    def hand_limit_bonus(self, state: GameState, seat: Seat) -> int:
        """Two cards per city wall (seed 002 «Крепостная стена»)."""
        return self.config.wall_bonus * len(progress_of(state).walls[seat])

    def roll_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """The Alchemist, played before the roll (:mod:`.progress_board`)."""
        candidates = progress_cards.discard_choices(progress_of(state), seat)
        result.extend(progress_board.roll_plays(self.card_names, candidates))

    def next_victim(self, state: GameState) -> Seat:
        """The next seat the Bishop robs (:mod:`.progress_board`)."""
        return progress_board.next_victim(progress_of(state))

    def dice_rolled(self, state: GameState, dice: A.Dice) -> bool:
        """The red and yellow dice are down: the event die is rolled next, and settled before
        production (official)."""
        state.phase = KnightsPhase.EVENT
        return True

    def after_roll(self, state: GameState, total: int) -> None:
        """Note the hands before production (the aqueduct pays seats it gives nothing)."""
        progress_of(state).hands_before = state.hand_size[:]

    def after_production(self, state: GameState, total: int) -> None:
        """Seats with the aqueduct that the roll gave nothing each pick a resource (seed 002:
        «если бросок кубиков не даёт вам права получить ресурсы»)."""
        progress = progress_of(state)
        before, level = progress.hands_before, self.config.ability_level
        order = [(state.active + i) % state.players for i in range(state.players)]
        progress.aqueduct = [
            s
            for s in order
            if progress.levels[s][SCIENCE] >= level and state.hand_size[s] <= before[s]
        ]
        progress.hands_before = []
        if progress.aqueduct and any(state.bank[r] for r in RESOURCES):
            state.phase = KnightsPhase.AQUEDUCT
        else:
            progress.aqueduct = []

    def turn_started(self, state: GameState) -> None:
        """A new turn: no knight is fresh or promoted in it yet; the last turn's Smith, Crane
        and Merchant Fleet are spent."""
        progress = progress_of(state)
        progress.fresh.clear()
        progress.promoted.clear()
        progress.free_promotions = 0
        progress.crane = False
        progress.monopolised = False
        progress.merchant = NO_SEAT
        progress.spy = NO_SEAT
        if progress.fleet is not None:  # the Merchant Fleet's turn is over
            seat, kind = progress.fleet
            level = self.config.ability_level
            state.ratios[seat][kind] = improvements.bank_ratio(state, progress, seat, kind, level)
            progress.fleet = None

    def chance_node(self, state: GameState) -> ChanceNode | None:
        """In :attr:`KnightsPhase.EVENT`: the event die, a beacon event ``"event"``; in
        :attr:`KnightsPhase.PROGRESS`: the drawer's card from its track's deck (the rule set's
        ``trade``, ``politics`` or ``science``)."""
        if state.phase is KnightsPhase.EVENT:
            return _EVENT_NODE
        if state.phase is KnightsPhase.PROGRESS:
            seat, track = progress_of(state).draws[0]
            return ChanceNode(DECK_DRAW, "draw", deck=TRACKS[track], seats=(seat,))
        if state.phase is KnightsPhase.MERCHANT_SHOW:
            return progress_hands.merchant_node(state, progress_of(state))
        if state.phase is KnightsPhase.SPY_SHOW:
            return progress_spy.spy_node(state, progress_of(state))
        if state.phase is KnightsPhase.POINT_SHOW:
            showing = progress_of(state).showing
            assert showing is not None
            return ChanceNode(REVEAL, POINT_REVEAL, seats=(showing[0],), deck=TRACKS[showing[1]])
        return None

    def chance_outcomes(self, state: GameState) -> list[tuple[A.Action, float]]:
        """In :attr:`KnightsPhase.EVENT`: each face, 1/6; in :attr:`KnightsPhase.PROGRESS`:
        each unseen card (:func:`.progress_cards.outcomes`)."""
        if state.phase is KnightsPhase.EVENT:
            return list(_EVENT_OUTCOMES)
        if state.phase is KnightsPhase.PROGRESS:
            return progress_cards.outcomes(state, progress_of(state))
        if state.phase is KnightsPhase.MERCHANT_SHOW:
            return progress_hands.merchant_outcomes(state, progress_of(state))
        if state.phase is KnightsPhase.SPY_SHOW:
            return progress_spy.spy_outcomes(state, progress_of(state))
        if state.phase is KnightsPhase.POINT_SHOW:
            return progress_cards.point_outcomes(state, progress_of(state))
        return []

    def deck_outcome(self, state: GameState, face: int | None) -> A.Action:
        """The progress card of ``face`` (None: another seat's, unseen).

        Raises:
            EngineError: no progress card is being drawn.
        """
        if state.phase is not KnightsPhase.PROGRESS:
            raise EngineError("no progress card is being drawn")
        return progress_cards.HIDDEN_DRAW if face is None else ProgressDrawn(face)

    def observation(self, state: GameState, action: A.VariantAction, seat: Seat) -> A.Action:
        """A progress card drawn is seen by its drawer only."""
        if isinstance(action, ProgressDrawn) and seat != progress_of(state).draws[0][0]:
            return progress_cards.HIDDEN_DRAW
        if isinstance(action, HandShown | HandTake):
            return progress_hands.merchant_observation(state, progress_of(state), action, seat)
        if isinstance(action, DeckShown | DeckTake):
            return progress_spy.observation(state, progress_of(state), action, seat)
        return action

    def phase_seat(self, state: GameState) -> Seat:
        """Who decides in a phase of this game: the next seat to lose a city, the displaced
        knight's owner, the next seat taking the aqueduct's resource."""
        progress = progress_of(state)
        phase = state.phase
        if phase is KnightsPhase.PILLAGE:
            return barbarians.pillage_seat(progress)
        if phase is KnightsPhase.RETREAT:
            return NO_SEAT if progress.retreat is None else progress.retreat.knight.seat
        if phase is KnightsPhase.AQUEDUCT:
            return progress.aqueduct[0] if progress.aqueduct else NO_SEAT
        if phase is KnightsPhase.PROGRESS_CHOICE:
            return progress.choosing[0] if progress.choosing else NO_SEAT
        if phase is KnightsPhase.PROGRESS_DISCARD:
            return progress.over_limit
        if phase is KnightsPhase.WEDDING:
            return progress.wedding[0] if progress.wedding else NO_SEAT
        if phase is KnightsPhase.DESERTER:
            return progress.board.deserter
        if phase is KnightsPhase.HARBOR:
            return progress_hands.harbor_seat(state, progress)
        return state.active

    def phase_actions(self, state: GameState, seat: Seat) -> list[A.Action]:
        """The choices of :meth:`phase_seat`."""
        progress = progress_of(state)
        phase = state.phase
        if phase is KnightsPhase.PILLAGE:
            spots = barbarians.pillage_spots(state, progress, seat)
            return [PillageCity(seat, n) for n in spots]
        if phase is KnightsPhase.RETREAT and progress.retreat is not None:
            origin = progress.retreat.node  # taken by the displacer, or left by Intrigue
            spots = knights.retreat_spots(state, seat, origin)
            return [RetreatKnight(seat, n) for n in spots if n != origin]
        if phase is KnightsPhase.AQUEDUCT:
            return [AqueductPick(seat, r) for r in RESOURCES if state.bank[r]]
        if phase is KnightsPhase.PROGRESS_CHOICE:
            sizes = self.deck_sizes
            return [
                ChooseProgress(seat, t)
                for t in range(len(TRACKS))
                if progress_cards.deck_left(progress, sizes, t)
            ]
        if phase is KnightsPhase.PROGRESS_DISCARD:
            choices = progress_cards.discard_choices(progress, seat)
            return [DiscardProgress(seat, t, f) for t, f in choices]
        if phase is KnightsPhase.WEDDING:
            return [GiveCards(seat, h) for h in progress_play.gifts(state, seat)]
        if phase is KnightsPhase.DESERTER:
            return progress_board.desert_actions(progress, seat)
        if phase is KnightsPhase.DESERTER_PLACE:
            return progress_board.place_actions(state, seat)
        if phase is KnightsPhase.HARBOR:
            return progress_hands.harbor_actions(state, progress, seat)
        if phase is KnightsPhase.MERCHANT:
            return progress_hands.merchant_takes(state, progress)
        if phase is KnightsPhase.SPY:
            return progress_spy.takes(state, progress)
        return []

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Knights built, activated, promoted, moved or sent after the robber; walls; city
        improvements (seed 002)."""
        if state.phase is not Phase.MAIN:
            return
        progress, config = progress_of(state), self.config
        covers = state.hand_covers
        per_level = config.knights_per_level
        if knights.pieces_left(progress, seat, 1, per_level) > 0 and covers(
            seat, config.knight_cost
        ):
            result.extend(BuildKnight(n) for n in knights.build_spots(state, seat))
        can_activate = covers(seat, config.activate_cost)
        can_promote = progress.free_promotions > 0 or covers(seat, config.promote_cost)
        robber_nodes = (
            set(self.topology.hex_nodes[state.robber])
            if progress.arrived and state.robber >= 0
            else set()
        )
        for node, knight in progress.knights_of(seat):
            if not knight.active and can_activate:
                result.append(ActivateKnight(node))
            if can_promote and self._may_promote(progress, seat, node, knight):
                result.append(PromoteKnight(node))
            if knight.active and node not in progress.fresh:
                result.extend(
                    MoveKnight(node, t) for t in knights.move_targets(state, progress, node)
                )
                if node in robber_nodes:
                    result.append(ChaseRobber(node))
        if len(progress.walls[seat]) < config.walls and covers(seat, config.wall_cost):
            walled = set(progress.walls[seat])
            result.extend(BuildWall(n) for n in sorted(state.cities[seat]) if n not in walled)
        for track in range(len(TRACKS)):
            if improvements.why_not_improve(state, progress, seat, track, config):
                continue
            if improvements.takes_metropolis(progress, seat, track, config.metropolis_level):
                spots = improvements.free_cities(state, progress, seat)
                result.extend(ImproveCity(track, n) for n in spots)
            else:
                result.append(ImproveCity(track, -1))
        candidates = progress_cards.discard_choices(progress, seat)
        result.extend(
            progress_play.plays(state, progress, config, self.card_names, seat, candidates)
        )

    def _may_promote(self, progress: Progress, seat: Seat, node: int, knight: Knight) -> bool:
        """A knight below mighty, not promoted this turn, with a piece of the next level free;
        to mighty only with politics at the third level (seed 002; official: once a turn)."""
        config = self.config
        return (
            knight.level < 3
            and node not in progress.promoted
            and knights.pieces_left(progress, seat, knight.level + 1, config.knights_per_level) > 0
            and (knight.level < 2 or progress.levels[seat][POLITICS] >= config.ability_level)
        )

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """The game's progress (:class:`Progress`), all public."""
        return {"cities_knights": progress_of(state).public_dict()}

    # ------------------------------------------------------------------ apply

    def _on_event(self, state: GameState, action: EventDie) -> None:
        barbarians.event_rolled(state, progress_of(state), action.symbol, self.config)
        self._go_on(state)

    def _go_on(self, state: GameState) -> None:
        """What the event die set in motion, in order: the lost attack's pillage, the tied
        defenders' choices of deck, a discard over the progress-card limit, the progress cards
        due; then the red and yellow dice produce, or their 7 begins."""
        progress = progress_of(state)
        progress_cards.drop_empty(progress, self.deck_sizes)
        if progress.showing is not None:  # a card just drawn: a point card is shown at once
            state.phase = KnightsPhase.POINT_SHOW
        elif progress.pillage:
            state.phase = KnightsPhase.PILLAGE
        elif progress.choosing:
            state.phase = KnightsPhase.PROGRESS_CHOICE
        elif progress.over_limit >= 0:
            state.phase = KnightsPhase.PROGRESS_DISCARD
        elif progress.draws:
            state.phase = KnightsPhase.PROGRESS
        else:
            assert state.dice is not None
            state.roll_pending = False
            state.finish_roll(state.dice.total)

    def _on_pillage(self, state: GameState, action: PillageCity) -> None:
        barbarians.pillage(state, progress_of(state), action.seat, action.node)
        self._go_on(state)

    def _on_choose_progress(self, state: GameState, action: ChooseProgress) -> None:
        progress = progress_of(state)
        progress.choosing.remove(action.seat)
        progress.draws.append((action.seat, action.track))
        self._go_on(state)

    def _on_progress_drawn(self, state: GameState, action: ProgressDrawn) -> None:
        progress = progress_of(state)
        if state.record_events:
            state.last_events.append(E.ProgressCardDrawn(*progress.draws[0]))
        progress_cards.drawn(progress, action.face, self.config.progress_hand)
        self._go_on(state)

    def _on_point_shown(self, state: GameState, action: PointShown) -> None:
        """The drawer shows its point card (1 victory point, at once) or that it drew none
        (official: «played immediately», even out of turn)."""
        progress = progress_of(state)
        shown = progress_cards.point_shown(state, progress, action, self.config.progress_hand)
        if shown and state.record_events:
            name = self.card_names[action.track][action.face]
            state.last_events.append(E.ProgressCardPlayed(action.seat, action.track, name, -1))
        self._go_on(state)

    def _on_discard_progress(self, state: GameState, action: DiscardProgress) -> None:
        progress_cards.discard(progress_of(state), action.seat, action.track, action.face)
        self._go_on(state)

    def _on_build_knight(self, state: GameState, action: BuildKnight) -> None:
        seat = state.active
        state.pay_bank(seat, self.config.knight_cost)
        knights.place(state, progress_of(state), action.node, Knight(seat, 1))

    def _on_activate(self, state: GameState, action: ActivateKnight) -> None:
        progress = progress_of(state)
        state.pay_bank(state.active, self.config.activate_cost)
        progress.knights[action.node] = replace(progress.knights[action.node], active=True)
        progress.fresh.add(action.node)

    def _on_promote(self, state: GameState, action: PromoteKnight) -> None:
        progress = progress_of(state)
        if progress.free_promotions > 0:  # the Smith's
            progress.free_promotions -= 1
        else:
            state.pay_bank(state.active, self.config.promote_cost)
        knight = progress.knights[action.node]
        progress.knights[action.node] = replace(knight, level=knight.level + 1)
        progress.promoted.add(action.node)

    def _on_move(self, state: GameState, action: MoveKnight) -> None:
        """The knight walks (and goes inactive, seed 002: «совершив действие, рыцарь
        дезактивируется»); a knight on the target is displaced and its owner moves it, or it
        leaves the board when its roads lead nowhere empty (official)."""
        progress = progress_of(state)
        knight = knights.lift(state, progress, action.node)
        displaced = progress.knights.get(action.target)
        if displaced is not None:
            knights.lift(state, progress, action.target)
        knights.place(state, progress, action.target, replace(knight, active=False))
        if displaced is not None and state.record_events:
            state.last_events.append(E.KnightDisplaced(displaced.seat, displaced.level))
        if displaced is not None and knights.retreat_spots(state, displaced.seat, action.target):
            progress.retreat = Retreat(displaced, action.target)
            state.phase = KnightsPhase.RETREAT

    def _on_retreat(self, state: GameState, action: RetreatKnight) -> None:
        progress = progress_of(state)
        assert progress.retreat is not None
        knights.place(state, progress, action.node, progress.retreat.knight)
        progress.retreat = None
        state.phase = Phase.MAIN

    def _on_chase(self, state: GameState, action: ChaseRobber) -> None:
        """The knight goes inactive and the robber moves and robs as after a 7 (seed 002:
        «Отыгрывается это так же, как и игра карточки развития «Рыцарь»»)."""
        progress = progress_of(state)
        progress.knights[action.node] = replace(progress.knights[action.node], active=False)
        state.robber_resume = Phase.MAIN
        state.phase = Phase.MOVE_ROBBER

    def _on_wall(self, state: GameState, action: BuildWall) -> None:
        seat = state.active
        state.pay_bank(seat, self.config.wall_cost)
        progress_of(state).walls[seat].append(action.node)

    def _on_improve(self, state: GameState, action: ImproveCity) -> None:
        progress = progress_of(state)
        improvements.improve(
            state, progress, state.active, action.track, action.metropolis, self.config
        )

    def _on_play_progress(self, state: GameState, action: PlayProgress) -> None:
        progress = progress_of(state)
        name = self.card_names[action.track][action.face]
        if state.record_events:
            state.last_events.append(
                E.ProgressCardPlayed(state.active, action.track, name, action.choice)
            )
        progress.lose(state.active, action.track, action.face)
        if name in progress_board.BOARD_CARDS:
            progress_board.play(state, progress, name, action.choice, self.config)
        else:
            progress_play.play(state, progress, name, action.choice)

    def _on_desert(self, state: GameState, action: DesertKnight) -> None:
        progress_board.desert(state, progress_of(state), action, self.config)

    def _on_place_deserter(self, state: GameState, action: PlaceDeserter) -> None:
        progress_board.place_deserted(state, progress_of(state), action)

    def _on_give(self, state: GameState, action: GiveCards) -> None:
        progress = progress_of(state)
        state.hand_pay(action.seat, action.cards)
        state.hand_gain(state.active, action.cards)
        progress.wedding.remove(action.seat)
        if not progress.wedding:
            state.phase = Phase.MAIN

    def _on_harbor_offer(self, state: GameState, action: HarborOffer) -> None:
        progress_hands.offer(state, progress_of(state), action)

    def _on_harbor_answer(self, state: GameState, action: HarborAnswer) -> None:
        progress_hands.answer(state, progress_of(state), action)

    def _on_hand_shown(self, state: GameState, action: HandShown) -> None:
        progress_hands.shown(state, progress_of(state), action)

    def _on_merchant_take(self, state: GameState, action: HandTake) -> None:
        progress_hands.take(state, progress_of(state), action)

    def _on_progress_shown(self, state: GameState, action: DeckShown) -> None:
        progress_spy.shown(state, progress_of(state), action)

    def _on_spy_take(self, state: GameState, action: DeckTake) -> None:
        progress_spy.take(state, progress_of(state), action)

    def _on_aqueduct(self, state: GameState, action: AqueductPick) -> None:
        progress = progress_of(state)
        state.take_from_bank(action.seat, self._picks[action.resource])
        progress.aqueduct.remove(action.seat)
        if not progress.aqueduct or not any(state.bank[r] for r in RESOURCES):
            progress.aqueduct = []
            state.phase = Phase.MAIN

    # ------------------------------------------------------------------ rejections

    def why_illegal(self, state: GameState, action: A.Action) -> tuple[str, str] | None:
        """The Cities & Knights rule an action breaks, in words (:mod:`.rejections`)."""
        return rejections.why_illegal(
            state, progress_of(state), self.config, self.card_names, action
        )

    def hidden_card(self, action: A.VariantAction) -> tuple[str, int, str] | None:
        """A progress card played or discarded over the limit: its deck (``trade``,
        ``politics``, ``science``), face and name (it may be played or discarded in the turn it
        was drawn: official); a network game shows either the same way before the action."""
        if isinstance(action, PointShown) and action.face < 0:
            return None  # no card shown: the end-of-game audit checks the claim
        if not isinstance(action, PlayProgress | DiscardProgress | PointShown):
            return None
        if not 0 <= action.track < len(TRACKS):
            return None
        names = self.card_names[action.track]
        if not 0 <= action.face < len(names):
            return None
        return TRACKS[action.track], action.face, names[action.face].replace("_", " ")

    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (
        EventDie,
        BuildKnight,
        ActivateKnight,
        PromoteKnight,
        MoveKnight,
        ChaseRobber,
        RetreatKnight,
        BuildWall,
        ImproveCity,
        PillageCity,
        AqueductPick,
        ProgressDrawn,
        ChooseProgress,
        DiscardProgress,
        PlayProgress,
        GiveCards,
        DesertKnight,
        PlaceDeserter,
        HarborOffer,
        HarborAnswer,
        HandShown,
        HandTake,
        DeckShown,
        DeckTake,
        PointShown,
    )
    handlers: ClassVar[Mapping[type[A.VariantAction], VariantHandler]] = {
        EventDie: _on_event,
        BuildKnight: _on_build_knight,
        ActivateKnight: _on_activate,
        PromoteKnight: _on_promote,
        MoveKnight: _on_move,
        ChaseRobber: _on_chase,
        RetreatKnight: _on_retreat,
        BuildWall: _on_wall,
        ImproveCity: _on_improve,
        PillageCity: _on_pillage,
        AqueductPick: _on_aqueduct,
        ProgressDrawn: _on_progress_drawn,
        PointShown: _on_point_shown,
        ChooseProgress: _on_choose_progress,
        DiscardProgress: _on_discard_progress,
        PlayProgress: _on_play_progress,
        GiveCards: _on_give,
        DesertKnight: _on_desert,
        PlaceDeserter: _on_place_deserter,
        HarborOffer: _on_harbor_offer,
        HarborAnswer: _on_harbor_answer,
        HandShown: _on_hand_shown,
        HandTake: _on_merchant_take,
        DeckShown: _on_progress_shown,
        DeckTake: _on_spy_take,
    }
    phases: ClassVar[tuple[GamePhase, ...]] = tuple(KnightsPhase)
    chance_phases: ClassVar[frozenset[GamePhase]] = frozenset(
        {
            KnightsPhase.EVENT,
            KnightsPhase.PROGRESS,
            KnightsPhase.MERCHANT_SHOW,
            KnightsPhase.SPY_SHOW,
            KnightsPhase.POINT_SHOW,
        }
    )


SPEC: Final = GameSpec(
    name=CitiesKnights.name,
    rules=CitiesKnights,
    place=5,
    options=(
        GameOption(
            "ck_improve_without_city",
            False,
            lambda on: "city improvements need no city" if on else "city improvements need a city",
        ),
        GameOption(
            "ck_knights_active_after_win",
            False,
            lambda on: (
                "knights stay active after a won attack"
                if on
                else "every knight goes inactive after an attack"
            ),
        ),
        GameOption(
            "ck_one_monopoly_per_turn",
            False,
            lambda on: "one monopoly a turn" if on else "any number of monopolies a turn",
        ),
        GameOption(
            "ck_point_cards_in_hand",
            False,
            lambda on: (
                "Printer and Constitution are held till their holder's turn"
                if on
                else "Printer and Constitution are shown when drawn"
            ),
        ),
    ),
    dice=(
        DieSpec(
            "event die",
            EventDie,
            lambda roll: roll.symbol if isinstance(roll, EventDie) else -1,
            ("ship", "trade gate", "politics gate", "science gate"),
            tuple(EVENT_FACES.count(s) / len(EVENT_FACES) for s in range(4)),
        ),
    ),
    tellers=("hexlan.net.tellers.cities_knights", "hexlan.net.tellers.board_cards"),
    keys=("hexlan.tui.games.cities_knights",),
    views=(
        "hexlan.tui.board_knights",
        "hexlan.tui.games.cities_knights_panel",
        "hexlan.tui.screens.knights",
    ),
    bots=("hexlan.engine.bots.knights", "hexlan.engine.bots.board_cards"),
    cheats=("hexlan.net.redteam_knights",),
)
"""Cities & Knights (seed 002 «Города и рыцари»; docs/rules/cities-and-knights.md). Its options:
``ck_improve_without_city``, a seat without a city may build city improvements (seed 002: «не
требуют наличия города у игрока»; officially it needs one; a level that wins a metropolis still
needs a city to put it on); ``ck_knights_active_after_win``, after an attack Catan holds the
knights stay active (seed 002 sends knights inactive only after a lost attack; officially every
knight goes inactive after either outcome); ``ck_one_monopoly_per_turn``, a seat plays at most
one Resource or Trade Monopoly a turn (hexlan's older reading; officially, and in seed 002 «За
один ход можно играть сколько угодно карточек», any number); ``ck_point_cards_in_hand``, a
Printer or Constitution drawn is held, counts toward the progress-card limit, may be taken by the
Spy and is played in its holder's main phase (hexlan's older reading; officially it is shown at
once when drawn, even out of turn, never held)."""


__all__ = ["SPEC", "CitiesKnights", "Progress", "progress_of"]
