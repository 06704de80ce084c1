"""What each game's actions do on the game screen: their keys, their places in picks, the cards
they play (:mod:`hexlan.tui.actionkeys`), one module per game, and the game's other parts of
the TUI (its board layers, dialogs and panels, in :mod:`hexlan.tui.slots`); importing this
package registers them all. The modules are those every game's spec names as its ``keys`` and
``views`` (:class:`~hexlan.engine.gamespec.GameSpec`), so this package keeps no list of games."""

from __future__ import annotations

import importlib

from hexlan.engine.variants import game_specs

for _spec in game_specs():
    for _module in (*_spec.keys, *_spec.views):
        importlib.import_module(_module)
