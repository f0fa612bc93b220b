"""The in-process bus (`app.platform.bus.LocalBus`): per room, in order, never back to the publisher's own
origin; a failing or slow subscriber hurts nobody else; handlers run on their own loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from app.platform.bus import RESYNC, LocalBus, make_bus

from .conftest import Inbox, Msg


async def test_messages_go_to_that_rooms_subscribers_in_order() -> None:
    bus = LocalBus()
    a1, a2, b = Inbox(), Inbox(), Inbox()
    await bus.subscribe("A", a1)
    await bus.subscribe("A", a2)
    await bus.subscribe("B", b)
    for i in range(100):
        await bus.publish("A", {"kind": "v", "v": i})
    await a1.until(lambda got: len(got) == 100)
    await a2.until(lambda got: len(got) == 100)
    assert [m["v"] for m in a1.got] == [m["v"] for m in a2.got] == list(range(100))
    assert b.got == []
    await bus.close()


async def test_a_subscriber_does_not_hear_its_own_origin() -> None:
    bus = LocalBus()
    mine, theirs, anyone = Inbox(), Inbox(), Inbox()
    await bus.subscribe("A", mine, origin="me")
    await bus.subscribe("A", theirs, origin="them")
    await bus.subscribe("A", anyone)
    await bus.publish("A", {"kind": "room", "origin": "me"})
    await bus.publish("A", {"kind": "room"})
    await theirs.until(lambda got: len(got) == 2)
    await anyone.until(lambda got: len(got) == 2)
    await asyncio.sleep(0.02)
    assert mine.got == [{"kind": "room"}]
    await bus.close()


async def test_a_failing_handler_hears_the_next_message_and_stops_nobody() -> None:
    bus = LocalBus()
    seen: list[Msg] = []
    good = Inbox()

    async def flaky(msg: Msg) -> None:
        seen.append(msg)
        if msg["v"] == 0:
            raise RuntimeError("boom")

    await bus.subscribe("A", flaky)
    await bus.subscribe("A", good)
    for i in range(3):
        await bus.publish("A", {"kind": "v", "v": i})
    await good.until(lambda got: len(got) == 3)
    for _ in range(100):
        if len(seen) == 3:
            break
        await asyncio.sleep(0.01)
    assert [m["v"] for m in seen] == [0, 1, 2]
    await bus.close()


async def test_a_subscriber_far_behind_drops_its_backlog_and_resyncs() -> None:
    bus = LocalBus()
    release = asyncio.Event()
    got: list[Msg] = []

    async def stuck(msg: Msg) -> None:
        got.append(msg)
        await release.wait()

    fast = Inbox()
    await bus.subscribe("A", stuck)
    await bus.subscribe("A", fast)
    await bus.publish("A", {"kind": "v", "v": -1})
    await asyncio.sleep(0.01)  # `stuck` holds the first message
    for i in range(1500):
        await bus.publish("A", {"kind": "v", "v": i})
        if i % 100 == 0:
            await asyncio.sleep(0)  # the others keep up
    release.set()
    await fast.until(lambda g: len(g) == 1501)  # the others hear everything
    for _ in range(200):
        if got and got[-1] == {"kind": "v", "v": 1499}:
            break
        await asyncio.sleep(0.01)
    assert RESYNC in got and len(got) < 1501, "the backlog should have been dropped for a resync"
    after = got[got.index(RESYNC) + 1:]
    assert [m["v"] for m in after] == list(range(after[0]["v"], 1500))  # in order again after the resync
    await bus.close()


async def test_a_closed_subscription_hears_nothing_more_and_is_forgotten() -> None:
    bus = LocalBus()
    gone, kept = Inbox(), Inbox()
    sub = await bus.subscribe("A", gone)
    await bus.subscribe("A", kept)
    await bus.publish("A", {"kind": "v", "v": 1})
    await gone.until(lambda got: len(got) == 1)
    sub.close()
    await bus.publish("A", {"kind": "v", "v": 2})
    await kept.until(lambda got: len(got) == 2)
    assert gone.got == [{"kind": "v", "v": 1}]
    await bus.close()
    assert bus.subs == {}
    await bus.publish("A", {"kind": "v", "v": 3})
    await asyncio.sleep(0.02)
    assert len(kept.got) == 2


async def test_handlers_run_on_the_loop_that_subscribed() -> None:
    """Two app instances in one process (tests) share a bus: a message published on this loop
    reaches a subscriber of another thread's loop, on that loop."""
    bus = LocalBus()
    ready, done = threading.Event(), threading.Event()
    heard: list[tuple[Msg, Any]] = []
    other: dict[str, Any] = {}

    def instance() -> None:
        async def main() -> None:
            async def handler(msg: Msg) -> None:
                heard.append((msg, asyncio.get_running_loop()))
                done.set()

            other["loop"] = asyncio.get_running_loop()
            await bus.subscribe("A", handler)
            ready.set()
            while not done.is_set():
                await asyncio.sleep(0.01)

        asyncio.run(main())

    thread = threading.Thread(target=instance)
    thread.start()
    assert await asyncio.to_thread(ready.wait, 5)
    await bus.publish("A", {"kind": "room"})
    thread.join(5)
    assert heard and heard[0][0] == {"kind": "room"} and heard[0][1] is other["loop"]


def test_without_redis_the_bus_is_local() -> None:
    assert isinstance(make_bus(None), LocalBus) and isinstance(make_bus(""), LocalBus)
