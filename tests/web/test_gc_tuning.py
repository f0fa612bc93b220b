"""The collector's tuning (`app.web.routes.metrics.tune_gc`): what survives a short while is frozen,
so young collections never walk every room's current table, and the scheduled whole-heap
collection still frees a reference cycle that had been frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from app.web.routes.metrics import tune_gc


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector_restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


async def _run(task: asyncio.Task[None] | None, seconds: float) -> None:
    assert task is not None
    try:
        await asyncio.sleep(seconds)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.usefixtures("collector_restored")
async def test_what_survives_is_frozen_out_of_the_young_generation() -> None:
    task = tune_gc((20000, 50, 1000), 0, freeze_seconds=0.01)
    table = [{"seat": i, "cards": [i, i + 1]} for i in range(500)]  # a room's current table: alive
    frozen_before = gc.get_freeze_count()
    await _run(task, 0.1)
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert not any(id(row) in young for row in table)
    assert gc.get_freeze_count() >= frozen_before + len(table)


@pytest.mark.usefixtures("collector_restored")
async def test_the_scheduled_collection_frees_a_cycle_that_was_frozen() -> None:
    task = tune_gc((20000, 50, 1000), 0.2, freeze_seconds=0.01)
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    await asyncio.sleep(0.05)  # frozen by now
    del a, b
    gc.collect()  # a collection of every generation still skips the frozen cycle
    assert gone() is not None
    await _run(task, 0.4)  # the scheduled collection unfreezes first
    assert gone() is None
