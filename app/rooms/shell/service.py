"""`RoomService`: the shell around the room core, as the server sees it.

The server's sockets `join`, send typed commands (`handle`) and `leave`; REST creates and
describes rooms. For every command the shell reads the clock once, asks the core (`lobby`,
`match_rules`: pure functions of the room, the command and the time) for a decision, and hands
the decision to the one executor (`executor.Executor.carry_out`: commit -> apply -> fan out ->
publish -> schedule), under the room's lock. The other concerns are components of their own,
wired here:

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

from app.platform import move_trace
from app.platform.bus import Bus, Subscription
from app.platform.logctx import about
from app.platform.settings import Settings
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.effects import ChangeRoom
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor, decide_chat, decide_lobby
from app.rooms.core.match_rules import AlreadyMade, Fresh, decide_hint, decide_move, decide_next_hand, decide_start
from app.rooms.core.messages import RoomInfo, room_info
from app.rooms.core.model import LiveMatch
from app.rooms.core.notices import Resync, notice_json
from app.rooms.core.pace import TURN_BASED, over_cap
from app.rooms.core.rematch import decide_rematch
from app.rooms.ports import Bots, Clock, Moment, Peer, Storage, SystemClock, moment
from app.rooms.shell.attendance import Attendance
from app.rooms.shell.autoplay import Autoplay
from app.rooms.shell.directory import create_room, public_rooms
from app.rooms.shell.driving import Driving
from app.rooms.shell.executor import Executor
from app.rooms.shell.fanout import push_room
from app.rooms.shell.live import LiveRoom, LiveRooms, RoomNotFound
from app.rooms.shell.other_instances import OtherInstances
from app.rooms.shell.reminder_outbox import Reminding
from app.store.repositories.players import new_id
from app.store.tables import Player

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
        self.draining = False
        self._heartbeat: asyncio.Task[None] | None = None
        self._closed = False
        # The components; each is told of the others only what it needs.
        self.rooms = LiveRooms(settings, storage, self.clock, follow=self._follow, loaded=self._schedule)
        self.driving = Driving(storage, self.instance, settings.lease_seconds, needs_driver=self._needs_driver,
                               reschedule=self._reschedule, adopt=self._adopt,
                               horizon=settings.deadline_horizon)
        self.reminding = Reminding(settings, storage, changed=self.deadlines_changed)
        self.executor = Executor(settings, storage, bus, self.instance, self.rooms, schedule=self._schedule,
                                 after=self.reminding.after)
        self.attendance = Attendance(settings, storage, self.clock, self.instance, self.rooms, self.executor,
                                     self.driving, draining=lambda: self.draining)
        self.others = OtherInstances(bus, self.instance, storage, self.clock, self.executor,
                                   presence_changed=self.attendance.presence_changed)
        self.autoplay = Autoplay(settings, self.clock, bots, self.driving, self.rooms, self.executor,
                                 fresh=self.fresh)

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
        self.draining = True
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

    # Commands.
    async def handle(self, room: LiveRoom, peer: Peer, cmd: C.Command) -> None:
        """Carry out one command from a socket (RoomError if refused: nothing changed)."""
        r = room.room
        about(room.code, r.match.id if r.match else None)
        if self.draining:
            move_id = cmd.id if isinstance(cmd, C.MakeMove) else None
            raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect", move_id=move_id,
                            reason="restarting")
        who = Actor(peer.player_id, peer.name, peer.account, getattr(peer, "avoid", frozenset()))
        if isinstance(cmd, C.Chat):  # changes no room: no lock
            at = moment(self.clock)
            await self.executor.carry_out(room, decide_chat(r, who, cmd.text, at.now, self.settings), at)
            return
        if isinstance(cmd, C.Hint):
            await self._hint(room, peer, who)
            return
        async with room.lock:
            if room.closed:
                raise RoomError(E.UNAVAILABLE, "the room was closed; reconnect", reason="room_closed")
            at = moment(self.clock)
            if room.stale:
                await self.executor.reload(room, at)
            r = room.room
            match cmd:
                case C.Sit() | C.Stand() | C.AddBot() | C.RemoveBot() | C.FreeSeat() | C.RemovePlayer() | C.Configure():
                    await self._change_lobby(room, who, cmd, at)
                case C.Start():
                    begin = decide_start(r, who, rematch=False, now=at.now, fresh=self.fresh(), settings=self.settings)
                    await self.executor.carry_out(room, begin, at)
                case C.Rematch(accept=accept):
                    await self._rematch(room, who, accept, at)
                case C.NextHand():
                    await self.executor.carry_out(room, decide_next_hand(r, who, at.now, self.fresh(),
                                                                                  self.settings.missed_turns), at)
                case C.MakeMove(move=move, id=move_id):
                    move_trace.mark("locked")
                    decided = decide_move(r, who, move, move_id, at.now, self.settings.missed_turns)
                    move_trace.mark("decided")
                    if isinstance(decided, AlreadyMade):
                        self.executor.send_state(room, peer, at)  # already applied: the table as it is now
                    else:
                        await self.executor.carry_out(room, decided, at, by=peer)

    async def _change_lobby(self, room: LiveRoom, who: Actor, cmd: C.LobbyCommand, at: Moment) -> None:
        """Write the lobby change the core decides, deciding again on a fresh copy of the room
        if another writer got there first."""
        r = room.room
        if isinstance(cmd, C.Sit) and r.state.pace == TURN_BASED and r.lobby_seat(who.player_id) is None:
            refused = over_cap(await self.storage.turn_based_count(who.player_id), self.settings.max_turn_based)
            if refused:
                raise RoomError(E.RATE_LIMITED, refused, reason="turn_based_cap",
                                params={"n": self.settings.max_turn_based})
        for _ in range(3):
            patch = decide_lobby(room.room, who, cmd, at.now, self.settings)
            if patch is None:
                push_room(room.room, room.peers)
                return
            if await self.executor.carry_out(room, ChangeRoom(patch, room.room.state.rev), at):
                if isinstance(cmd, C.AddBot):
                    self.bots.prepare()
                return
        raise RoomError(E.CONFLICT, "the room is changing fast; try again", reason="room_busy")

    async def _rematch(self, room: LiveRoom, who: Actor, accept: bool, at: Moment) -> None:
        """Offer, accept or decline a rematch; an answer another writer beat is decided again."""
        for _ in range(3):
            answer = decide_rematch(room.room, who, accept, now=at.now, fresh=self.fresh(), settings=self.settings)
            if await self.executor.carry_out(room, answer, at):
                return
        raise RoomError(E.CONFLICT, "the room is changing fast; try again", reason="room_busy")

    async def _hint(self, room: LiveRoom, peer: Peer, who: Actor) -> None:
        """Suggest a move to the player whose turn it is (if the room allows hints)."""
        async with room.lock:
            ask = decide_hint(room.room, who)
        try:
            move, reason = await self.bots.hint(ask.view, self.settings.hint_level)
        except Exception as e:
            log.exception("hint failed")
            raise RoomError(E.UNAVAILABLE, "no hint is available right now", reason="no_hint") from e
        peer.send_hint(ask.v, move, reason)

    async def deadlines_changed(self, codes: list[str]) -> None:
        """These rooms' deadlines (or their players' vacations) changed in the store: read them
        again here and on every instance (a Resync makes the others reload)."""
        for code in codes:
            room = self.rooms.get(code)
            if room is not None:
                async with room.lock:
                    if not room.closed:
                        with contextlib.suppress(RoomError):
                            await self.executor.reload(room, moment(self.clock))
            with contextlib.suppress(Exception):
                await self.bus.publish(code, notice_json(Resync(), self.instance))

    # REST.
    async def create_room(self, host: Player, **fields: Any) -> RoomInfo:
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
