"""Landnám's table (../shared/landnam-rules.md; /work/shared/UI.md): the screen that draws a
:class:`~hexlan.engine.variants.landnam.state.LandnamState` and drives it by keys and mouse, and
its registration as the table `hexlan play --game landnam` opens.

Every choice comes from ``view.legal_actions(seat)``. A key starts a *chain* of picks that
narrows the legal actions step by step: a unit or a hex on the board, a corner, or an entry of
a list (an Exploration card, a resource, an amount); a step with one possible answer is taken
for the person (but the last board pick is always shown). Decisions the game forces (a harvest
card, the hex to age, Seer's counsel, Landing or stay, a flight, an offer to answer, the
Althing) open by themselves; ``space`` opens them again after Esc.

The screen talks to a :class:`~hexlan.tui.games.landnam_client.LandnamClient`; bots and chance
step at ``bot_delay`` seconds apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import IllegalActionError
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam import phases as P
from hexlan.engine.variants.landnam.board import OUTER
from hexlan.engine.variants.landnam.rules import Fate
from hexlan.engine.variants.landnam.state import LandnamState
from hexlan.i18n import N_, _, ngettext
from hexlan.tui.binding_words import translate_bindings
from hexlan.tui.games.landnam_board import FieldView, kind_words, labels
from hexlan.tui.games.landnam_client import (
    LandnamClient,
    Told,
    network_landnam,
    session_landnam,
)
from hexlan.tui.games.landnam_dialogs import (
    AlthingScreen,
    ChoiceDialog,
    GameOverScreen,
    LandnamHelp,
    fate_effect,
)
from hexlan.tui.games.landnam_panels import (
    ALTHING_PHASES,
    fate_words,
    players_text,
    status_text,
    stocks_text,
)
from hexlan.tui.palette import seat_style
from hexlan.tui.slots import OWN_NET_TABLES, OWN_TABLES, OwnNetTable, OwnTable

Where = Literal["unit", "hex", "node", "list"]
Names = Sequence[str]


def _plain(view: LandnamState, names: Names, value: Any) -> str:
    return str(value)


@dataclass(frozen=True, slots=True)
class Step:
    """One pick of a chain.

    Attributes:
        prompt: what is picked, in words (English, marked with ``N_``; shown translated).
        value: the part of an action this step picks (a unit number for "unit", a position for
            "hex", a corner for "node", anything hashable for "list").
        where: on the board (a unit, a hex, a corner) or in a list.
        words: a list entry's words: ``words(view, names, value)``.
    """

    prompt: str
    value: Callable[[Any], Hashable]
    where: Where
    words: Callable[[LandnamState, Names, Any], str] = _plain


@dataclass(frozen=True, slots=True)
class Chain:
    """The picks that lead from a key to one legal action: the legal actions of ``kinds``,
    narrowed by each step in turn."""

    kinds: tuple[type, ...]
    steps: tuple[Step, ...]


def _same(action: Action) -> Hashable:
    return action


def _place(view: LandnamState, position: int) -> str:
    if position == OUTER:
        return _("the outer sea")
    return view.board.label(position)


def action_words(view: LandnamState, names: Names, action: Any) -> str:
    """A legal action in words, for a list (``"Raise by 2"``, ``"4 grain for 1 wool (stock)"``,
    ``"Landing: next step: ..."``)."""
    if isinstance(action, L.PlayFate):
        face = Fate(action.face)
        text = f"{fate_words(face)}: {fate_effect(face)}"
        if face == Fate.GOOD_YEAR:
            text += " " + _("(the roll becomes {roll})").format(roll=view.roll + action.choice)
        if action.target >= 0:
            unit = view.units[action.target]
            if unit is not None:
                text += " " + _("(the unit on {place} of {name})").format(
                    place=_place(view, unit.at), name=names[unit.owner]
                )
        return text
    if isinstance(action, L.BankTrade):
        return _("{rate} {give} for 1 {get} (stock)").format(
            rate=view.rules.bank_rate, give=kind_words(action.give), get=kind_words(action.get)
        )
    if isinstance(action, L.HarbourTrade):
        return _("{rate} {give} for 1 {get} (harbour {where})").format(
            rate=view.rules.harbour_rate,
            give=kind_words(view.harbours[action.position]),
            get=kind_words(action.get),
            where=view.board.label(action.position),
        )
    words = _WORDS.get(type(action))
    return repr(action) if words is None else words(view, names, action)


def _seer_words(view: LandnamState, names: Names, a: L.ChooseSeer) -> str:
    ex = view.exploration
    assert ex is not None
    return _("green {green}, red {red}").format(green=ex.green[a.green], red=ex.red[a.red])


def _answer_words(view: LandnamState, names: Names, action: L.AnswerTrade) -> str:
    offer = view.offer
    if offer is None or not action.accept:
        return _("Decline the offer")
    return _("Accept: give {give}, get {get} from {name}").format(
        give=_hand(offer.get), get=_hand(offer.give), name=names[view.active]
    )


def _hand(counts: Sequence[int]) -> str:
    cards = [_("{n} {kind}").format(n=n, kind=kind_words(k)) for k, n in enumerate(counts) if n]
    return ", ".join(cards) or _("nothing")


_WORDS: Final[dict[type, Callable[[LandnamState, Names, Any], str]]] = {
    L.Harvest: lambda v, n, a: _("Take the harvest of {roll}").format(roll=v.roll),
    L.Stay: lambda v, n, a: _("Stay where you are"),
    L.ChooseSeer: _seer_words,
    L.Pass: lambda v, n, a: (
        _("Pass: play no Althing card") if v.phase == P.ALTHING_OPEN else _("Bring no more cases")
    ),
    L.Appoint: lambda v, n, a: _("Appoint {name} to open the lawsuit round").format(name=n[a.seat]),
    L.Bid: lambda v, n, a: (
        _("Raise by {n}").format(n=a.cards) if a.cards else _("Pass to your side's next member")
    ),
    L.Invite: lambda v, n, a: _("Invite {name} to join your side").format(name=n[a.guest]),
    L.Join: lambda v, n, a: _("Join with {n}").format(n=a.cards) if a.cards else _("Decline"),
    L.AnswerTrade: _answer_words,
    L.Flee: lambda v, n, a: _("Flee to {place}").format(place=_place(v, a.to)),
}


def _card_words(view: LandnamState, names: Names, face: int) -> str:
    if face == L.NO_CARD:
        return _("Explore without a card")
    return f"{fate_words(face)}: {fate_effect(Fate(face))}"


def _unit_words(view: LandnamState, names: Names, number: int) -> str:
    unit = view.units[number]
    if unit is None:
        return _("a unit")
    where = {"name": names[unit.owner], "place": _place(view, unit.at)}
    return (
        _("{name}'s ship on {place}") if unit.ship else _("{name}'s settler on {place}")
    ).format(**where)


def _corner_words(view: LandnamState, names: Names, corner: int) -> str:
    if corner < 0:
        return _("no settlement (a ship into the outer sea)")
    hexes = ", ".join(view.board.label(h) for h in view.board.corner_hexes[corner])
    return _("the corner of {hexes}").format(hexes=hexes)


def _unit_kind_words(view: LandnamState, names: Names, ship: bool) -> str:
    return _("ship") if ship else _("settler")


def _cards_words(view: LandnamState, names: Names, count: int) -> str:
    return ngettext("{n} card", "{n} cards", count).format(n=count)


def _kind_words(view: LandnamState, names: Names, kind: int) -> str:
    return kind_words(kind)


_UNIT: Final = Step(N_("Pick the unit"), lambda a: a.unit, "unit")
_ACTION: Final = Step(N_("Choose"), _same, "list", action_words)

CHAINS: Final[dict[str, Chain]] = {
    "move": Chain(
        (L.Move,),
        (
            Step(N_("Move: pick the unit"), lambda a: a.unit, "unit"),
            Step(N_("Move to"), lambda a: a.to, "hex"),
            Step(N_("Explore with a card?"), lambda a: a.fate, "list", _card_words),
        ),
    ),
    "farm": Chain(
        (L.BuildFarm,),
        (
            Step(N_("Farm: pick the settler"), lambda a: a.unit, "unit"),
            Step(N_("Farm at the corner"), lambda a: a.corner, "node"),
        ),
    ),
    "town": Chain((L.BuildTown,), (Step(N_("Town: pick the farm"), lambda a: a.corner, "node"),)),
    "unit": Chain(
        (L.BuildUnit,),
        (
            Step(N_("Build a"), lambda a: a.ship, "list", _unit_kind_words),
            Step(N_("Build it onto"), lambda a: a.to, "hex"),
            Step(N_("Built from the settlement at"), lambda a: a.corner, "node", _corner_words),
        ),
    ),
    "harbour": Chain(
        (L.BuildHarbour,),
        (
            Step(N_("Harbour: pick the ship"), lambda a: a.unit, "unit"),
            Step(N_("Harbour of"), lambda a: a.kind, "list", _kind_words),
        ),
    ),
    "age": Chain(
        (L.AgeNumber,), (Step(N_("Age the hex of the settler"), lambda a: a.unit, "unit"),)
    ),
    "age_pick": Chain((L.AgeHex,), (Step(N_("Pick the hex to age"), lambda a: a.position, "hex"),)),
    "trade": Chain(
        (L.BankTrade, L.HarbourTrade),
        (Step(N_("Trade with the stock"), _same, "list", action_words),),
    ),
    "fate": Chain((L.PlayFate,), (Step(N_("Play a fate card"), _same, "list", action_words),)),
    "flee": Chain((L.Flee,), (Step(N_("Flee to"), lambda a: a.to, "hex"),)),
    "seer": Chain(
        (L.ChooseSeer,),
        (Step(N_("Seer's counsel: the faces that count"), _same, "list", action_words),),
    ),
    "entry": Chain((L.Stay, L.PlayFate), (Step(N_("The hex found"), _same, "list", action_words),)),
    "harvest": Chain(
        (L.Harvest, L.PlayFate), (Step(N_("The harvest"), _same, "list", action_words),)
    ),
    "answer": Chain((L.AnswerTrade,), (Step(N_("An offer to you"), _same, "list", action_words),)),
    "sue": Chain(
        (L.Sue,),
        (
            Step(N_("Sue: the unit"), lambda a: a.unit, "list", _unit_words),
            Step(N_("Sue for your settlement at"), lambda a: a.corner, "list", _corner_words),
            Step(N_("Open with"), lambda a: a.cards, "list", _cards_words),
        ),
    ),
}
"""Each key's chain of picks, by the key's action name."""

FORCED: Final = {
    P.HARVEST_CARD: "harvest",
    P.AGE_PICK: "age_pick",
    P.SEER: "seer",
    P.ENTRY: "entry",
    P.FLEE: "flee",
    P.ANSWER: "answer",
}
"""The chain a forced decision opens by itself, by phase (the Althing's phases open its
screen)."""

KEYS: Final = (
    ("d", "roll", N_("Roll")),
    ("space", "decide", N_("Decide")),
    ("m", "chain('move')", N_("Move")),
    ("e", "end_movement", N_("End move")),
    ("f", "chain('farm')", N_("Farm")),
    ("c", "chain('town')", N_("Town")),
    ("u", "chain('unit')", N_("Unit")),
    ("h", "chain('harbour')", N_("Harbour")),
    ("a", "chain('age')", N_("Age")),
    ("x", "chain('trade')", N_("Trade")),
    ("o", "offer", N_("Offer")),
    ("p", "chain('fate')", N_("Fate card")),
    ("g", "althing", N_("Althing")),
    ("t", "end_turn", N_("End turn")),
)
"""The screen's keys: ``(key, action, words)`` (English; shown translated); the footer shows
those legal now."""

HELP_KEYS: Final = (
    ("d", N_("roll the harvest dice")),
    ("space", N_("the decision due now (harvest card, ageing, Seer, Landing, flight, offer)")),
    ("m", N_("move: pick a unit, then where (into ? explores; pick an Exploration card)")),
    ("e", N_("end the movement phase")),
    ("f/c/u", N_("build a farm (a settler, a corner) / a town / a ship or settler")),
    ("h", N_("build a harbour with a ship on a sea hex")),
    ("a", N_("age a hex's marker (a settler pays)")),
    ("x / o", N_("trade with the stock or a harbour / offer a trade to a player")),
    ("p", N_("play a fate card")),
    ("g", N_("the Althing: its case, the sides, and your choices")),
    ("t", N_("end the turn (builds take effect)")),
    (N_("picks"), N_("type a label, or arrows and Enter, or click; Esc cancels")),
    ("?", N_("this help; r on it opens the rules page")),
    ("l", N_("the log in the side column, or the players and stocks again")),
    ("ctrl+q", N_("quit")),
)
"""The help screen's lines: a key (or "picks") and its words (English; shown translated)."""


class LandnamScreen(Screen[None]):
    """Landnám's table: the board, the status, the players, the stocks and the log.

    Args:
        client: the person's seat (:class:`~hexlan.tui.games.landnam_client.LandnamClient`).
        bot_delay: seconds between bot moves (0: as fast as possible).
    """

    DEFAULT_CSS = """
    LandnamScreen #main { height: 1fr; }
    LandnamScreen #ln-side { width: 1fr; min-width: 24; }
    LandnamScreen #status { height: auto; background: $panel; padding: 0 1; }
    LandnamScreen #players { height: auto; padding: 0 1; }
    LandnamScreen #stocks { height: auto; padding: 0 1; background: $panel; }
    LandnamScreen #log { height: 1fr; min-height: 3; padding: 0 1; }
    LandnamScreen #prompt { height: 1; background: $primary-darken-2; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, action, words) for key, action, words in KEYS),
        Binding("y", "answer(True)", N_("Accept"), show=False),
        Binding("n", "answer(False)", N_("Decline"), show=False),
        Binding("l", "toggle_log", N_("Log")),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("ctrl+q", "app.quit", N_("Quit")),
    ]

    def __init__(self, client: LandnamClient, bot_delay: float = 0.5) -> None:
        super().__init__()
        translate_bindings(self)
        self.client = client
        self.bot_delay = bot_delay
        self.explored = ""
        self._future: asyncio.Future[int | None] | None = None
        self.picking = False
        """Whether a chain of picks (a board pick, a dialog) is under way."""
        self._prompted: tuple[int, str] | None = None
        self._told = 0
        self.settled = False
        """Whether the game waits for the person (or is over) and no step is due."""
        self.over_shown = False
        """Whether the game-over screen has been shown."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The board beside the side column; the prompt line and the footer below."""
        with Horizontal(id="main"):
            yield FieldView(self.client.view, id="field")
            with Vertical(id="ln-side"):
                yield Static(id="status")
                yield Static(id="players")
                yield Static(id="stocks")
                yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Static("", id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        """Draw, then let the bots and chance move."""
        self.client.on_change = self._changed
        self.query_one(FieldView).focus()
        self._redraw()
        self._advance()

    def on_unmount(self) -> None:
        """Finish and close the game's log."""
        self.client.close()

    @property
    def view(self) -> LandnamState:
        """The person's view."""
        return self.client.view

    def legal(self) -> list[Action]:
        """The person's legal actions now (none while others move or a pick runs)."""
        if not self.client.human_to_act():
            return []
        return self.view.legal_actions(self.client.human_seat)

    # ------------------------------------------------------------------ drawing

    def _changed(self) -> None:
        self._redraw()
        self._advance()

    def _redraw(self) -> None:
        view = self.view
        names = self.client.names
        self.query_one(FieldView).show(view)
        self.query_one("#status", Static).update(
            status_text(view, names, self.client.fair, view.roll, self.explored)
        )
        self.query_one("#players", Static).update(players_text(view, names, self.client.human_seat))
        self.query_one("#stocks", Static).update(stocks_text(view))
        self._log_new()
        if not self.picking:
            self._set_prompt(self._idle_prompt())
        self.refresh_bindings()

    def _log_new(self) -> None:
        log = self.query_one(RichLog)
        events = self.client.events
        for event in events[self._told :]:
            self._note(event)
            if event.text:
                style = seat_style(event.seat) if event.seat is not None else None
                log.write(Text(event.text, style or ""))
        self._told = len(events)

    def _note(self, event: Told) -> None:
        """Keep the last exploration's find for the status panel."""
        if isinstance(event.action, L.ExploreRoll | L.ChooseSeer):
            found = [part for part in event.text.split("; ") if " found " in part]
            if found:
                self.explored = found[0].replace("The exploration ", "")

    def _idle_prompt(self) -> str:
        if self.client.is_over:
            return _("The game is over")
        if not self.client.human_to_act():
            acting = self.view.acting_seats()
            if acting:
                return _("Waiting for {name}").format(name=self.client.names[acting[0]])
            return "…"
        return _("Your move: the keys below (? for help)")

    def _set_prompt(self, text: str) -> None:
        self.query_one("#prompt", Static).update(text)

    # ------------------------------------------------------------------ the game moving

    def _advance(self) -> None:
        """Let chance and the bots move (:meth:`_tick`) until the person is due."""
        self.settled = False
        self.set_timer(0.001, self._tick)

    def _tick(self) -> None:
        """Step chance and the bots: at ``bot_delay`` a bot decision per tick (chance at
        once), or, with no delay, every step until the person is due, drawn once."""
        bots = False
        while not bots or not self.bot_delay:
            if self.client.is_over:
                self.settled = True
                self._redraw()
                if not self.over_shown:  # the audit's messages still come: show it once
                    self.over_shown = True
                    self.app.push_screen(GameOverScreen(self.view, self.client.names))
                return
            stepped = self.client.step()
            if stepped is None:
                self.settled = True
                self._redraw()
                self._prompt_forced()
                return
            if not stepped:  # only background proof work (the deck, the audit) moves it on
                self._redraw()
                self.set_timer(0.05, self._tick)
                return
            bots = any(e.seat is not None and e.seat != self.client.human_seat for e in stepped)
            self._flash(stepped)
        self._redraw()
        self.set_timer(self.bot_delay, self._tick)

    def _flash(self, events: Sequence[Told]) -> None:
        """Highlight where a bot's move went (a step, a flight, a unit built)."""
        places = [
            e.action.to
            for e in events
            if e.seat != self.client.human_seat
            and isinstance(e.action, L.Move | L.Flee | L.BuildUnit)
        ]
        if places and self.bot_delay:
            self.query_one(FieldView).flash(places)

    def _submit(self, action: Action) -> None:
        try:
            self.client.submit(action)
        except IllegalActionError as exc:
            self._set_prompt(_("Refused: {error}").format(error=exc))
            return
        self._redraw()
        self._advance()

    def _prompt_forced(self) -> None:
        """Open the decision the game forces now, once per decision."""
        view = self.view
        if self.picking or not self.client.human_to_act():
            return
        due = (len(self.client.events), view.phase)
        if due == self._prompted:
            return
        self._prompted = due
        if view.phase in ALTHING_PHASES:
            self.action_althing()
        elif view.phase in FORCED:
            self.action_chain(FORCED[view.phase])

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show and allow a key only when it leads to a legal action now."""
        if action in ("help", "quit", "toggle_log"):
            return True
        if self.picking:
            return False
        legal = self.legal()
        kinds = _KEY_KINDS.get(action)
        if action == "chain" and parameters:
            chain = CHAINS[str(parameters[0])]
            if parameters[0] == "age":
                return any(isinstance(a, L.AgeNumber | L.AgeHex) for a in legal)
            return any(isinstance(a, chain.kinds) for a in legal) and (
                parameters[0] != "fate" or self.view.phase not in FORCED
            )
        if action == "decide":
            return bool(legal) and (self.view.phase in FORCED or self.view.phase in ALTHING_PHASES)
        if action == "althing":
            return bool(legal) and self.view.phase in ALTHING_PHASES
        if kinds is not None:
            return any(isinstance(a, kinds) for a in legal)
        return True

    def action_roll(self) -> None:
        """Roll the harvest dice."""
        if A.ROLL in self.legal():
            self._submit(A.ROLL)

    def action_end_movement(self) -> None:
        """End the movement phase."""
        self._submit_kind(L.EndMovement)

    def action_end_turn(self) -> None:
        """End the turn."""
        self._submit_kind(A.EndTurn)

    def _submit_kind(self, kind: type) -> None:
        found = [a for a in self.legal() if isinstance(a, kind)]
        if found:
            self._submit(found[0])

    def action_answer(self, accept: bool) -> None:
        """Accept or decline the offer made to you."""
        found = [a for a in self.legal() if isinstance(a, L.AnswerTrade) and a.accept == accept]
        if found:
            self._submit(found[0])

    def action_decide(self) -> None:
        """Open the decision due now again."""
        self._prompted = None
        self._prompt_forced()

    def action_toggle_log(self) -> None:
        """Show the whole log in the side column instead of the players and stocks (80x24
        has room for a few lines of it beside them), or the panels again."""
        for panel in ("#players", "#stocks"):
            widget = self.query_one(panel)
            widget.display = not widget.display

    def action_help(self) -> None:
        """The keys and the rules summary."""
        self.app.push_screen(LandnamHelp(HELP_KEYS, self.view.options))

    def action_chain(self, name: str) -> None:
        """Run a key's chain of picks, then play the action it leads to."""
        legal = self.legal()
        if name == "age" and any(isinstance(a, L.AgeHex) for a in legal):
            name = "age_pick"
        self._pick(self._chain(CHAINS[name], legal))

    def action_althing(self) -> None:
        """The Althing's screen: the case and the acting seat's choices."""
        self._pick(self._althing(self.legal()))

    def action_offer(self) -> None:
        """Offer a trade to a player: whom, what you give and what you ask (a chain of lists);
        the rules check it when it is made."""
        if any(isinstance(a, L.OfferTrade) for a in self.legal()):
            self._pick(self._offer())

    def _pick(self, picks: Coroutine[Any, Any, Action | None]) -> None:
        """Run ``picks`` (a chain of board picks and dialogs) on a worker, keys off meanwhile,
        then play the action it gives (none when cancelled)."""
        self.picking = True
        self.refresh_bindings()
        self._picks(picks)

    @work(exclusive=True, group="pick")
    async def _picks(self, picks: Coroutine[Any, Any, Action | None]) -> None:
        try:
            action = await picks
        finally:
            self.picking = False
            for board in self.query(FieldView):  # none once the app is closing
                board.clear()
        if action is None:
            self._redraw()
        else:
            self._submit(action)

    async def _chain(self, chain: Chain, legal: Sequence[Action]) -> Action | None:
        """Narrow ``legal`` to one action by the chain's steps; None when cancelled."""
        found = [a for a in legal if isinstance(a, chain.kinds)]
        if not found:
            return None
        for i, step in enumerate(chain.steps):
            values = list(dict.fromkeys(step.value(a) for a in found))
            on_board = step.where in ("unit", "hex") or all(
                isinstance(v, int) and v >= 0 for v in values
            )
            board = step.where != "list" and on_board and i == len(chain.steps) - 1
            if len(values) == 1 and not board:
                pick: Hashable | None = values[0]
            else:
                pick = await self._ask(step, values)
            if pick is None:
                return None
            found = [a for a in found if step.value(a) == pick]
        return found[0]

    async def _althing(self, legal: Sequence[Action]) -> Action | None:
        if not legal:
            return None
        choices: list[Action | None] = [a for a in legal if not isinstance(a, L.Sue)]
        words = [action_words(self.view, self.client.names, a) for a in choices]
        if any(isinstance(a, L.Sue) for a in legal):
            choices.append(None)
            words.append(_("Sue a unit…"))
        index = await self.app.push_screen_wait(AlthingScreen(self.view, self.client.names, words))
        if index is None:
            return None
        chosen = choices[index]
        return chosen if chosen is not None else await self._chain(CHAINS["sue"], legal)

    async def _offer(self) -> Action | None:
        view, names, me = self.view, self.client.names, self.client.human_seat
        others = [s for s in range(view.players) if s != me]
        to = await self._list(_("Offer to"), others, lambda s: names[s])
        if to is None:
            return None
        mine = [k for k in range(4) if view.hands[me][k]]
        give = await self._list(_("You give"), mine, kind_words)
        if give is None:
            return None
        give_n = await self._list(_("How many"), list(range(1, view.hands[me][give] + 1)), str)
        theirs = [k for k in range(4) if k != give and view.hands[to][k]]
        get = None if give_n is None else await self._list(_("You ask for"), theirs, kind_words)
        if give_n is None or get is None:
            return None
        get_n = await self._list(_("How many"), list(range(1, view.hands[to][get] + 1)), str)
        if get_n is None:
            return None
        hand_give = tuple(give_n if k == give else 0 for k in range(4))
        hand_get = tuple(get_n if k == get else 0 for k in range(4))
        return L.OfferTrade(to, hand_give, hand_get)

    async def _list(
        self, prompt: str, values: list[int], words: Callable[[int], str]
    ) -> int | None:
        if not values:
            return None
        index = await self.app.push_screen_wait(ChoiceDialog(prompt, [words(v) for v in values]))
        return None if index is None else values[index]

    # ------------------------------------------------------------------ picks

    async def _ask(self, step: Step, values: list[Any]) -> Hashable | None:
        view, names = self.view, self.client.names
        if step.where == "list" or (step.where == "node" and min(values) < 0):
            words = [step.words(view, names, v) for v in values]
            index = await self.app.push_screen_wait(ChoiceDialog(_(step.prompt), words))
            return None if index is None else values[index]
        board = self.query_one(FieldView)
        places = values
        if step.where == "unit":
            places = [self._unit_at(v) for v in values]
        board.offer("node" if step.where == "node" else "hex", places, labels(len(values)))
        board.focus()
        self._set_prompt(
            _("{prompt}: type a label, arrows and Enter, or click · Esc cancels").format(
                prompt=_(step.prompt)
            )
        )
        self._future = asyncio.get_running_loop().create_future()
        index = await self._future
        self._future = None
        return None if index is None else values[index]

    def _unit_at(self, number: int) -> int:
        unit = self.view.units[number]
        return OUTER if unit is None else unit.at

    @on(FieldView.Picked)
    def _picked(self, message: FieldView.Picked) -> None:
        if self._future is not None and not self._future.done():
            self._future.set_result(message.index)

    @on(FieldView.Cancelled)
    def _cancelled(self, message: FieldView.Cancelled) -> None:
        if self._future is not None and not self._future.done():
            self._future.set_result(None)


_KEY_KINDS: Final[dict[str, tuple[type, ...]]] = {
    "roll": (A.RollDice,),
    "end_movement": (L.EndMovement,),
    "end_turn": (A.EndTurn,),
    "offer": (L.OfferTrade,),
    "answer": (L.AnswerTrade,),
}


@OWN_TABLES.register("landnam")
def landnam_table(table: OwnTable) -> LandnamScreen:
    """The table `hexlan play --game landnam` opens: every seat a session in this process
    (:func:`~hexlan.tui.games.landnam_client.session_landnam`; fair when unseeded), the
    person at the first seat.

    Raises:
        EngineError, LocalProtocolError: seats or options the game refuses; ValueError: an
            unknown bot.
    """
    client = session_landnam(table, log_dir=table.log_dir, save_log=table.save_log)
    return LandnamScreen(client, table.bot_delay)


OWN_NET_TABLES.register("landnam")(OwnNetTable(network_landnam, LandnamScreen))
"""`hexlan host` / `hexlan join` of Landnám: the peer's client and this screen."""

__all__ = ["CHAINS", "KEYS", "LandnamScreen", "action_words", "landnam_table"]
