"""The Spy kept out of games played through sessions until the protocol carries it.

The engine plays Cities & Knights' Spy (engine/variants/cities_knights/progress_spy.py): its
:data:`~hexlan.engine.variants.cities_knights.progress_spy.PROGRESS_SHOW` chance node opens the
victim's progress cards to the player alone. A :class:`~hexlan.net.session.Session` cannot open
them yet (that is the protocol's ``spy_open`` / ``spy_take``, docs/PROTOCOL.md, built apart), so
a session-backed game (``hexlan play``, ``hexlan host`` / ``join``, the in-process table) would
wait for that chance forever. While :data:`SPY_OVER_NETWORK` is off, the seats this process
plays there never play the Spy: the person is not offered it (:func:`gated`), and bots choose
from a view where the seat holds no Spy (:class:`SpyGatedBot`). ``hexlan simulate`` (engine
only) plays it. Remove this module, and its callers' use of it, once sessions carry the Spy:
net/client.py (the person's legal actions, the table's bots), net/inproc.py (``play_bots``),
tui/app.py (the autoplayer), hexlan/headless.py (``hexlan bot``), and in tests tui_play.py,
test_session.py, test_cities_knights_tcp.py, test_progress_spy.py, test_tui_spy.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.bots.base import Bot
from hexlan.engine.core import Phase, Seat
from hexlan.engine.ruleset import RuleSet, load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import PlayProgress
from hexlan.engine.variants.cities_knights.progress_spy import NAMES

SPY_OVER_NETWORK: Final = False
"""Whether session-backed games let a seat play the Spy (off until the protocol opens progress
cards to one seat; see the module docstring)."""


def _spies(view: GameState) -> set[tuple[int, int]]:
    """The Spy's ``(track, face)`` in this game's decks (none outside Cities & Knights)."""
    variant = view.variant
    if not isinstance(variant, CitiesKnights):
        return set()
    return {
        (track, face)
        for track, names in enumerate(variant.card_names)
        for face, name in enumerate(names)
        if name in NAMES
    }


def is_spy_play(view: GameState, action: Action) -> bool:
    """Whether ``action`` plays the Spy in ``view``'s game."""
    return isinstance(action, PlayProgress) and (action.track, action.face) in _spies(view)


def gated(view: GameState, actions: Sequence[Action]) -> list[Action]:
    """``actions`` without the Spy's plays while :data:`SPY_OVER_NETWORK` is off."""
    spies = set() if SPY_OVER_NETWORK else _spies(view)
    return [a for a in actions if not isinstance(a, PlayProgress) or (a.track, a.face) not in spies]


def without_spy(view: GameState, seat: Seat) -> GameState:
    """``view`` itself, or, in ``seat``'s main phase while it holds a Spy it knows and
    :data:`SPY_OVER_NETWORK` is off, a copy where it holds none (for a bot to choose from: every
    choice there is one of the real view's, the Spy's plays aside)."""
    if SPY_OVER_NETWORK or view.phase is not Phase.MAIN:
        return view
    spies = _spies(view)
    if not spies or not spies.intersection(progress_of(view).cards[seat]):
        return view
    copy = view.copy()
    cards = progress_of(copy).cards
    cards[seat] = [c for c in cards[seat] if c not in spies]
    return copy


class SpyGatedBot:
    """A bot that chooses from :func:`without_spy`'s view (see the module docstring).

    Args:
        bot: the bot it asks.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose(self, view: GameState, seat: Seat) -> Action:
        """``bot``'s choice for ``seat``, the Spy aside."""
        return self.bot.choose(without_spy(view, seat), seat)


def gate_bot(bot: Bot, game: str | None = None) -> Bot:
    """``bot`` for a session-backed game of ``game`` (a rule set's name; None: not known yet):
    gated while :data:`SPY_OVER_NETWORK` is off, unless the game's decks hold no Spy.

    Raises:
        EngineError: no rule set is named ``game``.
    """
    if SPY_OVER_NETWORK or (game is not None and not _has_spy(load_ruleset(game))):
        return bot
    return SpyGatedBot(bot)


def _has_spy(rules: RuleSet) -> bool:
    """Whether a deck of ``rules`` holds a Spy."""
    decks = rules.raw.get("decks", {})
    return any(name in NAMES for deck in decks.values() for name in deck)
