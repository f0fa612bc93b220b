"""The server on psycopg 3 instead of asyncpg, for `bench/load.py --driver psycopg` (to
choose the PostgreSQL driver by measurement). The app always names asyncpg for a plain
`postgresql://` URL (app/store/db.py); this wrapper swaps in SQLAlchemy's `postgresql+psycopg`
dialect and psycopg's own connection timeouts before the app is imported, then runs uvicorn.
Needs `pip install 'psycopg[binary]'` (not a dependency of the app).

    python bench/psycopg_server.py <uvicorn arguments>
"""

from __future__ import annotations

import sys
from typing import Any

import uvicorn.main
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.store import db


def make_engine(url: str | URL, *, timeout: float = 5.0, **kwargs: Any) -> AsyncEngine:
    u = db.async_url(url)
    if db.is_sqlite(u):
        return original(url, timeout=timeout, **kwargs)
    kwargs.setdefault("json_serializer", db.json_dumps)
    kwargs.setdefault("pool_timeout", timeout)
    kwargs.setdefault("pool_pre_ping", True)
    bounds = {"connect_timeout": max(1, round(timeout)), "options": f"-c statement_timeout={round(timeout * 2000)}"}
    return create_async_engine(u.set(drivername="postgresql+psycopg"), connect_args=bounds, **kwargs)


original = db.make_engine
db.make_engine = make_engine  # before app.web.app imports it

if __name__ == "__main__":
    sys.argv = ["uvicorn", *sys.argv[1:]]
    uvicorn.main.main()
