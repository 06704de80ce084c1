"""Cities & Knights' event die and barbarians (seed 002 «Города и рыцари»; official rules where
it is silent; docs/rules/cities-and-knights.md).

The event die is rolled with the red and yellow dice and settled first (official): a ship face
sails the barbarians one step; on the last step of the track they attack. Their strength is the
number of cities on the island, metropolises included; Catan's is the active knights' levels.

- **Catan holds** (strength at least the barbarians'): the one seat with the strongest knights
  takes a Defender of Catan point; seats tied strongest each choose a progress deck to draw
  from (``progress.choosing``; seed 002).
- **The barbarians win**: among the seats with a city that is no metropolis, the weakest (all
  tied) each reduce one such city of their choice to a settlement, losing its wall (seed 002;
  official: metropolises are safe, a seat without a city to lose is passed over).
- Either way every knight goes inactive and the ship starts again (official; seed 002 says so
  of the lost attack and sends the ship back after the won one: with the option
  ``ck_knights_active_after_win`` the knights stay active after a won attack). From the first attack on, a 7
  moves the robber (official).
- A gate face gives progress cards (:func:`~.progress_cards.gate`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hexlan.engine import events as E
from hexlan.engine.core import NO_SEAT, NodeId, Seat
from hexlan.engine.variants.cities_knights import progress_cards
from hexlan.engine.variants.cities_knights.actions import SHIP
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.improvements import lose_wall
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine.state import GameState


def event_rolled(state: GameState, progress: Progress, symbol: int, config: Config) -> None:
    """Settle the event die's ``symbol`` (:data:`SHIP` or ``1 + track``): sail and perhaps
    attack (a lost attack leaves the losers in ``progress.pillage``, a won one's tied defenders
    in ``progress.choosing``), or queue a gate's progress cards."""
    if symbol != SHIP:
        assert state.dice is not None
        progress_cards.gate(state, progress, symbol - 1, state.dice.first)
        return
    progress.barbarians += 1
    if progress.barbarians >= config.barbarian_track:
        attack(state, progress, config.rest_after_win)


def attack(state: GameState, progress: Progress, rest_after_win: bool = True) -> None:
    """The barbarians land: compare strengths and settle (module docstring); the knights stay
    active after a won attack unless ``rest_after_win``."""
    barbarians = sum(len(cities) for cities in state.cities)
    strengths = [progress.strength(s) for s in range(state.players)]
    order = [(state.active + i) % state.players for i in range(state.players)]
    defender = NO_SEAT
    if sum(strengths) >= barbarians:
        best = max(strengths)
        top = [s for s in range(state.players) if strengths[s] == best]
        if best > 0 and len(top) == 1:
            defender = top[0]
            progress.defenders[defender] += 1
            state.public_vp[defender] += 1
        elif best > 0:
            progress.choosing = [s for s in order if s in top]
    else:
        metros = set(progress.metropolis)
        exposed = [s for s in range(state.players) if any(n not in metros for n in state.cities[s])]
        if exposed:
            weakest = min(strengths[s] for s in exposed)
            progress.pillage = [s for s in order if s in exposed and strengths[s] == weakest]
    held = sum(strengths) >= barbarians
    for node, knight in list(progress.knights.items()):
        if knight.active and (rest_after_win or not held):
            progress.knights[node] = replace(knight, active=False)
    progress.barbarians = 0
    progress.arrived = True
    if state.record_events:
        landed = E.BarbariansLanded(
            barbarians,
            sum(strengths),
            defender,
            tuple(progress.choosing),
            tuple(progress.pillage),
        )
        state.last_events.append(landed)


def pillage_spots(state: GameState, progress: Progress, seat: Seat) -> list[NodeId]:
    """The seat's cities the barbarians may take: those without a metropolis."""
    metros = set(progress.metropolis)
    return sorted(n for n in state.cities[seat] if n not in metros)


def pillage(state: GameState, progress: Progress, seat: Seat, node: NodeId) -> None:
    """The seat's city at ``node`` becomes a settlement and loses its wall (seed 002)."""
    state.cities[seat].remove(node)
    state.settlements[seat].append(node)
    state.node_level[node] = 1
    state.public_vp[seat] -= 1
    lose_wall(progress, seat, node)
    progress.pillage.remove(seat)


def pillage_seat(progress: Progress) -> Seat:
    """The seat whose choice of a city to lose is due (-1: none)."""
    return progress.pillage[0] if progress.pillage else NO_SEAT
