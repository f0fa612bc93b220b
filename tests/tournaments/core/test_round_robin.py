"""Round-robin by Berger tables: everyone meets everyone once (twice, seats swapped, in a double)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.core.model import Entrant
from app.tournaments.core.round_robin import berger_round, round_robin_rounds


def people(n: int, withdrawn: frozenset[int] = frozenset()) -> list[Entrant]:
    return [Entrant(f"p{i}", f"P{i}", i, withdrawn=i in withdrawn) for i in range(n)]


def test_six_players_follow_fide_berger_tables() -> None:
    # FIDE Handbook C.05 Annex 1, 5 or 6 players: round 2 is 6-4, 5-3, 1-2.
    assert berger_round(people(6), 1, False).tables == (("p0", "p5"), ("p1", "p4"), ("p2", "p3"))
    assert berger_round(people(6), 2, False).tables == (("p5", "p3"), ("p4", "p2"), ("p0", "p1"))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 20), double=st.booleans())
def test_everyone_meets_everyone_once_per_cycle_with_seats_swapped_in_the_second(n: int, double: bool) -> None:
    entrants = people(n)
    rounds = round_robin_rounds(n, double)
    cycle = rounds // (2 if double else 1)
    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for r in range(1, rounds + 1):
        pairing = berger_round(entrants, r, double)
        seated = [p for t in pairing.tables for p in t] + list(pairing.byes)
        assert sorted(seated) == sorted(e.player_id for e in entrants)  # everyone once a round
        meetings.update(frozenset(t) for t in pairing.tables)
        byes.update(pairing.byes)
        if r > cycle:
            first = berger_round(entrants, r - cycle, double)
            assert pairing.tables == tuple((b, a) for a, b in first.tables)
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {2 if double else 1}
    assert all(v == (2 if double else 1) for v in byes.values()) and len(byes) == (n if n % 2 else 0)


def test_a_withdrawn_players_opponent_has_a_bye_and_nobody_else_moves() -> None:
    before = berger_round(people(6), 3, False)
    after = berger_round(people(6, frozenset({2})), 3, False)
    gone = next(t for t in before.tables if "p2" in t)
    opponent = next(p for p in gone if p != "p2")
    assert after.byes == (opponent,)
    assert after.tables == tuple(t for t in before.tables if t != gone)
