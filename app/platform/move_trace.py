"""Where a move's time goes, by stage: wall-clock timestamps along the move path, for
profiling (docs/performance.md, "The move path by stage").

With `SPITE_TRACE_STAGES=true` the socket layer starts a move's clock when its frame has been
read (`start`), and each layer marks the stage it has finished (`mark`): the time since the
frame arrived goes into `spite_move_stage_seconds{stage}`. The clock travels with the task that
handles the move (a context variable), so a stage is only marked for a move that a socket
started. Off (the default), `start` does nothing and `mark` costs one context-variable read.

Stages, in order: `parsed` (JSON validated, a typed command), `locked` (the room's lock held),
`decided` (the core decided the move on a copy: the engine's work), `committed` (the move's row
is committed: the writer's queue and transaction), `applied` (memory adopted the decided copy),
`fanned_out` (every receiver's `state` built and queued), `published` (told to the other
instances); the socket layer's own `spite_move_latency_seconds{stage="sent"}` ends the path when
the mover's frame is written.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

from prometheus_client import Histogram

from app.platform.metrics import LATENCY_BUCKETS

STAGES = ("parsed", "locked", "decided", "committed", "applied", "fanned_out", "published")
STAGE_SECONDS = Histogram("spite_move_stage_seconds", "Time from a move's frame arriving to the end of each stage "
                          "(SPITE_TRACE_STAGES)", ["stage"], buckets=LATENCY_BUCKETS)
_BY_NAME = {name: STAGE_SECONDS.labels(name) for name in STAGES}
_started: ContextVar[float | None] = ContextVar("move_started", default=None)
_enabled = [False]


def enable(on: bool) -> None:
    """Turn stage tracing on or off for this process (the server does it from its settings)."""
    _enabled[0] = on


def start(at: float) -> None:
    """A move's frame arrived at `at` (a `time.perf_counter()` reading): time its stages."""
    if _enabled[0]:
        _started.set(at)


def stop() -> None:
    """The move is handled: later marks in this task belong to no move."""
    if _started.get() is not None:
        _started.set(None)


def mark(stage: str) -> None:
    """The move being handled in this task has finished `stage` (one of `STAGES`)."""
    at = _started.get()
    if at is not None:
        _BY_NAME[stage].observe(time.perf_counter() - at)
