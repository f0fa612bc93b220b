"""Tournament settings: what a create request may ask, when a tournament may start, who may join."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.tournaments.core.settings import Refusal, TournamentSettings, check_start, may_join, swiss_rounds, validate

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def ok(**raw: object) -> TournamentSettings:
    got = validate({"name": "Club night", "format": "swiss", **raw}, NOW)
    assert isinstance(got, TournamentSettings), got
    return got


def refused(**raw: object) -> str:
    got = validate({"name": "Club night", "format": "swiss", **raw}, NOW)
    assert isinstance(got, Refusal), got
    return got.reason


def test_a_plain_swiss_takes_the_defaults_and_a_trimmed_name() -> None:
    s = ok(name="  Club night  ")
    got = (s.name, s.seats, s.rounds, s.pace, s.max_players, s.duplicate)
    assert got == ("Club night", 2, None, "live", 1000, False)


def test_each_wrong_setting_has_its_own_reason() -> None:
    assert refused(name="   ") == "tournament_name"
    assert refused(name="x" * 61) == "tournament_name"
    assert refused(format="knockout") == "tournament_format"
    assert refused(seats=3) == "tournament_seats"
    assert refused(format="round_robin", seats=4) == "tournament_seats"
    assert refused(format="arena", minutes=60, seats=5) == "tournament_seats"
    assert refused(rounds=21) == "tournament_rounds"
    assert refused(rounds=0) == "tournament_rounds"
    assert refused(format="round_robin", rounds=3) == "tournament_rounds"
    assert refused(format="arena", minutes=181) == "tournament_minutes"
    assert refused(format="arena") == "tournament_minutes"
    assert refused(minutes=30) == "tournament_minutes"
    assert refused(format="arena", minutes=60, duplicate=True) == "tournament_duplicate_format"
    assert refused(double=True) == "tournament_double_format"
    assert refused(max_players=1001) == "tournament_max_players"
    assert refused(format="round_robin", max_players=21) == "tournament_max_players"
    assert refused(pace="blitz") == "tournament_pace"
    assert refused(turn_seconds=0) == "tournament_turn_seconds"
    assert refused(starts_at=NOW - timedelta(seconds=1)) == "tournament_starts_at"
    assert refused(starts_at=datetime(2027, 1, 1)) == "tournament_starts_at"
    assert refused(rated="yes") == "tournament_field"
    assert refused(rounds=True) == "tournament_field"


def test_a_turn_based_arena_may_last_a_week_and_round_robin_derives_its_rounds() -> None:
    assert ok(format="arena", minutes=10080, pace="turn_based", seats=4).minutes == 10080
    assert refused(format="arena", minutes=10081, pace="turn_based") == "tournament_minutes"
    rr = ok(format="round_robin", double=True, duplicate=True)
    assert (rr.rounds, rr.double, rr.max_players) == (None, True, 20)


def test_swiss_rounds_default_to_enough_to_find_a_winner() -> None:
    assert [swiss_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9, 1000)] == [1, 1, 2, 2, 3, 3, 4, 10]


def test_a_tournament_starts_only_with_enough_players_and_rounds_that_avoid_rematches() -> None:
    assert check_start(ok(), 1) == Refusal("tournament_players", {"min": 2, "players": 1})
    assert check_start(ok(), 2) is None
    refusal = check_start(ok(rounds=5), 5)
    assert refusal is not None and refusal.reason == "tournament_rounds"
    assert check_start(ok(rounds=4), 5) is None
    assert check_start(ok(format="arena", minutes=60, seats=4), 3) is not None
    assert check_start(ok(max_players=4), 5) is not None
    assert check_start(ok(format="round_robin"), 7) is None


def test_late_joining_per_format() -> None:
    swiss = ok(rounds=7)
    assert may_join(swiss, "open", 0, NOW, None) is None
    assert may_join(swiss, "running", 3, NOW, None) is None
    closed = may_join(swiss, "running", 4, NOW, None)
    assert closed is not None and closed.reason == "tournament_closed"
    assert may_join(ok(format="round_robin"), "running", 1, NOW, None) is not None
    arena = ok(format="arena", minutes=60)
    end = NOW + timedelta(minutes=6)
    assert may_join(arena, "running", 0, NOW, end) is None
    assert may_join(arena, "running", 0, NOW + timedelta(minutes=1), end) is not None
    short = ok(format="arena", minutes=20)  # 10 % of 20 minutes: the last 2 minutes
    assert may_join(short, "running", 0, end - timedelta(minutes=3), end) is None
    assert may_join(short, "running", 0, end - timedelta(minutes=2), end) is not None
    assert may_join(swiss, "over", 7, NOW, None) is not None
    full = may_join(ok(max_players=2), "open", 0, NOW, None, players=2)
    assert full is not None and full.reason == "tournament_full"
