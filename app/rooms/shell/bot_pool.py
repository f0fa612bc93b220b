"""The bot process pool: bot decisions and hints run in worker processes, off the event loop,
so one room thinking hard never slows another room down."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.bots import pool_work
from app.rooms.ports import HintReason

log = logging.getLogger(__name__)


class BotPool:
    """A lazily started `ProcessPoolExecutor` (spawned workers: safe beside threads)."""

    def __init__(self, workers: int, timeout: float = 30.0, think_ms: int = 1000) -> None:
        self.workers = workers
        self.timeout = timeout
        self.think_ms = think_ms
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=pool_work.watch_parent, initargs=(os.getpid(),))
        return self._pool

    async def _run(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(self._executor(), fn, *args), self.timeout)

    async def warm(self) -> None:
        """Start the workers now rather than on the first bot move."""
        await asyncio.gather(*(self._run(pool_work.warm) for _ in range(self.workers)))

    def prepare(self) -> None:
        """Start the workers in the background if they are not running (a bot joined a room)."""
        if self._pool is None:
            task = asyncio.get_running_loop().create_task(self.warm())
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def choose(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        """A bot's move for this view; falls back to the first legal move if the bot fails."""
        try:
            move: dict[str, Any] = await self._run(pool_work.choose, view, level, self.think_ms)
            return move
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot (%s) failed; playing the first legal move", level)
            return dict(view["legal_moves"][0])

    async def hint(self, view: dict[str, Any], level: str) -> tuple[dict[str, Any], HintReason]:
        """A suggested move and the reason for it."""
        move, (text, key, params) = await self._run(pool_work.hint, view, level, self.think_ms)
        return move, HintReason(text, key, params)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
