"""What the room socket and the lobby socket share: the close codes, the handshake's steps, the
bounded outgoing queue and its sender, and the receive loop; each socket adds only what its
`hello` leads to and what a validated message does.

The handshake: refused while the instance drains (HTTP 503, else 1012) or over the per-address
connect limit (HTTP 429, else 4429) by `admit`; then `greet` reads `hello` within `hello_timeout`
(else 4401), and `sign_in` checks its token inside the admission gate (4401 for a bad token) and
reserves the player's socket slot (4429 over `SPITE_MAX_SOCKETS_PER_PLAYER`). The room socket
looks its room up before `greet`, the lobby socket after nothing: the order is each socket's own.
After that `serve` checks every frame for rate (`error` `rate_limited`, 1008 after
`SPITE_RATE_STRIKES`), text, size and shape, refuses a second `hello`, answers `ping`, and hands
every other message to the socket's own handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from fastapi import WebSocket
from pydantic import BaseModel, TypeAdapter, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.websockets import WebSocketState

from app.platform.mailbox import Mailbox
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.shell.service import RoomService
from app.store.repositories.tokens import player_by_token
from app.store.tables import Player
from app.web.http.addresses import client_key
from app.web.http.ratelimit import TokenBucket
from app.web.http.services import services
from app.web.routes.metrics import SENT
from app.web.sockets.frames import deny, move_id_of, refused_frame
from app.web.sockets.handshake import read_hello
from app.web.wire.nul import ENGLISH as NUL_ENGLISH
from app.web.wire.nul import json_carries_nul

log = logging.getLogger(__name__)

# Close codes (docs/protocol.md, "Close codes"): the one place both sockets take them from.
POLICY = 1008  # too many messages, or a reader too slow for its queue
RESTART = 1012  # the server is restarting; reconnect
TRY_AGAIN = 1013  # the database is away, or too many handshakes at once; reconnect in a while
UNAUTHORIZED = 4401  # no hello in time, or a bad token
FORBIDDEN = 4403  # a room that may not be watched now (a daily deal's, while its day lasts)
NOT_FOUND = 4404  # no room has that code
TOO_MANY = 4429  # too many connections from an address, or sockets of a player

H = TypeVar("H", bound=BaseModel)


@dataclass(frozen=True)
class Frames(Generic[H]):
    """A socket's client messages: the union's adapter, its type names (for `unknown_type`), and
    which of them are `hello` and `ping`."""

    messages: TypeAdapter[Any]
    types: tuple[str, ...]
    hello: type[H]
    ping: type[BaseModel]


class SocketConnection:
    """One socket's outgoing side: a bounded queue drained by a sender task (`run`), so a slow
    reader never holds up whoever sends to it; past `limit` messages waiting it is closed 1008.
    A close in `KEEP_QUEUE_ON` (None: any) still sends what is queued; any other drops it."""

    KEEP_QUEUE_ON: ClassVar[frozenset[int] | None] = frozenset({RESTART, TRY_AGAIN, FORBIDDEN})
    NAMES_MOVES: ClassVar[bool] = False  # whether a refused frame's error names its move id

    def __init__(self, ws: WebSocket, player_id: str, limit: int, lang: str) -> None:
        self.ws = ws
        self.player_id = player_id
        self.limit = limit
        self.lang = lang  # the language this socket's texts are in (docs/protocol.md, "Languages")
        self.queue: Mailbox[tuple[str, float | None] | None] = Mailbox()
        self.close_code: tuple[int, str] | None = None

    def _put_text(self, text: str, started: float | None = None) -> None:
        if self.close_code is not None:
            return
        if len(self.queue) >= self.limit:
            self.close(POLICY, "too many messages waiting: the connection is too slow")
            return
        self.queue.put((text, started))

    def _put(self, message: BaseModel) -> None:
        self._put_text(message.model_dump_json(by_alias=True))

    def send_refusal(self, code: str, english: str, *, reason: str | None, params: dict[str, Any] | None = None,
               move_id: str | None = None) -> None:
        """Say a request or frame was refused (an `error` to this socket only)."""
        raise NotImplementedError

    def send_pong(self) -> None:
        raise NotImplementedError

    async def run(self) -> None:
        """Send queued messages until closed, then close the socket with the code asked."""
        while True:
            item = await self.queue.get()
            if item is None:
                break
            text, started = item
            del item  # nor does the frame keep the last message while it waits for the next
            await self.ws.send_text(text)
            del text
            if started is not None:
                SENT.observe(time.perf_counter() - started)
        code, reason = self.close_code or (1000, "")
        await close_quietly(self.ws, code, reason)

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued (a code in `KEEP_QUEUE_ON`) or at once."""
        if self.close_code is not None:
            return
        self.close_code = (code, reason)
        if self.KEEP_QUEUE_ON is not None and code not in self.KEEP_QUEUE_ON:
            self.queue.clear()
        self.queue.put(None)


async def close_quietly(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # the client may already be gone
        await ws.close(code, reason)


async def admit(ws: WebSocket, service: RoomService) -> bool:
    """Accept the socket unless the instance drains or its address connects too often; a refusal
    is the handshake's HTTP answer where the server can give one, else a close."""
    if service.draining:  # refuse the handshake with 503, so a proxy tries another instance
        await deny(ws, 503, "this instance is restarting", RESTART, "instance_restarting", {},
                   close_reason="the server is restarting; reconnect")
        return False
    wait = services(ws.app).limiter.hit("connects", client_key(ws))
    if wait is not None:  # refuse the handshake itself where the server can (429), else close 4429
        await deny(ws, 429, f"too many connections; try again in {wait} s", TOO_MANY, "too_many",
                   {"what": "connects", "wait": wait}, {"Retry-After": str(wait)},
                   close_reason="too many connections from your address")
        return False
    await ws.accept()
    return True


async def greet(ws: WebSocket, settings: Settings, frames: Frames[H]) -> H | None:
    """The socket's `hello`, or None once the socket is closed 4401 for the lack of one."""
    hello = await read_hello(ws, settings, frames.messages, frames.hello)
    if hello is None:
        await close_quietly(ws, UNAUTHORIZED, "say hello with your token first")
    return hello


async def sign_in(ws: WebSocket, service: RoomService, settings: Settings, token: str,
                  refuse: Callable[[RoomError], Awaitable[None]],
                  also: Callable[[AsyncSession, str], Awaitable[set[str]]] | None = None,
                  ) -> tuple[Player, set[str]] | None:
    """The token's player (and `also` of them, read in the same session) with a socket slot
    reserved for them; else None once the socket is closed: 4401 for a bad token, 4429 over the
    player's sockets, and `refuse` for a busy gate or a database away."""
    gate = services(ws.app).admission
    try:
        async with gate.turn(), services(ws.app).sessions() as s:
            player = await player_by_token(s, token, settings.token_idle_days)
            more = await also(s, player.id) if also is not None and player is not None else set()
    except RoomError as e:
        await refuse(e)
        return None
    except Exception as e:
        log.warning("could not check a token: %s", e)
        await refuse(RoomError(E.UNAVAILABLE, "the server cannot reach its database just now; try again shortly",
                               reason="database_away"))
        return None
    if player is None:
        await close_quietly(ws, UNAUTHORIZED, "that token is not valid")
        return None
    if not service.reserve_socket(player.id, settings.max_sockets_per_player):
        await close_quietly(ws, TOO_MANY, "too many open connections for this player")
        return None
    return player, more


@contextlib.asynccontextmanager
async def sending(conn: SocketConnection, service: RoomService) -> AsyncIterator[None]:
    """Run the connection's sender while inside; on the way out release the player's socket
    slot, close, and give the sender two seconds to say its last."""
    sender = asyncio.get_running_loop().create_task(conn.run())
    try:
        yield
    finally:
        service.release_socket(conn.player_id)
        conn.close(1000, "")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        sender.cancel()


async def serve(ws: WebSocket, conn: SocketConnection, settings: Settings, frames: Frames[Any],
                handle: Callable[[Any, float], Awaitable[None]]) -> None:
    """Read frames until the socket or the connection closes: each is checked for rate, text,
    size and shape (a refusal is an `error`); `hello` again is refused, `ping` answered, and any
    other message goes to `handle(message, arrived)` (`arrived`: its `time.perf_counter()`)."""
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, services(ws.app).clock.monotonic)
    strikes = 0
    limit = settings.max_message_bytes
    while conn.close_code is None and ws.client_state == WebSocketState.CONNECTED:
        message = await ws.receive()
        arrived = time.perf_counter()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if not bucket.take():
            strikes += 1
            named = move_id_of(text) if conn.NAMES_MOVES and text is not None and len(text) <= limit else None
            conn.send_refusal(E.RATE_LIMITED, "slow down: too many messages", reason="slow_down", move_id=named)
            if strikes >= settings.rate_strikes:
                conn.close(POLICY, "too many messages")
            continue
        strikes = 0
        if text is None:
            conn.send_refusal(E.BAD_MESSAGE, "messages must be JSON text, not binary", reason="binary_message")
            continue
        if len(text.encode("utf-8")) > limit:
            conn.send_refusal(E.BAD_MESSAGE, f"a message has at most {limit} bytes", reason="message_too_long",
                        params={"n": limit})
            continue
        if json_carries_nul(text):
            conn.send_refusal(E.BAD_MESSAGE, NUL_ENGLISH, reason="nul_character",
                              move_id=move_id_of(text) if conn.NAMES_MOVES else None)
            continue
        try:
            msg = frames.messages.validate_json(text)
        except ValidationError as e:
            english, why, params = refused_frame(e, frames.types)
            conn.send_refusal(E.BAD_MESSAGE, english, reason=why, params=params,
                        move_id=move_id_of(text) if conn.NAMES_MOVES else None)
            continue
        if isinstance(msg, frames.hello):
            conn.send_refusal(E.BAD_MESSAGE, "you already said hello on this connection", reason="second_hello")
        elif isinstance(msg, frames.ping):
            conn.send_pong()
        else:
            await handle(msg, arrived)
