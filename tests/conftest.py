"""Shared fixtures: a fresh database per test, on SQLite always and on PostgreSQL whenever
SPITE_TEST_POSTGRES_URL is set (each test gets its own uniquely named database)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import make_url

POSTGRES = os.environ.get("SPITE_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgres"] if POSTGRES else [])


async def _admin(sql: str) -> None:
    import asyncpg

    assert POSTGRES is not None
    u = make_url(POSTGRES)
    conn = await asyncpg.connect(user=u.username, password=u.password, host=u.host or "127.0.0.1",
                                 port=u.port or 5432, database=u.database or "postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def fresh_database_url(backend: str, folder: str) -> str:
    """A URL of a new, empty database (created here for PostgreSQL)."""
    if backend == "sqlite":
        return f"sqlite:///{folder}/spite-{uuid.uuid4().hex[:8]}.db"
    assert POSTGRES is not None
    name = f"spite_test_{uuid.uuid4().hex}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    u = make_url(url)
    if u.drivername.startswith("postgres"):
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """A plain URL (as SPITE_DATABASE_URL takes it) of a fresh empty database."""
    url = fresh_database_url(request.param, str(tmp_path))
    try:
        yield url
    finally:
        drop_database(url)
