"""The parts a position's fields are made of (docs/POSITION.md): how one value is written to a
line and read back (:class:`Codec`), the codecs many fields share, and :class:`ProgressFields`,
which a game's rules module names (:attr:`~hexlan.engine.variants.base.Variant.position_fields`)
to say how its own progress is written. :mod:`hexlan.engine.position` writes and reads the
engine's fields and every game's through these, so it names no game; a game's module imports
this one, never :mod:`hexlan.engine.position`.

A reader raises ``ValueError`` saying what is wrong with the value (``expected 3 seats, not
2``); the position reader adds the line and the field's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Generic, TypeAlias, TypeVar

from hexlan.engine.core import NO_SEAT, RESOURCES, GamePhase, Resource, Seat, Terrain

Json: TypeAlias = Any
"""A value as :func:`json.loads` gives it."""


@dataclass(frozen=True, slots=True)
class Shape:
    """What a state's field may hold: the sizes a reader checks lists against.

    Attributes:
        players: the seats; kinds: the card kinds; faces: the development card faces;
        nodes, paths, hexes: the map's intersections, paths and hexes (sea hexes included);
        phases: the game's phases by the name a position writes;
        cards: the game's card kinds in hand order (its rule set's ``cards``; a position names
            a kind by its name).
    """

    players: int
    kinds: int
    faces: int
    nodes: int
    paths: int
    hexes: int
    phases: Mapping[str, GamePhase]
    cards: tuple[Resource, ...] = RESOURCES


@dataclass(frozen=True, slots=True)
class Codec:
    """How one field is written (``write(value) -> json``) and read (``read(json, shape)``,
    raising ``ValueError`` with what is wrong)."""

    write: Callable[[Any], Json]
    read: Callable[[Json, Shape], Any]


Take: TypeAlias = Callable[[str, Codec], Any]
"""``take(name, codec)``: the value of a position's field ``name`` read by ``codec`` (the field
is used up; a missing or bad one raises the position's error, naming its line)."""


# ---------------------------------------------------------------------------- readers


def read_int(value: Json, what: str = "a whole number") -> int:
    """``value`` as a whole number. Raises ValueError: anything else (a bool too)."""
    if type(value) is not int:
        raise ValueError(f"expected {what}, not {json.dumps(value)}")
    return value


def read_count(value: Json) -> int:
    """``value`` as a count. Raises ValueError: not a whole number, or negative."""
    n = read_int(value, "a count")
    if n < 0:
        raise ValueError(f"a count cannot be negative: {n}")
    return n


def read_bool(value: Json) -> bool:
    """``value`` as true or false. Raises ValueError: anything else."""
    if type(value) is not bool:
        raise ValueError(f"expected true or false, not {json.dumps(value)}")
    return value


def read_list(value: Json, length: int | None = None, what: str = "items") -> list[Json]:
    """``value`` as a list (of ``length`` ``what``, when given). Raises ValueError: not a list,
    or of another length."""
    if not isinstance(value, list):
        raise ValueError(f"expected a list, not {json.dumps(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"expected {length} {what}, not {len(value)}")
    return value


def read_seat(shape: Shape, value: Json, none_ok: bool = True) -> Seat:
    """``value`` as a seat of the game (or -1, nobody, when ``none_ok``). Raises ValueError:
    anything else."""
    n = read_int(value, "a seat")
    if not (0 <= n < shape.players or (none_ok and n == NO_SEAT)):
        raise ValueError(f"{n} is no seat of {shape.players} (nor -1)")
    return n


def read_below(value: Json, limit: int, what: str) -> int:
    """``value`` as an id -1 .. ``limit - 1`` of ``what`` (an intersection, a hex). Raises
    ValueError: anything else."""
    n = read_int(value, what)
    if not -1 <= n < limit:
        raise ValueError(f"{what} {n} is outside -1 .. {limit - 1}")
    return n


def read_tuples(value: Json, shape: Shape) -> list[tuple[int, ...]]:
    """``value`` as a list of tuples of whole numbers (``[[1,2],[3,4]]``)."""
    return [tuple(read_int(x) for x in read_list(t)) for t in read_list(value)]


def per_seat(item: Callable[[Json, Shape], Any]) -> Callable[[Json, Shape], list[Any]]:
    """A reader of a list with one item per seat, each read by ``item``."""
    return lambda v, s: [item(x, s) for x in read_list(v, s.players, "seats")]


def _ints(v: Json, s: Shape) -> list[int]:
    return [read_int(x) for x in read_list(v)]


def _seat_counts(v: Json, s: Shape) -> list[int]:
    return [read_count(x) for x in read_list(v, s.players, "seats")]


def _seat_ints(v: Json, s: Shape) -> list[int]:
    return [read_int(x) for x in read_list(v, s.players, "seats")]


def _seat_list(v: Json, s: Shape) -> list[Seat]:
    return [read_seat(s, x, False) for x in read_list(v)]


def _path_seats(v: Json, s: Shape) -> list[Seat]:
    return [read_seat(s, x) for x in read_list(v, s.paths, "paths")]


def _phase_read(v: Json, s: Shape) -> GamePhase:
    phase = s.phases.get(v) if isinstance(v, str) else None
    if phase is None:
        raise ValueError(
            f"no phase {json.dumps(v)} in this game; its phases: {', '.join(s.phases)}"
        )
    return phase


# ---------------------------------------------------------------------------- writers


def same(value: Any) -> Json:
    """A value written as it is (a number, a bool)."""
    return value


def lists(value: Any) -> Json:
    """A sequence of sequences written as a list of lists."""
    return [list(v) for v in value]


def optional(codec: Codec) -> Codec:
    """``codec`` for a value that may be None (written null)."""
    return Codec(
        lambda v: None if v is None else codec.write(v),
        lambda v, s: None if v is None else codec.read(v, s),
    )


# ---------------------------------------------------------------------------- shared codecs

PHASE: Final = Codec(lambda p: p.name.lower(), _phase_read)
"""A phase, by its name in lower case."""
SEAT: Final = Codec(same, lambda v, s: read_seat(s, v))
"""A seat or -1."""
COUNT: Final = Codec(same, lambda v, s: read_count(v))
INT: Final = Codec(same, lambda v, s: read_int(v))
BOOL: Final = Codec(same, lambda v, s: read_bool(v))
HEX: Final = Codec(same, lambda v, s: read_below(v, s.hexes, "hex"))
"""A hex id or -1."""
NODE: Final = Codec(same, lambda v, s: read_below(v, s.nodes, "intersection"))
"""An intersection id or -1."""
COUNTS: Final = Codec(list, lambda v, s: [read_count(x) for x in read_list(v)])
"""A list of counts of any length."""
INTS: Final = Codec(list, _ints)
"""A list of whole numbers of any length."""
SEAT_COUNTS: Final = Codec(list, _seat_counts)
"""A count per seat."""
SEAT_INTS: Final = Codec(list, _seat_ints)
"""A whole number per seat."""
SEAT_LIST: Final = Codec(list, _seat_list)
"""Seats (not -1) in an order (a queue of seats)."""
SEAT_LISTS: Final = Codec(lists, per_seat(_ints))
"""A list of whole numbers per seat (its pieces' ids)."""
PATH_SEATS: Final = Codec(list, _path_seats)
"""A seat or -1 per path (a piece's owner)."""
TUPLES: Final = Codec(lists, read_tuples)
"""A list of tuples of whole numbers."""
SET: Final = Codec(sorted, lambda v, s: {read_int(x) for x in read_list(v)})
"""A set of whole numbers, written sorted."""


# ---------------------------------------------------------------------------- a game's fields

P = TypeVar("P")
"""A game's progress object (its :class:`~hexlan.engine.variants.base.VariantState`)."""


class ProgressFields(Generic[P]):
    """How a game's progress object (the state's ``variant_state``) is written to position lines
    and read back: the game's rules module names one as its Variant class's
    :attr:`~hexlan.engine.variants.base.Variant.position_fields`.

    Every form holds ``public`` as ``variant.NAME`` lines, a full position ``hidden`` as
    ``hidden.variant.NAME``; NAME is an attribute of the progress object or a dotted path into one
    (``board.merchant``: the ``merchant`` of its ``board``). Together they name every field of the
    progress object (tests/test_position.py checks it). A game with hidden cards of its own
    overrides :meth:`write_view` and :meth:`read_view` for the public and seat forms, and a game
    whose play changes the board (fog revealed, tokens swapped) :meth:`board_in_play`.

    Args:
        public: the codecs of the public fields, by NAME.
        hidden: the codecs of the secrets a full position holds, by NAME.
    """

    def __init__(
        self, public: Mapping[str, Codec], hidden: Mapping[str, Codec] | None = None
    ) -> None:
        self.public: Mapping[str, Codec] = MappingProxyType(dict(public))
        self.hidden: Mapping[str, Codec] = MappingProxyType(dict(hidden or {}))

    def write_view(self, progress: P, seat: Seat | None, lines: dict[str, Json]) -> None:
        """Add to ``lines`` (JSON values by field name) what a public position (``seat`` None)
        or seat ``seat``'s position holds of the progress beyond its public fields: what the
        spectator or the seat knows in place of ``hidden`` (nothing here)."""

    def read_view(self, progress: P, seat: Seat, players: int, take: Take) -> None:
        """Set in ``progress`` (an information state's, of ``seat``: NO_SEAT for a spectator,
        in a game of ``players`` seats) what :meth:`write_view` wrote, each field read by
        ``take``."""

    def board_in_play(self, progress: P, terrains: list[Terrain], tokens: list[int]) -> None:
        """Change the board's terrains and number tokens (by hex id, in place) from those the
        game began on to those of the board in play (nothing here).

        Raises:
            ValueError: the progress names a hex the board does not have.
        """


__all__ = [
    "BOOL",
    "COUNT",
    "COUNTS",
    "HEX",
    "INT",
    "INTS",
    "NODE",
    "PATH_SEATS",
    "PHASE",
    "SEAT",
    "SEAT_COUNTS",
    "SEAT_INTS",
    "SEAT_LIST",
    "SEAT_LISTS",
    "SET",
    "TUPLES",
    "Codec",
    "Json",
    "ProgressFields",
    "Shape",
    "Take",
    "lists",
    "optional",
    "per_seat",
    "read_below",
    "read_bool",
    "read_count",
    "read_int",
    "read_list",
    "read_seat",
    "read_tuples",
    "same",
]
