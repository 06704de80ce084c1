"""The package and the scripts type-check in place: ``mypy --strict`` run as a developer runs it
after the README's install (``.venv/bin/mypy``, no arguments: pyproject.toml ``[tool.mypy]`` names
what it checks and how).

setuptools maps the repository's top-level ``engine/``, ``net/``, ``tui/``, ``seeds/`` and the
rules pages' ``docs/rules/`` into the ``hexlan`` package (pyproject.toml ``package-dir``); mypy finds modules by path and cannot read that
mapping, so ``.typecheck/hexlan/`` holds a symlink per mapped folder, and the configuration makes
``.typecheck/`` a package base (``explicit_package_bases``). The second test keeps those links and
the mapping in step.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINKS = ROOT / ".typecheck" / "hexlan"


def _config() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, object] = tomllib.load(file)["tool"]
    return config


def test_the_package_and_the_scripts_type_check(tmp_path: Path) -> None:
    # The developer's command with a cold cache of its own (nothing written into the repository).
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key != "MYPYPATH"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
    checked = int(result.stdout.split(" in ")[-1].split()[0])
    sources = [
        path
        for folder in ("hexlan", "engine", "net", "tui", "seeds", "docs/rules", "scripts")
        for path in (ROOT / folder).rglob("*.py")
    ]
    assert checked == len(sources), (checked, len(sources))


def test_the_links_follow_the_package_dir_mapping() -> None:
    """One link ``.typecheck/hexlan/<name> -> ../../<folder>`` for each top-level folder that
    pyproject.toml maps to ``hexlan.<name>``; nothing else there."""
    setuptools = _config()["setuptools"]
    assert isinstance(setuptools, dict)
    mapped = {
        package.removeprefix("hexlan."): folder
        for package, folder in setuptools["package-dir"].items()
        if package.count(".") == 1
    }
    links = {link.name: os.readlink(link) for link in LINKS.iterdir()}
    assert links == {name: f"../../{folder}" for name, folder in mapped.items()}
    for link in LINKS.iterdir():
        assert link.is_symlink() and link.is_dir(), link


def test_the_check_is_strict() -> None:
    """Strict mode stays on: every function typed, no implicit Any, no unused ignore."""
    mypy = _config()["mypy"]
    assert isinstance(mypy, dict)
    assert mypy["strict"] is True
