"""Plain moves that found SQLite's write lock taken, committed together on the loop's thread as
soon as it frees ("group commit without the thread hop").

The inline commit (`inline.InlineCommit`) never waits for the lock: when another connection
holds it (the app's pool in a transaction — a deal, a rematch, a hand's end, a lease — or
another process) its move joins this queue. The queue's task tries `BEGIN IMMEDIATE` on the
same connection of the writer's own; while the lock is taken it waits without blocking the
loop, woken when the app's pool takes back a connection (`freed`: a transaction of the pool has
ended) or after a short sleep (another process: 0.5 ms, doubling to 8 ms), and as soon as it
holds the lock it writes every move queued by then (up to `max_batch`) in one transaction,
synchronously: one executemany of the rows, each match advanced, COMMIT; then it wakes their
callers. Nothing awaits while the lock is held, so this path never keeps the lock across a turn
of the loop (a transaction of the pool keeps it across a hop to aiosqlite's thread for every
statement) and never makes the next inline commit fail.

The writer's guarantees hold: a caller returns only once its move's row is committed (a
cancelled caller's move is committed all the same); a move whose version or move id is taken
fails alone (`Refused`, the others committed in the same transaction: `commit_many`); a
transaction that fails as a whole (the file cannot be opened, the disk is full) fails every move
of the batch with the database's error, once; a lock held by others longer than `timeout` fails
the moves that waited that long with "database is locked", as the pool's busy timeout would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError

from app.store.moves.counters import BATCH, COMMIT_BATCH
from app.store.moves.inline import Advance, InlineCommit, Locked, Row

log = logging.getLogger(__name__)
FIRST_WAIT, LONGEST_WAIT = 0.0005, 0.008  # seconds between tries while another process holds the lock


@dataclass(slots=True)
class Pending:
    """A queued move: its row and advance as the inline commit bound them, its caller's future
    (None: committed; else the error to raise) and when it was queued (the loop's time)."""

    move: Row
    advance: Advance
    done: asyncio.Future[Exception | None]
    since: float


class PlainBatches:
    """The queue of plain moves waiting for SQLite's write lock, and the task that commits them."""

    def __init__(self, inline: InlineCommit, insert_sql: str, max_batch: int = 500, timeout: float = 5.0) -> None:
        self.inline, self.insert_sql = inline, insert_sql
        self.max_batch, self.timeout = max_batch, timeout
        self._queue: list[Pending] = []
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = 0
        self._wake: asyncio.Future[None] | None = None  # the task's sleep, when it sleeps
        self._for_lock = False  # the task sleeps until the lock may be free (not for more moves)
        self._closed = False

    def add(self, move: Row, advance: Advance) -> asyncio.Future[Exception | None]:
        """Queue a move; its future is resolved once it is committed (None) or refused."""
        if self._closed:
            raise RuntimeError("the move writer is closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Exception | None] = loop.create_future()
        self._queue.append(Pending(move, advance, done, loop.time()))
        if self._task is None or self._task.done():
            self._loop, self._thread = loop, threading.get_ident()
            self._task = loop.create_task(self._run())
        elif not self._for_lock:
            self._nudge()
        return done

    @property
    def waiting(self) -> bool:
        """Moves are queued (the task waits for the lock, or is about to run)."""
        return bool(self._queue)

    def freed(self) -> None:
        """The lock may be free (the app's pool ended a transaction, or an inline commit just
        got it): try now. Safe from any thread."""
        if not self._queue or self._loop is None:
            return
        if threading.get_ident() == self._thread:
            self._nudge()
        else:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                self._loop.call_soon_threadsafe(self._nudge)

    async def close(self) -> None:
        """Commit what is queued (waiting for the lock up to `timeout`), then stop."""
        self._closed = True
        self._nudge()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task

    def _nudge(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def _sleep(self, seconds: float | None, *, for_lock: bool) -> None:
        loop = asyncio.get_running_loop()
        self._wake, self._for_lock = loop.create_future(), for_lock
        timer = loop.call_later(seconds, self._nudge) if seconds is not None else None
        try:
            await self._wake
        finally:
            self._wake, self._for_lock = None, False
            if timer is not None:
                timer.cancel()

    async def _run(self) -> None:
        wait = FIRST_WAIT
        while True:
            if not self._queue:
                if self._closed:
                    return
                await self._sleep(None, for_lock=False)
                continue
            batch = self._queue[:self.max_batch]
            try:
                outcomes = self._commit(batch)
            except Locked:
                self._expire()
                await self._sleep(wait, for_lock=True)
                wait = min(wait * 2, LONGEST_WAIT)
                continue
            except Exception as e:  # the transaction itself failed: every move of the batch, once
                del self._queue[:len(batch)]
                log.warning("a batch of %d plain moves failed: %s", len(batch), e)
                for p in batch:
                    _resolve(p.done, _as_database_error(e))
                continue
            wait = FIRST_WAIT
            del self._queue[:len(batch)]
            COMMIT_BATCH.observe(len(batch))
            BATCH.inc(sum(1 for outcome in outcomes if outcome is None))
            for p, outcome in zip(batch, outcomes, strict=True):
                _resolve(p.done, outcome)

    def _commit(self, batch: list[Pending]) -> list[Exception | None]:
        """One transaction for the batch, synchronously (`InlineCommit.commit_many`)."""
        return self.inline.commit_many(self.insert_sql, [p.move for p in batch], [p.advance for p in batch])

    def _expire(self) -> None:
        """Fail the moves that have waited longer than `timeout` for the lock."""
        assert self._loop is not None
        oldest = self._loop.time() - self.timeout
        n = next((i for i, p in enumerate(self._queue) if p.since > oldest), len(self._queue))
        if n:
            expired, self._queue = self._queue[:n], self._queue[n:]
            log.warning("%d plain moves waited %.1f s for the database's write lock", n, self.timeout)
            locked = _as_database_error(sqlite3.OperationalError("database is locked"))
            for p in expired:
                _resolve(p.done, locked)


def _as_database_error(e: Exception) -> Exception:
    """The driver's error as SQLAlchemy raises it on the pooled path (what the callers know)."""
    if isinstance(e, sqlite3.Error) and not isinstance(e, sqlite3.ProgrammingError | sqlite3.InterfaceError):
        return DBAPIError.instance(None, None, e, sqlite3.Error)
    return e


def _resolve(done: asyncio.Future[Exception | None], outcome: Exception | None) -> None:
    if not done.done():
        done.set_result(outcome)
