"""What the board's pool processes run at their start: gone with their parent (the server), niced
and (Linux) under SCHED_IDLE, as the review's children (app/platform/jobs/local.py): they run on
CPU time nothing else wants, so the live rooms' event loop comes first, and a core busy with an
answer still counts as idle when the scheduler places a woken task (the web process's threads,
anything else on the machine). An answer's estimate is budgeted in CPU time, so on a busy server
it comes later (at worst `SPITE_ANALYSIS_TIMEOUT`: `503`), never worse."""

from __future__ import annotations

import contextlib
import os

from app.bots.pool_work import watch_parent

NICE = 19


def start(parent: int, nice: int = NICE) -> None:
    """The pool's initializer."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    watch_parent(parent)
