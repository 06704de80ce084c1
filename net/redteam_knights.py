"""Cities & Knights' red-team deviations (:mod:`hexlan.net.cheats`: ``missing-commodity``,
``undealt-discard``, ``spy-forge``, ``spy-spent``): what a :class:`~hexlan.net.redteam.Cheat`
installs on its seat's session for each, by kind (:data:`INSTALLS`). The game's spec names this
module as its ``cheats``, so :mod:`hexlan.net.redteam` names no game.

- ``missing-commodity``: instead of the bot's decision, it signs ``ImproveCity`` for the first
  track whose next level's commodities its hand lacks.
- ``undealt-discard``: it keeps every progress card it draws (a roll or its turn's end instead
  of a play) until it is over the limit; then, instead of the bot's discard, it signs
  ``DiscardProgress`` of a card it was never dealt (a face still unseen by it), with no
  ``card_reveal`` before it.
- ``spy-forge``: it plays no progress card (so the bots, who spy on the seat holding most, pick
  it); its forged ``spy_open`` is :mod:`hexlan.net.redteam`'s.
- ``spy-spent``: it plays the Spy whenever it may on a seat that has shown a progress card; its
  ``spy_take`` of a spent position is :mod:`hexlan.net.redteam`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from hexlan.engine import actions as A
from hexlan.engine.core import Phase
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights
from hexlan.engine.variants.cities_knights.actions import (
    TRACK_COMMODITY,
    TRACKS,
    DiscardProgress,
    ImproveCity,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.engine.variants.cities_knights.progress_spy import NAMES
from hexlan.net.effects import Effect
from hexlan.net.redteam import Cheat, Installer
from hexlan.net.session import Session


def _improvement(cheat: Cheat, session: Session) -> None:
    """At the N-th decision in its own turn's main phase at which it has a city and lacks
    the commodities of some track's next improvement, sign ``ImproveCity`` for the first
    such track, whatever the bot chose."""
    me = session.seat

    def forge(view: GameState, chosen: A.Action) -> tuple[A.Action, str] | None:
        if view.active != me or view.phase is not Phase.MAIN:
            return None
        track = _lacking_track(view, me)
        if track is None:
            return None
        words = f"built a {TRACKS[track]} improvement without its commodities"
        return ImproveCity(track), words

    cheat.install_forgery(session, forge)


def _discard(cheat: Cheat, session: Session) -> None:
    """Keep every progress card until over the limit; at the N-th card it must discard,
    sign ``DiscardProgress`` of a card it was never dealt, unshown, whatever the bot
    chose."""
    me = session.seat

    def forge(view: GameState, chosen: A.Action) -> tuple[A.Action, str] | None:
        if not isinstance(chosen, DiscardProgress):
            return None
        card = _undealt_card(view, me, _unopened_tracks(session))
        if card is None:
            return None
        name = TRACKS[card[0]]
        words = f"discarded a {name} progress card it was never dealt (instead of {chosen})"
        return DiscardProgress(me, *card), words

    cheat.install_forgery(session, forge)
    _hoard(cheat, session)


def _hoard(cheat: Cheat, session: Session) -> None:
    """Until it deviates, the seat plays no progress card: a roll or its turn's end
    instead."""
    me = session.seat
    playing = session.submit

    def hoard(action: A.Action, now: float = 0.0) -> list[Effect]:
        view = session.view
        if not cheat.done and view is not None and isinstance(action, PlayProgress):
            legal = view.legal_actions(me)
            instead = next((a for a in (A.END_TURN, A.ROLL) if a in legal), action)
            return playing(instead, now)
        return playing(action, now)

    session.submit = hoard  # type: ignore[method-assign]


def _spy_play(cheat: Cheat, session: Session) -> None:
    """Until it deviates, the seat plays the Spy whenever it may, on a seat that has shown
    a progress card (one of its positions then holds a spent card), whatever its bot
    chose."""
    me = session.seat
    playing = session.submit

    def spy_first(action: A.Action, now: float = 0.0) -> list[Effect]:
        view = session.view
        if not cheat.done and view is not None and isinstance(view.variant, CitiesKnights):
            names = view.variant.card_names
            shown = {
                seat
                for dealer in session.decks.values()
                for index in dealer.deck.shown_cards()
                if (seat := dealer.deck.shown_by(index)) is not None
            }
            spies = [
                a
                for a in view.legal_actions(me)
                if isinstance(a, PlayProgress)
                and names[a.track][a.face] in NAMES
                and a.choice in shown
            ]
            if spies:
                return playing(spies[0], now)
        return playing(action, now)

    session.submit = spy_first  # type: ignore[method-assign]


def _unopened_tracks(session: Session) -> set[int]:
    """The progress decks in which ``session``'s seat holds a card no Spy has opened to another
    seat (PROTOCOL.md §7.3) nor taken from another: cards drawn since it was last spied on. A
    seat that saw its hand knows every card in it until then, and its engine refuses a discard of
    any other face."""
    me = session.seat
    opened = {
        (label, position)
        for entry in session.journal
        if entry.spy is not None and entry.spy.victim == me
        for label, position, _, _ in entry.spy.items
    }
    return {
        TRACKS.index(label)
        for label, dealer in session.decks.items()
        if label in TRACKS
        for position, index in dealer.own_index.items()
        if (label, position) not in opened
        and not dealer.deck.moves(position)
        and dealer.deck.shown_by(index) is None
    }


def _undealt_card(view: GameState, seat: int, decks: set[int]) -> tuple[int, int] | None:
    """A progress card ``(track, face)`` that ``seat`` holds none of but that its view has not
    seen anywhere (so it may still be in a deck): one it was never dealt, of one of ``decks``,
    decks in which it holds cards the others cannot see (they would let it discard any unseen
    face of that deck). None in another game or when there is none."""
    progress = view.variant_state
    if not isinstance(progress, Progress):
        return None
    held = set(progress.cards[seat])
    decks = decks & {track for track, _ in held}
    return next(
        (
            (track, face)
            for track, pool in enumerate(progress.pool)
            if track in decks
            for face, count in enumerate(pool)
            if count and (track, face) not in held
        ),
        None,
    )


def _lacking_track(view: GameState, seat: int) -> int | None:
    """The first improvement track whose next level ``seat`` (holding a city) cannot pay for in
    a Cities & Knights game; None in another game or when there is none."""
    if not isinstance(view.variant_state, Progress) or not view.cities[seat]:
        return None
    levels = view.variant_state.levels[seat]
    for track, commodity in enumerate(TRACK_COMMODITY):
        if levels[track] < 3 and view.hands[seat][commodity] <= levels[track]:
            return track
    return None


INSTALLS: Final[Mapping[str, Installer]] = MappingProxyType(
    {
        "missing-commodity": _improvement,
        "undealt-discard": _discard,
        "spy-forge": _hoard,  # the seat holding most cards draws the bots' Spies
        "spy-spent": _spy_play,
    }
)
"""What a red-team seat installs for each of the game's own kinds."""
