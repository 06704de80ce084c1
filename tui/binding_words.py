"""Key bindings in the language in force (issue 27): a screen's ``BINDINGS`` are class data,
built when the module is imported, before the language is chosen, so their descriptions are
marked with :func:`~hexlan.i18n.N_` and translated here when the screen is made.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from textual.dom import DOMNode

from hexlan.i18n import N_, _

TEXTUAL_WORDS: Final = (N_("palette"), N_("Open the command palette"))
"""The words of the binding Textual's ``App`` adds itself (the command palette, ctrl+p), marked
here so that :func:`translate_bindings` of an app finds them in the catalog."""


def translate_bindings(node: DOMNode) -> None:
    """Put ``node``'s bindings (its own copy, made in ``DOMNode.__init__``) in the language in
    force: each description and tooltip looked up in the catalog (the footer and the keys
    panel read them when they draw). Call it in ``__init__``, after ``super().__init__()``.

    Args:
        node: a screen or widget whose ``BINDINGS`` descriptions are English strings marked
            with ``N_``.
    """
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            replace(
                binding,
                description=_(binding.description) if binding.description else "",
                tooltip=_(binding.tooltip) if binding.tooltip else "",
            )
            for binding in bindings
        ]
