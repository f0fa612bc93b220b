"""Standings: points, Buchholz, Sonneborn–Berger, arena points and shared ranks."""

from __future__ import annotations

from app.tournaments.core.model import Bye, Entrant, TableResult
from app.tournaments.core.standings import standings


def people(*ids: str) -> list[Entrant]:
    return [Entrant(p, p.upper(), i) for i, p in enumerate(ids)]


def t(r: int, a: str, b: str, sa: float, finished: bool = True, totals: tuple[int, ...] = ()) -> TableResult:
    return TableResult(r, 0, (a, b), (sa, 1 - sa), totals, finished)


def rows(table: list) -> list[tuple[str, float, float, int]]:  # type: ignore[type-arg]
    return [(s.player_id, s.points, s.tiebreak, s.rank) for s in table]


def test_swiss_points_with_a_bye_and_buchholz() -> None:
    results = [t(1, "a", "b", 1), t(2, "a", "c", 0.5), t(2, "b", "d", 1, finished=False)]
    byes = [Bye(1, "c")]
    got = standings("swiss", people("a", "b", "c", "d"), results, byes, duplicate=False)
    # a: 1.5 (b 0 + c 1.5 = 1.5); c: 1.5 (a 1.5 + own 1.5 for the bye = 3.0); b 0; d 0.
    assert rows(got) == [("c", 1.5, 3.0, 1), ("a", 1.5, 1.5, 2), ("b", 0.0, 1.5, 3), ("d", 0.0, 0.0, 4)]


def test_round_robin_sonneborn_berger_and_shared_ranks() -> None:
    # A cycle: a beats b, b beats c, c beats a: all equal on points and on S-B, one rank.
    results = [t(1, "a", "b", 1), t(2, "b", "c", 1), t(3, "c", "a", 1)]
    got = standings("round_robin", people("a", "b", "c"), results, [], duplicate=False)
    assert rows(got) == [("a", 1.0, 1.0, 1), ("b", 1.0, 1.0, 1), ("c", 1.0, 1.0, 1)]
    results[2] = t(3, "c", "a", 0.5)  # a 1.5: S-B = b's 1 (beaten) + half of c's 0.5 (drawn)
    got = standings("round_robin", people("a", "b", "c"), results, [], duplicate=False)
    assert [r.player_id for r in got] == ["a", "b", "c"] and got[0].tiebreak == 1.0 + 0.5 * 0.5


def test_duplicate_standings_count_match_points() -> None:
    results = [TableResult(1, 0, ("a", "b"), (1, 0), (60, 20), True),
               TableResult(1, 1, ("c", "d"), (0, 1), (30, 40), True)]
    got = standings("swiss", people("a", "b", "c", "d"), results, [], duplicate=True)
    assert {r.player_id: r.points for r in got} == {"a": 1.0, "b": 0.0, "c": 0.0, "d": 1.0}
    assert [r.rank for r in got] == [1, 1, 3, 3]


def test_arena_standings_use_streak_points_and_no_tiebreak() -> None:
    results = [t(1, "a", "b", 1), t(2, "a", "b", 1), t(3, "a", "b", 1)]
    got = standings("arena", people("a", "b"), results, [], duplicate=False)
    assert rows(got) == [("a", 8.0, 0.0, 1), ("b", 0.0, 0.0, 2)]


def test_withdrawn_players_keep_their_row() -> None:
    entrants = [Entrant("a", "A", 0), Entrant("b", "B", 1, withdrawn=True)]
    got = standings("swiss", entrants, [t(1, "a", "b", 0)], [], duplicate=False)
    assert [(r.player_id, r.withdrawn) for r in got] == [("b", True), ("a", False)]


def test_a_forfeited_seat_scores_nothing_whatever_the_room_said() -> None:
    forfeited = TableResult(1, 0, ("a", "b"), (1.0, 0.0), (), True, forfeit=(0,))
    got = standings("swiss", people("a", "b"), [forfeited], [], duplicate=False)
    assert {r.player_id: r.points for r in got} == {"a": 0.0, "b": 0.0}
