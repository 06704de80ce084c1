"""Seat colours, marks and names for the panels, the log and the dialogs: the board's palette
(tui/board.py), so every part of the screen shows a seat the same way (../shared/UI.md).

Each seat has an Okabe-Ito colour and a letter mark (its settlements on the board are that letter,
its cities the upper case); panels show the mark beside the name so seats read apart without
colour too.
"""

from __future__ import annotations

from typing import Final

from hexlan.tui.board import SEAT_COLOURS, seat_mark, seat_style

SEAT_NAMES: Final = ("Orange", "Blue", "Green", "Purple", "Red", "Cobalt")
"""Each seat's colour in one word, all different ("Orange", "Blue", ..., "Red" for vermilion and
"Cobalt" for the sixth seat's darker blue): bots are named after their colour."""

__all__ = ["SEAT_COLOURS", "SEAT_NAMES", "seat_mark", "seat_style"]
