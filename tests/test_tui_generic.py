"""The generic TUI names no game (issue 24): read by their syntax trees, the modules of tui/ that
no game's spec names as its ``keys`` or ``views`` refer to no game's rules class, action or
phase, and compare nothing with a game's name; what a game adds comes through the slots and
registries its own modules fill (tui/slots.py, tui/screen_keys.py, tui/actionkeys.py).

tests/test_registration.py checks the imports (no module beside the games' imports a rules
module); this checks the names used, which an import of the package, an attribute of a module or
a string compared with ``variant.name`` would slip past.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
from pathlib import Path

from hexlan.engine.actions import Action
from hexlan.engine.variants import SPECS, game_specs
from hexlan.engine.variants.base import Variant

ROOT = Path(__file__).resolve().parent.parent


def _generic_modules() -> dict[str, Path]:
    """The modules of tui/ by dotted name, but those a game's spec names as its own."""
    own = {m for spec in game_specs() for m in (*spec.keys, *spec.views)}
    found = {}
    for path in (ROOT / "tui").rglob("*.py"):
        parts = path.relative_to(ROOT / "tui").with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        module = ".".join(("hexlan.tui", *parts))
        if module not in own:
            found[module] = path
    return found


def _game_names() -> set[str]:
    """The names of what each game defines in its rules modules: its rules class (and those
    it derives from), its action classes and its phases (and other enums)."""
    names: set[str] = set()
    for spec in SPECS.values():
        if spec.rules is None:
            continue
        module = importlib.import_module(spec.rules.__module__)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            from_game = cls.__module__.startswith("hexlan.engine.variants.")
            game_kind = issubclass(cls, (Variant, Action, enum.Enum))
            if from_game and game_kind and cls.__module__ != Variant.__module__:
                names.add(cls.__name__)
    return names


def _game_words() -> set[str]:
    """Every game's name as its rules class and rule sets say it (``"seafarers"``)."""
    return {spec.name for spec in SPECS.values() if spec.rules is not None} | {
        spec.rules.name for spec in SPECS.values() if spec.rules is not None
    }


def _compared(node: ast.Compare) -> list[str]:
    """The strings ``node`` compares (``variant.name == "jungle"``, ``name in ("a", "b")``)."""
    found = []
    for side in (node.left, *node.comparators):
        items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
        found += [
            i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
        ]
    return found


def _namings(path: Path, names: set[str], words: set[str]) -> list[str]:
    """Where the module at ``path`` names one of ``names`` (a name, an attribute, an import)
    or compares a string of ``words`` (a string elsewhere may be a terrain's word, such as a
    jungle hex's, or a docstring's example)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        used: list[str] = []
        if isinstance(node, ast.Name):
            used = [node.id] if node.id in names else []
        elif isinstance(node, ast.Attribute):
            used = [node.attr] if node.attr in names | words else []  # variants.seafarers
        elif isinstance(node, ast.ImportFrom | ast.Import):
            used = [a.name.rpartition(".")[2] for a in node.names]
            used = [u for u in used if u in names | words]
        elif isinstance(node, ast.Compare):
            used = [u for u in _compared(node) if u in words]
        found += [f"{path.name}:{getattr(node, 'lineno', 0)}: {u}" for u in used]
    return found


def test_the_game_names_are_found() -> None:
    """The test's own ground: the rules classes and a game's actions and phases are seen."""
    names = _game_names()
    assert {"Seafarers", "PirateIslands", "BuildShip", "MovePirate", "SeaPhase"} <= names
    assert {"Variant", "BuildRoad", "Phase"}.isdisjoint(names)
    assert {"seafarers", "jungle"} <= _game_words()


def test_a_module_that_names_a_game_is_caught(tmp_path: Path) -> None:
    """A screen that branched on a game (``isinstance(view.variant, Seafarers)``, ``from
    hexlan.engine import variants`` then ``variants.seafarers.BuildShip``, a name compared)
    is caught, and a docstring's example is not."""
    module = tmp_path / "screen.py"
    module.write_text(
        '"""Seafarers\' ships, as an example."""\n'
        "from hexlan.engine import variants\n"
        "def ship(view):\n"
        '    """seafarers"""\n'
        "    if isinstance(view.variant, Seafarers):\n"
        "        return variants.seafarers.BuildShip\n"
        '    return view.variant.name == "jungle"\n',
        "utf-8",
    )
    found = {line.partition(": ")[2] for line in _namings(module, _game_names(), _game_words())}
    assert found == {"Seafarers", "seafarers", "BuildShip", "jungle"}


def test_the_generic_tui_names_no_game() -> None:
    """No generic TUI module names a game's rules class, action or phase, or compares a
    string with a game's name."""
    names, words = _game_names(), _game_words()
    found = [hit for path in _generic_modules().values() for hit in _namings(path, names, words)]
    assert not found, "\n".join(found)
