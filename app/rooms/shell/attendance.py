"""Attendance: sockets coming and going, and who is present in each room on every instance.

A socket `join`s a room (counted in the store's presence, so every instance knows who is
connected) and `leave`s it; this instance also counts each player's open sockets, whatever
room they are in (`reserve_socket`). What others see of comings and goings is debounced: once a
room has been quiet for `presence_debounce` seconds the room object goes out, and the views
only if a seat's connected flag or the stand-ins changed. A heartbeat keeps this instance's
presence rows fresh, picks up other instances' changes, and unloads rooms nobody here needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable

from app.domain.records import Seen
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.daily_room import check_watch, today
from app.rooms.core.errors import RoomError
from app.rooms.core.handlog import hand_log
from app.rooms.core.messages import room_info
from app.rooms.core.notices import PresenceChanged
from app.rooms.core.timers import at_table
from app.rooms.ports import Clock, Moment, Peer, Storage, moment
from app.rooms.shell.driving import Driving
from app.rooms.shell.live import LiveRoom, LiveRooms, unavailable
from app.rooms.shell.pump import Pump

log = logging.getLogger(__name__)


class Attendance:
    """Sockets and presence on this instance. `draining()`: is the instance shutting down?"""

    def __init__(self, settings: Settings, storage: Storage, clock: Clock, instance: str, rooms: LiveRooms,
                 pump: Pump, driving: Driving, *, draining: Callable[[], bool]) -> None:
        self.settings = settings
        self.storage = storage
        self.clock = clock
        self.instance = instance
        self.rooms = rooms
        self.pump = pump
        self.driving = driving
        self.draining = draining
        self.sockets: Counter[str] = Counter()

    # Each player's sockets on this instance, in any room.
    def reserve_socket(self, player_id: str, limit: int) -> bool:
        """Count one more socket of this player on this instance, if fewer than `limit` are
        open (checked and counted at once: sockets opened together cannot all slip in)."""
        if self.sockets[player_id] >= limit:
            return False
        self.sockets[player_id] += 1
        return True

    def release_socket(self, player_id: str) -> None:
        self.sockets[player_id] -= 1
        if self.sockets[player_id] <= 0:
            del self.sockets[player_id]

    # A room's sockets.
    async def join(self, code: str, peer: Peer, last_v: int | None) -> LiveRoom:
        """Attach a socket to a room; it receives welcome, room and (once playing) the state."""
        for _ in range(3):
            if self.draining():
                raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect", reason="restarting")
            room = await self.rooms.live(code)
            try:
                await self.storage.add_socket(room.code, peer.player_id, self.instance)
                chat = await self.storage.recent_chat(room.code, self.settings.chat_history)
            except Exception as e:
                raise unavailable() from e
            async with room.lock:
                if room.closed:
                    await self.storage.drop_socket(room.code, peer.player_id, self.instance)
                    continue
                r = room.room
                try:  # a daily deal's room: no watchers while its day lasts
                    check_watch(r.state, r.view_seat(peer.player_id), today(self.clock.now(), self.settings.daily_day))
                except RoomError:
                    await self.storage.drop_socket(room.code, peer.player_id, self.instance)
                    raise
                if r.view_seat(peer.player_id) is None and self._watchers(room) >= self.settings.max_watchers_per_room:
                    await self.storage.drop_socket(room.code, peer.player_id, self.instance)
                    raise RoomError(E.ROOM_FULL, "this room has as many watchers as it takes; try again later",
                                    reason="watchers_full")
                room.peers.add(peer)
                r.attach(peer.player_id, peer.name)
                m = r.match
                peer.sent_v = last_v if m is not None and last_v is not None and 0 <= last_v <= m.v else None
                info = room_info(r)
                peer.send_welcome(r.lobby_seat(peer.player_id), peer.player_id == r.state.host_id, info)
                peer.send_room(info)
                self.pump.send_state(room, peer, moment(self.clock))
                if m is not None and (hand := hand_log(m, m.seat_of(peer.player_id))) is not None:
                    peer.send_log(hand)
                peer.send_chat_history(chat)
            self.presence_changed(room)  # the others hear of it once, with whoever else came or went
            return room
        raise RoomError(E.UNAVAILABLE, "the room is busy; try again", reason="room_busy")

    @staticmethod
    def _watchers(room: LiveRoom) -> int:
        """Sockets here of people without a seat in the room (SPITE_MAX_WATCHERS_PER_ROOM)."""
        return sum(1 for p in room.peers if room.room.view_seat(p.player_id) is None)

    async def leave(self, room: LiveRoom, peer: Peer) -> None:
        if peer not in room.peers:
            return
        room.peers.discard(peer)
        room.room.detach(peer.player_id)
        with contextlib.suppress(Exception):
            await self.storage.drop_socket(room.code, peer.player_id, self.instance)
        if not room.closed:
            self.presence_changed(room)

    def presence_changed(self, room: LiveRoom) -> None:
        """Sockets joined or left (here, or on another instance): show it once the room has
        been quiet for `presence_debounce` seconds, so churn costs the others one update."""
        if room.presence_flush is None or room.presence_flush.done():
            room.presence_flush = asyncio.get_running_loop().create_task(self._flush(room))

    async def _flush(self, room: LiveRoom) -> None:
        await self.clock.sleep(self.settings.presence_debounce)
        room.presence_flush = None  # joins from now on start another round
        try:
            async with room.lock:
                if room.closed:
                    return
                room.room.presence = await self.storage.room_presence(room.code)
                # The room object (who is connected, how many watch) goes out every round; the
                # views only when a seat's connected flag or the stand-ins differ from what
                # they last showed.
                at = moment(self.clock)
                seen = at_table(room.room, at.now, self.settings.absent_grace, self.settings.missed_turns)
                self.pump.show(room, at, room_changed=True, table=seen != room.shown, seen=seen)
                self.pump.schedule(room, at)
            if room.room.take_here_changed():
                await self.pump.publish(room, PresenceChanged())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not show who is in room %s", room.code)

    # The heartbeat.
    async def beat(self) -> None:
        """Forever: keep this instance's presence fresh, show other instances' comings and
        goings, and unload the rooms nobody here needs."""
        beats = 0
        while True:
            await self.clock.sleep(self.settings.heartbeat_seconds)
            beats += 1
            try:
                rooms = self.rooms.all()
                await self.storage.heartbeat(self.instance, prune=beats % 360 == 0)
                seen = await self.storage.rooms_presence([r.code for r in rooms])
                for room in rooms:
                    async with room.lock:
                        if room.closed:
                            continue
                        at = moment(self.clock)
                        if self._set_presence(room, seen.get(room.code, {}), at):
                            self.pump.show(room, at, room_changed=True)
                            self.pump.schedule(room, at)
                        if not room.peers and not self.driving.keeps(room.code):
                            self.rooms.unload(room)  # nobody here, and another instance (or none) drives it
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence heartbeat failed")

    def _set_presence(self, room: LiveRoom, seen: dict[str, Seen], at: Moment) -> bool:
        """Adopt the store's presence; True if what the views show of it changed."""
        grace = self.settings.absent_grace
        before = at_table(room.room, at.now, grace, self.settings.missed_turns)
        room.room.presence = seen
        return at_table(room.room, at.now, grace, self.settings.missed_turns) != before
