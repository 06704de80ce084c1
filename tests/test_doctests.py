"""The examples in the docstrings of the engine, the game clients and the TUI run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = (
    "hexlan.engine.core",
    "hexlan.engine.actions",
    "hexlan.engine.info",
    "hexlan.engine.bots",
    "hexlan.net.narrate",
    "hexlan.net.client",
    "hexlan.tui.board_render",
    "hexlan.tui.screens.game",
    "hexlan.tui.widgets.dice",
)
"""The modules whose docstrings hold examples (add a module here when it gains one)."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed
