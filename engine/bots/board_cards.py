"""The heuristic bot's play of Cities & Knights' board progress cards (the Alchemist, Bishop,
Deserter, Merchant and Inventor; :mod:`hexlan.engine.variants.cities_knights.progress_board`),
called by :mod:`.knights`.

- **Alchemist**, before the roll: the dice (never a 7) that pay the seat most, less half of what
  they pay the others, with a small bonus for a red die low enough to draw a progress card;
  played when they pay the seat at least :data:`ALCHEMIST_CARDS` cards.
- **Bishop**: the hex with the most opponents to rob, none of the seat's own buildings there.
- **Deserter**: on the opponent with the strongest knights; the seat's own removed knight, when
  it is the one named, is its weakest (an inactive one first); the knight it gains goes on the
  spot beside the most pips.
- **Merchant**: when the seat does not hold the merchant, on its hex of the resource it makes
  and holds most of.
- **Inventor**: the swap that moves the most pips onto the seat's buildings, less half of what
  it gives the others; played from :data:`INVENTOR_PIPS` pips gained.
"""

from __future__ import annotations

from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.board import PIPS
from hexlan.engine.core import Phase, Seat
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    DesertKnight,
    KnightsPhase,
    PlaceDeserter,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.progress_board import (
    BOARD_CARDS,
    alchemist_dice,
    bishop_victims,
    inventor_hexes,
)

ALCHEMIST_CARDS: Final = 2.0
"""Cards the Alchemist's dice must pay the seat for the bot to play it rather than roll."""
INVENTOR_PIPS: Final = 2.0
"""Pips (net of half the others' gain) from which the bot plays the Inventor."""
OTHERS_WEIGHT: Final = 0.5
"""How much what a card gives the others counts against it."""
DRAW_BONUS: Final = 0.3
"""The Alchemist's worth of a red die that would draw a progress card on a gate."""


def board_card_choice(view: GameState, seat: Seat, legal: list[Action]) -> Action | None:
    """The bot's move with a board progress card now, or None (module docstring).

    Args:
        view: the seat's view of a Cities & Knights game.
        seat: the deciding seat.
        legal: its legal actions now.
    """
    phase = view.phase
    if phase is KnightsPhase.DESERTER:
        return min(legal, key=lambda a: _desert_cost(view, a))
    if phase is KnightsPhase.DESERTER_PLACE:
        return max(legal, key=lambda a: _spot_pips(view, a))
    if phase not in (Phase.ROLL, Phase.MAIN):
        return None
    variant = view.variant
    assert isinstance(variant, CitiesKnights)
    best: tuple[float, Action] | None = None
    for action in legal:
        if not isinstance(action, PlayProgress):
            continue
        name = variant.card_names[action.track][action.face]
        if name not in BOARD_CARDS:
            continue
        score = _score(view, seat, name, action.choice)
        if score is not None and (best is None or score > best[0]):
            best = (score, action)
    return None if best is None else best[1]


def _score(view: GameState, seat: Seat, name: str, choice: int) -> float | None:
    """What the play of ``name`` with ``choice`` is worth to the bot; None: not worth it."""
    if name == "alchemist":
        return _alchemist(view, seat, choice)
    if name == "bishop":
        victims = len(bishop_victims(view, seat, choice))
        own = view.hex_seats[choice] >> seat & 1
        return float(victims) if victims and not own else None
    if name == "deserter":
        strength = sum(k.level for k in progress_of(view).knights.values() if k.seat == choice)
        return float(strength)
    if name == "merchant":
        if progress_of(view).board.merchant_seat == seat:
            return None
        resource = view.board.terrains[choice].resource
        assert resource is not None
        return view.hands[seat][resource] + PIPS[view.board.tokens[choice]] / 5
    if name == "inventor":
        gain = _inventor(view, seat, choice)
        return gain if gain >= INVENTOR_PIPS else None
    return None


def _alchemist(view: GameState, seat: Seat, choice: int) -> float | None:
    """The cards the Alchemist's dice pay the seat, less half the others'; None below the
    bar, or for a 7."""
    dice = alchemist_dice(choice)
    if dice is None or dice.total == 7:
        return None
    paid = [0] * view.players
    robber, level = view.robber, view.node_level
    for h, node, owner, _ in view.income[dice.total]:
        if h != robber:
            paid[owner] += level[node]
    if paid[seat] < ALCHEMIST_CARDS:
        return None
    others = sum(paid) - paid[seat]
    levels = progress_of(view).levels[seat]
    draws = DRAW_BONUS if any(dice.first <= lv + 1 for lv in levels if lv) else 0.0
    return paid[seat] - OTHERS_WEIGHT * others + draws - dice.first * 0.01


def _inventor(view: GameState, seat: Seat, choice: int) -> float:
    """Pips the swap moves onto the seat's buildings, less half those it moves onto the
    others'."""
    first, second = inventor_hexes(choice)
    tokens, nodes, level = view.board.tokens, view.topology.hex_nodes, view.node_level
    change = PIPS[tokens[second]] - PIPS[tokens[first]]  # what ``first`` gains
    gain = 0.0
    for hex_id, delta in ((first, change), (second, -change)):
        for node in nodes[hex_id]:
            owner = view.node_owner[node]
            if owner >= 0 and level[node]:
                weight = 1.0 if owner == seat else -OTHERS_WEIGHT
                gain += weight * delta * level[node]
    return gain


def _desert_cost(view: GameState, action: Action) -> tuple[int, bool]:
    """What losing the knight of a Deserter's removal costs the seat: level, then activity."""
    if not isinstance(action, DesertKnight):
        return (0, False)
    knight = progress_of(view).knights[action.node]
    return (knight.level, knight.active)


def _spot_pips(view: GameState, action: Action) -> int:
    """Pips of the hexes around the Deserter's knight's spot (-1: placing none)."""
    if not isinstance(action, PlaceDeserter) or action.node < 0:
        return -1
    tokens = view.board.tokens
    return sum(PIPS[tokens[h]] for h in view.topology.node_hexes[action.node])
