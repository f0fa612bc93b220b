"""The Redis bus: messages between instances, in order, per room and per site prefix; a
subscriber whose connection dropped is told to resync and keeps receiving."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as redis

from app.platform.bus import RESYNC, RedisBus

Msg = dict[str, Any]


class Inbox:
    def __init__(self) -> None:
        self.got: list[Msg] = []

    async def __call__(self, msg: Msg) -> None:
        self.got.append(msg)

    async def until(self, pred: Callable[[list[Msg]], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred(self.got):
            assert time.monotonic() < deadline, f"timed out; got {self.got[-5:]}"
            await asyncio.sleep(0.01)


@pytest.fixture
async def buses(redis_url: str, prefix: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    """Two instances' buses on one site."""
    one, two = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
    await one.start()
    await two.start()
    try:
        yield one, two
    finally:
        await one.close()
        await two.close()


async def test_messages_cross_instances_in_order(buses: tuple[RedisBus, RedisBus]) -> None:
    one, two = buses
    here, there, elsewhere = Inbox(), Inbox(), Inbox()
    await one.subscribe("ROOMA", here)
    await two.subscribe("ROOMA", there)
    await two.subscribe("ROOMB", elsewhere)
    for i in range(200):
        await one.publish("ROOMA", {"kind": "v", "v": i})
    await there.until(lambda got: len(got) == 200)
    await here.until(lambda got: len(got) == 200)  # the publisher's own subscribers hear it too
    assert [m["v"] for m in there.got] == list(range(200))
    await two.publish("ROOMB", {"kind": "room"})
    await elsewhere.until(lambda got: len(got) == 1)
    await asyncio.sleep(0.1)
    assert len(there.got) == 200 and elsewhere.got == [{"kind": "room"}]


async def test_closed_subscriptions_and_other_sites_hear_nothing(buses: tuple[RedisBus, RedisBus],
                                                                 redis_url: str, prefix: str) -> None:
    one, two = buses
    other_site = RedisBus(redis_url, prefix + "other:")
    await other_site.start()
    try:
        kept, dropped, foreign = Inbox(), Inbox(), Inbox()
        await two.subscribe("ROOM", kept)
        sub = await two.subscribe("ROOM", dropped)
        await other_site.subscribe("ROOM", foreign)
        await one.publish("ROOM", {"kind": "v", "v": 1})
        await dropped.until(lambda got: len(got) == 1)
        sub.close()
        await one.publish("ROOM", {"kind": "v", "v": 2})
        await kept.until(lambda got: len(got) == 2)
        await asyncio.sleep(0.1)
        assert dropped.got == [{"kind": "v", "v": 1}] and foreign.got == []
    finally:
        await other_site.close()


async def test_a_failing_handler_does_not_stop_the_others(buses: tuple[RedisBus, RedisBus]) -> None:
    one, two = buses
    good = Inbox()

    async def bad(msg: Msg) -> None:
        raise RuntimeError("boom")

    await two.subscribe("ROOM", bad)
    await two.subscribe("ROOM", good)
    for i in range(3):
        await one.publish("ROOM", {"kind": "v", "v": i})
    await good.until(lambda got: len(got) == 3)


async def test_a_dropped_connection_resyncs_and_recovers(buses: tuple[RedisBus, RedisBus], redis_url: str) -> None:
    one, two = buses
    inbox = Inbox()
    await two.subscribe("ROOM", inbox)
    await one.publish("ROOM", {"kind": "v", "v": 1})
    await inbox.until(lambda got: len(got) == 1)
    admin = redis.from_url(redis_url)
    try:
        clients = await admin.client_list()
        mine = [c for c in clients if c.get("name") == two.client_name]
        assert mine, "the bus names its connections"
        for c in mine:
            await admin.client_kill_filter(_id=c["id"])
    finally:
        await admin.aclose()
    await inbox.until(lambda got: RESYNC in got, timeout=10)
    deadline = time.monotonic() + 10
    while {"kind": "v", "v": 2} not in inbox.got[inbox.got.index(RESYNC):]:
        assert time.monotonic() < deadline, "no message arrived after the resync"
        await one.publish("ROOM", {"kind": "v", "v": 2})
        await asyncio.sleep(0.1)
