"""Refresh the translation catalogs (issue 27), with Babel.

    .venv/bin/python scripts/catalogs.py

1. extracts every string marked with ``_``, ``N_``, ``ngettext`` or ``pgettext`` (hexlan.i18n)
   in hexlan/, engine/, net/ and tui/ into ``hexlan/locale/hexlan.pot``, sorted, without
   source locations (so that moving code does not touch the catalogs);
2. merges the template into each language's ``hexlan/locale/<lang>/LC_MESSAGES/hexlan.po``
   (a new string arrives untranslated; a string gone from the code is dropped);
3. compiles each ``.po`` into its ``.mo``, which hexlan reads and which is committed.

Then translate the new entries (empty ``msgstr``) in each ``.po`` and run it again to compile.
``tests/test_i18n.py`` fails while a string has no translation or a ``.mo`` is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "hexlan" / "locale"
TEMPLATE = LOCALE / "hexlan.pot"
SOURCES = ("hexlan", "engine", "net", "tui")
LANGUAGES = ("ru",)


def _babel(*argv: str) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *argv])  # type: ignore[no-untyped-call]


_DATE = re.compile(rb'^"POT-Creation-Date: [^"]*"\n', re.MULTILINE)


def _keep_unchanged(before: dict[Path, bytes]) -> None:
    """Put back each catalog whose only change is its ``POT-Creation-Date`` (so running the
    script twice changes nothing), and a ``.mo`` whose ``.po`` was put back."""
    restored = set()
    for path, old in before.items():
        if path.suffix != ".mo" and path.exists():
            new = path.read_bytes()
            if new != old and _DATE.sub(b"", new) == _DATE.sub(b"", old):
                path.write_bytes(old)
                restored.add(path.with_suffix(""))
    for path, old in before.items():
        if path.suffix == ".mo" and path.with_suffix("") in restored:
            path.write_bytes(old)


def main() -> int:
    """Extract, merge and compile; returns the exit status."""
    catalogs = [LOCALE / language / "LC_MESSAGES" / "hexlan" for language in LANGUAGES]
    files = [TEMPLATE, *(c.with_suffix(s) for c in catalogs for s in (".po", ".mo"))]
    before = {path: path.read_bytes() for path in files if path.exists()}
    _babel(
        "extract",
        "--sort-output",
        "--no-location",
        "--no-wrap",
        "--add-comments=Translators:",
        "--project=hexlan",
        "--copyright-holder=hexlan",
        f"--output-file={TEMPLATE}",
        *(str(ROOT / source) for source in SOURCES),
    )
    for language in LANGUAGES:
        catalog = LOCALE / language / "LC_MESSAGES" / "hexlan.po"
        step = "update" if catalog.exists() else "init"
        extra = (
            ("--no-fuzzy-matching", "--ignore-obsolete", "--no-wrap") if step == "update" else ()
        )
        _babel(
            step,
            "--domain=hexlan",
            f"--input-file={TEMPLATE}",
            f"--output-dir={LOCALE}",
            f"--locale={language}",
            *extra,
        )
    _babel("compile", "--domain=hexlan", f"--directory={LOCALE}", "--statistics")
    _keep_unchanged(before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
