"""Duplicate deals: match points against everyone who held the same seat; the round's seed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import commitment
from app.tournaments.core.duplicate import match_points, round_match_points, round_seeds, seed_commitment
from app.tournaments.core.model import Bye, TableResult


def test_the_worked_example_of_the_docs() -> None:
    # Two tables, the same deal. Seat 0: A beat B by 40, C lost to D by 10. Seat 1: B and D.
    tables = [TableResult(1, 0, ("A", "B"), (1, 0), (60, 20), True),
              TableResult(1, 1, ("C", "D"), (0, 1), (30, 40), True)]
    assert match_points(tables) == {"A": 1.0, "C": 0.0, "D": 1.0, "B": 0.0}
    # Both seat-0 players win; the bigger margin wins the comparison; equal margins share it.
    tables[1] = TableResult(1, 1, ("C", "D"), (1, 0), (55, 15), True)
    assert match_points(tables) == {"A": 0.5, "C": 0.5, "B": 0.5, "D": 0.5}


def test_a_bye_scores_the_rounds_average_and_unfinished_tables_nothing() -> None:
    tables = [TableResult(1, 0, ("A", "B"), (1, 0), (60, 20), True),
              TableResult(1, 1, ("C", "D"), (0, 1), (30, 40), True),
              TableResult(1, 2, ("E", "F"), (1, 0), (99, 0), False)]
    got = match_points(tables, [Bye(1, "G")])
    assert got["G"] == 0.5 and "E" not in got


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]),
                          st.integers(0, 100), st.integers(0, 100)), min_size=1, max_size=12))
def test_each_round_hands_out_a_total_fixed_by_how_many_held_each_seat(rows) -> None:  # type: ignore[no-untyped-def]
    tables = [TableResult(1, i, (f"a{i}", f"b{i}"), scores, (x, y), True) for i, (scores, x, y) in enumerate(rows)]
    n = len(tables)
    got = round_match_points(tables)
    assert sum(got.values()) == 2 * n * (n - 1) / 2
    assert all(0 <= v <= n - 1 for v in got.values())


def test_round_seeds_are_sealed_by_prefix_fixed_by_their_inputs_and_committed() -> None:
    secret = "ab" * 16
    seed = round_seeds(secret, "t42", 3)
    assert seed.startswith("tdup-") and seed == round_seeds(secret, "t42", 3)
    assert seed != round_seeds(secret, "t42", 4) and seed != round_seeds("cd" * 16, "t42", 3)
    assert secret not in seed
    assert seed_commitment(seed) == commitment(seed)
