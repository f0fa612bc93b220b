"""Tokens: revoked by signing out (at once on REST and on open sockets, on this instance and
on another), and expired once unused for SPITE_TOKEN_IDLE_DAYS."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import update

from app.platform.bus import LocalBus
from app.store.db import make_engine, make_sessions
from app.store.repositories.tokens import hash_token
from app.store.tables import Token, utcnow

from .helpers import ServerThread, Sock, new_person, new_room


async def _closed(sock: Sock, timeout: float = 5.0) -> tuple[int | None, str]:
    for _ in range(int(timeout / 0.05)):
        if sock.closed:
            return sock.closed
        await asyncio.sleep(0.05)
    raise AssertionError("the socket stayed open")


async def test_signing_out_stops_the_token_on_rest_and_sockets_everywhere(start_server: Any) -> None:
    bus = LocalBus()  # two instances on one database
    one: ServerThread = start_server(bus=bus, heartbeat_seconds=0.5)
    two: ServerThread = start_server(bus=bus, heartbeat_seconds=0.5)
    async with httpx.AsyncClient(base_url=one.base) as http:
        ann = await new_person(http, "Ann")
        bob = await new_person(http, "Bob")
        room = await new_room(http, ann)
        here = await Sock.open(one.base, room["code"], ann)
        there = await Sock.open(two.base, room["code"], ann)
        other = await Sock.open(one.base, room["code"], bob)
        r = await http.delete("/api/sessions/current", headers=ann.auth)
        assert r.status_code == 204
        assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 401
        assert (await http.delete("/api/sessions/current", headers=ann.auth)).status_code == 401
        assert (await _closed(here, 1.0))[0] == 4401  # at once on this instance
        assert (await _closed(there, 5.0))[0] == 4401  # within a heartbeat on the other
        assert other.closed is None and (await http.get("/api/players/me", headers=bob.auth)).status_code == 200
        late = await Sock.open(two.base, room["code"], ann, hello=False)
        await late.send({"type": "hello", "token": ann.token})
        assert (await _closed(late))[0] == 4401


async def test_a_token_unused_for_too_long_stops_working(server: ServerThread, http: httpx.AsyncClient,
                                                         db_url: str) -> None:
    ann = await new_person(http, "Ann")
    assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 200
    engine = make_engine(db_url)  # the test's own connection (the server's lives on its thread's loop)
    try:
        async with make_sessions(engine)() as s:
            await s.execute(update(Token).where(Token.token_hash == hash_token(ann.token))
                            .values(used_at=utcnow() - timedelta(days=181)))
            await s.commit()
    finally:
        await engine.dispose()
    assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 401
