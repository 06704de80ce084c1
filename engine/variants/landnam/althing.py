"""The Althing, held on a roll of 7 (../shared/landnam-rules.md §8, §14; gaps G14, G19).

In order: the fate draws (:func:`~.economy.dice`); an opening window in which every seat holding
a fate card, from the active seat clockwise, may play Althing cards (Atonement saves an outlaw
before the outlaws go, §8.2); the outlaws are removed, each red token a point for the seat it
points at; the active seat appoints the seat that starts the lawsuit round, which goes once
clockwise; each seat brings its cases one at a time (§8.3-8.4). A case is a card auction (§8.5):
the plaintiff opens with at least one card of the case's resource, then the sides take turns,
each turn bringing the side's total above the other's or losing. On a side's turn its members
act from its last joiner back to its first, each raising alone or passing to the next; the last
joiner may first invite an uninvolved seat, which joins with at least one card (and then acts
for the side, as its last joiner) or declines. Every card paid goes back to the stock. The
winning side's last joiner takes a white token; a losing defence's unit is outlawed with a red
token pointing at the plaintiff's settlement. Last, a seat with at least three possible suits
against it and none tried takes a black token (§8.6). Althing cards may be played by a seat at
each of its decisions in the Althing (§8.7: Flawed pleading only while a case is in progress).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.actions import Action
from hexlan.engine.core import Seat
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import movement
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.parts import Althing, Case
from hexlan.engine.variants.landnam.phases import (
    ALTHING_OPEN,
    APPOINT,
    CASE,
    INVITED,
    MOVE,
    SUING,
)
from hexlan.engine.variants.landnam.rules import Fate, Land

if TYPE_CHECKING:
    from hexlan.engine.variants.landnam.state import LandnamState


def _althing(state: LandnamState) -> Althing:
    assert state.althing is not None
    return state.althing


def _case(state: LandnamState) -> Case:
    case = _althing(state).case
    assert case is not None
    return case


def open_window(state: LandnamState) -> None:
    """The Althing opens (§8.2): the seats holding a fate card decide in turn whether to play
    Althing cards; with none, the outlaws go at once."""
    order = [(state.active + k) % state.players for k in range(state.players)]
    state.althing = Althing([s for s in order if state.fate_count(s)])
    if not state.althing.window:
        _remove_outlaws(state)


def althing_cards(state: LandnamState, seat: Seat) -> list[Action]:
    """The Althing cards ``seat`` may play now (§8.7, §16.2): Atonement on any red token,
    Flawed pleading while a case is in progress, Thing broken up once the outlaws are dealt
    with (§8.2: only the cards that remove red tokens are played before)."""
    choices: list[Action] = []
    for face in state.holds(seat, "althing"):
        if face == Fate.ATONEMENT:
            for number, unit in enumerate(state.units):
                if unit is not None:
                    choices.extend(
                        L.PlayFate(seat, face, number, i) for i in range(len(unit.tokens))
                    )
        elif face == Fate.FLAWED_PLEADING:
            if state.phase == CASE:
                choices.append(L.PlayFate(seat, face))
        elif state.phase != ALTHING_OPEN:
            choices.append(L.PlayFate(seat, face))
    return choices


def window_seat(state: LandnamState) -> Seat:
    """The seat deciding in the opening window."""
    return _althing(state).window[0]


def window_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Pass, or play an Althing card."""
    return [L.Pass(seat), *althing_cards(state, seat)]


def _remove_outlaws(state: LandnamState) -> None:
    """Every outlawed unit leaves the board, each red token a point for the seat it points at
    (§8.2); the active seat then appoints the first seat of the lawsuit round."""
    for number, unit in enumerate(state.units):
        if unit is not None and unit.outlaw:
            movement.remove_unit(state, number, award=True)
    state.phase = APPOINT


def appoint_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Any seat may be named to start the lawsuit round (§8.4)."""
    return [L.Appoint(s) for s in range(state.players)]


def appointed(state: LandnamState, action: L.Appoint) -> None:
    """The lawsuit round begins with the appointed seat; the possible suits against each seat
    are counted now, for the black tokens (§8.6, gap G14)."""
    althing = _althing(state)
    althing.order = [(action.seat + k) % state.players for k in range(state.players)]
    for plaintiff in range(state.players):
        for number, _kind, _corners in suits(state, plaintiff):
            defendant = state.unit(number).owner
            althing.possible.setdefault(defendant, set()).add((plaintiff, number))
    state.phase = SUING


def suits(state: LandnamState, plaintiff: Seat) -> list[tuple[int, int, list[int]]]:
    """The cases ``plaintiff`` may bring now (§8.3; gap G19): ``(unit, resource, corners)`` for
    each other seat's settler on a numbered producing hex, or ship on a harbour hex, at a corner
    of which the plaintiff has a settlement (``corners``), with no red token already pointing at
    the plaintiff and not yet sued by it in this Althing."""
    althing = _althing(state)
    found = []
    for number, unit in enumerate(state.units):
        if unit is None or unit.owner == plaintiff or unit.at == OUTER:
            continue
        if (plaintiff, number) in althing.tried or any(p == plaintiff for p, _ in unit.tokens):
            continue
        if state.settler_like(unit):
            if not state.numbers[unit.at]:
                continue
            kind = Land(state.terrain[unit.at]).kind
        elif state.harbours[unit.at] >= 0:
            kind = state.harbours[unit.at]
        else:
            continue
        corners = [
            c
            for c in state.board.corners[unit.at]
            if state.buildings.get(c, (-1, False))[0] == plaintiff
        ]
        if corners:
            found.append((number, kind, corners))
    return found


def suing_seat(state: LandnamState) -> Seat:
    """The seat bringing its cases."""
    return _althing(state).order[0]


def suing_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Bring no more cases, bring one at any opening it can pay, or play an Althing card."""
    choices: list[Action] = [L.Pass(seat)]
    hand = state.hands[seat]
    for number, kind, corners in suits(state, seat):
        for corner in corners:
            choices.extend(L.Sue(seat, number, corner, n) for n in range(1, hand[kind] + 1))
    choices.extend(althing_cards(state, seat))
    return choices


def passed(state: LandnamState, action: L.Pass) -> None:
    """A seat plays no (more) Althing cards in the window, or brings no more cases."""
    althing = _althing(state)
    if state.phase == ALTHING_OPEN:
        althing.window.pop(0)
        if not althing.window:
            _remove_outlaws(state)
        return
    althing.order.pop(0)
    if not althing.order:
        _close(state, black_tokens=True)


def _close(state: LandnamState, black_tokens: bool) -> None:
    """The Althing ends: black tokens to the seats with enough possible suits against them and
    none tried (§8.6; none when the Thing was broken up, §8.7); the movement phase follows."""
    althing = _althing(state)
    if black_tokens:
        for defendant, pairs in althing.possible.items():
            if len(pairs) >= state.rules.black_token_cases and not pairs & althing.tried:
                state.tokens[defendant][2] += 1
    state.althing = None
    state.phase = MOVE


def sued(state: LandnamState, action: L.Sue) -> None:
    """A case opens (§8.5.1): the plaintiff pays its opening; the defence acts next."""
    althing = _althing(state)
    unit = state.unit(action.unit)
    kind = next(k for n, k, _ in suits(state, action.seat) if n == action.unit)
    _pay(state, action.seat, kind, action.cards)
    althing.tried.add((action.seat, action.unit))
    althing.case = Case(
        action.unit, kind, action.corner, ([action.seat], [unit.owner]), [action.cards, 0]
    )
    state.phase = CASE


def case_seat(state: LandnamState) -> Seat:
    """The seat whose decision in the case is due (the invited seat, when one is asked)."""
    return _case(state).acting()


def need(state: LandnamState) -> int:
    """The fewest cards the acting side must add to bring its total above the other's."""
    case = _case(state)
    return case.totals[1 - case.turn] - case.totals[case.turn] + 1


def case_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Raise by any amount that brings the side above the other (§8.5.2), pass to the side's
    next member (the last to pass concedes), invite an uninvolved seat (the last joiner, first,
    §8.5.4), or play an Althing card."""
    case = _case(state)
    hand = state.hands[seat][case.kind]
    choices: list[Action] = [L.Bid(seat, 0)]
    choices.extend(L.Bid(seat, n) for n in range(max(1, need(state)), hand + 1))
    if case.member == 0:
        choices.extend(L.Invite(seat, g) for g in guests(state))
    choices.extend(althing_cards(state, seat))
    return choices


def guests(state: LandnamState) -> list[Seat]:
    """The seats the acting side may invite: not on either side, not declined in this case,
    holding a card of the case's resource."""
    case = _case(state)
    involved = case.involved() | case.declined
    return [s for s in range(state.players) if s not in involved and state.hands[s][case.kind]]


def guest_choices(state: LandnamState, seat: Seat) -> list[Action]:
    """Join with any number of cards from one, or decline."""
    hand = state.hands[seat][_case(state).kind]
    return [L.Join(seat, n) for n in range(hand + 1)]


def bid(state: LandnamState, action: L.Bid) -> None:
    """A member raises (the other side's turn follows) or passes (the side's next member acts;
    after the last, the side loses)."""
    case = _case(state)
    if action.cards:
        _pay(state, action.seat, case.kind, action.cards)
        case.totals[case.turn] += action.cards
        case.turn, case.member = 1 - case.turn, 0
        return
    case.member += 1
    if case.member >= len(case.sides[case.turn]):
        _decide(state, loser=case.turn)


def invited(state: LandnamState, action: L.Invite) -> None:
    """The last joiner asks an uninvolved seat to join its side."""
    _case(state).guest = action.guest
    state.phase = INVITED


def joined(state: LandnamState, action: L.Join) -> None:
    """The invited seat joins (its cards count for the side, and it is the side's last
    joiner now) or declines (§8.5.4)."""
    case = _case(state)
    case.guest = -1
    state.phase = CASE
    if not action.cards:
        case.declined.add(action.seat)
        return
    _pay(state, action.seat, case.kind, action.cards)
    case.sides[case.turn].append(action.seat)
    case.totals[case.turn] += action.cards
    case.member = 0
    if case.totals[case.turn] > case.totals[1 - case.turn]:
        case.turn = 1 - case.turn


def _decide(state: LandnamState, loser: int) -> None:
    """The case ends (§8.5.3-5): the winning side's last joiner takes a white token; a losing
    defence's unit is outlawed, its red token pointing at the plaintiff's settlement."""
    althing = _althing(state)
    case = _case(state)
    winner = case.sides[1 - loser][-1]
    state.tokens[winner][0] += 1
    if loser == 1:
        state.unit(case.unit).tokens.append((case.sides[0][0], case.corner))
    althing.case = None
    state.phase = SUING


def _pay(state: LandnamState, seat: Seat, kind: int, cards: int) -> None:
    """Cards paid in a case go back to the stock, whatever the result (§8.5.6)."""
    state.hands[seat][kind] -= cards
    state.stock[kind] += cards


def althing_card(state: LandnamState, face: Fate, action: L.PlayFate) -> None:
    """An Althing card's effect (§16.2): Atonement removes a red token (to the supply); Flawed
    pleading ends the case in progress with no token; Thing broken up ends the Althing, tokens
    won kept, no black tokens (§8.7)."""
    if face == Fate.ATONEMENT:
        state.unit(action.target).tokens.pop(action.choice)
    elif face == Fate.FLAWED_PLEADING:
        _althing(state).case = None
        state.phase = SUING
    else:
        _close(state, black_tokens=False)


__all__ = [
    "althing_card",
    "althing_cards",
    "appoint_choices",
    "appointed",
    "bid",
    "case_choices",
    "case_seat",
    "guest_choices",
    "guests",
    "invited",
    "joined",
    "need",
    "open_window",
    "passed",
    "sued",
    "suing_choices",
    "suing_seat",
    "suits",
    "window_choices",
    "window_seat",
]
