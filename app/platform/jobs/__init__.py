"""Background jobs (match reviews) on a real queue, never on the move path nor in the web
process's event loop:

- with `SPITE_REDIS_URL`: a saq queue on Redis (`saq_queue.py`), served by `python -m app.worker`
  processes; any instance enqueues, any worker works;
- without: the local queue (`local.py`), child processes of the web process.

Both bound each try by a timeout and retry a failed try; the reviews table is the truth of a
review's state (`app.store.repositories.reviews`), so a retried or duplicated job never makes it twice.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.platform.jobs.review import JobConfig
from app.platform.settings import Settings


class JobQueue(Protocol):
    """Where the web process sends reviews to be made."""

    async def start(self) -> None: ...

    async def enqueue(self, match_id: str) -> None: ...

    async def close(self) -> None: ...


def job_config(settings: Settings) -> JobConfig:
    return JobConfig(database_url=settings.database_url, review_ms=settings.review_ms,
                     review_samples=settings.review_samples, db_timeout=settings.db_timeout)


def make_queue(settings: Settings, sessions: async_sessionmaker[AsyncSession]) -> JobQueue:
    """The queue this configuration asks for (see the module docstring)."""
    if settings.redis_url:
        from app.platform.jobs.saq_queue import RedisQueue
        from app.platform.jobs.saq_queue import make_queue as saq_queue

        return RedisQueue(saq_queue(settings.redis_url, settings.redis_prefix), timeout=settings.review_timeout,
                          retries=settings.review_retries, heartbeat=settings.review_heartbeat)
    from app.platform.jobs.local import LocalQueue

    return LocalQueue(job_config(settings), sessions, workers=settings.review_workers,
                      timeout=settings.review_timeout, retries=settings.review_retries)


__all__ = ["JobConfig", "JobQueue", "job_config", "make_queue"]
