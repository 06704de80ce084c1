"""Small controls for the dialogs: a number with − and + (keys or mouse), a cycling choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Counter(Widget, can_focus=True):
    """``− n +``: +/= or right raises, - or left lowers, a click on a sign does the same.

    Args:
        maximum: the highest value.
        step: how much one press changes the value (a bank ratio, for example).
    """

    DEFAULT_CSS = """
    Counter {
        width: 9;
        height: 1;
        color: $text-muted;
        &:focus { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
        &.-nonzero { color: $text; text-style: bold; }
        &:disabled { color: $text-disabled; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign,right", "change(1)", "+1", show=False),
        Binding("minus,left", "change(-1)", "-1", show=False),
    ]

    value: reactive[int] = reactive(0)

    class Changed(Message):
        """The value changed."""

        def __init__(self, counter: Counter) -> None:
            super().__init__()
            self.counter = counter

        @property
        def control(self) -> Counter:
            """The counter that changed (for ``@on`` selectors)."""
            return self.counter

    def __init__(
        self, maximum: int = 99, step: int = 1, *, id: str | None = None, classes: str = ""
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.maximum = maximum
        self.step = step

    def render(self) -> Text:
        """``− n +``."""
        return Text(f" − {self.value:>2} + ", no_wrap=True)

    def watch_value(self, value: int) -> None:
        """Mark a value above zero and tell the screen."""
        self.set_class(value > 0, "-nonzero")
        self.post_message(self.Changed(self))

    def action_change(self, direction: int) -> None:
        """Raise (``direction`` 1) or lower (-1) the value by one step."""
        self.set(self.value + direction * self.step)

    def set(self, value: int) -> None:
        """Set the value, clamped to 0 .. maximum (in whole steps)."""
        top = self.maximum - self.maximum % self.step
        self.value = max(0, min(top, value))

    def on_click(self, event: events.Click) -> None:
        """A click on − lowers, on + raises."""
        event.stop()
        self.screen.set_focus(self)
        if event.x <= 2:
            self.action_change(-1)
        elif event.x >= 5:
            self.action_change(1)


class Cycler(Widget, can_focus=True):
    """``◀ choice ▶``: left/right (or a click on an arrow) move through the choices."""

    DEFAULT_CSS = """
    Cycler {
        width: auto;
        height: 1;
        &:focus { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,plus,space", "cycle(1)", "next", show=False),
        Binding("left,minus", "cycle(-1)", "previous", show=False),
    ]

    index: reactive[int] = reactive(0, layout=True)

    class Changed(Message):
        """The choice changed."""

        def __init__(self, cycler: Cycler) -> None:
            super().__init__()
            self.cycler = cycler

        @property
        def control(self) -> Cycler:
            """The cycler that changed (for ``@on`` selectors)."""
            return self.cycler

    def __init__(self, choices: Sequence[str], index: int = 0, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices = list(choices)
        self.set_reactive(Cycler.index, index)

    def render(self) -> Text:
        """``◀ choice ▶``."""
        return Text(f"◀ {self.choices[self.index]} ▶", no_wrap=True)

    def watch_index(self) -> None:
        """Tell the screen the choice changed."""
        self.post_message(self.Changed(self))

    def action_cycle(self, direction: int) -> None:
        """Move to the next (``direction`` 1) or previous (-1) choice, wrapping around."""
        self.index = (self.index + direction) % len(self.choices)

    def on_click(self, event: events.Click) -> None:
        """A click on ◀ goes back, anywhere else forward."""
        event.stop()
        self.screen.set_focus(self)
        self.action_cycle(-1 if event.x <= 1 else 1)
