"""Vacations: an account holder's turn-based deadlines wait while they are away.

Starting one spends whole days of the year's allowance; ending it early gives back the whole
days not used. A vacation stops the clock of the turns already waiting for them: each deadline
moves by the vacation's length when it starts (the time left on the turn is kept for the
return), and back by the part not used when it ends early (`rewake`, by `shift`); a vacation
taken while one runs moves them by the difference of the two ends. So ending a vacation early
gives back the time that was left, never a fresh turn. New turns are given their deadline by the
room core (`pace.on_vacation`: a whole turn from the vacation's end, moved back as well if it ends
early)."""

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


async def start(session: AsyncSession, player_id: str, days: int, now: datetime,
                allowance: int) -> tuple[datetime, timedelta]:
    """Go on vacation for `days` (VacationRefused past the allowance); returns its end and how
    far the waiting turns' deadlines move (the whole vacation, or past the end of the one it
    replaces: the difference)."""
    v = await session.get(Vacation, player_id, with_for_update=True)
    used = _fresh(v, now.year)
    running = v is not None and v.until > now
    if v is not None and running:
        used -= int((v.until - now) / DAY)  # a vacation running now is replaced: its unused days come back
    if used + days > allowance:
        raise VacationRefused(max(0, allowance - used))
    until = now + days * DAY
    shift = until - (v.until if v is not None and running else now)
    if v is None:
        session.add(Vacation(player_id=player_id, until=until, year=now.year, days_used=used + days))
    else:
        v.until, v.year, v.days_used = until, now.year, used + days
    await session.commit()
    return until, shift


async def end(session: AsyncSession, player_id: str, now: datetime) -> timedelta | None:
    """End the player's vacation now (the whole days not used come back); how far the waiting
    turns' deadlines move back (the part not used), or None if none ran."""
    v = await session.get(Vacation, player_id, with_for_update=True)
    if v is None or v.until <= now:
        return None
    if v.year == now.year:
        v.days_used = max(0, v.days_used - int((v.until - now) / DAY))
    unused = v.until - now
    v.until = now
    await session.commit()
    return -unused


async def stop(session: AsyncSession, player_id: str, now: datetime) -> list[str]:
    """End the player's vacation now (`DELETE`, or their own move) and move the waiting turns'
    deadlines back by the part not used; the rooms changed."""
    shift = await end(session, player_id, now)
    return [] if shift is None else await rewake(session, player_id, shift)


async def active(session: AsyncSession, player_ids: list[str], now: datetime) -> dict[str, datetime]:
    """Who of these is on vacation now, and until when."""
    if not player_ids:
        return {}
    rows = (await session.execute(select(Vacation.player_id, Vacation.until)
                                  .where(Vacation.player_id.in_(player_ids), Vacation.until > now))).all()
    return {pid: until for pid, until in rows}


async def rewake(session: AsyncSession, player_id: str, shift: timedelta) -> list[str]:
    """Move the deadlines of the turn-based turns waiting for the player by `shift` (later as a
    vacation starts, back by its unused part when it ends early: the clock stopped meanwhile).
    Returns every turn-based room being played where the player sits: each reads the vacation
    again, so a turn of theirs that begins there later gets its deadline after the vacation
    (`pace.on_vacation`), not a deadline this shift would later cut short."""
    q = (select(Match.id, Match.room_code, Match.turn_deadline, Match.turn_seat, Seat.seat)
         .join(Room, Room.match_id == Match.id)
         .join(Seat, Seat.match_id == Match.id)
         .where(Room.pace == "turn_based", Room.status == RoomStatus.PLAYING, Match.status == "playing",
                Seat.player_id == player_id))
    seated: list[str] = []
    for mid, code, deadline, turn_seat, seat in (await session.execute(q)).all():
        seated.append(code)
        if shift and deadline is not None and turn_seat == seat:
            new = deadline + shift
            await session.execute(update(Match).where(Match.id == mid).values(turn_deadline=new, wake_at=new))
    await session.commit()
    return sorted(set(seated))
