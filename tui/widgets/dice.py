"""Dice statistics: rolls so far against the distribution two fair dice give."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rich.text import Text

EXPECTED: Final[Mapping[int, float]] = MappingProxyType(
    {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}
)
"""Probability of each total of two dice."""


def histogram(rolls: list[int], width: int = 40) -> Text:
    """Bars of counts per total 2..12; ``┆`` marks the expected count where the bar falls short.

    >>> print(histogram([7, 7, 6], width=10).plain.splitlines()[5])
     7 ██████████   2  exp 0.5
    """
    counts = Counter(rolls)
    n = len(rolls)
    text = Text(no_wrap=True)
    peak = max([*counts.values(), *(n * p for p in EXPECTED.values()), 1])
    scale = width / peak
    for total in range(2, 13):
        got = counts[total]
        expected = n * EXPECTED[total]
        bar = round(got * scale)
        mark = min(round(expected * scale), width - 1)
        cells = ["█" if x < bar else " " for x in range(width)]
        if n and mark >= bar:
            cells[mark] = "┆"
        style = "red" if total == 7 else ("bold" if total in (6, 8) else "")
        text.append(f"{total:>2} ", style=style or "bold")
        text.append("".join(cells), style=style)
        text.append(f" {got:>3}  exp {expected:.1f}\n", style="" if got else "dim")
    text.append(f"{n} rolls", style="bold")
    if n:
        text.append(f", mean {sum(rolls) / n:.2f} (expected 7.00)", style="dim")
    text.append(".  ┆ marks the expected count.", style="dim")
    return text
