"""Matches: one match in full, and the replay of a finished one."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status

from app.rooms.shell.replay import BadStep, NotOver, replay
from app.store.repositories import history
from app.web.http.deps import MaybePlayer, Session, per_address
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.routes import daily
from app.web.wire.responses import MatchDetail, Replay, ReplayStep

router = APIRouter(prefix="/api/matches", tags=["matches"])
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what the store makes; anything else names no match


def _known_shape(match_id: str) -> None:
    """A 404 before any query for an id no match can have (a NUL byte would fail PostgreSQL)."""
    if not MATCH_ID.fullmatch(match_id):
        raise Refused(status.HTTP_404_NOT_FOUND, "no match has that id", reason="no_match")


@router.get("/{match_id}", response_model=MatchDetail)
async def detail(match_id: str, session: Session, viewer: MaybePlayer, request: Request) -> dict[str, Any]:
    """Players, options, hands with results and scores, start and end. `room` is null unless
    the room is public or the caller (by token) played in the match."""
    _known_shape(match_id)
    found = await history.match_detail(session, match_id, viewer.id if viewer else None,
                                       services(request.app).settings.abandoned_after)
    if found is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no match has that id", reason="no_match")
    day = await daily.sealed_day(request, match_id, session)  # a daily deal's seed stays hidden all its day
    return found if day is None else daily.seal_detail(found, daily.today_of(services(request.app).settings))


@router.get("/{match_id}/replay", response_model=Replay | ReplayStep,
            dependencies=[Depends(per_address("replays"))])
async def match_replay(match_id: str, request: Request,
                       at: Annotated[int | None, Query(ge=0, le=10_000_000)] = None) -> dict[str, Any]:
    """Once over: every move and seed; with `at=N` the whole table after version N, face up."""
    _known_shape(match_id)
    await daily.refuse_sealed(request, match_id)
    try:
        found = await replay(services(request.app).sessions, match_id, at)
    except NotOver as e:
        raise Refused(status.HTTP_409_CONFLICT, str(e), reason="replay_not_over") from e
    except BadStep as e:
        raise Refused(status.HTTP_422_UNPROCESSABLE_CONTENT, str(e), reason="at_range", total=e.total) from e
    if found is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no match has that id", reason="no_match")
    return found
