"""A plain move's path through the server, traced on a real socket (docs/architecture.md, "A
move's path"): the modules the socket and the pump hand it to, in order.

The trace records every call made *from* the path's backbone (the socket base's loop, which
parses the frame into the core's command, the room socket's handling, and the pump) into
another module of app/, leaving out observability (`move_trace`,
`logctx`, metrics), the clock and the connection's rate limit. The room core is asked twice, by
its API's design (`handle` before the commit, `committed` after); nothing else is entered twice.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

from tests.web.helpers import LoopServer, match_with_bot, new_person

APP = str(Path(__file__).resolve().parents[2] / "app") + "/"
SOCKET = {("web/sockets/base.py", "serve"), ("web/sockets/room.py", "handle"), ("web/sockets/room.py", "_handle")}
PUMP = "rooms/shell/pump.py"
# Left out: observability, the clock (`ports.moment`), and the checks made on every frame before it
# is read as a message at all: the connection's rate and the NUL rule (`web.wire.nul`).
LEFT_OUT = {"platform.move_trace", "platform.logctx", "platform.metrics", "web.routes.metrics", "rooms.ports",
            "web.http.ratelimit", "web.wire.nul"}
PATH = ["web.sockets.room", "rooms.shell.pump",  # the socket: its base parsed the frame; the room's part hands it on
        "rooms.core.room_core",  # handle: the decision
        "rooms.shell.sql_storage",  # commit (the store's move writer, below it)
        "rooms.core.room_core",  # committed: memory, and the outbox
        "rooms.shell.fanout", "platform.bus", "rooms.shell.autoplay"]  # deliver: sockets, instances, timer


def _module(filename: str) -> str | None:
    return filename[len(APP):-3].replace("/", ".") if filename.startswith(APP) else None


class Tracer:
    """Calls from the backbone into other modules of app/, in order, in the socket's task (the
    one that handles the move: presence and timers run in tasks of their own)."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []
        self.frames: dict[int, FrameType] = {}  # entered once: a coroutine resumed is no new call

    @property
    def calls(self) -> list[str]:
        socket_tasks = {task for task, callee in self.seen if callee == "web.sockets.room"}
        return [callee for task, callee in self.seen if task in socket_tasks]

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        caller = frame.f_back
        if event != "call" or caller is None or id(frame) in self.frames:
            return
        self.frames[id(frame)] = frame
        code = caller.f_code
        where = code.co_filename[len(APP):] if code.co_filename.startswith(APP) else None
        if where != PUMP and (where, code.co_name) not in SOCKET:
            return
        callee, here = _module(frame.f_code.co_filename), _module(code.co_filename)
        if callee is not None and callee != here and callee not in LEFT_OUT and not callee.startswith("engine"):
            self.seen.append((id(asyncio.current_task()), callee))


async def _traced_move(server: LoopServer) -> list[str]:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        host = await new_person(http, "Ann")
        _, _, sock = await match_with_bot(server.base, http, host)
        state = await sock.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal_moves"])
                                and m["view"]["turn"] == m["view"]["you"], 30)
        legal = state["view"]["legal_moves"]
        move = next((m for m in legal if m["kind"] == "play"), legal[0])
        start = len(sock.messages)
        tracer = Tracer()
        sys.setprofile(tracer)
        try:
            await sock.send({"type": "move", "id": "m1", "move": move})
            await sock.wait(lambda m: m["type"] == "state" and m["v"] > state["v"], 10, start)
        finally:
            sys.setprofile(None)
        await sock.close()
        return tracer.calls


async def test_a_plain_move_crosses_eight_modules_each_once_but_the_core_asked_twice(
        start_clocked: Callable[..., Any]) -> None:
    server = await start_clocked()  # the bot's moves run in tasks of their own: the trace leaves them out
    calls = await _traced_move(server)
    assert calls == PATH, calls
    assert len({"web.sockets.base", *calls}) <= 8

