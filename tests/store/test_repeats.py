"""Rating farming: rated matches between the same players within a window
count fully for the first `SPITE_RATED_REPEAT_FULL`, then half, a quarter, then not at all; other
pairings and matches outside the window count fully again. On the real store."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.domain.rating import UNRATED, rate, repeat_weight
from app.domain.records import Standing
from app.store.repositories.awards import Repeats, record_ratings
from app.store.tables import Rating, utcnow

from .moves import new_match


def test_the_weight_halves_beyond_the_full_matches_then_stops() -> None:
    assert [repeat_weight(k, 3) for k in range(7)] == [1, 1, 1, 0.5, 0.25, 0, 0]
    won = rate({}, [Standing("a", None, 9), Standing("b", None, 0)])
    half = rate({}, [Standing("a", None, 9), Standing("b", None, 0)], 0.5)
    assert half["a"].mu - UNRATED.mu == pytest.approx((won["a"].mu - UNRATED.mu) / 2)
    none = rate({}, [Standing("a", None, 9), Standing("b", None, 0)], 0.0)
    assert none["a"] == UNRATED and none["b"] == UNRATED  # not counted in games either


async def test_a_farmed_pair_gains_less_and_less_then_nothing(engine: AsyncEngine,
                                                            sessions: async_sessionmaker[AsyncSession]) -> None:
    ids = await new_match(sessions, "m0", "ROOM0000")
    others = await new_match(sessions, "x0", "ROOMX000")  # a different pairing
    for i in range(1, 8):
        await new_match(sessions, f"m{i}", f"ROOM000{i}")
    now = utcnow()
    repeats = Repeats(full=2, hours=24)
    gains = []
    for i in range(7):
        at = now + timedelta(minutes=i)
        async with engine.begin() as conn:
            [a, _] = await record_ratings(conn, f"m{i}", [Standing(ids[0], None, 9), Standing(ids[1], None, 0)],
                                          at, repeats)
        gains.append(a.after.mu - a.before.mu)
        assert a.after.games == a.before.games + (1 if i < 4 else 0)
    assert gains[0] > 0 and gains[1] > 0
    assert gains[2] == pytest.approx(gains[1] * 0.5, rel=0.35)  # half of what a full match would give
    assert 0 < gains[3] < gains[2] and gains[4:] == [0, 0, 0]
    async with engine.begin() as conn:  # the same winner against someone else counts fully
        [a, _] = await record_ratings(conn, "x0", [Standing(ids[0], None, 9), Standing(others[1], None, 0)],
                                      now + timedelta(minutes=8), repeats)
    assert a.after.mu - a.before.mu > gains[3] and a.after.games == a.before.games + 1
    async with sessions() as s:
        rows = {r.player_id: r.games for r in (await s.execute(select(Rating))).scalars()}
    assert rows[ids[0]] == 5 and rows[ids[1]] == 4


async def test_meetings_older_than_the_window_do_not_count(engine: AsyncEngine,
                                                          sessions: async_sessionmaker[AsyncSession]) -> None:
    ids = await new_match(sessions, "m0", "ROOM0000")
    await new_match(sessions, "m1", "ROOM0001")
    now, repeats = utcnow(), Repeats(full=1, hours=1)
    async with engine.begin() as conn:
        await record_ratings(conn, "m0", [Standing(ids[0], None, 9), Standing(ids[1], None, 0)],
                             now - timedelta(hours=2), repeats)
        [a, _] = await record_ratings(conn, "m1", [Standing(ids[0], None, 9), Standing(ids[1], None, 0)],
                                      now, repeats)
    assert a.after.games == 2 and a.after.mu > a.before.mu
