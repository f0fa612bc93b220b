"""The lobby socket `/ws/lobby`: a player's own channel outside rooms.

The same rules as the room socket: `hello` with a token (never in the URL) within
`hello_timeout`, else 4401; the per-address connect limit (HTTP 429 at the handshake) and the
per-player socket limit (4429); after hello every message is checked for size, rate and shape,
and a refusal is an `error` to this socket only. It receives invitations, friends coming and
going, quick-match news and `your_turn` from every instance (`app.social.shell.player_channels`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.i18n import DEFAULT, pick
from app.platform.mailbox import Mailbox
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.shell.service import RoomService
from app.social.shell.player_channels import Channels
from app.store.repositories.tokens import player_by_token
from app.web.http.language import refusal
from app.web.http.ratelimit import TokenBucket
from app.web.sockets.frames import deny, refused_frame
from app.web.sockets.handshake import Admission, read_hello
from app.web.sockets.room import POLICY, TOO_MANY, UNAUTHORIZED
from app.web.wire.lobby import (
    CHANNEL_MESSAGE,
    LOBBY_CLIENT,
    LOBBY_CLIENT_TYPES,
    LobbyError,
    LobbyHello,
    LobbyPing,
    LobbyPong,
    LobbyWelcome,
    PlayerRef,
)

log = logging.getLogger(__name__)
router = APIRouter()


class LobbyConnection:
    """One lobby socket (a `player_channels.LobbyPeer`): a bounded queue drained by a sender task."""

    def __init__(self, ws: WebSocket, player_id: str, limit: int, lang: str = DEFAULT) -> None:
        self.ws = ws
        self.player_id = player_id
        self.limit = limit
        self.lang = lang  # the language of this socket's refusals (docs/protocol.md, "Languages")
        self.queue: Mailbox[str | None] = Mailbox()
        self.closing: tuple[int, str] | None = None

    def send(self, message: BaseModel) -> None:
        if self.closing is not None:
            return
        if len(self.queue) >= self.limit:
            self.close(POLICY, "too many messages waiting: the connection is too slow")
            return
        self.queue.put(message.model_dump_json(by_alias=True))

    def refuse(self, code: str, english: str, *, reason: str | None, **params: Any) -> None:
        self.send(LobbyError(code=code, message=refusal(self.lang, reason, params, english), reason=reason,
                             params=params if reason else None))

    def send_json(self, message: dict[str, Any]) -> None:
        """A message from the player's channel, sent only if it is one of the lobby's schemas."""
        try:
            model = CHANNEL_MESSAGE.validate_python(message)
        except ValidationError:
            log.warning("dropping a lobby message of no known schema: %s", message.get("type"))
            return
        self.send(model)

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.queue.put(None)

    async def run(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            await self.ws.send_text(text)
            del text  # the frame does not keep the last message while it waits for the next
        code, reason = self.closing or (1000, "")
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)


async def lobby_socket(ws: WebSocket) -> None:
    service: RoomService = ws.app.state.rooms
    channels: Channels = ws.app.state.channels
    settings: Settings = ws.app.state.settings
    if service.draining:
        await deny(ws, 503, "this instance is restarting", 1012, "instance_restarting", {})
        return
    wait = ws.app.state.limiter.hit("connects", ws.client.host if ws.client else "unknown")
    if wait is not None:
        await deny(ws, 429, f"too many connections; try again in {wait} s", TOO_MANY, "too_many",
                   {"what": "connects", "wait": wait}, {"Retry-After": str(wait)})
        return
    await ws.accept()
    hello = await read_hello(ws, settings, LOBBY_CLIENT, LobbyHello)
    if hello is None:
        await ws.close(UNAUTHORIZED, "say hello with your token first")
        return
    gate: Admission = ws.app.state.admission
    try:
        async with gate.turn(), ws.app.state.sessions() as s:
            player = await player_by_token(s, hello.token, settings.token_idle_days)
    except RoomError as e:  # too many handshakes at once, for too long
        await ws.close(1013, e.message)
        return
    except Exception:
        log.warning("could not check a token", exc_info=True)
        await ws.close(1013, "the server cannot reach its database; try again shortly")
        return
    if player is None:
        await ws.close(UNAUTHORIZED, "that token is not valid")
        return
    if not service.reserve_socket(player.id, settings.max_sockets_per_player):
        await ws.close(TOO_MANY, "too many open connections for this player")
        return
    lang = pick(hello.lang, player.lang, accept_language=ws.headers.get("accept-language"))
    conn = LobbyConnection(ws, player.id, settings.send_queue, lang)
    welcome = LobbyWelcome(you=PlayerRef(player_id=player.id, name=player.name))
    del player  # an ORM row: the socket's frame keeps it no longer than needed
    sender = asyncio.get_running_loop().create_task(conn.run())
    opened = False
    try:
        conn.send(welcome)
        await channels.open(conn)
        opened = True
        await _serve(ws, conn, settings)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("lobby socket failed")
    finally:
        if opened:
            await channels.close_peer(conn)
        service.release_socket(conn.player_id)
        conn.close(1000, "")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        sender.cancel()


async def _serve(ws: WebSocket, conn: LobbyConnection, settings: Settings) -> None:
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, ws.app.state.clock.monotonic)
    strikes = 0
    while conn.closing is None and ws.client_state == WebSocketState.CONNECTED:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            strikes += 1
            conn.refuse(E.RATE_LIMITED, "slow down: too many messages", reason="slow_down")
            if strikes >= settings.rate_strikes:
                conn.close(POLICY, "too many messages")
            continue
        strikes = 0
        text = message.get("text")
        if text is None:
            conn.refuse(E.BAD_MESSAGE, "messages must be JSON text, not binary", reason="binary_message")
            continue
        if len(text.encode("utf-8")) > settings.max_message_bytes:
            limit = settings.max_message_bytes
            conn.refuse(E.BAD_MESSAGE, f"a message has at most {limit} bytes", reason="message_too_long", n=limit)
            continue
        try:
            msg = LOBBY_CLIENT.validate_json(text)
        except ValidationError as e:
            english, reason, params = refused_frame(e, LOBBY_CLIENT_TYPES)
            conn.refuse(E.BAD_MESSAGE, english, reason=reason, **params)
            continue
        if isinstance(msg, LobbyPing):
            conn.send(LobbyPong())
        else:
            conn.refuse(E.BAD_MESSAGE, "you already said hello on this connection", reason="second_hello")


router.add_websocket_route("/ws/lobby", lobby_socket)  # a plain Starlette route, as the room socket's
