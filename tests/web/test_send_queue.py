"""A socket's send queue (app/web/sockets/room.py `Connection`): a reader too slow for its queue is
closed with 1008 and what waited is dropped; a restart close still sends what is queued."""

from __future__ import annotations

import asyncio
from typing import Any

from app.web.sockets.room import POLICY, RESTART, Connection


class SlowSocket:
    """The socket's two calls the sender makes; `send_text` waits until `go` is set."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        await self.go.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def conn_of(ws: SlowSocket, limit: int) -> Connection:
    fake: Any = ws
    return Connection(fake, "p1", "Ann", limit)


async def test_a_reader_slower_than_its_queue_is_closed_and_its_backlog_dropped() -> None:
    ws = SlowSocket()
    conn = conn_of(ws, 8)
    sender = asyncio.create_task(conn.run())
    for i in range(20):
        conn.send_pong() if i % 2 else conn._put_text(f'{{"n": {i}}}')
    assert conn.close_code is not None and conn.close_code[0] == POLICY
    ws.go.set()
    await asyncio.wait_for(sender, 2)
    assert ws.closed is not None and ws.closed[0] == POLICY
    assert len(ws.sent) <= 1  # at most the one already being sent when the queue overflowed


async def test_a_restart_close_sends_what_is_queued_first() -> None:
    ws = SlowSocket()
    conn = conn_of(ws, 64)
    sender = asyncio.create_task(conn.run())
    for i in range(5):
        conn._put_text(f'{{"n": {i}}}')
    conn.reconnect("the server is restarting; reconnect")
    conn._put_text('{"n": 99}')  # after the close: not sent
    ws.go.set()
    await asyncio.wait_for(sender, 2)
    assert ws.sent == [f'{{"n": {i}}}' for i in range(5)]
    assert ws.closed is not None and ws.closed[0] == RESTART
