"""`python -m app.serve`, the one-machine server facing strangers directly: slow request
headers are cut off, connections are capped, frames are small before `hello` as after, and
none of it disturbs a socket that is playing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.children import die_with_parent

from .helpers import CROWD_ENV, ROOT, Sock, free_socket, new_person, new_room


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    s = free_socket()
    port = s.getsockname()[1]
    s.close()
    env = {**os.environ, "SPITE_DATABASE_URL": f"sqlite:///{tmp_path}/serve.db", "SPITE_HEADER_TIMEOUT": "1",
           "SPITE_MAX_CONNECTIONS": "40", **CROWD_ENV}
    proc = subprocess.Popen([sys.executable, "-m", "app.serve", "--port", str(port)], cwd=ROOT, env=env,
                            preexec_fn=die_with_parent)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "app.serve did not start"
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(15)


async def _half_request(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
    await writer.drain()
    return reader, writer


async def test_slow_headers_are_cut_off_and_playing_sockets_stay(served: str) -> None:
    port = int(served.rsplit(":", 1)[1])
    async with httpx.AsyncClient(base_url=served) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
        playing = await Sock.open(served, room["code"], ann)
        slow = [await _half_request(port) for _ in range(20)]
        assert (await http.get("/healthz")).status_code == 200  # served meanwhile
        started = time.monotonic()
        for reader, _ in slow:
            assert await asyncio.wait_for(reader.read(), 5) == b""  # the server hung up
        assert time.monotonic() - started < 3
        pong = await playing.request({"type": "ping"}, lambda m: m["type"] == "pong")  # past the deadline
        assert pong["type"] == "pong" and playing.closed is None


async def test_a_huge_frame_before_hello_is_refused_not_buffered(served: str) -> None:
    async with httpx.AsyncClient(base_url=served) as http:
        room = await new_room(http, await new_person(http, "Ann"))
    ws = await connect(served.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}", max_size=None)
    await ws.send("x" * (1 << 20))
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


async def test_connections_past_the_cap_are_turned_away(served: str) -> None:
    async with httpx.AsyncClient(base_url=served) as http:
        ann = await new_person(http, "Ann")
        room = await new_room(http, ann)
    socks = [await connect(served.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}") for _ in range(40)]
    try:
        async with httpx.AsyncClient(base_url=served) as http:
            assert (await http.get("/healthz")).status_code == 503
    finally:
        for ws in socks:
            await ws.close()
    await asyncio.sleep(0.5)
    async with httpx.AsyncClient(base_url=served) as http:
        assert (await http.get("/healthz")).status_code == 200
