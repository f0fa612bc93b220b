"""`RoomService`: the shell around the room core, as the server sees it.

The server's sockets `join`, send typed commands (`handle`) and `leave`; REST creates and
describes rooms. Every command goes to the pump (`pump.Pump.command`): under the room's lock
it reads the clock once, asks the room core (`room_core.handle`) for a decision, commits it,
has the core apply it (`room_core.committed`) and delivers the outbox (our sockets, the other
instances, the timer, reminders). The other concerns are components of their own, wired here:

- `live.LiveRooms`: the rooms loaded here, and their loading and unloading;
- `attendance.Attendance`: sockets coming and going, presence on every instance, the heartbeat;
- `other_instances.OtherInstances`: the other instances' changes, from the bus;
- `autoplay.Autoplay`: the room's timer (bots, the turn clock, players away, the next hand),
  on the rooms whose lease `driving.Driving` holds for this instance.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from app.platform.bus import Bus, Subscription
from app.platform.settings import Settings
from app.rooms.core.errors import RoomError
from app.rooms.core.match_rules import Fresh
from app.rooms.core.messages import RoomInfo, room_info
from app.rooms.core.model import LiveMatch
from app.rooms.core.notices import Resync, notice_json
from app.rooms.ports import Bots, Clock, Host, Moment, Peer, Storage, SystemClock, moment
from app.rooms.shell.attendance import Attendance
from app.rooms.shell.autoplay import Autoplay
from app.rooms.shell.directory import create_room, public_rooms
from app.rooms.shell.driving import Driving
from app.rooms.shell.live import LiveRoom, LiveRooms, RoomNotFound
from app.rooms.shell.other_instances import OtherInstances
from app.rooms.shell.pump import Pump
from app.rooms.shell.reminder_outbox import Reminding
from app.store.repositories.players import new_id

log = logging.getLogger(__name__)


def _fresh(seed_key: bytes) -> Callable[[], Fresh]:
    return lambda: Fresh(new_id(), secrets.token_hex(16), seed_key)


class RoomService:
    def __init__(self, settings: Settings, storage: Storage, bus: Bus, bots: Bots, *,
                 clock: Clock | None = None, instance_id: str | None = None,
                 fresh: Callable[[], Fresh] | None = None) -> None:
        """`fresh` draws the randomness of new matches and hands (default: `secrets`)."""
        self.settings = settings
        self.storage = storage
        self.bus = bus
        self.bots = bots
        self.clock: Clock = clock or SystemClock()
        self.fresh = fresh or _fresh((settings.seed_secret or secrets.token_hex(32)).encode())
        self.instance = instance_id or secrets.token_hex(8)
        self._heartbeat: asyncio.Task[None] | None = None
        self._closed = False
        # The components; each is told of the others only what it needs.
        self.rooms = LiveRooms(settings, storage, self.clock, follow=self._follow, loaded=self._schedule)
        self.driving = Driving(storage, self.instance, settings.lease_seconds, needs_driver=self._needs_driver,
                               reschedule=self._reschedule, adopt=self._adopt,
                               horizon=settings.deadline_horizon)
        self.reminding = Reminding(settings, storage, changed=self.deadlines_changed)
        self.pump = Pump(settings, storage, bus, self.instance, self.rooms, self.clock, bots, self.reminding,
                         fresh=self.fresh, schedule=self._schedule)
        self.handle = self.pump.command  # a socket's command (RoomError if refused): straight to the pump
        self.attendance = Attendance(settings, storage, self.clock, self.instance, self.rooms, self.pump,
                                     self.driving, draining=lambda: self.draining)
        self.others = OtherInstances(bus, self.instance, storage, self.clock, self.pump,
                                   presence_changed=self.attendance.presence_changed)
        self.autoplay = Autoplay(settings, self.clock, bots, self.driving, self.rooms, self.pump,
                                 fresh=self.fresh)
        self.pump.schedule = self.autoplay.schedule  # the pump re-arms timers without a detour

    @property
    def draining(self) -> bool:
        """The instance is stopping: it refuses new work (the pump keeps the flag)."""
        return self.pump.draining

    # Wiring: what the components are given of each other.
    async def _follow(self, code: str, ready: asyncio.Future[LiveRoom]) -> Subscription:
        return await self.others.follow(code, ready)

    def _schedule(self, room: LiveRoom, at: Moment) -> None:
        self.autoplay.schedule(room, at)

    def _needs_driver(self, code: str) -> bool:
        return self.autoplay.needs_driver(code)

    def _reschedule(self, code: str) -> None:
        self.autoplay.reschedule(code)

    async def _adopt(self, code: str) -> None:
        await self.rooms.live(code)

    # Lifecycle.
    async def start(self) -> None:
        """Adopt the rooms whose driver is gone (their timers and bots resume here), then keep
        presence and leases fresh."""
        await self.bus.start()
        await self.driving.start()
        self._heartbeat = asyncio.get_running_loop().create_task(self.attendance.beat())

    async def drain(self, reason: str = "the server is restarting") -> None:
        """Stop gracefully: refuse new work, let every move in flight commit and be sent, tell
        every socket to reconnect (to another instance behind a proxy), and hand our rooms'
        timers to the other instances. Safe to call more than once."""
        if self.draining:
            return
        self.pump.draining = True
        log.info("draining %d rooms", len(self.rooms))
        for room in self.rooms.all():
            async with room.lock:  # a move in flight holds the lock until it is committed and sent
                self.rooms.unload(room)
                for peer in list(room.peers):
                    peer.reconnect(reason)
        await self.reminding.close()
        await self.storage.close()
        await self.driving.close()
        with contextlib.suppress(Exception):
            await self.storage.forget_instance(self.instance)
        log.info("drained: every move in flight committed, sockets told to reconnect, leases handed over")

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.drain()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        await self.bus.close()
        self.bots.close()

    # Sockets.
    async def live(self, code: str) -> LiveRoom:
        """The live room for `code`, loaded from the store if needed (RoomNotFound if none)."""
        return await self.rooms.live(code)

    def reserve_socket(self, player_id: str, limit: int) -> bool:
        return self.attendance.reserve_socket(player_id, limit)

    def release_socket(self, player_id: str) -> None:
        self.attendance.release_socket(player_id)

    async def join(self, code: str, peer: Peer, last_v: int | None) -> LiveRoom:
        return await self.attendance.join(code, peer, last_v)

    async def leave(self, room: LiveRoom, peer: Peer) -> None:
        await self.attendance.leave(room, peer)

    async def deadlines_changed(self, codes: list[str]) -> None:
        """These rooms' deadlines (or their players' vacations) changed in the store: read them
        again here and on every instance (a Resync makes the others reload)."""
        for code in codes:
            room = self.rooms.get(code)
            if room is not None:
                async with room.lock:
                    if not room.closed:
                        with contextlib.suppress(RoomError):
                            await self.pump.reload(room, moment(self.clock))
            with contextlib.suppress(Exception):
                await self.bus.publish(code, notice_json(Resync(), self.instance))

    # REST.
    async def create_room(self, host: Host, **fields: Any) -> RoomInfo:
        """Create a room hosted by `host` (see `directory.create_room`)."""
        code = await create_room(self.storage, self.settings, host, self.clock.now(), **fields)
        found = await self.describe(code)
        assert found is not None
        return found

    async def describe(self, code: str) -> RoomInfo | None:
        """The room as the protocol shows it, or None if there is no such room."""
        try:
            room = await self.rooms.live(code)
        except RoomNotFound:
            return None
        async with room.lock:
            return room_info(room.room)

    async def public_rooms(self) -> list[RoomInfo]:
        """Public rooms waiting for players, newest first."""
        return await public_rooms(self.storage, self.clock.now())


__all__ = ["LiveMatch", "LiveRoom", "RoomNotFound", "RoomService"]
