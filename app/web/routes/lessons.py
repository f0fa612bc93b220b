"""Lessons over REST (docs/protocol.md, "Learning to play (v1.4)"): the list with the caller's
progress, starting a lesson (its solo room, played over the room socket:
`app.web.sockets.lesson`), and dismissing the home page's Learn to play card."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from app.lessons.core import LESSONS
from app.lessons.shell.service import about, title
from app.store.repositories import lessons as store
from app.web.http.caller_lang import caller_lang
from app.web.http.deps import CurrentPlayer, MaybePlayer, Session
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.wire.lessons import LessonList, LessonsDismissed, LessonStarted

router = APIRouter(prefix="/api/lessons", tags=["lessons"])


@router.get("", response_model=LessonList)
async def list_lessons(me: MaybePlayer, session: Session, request: Request) -> dict[str, Any]:
    """The lessons in order, each with its title and what it teaches in the caller's language,
    whether the caller has done it (a caller without a token: none done)."""
    lang = await caller_lang(request)
    done: set[str] = set()
    rooms: dict[str, str] = {}
    dismissed = False
    if me is not None:
        done = await store.done(session, me.id)
        rooms = await store.open_runs(session, me.id)
        dismissed = await store.dismissed(session, me.id)
    return {"items": [{"id": lesson.id, "title": title(lesson, lang), "about": about(lesson, lang),
                       "done": lesson.id in done,
                       "steps": len(lesson.steps), "room": rooms.get(lesson.id)} for lesson in LESSONS],
            "dismissed": dismissed}


@router.post("/dismiss", response_model=LessonsDismissed)
async def dismiss(me: CurrentPlayer, session: Session) -> dict[str, Any]:
    """The caller no longer wants the home page's Learn to play card."""
    await store.dismiss(session, me.id)
    return {"dismissed": True}


@router.post("/{lesson_id}", status_code=status.HTTP_201_CREATED, response_model=LessonStarted)
async def start(lesson_id: str, me: CurrentPlayer, request: Request) -> dict[str, Any]:
    """The caller's room for the lesson: their unfinished run of it, else a fresh one."""
    code = await services(request.app).lessons.start(me.id, lesson_id)
    if code is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no lesson has that id", reason="no_lesson")
    return {"room": code}
