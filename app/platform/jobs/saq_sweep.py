"""saq's Redis queue with a sweep that does not take a job just being picked up for a dead one.

A saq worker picks a job up in two steps: it moves the job's id from the queued list to the
active list, then marks the job active. saq's sweep (every worker runs it, `app.worker`'s
SWEEP_SECONDS apart) takes any job in the active list not marked active for one whose worker
died, and aborts it: a sweep that falls between a worker's two steps aborts a job that is about
to run (tobymao/saq issues 124 and 277, open in saq 0.26.4). Both happen at once when a worker
starts with jobs waiting. The aborted job is taken off the active list while its worker runs it,
and if the sweeping worker dies before it re-queues it, no list names the job any more: the
review stays "running" until it goes stale (seen in `tests/scale/test_review_worker.py`).

This sweep is saq's own, except that a job found in the active list still marked queued is
taken only if it was so at this queue's previous sweep too: a job between the two steps is
there for milliseconds; one whose worker died between them stays, and is taken one sweep later.
"""

from __future__ import annotations

import logging

from saq.job import Status
from saq.queue.redis import RedisQueue

log = logging.getLogger(__name__)

# The active list with its jobs, read by one worker per `lock` seconds (saq's script, except
# that it says false, not an empty list, when another worker holds the lock).
_ACTIVE_JOBS = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return false
end
redis.call('SETEX', KEYS[1], ARGV[1], 1)
local id_jobs = {}
for i, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    id_jobs[i] = {v, redis.call('GET', v)}
end
return id_jobs
"""


class SweepSafeQueue(RedisQueue):
    """A saq Redis queue whose sweep waits one sweep before it takes a job still marked queued."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._queued_when_swept: set[bytes] = set()  # ids seen active-but-queued at the last sweep

    async def sweep(self, lock: int = 60, abort: float = 5.0) -> list[str]:
        id_jobs = await self.redis.eval(_ACTIVE_JOBS, 2, self._sweep, self._active, lock)
        if id_jobs is None:  # another worker sweeps this turn
            return []
        seen_queued, self._queued_when_swept = self._queued_when_swept, set()
        swept: list[str] = []
        for job_id, job_bytes in id_jobs:
            job = self.deserialize(job_bytes)
            if job is None:  # its data is gone: off the lists (as saq does)
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.lrem(self._active, 0, job_id)
                    pipe.zrem(self._incomplete, job_id)
                    await pipe.execute()
                log.info("Sweeping missing job %s", job_id)
                swept.append(job_id.decode())
                continue
            if job.status == Status.QUEUED and job_id not in seen_queued:
                self._queued_when_swept.add(job_id)  # maybe a worker between its two steps
                continue
            if job.status != Status.ACTIVE or job.stuck:
                log.info("Sweeping job %s", job.info(log.isEnabledFor(logging.DEBUG)))
                swept.append(job_id.decode())
                await self.abort(job, error=self.swept_error_message)
                try:
                    await job.refresh(abort)
                except TimeoutError:
                    log.info("Could not abort job %s", job_id)
                if job.retryable:
                    await self.retry(job, error=self.swept_error_message)
                else:
                    await self.finish(job, Status.ABORTED, error=self.swept_error_message)
        return swept
