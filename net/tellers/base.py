"""The base game's actions in words (seed 002, the base game; the 5-6 player game's special
building phase), and the clauses of awards and variant points that any game's action may add."""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine.core import NO_SEAT, DevCard, DevelopmentCard, Phase
from hexlan.net.telling import EventKind, Telling, Told, describe_cards, tells, tells_event


def placed_path(t: Telling, piece: str) -> Told:
    """A road (or a ship) placed in the set-up, built, or built free by Road Building; the last
    set-up piece also says that the set-up is done."""
    n = t.narrator
    path = getattr(t.action, "path")  # noqa: B009 (BuildRoad and Seafarers' BuildShip)
    verb = "placed" if t.setup else "built"
    free = " free" if t.phase is Phase.ROAD_BUILDING else ""
    text = f"{t.who} {verb} a{free} {piece}"
    if t.setup:
        for ev in t.news:
            if isinstance(ev, E.TurnStarted):
                text += f". Set-up done: Turn 1, {n.whose(ev.seat, capital=False)} turn"
    return Told(text, "setup" if t.setup else "build", ("path", (path,)))


_DEEDS: dict[type[A.Action], tuple[str, EventKind]] = {
    A.BuyDevelopmentCard: ("bought a development card", "dev"),  # its draw follows
    A.PlayRoadBuilding: ("played Road Building", "dev"),  # its free pieces follow
    A.CancelTrade: ("withdrew the offer", "trade"),
}
"""Actions told by the actor and a fixed phrase, with their kind."""


@tells(*_DEEDS)
def did(t: Telling) -> Told:
    """An action told by a fixed phrase (:data:`_DEEDS`): "Blue withdrew the offer"."""
    phrase, kind = _DEEDS[type(t.action)]
    return Told(f"{t.who} {phrase}", kind)


@tells(A.StartPlayer)
def start_player(t: Telling) -> Told:
    """The start player drawn."""
    action = t.of(A.StartPlayer)
    n = t.narrator
    text = f"{n.who(action.seat)} {n.verb(action.seat, 'start', 'starts')} the set-up"
    return Told(text, "start", seat=None)


@tells(A.BuildSettlement, A.BuildCity)
def built(t: Telling) -> Told:
    """A settlement or a city, with the starting resources of the set-up building that yields
    them (the second settlement; in Cities & Knights, the set-up city)."""
    action = t.action
    assert isinstance(action, A.BuildSettlement | A.BuildCity)
    n = t.narrator
    verb = "placed" if t.setup else "built"
    piece = "settlement" if isinstance(action, A.BuildSettlement) else "city"
    text = f"{t.who} {verb} a {piece} at {n.node_place(action.node)}"
    for ev in t.news:
        if isinstance(ev, E.StartingResources) and any(ev.cards):
            text += f" and {n.verb(ev.seat, 'take', 'takes')} {describe_cards(ev.cards, n.state.rules.cards)}"
    return Told(text, "setup" if t.setup else "build", ("node", (action.node,)))


@tells(A.BuildRoad)
def built_road(t: Telling) -> Told:
    """A road."""
    return placed_path(t, "road")


@tells(A.DrawCard)
def drew_card(t: Telling) -> Told:
    """The card a buyer drew: named to the buyer only (others saw ``card=None``)."""
    action = t.of(A.DrawCard)
    text = "" if action.card is None else f"{t.who} drew {_card_name(action.card)}"
    return Told(text, "dev")


@tells(A.RollDice)
def asked_to_roll(t: Telling) -> Told:
    """A roll asked for: the dice that follow say it."""
    return Told("", "roll")


@tells(A.Dice)
def rolled(t: Telling) -> Told:
    """The dice, and what they did: production, or a 7 with its discards."""
    action = t.of(A.Dice)
    n = t.narrator
    total = action.total
    n.rolls.append(total)
    text = f"{t.who} rolled {total} ({action.first}+{action.second})" + t.clauses("roll")
    target = None
    if total == 7:
        variant = t.state.variant
        locked = variant is not None and variant.robber_locked(t.state)  # C&K: not yet
        text += ": the robber!" if n.has_robber and not locked else ": a 7!"
        text += discards_due(t)
    elif not t.state.roll_pending:  # Pirate Islands: production waits for the fleet's loot
        produced, target = n.production(t.news, total)
        text += ": " + produced
    return Told(text, "roll", target)


def discards_due(t: Telling) -> str:
    """The seats a 7 makes discard, and how many, as a sentence ("" when none)."""
    n = t.narrator
    due = next((ev.counts for ev in t.news if isinstance(ev, E.DiscardsDue)), ())
    need = [s for s, count in enumerate(due) if count]
    if not need:
        return ""
    listing = ", ".join(f"{n.whom(s)} {n.verb(s, 'discard', 'discards')} {due[s]}" for s in need)
    return " " + listing[0].upper() + listing[1:]


@tells(A.Discard)
def discarded(t: Telling) -> Told:
    """A seat's discard on a 7 (and, in Pirate Islands, what the roll then gave)."""
    action = t.of(A.Discard)
    n = t.narrator
    count = sum(action.cards)
    plural = "card" if count == 1 else "cards"
    text = f"{n.who(action.seat)} discarded {count} {plural}: {describe_cards(action.cards)}"
    return Told(text + n.roll_went_on(t.news), "discard", seat=action.seat)


@tells(A.MoveRobber)
def moved_robber(t: Telling) -> Told:
    """The robber moved, and whom it robs."""
    action = t.of(A.MoveRobber)
    n = t.narrator
    text = f"{t.who} moved the robber to {n.hex_place(action.hex)}"
    if action.victim >= 0:
        text += f" and {n.verb(t.active, 'rob', 'robs')} {n.whom(action.victim)}"
    return Told(text, "robber", ("hex", (action.hex,)))


@tells(A.StealCard)
def stole(t: Telling) -> Told:
    """A card stolen: named to thief and victim only (:class:`~hexlan.engine.events.Stole`)."""
    n = t.narrator
    theft = next(ev for ev in t.news if isinstance(ev, E.Stole))
    card = "" if theft.resource is None else f": {theft.resource.name.lower()}"
    return Told(f"{t.who} stole a card from {n.whom(theft.victim)}{card}", "steal")


@tells(A.PlayKnight)
def played_knight(t: Telling) -> Told:
    """A Knight (in Pirate Islands, which has no robber, it makes a warship: seed 004)."""
    text = f"{t.who} played a Knight"
    if not t.narrator.has_robber:
        text += " and made a warship"
    return Told(text, "dev")


@tells(A.PlayYearOfPlenty)
def played_year_of_plenty(t: Telling) -> Told:
    """Year of Plenty, with the cards taken."""
    action = t.of(A.PlayYearOfPlenty)
    took = " and ".join(r.name.lower() for r in action.resources) or "nothing"
    return Told(f"{t.who} played Year of Plenty and took {took}", "dev")


@tells(A.PlayMonopoly)
def played_monopoly(t: Telling) -> Told:
    """Monopoly on a resource (what it takes follows)."""
    action = t.of(A.PlayMonopoly)
    return Told(f"{t.who} played Monopoly on {action.resource.name.lower()}", "dev")


@tells(A.MonopolyTake)
def monopoly_took(t: Telling) -> Told:
    """What a Monopoly took, from whom."""
    action = t.of(A.MonopolyTake)
    n = t.narrator
    taken = next(ev for ev in t.news if isinstance(ev, E.MonopolyTaken))
    parts = [
        f"{count} from {n.whom(s)}"
        for s, count in enumerate(action.amounts)
        if count and s != t.active
    ]
    text = f"{t.who} took {sum(action.amounts)} {taken.resource.name.lower()}"
    if parts:
        text += " (" + ", ".join(parts) + ")"
    return Told(text, "dev")


@tells(A.MaritimeTrade)
def traded_with_bank(t: Telling) -> Told:
    """A trade with the bank or a harbour."""
    action = t.of(A.MaritimeTrade)
    ratio = max(action.give)
    where = "the bank" if ratio == 4 else f"a {ratio}:1 harbour"
    text = (
        f"{t.who} traded {describe_cards(action.give)} with {where} for 1 {action.get.name.lower()}"
    )
    return Told(text, "trade")


@tells(A.OfferTrade)
def offered(t: Telling) -> Told:
    """A trade offered to one seat or to everyone."""
    action = t.of(A.OfferTrade)
    n = t.narrator
    to = "everyone" if action.to == NO_SEAT else n.whom(action.to)
    text = (
        f"{t.who} {n.verb(t.active, 'offer', 'offers')} {describe_cards(action.give)} "
        f"for {describe_cards(action.get)} to {to}"
    )
    return Told(text, "trade")


@tells(A.AnswerTrade)
def answered(t: Telling) -> Told:
    """An answer to an offer; the last decline closes it."""
    action = t.of(A.AnswerTrade)
    n = t.narrator
    verbs = ("accept", "accepts") if action.accept else ("decline", "declines")
    text = f"{n.who(action.seat)} {n.verb(action.seat, *verbs)}"
    if any(isinstance(ev, E.TradeClosed) for ev in t.news):
        text += ": nobody accepted"
    return Told(text, "trade", seat=action.seat)


@tells(A.CounterOffer)
def countered(t: Telling) -> Told:
    """A counter-offer to the active seat."""
    action = t.of(A.CounterOffer)
    n = t.narrator
    text = (
        f"{n.who(action.seat)} {n.verb(action.seat, 'counter', 'counters')}: "
        f"{describe_cards(action.get)} for {n.whose(t.active)} {describe_cards(action.give)}"
    )
    return Told(text, "trade", seat=action.seat)


@tells(A.ConfirmTrade)
def confirmed(t: Telling) -> Told:
    """A trade between seats made (:class:`~hexlan.engine.events.Traded`)."""
    n = t.narrator
    text = ""
    for ev in t.news:
        if isinstance(ev, E.Traded):
            text = (
                f"{t.who} traded {describe_cards(ev.give)} with {n.whom(ev.partner)} "
                f"for {describe_cards(ev.get)}"
            )
    return Told(text, "trade")


@tells(A.EndTurn)
def ended_turn(t: Telling) -> Told:
    """A turn (or a special building turn) ended: whose turn or special build comes next."""
    n = t.narrator
    text = f"{t.who} ended the turn"
    for ev in t.news:
        if isinstance(ev, E.TurnStarted):
            text = f"Turn {ev.turn}: {n.whose(ev.seat, capital=True)} turn"
        elif isinstance(ev, E.SpecialBuildingStarted):
            text = f"Special building: {n.who(ev.seat)} may build"
    return Told(text, "turn")


@tells(A.RevealVictory)
def won(t: Telling) -> Told:
    """The winner, with the victory point cards it shows."""
    n = t.narrator
    win = next(ev for ev in t.news if isinstance(ev, E.Won))
    cards = win.vp_cards
    shown = f", showing {cards} victory point card{'s' if cards != 1 else ''}" if cards else ""
    text = f"{n.who(win.seat)} {n.verb(win.seat, 'win', 'wins')} with {win.points} points{shown}"
    return Told(text, "game")


@tells_event(E.AwardMoved, "end")
def award_moved(t: Telling, ev: E.Event) -> str:
    """Longest Road (Longest Trade Route in Seafarers) or Largest Army changing hands."""
    assert isinstance(ev, E.AwardMoved)
    n = t.narrator
    holder = ev.to_seat
    if ev.award == "longest_road":
        if holder < 0:
            return f". {n.road_award} is set aside (a tie)"
        return f". {n.who(holder)} {n.verb(holder, 'take', 'takes')} {n.road_award} ({ev.size})"
    if holder < 0:
        return ""
    return f". {n.who(holder)} {n.verb(holder, 'take', 'takes')} Largest Army ({ev.size} knights)"


@tells_event(E.VariantPointsChanged, "end")
def variant_points_reached(t: Telling, ev: E.Event) -> str:
    """The acting seat reaching more of a game's own points: a Seafarers island bonus, the Big
    River's gold points."""
    assert isinstance(ev, E.VariantPointsChanged)
    if ev.seat != t.active or ev.victory_points <= ev.previous_vp:
        return ""
    n = t.narrator
    variant = t.state.variant
    what = (
        "an island bonus"
        if variant is not None and variant.name == "seafarers"
        else f"{ev.gold_points} gold points"
    )
    return (
        f". {n.who(ev.seat)} {n.verb(ev.seat, 'reach', 'reaches')} {what}"
        f" ({ev.victory_points} victory point{'s' if ev.victory_points != 1 else ''})"
    )


def _card_name(card: DevelopmentCard) -> str:
    """A development card with its article: "a Knight", "Monopoly"."""
    if card is DevCard.KNIGHT:
        return "a Knight"
    if card is DevCard.VICTORY_POINT:
        return "a Victory Point card"
    return card.title
