"""The daily deal's rows: one deal per UTC day, made once by whichever instance
asks first (an insert that does nothing if the day exists, then a read: every instance gets
the same seed), and one entry per player and day (the primary key makes the second refused,
however many requests race), with its claims: the tries taken that day from the same client
address or device, each in a numbered slot under its limit (a primary key again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.records import Attempt
from app.engine import MatchStatus
from app.store.tables import DailyClaim, DailyDeal, DailyEntry, Player, Score, utcnow
from app.store.tables import Match as MatchRow
from app.store.tables import Move as MoveRow


class AlreadyPlayed(Exception):
    """The player already has an entry for that day."""


async def deal_of(session: AsyncSession, day: str) -> DailyDeal | None:
    return await session.get(DailyDeal, day)


async def ensure_deal(session: AsyncSession, day: str, *, seed: str, commitment: str, preset: str,
                      options: dict[str, Any]) -> DailyDeal:
    """The day's deal, made with these values if nobody made it first."""
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    await session.execute(insert(DailyDeal).values(day=day, seed=seed, commitment=commitment, preset=preset,
                                                   options=options, created_at=utcnow())
                          .on_conflict_do_nothing(index_elements=[DailyDeal.day]))
    await session.commit()
    deal = await session.get(DailyDeal, day, populate_existing=True)
    assert deal is not None
    return deal


class Claimed(Exception):
    """The day's tries from that address or device (`kind`) are taken."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Claim:
    """A try counted against something besides the player: `kind` ("address", "device"), its
    `key` (`daily_deal.claim_key`) and how many tries a day it has."""

    kind: str
    key: str
    limit: int


async def _slots(session: AsyncSession, day: str, claims: Sequence[Claim]) -> list[int]:
    """The next free slot of each claim; Claimed for the first one used up."""
    slots = []
    for claim in claims:
        used = (await session.execute(select(DailyClaim.slot).where(
            DailyClaim.day == day, DailyClaim.kind == claim.kind, DailyClaim.key == claim.key))).scalars().all()
        free = next((i for i in range(claim.limit) if i not in set(used)), None)
        if free is None:
            raise Claimed(claim.kind)
        slots.append(free)
    return slots


async def enter(session: AsyncSession, day: str, player_id: str, claims: Sequence[Claim] = ()) -> None:
    """Take the player's one attempt of the day and a try of each claim, together or not at
    all (AlreadyPlayed if the player's is taken, Claimed naming the first claim used up). A
    request that lost a race for a slot looks again, so racing requests never share one."""
    for _ in range(max([c.limit for c in claims], default=0) + 2):
        if await session.get(DailyEntry, (day, player_id)) is not None:
            raise AlreadyPlayed
        slots = await _slots(session, day, claims)
        now = utcnow()
        session.add(DailyEntry(day=day, player_id=player_id, room_code=None, match_id=None, created_at=now))
        session.add_all([DailyClaim(day=day, kind=c.kind, key=c.key, slot=slot, player_id=player_id, created_at=now)
                         for c, slot in zip(claims, slots, strict=True)])
        try:
            await session.commit()
            return
        except IntegrityError:
            await session.rollback()
    if claims and await session.get(DailyEntry, (day, player_id)) is None:
        raise Claimed(claims[0].kind)
    raise AlreadyPlayed


async def forget(session: AsyncSession, day: str, player_id: str) -> None:
    """Give the attempt back, and its tries (its room could not be made)."""
    entry = await session.get(DailyEntry, (day, player_id))
    if entry is not None and entry.room_code is None:
        await session.delete(entry)
        await session.execute(delete(DailyClaim).where(DailyClaim.day == day, DailyClaim.player_id == player_id))
        await session.commit()


async def set_room(session: AsyncSession, day: str, player_id: str, room: str, match_id: str | None) -> None:
    entry = await session.get(DailyEntry, (day, player_id))
    if entry is not None:
        entry.room_code, entry.match_id = room, match_id
        await session.commit()


async def entry_of(session: AsyncSession, day: str, player_id: str) -> DailyEntry | None:
    return await session.get(DailyEntry, (day, player_id))


async def attempts(session: AsyncSession, day: str, player_id: str | None = None) -> list[Attempt]:
    """Every attempt of the day (or one player's), as far as it has gone: the player sits in
    seat 0 against the bot."""
    query = (select(DailyEntry.player_id, Player.name, MatchRow.id, MatchRow.status, MatchRow.winners)
             .join(Player, Player.id == DailyEntry.player_id)
             .join(MatchRow, MatchRow.id == DailyEntry.match_id)
             .where(DailyEntry.day == day))
    if player_id is not None:
        query = query.where(DailyEntry.player_id == player_id)
    rows = (await session.execute(query)).all()
    if not rows:
        return []
    ids = [r[2] for r in rows]
    left = dict((await session.execute(select(Score.match_id, func.min(Score.payoff_left))
                                        .where(Score.match_id.in_(ids), Score.seat == 0, Score.hand_number == 1)
                                        .group_by(Score.match_id))).all())
    moves = dict((await session.execute(select(MoveRow.match_id, func.count())
                                         .where(MoveRow.match_id.in_(ids), MoveRow.seat == 0)
                                         .group_by(MoveRow.match_id))).all())
    return [Attempt(pid, name, status == MatchStatus.MATCH_OVER, 0 in (winners or []), int(left.get(mid, 0) or 0),
                    int(moves.get(mid, 0) or 0)) for pid, name, mid, status, winners in rows]
