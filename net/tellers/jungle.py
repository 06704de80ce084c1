"""The Jungle variant's action in words (seed 002 «Джунгли»; docs/rules/jungle.md)."""

from __future__ import annotations

from hexlan.engine.variants.jungle import BuyWithDiscoveries
from hexlan.net.telling import Telling, Told, describe_cards, discoveries, tells


@tells(BuyWithDiscoveries)
def bought_with_discoveries(t: Telling) -> Told:
    """A development card bought with discoveries standing for some of its cost."""
    action = t.of(BuyWithDiscoveries)
    text = (
        f"{t.who} bought a development card with {discoveries(sum(action.replaced))} standing "
        f"for {describe_cards(action.replaced)}"
    )
    return Told(text, "dev")
