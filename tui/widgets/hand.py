"""Your hand: resources with your bank ratio, development cards, pieces left, costs; and what a
game adds to them or puts in their place (the Jungle's discoveries, Seafarers' ships, Cities &
Knights' progress cards: :mod:`hexlan.tui.panel_lines`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Final

from rich.console import RenderableType
from rich.text import Text

from hexlan.engine.core import DevCard, Resource
from hexlan.tui.panel_lines import CARDS, COSTS, HAND, PIECES, PRICES
from hexlan.tui.widgets.panel import GamePanel

_CATALOGUE_STYLES: Final = MappingProxyType(
    {
        "LUMBER": "green",
        "BRICK": "red",
        "WOOL": "bright_green",
        "GRAIN": "yellow",
        "ORE": "bright_black",
        "PAPER": "bright_white",
        "CLOTH": "magenta",
        "COIN": "bright_yellow",
    }
)
_DECLARED_STYLES: Final = ("cyan", "bright_magenta", "bright_cyan", "blue")
"""Colours of the kinds a rule set declares, by the kind's index (apart from the catalogue's)."""


class _KindStyles(Mapping[Resource, str]):
    """A kind's colour by its name: a kind the catalogue names (Landnám's grain and wool too,
    wherever they stand) has the catalogue's; a declared kind (timber, iron) one of
    :data:`_DECLARED_STYLES` by its index. Iterates the catalogue."""

    def __getitem__(self, kind: Resource) -> str:
        own = _CATALOGUE_STYLES.get(kind.name)
        return own if own is not None else _DECLARED_STYLES[kind % len(_DECLARED_STYLES)]

    def __iter__(self) -> Iterator[Resource]:
        return iter(Resource)

    def __len__(self) -> int:
        return len(Resource)


RESOURCE_STYLES: Final[Mapping[Resource, str]] = _KindStyles()
"""Card-kind colours, commodities and declared kinds included (8/16-colour names: they read
over any terminal); keyed by the game's kinds (``rules.cards``)."""

BASE_COSTS: Final = "Costs: road LB · settlement LBWG\n       city GGOOO · development card WGO"


def resource_text(resource: Resource, label: str | None = None) -> Text:
    """A resource name in its colour, with its letter bold."""
    name = label or resource.name.lower()
    return Text(name, style=RESOURCE_STYLES[resource])


class HandPanel(GamePanel):
    """The human seat's exact hand, development cards and pieces."""

    def render(self) -> RenderableType:
        """Resources with your bank ratio, development cards (new ones marked), pieces left;
        the costs when there is room."""
        game = self.game
        view = game.view
        seat = game.human_seat
        hand = view.hands[seat]
        wide = self.size.width >= 38
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"Resources {sum(hand)}", style="bold")
        # "(ratio)" where the side panels are narrowed for a map for ships (24 columns)
        text.append("   (bank ratio)\n" if self.size.width >= 26 else "   (ratio)\n", style="dim")
        for r in view.rules.cards:
            text.append(f"{r.letter} ", style="bold " + RESOURCE_STYLES[r])
            text.append_text(resource_text(r, f"{r.name.lower():<7}"))
            text.append(f"{hand[r]:>3}", style="bold" if hand[r] else "dim")
            text.append(f"   {view.ratio(seat, r)}:1", style="dim")
            text.append("\n")
        cards_of = CARDS.of(view.variant)
        if cards_of is not None:  # no development cards: the game's own
            text.append_text(cards_of(view, seat, wide))
            return self._pieces(text, wide)
        cards = view.dev_cards[seat]
        new = view.new_dev_cards[seat]
        held = [(c, cards[c], new[c]) for c in view.rules.dev_faces if cards[c]]
        text.append(f"Development cards {sum(cards)}", style="bold")
        if view.dev_played_this_turn and view.active == seat:
            text.append("  (1 played)", style="dim")
        text.append("\n")
        if not held:
            text.append("  none\n", style="dim")
        for card, count, fresh in held:
            text.append(f"  {card.title} ×{count}")
            if fresh:
                text.append(f"  ({fresh} new)" if card is not DevCard.VICTORY_POINT else "")
            text.append("\n")
        line = HAND.of(view.variant)
        if line is not None:
            text.append_text(line(view, seat, wide))
        return self._pieces(text, wide)

    def _pieces(self, text: Text, wide: bool) -> Text:
        """The pieces left and, where there is room, the costs."""
        view = self.game.view
        seat = self.game.human_seat
        roads, settlements, cities = view.pieces_left(seat)
        text.append("Pieces left\n", style="bold")
        text.append(f"roads {roads}  settl {settlements}  cities {cities}")
        pieces = PIECES.of(view.variant)
        if pieces is not None:
            text.append_text(pieces(view, seat, wide))
        if wide:
            prices = PRICES.of(view.variant)
            if prices is None:
                text.append(f"\n{BASE_COSTS}", style="dim")
            else:
                text.append_text(prices(view, seat, wide))
            more = COSTS.of(view.variant)
            if more is not None:
                text.append_text(more(view, seat, wide))
        return text
