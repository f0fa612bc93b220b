"""Quick-match tickets: the queue lives in the database, so every instance sees it.

A ticket is `waiting`, then `pairing` while the matcher builds its room (claimed by one
conditional update, so a cancel and a match racing each other cannot both win), then
`matched` (with its room) or `cancelled`. A partial unique index allows one open ticket per
player, whoever inserts it and wherever.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Table, func, insert, literal, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.quick_ticket import Ticket
from app.store.repositories.players import new_id, plain_id
from app.store.tables import LobbyPresence, QuickTicket, Rating, utcnow

OPEN = ("waiting", "pairing")


# Joins take this transaction-level advisory lock on PostgreSQL, so the cap's count and the
# insert are one step for every instance (SQLite's one writer does the same by itself).
JOIN_LOCK = 0x5E17E_28


class AlreadyWaiting(Exception):
    """The player already has an open ticket."""


class QueueFull(Exception):
    """The queue holds its cap of open tickets already."""


async def ordinal_of(session: AsyncSession, player_id: str) -> float:
    """The player's rating ordinal (0 before any rated match: openskill's starting ordinal)."""
    value = (await session.execute(select(Rating.ordinal).where(Rating.player_id == player_id))).scalar_one_or_none()
    return float(value) if value is not None else 0.0


async def create(session: AsyncSession, player_id: str, *, seats: int, rated: bool, pace: str, bots: bool,
                 ordinal: float, cap: int) -> str:
    """Insert a waiting ticket if fewer than `cap` are open, as one atomic step (racing joins on any
    instance cannot pass the cap); its id. AlreadyWaiting if the player has an open one, QueueFull
    at the cap."""
    now, ticket_id = utcnow(), new_id()
    row = {"id": ticket_id, "player_id": player_id, "seats": seats, "rated": rated, "pace": pace, "bots": bots,
           "ordinal": ordinal, "status": "waiting", "room_code": None, "created_at": now, "updated_at": now}
    table: Table = QuickTicket.__table__  # type: ignore[assignment]
    open_now = select(func.count()).select_from(table).where(table.c.status.in_(OPEN)).scalar_subquery()
    values = select(*[literal(v, type_=table.c[k].type).label(k) for k, v in row.items()]).where(open_now < cap)
    try:
        if session.get_bind().dialect.name == "postgresql":
            await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": JOIN_LOCK})
        result = await session.execute(insert(table).from_select(list(row), values))
        if result.rowcount != 1:  # type: ignore[attr-defined]
            await session.rollback()
            raise QueueFull
        await session.commit()
    except IntegrityError as e:
        await session.rollback()
        raise AlreadyWaiting from e
    return ticket_id


async def get(session: AsyncSession, ticket_id: str) -> QuickTicket | None:
    if not plain_id(ticket_id):
        return None
    return await session.get(QuickTicket, ticket_id)


async def open_ticket(session: AsyncSession, player_id: str) -> QuickTicket | None:
    result = await session.execute(select(QuickTicket).where(QuickTicket.player_id == player_id,
                                                             QuickTicket.status.in_(OPEN)))
    return result.scalars().first()


async def cancel(session: AsyncSession, ticket_id: str, player_id: str) -> bool:
    """Cancel a waiting ticket of this player; False if it is no longer waiting."""
    result = await session.execute(update(QuickTicket).where(
        QuickTicket.id == ticket_id, QuickTicket.player_id == player_id, QuickTicket.status == "waiting")
        .values(status="cancelled", updated_at=utcnow()))
    await session.commit()
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def cancel_waiting(session: AsyncSession, player_id: str) -> list[str]:
    """Cancel every waiting ticket of the player (their lobby socket went); their ids."""
    result = await session.execute(update(QuickTicket).where(
        QuickTicket.player_id == player_id, QuickTicket.status == "waiting")
        .values(status="cancelled", updated_at=utcnow()).returning(QuickTicket.id))
    ids = [i for (i,) in result.all()]
    await session.commit()
    return ids


async def waiting(session: AsyncSession, ttl: float) -> list[Ticket]:
    """Every waiting ticket, oldest first, with whether its player is online."""
    fresh = utcnow() - timedelta(seconds=ttl)
    online = select(LobbyPresence.player_id).where(LobbyPresence.sockets > 0, LobbyPresence.seen_at >= fresh)
    result = await session.execute(
        select(QuickTicket, QuickTicket.player_id.in_(online)).where(QuickTicket.status == "waiting")
        .order_by(QuickTicket.created_at, QuickTicket.id))
    return [Ticket(t.id, t.player_id, t.seats, t.rated, t.bots, t.ordinal, t.created_at, bool(on))
            for t, on in result.all()]


async def claim(session: AsyncSession, ids: list[str]) -> bool:
    """Take these waiting tickets for one room, all or none."""
    result = await session.execute(update(QuickTicket).where(QuickTicket.id.in_(ids), QuickTicket.status == "waiting")
                                   .values(status="pairing", updated_at=utcnow()))
    if result.rowcount != len(ids):  # type: ignore[attr-defined]
        await session.rollback()
        return False
    await session.commit()
    return True


async def settle(session: AsyncSession, ids: list[str], room: str | None) -> None:
    """Claimed tickets: matched into `room`, or (None) cancelled: the room could not be made."""
    values = {"status": "matched", "room_code": room} if room else {"status": "cancelled"}
    await session.execute(update(QuickTicket).where(QuickTicket.id.in_(ids), QuickTicket.status == "pairing")
                          .values(updated_at=utcnow(), **values))
    await session.commit()


async def cancel_ids(session: AsyncSession, ids: list[str]) -> None:
    """The matcher cancels tickets whose player has gone."""
    if ids:
        await session.execute(update(QuickTicket).where(QuickTicket.id.in_(ids), QuickTicket.status == "waiting")
                              .values(status="cancelled", updated_at=utcnow()))
        await session.commit()
