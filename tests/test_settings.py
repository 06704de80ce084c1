"""Saved settings (hexlan/settings.py): `hexlan settings` saves and shows them, every command a
person runs takes them as its options' defaults, the command line overrides them, and a broken
file gives one-line warnings and the built-in defaults, never a traceback."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hexlan.cli import main


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """The user config directory (``$XDG_CONFIG_HOME``) of the commands run by :func:`run`."""
    return tmp_path / "config"


def run(config: Path, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"XDG_CONFIG_HOME": str(config)})


def settings_file(config: Path) -> Path:
    return config / "hexlan" / "settings.toml"


@pytest.fixture
def runners(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """What the app runners of `play` and `host` are given (caught, as in
    tests/test_cli_options.py: the TUI tests run the real ones)."""
    import hexlan.tui.app as tui_app

    seen: dict[str, object] = {}
    monkeypatch.setattr(tui_app, "run_play", lambda **kw: seen.setdefault("play", kw) and 0)
    monkeypatch.setattr(tui_app, "run_host", lambda options: seen.setdefault("host", options) and 0)
    return seen


def test_settings_are_saved_as_toml_and_shown(config: Path) -> None:
    empty = run(config, "settings")
    assert empty.exit_code == 0 and "none saved" in empty.output
    saved = run(config, "settings", "name=Ann", "bell=no", "bot-delay=0.25", "strategy=random")
    assert saved.exit_code == 0, saved.output
    assert tomllib.loads(settings_file(config).read_text()) == {
        "name": "Ann",
        "bell": False,
        "bot_delay": 0.25,
        "strategy": "random",
    }
    shown = run(config, "settings").output
    assert 'name = "Ann"' in shown and "bell = false" in shown and "bot_delay = 0.25" in shown
    assert str(settings_file(config)) in shown
    again = run(config, "settings", "name=Bo")  # one more value keeps the others
    assert again.exit_code == 0
    assert tomllib.loads(settings_file(config).read_text())["bell"] is False


def test_a_value_an_option_refuses_is_not_saved(config: Path) -> None:
    run(config, "settings", "bot_delay=1")
    for item, words in (
        ("bot_delay=99", "0<=x<=10"),
        ("strategy=genius", "genius"),
        ("colour=red", "KEY one of"),
        ("name", "KEY=VALUE"),
    ):
        result = run(config, "settings", item)
        assert result.exit_code == 2 and words in result.output, (item, result.output)
        assert "Traceback" not in result.output
    assert tomllib.loads(settings_file(config).read_text()) == {"bot_delay": 1.0}


def test_settings_are_the_defaults_and_the_command_line_overrides_them(
    config: Path, runners: dict[str, object]
) -> None:
    run(config, "settings", "name=Ann", "bot_delay=0.1", "bell=false", "strategy=random")
    assert run(config, "play").exit_code == 0
    play = runners.pop("play")
    assert isinstance(play, dict)
    assert (play["name"], play["bot_delay"], play["bell"], play["strategy"]) == (
        "Ann",
        0.1,
        False,
        "random",
    )
    assert run(config, "play", "--name", "Cy", "--bell", "--bot-delay", "2").exit_code == 0
    play = runners.pop("play")
    assert isinstance(play, dict)
    assert (play["name"], play["bot_delay"], play["bell"]) == ("Cy", 2.0, True)
    assert run(config, "host").exit_code == 0
    host = runners["host"]
    assert getattr(host, "name", None) == "Ann" and getattr(host, "bell", None) is False


def test_a_bot_process_keeps_its_own_defaults(config: Path) -> None:
    """`hexlan bot` plays for nobody: a person's name and strategy are not a bot's."""
    plain = run(config, "bot", "--help").output
    run(config, "settings", "name=Ann", "strategy=random")
    assert run(config, "bot", "--help").output == plain


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("[[[", "not TOML"),
        ('name = "Ann"\ncolour = "red"\n', "no setting 'colour'"),
        ('name = "Ann"\nbot_delay = "fast"\n', "ignoring the setting bot_delay"),
        ('name = "Ann"\nbell = "no"\n', "ignoring the setting bell"),
        ("name = 3\nbot_delay = 0.1\n", "ignoring the setting name"),
        (b"\xff\xfe", "ignoring the settings file"),
    ],
)
def test_a_broken_file_warns_in_one_line_and_keeps_the_rest(
    config: Path, runners: dict[str, object], text: str | bytes, warning: str
) -> None:
    path = settings_file(config)
    path.parent.mkdir(parents=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    result = run(config, "play")
    assert result.exit_code == 0 and "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("hexlan: ")]
    assert len(lines) == 1 and warning in lines[0], result.stderr
    play = runners["play"]
    assert isinstance(play, dict)
    good = tomllib.loads(text) if isinstance(text, str) and text != "[[[" else {}
    assert play["name"] == (good["name"] if isinstance(good.get("name"), str) else "You")
    assert play["bell"] is True  # never a string's truth
    assert play["bot_delay"] == (0.1 if good.get("bot_delay") == 0.1 else 0.6)
