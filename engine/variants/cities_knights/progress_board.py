"""Cities & Knights' progress cards that act on the dice and the board (issue 13; official card
texts, seed 002 «Города и рыцари» where it speaks: the Alchemist «кроме случаев, чётко
оговорённых на самих карточках»; docs/rules/cities-and-knights.md): the Alchemist, the Bishop,
the Deserter, the Merchant (and its piece) and the Inventor.

The choice each card asks for is the ``choice`` of its
:class:`~.actions.PlayProgress`:

- ``alchemist``: the red and yellow dice as ``red * 10 + yellow`` (:func:`alchemist_choice`),
  played in the seat's roll phase instead of rolling; the event die is still rolled (a beacon
  event) and settled first, and the red die chosen decides who draws progress cards.
- ``bishop``: the hex the robber moves to (as a knight's move; only once the barbarians have
  attacked); one random card is then stolen from each opponent with a building on it holding a
  card, in turn order from the player (one steal per victim, each its own chance node).
- ``deserter``: the opponent who removes one of its knights (its choice,
  :class:`~.actions.DesertKnight`, :attr:`~.actions.KnightsPhase.DESERTER`); the player then
  may place a knight of the same level, free, with the removed knight's active state
  (:class:`~.actions.PlaceDeserter`, :attr:`~.actions.KnightsPhase.DESERTER_PLACE`).
- ``merchant``: the land hex beside one of the seat's buildings where the merchant stands: its
  holder trades that hex's resource 2:1 at the bank and holds 1 victory point, until a Merchant
  is played again (by anyone).
- ``inventor``: two hexes whose number tokens swap, as ``first * 100 + second``
  (:func:`inventor_choice`); no 2, 12, 6 or 8 token moves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.core import NO_SEAT, HexId, NodeId, Phase, Seat
from hexlan.engine.variants.cities_knights import improvements, knights
from hexlan.engine.variants.cities_knights.actions import (
    DesertKnight,
    KnightsPhase,
    PlaceDeserter,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.progress import Knight

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.engine.variants.cities_knights.progress import Progress

BOARD_CARDS: Final = frozenset({"alchemist", "bishop", "deserter", "merchant", "inventor"})
"""The cards this module plays."""
DICE_BASE: Final = 10
"""The Alchemist's choice is ``red * DICE_BASE + yellow``."""
HEX_PAIR: Final = 100
"""The Inventor's choice is ``first * HEX_PAIR + second`` (more than any map's hexes)."""
FIXED_TOKENS: Final = frozenset({2, 6, 8, 12})
"""Number tokens the Inventor may not move (official)."""
MERCHANT_POINTS: Final = 1
"""The merchant's holder's victory points (official)."""
MERCHANT_RATIO: Final = 2
"""The merchant hex's resource at the bank, cards given per card (official: 2:1)."""


# ---------------------------------------------------------------------- choices


def alchemist_choice(red: int, yellow: int) -> int:
    """The Alchemist's ``choice`` for the dice ``red`` and ``yellow`` (each 1 .. 6).

    >>> alchemist_choice(3, 4)
    34
    """
    return red * DICE_BASE + yellow


def alchemist_dice(choice: int) -> A.Dice | None:
    """The dice an Alchemist's ``choice`` names, or None when it names none.

    >>> alchemist_dice(34)
    Dice(first=3, second=4)
    >>> alchemist_dice(70) is None
    True
    """
    red, yellow = divmod(choice, DICE_BASE)
    if not (1 <= red <= 6 and 1 <= yellow <= 6):
        return None
    return A.Dice(red, yellow)


def inventor_choice(first: HexId, second: HexId) -> int:
    """The Inventor's ``choice`` for the hexes ``first`` and ``second`` (in either order).

    >>> inventor_choice(7, 3)
    307
    """
    low, high = sorted((first, second))
    return low * HEX_PAIR + high


def inventor_hexes(choice: int) -> tuple[HexId, HexId]:
    """The two hexes of an Inventor's ``choice``.

    >>> inventor_hexes(307)
    (3, 7)
    """
    first, second = divmod(choice, HEX_PAIR)
    return first, second


def swappable(state: GameState) -> list[HexId]:
    """Hexes whose number token the Inventor may move: a token, and not 2, 12, 6 or 8."""
    return [h for h, t in enumerate(state.board.tokens) if t and t not in FIXED_TOKENS]


def inventor_pairs(state: GameState) -> list[int]:
    """Every Inventor choice: two movable tokens of different numbers (a swap of equal numbers
    changes nothing)."""
    hexes, tokens = swappable(state), state.board.tokens
    return [
        inventor_choice(a, b)
        for i, a in enumerate(hexes)
        for b in hexes[i + 1 :]
        if tokens[a] != tokens[b]
    ]


def bishop_hexes(state: GameState, progress: Progress, seat: Seat) -> list[HexId]:
    """Where the Bishop may send the robber: where a knight's chase could (the robber's moves),
    once the barbarians have attacked (official: the robber is not in play before)."""
    if not progress.arrived:
        return []
    return sorted({a.hex for a in state.robber_actions(seat) if isinstance(a, A.MoveRobber)})


def bishop_victims(state: GameState, seat: Seat, hex_id: HexId) -> list[Seat]:
    """The seats the Bishop robs on ``hex_id``: opponents with a building there and a card, in
    turn order from ``seat`` (official: one card from each)."""
    victims = set(state.victims_at(hex_id, seat))
    order = [(seat + i) % state.players for i in range(1, state.players)]
    return [s for s in order if s in victims]


def deserter_targets(progress: Progress, seat: Seat) -> list[Seat]:
    """Opponents with a knight on the board (the Deserter's targets)."""
    return sorted({k.seat for k in progress.knights.values() if k.seat != seat})


def deserter_level(progress: Progress, seat: Seat, level: int, per_level: int) -> int:
    """The level of the knight the Deserter's player places for a removed one of ``level``:
    that level, or the strongest below it with a piece free (official: a basic one when the
    seat's pieces of that level are all on the board); 0 when none is free. A mighty one needs
    no fortress here (official)."""
    for candidate in range(level, 0, -1):
        if knights.pieces_left(progress, seat, candidate, per_level) > 0:
            return candidate
    return 0


def merchant_hexes(state: GameState, seat: Seat) -> list[HexId]:
    """Land hexes with a resource beside one of the seat's settlements or cities: where it may
    put the merchant (official)."""
    return [
        h
        for h, terrain in enumerate(state.board.terrains)
        if terrain.resource is not None and state.hex_seats[h] >> seat & 1
    ]


def roll_plays(names: list[tuple[str, ...]], candidates: list[tuple[int, int]]) -> list[A.Action]:
    """The Alchemist's plays among ``candidates`` (``(track, face)``): 36 choices of dice each,
    in the seat's roll phase."""
    result: list[A.Action] = []
    for track, face in candidates:
        if names[track][face] == "alchemist":
            result.extend(
                PlayProgress(track, face, alchemist_choice(red, yellow))
                for red in range(1, 7)
                for yellow in range(1, 7)
            )
    return result


def main_plays(state: GameState, progress: Progress, seat: Seat, name: str) -> list[int]:
    """The choices of the card ``name`` (one of :data:`BOARD_CARDS`) in ``seat``'s main phase
    (none for the Alchemist, played before the roll)."""
    if name == "bishop":
        return bishop_hexes(state, progress, seat)
    if name == "deserter":
        return deserter_targets(progress, seat)
    if name == "merchant":
        return merchant_hexes(state, seat)
    if name == "inventor":
        return inventor_pairs(state)
    return []


def why_not(state: GameState, progress: Progress, name: str, choice: int) -> str | None:
    """Why ``name``'s play with ``choice`` is refused in its seat's turn, in words; None when
    no reason of this module's applies."""
    in_roll = state.phase is Phase.ROLL
    if name == "alchemist":
        if not in_roll:
            return "the alchemist is played before the roll, in the seat's own turn"
        if alchemist_dice(choice) is None:
            return f"the alchemist names the dice as red*10+yellow, each 1..6, not {choice}"
        return None
    if in_roll:
        return f"{name} is played after the roll (only the alchemist before it)"
    if name == "bishop":
        if not progress.arrived:
            return "the bishop moves the robber only once the barbarians have first attacked"
        return f"the bishop moves the robber to another land hex, not hex {choice}"
    if name == "deserter":
        return f"the deserter names an opponent with a knight on the board, not seat {choice}"
    if name == "merchant":
        return "the merchant goes beside one of the seat's buildings, on a hex with a resource"
    if name == "inventor":
        a, b = inventor_hexes(choice)
        tokens = state.board.tokens
        both = [tokens[h] if 0 <= h < len(tokens) else 0 for h in (a, b)]
        if any(t in FIXED_TOKENS for t in both):
            return "the inventor may not move a 2, 12, 6 or 8"
        return "the inventor swaps the tokens of two hexes (first*100+second) of different numbers"
    return None


# ---------------------------------------------------------------------- effects


def play(state: GameState, progress: Progress, name: str, choice: int, config: Config) -> None:
    """The effect of the card ``name`` (one of :data:`BOARD_CARDS`) played by the active seat
    with ``choice`` (module docstring)."""
    seat = state.active
    cards = progress.board
    if name == "alchemist":
        dice = alchemist_dice(choice)
        assert dice is not None
        state.roll(dice)  # as a roll: the event die follows, then production
    elif name == "bishop":
        victims = bishop_victims(state, seat, choice)
        state.robber = choice
        if state.record_events:
            state.last_events.append(E.RobberMoved(seat, choice, victims[0] if victims else -1))
        state.robber_resume = state.phase
        state.discard_after_robber = False
        cards.bishop = victims[1:]
        state.rob(victims[0] if victims else NO_SEAT)
    elif name == "deserter":
        cards.deserter = choice
        state.phase = KnightsPhase.DESERTER
    elif name == "merchant":
        place_merchant(state, progress, seat, choice, config)
    elif name == "inventor":
        swap_tokens(state, progress, *inventor_hexes(choice))


def next_victim(progress: Progress) -> Seat:
    """The next seat the Bishop robs (-1: none left), taken off the queue."""
    queue = progress.board.bishop
    return queue.pop(0) if queue else NO_SEAT


def place_merchant(
    state: GameState, progress: Progress, seat: Seat, hex_id: HexId, config: Config
) -> None:
    """The merchant goes to ``hex_id`` under ``seat``: its point and 2:1 rate move with it."""
    cards = progress.board
    previous = cards.merchant_seat
    if previous >= 0:
        state.public_vp[previous] -= MERCHANT_POINTS
    cards.merchant, cards.merchant_seat = hex_id, seat
    state.public_vp[seat] += MERCHANT_POINTS
    for holder in {previous, seat} - {NO_SEAT}:
        reset_ratios(state, progress, holder, config.ability_level)


def reset_ratios(state: GameState, progress: Progress, seat: Seat, level: int) -> None:
    """The seat's bank ratios again, from its harbours, trading house, merchant and a Merchant
    Fleet still running (``level``: the trade level that opens the trading house)."""
    ratios = state.ratios[seat]
    for kind in range(state.kinds):
        ratios[kind] = improvements.bank_ratio(state, progress, seat, kind, level)
    if progress.fleet is not None and progress.fleet[0] == seat:
        ratios[progress.fleet[1]] = 2


def swap_tokens(state: GameState, progress: Progress, first: HexId, second: HexId) -> None:
    """Swap the number tokens of two hexes: the board, and the production each total pays
    (the state's per-total income lists)."""
    tokens = list(state.board.tokens)
    a, b = tokens[first], tokens[second]
    tokens[first], tokens[second] = b, a
    state.board = replace(state.board, tokens=tuple(tokens))
    income = state.income
    moving_a = [e for e in income[a] if e[0] == first]
    moving_b = [e for e in income[b] if e[0] == second]
    income[a] = [e for e in income[a] if e[0] != first] + moving_b
    income[b] = [e for e in income[b] if e[0] != second] + moving_a
    progress.board.swaps.append((first, second))


def desert(state: GameState, progress: Progress, action: DesertKnight, config: Config) -> None:
    """The Deserter's opponent removes its knight at ``action.node``; the player then places
    one of the same level (or the strongest below it it has free) where it may build a knight,
    or play goes on when it can place none."""
    knight = knights.lift(state, progress, action.node)
    if state.record_events:
        state.last_events.append(E.KnightDisplaced(knight.seat, knight.level))
    cards, seat = progress.board, state.active
    cards.deserter = NO_SEAT
    level = deserter_level(progress, seat, knight.level, config.knights_per_level)
    if level and knights.build_spots(state, seat):
        cards.deserted = Knight(seat, level, knight.active)
        state.phase = KnightsPhase.DESERTER_PLACE
    else:
        state.phase = Phase.MAIN


def place_deserted(state: GameState, progress: Progress, action: PlaceDeserter) -> None:
    """The Deserter's player places its knight at ``action.node`` (-1: it places none). An
    active one counts as activated this turn: it may not act in it (as the Warlord's)."""
    cards = progress.board
    knight = cards.deserted
    assert knight is not None
    if action.node >= 0:
        knights.place(state, progress, action.node, knight)
        if knight.active:
            progress.fresh.add(action.node)
    cards.deserted = None
    state.phase = Phase.MAIN


def desert_actions(progress: Progress, seat: Seat) -> list[A.Action]:
    """The Deserter's opponent's choices: each of its knights."""
    return [DesertKnight(seat, node) for node, _ in progress.knights_of(seat)]


def place_actions(state: GameState, seat: Seat) -> list[A.Action]:
    """The Deserter's player's choices: each spot it may build a knight on, or none (-1)."""
    spots: list[NodeId] = knights.build_spots(state, seat)
    return [*(PlaceDeserter(n) for n in spots), PlaceDeserter(-1)]
