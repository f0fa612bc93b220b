"""A mailbox: the lean one-consumer queue that each socket's sender task and each bus
subscription drains.

`asyncio.Queue` keeps three deques and an `Event` (a fourth) from birth, about 2.5 KiB before its
first message, and a connected player had four of them (docs/performance.md, "Memory"). A
mailbox holds a list and, only while its consumer waits, one future. Unbounded: callers check
`len()` against their own limit before `put`.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")

_COMPACT = 64  # taken items kept at the list's head before it is compacted


class Mailbox(Generic[T]):
    """FIFO for one consumer (`get`) and any number of producers (`put`, never blocking)."""

    __slots__ = ("_items", "_head", "_waiter")

    def __init__(self) -> None:
        self._items: list[T | None] = []
        self._head = 0  # index of the oldest item not yet taken
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items) - self._head

    def put(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        """Drop every item not yet taken."""
        self._items.clear()
        self._head = 0

    def take(self) -> T:
        """The oldest item, now (IndexError when there is none)."""
        if self._head >= len(self._items):
            raise IndexError("the mailbox is empty")
        item = self._items[self._head]
        self._items[self._head] = None  # the list no longer keeps it alive
        self._head += 1
        if self._head == len(self._items):
            self._items.clear()
            self._head = 0
        elif self._head >= _COMPACT and self._head * 2 >= len(self._items):
            del self._items[:self._head]
            self._head = 0
        return item  # type: ignore[return-value]  # a slot before the head always holds an item

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none."""
        while not len(self):
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        return self.take()
