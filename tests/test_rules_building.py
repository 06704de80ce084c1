"""Building: roads, settlements, cities, costs and piece limits.

Rule sources: docs/rules/base.md «Building» (seed 002 «Правила строительства дорог», «Ресурсы и
постройки», «Правила расстояния…», «Фаза строительства», «Подготовка к началу игры»; seed 003
«ПРОВЕРКА …» sections; options settlements_need_road, piece_limits).

Beginner board intersections used: 12 touches 7, 8, 17; 17 touches 12, 22, 23; 23 touches 17, 18,
29. The top coast runs 3-0-4-1-5-2-6.
"""

from __future__ import annotations

from hexlan.engine import actions as A
from hexlan.engine.core import Phase
from hexlan.engine.options import GameOptions

ROAD = (1, 1, 0, 0, 0)
SETTLEMENT = (1, 1, 1, 1, 0)
CITY = (0, 0, 0, 2, 3)
PLENTY = (10, 10, 10, 10, 10)


def _kinds(actions: list[A.Action], kind: type) -> set[int]:
    return {a.path if kind is A.BuildRoad else a.node for a in actions if type(a) is kind}  # type: ignore[union-attr]


def test_costs_from_the_rule_set(table) -> None:
    """seed 002 «Ресурсы и постройки»: road = lumber + brick; settlement = lumber + brick + wool +
    grain; city = 2 grain + 3 ore (paid to the bank)."""
    t = table(players=2)
    s = t.state
    assert (s.rules.road_cost, s.rules.settlement_cost, s.rules.city_cost) == (
        ROAD,
        SETTLEMENT,
        CITY,
    )
    t.build(0, settlements=[12])
    t.give(0, ROAD)
    t.play(A.BuildRoad(t.path(12, 17)))
    t.give(0, ROAD)
    t.play(A.BuildRoad(t.path(17, 22)))
    t.give(0, SETTLEMENT)
    t.play(A.BuildSettlement(22))
    t.give(0, CITY)
    t.play(A.BuildCity(22))
    assert s.hands[0] == [0] * 5 and s.bank == [19] * 5
    assert s.public_vp[0] == 3


def test_one_card_short_builds_nothing(table) -> None:
    """seed 002 «Фаза строительства»: a piece is built only by paying its full cost."""
    t = table(players=2)
    t.build(0, roads=[t.path(12, 17), t.path(17, 22)], settlements=[12])
    t.give(0, (1, 0, 1, 1, 0))  # no brick
    t.give(0, (0, 0, 0, 2, 2))  # two ore, not three
    legal = t.legal()
    assert not _kinds(legal, A.BuildRoad)
    assert not _kinds(legal, A.BuildSettlement)
    assert not _kinds(legal, A.BuildCity)
    t.rejected(A.BuildRoad(t.path(22, 28)), "not legal")
    t.rejected(A.BuildSettlement(22), "not legal")
    t.rejected(A.BuildCity(12), "not legal")


def test_road_must_touch_own_network(table) -> None:
    """seed 002 «Правила строительства дорог»: a road goes on a free path touching one's own road,
    settlement or city."""
    t = table(players=2)
    t.build(0, roads=[t.path(12, 17)], settlements=[12])
    t.build(1, roads=[t.path(17, 23)], settlements=[23])
    t.give(0, PLENTY)
    roads = _kinds(t.legal(), A.BuildRoad)
    expected = {t.path(12, 7), t.path(12, 8), t.path(17, 22)}
    assert roads == expected
    t.rejected(A.BuildRoad(t.path(0, 3)), "not legal")  # far away
    t.rejected(A.BuildRoad(t.path(12, 17)), "not legal")  # taken by itself
    t.rejected(A.BuildRoad(t.path(17, 23)), "not legal")  # taken by seat 1
    t.rejected(A.BuildRoad(t.path(23, 29)), "not legal")  # touches only seat 1's pieces


def test_road_cannot_pass_an_opponents_settlement_or_city(table) -> None:
    """seed 002 «Правила строительства дорог»: a road cannot be extended through an intersection
    holding an opponent's settlement or city."""
    for kind in ("settlements", "cities"):
        t = table(players=2)
        t.build(0, roads=t.trail(7, 12, 17), settlements=[7])
        t.build(1, **{kind: [17]})
        t.give(0, PLENTY)
        roads = _kinds(t.legal(), A.BuildRoad)
        assert t.path(17, 22) not in roads and t.path(17, 23) not in roads, kind
        assert roads == {t.path(7, 3), t.path(7, 11), t.path(12, 8)}, kind
        t.rejected(A.BuildRoad(t.path(17, 22)), "not legal")


def test_road_spots_forget_paths_another_seat_took(table) -> None:
    """seed 002 «Правила строительства дорог» (a road goes on a free path): a path another seat
    built on since this seat last looked is no longer offered (regression: a per-seat cache of
    road spots outlived other seats' roads)."""
    t = table(players=2)
    t.build(0, settlements=[12])
    t.build(1, roads=[t.path(18, 23)], settlements=[18])
    contested = t.path(17, 23)
    t.main(1)
    t.give(1, ROAD)
    assert contested in _kinds(t.legal(), A.BuildRoad)
    t.main(0)
    t.give(0, (2, 2, 0, 0, 0))
    t.play(A.BuildRoad(t.path(12, 17)), A.BuildRoad(contested))
    t.main(1)
    assert contested not in _kinds(t.legal(), A.BuildRoad)
    t.rejected(A.BuildRoad(contested), "not legal")
    assert t.state.path_owner[contested] == 0


def test_settlement_distance_rule_and_own_road(table) -> None:
    """seed 002 «Ресурсы и постройки», «Правила расстояния…»: no settlement or city of any owner
    on an adjacent intersection, and (after set-up) an own road must reach the spot."""
    t = table(players=2)
    t.build(0, roads=t.trail(12, 17, 22, 28) + t.trail(17, 23), settlements=[12])
    t.build(1, settlements=[29])  # 29 touches 23, 34, 35
    t.give(0, PLENTY)
    spots = _kinds(t.legal(), A.BuildSettlement)
    assert spots == {22, 28}  # 17: next to own 12; 23: next to seat 1's 29
    t.rejected(A.BuildSettlement(17), "not legal")
    t.rejected(A.BuildSettlement(23), "not legal")
    t.rejected(A.BuildSettlement(40), "not legal")  # no road there
    t.play(A.BuildSettlement(22))
    assert _kinds(t.legal(), A.BuildSettlement) == set()  # 28 now touches 22


def test_settlement_at_the_end_of_an_opponents_road_only(table) -> None:
    """seed 002 «Ресурсы и постройки»: an opponent's road does not count as one's own."""
    t = table(players=2)
    t.build(1, roads=t.trail(12, 17, 22), settlements=[12])
    t.give(0, PLENTY)
    assert _kinds(t.legal(), A.BuildSettlement) == set()


def test_settlements_need_road_option(table) -> None:
    """seed 003 «ПРОВЕРКА СВОБОДНЫХ МЕСТ…» (option settlements_need_road=False): after set-up the
    distance rule is the only condition."""
    t = table(players=2, options=GameOptions(settlements_need_road=False))
    t.build(1, settlements=[12])
    t.give(0, PLENTY)
    spots = _kinds(t.legal(), A.BuildSettlement)
    assert spots == set(range(54)) - {12, 7, 8, 17}
    t.play(A.BuildSettlement(40))
    assert t.state.settlements[0] == [40]


def test_city_only_on_own_settlement(table) -> None:
    """seed 002 «Как происходит освоение острова»: a city replaces one of one's own settlements;
    the settlement returns to the supply."""
    t = table(players=2)
    t.build(0, settlements=[12, 40])
    t.build(1, settlements=[23])
    t.give(0, PLENTY)
    assert _kinds(t.legal(), A.BuildCity) == {12, 40}
    t.rejected(A.BuildCity(23), "not legal")  # an opponent's settlement
    t.rejected(A.BuildCity(0), "not legal")  # an empty intersection
    s = t.state
    before = s.pieces_left(0)
    t.play(A.BuildCity(12))
    assert s.pieces_left(0) == (before[0], before[1] + 1, before[2] - 1)
    assert s.node_level[12] == 2 and s.public_vp[0] == 3
    t.rejected(A.BuildCity(12), "not legal")  # already a city


def test_piece_limits(table) -> None:
    """seed 002 «Подготовка к началу игры», «Фаза строительства»: 15 roads, 5 settlements,
    4 cities; with no piece left a player cannot build one."""
    t = table(players=2)
    ring = [3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50]
    t.build(0, roads=t.trail(*ring), settlements=[3, 1, 6, 20, 42])
    s = t.state
    assert s.pieces_left(0) == (0, 0, 4)
    t.give(0, PLENTY)
    legal = t.legal()
    assert not _kinds(legal, A.BuildRoad) and not _kinds(legal, A.BuildSettlement)
    t.rejected(A.BuildRoad(t.path(50, 53)), "not legal")
    t.rejected(A.BuildSettlement(32), "not legal")
    t.build(0, cities=[3, 1, 6, 20])
    assert s.pieces_left(0) == (0, 4, 0)
    legal = t.legal()
    assert not _kinds(legal, A.BuildCity)
    assert _kinds(legal, A.BuildSettlement) == {32, 50}  # a city gives its settlement back
    t.rejected(A.BuildCity(42), "not legal")


def test_no_piece_limits_option(table) -> None:
    """seed 003 gives no piece counts (option piece_limits=False)."""
    t = table(players=2, options=GameOptions(piece_limits=False))
    ring = [3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50]
    t.build(0, roads=t.trail(*ring), settlements=[3, 1, 6, 20, 42])
    t.give(0, PLENTY)
    legal = t.legal()
    assert t.path(50, 53) in _kinds(legal, A.BuildRoad)
    assert 32 in _kinds(legal, A.BuildSettlement)
    t.play(A.BuildRoad(t.path(50, 53)), A.BuildSettlement(32))
    assert len(t.state.roads[0]) == 16 and len(t.state.settlements[0]) == 6


def test_nothing_is_built_before_the_roll(table) -> None:
    """seed 002 «Ход»: the turn starts with the roll; building is part of the main phase."""
    t = table(players=2)
    t.build(0, roads=[t.path(12, 17)], settlements=[12])
    t.give(0, PLENTY)
    t.at_roll(0)
    assert t.legal() == [A.RollDice()]
    t.rejected(A.BuildRoad(t.path(17, 22)), "not legal")
    t.rejected(A.EndTurn(), "not legal")
    t.roll(6, 6)
    assert t.state.phase is Phase.MAIN
    assert t.path(17, 22) in _kinds(t.legal(), A.BuildRoad)
