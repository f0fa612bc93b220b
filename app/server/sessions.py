"""Sessions: a bearer token is one signed-in device. `DELETE /api/sessions/current` signs that
device out: the token stops working at once, on REST and on the sockets that said hello with
it (here at once, on other instances within a heartbeat)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.store.tokens import hash_token, revoke

from .deps import BearerToken, CurrentPlayer, Session

router = APIRouter(prefix="/api/sessions", tags=["sessions"])


@router.delete("/current", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def sign_out(token: BearerToken, _player: CurrentPlayer, session: Session, request: Request) -> Response:
    """Sign this device out (the token the request carries)."""
    await revoke(session, token)
    request.app.state.open_sockets.revoked(hash_token(token))
    return Response(status_code=status.HTTP_204_NO_CONTENT)
