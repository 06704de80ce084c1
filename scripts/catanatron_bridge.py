"""Play a hexlan bot against Catanatron's players, with both rules engines in lockstep.

Usage: python scripts/catanatron_bridge.py --opponent alphabeta|value|victorypoint|weighted|random
           [--games 20] [--players 2|4] [--seed 1] [--strategy heuristic|mcts|random]
           [--think S] [--json] [-v] [--catanatron-venv DIR]

Every game is played in Catanatron (its board, dice, deck and robbery drawn by its own seeded
``random``) and mirrored action by action into hexlan's engine with the same chance outcomes
(scripts/catanatron_mapping.py maps the board and the actions). One seat is hexlan's bot: it
decides in hexlan's engine from its seat's information state, and its choice is mapped back into
Catanatron. Before every decision the bridge compares the moves each engine allows the seat to
act; after every action it compares hands, development cards, knights, points, pieces, awards,
road lengths, Road Building, robber, bank, deck and whose turn it is; at every turn's end, the
bot's information state with the full state. A disagreement is printed with the game's seed and
Catanatron's action index, and classified: a Catanatron bug or a different reading of a rule
(each known one is in docs/rules/base.md, "Catanatron"), else "unexplained", a finding to
resolve (a hexlan bug until shown otherwise). Where the difference is known, the bridge keeps
both engines on the official rule (a Catanatron player decides again among the moves hexlan
allows, or hexlan's result is carried over into Catanatron) and plays on. An unexplained
difference in the moves allowed is noted and play goes on (the move made is checked anyway);
an unexplained difference in the state ends that game's lockstep, and the game is left out of
the win rate. ``disagreements`` counts every occurrence, ``unexplained`` the findings.

Seats rotate: game ``i`` has seed ``seed + i`` and hexlan's seat ``i % players``. The win rate
comes with its 95% Wilson interval; games that hit Catanatron's turn limit count as not won.
With ``--json`` the last line is one JSON object.

Catanatron runs from a throwaway venv (scripts/bench_engine.py makes it, with
``catanatron==3.2.1`` from PyPI, the newest release) whose packages this process appends to its
import path; Catanatron is called, never copied, and never a dependency of hexlan. Catanatron
3.2.1 ships RandomPlayer, WeightedRandomPlayer and VictoryPointPlayer (greedy: the move that
gains most points now, at random among equals). AlphaBetaPlayer (depth 2) and
ValueFunctionPlayer live only in Catanatron's unreleased 3.3 sources: with
``--catanatron-venv DIR``, a venv where the user installed such a Catanatron, the bridge drives
that one instead (3.3 records results apart from actions, takes discards card by card and keeps
its moves on the game; the bridge handles both), else ``--opponent alphabeta|value`` says so and
stops. Games are reproducible under ``PYTHONHASHSEED=0`` (the script sets it), except where
Catanatron orders moves by ``hash(None)`` (maritime trades).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

SCRIPTS: Final = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from bench_engine import (  # noqa: E402
    CATANATRON_REQUIREMENT,
    BenchError,
    ensure_catanatron_venv,
    venv_python,
)
from catanatron_mapping import (  # noqa: E402
    DEV_CARD_NAMES,
    RESOURCE_NAMES,
    BoardMapping,
    MappingError,
    tiles_of,
    to_catanatron,
    to_hexlan,
)

from hexlan.engine import actions as A  # noqa: E402
from hexlan.engine.actions import Action  # noqa: E402
from hexlan.engine.bots import BOTS, DEFAULT_THINK, make_bot  # noqa: E402
from hexlan.engine.core import NO_SEAT, DevCard, IllegalActionError, Phase, Seat  # noqa: E402
from hexlan.engine.info import InformationState, advance_views  # noqa: E402
from hexlan.engine.longest_road import longest_road  # noqa: E402
from hexlan.engine.options import GameOptions  # noqa: E402
from hexlan.engine.state import GameState  # noqa: E402

OPPONENTS: Final = ("alphabeta", "value", "victorypoint", "weighted", "random")
"""The Catanatron players ``--opponent`` names."""
PLAYERS: Final = {
    "alphabeta": "catanatron.players.minimax:AlphaBetaPlayer",
    "value": "catanatron.players.value:ValueFunctionPlayer",
    "victorypoint": "catanatron.players.search:VictoryPointPlayer",
    "weighted": "catanatron.players.weighted_random:WeightedRandomPlayer",
    "random": "catanatron:RandomPlayer",
}
"""The Catanatron player of each ``--opponent`` (module:class), with its defaults (AlphaBeta:
depth 2)."""
SHIPPED: Final = ("victorypoint", "weighted", "random")
"""The opponents :data:`CATANATRON_REQUIREMENT`, the newest release on PyPI, ships."""
OPTIONS_3_2: Final = GameOptions(knight_only_before_roll=True)
"""hexlan's rules against Catanatron 3.2: official, with the one reading it plays (only a knight
before the roll; docs/rules/base.md, "Catanatron"). Against 3.3 they are the official ones."""

CATANATRON_BUG: Final = "Catanatron bug"
READING: Final = "different reading"
UNEXPLAINED: Final = "unexplained"


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Where the two engines part: game seed, Catanatron action index, class and what."""

    seed: int
    index: int
    kind: str
    rule: str
    detail: str

    def line(self) -> str:
        """One printable line."""
        return (
            f"disagreement seed={self.seed} action={self.index} [{self.kind}] {self.rule}:"
            f" {self.detail}"
        )


@dataclass(slots=True)
class GameResult:
    """One bridged game: hexlan's seat, the winning seat (None at the turn limit or when the
    lockstep stopped), its length and the disagreements found."""

    seed: int
    hexlan_seat: Seat
    winner: Seat | None = None
    actions: int = 0
    turns: int = 0
    aborted: bool = False
    disagreements: list[Disagreement] = field(default_factory=list)


class BridgeError(Exception):
    """The bridge cannot run (no Catanatron, a bad argument); the message says why."""


def load_catanatron(venv: Path | None = None) -> None:
    """Make Catanatron importable here (its packages appended after hexlan's): from ``venv``,
    a virtual environment with Catanatron installed, or else the throwaway venv with
    :data:`CATANATRON_REQUIREMENT` (made on first use).

    Raises:
        BridgeError: the venv cannot be made or has no Catanatron, or runs another Python
            version than this one.
    """
    if venv is None:
        try:
            python = ensure_catanatron_venv()
        except BenchError as error:
            raise BridgeError(str(error)) from error
    else:
        python = venv_python(venv)
        if not python.exists():
            raise BridgeError(f"--catanatron-venv {venv}: no Python in it")
    probe = "import sys, sysconfig; print(sys.version_info[:2]); print(sysconfig.get_paths()['purelib'])"
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or len(lines) != 2:
        raise BridgeError(f"cannot inspect the Catanatron venv at {python}: {done.stderr.strip()}")
    if lines[0] != str(sys.version_info[:2]):
        raise BridgeError(
            f"the Catanatron venv runs Python {lines[0]}, this process {sys.version_info[:2]};"
            " delete the venv so that it is made again with this Python"
        )
    if lines[1] not in sys.path:
        sys.path.append(lines[1])
    try:
        import catanatron  # noqa: F401, PLC0415
    except ImportError as error:
        raise BridgeError(f"no Catanatron in the venv of {python}: {error}") from error


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for ``z`` 1.96); (0, 1) without games.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class Lockstep:
    """One Catanatron game with a hexlan seat, mirrored into hexlan's engine.

    Args:
        seed: the game's seed, at least 1 (Catanatron's ``random``; the hexlan bot's own
            ``random.Random``).
        players: 2 to 4 seats.
        hexlan_seat: the seat hexlan's bot plays.
        opponent: the Catanatron player of the other seats (a key of :data:`SHIPPED`).
        strategy: hexlan's bot (a name of :data:`hexlan.engine.bots.BOTS`).
        think: a searching bot's budget per decision, held by no clock: ``think`` times
            :data:`~hexlan.engine.bots.mcts.NOMINAL_RATE` playouts, whatever the machine's load.
    """

    def __init__(
        self,
        seed: int,
        players: int,
        hexlan_seat: Seat,
        opponent: str,
        strategy: str,
        think: float = DEFAULT_THINK,
    ) -> None:
        import catanatron  # noqa: PLC0415 (from the throwaway venv, see load_catanatron)
        from catanatron.models.actions import generate_playable_actions  # noqa: PLC0415

        self._cat = catanatron
        self._regenerate = generate_playable_actions
        # Catanatron 3.3 records results apart (ActionRecord), discards one card at a time
        # and keeps the moves on the game; 3.2.1 logs results in the action's value.
        self.records = hasattr(catanatron.models.enums, "ActionRecord")
        self.result = GameResult(seed, hexlan_seat)
        colors = list(catanatron.Color)[:players]
        opponent_class = _player_class(opponent)
        seats = [
            catanatron.Player(color) if s == hexlan_seat else opponent_class(color)
            for s, color in enumerate(colors)
        ]
        self.game = catanatron.Game(seats, seed=seed)
        state = self.game.state
        # Catanatron seats its players at random; the bridge rotates hexlan's seat itself.
        state.players = seats
        state.colors = tuple(colors)
        state.color_to_index = {color: s for s, color in enumerate(colors)}
        self._set_playable(generate_playable_actions(state))
        self.colors = colors
        self.seat_of = {color: s for s, color in enumerate(colors)}
        self.mapping = BoardMapping(*tiles_of(state.board.map))
        board = self.mapping.board
        options = GameOptions() if self.records else OPTIONS_3_2
        self.state = GameState(board, players, options)
        self.view = InformationState(board, players, hexlan_seat, options)
        self.bot = make_bot(strategy, random.Random(seed), think)
        self.hexlan_seat = hexlan_seat
        self._forced_free_roads = False
        self._discarded: list[str] = []  # Catanatron 3.3: the cards of the discard under way
        self._advance(A.StartPlayer(0))

    # ------------------------------------------------------------------ the game

    def play(self) -> GameResult:
        """Play the game to its end (a winner, Catanatron's turn limit, or an unexplained
        disagreement) and return the result."""
        from catanatron.game import TURNS_LIMIT  # noqa: PLC0415

        game = self.game
        try:
            while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
                seat = game.state.current_player_index
                self._compare_moves(seat)
                if seat == self.hexlan_seat:
                    logged = self._hexlan_decides()
                else:
                    logged = self._catanatron_decides(game.state.current_player())
                if logged is not None:
                    self._mirror(logged, seat)
                    self._compare(logged)
        except _Stop:
            self.result.aborted = True
        winner = game.winning_color()
        self.result.winner = None if winner is None else self.seat_of[winner]
        if winner is not None and not self.result.aborted:
            seat = self.seat_of[winner]
            if self.state.is_over and self.state.winner == seat:
                pass
            elif not self.state.is_over and seat != game.state.current_turn_index:
                self._note(READING, "victory outside one's turn", self._victory_detail(winner))
            else:
                self._note(UNEXPLAINED, "winner", self._victory_detail(winner))
                self.result.aborted = True
        self.result.actions = self._log_length()
        self.result.turns = self.state.turn
        return self.result

    def _hexlan_decides(self) -> tuple[str, Any] | None:
        """hexlan's bot decides in its view; its choice is played in both engines. Returns
        Catanatron's logged action (None for a domestic offer, which only hexlan has)."""
        seat = self.hexlan_seat
        if seat not in self.view.acting_seats():
            self._unexplained(
                "whose turn",
                f"Catanatron waits for seat {seat}, hexlan for"
                f" {self.view.acting_seats()} in {self.view.phase.title}",
            )
        action = self.bot.choose(self.view, seat)
        intent = to_catanatron(action, self.mapping, self.colors)
        if intent is None:
            self._advance(action)
            self._decline_offers()
            return None
        kind, value = intent
        if self.records and kind == "MOVE_ROBBER":
            value = value[:2]  # Catanatron 3.3: (coordinate, colour); the steal is a result
        if self.records and kind == "DISCARD":
            for name in value:  # Catanatron 3.3 takes a discard card by card
                self._execute(
                    self._cat.Action(self.colors[seat], self._type("DISCARD_RESOURCE"), name)
                )
            return ("DISCARD", value)
        cat_action = self._cat.Action(self.colors[seat], self._type(kind), value)
        playable = self._playable()
        if cat_action not in playable and intent[0] != "DISCARD":
            if self._forced_free_roads and isinstance(action, A.BuildRoad):
                pass  # the free roads of the Road Building noted below
            elif isinstance(action, A.PlayRoadBuilding):
                self._note(
                    CATANATRON_BUG,
                    "Road Building needs a road's resources",
                    "hexlan's PlayRoadBuilding() is not among Catanatron's actions; played",
                )
                self._forced_free_roads = True
            else:
                rule, kind = _why_not_playable(action)
                self._note(kind, rule, f"hexlan's {action!r} is not among Catanatron's actions")
                cat_action = self._fallback(seat, playable)
        # Catanatron 3.2.1 lists a discard without its cards and draws them itself; hexlan's
        # bot chooses them, so its discard is executed as given.
        return self._execute(cat_action)

    def _fallback(self, seat: Seat, playable: Sequence[Any]) -> Any:
        """A move both engines allow when hexlan's choice is not Catanatron's: end the turn if
        possible, else the first of Catanatron's moves that hexlan accepts."""
        for cat_action in sorted(playable, key=lambda a: a.action_type.value != "END_TURN"):
            if self._accepts(cat_action, seat):
                return cat_action
        self._unexplained("no common move", f"no Catanatron move of seat {seat} is hexlan-legal")
        raise AssertionError("unreachable")

    def _catanatron_decides(self, player: Any) -> tuple[str, Any] | None:
        """Catanatron's player decides; a choice hexlan's rules forbid is a disagreement, and
        the player decides again among the moves hexlan allows."""
        seat = self.game.state.current_player_index
        playable = self._playable()
        choice = player.decide(self.game, playable)
        if not self._accepts(choice, seat):
            rule, kind = self._why_rejected(choice, seat)
            self._note(kind, rule, f"Catanatron's {choice!r}")
            allowed = [a for a in playable if self._accepts(a, seat)]
            if not allowed:
                self._unexplained("no common move", f"no Catanatron move of seat {seat} is legal")
            self._set_playable(allowed)  # AlphaBetaPlayer searches the game's own list
            choice = player.decide(self.game, allowed)
        logged = self._execute(choice)
        if logged[0] == "DISCARD_RESOURCE":
            self._discarded.append(logged[1])
            if self.game.state.discard_counts[seat]:
                return None  # more cards to come
            logged, self._discarded = ("DISCARD", self._discarded), []
        return logged

    # ------------------------------------------------------------------ Catanatron versions

    def _type(self, name: str) -> Any:
        return self._cat.models.enums.ActionType(name)

    def _playable(self) -> list[Any]:
        """Catanatron's moves now (on the game in 3.3, on the state in 3.2.1)."""
        holder = self.game if self.records else self.game.state
        return list(holder.playable_actions)

    def _set_playable(self, actions: list[Any]) -> None:
        holder = self.game if self.records else self.game.state
        holder.playable_actions = actions

    def _log_length(self) -> int:
        state = self.game.state
        return len(state.action_records if self.records else state.actions)

    def _execute(self, action: Any) -> tuple[str, Any]:
        """Execute a Catanatron action (unvalidated: the bridge checked it) and return its
        type name and its value with the results drawn (dice, card bought, card stolen)."""
        done = self.game.execute(action, validate_action=False)
        if not self.records:
            return (done.action_type.value, done.value)
        kind, value = done.action.action_type.value, done.action.value
        if kind in ("ROLL", "BUY_DEVELOPMENT_CARD", "DISCARD_RESOURCE"):
            return (kind, done.result)
        if kind == "MOVE_ROBBER":
            return (kind, (value[0], value[1], done.result))
        return (kind, value)

    def _decision(self, cat_action: Any, seat: Seat) -> Action | None:
        """hexlan's decision for a Catanatron action, its chance part left out (None for a
        discard whose cards Catanatron draws itself)."""
        kind = cat_action.action_type.value
        if kind in ("DISCARD", "DISCARD_RESOURCE"):
            return None
        if kind == "ROLL":
            return A.ROLL
        if kind == "BUY_DEVELOPMENT_CARD":
            return A.BUY_DEVELOPMENT_CARD
        value = cat_action.value
        if kind == "MOVE_ROBBER":
            value = (value[0], value[1], None)
        return to_hexlan(kind, value, seat, self.mapping, self.seat_of)[0]

    def _accepts(self, cat_action: Any, seat: Seat) -> bool:
        """Whether hexlan's full state accepts the decision part of a Catanatron action."""
        decision = self._decision(cat_action, seat)
        if decision is None:
            return self.state.phase is Phase.DISCARD and bool(self.state.discards[seat])
        try:
            self.state.check(decision)
        except IllegalActionError:
            return False
        return True

    def _compare_moves(self, seat: Seat) -> None:
        """Compare the moves Catanatron lists for the seat to act with hexlan's legal moves
        (domestic offers aside, which Catanatron 3.2.1 lacks); note the differences no known
        reading explains."""
        state = self.state
        if state.phase is Phase.DISCARD:
            return  # Catanatron lists a discard without its cards
        theirs = {self._decision(a, seat) for a in self._playable()}
        ours = set(state.legal_actions(seat))
        only_theirs = {a for a in theirs - ours if not self._known_extra(a, seat)}
        only_ours = {a for a in ours - theirs if not self._known_missing(a, seat)}
        if only_theirs or only_ours:
            self._note(
                UNEXPLAINED,
                "legal moves",
                f"seat {seat} in {state.phase.title}: only Catanatron {sorted(map(repr, only_theirs))},"
                f" only hexlan {sorted(map(repr, only_ours))}",
            )

    def _known_extra(self, action: Action | None, seat: Seat) -> bool:
        """A move Catanatron lists and hexlan forbids, for a known reason."""
        return self._extra_reason(action, seat) is not None

    def _extra_reason(self, action: Action | None, seat: Seat) -> tuple[str, str] | None:
        """Why Catanatron lists a move hexlan forbids, when the reason is known."""
        state = self.state
        if isinstance(action, A.PlayYearOfPlenty) and len(action.resources) == 1:
            return ("Year of Plenty for one card", READING)
        card = _CARD_OF.get(type(action))
        if card is not None and state.dev_cards[seat][card] <= state.new_dev_cards[seat][card]:
            return ("card played on the turn it was bought", CATANATRON_BUG)
        if isinstance(action, A.BuildRoad):
            topology, owner = state.topology, state.node_owner
            for node in topology.path_nodes[action.path]:
                if owner[node] not in (NO_SEAT, seat) and any(
                    state.path_owner[p] == seat for p in topology.node_paths[node]
                ):
                    return ("a road through another's building", CATANATRON_BUG)
        return None

    def _known_missing(self, action: Action, seat: Seat) -> bool:
        """A move hexlan allows and Catanatron does not list, for a known reason."""
        state = self.state
        cost = state.rules.road_cost
        if isinstance(action, A.PlayRoadBuilding) or (
            isinstance(action, A.BuildRoad) and state.phase is Phase.ROAD_BUILDING
        ):
            return not all(h >= c for h, c in zip(state.hands[seat], cost, strict=True))
        return False

    def _why_rejected(self, cat_action: Any, seat: Seat) -> tuple[str, str]:
        """Name a Catanatron move hexlan rejects, when the reason is known."""
        reason = self._extra_reason(self._decision(cat_action, seat), seat)
        return reason or ("Catanatron move hexlan rejects", UNEXPLAINED)

    def _decline_offers(self) -> None:
        """Catanatron 3.2.1 has no domestic trade: every seat asked declines hexlan's offer."""
        while self.state.phase is Phase.TRADE_RESPONSES and self.state.trade_pending:
            self._advance(A.AnswerTrade(self.state.trade_pending[0], False))
        if self.state.phase is Phase.TRADE_RESPONSES:  # nobody pending: hexlan's bot may close
            self._advance(A.CANCEL_TRADE)

    # ------------------------------------------------------------------ mirroring

    def _advance(self, action: Action) -> None:
        """Apply one action to hexlan's full state and the bot's view, both checked."""
        try:
            advance_views(self.state, [self.view], action, check=True)
        except IllegalActionError as error:
            self._unexplained("hexlan rejects", f"{action!r}: {error.reason}")

    def _mirror(self, logged: tuple[str, Any], seat: Seat) -> None:
        """Play a logged Catanatron action (type name, value with results) in hexlan, with its
        chance outcomes."""
        try:
            actions = to_hexlan(logged[0], logged[1], seat, self.mapping, self.seat_of)
        except MappingError as error:
            self._unexplained("no hexlan action", str(error))
        for action in actions:
            self._advance(action)
        state = self.state
        while state.phase is Phase.MONOPOLY or state.phase is Phase.VICTORY:
            self._advance(state.chance_outcomes()[0][0])
        if self._forced_free_roads:  # Catanatron ends Road Building when no road is affordable
            cat = self.game.state
            cat.is_road_building = state.phase is Phase.ROAD_BUILDING
            cat.free_roads_available = state.free_roads if cat.is_road_building else 0
            self._forced_free_roads = cat.is_road_building
            self._set_playable(self._regenerate(cat))

    # ------------------------------------------------------------------ comparing

    def _compare(self, logged: tuple[str, Any]) -> None:
        """Compare the two states; carry hexlan's result over where the difference is a known
        reading, else stop the game's lockstep."""
        differences = self._differences()
        kind = logged[0]
        if kind == "END_TURN" and self.view.public_hash() != (self.state.public_hash()):
            self._unexplained("information state", f"seat {self.hexlan_seat}'s view has drifted")
        if not differences:
            return
        detail = "; ".join(differences)
        if kind == "ROLL" and self._is_shortage(differences):
            self._note(READING, "bank shortage", detail)
        elif kind in ("BUILD_SETTLEMENT", "BUILD_ROAD") and all(
            d.startswith(("longest road", "points", "visible points")) for d in differences
        ):
            if self._is_cut_short():
                self._note(CATANATRON_BUG, "a road's last segment to another's building", detail)
            elif kind == "BUILD_SETTLEMENT" and self._is_award_by_max():
                self._note(CATANATRON_BUG, "Longest Road after a break", detail)
            else:
                self._unexplained("Longest Road", detail)
        else:
            self._unexplained(f"state after {kind}", "; ".join(differences))
        self._adopt_hexlan()
        if self._differences():
            self._unexplained("state", "; ".join(self._differences()))

    def _differences(self) -> list[str]:
        """Every field where Catanatron's state and hexlan's differ, described."""
        cat, ours = self.game.state, self.state
        ps, board, mapping = cat.player_state, cat.board, self.mapping
        out: list[str] = []

        def differ(what: str, theirs: object, mine: object) -> None:
            if theirs != mine:
                out.append(f"{what}: Catanatron {theirs}, hexlan {mine}")

        for s, color in enumerate(self.colors):
            key = f"P{s}"
            differ(f"hand {s}", [ps[f"{key}_{r}_IN_HAND"] for r in RESOURCE_NAMES], ours.hands[s])
            differ(
                f"development cards {s}",
                [ps[f"{key}_{c}_IN_HAND"] for c in DEV_CARD_NAMES],
                ours.dev_cards[s],
            )
            differ(f"knights {s}", ps[f"{key}_PLAYED_KNIGHT"], ours.knights[s])
            differ(f"points {s}", ps[f"{key}_ACTUAL_VICTORY_POINTS"], ours.victory_points(s))
            differ(
                f"visible points {s}",
                ps[f"{key}_VICTORY_POINTS"],
                ours.public_vp[s] - ours.revealed_vp_cards[s],
            )
            buildings = cat.buildings_by_color[color]
            differ(
                f"settlements {s}",
                sorted(mapping.node_of[n] for n in buildings["SETTLEMENT"]),
                sorted(ours.settlements[s]),
            )
            differ(
                f"cities {s}",
                sorted(mapping.node_of[n] for n in buildings["CITY"]),
                sorted(ours.cities[s]),
            )
            differ(
                f"roads {s}",
                sorted(mapping.path_of(e) for e in buildings["ROAD"]),
                sorted(ours.roads[s]),
            )
            differ(
                f"pieces left {s}",
                [ps[f"{key}_{p}_AVAILABLE"] for p in ("ROADS", "SETTLEMENTS", "CITIES")],
                list(ours.pieces_left(s)),
            )
            differ(f"longest road {s}", board.road_lengths[color], ours.road_length[s])
            differ(f"longest road holder {s}", ps[f"{key}_HAS_ROAD"], ours.longest_road_holder == s)
            differ(f"largest army {s}", ps[f"{key}_HAS_ARMY"], ours.largest_army_holder == s)
        differ("robber", mapping.hex_of[board.robber_coordinate], ours.robber)
        differ("bank", list(cat.resource_freqdeck), ours.bank)
        deck = Counter(cat.development_listdeck)
        differ("deck", [deck[c] for c in DEV_CARD_NAMES], ours.deck)
        if not ours.is_over and self.game.winning_color() is None:
            differ("turn", cat.current_turn_index, ours.active)
            differ("to act", cat.current_player_index, ours.current_player())
            # Catanatron grants two free roads and stops when none is left to build; hexlan
            # grants what the seat has left, and keeps the count when the card ends early.
            roads_left = ps[f"P{cat.current_turn_index}_ROADS_AVAILABLE"]
            differ(
                "road building",
                (cat.is_road_building, min(cat.free_roads_available, roads_left))
                if cat.is_road_building
                else (False, 0),
                (True, ours.free_roads) if ours.phase is Phase.ROAD_BUILDING else (False, 0),
            )
        return out

    def _is_shortage(self, differences: list[str]) -> bool:
        """Whether a roll's differences are exactly the official bank-shortage exception: for
        each resource that differs, hexlan gave the one seat owed what the bank had left,
        Catanatron gave nobody anything."""
        if not all(d.startswith(("hand", "bank")) for d in differences):
            return False
        cat, ours = self.game.state, self.state
        for r, name in enumerate(RESOURCE_NAMES):
            theirs = [cat.player_state[f"P{s}_{name}_IN_HAND"] for s in range(ours.players)]
            extra = [ours.hands[s][r] - theirs[s] for s in range(ours.players)]
            if any(extra):
                gainers = [s for s in range(ours.players) if extra[s]]
                if len(gainers) != 1 or ours.bank[r] != 0:
                    return False
                if extra[gainers[0]] != cat.resource_freqdeck[r]:
                    return False
        return True

    def _is_cut_short(self) -> bool:
        """Whether each road length where Catanatron differs lies between hexlan's without the
        segments that end at another seat's building and hexlan's own: Catanatron's trail never
        enters such an intersection, so a length it computes drops the segment leading there
        (officially the road is broken there and the segment still counts), and it keeps the
        larger of that and the length it had before."""
        ours = self.state
        topology, owner = ours.topology, ours.node_owner
        cut = False
        for s, color in enumerate(self.colors):
            theirs = self.game.state.board.road_lengths[color]
            if theirs == ours.road_length[s]:
                continue
            kept = [
                p
                for p in ours.roads[s]
                if all(owner[n] in (NO_SEAT, s) for n in topology.path_nodes[p])
            ]
            if not longest_road(topology, kept, s, owner) <= theirs < ours.road_length[s]:
                return False
            cut = True
        return cut

    def _is_award_by_max(self) -> bool:
        """Whether Catanatron, after a settlement broke a road, gave Longest Road to a seat
        that is longest but below the minimum or tied (it takes the first longest seat, where
        the official rule sets the card aside or leaves it with the tied holder)."""
        ours = self.state
        lengths = ours.road_length
        holders = [s for s in range(ours.players) if self.game.state.player_state[f"P{s}_HAS_ROAD"]]
        if len(holders) != 1 or holders[0] == ours.longest_road_holder:
            return False
        best = max(lengths)
        return bool(lengths[holders[0]] == best) and (
            best < ours.longest_road_min or lengths.count(best) > 1
        )

    def _adopt_hexlan(self) -> None:
        """Carry hexlan's hands, bank, Longest Road and points over into Catanatron."""
        cat, ours = self.game.state, self.state
        ps = cat.player_state
        for s in range(ours.players):
            key = f"P{s}"
            for r, name in enumerate(RESOURCE_NAMES):
                ps[f"{key}_{name}_IN_HAND"] = ours.hands[s][r]
            ps[f"{key}_HAS_ROAD"] = ours.longest_road_holder == s
            ps[f"{key}_VICTORY_POINTS"] = ours.public_vp[s] - ours.revealed_vp_cards[s]
            ps[f"{key}_ACTUAL_VICTORY_POINTS"] = ours.victory_points(s)
            ps[f"{key}_LONGEST_ROAD_LENGTH"] = ours.road_length[s]
            cat.board.road_lengths[self.colors[s]] = ours.road_length[s]
        cat.resource_freqdeck = list(ours.bank)
        holder = ours.longest_road_holder
        cat.board.road_color = None if holder == NO_SEAT else self.colors[holder]
        # Catanatron has no card set aside: with none held, a road takes the card only by being
        # longer than every other (and at least 5), as in hexlan.
        cat.board.road_length = (
            max(ours.road_length) if holder == NO_SEAT else ours.road_length[holder]
        )
        self._set_playable(self._regenerate(cat))

    # ------------------------------------------------------------------ records

    def _note(self, kind: str, rule: str, detail: str) -> None:
        result = self.result
        result.disagreements.append(
            Disagreement(result.seed, self._log_length(), kind, rule, detail)
        )

    def _unexplained(self, rule: str, detail: str) -> None:
        self._note(UNEXPLAINED, rule, detail)
        raise _Stop

    def _victory_detail(self, winner: Any) -> str:
        seat = self.seat_of[winner]
        return (
            f"Catanatron ends the game: seat {seat} has"
            f" {self.game.state.player_state[f'P{seat}_ACTUAL_VICTORY_POINTS']} points on"
            f" seat {self.game.state.current_turn_index}'s turn; hexlan's winner:"
            f" {self.state.winner if self.state.is_over else 'none yet (it waits for its turn)'}"
        )


_CARD_OF: Final[dict[type, DevCard]] = {
    A.PlayKnight: DevCard.KNIGHT,
    A.PlayYearOfPlenty: DevCard.YEAR_OF_PLENTY,
    A.PlayMonopoly: DevCard.MONOPOLY,
    A.PlayRoadBuilding: DevCard.ROAD_BUILDING,
}
"""The development card each play spends."""


class _Stop(Exception):
    """An unexplained disagreement: this game's lockstep ends."""


def check_opponent(opponent: str, venv: Path | None) -> None:
    """Refuse, before any venv is made, an opponent the pinned release does not ship when no
    other Catanatron is given.

    Raises:
        BridgeError: the opponent needs ``--catanatron-venv``.
    """
    if opponent not in SHIPPED and venv is None:
        raise BridgeError(
            f"--opponent {opponent}: no Catanatron release on PyPI ships it"
            f" ({CATANATRON_REQUIREMENT} is the newest and has only {', '.join(SHIPPED)});"
            f" {PLAYERS[opponent].split(':')[1]} is in Catanatron's unreleased 3.3 sources:"
            " give a venv with them installed as --catanatron-venv"
        )


def _player_class(opponent: str) -> Callable[[Any], Any]:
    """Catanatron's player class for an ``--opponent`` name, from the Catanatron loaded.

    Raises:
        BridgeError: this Catanatron has no such player.
    """
    module_name, class_name = PLAYERS[opponent].split(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, class_name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        raise BridgeError(f"--opponent {opponent}: this Catanatron has no {class_name}") from None


def _why_not_playable(action: Action) -> tuple[str, str]:
    """Name a hexlan-legal move Catanatron does not list, when the reason is known."""
    if isinstance(action, A.PlayYearOfPlenty) and len(action.resources) == 1:
        return ("Year of Plenty for one card", READING)
    return ("hexlan move Catanatron lacks", UNEXPLAINED)


def run(
    opponent: str,
    games: int,
    players: int,
    seed: int,
    strategy: str,
    report: Callable[[str], None],
    verbose: bool = False,
    venv: Path | None = None,
    think: float = DEFAULT_THINK,
) -> dict[str, Any]:
    """Play ``games`` bridged games and return the figures (see the module docstring);
    ``venv``: a venv with another Catanatron than the pinned one."""
    check_opponent(opponent, venv)
    load_catanatron(venv)
    catanatron = f"catanatron=={importlib.metadata.version('catanatron')}"
    results: list[GameResult] = []
    start = time.perf_counter()
    for i in range(games):
        result = Lockstep(seed + i, players, i % players, opponent, strategy, think).play()
        results.append(result)
        for disagreement in result.disagreements:
            report(disagreement.line())
        if verbose:
            report(
                f"game seed={result.seed} seat={result.hexlan_seat} winner={result.winner}"
                f" turns={result.turns} actions={result.actions}"
                + (" ABORTED" if result.aborted else "")
            )
    seconds = time.perf_counter() - start
    counted = [r for r in results if not r.aborted]
    wins = sum(r.winner == r.hexlan_seat for r in counted)
    low, high = wilson(wins, len(counted))
    found = [d for r in results for d in r.disagreements]
    return {
        "opponent": opponent,
        "catanatron": catanatron,
        "strategy": strategy,
        "think": think,
        "players": players,
        "games": len(counted),
        "wins": wins,
        "win_rate": wins / len(counted) if counted else 0.0,
        "ci95": [low, high],
        "no_winner": sum(r.winner is None for r in counted),
        "aborted": len(results) - len(counted),
        "disagreements": len(found),
        "unexplained": sum(d.kind == UNEXPLAINED for d in found),
        "by_rule": dict(Counter(f"{d.kind}: {d.rule}" for d in found)),
        "actions": sum(r.actions for r in results),
        "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the games, print the figures; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=OPPONENTS, required=True)
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--strategy", choices=sorted(BOTS), default="heuristic")
    parser.add_argument(
        "--think",
        type=float,
        default=DEFAULT_THINK,
        help="mcts: think x NOMINAL_RATE playouts per decision, no clock (default 1)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per game")
    parser.add_argument(
        "--catanatron-venv",
        type=Path,
        help=f"a venv with another Catanatron installed (default: {CATANATRON_REQUIREMENT}"
        " in a throwaway venv); AlphaBetaPlayer and ValueFunctionPlayer need 3.3",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not args.think > 0:
        parser.error("--think must be a positive number of seconds")
    if args.seed < 1:
        parser.error("--seed must be at least 1 (Catanatron takes a seed of 0 for none)")
    if argv is None and os.environ.get("PYTHONHASHSEED") != "0":
        # Catanatron lists some moves from sets of strings: fix their order, so that a seed
        # replays its game (maritime trades still follow hash(None), an address on 3.11).
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"}
        )
    try:
        figures = run(
            args.opponent,
            args.games,
            args.players,
            args.seed,
            args.strategy,
            lambda line: print(line, flush=True),
            args.verbose,
            args.catanatron_venv,
            args.think,
        )
    except BridgeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    low, high = figures["ci95"]
    print(
        f"hexlan {args.strategy} vs Catanatron {args.opponent} ({args.players} players):"
        f" {figures['wins']}/{figures['games']} won = {figures['win_rate']:.1%}"
        f" (95% CI {low:.1%}-{high:.1%}); no winner {figures['no_winner']},"
        f" aborted {figures['aborted']}; disagreements {figures['disagreements']}"
        f" ({figures['unexplained']} unexplained); {figures['seconds']:.0f} s"
    )
    for rule, count in sorted(figures["by_rule"].items()):
        print(f"  {count:5d}  {rule}")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
