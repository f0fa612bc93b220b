"""Autoplay: the room's one timer, armed after every change, and what is done when it fires.

The core decides when and as whom (`timers.next_timer`: a bot's turn, the turn clock, a
player away, the next hand's countdown); this arms the timer only in rooms whose lease this
instance holds (`driving.Driving`), and when it fires asks the core again (`decide_due_deal`,
`decide_automatic`) before acting: a bot or stand-in chooses in the bot pool (off the lock),
and the choice is decided and carried out like a person's move. A new kind of timer is a kind
in `timers`, a branch of `_act` here, and (for a timer that must fire with nobody connected or
the room unloaded) a way for `Driving` to find such rooms in the store and adopt them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from app.engine import BadMove, Move
from app.platform.logctx import about
from app.platform.metrics import AUTOMATIC, BOT_THINK
from app.platform.settings import Settings
from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.forfeit import decide_forfeit
from app.rooms.core.match_rules import Fresh, decide_due_deal, decide_seat_move
from app.rooms.core.timers import DEAL, Timer, decide_automatic, fallback_move, next_timer
from app.rooms.ports import Bots, Clock, Moment, moment
from app.rooms.shell.driving import Driving
from app.rooms.shell.live import LiveRoom, LiveRooms
from app.rooms.shell.pump import Pump

log = logging.getLogger(__name__)


class Autoplay:
    """Arms and fires rooms' timers; `fresh()` draws the randomness of a deal."""

    def __init__(self, settings: Settings, clock: Clock, bots: Bots, driving: Driving, rooms: LiveRooms,
                 pump: Pump, *, fresh: Callable[[], Fresh]) -> None:
        self.settings = settings
        self.clock = clock
        self.bots = bots
        self.driving = driving
        self.rooms = rooms
        self.pump = pump
        self.fresh = fresh

    # What `Driving` asks.
    def needs_driver(self, code: str) -> bool:
        """Is the room loaded here, played, and waiting on a timer or a bot?"""
        room = self.rooms.get(code)
        if room is None or room.closed or room.room.match is None:
            return False
        at = moment(self.clock)
        return next_timer(room.room, at.now, at.mono, self.settings) is not None

    def reschedule(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None:
            self.schedule(room, moment(self.clock))

    # Arming.
    def schedule(self, room: LiveRoom, at: Moment) -> None:
        """(Re)arm the room's timer after a change."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.closed:
            return
        timer = next_timer(room.room, at.now, at.mono, self.settings)
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

    def _stand_down(self, room: LiveRoom, at: Moment) -> None:
        """A timer found the lease not (or no longer) trusted: ask for it again, so the room is
        re-armed once it is ours (`Driving` re-arms it on winning or renewing it); without this a
        bot's turn whose lease was released for a moment would wait for ever."""
        if not room.closed:
            self.schedule(room, at)

    # Firing.
    async def _act(self, room: LiveRoom, timer: Timer) -> None:
        if timer.kind == DEAL:
            await self._deal_due(room, timer)
        else:
            await self._move_for(room, timer)

    async def _deal_due(self, room: LiveRoom, timer: Timer) -> None:
        """The next hand's countdown ended (or everyone is ready): deal it."""
        async with room.lock:
            at = moment(self.clock)
            if room.closed or not self.driving.holds(room.code):
                self._stand_down(room, at)
                return
            m = room.room.match
            deal = decide_due_deal(room.room, timer.v, at.now, self.fresh(), self.settings.missed_turns)
            if deal is None:
                if m is not None and m.v == timer.v:
                    self.schedule(room, at)  # not yet (the clock woke early): look again
                return
            try:
                await self.pump.run(room, deal, at)
            except RoomError as e:
                if e.code != E.CONFLICT:  # dealt by someone else meanwhile: nothing to do
                    raise

    async def _move_for(self, room: LiveRoom, timer: Timer) -> None:
        """Make the automatic move the timer was armed for, if the table has not moved on."""
        async with room.lock:
            at = moment(self.clock)
            if room.closed or not self.driving.holds(room.code):
                self._stand_down(room, at)
                return
            ask = decide_automatic(room.room, timer, at.now, at.mono, self.settings)
            m = room.room.match
            if ask is None or m is None:
                if m is not None and m.v == timer.v:
                    self.schedule(room, at)  # things changed (someone came back): look again
                return
            about(room.code, m.id)
            forfeit = decide_forfeit(room.room, ask.seat, ask.kind, at.now, self.settings)
            if forfeit is not None:  # a rated seat's turns ran out once too often: it loses the match
                try:
                    await self.pump.run(room, forfeit, at)
                    AUTOMATIC.labels("forfeit", "committed").inc()
                except RoomError as e:
                    AUTOMATIC.labels("forfeit", e.code).inc()
                    self.schedule(room, at)
                return
        started = time.perf_counter()
        choice = await self.bots.choose(ask.view, ask.level)
        BOT_THINK.labels(ask.level).observe(time.perf_counter() - started)
        async with room.lock:  # the bot thought off the lock: the table may have moved on
            at = moment(self.clock)
            if room.closed or room.room.match is not m or m.v != ask.v or not self.driving.holds(room.code):
                AUTOMATIC.labels(ask.kind, "dropped").inc()
                if room.room.match is m and m.v == ask.v:
                    self._stand_down(room, at)  # the lease, not the table, changed
                return
            try:
                commit = decide_seat_move(room.room, ask.seat, Move.from_wire(choice), ask.kind, None, at.now,
                                          self.settings.missed_turns)
            except (BadMove, RoomError) as e:
                log.warning("automatic move for seat %s in room %s refused: %s", ask.seat, room.code, e)
                commit = decide_seat_move(room.room, ask.seat, fallback_move(room.room), ask.kind, None, at.now,
                                          self.settings.missed_turns)
            try:
                await self.pump.run(room, commit, at)
                AUTOMATIC.labels(ask.kind, "committed").inc()
            except RoomError as e:
                AUTOMATIC.labels(ask.kind, e.code).inc()
                self.schedule(room, at)
