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

from .helpers import Person, ServerThread, Sock, new_account, new_person, new_room
from .social_helpers import befriend, lobby


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
        lobby_here, lobby_there = await lobby(one.base, ann), await lobby(two.base, ann)
        r = await http.delete("/api/sessions/current", headers=ann.auth)
        assert r.status_code == 204
        assert (await http.get("/api/players/me", headers=ann.auth)).status_code == 401
        assert (await http.delete("/api/sessions/current", headers=ann.auth)).status_code == 401
        assert (await _closed(here, 1.0))[0] == 4401  # at once on this instance
        assert (await _closed(there, 5.0))[0] == 4401  # within a heartbeat on the other
        assert await _closed_code(lobby_here) == await _closed_code(lobby_there) == 4401  # the lobby's too
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


async def _closed_code(sock: Sock) -> int | None:
    """The code the server closed `sock` with, once it has (the reader ends with the socket)."""
    await asyncio.wait_for(asyncio.shield(sock.reader), 10)
    assert sock.closed is not None
    return sock.closed[0]


async def _invite(http: httpx.AsyncClient, host: Person, guest: Person) -> str:
    room = await new_room(http, host)
    r = await http.post(f"/api/rooms/{room['code']}/invitations", json={"player_id": guest.id}, headers=host.auth)
    assert r.status_code == 201, r.text
    return str(room["code"])


async def test_signing_out_everywhere_closes_the_lobby_socket(server: ServerThread, http: httpx.AsyncClient) -> None:
    """The lobby socket carries invitations (room codes) and friends' presence: once its token
    is signed out it closes 4401 like the room socket, and nothing more reaches it."""
    ann, bob = await new_account(http, "Ann", "ann"), await new_person(http, "Bob")
    await befriend(http, ann, bob)
    bob_lobby = await lobby(server.base, bob)
    ann_lobby = await lobby(server.base, ann)
    await bob_lobby.wait(lambda m: m["type"] == "friend" and m["player_id"] == ann.id and m["online"])
    assert (await http.delete("/api/sessions", headers=ann.auth)).status_code == 204
    assert await _closed_code(ann_lobby) == 4401
    await bob_lobby.wait(lambda m: m["type"] == "friend" and m["player_id"] == ann.id and not m["online"])
    await _invite(http, bob, ann)
    assert not any(m["type"] == "invitation" for m in ann_lobby.messages)
    late = await lobby(server.base, ann, hello=False)
    await late.send({"type": "hello", "token": ann.token})
    assert await _closed_code(late) == 4401


async def test_a_new_password_closes_the_other_devices_lobby_sockets(server: ServerThread,
                                                                      http: httpx.AsyncClient) -> None:
    ann, bob = await new_account(http, "Ann", "ann"), await new_person(http, "Bob")
    await befriend(http, ann, bob)
    r = await http.post("/api/sessions", json={"username": "ann", "password": "correct horse"})
    phone = Person(ann.id, ann.name, r.json()["token"])
    laptop_lobby, phone_lobby = await lobby(server.base, ann), await lobby(server.base, phone)
    body = {"old_password": "correct horse", "new_password": "a new password"}
    assert (await http.put("/api/account/password", json=body, headers=ann.auth)).status_code == 204
    assert await _closed_code(phone_lobby) == 4401
    code = await _invite(http, bob, ann)
    got = await laptop_lobby.wait(lambda m: m["type"] == "invitation")  # this device stays signed in
    assert got["room"] == code
    assert not any(m["type"] == "invitation" for m in phone_lobby.messages)
    await laptop_lobby.close()
