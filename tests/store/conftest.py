"""Store fixtures: a migrated engine on the test's fresh database (SQLite always, PostgreSQL when
SPITE_TEST_POSTGRES_URL is set), its sessions, and move writers closed at the end."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.store import migrate
from app.store.db import make_engine, make_sessions
from app.store.moves.writer import MoveWriter


@pytest.fixture
async def engine(db_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(db_url)
    await migrate.upgrade(engine)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest.fixture
def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return make_sessions(engine)


@pytest.fixture
async def writers(engine: AsyncEngine) -> AsyncIterator[Callable[..., MoveWriter]]:
    """Make move writers on the test's engine; all closed at the end."""
    made: list[MoveWriter] = []

    def make(**kwargs: Any) -> MoveWriter:
        made.append(MoveWriter(engine, **kwargs))
        return made[-1]

    yield make
    for w in made:
        await w.close()


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """A migrated SQLite file whatever the test database is (the inline commit is SQLite's)."""
    engine = make_engine(f"sqlite:///{tmp_path}/inline.db")
    await migrate.upgrade(engine)
    try:
        yield engine
    finally:
        await engine.dispose()
