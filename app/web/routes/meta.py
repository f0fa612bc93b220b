"""Health and the option catalogue for the create-room form."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.rooms.core.config import catalog, rated_turn_bounds
from app.rooms.core.pace import DEFAULT_TURN_BASED_SECONDS, MAX_TURN_BASED_SECONDS
from app.store.repositories.health import probe_write
from app.web.http.deps import AppSettings, Session
from app.web.http.language import localize_catalog, request_lang
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.wire.responses import Catalog, Health

router = APIRouter(tags=["meta"])
log = logging.getLogger(__name__)


@router.get("/healthz", response_model=Health)
async def healthz(session: Session, request: Request) -> dict[str, Any]:
    """200 once the app can serve (the database answers), naming this instance; 503 while it
    drains to stop."""
    svc = services(request.app)
    rooms = svc.rooms if svc.started else None
    if rooms is not None and rooms.draining:
        raise Refused(status.HTTP_503_SERVICE_UNAVAILABLE, "this instance is restarting", reason="instance_restarting")
    instance = rooms.instance if rooms is not None else None
    if not await _takes_writes(request, session, instance or "-"):
        raise Refused(status.HTTP_503_SERVICE_UNAVAILABLE, "the database does not take writes just now",
                      reason="no_writes")
    return {"ok": True, "instance": instance}


PROBE_EVERY = 2.0  # seconds: /healthz writes at most this often, whoever asks


async def _takes_writes(request: Request, session: AsyncSession, instance: str) -> bool:
    """Does the database take a write (a row of this instance, rewritten)? A read alone
    succeeds with the disk full or another process holding the write lock."""
    svc = services(request.app)
    checked = svc.health_checked
    now = svc.clock.monotonic()
    if checked is not None and now - checked[0] < PROBE_EVERY:
        return bool(checked[1])
    try:
        await probe_write(session, instance)
        ok = True
    except Exception as e:
        log.warning("health probe: the database refused a write: %s", e)
        ok = False
    svc.health_checked = (svc.clock.monotonic(), ok)
    return ok


@router.get("/api/options", response_model=Catalog, response_model_exclude_unset=True)
async def options(settings: AppSettings, request: Request,
                  lang: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
    """Presets, every option (default, kind, help), bot levels, turn clock bounds, what
    happens to a player who is away; the words in
    `lang` (else the language Accept-Language asks for; English by default)."""
    out = localize_catalog(catalog(), request_lang(request, lang))
    out["turn_seconds"] = {"min": settings.min_turn_seconds, "max": settings.max_turn_seconds, "default": None}
    least, rated = rated_turn_bounds(settings.min_turn_seconds, settings.max_turn_seconds,
                                     settings.rated_min_turn_seconds)
    out["rated_turn_seconds"] = {"min": least, "max": settings.max_turn_seconds, "default": rated}
    out["hints"] = {"default": True}
    out["turn_based_seconds"] = {"min": settings.turn_based_min_seconds, "max": MAX_TURN_BASED_SECONDS,
                                 "default": max(settings.turn_based_min_seconds, DEFAULT_TURN_BASED_SECONDS)}
    out["away"] = {"stand_in_seconds": settings.absent_grace, "missed_turns": settings.missed_turns}
    return out
