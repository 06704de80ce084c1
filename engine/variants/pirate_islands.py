"""Pirate Islands (seed 004 «Пиратские острова»; docs/rules/pirate-islands.md): Seafarers on a
fixed map (seeds/boards/seafarers-pirate-islands.toml) with a pirate fleet, pirate fortresses and
warships. The rule set's ``[pirate_islands]`` table gives the fleet's path and each seat's slot.

- **Set-up.** Each seat's slot (in seat order) pre-places a settlement and a ship on the start
  island's coast and a fortress of three chits on a pirate island; the two set-up settlements
  follow as usual, on the start island only. There is no robber.
- **One ship line.** A seat's ships form one line from its pre-placed settlement through its
  colour intersection to its fortress, on a shortest route (the slot's routes); each ship extends
  the line's far end, never branching nor going past the fortress. Only the line's end ship
  moves, once a turn, and only onto another shortest way (as JSettlers2 allows). On the pirate
  islands a settlement stands only on the seat's own colour intersection.
- **Warships.** A knight played turns the first plain ship of the line (counted from the
  settlement) into a warship; with 4 players the deck's victory point cards are knights (rule
  set data). No Largest Army, no Longest Trade Route.
- **The fleet.** At each roll, before production or the 7, the fleet sails the lower die's number
  of hexes along its circle. If it stops beside the buildings of exactly one seat, that seat is
  attacked: the lower die against its warships. Stronger pirates: it loses 1 card plus 1 per
  city, drawn blind from its hand (:attr:`PiratePhase.LOOT`, a chance event :class:`FleetLoot`
  the network draws with the beacon from the seat's committed hand and shows to all); a
  stronger seat: it takes a resource of its choice (Seafarers'
  :attr:`~hexlan.engine.variants.seafarers.SeaPhase.GOLD`); a tie: nothing.
- **A 7.** Discards as usual, then the roller robs any opponent (:class:`RobSeat`).
- **A fortress attack** (:class:`AttackFortress`), when the line reaches the seat's own
  fortress: one die (:attr:`PiratePhase.FORTRESS`, a beacon event); more warships
  than the die take a chit, fewer lose the line's two front ships, as many lose one; the turn then
  ends. The last chit taken makes the fortress the seat's settlement.
- **Winning:** 10 points with the seat's own fortress captured. Once every fortress has fallen
  the fleet leaves the board.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from math import comb, prod
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from hexlan.engine import actions as A
from hexlan.engine import events as E
from hexlan.engine import position_fields as F
from hexlan.engine.chance import HAND_DRAW, UNIFORM, ChanceNode
from hexlan.engine.core import (
    NO_SEAT,
    EngineError,
    GamePhase,
    Hand,
    HexId,
    NodeId,
    PathId,
    Phase,
    Seat,
)
from hexlan.engine.gamespec import GameSpec
from hexlan.engine.topology import lattice
from hexlan.engine.variants.base import VariantHandler
from hexlan.engine.variants.seafarers import (
    SEA_FIELDS,
    BuildShip,
    MovePirate,
    MoveShip,
    Seafarers,
    SeaFields,
    SeaPhase,
    SeaState,
    sea,
)

if TYPE_CHECKING:
    from hexlan.engine.options import GameOptions
    from hexlan.engine.ruleset import RuleSet
    from hexlan.engine.state import GameState
    from hexlan.engine.topology import Topology

_RULE = "seed 004 «Пиратские острова»"
_CORNER = re.compile(r"^([NS])\((-?\d+),(-?\d+)\)$")


@dataclass(frozen=True, slots=True)
class AttackFortress(A.VariantAction):
    """Pirate Islands: the active seat, its ship line closed at its own fortress, attacks it: a
    die gives the fortress's strength, then the turn ends (seed 004 «Захват пиратской крепости»:
    once a turn)."""


@dataclass(frozen=True, slots=True)
class RobSeat(A.VariantAction):
    """Pirate Islands: after a 7 and its discards (there is no robber), the roller names any
    opponent holding a card to take one from at random, or -1 when nobody holds one (seed 004
    «"7" на кубиках»).

    Attributes:
        victim: the seat robbed, or -1.
    """

    victim: Seat


@dataclass(frozen=True, slots=True)
class FortressDie(A.VariantAction):
    """Chance, Pirate Islands: the die of a fortress attack, 1 .. 6 (:data:`FORTRESS_DICE`): the
    fortress's strength against the attacker's warships (seed 004 «Захват пиратской крепости»)."""

    roll: int

    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class FleetLoot(A.VariantAction):
    """Chance, Pirate Islands: the cards the pirate fleet takes from the seat it beat, drawn
    blind from its hand, shown to every seat, and put back in the bank (seed 004 «Нападение
    пиратов»: «Карты сырья вытаскивает из руки игрока любой его соперник (карты уходят в
    резерв)»).

    Attributes:
        cards: the cards taken, a hand in card-kind order (1 card plus 1 per city of the seat,
            at most its whole hand).
    """

    cards: Hand

    chance: ClassVar[bool] = True
    hand_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


class PiratePhase(GamePhase):
    """Pirate Islands' own phase (registered as :attr:`PirateIslands.phases`)."""

    FORTRESS = 18
    """Chance, Pirate Islands: the active seat attacks its pirate fortress; the fortress's
    strength is one die (seed 004 «Захват пиратской крепости»)."""

    LOOT = 30
    """Chance, Pirate Islands: the fleet beat the seat ``victim``; ``loot`` cards of its hand
    are drawn blind (seed 004 «Нападение пиратов»)."""


@dataclass(slots=True)
class FleetState(SeaState):
    """Pirate Islands' progress: Seafarers' (:class:`~hexlan.engine.variants.seafarers.
    SeaState`) and the fleet's, in the state's generic slot; :func:`fleet` reads it.

    Attributes:
        warships: each seat's warships (the first ships of its line).
        fortress_chits: the chits left under each seat's fortress (0 once captured, or for a
            seat without one).
        fortress_attacked: whether the active seat has attacked its fortress this turn (the
            attack ends the turn).
        loot: the cards the fleet takes from the state's ``victim`` in its blind draw (seed 004;
            docs/rules/pirate-islands.md).
    """

    warships: list[int] = field(default_factory=list)
    fortress_chits: list[int] = field(default_factory=list)
    fortress_attacked: bool = False
    loot: int = 0

    def copy(self) -> Self:
        """An independent copy (every list copied)."""
        twin = SeaState.copy(self)
        twin.warships = self.warships[:]
        twin.fortress_chits = self.fortress_chits[:]
        return twin


def fleet(state: GameState) -> FleetState:
    """``state``'s Pirate Islands progress (:class:`FleetState`).

    Raises:
        EngineError: ``state`` is not a Pirate Islands game.
    """
    progress = state.variant_state
    if not isinstance(progress, FleetState):
        raise EngineError(f"the {state.rules.name} game has no pirate fleet")
    return progress


FLEET_FIELDS: Final[Mapping[str, F.Codec]] = {
    **SEA_FIELDS,
    "warships": F.SEAT_COUNTS,
    "fortress_chits": F.SEAT_COUNTS,
    "fortress_attacked": F.BOOL,
    "loot": F.COUNT,
}
"""The position's ``variant.NAME`` fields of :class:`FleetState`: Seafarers' and the fleet's."""


FORTRESS_DICE: Final = tuple(FortressDie(n) for n in range(1, 7))
"""The 6 equally likely outcomes of a fortress attack's die."""
ATTACK_FORTRESS: Final = AttackFortress()
_FORTRESS_NODE = ChanceNode(UNIFORM, "fortress", FORTRESS_DICE, (6,))
_FORTRESS_OUTCOMES = [(die, 1 / 6) for die in FORTRESS_DICE]


@dataclass(frozen=True, slots=True)
class Slot:
    """One seat's pieces and route (a slot of the rule set's ``[pirate_islands]``).

    Attributes:
        settlement: the pre-placed settlement's intersection (where the line starts).
        ship: the pre-placed ship's path (the line's first side).
        colour: the colour intersection: the one pirate-island corner the seat may settle.
        fortress: the fortress's intersection (where the line ends).
        legal: every side of the slot's shortest routes: where its ships may stand.
        forward: per intersection of a route, the sides that lead one step nearer the fortress
            on some route: where the line may go on from it.
    """

    settlement: NodeId
    ship: PathId
    colour: NodeId
    fortress: NodeId
    legal: frozenset[PathId]
    forward: Mapping[NodeId, tuple[PathId, ...]]


def _draws(hand: Hand, count: int) -> Iterator[tuple[Hand, float]]:
    """Every hand of ``count`` cards that a blind draw from ``hand`` can take, with its
    probability (multivariate hypergeometric: each card of ``hand`` as likely as any other).

    >>> sorted(_draws((2, 1), 2))
    [((1, 1), 0.6666666666666666), ((2, 0), 0.3333333333333333)]
    """
    total = comb(sum(hand), count)

    def build(prefix: Hand, left: int) -> Iterator[Hand]:
        r = len(prefix)
        if r == len(hand) - 1:
            if left <= hand[r]:
                yield (*prefix, left)
            return
        rest = sum(hand[r + 1 :])
        for n in range(max(0, left - rest), min(hand[r], left) + 1):
            yield from build((*prefix, n), left - n)

    for taken in build((), count):
        yield taken, prod(comb(h, t) for h, t in zip(hand, taken, strict=True)) / total


def corner_node(topology: Topology, corner: str) -> NodeId:
    """The intersection named ``"N(q,r)"`` or ``"S(q,r)"``: the north or south corner of hex
    ``(q, r)`` (which may lie off the map).

    Raises:
        EngineError: a malformed name, or a corner that is no intersection of the map.
    """
    match = _CORNER.match(corner.replace(" ", ""))
    if match is None:
        raise EngineError(f"a corner is 'N(q,r)' or 'S(q,r)', not {corner!r}")
    x, y = lattice((int(match[2]), int(match[3])))
    point = (x, y - 2) if match[1] == "N" else (x, y + 2)
    try:
        return topology.node_xy.index(point)
    except ValueError:
        raise EngineError(f"corner {corner} is not on the map") from None


def _slot(topology: Topology, raw: dict[str, Any]) -> Slot:
    routes = [[corner_node(topology, str(c)) for c in route] for route in raw["routes"]]
    colour = corner_node(topology, str(raw["colour_corner"]))
    forward: dict[NodeId, set[PathId]] = {}
    steps: dict[NodeId, int] = {}
    for route in routes:
        if len(route) != len(routes[0]) or route[0] != routes[0][0] or colour not in route:
            raise EngineError("a slot's routes are as long, share a start and pass its colour")
        for step, (a, b) in enumerate(pairwise(route)):
            if steps.setdefault(a, step) != step:
                raise EngineError(f"intersection {a} is at two distances along the routes")
            forward.setdefault(a, set()).add(_ship_path(topology, a, b))
    legal = frozenset(p for sides in forward.values() for p in sides)
    first = _ship_path(topology, routes[0][0], routes[0][1])
    ahead = MappingProxyType({n: tuple(sorted(sides)) for n, sides in forward.items()})
    return Slot(routes[0][0], first, colour, routes[0][-1], legal, ahead)


def _ship_path(topology: Topology, a: NodeId, b: NodeId) -> PathId:
    for p in topology.node_ship_paths[a]:
        if b in topology.path_nodes[p] and topology.path_sea[p]:
            return p
    raise EngineError(f"a route's step {a}-{b} is no side a ship may take")


class PirateIslands(Seafarers):
    """Pirate Islands' hooks (see the module docstring).

    Raises:
        EngineError: the rule set's ``[pirate_islands]`` table does not fit the map, or names
            fewer slots than the game has seats (constructing).
    """

    name: ClassVar[str] = "pirate-islands"
    has_robber: ClassVar[bool] = False
    position_fields: ClassVar[F.ProgressFields[Any] | None] = SeaFields(FLEET_FIELDS)

    def __init__(self, rules: RuleSet, options: GameOptions, topology: Topology) -> None:
        super().__init__(rules, options, topology)
        table = rules.raw["pirate_islands"]
        first = topology.hex_count
        self.fleet_path: tuple[HexId, ...] = tuple(
            first + topology.sea_axial.index((int(q), int(r))) for q, r in table["fleet_path"]
        )
        """The fleet's sea hexes in sailing order (it starts on the rule set's ``pirate``)."""
        if self.pirate_start not in self.fleet_path:
            raise EngineError("the fleet must start on its path")
        self._fleet_index = {h: i for i, h in enumerate(self.fleet_path)}
        self._fleet_nodes = {
            h: frozenset(
                n for p in topology.sea_hex_paths[h - first] for n in topology.path_nodes[p]
            )
            for h in self.fleet_path
        }
        self.chits = int(table["fortress_chits"])
        self.slots: tuple[Slot, ...] = tuple(_slot(topology, s) for s in table["slots"])
        if len(self.slots) < rules.max_players:
            raise EngineError(f"{len(self.slots)} slots for up to {rules.max_players} seats")

    # ------------------------------------------------------------------ set-up

    def prepare_state(self, state: GameState) -> None:
        """No robber; the fleet on its start; every pirate-island intersection closed but the
        seats' colour intersections; each seat's settlement, ship and fortress set up (seed 004:
        «На побережьях восточного острова игроки ставят по 1 поселению и по одному кораблю»)."""
        super().prepare_state(state)
        state.robber = NO_SEAT
        topo = self.topology
        colours = {self.slots[s].colour for s in range(state.players)}
        for n in range(topo.land_node_count):
            if topo.node_island[n] != self.home and n not in colours:
                state.blocked[n] = True
        for seat in range(state.players):
            slot = self.slots[seat]
            state.place_settlement(seat, slot.settlement)
            self._place(state, seat, slot.ship)
            fleet(state).fortress_chits[seat] = self.chits

    def new_progress(self, state: GameState) -> FleetState:
        """Seafarers' progress and the fleet's: no warship yet, every fortress unattacked."""
        progress = FleetState.start(state)
        progress.warships = [0] * state.players
        progress.fortress_chits = [0] * state.players
        return progress

    def turn_started(self, state: GameState) -> None:
        """A new turn: Seafarers' resets, and no fortress attacked yet."""
        super().turn_started(state)
        fleet(state).fortress_attacked = False

    def turn_must_end(self, state: GameState) -> bool:
        """After a fortress attack only ending the turn is left (seed 004)."""
        return fleet(state).fortress_attacked

    def closed_paths(self, players: int) -> frozenset[PathId]:
        """Every side of the seats' ship routes: no road may block a line, the seat's own
        included (seed 004 «Нельзя блокировать строй другого игрока»)."""
        return frozenset(p for slot in self.slots[:players] for p in slot.legal)

    def free_builds(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Set-up: roads only (the line starts with the pre-placed ship); Road Building: the
        ships the line may take."""
        if state.phase is not Phase.SETUP_ROAD:
            super().free_builds(state, seat, result)

    # ------------------------------------------------------------------ the ship line

    def line_end(self, state: GameState, seat: Seat, lifted: PathId = -1) -> NodeId:
        """The far end of the seat's ship line (its ships in build order from the settlement),
        without the ship ``lifted`` (the line's end ship being moved)."""
        node = self.slots[seat].settlement
        path_nodes = self.topology.path_nodes
        for p in sea(state).ships[seat]:
            if p != lifted:
                a, b = path_nodes[p]
                node = b if a == node else a
        return node

    def ship_spots(self, state: GameState, seat: Seat, lifted: PathId = -1) -> list[PathId]:
        """The sides that extend the seat's line one step toward its fortress (seed 004
        «Строительство кораблей»: one line, not branching, by the shortest route); with
        ``lifted``, the end ship being moved, those that extend the line without it (its own
        side included)."""
        path_owner = state.path_owner
        ahead = self.slots[seat].forward.get(self.line_end(state, seat, lifted), ())
        return [p for p in ahead if path_owner[p] < 0 or p == lifted]

    def movable_ships(self, state: GameState, seat: Seat) -> list[PathId]:
        """The line's end ship, the only one with an open end, unless it was built this turn or
        the line has reached the fortress (JSettlers2 ``SOCPlayer.canMoveShip`` and, for this
        scenario, ``isPotentialShipMoveTo``: the newest ship may take the other shortest way
        from the ship before it)."""
        ships = sea(state).ships[seat]
        if (
            not ships
            or ships[-1] in sea(state).new_ships
            or self.line_end(state, seat) == self.slots[seat].fortress
        ):
            return []
        return [ships[-1]]

    def _blocked_paths(self, state: GameState) -> tuple[PathId, ...]:
        """None: the fleet blocks no ship (seed 004 is silent; docs/rules/pirate-islands.md)."""
        return ()

    def can_attack(self, state: GameState, seat: Seat) -> bool:
        """Whether the seat may attack its fortress now: its line reaches it, chits remain, and
        no attack yet this turn (seed 004 «Захват пиратской крепости»)."""
        return (
            fleet(state).fortress_chits[seat] > 0
            and not fleet(state).fortress_attacked
            and self.line_end(state, seat) == self.slots[seat].fortress
        )

    def main_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """Ships that extend the line and, in the seat's own turn, a move of its end ship to the
        other shortest way (Seafarers' listing over this line's spots), and the fortress
        attack."""
        super().main_actions(state, seat, result)
        if state.phase is Phase.MAIN and self.can_attack(state, seat):
            result.append(ATTACK_FORTRESS)

    # ------------------------------------------------------------------ warships

    def can_play_knight(self, state: GameState, seat: Seat) -> bool:
        """A knight needs a plain ship to turn into a warship."""
        return fleet(state).warships[seat] < len(sea(state).ships[seat])

    def knight_played(self, state: GameState, seat: Seat) -> bool:
        """The first plain ship of the line becomes a warship (seed 004 «Боевые корабли»; the
        order is JSettlers2's, docs/rules/pirate-islands.md); the robber stays out."""
        fleet(state).warships[seat] = min(
            fleet(state).warships[seat] + 1, len(sea(state).ships[seat])
        )
        return True

    # ------------------------------------------------------------------ the fleet and the 7

    def dice_rolled(self, state: GameState, dice: A.Dice) -> bool:
        """The fleet sails the lower die's hexes; beside exactly one seat's buildings it attacks
        (seed 004 «Пиратский флот», «Нападение пиратов»): returns True when the fleet's loot is
        drawn first (:attr:`PiratePhase.LOOT`) or the attacked seat picks a resource."""
        if sea(state).pirate < 0:  # every fortress has fallen: the fleet is gone
            return False
        strength = min(dice.first, dice.second)
        path = self.fleet_path
        sea(state).pirate = path[(self._fleet_index[sea(state).pirate] + strength) % len(path)]
        owner = state.node_owner
        seats = {owner[n] for n in self._fleet_nodes[sea(state).pirate]} - {NO_SEAT}
        victim = seats.pop() if len(seats) == 1 else NO_SEAT
        warships = fleet(state).warships[victim] if victim >= 0 else 0
        if state.record_events:
            state.last_events.append(E.FleetSailed(sea(state).pirate, victim, strength, warships))
        if victim < 0:
            return False
        if strength > warships:
            lose = min(1 + len(state.cities[victim]), state.hand_size[victim])
            if not lose:
                return False
            state.victim = victim
            fleet(state).loot = lose
            state.phase = PiratePhase.LOOT
            return True
        if warships > strength and any(state.bank):
            sea(state).gold_owed = [0] * state.players
            sea(state).gold_owed[victim] = 1
            sea(state).gold_resume = Phase.MAIN
            state.phase = SeaPhase.GOLD
            return True
        return False

    def robber_actions(self, state: GameState, seat: Seat, result: list[A.Action]) -> None:
        """After a 7: rob any opponent holding a card (seed 004 «"7" на кубиках»)."""
        victims = [s for s in range(state.players) if s != seat and state.hand_size[s]]
        result.extend(RobSeat(v) for v in victims or [NO_SEAT])

    # ------------------------------------------------------------------ the fortress

    def chance_node(self, state: GameState) -> ChanceNode | None:
        """In :attr:`PiratePhase.FORTRESS`: one die, a beacon event ``"fortress"``; in
        :attr:`PiratePhase.LOOT`: a :data:`~hexlan.engine.chance.HAND_DRAW` of ``loot`` cards
        from the victim's hand, event ``"loot"``."""
        if state.phase is PiratePhase.FORTRESS:
            return _FORTRESS_NODE
        if state.phase is PiratePhase.LOOT:
            return ChanceNode(HAND_DRAW, "loot", seats=(state.victim,), cards=fleet(state).loot)
        return super().chance_node(state)

    def chance_outcomes(self, state: GameState) -> list[tuple[A.Action, float]]:
        """In :attr:`PiratePhase.FORTRESS`: each face of the die, 1/6 each. In
        :attr:`PiratePhase.LOOT`: each set of cards the blind draw can take, by its probability;
        where the victim's hand is hidden (an information state), those it could hold, evenly
        weighted over the per-kind bound of its hand."""
        if state.phase is PiratePhase.FORTRESS:
            return list(_FORTRESS_OUTCOMES)
        if state.phase is PiratePhase.LOOT:
            victim = state.victim
            draws = [
                (FleetLoot(cards), p)
                for cards, p in _draws(tuple(state.hands[victim]), fleet(state).loot)
                if state.hand_covers(victim, cards)
            ]
            total = sum(p for _, p in draws)
            return [(action, p / total) for action, p in draws]
        return super().chance_outcomes(state)

    def _fortress_die(self, state: GameState, roll: int) -> None:
        """Settle an attack: more warships than ``roll`` take a chit (the last one captures the
        fortress as the seat's settlement), fewer lose the two front ships, as many the front
        one; the attack ends the turn (seed 004 «Захват пиратской крепости»)."""
        seat = state.active
        warships = fleet(state).warships[seat]
        before = len(sea(state).ships[seat])
        if warships > roll:
            fleet(state).fortress_chits[seat] -= 1
            if not fleet(state).fortress_chits[seat]:
                fortress = self.slots[seat].fortress
                state.place_settlement(seat, fortress)
                self.after_build(state, seat, fortress)
                if not any(fleet(state).fortress_chits):  # seed 004: the fleet is beaten
                    sea(state).pirate = NO_SEAT
        else:
            ships = sea(state).ships[seat]
            for _ in range(2 if warships < roll else 1):
                self._lift(state, seat, ships[-1])
            fleet(state).warships[seat] = min(warships, len(ships))
            state.paths_changed()
        fleet(state).fortress_attacked = True
        state.phase = Phase.MAIN
        if state.record_events:
            lost = before - len(sea(state).ships[seat])
            chits = fleet(state).fortress_chits[seat]
            state.last_events.append(E.FortressAttacked(seat, roll, warships, chits, lost))

    def can_win(self, state: GameState, seat: Seat) -> bool:
        """Only with the seat's own fortress captured (seed 004 «Конец игры»)."""
        return state.node_owner[self.slots[seat].fortress] == seat

    # ------------------------------------------------------------------ apply

    def _on_attack(self, state: GameState, action: AttackFortress) -> None:
        state.phase = PiratePhase.FORTRESS

    def _on_die(self, state: GameState, action: FortressDie) -> None:
        self._fortress_die(state, action.roll)

    def _on_rob(self, state: GameState, action: RobSeat) -> None:
        state.rob(action.victim)

    def hand_draw_outcome(self, state: GameState, cards: Hand) -> A.Action:
        """The fleet's loot drawn by the network: :class:`FleetLoot` of ``cards``."""
        return FleetLoot(cards)

    def _on_loot(self, state: GameState, action: FleetLoot) -> None:
        """The fleet's loot goes to the bank; then the roll goes on (production or the 7)."""
        victim = state.victim
        if state.record_events:
            state.last_events.append(E.FleetLooted(victim, action.cards))
        state.pay_bank(victim, action.cards)
        fleet(state).loot = 0
        state.victim = NO_SEAT
        state.roll_pending = False
        assert state.dice is not None
        state.finish_roll(state.dice.total)

    # ------------------------------------------------------------------ rejections

    def why_illegal(self, state: GameState, action: A.Action) -> tuple[str, str] | None:
        """The Pirate Islands rule an action breaks, in words (None: the general reason)."""
        seat = state.active
        if state.phase is Phase.MAIN and fleet(state).fortress_attacked:
            return ("a fortress attack ends the turn", f"{_RULE} «Захват пиратской крепости»")
        if isinstance(action, AttackFortress):
            if state.phase is not Phase.MAIN:
                return None
            if not fleet(state).fortress_chits[seat]:
                return (f"seat {seat} has captured its fortress already", _RULE)
            return (
                "a fortress is attacked once the ship line reaches it",
                f"{_RULE} «Захват пиратской крепости»",
            )
        if (
            isinstance(action, MoveShip)
            and state.phase is Phase.MAIN
            and not sea(state).ship_moved
            and action.source in self.movable_ships(state, seat)
            and action.target != action.source
            and action.target not in self.ship_spots(state, seat, lifted=action.source)
        ):
            return (
                "a moved ship stays on the player's one line, by the shortest route through its"
                " colour intersection to its fortress",
                f"{_RULE} «Строительство кораблей»",
            )
        if isinstance(action, MovePirate | A.MoveRobber):
            return ("there is no robber, and the fleet sails by the dice", _RULE)
        if isinstance(action, RobSeat) and state.phase is Phase.MOVE_ROBBER:
            return ("the roller of a 7 robs an opponent holding a card", f'{_RULE} «"7"»')
        if isinstance(action, A.PlayKnight) and not self.can_play_knight(state, seat):
            return ("a knight turns a plain ship of the line into a warship: none is left", _RULE)
        if (
            isinstance(action, BuildShip)
            and state.phase in (Phase.MAIN, Phase.ROAD_BUILDING)
            and action.path not in self.ship_spots(state, seat)
        ):
            return (
                "a ship extends the player's one line by the shortest route through its"
                " colour intersection to its fortress",
                f"{_RULE} «Строительство кораблей»",
            )
        if isinstance(action, A.BuildRoad) and action.path in state.closed_paths:
            return (
                "a road may not take a side of a ship line",
                f"{_RULE} «Нельзя блокировать строй другого игрока»",
            )
        if isinstance(action, A.BuildSettlement) and 0 <= action.node < self.topology.node_count:
            topo = self.topology
            if (
                action.node < topo.land_node_count
                and topo.node_island[action.node] != self.home
                and action.node != self.slots[seat].colour
            ):
                return (
                    "on the pirate islands only the player's colour intersection takes a"
                    " settlement",
                    f"{_RULE} «Создание поселения на острове пиратов»",
                )
        return super().why_illegal(state, action)

    def public_dict(self, state: GameState) -> dict[str, Any]:
        """Seafarers' public state, the warships, the fortresses' chits and the attack's
        progress."""
        progress = fleet(state)
        return super().public_dict(state) | {
            "warships": list(progress.warships),
            "fortress_chits": list(progress.fortress_chits),
            "fortress_attacked": progress.fortress_attacked,
            "roll_pending": state.roll_pending,
            "loot": progress.loot,
        }

    # Seafarers' actions and phases are inherited through the Seafarers class (its handlers
    # take any Seafarers game); these are the Pirate Islands' own.
    actions: ClassVar[tuple[type[A.VariantAction], ...]] = (
        AttackFortress,
        RobSeat,
        FortressDie,
        FleetLoot,
    )
    handlers: ClassVar[Mapping[type[A.VariantAction], VariantHandler]] = {
        AttackFortress: _on_attack,
        RobSeat: _on_rob,
        FortressDie: _on_die,
        FleetLoot: _on_loot,
    }
    phases: ClassVar[tuple[GamePhase, ...]] = tuple(PiratePhase)
    chance_phases: ClassVar[frozenset[GamePhase]] = frozenset(PiratePhase)


SPEC: Final = GameSpec(
    name=PirateIslands.name,
    rules=PirateIslands,
    place=4,
    tellers=("hexlan.net.tellers.pirate_islands",),
    keys=("hexlan.tui.games.pirate_islands",),
    bots=("hexlan.engine.bots.pirates",),
)
"""Seafarers' Pirate Islands (seed 004; docs/rules/pirate-islands.md)."""


__all__ = [
    "ATTACK_FORTRESS",
    "FORTRESS_DICE",
    "SPEC",
    "AttackFortress",
    "FleetLoot",
    "FleetState",
    "FortressDie",
    "PirateIslands",
    "PiratePhase",
    "RobSeat",
    "Slot",
    "corner_node",
    "fleet",
]
