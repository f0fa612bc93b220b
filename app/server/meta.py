"""Health and the option catalogue for the create-room form."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, status
from sqlalchemy import text

from app.rooms.config import catalog

from .deps import AppSettings, Session

router = APIRouter(tags=["meta"])


@router.get("/healthz")
async def healthz(session: Session) -> dict[str, Any]:
    """200 once the app can serve (the database answers)."""
    try:
        await session.execute(text("SELECT 1"))
    except Exception as e:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "the database is not answering") from e
    return {"ok": True}


@router.get("/api/options")
async def options(settings: AppSettings) -> dict[str, Any]:
    """Presets, every option (default, kind, help), bot levels, turn clock bounds."""
    out = catalog()
    out["turn_seconds"] = {"min": settings.min_turn_seconds, "max": settings.max_turn_seconds, "default": None}
    out["hints"] = {"default": True}
    return out
