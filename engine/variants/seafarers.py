"""Seafarers (seed 002 «Мореходы»; docs/rules/seafarers.md): ships, the pirate, gold fields,
Longest Trade Route and island bonuses, on a map for ships (seeds/boards/seafarers-*.toml).

- **Ships** (``[costs] ship``, ``[pieces] ship`` of the rule set): on a path with sea on a side,
  joined to an own ship or an own settlement or city (so a ship never continues a road, nor a road
  a ship, except through the seat's own building); a coastal path holds a road or a ship, not
  both (its owner is in ``path_owner`` either way). In set-up the road beside the settlement may be
  a ship; Road Building gives two pieces, roads or ships in any mix.
- **Moving a ship**, once a turn after the roll: only a ship at the open end of a route (one of its
  ends touches no other own ship and no own building), not one built this turn, to any place it
  could be built with it lifted; never from or to a side of the pirate's hex.
- **The pirate** stands on a sea hex (the rule set's ``pirate``); a 7 or a knight moves the robber
  *or* the pirate; the pirate's mover robs a seat with a ship on a side of its new hex; no ship
  is built on, or moved from or to, a side of its hex.
- **Gold fields** (:attr:`~hexlan.engine.core.Terrain.GOLD_FIELD`): on their number each
  settlement beside one is owed a resource of its owner's choice, each city two (none under the
  robber); the owed seats choose in seat order (:attr:`SeaPhase.GOLD`). A second
  set-up settlement beside gold is owed one per gold field too (official).
- **Longest Trade Route**: the longest trail over a seat's roads and ships, where a road and a ship
  join only at the seat's own settlement or city; it replaces Longest Road (same award).
- **Island bonus** (``island_bonus``): a seat's first settlement on each island other than the home
  island (the rule set's ``home``) and the islands of its own set-up settlements brings that many
  victory points (``variant_vp``, inside ``public_vp``), except on the islands of the rule set's
  ``no_bonus`` hexes. A map may group its land into regions (``regions``, Through the Desert's
  main island, strip past the desert and desert) that count as islands. With ``setup_home_only``,
  set-up settlements go on the home island only. A map without a desert takes the robber's starting hex
  from the rule set (``robber``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine import position_fields as F
from hexlan.engine.chance import DECK_DRAW, ChanceNode
from hexlan.engine.core import (
    NO_LIMIT,
    NO_SEAT,
    RESOURCES,
    BuildPhase,
    EngineError,
    GamePhase,
    Hand,
    HexId,
    NodeId,
    PathId,
    Phase,
    Seat,
    Terrain,
    as_hand,
    one_kind,
)
from hexlan.engine.gamespec import GameSpec
from hexlan.engine.longest_road import longest_trade_route
from hexlan.engine.maps import TERRAIN_CODES
from hexlan.engine.seedfile import parse_cost
from hexlan.engine.variants.base import Variant, VariantHandler

if TYPE_CHECKING:
    from hexlan.engine.board import Board
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology

_RULE = "seed 002 «Мореходы»"


@dataclass(slots=True)
class SeaState:
    """Seafarers' progress, in the state's generic slot
    (:attr:`~hexlan.engine.state.GameState.variant_state`; :class:`~hexlan.engine.variants.
    VariantState`): the core state knows nothing of ships, the pirate, gold or fog.
    :func:`sea` reads it from a state.

    Attributes:
        ships, ship_owner, new_ships, ship_moved: each seat's ships (path ids; a ship's path
            also has its owner in the state's ``path_owner``), the ship's owner per path (-1
            none), the ships built this turn, and whether a ship has moved this turn (seed 002
            «Мореходы»).
        pirate: the pirate's sea hex (-1 on a map without one).
        gold_owed, gold_resume: the gold-field resources each seat still chooses, and the phase
            play resumes in after :attr:`SeaPhase.GOLD`.
        islands_settled: per seat, the islands it has settled off the home island (those of its
            set-up settlements without a bonus, the others with one).
        fog_pending, fog_seat, fog_resume, fog_terrain: the face-down hexes a road or ship has
            reached and that wait for their tile (in hex order), the seat that reached them (the
            discoverer), the phase play resumes in after :attr:`SeaPhase.FOG`, and a land tile
            drawn whose number token is due (-1: none).
        fog_tiles, fog_tokens: the faces left in the fog stacks (the rule set's ``fog`` and
            ``fog_tokens`` decks, counts in face order): public, as every drawn tile is shown.
        fog_revealed: ``(hex, terrain, token)`` of each fog hex revealed, in order.
    """

    ships: list[list[PathId]]
    ship_owner: list[Seat]
    gold_owed: list[int]
    islands_settled: list[list[int]]
    fog_tiles: list[int]
    fog_tokens: list[int]
    new_ships: list[PathId] = field(default_factory=list)
    ship_moved: bool = False
    pirate: HexId = NO_SEAT
    gold_resume: GamePhase = Phase.MAIN
    fog_pending: list[HexId] = field(default_factory=list)
    fog_seat: Seat = NO_SEAT
    fog_resume: GamePhase = Phase.MAIN
    fog_terrain: int = -1
    fog_revealed: list[tuple[HexId, int, int]] = field(default_factory=list)

    @classmethod
    def start(cls, state: GameState) -> Self:
        """The progress of a new game on ``state``'s map and rule set (no ship yet)."""
        players, decks = state.players, state.rules.decks
        return cls(
            ships=[[] for _ in range(players)],
            ship_owner=[NO_SEAT] * state.topology.path_count,
            gold_owed=[0] * players,
            islands_settled=[[] for _ in range(players)],
            fog_tiles=list(decks.get("fog", ())),
            fog_tokens=list(decks.get("fog_tokens", ())),
        )

    def copy(self) -> Self:
        """An independent copy (every list copied)."""
        twin = copy.copy(self)
        twin.ships = [line[:] for line in self.ships]
        twin.ship_owner = self.ship_owner[:]
        twin.gold_owed = self.gold_owed[:]
        twin.islands_settled = [i[:] for i in self.islands_settled]
        twin.fog_tiles = self.fog_tiles[:]
        twin.fog_tokens = self.fog_tokens[:]
        twin.new_ships = self.new_ships[:]
        twin.fog_pending = self.fog_pending[:]
        twin.fog_revealed = self.fog_revealed[:]
        return twin

    def public_dict(self) -> dict[str, Any]:
        """Ships, the pirate, gold owed, this turn's ship facts, islands settled, fog revealed
        (the keys Seafarers' public state always had)."""
        return {
            "ships": [list(s) for s in self.ships],
            "pirate": self.pirate,
            "new_ships": list(self.new_ships),
            "ship_moved": self.ship_moved,
            "gold_owed": list(self.gold_owed),
            "gold_resume": int(self.gold_resume),
            "islands_settled": [list(i) for i in self.islands_settled],
            "fog": [list(r) for r in self.fog_revealed],
            "fog_pending": list(self.fog_pending),
            "fog_terrain": self.fog_terrain,
        }

    def hidden_dict(self) -> dict[str, Any]:
        """Nothing: every Seafarers fact is public."""
        return {}


def sea(state: GameState) -> SeaState:
    """``state``'s Seafarers progress (:class:`SeaState`, also Pirate Islands').

    Raises:
        EngineError: ``state`` is not a game with ships.
    """
    progress = state.variant_state
    if not isinstance(progress, SeaState):
        raise EngineError(f"the {state.rules.name} game has no ships")
    return progress


SEA_FIELDS: Final[Mapping[str, F.Codec]] = {
    "ships": F.SEAT_LISTS,
    "ship_owner": F.PATH_SEATS,
    "gold_owed": F.SEAT_COUNTS,
    "islands_settled": F.SEAT_LISTS,
    "fog_tiles": F.COUNTS,
    "fog_tokens": F.COUNTS,
    "new_ships": F.INTS,
    "ship_moved": F.BOOL,
    "pirate": F.HEX,
    "gold_resume": F.PHASE,
    "fog_pending": F.INTS,
    "fog_seat": F.SEAT,
    "fog_resume": F.PHASE,
    "fog_terrain": F.INT,
    "fog_revealed": F.TUPLES,
}
"""The position's ``variant.NAME`` fields of :class:`SeaState` (docs/POSITION.md)."""


class SeaFields(F.ProgressFields[SeaState]):
    """How a position writes Seafarers' progress (and Pirate Islands'): all public, and the
    board in play has the fog hexes revealed (:attr:`SeaState.fog_revealed`)."""

    def board_in_play(self, progress: SeaState, terrains: list[Terrain], tokens: list[int]) -> None:
        """Each revealed fog hex's terrain and token in place of the fog.

        Raises:
            ValueError: a revealed hex the board does not have.
        """
        for h, terrain, token in progress.fog_revealed:
            if not 0 <= h < len(terrains):
                raise ValueError(f"variant.fog_revealed: no hex {h}")
            terrains[h], tokens[h] = Terrain(terrain), token


class SeaPhase(GamePhase):
    """Seafarers' own phases (registered as :attr:`Seafarers.phases`)."""

    GOLD = 16
    """Seafarers: each seat owed gold-field picks chooses its resources, in seat order (seed 002
    «Мореходы»: «Золотая река»); the seat choosing is the lowest one still owed."""
    FOG = 17
    """Chance, Seafarers: a road or ship has reached fog; the top tile of the fog stack (then,
    for land, a number token) is drawn and shown to all (docs/rules/seafarers.md, fog)."""


@dataclass(frozen=True, slots=True)
class BuildShip(A.VariantAction):
    """Seafarers: build a ship on a free path with sea on a side, joined to an own ship or an own
    settlement or city, not on a side of the pirate's hex (seed 002 «Мореходы»; official); free in
    set-up (beside the settlement just placed) and with Road Building, else lumber + wool."""

    path: PathId


@dataclass(frozen=True, slots=True)
class MoveShip(A.VariantAction):
    """Seafarers: move one own ship, once a turn after the roll: the end ship of an open route,
    not one built this turn, from ``source`` to ``target``, a place where it could be built (seed
    002 «Мореходы»: «максимум один за ход»; official)."""

    source: PathId
    target: PathId


@dataclass(frozen=True, slots=True)
class MovePirate(A.VariantAction):
    """Seafarers: instead of the robber, move the pirate to another sea hex and name the victim:
    an opponent with a ship on a side of it holding a card, or -1 (seed 002 «Мореходы»).

    Attributes:
        hex: the sea hex (sea hex ``i`` of the map is id ``hex_count + i``).
        victim: the seat robbed, or -1.
    """

    hex: HexId
    victim: Seat


@dataclass(frozen=True, slots=True)
class ChooseGold(A.VariantAction):
    """Seafarers: a seat owed gold-field resources takes them from the bank, of its choice (seed
    002 «Мореходы»: «Золотая река»; one per settlement, two per city).

    Attributes:
        seat: the seat choosing (not necessarily the active one).
        cards: the resources taken, a hand in card-kind order.
    """

    seat: Seat
    cards: Hand

    hand_fields: ClassVar[frozenset[str]] = frozenset({"cards"})

    def actor(self, active: Seat) -> Seat:
        """The seat choosing, not the active one."""
        return self.seat


@dataclass(frozen=True, slots=True)
class ExploreFog(A.VariantAction):
    """Chance, Seafarers: the face drawn from the fog stack due now, shown to all: a tile of the
    deck ``fog`` (its face in the rule set's ``[decks.fog]`` order), or, after a land tile, a
    number token of ``fog_tokens`` (docs/rules/seafarers.md, fog)."""

    face: int

    chance: ClassVar[bool] = True


def gold_choices(owed: int, bank: Hand) -> tuple[Hand, ...]:
    """Every way to take ``owed`` resources from ``bank`` (fewer when the bank holds fewer), as
    hands as long as ``bank`` (gold brings resources, never a commodity).

    >>> gold_choices(1, (1, 0, 2, 0, 0))
    ((1, 0, 0, 0, 0), (0, 0, 1, 0, 0))
    >>> len(gold_choices(2, (19, 19, 19, 19, 19)))
    15
    """
    count = min(owed, sum(bank[r] for r in RESOURCES))
    found: list[Hand] = []
    for combo in combinations_with_replacement(RESOURCES, count):
        cards = [0] * len(bank)
        for r in combo:
            cards[r] += 1
        if all(cards[r] <= bank[r] for r in RESOURCES):
            found.append(as_hand(cards))
    return tuple(found)


class Seafarers(Variant):
    """Seafarers' hooks (see the module docstring).

    Raises:
        EngineError: the map has no sea paths, or the rule set's pirate or home hex is not on
            it (constructing).
    """

    name: ClassVar[str] = "seafarers"
    position_fields: ClassVar[F.ProgressFields[Any] | None] = SeaFields(SEA_FIELDS)

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        super().__init__(rules, options, topology)
        if not topology.path_sea:
            raise EngineError(f"Seafarers needs a map for ships, not {topology.name!r}")
        table = rules.raw["seafarers"]
        self.ship_cost = parse_cost(rules.raw["costs"]["ship"], rules.kinds)
        self.ship_limit = int(rules.raw["pieces"]["ship"]) if options.piece_limits else NO_LIMIT
        pirate = table.get("pirate")
        self.pirate_start: HexId = NO_SEAT
        if pirate is not None:
            position = (int(pirate[0]), int(pirate[1]))
            if position not in topology.sea_axial:
                raise EngineError(f"the pirate must start on a sea hex, not {list(position)}")
            self.pirate_start = topology.hex_count + topology.sea_axial.index(position)
        self.home = -1  # without a home island, each seat's set-up islands are its own
        if "home" in table:
            home = (int(table["home"][0]), int(table["home"][1]))
            self.home = topology.hex_island[topology.hex_at(home)]
        self.robber_start: HexId = NO_SEAT
        if table.get("robber"):  # an empty list: none (a map extended without one)
            robber = (int(table["robber"][0]), int(table["robber"][1]))
            self.robber_start = topology.hex_at(robber)
        self.island_bonus = int(table["island_bonus"])
        self.no_bonus = frozenset(
            topology.hex_island[topology.hex_at((int(a[0]), int(a[1])))]
            for a in table.get("no_bonus", [])
        )
        """The islands (regions) that bring no island bonus: those of the rule set's
        ``no_bonus`` hexes (Through the Desert's desert strip)."""
        self.home_closed = frozenset(
            n
            for n in range(topology.land_node_count)
            if table.get("setup_home_only", False) and topology.node_island[n] != self.home
        )
        self.gold: tuple[HexId, ...] = ()
        self._builds = tuple(BuildShip(p) for p in range(topology.path_count))
        decks = rules.raw.get("decks", {})
        self.fog_faces: tuple[Terrain, ...] = tuple(
            TERRAIN_CODES[str(code)] for code in decks.get("fog", {})
        )
        """The terrain of each face of the fog stack (``[decks.fog]``, keyed by map codes)."""
        self.fog_token_faces: tuple[int, ...] = tuple(int(n) for n in decks.get("fog_tokens", {}))
        """The number of each face of the fog tokens' stack (``[decks.fog_tokens]``)."""

    # ------------------------------------------------------------------ set-up

    def prepare_board(self, board: Board) -> Board:
        """The board as given; its gold fields are noted."""
        self.gold = tuple(h for h, t in enumerate(board.terrains) if t is Terrain.GOLD_FIELD)
        return board

    def prepare_state(self, state: GameState) -> None:
        """The pirate takes its starting hex, and the robber the rule set's (on a map without a
        desert)."""
        state.variant_state = progress = self.new_progress(state)
        progress.pirate = self.pirate_start
        if self.robber_start >= 0:
            state.robber = self.robber_start

    def new_progress(self, state: GameState) -> SeaState:
        """The game's progress object (Pirate Islands' adds its fleet's)."""
        return SeaState.start(state)

    def setup_closed(self, state: GameState) -> frozenset[NodeId]:
        """With ``setup_home_only``: every intersection off the home island; and every corner
        of a face-down hex (fog: nobody settles beside an unknown tile; JSettlers2 keeps the
        fog island out of the starting land area too)."""
        fog = [h for h, t in enumerate(state.board.terrains) if t is Terrain.FOG]
        if not fog:
            return self.home_closed
        hex_nodes = self.topology.hex_nodes
        return self.home_closed | {n for h in fog for n in hex_nodes[h]}

    # ------------------------------------------------------------------ fog

    def _reach(self, state: GameState, seat: Seat, path: PathId) -> None:
        """A road or ship of ``seat`` now lies on ``path``: every face-down hex at either end
        of it is queued for its tile (official Seafarers: a ship or road placed next to a
        face-down hex reveals it)."""
        topo, terrains = self.topology, state.board.terrains
        for n in topo.path_nodes[path]:
            if n >= topo.land_node_count:
                continue
            for h in topo.node_hexes[n]:
                if terrains[h] is Terrain.FOG and h not in sea(state).fog_pending:
                    sea(state).fog_pending.append(h)
                    sea(state).fog_seat = seat
                    state.variant_due = True  # the tiles are drawn once the action is applied

    def action_applied(self, state: GameState) -> None:
        """Draw the queued hexes' tiles: play waits in :attr:`SeaPhase.FOG` and resumes where the
        build left it (already waiting there, the queue just grows)."""
        if state.phase is SeaPhase.FOG:
            return
        sea(state).fog_resume = state.phase
        sea(state).fog_pending.sort()
        self._next_fog(state)

    def _next_fog(self, state: GameState) -> None:
        """Wait for the next queued hex's tile; a hex reached when the stack is empty is laid as
        sea (docs/rules/seafarers.md); with none queued, play resumes (gold found first)."""
        while sea(state).fog_pending and not sum(sea(state).fog_tiles):
            self._reveal(state, Terrain.SEA, 0)
        if sea(state).fog_pending:
            state.phase = SeaPhase.FOG
            return
        state.phase = sea(state).fog_resume
        sea(state).fog_seat = NO_SEAT
        if any(sea(state).gold_owed) and state.phase is not SeaPhase.GOLD:
            sea(state).gold_resume = state.phase
            state.phase = SeaPhase.GOLD

    def chance_node(self, state: GameState) -> ChanceNode | None:
        """In :attr:`SeaPhase.FOG`: a public draw from ``fog`` (the tile), or from ``fog_tokens``
        after a land tile, by the discoverer."""
        deck = "fog" if sea(state).fog_terrain < 0 else "fog_tokens"
        return ChanceNode(DECK_DRAW, "fog", deck=deck, seats=(sea(state).fog_seat,), public=True)

    def deck_outcome(self, state: GameState, face: int | None) -> A.Action:
        """The fog stack's face drawn in :attr:`SeaPhase.FOG`, seen by all.

        Raises:
            EngineError: no face (a fog tile is never hidden).
        """
        if face is None:
            raise EngineError("a fog tile is drawn face up")
        return ExploreFog(face)

    def chance_outcomes(self, state: GameState) -> list[tuple[A.Action, float]]:
        """Each face of the stack being drawn, by the counts left in it."""
        counts = sea(state).fog_tiles if sea(state).fog_terrain < 0 else sea(state).fog_tokens
        total = sum(counts)
        return [(ExploreFog(f), n / total) for f, n in enumerate(counts) if n]

    def _explore(self, state: GameState, action: ExploreFog) -> None:
        """A face of the fog stack is shown: a tile, then for land its number token."""
        if sea(state).fog_terrain < 0:
            sea(state).fog_tiles[action.face] -= 1
            terrain = self.fog_faces[action.face]
            if terrain.takes_token and any(sea(state).fog_tokens):
                sea(state).fog_terrain = int(terrain)  # its number token is drawn next
                return
            self._reveal(state, terrain, 0)
        else:
            sea(state).fog_tokens[action.face] -= 1
            terrain = Terrain(sea(state).fog_terrain)
            sea(state).fog_terrain = -1
            self._reveal(state, terrain, self.fog_token_faces[action.face])
        self._next_fog(state)

    def _reveal(self, state: GameState, terrain: Terrain, token: int) -> None:
        """Lay ``terrain`` (and ``token``) on the first queued hex; the discoverer takes one
        card of its resource, or a gold pick (none for sea or desert; official Seafarers)."""
        h = sea(state).fog_pending.pop(0)
        board = state.board
        terrains, tokens = list(board.terrains), list(board.tokens)
        terrains[h], tokens[h] = terrain, token
        state.board = replace(board, terrains=tuple(terrains), tokens=tuple(tokens))
        sea(state).fog_revealed.append((h, int(terrain), token))
        if terrain is Terrain.SEA:  # a corner amid water alone takes no settlement
            topo = self.topology
            for n in topo.hex_nodes[h]:
                if all(terrains[x] is Terrain.SEA for x in topo.node_hexes[n]):
                    state.blocked[n] = True
        seat, resource = sea(state).fog_seat, terrain.resource
        if resource is not None:
            for n in self.topology.hex_nodes[h]:  # a building already there produces from now
                if state.node_owner[n] >= 0:
                    state.income[token].append((h, n, state.node_owner[n], int(resource)))
        gain = (
            one_kind(resource, 1, state.kinds)
            if resource is not None and state.bank[resource]
            else None
        )
        if gain is not None:
            state.take_from_bank(seat, gain)
        elif terrain is Terrain.GOLD_FIELD and any(state.bank):
            sea(state).gold_owed[seat] += 1
        if state.record_events:
            state.last_events.append(E.FogRevealed(seat, h, int(terrain), token, gain))

    # ------------------------------------------------------------------ ships

    def ships_left(self, state: GameState, seat: Seat) -> int:
        """Ships the seat can still build (15 in all by the rule set)."""
        return self.ship_limit - len(sea(state).ships[seat])

    def _blocked_paths(self, state: GameState) -> tuple[PathId, ...]:
        """The sides of the pirate's hex: closed to building and moving ships."""
        pirate = sea(state).pirate
        if pirate < 0:
            return ()
        return self.topology.sea_hex_paths[pirate - self.topology.hex_count]

    def ship_spots(self, state: GameState, seat: Seat, lifted: PathId = -1) -> list[PathId]:
        """Free paths where the seat may place a ship: sea on a side, not a side of the pirate's
        hex, an end at the seat's own building or at one of its ships (``lifted`` left out: the
        ship being moved) whose corner holds no other seat's building (seed 002 «Мореходы»)."""
        topo = self.topology
        owner, path_owner = state.node_owner, state.path_owner
        ends: set[NodeId] = set(state.settlements[seat]) | set(state.cities[seat])
        path_nodes = topo.path_nodes
        for p in sea(state).ships[seat]:
            if p == lifted:
                continue
            for n in path_nodes[p]:
                if owner[n] < 0 or owner[n] == seat:
                    ends.add(n)
        blocked = self._blocked_paths(state)
        on_sea, node_paths = topo.path_sea, topo.node_ship_paths
        return sorted(
            {
                p
                for n in ends
                for p in node_paths[n]
                if on_sea[p] and (path_owner[p] < 0 or p == lifted) and p not in blocked
            }
        )

    def movable_ships(self, state: GameState, seat: Seat) -> list[PathId]:
        """The seat's ships that may move now: at the open end of a route, not built this turn,
        not on a side of the pirate's hex."""
        topo = self.topology
        own = set(sea(state).ships[seat])
        owner = state.node_owner
        blocked = self._blocked_paths(state)
        result = []
        for p in sea(state).ships[seat]:
            if p in sea(state).new_ships or p in blocked:
                continue
            for n in topo.path_nodes[p]:
                if owner[n] == seat:
                    continue
                if not any(q != p and q in own for q in topo.node_ship_paths[n]):
                    result.append(p)  # this end leads nowhere: the route is open here
                    break
        return result

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Ships the seat can pay for and place; in its own turn after the roll, each move of a
        movable ship (one a turn)."""
        if self.ships_left(state, seat) > 0 and state.hand_covers(seat, self.ship_cost):
            builds = self._builds
            result.extend(builds[p] for p in self.ship_spots(state, seat))
        if state.phase is Phase.MAIN and not sea(state).ship_moved:
            for source in self.movable_ships(state, seat):
                for target in self.ship_spots(state, seat, lifted=source):
                    if target != source:
                        result.append(MoveShip(source, target))

    def free_builds(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Set-up: a ship on a sea path beside the settlement just placed; Road Building: any
        ship the seat could build."""
        if self.ships_left(state, seat) <= 0:
            return
        if state.phase is Phase.SETUP_ROAD:
            topo, path_owner = self.topology, state.path_owner
            blocked = self._blocked_paths(state)
            result.extend(
                self._builds[p]
                for p in topo.node_ship_paths[state.last_settlement]
                if topo.path_sea[p] and path_owner[p] < 0 and p not in blocked
            )
        else:
            result.extend(self._builds[p] for p in self.ship_spots(state, seat))

    def has_free_builds(self, state: GameState, seat: Seat) -> bool:
        """Whether a ship could be placed with Road Building."""
        return self.ships_left(state, seat) > 0 and bool(self.ship_spots(state, seat))

    def free_pieces(self, state: GameState, seat: Seat) -> int:
        """The seat's ships left."""
        return self.ships_left(state, seat)

    def route_length(self, state: GameState, seat: Seat) -> int:
        """Longest Trade Route: roads and ships, joined at the seat's own buildings."""
        return longest_trade_route(
            self.topology, state.roads[seat], sea(state).ships[seat], seat, state.node_owner
        )

    def settlement_reach(self, state: GameState, seat: Seat, spots: set[NodeId]) -> None:
        """A settlement may stand at either end of the seat's ships too."""
        path_nodes, blocked = self.topology.path_nodes, state.blocked
        spots.update(n for p in sea(state).ships[seat] for n in path_nodes[p] if not blocked[n])

    def turn_started(self, state: GameState) -> None:
        """A new turn: no ship is new and none has moved."""
        sea(state).new_ships = []
        sea(state).ship_moved = False

    # ------------------------------------------------------------------ pirate and gold

    def victims_on_sea(self, state: GameState, sea_hex: HexId, thief: Seat) -> list[Seat]:
        """Opponents with a ship on a side of ``sea_hex`` and a card in hand, in seat order."""
        paths = self.topology.sea_hex_paths[sea_hex - self.topology.hex_count]
        ship_owner = sea(state).ship_owner
        seats = {ship_owner[p] for p in paths} - {NO_SEAT, thief}
        return [s for s in sorted(seats) if state.hand_size[s]]

    def robber_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Moving the pirate instead: to each other sea hex, naming each possible victim."""
        if sea(state).pirate < 0:
            return
        first = self.topology.hex_count
        for h in range(first, first + len(self.topology.sea_axial)):
            if h == sea(state).pirate:
                continue
            victims = self.victims_on_sea(state, h, seat)
            if victims:
                result.extend(MovePirate(h, v) for v in victims)
            else:
                result.append(MovePirate(h, NO_SEAT))

    def _owe_gold(self, state: GameState, hexes: list[HexId], resume: GamePhase) -> None:
        owed = [0] * state.players
        owner, level = state.node_owner, state.node_level
        for h in hexes:
            for n in self.topology.hex_nodes[h]:
                if owner[n] >= 0:
                    owed[owner[n]] += level[n]
        self._owe(state, owed, resume)

    @staticmethod
    def _owe(state: GameState, owed: list[int], resume: GamePhase) -> None:
        if not any(owed):
            return
        sea(state).gold_owed = owed
        sea(state).gold_resume = resume
        state.phase = SeaPhase.GOLD
        if state.record_events:
            state.last_events.append(E.GoldOwed(tuple(owed)))

    def after_production(self, state: GameState, total: int) -> None:
        """Gold fields on the number (not under the robber) owe their buildings' owners picks."""
        tokens = state.board.tokens
        gold = self.gold
        if sea(state).fog_revealed:
            found = Terrain.GOLD_FIELD
            gold += tuple(h for h, t, _ in sea(state).fog_revealed if t == found)
        hexes = [h for h in gold if tokens[h] == total and h != state.robber]
        if hexes:
            self._owe_gold(state, hexes, Phase.MAIN)

    def phase_seat(self, state: GameState) -> Seat:
        """In :attr:`SeaPhase.GOLD`: the lowest seat still owed."""
        return next(s for s in range(state.players) if sea(state).gold_owed[s])

    def phase_actions(self, state: GameState, seat: Seat) -> list[A.Action]:
        """In :attr:`SeaPhase.GOLD`: each choice of the resources the seat is owed."""
        owed = sea(state).gold_owed[seat]
        bank = as_hand(state.bank)
        return [ChooseGold(seat, cards) for cards in gold_choices(owed, bank)]

    # ------------------------------------------------------------------ points

    def after_build(self, state: GameState, seat: Seat, node: NodeId) -> None:
        """A settlement closes its neighbours across sea paths too (distance rule, official) and
        cuts other seats' trade routes through its corner; on a new island it brings the island
        bonus; a second set-up settlement beside gold owes a pick per gold field (official)."""
        if node < 0:
            if state.roads[seat]:  # the road just built
                self._reach(state, seat, state.roads[seat][-1])
            return
        if state.node_level[node] != 1:
            return
        topo = self.topology
        for m in topo.node_ship_nodes[node]:
            state.blocked[m] = True  # the distance rule holds across the water too
        broken = {sea(state).ship_owner[p] for p in topo.node_ship_paths[node]} - {NO_SEAT, seat}
        for other in broken:  # a settlement cuts another seat's trade route (official)
            state.road_length[other] = self.route_length(state, other)
        if broken:
            state.award_longest_road()
        island = self.topology.node_island[node]
        setup = state.phase is Phase.SETUP_ROAD
        bonus = 0 if setup else self.bonus_for(state, seat, node)
        if island != self.home and island not in sea(state).islands_settled[seat]:
            sea(state).islands_settled[seat].append(island)
            if bonus:
                previous = state.variant_vp[seat]
                state.variant_vp[seat] += bonus
                state.public_vp[seat] += bonus
                if state.record_events:
                    state.last_events.append(
                        E.VariantPointsChanged(
                            seat,
                            len(sea(state).islands_settled[seat]),
                            state.variant_vp[seat],
                            previous,
                        )
                    )
        if state.phase is Phase.SETUP_ROAD and state.setup_step >= state.players:
            gold = [h for h in self.topology.node_hexes[node] if h in self.gold]
            if gold:
                owed = [0] * state.players
                owed[seat] = len(gold)
                self._owe(state, owed, Phase.SETUP_ROAD)

    def bonus_for(self, state: GameState, seat: Seat, node: NodeId) -> int:
        """The island bonus a settlement of ``seat`` on ``node`` would bring now (after set-up):
        ``island_bonus`` on an island other than the home island, those the seat has settled and
        those of ``no_bonus``; else 0."""
        island = self.topology.node_island[node]
        if (
            island == self.home
            or island in self.no_bonus
            or island in sea(state).islands_settled[seat]
        ):
            return 0
        return self.island_bonus

    # ------------------------------------------------------------------ rejections

    def why_illegal(self, state: GameState, action: A.Action) -> tuple[str, str] | None:
        """The rule a ship or pirate action breaks, in words (None: the general reason, e.g. the
        wrong phase or seat)."""
        seat = state.active
        if isinstance(action, MovePirate):
            if state.phase is not Phase.MOVE_ROBBER:
                return None
            if action.hex == sea(state).pirate or not self._is_sea(action.hex):
                return ("the pirate moves to another sea hex", _RULE)
            return (f"seat {action.victim} has no ship and card to rob there", _RULE)
        if isinstance(action, BuildShip) and state.phase in (Phase.MAIN, BuildPhase.SPECIAL_BUILD):
            if self.ships_left(state, seat) <= 0:
                return (f"seat {seat} has no ship left", "official: 15 ships a player")
            if not state.hand_covers(seat, self.ship_cost):
                return ("a ship costs lumber + wool", _RULE)
            return self._why_not_here(state, seat, action.path)
        if isinstance(action, MoveShip) and state.phase is Phase.MAIN:
            if sea(state).ship_moved:
                return ("one ship moves a turn", f"{_RULE}: «максимум один за ход»")
            if action.source not in sea(state).ships[seat]:
                return (f"seat {seat} has no ship on path {action.source}", _RULE)
            if action.source in sea(state).new_ships:
                return ("a ship built this turn does not move", "official Seafarers")
            if action.source in self._blocked_paths(state):
                return ("the pirate blocks the ships on its hex", _RULE)
            if action.source not in self.movable_ships(state, seat):
                return ("only the end ship of an open route moves", "official Seafarers")
            if action.target == action.source:
                return ("a moved ship goes to another path", _RULE)
            return self._why_not_here(state, seat, action.target, lifted=action.source)
        return None

    def _is_sea(self, hex_id: HexId) -> bool:
        first = self.topology.hex_count
        return first <= hex_id < first + len(self.topology.sea_axial)

    def _why_not_here(
        self, state: GameState, seat: Seat, path: PathId, lifted: PathId = -1
    ) -> tuple[str, str]:
        topo = self.topology
        if not 0 <= path < topo.path_count or not topo.path_sea[path]:
            return ("a ship goes on a path with sea on at least one side", _RULE)
        if state.path_owner[path] >= 0 and path != lifted:
            return (f"path {path} already holds a road or a ship", _RULE)
        if path in self._blocked_paths(state):
            return ("the pirate blocks the sides of its hex", _RULE)
        return (
            "a ship joins one of the player's ships or own settlement or city; a road and a"
            " ship meet only at an own settlement or city",
            f"{_RULE}: «дорогу нельзя продолжить кораблём, и наоборот»",
        )

    # ------------------------------------------------------------------ apply

    def _place(self, state: GameState, seat: Seat, path: PathId) -> None:
        state.path_owner[path] = seat
        sea(state).ship_owner[path] = seat
        sea(state).ships[seat].append(path)

    def _lift(self, state: GameState, seat: Seat, path: PathId) -> None:
        state.path_owner[path] = NO_SEAT
        sea(state).ship_owner[path] = NO_SEAT
        sea(state).ships[seat].remove(path)

    def _routes_changed(self, state: GameState, seat: Seat) -> None:
        state.paths_changed()  # the paths taken or freed
        state.road_length[seat] = self.route_length(state, seat)
        state.award_longest_road()

    def _build(self, state: GameState, path: PathId) -> None:
        seat, phase = state.active, state.phase
        self._reach(state, seat, path)
        if state.record_events:
            state.last_events.append(
                E.Built(
                    seat,
                    "ship",
                    path,
                    setup=phase is Phase.SETUP_ROAD,
                    free=phase is Phase.ROAD_BUILDING,
                )
            )
        if phase is Phase.MAIN or phase is BuildPhase.SPECIAL_BUILD:
            state.pay_bank(seat, self.ship_cost)
        self._place(state, seat, path)
        sea(state).new_ships.append(path)
        if phase is Phase.SETUP_ROAD:
            state.paths_changed()
            state.road_length[seat] = self.route_length(state, seat)
            state.setup_next()
            return
        self._routes_changed(state, seat)
        if phase is Phase.ROAD_BUILDING:
            state.free_build_placed(seat)

    def _on_build(self, state: GameState, action: BuildShip) -> None:
        self._build(state, action.path)

    def _move(self, state: GameState, action: MoveShip) -> None:
        seat = state.active
        if state.record_events:
            state.last_events.append(E.ShipMoved(seat, action.source, action.target))
        self._lift(state, seat, action.source)
        self._place(state, seat, action.target)
        self._reach(state, seat, action.target)
        sea(state).ship_moved = True
        self._routes_changed(state, seat)

    def _move_pirate(self, state: GameState, action: MovePirate) -> None:
        sea(state).pirate = action.hex
        if state.record_events:
            state.last_events.append(E.PirateMoved(state.active, action.hex, action.victim))
        state.rob(action.victim)

    def _choose_gold(self, state: GameState, action: ChooseGold) -> None:
        state.take_from_bank(action.seat, action.cards)
        if state.record_events:
            state.last_events.append(E.BankTaken(action.seat, action.cards))
        sea(state).gold_owed[action.seat] = 0
        if not any(sea(state).gold_owed):
            state.phase = sea(state).gold_resume
            if state.roll_pending:  # Pirate Islands: the fleet's prize is taken; the roll goes on
                state.roll_pending = False
                assert state.dice is not None
                state.finish_roll(state.dice.total)

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """Ships, the pirate, gold owed, this turn's ship facts, island bonuses."""
        return sea(state).public_dict() | {"variant_vp": list(state.variant_vp)}

    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (
        BuildShip,
        MoveShip,
        MovePirate,
        ChooseGold,
        ExploreFog,
    )
    handlers: ClassVar[Mapping[type[A.VariantAction], VariantHandler]] = {
        BuildShip: _on_build,
        MoveShip: _move,
        MovePirate: _move_pirate,
        ChooseGold: _choose_gold,
        ExploreFog: _explore,
    }
    phases: ClassVar[tuple[GamePhase, ...]] = tuple(SeaPhase)
    chance_phases: ClassVar[frozenset[GamePhase]] = frozenset({SeaPhase.FOG})


SPEC: Final = GameSpec(
    name=Seafarers.name,
    rules=Seafarers,
    place=3,
    tellers=("hexlan.net.tellers.seafarers",),
    keys=("hexlan.tui.games.seafarers",),
    views=("hexlan.tui.games.seafarers_gold",),
    bots=("hexlan.engine.bots.seafaring",),
)
"""Seafarers' scenarios (seed 002 «Мореходы»; docs/rules/seafarers.md)."""


__all__ = [
    "SPEC",
    "BuildShip",
    "ChooseGold",
    "ExploreFog",
    "MovePirate",
    "MoveShip",
    "SeaPhase",
    "SeaState",
    "Seafarers",
    "gold_choices",
    "sea",
]
