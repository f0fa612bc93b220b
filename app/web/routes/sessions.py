"""Sessions: a bearer token is one signed-in device. `DELETE /api/sessions/current` signs that
device out, `DELETE /api/sessions` every device ("sign out everywhere"), `DELETE
/api/sessions/{id}` one of them; `GET /api/sessions` lists them. An ended token stops working
at once, on REST and on the sockets that said hello with it (here at once, on other instances
within a heartbeat). A session's id is the start of its token's hash: it does not sign anyone in."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel

from app.domain.device import parts
from app.store.repositories.tokens import hash_token, live_tokens, revoke, revoke_all, revoke_one
from app.web.http.deps import AppSettings, BearerToken, CurrentPlayer, Session
from app.web.http.refused import Refused
from app.web.http.services import services

router = APIRouter(prefix="/api/sessions", tags=["sessions"])
ID_CHARS = 16


class SessionOut(BaseModel):
    """A signed-in device: when it signed in and was last used (to within a day), and (Extension)
    its browser and system as read from the User-Agent when it signed in (null where unknown)."""

    id: str
    created_at: datetime
    used_at: datetime
    current: bool
    browser: str | None
    system: str | None


class SessionList(BaseModel):
    items: list[SessionOut]


@router.get("", response_model=SessionList)
async def list_sessions(token: BearerToken, player: CurrentPlayer, session: Session,
                        settings: AppSettings) -> SessionList:
    """Your signed-in devices, the most recently used first."""
    mine = hash_token(token)
    rows = await live_tokens(session, player.id, settings.token_idle_days)
    return SessionList(items=[SessionOut(id=t.token_hash[:ID_CHARS], created_at=t.created_at, used_at=t.used_at,
                                         current=t.token_hash == mine, browser=parts(t.device)[0],
                                         system=parts(t.device)[1]) for t in rows])


@router.delete("/current", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def sign_out(token: BearerToken, _player: CurrentPlayer, session: Session, request: Request) -> Response:
    """Sign this device out (the token the request carries)."""
    await revoke(session, token)
    services(request.app).open_sockets.revoked(hash_token(token))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def sign_out_everywhere(player: CurrentPlayer, session: Session, request: Request) -> Response:
    """Sign every device of yours out, this one included."""
    for gone in await revoke_all(session, player.id):
        services(request.app).open_sockets.revoked(gone)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/{session_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def sign_out_one(session_id: str, player: CurrentPlayer, session: Session, request: Request) -> Response:
    """Sign one of your devices out, by the id `GET /api/sessions` shows."""
    if len(session_id) != ID_CHARS or any(c not in "0123456789abcdef" for c in session_id):
        raise Refused(status.HTTP_404_NOT_FOUND, "no such session", reason="no_session")
    gone = await revoke_one(session, player.id, session_id)
    if gone is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no such session", reason="no_session")
    services(request.app).open_sockets.revoked(gone)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
