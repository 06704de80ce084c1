"""Every game's tellers (:mod:`hexlan.net.telling`), one module per game: importing this
package registers them all. The modules are those every game's spec names as its ``tellers``
(:class:`~hexlan.engine.gamespec.GameSpec`), so this package keeps no list of games."""

from __future__ import annotations

import importlib

from hexlan.engine.variants import game_specs

for _spec in game_specs():
    for _module in _spec.tellers:
        importlib.import_module(_module)
