"""Timers: who moves when nobody sends a move.

After every change the room's single timer is re-armed for the earliest of:
- a bot's turn: after `bot_delay` (so people can follow), chosen in the bot process pool;
- the turn clock: at the stored deadline (and then again after `bot_delay`) the server plays
  for the player until the turn passes;
- an absent player: once they have been away `absent_grace` seconds (and someone else is
  in the room) a bot plays their turns until they return.
Each firing checks the match is still at the version it was armed for, so a move that
happened meanwhile cancels it; the move itself goes through `play.commit_move`, the same
durable path as a person's. Only the instance holding the room's lease (`leases.Driving`)
arms timers, so each fires on one instance even when several have the room loaded.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from app.engine import Move, view
from app.store.models import utcnow

from .errors import ILLEGAL_MOVE, RoomError
from .fanout import absent_seats
from .live import LiveRoom
from .logctx import about
from .metrics import AUTOMATIC, BOT_THINK
from .play import BOT, commit_move

if TYPE_CHECKING:
    from .service import RoomService

log = logging.getLogger(__name__)
CLOCK, ABSENT = "clock", "absent"


def next_action(svc: RoomService, room: LiveRoom) -> tuple[float, str] | None:
    """(seconds from now, who acts) for the seat to move, or None if we wait for a person."""
    m = room.match
    if m is None or not m.playing:
        return None
    settings = svc.settings
    seat = m.game.game.turn
    info = m.seats[seat]
    pause = max(0.0, room.changed_at + settings.bot_delay - time.monotonic())
    if info.bot is not None:
        return pause, BOT
    if not room.anyone_here():
        return None
    best: tuple[float, str] | None = None
    now = utcnow()
    if m.turn_seconds and m.deadline is not None:
        best = (max(pause, (m.deadline - now).total_seconds()), CLOCK)
    if info.player_id is not None and not room.is_connected(info.player_id):
        seen = room.presence.get(info.player_id)
        since = seen.away_since if seen and seen.away_since else room.loaded_wall
        due = max(pause, since.timestamp() + settings.absent_grace - now.timestamp())
        if best is None or due < best[0]:
            best = (due, ABSENT)
    return best


def schedule(svc: RoomService, room: LiveRoom) -> None:
    """(Re)arm the room's timer after a change."""
    if room.timer is not None and room.timer is not asyncio.current_task():
        room.timer.cancel()
    room.timer = None
    if room.closed:
        return
    action = next_action(svc, room)
    if action is None or room.match is None:
        return
    if not svc.driving.holds(room.code):
        svc.driving.want(room.code)  # once the lease is ours, the room is scheduled again
        return
    delay, kind = action
    room.timer = asyncio.get_running_loop().create_task(_wait_then_act(svc, room, room.match.game.v, delay, kind))


async def _wait_then_act(svc: RoomService, room: LiveRoom, v: int, delay: float, kind: str) -> None:
    await asyncio.sleep(max(0.0, delay))
    if room.timer is asyncio.current_task():
        room.timer = None  # acting now: a later schedule() must not cancel us half-way
    try:
        await act(svc, room, v, kind)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("automatic move in room %s failed", room.code)


async def act(svc: RoomService, room: LiveRoom, v: int, kind: str) -> None:
    """Make the automatic move armed at version `v`, if the table has not moved on."""
    async with room.lock:
        m = room.match
        if room.closed or m is None or m.game.v != v or not m.playing or not svc.driving.holds(room.code):
            return
        about(room.code, m.id)
        action = next_action(svc, room)
        if action is None or action[0] > 0.05:
            schedule(svc, room)  # things changed (someone came back): look again
            return
        kind = action[1]
        seat = m.game.game.turn
        if kind == ABSENT and seat not in absent_seats(room, svc.settings.absent_grace):
            schedule(svc, room)
            return
        seen = view(m.game, seat, room.connected(list(m.seats)))
        info = m.seats[seat]
        level = info.bot if kind == BOT and info.bot else (
            svc.settings.clock_level if kind == CLOCK else svc.settings.takeover_level)
    started = time.perf_counter()
    choice = await svc.pool.choose(seen, level)
    BOT_THINK.labels(level).observe(time.perf_counter() - started)
    async with room.lock:
        if room.closed or room.match is not m or m.game.v != v or not svc.driving.holds(room.code):
            AUTOMATIC.labels(kind, "dropped").inc()
            return
        try:
            await commit_move(svc, room, seat, Move.from_wire(choice), kind)
            AUTOMATIC.labels(kind, "committed").inc()
        except RoomError as e:
            log.warning("automatic move for seat %s in room %s refused: %s", seat, room.code, e.message)
            if e.code == ILLEGAL_MOVE and room.match is m and m.game.v == v:
                await commit_move(svc, room, seat, m.game.game.legal_moves()[0], kind)
                AUTOMATIC.labels(kind, "committed").inc()
            else:
                AUTOMATIC.labels(kind, e.code).inc()
                schedule(svc, room)
