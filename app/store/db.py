"""Database engines: the async driver for a plain URL, SQLite pragmas, the session maker.

`SPITE_DATABASE_URL` is a plain SQLAlchemy URL (`sqlite:///./spite.db`,
`postgresql://user@host/db`); `async_url` swaps in the async driver (aiosqlite / asyncpg).
SQLite runs in WAL mode with `synchronous=NORMAL` (a killed process loses nothing that was
committed) and a busy timeout so concurrent writers wait instead of failing. The server
checkpoints the WAL itself, in a thread (`WalCheckpointer`), so no commit stalls on the
fsyncs of a checkpoint; SQLite's own automatic checkpoint stays as a backstop at 40 MB.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}


def async_url(url: str | URL) -> URL:
    """The URL with this app's async driver for its backend (other backends are refused)."""
    u = make_url(url) if isinstance(url, str) else url
    backend = u.drivername.split("+", 1)[0]
    if backend not in ASYNC_DRIVERS:
        raise ValueError(f"unsupported database {u.drivername!r}: use sqlite:/// or postgresql://")
    return u.set(drivername=ASYNC_DRIVERS[backend])


def is_sqlite(url: str | URL) -> bool:
    u = make_url(url) if isinstance(url, str) else url
    return u.drivername.startswith("sqlite")


def sqlite_file(url: str | URL) -> str | None:
    """The file a SQLite URL points at, or None for an in-memory database."""
    u = make_url(url) if isinstance(url, str) else url
    if not is_sqlite(u) or not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        return None
    return u.database


def _sqlite_pragmas(busy_ms: int) -> Any:
    def pragmas(dbapi_conn: Any, _record: Any) -> None:
        _set_pragmas(dbapi_conn, busy_ms)

    return pragmas


def _set_pragmas(dbapi_conn: Any, busy_ms: int) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    cur.execute("PRAGMA wal_autocheckpoint=10000")
    cur.close()


def json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str | URL, *, timeout: float = 5.0, **kwargs: Any) -> AsyncEngine:
    """An async engine for a plain or async URL, with SQLite set up for concurrent use and
    JSON columns (de)serialised by orjson. `timeout` bounds every wait on the database
    (connecting, a free connection, a lock another process holds, a statement), so a database
    that is away is reported within seconds instead of after a long hang."""
    u = async_url(url)
    kwargs.setdefault("json_serializer", json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    kwargs.setdefault("pool_timeout", timeout)
    if is_sqlite(u):
        # SQLite has one writer at a time: one connection, shared in turn, means transactions
        # queue in the app instead of sleeping in SQLite's busy handler (which costs p99 latency).
        kwargs.setdefault("pool_size", 1)
        kwargs.setdefault("max_overflow", 0)
        engine = create_async_engine(u, connect_args={"timeout": timeout}, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas(int(timeout * 1000)))
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(u, connect_args={"timeout": timeout, "command_timeout": timeout * 2}, **kwargs)


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


class WalCheckpointer:
    """Checkpoints a SQLite file's WAL every `every` seconds from a connection and thread of
    its own (PASSIVE: it never blocks a writer or a reader), so commits never pay for it.

    The connection is opened once (opening one reads the whole schema: that was most of an idle
    server's CPU) and a second with nothing written since the last checkpoint (the WAL file's
    size and time unchanged) is skipped."""

    def __init__(self, path: str, every: float = 1.0) -> None:
        self.path, self.every = path, every
        self._task: asyncio.Task[None] | None = None
        self._conn: sqlite3.Connection | None = None
        self._wal_seen: tuple[int, int] | None = None
        self._using = threading.Lock()  # a checkpoint's thread may outlive its cancelled task

    def _wal(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path + "-wal")
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def _checkpoint(self) -> bool:
        """One checkpoint, unless nothing was written since the last (then False)."""
        wal = self._wal()
        if wal is not None and wal == self._wal_seen:
            return False
        with self._using:
            if self._conn is None:  # one checkpoint at a time, from whichever worker thread runs it
                self._conn = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self._wal_seen = self._wal()
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await asyncio.to_thread(self._checkpoint)
            except Exception:
                logging.getLogger(__name__).warning("WAL checkpoint failed", exc_info=True)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with self._using:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
