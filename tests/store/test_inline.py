"""The inline commit (`app.store.moves.inline.InlineCommit`) on a real SQLite file, with the move
writer's own statements: one transaction per move, nothing written when it refuses, never a
wait for a lock, and a connection that stays usable after each refusal."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from app.domain.records import HandEnd
from app.domain.writes import MatchChange, MoveWrite
from app.store.errors import Conflict
from app.store.moves.inline import InlineCommit, Locked, Refused
from app.store.moves.plain import PlainStatements
from app.store.moves.writer import MoveWriter
from app.store.tables import utcnow

from .moves import new_match, plain, playing

Statements = tuple[str, tuple[Any, ...], str, tuple[Any, ...]]


@pytest.fixture
async def path(sqlite_engine: AsyncEngine) -> str:
    """A SQLite file with match `m1` at version 0."""
    from app.store.db import make_sessions

    await new_match(make_sessions(sqlite_engine))
    database = make_url(str(sqlite_engine.url)).database
    assert database is not None
    return database


@pytest.fixture
def inline(path: str) -> Iterator[InlineCommit]:
    commit = InlineCommit(path)
    try:
        yield commit
    finally:
        commit.close()


@pytest.fixture
def fast(sqlite_engine: AsyncEngine) -> PlainStatements:
    return PlainStatements(sqlite_engine.dialect)


def _statements(fast: PlainStatements, write: MoveWrite) -> Statements:
    return fast.insert.sql, fast.move(write, utcnow()), fast.advance.sql, fast.advances(write)[0]


def _read(path: str) -> tuple[int, list[tuple[int, str | None]]]:
    """The match's version and its move rows, read on a connection of the test's own."""
    db = sqlite3.connect(path)
    try:
        v = db.execute("SELECT v FROM matches WHERE id = 'm1'").fetchone()[0]
        moves = db.execute("SELECT seq, client_id FROM moves WHERE match_id = 'm1' ORDER BY seq").fetchall()
        return v, moves
    finally:
        db.close()


def test_a_commit_writes_the_row_and_advances_the_match_before_it_returns(
        inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    inline.commit(*_statements(fast, plain(0, client_id="a", totals=[3, 0])))
    inline.commit(*_statements(fast, plain(1, client_id="b")))
    assert _read(path) == (2, [(1, "a"), (2, "b")])


def test_a_match_no_longer_at_the_moves_version_is_refused_and_nothing_written(
        inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    inline.commit(*_statements(fast, plain(0, client_id="a")))
    with pytest.raises(Refused):  # computed from version 0 again, taking version 5: the row fits, the match not
        inline.commit(*_statements(fast, plain(0, client_id="b", seq=5)))
    assert _read(path) == (1, [(1, "a")])


def test_a_taken_version_or_move_id_is_refused_and_the_connection_goes_on(
        inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    inline.commit(*_statements(fast, plain(0, client_id="a")))
    with pytest.raises(Refused):
        inline.commit(*_statements(fast, plain(0, client_id="b")))  # version 1 is taken
    resent = replace(plain(1, client_id="a"), seat=0)
    with pytest.raises(Refused):
        inline.commit(*_statements(fast, resent))  # seat 0's move id "a" is taken
    inline.commit(*_statements(fast, plain(1, client_id="c")))
    assert _read(path) == (2, [(1, "a"), (2, "c")])


def test_a_write_lock_held_elsewhere_is_locked_at_once_with_nothing_written(
        inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.perf_counter()
        with pytest.raises(Locked):
            inline.commit(*_statements(fast, plain(0, client_id="a")))
        waited = time.perf_counter() - started
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert waited < 0.5, f"waited {waited:.3f} s for the lock"  # busy_timeout 0: no wait (sqlite's default is 5 s)
    assert _read(path) == (0, [])
    inline.commit(*_statements(fast, plain(0, client_id="a")))  # the lock is free again
    assert _read(path) == (1, [(1, "a")])


def test_a_row_the_database_cannot_take_rolls_back_and_the_connection_goes_on(
        inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    insert_sql, move, advance_sql, advance = _statements(fast, plain(0, client_id="a"))
    with pytest.raises(sqlite3.ProgrammingError):  # one parameter short
        inline.commit(insert_sql, move, advance_sql, advance[:-1])
    assert _read(path) == (0, [])
    inline.commit(insert_sql, move, advance_sql, advance)
    assert _read(path) == (1, [(1, "a")])


def test_commits_never_checkpoint_the_wal(inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    """Checkpoints are `WalCheckpointer`'s, off the move path: after many commits here the WAL
    still holds them all."""
    for v in range(600):  # well past SQLite's default autocheckpoint (1000 pages)
        inline.commit(*_statements(fast, plain(v)))
    db = sqlite3.connect(path)
    try:
        log_frames = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    finally:
        db.close()
    assert log_frames >= 1200, f"only {log_frames} frames in the WAL: something checkpointed"


def test_closed_it_opens_again_on_the_next_commit(inline: InlineCommit, fast: PlainStatements, path: str) -> None:
    inline.commit(*_statements(fast, plain(0)))
    inline.close()
    inline.commit(*_statements(fast, plain(1)))
    assert _read(path)[0] == 2


def _row(path: str) -> tuple[int, str, str | None, str]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT v, status, wake_at, totals FROM matches WHERE id = 'm1'").fetchone()
    finally:
        db.close()


async def test_the_writers_lean_advance_changes_what_a_move_changes_and_checks_the_version(
        sqlite_engine: AsyncEngine, path: str) -> None:
    """A live room's plain move takes the lean advance (status and wake time checked, not set):
    the row ends as the full advance would leave it, and a taken version is still refused."""
    writer = MoveWriter(sqlite_engine)
    try:
        await writer.record(plain(0, client_id="a", totals=[3, 0]))
        with pytest.raises(Conflict):
            await writer.record(plain(0, client_id="b"))
        assert _row(path) == (1, "playing", None, "[3,0]")
        assert _read(path) == (1, [(1, "a")])
    finally:
        await writer.close()


async def test_a_row_the_lean_advance_does_not_fit_is_advanced_by_the_full_one(
        sqlite_engine: AsyncEngine, path: str) -> None:
    """The row still has a wake time (it was written by a turn-based rule) and the move clears it:
    the lean form finds no row, the full one in the same transaction advances it."""
    db = sqlite3.connect(path)
    db.execute("UPDATE matches SET wake_at = '2026-12-02 10:00:00.000000' WHERE id = 'm1'")
    db.commit()
    db.close()
    writer = MoveWriter(sqlite_engine)
    try:
        await writer.record(plain(0, client_id="a"))
        assert _row(path) == (1, "playing", None, "[0,0]")
        with pytest.raises(Conflict):  # the full form checks the version too
            await writer.record(plain(0, client_id="b", seq=7))
        assert _read(path) == (1, [(1, "a")])
    finally:
        await writer.close()


def _spy(writer: MoveWriter, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """The advance statement (and its fallback) of each inline commit `writer` runs from now on."""
    assert writer._inline is not None
    seen: list[tuple[str, str | None]] = []
    commit = writer._inline.commit

    def spied(insert_sql: str, move: Any, advance_sql: str, advance: Any, fallback: Any = None) -> None:
        seen.append((advance_sql, fallback[0] if fallback is not None else None))
        commit(insert_sql, move, advance_sql, advance, fallback)

    monkeypatch.setattr(writer._inline, "commit", spied)
    return seen


async def test_a_records_typed_fields_choose_its_statements(
        sqlite_engine: AsyncEngine, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain record of a live room (still playing, no wake time) takes the lean advance, with the
    full one as its fallback; one that sets a wake time (turn-based) takes the full advance; one
    that ends a hand is not plain: it is committed at once too, by the queue's own statements on
    the writer's synchronous connection (`MoveWriter._end_at_once`), not by the plain commit."""
    writer = MoveWriter(sqlite_engine)
    fast = PlainStatements(sqlite_engine.dialect)
    seen = _spy(writer, monkeypatch)
    try:
        await writer.record(plain(0, client_id="a"))
        wake = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
        await writer.record(replace(plain(1, client_id="b"), match=replace(playing([0, 0]), wake_at=wake)))
        assert seen == [(fast.lean.sql, fast.advance.sql), (fast.advance.sql, None)]
        assert writer._task is None
        assert _row(path)[:3] == (2, "playing", "2026-12-02 10:00:00.000000")
        end = HandEnd(number=1, result={"reason": "payoff_out"}, points=[0, 12], totals=[0, 12], payoff_left=[5, 0])
        await writer.record(replace(plain(2), match=MatchChange("hand_over", [0, 12], None, None, None, None),
                                    hand_end=end))
        assert len(seen) == 2, "a hand's end took the plain commit"
        assert writer._task is None, "a hand's end waited in the queue with the lock free"
        assert _row(path) == (3, "hand_over", None, "[0,12]")
    finally:
        await writer.close()
