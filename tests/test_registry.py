"""The engine's open sets (engine/registry.py): the games' actions and phases merge after the base
game's in a stable order, each game's handlers apply only in its own games, and the registry
refuses a game whose sets are inconsistent."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from hexlan.engine import actions as A
from hexlan.engine import registry as R
from hexlan.engine.board import beginner_board
from hexlan.engine.core import (
    BASE_CHANCE_PHASES,
    BuildPhase,
    DevCard,
    DevelopmentCard,
    EngineError,
    GamePhase,
    Phase,
)
from hexlan.engine.ruleset import load_ruleset, parse_development_deck
from hexlan.engine.shown import SHARED_ACTIONS, HandShown, HandTake
from hexlan.engine.state import GameState
from hexlan.engine.variants import HOOKS, Variant
from hexlan.engine.variants.cities_knights import CitiesKnights
from hexlan.engine.variants.cities_knights.actions import KnightsPhase
from hexlan.engine.variants.jungle import BuyWithDiscoveries, Jungle
from hexlan.engine.variants.pirate_islands import FortressDie, PirateIslands, PiratePhase
from hexlan.engine.variants.seafarers import BuildShip, ChooseGold, ExploreFog, Seafarers, SeaPhase

BASE_NAMES = [
    "BuildRoad",
    "BuildSettlement",
    "BuildCity",
    "BuyDevelopmentCard",
    "RollDice",
    "EndTurn",
    "Discard",
    "MoveRobber",
    "PlayKnight",
    "PlayRoadBuilding",
    "PlayYearOfPlenty",
    "PlayMonopoly",
    "MaritimeTrade",
    "OfferTrade",
    "AnswerTrade",
    "CounterOffer",
    "ConfirmTrade",
    "CancelTrade",
    "StartPlayer",
    "Dice",
    "StealCard",
    "DrawCard",
    "MonopolyTake",
    "RevealVictory",
]


def test_the_type_codes_are_the_base_games_then_each_games_in_registry_order() -> None:
    names = [cls.__name__ for cls in R.ACTION_TYPES]
    assert names[:24] == BASE_NAMES  # the wire's and the MCTS numbering's codes never move
    added = [cls.__name__ for game in HOOKS.values() for cls in game.actions]
    assert names[24:] == added
    assert names[24:] == [
        "BuyWithDiscoveries",
        "BuildShip",
        "MoveShip",
        "MovePirate",
        "ChooseGold",
        "ExploreFog",
        "AttackFortress",
        "RobSeat",
        "FortressDie",
        "FleetLoot",
        "EventDie",
        "BuildKnight",
        "ActivateKnight",
        "PromoteKnight",
        "MoveKnight",
        "ChaseRobber",
        "RetreatKnight",
        "BuildWall",
        "ImproveCity",
        "PillageCity",
        "AqueductPick",
        "ProgressDrawn",
        "ChooseProgress",
        "DiscardProgress",
        "PlayProgress",
        "GiveCards",
        "DesertKnight",
        "PlaceDeserter",
        "HarborOffer",
        "HarborAnswer",
        "HandShown",
        "HandTake",
        "DeckShown",
        "DeckTake",
        "PointShown",
    ]
    assert R.action_key(BuildShip(3))[0] == 25


def test_every_registered_action_has_an_owner_and_a_handler() -> None:
    for game in HOOKS.values():
        for cls in game.actions:
            assert issubclass(cls, A.VariantAction)
            assert set(game.handlers) == set(game.actions)
    assert ExploreFog in R.CHANCE_ACTIONS and BuildShip not in R.CHANCE_ACTIONS
    assert FortressDie in R.CHANCE_ACTIONS
    assert PirateIslands.actions == tuple(PirateIslands.handlers)  # its own, not Seafarers' too
    assert set(A.BASE_CHANCE_ACTIONS) <= set(R.CHANCE_ACTIONS)


def test_a_games_actions_round_trip_through_the_wire_form() -> None:
    for action in (
        BuildShip(7),
        ChooseGold(2, (1, 0, 0, 1, 0)),
        BuyWithDiscoveries((0, 0, 1, 0, 0)),
    ):
        assert R.action_from_list(A.action_to_list(action)) == action
    with pytest.raises(EngineError, match="replaced must list 5 counts, not 2"):
        R.action_from_list(["BuyWithDiscoveries", [1, 0]], load_ruleset().cards)
    with pytest.raises(EngineError, match="replaced must list 1 to 8 counts"):
        R.action_from_list(["BuyWithDiscoveries", [0] * 9])


def test_a_gold_pick_is_made_by_its_own_seat() -> None:
    state = GameState(beginner_board(), 3)
    assert state.actor(ChooseGold(2, (1, 0, 0, 0, 0))) == 2
    assert state.actor(BuildShip(3)) == state.active


def test_a_games_action_applied_to_another_game_is_refused_by_its_handler() -> None:
    state = GameState(beginner_board(), 3)
    for action in (BuildShip(3), BuyWithDiscoveries((0, 0, 1, 0, 0))):
        with pytest.raises(EngineError, match="is not an action of this game"):
            state.apply(action)


def test_a_games_phases_and_chance_flags_come_from_its_rules_module() -> None:
    assert Seafarers.phases == (SeaPhase.GOLD, SeaPhase.FOG)
    assert (
        BASE_CHANCE_PHASES
        | {
            SeaPhase.FOG,
            PiratePhase.FORTRESS,
            PiratePhase.LOOT,
            KnightsPhase.EVENT,
            KnightsPhase.PROGRESS,
            KnightsPhase.MERCHANT_SHOW,
            KnightsPhase.SPY_SHOW,
            KnightsPhase.POINT_SHOW,
        }
        == R.CHANCE_PHASES
    )
    assert KnightsPhase.PILLAGE not in R.CHANCE_PHASES
    assert SeaPhase.GOLD not in R.CHANCE_PHASES
    assert [int(p) for p in Phase] == list(range(15))  # the engine's codes, hashed in states
    assert int(BuildPhase.SPECIAL_BUILD) == 15  # the special_building flag's, next
    assert (int(SeaPhase.GOLD), int(SeaPhase.FOG), int(PiratePhase.FORTRESS)) == (16, 17, 18)
    assert SeaPhase.FOG.title == "fog"


@dataclass(frozen=True, slots=True)
class _Wave(A.VariantAction):
    """A test game's action."""

    height: int


class _TidePhase(GamePhase):
    TIDE = 99


class _Tides(Variant):
    name: ClassVar[str] = "tides"

    def _on_wave(self, state: GameState, action: _Wave) -> None:
        state.phase = _TidePhase.TIDE

    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (_Wave,)
    handlers: ClassVar[dict[type[A.VariantAction], Any]] = {_Wave: _on_wave}
    phases: ClassVar[tuple[GamePhase, ...]] = (_TidePhase.TIDE,)
    chance_phases: ClassVar[frozenset[GamePhase]] = frozenset({_TidePhase.TIDE})


def test_a_new_game_registers_after_the_others_without_moving_a_code() -> None:
    games = [*HOOKS.values(), _Tides]
    merged, owners = R.merge_actions(games)
    assert merged[: len(R.ACTION_TYPES)] == R.ACTION_TYPES
    assert merged[-1] is _Wave and owners[_Wave] == (_Tides,)
    assert _TidePhase.TIDE in R.merge_phases(games)


class _Merchants(Variant):
    """A test game that plays the engine's shared hand show with its own rules."""

    name: ClassVar[str] = "merchants"

    def _on_shown(self, state: GameState, action: HandShown) -> None:
        state.phase = _TidePhase.TIDE

    def _on_take(self, state: GameState, action: HandTake) -> None:
        state.phase = Phase.MAIN

    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (HandTake, HandShown)
    handlers: ClassVar[dict[type[A.VariantAction], Any]] = {
        HandShown: _on_shown,
        HandTake: _on_take,
    }


def test_two_games_register_the_engines_shared_actions_each_with_its_handler() -> None:
    assert {HandShown, HandTake} <= SHARED_ACTIONS
    merged, owners = R.merge_actions([*HOOKS.values(), _Merchants])
    assert merged == R.ACTION_TYPES  # one code each, where Cities & Knights lists them
    assert owners[HandShown] == owners[HandTake] == (CitiesKnights, _Merchants)
    assert R.merge_actions([_Merchants, _Tides])[0][-3:] == (HandTake, HandShown, _Wave)

    handle = R._bind(owners[HandShown], HandShown)
    state = GameState(beginner_board(), 3)
    with pytest.raises(EngineError, match="HandShown is not an action of this game"):
        handle(state, HandShown(1, None))  # the base game registers none
    state.variant = _Merchants(state.rules, state.options, state.board.topology)
    handle(state, HandShown(1, None))
    assert state.phase is _TidePhase.TIDE  # the merchants' handler, not Cities & Knights'


def test_the_registry_refuses_inconsistent_games() -> None:
    class Unhandled(_Tides):
        handlers: ClassVar[dict[type[A.VariantAction], Any]] = {}

    with pytest.raises(EngineError, match="handler"):
        R.merge_actions([Unhandled])
    with pytest.raises(EngineError, match="registered twice"):
        R.merge_actions([_Tides, _Tides])
    with pytest.raises(EngineError, match="registered twice"):
        R.merge_actions([Jungle, Jungle])
    with pytest.raises(EngineError, match="HandTake is registered twice"):
        R.merge_actions([_Merchants, _Merchants])  # shared by games, once per game
    with pytest.raises(EngineError, match="HandTake is registered twice"):
        R.merge_actions([CitiesKnights, _Merchants], shared=())  # the engine's to share

    @dataclass(frozen=True, slots=True)
    class HandTake(A.VariantAction):  # a game's own class under a shared action's name
        taken: int

    class Copycat(_Tides):
        actions: ClassVar[tuple[type[A.VariantAction], ...]] = (HandTake,)
        handlers: ClassVar[dict[type[A.VariantAction], Any]] = {HandTake: _Tides._on_wave}

    with pytest.raises(EngineError, match="share a name"):
        R.merge_actions([CitiesKnights, Copycat])

    class Taken(GamePhase):
        GOLDEN = 16  # Seafarers' gold

    class Squatter(_Tides):
        phases: ClassVar[tuple[GamePhase, ...]] = (Taken.GOLDEN,)
        chance_phases: ClassVar[frozenset[GamePhase]] = frozenset()

    with pytest.raises(EngineError, match="phase code 16"):
        R.merge_phases([Seafarers, Squatter])

    class Unflagged(_Tides):
        phases: ClassVar[tuple[GamePhase, ...]] = ()

    with pytest.raises(EngineError, match="chance phase"):
        R.merge_phases([Unflagged])


# ---------------------------------------------------------------------- development card faces


class _Discovery(DevelopmentCard):
    TREASURE_MAP = 5


class _Treasure(Variant):
    name: ClassVar[str] = "treasure"
    dev_cards: ClassVar[tuple[DevelopmentCard, ...]] = (_Discovery.TREASURE_MAP,)


def test_the_base_rules_register_the_five_development_cards_under_their_file_names() -> None:
    # Issue 8: the deck's faces are an open set; the base game's keep their codes (wire codes of
    # DrawCard and indices of every seat's card counts).
    assert list(R.DEV_CARDS) == [
        "knight",
        "victory_point",
        "road_building",
        "year_of_plenty",
        "monopoly",
    ]
    assert [int(card) for card in R.DEV_CARDS.values()] == list(range(5))
    assert R.dev_card(4) is DevCard.MONOPOLY
    with pytest.raises(ValueError, match="not a development card"):
        R.dev_card(5)
    with pytest.raises(EngineError, match="malformed DrawCard"):
        R.action_from_list(["DrawCard", 9])


def test_a_game_adds_a_face_that_its_rule_set_then_names() -> None:
    faces = R.merge_dev_cards([*HOOKS.values(), _Treasure])
    assert faces["treasure_map"] is _Discovery.TREASURE_MAP
    assert list(faces)[:5] == list(R.DEV_CARDS)


def test_the_registry_refuses_a_face_whose_name_or_code_is_taken() -> None:
    class Twin(DevelopmentCard):
        KNIGHT = 5

    class Gap(DevelopmentCard):
        FAR = 7

    for face in (Twin.KNIGHT, Gap.FAR):

        class Bad(Variant):
            name: ClassVar[str] = "bad"
            dev_cards: ClassVar[tuple[DevelopmentCard, ...]] = (face,)

        with pytest.raises(EngineError, match="the next code, 5"):
            R.merge_dev_cards([Bad])


def test_a_rule_set_names_its_deck_by_face_and_leaves_out_what_it_lacks() -> None:
    faces, counts = parse_development_deck({"knight": 19, "monopoly": 1})
    assert counts == (19, 0, 0, 0, 1) and faces == tuple(DevCard)
    with pytest.raises(EngineError, match="names no known card: 'treasure_map'"):
        parse_development_deck({"treasure_map": 2})
    with pytest.raises(EngineError, match="must be a count"):
        parse_development_deck({"knight": -1})
    with pytest.raises(EngineError, match="must be a table"):
        parse_development_deck([14, 5])  # type: ignore[arg-type]
    assert load_ruleset("base").development_deck == (14, 5, 2, 2, 2)  # the bytes every log has
    assert load_ruleset("seafarers-pirate-islands").development_deck == (19, 0, 2, 2, 2)
