"""Chat rates: a chat line is shown to every socket of its room, so it is the dearest message a
stranger can send. Past the socket's own rate, each player (over all their sockets) may send
`SPITE_CHAT_PER_SECOND` lines a second (burst `SPITE_CHAT_BURST`), and each room takes
`SPITE_ROOM_CHAT_PER_SECOND` (burst `SPITE_ROOM_CHAT_BURST`) from everyone together; a line past
either is refused with `rate_limited` and shown to nobody. Counted in this instance's memory."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

from app.platform.settings import Settings
from app.web.http.ratelimit import TokenBucket

IDLE_SECONDS = 600.0  # a bucket untouched this long is full again: forget it


def _number(x: float) -> float | int:
    """1.0 as 1: a whole number takes the plural form of its count ("1 line", not "1.0 lines")."""
    return int(x) if x.is_integer() else x


class ChatRefusal(NamedTuple):
    """Why a line is refused: the English, and its reason key and params (the catalogues')."""

    english: str
    reason: str
    params: dict[str, Any]


class ChatLimits:
    """The players' and the rooms' chat buckets, on `clock` (seconds, monotonic)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.players: dict[str, TokenBucket] = {}
        self.rooms: dict[str, TokenBucket] = {}
        self.swept = clock()

    def take(self, player_id: str, room: str) -> ChatRefusal | None:
        """None if the line may go out, else why not."""
        s = self.settings
        now = self.clock()
        if now - self.swept > IDLE_SECONDS:
            self._sweep(now)
        mine = self.players.setdefault(player_id, TokenBucket(s.chat_per_second, s.chat_burst, self.clock))
        theirs = self.rooms.setdefault(room, TokenBucket(s.room_chat_per_second, s.room_chat_burst, self.clock))
        if not mine.peek():
            return ChatRefusal(f"slow down: at most {s.chat_per_second:g} chat lines a second",
                               reason="chat_slow_down", params={"n": _number(s.chat_per_second)})
        if not theirs.take():
            return ChatRefusal("this room's chat is busy: wait a moment", reason="chat_busy", params={})
        mine.take()
        return None

    def _sweep(self, now: float) -> None:
        for table in (self.players, self.rooms):
            for key in [k for k, b in table.items() if now - b.stamp > IDLE_SECONDS]:
                del table[key]
        self.swept = now
