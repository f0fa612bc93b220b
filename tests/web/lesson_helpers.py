"""Lessons over a real socket: start one, walk it through by its hints, check what is sent
against the wire's schemas."""

from __future__ import annotations

from typing import Any

import httpx

from app.web.wire import lessons as lesson_wire
from tests.web.helpers import Person, Sock
from tests.web.wire_check import _check, _schema, wire_problems

Msg = dict[str, Any]
_LESSON = {"welcome": _schema(lesson_wire.LessonWelcome), "lesson": _schema(lesson_wire.LessonStep),
           "room": _schema(lesson_wire.LessonRoomMessage)}


def lesson_problems(msg: Msg) -> list[str]:
    """What in a lesson socket's message its schema does not declare, or declares and it lacks."""
    if msg["type"] in _LESSON:
        root, defs = _LESSON[msg["type"]]
        problems: list[str] = []
        _check(msg, root, defs, msg["type"], problems)
        return problems
    return wire_problems(msg)


async def start(http: httpx.AsyncClient, who: Person, lesson_id: str) -> str:
    r = await http.post(f"/api/lessons/{lesson_id}", headers=who.auth)
    assert r.status_code == 201, r.text
    code: str = r.json()["room"]
    return code


def last(sock: Sock, kind: str) -> Msg:
    found = [m for m in sock.messages if m["type"] == kind]
    assert found, sock.summary()
    return found[-1]


async def walk(sock: Sock, limit: int = 400) -> int:
    """Play the lesson to its end by its hints (waiting out the bot's turns); the moves made."""
    made = 0
    await sock.wait(lambda m: m["type"] == "state")
    while not last(sock, "lesson")["finished"]:
        assert made < limit, "the lesson did not end"
        hint = await sock.request({"type": "hint"}, lambda m: m["type"] in ("hint", "error"))
        if hint["type"] == "error":  # the bot is to move: wait for the learner's turn
            assert hint["code"] == "not_your_turn", hint
            seen = last(sock, "state")["v"]
            await sock.wait(lambda m, seen=seen: m["type"] == "state" and m["v"] > seen, timeout=60)
            continue
        start_at = len(sock.messages)
        await sock.send({"type": "move", "id": sock.next_id(), "move": hint["move"]})
        got = await sock.wait(lambda m: m["type"] in ("state", "error"), start=start_at, timeout=30)
        assert got["type"] == "state", got
        made += 1
    return made
