"""Rooms over REST: create one (you are its host), list public ones, look one up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Depends, Request, status

from app.rooms.core import errors as E
from app.rooms.core.errors import RoomError
from app.rooms.core.messages import hiding
from app.store.repositories import social, tournaments
from app.web.http.addresses import client_key
from app.web.http.deps import AppSettings, CurrentPlayer, MaybePlayer, Rooms, Session, per_address
from app.web.http.refused import Refused
from app.web.http.services import services
from app.web.wire.requests import NewRoom
from app.web.wire.responses import RoomLinks, RoomList

router = APIRouter(prefix="/api/rooms", tags=["rooms"])
STATUS = {E.BAD_OPTIONS: 422, E.RATE_LIMITED: 429, E.UNAVAILABLE: 503, E.RATED_ROOM: 403}


def _with_links(base: str, room: Mapping[str, Any]) -> dict[str, Any]:
    """A room with its links. The invite link is built from SPITE_PUBLIC_URL, never from the
    request (a forged Host header must not put another site's address in an invite)."""
    return {**room, "invite_url": f"{base.rstrip('/')}/r/{room['code']}", "socket_path": f"/ws/rooms/{room['code']}"}


@router.post("", status_code=status.HTTP_201_CREATED, response_model=RoomLinks,
             dependencies=[Depends(per_address("new_rooms"))])
async def create(body: NewRoom, player: CurrentPlayer, rooms: Rooms, settings: AppSettings,
                 request: Request) -> dict[str, Any]:
    """Create a room. `seats` and `options.players` are the same; `seed` needs seeded rooms."""
    services(request.app).limiter.check("player_rooms", player.id)
    if body.public:  # the public list is shared: one address (many guests) cannot fill it
        services(request.app).limiter.check("public_rooms", client_key(request))
    if body.seed is not None and not settings.seeded_rooms:
        raise Refused(status.HTTP_403_FORBIDDEN, "this server does not take seeds (SPITE_SEEDED_ROOMS)",
                      reason="no_seeds")
    try:
        room = await rooms.create_room(player, preset=body.preset, options=body.options, seats=body.seats,
                                       public=body.public, turn_seconds=body.turn_seconds, hints=body.hints,
                                       seed=body.seed, rated=body.rated, pace=body.pace, sit=body.sit)
    except RoomError as e:
        raise Refused(STATUS.get(e.code, 400), e.message, reason=e.reason,
                      fields={"option": e.option} if e.option else None, **e.params) from e
    return _with_links(settings.public_url, room)


@router.get("", response_model=RoomList)
async def public(rooms: Rooms, settings: AppSettings) -> dict[str, Any]:
    """Public rooms waiting for players, newest first."""
    return {"items": [_with_links(settings.public_url, r) for r in await rooms.public_rooms()]}


@router.get("/{code}", response_model=RoomLinks)
async def one(code: str, rooms: Rooms, settings: AppSettings, viewer: MaybePlayer, session: Session) -> dict[str, Any]:
    """A room; asked with a token, the players the caller blocked are not among its watchers."""
    room = await rooms.describe(code)
    if room is None:
        raise Refused(status.HTTP_404_NOT_FOUND, "no room has that code", reason="no_room")
    if viewer is not None and room["watchers"]:
        room = hiding(room, await social.blocked_by(session, viewer.id))
    table = await tournaments.table_of_room(session, code)
    links = _with_links(settings.public_url, room)
    if table is not None:
        links["tournament"] = {"id": table[0], "round": table[1]}
    return links
