"""The Jungle's actions on the game screen (docs/rules/jungle.md): buying a development card with
discoveries standing for some of its resources (the ``v`` key's choice); the hand's
discoveries."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text

from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.core import Seat, hand_minus
from hexlan.engine.variants.jungle import BuyWithDiscoveries, Jungle
from hexlan.net.narrate import describe_cards
from hexlan.tui.actionkeys import answers, keyed
from hexlan.tui.panel_lines import HAND
from hexlan.tui.screen_keys import runs

if TYPE_CHECKING:
    from hexlan.engine.state import GameState
    from hexlan.tui.screens.game import GameScreen

answers("buy", BuyWithDiscoveries)
answers("buy:discoveries", BuyWithDiscoveries)


@HAND.register(Jungle)
def discoveries_line(view: GameState, seat: Seat, wide: bool) -> Text:
    """The seat's discoveries: public counters, not cards (seed 002 «Джунгли»), that help only
    to buy development cards."""
    text = Text(f"Discoveries {view.discoveries[seat]}", style="bold")
    text.append("  (each may replace a card's resource)\n" if wide else "\n", style="dim")
    return text


@runs(Jungle, "buy")
def buy_key(screen: GameScreen) -> None:
    """Buy a development card; with discoveries in hand, first choose how many stand for which
    resources (seed 002 «Джунгли»)."""
    legal = screen.legal()
    buys = cast("list[BuyWithDiscoveries]", keyed("buy:discoveries", legal))
    if not buys:
        screen.submit(A.BUY_DEVELOPMENT_CARD)
        return
    cost = screen.game.view.rules.development_card_cost
    choices: list[tuple[str, Action]] = []
    if A.BUY_DEVELOPMENT_CARD in legal:
        choices.append((f"pay {describe_cards(cost)}", A.BUY_DEVELOPMENT_CARD))
    for buy in buys:
        spent = sum(buy.replaced)
        rest = hand_minus(cost, buy.replaced)
        pay = f"pay {describe_cards(rest)}" if any(rest) else "pay nothing else"
        noun = "discovery" if spent == 1 else "discoveries"
        choices.append((f"{spent} {noun} for {describe_cards(buy.replaced)}; {pay}", buy))
    screen.choose("Buy a development card: use discoveries?", choices)
