"""The lessons, in the order a newcomer takes them (docs/lessons.md): the first ones in
`basics`, the later ones in `play`."""

from __future__ import annotations

from .basics import AIM, CENTRE, DISCARD, HAND_LESSON, SIDE, WILD
from .model import Lesson
from .play import BONUS, CAT_AND_MOUSE, COMPLETE, FEED, GAME

LESSONS: tuple[Lesson, ...] = (AIM, CENTRE, WILD, HAND_LESSON, DISCARD, SIDE, BONUS, COMPLETE, FEED, GAME,
                               CAT_AND_MOUSE)
_BY_ID = {lesson.id: lesson for lesson in LESSONS}


def find(lesson_id: str) -> Lesson | None:
    return _BY_ID.get(lesson_id)
