"""Golden tests: the base game behaves exactly as the code recorded in tests/golden/ did.

Guard rails for refactoring the engine (issue 8): whatever moves inside the engine, the base game
on the base board must play the same, bit for bit. The data was recorded from the code itself:

- ``tests/golden/engine.json``: the base topology's tables; the beginner board and seeded random
  boards; and seeded games (2, 3 and 4 seats, beginner and random boards, spiral and random
  tokens, official rules, seed 003 and other options; heuristic and random bots through
  :mod:`hexlan.simulate`'s loop, and random play with domestic trades and counter-offers). Per
  game: the number of actions, the SHA-256 of the sequence of ``public_hash`` and of
  ``full_hash`` after every action, the final hashes and a hash of ``to_dict()``, a hash of every
  action in wire form, of every legal action list (each acting seat's, or the chance outcomes)
  before every action and of every seat's information state after every action, and a few
  checkpoints (the state and legal-action hashes at steps 0, 1, 10, 100, 300, 1000) that
  narrow down where a game first differs.
- ``tests/golden/logs.json``: the SHA-256 of seat 0's complete signed game log of seeded
  in-process tables with fixed keys (``SeatKeys.seeded``), played through the machinery of
  scripts/protocol_vectors.py (whose own vector game, docs/vectors/game.hexlan, is pinned here
  too: regenerating the vectors must not change it silently).

When a change is *meant* to alter any of this, regenerate the data and commit it with the change::

    .venv/bin/python tests/test_golden.py --write    # rewrite tests/golden/*.json
    .venv/bin/python tests/test_golden.py            # only list what differs (exit 1 if any)

A plain module besides being a test: pytest puts ``tests/`` on ``sys.path`` (no
``__init__.py``), and running the file directly does the same, so ``random_play`` imports either
way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from random_play import choose, offer_for_one_or_two
from scripts_import import load_script

from hexlan.chance import SeededChance
from hexlan.engine.actions import Action, action_to_list
from hexlan.engine.board import TokenMode, beginner_board, random_board
from hexlan.engine.bots import make_bot
from hexlan.engine.info import InformationState, advance_views
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.state import CHANCE, GameState
from hexlan.simulate import TURN_CAP, GameResult, play_game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
ENGINE_FILE = GOLDEN / "engine.json"
LOGS_FILE = GOLDEN / "logs.json"
REGENERATE = "`.venv/bin/python tests/test_golden.py --write`"

CHECKPOINTS = (0, 1, 10, 100, 300, 1000)
"""Steps (actions applied so far) at which a game's state and legal actions are kept one by one."""
RANDOM_BOARDS = 20
"""Seeded random boards pinned per token mode."""
RANDOM_PLAY_CAP = 20_000
"""Actions after which a random-play game stops."""


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------- the board


def topology_golden() -> dict[str, str]:
    """A hash of each table of the base topology: ids must not move (actions name them)."""
    topo = load_map().topology
    tables: dict[str, Any] = {
        name: getattr(topo, name)
        for name in (
            "hex_centres",
            "hex_rows",
            "node_xy",
            "path_nodes",
            "hex_nodes",
            "node_hexes",
            "node_nodes",
            "node_paths",
            "hex_hexes",
            "coast",
        )
    }
    tables["path_of"] = sorted((sorted(pair), path) for pair, path in topo.path_of.items())
    return {name: _sha(_canonical(value)) for name, value in tables.items()}


def boards_golden() -> dict[str, str]:
    """The beginner board and the random boards of seeds 0..19 (a hash per token mode)."""
    result = {"beginner": _sha(_canonical(beginner_board().to_dict()))}
    modes: tuple[TokenMode, ...] = ("spiral", "random")
    for mode in modes:
        boards = [random_board(random.Random(s), mode).to_dict() for s in range(RANDOM_BOARDS)]
        result[f"random-{mode}"] = _sha(_canonical(boards))
    return result


# ---------------------------------------------------------------------------- the games


@dataclass(frozen=True)
class GameCase:
    """One seeded game.

    ``bots`` names a bot per seat (:func:`hexlan.engine.bots.make_bot`, seeded as
    :func:`hexlan.simulate.play_game` seeds them), or is empty for random play
    (``random_play.choose`` with domestic offers, one ``random.Random(seed)`` for choices).
    """

    name: str
    seed: int
    players: int
    board: str = "random"
    tokens: TokenMode = "spiral"
    options: GameOptions = field(default_factory=GameOptions)
    bots: tuple[str, ...] = ()

    def spec(self) -> dict[str, Any]:
        """The case as plain data (kept in the golden file, so a changed case shows)."""
        return {
            "seed": self.seed,
            "players": self.players,
            "board": self.board,
            "tokens": self.tokens,
            "options": self.options.to_dict(),
            "bots": list(self.bots),
        }

    @property
    def is_plain_simulation(self) -> bool:
        """Whether :func:`hexlan.simulate.play_game` plays this very game."""
        return bool(self.bots) and self.tokens == "spiral" and self.options == GameOptions()


GAMES = (
    GameCase("beginner-2-heuristic", 1, 2, board="beginner", bots=("heuristic",) * 2),
    GameCase("random-3-mixed", 2, 3, bots=("heuristic", "random", "heuristic")),
    GameCase("random-4-heuristic", 3, 4, bots=("heuristic",) * 4),
    GameCase("beginner-4-random", 4, 4, board="beginner", bots=("random",) * 4),
    GameCase("random-2-seed003", 5, 2, options=GameOptions.seed003(), bots=("heuristic",) * 2),
    GameCase(
        "random-tokens-3-variant",
        6,
        3,
        tokens="random",
        options=GameOptions(
            victory_points=8,
            knight_only_before_roll=True,
            robber_before_discard=True,
            mixed_three_to_one=True,
        ),
        bots=("heuristic",) * 3,
    ),
    GameCase(
        "beginner-3-random-play", 7, 3, board="beginner", options=GameOptions(victory_points=7)
    ),
    GameCase(
        "random-4-random-play-seed003",
        8,
        4,
        options=GameOptions(**{**GameOptions.seed003().to_dict(), "victory_points": 7}),
    ),
    GameCase(
        "random-2-random-play-variant",
        9,
        2,
        options=GameOptions(
            victory_points=6, vp_cards_next_turn=True, knight_only_before_roll=True
        ),
    ),
)


class _Sequence:
    """A running SHA-256 over a sequence of text items (one newline after each)."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, item: str) -> None:
        self._hash.update(item.encode())
        self._hash.update(b"\n")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def _actions_text(actions: Iterable[Action]) -> str:
    return _canonical([action_to_list(a) for a in actions])


def _legal_text(state: GameState) -> str:
    """Every legal list due now: the chance outcomes, or each acting seat's legal actions."""
    if state.current_player() == CHANCE:
        return _canonical([[action_to_list(a), p] for a, p in state.chance_outcomes()])
    return _canonical(
        [
            [seat, [action_to_list(a) for a in state.legal_actions(seat)]]
            for seat in state.acting_seats()
        ]
    )


def _view_text(view: InformationState) -> str:
    """A seat's knowledge: its state's hashes and its opponents' possible hands."""
    groups = [[list(seats), sorted(worlds)] for seats, worlds in view.joint_hands()]
    return _canonical([view.full_hash(), groups])


def play_case(case: GameCase) -> tuple[dict[str, Any], GameResult]:
    """Play ``case`` to its end and record its golden values (and the result as simulate gives
    it). Every action is checked on the full state and on every seat's view before it applies."""
    chance = SeededChance(case.seed)
    state = GameState(chance.board(case.board, case.tokens), case.players, case.options)
    views = [
        InformationState(state.board, case.players, seat, case.options)
        for seat in range(case.players)
    ]
    choices = random.Random(case.seed)
    policies = [
        make_bot(name, random.Random(case.seed * 31 + i)) for i, name in enumerate(case.bots)
    ]
    public, full, actions, legal, info = (_Sequence() for _ in range(5))
    checkpoints: dict[str, dict[str, str]] = {}
    steps = decisions = 0

    def more() -> bool:
        if case.bots:
            return not state.is_over and state.turn <= TURN_CAP
        return not state.is_over and steps < RANDOM_PLAY_CAP

    while more():
        legal_text = _legal_text(state)
        legal.add(legal_text)
        if steps in CHECKPOINTS:
            checkpoints[str(steps)] = {"full": state.full_hash(), "legal": _sha(legal_text)}
        seat = state.current_player()
        action: Action
        if seat == CHANCE:
            action = chance.outcome(state)
        elif case.bots:
            own = views[seat]
            legal.add(_actions_text(own.legal_actions(seat)))
            action = policies[seat].choose(own, seat)
            decisions += 1
        else:
            action = choose(state, choices, offer_for_one_or_two)
            decisions += 1
        advance_views(state, views, action, check=True)
        steps += 1
        actions.add(_actions_text([action]))
        public.add(state.public_hash())
        full.add(state.full_hash())
        for view in views:
            info.add(_view_text(view))
    result = GameResult(
        seed=case.seed,
        winner=state.winner if state.is_over else None,
        victory_points=[state.victory_points(s) for s in range(case.players)],
        turns=state.turn,
        actions=decisions,
    )
    golden = {
        "case": case.spec(),
        "board": _sha(_canonical(state.board.to_dict())),
        "steps": steps,
        "decisions": decisions,
        "turns": state.turn,
        "winner": result.winner,
        "victory_points": result.victory_points,
        "actions": actions.hexdigest(),
        "public_hashes": public.hexdigest(),
        "full_hashes": full.hexdigest(),
        "final_public_hash": state.public_hash(),
        "final_full_hash": state.full_hash(),
        "final_to_dict": _sha(_canonical(state.to_dict())),
        "legal_actions": legal.hexdigest(),
        "information_states": info.hexdigest(),
        "checkpoints": checkpoints,
    }
    return golden, result


def engine_golden() -> dict[str, Any]:
    """Everything tests/golden/engine.json holds, computed by the code now."""
    return {
        "about": f"Recorded by tests/test_golden.py; regenerate with {REGENERATE}.",
        "topology": topology_golden(),
        "boards": boards_golden(),
        "games": {case.name: play_case(case)[0] for case in GAMES},
    }


# ---------------------------------------------------------------------------- the signed logs


@dataclass(frozen=True)
class TableCase:
    """A seeded in-process table played to its end by heuristic bots (scripts/protocol_vectors.py
    ``_Game``: keys ``SeatKeys.seeded(seed, seat)``, bot of seat ``s`` seeded with ``s``)."""

    name: str
    seed: int
    names: tuple[str, ...]
    board: str = "beginner"
    options: GameOptions | None = None
    game: str = "base"

    def spec(self) -> dict[str, Any]:
        spec = {
            "seed": self.seed,
            "names": list(self.names),
            "board": self.board,
            "options": None if self.options is None else self.options.to_dict(),
        }
        return spec if self.game == "base" else {**spec, "game": self.game}


TABLES = (
    TableCase("random-3", 1, ("ana", "ben", "cy"), board="random"),
    TableCase("beginner-4", 2, ("ana", "ben", "cy", "dee")),
    TableCase("random-2-seed003", 3, ("ana", "ben"), board="random", options=GameOptions.seed003()),
    # Other games' logs pin the protocol steps the base game never takes: a Spy's openings and
    # the Master Merchant's hand, Monopoly counts of several a turn (Cities & Knights), the
    # special building phase's acknowledgements (5-6 players), the fleet's loot (Pirate Islands).
    TableCase("cities-and-knights-3", 7, ("ana", "ben", "cy"), "random", game="cities-and-knights"),
    TableCase("five-six-5", 5, ("a", "b", "c", "d", "e"), "random", game="five-six"),
    TableCase(
        "pirate-islands-4",
        5,
        ("ana", "ben", "cy", "dee"),
        "random",
        game="seafarers-pirate-islands",
    ),
)


def play_table(case: TableCase) -> dict[str, Any]:
    """The golden values of one table's log: its SHA-256, size, message count and winner."""
    generator = load_script("protocol_vectors")
    game = generator._Game(case.names, case.seed, case.options, case.board, game=case.game)
    log: bytes = generator.game_log_bytes(game)
    return {
        "case": case.spec(),
        "sha256": _sha(log),
        "bytes": len(log),
        "messages": len(game.log),
        "winner": game.sessions[0].view.winner,
    }


def vector_log_golden() -> dict[str, Any]:
    """The vector game's log as committed (tests/test_protocol_vectors.py checks that the code
    still writes exactly this file)."""
    generator = load_script("protocol_vectors")
    path = ROOT / "docs" / generator.GAME_LOG
    return {"path": str(path.relative_to(ROOT)), "sha256": _sha(path.read_bytes())}


def logs_golden() -> dict[str, Any]:
    """Everything tests/golden/logs.json holds, computed by the code now."""
    return {
        "about": f"Recorded by tests/test_golden.py; regenerate with {REGENERATE}.",
        "vector_game": vector_log_golden(),
        "tables": {case.name: play_table(case) for case in TABLES},
    }


# ---------------------------------------------------------------------------- the tests


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _differences(recorded: Any, now: Any, where: str = "") -> list[str]:
    """The paths at which two JSON values differ, e.g. ``checkpoints.100.full``."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        found: list[str] = []
        for key in sorted(set(recorded) | set(now)):
            path = f"{where}.{key}" if where else str(key)
            if key not in recorded or key not in now:
                found.append(f"{path} (only {'now' if key in now else 'recorded'})")
            else:
                found += _differences(recorded[key], now[key], path)
        return found
    return [] if recorded == now else [f"{where}: recorded {recorded!r}, now {now!r}"]


def _assert_same(recorded: Any, now: Any, what: str) -> None:
    differences = _differences(recorded, now)
    assert not differences, (
        f"{what} differs from the golden data:\n  "
        + "\n  ".join(differences)
        + f"\nIf the change is meant, regenerate with {REGENERATE}."
    )


@pytest.fixture(scope="module")
def engine_data() -> dict[str, Any]:
    return _load(ENGINE_FILE)


@pytest.fixture(scope="module")
def logs_data() -> dict[str, Any]:
    return _load(LOGS_FILE)


def test_the_cases_are_the_recorded_ones(
    engine_data: dict[str, Any], logs_data: dict[str, Any]
) -> None:
    assert list(engine_data["games"]) == [case.name for case in GAMES]
    assert list(logs_data["tables"]) == [case.name for case in TABLES]


def test_topology(engine_data: dict[str, Any]) -> None:
    _assert_same(engine_data["topology"], topology_golden(), "the base topology")


def test_boards(engine_data: dict[str, Any]) -> None:
    _assert_same(engine_data["boards"], boards_golden(), "the boards")


@pytest.mark.parametrize("case", GAMES, ids=lambda case: case.name)
def test_game(case: GameCase, engine_data: dict[str, Any]) -> None:
    golden, result = play_case(case)
    _assert_same(engine_data["games"][case.name], golden, f"game {case.name}")
    if case.is_plain_simulation:  # the simulate loop itself plays the same game
        assert play_game(case.seed, case.bots, case.board) == result


@pytest.mark.parametrize("case", TABLES, ids=lambda case: case.name)
def test_signed_log(case: TableCase, logs_data: dict[str, Any]) -> None:
    _assert_same(logs_data["tables"][case.name], play_table(case), f"the log of table {case.name}")


def test_the_vector_log(logs_data: dict[str, Any]) -> None:
    _assert_same(logs_data["vector_game"], vector_log_golden(), "docs/vectors/game.hexlan")


# ---------------------------------------------------------------------------- regenerating


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check or rewrite tests/golden/*.json.")
    parser.add_argument("--write", action="store_true", help="rewrite the golden data")
    args = parser.parse_args(argv)
    makers: dict[Path, Callable[[], dict[str, Any]]] = {
        ENGINE_FILE: engine_golden,
        LOGS_FILE: logs_golden,
    }
    stale = False
    for path, make in makers.items():
        data = make()
        if args.write:
            _write_json(path, data)
            print(f"wrote {path.relative_to(ROOT)}")
            continue
        recorded = _load(path) if path.exists() else {}
        differences = _differences(recorded, data)
        stale = stale or bool(differences)
        print(f"{path.relative_to(ROOT)}: {'DIFFERS' if differences else 'up to date'}")
        for line in differences:
            print(f"  {line}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
