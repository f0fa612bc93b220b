"""A room's other short writes on a SQLite file (a lobby change, a rematch offer, a match's start,
a hand's deal) committed on the event loop's thread, as the inline commit does a plain move.

Through the app's pool such a transaction is an ORM session: a checkout, a hop to aiosqlite's
thread for every statement and the commit, the pool's reset; measured in one process, about
1.0 ms of CPU for a room update and 2.1 ms for a match's start, and the write lock held across
every hop (so plain moves meeting it wait: `moves.batch`). Here the same Core statements run on a
synchronous SQLAlchemy connection of its own (SQLite's own driver, the statement cache, no greenlet
or thread): 0.27 and 0.88 ms, the lock held only inside the caller's step.

`run_now` runs the writer's own async statements for a move that ends a hand or the match
(`moves.writer._write`: written against an `AsyncConnection`, awaiting only its statements) on
the same connection, to their end at once: each awaited statement is executed synchronously.

`run` never waits for the lock: the connection's busy timeout is 0 and its transactions begin
with `BEGIN IMMEDIATE`; when another connection holds the lock it raises `Locked` having run
nothing, and the caller takes its pooled path, which waits off the loop. The transaction is
committed before `run` returns (nobody is told before), or rolled back if the work raises.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import SingletonThreadPool

from app.store.db import json_dumps
from app.store.errors import Locked, is_lock

T = TypeVar("T")


class InlineWrites:
    """Short Core transactions on a SQLite file, synchronously on the loop's thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._engine: Engine | None = None

    def _connect(self) -> Engine:
        if self._engine is None:
            engine = create_engine(f"sqlite:///{self.path}", poolclass=SingletonThreadPool, pool_size=1,
                                   json_serializer=json_dumps, json_deserializer=orjson.loads)
            event.listen(engine, "connect", _pragmas)
            event.listen(engine, "begin", _begin_immediate)
            self._engine = engine
        return self._engine

    def run(self, work: Callable[[Connection], T]) -> T:
        """`work` in a transaction holding the write lock, committed before this returns;
        `Locked` (nothing run) if another connection holds the lock."""
        with self._connect().connect() as conn:
            try:
                conn.begin()
            except OperationalError as e:
                if isinstance(e.orig, sqlite3.OperationalError) and is_lock(e.orig):
                    raise Locked() from e
                raise
            try:
                done = work(conn)
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
        return done

    def run_now(self, work: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """`run` for async store code: `work` is given an awaitable face of the connection
        (`execute`, `exec_driver_sql`, `dialect`) and run to its end at once. RuntimeError (rolled
        back) if it awaits anything but its statements."""
        return self.run(lambda conn: _to_end(work(_Awaitable(conn))))

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


class _Awaitable:
    """A synchronous connection with the awaitable face of an `AsyncConnection`'s statements."""

    def __init__(self, conn: Connection) -> None:
        self.conn, self.dialect = conn, conn.dialect

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self.conn.execute(*args, **kwargs)

    async def exec_driver_sql(self, *args: Any, **kwargs: Any) -> Any:
        return self.conn.exec_driver_sql(*args, **kwargs)


def _to_end(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends; its value."""
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    coro.close()
    raise RuntimeError("store code run at once awaited something else than its statements")


def _pragmas(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None  # transactions are begun by `_begin_immediate`
    for pragma in ("busy_timeout=0", "synchronous=NORMAL", "foreign_keys=ON", "wal_autocheckpoint=0"):
        dbapi_conn.execute(f"PRAGMA {pragma}")


def _begin_immediate(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")
