"""The outbox under a push service that hangs or fails, over real sockets and a real push endpoint
on 127.0.0.1 (tests/web/pushsink.py): a hanging service holds its own rows only (one send at a
time per subscription, each in its own task), so another player's push arrives while the hanging
requests are still open; a subscription whose sends keep failing is dropped after
SPITE_PUSH_FAILURE_BUDGET failures in a row; a player gets at most SPITE_NOTIFY_PLAYER_HOUR rows
an hour, however many invite them."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.store.db import make_engine, make_sessions
from app.store.repositories import outbox
from app.store.tables import Notification, PushSubscription

from .helpers import Person, ServerThread, new_person, new_room
from .pushsink import Device, PushSink
from .social_helpers import befriend
from .test_push import PUSH, eventually, rows


async def _subscribe(http: httpx.AsyncClient, who: Person, endpoint: str, device: Device) -> None:
    r = await http.post("/api/players/me/push", headers=who.auth, json={"endpoint": endpoint, "keys": device.keys})
    assert r.status_code == 201, r.text


async def _queue(db_url: str, player_id: str, tag: str, times: int) -> None:
    """Queue `times` messages for each of the player's subscriptions, as the room shell does."""
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            subs = await outbox.subscriptions_of(s, [player_id])
            payload = {"type": "invitation", "room": "R", "url": "/r/R", "title": tag, "body": tag}
            await outbox.enqueue(s, [outbox.Outgoing(f"{tag}:{n}:push:{sub.id}", "push", player_id, sub.id, payload)
                                     for n in range(times) for sub in subs])
    finally:
        await engine.dispose()


async def test_a_hanging_push_service_delays_no_one_else(start_server: Any, db_url: str) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**{**PUSH, "push_timeout": 60})  # the hanging requests stay open for the test
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            mallory, bob = await new_person(http, "Mallory"), await new_person(http, "Bob")
            for n in range(10):
                await _subscribe(http, mallory, f"{endpoint.base}/hang/{n}", Device())
            # 30 rows on the hanging service (more than a batch of 20), queued before Bob's one.
            await _queue(db_url, mallory.id, "flood", 3)
            phone = Device()
            await _subscribe(http, bob, f"{endpoint.base}/bob/1", phone)
            await _queue(db_url, bob.id, "hello", 1)
            seen = await asyncio.to_thread(sink.until, lambda: sink.hung_up or (
                sink.at("/bob/") and len(sink.at("/hang/")) == 10))
            assert seen
            assert sink.hung_up == [], "Bob's push waited for the hanging service to be given up"
            assert phone.decrypt(sink.at("/bob/")[0].body)["title"] == "hello"
            # One send at a time per subscription: the other 20 rows wait for their own device.
            assert sorted(r.path for r in sink.at("/hang/")) == sorted(f"/hang/{n}" for n in range(10))
        server.stop()  # the server hangs up on the hanging service before it is stopped
    finally:
        endpoint.stop()


async def test_a_subscription_that_keeps_failing_is_dropped(start_server: Any, db_url: str) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**PUSH, push_failure_budget=2, notify_attempts=6)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann = await new_person(http, "Ann")
            await _subscribe(http, ann, f"{endpoint.base}/fail/1", Device())
            await _queue(db_url, ann.id, "try", 1)
            ended = await eventually(lambda: _ended(db_url))
            assert [(n.state, n.attempts) for n in ended] == [("dropped", 2)]
            assert "2 failures in a row: subscription removed" in (ended[0].last_error or "")
            assert await rows(db_url, PushSubscription) == []
            assert len(sink.at("/fail/")) == 2
    finally:
        endpoint.stop()


async def _ended(db_url: str) -> list[Notification]:
    return [n for n in await rows(db_url, Notification) if n.state not in ("queued", "claimed")]


async def test_a_player_gets_at_most_notify_player_hour_notifications(start_server: Any, db_url: str) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**PUSH, notify_player_hour=2)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            bob = await new_person(http, "Bob")
            await _subscribe(http, bob, f"{endpoint.base}/bob/1", Device())
            for name in ("Ann", "Cid", "Dee"):
                friend = await new_person(http, name)
                await befriend(http, friend, bob)
                room = await new_room(http, friend)
                r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": bob.id},
                                    headers=friend.auth)
                assert r.status_code == 201, r.text  # the invitation stands; only its push is left out
            queued = [n for n in await rows(db_url, Notification) if n.player_id == bob.id]
            assert len(queued) == 2
    finally:
        endpoint.stop()
