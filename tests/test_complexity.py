"""No function of hexlan above cyclomatic complexity 30 (radon), and the old ones only shrink.

The developers' guide sets the bar at 30 for every function. :data:`KNOWN` lists those that
were above it when this test came; all have since been brought under it, so it is empty and
every function is held to 30. A function not listed fails at 31; a listed one fails when it
grows, and, once brought to 30 or below, when it is still listed: strike it, so the bar holds
for it from then on.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("hexlan", "engine", "net", "tui", "seeds", "scripts")
BAR = 30
"""The highest cyclomatic complexity a function may have (the developers' guide)."""
KNOWN: dict[str, int] = {}
"""Functions above :data:`BAR` when the test came, with their complexity then: a ceiling."""


def complexities() -> dict[str, int]:
    """Every function and method of the source folders above :data:`BAR`, as
    ``"path:Class.name"`` (path relative to the repository): its complexity."""
    found: dict[str, int] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for block in cc_visit(path.read_text(encoding="utf-8")):
                blocks = [block, *getattr(block, "methods", ())]
                for item in blocks:
                    name = item.fullname if hasattr(item, "fullname") else item.name
                    if item.complexity > BAR and not hasattr(item, "methods"):
                        found[f"{path.relative_to(ROOT)}:{name}"] = item.complexity
    return found


def test_no_function_is_above_the_bar_or_above_its_old_ceiling() -> None:
    found = complexities()
    new = {name: c for name, c in found.items() if name not in KNOWN}
    assert not new, f"functions above complexity {BAR}: {new}; split them"
    grown = {name: (c, KNOWN[name]) for name, c in found.items() if c > KNOWN[name]}
    assert not grown, f"functions above the bar grew (now, then): {grown}"
    fixed = sorted(set(KNOWN) - set(found))
    assert not fixed, f"now at most {BAR}: strike them from KNOWN, so the bar holds: {fixed}"
