"""The analysis board's pure core: the position at a version as one seat saw it, the seat's
what-if moves checked by the engine, and the best lines estimated from that view alone."""

from .board import (
    MAX_WHAT_IFS,
    BoardSettings,
    Illegal,
    Position,
    Question,
    Record,
    answer,
    lines,
    position,
    run,
    sampling_seed,
)

__all__ = ["BoardSettings", "Illegal", "MAX_WHAT_IFS", "Position", "Question", "Record", "answer", "lines",
           "position", "run", "sampling_seed"]
