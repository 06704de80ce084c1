"""Posing Landnám positions for the rule tests (../shared/landnam-rules.md).

A position starts from :func:`posed` (``new_game("landnam", players)`` with the start player
and the set-up's fate search skipped) and is then set up through the state's public fields by
the helpers below. Each helper keeps the game's totals as they are in play: hexes and markers
come out of their stocks, pieces out of their owner's reserve, resource cards out of the stock
(24 of each kind in all) and fate cards out of the deck, so invariant checks still hold on a
posed state.

Offers: :func:`posed`, :func:`at` (a position by axial coordinates), :func:`put_hex`,
:func:`put_unit`, :func:`clear_units`, :func:`put_building`, :func:`set_hand`,
:func:`give_fate`, :func:`corner_of` (the corner touching exactly some positions),
:func:`targets` (where the legal steps or flights go), :func:`assert_refused` (an :class:`IllegalActionError` naming its rule, the state unchanged).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from hexlan.engine.actions import Action
from hexlan.engine.core import Hand, IllegalActionError, Seat
from hexlan.engine.gamespec import OptionValue
from hexlan.engine.options import GameOptions
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.parts import Unit
from hexlan.engine.variants.landnam.phases import MOVE
from hexlan.engine.variants.landnam.rules import Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState, new_game

GRAIN, TIMBER, WOOL, IRON = range(4)


def posed(
    players: int = 4, phase: str = MOVE, active: Seat = 0, **options: OptionValue
) -> LandnamState:
    """A game of ``players`` seats in ``phase`` of ``active``'s first turn, every seat's first
    move already made (§9.6 no longer binds; reset ``state.moved`` to test it) and each seat's
    start ship on the outer sea hex (units 0 to ``players - 1``).

    Args:
        options: Landnám's game options by name (``landnam_ships_two=True``).
    """
    state = new_game("landnam", players, GameOptions.of(**options) if options else None)
    state.active = state.start = active
    state.turn = 1
    state.moved = [True] * players
    state.phase = phase
    return state


def at(state: LandnamState, q: int, r: int) -> int:
    """The position number of axial coordinates ``(q, r)``."""
    return state.board.coords.index((q, r))


def put_hex(state: LandnamState, position: int, terrain: Land, number: int = 0) -> None:
    """Place a hex of ``terrain`` (and a number marker) on an unexplored ``position``, taking
    them from their stocks (which must hold them)."""
    assert state.terrain_stock[terrain] > 0, f"no {terrain.name} left in stock"
    state.terrain_stock[terrain] -= 1
    state.terrain[position] = terrain
    if number:
        assert state.marker_stock[number] > 0, f"no marker {number} left in stock"
        state.marker_stock[number] -= 1
        state.numbers[position] = number


def put_unit(
    state: LandnamState,
    seat: Seat,
    position: int,
    ship: bool = False,
    tokens: Iterable[tuple[Seat, int]] = (),
) -> int:
    """A unit of ``seat`` from its reserve onto ``position`` (with red tokens ``(plaintiff,
    corner)``); its number."""
    reserve = state.ships if ship else state.settlers
    assert reserve[seat] > 0
    reserve[seat] -= 1
    state.units.append(Unit(seat, ship, position, list(tokens)))
    return len(state.units) - 1


def clear_units(state: LandnamState) -> None:
    """Every unit on the board back to its owner's reserve (the start ships too)."""
    for number, unit in enumerate(state.units):
        if unit is not None:
            (state.ships if unit.ship else state.settlers)[unit.owner] += 1
            state.units[number] = None


def put_building(state: LandnamState, corner: int, seat: Seat, town: bool = False) -> None:
    """A farm (or a town) of ``seat`` on ``corner``, its houses from the reserve."""
    state.houses[seat] -= 2 if town else 1
    state.buildings[corner] = (seat, town)


def set_hand(state: LandnamState, seat: Seat, hand: Hand) -> None:
    """``seat``'s resource cards become ``hand`` (grain, timber, wool, iron), the difference
    going to or coming from the stock."""
    for kind, count in enumerate(hand):
        state.stock[kind] += state.hands[seat][kind] - count
        assert state.stock[kind] >= 0
        state.hands[seat][kind] = count


def give_fate(state: LandnamState, seat: Seat, face: Fate, count: int = 1) -> None:
    """``seat`` holds ``count`` more fate cards of ``face``, known to this state, from the deck."""
    assert state.unseen[face] >= count
    state.unseen[face] -= count
    state.deck_size -= count
    state.fate[seat][face] += count


def corner_of(state: LandnamState, *positions: int) -> int:
    """The one corner whose positions inside the rim are exactly ``positions`` (two or
    three; two for a corner on the rim)."""
    wanted = set(positions)
    found = [c for c, hexes in enumerate(state.board.corner_hexes) if set(hexes) == wanted]
    assert len(found) == 1, f"{len(found)} corners touch exactly {positions}"
    return found[0]


def snapshot(state: LandnamState) -> str:
    """Everything a state holds, in words (the shared rule data aside)."""
    return repr(sorted((k, v) for k, v in vars(state).items() if k not in ("rules", "board")))


def refused(state: LandnamState, action: Action, rule: str) -> IllegalActionError:
    """``play(action)`` is refused naming ``rule`` and changes nothing."""
    before, words = state.full_hash(), snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        state.play(action)
    assert rule in caught.value.rule, caught.value
    assert state.full_hash() == before and snapshot(state) == words
    return caught.value


def assert_refused(state: LandnamState, action: Action, section: str) -> IllegalActionError:
    """``state.play(action)`` raises :class:`IllegalActionError` whose message names
    ``section`` (``"§12.2"``; a section of it such as ``"§12.2.1"`` does too), and leaves the
    whole state (its full hash) as it was."""
    before, words = state.full_hash(), snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.play(action)
    assert re.search(re.escape(section) + r"(?!\d)", str(info.value)), str(info.value)
    assert state.full_hash() == before and snapshot(state) == words
    assert action not in state.legal_actions()
    return info.value


def targets(state: LandnamState, unit: int | None = None) -> set[int]:
    """Where the legal steps (of ``unit``, or of any unit) or the legal flights go now."""
    found: set[int] = set()
    for action in state.legal_actions():
        if isinstance(action, L.Flee) or (
            isinstance(action, L.Move) and unit in (None, action.unit)
        ):
            found.add(action.to)
    return found
