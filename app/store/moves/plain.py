"""The plain-move statements, compiled once for SQLite (a lean storage hot path).

A plain move (no hand end, no room change) is two statements: its row inserted, its match
advanced where still at the version the move was computed from. Both are Core statements
compiled once for the dialect; each call only runs the columns' own bind processors over the
values, in the compiled order (`_Compiled.row`), and hands SQL text and a tuple to the driver.
No ORM object, session, pool checkout or statement cache lookup is on this path.

The advance has two forms. **Lean**: for the usual move that leaves its match's status as it
was and its wake time empty (every live-paced room), it sets only what a move changes (version,
totals, turn deadline, time, seat to move) and checks the rest in its WHERE clause, so SQLite
rewrites no entry of the indexes on `status` and `wake_at` (two index pages fewer in each
commit's WAL frames: 73 → 57 µs of SQLite per move, docs/performance.md). **Full**: every plain
field set; used when the status or wake time changes, and as a second try when the lean form
finds no row (the version still decides: a row at another version is refused either way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Dialect, Table, bindparam, insert, update
from sqlalchemy.sql.compiler import SQLCompiler

from app.store.tables import Match, Move

MOVES, MATCHES = (cast(Table, t.__table__) for t in (Move, Match))
MOVE_KEYS = ("match_id", "seq", "hand_number", "seat", "actor", "client_id", "payload", "created_at")
Proc = Callable[[Any], Any] | None


class _Compiled:
    """A Core statement compiled once for a positional-parameter dialect, with each
    parameter's bind processor: `row` turns a dict into the driver's tuple."""

    def __init__(self, stmt: Any, dialect: Dialect) -> None:
        compiled = stmt.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler) and compiled.positiontup is not None
        self.sql = str(compiled)
        self.order = list(compiled.positiontup)
        procs: list[Proc] = [compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
                             for name in self.order]
        self.pairs = list(zip(self.order, procs, strict=True))

    def row(self, p: dict[str, Any]) -> tuple[Any, ...]:
        return tuple([p[name] if proc is None else proc(p[name]) for name, proc in self.pairs])

    def rows(self, params: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [self.row(p) for p in params]


class PlainStatements:
    """The plain-move statements, compiled for SQLite."""

    def __init__(self, dialect: Dialect) -> None:
        c = MATCHES.c
        self.insert = _Compiled(insert(MOVES).values({k: bindparam(k) for k in MOVE_KEYS}), dialect)
        self.advance = _Compiled(
            update(MATCHES).where(c.id == bindparam("b_id"), c.v == bindparam("b_expect"))
            .values(v=bindparam("b_v"), status=bindparam("b_status"), totals=bindparam("b_totals"),
                    turn_deadline=bindparam("b_deadline"), wake_at=bindparam("b_wake"),
                    last_move_at=bindparam("b_last"), turn_seat=bindparam("b_turn")), dialect)
        self.lean = _Compiled(
            update(MATCHES).where(c.id == bindparam("b_id"), c.v == bindparam("b_expect"),
                                  c.status == bindparam("b_status"), c.wake_at.is_(None))
            .values(v=bindparam("b_v"), totals=bindparam("b_totals"), turn_deadline=bindparam("b_deadline"),
                    last_move_at=bindparam("b_last"), turn_seat=bindparam("b_turn")), dialect)
