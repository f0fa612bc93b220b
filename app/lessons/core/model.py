"""A lesson and its steps, as plain values.

A step says what to do (its catalogue text, `lesson.<lesson>.<step>`), where (a fixed
`position`, or the table as the previous step left it), which moves serve it (`Goal.accepts`:
None, or the reason a legal move that misses it is refused) and when it is done
(`Goal.done`). `solve` picks a move that serves the step (the hint, and how tests and browser
tests walk every lesson through).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.engine import Game, Move, Options

Why = tuple[str, dict[str, Any]]  # a catalogue key and its parameters
LEARNER = 0  # the learner always sits in seat 0


class Goal(Protocol):
    """What a step asks for."""

    def accepts(self, game: Game, move: Move) -> Why | None:
        """None if the learner's legal `move` in `game` serves the step, else why not."""
        ...

    def done(self, start: Game, now: Game, moves: Sequence[Move]) -> bool:
        """Whether the step is met: `start` is the table when the step began, `moves` the
        learner's moves accepted since."""
        ...


Position = Callable[[Options], Game]
Solver = Callable[[Game], Move]
Params = Callable[[Game], dict[str, Any]]


def no_params(game: Game) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Step:
    """One step: `key` names its texts (`lesson.<lesson>.<key>` what to do, `….goal` the goal
    in a few words); `params` fills their placeholders from the table at the step's start."""

    key: str
    goal: Goal
    solve: Solver
    position: Position | None = None  # None: the table as the previous step left it
    params: Params = no_params


@dataclass(frozen=True)
class Lesson:
    """A lesson: its id (also its catalogue prefix), the rules it is played under, its steps,
    and the bot level that plays the other seat's turns (None: the other seat never moves)."""

    id: str
    steps: tuple[Step, ...]
    preset: str = "standard"
    overrides: dict[str, Any] = field(default_factory=dict)
    bot: str | None = None

    @property
    def title_key(self) -> str:
        return f"lesson.{self.id}.title"

    def text_key(self, index: int) -> str:
        return f"lesson.{self.id}.{self.steps[index].key}"

    def goal_key(self, index: int) -> str:
        return f"lesson.{self.id}.{self.steps[index].key}.goal"
