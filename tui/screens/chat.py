"""The table chat's window (docs/PROTOCOL.md §18): ``/`` opens it over the table, Enter says
the line typed, Escape closes it; while it is closed it takes no key of the game's.

Every line is drawn by :func:`chat_line` as a ``rich.text.Text`` built from text the peer has
already made safe (:func:`hexlan.net.chat.safe_text`), never parsed as markup, in the colour of
its author's seat; a spectator's line is marked as one (its name could be a seat's), and a
system line (a refusal) is dim.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RichLog, Static

from hexlan.i18n import _
from hexlan.net.chat import MAX_CHAT_TEXT, SPECTATOR, TableChat, safe_text
from hexlan.tui.palette import seat_style

POLL: Final = 0.25
"""Seconds between two looks at the chat for lines heard while the window is open."""


def chat_line(author: int | None, text: str) -> Text:
    """One chat line for the screen: plain text (``safe_text`` again, so even a caller that
    passes raw text shows no control character), in the author seat's colour; a spectator's
    (``author`` :data:`~hexlan.net.chat.SPECTATOR`) italic and marked "(spectator)"; a system
    line (``author`` None) dim and italic.

    >>> line = chat_line(1, "Bo: [bold]hi[/bold]\\x1b[2J")
    >>> line.plain, line.spans == []
    ('Bo: [bold]hi[/bold]\\\\x1b[2J', True)
    >>> chat_line(-1, "Ann: hi").plain
    '(spectator) Ann: hi'
    """
    if author == SPECTATOR:
        return Text(_("(spectator) {line}").format(line=safe_text(text)), style="italic")
    style = "dim italic" if author is None else seat_style(author)
    return Text(safe_text(text), style=style)


class ChatDialog(ModalScreen[None]):
    """The chat: the lines so far, newest last, and a line to type (at most
    :data:`~hexlan.net.chat.MAX_CHAT_TEXT` characters). ``hint`` replaces the line under the
    input (a spectator's: the host may refuse its lines)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, chat: TableChat, hint: str | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.chat = chat
        self.hint = _("Enter says it to the table · Esc closes") if hint is None else hint
        self._shown = 0

    def compose(self) -> ComposeResult:
        """The title, the lines, the input and a hint."""
        with Vertical(classes="dialog wide-dialog chat-dialog"):
            yield Label(_("Table chat"), classes="dialog-title")
            yield RichLog(id="chat-lines", wrap=True, markup=False, min_width=20)
            yield Input(placeholder=_("Say something…"), max_length=MAX_CHAT_TEXT, id="chat-input")
            yield Static(self.hint, classes="hint")

    def on_mount(self) -> None:
        """Show the lines so far, focus the input, and look for new lines now and then."""
        self._catch_up()
        self.set_focus(self.query_one(Input))
        self.set_interval(POLL, self._catch_up)

    def _catch_up(self) -> None:
        chat = self.chat
        new = min(chat.heard - self._shown, len(chat.lines))
        log = self.query_one(RichLog)
        for author, text in chat.lines[len(chat.lines) - new :]:
            log.write(chat_line(author, text))
        self._shown = chat.heard

    @on(Input.Submitted, "#chat-input")
    def _said(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            self.chat.say(event.value)
        except ValueError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        event.input.value = ""
        self._catch_up()

    def action_close(self) -> None:
        """Close the chat (the game's keys work again)."""
        self.dismiss(None)


__all__ = ["ChatDialog", "chat_line"]
