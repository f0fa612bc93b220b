"""Following the other instances: what they publish about a room we have loaded (`notices`)
becomes a `Followed` effect that the pump makes true here and shows to our sockets
(`Pump.follow`: the same core function, `room_core.committed`, as our own changes, minus the
commit and the publishing).

A plain move carries its public record and is applied as is; a move that does not follow, a
hand's end, a new match or anything unreadable makes the room read the store (`changes_since`,
or a full reload). Chat lines are only passed on to our sockets.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from app.platform.bus import Bus, Subscription
from app.platform.logctx import about
from app.platform.metrics import BUS_CATCH_UP
from app.rooms.core.effects import Followed, MarkReady
from app.rooms.core.notices import Advanced, ChatSaid, PresenceChanged, ReadyMarked, RoomChanged, notice_from_json
from app.rooms.core.steps import StepRefused
from app.rooms.ports import Clock, Moment, Storage, moment
from app.rooms.shell.live import LiveRoom
from app.rooms.shell.pump import Pump

log = logging.getLogger(__name__)


class OtherInstances:
    """This instance's subscriptions to rooms' changes. `presence_changed(room)`: sockets came
    or went on another instance (the attendance debounces what it shows of it)."""

    def __init__(self, bus: Bus, instance: str, storage: Storage, clock: Clock, pump: Pump, *,
                 presence_changed: Callable[[LiveRoom], None]) -> None:
        self.bus = bus
        self.instance = instance
        self.storage = storage
        self.clock = clock
        self.pump = pump
        self.presence_changed = presence_changed

    async def follow(self, code: str, ready: asyncio.Future[LiveRoom]) -> Subscription:
        """Subscribe to the room's changes; messages wait until `ready` has the live room."""
        return await self.bus.subscribe(code, functools.partial(self._on_message, ready), self.instance)

    async def _on_message(self, ready: asyncio.Future[LiveRoom], msg: dict[str, Any]) -> None:
        room = await ready
        if msg.get("origin") == self.instance or room.closed:
            return
        notice = notice_from_json(msg)
        if isinstance(notice, ChatSaid):
            for p in list(room.peers):
                p.send_chat(notice.sender, notice.text, notice.at)
            return
        async with room.lock:
            if room.closed:
                return
            at = moment(self.clock)
            m = room.room.match
            if isinstance(notice, ReadyMarked):
                if m is not None and m.id == notice.match and m.v == notice.v and m.next_deadline is not None:
                    self.pump.follow(room, MarkReady(notice.match, notice.v, notice.seat), at)
                return
            about(room.code, m.id if m else None)
            if isinstance(notice, Advanced):
                how = await self._catch_up(room, notice, at)
                if how is not None:
                    BUS_CATCH_UP.labels(how).inc()
                    return
            elif isinstance(notice, PresenceChanged):
                self.presence_changed(room)
                return
            elif isinstance(notice, RoomChanged) and await self._refresh_room(room, at):
                return
            BUS_CATCH_UP.labels("reload").inc()
            await self.pump.reload(room, at)

    async def _catch_up(self, room: LiveRoom, notice: Advanced, at: Moment) -> str | None:
        """Bring the match to the announced version: from the notice's own move if it is the
        next step, else from the store; None if a full reload is needed instead."""
        m = room.room.match
        if m is None or notice.match != m.id:
            return None
        if notice.move is not None and not notice.room and notice.v == m.v + 1:
            try:
                self.pump.follow(room, Followed([notice.move], notice.deadline), at)
                return "bus"
            except StepRefused:
                log.warning("a move from the bus does not apply to room %s; reading the store", room.code)
        if notice.v <= m.v:
            self.pump.follow(room, Followed(room_changed=notice.room), at)
            return "store"
        changes = await self.storage.changes_since(room.code, m.id, m.v)
        try:
            self.pump.follow(room, Followed(changes.steps, changes.deadline, changes.room, awards=changes.awards,
                                            read_awards=True, room_changed=notice.room), at)
        except StepRefused:
            log.exception("stored changes of match %s do not apply here; reloading", m.id)
            return None
        return "store"

    async def _refresh_room(self, room: LiveRoom, at: Moment) -> bool:
        """Re-read the room row and presence (the lobby or who is here changed elsewhere);
        False if the room now points at another match (then a full reload is needed)."""
        r = room.room
        state = await self.storage.room_state(room.code)
        if state is None or state.match_id != (r.match.id if r.match else None):
            return False
        self.pump.follow(room, Followed(state=state, presence=await self.storage.room_presence(room.code),
                                        room_changed=True), at)
        return True
