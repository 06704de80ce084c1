"""The package and the scripts type-check: ``mypy --strict`` (pyproject.toml ``[tool.mypy]``) over
the installed layout, and over ``scripts/`` (the benchmarks and tools, which import the package).

setuptools maps the repository's top-level ``engine/``, ``net/``, ``tui/`` and ``seeds/`` into
the ``hexlan`` package (pyproject.toml), which hides them from mypy in an editable install; the
test builds that layout from symlinks in a temporary directory and checks it there, in the same
run as the scripts (each a top-level module found on ``MYPYPATH``: ``scripts/`` is no package).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("engine", "net", "tui", "seeds")
SCRIPTS = sorted(script.stem for script in (ROOT / "scripts").glob("*.py"))
"""The scripts' module names (``scripts/`` is on ``MYPYPATH`` for the check)."""


def test_the_package_and_the_scripts_type_check(tmp_path: Path) -> None:
    package = tmp_path / "hexlan"
    package.mkdir()
    for source in (ROOT / "hexlan").iterdir():
        if source.suffix == ".py" or source.name == "py.typed":
            (package / source.name).symlink_to(source)
    for name in MAPPED:
        (package / name).symlink_to(ROOT / name, target_is_directory=True)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            "-p",
            "hexlan",
            *(arg for script in SCRIPTS for arg in ("-m", script)),
        ],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(ROOT / "scripts")},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_check_is_strict() -> None:
    """Strict mode stays on: every function typed, no implicit Any, no unused ignore."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        config = tomllib.load(file)["tool"]["mypy"]
    assert config["strict"] is True
