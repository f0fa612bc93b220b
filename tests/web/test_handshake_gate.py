"""The handshake gate (app/web/sockets/handshake.py): a storm of connections waits its turn for the
database in the order it came, and past `SPITE_HANDSHAKE_WAIT` is told the server is busy
(1013, `server_busy`, in the socket's language) instead of crowding the pool."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.rooms.core.errors import RoomError
from app.web.http.admission import Admission
from tests.conftest import SQLITE_ONLY

from .helpers import ServerThread, new_person, new_room


async def test_the_gate_lets_in_at_most_its_size_first_come_first_in() -> None:
    gate = Admission(2, wait=5.0)
    inside: list[int] = []
    order: list[int] = []
    release = asyncio.Event()

    async def one(i: int) -> None:
        async with gate.turn():
            order.append(i)
            inside.append(gate.inside)
            await release.wait()

    tasks = [asyncio.create_task(one(i)) for i in range(6)]
    await asyncio.sleep(0.05)
    assert order == [0, 1]  # two inside, four waiting
    release.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4, 5]
    assert max(inside) == 2
    assert gate.inside == 0


async def test_a_handshake_that_waits_too_long_is_told_the_server_is_busy() -> None:
    gate = Admission(1, wait=0.05)
    async with gate.turn():
        with pytest.raises(RoomError) as refused:
            async with gate.turn():
                pass
    assert refused.value.reason == "server_busy"
    assert gate.inside == 0
    async with gate.turn():  # the refused waiter took no slot with it
        assert gate.inside == 1


async def _hello(base: str, path: str, token: str) -> tuple[str, int | None, str]:
    """Open a socket, say hello in French; what came first, and how the socket closed."""
    async with connect(base.replace("http", "ws", 1) + path, open_timeout=30,
                       additional_headers={"Accept-Language": "fr-FR"}) as ws:
        try:
            await ws.send(json.dumps({"type": "hello", "token": token, "last_v": None}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        except ConnectionClosed:  # the lobby socket closes with no error frame first
            kind = "busy" if ws.close_code == 1013 else "closed"
            return kind, ws.close_code, ws.close_reason or ""
        if first["type"] == "error":
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 30)
            assert first["reason"] == "server_busy", first
            assert first["message"] == "le serveur est très occupé ; réessayez dans un instant"
            return "busy", ws.close_code, ws.close_reason or ""
        return first["type"], None, ""


@SQLITE_ONLY  # the database is not what this test is about (tests/conftest.py)
@pytest.mark.parametrize("path", ["/ws/rooms/{code}", "/ws/lobby"])
async def test_a_connection_storm_is_admitted_in_turn_or_told_to_come_back(
        start_server: Callable[..., ServerThread], path: str) -> None:
    server = start_server(handshake_concurrency=1, handshake_wait=0.01, max_sockets_per_player=100)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        host = await new_person(http, "Ann")
        code = (await new_room(http, host))["code"]
        people = [await new_person(http, f"P{i}") for i in range(40)]
    got = await asyncio.gather(*(_hello(server.base, path.format(code=code), p.token) for p in people))
    kinds = [k for k, _, _ in got]
    assert set(kinds) <= {"welcome", "busy"}, got  # never "the database is away", never a bare close
    assert "welcome" in kinds
    assert "busy" in kinds  # 40 at once through a gate of one that waits 10 ms: some are turned back
    assert {(c, r) for k, c, r in got if k == "busy"} == {(1013, "the server is busy; try again shortly")}
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:  # and the server is fine after
        assert (await http.get("/healthz")).status_code == 200
