"""Reviews of finished matches: one row per match, asked once and kept.

The row is the truth of a review's state: a queue job only carries the match id, so a job that
is retried, duplicated or run by another worker finds the row and does the right thing (a
review already done is never made again).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import Review, utcnow

QUEUED = "queued"
RUNNING = "running"
DONE = "done"
FAILED = "failed"


async def get(session: AsyncSession, match_id: str) -> Review | None:
    return (await session.execute(select(Review).where(Review.match_id == match_id)
                                  .execution_options(populate_existing=True))).scalar_one_or_none()


def is_stale(row: Review, stale_before: datetime | None) -> bool:
    """A review queued or running that has not been heard from since `stale_before`: its job
    was lost (all its tries died): it counts as failed."""
    return stale_before is not None and row.status in (QUEUED, RUNNING) and row.updated_at < stale_before


async def ask(session: AsyncSession, match_id: str, level: str, requested_by: str | None,
              stale_before: datetime | None = None) -> tuple[Review, bool]:
    """The match's review row, made (queued) if there was none and queued again if it had
    failed (or gone stale). Returns the row and whether a job must be queued for it."""
    row = await get(session, match_id)
    if row is not None and is_stale(row, stale_before):
        await fail(session, match_id, "the review stopped without a word; ask again")
        row = await get(session, match_id)
    if row is None:
        session.add(Review(match_id=match_id, status=QUEUED, progress=0.0, level=level, attempts=0,
                           requested_by=requested_by))
        try:
            await session.commit()
        except IntegrityError:  # asked at the same moment by someone else: theirs counts
            await session.rollback()
            row = await get(session, match_id)
            assert row is not None
            return row, False
        row = await get(session, match_id)
        assert row is not None
        return row, True
    if row.status == FAILED:
        changed = await session.execute(update(Review).where(Review.match_id == match_id, Review.status == FAILED)
                                        .values(status=QUEUED, progress=0.0, error=None, level=level,
                                                attempts=0, updated_at=utcnow()))
        await session.commit()
        row = await get(session, match_id)
        assert row is not None
        return row, bool(changed.rowcount)  # type: ignore[attr-defined]
    return row, False


async def withdraw(session: AsyncSession, match_id: str) -> None:
    """Take back a review just queued (its asker was over the limit once every ask of the same
    moment was counted): as if never asked, unless a worker has claimed it already."""
    await session.execute(delete(Review).where(Review.match_id == match_id, Review.status == QUEUED))
    await session.commit()


async def begin(session: AsyncSession, match_id: str, *, counted: bool = False) -> bool:
    """A job starts on the review: running, one more attempt (unless `counted`: `claim_next`
    counted this try already). False if it is done already (or was never asked): the job has
    nothing to do."""
    changed = await session.execute(
        update(Review).where(Review.match_id == match_id, Review.status.in_((QUEUED, RUNNING, FAILED)))
        .values(status=RUNNING, progress=0.0, attempts=Review.attempts + (0 if counted else 1), error=None,
                updated_at=utcnow()))
    await session.commit()
    return bool(changed.rowcount)  # type: ignore[attr-defined]


async def set_progress(session: AsyncSession, match_id: str, progress: float) -> None:
    await session.execute(update(Review).where(Review.match_id == match_id, Review.status == RUNNING)
                          .values(progress=round(progress, 4), updated_at=utcnow()))
    await session.commit()


async def finish(session: AsyncSession, match_id: str, result: dict[str, Any], level: str) -> None:
    await session.execute(update(Review).where(Review.match_id == match_id)
                          .values(status=DONE, progress=1.0, result=result, level=level, error=None,
                                  updated_at=utcnow()))
    await session.commit()


async def fail(session: AsyncSession, match_id: str, error: str) -> None:
    await session.execute(update(Review).where(Review.match_id == match_id, Review.status != DONE)
                          .values(status=FAILED, error=error[:500], updated_at=utcnow()))
    await session.commit()


async def requeue(session: AsyncSession, match_id: str) -> None:
    """A try failed but another will follow: queued again."""
    await session.execute(update(Review).where(Review.match_id == match_id, Review.status == RUNNING)
                          .values(status=QUEUED, updated_at=utcnow()))
    await session.commit()


async def pending_for(session: AsyncSession, player_id: str, stale_before: datetime | None = None) -> int:
    """How many reviews `player_id` asked for are queued or running (not gone stale)."""
    query = select(func.count()).select_from(Review).where(Review.requested_by == player_id,
                                                           Review.status.in_((QUEUED, RUNNING)))
    if stale_before is not None:
        query = query.where(Review.updated_at >= stale_before)
    return int((await session.execute(query)).scalar_one())


def _fairest(queued: list[Review], mine: list[Any]) -> Review:
    """The queued review to make next, fair per requester: first one whose requester has none
    running, then the lowest turn in its requester's line (how many of the requester's reviews
    were unfinished when it was asked: a requester's second waits behind everyone's first),
    then the oldest."""
    running = {asker for asker, status, _c, _u in mine if status == RUNNING}

    def turn(r: Review) -> int:
        return sum(1 for asker, status, created, updated in mine if asker == r.requested_by
                   and created < r.created_at and (status in (QUEUED, RUNNING) or updated > r.created_at))

    return min(queued, key=lambda r: (r.requested_by in running, turn(r), r.created_at, r.match_id))


async def claim_next(session: AsyncSession) -> str | None:
    """Mark the fairest queued review running, one more attempt (`_fairest`), and return its
    match; None if none waits. A job is a turn at the queue, not a given match: whichever job runs next makes the
    fairest review (two workers claiming at once each get their own)."""
    while True:
        queued = list((await session.execute(select(Review).where(Review.status == QUEUED)
                                             .execution_options(populate_existing=True))).scalars())
        if not queued:
            return None
        askers = {r.requested_by for r in queued if r.requested_by is not None}
        mine = list((await session.execute(
            select(Review.requested_by, Review.status, Review.created_at, Review.updated_at)
            .where(Review.requested_by.in_(askers)))).all())
        pick = _fairest(queued, mine)
        changed = await session.execute(update(Review).where(Review.match_id == pick.match_id, Review.status == QUEUED)
                                        .values(status=RUNNING, attempts=Review.attempts + 1,
                                                updated_at=utcnow()))
        await session.commit()
        if changed.rowcount:  # type: ignore[attr-defined]
            return pick.match_id


async def requeue_running(session: AsyncSession) -> None:
    """Reviews left running by a process that is gone: queued again (the local queue, on start)."""
    await session.execute(update(Review).where(Review.status == RUNNING).values(status=QUEUED, updated_at=utcnow()))
    await session.commit()


async def unfinished(session: AsyncSession) -> list[str]:
    """Matches whose review was asked but is not done nor failed (for a restarted local queue)."""
    rows = await session.execute(select(Review.match_id).where(Review.status.in_((QUEUED, RUNNING))))
    return [r[0] for r in rows]
