"""Cities & Knights at the table (seed 002 «Города и рыцари»; docs/rules/cities-and-knights.md):
the choices and picks of the game's own keys, which :mod:`hexlan.tui.games.cities_knights`
gives the game screen (the game's spec names this module among its ``views``).

Keys (none clash with the base game's; each shows in the footer only when legal):

- ``k`` **knights**: the intersections where a knight may be built and your knights that may act
  light up; picking an empty one builds a basic knight, picking a knight offers what it may do
  now (activate, promote, move, chase the robber); a move then lights the knight's targets.
- ``w`` **wall**: your cities that may take a wall light up.
- ``i`` **improve**: the tracks you can improve, with their cost; a level that wins the
  metropolis then lights your cities that may hold it.
- ``y`` **choose**: the decision due to you that a dialog answers (the aqueduct's resource,
  the deck of a defender's progress card, the progress card to discard, the Wedding's gift,
  the Commercial Harbor's offer or answer, the card the Spy takes); it
  opens by itself when due, ``y`` reopens it after Esc.
- ``l`` **cards**: your progress cards with their text; picking one you may play now plays it
  (a card asking for a place then lights the places on the board: Engineer, Medicine, the
  Diplomat's roads; the Merchant Fleet and the Resource and Trade Monopolies ask for the kind
  in a dialog; the Master Merchant and the Spy for the player, then for the cards taken).

A displaced knight's retreat and a city the barbarians take are picked on the board as soon
as they are due (they cannot be put off).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hexlan.engine.actions import Action
from hexlan.engine.core import GamePhase, Phase, Resource
from hexlan.engine.info import InformationState
from hexlan.engine.shown import (
    NO_TAKE,
    DeckTake,
    HandTake,
)
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    TRACK_COMMODITY,
    TRACKS,
    ActivateKnight,
    AqueductPick,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    ChooseProgress,
    DesertKnight,
    DiscardProgress,
    GiveCards,
    HarborAnswer,
    HarborOffer,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.engine.variants.cities_knights.progress_board import alchemist_choice, inventor_hexes
from hexlan.net.narrate import describe_cards
from hexlan.tui.games.cities_knights_panel import IMPROVEMENTS, KNIGHT_LEVELS, progress_card_name

PICK_PURPOSE: Final = {
    "knight": "Build or pick a knight",
    "knight target": "Move the knight to",
    "wall": "Wall which city",
    "metropolis": "Metropolis on which city",
    "retreat": "Move your displaced knight to",
    "pillage": "Barbarians won: lose which city",
    "progress card": "Play the card where",
    "progress road": "Diplomat: remove a road",
    "bishop hex": "Bishop: robber to",
    "merchant hex": "Merchant on which hex",
    "inventor first": "Inventor: swap which",
    "inventor second": "Inventor: swap it with",
    "deserter": "Deserter: lose which",
    "deserter place": "Deserter's knight to",
}
"""The prompt's head for each Cities & Knights pick (on intersections but the Diplomat's road
and the hexes of :data:`HEX_PICKS`). Short enough that the prompt fits 80 columns
(:data:`PROMPT_HEAD_ROOM`)."""
PROMPT_HEAD_ROOM: Final = 24
"""The longest head a pick's prompt may have at 80 columns: the line's padding (2) and its tail
(": type aa-bx, or arrows+Enter, or click · Esc cancels", 54) leave 24 cells; 14 more where
the pick is mandatory (:data:`PICK_PHASES`: no "Esc cancels")."""
HEX_PICKS: Final = frozenset({"bishop hex", "merchant hex", "inventor first", "inventor second"})
"""The picks of a hex (the board cards')."""
HEX_SOURCE: Final = 100
"""The Inventor's second pick's ``source``: the card's :func:`card_source` times this, plus the
first hex."""
BOARD_CARD_PLAYS: Final = {
    "alchemist": "",
    "deserter": "",
    "bishop": "bishop hex",
    "merchant": "merchant hex",
    "inventor": "inventor first",
}
"""The board cards' plays the screen asks for in its own way, with their hex picks (the
Alchemist's dice and the Deserter's opponent are dialogs)."""
PICK_DESERTER: Final = "pick"
"""The Deserter's placement dialog's answer that starts the pick of its place on the board."""

DIALOG_PHASES: Final[frozenset[GamePhase]] = frozenset(
    {
        KnightsPhase.AQUEDUCT,
        KnightsPhase.PROGRESS_CHOICE,
        KnightsPhase.PROGRESS_DISCARD,
        KnightsPhase.WEDDING,
        KnightsPhase.HARBOR,
        KnightsPhase.MERCHANT,
        KnightsPhase.DESERTER_PLACE,
        KnightsPhase.SPY,
    }
)
"""The decisions a dialog answers (``y``)."""
PICK_PHASES: Final[dict[GamePhase, str]] = {
    KnightsPhase.RETREAT: "retreat",
    KnightsPhase.PILLAGE: "pillage",
    KnightsPhase.DESERTER: "deserter",
}
"""The decisions picked on the board at once, by phase."""

WAITING_WORDS: Final[dict[GamePhase, str]] = {
    KnightsPhase.RETREAT: "to move a displaced knight",
    KnightsPhase.PILLAGE: "to give up a city to the barbarians",
    KnightsPhase.AQUEDUCT: "to take the aqueduct's resource",
    KnightsPhase.PROGRESS_CHOICE: "to choose a progress card",
    KnightsPhase.PROGRESS_DISCARD: "to discard a progress card",
    KnightsPhase.WEDDING: "to give the Wedding's two cards",
    KnightsPhase.HARBOR: "to trade at the Commercial Harbor",
    KnightsPhase.MERCHANT: "to take the Master Merchant's two cards",
    KnightsPhase.DESERTER: "to remove a knight (the Deserter)",
    KnightsPhase.DESERTER_PLACE: "to place the Deserter's knight",
    KnightsPhase.SPY: "to take a progress card with the Spy",
}
"""What the others are doing while the person waits, in this game's phases."""


MOVE: Final = "move"
"""The knight's choice that starts a pick of where it goes."""


CARD_TEXT: Final = {
    "alchemist": "before your roll, choose the red and yellow dice",
    "crane": "a city improvement costs one commodity less",
    "engineer": "build a city wall free",
    "inventor": "swap two number tokens (not 2, 6, 8, 12)",
    "irrigation": "2 grain for each fields hex beside your buildings",
    "medicine": "a city for 2 ore and 1 grain",
    "mining": "2 ore for each mountains hex beside your buildings",
    "printer": "1 victory point, played at once",
    "road_building": "build two roads free",
    "smith": "promote two knights free",
    "bishop": "move the robber; take a card from each player beside it",
    "constitution": "1 victory point, played at once",
    "deserter": "another player removes a knight; you place one of yours",
    "diplomat": "remove an open road (yours: rebuild it)",
    "intrigue": "displace a knight on one of your roads",
    "saboteur": "players with as many points as you or more discard half",
    "spy": "look at a player's progress cards and take one",
    "warlord": "activate all your knights free",
    "wedding": "players with more points give you 2 cards each",
    "commercial_harbor": "swap a resource for a commodity with each player",
    "master_merchant": "look at a richer player's hand, take 2 cards",
    "merchant": "the merchant on a hex: 2:1 for its resource, 1 point",
    "merchant_fleet": "2:1 with one resource or commodity this turn",
    "resource_monopoly": "each player gives you up to 2 of a resource",
    "trade_monopoly": "each player gives you 1 of a commodity",
}
"""Each progress card's effect in a line (the official rules; the engine plays those
docs/rules/cities-and-knights.md lists)."""


def place_of(what: str, action: Action, source: int) -> int | None:
    """The intersection ``action`` puts a Cities & Knights pick of ``what`` on, or None
    (``source``: the knight being moved, for "knight target")."""
    if what == "knight" and isinstance(
        action, BuildKnight | ActivateKnight | PromoteKnight | MoveKnight | ChaseRobber
    ):
        return action.node
    if what == "knight target" and isinstance(action, MoveKnight) and action.node == source:
        return action.target
    if what == "wall" and isinstance(action, BuildWall):
        return action.node
    if what == "metropolis" and isinstance(action, ImproveCity) and action.track == source:
        return action.metropolis
    if what == "retreat" and isinstance(action, RetreatKnight):
        return action.node
    if what == "pillage" and isinstance(action, PillageCity):
        return action.node
    if what == "deserter" and isinstance(action, DesertKnight):
        return action.node
    if what == "deserter place" and isinstance(action, PlaceDeserter) and action.node >= 0:
        return action.node
    if not isinstance(action, PlayProgress):
        return None
    if what in ("progress card", "progress road", "bishop hex", "merchant hex"):
        return action.choice if card_source(action.track, action.face) == source else None
    if what == "inventor second":
        card, first = divmod(source, HEX_SOURCE)
        pair = inventor_hexes(action.choice)
        if card_source(action.track, action.face) == card and first in pair:
            return pair[1] if pair[0] == first else pair[0]
    return None


def places_of(what: str, action: Action, source: int) -> tuple[int, ...]:
    """Every place ``action`` lights for a pick of ``what``: both hexes of an Inventor's swap
    for its first pick (either may be picked first), else :func:`place_of`'s one."""
    if what == "inventor first":
        if isinstance(action, PlayProgress) and card_source(action.track, action.face) == source:
            return inventor_hexes(action.choice)
        return ()
    place = place_of(what, action, source)
    return () if place is None else (place,)


def card_source(track: int, face: int) -> int:
    """A progress card as one number, the ``source`` of a pick of where it is played."""
    return track * CARD_FACES + face


CARD_FACES: Final = 64
"""More faces than any progress deck has (for :func:`card_source`)."""


def card_plays(legal: Sequence[Action], track: int, face: int) -> list[PlayProgress]:
    """The legal plays of the progress card ``face`` of ``track``'s deck (one per choice)."""
    return [a for a in legal if isinstance(a, PlayProgress) and (a.track, a.face) == (track, face)]


KIND_CARDS: Final = {
    "merchant_fleet": ("Merchant Fleet: which kind of card?", "{kind} 2:1 this turn"),
    "resource_monopoly": ("Resource Monopoly: which resource?", "up to 2 {kind} from each"),
    "trade_monopoly": ("Trade Monopoly: which commodity?", "1 {kind} from each"),
}
"""The cards whose choice is a kind of card: the dialog's title and each choice's words."""


def kind_choices(name: str, plays: Sequence[PlayProgress]) -> tuple[str, list[tuple[str, Action]]]:
    """The title and the kinds of card of a card of :data:`KIND_CARDS`, as dialog choices."""
    title, words = KIND_CARDS[name]
    return title, [(words.format(kind=Resource(a.choice).name.lower()), a) for a in plays]


def alchemist_reds() -> list[tuple[str, int]]:
    """The Alchemist's first question: the red die (it also decides progress draws)."""
    return [(f"red {red}", red) for red in range(1, 7)]


def alchemist_yellows(plays: Sequence[PlayProgress], red: int) -> list[tuple[str, Action]]:
    """The Alchemist's second question: the yellow die with ``red`` chosen, and the total."""
    legal = {a.choice: a for a in plays}
    return [
        (f"yellow {yellow}: total {red + yellow}", legal[alchemist_choice(red, yellow)])
        for yellow in range(1, 7)
        if alchemist_choice(red, yellow) in legal
    ]


def deserter_choices(
    view: InformationState, names: Sequence[str], plays: Sequence[PlayProgress]
) -> list[tuple[str, Action]]:
    """The Deserter's opponents, each with its knights' levels."""
    progress = progress_of(view)
    choices: list[tuple[str, Action]] = []
    for play in plays:
        levels = sorted((k.level for _, k in progress.knights_of(play.choice)), reverse=True)
        words = ", ".join(KNIGHT_LEVELS[level] for level in levels)
        choices.append((f"{names[play.choice]} (knights: {words})", play))
    return choices


def knight_choices(
    view: InformationState, actions: Sequence[Action]
) -> list[tuple[str, Action | str]]:
    """What a picked intersection offers: build a knight there, or the knight's own actions
    with their costs; moves as one choice, :data:`MOVE`."""
    variant = view.variant
    assert isinstance(variant, CitiesKnights)
    config = variant.config
    choices: list[tuple[str, Action | str]] = []
    moved = False
    for action in actions:
        if isinstance(action, BuildKnight):
            choices.append((f"build a basic knight ({describe_cards(config.knight_cost)})", action))
        elif isinstance(action, ActivateKnight):
            choices.append((f"activate it ({describe_cards(config.activate_cost)})", action))
        elif isinstance(action, PromoteKnight):
            level = progress_of(view).knights[action.node].level + 1
            cost = describe_cards(config.promote_cost)
            choices.append((f"promote it to {KNIGHT_LEVELS[level]} ({cost})", action))
        elif isinstance(action, MoveKnight) and not moved:
            moved = True
            choices.append(("move it (or displace a weaker knight)", MOVE))
        elif isinstance(action, ChaseRobber):
            choices.append(("chase the robber away", action))
    return choices


def improve_choices(view: InformationState, legal: Sequence[Action]) -> list[tuple[str, int]]:
    """The tracks the seat may improve now, each with its next level's name and cost."""
    seat = view.active
    levels = progress_of(view).levels[seat]
    tracks = sorted({a.track for a in legal if isinstance(a, ImproveCity)})
    choices = []
    for track in tracks:
        level = levels[track] + 1
        commodity = Resource(TRACK_COMMODITY[track]).name.lower()
        name = IMPROVEMENTS[track][level - 1]
        wins = any(
            isinstance(a, ImproveCity) and a.track == track and a.metropolis >= 0 for a in legal
        )
        extra = ", wins the metropolis" if wins else ""
        choices.append((f"{TRACKS[track]} {level}: the {name} ({level} {commodity}{extra})", track))
    return choices


def dialog_choices(
    view: InformationState, legal: Sequence[Action], names: Sequence[str] = ()
) -> tuple[str, list[tuple[str, Action]]]:
    """The title and choices of the decision a dialog answers now (no choices: none due;
    ``names``: the seats' names, else "player N")."""
    phase = view.phase
    if phase is KnightsPhase.AQUEDUCT:
        picks = [a for a in legal if isinstance(a, AqueductPick)]
        return "The aqueduct: take which resource?", [(a.resource.name.lower(), a) for a in picks]
    if phase is KnightsPhase.PROGRESS_CHOICE:
        picks_c = [a for a in legal if isinstance(a, ChooseProgress)]
        return (
            "Defender of Catan, tied: draw a progress card from which deck?",
            [(f"{TRACKS[a.track]} (track {a.track + 1})", a) for a in picks_c],
        )
    if phase is KnightsPhase.PROGRESS_DISCARD:
        picks_d = [a for a in legal if isinstance(a, DiscardProgress)]
        return (
            "Too many progress cards: discard which?",
            [(card_line(view, a.track, a.face), a) for a in picks_d],
        )
    if phase is KnightsPhase.WEDDING:
        gifts = [a for a in legal if isinstance(a, GiveCards)]
        return "The Wedding: give which two cards?", [(describe_cards(a.cards), a) for a in gifts]
    if phase is KnightsPhase.HARBOR:
        return harbor_choices(view, legal, names)
    if phase is KnightsPhase.MERCHANT:
        takes = [a for a in legal if isinstance(a, HandTake) and a.taken is not None]
        victim = progress_of(view).merchant
        hand = describe_cards(next(iter(view.possible_hands(victim))))
        return f"Master Merchant: {seat_name(names, victim)} holds {hand}; take?", [
            (describe_cards(a.taken), a) for a in takes if a.taken is not None
        ]
    if phase is KnightsPhase.SPY:
        return spy_choices(view, legal, names)
    return "", []


def spy_choices(
    view: InformationState, legal: Sequence[Action], names: Sequence[str] = ()
) -> tuple[str, list[tuple[str, Action]]]:
    """The Spy's take: each of the victim's progress cards with its text (a digit each), then
    taking nothing."""
    victim = seat_name(names, progress_of(view).spy)
    cards = [a for a in legal if isinstance(a, DeckTake) and a.face is not None]
    choices: list[tuple[str, Action]] = [
        (card_line(view, a.deck, a.face), a) for a in cards if a.face is not None
    ]
    nothing = [a for a in legal if isinstance(a, DeckTake) and a.deck == NO_TAKE]
    choices.extend(("take nothing", a) for a in nothing)
    return f"Spy: take which of {victim}'s progress cards?", choices


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's name, or "player N" (from 1) without names."""
    return names[seat] if seat < len(names) else f"player {seat + 1}"


VICTIM_CARDS: Final = {
    "master_merchant": "Master Merchant: look at whose hand?",
    "spy": "Spy: look at whose progress cards?",
}
"""The cards whose choice is another player, with their dialog's title."""


def victim_choices(
    view: InformationState, key: str, plays: Sequence[PlayProgress], names: Sequence[str]
) -> tuple[str, list[tuple[str, Action]]]:
    """The players a card of :data:`VICTIM_CARDS` (``key``) may name, as a dialog: the Master
    Merchant's richer seats with their cards in hand, the Spy's with their progress cards."""
    progress = progress_of(view)

    def label(seat: int) -> str:
        count, what = view.hand_size[seat], "card"
        if key == "spy":
            count, what = progress.held(seat), "progress card"
        return f"{seat_name(names, seat)} ({count} {what}{'' if count == 1 else 's'})"

    return VICTIM_CARDS[key], [(label(a.choice), a) for a in plays]


def harbor_choices(
    view: InformationState, legal: Sequence[Action], names: Sequence[str] = ()
) -> tuple[str, list[tuple[str, Action]]]:
    """The Commercial Harbor's dialog: the resource to offer the next player (or none), or the
    commodity to give for the offer (or none held)."""
    progress = progress_of(view)
    offers = [a for a in legal if isinstance(a, HarborOffer)]
    if offers:
        partner = progress.harbor[0]
        return f"Commercial Harbor: offer {seat_name(names, partner)} which resource?", [
            ("offer nothing" if a.offer < 0 else f"1 {Resource(a.offer).name.lower()}", a)
            for a in offers
        ]
    answers = [a for a in legal if isinstance(a, HarborAnswer)]
    offered = Resource(progress.harbor_offer).name.lower() if progress.harbor_offer >= 0 else ""
    return f"Commercial Harbor: 1 {offered} for which commodity?", [
        ("I hold no commodity" if a.commodity < 0 else f"1 {Resource(a.commodity).name.lower()}", a)
        for a in answers
    ]


def deserter_place_choices(view: InformationState) -> tuple[str, list[tuple[str, Action | str]]]:
    """The Deserter's placement dialog: pick the place on the board (:data:`PICK_DESERTER`),
    or place no knight."""
    knight = progress_of(view).board.deserted
    what = "" if knight is None else f" ({KNIGHT_LEVELS[knight.level]})"
    return f"The Deserter: place your knight{what}?", [
        ("yes: pick its place on the board", PICK_DESERTER),
        ("place no knight", PlaceDeserter(-1)),
    ]


def alchemist_due(view: InformationState, legal: Sequence[Action]) -> bool:
    """Whether an Alchemist may be played now (before the roll)."""
    return view.phase is Phase.ROLL and any(isinstance(a, PlayProgress) for a in legal)


def card_line(view: InformationState, track: int, face: int) -> str:
    """A progress card as "Merchant (trade): the merchant on a hex: ..."."""
    name = progress_card_name(view.rules, track, face)
    return f"{name} ({TRACKS[track]}): {CARD_TEXT.get(card_key(view, track, face), '')}"


def card_key(view: InformationState, track: int, face: int) -> str:
    """A progress card's key in the rule set's deck table ("merchant_fleet")."""
    return str(list(view.rules.raw["decks"][TRACKS[track]])[face])


def held_cards(view: InformationState, seat: int) -> list[tuple[int, int]]:
    """The progress cards ``seat`` holds as ``(track, face)``, as ``view`` knows them."""
    return sorted(progress_of(view).cards[seat])
