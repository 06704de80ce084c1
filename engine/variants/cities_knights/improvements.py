"""Cities & Knights' city improvements, metropolises and city walls (seed 002 «Города и
рыцари»; official rules where it is silent; docs/rules/cities-and-knights.md).

- **Improvements.** Three tracks of five levels; level ``n`` of a track costs ``n`` of its
  commodity (seed 002: «Первое здание каждого типа стоит одну единицу ... до последнего ... 5
  карточек»). A seat needs a city to build one (official; seed 002 says the improvements need no
  city: docs/rules/cities-and-knights.md).
- **Third level.** Trade: the trading house, commodities 2:1 at the bank for any card (seed
  002); politics: knights may be promoted to mighty; science: the aqueduct.
- **Metropolis.** The first seat to reach level 4 of a track puts its metropolis on one of its
  cities (2 points); a seat reaching level 5 while the holder has 4 takes it (seed 002). A level
  of 4 or 5 needs a city without a metropolis to put one on, unless the seat already holds that
  track's (official).
- **Walls.** Two brick, under a city (a metropolis too; official), at most three a seat; each
  raises the seat's hand limit on a 7 by two (seed 002 «Крепостная стена»).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine import events as E
from hexlan.engine.core import COMMODITIES, Hand, NodeId, Seat, one_kind
from hexlan.engine.variants.cities_knights.actions import TRACK_COMMODITY, TRACKS, TRADE
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine.state import GameState

_RULE = "seed 002 «Города и рыцари»"


def improvement_cost(state: GameState, progress: Progress, seat: Seat, track: int) -> Hand:
    """The seat's next improvement of ``track``: as many of the track's commodity as the level
    built, one less with the Crane played this turn (official)."""
    level = progress.levels[seat][track] + 1 - progress.crane
    return one_kind(TRACK_COMMODITY[track], level, state.kinds)


def free_cities(state: GameState, progress: Progress, seat: Seat) -> list[NodeId]:
    """The seat's cities without a metropolis (where one may go)."""
    metros = set(progress.metropolis)
    return sorted(n for n in state.cities[seat] if n not in metros)


def takes_metropolis(progress: Progress, seat: Seat, track: int, metropolis_level: int) -> bool:
    """Whether the seat's next level of ``track`` wins the track's metropolis: the first to
    ``metropolis_level``, or the first beyond it while the holder has not gone beyond."""
    new = progress.levels[seat][track] + 1
    holder = progress.metropolis_seat[track]
    if holder == seat or new < metropolis_level:
        return False
    if holder < 0:
        return True
    return progress.levels[holder][track] < new


def why_not_improve(
    state: GameState, progress: Progress, seat: Seat, track: int, config: Config
) -> tuple[str, str] | None:
    """Why the seat may not build its next improvement of ``track`` now (``config``: the
    levels, the metropolis's level and whether a city is needed), as ``(reason, rule)``; None
    when it may (the metropolis's city aside)."""
    top, metropolis_level = config.top_level, config.metropolis_level
    if not 0 <= track < len(TRACKS):
        return (f"there is no improvement track {track} (0 trade, 1 politics, 2 science)", _RULE)
    name = TRACKS[track]
    level = progress.levels[seat][track]
    if level >= top:
        return (f"the {name} track has {top} levels, all built", _RULE)
    if config.city_for_improvement and not state.cities[seat]:
        return (
            "a city improvement needs a city",
            "official Cities & Knights rules (docs/rules/cities-and-knights.md; the option "
            "ck_improve_without_city follows seed 002)",
        )
    if (
        level + 1 >= metropolis_level
        and progress.metropolis_seat[track] != seat
        and not free_cities(state, progress, seat)
    ):
        return (
            f"level {level + 1} needs a city without a metropolis to take one",
            "official Cities & Knights rules (docs/rules/cities-and-knights.md)",
        )
    cost = improvement_cost(state, progress, seat, track)
    if not state.hand_covers(seat, cost):
        commodity = TRACK_COMMODITY[track].name.lower()
        price = cost[TRACK_COMMODITY[track]]
        return (f"{name} level {level + 1} costs {price} {commodity}", f"{_RULE}: {level + 1}")
    return None


def improve(
    state: GameState, progress: Progress, seat: Seat, track: int, node: NodeId, config: Config
) -> None:
    """Pay for and build the seat's next improvement of ``track``; ``node`` takes the
    metropolis when the level wins it. The third trade level opens 2:1 commodity trades."""
    state.pay_bank(seat, improvement_cost(state, progress, seat, track))
    progress.crane = False
    if takes_metropolis(progress, seat, track, config.metropolis_level):
        holder = progress.metropolis_seat[track]
        if holder >= 0:
            state.public_vp[holder] -= config.metropolis_points
        state.public_vp[seat] += config.metropolis_points
        progress.metropolis_seat[track] = seat
        progress.metropolis[track] = node
        if state.record_events:
            state.last_events.append(E.MetropolisMoved(track, holder, seat))
    progress.levels[seat][track] += 1
    if track == TRADE and progress.levels[seat][track] == config.ability_level:
        ratios = state.ratios[seat]
        for kind in COMMODITIES:
            ratios[kind] = min(ratios[kind], 2)


def bank_ratio(state: GameState, progress: Progress, seat: Seat, kind: int, level: int) -> int:
    """The seat's bank ratio for ``kind`` from its harbours, its trading house (``level``: the
    trade level that opens it) and the merchant, without a Merchant Fleet."""
    ratio = 3 if state.generic_harbour[seat] else 4
    harbours = state.harbour_nodes
    for node in (*state.settlements[seat], *state.cities[seat]):
        harbour = harbours.get(node)
        if harbour is not None and harbour.resource == kind:
            ratio = 2
    if kind in COMMODITIES and progress.levels[seat][TRADE] >= level:
        ratio = min(ratio, 2)
    merchant = progress.board
    if merchant.merchant_seat == seat and merchant.merchant >= 0:  # the Merchant's hex: 2:1
        resource = state.board.terrains[merchant.merchant].resource
        if resource is not None and int(resource) == kind:
            ratio = min(ratio, 2)
    return ratio


def lose_wall(progress: Progress, seat: Seat, node: NodeId) -> None:
    """The city at ``node`` is gone: its wall with it (official)."""
    if node in progress.walls[seat]:
        progress.walls[seat].remove(node)
