"""Strangers' input on the socket: every bad message gets an error and changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.conftest import SQLITE_ONLY
from tests.rooms.fakes import FakeClock

from .helpers import LoopServer, ServerThread, Sock, new_person, new_room

pytestmark = SQLITE_ONLY  # the database is not what this module is about (tests/conftest.py)


async def test_malformed_messages(server: ServerThread, http: httpx.AsyncClient) -> None:
    ann = await new_person(http, "Ann")
    room = await new_room(http, ann)
    a = await Sock.open(server.base, room["code"], ann)
    cases = [
        "{oops", "[]", "42", '"text"', "{}", '{"type": 5}', '{"type": "dance"}', '{"type": "sit", "seat": "1"}',
        '{"type": "sit", "seat": true}', '{"type": "move", "id": "a", "move": []}', '{"type": "chat"}',
        '{"type": "configure", "options": [1]}', '{"type": "move", "id": {"x": 1}, "move": {}}',
        '{"type": "remove_bot"}', '{"type": "hello"}',
    ]
    for text in cases:
        err = await a.error(text)  # type: ignore[arg-type]
        assert err["code"] == "bad_message", (text, err)
        assert err["message"]
    unknown = await a.error({"type": "dance"})
    assert "known types" in unknown["message"]
    big = await a.error({"type": "chat", "text": "x" * 9000})
    assert big["code"] == "bad_message" and "bytes" in big["message"]
    await a.ws.send(b"\x00\x01binary")
    binary = await a.wait(lambda m: m["type"] == "error" and "binary" in m["message"])
    assert binary["code"] == "bad_message"
    # Still served, nothing changed.
    r = await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    assert r["status"] == "waiting"


async def test_rate_limit(start_clocked: Any, still_clock: FakeClock) -> None:
    clock = still_clock  # no token comes back until the test says
    server: LoopServer = await start_clocked(on=clock, rate_per_second=5.0, rate_burst=5, rate_strikes=40)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    a = await Sock.open(server.base, room["code"], ann)
    start = len(a.messages)
    for _ in range(20):
        await a.send({"type": "ping"})
    while len([m for m in a.messages[start:] if m["type"] in ("pong", "error")]) < 20:  # each ping is answered
        await a.wait(lambda m: True, start=len(a.messages))
    replies = a.messages[start:]
    assert sum(m["type"] == "pong" for m in replies) == 5  # the burst, and nothing refilled
    assert sum(m["type"] == "error" and m["code"] == "rate_limited" for m in replies) == 15
    await clock.advance(1.0)
    assert (await a.request({"type": "ping"}, lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
    # A flood gets the socket closed.
    for _ in range(60):
        await a.send({"type": "ping"})
    for _ in range(100):
        if a.closed:
            break
        await asyncio.sleep(0.05)
    assert a.closed is not None and a.closed[0] == 1008


async def test_socket_limit(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerThread = start_server(max_sockets_per_player=2)
    async with httpx.AsyncClient(base_url=server.base) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    await Sock.open(server.base, room["code"], ann)
    await Sock.open(server.base, room["code"], ann)
    third = await Sock.open(server.base, room["code"], ann, hello=False)
    await third.send({"type": "hello", "token": ann.token})
    for _ in range(100):
        if third.closed:
            break
        await asyncio.sleep(0.05)
    assert third.closed is not None and third.closed[0] == 4429


async def test_random_messages_change_nothing_they_should_not(server: ServerThread, http: httpx.AsyncClient) -> None:
    import random

    from app.web.wire.room import CLIENT_TYPES

    from .helpers import random_json

    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, seats=2)
    a = await Sock.open(server.base, room["code"], ann)
    b = await Sock.open(server.base, room["code"], bob)
    rng = random.Random(99)
    for i in range(300):
        msg = random_json(rng)
        if isinstance(msg, dict) and rng.random() < 0.8:
            msg["type"] = rng.choice([t for t in CLIENT_TYPES if t not in ("hello", "start", "configure")])
        sock = a if i % 2 else b
        await sock.send(msg if isinstance(msg, dict) else __import__("json").dumps(msg))
    for sock in (a, b):
        pong = await sock.request({"type": "ping"}, lambda m: m["type"] == "pong")
        assert pong and sock.closed is None
    # Whatever the noise did, the room is still coherent and playable.
    r = (await http.get(f"/api/rooms/{room['code']}")).json()
    assert r["status"] == "waiting" and r["seat_count"] == 2
    assert all(s["player_id"] in (None, ann.id, bob.id) for s in r["seats"])
