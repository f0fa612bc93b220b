"""Database engines: the async driver for a plain URL, SQLite pragmas, the session maker.

`SPITE_DATABASE_URL` is a plain SQLAlchemy URL (`sqlite:///./spite.db`,
`postgresql://user@host/db`); `async_url` swaps in the async driver (aiosqlite / asyncpg).
SQLite runs in WAL mode with `synchronous=NORMAL` (a killed process loses nothing that was
committed) and a busy timeout so concurrent writers wait instead of failing.
"""

from __future__ import annotations

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


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str | URL, **kwargs: Any) -> AsyncEngine:
    """An async engine for a plain or async URL, with SQLite set up for concurrent use and
    JSON columns (de)serialised by orjson."""
    u = async_url(url)
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    if is_sqlite(u):
        # SQLite has one writer at a time: one connection, shared in turn, means transactions
        # queue in the app instead of sleeping in SQLite's busy handler (which costs p99 latency).
        kwargs.setdefault("pool_size", 1)
        kwargs.setdefault("max_overflow", 0)
        engine = create_async_engine(u, connect_args={"timeout": 10}, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_async_engine(u, **kwargs)


def make_sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
