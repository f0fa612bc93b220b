"""Invitations to rooms: `pending` until accepted, declined, withdrawn or expired.
An invitation is expired when read after `expires_at` (no sweeper needed); answering one is a
conditional update, so two answers racing cannot both count.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.repositories.players import new_id, plain_id
from app.store.tables import Invitation, Player, Room, utcnow


def status_of(inv: Invitation, now: datetime) -> str:
    """The invitation's status now (a pending one past its time is `expired`)."""
    return "expired" if inv.status == "pending" and inv.expires_at <= now else inv.status


async def pending_sent(session: AsyncSession, player_id: str) -> int:
    n = await session.execute(select(func.count()).select_from(Invitation).where(
        Invitation.from_id == player_id, Invitation.status == "pending", Invitation.expires_at > utcnow()))
    return int(n.scalar_one())


async def existing(session: AsyncSession, room: str, from_id: str, to_id: str) -> Invitation | None:
    """A pending invitation from `from_id` to `to_id` for `room`, if one is still open."""
    result = await session.execute(select(Invitation).where(
        Invitation.room_code == room, Invitation.from_id == from_id, Invitation.to_id == to_id,
        Invitation.status == "pending", Invitation.expires_at > utcnow()))
    return result.scalars().first()


async def create(session: AsyncSession, room: str, from_id: str, to_id: str, seconds: int) -> Invitation:
    now = utcnow()
    inv = Invitation(id=new_id(), room_code=room, from_id=from_id, to_id=to_id, status="pending", created_at=now,
                     expires_at=now + timedelta(seconds=seconds))
    session.add(inv)
    await session.commit()
    return inv


async def get(session: AsyncSession, inv_id: str) -> Invitation | None:
    if not plain_id(inv_id):
        return None
    return await session.get(Invitation, inv_id)


async def answer(session: AsyncSession, inv_id: str, status: str) -> bool:
    """Move a pending, unexpired invitation to `status`; False if it was not open."""
    result = await session.execute(update(Invitation).where(
        Invitation.id == inv_id, Invitation.status == "pending", Invitation.expires_at > utcnow())
        .values(status=status))
    await session.commit()
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def open_for(session: AsyncSession, player_id: str) -> list[tuple[Invitation, str]]:
    """Pending invitations to the player, newest first, with the inviter's name."""
    result = await session.execute(
        select(Invitation, Player.name).join(Player, Player.id == Invitation.from_id)
        .where(Invitation.to_id == player_id, Invitation.status == "pending", Invitation.expires_at > utcnow())
        .order_by(Invitation.created_at.desc()))
    return [(inv, name) for inv, name in result.all()]


async def invited_rooms(session: AsyncSession, player_id: str) -> set[str]:
    """Rooms the player has an open invitation to (they may join those)."""
    result = await session.execute(select(Invitation.room_code).where(
        Invitation.to_id == player_id, Invitation.status.in_(("pending", "accepted")),
        Invitation.expires_at > utcnow() - timedelta(days=1)))
    return {r for (r,) in result.all()}


async def open_rooms(session: AsyncSession, viewer: str, codes: list[str] | set[str]) -> set[str]:
    """Of `codes`, the rooms `viewer` may join or watch: public ones and those they are invited
    to (a friend's private room stays unnamed to everyone else)."""
    if not codes:
        return set()
    public = await session.execute(select(Room.code).where(Room.code.in_(list(codes)), Room.public.is_(True)))
    return ({c for (c,) in public.all()} | await invited_rooms(session, viewer)) & set(codes)
