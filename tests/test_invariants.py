"""Property tests: seeded random games keep every invariant and replay bit for bit.

Each example plays one whole game (2-4 players, a board and a set of options drawn by
hypothesis, every decision and chance outcome from ``random.Random(seed)``) with a crude
builder policy that also trades, robs and plays cards, and checks after every action:

- resources: bank + hands = 19 of each (seeds/base.toml ``bank_per_resource``);
- development cards: deck + held + played = 25, 14/5/2/2/2 by kind;
- pieces within 15/5/4 (piece_limits) and the board agrees with each seat's piece lists;
- public points = settlements + 2 x cities + awards + revealed cards;
- Longest Road and Largest Army holders agree with the official award rules;
- every action legal_actions lists passes check(), and random actions that check() accepts
  are listed;
- the game ends with a winner at the target, and replaying the actions on a fresh state gives
  the same full hash (ARCHITECTURE.md principle 1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexlan.chance import draw_outcome
from hexlan.engine import actions as A
from hexlan.engine.board import Board, beginner_board, random_board
from hexlan.engine.core import NO_SEAT, RESOURCES, DevCard, IllegalActionError, Phase, Resource
from hexlan.engine.longest_road import longest_road
from hexlan.engine.options import GameOptions
from hexlan.engine.state import GameState

MAX_ACTIONS = 8000
ROAD_CAP = 14  # the policy builds no more roads than this, even without piece limits
OPTIONS = {
    "official": GameOptions(),
    "seed003": GameOptions.seed003(),
    "older": GameOptions(knight_only_before_roll=True, robber_before_discard=True),
    "harbours": GameOptions(mixed_three_to_one=True, vp_cards_next_turn=True),
}
BUILD_WEIGHTS = {
    A.BuildCity: 40.0,
    A.BuildSettlement: 40.0,
    A.BuyDevelopmentCard: 8.0,
    A.BuildRoad: 5.0,
    A.PlayKnight: 3.0,
    A.PlayRoadBuilding: 3.0,
    A.PlayYearOfPlenty: 3.0,
    A.PlayMonopoly: 3.0,
    A.MaritimeTrade: 2.0,
    A.EndTurn: 2.0,
}


@dataclass
class Game:
    """One random game: its inputs and every action applied, with the per-kind card plays."""

    board: Board
    players: int
    options: GameOptions
    actions: list[A.Action] = field(default_factory=list)
    played: list[int] = field(default_factory=lambda: [0] * 5)
    last_card_turn: dict[int, int] = field(default_factory=dict)


def _offer(state: GameState, rng: random.Random) -> A.OfferTrade | None:
    hand = state.hands[state.active]
    held = [r for r in RESOURCES if hand[r]]
    if not held:
        return None
    give_r = rng.choice(held)
    get_r = rng.choice([r for r in RESOURCES if r != give_r])
    give, get = [0] * 5, [0] * 5
    give[give_r] = rng.randint(1, hand[give_r])
    get[get_r] = rng.randint(1, 2)
    to = rng.choice([NO_SEAT, *(s for s in range(state.players) if s != state.active)])
    return A.OfferTrade(tuple(give), tuple(get), to)  # type: ignore[arg-type]


def _counter(state: GameState, seat: int, rng: random.Random) -> A.CounterOffer | None:
    assert state.trade is not None
    mine, theirs = state.hands[seat], state.hands[state.active]
    give_r = [r for r in RESOURCES if theirs[r]]
    get_r = [r for r in RESOURCES if mine[r]]
    if not give_r or not get_r:
        return None
    a, b = rng.choice(give_r), rng.choice(get_r)
    if a == b:
        return None
    give, get = [0] * 5, [0] * 5
    give[a], get[b] = 1, 1
    return A.CounterOffer(seat, tuple(give), tuple(get))  # type: ignore[arg-type]


def _choose(state: GameState, rng: random.Random) -> A.Action:
    """The next action: a chance outcome by its probability, or a player's choice."""
    outcomes = state.chance_outcomes()
    if outcomes:
        return draw_outcome(rng, outcomes)
    seat = rng.choice(state.acting_seats())
    legal = state.legal_actions(seat)
    if state.phase is Phase.TRADE_RESPONSES and seat != state.active and rng.random() < 0.3:
        counter = _counter(state, seat, rng)
        if counter is not None:
            return counter
    if state.phase is not Phase.MAIN:
        return rng.choice(legal)
    if rng.random() < 0.04:
        offer = _offer(state, rng)
        if offer is not None:
            return offer
    kinds: dict[type, list[A.Action]] = {}
    many_roads = len(state.roads[seat]) >= ROAD_CAP
    for action in legal:
        if many_roads and isinstance(action, A.BuildRoad | A.PlayRoadBuilding):
            continue  # perf: without piece limits the longest-trail search grows exponentially
        kinds.setdefault(type(action), []).append(action)
    types = list(kinds)
    kind = rng.choices(types, [BUILD_WEIGHTS.get(k, 1.0) for k in types])[0]
    return rng.choice(kinds[kind])


def _random_probe(state: GameState, rng: random.Random) -> A.Action:
    """An arbitrary action of a random kind, most of them illegal."""
    seat = rng.randrange(state.players)
    hand = tuple(rng.randint(0, 4) for _ in range(5))
    kind = rng.randrange(9)
    if kind == 0:
        return A.BuildRoad(rng.randrange(72))
    if kind == 1:
        return A.BuildSettlement(rng.randrange(54))
    if kind == 2:
        return A.BuildCity(rng.randrange(54))
    if kind == 3:
        return A.MoveRobber(rng.randrange(19), rng.randrange(-1, state.players))
    if kind == 4:
        return A.MaritimeTrade(hand, Resource(rng.randrange(5)))  # type: ignore[arg-type]
    if kind == 5:
        return A.PlayYearOfPlenty(tuple(Resource(rng.randrange(5)) for _ in range(2)))
    if kind == 6:
        return A.Discard(seat, hand)  # type: ignore[arg-type]
    if kind == 7:
        return A.PlayMonopoly(Resource(rng.randrange(5)))
    return rng.choice([A.EndTurn(), A.RollDice(), A.PlayKnight(), A.PlayRoadBuilding()])


_CARD_OF = {
    A.PlayKnight: DevCard.KNIGHT,
    A.PlayRoadBuilding: DevCard.ROAD_BUILDING,
    A.PlayYearOfPlenty: DevCard.YEAR_OF_PLENTY,
    A.PlayMonopoly: DevCard.MONOPOLY,
}


def _best_ratio(state: GameState, seat: int, resource: int) -> int:
    """4, or 3 / 2 for a harbour with one of the seat's buildings on its path (seed 002
    «Торговля»), computed from the board rather than the engine's table."""
    ratio = 4
    for harbour in state.board.harbours:
        if any(state.node_owner[n] == seat for n in state.topology.path_nodes[harbour.path]):
            if harbour.resource is None:
                ratio = min(ratio, 3)
            elif harbour.resource == resource:
                ratio = 2
    return ratio


def _check_really_legal(state: GameState, action: A.Action, game: Game) -> None:
    """An oracle written from docs/rules/base.md, independent of the engine's move generator:
    the action about to be applied to ``state`` obeys the rules."""
    topo, seat, phase = state.topology, state.active, state.phase
    owner, limits = state.node_owner, state.options.piece_limits
    if isinstance(action, A.BuildRoad):
        assert state.path_owner[action.path] == NO_SEAT
        assert not limits or len(state.roads[seat]) < state.rules.road_limit
        if phase is Phase.SETUP_ROAD:
            assert state.last_settlement in topo.path_nodes[action.path]
        else:
            assert phase in (Phase.MAIN, Phase.ROAD_BUILDING)
            assert any(
                owner[n] == seat
                or (
                    owner[n] == NO_SEAT
                    and any(state.path_owner[q] == seat for q in topo.node_paths[n])
                )
                for n in topo.path_nodes[action.path]
            ), "a road touches its owner's network, not through another's building"
    elif isinstance(action, A.BuildSettlement):
        node = action.node
        assert owner[node] == NO_SEAT
        assert all(owner[m] == NO_SEAT for m in topo.node_nodes[node]), "distance rule"
        assert not limits or len(state.settlements[seat]) < state.rules.settlement_limit
        if phase is Phase.MAIN and state.options.settlements_need_road:
            assert any(state.path_owner[q] == seat for q in topo.node_paths[node])
    elif isinstance(action, A.BuildCity):
        assert owner[action.node] == seat and state.node_level[action.node] == 1
        assert not limits or len(state.cities[seat]) < state.rules.city_limit
    elif isinstance(action, A.MoveRobber):
        assert action.hex != state.robber
        assert state.options.robber_to_desert or state.board.tokens[action.hex] != 0
        victims = {
            owner[n]
            for n in topo.hex_nodes[action.hex]
            if owner[n] not in (NO_SEAT, seat) and state.hand_size[owner[n]]
        }
        assert action.victim in victims if victims else action.victim == NO_SEAT
    elif isinstance(action, A.Discard):
        size = state.hand_size[action.seat]
        assert size > state.rules.discard_limit and sum(action.cards) == size // 2
    elif isinstance(action, A.MaritimeTrade):
        assert phase is Phase.MAIN
        assert state.bank[action.get] > 0 and not action.give[action.get]
        kinds = [r for r in range(5) if action.give[r]]
        if len(kinds) == 1:
            assert action.give[kinds[0]] == _best_ratio(state, seat, kinds[0])
        else:
            assert state.options.mixed_three_to_one and sum(action.give) == 3
            assert _best_ratio(state, seat, 0) <= 3
    elif type(action) in _CARD_OF:
        card = _CARD_OF[type(action)]
        assert game.last_card_turn.get(seat) != state.turn, "one development card per turn"
        assert state.dev_cards[seat][card] > state.new_dev_cards[seat][card], "bought earlier"
        assert phase in (Phase.ROLL, Phase.MAIN)
        if phase is Phase.ROLL and state.options.knight_only_before_roll:
            assert card is DevCard.KNIGHT
        game.last_card_turn[seat] = state.turn
    elif isinstance(action, A.OfferTrade | A.BuyDevelopmentCard):
        assert phase is Phase.MAIN


def _check_invariants(state: GameState, game: Game) -> None:
    rules = state.rules
    players = range(state.players)
    # resources
    for r in range(5):
        assert state.bank[r] >= 0
        assert state.bank[r] + sum(h[r] for h in state.hands) == rules.bank_per_resource
    for s in players:
        assert min(state.hands[s]) >= 0
        assert state.hand_size[s] == sum(state.hands[s])
    # development cards
    for c in range(5):
        held = sum(state.dev_cards[s][c] for s in players)
        assert state.deck[c] + held + game.played[c] == rules.development_deck[c]
    assert sum(rules.development_deck) == 25
    for s in players:
        assert state.dev_count[s] == sum(state.dev_cards[s])
        assert all(n <= d for n, d in zip(state.new_dev_cards[s], state.dev_cards[s], strict=True))
        assert state.knights[s] <= rules.development_deck[DevCard.KNIGHT]
    assert sum(state.knights) == game.played[DevCard.KNIGHT]
    # pieces and the board
    for s in players:
        if state.options.piece_limits:
            assert len(state.roads[s]) <= rules.road_limit
            assert len(state.settlements[s]) <= rules.settlement_limit
            assert len(state.cities[s]) <= rules.city_limit
        assert min(state.pieces_left(s)) >= 0
        assert sorted(state.roads[s]) == [p for p, o in enumerate(state.path_owner) if o == s]
        buildings = sorted(state.settlements[s] + state.cities[s])
        assert buildings == [n for n, o in enumerate(state.node_owner) if o == s]
        assert all(state.node_level[n] == 1 for n in state.settlements[s])
        assert all(state.node_level[n] == 2 for n in state.cities[s])
    owned = [n for n, o in enumerate(state.node_owner) if o >= 0]
    for n in owned:
        assert not any(state.node_owner[m] >= 0 for m in state.topology.node_nodes[n])
    # points and awards
    award = rules.award_points
    for s in players:
        expected = len(state.settlements[s]) + 2 * len(state.cities[s])
        expected += award * (state.longest_road_holder == s) + award * (
            state.largest_army_holder == s
        )
        assert state.public_vp[s] == expected + state.revealed_vp_cards[s]
        length = longest_road(state.topology, state.roads[s], s, state.node_owner)
        assert state.road_length[s] == length
    lengths, holder, minimum = state.road_length, state.longest_road_holder, state.longest_road_min
    leaders = [s for s in players if lengths[s] == max(lengths)]
    if holder >= 0:
        assert lengths[holder] >= minimum and lengths[holder] == max(lengths)
    else:
        assert not (len(leaders) == 1 and max(lengths) >= minimum)
    army = state.largest_army_holder
    if not state.options.largest_army:
        assert army == NO_SEAT
    elif army >= 0:
        assert state.knights[army] >= rules.largest_army_min
        assert state.knights[army] == max(state.knights)
    else:
        assert max(state.knights) < rules.largest_army_min


def _check_legality(state: GameState, rng: random.Random) -> None:
    for seat in state.acting_seats():
        legal = state.legal_actions(seat)
        for action in legal:
            state.check(action)
    for _ in range(3):
        probe = _random_probe(state, rng)
        try:
            state.check(probe)
        except IllegalActionError:
            continue
        assert probe in state.legal_actions(state.actor(probe)), probe


def play_game(seed: int, players: int, options_name: str, random_tiles: bool) -> Game:
    """Play one checked game from ``seed`` to the end, checking invariants after each action."""
    rng = random.Random(seed)
    board = random_board(rng) if random_tiles else beginner_board()
    game = Game(board, players, OPTIONS[options_name])
    state = GameState(board, players, game.options)
    probe_rng = random.Random(seed + 1)
    while not state.is_over:
        assert len(game.actions) < MAX_ACTIONS, "the game did not end"
        _check_legality(state, probe_rng)
        action = _choose(state, rng)
        _check_really_legal(state, action, game)
        state.play(action)
        game.actions.append(action)
        if isinstance(action, A.PlayKnight):
            game.played[DevCard.KNIGHT] += 1
        elif isinstance(action, A.PlayRoadBuilding):
            game.played[DevCard.ROAD_BUILDING] += 1
        elif isinstance(action, A.PlayYearOfPlenty):
            game.played[DevCard.YEAR_OF_PLENTY] += 1
        elif isinstance(action, A.PlayMonopoly):
            game.played[DevCard.MONOPOLY] += 1
        _check_invariants(state, game)
    winner = state.winner
    assert winner == state.active
    assert state.victory_points(winner) >= state.target
    assert state.public_vp[winner] >= state.target  # revealed cards are public now
    replayed = GameState.replay(board, players, game.actions, game.options)
    assert replayed.full_hash() == state.full_hash()
    return game


@settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    options_name=st.sampled_from(sorted(OPTIONS)),
    random_tiles=st.booleans(),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, options_name: str, random_tiles: bool
) -> None:
    """Random games keep the invariants listed in the module docstring and end with a winner."""
    play_game(seed, players, options_name, random_tiles)


def test_same_seed_same_game() -> None:
    """ARCHITECTURE.md principle 1: the same seed and the same actions give the same game, bit
    for bit; a two-player game plays to the end."""
    first = play_game(11, 2, "official", True)
    second = play_game(11, 2, "official", True)
    assert first.actions == second.actions
    a = GameState.replay(first.board, 2, first.actions, first.options)
    b = GameState.replay(second.board, 2, second.actions, second.options)
    assert a.full_hash() == b.full_hash() and a.public_hash() == b.public_hash()
    half = GameState.replay(first.board, 2, first.actions[: len(first.actions) // 2])
    assert half.full_hash() != a.full_hash()


def test_hash_tells_apart_states_that_differ_in_what_comes_next(table) -> None:
    """ARCHITECTURE.md principle 1 and «hexlan verify»: the state hash covers everything that
    decides the game from here; two steals from different victims (with equal hands) are
    different states (regression: the victim was missing from the hashed state)."""
    hashes = set()
    for victim in (1, 2):
        t = table(players=3)
        t.build(1, settlements=[13])
        t.build(2, settlements=[23])
        t.give(1, (1, 0, 0, 0, 0))
        t.give(2, (1, 0, 0, 0, 0))
        t.at_roll(0)
        t.roll(3, 4)
        t.play(A.MoveRobber(4, victim))
        hashes.add(t.state.full_hash())
    assert len(hashes) == 2
