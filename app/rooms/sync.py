"""Catching up with changes another instance committed (told by the bus).

The moves and deals after our version are read from the store and applied to the live
match in version order, producing the same public events the other instance sent; anything
unexpected (a new match, a gap, a move the engine refuses) falls back to a full reload.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from app.engine import EngineError, Move
from app.store import matches as match_store
from app.store import rooms as room_store
from app.store.models import Hand
from app.store.models import Match as MatchRow

from .live import LiveRoom, RoomState

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
