"""The translation catalogs and the choice of language (issue 27, hexlan/i18n.py).

The catalog guards: every marked string has a Russian translation (every plural form), with the
same placeholders; the committed ``.mo`` is the ``.po`` compiled; the ``.po`` holds exactly the
strings the code marks (``scripts/catalogs.py`` refreshes it); the glossary's terms are used.
"""

from __future__ import annotations

import io
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner

from hexlan import i18n
from hexlan.cli import main
from hexlan.i18n import _, language_from_environment, ngettext, set_language

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "hexlan" / "locale"
RUSSIAN_PO = LOCALE / "ru" / "LC_MESSAGES" / "hexlan.po"
RUSSIAN_MO = LOCALE / "ru" / "LC_MESSAGES" / "hexlan.mo"
GLOSSARY = LOCALE / "glossary.toml"
SOURCES = ("hexlan", "engine", "net", "tui")


def _russian() -> Catalog:
    with RUSSIAN_PO.open("rb") as file:
        return read_po(file, locale="ru")


def _entries(catalog: Catalog) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(msgid, the English forms, the translations) of every message but the header."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        found.append((ids[0], ids, tuple(s or "" for s in strings)))
    return found


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_every_string_has_a_russian_translation_with_every_plural_form() -> None:
    catalog = _russian()
    assert catalog.num_plurals == 3  # 1 карта, 2 карты, 5 карт
    missing = [msgid for msgid, _, strings in _entries(catalog) if not all(strings)]
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    assert not missing, f"untranslated: {missing[:10]}"
    assert not fuzzy, f"fuzzy (check and clear the flag): {fuzzy[:10]}"
    plural = [strings for _, ids, strings in _entries(catalog) if len(ids) == 2]
    assert all(len(strings) == 3 for strings in plural)


def test_every_translation_has_the_placeholders_of_its_english() -> None:
    wrong = []
    for msgid, ids, strings in _entries(_russian()):
        expected = set().union(*map(_fields, ids))
        for translated in strings:
            try:
                fields = _fields(translated)
            except ValueError as exc:  # an unbalanced brace
                wrong.append((msgid, str(exc)))
                continue
            if fields != expected:
                wrong.append((msgid, translated))
    assert not wrong, wrong[:10]


def test_the_committed_mo_is_the_po_compiled() -> None:
    """``scripts/catalogs.py`` compiles the catalogs; a stale ``.mo`` would show old words."""
    compiled = io.BytesIO()
    write_mo(compiled, _russian())
    with RUSSIAN_MO.open("rb") as file:
        shipped = read_mo(file)
    rebuilt = read_mo(io.BytesIO(compiled.getvalue()))
    assert _by_id(shipped) == _by_id(rebuilt)


def _by_id(catalog: Catalog) -> dict[object, object]:
    """A compiled catalog's translations by msgid (a counted phrase's msgid, a list in a read
    ``.mo``, as a tuple)."""
    return {(tuple(m.id) if isinstance(m.id, list) else m.id): m.string for m in catalog if m.id}


def test_the_catalog_holds_exactly_the_strings_the_code_marks() -> None:
    marked: set[str] = set()
    for source in SOURCES:
        for _file, _line, message, _comments, _context in extract_from_dir(ROOT / source):
            marked.add(message if isinstance(message, str) else message[0])
    in_catalog = {msgid for msgid, _, _ in _entries(_russian())}
    assert not marked - in_catalog, (
        f"run scripts/catalogs.py: new {sorted(marked - in_catalog)[:10]}"
    )
    assert not in_catalog - marked, (
        f"run scripts/catalogs.py: gone {sorted(in_catalog - marked)[:10]}"
    )


def test_the_glossary_terms_are_the_ones_the_translations_use() -> None:
    """Each term of ``hexlan/locale/glossary.toml`` (seed 002's words) is translated the same
    way wherever an English string uses it."""
    import re

    terms = tomllib.loads(GLOSSARY.read_text("utf-8"))["term"]
    assert terms
    wrong = []
    for term in terms:
        english = re.compile(term["en"], re.IGNORECASE)
        russian = re.compile(term["ru"], re.IGNORECASE)
        for msgid, ids, strings in _entries(_russian()):
            if any(english.search(text) for text in ids):
                wrong += [(term["en"], msgid, s) for s in strings if not russian.search(s)]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_GB.UTF-8"}, "ru"),
        ({"LC_ALL": "", "LC_MESSAGES": "en_US", "LANG": "ru_RU"}, "en"),
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),  # the first one set decides
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "ru"}, "ru"),
        ({"LANG": "ru_UA.KOI8-U@euro"}, "ru"),
        ({}, "en"),
    ],
)
def test_the_locale_variables_choose_the_language(environ: dict[str, str], language: str) -> None:
    assert language_from_environment(environ) == language


def test_russian_is_spoken_once_chosen_and_english_again_after() -> None:
    message = "expected true or false"
    assert _(message) == message
    assert set_language("ru") == "ru"
    assert _(message) == "ожидается true или false"
    assert i18n.current_language() == "ru"
    set_language("en")
    assert _(message) == message
    with pytest.raises(ValueError, match="no language 'xx'"):
        set_language("xx")


def test_russian_counts_take_three_forms() -> None:
    """The plural rule of the catalog's header, through :func:`ngettext` (any counted phrase
    of the catalog; English has two forms, so 1 and 2 differ in both languages)."""
    plural = [ids for _, ids, _ in _entries(_russian()) if len(ids) == 2]
    if not plural:
        pytest.skip("no counted phrase is marked yet")
    singular, plural_form = plural[0]
    set_language("ru")
    forms = {n: ngettext(singular, plural_form, n) for n in (1, 2, 5, 11, 21, 22, 25)}
    assert forms[1] == forms[21] != forms[2]
    assert forms[2] == forms[22] != forms[5]
    assert forms[5] == forms[11] == forms[25]


def test_lang_on_a_command_and_in_the_settings(tmp_path: Path) -> None:
    runner = CliRunner()
    settings = tmp_path / "hexlan" / "settings.toml"
    settings.parent.mkdir()
    settings.write_text("bell = 3\n", "utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    english = runner.invoke(main, ["map", "--lang", "en", "--json"], env=env)
    russian = runner.invoke(main, ["map", "--lang", "ru", "--json"], env=env)
    before = runner.invoke(main, ["--lang", "ru", "map", "--json"], env=env)
    assert "ignoring the setting bell = 3: expected true or false" in english.stderr
    assert "настройка bell = 3 пропущена: ожидается true или false" in russian.stderr
    assert "ожидается true или false" in before.stderr
    settings.write_text('lang = "ru"\nbell = 3\n', "utf-8")
    saved = runner.invoke(main, ["map", "--json"], env=env)
    assert "ожидается true или false" in saved.stderr
    overridden = runner.invoke(main, ["map", "--json", "--lang=en"], env=env)
    assert "expected true or false" in overridden.stderr
    saved_by_command = runner.invoke(main, ["settings", "lang=ru"], env=env)
    assert saved_by_command.exit_code == 0, saved_by_command.output
    assert 'lang = "ru"' in settings.read_text("utf-8")
    settings.write_text('lang = "xx"\n', "utf-8")
    refused_setting = runner.invoke(main, ["map", "--json"], env=env)
    assert refused_setting.exit_code == 0
    assert "ignoring the setting lang = 'xx'" in refused_setting.stderr
    refused = runner.invoke(main, ["map", "--lang", "xx"], env=env)
    assert refused.exit_code == 2
    assert "'xx' is not one of 'en', 'ru'" in refused.output


def test_lang_from_the_locale_in_a_real_process(tmp_path: Path) -> None:
    """``LANG=ru_RU.UTF-8 hexlan ...`` speaks Russian, and ``--lang en`` overrides it."""
    config = tmp_path / "hexlan"
    config.mkdir()
    (config / "settings.toml").write_text("bell = 3\n", "utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path), "LANG": "ru_RU.UTF-8", "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "hexlan", "map", "--json"]
    russian = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    english = subprocess.run(
        [*command, "--lang", "en"], env=env, capture_output=True, text=True, check=True
    )
    assert "ожидается true или false" in russian.stderr
    assert "expected true or false" in english.stderr
