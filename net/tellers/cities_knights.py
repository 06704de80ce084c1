"""Cities & Knights' actions in words (seed 002 «Города и рыцари»;
docs/rules/cities-and-knights.md): the event die and the barbarians, knights, walls, city
improvements and metropolises, pillaged cities, the aqueduct and progress cards (a card named
only where the narrating seat saw it). The dice of a roll are told by the base game; the roll's
production or 7 follows the event die, once it is settled."""

from __future__ import annotations

from typing import Final

from hexlan.engine import events as E
from hexlan.engine.core import Resource
from hexlan.engine.info import InformationState
from hexlan.engine.shown import (
    NO_TAKE,
    DeckShown,
    DeckTake,
    HandShown,
    HandTake,
)
from hexlan.engine.variants.cities_knights import progress_of
from hexlan.engine.variants.cities_knights.actions import (
    SHIP,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DiscardProgress,
    EventDie,
    GiveCards,
    HarborAnswer,
    HarborOffer,
    ImproveCity,
    MoveKnight,
    PillageCity,
    PlayProgress,
    PointShown,
    ProgressDrawn,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress_board import BOARD_CARDS
from hexlan.net.tellers.base import discards_due
from hexlan.net.tellers.board_cards import LEVELS, board_effect
from hexlan.net.telling import Target, Telling, Told, describe_cards, tells

EFFECTS: Final = {
    "printer": "1 victory point",
    "constitution": "1 victory point",
    "road_building": "two roads free",
    "smith": "two knight promotions free",
    "irrigation": "2 grain for each fields hex beside them",
    "mining": "2 ore for each mountains hex beside them",
    "warlord": "every knight of theirs activated",
    "engineer": "a city wall free at {place}",
    "medicine": "a city at {place} for 2 ore and 1 grain",
    "crane": "the next city improvement one commodity cheaper",
    "merchant_fleet": "{kind} 2:1 at the bank this turn",
    "saboteur": "the players with as many points or more discard half",
    "diplomat": "an open road removed",
    "wedding": "the players with more points give 2 cards each",
    "intrigue": "the knight at {place} displaced",
    "resource_monopoly": "up to 2 {kind} from each other player",
    "trade_monopoly": "1 {kind} from each other player",
    "commercial_harbor": "a resource offered to each player for a commodity",
    "master_merchant": "{whose} hand to look at, 2 cards to take",
    "spy": "{whose} progress cards to look at, 1 to take",
}
"""What each playable progress card does, in words ({place}: its chosen intersection; {kind}:
its chosen kind of card)."""
KIND_CARDS: Final = frozenset({"merchant_fleet", "resource_monopoly", "trade_monopoly"})
"""The cards whose choice is a kind of card."""


def card_name(t: Telling, track: int, face: int) -> str:
    """A progress card's name: its entry in the rule set's deck table ("merchant fleet")."""
    names = list(t.state.rules.raw["decks"][TRACKS[track]])
    return str(names[face]).replace("_", " ")


def went_on(t: Telling) -> str:
    """After the event die and what it set off, the roll's production or its 7, once it goes
    on (empty while it still waits)."""
    n, dice = t.narrator, t.state.dice
    if t.state.roll_pending or dice is None:
        return ""
    if dice.total != 7:
        return n.roll_went_on(t.news)
    due = discards_due(t)  # the 7 itself was told with the dice
    return ";" + due if due else ""


@tells(EventDie)
def event_rolled(t: Telling) -> Told:
    """The event die's face and what it set off (then the roll's production or 7)."""
    action, n = t.of(EventDie), t.narrator
    progress = progress_of(t.state)
    landed = next((ev for ev in t.news if isinstance(ev, E.BarbariansLanded)), None)
    if action.symbol != SHIP:
        track = TRACKS[action.symbol - 1]
        cards = len(progress.draws)
        text = f"The event die shows the {track} gate: {cards} progress card"
        text += "" if cards == 1 else "s"
    elif landed is None:
        steps = progress.barbarians
        text = f"The event die shows the ship: the barbarians sail ({steps} of 7)"
    else:
        text = f"The barbarians land: {landed.strength} against Catan's knights {landed.knights}"
        if landed.defender >= 0:
            text += f"; {n.who(landed.defender)} {n.verb(landed.defender, 'defend', 'defends')}"
            text += " Catan (1 point)"
        elif landed.tied:
            text += "; the strongest defenders tie, each choosing a progress card"
        elif landed.losers:
            text += "; the barbarians win: " + ", ".join(n.who(s) for s in landed.losers)
            text += " lose a city"
    return Told(text + went_on(t), "roll")


@tells(BuildKnight, ActivateKnight, PromoteKnight, BuildWall)
def knight_or_wall(t: Telling) -> Told:
    """A knight built, activated or promoted, or a city wall built."""
    n = t.narrator
    node = getattr(t.action, "node")  # noqa: B009 (each of the four names an intersection)
    place = n.node_place(node)
    if isinstance(t.action, BuildKnight):
        text = f"{t.who} built a knight at {place}"
    elif isinstance(t.action, ActivateKnight):
        text = f"{t.who} activated a knight at {place}"
    elif isinstance(t.action, PromoteKnight):
        level = LEVELS[progress_of(t.state).knights[node].level]
        text = f"{t.who} promoted a knight at {place} to {level}"
    else:
        text = f"{t.who} built a city wall at {place}"
    return Told(text, "build", ("node", (node,)))


@tells(MoveKnight)
def knight_moved(t: Telling) -> Told:
    """A knight moved, displacing a weaker one."""
    action, n = t.of(MoveKnight), t.narrator
    text = f"{t.who} moved a knight to {n.node_place(action.target)}"
    for ev in t.news:
        if isinstance(ev, E.KnightDisplaced):
            text += f", displacing {n.whose(ev.seat)} {LEVELS[ev.level]} knight"
    return Told(text, "build", ("node", (action.target,)))


@tells(RetreatKnight)
def knight_retreated(t: Telling) -> Told:
    """A displaced knight moved by its owner."""
    action, n = t.of(RetreatKnight), t.narrator
    text = f"{n.who(action.seat)} moved the displaced knight to {n.node_place(action.node)}"
    return Told(text, "build", ("node", (action.node,)), seat=action.seat)


@tells(ChaseRobber)
def robber_chased(t: Telling) -> Told:
    """A knight sent after the robber (its move follows)."""
    return Told(f"{t.who} sent a knight after the robber", "robber")


@tells(ImproveCity)
def improved(t: Telling) -> Told:
    """A city improvement, and a metropolis won."""
    action, n = t.of(ImproveCity), t.narrator
    level = progress_of(t.state).levels[t.active][action.track]
    text = f"{t.who} built {TRACKS[action.track]} level {level}"
    for ev in t.news:
        if isinstance(ev, E.MetropolisMoved):
            text += f" and {n.verb(ev.seat, 'take', 'takes')} the {TRACKS[ev.track]} metropolis"
            if ev.previous >= 0:
                text += f" from {n.whom(ev.previous)}"
    return Told(text)


@tells(PillageCity)
def pillaged(t: Telling) -> Told:
    """A city lost to the barbarians (then, after the last, the roll's production)."""
    action, n = t.of(PillageCity), t.narrator
    text = f"{n.who(action.seat)} lost the city at {n.node_place(action.node)} to the barbarians"
    return Told(text + went_on(t), "robber", ("node", (action.node,)), seat=action.seat)


@tells(AqueductPick)
def aqueduct(t: Telling) -> Told:
    """The aqueduct's resource, taken by a seat the roll gave nothing."""
    action, n = t.of(AqueductPick), t.narrator
    text = f"{n.who(action.seat)} took 1 {action.resource.name.lower()} (the aqueduct)"
    return Told(text, "roll", seat=action.seat)


@tells(ChooseProgress)
def deck_chosen(t: Telling) -> Told:
    """A tied defender's choice of deck."""
    action, n = t.of(ChooseProgress), t.narrator
    text = f"{n.who(action.seat)} chose a {TRACKS[action.track]} progress card"
    return Told(text, "dev", seat=action.seat)


def _drawer(view: InformationState) -> int:
    """The seat drawing the progress card due."""
    return progress_of(view).draws[0][0]


@tells(ProgressDrawn, actor=_drawer)
def progress_drawn(t: Telling) -> Told:
    """A progress card drawn, named for its drawer only (then the roll's production)."""
    action = t.of(ProgressDrawn)
    drawn = next(ev for ev in t.news if isinstance(ev, E.ProgressCardDrawn))
    name = "" if action.face is None else f": {card_name(t, drawn.track, action.face)}"
    text = f"{t.who} drew a {TRACKS[drawn.track]} progress card{name}"
    return Told(text + went_on(t), "dev")


@tells(PointShown)
def point_shown(t: Telling) -> Told:
    """A drawn Printer or Constitution shown at once, with its point (official: played when
    drawn, even out of turn); a drawn card shown to be none says nothing of itself. Then the
    roll goes on, as after the draw."""
    action, n = t.of(PointShown), t.narrator
    if action.face < 0:
        rest = went_on(t).lstrip("; ")
        return Told(rest[:1].upper() + rest[1:], "dev")
    name = card_name(t, action.track, action.face)
    text = f"{n.who(action.seat)} drew and showed the progress card {name}: 1 victory point"
    return Told(text + went_on(t), "dev", seat=action.seat)


@tells(DiscardProgress)
def progress_discarded(t: Telling) -> Told:
    """A progress card over the limit, discarded face up."""
    action, n = t.of(DiscardProgress), t.narrator
    name = card_name(t, action.track, action.face)
    text = f"{n.who(action.seat)} discarded the progress card {name}"
    return Told(text + went_on(t), "dev", seat=action.seat)


@tells(PlayProgress)
def progress_played(t: Telling) -> Told:
    """A progress card played face up, and what it does."""
    action, n = t.of(PlayProgress), t.narrator
    played = next(ev for ev in t.news if isinstance(ev, E.ProgressCardPlayed))
    fleet = played.name in KIND_CARDS
    node = action.choice >= 0 and played.name in ("engineer", "medicine", "intrigue")
    place = n.node_place(action.choice) if node else ""
    kind = Resource(action.choice).name.lower() if fleet else ""
    whose = n.whose(action.choice) if played.name in ("master_merchant", "spy") else ""
    effect = EFFECTS.get(played.name, "").format(place=place, kind=kind, whose=whose)
    text = f"{t.who} played the progress card {card_name(t, action.track, action.face)}"
    target: Target = ("node", (action.choice,)) if node else None
    if played.name == "diplomat":
        target = ("path", (action.choice,))
    if played.name in BOARD_CARDS:
        effect, target = board_effect(t, played.name, action.choice)
    due = discards_due(t) if played.name == "saboteur" else ""
    text = f"{text}: {effect}" if effect else text
    return Told(text + (";" + due if due else ""), "dev", target)


@tells(GiveCards)
def wedding_gift(t: Telling) -> Told:
    """A seat's two cards given to the Wedding's player."""
    action, n = t.of(GiveCards), t.narrator
    text = f"{n.who(action.seat)} gave {n.whom(t.active)} {describe_cards(action.cards)}"
    return Told(text + " (the Wedding)", "trade", seat=action.seat)


@tells(HarborOffer)
def harbor_offered(t: Telling) -> Told:
    """The Commercial Harbor's offer to the next seat, or a seat passed by."""
    action, n = t.of(HarborOffer), t.narrator
    if action.offer < 0:
        return Told(f"{t.who} passed a player by (the Commercial Harbor)", "trade")
    partner = progress_of(t.state).harbor[0]
    kind = Resource(action.offer).name.lower()
    return Told(f"{t.who} offered {n.whom(partner)} 1 {kind} (the Commercial Harbor)", "trade")


@tells(HarborAnswer)
def harbor_answered(t: Telling) -> Told:
    """A seat's answer to the Commercial Harbor: a commodity for the offer, or none held."""
    action, n = t.of(HarborAnswer), t.narrator
    if action.commodity < 0:
        text = f"{n.who(action.seat)}: no commodity to give"
    else:
        kind = Resource(action.commodity).name.lower()
        text = f"{n.who(action.seat)} gave {n.whom(t.active)} 1 {kind} for the offer"
    return Told(text + " (the Commercial Harbor)", "trade", seat=action.seat)


@tells(HandShown)
def hand_shown(t: Telling) -> Told:
    """The Master Merchant's victim shows its hand to the player (the cards named only where
    the narrating seat saw them)."""
    action, n = t.of(HandShown), t.narrator
    text = f"{n.who(action.seat)} showed {n.whom(t.active)} a hand of cards"
    if action.hand is not None:
        text += f": {describe_cards(action.hand)}"
    return Told(text + " (the Master Merchant)", "trade", seat=action.seat)


@tells(HandTake)
def merchant_took(t: Telling) -> Told:
    """The Master Merchant's two cards taken (named only where the narrating seat saw them)."""
    action, n = t.of(HandTake), t.narrator
    victim = progress_of(t.state).merchant
    cards = "2 cards" if action.taken is None else describe_cards(action.taken)
    return Told(f"{t.who} took {cards} from {n.whom(victim)} (the Master Merchant)", "trade")


@tells(DeckShown)
def progress_shown(t: Telling) -> Told:
    """The Spy's victim shows its progress cards to the player (named only where the narrating
    seat saw them: the player and the victim)."""
    action, n = t.of(DeckShown), t.narrator
    text = f"{n.who(action.seat)} showed {n.whom(t.active)} {n.verb(action.seat, 'your', 'their')} progress cards"
    if action.cards is not None:
        names = ", ".join(card_name(t, track, face) for track, face in action.cards)
        text += f": {names or 'none'}"
    return Told(text + " (the Spy)", "dev", seat=action.seat)


@tells(DeckTake)
def spy_took(t: Telling) -> Told:
    """The Spy's take: a card named where the narrating seat saw it, else its deck; or none."""
    action, n = t.of(DeckTake), t.narrator
    victim = progress_of(t.state).spy
    if action.deck == NO_TAKE:
        card = "no progress card"
    elif action.face is None:
        card = f"a {TRACKS[action.deck]} progress card"
    else:
        card = f"the progress card {card_name(t, action.deck, action.face)}"
    return Told(f"{t.who} took {card} from {n.whom(victim)} (the Spy)", "dev")
