"""Leases: one row per room naming the instance that drives its timers and bots, and until when.

An instance takes a lease that is free, expired or already its own (one upsert that only
overwrites a lapsed or own row), renews all of its leases in one statement, and gives them up
when it stops (marking them lapsed, so another instance adopts those rooms at once). Times are
the instances' wall clocks (UTC): keep them in sync to well under the lease length.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import MatchStatus
from app.store.tables import Lease, Room, utcnow
from app.store.tables import Match as MatchRow


async def acquire(session: AsyncSession, room: str, instance: str, seconds: float,
                  now: datetime | None = None) -> bool:
    """Take or renew the lease of `room` for `instance`; False if another instance holds it."""
    now = now or utcnow()
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    stmt = insert(Lease).values(room_code=room, instance_id=instance, expires_at=now + timedelta(seconds=seconds))
    upsert = stmt.on_conflict_do_update(
        index_elements=[Lease.room_code],
        set_={"instance_id": stmt.excluded.instance_id, "expires_at": stmt.excluded.expires_at},
        where=(Lease.instance_id == instance) | (Lease.expires_at < now),
    ).returning(Lease.instance_id)
    got = (await session.execute(upsert)).scalar_one_or_none()
    await session.commit()
    return got == instance


async def renew(session: AsyncSession, instance: str, rooms: list[str], seconds: float,
                now: datetime | None = None) -> set[str]:
    """Extend the leases of these rooms that `instance` still holds; returns those rooms (the
    ones another instance took meanwhile are not among them)."""
    now = now or utcnow()
    kept: set[str] = set()
    for start in range(0, len(rooms), 500):
        result = await session.execute(
            update(Lease).where(Lease.instance_id == instance, Lease.room_code.in_(rooms[start:start + 500]))
            .values(expires_at=now + timedelta(seconds=seconds)).returning(Lease.room_code))
        kept |= {code for (code,) in result.all()}
    await session.commit()
    return kept


async def release(session: AsyncSession, rooms: list[str], instance: str) -> None:
    """Drop these leases of `instance` (their rooms need no driver now)."""
    if rooms:
        await session.execute(delete(Lease).where(Lease.instance_id == instance, Lease.room_code.in_(rooms)))
        await session.commit()


async def release_lapsed(session: AsyncSession, room: str, now: datetime | None = None) -> None:
    """Drop the room's lease if it has lapsed (nobody needs to drive the room now)."""
    now = now or utcnow()
    await session.execute(delete(Lease).where(Lease.room_code == room, Lease.expires_at < now))
    await session.commit()


async def lapse_all(session: AsyncSession, instance: str, now: datetime | None = None) -> None:
    """`instance` is stopping: its leases lapse now, so other instances adopt those rooms."""
    now = now or utcnow()
    await session.execute(update(Lease).where(Lease.instance_id == instance)
                          .values(expires_at=now - timedelta(seconds=1)))
    await session.commit()


async def holder(session: AsyncSession, room: str) -> tuple[str, datetime] | None:
    """(instance, expiry) of the room's lease, if there is one."""
    row = (await session.execute(select(Lease.instance_id, Lease.expires_at)
                                 .where(Lease.room_code == room))).one_or_none()
    return (row[0], row[1]) if row is not None else None


async def orphans(session: AsyncSession, now: datetime | None = None, limit: int = 200) -> list[str]:
    """Rooms whose lease has lapsed while their match is still being played (their driver
    died or stopped): some instance must adopt them."""
    now = now or utcnow()
    q = (select(Lease.room_code).join(Room, Room.code == Lease.room_code)
         .join(MatchRow, MatchRow.id == Room.match_id)
         .where(Lease.expires_at < now, MatchRow.status == MatchStatus.PLAYING).limit(limit))
    return [code for (code,) in (await session.execute(q)).all()]


async def forget_finished(session: AsyncSession, now: datetime | None = None) -> None:
    """Delete lapsed leases of rooms with nothing left to drive."""
    now = now or utcnow()
    live = (select(Room.code).join(MatchRow, MatchRow.id == Room.match_id)
            .where(MatchRow.status == MatchStatus.PLAYING))
    await session.execute(delete(Lease).where(Lease.expires_at < now, Lease.room_code.not_in(live)))
    await session.commit()


async def due(session: AsyncSession, horizon: float, now: datetime | None = None, limit: int = 200) -> list[str]:
    """Turn-based rooms whose match must be acted on within `horizon` seconds (`matches.wake_at`,
    set only for turn-based matches being played) and whose lease nobody holds: the earliest
    `limit`. The earliest wake times are read first, from the index on `wake_at` alone (a range
    scan: the rooms that wait further off are never read), then matched with rooms and leases."""
    now = now or utcnow()
    soon = (select(MatchRow.id, MatchRow.room_code, MatchRow.wake_at)
            .where(MatchRow.wake_at <= now + timedelta(seconds=horizon))
            .order_by(MatchRow.wake_at).limit(limit * 5).subquery())
    q = (select(soon.c.room_code).join(Room, (Room.code == soon.c.room_code) & (Room.match_id == soon.c.id))
         .outerjoin(Lease, Lease.room_code == soon.c.room_code)
         .where(or_(Lease.room_code.is_(None), Lease.expires_at < now))
         .order_by(soon.c.wake_at).limit(limit))
    return [code for (code,) in (await session.execute(q)).all()]
