"""The bus: fan-out of "something changed in room X" between server instances.

After an instance commits a change it publishes a small message (never a view, never a
hidden card): `{"kind": "v", "v": 12, ...}` (the match moved on; a plain move carries the
public move itself so others can apply it without reading the store), `{"kind": "room"}`
(lobby or presence changed), `{"kind": "chat", ...}` (a chat line, stored before it is published).
Every subscriber of that room, on every instance, catches up and pushes each of its sockets
its own view.

`LocalBus` serves one process; `RedisBus` (redis-py asyncio pub/sub, one channel per room)
serves several instances. Delivery is in order per subscription and at-most-once; a
subscriber that may have missed messages (the Redis connection dropped) is sent
`{"kind": "resync"}` and reloads from the store. `subscribe` returns once the subscription is
active, so a change committed after it returns is never missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from app.platform.mailbox import Mailbox

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]
RESYNC: dict[str, Any] = {"kind": "resync"}
BACKLOG = 1000  # messages a subscription may be behind before it drops them and resyncs
OUTBOX_LIMIT = 100_000  # messages kept for Redis while it is unreachable


class Subscription(Protocol):
    def close(self) -> None: ...


class Bus(Protocol):
    """Publish/subscribe by room code."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, room: str, message: dict[str, Any]) -> None: ...

    async def subscribe(self, room: str, handler: Handler, origin: str | None = None) -> Subscription:
        """Call `handler` with each message published for `room`, except those whose
        `origin` field is `origin` (the subscriber's own)."""
        ...


class _Sub:
    """One handler of one room, fed in order by its own task."""

    def __init__(self, hub: _Hub, room: str, handler: Handler, origin: str | None) -> None:
        self.hub, self.room, self.handler, self.origin = hub, room, handler, origin
        self.queue: Mailbox[dict[str, Any]] = Mailbox()
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
        if len(self.queue) < BACKLOG:
            self.queue.put(message)
        else:  # far behind: drop what is queued and start again from the store
            log.warning("bus subscription for room %s is full; it will resync", self.room)
            self.queue.clear()
            self.queue.put(RESYNC)

    def close(self) -> None:
        self.hub._remove(self)
        self.task.cancel()


class _Hub:
    """Subscriptions by room, delivered to on the loop that made them."""

    def __init__(self) -> None:
        self.subs: dict[str, set[_Sub]] = {}

    def _add(self, room: str, handler: Handler, origin: str | None) -> _Sub:
        sub = _Sub(self, room, handler, origin)
        self.subs.setdefault(room, set()).add(sub)
        return sub

    def _remove(self, sub: _Sub) -> None:
        subs = self.subs.get(sub.room)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subs[sub.room]
                self._last_gone(sub.room)

    def _last_gone(self, room: str) -> None:
        return None

    def _deliver(self, room: str, message: dict[str, Any]) -> None:
        origin = message.get("origin")
        for sub in list(self.subs.get(room, ())):
            if origin is not None and sub.origin == origin:
                continue
            loop = sub.task.get_loop()
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if loop is running:
                sub.deliver(message)
            else:
                with contextlib.suppress(RuntimeError):  # that loop has closed
                    loop.call_soon_threadsafe(sub.deliver, message)

    def _close_subs(self) -> None:
        for subs in list(self.subs.values()):
            for sub in list(subs):
                sub.close()


class LocalBus(_Hub):
    """In-process bus. Handlers run on the loop of the instance that subscribed, so several
    app instances in one process (tests) may share one bus."""

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._close_subs()

    async def publish(self, room: str, message: dict[str, Any]) -> None:
        self._deliver(room, message)

    async def subscribe(self, room: str, handler: Handler, origin: str | None = None) -> _Sub:
        return self._add(room, handler, origin)


class RedisBus(_Hub):
    """Redis pub/sub: channel `<prefix>room:<code>` per room. Publishing queues the message and
    returns; one task sends whatever is queued in a pipeline, in order. One pub/sub connection
    receives for every room this instance has loaded; if it drops, it is rebuilt and every
    subscriber is told to resync."""

    def __init__(self, url: str, prefix: str = "spite:") -> None:
        super().__init__()
        self.url, self.prefix = url, prefix
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, bytes]] = []
        self._wake = asyncio.Event()
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._closing = False
        self._membership = asyncio.Lock()  # SUBSCRIBE and UNSUBSCRIBE reach Redis in the order decided
        self.client_name = f"{prefix}bus-{secrets.token_hex(4)}"  # names our connections in CLIENT LIST

    def channel(self, room: str) -> str:
        return f"{self.prefix}room:{room}"

    async def start(self) -> None:
        import redis.asyncio as redis

        self._client = redis.from_url(self.url, health_check_interval=30, client_name=self.client_name)
        await self._client.ping()
        await self._open()
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read())
        self._writer = loop.create_task(self._write())

    async def _open(self) -> None:
        self._pubsub = self._client.pubsub()
        async with self._membership:
            await self._pubsub.subscribe(f"{self.prefix}bus")  # opens the connection; every instance listens here
            for room in list(self.subs):
                channel = self.channel(room)
                self._confirmed[channel] = asyncio.get_running_loop().create_future()
                await self._pubsub.subscribe(channel)

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        if self._writer is not None:
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), 5)
            self._writer.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        self._close_subs()
        for closing in (self._pubsub, self._client):
            if closing is not None:
                with contextlib.suppress(Exception):
                    await closing.aclose()

    async def publish(self, room: str, message: dict[str, Any]) -> None:
        if len(self._outbox) >= OUTBOX_LIMIT:  # Redis has been away long: the others will resync anyway
            log.warning("Redis is not taking bus messages; dropping %d", len(self._outbox))
            self._outbox.clear()
        self._outbox.append((self.channel(room), orjson.dumps(message)))
        self._wake.set()

    async def _write(self) -> None:
        while True:
            if not self._outbox:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, self._outbox = self._outbox, []
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:  # subscribers elsewhere catch up on the next message
                log.exception("could not publish %d bus messages to Redis", len(batch))
                await asyncio.sleep(0.5)

    async def subscribe(self, room: str, handler: Handler, origin: str | None = None) -> _Sub:
        first = room not in self.subs
        sub = self._add(room, handler, origin)
        if first:
            channel = self.channel(room)
            done = self._confirmed.get(channel)
            if done is None or done.done():
                done = self._confirmed[channel] = asyncio.get_running_loop().create_future()
            try:
                async with self._membership:
                    await self._pubsub.subscribe(channel)
                await asyncio.wait_for(asyncio.shield(done), 5)
            except Exception:  # the reader rebuilds the connection and resyncs this room
                log.warning("subscribing to %s is slow or failed; the room will resync", channel, exc_info=True)
        return sub

    def _last_gone(self, room: str) -> None:
        if self._closing or self._pubsub is None:
            return
        self._confirmed.pop(self.channel(room), None)
        task = asyncio.get_running_loop().create_task(self._leave(room))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _leave(self, room: str) -> None:
        """Unsubscribe from a room nobody here follows, unless it was followed again meanwhile:
        Redis must never see the UNSUBSCRIBE after a new SUBSCRIBE (this instance would be
        deaf to the room), so both are sent under one lock and this one only if still unwanted."""
        async with self._membership:
            if room in self.subs or self._closing or self._pubsub is None:
                return
            await self._pubsub.unsubscribe(self.channel(room))

    async def _read(self) -> None:
        pause = 0.1
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=None)
                pause = 0.1
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lost the Redis bus connection; reconnecting", exc_info=True)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                try:
                    await self._open()
                except Exception:
                    continue
                for room in list(self.subs):
                    self._deliver(room, RESYNC)
                continue
            if msg is not None:
                self._on_message(msg)

    def _on_message(self, msg: dict[str, Any]) -> None:
        channel = msg.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not isinstance(channel, str) or not channel.startswith(self.prefix + "room:"):
            return
        room = channel[len(self.prefix) + 5:]
        kind = msg.get("type")
        if kind == "subscribe":
            done = self._confirmed.get(channel)
            if done is not None and not done.done():
                done.set_result(None)
            elif done is not None:  # redis-py reconnected and subscribed again: we may have missed messages
                self._deliver(room, RESYNC)
            return
        if kind != "message":
            return
        try:
            data = orjson.loads(msg["data"])
        except (orjson.JSONDecodeError, TypeError):
            log.warning("ignoring a malformed bus message on %s", channel)
            return
        if isinstance(data, dict):
            self._deliver(room, data)


def make_bus(redis_url: str | None, prefix: str = "spite:") -> Bus:
    """The bus for these settings: Redis when `SPITE_REDIS_URL` is set, else in-process."""
    if redis_url:
        return RedisBus(redis_url, prefix)
    return LocalBus()
