"""Adding a game is a data file and its own modules: it edits no central list (issue 24).

Two ways of saying so:

- By doing it: the package is copied as installed (hexlan/, with engine/, net/, tui/ and seeds/
  inside it, as pyproject.toml's package-dir maps them) into a temporary folder, a new game is
  added there as a seeds/ file and a rules module with its spec and nothing else, and a real
  ``python -m hexlan simulate`` plays it with its own option, while ``--help`` lists it.
- By reading the files: the modules that gather the games (the rule sets' list, the registry
  of actions, the options, the spec finder, the narration and TUI key packages) name no game.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hexlan.engine.ruleset import GAMES
from hexlan.engine.variants import SPECS, declared_options

ROOT = Path(__file__).resolve().parent.parent

TOY_RULES = '''\
"""A toy game for tests/test_registration.py: the base game where a 7 spares bigger hands."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from hexlan.engine.gamespec import GameOption, GameSpec
from hexlan.engine.variants.base import Variant

if TYPE_CHECKING:
    from hexlan.engine.core import Seat
    from hexlan.engine.state import GameState


class Toy(Variant):
    """Each seat may hold ``toy_hand_bonus`` more cards on a 7."""

    name: ClassVar[str] = "toy"

    def hand_limit_bonus(self, state: GameState, seat: Seat) -> int:
        return self.options.number("toy_hand_bonus") or 0


SPEC: Final = GameSpec(
    name="toy",
    rules=Toy,
    place=99,
    options=(GameOption("toy_hand_bonus", None, lambda n: f"{n} more cards on a 7"),),
)
'''

TOY_SEED = 'extends = "base"\nname = "toy"\nhooks = "toy"\n'

CENTRAL = (
    "engine/ruleset.py",
    "engine/registry.py",
    "engine/options.py",
    "engine/gamespec.py",
    "engine/variants/__init__.py",
    "engine/variants/base.py",
    "net/tellers/__init__.py",
    "tui/games/__init__.py",
)
"""The modules that gather every game: none may name one (the base game aside, which
:data:`~hexlan.engine.gamespec.BASE_SPEC` is)."""


def _installed_copy(tmp: Path) -> Path:
    """The package laid out as installed, under ``tmp``: ``tmp/hexlan`` with the repository's
    engine/, net/, tui/ and seeds/ folders inside it; the folder to put on ``sys.path``."""
    package = tmp / "hexlan"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "hexlan", package, ignore=ignore)
    for folder in ("engine", "net", "tui", "seeds"):
        shutil.copytree(ROOT / folder, package / folder, ignore=ignore)
    return tmp


def test_a_new_game_is_its_files_alone(tmp_path: Path) -> None:
    """A rules module with a spec and a seeds/ file make a game `hexlan` plays with its option,
    with no other file touched."""
    base = _installed_copy(tmp_path)
    (base / "hexlan/engine/variants/toy.py").write_text(TOY_RULES, "utf-8")
    (base / "hexlan/seeds/toy.toml").write_text(TOY_SEED, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(base)}

    def hexlan(*args: str) -> subprocess.CompletedProcess[str]:
        """``python -m hexlan ARGS`` from the copy, as a person would run it."""
        return subprocess.run(
            [sys.executable, "-m", "hexlan", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=env,
            cwd=tmp_path,
        )

    command = ("simulate", "--game", "toy", "--games", "1")
    run = hexlan(*command, "--bots", "random", "--json", "--option", "toy_hand_bonus=3")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["game"] == "toy" and report["options"] == {"toy_hand_bonus": 3}
    assert len(report["games"]) == 1
    refused = hexlan(*command, "--option", "jungle_number=4")
    assert refused.returncode != 0 and "the toy game has no option 'jungle_number'" in (
        refused.stderr + refused.stdout
    )
    listed = hexlan("play", "--help")
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"\btoy\b", listed.stdout)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _game_words() -> set[str]:
    """What names a game in code: its rule set's and spec's names, its rules class's, and its
    options' names."""
    names = {game for game in GAMES if game != "base"} | {s for s in SPECS if s != "base"}
    classes = {spec.rules.__name__ for spec in SPECS.values() if spec.rules is not None}
    return names | {name.replace("-", "_") for name in names} | classes | set(declared_options())


def test_the_modules_that_gather_games_name_none() -> None:
    """No game's name in the code of the gathering modules (their strings, names and imports;
    their docs may give examples): they find the games in seeds/ and engine/variants/."""
    words = _game_words()
    found = []
    for path in CENTRAL:
        tree = ast.parse((ROOT / path).read_text("utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            named: list[str] = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                named = [] if id(node) in docs else re.findall(r"[\w-]+", node.value)
            elif isinstance(node, ast.Name):
                named = [node.id]
            elif isinstance(node, ast.Attribute):
                named = [node.attr]
            elif isinstance(node, ast.ImportFrom):
                named = [*(node.module or "").split("."), *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                named = [part for a in node.names for part in a.name.split(".")]
            line = getattr(node, "lineno", 0)
            found += [f"{path}:{line}: {w}" for w in named if w in words]
    assert not found, "\n".join(found)


STILL_NAMING_GAMES: dict[str, str] = {}
"""Modules outside the games' own (engine/variants/ and what each spec names as its tellers,
keys, views, bots and cheats) that still import a game's rules module, with what for: the
ceiling issue 24 brought down to none. No module may join."""


def _source_modules() -> dict[str, str]:
    """Every module of engine/, net/, tui/ and hexlan/ by its repository path, mapped to the
    dotted name it is installed as."""
    prefixes = {"engine": "hexlan.engine", "net": "hexlan.net", "tui": "hexlan.tui"}
    found = {}
    for folder, package in {**prefixes, "hexlan": "hexlan"}.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found[str(path.relative_to(ROOT))] = ".".join((package, *parts))
    return found


def _imports_a_game(path: Path) -> bool:
    """Whether the module imports any game's rules module (``hexlan.engine.variants.X`` for a
    module X other than ``base``, or a rules class the package re-exports)."""
    games = {p.stem for p in (ROOT / "engine/variants").iterdir() if p.stem != "base"}
    classes = {spec.rules.__name__ for spec in SPECS.values() if spec.rules is not None}
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            named = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        else:
            continue
        for name in named:
            first = name.removeprefix("hexlan.engine.variants.").split(".")[0]
            if name.startswith("hexlan.engine.variants.") and first in games | classes:
                return True
    return False


def test_no_module_beside_the_games_imports_one() -> None:
    """net/, tui/, the bots and the application import no game's rules module, except the
    modules a game's spec names as its own and those :data:`STILL_NAMING_GAMES` lists."""
    own = {
        m
        for spec in SPECS.values()
        for m in (*spec.tellers, *spec.keys, *spec.views, *spec.bots, *spec.cheats)
    }
    naming = {
        path
        for path, module in _source_modules().items()
        if not path.startswith("engine/variants/")
        and module not in own
        and _imports_a_game(ROOT / path)
    }
    assert naming <= set(STILL_NAMING_GAMES), f"new: {sorted(naming - set(STILL_NAMING_GAMES))}"
    assert set(STILL_NAMING_GAMES) <= naming, (
        f"no longer naming a game, strike them: {sorted(set(STILL_NAMING_GAMES) - naming)}"
    )


def test_every_game_has_a_spec_and_every_spec_a_game() -> None:
    """Each rule set's ``hooks`` names a spec, and each spec is played by some rule set."""
    from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset, state_spec
    from hexlan.engine.variants import spec_for

    own = {spec.name for game in GAMES if (spec := state_spec(game)) is not None}
    played = {spec_for(load_ruleset(game)).name for game in CATAN_GAMES} | own
    assert played == set(SPECS)


def test_no_rules_module_touches_another_classs_private_members() -> None:
    """The rules modules (engine/variants/) call the engine through its public members (the
    rules kit on :class:`~hexlan.engine.state.GameState`: ``pay_bank``, ``take_from_bank``,
    ``finish_roll``, ``paths_changed``, ...), never ``state._something``: only ``self`` and
    ``cls`` reach a private member."""
    found = []
    for path in sorted((ROOT / "engine/variants").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"})
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert not found, "\n".join(found)
