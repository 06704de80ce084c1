"""Translations: the language hexlan speaks to a person (issue 27).

English is the source language: every string a person reads is written in English in the code,
marked for translation, and looked up in the catalog of the language in force when it is shown.
The catalogs are GNU gettext catalogs, one per language, at
``hexlan/locale/<lang>/LC_MESSAGES/hexlan.po`` (the source a translator edits) beside its
compiled ``hexlan.mo`` (what this module reads, with the standard library's :mod:`gettext`).
``scripts/catalogs.py`` refreshes them with Babel: it extracts every marked string into
``hexlan/locale/hexlan.pot``, merges that into each ``.po`` and compiles the ``.mo`` files, which
are committed, so installing hexlan needs nothing more.

How to write a translatable string:

* ``_("Roll the dice")``: a whole sentence or label, looked up when the call runs.
* ``ngettext("{n} card", "{n} cards", n).format(n=n)``: anything counted. Russian has three
  plural forms (1 карта, 2 карты, 5 карт); the catalog's ``Plural-Forms`` header picks one.
* ``pgettext("key", "Trade")``: a short string whose sense needs a context for the translator.
* ``N_("Base game")``: marks a string kept in a constant (a module is imported before the
  language is chosen); translate it with ``_(constant)`` where it is shown.
* Placeholders are named, ``{seat}``, and filled with :meth:`str.format` after the lookup.
  Translate whole sentences with placeholders; never glue translated fragments together.

What never changes with the language: anything on the wire or in a log (the narration of a
game is built on each screen from the events, in its reader's language), JSON keys and values,
board labels (``aa``-``bx``) and key bindings.

The language is chosen once per process (:func:`set_language`): ``--lang`` on a command, else
the saved ``lang`` setting, else ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (the first one set
decides, as POSIX says), else English. This module imports nothing but the standard library.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DOMAIN: Final = "hexlan"
"""The gettext domain: the catalogs' file name."""

SOURCE_LANGUAGE: Final = "en"
"""The language the strings are written in; it has no catalog."""

LANGUAGES: Final = ("en", "ru")
"""The languages hexlan speaks, as ``--lang`` takes them."""

LOCALE_DIR: Final = Path(__file__).with_name("locale")
"""The folder of the catalogs: ``<lang>/LC_MESSAGES/hexlan.mo`` under it."""

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language: str = SOURCE_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for, one of :data:`LANGUAGES`.

    Args:
        environ: the environment to read (``os.environ`` when None).

    Returns:
        The language of the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and
        not empty (``ru_RU.UTF-8`` is ``ru``), if hexlan speaks it; else English (also for the
        ``C`` and ``POSIX`` locales).
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def set_language(language: str | None) -> str:
    """Speak ``language`` from now on, in this whole process.

    Args:
        language: one of :data:`LANGUAGES`, or None for :func:`language_from_environment`.

    Returns:
        The language now in force.

    Raises:
        ValueError: ``language`` is not one of :data:`LANGUAGES`.
    """
    global _translations, _language  # noqa: PLW0603 - one language per process, by design
    chosen = language_from_environment() if language is None else language
    if chosen not in LANGUAGES:
        raise ValueError(f"no language {chosen!r} (languages: {', '.join(LANGUAGES)})")
    if chosen == SOURCE_LANGUAGE:
        _translations = gettext.NullTranslations()
    else:
        _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen])
    _language = chosen
    return chosen


def current_language() -> str:
    """The language in force, one of :data:`LANGUAGES`."""
    return _language


def _(message: str) -> str:
    """``message`` (an English string) in the language in force."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase for ``n`` in the language in force.

    Args:
        singular: the English form for one (``"{n} card"``).
        plural: the English form for other counts (``"{n} cards"``).
        n: the count that picks the form (the catalog's plural rule; Russian has three).
    """
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, as meant in ``context`` (``"key"``, ``"board"``):
    for a short string whose translation depends on where it stands."""
    return _translations.pgettext(context, message)


def N_(message: str) -> str:
    """``message`` unchanged: marks a string kept in a constant for extraction; show it
    with ``_(constant)``."""
    return message
