"""Dialogs for the choices that need one: trade, discard, answer an offer, and a generic list
(play a development card, Year of Plenty, Monopoly, the victim of a steal, road or ship); the
choice of cards (:class:`CardsDialog`) that a game's own dialogs build on (Seafarers' gold:
:mod:`hexlan.tui.games.seafarers_gold`).

Every dialog offers only what the rules allow now (it reads the human seat's view and its legal
actions) and works by keyboard alone and by mouse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, OptionList, Static
from textual.widgets.option_list import Option

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import (
    NO_SEAT,
    Hand,
    IllegalActionError,
    Phase,
    Resource,
    as_hand,
    one_kind,
)
from hexlan.net.client import GameClient
from hexlan.net.narrate import describe_cards
from hexlan.tui.narrate import style_names
from hexlan.tui.widgets.controls import Counter, Cycler
from hexlan.tui.widgets.hand import resource_text

T = TypeVar("T")

Submit = Callable[[Action], bool]
"""Plays an action for the human seat; False (and a notice) when the game refused it."""


def counter_values(screen: Screen[Any], prefix: str, kinds: Sequence[Resource]) -> Hand:
    """The values of the :class:`Counter` widgets ``#<prefix>-<kind>`` on ``screen``
    (``#give-lumber`` ...), one per card kind of the game (``kinds``, the rule set's ``cards``),
    in card-kind order."""
    return as_hand([screen.query_one(f"#{prefix}-{r.name.lower()}", Counter).value for r in kinds])


class ChoiceDialog(ModalScreen[T | None], Generic[T]):
    """Pick one of a few labelled choices: arrows and Enter, a digit, or a click; Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str | Text, T]], note: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.choices = list(choices)
        self.note = note

    def compose(self) -> ComposeResult:
        """The title, the numbered choices and a hint."""
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            options = [
                Option(Text.assemble(f"{i + 1}  " if i < 9 else "   ", label), id=str(i))
                for i, (label, _) in enumerate(self.choices)
            ]
            yield OptionList(*options, id="choices")
            yield Static(self.note or "Enter or a digit chooses · Esc cancels", classes="hint")

    def on_mount(self) -> None:
        """Focus the list of choices."""
        self.set_focus(self.query_one(OptionList))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.dismiss(self.choices[int(event.option.id)][1])

    def on_key(self, event: Any) -> None:
        """A digit 1-9 picks that choice at once."""
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.choices):
                event.stop()
                self.dismiss(self.choices[index][1])

    def action_cancel(self) -> None:
        """Close without a choice (the result is None)."""
        self.dismiss(None)


class CardsDialog(ModalScreen[Action | None]):
    """Choose exactly ``need`` cards, resource by resource, with counters; the button (and
    Enter) work only when the count is exact. Subclasses say what the cards are for.

    Widget ids: ``#<prefix>-<resource>`` (the counters), ``#<prefix>-status``, ``#<prefix>-ok``.

    Args:
        game: the game (read only).
        title: the dialog's title.
        need: how many cards to choose.
        have: the cards shown beside each counter (``have_title`` heads the column).
        maxima: the most of each resource that may be chosen.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Look at the board"),
        Binding("enter", "confirm", "Confirm", priority=False),
        Binding("up", "app.focus_previous", "Up", show=False),
        Binding("down", "app.focus_next", "Down", show=False),
    ]

    prefix: ClassVar[str] = "cards"
    verb: ClassVar[str] = "Choose"
    """The confirm button's label (and the counters' column title, in lower case)."""
    reopen_key: ClassVar[str] = ""
    """The game screen's key that opens the dialog again after Esc."""

    def __init__(
        self,
        game: GameClient,
        title: str,
        need: int,
        have: Sequence[int],
        have_title: str,
        maxima: Sequence[int],
    ) -> None:
        super().__init__(classes="dialog-screen")
        self.game = game
        self.title_text = title
        self.need = need
        self.have = tuple(have)
        self.have_title = have_title
        self.maxima = tuple(maxima)

    def compose(self) -> ComposeResult:
        """Per resource: the cards shown and a counter; the confirm button and a hint."""
        prefix = self.prefix
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            with Grid(classes="counter-grid discard-grid"):
                yield Label("")
                yield Label(self.have_title, classes="col-head")
                yield Label(self.verb.lower(), classes="col-head")
                for r in self.game.view.rules.cards:
                    yield Label(resource_text(r))
                    yield Label(str(self.have[r]), classes="num")
                    yield Counter(self.maxima[r], id=f"{prefix}-{r.name.lower()}")
            yield Static(id=f"{prefix}-status")
            with Horizontal(classes="buttons"):
                yield Button(
                    self.verb, id=f"{prefix}-ok", variant="primary", disabled=True, compact=True
                )
            yield Static(
                f"+/- or ←/→ change · ↑/↓ move · Enter {self.verb.lower()}s · Esc looks at the "
                f"board ({self.reopen_key} returns)",
                classes="hint",
            )

    def on_mount(self) -> None:
        """Focus the first resource that may be chosen and show the count chosen."""
        first = next((c for c in self.query(Counter) if c.maximum), None)
        if first is not None:
            self.set_focus(first)
        self._update()

    def chosen(self) -> Hand:
        """The cards chosen so far, in resource order."""
        return counter_values(self, self.prefix, self.game.view.rules.cards)

    @on(Counter.Changed)
    def _update(self) -> None:
        total = sum(self.chosen())
        status = self.query_one(f"#{self.prefix}-status", Static)
        exact = total == self.need
        if exact:
            status.update(Text(f"{total} of {self.need} chosen: ready", style="bold"))
        elif total < self.need:
            status.update(f"{total} of {self.need} chosen: choose {self.need - total} more")
        else:
            status.update(
                Text(f"{total} of {self.need} chosen: {total - self.need} too many", style="bold")
            )
        self.query_one(f"#{self.prefix}-ok", Button).disabled = not exact

    def action(self, cards: Hand) -> Action:
        """The action that plays the cards chosen."""
        raise NotImplementedError

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The confirm button."""
        if event.button.id == f"{self.prefix}-ok":
            event.stop()
            self.action_confirm()

    def action_confirm(self) -> None:
        """Play the cards chosen, if they are exactly the number due (else say so)."""
        cards = self.chosen()
        if sum(cards) != self.need:
            self.notify(
                f"Choose exactly {self.need} cards (you chose {sum(cards)}).", severity="warning"
            )
            return
        self.dismiss(self.action(cards))

    def action_close(self) -> None:
        """Close to look at the board; the choice is still due (its key reopens it)."""
        self.dismiss(None)


class DiscardDialog(CardsDialog):
    """Choose exactly half your cards (rounded down) to give back; confirm only when exact."""

    prefix = "discard"
    verb = "Discard"
    reopen_key = "x"

    def __init__(self, game: GameClient) -> None:
        need = game.view.discards[game.human_seat]
        hand = tuple(game.view.hands[game.human_seat])
        title = f"A 7! Discard {need} of your {sum(hand)} cards"
        super().__init__(game, title, need, hand, "have", hand)
        self.hand = hand

    def action(self, cards: Hand) -> Action:
        """The discard."""
        return A.Discard(self.game.human_seat, cards)


class OfferDialog(ModalScreen[Action | None]):
    """Another seat's offer to you: accept (when you hold the cards), decline, or counter with
    other counts (the offering seat then confirms or withdraws)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a,y", "answer(True)", "Accept"),
        Binding("d,n", "answer(False)", "Decline"),
        Binding("c", "counter", "Counter"),
        Binding("up", "app.focus_previous", "Up", show=False),
        Binding("down", "app.focus_next", "Down", show=False),
        Binding("escape", "close", "Look at the board"),
    ]

    def __init__(self, game: GameClient) -> None:
        super().__init__(classes="dialog-screen")
        self.game = game
        trade = game.view.trade
        assert trade is not None
        self.trade = trade

    def compose(self) -> ComposeResult:
        """The offer in your terms, counters for a counter-offer, and the answer buttons."""
        game = self.game
        view = game.view
        trade = self.trade
        who = game.names[view.active]
        can_accept = A.AnswerTrade(game.human_seat, True) in game.legal_actions()
        to = "you" if trade.to == game.human_seat else "everyone"
        hand = view.hands[game.human_seat]
        with Vertical(classes="dialog"):
            yield Label(f"{who} offers a trade to {to}", classes="dialog-title")
            yield Static(
                style_names(
                    f"You get {describe_cards(trade.give)}\nYou give {describe_cards(trade.get)}",
                    game.names,
                    game.human_seat,
                )
            )
            if not can_accept:
                yield Static("You do not hold the cards asked for.", classes="hint")
            yield Label("Or counter with:", classes="col-head counter-head")
            with Grid(classes="counter-grid offer-grid"):
                for head in ("", "have", "you give", "you get"):
                    yield Label(head, classes="col-head")
                for r in self.game.view.rules.cards:
                    name = r.name.lower()
                    yield Label(resource_text(r))
                    yield Label(str(hand[r]), classes="num")
                    give = Counter(hand[r], id=f"counter-give-{name}")
                    give.set_reactive(Counter.value, min(trade.get[r], hand[r]))
                    yield give
                    get = Counter(view.rules.bank[r], id=f"counter-get-{name}")
                    get.set_reactive(Counter.value, trade.give[r])
                    yield get
            yield Static(id="counter-status")
            with Horizontal(classes="buttons"):
                yield Button(
                    "Accept (a)",
                    id="accept",
                    variant="success",
                    disabled=not can_accept,
                    compact=True,
                )
                yield Button("Decline (d)", id="decline", variant="error", compact=True)
                yield Button("Counter (c)", id="counter", compact=True)
            yield Static(
                "a accepts · d declines · c counters · +/- change · Esc looks at the board "
                "(o returns)",
                classes="hint",
            )

    def on_mount(self) -> None:
        """Focus the first enabled button and mark the counters that start above zero."""
        buttons = [b for b in self.query(Button) if not b.disabled]
        self.set_focus(buttons[0])
        for counter in self.query(Counter):
            counter.set_class(counter.value > 0, "-nonzero")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Accept only when you hold the cards asked for (Textual's binding check)."""
        if action == "answer" and parameters and parameters[0] is True:
            return A.AnswerTrade(self.game.human_seat, True) in self.game.legal_actions()
        return True

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.action_answer(True)

    @on(Button.Pressed, "#decline")
    def _decline(self) -> None:
        self.action_answer(False)

    @on(Button.Pressed, "#counter")
    def _counter_pressed(self) -> None:
        self.action_counter()

    def action_answer(self, accept: bool) -> None:
        """Accept or decline the offer, if that answer is legal."""
        action = A.AnswerTrade(self.game.human_seat, accept)
        if action in self.game.legal_actions():
            self.dismiss(action)

    def counter_terms(self) -> A.CounterOffer:
        """The counter-offer the counters describe (in the offering seat's frame)."""
        you_give, you_get = (
            counter_values(self, "counter-give", self.game.view.rules.cards),
            counter_values(self, "counter-get", self.game.view.rules.cards),
        )
        # The offering seat gives what you get and gets what you give.
        return A.CounterOffer(self.game.human_seat, you_get, you_give)

    def action_counter(self) -> None:
        """Send the counter-offer the counters describe, or say why it cannot be made."""
        counter = self.counter_terms()
        status = self.query_one("#counter-status", Static)
        if counter.give == self.trade.give and counter.get == self.trade.get:
            status.update("Change the counts to counter (or accept the offer as it is).")
            return
        try:
            self.game.view.check(counter)
        except IllegalActionError as exc:
            status.update(Text(exc.reason, style="bold"))
            return
        self.dismiss(counter)

    def action_close(self) -> None:
        """Close to look at the board; the answer is still due (o reopens it)."""
        self.dismiss(None)


TARGET_EVERYONE = "everyone"
TARGET_BANK = "bank / harbour"


class TradeDialog(ModalScreen[None]):
    """Trade: resource counts to give and get, to one seat, to everyone, or with the bank.

    With the bank, "give" moves in steps of your best ratio for each resource (4:1, or 3:1 and 2:1
    at your harbours); several cards may be bought at once. With players, the offer goes out and
    the answers (accept, decline, counter-offer) appear as they arrive; confirm with one who
    accepted, or withdraw.

    Args:
        game: the game (read only).
        submit: plays an action for the human seat.
        bank: start with the bank as the partner.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("enter", "send", "Offer / trade"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
    ]

    def __init__(self, game: GameClient, submit: Submit, bank: bool = False) -> None:
        super().__init__(classes="dialog-screen")
        self.game = game
        self.submit = submit
        self.others = [s for s in range(game.players) if s != game.human_seat]
        self.targets = [TARGET_EVERYONE, *(game.names[s] for s in self.others), TARGET_BANK]
        self.start_bank = bank
        self.note = ""
        self.offer_from: int | None = None
        """The event count when our offer went out (to report its answers once it closes)."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The partner choice, the give/get counters per resource, the answers and the buttons."""
        with Vertical(classes="dialog trade-dialog"):
            yield Label("Trade", classes="dialog-title", id="trade-title")
            with Horizontal(classes="trade-target"):
                yield Label("With: ")
                yield Cycler(
                    self.targets,
                    len(self.targets) - 1 if self.start_bank else 0,
                    id="trade-target",
                )
            with Grid(classes="counter-grid trade-grid"):
                for head in ("", "have", "ratio", "you give", "you get"):
                    yield Label(head, classes="col-head")
                for r in self.game.view.rules.cards:
                    name = r.name.lower()
                    yield Label(resource_text(r))
                    yield Label("", id=f"have-{name}", classes="num")
                    yield Label("", id=f"ratio-{name}", classes="num")
                    yield Counter(id=f"give-{name}", classes="give")
                    yield Counter(id=f"get-{name}", classes="get")
            yield Static(id="trade-summary")
            yield Vertical(id="trade-answers")
            with Horizontal(classes="buttons"):
                yield Button("Offer", id="trade-send", variant="primary", compact=True)
                yield Button("Close", id="trade-close", compact=True)
            yield Static(
                "+/- or ←/→ change · ↑/↓ move · Tab next · Enter sends · Esc closes",
                classes="hint",
            )

    def on_mount(self) -> None:
        """Set the counters for the partner, show the game's state, focus the partner choice."""
        self._configure()
        self.refresh_from_game()
        self.set_focus(self.query_one("#trade-target", Cycler))

    # ------------------------------------------------------------------ state

    @property
    def is_bank(self) -> bool:
        """Whether the bank (with harbours) is the partner."""
        return self.query_one("#trade-target", Cycler).index == len(self.targets) - 1

    @property
    def partner(self) -> int:
        """NO_SEAT for everyone, else the seat the offer goes to (only when not the bank)."""
        index = self.query_one("#trade-target", Cycler).index
        return NO_SEAT if index == 0 else self.others[index - 1]

    def counts(self, column: str) -> Hand:
        """The ``"give"`` or ``"get"`` counts, in resource order."""
        return counter_values(self, column, self.game.view.rules.cards)

    def offer_open(self) -> bool:
        """Whether an offer of ours awaits answers or confirmation."""
        view = self.game.view
        return view.phase is Phase.TRADE_RESPONSES and view.active == self.game.human_seat

    def _configure(self) -> None:
        """Steps and maxima for the chosen partner."""
        view = self.game.view
        seat = self.game.human_seat
        hand = view.hands[seat]
        for r in self.game.view.rules.cards:
            name = r.name.lower()
            give = self.query_one(f"#give-{name}", Counter)
            get = self.query_one(f"#get-{name}", Counter)
            if self.is_bank:
                give.step, give.maximum = view.ratio(seat, r), hand[r]
                get.step, get.maximum = 1, view.bank[r]
            else:
                give.step, give.maximum = 1, hand[r]
                get.step, get.maximum = 1, view.rules.bank[r]
            give.set(give.value)
            get.set(get.value)

    def refresh_from_game(self) -> None:
        """Redraw after the game moved (answers arriving, a trade done)."""
        view = self.game.view
        seat = self.game.human_seat
        hand = view.hands[seat]
        for r in self.game.view.rules.cards:
            name = r.name.lower()
            self.query_one(f"#have-{name}", Label).update(str(hand[r]))
            self.query_one(f"#ratio-{name}", Label).update(f"{view.ratio(seat, r)}:1")
        locked = self.offer_open()
        if self.offer_from is not None and not locked:
            events = self.game.events[self.offer_from + 1 :]
            self.note = "\n".join(e.text for e in events if e.text)
            self.offer_from = None
        for widget in (*self.query(Counter), self.query_one("#trade-target", Cycler)):
            widget.disabled = locked
        self._configure()
        self._show_answers()
        self._summarise()

    def _show_answers(self) -> None:
        box = self.query_one("#trade-answers", Vertical)
        box.remove_children()
        view = self.game.view
        if not self.offer_open() or view.trade is None:
            if self.note:
                box.mount(Static(self.note, classes="note"))
            return
        game = self.game
        trade = view.trade
        legal = game.legal_actions()
        asked = self.others if trade.to == NO_SEAT else [trade.to]
        widgets: list[Static | Horizontal] = []
        for other in asked:
            name = game.names[other]
            answer = view.trade_answers.get(other)
            if answer is None:
                line = f"{name}: thinking…"
            elif isinstance(answer, A.CounterOffer):
                line = (
                    f"{name} counters: you give {describe_cards(answer.give)}, "
                    f"get {describe_cards(answer.get)}"
                )
            else:
                line = f"{name} {'accepts' if answer.accept else 'declines'}"
            label = Static(style_names(line, game.names, game.human_seat), classes="answer")
            if A.ConfirmTrade(other) in legal:
                widgets.append(
                    Horizontal(
                        label,
                        Button(
                            f"Trade with {name}",
                            id=f"confirm-{other}",
                            variant="success",
                            compact=True,
                        ),
                        classes="answer-row",
                    )
                )
            else:
                widgets.append(label)
        box.mount_all(widgets)
        if A.CANCEL_TRADE in legal:
            buttons = list(box.query(Button))
            if buttons:
                self.call_after_refresh(buttons[0].focus)

    def _summarise(self) -> None:
        """The summary line and whether Send may be pressed."""
        send = self.query_one("#trade-send", Button)
        summary = self.query_one("#trade-summary", Static)
        if self.offer_open():
            pending = self.game.view.trade_pending
            send.label = "Withdraw"
            send.variant = "error"
            send.disabled = bool(pending)
            summary.update(
                "Waiting for answers…" if pending else "Choose a partner, or withdraw the offer."
            )
            return
        send.label = "Trade" if self.is_bank else "Offer"
        send.variant = "primary"
        problem, text = self._check()
        send.disabled = problem
        summary.update(Text(text, style="bold" if not problem else "dim"))

    def _check(self) -> tuple[bool, str]:
        """(is there a problem, what to say) for the current counts."""
        give, get = self.counts("give"), self.counts("get")
        if not sum(give) and not sum(get):
            return True, "Set what you give and what you get."
        if any(g and t for g, t in zip(give, get, strict=True)):
            return True, "You cannot give and get the same resource."
        if not sum(give) or not sum(get):
            return True, "Both sides must give at least one card."
        if self.is_bank:
            seat = self.game.human_seat
            units = sum(
                give[r] // self.game.view.ratio(seat, r) for r in self.game.view.rules.cards
            )
            if units != sum(get):
                return True, (f"Your cards buy {units} from the bank; you ask for {sum(get)}.")
            return False, f"Give {describe_cards(give)} to the bank for {describe_cards(get)}."
        to = TARGET_EVERYONE if self.partner == NO_SEAT else self.game.names[self.partner]
        return False, f"Offer {describe_cards(give)} for {describe_cards(get)} to {to}."

    # ------------------------------------------------------------------ events

    @on(Cycler.Changed)
    def _target_changed(self) -> None:
        self.note = ""
        self._configure()
        self._show_answers()
        self._summarise()

    @on(Counter.Changed)
    def _count_changed(self) -> None:
        self._summarise()

    @on(Button.Pressed, "#trade-close")
    def _close_pressed(self) -> None:
        self.action_close()

    @on(Button.Pressed, "#trade-send")
    def _send_pressed(self) -> None:
        self.action_send()

    @on(Button.Pressed)
    def _confirm_pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if button_id.startswith("confirm-"):
            event.stop()
            seat = int(button_id.removeprefix("confirm-"))
            if self.submit(A.ConfirmTrade(seat)):
                self.dismiss(None)

    def action_move(self, direction: int) -> None:
        """Focus the counter above or below in the same column (or the partner choice)."""
        focused = self.focused
        order: list[Any] = [self.query_one("#trade-target", Cycler)]
        column = "give"
        if isinstance(focused, Counter) and focused.id:
            column = focused.id.split("-")[0]
        order += [
            self.query_one(f"#{column}-{r.name.lower()}", Counter)
            for r in self.game.view.rules.cards
        ]
        order = [w for w in order if not w.disabled]
        if not order:
            return
        index = order.index(focused) if focused in order else -1
        self.set_focus(order[max(0, min(len(order) - 1, index + direction))])

    def action_send(self) -> None:
        """Offer, trade with the bank, or (with an offer out) withdraw it."""
        if self.offer_open():
            if A.CANCEL_TRADE in self.game.legal_actions():
                self.submit(A.CANCEL_TRADE)
                self.note = "Offer withdrawn."
                self.refresh_from_game()
            return
        problem, text = self._check()
        if problem:
            self.notify(text, severity="warning")
            return
        give, get = self.counts("give"), self.counts("get")
        if self.is_bank:
            self._bank_trade(give, get)
            return
        self.note = ""
        self.offer_from = len(self.game.events)
        if not self.submit(A.OfferTrade(give, get, self.partner)):
            self.offer_from = None

    def _bank_trade(self, give: tuple[int, ...], get: tuple[int, ...]) -> None:
        seat = self.game.human_seat
        view = self.game.view
        pay: list[Hand] = []
        for r in self.game.view.rules.cards:
            ratio = view.ratio(seat, r)
            pay += [one_kind(r, ratio, view.kinds)] * (give[r] // ratio)
        wants = [r for r in self.game.view.rules.cards for _ in range(get[r])]
        for cards, want in zip(pay, wants, strict=True):
            if not self.submit(A.MaritimeTrade(cards, want)):
                break
        self.dismiss(None)

    def action_close(self) -> None:
        """Close; an offer still out is withdrawn first (it cannot be while answers are due)."""
        if self.offer_open():
            legal = self.game.legal_actions()
            if A.CANCEL_TRADE not in legal:
                self.notify("Waiting for answers to your offer…")
                return
            self.submit(A.CANCEL_TRADE)
        self.dismiss(None)
