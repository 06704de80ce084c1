"""Cities & Knights' choices for the heuristic bot (seed 002 «Города и рыцари»;
docs/rules/cities-and-knights.md): what the expansion adds to a turn, before the bot's general
play, and the city improvement it saves for as one of its goals.

The plan: keep a knight per city (two at least), activate them while the barbarian ship is near,
promote them when the hand allows; improve the track whose commodity the seat makes most (a
metropolis is worth two points); wall cities when the hand runs big; send a knight after the
robber when it sits on the seat's own hex; give the barbarians the poorest city. Progress
cards: points at once; the harvests, Road Building, Engineer, Medicine, the Saboteur, the
Wedding and Intrigue when they can be played (a Wedding's gift: the cards it holds most of); the Smith with a knight to promote; the Crane when the hand is one
commodity short of an improvement; the Merchant Fleet on a kind it holds four of; the Diplomat
on a road of another seat's holding the Longest Road; the Warlord while the barbarians are
near; a Resource or Trade Monopoly on the kind the others may hand over most of (two cards
at least); the Commercial Harbor and the Master Merchant at once (taking commodities first; offering the resource it holds most of, answering
with the commodity it holds most of). Over the limit it discards a card the engine does not play yet, a point card last.
"""

from __future__ import annotations

from typing import Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import PIPS
from hexlan.engine.core import NO_SEAT, RESOURCES, Hand, Phase, Seat
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
    MerchantTake,
    PillageCity,
    PlayProgress,
    PromoteKnight,
)
from hexlan.engine.variants.cities_knights.improvements import improvement_cost, takes_metropolis
from hexlan.engine.variants.cities_knights.progress_hands import MONOPOLY_CAPS, MONOPOLY_KINDS
from hexlan.engine.variants.cities_knights.progress_play import PLAYABLE, POINT_CARDS

DANGER_STEPS: Final = 3
"""Steps before the barbarians land from which the bot activates its knights."""
BIG_HAND: Final = 7
"""Cards from which the bot spends on walls, promotions and activations rather than save."""
FLEET_CARDS: Final = 4
"""Cards of a kind from which the bot plays a Merchant Fleet on it."""
IMPROVEMENT_VALUE: Final = (0.5, 0.55, 0.9, 2.0, 2.0)
"""What the bot deems each level of a track worth (rough victory points): the third opens an
ability, the fourth and fifth may win a metropolis (two points)."""


def improvement_goal(view: GameState, seat: Seat) -> tuple[Hand, float] | None:
    """The city improvement worth saving for, as ``(cost, value)``: the track whose next level
    is worth most per commodity still missing; None outside Cities & Knights or with no city."""
    variant = view.variant
    if not isinstance(variant, CitiesKnights) or not view.cities[seat]:
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
    phase = view.phase
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
    if phase is KnightsPhase.WEDDING:  # the cards it holds most of
        gifts = [a for a in legal if isinstance(a, GiveCards)]
        hand = view.hands[seat]
        return max(gifts, key=lambda a: sum(h * c for h, c in zip(hand, a.cards, strict=True)))
    if phase is not Phase.MAIN:
        return None
    progress, config = progress_of(view), variant.config
    own = progress.knights_of(seat)
    danger = progress.barbarians >= config.barbarian_track - DANGER_STEPS
    big = view.hand_size[seat] >= BIG_HAND
    promotions = [a for a in legal if isinstance(a, PromoteKnight)]
    if promotions and progress.free_promotions:
        return promotions[0]
    for action in legal:
        if isinstance(action, PlayProgress) and _worth_playing(view, seat, action, danger):
            return action
    activations = [a for a in legal if isinstance(a, ActivateKnight)]
    if activations and (danger or big):
        return activations[0]
    for action in legal:
        if isinstance(action, ChaseRobber) and _robber_on_own(view, seat):
            return action
    improvements = [a for a in legal if isinstance(a, ImproveCity)]
    if improvements:
        return max(improvements, key=lambda a: (a.metropolis >= 0, progress.levels[seat][a.track]))
    builds = [a for a in legal if isinstance(a, BuildKnight)]
    if builds and len(own) < max(2, len(view.cities[seat])):
        return builds[0]
    if any(isinstance(a, A.BuildCity | A.BuildSettlement) for a in legal):
        return None
    if promotions and big:
        return promotions[0]
    walls = [a for a in legal if isinstance(a, BuildWall)]
    if walls and big:
        return walls[0]
    return None


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
        kind = action.resource if isinstance(action, HarborOffer) else -1
        if isinstance(action, HarborAnswer):
            kind = action.commodity
        return hand[kind] if kind >= 0 else -1

    return max(legal, key=held)


def _take_value(hand: list[int], action: Action) -> float:
    """How much the bot wants the Master Merchant's take: two points a commodity, one a
    resource, less a little for each card of the kind it holds already."""
    taken = action.taken if isinstance(action, MerchantTake) else None
    if taken is None:
        return 0.0
    return sum(
        n * ((2.0 if kind >= len(RESOURCES) else 1.0) - 0.1 * hand[kind])
        for kind, n in enumerate(taken)
    )


def _keep_value(variant: CitiesKnights, action: Action) -> int:
    """How much the bot wants to keep the progress card a discard offers: 0 a card the engine
    does not play, 1 one it plays, 2 a victory point."""
    if not isinstance(action, DiscardProgress):
        return 0
    name = variant.card_names[action.track][action.face]
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
