"""Reviews on a queue on Redis, served by `python -m app.worker` processes (saq).

Why saq: asyncio-native like the app (arq is in maintenance only; dramatiq and rq are
thread/process based), jobs carry a timeout, a heartbeat and retries, and a worker killed mid-job
is swept (its heartbeat stops) and the job retried by another worker. A job is a turn at the
reviews: it makes the fairest review waiting (`reviews.claim_next`, fair per requester), so the
queue's own order (first in, first out) decides nothing. The lower bound (saq>=0.26) is
the API used here (`saq.Queue.from_url`, `Worker(timers=...)`, `Job.update(progress=...)`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from saq import Queue

from app.platform.jobs.review import JobConfig, NotReviewable, fail_review, run_review
from app.platform.jobs.saq_sweep import SweepSafeQueue
from app.store.repositories import reviews as review_store

log = logging.getLogger(__name__)

QUEUE_NAME = "reviews"
FUNCTION = "review_match"


def make_queue(redis_url: str, prefix: str = "spite:") -> Queue:
    """The reviews queue (its keys are namespaced by the site's Redis prefix); its sweep never
    takes a job a worker is picking up for a dead one (`saq_sweep`)."""
    return SweepSafeQueue.from_url(redis_url, name=f"{prefix}{QUEUE_NAME}")


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
        """Queue a turn at the reviews for a review just asked (`match_id`, named in the logs): the
        job makes the fairest review waiting when it runs (`reviews.claim_next`). A job that finds
        none waiting does nothing, so a spare job is harmless and a review never lacks one."""
        await self.queue.enqueue(FUNCTION, match_id=match_id, key=f"review:{match_id}:{uuid.uuid4().hex}",
                                 timeout=int(self.timeout),
                                 heartbeat=int(self.heartbeat), retries=self.retries + 1,
                                 retry_delay=self.retry_delay, retry_backoff=True)

    async def close(self) -> None:
        await self.queue.disconnect()


async def review_match(ctx: dict[str, Any], *, match_id: str) -> str:
    """The worker's job function: a turn at the reviews (asked with `match_id`). Its first try
    claims the fairest review waiting and writes it on the job (`meta.claimed`), so a retry (a
    failed try, or a sweep after its worker died) makes that same review again."""
    job = ctx["job"]
    config: JobConfig = ctx["config"]
    sessions = ctx["sessions"]
    claimed = job.meta.get("claimed")
    first_try = claimed is None
    if claimed is None:
        async with sessions() as s:
            claimed = await review_store.claim_next(s)
        if claimed is None:
            return "no review waits"
        await job.update(meta={**job.meta, "claimed": claimed})
        log.info("review of match %s started (a turn asked with match %s)", claimed, match_id)
    match_id = claimed
    beat = asyncio.get_running_loop().create_task(_heartbeat(job))
    try:
        return await run_review(sessions, match_id, config, claimed=first_try)
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
