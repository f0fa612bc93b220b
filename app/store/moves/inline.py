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
takes the queue (`batch.PlainBatches`), which waits for the lock without blocking the loop and
then commits every plain move queued meanwhile in one transaction on this same connection
(`commit_many`). A checkpoint never runs inside these commits (`wal_autocheckpoint` is off here;
`WalCheckpointer` does them).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.store.errors import Locked, is_lock

__all__ = ["Advance", "InlineCommit", "Locked", "Refused", "Row"]

Row = tuple[Any, ...]
# A move's match advance: its statement and row, and the fallback tried when it finds no row.
Advance = tuple[str, Row, tuple[str, Row] | None]


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
        db = self._begin()
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

    def commit_many(self, insert_sql: str, moves: list[Row], advances: list[Advance]) -> list[Exception | None]:
        """Commit several plain moves in one transaction: their rows in one executemany, then
        each match advanced. Raises `Locked` (nothing written) or the database's own error when
        the transaction itself fails (nothing written). Returns each move's outcome, in order:
        None (committed), `Refused`, or the database's error for its row. A move refused spoils
        only itself: the batch is rolled back to its start and each move written again under a
        savepoint of its own, in the same transaction, still holding the write lock."""
        db = self._begin()
        try:
            db.execute("SAVEPOINT batch")
            try:
                db.executemany(insert_sql, moves)
                for sql, row, fallback in advances:
                    if db.execute(sql, row).rowcount != 1 and (fallback is None or db.execute(*fallback).rowcount != 1):
                        raise Refused()
                outcomes: list[Exception | None] = [None] * len(moves)
            except (Refused, sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
                db.execute("ROLLBACK TO batch")
                outcomes = [self._one(db, insert_sql, m, a) for m, a in zip(moves, advances, strict=True)]
            db.execute("RELEASE batch")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return outcomes

    @staticmethod
    def _one(db: sqlite3.Connection, insert_sql: str, move: Row, advance: Advance) -> Exception | None:
        """Write one move of a refused batch under a savepoint of its own: its outcome."""
        sql, row, fallback = advance
        db.execute("SAVEPOINT one")
        try:
            db.execute(insert_sql, move)
            if db.execute(sql, row).rowcount != 1 and (fallback is None or db.execute(*fallback).rowcount != 1):
                raise Refused()
        except (Refused, sqlite3.IntegrityError) as e:
            db.execute("ROLLBACK TO one")
            db.execute("RELEASE one")
            return e if isinstance(e, Refused) else Refused()
        except (sqlite3.ProgrammingError, sqlite3.InterfaceError) as e:  # a row the driver cannot bind
            db.execute("ROLLBACK TO one")
            db.execute("RELEASE one")
            return e
        db.execute("RELEASE one")
        return None

    def _begin(self) -> sqlite3.Connection:
        """The connection, in a transaction holding the write lock; `Locked` if another holds it."""
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if is_lock(e):
                raise Locked() from e
            raise
        return db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
