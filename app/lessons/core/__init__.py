"""The lessons' PURE core: no I/O, no clock, no global random.

- `model`: `Lesson` and `Step` (what to do, the position, the goal a move must serve)
- `goals`: the goals steps are made of, each with the reason a move that misses it is refused
- `positions`: fixed positions built through the engine (`Game.layout`)
- `catalog`: the lessons, in order (`LESSONS`, `find`)
- `run`: `LessonRun`, one learner working through one lesson (attempt, bot turns, resume)
"""

from .catalog import LESSONS, find
from .model import Lesson, Step, Why
from .run import Attempt, LessonRun

__all__ = ["Attempt", "LESSONS", "Lesson", "LessonRun", "Step", "Why", "find"]
