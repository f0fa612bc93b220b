"""The local job queue: one machine, no extra service. Jobs wait in an in-process queue and run
in spawned child processes (never in the web process's event loop, nor holding its GIL), each
try bounded by a timeout (a child that overruns is killed) and retried with a growing pause.
Children run at nice 19 under SCHED_IDLE (`pool_work.idle_child`). A job is a turn at the reviews, not a
given match: it makes the fairest review waiting (`reviews.claim_next`), as the Redis queue's do.
On start it queues again every review left unfinished by a previous process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bots.pool_work import idle_child
from app.platform.jobs.review import JobConfig, NotReviewable, fail_review, run_in_child
from app.store.repositories import reviews as review_store
from app.store.repositories.review_failures import failure

log = logging.getLogger(__name__)


class LocalQueue:
    """Reviews on this machine: `workers` child processes at most, `timeout` seconds a try,
    `retries` more tries after a failure."""

    def __init__(self, config: JobConfig, sessions: async_sessionmaker[AsyncSession], *, workers: int = 1,
                 timeout: float = 600.0, retries: int = 2, retry_delay: float = 1.0, nice: int = 19) -> None:
        self.config = config
        self.sessions = sessions
        self.workers = workers
        self.timeout = timeout
        self.retries = retries
        self.retry_delay = retry_delay
        self.nice = nice
        self._waiting: asyncio.Queue[str] = asyncio.Queue()
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=idle_child, initargs=(os.getpid(), self.nice))
        return self._pool

    def _kill_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for proc in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def start(self) -> None:
        self._tasks = [asyncio.get_running_loop().create_task(self._serve()) for _ in range(self.workers)]
        async with self.sessions() as s:
            await review_store.requeue_running(s)  # cut short with the process before: waiting again
            left = await review_store.unfinished(s)
        for match_id in left:
            await self.enqueue(match_id)

    async def enqueue(self, match_id: str) -> None:
        """Queue a turn at the reviews for a review just asked (a turn that finds none waiting
        does nothing)."""
        self._waiting.put_nowait(match_id)

    async def _serve(self) -> None:
        while True:
            await self._waiting.get()
            match_id = None
            try:
                async with self.sessions() as s:
                    match_id = await review_store.claim_next(s)
                if match_id is not None:
                    await self._run(match_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("review of match %s failed", match_id)

    async def _run(self, match_id: str) -> None:
        loop = asyncio.get_running_loop()
        why = "unknown"
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.retry_delay * attempt)
            try:
                fut = loop.run_in_executor(self._executor(), run_in_child, self.config, match_id, attempt == 0)
                await asyncio.wait_for(fut, self.timeout)
                return
            except NotReviewable:
                return
            except TimeoutError:
                why = failure(reason="review_timeout", seconds=f"{self.timeout:g}")
                self._kill_pool()
            except BrokenProcessPool:
                why = failure(reason="review_died")
                self._kill_pool()
            except Exception as e:  # a bug or the database: say what, try again
                why = f"{type(e).__name__}: {e}"
            log.warning("review of match %s, try %d: %s", match_id, attempt + 1, why)
        await fail_review(self.sessions, match_id, why)

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._tasks = []
        self._kill_pool()
