"""A plain move's path through the server, traced on a real socket (docs/architecture.md, "A
move's path"): the modules the socket and the pump hand it to, in order.

The trace records every call made *from* the path's backbone (the room socket's message
handling, and the pump) into another module of app/, leaving out observability (`move_trace`,
`logctx`, metrics), the clock and the connection's rate limit. The room core is asked twice, by
its API's design (`handle` before the commit, `committed` after); nothing else is entered twice.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

from tests.web.helpers import LoopServer, match_with_bot, new_person

APP = str(Path(__file__).resolve().parents[2] / "app") + "/"
SOCKET = {("web/sockets/room.py", "_serve"), ("web/sockets/room.py", "_handle")}
PUMP = "rooms/shell/pump.py"
# Left out: observability, the clock (`ports.moment`), and the connection's rate (checked on every
# frame before it is read as a message at all).
LEFT_OUT = {"platform.move_trace", "platform.logctx", "platform.metrics", "web.routes.metrics", "rooms.ports",
            "web.http.ratelimit"}
PATH = ["web.wire.room", "rooms.shell.pump",  # the socket: parse, then hand the command to the pump
        "rooms.core.room_core",  # handle: the decision
        "rooms.shell.sql_storage",  # commit (the store's move writer, below it)
        "rooms.core.room_core",  # committed: memory, and the outbox
        "rooms.shell.fanout", "platform.bus", "rooms.shell.autoplay"]  # deliver: sockets, instances, timer


def _module(filename: str) -> str | None:
    return filename[len(APP):-3].replace("/", ".") if filename.startswith(APP) else None


class Tracer:
    """Calls from the backbone into other modules of app/, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        caller = frame.f_back
        if event != "call" or caller is None:
            return
        code = caller.f_code
        where = code.co_filename[len(APP):] if code.co_filename.startswith(APP) else None
        if where != PUMP and (where, code.co_name) not in SOCKET:
            return
        callee, here = _module(frame.f_code.co_filename), _module(code.co_filename)
        if callee is not None and callee != here and callee not in LEFT_OUT and not callee.startswith("engine"):
            self.calls.append(callee)


async def _traced_move(server: LoopServer) -> list[str]:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        host = await new_person(http, "Ann")
        _, _, sock = await match_with_bot(server.base, http, host)
        state = await sock.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal_moves"])
                                and m["view"]["turn"] == m["view"]["you"], 30)
        move = next(m for m in state["view"]["legal_moves"] if m["kind"] in ("discard", "play"))
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
    server = await start_clocked(bot_delay=30.0)  # the bot does not move while the trace runs
    calls = await _traced_move(server)
    assert calls == PATH, calls
    assert len({"web.sockets.room", *calls}) <= 8

