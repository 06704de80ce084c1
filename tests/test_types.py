"""The package type-checks: ``mypy --strict`` (pyproject.toml ``[tool.mypy]``) over the installed
layout.

setuptools maps the repository's top-level ``engine/``, ``net/``, ``tui/`` and ``seeds/`` into
the ``hexlan`` package (pyproject.toml), which hides them from mypy in an editable install; the
test builds that layout from symlinks in a temporary directory and checks it there.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("engine", "net", "tui", "seeds")


def test_the_package_type_checks(tmp_path: Path) -> None:
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
        ],
        cwd=tmp_path,
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
