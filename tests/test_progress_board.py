"""Cities & Knights' board progress cards (issue 13; the official card texts;
docs/rules/cities-and-knights.md): the Alchemist's chosen dice, the Bishop's robber and steals,
the Deserter's two phases, the merchant piece and the Inventor's swapped tokens, each with its
rejections in words."""

from __future__ import annotations

import random
import re

from test_cities_knights import (
    BOARD,
    RULES,
    TRADE_GATE,
    give,
    new_state,
    progress,
    rejected,
    roll,
    step,
    to_main,
    with_views,
)
from test_progress_cards import card, holding, knight_at

from hexlan.engine import actions as A
from hexlan.engine.bots import HeuristicBot
from hexlan.engine.core import Phase, Resource
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights import knights
from hexlan.engine.variants.cities_knights.actions import (
    SCIENCE,
    DesertKnight,
    EventDie,
    KnightsPhase,
    PlaceDeserter,
    PlayProgress,
)
from hexlan.engine.variants.cities_knights.progress import Knight
from hexlan.engine.variants.cities_knights.progress_board import (
    alchemist_choice,
    inventor_choice,
    swappable,
)
from hexlan.net.narrate import Narrator

SCIENCE_GATE = 6
"""The event die's green face."""


def before_roll(name: str, seat: int = 0) -> tuple[GameState, int, int]:
    """A game at the start of ``seat``'s first turn (its roll due), the seat holding
    ``name``; the card's ``(track, face)``."""
    state = new_state()
    assert state.active == seat and state.phase is Phase.ROLL
    track, face = card(name)
    progress(state).cards[seat].append((track, face))
    progress(state).pool[track][face] -= 1
    return state, track, face


# ------------------------------------------------------------------ the Alchemist


def test_the_alchemist_chooses_both_dice_before_the_roll_and_the_event_die_follows() -> None:
    state, track, face = before_roll("alchemist")
    plays = [a for a in state.legal_actions() if isinstance(a, PlayProgress)]
    assert len(plays) == 36 and A.ROLL in state.legal_actions()
    progress(state).levels[1][SCIENCE] = 2  # draws on a red 1-3
    progress(state).levels[2][SCIENCE] = 1  # draws on a red 1-2
    state.play(PlayProgress(track, face, alchemist_choice(3, 5)))
    assert state.dice == A.Dice(3, 5) and state.phase is KnightsPhase.EVENT
    node = state.chance_node()
    assert node is not None and node.event == "event"  # the event die is still rolled
    state.play(EventDie(SCIENCE_GATE))
    assert progress(state).draws == [(1, SCIENCE)]  # the chosen red die decides the draws
    assert progress(state).held(0) == 0


def test_the_alchemist_is_refused_after_the_roll_and_with_dice_that_do_not_exist() -> None:
    state, track, face = before_roll("alchemist")
    rejected(state, PlayProgress(track, face, 70), "red\\*10\\+yellow")
    roll(state, 1, 2)
    rejected(state, PlayProgress(track, face, 34), "alchemist is played before the roll")
    state, _ = holding("smith")
    state.play(A.END_TURN)
    smith = card("smith")
    progress(state).cards[1].append(smith)
    rejected(state, PlayProgress(*smith), "after its roll \\(the alchemist before it")


def test_the_alchemists_dice_produce_as_a_roll_would() -> None:
    state, track, face = before_roll("alchemist")
    rolled = new_state()
    roll(rolled, 4, 4)
    state.play(PlayProgress(track, face, alchemist_choice(4, 4)))
    state.play(EventDie(TRADE_GATE))
    assert state.hands == rolled.hands and state.phase is Phase.MAIN


# ------------------------------------------------------------------ the Bishop


def crowded_hex(state: GameState, thief: int) -> tuple[int, list[int]]:
    """A land hex beside buildings of two opponents of ``thief`` and none of its own, with the
    robber elsewhere: the hex and those seats (each handed a card)."""
    topology = state.topology
    for h in range(topology.hex_count):
        seats = [s for s in range(state.players) if state.hex_seats[h] >> s & 1]
        if len(seats) >= 2 and thief not in seats and h != state.robber:
            for s in seats:
                give(state, s, lumber=1)
            return h, seats
    raise AssertionError("no hex beside two opponents")


def test_the_bishop_moves_the_robber_and_robs_each_seat_beside_it() -> None:
    state, play = holding("bishop")
    rejected(state, play, "once the barbarians have first attacked")
    progress(state).arrived = True
    hex_id, seats = crowded_hex(state, 0)
    bishop = PlayProgress(play.track, play.face, hex_id)
    assert bishop in state.legal_actions()
    state.play(bishop)
    assert state.robber == hex_id
    robbed = []
    while state.phase is Phase.STEAL:
        robbed.append(state.victim)
        node = state.chance_node()
        assert node is not None and node.seats == (0, state.victim)
        state.play(state.chance_outcomes()[0][0])
    assert robbed == sorted(seats) and state.phase is Phase.MAIN and state.active == 0
    assert state.hand_size[0] == len(seats) and all(state.hand_size[s] == 0 for s in seats)


def test_the_bishop_passes_over_a_seat_with_no_card_and_may_rob_nobody() -> None:
    state, play = holding("bishop")
    progress(state).arrived = True
    hex_id, seats = crowded_hex(state, 0)
    state.pay_bank(seats[0], tuple(state.hands[seats[0]]))  # nothing to take
    state.play(PlayProgress(play.track, play.face, hex_id))
    robbed = []
    while state.phase is Phase.STEAL:
        robbed.append(state.victim)
        state.play(state.chance_outcomes()[0][0])
    assert robbed == seats[1:] and state.phase is Phase.MAIN
    assert state.hand_size[0] == len(seats) - 1
    rejected(state, PlayProgress(play.track, play.face, state.robber), "holds no bishop")


# ------------------------------------------------------------------ the Deserter


def test_the_deserter_makes_an_opponent_remove_a_knight_then_places_its_like() -> None:
    state, play = holding("deserter")
    assert not any(isinstance(a, PlayProgress) for a in state.legal_actions())  # no target
    basic = knight_at(state, 1)
    strong = knight_at(state, 1, level=2, active=True)
    state.play(PlayProgress(play.track, play.face, 1))
    assert state.phase is KnightsPhase.DESERTER and state.current_player() == 1
    assert state.legal_actions(1) == [DesertKnight(1, basic), DesertKnight(1, strong)]
    rejected(state, DesertKnight(2, basic), "seat 2 has no knight to remove")
    state.play(DesertKnight(1, strong))  # its choice
    assert strong not in progress(state).knights
    assert state.phase is KnightsPhase.DESERTER_PLACE and state.current_player() == 0
    spots = knights.build_spots(state, 0)
    assert state.legal_actions() == [*(PlaceDeserter(n) for n in spots), PlaceDeserter(-1)]
    state.play(PlaceDeserter(spots[0]))
    assert progress(state).knights[spots[0]] == Knight(0, 2, active=True)
    assert spots[0] in progress(state).fresh  # as activated this turn: it may not act yet
    assert state.phase is Phase.MAIN and sum(state.hands[0]) == 0


def test_the_deserters_player_takes_a_weaker_piece_when_none_is_free_or_declines() -> None:
    state, play = holding("deserter")
    mighty = knight_at(state, 1, level=3)
    spots = set(knights.build_spots(state, 0))
    away = [
        n
        for n in range(state.topology.land_node_count)
        if state.node_owner[n] < 0 and n not in spots
    ]
    for node in away[:2]:  # both of seat 0's mighty pieces on the board, away from its roads
        knights.place(state, progress(state), node, Knight(0, 3))
    state.play(PlayProgress(play.track, play.face, 1))
    state.play(DesertKnight(1, mighty))
    assert progress(state).board.deserted == Knight(0, 2, active=False)
    state.play(PlaceDeserter(-1))
    assert state.phase is Phase.MAIN and len(progress(state).knights_of(0)) == 2


# ------------------------------------------------------------------ the Merchant


def test_the_merchant_trades_its_hex_two_for_one_and_holds_a_point_until_taken() -> None:
    state, play = holding("merchant")
    hexes = [a.choice for a in state.legal_actions() if isinstance(a, PlayProgress)]
    mine = {h for n in state.settlements[0] + state.cities[0] for h in state.topology.node_hexes[n]}
    assert hexes and set(hexes) <= mine
    hex_id = next(h for h in hexes if state.ratios[0][state.board.terrains[h].resource or 0] > 2)
    resource = state.board.terrains[hex_id].resource
    assert resource is not None
    ratio = state.ratios[0][resource]
    vp = state.victory_points(0)
    state.play(PlayProgress(play.track, play.face, hex_id))
    assert state.victory_points(0) == vp + 1 and state.ratios[0][resource] == 2
    hand = [0] * state.kinds
    hand[resource] = 2
    give(state, 0, **{resource.name.lower(): 2})
    get = Resource.ORE if resource is not Resource.ORE else Resource.GRAIN
    state.play(A.MaritimeTrade(tuple(hand), get))
    assert state.hands[0][get] == 1
    state.play(A.END_TURN)  # seat 1 takes the merchant away
    while not (state.active == 1 and state.phase is Phase.MAIN):
        state.play(state.legal_actions()[0] if state.phase is not Phase.ROLL else A.ROLL)
        if state.phase is Phase.DICE:
            state.play(A.Dice(1, 2))
            state.play(EventDie(TRADE_GATE))
    progress(state).cards[1].append((play.track, play.face))
    theirs = next(a for a in state.legal_actions() if isinstance(a, PlayProgress))
    state.play(theirs)
    assert progress(state).board.merchant_seat == 1
    assert state.victory_points(0) == vp and state.ratios[0][resource] == ratio


def test_the_merchant_goes_beside_the_seats_own_buildings_only() -> None:
    state, play = holding("merchant")
    hexes = {a.choice for a in state.legal_actions() if isinstance(a, PlayProgress)}
    elsewhere = next(
        h for h, t in enumerate(state.board.terrains) if t.resource is not None and h not in hexes
    )
    rejected(state, PlayProgress(play.track, play.face, elsewhere), "beside one of the seat's")


# ------------------------------------------------------------------ the Inventor


def test_the_inventor_swaps_two_tokens_and_production_follows_them() -> None:
    state, play = holding("inventor")
    tokens = state.board.tokens
    # a hex beside a building of seat 1, swapped with one of another number nobody holds
    first = next(h for h in swappable(state) if state.hex_seats[h] >> 1 & 1)
    second = next(
        h
        for h in swappable(state)
        if not state.hex_seats[h] and tokens[h] != tokens[first] and h != state.robber
    )
    old, new = tokens[first], tokens[second]
    state.play(PlayProgress(play.track, play.face, inventor_choice(first, second)))
    assert state.board.tokens[first] == new and state.board.tokens[second] == old
    assert progress(state).board.swaps == [(min(first, second), max(first, second))]
    state.play(A.END_TURN)
    for s in range(4):
        state.pay_bank(s, tuple(state.hands[s]))
    roll(state, new // 2, new - new // 2)  # seat 1 rolls the number its hex now bears
    resource = state.board.terrains[first].resource
    assert resource is not None and state.hands[1][resource] >= 1


def test_the_inventor_never_moves_a_two_twelve_six_or_eight() -> None:
    state, play = holding("inventor")
    tokens = state.board.tokens
    six = tokens.index(6)
    other = swappable(state)[0]
    choice = inventor_choice(six, other)
    assert choice not in {a.choice for a in state.legal_actions() if isinstance(a, PlayProgress)}
    rejected(state, PlayProgress(play.track, play.face, choice), "may not move a 2, 12, 6 or 8")


def test_every_view_follows_the_inventors_swap_and_the_merchant() -> None:
    state, views = with_views()
    inventor, merchant = card("inventor"), card("merchant")
    for game in (state, views[0]):
        progress(game).cards[0] += [inventor, merchant]
        for track, face in (inventor, merchant):
            progress(game).pool[track][face] -= 1
    for game in views[1:]:
        progress(game).unknown[0][inventor[0]] += 1
        progress(game).unknown[0][merchant[0]] += 1
    step(state, views, A.ROLL)
    step(state, views, A.Dice(1, 2))
    step(state, views, EventDie(TRADE_GATE))
    plays = [a for a in state.legal_actions() if isinstance(a, PlayProgress)]
    step(state, views, next(a for a in plays if (a.track, a.face) == inventor))
    step(state, views, next(a for a in plays if (a.track, a.face) == merchant))
    assert all(v.board.tokens == state.board.tokens for v in views)
    assert all(v.ratios[0] == state.ratios[0] for v in views)
    assert progress(views[1]).unknown[0] == [0, 0, 0]  # both shown as played


def test_the_bot_remembers_its_turn_across_the_inventors_new_board_and_forgets_it_in_a_new_game() -> (
    None
):
    """The heuristic bot does not repeat, in one turn, an offer the table turned down: the
    Inventor, which lays a new board mid-turn, does not make it forget; a new game does."""
    bot = HeuristicBot(random.Random(0))

    def turn_of_seat_0(state: GameState) -> A.Action:
        """Seat 0 in its main phase, one card short of a city; the bot's first action."""
        to_main(state, 0)
        give(state, 0, lumber=3, grain=2, ore=2)
        for seat in (1, 2, 3):
            give(state, seat, ore=1, grain=1, wool=1, lumber=1, brick=1)
        return bot.choose(state, 0)

    state = new_state()
    offer = turn_of_seat_0(state)
    assert isinstance(offer, A.OfferTrade)
    state.play(offer)
    for seat in (1, 2, 3):
        state.play(A.AnswerTrade(seat, False))
    track, face = card("inventor")
    progress(state).cards[0].append((track, face))
    progress(state).pool[track][face] -= 1
    board = state.board
    first, *others = swappable(state)
    second = next(h for h in others if board.tokens[h] != board.tokens[first])
    state.play(PlayProgress(track, face, inventor_choice(first, second)))
    assert state.board is not board and state.phase is Phase.MAIN
    rest = []
    while not rest or rest[-1] != A.END_TURN:
        rest.append(bot.choose(state, 0))
        state.play(rest[-1])
    assert offer not in rest and any(isinstance(a, A.BuildCity) for a in rest)

    state = GameState(BOARD, 4, rules=RULES)  # a new game, where the bot is seat 0 again
    state.play(A.StartPlayer(0))
    assert bot.choose(state, 0) in state.legal_actions()  # its first decision: a set-up one
    while state.phase is not Phase.ROLL:
        state.play(state.legal_actions()[0])
    for seat in range(4):
        state.pay_bank(seat, tuple(state.hands[seat]))
    assert turn_of_seat_0(state) == offer


# ------------------------------------------------------------------ in words


def test_each_board_card_is_told_in_words() -> None:
    """Seat 0's narrator tells the five cards, the Bishop's steals and the Deserter's steps."""
    state = GameState(BOARD, 4, rules=RULES)
    narrator = Narrator(BOARD, ["You", "b", "c", "d"], 0, rules=RULES)
    told: list[str] = []

    def tell(action: A.Action) -> None:
        observed = state.observation(action, 0)
        state.play(action)
        told.append(narrator.narrate(observed).text)

    tell(A.StartPlayer(0))
    while state.phase is not Phase.ROLL:
        tell(state.legal_actions()[0])
    names = ("alchemist", "bishop", "deserter", "merchant", "inventor")
    for game in (state, narrator.state):
        for name in names:
            track, face = card(name)
            progress(game).cards[0].append((track, face))
            progress(game).pool[track][face] -= 1
        progress(game).arrived = True
    tell(PlayProgress(*card("alchemist"), alchemist_choice(2, 3)))
    tell(EventDie(TRADE_GATE))
    knight = knights.build_spots(state, 1)[0]
    for game in (state, narrator.state):
        knights.place(game, progress(game), knight, Knight(1, 2, active=True))
    plays = {(a.track, a.face): a for a in state.legal_actions() if isinstance(a, PlayProgress)}
    for name in ("merchant", "inventor", "deserter", "bishop"):
        tell(plays[card(name)])
        while state.phase is not Phase.MAIN:
            tell(state.chance_outcomes()[0][0] if state.chance_node() else state.legal_actions()[0])
    text = "\n".join(told)
    assert "You played the progress card alchemist: red 2 and yellow 3 chosen" in text
    assert re.search(r"You played the progress card merchant: the merchant on \w+: \w+ 2:1", text)
    assert re.search(r"inventor: number tokens swapped, now \w+ and \w+", text)
    assert "deserter: b must remove a knight" in text
    assert "b removed a strong knight at " in text
    assert re.search(r"You placed an active strong knight at \S+ \(the Deserter\)", text)
    assert "bishop: the robber to " in text
    assert narrator.state.public_hash() == state.public_hash()
