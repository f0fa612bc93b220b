"""Pairing a Swiss round off the event loop: the pairing libraries take tens of milliseconds of
CPU for 16 players and seconds for hundreds (docs/performance.md), which would stall every room
on the instance. Swiss rounds are paired in one spawned worker process, started when first
needed (spawned, not forked: safe beside the server's threads), which dies with the server; a
round-robin's Berger table is a lookup, made on the loop."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from app.bots import pool_work
from app.tournaments.core.model import Pairing
from app.tournaments.shell.plan import RoundAsk, pair


class PairingPool:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def pair(self, ask: RoundAsk) -> Pairing:
        if ask.format == "round_robin":
            return pair(ask)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=pool_work.watch_parent, initargs=(os.getpid(),))
        return await asyncio.get_running_loop().run_in_executor(self._pool, pair, ask)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
