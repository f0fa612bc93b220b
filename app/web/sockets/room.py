"""The room socket `/ws/rooms/{code}`: hello, then typed requests, each answered or refused.

The first message must be `hello` with a token (never in the URL) within `hello_timeout`;
otherwise, or with a bad token, the socket closes with 4401; an unknown room closes with
4404. After that every message is checked for size, rate and shape before the room service
sees it; a refusal is an `error` to this socket only and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.domain.records import ChatSender
from app.i18n import DEFAULT, pick
from app.platform import move_trace
from app.platform.logctx import about
from app.platform.mailbox import Mailbox
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.commands import Chat, MakeMove
from app.rooms.core.errors import RoomError
from app.rooms.core.handlog import HandLog
from app.rooms.core.messages import RoomInfo, StateExtra, TableView
from app.rooms.ports import HintReason
from app.rooms.shell.service import RoomNotFound, RoomService
from app.store.repositories import social
from app.store.repositories.tokens import hash_token, player_by_token
from app.web.http.language import hint_text, refusal
from app.web.http.ratelimit import TokenBucket
from app.web.routes.metrics import COMMITTED, ERRORS, SENT, SOCKETS
from app.web.sockets.frames import deny, move_id_of, refused_frame
from app.web.sockets.handshake import Admission, read_hello
from app.web.sockets.open_sockets import OpenSockets
from app.web.wire import room as wire

log = logging.getLogger(__name__)
router = APIRouter()
UNAUTHORIZED, NOT_FOUND, TOO_MANY, POLICY = 4401, 4404, 4429, 1008
RESTART = 1012  # protocol.md: the server is restarting; reconnect
TRY_AGAIN = 1013  # protocol.md: the database is away; reconnect in a while


class Connection:
    """One socket as the room service sees it (a `Peer`): outgoing messages go through a
    bounded queue drained by a sender task, so a slow reader never holds up a room."""

    def __init__(self, ws: WebSocket, player_id: str, name: str, queue_size: int, *, split: bool = False,
                 account: bool = False, lang: str = DEFAULT) -> None:
        self.ws = ws
        self.lang = lang  # the language this socket's texts are in (docs/protocol.md, "Languages")
        self.split = split
        self.player_id = player_id
        self.name = name
        self.account = account
        self.sent_v: int | None = None
        self.limit = queue_size
        self.queue: Mailbox[tuple[str, float | None] | None] = Mailbox()
        self.close_code: tuple[int, str] | None = None
        self.move_started: float | None = None  # arrival time of the move being handled (metrics)
        self.hidden: set[str] = set()  # players this player blocked: their chat is not sent here
        self.avoid: frozenset[str] = frozenset()  # players kept from this one's table (blocks, read at sit)

    def _put_text(self, text: str, started: float | None = None) -> None:
        if self.close_code is not None:
            return
        if len(self.queue) >= self.limit:
            self.close(POLICY, "too many messages waiting: the connection is too slow")
            return
        self.queue.put((text, started))

    def _put(self, message: BaseModel) -> None:
        self._put_text(message.model_dump_json(by_alias=True))

    async def run(self) -> None:
        """Send queued messages until closed."""
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
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued (a restart or "try again": the last messages still go
        out) or at once."""
        if self.close_code is not None:
            return
        self.close_code = (code, reason)
        if code not in (RESTART, TRY_AGAIN):
            self.queue.clear()
        self.queue.put(None)

    def reconnect(self, reason: str) -> None:
        self.close(RESTART, reason)

    def send_welcome(self, seat: int | None, host: bool, room: RoomInfo) -> None:
        self._put(wire.Welcome(you=wire.You(player_id=self.player_id, name=self.name, seat=seat, host=host,
                                                    account=self.account),
                               room=room))

    def send_room(self, room: RoomInfo) -> None:
        body: wire.RoomMessage = {"type": "room", "room": room}
        self._put_text(orjson.dumps(body).decode())

    def send_state(self, v: int, table: TableView, events: Any, extra: StateExtra) -> None:
        # The hot path: a `wire.SplitState` (or `wire.State`) as a plain dict for orjson, checked
        # by mypy; the views inside were encoded once per version (and receiver) and stand in,
        # as orjson Fragments, for the view objects the schema names (hence the ignores).
        started, self.move_started = self.move_started, None
        body: wire.SplitState | wire.State
        if self.split:
            body = {"type": "state", "v": v, "shared": table.shared_json(),  # type: ignore[typeddict-item]
                    "own": table.own, "events": events, **extra}
        else:
            body = {"type": "state", "v": v, "view": table.full_json(),  # type: ignore[typeddict-item]
                    "events": events, **extra}
        self._put_text(orjson.dumps(body).decode(), started)

    def send_error(self, code: str, message: str, move_id: str | None = None, option: str | None = None,
                   reason: str | None = None, params: dict[str, Any] | None = None) -> None:
        ERRORS.labels(code).inc()
        self._put(wire.Error(code=code, message=refusal(self.lang, reason, params, message), id=move_id,
                             option=option, reason=reason, params=params if reason else None))

    def send_chat(self, sender: ChatSender, text: str, at: str) -> None:
        if sender.get("player_id") in self.hidden:
            return
        self._put(wire.ChatLine(sender=sender, text=text, at=at))

    def send_chat_history(self, lines: list[dict[str, Any]]) -> None:
        self._put(wire.ChatHistory(lines=[wire.ChatLine.model_validate(line) for line in lines
                                          if (line.get("from") or line.get("sender") or {}).get("player_id")
                                          not in self.hidden]))

    def send_hint(self, v: int, move: dict[str, Any], reason: HintReason | str) -> None:
        text, key, params = hint_text(self.lang, reason)
        self._put(wire.HintMessage(v=v, move=move, reason=text, reason_key=key, params=params))

    def send_log(self, log: HandLog) -> None:
        self._put_text(orjson.dumps({"type": "log", **log}).decode())

    def send_pong(self) -> None:
        self._put(wire.Pong())


async def _refuse(ws: WebSocket, e: RoomError) -> None:
    said = refusal(pick(accept_language=ws.headers.get("accept-language")), e.reason, e.params, e.message)
    error = wire.Error(code=e.code, message=said, reason=e.reason, params=e.params if e.reason else None)
    with contextlib.suppress(Exception):  # before hello: said in the handshake's language
        await ws.send_text(error.model_dump_json())
    await _close(ws, TRY_AGAIN, e.message)


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # the client may already be gone
        await ws.close(code, reason)


async def room_socket(ws: WebSocket) -> None:
    code: str = ws.path_params["code"]
    service: RoomService = ws.app.state.rooms
    settings: Settings = ws.app.state.settings
    if service.draining:  # refuse the handshake with 503, so a proxy tries another instance
        await deny(ws, 503, "this instance is restarting", RESTART, "instance_restarting", {},
                   close_reason="the server is restarting; reconnect")
        return
    wait = ws.app.state.limiter.hit("connects", ws.client.host if ws.client else "unknown")
    if wait is not None:  # refuse the handshake itself where the server can (429), else close 4429
        await deny(ws, 429, f"too many connections; try again in {wait} s", TOO_MANY, "too_many",
                   {"what": "connects", "wait": wait}, {"Retry-After": str(wait)},
                   close_reason="too many connections from your address")
        return
    await ws.accept()
    gate: Admission = ws.app.state.admission
    try:
        async with gate.turn():
            room_code = (await service.live(code)).code
        about(room_code)
    except RoomNotFound:
        await _close(ws, NOT_FOUND, "no room has that code")
        return
    except RoomError as e:  # the database is away: say so, and ask the client to come back later
        await _refuse(ws, e)
        return
    hello = await read_hello(ws, settings, wire.CLIENT_MESSAGE, wire.Hello)
    if hello is None:
        await _close(ws, UNAUTHORIZED, "say hello with your token first")
        return
    try:
        async with gate.turn(), ws.app.state.sessions() as s:  # the token and the blocks: one session
            player = await player_by_token(s, hello.token, settings.token_idle_days)
            hidden = await social.blocked_by(s, player.id) if player is not None else set()
    except RoomError as e:
        await _refuse(ws, e)
        return
    except Exception as e:
        log.warning("could not check a token: %s", e)
        await _refuse(ws, RoomError(E.UNAVAILABLE, "the server cannot reach its database just now; try again shortly",
                                         reason="database_away"))
        return
    if player is None:
        await _close(ws, UNAUTHORIZED, "that token is not valid")
        return
    if not service.reserve_socket(player.id, settings.max_sockets_per_player):
        await _close(ws, TOO_MANY, "too many open connections for this player")
        return
    lang = pick(hello.lang, player.lang, accept_language=ws.headers.get("accept-language"))
    conn = Connection(ws, player.id, player.name, settings.send_queue, split=hello.format == "split",
                      account=player.has_account, lang=lang)
    conn.hidden = hidden
    del player  # an ORM row (and its state): the socket's frame keeps it no longer than needed
    token = hash_token(hello.token)
    opened: OpenSockets = ws.app.state.open_sockets
    opened.add(token, conn)
    ws.app.state.hidden_chat.add(conn)
    sender = asyncio.get_running_loop().create_task(conn.run())
    room = None
    SOCKETS.inc()
    try:
        async with gate.turn():
            room = await service.join(code, conn, hello.last_v)
        await _serve(ws, conn, service, room, settings)
    except (WebSocketDisconnect, RoomNotFound):
        pass
    except RoomError as e:
        conn.send_error(e.code, e.message, reason=e.reason, params=e.params)
        if e.code == E.UNAVAILABLE and service.draining:
            conn.close(RESTART, "the server is restarting; reconnect")
        elif e.code == E.ROOM_FULL:  # too many watchers: 4429, as for too many sockets
            conn.close(TOO_MANY, e.message)
        elif e.code == E.UNAVAILABLE:
            conn.close(TRY_AGAIN, e.message)
    finally:
        SOCKETS.dec()
        opened.discard(token, conn)
        ws.app.state.hidden_chat.discard(conn)
        if room is not None:
            await service.leave(room, conn)
        service.release_socket(conn.player_id)
        conn.close(1000, "")
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(sender, 2)
        sender.cancel()


async def _serve(ws: WebSocket, conn: Connection, service: RoomService, room: Any, settings: Settings) -> None:
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, ws.app.state.clock.monotonic)
    strikes = 0
    while conn.close_code is None and ws.client_state == WebSocketState.CONNECTED:
        move_trace.stop()
        message = await ws.receive()
        arrived = time.perf_counter()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            strikes += 1
            text = message.get("text")
            conn.send_error(E.RATE_LIMITED, "slow down: too many messages",
                            move_id_of(text) if text is not None and len(text) <= settings.max_message_bytes else None,
                            reason="slow_down")
            if strikes >= settings.rate_strikes:
                conn.close(POLICY, "too many messages")
            continue
        strikes = 0
        text = message.get("text")
        if text is None:
            conn.send_error(E.BAD_MESSAGE, "messages must be JSON text, not binary", reason="binary_message")
            continue
        if len(text.encode("utf-8")) > settings.max_message_bytes:
            conn.send_error(E.BAD_MESSAGE, f"a message has at most {settings.max_message_bytes} bytes",
                            reason="message_too_long", params={"n": settings.max_message_bytes})
            continue
        try:
            msg = wire.CLIENT_MESSAGE.validate_json(text)
        except ValidationError as e:
            english, why, params = refused_frame(e, wire.CLIENT_TYPES)
            conn.send_error(E.BAD_MESSAGE, english, move_id=move_id_of(text), reason=why, params=params)
            continue
        if isinstance(msg, wire.Hello):
            conn.send_error(E.BAD_MESSAGE, "you already said hello on this connection", reason="second_hello")
        elif isinstance(msg, wire.Ping):
            conn.send_pong()
        elif isinstance(msg, Chat) and (why := ws.app.state.chat_limits.take(conn.player_id, room.code)):
            conn.send_error(E.RATE_LIMITED, why.english, reason=why.reason, params=why.params)
        else:
            command = msg  # the room command itself (app.rooms.core.commands), the move already parsed
            if msg.type == "sit":  # blocks keep players apart: read them fresh for each sit
                try:
                    async with ws.app.state.sessions() as s:
                        conn.avoid = frozenset(await social.avoided(s, conn.player_id))
                except Exception:
                    conn.send_error(E.UNAVAILABLE, "the server could not do that just now", reason="not_done_now")
                    continue
            started = time.perf_counter()
            if msg.type == "move":
                conn.move_started = started
                move_trace.start(arrived)
                move_trace.mark("parsed")
            try:
                await service.handle(room, conn, command)
                if msg.type == "move":
                    COMMITTED.observe(time.perf_counter() - started)
            except RoomError as e:
                conn.move_started = None
                conn.send_error(e.code, e.message, e.move_id, e.option, e.reason, e.params)
                if e.code == E.UNAVAILABLE and service.draining:
                    conn.close(RESTART, "the server is restarting; reconnect")
            except Exception:
                conn.move_started = None
                log.exception("request %s in room %s failed", msg.type, room.code)
                conn.send_error(E.UNAVAILABLE, "the server could not do that just now",
                                command.id if isinstance(command, MakeMove) else None, reason="not_done_now")


# A plain Starlette route, not FastAPI's: it takes no dependencies, and FastAPI's websocket
# route keeps exit stacks alive for the socket's whole life (2.1 KiB each, docs/performance.md).
router.add_websocket_route("/ws/rooms/{code}", room_socket)
