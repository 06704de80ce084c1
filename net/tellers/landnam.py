"""Landnám's actions in words, from one seat's view (../shared/landnam-rules.md; seeds 000, 001):
the narration of a game with a state of its own, which the Catan narrator
(:mod:`hexlan.net.narrate`) cannot read.

:func:`tell` reads the seat's view before and after the action (a
:class:`~hexlan.engine.variants.landnam.state.LandnamState` with ``viewer`` set) and says what
happened: what an exploration found, whom a harvest paid, a famine, an ageing, the builds, the
trades, the Althing's cases and tokens, chases, and the fate cards played (by name once played;
another seat's face-down draw is "drew a fate card"). It reads nothing the seat may not see, and
never the resource stock's size (§17: it may not be counted).

>>> from hexlan.engine import actions as A
>>> from hexlan.engine.variants.landnam.state import new_game
>>> before = new_game("landnam", 3).view(0)
>>> after = before.copy()
>>> after.apply(A.StartPlayer(1))
>>> tell(before, A.StartPlayer(1), after, ("You", "Blue", "Green"))
'Blue starts'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.phases import ALTHING_OPEN, HARVEST_CARD, SEER
from hexlan.engine.variants.landnam.rules import KIND_NAMES, UNEXPLORED, Fate, Land
from hexlan.engine.variants.landnam.state import LandnamState

TERRAIN_LETTERS: Final = {
    Land.SEA: "~",
    Land.FIELD: "G",
    Land.WOODLAND: "T",
    Land.PASTURE: "W",
    Land.BOG: "I",
    Land.MOUNTAIN: "M",
}
"""Each terrain's letter on the board: a producing hex shows its resource's (grain, timber,
wool, iron), the mountain M, the sea ~."""
TOKEN_NAMES: Final = ("white", "red", "black")
"""The victory-point tokens in a seat's ``tokens`` order (§15)."""


class _Words:
    """The phrases of one narration: who, whose, a place."""

    def __init__(
        self, before: LandnamState, after: LandnamState, names: Sequence[str], viewer: Seat
    ) -> None:
        self.before, self.after, self.names, self.viewer = before, after, names, viewer

    def who(self, seat: Seat) -> str:
        return "You" if seat == self.viewer else self.names[seat]

    def whom(self, seat: Seat) -> str:
        return "you" if seat == self.viewer else self.names[seat]

    def whose(self, seat: Seat) -> str:
        return "your" if seat == self.viewer else f"{self.names[seat]}'s"

    def place(self, position: int, state: LandnamState | None = None) -> str:
        """``"the woodland T5 at (1,-1)"``, ``"the unexplored (0,2)"``, ``"the outer sea"``."""
        state = state or self.after
        if position == OUTER:
            return "the outer sea"
        label = state.board.label(position)
        terrain = state.terrain[position]
        if terrain == UNEXPLORED:
            return f"the unexplored {label}"
        land = Land(terrain)
        number = state.numbers[position]
        mark = f"{TERRAIN_LETTERS[land]}{number or ''}"
        return f"the {land.name.lower()} {mark} at {label}"

    def unit(self, number: int, state: LandnamState | None = None) -> str:
        """``"your ship"``, ``"Blue's settler"``."""
        found = (state or self.before).units[number]
        if found is None:
            return "a unit"
        return f"{self.whose(found.owner)} {'ship' if found.ship else 'settler'}"


def _hand(counts: Sequence[int]) -> str:
    """``(1, 0, 2, 0)`` -> ``"1 grain, 2 wool"``."""
    parts = [f"{n} {KIND_NAMES[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) or "nothing"


def _pays(w: _Words) -> str:
    """The harvest's payments or its famine, from the hands before and after."""
    gains, losses = [], []
    for seat in range(w.after.players):
        diff = [a - b for a, b in zip(w.after.hands[seat], w.before.hands[seat], strict=True)]
        if any(d > 0 for d in diff):
            gains.append(f"{w.whom(seat)} {_hand([max(0, d) for d in diff])}")
        if any(d < 0 for d in diff):
            losses.append(f"{w.whom(seat)} {_hand([max(0, -d) for d in diff])}")
    if losses:
        return "famine: the stock is short, so cards go back: " + "; ".join(losses)
    if gains:
        return "the harvest paid " + "; ".join(gains)
    return "no hex paid"


def _aged(w: _Words) -> list[str]:
    return [
        f"{w.place(p, w.before)} aged to {w.after.numbers[p]}"
        for p in range(w.after.board.size)
        if w.before.numbers[p] and w.after.numbers[p] != w.before.numbers[p]
    ]


def _tokens(w: _Words) -> list[str]:
    found = []
    for seat in range(w.after.players):
        for k, name in enumerate(TOKEN_NAMES):
            gained = w.after.tokens[seat][k] - w.before.tokens[seat][k]
            if gained > 0:
                found.append(f"{w.who(seat)} won {gained} {name} token{'s' * (gained > 1)}")
    return found


def _outlaws(w: _Words) -> list[str]:
    found = []
    for number, unit in enumerate(w.before.units):
        after = w.after.units[number] if number < len(w.after.units) else None
        if unit is None:
            continue
        if after is None:
            found.append(f"{w.unit(number)} left the board")
        elif len(after.tokens) > len(unit.tokens):
            found.append(f"{w.unit(number)} was outlawed")
        elif len(after.tokens) < len(unit.tokens):
            found.append(f"{w.unit(number)} lost a red token")
    return found


def _consequences(w: _Words) -> list[str]:
    """What any action may bring about besides its own words: ageing, tokens, outlaws and
    units leaving, the game's end."""
    found = _aged(w) + _tokens(w) + _outlaws(w)
    if w.after.is_over and not w.before.is_over:
        winners = " and ".join(w.who(s) for s in w.after.winners())
        found.append(f"{winners} won the game")
    return found


def _start(w: _Words, a: A.StartPlayer) -> str:
    return f"{w.who(a.seat)} starts"


def _draw(w: _Words, a: L.DrawFate) -> str:
    if a.face == L.NO_CARD:
        return f"{w.who(a.seat)} drew a fate card"
    face = Fate(a.face).words
    if a.public:
        return f"{w.who(a.seat)} drew {face}, face up"
    return f"{w.who(a.seat)} drew a fate card: {face}"


def _dice(w: _Words, a: A.Dice) -> str:
    text = f"{w.who(w.after.active)} rolled {a.total} ({a.first}+{a.second})"
    if a.total == 7:
        return text + ": the Althing meets"
    if w.after.phase == HARVEST_CARD:
        return text
    return f"{text}; {_pays(w)}"


def _played(w: _Words, a: L.PlayFate) -> str:
    text = f"{w.who(a.seat)} played {Fate(a.face).words}"
    if a.face == Fate.GOOD_YEAR:
        text += f": the roll is now {w.after.roll}"
    if w.before.phase == HARVEST_CARD and w.after.phase != HARVEST_CARD:
        text += f"; {_pays(w)}"
    return text


def _move(w: _Words, a: L.Move) -> str:
    unit = w.unit(a.unit)
    card = f" with {Fate(a.fate).words}" if a.fate != L.NO_CARD else ""
    if a.to != OUTER and w.before.terrain[a.to] == UNEXPLORED:
        return f"{unit} explored {w.before.board.label(a.to)}{card}"
    chased = w.after.chase
    if chased is not None:
        return f"{unit} chased {w.unit(chased.chased)} at {w.place(a.to)}"
    return f"{unit} moved to {w.place(a.to)}"


def _explored(w: _Words, a: L.ExploreRoll) -> str:
    ex = w.before.exploration
    assert ex is not None
    faces = f"green {'/'.join(map(str, a.green)) or '-'}, red {'/'.join(map(str, a.red)) or '-'}"
    if w.after.phase == SEER:
        return f"The exploration dice show {faces}: choose Seer's counsel's faces"
    if w.after.terrain[ex.to] == UNEXPLORED:
        if w.after.exploration is not None:
            return f"The exploration dice show {faces}: that terrain is out of stock, re-roll"
        return f"The exploration dice show {faces}: nothing can be placed, the step is used"
    return _found(w, ex.to, ex.unit, f" ({faces})")


def _found(w: _Words, position: int, unit: int, faces: str) -> str:
    """What an exploration placed, and whether its unit entered."""
    text = f"The exploration found {w.place(position)}{faces}"
    moved = w.after.units[unit]
    if moved is not None and moved.at == position:
        return text + "; the unit enters"
    return text


def _seer(w: _Words, a: L.ChooseSeer) -> str:
    ex = w.before.exploration
    assert ex is not None
    chose = f"{w.who(w.after.active)} chose green {ex.green[a.green]}, red {ex.red[a.red]}"
    return f"{chose}; {_found(w, ex.to, ex.unit, '')}"


def _fled(w: _Words, a: L.Flee) -> str:
    return f"{w.who(a.seat)} fled to {w.place(a.to)}"


def _bank(w: _Words, a: L.BankTrade) -> str:
    rate = w.before.rules.bank_rate
    return f"{w.who(w.after.active)} traded {rate} {KIND_NAMES[a.give]} to the stock for 1 {KIND_NAMES[a.get]}"


def _harbour(w: _Words, a: L.HarbourTrade) -> str:
    kind = KIND_NAMES[w.before.harbours[a.position]]
    rate = w.before.rules.harbour_rate
    return (
        f"{w.who(w.after.active)} traded {rate} {kind} at the harbour {w.before.board.label(a.position)}"
        f" for 1 {KIND_NAMES[a.get]}"
    )


def _offer(w: _Words, a: L.OfferTrade) -> str:
    return f"{w.who(w.after.active)} offered {w.whom(a.to)} {_hand(a.give)} for {_hand(a.get)}"


def _answer(w: _Words, a: L.AnswerTrade) -> str:
    return f"{w.who(a.seat)} {'accepted' if a.accept else 'declined'} the offer"


def _build(w: _Words, a: Action) -> str:
    who = w.who(w.after.active)
    if isinstance(a, L.BuildFarm):
        return f"{w.unit(a.unit)} will become a farm at the end of the turn"
    if isinstance(a, L.BuildTown):
        return f"{who} will raise a town at the end of the turn"
    if isinstance(a, L.BuildUnit):
        kind = "ship" if a.ship else "settler"
        return f"{who} will build a {kind} onto {w.place(a.to)} at the end of the turn"
    if isinstance(a, L.BuildHarbour):
        return f"{w.unit(a.unit)} will build a {KIND_NAMES[a.kind]} harbour at the end of the turn"
    assert isinstance(a, L.AgeNumber)
    return f"{w.unit(a.unit)} pays to age its hex at the end of the turn"


def _end_turn(w: _Words, a: A.EndTurn) -> str:
    done = [q.what for q in w.before.queue]
    text = f"{w.who(w.before.active)} ended the turn"
    if done:
        text += f"; built {', '.join(done)}"
    return text


def _pass(w: _Words, a: L.Pass) -> str:
    if w.before.phase == ALTHING_OPEN:
        return f"{w.who(a.seat)} played no Althing card"
    return f"{w.who(a.seat)} brought no more cases"


def _appoint(w: _Words, a: L.Appoint) -> str:
    return f"{w.who(w.after.active)} appointed {w.whom(a.seat)} to open the lawsuit round"


def _sue(w: _Words, a: L.Sue) -> str:
    unit = w.before.units[a.unit]
    at = w.place(unit.at, w.before) if unit is not None else "the board"
    return f"{w.who(a.seat)} sued {w.unit(a.unit)} on {at}, opening with {a.cards}"


def _bid(w: _Words, a: L.Bid) -> str:
    if a.cards:
        return f"{w.who(a.seat)} raised by {a.cards}"
    return f"{w.who(a.seat)} passed"


def _invite(w: _Words, a: L.Invite) -> str:
    return f"{w.who(a.seat)} invited {w.whom(a.guest)} to join"


def _join(w: _Words, a: L.Join) -> str:
    if a.cards:
        return f"{w.who(a.seat)} joined with {a.cards}"
    return f"{w.who(a.seat)} declined to join"


_TELLERS: Final[dict[type, Callable[[_Words, Any], str]]] = {
    A.StartPlayer: _start,
    L.DrawFate: _draw,
    L.Reshuffle: lambda w, a: "The fate cards put aside were shuffled into the deck",
    A.RollDice: lambda w, a: "",
    A.Dice: _dice,
    L.PlayFate: _played,
    L.Harvest: lambda w, a: f"{w.who(w.after.active)} took the harvest: {_pays(w)}",
    L.AgeHex: lambda w, a: f"{w.who(w.after.active)} picked the hex to age",
    L.Move: _move,
    L.ExploreRoll: _explored,
    L.ChooseSeer: _seer,
    L.Stay: lambda w, a: f"{w.who(w.after.active)} stayed put",
    L.Flee: _fled,
    L.EndMovement: lambda w, a: f"{w.who(w.after.active)} ended the movement",
    L.BankTrade: _bank,
    L.HarbourTrade: _harbour,
    L.OfferTrade: _offer,
    L.AnswerTrade: _answer,
    L.BuildFarm: _build,
    L.BuildTown: _build,
    L.BuildUnit: _build,
    L.BuildHarbour: _build,
    L.AgeNumber: _build,
    A.EndTurn: _end_turn,
    L.Pass: _pass,
    L.Appoint: _appoint,
    L.Sue: _sue,
    L.Bid: _bid,
    L.Invite: _invite,
    L.Join: _join,
}


def tell(
    before: LandnamState,
    action: Action,
    after: LandnamState,
    names: Sequence[str],
    viewer: Seat = 0,
) -> str:
    """One action in words as ``viewer`` saw it ("" for one that says nothing by itself, the
    roll request before its dice).

    Args:
        before, after: the seat's view just before and just after the action.
        action: the action as the seat observed it (another seat's face-down draw withheld).
        names: one name per seat; the viewer's seat is "You".
        viewer: the seat whose view this is.

    Raises:
        KeyError: an action that is not Landnám's.
    """
    w = _Words(before, after, names, viewer)
    text = _TELLERS[type(action)](w, action)
    extra = _consequences(w)
    words = "; ".join([text, *extra] if text else extra)
    return words[:1].upper() + words[1:]


__all__ = ["TERRAIN_LETTERS", "TOKEN_NAMES", "tell"]
