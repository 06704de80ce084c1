"""Landnám positions as text (docs/POSITION.md), in the format every hexlan game writes: a header
``hexlan-position 1 landnam FORM`` and one sorted ``NAME VALUE`` line per field of the state,
every field written, values as compact JSON with no floats.

The forms: ``full`` (every fate card), ``public`` (what a spectator knows: the fate cards shown
face up, and how many each seat holds) and ``seat S`` (what seat S knows: its own cards too).
A public or seat position reads back as that view (:attr:`~.state.LandnamState.viewer`), the
same state a view advanced by observations holds, so its hashes are the view's.

>>> from hexlan.engine.variants.landnam.state import new_game
>>> text = to_position(new_game("landnam", 3))
>>> text.splitlines()[0]
'hexlan-position 1 landnam full'
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, Final

from hexlan.engine.actions import action_to_list
from hexlan.engine.core import Seat
from hexlan.engine.options import GameOptions
from hexlan.engine.position import FULL, MAGIC, PUBLIC, SEAT, VERSION, PositionError, parse_text
from hexlan.engine.variants.landnam import actions as L
from hexlan.engine.variants.landnam.parts import Althing, Case, Chase, Exploration, Queued, Unit
from hexlan.engine.variants.landnam.state import LandnamState, new_game

Json = Any
_NOT_FIELDS: Final = frozenset({"rules", "options", "board", "viewer", "players"})


def _write(name: str, value: Any) -> Json:
    """One attribute of a state as JSON."""
    if name == "units":
        return [None if u is None else [u.owner, u.ship, u.at, u.tokens, u.acted] for u in value]
    if name in ("buildings", "used"):
        return sorted([k, *(v if isinstance(v, tuple) else (v,))] for k, v in value.items())
    if name == "entered":
        return [sorted(seats) for seats in value]
    if name == "queue":
        return [[q.what, q.seat, q.place, q.unit, q.kind] for q in value]
    if name == "offer":
        return None if value is None else action_to_list(value)
    if isinstance(value, Exploration | Chase):
        return {f.name: _write(f.name, getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Althing):
        return _althing_write(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _althing_write(value: Althing) -> Json:
    case = value.case
    return {
        "window": value.window,
        "order": value.order,
        "possible": sorted([k, sorted(v)] for k, v in value.possible.items()),
        "tried": sorted(value.tried),
        "case": None
        if case is None
        else {f.name: getattr(case, f.name) for f in fields(case)}
        | {"declined": sorted(case.declined), "sides": [list(s) for s in case.sides]},
    }


def _read(name: str, value: Json) -> Any:
    """One attribute of a state from its JSON (the inverse of :func:`_write`)."""
    if name == "units":
        return [
            None if u is None else Unit(u[0], u[1], u[2], [tuple(t) for t in u[3]], u[4])
            for u in value
        ]
    if name == "buildings":
        return {c: (o, t) for c, o, t in value}
    if name == "used":
        return {int(c): int(n) for c, n in value}
    if name == "entered":
        return [set(seats) for seats in value]
    if name == "queue":
        return [Queued(*q) for q in value]
    if name == "offer":
        return None if value is None else L.OfferTrade(value[1], tuple(value[2]), tuple(value[3]))
    if name == "exploration":
        return (
            None
            if value is None
            else Exploration(
                **{**value, "green": tuple(value["green"]), "red": tuple(value["red"])}
            )
        )
    if name == "chase":
        return None if value is None else Chase(**value)
    if name == "althing":
        return None if value is None else _althing_read(value)
    if name in ("won",):
        return tuple(value)
    if name == "draws":
        return [tuple(d) for d in value]
    return value


def _althing_read(value: Json) -> Althing:
    case = value["case"]
    return Althing(
        list(value["window"]),
        list(value["order"]),
        {k: {tuple(p) for p in v} for k, v in value["possible"]},
        {tuple(p) for p in value["tried"]},
        None
        if case is None
        else Case(
            case["unit"],
            case["kind"],
            case["corner"],
            (list(case["sides"][0]), list(case["sides"][1])),
            list(case["totals"]),
            case["turn"],
            case["member"],
            case["guest"],
            set(case["declined"]),
        ),
    )


def seen_by(state: LandnamState, viewer: Seat) -> LandnamState:
    """What ``viewer`` (a seat, or -1 for a spectator) knows of full state ``state``, as a view:
    the other seats' fate cards are counted, not known, but for those shown face up.

    Raises:
        PositionError: ``state`` is a view already.
    """
    if state.viewer is not None:
        raise PositionError("only the full state can be seen by another seat")
    view = state.copy()
    view.viewer = viewer
    known = [0] * len(state.unseen)
    for seat in range(state.players):
        if seat != viewer:
            view.hidden[seat] = state.fate_count(seat) - sum(state.shown[seat])
            view.fate[seat] = list(state.shown[seat])
        for face, count in enumerate(view.fate[seat]):
            known[face] += count
    deck = state.rules.fate_deck
    view.unseen = [
        deck[f] - known[f] - state.discard[f] - state.put_back[f] for f in range(len(deck))
    ]
    return view


def to_position(state: LandnamState, *, public: bool = False, seat: Seat | None = None) -> str:
    """``state`` as a position: its own form (a view writes what its seat knows), or, from the
    full state, what a spectator (``public``) or ``seat`` knows.

    Raises:
        PositionError: a public or seat form asked of a view.
    """
    if public or seat is not None:
        state = seen_by(state, -1 if public else int(seat))  # type: ignore[arg-type]
    form = (
        FULL if state.viewer is None else PUBLIC if state.viewer < 0 else f"{SEAT} {state.viewer}"
    )
    values = {n: _write(n, v) for n, v in vars(state).items() if n not in _NOT_FIELDS}
    values["options"] = state.options.to_dict()
    values["players"] = state.players
    lines = [f"{MAGIC} {VERSION} {state.rules.name} {form}"]
    lines.extend(
        f"{n} {json.dumps(values[n], sort_keys=True, separators=(',', ':'))}"
        for n in sorted(values)
    )
    return "\n".join(lines) + "\n"


def from_position(text: str) -> LandnamState:
    """A state from a position of :func:`to_position` (a view for a public or seat form).

    Raises:
        PositionError: the text is not a Landnám position, or a field is missing, unknown or
            malformed (the message names the line).
    """
    parsed = parse_text(text, ("landnam",))
    values = {name: value for name, (_, value) in parsed.fields.items()}
    try:
        state = new_game(
            parsed.game, int(values["players"]), GameOptions.from_dict(values["options"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PositionError(f"players and options must be given: {exc}") from None
    expected = {n for n in vars(state) if n not in _NOT_FIELDS} | {"options", "players"}
    missing, unknown = expected - set(values), set(values) - expected
    if missing or unknown:
        raise PositionError(
            f"fields missing: {', '.join(sorted(missing)) or 'none'}; unknown: {', '.join(sorted(unknown)) or 'none'}"
        )
    state.viewer = None if parsed.form == FULL else -1 if parsed.form == PUBLIC else parsed.seat
    for name, (line, value) in parsed.fields.items():
        if name in ("options", "players"):
            continue
        try:
            setattr(state, name, _read(name, value))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise PositionError(f"line {line} ({name}): {exc}") from None
    return state


__all__ = ["from_position", "seen_by", "to_position"]
