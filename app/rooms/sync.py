"""Catching up with changes another instance committed (told by the bus).

A plain move arrives with its public record and is applied directly when it is the next
version; otherwise the moves and deals after our version are read from the store and applied
to the live match in version order, producing the same public events the other instance
sent. Anything unexpected (a new match, a gap, a move the engine refuses) falls back to a
full reload. The bus only says what is already committed.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.engine import EngineError, Move
from app.store import matches as match_store
from app.store import rooms as room_store
from app.store.models import Hand
from app.store.models import Match as MatchRow

from . import driver, fanout
from .live import LiveRoom, RoomState
from .logctx import about
from .metrics import BUS_CATCH_UP

if TYPE_CHECKING:
    from .service import RoomService

log = logging.getLogger(__name__)
QUIET = ("player", "bot")


async def catch_up(svc: RoomService, room: LiveRoom, match_id: str | None, v: int) -> bool:
    """Bring the live match up to version `v` of match `match_id`; False if a full reload is
    needed instead (another match, or the store and memory disagree)."""
    m = room.match
    if m is None or match_id != m.id:
        return False
    if v <= m.game.v:
        return True
    async with svc.sessions() as s:
        hands, moves = await match_store.changes_since(s, m.id, m.game.v)
        row = await s.get(MatchRow, m.id, populate_existing=True)
        room_row = await room_store.get_room(s, room.code)
    steps: dict[int, Any] = {h.start_v: h for h in hands}
    steps.update({mv.seq: mv for mv in moves})
    try:
        for k in sorted(steps):
            if k != m.game.v + 1:
                return False
            step = steps[k]
            if isinstance(step, Hand):
                events = m.game.deal(step.seed, step.deal_order)
            else:
                events = m.game.apply(Move.from_wire(step.payload), step.seat)
                if step.actor not in QUIET:
                    events = [{"type": "autoplay", "seat": step.seat, "by": step.actor}, *events]
                if step.client_id is not None:
                    m.client_ids[(step.seat, step.client_id)] = step.seq
            m.remember(m.game.v, events)
    except EngineError:
        log.exception("stored changes of match %s do not apply here; reloading", m.id)
        return False
    if row is not None:
        m.deadline = row.turn_deadline
    if room_row is not None:
        room.state = RoomState.from_row(room_row)
    return True


def apply_move(room: LiveRoom, msg: dict[str, Any]) -> bool:
    """Apply the move a bus message carries if it is our next version; False otherwise."""
    m, record = room.match, msg.get("move")
    if m is None or not isinstance(record, dict) or msg.get("match") != m.id or msg.get("room"):
        return False
    if msg.get("v") != m.game.v + 1:
        return False
    seat = record["seat"]
    try:
        events = m.game.apply(Move.from_wire(record["payload"]), seat)
    except (EngineError, KeyError, TypeError, ValueError):
        log.warning("a move from the bus does not apply to room %s; reading the store", room.code)
        return False  # the engine changed nothing: catch up from the store instead
    if record.get("actor") not in QUIET:
        events = [{"type": "autoplay", "seat": seat, "by": record["actor"]}, *events]
    if record.get("client_id") is not None:
        m.client_ids[(seat, record["client_id"])] = m.game.v
    m.remember(m.game.v, events)
    deadline = record.get("deadline")
    m.deadline = datetime.fromisoformat(deadline) if deadline else None
    return True


async def on_message(svc: RoomService, room: LiveRoom, msg: dict[str, Any]) -> None:
    """Bring the room up to date with what another instance told us, and show our sockets."""
    kind = msg.get("kind")
    if kind == "chat":
        for p in list(room.peers):
            p.send_chat(msg.get("from") or {}, str(msg.get("text", "")), str(msg.get("at", "")))
        return
    async with room.lock:
        if room.closed:
            return
        about(room.code, room.match.id if room.match else None)
        if kind == "v":
            how = "bus" if apply_move(room, msg) else None
            if how is None and await catch_up(svc, room, msg.get("match"), int(msg.get("v", -1))):
                how = "store"
            if how is not None:
                BUS_CATCH_UP.labels(how).inc()
                room.changed_at = time.monotonic()
                if msg.get("room"):
                    fanout.push_room(room)
                svc.send_states(room)
                driver.schedule(svc, room)
                return
        elif kind == "room" and await refresh_room(svc, room):
            return
        BUS_CATCH_UP.labels("reload").inc()
        await svc.reload(room)


async def refresh_room(svc: RoomService, room: LiveRoom) -> bool:
    """Re-read the room row and presence (the lobby or who is here changed elsewhere);
    False if the room now points at another match (then a full reload is needed)."""
    async with svc.sessions() as s:
        row = await room_store.get_room(s, room.code)
    if row is None or row.match_id != (room.match.id if room.match else None):
        return False
    room.state = RoomState.from_row(row)
    await svc._refresh_presence(room)
    fanout.push_room(room)
    svc.send_states(room)
    driver.schedule(svc, room)
    return True
