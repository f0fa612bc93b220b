"""Helpers of the tests of friends, invitations, quick match and the daily deal: lobby sockets,
friendships, tickets."""

from __future__ import annotations

import asyncio

import httpx
from websockets.asyncio.client import connect

from .helpers import Person, Sock


async def lobby(base: str, person: Person, *, hello: bool = True) -> Sock:
    """A real lobby socket (`/ws/lobby`), hello said and welcomed."""
    ws = await connect(base.replace("http", "ws", 1) + "/ws/lobby", open_timeout=10)
    sock = Sock(ws, person)
    if hello:
        await sock.send({"type": "hello", "token": person.token})
        await sock.wait(lambda m: m["type"] == "welcome")
    return sock


async def befriend(http: httpx.AsyncClient, a: Person, b: Person) -> None:
    assert (await http.put(f"/api/players/me/friends/{b.id}", headers=a.auth)).status_code == 204
    assert (await http.put(f"/api/players/me/friends/{a.id}", headers=b.auth)).status_code == 204


async def block(http: httpx.AsyncClient, a: Person, b: Person) -> None:
    assert (await http.put(f"/api/players/me/blocks/{b.id}", headers=a.auth)).status_code == 204


async def closed_with(sock: Sock) -> int | None:
    for _ in range(200):
        if sock.closed is not None:
            return sock.closed[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the socket stayed open")


async def ticket(http: httpx.AsyncClient, p: Person, **body: object) -> str:
    r = await http.post("/api/quick-match", json=body, headers=p.auth)
    assert r.status_code == 202, r.text
    return str(r.json()["ticket"])
