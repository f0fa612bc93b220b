"""Vacations: an account holder's turn-based deadlines wait while they are away.

Starting one spends whole days of the year's allowance; ending it early gives back the whole
days not used. The deadlines of the turns already waiting for them move: to the vacation's end
plus a whole turn when it starts, back to at most a whole turn from now when it ends early
(`rewake`); new turns are given their deadline by the room core (`pace.on_vacation`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.records import RoomStatus
from app.store.tables import Match, Room, Seat, Vacation

DAY = timedelta(days=1)


class VacationRefused(ValueError):
    """The vacation cannot be taken: only `left` days are left this year."""

    def __init__(self, left: int) -> None:
        super().__init__(f"you have {left} vacation {'day' if left == 1 else 'days'} left this year")
        self.left = left


def _fresh(v: Vacation | None, year: int) -> int:
    return v.days_used if v is not None and v.year == year else 0


async def status(session: AsyncSession, player_id: str, now: datetime, allowance: int) -> tuple[datetime | None, int]:
    """(until, if on vacation now; days left this year)."""
    v = await session.get(Vacation, player_id)
    until = v.until if v is not None and v.until > now else None
    return until, allowance - _fresh(v, now.year)


async def start(session: AsyncSession, player_id: str, days: int, now: datetime, allowance: int) -> datetime:
    """Go on vacation for `days` (VacationRefused past the allowance); returns its end."""
    v = await session.get(Vacation, player_id, with_for_update=True)
    used = _fresh(v, now.year)
    if v is not None and v.until > now:
        used -= int((v.until - now) / DAY)  # a vacation running now is replaced: its unused days come back
    if used + days > allowance:
        raise VacationRefused(max(0, allowance - used))
    until = now + days * DAY
    if v is None:
        session.add(Vacation(player_id=player_id, until=until, year=now.year, days_used=used + days))
    else:
        v.until, v.year, v.days_used = until, now.year, used + days
    await session.commit()
    return until


async def end(session: AsyncSession, player_id: str, now: datetime) -> bool:
    """End the player's vacation now (the whole days not used come back); False if none ran."""
    v = await session.get(Vacation, player_id, with_for_update=True)
    if v is None or v.until <= now:
        return False
    if v.year == now.year:
        v.days_used = max(0, v.days_used - int((v.until - now) / DAY))
    v.until = now
    await session.commit()
    return True


async def active(session: AsyncSession, player_ids: list[str], now: datetime) -> dict[str, datetime]:
    """Who of these is on vacation now, and until when."""
    if not player_ids:
        return {}
    rows = (await session.execute(select(Vacation.player_id, Vacation.until)
                                  .where(Vacation.player_id.in_(player_ids), Vacation.until > now))).all()
    return {pid: until for pid, until in rows}


async def rewake(session: AsyncSession, player_id: str, until: datetime | None, now: datetime) -> list[str]:
    """Move the deadlines of the turn-based turns waiting for the player: to `until` plus a
    whole turn (a vacation starts), or to at most a whole turn from now (it ended). Returns the
    rooms changed."""
    q = (select(Match.id, Match.room_code, Match.turn_deadline, Match.turn_seconds)
         .join(Room, Room.match_id == Match.id)
         .join(Seat, (Seat.match_id == Match.id) & (Seat.seat == Match.turn_seat))
         .where(Room.pace == "turn_based", Room.status == RoomStatus.PLAYING, Match.status == "playing",
                Seat.player_id == player_id, Match.turn_deadline.is_not(None)))
    changed: list[str] = []
    for mid, code, deadline, turn in (await session.execute(q)).all():
        assert deadline is not None
        whole = timedelta(seconds=turn or 0)
        new = max(deadline, until + whole) if until is not None else min(deadline, now + whole)
        if new != deadline:
            await session.execute(update(Match).where(Match.id == mid).values(turn_deadline=new, wake_at=new))
            changed.append(code)
    await session.commit()
    return changed
