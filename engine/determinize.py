"""Determinisation: full game states drawn consistently with one seat's information state.

A search bot cannot look at the others' hidden cards; it samples them instead, from what its seat
knows (../shared/ARCHITECTURE.md principle 2), and searches the sampled full states
(information-set Monte Carlo tree search, Cowling, Powley and Whitehouse 2012).

What a sample keeps from the view: the public state, the seat's own hand and development cards
exactly. What it draws:

- the opponents' resource hands: one joint world of each group of linked opponents
  (:meth:`~hexlan.engine.info.InformationState.joint_hands`, which already holds everything seen:
  known cards, steals, cards known spent, Monopoly counts), uniformly among the worlds (not
  weighted by their likelihood: after a hidden steal, a world where the victim held more of the
  stolen kind is likelier; uniform sampling is the usual simplification);
- the opponents' unplayed development cards: ``dev_count[s]`` cards for each opponent, of which
  ``new_dev_count[s]`` were bought this turn, dealt from the unseen pool (the deck plus the
  opponents' cards: the starting deck less the seat's own draws and every card played); the rest
  of the pool is the deck. A deal that would give an opponent enough victory points to have won
  already (seed 002 «Конец игры»: the game ends on the turn the points are reached) is dealt again,
  a few times at most.

A game's own hidden cards that its rules module keeps (Cities & Knights' progress cards) stay as
the view knows them: known cards, counts of unseen ones per deck and the faces unseen. The rules
module treats such a sample's unseen cards as any face unseen (a card played or discarded, the
cards a Spy is shown: every hand they may be, by its odds; a Spy's take: any face it may be).

The sampler draws only from the ``random.Random`` it is given (the bot's own) and reads only
the view, so two full games that differ only in hidden cards the seat cannot see give it the
same samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hexlan.engine.core import NO_SEAT, DevCard, EngineError, Hand
from hexlan.engine.info import InformationState
from hexlan.engine.state import GameState

if TYPE_CHECKING:  # the engine draws no randomness itself: the caller passes a seeded rng
    import random

REDEALS: Final = 8
"""Deals of development cards tried before one that makes an opponent a winner is kept."""


class Determinizer:
    """Draws full states consistent with ``view`` (one seat's information state).

    Build it once per decision (it sorts what the view holds, so samples do not depend on the
    order of sets), then call :meth:`sample` for each determinisation.

    Args:
        view: the seat's information state, not a third party's.

    Raises:
        EngineError: ``view`` is a third party's (:data:`~hexlan.engine.core.NO_SEAT`).
    """

    def __init__(self, view: InformationState) -> None:
        if view.seat == NO_SEAT:
            raise EngineError("a third party's view has no seat to determinise for")
        self.view = view
        self.seat = view.seat
        self.groups = [(seats, sorted(worlds)) for seats, worlds in view.joint_hands()]
        pool: list[int] = []
        for card, count in enumerate(view.unseen_cards()):
            pool.extend([card] * count)
        self.pool = pool
        self.opponents = [s for s in range(view.players) if s != self.seat]

    def sample(self, rng: random.Random) -> GameState:
        """One full state consistent with the view: same public state, same own cards.

        Draws only from ``rng``.
        """
        view = self.view
        players = view.players
        hands: list[Hand | list[int]] = [list(view.hands[s]) for s in range(players)]
        for seats, worlds in self.groups:
            world = worlds[rng.randrange(len(worlds))]
            for seat, hand in zip(seats, world, strict=True):
                hands[seat] = hand
        dev_cards, new_cards, deck = self._deal(rng)
        return view.full_state(hands, dev_cards, new_cards, deck)

    def _deal(self, rng: random.Random) -> tuple[list[list[int]], list[list[int]], list[int]]:
        """Opponents' unplayed and new development cards and the deck, from the unseen pool."""
        view, seat = self.view, self.seat
        players = view.players
        dealt: tuple[list[list[int]], list[list[int]], list[int]] | None = None
        for _ in range(REDEALS):
            pool = self.pool[:]
            rng.shuffle(pool)
            faces = len(view.deck)
            dev_cards = [[0] * faces for _ in range(players)]
            new_cards = [[0] * faces for _ in range(players)]
            dev_cards[seat] = list(view.dev_cards[seat])
            new_cards[seat] = list(view.new_dev_cards[seat])
            at = 0
            for s in self.opponents:
                count, new = view.dev_count[s], view.new_dev_count[s]
                for i, card in enumerate(pool[at : at + count]):
                    dev_cards[s][card] += 1
                    if i < new:
                        new_cards[s][card] += 1
                at += count
            deck = [0] * faces
            for card in pool[at:]:
                deck[card] += 1
            dealt = (dev_cards, new_cards, deck)
            if not any(self._would_have_won(s, dev_cards[s], new_cards[s]) for s in self.opponents):
                break
        assert dealt is not None
        return dealt

    def _would_have_won(self, seat: int, cards: list[int], new: list[int]) -> bool:
        """Whether victory point cards ``cards`` would give ``seat`` the target already."""
        view = self.view
        points = cards[DevCard.VICTORY_POINT] - view.revealed_vp_cards[seat]
        if view.options.vp_cards_next_turn:
            points -= new[DevCard.VICTORY_POINT]
        return points > 0 and view.public_vp[seat] + points >= view.target


__all__ = ["REDEALS", "Determinizer"]
