"""Lessons' rows (app/store/tables/lessons.py): a player's run of a lesson (its record of moves,
guarded by its length), the lessons done, the Learn to play card dismissed.

The record is plain JSON (`[[seat, wire move], ...]`): the lessons' shell rebuilds the run from
it (`LessonRun.resume`); the store knows no lesson.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import LessonDone, LessonRun, LessonsDismissed, utcnow


@dataclass(frozen=True)
class Run:
    """A run as read: whose, which lesson, the moves played, whether it is over."""

    code: str
    player_id: str
    lesson_id: str
    record: list[tuple[int, dict[str, Any]]]
    finished: bool


def _run(row: LessonRun) -> Run:
    return Run(row.code, row.player_id, row.lesson_id, [(int(s), dict(m)) for s, m in row.record], row.finished)


def _insert(session: AsyncSession):  # type: ignore[no-untyped-def]
    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


async def start(session: AsyncSession, player_id: str, lesson_id: str, code: str) -> str:
    """The code of the player's run of `lesson_id`: the unfinished one they have, else a fresh
    one at `code` (replacing a finished run). Commits."""
    for _attempt in range(3):
        row = (await session.execute(select(LessonRun).where(
            LessonRun.player_id == player_id, LessonRun.lesson_id == lesson_id))).scalar_one_or_none()
        if row is not None and not row.finished:
            return row.code
        if row is not None:
            await session.execute(delete(LessonRun).where(LessonRun.code == row.code))
        now = utcnow()
        session.add(LessonRun(code=code, player_id=player_id, lesson_id=lesson_id, record=[], moves=0,
                              finished=False, created_at=now, updated_at=now))
        try:
            await session.commit()
            return code
        except IntegrityError:  # the same player started it at once elsewhere: read theirs
            await session.rollback()
    raise RuntimeError("could not start the lesson")


async def get(session: AsyncSession, code: str) -> Run | None:
    row = await session.get(LessonRun, code)
    return _run(row) if row is not None else None


async def open_runs(session: AsyncSession, player_id: str) -> dict[str, str]:
    """The player's unfinished runs: lesson id → room code."""
    rows = await session.execute(select(LessonRun.lesson_id, LessonRun.code).where(
        LessonRun.player_id == player_id, LessonRun.finished.is_(False)))
    return {lesson: code for lesson, code in rows.all()}


async def save(session: AsyncSession, run: Run, before: int) -> bool:
    """Write `run`'s record if the stored one still has `before` moves (else False: another
    socket moved first); a finished run marks its lesson done. Commits."""
    result = await session.execute(update(LessonRun).where(LessonRun.code == run.code, LessonRun.moves == before)
                                   .values(record=[[s, m] for s, m in run.record], moves=len(run.record),
                                           finished=run.finished, updated_at=utcnow()))
    if result.rowcount != 1:  # type: ignore[attr-defined]
        await session.rollback()
        return False
    if run.finished:
        stmt = _insert(session)(LessonDone).values(player_id=run.player_id, lesson_id=run.lesson_id,
                                                   done_at=utcnow())
        await session.execute(stmt.on_conflict_do_nothing(index_elements=[LessonDone.player_id,
                                                                          LessonDone.lesson_id]))
    await session.commit()
    return True


async def done(session: AsyncSession, player_id: str) -> set[str]:
    rows = await session.execute(select(LessonDone.lesson_id).where(LessonDone.player_id == player_id))
    return set(rows.scalars().all())


async def dismissed(session: AsyncSession, player_id: str) -> bool:
    return await session.get(LessonsDismissed, player_id) is not None


async def dismiss(session: AsyncSession, player_id: str) -> None:
    """Remember that the player dismissed the Learn to play card (again: no change). Commits."""
    stmt = _insert(session)(LessonsDismissed).values(player_id=player_id, at=utcnow())
    await session.execute(stmt.on_conflict_do_nothing(index_elements=[LessonsDismissed.player_id]))
    await session.commit()
