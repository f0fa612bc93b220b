"""Walking a lesson through: the learner's moves by each step's `solve`, the bot's (the `game`
lesson) by the Easy bot with a fixed seed, as the shell's bot pool would."""

from __future__ import annotations

from collections.abc import Iterator

from app.bots import choose_move
from app.engine import Move
from app.lessons.core import Attempt, Lesson, LessonRun


def next_move(run: LessonRun) -> Attempt:
    """One move of the walk: the bot's when it is to move, else the learner's hint."""
    if run.bot_seat() is not None:
        wire = choose_move(run.bot_view(), "easy", seed=len(run.record))
        return run.play_bot(Move.from_wire(wire))
    move = run.hint()
    assert move is not None, f"{run.lesson.id}: no hint at step {run.index + 1}"
    return run.attempt(move)


def walk(lesson: Lesson, limit: int = 2000) -> Iterator[tuple[LessonRun, Attempt | None]]:
    """The run before each move (with the attempt that led there), until the lesson is over."""
    run = LessonRun.begin(lesson)
    done: Attempt | None = None
    for _ in range(limit):
        yield run, done
        if run.finished:
            return
        done = next_move(run)
        assert done.ok, f"{lesson.id} step {run.index + 1}: the walk's move was refused: {done.why}"
    raise AssertionError(f"{lesson.id} did not finish in {limit} moves")
