"""Seafarers' gold at the table (docs/rules/seafarers.md rule 10): the dialog choosing the
resources the gold fields owe the person, which the ``g`` key opens (the game's spec names this
module among its ``views``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexlan.engine.actions import Action
from hexlan.engine.core import Hand
from hexlan.engine.variants.seafarers import ChooseGold, Seafarers, sea
from hexlan.net.client import GameClient
from hexlan.tui.actionkeys import keyed
from hexlan.tui.screen_keys import runs
from hexlan.tui.screens.dialogs import CardsDialog

if TYPE_CHECKING:
    from hexlan.tui.screens.game import GameScreen


class GoldDialog(CardsDialog):
    """Seafarers' gold fields: take the resources you are owed, of your choice, from the bank
    (docs/rules/seafarers.md rule 10: one per settlement, two per city, no more than the bank
    holds)."""

    prefix = "gold"
    verb = "Take"
    reopen_key = "g"

    def __init__(self, game: GameClient) -> None:
        view = game.view
        bank = tuple(view.bank)
        kinds = view.rules.cards
        resources = [r for r in kinds if not r.is_commodity]
        need = min(sea(view).gold_owed[game.human_seat], sum(bank[r] for r in resources))
        noun = "resource" if need == 1 else "resources"
        title = f"Gold: choose {need} {noun}"
        # Gold brings resources, never a commodity (docs/rules/seafarers.md rule 10).
        most = [0 if k.is_commodity else min(n, need) for k, n in zip(kinds, bank, strict=True)]
        super().__init__(game, title, need, bank, "bank", most)

    def action(self, cards: Hand) -> Action:
        """The gold taken."""
        return ChooseGold(self.game.human_seat, cards)


@runs(Seafarers, "gold")
def gold_key(screen: GameScreen) -> None:
    """Open the gold dialog: choose the resources the gold fields owe you."""
    if keyed("gold", screen.legal()):
        screen.app.push_screen(GoldDialog(screen.game), screen.submit_chosen)
