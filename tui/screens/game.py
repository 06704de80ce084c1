"""The game screen: board, players, your hand, the log, the status line and the keys legal now.

It talks to a :class:`~hexlan.net.client.GameClient` only: it reads the human seat's view, plays
the human's moves with ``submit``, lets in-process bots move with ``step`` on a paced worker, and
redraws when a networked game's messages arrive (the client's ``on_change``).
Places are picked on the board (typed label, arrows and Enter, or a click) from the legal actions
only; dialogs handle trade, discard, offers and development cards. What a game adds (its keys,
picks and dialogs) comes from its own modules in :mod:`hexlan.tui.games`, through
:mod:`hexlan.tui.actionkeys` and :mod:`hexlan.tui.screen_keys` (the ``game(NAME)`` keys): the
screen imports no game.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Protocol, TypeVar, cast

from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.bots import Bot
from hexlan.engine.core import (
    DevCard,
    DevelopmentCard,
    GamePhase,
    IllegalActionError,
    Phase,
)
from hexlan.net.chat import TableChat
from hexlan.net.client import BotTurn, GameClient
from hexlan.net.narrate import GameEvent
from hexlan.tui import games  # noqa: F401 - every game's keys register on import
from hexlan.tui.actionkeys import (
    builds_by_key,
    card_helps_of,
    card_of,
    dialog_of,
    is_keyed,
    keyed,
    place_of,
    prompt_of,
    waiting_head,
    waiting_words,
)
from hexlan.tui.board import MINI, BoardView, TargetKind, geometry
from hexlan.tui.palette import seat_style
from hexlan.tui.screen_keys import (
    ROLL_WORDS,
    game_key,
    path_pick,
    phase_pick,
    pick_head,
    pick_kind,
    picks,
    placed,
    step_of,
    switch_of,
)
from hexlan.tui.screens.chat import ChatDialog, chat_line
from hexlan.tui.screens.dialogs import (
    ChoiceDialog,
    DiscardDialog,
    OfferDialog,
    TradeDialog,
)
from hexlan.tui.screens.info import DiceScreen, GameOverScreen, HelpScreen, StoppedScreen
from hexlan.tui.screens.table import TableScreen
from hexlan.tui.turn_notice import TurnNotice
from hexlan.tui.widgets.hand import HandPanel
from hexlan.tui.widgets.log import GameLog
from hexlan.tui.widgets.players import PlayersPanel
from hexlan.tui.widgets.status import StatusBar

T = TypeVar("T")

AUDIT_GRACE: Final = 15.0
"""Seconds quitting a won game waits for the audit to be signed (it takes about one)."""

SYNC_INTERVAL: Final = 0.1
"""Seconds between two redraws for a networked game's news, at least."""
SIDE_WIDTH: Final = 30
"""The side panels' width in a narrow layout (app.tcss ``#side``)."""
SIDE_MIN: Final = 23
"""The narrowest the side panels get to leave the board room (a wide map at 80 columns)."""

_PICK_PURPOSE: Final = {
    "settlement": "Place your settlement",
    "city": "Place your city",
    "road": "Place your road",
    "robber": "Move the robber (a land hex)",
}
"""The prompt's head for each kind of pick (a game's own:
:func:`~hexlan.tui.screen_keys.pick_head`)."""


def make_labels(count: int) -> list[str]:
    """Short labels for ``count`` places, none a prefix of another: a..z, else aa, ab, ...

    >>> make_labels(3), make_labels(28)[-2:]
    (['a', 'b', 'c'], ['ba', 'bb'])
    """
    letters = "abcdefghijklmnopqrstuvwxyz"
    if count <= len(letters):
        return list(letters[:count])
    return [a + b for a in letters for b in letters][:count]


_OWN_BINDINGS: Final[list[Binding]] = [
    Binding("r", "roll", "Roll"),
    Binding("s", "build('settlement')", "Settle"),
    Binding("c", "build('city')", "City"),
    Binding("d", "build('road')", "Road"),
    Binding("v", "buy", "Buy card"),
    Binding("p", "play_card", "Play"),
    Binding("t", "trade", "Trade"),
    Binding("m", "bank_trade", "Bank"),
    Binding("e", "end_turn", "End turn"),
    Binding("x", "discard", "Discard"),
    Binding("o", "answer_offer", "Offer"),
    Binding("y", "decide", "Choose"),
    Binding("A", "abandon", "Abandon"),
    Binding("escape", "cancel_pick", "Cancel"),
    Binding("h", "dice", "Dice stats", show=False),
    Binding("question_mark,f1", "help", "Help"),
    Binding("tab", "next_panel", "Panel", show=False),
    Binding("1", "panel('hand')", "Hand", show=False),
    Binding("2", "panel('log')", "Log", show=False),
    Binding("q", "quit_over", "Quit", show=False),
    Binding("slash", "chat", "Chat", show=False),
]
"""The screen's own keys; every game's go among them (:func:`~hexlan.tui.screen_keys.binds`)."""


@dataclass
class Pick:
    """Picking a place on the board.

    Attributes:
        kind: node, path or hex.
        what: a key of :data:`_PICK_PURPOSE` (settlement, road, robber...) or a game's
            pick (:func:`~hexlan.tui.screen_keys.pick_heads`: a piece to move, then its new
            place...).
        actions: for each legal place, the legal actions there (several robber victims).
        mandatory: whether Esc may not cancel (set-up, robber, free roads).
        source: in a pick of a moved piece's new place, the place of the piece.
        labels: the label shown on each place.
        stamp: the event count when it was made (rebuilt when the game moves).
        typed: letters typed so far.
        lit: whether the pick lit a place of its own (:meth:`GameScreen.light`).
    """

    kind: TargetKind
    what: str
    actions: dict[int, list[Action]]
    mandatory: bool
    source: int = -1
    labels: dict[int, str] = field(default_factory=dict)
    stamp: int = 0
    typed: str = ""
    lit: bool = False

    def __post_init__(self) -> None:
        targets = sorted(self.actions)
        self.labels = dict(zip(targets, make_labels(len(targets)), strict=True))


class GameScreen(TableScreen):
    """The table."""

    class GameChanged(Message):
        """The game moved on without a call of ours (a networked game's messages)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *placed(_OWN_BINDINGS, lambda b: b.action, lambda k: Binding(k.key, k.action, k.label))
    ]

    def __init__(
        self,
        game: GameClient,
        bot_delay: float = 0.5,
        autoplayer: Bot | None = None,
        notice: TurnNotice | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.notice = TurnNotice() if notice is None else notice
        self.bot_delay = max(0.0, bot_delay)
        self.autoplayer = autoplayer
        self.pick: Pick | None = None
        self.trade_dialog: TradeDialog | None = None
        self._prompted = -1
        self._over_shown = False
        self._bots_running = False
        self.thinking: int | None = None
        """The seat of a bot thinking now (a worker thread), shown in the prompt line."""
        self._end_warned = -1
        self._shown = 0
        """Events shown so far (written to the log, flashed on the board)."""
        self._change_posted = False
        self._synced_at = 0.0
        self._chat_seen = 0
        """Chat lines heard so far that the person has been shown."""

    # ------------------------------------------------------------------ layout

    def compose_status(self) -> StatusBar:
        """The status line: whose turn, the dice, the phase."""
        return StatusBar(id="status")

    def compose_board(self) -> BoardView:
        """The board of the seat's view."""
        return BoardView(self.game.view, id="board")

    def compose_players(self) -> PlayersPanel:
        """Every seat's points, cards and pieces."""
        return PlayersPanel(self.game, id="players")

    def compose_panel(self, name: str) -> ComposeResult:
        """The hand, or the log."""
        yield HandPanel(self.game, id="hand") if name == "hand" else GameLog(self.game, id="log")

    def on_mount(self) -> None:
        """Title the panels, fit the layout to the terminal, draw, and let the bots start."""
        self.query_one("#panel-players").border_title = "Players"
        self.query_one("#panel-hand").border_title = "Your hand"
        self.query_one("#panel-log").border_title = "Log"
        self.lay_out()
        self.game.on_change = self._game_changed
        self._show_new_events()
        self.sync()
        self.kick()

    def on_unmount(self) -> None:
        """Stop hearing the game."""
        self.game.on_change = None

    def _game_changed(self) -> None:
        """The client's news (called on the event loop): redraw once for a burst of them, at
        most every :data:`SYNC_INTERVAL` seconds (a networked game's messages come fast)."""
        if self._change_posted:
            return
        self._change_posted = True
        wait = self._synced_at + SYNC_INTERVAL - time.monotonic()
        if wait > 0:
            self.set_timer(wait, lambda: self.post_message(self.GameChanged()))
        else:
            self.post_message(self.GameChanged())

    @on(GameChanged)
    def _on_game_changed(self, message: GameChanged) -> None:
        message.stop()
        self._change_posted = False
        self._synced_at = time.monotonic()
        self._announce_chat()
        self._show_new_events()
        self.sync()
        self.kick()

    def lay_out(self) -> tuple[int, bool]:
        """Fit the table to the terminal (:meth:`TableScreen.lay_out`) and the side panels
        beside the board."""
        width, wide = super().lay_out()
        self._fit_side(width, wide)
        return width, wide

    def _fit_side(self, width: int, wide: bool) -> None:
        """In a narrow layout, narrow the side panels (down to :data:`SIDE_MIN`) when the
        board's smallest layout would not fit beside them (a map 54 columns wide at 80)."""
        side = self.query_one("#side")
        room = width - geometry(MINI, self.game.view.board.topology).width
        if wide or room >= SIDE_WIDTH:
            side.styles.width = None  # the style sheet's width
        else:
            side.styles.width = max(SIDE_MIN, room)

    # ------------------------------------------------------------------ syncing with the game

    def sync(self) -> None:
        """Redraw everything from the game and prompt for a decision that is due."""
        game = self.game
        self.query_one(StatusBar).show(game)
        self.query_one(PlayersPanel).show()
        self.query_one(HandPanel).show()
        self.query_one(GameLog).catch_up()
        self.board.update_state(game.view)
        if self.trade_dialog is not None and self.trade_dialog.is_attached:
            self.trade_dialog.refresh_from_game()
        self._prompt_decision()
        self.notice.update(self.app, self._awaited_words())
        self._show_prompt()
        self.refresh_bindings()
        if game.is_over and not self._over_shown:
            self._over_shown = True
            if game.stopped is not None:
                self.app.push_screen(StoppedScreen(game), self._after_game_over)
            else:
                rematch = getattr(self.app, "can_rematch", False) is True  # `hexlan play`
                self.app.push_screen(GameOverScreen(game, rematch), self._after_game_over)

    def _after_game_over(self, what: str | None) -> None:
        if what == "quit":
            self.action_quit_over()
        elif what == "again":
            self.app.call_later(self.app.run_action, "rematch")  # HexlanApp.action_rematch

    def _prompt_decision(self) -> None:
        """Start the pick or open the dialog that a due decision needs (once per decision)."""
        game = self.game
        if not game.human_to_act() or self.autoplayer is not None:
            if self.pick is not None:
                self.end_pick()
            return
        view = game.view
        phase = view.phase
        stamp = len(game.events)
        if self._prompt_pick(phase, stamp):
            return
        if self.pick is not None and self.pick.mandatory:
            self.end_pick()
        if self._prompted == stamp or not self._is_top():
            return
        if phase is Phase.DISCARD:
            self._prompted = stamp
            self.action_discard()
        elif (due := prompt_of(phase)) is not None and due.is_due(self.legal()):
            # A game's choice (gold to take, a dialog of its own, a special building turn with
            # nothing to build): its key's action.
            self._prompted = stamp
            self.call_later(self.run_key, due.key)
        elif phase is Phase.TRADE_RESPONSES and game.human_seat in view.trade_pending:
            self._prompted = stamp
            if A.AnswerTrade(game.human_seat, True) in game.legal_actions():
                self.action_answer_offer()
            else:  # declining is the only answer there is: no dialog for it
                trade = view.trade
                if trade is not None and trade.to == game.human_seat:
                    # An offer to everyone is in the log with your answer; a toast for each
                    # would bury the side panels at a table of five or six.
                    self.notify(
                        "You lack the cards asked for, so you decline.",
                        title=f"{game.names[view.active]} offers a trade",
                    )
                self.submit(A.AnswerTrade(game.human_seat, False))
        elif phase is Phase.TRADE_RESPONSES and view.active == game.human_seat:
            self._prompted = stamp
            self._open_trade(bank=False)

    def _prompt_pick(self, phase: GamePhase, stamp: int) -> bool:
        """Start the board pick a due decision of ``phase`` needs (a set-up piece, a free road,
        the robber or the piece a game moves in its place, a game's own pick), or ask whom to
        rob; whether the phase is one of those."""
        if phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD, Phase.ROAD_BUILDING):
            if self.pick is None or self.pick.stamp != stamp:
                if phase is Phase.SETUP_SETTLEMENT:  # a game's second may be a city
                    city = bool(keyed("build:city", self.legal()))
                    self.start_pick("node", "city" if city else "settlement", mandatory=True)
                else:
                    self.start_pick("path", path_pick(self.legal()), mandatory=True)
            return True
        if phase is Phase.MOVE_ROBBER and keyed("rob", self.legal()):
            if self._prompted != stamp and self._is_top():  # a 7 with no robber to move
                self._prompted = stamp
                self._rob_anyone()
            return True
        if phase is Phase.MOVE_ROBBER:
            if (self.pick is None or self.pick.stamp != stamp) and not self.start_pick(
                "hex", "robber", mandatory=True
            ):
                other = switch_of("robber")  # the robber stuck: the piece moved in its place
                if other is not None:
                    self.start_pick("hex", other[0], mandatory=True)
            return True
        what = phase_pick(phase)  # a game's decision picked at once (a displaced knight's place)
        if what is not None:
            if self.pick is None or self.pick.stamp != stamp:
                self.start_pick(_pick_kind(what), what, mandatory=True)
            return True
        return False

    def _awaited_words(self) -> str | None:
        """What the game waits for from the person, in a few words for the terminal title
        (:class:`~hexlan.tui.turn_notice.TurnNotice`), or None (it waits for nobody here, or a
        bot plays the person's seat)."""
        game = self.game
        if self.autoplayer is not None or game.is_over or not game.human_to_act():
            return None
        view, me = game.view, game.human_seat
        if view.phase is Phase.DISCARD:
            return "discard"
        if view.phase is Phase.TRADE_RESPONSES and me in view.trade_pending:
            return "answer a trade offer"
        return "your turn" if view.active == me else "your decision"

    def _is_top(self) -> bool:
        return self.app.screen is self

    def _show_prompt(self) -> None:
        game = self.game
        prompt = self.query_one("#prompt", Static)
        text = Text(no_wrap=True, overflow="ellipsis")
        if game.is_over:
            self._over_words(text)
        elif self.pick is not None:
            self._pick_words(text, self.pick)
        elif game.human_to_act() and self.autoplayer is None:
            text.append(self._your_move_words(), style="bold")
        elif self.thinking is not None:
            text.append(
                game.names[self.thinking], style=seat_style(self.thinking) + Style(bold=True)
            )
            text.append(" is thinking…", style="dim")
        else:
            self._waiting_words(text)
        prompt.update(text)

    def _over_words(self, text: Text) -> None:
        """The prompt once the game is over: abandoned, stopped, or won, and how to quit."""
        game = self.game
        winner = game.winner
        if game.abandoned:
            gone = ", ".join(game.names[s] for s in game.abandoned)
            text.append(f"Game over: abandoned ({gone} left). ", style="bold")
        elif winner is None:
            text.append("The game stopped: a seat broke the protocol. ", style="bold red")
        else:
            who = "You win" if winner == game.human_seat else f"{game.names[winner]} wins"
            text.append(f"Game over: {who}. ", style="bold")
        text.append("q quits.")

    def _pick_words(self, text: Text, pick: Pick) -> None:
        """The prompt of a pick on the board: what it is for, the labels to type, the keys."""
        first, last = min(pick.labels.values()), max(pick.labels.values())
        head = _PICK_PURPOSE.get(pick.what) or pick_head(pick.what) or pick.what
        other = switch_of(pick.what)
        if other is not None and self.targets(other[0])[1]:  # fits 80 columns
            head = f"Move the {pick.what} (or {other[1]}: the {other[0]})"
        text.append(f"{head}: ", style="bold")
        labels = first if first == last else f"{first}-{last}"
        text.append(f"type {labels}, or arrows+Enter, or click")
        if not pick.mandatory:
            text.append(" · Esc cancels")
        if pick.typed:
            text.append(f"   typed: {pick.typed}", style="bold")

    def _waiting_words(self, text: Text) -> None:
        """The prompt while the game waits for others: whom, for what, and who is away."""
        game = self.game
        view = game.view
        if (head := waiting_head(view.phase)) and view.active >= 0:
            acting = view.active  # the 5-6 player game's special builder
            text.append(head, style="bold")
            text.append(game.names[acting], style=seat_style(acting) + Style(bold=True))
            text.append(f" {waiting_words(view.phase)}…")
            return
        if view.phase is Phase.GAME_OVER:
            return
        waiting = game.waiting_on()
        if waiting:
            names = ", ".join(game.names[s] for s in waiting)
            text.append(f"Waiting for {names}…", style="dim")
        else:
            seats = [s for s in view.acting_seats() if s != game.human_seat]
            if not seats and view.active != game.human_seat:
                seats = [view.active]
            names = ", ".join(game.names[s] for s in seats if s >= 0)
            doing = waiting_words(view.phase) or "to play"
            text.append(f"{names or 'The others'} {doing}…", style="dim")
            waiting = seats
        away = [game.names[s] for s in waiting if s >= 0 and not game.is_connected(s)]
        if away:
            verb = "is" if len(away) == 1 else "are"
            text.append(f"  ({', '.join(away)} {verb} not connected)", style="bold yellow")

    def _your_move_words(self) -> str:
        view = self.game.view
        phase = view.phase
        if phase is Phase.ROLL:
            more = ROLL_WORDS.of(view.variant)  # a game's own (the Alchemist)
            return (
                "Your turn: roll the dice (r)"
                + (" or play a card first (p)" if self.check_action("play_card", ()) else "")
                + ("" if more is None else more(view, self.legal()))
            )
        if phase is Phase.MAIN:
            return "Trade and build, then end your turn (e)"
        if phase is Phase.DISCARD:
            return f"Discard {view.discards[self.game.human_seat]} cards (x)"
        if (due := prompt_of(phase)) is not None:
            return due.words(self.legal())
        if phase is Phase.TRADE_RESPONSES:
            if self.game.human_seat in view.trade_pending:
                return "An offer awaits your answer (o)"
            return "Answers are in: confirm a trade or withdraw (t)"
        return f"Your move ({phase.title})"

    # ------------------------------------------------------------------ moving

    def submit(self, action: Action) -> bool:
        """Play the human's action; False (with a notice) when the game refuses it."""
        try:
            self.game.submit(action)
        except IllegalActionError as exc:
            self.notify(exc.reason, title="Not allowed", severity="error")
            return False
        self._show_new_events()
        if self.pick is not None and not self.pick.mandatory:
            self.end_pick()
        self.sync()
        self.kick()
        return True

    def _show_new_events(self) -> None:
        """Write the events not shown yet, and flash the others' moves on the board."""
        events = self.game.events
        for event in events[self._shown :]:
            self._show_event(event)
        self._shown = len(events)

    def _show_event(self, event: GameEvent) -> None:
        self.query_one(GameLog).add_event(event)
        if event.target is not None and event.seat != self.game.human_seat:
            kind, ids = event.target
            self.board.flash(kind, ids)

    def kick(self) -> None:
        """Let bots and chance move until the human is due (on the paced worker)."""
        game = self.game
        if self._bots_running or game.is_over:
            return
        if game.human_to_act() and self.autoplayer is None:
            return
        self._bots_running = True
        self._bot_loop()

    @property
    def _live(self) -> bool:
        """Whether the app runs with this screen in it (not once it exits or shuts down: its
        widgets go before the bot worker is cancelled)."""
        return self.is_attached and self.app.is_running

    @work(group="bots")
    async def _bot_loop(self) -> None:
        game = self.game
        delay = self.bot_delay
        try:
            since_yield = 0
            while self._live:
                autoplay = self.autoplayer is not None and game.human_to_act()
                turn = None if autoplay else game.bot_due()  # a bot may owe an answer too
                if self.autoplayer is not None and autoplay:
                    action = self.autoplayer.choose(game.view, game.human_seat)
                    events: list[GameEvent] | None = game.submit(action)
                elif turn is not None:
                    events = await self._bot_thinks(turn)
                    if events is None:
                        continue  # the game moved on while the bot thought: ask again
                else:
                    events = game.step()
                if events is None:
                    break
                self._show_new_events()
                if delay and any(event.text for event in events):
                    self.sync()
                    await asyncio.sleep(delay)
                elif not events and game.working:  # the deck's proofs run in the background
                    await asyncio.sleep(0.05)
                else:
                    since_yield += 1
                    if since_yield >= 20:
                        since_yield = 0
                        await asyncio.sleep(0)
        finally:
            self._bots_running = False
        if self._live:
            self.sync()

    async def _bot_thinks(self, turn: BotTurn) -> list[GameEvent] | None:
        """Let a bot decide in a worker thread (a search bot thinks for a second; the screen and
        the network go on meanwhile), the footer saying so; the move's events, or None when it
        came too late or the app closed meanwhile."""
        self.thinking = turn.seat
        self._show_prompt()
        try:
            action = await asyncio.to_thread(turn.bot.choose, turn.view, turn.seat)
        finally:
            self.thinking = None
        if not self._live:  # the app closed while the bot thought
            return None
        events = self.game.bot_move(turn, action)
        self._show_prompt()
        return events

    # ------------------------------------------------------------------ picking places

    def legal(self) -> list[Action]:
        """The person's legal actions now (none while a bot plays the seat)."""
        if self.autoplayer is not None:
            return []
        return self.game.legal_actions()

    def targets(self, what: str, source: int = -1) -> tuple[TargetKind, dict[int, list[Action]]]:
        """The kind of place and, per legal place, its legal actions, for a pick of ``what``
        (``source``: the place of the piece being moved, for a pick of its new place)."""
        found: dict[int, list[Action]] = defaultdict(list)
        for action in self.legal():
            for spot in place_of(what, action, source):
                found[spot].append(action)
        return _pick_kind(what), dict(found)

    def start_pick(self, kind: TargetKind, what: str, mandatory: bool, source: int = -1) -> bool:
        """Light the legal places of a pick of ``what`` (``kind`` places; ``source``: the piece
        being moved) for the person to pick one; False when there is none."""
        _, targets = self.targets(what, source)
        if not targets:
            return False
        self.pick = Pick(kind, what, targets, mandatory, source, stamp=len(self.game.events))
        self.board.set_targets(kind, self.pick.labels)
        self.board.focus()
        self._show_prompt()
        self.refresh_bindings()
        return True

    def light(self, kind: TargetKind, place: int) -> None:
        """Light ``place`` (the piece being moved, the hex picked first) till the pick ends."""
        self.board.flash(kind, [place], seconds=_LIT_FOREVER)
        if self.pick is not None:
            self.pick.lit = True

    def end_pick(self) -> None:
        """Stop the pick on: its places and what it lit go dark."""
        if self.pick is not None and self.pick.lit:
            self.board.end_flash()  # the piece being moved (the first place picked) was lit
        self.pick = None
        self.board.set_targets(None, {})
        self._show_prompt()
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        """While picking a place, letters type its label: a full label picks the place, a letter
        that starts no label rings the bell."""
        pick = self.pick
        if pick is None or not event.character or not event.character.isalpha():
            return
        if not event.character.islower() or not event.character.isascii():
            return
        event.stop()
        event.prevent_default()
        typed = pick.typed + event.character
        chosen = [t for t, label in pick.labels.items() if label == typed]
        if chosen:
            pick.typed = ""
            self._picked(chosen[0])
        elif any(label.startswith(typed) for label in pick.labels.values()):
            pick.typed = typed
            self._show_prompt()
        else:
            pick.typed = ""
            self.app.bell()
            self._show_prompt()

    @on(BoardView.Picked)
    def _board_picked(self, message: BoardView.Picked) -> None:
        message.stop()
        pick = self.pick
        if pick is None or message.kind != pick.kind:
            return
        if message.target_id in pick.actions:
            self._picked(message.target_id)
        else:
            self.notify("That place is not one of the highlighted ones.", severity="warning")

    def _picked(self, target: int) -> None:
        pick = self.pick
        if pick is None or self.app.screen is not self:
            return  # keys typed ahead of a dialog this pick opened reach the screen still
        actions = pick.actions[target]
        step = step_of(pick.what)  # a game's own (a piece to move, a knight's commands)
        if step is not None:
            step(self, pick, target, actions)
            return
        if len(actions) == 1:
            self.submit(actions[0])
            return
        pieces = picks(pick.what)
        if len(pieces) > 1:  # a path that takes either piece ("road or ship": a coast)
            self.choose(
                f"A {' or a '.join(pieces)} here?",
                [(next(p for p in pieces if is_keyed(f"build:{p}", a)), a) for a in actions],
            )
            return
        # Several victims next to the robber's (or another robbing piece's) new hex.
        self._ask_victim(actions, Style(bold=True))

    def _ask_victim(self, robs: Sequence[Action], name_style: Style) -> None:
        """Ask whom to rob: each of ``robs`` robs a seat (:class:`_Robs`), labelled with the
        seat's name (``name_style`` over its colour) and its cards in hand."""
        view = self.game.view
        choices: list[tuple[str | Text, Action]] = []
        for action in robs:
            victim = cast(_Robs, action).victim
            count = view.hand_size[victim]
            label = Text(self.game.names[victim], style=seat_style(victim) + name_style)
            label.append(f"  {count} card{'s' if count != 1 else ''}")
            choices.append((label, action))
        self.app.push_screen(ChoiceDialog("Rob whom?", choices), self.submit_chosen)

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show and allow a key only when its action is legal now (Textual's binding check)."""
        screen = self._screen_key(action, parameters)
        if screen is not None:
            return screen
        if self.pick is not None or self.autoplayer is not None:
            return False
        legal = self.legal()
        if not legal:
            return False
        return self._move_key(action, parameters, legal)

    def _screen_key(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a key of the screen's own (help, panels, a pick's, abandoning) is shown now;
        None for a key that makes a move."""
        if action in ("help", "dice"):
            return True
        if action == "chat":
            return isinstance(getattr(self.game, "chat", None), TableChat)
        if action in ("next_panel", "panel"):
            return self.has_class("-narrow")
        if action == "quit_over":
            return self.game.is_over
        if action == "cancel_pick":
            return self.pick is not None and not self.pick.mandatory
        if action == "switch_pick":
            pick = self.pick
            other = switch_of(pick.what) if pick is not None else None
            wanted = parameters[0] if parameters else ""
            return other is not None and other[0] == wanted and bool(self.targets(wanted)[1])
        if action == "abandon":
            return bool(self.game.stalled()) and not getattr(self.game, "abandon_signed", False)
        return None

    def _move_key(self, action: str, parameters: tuple[object, ...], legal: list[Action]) -> bool:
        """Whether a key that makes a move is shown, given the person's legal actions now."""
        if action == "roll":
            return A.ROLL in legal
        if action == "game":  # a game's own key
            key = game_key(self.game.view.variant, str(parameters[0]) if parameters else "")
            return key is not None and key.shown(self, legal)
        if action == "decide":
            return dialog_of(self.game.view.phase) is not None
        if action == "build":
            what = parameters[0] if parameters else ""
            return builds_by_key(self.game.view.phase) and bool(keyed(f"build:{what}", legal))
        if action in _KEYED:
            return bool(keyed(action, legal))
        if action == "trade":
            view = self.game.view
            if view.phase is Phase.TRADE_RESPONSES:
                return view.active == self.game.human_seat
            return view.phase is Phase.MAIN and view.hand_size[self.game.human_seat] > 0
        if action == "end_turn":
            return A.END_TURN in legal or A.CANCEL_TRADE in legal
        if action == "discard":
            return self.game.view.phase is Phase.DISCARD
        if action == "answer_offer":
            view = self.game.view
            return (
                view.phase is Phase.TRADE_RESPONSES and self.game.human_seat in view.trade_pending
            )
        return True

    def action_roll(self) -> None:
        """Roll the dice."""
        self.submit(A.ROLL)

    def action_build(self, what: str) -> None:
        """Light up the legal places for a piece (``what``: settlement, city, road or a
        game's own) to pick one."""
        kind, _ = self.targets(what)
        if not self.start_pick(kind, what, mandatory=False):
            self.notify(f"No place to build a {what} now.", severity="warning")

    def action_game(self, name: str) -> None:
        """What a game's own key named ``name`` does (:mod:`hexlan.tui.screen_keys`)."""
        key = game_key(self.game.view.variant, name)
        if key is not None:
            key.run(self)

    async def run_key(self, name: str) -> None:
        """Run the action of the key named ``name``: a game's own key's, else the screen's."""
        if game_key(self.game.view.variant, name) is not None:
            self.action_game(name)
        else:
            await self.run_action(name)

    def action_decide(self) -> None:
        """Open the dialog of the decision due, the one its game registered for the phase
        (:func:`~hexlan.tui.actionkeys.asks`)."""
        dialog = dialog_of(self.game.view.phase)
        if dialog is None:
            return
        title, choices = dialog(self.game.view, self.legal(), self.game.names)

        def chosen(choice: Action | str | None) -> None:
            if isinstance(choice, str):  # a pick on the board finds it (the Deserter's place)
                self.start_pick(self.targets(choice)[0], choice, mandatory=False)
            elif choice is not None:
                self.submit(choice)

        if choices:
            self.app.push_screen(ChoiceDialog(title, choices), chosen)

    def action_switch_pick(self, what: str) -> None:
        """In a pick of a piece's move, switch to moving the piece ``what`` instead, when the
        pick switches to it (:func:`~hexlan.tui.screen_keys.switches`)."""
        pick = self.pick
        other = switch_of(pick.what) if pick is not None else None
        if pick is None or other is None or other[0] != what:
            return
        mandatory = pick.mandatory
        self.end_pick()
        self.start_pick("hex", what, mandatory=mandatory)

    def _rob_anyone(self) -> None:
        """A 7 with no robber to move (the ``rob`` key's actions): take a card from any
        opponent (the only one, at once)."""
        robs = keyed("rob", self.legal())
        if len(robs) == 1:
            self.submit(robs[0])
            return
        self._ask_victim(robs, Style())

    def action_cancel_pick(self) -> None:
        """Stop picking a place (only when the pick is optional)."""
        if self.pick is not None and not self.pick.mandatory:
            self.end_pick()

    def action_buy(self) -> None:
        """Buy a development card, or what a game's own ``buy`` key does instead (a game's
        other things to pay with, chosen first)."""
        own = game_key(self.game.view.variant, "buy")
        if own is not None:
            own.run(self)
        else:
            self.submit(A.BUY_DEVELOPMENT_CARD)

    def action_end_turn(self) -> None:
        """End the turn; with an offer still out, the first press warns and the second withdraws
        the offer and ends the turn."""
        legal = self.legal()
        if A.END_TURN in legal:
            self.submit(A.END_TURN)
            return
        if A.CANCEL_TRADE in legal:
            stamp = len(self.game.events)
            if self._end_warned != stamp:
                self._end_warned = stamp
                self.notify(
                    "Your trade offer is still open: press e again to withdraw it and end "
                    "the turn.",
                    title="Offer pending",
                    severity="warning",
                )
                return
            if self.submit(A.CANCEL_TRADE):
                self.submit(A.END_TURN)

    def action_trade(self) -> None:
        """Open the trade dialog with players."""
        self._open_trade(bank=False)

    def action_bank_trade(self) -> None:
        """Open the trade dialog with the bank or a harbour."""
        self._open_trade(bank=True)

    def _open_trade(self, bank: bool) -> None:
        if self.trade_dialog is not None and self.trade_dialog.is_attached:
            return
        dialog = TradeDialog(self.game, self.submit, bank=bank)
        self.trade_dialog = dialog

        def closed(_: None) -> None:
            self.trade_dialog = None
            self.sync()

        self.app.push_screen(dialog, closed)

    def action_discard(self) -> None:
        """Open the discard dialog (or say whom the game waits for when you keep your cards)."""
        game = self.game
        if not game.view.discards[game.human_seat]:
            waiting = ", ".join(
                game.names[s] for s in game.view.acting_seats() if s != game.human_seat
            )
            self.notify(f"You keep your cards; waiting for {waiting or 'the others'}.")
            return
        self.app.push_screen(DiscardDialog(game), self.submit_chosen)

    def action_answer_offer(self) -> None:
        """Open the dialog answering the offer made to you."""
        self.app.push_screen(OfferDialog(self.game), self.submit_chosen)

    def action_play_card(self) -> None:
        """Choose a development card to play (then, for Year of Plenty and Monopoly, what to
        take)."""
        legal = keyed("play_card", self.legal())
        cards: dict[DevelopmentCard, list[Action]] = defaultdict(list)
        for action in legal:
            cards[card_of(action)].append(action)
        helps: dict[DevelopmentCard, str] = dict(_CARD_HELP)
        helps.update(card_helps_of(type(self.game.view.variant)))  # tui/games' own words
        choices = [(f"{card.title}: {helps.get(card, 'play it')}", card) for card in cards]

        def chosen(card: DevelopmentCard | None) -> None:
            if card is None:
                return
            options = cards[card]
            if card is DevCard.YEAR_OF_PLENTY:
                self.choose(
                    "Year of Plenty: take which two?",
                    [
                        (" + ".join(r.name.lower() for r in a.resources), a)
                        for a in cast("list[A.PlayYearOfPlenty]", options)
                    ],
                )
            elif card is DevCard.MONOPOLY:
                self.choose(
                    "Monopoly: take every card of which resource?",
                    [(a.resource.name.lower(), a) for a in cast("list[A.PlayMonopoly]", options)],
                )
            else:
                self.submit(options[0])

        self.app.push_screen(ChoiceDialog("Play which card?", choices), chosen)

    def choose(self, title: str, choices: Sequence[tuple[str | Text, Action]]) -> None:
        """Ask which of ``choices`` (label, action) to play, under ``title``."""
        self.app.push_screen(ChoiceDialog(title, choices), self.submit_chosen)

    def ask(
        self,
        title: str,
        choices: Sequence[tuple[str | Text, T]],
        then: Callable[[T | None], None],
        note: str = "",
    ) -> None:
        """Ask which of ``choices`` (label, value) the person picks, under ``title`` (and
        ``note``): ``then(value)``, None when the dialog is closed without one."""
        self.app.push_screen(ChoiceDialog(title, choices, note=note), then)

    def submit_chosen(self, action: Action | None) -> None:
        """A dialog's answer: play it (None: the dialog was closed without one)."""
        if action is not None:
            self.submit(action)

    def action_abandon(self) -> None:
        """Offer to end the game as abandoned by the seats that stopped answering (a confirm
        step: it cannot be undone)."""
        game = self.game
        gone = game.stalled()
        if not gone:
            return
        names = ", ".join(game.names[s] for s in gone)

        def chosen(answer: bool | None) -> None:
            if not answer:
                return
            try:
                game.abandon()
            except IllegalActionError as exc:
                self.notify(exc.reason, title="Cannot abandon", severity="error")
                return
            self.notify(
                f"You signed that {names} left. The game ends when every other seat signs "
                "the same.",
                title="Abandoning the game",
            )
            self.sync()

        self.app.push_screen(
            ChoiceDialog(
                f"{names} stopped answering",
                [(f"End the game as abandoned by {names}", True), ("Keep waiting", False)],
                note="The game cannot be resumed once every other seat agrees · Esc waits",
            ),
            chosen,
        )

    def action_help(self) -> None:
        """Show the help screen."""
        self.app.push_screen(HelpScreen(self.game.view))

    def action_chat(self) -> None:
        """Open the table chat (PROTOCOL.md §18; a local game's holds no wire)."""
        chat = getattr(self.game, "chat", None)
        if isinstance(chat, TableChat) and not isinstance(self.app.screen, ChatDialog):
            self._chat_seen = chat.heard
            self.app.push_screen(ChatDialog(chat), lambda _: self._read_chat(chat))

    def _read_chat(self, chat: TableChat) -> None:
        self._chat_seen = chat.heard

    def _announce_chat(self) -> None:
        """Show the chat lines heard while the chat is closed as notifications (plain text)."""
        chat = getattr(self.game, "chat", None)
        if not isinstance(chat, TableChat) or chat.heard == self._chat_seen:
            return
        new = min(chat.heard - self._chat_seen, len(chat.lines))
        self._chat_seen = chat.heard
        if isinstance(self.app.screen, ChatDialog):
            return
        for author, text in chat.lines[len(chat.lines) - new :]:
            self.notify(
                chat_line(author, text).plain, title="Chat (/ answers)", markup=False, timeout=8
            )

    def action_dice(self) -> None:
        """Show the dice statistics."""
        self.app.push_screen(DiceScreen(self.game))

    def action_quit_over(self) -> None:
        """Quit once the game is over; a won game first finishes its audit (this seat's
        secrets and signed result, PROTOCOL.md §14), for at most :data:`AUDIT_GRACE` seconds."""
        game = self.game
        if game.winner is None or game.session.done:
            self.app.exit()
            return
        self.notify("Finishing the end-of-game audit before quitting…", timeout=AUDIT_GRACE)
        deadline = time.monotonic() + AUDIT_GRACE

        def check() -> None:
            game.poll()
            if game.session.done or time.monotonic() > deadline:
                self.app.exit()

        self.set_interval(0.2, check)

    def legal_commands(self) -> list[tuple[str, str, str]]:
        """(title, action, help) of every game command that does something now (for ctrl+p)."""
        found = []
        for title, action, help_text in COMMANDS:
            if action.startswith("app."):
                found.append((title, action, help_text))
                continue
            name, _, rest = action.partition("(")
            params: tuple[Any, ...] = (rest.rstrip(")").strip("'"),) if rest else ()
            if self.check_action(name, params):
                found.append((title, action, help_text))
        return found


_PICK_KIND: Final[dict[str, TargetKind]] = {
    "settlement": "node",
    "city": "node",
    "robber": "hex",
}
"""What each pick lights (a game's own: :func:`~hexlan.tui.screen_keys.pick_kind`; the others:
paths)."""


def _pick_kind(what: str) -> TargetKind:
    """What a pick of ``what`` lights."""
    return _PICK_KIND.get(what) or pick_kind(what) or "path"


_LIT_FOREVER: Final = 24 * 3600.0
"""Seconds to light the piece being moved: until the pick ends (which puts the light out)."""


class _Robs(Protocol):
    """A move that robs a seat (the robber's, a game's other robbing piece's or rob on a 7)."""

    victim: int


_KEYED: Final = frozenset({"buy", "play_card", "bank_trade"})
"""The keys shown and allowed when a legal action answers them (:mod:`hexlan.tui.actionkeys`,
registered by each game's module in :mod:`hexlan.tui.games`)."""
_CARD_HELP: Final[dict[DevelopmentCard, str]] = {
    DevCard.KNIGHT: "move the robber and steal",
    DevCard.ROAD_BUILDING: "build two roads free",
    DevCard.YEAR_OF_PLENTY: "take two resources from the bank",
    DevCard.MONOPOLY: "take every card of one resource",
}
"""What each development card does in the base game (a game's own words:
:func:`~hexlan.tui.actionkeys.card_helps`)."""

COMMANDS: Final = placed(
    [
        ("Roll the dice", "roll", "key r"),
        ("Build a settlement", "build('settlement')", "key s: pick one of the highlighted places"),
        ("Build a city", "build('city')", "key c: upgrade one of your settlements"),
        ("Build a road", "build('road')", "key d: pick one of the highlighted paths"),
        ("Buy a development card", "buy", "key v: wool + grain + ore"),
        ("Play a development card", "play_card", "key p"),
        ("Trade with players", "trade", "key t: offer to one player or to everyone"),
        ("Trade with the bank or a harbour", "bank_trade", "key m"),
        ("End the turn", "end_turn", "key e"),
        ("Discard cards", "discard", "key x"),
        ("Answer the offer made to you", "answer_offer", "key o"),
        ("Make the choice due", "decide", "key y: reopen the dialog of the choice due"),
        ("Abandon the game (a seat stopped answering)", "abandon", "key A"),
        ("Dice statistics", "dice", "key h: rolls so far against the expected counts"),
        ("Help: keys and rules", "help", "key ? or F1"),
        ("Quit", "app.quit", "ctrl+q"),
    ],
    lambda c: c[1],
    lambda k: (k.title, k.action, k.help),
)
"""The game's commands: title, action, help (the command palette shows the legal ones); a
game's own among them (:func:`~hexlan.tui.screen_keys.binds`)."""
