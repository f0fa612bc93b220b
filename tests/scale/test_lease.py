"""Leases on rooms: one holder at a time, renewal, expiry and takeover, lapsing on a clean stop,
and adoption of rooms whose driver is gone (on SQLite and, when set, PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store import migrate
from app.store.db import make_engine, make_sessions
from app.store.repositories import leases
from app.store.tables import Match, Player, Room, utcnow

Sessions = async_sessionmaker[AsyncSession]


@pytest.fixture
async def sessions(db_url: str) -> AsyncIterator[Sessions]:
    engine = make_engine(db_url)
    await migrate.upgrade(engine)
    try:
        yield make_sessions(engine)
    finally:
        await engine.dispose()


async def _room(sessions: Sessions, code: str, status: str = "playing") -> None:
    async with sessions() as s:
        s.add(Player(id=f"p{code}", name="Host"))
        await s.flush()
        s.add(Room(code=code, host_id=f"p{code}", preset="standard", seats=2, status="playing", seating=[],
                   match_id=f"m{code}"))
        await s.flush()
        s.add(Match(id=f"m{code}", room_code=code, number=1, preset="standard", options={}, names=["A", "B"],
                    status=status, totals=[0, 0]))
        await s.commit()


async def test_one_holder_until_it_lapses(sessions: Sessions) -> None:
    await _room(sessions, "R1")
    async with sessions() as s:
        assert await leases.acquire(s, "R1", "one", 30)
        assert not await leases.acquire(s, "R1", "two", 30), "a live lease is not taken"
        assert await leases.acquire(s, "R1", "one", 30), "the holder may take it again"
        assert await leases.renew(s, "one", ["R1"], 30) == {"R1"}
        assert await leases.renew(s, "two", ["R1"], 30) == set()
        holder = await leases.holder(s, "R1")
        assert holder is not None and holder[0] == "one"
        # Time passes beyond the lease without a renewal: the other contender takes over.
        later = utcnow() + timedelta(seconds=31)
        assert await leases.acquire(s, "R1", "two", 30, now=later)
        assert await leases.renew(s, "one", ["R1"], 30, now=later) == set(), "the old holder learns it lost"
        assert not await leases.acquire(s, "R1", "one", 30, now=later)


async def test_real_expiry(sessions: Sessions) -> None:
    await _room(sessions, "R2")
    async with sessions() as s:
        assert await leases.acquire(s, "R2", "one", 0.3)
        assert not await leases.acquire(s, "R2", "two", 0.3)
        await asyncio.sleep(0.4)
        assert await leases.acquire(s, "R2", "two", 0.3)


async def test_racing_contenders_get_one_winner(sessions: Sessions) -> None:
    await _room(sessions, "R3")

    async def take(who: str) -> bool:
        async with sessions() as s:
            return await leases.acquire(s, "R3", who, 30)

    results = await asyncio.gather(*(take(f"i{k}") for k in range(6)))
    assert sum(results) == 1


async def test_a_clean_stop_hands_rooms_over(sessions: Sessions) -> None:
    await _room(sessions, "R4")
    await _room(sessions, "R5", status="match_over")
    async with sessions() as s:
        assert await leases.acquire(s, "R4", "one", 30)
        assert await leases.acquire(s, "R5", "one", 30)
        assert await leases.orphans(s) == []
        await leases.lapse_all(s, "one")
        assert await leases.orphans(s) == ["R4"], "only a room still being played needs a new driver"
        assert await leases.acquire(s, "R4", "two", 30)
        assert await leases.orphans(s) == []
        await leases.forget_finished(s)
        assert await leases.holder(s, "R5") is None and await leases.holder(s, "R4") is not None
        await leases.release(s, ["R4"], "one")
        assert await leases.holder(s, "R4") is not None, "only the holder releases"
        await leases.release(s, ["R4"], "two")
        assert await leases.holder(s, "R4") is None
