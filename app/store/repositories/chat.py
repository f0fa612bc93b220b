"""Each room's recent chat: a line is stored before anyone is shown it, and only the room's
latest `keep` lines are kept (older ones are deleted as new ones come)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.tables import ChatLine


async def add_line(session: AsyncSession, room: str, sender: Mapping[str, Any], text: str, at: datetime,
                   keep: int) -> None:
    """Store a line of `room`'s chat and forget all but the latest `keep` (0: store nothing)."""
    if keep > 0:
        session.add(ChatLine(room_code=room, sender=sender, text=text, at=at))
        await session.flush()
    cutoff = (select(ChatLine.id).where(ChatLine.room_code == room).order_by(ChatLine.id.desc())
              .offset(keep).limit(1)).scalar_subquery()
    await session.execute(delete(ChatLine).where(ChatLine.room_code == room, ChatLine.id <= cutoff))
    await session.commit()


async def recent_lines(session: AsyncSession, room: str, limit: int) -> list[tuple[dict[str, Any], str, datetime]]:
    """The room's latest `limit` lines, oldest first: (sender, text, at)."""
    rows = (await session.execute(select(ChatLine).where(ChatLine.room_code == room)
                                  .order_by(ChatLine.id.desc()).limit(limit))).scalars().all()
    return [(dict(r.sender), r.text, r.at) for r in reversed(rows)]
