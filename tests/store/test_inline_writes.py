"""A room's short writes on the loop's thread (`app.store.inline_writes.InlineWrites`, through
`MoveWriter.transact`): a room update and a match's start write what the pooled ORM path writes,
refuse a stale revision or version with `Conflict` having written nothing, and raise `Locked` at
once (nothing written) when another connection holds the write lock."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.domain.records import HandEnd
from app.domain.writes import DealChange, MatchChange
from app.store.db import make_sessions
from app.store.errors import Conflict, Locked
from app.store.moves.writer import MoveWriter
from app.store.repositories import matches as match_store
from app.store.repositories import rooms as room_store
from app.store.repositories.players import create_player
from app.store.tables import Hand, Match, Room, Seat

from .moves import new_match, plain, stored


@pytest.fixture
async def writer(sqlite_engine: AsyncEngine) -> AsyncIterator[MoveWriter]:
    made = MoveWriter(sqlite_engine)
    try:
        yield made
    finally:
        await made.close()


async def _rooms(sessions: async_sessionmaker[AsyncSession], *codes: str) -> list[str]:
    async with sessions() as s:
        ids = [(await create_player(s, name))[0].id for name in ("Ann", "Bob")]
        for code in codes:
            s.add(Room(code=code, host_id=ids[0], preset="standard", overrides={}, seats=2, public=False,
                       hints=True, status="waiting", seating=[None, None], rev=0, match_count=0))
        await s.commit()
    return ids


def _start(code: str, match_id: str, ids: list[str]) -> dict[str, Any]:
    return {"room_code": code, "room_rev": 0,
            "room_values": {"status": "playing", "match_id": match_id, "match_count": 1, "rematch": {}},
            "match": Match(id=match_id, room_code=code, number=1, preset="standard", options={"payoff_size": 6},
                           names=["Ann", "Bob"], turn_seconds=30, status="playing", v=0, totals=[0, 0],
                           winners=None, turn_deadline=None, wake_at=None, turn_seat=1),
            "seats": [Seat(match_id=match_id, seat=0, player_id=ids[0], name="Ann", team=None),
                      Seat(match_id=match_id, seat=1, player_id=None, name="Bot", bot_level="easy", team=None)],
            "hand": Hand(match_id=match_id, number=1, seed="s", commitment="c", start_v=0)}


async def _stored(sessions: async_sessionmaker[AsyncSession], code: str, match_id: str) -> list[Any]:
    """The room's and the match's rows, as comparable values (keys, ids and times left out)."""
    skip = {"code", "id", "match_id", "room_code", "created_at", "updated_at", "started_at"}

    def values(row: Any) -> dict[str, Any]:
        return {c.key: getattr(row, c.key) for c in row.__table__.columns if c.key not in skip}

    async with sessions() as s:
        room = (await s.execute(select(Room).where(Room.code == code))).scalar_one()
        record = await match_store.load_match(s, match_id)
        assert record is not None
        return [values(room), values(record.match), [values(x) for x in record.seats],
                [values(x) for x in record.hands], room.match_id == match_id, room.updated_at is not None]


async def test_a_match_started_on_the_loops_thread_writes_what_the_pooled_path_writes(
        sqlite_engine: AsyncEngine, writer: MoveWriter) -> None:
    sessions = make_sessions(sqlite_engine)
    ids = await _rooms(sessions, "POOLED01", "INLINE01")
    async with sessions() as s:
        assert await match_store.start_match(s, **_start("POOLED01", "mpooled", ids)) == 1
    assert writer.transact(lambda c: match_store.start_match_now(c, **_start("INLINE01", "minline", ids))) == 1
    assert await _stored(sessions, "INLINE01", "minline") == await _stored(sessions, "POOLED01", "mpooled")


async def test_a_stale_revision_or_a_taken_match_is_a_conflict_and_writes_nothing(
        sqlite_engine: AsyncEngine, writer: MoveWriter) -> None:
    sessions = make_sessions(sqlite_engine)
    ids = await _rooms(sessions, "ROOM0001")
    assert writer.transact(lambda c: room_store.update_room_now(c, "ROOM0001", 0, {"public": True})) == 1
    with pytest.raises(Conflict):
        writer.transact(lambda c: room_store.update_room_now(c, "ROOM0001", 0, {"hints": False}))
    with pytest.raises(Conflict):  # the room is at revision 1 now
        writer.transact(lambda c: match_store.start_match_now(c, **_start("ROOM0001", "m1", ids)))
    start = {**_start("ROOM0001", "m1", ids), "room_rev": 1}
    assert writer.transact(lambda c: match_store.start_match_now(c, **start)) == 2
    again = {**_start("ROOM0001", "m1", ids), "room_rev": 2}
    with pytest.raises(Conflict):  # the match exists: its room's update is rolled back with it
        writer.transact(lambda c: match_store.start_match_now(c, **again))
    async with sessions() as s:
        room = (await s.execute(select(Room).where(Room.code == "ROOM0001"))).scalar_one()
        assert (room.rev, room.public, room.hints) == (2, True, True)


async def test_a_deal_on_the_loops_thread_checks_the_version_and_the_hand(
        sqlite_engine: AsyncEngine, writer: MoveWriter) -> None:
    sessions = make_sessions(sqlite_engine)
    ids = await _rooms(sessions, "ROOM0001")
    writer.transact(lambda c: match_store.start_match_now(c, **_start("ROOM0001", "m1", ids)))
    change = DealChange(turn_deadline=None, wake_at=None, turn_seat=0)

    def deal(number: int, expect_v: int) -> Any:
        hand = Hand(match_id="m1", number=number, seed="t", commitment="d", start_v=expect_v + 1)
        return lambda c: match_store.record_deal_now(c, match_id="m1", expect_v=expect_v, hand=hand, change=change)

    with pytest.raises(Conflict):
        writer.transact(deal(1, 0))  # hand 1 is dealt already
    with pytest.raises(Conflict):
        writer.transact(deal(2, 5))  # the match is not at version 5
    writer.transact(deal(2, 0))
    async with sessions() as s:
        record = await match_store.load_match(s, "m1")
        assert record is not None
        assert (record.match.v, record.match.turn_seat, [h.number for h in record.hands]) == (1, 0, [1, 2])


async def test_a_lock_held_elsewhere_is_locked_at_once_with_nothing_written(
        sqlite_engine: AsyncEngine, writer: MoveWriter) -> None:
    sessions = make_sessions(sqlite_engine)
    await _rooms(sessions, "ROOM0001")
    other = sqlite3.connect(str(make_url(str(sqlite_engine.url)).database), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.perf_counter()
        with pytest.raises(Locked):
            writer.transact(lambda c: room_store.update_room_now(c, "ROOM0001", 0, {"public": True}))
        assert time.perf_counter() - started < 0.5
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert writer.transact(lambda c: room_store.update_room_now(c, "ROOM0001", 0, {"public": True})) == 1


async def test_on_a_server_database_or_without_inline_commits_nothing_runs_here(
        engine: AsyncEngine, sqlite_engine: AsyncEngine) -> None:
    """`Locked` at once: the caller takes its pooled path."""
    writers = [MoveWriter(sqlite_engine, inline=False)]
    if engine.dialect.name != "sqlite":
        writers.append(MoveWriter(engine))
    for made in writers:
        try:
            with pytest.raises(Locked):
                made.transact(lambda c: None)
        finally:
            await made.close()


async def test_a_hands_end_is_committed_at_once_or_queued_behind_the_lock(sqlite_engine: AsyncEngine) -> None:
    """A move that ends a hand runs the queue's statements on the loop's thread when the lock is
    free; when another connection holds it, it takes the queue (the pooled path) and waits."""
    sessions = make_sessions(sqlite_engine)
    for i in range(2):
        await new_match(sessions, f"m{i}", f"ROOM000{i}")
    end = HandEnd(number=1, result={"reason": "payoff_out"}, points=[0, 12], totals=[0, 12], payoff_left=[5, 0])

    def ending(match_id: str) -> Any:
        return replace(plain(0, match_id=match_id), match=MatchChange("hand_over", [0, 12], None, None, None, None),
                       hand_end=end)

    writer = MoveWriter(sqlite_engine)
    try:
        await writer.record(ending("m0"))
        assert writer._task is None
        other = sqlite3.connect(str(make_url(str(sqlite_engine.url)).database), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            pending = asyncio.create_task(writer.record(ending("m1")))
            await asyncio.sleep(0.1)
            assert not pending.done() and writer._task is not None
        finally:
            other.execute("ROLLBACK")
            other.close()
        await asyncio.wait_for(pending, 10)
        with pytest.raises(Conflict):
            await writer.record(ending("m0"))  # version 1 is taken
        for i in range(2):
            match, moves = await stored(sessions, f"m{i}")
            assert (match.v, match.status, len(moves)) == (1, "hand_over", 1)
        async with sessions() as s:
            hands = (await s.execute(select(Hand).order_by(Hand.match_id))).scalars().all()
            assert [(h.match_id, h.result) for h in hands] == [("m0", {"reason": "payoff_out"}),
                                                               ("m1", {"reason": "payoff_out"})]
    finally:
        await writer.close()
