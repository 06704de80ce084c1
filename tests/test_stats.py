"""Fairness statistics (net/stats.py) and `hexlan verify --stats`: the chi-square tail against
table values and closed forms, distributions on hand-made samples, and the dice of real game logs
(two seeded 2-seat bot games played through the real sessions) counted once per game."""

from __future__ import annotations

import io
import itertools
import json
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bot_games import each_log_replayed_once, play_to_end, write_log
from click.testing import CliRunner

from hexlan.cli import main as cli
from hexlan.engine import actions as A
from hexlan.engine.core import DevCard
from hexlan.engine.ruleset import load_ruleset
from hexlan.net.effects import Applied
from hexlan.net.stats import (
    DICE_TOTALS,
    Distribution,
    chi_square_sf,
    dice_distribution,
    draw_distribution,
)
from hexlan.net.verify import (
    EXIT_UNFINISHED,
    EXIT_UNREADABLE,
    EXIT_VALID,
    LogReport,
    VerifyReport,
    main,
    stats_report,
    verify_logs,
)

BASE_DECK = load_ruleset().development_deck

# ---------------------------------------------------------------------------- chi_square_sf


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (0.455, 1, 0.50),
        (2.706, 1, 0.10),
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (10.828, 1, 0.001),
        (5.991, 2, 0.05),
        (9.210, 2, 0.01),
        (7.815, 3, 0.05),
        (11.345, 3, 0.01),
        (9.488, 4, 0.05),
        (13.277, 4, 0.01),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (9.342, 10, 0.50),
        (18.307, 10, 0.05),
        (23.209, 10, 0.01),
        (24.725, 11, 0.01),
        (31.410, 20, 0.05),
        (37.566, 20, 0.01),
        (124.342, 100, 0.05),
    ],
)
def test_chi_square_sf_matches_table_values(statistic: float, dof: int, p: float) -> None:
    """The critical values of printed chi-square tables (three decimals)."""
    assert chi_square_sf(statistic, dof) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0, 40.0, 200.0])
def test_chi_square_sf_matches_closed_forms(x: float) -> None:
    y = x / 2
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(y)), rel=1e-12)
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-y), rel=1e-12)
    odd3 = math.erfc(math.sqrt(y)) + 2 * math.sqrt(y / math.pi) * math.exp(-y)
    assert chi_square_sf(x, 3) == pytest.approx(odd3, rel=1e-12)
    assert chi_square_sf(x, 4) == pytest.approx(math.exp(-y) * (1 + y), rel=1e-12)


@pytest.mark.parametrize("dof", [1, 6, 7, 12])
def test_the_tail_integrates_to_the_mean(dof: int) -> None:
    """∫₀^∞ P(X > x) dx = E[X] = dof (trapezoid rule on [0, 200]; the rest is negligible)."""
    step = 0.01
    values = [chi_square_sf(i * step, dof) for i in range(20_001)]
    area = step * (math.fsum(values) - (values[0] + values[-1]) / 2)
    assert area == pytest.approx(dof, rel=2e-3)


@pytest.mark.parametrize(("statistic", "dof"), [(1200.0, 1000), (1200.0, 1001), (480.0, 500)])
def test_many_degrees_of_freedom_match_wilson_hilferty(statistic: float, dof: int) -> None:
    """Where y^i / i! alone would overflow: the cube root of chi-square / dof is close to
    normal for large dof (Wilson and Hilferty, 1931)."""
    spread = 2 / (9 * dof)
    z = ((statistic / dof) ** (1 / 3) - (1 - spread)) / math.sqrt(spread)
    assert chi_square_sf(statistic, dof) == pytest.approx(math.erfc(z / math.sqrt(2)) / 2, rel=0.01)


def test_chi_square_sf_is_monotone() -> None:
    for dof in (1, 2, 3, 10, 11, 50):
        tail = [chi_square_sf(x / 4, dof) for x in range(400)]
        assert all(0.0 <= p <= 1.0 for p in tail)
        assert all(a >= b for a, b in itertools.pairwise(tail))
        assert tail[0] == 1.0 and tail[-1] < tail[1]
    for x in (0.5, 5.0, 25.0):
        rising = [chi_square_sf(x, dof) for dof in range(1, 40)]
        assert all(a <= b for a, b in itertools.pairwise(rising))
        assert rising[0] < rising[-1]


def test_chi_square_sf_edges() -> None:
    for dof in range(1, 31):
        assert chi_square_sf(0.0, dof) == 1.0
        assert chi_square_sf(math.inf, dof) == 0.0
        assert chi_square_sf(1e6, dof) == 0.0
    assert 0.999 < chi_square_sf(1e-9, 1) < 1.0
    assert chi_square_sf(1400.0, 3) > 0.0  # about 1e-302: its terms are taken through logs
    for dof, statistic in ((0, 1.0), (-1, 1.0), (1, -0.5), (2, math.nan)):
        with pytest.raises(ValueError):
            chi_square_sf(statistic, dof)


# ---------------------------------------------------------------------------- distributions


def fair_totals(rolls_per_way: int) -> list[int]:
    """A sample in which every one of the 36 outcomes occurs ``rolls_per_way`` times."""
    return [a + b for a in range(1, 7) for b in range(1, 7)] * rolls_per_way


def test_a_perfectly_expected_sample_has_statistic_0() -> None:
    dice = dice_distribution(fair_totals(5))
    assert dice.categories == tuple(str(t) for t in DICE_TOTALS)
    assert dice.total == 180
    assert dice.observed == dice.expected == (5, 10, 15, 20, 25, 30, 25, 20, 15, 10, 5)
    assert (dice.statistic, dice.dof, dice.p_value) == (0.0, 10, 1.0)
    assert not dice.approximate
    assert dice.lines()[-1] == "  chi-square 0.00 on 10 degrees of freedom, p = 1"


def test_a_loaded_die_gives_a_tiny_p() -> None:
    """One die always shows 6: totals 7 .. 12, equally often."""
    dice = dice_distribution([6 + b for b in range(1, 7)] * 60)
    expected = [360 * (6 - abs(t - 7)) / 36 for t in DICE_TOTALS]
    observed = [0] * 5 + [60] * 6
    assert dice.observed == tuple(observed)
    assert dice.statistic == pytest.approx(
        sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    )
    assert dice.p_value is not None and dice.p_value < 1e-50


def test_a_hand_made_distribution_in_words_and_json() -> None:
    coin = Distribution("coin", ("heads", "tails"), (60, 40), (50.0, 50.0))
    assert (coin.total, coin.statistic, coin.dof) == (100, 4.0, 1)
    assert coin.p_value == pytest.approx(math.erfc(math.sqrt(2)))
    assert coin.lines() == [
        "coin (n = 100):",
        "  category  observed  expected",
        "  heads           60     50.00",
        "  tails           40     50.00",
        "  chi-square 4.00 on 1 degree of freedom, p = 0.0455",
    ]
    assert json.loads(json.dumps(coin.to_json())) == {
        "name": "coin",
        "categories": ["heads", "tails"],
        "observed": [60, 40],
        "expected": [50.0, 50.0],
        "total": 100,
        "statistic": 4.0,
        "dof": 1,
        "p_value": coin.p_value,
        "approximate": False,
    }


def test_small_and_empty_samples() -> None:
    small = dice_distribution([7, 7, 8])
    assert small.approximate
    assert (
        small.lines()[-1] == "  note: some expected counts are below 5; the p-value is approximate"
    )
    empty = dice_distribution([])
    assert (empty.total, empty.dof, empty.p_value, empty.statistic) == (0, 0, None, 0.0)
    assert empty.lines() == ["dice totals (n = 0):", "  nothing to test"]
    assert empty.to_json()["p_value"] is None


def test_distributions_refuse_what_cannot_be() -> None:
    with pytest.raises(ValueError, match="cannot total 13"):
        dice_distribution([7, 13])
    with pytest.raises(ValueError, match="categories"):
        Distribution("x", ("a", "b"), (1,), (1.0,))
    with pytest.raises(ValueError, match="sum to"):
        Distribution("x", ("a", "b"), (1, 1), (1.0, 2.0))
    with pytest.raises(ValueError, match="negative"):
        Distribution("x", ("a", "b"), (-1, 1), (0.0, 0.0))
    with pytest.raises(ValueError, match="cannot occur"):
        Distribution("x", ("a", "b"), (1, 1), (2.0, 0.0))


def test_draws_against_the_base_deck() -> None:
    assert sum(BASE_DECK) == 25
    faces = (
        [DevCard.KNIGHT] * 10
        + [DevCard.VICTORY_POINT] * 5
        + [DevCard.ROAD_BUILDING] * 5
        + [DevCard.YEAR_OF_PLENTY] * 3
        + [DevCard.MONOPOLY] * 2
    )
    draws = draw_distribution(faces, BASE_DECK)
    assert draws.categories == (
        "Knight",
        "Victory Point",
        "Road Building",
        "Year of Plenty",
        "Monopoly",
    )
    assert draws.observed == (10, 5, 5, 3, 2)
    assert draws.expected == pytest.approx([float(c) for c in BASE_DECK])
    manual = sum((o - c) ** 2 / c for o, c in zip(draws.observed, BASE_DECK, strict=True))
    assert draws.statistic == pytest.approx(manual)
    assert draws.dof == 4
    assert draws.p_value == pytest.approx(chi_square_sf(manual, 4))
    by_card = dict(zip(DevCard, BASE_DECK, strict=True))
    assert draw_distribution([int(f) for f in faces], by_card) == draws
    half = draw_distribution(faces[:5], BASE_DECK)  # fewer draws: the same shares, scaled
    assert half.expected == pytest.approx([5 * c / 25 for c in BASE_DECK])


def test_draws_refuse_what_cannot_be() -> None:
    with pytest.raises(ValueError, match="5 counts"):
        draw_distribution([DevCard.KNIGHT], (14, 5))
    with pytest.raises(ValueError, match="no card"):
        draw_distribution([], (0, 0, 0, 0, 0))
    with pytest.raises(ValueError):
        draw_distribution([7], BASE_DECK)
    with pytest.raises(ValueError, match="cannot occur"):
        draw_distribution([DevCard.MONOPOLY], {DevCard.KNIGHT: 3})


# ---------------------------------------------------------------------------- real logs


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: each seat's log on disk, every dice total the table rolled, and every
    development card drawn (as its buyer saw it), in the order drawn."""

    paths: tuple[Path, ...]
    rolls: tuple[int, ...]
    draws: tuple[DevCard, ...]


def play(seed: int, directory: Path) -> PlayedGame:
    names = ("Ann", "Bob")
    table = play_to_end(names, seed, [seed * 10 + i for i in range(len(names))])
    paths = [
        write_log(
            directory / f"game{seed}-seat{seat}.hexlan",
            table.opening.to_payload(),
            table.logs[seat],
        )
        for seat in range(len(names))
    ]
    rolls = tuple(
        e.action.total
        for e in table.effects[0]
        if isinstance(e, Applied) and isinstance(e.action, A.Dice)
    )
    seen = {
        e.message_id: e.action.card
        for effects in table.effects
        for e in effects
        if isinstance(e, Applied) and isinstance(e.action, A.DrawCard) and e.action.card is not None
    }
    draws = tuple(
        seen[e.message_id]
        for e in table.effects[0]
        if isinstance(e, Applied) and isinstance(e.action, A.DrawCard)
    )
    return PlayedGame(tuple(paths), rolls, draws)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PlayedGame, PlayedGame]]:
    """Two finished 2-seat games and their logs; the module's tests verify each log once (and
    each cut copy once), however many ways they read the report."""
    directory = tmp_path_factory.mktemp("stats-logs")
    with each_log_replayed_once():
        yield play(10, directory), play(2, directory)


def run(*paths: Path, as_json: bool = False, stats: bool = True) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(paths), as_json=as_json, out=out, stats=stats)
    return code, out.getvalue()


def test_the_replay_collects_every_roll_in_order(games: tuple[PlayedGame, PlayedGame]) -> None:
    for game in games:
        assert len(game.rolls) > 20
        for log in verify_logs(game.paths).logs:
            assert log.dice == game.rolls
            assert log.draws == game.draws  # known to a third party from the audit


def test_stats_count_each_game_once(games: tuple[PlayedGame, PlayedGame]) -> None:
    first, second = games
    paths = (*first.paths, second.paths[0])  # two logs of the first game, one of the second
    plain_code, plain = run(*paths, stats=False)
    code, text = run(*paths)
    assert code == plain_code == EXIT_VALID
    assert text.startswith(plain)
    rolls = first.rolls + second.rolls
    extra = text[len(plain) :].splitlines()
    assert extra[:2] == ["fairness over 2 games:", f"  dice totals (n = {len(rolls)}):"]
    assert f"  development-card draws (n = {len(first.draws + second.draws)}):" in extra
    code, text = run(*paths, as_json=True)
    assert code == EXIT_VALID
    data = json.loads(text)
    assert data["logs"] == json.loads(run(*paths, as_json=True, stats=False)[1])["logs"]
    assert data["stats"]["games"] == 2
    dice, draws = data["stats"]["distributions"]
    assert draws["total"] == len(first.draws + second.draws)
    counts = Counter(rolls)
    assert dice["name"] == "dice totals"
    assert dice["total"] == len(rolls)
    assert dice["observed"] == [counts[t] for t in DICE_TOTALS]
    assert dice["dof"] == 10 and 0.0 <= dice["p_value"] <= 1.0
    again, _ = stats_report(verify_logs(paths))
    assert again.to_json() == dice


def test_one_games_logs_count_its_rolls_once(games: tuple[PlayedGame, PlayedGame]) -> None:
    first, _ = games
    code, text = run(*first.paths)
    assert code == EXIT_VALID
    assert "fairness over 1 game:" in text.splitlines()
    assert f"  dice totals (n = {len(first.rolls)}):" in text.splitlines()


def test_stats_leave_the_exit_code_alone(
    games: tuple[PlayedGame, PlayedGame], tmp_path: Path
) -> None:
    """An unfinished copy of a game counts no extra roll: the game's fullest log counts."""
    first, second = games
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(first.paths[0].read_bytes()[: first.paths[0].stat().st_size // 2])
    (cut_report,) = verify_logs([cut]).logs
    assert 0 < len(cut_report.dice) < len(first.rolls)
    assert cut_report.dice == first.rolls[: len(cut_report.dice)]
    for paths, expected in (
        ((cut, first.paths[1]), EXIT_UNFINISHED),
        ((cut, second.paths[1]), EXIT_UNFINISHED),
    ):
        assert run(*paths, stats=False)[0] == expected
        assert run(*paths)[0] == expected
    dice, _ = stats_report(verify_logs([cut, first.paths[1]]))
    assert dice.total == len(first.rolls)
    dice, _ = stats_report(verify_logs([cut, second.paths[1]]))
    assert dice.total == len(cut_report.dice) + len(second.rolls)
    junk = tmp_path / "junk.hexlan"
    junk.write_bytes(b"\x00" * 10)
    code, text = run(junk)
    assert code == EXIT_UNREADABLE
    assert text.splitlines()[1:] == [
        "fairness over 0 games:",
        "  dice totals (n = 0):",
        "    nothing to test",
        "  development-card draws: known only from audited logs",
    ]


def test_hexlan_verify_stats_on_the_command_line(
    games: tuple[PlayedGame, PlayedGame], tmp_path: Path
) -> None:
    first, second = games
    runner = CliRunner()
    paths = [str(p) for p in (*first.paths, *second.paths)]
    result = runner.invoke(cli, ["verify", "--stats", *paths])
    assert result.exit_code == EXIT_VALID, result.output
    lines = result.output.splitlines()
    assert "fairness over 2 games:" in lines
    assert f"  dice totals (n = {len(first.rolls) + len(second.rolls)}):" in lines
    assert any(line.startswith("    chi-square ") for line in lines)
    result = runner.invoke(cli, ["verify", "--stats", "--json", *paths])
    assert result.exit_code == EXIT_VALID
    stats = json.loads(result.output)["stats"]
    assert stats["distributions"][0]["total"] == len(first.rolls) + len(second.rolls)
    cut = tmp_path / "cut.hexlan"
    cut.write_bytes(first.paths[1].read_bytes()[:6000])
    for flags in ([], ["--stats"]):
        assert runner.invoke(cli, ["verify", *flags, str(cut)]).exit_code == EXIT_UNFINISHED
    assert "--stats" in runner.invoke(cli, ["verify", "--help"]).output


def test_draws_when_logs_make_them_known() -> None:
    """Until the audit fills ``draws`` from logs, hand-made reports: each game's fullest log."""
    knight, vp = int(DevCard.KNIGHT), int(DevCard.VICTORY_POINT)
    logs = (
        LogReport(Path("a0"), game_id=b"a", dice=(7, 8), draws=(knight,)),
        LogReport(Path("a1"), game_id=b"a", dice=(7, 8, 6), draws=(knight, vp, knight)),
        LogReport(Path("b0"), game_id=b"b", dice=(2,), draws=(vp,)),
        LogReport(Path("bad"), error="cannot read the file", game_id=b"c", dice=(12,)),
    )
    dice, draws = stats_report(VerifyReport(logs))
    assert dice == dice_distribution([7, 8, 6, 2])
    assert draws == draw_distribution([knight, vp, knight, vp], BASE_DECK)
    assert draws.total == 4


def test_a_games_own_die_counts_its_outcomes_against_its_chances() -> None:
    """Cities & Knights declares its event die in its spec (GameSpec.dice): three ship faces,
    one gate of each track; its rolls count by symbol, and a face it lacks is refused."""
    from hexlan.engine.variants import game_dice
    from hexlan.engine.variants.cities_knights.actions import EventDie
    from hexlan.net.stats import die_distribution

    (die,) = game_dice()[EventDie]
    rolls = [roll for face in (1, 2, 3, 4, 6, 6) for roll in die.rolled(EventDie(face))]
    found = die_distribution(die, rolls)
    assert found.name == "event die"
    assert found.categories == ("ship", "trade gate", "politics gate", "science gate")
    assert found.observed == (3, 1, 0, 2)
    assert found.expected == pytest.approx((3.0, 1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="the event die has no outcome 4"):
        die_distribution(die, [4])


def test_landnams_exploration_roll_rolls_a_green_and_a_red_d10() -> None:
    """Landnám's exploration roll (one chance action) rolls two of its own dice, each counted
    by face against a fair d10: Seer's counsel two of each, a re-roll the green alone (§10.2)."""
    from hexlan.engine.variants import game_dice
    from hexlan.engine.variants.landnam.actions import ExploreRoll
    from hexlan.net.stats import die_distribution

    green, red = game_dice()[ExploreRoll]
    assert (green.name, red.name) == ("green exploration die", "red exploration die")
    rolls = [ExploreRoll((3,), (10,)), ExploreRoll((1, 3), (2, 2)), ExploreRoll((7,), ())]
    found = die_distribution(green, [o for roll in rolls for o in green.rolled(roll)])
    assert found.observed == (1, 0, 2, 0, 0, 0, 1, 0, 0, 0)
    assert found.expected == pytest.approx((0.4,) * 10)
    assert [o for roll in rolls for o in red.rolled(roll)] == [9, 1, 1]
