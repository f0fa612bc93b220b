"""The bus: fan-out of "something changed in room X" between server instances.

After an instance commits a change it publishes a small message (never a view, never a
hidden card): `{"kind": "v", "v": 12}` (the match moved on), `{"kind": "room"}` (lobby or
presence changed), `{"kind": "chat", ...}` (a chat line, which is not stored). Every
subscriber of that room, on every instance, catches up from the store and pushes each of
its sockets its own view. `LocalBus` serves one process; a Redis bus can implement the same
`Bus` interface for several instances. Delivery is in order per subscription and
at-most-once; subscribers must tolerate a missed message (they catch up on the next one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Subscription(Protocol):
    def close(self) -> None: ...


class Bus(Protocol):
    """Publish/subscribe by room code."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, room: str, handler: Handler) -> Subscription: ...


class _LocalSubscription:
    """One handler of one room, fed in order by its own task."""

    def __init__(self, bus: LocalBus, room: str, handler: Handler) -> None:
        self.bus, self.room, self.handler = bus, room, handler
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1000)
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.handler(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # a subscriber's failure must not stop the others
                log.exception("bus handler for room %s failed", self.room)

    def deliver(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("bus subscription for room %s is full; dropping a message", self.room)

    def close(self) -> None:
        subs = self.bus.subs.get(self.room)
        if subs is not None:
            subs.discard(self)
            if not subs:
                del self.bus.subs[self.room]
        self.task.cancel()


class LocalBus:
    """In-process bus. Handlers run on the loop of the instance that subscribed, so several
    app instances in one process (tests) may share one bus."""

    def __init__(self) -> None:
        self.subs: dict[str, set[_LocalSubscription]] = {}

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        for subs in list(self.subs.values()):
            for sub in list(subs):
                sub.close()

    async def publish(self, room: str, message: dict[str, Any]) -> None:
        for sub in list(self.subs.get(room, ())):
            loop = sub.task.get_loop()
            if loop is asyncio.get_running_loop():
                sub.deliver(message)
            else:
                with contextlib.suppress(RuntimeError):  # that loop has closed
                    loop.call_soon_threadsafe(sub.deliver, message)

    def subscribe(self, room: str, handler: Handler) -> _LocalSubscription:
        sub = _LocalSubscription(self, room, handler)
        self.subs.setdefault(room, set()).add(sub)
        return sub


def make_bus(redis_url: str | None) -> Bus:
    """The bus for these settings. Only the in-process bus exists so far: with
    `SPITE_REDIS_URL` set this still serves one instance (and says so in the log)."""
    if redis_url:
        log.warning("SPITE_REDIS_URL is set, but this build has only the in-process bus")
    return LocalBus()
