"""Reading the games' data files in seeds/: TOML, where one file may extend another.

A file that starts with ``extends = "NAME"`` is read over ``NAME.toml`` in the same folder: its
tables merge key by key into the parent's, and any other value (a list included) replaces the
parent's. So a variant states only what differs from the game or map it extends.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from hexlan.engine.core import EngineError


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
