"""The base game's actions on the game screen: build keys, buying and playing development
cards, the bank trade, the phase where the build keys build, what the others are doing while
the person waits, and the places of buildings, roads and the robber in picks."""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.core import DevCard, Phase
from hexlan.tui.actionkeys import answers, builds_in, places, plays, waits
from hexlan.tui.screen_keys import picks

answers("build:settlement", A.BuildSettlement)
answers("build:city", A.BuildCity)
answers("build:road", A.BuildRoad)
answers("buy", A.BuyDevelopmentCard)
answers("bank_trade", A.MaritimeTrade)
plays(DevCard.KNIGHT, A.PlayKnight)
plays(DevCard.ROAD_BUILDING, A.PlayRoadBuilding)
plays(DevCard.YEAR_OF_PLENTY, A.PlayYearOfPlenty)
plays(DevCard.MONOPOLY, A.PlayMonopoly)
builds_in(Phase.MAIN)
waits("to discard", Phase.DISCARD)
waits("to answer the offer", Phase.TRADE_RESPONSES)
waits("to move the robber", Phase.MOVE_ROBBER)
waits("to place a settlement", Phase.SETUP_SETTLEMENT)
waits("to place a road", Phase.SETUP_ROAD)
waits("to roll", Phase.ROLL)


@places(A.BuildSettlement)
def settlement_place(what: str, action: A.BuildSettlement, source: int) -> int | None:
    """A settlement's intersection, in a pick of settlements."""
    return action.node if what == "settlement" else None


@places(A.BuildCity)
def city_place(what: str, action: A.BuildCity, source: int) -> int | None:
    """A city's intersection, in a pick of cities."""
    return action.node if what == "city" else None


@places(A.BuildRoad)
def road_place(what: str, action: A.BuildRoad, source: int) -> int | None:
    """A road's path, in a pick of roads (or of roads or ships)."""
    return action.path if "road" in picks(what) else None


@places(A.MoveRobber)
def robber_place(what: str, action: A.MoveRobber, source: int) -> int | None:
    """The robber's new hex, in a pick of the robber's move."""
    return action.hex if what == "robber" else None
