"""A lesson room's socket: `/ws/rooms/{code}` with a lesson's code (`app.lessons.shell.service`:
codes starting with `1`), handed over by the room socket before anything is read.

The same base as every socket (`app.web.sockets.base`): the handshake (`admit`, `greet`,
`sign_in`), the bounded outgoing queue, the rate, size and shape checks of each frame (the room
socket's own schema), the close codes. Only the run's learner may open it: anyone else is sent
`error` `not_allowed_now` (reason `lesson_private`) and closed 4403. It sends `welcome` (a lesson
room, `kind` `lesson`), `room`, `lesson` (the step) and `state`; a `move` is the learner's,
`hint` gives the step's solution, `sync` the table whole again, and any other room request is
`not_allowed_now` (`lesson_room`). A delta socket's changes are made per socket (a solo table).
"""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import Any

import orjson
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from app.domain.records import RoomStatus
from app.i18n import DEFAULT, pick, render
from app.lessons.core import LESSONS, LessonRun
from app.lessons.shell.service import NOT_ALLOWED_NOW, LessonService, LiveLesson, title
from app.rooms.core import errors as E
from app.rooms.core.commands import Hint, MakeMove, Sync
from app.rooms.core.delta import SharedChange
from app.rooms.core.errors import RoomError
from app.store.repositories import lessons as store
from app.store.repositories.tokens import hash_token
from app.web.http.language import refusal
from app.web.http.services import services
from app.web.routes.metrics import ERRORS
from app.web.sockets import base
from app.web.wire import lessons as wire
from app.web.wire import room as room_wire

log = logging.getLogger(__name__)
SPLIT_OWN = ("you", "hand", "legal_moves")


class LessonConnection(base.SocketConnection):
    """One socket of the learner (a `lessons.shell.service.Learner`), speaking its language."""

    NAMES_MOVES = True

    def __init__(self, ws: WebSocket, player_id: str, limit: int, lang: str, view_format: str, name: str) -> None:
        super().__init__(ws, player_id, limit, lang)
        self.split = view_format != "full"
        self.delta = view_format == "delta"
        self.held: tuple[int, dict[str, Any], dict[str, Any]] | None = None  # a delta socket's last table: v, parts
        self.names = (name, render(lang, "learn.bot_name"))  # the table's seats: the learner, the lesson's bot

    def send_welcome(self, name: str, account: bool, room: wire.LessonRoomInfo) -> None:
        self._put(wire.LessonWelcome(you=room_wire.You(player_id=self.player_id, name=name, seat=0, host=True,
                                                       account=account), room=room))
        body: wire.LessonRoomMessage = {"type": "room", "room": room}
        self._put_text(orjson.dumps(body).decode())

    def send_lesson(self, run: LessonRun) -> None:
        step = run.step_json()
        params = step["params"]
        lesson = run.lesson
        after = [x.id for x in LESSONS]
        nxt = after[after.index(lesson.id) + 1] if lesson.id in after and after[-1] != lesson.id else None
        self._put(wire.LessonStep(
            lesson=lesson.id, title=title(lesson, self.lang), step=step["step"], of=step["of"],
            text=render(self.lang, step["text"], params), goal=render(self.lang, step["goal"], params),
            finished=run.finished, done=render(self.lang, "learn.done") if run.finished else None, next=nxt,
            text_key=step["text"], goal_key=step["goal"], params=params))

    def send_table(self, v: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        extra = {"match_id": "lesson", "match_number": 1, "clock": None, "autoplay": [], "awards": None,
                 "next_hand": None}
        players = view.get("players")
        if isinstance(players, list):  # the core names its seats "You" and "Bot": say who, in the socket's words
            view = {**view, "players": [{**p, "name": self.names[i]} if i < 2 else p for i, p in enumerate(players)]}
        body: dict[str, Any]
        if self.split:
            shared = {k: x for k, x in view.items() if k not in SPLIT_OWN}
            own = {k: view[k] for k in SPLIT_OWN if k in view}
            held, self.held = self.held, (v, shared, own) if self.delta else None
            if held is not None:  # a solo table: the change is made per socket
                change = SharedChange(held[0], held[1], shared).with_own(held[2], own)
                body = {"type": "delta", "v": v, "base": change.base, "gone": change.gone, "shared": change.shared,
                        "players": change.players, "own": change.own, "events": events, **extra}
            else:
                body = {"type": "state", "v": v, "shared": shared, "own": own, "events": events, **extra}
        else:
            body = {"type": "state", "v": v, "view": view, "events": events, **extra}
        self._put_text(orjson.dumps(body).decode())

    def send_refusal(self, code: str, english: str, *, reason: str | None, params: dict[str, Any] | None = None,
                     move_id: str | None = None) -> None:
        ERRORS.labels(code).inc()
        if reason is not None and reason.startswith("lesson."):  # the lessons' own keys, said in full
            said = render(self.lang, reason, params, default=english)
        else:
            said = refusal(self.lang, reason, params, english)
        self._put(room_wire.Error(code=code, message=said, id=move_id, reason=reason,
                                  params=(params or {}) if reason else None))

    def send_lesson_hint(self, v: int, move: dict[str, Any], run: LessonRun) -> None:
        step = run.step_json()
        self._put(room_wire.HintMessage(v=v, move=move, reason=render(self.lang, step["goal"], step["params"]),
                                        reason_key=step["goal"], params=step["params"]))

    def send_pong(self) -> None:
        self._put(room_wire.Pong())


def room_info(row: store.Run, name: str, lang: str) -> wire.LessonRoomInfo:
    """The lesson room as a room object: the learner in seat 0, the lesson's other seat a bot."""
    seats: list[Any] = [
        {"seat": 0, "player_id": row.player_id, "name": name, "bot": None, "connected": True, "team": None,
         "vacation": False},
        {"seat": 1, "player_id": None, "name": render(lang, "learn.bot_name"), "bot": "easy", "connected": True,
         "team": None, "vacation": False}]
    return {"code": row.code, "host": row.player_id, "host_name": name, "status": RoomStatus.PLAYING,
            "preset": "standard", "seats_taken": 2, "options": None, "overrides": {}, "seats": seats,
            "seat_count": 2, "public": False, "turn_seconds": None, "hints": True, "match_id": "lesson",
            "match_number": 1, "spectators": 0, "watchers": [], "seeded": False, "rated": False, "pace": "live",
            "rematch": None, "daily": None, "kind": "lesson", "lesson": row.lesson_id}


async def _refuse(ws: WebSocket, e: RoomError) -> None:
    said = refusal(pick(accept_language=ws.headers.get("accept-language")), e.reason, e.params, e.message)
    with contextlib.suppress(Exception):
        await ws.send_text(room_wire.Error(code=e.code, message=said, reason=e.reason,
                                           params=e.params if e.reason else None).model_dump_json())
    await base.close_quietly(ws, base.TRY_AGAIN, e.message)


async def lesson_socket(ws: WebSocket, code: str, frames: base.Frames[Any]) -> None:
    svc = services(ws.app)
    lessons: LessonService = svc.lessons
    settings = svc.settings
    if not await base.admit(ws, svc.rooms):
        return
    try:
        async with svc.admission.turn():
            row = await lessons.read(code)
    except RoomError as e:
        await _refuse(ws, e)
        return
    except Exception:
        log.warning("could not read lesson run %s", code, exc_info=True)
        await _refuse(ws, RoomError(E.UNAVAILABLE, "the server cannot reach its database just now; try again shortly",
                                    reason="database_away"))
        return
    if row is None:
        await base.close_quietly(ws, base.NOT_FOUND, "no room has that code")
        return
    hello = await base.greet(ws, settings, frames)
    if hello is None:
        return
    signed = await base.sign_in(ws, svc.rooms, settings, hello.token, functools.partial(_refuse, ws))
    if signed is None:
        return
    player, _hidden = signed
    lang = pick(hello.lang, player.lang, accept_language=ws.headers.get("accept-language"))
    if player.id != row.player_id:  # a lesson is its learner's alone
        svc.rooms.release_socket(player.id)
        english = "this lesson is someone else's"
        said = refusal(lang, "lesson_private", {}, english) if lang != DEFAULT else english
        with contextlib.suppress(Exception):
            await ws.send_text(room_wire.Error(code=NOT_ALLOWED_NOW, message=said, reason="lesson_private",
                                               params={}).model_dump_json())
        await base.close_quietly(ws, base.FORBIDDEN, english)
        return
    conn = LessonConnection(ws, player.id, settings.send_queue, lang, hello.format, player.name)
    name, account = player.name, player.has_account
    del player, signed
    token = hash_token(hello.token)
    svc.open_sockets.add(token, conn)  # signing the token out closes it, as any socket
    live: LiveLesson | None = None
    async with base.sending(conn, svc.rooms):
        try:
            conn.send_welcome(name, account, room_info(row, name, conn.lang))
            live = await lessons.join(row, conn)
            await base.serve(ws, conn, settings, frames, functools.partial(_handle, lessons, live, conn))
        except WebSocketDisconnect:
            pass
        finally:
            svc.open_sockets.discard(token, conn)
            if live is not None:
                lessons.leave(live, conn)


async def _handle(lessons: LessonService, live: LiveLesson, conn: LessonConnection, msg: Any, arrived: float) -> None:
    """One validated message: a move, a hint, or a room request a lesson does not take."""
    try:
        if isinstance(msg, MakeMove):
            await lessons.move(live, conn, None if msg.id is None else str(msg.id), msg.move)
        elif isinstance(msg, Hint):
            await lessons.hint(live, conn)
        elif isinstance(msg, Sync):  # the whole table again
            conn.held = None
            await lessons.sync(live, conn)
        else:
            conn.send_refusal(NOT_ALLOWED_NOW, f"a lesson room does not take '{msg.type}'", reason="lesson_room",
                              params={"type": msg.type})
    except Exception:
        log.exception("lesson request %s in %s failed", msg.type, live.code)
        conn.send_refusal(E.UNAVAILABLE, "the server could not do that just now", reason="not_done_now",
                          move_id=str(msg.id) if isinstance(msg, MakeMove) and msg.id is not None else None)
