"""Saved settings: the defaults a person keeps between games (issue 26 "Saved settings").

The settings file is ``settings.toml`` in the user config directory (platformdirs: on Linux
``$XDG_CONFIG_HOME/hexlan``, by default ``~/.config/hexlan``). It holds top-level keys named
after command-line options, each the default of that option in every command that has it::

    name = "Ann"          # --name: your name at a table
    bot_delay = 0.3       # --bot-delay: seconds between bot moves (play)
    strategy = "mcts"     # --strategy: the bots' strength (random, heuristic or mcts)
    think = 2.0           # --think: seconds a searching bot may think per decision
    bell = false          # --bell/--no-bell: the turn notice's bell
    title = true          # --title/--no-title: the turn notice's terminal title
    lang = "ru"           # --lang: the language (en or ru; else the locale's, issue 27)

An option given on the command line overrides its setting. ``hexlan settings`` shows the file
and the values in force, and ``hexlan settings KEY=VALUE ...`` saves values.

A broken file never stops a command: unreadable or not TOML, it is ignored with a one-line
warning; an unknown key or a value its option refuses (checked by the option's own type, the
same check as on the command line) is left out with a one-line warning, the rest applies.

This module imports neither Textual nor the crypto stack (``hexlan --help`` stays light).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

import click

from hexlan.i18n import _

SETTINGS: Final = ("name", "bot_delay", "strategy", "think", "bell", "title", "lang")
"""The keys a settings file may hold: option names (``--bot-delay`` is ``bot_delay``)."""

Warn = Callable[[str], None]
"""Called with each one-line warning about the settings file."""


def settings_path() -> Path:
    """Where the settings file is: ``settings.toml`` in the user config directory."""
    import platformdirs  # noqa: PLC0415 - only when a command runs, not for --help

    return Path(platformdirs.user_config_dir("hexlan")) / "settings.toml"


def read_settings(path: Path, warn: Warn) -> dict[str, object]:
    """The settings in the file ``path`` by key, unchecked; {} when there is no file.

    An unreadable file or one that is not TOML gives one warning and {}; an unknown key gives
    a warning and is left out.
    """
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        warn(_("ignoring the settings file {path}: {error}").format(path=path, error=exc))
        return {}
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        warn(
            _("ignoring the settings file {path}: not TOML ({error})").format(path=path, error=exc)
        )
        return {}
    found = {}
    for key, value in raw.items():
        if key in SETTINGS:
            found[key] = value
        else:
            warn(
                _("{path}: no setting {key} (settings: {keys})").format(
                    path=path, key=repr(key), keys=", ".join(SETTINGS)
                )
            )
    return found


PERSONAL_COMMANDS_EXCEPT: Final = frozenset({"bot", "settings"})
"""The commands settings do not apply to: ``hexlan bot`` plays for no person (its name and
strategy are a bot's), and ``hexlan settings`` shows the file as it is."""


def command_defaults(
    group: click.Group, ctx: click.Context, settings: Mapping[str, object], warn: Warn
) -> dict[str, dict[str, object]]:
    """The ``default_map`` of ``group``'s commands (but those of
    :data:`PERSONAL_COMMANDS_EXCEPT`) from ``settings``: for each command, the settings its
    options take, each checked by the option's own type (so a setting is held to what the
    command line accepts). A value some option refuses gives one warning and is left out of
    every command.
    """
    refused: set[str] = set()
    defaults: dict[str, dict[str, object]] = {}
    for command_name in group.list_commands(ctx):
        command = group.get_command(ctx, command_name)
        if command is None or command_name in PERSONAL_COMMANDS_EXCEPT:
            continue
        taken = {}
        for param in command.params:
            key = param.name
            if key not in settings or key in refused:
                continue
            value = settings[key]
            try:
                taken[key] = _checked(param, value, ctx)
            except click.BadParameter as exc:
                refused.add(key)
                warn(
                    _("ignoring the setting {key} = {value}: {error}").format(
                        key=key, value=repr(value), error=exc.message
                    )
                )
        defaults[command_name] = taken
    return {
        name: {k: v for k, v in taken.items() if k not in refused}
        for name, taken in defaults.items()
    }


def _checked(param: click.Parameter, value: object, ctx: click.Context) -> object:
    """``value`` converted by ``param``'s type, refusing a value of another TOML type than
    the option's (a flag takes true or false, never a string).

    Raises:
        click.BadParameter: the option refuses it.
    """
    if isinstance(param, click.Option) and param.is_flag and not isinstance(value, bool):
        raise click.BadParameter(_("expected true or false"))
    if isinstance(value, bool) and not (isinstance(param, click.Option) and param.is_flag):
        raise click.BadParameter(_("expected a value, not true or false"))
    if param.type is click.STRING and not isinstance(value, str):
        raise click.BadParameter(_("expected a string in quotes"))
    converted = param.type.convert(value, param, ctx)
    # the option's own check, as on the command line (a bot's name for --strategy)
    return converted if param.callback is None else param.callback(ctx, param, converted)


def setting_value(group: click.Group, ctx: click.Context, key: str, text: str) -> object:
    """``text`` (as typed) as the value of the setting ``key``, checked and converted by the
    first option of that name among ``group``'s commands, its type and its own check (a flag
    takes true/false, yes/no, on/off).

    Raises:
        click.BadParameter: that option refuses it, or no option takes ``key``.
    """
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        for param in command.params if command is not None else ():
            if param.name == key:
                try:
                    value = param.type.convert(text, param, ctx)
                    if param.callback is not None:  # the option's own check (a bot's name)
                        value = param.callback(ctx, param, value)
                except click.BadParameter as exc:
                    raise click.BadParameter(exc.message, param_hint=f"'{key}'") from None
                return value
    raise click.BadParameter(f"no option takes {key!r}", param_hint="'KEY=VALUE'")


def save_settings(path: Path, values: Mapping[str, object]) -> None:
    """Write ``values`` (settings by key) to ``path``, creating its folder; replaces the
    file whole (written beside it, then renamed, so a crash leaves the old one).

    Raises:
        OSError: the file cannot be written.
    """
    import tomli_w  # noqa: PLC0415 - only when saving

    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".toml.new")
    temporary.write_text(tomli_w.dumps(dict(values)), "utf-8")
    temporary.replace(path)
