"""Reading the games' data files in seeds/: TOML, where one file may extend another.

A file that starts with ``extends = "NAME"`` is read over ``NAME.toml`` in the same folder: its
tables merge key by key into the parent's, and any other value (a list included) replaces the
parent's. So a variant states only what differs from the game or map it extends.

:func:`parse_cost` reads a cost as such a file writes it: the rule set's own costs
(:mod:`hexlan.engine.ruleset`) and those a game's rules module reads from its tables (a ship, a
knight), so a rules module needs nothing of the rule set's loader.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from hexlan.engine.core import RESOURCES, EngineError, Hand


def merged(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: tables merge recursively, other values replace.

    >>> merged({"a": 1, "t": {"x": 1, "y": 2}}, {"t": {"y": 3}, "b": [1]})
    {'a': 1, 't': {'x': 1, 'y': 3}, 'b': [1]}
    """
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            result[key] = merged(base[key], value)
        else:
            result[key] = value
    return result


def read_seed(folder: str, name: str) -> dict[str, Any]:
    """Parse ``seeds/<folder>/<name>.toml`` (``folder`` "" for seeds/ itself) with its
    ``extends`` chain resolved.

    Raises:
        FileNotFoundError: no such file (the caller words it: "no game", "no map").
        EngineError: a file that does not parse, or an ``extends`` chain that loops or names a
            missing file.
    """
    chain: list[str] = []
    layers: list[dict[str, Any]] = []
    current: str | None = name
    while current is not None:
        if current in chain or not current.replace("-", "").isalnum():
            raise EngineError(f"{name!r} extends {current!r}, which cannot be read")
        chain.append(current)
        place = resources.files("hexlan.seeds")
        if folder:
            place = place.joinpath(folder)
        try:
            raw = tomllib.loads(place.joinpath(f"{current}.toml").read_text("utf-8"))
        except FileNotFoundError:
            if current == name:
                raise
            raise EngineError(f"{name!r} extends {current!r}, which does not exist") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise EngineError(f"cannot read {current!r}: {exc}") from exc
        parent = raw.pop("extends", None)
        layers.append(raw)
        current = None if parent is None else str(parent)
    result: dict[str, Any] = {}
    for layer in reversed(layers):
        result = merged(result, layer)
    return result


def seed_names(folder: str = "") -> tuple[str, ...]:
    """The names of the data files in ``seeds/<folder>`` (``folder`` "" for seeds/ itself),
    without ``.toml``, sorted: every game (or, in ``boards``, every map) hexlan has, found by
    reading the folder, so adding one is adding its file."""
    place = resources.files("hexlan.seeds")
    if folder:
        place = place.joinpath(folder)
    return tuple(
        sorted(
            entry.name.removesuffix(".toml")
            for entry in place.iterdir()
            if entry.name.endswith(".toml") and entry.is_file()
        )
    )


def parse_cost(values: Any, kinds: int = len(RESOURCES)) -> Hand:
    """A cost from a rule set's data: non-negative integers in card-kind order, one per kind of
    the game (``kinds``), or five in a game of more kinds (the resources; any commodity then
    costs 0).

    >>> parse_cost([1, 0, 1, 0, 0]), parse_cost([1, 0, 1, 0, 0], kinds=8)
    ((1, 0, 1, 0, 0), (1, 0, 1, 0, 0, 0, 0, 0))

    Raises:
        EngineError: not ``kinds`` (or five, when more) non-negative integers.
    """
    if (
        not isinstance(values, list)
        or not (len(values) == kinds or len(values) == len(RESOURCES) < kinds)
        or any(not isinstance(v, int) or v < 0 for v in values)
    ):
        raise EngineError(f"a cost must be {kinds} non-negative integers, not {values!r}")
    return (*values, *[0] * (kinds - len(values)))
