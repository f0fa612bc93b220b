"""The WAL checkpointer (`app.store.db.WalCheckpointer`) on a real SQLite file: it moves what was
written into the database file, and a second in which nothing was written costs no checkpoint."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.store.db import WalCheckpointer


def _write(path: str, n: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_autocheckpoint=0")
        for i in range(n):
            db.execute("INSERT INTO t VALUES (?)", (i,))
    finally:
        db.close()


def test_it_checkpoints_what_was_written_and_skips_a_quiet_second(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE t (x INTEGER)")
    checkpointer = WalCheckpointer(path)
    try:
        _write(path, 50)
        assert checkpointer._checkpoint() is True
        assert checkpointer._checkpoint() is False  # nothing written since: no checkpoint, no connection used
        _write(path, 5)
        assert checkpointer._checkpoint() is True
        assert db.execute("SELECT count(*) FROM t").fetchone() == (55,)
    finally:
        db.close()
        if checkpointer._conn is not None:
            checkpointer._conn.close()
