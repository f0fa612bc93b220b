"""app/platform/mailbox.py: order, waiting, clearing, a cancelled consumer, and memory against asyncio.Queue."""

from __future__ import annotations

import asyncio
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.platform.mailbox import Mailbox


@given(st.lists(st.one_of(st.integers(), st.none().map(lambda _: "take")), max_size=300))
def test_a_mailbox_is_first_in_first_out_whatever_the_mix_of_puts_and_takes(ops: list[int | str]) -> None:
    box: Mailbox[int] = Mailbox()
    model: list[int] = []
    for op in ops:
        if op == "take":
            if model:
                assert box.take() == model.pop(0)
            else:
                with pytest.raises(IndexError):
                    box.take()
        else:
            assert isinstance(op, int)
            box.put(op)
            model.append(op)
        assert len(box) == len(model)
    assert [box.take() for _ in range(len(box))] == model


async def test_get_waits_for_a_put_and_clear_drops_what_waits() -> None:
    box: Mailbox[str] = Mailbox()
    getter = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not getter.done()
    box.put("a")
    assert await asyncio.wait_for(getter, 1) == "a"
    box.put("b")
    box.put("c")
    box.clear()
    assert len(box) == 0
    box.put("d")
    assert await box.get() == "d"


async def test_a_cancelled_get_leaves_the_mailbox_usable() -> None:
    box: Mailbox[int] = Mailbox()
    getter = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    getter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await getter
    box.put(1)  # no waiter left to wake: must not raise
    assert await asyncio.wait_for(box.get(), 1) == 1


async def test_an_empty_mailbox_takes_far_less_memory_than_an_asyncio_queue() -> None:
    def size(make: object) -> int:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        kept = [make() for _ in range(200)]  # type: ignore[operator]
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert len(kept) == 200
        return (after - before) // 200

    queue, box = size(asyncio.Queue), size(Mailbox)
    assert box * 8 < queue, (box, queue)
