"""Dependencies shared by the routers, with `Annotated` aliases: the database session, the
room service, the settings (all three from the app's `services.Services`), the caller (from
`Authorization: Bearer <token>`), and a limit per client address (`per_address`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.platform.settings import Settings
from app.rooms.shell.service import RoomService
from app.store.repositories.tokens import player_by_token
from app.store.tables import Player
from app.web.http.addresses import client_key
from app.web.http.refused import Refused, note_player_lang
from app.web.http.services import services

bearer = HTTPBearer(auto_error=False, description="The token POST /api/players gave you.")


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with services(request.app).sessions() as session:
        yield session


def get_rooms(request: Request) -> RoomService:
    return services(request.app).rooms


def get_settings(request: Request) -> Settings:
    return services(request.app).settings


Session = Annotated[AsyncSession, Depends(get_session)]
Rooms = Annotated[RoomService, Depends(get_rooms)]
AppSettings = Annotated[Settings, Depends(get_settings)]


def _no_token() -> Refused:
    return Refused(status.HTTP_401_UNAUTHORIZED, "send Authorization: Bearer <token>", reason="no_token",
                   headers={"WWW-Authenticate": "Bearer"})


async def current_player(session: Session, settings: AppSettings, request: Request,
                         credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Player:
    """The player whose token the request carries (401 otherwise)."""
    if credentials is None:
        raise _no_token()
    player = await player_by_token(session, credentials.credentials, settings.token_idle_days)
    await session.close()  # hand the connection back: the handler may need one of its own
    if player is None:
        note_player_lang(request, None)
        raise Refused(status.HTTP_401_UNAUTHORIZED, "that token is not valid", reason="bad_token",
                      headers={"WWW-Authenticate": "Bearer"})
    note_player_lang(request, player.lang)
    return player


CurrentPlayer = Annotated[Player, Depends(current_player)]


async def maybe_player(session: Session, settings: AppSettings, request: Request,
                       credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Player | None:
    """The caller if the request carries a valid token, else None (anyone may ask)."""
    if credentials is None:
        return None
    player = await player_by_token(session, credentials.credentials, settings.token_idle_days)
    await session.close()
    note_player_lang(request, player.lang if player is not None else None)
    return player


MaybePlayer = Annotated[Player | None, Depends(maybe_player)]


def bearer_token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    """The token the request carries (401 if none)."""
    if credentials is None:
        raise _no_token()
    return credentials.credentials


BearerToken = Annotated[str, Depends(bearer_token)]


def per_address(kind: str):  # type: ignore[no-untyped-def]
    """A route dependency: `kind` counted per client address."""

    async def limit(request: Request) -> None:
        services(request.app).limiter.check(kind, client_key(request))

    return limit
