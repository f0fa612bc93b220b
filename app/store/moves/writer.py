"""Group commit of moves: the moves of many rooms that arrive while a commit is under way are
written together in the next transaction, and each caller returns only once that transaction
has committed (a move exists once its row is committed; nobody hears of it before).

A move arrives as its record (`app.domain.writes.MoveWrite`, built once by the room core) and
is written as it is: every statement binds its values straight from the record's fields.

One transaction per batch, with Core statements:
- one multi-row INSERT of the move rows (the unique (match_id, seq) and (match_id, seat,
  client_id) refuse a taken version or a resent move id);
- the matches advanced to the move's version, with what it changed (`MoveWrite.match`: status,
  totals, turn deadline...), only where still at the version the move was computed from: one executemany
  whose row count must equal the batch size (SQLite), or (asyncpg, which counts no rows in an
  executemany) one UPDATE of the versions checked by its row count, then the executemany;
- for the rare move that ends a hand or the match, its own update and result rows, the
  achievements it earns and, when it ends a rated match, every seat's new rating and its
  history row (`awards`): a match is rated exactly when its last move is committed; and the
  room row's values the move changes (`MoveWrite.room_values`: a match's end opens the lobby
  again), where the room still points at the match; a move that ends the match (its winners)
  advances its match with a statement of its own, which also writes the winners and end time.

`record` returns what the move's hand or match end earned (`Awards`), or None for a plain move.

On SQLite (whose driver counts the rows of an executemany) the two statements of plain moves
are compiled once and run with `exec_driver_sql` on rows bound from the records through the
columns' own bind processors (`plain.PlainStatements`): the same SQL and values as the Core
statements, without their per-call cost.

On a SQLite file a plain move is first tried **inline** (`inline.InlineCommit`): committed
synchronously on the event loop's thread, on a connection of the writer's own, with no await
between the caller and its commit. When that connection finds the write lock taken, the move
waits in `batch.PlainBatches` beside its caller's future, and is committed with every plain
move queued meanwhile in one transaction on the same connection and thread as soon as the lock
frees (woken by the end of a transaction of the app's pool): a plain move on a SQLite file never
takes the pooled aiosqlite path below. Only moves that are not plain (`MoveWrite.plain`: they
also end a hand or the match), moves on an in-memory SQLite database and every move on a server
database take the queue below.

If the batch is refused (a conflict in any move, or a row the database will not take) it is
rolled back and each move is retried in a transaction of its own (`PlainBatches`: under a
savepoint of its own in the same transaction, which keeps the lock), so only the moves that lost a
race fail (with `Conflict`) and only a bad row fails with its own error; when the database
itself is unreachable the whole batch fails at once. Batching
adds no wait at low load: a lone move is committed at once; moves queue only behind a commit
in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Table, bindparam, event, insert, tuple_, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.domain.records import Awards
from app.domain.writes import MoveWrite
from app.store.db import sqlite_file
from app.store.errors import Conflict
from app.store.inline_writes import InlineWrites
from app.store.moves.batch import PlainBatches
from app.store.moves.counters import COMMIT_BATCH, INLINE, QUEUED
from app.store.moves.inline import Advance, InlineCommit, Locked, Refused
from app.store.moves.plain import ADVANCE_BINDS, MOVE_BINDS, PlainStatements
from app.store.repositories.awards import Repeats, record_achievements, record_ratings
from app.store.tables import Hand, Match, Move, Room, Score, utcnow

log = logging.getLogger(__name__)
MOVES, MATCHES, HANDS, SCORES, ROOMS = (cast(Table, t.__table__) for t in (Move, Match, Hand, Score, Room))
PLAYING = "playing"  # MatchStatus.PLAYING: a match row's status while a hand is played
Done = asyncio.Future[Awards | None]  # a queued move's caller waits on it
Queued = tuple[MoveWrite, Done]
T = TypeVar("T")


class _Refused(Exception):
    """The batch could not be committed as a whole (some move conflicts)."""


class MoveWriter:
    """Commits moves in batches on one engine; `record` returns once its move is committed."""

    def __init__(self, engine: AsyncEngine, max_batch: int = 500, inline: bool = True,
                 repeats: Repeats = Repeats(), lock_timeout: float | None = None) -> None:
        """`inline=False`: no move is tried inline, every one is queued (tests of the batches;
        on a SQLite file plain moves still take `PlainBatches`); `repeats`: how rated matches
        between the same players count (`awards.Repeats`); `lock_timeout`: the longest a plain
        move waits for SQLite's write lock (default the pool's timeout, `make_engine`'s)."""
        self.engine = engine
        self.repeats = repeats
        self.max_batch = max_batch
        dialect = engine.dialect
        sqlite_like = dialect.paramstyle == "qmark" and dialect.supports_sane_multi_rowcount
        self._fast = PlainStatements(dialect) if sqlite_like else None
        path = sqlite_file(engine.url) if self._fast is not None else None
        self._own = InlineCommit(path) if path else None  # the writer's own connection to the file
        self._inline = self._own if inline else None
        self._writes = InlineWrites(path) if path and inline else None  # the rooms' other short writes
        self._batches: PlainBatches | None = None
        if self._own is not None and self._fast is not None:
            pool_timeout = getattr(engine.pool, "timeout", lambda: 5.0)
            timeout = lock_timeout if lock_timeout is not None else float(pool_timeout())
            self._batches = PlainBatches(self._own, self._fast.insert.sql, max_batch, timeout)
            event.listen(engine.sync_engine, "checkin", self._checkin)  # a pool transaction ended
        self._conn: AsyncConnection | None = None
        self._queue: list[Queued] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    async def record(self, write: MoveWrite) -> Awards | None:
        """Commit `write` as it is and return what its hand's end earned (None unless it ends a
        hand): Conflict if its version or move id is taken; other errors as raised by the
        database. Cancelling the caller does not withdraw a move already queued: it is committed
        all the same."""
        if self._closed:
            raise RuntimeError("the move writer is closed")
        if self._batches is not None and write.plain:
            move, advance = self._bind(write)
            if self._inline is not None and self._inline_commit(write, move, advance):
                return None
            refused = await self._batches.add(move, advance)
            if refused is not None:
                raise _taken(write) if isinstance(refused, Refused) else refused
            return None
        if self._writes is not None and not write.plain:  # a hand's or the match's end: at once too, if it can
            with contextlib.suppress(Locked):
                return self._end_at_once(write)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        done: Done = loop.create_future()
        self._queue.append((write, done))
        self._wake.set()
        return await done

    def _bind(self, write: MoveWrite) -> tuple[tuple[Any, ...], Advance]:
        """The move's row, and its match's advance: the lean form first for a live room's move
        (still playing, no wake time), with the full form as its fallback; else the full form."""
        fast = self._fast
        assert fast is not None
        full, lean = fast.advances(write)
        if write.match.status == PLAYING and write.match.wake_at is None:
            return fast.move(write, utcnow()), (fast.lean.sql, lean, (fast.advance.sql, full))
        return fast.move(write, utcnow()), (fast.advance.sql, full, None)

    def _inline_commit(self, write: MoveWrite, move: tuple[Any, ...], advance: Advance) -> bool:
        """Commit a plain move at once, without awaiting; False if the write lock is taken."""
        fast, inline, batches = self._fast, self._inline, self._batches
        assert fast is not None and inline is not None and batches is not None
        sql, row, fallback = advance
        try:
            inline.commit(fast.insert.sql, move, sql, row, fallback)
        except Locked:
            return False
        except Refused as e:
            raise _taken(write) from e
        COMMIT_BATCH.observe(1)
        INLINE.inc()
        if batches.waiting:  # the lock was free just now: the queued moves may go too
            batches.freed()
        return True

    def transact(self, work: Callable[[Connection], T]) -> T:
        """Run a room's short write that is not a move (a lobby change, a match's start, a deal)
        in a transaction on the loop's thread (`InlineWrites`), committed before this returns.
        `Locked` (nothing run) when the write lock is taken, or on a database with no such
        connection (a server database, an in-memory SQLite): the caller takes its pooled path."""
        if self._writes is None:
            raise Locked()
        done = self._writes.run(work)
        if self._batches is not None and self._batches.waiting:  # the lock was free just now
            self._batches.freed()
        return done

    def _end_at_once(self, write: MoveWrite) -> Awards | None:
        """Commit a move that ends a hand or the match on the loop's thread (`InlineWrites.run_now`:
        the queue's own statements, `_write`, each run synchronously); `Locked` if the lock is taken."""
        assert self._writes is not None
        repeats, fast = self.repeats, self._fast
        try:
            [awards] = self._writes.run_now(lambda conn: _write(conn, [write], utcnow(), fast, repeats))
        except (IntegrityError, _Refused) as e:
            raise _taken(write) from e
        COMMIT_BATCH.observe(1)
        INLINE.inc()
        if self._batches is not None and self._batches.waiting:
            self._batches.freed()
        return awards

    def _checkin(self, _dbapi_conn: Any, _record: Any) -> None:
        if self._batches is not None:
            self._batches.freed()

    async def close(self) -> None:
        """Commit what is queued, then stop."""
        self._closed = True
        self._wake.set()
        if self._batches is not None:
            await self._batches.close()
            with contextlib.suppress(Exception):
                event.remove(self.engine.sync_engine, "checkin", self._checkin)
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
        if self._own is not None:
            self._own.close()
        if self._writes is not None:
            self._writes.close()

    async def _run(self) -> None:
        while True:
            if not self._queue:
                if self._closed:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, self._queue = self._queue[:self.max_batch], self._queue[self.max_batch:]
            try:
                await self._commit_batch(batch)
            except Exception as e:  # a fault of ours must not leave the moves' callers waiting for ever
                log.exception("the move writer failed on a batch of %d", len(batch))
                for _, done in batch:
                    _failed(done, e)

    async def _commit_batch(self, batch: list[Queued]) -> None:
        try:
            awards = await self._transaction([write for write, _ in batch])
        except Exception as e:
            if len(batch) > 1 and not _unreachable(e):
                await self._one_by_one(batch)  # find the culprits: one move must not sink the others
            else:
                for write, done in batch:
                    _failed(done, _taken(write) if isinstance(e, _Refused) else e)
            return
        COMMIT_BATCH.observe(len(batch))
        QUEUED.inc(len(batch))
        for (_, done), earned in zip(batch, awards, strict=True):
            _committed(done, earned)

    async def _one_by_one(self, batch: list[Queued]) -> None:
        for write, done in batch:
            try:
                [awards] = await self._transaction([write])
            except _Refused:
                _failed(done, _taken(write))
            except Exception as e:
                _failed(done, e)
            else:
                QUEUED.inc()
                _committed(done, awards)

    async def _transaction(self, batch: list[MoveWrite]) -> list[Awards | None]:
        """Commit the batch in one transaction; each move's awards, in order."""
        now = utcnow()
        if self._fast is not None:  # SQLite: one connection for the whole app; take it in turn
            async with self.engine.connect() as conn:
                return await self._in(conn, batch, now)
        # A server database: keep a connection of our own (no pool checkout and pre-ping per
        # batch); a broken one is dropped and the next batch opens another.
        if self._conn is None or self._conn.closed:
            self._conn = await self.engine.connect()
        try:
            return await self._in(self._conn, batch, now)
        except _Refused:
            raise
        except BaseException:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                await conn.invalidate()
            raise

    async def _in(self, conn: AsyncConnection, batch: list[MoveWrite], now: Any) -> list[Awards | None]:
        try:
            awards = await _write(conn, batch, now, self._fast, self.repeats)
        except (IntegrityError, _Refused) as e:
            await conn.rollback()
            raise _Refused() from e
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.rollback()
            raise
        await conn.commit()
        return awards


async def _write(conn: AsyncConnection, batch: list[MoveWrite], now: Any,
                 fast: PlainStatements | None, repeats: Repeats) -> list[Awards | None]:
    """Write the batch in the caller's transaction; each move's awards, in order. Every move
    but one that ends its match (its winners) is advanced by one executemany."""
    if fast is not None:
        await conn.exec_driver_sql(fast.insert.sql, fast.moves(batch, now))
    else:
        await conn.execute(insert(MOVES), [_row(w, now) for w in batch])
    c = MATCHES.c
    advanced: list[MoveWrite] = []
    for w in batch:
        m = w.match
        if m.winners is None:
            advanced.append(w)
            continue
        done = await conn.execute(  # ends the match: its own conditional update
            update(MATCHES).where(c.id == w.match_id, c.v == w.expect_v)
            .values(v=w.seq, status=m.status, totals=m.totals, turn_deadline=m.turn_deadline, wake_at=m.wake_at,
                    last_move_at=m.last_move_at, turn_seat=m.turn_seat, winners=m.winners, ended_at=m.ended_at))
        if done.rowcount != 1:
            raise _Refused()
    if advanced:
        values: dict[str, Any] = {"status": bindparam("b_status"), "totals": bindparam("b_totals"),
                                  "turn_deadline": bindparam("b_deadline"), "wake_at": bindparam("b_wake"),
                                  "last_move_at": bindparam("b_last"), "turn_seat": bindparam("b_turn")}
        if fast is not None:  # SQLite: one statement, checked by its row count
            done = await conn.exec_driver_sql(fast.advance.sql, fast.full(advanced))
            if done.rowcount != len(advanced):
                raise _Refused()
        elif conn.dialect.supports_sane_multi_rowcount:
            done = await conn.execute(update(MATCHES).where(c.id == bindparam("b_id"), c.v == bindparam("b_expect"))
                                      .values(v=bindparam("b_v"), **values), [_advance(w) for w in advanced])
            if done.rowcount != len(advanced):
                raise _Refused()
        else:  # asyncpg counts no rows in an executemany: check the versions in one statement first
            done = await conn.execute(
                update(MATCHES).where(tuple_(c.id, c.v).in_([(w.match_id, w.expect_v) for w in advanced]))
                .values(v=c.v + 1))
            if done.rowcount != len(advanced):
                raise _Refused()
            await conn.execute(update(MATCHES).where(c.id == bindparam("b_id")).values(**values),
                               [_advance(w) for w in advanced])
    return [None if w.plain else await _ends(conn, w, now, repeats) for w in batch]


async def _ends(conn: AsyncConnection, w: MoveWrite, now: Any, repeats: Repeats) -> Awards | None:
    """The rows a move that ends a hand (or the match) writes besides its own: the hand's result,
    its scores, what it earned, and the room row it changes; what it earned."""
    awards = None
    if w.hand_end is not None:
        end = w.hand_end
        await conn.execute(update(HANDS).where(HANDS.c.match_id == w.match_id, HANDS.c.number == end.number)
                           .values(result=end.result, ended_at=now))
        await conn.execute(insert(SCORES), [
            {"match_id": w.match_id, "hand_number": end.number, "seat": s, "points": p, "total": t,
             "payoff_left": left}
            for s, (p, t, left) in enumerate(zip(end.points, end.totals, end.payoff_left, strict=True))])
        achievements = await record_achievements(conn, w.match_id, end.number, w.earned, now)
        ratings = await record_ratings(conn, w.match_id, w.rated, now, repeats) if w.rated is not None else []
        awards = Awards(achievements, ratings)
    if w.room_code is not None and w.room_values is not None:
        await conn.execute(update(ROOMS).where(ROOMS.c.code == w.room_code, ROOMS.c.match_id == w.match_id)
                           .values(**w.room_values, rev=ROOMS.c.rev + 1, updated_at=now))
    return awards


def _row(w: MoveWrite, now: Any) -> dict[str, Any]:
    """The move's row, as the Core insert binds it."""
    return {name: now if get is None else get(w) for name, get in MOVE_BINDS.items()}


def _advance(w: MoveWrite) -> dict[str, Any]:
    """The advance of the move's match, as the Core executemany binds it."""
    return {name: get(w) for name, get in ADVANCE_BINDS.items()}


def _taken(write: MoveWrite) -> Conflict:
    return Conflict(f"move {write.seq} of match {write.match_id} is taken")


def _unreachable(e: BaseException) -> bool:
    """The database itself failed (gone, locked, timed out), not one row of the batch: trying
    each move on its own would only fail the same way, slower."""
    if isinstance(e, OSError | TimeoutError | OperationalError):
        return True
    return isinstance(e, DBAPIError) and e.connection_invalidated


def _committed(done: Done, awards: Awards | None) -> None:
    if not done.done():
        done.set_result(awards)


def _failed(done: Done, error: BaseException) -> None:
    if not done.done():
        done.set_exception(error)
