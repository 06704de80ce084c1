"""Shared helpers for the engine rule tests: blank positions, seeded set-ups, direct placement.

Tests build positions with :class:`Table` (through the ``table`` fixture) and then assert on real
behaviour through ``play`` / ``apply`` / ``legal_actions``. The shortcuts that set state fields
directly are documented on each method; every one of them keeps the 19-cards-per-resource and
25-development-card totals intact, so the invariants the engine relies on still hold.

Board geometry used by many tests (beginner board, ``hexlan.engine.topology`` ids):

- hexes 0..18 in rows of 3, 4, 5, 4, 3; hex 9 is the desert (robber start);
  hex 0 mountains 10, hex 4 hills 6, hex 8 forest 11, hex 17 fields 6, hex 18 pasture 11.
- intersections 0..53 in reading order; the top coast runs 3-0-4-1-5-2-6.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from _pytest import nodeid as pytest_nodeid
from hypothesis import settings

from hexlan.engine import actions as A
from hexlan.engine.board import Board, beginner_board
from hexlan.engine.core import DevCard, Hand, IllegalActionError, NodeId, PathId, Phase, Seat
from hexlan.engine.maps import load_map
from hexlan.engine.options import GameOptions
from hexlan.engine.ruleset import RuleSet
from hexlan.engine.state import GameState

# No test reads the developer's own saved settings (hexlan/settings.py): every command the tests
# run, in this process or in a child process, finds an empty user config directory.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hexlan-test-config-")
# Every test speaks English unless it chooses a language itself (hexlan/i18n.py): a developer's
# Russian locale does not reach the commands the tests run.
for _locale_variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
    os.environ.pop(_locale_variable, None)
os.environ["LC_ALL"] = "C.UTF-8"
# ``tmp_path`` lives on tmpfs when there is one with room (a container's may hold 64 MB only),
# like ``data_dir``: the logs tests and their bot processes write there fsync every message,
# which on a disk costs seconds a game.
if Path("/dev/shm").is_dir() and shutil.disk_usage("/dev/shm").free >= 1 << 30:
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", "/dev/shm")

# Property tests draw the same examples on every run, so CI never meets a new one by chance;
# run with HYPOTHESIS_PROFILE=explore to search afresh.
settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """Compile hexlan's modules to bytecode once, in the controller before any worker starts.

    perf: where ``PYTHONDONTWRITEBYTECODE`` is set (this machine's environment sets it), no
    process writes a ``__pycache__``, so every process the tests start (each ``hexlan bot`` of
    a game over TCP, each ``hexlan verify``) compiled about 90 modules from source again: 0.2 s
    of CPU a process, hundreds of processes a run. :func:`compileall.compile_dir` writes the
    bytecode explicitly (it does not ask ``sys.dont_write_bytecode``), and every process then
    reads it as Python always does."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done it
        return
    import compileall
    import importlib.util

    for package in ("hexlan", "hexlan.engine", "hexlan.net", "hexlan.tui"):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=2)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (--dist loadgroup, pyproject)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group and order the tests for the two xdist workers (``--dist loadgroup
    --no-loadscope-reorder``: xdist hands out the work units in collection order, each to the
    first worker with room):

    - the tests of a module that take a module-scoped fixture (a whole game played once for the
      module, say) are one group, so the fixture is computed on one worker only (their node
      ids end in ``@`` and the module's path);
    - ``slow`` tests (whole games between real processes, and a few long in-process ones) come
      first, then the module groups, then the rest: the long work starts at once on both
      workers and the many short tests fill in at the end, so the workers finish together.

    Every other test goes to whichever worker is free."""
    rank: dict[str, int] = {}  # a work unit's place: 0 slow, 1 module group, 2 the rest
    units: dict[pytest.Item, str] = {}
    for item in items:
        unit = item.nodeid
        module = item.nodeid.split("::")[0]
        info = getattr(item, "_fixtureinfo", None)
        fixtures = info.name2fixturedefs.values() if info is not None else ()
        if any(defs[-1].scope == "module" and defs[-1].baseid == module for defs in fixtures):
            # xdist's loadgroup reads the group from a "@group" suffix of the node id; xdist
            # 3.8 writes it to ``item._nodeid``, which pytest 9 no longer reads (every test
            # went out alone and module fixtures were computed on both workers), so the
            # suffix is set here, where pytest 9 keeps the id.
            item._id = pytest_nodeid.NodeId.parse(f"{item.nodeid}@{module}")
            unit = module
        place = 0 if item.get_closest_marker("slow") is not None else 2 if unit != module else 1
        rank[unit] = min(rank.get(unit, place), place)
        units[item] = unit
    items.sort(key=lambda item: rank[units[item]])  # stable: collection order within a rank


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The user data directory (identity, logs) of a test and of the bots it starts: a temporary
    one, on tmpfs when there is one (every message is fsynced)."""
    shm = Path("/dev/shm")
    path = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else None, prefix="hexlan-test-"))
    monkeypatch.setenv("XDG_DATA_HOME", str(path))
    yield path
    shutil.rmtree(path, ignore_errors=True)


TOPOLOGY = load_map().topology
BEGINNER = beginner_board()


def path(a: NodeId, b: NodeId) -> PathId:
    """The path between two adjacent intersections."""
    return TOPOLOGY.path_of[frozenset((a, b))]


def trail(*nodes: NodeId) -> list[PathId]:
    """The paths along a walk through adjacent intersections, e.g. ``trail(3, 0, 4)``."""
    return [path(a, b) for a, b in itertools.pairwise(nodes)]


def hand(lumber: int = 0, brick: int = 0, wool: int = 0, grain: int = 0, ore: int = 0) -> Hand:
    """A resource 5-tuple by name."""
    return (lumber, brick, wool, grain, ore)


class Table:
    """A game in a chosen position, with the shortcuts tests use to reach it.

    The game starts past set-up with an empty board: seat ``active`` is in :attr:`Phase.MAIN` of
    turn 1 (set directly: set-up has its own tests). Pieces and cards are then placed with
    :meth:`build`, :meth:`give` and :meth:`give_dev`. ``rules`` plays another game (a variant's
    rule set, with ``board`` on its map).
    """

    def __init__(
        self,
        players: int = 4,
        options: GameOptions | None = None,
        board: Board | None = None,
        active: Seat = 0,
        rules: RuleSet | None = None,
    ) -> None:
        state = GameState(board or BEGINNER, players, options, rules)
        state.play(A.StartPlayer(active))
        state.setup_step = len(state.setup_order)  # direct: set-up skipped
        state.turn = 1
        state.phase = Phase.MAIN
        self.state = state

    # -------------------------------------------------------------- direct set-up (documented)

    def give(self, seat: Seat, cards: Hand) -> None:
        """Move ``cards`` from the bank to the seat's hand (direct; totals are conserved)."""
        s = self.state
        for r, n in enumerate(cards):
            assert s.bank[r] >= n, f"the bank lacks {cards}"
            s.bank[r] -= n
            s.hands[seat][r] += n
        s.hand_size[seat] += sum(cards)

    def take(self, seat: Seat, cards: Hand) -> None:
        """Move ``cards`` from the seat's hand back to the bank (direct)."""
        s = self.state
        for r, n in enumerate(cards):
            assert s.hands[seat][r] >= n
            s.bank[r] += n
            s.hands[seat][r] -= n
        s.hand_size[seat] -= sum(cards)

    def empty_bank(self, resource: int, leave: int = 0) -> None:
        """Park the bank's cards of one resource with the seat holding fewest others (direct):
        the bank keeps ``leave``. The cards go to the last seat so tests can use the others."""
        s = self.state
        n = s.bank[resource] - leave
        cards = [0, 0, 0, 0, 0]
        cards[resource] = n
        self.give(s.players - 1, (cards[0], cards[1], cards[2], cards[3], cards[4]))

    def give_dev(self, seat: Seat, card: DevCard, count: int = 1, new: bool = False) -> None:
        """Deal development cards from the deck (direct). ``new``: bought this turn."""
        s = self.state
        assert s.deck[card] >= count
        s.deck[card] -= count
        s.dev_cards[seat][card] += count
        s.dev_count[seat] += count
        if new:
            s.new_dev_cards[seat][card] += count
            s.new_dev_count[seat] += count

    def build(
        self,
        seat: Seat,
        roads: Iterable[PathId] = (),
        settlements: Iterable[NodeId] = (),
        cities: Iterable[NodeId] = (),
    ) -> None:
        """Place pieces for ``seat`` through the engine's own unchecked ``apply`` (so Longest
        Road, harbours and caches update as in play), with the cost given first so hands do
        not change. Placement legality is not checked: scenarios may put pieces anywhere.
        The phase and active seat are restored afterwards."""
        s = self.state
        phase, active = s.phase, s.active
        s.active, s.phase = seat, Phase.MAIN
        for node in settlements:
            self.give(seat, s.rules.settlement_cost)
            s.apply(A.BuildSettlement(node))
        for node in cities:
            if node not in s.settlements[seat]:
                self.give(seat, s.rules.settlement_cost)
                s.apply(A.BuildSettlement(node))
            self.give(seat, s.rules.city_cost)
            s.apply(A.BuildCity(node))
        for p in roads:
            self.give(seat, s.rules.road_cost)
            s.apply(A.BuildRoad(p))
        s.phase, s.active = phase, active

    def main(self, seat: Seat) -> None:
        """Make ``seat`` the active seat in the main phase (direct; the roll is skipped)."""
        self.state.active = seat
        self.state.phase = Phase.MAIN

    def at_roll(self, seat: Seat) -> None:
        """Make ``seat`` the active seat before its roll (direct)."""
        self.state.active = seat
        self.state.phase = Phase.ROLL

    # -------------------------------------------------------------- real play

    def play(self, *actions: A.Action) -> None:
        """Play each action, checked."""
        for action in actions:
            self.state.play(action)

    def roll(self, first: int, second: int) -> None:
        """Roll (checked) and supply the dice outcome."""
        self.play(A.RollDice(), A.Dice(first, second))

    def legal(self, seat: Seat | None = None) -> list[A.Action]:
        """The state's legal actions."""
        return self.state.legal_actions(seat)

    def rejected(self, action: A.Action, *words: str) -> None:
        """See :func:`assert_rejected`."""
        assert_rejected(self.state, action, *words)

    # -------------------------------------------------------------- geometry and data shortcuts
    # Tests reach these through the fixture (``table.trail(3, 0, 4)``), so no test module has to
    # import this conftest by name.

    path = staticmethod(path)
    trail = staticmethod(trail)
    hand = staticmethod(hand)


@pytest.fixture
def table() -> type[Table]:
    """The :class:`Table` factory: ``t = table(players=3, options=...)``."""
    return Table


def play_random_setup(state: GameState, rng: random.Random) -> None:
    """Play the start-player chance outcome and a uniformly random legal set-up."""
    if state.phase is Phase.START_PLAYER:
        outcomes = state.chance_outcomes()
        state.play(outcomes[rng.randrange(len(outcomes))][0])
    while state.phase in (Phase.SETUP_SETTLEMENT, Phase.SETUP_ROAD):
        state.play(rng.choice(state.legal_actions()))


def seeded_setup(players: int = 4, seed: int = 0, options: GameOptions | None = None) -> GameState:
    """A game on the beginner board after a random legal set-up drawn from ``seed``."""
    state = GameState(BEGINNER, players, options)
    play_random_setup(state, random.Random(seed))
    return state


@pytest.fixture
def setup_game() -> GameState:
    """A four-player game after a seeded random set-up, at the first roll."""
    return seeded_setup(4, seed=7)


@pytest.fixture
def rejected() -> object:
    """:func:`assert_rejected`, for tests that hold a bare state."""
    return assert_rejected


def assert_rejected(state: GameState, action: A.Action, *words: str) -> None:
    """``play(action)`` raises IllegalActionError naming ``words`` and leaves the state as it
    was (full hash compared)."""
    before = state.full_hash()
    with pytest.raises(IllegalActionError) as info:
        state.play(action)
    assert state.full_hash() == before
    message = str(info.value).lower()
    for word in words:
        assert word.lower() in message, f"{word!r} not in {message!r}"


def conserved(state: GameState) -> bool:
    """Bank plus hands hold the rule set's count of every resource."""
    per = state.rules.bank_per_resource
    return all(state.bank[r] + sum(h[r] for h in state.hands) == per for r in range(5))


Table.seeded_setup = staticmethod(seeded_setup)
Table.conserved = staticmethod(conserved)


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """Every test starts in English and leaves English behind: a test that chooses Russian
    (``--lang ru`` run in this process, say) does not change the next one's words."""
    from hexlan.i18n import SOURCE_LANGUAGE, current_language, set_language

    if current_language() != SOURCE_LANGUAGE:
        set_language(SOURCE_LANGUAGE)
    yield
    if current_language() != SOURCE_LANGUAGE:
        set_language(SOURCE_LANGUAGE)
