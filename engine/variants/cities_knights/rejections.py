"""Why a Cities & Knights action is refused, in words with the rule's source (seed 002
«Города и рыцари»; the official rules where it is silent): what
:meth:`~hexlan.engine.variants.cities_knights.CitiesKnights.why_illegal` answers when an action
is not among the legal ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hexlan.engine import actions as A
from hexlan.engine.core import Phase
from hexlan.engine.variants.cities_knights import (
    improvements,
    knights,
    progress_board,
    progress_hands,
    progress_play,
    progress_spy,
)
from hexlan.engine.variants.cities_knights.actions import (
    POLITICS,
    ActivateKnight,
    BuildKnight,
    BuildWall,
    ChaseRobber,
    DesertKnight,
    ImproveCity,
    MoveKnight,
    PlaceDeserter,
    PlayProgress,
    PromoteKnight,
)
from hexlan.engine.variants.cities_knights.config import Config
from hexlan.engine.variants.cities_knights.progress import Progress

if TYPE_CHECKING:
    from hexlan.engine.state import GameState

_RULE: Final = "seed 002 «Города и рыцари»"
_OFFICIAL: Final = "official Cities & Knights rules"


def why_illegal(
    state: GameState,
    progress: Progress,
    config: Config,
    names: list[tuple[str, ...]],
    action: A.Action,
) -> tuple[str, str] | None:
    """The rule ``action`` breaks now, as ``(reason, rule)``; None to let the engine's general
    reason stand (an action of another phase, or one this module does not explain).
    ``names``: each progress deck's card names by face."""
    if isinstance(action, PlayProgress):
        return _why_not_play(state, progress, config, names, action)
    if isinstance(action, DesertKnight):
        if progress.board.deserter != action.seat:
            return (f"seat {action.seat} has no knight to remove for a deserter", _OFFICIAL)
        return (f"seat {action.seat} has no knight at intersection {action.node}", _OFFICIAL)
    if isinstance(action, PlaceDeserter):
        if progress.board.deserted is None:
            return ("no deserter's knight is waiting to be placed", _OFFICIAL)
        return (
            "the deserter's knight goes where the seat may build a knight (or -1: none)",
            _OFFICIAL,
        )
    harbor = progress_hands.why_not(state, progress, action)
    if harbor is not None:
        return harbor
    spy = progress_spy.why_not(state, progress, names, action)
    if spy is not None:
        return spy
    if not isinstance(action, A.VariantAction) or state.phase is not Phase.MAIN:
        if isinstance(action, A.BuyDevelopmentCard):
            return ("there are no development cards to buy: progress cards replace them", _RULE)
        return None
    seat = state.active
    if isinstance(action, BuildWall | ImproveCity):
        return _why_not_city(state, progress, config, seat, action)
    return _why_not_knight(state, progress, config, seat, action)


def _why_not_knight(
    state: GameState, progress: Progress, config: Config, seat: int, action: A.Action
) -> tuple[str, str] | None:
    """Why a knight's action (build, activate, promote, move, chase the robber) is refused in
    the seat's main phase; None for another action."""
    node = getattr(action, "node", -1)
    knight = progress.knights.get(node)
    own = knight is not None and knight.seat == seat
    if isinstance(action, BuildKnight):
        if knights.pieces_left(progress, seat, 1, config.knights_per_level) <= 0:
            return ("all the seat's basic knights are on the board (two a player)", _RULE)
        if node not in knights.build_spots(state, seat):
            return (
                "a knight goes on an empty intersection one of the seat's roads touches",
                _RULE,
            )
        return ("a knight costs a wool and an ore", _RULE)
    if isinstance(action, ActivateKnight | PromoteKnight | MoveKnight | ChaseRobber) and not own:
        return (f"seat {seat} has no knight at intersection {node}", _RULE)
    if isinstance(action, ActivateKnight):
        assert knight is not None
        if knight.active:
            return ("the knight is active already", _RULE)
        return ("activating a knight costs a grain", _RULE)
    if isinstance(action, PromoteKnight):
        assert knight is not None
        if knight.level >= 3:
            return ("a mighty knight is the highest level", _RULE)
        if node in progress.promoted:
            return ("a knight is promoted once a turn", "official Cities & Knights rules")
        if knight.level == 2 and progress.levels[seat][POLITICS] < config.ability_level:
            return (
                "a knight becomes mighty only with the third politics improvement (the fortress)",
                _RULE,
            )
        if knights.pieces_left(progress, seat, knight.level + 1, config.knights_per_level) <= 0:
            return (
                f"both of the seat's level-{knight.level + 1} knights are on the board",
                _RULE,
            )
        return ("promoting a knight costs a wool and an ore", _RULE)
    if isinstance(action, MoveKnight | ChaseRobber):
        assert knight is not None
        if not knight.active:
            return ("only an active knight acts", _RULE)
        if node in progress.fresh:
            return ("a knight activated this turn may not act in it", _RULE)
        if isinstance(action, ChaseRobber):
            if not progress.arrived:
                return (
                    "the robber stays put until the barbarians first attack",
                    "official Cities & Knights rules",
                )
            return ("a knight chases the robber from a hex beside it", _RULE)
        other = progress.knights.get(action.target)
        if other is not None and other.seat != seat and other.level >= knight.level:
            return ("a knight displaces only a weaker knight", _RULE)
        return (
            "a knight moves along the seat's own roads, past none of another player's"
            " pieces, to an empty intersection",
            _RULE,
        )
    return None


def _why_not_city(
    state: GameState, progress: Progress, config: Config, seat: int, action: A.Action
) -> tuple[str, str] | None:
    """Why a city wall or a city improvement is refused in the seat's main phase."""
    node = getattr(action, "node", -1)
    if isinstance(action, BuildWall):
        if len(progress.walls[seat]) >= config.walls:
            return (
                f"a player has at most {config.walls} city walls",
                "official Cities & Knights rules",
            )
        if node not in state.cities[seat]:
            return ("a city wall goes under one of the seat's cities", _RULE)
        if node in progress.walls[seat]:
            return ("that city has its wall already", _RULE)
        return ("a city wall costs two brick", _RULE)
    if isinstance(action, ImproveCity):
        why = improvements.why_not_improve(state, progress, seat, action.track, config)
        if why is not None:
            return why
        if improvements.takes_metropolis(progress, seat, action.track, config.metropolis_level):
            return (
                "this level wins the metropolis: name a city of the seat's without one",
                _RULE,
            )
        return ("this level wins no metropolis: name no city (-1)", _RULE)
    return None


def _why_not_play(
    state: GameState,
    progress: Progress,
    config: Config,
    names: list[tuple[str, ...]],
    action: PlayProgress,
) -> tuple[str, str]:
    """Why a progress card may not be played now: no such card, one the seat was not dealt,
    outside its main phase, one not built yet, or a wrong choice."""
    if not 0 <= action.track < len(names) or not 0 <= action.face < len(names[action.track]):
        return (f"there is no progress card {action.face} in deck {action.track}", _RULE)
    name = names[action.track][action.face]
    seat = state.active
    held = (action.track, action.face) in progress.cards[seat] or (
        progress.unknown[seat][action.track] and progress.deck(action.track).may_be(action.face)
    )
    if not held:
        return (f"seat {seat} holds no {name} progress card (it was not dealt one)", _RULE)
    if name == "alchemist" or (
        name in progress_board.BOARD_CARDS and state.phase in (Phase.ROLL, Phase.MAIN)
    ):
        why = progress_board.why_not(state, progress, name, action.choice)
        if why is not None:
            return (why, _OFFICIAL)
    if state.phase is not Phase.MAIN and name != "alchemist":
        return (
            "a progress card is played in the seat's own turn, after its roll (the alchemist"
            " before it)",
            _OFFICIAL,
        )
    if name in progress_spy.NAMES:
        why = progress_spy.why_not_play(progress, seat, action.choice)
        if why is not None:
            return (why, _OFFICIAL)
    if name in progress_hands.MONOPOLY_KINDS and config.one_monopoly and progress.monopolised:
        return ("a seat plays one monopoly a turn", "game option ck_one_monopoly_per_turn")
    if name in progress_play.POINT_CARDS and config.points_at_once:
        return (f"a {name} is shown when drawn, never played from the hand", _OFFICIAL)
    if name not in progress_play.PLAYABLE:
        return (f"playing {name} is not built yet (it is held until discarded)", _OFFICIAL)
    return (f"{name} cannot be played now (its choice or its conditions)", _OFFICIAL)
