"""Cities & Knights' actions on the game screen: the wall and improvement keys, the places of
its pieces in picks (:func:`hexlan.tui.screens.knights.places_of` says where), what the others
are doing in its phases, their names on the status line, and the decisions its dialogs answer
(the Deserter's placement among them, whose "yes" then picks the place on the board); what its
own keys do (``k`` knights, ``i`` improve, ``l`` progress cards: :mod:`hexlan.tui.screen_keys`),
its picks on the board and the Alchemist in the prompt before the roll."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexlan.engine.actions import Action
from hexlan.engine.info import InformationState
from hexlan.engine.variants.cities_knights import CitiesKnights, progress_of
from hexlan.engine.variants.cities_knights.actions import (
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    KnightsPhase,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)
from hexlan.tui.actionkeys import Choices, answers, asks, labels, places, waits
from hexlan.tui.games.cities_knights_panel import KNIGHT_LEVELS
from hexlan.tui.screen_keys import (
    ROLL_WORDS,
    ScreenKey,
    binds,
    explains,
    pick_heads,
    picks_in,
    runs,
    steps,
)
from hexlan.tui.screens import knights

if TYPE_CHECKING:
    from hexlan.tui.screens.game import GameScreen, Pick

answers("build:wall", BuildWall)
binds(
    ScreenKey(
        "k",
        "game('knights')",
        "Knights",
        "Knights: build one or command yours",
        "key k: Cities & Knights",
        "decide",
    ),
    ScreenKey(
        "w",
        "build('wall')",
        "Wall",
        "Build a city wall",
        "key w: Cities & Knights, two brick",
        "decide",
    ),
    ScreenKey(
        "i",
        "game('improve')",
        "Improve",
        "Improve your cities",
        "key i: Cities & Knights, a track's next level",
        "decide",
    ),
    ScreenKey(
        "l",
        "game('progress_cards')",
        "Cards",
        "Your progress cards",
        "key l: their names and text",
        "abandon",
    ),
)
explains(
    """\
Cities & Knights: 13 points; set-up places a settlement, then a city. A city by forest, pasture
or mountains yields paper, cloth or coin with its resource. Improve a track (cloth: trade, coin:
politics, paper: science) one level at a time for as many of its commodity; the first to level 4
takes its metropolis (2 points). The event die sails the barbarians' ship (status line: ship n/7);
when it lands, active knights' levels against the number of cities: the strongest defender earns
a point, or the weakest lose a city. Knights (1 basic, 2 strong, 3 mighty; reversed: active)
cost wool+ore, activate for grain, promote for wool+ore, and once active may move, displace a
weaker knight or chase the robber. A wall (#, 2 brick) raises your hand limit by 2. A gate on
the event die gives progress cards to players whose track level reaches the red die; l plays
one (the Alchemist before your roll: you choose the dice). The merchant (M on its hex) trades its
hex's resource 2:1 for its holder, who has its point.""",
    ("k", "Cities & Knights: build a knight, or pick yours to activate, promote, move, chase"),
    ("w / i", "Cities & Knights: build a city wall / improve a track (then the metropolis)"),
    ("y / l", "Cities & Knights: reopen the choice due (aqueduct, deck, discard) / your cards"),
)
answers("improve", ImproveCity)
places(
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    MoveKnight,
    PillageCity,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
    RetreatKnight,
)(knights.places_of)


def decision(view: InformationState, legal: Sequence[Action], names: Sequence[str]) -> Choices:
    """The dialog of the decision due in ``view`` (an :data:`~hexlan.tui.actionkeys.Dialog`):
    :func:`~hexlan.tui.screens.knights.dialog_choices`, or in the Deserter's placement its
    question, whose "yes" picks the place on the board (a pick of "deserter place")."""
    if view.phase is KnightsPhase.DESERTER_PLACE:
        title, placing = knights.deserter_place_choices(view)
        return title, [
            (label, "deserter place" if choice == knights.PICK_DESERTER else choice)
            for label, choice in placing
        ]
    title, choices = knights.dialog_choices(view, legal, names)
    return title, list[tuple[str, Action | str]](choices)


labels("event die", KnightsPhase.EVENT)
labels("barbarians", KnightsPhase.PILLAGE)
labels("retreat", KnightsPhase.RETREAT)
labels("aqueduct", KnightsPhase.AQUEDUCT)
labels("progress card", KnightsPhase.PROGRESS, KnightsPhase.PROGRESS_CHOICE)
labels("progress discard", KnightsPhase.PROGRESS_DISCARD)
for phase, words in knights.WAITING_WORDS.items():
    waits(words, phase)
for phase in knights.DIALOG_PHASES:
    asks(phase, knights.WAITING_WORDS[phase].replace("to ", "Your move: ", 1) + " (y)", decision)


_HEXES = knights.HEX_PICKS
_PATHS = frozenset({"progress road"})  # the Diplomat's road; the others: intersections
pick_heads("hex", {w: h for w, h in knights.PICK_PURPOSE.items() if w in _HEXES})
pick_heads("path", {w: h for w, h in knights.PICK_PURPOSE.items() if w in _PATHS})
pick_heads("node", {w: h for w, h in knights.PICK_PURPOSE.items() if w not in _HEXES | _PATHS})
for phase, what in knights.PICK_PHASES.items():
    picks_in(phase, what)


def has_knight_move(screen: GameScreen, legal: list[Action]) -> bool:
    """Whether a knight may be built, or one of the person's may act (the ``k`` key)."""
    return any(knights.place_of("knight", a, -1) is not None for a in legal)


@runs(CitiesKnights, "knights", has_knight_move)
def knights_key(screen: GameScreen) -> None:
    """Light up where a knight may be built and the knights that may act."""
    if not screen.start_pick("node", "knight", mandatory=False):
        screen.notify("No knight to build or command now.", severity="warning")


@steps("knight")
def command_knight(screen: GameScreen, pick: Pick, node: int, actions: list[Action]) -> None:
    """A picked intersection: its one action at once, else a choice of them; a move then
    lights where the knight may go."""
    choices = knights.knight_choices(screen.game.view, actions)
    screen.end_pick()

    def chosen(choice: Action | str | None) -> None:
        if choice == knights.MOVE:
            screen.start_pick("node", "knight target", mandatory=False, source=node)
            screen.light("node", node)
        elif isinstance(choice, Action):
            screen.submit(choice)

    knight = progress_of(screen.game.view).knights.get(node)
    if knight is None:  # an empty place: "k" then the place builds there
        chosen(choices[0][1])
        return
    state = "active" if knight.active else "inactive"
    screen.ask(f"Your {KNIGHT_LEVELS[knight.level]} knight ({state}): do what?", choices, chosen)


@steps("inventor first")
def inventor_second(screen: GameScreen, pick: Pick, first: int, actions: list[Action]) -> None:
    """The Inventor's first hex picked: then the token it swaps with."""
    screen.end_pick()
    second = pick.source * knights.HEX_SOURCE + first
    screen.start_pick("hex", "inventor second", mandatory=False, source=second)
    screen.light("hex", first)


@runs(CitiesKnights, "improve")
def improve_key(screen: GameScreen) -> None:
    """Choose the track to improve; a level that wins the metropolis then lights the cities
    that may hold it."""
    legal = screen.legal()
    choices = knights.improve_choices(screen.game.view, legal)

    def chosen(track: int | None) -> None:
        if track is None:
            return
        plain = ImproveCity(track, -1)
        if plain in legal:
            screen.submit(plain)
        else:
            screen.start_pick("node", "metropolis", mandatory=False, source=track)

    screen.ask("Improve your cities: which track?", choices, chosen)


def holds_cards(screen: GameScreen, legal: list[Action]) -> bool:
    """Whether the person holds a progress card (the ``l`` key)."""
    return bool(knights.held_cards(screen.game.view, screen.game.human_seat))


@runs(CitiesKnights, "progress_cards", holds_cards)
def progress_cards_key(screen: GameScreen) -> None:
    """Your progress cards with their text; one playable now is played when picked (its place
    picked on the board, or its kind in a dialog, if it asks)."""
    view, legal = screen.game.view, screen.legal()
    choices = [
        (
            knights.card_line(view, t, f)
            + ("" if knights.card_plays(legal, t, f) else " (not now)"),
            (t, f),
        )
        for t, f in knights.held_cards(view, screen.game.human_seat)
    ]

    def chosen(card: tuple[int, int] | None) -> None:
        if card is None:
            return
        plays = knights.card_plays(screen.legal(), *card)
        key = knights.card_key(view, *card)
        source = knights.card_source(*card)
        if not plays:
            screen.notify("That card cannot be played now.", severity="warning")
        elif plays[0].choice < 0:
            screen.submit(plays[0])
        elif key in knights.VICTIM_CARDS:
            screen.choose(*knights.victim_choices(view, key, plays, screen.game.names))
        elif key in knights.KIND_CARDS:
            screen.choose(*knights.kind_choices(key, plays))
        elif key in knights.BOARD_CARD_PLAYS:
            _play_board_card(screen, key, source, plays)
        elif key == "diplomat":
            screen.start_pick("path", "progress road", mandatory=False, source=source)
        else:
            screen.start_pick("node", "progress card", mandatory=False, source=source)

    note = "Enter plays a card you may play now · Esc closes"
    screen.ask("Your progress cards", choices, chosen, note=note)


def _play_board_card(screen: GameScreen, key: str, source: int, plays: list[PlayProgress]) -> None:
    """The Alchemist's dice (two dialogs), the Deserter's opponent (a dialog), the Bishop's,
    the Merchant's and the Inventor's hexes (picked on the board)."""
    if key == "alchemist":

        def red_chosen(red: int | None) -> None:
            if red is not None:
                yellows = knights.alchemist_yellows(plays, red)
                screen.choose(f"Alchemist, red {red}: the yellow die?", yellows)

        screen.ask("Alchemist: the red die?", knights.alchemist_reds(), red_chosen)
    elif key == "deserter":
        choices = knights.deserter_choices(screen.game.view, screen.game.names, plays)
        screen.choose("Deserter: which player removes a knight?", choices)
    else:
        screen.start_pick("hex", knights.BOARD_CARD_PLAYS[key], mandatory=False, source=source)


@ROLL_WORDS.register(CitiesKnights)
def alchemist_words(view: InformationState, legal: Sequence[Action]) -> str:
    """Before the roll, an Alchemist that may be played first."""
    return " or play the Alchemist first (l)" if knights.alchemist_due(view, legal) else ""
