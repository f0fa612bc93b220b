"""The lobby socket `/ws/lobby`: a player's own channel outside rooms.

The same rules as the room socket (`app.web.sockets.base`): `hello` with a token (never in the
URL) within `hello_timeout`, else 4401; the per-address connect limit (HTTP 429 at the
handshake) and the per-player socket limit (4429); after hello every message is checked for
size, rate and shape, and a refusal is an `error` to this socket only. It receives invitations,
friends coming and going, quick-match news and `your_turn` from every instance
(`app.social.shell.player_channels`). Like the room socket it is kept in `open_sockets` by its
token, so signing that token out (one device, everywhere, or by a new password) closes it 4401 at
once here and within a heartbeat on other instances, dropping whatever was still queued for it.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from app.i18n import DEFAULT, pick
from app.rooms.core.errors import RoomError
from app.store.repositories.tokens import hash_token
from app.web.http.language import refusal
from app.web.http.services import services
from app.web.sockets import base
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
FRAMES = base.Frames(LOBBY_CLIENT, LOBBY_CLIENT_TYPES, LobbyHello, LobbyPing)


class LobbyConnection(base.SocketConnection):
    """One lobby socket (a `player_channels.LobbyPeer`); a close still sends what is queued, but
    for a token signed out (4401): its messages are no longer that device's to read."""

    KEEP_QUEUE_ON = None

    def __init__(self, ws: WebSocket, player_id: str, limit: int, lang: str = DEFAULT) -> None:
        super().__init__(ws, player_id, limit, lang)

    def send_refusal(self, code: str, english: str, *, reason: str | None, params: dict[str, Any] | None = None,
               move_id: str | None = None) -> None:
        params = {} if params is None else params
        self._put(LobbyError(code=code, message=refusal(self.lang, reason, params, english), reason=reason,
                             params=params if reason else None))

    def send_pong(self) -> None:
        self._put(LobbyPong())

    def close(self, code: int, reason: str) -> None:
        if code == base.UNAUTHORIZED and self.close_code is None:
            self.queue.clear()
        super().close(code, reason)

    def send_json(self, message: dict[str, Any]) -> None:
        """A message from the player's channel (its JSON form, from any instance), sent only if
        it is one of the channel's messages (`app.social.core.lobby_messages`)."""
        try:
            typed = CHANNEL_MESSAGE.validate_python(message)
        except ValidationError:
            log.warning("dropping a lobby message of no known schema: %s", message.get("type"))
            return
        self._put_text(CHANNEL_MESSAGE.dump_json(typed, by_alias=True).decode())


async def _refuse(ws: WebSocket, e: RoomError) -> None:
    await base.close_quietly(ws, base.TRY_AGAIN, e.message)  # no `error` first (docs/protocol.md, 1013)


async def _nothing_else(msg: Any, arrived: float) -> None:
    """The lobby takes no message but hello and ping, which the base loop answers."""


async def lobby_socket(ws: WebSocket) -> None:
    svc = services(ws.app)
    service, channels, settings = svc.rooms, svc.channels, svc.settings
    if not await base.admit(ws, service):
        return
    hello = await base.greet(ws, settings, FRAMES)
    if hello is None:
        return
    signed = await base.sign_in(ws, service, settings, hello.token, lambda e: _refuse(ws, e))
    if signed is None:
        return
    player = signed[0]
    lang = pick(hello.lang, player.lang, accept_language=ws.headers.get("accept-language"))
    conn = LobbyConnection(ws, player.id, settings.send_queue, lang)
    welcome = LobbyWelcome(you=PlayerRef(player_id=player.id, name=player.name))
    del player, signed  # an ORM row: the socket's frame keeps it no longer than needed
    token = hash_token(hello.token)
    svc.open_sockets.add(token, conn)  # before the channel opens: a sign-out now closes it too
    opened = False
    async with base.sending(conn, service):
        try:
            conn._put(welcome)
            await channels.open(conn)
            opened = True
            await base.serve(ws, conn, settings, FRAMES, _nothing_else)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("lobby socket failed")
        finally:
            svc.open_sockets.discard(token, conn)
            if opened:
                await channels.close_peer(conn)


router.add_websocket_route("/ws/lobby", lobby_socket)  # a plain Starlette route, as the room socket's
