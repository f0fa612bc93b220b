"""Arena: pairing the free players by score, never the same opponent twice in a row; streak scoring."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.core.arena import ArenaPlayer, arena_points, arena_tables
from app.tournaments.core.model import TableResult


def test_neighbours_in_points_meet_and_the_odd_one_waits() -> None:
    free = [ArenaPlayer("a", 10), ArenaPlayer("b", 2), ArenaPlayer("c", 8), ArenaPlayer("d", 3), ArenaPlayer("e", 0)]
    assert arena_tables(free, 2) == (("a", "c"), ("d", "b"))


def test_last_opponents_do_not_meet_again_at_once_but_wait_if_alone() -> None:
    a = ArenaPlayer("a", 4, frozenset({"b"}))
    b = ArenaPlayer("b", 4, frozenset({"a"}))
    assert arena_tables([a, b], 2) == ()
    assert arena_tables([a, b, ArenaPlayer("c", 0)], 2) == (("a", "c"),)


def test_tables_of_more_seats_are_exactly_full() -> None:
    free = [ArenaPlayer(p, 0, waiting_since=i) for i, p in enumerate("abcdefg")]
    assert arena_tables(free, 3) == (("a", "b", "c"), ("d", "e", "f"))
    assert arena_tables(free[:3], 4) == ()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 30)), min_size=0, max_size=16, unique_by=lambda t: t[1]),
       st.integers(2, 4), st.randoms(use_true_random=False))
def test_never_the_same_opponent_twice_in_a_row_when_another_is_free(
        rows: list[tuple[int, int]], seats: int, rng) -> None:  # type: ignore[no-untyped-def]
    ids = [f"p{i}" for _, i in rows]
    last = {p: frozenset(rng.sample([q for q in ids if q != p], k=min(len(ids) - 1, rng.randint(0, seats - 1))))
            for p in ids}
    # last opponents are mutual, as they come from shared tables
    mutual = {p: frozenset(q for q in last[p] | {q for q in ids if p in last[q]}) for p in ids}
    free = [ArenaPlayer(f"p{i}", pts, mutual[f"p{i}"], i) for pts, i in rows]
    tables = arena_tables(free, seats)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) and all(len(t) == seats for t in tables)
    for t in tables:
        assert all(q not in mutual[p] for p in t for q in t)
    if seats == 2:  # whoever waits has no free player left they may meet
        left = [p for p in ids if p not in seated]
        assert all(q in mutual[p] for p in left for q in left if q != p)


def game(r: int, a: str, b: str, score_a: float) -> TableResult:
    return TableResult(r, 0, (a, b), (score_a, 1.0 - score_a), (), True)


def test_two_wins_in_a_row_make_further_games_score_double_until_one_is_not_won() -> None:
    results = [game(1, "a", "x", 1), game(2, "a", "x", 1), game(3, "a", "x", 1), game(4, "a", "x", 0.5),
               game(5, "a", "x", 1), game(6, "a", "x", 0), TableResult(7, 0, ("a", "x"), (1, 0), (), False)]
    # 2 + 2 + 4 (on fire) + 2 (a draw on fire; the streak ends) + 2 + 0; the unfinished game counts not
    assert arena_points(results)["a"] == 12
    assert arena_points(results)["x"] == 0 + 0 + 0 + 1 + 0 + 2


def test_a_four_seat_arena_table_scores_its_winner_only() -> None:
    t = TableResult(1, 0, ("a", "b", "c", "d"), (0, 1, 0, 0), (), True)
    assert arena_points([t]) == {"a": 0, "b": 2, "c": 0, "d": 0}
