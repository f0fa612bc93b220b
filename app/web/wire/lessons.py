"""Lessons' wire (docs/protocol.md, "Learning to play (v1.4)"): the REST bodies, and what a lesson
room's socket sends beside the room socket's own messages (`welcome` with a lesson room,
`lesson`: the step, in the socket's language). `scripts/gen_types.py` writes their types into
static/types.js."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from app.rooms.core.messages import RoomInfo
from app.web.wire.room import You


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True, json_schema_serialization_defaults_required=True)


class LessonItem(_Out):
    """A lesson as the list shows it: its title and what it teaches (`about`, one sentence) in the
    caller's language, whether the caller has done it, its number of steps, and the room of the
    caller's unfinished run (if any)."""

    id: str
    title: str
    about: str
    done: bool
    steps: int
    room: str | None = None


class LessonList(_Out):
    """The lessons in order; `dismissed`: the caller dismissed the home page's Learn to play card."""

    items: list[LessonItem]
    dismissed: bool = False


class LessonStarted(_Out):
    """The solo room where the caller works through the lesson (`/ws/rooms/{room}`)."""

    room: str


class LessonsDismissed(_Out):
    dismissed: bool


class LessonRoomInfo(RoomInfo):
    """A lesson room as its socket's `welcome` carries it: the room object with `kind` `lesson`
    and the lesson's id."""

    kind: Literal["lesson"]
    lesson: str


class LessonRoomMessage(TypedDict):
    type: Literal["room"]
    room: LessonRoomInfo


class LessonWelcome(_Out):
    type: Literal["welcome"] = "welcome"
    you: You
    room: LessonRoomInfo


class LessonStep(_Out):
    """The step being worked on, said in the socket's language: `step` of `of` (1-based), what to
    do (`text`) and the goal in a few words (`goal`); `finished` once the lesson is over, with
    `done` (what to say then; else null). The catalogue keys and their params beside them."""

    type: Literal["lesson"] = "lesson"
    lesson: str
    title: str
    step: int
    of: int
    text: str
    goal: str
    finished: bool
    done: str | None = None
    next: str | None = None  # the next lesson's id, if any
    text_key: str
    goal_key: str
    params: dict[str, Any]
