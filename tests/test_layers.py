"""Imports point one way: ``tui -> net -> engine`` (../shared/ARCHITECTURE.md, "Layout").

Every ``.py`` under engine/, net/, tui/ and hexlan/ is read with :mod:`ast` (never imported), and
every import counts: at the top of a module, inside a function, under ``if TYPE_CHECKING:``.

- Our layers: the engine imports only ``hexlan.engine`` (and the ``hexlan.seeds`` data); net
  adds ``hexlan.net``; tui adds ``hexlan.tui``. The application modules at the top of the
  package (hexlan/: cli, headless, simulate, chance) may import any layer, and no layer
  imports them. A layer import type checking alone needs is still a dependency: it counts.
- The engine is pure (no I/O, no asyncio, no randomness of its own, no crypto, no Textual): at
  run time it imports the standard library only, and none of :data:`ENGINE_FORBIDDEN`. A name
  imported under ``if TYPE_CHECKING:`` only (``random`` to annotate the ``random.Random`` a bot
  is built with) runs nothing and is allowed.
- Textual and Rich belong to tui/; asyncio, sockets and datagrams in net/ belong to the shells
  of :data:`NET_SHELLS` around the sans-IO core.
- The protocol's generic steps (:data:`GAME_BLIND`: the session, its audit, the peer, the deck
  show of PROTOCOL.md §7.3) name no game: they run a game's steps through the engine's generic
  layer (its chance nodes, :mod:`hexlan.engine.shown`), never importing ``hexlan.engine.variants``.
- No import cycle among the engine's modules. Here an import counts when it runs: at the top of a
  module or inside a function (an import deferred into a function hides a cycle from import
  time, not from the structure), and importing ``a.b.c`` runs the packages ``a.b`` and ``a``
  above it too, unless the importer is inside them (a package that imports its own modules is
  no cycle). An import under ``if TYPE_CHECKING:`` runs nothing and does not count: annotations
  may name a class of a module that imports theirs (every rules module names ``GameState``).

An exception goes in :data:`EXCEPTIONS` with its reason.
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"engine": "hexlan.engine", "net": "hexlan.net", "tui": "hexlan.tui", "hexlan": "hexlan"}
"""The repository's source folders and the package each is installed as (pyproject.toml)."""

LAYERS = {
    "engine": {"engine", "seeds"},
    "net": {"engine", "net", "seeds", "i18n"},
    "tui": {"engine", "net", "tui", "seeds", "i18n"},
    "app": {"engine", "net", "tui", "seeds", "app", "i18n"},
    "i18n": {"i18n"},
}
"""The layers each layer may import from; "app" is the top of the package (hexlan/*.py), and
"i18n" is :mod:`hexlan.i18n` (translations: the standard library only), which every layer but
the engine may use (issue 27)."""

ENGINE_FORBIDDEN = frozenset(
    {
        "asyncio",
        "concurrent",
        "multiprocessing",
        "os",
        "random",
        "secrets",
        "selectors",
        "signal",
        "socket",
        "ssl",
        "subprocess",
        "threading",
        "time",
    }
)
"""Standard modules the engine never imports at run time (I/O, concurrency, clocks, chance)."""

UI_ONLY = frozenset({"textual", "rich"})
"""Third-party modules only tui/ imports."""

NET_IO = frozenset({"asyncio", "asyncio_dgram", "socket", "selectors"})
"""Modules only the shells of net/ import at run time."""
NET_SHELLS = frozenset(
    {
        "hexlan.net.transport",
        "hexlan.net.peer",
        "hexlan.net.lobby",
        "hexlan.net.discovery",
        "hexlan.net.watch",
    }
)
"""net/'s asyncio shells: the TCP mesh, the lobby, the LAN discovery beacons and the
spectator's connection to the host (around the observer session)."""

GAME_BLIND = frozenset(
    {"hexlan.net.session", "hexlan.net.audit", "hexlan.net.peer", "hexlan.net.spy"}
)
"""net/ modules that import no game's rules module (``hexlan.engine.variants``)."""

EXCEPTIONS: dict[tuple[str, str], str] = {}
"""``(importing module, imported module)`` pairs that break a rule above, with why."""


@dataclass(frozen=True, slots=True)
class Import:
    """One imported module name as written (``from a.b import c`` gives ``a.b.c``)."""

    module: str
    """The importing module."""
    name: str
    path: str
    line: int
    type_only: bool
    """Under ``if TYPE_CHECKING:``: nothing is imported at run time."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.module} imports {self.name}"


def _module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = [*FOLDERS[folder].split("."), *rest]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(path: Path) -> list[Import]:
    module = _module_name(path)
    is_package = path.name == "__init__.py"
    found: list[Import] = []
    shown = str(path.relative_to(ROOT))

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, shown, node.lineno, type_only))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                package = module.split(".")
                package = package if is_package else package[:-1]
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                name = base if alias.name == "*" else f"{base}.{alias.name}"
                found.append(Import(module, name, shown, node.lineno, type_only))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=shown), False)
    return found


def _all_imports() -> list[Import]:
    return [
        item
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for item in _imports_of(path)
    ]


IMPORTS = _all_imports()


def _layer(name: str) -> str | None:
    """Which of our layers a dotted module name belongs to; None outside hexlan."""
    parts = name.split(".")
    if parts[0] != "hexlan":
        return None
    if len(parts) > 1 and parts[1] in {"engine", "net", "tui", "seeds", "i18n"}:
        return parts[1]
    return "app"


def _top(name: str) -> str:
    return name.split(".", maxsplit=1)[0]


def _assert_none(rule: str, items: list[Import]) -> None:
    """Fail listing every import that breaks ``rule`` and is no :data:`EXCEPTIONS` entry."""
    broken = [str(item) for item in items if (item.module, _owner(item)) not in EXCEPTIONS]
    assert not broken, f"{rule}:\n  " + "\n  ".join(broken)


def _owner(item: Import) -> str:
    """The imported module an exception names: ``hexlan.net.cheats`` for ``hexlan.net.cheats.CheatKind``."""
    return next(
        (
            imported
            for module, imported in EXCEPTIONS
            if module == item.module and (item.name + ".").startswith(imported + ".")
        ),
        item.name,
    )


def test_every_source_file_is_read() -> None:
    """The walk sees every folder, imports inside functions and type-only imports."""
    by_module = {(i.module, i.name): i for i in IMPORTS}
    assert {_layer(i.module) for i in IMPORTS} == {"engine", "net", "tui", "app", "i18n"}
    inside_a_function = by_module[("hexlan.net.lobby", "hexlan.net.discovery.Announcer")]
    assert not inside_a_function.type_only
    assert by_module[("hexlan.net.wire", "hexlan.net.identity.Identity")].type_only


@pytest.mark.parametrize("layer", ["engine", "net", "tui", "i18n"])
def test_layers_import_only_downwards(layer: str) -> None:
    allowed = LAYERS[layer]
    wrong = [
        i
        for i in IMPORTS
        if _layer(i.module) == layer
        and (target := _layer(i.name)) is not None
        and target not in allowed
    ]
    _assert_none(f"{layer} may import only {sorted(allowed)}", wrong)


def test_the_engine_is_pure() -> None:
    runtime = [i for i in IMPORTS if _layer(i.module) == "engine" and not i.type_only]
    outside = [
        i
        for i in runtime
        if _layer(i.name) is None
        and (_top(i.name) not in sys.stdlib_module_names or _top(i.name) in ENGINE_FORBIDDEN)
    ]
    _assert_none(
        f"the engine imports the standard library only, none of {sorted(ENGINE_FORBIDDEN)}",
        outside,
    )


def test_textual_and_rich_only_in_the_tui() -> None:
    wrong = [i for i in IMPORTS if _top(i.name) in UI_ONLY and _layer(i.module) != "tui"]
    _assert_none("Textual and Rich are tui/'s", wrong)


def test_asyncio_and_sockets_only_in_the_net_shells() -> None:
    wrong = [
        i
        for i in IMPORTS
        if _layer(i.module) == "net"
        and not i.type_only
        and _top(i.name) in NET_IO
        and i.module not in NET_SHELLS
    ]
    _assert_none(f"net/'s sans-IO core: only {sorted(NET_SHELLS)} do I/O", wrong)


def test_the_generic_protocol_steps_import_no_game() -> None:
    """A hand or deck cards shown to one seat (§7.2, §7.3) run on the engine's generic layer."""
    assert {i.module for i in IMPORTS} >= GAME_BLIND
    wrong = [
        i
        for i in IMPORTS
        if i.module in GAME_BLIND and (i.name + ".").startswith("hexlan.engine.variants.")
    ]
    _assert_none(f"{sorted(GAME_BLIND)} import nothing from hexlan.engine.variants", wrong)


ENGINE_MODULES = frozenset(_module_name(path) for path in (ROOT / "engine").rglob("*.py"))
"""Every module and package of the engine, by name."""


def _runs(item: Import, modules: frozenset[str]) -> list[str]:
    """The modules among ``modules`` that ``item`` runs: the module it names (``a.b.c`` for
    ``from a.b import c`` when ``c`` is a module, else ``a.b``), then each package above that one
    which ``item.module`` is not inside."""
    parts = item.name.split(".")
    named = [".".join(parts[:n]) for n in range(len(parts), 0, -1)]
    found = [name for name in named if name in modules]
    if not found:
        return []
    target, *above = found
    run = [package for package in above if not item.module.startswith(package + ".")]
    return [name for name in (target, *run) if name != item.module]


def _import_graph(imports: list[Import], modules: frozenset[str]) -> dict[str, dict[str, Import]]:
    """Which of ``modules`` each of them runs by importing (type-only imports left out), with
    the first import statement that does."""
    graph: dict[str, dict[str, Import]] = {module: {} for module in sorted(modules)}
    for item in imports:
        if item.module in graph and not item.type_only:
            for target in _runs(item, modules):
                graph[item.module].setdefault(target, item)
    return graph


def _import_cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """One cycle per strongly connected group of ``graph`` (Tarjan's algorithm): the shortest
    through the group's first module by name, in import order, that module repeated at the
    end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for module in graph:
        if module not in index:
            connect(module)
    cycles = []
    for group in groups:
        first, members = group[0], set(group)
        paths = {first: [first]}
        frontier = deque([first])
        while frontier:
            module = frontier.popleft()
            if first in graph[module]:
                cycles.append([*paths[module], first])
                break
            for target in graph[module]:
                if target in members and target not in paths:
                    paths[target] = [*paths[module], target]
                    frontier.append(target)
    return cycles


def _shown(cycle: list[str], graph: dict[str, dict[str, Import]]) -> str:
    return " -> ".join(cycle) + "".join(
        f"\n    {graph[module][target]}" for module, target in itertools.pairwise(cycle)
    )


def test_no_import_cycle_among_engine_modules() -> None:
    """Imports inside functions count (:func:`_imports_of` reads them as run-time imports, which
    :func:`test_every_source_file_is_read` checks); type-only imports do not."""
    graph = _import_graph(IMPORTS, ENGINE_MODULES)
    assert len(graph) > 40, "the engine's modules were not found"
    cycles = _import_cycles(graph)
    assert not cycles, "import cycles among the engine's modules:\n  " + "\n  ".join(
        _shown(cycle, graph) for cycle in cycles
    )


def test_the_cycle_check_follows_packages_and_skips_type_only_imports() -> None:
    """A cycle closed through the package a module is imported from is found and named; one
    closed by a type-only import, or by a package importing its own module, is none."""
    modules = frozenset({"e.rules", "e.registry", "e.games", "e.games.sea", "e.games.base"})

    def imports(*edges: tuple[str, str, bool]) -> list[Import]:
        return [
            Import(a, b, "e.py", line, type_only) for line, (a, b, type_only) in enumerate(edges)
        ]

    games = imports(
        ("e.registry", "e.games.HOOKS", False),  # from e.games import HOOKS
        ("e.games", "e.games.sea.Sea", False),  # a package imports its own module
        ("e.games.sea", "e.games.base.Game", False),  # (e.games is being imported already)
        ("e.games.sea", "e.rules.parse_cost", False),
    )
    assert _import_cycles(_import_graph(games, modules)) == []
    faces = imports(("e.rules", "e.registry.FACES", False))  # inside a function, say
    cycles = _import_cycles(_import_graph(games + faces, modules))
    assert cycles == [["e.games", "e.games.sea", "e.rules", "e.registry", "e.games"]]
    faces = imports(("e.rules", "e.registry.FACES", True))  # under if TYPE_CHECKING:
    assert _import_cycles(_import_graph(games + faces, modules)) == []
    through_the_package = imports(("e.rules", "e.games.base.Game", False))
    graph = _import_graph(games + through_the_package, modules)
    assert _import_cycles(graph) == [["e.games", "e.games.sea", "e.rules", "e.games"]]
    assert _shown(_import_cycles(graph)[0], graph).splitlines()[1:] == [
        "    e.py:1: e.games imports e.games.sea.Sea",
        "    e.py:3: e.games.sea imports e.rules.parse_cost",
        "    e.py:0: e.rules imports e.games.base.Game",
    ]


def test_every_exception_is_still_needed() -> None:
    used = {(i.module, _owner(i)) for i in IMPORTS}
    assert set(EXCEPTIONS) <= used, f"stale exceptions: {set(EXCEPTIONS) - used}"
