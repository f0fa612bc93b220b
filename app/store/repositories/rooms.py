"""Rooms: settings, lobby seating and status. Lobby changes are optimistic: an update names
the revision it was computed from and fails with `Conflict` if another writer moved it on."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Connection, Table, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.records import RoomStatus
from app.store.errors import Conflict, save, update_one
from app.store.tables import Room, utcnow

OPEN = (RoomStatus.WAITING, RoomStatus.PLAYING)
ROOMS = cast(Table, Room.__table__)


async def insert_room(session: AsyncSession, room: Room) -> Room:
    """Insert a new room (Conflict if the code is taken)."""
    session.add(room)
    await save(session, "room code taken")
    return room


async def get_room(session: AsyncSession, code: str) -> Room | None:
    if not code or len(code) > 16:
        return None
    return (await session.execute(select(Room).where(Room.code == code).execution_options(
        populate_existing=True))).scalar_one_or_none()


PUBLIC_IDLE = timedelta(hours=1)  # a waiting public room nobody touched this long leaves the list


async def public_rooms(session: AsyncSession, limit: int = 50) -> list[Room]:
    """Public rooms waiting for players, the most recently changed first (someone sat, stood,
    or the host changed a setting); rooms left untouched for `PUBLIC_IDLE` fall off the list."""
    q = (select(Room).where(Room.public.is_(True), Room.status == RoomStatus.WAITING,
                            Room.updated_at > utcnow() - PUBLIC_IDLE)
         .order_by(Room.updated_at.desc(), Room.created_at.desc()).limit(limit))
    return list((await session.execute(q)).scalars())


async def open_rooms_hosted(session: AsyncSession, host_id: str, since: datetime) -> int:
    """How many rooms this player hosts that are not over and changed after `since` (rooms
    left idle longer do not count against the limit)."""
    q = select(func.count()).select_from(Room).where(Room.host_id == host_id, Room.status.in_(OPEN),
                                                     Room.updated_at > since)
    return int((await session.execute(q)).scalar_one())


async def public_rooms_waiting(session: AsyncSession, host_id: str) -> int:
    """How many public rooms this player hosts that wait for players (the list shows those)."""
    q = select(func.count()).select_from(Room).where(Room.host_id == host_id, Room.public.is_(True),
                                                     Room.status == RoomStatus.WAITING)
    return int((await session.execute(q)).scalar_one())


async def update_room(session: AsyncSession, code: str, rev: int, values: dict[str, Any],
                      *, commit: bool = True) -> int:
    """Write `values` to the room if it is still at `rev`; returns the new revision."""
    await update_one(session, update(Room).where(Room.code == code, Room.rev == rev)
                     .values({**values, "rev": rev + 1, "updated_at": utcnow()}),
                     f"room {code} moved past revision {rev}")
    if commit:
        await session.commit()
    return rev + 1


def update_room_now(conn: Connection, code: str, rev: int, values: dict[str, Any]) -> int:
    """`update_room` in Core, in the transaction of a synchronous connection (`inline_writes`)."""
    done = conn.execute(update(ROOMS).where(ROOMS.c.code == code, ROOMS.c.rev == rev)
                        .values({**values, "rev": rev + 1, "updated_at": utcnow()}))
    if done.rowcount != 1:
        raise Conflict(f"room {code} moved past revision {rev}")
    return rev + 1
