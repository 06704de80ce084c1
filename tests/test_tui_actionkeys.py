"""The game screen's open set (tui/actionkeys.py): each game's module in tui/games/ registers its
actions' keys, places in picks and played cards, and the screen asks the registry instead of
testing action classes (issue 8, "Open sets where today's are closed")."""

from __future__ import annotations

import ast
import enum
import importlib
from pathlib import Path

import pytest

from hexlan.engine import actions as A
from hexlan.engine.core import BuildPhase, DevCard, Phase, Resource
from hexlan.engine.variants.cities_knights.actions import (
    BuildWall,
    ImproveCity,
    KnightsPhase,
    PlayProgress,
)
from hexlan.engine.variants.jungle import BuyWithDiscoveries
from hexlan.engine.variants.pirate_islands import (
    AttackFortress,
    PirateIslands,
    PiratePhase,
    RobSeat,
)
from hexlan.engine.variants.seafarers import (
    BuildShip,
    ChooseGold,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaPhase,
)
from hexlan.tui import actionkeys as K
from hexlan.tui import games  # noqa: F401 - registers every game's keys
from hexlan.tui.screens import knights

SCREENS = Path(__file__).resolve().parents[1] / "tui" / "screens"


def test_each_key_answers_the_actions_its_games_register() -> None:
    legal = [
        A.BuildRoad(1),
        BuildShip(2),
        A.BuildCity(3),
        A.BUY_DEVELOPMENT_CARD,
        BuyWithDiscoveries((0, 0, 1, 0, 0)),
        MoveShip(2, 5),
        ChooseGold(0, (1, 0, 0, 0, 0)),
        RobSeat(1),
        AttackFortress(),
        BuildWall(9),
        ImproveCity(0, -1),
        A.PlayMonopoly(Resource.ORE),
        A.END_TURN,
    ]
    assert K.keyed("build:road", legal) == [A.BuildRoad(1)]
    assert K.keyed("build:ship", legal) == [BuildShip(2)]
    assert K.keyed("buy", legal) == [A.BUY_DEVELOPMENT_CARD, BuyWithDiscoveries((0, 0, 1, 0, 0))]
    assert K.keyed("buy:discoveries", legal) == [BuyWithDiscoveries((0, 0, 1, 0, 0))]
    assert K.keyed("move_ship", legal) == [MoveShip(2, 5)]
    assert K.keyed("gold", legal) == [ChooseGold(0, (1, 0, 0, 0, 0))]
    assert K.keyed("rob", legal) == [RobSeat(1)] and K.keyed("attack", legal) == [AttackFortress()]
    assert K.keyed("build:wall", legal) == [BuildWall(9)]
    assert K.keyed("improve", legal) == [ImproveCity(0, -1)]
    assert K.keyed("play_card", legal) == [A.PlayMonopoly(Resource.ORE)]
    assert K.keyed("no such key", legal) == []


def test_a_pick_finds_each_action_s_place() -> None:
    assert K.place_of("road or ship", A.BuildRoad(4), -1) == (4,)
    assert K.place_of("road or ship", BuildShip(5), -1) == (5,)
    assert K.place_of("road", BuildShip(5), -1) == ()
    assert K.place_of("settlement", A.BuildSettlement(6), -1) == (6,)
    assert K.place_of("city", A.BuildSettlement(6), -1) == ()
    assert K.place_of("robber", A.MoveRobber(7, 1), -1) == (7,)
    assert K.place_of("pirate", MovePirate(30, 1), -1) == (30,)
    assert K.place_of("ship to move", MoveShip(2, 8), -1) == (2,)
    assert K.place_of("ship target", MoveShip(2, 8), 2) == (8,)
    assert K.place_of("ship target", MoveShip(2, 8), 3) == ()
    assert K.place_of("wall", BuildWall(11), -1) == (11,)
    assert K.place_of("road", A.END_TURN, -1) == ()  # no place: in no pick
    swap = PlayProgress(2, 4, 1 * 100 + 3)  # an Inventor's swap lights both its hexes
    assert K.place_of("inventor first", swap, knights.card_source(2, 4)) == (1, 3)


def test_play_actions_name_their_card() -> None:
    assert K.card_of(A.PLAY_KNIGHT) is DevCard.KNIGHT
    assert K.card_of(A.PlayMonopoly(Resource.WOOL)) is DevCard.MONOPOLY
    with pytest.raises(KeyError):
        K.card_of(A.END_TURN)


def test_the_registry_refuses_a_second_registration() -> None:
    with pytest.raises(ValueError, match="already answers 'build:road'"):
        K.answers("build:road", A.BuildRoad)
    with pytest.raises(ValueError, match="already has its place"):
        K.places(A.BuildRoad)(lambda what, action, source: None)
    with pytest.raises(ValueError, match="already plays Knight"):
        K.plays(DevCard.MONOPOLY, A.PlayKnight)


def test_the_game_screen_tests_no_action_class() -> None:
    # The key handlers ask the registry; an isinstance test of an action class there would need
    # an edit for every new action. (Dialog results and the variant module are no actions.)
    tree = ast.parse((SCREENS / "game.py").read_text())
    tested = [
        ast.unparse(node.args[1])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "isinstance"
        and ast.unparse(node.args[0]) in ("a", "action")
    ]
    assert tested == []


def test_each_game_says_what_the_others_do_in_its_phases() -> None:
    assert K.waiting_words(Phase.DISCARD) == "to discard"
    assert K.waiting_words(SeaPhase.GOLD) == "to choose gold"
    assert K.waiting_words(PiratePhase.FORTRESS) == "to attack a fortress"
    assert K.waiting_words(Phase.GAME_OVER) is None
    gold = K.prompt_of(SeaPhase.GOLD)
    assert gold is not None and gold.key == "gold"
    assert gold.words([ChooseGold(0, (1, 0, 1, 0, 0))]) == "Gold: choose 2 resources (g)"
    assert K.prompt_of(Phase.DISCARD) is None  # the core's phases: the screen's own prompts
    with pytest.raises(ValueError, match="already has its waiting words"):
        K.waits("to dance", Phase.ROLL)
    with pytest.raises(ValueError, match="already has its prompt"):
        K.prompts(SeaPhase.GOLD, "gold", lambda due: "")


def variant_phases_named(source: str) -> set[str]:
    """The members of the variants' phase enums that ``source`` names (``KnightsPhase.SPY``),
    its imports from :mod:`hexlan.engine.variants` saying which names are such enums."""
    tree = ast.parse(source)
    phases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "hexlan.engine.variants"
        ):
            module = importlib.import_module(node.module or "")
            phases |= {
                alias.asname or alias.name
                for alias in node.names
                if isinstance(getattr(module, alias.name), type)
                and issubclass(getattr(module, alias.name), enum.Enum)
            }
    return {
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in phases
    }


def test_the_game_screen_names_no_variant_phase() -> None:
    # A variant's phase gets its words, prompt and dialog from its module in tui/games/
    # (waits, prompts, asks, builds_in): the screen says "Blue to choose gold…" without
    # naming Seafarers' GOLD, and opens the Deserter's placement without naming it.
    sample = (
        "from hexlan.engine.variants.seafarers import SeaPhase as S\n"
        "from hexlan.engine.variants.cities_knights.actions import KnightsPhase, TRACKS\n"
        "S.GOLD, KnightsPhase.SPY, TRACKS.index\n"
    )
    assert variant_phases_named(sample) == {"S.GOLD", "KnightsPhase.SPY"}
    assert variant_phases_named((SCREENS / "game.py").read_text()) == set()


def test_the_variants_register_their_dialogs_and_build_phases() -> None:
    assert K.builds_by_key(Phase.MAIN) and K.builds_by_key(BuildPhase.SPECIAL_BUILD)
    assert not K.builds_by_key(Phase.SETUP_SETTLEMENT)  # set-up picks its places by itself
    assert K.waiting_head(BuildPhase.SPECIAL_BUILD) == "Special building: "
    assert K.waiting_words(BuildPhase.SPECIAL_BUILD) == "may build"
    assert K.waiting_head(Phase.DISCARD) == ""
    special = K.prompt_of(BuildPhase.SPECIAL_BUILD)
    assert special is not None and special.key == "end_turn"
    assert special.is_due([A.END_TURN]) and not special.is_due([A.BuildRoad(3), A.END_TURN])
    assert special.words([A.BuildCity(7), A.BuyDevelopmentCard(), A.END_TURN]) == (
        "Special building, your turn: build a city (c), buy a card (v), end (e)"
    )
    spy = K.prompt_of(KnightsPhase.SPY)
    assert spy is not None and spy.key == K.DECIDE
    assert spy.words([]) == "Your move: take a progress card with the Spy (y)"
    assert K.waiting_words(KnightsPhase.DESERTER_PLACE) == "to place the Deserter's knight"
    assert K.dialog_of(KnightsPhase.DESERTER_PLACE) is not None
    assert K.dialog_of(Phase.MAIN) is None and K.dialog_of(KnightsPhase.RETREAT) is None
    with pytest.raises(ValueError, match="already has its prompt"):
        K.asks(KnightsPhase.SPY, "", lambda view, legal, names: ("", []))


def test_a_game_registers_what_a_card_does_in_its_rules() -> None:
    class Mutiny(PirateIslands):
        """A game deriving from Pirate Islands: its card words too."""

    at_sea = "build two roads or ships free, in any mix"  # Seafarers' words, Pirate Islands' too
    for game in (PirateIslands, Mutiny):
        assert K.card_helps_of(game) == {
            DevCard.KNIGHT: "turn a ship of your line into a warship",
            DevCard.ROAD_BUILDING: at_sea,
        }
    assert K.card_helps_of(Seafarers) == {
        DevCard.KNIGHT: "move the robber or the pirate and steal",
        DevCard.ROAD_BUILDING: at_sea,
    }
    assert K.card_helps_of(type(None)) == {}
    with pytest.raises(ValueError, match="PirateIslands already has its card words"):
        K.card_helps(PirateIslands, {DevCard.MONOPOLY: "take it all"})
