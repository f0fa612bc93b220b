"""The local queue's review children yield the CPU to the web process: nice 19 and, on Linux,
SCHED_IDLE (threads they start later inherit both), so a review sharing a core with the event
loop never delays it (bench/reviewlag.py measures the loop)."""

from __future__ import annotations

import os
import threading

import pytest

from app.platform.jobs.local import LocalQueue
from app.platform.jobs.review import JobConfig


def _in_a_thread() -> tuple[int, int]:
    """(policy, niceness) of a thread started inside the child, as the review's thread is."""
    out: list[tuple[int, int]] = []
    t = threading.Thread(target=lambda: out.append((os.sched_getscheduler(0), os.nice(0))))
    t.start()
    t.join()
    return out[0]


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_review_children_run_niced_under_sched_idle() -> None:
    queue = LocalQueue(JobConfig(database_url=""), None)  # type: ignore[arg-type]  # no jobs: only its pool
    try:
        policy, nice = queue._executor().submit(_in_a_thread).result(timeout=60)
    finally:
        queue._kill_pool()
    assert policy == os.SCHED_IDLE
    assert nice == 19 or os.nice(0) == 19  # already at 19 (the tests run niced): it cannot go higher
