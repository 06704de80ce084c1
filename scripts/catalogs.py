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


def main() -> int:
    """Extract, merge and compile; returns the exit status."""
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
