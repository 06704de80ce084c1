"""A game's fixed numbers, loaded from seeds/*.toml: piece limits, costs, deck, bank, awards.

Rules are data (../shared/ARCHITECTURE.md principle 3): the engine reads counts and costs from a
:class:`RuleSet`; nothing here decides a rule by itself.

Card kinds and what terrains produce are data too (ARCHITECTURE "Open sets"). A file's ``cards``
lists the kinds of card a hand holds, in hand order: names of the Catan catalogue
(:class:`~hexlan.engine.core.Resource`: the five resources when the file does not say; the
commodities after them in Cities & Knights) or of kinds the file declares in a ``[kinds]``
table (a board letter, and ``commodity = true`` for a kind whose bank count is
``bank_per_commodity``). A ``[produce]`` table says which kind a terrain yields where it is not
the catalogue's (``forest = "timber"``; ``"nothing"``); a terrain whose catalogue resource the
game does not hold yields nothing. Every hand, cost and bank of the game then has one count per
kind, and the engine, the wire, the bots and the UI size hands by :attr:`RuleSet.cards`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from hexlan.engine.actions import MAX_KINDS
from hexlan.engine.core import (
    MAX_SEATS,
    RESOURCES,
    DevCard,
    DevelopmentCard,
    EngineError,
    Hand,
    Kinds,
    Resource,
    Terrain,
)
from hexlan.engine.registry import DEV_CARDS
from hexlan.engine.seedfile import parse_cost, read_seed, seed_names
from hexlan.engine.variants import SPECS

if TYPE_CHECKING:
    from hexlan.engine.gamespec import GameSpec

GAMES: Final = seed_names()
"""The games hexlan plays, by name, sorted: each is seeds/<name>.toml (``--game NAME``), found
by reading seeds/, so a new game is a new file there and no edit here."""


def state_spec(name: str) -> GameSpec | None:
    """The spec of game ``name`` if the game has a state of its own (its ``hooks`` name a spec
    with a state factory: Landnám), else None: a game :class:`~hexlan.engine.state.GameState`
    plays from a :class:`RuleSet`.

    Raises:
        EngineError: no such game, or a file that cannot be read.
    """
    if name not in GAMES:
        raise EngineError(f"no game named {name!r}; the games are {', '.join(GAMES)}")
    spec = SPECS.get(str(read_seed("", name).get("hooks", "base")))
    return spec if spec is not None and spec.state is not None else None


def game_summary(name: str) -> tuple[str, int, int, str]:
    """Game ``name`` in brief, from its data file alone, for any game (a Catan rule set or
    not): ``(name, fewest seats, most seats, its one line)``.

    Raises:
        EngineError: no such game, or a file without ``players``.
    """
    if name not in GAMES:
        raise EngineError(f"no game named {name!r}; the games are {', '.join(GAMES)}")
    raw = read_seed("", name)
    try:
        fewest, most = (int(n) for n in raw["players"])
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"game {name!r} names no players: {exc}") from exc
    return name, fewest, most, _description(raw)


def seat_range(name: str) -> tuple[int, int]:
    """The fewest and most seats game ``name`` takes: its rule set's, or for a game with a
    state of its own its data file's (:func:`game_summary`).

    Raises:
        EngineError: no such game, or a file that cannot be read.
    """
    if state_spec(name) is not None:
        _, fewest, most, _ = game_summary(name)
        return fewest, most
    rules = load_ruleset(name)
    return rules.min_players, rules.max_players


CATAN_GAMES: Final = tuple(name for name in GAMES if state_spec(name) is None)
"""The games played on the Catan engine (:class:`~hexlan.engine.state.GameState` and its rules
modules), sorted: every game but those with a state of their own (:func:`state_spec`)."""

DEVELOPMENT_DECK: Final = "development"
"""The development deck's name among a rule set's :attr:`RuleSet.decks`."""

_RESOURCE_KINDS: Final = Kinds(RESOURCES)
_CATAN_TERRAINS: Final = tuple(Terrain)
_CATAN_PRODUCE: Final = tuple(t.resource for t in Terrain)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Counts and costs of one game family.

    Attributes:
        name: the seeds/ file it came from, without ``.toml``: the game's name.
        board: the map its boards are laid on (seeds/boards/<board>.toml).
        min_players, max_players: the seats the game takes.
        victory_points: points needed to win.
        discard_limit: a player holding more resource cards than this discards half on a 7.
        bank_per_resource: resource cards of each kind in the game.
        cards: the kinds of card a hand holds, in hand order (:func:`parse_kinds`: the five
            resources by default); a :data:`Hand` has ``len(cards)`` counts.
        bank: cards of each kind in the bank at the start: ``bank_per_resource`` of each
            resource, ``bank_per_commodity`` (default the same) of each commodity.
        terrains: the game's terrains by code: the Catan catalogue's, then those the file
            declares (:func:`parse_terrains`), which its boards may use by their letters.
        produce: the kind each terrain of ``terrains`` yields in this game, by terrain code, or
            None (:func:`parse_produce`; :attr:`Terrain.resource` in every Catan game).
        description: the game in one line (the file's ``description``), for the game picker.
        plenty_kinds: the kinds Year of Plenty and Monopoly may name: every kind but the
            commodities (official: "any resource"). The hook for a game whose cards name
            commodities too (Cities & Knights' Merchant Fleet, Commercial Harbor): a
            ``plenty_kinds`` list in its file.
        road_limit, settlement_limit, city_limit: pieces per player.
        road_cost, settlement_cost, city_cost, development_card_cost: hands (one count per kind
            of ``cards``; a file may list only the five resources, commodities then cost 0).
        development_deck: cards of each development card face, by face code (the registry's
            :data:`~hexlan.engine.registry.DEV_CARDS` order; the base game's five, then as many
            faces as the last one the file names needs): the counts of
            ``decks["development"]``.
        dev_faces: the face of each count of ``development_deck``.
        longest_road_min: segments needed for Longest Road.
        largest_army_min: knights needed for Largest Army.
        award_points: victory points of each award.
        special_building: a special building phase follows every turn (the 5-6 player game,
            seed 002 «Расширение на 5-6 игроков»); false when the file does not say.
        decks: every hidden stack of the game by name, each as its count of every card face,
            faces numbered from 0 (``"development"``: face codes); from the file's
            ``[development_deck]`` (faces by name: knight, victory_point, ... and any a game
            registers; left out when it holds no card,
            as in Cities & Knights) and any ``[decks.NAME]`` table (its entries in file order,
            e.g. a fog stack's tiles).
        raw: the whole parsed file, for what a game's own rules module reads.
    """

    name: str
    board: str
    min_players: int
    max_players: int
    victory_points: int
    discard_limit: int
    bank_per_resource: int
    road_limit: int
    settlement_limit: int
    city_limit: int
    road_cost: Hand
    settlement_cost: Hand
    city_cost: Hand
    development_card_cost: Hand
    development_deck: tuple[int, ...]
    longest_road_min: int
    largest_army_min: int
    award_points: int
    decks: Mapping[str, tuple[int, ...]]
    raw: dict[str, Any]
    special_building: bool = False
    cards: Kinds = _RESOURCE_KINDS
    bank: Hand = ()
    plenty_kinds: Kinds = _RESOURCE_KINDS
    terrains: tuple[Terrain, ...] = _CATAN_TERRAINS
    produce: tuple[Resource | None, ...] = _CATAN_PRODUCE
    description: str = ""
    dev_faces: tuple[DevelopmentCard, ...] = ()

    @property
    def kinds(self) -> int:
        """The number of card kinds: the length of every hand of the game (5 in the base
        game)."""
        return len(self.cards)

    def seat_range(self, joiner: str = " to ") -> str:
        """The game's seat counts in words: "4", or "2 to 4" (``joiner`` between the ends).

        >>> load_ruleset("five-six").seat_range(), load_ruleset("base").seat_range("-")
        ('5 to 6', '2-4')
        """
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}{joiner}{self.max_players}"

    def seat_count(self, count: int | None, noun: str = "players") -> int:
        """``count`` checked against the game's seat range; None is 4 brought into that range
        (5 in the 5-6 player game).

        Raises:
            EngineError: a count outside the range, in one line, e.g. "the five-six game takes
                5 to 6 players, not 4" (``noun`` names what is counted), naming the game's
                published map for that many where there is one ("... not 6 (for 6 players:
                seafarers-new-shores-6)").
        """
        if count is None:
            return max(self.min_players, min(4, self.max_players))
        if not self.min_players <= count <= self.max_players:
            other = next(
                (
                    g
                    for g in GAMES
                    if g.startswith(f"{self.name}-")
                    and load_ruleset(g).min_players <= count <= load_ruleset(g).max_players
                ),
                None,
            )
            hint = f" (for {count} {noun}: {other})" if other else ""
            raise EngineError(
                f"the {self.name} game takes {self.seat_range()} {noun}, not {count}{hint}"
            )
        return count


def parse_kinds(values: Any, declared: Any = None) -> Kinds:
    """A rule set's card kinds (``cards``) in hand order: each name a kind of the Catan catalogue
    (:class:`Resource`) or one ``declared`` (the file's ``[kinds]`` table: name -> ``{letter =
    "T"}``, optionally ``commodity = true``). A catalogue kind at its catalogue place is that
    catalogue :class:`Resource`, so every Catan game's kinds are the catalogue's; any other kind
    is a new :class:`Resource` at its place (Landnám's grain, first, keeps the letter G).

    >>> [r.name for r in parse_kinds(["lumber", "brick", "wool", "grain", "ore", "paper"])]
    ['LUMBER', 'BRICK', 'WOOL', 'GRAIN', 'ORE', 'PAPER']
    >>> parse_kinds(["grain", "timber"], {"timber": {"letter": "T"}})
    (Resource(0, 'grain', 'G'), Resource(1, 'timber', 'T'))

    Raises:
        EngineError: not 1 to :data:`~hexlan.engine.actions.MAX_KINDS` names; a name that is no
            kind of the catalogue nor declared, or named twice; two kinds of one letter; a
            declared kind that is malformed or has a catalogue name.
    """
    catalogue = {r.name.lower(): r for r in Resource}
    own = _declared_kinds(declared, catalogue)
    known = {**catalogue, **own}
    if (
        not isinstance(values, list)
        or not 1 <= len(values) <= MAX_KINDS
        or any(v not in known for v in values)
        or len(set(values)) != len(values)
    ):
        raise EngineError(
            f"cards must list 1 to {MAX_KINDS} different card kinds ({', '.join(known)}),"
            f" not {values!r}"
        )
    kinds = Kinds(
        catalogue[v] if v in catalogue and catalogue[v] == i else _placed(known[v], i, v)
        for i, v in enumerate(values)
    )
    if len({k.letter for k in kinds}) != len(kinds):
        raise EngineError(f"cards must have one letter each, not {[k.letter for k in kinds]}")
    return kinds


def _declared_kinds(declared: Any, catalogue: Mapping[str, Resource]) -> dict[str, Resource]:
    """The ``[kinds]`` table's kinds by name (at index 0: :func:`_placed` moves them)."""
    if declared is None:
        return {}
    if not isinstance(declared, dict):
        raise EngineError(f"kinds must be a table of card kinds, not {declared!r}")
    own = {}
    for name, entry in declared.items():
        if name in catalogue or not isinstance(entry, dict):
            raise EngineError(f"kinds.{name} must declare a new card kind, not {entry!r}")
        letter, commodity = entry.get("letter"), entry.get("commodity", False)
        if not isinstance(letter, str) or len(letter) != 1 or not isinstance(commodity, bool):
            raise EngineError(f"kinds.{name} needs a one-letter letter: {entry!r}")
        own[str(name)] = Resource(0, str(name), letter, commodity)
    return own


def _placed(kind: Resource, index: int, name: str) -> Resource:
    return Resource(index, name, kind.letter, kind.is_commodity)


def pick_kinds(values: Any, cards: Kinds, key: str) -> Kinds:
    """Kinds of the game named in any order (``plenty_kinds``): the game's own kinds, as
    ``cards`` holds them.

    Raises:
        EngineError: not a list of names of ``cards``.
    """
    names = [k.name.lower() for k in cards]
    if not isinstance(values, list) or any(v not in names for v in values):
        raise EngineError(
            f"{key} must list card kinds of cards ({', '.join(names)}), not {values!r}"
        )
    return Kinds(cards[names.index(v)] for v in values)


def parse_terrains(declared: Any) -> tuple[Terrain, ...]:
    """A rule set's terrains by code: the Catan catalogue's (:class:`Terrain`), then each one
    ``declared`` (the file's ``[terrains]`` table: name -> ``{letter = "b"}``, its letter in
    board files and on screen, optionally ``token = false`` for a terrain that takes no number
    token), coded in table order after the catalogue's.

    >>> parse_terrains({"bog": {"letter": "b"}})[-1]
    Terrain(11, 'bog', 'b')

    Raises:
        EngineError: a table that is not one of terrain tables; a declared terrain with a
            catalogue name, without a one-letter letter, with a letter another terrain has, or
            with a ``token`` that is not true or false.
    """
    if declared is None:
        return _CATAN_TERRAINS
    if not isinstance(declared, dict):
        raise EngineError(f"terrains must be a table of terrains, not {declared!r}")
    terrains = list(_CATAN_TERRAINS)
    for name, entry in declared.items():
        if str(name).upper() in Terrain.__members__ or not isinstance(entry, dict):
            raise EngineError(f"terrains.{name} must declare a new terrain, not {entry!r}")
        letter, token = entry.get("letter"), entry.get("token", True)
        if not isinstance(letter, str) or len(letter) != 1:
            raise EngineError(f"terrains.{name} needs a one-letter letter: {entry!r}")
        if not isinstance(token, bool):
            raise EngineError(f"terrains.{name}.token must be true or false, not {token!r}")
        if letter in (t.code for t in terrains):
            raise EngineError(f"terrains.{name}: another terrain has the letter {letter!r}")
        terrains.append(Terrain(len(terrains), str(name), letter, token))
    return tuple(terrains)


def parse_produce(
    table: Any, cards: Kinds, terrains: tuple[Terrain, ...] = _CATAN_TERRAINS
) -> tuple[Resource | None, ...]:
    """The kind each of ``terrains`` yields, by terrain code: the ``[produce]`` table's (terrain
    name -> a kind of ``cards`` or ``"nothing"``), else the terrain's catalogue resource
    (:attr:`Terrain.resource`) where the game holds it, else nothing.

    Raises:
        EngineError: a name that is no terrain of ``terrains``, or a kind the game does not
            hold.
    """
    known = {t.name.lower() for t in terrains}
    if not isinstance(table, dict) or any(t not in known for t in table):
        raise EngineError(f"produce must map terrains to card kinds, not {table!r}")
    names = {k.name.lower(): k for k in cards} | {"nothing": None}
    produce = []
    for terrain in terrains:
        own = table.get(terrain.name.lower())
        if own is not None and own not in names:
            raise EngineError(f"produce.{terrain.name.lower()} must be a card kind, not {own!r}")
        resource = terrain.resource
        default = None if resource is None else resource.name.lower()
        produce.append(names.get(default or "nothing") if own is None else names[own])
    return tuple(produce)


def _description(raw: dict[str, Any]) -> str:
    """The game in one line (``description``), for the game picker; "" when the file has none.

    Raises:
        EngineError: a description that is not one line of text.
    """
    text = raw.get("description", "")
    if not isinstance(text, str) or "\n" in text:
        raise EngineError(f"description must be one line of text, not {text!r}")
    return text


def _flag(raw: dict[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise EngineError(f"{key} must be true or false, not {value!r}")
    return value


def parse_development_deck(
    table: dict[str, Any],
) -> tuple[tuple[DevelopmentCard, ...], tuple[int, ...]]:
    """A ``[development_deck]`` table (face name -> count) as the faces and their counts by
    face code: the base game's five faces always (a face the table leaves out has none), and
    faces a game registers up to the last one named.

    Raises:
        EngineError: a name no game registers (:data:`~hexlan.engine.registry.DEV_CARDS`) or a
            count that is not a whole number from 0.
    """
    if not isinstance(table, dict):
        raise EngineError(f"development_deck must be a table of counts, not {table!r}")
    known = tuple(DEV_CARDS.values())
    counts = [0] * len(DevCard)
    for name, count in table.items():
        face = DEV_CARDS.get(str(name))
        if face is None:
            raise EngineError(f"development_deck names no known card: {name!r}")
        if type(count) is not int or count < 0:
            raise EngineError(f"development_deck.{name} must be a count, not {count!r}")
        counts.extend([0] * (int(face) + 1 - len(counts)))
        counts[face] = count
    return known[: len(counts)], tuple(counts)


def ruleset_from(name: str, raw: dict[str, Any]) -> RuleSet:
    """A rule set from a parsed seeds/*.toml file (``raw``, ``extends`` already merged), named
    ``name``; :func:`load_ruleset` reads the registered games this way.

    Raises:
        EngineError: a field is missing or malformed, in one line.
    """
    try:
        faces, development = parse_development_deck(raw["development_deck"])
        decks = ({DEVELOPMENT_DECK: development} if any(development) else {}) | {
            str(name): tuple(int(n) for n in counts.values())
            for name, counts in raw.get("decks", {}).items()
        }
        pieces, costs, awards = raw["pieces"], raw["costs"], raw["awards"]
        fewest, most = (int(n) for n in raw["players"])
        if not 2 <= fewest <= most <= MAX_SEATS:
            raise EngineError(f"players must be within 2..{MAX_SEATS}, not {raw['players']!r}")
        names = [r.name.lower() for r in RESOURCES]
        cards = parse_kinds(raw.get("cards", names), raw.get("kinds"))
        resources = [k.name.lower() for k in cards if not k.is_commodity]
        plenty = pick_kinds(raw.get("plenty_kinds", resources), cards, "plenty_kinds")
        per_resource = int(raw["bank_per_resource"])
        per_commodity = int(raw.get("bank_per_commodity", per_resource))
        kinds = len(cards)
        terrains = parse_terrains(raw.get("terrains"))
        return RuleSet(
            name=name,
            board=str(raw["board"]),
            min_players=fewest,
            max_players=most,
            victory_points=int(raw["victory_points"]),
            discard_limit=int(raw["discard_limit"]),
            bank_per_resource=per_resource,
            road_limit=int(pieces["road"]),
            settlement_limit=int(pieces["settlement"]),
            city_limit=int(pieces["city"]),
            road_cost=parse_cost(costs["road"], kinds),
            settlement_cost=parse_cost(costs["settlement"], kinds),
            city_cost=parse_cost(costs["city"], kinds),
            development_card_cost=parse_cost(costs["development_card"], kinds),
            development_deck=development,
            dev_faces=faces,
            longest_road_min=int(awards["longest_road_min"]),
            largest_army_min=int(awards["largest_army_min"]),
            award_points=int(awards["points"]),
            decks=decks,
            raw=raw,
            special_building=_flag(raw, "special_building"),
            cards=cards,
            bank=tuple(per_commodity if r.is_commodity else per_resource for r in cards),
            plenty_kinds=plenty,
            terrains=terrains,
            produce=parse_produce(raw.get("produce", {}), cards, terrains),
            description=_description(raw),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"cannot load rule set {name!r}: {exc}") from exc


@cache
def load_ruleset(name: str = "base") -> RuleSet:
    """Load ``seeds/<name>.toml`` (packaged as ``hexlan.seeds``), once per process.

    A file may name another with ``extends = "NAME"``: it is read over that one, so a game states
    only what differs from the game it extends (seeds/five-six.toml extends seeds/base.toml).

    Raises:
        EngineError: the file is missing or a field is malformed.
    """
    if name not in CATAN_GAMES:
        if name in GAMES:
            raise EngineError(
                f"{name} is a game with a state of its own, not a Catan rule set:"
                f" it is played by `hexlan simulate` and `hexlan bot --game {name}` so far"
            )
        raise EngineError(f"no game named {name!r}; the games are {', '.join(GAMES)}")
    try:
        raw = read_seed("", name)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise EngineError(f"cannot load rule set {name!r}: {exc}") from exc
    return ruleset_from(name, raw)
