"""`RoomService`: the live rooms of this instance, and every entry point the server calls.

The REST routers create and describe rooms; the socket endpoint attaches a `Peer` with
`join`, forwards each typed request to the matching method, and `leave`s. Every method that
touches a room runs under that room's lock. After a committed change the service pushes
views to its own sockets and publishes on the bus; other instances catch up from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import Counter
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bus import Bus, Subscription
from app.engine import view
from app.settings import Settings
from app.store import leases as lease_store
from app.store import players as player_store
from app.store import presence as presence_store
from app.store.models import Player, utcnow
from app.store.writer import MoveWriter

from . import directory, driver, fanout, loader, lobby, play, sync
from . import errors as E
from .config import normal_code
from .errors import RoomError
from .leases import Driving
from .live import LiveRoom, Peer
from .logctx import about
from .metrics import ROOMS_LOADED
from .pool import BotPool

log = logging.getLogger(__name__)


class RoomNotFound(LookupError):
    """No room has that code."""


RESTART = 1012  # protocol.md: the server is restarting; reconnect


class RoomService:
    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], bus: Bus,
                 pool: BotPool | None = None, instance_id: str | None = None,
                 writer: MoveWriter | None = None) -> None:
        self.settings = settings
        self.sessions = sessions
        self.bus = bus
        self.pool = pool or BotPool(settings.bot_workers, think_ms=settings.bot_think_ms)
        self.instance = instance_id or secrets.token_hex(8)
        self.writer = writer or MoveWriter(sessions.kw["bind"])
        self.driving = Driving(self)
        self.rooms: dict[str, LiveRoom] = {}
        self.sockets: Counter[str] = Counter()
        self.draining = False
        self._loading: dict[str, asyncio.Lock] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self._closed = False

    # Lifecycle.
    async def start(self) -> None:
        """Adopt the rooms whose driver is gone (their timers and bots resume here), then keep
        presence and leases fresh."""
        await self.bus.start()
        await self.driving.start()
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def drain(self, reason: str = "the server is restarting") -> None:
        """Stop gracefully: refuse new work, let every move in flight commit and be sent, tell
        every socket to reconnect (close code 1012, to another instance behind a proxy), and
        hand our rooms' timers to the other instances. Safe to call more than once."""
        if self.draining:
            return
        self.draining = True
        log.info("draining %d rooms", len(self.rooms))
        for room in list(self.rooms.values()):
            async with room.lock:  # a move in flight holds the lock until it is committed and sent
                self._unload(room)
                for peer in list(room.peers):
                    peer.close(RESTART, reason)
        await self.writer.close()
        await self.driving.close()
        with contextlib.suppress(Exception):
            async with self.sessions() as s:
                await presence_store.forget_instance(s, self.instance)
        log.info("drained: every move in flight committed, sockets told to reconnect, leases handed over")

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.drain()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        await self.bus.close()
        self.pool.close()

    async def _beat(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            beats += 1
            try:
                rooms = list(self.rooms.values())
                async with self.sessions() as s:
                    await presence_store.heartbeat(s, self.instance)
                    if beats % 360 == 0:
                        await presence_store.prune(s, utcnow() - timedelta(days=1))
                        await lease_store.forget_finished(s)
                    seen = await presence_store.rooms_presence(s, [r.code for r in rooms],
                                                               self.settings.presence_ttl)
                for room in rooms:
                    async with room.lock:
                        if room.closed:
                            continue
                        if self._set_presence(room, seen.get(room.code, {})):
                            fanout.push_room(room)
                            self.send_states(room)
                            driver.schedule(self, room)
                        if not room.peers and not self.driving.keeps(room.code):
                            self._unload(room)  # nobody here, and another instance (or none) drives it
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence heartbeat failed")

    # Loading and reloading.
    async def live(self, code: str) -> LiveRoom:
        """The live room for `code`, loaded from the store if needed (RoomNotFound if none)."""
        code = normal_code(code)
        room = self.rooms.get(code)
        if room is not None:
            return room
        lock = self._loading.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(code)
                if room is not None:
                    return room
                # Subscribe first, then read the store: a change committed after our read is
                # announced after we listen. Messages wait until the room is in memory.
                ready: asyncio.Future[LiveRoom] = asyncio.get_running_loop().create_future()
                sub = await self.bus.subscribe(code, functools.partial(self._on_bus, ready), self.instance)
                try:
                    async with self.sessions() as s:
                        found = await loader.load(s, code)
                        if found is None:
                            raise RoomNotFound(code)
                        host = found[0].host_id
                        host_name = (await player_store.names(s, [host])).get(host)
                    room = LiveRoom(*found)
                    room.host_name = host_name
                    await self._refresh_presence(room)
                except BaseException:
                    sub.close()
                    raise
                existing = self.rooms.get(code)
                if existing is not None:  # loaded meanwhile by a caller holding a newer lock
                    sub.close()
                    return existing
                room.subscription = sub
                ready.set_result(room)
                self.rooms[code] = room
                ROOMS_LOADED.inc()
                driver.schedule(self, room)
                return room
        finally:
            if not lock.locked():
                self._loading.pop(code, None)

    def _unload(self, room: LiveRoom) -> None:
        room.closed = True
        if room.timer is not None:
            room.timer.cancel()
        sub: Subscription | None = room.subscription
        if sub is not None:
            sub.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            ROOMS_LOADED.dec()

    async def reload(self, room: LiveRoom) -> None:
        """Replace the room's memory with the store's truth and show it to everyone."""
        try:
            async with self.sessions() as s:
                found = await loader.load(s, room.code)
        except Exception as e:
            # Memory may hold a change the store refused: drop the room; sockets reconnect.
            log.exception("could not reload room %s; closing it", room.code)
            self._unload(room)
            for peer in list(room.peers):
                peer.close(RESTART, "the room is reloading; reconnect")
            raise RoomError(E.UNAVAILABLE, "the server could not reach its database; reconnect") from e
        if found is None:
            self._unload(room)
            return
        old = room.match.id if room.match else None
        room.state, room.match = found
        if room.match is None or room.match.id != old:
            for p in room.peers:
                p.sent_v = None
        await self._refresh_presence(room)
        fanout.push_room(room)
        self.send_states(room)
        driver.schedule(self, room)

    async def _refresh_presence(self, room: LiveRoom) -> bool:
        """Re-read who is connected; True if any seat's connected flag changed."""
        async with self.sessions() as s:
            seen = await presence_store.room_presence(s, room.code, self.settings.presence_ttl)
        return self._set_presence(room, seen)

    def _set_presence(self, room: LiveRoom, seen: dict[str, presence_store.Seen]) -> bool:
        grace = self.settings.absent_grace
        before = (room.connected(room.state.seating), fanout.absent_seats(room, grace), room.anyone_here())
        room.presence = seen
        after = (room.connected(room.state.seating), fanout.absent_seats(room, grace), room.anyone_here())
        return before != after

    # Fan-out.
    def push_room(self, room: LiveRoom) -> None:
        fanout.push_room(room)

    def send_states(self, room: LiveRoom) -> None:
        fanout.push_state(room, self.settings.absent_grace)

    def send_state(self, room: LiveRoom, peer: Peer) -> None:
        fanout.send_state(room, peer, self.settings.absent_grace)

    async def publish(self, room: LiveRoom, message: dict[str, Any]) -> None:
        try:
            await self.bus.publish(room.code, {**message, "origin": self.instance})
        except Exception:  # the change is committed; other instances catch up on the next message
            log.exception("could not publish to room %s", room.code)

    async def after_change(self, room: LiveRoom, *, room_changed: bool = False, state_changed: bool = True,
                           move: dict[str, Any] | None = None) -> None:
        """A change is committed: tell our sockets, the other instances, and re-arm the timer.
        `move` (a plain move's public record, see `sync.apply_move`) lets the other instances
        apply it without reading the store."""
        room.changed_at = time.monotonic()
        if room_changed:
            fanout.push_room(room)
        if state_changed:
            self.send_states(room)
        driver.schedule(self, room)
        m = room.match
        if state_changed and m is not None:
            message: dict[str, Any] = {"kind": "v", "match": m.id, "v": m.game.v, "room": room_changed}
            if move is not None:
                message["move"] = move
            await self.publish(room, message)
        else:
            await self.publish(room, {"kind": "room"})

    async def _on_bus(self, ready: asyncio.Future[LiveRoom], msg: dict[str, Any]) -> None:
        room = await ready
        if msg.get("origin") == self.instance or room.closed:
            return
        await sync.on_message(self, room, msg)

    # REST.
    async def create_room(self, host: Player, **fields: Any) -> dict[str, Any]:
        """Create a room hosted by `host` (see `directory.create_room`)."""
        code = await directory.create_room(self, host, **fields)
        found = await self.describe(code)
        assert found is not None
        return found

    async def describe(self, code: str) -> dict[str, Any] | None:
        """The room as the protocol shows it, or None if there is no such room."""
        try:
            room = await self.live(code)
        except RoomNotFound:
            return None
        async with room.lock:
            return fanout.room_json(room)

    async def public_rooms(self) -> list[dict[str, Any]]:
        """Public rooms waiting for players, newest first."""
        return await directory.public_rooms(self)

    # Sockets.
    async def join(self, code: str, peer: Peer, last_v: int | None) -> LiveRoom:
        """Attach a socket to a room; it receives welcome, room and (once playing) the state."""
        for _ in range(3):
            if self.draining:
                raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect")
            room = await self.live(code)
            async with self.sessions() as s:
                await presence_store.add_socket(s, room.code, peer.player_id, self.instance)
            async with room.lock:
                if room.closed:
                    async with self.sessions() as s:
                        await presence_store.drop_socket(s, room.code, peer.player_id, self.instance)
                    continue
                room.attach(peer)
                self.sockets[peer.player_id] += 1
                await self._refresh_presence(room)
                m = room.match
                peer.sent_v = last_v if m is not None and last_v is not None and 0 <= last_v <= m.game.v else None
                peer.send_welcome(room.lobby_seat(peer.player_id), peer.player_id == room.state.host_id,
                                  fanout.room_json(room))
                fanout.push_room(room)
                self.send_states(room)
                driver.schedule(self, room)
            await self.publish(room, {"kind": "room"})
            return room
        raise RoomError(E.UNAVAILABLE, "the room is busy; try again")

    async def leave(self, room: LiveRoom, peer: Peer) -> None:
        if not room.detach(peer):
            return
        self.sockets[peer.player_id] -= 1
        if self.sockets[peer.player_id] <= 0:
            del self.sockets[peer.player_id]
        with contextlib.suppress(Exception):
            async with self.sessions() as s:
                await presence_store.drop_socket(s, room.code, peer.player_id, self.instance)
        if room.closed:
            return
        async with room.lock:
            await self._refresh_presence(room)
            fanout.push_room(room)
            self.send_states(room)
            driver.schedule(self, room)
        await self.publish(room, {"kind": "room"})

    async def request(self, room: LiveRoom, peer: Peer, kind: str, data: dict[str, Any]) -> None:
        """Carry out one typed request from a socket (RoomError if refused: nothing changed)."""
        about(room.code, room.match.id if room.match else None)
        if self.draining:
            raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect", move_id=data.get("id"))
        if kind == "chat":
            await lobby.chat(self, room, peer, str(data.get("text", "")))
            return
        if kind == "hint":
            await self.hint(room, peer)
            return
        async with room.lock:
            if room.closed:
                raise RoomError(E.UNAVAILABLE, "the room was closed; reconnect")
            if kind == "sit":
                await lobby.sit(self, room, peer, data.get("seat"))
            elif kind == "stand":
                await lobby.stand(self, room, peer)
            elif kind == "add_bot":
                await lobby.add_bot(self, room, peer, data.get("seat"), str(data.get("level") or "easy"))
            elif kind == "remove_bot":
                await lobby.remove_bot(self, room, peer, int(data["seat"]))
            elif kind == "configure":
                await lobby.configure(self, room, peer, data)
            elif kind == "start":
                await play.start(self, room, peer, rematch=False)
            elif kind == "rematch":
                await play.start(self, room, peer, rematch=True)
            elif kind == "next_hand":
                await play.next_hand(self, room, peer)
            elif kind == "move":
                await play.move(self, room, peer, data.get("id"), data.get("move"))
            else:
                raise RoomError(E.BAD_MESSAGE, f"unknown request {kind!r}")

    async def hint(self, room: LiveRoom, peer: Peer) -> None:
        """Suggest a move to the player whose turn it is (if the room allows hints)."""
        async with room.lock:
            m = room.match
            if not room.state.hints:
                raise RoomError(E.HINTS_OFF, "hints are turned off in this room")
            if m is None:
                raise RoomError(E.GAME_NOT_STARTED, "the game has not started")
            seat = m.seat_of(peer.player_id)
            if seat is None or not m.playing or m.game.game.turn != seat:
                raise RoomError(E.NOT_YOUR_TURN, "a hint is for the player whose turn it is")
            seen = view(m.game, seat, room.connected(list(m.seats)))
            v = m.game.v
        try:
            move, reason = await self.pool.hint(seen, self.settings.hint_level)
        except Exception as e:
            log.exception("hint failed")
            raise RoomError(E.UNAVAILABLE, "no hint is available right now") from e
        peer.send_hint(v, move, reason)
