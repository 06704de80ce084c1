"""Positions as text (engine/position.py, docs/POSITION.md): every game round-trips exactly.

For every game of the seeds, a seeded random game (as tests/test_game_protocol.py plays them) is
sampled at many points: the full position loads as a state with the same full and public hashes,
the same legal actions, the same caches, and the same text; from one sampled point the loaded
state plays on with the game's own actions to the end of the sample with the same hashes at every
step. The public and seat positions load as views with the game's public hash and, for the seat,
its legal actions. A malformed or tampered text is refused with a PositionError naming the fault.
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from hexlan.chance import SeededChance
from hexlan.engine import actions as A
from hexlan.engine.actions import Action
from hexlan.engine.board import beginner_board
from hexlan.engine.core import NO_SEAT, EngineError
from hexlan.engine.game import CHANCE_SEAT, sample_outcome
from hexlan.engine.info import InformationState
from hexlan.engine.maps import load_map
from hexlan.engine.position import (
    CORE_FIELDS,
    DERIVED_FIELDS,
    HIDDEN_FIELDS,
    PositionError,
    from_position,
    replace_fields,
    to_position,
)
from hexlan.engine.ruleset import CATAN_GAMES, load_ruleset
from hexlan.engine.state import GameState
from hexlan.engine.variants.cities_knights.position import PROGRESS_FIELDS, PROGRESS_HIDDEN
from hexlan.engine.variants.cities_knights.progress import Progress
from hexlan.engine.variants.pirate_islands import FLEET_FIELDS, FleetState
from hexlan.engine.variants.seafarers import SEA_FIELDS, Seafarers, SeaState

STEPS = 360
"""Steps of each game's random play."""
SAMPLE_EVERY = 23
"""Steps between two sampled positions."""
PLAY_ON_FROM = 140
"""The step from which a loaded position plays on to the end of the sample."""


def _game(name: str, seed: int = 7) -> GameState:
    rules = load_ruleset(name)
    board = SeededChance(seed).board("random", board_map=load_map(rules.board))
    return GameState(board, rules.min_players, rules=rules)


def _next(game: GameState, rng: random.Random) -> Action:
    if game.current_player() == CHANCE_SEAT:
        return sample_outcome(game, rng)
    return rng.choice(game.legal_actions(rng.choice(game.acting_seats())))


def _same_state(loaded: GameState, game: GameState) -> None:
    assert loaded.full_hash() == game.full_hash()
    assert loaded.public_hash() == game.public_hash()
    assert loaded.acting_seats() == game.acting_seats()
    for seat in game.acting_seats():
        assert loaded.legal_actions(seat) == game.legal_actions(seat)
    assert loaded.chance_outcomes() == game.chance_outcomes()
    assert loaded.hex_seats == game.hex_seats
    assert [sorted(i) for i in loaded.income] == [sorted(i) for i in game.income]
    assert loaded.board == game.board


def _check_views(game: GameState, seat: int) -> None:
    public = to_position(game, public=True)
    spectator = from_position(public)
    assert isinstance(spectator, InformationState) and spectator.seat == NO_SEAT
    assert spectator.public_hash() == game.public_hash()
    assert to_position(spectator, public=True) == public
    text = to_position(game, seat=seat)
    view = from_position(text)
    assert isinstance(view, InformationState) and view.seat == seat
    assert view.public_hash() == game.public_hash()
    assert to_position(view, seat=seat) == text
    assert to_position(view, public=True) == public
    if seat in game.acting_seats():
        assert view.legal_actions(seat) == game.legal_actions(seat)


@pytest.mark.parametrize("name", CATAN_GAMES)
def test_every_game_round_trips(name: str) -> None:
    game = _game(name)
    rng = random.Random(f"position {name}")
    actions: list[Action] = []
    hashes: list[str] = []
    start: tuple[str, int] | None = None
    for count in range(STEPS):
        if game.is_over:
            break
        if count % SAMPLE_EVERY == 0:
            text = to_position(game)
            loaded = from_position(text)
            _same_state(loaded, game)
            assert to_position(loaded) == text
            _check_views(game, count % game.players)
        if count == PLAY_ON_FROM:
            start = (to_position(game), count)
        action = _next(game, rng)
        game.play(action)
        actions.append(action)
        if start is not None:
            hashes.append(game.full_hash())
    assert start is not None, f"the {name} sample ended before step {PLAY_ON_FROM}"
    text, first = start
    loaded = from_position(text)
    for action, expected in zip(actions[first:], hashes, strict=True):
        loaded.play(action)
        assert loaded.full_hash() == expected
    _same_state(loaded, game)


def test_the_fields_cover_every_attribute() -> None:
    """A new attribute of GameState or of a game's progress must be given a place in the
    position (or named derived), or this fails."""
    for name in ("base", "seafarers-pirate-islands", "cities-and-knights"):
        state = _game(name)
        assert set(vars(state)) == set(CORE_FIELDS) | set(HIDDEN_FIELDS) | DERIVED_FIELDS
    assert {f.name for f in fields(SeaState)} == set(SEA_FIELDS)
    assert {f.name for f in fields(FleetState)} == set(FLEET_FIELDS)
    top = {n.split(".")[0] for n in (*PROGRESS_FIELDS, *PROGRESS_HIDDEN)}
    assert {f.name for f in fields(Progress)} == top


@pytest.mark.parametrize("name", CATAN_GAMES)
def test_a_games_progress_fields_come_from_its_rules(name: str) -> None:
    """Each game's rules (``Variant.position_fields``) name every field of the progress it
    keeps, and of each object in it that a dotted name reaches (Cities & Knights' ``board``);
    a game keeping no progress names none."""
    state = _game(name)
    progress, variant = state.variant_state, state.variant
    game = None if variant is None else variant.position_fields
    if progress is None:
        assert game is None
        return
    assert game is not None
    names = [*game.public, *game.hidden]
    assert {f.name for f in fields(progress)} == {n.split(".")[0] for n in names}
    for part in {n.split(".")[0] for n in names if "." in n}:
        inner = {n.split(".", 1)[1] for n in names if n.startswith(f"{part}.")}
        assert {f.name for f in fields(getattr(progress, part))} == inner


def test_a_progress_without_fields_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game keeping progress whose rules give no position fields has no position."""
    state = _game("seafarers-fog-island")
    monkeypatch.setattr(Seafarers, "position_fields", None)
    with pytest.raises(PositionError, match="no position format for a game progress of SeaState"):
        to_position(state)


def test_a_revealed_fog_hex_off_the_board_is_refused() -> None:
    """Seafarers' board in play is rebuilt from its own field ``variant.fog_revealed``."""
    text = to_position(_game("seafarers-fog-island"))
    with pytest.raises(PositionError, match=r"variant\.fog_revealed: no hex 999"):
        from_position(replace_fields(text, {"variant.fog_revealed": [[999, 1, 6]]}))


def test_cities_and_knights_views_hold_its_progress_cards() -> None:
    """A Cities & Knights seat position carries the game's own view fields (its rules' write
    and read them): each seat's cards held per track, the seat's own cards, those unseen; a
    bad one is refused naming its line."""
    game = _game("cities-and-knights")
    progress = game.variant_state
    assert isinstance(progress, Progress)
    rng = random.Random("progress cards")
    while not any(progress.cards) and not game.is_over:
        game.play(_next(game, rng))
        progress = game.variant_state
        assert isinstance(progress, Progress)
    seat = next(s for s, cards in enumerate(progress.cards) if cards)
    text = to_position(game, seat=seat)
    lines = dict(line.split(" ", 1) for line in text.splitlines()[1:])
    assert {"variant.held", "own.progress_cards", "unseen.progress"} <= set(lines)
    view = from_position(text)
    assert isinstance(view.variant_state, Progress)
    assert sorted(view.variant_state.cards[seat]) == sorted(progress.cards[seat])
    assert view.variant_state.unknown[seat] == [0, 0, 0]
    held = [[progress.held(s, t) for t in range(3)] for s in range(game.players)]
    for s in range(game.players):
        if s != seat:
            assert view.variant_state.cards[s] == [] and view.variant_state.unknown[s] == held[s]
    bad = replace_fields(text, {"variant.held": [[0, 0]] * game.players})
    line = next(n for n, row in enumerate(bad.splitlines(), 1) if row.startswith("variant.held"))
    with pytest.raises(PositionError, match=rf"line {line} \(variant\.held\): expected 3 tracks"):
        from_position(bad)


def test_the_text_is_sorted_lines_under_a_header() -> None:
    text = to_position(GameState(beginner_board(), 3))
    header, *lines = text.splitlines()
    assert header == "hexlan-position 1 base full"
    names = [line.split(" ", 1)[0] for line in lines]
    assert names == sorted(names) and len(set(names)) == len(names)
    assert 'phase "start_player"' in lines


def test_a_full_position_of_a_view_is_refused() -> None:
    view = InformationState(beginner_board(), 3, seat=1)
    with pytest.raises(PositionError, match="no full position"):
        to_position(view)
    with pytest.raises(PositionError, match="does not know seat 0"):
        to_position(view, seat=0)
    with pytest.raises(PositionError, match="not one of the 3 seats"):
        to_position(view, seat=5)


def _played(moves: int = 60) -> GameState:
    game = GameState(beginner_board(), 3)
    rng = random.Random(3)
    for _ in range(moves):
        game.play(_next(game, rng))
    return game


def _replace(text: str, name: str, value: str) -> str:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.split(" ", 1)[0] == name)
    lines[index] = f"{name} {value}"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("hexlan-position", "hexlan-pos", 1), "line 1: not a position header"),
        (lambda t: t.replace(" 1 base", " 9 base", 1), "format version '9'"),
        (lambda t: t.replace(" base full", " chess full", 1), "no game named 'chess'"),
        (lambda t: t.replace(" base full", " base partial", 1), "the form is full, public"),
        (lambda t: "", "an empty position"),
        (
            lambda t: _replace(t, "hidden.hands", "[[1,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]"),
            "hidden.hands",
        ),
        (lambda t: _replace(t, "bank", "[19,19,-1,19,19]"), "a count cannot be negative: -1"),
        (lambda t: _replace(t, "bank", "[19,19,19,19,18]"), "bank: the bank and the hands hold"),
        (lambda t: _replace(t, "hand_size", "[0,0,9]"), "hand_size: seat 0 holds"),
        (lambda t: _replace(t, "turn", "2.5"), "no floats in a position"),
        (lambda t: _replace(t, "active", "7"), "7 is no seat of 3"),
        (lambda t: _replace(t, "phase", '"checkmate"'), 'no phase "checkmate"'),
        (lambda t: _replace(t, "dice", "[7,1]"), "dice are 1 .. 6"),
        (lambda t: _replace(t, "players", "9"), "the base game takes 2 to 4 players, not 9"),
        (lambda t: _replace(t, "options", '{"castling":true}'), "unknown game options: castling"),
        (lambda t: _replace(t, "turn", "{oops"), "turn\\): not a JSON value"),
        (lambda t: t + "zz_extra 1\n", "unknown field zz_extra"),
        (
            lambda t: _replace(t, "winner", "-1").replace("\nwinner -1", ""),
            "field winner is missing",
        ),
        (lambda t: t.replace("\nactive ", "\nzzz 1\nactive ", 1), "out of order"),
    ],
)
def test_a_bad_text_is_refused_by_name(change: object, message: str) -> None:
    text = to_position(_played())
    assert callable(change)
    with pytest.raises(PositionError, match=message) as caught:
        from_position(change(text))
    assert isinstance(caught.value, EngineError)
    assert "\n" not in str(caught.value)


def test_the_hand_of_the_wrong_length_names_the_line() -> None:
    text = to_position(_played())
    bad = _replace(text, "hidden.hands", "[[1,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]")
    line = next(n for n, row in enumerate(bad.splitlines(), 1) if row.startswith("hidden.hands"))
    with pytest.raises(PositionError, match=rf"line {line} \(hidden\.hands\): expected 5 counts"):
        from_position(bad)


def test_a_public_position_refuses_hands_beyond_the_cards_out() -> None:
    text = to_position(_played(), public=True)
    with pytest.raises(
        PositionError, match="seat 0 holds 40 cards, more than the 9 out of the bank"
    ):
        from_position(_replace(text, "hand_size", "[40,0,0]"))


def test_a_posed_position_plays() -> None:
    """A position posed by hand (the docs' example shape): seat 0 to roll with a hand."""
    game = _played(40)
    while game.phase.title != "roll":
        game.play(_next(game, random.Random(0)))
    text = to_position(game)
    loaded = from_position(text)
    loaded.play(A.RollDice())
    assert loaded.phase.title == "dice"
