"""Landnám's phases: which decision or chance a state waits for (:attr:`~.state.LandnamState.phase`),
and the kinds of its chance nodes the engine does not already name."""

from __future__ import annotations

from typing import Final

CHANCE: Final = -2
"""What :meth:`LandnamState.current_player` returns at a chance node (:data:`~hexlan.engine.game.CHANCE_SEAT`)."""
FATE_DECK: Final = "fate"
"""The fate deck's name in its chance nodes."""

# Phases: the decision or chance due.
START = "start"  # chance: the start player
SETUP = "setup"  # chance: the set-up's public fate draws (§4.4)
DRAW = "draw"  # chance: fate draws queued in ``draws``, then ``after_draws``
ROLL = "roll"  # the active seat rolls the harvest dice
DICE = "dice"  # chance: the two dice
HARVEST_CARD = "harvest_card"  # the active seat may play a Harvest card (§6.2)
AGE_PICK = "age_pick"  # the active seat picks the hex to age (§6.5)
ALTHING_OPEN = "althing_open"  # the opening window for Althing cards (§8.2)
APPOINT = "appoint"  # the active seat names the lawsuit round's first seat (§8.4)
SUING = "suing"  # a seat brings its cases (§8.4)
CASE = "case"  # a case's side bids (§8.5)
INVITED = "invited"  # an invited seat joins or declines (§8.5.4)
MOVE = "move"  # the movement phase (§9)
EXPLORE = "explore"  # chance: the exploration dice (§10)
SEER = "seer"  # the active seat picks Seer's counsel's faces
ENTRY = "entry"  # the active seat may play a Landing card to enter the hex it found
FLEE = "flee"  # a chased unit's owner moves it away (§9.7)
TRADE = "trade"  # trade and building (§11, §12)
ANSWER = "answer"  # the offered seat answers a trade offer
OVER = "over"

EXPLORED: Final = "explored"
"""Not a phase: where an exploration goes once its reward is drawn (:meth:`~.state.LandnamState.enter`
settles it)."""

CHANCE_PHASES: Final = frozenset({START, SETUP, DRAW, DICE, EXPLORE})
