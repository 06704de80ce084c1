"""The scripts in ``scripts/`` imported as modules, for the tests that check them
(``test_golden``, ``test_protocol_vectors``, ``test_catanatron_mapping``, ``test_soak``,
``test_fuzz``).

A plain helper module, imported by name as ``random_play`` is (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as the module ``name``, imported (once a process) with
    ``scripts/`` on ``sys.path`` for that moment only, so that it finds the scripts it imports
    in turn (``scripts/`` is no package).

    Raises:
        ImportError: no such script, or one that an import of its fails in.
    """
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))
