"""The reviews queue's sweep on a real Redis: a job a worker is picking up (moved to the active
list, not yet marked active) is not taken for a dead one; a job whose worker died at that
moment is taken one sweep later, and queued again."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from saq.job import Job, Status
from saq.utils import now

from app.platform.jobs.saq_queue import make_queue
from app.platform.jobs.saq_sweep import SweepSafeQueue


@pytest.fixture
async def queue(redis_url: str, prefix: str) -> AsyncIterator[SweepSafeQueue]:
    q = make_queue(redis_url, prefix)
    assert isinstance(q, SweepSafeQueue)
    await q.connect()
    try:
        yield q
    finally:
        keys = [k async for k in q.redis.scan_iter(match=f"*{prefix}*")]
        if keys:
            await q.redis.delete(*keys)
        await q.disconnect()


async def sweep_turn(q: SweepSafeQueue) -> list[str]:
    """One sweep, as the worker whose turn it is (the turn's lock put away first)."""
    await q.redis.delete(q._sweep)
    return await q.sweep(lock=60, abort=0.2)


async def picked_up(q: SweepSafeQueue, key: str) -> Job:
    """A worker's first step: the job moves from the queued list to the active list."""
    job = await q.enqueue("review_match", key=key, retries=3, heartbeat=30, timeout=600)
    assert job is not None
    got = await q.dequeue(timeout=1)
    assert got is not None and got.key == key and got.status == Status.QUEUED
    return got


async def active_ids(q: SweepSafeQueue) -> list[bytes]:
    return await q.redis.lrange(q._active, 0, -1)  # type: ignore[misc]


async def test_a_job_being_picked_up_is_not_swept(queue: SweepSafeQueue) -> None:
    job = await picked_up(queue, "review:being-picked-up")
    assert await sweep_turn(queue) == []  # saq's own sweep aborts it here
    job.started, job.attempts = now(), 1
    await job.update(status=Status.ACTIVE)  # the worker's second step
    assert await sweep_turn(queue) == []
    assert await active_ids(queue) == [job.id.encode()]
    stored = await queue.job(job.key)
    assert stored is not None and stored.status == Status.ACTIVE


async def test_a_job_whose_worker_died_picking_it_up_is_swept_next_turn_and_queued_again(
        queue: SweepSafeQueue) -> None:
    job = await picked_up(queue, "review:worker-died")
    assert await sweep_turn(queue) == []
    assert await sweep_turn(queue) == [job.id]
    assert await active_ids(queue) == []
    stored = await queue.job(job.key)
    assert stored is not None and stored.status == Status.QUEUED and stored.error == queue.swept_error_message
    assert (await queue.dequeue(timeout=1)) is not None  # a worker gets it again
