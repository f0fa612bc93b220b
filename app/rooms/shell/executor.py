"""The one executor of the room shell: every effect the core decides is carried out by
`Executor.carry_out`, always in one order: **commit** (the store) -> **apply** (`effects.apply`)
-> **fan out** (our sockets) -> **publish** (the bus) -> **schedule** (the room's timer), with
one handler for a lost race and one for a failed write.

Callers hold the room's lock (a chat line needs none: it changes no room), so no socket ever
sees a change that is not committed, and they read the clock once per command (`Moment`).
Besides, `show` (fan out, the next hand's countdown) and `reload` (the store's truth) serve
every other path that changes memory: the bus, presence, loading.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.platform import move_trace
from app.platform.bus import Bus
from app.platform.logctx import about
from app.platform.metrics import MOVES, MOVES_BY
from app.platform.settings import Settings
from app.rooms.core.effects import (
    BeginMatch,
    ChangeRoom,
    CommitMove,
    Committed,
    DealHand,
    Effect,
    MarkReady,
    apply,
    lost,
    move_id,
    notice,
)
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import ChatLine
from app.rooms.core.match_rules import arm_next_hand
from app.rooms.core.notices import Notice, notice_json
from app.rooms.core.timers import AtTable, absent_seats, at_table
from app.rooms.ports import Moment, Peer, Storage
from app.rooms.shell.fanout import push_room, push_states, send_state
from app.rooms.shell.live import LiveRoom, LiveRooms, unavailable
from app.store.errors import Conflict

log = logging.getLogger(__name__)


class Executor:
    """Carries out effects on live rooms; `schedule(room, at)` re-arms a room's timer."""

    def __init__(self, settings: Settings, storage: Storage, bus: Bus, instance: str, rooms: LiveRooms, *,
                 schedule: Callable[[LiveRoom, Moment], None],
                 after: Callable[[LiveRoom, Effect], None] | None = None) -> None:
        """`after(room, effect)`: told of each effect carried out (reminders are queued there)."""
        self.settings = settings
        self.storage = storage
        self.bus = bus
        self.instance = instance
        self.rooms = rooms
        self.schedule = schedule
        self.after = after

    async def carry_out(self, room: LiveRoom, effect: Effect, at: Moment, by: Peer | None = None) -> bool:
        """Commit, apply, fan out, publish, schedule. False if another writer got there first
        and that needs no answer (a lobby change is then decided again on the fresh room);
        RoomError if it is refused: nothing in memory changed but what the store says now."""
        try:
            done = await self._commit(room, effect, at)
        except Conflict as e:
            await self.reload(room, at)
            if by is not None and isinstance(effect, CommitMove):
                self.send_state(room, by, at)  # the table as it is now
            error = lost(room.room, effect)
            if error is not None:
                raise error from e
            return False
        except Exception as e:
            raise self._failed(room, effect, e) from e
        move_trace.mark("committed")
        shown = apply(room.room, effect, done, at.mono)
        self._record(room, effect)
        move_trace.mark("applied")
        if shown.chat is not None:
            for p in list(room.peers):
                p.send_chat(shown.chat.sender, shown.chat.text, shown.chat.at)
        else:
            if shown.new_match:
                for p in room.peers:
                    p.sent_v = -1  # a new match: its first state carries the deal's events
            self.show(room, at, room_changed=shown.room, table=shown.table)
        move_trace.mark("fanned_out")
        await self.publish(room, notice(room.room, effect))
        move_trace.mark("published")
        if shown.room or shown.table:
            self.schedule(room, at)
        if self.after is not None:
            self.after(room, effect)
        return True

    async def _commit(self, room: LiveRoom, effect: Effect, at: Moment) -> Committed:
        s = self.storage
        match effect:
            case ChangeRoom(patch=patch, rev=rev):
                return Committed(rev=await s.update_room(room.code, rev, patch))
            case BeginMatch():
                return Committed(rev=await s.begin_match(room.code, effect))
            case DealHand():
                await s.deal_hand(effect)
            case CommitMove():
                return Committed(awards=await s.commit_move(effect))
            case ChatLine():  # kept with the room (its latest lines) before anyone is shown it
                await s.save_chat(room.code, effect.sender, effect.text, at.now, self.settings.chat_history)
            case MarkReady():  # memory only
                pass
        return Committed()

    def _failed(self, room: LiveRoom, effect: Effect, error: Exception) -> RoomError:
        """A write failed for another reason than a lost race: nothing is applied (memory
        changes only after a commit). The write may still have committed, so a room change
        makes the room read the store before its next command."""
        if not isinstance(effect, ChatLine):
            room.stale = True
            log.warning("a write of room %s failed: %s", room.code, error)
        return unavailable(move_id(effect))

    def _record(self, room: LiveRoom, effect: Effect) -> None:
        """Logs and counters of what was applied."""
        m = room.room.match
        if isinstance(effect, CommitMove) and m is not None:
            (MOVES_BY.get(effect.step.actor) or MOVES.labels(effect.step.actor)).inc()
            if effect.ends_match:
                log.info("match %s over at version %d; winners %s", m.number, m.v, list(m.engine.winners))
        elif isinstance(effect, BeginMatch):
            about(room.code, effect.match.id)
            log.info("match %s started (%d seats, %d bots)", effect.match.number, len(effect.match.seats),
                     sum(1 for s in effect.match.seats if s.bot))

    def show(self, room: LiveRoom, at: Moment, *, room_changed: bool, table: bool = True,
             seen: AtTable | None = None) -> None:
        """Push what changed to our sockets: the room object, and every socket's own view of
        the table (`seen`: who is at it, if already worked out for this moment). Between hands
        the countdown to the next one starts first."""
        r = room.room
        m = r.match
        if m is not None:
            arm_next_hand(m, at.now, self.settings.next_hand_seconds)
        if room_changed:
            push_room(r, room.peers)
        if table and m is not None:
            seen = seen or at_table(r, at.now, self.settings.absent_grace, self.settings.missed_turns)
            push_states(r, room.peers, at.now, seen.absent)
            room.shown = seen

    def send_state(self, room: LiveRoom, peer: Peer, at: Moment) -> None:
        """Send one socket the table as it is now."""
        send_state(room.room, peer, at.now,
                   absent_seats(room.room, at.now, self.settings.absent_grace, self.settings.missed_turns))

    async def publish(self, room: LiveRoom, notice: Notice) -> None:
        try:
            await self.bus.publish(room.code, notice_json(notice, self.instance))
        except Exception:  # the change is committed; other instances catch up on the next message
            log.exception("could not publish to room %s", room.code)

    async def reload(self, room: LiveRoom, at: Moment) -> None:
        """Replace the room's memory with the store's truth, show it to everyone, re-arm its timer.

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
            raise unavailable() from e
        room.stale = False
        if found is None:
            self.rooms.unload(room)
            return
        r = room.room
        old = r.match.id if r.match else None
        r.state, r.match, r.host_name = found.state, found.match, found.host_name
        if r.match is None or r.match.id != old:
            for p in room.peers:
                p.sent_v = None
        r.presence = seen
        r.vacations = dict(found.vacations or {})
        self.show(room, at, room_changed=True)
        self.schedule(room, at)
