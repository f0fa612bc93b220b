"""A small least-recently-used memory, for what is built from something that never changes (a
finished match's record, the table at one of its versions, an analysis board's answer) and can
be given again without rebuilding it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


class Lru:
    """At most `size` items; reading or writing one makes it the newest, the oldest goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: Any, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)
