"""Database faults, told honestly and promptly: with SQLite locked by another process, or
PostgreSQL refusing connections, moves get `unavailable` within seconds (their sockets stay
open), REST answers 503 with Retry-After, /healthz fails while writes fail, and everything
works again once the database is back."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from tests.conftest import POSTGRES, _admin, fresh_database_url

from .helpers import LoopServer, Sock, new_person, new_room
from .jump_clock import JumpClock


async def _two_at_the_table(server: LoopServer, http: httpx.AsyncClient) -> tuple[Sock, Any, Sock]:
    ann, bob = await new_person(http, "Ann"), await new_person(http, "Bob")
    room = await new_room(http, ann, seats=2, preset="short")
    a, b = await Sock.open(server.base, room["code"], ann), await Sock.open(server.base, room["code"], bob)
    await a.room({"type": "sit", "seat": 0}, lambda r: r["seats"][0]["player_id"] == ann.id)
    await b.room({"type": "sit", "seat": 1}, lambda r: r["seats"][1]["player_id"] == bob.id)
    await a.send({"type": "start"})
    st = await a.state_at(0)
    await b.state_at(0)  # the mover may be b: its first state must have come too
    mover = a if st["view"]["turn"] == 0 else b
    return mover, ann, a


async def _move(sock: Sock, move_id: str) -> dict[str, Any]:
    st = sock.last_state()
    assert st is not None and st["view"]["legal_moves"]
    return await sock.request({"type": "move", "id": move_id, "move": st["view"]["legal_moves"][0]},
                              lambda m: m["type"] == "error" or (m["type"] == "state" and m["v"] > st["v"]),
                              timeout=15)


async def test_sqlite_locked_by_another_process(start_clocked: Any, clock: JumpClock, tmp_path: Any) -> None:
    url = fresh_database_url("sqlite", str(tmp_path))  # SQLite whatever the test's database
    path = make_url(url).database or ""
    server: LoopServer = await start_clocked(db_url=url, db_timeout=1.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        mover, ann, _ = await _two_at_the_table(server, http)
        other = sqlite3.connect(path, timeout=1, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
        try:
            err = await _move(mover, "locked-1")  # refused within the request's 15 s, not after 30
            assert err["type"] == "error" and err["code"] == "unavailable" and err["id"] == "locked-1"
            r = await http.post("/api/rooms", json={}, headers=ann.auth)
            assert r.status_code == 503 and r.headers["retry-after"] and r.json()["message"]
            await clock.advance(2.1)  # the health probe answers at most every 2 s
            assert (await http.get("/healthz")).status_code == 503
            assert mover.closed is None
        finally:
            other.execute("ROLLBACK")
            other.close()
        moved = await _move(mover, "locked-2")
        assert moved["type"] == "state"
        await clock.advance(2.1)
        assert (await http.get("/healthz")).status_code == 200


@pytest.mark.skipif(not POSTGRES, reason="needs PostgreSQL: set SPITE_TEST_POSTGRES_URL")
@pytest.mark.parametrize("db_url", ["postgres"], indirect=True)  # PostgreSQL's own case
async def test_postgres_refusing_connections(start_clocked: Any, clock: JumpClock, db_url: str) -> None:
    name = make_url(db_url).database
    server: LoopServer = await start_clocked(db_timeout=1.0)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        mover, ann, watcher = await _two_at_the_table(server, http)
        await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await _admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
        try:
            err = await _move(mover, "cut-1")  # refused within the request's 15 s
            assert err["type"] == "error" and err["code"] == "unavailable", err
            assert (await http.get(f"/api/players/{ann.id}")).status_code == 503
            await clock.advance(2.1)
            assert (await http.get("/healthz")).status_code == 503
            assert mover.closed is None and watcher.closed is None  # told, not disconnected
        finally:
            await _admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        for attempt in range(20):
            moved = await _move(mover, f"cut-{attempt + 2}")
            if moved["type"] == "state":
                break
            await asyncio.sleep(0.5)
        assert moved["type"] == "state"
