"""Web Push subscriptions: the server's VAPID public key, and each device's
subscription. An endpoint is kept only if the server may post to it (`notify.push.check_endpoint`:
https, a host on SPITE_PUSH_HOSTS); anything else is 422 and nothing is stored."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.platform.notify.push import BadSubscription, check_endpoint, check_keys
from app.store.repositories import outbox
from app.web.http.deps import AppSettings, CurrentPlayer, Session
from app.web.http.refused import Refused
from app.web.http.services import services

router = APIRouter(tags=["notifications"])


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class Keys(_Body):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=64)


class Subscribe(_Body):
    endpoint: str = Field(min_length=1, max_length=1024)
    keys: Keys


class Unsubscribe(_Body):
    endpoint: str = Field(min_length=1, max_length=1024)


class PushKey(BaseModel):
    public_key: str = Field(description="base64url of the uncompressed P-256 point (applicationServerKey)")


class Subscribed(BaseModel):
    endpoint: str


@router.get("/api/push/key", response_model=PushKey)
async def push_key(request: Request) -> dict[str, Any]:
    """The server's VAPID public key (RFC 8292), for `pushManager.subscribe`."""
    return {"public_key": services(request.app).vapid.public_key}


@router.post("/api/players/me/push", status_code=status.HTTP_201_CREATED, response_model=Subscribed)
async def subscribe(body: Subscribe, player: CurrentPlayer, session: Session, settings: AppSettings) -> dict[str, Any]:
    """Keep this device's push subscription (your_turn and match_over messages come to it)."""
    try:
        endpoint = check_endpoint(body.endpoint, settings.push_hosts, settings.push_allow_http)
        p256dh, auth = check_keys(body.keys.p256dh, body.keys.auth)
    except BadSubscription as e:
        raise Refused(422, str(e), reason="bad_push_subscription") from e
    await outbox.subscribe(session, player.id, endpoint, p256dh, auth, settings.max_push_subscriptions)
    return {"endpoint": endpoint}


@router.delete("/api/players/me/push", status_code=status.HTTP_204_NO_CONTENT, response_class=Response)
async def unsubscribe(body: Unsubscribe, player: CurrentPlayer, session: Session) -> Response:
    """Forget this device's subscription (no error if it was not kept)."""
    await outbox.unsubscribe(session, player.id, body.endpoint)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
