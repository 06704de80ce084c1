"""The examples in the docstrings of every module of the package run (engine, net, tui, hexlan).

The one doctest collector: modules are found, never listed. The packages are those of
pyproject.toml's ``[tool.setuptools] packages`` (an editable install maps the repository's
top-level folders into ``hexlan``, which hides them from ``pkgutil.walk_packages("hexlan")``), and
each package's modules come from :func:`pkgutil.iter_modules`; a module gaining examples is
collected without any change here.
"""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _packages() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        packages: list[str] = tomllib.load(file)["tool"]["setuptools"]["packages"]
    return packages


def _modules() -> list[str]:
    """Every module and package of the installed package, by name."""
    names = []
    for package in _packages():
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.ispkg]
    return names


MODULES = _modules()


def test_every_source_file_is_a_collected_module() -> None:
    """No .py file of the source folders escapes the collector (say, a package missing from
    pyproject.toml)."""
    files = {Path(importlib.import_module(name).__file__ or "").resolve() for name in MODULES}
    for folder in ("engine", "net", "tui", "hexlan"):
        for path in (ROOT / folder).rglob("*.py"):
            assert path.resolve() in files, f"{path.relative_to(ROOT)} is in no collected package"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner()
    out = io.StringIO()
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert not result.failed, out.getvalue()
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    assert result.attempted or ">>> " not in source, f"{name} shows examples that never ran"
