"""Names shared by the whole engine: card kinds, terrains, development cards, phases, seat ids.

Everything here is a small immutable enum or alias, or a pure helper on hands (:data:`Hand`); the
rules live in :mod:`hexlan.engine.state`.

Card kinds are an open set a rule set declares (../shared/ARCHITECTURE.md, "Open sets"). A
:class:`Resource` is an int, the kind's index in its game's hands, that knows its name and board
letter; a rule set lists its kinds (``cards`` in seeds/*.toml,
:attr:`~hexlan.engine.ruleset.RuleSet.cards`) in any order, and may declare kinds of its own
(Landnám's timber and iron). The class holds the catalogue of the Catan kinds, as an enum would:
the five resources that terrains produce (:data:`RESOURCES`), then the Cities & Knights
commodities paper, cloth and coin (:data:`COMMODITIES`). Where a game's kind stands at its
catalogue place (every Catan game: the five resources, then the commodities) the kind *is* that
catalogue kind, so a base game's hands stay the five counts they always were (same tuples, same
wire bytes, same state hashes). A :data:`Hand` is a tuple of one count per kind of the game.

Terrains are open the same way: a :class:`Terrain` is an int, its code, that knows its name and
letters; the class holds the Catan terrains (numbers 0 .. 10) and a rule set declares its own after
them (``[terrains]``, :func:`~hexlan.engine.ruleset.parse_terrains`: Landnám's bog).
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Final, Self, TypeAlias, TypeVar, cast

Seat: TypeAlias = int
"""A seat index, 0 .. players-1, in the order play proceeds."""

HexId: TypeAlias = int
"""A land hex index, 0 .. 18 on the base board (rows top to bottom, left to right)."""

NodeId: TypeAlias = int
"""An intersection index, 0 .. 53 on the base board (rows top to bottom, left to right)."""

PathId: TypeAlias = int
"""A path (hex edge) index, 0 .. 71 on the base board."""

Hand: TypeAlias = tuple[int, ...]
"""Card counts, one per card kind of the game in its rule set's order (``cards``): lumber, brick,
wool, grain, ore in the base game, then paper, cloth, coin where a game has commodities. Hands of
one game all have the same length."""

MAX_SEATS: Final = 6
"""The most seats any game takes (the 5-6 player game); the protocol and deck share this bound."""

NO_LIMIT: Final = 1_000_000
"""A piece limit when the ``piece_limits`` option is off (more than any game can use)."""

NO_SEAT: Final = -1
"""No seat: an empty intersection's or path's owner, an award nobody holds, an offer to all."""


_Named = TypeVar("_Named")


class _Catalogue(type):
    """The class of :class:`Resource` and :class:`Terrain`: it iterates, counts and looks up by
    name its Catan catalogue (the class's ``_catalogue``, :func:`_catalogued`), as an enum's
    class does (``for r in Resource``, ``len(Terrain)``, ``Resource["ORE"]``,
    ``Terrain.__members__``)."""

    def __iter__(cls: type[_Named]) -> Iterator[_Named]:
        return iter(cast(tuple[_Named, ...], cls.__dict__["_catalogue"]))

    def __len__(cls) -> int:
        return len(cls.__dict__["_catalogue"])

    def __getitem__(cls: type[_Named], name: str) -> _Named:
        return cast(Mapping[str, _Named], cls.__dict__["_members"])[name]

    @property
    def __members__(cls: type[_Named]) -> Mapping[str, _Named]:
        """The catalogue by name (capitals), read only."""
        return cast(Mapping[str, _Named], cls.__dict__["_members"])


def _catalogued(cls: type[_Named], catalogue: tuple[_Named, ...], names: Iterable[str]) -> None:
    """Give ``cls`` its catalogue, in order, and each member as the class attribute of its
    name."""
    members = dict(zip(names, catalogue, strict=True))
    for name, value in (
        ("_catalogue", catalogue),
        ("_members", MappingProxyType(members)),
        *members.items(),
    ):
        setattr(cls, name, value)


class Resource(int, metaclass=_Catalogue):
    """A kind of card a hand holds: an int, the kind's index in its game's hands (so
    ``hand[kind]`` is its count), with its name, board letter and whether it is a commodity.

    The class holds the catalogue of the Catan kinds, at the place every Catan hand gives them,
    as an ``IntEnum`` would: the five resources (seed 002 «Ресурсы и постройки») LUMBER, BRICK,
    WOOL, GRAIN, ORE, then the Cities & Knights commodities (seed 002 «Города и рыцари»): PAPER,
    CLOTH and COIN, which a city next to forest, pasture or mountains makes (with one lumber,
    wool or ore). ``Resource(n)`` is catalogue kind ``n``. A rule set makes any other kind,
    ``Resource(index, name, letter)`` (:func:`hexlan.engine.ruleset.parse_kinds`): Landnám's
    timber and iron, and its grain, whose place (first) is not the catalogue's. Kinds compare
    and hash as their index: two kinds of one game differ by index, and :class:`Kinds` tells
    games apart.

    >>> iron = Resource(3, "iron", "I")
    >>> iron.name, iron.letter, iron.is_commodity, (5, 6, 7, 8)[iron], iron, Resource(4)
    ('IRON', 'I', False, 8, Resource(3, 'iron', 'I'), <Resource.ORE: 4>)

    Raises:
        ValueError: ``Resource(n)`` for a number outside the catalogue; a new kind with a
            negative index, an empty name or a letter that is not one character.
    """

    LUMBER: ClassVar[Resource]
    BRICK: ClassVar[Resource]
    WOOL: ClassVar[Resource]
    GRAIN: ClassVar[Resource]
    ORE: ClassVar[Resource]
    PAPER: ClassVar[Resource]
    CLOTH: ClassVar[Resource]
    COIN: ClassVar[Resource]

    _name: str
    _letter: str
    _commodity: bool

    def __new__(
        cls, index: int, name: str | None = None, letter: str = "", commodity: bool = False
    ) -> Resource:
        if name is None:
            if not 0 <= index < len(_CATALOGUE):
                raise ValueError(f"{index!r} is not a valid Resource")
            return _CATALOGUE[index]
        if index < 0 or not name or len(letter) != 1:
            raise ValueError(
                f"a card kind is an index, a name and a letter, not {index, name, letter}"
            )
        kind = int.__new__(cls, index)
        kind._name, kind._letter, kind._commodity = name.upper(), letter, commodity
        return kind

    __str__ = int.__repr__  # as an IntEnum member's: the index

    def __repr__(self) -> str:
        if self.is_catalogue:
            return f"<Resource.{self._name}: {int(self)}>"
        return f"Resource({int(self)}, {self._name.lower()!r}, {self._letter!r})"

    def __reduce__(self) -> tuple[type[Resource], tuple[int, str, str, bool] | tuple[int]]:
        if self.is_catalogue:
            return (Resource, (int(self),))
        return (Resource, (int(self), self._name.lower(), self._letter, self._commodity))

    @property
    def name(self) -> str:
        """The kind's name in capitals, as an enum member's (``name.lower()`` in words)."""
        return self._name

    @property
    def letter(self) -> str:
        """The one-letter code on the board and in positions (L, B, W, G, O for the resources;
        P, C, M for paper, cloth and coin, "money", as C already names cloth)."""
        return self._letter

    @property
    def is_commodity(self) -> bool:
        """Whether this kind is a commodity, which no terrain produces (paper, cloth, coin; its
        bank count is the rule set's ``bank_per_commodity``)."""
        return self._commodity

    @property
    def is_catalogue(self) -> bool:
        """Whether this is the catalogue's kind (at its catalogue place)."""
        return int(self) < len(_CATALOGUE) and _CATALOGUE[self] is self


_CATALOGUE: Final = tuple(
    Resource(i, name, letter, commodity=i >= 5)
    for i, (name, letter) in enumerate(
        zip(
            ("lumber", "brick", "wool", "grain", "ore", "paper", "cloth", "coin"),
            "LBWGOPCM",
            strict=True,
        )
    )
)
_catalogued(Resource, _CATALOGUE, (k.name for k in _CATALOGUE))
_RESOURCE_COUNT: Final = 5

RESOURCES: Final = _CATALOGUE[:_RESOURCE_COUNT]
"""The five resources in order (lumber first): the kinds terrains produce and a base game's
hand holds."""

COMMODITIES: Final = _CATALOGUE[_RESOURCE_COUNT:]
"""The Cities & Knights commodities: paper, cloth, coin."""


class Kinds(tuple[Resource, ...]):
    """A game's card kinds in hand order (its rule set's ``cards``), as a tuple that compares
    and hashes by names too: kinds are equal as ints across games (Landnám's grain and the base
    game's lumber are both 0), so a cache keyed by a game's kinds needs their names to tell two
    games apart. Equal to a plain tuple of the same ints, as a tuple is.

    >>> Kinds(RESOURCES) == RESOURCES, Kinds(RESOURCES) == Kinds((Resource(0, "grain", "G"),))
    (True, False)
    """

    names: tuple[str, ...]
    _hash: int

    def __new__(cls, kinds: Iterable[Resource] = ()) -> Self:
        made = super().__new__(cls, kinds)
        made.names = tuple(k.name for k in made)
        made._hash = hash((tuple(made), made.names))
        return made

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Kinds):
            return tuple.__eq__(self, other)
        return tuple.__eq__(self, other) and self.names == other.names

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return self._hash


def as_hand(counts: Sequence[int]) -> Hand:
    """Counts in card-kind order (a list, say) as a :data:`Hand`.

    >>> as_hand([1, 0, 2, 0, 0])
    (1, 0, 2, 0, 0)
    """
    return tuple(counts)


def hand_plus(hand: Sequence[int], cards: Sequence[int]) -> Hand:
    """``hand`` with ``cards`` added, kind by kind (both of one game's length).

    >>> hand_plus((1, 0, 2, 0, 0), (0, 1, 1, 0, 0))
    (1, 1, 3, 0, 0)
    >>> hand_plus((1, 0, 0, 0, 0, 0, 2, 0), (0, 0, 0, 0, 0, 1, 1, 0))
    (1, 0, 0, 0, 0, 1, 3, 0)
    """
    if len(hand) == 5:  # perf: the five resources unrolled (the base game's hot path)
        return (
            hand[0] + cards[0],
            hand[1] + cards[1],
            hand[2] + cards[2],
            hand[3] + cards[3],
            hand[4] + cards[4],
        )
    return tuple(map(operator.add, hand, cards))


def hand_minus(hand: Sequence[int], cards: Sequence[int]) -> Hand:
    """``hand`` less ``cards``, kind by kind (negative where ``cards`` has more).

    >>> hand_minus((1, 1, 3, 0, 0), (0, 1, 1, 0, 0))
    (1, 0, 2, 0, 0)
    >>> hand_minus((1, 0, 0, 0, 0, 1, 3, 0), (0, 0, 0, 0, 0, 1, 1, 0))
    (1, 0, 0, 0, 0, 0, 2, 0)
    """
    if len(hand) == 5:  # perf: unrolled, as in hand_plus
        return (
            hand[0] - cards[0],
            hand[1] - cards[1],
            hand[2] - cards[2],
            hand[3] - cards[3],
            hand[4] - cards[4],
        )
    return tuple(map(operator.sub, hand, cards))


def hand_covers(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether ``hand`` holds at least ``cards`` of every kind.

    >>> hand_covers((1, 1, 3, 0, 0), (0, 1, 1, 0, 0)), hand_covers((1, 0, 0, 0, 0), (0, 1, 0, 0, 0))
    (True, False)
    >>> hand_covers((0, 0, 0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 0, 0, 1, 0))
    False
    """
    if len(hand) == 5:  # perf: unrolled, as in hand_plus
        return (
            hand[0] >= cards[0]
            and hand[1] >= cards[1]
            and hand[2] >= cards[2]
            and hand[3] >= cards[3]
            and hand[4] >= cards[4]
        )
    return all(map(operator.ge, hand, cards))


def one_kind(resource: int, count: int = 1, kinds: int = _RESOURCE_COUNT) -> Hand:
    """``count`` cards of one kind as a :data:`Hand` of ``kinds`` counts (the game's number of
    card kinds; five, the resources, by default).

    >>> one_kind(Resource.WOOL, 3)
    (0, 0, 3, 0, 0)
    >>> one_kind(Resource.CLOTH, 1, kinds=8)
    (0, 0, 0, 0, 0, 0, 1, 0)
    """
    cards = [0] * kinds
    cards[resource] = count
    return tuple(cards)


def no_cards(kinds: int = _RESOURCE_COUNT) -> Hand:
    """The empty hand of a game with ``kinds`` card kinds.

    >>> no_cards(), no_cards(8)
    ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0))
    """
    return (0,) * kinds


class Terrain(int, metaclass=_Catalogue):
    """A land hex terrain: an int, its number (a board's hexes hold it; a rule set's ``produce``
    is indexed by it), with its name, its letter code in board files (:attr:`code`), its letter on
    screen and whether it takes a number token. Open as :class:`Resource` is (ARCHITECTURE "Open
    sets").

    The class holds the catalogue of the Catan terrains, numbers 0 .. 10, as an ``IntEnum`` would:
    the five that produce a resource (seed 002, «Описание игры») FOREST, HILLS, PASTURE, FIELDS,
    MOUNTAINS, then DESERT and the variants' JUNGLE, GOLD_MINE, GOLD_FIELD, FOG and SEA (below).
    ``Terrain(n)`` is catalogue terrain ``n``. A rule set declares any other terrain,
    ``Terrain(number, name, letter)`` numbered after the catalogue's
    (:func:`hexlan.engine.ruleset.parse_terrains`: Landnám's bog); what it yields is the rule
    set's ``[produce]`` (nothing unless it says).

    - JUNGLE (seed 002 «Джунгли»): it has a number token and yields discoveries, not resource
      cards (docs/rules/jungle.md).
    - GOLD_MINE, at the mouth of the Big River (seed 002 «Большая река»): no token, no
      resource; a settlement on it brings points (docs/rules/big-river.md).
    - GOLD_FIELD, Seafarers' gold field, the seed's "gold river" (seed 002 «Мореходы»: «Золотая
      река»): it has a number token and brings a resource of the owner's choice
      (docs/rules/seafarers.md).
    - FOG, a face-down Seafarers hex (seed 002 «Мореходы»; the official Seafarers rules, "The
      Fog Island"): no token and no resource until a road or ship reaching it reveals a tile of
      the fog stack (docs/rules/seafarers.md).
    - SEA: a fog hex revealed as water: it produces nothing and takes no token.

    >>> bog = Terrain(11, "bog", "b")
    >>> bog.name, bog.code, bog.letter, bog.takes_token, bog.resource, bog, Terrain(3)
    ('BOG', 'b', 'b', True, None, Terrain(11, 'bog', 'b'), <Terrain.FIELDS: 3>)

    Raises:
        ValueError: ``Terrain(n)`` for a number outside the catalogue; a new terrain with a
            number inside the catalogue's, an empty name or a letter that is not one character.
    """

    FOREST: ClassVar[Terrain]
    HILLS: ClassVar[Terrain]
    PASTURE: ClassVar[Terrain]
    FIELDS: ClassVar[Terrain]
    MOUNTAINS: ClassVar[Terrain]
    DESERT: ClassVar[Terrain]
    JUNGLE: ClassVar[Terrain]
    GOLD_MINE: ClassVar[Terrain]
    GOLD_FIELD: ClassVar[Terrain]
    FOG: ClassVar[Terrain]
    SEA: ClassVar[Terrain]

    _name: str
    _code: str
    _token: bool

    def __new__(
        cls, value: int, name: str | None = None, code: str = "", token: bool = True
    ) -> Terrain:
        catalogue = cls.__dict__.get("_catalogue", ())
        if name is None:
            if not 0 <= value < len(catalogue):
                raise ValueError(f"{value!r} is not a valid Terrain")
            return cast(Terrain, catalogue[value])
        if value < len(catalogue) or not name or len(code) != 1:
            raise ValueError(
                f"a terrain is a number after the catalogue's, a name and a letter,"
                f" not {value, name, code}"
            )
        terrain = int.__new__(cls, value)
        terrain._name, terrain._code, terrain._token = name.upper(), code, token
        return terrain

    __str__ = int.__repr__  # as an IntEnum member's: the number

    def __repr__(self) -> str:
        if self.is_catalogue:
            return f"<Terrain.{self._name}: {int(self)}>"
        return f"Terrain({int(self)}, {self._name.lower()!r}, {self._code!r})"

    def __reduce__(self) -> tuple[type[Terrain], tuple[int, str, str, bool] | tuple[int]]:
        if self.is_catalogue:
            return (Terrain, (int(self),))
        return (Terrain, (int(self), self._name.lower(), self._code, self._token))

    @property
    def name(self) -> str:
        """The terrain's name in capitals, as an enum member's."""
        return self._name

    @property
    def value(self) -> int:
        """The terrain's number, as an enum member's value."""
        return int(self)

    @property
    def code(self) -> str:
        """The terrain's letter in board files (seeds/boards/*.toml, docs/rules/maps.md; a
        board's ``terrains`` text): F, H, P, C, M, D; J jungle, G gold mine, R gold field, ?
        fog, W sea; a declared terrain's own."""
        return self._code

    @property
    def resource(self) -> Resource | None:
        """The resource this terrain produces in the Catan games, or None (desert, jungle, gold
        mine, a declared terrain); never a commodity. A rule set may say otherwise
        (:attr:`~hexlan.engine.ruleset.RuleSet.produce`, which the engine reads)."""
        return Resource(int(self)) if int(self) < _RESOURCE_COUNT else None

    @property
    def letter(self) -> str:
        """The letter on screen: the resource's letter; D desert, J jungle, $ gold mine, * gold
        field, ? fog, ~ a fog hex revealed as sea (../shared/UI.md); a declared terrain's board
        letter."""
        if not self.is_catalogue:
            return self._code
        if self.resource is not None:
            return self.resource.letter
        return _TERRAIN_LETTERS[int(self) - _RESOURCE_COUNT]

    @property
    def takes_token(self) -> bool:
        """Whether a hex of this terrain carries a number token (all catalogue terrains but
        desert, gold mine, fog and sea; a declared one unless it says ``token = false``)."""
        return self._token

    @property
    def is_catalogue(self) -> bool:
        """Whether this is the catalogue's terrain."""
        return int(self) < len(Terrain) and _TERRAIN_CATALOGUE[int(self)] is self


_TERRAIN_LETTERS: Final = ("D", "J", "$", "*", "?", "~")
_NO_TOKEN: Final = frozenset({5, 7, 9, 10})  # desert, gold mine, fog, sea
_TERRAIN_CATALOGUE: Final = tuple(
    Terrain(i, name, code, i not in _NO_TOKEN)
    for i, (name, code) in enumerate(
        zip(
            (
                "forest",
                "hills",
                "pasture",
                "fields",
                "mountains",
                "desert",
                "jungle",
                "gold_mine",
                "gold_field",
                "fog",
                "sea",
            ),
            "FHPCMDJGR?W",
            strict=True,
        )
    )
)
_catalogued(Terrain, _TERRAIN_CATALOGUE, (t.name for t in _TERRAIN_CATALOGUE))


class DevelopmentCard(enum.IntEnum):
    """A face of the development deck: the base of the open set of faces (../shared/
    ARCHITECTURE.md, "Open sets, not fixed tuples"), as :class:`GamePhase` is of phases.

    :class:`DevCard` holds the base game's five, registered by the base rules; a game's rules
    module declares faces of its own as another subclass, registered with its
    ``Variant.dev_cards`` and merged by :mod:`hexlan.engine.registry` (:data:`~hexlan.engine.
    registry.DEV_CARDS`, by name). A rule set names its deck's faces by those names
    (``[development_deck]`` in seeds/*.toml). A face's code is its wire code (a drawn card's
    ``card`` field, a deck's face number) and its index in every seat's card counts, so codes
    are unique across games and stable: the base game's 0 .. 4, then each game's in turn."""

    @property
    def title(self) -> str:
        """The card's name in words, e.g. "Year of Plenty"."""
        return self.name.replace("_", " ").title().replace(" Of ", " of ")


class DevCard(DevelopmentCard):
    """The base game's development cards (seed 002 «Карточки развития»), registered by the base
    rules; codes 0 .. 4 in the order every base game's card counts use."""

    KNIGHT = 0
    VICTORY_POINT = 1
    ROAD_BUILDING = 2
    YEAR_OF_PLENTY = 3
    MONOPOLY = 4


class GamePhase(enum.IntEnum):
    """Where the game stands; decides whose decision it is and what kind. The base of every
    game's phase enum: :class:`Phase` holds the engine's own, and a game's rules module declares
    its own as another subclass (Seafarers' ``SeaPhase``), registered with its ``Variant.phases``
    and merged by :mod:`hexlan.engine.registry`. Codes are unique across games and stable (a
    state's hash covers them): the engine's first (0 .. 14), the special building phase (15),
    then each game's."""

    @property
    def title(self) -> str:
        """The phase in words, for status lines."""
        return self.name.replace("_", " ").lower()


class Phase(GamePhase):
    """The engine's own phases: the base game's. The 5-6 player special building phase (code 15)
    is :class:`BuildPhase`, which a rule set's flag adds."""

    START_PLAYER = 0
    """Chance: who starts (a roll-off, taken as one uniform chance outcome)."""
    SETUP_SETTLEMENT = 1
    """Set-up: the active seat places a free settlement (snake order, seed 002 «Начало игры»)."""
    SETUP_ROAD = 2
    """Set-up: the active seat places a free road touching the settlement just placed."""
    ROLL = 3
    """The active seat must roll (or play a development card first)."""
    DICE = 4
    """Chance: the dice outcome."""
    DISCARD = 5
    """Seats holding more than the limit discard half, each their own choice."""
    MOVE_ROBBER = 6
    """The active seat moves the robber and names the victim (after a 7 or a knight)."""
    STEAL = 7
    """Chance: the card taken from the victim."""
    MAIN = 8
    """After the roll: trade, build, play a card, end the turn."""
    ROAD_BUILDING = 9
    """Placing the free roads of a Road Building card."""
    TRADE_RESPONSES = 10
    """A domestic trade offer awaits the answers of the seats it was made to."""
    DRAW = 11
    """Chance: the development card a purchase draws."""
    MONOPOLY = 12
    """Chance-like reveal: how many cards each opponent hands over."""
    VICTORY = 13
    """Chance-like reveal: the winner shows their victory point cards."""
    GAME_OVER = 14
    """The game has ended; nobody acts."""


class BuildPhase(GamePhase):
    """The special building phase of the games for five and six players (seed 002 «Расширение
    на 5-6 игроков»): the engine plays it (engine/state.py, engine/info.py), but only a rule set
    with ``special_building = true`` has it (seeds/five-six.toml,
    seeds/seafarers-pirate-islands-6.toml; a flag, not a hooks module, since a game with hooks
    of its own, Pirate Islands for six, has it too). So it is not a member of :class:`Phase`:
    :data:`~hexlan.engine.variants.FLAG_PHASES` names it by its flag, and
    :mod:`hexlan.engine.registry` merges it after the engine's phases, before any game's, with
    the code it always had (15), stable on the wire and in every hash."""

    SPECIAL_BUILD = 15
    """After a turn, each other seat in turn order may build and buy development cards, no
    trade and no card play; the active seat is the builder (docs/rules/five-six.md)."""


BASE_CHANCE_PHASES: Final = frozenset(
    {
        Phase.START_PLAYER,
        Phase.DICE,
        Phase.STEAL,
        Phase.DRAW,
        Phase.MONOPOLY,
        Phase.VICTORY,
    }
)
"""The base game's phases where the next action is a chance outcome or a reveal, not a seat's
decision (:data:`hexlan.engine.registry.CHANCE_PHASES` adds the games' own)."""


class EngineError(Exception):
    """Base class of every error the engine raises."""


class IllegalActionError(EngineError, ValueError):
    """An action that the rules do not allow in this state.

    Attributes:
        reason: what is wrong, in words.
        rule: where the rule comes from (seed file and section, or the official rule).
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule else reason)
