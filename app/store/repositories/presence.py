"""Presence: who has sockets open in which room, shared by every server instance.

Each instance writes only its own rows (keyed by its instance id) and refreshes `seen_at`
on a heartbeat; a row whose heartbeat is older than the TTL counts as gone (its instance
died), and then the player is away since that last heartbeat.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol, cast

from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.records import Seen
from app.store.tables import Player, Presence, utcnow


async def add_socket(session: AsyncSession, room: str, player: str, instance: str) -> None:
    """Count one more socket of `player` in `room` on this instance (one atomic upsert: the
    same player's sockets may join at the same moment)."""
    now = utcnow()
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    stmt = insert(Presence).values(room_code=room, player_id=player, instance_id=instance, sockets=1,
                                   seen_at=now, left_at=None)
    await session.execute(stmt.on_conflict_do_update(
        index_elements=[Presence.room_code, Presence.player_id, Presence.instance_id],
        set_={"sockets": case((Presence.sockets > 0, Presence.sockets + 1), else_=1), "seen_at": now,
              "left_at": None}))
    await session.commit()


async def drop_socket(session: AsyncSession, room: str, player: str, instance: str) -> None:
    """Count one socket fewer (in one statement); the last one sets `left_at`."""
    now = utcnow()
    await session.execute(
        update(Presence).where(Presence.room_code == room, Presence.player_id == player,
                               Presence.instance_id == instance)
        .values(sockets=case((Presence.sockets > 1, Presence.sockets - 1), else_=0), seen_at=now,
                left_at=case((Presence.sockets <= 1, now), else_=Presence.left_at))
        .execution_options(synchronize_session=False))
    await session.commit()


async def heartbeat(session: AsyncSession, instance: str) -> None:
    """Refresh every row of this instance that has sockets open."""
    await session.execute(update(Presence).where(Presence.instance_id == instance, Presence.sockets > 0)
                          .values(seen_at=utcnow()))
    await session.commit()


async def forget_instance(session: AsyncSession, instance: str) -> None:
    """This instance is shutting down cleanly: its sockets are gone now."""
    now = utcnow()
    await session.execute(update(Presence).where(Presence.instance_id == instance, Presence.sockets > 0)
                          .values(sockets=0, left_at=now, seen_at=now))
    await session.commit()


async def prune(session: AsyncSession, older_than: datetime) -> None:
    """Delete rows with no socket last touched before `older_than`."""
    await session.execute(delete(Presence).where(Presence.sockets == 0, Presence.seen_at < older_than))
    await session.commit()


async def room_presence(session: AsyncSession, room: str, ttl: float) -> dict[str, Seen]:
    """Each player ever present in `room`: connected, or away since when."""
    return (await rooms_presence(session, [room], ttl)).get(room, {})


async def rooms_presence(session: AsyncSession, rooms: list[str], ttl: float) -> dict[str, dict[str, Seen]]:
    """`room_presence` of several rooms in one query. The heartbeat asks this of every room an
    instance holds, every `SPITE_HEARTBEAT_SECONDS`: plain rows of the columns it needs, not ORM
    objects (loading 2,000 of them was most of an idle server's work at 1,000 rooms)."""
    by_room: dict[str, list[_Row]] = {code: [] for code in rooms}
    columns = (Presence.room_code, Presence.player_id, Presence.sockets, Presence.seen_at, Presence.left_at,
               Player.name)
    for start in range(0, len(rooms), 500):
        chunk = rooms[start:start + 500]
        query = select(*columns).join(Player, Player.id == Presence.player_id)
        for row in (await session.execute(query.where(Presence.room_code.in_(chunk)))).all():
            by_room[row.room_code].append(cast(_Row, row))
    return {code: _summarise(rows, ttl) for code, rows in by_room.items()}


class _Row(Protocol):
    """One presence row as `rooms_presence` reads it."""

    room_code: str
    player_id: str
    sockets: int
    seen_at: datetime
    left_at: datetime | None
    name: str


def _summarise(rows: list[_Row], ttl: float) -> dict[str, Seen]:
    fresh_after = utcnow() - timedelta(seconds=ttl)
    out: dict[str, Seen] = {}
    for row in rows:
        name = row.name
        live = row.sockets > 0 and row.seen_at > fresh_after
        gone_at = None if live else (row.left_at if row.sockets == 0 and row.left_at else row.seen_at)
        prev = out.get(row.player_id)
        if live or (prev is not None and prev.connected):
            out[row.player_id] = Seen(True, None, name)
        elif prev is None or (prev.away_since and gone_at and gone_at > prev.away_since):
            out[row.player_id] = Seen(False, gone_at, name)
    return out
