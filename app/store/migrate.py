"""Bring a database to the latest schema with Alembic, safely when several instances start.

PostgreSQL: the whole upgrade runs in one transaction holding a transaction-level advisory
lock, so a second instance waits, then finds the schema at head and does nothing.
SQLite: an exclusive lock on a file (in the temp folder, named after the database's path)
serialises the upgrades of instances on this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.db import sqlite_file

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"
ADVISORY_KEY = 0x5A17E_0001  # any constant shared by every instance of this app


def alembic_config() -> Config:
    """The Alembic configuration of this repository (migrations/ beside app/)."""
    cfg = Config(str(ROOT / "alembic.ini")) if (ROOT / "alembic.ini").exists() else Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _alembic(connection: Connection, step: Callable[[Config, str], None], target: str) -> None:
    """Run Alembic's `step` (command.upgrade or command.downgrade) on `connection`."""
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    step(cfg, target)


@contextlib.asynccontextmanager
async def _file_lock(path: str) -> AsyncIterator[None]:
    digest = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:16]
    lock_path = os.path.join(tempfile.gettempdir(), f"spite-migrate-{digest}.lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


async def upgrade(engine: AsyncEngine, target: str = "head") -> None:
    """Upgrade the database behind `engine` to `target` (default: head)."""
    if engine.dialect.name == "postgresql":
        async with engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_KEY})
            await conn.run_sync(_alembic, command.upgrade, target)
        return
    path = sqlite_file(engine.url)
    lock = _file_lock(path) if path else contextlib.nullcontext()
    async with lock, engine.begin() as conn:
        await conn.run_sync(_alembic, command.upgrade, target)


async def downgrade(engine: AsyncEngine, target: str = "base") -> None:
    """Downgrade (tests and operators only)."""
    async with engine.begin() as conn:
        await conn.run_sync(_alembic, command.downgrade, target)


async def revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None: empty)."""
    async with engine.connect() as conn:
        return await conn.run_sync(current_revision)
