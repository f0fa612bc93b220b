"""Swiss through the FIDE Dutch system: no rematches while avoidable, one bye each at most."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.core.model import Bye, Entrant, TableResult
from app.tournaments.core.swiss import histories, pairing_numbers, swiss_round


def people(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", f"P{i}", i, rating=None if i % 3 == 0 else 1500.0 - i) for i in range(n)]


def play(entrants: list[Entrant], rounds: int, seed: int) -> tuple[list[TableResult], list[Bye]]:
    rng = random.Random(seed)
    results: list[TableResult] = []
    byes: list[Bye] = []
    for r in range(1, rounds + 1):
        pairing = swiss_round(entrants, results, byes, r, total_rounds=rounds)
        for i, seats in enumerate(pairing.tables):
            x = rng.choice((1.0, 0.5, 0.0))
            results.append(TableResult(r, i, seats, (x, 1.0 - x), (0, 0), True))
        byes.extend(Bye(r, p) for p in pairing.byes)
    return results, byes


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 10_000), data=st.data())
def test_whole_tournaments_never_repeat_a_pairing_nor_give_two_byes(n: int, seed: int, data: st.DataObject) -> None:
    rounds = data.draw(st.integers(1, max(1, min(n - 1, (n + 1) // 2))))
    entrants = people(n)
    results, byes = play(entrants, rounds, seed)
    pairs = Counter(frozenset(t.seats) for t in results)
    assert all(v == 1 for v in pairs.values()), pairs.most_common(2)
    assert all(v == 1 for v in Counter(b.player_id for b in byes).values())
    for r in range(1, rounds + 1):
        seated = [p for t in results if t.round == r for p in t.seats] + [b.player_id for b in byes if b.round == r]
        assert sorted(seated) == sorted(e.player_id for e in entrants)
        assert sum(1 for b in byes if b.round == r) == n % 2


def test_withdrawn_players_are_not_paired_and_the_odd_one_gets_the_bye() -> None:
    entrants = people(5)
    entrants[1] = Entrant("p1", "P1", 1, rating=1499.0, withdrawn=True)
    pairing = swiss_round(entrants, [], [], 1)
    seated = [p for t in pairing.tables for p in t]
    assert "p1" not in seated and "p1" not in pairing.byes
    assert len(pairing.tables) == 2 and len(pairing.byes) == 0


def test_the_bye_goes_to_the_lowest_ranked_and_not_twice() -> None:
    entrants = people(3)
    first = swiss_round(entrants, [], [], 1)
    numbers = pairing_numbers(entrants)
    assert first.byes == (max(numbers, key=lambda p: numbers[p]),)
    results, byes = play(entrants, 2, seed=1)
    assert len({b.player_id for b in byes}) == 2


def test_seats_alternate_like_colours() -> None:
    entrants = people(8)
    results, byes = play(entrants, 3, seed=4)
    hist = histories(entrants, results, byes, 4)
    for h in hist.values():
        assert "white" in h.colours and "black" in h.colours  # three rounds: nobody sat first every time
        assert h.colours[0] != h.colours[1] or h.colours[1] != h.colours[2]


def test_unrated_guests_are_ranked_after_rated_players_in_join_order() -> None:
    numbers = pairing_numbers([Entrant("g", "G", 0), Entrant("r", "R", 1, rating=1200.0), Entrant("h", "H", 2)])
    assert numbers == {"r": 1, "g": 2, "h": 3}


def test_a_large_field_is_paired_by_the_fast_kernel_without_rematches_or_second_byes() -> None:
    entrants = people(61)
    results, byes = play(entrants, 4, seed=7)
    assert all(v == 1 for v in Counter(frozenset(t.seats) for t in results).values())
    assert len(byes) == 4 and len({b.player_id for b in byes}) == 4


def test_when_no_pairing_is_left_the_round_is_still_paired_with_a_rematch(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import app.tournaments.core.swiss as swiss

    monkeypatch.setattr(swiss, "FAST_FROM", 0)  # the fast kernel first: it finds nothing, the fall-back must
    entrants = people(2)
    met = [TableResult(1, 0, ("p0", "p1"), (1.0, 0.0), (0, 0), True)]
    pairing = swiss_round(entrants, met, [], 2)
    assert [frozenset(t) for t in pairing.tables] == [frozenset({"p0", "p1"})] and pairing.byes == ()
