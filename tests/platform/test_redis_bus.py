"""The Redis bus (`app.platform.bus.RedisBus`) against the real Redis: a subscription is live when
`subscribe` returns, origins are filtered across instances, a malformed message is skipped,
the last subscriber's leaving unsubscribes the channel, and one connection serves many rooms.
(Order across instances, other sites and a dropped connection: tests/platform/test_redis_instances.py.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as redis

from app.platform.bus import RedisBus, make_bus

from .conftest import Inbox


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


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[redis.Redis]:
    client = redis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


async def test_a_subscription_is_live_when_subscribe_returns(buses: tuple[RedisBus, RedisBus],
                                                             raw: redis.Redis) -> None:
    """A message published by anyone right after `subscribe` returns is heard (a change
    committed after subscribing is never missed)."""
    _, two = buses
    inboxes = []
    for i in range(20):
        inbox = Inbox()
        await two.subscribe(f"R{i}", inbox)
        await raw.publish(two.channel(f"R{i}"), b'{"kind": "v", "v": 1}')
        inboxes.append(inbox)
    for inbox in inboxes:
        await inbox.until(lambda got: got == [{"kind": "v", "v": 1}])


async def test_an_instance_does_not_hear_its_own_origin(buses: tuple[RedisBus, RedisBus]) -> None:
    one, two = buses
    own, other = Inbox(), Inbox()
    await one.subscribe("ROOM", own, origin="one")
    await two.subscribe("ROOM", other, origin="two")
    await one.publish("ROOM", {"kind": "room", "origin": "one"})
    await one.publish("ROOM", {"kind": "room", "origin": "two"})
    await one.publish("ROOM", {"kind": "v", "v": 3, "origin": "one"})
    await other.until(lambda got: len(got) == 2)
    await own.until(lambda got: len(got) == 1)
    await asyncio.sleep(0.1)
    assert own.got == [{"kind": "room", "origin": "two"}]
    assert [m["kind"] for m in other.got] == ["room", "v"]


async def test_a_malformed_message_is_skipped_and_the_next_one_heard(buses: tuple[RedisBus, RedisBus],
                                                                    raw: redis.Redis) -> None:
    one, two = buses
    inbox = Inbox()
    await two.subscribe("ROOM", inbox)
    for junk in (b"not json", b"[1, 2]", b'"text"', b"\xff\xfe"):
        await raw.publish(two.channel("ROOM"), junk)
    await one.publish("ROOM", {"kind": "room"})
    await inbox.until(lambda got: len(got) >= 1)
    await asyncio.sleep(0.1)
    assert inbox.got == [{"kind": "room"}]


async def _subscribers(raw: redis.Redis, channel: str) -> int:
    [(_, count)] = await raw.pubsub_numsub(channel)
    return int(count)


async def test_the_last_subscriber_leaving_unsubscribes_the_channel(buses: tuple[RedisBus, RedisBus],
                                                                    raw: redis.Redis) -> None:
    _, two = buses
    channel = two.channel("ROOM")
    first, second = await two.subscribe("ROOM", Inbox()), await two.subscribe("ROOM", Inbox())
    assert await _subscribers(raw, channel) == 1  # one pub/sub connection per instance
    first.close()
    await asyncio.sleep(0.1)
    assert await _subscribers(raw, channel) == 1
    second.close()
    deadline = time.monotonic() + 5
    while await _subscribers(raw, channel) != 0:
        assert time.monotonic() < deadline, "the channel is still subscribed"
        await asyncio.sleep(0.02)
    again = Inbox()  # and the room can be followed again
    await two.subscribe("ROOM", again)
    await raw.publish(channel, b'{"kind": "room"}')
    await again.until(lambda got: got == [{"kind": "room"}])


async def test_one_connection_serves_many_rooms_each_in_order(buses: tuple[RedisBus, RedisBus],
                                                              raw: redis.Redis) -> None:
    one, two = buses
    rooms = [f"R{i}" for i in range(30)]
    inboxes = {room: Inbox() for room in rooms}
    for room in rooms:
        await two.subscribe(room, inboxes[room])
    for v in range(20):
        for room in rooms:
            await one.publish(room, {"kind": "v", "v": v, "room": room})
    for room in rooms:
        await inboxes[room].until(lambda got: len(got) == 20)
        assert [(m["room"], m["v"]) for m in inboxes[room].got] == [(room, v) for v in range(20)]
    names = [c for c in await raw.client_list() if c.get("name") == two.client_name]
    assert len(names) <= 2, names  # its pub/sub connection (and one for commands), not one per room


def test_with_a_redis_url_the_bus_is_redis() -> None:
    bus = make_bus("redis://127.0.0.1:6379/0", "site:")
    assert isinstance(bus, RedisBus) and bus.channel("ABC") == "site:room:ABC"


async def test_a_room_left_and_followed_again_at_once_is_still_heard(buses: tuple[RedisBus, RedisBus],
                                                                     raw: redis.Redis) -> None:
    """An instance unloads a room (its last subscriber leaves) and a socket loads it again in
    the same moment: the channel's UNSUBSCRIBE must not reach Redis after the new SUBSCRIBE,
    or this instance is deaf to the room for good (the chaos test's lost seat, 2026-12-07)."""
    _, two = buses
    for i in range(10):
        room = f"AGAIN{i}"
        first = await two.subscribe(room, Inbox())
        first.close()  # the room is unloaded...
        inbox = Inbox()
        await two.subscribe(room, inbox)  # ...and loaded again before the loop turns
        await asyncio.sleep(0.05)  # whatever the leaving queued has run
        assert (await raw.pubsub_numsub(two.channel(room)))[0][1] == 1
        await raw.publish(two.channel(room), b'{"kind": "v", "v": 1}')
        await inbox.until(lambda got: got == [{"kind": "v", "v": 1}])
