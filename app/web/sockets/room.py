"""The room socket `/ws/rooms/{code}`: hello, then typed requests, each answered or refused.

The first message must be `hello` with a token (never in the URL) within `hello_timeout`;
otherwise, or with a bad token, the socket closes with 4401; an unknown room closes with
4404. After that every message is checked for size, rate and shape before the room service
sees it; a refusal is an `error` to this socket only and changes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.domain.records import ChatSender
from app.i18n import DEFAULT, pick
from app.lessons.shell.service import is_lesson_code
from app.platform import move_trace
from app.platform.logctx import about
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.commands import Chat, MakeMove
from app.rooms.core.errors import RoomError
from app.rooms.core.handlog import HandLog
from app.rooms.core.messages import RoomInfo, StateExtra, TableView, hiding
from app.rooms.ports import HintReason
from app.rooms.shell.service import RoomNotFound, RoomService
from app.store.repositories import social
from app.store.repositories import tournaments as tournament_store
from app.store.repositories.tokens import hash_token
from app.web.http.language import hint_text, refusal
from app.web.http.services import services
from app.web.routes.metrics import COMMITTED, ERRORS, SOCKETS
from app.web.sockets.base import (
    FORBIDDEN,
    NOT_FOUND,
    POLICY,
    RESTART,
    TOO_MANY,
    TRY_AGAIN,
    UNAUTHORIZED,
    Frames,
    SocketConnection,
    admit,
    close_quietly,
    greet,
    sending,
    serve,
    sign_in,
)
from app.web.sockets.lesson import lesson_socket
from app.web.wire import room as wire

log = logging.getLogger(__name__)
router = APIRouter()
FRAMES = Frames(wire.CLIENT_MESSAGE, wire.CLIENT_TYPES, wire.Hello, wire.Ping)
__all__ = ["FORBIDDEN", "NOT_FOUND", "POLICY", "RESTART", "TOO_MANY", "TRY_AGAIN", "UNAUTHORIZED", "Connection",
           "room_socket"]


class Connection(SocketConnection):
    """One socket as the room service sees it (a `Peer`): outgoing messages go through a
    bounded queue drained by a sender task, so a slow reader never holds up a room."""

    NAMES_MOVES = True

    def __init__(self, ws: WebSocket, player_id: str, name: str, queue_size: int, *, view_format: str = "full",
                 account: bool = False, lang: str = DEFAULT) -> None:
        super().__init__(ws, player_id, queue_size, lang)
        self.split = view_format != "full"  # a delta socket's whole tables are split ones
        self.delta = view_format == "delta"
        self.held: int | None = None  # a delta socket: the serial of the table it holds (`fanout`)
        self.name = name
        self.account = account
        self.sent_v: int | None = None
        self.move_started: float | None = None  # arrival time of the move being handled (metrics)
        self.hidden: set[str] = set()  # players this player blocked: their chat and their watching are not sent here
        self.avoid: frozenset[str] = frozenset()  # players kept from this one's table (blocks, read at sit)

    def reconnect(self, reason: str) -> None:
        self.close(RESTART, reason)

    def send_welcome(self, seat: int | None, host: bool, room: RoomInfo) -> None:
        self._put(wire.Welcome(you=wire.You(player_id=self.player_id, name=self.name, seat=seat, host=host,
                                                    account=self.account),
                               room=hiding(room, self.hidden)))

    def send_room(self, room: RoomInfo) -> None:
        body: wire.RoomMessage = {"type": "room", "room": hiding(room, self.hidden)}
        self._put_text(orjson.dumps(body).decode())

    def send_state(self, v: int, table: TableView, events: Any, extra: StateExtra) -> None:
        # The hot path: a `wire.SplitState` (or `wire.State`) as a plain dict for orjson, checked
        # by mypy; the views inside were encoded once per version (and receiver) and stand in,
        # as orjson Fragments, for the view objects the schema names (hence the ignores).
        started, self.move_started = self.move_started, None
        body: wire.SplitState | wire.State | wire.DeltaState
        if self.delta:
            change, self.held = table.delta(self.held), table.serial
            if change is not None:  # the change from the table this socket holds
                body = {"type": "delta", "v": v, "base": change.base, "gone": change.gone,
                        "shared": change.shared, "players": change.players,  # type: ignore[typeddict-item]
                        "own": change.own, "events": events, **extra}
                self._put_text(orjson.dumps(body).decode(), started)
                return
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

    def send_refusal(self, code: str, english: str, *, reason: str | None, params: dict[str, Any] | None = None,
               move_id: str | None = None) -> None:
        self.send_error(code, english, move_id, reason=reason, params=params)


async def _refuse(ws: WebSocket, e: RoomError) -> None:
    said = refusal(pick(accept_language=ws.headers.get("accept-language")), e.reason, e.params, e.message)
    error = wire.Error(code=e.code, message=said, reason=e.reason, params=e.params if e.reason else None)
    with contextlib.suppress(Exception):  # before hello: said in the handshake's language
        await ws.send_text(error.model_dump_json())
    await close_quietly(ws, TRY_AGAIN, e.message)


async def room_socket(ws: WebSocket) -> None:
    code: str = ws.path_params["code"]
    if is_lesson_code(code):  # a lesson's solo room: its own handler on the same base
        await lesson_socket(ws, code, FRAMES)
        return
    svc = services(ws.app)
    service, settings = svc.rooms, svc.settings
    if not await admit(ws, service):
        return
    gate = svc.admission
    try:
        async with gate.turn():
            room_code = (await service.live(code)).code
        about(room_code)
    except RoomNotFound:
        await close_quietly(ws, NOT_FOUND, "no room has that code")
        return
    except RoomError as e:  # the database is away: say so, and ask the client to come back later
        await _refuse(ws, e)
        return
    hello = await greet(ws, settings, FRAMES)
    if hello is None:
        return
    signed = await sign_in(ws, service, settings, hello.token, functools.partial(_refuse, ws),
                           social.blocked_by)  # the token and the blocks: one session
    if signed is None:
        return
    player, hidden = signed
    async with svc.sessions() as s:
        sealed = await tournament_store.watch_sealed(s, room_code, player.id)
    if sealed:  # a duplicate round's table, while the player still plays the same deals elsewhere
        english = "you play this round's deals at another table: its tables may be watched once your own is over"
        said = refusal(pick(hello.lang, accept_language=ws.headers.get("accept-language")), "tournament_watch",
                       {}, english)
        with contextlib.suppress(Exception):
            await ws.send_text(wire.Error(code=E.NOT_ALLOWED_NOW, message=said, reason="tournament_watch",
                                          params={}).model_dump_json())
        await close_quietly(ws, FORBIDDEN, english)
        return
    lang = pick(hello.lang, player.lang, accept_language=ws.headers.get("accept-language"))
    conn = Connection(ws, player.id, player.name, settings.send_queue, view_format=hello.format,
                      account=player.has_account, lang=lang)
    conn.hidden = hidden
    del player, signed  # an ORM row (and its state): the socket's frame keeps it no longer than needed
    token = hash_token(hello.token)
    opened = svc.open_sockets
    opened.add(token, conn)
    svc.hidden_chat.add(conn)
    room = None
    SOCKETS.inc()
    async with sending(conn, service):
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
            elif e.reason == "daily_sealed":  # no watching a daily deal's room while its day lasts
                conn.close(FORBIDDEN, "this daily deal may not be watched until its day is over")
        finally:
            SOCKETS.dec()
            opened.discard(token, conn)
            svc.hidden_chat.discard(conn)
            if room is not None:
                await service.leave(room, conn)


async def _serve(ws: WebSocket, conn: Connection, service: RoomService, room: Any, settings: Settings) -> None:
    async def handle(msg: Any, arrived: float) -> None:
        try:
            await _handle(ws, conn, service, room, msg, arrived)
        finally:
            move_trace.stop()  # later marks in this task belong to no move

    await serve(ws, conn, settings, FRAMES, handle)


async def _handle(ws: WebSocket, conn: Connection, service: RoomService, room: Any, msg: Any,
                  arrived: float) -> None:
    """One validated message (not hello, not ping): a room command, or its refusal."""
    if isinstance(msg, Chat) and (why := services(ws.app).chat_limits.take(conn.player_id, room.code)):
        conn.send_error(E.RATE_LIMITED, why.english, reason=why.reason, params=why.params)
        return
    command = msg  # parsed at the edge: the room core's own command
    if msg.type == "sit":  # blocks keep players apart: read them fresh for each sit
        try:
            async with services(ws.app).sessions() as s:
                conn.avoid = frozenset(await social.avoided(s, conn.player_id))
        except Exception:
            conn.send_error(E.UNAVAILABLE, "the server could not do that just now", reason="not_done_now")
            return
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
