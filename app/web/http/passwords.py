"""Password hashing (argon2id, argon2-cffi) behind a gate: at most `SPITE_HASH_WORKERS` hashes
at once, in threads of their own (not the default pool that replays and the store share) run
below the event loop's priority (`SPITE_HASH_NICE`: argon2's lane threads inherit it), and
at most `SPITE_HASH_QUEUE` more waiting; past that a caller is told `Busy` at once instead of
queueing without bound. Hashing is slow on purpose (about 50 ms of one core and 64 MiB), so
this is what keeps a flood of sign-ins, right password or not, from taking every core and
every database connection. Nobody holds a database connection across a hash."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher()  # argon2id, the library's recommended cost


class Busy(Exception):
    """Too many hashes running and waiting: try again in a moment."""


@functools.cache
def _decoy() -> str:
    """A hash to verify against when the username is unknown, so both refusals take as long."""
    return HASHER.hash("not anybody's password")


def _verify(hashed: str | None, password: str) -> bool:
    try:
        return HASHER.verify(hashed or _decoy(), password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


def _lower_priority(nice: int) -> None:
    """Run this hash thread (and the lane threads argon2 starts from it, which inherit it) at a
    lower priority than the event loop, so hashing takes the cores the loop leaves idle."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


class HashGate:
    """Runs argon2 in `workers` threads; refuses (`Busy`) past `queue` callers waiting."""

    def __init__(self, workers: int, queue: int, nice: int = 10) -> None:
        self.workers = workers
        self.queue = queue
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2", initializer=_lower_priority,
                                       initargs=(nice,))
        self.slots = asyncio.Semaphore(workers)
        self.waiting = 0

    async def _run(self, fn: Any, *args: Any) -> Any:
        if self.slots.locked() and self.waiting >= self.queue:
            raise Busy
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:
            self.waiting -= 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.slots.release()

    async def hash(self, password: str) -> str:
        hashed: str = await self._run(HASHER.hash, password)
        return hashed

    async def verify(self, hashed: str | None, password: str) -> bool:
        """Whether `password` matches `hashed` (None: no such account; as slow as a mismatch)."""
        ok: bool = await self._run(_verify, hashed, password)
        return ok

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
