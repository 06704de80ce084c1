"""Cities & Knights' Spy (official card list, politics deck: «Look at another player's hand of
progress cards. You may choose 1 card and take it into your hand»; docs/rules/cities-and-knights.md).
:mod:`.progress_play` hands it the card named in :data:`NAMES`.

- The play names a victim (``choice``): another seat holding a progress card (public:
  :meth:`~.progress.Progress.held`).
- :attr:`~.actions.KnightsPhase.SPY_SHOW`: a :data:`DECK_SHOW` chance node; its outcome
  (:class:`~hexlan.engine.shown.DeckShown`) is the victim's progress cards, seen by the player and the
  victim alone: the player's view then knows them exactly (moved from ``unknown`` and the deck's
  unseen pool, :meth:`~.progress.Progress.deck`, to the victim's known ``cards``); a view that
  sees neither learns nothing.
- :attr:`~.actions.KnightsPhase.SPY`: the player takes one of them, or none
  (:class:`~hexlan.engine.shown.DeckTake`, :data:`NO_TAKE`). Every seat learns the deck of the card taken
  (the backs are coloured), only the two seats its face.
- The take cannot put the player over the progress-card limit: the Spy itself has left its hand,
  so it holds no more than before the play.
- Taking is not playing: the card taken is neither spent nor shown
  (:meth:`~hexlan.engine.variants.cities_knights.CitiesKnights.hidden_card` ignores it).
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Final

from hexlan.engine.chance import DECK_SHOW, ChanceNode
from hexlan.engine.core import EngineError, Phase, Seat
from hexlan.engine.shown import NO_TAKE, DeckShown, DeckTake
from hexlan.engine.variants.cities_knights.actions import TRACKS, KnightsPhase, PlayProgress
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine import actions as A
    from hexlan.engine.state import GameState

NAMES: Final = frozenset({"spy"})
"""The cards this module plays."""

_RULE: Final = "official Cities & Knights rules (Spy)"


def victims(progress: Progress, seat: Seat) -> list[Seat]:
    """The seats the Spy played by ``seat`` may look at: every other seat holding a progress
    card (public), in seat order."""
    return [s for s in range(len(progress.cards)) if s != seat and progress.held(s)]


def plays(progress: Progress, seat: Seat, track: int, face: int) -> list[A.Action]:
    """The Spy ``(track, face)`` played on each seat ``seat`` may look at; none if no seat."""
    return [PlayProgress(track, face, s) for s in victims(progress, seat)]


def play(state: GameState, progress: Progress, victim: Seat) -> None:
    """The Spy is played on ``victim``: its cards are shown next."""
    progress.spy = victim
    state.phase = KnightsPhase.SPY_SHOW


def spy_node(state: GameState, progress: Progress) -> ChanceNode:
    """The chance of :attr:`~.actions.KnightsPhase.SPY_SHOW`: the victim's progress cards shown
    to the player alone."""
    return ChanceNode(DECK_SHOW, "spy", seats=(state.active, progress.spy), decks=TRACKS)


def spy_outcomes(state: GameState, progress: Progress) -> list[tuple[A.Action, float]]:
    """The cards shown, as this state will see them: the hidden outcome for a state that sees
    neither the player nor the victim; else every hand the victim may hold with its chance
    (its known cards, and for its unseen ones of each deck every multiset of the faces this
    state has not seen, drawn without replacement): one outcome where the hand is known."""
    victim = progress.spy
    if not state.sees(state.active) and not state.sees(victim):
        return [(DeckShown(victim, None), 1.0)]
    known = progress.cards[victim]
    result: list[tuple[A.Action, float]] = []
    per_track = [
        list(progress.deck(t).hands(n, progress.never(t)))
        for t, n in enumerate(progress.unknown[victim])
    ]
    for choice in product(*per_track):
        cards = list(known)
        chance = 1.0
        for track, (faces, p) in enumerate(choice):
            cards.extend((track, f) for f in faces)
            chance *= p
        result.append((DeckShown(victim, tuple(sorted(cards))), chance))
    return result


def observation(state: GameState, progress: Progress, action: A.Action, seat: Seat) -> A.Action:
    """What ``seat`` sees of the Spy's show or take: everything, if it is the player or the
    victim; else that cards were shown, or the deck of the card taken."""
    if seat in (state.active, progress.spy):
        return action
    if isinstance(action, DeckShown):
        return DeckShown(action.seat, None)
    if isinstance(action, DeckTake):
        return DeckTake(action.deck, None)
    return action


def shown(state: GameState, progress: Progress, action: DeckShown) -> None:
    """The victim's cards are shown: a state that sees them knows them all from now on (its
    unseen ones leave ``pool``); the player then takes one, or none.

    Raises:
        EngineError: the cards shown are not a hand the victim may hold (its count per deck,
            its known cards, the faces unseen).
    """
    cards = action.cards
    victim = action.seat
    if cards is not None:
        extra = list(cards)
        for card in progress.cards[victim]:
            if card not in extra:
                raise EngineError(f"seat {victim} showed progress cards it does not hold")
            extra.remove(card)
        for track in range(len(TRACKS)):
            faces = [f for t, f in extra if t == track]
            if len(faces) != progress.unknown[victim][track] or not progress.deck(track).fits(
                faces, progress.never(track)
            ):
                raise EngineError(f"seat {victim} showed progress cards it does not hold")
        for track, face in extra:
            progress.deck(track).seen(face)
        progress.cards[victim] = list(cards)
        progress.unknown[victim] = [0] * len(TRACKS)
    state.phase = KnightsPhase.SPY


def takes(state: GameState, progress: Progress) -> list[A.Action]:
    """The player's choices: each distinct card the victim may hold, as this state sees it (its
    known cards, and any unseen face of a deck it holds unseen cards of, in a full state sampled
    from a third party's view: :mod:`hexlan.engine.determinize` leaves progress cards as the view
    knows them), or each deck it holds a card of for a state that sees neither hand; and taking
    nothing."""
    victim = progress.spy
    result: list[A.Action]
    if state.sees(state.active) or state.sees(victim):
        cards = set(progress.cards[victim])
        cards.update(  # a determinisation of a third party's view keeps them unseen
            (t, f)
            for t, n in enumerate(progress.unknown[victim])
            if n
            for f, left in enumerate(progress.held_pool(t))
            if left
        )
        result = [DeckTake(t, f) for t, f in sorted(cards)]
    else:
        result = [DeckTake(t, None) for t in range(len(TRACKS)) if progress.held(victim, t)]
    result.append(DeckTake(NO_TAKE, None))
    return result


def take(state: GameState, progress: Progress, action: DeckTake) -> None:
    """The card moves from the victim's progress cards to the player's: as seen (the player's
    and the victim's views, the full state), or, unseen, as one of the victim's cards of that
    deck (a third party: the victim's cards of that deck it knew become unseen, for any of them
    may be the one taken). The victim stays named till the turn's end (for the telling)."""
    player, victim, track = state.active, progress.spy, action.deck
    if track != NO_TAKE:
        if action.face is not None:
            progress.lose(victim, track, action.face)
            progress.cards[player].append((track, action.face))
        else:
            for card in [c for c in progress.cards[victim] if c[0] == track]:
                progress.cards[victim].remove(card)
                progress.deck(track).unseen(card[1])
                progress.unknown[victim][track] += 1
            progress.unknown[victim][track] -= 1
            progress.unknown[player][track] += 1
    state.phase = Phase.MAIN


def why_not_play(progress: Progress, seat: Seat, choice: int) -> str | None:
    """Why the Spy played by ``seat`` on ``choice`` is refused; None if it is not for that."""
    if choice == seat:
        return "the Spy looks at another player's progress cards, not its player's"
    if not 0 <= choice < len(progress.cards):
        return f"the Spy names a seat (0 .. {len(progress.cards) - 1}), not {choice}"
    if not progress.held(choice):
        return f"seat {choice} holds no progress card to look at"
    return None


def why_not(
    state: GameState, progress: Progress, names: list[tuple[str, ...]], action: A.Action
) -> tuple[str, str] | None:
    """Why a :class:`~hexlan.engine.shown.DeckTake` is refused, as ``(reason, rule)`` (``names``: each
    deck's card names by face); None for other actions."""
    if not isinstance(action, DeckTake):
        return None
    if state.phase is not KnightsPhase.SPY:
        return ("no Spy is being played", _RULE)
    victim, track, face = progress.spy, action.deck, action.face
    if track == NO_TAKE:
        return ("taking nothing names no card (face None)", _RULE)
    if not 0 <= track < len(TRACKS):
        return (f"the Spy takes a card of deck 0 .. {len(TRACKS) - 1}, or none ({NO_TAKE})", _RULE)
    if face is None:
        if state.sees(state.active) or state.sees(victim):
            return ("the player saw the cards: name the face of the card taken", _RULE)
        return (f"seat {victim} holds no {TRACKS[track]} progress card", _RULE)
    if not 0 <= face < len(names[track]):
        return (f"there is no progress card {face} in deck {track}", _RULE)
    name = names[track][face].replace("_", " ")
    return (f"seat {victim} holds no {name} progress card to take", _RULE)
