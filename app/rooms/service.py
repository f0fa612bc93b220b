"""`RoomService`: the shell around the room core, and the only code of the room layer that awaits.

The server's sockets `join`, send typed commands (`handle`) and `leave`; REST creates and
describes rooms. For every command the shell asks the core (`lobby`, `play`, `timers`: pure
functions of the room, the command and the time) what to do, then carries it out in one
order: commit (the store) -> apply (`steps.apply_steps`, the one applier) -> fan out (our
sockets) -> publish (the bus) -> schedule (the room's timer). Every room is changed under its
own lock, so no socket ever sees a step that is not committed. Other instances' changes
arrive on the bus and go through the same applier.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from app.bus import Bus, Subscription
from app.engine import BadMove, Move
from app.settings import Settings
from app.store.errors import Conflict
from app.store.models import Player, RoomStatus
from app.store.players import new_id
from app.store.presence import Seen

from . import commands as C
from . import errors as E
from . import stages
from .config import normal_code
from .directory import create_room, public_rooms
from .driving import Driving
from .errors import RoomError
from .fanout import push_room, push_states, send_state
from .lobby import Actor, decide_chat, decide_lobby
from .logctx import about
from .match_rules import (
    AlreadyMade,
    CommitMove,
    DealHand,
    Fresh,
    arm_next_hand,
    decide_due_deal,
    decide_hint,
    decide_move,
    decide_next_hand,
    decide_seat_move,
    decide_start,
)
from .messages import (
    Advanced,
    ChatSaid,
    Notice,
    PresenceChanged,
    ReadyMarked,
    RoomChanged,
    RoomInfo,
    notice_from_json,
    notice_json,
    room_info,
)
from .metrics import AUTOMATIC, BOT_THINK, BUS_CATCH_UP, MOVES, MOVES_BY, ROOMS_LOADED
from .model import LiveMatch, Room
from .ports import Bots, Clock, Peer, Storage, SystemClock
from .steps import StepRefused, apply_steps
from .timers import DEAL, Timer, decide_automatic, fallback_move, next_timer
from .timers import absent_seats as absent

log = logging.getLogger(__name__)


class RoomNotFound(LookupError):
    """No room has that code."""


class LiveRoom(Room):
    """A room loaded on this instance: the core's `Room` plus its lock, sockets and timer."""

    def __init__(self, room: Room) -> None:
        super().__init__(room.state, room.match, loaded_at=room.loaded_at, host_name=room.host_name)
        self.lock = asyncio.Lock()
        self.peers: set[Peer] = set()
        self.timer: asyncio.Task[None] | None = None
        self.presence_flush: asyncio.Task[None] | None = None
        self.shown_presence: tuple[Any, ...] | None = None  # presence as the last views to all showed it
        self.subscription: Subscription | None = None
        self.closed = False
        self.stale = False  # a store failure left memory possibly behind: read the store first


def _unavailable(move_id: str | None = None) -> RoomError:
    return RoomError(E.UNAVAILABLE, "the server cannot reach its database just now; try again shortly",
                     move_id=move_id)


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
        self.driving = Driving(storage, self.instance, settings.lease_seconds, needs_driver=self._needs_driver,
                               reschedule=self._reschedule, adopt=self._adopt)
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
        every socket to reconnect (to another instance behind a proxy), and hand our rooms'
        timers to the other instances. Safe to call more than once."""
        if self.draining:
            return
        self.draining = True
        log.info("draining %d rooms", len(self.rooms))
        for room in list(self.rooms.values()):
            async with room.lock:  # a move in flight holds the lock until it is committed and sent
                self._unload(room)
                for peer in list(room.peers):
                    peer.reconnect(reason)
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

    async def _beat(self) -> None:
        beats = 0
        while True:
            await self.clock.sleep(self.settings.heartbeat_seconds)
            beats += 1
            try:
                rooms = list(self.rooms.values())
                await self.storage.heartbeat(self.instance, prune=beats % 360 == 0)
                seen = await self.storage.rooms_presence([r.code for r in rooms])
                for room in rooms:
                    async with room.lock:
                        if room.closed:
                            continue
                        if self._set_presence(room, seen.get(room.code, {})):
                            self._show(room, room_changed=True)
                        if not room.peers and not self.driving.keeps(room.code):
                            self._unload(room)  # nobody here, and another instance (or none) drives it
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence heartbeat failed")

    # Loading and reloading.
    async def live(self, code: str) -> LiveRoom:
        """The live room for `code`, loaded from the store if needed (RoomNotFound if none)."""
        normal = normal_code(code)
        if normal is None:
            raise RoomNotFound(code)
        code = normal
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
                    try:
                        found = await self.storage.load(code)
                    except Exception as e:
                        raise _unavailable() from e
                    if found is None:
                        raise RoomNotFound(code)
                    room = LiveRoom(Room(found.state, found.match, loaded_at=self.clock.now(),
                                         host_name=found.host_name))
                    room.changed_at = self.clock.monotonic()
                    if room.match is not None:
                        arm_next_hand(room.match, self.clock.now(), self.settings.next_hand_seconds)
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
                self.schedule(room)
                return room
        finally:
            if not lock.locked():
                self._loading.pop(code, None)

    def _unload(self, room: LiveRoom) -> None:
        room.closed = True
        for task in (room.timer, room.presence_flush):
            if task is not None:
                task.cancel()
        if room.subscription is not None:
            room.subscription.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            ROOMS_LOADED.dec()

    async def reload(self, room: LiveRoom) -> None:
        """Replace the room's memory with the store's truth and show it to everyone.

        If the store cannot be read, the room keeps what it has (memory only ever holds
        committed steps, so it is behind the store at worst, never ahead), is marked stale so
        the next command reads the store first, and RoomError(unavailable) is raised: sockets
        stay open and are told `unavailable`, as docs/protocol.md says."""
        try:
            found = await self.storage.load(room.code)
            if found is not None:
                seen = await self.storage.room_presence(room.code)
        except Exception as e:
            room.stale = True
            log.warning("could not reload room %s: %s", room.code, e)
            raise _unavailable() from e
        room.stale = False
        if found is None:
            self._unload(room)
            return
        old = room.match.id if room.match else None
        room.state, room.match, room.host_name = found.state, found.match, found.host_name
        if room.match is None or room.match.id != old:
            for p in room.peers:
                p.sent_v = None
        self._set_presence(room, seen)
        self._show(room, room_changed=True)

    async def _refresh_presence(self, room: LiveRoom) -> bool:
        """Re-read who is connected; True if any seat's connected flag changed."""
        return self._set_presence(room, await self.storage.room_presence(room.code))

    def _presence_mark(self, room: LiveRoom) -> tuple[Any, ...]:
        """What of presence the views and timers show: seats connected, stand-ins, anyone here."""
        now, grace = self.clock.now(), self.settings.absent_grace
        return room.connected(room.state.seating), absent(room, now, grace), room.anyone_here()

    def _set_presence(self, room: LiveRoom, seen: dict[str, Seen]) -> bool:
        before = self._presence_mark(room)
        room.presence = seen
        return self._presence_mark(room) != before

    # Telling: our sockets, then the other instances.
    def _show(self, room: LiveRoom, *, room_changed: bool, state_changed: bool = True) -> None:
        """Push what changed to our sockets and re-arm the room's timer."""
        if room.match is not None:
            arm_next_hand(room.match, self.clock.now(), self.settings.next_hand_seconds)
        if room_changed:
            push_room(room, room.peers)
        if state_changed and room.match is not None:
            push_states(room, room.peers, self.clock.now(), self.settings.absent_grace)
            room.shown_presence = self._presence_mark(room)
        self.schedule(room)

    async def publish(self, room: LiveRoom, notice: Notice) -> None:
        try:
            await self.bus.publish(room.code, notice_json(notice, self.instance))
        except Exception:  # the change is committed; other instances catch up on the next message
            log.exception("could not publish to room %s", room.code)

    async def _committed(self, room: LiveRoom, *, room_changed: bool = False, state_changed: bool = True,
                         notice: Advanced | None = None) -> None:
        """A change is committed and applied: show it, re-arm the timer, tell the other instances."""
        room.changed_at = self.clock.monotonic()
        self._show(room, room_changed=room_changed, state_changed=state_changed)
        stages.mark("fanned_out")
        m = room.match
        if state_changed and m is not None:
            await self.publish(room, notice or Advanced(m.id, m.v, room_changed))
        else:
            await self.publish(room, RoomChanged())
        stages.mark("published")

    # The bus.
    async def _on_bus(self, ready: asyncio.Future[LiveRoom], msg: dict[str, Any]) -> None:
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
            m = room.match
            if isinstance(notice, ReadyMarked):
                if m is not None and m.id == notice.match and m.v == notice.v and m.next_deadline is not None:
                    m.ready.add(notice.seat)
                    self._show(room, room_changed=False)
                return
            about(room.code, room.match.id if room.match else None)
            if isinstance(notice, Advanced):
                how = await self._catch_up(room, notice)
                if how is not None:
                    BUS_CATCH_UP.labels(how).inc()
                    room.changed_at = self.clock.monotonic()
                    self._show(room, room_changed=notice.room)
                    return
            elif isinstance(notice, PresenceChanged):
                self._presence_changed(room)
                return
            elif isinstance(notice, RoomChanged) and await self._refresh_room(room):
                return
            BUS_CATCH_UP.labels("reload").inc()
            await self.reload(room)

    async def _catch_up(self, room: LiveRoom, notice: Advanced) -> str | None:
        """Bring the match to the announced version: from the notice's own move if it is the
        next step, else from the store; None if a full reload is needed instead."""
        m = room.match
        if m is None or notice.match != m.id:
            return None
        if notice.move is not None and not notice.room and notice.v == m.v + 1:
            try:
                apply_steps(m, [notice.move], notice.deadline)
                return "bus"
            except StepRefused:
                log.warning("a move from the bus does not apply to room %s; reading the store", room.code)
        if notice.v <= m.v:
            return "store"
        changes = await self.storage.changes_since(room.code, m.id, m.v)
        try:
            apply_steps(m, changes.steps, changes.deadline)
        except StepRefused:
            log.exception("stored changes of match %s do not apply here; reloading", m.id)
            return None
        if changes.room is not None:
            room.state = changes.room
        m.awards = changes.awards
        return "store"

    async def _refresh_room(self, room: LiveRoom) -> bool:
        """Re-read the room row and presence (the lobby or who is here changed elsewhere);
        False if the room now points at another match (then a full reload is needed)."""
        state = await self.storage.room_state(room.code)
        if state is None or state.match_id != (room.match.id if room.match else None):
            return False
        room.state = state
        await self._refresh_presence(room)
        self._show(room, room_changed=True)
        return True

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
            room = await self.live(code)
        except RoomNotFound:
            return None
        async with room.lock:
            return room_info(room)

    async def public_rooms(self) -> list[RoomInfo]:
        """Public rooms waiting for players, newest first."""
        return await public_rooms(self.storage, self.clock.now())

    # Sockets.
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

    async def join(self, code: str, peer: Peer, last_v: int | None) -> LiveRoom:
        """Attach a socket to a room; it receives welcome, room and (once playing) the state."""
        for _ in range(3):
            if self.draining:
                raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect")
            room = await self.live(code)
            try:
                await self.storage.add_socket(room.code, peer.player_id, self.instance)
                chat = await self.storage.recent_chat(room.code, self.settings.chat_history)
            except Exception as e:
                raise _unavailable() from e
            async with room.lock:
                if room.closed:
                    await self.storage.drop_socket(room.code, peer.player_id, self.instance)
                    continue
                room.peers.add(peer)
                room.attach(peer.player_id, peer.name)
                m = room.match
                peer.sent_v = last_v if m is not None and last_v is not None and 0 <= last_v <= m.v else None
                info = room_info(room)
                peer.send_welcome(room.lobby_seat(peer.player_id), peer.player_id == room.state.host_id, info)
                peer.send_room(info)
                self._send_state(room, peer)
                peer.send_chat_history(chat)
            self._presence_changed(room)  # the others hear of it once, with whoever else came or went
            return room
        raise RoomError(E.UNAVAILABLE, "the room is busy; try again")

    async def leave(self, room: LiveRoom, peer: Peer) -> None:
        if peer not in room.peers:
            return
        room.peers.discard(peer)
        room.detach(peer.player_id)
        with contextlib.suppress(Exception):
            await self.storage.drop_socket(room.code, peer.player_id, self.instance)
        if not room.closed:
            self._presence_changed(room)

    def _presence_changed(self, room: LiveRoom) -> None:
        """Sockets joined or left (here, or on another instance): show it once the room has
        been quiet for `presence_debounce` seconds, so churn costs the others one update."""
        if room.presence_flush is None or room.presence_flush.done():
            room.presence_flush = asyncio.get_running_loop().create_task(self._flush_presence(room))

    async def _flush_presence(self, room: LiveRoom) -> None:
        await self.clock.sleep(self.settings.presence_debounce)
        room.presence_flush = None  # joins from now on start another round
        try:
            async with room.lock:
                if room.closed:
                    return
                room.presence = await self.storage.room_presence(room.code)
                # The room object (who is connected, how many watch) goes out every round; the
                # views only when a seat's connected flag or the stand-ins differ from what
                # they last showed.
                self._show(room, room_changed=True, state_changed=self._presence_mark(room) != room.shown_presence)
            if room.take_here_changed():
                await self.publish(room, PresenceChanged())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not show who is in room %s", room.code)

    async def handle(self, room: LiveRoom, peer: Peer, cmd: C.Command) -> None:
        """Carry out one command from a socket (RoomError if refused: nothing changed)."""
        about(room.code, room.match.id if room.match else None)
        if self.draining:
            move_id = cmd.id if isinstance(cmd, C.MakeMove) else None
            raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect", move_id=move_id)
        who = Actor(peer.player_id, peer.name, peer.account)
        if isinstance(cmd, C.Chat):
            now = self.clock.now()
            line = decide_chat(room, who, cmd.text, now, self.settings)
            try:  # kept with the room (its latest lines) before anyone is shown it
                await self.storage.save_chat(room.code, line.sender, line.text, now, self.settings.chat_history)
            except Exception as e:
                raise _unavailable() from e
            for p in list(room.peers):
                p.send_chat(line.sender, line.text, line.at)
            await self.publish(room, ChatSaid(line.sender, line.text, line.at))
            return
        if isinstance(cmd, C.Hint):
            await self._hint(room, peer, who)
            return
        async with room.lock:
            if room.closed:
                raise RoomError(E.UNAVAILABLE, "the room was closed; reconnect")
            if room.stale:
                await self.reload(room)
            now = self.clock.now()
            match cmd:
                case C.Sit() | C.Stand() | C.AddBot() | C.RemoveBot() | C.FreeSeat() | C.Configure():
                    await self._change_lobby(room, who, cmd)
                case C.Start() | C.Rematch():
                    await self._begin(room, who, rematch=isinstance(cmd, C.Rematch))
                case C.NextHand():
                    await self._ready(room, who)
                case C.MakeMove(move=data, id=move_id):
                    stages.mark("locked")
                    decided = decide_move(room, who, data, move_id, now)
                    stages.mark("decided")
                    if isinstance(decided, AlreadyMade):
                        self._send_state(room, peer)  # already applied: the answer is the table as it is now
                    else:
                        await self._commit_move(room, decided, peer)

    def _send_state(self, room: LiveRoom, peer: Peer) -> None:
        send_state(room, peer, self.clock.now(), self.settings.absent_grace)

    async def _change_lobby(self, room: LiveRoom, who: Actor, cmd: C.LobbyCommand) -> None:
        """Write the lobby change the core decides, deciding again on a fresh copy of the room
        if another writer got there first."""
        for _ in range(3):
            values = decide_lobby(room, who, cmd, self.clock.now(), self.settings)
            if values is None:
                push_room(room, room.peers)
                return
            try:
                rev = await self.storage.update_room(room.code, room.state.rev, values)
            except Conflict:
                await self.reload(room)
                continue
            except Exception as e:
                raise self._store_failed(room, e) from e
            room.state.with_values(values, rev)
            if isinstance(cmd, C.AddBot):
                self.bots.prepare()
            await self._committed(room, room_changed=True, state_changed=False)
            return
        raise RoomError(E.CONFLICT, "the room is changing fast; try again")

    async def _begin(self, room: LiveRoom, who: Actor, *, rematch: bool) -> None:
        begin = decide_start(room, who, rematch=rematch, now=self.clock.now(), fresh=self.fresh(),
                             settings=self.settings)
        try:
            rev = await self.storage.begin_match(room.code, begin)
        except Conflict as e:
            await self.reload(room)
            raise RoomError(E.CONFLICT, "the room changed just now; try again") from e
        except Exception as e:
            raise self._store_failed(room, e) from e
        room.state.with_values(begin.room_values, rev)
        room.match = begin.match
        apply_steps(begin.match, [begin.deal], begin.deadline)
        about(room.code, begin.match.id)
        log.info("match %s started (%d seats, %d bots)", begin.match.number, len(begin.match.seats),
                 sum(1 for s in begin.match.seats if s.bot))
        for p in room.peers:
            p.sent_v = -1  # a new match: its first state carries the deal's events
        await self._committed(room, room_changed=True)

    async def _ready(self, room: LiveRoom, who: Actor) -> None:
        """A seated player is ready for the next hand: deal it if everyone now is, else show
        who is ready (and tell the other instances)."""
        mark = decide_next_hand(room, who, self.clock.now(), self.fresh())
        m = room.match
        assert m is not None
        if mark.deal is not None:
            await self._deal(room, mark.deal)
            return
        m.ready.add(mark.seat)
        self._show(room, room_changed=False)
        await self.publish(room, ReadyMarked(m.id, m.v, mark.seat))

    async def _deal(self, room: LiveRoom, deal: DealHand, *, quiet: bool = False) -> None:
        """Commit the deal of the next hand; `quiet`: a lost race is no error (the timer's)."""
        m = room.match
        assert m is not None
        try:
            await self.storage.deal_hand(deal)
        except Conflict as e:
            await self.reload(room)
            if quiet:
                return
            raise RoomError(E.CONFLICT, "the next hand was already dealt") from e
        except Exception as e:
            raise self._store_failed(room, e) from e
        apply_steps(m, [deal.deal], deal.deadline)
        await self._committed(room)

    async def _commit_move(self, room: LiveRoom, commit: CommitMove, peer: Peer | None) -> None:
        """Commit a decided move, then apply it and tell everyone. The one durable path of
        every move, whoever chose it."""
        step, m = commit.step, room.match
        assert m is not None
        try:
            awards = await self.storage.commit_move(commit)
        except Conflict as e:
            await self.reload(room)
            mine = room.match
            if peer is not None:
                self._send_state(room, peer)  # the table as it is now
            if step.client_id is not None and mine is not None and (step.seat, step.client_id) in mine.client_ids:
                return  # our twin on another socket got there first
            raise RoomError(E.CONFLICT, "another move was made first; here is the table now",
                            move_id=step.client_id) from e
        except Exception as e:
            raise self._store_failed(room, e, step.client_id) from e
        stages.mark("committed")
        (MOVES_BY.get(step.actor) or MOVES.labels(step.actor)).inc()
        apply_steps(m, [step], commit.deadline, previewed=commit.previewed)
        if commit.hand_end is not None:
            m.awards = awards
        stages.mark("applied")
        over = commit.ends_match
        if over:
            room.state.status = RoomStatus.OVER
            room.state.rev += 1
            log.info("match %s over at version %d; winners %s", m.number, m.v, list(m.engine.winners))
        plain = commit.hand_end is None  # a hand's end also writes results: others read the store
        await self._committed(room, room_changed=over, notice=Advanced(
            m.id, m.v, over, step if plain else None, commit.deadline))

    def _store_failed(self, room: LiveRoom, error: Exception, move_id: str | None = None) -> RoomError:
        """A write failed for another reason than a lost race: nothing is applied (memory
        changes only after a commit). The write may still have committed, so the room reads
        the store before its next command."""
        room.stale = True
        log.warning("a write of room %s failed: %s", room.code, error)
        return _unavailable(move_id)

    async def _hint(self, room: LiveRoom, peer: Peer, who: Actor) -> None:
        """Suggest a move to the player whose turn it is (if the room allows hints)."""
        async with room.lock:
            ask = decide_hint(room, who)
        try:
            move, reason = await self.bots.hint(ask.view, self.settings.hint_level)
        except Exception as e:
            log.exception("hint failed")
            raise RoomError(E.UNAVAILABLE, "no hint is available right now") from e
        peer.send_hint(ask.v, move, reason)

    # The room's timer: bots, the turn clock and absent players.
    def _needs_driver(self, code: str) -> bool:
        room = self.rooms.get(code)
        return (room is not None and not room.closed and room.match is not None
                and next_timer(room, self.clock.now(), self.clock.monotonic(), self.settings) is not None)

    def _reschedule(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None:
            self.schedule(room)

    async def _adopt(self, code: str) -> None:
        await self.live(code)

    def schedule(self, room: LiveRoom) -> None:
        """(Re)arm the room's timer after a change."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.closed:
            return
        timer = next_timer(room, self.clock.now(), self.clock.monotonic(), self.settings)
        if timer is None:
            return
        if not self.driving.holds(room.code):
            self.driving.want(room.code)  # once the lease is ours, the room is scheduled again
            return
        room.timer = asyncio.get_running_loop().create_task(self._wait_then_act(room, timer))

    async def _wait_then_act(self, room: LiveRoom, timer: Timer) -> None:
        await self.clock.sleep(max(0.0, timer.delay))
        if room.timer is asyncio.current_task():
            room.timer = None  # acting now: a later schedule() must not cancel us half-way
        try:
            await self._act(room, timer)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("automatic move in room %s failed", room.code)

    def _stand_down(self, room: LiveRoom) -> None:
        """A timer found the lease not (or no longer) trusted: ask for it again, so the room is
        re-armed once it is ours (`Driving` re-arms it on winning or renewing it); without this a
        bot's turn whose lease was released for a moment would wait for ever."""
        if not room.closed:
            self.schedule(room)

    async def _act(self, room: LiveRoom, timer: Timer) -> None:
        """Make the automatic move the timer was armed for, if the table has not moved on."""
        if timer.kind == DEAL:
            async with room.lock:
                if room.closed or not self.driving.holds(room.code):
                    self._stand_down(room)
                    return
                deal = decide_due_deal(room, timer.v, self.clock.now(), self.fresh())
                if deal is None:
                    if room.match is not None and room.match.v == timer.v:
                        self.schedule(room)  # not yet (the clock woke early): look again
                    return
                await self._deal(room, deal, quiet=True)
            return
        async with room.lock:
            if room.closed or not self.driving.holds(room.code):
                self._stand_down(room)
                return
            ask = decide_automatic(room, timer, self.clock.now(), self.clock.monotonic(), self.settings)
            m = room.match
            if ask is None or m is None:
                if m is not None and m.v == timer.v:
                    self.schedule(room)  # things changed (someone came back): look again
                return
            about(room.code, m.id)
        started = time.perf_counter()
        choice = await self.bots.choose(ask.view, ask.level)
        BOT_THINK.labels(ask.level).observe(time.perf_counter() - started)
        async with room.lock:
            if room.closed or room.match is not m or m.v != ask.v or not self.driving.holds(room.code):
                AUTOMATIC.labels(ask.kind, "dropped").inc()
                if room.match is m and m.v == ask.v:
                    self._stand_down(room)  # the lease, not the table, changed
                return
            now = self.clock.now()
            try:
                commit = decide_seat_move(room, ask.seat, Move.from_wire(choice), ask.kind, None, now)
            except (BadMove, RoomError) as e:
                log.warning("automatic move for seat %s in room %s refused: %s", ask.seat, room.code, e)
                commit = decide_seat_move(room, ask.seat, fallback_move(room), ask.kind, None, now)
            try:
                await self._commit_move(room, commit, None)
                AUTOMATIC.labels(ask.kind, "committed").inc()
            except RoomError as e:
                AUTOMATIC.labels(ask.kind, e.code).inc()
                self.schedule(room)


__all__ = ["LiveMatch", "LiveRoom", "RoomNotFound", "RoomService"]
