"""Rooms loaded on this instance: `LiveRoom`, a core `Room` with the I/O kept beside it, and
`LiveRooms`, the cache that loads a room once however many callers ask at the same moment,
and unloads it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from app.platform.bus import Subscription
from app.platform.metrics import ROOMS_LOADED
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.config import normal_code
from app.rooms.core.errors import RoomError
from app.rooms.core.match_rules import arm_next_hand
from app.rooms.core.model import Room
from app.rooms.core.timers import AtTable
from app.rooms.ports import Clock, Moment, Peer, Storage, moment
from app.rooms.shell.fanout import Pushed


class RoomNotFound(LookupError):
    """No room has that code."""


class LiveRoom:
    """A room loaded here: the core's `room` (what is decided on and shown) plus its lock, its
    sockets, its tasks and its subscription to the other instances' changes."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.code = room.code
        self.lock = asyncio.Lock()  # every change to `room` is made under it, so no socket sees a step uncommitted
        self.peers: set[Peer] = set()
        self.timer: asyncio.Task[None] | None = None  # the room's one timer (`autoplay`)
        self.presence_flush: asyncio.Task[None] | None = None  # a pending "who is here" update (`attendance`)
        self.shown: AtTable | None = None  # who is at the table, as the views last sent showed it
        self.pushed: Pushed | None = None  # the table last pushed to the sockets (`fanout`: delta frames)
        self.subscription: Subscription | None = None
        self.closed = False
        self.stale = False  # a store failure left memory possibly behind: read the store first


def unavailable(move_id: str | None = None) -> RoomError:
    return RoomError(E.UNAVAILABLE, "the server cannot reach its database just now; try again shortly",
                     move_id=move_id, reason="database_away")


Follow = Callable[[str, "asyncio.Future[LiveRoom]"], Awaitable[Subscription]]


class LiveRooms:
    """The rooms loaded on this instance, by code. `follow(code, ready)` subscribes to the
    other instances' changes of a room (messages wait for `ready`); `loaded(room, at)` is told
    of each room once it is in memory (the shell arms its timer)."""

    def __init__(self, settings: Settings, storage: Storage, clock: Clock, *, follow: Follow,
                 loaded: Callable[[LiveRoom, Moment], None]) -> None:
        self.settings = settings
        self.storage = storage
        self.clock = clock
        self.follow = follow
        self.loaded = loaded
        self.by_code: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    def get(self, code: str) -> LiveRoom | None:
        return self.by_code.get(code)

    def all(self) -> list[LiveRoom]:
        return list(self.by_code.values())

    def __len__(self) -> int:
        return len(self.by_code)

    async def live(self, code: str) -> LiveRoom:
        """The live room for `code`, loaded from the store if needed (RoomNotFound if none)."""
        normal = normal_code(code)
        if normal is None:
            raise RoomNotFound(code)
        code = normal
        room = self.by_code.get(code)
        if room is not None:
            return room
        lock = self._loading.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                room = self.by_code.get(code)
                if room is not None:
                    return room
                return await self._load(code)
        finally:
            if not lock.locked():
                self._loading.pop(code, None)

    async def _load(self, code: str) -> LiveRoom:
        # Subscribe first, then read the store: a change committed after our read is announced
        # after we listen. Messages wait until the room is in memory.
        ready: asyncio.Future[LiveRoom] = asyncio.get_running_loop().create_future()
        sub = await self.follow(code, ready)
        try:
            try:
                found = await self.storage.load(code)
                if found is not None:
                    presence = await self.storage.room_presence(code)
            except Exception as e:
                raise unavailable() from e
            if found is None:
                raise RoomNotFound(code)
            at = moment(self.clock)
            room = LiveRoom(Room(found.state, found.match, loaded_at=at.now, host_name=found.host_name))
            room.room.changed_at = at.mono
            room.room.presence = presence
            room.room.vacations = dict(found.vacations or {})
            if found.match is not None:
                arm_next_hand(found.match, at.now, self.settings.next_hand_seconds)
        except BaseException:
            sub.close()
            raise
        existing = self.by_code.get(code)
        if existing is not None:  # loaded meanwhile by a caller holding a newer lock
            sub.close()
            return existing
        room.subscription = sub
        ready.set_result(room)
        self.by_code[code] = room
        ROOMS_LOADED.inc()
        self.loaded(room, at)
        return room

    def unload(self, room: LiveRoom) -> None:
        """Forget the room here: its tasks stop and its subscription ends."""
        room.closed = True
        tasks: list[Any] = [room.timer, room.presence_flush]
        for task in tasks:
            if task is not None:
                task.cancel()
        if room.subscription is not None:
            room.subscription.close()
        if self.by_code.get(room.code) is room:
            del self.by_code[room.code]
            ROOMS_LOADED.dec()
