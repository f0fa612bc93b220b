"""The pump: the one path by which anything changes a live room, whoever asks.

A socket's command (`Pump.command`), the room's timer (`autoplay`), a room the server arranges
(`arranged`) and another instance's change (`other_instances`, `Pump.follow`) all end here, and
the pump does the same few things in one order:

1. ask the room core (`app.rooms.core.room_core.handle`) what a command means: an effect to
   commit, or a reply that changes nothing;
2. **commit** the effect (the store; an effect with nothing durable skips this);
3. hand it back to the core (`room_core.committed`), which makes it true in memory and returns
   the `Outbox`;
4. **deliver** the outbox: this instance's sockets (`fanout`), the other instances (the bus),
   the room's timer, the reminders and a vacation's end (`reminder_outbox`).

Callers hold the room's lock (a chat line needs none: it changes no room), so no socket ever
sees a change that is not committed, and the clock is read once per command (`Moment`).
`reload` (the store's truth) and `show` (presence changed) serve the paths that change no
game: loading, attendance.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.engine import MatchStatus
from app.platform import move_trace
from app.platform.bus import Bus
from app.platform.logctx import about
from app.platform.metrics import MOVES, MOVES_BY
from app.platform.settings import Settings
from app.rooms.core import commands as C
from app.rooms.core import errors as E
from app.rooms.core.effects import BeginMatch, ChangeRoom, CommitMove, Committed, DealHand, Effect, lost, move_id
from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import Actor, ChatLine
from app.rooms.core.match_rules import AskHint, Fresh, arm_next_hand
from app.rooms.core.notices import Notice, notice_json
from app.rooms.core.pace import TURN_BASED, over_cap
from app.rooms.core.room_core import Outbox, ShowRoom, ShowTable, committed, handle
from app.rooms.core.timers import AtTable, absent_seats, at_table
from app.rooms.ports import Bots, Clock, Moment, Peer, Storage, moment
from app.rooms.shell.fanout import push_room, push_states, send_state
from app.rooms.shell.live import LiveRoom, LiveRooms, unavailable
from app.rooms.shell.reminder_outbox import Reminding
from app.store.errors import Conflict

log = logging.getLogger(__name__)
RETRIED = (C.Sit, C.Stand, C.AddBot, C.RemoveBot, C.FreeSeat, C.RemovePlayer, C.Configure, C.Rematch)
"""Commands decided again on the fresh room when another writer changed it first."""


class Pump:
    """Carries commands and effects through to live rooms; `schedule(room, at)` re-arms a
    room's timer."""

    def __init__(self, settings: Settings, storage: Storage, bus: Bus, instance: str, rooms: LiveRooms,
                 clock: Clock, bots: Bots, reminding: Reminding, *, fresh: Callable[[], Fresh],
                 schedule: Callable[[LiveRoom, Moment], None]) -> None:
        self.settings = settings
        self.storage = storage
        self.bus = bus
        self.instance = instance
        self.rooms = rooms
        self.clock = clock
        self.bots = bots
        self.reminding = reminding
        self.fresh = fresh
        self.schedule = schedule
        self.draining = False  # the instance is stopping: refuse new work

    # A socket's command.
    async def command(self, room: LiveRoom, peer: Peer, cmd: C.Command) -> None:
        """Carry out one command from a socket (RoomError if refused: nothing changed)."""
        about(room.code, room.room.match.id if room.room.match else None)
        if self.draining:
            raise RoomError(E.UNAVAILABLE, "the server is restarting; reconnect",
                            move_id=cmd.id if isinstance(cmd, C.MakeMove) else None, reason="restarting")
        who = Actor(peer.player_id, peer.name, peer.account, getattr(peer, "avoid", frozenset()))
        if isinstance(cmd, C.Chat):  # changes no room: no lock
            at = moment(self.clock)
            line = handle(room.room, who, cmd, at, self.settings, self.fresh)
            assert isinstance(line, ChatLine)
            await self.run(room, line, at)
            return
        async with room.lock:
            if room.closed:
                raise RoomError(E.UNAVAILABLE, "the room was closed; reconnect", reason="room_closed")
            at = moment(self.clock)
            if room.stale:
                await self.reload(room, at)
            if isinstance(cmd, C.Sit):
                await self._turn_based_cap(room, who)
            move_trace.mark("locked")
            for _ in range(3):
                decision = handle(room.room, who, cmd, at, self.settings, self.fresh)
                move_trace.mark("decided")
                if isinstance(decision, AskHint):
                    break
                if isinstance(decision, ShowTable):  # a move already made: the table as it is now
                    self.send_state(room, peer, at)
                    return
                if isinstance(decision, ShowRoom):
                    push_room(room.room, room.peers)
                    return
                done = await self.run(room, decision, at, by=peer if isinstance(cmd, C.MakeMove | C.Resign) else None)
                if done and isinstance(cmd, C.AddBot):
                    self.bots.prepare()
                if done or not isinstance(cmd, RETRIED):
                    return
            else:
                raise RoomError(E.CONFLICT, "the room is changing fast; try again", reason="room_busy")
        await self._hint(peer, decision)  # the bots think off the lock

    async def _turn_based_cap(self, room: LiveRoom, who: Actor) -> None:
        """A seat in one more turn-based room, within `SPITE_MAX_TURN_BASED` (a room one hosts
        already counts)."""
        r = room.room
        if r.state.pace == TURN_BASED and r.lobby_seat(who.player_id) is None and r.state.host_id != who.player_id:
            refused = over_cap(await self.storage.turn_based_count(who.player_id), self.settings.max_turn_based)
            if refused:
                raise RoomError(E.RATE_LIMITED, refused, reason="turn_based_cap",
                                params={"n": self.settings.max_turn_based})

    async def _hint(self, peer: Peer, ask: AskHint) -> None:
        try:
            move, reason = await self.bots.hint(ask.view, self.settings.hint_level)
        except Exception as e:
            log.exception("hint failed")
            raise RoomError(E.UNAVAILABLE, "no hint is available right now", reason="no_hint") from e
        peer.send_hint(ask.v, move, reason)

    # An effect.
    async def run(self, room: LiveRoom, effect: Effect, at: Moment, by: Peer | None = None) -> bool:
        """Commit, apply, deliver. False if another writer got there first and that needs no
        answer (a lobby change is then decided again on the fresh room); RoomError if it is
        refused: nothing in memory changed but what the store says now."""
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
        out = committed(room.room, effect, done, at, self.settings)
        self._record(room, effect)
        move_trace.mark("applied")
        await self.deliver(room, out, at)
        return True

    def follow(self, room: LiveRoom, effect: Effect, at: Moment) -> None:
        """Make another instance's committed change true here and show it (StepRefused if its
        steps do not apply: the caller reads the store instead)."""
        out = committed(room.room, effect, Committed(), at, self.settings, publish=False)
        self.show(room, at, room_changed=out.room, table=out.table, seen=out.seen)
        self.schedule(room, at)

    async def _commit(self, room: LiveRoom, effect: Effect, at: Moment) -> Committed:
        s = self.storage
        match effect:
            case CommitMove():
                return Committed(awards=await s.commit_move(effect))
            case ChangeRoom(patch=patch, rev=rev):
                return Committed(rev=await s.update_room(room.code, rev, patch))
            case BeginMatch():
                return Committed(rev=await s.begin_match(room.code, effect))
            case DealHand():
                await s.deal_hand(effect)
            case ChatLine():  # kept with the room (its latest lines) before anyone is shown it
                await s.save_chat(room.code, effect.sender, effect.text, at.now, self.settings.chat_history)
        return Committed()  # MarkReady, Followed: memory only

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
            if m.engine.status == MatchStatus.MATCH_OVER:
                log.info("match %s over at version %d; winners %s", m.number, m.v, list(m.engine.winners))
        elif isinstance(effect, BeginMatch):
            about(room.code, effect.match.id)
            log.info("match %s started (%d seats, %d bots)", effect.match.number, len(effect.match.seats),
                     sum(1 for s in effect.match.seats if s.bot))

    # Delivery.
    async def deliver(self, room: LiveRoom, out: Outbox, at: Moment) -> None:
        """This instance's sockets, the other instances, the timer, the reminders: in that order."""
        if out.chat is not None:
            line = out.chat
            for p in list(room.peers):
                p.send_chat(line.sender, line.text, line.at)
        else:
            if out.new_match:
                for p in room.peers:
                    p.sent_v = -1  # a new match: its first state carries the deal's events
            self.show(room, at, room_changed=out.room, table=out.table, seen=out.seen)
        move_trace.mark("fanned_out")
        if out.notice is not None:
            out.notice["origin"] = self.instance
            await self._publish(room, out.notice)
        move_trace.mark("published")
        if out.schedule:
            self.schedule(room, at)
        if out.reminders or out.back is not None:
            self.reminding.deliver(room.code, out.reminders, out.back)

    def show(self, room: LiveRoom, at: Moment, *, room_changed: bool, table: bool = True,
             seen: AtTable | None = None) -> None:
        """Push what changed to our sockets: the room object, and every socket's own view of
        the table (`seen`: who is at it, if already worked out for this moment)."""
        r = room.room
        if room_changed:
            push_room(r, room.peers)
        if table and r.match is not None:
            seen = seen or at_table(r, at.now, self.settings.absent_grace, self.settings.missed_turns)
            room.pushed = push_states(r, room.peers, at.now, seen.absent, room.pushed)
            room.shown = seen

    def send_state(self, room: LiveRoom, peer: Peer, at: Moment) -> None:
        """Send one socket the table as it is now."""
        send_state(room.room, peer, at.now,
                   absent_seats(room.room, at.now, self.settings.absent_grace, self.settings.missed_turns), room.pushed)

    async def publish(self, room: LiveRoom, notice: Notice) -> None:
        await self._publish(room, notice_json(notice, self.instance))

    async def _publish(self, room: LiveRoom, message: dict[str, Any]) -> None:
        try:
            await self.bus.publish(room.code, message)
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
        if r.match is not None:
            arm_next_hand(r.match, at.now, self.settings.next_hand_seconds)
        r.presence = seen
        r.vacations = dict(found.vacations or {})
        self.show(room, at, room_changed=True)
        self.schedule(room, at)
