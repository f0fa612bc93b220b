"""Health and the option catalogue for the create-room form."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from sqlalchemy import text

from app.rooms.config import catalog

from .deps import AppSettings, Session
from .responses import Catalog, Health

router = APIRouter(tags=["meta"])


@router.get("/healthz", response_model=Health)
async def healthz(session: Session, request: Request) -> dict[str, Any]:
    """200 once the app can serve (the database answers), naming this instance; 503 while it
    drains to stop."""
    rooms = getattr(request.app.state, "rooms", None)
    if rooms is not None and rooms.draining:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "this instance is restarting")
    try:
        await session.execute(text("SELECT 1"))
    except Exception as e:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "the database is not answering") from e
    return {"ok": True, "instance": rooms.instance if rooms is not None else None}


@router.get("/api/options", response_model=Catalog, response_model_exclude_unset=True)
async def options(settings: AppSettings) -> dict[str, Any]:
    """Presets, every option (default, kind, help), bot levels, turn clock bounds."""
    out = catalog()
    out["turn_seconds"] = {"min": settings.min_turn_seconds, "max": settings.max_turn_seconds, "default": None}
    out["hints"] = {"default": True}
    return out
