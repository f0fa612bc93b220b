"""Plain moves that find SQLite's write lock taken (`app.store.moves.batch.PlainBatches`): they
wait without holding up the loop, are committed together on the writer's own connection as soon
as the lock frees (never through the pooled aiosqlite path), are woken by the end of a pool
transaction, and fail with "database is locked" only after the lock timeout."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.db import make_sessions
from app.store.errors import Conflict
from app.store.moves import batch
from app.store.moves.counters import BATCH, QUEUED
from app.store.moves.writer import MoveWriter
from app.store.tables import Match

from .moves import new_match, plain, stored, transaction_sizes


def _path(engine: AsyncEngine) -> str:
    database = make_url(str(engine.url)).database
    assert database is not None
    return database


@pytest.fixture
def held(sqlite_engine: AsyncEngine) -> Iterator[sqlite3.Connection]:
    """Another connection to the file, to hold its write lock (BEGIN IMMEDIATE) until ROLLBACK."""
    other = sqlite3.connect(_path(sqlite_engine), isolation_level=None)
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


async def test_moves_queued_behind_the_lock_commit_together_on_the_loops_thread(
        sqlite_engine: AsyncEngine, held: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = make_sessions(sqlite_engine)
    for i in range(3):
        await new_match(sessions, f"m{i}", f"ROOM000{i}")
    held.execute("BEGIN IMMEDIATE")
    writer = MoveWriter(sqlite_engine)
    sizes = transaction_sizes(writer, monkeypatch)
    batched, queued = BATCH._value.get(), QUEUED._value.get()
    try:
        pending = [asyncio.create_task(writer.record(plain(0, match_id=f"m{i}", client_id="a"))) for i in range(3)]
        for _ in range(10):  # the loop turns while they wait
            await asyncio.sleep(0.01)
        assert not any(p.done() for p in pending)
        stale = asyncio.create_task(writer.record(plain(0, match_id="m1", client_id="b")))  # m1's version again
        await asyncio.sleep(0.01)
        held.execute("ROLLBACK")
        assert await asyncio.wait_for(asyncio.gather(*pending), 5) == [None, None, None]
        with pytest.raises(Conflict):
            await asyncio.wait_for(stale, 5)
        assert sizes == [4], "one transaction for every move queued while the lock was held"
        assert writer._task is None, "a plain move took the pooled path"
        assert (BATCH._value.get() - batched, QUEUED._value.get() - queued) == (3, 0)
        for i in range(3):
            match, moves = await stored(sessions, f"m{i}")
            assert match.v == 1 and [m.client_id for m in moves] == ["a"]
    finally:
        await writer.close()


async def test_the_end_of_a_pool_transaction_wakes_the_queue(
        sqlite_engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The queue does not wait for its next poll when the app's own pool ends the transaction that
    held the lock: the pool's check-in wakes it."""
    monkeypatch.setattr(batch, "FIRST_WAIT", 30.0)
    sessions = make_sessions(sqlite_engine)
    await new_match(sessions)
    writer = MoveWriter(sqlite_engine)
    try:
        async with sessions() as s:
            await s.execute(update(Match).where(Match.id == "m1").values(turn_seat=1))  # takes the write lock
            pending = asyncio.create_task(writer.record(plain(0, client_id="a")))
            await asyncio.sleep(0.05)
            assert not pending.done()
            await s.commit()
        started = time.perf_counter()
        await asyncio.wait_for(pending, 5)
        assert time.perf_counter() - started < 1.0
        match, moves = await stored(sessions)
        assert match.v == 1 and [m.client_id for m in moves] == ["a"]
    finally:
        await writer.close()


async def test_a_lock_held_past_the_timeout_fails_the_waiting_moves_and_the_writer_goes_on(
        sqlite_engine: AsyncEngine, held: sqlite3.Connection) -> None:
    sessions = make_sessions(sqlite_engine)
    await new_match(sessions)
    held.execute("BEGIN IMMEDIATE")
    writer = MoveWriter(sqlite_engine, lock_timeout=0.2)
    try:
        started = time.perf_counter()
        with pytest.raises(OperationalError, match="locked"):
            await asyncio.wait_for(writer.record(plain(0, client_id="a")), 5)
        assert 0.2 <= time.perf_counter() - started < 2
        held.execute("ROLLBACK")
        await asyncio.wait_for(writer.record(plain(0, client_id="b")), 5)
        match, moves = await stored(sessions)
        assert match.v == 1 and [m.client_id for m in moves] == ["b"]
    finally:
        await writer.close()
