"""Random play for the information-state tests (``test_info``, ``test_info_observer``).

A plain helper module: pytest puts ``tests/`` on ``sys.path`` (no ``__init__.py``, default import
mode), so the tests import it as ``random_play``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.chance import draw_outcome
from hexlan.engine.core import NO_SEAT, Hand, Phase
from hexlan.engine.options import GameOptions
from hexlan.engine.state import CHANCE, GameState

STEP_CAP = 20000
"""Actions after which a random game stops (random play rarely stalls that long)."""

OPTIONS = (
    GameOptions(victory_points=6),
    GameOptions(victory_points=7, vp_cards_next_turn=True, knight_only_before_roll=True),
    GameOptions(victory_points=6, victory_at_turn_end=True, mixed_three_to_one=True),
    replace(GameOptions.seed003(), victory_points=7),
)
"""Official rules and seed 003 readings, with low targets so that random games end soon."""


def some_cards(rng: random.Random, hand: Sequence[int], most: int) -> Hand:
    """A random non-empty part of ``hand`` of at most ``most`` cards."""
    cards = [r for r in range(len(hand)) for _ in range(hand[r])]
    rng.shuffle(cards)
    counts = [0] * len(hand)
    for r in cards[: rng.randint(1, min(most, len(cards)))]:
        counts[r] += 1
    return tuple(counts)


def other_cards(rng: random.Random, give: Hand, most: int) -> Hand:
    """One to ``most`` cards of resources not in ``give`` (no like-for-like trades); with
    ``most`` 1 no count is drawn."""
    free = [r for r in range(len(give)) if not give[r]]
    counts = [0] * len(give)
    for _ in range(rng.randint(1, most) if most > 1 else 1):
        counts[rng.choice(free)] += 1
    return tuple(counts)


def _to(rng: random.Random, state: GameState, seat: int) -> int:
    """Whom an offer of ``seat`` goes to: everyone (``NO_SEAT``) or one other seat."""
    return rng.choice([NO_SEAT, *(s for s in range(state.players) if s != seat)])


# The two offer makers differ in what they ask for and in the order of their draws; each keeps
# the seeded games of the test that uses it.


def offer_for_one_or_two(rng: random.Random, state: GameState, seat: int) -> A.OfferTrade:
    """Up to three of ``seat``'s cards for one or two of other kinds."""
    give = some_cards(rng, state.hands[seat], 3)
    to = _to(rng, state, seat)
    return A.OfferTrade(give, other_cards(rng, give, 2), to)


def offer_for_one(rng: random.Random, state: GameState, seat: int) -> A.OfferTrade:
    """Up to three of ``seat``'s cards for one card of another kind."""
    give = some_cards(rng, state.hands[seat], 3)
    get = other_cards(rng, give, 1)
    return A.OfferTrade(give, get, _to(rng, state, seat))


def choose(
    state: GameState,
    rng: random.Random,
    offer: Callable[[random.Random, GameState, int], A.OfferTrade],
) -> Action:
    """A random action of a random acting seat: first a kind of action, uniformly, then one of
    that kind, so rare kinds (cards, trades) come up often. Domestic offers (made by ``offer``)
    and counter-offers get random terms the offering side can pay."""
    seat = rng.choice(state.acting_seats())
    hand, active = state.hands[seat], state.hands[state.active]
    choices = state.legal_actions(seat)
    if state.phase is Phase.MAIN and sum(hand):
        choices.append(offer(rng, state, seat))
    if (
        state.phase is Phase.TRADE_RESPONSES
        and seat in state.trade_pending
        and sum(hand)
        and sum(active)
    ):
        give, get = some_cards(rng, active, 2), some_cards(rng, hand, 2)
        if not any(g and t for g, t in zip(give, get, strict=True)):
            choices.append(A.CounterOffer(seat, give, get))
    kinds: dict[str, list[Action]] = {}
    for action in choices:
        kinds.setdefault(type(action).__name__, []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def random_step(state: GameState, rng: random.Random) -> Action:
    """The next action of a random game of ``state`` (not over): a chance outcome drawn from
    ``rng`` by its odds, or a random decision (:func:`choose`; offers of one or two cards)."""
    if state.current_player() == CHANCE:
        return draw_outcome(rng, state.chance_outcomes())
    return choose(state, rng, offer_for_one_or_two)
