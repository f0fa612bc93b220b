"""Reviews on a queue on Redis, served by `python -m app.worker` processes (saq).

Why saq: asyncio-native like the app (arq is in maintenance only; dramatiq and rq are
thread/process based), jobs carry a timeout, a heartbeat and retries, a job key deduplicates
(one review job per match however many instances ask), and a worker killed mid-job is swept
(its heartbeat stops) and the job retried by another worker. The lower bound (saq>=0.26) is
the API used here (`saq.Queue.from_url`, `Worker(timers=...)`, `Job.update(progress=...)`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from saq import Queue

from app.platform.jobs.review import JobConfig, NotReviewable, fail_review, run_review

log = logging.getLogger(__name__)

QUEUE_NAME = "reviews"
FUNCTION = "review_match"


def make_queue(redis_url: str, prefix: str = "spite:") -> Queue:
    """The reviews queue (its keys are namespaced by the site's Redis prefix)."""
    return Queue.from_url(redis_url, name=f"{prefix}{QUEUE_NAME}")


class RedisQueue:
    """What the web process sees of the queue: it only enqueues (workers do the work)."""

    def __init__(self, queue: Queue, *, timeout: float = 600.0, retries: int = 2, heartbeat: float = 30.0,
                 retry_delay: float = 1.0) -> None:
        self.queue = queue
        self.timeout = timeout
        self.retries = retries
        self.heartbeat = heartbeat
        self.retry_delay = retry_delay

    async def start(self) -> None:
        await self.queue.connect()

    async def enqueue(self, match_id: str) -> None:
        """Queue the review of a match; its key makes a second job for the same match a no-op
        while the first is not finished."""
        await self.queue.enqueue(FUNCTION, match_id=match_id, key=f"review:{match_id}", timeout=int(self.timeout),
                                 heartbeat=int(self.heartbeat), retries=self.retries + 1,
                                 retry_delay=self.retry_delay, retry_backoff=True)

    async def close(self) -> None:
        await self.queue.disconnect()


async def review_match(ctx: dict[str, Any], *, match_id: str) -> str:
    """The worker's job function: the review of one match (tries left: saq retries it)."""
    job = ctx["job"]
    config: JobConfig = ctx["config"]
    sessions = ctx["sessions"]
    beat = asyncio.get_running_loop().create_task(_heartbeat(job))
    try:
        return await run_review(sessions, match_id, config)
    except NotReviewable as e:
        return f"not reviewable: {e}"
    except Exception as e:
        if not job.retryable:  # the last try: say why on the review itself
            await fail_review(sessions, match_id, f"{type(e).__name__}: {e}"[:500])
        raise
    finally:
        beat.cancel()


async def _heartbeat(job: Any, every: float = 1.0) -> None:
    """Touch the job while it runs, so a sweep tells a live worker from a dead one."""
    while True:
        await asyncio.sleep(every)
        try:
            await job.update()
        except Exception:  # Redis briefly away: the next beat tries again
            log.warning("review job heartbeat failed", exc_info=True)
