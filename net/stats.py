"""Fairness statistics: observed chance outcomes against their expected distribution.

`hexlan verify --stats` counts the dice totals (and, from audited logs, the development cards
drawn) over the games it checked and compares each count with what fair chance predicts, with
Pearson's chi-square goodness-of-fit test. Everything here is pure (no I/O) and uses only the
standard library.

>>> sample = dice_distribution([7, 7, 6, 8, 2, 12, 5, 9, 7, 10, 4, 11])
>>> sample.total, sample.dof
(12, 10)
>>> round(sample.p_value, 2)
0.91
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hexlan.engine.core import DevCard, DevelopmentCard
from hexlan.engine.gamespec import DieSpec
from hexlan.engine.registry import dev_card

DICE_TOTALS: Final = tuple(range(2, 13))
"""The totals two dice can show, in table order."""

SMALL_EXPECTED: Final = 5.0
"""Below this expected count in some category, the chi-square p-value is only approximate."""


def chi_square_sf(statistic: float, dof: int) -> float:
    """The probability that a chi-square variable with ``dof`` degrees of freedom is at least
    ``statistic`` (the upper tail, i.e. the p-value of a chi-square test).

    Exact for integer ``dof`` (no series truncated): it is the regularized upper incomplete gamma
    function Q(dof/2, statistic/2). With y = statistic/2, an even ``dof`` = 2m gives the finite
    sum e^-y · Σ_{i<m} y^i/i!; an odd ``dof`` starts from Q(1/2, y) = erfc(√y) and climbs with
    Q(a+1, y) = Q(a, y) + y^a e^-y / Γ(a+1). Every term is computed through its logarithm, so
    large statistics and many degrees of freedom neither overflow nor lose the small terms.

    Args:
        statistic: the chi-square statistic, >= 0 (``math.inf`` gives 0.0).
        dof: the degrees of freedom, an integer >= 1.

    Returns:
        A probability in [0, 1]; 1.0 for a statistic of 0.

    Raises:
        ValueError: ``dof`` below 1, or a negative or NaN statistic.

    >>> round(chi_square_sf(3.841, 1), 4)
    0.05
    >>> round(chi_square_sf(5.991, 2), 4)
    0.05
    >>> round(chi_square_sf(18.307, 10), 4)
    0.05
    >>> round(chi_square_sf(23.209, 10), 4)
    0.01
    >>> chi_square_sf(0.0, 4)
    1.0
    """
    if dof < 1:
        raise ValueError(f"a chi-square distribution needs at least 1 degree of freedom, not {dof}")
    if math.isnan(statistic) or statistic < 0:
        raise ValueError(f"a chi-square statistic is a number >= 0, not {statistic}")
    if statistic == 0:
        return 1.0
    if math.isinf(statistic):
        return 0.0
    y = statistic / 2
    log_y = math.log(y)
    if dof % 2 == 0:
        terms = (math.exp(i * log_y - y - math.lgamma(i + 1)) for i in range(dof // 2))
        tail = math.fsum(terms)
    else:
        terms = (math.exp((j + 0.5) * log_y - y - math.lgamma(j + 1.5)) for j in range(dof // 2))
        tail = math.erfc(math.sqrt(y)) + math.fsum(terms)
    return min(tail, 1.0)


@dataclass(frozen=True)
class Distribution:
    """Counts of a chance outcome's categories against the counts fair chance expects.

    Attributes:
        name: what was counted, in words (e.g. "dice totals").
        categories: each category's label, in table order.
        observed: how many times each category occurred (one count per category).
        expected: the expected count of each category under the fair hypothesis (floats, one
            per category, summing to the observed total; 0 for a category that cannot occur).

    Raises:
        ValueError: (on construction) lengths that differ, a negative count, expected counts
            that do not sum to the observed total, or an observed category whose expected count
            is 0 (a sample the hypothesis forbids outright).
    """

    name: str
    categories: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]

    def __post_init__(self) -> None:
        if not len(self.categories) == len(self.observed) == len(self.expected):
            raise ValueError(
                f"{self.name}: {len(self.categories)} categories, {len(self.observed)} observed "
                f"and {len(self.expected)} expected counts"
            )
        if any(o < 0 for o in self.observed) or any(e < 0 for e in self.expected):
            raise ValueError(f"{self.name}: counts cannot be negative")
        if not math.isclose(math.fsum(self.expected), self.total, rel_tol=1e-9, abs_tol=1e-9):
            raise ValueError(
                f"{self.name}: the expected counts sum to {math.fsum(self.expected)}, "
                f"not to the {self.total} observed"
            )
        for label, o, e in zip(self.categories, self.observed, self.expected, strict=True):
            if o and not e:
                raise ValueError(f"{self.name}: {label} occurred {o} times but cannot occur")

    @property
    def total(self) -> int:
        """How many outcomes were counted."""
        return sum(self.observed)

    @property
    def statistic(self) -> float:
        """Pearson's chi-square: Σ (observed - expected)² / expected over the categories that
        can occur (0.0 for an empty sample)."""
        return math.fsum(
            (o - e) ** 2 / e for o, e in zip(self.observed, self.expected, strict=True) if e > 0
        )

    @property
    def dof(self) -> int:
        """Degrees of freedom: the categories that can occur, minus 1 (0 for an empty sample,
        where there is nothing to test)."""
        return max(sum(1 for e in self.expected if e > 0) - 1, 0)

    @property
    def p_value(self) -> float | None:
        """The chance that fair outcomes deviate at least this much from the expected counts
        (the chi-square test's upper tail), or None when there is nothing to test (``dof`` 0)."""
        return chi_square_sf(self.statistic, self.dof) if self.dof else None

    @property
    def approximate(self) -> bool:
        """Whether some category's expected count (of those that can occur) is below
        :data:`SMALL_EXPECTED`, where the chi-square approximation is rough."""
        return any(0 < e < SMALL_EXPECTED for e in self.expected)

    def lines(self) -> list[str]:
        """The table in words: a heading, one row per category (label, observed, expected),
        then the test's result and, when the sample is small, a note that it is approximate."""
        lines = [f"{self.name} (n = {self.total}):"]
        p = self.p_value
        if p is None:
            return [*lines, "  nothing to test"]
        width = max(len("category"), *(len(label) for label in self.categories))
        lines.append(f"  {'category':<{width}}  {'observed':>8}  {'expected':>8}")
        lines.extend(
            f"  {label:<{width}}  {o:>8}  {e:>8.2f}"
            for label, o, e in zip(self.categories, self.observed, self.expected, strict=True)
        )
        lines.append(
            f"  chi-square {self.statistic:.2f} on {self.dof} degree{'s' if self.dof > 1 else ''}"
            f" of freedom, p = {p:.3g}"
        )
        if self.approximate:
            lines.append(
                f"  note: some expected counts are below {SMALL_EXPECTED:g}; "
                "the p-value is approximate"
            )
        return lines

    def chart_lines(self, width: int = 40) -> list[str]:
        """The counts as a text bar chart, one row per category: the label, a bar of
        :func:`bar` cells (``┆`` marks the expected count where the bar falls short), the
        observed and the expected counts; no row for an empty sample.

        >>> coin = Distribution("coin", ("heads", "tails"), (3, 1), (2.0, 2.0))
        >>> for row in coin.chart_lines(width=6):
        ...     print(row)
        coin against the expected (┆):
          heads ██████   3  exp 2.0
          tails ██  ┆    1  exp 2.0
        """
        if not self.total:
            return []
        peak = max([*self.observed, *self.expected, 1])
        label = max(len(c) for c in self.categories)
        rows = [f"{self.name} against the expected (┆):"]
        for category, o, e in zip(self.categories, self.observed, self.expected, strict=True):
            rows.append(f"  {category:>{label}} {bar(o, e, peak, width)} {o:>3}  exp {e:.1f}")
        return rows

    def to_json(self) -> dict[str, Any]:
        """The distribution and its test as plain data (``p_value`` None: nothing to test)."""
        return {
            "name": self.name,
            "categories": list(self.categories),
            "observed": list(self.observed),
            "expected": list(self.expected),
            "total": self.total,
            "statistic": self.statistic,
            "dof": self.dof,
            "p_value": self.p_value,
            "approximate": self.approximate,
        }


def bar(observed: int, expected: float, peak: float, width: int) -> str:
    """One row of a bar chart: ``width`` cells, ``observed`` filled in (``█``) at the scale
    where ``peak`` fills them all, and ``┆`` at the expected count where the bar falls short of
    it (the counts are printed beside the bar, so a longer bar needs no mark).

    Args:
        observed: the count; expected: the count fair chance predicts (same unit).
        peak: the count that fills the row (at least every count charted), > 0.
        width: cells, >= 1.

    >>> bar(2, 3.0, 4, 8) + "|"
    '████  ┆ |'
    """
    scale = width / peak
    filled = min(round(observed * scale), width)
    cells = ["█" if x < filled else " " for x in range(width)]
    if observed < expected:
        cells[min(max(round(expected * scale), filled), width - 1)] = "┆"
    return "".join(cells)


def dice_distribution(totals: Iterable[int]) -> Distribution:
    """The dice totals rolled against two fair dice (total t expected n·ways(t)/36 times, where
    ways(t) = 6 - |t - 7| of the 36 equally likely outcomes show t).

    Args:
        totals: each roll's total, 2 .. 12.

    Raises:
        ValueError: a total two dice cannot show.

    >>> dice_distribution([7] * 6).observed[DICE_TOTALS.index(7)]
    6
    """
    counts = dict.fromkeys(DICE_TOTALS, 0)
    for total in totals:
        if total not in counts:
            raise ValueError(f"two dice cannot total {total}")
        counts[total] += 1
    n = sum(counts.values())
    return Distribution(
        "dice totals",
        tuple(str(t) for t in DICE_TOTALS),
        tuple(counts.values()),
        tuple(n * (6 - abs(t - 7)) / 36 for t in DICE_TOTALS),
    )


def die_distribution(die: DieSpec, outcomes: Iterable[int]) -> Distribution:
    """A game's own die's outcomes against a fair die (:class:`~hexlan.engine.gamespec.DieSpec`:
    Cities & Knights' event die shows the ship on three of its six faces, each gate on one, seed
    002 «Города и рыцари»).

    Args:
        die: the die, its outcomes and their chances.
        outcomes: each roll's outcome, an index into ``die.outcomes``.

    Raises:
        ValueError: an outcome the die does not have.
    """
    counts = [0] * len(die.outcomes)
    for outcome in outcomes:
        if not 0 <= outcome < len(counts):
            raise ValueError(f"the {die.name} has no outcome {outcome}")
        counts[outcome] += 1
    n = sum(counts)
    return Distribution(die.name, die.outcomes, tuple(counts), tuple(n * p for p in die.chances))


def draw_distribution(
    faces: Iterable[DevelopmentCard | int],
    deck: Mapping[DevelopmentCard, int] | Sequence[int],
) -> Distribution:
    """The development cards drawn against the deck's composition.

    In a uniformly shuffled deck every position holds each card type with probability
    count/deck size, so a type is expected draws · count/size times, however many draws each
    game made. Draws of one game come from one deck without replacement, so they are not quite
    independent: their counts vary less than the test assumes, and the p-value errs high (the
    test is conservative) when games draw a good part of their deck.

    Args:
        faces: each draw's card type (a registered face or its code,
            :func:`~hexlan.engine.registry.dev_card`).
        deck: the full deck's count of each type, by face (the base game's five and any other
            face named) or as a sequence in face-code order, one count per face of the game
            (e.g. ``load_ruleset().development_deck``).

    Raises:
        ValueError: a face that is no card type, a deck shorter than the base game's five or
            with no card, or a drawn type the deck does not hold.

    >>> draws = draw_distribution([DevCard.KNIGHT] * 4, (14, 5, 2, 2, 2))
    >>> draws.expected[DevCard.KNIGHT], draws.observed[DevCard.KNIGHT]
    (2.24, 4)
    """
    if isinstance(deck, Mapping):
        last = max((int(card) for card in deck), default=0)
        cards = tuple(dev_card(c) for c in range(max(len(DevCard), last + 1)))
        counts = tuple(deck.get(card, 0) for card in cards)
    else:
        counts = tuple(deck)
        if len(counts) < len(DevCard):
            raise ValueError(f"a deck gives {len(DevCard)} counts or more (one per type): {counts}")
        cards = tuple(dev_card(c) for c in range(len(counts)))
    size = sum(counts)
    if size <= 0:
        raise ValueError(f"the deck {counts} holds no card")
    observed = [0] * len(counts)
    for face in faces:
        card = dev_card(int(face))
        if card >= len(counts):
            raise ValueError(f"a draw of {card.title}, which the deck does not hold")
        observed[card] += 1
    n = sum(observed)
    return Distribution(
        "development-card draws",
        tuple(card.title for card in cards),
        tuple(observed),
        tuple(n * count / size for count in counts),
    )


def combined(parts: Sequence[Distribution]) -> Distribution:
    """Several samples of one chance outcome, each counted against its own expectation, as one
    distribution: observed and expected counts added category by category (e.g. the draws of
    games whose development decks differ: 25 cards in the base game, 34 in the 5-6 player game).

    Raises:
        ValueError: no part, or parts with other names or categories.

    >>> base = draw_distribution([DevCard.KNIGHT], (14, 5, 2, 2, 2))
    >>> six = draw_distribution([DevCard.KNIGHT], (20, 5, 3, 3, 3))
    >>> round(combined([base, six]).expected[DevCard.KNIGHT], 4)
    1.1482
    """
    if not parts:
        raise ValueError("nothing to combine")
    first = parts[0]
    if any(p.name != first.name or p.categories != first.categories for p in parts):
        raise ValueError("only counts of one outcome's categories can be combined")
    return Distribution(
        first.name,
        first.categories,
        tuple(sum(column) for column in zip(*(p.observed for p in parts), strict=True)),
        tuple(math.fsum(column) for column in zip(*(p.expected for p in parts), strict=True)),
    )


__all__ = [
    "DICE_TOTALS",
    "SMALL_EXPECTED",
    "Distribution",
    "bar",
    "chi_square_sf",
    "combined",
    "dice_distribution",
    "die_distribution",
    "draw_distribution",
]
