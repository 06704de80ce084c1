"""What the hostile-conditions scripts (faultnet.py, soak.py) share about `hexlan bot` runs.

A script in scripts/ imports it as a sibling module (``python scripts/NAME.py`` puts scripts/ on
the path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def last_json(path: Path) -> dict[str, Any] | None:
    """The last line of a run's captured stdout as a JSON object (a bot's result), or None when
    the file is empty or its last line is not one."""
    lines = path.read_text(errors="replace").strip().splitlines()
    if not lines:
        return None
    try:
        value = json.loads(lines[-1])
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
