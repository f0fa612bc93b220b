"""Vacation: an account holder stops their turn-based deadlines for some days."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.store.repositories import vacations
from app.store.tables import utcnow
from app.web.http.deps import AppSettings, CurrentPlayer, Rooms, Session
from app.web.http.refused import Refused

router = APIRouter(prefix="/api/players/me/vacation", tags=["vacation"])


class TakeVacation(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    days: int = Field(ge=1, le=366)


class VacationOut(BaseModel):
    until: str | None = Field(description="the vacation's end (ISO 8601), null when not on vacation")
    days_left: int = Field(description="vacation days left this year (SPITE_VACATION_DAYS a year)")


async def _out(session: Session, player_id: str, allowance: int) -> dict[str, Any]:
    until, left = await vacations.status(session, player_id, utcnow(), allowance)
    return {"until": until.isoformat() if until else None, "days_left": left}


@router.get("", response_model=VacationOut)
async def show(player: CurrentPlayer, session: Session, settings: AppSettings) -> dict[str, Any]:
    """Your vacation, if any, and the days left this year."""
    return await _out(session, player.id, settings.vacation_days)


@router.put("", response_model=VacationOut)
async def take(body: TakeVacation, player: CurrentPlayer, session: Session, settings: AppSettings,
               rooms: Rooms) -> dict[str, Any]:
    """Stop the clock of every turn-based turn of yours for `days` days, or until you move."""
    if not player.has_account:
        raise Refused(status.HTTP_403_FORBIDDEN, "vacation is for players with an account", reason="vacation_account")
    if body.days > settings.vacation_days:
        raise Refused(422, f"days must be from 1 to {settings.vacation_days}", reason="vacation_days",
                      max=settings.vacation_days)
    now = utcnow()
    try:
        _, shift = await vacations.start(session, player.id, body.days, now, settings.vacation_days)
    except vacations.VacationRefused as e:
        raise Refused(status.HTTP_409_CONFLICT, str(e), reason="vacation_left", n=e.left) from e
    await rooms.deadlines_changed(await vacations.rewake(session, player.id, shift))
    return await _out(session, player.id, settings.vacation_days)


@router.delete("", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def finish(player: CurrentPlayer, session: Session, rooms: Rooms) -> Response:
    """End your vacation now: your waiting turns have the time back that they had left when
    it began (a turn begun meanwhile, a whole turn), not a fresh turn."""
    changed = await vacations.stop(session, player.id, utcnow())
    if changed:
        await rooms.deadlines_changed(changed)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
