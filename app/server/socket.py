"""The room socket `/ws/rooms/{code}`: hello, then typed requests, each answered or refused.

The first message must be `hello` with a token (never in the URL) within `hello_timeout`;
otherwise, or with a bad token, the socket closes with 4401; an unknown room closes with
4404. After that every message is checked for size, rate and shape before the room service
sees it; a refusal is an `error` to this socket only and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.rooms import errors as E
from app.rooms.errors import RoomError
from app.rooms.service import RoomNotFound, RoomService
from app.settings import Settings
from app.store.players import player_by_token

from . import wire
from .ratelimit import TokenBucket

log = logging.getLogger(__name__)
router = APIRouter()
UNAUTHORIZED, NOT_FOUND, TOO_MANY, POLICY = 4401, 4404, 4429, 1008


class Connection:
    """One socket as the room service sees it (a `Peer`): outgoing messages go through a
    bounded queue drained by a sender task, so a slow reader never holds up a room."""

    def __init__(self, ws: WebSocket, player_id: str, name: str, queue_size: int) -> None:
        self.ws = ws
        self.player_id = player_id
        self.name = name
        self.sent_v: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.close_code: tuple[int, str] | None = None

    def _put(self, message: BaseModel) -> None:
        if self.close_code is not None:
            return
        try:
            self.queue.put_nowait(message.model_dump_json(by_alias=True))
        except asyncio.QueueFull:
            self.close(POLICY, "too many messages waiting: the connection is too slow")

    async def run(self) -> None:
        """Send queued messages until closed."""
        while True:
            text = await self.queue.get()
            if text is None:
                break
            await self.ws.send_text(text)
        code, reason = self.close_code or (1000, "")
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    def close(self, code: int, reason: str) -> None:
        if self.close_code is not None:
            return
        self.close_code = (code, reason)
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    def send_welcome(self, seat: int | None, host: bool, room: dict[str, Any]) -> None:
        self._put(wire.Welcome(you=wire.You(player_id=self.player_id, name=self.name, seat=seat, host=host),
                               room=room))

    def send_room(self, room: dict[str, Any]) -> None:
        self._put(wire.RoomMessage(room=room))

    def send_state(self, v: int, view: dict[str, Any], events: list[dict[str, Any]], extra: dict[str, Any]) -> None:
        self._put(wire.State(v=v, view=view, events=events, **extra))

    def send_error(self, code: str, message: str, move_id: str | None = None, option: str | None = None) -> None:
        self._put(wire.Error(code=code, message=message, id=move_id, option=option))

    def send_chat(self, sender: dict[str, Any], text: str, at: str) -> None:
        self._put(wire.ChatLine(sender=sender, text=text, at=at))

    def send_hint(self, v: int, move: dict[str, Any], reason: str) -> None:
        self._put(wire.HintMessage(v=v, move=move, reason=reason))

    def send_pong(self) -> None:
        self._put(wire.Pong())


def _problem(e: ValidationError) -> str:
    first = e.errors()[0]
    if first["type"] == "json_invalid":
        return "a message must be a JSON object"
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return "unknown message type; known types: " + ", ".join(wire.CLIENT_TYPES)
    where = ".".join(str(p) for p in first["loc"][1:])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


async def _hello(ws: WebSocket, settings: Settings) -> wire.Hello | None:
    try:
        message = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
    except TimeoutError:
        return None
    text = message.get("text")
    if message["type"] != "websocket.receive" or text is None or len(text) > settings.max_message_bytes:
        return None
    try:
        msg = wire.CLIENT_MESSAGE.validate_json(text)
    except ValidationError:
        return None
    return msg if isinstance(msg, wire.Hello) else None


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str) -> None:
    service: RoomService = ws.app.state.rooms
    settings: Settings = ws.app.state.settings
    await ws.accept()
    try:
        await service.live(code)
    except RoomNotFound:
        await ws.close(NOT_FOUND, "no room has that code")
        return
    hello = await _hello(ws, settings)
    if hello is None:
        await ws.close(UNAUTHORIZED, "say hello with your token first")
        return
    async with ws.app.state.sessions() as s:
        player = await player_by_token(s, hello.token)
    if player is None:
        await ws.close(UNAUTHORIZED, "that token is not valid")
        return
    if service.sockets[player.id] >= settings.max_sockets_per_player:
        await ws.close(TOO_MANY, "too many open connections for this player")
        return
    conn = Connection(ws, player.id, player.name, settings.send_queue)
    sender = asyncio.get_running_loop().create_task(conn.run())
    room = None
    try:
        room = await service.join(code, conn, hello.last_v)
        await _serve(ws, conn, service, room, settings)
    except (WebSocketDisconnect, RoomNotFound):
        pass
    except RoomError as e:
        conn.send_error(e.code, e.message)
    finally:
        if room is not None:
            await service.leave(room, conn)
        conn.close(1000, "")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        sender.cancel()


async def _serve(ws: WebSocket, conn: Connection, service: RoomService, room: Any, settings: Settings) -> None:
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    strikes = 0
    while conn.close_code is None and ws.client_state == WebSocketState.CONNECTED:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            strikes += 1
            conn.send_error(E.RATE_LIMITED, "slow down: too many messages")
            if strikes >= settings.rate_strikes:
                conn.close(POLICY, "too many messages")
            continue
        strikes = 0
        text = message.get("text")
        if text is None:
            conn.send_error(E.BAD_MESSAGE, "messages must be JSON text, not binary")
            continue
        if len(text.encode("utf-8")) > settings.max_message_bytes:
            conn.send_error(E.BAD_MESSAGE, f"a message has at most {settings.max_message_bytes} bytes")
            continue
        try:
            msg = wire.CLIENT_MESSAGE.validate_json(text)
        except ValidationError as e:
            conn.send_error(E.BAD_MESSAGE, _problem(e), move_id=_move_id(text))
            continue
        if isinstance(msg, wire.Hello):
            conn.send_error(E.BAD_MESSAGE, "you already said hello on this connection")
        elif isinstance(msg, wire.Ping):
            conn.send_pong()
        else:
            fields = wire.request_fields(msg)
            try:
                await service.request(room, conn, msg.type, fields)
            except RoomError as e:
                conn.send_error(e.code, e.message, e.move_id, e.option)
            except Exception:
                log.exception("request %s in room %s failed", msg.type, room.code)
                conn.send_error(E.UNAVAILABLE, "the server could not do that just now", fields.get("id"))


def _move_id(text: str) -> str | None:
    """The move id of a malformed move, if one can be read, so the error can name it."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("id"), (str, int)) and not isinstance(data.get("id"), bool):
        return str(data["id"])[:64]
    return None
