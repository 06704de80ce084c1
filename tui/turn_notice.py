"""The turn notice: the terminal bell and title when the game comes to wait for you.

When a decision of the person's becomes due (their turn, a discard, a trade offer to answer, a
gold pick, ...), the bell rings once and the terminal's title says what the game waits for;
when it no longer waits, the title goes back to "hexlan". Either can be turned off
(``--no-bell``, ``--no-title``). Over SSH, where the table is in other rooms, this is how a
player in another window learns that the game waits. JSettlers2 plays a sound on your turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from rich.control import Control

if TYPE_CHECKING:
    from textual.app import App

IDLE_TITLE: Final = "hexlan"
"""The terminal title while the game does not wait for the person."""


@dataclass(slots=True)
class TurnNotice:
    """Rings and titles on each change from not waiting for the person to waiting.

    Attributes:
        bell: ring the terminal bell once when the game comes to wait for the person.
        title: set the terminal's title to what it waits for (and back to "hexlan").
        rings: how many times it rang (for a status line and for tests).
        shown: the title it last set ("" before it set any).
    """

    bell: bool = True
    title: bool = True
    rings: int = 0
    shown: str = ""
    _waiting: bool = field(default=False, repr=False)

    def update(self, app: App[object], waiting: str | None) -> None:
        """Tell it what the game waits for from the person now (``waiting``: a few words, e.g.
        "your turn: roll the dice"), or None. Rings and sets the title only on a change."""
        if waiting is not None and not self._waiting:
            if self.bell:
                self.rings += 1
                app.bell()
            self._set_title(app, f"{IDLE_TITLE}: {waiting}")
        elif waiting is None and self._waiting:
            self._set_title(app, IDLE_TITLE)
        self._waiting = waiting is not None

    def _set_title(self, app: App[object], text: str) -> None:
        if not self.title or text == self.shown:
            return
        text = "".join(c for c in text if c.isprintable())  # no control code from a name
        self.shown = text
        driver = app._driver  # as App.bell writes its control code (no public way for a title)
        if not app.is_headless and driver is not None:
            driver.write(Control.title(text).segment.text)


__all__ = ["IDLE_TITLE", "TurnNotice"]
