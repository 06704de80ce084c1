"""Dice statistics: rolls so far against the distribution two fair dice give, as a bar chart
(the bars are :func:`hexlan.net.stats.bar`, the ones `hexlan verify --stats` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from hexlan.net.client import GameReader
from hexlan.net.stats import DICE_TOTALS, bar, dice_distribution


def histogram(rolls: Sequence[int], width: int = 40) -> Text:
    """Bars of counts per total 2..12; ``┆`` marks the expected count where the bar falls short.

    >>> print(histogram([7, 7, 6], width=10).plain.splitlines()[5])
     7 ██████████   2  exp 0.5
    """
    dist = dice_distribution(rolls)
    n = dist.total
    text = Text(no_wrap=True)
    peak = max([*dist.observed, *dist.expected, 1])
    for total, got, expected in zip(DICE_TOTALS, dist.observed, dist.expected, strict=True):
        style = "red" if total == 7 else ("bold" if total in (6, 8) else "")
        text.append(f"{total:>2} ", style=style or "bold")
        text.append(bar(got, expected if n else 0.0, peak, width), style=style)
        text.append(f" {got:>3}  exp {expected:.1f}\n", style="" if got else "dim")
    text.append(f"{n} rolls", style="bold")
    if n:
        text.append(f", mean {sum(rolls) / n:.2f} (expected 7.00)", style="dim")
        p = dist.p_value
        if p is not None and width >= 30:
            text.append(f", chi-square p = {p:.2g}", style="dim")
    text.append(".  ┆ marks the expected count.", style="dim")
    return text


class DiceChart(Static):
    """The game's rolls so far as a :func:`histogram` that fits the widget's width (a side
    panel of 28 columns at 80x24 still gets bars of 12 cells).

    Args:
        game: what to chart (its ``rolls``).
        **kwargs: passed to :class:`~textual.widgets.Static`.
    """

    DEFAULT_CSS = """
    DiceChart {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(self, game: GameReader, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game

    def show(self) -> None:
        """Redraw from the game's rolls."""
        width = max(4, min(40, self.size.width - 2 - 15))
        self.update(histogram(self.game.rolls, width))

    def on_resize(self) -> None:
        """Redraw for the new width."""
        self.show()
