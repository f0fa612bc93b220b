"""Migrations: an empty database goes to head (also when two instances start at once), and
back down and up again; the schema at head matches the models."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.store import migrate
from app.store.db import make_engine
from app.store.tables import Base


async def test_empty_to_head_and_back(empty_db_url: str) -> None:
    engines = [make_engine(empty_db_url), make_engine(empty_db_url)]
    try:
        assert await migrate.revision(engines[0]) is None
        await asyncio.gather(*(migrate.upgrade(e) for e in engines))
        assert await migrate.revision(engines[0]) == migrate.head_revision()
        async with engines[0].connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            diff = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata))
        assert {"players", "rooms", "matches", "seats", "hands", "moves", "scores", "presence"} <= tables
        assert diff == [], diff
        await migrate.downgrade(engines[0], "base")
        assert await migrate.revision(engines[0]) is None
        async with engines[0].connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert tables <= {"alembic_version"}
        await migrate.upgrade(engines[1])
        assert await migrate.revision(engines[1]) == migrate.head_revision()
    finally:
        for e in engines:
            await e.dispose()
