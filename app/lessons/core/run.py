"""One learner working through one lesson (pure).

`LessonRun.begin(lesson)` sets the first step's table; `attempt(move)` checks the learner's
move (the engine first: an illegal move is refused with the engine's reason; then the step's
goal: a legal move that misses it is refused with the goal's reason) and, if it serves, plays
it and moves on to the next step once this one is met. When the lesson has a bot and the other
seat is to move, `bot_seat()` says so and `play_bot(move)` plays the move the shell's bot chose.
A refused move changes nothing.

What is kept is the lesson's id and the moves played (`record`); `resume` replays them, so a
lesson room survives a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engine import Game, Match, Move, events_for, make_options, view
from app.engine.errors import EngineError, IllegalMove
from app.engine.explain import explain

from .model import LEARNER, Lesson, Why

NAMES = ("You", "Bot")


@dataclass(frozen=True)
class Attempt:
    """What a move did: refused (`why`: a catalogue key and parameters; nothing changed), or
    played (`events` as the learner may know them; `advanced`: a new step began;
    `finished`: the lesson is over)."""

    why: Why | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    advanced: bool = False
    finished: bool = False

    @property
    def ok(self) -> bool:
        return self.why is None


@dataclass
class LessonRun:
    """The table, the step being worked on, and every move played since the lesson began."""

    lesson: Lesson
    index: int
    match: Match
    start: Game
    step_moves: list[Move] = field(default_factory=list)
    record: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (seat, wire move)
    finished: bool = False

    @classmethod
    def begin(cls, lesson: Lesson) -> LessonRun:
        run = cls(lesson, 0, Match(make_options(lesson.preset, lesson.overrides), NAMES), _blank())
        run._enter(0)
        return run

    @classmethod
    def resume(cls, lesson: Lesson, record: Sequence[tuple[int, dict[str, Any]]]) -> LessonRun:
        """The run after replaying `record` (moves that were accepted before are again)."""
        run = cls.begin(lesson)
        for seat, wire in record:
            done = run.play_bot(Move.from_wire(wire)) if seat != LEARNER else run.attempt(Move.from_wire(wire))
            if not done.ok:
                raise ValueError(f"the record of lesson {lesson.id} does not replay: {done.why}")
        return run

    @property
    def game(self) -> Game:
        return self.match.game

    def view(self) -> dict[str, Any]:
        """The table as the learner sees it (the engine's view of seat 0)."""
        return view(self.match, LEARNER)

    def step_json(self) -> dict[str, Any]:
        """What the step asks: 1-based `step` of `of`, the catalogue keys of its text and goal
        and their parameters, and whether the lesson is over."""
        step = self.lesson.steps[self.index]
        return {"lesson": self.lesson.id, "step": self.index + 1, "of": len(self.lesson.steps),
                "text": self.lesson.text_key(self.index), "goal": self.lesson.goal_key(self.index),
                "params": step.params(self.start), "finished": self.finished}

    def hint(self) -> Move | None:
        """A move that serves the step, if it is the learner's turn."""
        if self.finished or self.game.outcome is not None or self.game.turn != LEARNER:
            return None
        return self.lesson.steps[self.index].solve(self.game)

    def bot_seat(self) -> int | None:
        """The seat the lesson's bot must move now, if any."""
        g = self.game
        if self.finished or self.lesson.bot is None or g.outcome is not None or g.turn == LEARNER:
            return None
        return g.turn

    def bot_view(self) -> dict[str, Any]:
        seat = self.bot_seat()
        if seat is None:
            raise ValueError("no bot is to move")
        return view(self.match, seat)

    def attempt(self, move: Move) -> Attempt:
        """The learner's move: refused with a reason, or played."""
        if self.finished:
            return Attempt(why=("lesson.miss.finished", {}))
        g = self.game
        if g.outcome is not None or g.turn != LEARNER:
            return Attempt(why=("lesson.miss.not_your_turn", {}))
        if move not in g.legal_moves():
            err = explain(g, move)
            return Attempt(why=(f"reason.{err.key or 'bad_move'}", dict(err.params)))
        missed = self.lesson.steps[self.index].goal.accepts(g, move)
        if missed is not None:
            return Attempt(why=missed)
        events = self._play(LEARNER, move)
        self.step_moves.append(move)
        return self._after(events)

    def play_bot(self, move: Move) -> Attempt:
        """The bot's move for the other seat (the shell asked the bot for it)."""
        seat = self.bot_seat()
        if seat is None or move not in self.game.legal_moves():
            return Attempt(why=("lesson.miss.not_your_turn", {}))
        return self._after(self._play(seat, move))

    def _play(self, seat: int, move: Move) -> list[dict[str, Any]]:
        try:
            events = self.match.apply(move, seat)
        except EngineError as err:  # listed moves apply; anything else is a bug in a lesson
            raise ValueError(f"lesson {self.lesson.id}: {err}") from err
        self.record.append((seat, move.to_wire()))
        return events_for(events, LEARNER)

    def _after(self, events: list[dict[str, Any]]) -> Attempt:
        step = self.lesson.steps[self.index]
        if not step.goal.done(self.start, self.game, self.step_moves):
            return Attempt(events=events)
        if self.index + 1 == len(self.lesson.steps):
            self.finished = True
            return Attempt(events=events, advanced=True, finished=True)
        self._enter(self.index + 1)
        return Attempt(events=events, advanced=True)

    def _enter(self, index: int) -> None:
        step = self.lesson.steps[index]
        self.index = index
        self.step_moves = []
        if step.position is not None:
            game = step.position(self.match.options)
            self.match = Match.of_position(game, NAMES)
        self.start = self.game.copy()


def _blank() -> Game:
    return Game.__new__(Game)


__all__ = ["Attempt", "IllegalMove", "LessonRun"]
