"""Cities & Knights' choices for the heuristic bot (seed 002 «Города и рыцари»;
docs/rules/cities-and-knights.md): what the expansion adds to a turn, before the bot's general
play, and the city improvement it saves for as one of its goals.

The plan: keep a knight per city (two at least), activate them while the barbarian ship is near,
promote them when the hand allows, and while the barbarians are near when the seat's active
knights are not the strongest; improve the track whose commodity the seat makes most (a
metropolis is worth two points); wall cities when the hand runs big; give the barbarians the
poorest city. Knights at work (:func:`knight_post`): build one where it is worth most; send one
after the robber when it sits on the seat's own hex (activating a knight beside it, or walking
an active one there first); walk an active knight to an empty end of an opponent's road, to
block it, and displace a weaker opponent knight standing on an end of the seat's roads; while
the barbarians are near, a knight acts only when the hand can feed it again. A displaced knight
retreats where it is worth most (:func:`retreat_post`: its worth at work, and beside the hexes
the seat's buildings produce from, where the robber may come). Progress
cards: points at once; the harvests, Road Building, Engineer, Medicine, the Saboteur, the
Wedding and Intrigue when they can be played (a Wedding's gift: the cards it holds most of); the Smith with a knight to promote; the Crane when the hand is one
commodity short of an improvement; the Merchant Fleet on a kind it holds four of; the Diplomat
on a road of another seat's holding the Longest Road; the Warlord while the barbarians are
near; the board cards as :mod:`.board_cards` says; a Resource or Trade Monopoly on the kind
the others may hand over most of (two cards at least); the Commercial Harbor and the Master
Merchant at once (taking commodities first; offering the resource it holds most of, answering
with the commodity it holds most of); the Spy at once, on the seat holding most progress cards
(the leader among them), taking the card it ranks highest (:func:`_card_value`). Over the limit it
discards the card it ranks lowest.

Registered for the Cities & Knights rules (:mod:`hexlan.engine.bots.knowledge`): its choices
come before the bot's general play, and the improvement is one of the bot's goals.
"""

from __future__ import annotations

from typing import Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import PIPS
from hexlan.engine.bots.board_cards import board_card_choice
from hexlan.engine.bots.goals import Goal
from hexlan.engine.bots.knowledge import KNOWLEDGE, GameKnowledge
from hexlan.engine.core import NO_SEAT, RESOURCES, Hand, NodeId, Phase, Resource, Seat
from hexlan.engine.shown import (
    NO_TAKE,
    DeckTake,
    HandTake,
)
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    TRACK_COMMODITY,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DiscardProgress,
    GiveCards,
    HarborAnswer,
    HarborOffer,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.improvements import improvement_cost, takes_metropolis
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.engine.variants.cities_knights.progress_hands import (
    MONOPOLY_CAPS,
    MONOPOLY_KINDS,
)
from hexlan.engine.variants.cities_knights.progress_play import PLAYABLE, POINT_CARDS
from hexlan.engine.variants.cities_knights.progress_spy import (
    victims,
)

DANGER_STEPS: Final = 3
"""Steps before the barbarians land from which the bot activates its knights."""
BIG_HAND: Final = 7
"""Cards from which the bot spends on walls, promotions and activations rather than save."""
FLEET_CARDS: Final = 4
"""Cards of a kind from which the bot plays a Merchant Fleet on it."""
MOVE_GAIN: Final = 2.0
"""How much better (:func:`knight_post`) a knight's new intersection must be for the bot to
walk it there."""
ROBBER_POST: Final = 4.0
"""What standing beside the robber on one of the seat's own hexes is worth (a chase next)."""
GUARD_VALUE: Final = 0.04
"""What a knight beside a hex the seat produces from is worth, per dot of the hex's token and
per card its buildings there take (a settlement one, a city two): where the robber comes, a
knight beside it can chase it (seed 002 «Прогнать разбойника»)."""
IMPROVEMENT_VALUE: Final = (0.5, 0.55, 0.9, 2.0, 2.0)
"""What the bot deems each level of a track worth (rough victory points): the third opens an
ability, the fourth and fifth may win a metropolis (two points)."""


def improvement_goal(view: GameState, seat: Seat) -> tuple[Hand, float] | None:
    """The city improvement worth saving for, as ``(cost, value)``: the track whose next level
    is worth most per commodity still missing; None outside Cities & Knights or with no city
    (where one is needed)."""
    variant = view.variant
    if not isinstance(variant, CitiesKnights):
        return None
    if variant.config.city_for_improvement and not view.cities[seat]:
        return None
    progress, config = progress_of(view), variant.config
    hand = view.hands[seat]
    best: tuple[float, Hand, float] | None = None
    for track in range(len(TRACKS)):
        level = progress.levels[seat][track]
        if level >= config.top_level:
            continue
        cost = improvement_cost(view, progress, seat, track)
        value = IMPROVEMENT_VALUE[level]
        if level + 1 >= config.metropolis_level and not takes_metropolis(
            progress, seat, track, config.metropolis_level
        ):
            value = IMPROVEMENT_VALUE[0]
        lack = max(0, level + 1 - hand[TRACK_COMMODITY[track]])
        score = value / (1 + lack)
        if best is None or score > best[0]:
            best = (score, cost, value)
    return None if best is None else (best[1], best[2])


def improvement_goals(view: GameState, seat: Seat) -> list[Goal]:
    """The improvement worth saving for (:func:`improvement_goal`) as the bot's goal, if any."""
    found = improvement_goal(view, seat)
    return [] if found is None else [Goal("improve", found[0], found[1])]


def knights_choice(view: GameState, seat: Seat, legal: list[Action]) -> Action | None:
    """The expansion's move for ``seat`` now, or None to let the general play decide (a city or
    settlement first, trades, the end of the turn).

    Args:
        view: the seat's view of a Cities & Knights game (any other game: None).
        seat: the deciding seat.
        legal: its legal actions now.
    """
    variant = view.variant
    if not isinstance(variant, CitiesKnights):
        return None
    if view.phase is Phase.MAIN:
        return _main_choice(view, variant, seat, legal)
    return _phase_choice(view, variant, seat, legal)


def _phase_choice(
    view: GameState, variant: CitiesKnights, seat: Seat, legal: list[Action]
) -> Action | None:
    """The seat's choice in one of the expansion's own phases (a retreat, a pillage, a card's
    choice), or in the roll phase (the Alchemist); None in any other."""
    phase = view.phase
    if phase is KnightsPhase.RETREAT:  # its displaced knight, where it is worth most
        retreats = [a for a in legal if isinstance(a, RetreatKnight)]
        return max(retreats, key=lambda a: retreat_post(view, seat, a.node))
    if phase is KnightsPhase.PILLAGE:
        return min(legal, key=lambda a: _city_pips(view, a))
    if phase is KnightsPhase.AQUEDUCT:
        return min(legal, key=lambda a: _held(view, seat, a))
    if phase is KnightsPhase.PROGRESS_DISCARD:  # a card it cannot play; a point card never
        return min(legal, key=lambda a: _keep_value(variant, a))
    if phase is KnightsPhase.HARBOR:
        return _harbor_choice(view, seat, legal)
    if phase is KnightsPhase.MERCHANT:  # commodities first, then what it holds least of
        hand = view.hands[seat]
        return max(legal, key=lambda a: _take_value(hand, a))
    if phase is KnightsPhase.SPY:  # the card it ranks highest; nothing only if none is left
        return max(legal, key=lambda a: _spied_value(variant, a))
    if phase is KnightsPhase.WEDDING:  # the cards it holds most of
        gifts = [a for a in legal if isinstance(a, GiveCards)]
        hand = view.hands[seat]
        return max(gifts, key=lambda a: sum(h * c for h, c in zip(hand, a.cards, strict=True)))
    if phase in (Phase.ROLL, KnightsPhase.DESERTER, KnightsPhase.DESERTER_PLACE):
        return board_card_choice(view, seat, legal)  # the Alchemist; the Deserter's phases
    return None


def _main_choice(
    view: GameState, variant: CitiesKnights, seat: Seat, legal: list[Action]
) -> Action | None:
    """The seat's expansion move in its main phase: a card or the robber first
    (:func:`_card_or_robber`), then its knights and cities (:func:`_knights_and_cities`); None
    to let the general play decide."""
    progress, config = progress_of(view), variant.config
    danger = progress.barbarians >= config.barbarian_track - DANGER_STEPS
    first = _card_or_robber(view, seat, legal, progress, danger)
    if first is not None:
        return first
    return _knights_and_cities(view, seat, legal, progress, danger)


def _card_or_robber(
    view: GameState, seat: Seat, legal: list[Action], progress: Progress, danger: bool
) -> Action | None:
    """A free promotion, a board or progress card worth playing, the robber chased off the
    seat's hexes or a knight beside it fed; else None."""
    promotions = [a for a in legal if isinstance(a, PromoteKnight)]
    if promotions and progress.free_promotions:
        return promotions[0]
    board_play = board_card_choice(view, seat, legal)  # Bishop, Deserter, Merchant, Inventor
    if board_play is not None:
        return board_play
    for action in legal:
        if isinstance(action, PlayProgress) and _worth_playing(view, seat, action, danger):
            return action
    if not _robber_on_own(view, seat):
        return None
    for action in legal:
        if isinstance(action, ChaseRobber):
            return action
    beside = set(view.topology.hex_nodes[view.robber])
    for action in legal:  # a knight beside the robber, fed now, chases it next turn
        if isinstance(action, ActivateKnight) and action.node in beside:
            return action
    return None


def _knights_and_cities(
    view: GameState, seat: Seat, legal: list[Action], progress: Progress, danger: bool
) -> Action | None:
    """A knight moved, fed, built or promoted, a city improved or walled, or None (a city or
    a settlement comes first, or nothing is worth it)."""
    own = progress.knights_of(seat)
    big = view.hand_size[seat] >= BIG_HAND
    # a knight acting goes inactive: near the barbarians only when a grain can wake it again
    may_act = not danger or view.hands[seat][Resource.GRAIN] >= 1
    walk = _best_walk(view, seat, legal) if may_act else None
    if walk is not None:
        return walk
    activations = [a for a in legal if isinstance(a, ActivateKnight)]
    if activations and (danger or big):
        return activations[0]
    improvements = [a for a in legal if isinstance(a, ImproveCity)]
    if improvements:
        return max(improvements, key=lambda a: (a.metropolis >= 0, progress.levels[seat][a.track]))
    builds = [a for a in legal if isinstance(a, BuildKnight)]
    if builds and len(own) < max(2, len(view.cities[seat])):
        return max(builds, key=lambda a: knight_post(view, seat, a.node))
    if any(isinstance(a, A.BuildCity | A.BuildSettlement) for a in legal):
        return None
    return _promotion_or_wall(view, seat, legal, progress, big=big, danger=danger)


def _promotion_or_wall(
    view: GameState, seat: Seat, legal: list[Action], progress: Progress, *, big: bool, danger: bool
) -> Action | None:
    """With a big hand (or, for a promotion, the barbarians near and the seat outmatched): a
    knight promoted, an active one first; else, with a big hand, a city wall; else None."""
    promotions = [a for a in legal if isinstance(a, PromoteKnight)]
    if promotions and (big or (danger and _outmatched(view, seat))):
        active = [a for a in promotions if progress.knights[a.node].active]
        return (active or promotions)[0]
    walls = [a for a in legal if isinstance(a, BuildWall)]
    if walls and big:
        return walls[0]
    return None


def knight_post(view: GameState, seat: Seat, node: NodeId) -> float:
    """What a knight of ``seat`` standing on ``node`` is worth to it, in rough points: beside the
    robber on one of the seat's hexes (:data:`ROBBER_POST`: a chase next), on an end of each
    opponent's road (a road it blocks, more where a settlement could go), less where the seat
    itself could settle (a knight would block its own building).

    Args:
        view: the seat's view of a Cities & Knights game.
        seat: the knight's owner.
        node: a land intersection.
    """
    topo = view.topology
    level, path_owner = view.node_level, view.path_owner
    free = not any(level[m] for m in topo.node_nodes[node])  # the distance rule
    value = 0.0
    if _robber_on_own(view, seat) and node in topo.hex_nodes[view.robber]:
        value += ROBBER_POST
    ends = [path_owner[p] for p in topo.node_paths[node] if path_owner[p] >= 0]
    theirs = sum(1 for owner in ends if owner != seat)
    value += theirs * (1.5 if free else 1.0)
    if free and theirs == 0 and seat in ends:
        value -= 1.0
    return value


def retreat_post(view: GameState, seat: Seat, node: NodeId) -> float:
    """What a displaced knight of ``seat`` is worth on ``node``, in rough points: its worth at
    work (:func:`knight_post`) and its guard of the seat's hexes around ``node``
    (:data:`GUARD_VALUE` per dot and building level).

    Args:
        view: the seat's view of a Cities & Knights game.
        seat: the knight's owner.
        node: a land intersection.
    """
    topo, tokens = view.topology, view.board.tokens
    level, owner = view.node_level, view.node_owner
    guard = 0
    for h in topo.node_hexes[node]:
        if view.hex_seats[h] >> seat & 1:
            cards = sum(level[m] for m in topo.hex_nodes[h] if owner[m] == seat)
            guard += PIPS[tokens[h]] * cards
    return knight_post(view, seat, node) + GUARD_VALUE * guard


def _best_walk(view: GameState, seat: Seat, legal: list[Action]) -> MoveKnight | None:
    """The knight move (or displacement) most worth making, or None when none gains
    :data:`MOVE_GAIN`: pushing an opponent knight off an end of the seat's roads (where it
    blocks them) is worth two and its level more."""
    knights = progress_of(view).knights
    best: tuple[float, MoveKnight] | None = None
    for action in legal:
        if not isinstance(action, MoveKnight):
            continue
        gain = knight_post(view, seat, action.target) - knight_post(view, seat, action.node)
        if action.target in knights:  # a displacement: the opponent's knight is pushed away
            gain += 2.0 + knights[action.target].level
        if gain >= MOVE_GAIN and (best is None or gain > best[0]):
            best = (gain, action)
    return None if best is None else best[1]


def _outmatched(view: GameState, seat: Seat) -> bool:
    """Whether another seat's active knights are as strong as the seat's or stronger (a
    promotion may win the Defender of Catan point), or the seat's fall short of the cities."""
    progress = progress_of(view)
    mine = progress.strength(seat)
    others = max(progress.strength(s) for s in range(view.players) if s != seat)
    return mine <= others or mine < sum(len(c) for c in view.cities)


_AT_ONCE: Final = frozenset(
    {
        "printer",
        "constitution",
        "irrigation",
        "mining",
        "road_building",
        "engineer",
        "medicine",
        "saboteur",
        "wedding",
        "intrigue",
    }
)
"""Progress cards the bot plays as soon as it may."""


def _worth_playing(view: GameState, seat: Seat, action: PlayProgress, danger: bool) -> bool:
    """Whether the bot plays this progress card now (see the module docstring)."""
    variant = view.variant
    assert isinstance(variant, CitiesKnights)
    name = variant.card_names[action.track][action.face]
    if name in _AT_ONCE:
        return True
    progress = progress_of(view)
    if name == "smith":
        return any(k.level < 2 for _, k in progress.knights_of(seat))
    if name == "crane":
        return any(
            0 < level < variant.config.top_level and view.hands[seat][TRACK_COMMODITY[t]] >= level
            for t, level in enumerate(progress.levels[seat])
        )
    if name == "merchant_fleet":
        hand = view.hands[seat]
        return hand[action.choice] >= FLEET_CARDS and hand[action.choice] == max(hand)
    if name in MONOPOLY_CAPS:
        return monopoly_worth(view, seat, name, action.choice)
    if name in ("commercial_harbor", "master_merchant"):
        return True
    if name == "spy":  # the seat holding most progress cards, the leader among them
        return action.choice == max(
            victims(progress, seat), key=lambda s: (progress.held(s), view.public_vp[s])
        )
    if name == "diplomat":
        holder = view.longest_road_holder
        return holder not in (NO_SEAT, seat) and view.path_owner[action.choice] == holder
    return name == "warlord" and danger


def monopoly_worth(view: GameState, seat: Seat, name: str, kind: int) -> bool:
    """Whether a monopoly card ``name`` on ``kind`` is the best of its kinds and may take two
    cards or more (judged from the most each other seat may hold)."""

    def takes(k: int) -> int:
        cap = MONOPOLY_CAPS[name]
        return sum(min(view.hands[s][k], cap) for s in range(view.players) if s != seat)

    best = max(MONOPOLY_KINDS[name], key=takes)
    return kind == best and takes(best) >= 2


def _harbor_choice(view: GameState, seat: Seat, legal: list[Action]) -> Action:
    """The Commercial Harbor: offer the resource the seat holds most of; answer with the
    commodity it holds most of (passing a seat by, or holding none, last)."""
    hand = view.hands[seat]

    def held(action: Action) -> int:
        kind = action.offer if isinstance(action, HarborOffer) else -1
        if isinstance(action, HarborAnswer):
            kind = action.commodity
        return hand[kind] if kind >= 0 else -1

    return max(legal, key=held)


def _take_value(hand: list[int], action: Action) -> float:
    """How much the bot wants the Master Merchant's take: two points a commodity, one a
    resource, less a little for each card of the kind it holds already."""
    taken = action.taken if isinstance(action, HandTake) else None
    if taken is None:
        return 0.0
    return sum(
        n * ((2.0 if kind >= len(RESOURCES) else 1.0) - 0.1 * hand[kind])
        for kind, n in enumerate(taken)
    )


def _keep_value(variant: CitiesKnights, action: Action) -> int:
    """How much the bot wants to keep the progress card a discard offers
    (:func:`_card_value`)."""
    if not isinstance(action, DiscardProgress):
        return 0
    return _card_value(variant, action.track, action.face)


def _spied_value(variant: CitiesKnights, action: Action) -> int:
    """How much the bot wants the card a Spy's take offers (:func:`_card_value`); -1 taking
    nothing, or a card unseen (another seat's take)."""
    if not isinstance(action, DeckTake) or action.deck == NO_TAKE or action.face is None:
        return -1
    return _card_value(variant, action.deck, action.face)


def _card_value(variant: CitiesKnights, track: int, face: int) -> int:
    """The bot's ranking of a progress card: 0 a card the engine does not play (a rule set's
    own), 1 one it plays, 2 a victory point."""
    name = variant.card_names[track][face]
    return 2 if name in POINT_CARDS else int(name in PLAYABLE)


def _city_pips(view: GameState, action: Action) -> int:
    """Dots of the hexes around a city offered to the barbarians."""
    if not isinstance(action, PillageCity):
        return 0
    tokens = view.board.tokens
    return sum(PIPS[tokens[h]] for h in view.topology.node_hexes[action.node])


def _robber_on_own(view: GameState, seat: Seat) -> bool:
    """Whether the robber sits on a hex where the seat has a building."""
    robber = view.robber
    return robber >= 0 and bool(view.hex_seats[robber] >> seat & 1)


def _held(view: GameState, seat: Seat, action: Action) -> int:
    """Cards of an aqueduct pick's resource the seat holds (the scarcest is picked)."""
    return view.hands[seat][action.resource] if isinstance(action, AqueductPick) else 0


KNOWLEDGE.register(CitiesKnights)(GameKnowledge(choice=knights_choice, goals=improvement_goals))
