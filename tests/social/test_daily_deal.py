"""The daily deal's pure rules: the day on a fake clock, the seal on its seed, the
ranking of a day's results."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from app.domain.records import Attempt
from app.engine import sealed_result, seed_sealed
from app.social.core.daily_deal import (
    claim_key,
    day_commitment,
    day_seed,
    device_id,
    ranked,
    seed_shown,
    today,
    valid_day,
)


def test_the_day_is_the_utc_day_of_the_clock_or_the_settable_one() -> None:
    late = datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)
    assert today(late) == "2026-12-01"
    assert today(late + timedelta(seconds=1)) == "2026-12-02"
    paris = datetime(2026, 12, 2, 0, 30, tzinfo=timezone(timedelta(hours=1)))  # still Dec 1 in UTC
    assert today(paris) == "2026-12-01"
    assert today(late, "2020-01-01") == "2020-01-01"


def test_a_daily_seed_stays_sealed_until_its_day_is_over() -> None:
    seed = day_seed("2026-12-01", "ab" * 16)
    assert seed == "daily-2026-12-01-" + "ab" * 16 and len(day_commitment(seed)) == 64
    assert seed_sealed(seed, "2026-12-01") and seed_sealed(seed, "2026-11-30")
    assert not seed_sealed(seed, "2026-12-02")
    assert seed_shown(seed, "2026-12-01") is None and seed_shown(seed, "2026-12-02") == seed
    assert not seed_sealed("0123abcd", "2026-12-01") and not seed_sealed(None, "2026-12-01")
    result = {"reason": "payoff_out", "winners": [0], "seed": seed}
    assert sealed_result(result, "2026-12-01") == {**result, "seed": None}
    assert sealed_result(result, "2026-12-02") is result
    assert sealed_result(None, "2026-12-01") is None


def test_days_are_real_calendar_days() -> None:
    assert valid_day("2024-02-29") and not valid_day("2023-02-29")
    assert not any(valid_day(d) for d in ("2024-2-1", "20240201", "", "2024-02-01x", "yesterday"))


def test_results_rank_wins_then_fewest_payoff_cards_left_then_fewest_moves() -> None:
    attempts = [Attempt("a", "Ann", True, False, 2, 10), Attempt("b", "Bob", True, True, 0, 90),
                Attempt("c", "Cat", True, True, 0, 40), Attempt("d", "Dan", False, True, 0, 1),
                Attempt("e", "Eve", True, False, 1, 99)]
    assert [a.player_id for a in ranked(attempts)] == ["c", "b", "e", "a"]


def test_a_try_counts_against_a_well_formed_device_and_a_days_key() -> None:
    """(The address a try counts against is every per-address limit's key, `client_key`:
    tests/web/test_addresses.py; the IPv6 /64 case through the daily route: test_daily_tries.py.)"""
    assert device_id("A" * 22) == "A" * 22
    assert device_id(None) is None and device_id("short") is None and device_id("x" * 65) is None
    assert device_id("a;b=c" * 5) is None  # not what this server makes
    assert claim_key("2026-12-01", "address", "203.0.113.7") != claim_key("2026-12-02", "address", "203.0.113.7")
    assert "203.0.113.7" not in claim_key("2026-12-01", "address", "203.0.113.7")
