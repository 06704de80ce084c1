"""Cities & Knights' progress cards: the three decks, who draws when, and the hand limit (seed
002 «Города и рыцари»; docs/rules/cities-and-knights.md): a card is drawn, held (hidden but for
the number held) and, over the limit, discarded; :mod:`.progress_play` plays it.

- **Gates.** When the event die shows a track's gate, each seat whose level of that track is at
  least the red die less one draws a card of that track's deck, in turn order from the roller
  (seed 002 «Уточнение»), while the deck lasts.
- **Defenders.** Seats tied strongest against the barbarians each choose a deck and draw from
  it (seed 002: «право на одну бесплатную карточку развития, цвет карточки на выбор игрока»).
- **The limit.** A seat holding more than four discards one at once, face up and out of the game
  (seed 002 «Внимание: если ... ему приходит пятая карточка»; the official rules put it under
  its deck, which a dealt mental-poker deck cannot take back).
- **Hidden.** A drawn card is seen by its drawer only; the others know how many each holds.
- **Point cards.** A Printer or Constitution drawn is shown at once, even out of turn, and
  never held (official: «This card must be played immediately»): after each draw from a deck
  that may still hold one, its drawer shows it, or shows that the card is none
  (:class:`~.actions.PointShown`, a reveal); the hand
  limit is checked after that show, so a point card never counts toward it, and the Spy never
  sees one. With the option ``ck_point_cards_in_hand`` they are held like any card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.core import NO_SEAT, Seat
from hexlan.engine.variants.cities_knights.actions import PointShown, ProgressDrawn
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.state import GameState

HIDDEN_DRAW = ProgressDrawn(None)
"""A progress card drawn by another seat, as this state sees it."""


def deck_left(progress: Progress, sizes: tuple[int, ...], track: int) -> int:
    """Cards left in ``track``'s deck (``sizes``: each deck's size at the start)."""
    return sizes[track] - progress.drawn[track]


def gate(state: GameState, progress: Progress, track: int, red: int) -> None:
    """A gate of ``track`` with ``red`` on the red die: queue the draws it gives."""
    for i in range(state.players):
        seat = (state.active + i) % state.players
        level = progress.levels[seat][track]
        if level and red <= level + 1:
            progress.draws.append((seat, track))


def drop_empty(progress: Progress, sizes: tuple[int, ...]) -> None:
    """Forget queued draws from decks that have run out, and the defenders' choices when
    every deck has."""
    if not any(deck_left(progress, sizes, t) for t in range(len(sizes))):
        progress.choosing = []
    queued: dict[int, int] = {}
    kept = []
    for seat, track in progress.draws:
        if deck_left(progress, sizes, track) - queued.get(track, 0) > 0:
            kept.append((seat, track))
            queued[track] = queued.get(track, 0) + 1
    progress.draws = kept


def outcomes(state: GameState, progress: Progress) -> list[tuple[A.Action, float]]:
    """The next draw's outcomes: each face unseen, by count (the drawer's belief where it
    cannot see the others' cards); the one hidden outcome for a state that may not see it."""
    seat, track = progress.draws[0]
    if not state.sees(seat):
        return [(HIDDEN_DRAW, 1.0)]
    return [(ProgressDrawn(face), p) for face, p in progress.deck(track).chances()]


def drawn(progress: Progress, face: int | None, limit: int) -> None:
    """The next queued draw gives ``face`` (None: unseen by this state); with point cards shown
    at once (:attr:`~.progress.Progress.unheld`), the drawer shows next whether it is one;
    else a seat over ``limit`` must discard next."""
    seat, track = progress.draws.pop(0)
    progress.drawn[track] += 1
    # A point card is never held, so every state counts the same point cards unseen (public):
    # a show is due while the deck may still hold one.
    deck = progress.deck(track)
    due = any(deck.may_be(f) for f in progress.never(track))
    if face is None:
        progress.unknown[seat][track] += 1
    else:
        progress.cards[seat].append((track, face))
        deck.seen(face)
    if due:
        progress.showing = (seat, track, sum(progress.drawn))
    elif progress.held(seat) > limit:
        progress.over_limit = seat


def point_outcomes(state: GameState, progress: Progress) -> list[tuple[A.Action, float]]:
    """The drawer's show after its draw (:attr:`~.actions.KnightsPhase.POINT_SHOW`): where this
    state sees the card, the one true show (the point card, or -1: none); else each point face
    still unseen by its count, and none for the rest."""
    assert progress.showing is not None
    seat, track, number = progress.showing
    points = progress.unheld[track]
    if state.sees(seat):
        last = progress.cards[seat][-1]  # the card just drawn
        face = last[1] if last[0] == track and last[1] in points else -1
        return [(PointShown(seat, track, face, number), 1.0)]
    deck = progress.deck(track)
    result: list[tuple[A.Action, float]] = [
        (PointShown(seat, track, f, number), p) for f, p in deck.chances(sorted(points))
    ]
    rest = deck.chance_of_none(points)
    if rest:
        result.append((PointShown(seat, track, -1, number), rest))
    return result


def point_shown(state: GameState, progress: Progress, action: PointShown, limit: int) -> bool:
    """The drawer's show: a point card leaves its hand for a victory point (public at once);
    then the hand limit. Returns whether a point card was shown."""
    seat = action.seat
    progress.showing = None
    shown = action.face >= 0
    if shown:
        progress.lose(seat, action.track, action.face)
        progress.points[seat] += 1
        state.public_vp[seat] += 1
    if progress.held(seat) > limit:
        progress.over_limit = seat
    return shown


def discard_choices(progress: Progress, seat: Seat) -> list[tuple[int, int]]:
    """The cards the seat may discard: those known in its hand, and any unseen face of a deck
    it holds unseen cards of."""
    choices = set(progress.cards[seat])
    choices.update(
        (track, face)
        for track in range(len(progress.pool))
        if progress.unknown[seat][track]
        for face, n in enumerate(progress.held_pool(track))
        if n
    )
    return sorted(choices)


def discard(progress: Progress, seat: Seat, track: int, face: int) -> None:
    """The seat discards ``(track, face)`` face up: from its known cards, or else one of its
    unseen cards, now seen."""
    progress.lose(seat, track, face)
    progress.over_limit = NO_SEAT
