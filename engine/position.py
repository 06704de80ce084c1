"""Positions as text, as FEN is for chess (../shared/ARCHITECTURE.md "Positions as text").

:func:`to_position` writes a game state as a short text and :func:`from_position` reads it back,
for every game of :data:`~hexlan.engine.ruleset.GAMES`: tests pose a position with one, and a bug
report carries one. docs/POSITION.md describes the format field by field; in short::

    hexlan-position 1 base full
    active 2
    bank [17,16,18,19,19]
    board {"harbours":[[null,0],...],"terrains":"...","tokens":[...]}
    ...
    hidden.hands [[1,0,0,1,0],[0,1,0,0,0],[1,2,0,0,0]]

The first line names the format, its version, the game and the form; every other line is one
field, ``NAME VALUE``: the name, one space, the value as compact JSON (integers, booleans, null,
strings, lists; no floats), the lines sorted by name. One position has one text: a field is
written whether or not it holds its starting value, so nothing is left to defaults.

Three forms:

- ``full``: every secret (hands, development cards, the deck's counts, a game's own hidden
  cards). It loads as a :class:`~hexlan.engine.state.GameState` equal to the one written: the
  same full and public hashes, legal actions and future.
- ``public``: what a spectator knows; hands as their sizes (``hand_size``), the development
  cards nobody has seen played as one pool (``unseen.deck``). It loads as the
  :class:`~hexlan.engine.info.InformationState` of a third party
  (:data:`~hexlan.engine.core.NO_SEAT`) with the same public hash.
- ``seat S``: the public position and seat ``S``'s own cards. It loads as seat ``S``'s
  information state: the same public hash, its own hand exact, its legal actions those of the
  full game.

A position holds the state, not its history, so a public or seat position loads with what
that history taught the seat about the others' hands forgotten: each opponent may hold any
hand of its size that the cards out of the bank allow (docs/POSITION.md "What a view forgets").

The engine keeps every hidden stack (the development deck, a progress deck) as counts per
face, never in an order: a card's draw is a chance outcome, and the order of a real game's
shuffled deck is the network's (the mental-poker deck in net/), so a full position gives the
counts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, TypeAlias

from hexlan.engine import actions as A
from hexlan.engine.board import Board
from hexlan.engine.core import (
    NO_SEAT,
    BuildPhase,
    EngineError,
    GamePhase,
    Hand,
    Phase,
    Resource,
    Seat,
    Terrain,
    as_hand,
)
from hexlan.engine.info import InformationState, _Group
from hexlan.engine.options import GameOptions
from hexlan.engine.registry import action_from_list
from hexlan.engine.ruleset import GAMES, load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights.progress import Knight, Progress, Retreat
from hexlan.engine.variants.pirate_islands import FleetState
from hexlan.engine.variants.seafarers import SeaState

MAGIC: Final = "hexlan-position"
"""The first word of every position text."""
VERSION: Final = 1
"""The format's version, the header's second word."""
FULL: Final = "full"
PUBLIC: Final = "public"
SEAT: Final = "seat"
MAX_VIEW_HANDS: Final = 200_000
"""The most hands one opponent may be deemed to hold when a public or seat position is loaded
as an information state (every hand of its size the cards out of the bank allow)."""


class PositionError(EngineError, ValueError):
    """A position text that cannot be read (or a state that cannot be written in the form
    asked): the message says what is wrong and where, e.g. ``line 4 (hidden.hands): seat 1's
    hand has 4 counts, the base game's hands have 5``."""


Json: TypeAlias = Any
"""A value as :func:`json.loads` gives it."""


# ---------------------------------------------------------------------------- value codecs


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a state's field may hold: the sizes a reader checks lists against."""

    players: int
    kinds: int
    faces: int
    nodes: int
    paths: int
    hexes: int
    phases: Mapping[str, GamePhase]


@dataclass(frozen=True, slots=True)
class _Codec:
    """How one field is written (``write(value) -> json``) and read (``read(json, shape)``,
    raising ``ValueError`` with what is wrong)."""

    write: Callable[[Any], Json]
    read: Callable[[Json, _Shape], Any]


def _int(value: Json, what: str = "a whole number") -> int:
    if type(value) is not int:
        raise ValueError(f"expected {what}, not {json.dumps(value)}")
    return value


def _count(value: Json) -> int:
    n = _int(value, "a count")
    if n < 0:
        raise ValueError(f"a count cannot be negative: {n}")
    return n


def _bool(value: Json) -> bool:
    if type(value) is not bool:
        raise ValueError(f"expected true or false, not {json.dumps(value)}")
    return value


def _list(value: Json, length: int | None = None, what: str = "items") -> list[Json]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, not {json.dumps(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"expected {length} {what}, not {len(value)}")
    return value


def _seat(shape: _Shape, value: Json, none_ok: bool = True) -> Seat:
    n = _int(value, "a seat")
    if not (0 <= n < shape.players or (none_ok and n == NO_SEAT)):
        raise ValueError(f"{n} is no seat of {shape.players} (nor -1)")
    return n


def _below(value: Json, limit: int, what: str) -> int:
    n = _int(value, what)
    if not -1 <= n < limit:
        raise ValueError(f"{what} {n} is outside -1 .. {limit - 1}")
    return n


def _same(value: Any) -> Json:
    return value


def _lists(value: Any) -> Json:
    return [list(v) for v in value]


def _c(write: Callable[[Any], Json], read: Callable[[Json, _Shape], Any]) -> _Codec:
    return _Codec(write, read)


def _per_seat(item: Callable[[Json, _Shape], Any]) -> Callable[[Json, _Shape], list[Any]]:
    return lambda v, s: [item(x, s) for x in _list(v, s.players, "seats")]


def _seat_counts(v: Json, s: _Shape) -> list[int]:
    return [_count(x) for x in _list(v, s.players, "seats")]


def _seat_ints(v: Json, s: _Shape) -> list[int]:
    return [_int(x) for x in _list(v, s.players, "seats")]


def _seat_list(v: Json, s: _Shape) -> list[Seat]:
    return [_seat(s, x, False) for x in _list(v)]


def _ints(v: Json, s: _Shape) -> list[int]:
    return [_int(x) for x in _list(v)]


def _hand(v: Json, s: _Shape) -> list[int]:
    return [_count(x) for x in _list(v, s.kinds, "counts (one per card kind)")]


def _faces(v: Json, s: _Shape) -> list[int]:
    return [_count(x) for x in _list(v, s.faces, "counts (one per development card face)")]


def _phase_write(value: GamePhase) -> str:
    return value.name.lower()


def _phase_read(v: Json, s: _Shape) -> GamePhase:
    phase = s.phases.get(v) if isinstance(v, str) else None
    if phase is None:
        raise ValueError(
            f"no phase {json.dumps(v)} in this game; its phases: {', '.join(s.phases)}"
        )
    return phase


def _resource_read(v: Json, s: _Shape) -> Resource:
    names = [r.name.lower() for r in Resource][: s.kinds]
    if v not in names:
        raise ValueError(f"expected a card kind ({', '.join(names)}), not {json.dumps(v)}")
    return Resource(names.index(v))


def _optional(codec: _Codec) -> _Codec:
    return _Codec(
        lambda v: None if v is None else codec.write(v),
        lambda v, s: None if v is None else codec.read(v, s),
    )


def _action_read(*kinds: type[A.Action]) -> Callable[[Json, _Shape], Any]:
    def read(v: Json, s: _Shape) -> Any:
        try:
            action = action_from_list(v)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        if not isinstance(action, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ValueError(f"expected {names}, not {json.dumps(v)}")
        return action

    return read


def _answers_read(v: Json, s: _Shape) -> dict[Seat, A.Action]:
    answers: dict[Seat, A.Action] = {}
    for item in _list(v):
        seat, answer = _list(item, 2, "items (seat, answer)")
        answers[_seat(s, seat, False)] = _action_read(A.AnswerTrade, A.CounterOffer)(answer, s)
    return answers


def _nodes_set_write(value: list[bool]) -> Json:
    return [n for n, b in enumerate(value) if b]


def _nodes_set_read(v: Json, s: _Shape) -> list[bool]:
    flags = [False] * s.nodes
    for n in _list(v):
        flags[_below(n, s.nodes, "intersection")] = True
    return flags


def _dice_read(v: Json, s: _Shape) -> A.Dice:
    first, second = (_int(x) for x in _list(v, 2, "dice"))
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise ValueError(f"dice are 1 .. 6, not {v}")
    return A.Dice(first, second)


_PHASE: Final = _c(_phase_write, _phase_read)
_SEAT: Final = _c(_same, lambda v, s: _seat(s, v))
_COUNT: Final = _c(_same, lambda v, s: _count(v))
_INT: Final = _c(_same, lambda v, s: _int(v))
_BOOL: Final = _c(_same, lambda v, s: _bool(v))
_SEAT_COUNTS: Final = _c(list, _seat_counts)
_SEAT_INTS: Final = _c(list, _seat_ints)
_SEAT_LIST: Final = _c(list, _seat_list)
_INTS: Final = _c(list, _ints)
_SEAT_LISTS: Final = _c(_lists, _per_seat(_ints))
_HANDS: Final = _c(_lists, _per_seat(_hand))
_DEV_CARDS: Final = _c(_lists, _per_seat(_faces))

CORE_FIELDS: Final[Mapping[str, _Codec]] = {
    "active": _SEAT,
    "bank": _c(list, _hand),
    "blocked": _c(_nodes_set_write, _nodes_set_read),
    "cities": _SEAT_LISTS,
    "dev_count": _SEAT_COUNTS,
    "dev_played_this_turn": _BOOL,
    "dice": _c(
        lambda d: None if d is None else [d.first, d.second],
        lambda v, s: None if v is None else _dice_read(v, s),
    ),
    "discard_after_robber": _BOOL,
    "discards": _SEAT_COUNTS,
    "discoveries": _SEAT_INTS,
    "free_roads": _COUNT,
    "generic_harbour": _c(list, _per_seat(lambda v, s: _bool(v))),
    "gold_points": _SEAT_INTS,
    "hand_size": _SEAT_COUNTS,
    "knights": _SEAT_COUNTS,
    "largest_army_holder": _SEAT,
    "last_settlement": _c(_same, lambda v, s: _below(v, s.nodes, "intersection")),
    "longest_road_holder": _SEAT,
    "monopoly": _optional(_c(lambda r: r.name.lower(), _resource_read)),
    "monopoly_cap": _optional(_COUNT),
    "new_dev_count": _SEAT_COUNTS,
    "node_level": _c(list, lambda v, s: [_count(x) for x in _list(v, s.nodes, "intersections")]),
    "node_owner": _c(list, lambda v, s: [_seat(s, x) for x in _list(v, s.nodes, "intersections")]),
    "path_owner": _c(list, lambda v, s: [_seat(s, x) for x in _list(v, s.paths, "paths")]),
    "phase": _PHASE,
    "public_vp": _SEAT_INTS,
    "ratios": _c(_lists, _per_seat(_hand)),
    "revealed_vp_cards": _SEAT_COUNTS,
    "road_building_resume": _PHASE,
    "road_length": _SEAT_COUNTS,
    "roads": _SEAT_LISTS,
    "robber": _c(_same, lambda v, s: _below(v, s.hexes, "hex")),
    "robber_resume": _PHASE,
    "roll_pending": _BOOL,
    "settlements": _SEAT_LISTS,
    "setup_order": _SEAT_LIST,
    "setup_step": _COUNT,
    "special_from": _SEAT,
    "start_seat": _SEAT,
    "trade": _c(
        lambda t: None if t is None else A.action_to_list(t),
        lambda v, s: None if v is None else _action_read(A.OfferTrade)(v, s),
    ),
    "trade_answers": _c(
        lambda d: [[seat, A.action_to_list(a)] for seat, a in sorted(d.items())], _answers_read
    ),
    "trade_pending": _SEAT_LIST,
    "turn": _COUNT,
    "variant_due": _BOOL,
    "variant_vp": _SEAT_INTS,
    "victim": _SEAT,
    "winner": _SEAT,
}
"""The :class:`GameState` attributes a position holds as they are (every form), by name."""

HIDDEN_FIELDS: Final[Mapping[str, _Codec]] = {
    "hands": _HANDS,
    "dev_cards": _DEV_CARDS,
    "new_dev_cards": _DEV_CARDS,
    "deck": _c(list, _faces),
}
"""The secrets of a full position (``hidden.NAME``)."""

DERIVED_FIELDS: Final = frozenset(
    {
        "players", "board", "options", "rules", "variant", "target", "longest_road_min",
        "road_limit", "settlement_limit", "city_limit", "topology", "kinds", "_plenty_kinds",
        "_monopolies", "_draws", "special_building", "harbour_nodes", "income", "hex_seats",
        "_roads", "_settlements", "_cities", "_road_cache", "closed_paths", "_static_public",
        "record_events", "last_events", "variant_state",
    }
)  # fmt: skip
"""The :class:`GameState` attributes a position does not write: the game's fixed data (rebuilt
from the game, board, options and seats), caches derived from the fields (``_income``,
``hex_seats``), the variant's progress (written field by field, ``variant.NAME``)."""


# ---------------------------------------------------------------------------- variant codecs


def _tuples_read(v: Json, s: _Shape) -> list[tuple[int, ...]]:
    return [tuple(_int(x) for x in _list(t)) for t in _list(v)]


def _tuple_write(value: Any) -> Json:
    return [list(t) for t in value]


_TUPLES: Final = _c(_tuple_write, _tuples_read)
_SET: Final = _c(sorted, lambda v, s: {_int(x) for x in _list(v)})


def _knight_write(k: Knight) -> Json:
    return [k.seat, k.level, k.active]


def _knight_read(v: Json, s: _Shape) -> Knight:
    seat, level, active = _list(v, 3, "knight fields (seat, level, active)")
    return Knight(_seat(s, seat, False), _count(level), _bool(active))


def _knights_read(v: Json, s: _Shape) -> dict[int, Knight]:
    knights = {}
    for item in _list(v):
        node, *knight = _list(item, 4, "knight fields (intersection, seat, level, active)")
        knights[_below(node, s.nodes, "intersection")] = _knight_read(knight, s)
    return knights


def _retreat_read(v: Json, s: _Shape) -> Retreat:
    *knight, node = _list(v, 4, "retreat fields (seat, level, active, intersection)")
    return Retreat(_knight_read(knight, s), _below(node, s.nodes, "intersection"))


SEA_FIELDS: Final[Mapping[str, _Codec]] = {
    "ships": _SEAT_LISTS,
    "ship_owner": _c(list, lambda v, s: [_seat(s, x) for x in _list(v, s.paths, "paths")]),
    "gold_owed": _SEAT_COUNTS,
    "islands_settled": _SEAT_LISTS,
    "fog_tiles": _c(list, lambda v, s: [_count(x) for x in _list(v)]),
    "fog_tokens": _c(list, lambda v, s: [_count(x) for x in _list(v)]),
    "new_ships": _INTS,
    "ship_moved": _BOOL,
    "pirate": _c(_same, lambda v, s: _below(v, s.hexes, "hex")),
    "gold_resume": _PHASE,
    "fog_pending": _INTS,
    "fog_seat": _SEAT,
    "fog_resume": _PHASE,
    "fog_terrain": _INT,
    "fog_revealed": _TUPLES,
}
"""Seafarers' progress (:class:`~hexlan.engine.variants.seafarers.SeaState`), ``variant.NAME``."""

FLEET_FIELDS: Final[Mapping[str, _Codec]] = {
    **SEA_FIELDS,
    "warships": _SEAT_COUNTS,
    "fortress_chits": _SEAT_COUNTS,
    "fortress_attacked": _BOOL,
    "loot": _COUNT,
}
"""Pirate Islands' progress (:class:`~hexlan.engine.variants.pirate_islands.FleetState`)."""

PROGRESS_FIELDS: Final[Mapping[str, _Codec]] = {
    "levels": _SEAT_LISTS,
    "walls": _SEAT_LISTS,
    "defenders": _SEAT_INTS,
    "points": _SEAT_INTS,
    "drawn": _INTS,
    "choosing": _SEAT_LIST,
    "draws": _TUPLES,
    "over_limit": _SEAT,
    "free_promotions": _COUNT,
    "crane": _BOOL,
    "fleet": _optional(_c(list, lambda v, s: tuple(_int(x) for x in _list(v, 2, "items")))),
    "wedding": _SEAT_LIST,
    "harbor": _SEAT_LIST,
    "harbor_offer": _INT,
    "monopolised": _BOOL,
    "showing": _optional(_c(list, lambda v, s: tuple(_int(x) for x in _list(v, 3, "items")))),
    "unheld": _c(
        lambda rows: [sorted(row) for row in rows],
        lambda v, s: tuple(frozenset(_count(x) for x in _list(row)) for row in _list(v)),
    ),
    "merchant": _SEAT,
    "spy": _SEAT,
    "metropolis": _INTS,
    "metropolis_seat": _c(list, lambda v, s: [_seat(s, x) for x in _list(v)]),
    "knights": _c(lambda d: [[n, *_knight_write(k)] for n, k in sorted(d.items())], _knights_read),
    "fresh": _SET,
    "promoted": _SET,
    "barbarians": _COUNT,
    "arrived": _BOOL,
    "pillage": _SEAT_LIST,
    "retreat": _optional(_c(lambda r: [*_knight_write(r.knight), r.node], _retreat_read)),
    "aqueduct": _SEAT_LIST,
    "hands_before": _INTS,
    "board.merchant": _c(_same, lambda v, s: _below(v, s.hexes, "hex")),
    "board.merchant_seat": _SEAT,
    "board.bishop": _SEAT_LIST,
    "board.deserter": _SEAT,
    "board.deserted": _optional(_c(_knight_write, _knight_read)),
    "board.swaps": _TUPLES,
}
"""Cities & Knights' public progress
(:class:`~hexlan.engine.variants.cities_knights.progress.Progress`; ``board.NAME``: its
:class:`~hexlan.engine.variants.cities_knights.board_state.BoardCards`)."""

PROGRESS_HIDDEN: Final[Mapping[str, _Codec]] = {
    "cards": _c(lambda rows: [[list(c) for c in row] for row in rows], _per_seat(_tuples_read)),
    "unknown": _SEAT_LISTS,
    "pool": _c(_lists, lambda v, s: [[_count(x) for x in _list(row)] for row in _list(v)]),
}
"""Cities & Knights' progress cards (``hidden.variant.NAME`` in a full position)."""


def _variant_fields(progress: object) -> tuple[Mapping[str, _Codec], Mapping[str, _Codec]]:
    """The public and hidden codecs of a game's progress object."""
    if isinstance(progress, FleetState):
        return FLEET_FIELDS, {}
    if isinstance(progress, SeaState):
        return SEA_FIELDS, {}
    if isinstance(progress, Progress):
        return PROGRESS_FIELDS, PROGRESS_HIDDEN
    raise PositionError(f"no position format for a game progress of {type(progress).__name__}")


def _get(progress: object, name: str) -> Any:
    for part in name.split("."):
        progress = getattr(progress, part)
    return progress


def _set(progress: object, name: str, value: Any) -> None:
    *path, last = name.split(".")
    for part in path:
        progress = getattr(progress, part)
    setattr(progress, last, value)


# ---------------------------------------------------------------------------- writing


def _dump(value: Json) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _unseen_pool(state: GameState) -> list[int]:
    """The development cards a spectator has not seen played, per face: the deck and every
    unplayed card in hand (an information state's ``deck`` with its own seat's cards added)."""
    pool = list(state.deck)
    for cards in state.dev_cards:
        for face, n in enumerate(cards):
            pool[face] += n
    return pool


def _progress_pool(progress: Progress) -> list[list[int]]:
    """The progress cards a spectator has not seen, per track and face."""
    pool = [row[:] for row in progress.pool]
    for row in progress.cards:
        for track, face in row:
            pool[track][face] += 1
    return pool


def to_position(state: GameState, *, public: bool = False, seat: Seat | None = None) -> str:
    """The position of ``state`` as text (the module docstring; docs/POSITION.md).

    Args:
        state: a full game state, or an information state (only a public position, or the
            seat position of its own seat).
        public: write the public position (what a spectator knows) rather than the full one.
        seat: write the position seat ``seat`` knows: the public one and its own cards.

    Raises:
        PositionError: a full position of an information state, a seat position of a seat
            whose cards ``state`` does not know, or a seat outside the game.

    >>> from hexlan.engine.board import beginner_board
    >>> text = to_position(GameState(beginner_board(), 3))
    >>> text.splitlines()[0]
    'hexlan-position 1 base full'
    >>> from_position(text).full_hash() == GameState(beginner_board(), 3).full_hash()
    True
    """
    if seat is not None:
        if not 0 <= seat < state.players:
            raise PositionError(f"seat {seat} is not one of the {state.players} seats")
        if not state.sees(seat):
            raise PositionError(f"this state does not know seat {seat}'s cards")
        form = f"{SEAT} {seat}"
    elif public:
        form = PUBLIC
    elif isinstance(state, InformationState):
        raise PositionError(
            f"an information state (seat {state.seat}'s) has no full position;"
            " write its public or seat position"
        )
    else:
        form = FULL
    lines = {
        "board": state.public_dict()["board"],
        "options": state.options.to_dict(),
        "players": state.players,
    }
    for name, codec in CORE_FIELDS.items():
        lines[name] = codec.write(getattr(state, name))
    progress = state.variant_state
    hidden_codecs: Mapping[str, _Codec] = {}
    if progress is not None:
        codecs, hidden_codecs = _variant_fields(progress)
        for name, codec in codecs.items():
            lines[f"variant.{name}"] = codec.write(_get(progress, name))
    if form == FULL:
        for name, codec in HIDDEN_FIELDS.items():
            lines[f"hidden.{name}"] = codec.write(getattr(state, name))
        for name, codec in hidden_codecs.items():
            lines[f"hidden.variant.{name}"] = codec.write(_get(progress, name))
    else:
        _write_view(state, seat, lines)
    header = f"{MAGIC} {VERSION} {state.rules.name} {form}"
    return "\n".join([header, *(f"{k} {_dump(v)}" for k, v in sorted(lines.items()))]) + "\n"


def _write_view(state: GameState, seat: Seat | None, lines: dict[str, Json]) -> None:
    """The fields of a public or seat position beyond the public state's."""
    pool = _unseen_pool(state)
    progress = state.variant_state
    if isinstance(progress, Progress):
        lines["variant.held"] = [
            [progress.held(s, t) for t in range(3)] for s in range(state.players)
        ]
        cards = _progress_pool(progress)
    if seat is not None:
        lines["own.hand"] = list(state.hands[seat])
        lines["own.dev_cards"] = list(state.dev_cards[seat])
        lines["own.new_dev_cards"] = list(state.new_dev_cards[seat])
        for face, n in enumerate(state.dev_cards[seat]):
            pool[face] -= n
        if isinstance(progress, Progress):
            own = sorted(progress.cards[seat])
            lines["own.progress_cards"] = [list(c) for c in own]
            for track, face in own:
                cards[track][face] -= 1
    lines["unseen.deck"] = pool
    if isinstance(progress, Progress):
        lines["unseen.progress"] = cards


def replace_fields(text: str, changes: Mapping[str, Json]) -> str:
    """``text`` with the fields named in ``changes`` given new values (plain JSON values, as the
    text holds them), still canonical: how a test poses a position from a real one.

    >>> from hexlan.engine.board import beginner_board
    >>> text = replace_fields(to_position(GameState(beginner_board(), 3)), {"turn": 4})
    >>> from_position(text).turn
    4

    Raises:
        PositionError: a field the text does not hold (nothing is added).
    """
    header, *lines = text.splitlines()
    fields = dict(line.partition(" ")[::2] for line in lines if line.strip())
    unknown = sorted(set(changes) - set(fields))
    if unknown:
        raise PositionError(f"the position has no field {', '.join(unknown)}")
    fields.update({name: _dump(value) for name, value in changes.items()})
    return "\n".join([header, *(f"{k} {v}" for k, v in sorted(fields.items()))]) + "\n"


# ---------------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class _Text:
    """A position text split up: its game, form, seat (for a seat position) and fields, each
    with its line number."""

    game: str
    form: str
    seat: Seat | None
    fields: dict[str, tuple[int, Json]]


def _parse(text: str) -> _Text:
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    lines = text.splitlines()
    if not lines:
        raise PositionError(
            "an empty position: the first line must be 'hexlan-position 1 GAME FORM'"
        )
    words = lines[0].split()
    if len(words) < 4 or words[0] != MAGIC:
        raise PositionError(
            f"line 1: not a position header: {lines[0][:60]!r} (expected '{MAGIC} {VERSION} GAME"
            " full|public|seat N')"
        )
    if words[1] != str(VERSION):
        raise PositionError(f"line 1: position format version {words[1]!r}; this reads {VERSION}")
    game, form, rest = words[2], words[3], words[4:]
    if game not in GAMES:
        raise PositionError(f"line 1: no game named {game!r}; the games are {', '.join(GAMES)}")
    seat: Seat | None = None
    if form == SEAT and len(rest) == 1 and rest[0].lstrip("-").isdigit():
        seat = int(rest[0])
    elif form not in (FULL, PUBLIC) or rest:
        raise PositionError(
            f"line 1: the form is full, public or 'seat N', not {' '.join(words[3:])!r}"
        )
    found: dict[str, tuple[int, Json]] = {}
    previous = ""
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        name, _, raw = line.partition(" ")
        if name in found:
            raise PositionError(f"line {number}: field {name} given twice")
        if name < previous:
            raise PositionError(f"line {number}: field {name} out of order (fields are sorted)")
        previous = name
        try:
            value = json.loads(raw, parse_float=_no_float, parse_constant=_no_float)
        except ValueError as exc:
            raise PositionError(f"line {number} ({name}): not a JSON value: {exc}") from None
        found[name] = (number, value)
    return _Text(game, form, seat, found)


def _no_float(text: str) -> float:
    raise ValueError(f"no floats in a position: {text}")


class _Reader:
    """Takes a position's fields one by one, naming the line of a bad one."""

    def __init__(self, parsed: _Text) -> None:
        self.fields = dict(parsed.fields)

    def take(self, name: str, read: Callable[[Json], Any]) -> Any:
        if name not in self.fields:
            raise PositionError(f"field {name} is missing")
        number, value = self.fields.pop(name)
        try:
            return read(value)
        except PositionError as exc:
            raise PositionError(f"line {number} ({name}): {exc}") from None
        except (EngineError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise PositionError(f"line {number} ({name}): {exc}") from None

    def field(self, name: str, codec: _Codec, shape: _Shape) -> Any:
        """The value of field ``name`` read by ``codec``."""
        return self.take(name, lambda v: codec.read(v, shape))

    def done(self) -> None:
        if self.fields:
            name, (number, _) = min(self.fields.items(), key=lambda item: item[1][0])
            raise PositionError(f"line {number}: unknown field {name}")


def _phases(state: GameState) -> dict[str, GamePhase]:
    """The game's phases by the names a position writes."""
    phases: list[GamePhase] = [*Phase]
    if state.special_building:
        phases.extend(BuildPhase)
    if state.variant is not None:
        for cls in type(state.variant).__mro__:
            phases.extend(getattr(cls, "phases", ()))
    return {p.name.lower(): p for p in phases}


def from_position(text: str) -> GameState:
    """The state a position text describes (:func:`to_position` writes them).

    A full position gives a :class:`GameState`; a public one the
    :class:`~hexlan.engine.info.InformationState` of a third party
    (:data:`~hexlan.engine.core.NO_SEAT`); a seat position that seat's information state. See
    docs/POSITION.md for what a view loaded from text knows.

    Raises:
        PositionError: in one line, what is wrong and on which line: a bad header, an unknown
            game, a missing, repeated, unknown or misplaced field, a value of the wrong shape
            (a hand of the wrong length, a negative count, a seat outside the game), cards
            that do not add up (the bank and the hands against the game's cards), a board or
            options the game refuses.
    """
    parsed = _parse(text)
    reader = _Reader(parsed)
    rules = load_ruleset(parsed.game)
    players = reader.take("players", lambda v: rules.seat_count(_int(v, "a seat count")))
    board = reader.take("board", Board.from_dict)
    options = reader.take("options", lambda v: GameOptions.from_dict(_dict(v)))
    seat = parsed.seat
    try:
        if parsed.form == FULL:
            state = GameState(board, players, options, rules)
        else:
            state = InformationState(
                board, players, NO_SEAT if seat is None else seat, options, rules
            )
    except PositionError:
        raise
    except EngineError as exc:
        raise PositionError(f"the game cannot be set up: {exc}") from None
    shape = _Shape(
        players,
        state.kinds,
        len(state.deck),
        state.topology.node_count,
        state.topology.path_count,
        state.topology.hex_count + len(state.topology.sea_axial),
        _phases(state),
    )
    for name, codec in CORE_FIELDS.items():
        setattr(state, name, reader.field(name, codec, shape))
    progress = state.variant_state
    if progress is not None:
        codecs, hidden_codecs = _variant_fields(progress)
        for name, codec in codecs.items():
            value = reader.field(f"variant.{name}", codec, shape)
            _set(progress, name, value)
    if isinstance(state, InformationState):
        _read_view(state, reader, shape)
    else:
        for name, codec in HIDDEN_FIELDS.items():
            setattr(state, name, reader.field(f"hidden.{name}", codec, shape))
        if progress is not None:
            for name, codec in hidden_codecs.items():
                value = reader.field(f"hidden.variant.{name}", codec, shape)
                _set(progress, name, value)
    reader.done()
    _rebuild(state)
    _check_cards(state)
    return state


def _dict(value: Json) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, not {json.dumps(value)}")
    return value


def _read_view(state: InformationState, reader: _Reader, shape: _Shape) -> None:
    """The fields of a public or seat position beyond the public state's, and the view's
    knowledge of the opponents' hands: any hand of their size the cards out of the bank
    allow."""
    seat = state.seat
    pool = reader.take("unseen.deck", lambda v: _faces(v, shape))
    progress = state.variant_state
    if isinstance(progress, Progress):
        held = reader.take(
            "variant.held",
            lambda v: [
                [_count(x) for x in _list(r, 3, "tracks")] for r in _list(v, shape.players, "seats")
            ],
        )
        cards_pool = reader.take(
            "unseen.progress", lambda v: PROGRESS_HIDDEN["pool"].read(v, shape)
        )
    if seat != NO_SEAT:
        state.hands[seat] = reader.take("own.hand", lambda v: _hand(v, shape))
        state.dev_cards[seat] = reader.take("own.dev_cards", lambda v: _faces(v, shape))
        state.new_dev_cards[seat] = reader.take("own.new_dev_cards", lambda v: _faces(v, shape))
        if isinstance(progress, Progress):
            progress.cards[seat] = reader.take(
                "own.progress_cards", lambda v: _tuples_read(v, shape)
            )
    state.deck = pool
    if isinstance(progress, Progress):
        progress.pool = cards_pool
        for s in range(state.players):
            if s != seat:
                progress.unknown[s] = held[s]
                progress.cards[s] = []
            else:
                progress.unknown[s] = [0, 0, 0]
    _forget_hands(state)


def _forget_hands(state: InformationState) -> None:
    """Each opponent may hold any hand of its size within the cards out of the bank (and out
    of the own seat's hand)."""
    out = [total - held for total, held in zip(state.rules.bank, state.bank, strict=True)]
    if state.seat != NO_SEAT:
        out = [n - h for n, h in zip(out, state.hands[state.seat], strict=True)]
    if min(out) < 0:
        raise PositionError(
            f"the cards out of the bank {out} do not cover seat {state.seat}'s hand"
        )
    for s in range(state.players):
        if s == state.seat:
            continue
        hands = frozenset(_hands_of(state.hand_size[s], out))
        if not hands:
            raise PositionError(
                f"seat {s} holds {state.hand_size[s]} cards, more than the {sum(out)} out of the bank"
            )
        state._groups[s] = _Group((s,), {(h,) for h in hands})
        state._possible[s] = hands
        state.hands[s] = [max(h[r] for h in hands) for r in range(state.kinds)]


def _hands_of(size: int, caps: list[int]) -> Iterator[Hand]:
    """Every hand of ``size`` cards holding at most ``caps[r]`` of each kind."""
    count = _count_hands(size, tuple(caps))
    if count > MAX_VIEW_HANDS:
        raise PositionError(
            f"a hand of {size} cards may be any of {count} hands, more than a view loads"
            f" ({MAX_VIEW_HANDS})"
        )

    def build(prefix: tuple[int, ...], left: int) -> Iterator[Hand]:
        r = len(prefix)
        if r == len(caps) - 1:
            if left <= caps[r]:
                yield as_hand([*prefix, left])
            return
        rest = sum(caps[r + 1 :])
        for n in range(max(0, left - rest), min(caps[r], left) + 1):
            yield from build((*prefix, n), left - n)

    yield from build((), size)


def _count_hands(size: int, caps: tuple[int, ...]) -> int:
    ways = [1] + [0] * size
    for cap in caps:
        new = [0] * (size + 1)
        for total in range(size + 1):
            new[total] = sum(ways[total - k] for k in range(min(cap, total) + 1))
        ways = new
    return ways[size]


def _rebuild(state: GameState) -> None:
    """The caches a position does not write, from the fields it does: the board as play has
    changed it (fog revealed, tokens swapped), each total's income, the seats on each hex."""
    board = state.board
    progress = state.variant_state
    terrains, tokens = list(board.terrains), list(board.tokens)
    if isinstance(progress, SeaState):
        for h, terrain, token in progress.fog_revealed:
            if not 0 <= h < len(terrains):
                raise PositionError(f"variant.fog_revealed: no hex {h}")
            terrains[h], tokens[h] = Terrain(terrain), token
    if isinstance(progress, Progress):
        for first, second in progress.board.swaps:
            tokens[first], tokens[second] = tokens[second], tokens[first]
    state.board = board = replace(board, terrains=tuple(terrains), tokens=tuple(tokens))
    topo = state.topology
    state.hex_seats = [0] * topo.hex_count
    state.income = [[] for _ in range(13)]
    for node, owner in enumerate(state.node_owner):
        if owner < 0 or not state.node_level[node]:  # no building (a knight's intersection)
            continue
        for h in topo.node_hexes[node]:
            state.hex_seats[h] |= 1 << owner
            resource = board.terrains[h].resource
            if resource is not None:
                state.income[board.tokens[h]].append((h, node, owner, int(resource)))
    state.paths_changed()


def _check_cards(state: GameState) -> None:
    """The cards add up: the hand sizes are the hands' (in a full state), and the bank and the
    hands hold each kind's cards of the game."""
    full = not isinstance(state, InformationState)
    if full:
        for s, hand in enumerate(state.hands):
            if sum(hand) != state.hand_size[s]:
                raise PositionError(
                    f"hand_size: seat {s} holds {sum(hand)} cards (hidden.hands), not {state.hand_size[s]}"
                )
        for r, total in enumerate(state.rules.bank):
            held = state.bank[r] + sum(hand[r] for hand in state.hands)
            if held != total:
                kind = Resource(r).name.lower()
                raise PositionError(
                    f"bank: the bank and the hands hold {held} {kind}, the game has {total}"
                )
    elif sum(state.rules.bank) - sum(state.bank) != sum(state.hand_size):
        raise PositionError(
            f"bank: {sum(state.rules.bank) - sum(state.bank)} cards are out of the bank, the"
            f" hands hold {sum(state.hand_size)}"
        )


__all__ = [
    "CORE_FIELDS",
    "DERIVED_FIELDS",
    "HIDDEN_FIELDS",
    "MAGIC",
    "VERSION",
    "PositionError",
    "from_position",
    "replace_fields",
    "to_position",
]
