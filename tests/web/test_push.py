"""Web Push over real sockets and a real push endpoint on 127.0.0.1 (tests/web/pushsink.py):
the turn passing to a player with no socket in a turn-based room reaches their device as an
RFC 8291 message the test decrypts with the device's own keys, VAPID-signed, once per turn; a
410 removes the subscription; a push service that hangs is cut off by the timeout and retried,
and no move waits for it. Subscriptions to addresses the server may not post to are refused."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from py_vapid import Vapid02
from sqlalchemy import select

from app.store.db import make_engine, make_sessions
from app.store.tables import Notification, PushSubscription

from .helpers import ServerThread, Sock, new_person, new_room, seat_everyone
from .pushsink import Device, PushSink

PUSH = {"push_hosts": "127.0.0.1", "push_allow_http": True, "push_timeout": 0.5, "notify_backoff": 0.2,
        "notify_poll_seconds": 0.05, "turn_based_min_seconds": 2, "presence_debounce": 0.0}


async def rows(db_url: str, model: Any) -> list[Any]:
    engine = make_engine(db_url)
    try:
        async with make_sessions(engine)() as s:
            return list((await s.execute(select(model))).scalars().all())
    finally:
        await engine.dispose()


async def eventually(check: Any, timeout: float = 15.0) -> Any:
    started = time.monotonic()
    while True:
        got = await check()
        if got:
            return got
        if time.monotonic() - started > timeout:
            raise AssertionError("timed out")
        await asyncio.sleep(0.1)


async def play_turn(sock: Sock, v: int) -> int:
    """The sock's player plays (the last legal move each time) until the turn passes."""
    st = await sock.state_at(v)
    seat = st["view"]["you"]
    while st["view"]["turn"] == seat and st["view"]["status"] == "playing":
        await sock.send({"type": "move", "id": sock.next_id(), "move": st["view"]["legal_moves"][-1]})
        v = st["v"] + 1
        st = await sock.state_at(v)
    return int(st["v"])


async def test_your_turn_reaches_the_device_encrypted_signed_and_once(start_server: Any, db_url: str) -> None:
    sink = PushSink()
    endpoint = ServerThread(sink).start()
    try:
        server = start_server(**PUSH)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            ann, bob = [await new_person(http, n) for n in ("Ann", "Bob")]
            key = (await http.get("/api/push/key")).json()["public_key"]
            phone, gone, hang = Device(), Device(), Device()
            for path, dev in (("/bob/1", phone), ("/gone/2", gone), ("/hang/3", hang)):
                r = await http.post("/api/players/me/push", headers=bob.auth,
                                    json={"endpoint": endpoint.base + path, "keys": dev.keys})
                assert r.status_code == 201, r.text
            code = (await new_room(http, ann, preset="short", seats=2, seed="push", pace="turn_based",
                                   turn_seconds=3600))["code"]
            a, b = await Sock.open(server.base, code, ann), await Sock.open(server.base, code, bob)
            await seat_everyone(a, [a, b])
            await a.send({"type": "start"})
            st = await a.state_at(0)
            v = st["v"]
            if st["view"]["turn"] == 1:
                v = await play_turn(b, v)  # Bob plays his turn while here: nobody is told
            start = len(a.messages)
            await b.close()
            await a.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] == bob.id
                         and m["room"]["seats"][1]["connected"] is False, start=start)
            assert sink.at("/bob/") == []
            started = time.monotonic()
            v = await play_turn(a, v)  # the turn passes to Bob, who has no socket in the room
            moved_in = time.monotonic() - started
            got = await eventually(lambda: asyncio.sleep(0, sink.at("/bob/")))
            message = got[0]
            body = phone.decrypt(message.body)
            assert body == {"type": "your_turn", "room": code, "url": f"/r/{code}", "title": "Your turn",
                            "body": "It is your move in the game with Ann.", "deadline": body["deadline"]}
            assert body["deadline"] is not None
            assert message.headers["content-encoding"] == "aes128gcm" and int(message.headers["ttl"]) > 0
            auth = message.headers["authorization"]
            assert auth.startswith("vapid t=") and f"k={key}" in auth and Vapid02.verify(auth)
            # 410: the subscription is removed; the hanging service is cut off and tried again.
            await eventually(lambda: _endpoints(db_url, bob.id, endpoint.base + "/gone/2", present=False))
            await eventually(lambda: _attempts(db_url, "/hang/3", 2))
            assert len(sink.at("/gone/")) == 1
            assert moved_in < 5, "no move waited for a push service"
            await asyncio.sleep(1.0)
            assert len(sink.at("/bob/")) == 1, "at most one your_turn per room per turn"
            metrics = (await http.get("/metrics")).text
            assert 'spite_notifications_total{channel="push",outcome="sent"}' in metrics
            assert 'spite_notifications_total{channel="push",outcome="dropped"}' in metrics
            assert 'spite_notifications_total{channel="push",outcome="retried"}' in metrics
            await a.close()
    finally:
        endpoint.stop()


async def _endpoints(db_url: str, player: str, endpoint: str, *, present: bool) -> bool:
    subs = [s.endpoint for s in await rows(db_url, PushSubscription) if s.player_id == player]
    return (endpoint in subs) == present


async def _attempts(db_url: str, path: str, at_least: int) -> bool:
    subs = {s.id: s.endpoint for s in await rows(db_url, PushSubscription)}
    hung = [n for n in await rows(db_url, Notification)
            if n.subscription_id is not None and subs.get(n.subscription_id, "").endswith(path)]
    return bool(hung) and hung[0].attempts >= at_least and hung[0].state in ("queued", "claimed")


async def test_the_server_never_keeps_an_endpoint_it_may_not_post_to(api: httpx.AsyncClient, db_url: str) -> None:
    ann = await new_person(api, "Ann")
    keys = Device().keys
    bad_endpoints = [
        "https://evil.example.org/push", "http://fcm.googleapis.com/fcm/send/x", "https://127.0.0.1/x",
        "https://user:pw@fcm.googleapis.com/x", "https://fcm.googleapis.com.evil.org/x", "ftp://fcm.googleapis.com/x",
        "https://169.254.169.254/latest", "https://[::1]/x", "not a url", "https://fcm.googleapis.com:99999/x",
        "https://" + "a" * 1100, "https://fcm.googleapis.com:22/x", "https://fcm.googleapis.com:8443/x",
    ]
    for bad in bad_endpoints:
        r = await api.post("/api/players/me/push", headers=ann.auth, json={"endpoint": bad, "keys": keys})
        assert r.status_code == 422, (bad, r.text)
    for port in (22, 8443):  # push services listen on 443 only
        r = await api.post("/api/players/me/push", headers=ann.auth,
                           json={"endpoint": f"https://fcm.googleapis.com:{port}/x", "keys": keys})
        assert r.status_code == 422 and r.json()["reason"] == "bad_push_subscription"
        assert r.json()["detail"] == "endpoint must be on port 443"
    good = "https://fcm.googleapis.com/fcm/send/abc"
    for bad_keys in ({"p256dh": "AAAA", "auth": keys["auth"]}, {"p256dh": keys["p256dh"], "auth": "AAAA"},
                     {"p256dh": "B" + keys["p256dh"][1:-4] + "AAAA", "auth": keys["auth"]},
                     {"p256dh": "!!", "auth": "!!"}):
        r = await api.post("/api/players/me/push", headers=ann.auth, json={"endpoint": good, "keys": bad_keys})
        assert r.status_code == 422, (bad_keys, r.text)
    assert await rows(db_url, PushSubscription) == []
    assert (await api.post("/api/players/me/push", json={"endpoint": good, "keys": keys})).status_code == 401
    r = await api.post("/api/players/me/push", headers=ann.auth, json={"endpoint": good, "keys": keys})
    assert r.status_code == 201
    assert [s.endpoint for s in await rows(db_url, PushSubscription)] == [good]
    r = await api.request("DELETE", "/api/players/me/push", headers=ann.auth, json={"endpoint": good})
    assert r.status_code == 204 and await rows(db_url, PushSubscription) == []
    key = (await api.get("/api/push/key")).json()["public_key"]
    assert len(key) == 87  # base64url of a 65-byte point
