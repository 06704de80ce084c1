"""The players panel: every seat's public standing (../shared/UI.md "always visible"), with what
a game adds under it or puts in its place (Seafarers' ships and island bonus points, Cities &
Knights' progress cards and tracks: :mod:`hexlan.tui.panel_lines`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from hexlan.tui.palette import seat_mark, seat_style
from hexlan.tui.panel_lines import COLUMNS, STANDING
from hexlan.tui.widgets.panel import GamePanel

SHORT_AWARDS_FROM: Final = 4
"""With more seats than this, a narrow panel names both award holders on one line."""
SHORT_NAME: Final = 7
"""A holder's name is cut to this many characters on that line."""


class PlayersPanel(GamePanel):
    """Per seat: public VP, cards in hand, development cards, knights played, road length; then
    who holds Longest Road and Largest Army (Longest Trade Route in Seafarers, where two lines
    give each seat's ships left and island bonus points). Column titles shorten where room is
    short, and with five or six seats a narrow panel names the award holders on one line."""

    def _seat_label(self, seat: int) -> Text:
        game = self.game
        view = game.view
        name = game.names[seat]
        if seat == game.human_seat and name.lower() != "you":
            name += " (you)"
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("▶" if seat == view.active and not view.is_over else " ", style="bold")
        text.append(f"{seat_mark(seat)} {name}", style=seat_style(seat) + Style(bold=True))
        return text

    def _vp(self, seat: int) -> int:
        view = self.game.view
        return view.victory_points(seat) if seat == self.game.human_seat else view.public_vp[seat]

    def award(self, title: str, holder: int, amount: str, *, short: bool = False) -> Text:
        """``Longest Road: Blue (6)``; ``short``: ``Road: b Blue 6``, the name cut to fit.

        Args:
            title: the award's name.
            holder: its holder's seat, or negative: nobody.
            amount: what the holder has of it, in words ("6").
            short: the narrow form.
        """
        text = Text(f"{title}: ", style="dim", no_wrap=True, overflow="ellipsis")
        if holder < 0:
            text.append("nobody", style="dim")
            return text
        name = "you" if holder == self.game.human_seat else self.game.names[holder]
        style = seat_style(holder) + Style(bold=True)
        if short:
            text.append(f"{name[:SHORT_NAME]} ", style=style)
            text.append(amount)
        else:
            text.append(name, style=style)
            text.append(f" ({amount})")
        return text

    def render(self) -> RenderableType:
        """The table of seats (the active one marked ▶), the award holders, then who watches
        (``watching: Eve``, when anyone does)."""
        players = self._standings()
        watching = self.game.watching()
        if not watching:
            return players
        line = Text("watching: ", style="dim", no_wrap=True, overflow="ellipsis")
        line.append(", ".join(watching))
        return Group(players, line)

    def _standings(self) -> RenderableType:
        game = self.game
        view = game.view
        wide = self.size.width >= 38
        columns = COLUMNS.of(view.variant)  # a game's own cards and knights
        dev = ("dev", "dev") if columns is None else columns.head
        heads = (
            ("VP", "cards", dev[0], "knights", "road")
            if wide
            else ("VP", "crd", dev[1], "kn", "rd")
        )
        table = Table(box=None, padding=(0, 0, 0, 1), expand=True, show_edge=False, pad_edge=False)
        table.add_column("", ratio=1, no_wrap=True, overflow="ellipsis")
        for title in heads:
            table.add_column(title, justify="right", no_wrap=True, header_style="dim")
        for seat in range(game.players):
            active = seat == view.active
            cards, knights = (
                (str(view.dev_count[seat]), str(view.knights[seat]))
                if columns is None
                else columns.cells(view, seat)
            )
            table.add_row(
                self._seat_label(seat),
                Text(str(self._vp(seat)), style="bold"),
                str(view.hand_size[seat]),
                cards,
                knights,
                str(view.road_length[seat]),
                style=None if active else Style(dim=False),
            )
        lr, la = view.longest_road_holder, view.largest_army_holder
        road_amount = f"{view.road_length[lr]}" if lr >= 0 else ""
        army_amount = f"{view.knights[la]}" if la >= 0 else ""
        if not wide and game.players > SHORT_AWARDS_FROM:  # one line, so six seats fit 80x24
            awards = self.award("Road", lr, road_amount, short=True)
            awards.append(" · ", style="dim")
            awards.append_text(self.award("Army", la, army_amount, short=True))
            return Group(table, awards)
        standing = STANDING.of(view.variant)
        if standing is not None:
            return Group(table, *standing(self, wide))
        road = self.award("Longest Road", lr, road_amount)
        army = self.award("Largest Army", la, army_amount)
        return Group(table, road, army)

    def per_seat(self, title: str, short: str, values: Sequence[object], wide: bool) -> Text:
        """One line of a value per seat, each seat by its mark in its colour: ``title`` where
        ``wide``, else ``short``."""
        text = Text(f"{title}:" if wide else short, style="dim", no_wrap=True)
        for seat, value in enumerate(values):
            if wide and seat:
                text.append(" ·", style="dim")
            text.append(f" {seat_mark(seat)}", style=seat_style(seat) + Style(bold=True))
            text.append(f" {value}" if wide else f"{value}")
        return text
