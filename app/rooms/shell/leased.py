"""A loop that runs on exactly one instance at a time: each pass first takes (or renews) a named
lease in the lease table that says which instance drives a room, so one instance at a time does
the work, and another takes over within a lease period if it dies (quick match's matcher,
tournaments' round runner)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.rooms.shell.service import RoomService
from app.store.repositories import leases

log = logging.getLogger(__name__)


async def run_leased(lease: str, service: RoomService, sessions: async_sessionmaker[AsyncSession], every: float,
                     work: Callable[[], Awaitable[object]], wake: asyncio.Event | None = None) -> None:
    """Every `every` seconds (or at once when `wake` is set), run `work` if this instance holds
    `lease` (for three passes, at least 3 s) and is not draining. A failed pass is logged; the
    loop goes on until cancelled."""
    while True:
        if wake is None:
            await asyncio.sleep(every)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), every)
            wake.clear()
        try:
            async with sessions() as s:
                mine = await leases.acquire(s, lease, service.instance, max(3 * every, 3.0))
            if mine and not service.draining:
                await work()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a pass of %s failed", lease)
