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

This module holds the engine's own fields (:data:`CORE_FIELDS`, :data:`HIDDEN_FIELDS`, the
views' hands and development cards) and names no game: a game that keeps progress of its own
(``state.variant_state``) says how it is written by its rules class's
:attr:`~hexlan.engine.variants.base.Variant.position_fields`, a
:class:`~hexlan.engine.position_fields.ProgressFields` of codecs in its own module (Seafarers'
in engine/variants/seafarers.py, Cities & Knights' in engine/variants/cities_knights/
position.py), which this module writes and reads as ``variant.NAME`` lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from hexlan.engine import actions as A
from hexlan.engine import position_fields as F
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
    as_hand,
)
from hexlan.engine.info import InformationState
from hexlan.engine.knowledge import HandGroup
from hexlan.engine.options import GameOptions
from hexlan.engine.position_fields import Codec, Json, ProgressFields, Shape
from hexlan.engine.registry import action_from_list
from hexlan.engine.ruleset import CATAN_GAMES, RuleSet, load_ruleset
from hexlan.engine.state import GameState

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


# ---------------------------------------------------------------------------- the engine's codecs


def _hand(v: Json, s: Shape) -> list[int]:
    return [F.read_count(x) for x in F.read_list(v, s.kinds, "counts (one per card kind)")]


def _faces(v: Json, s: Shape) -> list[int]:
    return [
        F.read_count(x) for x in F.read_list(v, s.faces, "counts (one per development card face)")
    ]


def _resource_read(v: Json, s: Shape) -> Resource:
    names = [r.name.lower() for r in s.cards]
    if v not in names:
        raise ValueError(f"expected a card kind ({', '.join(names)}), not {json.dumps(v)}")
    return s.cards[names.index(v)]


def _action_read(*kinds: type[A.Action]) -> Callable[[Json, Shape], Any]:
    def read(v: Json, s: Shape) -> Any:
        try:
            action = action_from_list(v)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        if not isinstance(action, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ValueError(f"expected {names}, not {json.dumps(v)}")
        return action

    return read


def _answers_read(v: Json, s: Shape) -> dict[Seat, A.Action]:
    answers: dict[Seat, A.Action] = {}
    for item in F.read_list(v):
        seat, answer = F.read_list(item, 2, "items (seat, answer)")
        answers[F.read_seat(s, seat, False)] = _action_read(A.AnswerTrade, A.CounterOffer)(
            answer, s
        )
    return answers


def _nodes_set_write(value: list[bool]) -> Json:
    return [n for n, b in enumerate(value) if b]


def _nodes_set_read(v: Json, s: Shape) -> list[bool]:
    flags = [False] * s.nodes
    for n in F.read_list(v):
        flags[F.read_below(n, s.nodes, "intersection")] = True
    return flags


def _dice_read(v: Json, s: Shape) -> A.Dice:
    first, second = (F.read_int(x) for x in F.read_list(v, 2, "dice"))
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise ValueError(f"dice are 1 .. 6, not {v}")
    return A.Dice(first, second)


_HANDS: Final = Codec(F.lists, F.per_seat(_hand))
_DEV_CARDS: Final = Codec(F.lists, F.per_seat(_faces))

CORE_FIELDS: Final[Mapping[str, Codec]] = {
    "active": F.SEAT,
    "bank": Codec(list, _hand),
    "blocked": Codec(_nodes_set_write, _nodes_set_read),
    "cities": F.SEAT_LISTS,
    "dev_count": F.SEAT_COUNTS,
    "dev_played_this_turn": F.BOOL,
    "dice": Codec(
        lambda d: None if d is None else [d.first, d.second],
        lambda v, s: None if v is None else _dice_read(v, s),
    ),
    "discard_after_robber": F.BOOL,
    "discards": F.SEAT_COUNTS,
    "discoveries": F.SEAT_INTS,
    "free_roads": F.COUNT,
    "generic_harbour": Codec(list, F.per_seat(lambda v, s: F.read_bool(v))),
    "gold_points": F.SEAT_INTS,
    "hand_size": F.SEAT_COUNTS,
    "knights": F.SEAT_COUNTS,
    "largest_army_holder": F.SEAT,
    "last_settlement": F.NODE,
    "longest_road_holder": F.SEAT,
    "monopoly": F.optional(Codec(lambda r: r.name.lower(), _resource_read)),
    "monopoly_cap": F.optional(F.COUNT),
    "new_dev_count": F.SEAT_COUNTS,
    "node_level": Codec(
        list, lambda v, s: [F.read_count(x) for x in F.read_list(v, s.nodes, "intersections")]
    ),
    "node_owner": Codec(
        list, lambda v, s: [F.read_seat(s, x) for x in F.read_list(v, s.nodes, "intersections")]
    ),
    "path_owner": F.PATH_SEATS,
    "phase": F.PHASE,
    "public_vp": F.SEAT_INTS,
    "ratios": Codec(F.lists, F.per_seat(_hand)),
    "revealed_vp_cards": F.SEAT_COUNTS,
    "road_building_resume": F.PHASE,
    "road_length": F.SEAT_COUNTS,
    "roads": F.SEAT_LISTS,
    "robber": F.HEX,
    "robber_resume": F.PHASE,
    "roll_pending": F.BOOL,
    "settlements": F.SEAT_LISTS,
    "setup_order": F.SEAT_LIST,
    "setup_step": F.COUNT,
    "special_from": F.SEAT,
    "start_seat": F.SEAT,
    "trade": Codec(
        lambda t: None if t is None else A.action_to_list(t),
        lambda v, s: None if v is None else _action_read(A.OfferTrade)(v, s),
    ),
    "trade_answers": Codec(
        lambda d: [[seat, A.action_to_list(a)] for seat, a in sorted(d.items())], _answers_read
    ),
    "trade_pending": F.SEAT_LIST,
    "turn": F.COUNT,
    "variant_due": F.BOOL,
    "variant_vp": F.SEAT_INTS,
    "victim": F.SEAT,
    "winner": F.SEAT,
}
"""The :class:`GameState` attributes a position holds as they are (every form), by name."""

HIDDEN_FIELDS: Final[Mapping[str, Codec]] = {
    "hands": _HANDS,
    "dev_cards": _DEV_CARDS,
    "new_dev_cards": _DEV_CARDS,
    "deck": Codec(list, _faces),
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
``hex_seats``), the game's progress (written field by field, ``variant.NAME``, as its rules
module's :attr:`~hexlan.engine.variants.base.Variant.position_fields` says)."""


# ---------------------------------------------------------------------------- a game's fields


def _progress_fields(state: GameState) -> ProgressFields[Any] | None:
    """How the game's rules module writes its progress (None: the game keeps none).

    Raises:
        PositionError: the game keeps progress but its rules give no fields for it.
    """
    progress = state.variant_state
    if progress is None:
        return None
    found = None if state.variant is None else state.variant.position_fields
    if found is None:
        raise PositionError(f"no position format for a game progress of {type(progress).__name__}")
    return found


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
    progress, game = state.variant_state, _progress_fields(state)
    if game is not None:
        for name, codec in game.public.items():
            lines[f"variant.{name}"] = codec.write(_get(progress, name))
    if form == FULL:
        for name, codec in HIDDEN_FIELDS.items():
            lines[f"hidden.{name}"] = codec.write(getattr(state, name))
        if game is not None:
            for name, codec in game.hidden.items():
                lines[f"hidden.variant.{name}"] = codec.write(_get(progress, name))
    else:
        _write_view(state, seat, lines)
        if game is not None:
            game.write_view(progress, seat, lines)
    header = f"{MAGIC} {VERSION} {state.rules.name} {form}"
    return "\n".join([header, *(f"{k} {_dump(v)}" for k, v in sorted(lines.items()))]) + "\n"


def _write_view(state: GameState, seat: Seat | None, lines: dict[str, Json]) -> None:
    """The engine's fields of a public or seat position beyond the public state's (a game's
    own are its :meth:`~hexlan.engine.position_fields.ProgressFields.write_view`)."""
    pool = _unseen_pool(state)
    if seat is not None:
        lines["own.hand"] = list(state.hands[seat])
        lines["own.dev_cards"] = list(state.dev_cards[seat])
        lines["own.new_dev_cards"] = list(state.new_dev_cards[seat])
        for face, n in enumerate(state.dev_cards[seat]):
            pool[face] -= n
    lines["unseen.deck"] = pool


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
class PositionText:
    """A position text split up: its game, form, seat (for a seat position) and fields, each
    with its line number."""

    game: str
    form: str
    seat: Seat | None
    fields: dict[str, tuple[int, Json]]


def parse_text(text: str, games: Sequence[str]) -> PositionText:
    """The header and fields of a position text of one of ``games`` (any game's positions share
    this layout), each field's value parsed as JSON with its line number.

    Raises:
        PositionError: no header, another version, an unknown game or form, a field given
            twice, out of order, or not JSON (floats included).
    """
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
    if game not in games:
        raise PositionError(f"line 1: no game named {game!r}; the games are {', '.join(games)}")
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
    return PositionText(game, form, seat, found)


def _no_float(text: str) -> float:
    raise ValueError(f"no floats in a position: {text}")


class _Reader:
    """Takes a position's fields one by one, naming the line of a bad one."""

    def __init__(self, parsed: PositionText) -> None:
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

    def field(self, name: str, codec: Codec, shape: Shape) -> Any:
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


def from_position(text: str, rules: RuleSet | None = None) -> GameState:
    """The state a position text describes (:func:`to_position` writes them), in the game the
    header names: one of :data:`~hexlan.engine.ruleset.GAMES`, or ``rules`` when given (a rule
    set that is not a listed game, such as a test's; the header must name it).

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
    parsed = parse_text(text, (rules.name,) if rules is not None else CATAN_GAMES)
    reader = _Reader(parsed)
    game_rules = load_ruleset(parsed.game) if rules is None else rules
    players = reader.take("players", lambda v: game_rules.seat_count(F.read_int(v, "a seat count")))
    board = reader.take("board", lambda v: Board.from_dict(v, game_rules.terrains))
    options = reader.take("options", lambda v: GameOptions.from_dict(_dict(v)))
    seat = parsed.seat
    try:
        if parsed.form == FULL:
            state = GameState(board, players, options, game_rules)
        else:
            state = InformationState(
                board, players, NO_SEAT if seat is None else seat, options, game_rules
            )
    except PositionError:
        raise
    except EngineError as exc:
        raise PositionError(f"the game cannot be set up: {exc}") from None
    shape = Shape(
        players,
        state.kinds,
        len(state.deck),
        state.topology.node_count,
        state.topology.path_count,
        state.topology.hex_count + len(state.topology.sea_axial),
        _phases(state),
        game_rules.cards,
    )
    for name, codec in CORE_FIELDS.items():
        setattr(state, name, reader.field(name, codec, shape))
    progress, game = state.variant_state, _progress_fields(state)
    if game is not None:
        for name, codec in game.public.items():
            _set(progress, name, reader.field(f"variant.{name}", codec, shape))
    if isinstance(state, InformationState):
        _read_view(state, reader, shape)
        if game is not None:
            game.read_view(
                progress, state.seat, players, lambda name, c: reader.field(name, c, shape)
            )
        _forget_hands(state)
    else:
        for name, codec in HIDDEN_FIELDS.items():
            setattr(state, name, reader.field(f"hidden.{name}", codec, shape))
        if game is not None:
            for name, codec in game.hidden.items():
                _set(progress, name, reader.field(f"hidden.variant.{name}", codec, shape))
    reader.done()
    _rebuild(state, game)
    _check_cards(state)
    return state


def _dict(value: Json) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, not {json.dumps(value)}")
    return value


def _read_view(state: InformationState, reader: _Reader, shape: Shape) -> None:
    """The engine's fields of a public or seat position beyond the public state's (a game's
    own are its :meth:`~hexlan.engine.position_fields.ProgressFields.read_view`)."""
    seat = state.seat
    state.deck = reader.take("unseen.deck", lambda v: _faces(v, shape))
    if seat != NO_SEAT:
        state.hands[seat] = reader.take("own.hand", lambda v: _hand(v, shape))
        state.dev_cards[seat] = reader.take("own.dev_cards", lambda v: _faces(v, shape))
        state.new_dev_cards[seat] = reader.take("own.new_dev_cards", lambda v: _faces(v, shape))


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
        state._groups[s] = HandGroup((s,), {(h,) for h in hands})
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


def _rebuild(state: GameState, game: ProgressFields[Any] | None) -> None:
    """The caches a position does not write, from the fields it does: the board as play has
    changed it (the game's :meth:`~hexlan.engine.position_fields.ProgressFields.board_in_play`:
    fog revealed, tokens swapped), each total's income, the seats on each hex."""
    board = state.board
    terrains, tokens = list(board.terrains), list(board.tokens)
    if game is not None:
        try:
            game.board_in_play(state.variant_state, terrains, tokens)
        except ValueError as exc:
            raise PositionError(str(exc)) from None
    state.board = board = replace(board, terrains=tuple(terrains), tokens=tuple(tokens))
    topo = state.topology
    state.hex_seats = [0] * topo.hex_count
    state.income = [[] for _ in range(13)]
    for node, owner in enumerate(state.node_owner):
        if owner < 0 or not state.node_level[node]:  # no building (a knight's intersection)
            continue
        for h in topo.node_hexes[node]:
            state.hex_seats[h] |= 1 << owner
            resource = state.rules.produce[board.terrains[h]]
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
                kind = state.rules.cards[r].name.lower()
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
    "FULL",
    "HIDDEN_FIELDS",
    "MAGIC",
    "PUBLIC",
    "SEAT",
    "VERSION",
    "PositionError",
    "PositionText",
    "from_position",
    "parse_text",
    "replace_fields",
    "to_position",
]
