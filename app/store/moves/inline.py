"""Committing a plain move on SQLite without leaving the event loop ("one hand-off per
batch, or none").

Measured by stage (docs/performance.md, "The move path by stage"), a durable move on SQLite
spent most of its time not in SQLite (about 30 µs of a ~0.1 ms transaction per move) but
waiting for the event loop: the writer task's wake-up, the checkout of the one shared
connection, a hop through aiosqlite's thread per statement, the commit and the pool's reset,
and the caller's wake-up — each a turn of a loop that is busy with every other room's frames.

`InlineCommit` keeps a connection of its own to the SQLite file, used only from the event
loop's thread, and commits a plain move (its row, and its match advanced where still at the
version the move was computed from) synchronously, inside the caller's own step: nothing
awaits, so nobody is told of the move before its commit returns. It never waits for a lock:
the connection's busy timeout is 0, and when another connection (the app's pool, another
process) holds the write lock, `commit` raises `Locked` having written nothing, and the move
takes the queued path (`MoveWriter`), which waits for the lock off the loop. A checkpoint never
runs inside these commits (`wal_autocheckpoint` is off here; `WalCheckpointer` does them).
"""

from __future__ import annotations

import sqlite3
from typing import Any


class Locked(Exception):
    """Another connection holds the database's write lock: nothing was written."""


class Refused(Exception):
    """The move's version or move id is taken: nothing was written."""


class InlineCommit:
    """Synchronous commits of plain moves on a SQLite file, on the event loop's thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(self.path, isolation_level=None)  # transactions are explicit below
            db.execute("PRAGMA busy_timeout=0")
            db.execute("PRAGMA synchronous=NORMAL")  # as the app's pool (db.py): WAL, no fsync per commit
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._db = db
        return self._db

    def commit(self, insert_sql: str, move: tuple[Any, ...], advance_sql: str, advance: tuple[Any, ...],
               fallback: tuple[str, tuple[Any, ...]] | None = None) -> None:
        """Insert the move row and advance its match in one transaction. Raises `Locked` or
        `Refused` (nothing written) or the database's own error for a bad row (rolled back).
        `fallback`: another advance, tried in the same transaction when the first finds no row
        (the lean advance of `plain.PlainStatements`, whose WHERE checks more than the version)."""
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _is_lock(e):
                raise Locked() from e
            raise
        try:
            db.execute(insert_sql, move)
            if db.execute(advance_sql, advance).rowcount != 1 and (
                    fallback is None or db.execute(*fallback).rowcount != 1):
                raise Refused()
            db.execute("COMMIT")
        except sqlite3.IntegrityError as e:
            db.execute("ROLLBACK")
            raise Refused() from e
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _is_lock(e: sqlite3.OperationalError) -> bool:
    text = str(e)
    return "locked" in text or "busy" in text
