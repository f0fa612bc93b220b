"""Store errors, and the two ways an optimistic write turns into one."""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession


class Conflict(Exception):
    """Another writer got there first (a unique version or revision was already taken).

    The caller's picture of the room is stale: reload it from the store.
    """


class Locked(Exception):
    """Another connection holds the SQLite file's write lock: nothing was written (the writes
    tried on the event loop's thread never wait for it)."""


def is_lock(e: sqlite3.OperationalError) -> bool:
    """Is this error SQLite saying another connection holds the lock?"""
    text = str(e)
    return "locked" in text or "busy" in text


async def save(session: AsyncSession, what: str, *, commit: bool = True) -> None:
    """Commit (or only flush) the session; a unique key already taken rolls it back and is a
    `Conflict(what)`."""
    try:
        await (session.commit() if commit else session.flush())
    except IntegrityError as e:
        await session.rollback()
        raise Conflict(what) from e


async def update_one(session: AsyncSession, stmt: Any, what: str) -> None:
    """Run a conditional UPDATE (`... WHERE id = ? AND version = ?`) that must change exactly
    one row; if it changes none, another writer moved the row on: roll back, `Conflict(what)`."""
    result = await session.execute(stmt.execution_options(synchronize_session=False))
    if result.rowcount != 1:  # type: ignore[attr-defined]
        await session.rollback()
        raise Conflict(what)
