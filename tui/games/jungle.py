"""The Jungle's actions on the game screen (docs/rules/jungle.md): buying a development card with
discoveries standing for some of its resources."""

from __future__ import annotations

from hexlan.engine.variants.jungle import BuyWithDiscoveries
from hexlan.tui.actionkeys import answers

answers("buy", BuyWithDiscoveries)
answers("buy:discoveries", BuyWithDiscoveries)
