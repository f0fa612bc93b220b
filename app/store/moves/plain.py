"""The plain-move statements, compiled once for SQLite (a lean storage hot path).

A plain move (no hand end, no room change, no winners: `MoveWrite.plain`) is two statements: its
row inserted, its match advanced where still at the version the move was computed from. Both
are Core statements compiled once for the dialect; each call reads the values straight from
the move's record (`MOVE_BINDS`, `ADVANCE_BINDS`), runs the columns' own bind processors over
them, in the compiled order, and hands SQL text and a tuple to the driver. No ORM object,
session, pool checkout, statement cache lookup or dict of parameters is on this path.

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
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import Any, cast

from sqlalchemy import Dialect, Table, bindparam, insert, update
from sqlalchemy.sql.compiler import SQLCompiler

from app.domain.writes import MoveWrite
from app.store.tables import Match, Move

MOVES, MATCHES = (cast(Table, t.__table__) for t in (Move, Match))
Getter = Callable[[MoveWrite], Any]
Proc = Callable[[Any], Any] | None
Row = tuple[Any, ...]
# Each parameter of the statements, read from the move's record (`created_at`, None here: the
# commit's time). The writer's Core statements (any database) bind the same names.
MOVE_BINDS: dict[str, Getter | None] = {
    "match_id": attrgetter("match_id"), "seq": attrgetter("seq"), "hand_number": attrgetter("hand_number"),
    "seat": attrgetter("seat"), "actor": attrgetter("actor"), "client_id": attrgetter("client_id"),
    "payload": attrgetter("payload"), "created_at": None}
ADVANCE_BINDS: dict[str, Getter] = {
    "b_id": attrgetter("match_id"), "b_expect": attrgetter("expect_v"), "b_v": attrgetter("seq"),
    "b_status": attrgetter("match.status"), "b_totals": attrgetter("match.totals"),
    "b_deadline": attrgetter("match.turn_deadline"), "b_wake": attrgetter("match.wake_at"),
    "b_last": attrgetter("match.last_move_at"), "b_turn": attrgetter("match.turn_seat")}


class _Compiled:
    """A Core statement compiled once for a positional-parameter dialect: its SQL, its
    parameters' names in order and each one's bind processor."""

    def __init__(self, stmt: Any, dialect: Dialect) -> None:
        compiled = stmt.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler) and compiled.positiontup is not None
        self.sql = str(compiled)
        self.order = list(compiled.positiontup)
        self.procs: dict[str, Proc] = {name: compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
                                       for name in self.order}


class PlainStatements:
    """The plain-move statements, compiled for SQLite, and their rows bound straight from a
    move's record (`MoveWrite`): the driver's tuples, through the columns' own bind processors."""

    def __init__(self, dialect: Dialect) -> None:
        c = MATCHES.c
        self.insert = _Compiled(insert(MOVES).values({k: bindparam(k) for k in MOVE_BINDS}), dialect)
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
        self._move = [(MOVE_BINDS[name], self.insert.procs[name]) for name in self.insert.order]
        # The two advances share their values: each is read and processed once per move (the
        # processors, JSON and dates, are most of the cost), then picked in each one's order.
        names = list(ADVANCE_BINDS)
        self._values = [(ADVANCE_BINDS[name], self.advance.procs[name]) for name in names]
        self._full = itemgetter(*[names.index(name) for name in self.advance.order])
        self._lean = itemgetter(*[names.index(name) for name in self.lean.order])

    def move(self, w: MoveWrite, now: datetime) -> Row:
        """The insert's row for the move, created at `now`."""
        row = []
        for get, proc in self._move:
            value = now if get is None else get(w)
            row.append(value if proc is None else proc(value))
        return tuple(row)

    def moves(self, batch: list[MoveWrite], now: datetime) -> list[Row]:
        return [self.move(w, now) for w in batch]

    def advances(self, w: MoveWrite) -> tuple[Row, Row]:
        """The full and the lean advance's rows for the move."""
        values = [get(w) if proc is None else proc(get(w)) for get, proc in self._values]
        return self._full(values), self._lean(values)

    def full(self, batch: list[MoveWrite]) -> list[Row]:
        """The full advance's rows for the moves."""
        full = self._full
        return [full([get(w) if proc is None else proc(get(w)) for get, proc in self._values]) for w in batch]
